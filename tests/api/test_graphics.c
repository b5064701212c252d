/* Graphics pipelines and draws through the loader with validation on
 * (tests/api/CMakeLists.txt runs this on vkppu as api.graphics and on
 * lavapipe as lvp.graphics). Every expectation is exact pixels of a 32x32
 * R8G8B8A8_UNORM target, chosen where the geometry makes coverage
 * unambiguous (Vulkan "Polygon Rasterization": sample at the pixel centre,
 * top-left rule), or within one code of a blending formula. */
#include <math.h>

#include "graphics_test_util.h"

static const float BLACK[4] = {0, 0, 0, 0};
static const float QUARTER[4] = {64 / 255.0f, 64 / 255.0f, 64 / 255.0f, 64 / 255.0f};
static const float RED[4] = {1, 0, 0, 1};
static const float GREEN[4] = {0, 1, 0, 1};
static const float BLUE[4] = {0, 0, 1, 1};

static const VkPipelineColorBlendAttachmentState ADDITIVE = {VK_TRUE,
                                                             VK_BLEND_FACTOR_ONE,
                                                             VK_BLEND_FACTOR_ONE,
                                                             VK_BLEND_OP_ADD,
                                                             VK_BLEND_FACTOR_ONE,
                                                             VK_BLEND_FACTOR_ONE,
                                                             VK_BLEND_OP_ADD,
                                                             0xf};

/* Every triangle topology tiles a rectangle; additive blending of 64 shows
 * any pixel covered twice (128) or missed (0) along the shared edges. One
 * rectangle has integer edges, the other edges through pixel centres, where
 * the top-left rule decides: left and top edges own their pixels. */
TEST_CASE(triangle_topologies_cover_each_pixel_once_by_the_top_left_rule)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   struct gtarget t;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   if (gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &t)) {
      const VkPrimitiveTopology topo[3] = {VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                           VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP,
                                           VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN};
      for (unsigned k = 0; k < 3; k++) {
         struct gtu_pipeline_desc d = {
             .topology = topo[k], .blend = &ADDITIVE, .layout = layout, .pass = t.pass};
         VkPipeline pipe;
         VKT_CHECK(gtu_pipeline(&dev, &d, &pipe));
         /* Rectangle A: 2..14 x 3..29; rectangle B: 17.5..29.5 x 4.5..27.5. */
         const float r[2][4] = {{2, 3, 14, 29}, {17.5f, 4.5f, 29.5f, 27.5f}};
         struct gvertex v[12];
         uint32_t n = 0;
         for (unsigned i = 0; i < 2; i++) {
            const float *q = r[i];
            if (k == 0) {
               gtu_rect(&v[n], q[0], q[1], q[2], q[3], 0.5f, QUARTER);
               n += 6;
            } else if (k == 1) { /* strip: z order */
               v[n++] = gvtx(q[0], q[1], 0.5f, QUARTER);
               v[n++] = gvtx(q[2], q[1], 0.5f, QUARTER);
               v[n++] = gvtx(q[0], q[3], 0.5f, QUARTER);
               v[n++] = gvtx(q[2], q[3], 0.5f, QUARTER);
            } else { /* fan: around the rectangle */
               v[n++] = gvtx(q[0], q[1], 0.5f, QUARTER);
               v[n++] = gvtx(q[2], q[1], 0.5f, QUARTER);
               v[n++] = gvtx(q[2], q[3], 0.5f, QUARTER);
               v[n++] = gvtx(q[0], q[3], 0.5f, QUARTER);
            }
         }
         struct vkt_buffer vb;
         if (pipe && gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
            VkCommandBuffer cmd = gtu_begin(&dev, &t, BLACK, 1, 0);
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
            gtu_bind_vertex_buffer(cmd, &vb);
            uint32_t per = n / 2;
            vkCmdDraw(cmd, per, 1, 0, 0);
            vkCmdDraw(cmd, per, 1, per, 0);
            if (gtu_end_read(&dev, &t, cmd)) {
               uint32_t want[GW * GH] = {0};
               gtu_fill(want, 2, 3, 14, 29, gtu_rgba(64, 64, 64, 64));
               gtu_fill(want, 17, 4, 29, 27, gtu_rgba(64, 64, 64, 64));
               char what[64];
               snprintf(what, sizeof(what), "topology %d", (int)topo[k]);
               CHECK(gtu_check(&t, want, 0, what) == 0);
            }
            vkt_buffer_destroy(&dev, &vb);
         }
         vkDestroyPipeline(dev.device, pipe, NULL);
      }
      gtu_target_destroy(&dev, &t);
   }
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_teardown(&ctx, &dev);
}

