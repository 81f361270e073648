//! The benchmark report (benchmarks/report.py): a results.tsv fixture becomes
//! the table with the right ratios and failure cells.

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
         stream\tstream_copy\tn=8\tgcc\tFAIL\t4.0e-3\t700\tGB/s\n\
         stream\t-\t-\tserial\tdoes not build\t-\t-\t-\n\
         reduction\t-\t-\taccc\tdoes not build\t-\t-\t-\n\
         matmul 4096\tmatmul_4096\t4096\taccc\tPASS\t2.0e-2\t6000\tGFLOP/s\n\
         matmul 4096\t-\t-\tserial\tnot run\t-\t-\t-\n",
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
        text.contains("| stream_copy | n=8 | 2.000 ms | 1.000 ms | FAIL | does not build | 0.50 | - | 1500.0 GB/s | 50% |"),
        "{text}"
    );
    assert!(
        text.contains("| reduction | - | does not build |"),
        "{text}"
    );
    assert!(
        text.contains("| matmul_4096 | 4096 | 20.000 ms | no result | no result | not run | - | - | 6000.0 GFLOP/s | - |"),
        "{text}"
    );
}
