//! Relocatable device code: whether a translation unit's PTX must be linked
//! with other device images before it can run.
//!
//! Owns: [`needs_link`]. For now the driver asks it about the PTX text; once
//! the front end emits `acc routine` functions it can answer the same
//! question from the IR (a call to a function of another unit, or a function
//! other units may call) and this function goes away.
//! May call: nothing.

/// Functions the CUDA driver provides to every module (system calls that
/// ptxas and the JIT resolve without a link): a declaration of one of them
/// does not make the code relocatable.
const DRIVER_PROVIDED: [&str; 4] = ["vprintf", "malloc", "free", "__assertfail"];

/// Whether `ptx` must be linked with other images: it declares a function
/// defined elsewhere (`.extern .func`) or defines one other images may call
/// (`.visible .func`). Such code is assembled with `ptxas -c` and its image
/// is marked relocatable (see `codegen::embed::Image::relocatable`). Kernels
/// (`.entry`) and functions private to the module (`.func`) do not count.
pub fn needs_link(ptx: &str) -> bool {
    ptx.lines().any(|line| {
        let code = line.split("//").next().unwrap_or("");
        let mut words = code.split_whitespace();
        match (words.next(), words.next()) {
            (Some(".visible"), Some(".func")) => true,
            (Some(".extern"), Some(".func")) => {
                let rest = code.split_once(".func").map_or("", |(_, r)| r);
                !DRIVER_PROVIDED.contains(&function_name(rest))
            }
            _ => false,
        }
    })
}

/// The name in the rest of a `.func` line: after an optional parenthesised
/// return parameter, up to the parameter list (`(.param .b32 r) f(`→ `f`).
fn function_name(rest: &str) -> &str {
    let mut rest = rest.trim_start();
    if rest.starts_with('(') {
        rest = rest.split_once(')').map_or("", |(_, r)| r.trim_start());
    }
    let end = rest
        .find(|c: char| c == '(' || c == ';' || c.is_whitespace())
        .unwrap_or(rest.len());
    &rest[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    const KERNEL_ONLY: &str = "\
.version 7.8
.target sm_90
.address_size 64

.visible .entry __accc_main_0_l21(
\t.param .u64 p0
)
{
\tret;
}
";

    #[test]
    fn kernels_alone_load_alone() {
        assert!(!needs_link(KERNEL_ONLY));
        assert!(!needs_link(""));
        // A function private to the module.
        assert!(!needs_link(
            ".func (.param .b32 r) helper(\n.param .b32 x\n)\n{\nret;\n}"
        ));
    }

    #[test]
    fn exported_function_needs_link() {
        let ptx = format!(
            "{KERNEL_ONLY}.visible .func (.param .b32 func_retval0) add_one(\n\t.param .b32 add_one_param_0\n)\n{{\n\tret;\n}}\n"
        );
        assert!(needs_link(&ptx));
        assert!(needs_link(".visible .func add_one()"));
    }

    #[test]
    fn external_function_needs_link() {
        let ptx = format!(
            "{KERNEL_ONLY}.extern .func (.param .b32 func_retval0) add_one(\n\t.param .b32 add_one_param_0\n);\n"
        );
        assert!(needs_link(&ptx));
        assert!(needs_link("  .extern .func add_one\n(.param .b32 x);"));
        assert!(needs_link(".extern .func mallocx(.param .b64 n);"));
    }

    #[test]
    fn driver_calls_and_comments_do_not_count() {
        for f in [
            ".extern .func (.param .b32 func_retval0) vprintf(\n\t.param .b64 vprintf_param_0,\n\t.param .b64 vprintf_param_1\n);",
            ".extern .func (.param .b64 func_retval0) malloc(.param .b64 n);",
            ".extern .func free(.param .b64 p);",
            ".extern .func __assertfail(.param .b64 a, .param .b64 b, .param .b32 c, .param .b64 d, .param .b64 e);",
            "// .visible .func f()",
            "\t// .extern .func g()",
            ".visible .global .align 4 .u32 counter;",
            ".extern .shared .align 8 .b8 buf[];",
        ] {
            assert!(!needs_link(f), "{f}");
        }
    }

    #[test]
    fn names_of_functions() {
        assert_eq!(function_name(" (.param .b32 r) add_one("), "add_one");
        assert_eq!(function_name(" f;"), "f");
        assert_eq!(function_name(" g"), "g");
        assert_eq!(function_name(" (.param .b32 r)"), "");
    }
}