/* Points at pixel centres light exactly that pixel; axis-aligned lines
 * between pixel centres light the pixels from the first up to, not
 * including, the last ("diamond exit"). */
TEST_CASE(points_lines_and_line_strips_hit_the_expected_pixels)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   struct gtarget t;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   if (gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &t)) {
      const VkPrimitiveTopology topo[3] = {VK_PRIMITIVE_TOPOLOGY_POINT_LIST,
                                           VK_PRIMITIVE_TOPOLOGY_LINE_LIST,
                                           VK_PRIMITIVE_TOPOLOGY_LINE_STRIP};
      VkPipeline pipe[3];
      for (unsigned k = 0; k < 3; k++) {
         struct gtu_pipeline_desc d = {.topology = topo[k], .layout = layout, .pass = t.pass};
         VKT_CHECK(gtu_pipeline(&dev, &d, &pipe[k]));
      }
      struct gvertex v[9] = {/* points */
                             gvtx(3.5f, 4.5f, 0.5f, RED), gvtx(30.5f, 0.5f, 0.5f, RED),
                             /* line list: horizontal, vertical */
                             gvtx(2.5f, 10.5f, 0.5f, GREEN), gvtx(12.5f, 10.5f, 0.5f, GREEN),
                             gvtx(20.5f, 13.5f, 0.5f, GREEN), gvtx(20.5f, 19.5f, 0.5f, GREEN),
                             /* strip: right, then down */
                             gvtx(4.5f, 25.5f, 0.5f, BLUE), gvtx(10.5f, 25.5f, 0.5f, BLUE),
                             gvtx(10.5f, 30.5f, 0.5f, BLUE)};
      struct vkt_buffer vb;
      if (pipe[0] && pipe[1] && pipe[2] &&
          gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
         VkCommandBuffer cmd = gtu_begin(&dev, &t, BLACK, 1, 0);
         gtu_bind_vertex_buffer(cmd, &vb);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe[0]);
         vkCmdDraw(cmd, 2, 1, 0, 0);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe[1]);
         vkCmdDraw(cmd, 4, 1, 2, 0);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe[2]);
         vkCmdDraw(cmd, 3, 1, 6, 0);
         if (gtu_end_read(&dev, &t, cmd)) {
            uint32_t want[GW * GH] = {0};
            want[4 * GW + 3] = want[0 * GW + 30] = gtu_rgba(255, 0, 0, 255);
            gtu_fill(want, 2, 10, 12, 11, gtu_rgba(0, 255, 0, 255));
            gtu_fill(want, 20, 13, 21, 19, gtu_rgba(0, 255, 0, 255));
            gtu_fill(want, 4, 25, 10, 26, gtu_rgba(0, 0, 255, 255));
            gtu_fill(want, 10, 25, 11, 30, gtu_rgba(0, 0, 255, 255));
            CHECK(gtu_check(&t, want, 0, "points and lines") == 0);
         }
         vkt_buffer_destroy(&dev, &vb);
      }
      for (unsigned k = 0; k < 3; k++)
         vkDestroyPipeline(dev.device, pipe[k], NULL);
      gtu_target_destroy(&dev, &t);
   }
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_teardown(&ctx, &dev);
}

/* LESS with writes: whichever of two overlapping rectangles is nearer wins
 * the overlap, in either drawing order, on D16 (vkcube's) and D32. */
