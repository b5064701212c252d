/* hybrid_shadows's graphics side: a render pass with one colour attachment
 * (the swapchain's format) and a depth attachment, and the pipeline that
 * draws the mesh with scene.vert / scene.frag, whose fragment shader traces
 * its shadow ray through the top-level acceleration structure bound in its
 * one descriptor set. */
#ifndef RASTER_PASS_H
#define RASTER_PASS_H

#include "rq_context.h"

/* Keep in step with shaders/params.glsl. */
struct hybrid_push_constants {
   float eye[3], near_plane;
   float right[3], far_plane;
   float up[3], origin_offset;
   float forward[3], unused;
   float light[3], ambient;
};

struct raster_pass {
   VkFormat color_format, depth_format;
   VkRenderPass render_pass;
   VkDescriptorSetLayout set_layout;
   VkPipelineLayout layout;
   VkPipeline pipeline;
   VkDescriptorPool pool;
   VkDescriptorSet set;
};

/* The depth format to use: D32_SFLOAT, else D16_UNORM, as a depth
 * attachment with optimal tiling; VK_FORMAT_UNDEFINED when neither. */
VkFormat raster_pass_depth_format(VkPhysicalDevice physical_device);

/* Everything above for color_format; the descriptor set names tlas. The
 * render pass clears both attachments and leaves the colour one in
 * PRESENT_SRC_KHR. */
VkResult raster_pass_create(struct rq_context *ctx, VkFormat color_format, VkFormat depth_format,
                            VkAccelerationStructureKHR tlas, struct raster_pass *out);
void raster_pass_destroy(struct rq_context *ctx, struct raster_pass *rp);

#endif
