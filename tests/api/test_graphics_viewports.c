/* multiViewport, shaderOutputViewportIndex and shaderOutputLayer
 * (api.graphics_viewports on vkppu, lvp.graphics_viewports on lavapipe):
 * gfx_vulkan12_layer.vert sends rectangles to the framebuffer layer their
 * colour's alpha names; gfx_vulkan12_viewport_index.vert
 * sends each rectangle to the viewport its colour's alpha names, so one
 * draw of four whole-NDC rectangles fills the four viewports, each cut by
 * its own scissor (Vulkan "Controlling the Viewport": the provoking
 * vertex's ViewportIndex selects viewport and scissor). Static viewports,
 * dynamic ones set from a first index above 0, and the counts of
 * VIEWPORT_WITH_COUNT. Exact pixels as in test_graphics.c. */
#include "graphics_test_util.h"

static const float BLACK[4] = {0, 0, 0, 0};

/* A device with multiViewport, shaderOutputViewportIndex and
 * shaderOutputLayer and a GW x GH
 * target with a depth_format attachment (gtu_case_begin). */
static bool begin_case(struct vkt_context *ctx, struct vkt_device *dev, VkFormat depth_format,
                       struct gtarget *t)
{
   static const char *const extensions[] = {VK_EXT_EXTENDED_DYNAMIC_STATE_EXTENSION_NAME};
   VkPhysicalDeviceVulkan12Features v12 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
       .shaderOutputViewportIndex = VK_TRUE,
       .shaderOutputLayer = VK_TRUE,
   };
   VkPhysicalDeviceExtendedDynamicStateFeaturesEXT eds = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_FEATURES_EXT,
       .pNext = &v12,
       .extendedDynamicState = VK_TRUE,
   };
   VkPhysicalDeviceFeatures want = {.multiViewport = VK_TRUE};
   struct vkt_device_desc desc = {
       .features = &want, .feature_chain = &eds, .extensions = extensions, .extension_count = 1};
   if (!gtu_case_begin(ctx, dev, &desc, depth_format, t))
      return false;
   VkPhysicalDeviceProperties props;
   vkGetPhysicalDeviceProperties(ctx->physical_device, &props);
   CHECK_MSG(props.limits.maxViewports >= 16, "maxViewports %u", props.limits.maxViewports);
   return true;
}

static const float COLOR[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 1}, {0, 0, 1, 2}, {1, 1, 1, 3}};
static const uint32_t RGBA[4] = {0xff0000ffu, 0xff00ff00u, 0xffff0000u, 0xffffffffu};

/* Quadrant q of the target (x right, then down) as a viewport. */
static VkViewport quadrant(unsigned q)
{
   return (VkViewport){(float)(q % 2) * GW / 2, (float)(q / 2) * GH / 2, GW / 2, GH / 2, 0, 1};
}

static const VkRect2D WHOLE = {{0, 0}, {GW, GH}};

/* Records n whole-NDC rectangles at z 0.5, rectangle i for viewport i,
 * into the target cleared to clear_depth, and reads it back. set_state
 * records the dynamic state, or is NULL. */