TEST_CASE(depth_test_keeps_the_nearer_surface)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   const VkFormat formats[2] = {VK_FORMAT_D16_UNORM, VK_FORMAT_D32_SFLOAT};
   for (unsigned f = 0; f < 2; f++) {
      struct gtarget t;
      if (!gtu_target_create(&dev, formats[f], &t))
         break;
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
      struct gvertex v[24];
      /* Order 1: near red first; order 2: far green first. */
      gtu_rect(&v[0], 0, 0, 20, 32, 0.25f, RED);
      gtu_rect(&v[6], 12, 0, 32, 32, 0.75f, GREEN);
      gtu_rect(&v[12], 12, 0, 32, 16, 0.75f, GREEN);
      gtu_rect(&v[18], 0, 0, 20, 16, 0.25f, RED);
      struct vkt_buffer vb;
      if (pipe && gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
         VkCommandBuffer cmd = gtu_begin(&dev, &t, BLACK, 1.0f, 0);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
         gtu_bind_vertex_buffer(cmd, &vb);
         vkCmdDraw(cmd, 12, 1, 0, 0);
         if (gtu_end_read(&dev, &t, cmd)) {
            uint32_t want[GW * GH];
            gtu_fill(want, 0, 0, 32, 32, gtu_rgba(0, 255, 0, 255));
            gtu_fill(want, 0, 0, 20, 32, gtu_rgba(255, 0, 0, 255));
            CHECK(gtu_check(&t, want, 0, "near first") == 0);
         }
         cmd = gtu_begin(&dev, &t, BLACK, 1.0f, 0);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
         gtu_bind_vertex_buffer(cmd, &vb);
         vkCmdDraw(cmd, 12, 1, 12, 0);
         if (gtu_end_read(&dev, &t, cmd)) {
            uint32_t want[GW * GH] = {0};
            gtu_fill(want, 12, 0, 32, 16, gtu_rgba(0, 255, 0, 255));
            gtu_fill(want, 0, 0, 20, 16, gtu_rgba(255, 0, 0, 255));
            CHECK(gtu_check(&t, want, 0, "far first") == 0);
         }
         vkt_buffer_destroy(&dev, &vb);
      }
      vkDestroyPipeline(dev.device, pipe, NULL);
      gtu_target_destroy(&dev, &t);
   }
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_teardown(&ctx, &dev);
}

/* A first draw writes stencil 5 (dynamic reference) with colour writes off;
 * a second draws only where the stencil EQUALs 5. */
TEST_CASE(stencil_masks_a_second_draw)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   VkFormat format = VK_FORMAT_UNDEFINED;
   if (gtu_depth_supported(&dev, VK_FORMAT_D24_UNORM_S8_UINT))
      format = VK_FORMAT_D24_UNORM_S8_UINT;
   else if (gtu_depth_supported(&dev, VK_FORMAT_D32_SFLOAT_S8_UINT))
      format = VK_FORMAT_D32_SFLOAT_S8_UINT;
   struct gtarget t;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   if (!format) {
      vkt_skip("no depth/stencil format with a stencil aspect");
   } else if (gtu_target_create(&dev, format, &t)) {
      VkStencilOpState write = {VK_STENCIL_OP_KEEP,
                                VK_STENCIL_OP_REPLACE,
                                VK_STENCIL_OP_KEEP,
                                VK_COMPARE_OP_ALWAYS,
                                0xff,
                                0xff,
                                0};
      VkStencilOpState test = {VK_STENCIL_OP_KEEP,
                               VK_STENCIL_OP_KEEP,
                               VK_STENCIL_OP_KEEP,
                               VK_COMPARE_OP_EQUAL,
                               0xff,
                               0,
                               5};
      VkPipelineDepthStencilStateCreateInfo ds[2] = {
          {.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
           .stencilTestEnable = VK_TRUE,
           .front = write,
           .back = write},
          {.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
           .stencilTestEnable = VK_TRUE,
           .front = test,
           .back = test},
      };
      VkPipelineColorBlendAttachmentState no_color = {.colorWriteMask = 0};
      const VkDynamicState dyn = VK_DYNAMIC_STATE_STENCIL_REFERENCE;
      struct gtu_pipeline_desc d0 = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                     .ds = &ds[0],
                                     .blend = &no_color,
                                     .dynamic = &dyn,
                                     .dynamic_count = 1,
                                     .layout = layout,
                                     .pass = t.pass};
      struct gtu_pipeline_desc d1 = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                     .ds = &ds[1],
                                     .layout = layout,
                                     .pass = t.pass};
      VkPipeline p0, p1;
      VKT_CHECK(gtu_pipeline(&dev, &d0, &p0));
      VKT_CHECK(gtu_pipeline(&dev, &d1, &p1));
      struct gvertex v[12];
      gtu_rect(&v[0], 0, 0, 16, 32, 0.5f, RED);
      gtu_rect(&v[6], 0, 0, 32, 32, 0.5f, BLUE);
      struct vkt_buffer vb;
      if (p0 && p1 && gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
         VkCommandBuffer cmd = gtu_begin(&dev, &t, BLACK, 1.0f, 0);
         gtu_bind_vertex_buffer(cmd, &vb);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p0);
         vkCmdSetStencilReference(cmd, VK_STENCIL_FACE_FRONT_AND_BACK, 5);
         vkCmdDraw(cmd, 6, 1, 0, 0);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p1);
         vkCmdDraw(cmd, 6, 1, 6, 0);
         if (gtu_end_read(&dev, &t, cmd)) {
            uint32_t want[GW * GH] = {0};
            gtu_fill(want, 0, 0, 16, 32, gtu_rgba(0, 0, 255, 255));
            CHECK(gtu_check(&t, want, 0, "stencil") == 0);
         }
         vkt_buffer_destroy(&dev, &vb);
      }
      vkDestroyPipeline(dev.device, p0, NULL);
      vkDestroyPipeline(dev.device, p1, NULL);
      gtu_target_destroy(&dev, &t);
   }
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_teardown(&ctx, &dev);
}

