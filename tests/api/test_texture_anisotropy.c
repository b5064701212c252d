/* Anisotropic filtering (samplerAnisotropy): a mipmapped texture of
 * vertical stripes 4 texels wide, seen as a floor at a grazing angle (one
 * texel per pixel across, up to 16 along).
 *
 * Trilinear filtering picks its level from the long side of the footprint,
 * so the stripes wash out to grey as the footprint stretches (level 3 and
 * up hold only grey); anisotropic filtering takes up to 16 probes along the
 * long side at the level of the short one, so they stay black and white.
 *
 * - textureGrad in a compute shader (shaders/texture_grad_anisotropy.comp)
 *   on vkppu: where the stretch is at most 16, the anisotropic result is
 *   level 0 filtered bilinearly (the texture is constant along the probes),
 *   computed here; trilinear (anisotropy off) has lost the contrast.
 *   (Lavapipe 25 does not filter explicit gradients anisotropically, so it
 *   is no reference here.)
 * - A rasterized floor (implicit derivatives, gfx_aniso.frag) on vkppu and
 *   on lavapipe, in one instance that sees both drivers: the images agree
 *   within a small mean and per-pixel bound, and vkppu's is sharper than
 *   its own trilinear one. */
#include <math.h>
#include <string.h>

#include "compute_test_util.h"
#include "graphics_test_util.h"
#include "image_test_util.h"

#define SIZE 256u
#define LEVELS 9u
#define SAMPLES 4096u

/* One implementation: its device, the pipeline, and a sampler with and
 * one without anisotropy. */
struct side {
   struct vkt_context ctx;
   struct vkt_device dev;
   struct ctu_program program; /* texture_grad_anisotropy.comp, sets for 3 runs */
   VkSampler aniso, trilinear;
   struct vkt_image img;
};

/* Level l of the stripes: level 0 is black and white in stripes 4 texels
 * wide; each further level is the 2x2 box filter of the one before (exact
 * in 8 bits: 0, 255 and their averages 127.5 -> 128 only from level 3). */
static void stripes_level(uint32_t level, uint8_t *out)
{
   uint32_t n = SIZE >> level;
   for (uint32_t y = 0; y < n; y++)
      for (uint32_t x = 0; x < n; x++) {
         /* Texels [x * 2^level, (x + 1) * 2^level) of level 0, averaged. */
         uint32_t first = x << level, count = 1u << level, white = 0;
         for (uint32_t i = 0; i < count; i++)
            white += ((first + i) / 4u) % 2u;
         uint8_t v = (uint8_t)((255u * white + count / 2u) / count);
         uint8_t *t = out + 4 * ((size_t)y * n + x);
         t[0] = t[1] = t[2] = v;
         t[3] = 255;
      }
}

static bool side_init(struct side *s)
{
   struct vkt_device_desc desc = {0};
   VkPhysicalDeviceFeatures features = {.samplerAnisotropy = VK_TRUE};
   desc.features = &features;
   if (vkt_device_create(&s->ctx, &desc, &s->dev) != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "%s: vkCreateDevice failed", s->ctx.props.deviceName);
      return false;
   }
   const VkDescriptorSetLayoutBinding b[2] = {
       {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
   };
   VkSamplerCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
                              .magFilter = VK_FILTER_LINEAR,
                              .minFilter = VK_FILTER_LINEAR,
                              .mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR,
                              .addressModeU = VK_SAMPLER_ADDRESS_MODE_REPEAT,
                              .addressModeV = VK_SAMPLER_ADDRESS_MODE_REPEAT,
                              .addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT,
                              .maxLod = VK_LOD_CLAMP_NONE};
   bool ok = ctu_program_create(&s->dev, "texture_grad_anisotropy", b, 2, 0, 3, &s->program) &&
             vkCreateSampler(s->dev.device, &sci, NULL, &s->trilinear) == VK_SUCCESS;
   sci.anisotropyEnable = VK_TRUE;
   sci.maxAnisotropy = 16.0f;
   ok = ok && vkCreateSampler(s->dev.device, &sci, NULL, &s->aniso) == VK_SUCCESS;
   if (!ok ||
       !vkt_image_create_2d(&s->dev, VK_FORMAT_R8G8B8A8_UNORM, SIZE, SIZE, LEVELS,
                            VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, &s->img))
      return false;
   static uint8_t data[SIZE * SIZE * 4 * 2];
   VkBufferImageCopy regions[LEVELS];
   size_t offset = 0;
   for (uint32_t l = 0; l < LEVELS; l++) {
      uint32_t n = SIZE >> l;
      stripes_level(l, data + offset);
      regions[l] = (VkBufferImageCopy){.bufferOffset = offset,
                                       .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l, 0, 1},
                                       .imageExtent = {n, n, 1}};
      offset += (size_t)n * n * 4;
   }
   return vkt_image_upload(&s->dev, s->img.image, data, offset, regions, LEVELS,
                           VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
}

