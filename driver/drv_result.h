/* Results of the user-mode driver. driver/ speaks no Vulkan; icd/ maps these
 * to VkResult (vkppu_result_from_drv in icd/). */
#ifndef DRV_RESULT_H
#define DRV_RESULT_H

enum drv_result {
   DRV_SUCCESS = 0,
   DRV_TIMEOUT,                     /* a wait ran out of time */
   DRV_NOT_READY,                   /* a non-blocking query found work pending */
   DRV_ERROR_OUT_OF_HOST_MEMORY,    /* malloc failed */
   DRV_ERROR_OUT_OF_DEVICE_MEMORY,  /* VRAM or GPU virtual address space exhausted */
   DRV_ERROR_ADDRESS_IN_USE,        /* a fixed GPU VA was requested but is taken */
   DRV_ERROR_DEVICE_LOST,           /* a channel of the device faulted */
   DRV_ERROR_INITIALIZATION_FAILED, /* the chip or a channel could not be brought up */
};

const char *drv_result_name(enum drv_result r);

#endif
