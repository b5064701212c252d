/* The checkerboard texture: its texels and mip chain on the CPU (the
 * reference), and the same texture as a Vulkan image whose levels 1.. are
 * made on the GPU by vkCmdBlitImage, as applications usually do. */
#ifndef CHECKER_TEXTURE_H
#define CHECKER_TEXTURE_H

#include <stdint.h>

#include "vk_sample_device.h"

#define CHECKER_MAX_LEVELS 16u

/* RGBA8 texels of every level, level 0 first; level l is size >> l square. */
struct checker_levels {
   uint32_t size, levels;
   uint8_t *texels[CHECKER_MAX_LEVELS];
};

/* Level 0 of a size x size checkerboard (size a power of two >= 8) and the
 * levels a 2x2 box filter makes of it, rounded to 8 bits each time, which is
 * what a linear 2:1 blit computes. Returns false when out of memory. */
bool checker_levels_create(uint32_t size, struct checker_levels *out);
void checker_levels_destroy(struct checker_levels *levels);

struct checker_image {
   VkImage image;
   VkDeviceMemory memory;
   VkImageView view;
   VkSampler sampler;
};

/* Uploads level 0, blits the chain down, leaves the image in
 * SHADER_READ_ONLY_OPTIMAL with a view of every level and a repeating
 * sampler: trilinear, or bilinear within the nearest level. */
VkResult checker_image_create(struct vk_sample_device *d, const struct checker_levels *levels,
                              bool trilinear, struct checker_image *out);
void checker_image_destroy(struct vk_sample_device *d, struct checker_image *img);

#endif
