/* Render passes, clears and pipeline state around draws, through the loader
 * with validation on (api.graphics_passes on vkppu, lvp.graphics_passes on
 * lavapipe): two subpasses, vkCmdClearAttachments of colour and depth
 * rectangles, a load-op clear of a partial render area, LOAD, culling and
 * front faces, dynamic viewport and scissor, descriptor sets and push
 * constants in fragment programs, format features, and (vkppu only) the
 * errors of bad pipelines. */
#include "graphics_test_util.h"

static const float BLACK[4] = {0, 0, 0, 0};
static const float RED[4] = {1, 0, 0, 1};
static const float GREEN[4] = {0, 1, 0, 1};
static const float BLUE[4] = {0, 0, 1, 1};

/* Subpass 0 draws red into attachment 0, subpass 1 green into attachment
 * 1; each keeps the other's clear. */
TEST_CASE(two_subpasses_draw_into_their_own_attachments)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
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
      VkAttachmentReference r0 = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
      VkAttachmentReference r1 = {1, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
      uint32_t preserve0 = 1;
      VkSubpassDescription sp[2] = {
          {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
           .colorAttachmentCount = 1,
           .pColorAttachments = &r0,
           .preserveAttachmentCount = 1,
           .pPreserveAttachments = &preserve0},
          {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
           .colorAttachmentCount = 1,
           .pColorAttachments = &r1},
      };
      VkSubpassDependency deps[2] = {
          {0, 1, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
           VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
           VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, 0},
          {1, VK_SUBPASS_EXTERNAL, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
           VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
           VK_ACCESS_TRANSFER_READ_BIT, 0},
      };
      VkRenderPassCreateInfo rci = {
          .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
          .attachmentCount = 2,
          .pAttachments = atts,
          .subpassCount = 2,
          .pSubpasses = sp,
          .dependencyCount = 2,
          .pDependencies = deps,
      };
      VkRenderPass pass = VK_NULL_HANDLE;
      VKT_CHECK(vkCreateRenderPass(dev.device, &rci, NULL, &pass));
      VkImageView views[2] = {a.color.view, b.color.view};
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
      VKT_CHECK(vkCreateFramebuffer(dev.device, &fci, NULL, &fb));
      VkPipeline p[2];
      for (uint32_t s = 0; s < 2; s++) {
         struct gtu_pipeline_desc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                       .layout = layout,
                                       .pass = pass,
                                       .subpass = s};
         VKT_CHECK(gtu_pipeline(&dev, &d, &p[s]));
      }
      struct gvertex v[12];
      gtu_rect(&v[0], 0, 0, 16, 32, 0.5f, RED);
      gtu_rect(&v[6], 8, 8, 24, 24, 0.5f, GREEN);
      struct vkt_buffer vb;
      if (p[0] && p[1] && fb &&
          gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
         VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
         VkClearValue clear[2] = {{.color = {{0, 0, 1, 1}}}, {.color = {{0, 0, 0, 0}}}};
         VkRenderPassBeginInfo bi = {
             .sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
             .renderPass = pass,
             .framebuffer = fb,
             .renderArea = {{0, 0}, {GW, GH}},
             .clearValueCount = 2,
             .pClearValues = clear,
         };
         vkCmdBeginRenderPass(cmd, &bi, VK_SUBPASS_CONTENTS_INLINE);
         gtu_bind_vertex_buffer(cmd, &vb);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p[0]);
         vkCmdDraw(cmd, 6, 1, 0, 0);
         vkCmdNextSubpass(cmd, VK_SUBPASS_CONTENTS_INLINE);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p[1]);
         vkCmdDraw(cmd, 6, 1, 6, 0);
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
         gtu_fill(want, 0, 0, GW, GH, gtu_rgba(0, 0, 255, 255));
         gtu_fill(want, 0, 0, 16, 32, gtu_rgba(255, 0, 0, 255));
         CHECK(gtu_check(&a, want, 0, "subpass 0") == 0);
         memset(want, 0, sizeof(want));
         gtu_fill(want, 8, 8, 24, 24, gtu_rgba(0, 255, 0, 255));
         CHECK(gtu_check(&b, want, 0, "subpass 1") == 0);
         vkt_buffer_destroy(&dev, &vb);
      }
      for (unsigned s = 0; s < 2; s++)
         vkDestroyPipeline(dev.device, p[s], NULL);
      vkDestroyFramebuffer(dev.device, fb, NULL);
      vkDestroyRenderPass(dev.device, pass, NULL);
      gtu_target_destroy(&dev, &b);
      gtu_target_destroy(&dev, &a);
   }
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_teardown(&ctx, &dev);
}

