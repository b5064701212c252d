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

/* What both cases draw with: a case's device and target, a pipeline of
 * vertex shader `vs`, four 4x4 rectangles (vertices 6i..6i+5) at x[i] on
 * row 2 in colour c[i], and the index buffer 0..5 (uint16). */
struct rig {
   struct vkt_context ctx;
   struct vkt_device dev;
   struct gtarget t;
   VkPipelineLayout layout;
   VkPipeline pipe;
   struct vkt_buffer vb, ib;
   bool started, have_vb, have_ib; /* started: setup made ctx, dev and t */
};

static bool rig_begin(struct rig *r, const char *vs, const float x[4], const float *const c[4])
{
   memset(r, 0, sizeof(*r));
   if (!setup(&r->ctx, &r->dev, &r->t))
      return false;
   r->started = true;
   r->layout = gtu_empty_layout(&r->dev);
   struct gtu_pipeline_desc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                 .vs = vs,
                                 .layout = r->layout,
                                 .pass = r->t.pass};
   VKT_CHECK(gtu_pipeline(&r->dev, &d, &r->pipe));
   struct gvertex v[24];
   for (unsigned i = 0; i < 4; i++)
      gtu_rect(&v[6 * i], x[i], 2, x[i] + 4, 6, 0.5f, c[i]);
   const uint16_t idx[6] = {0, 1, 2, 3, 4, 5};
   r->have_vb = gtu_data_buffer(&r->dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &r->vb);
   r->have_ib = r->have_vb && gtu_data_buffer(&r->dev, idx, sizeof(idx),
                                              VK_BUFFER_USAGE_INDEX_BUFFER_BIT, &r->ib);
   return r->pipe && r->have_ib;
}

/* A command buffer in the target's render pass with the rig bound. */
static VkCommandBuffer rig_record(struct rig *r)
{
   VkCommandBuffer cmd = gtu_begin(&r->dev, &r->t, BLACK, 1, 0);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, r->pipe);
   gtu_bind_vertex_buffer(cmd, &r->vb);
   vkCmdBindIndexBuffer(cmd, r->ib.buffer, 0, VK_INDEX_TYPE_UINT16);
   return cmd;
}

static void rig_end(struct rig *r)
{
   if (!r->started)
      return; /* setup failed and cleaned up after itself */
   if (r->have_ib)
      vkt_buffer_destroy(&r->dev, &r->ib);
   if (r->have_vb)
      vkt_buffer_destroy(&r->dev, &r->vb);
   vkDestroyPipeline(r->dev.device, r->pipe, NULL);
   vkDestroyPipelineLayout(r->dev.device, r->layout, NULL);
   gtu_case_end(&r->ctx, &r->dev, &r->t);
}

TEST_CASE(multi_draws_number_their_draws)
{
   struct rig r;
   const float x[4] = {2, 20, 11, 26};
   const float *const c[4] = {GREEN, RED, BLUE, YELLOW};
   if (rig_begin(&r, "gfx_draw_index.vert", x, c)) {
      /* Every other element is padding the stride skips. */
      const VkMultiDrawInfoEXT draws[6] = {{0, 6}, {99, 99}, {6, 6}, {99, 99}, {0, 6}, {99, 99}};
      /* Blue as draws 0 and 2; draw 1 is empty but still counts. */
      const VkMultiDrawIndexedInfoEXT indexed[3] = {{0, 6, 12}, {0, 0, 0}, {0, 6, 12}};
      const VkMultiDrawIndexedInfoEXT shared[1] = {{0, 6, 12}};
      const int32_t yellow_offset = 18;
      VkCommandBuffer cmd = rig_record(&r);
      vkCmdDrawMultiEXT(cmd, 3, draws, 1, 0, 2 * sizeof(VkMultiDrawInfoEXT));
      vkCmdDrawMultiIndexedEXT(cmd, 3, indexed, 1, 0, sizeof(VkMultiDrawIndexedInfoEXT), NULL);
      vkCmdDrawMultiIndexedEXT(cmd, 1, shared, 1, 0, sizeof(VkMultiDrawIndexedInfoEXT),
                               &yellow_offset);
      vkCmdDrawMultiEXT(cmd, 0, NULL, 1, 0, sizeof(VkMultiDrawInfoEXT));
      if (gtu_end_read(&r.dev, &r.t, cmd)) {
         uint32_t want[GW * GH] = {0};
         const uint32_t green = gtu_rgba(0, 255, 0, 255), red = gtu_rgba(255, 0, 0, 255);
         const uint32_t blue = gtu_rgba(0, 0, 255, 255), yellow = gtu_rgba(255, 255, 0, 255);
         gtu_fill(want, 2, 2, 6, 6, green);
         gtu_fill(want, 20, 10, 24, 14, red);
         gtu_fill(want, 2, 18, 6, 22, green);
         gtu_fill(want, 11, 2, 15, 6, blue);
         gtu_fill(want, 11, 18, 15, 22, blue);
         gtu_fill(want, 26, 2, 30, 6, yellow);
         CHECK(gtu_check(&r.t, want, 0, "multi draw") == 0);
      }
   }
   rig_end(&r);
}

/* gfx_draw_parameters.vert colours each rectangle by its draw's
 * parameters: (BaseVertex, BaseInstance, DrawIndex) / 255. */
TEST_CASE(draw_parameters_reach_the_vertex_shader)
{
   struct rig r;
   const float x[4] = {2, 10, 18, 26};
   const float *const c[4] = {GREEN, GREEN, GREEN, GREEN};
   /* Indirect: draw 0 {6, 1, first 12, instance 7}, draw 1 {6, 1, 18, 9}. */
   const VkDrawIndirectCommand args[2] = {{6, 1, 12, 7}, {6, 1, 18, 9}};
   struct vkt_buffer ab;
   if (rig_begin(&r, "gfx_draw_parameters.vert", x, c) &&
       gtu_data_buffer(&r.dev, args, sizeof(args), VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, &ab)) {
      VkCommandBuffer cmd = rig_record(&r);
      vkCmdDraw(cmd, 6, 1, 0, 3);
      vkCmdDrawIndexed(cmd, 6, 1, 0, 6, 5);
      vkCmdDrawIndirect(cmd, ab.buffer, 0, 2, sizeof(VkDrawIndirectCommand));
      if (gtu_end_read(&r.dev, &r.t, cmd)) {
         uint32_t want[GW * GH] = {0};
         gtu_fill(want, 2, 2, 6, 6, gtu_rgba(0, 3, 0, 255));
         gtu_fill(want, 10, 2, 14, 6, gtu_rgba(6, 5, 0, 255));
         gtu_fill(want, 18, 2, 22, 6, gtu_rgba(12, 7, 0, 255));
         gtu_fill(want, 26, 2, 30, 6, gtu_rgba(18, 9, 1, 255));
         CHECK(gtu_check(&r.t, want, 0, "draw parameters") == 0);
      }
      vkt_buffer_destroy(&r.dev, &ab);
   }
   rig_end(&r);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
