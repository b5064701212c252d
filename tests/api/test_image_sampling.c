/* Images read by compute shaders through the loader, validation on:
 *
 * - textureLod through every combination of filter (NEAREST, LINEAR), mipmap
 *   mode (NEAREST, LINEAR), address mode (REPEAT, MIRRORED_REPEAT,
 *   CLAMP_TO_EDGE, CLAMP_TO_BORDER with float border colours), LOD bias and
 *   LOD clamps, against a reference written from the specification's
 *   "Texel Filtering" and "Level-of-Detail Operation" sections, within the
 *   precision the device reports (subTexelPrecisionBits,
 *   mipmapPrecisionBits); points where NEAREST rounding is a tie are skipped.
 * - unnormalized coordinates (texel units, NEAREST and LINEAR) and depth
 *   comparison (every compare op with NEAREST and LINEAR filtering, the
 *   comparison made per texel before filtering) against the same reference;
 * - storage images: imageAtomicAdd from 256 invocations, imageLoad /
 *   imageStore round trip, imageSize.
 * - cube maps sampled LINEAR near the edges and corners of their faces,
 *   against a reference of the specification's "Cube Map Edge Handling"
 *   (Vulkan filters cubes seamlessly: a footprint continues on the adjacent
 *   face, a corner texel is the average of the three that meet there).
 *
 * Runs on vkppu (api.image_sampling) and lavapipe (lvp.image_sampling): the
 * second run checks the reference itself. */
#include <math.h>
#include <string.h>

#include "compute_test_util.h"
#include "image_test_util.h"

#define TEX_W 8u
#define TEX_H 4u
#define TEX_LEVELS 4u /* 8x4, 4x2, 2x1, 1x1 */
#define POINTS 256u

struct texture_data {
   uint8_t texels[TEX_LEVELS][TEX_W * TEX_H * 4];
};

static uint32_t level_w(uint32_t l)
{
   return TEX_W >> l ? TEX_W >> l : 1;
}
static uint32_t level_h(uint32_t l)
{
   return TEX_H >> l ? TEX_H >> l : 1;
}

struct sampler_case {
   VkFilter filter;
   VkSamplerMipmapMode mip;
   VkSamplerAddressMode address;
   VkBorderColor border;
   float bias, min_lod, max_lod;
};

/* ---- reference ---------------------------------------------------------- */

/* The texel index for integer coordinate i of a level `size` texels wide,
 * or -1 for the border (Vulkan "Wrapping Operation"). */
static int wrap_index(int i, int size, VkSamplerAddressMode mode)
{
   switch (mode) {
   case VK_SAMPLER_ADDRESS_MODE_REPEAT: {
      int m = i % size;
      return m < 0 ? m + size : m;
   }
   case VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT: {
      int t = i % (2 * size);
      if (t < 0)
         t += 2 * size;
      t -= size;
      int mirror = t >= 0 ? t : -(1 + t);
      return size - 1 - mirror;
   }
   case VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE:
      return i < 0 ? 0 : i >= size ? size - 1 : i;
   default: /* CLAMP_TO_BORDER */
      return i < 0 || i >= size ? -1 : i;
   }
}

static void border_rgba(VkBorderColor b, double out[4])
{
   double alpha = b == VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK ? 0.0 : 1.0;
   double rgb = b == VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE ? 1.0 : 0.0;
   out[0] = out[1] = out[2] = rgb;
   out[3] = alpha;
}

static void texel(const struct texture_data *t, const struct sampler_case *s, uint32_t level, int i,
                  int j, double out[4])
{
   int w = (int)level_w(level), h = (int)level_h(level);
   int x = wrap_index(i, w, s->address), y = wrap_index(j, h, s->address);
   if (x < 0 || y < 0) {
      border_rgba(s->border, out);
      return;
   }
   for (int c = 0; c < 4; c++)
      out[c] = t->texels[level][((size_t)y * w + x) * 4 + c] / 255.0;
}

/* Distance of a NEAREST coordinate from a rounding tie, in texels. */
static double tie_distance(double x)
{
   return fabs(x - floor(x) - 0.0) < fabs(x - floor(x) - 1.0) ? x - floor(x) : ceil(x) - x;
}

/* Filters one level; false when a NEAREST coordinate is within `margin`
 * texels of a tie (the implementation may round either way). */
static bool filter_level(const struct texture_data *t, const struct sampler_case *s, uint32_t level,
                         VkFilter filter, double u, double v, double margin, double out[4])
{
   double x = u * level_w(level), y = v * level_h(level);
   if (filter == VK_FILTER_NEAREST) {
      if (tie_distance(x) < margin || tie_distance(y) < margin)
         return false;
      texel(t, s, level, (int)floor(x), (int)floor(y), out);
      return true;
   }
   x -= 0.5;
   y -= 0.5;
   int i0 = (int)floor(x), j0 = (int)floor(y);
   double a = x - i0, b = y - j0, t00[4], t10[4], t01[4], t11[4];
   texel(t, s, level, i0, j0, t00);
   texel(t, s, level, i0 + 1, j0, t10);
   texel(t, s, level, i0, j0 + 1, t01);
   texel(t, s, level, i0 + 1, j0 + 1, t11);
   for (int c = 0; c < 4; c++)
      out[c] =
          (1 - a) * (1 - b) * t00[c] + a * (1 - b) * t10[c] + (1 - a) * b * t01[c] + a * b * t11[c];
   return true;
}

/* textureLod(u, v, lod) with sampler s; false for points the test skips. */
static bool reference_sample(const struct texture_data *t, const struct sampler_case *s, double u,
                             double v, double lod, double out[4])
{
   const double margin = 1.0 / 64.0;
   double lambda = lod + s->bias;
   if (lambda > s->max_lod)
      lambda = s->max_lod;
   if (lambda < s->min_lod)
      lambda = s->min_lod;
   /* mag and min filters are equal in every case, so lambda <= 0 needs no
    * special filter; level selection clamps to the view's levels. */
   double q = TEX_LEVELS - 1;
   if (s->mip == VK_SAMPLER_MIPMAP_MODE_NEAREST) {
      double d = lambda <= 0.5 ? 0 : ceil(lambda + 0.5) - 1;
      if (lambda > 0.5 && fabs(lambda + 0.5 - round(lambda + 0.5)) < margin)
         return false;
      if (d > q)
         d = q;
      return filter_level(t, s, (uint32_t)d, s->filter, u, v, margin, out);
   }
   double d = lambda < 0 ? 0 : lambda > q ? q : lambda;
   uint32_t hi = (uint32_t)floor(d), lo = hi + 1 <= q ? hi + 1 : hi;
   double delta = d - hi, a[4], b[4];
   if (!filter_level(t, s, hi, s->filter, u, v, margin, a) ||
       !filter_level(t, s, lo, s->filter, u, v, margin, b))
      return false;
   for (int c = 0; c < 4; c++)
      out[c] = (1 - delta) * a[c] + delta * b[c];
   return true;
}

