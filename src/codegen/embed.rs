//! Embedding: the device image of a translation unit (PTX, and a cubin when
//! ptxas was available) as C data with a registration constructor, appended
//! to the host translation unit so every object accc writes carries its own
//! kernels and can be linked later like any object.
//!
//! Owns: [`Image`] and [`write_c`]. May call: `codegen::host` (the image
//! symbol's name and C string quoting).

use super::host::{c_str, IMAGE};
use std::fmt::Write;

/// What goes into the image.
pub struct Image<'a> {
    /// The source file (for runtime messages).
    pub source: &'a str,
    pub ptx: &'a str,
    /// The cubin and the arch it was assembled for.
    pub cubin: Option<(&'a [u8], &'a str)>,
    /// accc's library directory (where libptxrt-cuda.so lives).
    pub plugin_dir: Option<&'a str>,
}

fn bytes_array(out: &mut String, name: &str, bytes: &[u8], nul: bool) {
    let _ = write!(
        out,
        "static const unsigned char {name}[] __attribute__((aligned(8))) = {{"
    );
    for (i, b) in bytes.iter().enumerate() {
        if i % 24 == 0 {
            out.push('\n');
        }
        let _ = write!(out, "{b},");
    }
    if nul {
        out.push('0');
    }
    out.push_str("};\n");
}

/// C source defining the image object and the constructor registering it.
pub fn write_c(img: &Image) -> String {
    let mut out = String::from("\n# 1 \"<accc device image>\"\n");
    bytes_array(&mut out, "__accc_ptx", img.ptx.as_bytes(), true);
    let (cubin, cubin_len, arch) = match img.cubin {
        Some((bytes, arch)) => {
            bytes_array(&mut out, "__accc_cubin", bytes, false);
            ("__accc_cubin".to_string(), bytes.len(), c_str(arch))
        }
        None => (
            "(const unsigned char *)0".to_string(),
            0,
            "(const char *)0".to_string(),
        ),
    };
    let dir = img
        .plugin_dir
        .map(c_str)
        .unwrap_or_else(|| "(const char *)0".into());
    let _ = writeln!(
        out,
        "static struct __ptxrt_image {IMAGE} = {{PTXRT_ABI_VERSION, {}, (const char *)__accc_ptx, {}, {cubin}, {cubin_len}, {arch}, {dir}, (void *)0}};",
        c_str(img.source),
        img.ptx.len()
    );
    let _ = writeln!(
        out,
        "__attribute__((constructor)) static void __accc_register_image(void) {{ __ptxrt_register_image(&{IMAGE}); }}"
    );
    out
}
