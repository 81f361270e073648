//! IR types as CUDA C types: the spelling of each scalar, pointer and
//! array type, and one struct per blob shape (`struct __accc_blob_S_A`:
//! `S` bytes aligned to `A`, the layout the host gave the C struct, union,
//! `long double` or complex the blob stands for), so that pointer
//! arithmetic on a `ptr<blob>` scales by its size as the IR says.
//!
//! Owns: [`c_type`], [`declare`], [`blob_name`], [`collect_blobs`],
//! [`blob_structs`], [`align_attr`]. May
//! call: `ir`.

use crate::ir::{FloatKind, IntKind, Type};

/// The struct that stands for a blob of `size` bytes aligned to `align`.
pub fn blob_name(size: u64, align: u64) -> String {
    format!("__accc_blob_{size}_{align}")
}

/// The CUDA C spelling of a type as in a cast: `double *`,
/// `int (*)[3]`, `struct __accc_blob_16_8`.
pub fn c_type(t: &Type) -> String {
    declare(t, "")
}

/// A declaration of `name` of type `t` (without `;`): `double x`,
/// `int a[4]`, `float *p`, `int (*q)[3]`; with an empty name, the type
/// name of a cast.
pub fn declare(t: &Type, name: &str) -> String {
    match t {
        Type::Ptr(p) if matches!(**p, Type::Array(..)) => declare(p, &format!("(*{name})")),
        Type::Ptr(p) => declare(p, &format!("*{name}")),
        Type::Array(e, n) => declare(e, &format!("{name}[{n}]")),
        t if name.is_empty() => scalar(t),
        t => format!("{} {name}", scalar(t)),
    }
}

/// The spelling of a type that is neither a pointer nor an array.
fn scalar(t: &Type) -> String {
    match t {
        Type::Int(k) => match k {
            IntKind::Bool => "bool",
            IntKind::I8 => "signed char",
            IntKind::U8 => "unsigned char",
            IntKind::I16 => "short",
            IntKind::U16 => "unsigned short",
            IntKind::I32 => "int",
            IntKind::U32 => "unsigned int",
            IntKind::I64 => "long long",
            IntKind::U64 => "unsigned long long",
        }
        .into(),
        Type::Float(FloatKind::F32) => "float".into(),
        Type::Float(FloatKind::F64) => "double".into(),
        Type::Blob { size, align } => format!("struct {}", blob_name(*size, *align)),
        Type::Void | Type::Ptr(_) | Type::Array(..) => "void".into(),
    }
}

/// Adds to `out` every blob shape inside `t` (element types, pointees).
pub fn collect_blobs(t: &Type, out: &mut Vec<(u64, u64)>) {
    match t {
        Type::Blob { size, align } => {
            if !out.contains(&(*size, *align)) {
                out.push((*size, *align));
            }
        }
        Type::Ptr(e) | Type::Array(e, _) => collect_blobs(e, out),
        Type::Void | Type::Int(_) | Type::Float(_) => {}
    }
}

/// The definitions of the blob structs `shapes`, one a line (`host`:
/// in GNU C).
pub fn blob_structs(shapes: &[(u64, u64)], host: bool) -> String {
    let mut s = String::new();
    for &(size, align) in shapes {
        s.push_str(&format!(
            "struct {} {} {{ unsigned char b[{size}]; }};\n",
            align_attr(align, host),
            blob_name(size, align)
        ));
    }
    s
}

/// The attribute aligning an object to `align` bytes (`host`: GNU C's).
pub fn align_attr(align: u64, host: bool) -> String {
    if host {
        format!("__attribute__((aligned({align})))")
    } else {
        format!("__align__({align})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings() {
        assert_eq!(c_type(&Type::U64), "unsigned long long");
        assert_eq!(declare(&Type::F64.ptr_to(), "x"), "double *x");
        assert_eq!(declare(&Type::F64.ptr_to().ptr_to(), "x"), "double **x");
        let a = Type::Array(Box::new(Type::Array(Box::new(Type::I32), 3)), 2);
        assert_eq!(declare(&a, "m"), "int m[2][3]");
        let pa = Type::Array(Box::new(Type::I32), 3).ptr_to();
        assert_eq!(declare(&pa, "q"), "int (*q)[3]");
        assert_eq!(c_type(&pa), "int (*)[3]");
        assert_eq!(c_type(&Type::F32.ptr_to()), "float *");
        let b = Type::Blob { size: 16, align: 8 };
        assert_eq!(declare(&b, "z"), "struct __accc_blob_16_8 z");
        let mut shapes = vec![];
        collect_blobs(&b.ptr_to(), &mut shapes);
        collect_blobs(&Type::Array(Box::new(b), 4), &mut shapes);
        assert_eq!(
            blob_structs(&shapes, false),
            "struct __align__(8) __accc_blob_16_8 { unsigned char b[16]; };\n"
        );
        assert_eq!(
            blob_structs(&shapes, true),
            "struct __attribute__((aligned(8))) __accc_blob_16_8 { unsigned char b[16]; };\n"
        );
    }
}