static bool draw(struct vkt_device *dev, struct gtarget *t, const struct gtu_pipeline_desc *base,
                 unsigned n, void (*set_state)(VkCommandBuffer cmd), float clear_depth)
{
   VkPipelineLayout layout = gtu_empty_layout(dev);
   struct gtu_pipeline_desc d = *base;
   d.vs = "gfx_vulkan12_viewport_index.vert";
   d.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
   d.layout = layout;
   d.pass = t->pass;
   VkPipeline pipe = VK_NULL_HANDLE;
   VKT_CHECK(gtu_pipeline(dev, &d, &pipe));
   struct gvertex v[4 * 6];
   for (unsigned i = 0; i < n; i++)
      gtu_rect(&v[6 * i], 0, 0, GW, GH, 0.5f, COLOR[i]);
   bool ok = false;
   struct vkt_buffer vb;
   if (pipe &&
       gtu_data_buffer(dev, v, 6 * n * sizeof(v[0]), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
      VkCommandBuffer cmd = gtu_begin(dev, t, BLACK, clear_depth, 0);
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
      if (set_state)
         set_state(cmd);
      gtu_bind_vertex_buffer(cmd, &vb);
      vkCmdDraw(cmd, 6 * n, 1, 0, 0);
      ok = gtu_end_read(dev, t, cmd);
      vkt_buffer_destroy(dev, &vb);
   }
   vkDestroyPipeline(dev->device, pipe, NULL);
   vkDestroyPipelineLayout(dev->device, layout, NULL);
   return ok;
}

/* expected[] for viewport i at quadrant at[i] with its scissor. */
static void expect(uint32_t *want, unsigned n, const unsigned *at, const VkRect2D *scissor)
{
   memset(want, 0, GW * GH * sizeof(*want));
   for (unsigned i = 0; i < n; i++) {
      VkViewport q = quadrant(at[i]);
      for (unsigned y = (unsigned)q.y; y < (unsigned)(q.y + q.height); y++)
         for (unsigned x = (unsigned)q.x; x < (unsigned)(q.x + q.width); x++)
            if ((int)x >= scissor[i].offset.x &&
                x < (unsigned)scissor[i].offset.x + scissor[i].extent.width &&
                (int)y >= scissor[i].offset.y &&
                y < (unsigned)scissor[i].offset.y + scissor[i].extent.height)
               want[y * GW + x] = RGBA[i];
   }
}

/* Four static viewports, one a quadrant each; viewport 3's scissor keeps
 * the 8x8 middle of its quadrant, viewport 1's the columns x < 20 (4
 * columns of its quadrant). */
TEST_CASE(static_viewports_and_scissors_are_picked_by_viewport_index)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   struct gtarget t;
   if (begin_case(&ctx, &dev, VK_FORMAT_UNDEFINED, &t)) {
      VkViewport vps[4];
      const unsigned at[4] = {0, 1, 2, 3};
      for (unsigned i = 0; i < 4; i++)
         vps[i] = quadrant(at[i]);
      const VkRect2D sc[4] = {WHOLE, {{0, 0}, {GW / 2 + 4, GH}}, WHOLE, {{20, 20}, {8, 8}}};
      struct gtu_pipeline_desc d = {.viewports = vps, .scissors = sc, .viewport_count = 4};
      if (draw(&dev, &t, &d, 4, NULL, 1.0f)) {
         uint32_t want[GW * GH];
         expect(want, 4, at, sc);
         CHECK(gtu_check(&t, want, 0, "static viewports") == 0);
      }
      gtu_case_end(&ctx, &dev, &t);
   }
}

/* Each viewport's depth range is its own: at z 0.5 viewports 0 and 2 map
 * to depth 0.2 (ranges [0, 0.4] and the inverted [0.4, 0]) and pass LESS
 * against a target cleared to 0.3, viewports 1 and 3 map to 0.8 ([0.6, 1],
 * [1, 0.6]) and fail. */
TEST_CASE(each_viewport_maps_depth_to_its_own_range)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   struct gtarget t;
   if (begin_case(&ctx, &dev, VK_FORMAT_D32_SFLOAT, &t)) {
      VkViewport vps[4];
      const float range[4][2] = {{0.0f, 0.4f}, {0.6f, 1.0f}, {0.4f, 0.0f}, {1.0f, 0.6f}};
      for (unsigned i = 0; i < 4; i++) {
         vps[i] = quadrant(i);
         vps[i].minDepth = range[i][0];
         vps[i].maxDepth = range[i][1];
      }
      const VkRect2D sc[4] = {WHOLE, WHOLE, WHOLE, WHOLE};
      VkPipelineDepthStencilStateCreateInfo ds = {
          .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
          .depthTestEnable = VK_TRUE,
          .depthCompareOp = VK_COMPARE_OP_LESS,
      };
      struct gtu_pipeline_desc d = {
          .viewports = vps, .scissors = sc, .viewport_count = 4, .ds = &ds};
      if (draw(&dev, &t, &d, 4, NULL, 0.3f)) {
         uint32_t want[GW * GH] = {0};
         gtu_fill(want, 0, 0, GW / 2, GH / 2, RGBA[0]);
         gtu_fill(want, 0, GH / 2, GW / 2, GH, RGBA[2]);
         CHECK(gtu_check(&t, want, 0, "per-viewport depth ranges") == 0);
      }
      gtu_case_end(&ctx, &dev, &t);
   }
}

static void set_reversed(VkCommandBuffer cmd)
{
   /* Viewport i at quadrant 3 - i, set from index 2 first, then 0. */
   VkViewport vps[4];
   for (unsigned i = 0; i < 4; i++)
      vps[i] = quadrant(3 - i);
   vkCmdSetViewport(cmd, 2, 2, &vps[2]);
   vkCmdSetViewport(cmd, 0, 2, &vps[0]);
   const VkRect2D sc[4] = {{{28, 28}, {4, 4}}, WHOLE, WHOLE, WHOLE};
   vkCmdSetScissor(cmd, 1, 3, &sc[1]);
   vkCmdSetScissor(cmd, 0, 1, &sc[0]);
}

