/* Helpers of the graphics API tests (test_graphics*.c): a W x H colour
 * target (R8G8B8A8_UNORM) with an optional depth/stencil attachment, its
 * render pass and framebuffer, graphics pipelines of the gfx_* shaders with
 * the state a case asks for, vertices given in pixels, and the read-back.
 * Header-only because each test executable is one source file. */
#ifndef GRAPHICS_TEST_UTIL_H
#define GRAPHICS_TEST_UTIL_H

#include "compute_test_util.h"
#include "image_test_util.h"

enum { GW = 32, GH = 32 };

/* VKT_REQUIRE for helpers that return false. */
#define GTU_REQUIRE(expr)                                                                          \
   do {                                                                                            \
      VkResult _r = (expr);                                                                        \
      if (_r != VK_SUCCESS) {                                                                      \
         test_fail(__FILE__, __LINE__, "%s -> %s", #expr, vkt_result_name(_r));                    \
         return false;                                                                             \
      }                                                                                            \
   } while (0)

/* One vertex of gfx_basic.vert: clip position (w = 1) and colour. */
struct gvertex {
   float pos[3];
   float color[4];
};

/* A vertex at window position (x, y) in pixels of the GW x GH target. */
static inline struct gvertex gvtx(float x, float y, float z, const float c[4])
{
   struct gvertex v = {{x / (GW / 2.0f) - 1.0f, y / (GH / 2.0f) - 1.0f, z},
                       {c[0], c[1], c[2], c[3]}};
   return v;
}

/* Six vertices (two triangles) of the window rectangle x0..x1, y0..y1. */
static inline void gtu_rect(struct gvertex *v, float x0, float y0, float x1, float y1, float z,
                            const float c[4])
{
   v[0] = gvtx(x0, y0, z, c);
   v[1] = gvtx(x1, y0, z, c);
   v[2] = gvtx(x0, y1, z, c);
   v[3] = gvtx(x1, y0, z, c);
   v[4] = gvtx(x1, y1, z, c);
   v[5] = gvtx(x0, y1, z, c);
}

/* expected[] = c inside the pixel rectangle [x0, x1) x [y0, y1) of the
 * GW x GH target. */
static inline void gtu_fill(uint32_t *expected, unsigned x0, unsigned y0, unsigned x1, unsigned y1,
                            uint32_t c)
{
   for (unsigned y = y0; y < y1; y++)
      for (unsigned x = x0; x < x1; x++)
         expected[y * GW + x] = c;
}

static inline void gtu_bind_vertex_buffer(VkCommandBuffer cmd, const struct vkt_buffer *b)
{
   VkDeviceSize off = 0;
   vkCmdBindVertexBuffers(cmd, 0, 1, &b->buffer, &off);
}

struct gtarget {
   struct vkt_image color;
   VkFormat depth_format; /* VK_FORMAT_UNDEFINED: no depth/stencil attachment */
   VkImage depth;
   VkDeviceMemory depth_memory;
   VkImageView depth_view;
   VkRenderPass pass;
   VkFramebuffer fb;
   struct vkt_buffer readback; /* GW * GH texels of colour */
};

static inline VkRenderPass gtu_render_pass(struct vkt_device *dev, VkFormat depth_format,
                                           VkAttachmentLoadOp color_load)
{
   VkAttachmentDescription att[2] = {
       {0, VK_FORMAT_R8G8B8A8_UNORM, VK_SAMPLE_COUNT_1_BIT, color_load,
        VK_ATTACHMENT_STORE_OP_STORE, VK_ATTACHMENT_LOAD_OP_DONT_CARE,
        VK_ATTACHMENT_STORE_OP_DONT_CARE,
        color_load == VK_ATTACHMENT_LOAD_OP_LOAD ? VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL
                                                 : VK_IMAGE_LAYOUT_UNDEFINED,
        VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL},
       {0, depth_format, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_CLEAR,
        VK_ATTACHMENT_STORE_OP_STORE, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE,
        VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL},
   };
   VkAttachmentReference color_ref = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
   VkAttachmentReference depth_ref = {1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
   VkSubpassDescription sp = {
       .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
       .colorAttachmentCount = 1,
       .pColorAttachments = &color_ref,
       .pDepthStencilAttachment = depth_format ? &depth_ref : NULL,
   };
   VkSubpassDependency deps[2] = {
       {VK_SUBPASS_EXTERNAL, 0, VK_PIPELINE_STAGE_TRANSFER_BIT,
        VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT,
        VK_ACCESS_TRANSFER_READ_BIT,
        VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_COLOR_ATTACHMENT_READ_BIT |
            VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
        0},
       {0, VK_SUBPASS_EXTERNAL, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
        VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
        VK_ACCESS_TRANSFER_READ_BIT, 0},
   };
   VkRenderPassCreateInfo ci = {
       .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
       .attachmentCount = depth_format ? 2 : 1,
       .pAttachments = att,
       .subpassCount = 1,
       .pSubpasses = &sp,
       .dependencyCount = 2,
       .pDependencies = deps,
   };
   VkRenderPass pass = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateRenderPass(dev->device, &ci, NULL, &pass));
   return pass;
}

static inline VkImageAspectFlags gtu_depth_aspects(VkFormat f)
{
   switch (f) {
   case VK_FORMAT_S8_UINT:
      return VK_IMAGE_ASPECT_STENCIL_BIT;
   case VK_FORMAT_D24_UNORM_S8_UINT:
   case VK_FORMAT_D32_SFLOAT_S8_UINT:
   case VK_FORMAT_D16_UNORM_S8_UINT:
      return VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
   default:
      return VK_IMAGE_ASPECT_DEPTH_BIT;
   }
}

/* Whether the device can render to `f` as a depth/stencil attachment. */
static inline bool gtu_depth_supported(struct vkt_device *dev, VkFormat f)
{
   VkFormatProperties p;
   vkGetPhysicalDeviceFormatProperties(dev->ctx->physical_device, f, &p);
   return (p.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT) != 0;
}

static inline bool gtu_target_create(struct vkt_device *dev, VkFormat depth_format,
                                     struct gtarget *t)
{
   memset(t, 0, sizeof(*t));
   t->depth_format = depth_format;
   if (!vkt_image_create_2d(dev, VK_FORMAT_R8G8B8A8_UNORM, GW, GH, 1,
                            VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                            &t->color))
      return false;
   VkImageView views[2] = {t->color.view, VK_NULL_HANDLE};
   if (depth_format) {
      VkImageCreateInfo ici = {
          .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
          .imageType = VK_IMAGE_TYPE_2D,
          .format = depth_format,
          .extent = {GW, GH, 1},
          .mipLevels = 1,
          .arrayLayers = 1,
          .samples = VK_SAMPLE_COUNT_1_BIT,
          .tiling = VK_IMAGE_TILING_OPTIMAL,
          .usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
      };
      GTU_REQUIRE(vkCreateImage(dev->device, &ici, NULL, &t->depth));
      VkMemoryRequirements req;
      vkGetImageMemoryRequirements(dev->device, t->depth, &req);
      VkMemoryAllocateInfo ai = {
          .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
          .allocationSize = req.size,
          .memoryTypeIndex = vkt_find_memory_type(dev->ctx, req.memoryTypeBits,
                                                  VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0),
      };
      GTU_REQUIRE(vkAllocateMemory(dev->device, &ai, NULL, &t->depth_memory));
      GTU_REQUIRE(vkBindImageMemory(dev->device, t->depth, t->depth_memory, 0));
      VkImageViewCreateInfo vci = {
          .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
          .image = t->depth,
          .viewType = VK_IMAGE_VIEW_TYPE_2D,
          .format = depth_format,
          .subresourceRange = {gtu_depth_aspects(depth_format), 0, 1, 0, 1},
      };
      GTU_REQUIRE(vkCreateImageView(dev->device, &vci, NULL, &t->depth_view));
      views[1] = t->depth_view;
   }
   t->pass = gtu_render_pass(dev, depth_format, VK_ATTACHMENT_LOAD_OP_CLEAR);
   VkFramebufferCreateInfo fci = {
       .sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
       .renderPass = t->pass,
       .attachmentCount = depth_format ? 2 : 1,
       .pAttachments = views,
       .width = GW,
       .height = GH,
       .layers = 1,
   };
   GTU_REQUIRE(vkCreateFramebuffer(dev->device, &fci, NULL, &t->fb));
   GTU_REQUIRE(
       vkt_buffer_create(dev, GW * GH * 4, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &t->readback));
   return true;
}

static inline void gtu_target_destroy(struct vkt_device *dev, struct gtarget *t)
{
   vkDestroyFramebuffer(dev->device, t->fb, NULL);
   vkDestroyRenderPass(dev->device, t->pass, NULL);
   if (t->depth_view)
      vkDestroyImageView(dev->device, t->depth_view, NULL);
   if (t->depth)
      vkDestroyImage(dev->device, t->depth, NULL);
   if (t->depth_memory)
      vkFreeMemory(dev->device, t->depth_memory, NULL);
   vkt_image_destroy(dev, &t->color);
   vkt_buffer_destroy(dev, &t->readback);
}

/* What a case changes of the default pipeline (triangle list, no culling,
 * no depth/stencil, no blending, viewport and scissor the whole target). */
struct gtu_pipeline_desc {
   const char *vs, *fs; /* shader names; NULL: gfx_basic.vert / gfx_basic.frag */
   VkPrimitiveTopology topology;
   bool restart;
   bool instanced;        /* binding 1: a vec2 offset per instance (gfx_instanced.vert) */
   VkFormat color_format; /* attribute 1; 0: R32G32B32A32_SFLOAT */
   VkCullModeFlags cull;
   VkPolygonMode polygon_mode;
   VkFrontFace front;
   const VkPipelineDepthStencilStateCreateInfo *ds;
   const VkPipelineColorBlendAttachmentState *blend;
   uint32_t blend_count; /* attachments of `blend`; 0: 1 */
   VkLogicOp logic_op;   /* 0 (CLEAR) is never wanted: 0 means no logic op */
   bool depth_clamp;
   const float *depth_bias; /* constant, clamp, slope factors; NULL: depth bias off */
   const VkDynamicState *dynamic;
   uint32_t dynamic_count;
   VkPipelineLayout layout; /* 0: an empty one the helper makes (and leaks into *layout_out) */
   VkRenderPass pass;
   uint32_t subpass;
   VkViewport viewport; /* width 0: the whole target, depth 0..1 */
   /* viewport_count > 0: these viewports and scissors instead (multiViewport). */
   const VkViewport *viewports;
   const VkRect2D *scissors;
   uint32_t viewport_count;
   const void *raster_next;       /* pNext of the rasterization state, or NULL */
   const void *vertex_input_next; /* pNext of the vertex input state, or NULL */
   bool viewport_with_count;      /* counts 0: VIEWPORT/SCISSOR_WITH_COUNT are dynamic */
   const void *next; /* pNext of the pipeline (VkPipelineRenderingCreateInfo), or NULL */
   const VkPipelineMultisampleStateCreateInfo *ms; /* NULL: 1 sample */
   bool no_color_blend_state;                      /* pColorBlendState NULL */
};

static inline VkResult gtu_pipeline(struct vkt_device *dev, const struct gtu_pipeline_desc *d,
                                    VkPipeline *out)
{
   VkShaderModule vs = ctu_shader_module(
       dev, d->vs ? d->vs : (d->instanced ? "gfx_instanced.vert" : "gfx_basic.vert"));
   VkShaderModule fs = ctu_shader_module(dev, d->fs ? d->fs : "gfx_basic.frag");
   VkPipelineShaderStageCreateInfo stages[2] = {
       {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, NULL, 0, VK_SHADER_STAGE_VERTEX_BIT,
        vs, "main", NULL},
       {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, NULL, 0, VK_SHADER_STAGE_FRAGMENT_BIT,
        fs, "main", NULL},
   };
   VkVertexInputBindingDescription binds[2] = {
       {0, sizeof(struct gvertex), VK_VERTEX_INPUT_RATE_VERTEX},
       {1, 8, VK_VERTEX_INPUT_RATE_INSTANCE},
   };
   VkVertexInputAttributeDescription attrs[3] = {
       {0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0},
       {1, 0, d->color_format ? d->color_format : VK_FORMAT_R32G32B32A32_SFLOAT, 12},
       {2, 1, VK_FORMAT_R32G32_SFLOAT, 0},
   };
   VkPipelineVertexInputStateCreateInfo vi = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
       .pNext = d->vertex_input_next,
       .vertexBindingDescriptionCount = d->instanced ? 2 : 1,
       .pVertexBindingDescriptions = binds,
       .vertexAttributeDescriptionCount = d->instanced ? 3 : 2,
       .pVertexAttributeDescriptions = attrs,
   };
   VkPipelineInputAssemblyStateCreateInfo ia = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
       .topology = d->topology,
       .primitiveRestartEnable = d->restart,
   };
   VkViewport vp = d->viewport.width ? d->viewport : (VkViewport){0, 0, GW, GH, 0, 1};
   VkRect2D scissor = {{0, 0}, {GW, GH}};
   uint32_t count = d->viewport_count ? d->viewport_count : 1;
   VkPipelineViewportStateCreateInfo vps = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
       .viewportCount = d->viewport_with_count ? 0 : count,
       .pViewports = d->viewport_count ? d->viewports : &vp,
       .scissorCount = d->viewport_with_count ? 0 : count,
       .pScissors = d->viewport_count ? d->scissors : &scissor,
   };
   VkPipelineRasterizationStateCreateInfo rs = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
       .pNext = d->raster_next,
       .depthClampEnable = d->depth_clamp,
       .depthBiasEnable = d->depth_bias != NULL,
       .depthBiasConstantFactor = d->depth_bias ? d->depth_bias[0] : 0.0f,
       .depthBiasClamp = d->depth_bias ? d->depth_bias[1] : 0.0f,
       .depthBiasSlopeFactor = d->depth_bias ? d->depth_bias[2] : 0.0f,
       .polygonMode = d->polygon_mode,
       .cullMode = d->cull,
       .frontFace = d->front,
       .lineWidth = 1.0f,
   };
   VkPipelineMultisampleStateCreateInfo ms = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
       .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT,
   };
   VkPipelineColorBlendAttachmentState no_blend = {.colorWriteMask = 0xf};
   VkPipelineColorBlendStateCreateInfo cb = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
       .logicOpEnable = d->logic_op != 0,
       .logicOp = d->logic_op,
       .attachmentCount = d->blend_count ? d->blend_count : 1,
       .pAttachments = d->blend ? d->blend : &no_blend,
   };
   VkPipelineDynamicStateCreateInfo dyn = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
       .dynamicStateCount = d->dynamic_count,
       .pDynamicStates = d->dynamic,
   };
   VkPipelineDepthStencilStateCreateInfo no_ds = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
   VkGraphicsPipelineCreateInfo ci = {
       .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
       .pNext = d->next,
       .stageCount = 2,
       .pStages = stages,
       .pVertexInputState = &vi,
       .pInputAssemblyState = &ia,
       .pViewportState = &vps,
       .pRasterizationState = &rs,
       .pMultisampleState = d->ms ? d->ms : &ms,
       .pDepthStencilState = d->ds ? d->ds : &no_ds,
       .pColorBlendState = d->no_color_blend_state ? NULL : &cb,
       .pDynamicState = &dyn,
       .layout = d->layout,
       .renderPass = d->pass,
       .subpass = d->subpass,
   };
   *out = VK_NULL_HANDLE;
   VkResult r = vkCreateGraphicsPipelines(dev->device, VK_NULL_HANDLE, 1, &ci, NULL, out);
   vkDestroyShaderModule(dev->device, vs, NULL);
   vkDestroyShaderModule(dev->device, fs, NULL);
   return r;
}

