/* shaderClipDistance and shaderCullDistance (api.graphics_clip_distance on
 * vkppu, lvp.graphics_clip_distance on lavapipe): gfx_clip_distance.vert
 * writes two clip distances and one cull distance from each vertex's
 * second attribute, gfx_clip_distance.frag writes their interpolated
 * values as its colour. Triangles are clipped where a clip distance is
 * negative (Vulkan "Primitive Clipping"), lines too, points with one are
 * dropped, and a primitive whose cull distance is negative at every vertex
 * is discarded whole ("Clip and Cull Distances"). */
#include "graphics_test_util.h"

static const float BLACK[4] = {0, 0, 0, 0};

/* A device with both features and a GW x GH target (gtu_case_begin); the
 * limits must cover what the shaders use. */
static bool begin_case(struct vkt_context *ctx, struct vkt_device *dev, struct gtarget *t)
{
   VkPhysicalDeviceFeatures want = {.shaderClipDistance = VK_TRUE, .shaderCullDistance = VK_TRUE};
   struct vkt_device_desc desc = {.features = &want};
   if (!gtu_case_begin(ctx, dev, &desc, VK_FORMAT_UNDEFINED, t))
      return false;
   VkPhysicalDeviceProperties props;
   vkGetPhysicalDeviceProperties(ctx->physical_device, &props);
   const VkPhysicalDeviceLimits *l = &props.limits;
   CHECK_MSG(l->maxClipDistances >= 8 && l->maxCullDistances >= 8 &&
                 l->maxCombinedClipAndCullDistances >= 8,
             "maxClipDistances %u, maxCullDistances %u, maxCombinedClipAndCullDistances %u",
             l->maxClipDistances, l->maxCullDistances, l->maxCombinedClipAndCullDistances);
   return true;
}

/* A vertex at window (x, y) whose distances are clip 0, clip 1, cull 0. */
static struct gvertex dvtx(float x, float y, float d0, float d1, float cull)
{
   const float d[4] = {d0, d1, cull, 0};
   return gvtx(x, y, 0.5f, d);
}

/* Draws the n vertices with the clip-distance shaders and `topology` into a
 * cleared target; the pixels are then in t->readback.map. */
static bool draw(struct vkt_device *dev, struct gtarget *t, VkPrimitiveTopology topology,
                 const struct gvertex *v, uint32_t n)
{
   VkPipelineLayout layout = gtu_empty_layout(dev);
   struct gtu_pipeline_desc d = {.vs = "gfx_clip_distance.vert",
                                 .fs = "gfx_clip_distance.frag",
                                 .topology = topology,
                                 .layout = layout,
                                 .pass = t->pass};
   VkPipeline pipe = VK_NULL_HANDLE;
   VKT_CHECK(gtu_pipeline(dev, &d, &pipe));
   bool ok = false;
   struct vkt_buffer vb;
   if (pipe && gtu_data_buffer(dev, v, n * sizeof(*v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
      VkCommandBuffer cmd = gtu_begin(dev, t, BLACK, 1, 0);
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
      gtu_bind_vertex_buffer(cmd, &vb);
      vkCmdDraw(cmd, n, 1, 0, 0);
      ok = gtu_end_read(dev, t, cmd);
      vkt_buffer_destroy(dev, &vb);
   }
   vkDestroyPipeline(dev->device, pipe, NULL);
   vkDestroyPipelineLayout(dev->device, layout, NULL);
   return ok;
}

static uint8_t unorm8(float f)
{
   f = f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f;
   return (uint8_t)(f * 255.0f + 0.5f);
}

/* A rectangle over the whole target whose clip distance 0 is (x - 8) / 32
 * and clip distance 1 is (24 - y) / 32 at window (x, y): what is left is
 * x >= 8, y <= 24, and the fragment shader sees both distances
 * interpolated at each pixel centre (and cull distance 0, 0.5). */
TEST_CASE(clip_distances_clip_triangles_and_reach_the_fragment_shader)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   struct gtarget t;
   if (begin_case(&ctx, &dev, &t)) {
      const float corner[4][2] = {{0, 0}, {GW, 0}, {0, GH}, {GW, GH}};
      struct gvertex c[4];
      for (unsigned i = 0; i < 4; i++) {
         float x = corner[i][0], y = corner[i][1];
         c[i] = dvtx(x, y, (x - 8) / 32, (24 - y) / 32, 0.5f);
      }
      const struct gvertex v[6] = {c[0], c[1], c[2], c[1], c[3], c[2]};
      if (draw(&dev, &t, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, v, 6)) {
         uint32_t want[GW * GH] = {0};
         for (unsigned y = 0; y < 24; y++)
            for (unsigned x = 8; x < GW; x++)
               want[y * GW + x] = gtu_rgba(unorm8((x + 0.5f - 8) / 32),
                                           unorm8((24 - y - 0.5f) / 32), unorm8(0.5f), 255);
         CHECK(gtu_check(&t, want, 1, "clipped rectangle") == 0);
      }
      gtu_case_end(&ctx, &dev, &t);
   }
}

/* Cull distance 0 negative at all three vertices: the triangle goes. Negative
 * at two of three: it is drawn whole (a cull distance never clips), with the
 * negative part of the interpolated value 0 in blue. */
TEST_CASE(cull_distances_discard_only_primitives_negative_at_every_vertex)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   struct gtarget t;
   if (begin_case(&ctx, &dev, &t)) {
      struct gvertex v[12];
      /* Rectangle 0..16 x 0..16: cull -1 at every corner. */
      const float r0[4][2] = {{0, 0}, {16, 0}, {0, 16}, {16, 16}};
      /* Rectangle 16..32 x 16..32: cull -1 on the left corners, +1 right. */
      const float r1[4][2] = {{16, 16}, {32, 16}, {16, 32}, {32, 32}};
      struct gvertex a[4], b[4];
      for (unsigned i = 0; i < 4; i++) {
         a[i] = dvtx(r0[i][0], r0[i][1], 1, 1, -1);
         b[i] = dvtx(r1[i][0], r1[i][1], 1, 1, r1[i][0] == 16 ? -1.0f : 1.0f);
      }
      const unsigned order[6] = {0, 1, 2, 1, 3, 2};
      for (unsigned i = 0; i < 6; i++) {
         v[i] = a[order[i]];
         v[6 + i] = b[order[i]];
      }
      if (draw(&dev, &t, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, v, 12)) {
         uint32_t want[GW * GH] = {0};
         for (unsigned y = 16; y < GH; y++)
            for (unsigned x = 16; x < GW; x++) /* cull 0 = -1 + 2 (x - 16) / 16 */
               want[y * GW + x] = gtu_rgba(255, 255, unorm8(-1.0f + (x + 0.5f - 16) / 8), 255);
         CHECK(gtu_check(&t, want, 1, "culled rectangle") == 0);
      }
      gtu_case_end(&ctx, &dev, &t);
   }
}