TEST_CASE(dynamic_viewports_and_scissors_set_from_any_first_index)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   struct gtarget t;
   if (begin_case(&ctx, &dev, VK_FORMAT_UNDEFINED, &t)) {
      /* Static values that would put everything in quadrant 0. */
      VkViewport vps[4];
      VkRect2D sc[4];
      for (unsigned i = 0; i < 4; i++) {
         vps[i] = quadrant(0);
         sc[i] = WHOLE;
      }
      static const VkDynamicState dyn[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
      struct gtu_pipeline_desc d = {.viewports = vps,
                                    .scissors = sc,
                                    .viewport_count = 4,
                                    .dynamic = dyn,
                                    .dynamic_count = 2};
      if (draw(&dev, &t, &d, 4, set_reversed, 1.0f)) {
         uint32_t want[GW * GH];
         const unsigned at[4] = {3, 2, 1, 0};
         const VkRect2D want_sc[4] = {{{28, 28}, {4, 4}}, WHOLE, WHOLE, WHOLE};
         expect(want, 4, at, want_sc);
         CHECK(gtu_check(&t, want, 0, "dynamic viewports") == 0);
      }
      gtu_case_end(&ctx, &dev, &t);
   }
}

static void set_three_with_count(VkCommandBuffer cmd)
{
   const VkViewport vps[3] = {quadrant(1), quadrant(2), quadrant(0)};
   const VkRect2D sc[3] = {WHOLE, {{0, 16}, {8, 16}}, WHOLE};
   vkCmdSetViewportWithCountEXT(cmd, 3, vps);
   vkCmdSetScissorWithCountEXT(cmd, 3, sc);
}

TEST_CASE(viewport_and_scissor_counts_come_from_the_command_buffer_with_count)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   struct gtarget t;
   if (begin_case(&ctx, &dev, VK_FORMAT_UNDEFINED, &t)) {
      static const VkDynamicState dyn[] = {VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT,
                                           VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT};
      struct gtu_pipeline_desc d = {
          .viewport_with_count = true, .dynamic = dyn, .dynamic_count = 2};
      if (draw(&dev, &t, &d, 3, set_three_with_count, 1.0f)) {
         uint32_t want[GW * GH];
         const unsigned at[3] = {1, 2, 0};
         const VkRect2D sc[3] = {WHOLE, {{0, 16}, {8, 16}}, WHOLE};
         expect(want, 3, at, sc);
         CHECK(gtu_check(&t, want, 0, "viewports with count") == 0);
      }
      gtu_case_end(&ctx, &dev, &t);
   }
}

enum { LAYERS = 3 };

/* Rectangles sent to layers 2, 0, 2 and 1 of a 3-layer framebuffer (the
 * second on layer 2 over the first), so the layer changes between
 * primitives of one draw and comes back. */
