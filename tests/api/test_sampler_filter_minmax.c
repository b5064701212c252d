/* samplerFilterMinmax (Vulkan 1.2, VK_EXT_sampler_filter_minmax;
 * api.sampler_filter_minmax on vkppu, lvp.sampler_filter_minmax on
 * lavapipe): every format of the spec's list for
 * filterMinmaxSingleComponentFormats reports SAMPLED_IMAGE_FILTER_MINMAX
 * and, sampled LINEAR with a VkSamplerReductionModeCreateInfo, returns the
 * minimum or maximum of the texels with non-zero weight (Vulkan
 * "VkSamplerReductionMode") where the weighted average returns their mean;
 * a swizzled view applies its mapping to the reduced value
 * (filterMinmaxImageComponentMapping). */
#include <math.h>

#include "compute_test_util.h"
#include "image_test_util.h"

enum { POINTS = 64 };

/* A 2x2 image: texels a b (row 0) over c d (row 1), raw bytes and what
 * they decode to. c is the smallest and d the largest, so a minimum or
 * maximum that took row 1 at a point where its weight is 0 is caught. */
struct minmax_format {
   VkFormat format;
   VkImageAspectFlags aspect;
   uint32_t texel_bytes;
   uint8_t raw[4][4];
   double value[4];
};

#define U16(v)                                                                                     \
   {                                                                                               \
      (uint8_t)((v)&0xff), (uint8_t)((v) >> 8)                                                     \
   }
#define U32(v)                                                                                     \
   {                                                                                               \
      (uint8_t)((v)&0xff), (uint8_t)((v) >> 8 & 0xff), (uint8_t)((v) >> 16 & 0xff),                \
          (uint8_t)((v) >> 24)                                                                     \
   }

static void f32_bytes(float f, uint8_t out[4])
{
   memcpy(out, &f, 4);
}

/* The formats of the spec's required list for filterMinmaxSingleComponentFormats
 * (D16_UNORM_S8_UINT only where supported). */
