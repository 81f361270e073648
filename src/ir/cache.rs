//! The `cache` directive as the source gives it: the variables a loop's
//! body asks to have cached, recorded on the [`Loop`](super::Loop) whose
//! body the directive heads. A hint (OpenACC 3.3, 2.10): `schedule` turns
//! the sections it can into shared-memory tiles (`schedule::cache`) and
//! says, in a `-Minfo` remark per variable, what it did or why not.
//!
//! Owns: [`CacheVar`]. May call: nothing outside `ir`.

use super::expr::ExprId;
use super::SrcLoc;

/// One variable of a `cache` directive at the top of a loop body.
///
/// Its expressions live in the function's arena but in no statement: they
/// are never evaluated, only compared with the body's accesses (they are
/// lowered where the directive is, after the loop's variable). Not in the
/// text form.
#[derive(Clone, Debug, PartialEq)]
pub struct CacheVar {
    /// The item as written (`a[i-1:3]`).
    pub text: String,
    /// Where the item is (the remark's position).
    pub loc: SrcLoc,
    /// `readonly:` was written: the loop does not write the variable.
    pub readonly: bool,
    /// The address of the section's first element (an [`Expr::Index`]
    /// whose subscripts are the lower bounds, a `[e]` subscript its index),
    /// or `None` when the item cannot be cached (then `why` says why).
    ///
    /// [`Expr::Index`]: super::Expr::Index
    pub first: Option<ExprId>,
    /// Per subscript, outermost first: the section's length (an integer
    /// expression), `None` for a single element `[e]`.
    pub lengths: Vec<Option<ExprId>>,
    /// Why the front end already knows the item will not be cached (a
    /// scalar, a whole array, a struct member, bounds that need code).
    pub why: Option<String>,
}
