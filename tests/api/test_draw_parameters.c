/* shaderDrawParameters (BaseVertex, BaseInstance, DrawIndex) of direct,
 * indexed and indirect draws, and VK_EXT_multi_draw: vkCmdDrawMultiEXT and
 * vkCmdDrawMultiIndexedEXT with a stride larger than the info struct, an
 * empty draw in the middle, the per-draw and the shared vertex offset, and
 * DrawIndex counting the draws of one command (gfx_draw_index.vert moves
 * draw i down by 8 i pixels). Exact pixels as in test_graphics.c. */
#include "graphics_test_util.h"

static const float BLACK[4] = {0, 0, 0, 0};
static const float RED[4] = {1, 0, 0, 1};
static const float GREEN[4] = {0, 1, 0, 1};
static const float BLUE[4] = {0, 0, 1, 1};
static const float YELLOW[4] = {1, 1, 0, 1};

static bool setup(struct vkt_context *ctx, struct vkt_device *dev, struct gtarget *t)
{
   memset(dev, 0, sizeof(*dev));
   if (!vkt_context_create(ctx))
      return false;
   VkPhysicalDeviceMultiDrawFeaturesEXT multi = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_FEATURES_EXT};
   VkPhysicalDeviceVulkan11Features v11 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, .pNext = &multi};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &v11};
   vkGetPhysicalDeviceFeatures2(ctx->physical_device, &f2);
   if (!multi.multiDraw || !v11.shaderDrawParameters) {
      if (ctx->is_vkppu)
         CHECK_MSG(false, "vkppu lacks multiDraw (%u) or shaderDrawParameters (%u)",
                   multi.multiDraw, v11.shaderDrawParameters);
      else
         vkt_skip("multiDraw not supported");
      vkt_context_destroy(ctx);
      return false;
   }
   VkPhysicalDeviceMultiDrawPropertiesEXT props = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_PROPERTIES_EXT};
   VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                     .pNext = &props};
   vkGetPhysicalDeviceProperties2(ctx->physical_device, &p2);
   CHECK_MSG(props.maxMultiDrawCount >= 4, "maxMultiDrawCount %u", props.maxMultiDrawCount);
   static const char *const extensions[] = {VK_EXT_MULTI_DRAW_EXTENSION_NAME};
   v11 = (VkPhysicalDeviceVulkan11Features){
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
       .pNext = &multi,
       .shaderDrawParameters = VK_TRUE};
   multi.pNext = NULL;
   VkPhysicalDeviceFeatures core = {.multiDrawIndirect = VK_TRUE};
   struct vkt_device_desc desc = {
       .extensions = extensions, .extension_count = 1, .features = &core, .feature_chain = &v11};
   /* gtu_case_begin makes its own context: this one only asked. */
   vkt_context_destroy(ctx);
   return gtu_case_begin(ctx, dev, &desc, VK_FORMAT_UNDEFINED, t);
}

TEST_CASE(multi_draws_number_their_draws)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   struct gtarget t;
   if (!setup(&ctx, &dev, &t))
      return;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   struct gtu_pipeline_desc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                 .vs = "gfx_draw_index.vert",
                                 .layout = layout,
                                 .pass = t.pass};
   VkPipeline pipe;
   VKT_CHECK(gtu_pipeline(&dev, &d, &pipe));
   struct gvertex v[24];
   gtu_rect(&v[0], 2, 2, 6, 6, 0.5f, GREEN);
   gtu_rect(&v[6], 20, 2, 24, 6, 0.5f, RED);
   gtu_rect(&v[12], 11, 2, 15, 6, 0.5f, BLUE);
   gtu_rect(&v[18], 26, 2, 30, 6, 0.5f, YELLOW);
   const uint16_t idx[6] = {0, 1, 2, 3, 4, 5};
   struct vkt_buffer vb, ib;
   bool have_vb = gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb);
   bool have_ib =
       have_vb && gtu_data_buffer(&dev, idx, sizeof(idx), VK_BUFFER_USAGE_INDEX_BUFFER_BIT, &ib);
   if (pipe && have_ib) {
      /* Every other element is padding the stride skips. */
      const VkMultiDrawInfoEXT draws[6] = {{0, 6}, {99, 99}, {6, 6}, {99, 99}, {0, 6}, {99, 99}};
      /* Blue as draws 0 and 2; draw 1 is empty but still counts. */
      const VkMultiDrawIndexedInfoEXT indexed[3] = {{0, 6, 12}, {0, 0, 0}, {0, 6, 12}};
      const VkMultiDrawIndexedInfoEXT shared[1] = {{0, 6, 12}};
      const int32_t yellow_offset = 18;
      VkCommandBuffer cmd = gtu_begin(&dev, &t, BLACK, 1, 0);
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
      gtu_bind_vertex_buffer(cmd, &vb);
      vkCmdBindIndexBuffer(cmd, ib.buffer, 0, VK_INDEX_TYPE_UINT16);
      vkCmdDrawMultiEXT(cmd, 3, draws, 1, 0, 2 * sizeof(VkMultiDrawInfoEXT));
      vkCmdDrawMultiIndexedEXT(cmd, 3, indexed, 1, 0, sizeof(VkMultiDrawIndexedInfoEXT), NULL);
      vkCmdDrawMultiIndexedEXT(cmd, 1, shared, 1, 0, sizeof(VkMultiDrawIndexedInfoEXT),
                               &yellow_offset);
      vkCmdDrawMultiEXT(cmd, 0, NULL, 1, 0, sizeof(VkMultiDrawInfoEXT));
      if (gtu_end_read(&dev, &t, cmd)) {
         uint32_t want[GW * GH] = {0};
         const uint32_t green = gtu_rgba(0, 255, 0, 255), red = gtu_rgba(255, 0, 0, 255);
         const uint32_t blue = gtu_rgba(0, 0, 255, 255), yellow = gtu_rgba(255, 255, 0, 255);
         gtu_fill(want, 2, 2, 6, 6, green);
         gtu_fill(want, 20, 10, 24, 14, red);
         gtu_fill(want, 2, 18, 6, 22, green);
         gtu_fill(want, 11, 2, 15, 6, blue);
         gtu_fill(want, 11, 18, 15, 22, blue);
         gtu_fill(want, 26, 2, 30, 6, yellow);
         CHECK(gtu_check(&t, want, 0, "multi draw") == 0);
      }
   }
   if (have_ib)
      vkt_buffer_destroy(&dev, &ib);
   if (have_vb)
      vkt_buffer_destroy(&dev, &vb);
   vkDestroyPipeline(dev.device, pipe, NULL);
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   gtu_case_end(&ctx, &dev, &t);
}

