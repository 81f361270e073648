/* openacc.h — the OpenACC 3.3 runtime API of accc (libptxrt), chapter 3 of
 * the specification, with its C prototypes (h_void and d_void are void).
 *
 * Device types and numbers and the default async queue are per host thread
 * (the spec's ICVs), initialised from ACC_DEVICE_TYPE and ACC_DEVICE_NUM.
 * Without a usable device (or with ACC_DEVICE_TYPE=host) every routine
 * behaves as on a shared-memory device. Any failure (data not present, out
 * of device memory, ...) stops the program with one line on stderr naming
 * the routine and its arguments.
 *
 * Diagnostics (environment, read once): PTXRT_NOTIFY=1 prints one stderr
 * line per kernel launch and per transfer (`ptxrt: launch ...`,
 * `ptxrt: upload|download ...`, ending in ` async(n)` for work of async
 * queue n); PTXRT_TIME=1 prints at exit a table of each construct's (and
 * routine's) kernel launches and times and its transfers host->device and
 * device->host (count, bytes, time); PTXRT_DEBUG=1 says why the device was
 * or was not used. */
#ifndef OPENACC_H
#define OPENACC_H 1
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* OpenACC 3.3 implemented by accc; also defined by the compiler as _OPENACC. */
#define ACCC_OPENACC_VERSION 202211

typedef enum acc_device_t {
  acc_device_current = -1,
  acc_device_none = 0,
  acc_device_default = 1,
  acc_device_host = 2,
  acc_device_not_host = 4,
  acc_device_nvidia = 5,
  /* A multicore CPU: the host's cores (accc -acc=multicore). */
  acc_device_multicore = 9
} acc_device_t;

typedef enum acc_device_property_t {
  acc_property_memory = 1,
  acc_property_free_memory = 2,
  acc_property_shared_memory_support = 3,
  acc_property_name = 0x10001,
  acc_property_vendor = 0x10002,
  acc_property_driver = 0x10003
} acc_device_property_t;

typedef enum acc_async_t {
  acc_async_noval = -1,
  acc_async_sync = -2,
  acc_async_default = -3
} acc_async_t;

/* 3.2.1-3.2.8 devices */
int acc_get_num_devices(acc_device_t dev_type);
void acc_set_device_type(acc_device_t dev_type);
acc_device_t acc_get_device_type(void);
void acc_set_device_num(int dev_num, acc_device_t dev_type);
int acc_get_device_num(acc_device_t dev_type);
size_t acc_get_property(int dev_num, acc_device_t dev_type, acc_device_property_t property);
const char *acc_get_property_string(int dev_num, acc_device_t dev_type,
                                    acc_device_property_t property);
void acc_init(acc_device_t dev_type);
void acc_init_device(int dev_num, acc_device_t dev_type);
void acc_shutdown(acc_device_t dev_type);
void acc_shutdown_device(int dev_num, acc_device_t dev_type);

/* 3.2.9-3.2.12 async queues */
int acc_async_test(int wait_arg);
int acc_async_test_device(int wait_arg, int dev_num);
int acc_async_test_all(void);
int acc_async_test_all_device(int dev_num);
void acc_wait(int wait_arg);
void acc_wait_device(int wait_arg, int dev_num);
void acc_wait_async(int wait_arg, int async_arg);
void acc_wait_device_async(int wait_arg, int async_arg, int dev_num);
void acc_wait_all(void);
void acc_wait_all_device(int dev_num);
void acc_wait_all_async(int async_arg);
void acc_wait_all_device_async(int async_arg, int dev_num);
/* OpenACC 3.3: wait until one of the count queues of wait_arg has completed;
 * its index (the lowest when several have), or -1 when count is 0 or every
 * element is acc_async_sync. */
