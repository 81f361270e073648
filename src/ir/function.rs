//! A function body: the expression arena, the locals and the statement tree.
//!
//! Owns: [`Function`], [`Local`], [`LocalId`], [`Undecided`], [`Named`],
//! and the small builder methods that append to the arena (so well-formed
//! IR is the easy path).

use super::expr::{Expr, ExprId, Literal};
use super::stmt::{Block, Stmt};
use super::types::Type;
use super::SrcLoc;

/// Handle of a local variable of one function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LocalId(pub u32);

impl std::fmt::Display for LocalId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "%{}", self.0)
    }
}

/// A mutable local variable (a C local, a loop index, a kernel parameter).
#[derive(Clone, Debug, PartialEq)]
pub struct Local {
    /// Source name (for the IR printer and debugging); may repeat.
    pub name: String,
    /// Type; arrays are thread-private storage.
    pub ty: Type,
}

/// One body of device code.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Function {
    /// The expression arena; `expr_types[i]` is the type of `exprs[i]`.
    pub exprs: Vec<Expr>,
    /// Result type of each expression.
    pub expr_types: Vec<Type>,
    /// Source position of each expression, where known.
    pub expr_locs: Vec<Option<SrcLoc>>,
    /// The locals (kernel parameters among them, in any order).
    pub locals: Vec<Local>,
    /// Arrays in the block's shared memory (one copy per gang, shared by
    /// its threads): each an [`Type::Array`]. Only in kernels.
    pub shared: Vec<Type>,
    /// The statements.
    pub body: Block,
    /// `Some` while the levels of its counted loops are still to be
    /// decided (`schedule::plan_levels`): every loop's [`Loop::par`] is
    /// meaningless until then (lowering leaves every body so). `None` once
    /// decided.
    ///
    /// [`Loop::par`]: super::Loop::par
    pub undecided: Option<Box<Undecided>>,
}

/// The facts of the source the loop-level decision reads that the loops
/// themselves do not carry (recorded by lowering).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Undecided {
    /// The loops (by location) whose collapse is `collapse(force:n)` (their
    /// remark says so).
    pub forced: Vec<SrcLoc>,
    /// The loops without directive (by location) whose variable is
    /// declared outside the loop: never partitioned (it may be used after
    /// the loop).
    pub outside: Vec<SrcLoc>,
    /// The loops (by location) that are not tightly nested in the
    /// candidate loop around them: the source reaches them from its body
    /// through more than declarations with side-effect-free initialisers
    /// and `for` loops (the `kernels` mappings give them no grid dimension
    /// of their own).
    pub loose: Vec<SrcLoc>,
    /// The reductions of loop clauses as the clause names them (for
    /// remarks and errors). Not in the text form: there the private
    /// copy's name and the loop's location stand in.
    pub named: Vec<Named>,
}

/// A reduction of a loop clause, as the clause names it.
#[derive(Clone, Debug, PartialEq)]
pub struct Named {
    /// Its private copy.
    pub private: LocalId,
    /// The variable.
    pub var: String,
    /// What is reduced (`a[k]`, `a[lo:n]`, the variable).
    pub written: String,
    /// Where the clause names it.
    pub loc: SrcLoc,
}

impl Function {
    /// Appends an expression of type `ty` to the arena.
    pub fn add(&mut self, expr: Expr, ty: Type) -> ExprId {
        let id = ExprId(self.exprs.len() as u32);
        self.exprs.push(expr);
        self.expr_types.push(ty);
        self.expr_locs.push(None);
        id
    }

    /// Appends an integer constant.
    pub fn int(&mut self, value: i128, ty: Type) -> ExprId {
        self.add(Expr::Literal(Literal::Int(value)), ty)
    }

    /// Appends a read of local `l`.
    pub fn read(&mut self, l: LocalId) -> ExprId {
        let ty = self.local(l).ty.clone();
        self.add(Expr::Local(l), ty)
    }

    /// Declares a new local.
    pub fn new_local(&mut self, name: &str, ty: Type) -> LocalId {
        let id = LocalId(self.locals.len() as u32);
        self.locals.push(Local {
            name: name.to_string(),
            ty,
        });
        id
    }

    /// The expression behind a handle.
    pub fn expr(&self, id: ExprId) -> &Expr {
        &self.exprs[id.0 as usize]
    }

    /// The type of an expression.
    pub fn ty(&self, id: ExprId) -> &Type {
        &self.expr_types[id.0 as usize]
    }

