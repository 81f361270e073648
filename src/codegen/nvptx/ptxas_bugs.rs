//! Rewrites of PTX that LLVM emits correctly but ptxas compiles wrongly.
//!
//! Owns: [`avoid_ptxas_bugs`], run on every PTX text [`super::write_ptx`]
//! returns. Each rewrite keeps the instruction's meaning by the PTX ISA and
//! names the failure it avoids, with the program that shows it. May call:
//! nothing (text in, text out).
//!
//! **16-bit negation.** ptxas (CUDA 13.0, sm_90) keeps a 16-bit value
//! sign-extended in a 32-bit register and compiles `neg.s16` as a 32-bit
//! negation without truncating the result to 16 bits again. For the one value
//! whose negation wraps, -32768, the register then holds +32768, and a
//! following `shr.s16`, `setp.lt.s16` or `cvt.s32.s16` sees a positive number:
//! `(signed char)-x` of a byte 0x80 gives +128 instead of -128 (LLVM lowers it
//! to `shl.b16 8; neg.s16; shr.s16 8`). `sub.s16 d, 0, a` fails the same way
//! (ptxas turns it into a negation); `sub.u16 d, 0, a`, which gives the same
//! 16 bits, is compiled right, so both forms are rewritten to it. Found by the
//! GPU race hunt (difftest seed 815) and reduced to an inline-asm CUDA kernel
//! on the H100; `tests/programs/neg_narrow.c` is the regression program.

/// `ptx` with every instruction ptxas is known to miscompile rewritten to an
/// equivalent one it compiles right.
pub fn avoid_ptxas_bugs(ptx: &str) -> String {
    let mut out = String::with_capacity(ptx.len() + 64);
    for line in ptx.split_inclusive('\n') {
        match rewrite_neg16(line) {
            Some(fixed) => out.push_str(&fixed),
            None => out.push_str(line),
        }
    }
    out
}

/// `neg.s16 d, a;` and `sub.s16 d, 0, a;` as `sub.u16 d, 0, a;`, keeping the
/// line's indentation, predicate and end; `None` for any other line.
fn rewrite_neg16(line: &str) -> Option<String> {
    let body = line.trim_start();
    let indent = &line[..line.len() - body.len()];
    // An optional guard predicate (`@%p1 ` or `@!%p1 `) comes first.
    let (guard, insn) = match body.strip_prefix('@') {
        Some(rest) => {
            let end = rest.find(char::is_whitespace)?;
            let (g, i) = body.split_at(end + 1);
            (g, i.trim_start())
        }
        None => ("", body),
    };
    let (operands, rest) = if let Some(ops) = insn.strip_prefix("neg.s16") {
        let (ops, rest) = ops.split_once(';')?;
        let mut it = ops.split(',').map(str::trim);
        let (d, a) = (it.next()?, it.next()?);
        if it.next().is_some() || d.is_empty() || a.is_empty() {
            return None;
        }
        ((d, a), rest)
    } else if let Some(ops) = insn.strip_prefix("sub.s16") {
        let (ops, rest) = ops.split_once(';')?;
        let mut it = ops.split(',').map(str::trim);
        let (d, zero, a) = (it.next()?, it.next()?, it.next()?);
        if it.next().is_some() || zero != "0" || d.is_empty() || a.is_empty() {
            return None;
        }
        ((d, a), rest)
    } else {
        return None;
    };
    let (d, a) = operands;
    let sep = if guard.is_empty() { "" } else { " " };
    Some(format!(
        "{indent}{}{sep}sub.u16 \t{d}, 0, {a};{rest}",
        guard.trim_end()
    ))
}

#[cfg(test)]
mod tests {
    use super::avoid_ptxas_bugs;

    #[test]
    fn neg16_becomes_unsigned_subtraction_from_zero() {
        let ptx =
            "\tshl.b16 \t%rs2, %rs1, 8;\n\tneg.s16 \t%rs3, %rs2;\n\tshr.s16 \t%rs4, %rs3, 8;\n";
        assert_eq!(
            avoid_ptxas_bugs(ptx),
            "\tshl.b16 \t%rs2, %rs1, 8;\n\tsub.u16 \t%rs3, 0, %rs2;\n\tshr.s16 \t%rs4, %rs3, 8;\n"
        );
    }

    #[test]
    fn signed_subtraction_from_zero_and_guards_are_rewritten() {
        assert_eq!(
            avoid_ptxas_bugs("\t@%p1 sub.s16 \t%rs5, 0, %rs4; // x\n"),
            "\t@%p1 sub.u16 \t%rs5, 0, %rs4; // x\n"
        );
        assert_eq!(
            avoid_ptxas_bugs("\t@!%p2 neg.s16 %rs1, %rs9;"),
            "\t@!%p2 sub.u16 \t%rs1, 0, %rs9;"
        );
    }

    #[test]
    fn other_instructions_stay() {
        let ptx = "\tneg.s32 \t%r1, %r2;\n\tsub.s16 \t%rs1, %rs2, %rs3;\n\tsub.s16 \t%rs1, 10, %rs3;\n\tneg.f32 \t%f1, %f2;\n\t// neg.s16 in a comment\n";
        assert_eq!(avoid_ptxas_bugs(ptx), ptx);
    }
}
