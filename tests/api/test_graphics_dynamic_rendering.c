/* VK_KHR_dynamic_rendering and the extensions it depends on
 * (VK_KHR_create_renderpass2, VK_KHR_depth_stencil_resolve), through the
 * loader with validation on (api.graphics_dynamic_rendering on vkppu,
 * lvp.graphics_dynamic_rendering on lavapipe): the extensions, feature and
 * resolve properties are reported and the KHR commands resolve; images are
 * compared pixel for pixel with what the draws must give: load-op clears,
 * LOAD, depth and stencil tests, two colour attachments and a NULL view,
 * an instance suspended in one command buffer and resumed in the next,
 * secondaries that inherit the rendering formats, and the same scene drawn
 * through a render pass (the 2KHR commands) and through dynamic rendering
 * (view masks: api.graphics_multiview). */
#include "graphics_test_util.h"

static const float RED[4] = {1, 0, 0, 1};
static const float GREEN[4] = {0, 1, 0, 1};
static const float BLUE[4] = {0, 0, 1, 1};

static const char *const extensions[] = {
    VK_KHR_MULTIVIEW_EXTENSION_NAME,           VK_KHR_MAINTENANCE_2_EXTENSION_NAME,
    VK_KHR_CREATE_RENDERPASS_2_EXTENSION_NAME, VK_KHR_DEPTH_STENCIL_RESOLVE_EXTENSION_NAME,
    VK_KHR_DYNAMIC_RENDERING_EXTENSION_NAME,
};

/* The device with dynamic rendering, and its commands by their KHR names. */
struct rig {
   struct vkt_context ctx;
   struct vkt_device dev;
   VkPipelineLayout layout;
   PFN_vkCmdBeginRenderingKHR begin;
   PFN_vkCmdEndRenderingKHR end;
};

static void rig_teardown(struct rig *r)
{
   vkDestroyPipelineLayout(r->dev.device, r->layout, NULL);
   vkt_teardown(&r->ctx, &r->dev);
}

static bool rig_setup(struct rig *r)
{
   memset(r, 0, sizeof(*r));
   if (!vkt_context_create(&r->ctx))
      return false;
   for (size_t i = 0; i < sizeof(extensions) / sizeof(extensions[0]); i++) {
      if (!vkt_has_device_extension(&r->ctx, extensions[i])) {
         test_fail(__FILE__, __LINE__, "%s is not offered", extensions[i]);
         vkt_context_destroy(&r->ctx);
         return false;
      }
   }
   /* Multiview, which view masks need (api.graphics_multiview draws with
    * one). */
   VkPhysicalDeviceMultiviewFeatures mv = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_FEATURES,
       .multiview = VK_TRUE,
   };
   VkPhysicalDeviceDynamicRenderingFeatures dr = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES,
       .pNext = &mv,
       .dynamicRendering = VK_TRUE,
   };
   /* A pipeline that writes no colour where a view is missing. */
   VkPhysicalDeviceFeatures core = {.independentBlend = VK_TRUE};
   struct vkt_device_desc desc = {
       .features = &core,
       .extensions = extensions,
       .extension_count = sizeof(extensions) / sizeof(extensions[0]),
       .feature_chain = &dr,
   };
   VkResult res = vkt_device_create(&r->ctx, &desc, &r->dev);
   if (res != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "vkCreateDevice -> %s", vkt_result_name(res));
      vkt_context_destroy(&r->ctx);
      return false;
   }
   r->begin =
       (PFN_vkCmdBeginRenderingKHR)vkGetDeviceProcAddr(r->dev.device, "vkCmdBeginRenderingKHR");
   r->end = (PFN_vkCmdEndRenderingKHR)vkGetDeviceProcAddr(r->dev.device, "vkCmdEndRenderingKHR");
   r->layout = gtu_empty_layout(&r->dev);
   if (!r->begin || !r->end) {
      test_fail(__FILE__, __LINE__, "vkCmdBeginRenderingKHR / vkCmdEndRenderingKHR are NULL");
      rig_teardown(r);
      return false;
   }
   return true;
}

/* ---------------------------------------------------------------------------
 * Scenes: rectangles in draw order, and the image they must give
 * ------------------------------------------------------------------------- */
struct grect {
   float x0, y0, x1, y1, z;
   const float *color;
};

static uint32_t rgba(const float c[4])
{
   return gtu_rgba((uint8_t)(c[0] * 255), (uint8_t)(c[1] * 255), (uint8_t)(c[2] * 255),
                   (uint8_t)(c[3] * 255));
}

/* want[] after drawing the rectangles over `background` with a LESS depth
 * test against a depth buffer cleared to 1 (depth_test), or without one. */
