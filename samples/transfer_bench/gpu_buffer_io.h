/* Getting host data into a buffer and a buffer's contents back to the host,
 * whatever memory the buffer lives in. */
#ifndef TRANSFER_BENCH_GPU_BUFFER_IO_H
#define TRANSFER_BENCH_GPU_BUFFER_IO_H

#include "gpu_buffer.h"

/* Both use the buffer's own mapping when it has one. Otherwise they go
 * through `staging`, a host-visible buffer that they create (zeroed struct) or
 * grow on demand and that the caller keeps for reuse and destroys. */

/* Copies buffer->size bytes of `data` into `buffer`. */
VkResult gpu_buffer_write(const struct bench_device *dev, const struct gpu_buffer *buffer,
                          struct gpu_buffer *staging, const void *data);

/* Points `*contents` at buffer->size host-readable bytes holding what the
 * device last wrote to `buffer`. Valid until `staging` is next used. */
VkResult gpu_buffer_host_view(const struct bench_device *dev, const struct gpu_buffer *buffer,
                              struct gpu_buffer *staging, const void **contents);

#endif