int acc_wait_any(int count, int wait_arg[]);
int acc_wait_any_device(int count, int wait_arg[], int dev_num);
int acc_get_default_async(void);
void acc_set_default_async(int async_arg);
/* OpenACC 1.0 names of acc_wait and acc_wait_all. */
void acc_async_wait(int wait_arg);
void acc_async_wait_all(void);
/* A.2.1 (NVIDIA devices): the CUDA stream (CUstream) of an async queue of
 * the current device, made if the queue was not used yet (NULL for
 * acc_async_sync and on the host); acc_set_cuda_stream makes the queue use
 * the program's stream (1 on success). */
void *acc_get_cuda_stream(int async_arg);
int acc_set_cuda_stream(int async_arg, void *stream);

/* 3.2.13 */
int acc_on_device(acc_device_t dev_type);

/* 3.2.14-3.2.30 data */
void *acc_malloc(size_t bytes);
void acc_free(void *data_dev);
void *acc_copyin(void *data_arg, size_t bytes);
void acc_copyin_async(void *data_arg, size_t bytes, int async_arg);
void *acc_create(void *data_arg, size_t bytes);
void acc_create_async(void *data_arg, size_t bytes, int async_arg);
void acc_copyout(void *data_arg, size_t bytes);
void acc_copyout_async(void *data_arg, size_t bytes, int async_arg);
void acc_copyout_finalize(void *data_arg, size_t bytes);
void acc_copyout_finalize_async(void *data_arg, size_t bytes, int async_arg);
void acc_delete(void *data_arg, size_t bytes);
void acc_delete_async(void *data_arg, size_t bytes, int async_arg);
void acc_delete_finalize(void *data_arg, size_t bytes);
void acc_delete_finalize_async(void *data_arg, size_t bytes, int async_arg);
void acc_update_device(void *data_arg, size_t bytes);
void acc_update_device_async(void *data_arg, size_t bytes, int async_arg);
void acc_update_self(void *data_arg, size_t bytes);
void acc_update_self_async(void *data_arg, size_t bytes, int async_arg);
void acc_map_data(void *data_arg, void *data_dev, size_t bytes);
void acc_unmap_data(void *data_arg);
void *acc_deviceptr(void *data_arg);
void *acc_hostptr(void *data_dev);
int acc_is_present(void *data_arg, size_t bytes);
void acc_memcpy_to_device(void *data_dev_dest, void *data_host_src, size_t bytes);
void acc_memcpy_to_device_async(void *data_dev_dest, void *data_host_src, size_t bytes,
                                int async_arg);
void acc_memcpy_from_device(void *data_host_dest, void *data_dev_src, size_t bytes);
void acc_memcpy_from_device_async(void *data_host_dest, void *data_dev_src, size_t bytes,
                                  int async_arg);
void acc_memcpy_device(void *data_dev_dest, void *data_dev_src, size_t bytes);
void acc_memcpy_device_async(void *data_dev_dest, void *data_dev_src, size_t bytes,
                             int async_arg);
void acc_memcpy_d2d(void *data_arg_dest, void *data_arg_src, size_t bytes, int dev_num_dest,
                    int dev_num_src);
void acc_memcpy_d2d_async(void *data_arg_dest, void *data_arg_src, size_t bytes,
                          int dev_num_dest, int dev_num_src, int async_arg_src);
void acc_attach(void **ptr_addr);
void acc_attach_async(void **ptr_addr, int async_arg);
void acc_detach(void **ptr_addr);
void acc_detach_async(void **ptr_addr, int async_arg);
void acc_detach_finalize(void **ptr_addr);
void acc_detach_finalize_async(void **ptr_addr, int async_arg);
/* OpenACC 2.0 names of acc_copyin and acc_create. */
void *acc_present_or_copyin(void *data_arg, size_t bytes);
void *acc_pcopyin(void *data_arg, size_t bytes);
void *acc_present_or_create(void *data_arg, size_t bytes);
void *acc_pcreate(void *data_arg, size_t bytes);

#ifdef __cplusplus
}
#endif
#endif
