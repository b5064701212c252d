/* The Vulkan 1.3 dynamic states of VK_EXT_extended_dynamic_state and
 * VK_EXT_extended_dynamic_state2 through the loader with validation on
 * (api.graphics_dynamic_state on vkppu, lvp.graphics_dynamic_state on
 * lavapipe). One pipeline leaves every state dynamic with static values
 * that would give other pixels; 8x8-pixel cells of one frame each show
 * one state. Exact pixels. */
#include "graphics_test_util.h"

static const float BLACK[4] = {0, 0, 0, 0};
static const float RED[4] = {1, 0, 0, 1};
static const float GREEN[4] = {0, 1, 0, 1};
static const float BLUE[4] = {0, 0, 1, 1};

static bool setup(struct vkt_context *ctx, struct vkt_device *dev)
{
   static const char *const extensions[] = {VK_EXT_EXTENDED_DYNAMIC_STATE_EXTENSION_NAME,
                                            VK_EXT_EXTENDED_DYNAMIC_STATE_2_EXTENSION_NAME};
   VkPhysicalDeviceExtendedDynamicState2FeaturesEXT eds2 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_2_FEATURES_EXT,
       .extendedDynamicState2 = VK_TRUE,
       .extendedDynamicState2LogicOp = VK_TRUE,
   };
   VkPhysicalDeviceExtendedDynamicStateFeaturesEXT eds = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_FEATURES_EXT,
       .pNext = &eds2,
       .extendedDynamicState = VK_TRUE,
   };
   VkPhysicalDeviceFeatures want = {.logicOp = VK_TRUE};
   struct vkt_device_desc desc = {
       .features = &want, .feature_chain = &eds, .extensions = extensions, .extension_count = 2};
   return gtu_setup_device(ctx, dev, &desc);
}

/* A depth/stencil format both implementations render to. */
static VkFormat stencil_format(struct vkt_device *dev)
{
   return gtu_depth_supported(dev, VK_FORMAT_D32_SFLOAT_S8_UINT) ? VK_FORMAT_D32_SFLOAT_S8_UINT
                                                                 : VK_FORMAT_D24_UNORM_S8_UINT;
}

static const VkDynamicState every_state[] = {
    VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT,
    VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT,
    VK_DYNAMIC_STATE_CULL_MODE,
    VK_DYNAMIC_STATE_FRONT_FACE,
    VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY,
    VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE,
    VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE,
    VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE,
    VK_DYNAMIC_STATE_DEPTH_COMPARE_OP,
    VK_DYNAMIC_STATE_DEPTH_BOUNDS_TEST_ENABLE,
    VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE,
    VK_DYNAMIC_STATE_STENCIL_OP,
    VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE,
    VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE,
    VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE,
};

/* Cell (cx, cy) of the 4x4 grid of 8x8-pixel cells. */
static void cell_rect(struct gvertex *v, unsigned cx, unsigned cy, float z, const float c[4])
{
   gtu_rect(v, 8.0f * cx, 8.0f * cy, 8.0f * cx + 8, 8.0f * cy + 8, z, c);
}

static void cell_fill(uint32_t *want, unsigned cx, unsigned cy, uint32_t c)
{
   gtu_fill(want, 8 * cx, 8 * cy, 8 * cx + 8, 8 * cy + 8, c);
}

enum {
   V_CULL = 0,      /* 4 clockwise cells of row 0 */
   V_STRIP = 24,    /* 4 strip vertices of cell (0, 1) */
   V_RESTART = 28,  /* 8 strip vertices of cells (1, 1) and (2, 1) */
   V_DEPTH = 36,    /* cell (0, 2): red 0.5, green 0.7, blue 0.6 */
   V_NO_TEST = 54,  /* cell (1, 2): red 0.5, green 0.9 */
   V_BIAS = 66,     /* cell (2, 2): red 0.5, green 0.503 */
   V_STENCIL = 78,  /* cell (0, 3): red, green; cell (1, 3): green, blue */
   V_DISCARD = 102, /* cell (2, 3) */
   V_COUNT = 108,
};