static void expect_rects(uint32_t *want, uint32_t background, const struct grect *r, unsigned n,
                         bool depth_test)
{
   float depth[GW * GH];
   for (unsigned i = 0; i < GW * GH; i++) {
      want[i] = background;
      depth[i] = 1.0f;
   }
   for (unsigned k = 0; k < n; k++)
      for (unsigned y = (unsigned)r[k].y0; y < (unsigned)r[k].y1; y++)
         for (unsigned x = (unsigned)r[k].x0; x < (unsigned)r[k].x1; x++)
            if (!depth_test || r[k].z < depth[y * GW + x]) {
               want[y * GW + x] = rgba(r[k].color);
               depth[y * GW + x] = r[k].z;
            }
}

static bool rect_buffer(struct rig *r, const struct grect *rects, unsigned n, struct vkt_buffer *vb)
{
   struct gvertex v[6 * 8];
   for (unsigned k = 0; k < n && k < 8; k++)
      gtu_rect(&v[6 * k], rects[k].x0, rects[k].y0, rects[k].x1, rects[k].y1, rects[k].z,
               rects[k].color);
   return gtu_data_buffer(&r->dev, v, sizeof(struct gvertex) * 6 * n,
                          VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, vb);
}

/* Overlapping rectangles whose image depends on the depth test. */
static const struct grect depth_scene[3] = {
    {0, 0, 20, 20, 0.3f, RED},
    {10, 10, 30, 30, 0.6f, GREEN},
    {16, 0, 32, 8, 0.2f, BLUE},
};

/* ---------------------------------------------------------------------------
 * Recording helpers
 * ------------------------------------------------------------------------- */
static void image_barrier(VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspects,
                          VkImageLayout from, VkImageLayout to)
{
   VkImageMemoryBarrier b = {
       .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
       .srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT,
       .dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT,
       .oldLayout = from,
       .newLayout = to,
       .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
       .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
       .image = image,
       .subresourceRange = {aspects, 0, 1, 0, 1},
   };
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                        0, 0, NULL, 0, NULL, 1, &b);
}

/* The target's images into attachment layouts (contents undefined). */
static void to_attachment(VkCommandBuffer cmd, const struct gtarget *t)
{
   image_barrier(cmd, t->color.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                 VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
   if (t->depth)
      image_barrier(cmd, t->depth, gtu_depth_aspects(t->depth_format), VK_IMAGE_LAYOUT_UNDEFINED,
                    VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
}

/* Copies the colour attachment to the read-back buffer. */
static void read_color(VkCommandBuffer cmd, struct gtarget *t)
{
   image_barrier(cmd, t->color.image, VK_IMAGE_ASPECT_COLOR_BIT,
                 VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
   VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                               .imageExtent = {GW, GH, 1}};
   vkCmdCopyImageToBuffer(cmd, t->color.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                          t->readback.buffer, 1, &region);
   vkt_cmd_transfer_to_host_barrier(cmd);
}

static VkRenderingAttachmentInfo color_attachment(VkImageView view, VkAttachmentLoadOp load,
                                                  const float c[4])
{
   VkRenderingAttachmentInfo a = {
       .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
       .imageView = view,
       .imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
       .loadOp = load,
       .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
   };
   if (c)
      memcpy(a.clearValue.color.float32, c, 16);
   return a;
}

static VkRenderingAttachmentInfo depth_attachment(const struct gtarget *t, float d, uint32_t s)
{
   return (VkRenderingAttachmentInfo){
       .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
       .imageView = t->depth_view,
       .imageLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
       .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
       .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
       .clearValue = {.depthStencil = {d, s}},
   };
}

static VkRenderingInfo rendering_info(uint32_t colors, const VkRenderingAttachmentInfo *color,
                                      const VkRenderingAttachmentInfo *depth,
                                      const VkRenderingAttachmentInfo *stencil)
{
   return (VkRenderingInfo){
       .sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
       .renderArea = {{0, 0}, {GW, GH}},
       .layerCount = 1,
       .colorAttachmentCount = colors,
       .pColorAttachments = color,
       .pDepthAttachment = depth,
       .pStencilAttachment = stencil,
   };
}

/* A pipeline for dynamic rendering with these attachment formats. */
static VkPipeline dyn_pipeline(struct rig *r, struct gtu_pipeline_desc *d, uint32_t colors,
                               const VkFormat *formats, VkFormat depth, VkFormat stencil)
{
   VkPipelineRenderingCreateInfo ri = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
       .colorAttachmentCount = colors,
       .pColorAttachmentFormats = formats,
       .depthAttachmentFormat = depth,
       .stencilAttachmentFormat = stencil,
   };
   d->next = &ri;
   d->layout = r->layout;
   if (!d->topology)
      d->topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
   VkPipeline p = VK_NULL_HANDLE;
   VKT_CHECK(gtu_pipeline(&r->dev, d, &p));
   return p;
}

static const VkFormat RGBA8[2] = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM};

static const VkPipelineDepthStencilStateCreateInfo depth_less = {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
    .depthTestEnable = VK_TRUE,
    .depthWriteEnable = VK_TRUE,
    .depthCompareOp = VK_COMPARE_OP_LESS,
};