static unsigned make_formats(struct minmax_format *f)
{
   unsigned n = 0;
   f[n] = (struct minmax_format){VK_FORMAT_R8_UNORM,
                                 VK_IMAGE_ASPECT_COLOR_BIT,
                                 1,
                                 {{20}, {200}, {5}, {250}},
                                 {20 / 255.0, 200 / 255.0, 5 / 255.0, 250 / 255.0}};
   n++;
   f[n] = (struct minmax_format){VK_FORMAT_R8_SNORM,
                                 VK_IMAGE_ASPECT_COLOR_BIT,
                                 1,
                                 {{(uint8_t)-100}, {90}, {(uint8_t)-127}, {127}},
                                 {-100 / 127.0, 90 / 127.0, -1.0, 1.0}};
   n++;
   f[n] = (struct minmax_format){VK_FORMAT_R16_UNORM,
                                 VK_IMAGE_ASPECT_COLOR_BIT,
                                 2,
                                 {U16(1000), U16(60000), U16(10), U16(65535)},
                                 {1000 / 65535.0, 60000 / 65535.0, 10 / 65535.0, 1.0}};
   n++;
   f[n] = (struct minmax_format){VK_FORMAT_R16_SNORM,
                                 VK_IMAGE_ASPECT_COLOR_BIT,
                                 2,
                                 {U16(0xb1e0), U16(30000), U16(0x8001), U16(32767)},
                                 {-20000 / 32767.0, 30000 / 32767.0, -1.0, 1.0}};
   n++;
   /* Halves 0.25, -1.5, -8, 2. */
   f[n] = (struct minmax_format){VK_FORMAT_R16_SFLOAT,
                                 VK_IMAGE_ASPECT_COLOR_BIT,
                                 2,
                                 {U16(0x3400), U16(0xbe00), U16(0xc800), U16(0x4000)},
                                 {0.25, -1.5, -8.0, 2.0}};
   n++;
   f[n] = (struct minmax_format){
       VK_FORMAT_R32_SFLOAT, VK_IMAGE_ASPECT_COLOR_BIT, 4, {{0}}, {0.3125, -2.5, -100.0, 50.0}};
   for (unsigned i = 0; i < 4; i++)
      f32_bytes((float)f[n].value[i], f[n].raw[i]);
   n++;
   f[n] = (struct minmax_format){VK_FORMAT_D16_UNORM,
                                 VK_IMAGE_ASPECT_DEPTH_BIT,
                                 2,
                                 {U16(1000), U16(50000), U16(5), U16(65000)},
                                 {1000 / 65535.0, 50000 / 65535.0, 5 / 65535.0, 65000 / 65535.0}};
   n++;
   /* 24-bit depths in the low bits of a word (the copy layout of D24). */
   const VkFormat d24[2] = {VK_FORMAT_X8_D24_UNORM_PACK32, VK_FORMAT_D24_UNORM_S8_UINT};
   for (unsigned k = 0; k < 2; k++) {
      f[n] = (struct minmax_format){
          d24[k],
          VK_IMAGE_ASPECT_DEPTH_BIT,
          4,
          {U32(100000), U32(16000000), U32(7), U32(16777000)},
          {100000 / 16777215.0, 16000000 / 16777215.0, 7 / 16777215.0, 16777000 / 16777215.0}};
      n++;
   }
   const VkFormat d32[2] = {VK_FORMAT_D32_SFLOAT, VK_FORMAT_D32_SFLOAT_S8_UINT};
   for (unsigned k = 0; k < 2; k++) {
      f[n] = (struct minmax_format){
          d32[k], VK_IMAGE_ASPECT_DEPTH_BIT, 4, {{0}}, {0.25, 0.75, 0.0625, 1.0}};
      for (unsigned i = 0; i < 4; i++)
         f32_bytes((float)f[n].value[i], f[n].raw[i]);
      n++;
   }
   f[n] = (struct minmax_format){VK_FORMAT_D16_UNORM_S8_UINT,
                                 VK_IMAGE_ASPECT_DEPTH_BIT,
                                 2,
                                 {U16(1000), U16(50000), U16(5), U16(65000)},
                                 {1000 / 65535.0, 50000 / 65535.0, 5 / 65535.0, 65000 / 65535.0}};
   n++;
   return n;
}

static bool setup(struct vkt_context *ctx, struct vkt_device *dev)
{
   memset(dev, 0, sizeof(*dev));
   if (!vkt_context_create(ctx))
      return false;
   VkPhysicalDeviceVulkan12Features v12 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
       /* Uploads move the depth aspect of D24S8 and D32S8 alone. */
       .separateDepthStencilLayouts = VK_TRUE,
       .samplerFilterMinmax = VK_TRUE,
   };
   struct vkt_device_desc desc = {.feature_chain = &v12};
   VkResult r = vkt_device_create(ctx, &desc, dev);
   if (r != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "vkCreateDevice with samplerFilterMinmax -> %s",
                vkt_result_name(r));
      vkt_context_destroy(ctx);
      return false;
   }
   VkPhysicalDeviceSamplerFilterMinmaxProperties mm = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLER_FILTER_MINMAX_PROPERTIES};
   VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                     .pNext = &mm};
   vkGetPhysicalDeviceProperties2(ctx->physical_device, &p2);
   CHECK(mm.filterMinmaxSingleComponentFormats && mm.filterMinmaxImageComponentMapping);
   return true;
}

/* Weighted average, MIN and MAX samplers, LINEAR, clamped to the edge. */
static void make_samplers(struct vkt_device *dev, VkSampler s[3])
{
   for (unsigned k = 0; k < 3; k++) {
      s[k] = VK_NULL_HANDLE;
      VkSamplerReductionModeCreateInfo red = {
          .sType = VK_STRUCTURE_TYPE_SAMPLER_REDUCTION_MODE_CREATE_INFO,
          .reductionMode = (VkSamplerReductionMode)k, /* WEIGHTED_AVERAGE, MIN, MAX */
      };
      VkSamplerCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
                                 .pNext = &red,
                                 .magFilter = VK_FILTER_LINEAR,
                                 .minFilter = VK_FILTER_LINEAR,
                                 .mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST,
                                 .addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                 .addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                 .addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE};
      VKT_CHECK(vkCreateSampler(dev->device, &sci, NULL, &s[k]));
   }
}