/* Sets every dynamic state to a neutral value. */
static void neutral_states(VkCommandBuffer cmd)
{
   const VkViewport vp = {0, 0, GW, GH, 0, 1};
   const VkRect2D sc = {{0, 0}, {GW, GH}};
   vkCmdSetViewportWithCountEXT(cmd, 1, &vp);
   vkCmdSetScissorWithCountEXT(cmd, 1, &sc);
   vkCmdSetCullModeEXT(cmd, VK_CULL_MODE_NONE);
   vkCmdSetFrontFaceEXT(cmd, VK_FRONT_FACE_COUNTER_CLOCKWISE);
   vkCmdSetPrimitiveTopologyEXT(cmd, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
   vkCmdSetDepthTestEnableEXT(cmd, VK_FALSE);
   vkCmdSetDepthWriteEnableEXT(cmd, VK_FALSE);
   vkCmdSetDepthCompareOpEXT(cmd, VK_COMPARE_OP_LESS);
   vkCmdSetDepthBoundsTestEnableEXT(cmd, VK_FALSE);
   vkCmdSetStencilTestEnableEXT(cmd, VK_FALSE);
   vkCmdSetStencilOpEXT(cmd, VK_STENCIL_FACE_FRONT_AND_BACK, VK_STENCIL_OP_KEEP, VK_STENCIL_OP_KEEP,
                        VK_STENCIL_OP_KEEP, VK_COMPARE_OP_ALWAYS);
   vkCmdSetRasterizerDiscardEnableEXT(cmd, VK_FALSE);
   vkCmdSetDepthBiasEnableEXT(cmd, VK_FALSE);
   vkCmdSetPrimitiveRestartEnableEXT(cmd, VK_FALSE);
}

TEST_CASE(every_extended_dynamic_state)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!setup(&ctx, &dev))
      return;
   struct gtarget t;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   if (gtu_target_create(&dev, stencil_format(&dev), &t)) {
      /* Static values the dynamic ones must override: depth LESS_OR_EQUAL
       * test and write on, stencil NEVER, discard on, restart off, cull
       * everything. The static depth bias (constant 100000, about 0.006
       * on a 24-bit or 32-bit float depth at 0.5) applies when enabled. */
      const VkStencilOpState never = {VK_STENCIL_OP_ZERO,
                                      VK_STENCIL_OP_ZERO,
                                      VK_STENCIL_OP_ZERO,
                                      VK_COMPARE_OP_NEVER,
                                      0xff,
                                      0xff,
                                      1};
      VkPipelineDepthStencilStateCreateInfo ds = {
          .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
          .depthTestEnable = VK_TRUE,
          .depthWriteEnable = VK_TRUE,
          .depthCompareOp = VK_COMPARE_OP_LESS_OR_EQUAL,
          .stencilTestEnable = VK_TRUE,
          .front = never,
          .back = never,
      };
      const float bias[3] = {100000.0f, 0.0f, 0.0f};
      struct gtu_pipeline_desc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                    .cull = VK_CULL_MODE_FRONT_AND_BACK,
                                    .ds = &ds,
                                    .depth_bias = bias,
                                    .dynamic = every_state,
                                    .dynamic_count = sizeof(every_state) / sizeof(every_state[0]),
                                    .viewport_with_count = true,
                                    .layout = layout,
                                    .pass = t.pass};
      VkPipeline pipe;
      VKT_CHECK(gtu_pipeline(&dev, &d, &pipe));

      struct gvertex v[V_COUNT];
      memset(v, 0, sizeof(v));
      for (unsigned i = 0; i < 4; i++)
         cell_rect(&v[V_CULL + 6 * i], i, 0, 0.5f, RED);
      /* Strips: (x0,y0) (x1,y0) (x0,y1) (x1,y1) cover the cell. */
      for (unsigned k = 0; k < 3; k++) {
         struct gvertex *s = &v[k == 0 ? V_STRIP : V_RESTART + 4 * (k - 1)];
         float x0 = 8.0f * k, y0 = 8;
         s[0] = gvtx(x0, y0, 0.5f, GREEN);
         s[1] = gvtx(x0 + 8, y0, 0.5f, GREEN);
         s[2] = gvtx(x0, y0 + 8, 0.5f, GREEN);
         s[3] = gvtx(x0 + 8, y0 + 8, 0.5f, GREEN);
      }
      cell_rect(&v[V_DEPTH], 0, 2, 0.5f, RED);
      cell_rect(&v[V_DEPTH + 6], 0, 2, 0.7f, GREEN);
      cell_rect(&v[V_DEPTH + 12], 0, 2, 0.6f, BLUE);
      cell_rect(&v[V_NO_TEST], 1, 2, 0.5f, RED);
      cell_rect(&v[V_NO_TEST + 6], 1, 2, 0.9f, GREEN);
      cell_rect(&v[V_BIAS], 2, 2, 0.5f, RED);
      cell_rect(&v[V_BIAS + 6], 2, 2, 0.503f, GREEN);
      cell_rect(&v[V_STENCIL], 0, 3, 0.5f, RED);
      cell_rect(&v[V_STENCIL + 6], 0, 3, 0.5f, GREEN);
      cell_rect(&v[V_STENCIL + 12], 1, 3, 0.5f, GREEN);
      cell_rect(&v[V_STENCIL + 18], 1, 3, 0.5f, BLUE);
      cell_rect(&v[V_DISCARD], 2, 3, 0.5f, RED);
      /* Cell (3, 3) through a stride of two vertices: each one is followed
       * by a red full-target one that a stride of one would draw. */
      struct gvertex strided[12], whole[6];
      gtu_rect(whole, 0, 0, GW, GH, 0.0f, RED);
      cell_rect(strided, 3, 3, 0.5f, BLUE);
      for (int i = 5; i >= 0; i--) {
         strided[2 * i] = strided[i];
         strided[2 * i + 1] = whole[i];
      }
      const uint16_t restart_idx[9] = {0, 1, 2, 3, 0xffff, 4, 5, 6, 7};
      struct vkt_buffer vb, sb, ib;
      if (pipe && gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb) &&
          gtu_data_buffer(&dev, strided, sizeof(strided), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &sb) &&
          gtu_data_buffer(&dev, restart_idx, sizeof(restart_idx), VK_BUFFER_USAGE_INDEX_BUFFER_BIT,
                          &ib)) {
         VkCommandBuffer cmd = gtu_begin(&dev, &t, BLACK, 1.0f, 0);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
         const VkDeviceSize zero = 0, one = sizeof(struct gvertex), two = 2 * one;
         vkCmdBindVertexBuffers2EXT(cmd, 0, 1, &vb.buffer, &zero, NULL, &one);
         neutral_states(cmd);
         /* Row 0: clockwise cells; front CW + cull BACK keeps cell 0,
          * front CCW + cull BACK drops cell 1, cull FRONT keeps cell 2
          * (back facing), FRONT_AND_BACK drops cell 3. */
         const VkCullModeFlags cull[4] = {VK_CULL_MODE_BACK_BIT, VK_CULL_MODE_BACK_BIT,
                                          VK_CULL_MODE_FRONT_BIT, VK_CULL_MODE_FRONT_AND_BACK};
         const VkFrontFace front[4] = {VK_FRONT_FACE_CLOCKWISE, VK_FRONT_FACE_COUNTER_CLOCKWISE,
                                       VK_FRONT_FACE_COUNTER_CLOCKWISE,
                                       VK_FRONT_FACE_COUNTER_CLOCKWISE};
         for (unsigned i = 0; i < 4; i++) {
            vkCmdSetCullModeEXT(cmd, cull[i]);
            vkCmdSetFrontFaceEXT(cmd, front[i]);
            vkCmdDraw(cmd, 6, 1, V_CULL + 6 * i, 0);
         }
         vkCmdSetCullModeEXT(cmd, VK_CULL_MODE_NONE);
         /* Row 1: a strip, and two strips split by a restart index. */
         vkCmdSetPrimitiveTopologyEXT(cmd, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP);
         vkCmdDraw(cmd, 4, 1, V_STRIP, 0);
         vkCmdSetPrimitiveRestartEnableEXT(cmd, VK_TRUE);
         vkCmdBindIndexBuffer(cmd, ib.buffer, 0, VK_INDEX_TYPE_UINT16);
         vkCmdDrawIndexed(cmd, 9, 1, 0, V_RESTART, 0);
         vkCmdSetPrimitiveRestartEnableEXT(cmd, VK_FALSE);
         vkCmdSetPrimitiveTopologyEXT(cmd, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
         /* Row 2, cell 0: red writes 0.5; green 0.7 passes GREATER without
          * writing; blue 0.6 then fails LESS against the 0.5 kept. */
         vkCmdSetDepthTestEnableEXT(cmd, VK_TRUE);
         vkCmdSetDepthWriteEnableEXT(cmd, VK_TRUE);
         vkCmdDraw(cmd, 6, 1, V_DEPTH, 0);
         vkCmdSetDepthWriteEnableEXT(cmd, VK_FALSE);
         vkCmdSetDepthCompareOpEXT(cmd, VK_COMPARE_OP_GREATER);
         vkCmdDraw(cmd, 6, 1, V_DEPTH + 6, 0);
         vkCmdSetDepthCompareOpEXT(cmd, VK_COMPARE_OP_LESS);
         vkCmdDraw(cmd, 6, 1, V_DEPTH + 12, 0);
         /* Cell 1: red writes 0.5, green 0.9 lands with the test off. */
         vkCmdSetDepthWriteEnableEXT(cmd, VK_TRUE);
         vkCmdDraw(cmd, 6, 1, V_NO_TEST, 0);
         vkCmdSetDepthTestEnableEXT(cmd, VK_FALSE);
         vkCmdDraw(cmd, 6, 1, V_NO_TEST + 6, 0);
         /* Cell 2: red at 0.5 biased to about 0.506; green 0.503 passes
          * LESS only because of the bias. */
         vkCmdSetDepthTestEnableEXT(cmd, VK_TRUE);
         vkCmdSetDepthBiasEnableEXT(cmd, VK_TRUE);
         vkCmdDraw(cmd, 6, 1, V_BIAS, 0);
         vkCmdSetDepthBiasEnableEXT(cmd, VK_FALSE);
         vkCmdDraw(cmd, 6, 1, V_BIAS + 6, 0);
         vkCmdSetDepthTestEnableEXT(cmd, VK_FALSE);
         vkCmdSetDepthWriteEnableEXT(cmd, VK_FALSE);
         /* Row 3, cell 0: red writes stencil 1 (ALWAYS, REPLACE with the
          * static reference 1), green passes EQUAL. Cell 1: green fails
          * EQUAL on stencil 0; blue lands with the test off. */
         vkCmdSetStencilTestEnableEXT(cmd, VK_TRUE);
         vkCmdSetStencilOpEXT(cmd, VK_STENCIL_FACE_FRONT_AND_BACK, VK_STENCIL_OP_KEEP,
                              VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_ALWAYS);
         vkCmdDraw(cmd, 6, 1, V_STENCIL, 0);
         vkCmdSetStencilOpEXT(cmd, VK_STENCIL_FACE_FRONT_AND_BACK, VK_STENCIL_OP_KEEP,
                              VK_STENCIL_OP_KEEP, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_EQUAL);
         vkCmdDraw(cmd, 6, 1, V_STENCIL + 6, 0);
         vkCmdDraw(cmd, 6, 1, V_STENCIL + 12, 0);
         vkCmdSetStencilTestEnableEXT(cmd, VK_FALSE);
         vkCmdDraw(cmd, 6, 1, V_STENCIL + 18, 0);
         /* Cell 2: discarded. Cell 3: the strided buffer. */
         vkCmdSetRasterizerDiscardEnableEXT(cmd, VK_TRUE);
         vkCmdDraw(cmd, 6, 1, V_DISCARD, 0);
         vkCmdSetRasterizerDiscardEnableEXT(cmd, VK_FALSE);
         vkCmdBindVertexBuffers2EXT(cmd, 0, 1, &sb.buffer, &zero, NULL, &two);
         vkCmdDraw(cmd, 6, 1, 0, 0);
         if (gtu_end_read(&dev, &t, cmd)) {
            const uint32_t red = gtu_rgba(255, 0, 0, 255), green = gtu_rgba(0, 255, 0, 255),
                           blue = gtu_rgba(0, 0, 255, 255);
            uint32_t want[GW * GH] = {0};
            cell_fill(want, 0, 0, red);
            cell_fill(want, 2, 0, red);
            for (unsigned i = 0; i < 3; i++)
               cell_fill(want, i, 1, green);
            cell_fill(want, 0, 2, green);
            cell_fill(want, 1, 2, green);
            cell_fill(want, 2, 2, green);
            cell_fill(want, 0, 3, green);
            cell_fill(want, 1, 3, blue);
            cell_fill(want, 3, 3, blue);
            CHECK(gtu_check(&t, want, 0, "extended dynamic state") == 0);
         }
         vkt_buffer_destroy(&dev, &vb);
         vkt_buffer_destroy(&dev, &sb);
         vkt_buffer_destroy(&dev, &ib);
      }
      vkDestroyPipeline(dev.device, pipe, NULL);
      gtu_target_destroy(&dev, &t);
   }
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* VK_EXT_extended_dynamic_state2's logic op: the pipeline enables logic ops
 * with a static SET (white everywhere if it were used). Red XOR-drawn on
 * the left half, then XOR-drawn over everything, clears the left half and
 * draws red on the right. On vkppu also COPY then XOR in one instance:
 * the lavapipe of Debian 12's backports keeps the first draw's op for the
 * later draws of an instance. */