/* An attachment no subpass uses is neither loaded nor stored (Vulkan
 * "Load Operations" happen in the first subpass that uses it): its
 * LOAD_OP_CLEAR does not touch the image, which keeps the green an
 * earlier pass cleared it to. */
TEST_CASE(an_attachment_no_subpass_uses_keeps_its_contents)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   struct gtarget a, b;
   if (gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &a) &&
       gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &b)) {
      VkAttachmentDescription atts[2] = {
          {0, VK_FORMAT_R8G8B8A8_UNORM, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_CLEAR,
           VK_ATTACHMENT_STORE_OP_STORE, VK_ATTACHMENT_LOAD_OP_DONT_CARE,
           VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_IMAGE_LAYOUT_UNDEFINED,
           VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL},
          {0, VK_FORMAT_R8G8B8A8_UNORM, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_CLEAR,
           VK_ATTACHMENT_STORE_OP_STORE, VK_ATTACHMENT_LOAD_OP_DONT_CARE,
           VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
           VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL}};
      VkAttachmentReference r0 = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
      VkSubpassDescription sp = {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
                                 .colorAttachmentCount = 1,
                                 .pColorAttachments = &r0};
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
      /* b's own pass clears it green and leaves it in TRANSFER_SRC. */
      VkCommandBuffer cmd = gtu_begin(&dev, &b, GREEN, 1, 0);
      if (fb && gtu_end_read(&dev, &b, cmd)) {
         cmd = vkt_cmd_begin(&dev, ctx.universal_family);
         VkClearValue clear[2] = {{.color = {{0, 0, 1, 1}}}, {.color = {{1, 0, 0, 1}}}};
         VkRenderPassBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
                                     .renderPass = pass,
                                     .framebuffer = fb,
                                     .renderArea = {{0, 0}, {GW, GH}},
                                     .clearValueCount = 2,
                                     .pClearValues = clear};
         vkCmdBeginRenderPass(cmd, &bi, VK_SUBPASS_CONTENTS_INLINE);
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
         gtu_fill(want, 0, 0, GW, GH, gtu_rgba(0, 0, 255, 255));
         CHECK(gtu_check(&a, want, 0, "used attachment") == 0);
         gtu_fill(want, 0, 0, GW, GH, gtu_rgba(0, 255, 0, 255));
         CHECK(gtu_check(&b, want, 0, "unused attachment") == 0);
      }
      vkDestroyFramebuffer(dev.device, fb, NULL);
      vkDestroyRenderPass(dev.device, pass, NULL);
      gtu_target_destroy(&dev, &b);
      gtu_target_destroy(&dev, &a);
   }
   vkt_teardown(&ctx, &dev);
}

/* A 3D image (2D_ARRAY_COMPATIBLE) rendered a slice at a time through a
 * 2D view of slice 2: the load-op clear and a draw land on that slice
 * only; the other slices keep the blue they were cleared to. */