/* ---- Vulkan side ---------------------------------------------------------- */

/* Uploads every level of t and leaves the image SHADER_READ_ONLY_OPTIMAL. */
static bool upload_texture(struct vkt_device *dev, const struct vkt_image *img,
                           const struct texture_data *t)
{
   VkBufferImageCopy regions[TEX_LEVELS];
   for (uint32_t l = 0; l < TEX_LEVELS; l++)
      regions[l] = (VkBufferImageCopy){
          .bufferOffset = (VkDeviceSize)l * sizeof(t->texels[0]),
          .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l, 0, 1},
          .imageExtent = {level_w(l), level_h(l), 1},
      };
   return vkt_image_upload(dev, img->image, t->texels, sizeof(t->texels), regions, TEX_LEVELS,
                           VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
}

static struct sampler_case cases[64];

static uint32_t make_cases(void)
{
   static const VkSamplerAddressMode modes[] = {
       VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT,
       VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER};
   static const VkBorderColor borders[] = {VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK,
                                           VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK,
                                           VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE};
   uint32_t n = 0;
   for (uint32_t f = 0; f < 2; f++) {
      for (uint32_t m = 0; m < 2; m++) {
         for (uint32_t a = 0; a < 4; a++) {
            cases[n++] = (struct sampler_case){
                .filter = f ? VK_FILTER_LINEAR : VK_FILTER_NEAREST,
                .mip = m ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST,
                .address = modes[a],
                .border = borders[(f * 2 + m) % 3],
                .max_lod = VK_LOD_CLAMP_NONE,
            };
         }
      }
   }
   /* LOD bias and clamps, with linear filtering between levels. */
   cases[n++] = (struct sampler_case){VK_FILTER_LINEAR,
                                      VK_SAMPLER_MIPMAP_MODE_LINEAR,
                                      VK_SAMPLER_ADDRESS_MODE_REPEAT,
                                      0,
                                      1.25f,
                                      0.0f,
                                      1000.0f};
   cases[n++] = (struct sampler_case){VK_FILTER_LINEAR,
                                      VK_SAMPLER_MIPMAP_MODE_LINEAR,
                                      VK_SAMPLER_ADDRESS_MODE_REPEAT,
                                      0,
                                      -0.75f,
                                      0.0f,
                                      1000.0f};
   cases[n++] = (struct sampler_case){VK_FILTER_LINEAR,
                                      VK_SAMPLER_MIPMAP_MODE_LINEAR,
                                      VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                      0,
                                      0.0f,
                                      0.8f,
                                      1.6f};
   cases[n++] = (struct sampler_case){VK_FILTER_NEAREST,
                                      VK_SAMPLER_MIPMAP_MODE_NEAREST,
                                      VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                      0,
                                      0.0f,
                                      1.2f,
                                      2.2f};
   return n;
}

/* A filtered RGBA result against the reference, component by component. */
static bool rgba_close(const float *got, const double want[4], double tol)
{
   for (int c = 0; c < 4; c++) {
      if (fabs(got[c] - want[c]) > tol)
         return false;
   }
   return true;
}

TEST_CASE(texture_lod_matches_the_reference_for_every_sampler_mode)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   VkFormatProperties fp;
   vkGetPhysicalDeviceFormatProperties(ctx.physical_device, VK_FORMAT_R8G8B8A8_UNORM, &fp);
   VkFormatFeatureFlags need = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT |
                               VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT |
                               VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
   CHECK((fp.optimalTilingFeatures & need) == need); /* required by the spec */

   struct texture_data t;
   vkt_fill_random(t.texels, sizeof(t.texels), 0x5eed);
   struct vkt_image img;
   REQUIRE(vkt_image_create_2d(&dev, VK_FORMAT_R8G8B8A8_UNORM, TEX_W, TEX_H, TEX_LEVELS,
                               VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, &img));
   REQUIRE(upload_texture(&dev, &img, &t));

   uint32_t ncases = make_cases();
   struct vkt_buffer coords, results;
   VKT_REQUIRE(vkt_buffer_create(&dev, POINTS * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                 VKT_MEMORY_HOST, &coords));
   float *xy = coords.map;
   uint64_t seed = 77;
   static const float lods[] = {-0.7f, 0.3f, 0.8f, 1.2f, 1.8f, 2.3f, 2.9f, 3.6f, 6.0f};
   for (uint32_t i = 0; i < POINTS; i++) {
      xy[4 * i + 0] = -1.5f + 4.0f * (float)(vkt_rand_next(&seed) % 4096) / 4096.0f;
      xy[4 * i + 1] = -1.5f + 4.0f * (float)(vkt_rand_next(&seed) % 4096) / 4096.0f;
      xy[4 * i + 2] = lods[i % (sizeof(lods) / sizeof(lods[0]))];
      xy[4 * i + 3] = 0.0f;
   }
   VkSampler samplers[64];
   for (uint32_t k = 0; k < ncases; k++) {
      const struct sampler_case *s = &cases[k];
      VkSamplerCreateInfo sci = {
          .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
          .magFilter = s->filter,
          .minFilter = s->filter,
          .mipmapMode = s->mip,
          .addressModeU = s->address,
          .addressModeV = s->address,
          .addressModeW = s->address,
          .mipLodBias = s->bias,
          .minLod = s->min_lod,
          .maxLod = s->max_lod,
          .borderColor = s->border,
      };
      VKT_REQUIRE(vkCreateSampler(dev.device, &sci, NULL, &samplers[k]));
   }
   REQUIRE(ctu_sample_points(&dev, "image_sample_lod", img.view, samplers, ncases, &coords, POINTS,
                             16, &results));

   /* Weights carry subTexelPrecisionBits in each direction and
    * mipmapPrecisionBits between levels; 8-bit texels add half an ulp. */
   double tol = 2.0 * ldexp(1.0, -(int)ctx.props.limits.subTexelPrecisionBits) +
                ldexp(1.0, -(int)ctx.props.limits.mipmapPrecisionBits) + 1.0 / 255.0;
   const float *got = results.map;
   uint32_t checked = 0, skipped = 0, wrong = 0;
   for (uint32_t k = 0; k < ncases; k++) {
      for (uint32_t i = 0; i < POINTS; i++) {
         double want[4];
         if (!reference_sample(&t, &cases[k], xy[4 * i], xy[4 * i + 1], xy[4 * i + 2], want)) {
            skipped++;
            continue;
         }
         checked++;
         const float *g = got + ((size_t)k * POINTS + i) * 4;
         bool ok = rgba_close(g, want, tol);
         if (!ok && wrong++ < 8)
            test_fail(__FILE__, __LINE__,
                      "case %u (filter %d mip %d address %d bias %.2f lod [%.1f, %.1f]) at "
                      "(%.4f, %.4f, lod %.2f): got (%.4f %.4f %.4f %.4f), want (%.4f %.4f %.4f "
                      "%.4f)",
                      k, cases[k].filter, cases[k].mip, cases[k].address, cases[k].bias,
                      cases[k].min_lod, cases[k].max_lod, xy[4 * i], xy[4 * i + 1], xy[4 * i + 2],
                      g[0], g[1], g[2], g[3], want[0], want[1], want[2], want[3]);
      }
   }
   printf("  %u samplers, %u points checked within %.4f, %u tie points skipped, %u wrong\n", ncases,
          checked, tol, skipped, wrong);
   CHECK(wrong == 0);
   CHECK(checked > skipped * 4);

   for (uint32_t k = 0; k < ncases; k++)
      vkDestroySampler(dev.device, samplers[k], NULL);
   vkt_buffer_destroy(&dev, &coords);
   vkt_buffer_destroy(&dev, &results);
   vkt_image_destroy(&dev, &img);
   vkt_teardown(&ctx, &dev);
}

