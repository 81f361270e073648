//! Clause argument grammar: reads the arguments of one clause, after its name,
//! into a typed [`ClauseKind`].

use super::ast::{
    BindName, ClauseKind, DataClause, DataSpelling, DefaultKind, DeviceTypeList, DirectiveKind,
    GangArgs, Ident, ReductionOp, WaitArg,
};
use super::cursor::{skip_literal, Cursor, Stop};
use super::error::{DirectiveError, PResult};
use super::names::ClauseName;

/// Data-clause modifier words known to the grammar (3.3: `readonly`, `zero`;
/// 3.4 adds the others).
const MODIFIERS: &[&str] = &[
    "readonly",
    "zero",
    "always",
    "alwaysin",
    "alwaysout",
    "capture",
];

impl DataClause {
    /// Applies modifier `m` of clause `w` on directive `dir` (OpenACC 3.4
    /// 2.7.4): `always` is `alwaysin` and/or `alwaysout` as the clause
    /// copies in and/or out; `capture` only on structured data and compute
    /// constructs.
    fn modifier(&mut self, m: &Ident, w: &str, dir: &DirectiveKind) -> PResult<()> {
        use super::ast::DataKind as K;
        let k = self.kind;
        let (copies_in, copies_out) = (
            matches!(k, K::Copy | K::CopyIn),
            matches!(k, K::Copy | K::CopyOut),
        );
        let flag = match m.name.as_str() {
            "readonly" if k == K::CopyIn => &mut self.readonly,
            "zero" if matches!(k, K::CopyOut | K::Create) => &mut self.zero,
            "alwaysin" if copies_in => &mut self.always_in,
            "alwaysout" if copies_out => &mut self.always_out,
            "always" if copies_in || copies_out => {
                if self.always_in || self.always_out {
                    return Err(DirectiveError::new(
                        m.span.start,
                        format!("duplicate 'always' modifier on '{w}' clause"),
                    ));
                }
                self.always_in = copies_in;
                self.always_out = copies_out;
                return Ok(());
            }
            "capture" if matches!(k, K::Copy | K::CopyIn | K::CopyOut | K::Create) => {
                let structured = matches!(
                    dir,
                    DirectiveKind::Data
                        | DirectiveKind::Parallel
                        | DirectiveKind::Serial
                        | DirectiveKind::Kernels
                        | DirectiveKind::ParallelLoop
                        | DirectiveKind::SerialLoop
                        | DirectiveKind::KernelsLoop
                );
                if !structured {
                    return Err(DirectiveError::new(
                        m.span.start,
                        format!(
                            "'capture' modifier is only allowed on structured data and compute constructs, not on '{}'",
                            dir.name()
                        ),
                    ));
                }
                &mut self.capture
            }
            name => {
                let msg = if MODIFIERS.contains(&name) {
                    format!("'{name}' modifier is not allowed on '{w}' clause")
                } else {
                    format!("unknown modifier '{name}' on '{w}' clause")
                };
                return Err(DirectiveError::new(m.span.start, msg));
            }
        };
        if *flag {
            return Err(DirectiveError::new(
                m.span.start,
                format!("duplicate '{}' modifier on '{w}' clause", m.name),
            ));
        }
        *flag = true;
        Ok(())
    }
}

