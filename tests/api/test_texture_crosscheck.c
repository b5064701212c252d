/* Block-compressed texture decoding, cross-checked: random blocks of every
 * BC format (modes the spec reserves excepted) are fetched texel by texel
 * on vkppu and on lavapipe, in one instance that sees both drivers
 * (VK_ICD_FILENAMES lists both manifests), and the decoded values are
 * compared. Lavapipe's decoders are an independent implementation of the
 * same specification (Khronos Data Format Specification, "BC1 - BC7"), the
 * reference decode here.
 *
 * How close they must be, in steps of the format's encoding (1/255 for
 * UNORM and sRGB, compared after encoding back to sRGB; 1/127 for SNORM):
 * BC7 and BC6H are defined to the bit, so they agree to float rounding.
 * BC1-BC5 interpolate endpoints in exact arithmetic (thirds, sevenths), and
 * the specification leaves the precision of the result to the
 * implementation: vkppu computes them exactly from the 5:6:5 or 8-bit
 * endpoints, lavapipe in 8-bit integer arithmetic; the two land up to 2
 * steps apart (measured: 1.4-1.96), while a wrong index, mode or endpoint
 * moves a value by many steps. BC6H agrees to the bit, BC7 to 2e-5 steps
 * (lavapipe's 1/255 is not correctly rounded). */
#include <math.h>
#include <string.h>

#include "compute_test_util.h"
#include "image_test_util.h"

#define SIZE 16u /* texels a side: 4 x 4 blocks */
#define TEXELS (SIZE * SIZE)
#define BLOCKS ((SIZE / 4) * (SIZE / 4))

enum encoding { ENC_UNORM, ENC_SRGB, ENC_SNORM, ENC_FLOAT };

struct bc_format {
   VkFormat format;
   const char *name;
   uint32_t block_bytes;
   enum encoding encoding;
   double steps; /* allowed difference: encoding steps, or relative for floats */
};

static const struct bc_format formats[] = {
    {VK_FORMAT_BC1_RGB_UNORM_BLOCK, "BC1_RGB_UNORM", 8, ENC_UNORM, 2.0},
    {VK_FORMAT_BC1_RGB_SRGB_BLOCK, "BC1_RGB_SRGB", 8, ENC_SRGB, 2.0},
    {VK_FORMAT_BC1_RGBA_UNORM_BLOCK, "BC1_RGBA_UNORM", 8, ENC_UNORM, 2.0},
    {VK_FORMAT_BC1_RGBA_SRGB_BLOCK, "BC1_RGBA_SRGB", 8, ENC_SRGB, 2.0},
    {VK_FORMAT_BC2_UNORM_BLOCK, "BC2_UNORM", 16, ENC_UNORM, 2.0},
    {VK_FORMAT_BC2_SRGB_BLOCK, "BC2_SRGB", 16, ENC_SRGB, 2.0},
    {VK_FORMAT_BC3_UNORM_BLOCK, "BC3_UNORM", 16, ENC_UNORM, 2.0},
    {VK_FORMAT_BC3_SRGB_BLOCK, "BC3_SRGB", 16, ENC_SRGB, 2.0},
    {VK_FORMAT_BC4_UNORM_BLOCK, "BC4_UNORM", 8, ENC_UNORM, 2.0},
    {VK_FORMAT_BC4_SNORM_BLOCK, "BC4_SNORM", 8, ENC_SNORM, 2.0},
    {VK_FORMAT_BC5_UNORM_BLOCK, "BC5_UNORM", 16, ENC_UNORM, 2.0},
    {VK_FORMAT_BC5_SNORM_BLOCK, "BC5_SNORM", 16, ENC_SNORM, 2.0},
    {VK_FORMAT_BC6H_UFLOAT_BLOCK, "BC6H_UFLOAT", 16, ENC_FLOAT, 1e-6},
    {VK_FORMAT_BC6H_SFLOAT_BLOCK, "BC6H_SFLOAT", 16, ENC_FLOAT, 1e-6},
    {VK_FORMAT_BC7_UNORM_BLOCK, "BC7_UNORM", 16, ENC_UNORM, 1e-4},
    {VK_FORMAT_BC7_SRGB_BLOCK, "BC7_SRGB", 16, ENC_SRGB, 1e-3},
};
#define FORMATS (sizeof(formats) / sizeof(formats[0]))

/* A decoded component back in the steps of its encoding (alpha of an sRGB
 * format is linear). */
