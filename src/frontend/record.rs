//! Structs and unions: their members and their x86-64 SysV layout (device
//! code reads and writes host bytes, so offsets, sizes and alignments must be
//! exactly the host compiler's).
//!
//! Owns: [`StructRef`] (a shared, completable struct or union type),
//! [`Member`], [`Layout`] and the layout rules. Declarations turn lang-c's
//! member lists into [`Member`]s in `declare.rs`. May call: `ctype`.

use super::ctype::CType;
use std::cell::RefCell;
use std::rc::Rc;

/// Size and alignment of a complete struct or union.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub size: u64,
    pub align: u64,
}

/// One member with its byte offset. Anonymous struct and union members
/// (C11) have no name; their members are found through them.
#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    pub name: Option<String>,
    pub ty: CType,
    pub offset: u64,
}

/// A member as declared, before layout.
pub struct Field {
    pub name: Option<String>,
    pub ty: CType,
    /// Declared with a bit width (`int x : 3`).
    pub bit_field: bool,
}

#[derive(Debug)]
struct Def {
    tag: Option<String>,
    union: bool,
    /// Members and layout once the definition has been seen.
    body: Option<Body>,
}

#[derive(Debug)]
struct Body {
    members: Vec<Member>,
    /// `None` when accc cannot lay the type out (`why` says why).
    layout: Option<Layout>,
    why: Option<String>,
}

/// A struct or union type, shared by every declaration that names it, so a
/// forward declaration (`struct node;`, `struct node *next;`) is completed
/// in place by its definition. Two references are the same type when they
/// share the definition.
#[derive(Clone)]
pub struct StructRef(Rc<RefCell<Def>>);

impl PartialEq for StructRef {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl std::fmt::Debug for StructRef {
    // The name only: a struct may point to itself.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.name())
    }
}

fn align_up(x: u64, a: u64) -> u64 {
    x.div_ceil(a.max(1)) * a.max(1)
}

impl StructRef {
    /// A new, incomplete struct (or union) type.
    pub fn new(tag: Option<String>, union: bool) -> StructRef {
        StructRef(Rc::new(RefCell::new(Def {
            tag,
            union,
            body: None,
        })))
    }

    /// `struct tag`, `union tag` or `struct <anonymous>`.
    pub fn name(&self) -> String {
        let d = self.0.borrow();
        let kind = if d.union { "union" } else { "struct" };
        match &d.tag {
            Some(t) => format!("{kind} {t}"),
            None => format!("{kind} <anonymous>"),
        }
    }

    /// True for a union.
    pub fn is_union(&self) -> bool {
        self.0.borrow().union
    }

    /// True once the definition has been seen.
    pub fn is_complete(&self) -> bool {
        self.0.borrow().body.is_some()
    }

    /// The layout, when the type is complete and accc can lay it out.
    pub fn layout(&self) -> Option<Layout> {
        self.0.borrow().body.as_ref().and_then(|b| b.layout)
    }

    /// Why device code cannot use this type (incomplete, bit-fields, …),
    /// or `None` when it can.
    pub fn unusable(&self) -> Option<String> {
        let d = self.0.borrow();
        match &d.body {
            None => Some(format!("'{}' is an incomplete type", self.name())),
            Some(b) => b.why.clone(),
        }
    }

    /// Raises the alignment of a complete type to at least `n` bytes (GNU
    /// `aligned(n)`): its size rounds up to the new alignment.
    pub fn align_to(&self, n: u64) {
        if let Some(b) = self.0.borrow_mut().body.as_mut() {
            if let Some(l) = b.layout.as_mut() {
                l.align = l.align.max(n);
                l.size = align_up(l.size, l.align);
            }
        }
    }

    /// Makes a complete type unusable on the device, for reason `why`
    /// (attributes that change its layout, which `define` does not apply).
    pub fn forbid(&self, why: String) {
        if let Some(b) = self.0.borrow_mut().body.as_mut() {
            b.layout = None;
            b.why.get_or_insert(why);
        }
    }

