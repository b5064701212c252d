#include "checker_texture.h"

#include <stdlib.h>
#include <string.h>

#define CHECK_VK(call) VK_SAMPLE_CHECK(d->tag, call)

bool checker_levels_create(uint32_t size, struct checker_levels *out)
{
   memset(out, 0, sizeof(*out));
   out->size = size;
   for (uint32_t s = size; s; s >>= 1)
      out->levels++;
   for (uint32_t l = 0; l < out->levels; l++) {
      uint32_t s = size >> l;
      out->texels[l] = malloc((size_t)s * s * 4);
      if (!out->texels[l]) {
         checker_levels_destroy(out);
         return false;
      }
   }
   /* 8 x 8 checks of two colours, each check outlined by a dark line one
    * texel wide, so that minification visibly blends them. */
   static const uint8_t light[4] = {235, 225, 200, 255}, dark[4] = {40, 70, 130, 255},
                        line[4] = {120, 20, 20, 255};
   uint32_t check = size / 8;
   for (uint32_t y = 0; y < size; y++) {
      for (uint32_t x = 0; x < size; x++) {
         const uint8_t *c = ((x / check) ^ (y / check)) & 1 ? dark : light;
         if (x % check == 0 || y % check == 0)
            c = line;
         memcpy(out->texels[0] + ((size_t)y * size + x) * 4, c, 4);
      }
   }
   for (uint32_t l = 1; l < out->levels; l++) {
      uint32_t s = size >> l, ps = s * 2;
      const uint8_t *src = out->texels[l - 1];
      for (uint32_t y = 0; y < s; y++) {
         for (uint32_t x = 0; x < s; x++) {
            for (uint32_t c = 0; c < 4; c++) {
               uint32_t sum = src[((2 * y) * ps + 2 * x) * 4 + c] +
                              src[((2 * y) * ps + 2 * x + 1) * 4 + c] +
                              src[((2 * y + 1) * ps + 2 * x) * 4 + c] +
                              src[((2 * y + 1) * ps + 2 * x + 1) * 4 + c];
               out->texels[l][((size_t)y * s + x) * 4 + c] = (uint8_t)((sum + 2) / 4);
            }
         }
      }
   }
   return true;
}

void checker_levels_destroy(struct checker_levels *levels)
{
   for (uint32_t l = 0; l < CHECKER_MAX_LEVELS; l++)
      free(levels->texels[l]);
   memset(levels, 0, sizeof(*levels));
}

/* Level 0 from a staging buffer, then each level blitted from the one
 * above it; every level ends in SHADER_READ_ONLY_OPTIMAL. */
