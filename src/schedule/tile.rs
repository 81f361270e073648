//! Loops whose iterations are handed out in groups: `tile(…)` (the gangs
//! share the tiles, the workers and vector lanes the elements of a tile)
//! and `gang(static:n)` (the gangs take chunks of n consecutive iterations,
//! round-robin; the workers and vector lanes share a chunk).
//!
//! `tile(*)` leaves a size to the schedule: [`sizes`] chooses it, for the
//! remarks (`plan_levels`), the launch (`geometry`) and the rewrite.
//!
//! Owns: [`sizes`], [`grouped_loop`]. May call: `par` (trip counts, index setting),
//! `build`.

use super::build::Emit;
use super::par::{count_all, set_var, start_stride, Level, Levels};
use crate::ir::{BinOp, Block, CmpOp, ExprId, IntKind, LocalId, Loop, Special, Stmt, Type};

/// The sizes of the tiles of `tile(…)` (`tile`: as the IR holds them,
/// the outer loop's first), each `*` (`None`) chosen: 32 for the innermost
/// loop, then 8, then 4 (at most 1024 threads a tile); 128 for a single
/// loop. The same for every target: a tile is what one block (or one
/// host thread's group) takes.
pub fn sizes(tile: &[Option<u32>]) -> Vec<u32> {
    let n = tile.len();
    tile.iter()
        .enumerate()
        .map(|(i, s)| {
            s.unwrap_or(match n - 1 - i {
                0 if n == 1 => 128,
                0 => 32,
                1 => 8,
                _ => 4,
            })
        })
        .collect()
}

/// A strided loop `for (v = start; v < limit; v += stride) body` over `u64`.
fn strided(
    e: &mut Emit,
    name: &str,
    (start, stride): (ExprId, ExprId),
    limit: LocalId,
    body: impl FnOnce(&mut Emit, LocalId) -> Block,
) {
    let v = e.hold(name, start);
    let stride = e.hold("stride", stride);
    let (vv, lv) = (e.read(v), e.read(limit));
    let cond = e.cmp(CmpOp::Lt, vv, lv);
    let b = body(e, v);
    let (vv, sv) = (e.read(v), e.read(stride));
    let next = e.bin(BinOp::Add, vv, sv);
    e.out.push(Stmt::While {
        cond,
        body: b,
        step: vec![Stmt::Assign {
            local: v,
            value: next,
        }],
    });
}

/// `ceil(a / b)` in `u64` (b > 0).
fn div_up(e: &mut Emit, a: ExprId, b: ExprId, b2: ExprId) -> ExprId {
    let one = e.int(1, Type::U64);
    let bm1 = e.bin(BinOp::Sub, b, one);
    let s = e.bin(BinOp::Add, a, bm1);
    e.bin(BinOp::Div, s, b2)
}

