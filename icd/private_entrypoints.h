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

/* vkGetCountersVKPPU: the chip's cumulative hardware counters
 * (docs/counters.md), in the order of the table PPU_COUNTERS
 * (hw/include/ppu/counters.h). Works like a Vulkan enumeration: with pValues,
 * ppNames and ppUnits all NULL it sets *pCounterCount to the number of
 * counters; otherwise it fills the first min(*pCounterCount, count) entries
 * of each array given (names and units are static strings) and returns
 * VK_INCOMPLETE when there were more. Each value is read atomically; read
 * while the device is idle for a consistent set. docs/profiler.md. */
typedef VkResult(VKAPI_PTR *PFN_vkGetCountersVKPPU)(VkDevice device, uint32_t *pCounterCount,
                                                    uint64_t *pValues, const char **ppNames,
                                                    const char **ppUnits);
__attribute__((weak)) VKAPI_ATTR VkResult VKAPI_CALL vkppu_GetCountersVKPPU(VkDevice device,
                                                                            uint32_t *pCounterCount,
                                                                            uint64_t *pValues,
                                                                            const char **ppNames,
                                                                            const char **ppUnits);

/* vkSetRayCostRecordingVKPPU: with width and height > 0, allocates the
 * device's ray cost plane (width x height 32-bit words, zeroed) and makes
 * every dispatch and ray-tracing launch recorded from then on add, per
 * invocation, the BVH nodes its ray queries fetched to word
 * [gl_GlobalInvocationID.y * width + gl_GlobalInvocationID.x] (ppu/qmd.h,
 * struct ppu_qmd_ray_cost); invocations outside the plane add nothing. 0 x 0
 * turns it off for later recordings and frees the plane (the caller makes
 * sure no command buffer recorded with it is still pending). Call once,
 * right after vkCreateDevice, before any recording. VK_ERROR_OUT_OF_DEVICE_
 * MEMORY when VRAM cannot hold the plane. docs/profiler.md. */
typedef VkResult(VKAPI_PTR *PFN_vkSetRayCostRecordingVKPPU)(VkDevice device, uint32_t width,
                                                            uint32_t height);
__attribute__((weak)) VKAPI_ATTR VkResult VKAPI_CALL
vkppu_SetRayCostRecordingVKPPU(VkDevice device, uint32_t width, uint32_t height);

/* vkReadRayCostVKPPU: the part of the ray cost plane that recorded
 * dispatches can reach: *pWidth x *pHeight = the largest x and y thread
 * extents of the direct dispatches recorded so far, clipped to the plane (an
 * indirect one counts as the whole plane). With pData, copies those rows
 * (packed, *pWidth words each) there and, with reset, zeroes them in the
 * plane. The caller waits for the device first: words still being added
 * are read as they are. VK_ERROR_FEATURE_NOT_PRESENT when recording is off. */
typedef VkResult(VKAPI_PTR *PFN_vkReadRayCostVKPPU)(VkDevice device, uint32_t *pWidth,
                                                    uint32_t *pHeight, uint32_t *pData,
                                                    VkBool32 reset);
__attribute__((weak)) VKAPI_ATTR VkResult VKAPI_CALL vkppu_ReadRayCostVKPPU(
    VkDevice device, uint32_t *pWidth, uint32_t *pHeight, uint32_t *pData, VkBool32 reset);

/* The private entry point named `name`, or NULL (also when it is not linked
 * in). */
PFN_vkVoidFunction vkppu_lookup_private_device(const char *name);

#endif /* VKPPU_PRIVATE_ENTRYPOINTS_H */
