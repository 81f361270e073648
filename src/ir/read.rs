//! The reader of the IR's text form: the inverse of [`print_module`], so that
//! passes can be tested from text files (`tests/in/*.ir`).
//!
//! Owns: [`read_module`] and its recursive-descent parser: modules, kernels
//! and functions here, statements in `read/stmt.rs`, expressions in
//! `read/expr.rs`, launch sizes and host expressions in `read/host.rs`,
//! the host plan in `read/plan.rs` (a construct's undecided data in
//! `read/hostdata.rs`), the lexing in `read/cursor.rs`. May call: the `ir` data types and the names the printer
//! shares (`print.rs`); nothing outside `ir`.
//!
//! For every module accc prints, `print_module(&read_module(t)?) == t`; the
//! module read back equals the printed one but for the order of its
//! expression arenas (the reader appends each expression after its
//! operands). Lines whose first non-blank character is `;` are comments.
//! The reader checks the syntax and that names resolve (locals, functions,
//! cells, shared arrays); the types it cannot take from the text it takes
//! from the context as the printer does. It never panics: malformed text
//! gives a [`ReadError`] with its line and column.
//!
//! [`print_module`]: super::print_module

mod cursor;
mod expr;
mod host;
mod hostdata;
mod plan;
mod stmt;
#[cfg(test)]
mod tests;

pub use cursor::ReadError;

use super::expr::{BinOp, CmpOp, ExprId, UnOp};
use super::function::{Function, Local, LocalId, Undecided};
use super::module::{
    Cell, ComputeKind, DeviceFunction, Kernel, Launch, Linkage, Module, Param, ParamMode,
    RoutineLevel, Scratch, SizeClauses,
};
use super::print::linkage_name;
use super::reduce::RedOp;
use super::stmt::{AtomicOp, Block, LoopCmp};
use super::types::Type;
use super::SrcLoc;
use cursor::{Cursor, Result, MAX_DEPTH};

/// Reads a module printed by [`print_module`](super::print_module).
pub fn read_module(text: &str) -> std::result::Result<Module, ReadError> {
    // Device functions may be called before they are printed: their names
    // first, in order (a call names its callee).
    let names: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("function "))
        .filter_map(|l| {
            let at = l.find('@')? + 1;
            l.get(at..at + l[at..].find('(')?)
        })
        .collect();
    let mut c = Cursor::new(text);
    c.expect("module")?;
    let mut m = Module {
        source: c.quoted()?,
        ..Module::default()
    };
    m.scheduled = c.tok("scheduled");
    while c.tok("cell") {
        let symbol = c.symbol()?.to_string();
        let host = c.quoted()?;
        m.cells.push(Cell { symbol, host });
    }
    loop {
        c.skip_ws();
        if c.rest().is_empty() {
            return Ok(m);
        }
        if c.tok("function") {
            let f = function(&mut c, &m.cells, &names)?;
            m.functions.push(f);
        } else if c.tok("kernel") {
            let k = kernel(&mut c, &m.cells, &names)?;
            m.kernels.push(k);
        } else if c.rest().starts_with("construct") {
            let prev = m.host.constructs.last();
            let top = plan::nested(&mut c, 0..usize::MAX, prev)?;
            m.host.constructs.push(top);
        } else if c.tok("declare") {
            m.host.declares.push(plan::declare(&mut c)?);
        } else {
            return c.err("expected 'function', 'kernel', 'construct' or 'declare'");
        }
    }
}

