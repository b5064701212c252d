/* Point sprites: gl_PointCoord drawn on vkppu and on lavapipe (llvmpipe),
 * in one instance that sees both drivers, and compared pixel by pixel with
 * each other and with Vulkan's formula ("Basic Point Rasterization"):
 * s = 1/2 + (x_f - x_d) / size, t = 1/2 + (y_f - y_d) / size, with
 * (x_f, y_f) the pixel centre and (x_d, y_d) the point's centre, origin at
 * the upper left. Points of odd, even and fractional sizes sit on pixel
 * centres, pixel corners and in between; the fragment shader writes
 * (s, t, a varying, 1) to an R8G8B8A8_UNORM target. */
#include <math.h>

#include "graphics_test_util.h"

static const float BLACK[4] = {0, 0, 0, 0};

/* gfx_point_size.vert takes the size from z: size = 10 z. */
struct point {
   float x, y, size;
};

/* No point's square edge falls on a pixel centre, so coverage has no ties
 * to break and the reference below is exact about which pixels are drawn. */
static const struct point points[] = {
    {4.5f, 4.5f, 1.0f},    {12.0f, 5.0f, 8.0f},  {24.5f, 5.5f, 5.0f},
    {5.25f, 15.75f, 6.2f}, {16.0f, 16.0f, 4.0f}, {26.3f, 16.6f, 7.0f},
    {6.5f, 26.5f, 3.0f},   {17.0f, 27.0f, 6.0f}, {27.0f, 27.0f, 2.0f},
};
#define POINT_COUNT (sizeof(points) / sizeof(points[0]))

/* The colour the spec gives pixel (x, y): 0 where no point covers it. */
static uint32_t expected_pixel(unsigned x, unsigned y)
{
   double xf = x + 0.5, yf = y + 0.5;
   for (size_t i = 0; i < POINT_COUNT; i++) {
      const struct point *p = &points[i];
      double h = p->size / 2.0;
      if (xf < p->x - h || xf >= p->x + h || yf < p->y - h || yf >= p->y + h)
         continue;
      double s = 0.5 + (xf - p->x) / p->size, t = 0.5 + (yf - p->y) / p->size;
      /* Blue: the varying, (i + 1) / 16. */
      return gtu_rgba((uint8_t)lround(s * 255.0), (uint8_t)lround(t * 255.0),
                      (uint8_t)lround((double)(i + 1) / 16.0 * 255.0), 255);
   }
   return 0;
}

/* Draws the points on one device; pixels gets the read-back. */
static bool render(struct vkt_context *ctx, const char *label, uint32_t *pixels)
{
   VkPhysicalDeviceFeatures have, want = {0};
   vkGetPhysicalDeviceFeatures(ctx->physical_device, &have);
   if (!have.largePoints) {
      test_fail(__FILE__, __LINE__, "%s: no largePoints", label);
      return false;
   }
   want.largePoints = VK_TRUE;
   struct vkt_device_desc desc = {.features = &want};
   struct vkt_device dev;
   VKT_CHECK(vkt_device_create(ctx, &desc, &dev));
   if (!dev.device)
      return false;
   bool ok = false;
   struct gtarget t;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   if (gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &t)) {
      struct gtu_pipeline_desc dp = {.vs = "gfx_point_size.vert",
                                     .fs = "gfx_point_coord.frag",
                                     .topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST,
                                     .layout = layout,
                                     .pass = t.pass};
      VkPipeline pipe = VK_NULL_HANDLE;
      VKT_CHECK(gtu_pipeline(&dev, &dp, &pipe));
      struct gvertex v[POINT_COUNT];
      for (size_t i = 0; i < POINT_COUNT; i++) {
         const float c[4] = {0.0f, 0.0f, (float)(i + 1) / 16.0f, 1.0f};
         v[i] = gvtx(points[i].x, points[i].y, points[i].size / 10.0f, c);
      }
      struct vkt_buffer vb;
      if (pipe && gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
         VkCommandBuffer cmd = gtu_begin(&dev, &t, BLACK, 1, 0);
         gtu_bind_vertex_buffer(cmd, &vb);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
         vkCmdDraw(cmd, POINT_COUNT, 1, 0, 0);
         if (gtu_end_read(&dev, &t, cmd)) {
            memcpy(pixels, t.readback.map, GW * GH * 4);
            ok = true;
         }
         vkt_buffer_destroy(&dev, &vb);
      }
      vkDestroyPipeline(dev.device, pipe, NULL);
      gtu_target_destroy(&dev, &t);
   }
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_device_destroy(&dev);
   return ok;
}

/* Largest per-channel difference between two RGBA8 pixels. */
static int channel_difference(uint32_t a, uint32_t b)
{
   int worst = 0;
   for (unsigned c = 0; c < 4; c++) {
      int d = (int)(a >> (8 * c) & 0xff) - (int)(b >> (8 * c) & 0xff);
      worst = d < 0 ? -d > worst ? -d : worst : d > worst ? d : worst;
   }
   return worst;
}

/* Counts the pixels of got that differ from want by more than tol (a
 * covered pixel against an uncovered one always does), reporting a few. */
static unsigned compare(const uint32_t *got, const uint32_t *want, int tol, const char *what,
                        int *worst)
{
   unsigned bad = 0;
   for (unsigned i = 0; i < GW * GH; i++) {
      int d = channel_difference(got[i], want[i]);
      bool coverage_differs = (got[i] == 0) != (want[i] == 0);
      if (!coverage_differs && d > *worst)
         *worst = d;
      if ((coverage_differs || d > tol) && bad++ < 6)
         test_fail(__FILE__, __LINE__, "%s: pixel (%u, %u) is 0x%08x, expected 0x%08x", what,
                   i % GW, i / GW, got[i], want[i]);
   }
   return bad;
}

/* One code of UNORM8 between the implementations and the formula: a value
 * within float rounding of a code boundary may round either way. */
TEST_CASE(point_coord_matches_lavapipe_and_the_spec_formula)
{
   struct vkt_context base, ppu, lvp;
   if (!vkt_context_pair_create(&base, &ppu, &lvp))
      return;
   static uint32_t got_ppu[GW * GH], got_lvp[GW * GH], want[GW * GH];
   for (unsigned y = 0; y < GH; y++)
      for (unsigned x = 0; x < GW; x++)
         want[y * GW + x] = expected_pixel(x, y);
   if (render(&ppu, "vkppu", got_ppu) && render(&lvp, "llvmpipe", got_lvp)) {
      int worst_ppu = 0, worst_lvp = 0, worst_pair = 0;
      CHECK(compare(got_lvp, want, 1, "llvmpipe against the formula", &worst_lvp) == 0);
      CHECK(compare(got_ppu, want, 1, "vkppu against the formula", &worst_ppu) == 0);
      CHECK(compare(got_ppu, got_lvp, 1, "vkppu against llvmpipe", &worst_pair) == 0);
      unsigned covered = 0;
      for (unsigned i = 0; i < GW * GH; i++)
         covered += want[i] != 0;
      printf("  %u covered pixels; largest channel difference: vkppu-formula %d, "
             "llvmpipe-formula %d, vkppu-llvmpipe %d\n",
             covered, worst_ppu, worst_lvp, worst_pair);
   }
   vkt_context_destroy(&base);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
