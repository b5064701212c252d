/* The graphics features vkppu reports, each on a device that enables it
 * (api.graphics_features on vkppu, lvp.graphics_features on lavapipe):
 * multiDrawIndirect with drawIndirectFirstInstance, fullDrawIndexUint32,
 * depthClamp, independentBlend, occlusionQueryPrecise, logicOp,
 * dualSrcBlend, largePoints, wideLines, fillModeNonSolid, depthBiasClamp
 * (and depthBounds, on its own device), VK_KHR_draw_indirect_count and
 * VK_EXT_vertex_attribute_divisor, vertexPipelineStoresAndAtomics and
 * fragmentStoresAndAtomics.
 * Exact pixels as in test_graphics.c. */
#include "graphics_test_util.h"

static const float BLACK[4] = {0, 0, 0, 0};
static const float RED[4] = {1, 0, 0, 1};
static const float GREEN[4] = {0, 1, 0, 1};

/* A context and a device with the graphics features enabled; false (case
 * failed) when the device lacks one. */
static bool setup(struct vkt_context *ctx, struct vkt_device *dev)
{
   memset(dev, 0, sizeof(*dev));
   if (!vkt_context_create(ctx))
      return false;
   VkPhysicalDeviceFeatures have;
   vkGetPhysicalDeviceFeatures(ctx->physical_device, &have);
   CHECK(have.multiDrawIndirect && have.drawIndirectFirstInstance && have.fullDrawIndexUint32 &&
         have.depthClamp && have.independentBlend && have.occlusionQueryPrecise && have.logicOp &&
         have.dualSrcBlend && have.depthBiasClamp && have.vertexPipelineStoresAndAtomics &&
         have.fragmentStoresAndAtomics);
   VkPhysicalDeviceFeatures want = {
       .multiDrawIndirect = VK_TRUE,
       .drawIndirectFirstInstance = VK_TRUE,
       .fullDrawIndexUint32 = VK_TRUE,
       .depthClamp = VK_TRUE,
       .independentBlend = VK_TRUE,
       .occlusionQueryPrecise = VK_TRUE,
       .logicOp = VK_TRUE,
       .dualSrcBlend = VK_TRUE,
       .largePoints = VK_TRUE,
       .wideLines = VK_TRUE,
       .fillModeNonSolid = VK_TRUE,
       .depthBiasClamp = VK_TRUE,
       .vertexPipelineStoresAndAtomics = VK_TRUE,
       .fragmentStoresAndAtomics = VK_TRUE,
   };
   static const char *const extensions[] = {VK_KHR_DRAW_INDIRECT_COUNT_EXTENSION_NAME,
                                            VK_EXT_VERTEX_ATTRIBUTE_DIVISOR_EXTENSION_NAME};
   VkPhysicalDeviceVertexAttributeDivisorFeaturesEXT divisor = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_FEATURES_EXT,
       .vertexAttributeInstanceRateDivisor = VK_TRUE,
       .vertexAttributeInstanceRateZeroDivisor = VK_TRUE,
   };
   struct vkt_device_desc desc = {.features = &want,
                                  .feature_chain = &divisor,
                                  .extensions = extensions,
                                  .extension_count = 2};
   VkResult r = vkt_device_create(ctx, &desc, dev);
   if (r != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "vkCreateDevice -> %s", vkt_result_name(r));
      vkt_context_destroy(ctx);
      return false;
   }
   return true;
}

/* Three indirect draws of one record each 20 bytes apart, instances 0, 1
 * and 2 by firstInstance (each 8 pixels lower), then two indexed indirect
 * draws. */
TEST_CASE(multi_draw_indirect_with_first_instance)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!setup(&ctx, &dev))
      return;
   struct gtarget t;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   if (gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &t)) {
      struct gtu_pipeline_desc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                    .instanced = true,
                                    .layout = layout,
                                    .pass = t.pass};
      VkPipeline pipe;
      VKT_CHECK(gtu_pipeline(&dev, &d, &pipe));
      struct gvertex v[12];
      gtu_rect(&v[0], 2, 2, 6, 6, 0.5f, GREEN);
      gtu_rect(&v[6], 20, 2, 24, 6, 0.5f, RED);
      const float offsets[6] = {0, 0, 0, 0.5f, 0, 1.0f};
      const uint16_t idx[6] = {0, 1, 2, 3, 4, 5};
      uint32_t args[5 * 5] = {0};
      /* vkCmdDrawIndirect records at 0, 20, 40: {6, 1, 0, i}. */
      for (uint32_t i = 0; i < 3; i++) {
         args[5 * i + 0] = 6;
         args[5 * i + 1] = 1;
         args[5 * i + 3] = i;
      }
      /* Indexed records at 60 and 80: {6, 1, 0, vertexOffset 6, i + 1}. */
      for (uint32_t i = 0; i < 2; i++) {
         args[15 + 5 * i + 0] = 6;
         args[15 + 5 * i + 1] = 1;
         args[15 + 5 * i + 3] = 6;
         args[15 + 5 * i + 4] = i + 1;
      }
      struct vkt_buffer vb, ob, ib, ab;
      if (pipe && gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb) &&
          gtu_data_buffer(&dev, offsets, sizeof(offsets), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &ob) &&
          gtu_data_buffer(&dev, idx, sizeof(idx), VK_BUFFER_USAGE_INDEX_BUFFER_BIT, &ib) &&
          gtu_data_buffer(&dev, args, sizeof(args), VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, &ab)) {
         VkCommandBuffer cmd = gtu_begin(&dev, &t, BLACK, 1, 0);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
         VkBuffer bufs[2] = {vb.buffer, ob.buffer};
         VkDeviceSize offs[2] = {0, 0};
         vkCmdBindVertexBuffers(cmd, 0, 2, bufs, offs);
         vkCmdBindIndexBuffer(cmd, ib.buffer, 0, VK_INDEX_TYPE_UINT16);
         vkCmdDrawIndirect(cmd, ab.buffer, 0, 3, 20);
         vkCmdDrawIndexedIndirect(cmd, ab.buffer, 60, 2, 20);
         if (gtu_end_read(&dev, &t, cmd)) {
            uint32_t want[GW * GH] = {0};
            for (unsigned i = 0; i < 3; i++)
               gtu_fill(want, 2, 2 + 8 * i, 6, 6 + 8 * i, gtu_rgba(0, 255, 0, 255));
            for (unsigned i = 1; i < 3; i++)
               gtu_fill(want, 20, 2 + 8 * i, 24, 6 + 8 * i, gtu_rgba(255, 0, 0, 255));
            CHECK(gtu_check(&t, want, 0, "multi-draw indirect") == 0);
         }
         vkt_buffer_destroy(&dev, &vb);
         vkt_buffer_destroy(&dev, &ob);
         vkt_buffer_destroy(&dev, &ib);
         vkt_buffer_destroy(&dev, &ab);
      }
      vkDestroyPipeline(dev.device, pipe, NULL);
      gtu_target_destroy(&dev, &t);
   }
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* Index values above 2^24 with a negative vertexOffset bringing them back
 * to the vertices. */
