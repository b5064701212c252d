/* What every benchmark gets to run with, and how it reports the outcome. */
#ifndef TRANSFER_BENCH_CONTEXT_H
#define TRANSFER_BENCH_CONTEXT_H

#include <volk.h>

#include "bench_device.h"
#include "bench_options.h"
#include "bench_results.h"

/* Ordered from best to worst, so the outcome of a whole run is the maximum. */
enum bench_status {
   BENCH_OK,
   BENCH_SKIPPED,       /* the size does not fit in this device's memory */
   BENCH_CHECK_FAILED,  /* the device produced wrong data */
   BENCH_DEVICE_FAILED, /* a Vulkan call failed; later benchmarks are not run */
};

struct bench_context {
   const struct bench_options *options;
   const struct bench_device *dev;
   struct bench_results *results;
};

static inline enum bench_status bench_status_worst(enum bench_status a, enum bench_status b)
{
   return a > b ? a : b;
}

/* Out of memory is a property of the device, not a failure of the run. */
static inline enum bench_status bench_status_from_vk(VkResult result)
{
   if (result == VK_SUCCESS)
      return BENCH_OK;
   if (result == VK_ERROR_OUT_OF_DEVICE_MEMORY || result == VK_ERROR_OUT_OF_HOST_MEMORY)
      return BENCH_SKIPPED;
   return BENCH_DEVICE_FAILED;
}

#endif