TEST_CASE(unnormalized_coordinates_address_texels)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   struct texture_data t;
   vkt_fill_random(t.texels, sizeof(t.texels), 0x0dd);
   struct vkt_image img;
   REQUIRE(vkt_image_create_2d(&dev, VK_FORMAT_R8G8B8A8_UNORM, TEX_W, TEX_H, TEX_LEVELS,
                               VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, &img));
   REQUIRE(upload_texture(&dev, &img, &t));
   /* Unnormalized coordinates need a single-level view (VkSamplerCreateInfo). */
   VkImageView level0;
   VkImageViewCreateInfo vci = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                .image = img.image,
                                .viewType = VK_IMAGE_VIEW_TYPE_2D,
                                .format = VK_FORMAT_R8G8B8A8_UNORM,
                                .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
   VKT_REQUIRE(vkCreateImageView(dev.device, &vci, NULL, &level0));
   struct vkt_buffer coords, results;
   VKT_REQUIRE(vkt_buffer_create(&dev, POINTS * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                 VKT_MEMORY_HOST, &coords));
   float *xy = coords.map;
   uint64_t seed = 99;
   for (uint32_t i = 0; i < POINTS; i++) {
      /* Texel units, a little beyond the edges (clamped). */
      xy[4 * i + 0] = -1.0f + (TEX_W + 2.0f) * (float)(vkt_rand_next(&seed) % 4096) / 4096.0f;
      xy[4 * i + 1] = -1.0f + (TEX_H + 2.0f) * (float)(vkt_rand_next(&seed) % 4096) / 4096.0f;
      xy[4 * i + 2] = 0.0f; /* lod: explicit 0, as unnormalized sampling requires */
      xy[4 * i + 3] = 0.0f;
   }
   VkSampler samplers[2];
   struct sampler_case sc[2];
   for (uint32_t k = 0; k < 2; k++) {
      VkFilter f = k ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
      VkSamplerCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
                                 .magFilter = f,
                                 .minFilter = f,
                                 .mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST,
                                 .addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                 .addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                 .addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                 .unnormalizedCoordinates = VK_TRUE};
      VKT_REQUIRE(vkCreateSampler(dev.device, &sci, NULL, &samplers[k]));
      sc[k] = (struct sampler_case){
          f,   VK_SAMPLER_MIPMAP_MODE_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, 0, 0.0f, 0.0f,
          0.0f};
   }
   REQUIRE(ctu_sample_points(&dev, "image_sample_lod", level0, samplers, 2, &coords, POINTS, 16,
                             &results));
   double tol = 2.0 * ldexp(1.0, -(int)ctx.props.limits.subTexelPrecisionBits) + 1.0 / 255.0;
   const float *got = results.map;
   uint32_t checked = 0, wrong = 0;
   for (uint32_t k = 0; k < 2; k++) {
      for (uint32_t i = 0; i < POINTS; i++) {
         /* The reference takes normalized coordinates: divide by the size. */
         double want[4];
         if (!reference_sample(&t, &sc[k], xy[4 * i] / (double)TEX_W, xy[4 * i + 1] / (double)TEX_H,
                               0.0, want))
            continue;
         checked++;
         const float *g = got + ((size_t)k * POINTS + i) * 4;
         bool ok = rgba_close(g, want, tol);
         if (!ok && wrong++ < 5)
            test_fail(__FILE__, __LINE__,
                      "filter %d at texel (%.3f, %.3f): got (%.4f %.4f %.4f %.4f), want (%.4f "
                      "%.4f %.4f %.4f)",
                      sc[k].filter, xy[4 * i], xy[4 * i + 1], g[0], g[1], g[2], g[3], want[0],
                      want[1], want[2], want[3]);
      }
   }
   printf("  %u unnormalized points checked, %u wrong\n", checked, wrong);
   CHECK(wrong == 0 && checked > POINTS);
   for (uint32_t k = 0; k < 2; k++)
      vkDestroySampler(dev.device, samplers[k], NULL);
   vkDestroyImageView(dev.device, level0, NULL);
   vkt_buffer_destroy(&dev, &coords);
   vkt_buffer_destroy(&dev, &results);
   vkt_image_destroy(&dev, &img);
   vkt_teardown(&ctx, &dev);
}

/* Vulkan "Depth Compare Operation": the reference is compared with each
 * texel (reference OP texel), and the results are what gets filtered. */