/* Alpha blending, dynamic blend constants and a colour write mask, each
 * against its formula (one code of rounding allowed). */
TEST_CASE(blending_constants_and_write_masks_follow_the_formulas)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   struct gtarget t;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   if (gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &t)) {
      const VkPipelineColorBlendAttachmentState blend[3] = {
          {VK_TRUE, VK_BLEND_FACTOR_SRC_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_OP_ADD,
           VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD, 0xf},
          {VK_TRUE, VK_BLEND_FACTOR_CONSTANT_COLOR, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD,
           VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD, 0xf},
          {VK_FALSE, 0, 0, 0, 0, 0, 0, VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_A_BIT},
      };
      const VkDynamicState dyn = VK_DYNAMIC_STATE_BLEND_CONSTANTS;
      VkPipeline pipe[3];
      for (unsigned k = 0; k < 3; k++) {
         struct gtu_pipeline_desc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                       .blend = &blend[k],
                                       .dynamic = &dyn,
                                       .dynamic_count = k == 1,
                                       .layout = layout,
                                       .pass = t.pass};
         VKT_CHECK(gtu_pipeline(&dev, &d, &pipe[k]));
      }
      const float half_red[4] = {1, 0, 0, 0.5f}, white[4] = {1, 1, 1, 1};
      const float yellow[4] = {1, 1, 0, 0.25f};
      struct gvertex v[18];
      gtu_rect(&v[0], 0, 0, 16, 16, 0.5f, half_red);
      gtu_rect(&v[6], 16, 0, 32, 16, 0.5f, white);
      gtu_rect(&v[12], 0, 16, 16, 32, 0.5f, yellow);
      struct vkt_buffer vb;
      if (pipe[0] && pipe[1] && pipe[2] &&
          gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
         VkCommandBuffer cmd = gtu_begin(&dev, &t, BLUE, 1.0f, 0);
         gtu_bind_vertex_buffer(cmd, &vb);
         for (unsigned k = 0; k < 3; k++) {
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe[k]);
            if (k == 1) {
               const float c[4] = {0.25f, 0.5f, 0.75f, 1.0f};
               vkCmdSetBlendConstants(cmd, c);
            }
            vkCmdDraw(cmd, 6, 1, 6 * k, 0);
         }
         if (gtu_end_read(&dev, &t, cmd)) {
            uint32_t want[GW * GH];
            gtu_fill(want, 0, 0, 32, 32, gtu_rgba(0, 0, 255, 255));
            gtu_fill(want, 0, 0, 16, 16, gtu_rgba(128, 0, 128, 128));
            gtu_fill(want, 16, 0, 32, 16, gtu_rgba(64, 128, 191, 255));
            /* R and A written, G and B kept from the clear. */
            gtu_fill(want, 0, 16, 16, 32, gtu_rgba(255, 0, 255, 64));
            CHECK(gtu_check(&t, want, 1, "blending") == 0);
         }
         vkt_buffer_destroy(&dev, &vb);
      }
      for (unsigned k = 0; k < 3; k++)
         vkDestroyPipeline(dev.device, pipe[k], NULL);
      gtu_target_destroy(&dev, &t);
   }
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_teardown(&ctx, &dev);
}

