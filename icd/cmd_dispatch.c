/* Compute dispatch commands.
 *
 * vkCmdDispatchBase comes with VK_KHR_device_group, which the device reports
 * because VK_KHR_buffer_device_address needs VkMemoryAllocateFlagsInfo from
 * it on a Vulkan 1.0 device. A dispatch needs a bound compute pipeline, and
 * compute pipelines are not supported yet (the compute issue builds them), so
 * no valid call can reach this; it says so instead of recording nothing
 * silently. */
#include <stdio.h>

#include "vkppu_entrypoints.h"

VKAPI_ATTR void VKAPI_CALL vkppu_CmdDispatchBase(VkCommandBuffer commandBuffer, uint32_t baseGroupX,
                                                 uint32_t baseGroupY, uint32_t baseGroupZ,
                                                 uint32_t groupCountX, uint32_t groupCountY,
                                                 uint32_t groupCountZ)
{
   (void)commandBuffer;
   (void)baseGroupX;
   (void)baseGroupY;
   (void)baseGroupZ;
   (void)groupCountX;
   (void)groupCountY;
   (void)groupCountZ;
   fprintf(stderr, "vkppu: vkCmdDispatchBase: compute pipelines are not supported by this "
                   "driver yet, so no dispatch can be recorded\n");
}
