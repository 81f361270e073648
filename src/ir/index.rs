//! Indexed accesses: the address of an element of a (multi-dimensional)
//! array, kept as its subscripts so that passes over the IR see `a[i][j]`
//! rather than pointer arithmetic.
//!
//! Owns: [`Index`], [`Extent`] and the layout facts derived from them (the
//! row types, the byte stride of each dimension). May call: the IR's types.
//! [`flatten_indices`](super::flatten_indices) turns every index into the
//! `ptradd`/`cast` chain back ends translate.

use super::expr::ExprId;
use super::types::Type;

/// The address of element `[s0][s1]…[sn-1]` of an array whose element 0 is
/// at `base`: a C subscript chain (`p[i]`, `a[i][j]`, `(*p)[i][j]`,
/// `s.m[i]`) as one node.
///
/// It is an address-producing expression ([`Expr::Index`](super::Expr::Index),
/// of type `ptr<E>` for the element type `E`), not a place of its own, for
/// the reason C gives: a subscript *is* pointer arithmetic whose result is
/// used as an address. So loads, stores, atomics, `Stmt::Copy` and
/// address-of (`&a[i][j]`, a row `a[i]` decaying to a pointer) keep taking
/// an address expression, and every pass that asks "what memory may this
/// address touch" follows `base` as it follows a `ptradd`'s base.
///
/// Invariants (checked by the validator):
/// * `subs` has one subscript per dimension, outermost first (at least
///   one), each a 64-bit integer (`i64` or `u64`, as for `ptradd`); a
///   subscript may be negative or beyond the extent, as in C, where the
///   address stays inside the object (`a[1][-1]` is `a[0][m-1]`).
/// * `extents` are those of the inner dimensions, `extents[k]` the number
///   of elements of dimension `k + 1`: one fewer than `subs`. The outermost
///   extent is not needed to compute an address and may be unknown (a
///   pointer base), so it is not kept.
/// * `base` is a pointer to element `[0][0]…[0]`, either typed as the
///   outermost row (`ptr<[[E; e2]; e1]>` for constant extents `e1, e2`,
///   as C's `double (*)[e1][e2]` lowers) or as the element (`ptr<E>`, a
///   flat base; the only form when an extent is computed at run time).
#[derive(Clone, Debug, PartialEq)]
pub struct Index {
    /// The address of the first element.
    pub base: ExprId,
    /// Extents of dimensions `1..n` (see the type's doc).
    pub extents: Vec<Extent>,
    /// One subscript per dimension, outermost first.
    pub subs: Vec<ExprId>,
}

/// The number of elements of one inner dimension of an [`Index`].
#[derive(Clone, Debug, PartialEq)]
pub enum Extent {
    /// Known when compiling (a C array type's size).
    Const(u64),
    /// Computed at run time: an `i64` expression of the function's arena,
    /// owned by the index like its subscripts.
    Dyn(ExprId),
}

impl Index {
    /// The operands of the node: base, run-time extents, subscripts (the
    /// order in which they are evaluated).
    pub fn operands(&self) -> Vec<ExprId> {
        let mut v = vec![self.base];
        v.extend(self.extents.iter().filter_map(|e| match e {
            Extent::Dyn(x) => Some(*x),
            Extent::Const(_) => None,
        }));
        v.extend(&self.subs);
        v
    }

    /// The constant extents, or `None` when one is computed at run time.
    pub fn const_extents(&self) -> Option<Vec<u64>> {
        self.extents
            .iter()
            .map(|e| match e {
                Extent::Const(n) => Some(*n),
                Extent::Dyn(_) => None,
            })
            .collect()
    }

    /// The row types of the dimensions for element type `elem`: entry `d`
    /// is what subscript `d` steps over (`[[E; e2]; e1]`, `[E; e2]`, `E`
    /// for three dimensions); `None` when an extent is not constant.
    pub fn row_types(&self, elem: &Type) -> Option<Vec<Type>> {
        let ext = self.const_extents()?;
        let mut rows = vec![elem.clone()];
        for n in ext.iter().rev() {
            let inner = rows.last().cloned().unwrap_or(Type::Void);
            rows.push(Type::Array(Box::new(inner), *n));
        }
        rows.reverse();
        Some(rows)
    }

    /// The byte distance between consecutive values of each subscript for
    /// elements of `elem_size` bytes: `None` for a dimension whose stride
    /// depends on an extent computed at run time (or overflows).
    pub fn byte_strides(&self, elem_size: u64) -> Vec<Option<u64>> {
        let mut strides = vec![Some(elem_size)];
        for e in self.extents.iter().rev() {
            let inner = strides.last().copied().flatten();
            strides.push(match e {
                Extent::Const(n) => inner.and_then(|s| s.checked_mul(*n)),
                Extent::Dyn(_) => None,
            });
        }
        strides.reverse();
        strides
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(extents: Vec<Extent>) -> Index {
        let subs = (0..=extents.len() as u32).map(ExprId).collect();
        Index {
            base: ExprId(99),
            extents,
            subs,
        }
    }

    #[test]
    fn strides_and_rows() {
        let ix = index(vec![Extent::Const(3), Extent::Const(4)]);
        assert_eq!(ix.byte_strides(8), vec![Some(96), Some(32), Some(8)]);
        let rows = ix.row_types(&Type::F64).unwrap_or_default();
        assert_eq!(
            rows.iter().map(|t| t.to_string()).collect::<Vec<_>>(),
            ["[[f64; 4]; 3]", "[f64; 4]", "f64"]
        );
        let dynamic = index(vec![Extent::Dyn(ExprId(7)), Extent::Const(2)]);
        assert_eq!(dynamic.byte_strides(4), vec![None, Some(8), Some(4)]);
        assert_eq!(dynamic.row_types(&Type::F32), None);
        assert_eq!(
            dynamic.operands(),
            [ExprId(99), ExprId(7), ExprId(0), ExprId(1), ExprId(2)]
        );
    }
}
