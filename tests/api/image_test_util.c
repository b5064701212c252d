#include "image_test_util.h"

#include <string.h>

bool vkt_image_create(struct vkt_device *dev, const VkImageCreateInfo *info,
                      VkImageViewType view_type, struct vkt_image *out)
{
   memset(out, 0, sizeof(*out));
   VkResult r = vkCreateImage(dev->device, info, NULL, &out->image);
   if (r != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "vkCreateImage (format %d) -> %s", info->format,
                vkt_result_name(r));
      return false;
   }
   VkMemoryRequirements req;
   vkGetImageMemoryRequirements(dev->device, out->image, &req);
   VkMemoryAllocateInfo mai = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
       .allocationSize = req.size,
       .memoryTypeIndex = vkt_find_memory_type(dev->ctx, req.memoryTypeBits,
                                               VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0),
   };
   r = vkAllocateMemory(dev->device, &mai, NULL, &out->memory);
   if (r == VK_SUCCESS)
      r = vkBindImageMemory(dev->device, out->image, out->memory, 0);
   VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT;
   VkImageViewCreateInfo vci = {
       .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
       .image = out->image,
       .viewType = view_type,
       .format = info->format,
       .subresourceRange = {aspect, 0, VK_REMAINING_MIP_LEVELS, 0, VK_REMAINING_ARRAY_LAYERS},
   };
   if (r == VK_SUCCESS && view_type != VKT_NO_VIEW)
      r = vkCreateImageView(dev->device, &vci, NULL, &out->view);
   if (r != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "image memory or view -> %s", vkt_result_name(r));
      vkt_image_destroy(dev, out);
      return false;
   }
   return true;
}

bool vkt_image_create_2d(struct vkt_device *dev, VkFormat format, uint32_t width, uint32_t height,
                         uint32_t levels, VkImageUsageFlags usage, struct vkt_image *out)
{
   VkImageCreateInfo ici = {
       .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
       .imageType = VK_IMAGE_TYPE_2D,
       .format = format,
       .extent = {width, height, 1},
       .mipLevels = levels,
       .arrayLayers = 1,
       .samples = VK_SAMPLE_COUNT_1_BIT,
       .tiling = VK_IMAGE_TILING_OPTIMAL,
       .usage = usage,
   };
   return vkt_image_create(dev, &ici, VK_IMAGE_VIEW_TYPE_2D, out);
}

void vkt_image_destroy(struct vkt_device *dev, struct vkt_image *img)
{
   if (img->view)
      vkDestroyImageView(dev->device, img->view, NULL);
   if (img->image)
      vkDestroyImage(dev->device, img->image, NULL);
   if (img->memory)
      vkFreeMemory(dev->device, img->memory, NULL);
   memset(img, 0, sizeof(*img));
}

static void barrier_of_aspect(VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect,
                              VkImageLayout from, VkImageLayout to, VkAccessFlags src_access,
                              VkAccessFlags dst_access)
{
   VkImageMemoryBarrier b = {
       .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
       .srcAccessMask = src_access,
       .dstAccessMask = dst_access,
       .oldLayout = from,
       .newLayout = to,
       .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
       .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
       .image = image,
       .subresourceRange = {aspect, 0, VK_REMAINING_MIP_LEVELS, 0, VK_REMAINING_ARRAY_LAYERS},
   };
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                        0, 0, NULL, 0, NULL, 1, &b);
}

void vkt_cmd_image_barrier(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to,
                           VkAccessFlags src_access, VkAccessFlags dst_access)
{
   barrier_of_aspect(cmd, image, VK_IMAGE_ASPECT_COLOR_BIT, from, to, src_access, dst_access);
}

bool vkt_image_upload(struct vkt_device *dev, VkImage image, const void *data, size_t bytes,
                      const VkBufferImageCopy *regions, uint32_t region_count,
                      VkImageLayout final_layout)
{
   return vkt_image_upload_aspect(dev, image, VK_IMAGE_ASPECT_COLOR_BIT, data, bytes, regions,
                                  region_count, final_layout);
}

bool vkt_image_upload_aspect(struct vkt_device *dev, VkImage image, VkImageAspectFlags aspect,
                             const void *data, size_t bytes, const VkBufferImageCopy *regions,
                             uint32_t region_count, VkImageLayout final_layout)
{
   struct vkt_buffer staging;
   if (vkt_buffer_create(dev, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, VKT_MEMORY_HOST, &staging) !=
       VK_SUCCESS)
      return false;
   memcpy(staging.map, data, bytes);
   VkCommandBuffer cmd = vkt_cmd_begin(dev, dev->ctx->universal_family);
   barrier_of_aspect(cmd, image, aspect, VK_IMAGE_LAYOUT_UNDEFINED,
                     VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT);
   vkCmdCopyBufferToImage(cmd, staging.buffer, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                          region_count, regions);
   barrier_of_aspect(cmd, image, aspect, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, final_layout,
                     VK_ACCESS_TRANSFER_WRITE_BIT,
                     VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
   VkResult r = vkt_cmd_submit_wait(dev, dev->ctx->universal_family, 0, cmd);
   vkt_buffer_destroy(dev, &staging);
   if (r != VK_SUCCESS)
      test_fail(__FILE__, __LINE__, "image upload -> %s", vkt_result_name(r));
   return r == VK_SUCCESS;
}

bool vkt_image_transition(struct vkt_device *dev, VkImage image, VkImageLayout from,
                          VkImageLayout to)
{
   VkCommandBuffer cmd = vkt_cmd_begin(dev, dev->ctx->universal_family);
   vkt_cmd_image_barrier(cmd, image, from, to, 0,
                         VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
   VkResult r = vkt_cmd_submit_wait(dev, dev->ctx->universal_family, 0, cmd);
   if (r != VK_SUCCESS)
      test_fail(__FILE__, __LINE__, "layout transition -> %s", vkt_result_name(r));
   return r == VK_SUCCESS;
}

bool vkt_image_download(struct vkt_device *dev, VkImage image, VkImageLayout layout, uint32_t width,
                        uint32_t height, uint32_t texel_bytes, void *out)
{
   size_t bytes = (size_t)width * height * texel_bytes;
   struct vkt_buffer staging;
   if (vkt_buffer_create(dev, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, VKT_MEMORY_HOST, &staging) !=
       VK_SUCCESS)
      return false;
   VkCommandBuffer cmd = vkt_cmd_begin(dev, dev->ctx->universal_family);
   VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                         .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                         .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT};
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
                        1, &mb, 0, NULL, 0, NULL);
   VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                               .imageExtent = {width, height, 1}};
   vkCmdCopyImageToBuffer(cmd, image, layout, staging.buffer, 1, &region);
   vkt_cmd_transfer_to_host_barrier(cmd);
   VkResult r = vkt_cmd_submit_wait(dev, dev->ctx->universal_family, 0, cmd);
   if (r == VK_SUCCESS)
      memcpy(out, staging.map, bytes);
   else
      test_fail(__FILE__, __LINE__, "image download -> %s", vkt_result_name(r));
   vkt_buffer_destroy(dev, &staging);
   return r == VK_SUCCESS;
}