TEST_CASE(full_32_bit_index_values)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!setup(&ctx, &dev))
      return;
   struct gtarget t;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   if (gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &t)) {
      struct gtu_pipeline_desc d = {
          .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, .layout = layout, .pass = t.pass};
      VkPipeline pipe;
      VKT_CHECK(gtu_pipeline(&dev, &d, &pipe));
      struct gvertex v[6];
      gtu_rect(v, 8, 8, 24, 20, 0.5f, RED);
      uint32_t idx[6];
      for (uint32_t i = 0; i < 6; i++)
         idx[i] = 0x7f000000u + i;
      struct vkt_buffer vb, ib;
      if (pipe && gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb) &&
          gtu_data_buffer(&dev, idx, sizeof(idx), VK_BUFFER_USAGE_INDEX_BUFFER_BIT, &ib)) {
         VkCommandBuffer cmd = gtu_begin(&dev, &t, BLACK, 1, 0);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
         VkDeviceSize off = 0;
         vkCmdBindVertexBuffers(cmd, 0, 1, &vb.buffer, &off);
         vkCmdBindIndexBuffer(cmd, ib.buffer, 0, VK_INDEX_TYPE_UINT32);
         vkCmdDrawIndexed(cmd, 6, 1, 0, -0x7f000000, 0);
         if (gtu_end_read(&dev, &t, cmd)) {
            uint32_t want[GW * GH] = {0};
            gtu_fill(want, 8, 8, 24, 20, gtu_rgba(255, 0, 0, 255));
            CHECK(gtu_check(&t, want, 0, "32-bit indices") == 0);
         }
         vkt_buffer_destroy(&dev, &vb);
         vkt_buffer_destroy(&dev, &ib);
      }
      vkDestroyPipeline(dev.device, pipe, NULL);
      gtu_target_destroy(&dev, &t);
   }
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* A rectangle beyond the far plane (z = 1.5) is clipped away without depth
 * clamp and drawn at depth 1.0 with it (LESS_OR_EQUAL against a 1.0
 * clear). */
TEST_CASE(depth_clamp_keeps_primitives_beyond_the_far_plane)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!setup(&ctx, &dev))
      return;
   struct gtarget t;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   if (gtu_target_create(&dev, VK_FORMAT_D32_SFLOAT, &t)) {
      VkPipelineDepthStencilStateCreateInfo ds = {
          .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
          .depthTestEnable = VK_TRUE,
          .depthWriteEnable = VK_TRUE,
          .depthCompareOp = VK_COMPARE_OP_LESS_OR_EQUAL,
      };
      VkPipeline p[2];
      for (unsigned k = 0; k < 2; k++) {
         struct gtu_pipeline_desc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                       .ds = &ds,
                                       .depth_clamp = k == 1,
                                       .layout = layout,
                                       .pass = t.pass};
         VKT_CHECK(gtu_pipeline(&dev, &d, &p[k]));
      }
      struct gvertex v[12];
      gtu_rect(&v[0], 0, 0, 16, 32, 1.5f, RED);
      gtu_rect(&v[6], 16, 0, 32, 32, 1.5f, GREEN);
      struct vkt_buffer vb;
      if (p[0] && p[1] &&
          gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
         VkCommandBuffer cmd = gtu_begin(&dev, &t, BLACK, 1.0f, 0);
         VkDeviceSize off = 0;
         vkCmdBindVertexBuffers(cmd, 0, 1, &vb.buffer, &off);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p[0]);
         vkCmdDraw(cmd, 6, 1, 0, 0);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p[1]);
         vkCmdDraw(cmd, 6, 1, 6, 0);
         if (gtu_end_read(&dev, &t, cmd)) {
            uint32_t want[GW * GH] = {0};
            gtu_fill(want, 16, 0, 32, 32, gtu_rgba(0, 255, 0, 255));
            CHECK(gtu_check(&t, want, 0, "depth clamp") == 0);
         }
         vkt_buffer_destroy(&dev, &vb);
      }
      vkDestroyPipeline(dev.device, p[0], NULL);
      vkDestroyPipeline(dev.device, p[1], NULL);
      gtu_target_destroy(&dev, &t);
   }
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* VK_EXT_depth_clip_enable: rectangles at z = 1.5 beyond the far plane,
 * one a column: clipped with neither clamp nor the struct, clipped with
 * clamp and depthClipEnable, drawn without clamp and without clipping,
 * drawn with clamp and depthClipEnable off. */