static void side_finish(struct side *s)
{
   if (!s->dev.device)
      return;
   vkt_image_destroy(&s->dev, &s->img);
   vkDestroySampler(s->dev.device, s->aniso, NULL);
   vkDestroySampler(s->dev.device, s->trilinear, NULL);
   ctu_program_destroy(&s->dev, &s->program);
   vkt_device_destroy(&s->dev);
}

/* Runs the shader with `sampler`; out[SAMPLES * 4]. */
static bool sample_on(struct side *s, VkSampler sampler, float *out)
{
   struct vkt_device *dev = &s->dev;
   struct vkt_buffer result;
   if (vkt_buffer_create(dev, SAMPLES * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKT_MEMORY_HOST,
                         &result) != VK_SUCCESS)
      return false;
   VkDescriptorSet set = ctu_program_set(dev, &s->program);
   bool ok = set != VK_NULL_HANDLE;
   if (ok) {
      ctu_write_image(dev, set, 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, sampler, s->img.view,
                      VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
      ctu_write_buffer(dev, set, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, result.buffer, 0,
                       VK_WHOLE_SIZE);
      VkCommandBuffer cmd = vkt_cmd_begin(dev, s->ctx.universal_family);
      ctu_program_bind(cmd, &s->program, set);
      vkCmdDispatch(cmd, SAMPLES / 64, 1, 1);
      ctu_compute_to_host_barrier(cmd);
      ok = vkt_cmd_submit_wait(dev, s->ctx.universal_family, 0, cmd) == VK_SUCCESS;
   }
   if (ok)
      memcpy(out, result.map, SAMPLES * 16);
   vkt_buffer_destroy(dev, &result);
   return ok;
}

/* The stripes' contrast in rows [first, last): the mean distance of the
 * red channel from grey (0.5 for black and white, 0 for washed out). */
static double contrast(const float *texels, uint32_t first, uint32_t last)
{
   double sum = 0;
   for (uint32_t i = first * 64; i < last * 64; i++)
      sum += fabs(texels[4 * i] - 0.5);
   return sum / ((last - first) * 64.0);
}

/* Level 0 of the stripes filtered bilinearly at u (REPEAT), red channel. */
static double bilinear_stripes(double u)
{
   double x = u * SIZE - 0.5, i = floor(x), f = x - i;
   int32_t i0 = (int32_t)i, i1 = i0 + 1;
   double a = ((uint32_t)(i0 & (SIZE - 1)) / 4u) % 2u, b = ((uint32_t)(i1 & (SIZE - 1)) / 4u) % 2u;
   return a + f * (b - a);
}

TEST_CASE(anisotropic_textureGrad_keeps_the_stripes_trilinear_loses)
{
   struct vkt_context base;
   struct side ppu = {0}, lvp = {0};
   if (!vkt_context_pair_create(&base, &ppu.ctx, &lvp.ctx)) {
      if (base.instance)
         vkt_context_destroy(&base);
      return;
   }
   if (side_init(&ppu)) {
      static float got[SAMPLES * 4], trilinear[SAMPLES * 4];
      if (sample_on(&ppu, ppu.aniso, got) && sample_on(&ppu, ppu.trilinear, trilinear)) {
         double worst = 0;
         for (uint32_t i = 0; i < SAMPLES; i++) {
            uint32_t column = i % 64u;
            double u = (column + 0.5) / 64.0 * 0.37 + 0.05;
            double d = fabs(got[4 * i] - bilinear_stripes(u));
            worst = d > worst ? d : worst;
         }
         /* Rows 32..63: 9 to 16 texels along a pixel, where trilinear
          * filtering reads level 3 and up (grey). */
         double c_aniso = contrast(got, 32, 64), c_tri = contrast(trilinear, 32, 64);
         printf("  textureGrad, maxAnisotropy 16: largest difference from level-0 bilinear "
                "%.4f\n",
                worst);
         printf("  contrast of the stretched rows: anisotropic %.3f, trilinear %.3f\n", c_aniso,
                c_tri);
         CHECK_MSG(worst < 0.01, "anisotropic result %.4f from level-0 bilinear", worst);
         CHECK_MSG(c_aniso > 0.35 && c_tri < 0.1,
                   "anisotropic contrast %.3f (want > 0.35), trilinear %.3f (want < 0.1)", c_aniso,
                   c_tri);
      }
   }
   side_finish(&ppu);
   side_finish(&lvp);
   vkt_context_destroy(&base);
}

/* Renders the floor on one side with `sampler`: a GW x GH rectangle whose
 * uv runs 1 texel per pixel across and 16 along; red channel to out. */
static bool floor_on(struct side *s, VkSampler sampler, float *out)
{
   struct vkt_device *dev = &s->dev;
   struct gtarget t;
   if (!gtu_target_create(dev, VK_FORMAT_UNDEFINED, &t))
      return false;
   VkDescriptorSetLayoutBinding b = {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1,
                                     VK_SHADER_STAGE_FRAGMENT_BIT, NULL};
   VkDescriptorSetLayout set_layout = ctu_set_layout(dev, &b, 1);
   VkPipelineLayout layout = ctu_pipeline_layout(dev, &set_layout, 1, 0);
   struct gtu_pipeline_desc d = {.fs = "gfx_aniso.frag",
                                 .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                 .layout = layout,
                                 .pass = t.pass};
   VkPipeline pipeline = VK_NULL_HANDLE;
   VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1};
   VkDescriptorPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                     .maxSets = 1,
                                     .poolSizeCount = 1,
                                     .pPoolSizes = &size};
   VkDescriptorPool pool = VK_NULL_HANDLE;
   VkDescriptorSet set = VK_NULL_HANDLE;
   bool ok = gtu_pipeline(dev, &d, &pipeline) == VK_SUCCESS &&
             vkCreateDescriptorPool(dev->device, &pci, NULL, &pool) == VK_SUCCESS;
   VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                     .descriptorPool = pool,
                                     .descriptorSetCount = 1,
                                     .pSetLayouts = &set_layout};
   ok = ok && vkAllocateDescriptorSets(dev->device, &ai, &set) == VK_SUCCESS;
   /* uv in the colour attribute: u = x / SIZE (a texel a pixel), v =
    * 16 y / SIZE (16 texels a pixel), offset by a quarter texel. */
   const float uv0[4] = {0.1f, 0.0f, 0, 1}, uv1[4] = {0.1f + (float)GW / SIZE, 0.0f, 0, 1},
               uv2[4] = {0.1f, 16.0f * GH / SIZE, 0, 1},
               uv3[4] = {0.1f + (float)GW / SIZE, 16.0f * GH / SIZE, 0, 1};
   struct gvertex v[6] = {gvtx(0, 0, 0.5f, uv0),  gvtx(GW, 0, 0.5f, uv1),  gvtx(0, GH, 0.5f, uv2),
                          gvtx(GW, 0, 0.5f, uv1), gvtx(GW, GH, 0.5f, uv3), gvtx(0, GH, 0.5f, uv2)};
   struct vkt_buffer vb = {0};
   ok = ok && gtu_data_buffer(dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb);
   if (ok) {
      ctu_write_image(dev, set, 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, sampler, s->img.view,
                      VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
      const float clear[4] = {0, 0, 0, 0};
      VkCommandBuffer cmd = gtu_begin(dev, &t, clear, 1.0f, 0);
      gtu_bind_vertex_buffer(cmd, &vb);
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
      vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0, NULL);
      vkCmdDraw(cmd, 6, 1, 0, 0);
      ok = gtu_end_read(dev, &t, cmd);
   }
   if (ok) {
      const uint32_t *px = t.readback.map;
      for (uint32_t i = 0; i < GW * GH; i++)
         out[i] = (float)(px[i] & 0xffu) / 255.0f;
   }
   vkt_buffer_destroy(dev, &vb);
   if (pool)
      vkDestroyDescriptorPool(dev->device, pool, NULL);
   vkDestroyPipeline(dev->device, pipeline, NULL);
   vkDestroyPipelineLayout(dev->device, layout, NULL);
   vkDestroyDescriptorSetLayout(dev->device, set_layout, NULL);
   gtu_target_destroy(dev, &t);
   return ok;
}