/* Even points at the image's centre (all four texels weigh 1/4), odd ones
 * at (0.5, 0.25): the middle of row 0, so row 1 weighs 0. */
static bool make_points(struct vkt_device *dev, struct vkt_buffer *coords)
{
   if (vkt_buffer_create(dev, POINTS * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKT_MEMORY_HOST,
                         coords) != VK_SUCCESS)
      return false;
   float *c = coords->map;
   for (unsigned i = 0; i < POINTS; i++) {
      c[4 * i + 0] = 0.5f;
      c[4 * i + 1] = i % 2 ? 0.25f : 0.5f;
      c[4 * i + 2] = 0.0f; /* lod */
      c[4 * i + 3] = 0.0f;
   }
   return true;
}

/* want[k][point kind] for sampler k of make_samplers. */
static void expected(const double v[4], double want[3][2])
{
   want[0][0] = (v[0] + v[1] + v[2] + v[3]) / 4;
   want[1][0] = fmin(fmin(v[0], v[1]), fmin(v[2], v[3]));
   want[2][0] = fmax(fmax(v[0], v[1]), fmax(v[2], v[3]));
   want[0][1] = (v[0] + v[1]) / 2;
   want[1][1] = fmin(v[0], v[1]);
   want[2][1] = fmax(v[0], v[1]);
}

/* A 2x2 optimal image of f, uploaded, with a view of `mapping`. */
static bool make_image(struct vkt_device *dev, const struct minmax_format *f,
                       VkComponentMapping mapping, struct vkt_image *img, VkImageView *view)
{
   VkImageCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                            .imageType = VK_IMAGE_TYPE_2D,
                            .format = f->format,
                            .extent = {2, 2, 1},
                            .mipLevels = 1,
                            .arrayLayers = 1,
                            .samples = VK_SAMPLE_COUNT_1_BIT,
                            .tiling = VK_IMAGE_TILING_OPTIMAL,
                            .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT};
   if (!vkt_image_create(dev, &ici, VKT_NO_VIEW, img))
      return false;
   VkImageViewCreateInfo vci = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                .image = img->image,
                                .viewType = VK_IMAGE_VIEW_TYPE_2D,
                                .format = f->format,
                                .components = mapping,
                                .subresourceRange = {f->aspect, 0, 1, 0, 1}};
   VKT_CHECK(vkCreateImageView(dev->device, &vci, NULL, view));
   uint8_t data[16];
   for (unsigned i = 0; i < 4; i++)
      memcpy(data + i * f->texel_bytes, f->raw[i], f->texel_bytes);
   VkBufferImageCopy region = {.imageSubresource = {f->aspect, 0, 0, 1}, .imageExtent = {2, 2, 1}};
   return vkt_image_upload_aspect(dev, img->image, f->aspect, data, 4 * f->texel_bytes, &region, 1,
                                  VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
}

