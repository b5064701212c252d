/* The graphics pipeline the drawing samples share (hybrid_shadows,
 * raster_fill_rate): one vertex stream of positions at location 0, a
 * triangle list, nothing culled, one colour attachment with every channel
 * written, one sample, viewport and scissor set per command buffer, and
 * optionally a LESS depth test with writes. */
#ifndef VK_SAMPLE_GRAPHICS_H
#define VK_SAMPLE_GRAPHICS_H

#include "vk_sample.h"

struct vk_sample_graphics_desc {
   const char *vertex_spv, *fragment_spv; /* SPIR-V files, entry points "main" */
   VkFormat position_format;              /* of location 0, binding 0 */
   uint32_t vertex_stride;                /* bytes between positions */
   bool depth_test;                       /* LESS with writes; else no depth state */
   VkPipelineLayout layout;
   VkRenderPass render_pass; /* subpass 0 */
};

/* Prints what failed and returns its VkResult. */
VkResult vk_sample_graphics_pipeline_create(VkDevice device, const char *tag,
                                            const struct vk_sample_graphics_desc *d,
                                            VkPipeline *out);

#endif