/* The floor's contrast: the mean distance of its pixels from grey. */
static double floor_contrast(const float *px)
{
   double sum = 0;
   for (uint32_t i = 0; i < GW * GH; i++)
      sum += fabs(px[i] - 0.5);
   return sum / (GW * GH);
}

TEST_CASE(anisotropic_floor_matches_lavapipe_and_is_sharper_than_trilinear)
{
   struct vkt_context base;
   struct side ppu = {0}, lvp = {0};
   if (!vkt_context_pair_create(&base, &ppu.ctx, &lvp.ctx)) {
      if (base.instance)
         vkt_context_destroy(&base);
      return;
   }
   if (side_init(&ppu) && side_init(&lvp)) {
      static float got[GW * GH], want[GW * GH], trilinear[GW * GH];
      if (floor_on(&ppu, ppu.aniso, got) && floor_on(&lvp, lvp.aniso, want) &&
          floor_on(&ppu, ppu.trilinear, trilinear)) {
         double worst = 0, sum = 0;
         for (uint32_t i = 0; i < GW * GH; i++) {
            double d = fabs(got[i] - want[i]);
            sum += d;
            worst = d > worst ? d : worst;
         }
         double mean = sum / (GW * GH);
         double c_aniso = floor_contrast(got), c_lvp = floor_contrast(want),
                c_tri = floor_contrast(trilinear);
         printf("  floor, vkppu vs lavapipe (maxAnisotropy 16): mean |difference| %.4f, "
                "largest %.4f\n",
                mean, worst);
         printf("  contrast: vkppu anisotropic %.3f, lavapipe anisotropic %.3f, vkppu trilinear "
                "%.3f\n",
                c_aniso, c_lvp, c_tri);
         CHECK_MSG(mean < 0.03, "mean difference from lavapipe %.4f", mean);
         CHECK_MSG(worst < 0.25, "largest difference from lavapipe %.4f", worst);
         CHECK_MSG(c_aniso > 0.35 && c_tri < 0.1,
                   "anisotropic contrast %.3f (want > 0.35), trilinear %.3f (want < 0.1)", c_aniso,
                   c_tri);
      }
   }
   side_finish(&ppu);
   side_finish(&lvp);
   vkt_context_destroy(&base);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