/* A context and a device made from desc; false (case failed) on error. */
static inline bool gtu_setup_device(struct vkt_context *ctx, struct vkt_device *dev,
                                    const struct vkt_device_desc *desc)
{
   memset(dev, 0, sizeof(*dev));
   if (!vkt_context_create(ctx))
      return false;
   VkResult r = vkt_device_create(ctx, desc, dev);
   if (r != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "vkCreateDevice -> %s", vkt_result_name(r));
      vkt_context_destroy(ctx);
      return false;
   }
   return true;
}

/* A context, a device made from desc and a GW x GH colour target with a
 * depth_format attachment (gtu_target_create; VK_FORMAT_UNDEFINED: none);
 * false (case failed, nothing left to destroy) on error. gtu_case_end
 * destroys the three. */
static inline bool gtu_case_begin(struct vkt_context *ctx, struct vkt_device *dev,
                                  const struct vkt_device_desc *desc, VkFormat depth_format,
                                  struct gtarget *t)
{
   if (!gtu_setup_device(ctx, dev, desc))
      return false;
   if (gtu_target_create(dev, depth_format, t))
      return true;
   vkt_teardown(ctx, dev);
   return false;
}

static inline void gtu_case_end(struct vkt_context *ctx, struct vkt_device *dev, struct gtarget *t)
{
   gtu_target_destroy(dev, t);
   vkt_teardown(ctx, dev);
}

