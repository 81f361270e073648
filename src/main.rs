//! The `accc` command: a drop-in `cc` that compiles OpenACC C for NVIDIA GPUs.

/// The compiler's stack: the parser and the walks over the syntax tree
/// recurse once per nesting level, and machine-written C nests deeply
/// (only the pages used are ever mapped).
const STACK: usize = 1 << 30;

fn main() {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let code = std::thread::Builder::new()
        .name("accc".into())
        .stack_size(STACK)
        .spawn(move || accc::driver::main(&argv))
        .ok()
        .and_then(|t| t.join().ok())
        .unwrap_or(70); // EX_SOFTWARE: the thread could not start, or panicked
    std::process::exit(code);
}