/* Indexed draws: 16-bit indices with firstIndex and vertexOffset, a strip
 * cut by primitive restart, 32-bit indices; then instancing (an offset per
 * instance, firstInstance 1) and both indirect draws with the same
 * arguments in a buffer. */
TEST_CASE(indexed_instanced_and_indirect_draws)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   struct gtarget t;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   if (gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &t)) {
      struct gtu_pipeline_desc dl = {
          .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, .layout = layout, .pass = t.pass};
      struct gtu_pipeline_desc ds = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP,
                                     .restart = VK_TRUE,
                                     .layout = layout,
                                     .pass = t.pass};
      struct gtu_pipeline_desc di = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                     .instanced = true,
                                     .layout = layout,
                                     .pass = t.pass};
      VkPipeline list, strip, inst;
      VKT_CHECK(gtu_pipeline(&dev, &dl, &list));
      VKT_CHECK(gtu_pipeline(&dev, &ds, &strip));
      VKT_CHECK(gtu_pipeline(&dev, &di, &inst));
      /* Vertices: 0..3 a dummy, then corners of 4x4-pixel squares. */
      struct gvertex v[20];
      for (unsigned i = 0; i < 4; i++)
         v[i] = gvtx(0, 0, 0.5f, BLACK);
      const float sq[4][2] = {{2, 2}, {10, 2}, {18, 2}, {26, 2}};
      const float *col[4] = {RED, GREEN, BLUE, RED};
      for (unsigned s = 0; s < 4; s++) {
         v[4 + 4 * s + 0] = gvtx(sq[s][0], sq[s][1], 0.5f, col[s]);
         v[4 + 4 * s + 1] = gvtx(sq[s][0] + 4, sq[s][1], 0.5f, col[s]);
         v[4 + 4 * s + 2] = gvtx(sq[s][0], sq[s][1] + 4, 0.5f, col[s]);
         v[4 + 4 * s + 3] = gvtx(sq[s][0] + 4, sq[s][1] + 4, 0.5f, col[s]);
      }
      /* idx16: [pad, pad] list of square 0 (relative to vertexOffset 4),
       * then a strip of squares 1 and 2 with a restart between. */
      const uint16_t idx16[16] = {7, 7, 0, 1, 2, 1, 3, 2, 4, 5, 6, 7, 0xffff, 8, 9, 10};
      const uint16_t idx16_tail = 11;
      uint16_t idx16_all[17];
      memcpy(idx16_all, idx16, sizeof(idx16));
      idx16_all[16] = idx16_tail;
      const uint32_t idx32[6] = {16, 17, 18, 17, 19, 18}; /* square 3, no offset */
      /* Instances: offsets in NDC (8 pixels = 0.5) for instances 0..3. */
      const float offsets[8] = {0, 0, 0, 0.5f, 0, 1.0f, 0, 1.5f};
      const VkDrawIndirectCommand ind = {6, 1, 0, 0};
      const VkDrawIndexedIndirectCommand indx = {6, 1, 2, 4, 0};
      struct vkt_buffer vb, ib16, ib32, ob, argb;
      uint8_t args[64] = {0};
      memcpy(args, &ind, sizeof(ind));
      memcpy(args + 32, &indx, sizeof(indx));
      /* Vertices for the instanced and indirect list draws: square 0. */
      struct gvertex q[6];
      gtu_rect(q, 2, 10, 6, 14, 0.5f, GREEN);
      struct vkt_buffer qb;
      if (list && strip && inst &&
          gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb) &&
          gtu_data_buffer(&dev, idx16_all, sizeof(idx16_all), VK_BUFFER_USAGE_INDEX_BUFFER_BIT,
                          &ib16) &&
          gtu_data_buffer(&dev, idx32, sizeof(idx32), VK_BUFFER_USAGE_INDEX_BUFFER_BIT, &ib32) &&
          gtu_data_buffer(&dev, offsets, sizeof(offsets), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &ob) &&
          gtu_data_buffer(&dev, args, sizeof(args), VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, &argb) &&
          gtu_data_buffer(&dev, q, sizeof(q), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &qb)) {
         VkCommandBuffer cmd = gtu_begin(&dev, &t, BLACK, 1.0f, 0);
         gtu_bind_vertex_buffer(cmd, &vb);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, list);
         vkCmdBindIndexBuffer(cmd, ib16.buffer, 0, VK_INDEX_TYPE_UINT16);
         vkCmdDrawIndexed(cmd, 6, 1, 2, 4, 0);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, strip);
         vkCmdDrawIndexed(cmd, 9, 1, 8, 4, 0);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, list);
         vkCmdBindIndexBuffer(cmd, ib32.buffer, 0, VK_INDEX_TYPE_UINT32);
         vkCmdDrawIndexed(cmd, 6, 1, 0, 0, 0);
         /* Row 2: instances 1..3 of square q (instance 0 would be at y 10). */
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, inst);
         VkBuffer bufs[2] = {qb.buffer, ob.buffer};
         VkDeviceSize offs[2] = {0, 0};
         vkCmdBindVertexBuffers(cmd, 0, 2, bufs, offs);
         vkCmdDraw(cmd, 6, 3, 0, 1);
         /* Indirect: q as it is; indexed indirect: square 0 again. */
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, list);
         VkDeviceSize off = 0;
         vkCmdBindVertexBuffers(cmd, 0, 1, &qb.buffer, &off);
         vkCmdDrawIndirect(cmd, argb.buffer, 0, 1, sizeof(VkDrawIndirectCommand));
         gtu_bind_vertex_buffer(cmd, &vb);
         vkCmdBindIndexBuffer(cmd, ib16.buffer, 0, VK_INDEX_TYPE_UINT16);
         vkCmdDrawIndexedIndirect(cmd, argb.buffer, 32, 1, sizeof(VkDrawIndexedIndirectCommand));
         if (gtu_end_read(&dev, &t, cmd)) {
            uint32_t want[GW * GH] = {0};
            for (unsigned s = 0; s < 4; s++)
               gtu_fill(want, (unsigned)sq[s][0], 2, (unsigned)sq[s][0] + 4, 6,
                        s == 0 || s == 3 ? gtu_rgba(255, 0, 0, 255)
                        : s == 1         ? gtu_rgba(0, 255, 0, 255)
                                         : gtu_rgba(0, 0, 255, 255));
            /* Instance i sits 8 i pixels below q (instance 3 is off the
             * target); the indirect draw is q itself at y 10. */
            for (unsigned i = 0; i < 3; i++)
               gtu_fill(want, 2, 10 + 8 * i, 6, 14 + 8 * i, gtu_rgba(0, 255, 0, 255));
            CHECK(gtu_check(&t, want, 0, "indexed, instanced, indirect") == 0);
         }
         vkt_buffer_destroy(&dev, &vb);
         vkt_buffer_destroy(&dev, &ib16);
         vkt_buffer_destroy(&dev, &ib32);
         vkt_buffer_destroy(&dev, &ob);
         vkt_buffer_destroy(&dev, &argb);
         vkt_buffer_destroy(&dev, &qb);
      }
      vkDestroyPipeline(dev.device, list, NULL);
      vkDestroyPipeline(dev.device, strip, NULL);
      vkDestroyPipeline(dev.device, inst, NULL);
      gtu_target_destroy(&dev, &t);
   }
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_teardown(&ctx, &dev);
}