impl Cursor<'_> {
    /// Reads the arguments of clause `name` (spelled `word`) on directive `dir`.
    pub fn clause_args(
        &mut self,
        name: ClauseName,
        word: &Ident,
        spelling: DataSpelling,
        dir: &DirectiveKind,
    ) -> PResult<ClauseKind> {
        use ClauseName as N;
        let w = word.name.as_str();
        Ok(match name {
            N::Async => ClauseKind::Async(self.optional_paren_expr(w)?),
            N::Wait => ClauseKind::Wait(if self.eat(b'(') {
                Some(self.wait_arg_tail(w)?)
            } else {
                None
            }),
            N::NumGangs => ClauseKind::NumGangs(self.expr_list(w)?),
            N::NumWorkers => ClauseKind::NumWorkers(self.paren_expr(w)?),
            N::VectorLength => ClauseKind::VectorLength(self.paren_expr(w)?),
            N::DeviceType => ClauseKind::DeviceType {
                list: self.device_type_list(w)?,
                dtype: spelling != DataSpelling::Canonical,
            },
            N::If => ClauseKind::If(self.paren_expr(w)?),
            N::SelfClause if *dir != DirectiveKind::Update => {
                ClauseKind::SelfIf(self.optional_paren_expr(w)?)
            }
            N::Reduction => self.reduction(w)?,
            N::Private => ClauseKind::Private(self.var_list(w)?),
            N::FirstPrivate => ClauseKind::FirstPrivate(self.var_list(w)?),
            N::Finalize => self.no_args(w, ClauseKind::Finalize)?,
            N::IfPresent => self.no_args(w, ClauseKind::IfPresent)?,
            N::Seq => self.no_args(w, ClauseKind::Seq)?,
            N::Independent => self.no_args(w, ClauseKind::Independent)?,
            N::Auto => self.no_args(w, ClauseKind::Auto)?,
            N::NoHost => self.no_args(w, ClauseKind::NoHost)?,
            N::Default => self.default_arg(w)?,
            N::Collapse => {
                self.expect(b'(', || format!("expected '(' after '{w}'"))?;
                let force = self.keyword_colon("force").is_some();
                let count = self.expr(Stop::Paren)?;
                self.close(w)?;
                ClauseKind::Collapse { force, count }
            }
            N::Gang => ClauseKind::Gang(self.gang_args()?),
            N::Worker => ClauseKind::Worker(self.level_arg("num", w)?),
            N::Vector => ClauseKind::Vector(self.level_arg("length", w)?),
            N::Tile => {
                self.expect(b'(', || format!("expected '(' after '{w}'"))?;
                let mut sizes = vec![self.size_expr(Stop::ListItem)?];
                while self.eat(b',') {
                    sizes.push(self.size_expr(Stop::ListItem)?);
                }
                self.close(w)?;
                ClauseKind::Tile(sizes)
            }
            N::Bind => self.bind_arg(w)?,
            N::DeviceNum => ClauseKind::DeviceNum(self.paren_expr(w)?),
            N::DefaultAsync => ClauseKind::DefaultAsync(self.paren_expr(w)?),
            _ => match name.data_kind() {
                Some(kind) => ClauseKind::Data(self.data_clause(kind, spelling, word, dir)?),
                None => return Err(DirectiveError::new(word.span.start, "internal: no grammar")),
            },
        })
    }

    /// `( expr )`
    fn paren_expr(&mut self, w: &str) -> PResult<super::ast::ClauseExpr> {
        self.expect(b'(', || format!("expected '(' after '{w}'"))?;
        let e = self.expr(Stop::Paren)?;
        self.close(w)?;
        Ok(e)
    }

    /// `[( expr )]`
    fn optional_paren_expr(&mut self, w: &str) -> PResult<Option<super::ast::ClauseExpr>> {
        if !self.eat(b'(') {
            return Ok(None);
        }
        let e = self.expr(Stop::Paren)?;
        self.close(w)?;
        Ok(Some(e))
    }

    /// `( var-list )`
    fn var_list(&mut self, w: &str) -> PResult<Vec<super::ast::VarRef>> {
        self.expect(b'(', || format!("expected '(' after '{w}'"))?;
        self.var_list_tail(w)
    }

    /// A clause without arguments: rejects a following `(`.
    fn no_args(&mut self, w: &str, kind: ClauseKind) -> PResult<ClauseKind> {
        if self.peek() == Some(b'(') {
            return Err(self.error(format!("'{w}' clause takes no arguments")));
        }
        Ok(kind)
    }

    /// `[devnum:int-expr:][queues:]int-expr-list )` (the `(` already consumed).
    pub fn wait_arg_tail(&mut self, w: &str) -> PResult<WaitArg> {
        let devnum = if self.keyword_colon("devnum").is_some() {
            let e = self.expr(Stop::Colon)?;
            self.expect(b':', || "expected ':' after 'devnum' value".to_string())?;
            Some(e)
        } else {
            None
        };
        let queues = self.keyword_colon("queues").is_some();
        let queue_exprs = self.expr_list_tail(w)?;
        Ok(WaitArg {
            devnum,
            queues,
            queue_exprs,
        })
    }

    /// `( * )` or `( name {, name} )`
    fn device_type_list(&mut self, w: &str) -> PResult<DeviceTypeList> {
        self.expect(b'(', || format!("expected '(' after '{w}'"))?;
        if self.peek() == Some(b'*') {
            let at = self.pos;
            self.pos += 1;
            self.close(w)?;
            return Ok(DeviceTypeList::Any(at..at + 1));
        }
        let mut names = Vec::new();
        loop {
            match self.ident() {
                Some(id) => names.push(id),
                None => {
                    let found = self.found();
                    return Err(self.error(format!(
                        "expected device type name or '*' in '{w}' clause, found {found}"
                    )));
                }
            }
            if !self.eat(b',') {
                break;
            }
        }
        self.close(w)?;
        Ok(DeviceTypeList::Names(names))
    }

    /// `( op : var-list )`
    fn reduction(&mut self, w: &str) -> PResult<ClauseKind> {
        self.expect(b'(', || format!("expected '(' after '{w}'"))?;
        self.skip_ws();
        let at = self.pos;
        let op = if self.eat_str("&&") {
            ReductionOp::And
        } else if self.eat_str("||") {
            ReductionOp::Or
        } else if self.eat(b'+') {
            ReductionOp::Add
        } else if self.eat(b'*') {
            ReductionOp::Mul
        } else if self.eat(b'&') {
            ReductionOp::BitAnd
        } else if self.eat(b'|') {
            ReductionOp::BitOr
        } else if self.eat(b'^') {
            ReductionOp::BitXor
        } else {
            match self.ident() {
                Some(id) if id.name == "max" => ReductionOp::Max,
                Some(id) if id.name == "min" => ReductionOp::Min,
                _ => {
                    self.pos = at;
                    let found = self.found();
                    return Err(self.error(format!(
                        "invalid reduction operator {found}; expected one of '+', '*', 'max', \
                         'min', '&', '|', '^', '&&', '||'"
                    )));
                }
            }
        };
        self.expect(b':', || "expected ':' after reduction operator".to_string())?;
        let vars = self.var_list_tail(w)?;
        Ok(ClauseKind::Reduction { op, vars })
    }

    /// `( [modifier-list:] var-list )` for a data clause: the modifiers of
    /// OpenACC 3.3 (`readonly`, `zero`) and 3.4 (`always`, `alwaysin`,
    /// `alwaysout`, `capture`), comma-separated before one `:`.
    fn data_clause(
        &mut self,
        kind: super::ast::DataKind,
        spelling: DataSpelling,
        word: &Ident,
        dir: &DirectiveKind,
    ) -> PResult<DataClause> {
        let w = word.name.as_str();
        self.expect(b'(', || format!("expected '(' after '{w}'"))?;
        let mut c = DataClause {
            kind,
            spelling,
            readonly: false,
            zero: false,
            always_in: false,
            always_out: false,
            capture: false,
            vars: vec![],
        };
        for m in self.modifier_list() {
            c.modifier(&m, w, dir)?;
        }
        c.vars = self.var_list_tail(w)?;
        Ok(c)
    }

    /// `ident {, ident} :` (not `::`) if that is next: the identifiers,
    /// consumed with the `:`; else nothing is consumed.
    fn modifier_list(&mut self) -> Vec<Ident> {
        let save = self.pos;
        let mut words = vec![];
        loop {
            if let Some(id) = self.any_keyword_colon() {
                words.push(id);
                return words;
            }
            match self.ident() {
                Some(id) if self.eat(b',') => words.push(id),
                _ => {
                    self.pos = save;
                    return vec![];
                }
            }
        }
    }

    /// `( none | present )`
    fn default_arg(&mut self, w: &str) -> PResult<ClauseKind> {
        self.expect(b'(', || format!("expected '(' after '{w}'"))?;
        self.skip_ws();
        let at = self.pos;
        let kind = match self.ident() {
            Some(id) if id.name == "none" => DefaultKind::None,
            Some(id) if id.name == "present" => DefaultKind::Present,
            _ => {
                return Err(DirectiveError::new(
                    at,
                    "expected 'none' or 'present' in 'default' clause",
                ));
            }
        };
        self.close(w)?;
        Ok(ClauseKind::Default(kind))
    }

    /// `[( gang-arg {, gang-arg} )]` with gang-arg `[num:]e`, `dim:e`, `static:size`.
    fn gang_args(&mut self) -> PResult<GangArgs> {
        let mut args = GangArgs::default();
        if !self.eat(b'(') {
            return Ok(args);
        }
        loop {
            self.skip_ws();
            let at = self.pos;
            let (which, dup) = if self.keyword_colon("static").is_some() {
                let dup = args.static_size.is_some();
                args.static_size = Some(self.size_expr(Stop::ListItem)?);
                ("static", dup)
            } else if self.keyword_colon("dim").is_some() {
                let dup = args.dim.is_some();
                args.dim = Some(self.expr(Stop::ListItem)?);
                ("dim", dup)
            } else {
                self.keyword_colon("num");
                let dup = args.num.is_some();
                args.num = Some(self.expr(Stop::ListItem)?);
                ("num", dup)
            };
            if dup {
                return Err(DirectiveError::new(
                    at,
                    format!("duplicate '{which}' argument in 'gang' clause"),
                ));
            }
            if !self.eat(b',') {
                break;
            }
        }
        self.close("gang")?;
        Ok(args)
    }

    /// `[( [key:] int-expr )]` for `worker` (`num:`) and `vector` (`length:`).
    fn level_arg(&mut self, key: &str, w: &str) -> PResult<Option<super::ast::ClauseExpr>> {
        if !self.eat(b'(') {
            return Ok(None);
        }
        self.keyword_colon(key);
        let e = self.expr(Stop::Paren)?;
        self.close(w)?;
        Ok(Some(e))
    }

    /// `( name )` or `( "string" )`
    fn bind_arg(&mut self, w: &str) -> PResult<ClauseKind> {
        self.expect(b'(', || format!("expected '(' after '{w}'"))?;
        let name = if self.peek() == Some(b'"') {
            let start = self.pos;
            let end = skip_literal(self.text.as_bytes(), start)?;
            self.pos = end;
            BindName::Str {
                literal: self.text[start..end].to_string(),
                span: start..end,
            }
        } else if let Some(id) = self.ident() {
            BindName::Ident(id)
        } else {
            return Err(self.error("expected identifier or string literal in 'bind' clause"));
        };
        self.close(w)?;
        Ok(ClauseKind::Bind(name))
    }
}