TEST_CASE(a_slice_of_a_3d_image_is_a_render_target)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   enum { SLICES = 4, SLICE = 2 };
   VkImageCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                            .flags = VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT,
                            .imageType = VK_IMAGE_TYPE_3D,
                            .format = VK_FORMAT_R8G8B8A8_UNORM,
                            .extent = {GW, GH, SLICES},
                            .mipLevels = 1,
                            .arrayLayers = 1,
                            .samples = VK_SAMPLE_COUNT_1_BIT,
                            .tiling = VK_IMAGE_TILING_OPTIMAL,
                            .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                                     VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                     VK_IMAGE_USAGE_TRANSFER_DST_BIT};
   struct vkt_image img;
   struct vkt_buffer readback, vb;
   VkRenderPass pass = gtu_render_pass(&dev, VK_FORMAT_UNDEFINED, VK_ATTACHMENT_LOAD_OP_CLEAR);
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   struct gtu_pipeline_desc d = {
       .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, .layout = layout, .pass = pass};
   VkPipeline pipe;
   VKT_CHECK(gtu_pipeline(&dev, &d, &pipe));
   struct gvertex v[6];
   gtu_rect(v, 4, 4, 20, 12, 0.5f, RED);
   if (pipe && vkt_image_create(&dev, &ici, VK_IMAGE_VIEW_TYPE_3D, &img)) {
      VkImageViewCreateInfo vci = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                   .image = img.image,
                                   .viewType = VK_IMAGE_VIEW_TYPE_2D,
                                   .format = VK_FORMAT_R8G8B8A8_UNORM,
                                   .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, SLICE, 1}};
      VkImageView slice;
      VKT_CHECK(vkCreateImageView(dev.device, &vci, NULL, &slice));
      VkFramebufferCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
                                     .renderPass = pass,
                                     .attachmentCount = 1,
                                     .pAttachments = &slice,
                                     .width = GW,
                                     .height = GH,
                                     .layers = 1};
      VkFramebuffer fb = VK_NULL_HANDLE;
      VKT_CHECK(vkCreateFramebuffer(dev.device, &fci, NULL, &fb));
      if (fb &&
          vkt_buffer_create(&dev, SLICES * GW * GH * 4, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST,
                            &readback) == VK_SUCCESS &&
          gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
         VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
         vkt_cmd_image_barrier(cmd, img.image, VK_IMAGE_LAYOUT_UNDEFINED,
                               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
                               VK_ACCESS_TRANSFER_WRITE_BIT);
         const VkClearColorValue blue = {{0, 0, 1, 1}};
         const VkImageSubresourceRange all = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
         vkCmdClearColorImage(cmd, img.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &blue, 1, &all);
         vkt_cmd_image_barrier(cmd, img.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_ACCESS_TRANSFER_WRITE_BIT,
                               VK_ACCESS_TRANSFER_READ_BIT);
         VkClearValue green = {.color = {{0, 1, 0, 1}}};
         VkRenderPassBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
                                     .renderPass = pass,
                                     .framebuffer = fb,
                                     .renderArea = {{0, 0}, {GW, GH}},
                                     .clearValueCount = 1,
                                     .pClearValues = &green};
         vkCmdBeginRenderPass(cmd, &bi, VK_SUBPASS_CONTENTS_INLINE);
         gtu_bind_vertex_buffer(cmd, &vb);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
         vkCmdDraw(cmd, 6, 1, 0, 0);
         vkCmdEndRenderPass(cmd);
         VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                                     .imageExtent = {GW, GH, SLICES}};
         vkCmdCopyImageToBuffer(cmd, img.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                readback.buffer, 1, &region);
         vkt_cmd_transfer_to_host_barrier(cmd);
         VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
         const uint32_t *got = readback.map;
         unsigned wrong = 0;
         for (uint32_t z = 0; z < SLICES; z++) {
            uint32_t want[GW * GH];
            gtu_fill(want, 0, 0, GW, GH,
                     z == SLICE ? gtu_rgba(0, 255, 0, 255) : gtu_rgba(0, 0, 255, 255));
            if (z == SLICE)
               gtu_fill(want, 4, 4, 20, 12, gtu_rgba(255, 0, 0, 255));
            for (uint32_t i = 0; i < GW * GH; i++)
               if (got[z * GW * GH + i] != want[i] && wrong++ < 4)
                  test_fail(__FILE__, __LINE__, "slice %u pixel (%u, %u) is 0x%08x, want 0x%08x", z,
                            i % GW, i / GW, got[z * GW * GH + i], want[i]);
         }
         CHECK_MSG(wrong == 0, "%u pixels wrong", wrong);
         vkt_buffer_destroy(&dev, &vb);
         vkt_buffer_destroy(&dev, &readback);
      }
      vkDestroyFramebuffer(dev.device, fb, NULL);
      vkDestroyImageView(dev.device, slice, NULL);
      vkt_image_destroy(&dev, &img);
   }
   vkDestroyPipeline(dev.device, pipe, NULL);
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkDestroyRenderPass(dev.device, pass, NULL);
   vkt_teardown(&ctx, &dev);
}

/* A secondary command buffer that continues the render pass (inheriting
 * pass, subpass and framebuffer, then without the framebuffer, which
 * Vulkan makes optional) draws into it. */