TEST_CASE(dynamic_logic_op)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!setup(&ctx, &dev))
      return;
   struct gtarget t;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   if (gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &t)) {
      const VkDynamicState dyn = VK_DYNAMIC_STATE_LOGIC_OP_EXT;
      struct gtu_pipeline_desc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                    .logic_op = VK_LOGIC_OP_SET,
                                    .dynamic = &dyn,
                                    .dynamic_count = 1,
                                    .layout = layout,
                                    .pass = t.pass};
      VkPipeline pipe;
      VKT_CHECK(gtu_pipeline(&dev, &d, &pipe));
      struct gvertex v[12];
      gtu_rect(&v[0], 0, 0, 16, 32, 0.5f, RED);
      gtu_rect(&v[6], 0, 0, 32, 32, 0.5f, RED);
      struct vkt_buffer vb;
      if (pipe && gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
         const VkLogicOp first[2] = {VK_LOGIC_OP_XOR, VK_LOGIC_OP_COPY};
         for (unsigned k = 0; k < (ctx.is_vkppu ? 2u : 1u); k++) {
            VkCommandBuffer cmd = gtu_begin(&dev, &t, BLACK, 1.0f, 0);
            gtu_bind_vertex_buffer(cmd, &vb);
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
            vkCmdSetLogicOpEXT(cmd, first[k]);
            vkCmdDraw(cmd, 6, 1, 0, 0);
            vkCmdSetLogicOpEXT(cmd, VK_LOGIC_OP_XOR);
            vkCmdDraw(cmd, 6, 1, 6, 0);
            if (gtu_end_read(&dev, &t, cmd)) {
               uint32_t want[GW * GH] = {0};
               gtu_fill(want, 16, 0, 32, 32, gtu_rgba(255, 0, 0, 255));
               CHECK(gtu_check(&t, want, 0, k ? "COPY then XOR" : "XOR twice") == 0);
            }
         }
         vkt_buffer_destroy(&dev, &vb);
      }
      vkDestroyPipeline(dev.device, pipe, NULL);
      gtu_target_destroy(&dev, &t);
   }
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* VK_EXT_vertex_input_dynamic_state: one pipeline with no vertex input
 * state draws three rectangles with three states set by
 * vkCmdSetVertexInputEXT: the gvertex layout (float colour at offset 12),
 * the colour from a second binding of R8G8B8A8_UNORM per instance, and
 * the first again (a compiled state reused). Each must read its layout. */
