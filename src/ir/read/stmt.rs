//! The reader's statements: one statement of the printed form, with the
//! blocks and expressions it holds.
//!
//! Owns: [`Parser::stmt`] and the counted loop's header, reductions,
//! parallelism and directive.

use super::cursor::{Cursor, Result};
use super::{named, Parser, ATOMIC_OPS, LOOP_CMPS, RED_OPS};
use crate::ir::print::{cmp_name, dim_name, op_name, red_name, scalar_parts};
use crate::ir::{
    BarrierScope, CacheVar, ExprId, LocalId, Loop, LoopDirective, LoopHeader, Parallelism, RedPart,
    RedTarget, Reduction, SrcLoc, Stmt, SwitchArm, Type,
};

impl Parser<'_, '_> {
    pub(super) fn stmt(&mut self) -> Result<Stmt> {
        let c = &mut *self.c;
        c.skip_ws();
        if c.eat("{") {
            return Ok(Stmt::Block(self.block()?));
        }
        if c.peek() == Some('%') {
            return self.assignment();
        }
        let at = c.pos;
        let s = match c.word() {
            "store" => {
                let ptr = self.expr(None)?;
                self.c.expect("<-")?;
                let value = self.expr(self.pointee(ptr).as_ref())?;
                Stmt::Store { ptr, value }
            }
            "if" => {
                // (No expression starts with the word.)
                let single = self.c.tok("single ");
                let cond = self.expr(Some(&Type::BOOL))?;
                self.c.expect("{")?;
                let then = self.block()?;
                let otherwise = if self.c.tok("else") {
                    self.c.expect("{")?;
                    self.block()?
                } else {
                    vec![]
                };
                Stmt::If {
                    cond,
                    then,
                    otherwise,
                    single,
                }
            }
            "loop" => Stmt::Loop(self.counted_loop()?),
            "single" => {
                self.c.expect("{")?;
                Stmt::Single(self.block()?)
            }
            "broadcast" => {
                let value = self.local()?;
                self.c.expect("{")?;
                Stmt::Broadcast {
                    value,
                    performed: self.block()?,
                }
            }
            "while" => {
                let cond = self.expr(Some(&Type::BOOL))?;
                self.c.expect("{")?;
                let body = self.block()?;
                let step = if self.c.tok("step") {
                    self.c.expect("{")?;
                    self.block()?
                } else {
                    vec![]
                };
                Stmt::While { cond, body, step }
            }
            "switch" => self.switch()?,
            "break" => Stmt::Break,
            "continue" => Stmt::Continue,
            "fence" => Stmt::Fence,
            "return" if self.c.at_eol() => Stmt::Return(None),
            "return" => Stmt::Return(Some(self.expr(Some(&self.ret.clone()))?)),
            "barrier" => {
                self.c.skip_ws();
                match self.c.word() {
                    "Block" => Stmt::Barrier(BarrierScope::Block),
                    "Row" => Stmt::Barrier(BarrierScope::Row),
                    _ => return self.c.err("expected 'Block' or 'Row'"),
                }
            }
            "atomic" => {
                self.c.expect_here(".")?;
                if self.c.eat("store") {
                    let (ptr, value) = self.ptr_value()?;
                    Stmt::AtomicStore { ptr, value }
                } else {
                    self.atomic_rmw(None)?
                }
            }
            "call" => self.call(None)?,
            "print" => {
                let format = self.c.quoted_bytes()?;
                let args = self.args()?;
                Stmt::Print { format, args }
            }
            "copy" => {
                let bytes = self.c.unsigned()?;
                self.c.expect("bytes")?;
                let dst = self.expr(None)?;
                self.c.expect("<-")?;
                let src = self.expr(None)?;
                Stmt::Copy { dst, src, bytes }
            }
            w => return Err(self.c.error_at(at, format!("unknown statement '{w}'"))),
        };
        Ok(s)
    }