/* Interface blocks between the stages: a triangle whose first (provoking)
 * vertex is blue and the others red and green reads red interpolated from
 * a smooth member, green from a nested struct's member, and blue 255
 * everywhere from a flat member at its own Location. */
TEST_CASE(interface_blocks_carry_members_with_their_own_locations_and_qualifiers)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   struct gtarget t;
   const struct vkt_device_desc desc = {0};
   if (!gtu_case_begin(&ctx, &dev, &desc, VK_FORMAT_UNDEFINED, &t))
      return;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   struct gtu_pipeline_desc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                 .vs = "gfx_block_out.vert",
                                 .fs = "gfx_block_in.frag",
                                 .layout = layout,
                                 .pass = t.pass};
   VkPipeline pipe;
   VKT_CHECK(gtu_pipeline(&dev, &d, &pipe));
   struct gvertex v[3] = {gvtx(0, 0, 0.5f, BLUE), gvtx(32, 0, 0.5f, RED), gvtx(0, 32, 0.5f, GREEN)};
   struct vkt_buffer vb;
   if (pipe && gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
      VkCommandBuffer cmd = gtu_begin(&dev, &t, BLACK, 1, 0);
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
      gtu_bind_vertex_buffer(cmd, &vb);
      vkCmdDraw(cmd, 3, 1, 0, 0);
      if (gtu_end_read(&dev, &t, cmd)) {
         const uint32_t *px = t.readback.map;
         unsigned covered = 0, not_blue = 0, red = 0, green = 0;
         for (unsigned y = 0; y < GH; y++) {
            for (unsigned x = 0; x < GW; x++) {
               uint32_t p = px[y * GW + x];
               if (x + y >= GW - 1) /* outside or on the diagonal edge */
                  continue;
               covered++;
               not_blue += ((p >> 16) & 0xffu) != 255;
               red += (p & 0xffu) > 128;
               green += ((p >> 8) & 0xffu) > 128;
            }
         }
         CHECK_MSG(covered > 400 && not_blue == 0 && red > 20 && green > 20,
                   "%u covered pixels: %u without flat blue, %u mostly red, %u mostly green",
                   covered, not_blue, red, green);
      }
      vkt_buffer_destroy(&dev, &vb);
   }
   vkDestroyPipeline(dev.device, pipe, NULL);
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   gtu_case_end(&ctx, &dev, &t);
}

