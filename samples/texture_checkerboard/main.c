/* texture_checkerboard: a texture-heavy compute image. A camera looks over
 * an endless plane covered with a mip-mapped checkerboard; every pixel
 * samples the texture with textureGrad (trilinear filtering, or bilinear in
 * the nearest level with --bilinear) into a storage image, which is copied
 * to a buffer, compared with a CPU reference (plane_reference.c) and written
 * as a PNG. The mip chain is made on the GPU with vkCmdBlitImage.
 *
 *   texture_checkerboard [--output FILE] [--width N] [--height N]
 *                        [--samples N] [--texture-size N] [--bilinear]
 *                        [--repeat N] [--validate]
 *
 * --samples N takes N x N samples a pixel; --repeat N dispatches N times and
 * prints samples/s and filtered texels/s (4 a bilinear sample, 8 a
 * trilinear one). Exits 0 when the image matches the reference, the PNG was
 * written and (with --validate) no validation error was reported; 77 when
 * the device cannot run the sample (a missing format feature). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checker_texture.h"
#include "plane_reference.h"
#include "png_write.h"

#define TAG "texture_checkerboard"
#define WORKGROUP 8u /* local_size_x and _y of shaders/plane.comp */
#define CHECK_VK(call) VK_SAMPLE_CHECK(TAG, call)
/* What follows a barrier on the target: the next dispatch or the copy. */
#define NEXT_STAGES (VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT)

struct options {
   const char *output;
   uint32_t width, height, samples, texture_size, repeat;
   bool bilinear, validate;
};

static bool parse_options(int argc, char **argv, struct options *o)
{
   *o = (struct options){"texture_checkerboard.png", 320, 240, 2, 256, 0, false, false};
   for (int i = 1; i < argc; i++) {
      const char *a = argv[i];
      const char *v = i + 1 < argc ? argv[i + 1] : NULL;
      bool ok = true;
      if (!strcmp(a, "--validate")) {
         o->validate = true;
         continue;
      } else if (!strcmp(a, "--bilinear")) {
         o->bilinear = true;
         continue;
      } else if (!strcmp(a, "--output") && v) {
         o->output = v;
      } else if (!strcmp(a, "--width") && v) {
         ok = vk_sample_parse_u32(v, 1, 4096, &o->width);
      } else if (!strcmp(a, "--height") && v) {
         ok = vk_sample_parse_u32(v, 1, 4096, &o->height);
      } else if (!strcmp(a, "--samples") && v) {
         ok = vk_sample_parse_u32(v, 1, 8, &o->samples);
      } else if (!strcmp(a, "--texture-size") && v) {
         ok = vk_sample_parse_u32(v, 8, 4096, &o->texture_size) &&
              (o->texture_size & (o->texture_size - 1)) == 0;
      } else if (!strcmp(a, "--repeat") && v) {
         ok = vk_sample_parse_u32(v, 1, 10000, &o->repeat);
      } else {
         ok = false;
      }
      if (!ok) {
         fprintf(stderr,
                 "usage: %s [--output FILE] [--width 1..4096] [--height 1..4096] "
                 "[--samples 1..8] [--texture-size 8..4096, a power of two] [--bilinear] "
                 "[--repeat 1..10000] [--validate]\n",
                 argv[0]);
         return false;
      }
      i++;
   }
   return true;
}

struct target {
   VkImage image;
   VkDeviceMemory memory;
   VkImageView view;
};

static VkResult target_create(struct vk_sample_device *d, uint32_t width, uint32_t height,
                              struct target *t)
{
   VkImageCreateInfo ici = {
       .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
       .imageType = VK_IMAGE_TYPE_2D,
       .format = VK_FORMAT_R8G8B8A8_UNORM,
       .extent = {width, height, 1},
       .mipLevels = 1,
       .arrayLayers = 1,
       .samples = VK_SAMPLE_COUNT_1_BIT,
       .tiling = VK_IMAGE_TILING_OPTIMAL,
       .usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
   };
   CHECK_VK(vkCreateImage(d->device, &ici, NULL, &t->image));
   VkMemoryRequirements req;
   vkGetImageMemoryRequirements(d->device, t->image, &req);
   VkMemoryAllocateInfo mai = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
       .allocationSize = req.size,
       .memoryTypeIndex = vk_sample_memory_type(&d->memory, req.memoryTypeBits, 0),
   };
   CHECK_VK(vkAllocateMemory(d->device, &mai, NULL, &t->memory));
   CHECK_VK(vkBindImageMemory(d->device, t->image, t->memory, 0));
   VkImageViewCreateInfo vci = {
       .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
       .image = t->image,
       .viewType = VK_IMAGE_VIEW_TYPE_2D,
       .format = VK_FORMAT_R8G8B8A8_UNORM,
       .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1},
   };
   CHECK_VK(vkCreateImageView(d->device, &vci, NULL, &t->view));
   return VK_SUCCESS;
}

