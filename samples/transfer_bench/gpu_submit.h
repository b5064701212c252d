/* Recording, submitting and timing one batch of transfer work. */
#ifndef TRANSFER_BENCH_GPU_SUBMIT_H
#define TRANSFER_BENCH_GPU_SUBMIT_H

#include <volk.h>

#include "bench_device.h"

/* Host waits are bounded so that a hung driver fails the run instead of
 * hanging it; generous because a software-modelled GPU shares the CPU. */
#define GPU_WAIT_TIMEOUT_NS (60ull * 1000 * 1000 * 1000)

/* Records the work of one submission into `cmd`. */
typedef void (*gpu_record_fn)(VkCommandBuffer cmd, void *user);

struct gpu_timing {
   double host_seconds; /* from before vkQueueSubmit to vkWaitForFences returning */
   double gpu_seconds;  /* between the timestamps around the work; < 0 without timestamps */
};

/* Makes every transfer write recorded before it available to later transfer
 * commands (in this or any later submission to the queue) and to host reads
 * after the fence signals. */
void gpu_cmd_publish_transfer_writes(VkCommandBuffer cmd);

/* Submits `cmd` alone with the device fence, waits for the fence and resets
 * it. `host_seconds`, when not NULL, receives the time from just before
 * vkQueueSubmit to vkWaitForFences returning; the fence reset is outside it. */
VkResult gpu_queue_submit_and_wait(const struct bench_device *dev, VkCommandBuffer cmd,
                                   double *host_seconds);

/* Records `record` into a one-shot command buffer followed by
 * gpu_cmd_publish_transfer_writes, submits it and waits. With `timing`, the
 * recorded work sits between two timestamps (when the queue has them) and the
 * submission is timed on the host; recording is never inside either time. */
VkResult gpu_submit_and_wait(const struct bench_device *dev, gpu_record_fn record, void *user,
                             struct gpu_timing *timing);

#endif
