//! Embedding: the device image of a translation unit — a list of (kind,
//! arch, bytes) code entries: PTX, a cubin when ptxas was available, the
//! emulator's SIMT bytecode with `-gpu=emu`, the host code's symbol table
//! with `-acc=multicore` — as C data with a
//! registration constructor, appended to the host translation unit so
//! every object accc writes carries its own kernels and can be linked later
//! like any object.
//!
//! Owns: [`Image`], [`Code`] and [`write_c`]. May call: `codegen::host` (the
//! image symbol's name and C string quoting).

use super::host::{c_str, IMAGE};
use std::fmt::Write;

/// `PTXRT_CODE_PTX` of ptxrt.h: PTX text.
pub const CODE_PTX: u32 = 0;
/// `PTXRT_CODE_CUBIN`: a cubin for one GPU architecture.
pub const CODE_CUBIN: u32 = 1;
/// `PTXRT_CODE_SIMT`: SIMT bytecode for the emulated device.
pub const CODE_SIMT: u32 = 2;
/// `PTXRT_CODE_CUDA`: CUDA C source for nvcc. accc emits none yet and no
/// plugin loads it (a cubin nvcc made would be a [`CODE_CUBIN`] entry);
/// libptxrt skips entries of kinds it does not know.
pub const CODE_CUDA: u32 = 3;
/// `PTXRT_CODE_HOST`: the kernels as host code (`-acc=multicore`), an
/// entry pointing at the host C's symbol table ([`Image::host_table`]).
pub const CODE_HOST: u32 = 4;

/// `PTXRT_IMAGE_RECURSIVE`, a bit of `struct __ptxrt_image`'s `flags`: the
/// image's device code has recursion.
pub const IMAGE_RECURSIVE: u32 = 1;

/// One code entry of an image.
pub struct Code<'a> {
    /// [`CODE_PTX`], [`CODE_CUBIN`], [`CODE_SIMT`] (or [`CODE_CUDA`]).
    pub kind: u32,
    /// The GPU architecture of a cubin ("sm_90").
    pub arch: Option<&'a str>,
    pub bytes: &'a [u8],
}

/// What goes into the image.
pub struct Image<'a> {
    /// The source file (for runtime messages).
    pub source: &'a str,
    /// Its device code.
    pub code: &'a [Code<'a>],
    /// accc's library directory (where libptxrt-cuda.so lives).
    pub plugin_dir: Option<&'a str>,
    /// The code calls device functions of other images or defines some for
    /// them: the runtime links it with the program's other relocatable images
    /// instead of loading it alone, and its cubin must come from `ptxas -c`
    /// (ptxrt.h, `struct __ptxrt_image`). The driver decides it
    /// (`ir::Module::relocatable`).
    pub relocatable: bool,
    /// A device function of the image calls itself (`ir::Module::recursive`):
    /// the runtime raises the per-thread stack of a device before its code
    /// runs there (ptxrt.h, `PTXRT_IMAGE_RECURSIVE`).
    pub recursive: bool,
    /// Device address cells: (PTX symbol of the cell, C name of the declared
    /// host global whose device address it holds).
    pub cells: &'a [(String, String)],
    /// The symbol of the host code's table and its number of symbols
    /// (`codegen::cuda::host_table`), for a [`CODE_HOST`] entry after
    /// [`Image::code`]'s.
    pub host_table: Option<(&'a str, usize)>,
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
    if nul || bytes.is_empty() {
        out.push('0');
    }
    out.push_str("};\n");
}

