/* multiViewport and shaderOutputViewportIndex (api.graphics_viewports on
 * vkppu, lvp.graphics_viewports on lavapipe): gfx_vulkan12_viewport_index.vert
 * sends each rectangle to the viewport its colour's alpha names, so one
 * draw of four whole-NDC rectangles fills the four viewports, each cut by
 * its own scissor (Vulkan "Controlling the Viewport": the provoking
 * vertex's ViewportIndex selects viewport and scissor). Static viewports,
 * dynamic ones set from a first index above 0, and the counts of
 * VIEWPORT_WITH_COUNT. Exact pixels as in test_graphics.c. */
#include "graphics_test_util.h"

static const float BLACK[4] = {0, 0, 0, 0};

/* A device with multiViewport and shaderOutputViewportIndex and a GW x GH
 * target with a depth_format attachment (gtu_case_begin). */
static bool begin_case(struct vkt_context *ctx, struct vkt_device *dev, VkFormat depth_format,
                       struct gtarget *t)
{
   static const char *const extensions[] = {VK_EXT_EXTENDED_DYNAMIC_STATE_EXTENSION_NAME};
   VkPhysicalDeviceVulkan12Features v12 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
       .shaderOutputViewportIndex = VK_TRUE,
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

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