TEST_CASE(depth_clip_is_set_apart_from_depth_clamp)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   memset(&dev, 0, sizeof(dev));
   if (!vkt_context_create(&ctx))
      return;
   VkPhysicalDeviceDepthClipEnableFeaturesEXT clip = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLIP_ENABLE_FEATURES_EXT};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &clip};
   vkGetPhysicalDeviceFeatures2(ctx.physical_device, &f2);
   if (!clip.depthClipEnable || !f2.features.depthClamp) {
      if (ctx.is_vkppu)
         CHECK_MSG(false, "vkppu lacks depthClipEnable or depthClamp");
      else
         vkt_skip("depthClipEnable not supported");
      vkt_context_destroy(&ctx);
      return;
   }
   static const char *const extensions[] = {VK_EXT_DEPTH_CLIP_ENABLE_EXTENSION_NAME};
   const VkPhysicalDeviceFeatures core = {.depthClamp = VK_TRUE};
   struct vkt_device_desc desc = {
       .features = &core, .feature_chain = &clip, .extensions = extensions, .extension_count = 1};
   vkt_context_destroy(&ctx); /* gtu_case_begin makes the case's own */
   struct gtarget t;
   if (!gtu_case_begin(&ctx, &dev, &desc, VK_FORMAT_UNDEFINED, &t))
      return;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   const VkPipelineRasterizationDepthClipStateCreateInfoEXT clip_on = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_DEPTH_CLIP_STATE_CREATE_INFO_EXT,
       .depthClipEnable = VK_TRUE};
   const VkPipelineRasterizationDepthClipStateCreateInfoEXT clip_off = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_DEPTH_CLIP_STATE_CREATE_INFO_EXT,
       .depthClipEnable = VK_FALSE};
   const struct {
      bool clamp;
      const void *next;
   } variants[4] = {{false, NULL}, {true, &clip_on}, {false, &clip_off}, {true, &clip_off}};
   VkPipeline p[4];
   for (unsigned k = 0; k < 4; k++) {
      struct gtu_pipeline_desc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                    .depth_clamp = variants[k].clamp,
                                    .raster_next = variants[k].next,
                                    .layout = layout,
                                    .pass = t.pass};
      VKT_CHECK(gtu_pipeline(&dev, &d, &p[k]));
   }
   struct gvertex v[24];
   const float *colour[4] = {RED, RED, GREEN, GREEN};
   for (unsigned k = 0; k < 4; k++)
      gtu_rect(&v[6 * k], 8.0f * (float)k, 0, 8.0f * (float)(k + 1), 32, 1.5f, colour[k]);
   struct vkt_buffer vb;
   if (p[0] && p[1] && p[2] && p[3] &&
       gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
      VkCommandBuffer cmd = gtu_begin(&dev, &t, BLACK, 1.0f, 0);
      gtu_bind_vertex_buffer(cmd, &vb);
      for (unsigned k = 0; k < 4; k++) {
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p[k]);
         vkCmdDraw(cmd, 6, 1, 6 * k, 0);
      }
      if (gtu_end_read(&dev, &t, cmd)) {
         uint32_t want[GW * GH] = {0};
         gtu_fill(want, 16, 0, 32, 32, gtu_rgba(0, 255, 0, 255));
         CHECK(gtu_check(&t, want, 0, "depth clip") == 0);
      }
      vkt_buffer_destroy(&dev, &vb);
   }
   for (unsigned k = 0; k < 4; k++)
      vkDestroyPipeline(dev.device, p[k], NULL);
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   gtu_case_end(&ctx, &dev, &t);
}

/* Two colour attachments with their own blend state: additive on the
 * first, no blending and a red-only write mask on the second. */
TEST_CASE(independent_blend_per_attachment)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!setup(&ctx, &dev))
      return;
   struct gtarget a, b;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   if (gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &a) &&
       gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &b)) {
      VkAttachmentDescription att = {0,
                                     VK_FORMAT_R8G8B8A8_UNORM,
                                     VK_SAMPLE_COUNT_1_BIT,
                                     VK_ATTACHMENT_LOAD_OP_CLEAR,
                                     VK_ATTACHMENT_STORE_OP_STORE,
                                     VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                     VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                     VK_IMAGE_LAYOUT_UNDEFINED,
                                     VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL};
      VkAttachmentDescription atts[2] = {att, att};
      VkAttachmentReference refs[2] = {{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL},
                                       {1, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL}};
      VkSubpassDescription sp = {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
                                 .colorAttachmentCount = 2,
                                 .pColorAttachments = refs};
      VkSubpassDependency dep = {0,
                                 VK_SUBPASS_EXTERNAL,
                                 VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                                 VK_PIPELINE_STAGE_TRANSFER_BIT,
                                 VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                                 VK_ACCESS_TRANSFER_READ_BIT,
                                 0};
      VkRenderPassCreateInfo rci = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
                                    .attachmentCount = 2,
                                    .pAttachments = atts,
                                    .subpassCount = 1,
                                    .pSubpasses = &sp,
                                    .dependencyCount = 1,
                                    .pDependencies = &dep};
      VkRenderPass pass = VK_NULL_HANDLE;
      VKT_CHECK(vkCreateRenderPass(dev.device, &rci, NULL, &pass));
      VkImageView views[2] = {a.color.view, b.color.view};
      VkFramebufferCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
                                     .renderPass = pass,
                                     .attachmentCount = 2,
                                     .pAttachments = views,
                                     .width = GW,
                                     .height = GH,
                                     .layers = 1};
      VkFramebuffer fb = VK_NULL_HANDLE;
      VKT_CHECK(vkCreateFramebuffer(dev.device, &fci, NULL, &fb));
      const VkPipelineColorBlendAttachmentState blend[2] = {
          {VK_TRUE, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD, VK_BLEND_FACTOR_ONE,
           VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD, 0xf},
          {VK_FALSE, 0, 0, 0, 0, 0, 0, VK_COLOR_COMPONENT_R_BIT},
      };
      struct gtu_pipeline_desc d = {.fs = "gfx_two_outputs.frag",
                                    .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                    .blend = blend,
                                    .blend_count = 2,
                                    .layout = layout,
                                    .pass = pass};
      VkPipeline pipe;
      VKT_CHECK(gtu_pipeline(&dev, &d, &pipe));
      const float c[4] = {0.5f, 0.25f, 0.0f, 1.0f};
      struct gvertex v[6];
      gtu_rect(v, 4, 4, 28, 28, 0.5f, c);
      struct vkt_buffer vb;
      if (pipe && fb &&
          gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
         VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
         const float g = 64 / 255.0f;
         VkClearValue clear[2] = {{.color = {{g, g, g, g}}}, {.color = {{g, g, g, g}}}};
         VkRenderPassBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
                                     .renderPass = pass,
                                     .framebuffer = fb,
                                     .renderArea = {{0, 0}, {GW, GH}},
                                     .clearValueCount = 2,
                                     .pClearValues = clear};
         vkCmdBeginRenderPass(cmd, &bi, VK_SUBPASS_CONTENTS_INLINE);
         VkDeviceSize off = 0;
         vkCmdBindVertexBuffers(cmd, 0, 1, &vb.buffer, &off);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
         vkCmdDraw(cmd, 6, 1, 0, 0);
         vkCmdEndRenderPass(cmd);
         VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                                     .imageExtent = {GW, GH, 1}};
         vkCmdCopyImageToBuffer(cmd, a.color.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                a.readback.buffer, 1, &region);
         vkCmdCopyImageToBuffer(cmd, b.color.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                b.readback.buffer, 1, &region);
         vkt_cmd_transfer_to_host_barrier(cmd);
         VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
         uint32_t want[GW * GH];
         gtu_fill(want, 0, 0, GW, GH, gtu_rgba(64, 64, 64, 64));
         gtu_fill(want, 4, 4, 28, 28, gtu_rgba(192, 128, 64, 255));
         CHECK(gtu_check(&a, want, 1, "additive attachment") == 0);
         gtu_fill(want, 0, 0, GW, GH, gtu_rgba(64, 64, 64, 64));
         gtu_fill(want, 4, 4, 28, 28, gtu_rgba(128, 64, 64, 64));
         CHECK(gtu_check(&b, want, 1, "red-only attachment") == 0);
         vkt_buffer_destroy(&dev, &vb);
      }
      vkDestroyPipeline(dev.device, pipe, NULL);
      vkDestroyFramebuffer(dev.device, fb, NULL);
      vkDestroyRenderPass(dev.device, pass, NULL);
      gtu_target_destroy(&dev, &b);
      gtu_target_destroy(&dev, &a);
   }
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* Precise occlusion queries count exactly the samples that pass: a 16x8
 * rectangle passes 128, the same rectangle behind it none. */