/* A matrix vertex input takes a location per column: mat2 at location 1
 * reads column 0 from location 1 (the colour, red) and column 1 from
 * location 2 (the per-instance offset, 0.5). */
TEST_CASE(matrix_vertex_inputs_take_a_location_per_column)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   struct gtarget t;
   const struct vkt_device_desc desc = {0};
   if (!gtu_case_begin(&ctx, &dev, &desc, VK_FORMAT_UNDEFINED, &t))
      return;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   struct gtu_pipeline_desc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                 .vs = "gfx_matrix_input.vert",
                                 .instanced = true,
                                 .layout = layout,
                                 .pass = t.pass};
   VkPipeline pipe;
   VKT_CHECK(gtu_pipeline(&dev, &d, &pipe));
   struct gvertex v[6];
   gtu_rect(v, 4, 4, 20, 12, 0.5f, RED);
   const float offset[2] = {0.5f, 0.25f};
   struct vkt_buffer vb, ob;
   bool have_vb = gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb);
   bool have_ob = have_vb && gtu_data_buffer(&dev, offset, sizeof(offset),
                                             VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &ob);
   if (pipe && have_ob) {
      VkCommandBuffer cmd = gtu_begin(&dev, &t, BLACK, 1, 0);
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
      VkBuffer bufs[2] = {vb.buffer, ob.buffer};
      VkDeviceSize offs[2] = {0, 0};
      vkCmdBindVertexBuffers(cmd, 0, 2, bufs, offs);
      vkCmdDraw(cmd, 6, 1, 0, 0);
      if (gtu_end_read(&dev, &t, cmd)) {
         uint32_t want[GW * GH] = {0};
         gtu_fill(want, 4, 4, 20, 12, gtu_rgba(255, 0, 128, 255));
         CHECK(gtu_check(&t, want, 1, "mat2 vertex input") == 0);
      }
   }
   if (have_ob)
      vkt_buffer_destroy(&dev, &ob);
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
