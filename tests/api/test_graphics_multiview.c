/* Multiview render passes through the loader with validation on
 * (api.graphics_multiview on vkppu, lvp.graphics_multiview on lavapipe):
 * a subpass with view mask 0b101 on a three-layer colour attachment. The
 * load-op clear, the draw (gl_ViewIndex moves the rectangle and colours
 * it) and vkCmdClearAttachments reach layers 0 and 2; layer 1, outside
 * the mask, keeps what a transfer clear wrote before the pass. Exact
 * pixels. An occlusion query around the draw uses two queries (one per
 * view) whose sum is both views' samples. The same scene again through
 * vkCmdBeginRendering with the view mask. */
#include "graphics_test_util.h"

#define LAYERS 3u
#define VIEW_MASK 0x5u

static const float RED[4] = {1, 0, 0, 1};

static bool setup(struct vkt_context *ctx, struct vkt_device *dev)
{
   VkPhysicalDeviceMultiviewFeatures mv = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_FEATURES,
       .multiview = VK_TRUE,
   };
   VkPhysicalDeviceDynamicRenderingFeatures dr = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES,
       .pNext = &mv,
       .dynamicRendering = VK_TRUE,
   };
   static const char *const extensions[] = {VK_KHR_CREATE_RENDERPASS_2_EXTENSION_NAME,
                                            VK_KHR_DEPTH_STENCIL_RESOLVE_EXTENSION_NAME,
                                            VK_KHR_DYNAMIC_RENDERING_EXTENSION_NAME};
   static const VkPhysicalDeviceFeatures precise = {.occlusionQueryPrecise = VK_TRUE};
   struct vkt_device_desc desc = {
       .features = &precise, .feature_chain = &dr, .extensions = extensions, .extension_count = 3};
   return gtu_setup_device(ctx, dev, &desc);
}

static VkRenderPass multiview_pass(struct vkt_device *dev)
{
   const VkAttachmentDescription att = {0,
                                        VK_FORMAT_R8G8B8A8_UNORM,
                                        VK_SAMPLE_COUNT_1_BIT,
                                        VK_ATTACHMENT_LOAD_OP_CLEAR,
                                        VK_ATTACHMENT_STORE_OP_STORE,
                                        VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                        VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                        VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                        VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL};
   const VkAttachmentReference color = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
   const VkSubpassDescription sp = {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
                                    .colorAttachmentCount = 1,
                                    .pColorAttachments = &color};
   const VkSubpassDependency deps[2] = {
       {VK_SUBPASS_EXTERNAL, 0, VK_PIPELINE_STAGE_TRANSFER_BIT,
        VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
        VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, 0},
       {0, VK_SUBPASS_EXTERNAL, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
        VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
        VK_ACCESS_TRANSFER_READ_BIT, 0},
   };
   const uint32_t view_mask = VIEW_MASK;
   const VkRenderPassMultiviewCreateInfo mv = {
       .sType = VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO,
       .subpassCount = 1,
       .pViewMasks = &view_mask,
   };
   VkRenderPassCreateInfo rci = {
       .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
       .pNext = &mv,
       .attachmentCount = 1,
       .pAttachments = &att,
       .subpassCount = 1,
       .pSubpasses = &sp,
       .dependencyCount = 2,
       .pDependencies = deps,
   };
   VkRenderPass pass = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateRenderPass(dev->device, &rci, NULL, &pass));
   return pass;
}

/* The scene through a multiview render pass, or (dynamic) through
 * vkCmdBeginRendering with the same view mask. */
