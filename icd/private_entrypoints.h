/* Entry points vkppu offers beyond Vulkan, found through vkGetDeviceProcAddr
 * by their names (tests and tools of this project use them; applications
 * never see them unless they ask by name). */
#ifndef VKPPU_PRIVATE_ENTRYPOINTS_H
#define VKPPU_PRIVATE_ENTRYPOINTS_H

#include <stdint.h>
#include <vulkan/vulkan.h>

/* vkCmdPushRawMethodsVKPPU: records wordCount pushbuffer words exactly as
 * given (ppu/methods.h encoding) into the command buffer, so tests can hand
 * the chip malformed or unusual work. Implemented with the command buffers;
 * weak so the lookup reports it missing until then. */
typedef void(VKAPI_PTR *PFN_vkCmdPushRawMethodsVKPPU)(VkCommandBuffer commandBuffer,
                                                      uint32_t wordCount, const uint32_t *pWords);
__attribute__((weak)) VKAPI_ATTR void VKAPI_CALL vkppu_CmdPushRawMethodsVKPPU(
    VkCommandBuffer commandBuffer, uint32_t wordCount, const uint32_t *pWords);

/* The private entry point named `name`, or NULL (also when it is not linked
 * in). */
PFN_vkVoidFunction vkppu_lookup_private_device(const char *name);

#endif /* VKPPU_PRIVATE_ENTRYPOINTS_H */
