/* acc_prof.h — the OpenACC profiling and error-callback interface of accc
 * (libptxrt), chapter 5 of the OpenACC 3.3 specification.
 *
 * The types, their field order and the enum values are the specification's
 * (and those of GCC's libgomp acc_prof.h for everything OpenACC 2.6 had), so
 * a tool library built against another implementation's acc_prof.h works
 * with accc, and one built against this file works with them (for the
 * events they have).
 *
 * A tool registers its callbacks from its acc_register_library routine,
 * which the runtime calls
 *   - for each library named in ACC_PROFLIB (a list separated by ':' or
 *     ';'; each is dlopened when the runtime starts; a library that cannot
 *     be loaded or has no acc_register_library gives one warning line on
 *     stderr and the program goes on), and
 *   - for an acc_register_library linked into the program (a static tool)
 *     or into one of the shared libraries it was linked with.
 * Registering later, with acc_prof_register, works too.
 *
 * Callbacks run on the thread that caused the event, in the order they were
 * registered (end events: the reverse order). The runtime may hold its own
 * lock while it calls callbacks: a callback must not call OpenACC routines
 * other than acc_prof_register, acc_prof_unregister and acc_prof_lookup
 * (acc_prof_info gives the device type and number).
 * acc_ev_error (OpenACC 3.2) is called once, before the runtime stops the
 * program on an error (exit status 1, its error line printed after the
 * callbacks return), so a tool can write its own report. */
#ifndef _ACC_PROF_H
#define _ACC_PROF_H 1

#include <stddef.h>
#include <openacc.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 5.1 Events. */
typedef enum acc_event_t {
  acc_ev_none = 0,
  acc_ev_device_init_start = 1,
  acc_ev_device_init_end = 2,
  acc_ev_device_shutdown_start = 3,
  acc_ev_device_shutdown_end = 4,
  acc_ev_runtime_shutdown = 5,
  acc_ev_create = 6,
  acc_ev_delete = 7,
  acc_ev_alloc = 8,
  acc_ev_free = 9,
  acc_ev_enter_data_start = 10,
  acc_ev_enter_data_end = 11,
  acc_ev_exit_data_start = 12,
  acc_ev_exit_data_end = 13,
  acc_ev_update_start = 14,
  acc_ev_update_end = 15,
  acc_ev_compute_construct_start = 16,
  acc_ev_compute_construct_end = 17,
  acc_ev_enqueue_launch_start = 18,
  acc_ev_enqueue_launch_end = 19,
  acc_ev_enqueue_upload_start = 20,
  acc_ev_enqueue_upload_end = 21,
  acc_ev_enqueue_download_start = 22,
  acc_ev_enqueue_download_end = 23,
  acc_ev_wait_start = 24,
  acc_ev_wait_end = 25,
  /* OpenACC 3.2: a runtime error is about to stop the program. */
  acc_ev_error = 26,
  acc_ev_last = 27
} acc_event_t;

/* The spec's fixed-size types: ssize_t and size_t are pointer-sized, int is
 * 32 bits. */
typedef signed long int _acc_prof_ssize_t;
typedef unsigned long int _acc_prof_size_t;
typedef int _acc_prof_int_t;

/* valid_bytes of each struct as this runtime fills it. */
#define _ACC_PROF_VALID_BYTES_STRUCT(_struct, _lastfield, _valid_bytes_lastfield) \
  (offsetof(_struct, _lastfield) + (_valid_bytes_lastfield))

/* 5.2.1 The first argument of every callback. */
typedef struct acc_prof_info {
  acc_event_t event_type;
  _acc_prof_int_t valid_bytes;
  _acc_prof_int_t version;
  acc_device_t device_type;
  _acc_prof_int_t device_number;
  _acc_prof_int_t thread_id;
  _acc_prof_ssize_t async;
  _acc_prof_ssize_t async_queue;
  const char *src_file;
  const char *func_name;
  _acc_prof_int_t line_no, end_line_no;
  _acc_prof_int_t func_line_no, func_end_line_no;
} acc_prof_info;
#define _ACC_PROF_INFO_VALID_BYTES \
  _ACC_PROF_VALID_BYTES_STRUCT(acc_prof_info, func_end_line_no, sizeof(_acc_prof_int_t))

/* acc_prof_info.version: the _OPENACC value of the interface (3.3). */
#define _ACC_PROF_INFO_VERSION 202211

typedef enum acc_construct_t {
  acc_construct_parallel = 0,
  acc_construct_kernels = 1,
  acc_construct_loop = 2,
  acc_construct_data = 3,
  acc_construct_enter_data = 4,
  acc_construct_exit_data = 5,
  acc_construct_host_data = 6,
  acc_construct_atomic = 7,
  acc_construct_declare = 8,
  acc_construct_init = 9,
  acc_construct_shutdown = 10,
  acc_construct_set = 11,
  acc_construct_update = 12,
  acc_construct_routine = 13,
  acc_construct_wait = 14,
  acc_construct_runtime_api = 15,
  acc_construct_serial = 16
} acc_construct_t;

/* 5.2.2 Event information: data events (create, delete, alloc, free,
 * enqueue_upload/download). */