static bool compare_passes(VkCompareOp op, double ref, double d)
{
   switch (op) {
   case VK_COMPARE_OP_NEVER:
      return false;
   case VK_COMPARE_OP_LESS:
      return ref < d;
   case VK_COMPARE_OP_EQUAL:
      return ref == d;
   case VK_COMPARE_OP_LESS_OR_EQUAL:
      return ref <= d;
   case VK_COMPARE_OP_GREATER:
      return ref > d;
   case VK_COMPARE_OP_NOT_EQUAL:
      return ref != d;
   case VK_COMPARE_OP_GREATER_OR_EQUAL:
      return ref >= d;
   default:
      return true;
   }
}

#define SHADOW_W 8u
#define SHADOW_H 4u

/* The comparison result at (u, v) with CLAMP_TO_EDGE on level 0; false
 * for NEAREST points the test skips (within a tie of a texel edge). */
static bool reference_shadow(const float *depth, VkFilter filter, VkCompareOp op, double u,
                             double v, double ref, double *out)
{
   double x = u * SHADOW_W, y = v * SHADOW_H;
   if (filter == VK_FILTER_NEAREST) {
      if (tie_distance(x) < 1.0 / 64 || tie_distance(y) < 1.0 / 64)
         return false;
      int i = wrap_index((int)floor(x), SHADOW_W, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE);
      int j = wrap_index((int)floor(y), SHADOW_H, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE);
      *out = compare_passes(op, ref, depth[j * SHADOW_W + i]);
      return true;
   }
   x -= 0.5;
   y -= 0.5;
   int i0 = (int)floor(x), j0 = (int)floor(y);
   double a = x - i0, b = y - j0, sum = 0;
   for (int dj = 0; dj < 2; dj++) {
      for (int di = 0; di < 2; di++) {
         int i = wrap_index(i0 + di, SHADOW_W, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE);
         int j = wrap_index(j0 + dj, SHADOW_H, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE);
         double w = (di ? a : 1 - a) * (dj ? b : 1 - b);
         sum += w * compare_passes(op, ref, depth[j * SHADOW_W + i]);
      }
   }
   *out = sum;
   return true;
}

TEST_CASE(depth_compare_filters_the_comparison_results)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   VkFormatProperties fp;
   vkGetPhysicalDeviceFormatProperties(ctx.physical_device, VK_FORMAT_D32_SFLOAT, &fp);
   VkFormatFeatureFlags need =
       VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
   if ((fp.optimalTilingFeatures & need) != need) {
      vkt_skip("D32_SFLOAT cannot be sampled with linear filtering here");
      vkt_teardown(&ctx, &dev);
      return;
   }
   /* Depths on a 1/1000 grid, references halfway between: no ties. */
   float depth[SHADOW_W * SHADOW_H];
   uint64_t seed = 0xdeb7;
   for (uint32_t i = 0; i < SHADOW_W * SHADOW_H; i++)
      depth[i] = (float)(vkt_rand_next(&seed) % 1000) / 1000.0f;
   VkImageCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                            .imageType = VK_IMAGE_TYPE_2D,
                            .format = VK_FORMAT_D32_SFLOAT,
                            .extent = {SHADOW_W, SHADOW_H, 1},
                            .mipLevels = 1,
                            .arrayLayers = 1,
                            .samples = VK_SAMPLE_COUNT_1_BIT,
                            .tiling = VK_IMAGE_TILING_OPTIMAL,
                            .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT};
   struct vkt_image img;
   REQUIRE(vkt_image_create(&dev, &ici, VKT_NO_VIEW, &img));
   VkImageView view;
   VkImageViewCreateInfo vci = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                .image = img.image,
                                .viewType = VK_IMAGE_VIEW_TYPE_2D,
                                .format = VK_FORMAT_D32_SFLOAT,
                                .subresourceRange = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1}};
   VKT_REQUIRE(vkCreateImageView(dev.device, &vci, NULL, &view));
   VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1},
                               .imageExtent = {SHADOW_W, SHADOW_H, 1}};
   REQUIRE(vkt_image_upload_aspect(&dev, img.image, VK_IMAGE_ASPECT_DEPTH_BIT, depth, sizeof(depth),
                                   &region, 1, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL));
   struct vkt_buffer coords, results;
   VKT_REQUIRE(vkt_buffer_create(&dev, POINTS * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                 VKT_MEMORY_HOST, &coords));
   float *c = coords.map;
   for (uint32_t i = 0; i < POINTS; i++) {
      c[4 * i + 0] = -0.2f + 1.4f * (float)(vkt_rand_next(&seed) % 4096) / 4096.0f;
      c[4 * i + 1] = -0.2f + 1.4f * (float)(vkt_rand_next(&seed) % 4096) / 4096.0f;
      c[4 * i + 2] = ((float)(vkt_rand_next(&seed) % 1000) + 0.5f) / 1000.0f;
      c[4 * i + 3] = 0.0f;
   }
   static const VkCompareOp ops[] = {VK_COMPARE_OP_NEVER,
                                     VK_COMPARE_OP_LESS,
                                     VK_COMPARE_OP_EQUAL,
                                     VK_COMPARE_OP_LESS_OR_EQUAL,
                                     VK_COMPARE_OP_GREATER,
                                     VK_COMPARE_OP_NOT_EQUAL,
                                     VK_COMPARE_OP_GREATER_OR_EQUAL,
                                     VK_COMPARE_OP_ALWAYS};
   VkSampler samplers[16];
   for (uint32_t k = 0; k < 16; k++) {
      VkFilter f = k / 8 ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
      VkSamplerCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
                                 .magFilter = f,
                                 .minFilter = f,
                                 .addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                 .addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                 .addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                 .compareEnable = VK_TRUE,
                                 .compareOp = ops[k % 8]};
      VKT_REQUIRE(vkCreateSampler(dev.device, &sci, NULL, &samplers[k]));
   }
   REQUIRE(ctu_sample_points(&dev, "image_sample_shadow", view, samplers, 16, &coords, POINTS, 4,
                             &results));
   double tol = 2.0 * ldexp(1.0, -(int)ctx.props.limits.subTexelPrecisionBits) + 1e-6;
   const float *got = results.map;
   uint32_t checked = 0, wrong = 0;
   for (uint32_t k = 0; k < 16; k++) {
      VkFilter f = k / 8 ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
      for (uint32_t i = 0; i < POINTS; i++) {
         double want;
         if (!reference_shadow(depth, f, ops[k % 8], c[4 * i], c[4 * i + 1], c[4 * i + 2], &want))
            continue;
         checked++;
         float g = got[k * POINTS + i];
         if (fabs(g - want) > tol && wrong++ < 5)
            test_fail(__FILE__, __LINE__,
                      "filter %d op %d at (%.4f, %.4f) ref %.4f: got %.4f, want %.4f", f,
                      ops[k % 8], c[4 * i], c[4 * i + 1], c[4 * i + 2], g, want);
      }
   }
   printf("  %u depth comparisons checked (8 ops x NEAREST/LINEAR), %u wrong\n", checked, wrong);
   CHECK(wrong == 0 && checked > 8 * POINTS);
   for (uint32_t k = 0; k < 16; k++)
      vkDestroySampler(dev.device, samplers[k], NULL);
   vkDestroyImageView(dev.device, view, NULL);
   vkt_buffer_destroy(&dev, &coords);
   vkt_buffer_destroy(&dev, &results);
   vkt_image_destroy(&dev, &img);
   vkt_teardown(&ctx, &dev);
}