static double encoded(enum encoding e, uint32_t component, float v)
{
   switch (e) {
   case ENC_SNORM:
      return v * 127.0;
   case ENC_SRGB:
      if (component < 3) {
         double s = v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1.0 / 2.4) - 0.055;
         return s * 255.0;
      }
      return v * 255.0;
   default:
      return v * 255.0;
   }
}

/* How far apart two decodes are: steps of the encoding, or for floats the
 * difference relative to the larger magnitude (NaN equals NaN, +0 -0). */
static double difference(const struct bc_format *f, uint32_t component, float a, float b)
{
   if (isnan(a) && isnan(b))
      return 0;
   if (f->encoding == ENC_FLOAT) {
      double m = fmax(fabs(a), fabs(b));
      return m == 0 ? 0 : fabs((double)a - (double)b) / m;
   }
   return fabs(encoded(f->encoding, component, a) - encoded(f->encoding, component, b));
}

/* Random blocks, with the mode bits the specification reserves moved to a
 * defined mode: BC7 needs a set bit in the first byte, BC6H's 5-bit modes
 * 10011, 10111, 11011 and 11111 do not exist (bit 4 cleared gives 00011,
 * 00111, 01011, 01111, which do). */
static void random_blocks(const struct bc_format *f, uint8_t *data, uint64_t seed)
{
   vkt_fill_random(data, BLOCKS * f->block_bytes, seed);
   for (uint32_t b = 0; b < BLOCKS; b++) {
      uint8_t *block = data + b * f->block_bytes;
      if (f->format == VK_FORMAT_BC7_UNORM_BLOCK || f->format == VK_FORMAT_BC7_SRGB_BLOCK) {
         if (block[0] == 0)
            block[0] = 1;
      } else if (f->format == VK_FORMAT_BC6H_UFLOAT_BLOCK ||
                 f->format == VK_FORMAT_BC6H_SFLOAT_BLOCK) {
         uint8_t mode = block[0] & 0x1f;
         if ((mode & 3) >= 2 && (mode == 0x13 || mode == 0x17 || mode == 0x1b || mode == 0x1f))
            block[0] ^= 0x10;
      }
   }
}

/* One implementation: its device and the pipeline every format reuses. */
struct side {
   struct vkt_context ctx;
   struct vkt_device dev;
   VkDescriptorSetLayout set_layout;
   VkPipelineLayout layout;
   VkShaderModule module;
   VkPipeline pipeline;
   VkSampler sampler;
};

static bool side_init(struct side *s)
{
   struct vkt_device_desc desc = {0};
   if (vkt_device_create(&s->ctx, &desc, &s->dev) != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "%s: vkCreateDevice failed", s->ctx.props.deviceName);
      return false;
   }
   const VkDescriptorSetLayoutBinding b[2] = {
       {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
   };
   s->set_layout = ctu_set_layout(&s->dev, b, 2);
   s->layout = ctu_pipeline_layout(&s->dev, &s->set_layout, 1, 0);
   s->module = ctu_shader_module(&s->dev, "texel_fetch_16x16");
   VkSamplerCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
   return ctu_compute_pipeline(&s->dev, VK_NULL_HANDLE, s->module, s->layout, NULL, &s->pipeline) ==
              VK_SUCCESS &&
          vkCreateSampler(s->dev.device, &sci, NULL, &s->sampler) == VK_SUCCESS;
}

static void side_finish(struct side *s)
{
   if (!s->dev.device)
      return;
   vkDestroySampler(s->dev.device, s->sampler, NULL);
   vkDestroyPipeline(s->dev.device, s->pipeline, NULL);
   vkDestroyShaderModule(s->dev.device, s->module, NULL);
   vkDestroyPipelineLayout(s->dev.device, s->layout, NULL);
   vkDestroyDescriptorSetLayout(s->dev.device, s->set_layout, NULL);
   vkt_device_destroy(&s->dev);
}

/* Uploads `data` as a 16x16 image of format f and fetches every texel into
 * out[TEXELS * 4]. */