static void record_upload(VkCommandBuffer cmd, VkBuffer staging, VkImage image, uint32_t size,
                          uint32_t levels)
{
   vk_sample_image_barrier(cmd, image, 0, levels, VK_IMAGE_LAYOUT_UNDEFINED,
                           VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT,
                           VK_PIPELINE_STAGE_TRANSFER_BIT);
   VkBufferImageCopy region = {
       .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
       .imageExtent = {size, size, 1},
   };
   vkCmdCopyBufferToImage(cmd, staging, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
   for (uint32_t l = 1; l < levels; l++) {
      vk_sample_image_barrier(cmd, image, l - 1, 1, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                              VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_ACCESS_TRANSFER_WRITE_BIT,
                              VK_ACCESS_TRANSFER_READ_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
      int32_t src = (int32_t)(size >> (l - 1)), dst = (int32_t)(size >> l);
      VkImageBlit blit = {
          .srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l - 1, 0, 1},
          .srcOffsets = {{0, 0, 0}, {src, src, 1}},
          .dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l, 0, 1},
          .dstOffsets = {{0, 0, 0}, {dst, dst, 1}},
      };
      vkCmdBlitImage(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, image,
                     VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit, VK_FILTER_LINEAR);
      vk_sample_image_barrier(cmd, image, l - 1, 1, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                              VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_ACCESS_TRANSFER_READ_BIT,
                              VK_ACCESS_SHADER_READ_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
   }
   vk_sample_image_barrier(cmd, image, levels - 1, 1, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                           VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_ACCESS_TRANSFER_WRITE_BIT,
                           VK_ACCESS_SHADER_READ_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
}

VkResult checker_image_create(struct vk_sample_device *d, const struct checker_levels *levels,
                              bool trilinear, struct checker_image *out)
{
   memset(out, 0, sizeof(*out));
   const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
   VkFormatProperties fp;
   vkGetPhysicalDeviceFormatProperties(d->physical_device, format, &fp);
   VkFormatFeatureFlags need = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT |
                               VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT |
                               VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT;
   if ((fp.optimalTilingFeatures & need) != need) {
      fprintf(stderr, "%s: %s cannot sample, filter and blit R8G8B8A8_UNORM images\n", d->tag,
              d->device_name);
      return VK_ERROR_FORMAT_NOT_SUPPORTED;
   }
   uint32_t size = levels->size;
   VkImageCreateInfo ici = {
       .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
       .imageType = VK_IMAGE_TYPE_2D,
       .format = format,
       .extent = {size, size, 1},
       .mipLevels = levels->levels,
       .arrayLayers = 1,
       .samples = VK_SAMPLE_COUNT_1_BIT,
       .tiling = VK_IMAGE_TILING_OPTIMAL,
       .usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                VK_IMAGE_USAGE_SAMPLED_BIT,
       .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
   };
   CHECK_VK(vkCreateImage(d->device, &ici, NULL, &out->image));
   VkMemoryRequirements req;
   vkGetImageMemoryRequirements(d->device, out->image, &req);
   VkMemoryAllocateInfo mai = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
       .allocationSize = req.size,
       .memoryTypeIndex = vk_sample_memory_type(&d->memory, req.memoryTypeBits,
                                                VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT),
   };
   if (mai.memoryTypeIndex == UINT32_MAX)
      mai.memoryTypeIndex = vk_sample_memory_type(&d->memory, req.memoryTypeBits, 0);
   CHECK_VK(vkAllocateMemory(d->device, &mai, NULL, &out->memory));
   CHECK_VK(vkBindImageMemory(d->device, out->image, out->memory, 0));

   struct vk_sample_buffer staging;
   VkResult r = vk_sample_buffer_create(d, (VkDeviceSize)size * size * 4,
                                        VK_BUFFER_USAGE_TRANSFER_SRC_BIT, &staging);
   VkCommandBuffer cmd = VK_NULL_HANDLE;
   if (r == VK_SUCCESS) {
      memcpy(staging.map, levels->texels[0], (size_t)size * size * 4);
      r = vk_sample_commands_begin(d, &cmd);
   }
   if (r == VK_SUCCESS) {
      record_upload(cmd, staging.buffer, out->image, size, levels->levels);
      r = vk_sample_commands_submit(d, cmd, NULL);
   }
   vk_sample_buffer_destroy(d, &staging);
   if (r != VK_SUCCESS)
      return r;

   VkImageViewCreateInfo vci = {
       .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
       .image = out->image,
       .viewType = VK_IMAGE_VIEW_TYPE_2D,
       .format = format,
       .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, VK_REMAINING_MIP_LEVELS, 0, 1},
   };
   CHECK_VK(vkCreateImageView(d->device, &vci, NULL, &out->view));
   VkSamplerCreateInfo sci = {
       .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
       .magFilter = VK_FILTER_LINEAR,
       .minFilter = VK_FILTER_LINEAR,
       .mipmapMode = trilinear ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST,
       .addressModeU = VK_SAMPLER_ADDRESS_MODE_REPEAT,
       .addressModeV = VK_SAMPLER_ADDRESS_MODE_REPEAT,
       .addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT,
       .maxLod = VK_LOD_CLAMP_NONE,
   };
   CHECK_VK(vkCreateSampler(d->device, &sci, NULL, &out->sampler));
   return VK_SUCCESS;
}

void checker_image_destroy(struct vk_sample_device *d, struct checker_image *img)
{
   if (img->sampler)
      vkDestroySampler(d->device, img->sampler, NULL);
   if (img->view)
      vkDestroyImageView(d->device, img->view, NULL);
   if (img->image)
      vkDestroyImage(d->device, img->image, NULL);
   if (img->memory)
      vkFreeMemory(d->device, img->memory, NULL);
   memset(img, 0, sizeof(*img));
}