TEST_CASE(precise_occlusion_queries_count_passing_samples)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!setup(&ctx, &dev))
      return;
   struct gtarget t;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   if (gtu_target_create(&dev, VK_FORMAT_D32_SFLOAT, &t)) {
      VkPipelineDepthStencilStateCreateInfo ds = {
          .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
          .depthTestEnable = VK_TRUE,
          .depthWriteEnable = VK_TRUE,
          .depthCompareOp = VK_COMPARE_OP_LESS,
      };
      struct gtu_pipeline_desc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                    .ds = &ds,
                                    .layout = layout,
                                    .pass = t.pass};
      VkPipeline pipe;
      VKT_CHECK(gtu_pipeline(&dev, &d, &pipe));
      VkQueryPoolCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                   .queryType = VK_QUERY_TYPE_OCCLUSION,
                                   .queryCount = 2};
      VkQueryPool pool = VK_NULL_HANDLE;
      VKT_CHECK(vkCreateQueryPool(dev.device, &qci, NULL, &pool));
      struct gvertex v[12];
      gtu_rect(&v[0], 4, 4, 20, 12, 0.25f, RED);
      gtu_rect(&v[6], 4, 4, 20, 12, 0.75f, GREEN);
      struct vkt_buffer vb;
      if (pipe && pool &&
          gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
         VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
         vkCmdResetQueryPool(cmd, pool, 0, 2);
         VkClearValue clear[2] = {{.color = {{0, 0, 0, 0}}}, {.depthStencil = {1.0f, 0}}};
         VkRenderPassBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
                                     .renderPass = t.pass,
                                     .framebuffer = t.fb,
                                     .renderArea = {{0, 0}, {GW, GH}},
                                     .clearValueCount = 2,
                                     .pClearValues = clear};
         vkCmdBeginRenderPass(cmd, &bi, VK_SUBPASS_CONTENTS_INLINE);
         VkDeviceSize off = 0;
         vkCmdBindVertexBuffers(cmd, 0, 1, &vb.buffer, &off);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
         for (uint32_t q = 0; q < 2; q++) {
            vkCmdBeginQuery(cmd, pool, q, VK_QUERY_CONTROL_PRECISE_BIT);
            vkCmdDraw(cmd, 6, 1, 6 * q, 0);
            vkCmdEndQuery(cmd, pool, q);
         }
         vkCmdEndRenderPass(cmd);
         VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
         uint64_t results[2] = {~0ull, ~0ull};
         VKT_CHECK(vkGetQueryPoolResults(dev.device, pool, 0, 2, sizeof(results), results, 8,
                                         VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
         CHECK_MSG(results[0] == 128 && results[1] == 0, "samples passed: %llu and %llu",
                   (unsigned long long)results[0], (unsigned long long)results[1]);
         vkt_buffer_destroy(&dev, &vb);
      }
      vkDestroyQueryPool(dev.device, pool, NULL);
      vkDestroyPipeline(dev.device, pipe, NULL);
      gtu_target_destroy(&dev, &t);
   }
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* Logic op XOR on the encoded bits (0x33 ^ 0x55 = 0x66 in every channel
 * of R8G8B8A8_UNORM), and dual-source blending: colour + destination times
 * the second source. */