TEST_CASE(gl_layer_picks_the_framebuffer_layer_of_each_primitive)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   struct gtarget t;
   if (!begin_case(&ctx, &dev, VK_FORMAT_UNDEFINED, &t))
      return;
   VkImageCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                            .imageType = VK_IMAGE_TYPE_2D,
                            .format = VK_FORMAT_R8G8B8A8_UNORM,
                            .extent = {GW, GH, 1},
                            .mipLevels = 1,
                            .arrayLayers = LAYERS,
                            .samples = VK_SAMPLE_COUNT_1_BIT,
                            .tiling = VK_IMAGE_TILING_OPTIMAL,
                            .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                                     VK_IMAGE_USAGE_TRANSFER_SRC_BIT};
   struct vkt_image img;
   struct vkt_buffer readback, vb;
   if (vkt_image_create(&dev, &ici, VK_IMAGE_VIEW_TYPE_2D_ARRAY, &img)) {
      VkFramebufferCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
                                     .renderPass = t.pass,
                                     .attachmentCount = 1,
                                     .pAttachments = &img.view,
                                     .width = GW,
                                     .height = GH,
                                     .layers = LAYERS};
      struct gtarget layered = t; /* the pass, with a framebuffer of the array */
      VKT_CHECK(vkCreateFramebuffer(dev.device, &fci, NULL, &layered.fb));
      VkPipelineLayout layout = gtu_empty_layout(&dev);
      struct gtu_pipeline_desc d = {.vs = "gfx_vulkan12_layer.vert",
                                    .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                    .layout = layout,
                                    .pass = t.pass};
      VkPipeline pipe = VK_NULL_HANDLE;
      VKT_CHECK(gtu_pipeline(&dev, &d, &pipe));
      static const float colour[4][4] = {{0, 0, 1, 2}, {1, 0, 0, 0}, {1, 1, 1, 2}, {0, 1, 0, 1}};
      static const unsigned rect[4][4] = {
          {0, 0, GW, GH}, {4, 4, 12, 12}, {16, 16, 24, 24}, {0, 20, GW, GH}};
      struct gvertex v[4 * 6];
      for (unsigned i = 0; i < 4; i++)
         gtu_rect(&v[6 * i], (float)rect[i][0], (float)rect[i][1], (float)rect[i][2],
                  (float)rect[i][3], 0.5f, colour[i]);
      if (pipe && gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
         VKT_CHECK(vkt_buffer_create(&dev, LAYERS * GW * GH * 4, VKT_USAGE_TRANSFER,
                                     VKT_MEMORY_HOST, &readback));
         VkCommandBuffer cmd = gtu_begin(&dev, &layered, BLACK, 1, 0);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
         gtu_bind_vertex_buffer(cmd, &vb);
         vkCmdDraw(cmd, 4 * 6, 1, 0, 0);
         vkCmdEndRenderPass(cmd);
         VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, LAYERS},
                                     .imageExtent = {GW, GH, 1}};
         vkCmdCopyImageToBuffer(cmd, img.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                readback.buffer, 1, &region);
         vkt_cmd_transfer_to_host_barrier(cmd);
         VKT_CHECK(vkt_cmd_submit_wait(&dev, dev.ctx->universal_family, 0, cmd));
         static uint32_t want[LAYERS][GW * GH];
         memset(want, 0, sizeof(want));
         for (unsigned i = 0; i < 4; i++) {
            const float *c = colour[i];
            gtu_fill(
                want[(unsigned)c[3]], rect[i][0], rect[i][1], rect[i][2], rect[i][3],
                gtu_rgba((uint8_t)(255 * c[0]), (uint8_t)(255 * c[1]), (uint8_t)(255 * c[2]), 255));
         }
         for (unsigned l = 0; l < LAYERS; l++) {
            /* gtu_check reads t.readback: point it at this layer's pixels. */
            struct gtarget view = t;
            view.readback.map = (uint8_t *)readback.map + l * GW * GH * 4;
            char what[32];
            snprintf(what, sizeof(what), "layer %u", l);
            CHECK(gtu_check(&view, want[l], 0, what) == 0);
         }
         vkt_buffer_destroy(&dev, &readback);
         vkt_buffer_destroy(&dev, &vb);
      }
      vkDestroyPipeline(dev.device, pipe, NULL);
      vkDestroyPipelineLayout(dev.device, layout, NULL);
      vkDestroyFramebuffer(dev.device, layered.fb, NULL);
      vkt_image_destroy(&dev, &img);
   }
   gtu_case_end(&ctx, &dev, &t);
}

/* The fragment stage reads the viewport index of the static-viewport case:
 * quadrant i is (i, 0, 0). */
TEST_CASE(fragment_programs_read_the_primitive_viewport_index)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   struct gtarget t;
   if (begin_case(&ctx, &dev, VK_FORMAT_UNDEFINED, &t)) {
      VkViewport vps[4];
      const VkRect2D sc[4] = {WHOLE, WHOLE, WHOLE, WHOLE};
      for (unsigned i = 0; i < 4; i++)
         vps[i] = quadrant(i);
      struct gtu_pipeline_desc d = {
          .fs = "gfx_viewport_read.frag", .viewports = vps, .scissors = sc, .viewport_count = 4};
      if (draw(&dev, &t, &d, 4, NULL, 1.0f)) {
         uint32_t want[GW * GH];
         for (unsigned i = 0; i < 4; i++)
            gtu_fill(want, (i % 2) * GW / 2, (i / 2) * GH / 2, (i % 2 + 1) * GW / 2,
                     (i / 2 + 1) * GH / 2, gtu_rgba((uint8_t)i, 0, 0, 255));
         CHECK(gtu_check(&t, want, 0, "fragment gl_ViewportIndex") == 0);
      }
      gtu_case_end(&ctx, &dev, &t);
   }
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