/// Rewrites a tiled or chunked loop (see the module doc) into
///
/// ```text
/// trips, groups = number of tiles (or chunks), per = elements per group
/// for (g = gang start; g < groups; g += gangs)
///   for (m = thread start; m < per; m += threads)
///     idx_k = group part * size_k + member part (per loop of the nest)
///     if every idx_k < trip_k { var_k = init_k + idx_k * step_k; body }
/// ```
pub(super) fn grouped_loop(e: &mut Emit, l: Loop, kinds: &[IntKind], lv: Levels, body: Block) {
    let (tile, chunk) = (sizes(&l.tile), l.chunk);
    let levels: Vec<Level> =
        count_all(e, l.var, l.init, l.cmp, l.limit, l.step, l.collapsed, kinds);
    let outer = Levels {
        gang: lv.gang,
        worker: false,
        vector: None,
    };
    let inner = Levels {
        gang: None,
        worker: lv.worker,
        vector: lv.vector,
    };
    let w = Type::U64;

    // Group sizes: the tile sizes, or one chunk of the collapsed space.
    let sizes: Vec<LocalId> = if !tile.is_empty() {
        tile.iter()
            .map(|&s| {
                let v = e.int(i128::from(s), w.clone());
                e.hold("tile", v)
            })
            .collect()
    } else {
        let mut total = e.read(levels[0].trip);
        for lvl in &levels[1..] {
            let t = e.read(lvl.trip);
            total = e.bin(BinOp::Mul, total, t);
        }
        let total = e.hold("total", total);
        let c = match chunk {
            Some(n) if n > 0 => e.int(i128::from(n), w.clone()),
            // static:*: one chunk per gang.
            _ => {
                let g = e.special(Special::GridDim(lv.gang.unwrap_or(0)));
                let (t, g2) = (
                    e.read(total),
                    e.special(Special::GridDim(lv.gang.unwrap_or(0))),
                );
                let d = div_up(e, t, g, g2);
                let one = e.int(1, w.clone());
                e.bin(BinOp::Max, d, one)
            }
        };
        vec![e.hold("chunk", c)]
    };
    // Groups per loop (tiles) or in all (chunks), and elements per group.
    let counts: Vec<LocalId> = if !tile.is_empty() {
        levels
            .iter()
            .zip(&sizes)
            .map(|(lvl, &sz)| {
                let (t, s1, s2) = (e.read(lvl.trip), e.read(sz), e.read(sz));
                let n = div_up(e, t, s1, s2);
                e.hold("ntiles", n)
            })
            .collect()
    } else {
        let mut total = e.read(levels[0].trip);
        for lvl in &levels[1..] {
            let t = e.read(lvl.trip);
            total = e.bin(BinOp::Mul, total, t);
        }
        let (c1, c2) = (e.read(sizes[0]), e.read(sizes[0]));
        let n = div_up(e, total, c1, c2);
        vec![e.hold("nchunks", n)]
    };
    let product = |e: &mut Emit, xs: &[LocalId], name: &str| {
        let mut acc = e.read(xs[0]);
        for &x in &xs[1..] {
            let v = e.read(x);
            acc = e.bin(BinOp::Mul, acc, v);
        }
        e.hold(name, acc)
    };
    let groups = product(e, &counts, "groups");
    let per = product(e, &sizes, "per");

    let gs = start_stride(e, outer);
    strided(e, "group", gs, groups, |e, g| {
        let mut outer_body = vec![];
        let ms = {
            let mut sub = Emit::new(e.f);
            let r = start_stride(&mut sub, inner);
            outer_body.append(&mut sub.out);
            r
        };
        let mut sub = Emit::new(e.f);
        strided(&mut sub, "member", ms, per, |e, m| {
            // The index of each loop of the nest.
            let mut stmts = vec![];
            let mut idx: Vec<LocalId> = vec![];
            if !tile.is_empty() {
                // Decompose group and member, innermost loop first.
                let (gr, mr) = (
                    e.f.new_local("grest", Type::U64),
                    e.f.new_local("mrest", Type::U64),
                );
                let (gv, mv) = (e.read(g), e.read(m));
                stmts.push(Stmt::Assign {
                    local: gr,
                    value: gv,
                });
                stmts.push(Stmt::Assign {
                    local: mr,
                    value: mv,
                });
                let mut rev = vec![];
                for k in (0..levels.len()).rev() {
                    let (a, n) = (e.read(gr), e.read(counts[k]));
                    let gk = e.bin(BinOp::Rem, a, n);
                    let (a, n) = (e.read(mr), e.read(sizes[k]));
                    let mk = e.bin(BinOp::Rem, a, n);
                    let s = e.read(sizes[k]);
                    let base = e.bin(BinOp::Mul, gk, s);
                    let i = e.bin(BinOp::Add, base, mk);
                    let l = e.f.new_local("idx", Type::U64);
                    stmts.push(Stmt::Assign { local: l, value: i });
                    rev.push(l);
                    for (rest, by) in [(gr, counts[k]), (mr, sizes[k])] {
                        let (a, n) = (e.read(rest), e.read(by));
                        let q = e.bin(BinOp::Div, a, n);
                        stmts.push(Stmt::Assign {
                            local: rest,
                            value: q,
                        });
                    }
                }
                rev.reverse();
                idx = rev;
            } else {
                // k = chunk * size + member; then the collapsed indices.
                let (gv, c, mv) = (e.read(g), e.read(sizes[0]), e.read(m));
                let base = e.bin(BinOp::Mul, gv, c);
                let k = e.bin(BinOp::Add, base, mv);
                let l = e.f.new_local("iter", Type::U64);
                stmts.push(Stmt::Assign { local: l, value: k });
                idx.push(l);
            }
            // In range?
            let mut cond: Option<ExprId> = None;
            let mut set = vec![];
            if !tile.is_empty() {
                for (k, lvl) in levels.iter().enumerate() {
                    let (i, t) = (e.read(idx[k]), e.read(lvl.trip));
                    let c = e.cmp(CmpOp::Lt, i, t);
                    cond = Some(match cond {
                        None => c,
                        Some(p) => e.f.add(
                            crate::ir::Expr::Logical {
                                and: true,
                                lhs: p,
                                rhs: c,
                            },
                            Type::BOOL,
                        ),
                    });
                    let i = e.read(idx[k]);
                    set.push(set_var(e, lvl, i));
                }
            } else {
                let mut total = e.read(levels[0].trip);
                for lvl in &levels[1..] {
                    let t = e.read(lvl.trip);
                    total = e.bin(BinOp::Mul, total, t);
                }
                let i = e.read(idx[0]);
                let in_range = e.cmp(CmpOp::Lt, i, total);
                let in_chunk = {
                    let (mv, c) = (e.read(m), e.read(sizes[0]));
                    e.cmp(CmpOp::Lt, mv, c)
                };
                cond = Some(e.f.add(
                    crate::ir::Expr::Logical {
                        and: true,
                        lhs: in_chunk,
                        rhs: in_range,
                    },
                    Type::BOOL,
                ));
                // Decompose the iteration over the collapsed loops.
                let r = e.f.new_local("rest", Type::U64);
                let iv = e.read(idx[0]);
                set.push(Stmt::Assign {
                    local: r,
                    value: iv,
                });
                for (k, lvl) in levels.iter().enumerate().rev() {
                    let v = if k == 0 {
                        e.read(r)
                    } else {
                        let (a, n) = (e.read(r), e.read(lvl.trip));
                        e.bin(BinOp::Rem, a, n)
                    };
                    set.push(set_var(e, lvl, v));
                    if k > 0 {
                        let (a, n) = (e.read(r), e.read(lvl.trip));
                        let q = e.bin(BinOp::Div, a, n);
                        set.push(Stmt::Assign { local: r, value: q });
                    }
                }
            }
            set.extend(body);
            if let Some(c) = cond {
                stmts.push(Stmt::If {
                    cond: c,
                    then: set,
                    otherwise: vec![],
                    single: false,
                });
            }
            stmts
        });
        outer_body.append(&mut sub.out);
        outer_body
    });
}

#[cfg(test)]
mod tests {
    use super::sizes;

    #[test]
    fn star_sizes_by_depth() {
        assert_eq!(sizes(&[None]), [128]);
        assert_eq!(sizes(&[None, None]), [8, 32]);
        assert_eq!(sizes(&[None, None, None, None]), [4, 4, 8, 32]);
        assert_eq!(sizes(&[Some(2), None, Some(16)]), [2, 8, 16]);
    }
}