TEST_CASE(storage_images_load_store_and_atomics)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   const uint32_t w = 13, h = 7;
   struct vkt_image counters, src, dst;
   REQUIRE(vkt_image_create_2d(&dev, VK_FORMAT_R32_UINT, 2, 2, 1,
                               VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                                   VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                               &counters));
   REQUIRE(vkt_image_create_2d(&dev, VK_FORMAT_R8G8B8A8_UNORM, w, h, 1,
                               VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, &src));
   REQUIRE(vkt_image_create_2d(&dev, VK_FORMAT_R8G8B8A8_UNORM, w, h, 1,
                               VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, &dst));
   struct vkt_buffer staging, sizes;
   VKT_REQUIRE(vkt_buffer_create(&dev, 4096, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &staging));
   VKT_REQUIRE(
       vkt_buffer_create(&dev, 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKT_MEMORY_HOST, &sizes));
   uint8_t pixels[13 * 7 * 4];
   vkt_fill_random(pixels, sizeof(pixels), 4242);
   memcpy(staging.map, pixels, sizeof(pixels));

   VkDescriptorSetLayoutBinding b[4] = {
       {0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {2, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
   };
   VkDescriptorSetLayout set_layout = ctu_set_layout(&dev, b, 4);
   VkPipelineLayout layout = ctu_pipeline_layout(&dev, &set_layout, 1, 0);
   VkShaderModule mod = ctu_shader_module(&dev, "image_storage_ops");
   VkPipeline pipeline = VK_NULL_HANDLE;
   VKT_REQUIRE(ctu_compute_pipeline(&dev, VK_NULL_HANDLE, mod, layout, NULL, &pipeline));
   VkDescriptorPoolSize ps[2] = {{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 3},
                                 {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}};
   VkDescriptorPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                     .maxSets = 1,
                                     .poolSizeCount = 2,
                                     .pPoolSizes = ps};
   VkDescriptorPool pool;
   VKT_REQUIRE(vkCreateDescriptorPool(dev.device, &pci, NULL, &pool));
   VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                     .descriptorPool = pool,
                                     .descriptorSetCount = 1,
                                     .pSetLayouts = &set_layout};
   VkDescriptorSet set;
   VKT_REQUIRE(vkAllocateDescriptorSets(dev.device, &ai, &set));
   VkDescriptorImageInfo ii[3] = {{VK_NULL_HANDLE, counters.view, VK_IMAGE_LAYOUT_GENERAL},
                                  {VK_NULL_HANDLE, src.view, VK_IMAGE_LAYOUT_GENERAL},
                                  {VK_NULL_HANDLE, dst.view, VK_IMAGE_LAYOUT_GENERAL}};
   VkWriteDescriptorSet wr = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                              .dstSet = set,
                              .dstBinding = 0,
                              .descriptorCount = 3, /* runs through bindings 0, 1, 2 */
                              .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
                              .pImageInfo = ii};
   vkUpdateDescriptorSets(dev.device, 1, &wr, 0, NULL);
   ctu_write_buffer(&dev, set, 3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, sizes.buffer, 0,
                    VK_WHOLE_SIZE);

   VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
   VkImage all[3] = {counters.image, src.image, dst.image};
   for (int i = 0; i < 3; i++)
      vkt_cmd_image_barrier(cmd, all[i], VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, 0,
                            VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT);
   VkClearColorValue seven = {.uint32 = {7, 0, 0, 0}};
   VkImageSubresourceRange range = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
   vkCmdClearColorImage(cmd, counters.image, VK_IMAGE_LAYOUT_GENERAL, &seven, 1, &range);
   VkBufferImageCopy up = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                           .imageExtent = {w, h, 1}};
   vkCmdCopyBufferToImage(cmd, staging.buffer, src.image, VK_IMAGE_LAYOUT_GENERAL, 1, &up);
   VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                         .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                         .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                        0, 1, &mb, 0, NULL, 0, NULL);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
   vkCmdDispatch(cmd, 1, 1, 1);
   mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
   mb.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                        0, 1, &mb, 0, NULL, 0, NULL);
   VkBufferImageCopy down = {.bufferOffset = 1024,
                             .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                             .imageExtent = {w, h, 1}};
   vkCmdCopyImageToBuffer(cmd, dst.image, VK_IMAGE_LAYOUT_GENERAL, staging.buffer, 1, &down);
   VkBufferImageCopy cdown = {.bufferOffset = 2048,
                              .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                              .imageExtent = {2, 2, 1}};
   vkCmdCopyImageToBuffer(cmd, counters.image, VK_IMAGE_LAYOUT_GENERAL, staging.buffer, 1, &cdown);
   vkt_cmd_transfer_to_host_barrier(cmd);
   ctu_compute_to_host_barrier(cmd);
   VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));

   /* Invocation i adds i to texel (i & 1, (i >> 1) & 1) over 7. */
   const uint32_t *c = (const uint32_t *)((const uint8_t *)staging.map + 2048);
   for (uint32_t t = 0; t < 4; t++) {
      uint32_t want = 7;
      for (uint32_t i = 0; i < 256; i++)
         want += (i & 3) == t ? i : 0;
      CHECK_EQ_U64(c[t], want);
   }
   const uint8_t *out = (const uint8_t *)staging.map + 1024;
   size_t bad = 0;
   for (size_t i = 0; i < sizeof(pixels); i++)
      bad += out[i] != 255 - pixels[i];
   CHECK_EQ_U64(bad, 0);
   const int32_t *sz = sizes.map;
   CHECK(sz[0] == 2 && sz[1] == 2 && sz[2] == (int32_t)w && sz[3] == (int32_t)h);

   vkDestroyDescriptorPool(dev.device, pool, NULL);
   vkDestroyPipeline(dev.device, pipeline, NULL);
   vkDestroyShaderModule(dev.device, mod, NULL);
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkDestroyDescriptorSetLayout(dev.device, set_layout, NULL);
   vkt_buffer_destroy(&dev, &staging);
   vkt_buffer_destroy(&dev, &sizes);
   vkt_image_destroy(&dev, &counters);
   vkt_image_destroy(&dev, &src);
   vkt_image_destroy(&dev, &dst);
   vkt_teardown(&ctx, &dev);
}

