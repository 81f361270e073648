//! What the emulator computes (a grid, calls, frames, printf, atomics) and
//! the faults and refusals it reports (bounds, launch geometry, corrupt
//! bytecode).

use super::harness::*;
use crate::code::*;
use crate::launch::RaceMode;
use crate::mem::Memory;
use crate::module::*;
use crate::program::link;
use crate::race::RaceState;

#[test]
fn runs_a_grid_in_parallel_and_with_race_checks() {
    for mode in [RaceMode::Off, RaceMode::Error] {
        let mut d = dev(&vector_kernel());
        let a = d.alloc(&i32s(&[1; 100]));
        let (r, _) = d.run(
            mode,
            4,
            [32, 1, 1],
            &[a.to_le_bytes().to_vec(), i32s(&[100])],
        );
        assert_eq!(r, Ok(vec![]));
        let got = as_i32s(&d.read(a, 400));
        let want: Vec<i32> = (0..100).map(|i| 1 + i).collect();
        assert_eq!(got, want);
    }
}

#[test]
fn out_of_bounds_is_an_illegal_address_naming_the_parameter() {
    let mut d = dev(&vector_kernel());
    let a = d.alloc(&i32s(&[0; 100]));
    let (r, _) = d.run(
        RaceMode::Error,
        4,
        [32, 1, 1],
        &[a.to_le_bytes().to_vec(), i32s(&[101])],
    );
    let e = r.unwrap_err();
    assert!(e.starts_with("CUDA_ERROR_ILLEGAL_ADDRESS (emulated): kernel 'k' (parallel loop at t.c:5) block (3,0,0) thread (4,0,0) reads 4 bytes at"), "{e}");
    assert!(e.contains("'load of a[i]' at t.c:10: 0 bytes past the end of a 400-byte allocation ('a' + 400 bytes (a 400-byte allocation))"), "{e}");
    // A freed allocation and a null pointer.
    d.mem.free(a).unwrap();
    let (r, _) = d.run(
        RaceMode::Off,
        1,
        [1, 1, 1],
        &[a.to_le_bytes().to_vec(), i32s(&[1])],
    );
    assert!(r
        .unwrap_err()
        .contains("in a freed allocation of 400 bytes"));
    let (r, _) = d.run(
        RaceMode::Off,
        1,
        [1, 1, 1],
        &[0u64.to_le_bytes().to_vec(), i32s(&[1])],
    );
    assert!(r
        .unwrap_err()
        .contains("reads 4 bytes at 0x0 in 'load of a[i]' at t.c:10: a null address"));
}

#[test]
fn launch_geometry_is_checked_as_the_driver_does() {
    let mut d = dev(&vector_kernel());
    let a = d.alloc(&i32s(&[0; 4]));
    let params = [a.to_le_bytes().to_vec(), i32s(&[4])];
    let (r, _) = d.run(RaceMode::Off, 0, [32, 1, 1], &params);
    assert!(r.unwrap_err().contains("CUDA_ERROR_INVALID_VALUE (emulated): kernel 'k' (parallel loop at t.c:5) launched with grid (0,1,1) block (32,1,1): a dimension of 0"));
    let (r, _) = d.run(RaceMode::Off, 1, [32, 64, 1], &params);
    assert!(r
        .unwrap_err()
        .contains("2048 threads per block, over the device's 1024"));
}

