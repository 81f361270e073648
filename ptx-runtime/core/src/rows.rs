//! The rows of a sub-array through pointers to pointers (OpenACC 3.3 2.7.1:
//! `double **a; copy(a[0:n][0:m])`, the jagged-array deep copy): the data
//! item names the section of pointers (`a[0:n]`), and the `PTXRT_MAP_ROWS`
//! items after it name, one per further pointer level, where each pointer's
//! row is (a byte offset from the pointer's target and a length). Each row
//! is mapped with the data item's clause and its pointer is attached to it.
//!
//! Owns: [`levels_after`] (reading the `ROWS` items of a data item) and
//! [`rows`] (walking the host pointers to list the rows, depth first).
//! May call: [`crate::abi`] only (reads host memory, no device calls).

use crate::abi::{Map, MapKind};

/// One pointer level: where each row starts relative to its pointer's
/// target (bytes, may be negative) and its length in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    pub offset: isize,
    pub bytes: usize,
}

/// One row: the pointer stored at host address `slot` (inside the section
/// of the level above) points at `target`; the row is `[host, host +
/// bytes)` (`host` is 0 when the pointer is null: nothing to map, and the
/// attach gives the device copy a null pointer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    pub slot: usize,
    pub host: usize,
    pub bytes: usize,
    /// 1 for the rows of the data item's pointers, 2 for theirs, ...
    pub depth: usize,
}

/// The `ROWS` items right after `maps[i]`, as levels.
pub fn levels_after(maps: &[Map], i: usize) -> Vec<Level> {
    maps.iter()
        .skip(i + 1)
        .take_while(|m| MapKind::from_c(m.kind) == Some(MapKind::Rows))
        .map(|m| Level {
            offset: m.host as isize,
            bytes: m.bytes,
        })
        .collect()
}

const PTR: usize = std::mem::size_of::<usize>();

/// The rows under the section of pointers `[host, host + bytes)`, for
/// `levels` (outermost first), depth first: each row comes before the
/// rows of the pointers it holds. A partial pointer at the end of a
/// section is not a pointer (ignored).
///
/// # Safety
/// The section, and every non-null row of every level but the last, must
/// be readable host memory holding pointers.
pub unsafe fn rows(host: usize, bytes: usize, levels: &[Level]) -> Vec<Row> {
    let mut out = vec![];
    // SAFETY: per the caller.
    unsafe { walk(host, bytes, levels, 1, &mut out) };
    out
}

/// # Safety
/// As for [`rows`].
unsafe fn walk(host: usize, bytes: usize, levels: &[Level], depth: usize, out: &mut Vec<Row>) {
    let Some((level, deeper)) = levels.split_first() else {
        return;
    };
    if host == 0 {
        return;
    }
    for k in 0..bytes / PTR {
        let slot = host + k * PTR;
        // SAFETY: the slot lies in the section of pointers (per the caller).
        let target = unsafe { std::ptr::read_unaligned(slot as *const usize) };
        let row = if target == 0 {
            0
        } else {
            target.wrapping_add_signed(level.offset)
        };
        out.push(Row {
            slot,
            host: row,
            bytes: level.bytes,
            depth,
        });
        // SAFETY: per the caller, a non-null row of a level above the last
        // holds pointers.
        unsafe { walk(row, level.bytes, deeper, depth + 1, out) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::c_void;

    #[test]
    fn rows_of_a_jagged_array() {
        let r0 = [1.0f64, 2.0, 3.0, 4.0];
        let r1 = [5.0f64, 6.0, 7.0, 8.0];
        let a: [*const f64; 3] = [r0.as_ptr(), std::ptr::null(), r1.as_ptr()];
        let host = a.as_ptr() as usize;
        // a[0:3][1:2]: from element 1, two doubles per row.
        let lv = [Level {
            offset: 8,
            bytes: 16,
        }];
        // SAFETY: a holds pointers; the rows are doubles (last level).
        let rs = unsafe { rows(host, 3 * PTR, &lv) };
        assert_eq!(
            rs,
            [
                Row {
                    slot: host,
                    host: r0.as_ptr() as usize + 8,
                    bytes: 16,
                    depth: 1
                },
                Row {
                    slot: host + PTR,
                    host: 0,
                    bytes: 16,
                    depth: 1
                },
                Row {
                    slot: host + 2 * PTR,
                    host: r1.as_ptr() as usize + 8,
                    bytes: 16,
                    depth: 1
                },
            ]
        );
    }

    #[test]
    fn three_levels_depth_first() {
        let x = [1i32, 2];
        let y = [3i32, 4];
        let p0: [*const i32; 2] = [x.as_ptr(), y.as_ptr()];
        let p1: [*const i32; 2] = [y.as_ptr(), x.as_ptr()];
        let top: [*const *const i32; 2] = [p0.as_ptr(), p1.as_ptr()];
        let lv = [
            Level {
                offset: 0,
                bytes: 2 * PTR,
            },
            Level {
                offset: 0,
                bytes: 8,
            },
        ];
        // SAFETY: top and its rows hold pointers.
        let rs = unsafe { rows(top.as_ptr() as usize, 2 * PTR, &lv) };
        let hosts: Vec<(usize, usize)> = rs.iter().map(|r| (r.host, r.depth)).collect();
        assert_eq!(
            hosts,
            [
                (p0.as_ptr() as usize, 1),
                (x.as_ptr() as usize, 2),
                (y.as_ptr() as usize, 2),
                (p1.as_ptr() as usize, 1),
                (y.as_ptr() as usize, 2),
                (x.as_ptr() as usize, 2),
            ]
        );
    }

    #[test]
    fn levels_follow_their_item() {
        let m = |kind, host: usize, bytes| Map {
            name: std::ptr::null(),
            host: host as *const c_void,
            bytes,
            kind,
            flags: 0,
        };
        let maps = [
            m(0, 100, 24),
            m(10, 16, 80),
            m(10, (-8isize) as usize, 8),
            m(1, 200, 4),
            m(10, 0, 4),
        ];
        assert_eq!(
            levels_after(&maps, 0),
            [
                Level {
                    offset: 16,
                    bytes: 80
                },
                Level {
                    offset: -8,
                    bytes: 8
                }
            ]
        );
        assert_eq!(levels_after(&maps, 3).len(), 1);
        assert!(levels_after(&maps, 4).is_empty());
    }
}