TEST_CASE(secondary_command_buffers_draw_inside_a_render_pass)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   struct gtarget t;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   if (gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &t)) {
      struct gtu_pipeline_desc d = {
          .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, .layout = layout, .pass = t.pass};
      VkPipeline pipe;
      VKT_CHECK(gtu_pipeline(&dev, &d, &pipe));
      /* A green rectangle, a red vkCmdClearAttachments rectangle inside it,
       * then a second green draw over part of the red: the clear happens
       * between the draws, also in a secondary that does not know the
       * framebuffer (the primary performs it at vkCmdExecuteCommands). */
      struct gvertex v[12];
      gtu_rect(v, 6, 2, 20, 30, 0.5f, GREEN);
      gtu_rect(v + 6, 12, 12, 16, 16, 0.5f, GREEN);
      const VkClearAttachment red = {.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT,
                                     .colorAttachment = 0,
                                     .clearValue = {.color = {{1, 0, 0, 1}}}};
      const VkClearRect red_rect = {{{10, 10}, {4, 10}}, 0, 1};
      struct vkt_buffer vb;
      for (unsigned k = 0; k < 2; k++) {
         VkCommandBufferInheritanceInfo inh = {
             .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO,
             .renderPass = t.pass,
             .subpass = 0,
             .framebuffer = k ? VK_NULL_HANDLE : t.fb,
         };
         VkCommandBuffer sec = gtu_secondary_begin(&dev, &inh);
         if (pipe && sec &&
             gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
            gtu_bind_vertex_buffer(sec, &vb);
            vkCmdBindPipeline(sec, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
            vkCmdDraw(sec, 6, 1, 0, 0);
            vkCmdClearAttachments(sec, 1, &red, 1, &red_rect);
            vkCmdDraw(sec, 6, 1, 6, 0);
            VKT_CHECK(vkEndCommandBuffer(sec));

            VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
            VkClearValue clear = {.color = {{0, 0, 1, 1}}};
            VkRenderPassBeginInfo rbi = {
                .sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
                .renderPass = t.pass,
                .framebuffer = t.fb,
                .renderArea = {{0, 0}, {GW, GH}},
                .clearValueCount = 1,
                .pClearValues = &clear,
            };
            vkCmdBeginRenderPass(cmd, &rbi, VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS);
            vkCmdExecuteCommands(cmd, 1, &sec);
            if (gtu_end_read(&dev, &t, cmd)) {
               uint32_t want[GW * GH];
               gtu_fill(want, 0, 0, GW, GH, gtu_rgba(0, 0, 255, 255));
               gtu_fill(want, 6, 2, 20, 30, gtu_rgba(0, 255, 0, 255));
               gtu_fill(want, 10, 10, 14, 20, gtu_rgba(255, 0, 0, 255));
               gtu_fill(want, 12, 12, 16, 16, gtu_rgba(0, 255, 0, 255));
               CHECK(gtu_check(&t, want, 0,
                               k ? "secondary without the framebuffer" : "secondary") == 0);
            }
            vkt_buffer_destroy(&dev, &vb);
         }
         if (sec)
            vkFreeCommandBuffers(dev.device, dev.pools[ctx.universal_family], 1, &sec);
      }
      vkDestroyPipeline(dev.device, pipe, NULL);
      gtu_target_destroy(&dev, &t);
   }
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_teardown(&ctx, &dev);
}

/* vkCmdClearAttachments: a colour rectangle over a drawn one, and a depth
 * rectangle cleared to 0 so that a later LESS draw at 0.5 only lands
 * outside it. */
TEST_CASE(clear_attachments_clears_colour_and_depth_rectangles)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
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
      struct gvertex v[12];
      gtu_rect(&v[0], 0, 0, 32, 16, 0.9f, RED);
      gtu_rect(&v[6], 0, 0, 32, 32, 0.5f, BLUE);
      struct vkt_buffer vb;
      if (pipe && gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
         VkCommandBuffer cmd = gtu_begin(&dev, &t, BLACK, 1.0f, 0);
         gtu_bind_vertex_buffer(cmd, &vb);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
         vkCmdDraw(cmd, 6, 1, 0, 0); /* red top half at 0.9 */
         VkClearAttachment ca[2] = {
             {VK_IMAGE_ASPECT_COLOR_BIT, 0, {.color = {{0, 1, 0, 1}}}},
             {VK_IMAGE_ASPECT_DEPTH_BIT, 0, {.depthStencil = {0.0f, 0}}},
         };
         VkClearRect cr[2] = {{{{4, 4}, {8, 20}}, 0, 1}, {{{20, 0}, {12, 32}}, 0, 1}};
         vkCmdClearAttachments(cmd, 1, &ca[0], 1, &cr[0]); /* green 4..12 x 4..24 */
         vkCmdClearAttachments(cmd, 1, &ca[1], 1, &cr[1]); /* depth 0 at x >= 20 */
         vkCmdDraw(cmd, 6, 1, 6, 0); /* blue everywhere at 0.5 where depth > 0.5 */
         if (gtu_end_read(&dev, &t, cmd)) {
            uint32_t want[GW * GH];
            gtu_fill(want, 0, 0, 20, 32, gtu_rgba(0, 0, 255, 255));
            gtu_fill(want, 20, 0, 32, 16, gtu_rgba(255, 0, 0, 255));
            gtu_fill(want, 20, 16, 32, 32, 0);
            CHECK(gtu_check(&t, want, 0, "clear attachments") == 0);
         }
         vkt_buffer_destroy(&dev, &vb);
      }
      vkDestroyPipeline(dev.device, pipe, NULL);
      gtu_target_destroy(&dev, &t);
   }
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_teardown(&ctx, &dev);
}