/* gfx_draw_parameters.vert colours each rectangle by its draw's
 * parameters: (BaseVertex, BaseInstance, DrawIndex) / 255. */
TEST_CASE(draw_parameters_reach_the_vertex_shader)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   struct gtarget t;
   if (!setup(&ctx, &dev, &t))
      return;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   struct gtu_pipeline_desc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                 .vs = "gfx_draw_parameters.vert",
                                 .layout = layout,
                                 .pass = t.pass};
   VkPipeline pipe;
   VKT_CHECK(gtu_pipeline(&dev, &d, &pipe));
   struct gvertex v[24];
   gtu_rect(&v[0], 2, 2, 6, 6, 0.5f, GREEN);
   gtu_rect(&v[6], 10, 2, 14, 6, 0.5f, GREEN);
   gtu_rect(&v[12], 18, 2, 22, 6, 0.5f, GREEN);
   gtu_rect(&v[18], 26, 2, 30, 6, 0.5f, GREEN);
   const uint16_t idx[6] = {0, 1, 2, 3, 4, 5};
   /* Indirect: draw 0 {6, 1, first 12, instance 7}, draw 1 {6, 1, 18, 9}. */
   const VkDrawIndirectCommand args[2] = {{6, 1, 12, 7}, {6, 1, 18, 9}};
   struct vkt_buffer vb, ib, ab;
   bool have_vb = gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb);
   bool have_ib =
       have_vb && gtu_data_buffer(&dev, idx, sizeof(idx), VK_BUFFER_USAGE_INDEX_BUFFER_BIT, &ib);
   bool have_ab = have_ib && gtu_data_buffer(&dev, args, sizeof(args),
                                             VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, &ab);
   if (pipe && have_ab) {
      VkCommandBuffer cmd = gtu_begin(&dev, &t, BLACK, 1, 0);
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
      gtu_bind_vertex_buffer(cmd, &vb);
      vkCmdBindIndexBuffer(cmd, ib.buffer, 0, VK_INDEX_TYPE_UINT16);
      vkCmdDraw(cmd, 6, 1, 0, 3);
      vkCmdDrawIndexed(cmd, 6, 1, 0, 6, 5);
      vkCmdDrawIndirect(cmd, ab.buffer, 0, 2, sizeof(VkDrawIndirectCommand));
      if (gtu_end_read(&dev, &t, cmd)) {
         uint32_t want[GW * GH] = {0};
         gtu_fill(want, 2, 2, 6, 6, gtu_rgba(0, 3, 0, 255));
         gtu_fill(want, 10, 2, 14, 6, gtu_rgba(6, 5, 0, 255));
         gtu_fill(want, 18, 2, 22, 6, gtu_rgba(12, 7, 0, 255));
         gtu_fill(want, 26, 2, 30, 6, gtu_rgba(18, 9, 1, 255));
         CHECK(gtu_check(&t, want, 0, "draw parameters") == 0);
      }
   }
   if (have_ab)
      vkt_buffer_destroy(&dev, &ab);
   if (have_ib)
      vkt_buffer_destroy(&dev, &ib);
   if (have_vb)
      vkt_buffer_destroy(&dev, &vb);
   vkDestroyPipeline(dev.device, pipe, NULL);
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   gtu_case_end(&ctx, &dev, &t);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
