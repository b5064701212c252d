/* The sample's pipeline: one storage buffer at binding 0 and push
 * constants, on a vk_sample_device (samples/common). */
#ifndef VK_COMPUTE_H
#define VK_COMPUTE_H

#include "vk_sample_device.h"

/* Loads SPIR-V from spv_path; the set has one storage buffer at binding 0. */
VkResult vk_compute_pipeline_create(struct vk_sample_device *d, const char *spv_path,
                                    uint32_t push_constant_bytes,
                                    const struct vk_sample_buffer *buffer,
                                    struct vk_sample_compute_pipeline *out);

/* Records push constants and one dispatch, submits and waits for it. */
VkResult vk_compute_run(struct vk_sample_device *d, const struct vk_sample_compute_pipeline *p,
                        const void *push_constants, uint32_t push_constant_bytes, uint32_t groups_x,
                        uint32_t groups_y);

#endif