    /// A statement that starts with a local: an assignment, an atomic or a
    /// call with a result.
    fn assignment(&mut self) -> Result<Stmt> {
        let local = self.local()?;
        if self.c.tok(",") {
            let ok = self.local()?;
            self.c.expect("=")?;
            self.c.expect("atomic.cas")?;
            self.c.expect("(")?;
            let ptr = self.expr(None)?;
            let elem = self.pointee(ptr);
            self.c.expect(",")?;
            let expected = self.expr(elem.as_ref())?;
            self.c.expect(",")?;
            let desired = self.expr(elem.as_ref())?;
            self.c.expect(")")?;
            return Ok(Stmt::AtomicCas {
                ptr,
                expected,
                desired,
                old: local,
                ok,
            });
        }
        self.c.expect("=")?;
        if self.c.tok("call") {
            return self.call(Some(local));
        }
        if self.c.tok("atomic.") {
            if self.c.eat("load") {
                self.c.expect("(")?;
                let ptr = self.expr(None)?;
                self.c.expect(")")?;
                return Ok(Stmt::AtomicLoad { ptr, dst: local });
            }
            return self.atomic_rmw(Some(local));
        }
        let value = self.expr(Some(&self.local_ty(local)))?;
        Ok(Stmt::Assign { local, value })
    }

    /// `(ptr, value)` where the value has the pointee's type.
    fn ptr_value(&mut self) -> Result<(ExprId, ExprId)> {
        self.c.expect("(")?;
        let ptr = self.expr(None)?;
        self.c.expect(",")?;
        let value = self.expr(self.pointee(ptr).as_ref())?;
        self.c.expect(")")?;
        Ok((ptr, value))
    }

    /// `OP(ptr, value)` after `atomic.`.
    fn atomic_rmw(&mut self, old: Option<LocalId>) -> Result<Stmt> {
        let at = self.c.pos;
        let w = self.c.word();
        let op = named(&ATOMIC_OPS, w, op_name)
            .ok_or_else(|| self.c.error_at(at, format!("unknown atomic '{w}'")))?;
        let (ptr, value) = self.ptr_value()?;
        Ok(Stmt::AtomicRmw {
            op,
            ptr,
            value,
            old,
        })
    }

    /// `@name(args)` after `call`.
    fn call(&mut self, result: Option<LocalId>) -> Result<Stmt> {
        self.c.skip_ws();
        let at = self.c.pos;
        let name = self.c.symbol()?;
        let Some(func) = self.names.iter().position(|n| *n == name) else {
            return Err(self.c.error_at(at, format!("unknown function @{name}")));
        };
        let args = self.args()?;
        // ` at "file":line:col`, where the source calls.
        let mut loc = SrcLoc::default();
        if self.c.tok("at") {
            loc.file = self.c.quoted()?;
            self.c.expect_here(":")?;
            loc.line = self.c.unsigned()?;
            self.c.expect_here(":")?;
            loc.col = self.c.unsigned()?;
        }
        Ok(Stmt::Call {
            func,
            args,
            result,
            loc,
        })
    }

    /// `(e, e, …)` of expressions with no expected type.
    fn args(&mut self) -> Result<Vec<ExprId>> {
        self.c.expect("(")?;
        let mut args = vec![];
        if self.c.tok(")") {
            return Ok(args);
        }
        loop {
            args.push(self.expr(None)?);
            if self.c.tok(")") {
                return Ok(args);
            }
            self.c.expect(",")?;
        }
    }

    fn switch(&mut self) -> Result<Stmt> {
        let value = self.expr(None)?;
        self.c.expect("{")?;
        let mut arms = vec![];
        while !self.c.tok("}") {
            let mut values = vec![];
            let mut default = false;
            while !self.c.tok(":") {
                if !values.is_empty() || default {
                    self.c.expect(",")?;
                }
                if self.c.tok("default") {
                    default = true;
                } else {
                    self.c.expect("case")?;
                    values.push(self.c.integer()?);
                }
            }
            self.c.expect("{")?;
            let body = self.block()?;
            arms.push(SwitchArm {
                values,
                default,
                body,
            });
        }
        Ok(Stmt::Switch { value, arms })
    }