/* A render pass that LOADs keeps the last pass's pixels; a CLEAR with a
 * partial render area clears only the area; dynamic viewport and scissor
 * place and cut a draw. */
TEST_CASE(load_partial_render_area_and_dynamic_viewport_scissor)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   struct gtarget t;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   if (gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &t)) {
      VkRenderPass load = gtu_render_pass(&dev, VK_FORMAT_UNDEFINED, VK_ATTACHMENT_LOAD_OP_LOAD);
      const VkDynamicState dyn[2] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
      struct gtu_pipeline_desc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                    .dynamic = dyn,
                                    .dynamic_count = 2,
                                    .layout = layout,
                                    .pass = t.pass};
      VkPipeline pipe;
      VKT_CHECK(gtu_pipeline(&dev, &d, &pipe));
      struct gvertex v[6];
      gtu_rect(v, 0, 0, 32, 32, 0.5f, GREEN); /* the whole viewport */
      struct vkt_buffer vb;
      if (pipe && load &&
          gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
         /* Pass 1: clear to blue; pass 2 (LOAD, then a partial-area CLEAR
          * pass) adds the rest. */
         VkCommandBuffer cmd = gtu_begin(&dev, &t, BLUE, 1, 0);
         vkCmdEndRenderPass(cmd);
         VkRenderPassBeginInfo bi = {
             .sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
             .renderPass = load,
             .framebuffer = t.fb,
             .renderArea = {{0, 0}, {GW, GH}},
         };
         vkCmdBeginRenderPass(cmd, &bi, VK_SUBPASS_CONTENTS_INLINE);
         gtu_bind_vertex_buffer(cmd, &vb);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
         /* Viewport: the 16x16 square at (16, 0); scissor cuts its top
          * 4 rows. */
         VkViewport vp = {16, 0, 16, 16, 0, 1};
         VkRect2D sc = {{0, 4}, {GW, GH - 4}};
         vkCmdSetViewport(cmd, 0, 1, &vp);
         vkCmdSetScissor(cmd, 0, 1, &sc);
         vkCmdDraw(cmd, 6, 1, 0, 0);
         vkCmdEndRenderPass(cmd);
         /* Pass 3: CLEAR to red over the area 2..10 x 20..30 only (a
          * rectangle clear, not a whole-image one). */
         VkClearValue red = {.color = {{1, 0, 0, 1}}};
         bi.renderPass = t.pass;
         bi.renderArea = (VkRect2D){{2, 20}, {8, 10}};
         bi.clearValueCount = 1;
         bi.pClearValues = &red;
         /* t.pass clears from UNDEFINED, which may discard the rest: the
          * area test reads only the area. */
         vkCmdBeginRenderPass(cmd, &bi, VK_SUBPASS_CONTENTS_INLINE);
         if (gtu_end_read(&dev, &t, cmd)) {
            const uint32_t *got = t.readback.map;
            unsigned bad = 0;
            for (unsigned y = 20; y < 30; y++)
               for (unsigned x = 2; x < 10; x++)
                  bad += got[y * GW + x] != gtu_rgba(255, 0, 0, 255);
            CHECK(bad == 0);
         }
         /* The LOAD pass alone, read back. */
         cmd = gtu_begin(&dev, &t, BLUE, 1, 0);
         vkCmdEndRenderPass(cmd);
         bi.renderPass = load;
         bi.renderArea = (VkRect2D){{0, 0}, {GW, GH}};
         bi.clearValueCount = 0;
         bi.pClearValues = NULL;
         vkCmdBeginRenderPass(cmd, &bi, VK_SUBPASS_CONTENTS_INLINE);
         gtu_bind_vertex_buffer(cmd, &vb);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
         vkCmdSetViewport(cmd, 0, 1, &vp);
         vkCmdSetScissor(cmd, 0, 1, &sc);
         vkCmdDraw(cmd, 6, 1, 0, 0);
         if (gtu_end_read(&dev, &t, cmd)) {
            uint32_t want[GW * GH];
            gtu_fill(want, 0, 0, GW, GH, gtu_rgba(0, 0, 255, 255));
            gtu_fill(want, 16, 4, 32, 16, gtu_rgba(0, 255, 0, 255));
            CHECK(gtu_check(&t, want, 0, "load, viewport, scissor") == 0);
         }
         vkt_buffer_destroy(&dev, &vb);
      }
      vkDestroyPipeline(dev.device, pipe, NULL);
      vkDestroyRenderPass(dev.device, load, NULL);
      gtu_target_destroy(&dev, &t);
   }
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_teardown(&ctx, &dev);
}