/// C source defining the image object and the constructor registering it.
pub fn write_c(img: &Image) -> String {
    let mut out = String::from("\n# 1 \"<accc device image>\"\n");
    let mut entries = vec![];
    for (i, c) in img.code.iter().enumerate() {
        let name = format!("__accc_code{i}");
        // PTX is NUL-terminated (its length leaves the NUL out).
        bytes_array(&mut out, &name, c.bytes, c.kind == CODE_PTX);
        let arch = c
            .arch
            .map(c_str)
            .unwrap_or_else(|| "(const char *)0".into());
        entries.push(format!(
            "{{{}u, {arch}, {name}, {}}}",
            c.kind,
            c.bytes.len()
        ));
    }
    if let Some((sym, n)) = img.host_table {
        let _ = writeln!(out, "extern const struct __ptxrt_host_sym {sym}[];");
        entries.push(format!(
            "{{{CODE_HOST}u, (const char *)0, (const unsigned char *){sym}, {n}}}"
        ));
    }
    let code = if entries.is_empty() {
        "(const struct __ptxrt_code *)0, 0".to_string()
    } else {
        let _ = writeln!(
            out,
            "static const struct __ptxrt_code __accc_code[] = {{{}}};",
            entries.join(", ")
        );
        format!("__accc_code, {}", entries.len())
    };
    let dir = img
        .plugin_dir
        .map(c_str)
        .unwrap_or_else(|| "(const char *)0".into());
    let cells = if img.cells.is_empty() {
        "(const struct __ptxrt_cell *)0, 0".to_string()
    } else {
        let items: Vec<String> = img
            .cells
            .iter()
            .map(|(sym, host)| format!("{{{}, (const void *)&({host})}}", c_str(sym)))
            .collect();
        let _ = writeln!(
            out,
            "static const struct __ptxrt_cell __accc_cells[] = {{{}}};",
            items.join(", ")
        );
        format!("__accc_cells, {}", img.cells.len())
    };
    let _ = writeln!(
        out,
        "static struct __ptxrt_image {IMAGE} = {{PTXRT_ABI_VERSION, {}u, {}u, {}, {code}, {dir}, (void *)0, {cells}}};",
        u32::from(img.relocatable),
        if img.recursive { IMAGE_RECURSIVE } else { 0 },
        c_str(img.source),
    );
    let _ = writeln!(
        out,
        "__attribute__((constructor)) static void __accc_register_image(void) {{ __ptxrt_register_image(&{IMAGE}); }}"
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;
    use std::process::Command;

    /// A C program: `write_c`'s output after what the host rewrite puts
    /// first, a stand-in for libptxrt's registration that prints the image.
    fn program(img: &Image) -> String {
        format!(
            r#"#include <stdio.h>
#include <string.h>
#include <ptxrt.h>
double declared_global;
static struct __ptxrt_image {IMAGE};
static struct __ptxrt_image *seen;
void __ptxrt_register_image(struct __ptxrt_image *img) {{ seen = img; }}
int main(void) {{
  if (seen != &{IMAGE}) return 2;
  printf("abi=%u relocatable=%u flags=%u source=%s dir=%s",
         (unsigned)seen->abi_version, (unsigned)seen->relocatable, (unsigned)seen->flags, seen->source,
         seen->plugin_dir ? seen->plugin_dir : "-");
  for (size_t i = 0; i < seen->ncode; i++) {{
    const struct __ptxrt_code *c = &seen->code[i];
    printf(" code=%u:%s:%zu", (unsigned)c->kind, c->arch ? c->arch : "-", (size_t)c->len);
    if (c->kind == PTXRT_CODE_PTX) printf(":%s", (const char *)c->bytes);
    if (c->kind == PTXRT_CODE_CUBIN && memcmp(c->bytes, "\x7f" "ELF", 4) != 0) return 3;
  }}
  for (size_t i = 0; i < seen->ncells; i++)
    printf(" cell=%s%s", seen->cells[i].symbol, seen->cells[i].host == &declared_global ? "@declared_global" : "@?");
  printf("\n");
  return 0;
}}
{}"#,
            write_c(img)
        )
    }

    /// Compiles and runs `program(img)` with the host cc; its stdout.
    fn run(img: &Image) -> String {
        run_c(&program(img))
    }

    /// Compiles and runs C program `text` with the host cc; its stdout.
    fn run_c(text: &str) -> String {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("img.c");
        std::fs::write(&src, text).unwrap();
        let exe = dir.path().join("img");
        let include = Path::new(env!("CARGO_MANIFEST_DIR")).join("ptx-runtime/include");
        let cc = std::env::var("ACCC_HOST_CC").unwrap_or_else(|_| "cc".into());
        let out = Command::new(cc)
            .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-I"])
            .arg(&include)
            .arg(&src)
            .arg("-o")
            .arg(&exe)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let out = Command::new(&exe).output().unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    }

    #[test]
    fn relocatable_image_with_cubin_and_simt() {
        let cubin = b"\x7fELF\x02\x01\x01";
        let code = [
            Code {
                kind: CODE_PTX,
                arch: None,
                bytes: b".visible .func f()",
            },
            Code {
                kind: CODE_CUBIN,
                arch: Some("sm_90"),
                bytes: cubin,
            },
            Code {
                kind: CODE_SIMT,
                arch: None,
                bytes: b"ACCSIMT\0\x01",
            },
        ];
        let img = Image {
            source: "dir/a \"b\".c",
            code: &code,
            plugin_dir: Some("/opt/accc/lib"),
            relocatable: true,
            recursive: true,
            cells: &[(
                "__accc_cell_declared_global".into(),
                "declared_global".into(),
            )],
            host_table: None,
        };
        assert_eq!(
            run(&img),
            "abi=6 relocatable=1 flags=1 source=dir/a \"b\".c dir=/opt/accc/lib code=0:-:18:.visible .func f() code=1:sm_90:7 code=2:-:9 cell=__accc_cell_declared_global@declared_global\n"
        );
    }

    #[test]
    fn image_that_loads_alone() {
        let code = [Code {
            kind: CODE_PTX,
            arch: None,
            bytes: b".entry k()",
        }];
        let img = Image {
            source: "a.c",
            code: &code,
            plugin_dir: None,
            relocatable: false,
            recursive: false,
            cells: &[],
            host_table: None,
        };
        assert_eq!(
            run(&img),
            "abi=6 relocatable=0 flags=0 source=a.c dir=- code=0:-:10:.entry k()\n"
        );
    }

    #[test]
    fn host_code_is_its_table() {
        let img = Image {
            source: "a.c",
            code: &[],
            plugin_dir: None,
            relocatable: false,
            recursive: false,
            cells: &[],
            host_table: Some(("__accc_hosttab_k", 1)),
        };
        let table =
            "const struct __ptxrt_host_sym __accc_hosttab_k[] = {{\"k\", (void *)0}, {0, 0}};\n";
        let text = format!("{}{table}", program(&img)).replace(
            "if (c->kind == PTXRT_CODE_PTX)",
            "if (c->kind == PTXRT_CODE_HOST) printf(\":%s\", ((const struct __ptxrt_host_sym *)c->bytes)->name);\n    if (c->kind == PTXRT_CODE_PTX)",
        );
        assert_eq!(
            run_c(&text),
            "abi=6 relocatable=0 flags=0 source=a.c dir=- code=4:-:1:k\n"
        );
    }

    #[test]
    fn code_kinds_are_ptxrt_hs() {
        let text = format!(
            "#include <ptxrt.h>\n\
             typedef char kinds[(PTXRT_CODE_PTX == {CODE_PTX} && PTXRT_CODE_CUBIN == {CODE_CUBIN} \
             && PTXRT_CODE_SIMT == {CODE_SIMT} && PTXRT_CODE_CUDA == {CODE_CUDA} \
             && PTXRT_CODE_HOST == {CODE_HOST} \
             && PTXRT_IMAGE_RECURSIVE == {IMAGE_RECURSIVE}) ? 1 : -1];\n\
             int main(void) {{ return (int)sizeof(kinds) - 1; }}\n"
        );
        assert_eq!(run_c(&text), "");
    }
}