/* The first depth/stencil format with stencil both drivers render to. */
static VkFormat stencil_format(struct rig *r)
{
   static const VkFormat candidates[] = {VK_FORMAT_D32_SFLOAT_S8_UINT, VK_FORMAT_D24_UNORM_S8_UINT};
   for (size_t i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++)
      if (gtu_depth_supported(&r->dev, candidates[i]))
         return candidates[i];
   return VK_FORMAT_UNDEFINED;
}

/* ---------------------------------------------------------------------------
 * Cases
 * ------------------------------------------------------------------------- */
TEST_CASE(extensions_feature_and_resolve_properties_are_reported)
{
   struct rig r;
   if (!rig_setup(&r))
      return;
   VkPhysicalDeviceDynamicRenderingFeatures dr = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &dr};
   vkGetPhysicalDeviceFeatures2(r.ctx.physical_device, &f2);
   CHECK(dr.dynamicRendering == VK_TRUE);

   VkPhysicalDeviceDepthStencilResolveProperties dsr = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_STENCIL_RESOLVE_PROPERTIES};
   VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                     .pNext = &dsr};
   vkGetPhysicalDeviceProperties2(r.ctx.physical_device, &p2);
   /* Every implementation resolves sample zero (spec, Limit Requirements). */
   CHECK(dsr.supportedDepthResolveModes & VK_RESOLVE_MODE_SAMPLE_ZERO_BIT);
   CHECK(dsr.supportedStencilResolveModes & VK_RESOLVE_MODE_SAMPLE_ZERO_BIT);
   if (r.ctx.is_vkppu) {
      /* RESOLVE's modes; stencil is never averaged. */
      CHECK(dsr.supportedDepthResolveModes ==
            (VK_RESOLVE_MODE_SAMPLE_ZERO_BIT | VK_RESOLVE_MODE_AVERAGE_BIT |
             VK_RESOLVE_MODE_MIN_BIT | VK_RESOLVE_MODE_MAX_BIT));
      CHECK(dsr.supportedStencilResolveModes ==
            (VK_RESOLVE_MODE_SAMPLE_ZERO_BIT | VK_RESOLVE_MODE_MIN_BIT | VK_RESOLVE_MODE_MAX_BIT));
      CHECK(dsr.independentResolveNone == VK_TRUE && dsr.independentResolve == VK_TRUE);
   }

   /* The KHR names of the promoted commands resolve on the device. */
   static const char *const commands[] = {
       "vkCmdBeginRenderingKHR",   "vkCmdEndRenderingKHR", "vkCreateRenderPass2KHR",
       "vkCmdBeginRenderPass2KHR", "vkCmdNextSubpass2KHR", "vkCmdEndRenderPass2KHR",
   };
   for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
      CHECK_MSG(vkGetDeviceProcAddr(r.dev.device, commands[i]) != NULL, "%s is NULL", commands[i]);
   rig_teardown(&r);
}

/* Fills t's colour with green on the copy engine and leaves it in
 * COLOR_ATTACHMENT_OPTIMAL: contents an instance may LOAD. */