TEST_CASE(min_and_max_reduce_the_texels_with_non_zero_weight_on_every_required_format)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!setup(&ctx, &dev))
      return;
   struct minmax_format formats[16];
   unsigned n = make_formats(formats);
   VkSampler samplers[3];
   make_samplers(&dev, samplers);
   struct vkt_buffer coords;
   REQUIRE(make_points(&dev, &coords));
   unsigned tested = 0;
   for (unsigned i = 0; i < n; i++) {
      const struct minmax_format *f = &formats[i];
      VkFormatProperties fp;
      vkGetPhysicalDeviceFormatProperties(ctx.physical_device, f->format, &fp);
      if (!(fp.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT))
         continue; /* the list's depth/stencil formats are required only where supported */
      CHECK_MSG(fp.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_MINMAX_BIT,
                "format %d lacks SAMPLED_IMAGE_FILTER_MINMAX", f->format);
      struct vkt_image img;
      VkImageView view = VK_NULL_HANDLE;
      struct vkt_buffer results;
      if (!make_image(&dev, f, (VkComponentMapping){0}, &img, &view))
         break;
      if (ctu_sample_points(&dev, "image_sample_lod", view, samplers, 3, &coords, POINTS, 16,
                            &results)) {
         double want[3][2];
         expected(f->value, want);
         const float *got = results.map;
         for (unsigned k = 0; k < 3; k++) {
            for (unsigned p = 0; p < 2; p++) {
               float g = got[4 * (k * POINTS + p)];
               /* Min/max are texels, exactly; the weighted average only
                * tells them apart (lavapipe filters 8-bit texels in 8 bits). */
               double tol = k == 0 ? fmax(1.0, fabs(want[k][p])) / 256 : 2e-6;
               CHECK_MSG(fabs(g - want[k][p]) <= tol,
                         "format %d reduction %u at point %u: got %.8f, want %.8f", f->format, k, p,
                         g, want[k][p]);
            }
         }
         tested++;
         vkt_buffer_destroy(&dev, &results);
      }
      vkDestroyImageView(dev.device, view, NULL);
      vkt_image_destroy(&dev, &img);
   }
   printf("  %u formats reduced with MIN and MAX\n", tested);
   CHECK(tested >= 9);
   for (unsigned k = 0; k < 3; k++)
      vkDestroySampler(dev.device, samplers[k], NULL);
   vkt_buffer_destroy(&dev, &coords);
   vkt_teardown(&ctx, &dev);
}

/* filterMinmaxImageComponentMapping: an R8_UNORM view mapped (1, R, 0, R)
 * returns the reduced red in green and alpha. */
TEST_CASE(a_swizzled_view_maps_the_reduced_value)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!setup(&ctx, &dev))
      return;
   struct minmax_format formats[16];
   make_formats(formats);
   const struct minmax_format *f = &formats[0];
   VkSampler samplers[3];
   make_samplers(&dev, samplers);
   struct vkt_buffer coords, results;
   struct vkt_image img;
   VkImageView view = VK_NULL_HANDLE;
   REQUIRE(make_points(&dev, &coords));
   const VkComponentMapping map = {VK_COMPONENT_SWIZZLE_ONE, VK_COMPONENT_SWIZZLE_R,
                                   VK_COMPONENT_SWIZZLE_ZERO, VK_COMPONENT_SWIZZLE_R};
   if (make_image(&dev, f, map, &img, &view) &&
       ctu_sample_points(&dev, "image_sample_lod", view, samplers, 3, &coords, POINTS, 16,
                         &results)) {
      double want[3][2];
      expected(f->value, want);
      const float *got = results.map;
      for (unsigned k = 1; k < 3; k++) {
         for (unsigned p = 0; p < 2; p++) {
            const float *g = &got[4 * (k * POINTS + p)];
            double w = want[k][p];
            CHECK_MSG(g[0] == 1.0f && fabs(g[1] - w) <= 2e-6 && g[2] == 0.0f &&
                          fabs(g[3] - w) <= 2e-6,
                      "reduction %u at point %u: got (%.6f %.6f %.6f %.6f), want (1 %.6f 0 %.6f)",
                      k, p, g[0], g[1], g[2], g[3], w, w);
         }
      }
      vkt_buffer_destroy(&dev, &results);
   }
   vkDestroyImageView(dev.device, view, NULL);
   vkt_image_destroy(&dev, &img);
   for (unsigned k = 0; k < 3; k++)
      vkDestroySampler(dev.device, samplers[k], NULL);
   vkt_buffer_destroy(&dev, &coords);
   vkt_teardown(&ctx, &dev);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