static void target_destroy(struct vk_sample_device *d, struct target *t)
{
   if (t->view)
      vkDestroyImageView(d->device, t->view, NULL);
   if (t->image)
      vkDestroyImage(d->device, t->image, NULL);
   if (t->memory)
      vkFreeMemory(d->device, t->memory, NULL);
}

/* Dispatches `repeat` times into the target and copies it to readback;
 * *seconds is the host time of the submission. */
static VkResult render(struct vk_sample_device *d, const struct vk_sample_compute_pipeline *pipe,
                       const struct plane_params *params, const struct target *t,
                       const struct vk_sample_buffer *readback, uint32_t repeat, double *seconds)
{
   VkCommandBuffer cmd;
   VkResult r = vk_sample_commands_begin(d, &cmd);
   if (r != VK_SUCCESS)
      return r;
   vk_sample_image_barrier(cmd, t->image, 0, 1, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL,
                           0, VK_ACCESS_SHADER_WRITE_BIT, NEXT_STAGES);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe->pipeline);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe->layout, 0, 1, &pipe->set, 0,
                           NULL);
   vkCmdPushConstants(cmd, pipe->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(*params), params);
   for (uint32_t i = 0; i < repeat; i++) {
      if (i) /* the next dispatch writes the same texels */
         vk_sample_image_barrier(cmd, t->image, 0, 1, VK_IMAGE_LAYOUT_GENERAL,
                                 VK_IMAGE_LAYOUT_GENERAL, VK_ACCESS_SHADER_WRITE_BIT,
                                 VK_ACCESS_SHADER_WRITE_BIT, NEXT_STAGES);
      vkCmdDispatch(cmd, (params->width + WORKGROUP - 1) / WORKGROUP,
                    (params->height + WORKGROUP - 1) / WORKGROUP, 1);
   }
   vk_sample_image_barrier(cmd, t->image, 0, 1, VK_IMAGE_LAYOUT_GENERAL,
                           VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_ACCESS_SHADER_WRITE_BIT,
                           VK_ACCESS_TRANSFER_READ_BIT, NEXT_STAGES);
   VkBufferImageCopy region = {
       .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
       .imageExtent = {params->width, params->height, 1},
   };
   vkCmdCopyImageToBuffer(cmd, t->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback->buffer, 1,
                          &region);
   VkMemoryBarrier mb = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
       .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
       .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
   };
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb,
                        0, NULL, 0, NULL);
   return vk_sample_commands_submit(d, cmd, seconds);
}

static VkResult pipeline_create(struct vk_sample_device *d, const struct checker_image *tex,
                                const struct target *t, struct vk_sample_compute_pipeline *pipe)
{
   const VkDescriptorType types[2] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                      VK_DESCRIPTOR_TYPE_STORAGE_IMAGE};
   VkResult r = vk_sample_compute_pipeline_create(d->device, TAG, PLANE_SPV, types, 2,
                                                  sizeof(struct plane_params), pipe);
   if (r != VK_SUCCESS)
      return r;
   VkDescriptorImageInfo sampled = {tex->sampler, tex->view,
                                    VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
   VkDescriptorImageInfo storage = {VK_NULL_HANDLE, t->view, VK_IMAGE_LAYOUT_GENERAL};
   VkWriteDescriptorSet writes[2] = {
       {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstSet = pipe->set,
        .dstBinding = 0,
        .descriptorCount = 1,
        .descriptorType = types[0],
        .pImageInfo = &sampled},
       {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstSet = pipe->set,
        .dstBinding = 1,
        .descriptorCount = 1,
        .descriptorType = types[1],
        .pImageInfo = &storage},
   };
   vkUpdateDescriptorSets(d->device, 2, writes, 0, NULL);
   return VK_SUCCESS;
}

