//! Relocatable device images (`relocatable` in ptxrt.h): what is linked, from
//! which code, on a device.
//!
//! Owns: [`plan`], the decision of which code of a group of relocatable
//! images the driver's JIT linker gets on a device of compute capability
//! major.minor — their relocatable cubins when every image has one for that
//! arch, then (also the fallback when linking the cubins fails, as a cubin
//! that fails to load falls back to its PTX) their PTX, which the linker
//! compiles itself — and [`names`], how a group is named in messages. Pure: no
//! device, no plugin, so it is unit-tested; [`crate::image`] runs the plan.
//! May call: [`crate::abi`], [`crate::image::cubin_for`].

use crate::abi::Image;
use crate::image::cubin_for;
use ptxrt_plugin_abi::{LINK_INPUT_CUBIN, LINK_INPUT_PTX};

/// The code of one image given to the linker.
#[derive(Clone, Copy)]
pub struct Input<'a> {
    /// [`LINK_INPUT_PTX`] or [`LINK_INPUT_CUBIN`].
    pub kind: i32,
    pub bytes: &'a [u8],
    pub image: &'a Image,
}

/// One way to link the group: what it is ("cubins sm_90", "PTX") and one
/// input per image, in the group's order.
pub struct Attempt<'a> {
    pub what: String,
    pub inputs: Vec<Input<'a>>,
}