#[test]
fn calls_frames_and_printf() {
    // f0: int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
    let mut f = B::new("fact");
    f.f.linkage = Linkage::Export;
    f.f.ret = Some(Ty::I32);
    let n = f.param(Ty::I32);
    let one = f.c(1);
    let le = f.cmp(CmpOp::Le, Ty::I32, n, one);
    let br = f.pc();
    f.i(Inst::BranchIfNot { cond: le, to: 0 });
    f.i(Inst::Ret { value: Some(one) });
    let rec = f.pc();
    f.f.code[br as usize] = Inst::BranchIfNot { cond: le, to: rec };
    let m = f.bin(BinOp::Sub, Ty::I32, n, one);
    f.f.args.push(m);
    f.f.arg_types.push(Ty::U64);
    let r = f.reg();
    f.i(Inst::Call {
        func: 0,
        args: 0,
        nargs: 1,
        ret: Some(r),
    });
    let p = f.bin(BinOp::Mul, Ty::I32, n, r);
    f.i(Inst::Ret { value: Some(p) });
    // Kernel: printf("%d! = %d %.2f\n", 5, fact(5), 2.5), from thread 0.
    let mut k = B::new("k");
    let five = k.c(5);
    let r = k.reg();
    k.f.args.push(five);
    k.f.arg_types.push(Ty::U64);
    k.i(Inst::Call {
        func: 1,
        args: 0,
        nargs: 1,
        ret: Some(r),
    });
    let x = k.c(2.5f64.to_bits());
    k.f.args.extend([five, r, x]);
    k.f.arg_types.extend([Ty::I32, Ty::I32, Ty::F64]);
    k.f.strings.push(b"%d! = %d %.2f\n".to_vec());
    k.i(Inst::Print {
        format: 0,
        args: 1,
        nargs: 3,
    });
    k.i(Inst::Exit);
    let mut m = module(k.f, vec![]);
    // The kernel calls `fact` through an import resolved by the link.
    let mut import = Function::new("fact", Linkage::Import);
    import.params = f.f.params.clone();
    import.ret = Some(Ty::I32);
    m.functions.push(import);
    let lib = Module {
        source: "lib.c".into(),
        functions: vec![f.f],
        kernels: vec![],
        globals: vec![],
    };
    let mut mem = Memory::new(1 << 20);
    let prog = link(&[m.clone(), lib.clone()], &mut mem).unwrap();
    let mut d = Dev {
        mem,
        race: RaceState::new(),
        prog,
    };
    let (r, out) = d.run(RaceMode::Error, 1, [1, 1, 1], &[]);
    assert_eq!(r, Ok(vec![]));
    assert_eq!(out, "5! = 120 2.50\n");
    // Without the library, the import is undefined.
    let e = link(&[m], &mut Memory::new(1 << 20)).unwrap_err();
    assert_eq!(e, "undefined device function 'fact' (used by t.c)");
}

#[test]
fn atomics_across_blocks_count_exactly() {
    let mut b = B::new("k");
    let c = b.param(Ty::Ptr);
    let one = b.c(1);
    let site = b.site("atomicAdd");
    b.i(Inst::Atom {
        op: AtomOp::Add,
        ty: Ty::U32,
        dst: None,
        addr: c,
        value: one,
        site,
    });
    let m = module(b.f, vec![ptr_param("c")]);
    for mode in [RaceMode::Off, RaceMode::Error] {
        let mut d = dev(&m);
        let a = d.alloc(&i32s(&[0]));
        assert_eq!(
            d.run(mode, 50, [64, 1, 1], &[a.to_le_bytes().to_vec()]).0,
            Ok(vec![])
        );
        assert_eq!(as_i32s(&d.read(a, 4)), [3200]);
    }
}

#[test]
fn corrupt_bytecode_is_refused() {
    let m = vector_kernel();
    let bytes = crate::encode::encode(&m);
    assert!(crate::decode::decode(&bytes[..bytes.len() - 3]).is_err());
    assert!(crate::decode::decode(b"nope").is_err());
    let mut bad = m.clone();
    bad.functions[0].code.push(Inst::Jump { to: 999 });
    assert!(bad.validate().unwrap_err().contains("jump target 999"));
    let text = crate::text::module_text(&m);
    assert!(
        text.contains("kernel k \"parallel loop\" line 5 = f0 (a deviceptr 8, n value 4)"),
        "{text}"
    );
    assert!(text.contains("ld.i32 r"), "{text}");
    assert!(text.contains("; 10:1 load of a[i]"), "{text}");
}
