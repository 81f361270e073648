//! Device `printf`: the format string and the promoted arguments of one
//! call turned into the bytes the program prints, by the C library's own
//! `snprintf`, one conversion at a time (so the output is what the host's
//! `printf` prints for the same values, as the oracle builds of the tests
//! print them).
//!
//! Owns: [`format`]. Each conversion gets an argument of the C type it
//! reads (`int`, `long long`, `double`, a pointer, a string read from
//! device memory), converted from the register's bits, so a mismatched
//! format never makes `snprintf` read the wrong type. `%n` writes nothing.
//! May call: the C library (`snprintf`), [`crate::code`].

use crate::code::Ty;
use std::ffi::{c_char, c_int, CString};

extern "C" {
    fn snprintf(buf: *mut c_char, n: usize, fmt: *const c_char, ...) -> c_int;
}

/// An argument as the conversion reads it.
enum Arg {
    Int(i32),
    Long(i64),
    Double(f64),
    Ptr(u64),
    Str(CString),
}

fn render(spec: &str, arg: &Arg) -> Vec<u8> {
    let Ok(cspec) = CString::new(spec) else {
        return spec.as_bytes().to_vec();
    };
    let mut buf = vec![0u8; 128];
    loop {
        let p = buf.as_mut_ptr().cast::<c_char>();
        let n = buf.len();
        // SAFETY: buf has n bytes; the spec holds exactly one conversion,
        // whose argument has the C type it reads.
        let len = unsafe {
            match arg {
                Arg::Int(v) => snprintf(p, n, cspec.as_ptr(), *v as c_int),
                Arg::Long(v) => snprintf(p, n, cspec.as_ptr(), *v),
                Arg::Double(v) => snprintf(p, n, cspec.as_ptr(), *v),
                Arg::Ptr(v) => snprintf(p, n, cspec.as_ptr(), *v as usize as *const u8),
                Arg::Str(s) => snprintf(p, n, cspec.as_ptr(), s.as_ptr()),
            }
        };
        if len < 0 {
            return vec![];
        }
        let len = len as usize;
        if len < n {
            buf.truncate(len);
            return buf;
        }
        buf = vec![0u8; len + 1];
    }
}

/// The bytes `printf(fmt, args…)` prints; `string_at` reads a device
/// string for `%s`.
pub fn format(
    fmt: &[u8],
    args: &[(u64, Ty)],
    mut string_at: impl FnMut(u64) -> Option<Vec<u8>>,
) -> Vec<u8> {
    let mut out = vec![];
    let mut next = args.iter();
    let mut i = 0;
    while i < fmt.len() {
        if fmt[i] != b'%' {
            out.push(fmt[i]);
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        let mut spec = String::from("%");
        while i < fmt.len() && b"-+ #0".contains(&fmt[i]) {
            spec.push(fmt[i] as char);
            i += 1;
        }
        // Width and precision (`*` takes an int argument).
        for part in 0..2 {
            if part == 1 {
                if fmt.get(i) != Some(&b'.') {
                    break;
                }
                spec.push('.');
                i += 1;
            }
            if fmt.get(i) == Some(&b'*') {
                let v = next.next().map_or(0, |&(v, _)| v as u32 as i32);
                spec.push_str(&v.to_string());
                i += 1;
            } else {
                while i < fmt.len() && fmt[i].is_ascii_digit() {
                    spec.push(fmt[i] as char);
                    i += 1;
                }
            }
        }
        let mut long = false;
        let mut short = String::new();
        while i < fmt.len() && b"hljztqL".contains(&fmt[i]) {
            match fmt[i] {
                b'h' => short.push('h'),
                _ => long = true,
            }
            i += 1;
        }
        let Some(&conv) = fmt.get(i) else {
            out.extend_from_slice(&fmt[start..]);
            break;
        };
        i += 1;
        let arg =
            |next: &mut std::slice::Iter<(u64, Ty)>| next.next().copied().unwrap_or((0, Ty::I32));
        match conv {
            b'%' => out.push(b'%'),
            b'd' | b'i' | b'u' | b'o' | b'x' | b'X' | b'c' => {
                let (v, ty) = arg(&mut next);
                let v = crate::arith::sext(ty, v);
                if long && conv != b'c' {
                    spec.push_str("ll");
                    spec.push(conv as char);
                    out.extend(render(&spec, &Arg::Long(v)));
                } else {
                    spec.push_str(&short);
                    spec.push(conv as char);
                    out.extend(render(&spec, &Arg::Int(v as i32)));
                }
            }
            b'e' | b'E' | b'f' | b'F' | b'g' | b'G' | b'a' | b'A' => {
                let (v, ty) = arg(&mut next);
                let x = match ty {
                    Ty::F32 => f64::from(f32::from_bits(v as u32)),
                    _ => f64::from_bits(v),
                };
                spec.push(conv as char);
                out.extend(render(&spec, &Arg::Double(x)));
            }
            b'p' => {
                let (v, _) = arg(&mut next);
                spec.push('p');
                out.extend(render(&spec, &Arg::Ptr(v)));
            }
            b's' => {
                let (v, _) = arg(&mut next);
                let s = if v == 0 { None } else { string_at(v) };
                let s = s.unwrap_or_else(|| b"(null)".to_vec());
                let s = CString::new(s).unwrap_or_default();
                spec.push('s');
                out.extend(render(&spec, &Arg::Str(s)));
            }
            b'n' => {
                let _ = arg(&mut next);
            }
            _ => out.extend_from_slice(&fmt[start..i]),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(fmt: &str, args: &[(u64, Ty)]) -> String {
        String::from_utf8(format(fmt.as_bytes(), args, |_| Some(b"dev".to_vec()))).unwrap()
    }

    #[test]
    fn conversions_as_the_c_library() {
        assert_eq!(
            f(
                "x=%d|%5d|%-4x|",
                &[
                    (7, Ty::I32),
                    (u64::from(-3i32 as u32), Ty::I32),
                    (255, Ty::I32)
                ]
            ),
            "x=7|   -3|ff  |"
        );
        assert_eq!(
            f("%ld %lu", &[(u64::MAX, Ty::I64), (u64::MAX, Ty::U64)]),
            "-1 18446744073709551615"
        );
        assert_eq!(
            f(
                "%.3f %e",
                &[(1.5f64.to_bits(), Ty::F64), (0.25f64.to_bits(), Ty::F64)]
            ),
            "1.500 2.500000e-01"
        );
        assert_eq!(
            f(
                "%hd %c %s %%",
                &[(70000, Ty::I32), (65, Ty::I32), (8, Ty::Ptr)]
            ),
            "4464 A dev %"
        );
        assert_eq!(
            f(
                "%*d|%.*f",
                &[
                    (4, Ty::I32),
                    (9, Ty::I32),
                    (2, Ty::I32),
                    (2.5f64.to_bits(), Ty::F64)
                ]
            ),
            "   9|2.50"
        );
        assert_eq!(f("%u", &[(3_000_000_000, Ty::U32)]), "3000000000");
        assert_eq!(f("trailing %", &[]), "trailing %");
    }
}