/* ---- cube maps ------------------------------------------------------------ */

#define CUBE_SIZE 4u
#define CUBE_POINTS 384u

struct cube_data {
   uint8_t texels[6][CUBE_SIZE * CUBE_SIZE * 4];
};

/* Face and face coordinates (s, t) in [0, 1] of a direction ("Cube Map Face
 * Selection"; ties cannot happen at the points the test picks). */
static unsigned cube_face(const double d[3], double *s, double *t)
{
   double ax = fabs(d[0]), ay = fabs(d[1]), az = fabs(d[2]), sc, tc, ma;
   unsigned face;
   if (az >= ax && az >= ay)
      face = d[2] >= 0 ? 4 : 5, sc = d[2] >= 0 ? d[0] : -d[0], tc = -d[1], ma = az;
   else if (ay >= ax)
      face = d[1] >= 0 ? 2 : 3, sc = d[0], tc = d[1] >= 0 ? d[2] : -d[2], ma = ay;
   else
      face = d[0] >= 0 ? 0 : 1, sc = d[0] >= 0 ? -d[2] : d[2], tc = -d[1], ma = ax;
   *s = 0.5 * (sc / ma + 1.0);
   *t = 0.5 * (tc / ma + 1.0);
   return face;
}

/* The direction of point (sc, tc) of a face's plane: cube_face inverted. */
static void face_direction(unsigned face, double sc, double tc, double d[3])
{
   const double dirs[6][3] = {{1, -tc, -sc}, {-1, -tc, sc}, {sc, 1, tc},
                              {sc, -1, -tc}, {sc, -tc, 1},  {-sc, -tc, -1}};
   memcpy(d, dirs[face], sizeof(dirs[face]));
}

static int clamp_index(int i)
{
   return i < 0 ? 0 : i >= (int)CUBE_SIZE ? (int)CUBE_SIZE - 1 : i;
}

/* Texel (i, j) of a face, at most one texel beyond it: beyond one edge, the
 * texel of the adjacent face its centre's direction falls in; beyond two,
 * the average of the three texels meeting at the corner. */
static void cube_texel(const struct cube_data *c, unsigned face, int i, int j, double out[4])
{
   const int n = (int)CUBE_SIZE;
   bool out_i = i < 0 || i >= n, out_j = j < 0 || j >= n;
   if (out_i && out_j) {
      double a[4], b[4], d[4];
      cube_texel(c, face, clamp_index(i), clamp_index(j), a);
      cube_texel(c, face, i, clamp_index(j), b);
      cube_texel(c, face, clamp_index(i), j, d);
      for (int k = 0; k < 4; k++)
         out[k] = (a[k] + b[k] + d[k]) / 3.0;
      return;
   }
   if (out_i || out_j) {
      double dir[3], s, t;
      face_direction(face, 2.0 * (i + 0.5) / n - 1.0, 2.0 * (j + 0.5) / n - 1.0, dir);
      face = cube_face(dir, &s, &t);
      i = clamp_index((int)floor(s * n));
      j = clamp_index((int)floor(t * n));
   }
   for (int k = 0; k < 4; k++)
      out[k] = c->texels[face][((size_t)j * CUBE_SIZE + (size_t)i) * 4 + (size_t)k] / 255.0;
}

/* Bilinear filtering of level 0 at a direction, seamless across faces. */
static void reference_cube(const struct cube_data *c, const double dir[3], double out[4])
{
   double s, t;
   unsigned face = cube_face(dir, &s, &t);
   double x = s * CUBE_SIZE - 0.5, y = t * CUBE_SIZE - 0.5;
   int i0 = (int)floor(x), j0 = (int)floor(y);
   double a = x - i0, b = y - j0, t00[4], t10[4], t01[4], t11[4];
   cube_texel(c, face, i0, j0, t00);
   cube_texel(c, face, i0 + 1, j0, t10);
   cube_texel(c, face, i0, j0 + 1, t01);
   cube_texel(c, face, i0 + 1, j0 + 1, t11);
   for (int k = 0; k < 4; k++)
      out[k] =
          (1 - a) * (1 - b) * t00[k] + a * (1 - b) * t10[k] + (1 - a) * b * t01[k] + a * b * t11[k];
}

/* Points near the edges and corners of every face: |sc| and |tc| beyond
 * the last texel centre (0.75 on a 4-texel face) so that the footprint
 * leaves the face, but not within 0.01 of the edge, where the face the
 * direction selects could go either way. */
static void cube_points(float *xyzl)
{
   uint64_t seed = 4711;
   for (uint32_t p = 0; p < CUBE_POINTS; p++) {
      unsigned face = p % 6, kind = (p / 6) % 4;
      double r1 = (double)(vkt_rand_next(&seed) % 1024) / 1024.0;
      double r2 = (double)(vkt_rand_next(&seed) % 1024) / 1024.0;
      double near1 = 0.76 + 0.23 * r1, near2 = 0.76 + 0.23 * r2;
      double sc = (p & 64 ? 1 : -1) * near1, tc = (p & 128 ? 1 : -1) * near2;
      if (kind == 1) /* an edge in s, anywhere along it */
         tc = 2.0 * r2 - 1.0;
      else if (kind == 2) /* an edge in t */
         sc = 2.0 * r1 - 1.0;
      double d[3];
      face_direction(face, sc, tc, d);
      for (int k = 0; k < 3; k++)
         xyzl[4 * p + k] = (float)d[k];
      xyzl[4 * p + 3] = 0.0f;
   }
}