static inline VkPipelineLayout gtu_empty_layout(struct vkt_device *dev)
{
   VkPipelineLayoutCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
   VkPipelineLayout l = VK_NULL_HANDLE;
   VKT_CHECK(vkCreatePipelineLayout(dev->device, &ci, NULL, &l));
   return l;
}

/* A host-visible buffer holding `bytes` of data, for vertices, indices or
 * indirect arguments. */
static inline bool gtu_data_buffer(struct vkt_device *dev, const void *data, size_t bytes,
                                   VkBufferUsageFlags usage, struct vkt_buffer *out)
{
   if (vkt_buffer_create(dev, bytes, usage, VKT_MEMORY_HOST, out) != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "cannot create a buffer");
      return false;
   }
   memcpy(out->map, data, bytes);
   return true;
}

/* A secondary command buffer of the universal family's pool, begun with
 * RENDER_PASS_CONTINUE to continue what `inh` describes (a render pass, or
 * dynamic rendering); VK_NULL_HANDLE, the case failed, on error. The caller
 * frees it. */
static inline VkCommandBuffer gtu_secondary_begin(struct vkt_device *dev,
                                                  const VkCommandBufferInheritanceInfo *inh)
{
   VkCommandBufferAllocateInfo ai = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
       .commandPool = dev->pools[dev->ctx->universal_family],
       .level = VK_COMMAND_BUFFER_LEVEL_SECONDARY,
       .commandBufferCount = 1,
   };
   VkCommandBuffer sec = VK_NULL_HANDLE;
   VKT_CHECK(vkAllocateCommandBuffers(dev->device, &ai, &sec));
   VkCommandBufferBeginInfo bi = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
       .flags = VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT |
                VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
       .pInheritanceInfo = inh,
   };
   if (sec)
      VKT_CHECK(vkBeginCommandBuffer(sec, &bi));
   return sec;
}