TEST_CASE(logic_ops_and_dual_source_blending)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!setup(&ctx, &dev))
      return;
   struct gtarget t;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   if (gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &t)) {
      const VkPipelineColorBlendAttachmentState dual = {VK_TRUE,
                                                        VK_BLEND_FACTOR_ONE,
                                                        VK_BLEND_FACTOR_SRC1_COLOR,
                                                        VK_BLEND_OP_ADD,
                                                        VK_BLEND_FACTOR_ONE,
                                                        VK_BLEND_FACTOR_ZERO,
                                                        VK_BLEND_OP_ADD,
                                                        0xf};
      struct gtu_pipeline_desc dd = {.fs = "gfx_dual_source.frag",
                                     .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                     .blend = &dual,
                                     .layout = layout,
                                     .pass = t.pass};
      struct gtu_pipeline_desc dx = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                     .logic_op = VK_LOGIC_OP_XOR,
                                     .layout = layout,
                                     .pass = t.pass};
      VkPipeline pd, px;
      VKT_CHECK(gtu_pipeline(&dev, &dd, &pd));
      VKT_CHECK(gtu_pipeline(&dev, &dx, &px));
      const float k55 = 0x55 / 255.0f, red25[4] = {0.25f, 0, 0, 1};
      const float c55[4] = {k55, k55, k55, k55};
      struct gvertex v[12];
      gtu_rect(&v[0], 0, 0, 16, 32, 0.5f, c55);
      gtu_rect(&v[6], 16, 0, 32, 32, 0.5f, red25);
      struct vkt_buffer vb;
      if (pd && px && gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
         const float k33 = 0x33 / 255.0f, k80 = 128 / 255.0f;
         const float clear_xor[4] = {k33, k33, k33, k33};
         VkCommandBuffer cmd = gtu_begin(&dev, &t, clear_xor, 1, 0);
         VkDeviceSize off = 0;
         vkCmdBindVertexBuffers(cmd, 0, 1, &vb.buffer, &off);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, px);
         vkCmdDraw(cmd, 6, 1, 0, 0);
         /* The right half first gets 128 grey, then the dual-source draw. */
         VkClearAttachment ca = {VK_IMAGE_ASPECT_COLOR_BIT, 0, {.color = {{k80, k80, k80, k80}}}};
         VkClearRect cr = {{{16, 0}, {16, 32}}, 0, 1};
         vkCmdClearAttachments(cmd, 1, &ca, 1, &cr);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pd);
         vkCmdDraw(cmd, 6, 1, 6, 0);
         if (gtu_end_read(&dev, &t, cmd)) {
            uint32_t want[GW * GH];
            gtu_fill(want, 0, 0, 16, 32, gtu_rgba(0x66, 0x66, 0x66, 0x66));
            /* 0.25 + 128/255 * 0.25, 128/255 * 0.5, 128/255 * 0.75; alpha 1. */
            gtu_fill(want, 16, 0, 32, 32, gtu_rgba(96, 64, 96, 255));
            CHECK(gtu_check(&t, want, 1, "logic op and dual source") == 0);
         }
         vkt_buffer_destroy(&dev, &vb);
      }
      vkDestroyPipeline(dev.device, pd, NULL);
      vkDestroyPipeline(dev.device, px, NULL);
      gtu_target_destroy(&dev, &t);
   }
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* Points of gl_PointSize 3 (centred on a pixel centre) and 4 (on a pixel
 * corner) cover 3x3 and 4x4 pixels; a horizontal line of dynamic width 3
 * between pixel-row centres covers three rows. */
TEST_CASE(large_points_and_wide_lines)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!setup(&ctx, &dev))
      return;
   struct gtarget t;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   if (gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &t)) {
      const VkDynamicState dyn = VK_DYNAMIC_STATE_LINE_WIDTH;
      struct gtu_pipeline_desc dp = {.vs = "gfx_point_size.vert",
                                     .topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST,
                                     .layout = layout,
                                     .pass = t.pass};
      struct gtu_pipeline_desc dl = {.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST,
                                     .dynamic = &dyn,
                                     .dynamic_count = 1,
                                     .layout = layout,
                                     .pass = t.pass};
      VkPipeline pp, pl;
      VKT_CHECK(gtu_pipeline(&dev, &dp, &pp));
      VKT_CHECK(gtu_pipeline(&dev, &dl, &pl));
      struct gvertex v[4] = {gvtx(10.5f, 10.5f, 0.3f, RED), gvtx(20, 20, 0.4f, GREEN),
                             gvtx(2, 25.5f, 0.5f, RED), gvtx(12, 25.5f, 0.5f, RED)};
      struct vkt_buffer vb;
      if (pp && pl && gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
         VkCommandBuffer cmd = gtu_begin(&dev, &t, BLACK, 1, 0);
         VkDeviceSize off = 0;
         vkCmdBindVertexBuffers(cmd, 0, 1, &vb.buffer, &off);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pp);
         vkCmdDraw(cmd, 2, 1, 0, 0);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pl);
         vkCmdSetLineWidth(cmd, 3.0f);
         vkCmdDraw(cmd, 2, 1, 2, 0);
         if (gtu_end_read(&dev, &t, cmd)) {
            uint32_t want[GW * GH] = {0};
            gtu_fill(want, 9, 9, 12, 12, gtu_rgba(255, 0, 0, 255));
            gtu_fill(want, 18, 18, 22, 22, gtu_rgba(0, 255, 0, 255));
            gtu_fill(want, 2, 24, 12, 27, gtu_rgba(255, 0, 0, 255));
            CHECK(gtu_check(&t, want, 0, "large points and wide lines") == 0);
         }
         vkt_buffer_destroy(&dev, &vb);
      }
      vkDestroyPipeline(dev.device, pp, NULL);
      vkDestroyPipeline(dev.device, pl, NULL);
      gtu_target_destroy(&dev, &t);
   }
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* The depth bounds test on the stored depth (dynamic bounds 0.2..0.3): a
 * draw with the depth test off lands only where an earlier draw stored
 * 0.25. Lavapipe has no depthBounds, so there the case skips. */