TEST_CASE(linear_cube_sampling_is_seamless_across_edges_and_corners)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   struct cube_data c;
   vkt_fill_random(c.texels, sizeof(c.texels), 0xc0be);
   VkImageCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                            .flags = VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT,
                            .imageType = VK_IMAGE_TYPE_2D,
                            .format = VK_FORMAT_R8G8B8A8_UNORM,
                            .extent = {CUBE_SIZE, CUBE_SIZE, 1},
                            .mipLevels = 1,
                            .arrayLayers = 6,
                            .samples = VK_SAMPLE_COUNT_1_BIT,
                            .tiling = VK_IMAGE_TILING_OPTIMAL,
                            .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT};
   struct vkt_image img;
   REQUIRE(vkt_image_create(&dev, &ici, VK_IMAGE_VIEW_TYPE_CUBE, &img));
   VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 6},
                               .imageExtent = {CUBE_SIZE, CUBE_SIZE, 1}};
   REQUIRE(vkt_image_upload(&dev, img.image, c.texels, sizeof(c.texels), &region, 1,
                            VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL));

   struct vkt_buffer coords, results;
   VKT_REQUIRE(vkt_buffer_create(&dev, CUBE_POINTS * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                 VKT_MEMORY_HOST, &coords));
   float *xyzl = coords.map;
   cube_points(xyzl);
   /* The address mode is ignored for cubes; REPEAT would show if it were not. */
   VkSamplerCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
                              .magFilter = VK_FILTER_LINEAR,
                              .minFilter = VK_FILTER_LINEAR,
                              .mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST,
                              .addressModeU = VK_SAMPLER_ADDRESS_MODE_REPEAT,
                              .addressModeV = VK_SAMPLER_ADDRESS_MODE_REPEAT,
                              .addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT};
   VkSampler sampler;
   VKT_REQUIRE(vkCreateSampler(dev.device, &sci, NULL, &sampler));
   REQUIRE(ctu_sample_points(&dev, "image_sample_cube", img.view, &sampler, 1, &coords, CUBE_POINTS,
                             16, &results));

   double tol = 2.0 * ldexp(1.0, -(int)ctx.props.limits.subTexelPrecisionBits) + 1.0 / 255.0;
   const float *got = results.map;
   uint32_t wrong = 0;
   for (uint32_t p = 0; p < CUBE_POINTS; p++) {
      double dir[3] = {xyzl[4 * p], xyzl[4 * p + 1], xyzl[4 * p + 2]}, want[4];
      reference_cube(&c, dir, want);
      const float *g = got + 4 * p;
      bool ok = rgba_close(g, want, tol);
      if (!ok && wrong++ < 8)
         test_fail(__FILE__, __LINE__,
                   "direction (%.4f, %.4f, %.4f): got (%.4f %.4f %.4f %.4f), want (%.4f %.4f "
                   "%.4f %.4f)",
                   dir[0], dir[1], dir[2], g[0], g[1], g[2], g[3], want[0], want[1], want[2],
                   want[3]);
   }
   printf("  %u directions near cube edges and corners, %u wrong (tolerance %.4f)\n", CUBE_POINTS,
          wrong, tol);
   CHECK(wrong == 0);

   vkDestroySampler(dev.device, sampler, NULL);
   vkt_buffer_destroy(&dev, &coords);
   vkt_buffer_destroy(&dev, &results);
   vkt_image_destroy(&dev, &img);
   vkt_teardown(&ctx, &dev);
}

/* A border texel has the components of the view's format: on R8_UNORM and
 * R8G8_UNORM the opaque white and transparent black borders read
 * (1, 0, 0, 1) / (1, 1, 0, 1) and (0, 0, 0, 1): the components the format
 * lacks are 0, and alpha 1, as for any of its texels (Vulkan "Texel
 * Replacement"). */
TEST_CASE(border_texels_have_the_components_of_the_format)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   static const VkFormat formats[2] = {VK_FORMAT_R8_UNORM, VK_FORMAT_R8G8_UNORM};
   static const VkBorderColor borders[2] = {VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE,
                                            VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK};
   struct vkt_buffer coords;
   VKT_REQUIRE(vkt_buffer_create(&dev, 64 * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKT_MEMORY_HOST,
                                 &coords));
   float *xy = coords.map;
   for (uint32_t i = 0; i < 64; i++) { /* well outside the image */
      xy[4 * i + 0] = -2.0f - (float)i;
      xy[4 * i + 1] = 3.0f;
      xy[4 * i + 2] = xy[4 * i + 3] = 0.0f;
   }
   for (uint32_t f = 0; f < 2; f++) {
      struct vkt_image img;
      REQUIRE(vkt_image_create_2d(&dev, formats[f], 4, 4, 1,
                                  VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                  &img));
      uint8_t texels[4 * 4 * 2];
      memset(texels, 0x80, sizeof(texels));
      VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                                  .imageExtent = {4, 4, 1}};
      REQUIRE(vkt_image_upload(&dev, img.image, texels, (f + 1) * 16, &region, 1,
                               VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL));
      VkSampler samplers[2];
      for (uint32_t b = 0; b < 2; b++) {
         VkSamplerCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
                                    .magFilter = VK_FILTER_NEAREST,
                                    .minFilter = VK_FILTER_NEAREST,
                                    .addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
                                    .addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
                                    .addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
                                    .borderColor = borders[b]};
         VKT_REQUIRE(vkCreateSampler(dev.device, &sci, NULL, &samplers[b]));
      }
      struct vkt_buffer results;
      REQUIRE(ctu_sample_points(&dev, "image_sample_lod", img.view, samplers, 2, &coords, 64, 16,
                                &results));
      const float *got = results.map;
      for (uint32_t b = 0; b < 2; b++) {
         const float white = b == 0 ? 1.0f : 0.0f;
         const float want[4] = {white, f == 1 ? white : 0.0f, 0.0f, 1.0f};
         const float *g = got + (size_t)b * 64 * 4;
         CHECK_MSG(g[0] == want[0] && g[1] == want[1] && g[2] == want[2] && g[3] == want[3],
                   "format %d, border %d: got (%g %g %g %g), want (%g %g %g %g)", formats[f],
                   borders[b], g[0], g[1], g[2], g[3], want[0], want[1], want[2], want[3]);
      }
      for (uint32_t b = 0; b < 2; b++)
         vkDestroySampler(dev.device, samplers[b], NULL);
      vkt_buffer_destroy(&dev, &results);
      vkt_image_destroy(&dev, &img);
   }
   vkt_buffer_destroy(&dev, &coords);
   vkt_teardown(&ctx, &dev);
}

