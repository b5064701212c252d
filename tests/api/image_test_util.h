/* Images for the API tests: an image with its own memory and one view, the
 * layout barrier every upload and dispatch needs, and uploads from host
 * memory through a staging buffer. */
#ifndef IMAGE_TEST_UTIL_H
#define IMAGE_TEST_UTIL_H

#include "vk_test_context.h"

struct vkt_image {
   VkImage image;
   VkDeviceMemory memory;
   VkImageView view; /* every level and layer, of view_type; or none */
};

/* view_type for an image without a view (transfer-only usage). */
#define VKT_NO_VIEW VK_IMAGE_VIEW_TYPE_MAX_ENUM

/* Creates the image, binds device-local memory and, unless view_type is
 * VKT_NO_VIEW, makes a colour view of all of it. Fails the case (and
 * returns false) on error. */
bool vkt_image_create(struct vkt_device *dev, const VkImageCreateInfo *info,
                      VkImageViewType view_type, struct vkt_image *out);
/* A 2D, optimally tiled, single-layer image: the common case. */
bool vkt_image_create_2d(struct vkt_device *dev, VkFormat format, uint32_t width, uint32_t height,
                         uint32_t levels, VkImageUsageFlags usage, struct vkt_image *out);
void vkt_image_destroy(struct vkt_device *dev, struct vkt_image *img);

/* A layout transition of every level and layer of a color image, between
 * all commands. */
void vkt_cmd_image_barrier(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to,
                           VkAccessFlags src_access, VkAccessFlags dst_access);

/* Copies `bytes` from host memory into the image (regions as given,
 * bufferOffset relative to `data`) and leaves it in `final_layout`. */
bool vkt_image_upload(struct vkt_device *dev, VkImage image, const void *data, size_t bytes,
                      const VkBufferImageCopy *regions, uint32_t region_count,
                      VkImageLayout final_layout);

/* The same for one aspect of a depth/stencil image (the transitions cover
 * that aspect). */
bool vkt_image_upload_aspect(struct vkt_device *dev, VkImage image, VkImageAspectFlags aspect,
                             const void *data, size_t bytes, const VkBufferImageCopy *regions,
                             uint32_t region_count, VkImageLayout final_layout);

/* One submission that moves every subresource from one layout to another. */
bool vkt_image_transition(struct vkt_device *dev, VkImage image, VkImageLayout from,
                          VkImageLayout to);

/* Copies level 0, layer 0 (width x height texels of texel_bytes, tightly
 * packed) into `out`, reading the image in `layout`. */
bool vkt_image_download(struct vkt_device *dev, VkImage image, VkImageLayout layout, uint32_t width,
                        uint32_t height, uint32_t texel_bytes, void *out);

#endif