TEST_CASE(depth_bounds_test_the_stored_depth)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   memset(&dev, 0, sizeof(dev));
   if (!vkt_context_create(&ctx))
      return;
   VkPhysicalDeviceFeatures have;
   vkGetPhysicalDeviceFeatures(ctx.physical_device, &have);
   if (!have.depthBounds) {
      vkt_skip("depthBounds is not supported");
      vkt_context_destroy(&ctx);
      return;
   }
   VkPhysicalDeviceFeatures want = {.depthBounds = VK_TRUE};
   struct vkt_device_desc desc = {.features = &want};
   VKT_CHECK(vkt_device_create(&ctx, &desc, &dev));
   struct gtarget t;
   VkPipelineLayout layout = dev.device ? gtu_empty_layout(&dev) : VK_NULL_HANDLE;
   if (dev.device && gtu_target_create(&dev, VK_FORMAT_D32_SFLOAT, &t)) {
      VkPipelineDepthStencilStateCreateInfo ds[2] = {
          {.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
           .depthTestEnable = VK_TRUE,
           .depthWriteEnable = VK_TRUE,
           .depthCompareOp = VK_COMPARE_OP_LESS},
          {.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
           .depthBoundsTestEnable = VK_TRUE},
      };
      const VkDynamicState dyn = VK_DYNAMIC_STATE_DEPTH_BOUNDS;
      struct gtu_pipeline_desc d0 = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                     .ds = &ds[0],
                                     .layout = layout,
                                     .pass = t.pass};
      struct gtu_pipeline_desc d1 = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                     .ds = &ds[1],
                                     .dynamic = &dyn,
                                     .dynamic_count = 1,
                                     .layout = layout,
                                     .pass = t.pass};
      VkPipeline p0, p1;
      VKT_CHECK(gtu_pipeline(&dev, &d0, &p0));
      VKT_CHECK(gtu_pipeline(&dev, &d1, &p1));
      struct gvertex v[12];
      gtu_rect(&v[0], 0, 0, 16, 32, 0.25f, RED);
      gtu_rect(&v[6], 0, 0, 32, 32, 0.9f, GREEN);
      struct vkt_buffer vb;
      if (p0 && p1 && gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
         VkCommandBuffer cmd = gtu_begin(&dev, &t, BLACK, 1.0f, 0);
         VkDeviceSize off = 0;
         vkCmdBindVertexBuffers(cmd, 0, 1, &vb.buffer, &off);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p0);
         vkCmdDraw(cmd, 6, 1, 0, 0);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p1);
         vkCmdSetDepthBounds(cmd, 0.2f, 0.3f);
         vkCmdDraw(cmd, 6, 1, 6, 0);
         if (gtu_end_read(&dev, &t, cmd)) {
            uint32_t want_px[GW * GH] = {0};
            gtu_fill(want_px, 0, 0, 16, 32, gtu_rgba(0, 255, 0, 255));
            CHECK(gtu_check(&t, want_px, 0, "depth bounds") == 0);
         }
         vkt_buffer_destroy(&dev, &vb);
      }
      vkDestroyPipeline(dev.device, p0, NULL);
      vkDestroyPipeline(dev.device, p1, NULL);
      gtu_target_destroy(&dev, &t);
   }
   if (layout)
      vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* Polygon mode POINT draws a triangle's three vertices (at pixel centres:
 * exactly three pixels); LINE draws its edges: the axis-aligned edges
 * between pixel centres light their rows and columns, the inside and the
 * outside stay dark (the diagonal's own pixels are not checked: where a
 * 45-degree line's pixels fall is the implementation's choice). */
TEST_CASE(polygon_modes_point_and_line)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!setup(&ctx, &dev))
      return;
   struct gtarget t;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   if (gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &t)) {
      VkPipeline p[2];
      const VkPolygonMode modes[2] = {VK_POLYGON_MODE_POINT, VK_POLYGON_MODE_LINE};
      for (unsigned k = 0; k < 2; k++) {
         struct gtu_pipeline_desc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                       .polygon_mode = modes[k],
                                       .layout = layout,
                                       .pass = t.pass};
         VKT_CHECK(gtu_pipeline(&dev, &d, &p[k]));
      }
      struct gvertex v[3] = {gvtx(4.5f, 4.5f, 0.5f, RED), gvtx(24.5f, 4.5f, 0.5f, RED),
                             gvtx(4.5f, 24.5f, 0.5f, RED)};
      struct vkt_buffer vb;
      if (p[0] && p[1] &&
          gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
         for (unsigned k = 0; k < 2; k++) {
            VkCommandBuffer cmd = gtu_begin(&dev, &t, BLACK, 1, 0);
            VkDeviceSize off = 0;
            vkCmdBindVertexBuffers(cmd, 0, 1, &vb.buffer, &off);
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p[k]);
            vkCmdDraw(cmd, 3, 1, 0, 0);
            if (!gtu_end_read(&dev, &t, cmd))
               continue;
            const uint32_t *got = t.readback.map, lit = gtu_rgba(255, 0, 0, 255);
            if (k == 0) {
               uint32_t want[GW * GH] = {0};
               want[4 * GW + 4] = want[4 * GW + 24] = want[24 * GW + 4] = lit;
               CHECK(gtu_check(&t, want, 0, "polygon mode POINT") == 0);
               continue;
            }
            unsigned bad = 0;
            for (unsigned i = 6; i < 22; i++)
               bad += (got[4 * GW + i] != lit) + (got[i * GW + 4] != lit);
            for (unsigned y = 0; y < GH; y++)
               for (unsigned x = 0; x < GW; x++) {
                  bool inside = x > 5 && y > 5 && x + y < 24;
                  bool outside = x + y > 32 || x < 3 || y < 3 || x > 26 || y > 26;
                  if ((inside || outside) && got[y * GW + x] != 0)
                     bad++;
               }
            CHECK_MSG(bad == 0, "polygon mode LINE: %u pixels wrong", bad);
         }
         vkt_buffer_destroy(&dev, &vb);
      }
      vkDestroyPipeline(dev.device, p[0], NULL);
      vkDestroyPipeline(dev.device, p[1], NULL);
      gtu_target_destroy(&dev, &t);
   }
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* VK_KHR_draw_indirect_count: the count is read when the draw executes.
 * Four records {6, 1, 0, i} (instance i lands 8 pixels lower each);
 * count 2 with maxDrawCount 3 draws two, count 9 with maxDrawCount 3 draws
 * three (the bound wins), and an indexed draw with count 0 draws nothing.
 * The counts are written after recording, so only a driver that reads them
 * at execution gets the pixels right. */