/* Back-face culling with both front-face conventions: a counter-clockwise
 * (in framebuffer coordinates, y down) rectangle and a clockwise one. */
TEST_CASE(culling_follows_the_front_face)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   struct gtarget t;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   if (gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &t)) {
      VkPipeline p[2];
      for (unsigned k = 0; k < 2; k++) {
         struct gtu_pipeline_desc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                       .cull = VK_CULL_MODE_BACK_BIT,
                                       .front = k ? VK_FRONT_FACE_CLOCKWISE
                                                  : VK_FRONT_FACE_COUNTER_CLOCKWISE,
                                       .layout = layout,
                                       .pass = t.pass};
         VKT_CHECK(gtu_pipeline(&dev, &d, &p[k]));
      }
      struct gvertex v[12];
      /* gtu_rect() winds (x0,y0) (x1,y0) (x0,y1): clockwise on screen (y
       * down); the second copy reversed. */
      gtu_rect(&v[0], 0, 0, 16, 32, 0.5f, RED);
      gtu_rect(&v[6], 16, 0, 32, 32, 0.5f, GREEN);
      for (unsigned i = 6; i < 12; i += 3) {
         struct gvertex tmp = v[i + 1];
         v[i + 1] = v[i + 2];
         v[i + 2] = tmp;
      }
      struct vkt_buffer vb;
      if (p[0] && p[1] &&
          gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
         for (unsigned k = 0; k < 2; k++) {
            VkCommandBuffer cmd = gtu_begin(&dev, &t, BLACK, 1, 0);
            gtu_bind_vertex_buffer(cmd, &vb);
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p[k]);
            vkCmdDraw(cmd, 12, 1, 0, 0);
            if (gtu_end_read(&dev, &t, cmd)) {
               uint32_t want[GW * GH] = {0};
               /* Clockwise front: the first rectangle survives. */
               if (k)
                  gtu_fill(want, 0, 0, 16, 32, gtu_rgba(255, 0, 0, 255));
               else
                  gtu_fill(want, 16, 0, 32, 32, gtu_rgba(0, 255, 0, 255));
               CHECK(gtu_check(&t, want, 0, k ? "clockwise front" : "counter-clockwise front") ==
                     0);
            }
         }
         vkt_buffer_destroy(&dev, &vb);
      }
      vkDestroyPipeline(dev.device, p[0], NULL);
      vkDestroyPipeline(dev.device, p[1], NULL);
      gtu_target_destroy(&dev, &t);
   }
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_teardown(&ctx, &dev);
}

/* A fragment program reads a uniform buffer through a descriptor set and
 * scales it by push constants. */