    /// Completes the type with its members, laid out by the SysV rules:
    /// each member at the next multiple of its alignment (all at 0 in a
    /// union), the size rounded up to the largest alignment. A flexible
    /// array member (`double d[];`, last) takes no space. Bit-fields and
    /// members of unknown size make the type unusable on the device (but
    /// still declarable). Returns an error message when already complete.
    pub fn define(&self, fields: Vec<Field>) -> Result<(), String> {
        if self.is_complete() {
            return Err(format!("redefinition of '{}'", self.name()));
        }
        let union = self.is_union();
        let (mut offset, mut size, mut align) = (0u64, 0u64, 1u64);
        let mut why = None;
        let mut members = vec![];
        let n = fields.len();
        for (i, f) in fields.into_iter().enumerate() {
            if f.bit_field {
                why.get_or_insert_with(|| {
                    format!(
                        "'{}' has bit-fields, which device code does not support",
                        self.name()
                    )
                });
            }
            let flexible = matches!(f.ty, CType::Array(_, None)) && i + 1 == n && !union;
            let (fs, fa) = match (f.ty.size(), f.ty.align()) {
                (Some(s), Some(a)) => (s, a),
                (None, Some(a)) if flexible => (0, a),
                _ => {
                    why.get_or_insert_with(|| {
                        format!(
                            "member '{}' of '{}' has type '{}', which device code cannot use",
                            f.name.as_deref().unwrap_or("<anonymous>"),
                            self.name(),
                            f.ty
                        )
                    });
                    (0, 1)
                }
            };
            let at = if union { 0 } else { align_up(offset, fa) };
            members.push(Member {
                name: f.name,
                ty: f.ty,
                offset: at,
            });
            offset = at + fs;
            size = size.max(at + fs);
            align = align.max(fa);
        }
        let layout = why.is_none().then(|| Layout {
            size: align_up(size, align),
            align,
        });
        self.0.borrow_mut().body = Some(Body {
            members,
            layout,
            why,
        });
        Ok(())
    }

    /// The member called `name` (looking inside anonymous members): its
    /// type and byte offset from the start of the object.
    pub fn member(&self, name: &str) -> Option<(CType, u64)> {
        let d = self.0.borrow();
        let body = d.body.as_ref()?;
        for m in &body.members {
            match (&m.name, &m.ty) {
                (Some(n), t) if n == name => return Some((t.clone(), m.offset)),
                (None, CType::Struct(inner)) => {
                    if let Some((t, off)) = inner.member(name) {
                        return Some((t, m.offset + off));
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// The members in declaration order (for initializer lists).
    pub fn members(&self) -> Vec<Member> {
        let d = self.0.borrow();
        d.body
            .as_ref()
            .map(|b| b.members.clone())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{FloatKind, IntKind};

    fn field(name: &str, ty: CType) -> Field {
        Field {
            name: Some(name.into()),
            ty,
            bit_field: false,
        }
    }

    #[test]
    fn sysv_layout() {
        // struct { char c; double d; int i; } : 0, 8, 16; size 24, align 8
        let s = StructRef::new(Some("s".into()), false);
        s.define(vec![
            field("c", CType::Int(IntKind::I8)),
            field("d", CType::Float(FloatKind::F64)),
            field("i", CType::INT),
        ])
        .unwrap();
        assert_eq!(s.layout(), Some(Layout { size: 24, align: 8 }));
        assert_eq!(s.member("d").map(|m| m.1), Some(8));
        assert_eq!(s.member("i").map(|m| m.1), Some(16));
        // union { char c[5]; int i; } : size 8, align 4
        let u = StructRef::new(None, true);
        u.define(vec![
            field(
                "c",
                CType::Array(Box::new(CType::Int(IntKind::I8)), Some(5)),
            ),
            field("i", CType::INT),
        ])
        .unwrap();
        assert_eq!(u.layout(), Some(Layout { size: 8, align: 4 }));
        // struct { short a; union {...}; } : the union's members found through it
        let o = StructRef::new(Some("o".into()), false);
        o.define(vec![
            field("a", CType::Int(IntKind::I16)),
            Field {
                name: None,
                ty: CType::Struct(u.clone()),
                bit_field: false,
            },
        ])
        .unwrap();
        assert_eq!(o.member("i").map(|m| m.1), Some(4));
        assert_eq!(o.layout(), Some(Layout { size: 12, align: 4 }));
        assert!(o.define(vec![]).is_err());
    }

    #[test]
    fn flexible_and_bitfields() {
        let s = StructRef::new(Some("f".into()), false);
        s.define(vec![
            field("n", CType::INT),
            field("d", CType::Array(Box::new(CType::DOUBLE), None)),
        ])
        .unwrap();
        assert_eq!(s.layout(), Some(Layout { size: 8, align: 8 }));
        let b = StructRef::new(Some("b".into()), false);
        b.define(vec![Field {
            name: Some("x".into()),
            ty: CType::INT,
            bit_field: true,
        }])
        .unwrap();
        assert_eq!(b.layout(), None);
        assert!(b.unusable().is_some_and(|w| w.contains("bit-fields")));
        assert!(StructRef::new(None, false).unusable().is_some());
    }
}