TEST_CASE(draw_indirect_count)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!setup(&ctx, &dev))
      return;
   struct gtarget t;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   if (gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &t)) {
      struct gtu_pipeline_desc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                    .instanced = true,
                                    .layout = layout,
                                    .pass = t.pass};
      VkPipeline pipe;
      VKT_CHECK(gtu_pipeline(&dev, &d, &pipe));
      struct gvertex v[12];
      gtu_rect(&v[0], 2, 2, 6, 6, 0.5f, GREEN);
      gtu_rect(&v[6], 20, 2, 24, 6, 0.5f, RED);
      const float offsets[8] = {0, 0, 0, 0.5f, 0, 1.0f, 0, 1.5f};
      const uint16_t idx[6] = {0, 1, 2, 3, 4, 5};
      uint32_t args[4 * 4] = {0};
      for (uint32_t i = 0; i < 4; i++) {
         args[4 * i + 0] = 6;
         args[4 * i + 1] = 1;
         args[4 * i + 3] = i;
      }
      /* An indexed record: the red square, which must never appear. */
      const uint32_t indexed_args[5] = {6, 1, 0, 6, 0};
      struct vkt_buffer vb, ob, ib, ab, xb, cb;
      if (pipe && gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb) &&
          gtu_data_buffer(&dev, offsets, sizeof(offsets), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &ob) &&
          gtu_data_buffer(&dev, idx, sizeof(idx), VK_BUFFER_USAGE_INDEX_BUFFER_BIT, &ib) &&
          gtu_data_buffer(&dev, args, sizeof(args), VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, &ab) &&
          gtu_data_buffer(&dev, indexed_args, sizeof(indexed_args),
                          VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, &xb)) {
         const uint32_t zeros[4] = {0};
         if (gtu_data_buffer(&dev, zeros, sizeof(zeros), VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                             &cb)) {
            for (unsigned k = 0; k < 2; k++) {
               VkCommandBuffer cmd = gtu_begin(&dev, &t, BLACK, 1, 0);
               vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
               VkBuffer bufs[2] = {vb.buffer, ob.buffer};
               VkDeviceSize offs[2] = {0, 0};
               vkCmdBindVertexBuffers(cmd, 0, 2, bufs, offs);
               vkCmdBindIndexBuffer(cmd, ib.buffer, 0, VK_INDEX_TYPE_UINT16);
               vkCmdDrawIndirectCountKHR(cmd, ab.buffer, 0, cb.buffer, 4 * k, 3, 16);
               vkCmdDrawIndexedIndirectCountKHR(cmd, xb.buffer, 0, cb.buffer, 8, 1, 20);
               /* Counts written after recording: 2, then 9 (bounded to 3). */
               uint32_t *counts = cb.map;
               counts[0] = 2;
               counts[1] = 9;
               counts[2] = 0;
               if (gtu_end_read(&dev, &t, cmd)) {
                  uint32_t want[GW * GH] = {0};
                  for (unsigned i = 0; i < 2 + k; i++)
                     gtu_fill(want, 2, 2 + 8 * i, 6, 6 + 8 * i, gtu_rgba(0, 255, 0, 255));
                  CHECK(gtu_check(&t, want, 0, k ? "count 9, max 3" : "count 2, max 3") == 0);
               }
            }
            vkt_buffer_destroy(&dev, &cb);
         }
         vkt_buffer_destroy(&dev, &vb);
         vkt_buffer_destroy(&dev, &ob);
         vkt_buffer_destroy(&dev, &ib);
         vkt_buffer_destroy(&dev, &ab);
         vkt_buffer_destroy(&dev, &xb);
      }
      vkDestroyPipeline(dev.device, pipe, NULL);
      gtu_target_destroy(&dev, &t);
   }
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* depthBiasClamp on D16: a flat rectangle at z 0.5 with a constant bias of
 * 2000 units (about 0.03: r is 2^-16 for a 16-bit format) is stored at
 * 0.5 + 0.001 with a clamp of 0.001 and at about 0.53 without one (left and
 * right halves). A second rectangle at z 0.51 with LESS then fails where
 * the clamp held the bias down and passes where it did not. A slope factor
 * changes nothing on a flat rectangle (m = 0). */
TEST_CASE(depth_bias_clamp)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!setup(&ctx, &dev))
      return;
   struct gtarget t;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   if (gtu_target_create(&dev, VK_FORMAT_D16_UNORM, &t)) {
      VkPipelineDepthStencilStateCreateInfo ds = {
          .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
          .depthTestEnable = VK_TRUE,
          .depthWriteEnable = VK_TRUE,
          .depthCompareOp = VK_COMPARE_OP_LESS,
      };
      const float clamped[3] = {2000.0f, 0.001f, 4.0f}, unclamped[3] = {2000.0f, 0.0f, 4.0f};
      const float *bias[3] = {clamped, unclamped, NULL};
      VkPipeline p[3];
      for (unsigned k = 0; k < 3; k++) {
         struct gtu_pipeline_desc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                       .ds = &ds,
                                       .depth_bias = bias[k],
                                       .layout = layout,
                                       .pass = t.pass};
         VKT_CHECK(gtu_pipeline(&dev, &d, &p[k]));
      }
      struct gvertex v[18];
      gtu_rect(&v[0], 0, 0, 16, 32, 0.5f, RED);
      gtu_rect(&v[6], 16, 0, 32, 32, 0.5f, RED);
      gtu_rect(&v[12], 0, 0, 32, 32, 0.51f, GREEN);
      struct vkt_buffer vb;
      if (p[0] && p[1] && p[2] &&
          gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
         VkCommandBuffer cmd = gtu_begin(&dev, &t, BLACK, 1.0f, 0);
         VkDeviceSize off = 0;
         vkCmdBindVertexBuffers(cmd, 0, 1, &vb.buffer, &off);
         for (unsigned k = 0; k < 3; k++) {
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p[k]);
            vkCmdDraw(cmd, 6, 1, 6 * k, 0);
         }
         if (gtu_end_read(&dev, &t, cmd)) {
            uint32_t want[GW * GH] = {0};
            gtu_fill(want, 0, 0, 16, 32, gtu_rgba(255, 0, 0, 255));
            gtu_fill(want, 16, 0, 32, 32, gtu_rgba(0, 255, 0, 255));
            CHECK(gtu_check(&t, want, 0, "depth bias clamp") == 0);
         }
         vkt_buffer_destroy(&dev, &vb);
      }
      for (unsigned k = 0; k < 3; k++)
         vkDestroyPipeline(dev.device, p[k], NULL);
      gtu_target_destroy(&dev, &t);
   }
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* VK_EXT_vertex_attribute_divisor on the per-instance offset binding
 * (offsets 8 pixels apart): divisor 2 with 4 instances from 0 uses offsets
 * 0, 0, 1, 1 (green, left); divisor 0 with 3 instances from 2 uses offset 2
 * only (red, right); divisor 2 with 4 instances from 2 uses 2, 2, 3, 3
 * (green, middle). With divisor 1 every column would have one square per
 * instance. */