const BIN_OPS: [BinOp; 12] = [
    BinOp::Add,
    BinOp::Sub,
    BinOp::Mul,
    BinOp::Div,
    BinOp::Rem,
    BinOp::And,
    BinOp::Or,
    BinOp::Xor,
    BinOp::Shl,
    BinOp::Shr,
    BinOp::Min,
    BinOp::Max,
];
const CMP_OPS: [CmpOp; 6] = [
    CmpOp::Eq,
    CmpOp::Ne,
    CmpOp::Lt,
    CmpOp::Le,
    CmpOp::Gt,
    CmpOp::Ge,
];
const UN_OPS: [UnOp; 3] = [UnOp::Neg, UnOp::BitNot, UnOp::Not];
const ATOMIC_OPS: [AtomicOp; 9] = [
    AtomicOp::Add,
    AtomicOp::Sub,
    AtomicOp::Min,
    AtomicOp::Max,
    AtomicOp::And,
    AtomicOp::Or,
    AtomicOp::Xor,
    AtomicOp::Exchange,
    AtomicOp::IncWrap,
];
const RED_OPS: [RedOp; 10] = [
    RedOp::Add,
    RedOp::Mul,
    RedOp::Max,
    RedOp::Min,
    RedOp::BitAnd,
    RedOp::BitOr,
    RedOp::BitXor,
    RedOp::And,
    RedOp::Or,
    RedOp::ComplexMul,
];
const LOOP_CMPS: [LoopCmp; 4] = [LoopCmp::Le, LoopCmp::Lt, LoopCmp::Ge, LoopCmp::Gt];
const LEVELS: [RoutineLevel; 4] = [
    RoutineLevel::Seq,
    RoutineLevel::Vector,
    RoutineLevel::Worker,
    RoutineLevel::Gang,
];

/// The element of `all` whose name (by `name`) is `word`.
fn named<T: Copy, N: AsRef<str>>(all: &[T], word: &str, name: impl Fn(T) -> N) -> Option<T> {
    all.iter().copied().find(|x| name(*x).as_ref() == word)
}

/// The facts after `undecided`: `forced(at LOC, …)`, `outside(at LOC,
/// …)`, `loose(at LOC, …)`, each optional, in that order.
fn undecided(c: &mut Cursor) -> Result<Undecided> {
    let mut u = Undecided::default();
    for (what, locs) in [
        ("forced(", &mut u.forced),
        ("outside(", &mut u.outside),
        ("loose(", &mut u.loose),
    ] {
        if c.tok(what) {
            loop {
                locs.push(host::loc_at(c)?);
                if c.tok(")") {
                    break;
                }
                c.expect(",")?;
            }
        }
    }
    Ok(u)
}

/// `FILE:LINE:COL` up to the end of the line (the file may hold colons).
fn line_loc(c: &mut Cursor) -> Result<SrcLoc> {
    c.skip_ws();
    let start = c.pos;
    let text = c.rest_of_line().trim_end();
    let mut it = text.rsplitn(3, ':');
    let (col, line, file) = (it.next(), it.next(), it.next());
    match (
        file,
        line.and_then(|l| l.parse().ok()),
        col.and_then(|x| x.parse().ok()),
    ) {
        (Some(file), Some(line), Some(col)) => Ok(SrcLoc {
            file: file.to_string(),
            line,
            col,
        }),
        _ => Err(c.error_at(start, "expected FILE:LINE:COL")),
    }
}

/// Declared locals, by index, until they are all known.
#[derive(Default)]
struct Locals(Vec<Option<Local>>);

impl Locals {
    /// Declares local `%id`.
    fn declare(&mut self, c: &Cursor, at: usize, id: u32, name: &str, ty: Type) -> Result<()> {
        let i = id as usize;
        if i > 1 << 20 {
            return Err(c.error_at(at, "local index too large"));
        }
        if self.0.len() <= i {
            self.0.resize(i + 1, None);
        }
        if self.0[i].is_some() {
            return Err(c.error_at(at, format!("local %{id} declared twice")));
        }
        self.0[i] = Some(Local {
            name: name.to_string(),
            ty,
        });
        Ok(())
    }

    /// The table, when every index up to the last is declared.
    fn finish(self, c: &Cursor) -> Result<Vec<Local>> {
        let n = self.0.len();
        self.0
            .into_iter()
            .enumerate()
            .map(|(i, l)| {
                l.ok_or_else(|| c.error_at(c.pos, format!("local %{i} of {n} is not declared")))
            })
            .collect()
    }
}