/* Pixels of row y with any colour, as a bit per column. */
static uint32_t row_mask(const struct gtarget *t, unsigned y)
{
   const uint32_t *px = t->readback.map;
   uint32_t m = 0;
   for (unsigned x = 0; x < GW; x++)
      m |= (px[y * GW + x] >> 24) ? 1u << x : 0u;
   return m;
}

/* A horizontal line across the target on row 4 whose clip distance 1 is
 * (x - 8) / 32 is cut at x = 8; one on row 20 whose cull distance is
 * negative at both ends is not drawn; of two points, the one with a
 * negative clip distance 0 is dropped. (The pixels next to the cut are not
 * checked: where a clipped line starts is the rasterizer's choice within
 * the line rules.) */
TEST_CASE(clip_distances_cut_lines_and_drop_points_and_cull_distances_drop_lines)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   struct gtarget t;
   if (begin_case(&ctx, &dev, &t)) {
      const struct gvertex lines[4] = {
          dvtx(0, 4.5f, 1, -8.0f / 32, 1),
          dvtx(GW, 4.5f, 1, 24.0f / 32, 1),
          dvtx(0, 20.5f, 1, 1, -1),
          dvtx(GW, 20.5f, 1, 1, -2),
      };
      if (draw(&dev, &t, VK_PRIMITIVE_TOPOLOGY_LINE_LIST, lines, 4)) {
         uint32_t row = row_mask(&t, 4);
         CHECK_MSG((row & 0x7fu) == 0, "row 4 has pixels left of the cut: 0x%08x", row);
         CHECK_MSG((row & 0xfffffc00u) == 0xfffffc00u, "row 4 lacks pixels right of it: 0x%08x",
                   row);
         CHECK_MSG(row_mask(&t, 20) == 0, "the culled line was drawn: 0x%08x", row_mask(&t, 20));
      }
      const struct gvertex points[2] = {dvtx(4.5f, 8.5f, 0.25f, 1, 1),
                                        dvtx(12.5f, 8.5f, -0.25f, 1, 1)};
      if (draw(&dev, &t, VK_PRIMITIVE_TOPOLOGY_POINT_LIST, points, 2)) {
         const uint32_t *px = t.readback.map;
         CHECK_MSG(px[8 * GW + 4] == gtu_rgba(unorm8(0.25f), 255, 255, 255), "kept point is 0x%08x",
                   px[8 * GW + 4]);
         CHECK_MSG(row_mask(&t, 8) == 1u << 4, "row 8 is 0x%08x (only the kept point)",
                   row_mask(&t, 8));
      }
      gtu_case_end(&ctx, &dev, &t);
   }
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