    /// `%V NAME = INIT; CMP LIMIT; += STEP`.
    fn loop_header(&mut self) -> Result<LoopHeader> {
        let var = self.local()?;
        let ty = self.local_ty(var);
        self.c.expect("=")?;
        let init = self.expr(Some(&ty))?;
        self.c.expect(";")?;
        self.c.skip_ws();
        let at = self.c.pos;
        let cmp = LOOP_CMPS
            .into_iter()
            .find(|k| self.c.eat(cmp_name(*k)))
            .ok_or_else(|| self.c.error_at(at, "expected a loop comparison"))?;
        let limit = self.expr(Some(&ty))?;
        self.c.expect(";")?;
        self.c.expect("+=")?;
        let step = self.expr(Some(&ty))?;
        Ok(LoopHeader {
            var,
            init,
            cmp,
            limit,
            step,
        })
    }

    fn counted_loop(&mut self) -> Result<Loop> {
        let par = self.parallelism()?;
        let h = self.loop_header()?;
        let mut collapsed = vec![];
        while self.c.tok("collapse") {
            collapsed.push(self.loop_header()?);
        }
        let mut tile = vec![];
        if self.c.tok("tile") {
            self.c.expect("(")?;
            loop {
                tile.push(if self.c.tok("*") {
                    None
                } else {
                    Some(self.c.unsigned()?)
                });
                if self.c.tok(")") {
                    break;
                }
                self.c.expect(",")?;
            }
        }
        let chunk = if self.c.tok("chunk") {
            self.c.expect("(")?;
            let n = self.c.unsigned()?;
            self.c.expect(")")?;
            Some(n)
        } else {
            None
        };
        let mut reductions = vec![];
        while self.c.tok("reduction") {
            reductions.push(self.reduction()?);
        }
        let sizes = if self.c.tok("sizes") {
            Some(Box::new(super::host::loop_sizes(self.c)?))
        } else {
            None
        };
        let directive = if self.c.tok("directive") {
            Some(self.directive()?)
        } else {
            None
        };
        let mut cache = vec![];
        while self.c.tok("cache") {
            cache.push(self.cache_var()?);
        }
        let loc = super::host::loc_at(self.c)?;
        self.c.expect("{")?;
        let body = self.block()?;
        Ok(Loop {
            var: h.var,
            init: h.init,
            cmp: h.cmp,
            limit: h.limit,
            step: h.step,
            collapsed,
            tile,
            chunk,
            body,
            par,
            reductions,
            loc,
            sizes,
            directive,
            c_form: None,
            cache,
        })
    }

    /// `(readonly "TEXT" at "FILE":L:C first EXPR len(N | _, …) why
    /// "WHY")` after `cache` (each part but the text and place optional).
    fn cache_var(&mut self) -> Result<CacheVar> {
        self.c.expect("(")?;
        let readonly = self.c.tok("readonly");
        let text = self.c.quoted()?;
        let loc = super::host::loc_at(self.c)?;
        let (mut first, mut lengths) = (None, vec![]);
        if self.c.tok("first") {
            first = Some(self.expr(None)?);
            self.c.expect("len")?;
            self.c.expect("(")?;
            loop {
                lengths.push(if self.c.tok("_") {
                    None
                } else {
                    Some(self.expr(Some(&Type::Int(crate::ir::IntKind::I64)))?)
                });
                if self.c.tok(")") {
                    break;
                }
                self.c.expect(",")?;
            }
        }
        let why = if self.c.tok("why") {
            Some(self.c.quoted()?)
        } else {
            None
        };
        self.c.expect(")")?;
        Ok(CacheVar {
            text,
            loc,
            readonly,
            first,
            lengths,
            why,
        })
    }