/// `%N NAME: TYPE` where the name ends at the last `: ` before the end of
/// the line (or `stop`, the first of which ends the declaration).
fn declaration(c: &mut Cursor, stop: &[char]) -> Result<(usize, u32, String, Type)> {
    c.skip_ws();
    let at = c.pos;
    let id = c.local_id()?;
    c.expect_here(" ")?;
    let r = c.rest();
    let line = &r[..r.find('\n').unwrap_or(r.len())];
    let end = line.find(stop).unwrap_or(line.len());
    let Some(colon) = line[..end].rfind(": ") else {
        return c.err("expected 'NAME: TYPE'");
    };
    let name = line[..colon].to_string();
    c.pos += colon + 1;
    let ty = c.ty()?;
    Ok((at, id, name, ty))
}

/// The locals and shared arrays after a header (`local %N NAME: TYPE`,
/// `shared #N: TYPE`), then the body.
fn body(
    c: &mut Cursor,
    mut locals: Locals,
    cells: &[Cell],
    names: &[&str],
    ret: &Type,
) -> Result<Function> {
    let undecided = if c.tok("undecided") {
        Some(Box::new(undecided(c)?))
    } else {
        None
    };
    while c.tok("local") {
        let (at, id, name, ty) = declaration(c, &[])?;
        locals.declare(c, at, id, &name, ty)?;
    }
    let mut f = Function {
        locals: locals.finish(c)?,
        undecided,
        ..Function::default()
    };
    while c.tok("shared") {
        c.expect("#")?;
        let n: usize = c.unsigned()?;
        if n != f.shared.len() {
            return c.err(format!("expected shared #{}", f.shared.len()));
        }
        c.expect(":")?;
        f.shared.push(c.ty()?);
    }
    let mut p = Parser {
        c,
        f,
        cells,
        names,
        ret,
        depth: 0,
    };
    p.c.expect("{")?;
    let b = p.block()?;
    p.f.body = b;
    Ok(p.f)
}

fn function(c: &mut Cursor, cells: &[Cell], names: &[&str]) -> Result<DeviceFunction> {
    c.skip_ws();
    let at = c.pos;
    let w = c.word();
    let linkage = named(
        &[Linkage::Internal, Linkage::Export, Linkage::Import],
        w,
        linkage_name,
    )
    .ok_or_else(|| c.error_at(at, format!("unknown linkage '{w}'")))?;
    c.skip_ws();
    let at = c.pos;
    let w = c.word();
    let level = named(&LEVELS, w, |l| format!("{l:?}"))
        .ok_or_else(|| c.error_at(at, format!("unknown routine level '{w}'")))?;
    let name = c.symbol()?.to_string();
    c.expect("(")?;
    let mut locals = Locals::default();
    let mut params = vec![];
    if !c.tok(")") {
        loop {
            let (at, id, name, ty) = declaration(c, &[',', ')'])?;
            locals.declare(c, at, id, &name, ty)?;
            params.push(LocalId(id));
            if c.tok(")") {
                break;
            }
            c.expect(",")?;
        }
    }
    c.expect("->")?;
    let ret = c.ty()?;
    let guards = if c.tok("guards") {
        c.expect("(")?;
        let mut g = [LocalId(0); 3];
        for (i, x) in g.iter_mut().enumerate() {
            if i > 0 {
                c.expect(",")?;
            }
            c.skip_ws();
            let at = c.pos;
            *x = LocalId(c.local_id()?);
            if !params.contains(x) {
                return Err(c.error_at(at, format!("guard {x} is not a parameter")));
            }
        }
        c.expect(")")?;
        Some(g)
    } else {
        None
    };
    c.expect("at")?;
    let loc = line_loc(c)?;
    let body = if linkage == Linkage::Import {
        Function {
            locals: locals.finish(c)?,
            ..Function::default()
        }
    } else {
        body(c, locals, cells, names, &ret)?
    };
    Ok(DeviceFunction {
        name,
        loc,
        params,
        ret,
        level,
        linkage,
        guards,
        body,
    })
}

