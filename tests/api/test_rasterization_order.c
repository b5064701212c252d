/* VK_AMD_rasterization_order through the loader with validation on (vkppu
 * only: lavapipe does not have it). A pipeline asking for RELAXED order
 * draws the same pixels as the ordered one, and the chip counts as
 * relaxed (gfx.relaxed_draws, read with vkGetCountersVKPPU) exactly the
 * draws whose result cannot depend on order: the depth-only LESS pass,
 * not the colour pass after it (graphics-hw.md "Ordering"). */
#include <string.h>

#include "graphics_test_util.h"
#include "ppu/counters.h"

typedef VkResult(VKAPI_PTR *PFN_vkGetCountersVKPPU)(VkDevice device, uint32_t *pCounterCount,
                                                    uint64_t *pValues, const char **ppNames,
                                                    const char **ppUnits);

static const float RED[4] = {1, 0, 0, 1};
static const float GREEN[4] = {0, 1, 0, 1};

static uint64_t relaxed_draws(struct vkt_device *dev)
{
   PFN_vkGetCountersVKPPU get =
       (PFN_vkGetCountersVKPPU)vkGetDeviceProcAddr(dev->device, "vkGetCountersVKPPU");
   CHECK(get != NULL);
   uint64_t values[PPU_COUNTER_COUNT] = {0};
   uint32_t count = PPU_COUNTER_COUNT;
   if (get)
      CHECK(get(dev->device, &count, values, NULL, NULL) == VK_SUCCESS);
   return values[PPU_COUNTER_GFX_RELAXED_DRAWS];
}

TEST_CASE(relaxed_order_draws_the_ordered_pixels_and_relaxes_only_depth_only_draws)
{
   struct vkt_context ctx;
   struct vkt_device dev = {0};
   if (!vkt_context_create(&ctx))
      return;
   CHECK(vkt_has_device_extension(&ctx, VK_AMD_RASTERIZATION_ORDER_EXTENSION_NAME));
   const char *const ext[] = {VK_AMD_RASTERIZATION_ORDER_EXTENSION_NAME};
   struct vkt_device_desc desc = {.extensions = ext, .extension_count = 1};
   if (vkt_device_create(&ctx, &desc, &dev) != VK_SUCCESS) {
      CHECK(!"device with VK_AMD_rasterization_order");
      vkt_context_destroy(&ctx);
      return;
   }
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   struct gtarget t;
   if (gtu_target_create(&dev, VK_FORMAT_D32_SFLOAT, &t)) {
      VkPipelineRasterizationStateRasterizationOrderAMD relaxed = {
          .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_RASTERIZATION_ORDER_AMD,
          .rasterizationOrder = VK_RASTERIZATION_ORDER_RELAXED_AMD};
      VkPipelineDepthStencilStateCreateInfo ds = {
          .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
          .depthTestEnable = VK_TRUE,
          .depthWriteEnable = VK_TRUE,
          .depthCompareOp = VK_COMPARE_OP_LESS_OR_EQUAL};
      const VkPipelineColorBlendAttachmentState no_color = {.colorWriteMask = 0};
      /* A depth pre-pass (no colour writes), then colour with LEQUAL. */
      struct gtu_pipeline_desc prepass = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                          .ds = &ds,
                                          .blend = &no_color,
                                          .layout = layout,
                                          .pass = t.pass,
                                          .raster_next = &relaxed};
      struct gtu_pipeline_desc color = prepass;
      color.blend = NULL;
      VkPipeline pre, col;
      VKT_CHECK(gtu_pipeline(&dev, &prepass, &pre));
      VKT_CHECK(gtu_pipeline(&dev, &color, &col));
      struct gvertex v[12];
      gtu_rect(&v[0], 0, 0, 20, 32, 0.25f, RED);    /* near, left */
      gtu_rect(&v[6], 12, 0, 32, 32, 0.75f, GREEN); /* far, right, overlapping */
      struct vkt_buffer vb;
      if (pre && col &&
          gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
         uint64_t before = relaxed_draws(&dev);
         const float clear[4] = {0, 0, 0, 0};
         VkCommandBuffer cmd = gtu_begin(&dev, &t, clear, 1.0f, 0);
         gtu_bind_vertex_buffer(cmd, &vb);
         /* Far first, then near: the order a relaxed engine could swap. */
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pre);
         vkCmdDraw(cmd, 6, 1, 6, 0);
         vkCmdDraw(cmd, 6, 1, 0, 0);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, col);
         vkCmdDraw(cmd, 6, 1, 6, 0);
         vkCmdDraw(cmd, 6, 1, 0, 0);
         if (gtu_end_read(&dev, &t, cmd)) {
            uint32_t want[GW * GH];
            gtu_fill(want, 0, 0, 20, 32, gtu_rgba(255, 0, 0, 255));
            gtu_fill(want, 20, 0, 32, 32, gtu_rgba(0, 255, 0, 255));
            CHECK(gtu_check(&t, want, 0, "relaxed depth pre-pass and colour pass") == 0);
         }
         /* Two pre-pass draws are order-independent; the colour draws
          * write colour, so they stay ordered. */
         CHECK_EQ_U64(relaxed_draws(&dev) - before, 2);
         vkt_buffer_destroy(&dev, &vb);
      }
      vkDestroyPipeline(dev.device, pre, NULL);
      vkDestroyPipeline(dev.device, col, NULL);
      gtu_target_destroy(&dev, &t);
   }
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
