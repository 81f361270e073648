//! The `accc` command: a drop-in `cc` that compiles OpenACC C for NVIDIA GPUs.

fn main() {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(accc::driver::main(&argv));
}