    /// The operands of an expression.
    pub fn children(&self, id: ExprId) -> Vec<ExprId> {
        match self.expr(id) {
            Expr::Literal(_)
            | Expr::Local(_)
            | Expr::LocalAddr(_)
            | Expr::Special(_)
            | Expr::SharedAddr(_)
            | Expr::Cell(_) => vec![],
            Expr::Load(a) | Expr::Cast(a) | Expr::Unary { arg: a, .. } => vec![*a],
            Expr::PtrAdd { base: a, index: b }
            | Expr::Binary { lhs: a, rhs: b, .. }
            | Expr::Cmp { lhs: a, rhs: b, .. }
            | Expr::Logical { lhs: a, rhs: b, .. } => vec![*a, *b],
            Expr::Select {
                cond,
                then,
                otherwise,
            } => vec![*cond, *then, *otherwise],
            Expr::Math { args, .. } => args.clone(),
            Expr::Index(ix) => ix.operands(),
            Expr::Shuffle {
                value,
                lane_xor,
                members,
            } => vec![*value, *lane_xor, *members],
        }
    }

    /// Expression `id` with each operand `o` replaced by `map(o)` (in the
    /// order of [`Function::children`]), as a new node (a leaf is
    /// returned as it is): a rewrite that builds new trees leaves the old
    /// ones, and any other use of them, as they were.
    pub fn with_operands(
        &mut self,
        id: ExprId,
        map: &mut dyn FnMut(&mut Self, ExprId) -> ExprId,
    ) -> ExprId {
        let mut e = self.expr(id).clone();
        match &mut e {
            Expr::Literal(_)
            | Expr::Local(_)
            | Expr::LocalAddr(_)
            | Expr::Special(_)
            | Expr::SharedAddr(_)
            | Expr::Cell(_) => return id,
            Expr::Load(a) | Expr::Cast(a) | Expr::Unary { arg: a, .. } => *a = map(self, *a),
            Expr::PtrAdd { base: a, index: b }
            | Expr::Binary { lhs: a, rhs: b, .. }
            | Expr::Cmp { lhs: a, rhs: b, .. }
            | Expr::Logical { lhs: a, rhs: b, .. } => {
                *a = map(self, *a);
                *b = map(self, *b);
            }
            Expr::Select {
                cond,
                then,
                otherwise,
            } => {
                for x in [cond, then, otherwise] {
                    *x = map(self, *x);
                }
            }
            Expr::Math { args, .. } => {
                for x in args {
                    *x = map(self, *x);
                }
            }
            Expr::Index(ix) => {
                ix.base = map(self, ix.base);
                for x in &mut ix.extents {
                    if let super::Extent::Dyn(d) = x {
                        *d = map(self, *d);
                    }
                }
                for x in &mut ix.subs {
                    *x = map(self, *x);
                }
            }
            Expr::Shuffle {
                value,
                lane_xor,
                members,
            } => {
                for x in [value, lane_xor, members] {
                    *x = map(self, *x);
                }
            }
        }
        let ty = self.ty(id).clone();
        let loc = self.expr_locs[id.0 as usize].clone();
        let new = self.add(e, ty);
        self.expr_locs[new.0 as usize] = loc;
        new
    }

    /// Gives the expressions from arena index `first` on that have no
    /// source position `loc`: the front end the position of the statement
    /// they were lowered from, the schedule that of the loop whose control
    /// code it wrote. Back ends that map code to lines read them through
    /// [`Function::stmt_loc`] (the CUDA writer's `#line`, the NVPTX back
    /// end's line table with `-g`).
    pub fn locate_since(&mut self, first: usize, loc: &SrcLoc) {
        for l in self.expr_locs.iter_mut().skip(first) {
            if l.is_none() {
                *l = Some(loc.clone());
            }
        }
    }

    /// The source position of statement `s`: the first located expression
    /// of its expression trees (in [`Stmt::roots`] order, each tree
    /// depth-first); `None` for a statement of no located expression (the
    /// back ends then keep the position of the statement it is in).
    pub fn stmt_loc(&self, s: &Stmt) -> Option<&SrcLoc> {
        let mut todo: Vec<ExprId> = s.roots();
        todo.reverse();
        while let Some(e) = todo.pop() {
            if let Some(Some(l)) = self.expr_locs.get(e.0 as usize) {
                return Some(l);
            }
            if (e.0 as usize) < self.exprs.len() {
                let mut c = self.children(e);
                c.reverse();
                todo.extend(c);
            }
        }
        None
    }

    /// The locals an expression tree reads (or takes the address of).
    pub fn locals_read(&self, id: ExprId, out: &mut Vec<LocalId>) {
        if let Expr::Local(l) | Expr::LocalAddr(l) = self.expr(id) {
            out.push(*l);
        }
        for c in self.children(id) {
            self.locals_read(c, out);
        }
    }

    /// A local's declaration.
    pub fn local(&self, id: LocalId) -> &Local {
        &self.locals[id.0 as usize]
    }
}