TEST_CASE(fragment_programs_read_descriptor_sets_and_push_constants)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   struct gtarget t;
   if (gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &t)) {
      VkDescriptorSetLayoutBinding binding = {0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1,
                                              VK_SHADER_STAGE_FRAGMENT_BIT, NULL};
      VkDescriptorSetLayout sl = ctu_set_layout(&dev, &binding, 1);
      VkPushConstantRange range = {VK_SHADER_STAGE_FRAGMENT_BIT, 0, 16};
      VkPipelineLayoutCreateInfo lci = {
          .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
          .setLayoutCount = 1,
          .pSetLayouts = &sl,
          .pushConstantRangeCount = 1,
          .pPushConstantRanges = &range,
      };
      VkPipelineLayout layout = VK_NULL_HANDLE;
      VKT_CHECK(vkCreatePipelineLayout(dev.device, &lci, NULL, &layout));
      VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1};
      VkDescriptorPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                        .maxSets = 1,
                                        .poolSizeCount = 1,
                                        .pPoolSizes = &ps};
      VkDescriptorPool pool = VK_NULL_HANDLE;
      VKT_CHECK(vkCreateDescriptorPool(dev.device, &pci, NULL, &pool));
      VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                        .descriptorPool = pool,
                                        .descriptorSetCount = 1,
                                        .pSetLayouts = &sl};
      VkDescriptorSet set = VK_NULL_HANDLE;
      VKT_CHECK(vkAllocateDescriptorSets(dev.device, &ai, &set));
      const float ucolor[4] = {1.0f, 0.5f, 1.0f, 1.0f};
      struct vkt_buffer ub, vb;
      struct gtu_pipeline_desc d = {.fs = "gfx_push_ubo.frag",
                                    .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                    .layout = layout,
                                    .pass = t.pass};
      VkPipeline pipe;
      VKT_CHECK(gtu_pipeline(&dev, &d, &pipe));
      struct gvertex v[6];
      gtu_rect(v, 4, 4, 28, 28, 0.5f, BLACK);
      if (pipe && set &&
          gtu_data_buffer(&dev, ucolor, sizeof(ucolor), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, &ub) &&
          gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
         ctu_write_buffer(&dev, set, 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, ub.buffer, 0, 16);
         VkCommandBuffer cmd = gtu_begin(&dev, &t, BLACK, 1, 0);
         gtu_bind_vertex_buffer(cmd, &vb);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
         vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0, NULL);
         const float scale[4] = {0.25f, 1.0f, 0.0f, 1.0f};
         vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_FRAGMENT_BIT, 0, 16, scale);
         vkCmdDraw(cmd, 6, 1, 0, 0);
         if (gtu_end_read(&dev, &t, cmd)) {
            uint32_t want[GW * GH] = {0};
            gtu_fill(want, 4, 4, 28, 28, gtu_rgba(64, 128, 0, 255));
            CHECK(gtu_check(&t, want, 1, "ubo * push constants") == 0);
         }
         vkt_buffer_destroy(&dev, &ub);
         vkt_buffer_destroy(&dev, &vb);
      }
      vkDestroyPipeline(dev.device, pipe, NULL);
      vkDestroyDescriptorPool(dev.device, pool, NULL);
      vkDestroyPipelineLayout(dev.device, layout, NULL);
      vkDestroyDescriptorSetLayout(dev.device, sl, NULL);
      gtu_target_destroy(&dev, &t);
   }
   vkt_teardown(&ctx, &dev);
}

/* The attachment features the tests rely on, and vkcube's. */
TEST_CASE(attachment_format_features_are_reported)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   VkFormatProperties p;
   vkGetPhysicalDeviceFormatProperties(ctx.physical_device, VK_FORMAT_R8G8B8A8_UNORM, &p);
   CHECK((p.optimalTilingFeatures & (VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT |
                                     VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT)) ==
         (VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT));
   vkGetPhysicalDeviceFormatProperties(ctx.physical_device, VK_FORMAT_B8G8R8A8_UNORM, &p);
   CHECK(p.optimalTilingFeatures & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT);
   vkGetPhysicalDeviceFormatProperties(ctx.physical_device, VK_FORMAT_R32G32B32_SFLOAT, &p);
   CHECK(p.bufferFeatures & VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT);
   CHECK(gtu_depth_supported(&dev, VK_FORMAT_D16_UNORM));
   CHECK(gtu_depth_supported(&dev, VK_FORMAT_D32_SFLOAT));
   vkt_teardown(&ctx, &dev);
}

/* vkppu only: a vertex format without VERTEX_BUFFER and a fragment input no
 * vertex output writes fail pipeline creation with an error code and a
 * message, and a good pipeline is still made afterwards. */
/* A subpass whose color references are all VK_ATTACHMENT_UNUSED uses no
 * color attachment, so pColorBlendState is ignored and may be NULL (spec,
 * VkGraphicsPipelineCreateInfo); the draw writes depth only. */
TEST_CASE(subpass_without_used_color_attachments_needs_no_blend_state)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   VkAttachmentDescription depth = {0,
                                    VK_FORMAT_D32_SFLOAT,
                                    VK_SAMPLE_COUNT_1_BIT,
                                    VK_ATTACHMENT_LOAD_OP_CLEAR,
                                    VK_ATTACHMENT_STORE_OP_STORE,
                                    VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                    VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                    VK_IMAGE_LAYOUT_UNDEFINED,
                                    VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
   VkAttachmentReference unused = {VK_ATTACHMENT_UNUSED, VK_IMAGE_LAYOUT_UNDEFINED};
   VkAttachmentReference depth_ref = {0, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
   VkSubpassDescription sp = {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
                              .colorAttachmentCount = 1,
                              .pColorAttachments = &unused,
                              .pDepthStencilAttachment = &depth_ref};
   VkRenderPassCreateInfo rci = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
                                 .attachmentCount = 1,
                                 .pAttachments = &depth,
                                 .subpassCount = 1,
                                 .pSubpasses = &sp};
   VkRenderPass pass = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateRenderPass(dev.device, &rci, NULL, &pass));
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   VkPipelineDepthStencilStateCreateInfo ds = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
       .depthTestEnable = VK_TRUE,
       .depthWriteEnable = VK_TRUE,
       .depthCompareOp = VK_COMPARE_OP_LESS};
   struct gtu_pipeline_desc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                 .ds = &ds,
                                 .layout = layout,
                                 .pass = pass,
                                 .no_color_blend_state = true};
   VkPipeline p = VK_NULL_HANDLE;
   VKT_CHECK(gtu_pipeline(&dev, &d, &p));
   CHECK(p != VK_NULL_HANDLE);
   vkDestroyPipeline(dev.device, p, NULL);
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkDestroyRenderPass(dev.device, pass, NULL);
   vkt_teardown(&ctx, &dev);
}