static void fill_green(VkCommandBuffer cmd, const struct gtarget *t)
{
   image_barrier(cmd, t->color.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                 VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
   VkClearColorValue green = {{0, 1, 0, 1}};
   VkImageSubresourceRange range = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
   vkCmdClearColorImage(cmd, t->color.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &green, 1,
                        &range);
   image_barrier(cmd, t->color.image, VK_IMAGE_ASPECT_COLOR_BIT,
                 VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
}

/* loadOp CLEAR clears the render area to blue and a draw lands on it;
 * loadOp LOAD keeps the green a transfer clear wrote before the instance. */
TEST_CASE(load_ops_clear_and_load)
{
   struct rig r;
   if (!rig_setup(&r))
      return;
   struct gtarget t = {0};
   struct gtu_pipeline_desc d = {0};
   VkPipeline pipe = dyn_pipeline(&r, &d, 1, RGBA8, VK_FORMAT_UNDEFINED, VK_FORMAT_UNDEFINED);
   static const struct grect rect = {4, 4, 20, 28, 0.5f, RED};
   struct vkt_buffer vb;
   if (pipe && gtu_target_create(&r.dev, VK_FORMAT_UNDEFINED, &t) &&
       rect_buffer(&r, &rect, 1, &vb)) {
      static const VkAttachmentLoadOp ops[2] = {VK_ATTACHMENT_LOAD_OP_CLEAR,
                                                VK_ATTACHMENT_LOAD_OP_LOAD};
      for (unsigned i = 0; i < 2; i++) {
         const bool load = ops[i] == VK_ATTACHMENT_LOAD_OP_LOAD;
         VkCommandBuffer cmd = vkt_cmd_begin(&r.dev, r.ctx.universal_family);
         if (load)
            fill_green(cmd, &t);
         else
            to_attachment(cmd, &t);
         VkRenderingAttachmentInfo c = color_attachment(t.color.view, ops[i], BLUE);
         VkRenderingInfo ri = rendering_info(1, &c, NULL, NULL);
         r.begin(cmd, &ri);
         gtu_bind_vertex_buffer(cmd, &vb);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
         vkCmdDraw(cmd, 6, 1, 0, 0);
         r.end(cmd);
         read_color(cmd, &t);
         VKT_CHECK(vkt_cmd_submit_wait(&r.dev, r.ctx.universal_family, 0, cmd));
         uint32_t want[GW * GH];
         expect_rects(want, rgba(load ? GREEN : BLUE), &rect, 1, false);
         CHECK(gtu_check(&t, want, 0, load ? "LOAD" : "CLEAR") == 0);
      }
      vkt_buffer_destroy(&r.dev, &vb);
   }
   if (t.color.image)
      gtu_target_destroy(&r.dev, &t);
   vkDestroyPipeline(r.dev.device, pipe, NULL);
   rig_teardown(&r);
}

/* Draws the depth scene into t with dynamic rendering (depth cleared to 1,
 * colour to opaque black) in `cmd`, inline or through `secondary`, and
 * copies the colour out. */
static void record_depth_scene(struct rig *r, VkCommandBuffer cmd, struct gtarget *t,
                               VkPipeline pipe, const struct vkt_buffer *vb,
                               VkCommandBuffer secondary)
{
   to_attachment(cmd, t);
   static const float black[4] = {0, 0, 0, 1};
   VkRenderingAttachmentInfo c =
       color_attachment(t->color.view, VK_ATTACHMENT_LOAD_OP_CLEAR, black);
   VkRenderingAttachmentInfo z = depth_attachment(t, 1.0f, 0);
   VkRenderingInfo ri = rendering_info(1, &c, &z, NULL);
   if (secondary)
      ri.flags = VK_RENDERING_CONTENTS_SECONDARY_COMMAND_BUFFERS_BIT;
   r->begin(cmd, &ri);
   if (secondary) {
      vkCmdExecuteCommands(cmd, 1, &secondary);
   } else {
      gtu_bind_vertex_buffer(cmd, vb);
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
      vkCmdDraw(cmd, 18, 1, 0, 0);
   }
   r->end(cmd);
   read_color(cmd, t);
}

TEST_CASE(depth_attachment_depth_tests_the_draws)
{
   struct rig r;
   if (!rig_setup(&r))
      return;
   struct gtarget t;
   struct gtu_pipeline_desc d = {.ds = &depth_less};
   VkPipeline pipe = dyn_pipeline(&r, &d, 1, RGBA8, VK_FORMAT_D32_SFLOAT, VK_FORMAT_UNDEFINED);
   struct vkt_buffer vb;
   if (pipe && gtu_target_create(&r.dev, VK_FORMAT_D32_SFLOAT, &t)) {
      if (rect_buffer(&r, depth_scene, 3, &vb)) {
         VkCommandBuffer cmd = vkt_cmd_begin(&r.dev, r.ctx.universal_family);
         record_depth_scene(&r, cmd, &t, pipe, &vb, VK_NULL_HANDLE);
         VKT_CHECK(vkt_cmd_submit_wait(&r.dev, r.ctx.universal_family, 0, cmd));
         uint32_t want[GW * GH];
         expect_rects(want, gtu_rgba(0, 0, 0, 255), depth_scene, 3, true);
         CHECK(gtu_check(&t, want, 0, "depth") == 0);
         vkt_buffer_destroy(&r.dev, &vb);
      }
      gtu_target_destroy(&r.dev, &t);
   }
   vkDestroyPipeline(r.dev.device, pipe, NULL);
   rig_teardown(&r);
}

/* One draw writes stencil 1 in a square without touching colour; a
 * full-target draw then passes only where the stencil is 1. Depth and
 * stencil are the same view, as Vulkan requires. */
TEST_CASE(stencil_attachment_masks_a_draw)
{
   struct rig r;
   if (!rig_setup(&r))
      return;
   VkFormat ds_format = stencil_format(&r);
   if (!ds_format) {
      vkt_skip("no depth/stencil format with stencil");
      rig_teardown(&r);
      return;
   }
   VkPipelineDepthStencilStateCreateInfo mark = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
       .stencilTestEnable = VK_TRUE,
       .front = {VK_STENCIL_OP_KEEP, VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_KEEP,
                 VK_COMPARE_OP_ALWAYS, 0xff, 0xff, 1},
   };
   mark.back = mark.front;
   VkPipelineDepthStencilStateCreateInfo test = mark;
   test.front = (VkStencilOpState){
       VK_STENCIL_OP_KEEP, VK_STENCIL_OP_KEEP, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_EQUAL, 0xff, 0, 1};
   test.back = test.front;
   VkPipelineColorBlendAttachmentState no_color = {.colorWriteMask = 0};
   struct gtu_pipeline_desc dm = {.ds = &mark, .blend = &no_color};
   struct gtu_pipeline_desc dt = {.ds = &test};
   VkPipeline p_mark = dyn_pipeline(&r, &dm, 1, RGBA8, ds_format, ds_format);
   VkPipeline p_test = dyn_pipeline(&r, &dt, 1, RGBA8, ds_format, ds_format);
   const struct grect rects[2] = {{8, 8, 24, 24, 0.5f, RED}, {0, 0, 32, 32, 0.5f, GREEN}};
   struct gtarget t;
   struct vkt_buffer vb;
   if (p_mark && p_test && gtu_target_create(&r.dev, ds_format, &t)) {
      if (rect_buffer(&r, rects, 2, &vb)) {
         VkCommandBuffer cmd = vkt_cmd_begin(&r.dev, r.ctx.universal_family);
         to_attachment(cmd, &t);
         VkRenderingAttachmentInfo c =
             color_attachment(t.color.view, VK_ATTACHMENT_LOAD_OP_CLEAR, BLUE);
         VkRenderingAttachmentInfo z = depth_attachment(&t, 1.0f, 0);
         VkRenderingInfo ri = rendering_info(1, &c, &z, &z);
         r.begin(cmd, &ri);
         gtu_bind_vertex_buffer(cmd, &vb);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p_mark);
         vkCmdDraw(cmd, 6, 1, 0, 0);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p_test);
         vkCmdDraw(cmd, 6, 1, 6, 0);
         r.end(cmd);
         read_color(cmd, &t);
         VKT_CHECK(vkt_cmd_submit_wait(&r.dev, r.ctx.universal_family, 0, cmd));
         uint32_t want[GW * GH];
         gtu_fill(want, 0, 0, GW, GH, rgba(BLUE));
         gtu_fill(want, 8, 8, 24, 24, rgba(GREEN));
         CHECK(gtu_check(&t, want, 0, "stencil") == 0);
         vkt_buffer_destroy(&r.dev, &vb);
      }
      gtu_target_destroy(&r.dev, &t);
   }
   vkDestroyPipeline(r.dev.device, p_mark, NULL);
   vkDestroyPipeline(r.dev.device, p_test, NULL);
   rig_teardown(&r);
}