/* VK_EXT_custom_border_color and VK_EXT_border_color_swizzle: on an
 * R8G8_UNORM view with components (G, R, ONE, ZERO), a custom border
 * (0.25, 0.5, 0.75, 0.125) keeps the format's R and G, gets B 0 and A 1,
 * then the view's swizzle: (0.5, 0.25, 1, 0); opaque black through a
 * sampler that names the view's mapping reads (0, 0, 1, 0). */
TEST_CASE(custom_borders_are_swizzled_like_texels)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   memset(&dev, 0, sizeof(dev));
   if (!vkt_context_create(&ctx))
      return;
   VkPhysicalDeviceBorderColorSwizzleFeaturesEXT swz = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BORDER_COLOR_SWIZZLE_FEATURES_EXT};
   VkPhysicalDeviceCustomBorderColorFeaturesEXT cbc = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_FEATURES_EXT, .pNext = &swz};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &cbc};
   vkGetPhysicalDeviceFeatures2(ctx.physical_device, &f2);
   if (!cbc.customBorderColors || !swz.borderColorSwizzle) {
      if (ctx.is_vkppu)
         CHECK_MSG(false, "vkppu lacks customBorderColors or borderColorSwizzle");
      else
         vkt_skip("customBorderColors or borderColorSwizzle not supported");
      vkt_context_destroy(&ctx);
      return;
   }
   static const char *const extensions[] = {VK_EXT_CUSTOM_BORDER_COLOR_EXTENSION_NAME,
                                            VK_EXT_BORDER_COLOR_SWIZZLE_EXTENSION_NAME};
   cbc.customBorderColorWithoutFormat = VK_FALSE;
   swz.borderColorSwizzleFromImage = VK_FALSE;
   struct vkt_device_desc desc = {
       .extensions = extensions, .extension_count = 2, .feature_chain = &cbc};
   if (vkt_device_create(&ctx, &desc, &dev) != VK_SUCCESS) {
      CHECK_MSG(false, "vkCreateDevice with the border extensions failed");
      vkt_context_destroy(&ctx);
      return;
   }
   struct vkt_image img;
   REQUIRE(vkt_image_create_2d(&dev, VK_FORMAT_R8G8_UNORM, 4, 4, 1,
                               VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, &img));
   uint8_t texels[4 * 4 * 2];
   memset(texels, 0x80, sizeof(texels));
   VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                               .imageExtent = {4, 4, 1}};
   REQUIRE(vkt_image_upload(&dev, img.image, texels, sizeof(texels), &region, 1,
                            VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL));
   const VkComponentMapping mapping = {VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_R,
                                       VK_COMPONENT_SWIZZLE_ONE, VK_COMPONENT_SWIZZLE_ZERO};
   VkImageViewCreateInfo vci = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                .image = img.image,
                                .viewType = VK_IMAGE_VIEW_TYPE_2D,
                                .format = VK_FORMAT_R8G8_UNORM,
                                .components = mapping,
                                .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
   VkImageView view;
   VKT_REQUIRE(vkCreateImageView(dev.device, &vci, NULL, &view));
   const VkSamplerCustomBorderColorCreateInfoEXT custom = {
       .sType = VK_STRUCTURE_TYPE_SAMPLER_CUSTOM_BORDER_COLOR_CREATE_INFO_EXT,
       .customBorderColor = {.float32 = {0.25f, 0.5f, 0.75f, 0.125f}},
       .format = VK_FORMAT_R8G8_UNORM};
   const VkSamplerBorderColorComponentMappingCreateInfoEXT hint = {
       .sType = VK_STRUCTURE_TYPE_SAMPLER_BORDER_COLOR_COMPONENT_MAPPING_CREATE_INFO_EXT,
       .components = mapping};
   VkSampler samplers[2];
   for (uint32_t b = 0; b < 2; b++) {
      VkSamplerCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
                                 .pNext = b == 0 ? (const void *)&custom : (const void *)&hint,
                                 .magFilter = VK_FILTER_NEAREST,
                                 .minFilter = VK_FILTER_NEAREST,
                                 .addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
                                 .addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
                                 .addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
                                 .borderColor = b == 0 ? VK_BORDER_COLOR_FLOAT_CUSTOM_EXT
                                                       : VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK};
      VKT_REQUIRE(vkCreateSampler(dev.device, &sci, NULL, &samplers[b]));
   }
   struct vkt_buffer coords, results;
   VKT_REQUIRE(vkt_buffer_create(&dev, 64 * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKT_MEMORY_HOST,
                                 &coords));
   float *xy = coords.map;
   for (uint32_t i = 0; i < 64; i++) {
      xy[4 * i + 0] = 5.0f + (float)i;
      xy[4 * i + 1] = -1.5f;
      xy[4 * i + 2] = xy[4 * i + 3] = 0.0f;
   }
   REQUIRE(
       ctu_sample_points(&dev, "image_sample_lod", view, samplers, 2, &coords, 64, 16, &results));
   const float want[2][4] = {{0.5f, 0.25f, 1.0f, 0.0f}, {0.0f, 0.0f, 1.0f, 0.0f}};
   const float *got = results.map;
   for (uint32_t b = 0; b < 2; b++) {
      const float *g = got + (size_t)b * 64 * 4;
      CHECK_MSG(g[0] == want[b][0] && g[1] == want[b][1] && g[2] == want[b][2] &&
                    g[3] == want[b][3],
                "sampler %u: got (%g %g %g %g), want (%g %g %g %g)", b, g[0], g[1], g[2], g[3],
                want[b][0], want[b][1], want[b][2], want[b][3]);
   }
   for (uint32_t b = 0; b < 2; b++)
      vkDestroySampler(dev.device, samplers[b], NULL);
   vkDestroyImageView(dev.device, view, NULL);
   vkt_buffer_destroy(&dev, &results);
   vkt_buffer_destroy(&dev, &coords);
   vkt_image_destroy(&dev, &img);
   vkt_teardown(&ctx, &dev);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