/// The source files of a group, for messages: "a.c, b.c".
pub fn names(images: &[&Image]) -> String {
    images
        .iter()
        .map(|i| i.source_name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The attempts to link `images` on a device of compute capability
/// major.minor, in order (see the module doc); an error naming the group and
/// the image that has no usable code when there is no way at all.
pub fn plan<'a>(images: &[&'a Image], major: i32, minor: i32) -> Result<Vec<Attempt<'a>>, String> {
    if images.is_empty() {
        return Err("internal error: no relocatable device image to link".to_string());
    }
    let mut out = Vec::new();
    let cubins: Option<Vec<(String, Input<'a>)>> = images
        .iter()
        .map(|&image| {
            cubin_for(image, major, minor).map(|(arch, bytes)| {
                let kind = LINK_INPUT_CUBIN;
                (arch, Input { kind, bytes, image })
            })
        })
        .collect();
    if let Some(cubins) = cubins {
        let mut archs: Vec<&str> = cubins.iter().map(|(a, _)| a.as_str()).collect();
        archs.dedup();
        out.push(Attempt {
            what: format!("cubins {}", archs.join("/")),
            inputs: cubins.iter().map(|(_, i)| *i).collect(),
        });
    }
    let ptx: Option<Vec<Input<'a>>> = images
        .iter()
        .map(|&image| {
            image.ptx_bytes().map(|bytes| Input {
                kind: LINK_INPUT_PTX,
                bytes,
                image,
            })
        })
        .collect();
    match ptx {
        Some(inputs) => out.push(Attempt {
            what: "PTX".to_string(),
            inputs,
        }),
        None if out.is_empty() => {
            let sm = format!("sm_{major}{minor}");
            let no_ptx = images.iter().filter(|i| i.ptx_bytes().is_none());
            let no_cubin = |i: &&&Image| cubin_for(i, major, minor).is_none();
            let why = match no_ptx.clone().find(no_cubin) {
                Some(i) => format!(
                    "the image of {} has no PTX and no cubin for {sm}",
                    i.source_name()
                ),
                None => format!(
                    "the image of {} has no PTX and the image of {} no cubin for {sm}",
                    no_ptx.map(|i| i.source_name()).next().unwrap_or_default(),
                    images
                        .iter()
                        .find(no_cubin)
                        .map(|i| i.source_name())
                        .unwrap_or_default()
                ),
            };
            return Err(format!(
                "cannot link the device images of {} for {sm}: {why}",
                names(images)
            ));
        }
        None => {}
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::PTXRT_ABI_VERSION;
    use std::ffi::{c_char, CStr};
    use std::ptr;

    fn image(
        source: &'static CStr,
        ptx: &'static [u8],
        cubin: &'static [u8],
        arch: &'static CStr,
    ) -> Image {
        Image {
            abi_version: PTXRT_ABI_VERSION,
            relocatable: 1,
            source: source.as_ptr(),
            ptx: if ptx.is_empty() {
                ptr::null()
            } else {
                ptx.as_ptr().cast::<c_char>()
            },
            ptx_len: ptx.len(),
            cubin: if cubin.is_empty() {
                ptr::null()
            } else {
                cubin.as_ptr()
            },
            cubin_len: cubin.len(),
            cubin_arch: if arch.is_empty() {
                ptr::null()
            } else {
                arch.as_ptr()
            },
            plugin_dir: ptr::null(),
            runtime_state: ptr::null_mut(),
            cells: ptr::null(),
            ncells: 0,
        }
    }

    fn summary(p: &[Attempt]) -> Vec<String> {
        p.iter()
            .map(|a| {
                let inputs: Vec<String> = a
                    .inputs
                    .iter()
                    .map(|i| {
                        let k = if i.kind == LINK_INPUT_CUBIN {
                            "cubin"
                        } else {
                            "ptx"
                        };
                        format!(
                            "{}:{k}:{}",
                            i.image.source_name(),
                            String::from_utf8_lossy(i.bytes)
                        )
                    })
                    .collect();
                format!("{} [{}]", a.what, inputs.join(" "))
            })
            .collect()
    }

    #[test]
    fn cubins_when_all_match_then_ptx() {
        let a = image(c"a.c", b"PA", b"CA", c"sm_90");
        let b = image(c"b.c", b"PB", b"CB", c"sm_90a");
        let p = plan(&[&a, &b], 9, 0).unwrap();
        assert_eq!(
            summary(&p),
            [
                "cubins sm_90/sm_90a [a.c:cubin:CA b.c:cubin:CB]",
                "PTX [a.c:ptx:PA b.c:ptx:PB]"
            ]
        );
        // Another device: no cubin matches, the PTX is linked.
        assert_eq!(
            summary(&plan(&[&a, &b], 8, 0).unwrap()),
            ["PTX [a.c:ptx:PA b.c:ptx:PB]"]
        );
    }

    #[test]
    fn one_image_without_a_matching_cubin_means_ptx_for_all() {
        let a = image(c"a.c", b"PA", b"CA", c"sm_90");
        let b = image(c"b.c", b"PB", b"", c"");
        let c = image(c"c.c", b"PC", b"CC", c"sm_80");
        assert_eq!(
            summary(&plan(&[&a, &b], 9, 0).unwrap()),
            ["PTX [a.c:ptx:PA b.c:ptx:PB]"]
        );
        assert_eq!(
            summary(&plan(&[&a, &c], 9, 0).unwrap()),
            ["PTX [a.c:ptx:PA c.c:ptx:PC]"]
        );
    }

    #[test]
    fn cubins_only_when_some_image_has_no_ptx() {
        let a = image(c"a.c", b"", b"CA", c"sm_90");
        let b = image(c"b.c", b"PB", b"CB", c"sm_90");
        assert_eq!(
            summary(&plan(&[&a, &b], 9, 0).unwrap()),
            ["cubins sm_90 [a.c:cubin:CA b.c:cubin:CB]"]
        );
        let e = plan(&[&b, &a], 8, 6).err().unwrap();
        assert_eq!(
            e,
            "cannot link the device images of b.c, a.c for sm_86: the image of a.c has no PTX and no cubin for sm_86"
        );
        let c = image(c"c.c", b"PC", b"", c"");
        let e = plan(&[&a, &c], 9, 0).err().unwrap();
        assert_eq!(
            e,
            "cannot link the device images of a.c, c.c for sm_90: the image of a.c has no PTX and the image of c.c no cubin for sm_90"
        );
        assert!(plan(&[], 9, 0).is_err());
    }

    #[test]
    fn group_names() {
        let a = image(c"a.c", b"PA", b"", c"");
        let b = image(c"dir/b.c", b"PB", b"", c"");
        assert_eq!(names(&[&a, &b]), "a.c, dir/b.c");
    }
}