static bool decode_on(struct side *s, const struct bc_format *f, const uint8_t *data, float *out)
{
   struct vkt_device *dev = &s->dev;
   struct vkt_image img;
   struct vkt_buffer result;
   if (!vkt_image_create_2d(dev, f->format, SIZE, SIZE, 1,
                            VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, &img))
      return false;
   const VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                                     .imageExtent = {SIZE, SIZE, 1}};
   bool ok = vkt_image_upload(dev, img.image, data, BLOCKS * f->block_bytes, &region, 1,
                              VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL) &&
             vkt_buffer_create(dev, TEXELS * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                               VKT_MEMORY_HOST, &result) == VK_SUCCESS;
   VkDescriptorPool pool = VK_NULL_HANDLE;
   if (ok) {
      VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1},
                                       {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}};
      VkDescriptorPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                        .maxSets = 1,
                                        .poolSizeCount = 2,
                                        .pPoolSizes = sizes};
      VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                        .descriptorSetCount = 1,
                                        .pSetLayouts = &s->set_layout};
      VkDescriptorSet set = VK_NULL_HANDLE;
      ok = vkCreateDescriptorPool(dev->device, &pci, NULL, &pool) == VK_SUCCESS;
      ai.descriptorPool = pool;
      ok = ok && vkAllocateDescriptorSets(dev->device, &ai, &set) == VK_SUCCESS;
      if (ok) {
         VkDescriptorImageInfo ii = {s->sampler, img.view,
                                     VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
         VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                   .dstSet = set,
                                   .dstBinding = 0,
                                   .descriptorCount = 1,
                                   .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                   .pImageInfo = &ii};
         vkUpdateDescriptorSets(dev->device, 1, &w, 0, NULL);
         ctu_write_buffer(dev, set, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, result.buffer, 0,
                          VK_WHOLE_SIZE);
         VkCommandBuffer cmd = vkt_cmd_begin(dev, s->ctx.universal_family);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, s->pipeline);
         vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, s->layout, 0, 1, &set, 0,
                                 NULL);
         vkCmdDispatch(cmd, TEXELS / 64, 1, 1);
         ctu_compute_to_host_barrier(cmd);
         ok = vkt_cmd_submit_wait(dev, s->ctx.universal_family, 0, cmd) == VK_SUCCESS;
      }
   }
   if (ok)
      memcpy(out, result.map, TEXELS * 16);
   if (pool)
      vkDestroyDescriptorPool(dev->device, pool, NULL);
   vkt_buffer_destroy(dev, &result);
   vkt_image_destroy(dev, &img);
   return ok;
}

TEST_CASE(bc_formats_decode_like_lavapipe)
{
   struct vkt_context base;
   struct side ppu = {0}, lvp = {0};
   if (!vkt_context_pair_create(&base, &ppu.ctx, &lvp.ctx)) {
      if (base.instance)
         vkt_context_destroy(&base);
      return;
   }
   if (side_init(&ppu) && side_init(&lvp)) {
      static float got[TEXELS * 4], want[TEXELS * 4];
      uint8_t data[BLOCKS * 16];
      for (size_t i = 0; i < FORMATS; i++) {
         const struct bc_format *f = &formats[i];
         VkFormatProperties pp, lp;
         vkGetPhysicalDeviceFormatProperties(ppu.ctx.physical_device, f->format, &pp);
         vkGetPhysicalDeviceFormatProperties(lvp.ctx.physical_device, f->format, &lp);
         if (!(pp.optimalTilingFeatures & lp.optimalTilingFeatures &
               VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT)) {
            vkt_skip("%s is not sampled by both", f->name);
            continue;
         }
         double worst = 0;
         uint32_t bad = 0;
         for (uint64_t round = 0; round < 8; round++) {
            random_blocks(f, data, 1000 * i + round);
            if (!decode_on(&ppu, f, data, got) || !decode_on(&lvp, f, data, want))
               break;
            for (uint32_t c = 0; c < TEXELS * 4; c++) {
               double d = difference(f, c % 4, got[c], want[c]);
               worst = d > worst ? d : worst;
               if (d > f->steps && bad++ < 3)
                  test_fail(__FILE__, __LINE__,
                            "%s, seed %llu, texel (%u, %u) component %u: vkppu %.9g, "
                            "lavapipe %.9g",
                            f->name, (unsigned long long)(1000 * i + round), c / 4 % SIZE,
                            c / 4 / SIZE, c % 4, got[c], want[c]);
            }
         }
         printf("  %-14s %u texels x 8 seeds: largest difference %.3g %s (allowed %.3g)\n", f->name,
                TEXELS, worst, f->encoding == ENC_FLOAT ? "relative" : "steps", f->steps);
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