TEST_CASE(vertex_input_state_set_by_the_command_buffer)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   memset(&dev, 0, sizeof(dev));
   if (!vkt_context_create(&ctx))
      return;
   VkPhysicalDeviceVertexInputDynamicStateFeaturesEXT have = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_INPUT_DYNAMIC_STATE_FEATURES_EXT};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &have};
   vkGetPhysicalDeviceFeatures2(ctx.physical_device, &f2);
   if (!have.vertexInputDynamicState) {
      if (ctx.is_vkppu)
         CHECK_MSG(false, "vkppu does not report vertexInputDynamicState");
      else
         vkt_skip("vertexInputDynamicState not supported");
      vkt_context_destroy(&ctx);
      return;
   }
   static const char *const extensions[] = {VK_EXT_VERTEX_INPUT_DYNAMIC_STATE_EXTENSION_NAME};
   struct vkt_device_desc desc = {
       .feature_chain = &have, .extensions = extensions, .extension_count = 1};
   struct gtarget t;
   /* gtu_case_begin makes its own context: this one only asked. */
   vkt_context_destroy(&ctx);
   if (!gtu_case_begin(&ctx, &dev, &desc, VK_FORMAT_UNDEFINED, &t))
      return;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   const VkDynamicState dyn = VK_DYNAMIC_STATE_VERTEX_INPUT_EXT;
   struct gtu_pipeline_desc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                 .dynamic = &dyn,
                                 .dynamic_count = 1,
                                 .layout = layout,
                                 .pass = t.pass};
   VkPipeline pipe;
   VKT_CHECK(gtu_pipeline(&dev, &d, &pipe));
   struct gvertex v[18];
   gtu_rect(&v[0], 2, 2, 10, 10, 0.5f, RED);
   gtu_rect(&v[6], 12, 2, 20, 10, 0.5f, RED);
   gtu_rect(&v[12], 22, 2, 30, 10, 0.5f, RED);
   /* Binding 1: one R8G8B8A8_UNORM colour per instance (blue). */
   const uint32_t instance_colour[1] = {0xffff0000u};
   struct vkt_buffer vb, cb;
   bool have_vb = gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb);
   bool have_cb = have_vb && gtu_data_buffer(&dev, instance_colour, sizeof(instance_colour),
                                             VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &cb);
   if (pipe && have_cb) {
      const VkVertexInputBindingDescription2EXT one_binding[1] = {
          {VK_STRUCTURE_TYPE_VERTEX_INPUT_BINDING_DESCRIPTION_2_EXT, NULL, 0,
           sizeof(struct gvertex), VK_VERTEX_INPUT_RATE_VERTEX, 1}};
      const VkVertexInputAttributeDescription2EXT float_colour[2] = {
          {VK_STRUCTURE_TYPE_VERTEX_INPUT_ATTRIBUTE_DESCRIPTION_2_EXT, NULL, 0, 0,
           VK_FORMAT_R32G32B32_SFLOAT, 0},
          {VK_STRUCTURE_TYPE_VERTEX_INPUT_ATTRIBUTE_DESCRIPTION_2_EXT, NULL, 1, 0,
           VK_FORMAT_R32G32B32A32_SFLOAT, 12}};
      const VkVertexInputBindingDescription2EXT two_bindings[2] = {
          one_binding[0],
          {VK_STRUCTURE_TYPE_VERTEX_INPUT_BINDING_DESCRIPTION_2_EXT, NULL, 1, 4,
           VK_VERTEX_INPUT_RATE_INSTANCE, 1}};
      const VkVertexInputAttributeDescription2EXT byte_colour[2] = {
          float_colour[0],
          {VK_STRUCTURE_TYPE_VERTEX_INPUT_ATTRIBUTE_DESCRIPTION_2_EXT, NULL, 1, 1,
           VK_FORMAT_R8G8B8A8_UNORM, 0}};
      VkCommandBuffer cmd = gtu_begin(&dev, &t, BLACK, 1, 0);
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
      VkBuffer bufs[2] = {vb.buffer, cb.buffer};
      VkDeviceSize offs[2] = {0, 0};
      vkCmdBindVertexBuffers(cmd, 0, 2, bufs, offs);
      vkCmdSetVertexInputEXT(cmd, 1, one_binding, 2, float_colour);
      vkCmdDraw(cmd, 6, 1, 0, 0);
      vkCmdSetVertexInputEXT(cmd, 2, two_bindings, 2, byte_colour);
      vkCmdDraw(cmd, 6, 1, 6, 0);
      /* The first state again: its compiled programs, not the second's. */
      vkCmdSetVertexInputEXT(cmd, 1, one_binding, 2, float_colour);
      vkCmdDraw(cmd, 6, 1, 12, 0);
      if (gtu_end_read(&dev, &t, cmd)) {
         uint32_t want[GW * GH] = {0};
         gtu_fill(want, 2, 2, 10, 10, gtu_rgba(255, 0, 0, 255));
         gtu_fill(want, 12, 2, 20, 10, gtu_rgba(0, 0, 255, 255));
         gtu_fill(want, 22, 2, 30, 10, gtu_rgba(255, 0, 0, 255));
         CHECK(gtu_check(&t, want, 0, "dynamic vertex input") == 0);
      }
   }
   if (have_cb)
      vkt_buffer_destroy(&dev, &cb);
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