/* Compares with the reference; true when close enough. Filtering precision
 * is left to implementations (the spec bounds it loosely), so the bar is
 * statistical: channels more than 8/255 off, a sign of a wrong texel or
 * level rather than rounding, must stay rare, and the mean small. */
static bool compare(const uint8_t *got, const uint8_t *want, const struct plane_params *p)
{
   size_t n = (size_t)p->width * p->height * 4, far = 0;
   double total = 0;
   int worst = 0;
   for (size_t i = 0; i < n; i++) {
      int diff = abs((int)got[i] - (int)want[i]);
      total += diff;
      far += diff > 8;
      worst = diff > worst ? diff : worst;
   }
   double mean = total / (double)n, far_fraction = (double)far / (double)n;
   printf("%s: against the CPU reference: mean |difference| %.3f/255, largest %d/255, %.3f%% of "
          "channels more than 8/255 off\n",
          TAG, mean, worst, 100.0 * far_fraction);
   return mean < 0.5 && far_fraction < 0.002;
}

int main(int argc, char **argv)
{
   struct options o;
   if (!parse_options(argc, argv, &o))
      return 2;
   struct plane_params params = plane_default_params(o.width, o.height, o.samples);
   struct checker_levels levels;
   size_t bytes = (size_t)o.width * o.height * 4;
   uint8_t *want = malloc(bytes);
   if (!want || !checker_levels_create(o.texture_size, &levels)) {
      fprintf(stderr, "%s: out of memory\n", TAG);
      return 1;
   }
   plane_reference_render(&params, &levels, !o.bilinear, want);

   int status = 1;
   struct vk_sample_device d;
   struct checker_image tex = {0};
   struct target target = {0};
   struct vk_sample_buffer readback = {0};
   struct vk_sample_compute_pipeline pipe = {0};
   VkResult r = vk_sample_device_create(&d, TAG, o.validate);
   if (r == VK_SUCCESS)
      r = checker_image_create(&d, &levels, !o.bilinear, &tex);
   if (r == VK_ERROR_FORMAT_NOT_SUPPORTED)
      status = 77;
   if (r == VK_SUCCESS)
      r = target_create(&d, o.width, o.height, &target);
   if (r == VK_SUCCESS)
      r = vk_sample_buffer_create(&d, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &readback);
   if (r == VK_SUCCESS)
      r = pipeline_create(&d, &tex, &target, &pipe);
   double seconds = 0;
   if (r == VK_SUCCESS)
      r = render(&d, &pipe, &params, &target, &readback, 1, &seconds);
   if (r == VK_SUCCESS) {
      printf("%s: %s: %ux%u, %u sample(s) a pixel, %s filtering, %u^2 texture with %u levels: "
             "%.3f s\n",
             TAG, d.device_name, o.width, o.height, o.samples * o.samples,
             o.bilinear ? "bilinear" : "trilinear", o.texture_size, levels.levels, seconds);
      bool same = compare(readback.map, want, &params);
      bool written = png_rgba_write(o.output, readback.map, o.width, o.height);
      if (written)
         printf("%s: wrote %s\n", TAG, o.output);
      status = same && written ? 0 : 1;
   }
   if (r == VK_SUCCESS && status == 0 && o.repeat) {
      r = render(&d, &pipe, &params, &target, &readback, o.repeat, &seconds);
      if (r == VK_SUCCESS) {
         double samples = (double)o.width * o.height * o.samples * o.samples * o.repeat;
         printf("%s: %u dispatches in %.3f s: %.2f M samples/s, %.2f M filtered texels/s (%u a "
                "sample)\n",
                TAG, o.repeat, seconds, samples / seconds * 1e-6,
                samples * (o.bilinear ? 4 : 8) / seconds * 1e-6, o.bilinear ? 4 : 8);
      } else {
         status = 1;
      }
   }
   if (d.device) {
      vk_sample_compute_pipeline_destroy(d.device, &pipe);
      vk_sample_buffer_destroy(&d, &readback);
      target_destroy(&d, &target);
      checker_image_destroy(&d, &tex);
   }
   if (d.inst.error_messages) {
      fprintf(stderr, "%s: %u error messages\n", TAG, d.inst.error_messages);
      status = 1;
   }
   vk_sample_device_destroy(&d);
   checker_levels_destroy(&levels);
   free(want);
   return status;
}