    /// `(WORD …)` after `directive`: `gang` or `gang.D`, `worker`,
    /// `vector`, `seq`, `auto`, `independent`, each at most once, in that
    /// order (as the printer writes them).
    fn directive(&mut self) -> Result<LoopDirective> {
        self.c.expect("(")?;
        let mut d = LoopDirective::default();
        // The index in `order` the next word may have at the least.
        let mut next = 0;
        loop {
            self.c.skip_ws();
            if self.c.eat(")") {
                return Ok(d);
            }
            let at = self.c.pos;
            let w = self.c.word();
            if w.is_empty() {
                self.c.expect(")")?;
            }
            let order = ["gang", "worker", "vector", "seq", "auto", "independent"];
            let Some(i) = order.iter().position(|x| *x == w) else {
                return Err(self
                    .c
                    .error_at(at, format!("unknown loop directive clause '{w}'")));
            };
            if i < next {
                return Err(self
                    .c
                    .error_at(at, format!("'{w}' is repeated or out of order")));
            }
            next = i + 1;
            match i {
                0 => {
                    d.gang = true;
                    if self.c.rest().starts_with('.') {
                        self.c.expect_here(".")?;
                        let at = self.c.pos;
                        let w = self.c.word();
                        d.gang_dim = Some(
                            (0..3u8)
                                .find(|n| dim_name(*n) == w)
                                .ok_or_else(|| self.c.error_at(at, "expected x, y or z"))?,
                        );
                    }
                }
                1 => d.worker = true,
                2 => d.vector = true,
                3 => d.seq = true,
                4 => d.auto = true,
                _ => d.independent = true,
            }
        }
    }

    /// `seq`, or the levels: `gang.D`, `worker`, `vector.D`.
    fn parallelism(&mut self) -> Result<Parallelism> {
        if self.c.tok("seq") {
            return Ok(Parallelism::Seq);
        }
        // Undecided (`schedule::plan_levels` decides): only there.
        self.c.skip_ws();
        let at = self.c.pos;
        if self.c.tok("?") {
            if self.f.undecided.is_none() {
                return Err(self.c.error_at(
                    at,
                    "'loop ?' (undecided levels) needs an 'undecided' line in the body's header",
                ));
            }
            return Ok(Parallelism::Seq);
        }
        let (mut gang, mut worker, mut vector) = (None, false, None);
        let dim = |c: &mut Cursor| -> Result<u8> {
            c.expect_here(".")?;
            let at = c.pos;
            let w = c.word();
            (0..3u8)
                .find(|d| dim_name(*d) == w)
                .ok_or_else(|| c.error_at(at, "expected x, y or z"))
        };
        if self.c.tok("gang") {
            gang = Some(dim(self.c)?);
        }
        if self.c.tok("worker") {
            worker = true;
        }
        if self.c.tok("vector") {
            vector = Some(dim(self.c)?);
        }
        Ok(Parallelism::Par {
            gang,
            worker,
            vector,
        })
    }

    /// `(OP: %P -> TARGET [parts(…)])` after `reduction`.
    fn reduction(&mut self) -> Result<Reduction> {
        self.c.expect("(")?;
        self.c.skip_ws();
        let at = self.c.pos;
        let op = RED_OPS
            .into_iter()
            .filter(|o| self.c.rest().starts_with(&format!("{}:", red_name(*o))))
            .max_by_key(|o| red_name(*o).len())
            .ok_or_else(|| self.c.error_at(at, "expected a reduction operator"))?;
        self.c.pos += red_name(op).len();
        self.c.expect(":")?;
        self.c.skip_ws();
        let at = self.c.pos;
        let private = LocalId(self.c.local_id()?);
        let Some(pl) = self.f.locals.get(private.0 as usize) else {
            return Err(self.c.error_at(at, "undeclared reduction private"));
        };
        let mut parts = scalar_parts(&pl.ty);
        self.c.expect("->")?;
        let target = if self.c.tok("*") {
            RedTarget::Memory(self.expr(None)?)
        } else {
            RedTarget::Local(self.local()?)
        };
        if self.c.tok("parts") {
            self.c.expect("(")?;
            parts.clear();
            loop {
                let ty = self.c.ty()?;
                self.c.expect("at")?;
                let offset = self.c.unsigned()?;
                self.c.expect("count")?;
                let count = self.c.unsigned()?;
                self.c.expect("stride")?;
                let stride = self.c.unsigned()?;
                parts.push(RedPart {
                    offset,
                    ty,
                    count,
                    stride,
                });
                if self.c.tok(")") {
                    break;
                }
                self.c.expect(",")?;
            }
        }
        self.c.expect(")")?;
        Ok(Reduction {
            op,
            private,
            target,
            parts,
        })
    }
}
