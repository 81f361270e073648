//! Relocatable device images (`relocatable` in ptxrt.h): what is linked, from
//! which code, on a device.
//!
//! Owns: [`plan`], the decision of which code of a group of relocatable
//! images the device's linker gets — on the emulated device their SIMT
//! bytecode; on a GPU of compute capability major.minor their relocatable
//! cubins when every image has one for that arch, then (also the fallback
//! when linking the cubins fails, as a cubin that fails to load falls back
//! to its PTX) their PTX, which the linker compiles itself — and [`names`],
//! how a group is named in messages. Pure: no device, no plugin, so it is
//! unit-tested; [`crate::image`] runs the plan.
//! May call: [`crate::abi`], [`crate::image`] (which code a device takes).

use crate::abi::Image;
use crate::image::{cubin_for, missing_code, ptx_for, simt_for};
use ptxrt_plugin_abi::{DeviceInfo, LINK_INPUT_CUBIN, LINK_INPUT_PTX, LINK_INPUT_SIMT};

/// The code of one image given to the linker.
#[derive(Clone, Copy)]
pub struct Input<'a> {
    /// [`LINK_INPUT_PTX`], [`LINK_INPUT_CUBIN`] or [`LINK_INPUT_SIMT`].
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

/// The attempts to link `images` on a device of `info`, in order (see the
/// module doc); an error naming the group and an image that has no usable
/// code when there is no way at all.
pub fn plan<'a>(images: &[&'a Image], info: &DeviceInfo) -> Result<Vec<Attempt<'a>>, String> {
    if images.is_empty() {
        return Err("internal error: no relocatable device image to link".to_string());
    }
    let mut out = Vec::new();
    let simt: Option<Vec<Input<'a>>> = images
        .iter()
        .map(|&image| {
            simt_for(image, info).map(|bytes| Input {
                kind: LINK_INPUT_SIMT,
                bytes,
                image,
            })
        })
        .collect();
    if let Some(inputs) = simt {
        out.push(Attempt {
            what: "SIMT bytecode".to_string(),
            inputs,
        });
    }
    let cubins: Option<Vec<(String, Input<'a>)>> = images
        .iter()
        .map(|&image| {
            cubin_for(image, info).map(|(arch, bytes)| {
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
            ptx_for(image, info).map(|bytes| Input {
                kind: LINK_INPUT_PTX,
                bytes,
                image,
            })
        })
        .collect();
    if let Some(inputs) = ptx {
        out.push(Attempt {
            what: "PTX".to_string(),
            inputs,
        });
    }
    if !out.is_empty() {
        return Ok(out);
    }
    let sm = format!("sm_{}{}", info.cc_major, info.cc_minor);
    let usable = |i: &&Image| {
        simt_for(i, info).is_some() || cubin_for(i, info).is_some() || ptx_for(i, info).is_some()
    };
    let why = match images.iter().find(|i| !usable(i)) {
        Some(i) => format!(
            "the image of {} has {}",
            i.source_name(),
            missing_code(i, info)
        ),
        None => format!(
            "the image of {} has no PTX and the image of {} no cubin for {sm}",
            images
                .iter()
                .find(|i| ptx_for(i, info).is_none())
                .map(|i| i.source_name())
                .unwrap_or_default(),
            images
                .iter()
                .find(|i| cubin_for(i, info).is_none())
                .map(|i| i.source_name())
                .unwrap_or_default()
        ),
    };
    let target = if crate::image::takes(info, ptxrt_plugin_abi::CODE_SIMT) {
        "the emulated device".to_string()
    } else {
        sm
    };
    Err(format!(
        "cannot link the device images of {} for {target}: {why}",
        names(images)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptxrt_plugin_abi::{CODE_CUBIN, CODE_PTX, CODE_SIMT};
    use std::ffi::CStr;

    fn image(
        source: &'static CStr,
        ptx: &'static [u8],
        cubin: &'static [u8],
        arch: &'static CStr,
    ) -> Image {
        crate::abi::test_image(
            source,
            &[(CODE_PTX, c"", ptx), (CODE_CUBIN, arch, cubin)],
            true,
        )
    }

    fn gpu(major: i32, minor: i32) -> DeviceInfo {
        let mut d = DeviceInfo::default();
        (d.cc_major, d.cc_minor) = (major, minor);
        d
    }

    fn summary(p: &[Attempt]) -> Vec<String> {
        p.iter()
            .map(|a| {
                let inputs: Vec<String> = a
                    .inputs
                    .iter()
                    .map(|i| {
                        let k = match i.kind {
                            LINK_INPUT_CUBIN => "cubin",
                            LINK_INPUT_SIMT => "simt",
                            _ => "ptx",
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
        let p = plan(&[&a, &b], &gpu(9, 0)).unwrap();
        assert_eq!(
            summary(&p),
            [
                "cubins sm_90/sm_90a [a.c:cubin:CA b.c:cubin:CB]",
                "PTX [a.c:ptx:PA b.c:ptx:PB]"
            ]
        );
        // Another device: no cubin matches, the PTX is linked.
        assert_eq!(
            summary(&plan(&[&a, &b], &gpu(8, 0)).unwrap()),
            ["PTX [a.c:ptx:PA b.c:ptx:PB]"]
        );
    }

    #[test]
    fn one_image_without_a_matching_cubin_means_ptx_for_all() {
        let a = image(c"a.c", b"PA", b"CA", c"sm_90");
        let b = image(c"b.c", b"PB", b"", c"");
        let c = image(c"c.c", b"PC", b"CC", c"sm_80");
        assert_eq!(
            summary(&plan(&[&a, &b], &gpu(9, 0)).unwrap()),
            ["PTX [a.c:ptx:PA b.c:ptx:PB]"]
        );
        assert_eq!(
            summary(&plan(&[&a, &c], &gpu(9, 0)).unwrap()),
            ["PTX [a.c:ptx:PA c.c:ptx:PC]"]
        );
    }

    #[test]
    fn cubins_only_when_some_image_has_no_ptx() {
        let a = image(c"a.c", b"", b"CA", c"sm_90");
        let b = image(c"b.c", b"PB", b"CB", c"sm_90");
        assert_eq!(
            summary(&plan(&[&a, &b], &gpu(9, 0)).unwrap()),
            ["cubins sm_90 [a.c:cubin:CA b.c:cubin:CB]"]
        );
        let e = plan(&[&b, &a], &gpu(8, 6)).err().unwrap();
        assert_eq!(
            e,
            "cannot link the device images of b.c, a.c for sm_86: the image of a.c has no PTX and no cubin for sm_86 (it holds: cubin sm_90)"
        );
        let c = image(c"c.c", b"PC", b"", c"");
        let e = plan(&[&a, &c], &gpu(9, 0)).err().unwrap();
        assert_eq!(
            e,
            "cannot link the device images of a.c, c.c for sm_90: the image of a.c has no PTX and the image of c.c no cubin for sm_90"
        );
        assert!(plan(&[], &gpu(9, 0)).is_err());
    }

    #[test]
    fn the_emulated_device_links_simt_bytecode() {
        let emu = DeviceInfo {
            code_kinds: 1 << CODE_SIMT,
            ..gpu(9, 0)
        };
        let simt = |source: &'static CStr, b: &'static [u8]| {
            crate::abi::test_image(source, &[(CODE_PTX, c"", b"P"), (CODE_SIMT, c"", b)], true)
        };
        let (a, b) = (simt(c"a.c", b"SA"), simt(c"b.c", b"SB"));
        assert_eq!(
            summary(&plan(&[&a, &b], &emu).unwrap()),
            ["SIMT bytecode [a.c:simt:SA b.c:simt:SB]"]
        );
        let c = image(c"c.c", b"PC", b"", c"");
        assert_eq!(
            plan(&[&a, &c], &emu).err().unwrap(),
            "cannot link the device images of a.c, c.c for the emulated device: the image of c.c has no SIMT bytecode for the emulated device (compile it with accc -gpu=emu) (it holds: PTX)"
        );
        // A GPU links their PTX.
        assert_eq!(
            summary(&plan(&[&a, &b], &gpu(9, 0)).unwrap()),
            ["PTX [a.c:ptx:P b.c:ptx:P]"]
        );
    }

    #[test]
    fn group_names() {
        let a = image(c"a.c", b"PA", b"", c"");
        let b = image(c"dir/b.c", b"PB", b"", c"");
        assert_eq!(names(&[&a, &b]), "a.c, dir/b.c");
    }
}