/* Begins the target's render pass with clear colour c and depth/stencil
 * clear (d, s) on a new command buffer. */
static inline VkCommandBuffer gtu_begin(struct vkt_device *dev, const struct gtarget *t,
                                        const float c[4], float d, uint32_t s)
{
   VkCommandBuffer cmd = vkt_cmd_begin(dev, dev->ctx->universal_family);
   VkClearValue clear[2];
   memcpy(clear[0].color.float32, c, 16);
   clear[1].depthStencil = (VkClearDepthStencilValue){d, s};
   VkRenderPassBeginInfo bi = {
       .sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
       .renderPass = t->pass,
       .framebuffer = t->fb,
       .renderArea = {{0, 0}, {GW, GH}},
       .clearValueCount = 2,
       .pClearValues = clear,
   };
   vkCmdBeginRenderPass(cmd, &bi, VK_SUBPASS_CONTENTS_INLINE);
   return cmd;
}

/* Ends the render pass, copies the colour target to the read-back buffer,
 * submits and waits; the pixels are then in t->readback.map. */
static inline bool gtu_end_read(struct vkt_device *dev, struct gtarget *t, VkCommandBuffer cmd)
{
   vkCmdEndRenderPass(cmd);
   VkBufferImageCopy region = {
       .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
       .imageExtent = {GW, GH, 1},
   };
   vkCmdCopyImageToBuffer(cmd, t->color.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                          t->readback.buffer, 1, &region);
   vkt_cmd_transfer_to_host_barrier(cmd);
   VkResult r = vkt_cmd_submit_wait(dev, dev->ctx->universal_family, 0, cmd);
   if (r != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "submission failed: %s", vkt_result_name(r));
      return false;
   }
   return true;
}

static inline uint32_t gtu_rgba(uint8_t r, uint8_t g, uint8_t b, uint8_t a)
{
   return (uint32_t)r | (uint32_t)g << 8 | (uint32_t)b << 16 | (uint32_t)a << 24;
}

/* Compares the read-back against expected(x, y) exactly (tolerance 0) or
 * within `tol` per channel; reports the first few differences. */
static inline unsigned gtu_check(const struct gtarget *t, const uint32_t *expected, unsigned tol,
                                 const char *what)
{
   const uint32_t *got = t->readback.map;
   unsigned bad = 0;
   for (unsigned i = 0; i < GW * GH; i++) {
      bool ok = true;
      for (unsigned c = 0; c < 4; c++) {
         int a = (int)(got[i] >> (8 * c) & 0xff), b = (int)(expected[i] >> (8 * c) & 0xff);
         if (a - b > (int)tol || b - a > (int)tol)
            ok = false;
      }
      if (!ok && bad++ < 6)
         test_fail(__FILE__, __LINE__, "%s: pixel (%u, %u) is 0x%08x, expected 0x%08x", what,
                   i % GW, i / GW, got[i], expected[i]);
   }
   return bad;
}

#endif
