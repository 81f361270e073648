//! The C types and constants of `include/acc_prof.h` (OpenACC 3.3 chapter
//! 5): the event numbers, `acc_prof_info`, the event-info structs and their
//! union, `acc_api_info`, the callback and registration function types,
//! with their 64-bit layout checked at compile time.
//! May call: nothing else in the crate.

use std::ffi::{c_char, c_int, c_void};

/// `acc_event_t` values (acc_prof.h).
pub mod ev {
    pub const NONE: i32 = 0;
    pub const DEVICE_INIT_START: i32 = 1;
    pub const DEVICE_INIT_END: i32 = 2;
    pub const DEVICE_SHUTDOWN_START: i32 = 3;
    pub const DEVICE_SHUTDOWN_END: i32 = 4;
    pub const RUNTIME_SHUTDOWN: i32 = 5;
    pub const CREATE: i32 = 6;
    pub const DELETE: i32 = 7;
    pub const ALLOC: i32 = 8;
    pub const FREE: i32 = 9;
    pub const ENTER_DATA_START: i32 = 10;
    pub const ENTER_DATA_END: i32 = 11;
    pub const EXIT_DATA_START: i32 = 12;
    pub const EXIT_DATA_END: i32 = 13;
    pub const UPDATE_START: i32 = 14;
    pub const UPDATE_END: i32 = 15;
    pub const COMPUTE_CONSTRUCT_START: i32 = 16;
    pub const COMPUTE_CONSTRUCT_END: i32 = 17;
    pub const ENQUEUE_LAUNCH_START: i32 = 18;
    pub const ENQUEUE_LAUNCH_END: i32 = 19;
    pub const ENQUEUE_UPLOAD_START: i32 = 20;
    pub const ENQUEUE_UPLOAD_END: i32 = 21;
    pub const ENQUEUE_DOWNLOAD_START: i32 = 22;
    pub const ENQUEUE_DOWNLOAD_END: i32 = 23;
    pub const WAIT_START: i32 = 24;
    pub const WAIT_END: i32 = 25;
    pub const ERROR: i32 = 26;
    pub const LAST: i32 = 27;
}

/// `acc_register_t`.
pub const ACC_REG: c_int = 0;
pub const ACC_TOGGLE: c_int = 1;
pub const ACC_TOGGLE_PER_THREAD: c_int = 2;

/// `_ACC_PROF_INFO_VERSION`: OpenACC 3.3.
pub const VERSION: c_int = 202211;

/// `acc_device_t` values.
pub const DEVICE_HOST: c_int = 2;
pub const DEVICE_NVIDIA: c_int = 5;
pub const DEVICE_MULTICORE: c_int = 9;
/// `acc_async_sync`.
pub const ASYNC_SYNC: isize = -2;

/// `struct acc_prof_info`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ProfInfo {
    pub event_type: c_int,
    pub valid_bytes: c_int,
    pub version: c_int,
    pub device_type: c_int,
    pub device_number: c_int,
    pub thread_id: c_int,
    pub async_: isize,
    pub async_queue: isize,
    pub src_file: *const c_char,
    pub func_name: *const c_char,
    pub line_no: c_int,
    pub end_line_no: c_int,
    pub func_line_no: c_int,
    pub func_end_line_no: c_int,
}

/// `struct acc_data_event_info`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct DataEventInfo {
    pub event_type: c_int,
    pub valid_bytes: c_int,
    pub parent_construct: c_int,
    pub implicit: c_int,
    pub tool_info: *mut c_void,
    pub var_name: *const c_char,
    pub bytes: usize,
    pub host_ptr: *const c_void,
    pub device_ptr: *const c_void,
}

/// `struct acc_launch_event_info`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct LaunchEventInfo {
    pub event_type: c_int,
    pub valid_bytes: c_int,
    pub parent_construct: c_int,
    pub implicit: c_int,
    pub tool_info: *mut c_void,
    pub kernel_name: *const c_char,
    pub num_gangs: usize,
    pub num_workers: usize,
    pub vector_length: usize,
}

/// `struct acc_other_event_info`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct OtherEventInfo {
    pub event_type: c_int,
    pub valid_bytes: c_int,
    pub parent_construct: c_int,
    pub implicit: c_int,
    pub tool_info: *mut c_void,
}

/// `struct acc_error_event_info` (OpenACC 3.2).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ErrorEventInfo {
    pub event_type: c_int,
    pub valid_bytes: c_int,
    pub parent_construct: c_int,
    pub implicit: c_int,
    pub tool_info: *mut c_void,
    pub error_code: c_int,
    pub error_message: *const c_char,
    pub runtime_info: usize,
}

/// `union acc_event_info`.
#[repr(C)]
#[derive(Clone, Copy)]
pub union EventInfo {
    pub event_type: c_int,
    pub data: DataEventInfo,
    pub launch: LaunchEventInfo,
    pub other: OtherEventInfo,
    pub error: ErrorEventInfo,
}

/// `struct acc_api_info`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ApiInfo {
    pub device_api: c_int,
    pub valid_bytes: c_int,
    pub device_type: c_int,
    pub vendor: c_int,
    pub device_handle: *const c_void,
    pub context_handle: *const c_void,
    pub async_handle: *const c_void,
}

/// `acc_prof_callback`.
pub type Callback = unsafe extern "C" fn(*mut ProfInfo, *mut EventInfo, *mut ApiInfo);
/// `acc_prof_reg`.
pub type RegFn = unsafe extern "C" fn(c_int, Option<Callback>, c_int);
/// `acc_query_fn`.
pub type QueryFn = Option<unsafe extern "C" fn()>;
/// `acc_prof_lookup_func`.
pub type LookupFn = unsafe extern "C" fn(*const c_char) -> QueryFn;
/// `acc_register_library`.
pub type RegisterLibrary = unsafe extern "C" fn(RegFn, RegFn, LookupFn);

// The C layout of acc_prof.h on 64-bit targets (valid_bytes as the
// header's _ACC_*_VALID_BYTES say).
#[cfg(target_pointer_width = "64")]
const _: () = {
    assert!(std::mem::size_of::<ProfInfo>() == 72);
    assert!(std::mem::offset_of!(ProfInfo, async_) == 24);
    assert!(std::mem::offset_of!(ProfInfo, src_file) == 40);
    assert!(std::mem::offset_of!(ProfInfo, line_no) == 56);
    assert!(std::mem::size_of::<DataEventInfo>() == 56);
    assert!(std::mem::offset_of!(DataEventInfo, var_name) == 24);
    assert!(std::mem::size_of::<LaunchEventInfo>() == 56);
    assert!(std::mem::size_of::<OtherEventInfo>() == 24);
    assert!(std::mem::size_of::<ErrorEventInfo>() == 48);
    assert!(std::mem::size_of::<ApiInfo>() == 40);
    assert!(std::mem::size_of::<EventInfo>() == 56);
};