static void multiview_scene(bool dynamic)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!setup(&ctx, &dev))
      return;
   VkImageCreateInfo ici = {
       .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
       .imageType = VK_IMAGE_TYPE_2D,
       .format = VK_FORMAT_R8G8B8A8_UNORM,
       .extent = {GW, GH, 1},
       .mipLevels = 1,
       .arrayLayers = LAYERS,
       .samples = VK_SAMPLE_COUNT_1_BIT,
       .tiling = VK_IMAGE_TILING_OPTIMAL,
       .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                VK_IMAGE_USAGE_TRANSFER_DST_BIT,
   };
   struct vkt_image img;
   memset(&img, 0, sizeof(img));
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   VkRenderPass pass = dynamic ? VK_NULL_HANDLE : multiview_pass(&dev);
   VkFramebuffer fb = VK_NULL_HANDLE;
   VkPipeline pipe = VK_NULL_HANDLE;
   const VkQueryPoolCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                      .queryType = VK_QUERY_TYPE_OCCLUSION,
                                      .queryCount = 2};
   VkQueryPool queries = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateQueryPool(dev.device, &qci, NULL, &queries));
   struct vkt_buffer readback, vb;
   memset(&readback, 0, sizeof(readback));
   if ((pass || dynamic) && vkt_image_create(&dev, &ici, VK_IMAGE_VIEW_TYPE_2D_ARRAY, &img) &&
       vkt_buffer_create(&dev, LAYERS * GW * GH * 4, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST,
                         &readback) == VK_SUCCESS) {
      VkFramebufferCreateInfo fci = {
          .sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
          .renderPass = pass,
          .attachmentCount = 1,
          .pAttachments = &img.view,
          .width = GW,
          .height = GH,
          .layers = 1,
      };
      if (!dynamic)
         VKT_CHECK(vkCreateFramebuffer(dev.device, &fci, NULL, &fb));
      const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
      const VkPipelineRenderingCreateInfo rci = {
          .sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
          .viewMask = VIEW_MASK,
          .colorAttachmentCount = 1,
          .pColorAttachmentFormats = &format,
      };
      struct gtu_pipeline_desc d = {.vs = "gfx_multiview.vert",
                                    .fs = "gfx_multiview.frag",
                                    .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                    .layout = layout,
                                    .pass = pass,
                                    .next = dynamic ? &rci : NULL};
      VKT_CHECK(gtu_pipeline(&dev, &d, &pipe));
      struct gvertex v[6];
      gtu_rect(v, 4, 4, 12, 28, 0.5f, RED);
      if ((fb || dynamic) && pipe &&
          gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
         VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
         /* Every layer white first; the pass must leave layer 1 so. */
         vkt_cmd_image_barrier(cmd, img.image, VK_IMAGE_LAYOUT_UNDEFINED,
                               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
                               VK_ACCESS_TRANSFER_WRITE_BIT);
         const VkClearColorValue white = {{1, 1, 1, 1}};
         const VkImageSubresourceRange all = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, LAYERS};
         vkCmdClearColorImage(cmd, img.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &white, 1,
                              &all);
         vkCmdResetQueryPool(cmd, queries, 0, 2);
         const VkClearValue blue = {.color = {{0, 0, 1, 1}}};
         VkRenderPassBeginInfo bi = {
             .sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
             .renderPass = pass,
             .framebuffer = fb,
             .renderArea = {{0, 0}, {GW, GH}},
             .clearValueCount = 1,
             .pClearValues = &blue,
         };
         const VkRenderingAttachmentInfo color = {
             .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
             .imageView = img.view,
             .imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
             .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
             .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
             .clearValue = blue,
         };
         const VkRenderingInfo ri = {
             .sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
             .renderArea = {{0, 0}, {GW, GH}},
             .viewMask = VIEW_MASK,
             .colorAttachmentCount = 1,
             .pColorAttachments = &color,
         };
         if (dynamic) {
            vkt_cmd_image_barrier(cmd, img.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                  VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                  VK_ACCESS_TRANSFER_WRITE_BIT,
                                  VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT);
            vkCmdBeginRenderingKHR(cmd, &ri);
         } else {
            vkCmdBeginRenderPass(cmd, &bi, VK_SUBPASS_CONTENTS_INLINE);
         }
         gtu_bind_vertex_buffer(cmd, &vb);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
         vkCmdBeginQuery(cmd, queries, 0, VK_QUERY_CONTROL_PRECISE_BIT);
         vkCmdDraw(cmd, 6, 1, 0, 0);
         vkCmdEndQuery(cmd, queries, 0);
         const VkClearAttachment ca = {VK_IMAGE_ASPECT_COLOR_BIT, 0, {.color = {{0, 0, 0, 0}}}};
         const VkClearRect rect = {{{28, 0}, {4, 4}}, 0, 1};
         vkCmdClearAttachments(cmd, 1, &ca, 1, &rect);
         if (dynamic) {
            vkCmdEndRenderingKHR(cmd);
            vkt_cmd_image_barrier(cmd, img.image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                  VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                  VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                                  VK_ACCESS_TRANSFER_READ_BIT);
         } else {
            vkCmdEndRenderPass(cmd);
         }
         VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, LAYERS},
                                     .imageExtent = {GW, GH, 1}};
         vkCmdCopyImageToBuffer(cmd, img.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                readback.buffer, 1, &region);
         vkt_cmd_transfer_to_host_barrier(cmd);
         VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
         const uint32_t *got = readback.map;
         unsigned bad = 0;
         for (uint32_t layer = 0; layer < LAYERS; layer++) {
            uint32_t want[GW * GH];
            if (layer == 1) {
               gtu_fill(want, 0, 0, GW, GH, gtu_rgba(255, 255, 255, 255));
            } else {
               /* View `layer`: blue, the rectangle 4 * layer pixels right
                * with green 0.5 * layer, the cleared corner. */
               gtu_fill(want, 0, 0, GW, GH, gtu_rgba(0, 0, 255, 255));
               gtu_fill(want, 4 + 4 * layer, 4, 12 + 4 * layer, 28,
                        gtu_rgba(255, layer ? 255 : 0, 0, 255));
               gtu_fill(want, 28, 0, 32, 4, 0);
            }
            for (uint32_t i = 0; i < GW * GH; i++)
               if (got[layer * GW * GH + i] != want[i] && bad++ < 8)
                  test_fail(__FILE__, __LINE__,
                            "layer %u pixel (%u, %u) is 0x%08x, expected 0x%08x", layer, i % GW,
                            i / GW, got[layer * GW * GH + i], want[i]);
         }
         CHECK_MSG(bad == 0, "%u pixels wrong", bad);
         uint64_t samples[2] = {0, 0};
         VKT_CHECK(vkGetQueryPoolResults(dev.device, queries, 0, 2, sizeof(samples), samples, 8,
                                         VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
         CHECK_MSG(samples[0] + samples[1] == 2 * 8 * 24, "the views' queries hold %llu + %llu",
                   (unsigned long long)samples[0], (unsigned long long)samples[1]);
         vkt_buffer_destroy(&dev, &vb);
      }
   }
   vkDestroyQueryPool(dev.device, queries, NULL);
   vkt_buffer_destroy(&dev, &readback);
   vkDestroyPipeline(dev.device, pipe, NULL);
   vkDestroyFramebuffer(dev.device, fb, NULL);
   vkt_image_destroy(&dev, &img);
   vkDestroyRenderPass(dev.device, pass, NULL);
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

TEST_CASE(multiview_draws_clears_and_load_ops_reach_the_views_layers)
{
   multiview_scene(false);
}

TEST_CASE(dynamic_rendering_with_a_view_mask)
{
   multiview_scene(true);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
