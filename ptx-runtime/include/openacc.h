/* openacc.h — the OpenACC runtime API of accc (libptxrt). */
#ifndef OPENACC_H
#define OPENACC_H 1
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* OpenACC 3.3 implemented by accc; also defined by the compiler as _OPENACC. */
#define ACCC_OPENACC_VERSION 202211

typedef enum acc_device_t {
  acc_device_none = 0,
  acc_device_default = 1,
  acc_device_host = 2,
  acc_device_not_host = 4,
  acc_device_nvidia = 5,
  acc_device_current = -1
} acc_device_t;

typedef enum acc_async_t { acc_async_noval = -1, acc_async_sync = -2 } acc_async_t;

int acc_get_num_devices(acc_device_t devicetype);
void acc_init(acc_device_t devicetype);
void acc_shutdown(acc_device_t devicetype);
int acc_on_device(acc_device_t devicetype);
acc_device_t acc_get_device_type(void);
void acc_set_device_type(acc_device_t devicetype);

#ifdef __cplusplus
}
#endif
#endif