fn kernel(c: &mut Cursor, cells: &[Cell], names: &[&str]) -> Result<Kernel> {
    let name = c.symbol()?.to_string();
    c.skip_ws();
    let kind_at = c.pos;
    let word = c.word();
    let kind = ComputeKind::named(word).ok_or_else(|| {
        c.error_at(
            kind_at,
            format!("expected parallel, kernels or serial, found '{word}'"),
        )
    })?;
    let construct = c.quoted()?;
    c.expect("at")?;
    let loc = line_loc(c)?;
    let launch = if c.tok("launch") {
        c.expect("grid")?;
        c.expect("=")?;
        let grid = host::grid3(c)?;
        c.expect("block")?;
        c.expect("=")?;
        let block = host::grid3(c)?;
        Some(Launch { grid, block })
    } else {
        None
    };
    let sizes = if c.tok("sizes") {
        host::size_clauses(c)?
    } else {
        SizeClauses::default()
    };
    let scratch = if c.tok("scratch") {
        c.expect("counters=")?;
        let counters = c.unsigned()?;
        c.expect("slots=")?;
        let slots = c.unsigned()?;
        Some(Scratch { counters, slots })
    } else {
        None
    };
    let mut locals = Locals::default();
    let mut params = vec![];
    while c.tok("param") {
        let (at, id, lname, ty) = declaration(c, &[])?;
        locals.declare(c, at, id, &lname, ty)?;
        c.skip_ws();
        let mode_at = c.pos;
        let mode = match c.word() {
            "value" => ParamMode::Value,
            "scratch" => ParamMode::Scratch,
            "deviceptr" => ParamMode::DevicePtr,
            w => return Err(c.error_at(mode_at, format!("unknown parameter mode '{w}'"))),
        };
        let own = c.tok("own");
        if own && mode != ParamMode::DevicePtr {
            return Err(c.error_at(mode_at, "only a deviceptr parameter is 'own'".to_string()));
        }
        let name = if c.tok("host") { c.quoted()? } else { lname };
        params.push(Param {
            name,
            local: LocalId(id),
            mode,
            own,
        });
    }
    let body = body(c, locals, cells, names, &Type::Void)?;
    Ok(Kernel {
        name,
        construct,
        loc,
        params,
        body,
        sizes,
        launch,
        scratch,
        kind,
    })
}

/// Reads one function body's statements and expressions.
struct Parser<'c, 'a> {
    c: &'c mut Cursor<'a>,
    f: Function,
    cells: &'c [Cell],
    /// The device functions' names, in order.
    names: &'c [&'c str],
    /// The function's result type.
    ret: &'c Type,
    /// How deeply nested the current expression or block is.
    depth: u32,
}

impl Parser<'_, '_> {
    fn deeper(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return self.c.err("nested too deeply");
        }
        Ok(())
    }

    /// Statements up to the `}` that closes a block (its `{` read).
    fn block(&mut self) -> Result<Block> {
        self.deeper()?;
        let mut b = vec![];
        while !self.c.tok("}") {
            if self.c.rest().is_empty() {
                return self.c.err("missing '}'");
            }
            b.push(self.stmt()?);
        }
        self.depth -= 1;
        Ok(b)
    }

    /// `%N NAME`: a local's handle and its name as declared.
    fn local(&mut self) -> Result<LocalId> {
        let at = {
            self.c.skip_ws();
            self.c.pos
        };
        let id = self.c.local_id()?;
        let Some(l) = self.f.locals.get(id as usize) else {
            return Err(self.c.error_at(at, format!("undeclared local %{id}")));
        };
        let name = format!(" {}", l.name);
        if !self.c.eat(&name) {
            return Err(self
                .c
                .error_at(at, format!("local %{id} is named '{}'", l.name)));
        }
        Ok(LocalId(id))
    }

    fn local_ty(&self, l: LocalId) -> Type {
        self.f.local(l).ty.clone()
    }

    fn pointee(&self, e: ExprId) -> Option<Type> {
        self.f.ty(e).pointee().cloned()
    }
}
