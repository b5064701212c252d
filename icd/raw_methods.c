/* vkCmdPushRawMethodsVKPPU: a bring-up and test tool that puts words into a
 * command buffer's pushbuffer exactly as given, as their own segment(s), so a
 * test can send any method stream — including invalid methods and bad
 * addresses — and check that the chip faults cleanly and the device is lost
 * (docs/raw-methods.md). */
#include "method_encoder.h"
#include "private_entrypoints.h"
#include "vkppu_cmd_buffer.h"

VKAPI_ATTR void VKAPI_CALL vkppu_CmdPushRawMethodsVKPPU(VkCommandBuffer commandBuffer,
                                                        uint32_t wordCount, const uint32_t *pWords)
{
   if (wordCount == 0 || !pWords)
      return;
   drv_emit_raw_words(vkppu_cmd_pb(commandBuffer), pWords, wordCount);
}