/* Two colour attachments take the fragment program's two outputs; with the
 * first attachment's view VK_NULL_HANDLE (format UNDEFINED in the
 * pipeline), a program writing only the second output still lands in the
 * second attachment. */
TEST_CASE(two_color_attachments_and_a_null_view)
{
   struct rig r;
   if (!rig_setup(&r))
      return;
   VkPipelineColorBlendAttachmentState blend[2] = {{.colorWriteMask = 0xf},
                                                   {.colorWriteMask = 0xf}};
   struct gtu_pipeline_desc d2 = {.fs = "gfx_two_outputs.frag", .blend = blend, .blend_count = 2};
   /* Nothing is written to the missing attachment. */
   VkPipelineColorBlendAttachmentState second_only[2] = {{.colorWriteMask = 0},
                                                         {.colorWriteMask = 0xf}};
   struct gtu_pipeline_desc dn = d2;
   dn.fs = "gfx_second_output.frag";
   dn.blend = second_only;
   const VkFormat null_first[2] = {VK_FORMAT_UNDEFINED, VK_FORMAT_R8G8B8A8_UNORM};
   VkPipeline p_two = dyn_pipeline(&r, &d2, 2, RGBA8, VK_FORMAT_UNDEFINED, VK_FORMAT_UNDEFINED);
   VkPipeline p_null =
       dyn_pipeline(&r, &dn, 2, null_first, VK_FORMAT_UNDEFINED, VK_FORMAT_UNDEFINED);
   static const struct grect rect = {4, 8, 28, 20, 0.5f, GREEN};
   struct gtarget a, b, c;
   struct vkt_buffer vb;
   if (p_two && p_null && gtu_target_create(&r.dev, VK_FORMAT_UNDEFINED, &a) &&
       gtu_target_create(&r.dev, VK_FORMAT_UNDEFINED, &b) &&
       gtu_target_create(&r.dev, VK_FORMAT_UNDEFINED, &c)) {
      if (rect_buffer(&r, &rect, 1, &vb)) {
         VkCommandBuffer cmd = vkt_cmd_begin(&r.dev, r.ctx.universal_family);
         to_attachment(cmd, &a);
         to_attachment(cmd, &b);
         to_attachment(cmd, &c);
         gtu_bind_vertex_buffer(cmd, &vb);
         VkRenderingAttachmentInfo two[2] = {
             color_attachment(a.color.view, VK_ATTACHMENT_LOAD_OP_CLEAR, BLUE),
             color_attachment(b.color.view, VK_ATTACHMENT_LOAD_OP_CLEAR, RED)};
         VkRenderingInfo ri = rendering_info(2, two, NULL, NULL);
         r.begin(cmd, &ri);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p_two);
         vkCmdDraw(cmd, 6, 1, 0, 0);
         r.end(cmd);
         VkRenderingAttachmentInfo with_null[2] = {
             color_attachment(VK_NULL_HANDLE, VK_ATTACHMENT_LOAD_OP_CLEAR, RED),
             color_attachment(c.color.view, VK_ATTACHMENT_LOAD_OP_CLEAR, BLUE)};
         ri = rendering_info(2, with_null, NULL, NULL);
         r.begin(cmd, &ri);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p_null);
         vkCmdDraw(cmd, 6, 1, 0, 0);
         r.end(cmd);
         read_color(cmd, &a);
         read_color(cmd, &b);
         read_color(cmd, &c);
         VKT_CHECK(vkt_cmd_submit_wait(&r.dev, r.ctx.universal_family, 0, cmd));
         uint32_t want[GW * GH];
         expect_rects(want, rgba(BLUE), &rect, 1, false);
         CHECK(gtu_check(&a, want, 0, "attachment 0 of 2") == 0);
         CHECK(gtu_check(&c, want, 0, "attachment 1 after a NULL view") == 0);
         expect_rects(want, rgba(RED), &rect, 1, false);
         CHECK(gtu_check(&b, want, 0, "attachment 1 of 2") == 0);
         vkt_buffer_destroy(&r.dev, &vb);
      }
      gtu_target_destroy(&r.dev, &c);
      gtu_target_destroy(&r.dev, &b);
      gtu_target_destroy(&r.dev, &a);
   }
   vkDestroyPipeline(r.dev.device, p_two, NULL);
   vkDestroyPipeline(r.dev.device, p_null, NULL);
   rig_teardown(&r);
}

