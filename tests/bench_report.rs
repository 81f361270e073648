//! The benchmark reports: a results.tsv fixture becomes benchmarks/report.py's
//! table with the right ratios and failure cells, and PTXRT_TIME profiles of
//! the two code generators become benchmarks/kernels.py's per-construct table,
//! and an NPB results table becomes benchmarks/npb_figure.py's rows.

use std::process::Command;

#[test]
fn report_table_from_tsv() {
    let dir = tempfile::tempdir().expect("tempdir");
    let tsv = dir.path().join("results.tsv");
    std::fs::write(
        &tsv,
        "program\tbenchmark\tsize\tvariant\tstatus\tseconds\trate\tunit\n\
         devcopy\tdevcopy\t1GiB\tcuda\tPASS\t7.2e-4\t3000\tGB/s\n\
         stream\tstream_copy\tn=8\tcuda\tPASS\t1.0e-3\t2800\tGB/s\n\
         stream\tstream_copy\tn=8\taccc\tPASS\t2.0e-3\t1500\tGB/s\n\
         stream\tstream_copy\tn=8\tnvcc\tPASS\t2.5e-3\t1200\tGB/s\n\
         stream\tstream_copy\tn=8\tgcc\tFAIL\t4.0e-3\t700\tGB/s\n\
         stream\t-\t-\tserial\tdoes not build\t-\t-\t-\n\
         reduction\t-\t-\taccc\tdoes not build\t-\t-\t-\n\
         matmul 4096\tmatmul_4096\t4096\taccc\tPASS\t2.0e-2\t6000\tGFLOP/s\n\
         matmul 4096\t-\t-\tserial\tnot run\t-\t-\t-\n\
         atomics 16 64\tatomics_add\t16x64bins\taccc\tPASS\t2.0e-3\t8\tMupd/s\n\
         atomics 16 64\tatomics_add\t16x64bins\tcuda\tPASS\t1.0e-3\t16\tMupd/s\n\
         atomics 16 1024\tatomics_add\t16x1024bins\taccc\tPASS\t4.0e-3\t4\tMupd/s\n\
         atomics 16 1024\tatomics_add\t16x1024bins\tcuda\tPASS\t4.0e-3\t4\tMupd/s\n",
    )
    .expect("write fixture");
    let md = dir.path().join("results.md");
    let png = dir.path().join("results.png");
    let out = Command::new("python3")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/benchmarks/report.py"))
        .args([&tsv, &md, &png])
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&md).expect("results.md written");
    assert!(text.contains("3000 GB/s"), "{text}");
    assert!(
        text.contains("| stream_copy | n=8 | 2.000 ms | 2.500 ms | 1.000 ms | FAIL | does not build | 0.50 | - | 1.25 | 1500.0 GB/s | 50% |"),
        "{text}"
    );
    assert!(
        text.contains("| reduction | - | does not build |"),
        "{text}"
    );
    assert!(
        text.contains("| matmul_4096 | 4096 | 20.000 ms | no result | no result | no result | not run | - | - | - | 6000.0 GFLOP/s | - |"),
        "{text}"
    );
    // A program run at two sizes: one row per size, each with its own times.
    for row in [
        "| atomics_add | 16x64bins | 2.000 ms | no result | 1.000 ms | no result | no result | 0.50 |",
        "| atomics_add | 16x1024bins | 4.000 ms | no result | 4.000 ms | no result | no result | 1.00 |",
    ] {
        assert_eq!(text.matches(row).count(), 1, "{row}\n{text}");
    }
}

/// A profile as the runtime prints it at exit (ptx-runtime's profile.rs
/// `renders_the_table` fixes the format), with kernel times `k12` and `k20`.
fn profile(k12: &str, k20: &str) -> String {
    format!(
        "accc runtime profile (PTXRT_TIME=1): device 0 NVIDIA H100 80GB HBM3\n\
         region                launches  kernel ms  avg ms  h2d  h2d bytes  h2d ms  d2h  d2h bytes  d2h ms\n\
         t.c:10 data                                          2  15.26 MiB   2.500    1   3.81 MiB   0.750\n\
         t.c:12 parallel loop         4  {k12:>9}   0.500\n\
         t.c:20 kernels               2  {k20:>9}   0.500\n\
         acc_copyin                                           1      400 B   0.010\n\
         total                        6      9.999   0.500    3  15.26 MiB   2.510    1   3.81 MiB   0.750\n"
    )
}

#[test]
fn kernel_table_from_profiles() {
    let dir = tempfile::tempdir().expect("tempdir");
    let prof = dir.path().join("prof");
    std::fs::create_dir(&prof).expect("mkdir");
    let put = |name: &str, text: &str| std::fs::write(prof.join(name), text).expect("write");
    put("m.1.accc.prof", &profile("2.000", "1.000"));
    put("m.1.nvcc.prof", &profile("2.500", "1.050"));
    put("m.1.accc.out", "RESULT m 1 0.1 1 GB/s PASS\n");
    put("m.1.nvcc.out", "RESULT m 1 0.1 1 GB/s PASS\n");
    // A build whose run failed says so in its own row.
    put("f.1.accc.prof", &profile("1.000", "1.000"));
    put("f.1.accc.out", "RESULT f 1 0.1 1 GB/s FAIL\n");
    let md = dir.path().join("kernels.md");
    let out = Command::new("python3")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/benchmarks/kernels.py"
        ))
        .args([&prof, &md])
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&md).expect("kernels.md written");
    for row in [
        "| m | t.c:12 parallel loop | 4 | 2.000 | 2.500 | 1.25 | LLVM faster |",
        "| m | t.c:20 kernels | 2 | 1.000 | 1.050 | 1.05 |  |",
        "| f | (accc: FAIL, nvcc: not built) | | | | | |",
        "| f | t.c:12 parallel loop | 4 | 1.000 | - | - |  |",
        "1 constructs differ by more than 10%",
    ] {
        assert!(text.contains(row), "{row}\n{text}");
    }
    // Regions without launches (data, routines) and the total are not rows.
    assert!(
        !text.contains("t.c:10 data") && !text.contains("acc_copyin"),
        "{text}"
    );
}

#[test]
fn npb_figure_rows_sorted_by_accc_over_cuda() {
    let dir = tempfile::tempdir().expect("tempdir");
    let md = dir.path().join("npb.md");
    std::fs::write(
        &md,
        "# NPB\n\ntext\n\n\
         | bench | class | accc now (s) | CUDA (s) | accc/CUDA now | GCC 12 (s) |\n\
         |---|---|---|---|---|---|\n\
         | BT | B | 2.00 | 1.00 | 0.50 | 12.0 |\n\
         | CG | B | 0.40 | 0.36 | 0.90 | does not verify |\n\
         | EP | C | 2.00 | 0.08 | 0.04 | - |\n\
         \n| bench | class | other table |\n|---|---|---|\n| XX | B | 1 |\n",
    )
    .expect("write fixture");
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("benchmarks/npb_figure.py");
    let out = Command::new("python3")
        .arg(&script)
        .arg("--rows")
        .arg(&md)
        .output()
        .expect("python3");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "CG B 0.90 0.4 0.36 -\nBT B 0.50 2 1 12\nEP C 0.04 2 0.08 -\n"
    );
}