TEST_CASE(vertex_attribute_divisor)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!setup(&ctx, &dev))
      return;
   struct gtarget t;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   if (gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &t)) {
      VkPipeline p[2];
      for (unsigned k = 0; k < 2; k++) {
         const VkVertexInputBindingDivisorDescriptionEXT div = {1, k == 0 ? 2u : 0u};
         const VkPipelineVertexInputDivisorStateCreateInfoEXT dci = {
             .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT,
             .vertexBindingDivisorCount = 1,
             .pVertexBindingDivisors = &div,
         };
         struct gtu_pipeline_desc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                       .instanced = true,
                                       .vertex_input_next = &dci,
                                       .layout = layout,
                                       .pass = t.pass};
         VKT_CHECK(gtu_pipeline(&dev, &d, &p[k]));
      }
      struct gvertex v[18];
      gtu_rect(&v[0], 2, 2, 6, 6, 0.5f, GREEN);
      gtu_rect(&v[6], 20, 2, 24, 6, 0.5f, RED);
      gtu_rect(&v[12], 12, 2, 16, 6, 0.5f, GREEN);
      const float offsets[12] = {0, 0, 0, 0.5f, 0, 1.0f, 0, 1.5f, 0, 2.0f, 0, 2.5f};
      struct vkt_buffer vb, ob;
      if (p[0] && p[1] &&
          gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb) &&
          gtu_data_buffer(&dev, offsets, sizeof(offsets), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &ob)) {
         VkCommandBuffer cmd = gtu_begin(&dev, &t, BLACK, 1, 0);
         VkBuffer bufs[2] = {vb.buffer, ob.buffer};
         VkDeviceSize offs[2] = {0, 0};
         vkCmdBindVertexBuffers(cmd, 0, 2, bufs, offs);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p[0]);
         vkCmdDraw(cmd, 6, 4, 0, 0);
         vkCmdDraw(cmd, 6, 4, 12, 2);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p[1]);
         vkCmdDraw(cmd, 6, 3, 6, 2);
         if (gtu_end_read(&dev, &t, cmd)) {
            uint32_t want[GW * GH] = {0};
            const uint32_t green = gtu_rgba(0, 255, 0, 255);
            for (unsigned i = 0; i < 2; i++)
               gtu_fill(want, 2, 2 + 8 * i, 6, 6 + 8 * i, green);
            for (unsigned i = 2; i < 4; i++)
               gtu_fill(want, 12, 2 + 8 * i, 16, 6 + 8 * i, green);
            gtu_fill(want, 20, 18, 24, 22, gtu_rgba(255, 0, 0, 255));
            CHECK(gtu_check(&t, want, 0, "vertex attribute divisors 2 and 0") == 0);
         }
         vkt_buffer_destroy(&dev, &vb);
         vkt_buffer_destroy(&dev, &ob);
      }
      vkDestroyPipeline(dev.device, p[0], NULL);
      vkDestroyPipeline(dev.device, p[1], NULL);
      gtu_target_destroy(&dev, &t);
   }
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* A triangle whose vertex shader records each vertex and whose fragment
 * shader counts its invocations with an atomic while taking derivatives:
 * every vertex is recorded, and the count equals the pixels the triangle
 * wrote, though the quads on its edges ran helper lanes too. */
TEST_CASE(vertex_and_fragment_stores_skip_helper_lanes)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!setup(&ctx, &dev))
      return;
   struct gtarget t;
   const VkDescriptorSetLayoutBinding b = {
       0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
       VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, NULL};
   VkDescriptorSetLayout set_layout = ctu_set_layout(&dev, &b, 1);
   VkPipelineLayout layout = ctu_pipeline_layout(&dev, &set_layout, 1, 0);
   struct vkt_buffer counts = {0};
   if (gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &t) &&
       vkt_buffer_create(&dev, 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKT_MEMORY_HOST, &counts) ==
           VK_SUCCESS) {
      memset(counts.map, 0, 64);
      struct gtu_pipeline_desc d = {.vs = "gfx_store_vertex.vert",
                                    .fs = "gfx_store_count.frag",
                                    .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                    .layout = layout,
                                    .pass = t.pass};
      VkPipeline pipe = VK_NULL_HANDLE;
      VKT_CHECK(gtu_pipeline(&dev, &d, &pipe));
      VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
      VkDescriptorPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                        .maxSets = 1,
                                        .poolSizeCount = 1,
                                        .pPoolSizes = &size};
      VkDescriptorPool pool = VK_NULL_HANDLE;
      VKT_CHECK(vkCreateDescriptorPool(dev.device, &pci, NULL, &pool));
      VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                        .descriptorPool = pool,
                                        .descriptorSetCount = 1,
                                        .pSetLayouts = &set_layout};
      VkDescriptorSet set = VK_NULL_HANDLE;
      VKT_CHECK(vkAllocateDescriptorSets(dev.device, &ai, &set));
      /* A thin slanted triangle: most of its quads are partly covered. */
      struct gvertex v[3] = {gvtx(1.3f, 2.1f, 0.5f, GREEN), gvtx(29.7f, 9.4f, 0.5f, GREEN),
                             gvtx(5.2f, 27.8f, 0.5f, GREEN)};
      struct vkt_buffer vb;
      if (pipe && set &&
          gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
         ctu_write_buffer(&dev, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, counts.buffer, 0,
                          VK_WHOLE_SIZE);
         VkCommandBuffer cmd = gtu_begin(&dev, &t, BLACK, 1.0f, 0);
         gtu_bind_vertex_buffer(cmd, &vb);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
         vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0, NULL);
         vkCmdDraw(cmd, 3, 1, 0, 0);
         if (gtu_end_read(&dev, &t, cmd)) {
            const uint32_t *px = t.readback.map, *c = counts.map;
            uint32_t written = 0;
            for (uint32_t i = 0; i < GW * GH; i++)
               written += px[i] != 0;
            printf("  %u pixels written, %u fragment invocations counted\n", written, c[0]);
            CHECK(written > 50);
            CHECK_MSG(c[0] == written, "%u fragment invocations stored, %u pixels covered", c[0],
                      written);
            for (uint32_t k = 0; k < 3; k++)
               CHECK_MSG(c[1 + k] == k + 1, "vertex %u recorded %u", k, c[1 + k]);
         }
         vkt_buffer_destroy(&dev, &vb);
      }
      vkDestroyPipeline(dev.device, pipe, NULL);
      vkDestroyDescriptorPool(dev.device, pool, NULL);
      gtu_target_destroy(&dev, &t);
   }
   vkt_buffer_destroy(&dev, &counts);
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkDestroyDescriptorSetLayout(dev.device, set_layout, NULL);
   vkt_teardown(&ctx, &dev);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
