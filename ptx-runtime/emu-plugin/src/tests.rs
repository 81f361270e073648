//! The plugin through its entry points, as libptxrt calls them: memory and
//! copies, a kernel of hand-written bytecode launched synchronously and on
//! a stream, stream order with events and host functions, the sticky
//! error of a faulting kernel, launch checks.

use crate::ptxrt_exports::last_error;
use crate::*;
use ptxrt_plugin_abi::{LinkInput, LINK_INPUT_PTX, LINK_INPUT_SIMT};
use ptxrt_simt::{self as simt, Inst, Sreg, Ty};
use std::ffi::{c_void, CStr};
use std::sync::Mutex;

/// Tests share the one device: one at a time, each on a fresh one.
static SERIAL: Mutex<()> = Mutex::new(());

fn err() -> String {
    let mut buf = [0 as c_char; 1024];
    // SAFETY: a buffer of that size.
    unsafe { last_error(buf.as_mut_ptr(), buf.len()) };
    // SAFETY: NUL-terminated by last_error.
    unsafe { CStr::from_ptr(buf.as_ptr()) }
        .to_string_lossy()
        .into_owned()
}

fn ok(status: i32) {
    assert_eq!(status, 0, "{}", err());
}

/// `a[tid] = a[tid] * 2 + k` for tid < n (block of 64), or with `oob`
/// every thread also reads a[tid + 64].
fn module(oob: bool) -> Vec<u8> {
    let mut f = simt::Function::new("k", simt::Linkage::Internal);
    f.nregs = 8;
    f.params = vec![simt::Slot::Reg(0, Ty::Ptr), simt::Slot::Reg(1, Ty::I32)];
    f.sites.push(simt::Site {
        line: 7,
        col: 3,
        text: "a[i] = 2 * a[i] + k".into(),
    });
    f.code = vec![
        Inst::Sreg {
            dst: 2,
            sreg: Sreg::Tid(0),
        },
        Inst::Cvt {
            from: Ty::U32,
            to: Ty::U64,
            dst: 3,
            src: 2,
        },
        Inst::PtrAdd {
            dst: 4,
            base: 0,
            index: 3,
            scale: 4,
        },
        Inst::Load {
            ty: Ty::I32,
            dst: 5,
            addr: 4,
            site: 0,
        },
        Inst::Bin {
            op: simt::BinOp::Add,
            ty: Ty::I32,
            dst: 5,
            a: 5,
            b: 5,
        },
        Inst::Bin {
            op: simt::BinOp::Add,
            ty: Ty::I32,
            dst: 5,
            a: 5,
            b: 1,
        },
        Inst::Store {
            ty: Ty::I32,
            addr: 4,
            src: 5,
            site: 0,
        },
    ];
    if oob {
        f.code.push(Inst::Const { dst: 6, bits: 256 });
        f.code.push(Inst::PtrAdd {
            dst: 7,
            base: 4,
            index: 6,
            scale: 1,
        });
        f.code.push(Inst::Load {
            ty: Ty::I32,
            dst: 5,
            addr: 7,
            site: 0,
        });
    }
    f.code.push(Inst::Exit);
    let m = simt::Module {
        source: "t.c".into(),
        functions: vec![f],
        kernels: vec![simt::Kernel {
            name: "k".into(),
            func: 0,
            construct: "parallel loop".into(),
            line: 5,
            params: vec![
                simt::KernelParam {
                    name: "a".into(),
                    kind: simt::ParamKind::DevicePtr,
                    size: 8,
                },
                simt::KernelParam {
                    name: "k".into(),
                    kind: simt::ParamKind::Value,
                    size: 4,
                },
            ],
            max_threads: None,
        }],
        globals: vec![simt::Global {
            symbol: "cell".into(),
            size: 8,
        }],
    };
    simt::encode(&m)
}

/// Loads `code`, allocates and fills 64 ints; (module, function, device address).
fn setup(code: &[u8]) -> (*mut c_void, *mut c_void, u64) {
    let mut m = std::ptr::null_mut();
    // SAFETY: the plugin's entry points with valid pointers.
    unsafe {
        ok(module_load_data(0, code.as_ptr(), code.len(), &mut m));
        let mut f = std::ptr::null_mut();
        ok(module_get_function(0, m, c"k".as_ptr(), &mut f));
        let mut a = 0u64;
        ok(mem_alloc(0, 256, &mut a));
        let host: Vec<i32> = (0..64).collect();
        ok(memcpy_htod(0, a, host.as_ptr().cast(), 256));
        (m, f, a)
    }
}

fn launch64(f: *mut c_void, a: u64, k: i32, stream: *mut c_void) -> i32 {
    let (mut pa, mut pk) = (a, k);
    let mut args = [
        (&mut pa as *mut u64).cast::<c_void>(),
        (&mut pk as *mut i32).cast(),
    ];
    // SAFETY: two parameters, pointers to their values.
    unsafe {
        launch(
            0,
            f,
            [1, 1, 1].as_ptr(),
            [64, 1, 1].as_ptr(),
            0,
            args.as_mut_ptr(),
            stream,
        )
    }
}

fn read(a: u64) -> Vec<i32> {
    let mut out = vec![0i32; 64];
    // SAFETY: 256 bytes.
    ok(unsafe { memcpy_dtoh(0, out.as_mut_ptr().cast(), a, 256) });
    out
}