/* A8B8G8R8_*_PACK32 vertex attributes are R8G8B8A8's bytes (A in the top
 * byte of a little-endian word): a colour given as the bytes 255, 0, 128,
 * 255 draws as (255, 0, 128, 255) with A8B8G8R8_UNORM_PACK32, as with
 * R8G8B8A8_UNORM. */
TEST_CASE(a8b8g8r8_vertex_colours_are_r8g8b8a8_bytes)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   struct gtarget t;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   const VkFormat formats[2] = {VK_FORMAT_A8B8G8R8_UNORM_PACK32, VK_FORMAT_R8G8B8A8_UNORM};
   for (unsigned k = 0; k < 2 && gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &t); k++) {
      struct gtu_pipeline_desc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                    .layout = layout,
                                    .pass = t.pass,
                                    .color_format = formats[k]};
      VkPipeline pipe = VK_NULL_HANDLE;
      VKT_CHECK(gtu_pipeline(&dev, &d, &pipe));
      const float unused[4] = {0, 0, 0, 0};
      struct gvertex v[6];
      gtu_rect(v, 4, 4, 28, 28, 0.5f, unused);
      const uint8_t bytes[4] = {255, 0, 128, 255};
      for (unsigned i = 0; i < 6; i++)
         memcpy(v[i].color, bytes, sizeof(bytes));
      struct vkt_buffer vb;
      if (pipe && gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
         const float clear[4] = {0, 0, 0, 0};
         VkCommandBuffer cmd = gtu_begin(&dev, &t, clear, 1.0f, 0);
         gtu_bind_vertex_buffer(cmd, &vb);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
         vkCmdDraw(cmd, 6, 1, 0, 0);
         if (gtu_end_read(&dev, &t, cmd)) {
            uint32_t want[GW * GH];
            gtu_fill(want, 0, 0, GW, GH, 0);
            gtu_fill(want, 4, 4, 28, 28, gtu_rgba(255, 0, 128, 255));
            CHECK(gtu_check(&t, want, 0, k ? "R8G8B8A8_UNORM" : "A8B8G8R8_UNORM_PACK32") == 0);
         }
         vkt_buffer_destroy(&dev, &vb);
      }
      vkDestroyPipeline(dev.device, pipe, NULL);
      gtu_target_destroy(&dev, &t);
   }
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_teardown(&ctx, &dev);
}

TEST_CASE(bad_pipelines_fail_with_an_error)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   if (!ctx.is_vkppu) {
      vkt_skip("vkppu's error paths");
      vkt_teardown(&ctx, &dev);
      return;
   }
   struct gtarget t;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   if (gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &t)) {
      static const char *const tolerated[] = {"VERTEX_BUFFER", "vkCreateGraphicsPipelines",
                                              "location", "Location", NULL};
      vkt_tolerate_begin(tolerated);
      struct gtu_pipeline_desc bad_format = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                             .color_format = VK_FORMAT_R64G64B64A64_SFLOAT,
                                             .layout = layout,
                                             .pass = t.pass};
      VkPipeline p = VK_NULL_HANDLE;
      CHECK(gtu_pipeline(&dev, &bad_format, &p) != VK_SUCCESS);
      CHECK(p == VK_NULL_HANDLE);
      struct gtu_pipeline_desc bad_link = {.fs = "gfx_missing_input.frag",
                                           .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                           .layout = layout,
                                           .pass = t.pass};
      CHECK(gtu_pipeline(&dev, &bad_link, &p) != VK_SUCCESS);
      CHECK(p == VK_NULL_HANDLE);
      CHECK(vkt_tolerate_end() >= 2);
      struct gtu_pipeline_desc good = {
          .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, .layout = layout, .pass = t.pass};
      VKT_CHECK(gtu_pipeline(&dev, &good, &p));
      vkDestroyPipeline(dev.device, p, NULL);
      gtu_target_destroy(&dev, &t);
   }
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_teardown(&ctx, &dev);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