/* Ends, submits together and waits for cmds (each from vkt_cmd_begin). */
static void submit_together(struct rig *r, VkCommandBuffer *cmds, uint32_t n)
{
   for (uint32_t i = 0; i < n; i++)
      VKT_CHECK(vkEndCommandBuffer(cmds[i]));
   VkFence fence = vkt_fence_create(&r->dev, false);
   VkSubmitInfo si = {
       .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
       .commandBufferCount = n,
       .pCommandBuffers = cmds,
   };
   VKT_CHECK(vkQueueSubmit(r->dev.queue, 1, &si, fence));
   VkResult w = vkWaitForFences(r->dev.device, 1, &fence, VK_TRUE, VKT_WAIT_TIMEOUT_NS);
   if (w == VK_TIMEOUT)
      vkt_fatal_hang("suspended and resumed rendering");
   VKT_CHECK(w);
   vkDestroyFence(r->dev.device, fence, NULL);
   vkFreeCommandBuffers(r->dev.device, r->dev.pools[r->ctx.universal_family], n, cmds);
}

/* An instance suspended in one command buffer and resumed in the next
 * (loadOp CLEAR in both: the resumed one must not clear again) gives the
 * image one instance with both draws gives. */
TEST_CASE(suspended_and_resumed_rendering_equals_one_instance)
{
   struct rig r;
   if (!rig_setup(&r))
      return;
   struct gtu_pipeline_desc d = {.ds = &depth_less};
   VkPipeline pipe = dyn_pipeline(&r, &d, 1, RGBA8, VK_FORMAT_D32_SFLOAT, VK_FORMAT_UNDEFINED);
   struct gtarget split, whole;
   struct vkt_buffer vb;
   if (pipe && gtu_target_create(&r.dev, VK_FORMAT_D32_SFLOAT, &split) &&
       gtu_target_create(&r.dev, VK_FORMAT_D32_SFLOAT, &whole)) {
      if (rect_buffer(&r, depth_scene, 3, &vb)) {
         VkCommandBuffer cmd[2] = {vkt_cmd_begin(&r.dev, r.ctx.universal_family),
                                   vkt_cmd_begin(&r.dev, r.ctx.universal_family)};
         to_attachment(cmd[0], &split);
         VkRenderingAttachmentInfo c =
             color_attachment(split.color.view, VK_ATTACHMENT_LOAD_OP_CLEAR, BLUE);
         VkRenderingAttachmentInfo z = depth_attachment(&split, 1.0f, 0);
         VkRenderingInfo ri = rendering_info(1, &c, &z, NULL);
         ri.flags = VK_RENDERING_SUSPENDING_BIT;
         r.begin(cmd[0], &ri);
         gtu_bind_vertex_buffer(cmd[0], &vb);
         vkCmdBindPipeline(cmd[0], VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
         vkCmdDraw(cmd[0], 6, 1, 0, 0);
         r.end(cmd[0]);
         ri.flags = VK_RENDERING_RESUMING_BIT;
         r.begin(cmd[1], &ri);
         gtu_bind_vertex_buffer(cmd[1], &vb);
         vkCmdBindPipeline(cmd[1], VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
         vkCmdDraw(cmd[1], 12, 1, 6, 0);
         r.end(cmd[1]);
         read_color(cmd[1], &split);
         submit_together(&r, cmd, 2);

         VkCommandBuffer one = vkt_cmd_begin(&r.dev, r.ctx.universal_family);
         to_attachment(one, &whole);
         c.imageView = whole.color.view;
         z.imageView = whole.depth_view;
         ri.flags = 0;
         r.begin(one, &ri);
         gtu_bind_vertex_buffer(one, &vb);
         vkCmdBindPipeline(one, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
         vkCmdDraw(one, 18, 1, 0, 0);
         r.end(one);
         read_color(one, &whole);
         VKT_CHECK(vkt_cmd_submit_wait(&r.dev, r.ctx.universal_family, 0, one));

         uint32_t want[GW * GH];
         expect_rects(want, rgba(BLUE), depth_scene, 3, true);
         CHECK(gtu_check(&split, want, 0, "suspended and resumed") == 0);
         CHECK(vkt_compare_words(whole.readback.map, split.readback.map, GW * GH * 4,
                                 "resumed against one instance") == 0);
         vkt_buffer_destroy(&r.dev, &vb);
      }
      gtu_target_destroy(&r.dev, &whole);
      gtu_target_destroy(&r.dev, &split);
   }
   vkDestroyPipeline(r.dev.device, pipe, NULL);
   rig_teardown(&r);
}

/* A secondary recorded with VkCommandBufferInheritanceRenderingInfo (no
 * render pass, no framebuffer) draws the depth scene into the primary's
 * attachments. */
TEST_CASE(secondaries_inherit_the_rendering_formats)
{
   struct rig r;
   if (!rig_setup(&r))
      return;
   struct gtu_pipeline_desc d = {.ds = &depth_less};
   VkPipeline pipe = dyn_pipeline(&r, &d, 1, RGBA8, VK_FORMAT_D32_SFLOAT, VK_FORMAT_UNDEFINED);
   struct gtarget t;
   struct vkt_buffer vb;
   VkCommandBufferInheritanceRenderingInfo inr = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_RENDERING_INFO,
       .colorAttachmentCount = 1,
       .pColorAttachmentFormats = RGBA8,
       .depthAttachmentFormat = VK_FORMAT_D32_SFLOAT,
       .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT,
   };
   VkCommandBufferInheritanceInfo inh = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO,
       .pNext = &inr,
   };
   VkCommandBuffer sec = gtu_secondary_begin(&r.dev, &inh);
   if (pipe && sec && gtu_target_create(&r.dev, VK_FORMAT_D32_SFLOAT, &t)) {
      if (rect_buffer(&r, depth_scene, 3, &vb)) {
         gtu_bind_vertex_buffer(sec, &vb);
         vkCmdBindPipeline(sec, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
         vkCmdDraw(sec, 18, 1, 0, 0);
         VKT_CHECK(vkEndCommandBuffer(sec));

         VkCommandBuffer cmd = vkt_cmd_begin(&r.dev, r.ctx.universal_family);
         record_depth_scene(&r, cmd, &t, pipe, &vb, sec);
         VKT_CHECK(vkt_cmd_submit_wait(&r.dev, r.ctx.universal_family, 0, cmd));
         uint32_t want[GW * GH];
         expect_rects(want, gtu_rgba(0, 0, 0, 255), depth_scene, 3, true);
         CHECK(gtu_check(&t, want, 0, "secondary") == 0);
         vkt_buffer_destroy(&r.dev, &vb);
      }
      gtu_target_destroy(&r.dev, &t);
   }
   if (sec)
      vkFreeCommandBuffers(r.dev.device, r.dev.pools[r.ctx.universal_family], 1, &sec);
   vkDestroyPipeline(r.dev.device, pipe, NULL);
   rig_teardown(&r);
}

/* The depth scene through a render pass made and run with the 2KHR
 * commands, and through dynamic rendering: the same image. */
TEST_CASE(render_pass_and_dynamic_rendering_draw_the_same_image)
{
   struct rig r;
   if (!rig_setup(&r))
      return;
   PFN_vkCreateRenderPass2KHR create2 =
       (PFN_vkCreateRenderPass2KHR)vkGetDeviceProcAddr(r.dev.device, "vkCreateRenderPass2KHR");
   PFN_vkCmdBeginRenderPass2KHR begin2 =
       (PFN_vkCmdBeginRenderPass2KHR)vkGetDeviceProcAddr(r.dev.device, "vkCmdBeginRenderPass2KHR");
   PFN_vkCmdEndRenderPass2KHR end2 =
       (PFN_vkCmdEndRenderPass2KHR)vkGetDeviceProcAddr(r.dev.device, "vkCmdEndRenderPass2KHR");
   if (!create2 || !begin2 || !end2) {
      test_fail(__FILE__, __LINE__, "a 2KHR render pass command is NULL");
      rig_teardown(&r);
      return;
   }
   VkAttachmentDescription2 att[2] = {
       {VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2, NULL, 0, VK_FORMAT_R8G8B8A8_UNORM,
        VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE,
        VK_ATTACHMENT_LOAD_OP_DONT_CARE, VK_ATTACHMENT_STORE_OP_DONT_CARE,
        VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL},
       {VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2, NULL, 0, VK_FORMAT_D32_SFLOAT,
        VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE,
        VK_ATTACHMENT_LOAD_OP_DONT_CARE, VK_ATTACHMENT_STORE_OP_DONT_CARE,
        VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL},
   };
   VkAttachmentReference2 cref = {VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, NULL, 0,
                                  VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                  VK_IMAGE_ASPECT_COLOR_BIT};
   VkAttachmentReference2 zref = {VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, NULL, 1,
                                  VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
                                  VK_IMAGE_ASPECT_DEPTH_BIT};
   VkSubpassDescription2 sp = {
       .sType = VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2,
       .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
       .colorAttachmentCount = 1,
       .pColorAttachments = &cref,
       .pDepthStencilAttachment = &zref,
   };
   VkRenderPassCreateInfo2 rci = {
       .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2,
       .attachmentCount = 2,
       .pAttachments = att,
       .subpassCount = 1,
       .pSubpasses = &sp,
   };
   VkRenderPass pass = VK_NULL_HANDLE;
   VKT_CHECK(create2(r.dev.device, &rci, NULL, &pass));
   struct gtu_pipeline_desc dp = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                  .ds = &depth_less,
                                  .layout = r.layout,
                                  .pass = pass};
   VkPipeline p_pass = VK_NULL_HANDLE;
   VKT_CHECK(gtu_pipeline(&r.dev, &dp, &p_pass));
   struct gtu_pipeline_desc dd = {.ds = &depth_less};
   VkPipeline p_dyn = dyn_pipeline(&r, &dd, 1, RGBA8, VK_FORMAT_D32_SFLOAT, VK_FORMAT_UNDEFINED);
   struct gtarget a, b;
   struct vkt_buffer vb;
   if (pass && p_pass && p_dyn && gtu_target_create(&r.dev, VK_FORMAT_D32_SFLOAT, &a) &&
       gtu_target_create(&r.dev, VK_FORMAT_D32_SFLOAT, &b)) {
      VkImageView views[2] = {a.color.view, a.depth_view};
      VkFramebufferCreateInfo fci = {
          .sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
          .renderPass = pass,
          .attachmentCount = 2,
          .pAttachments = views,
          .width = GW,
          .height = GH,
          .layers = 1,
      };
      VkFramebuffer fb = VK_NULL_HANDLE;
      VKT_CHECK(vkCreateFramebuffer(r.dev.device, &fci, NULL, &fb));
      if (fb && rect_buffer(&r, depth_scene, 3, &vb)) {
         VkCommandBuffer cmd = vkt_cmd_begin(&r.dev, r.ctx.universal_family);
         VkClearValue clear[2] = {{.color = {{0, 0, 0, 1}}}, {.depthStencil = {1.0f, 0}}};
         VkRenderPassBeginInfo rbi = {
             .sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
             .renderPass = pass,
             .framebuffer = fb,
             .renderArea = {{0, 0}, {GW, GH}},
             .clearValueCount = 2,
             .pClearValues = clear,
         };
         VkSubpassBeginInfo sbi = {.sType = VK_STRUCTURE_TYPE_SUBPASS_BEGIN_INFO,
                                   .contents = VK_SUBPASS_CONTENTS_INLINE};
         VkSubpassEndInfo sei = {.sType = VK_STRUCTURE_TYPE_SUBPASS_END_INFO};
         begin2(cmd, &rbi, &sbi);
         gtu_bind_vertex_buffer(cmd, &vb);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p_pass);
         vkCmdDraw(cmd, 18, 1, 0, 0);
         end2(cmd, &sei);
         read_color(cmd, &a);
         record_depth_scene(&r, cmd, &b, p_dyn, &vb, VK_NULL_HANDLE);
         VKT_CHECK(vkt_cmd_submit_wait(&r.dev, r.ctx.universal_family, 0, cmd));
         uint32_t want[GW * GH];
         expect_rects(want, gtu_rgba(0, 0, 0, 255), depth_scene, 3, true);
         CHECK(gtu_check(&a, want, 0, "render pass") == 0);
         CHECK(vkt_compare_words(a.readback.map, b.readback.map, GW * GH * 4,
                                 "dynamic rendering against the render pass") == 0);
         vkt_buffer_destroy(&r.dev, &vb);
      }
      vkDestroyFramebuffer(r.dev.device, fb, NULL);
      gtu_target_destroy(&r.dev, &b);
      gtu_target_destroy(&r.dev, &a);
   }
   vkDestroyPipeline(r.dev.device, p_pass, NULL);
   vkDestroyPipeline(r.dev.device, p_dyn, NULL);
   vkDestroyRenderPass(r.dev.device, pass, NULL);
   rig_teardown(&r);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