#[test]
fn kernels_run_in_order_on_streams_and_at_once_on_the_default_stream() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    reset();
    let (m, f, a) = setup(&module(false));
    ok(launch64(f, a, 1, std::ptr::null_mut()));
    assert_eq!(read(a)[5], 11);
    // SAFETY: entry points with valid pointers.
    unsafe {
        let mut s = std::ptr::null_mut();
        ok(stream_create(0, 1, &mut s));
        ok(launch64(f, a, 3, s));
        // Queued, not run: the device copy is unchanged until a wait.
        assert_eq!(read(a)[5], 11);
        let mut e = std::ptr::null_mut();
        ok(event_create_timed(0, &mut e));
        ok(event_record(0, e, s));
        extern "C" fn bump(data: *mut c_void) {
            // SAFETY: the test's counter.
            unsafe { *data.cast::<i32>() += 1 };
        }
        let mut ran = 0i32;
        ok(launch_host_func(0, s, bump, (&mut ran as *mut i32).cast()));
        assert_eq!(ran, 0);
        ok(event_synchronize(0, e));
        assert_eq!(read(a)[5], 25, "the launch before the event ran");
        assert_eq!(ran, 0, "the host function after it did not");
        let mut done = 0;
        ok(stream_query(0, s, &mut done));
        assert_eq!((done, ran), (1, 1));
        let mut e2 = std::ptr::null_mut();
        ok(event_create_timed(0, &mut e2));
        ok(event_record(0, e2, s));
        let mut ms = -1.0f32;
        ok(event_elapsed(0, e, e2, &mut ms));
        assert!(ms >= 0.0);
        // The module's global (an address cell) reads as zero.
        let (mut g, mut n) = (0u64, 0usize);
        ok(module_get_global(0, m, c"cell".as_ptr(), &mut g, &mut n));
        assert_eq!(n, 8);
        let mut v = 1u64;
        ok(memcpy_dtoh(0, (&mut v as *mut u64).cast(), g, 8));
        assert_eq!(v, 0);
        ok(stream_destroy(0, s));
        ok(module_unload(0, m));
        ok(mem_free(0, a));
    }
}

#[test]
fn a_faulting_kernel_leaves_the_device_in_error() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    reset();
    let (_, f, a) = setup(&module(true));
    // The launch itself is accepted; the fault shows at the next call.
    ok(launch64(f, a, 0, std::ptr::null_mut()));
    // SAFETY: plain entry point.
    assert_ne!(unsafe { stream_synchronize(0, std::ptr::null_mut()) }, 0);
    let e = err();
    assert!(e.starts_with("cuStreamSynchronize: CUDA_ERROR_ILLEGAL_ADDRESS (emulated): kernel 'k' (parallel loop at t.c:5) block (0,0,0) thread (0,0,0) reads 4 bytes at"), "{e}");
    assert!(e.ends_with("in 'a[i] = 2 * a[i] + k' at t.c:7: 0 bytes past the end of a 256-byte allocation ('a' + 256 bytes (a 256-byte allocation))"), "{e}");
    let mut p = 0u64;
    // SAFETY: out-pointer to a local.
    assert_ne!(unsafe { mem_alloc(0, 8, &mut p) }, 0);
    assert_eq!(
        err().strip_prefix("cuMemAlloc: "),
        e.strip_prefix("cuStreamSynchronize: ")
    );
}

#[test]
fn launches_and_copies_are_checked_as_the_driver_checks_them() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    reset();
    let (_, f, a) = setup(&module(false));
    let (mut pa, mut pk) = (a, 0i32);
    let mut args = [
        (&mut pa as *mut u64).cast::<c_void>(),
        (&mut pk as *mut i32).cast(),
    ];
    // SAFETY: entry points with valid pointers.
    unsafe {
        let r = launch(
            0,
            f,
            [1, 1, 1].as_ptr(),
            [2048, 1, 1].as_ptr(),
            0,
            args.as_mut_ptr(),
            std::ptr::null_mut(),
        );
        assert_ne!(r, 0);
        assert!(
            err().contains("block dimension 0 over the device's 1024"),
            "{}",
            err()
        );
        let mut v = [0u8; 16];
        assert_ne!(memcpy_dtoh(0, v.as_mut_ptr().cast(), a + 250, 16), 0);
        assert!(
            err().starts_with("cuMemcpyDtoH: CUDA_ERROR_INVALID_VALUE: 16 bytes at"),
            "{}",
            err()
        );
        // The device still works.
        ok(launch64(f, a, 0, std::ptr::null_mut()));
        // Not SIMT bytecode: refused with a reason.
        let mut m = std::ptr::null_mut();
        assert_ne!(module_load_data(0, b".version 8.0".as_ptr(), 12, &mut m), 0);
        assert!(err().contains("not SIMT bytecode"), "{}", err());
        let ptx = LinkInput {
            kind: LINK_INPUT_PTX,
            data: b"x".as_ptr(),
            len: 1,
            name: c"b.c".as_ptr(),
        };
        assert_ne!(link_module(0, &ptx, 1, &mut m), 0);
        assert!(
            err().contains("link input b.c is not SIMT bytecode"),
            "{}",
            err()
        );
        let code = module(false);
        let simt_in = LinkInput {
            kind: LINK_INPUT_SIMT,
            data: code.as_ptr(),
            len: code.len(),
            name: c"a.c".as_ptr(),
        };
        ok(link_module(0, &simt_in, 1, &mut m));
        let mut info = DeviceInfo::default();
        ok(device_info(0, &mut info));
        assert_eq!(info.code_kinds, 1 << CODE_SIMT);
        assert_eq!((info.sm_count, info.max_threads_per_block), (132, 1024));
    }
}