typedef struct acc_data_event_info {
  acc_event_t event_type;
  _acc_prof_int_t valid_bytes;
  acc_construct_t parent_construct;
  _acc_prof_int_t implicit;
  void *tool_info;
  const char *var_name;
  _acc_prof_size_t bytes;
  const void *host_ptr;
  const void *device_ptr;
} acc_data_event_info;
#define _ACC_DATA_EVENT_INFO_VALID_BYTES \
  _ACC_PROF_VALID_BYTES_STRUCT(acc_data_event_info, device_ptr, sizeof(void *))

/* Launch events (enqueue_launch_start/end). */
typedef struct acc_launch_event_info {
  acc_event_t event_type;
  _acc_prof_int_t valid_bytes;
  acc_construct_t parent_construct;
  _acc_prof_int_t implicit;
  void *tool_info;
  const char *kernel_name;
  _acc_prof_size_t num_gangs, num_workers, vector_length;
} acc_launch_event_info;
#define _ACC_LAUNCH_EVENT_INFO_VALID_BYTES \
  _ACC_PROF_VALID_BYTES_STRUCT(acc_launch_event_info, vector_length, sizeof(_acc_prof_size_t))

/* OpenACC 3.2 runtime errors (acc_error_event_info.error_code). */
typedef enum acc_error_t {
  acc_error_none = 0,
  acc_error_other = 1,
  acc_error_system = 2,
  acc_error_execution = 3,
  acc_error_device_init = 4,
  acc_error_device_shutdown = 5,
  acc_error_device_unavailable = 6,
  acc_error_device_type_unavailable = 7,
  acc_error_wrong_device_type = 8,
  acc_error_out_of_memory = 9,
  acc_error_not_present = 10,
  acc_error_partly_present = 11,
  acc_error_present = 12,
  acc_error_invalid_argument = 13,
  acc_error_invalid_async = 14,
  acc_error_invalid_null_pointer = 15,
  acc_error_invalid_data_section = 16,
  acc_error_implementation_defined = 100
} acc_error_t;

/* The error event (acc_ev_error). */
typedef struct acc_error_event_info {
  acc_event_t event_type;
  _acc_prof_int_t valid_bytes;
  acc_construct_t parent_construct;
  _acc_prof_int_t implicit;
  void *tool_info;
  acc_error_t error_code;
  const char *error_message;   /* the error line the runtime prints */
  _acc_prof_size_t runtime_info;
} acc_error_event_info;
#define _ACC_ERROR_EVENT_INFO_VALID_BYTES \
  _ACC_PROF_VALID_BYTES_STRUCT(acc_error_event_info, runtime_info, sizeof(_acc_prof_size_t))

/* Every other event. */
typedef struct acc_other_event_info {
  acc_event_t event_type;
  _acc_prof_int_t valid_bytes;
  acc_construct_t parent_construct;
  _acc_prof_int_t implicit;
  void *tool_info;
} acc_other_event_info;
#define _ACC_OTHER_EVENT_INFO_VALID_BYTES \
  _ACC_PROF_VALID_BYTES_STRUCT(acc_other_event_info, tool_info, sizeof(void *))

typedef union acc_event_info {
  acc_event_t event_type;
  acc_data_event_info data_event;
  acc_launch_event_info launch_event;
  acc_other_event_info other_event;
  acc_error_event_info error_event;
} acc_event_info;

/* 5.2.3 API-specific information. */
typedef enum acc_device_api {
  acc_device_api_none = 0,
  acc_device_api_cuda = 1,
  acc_device_api_opencl = 2,
  acc_device_api_coi = 3,
  acc_device_api_other = 4
} acc_device_api;

typedef struct acc_api_info {
  acc_device_api device_api;
  _acc_prof_int_t valid_bytes;
  acc_device_t device_type;
  _acc_prof_int_t vendor;
  const void *device_handle;
  const void *context_handle;
  const void *async_handle;
} acc_api_info;
#define _ACC_API_INFO_VALID_BYTES \
  _ACC_PROF_VALID_BYTES_STRUCT(acc_api_info, async_handle, sizeof(void *))

typedef void (*acc_prof_callback)(acc_prof_info *, acc_event_info *, acc_api_info *);

/* 5.3 Loading the library and registering callbacks. */
typedef enum acc_register_t {
  acc_reg = 0,
  acc_toggle = 1,
  acc_toggle_per_thread = 2
} acc_register_t;

typedef void (*acc_prof_reg)(acc_event_t, acc_prof_callback, acc_register_t);
void acc_prof_register(acc_event_t event, acc_prof_callback cb, acc_register_t info);
void acc_prof_unregister(acc_event_t event, acc_prof_callback cb, acc_register_t info);
typedef void (*acc_query_fn)();
typedef acc_query_fn (*acc_prof_lookup_func)(const char *);
acc_query_fn acc_prof_lookup(const char *name);
/* Defined by a tool library, called by the runtime. */
void acc_register_library(acc_prof_reg reg, acc_prof_reg unreg, acc_prof_lookup_func lookup);

#ifdef __cplusplus
}
#endif

#endif /* _ACC_PROF_H */
