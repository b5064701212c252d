/* Transfer commands on buffers, recorded as copy-engine methods
 * (driver/method_encoder.h): COPY per region, FILL, and INLINE for
 * vkCmdUpdateBuffer, whose data travels inside the pushbuffer. */
#include "method_encoder.h"
#include "vkppu_cmd_buffer.h"
#include "vkppu_memory.h"

static void copy_region(struct drv_pushbuf *pb, uint64_t src, uint64_t dst, VkDeviceSize size)
{
   /* A zero-sized region is invalid (VUID-VkBufferCopy-size-01988); skip it
    * rather than hand the copy engine a zero length. */
   if (size)
      drv_emit_copy(pb, dst, src, size);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdCopyBuffer(VkCommandBuffer commandBuffer, VkBuffer srcBuffer,
                                               VkBuffer dstBuffer, uint32_t regionCount,
                                               const VkBufferCopy *pRegions)
{
   struct drv_pushbuf *pb = vkppu_cmd_pb(commandBuffer);
   uint64_t src = vkppu_buffer_address(srcBuffer, 0);
   uint64_t dst = vkppu_buffer_address(dstBuffer, 0);
   for (uint32_t i = 0; i < regionCount; i++) {
      copy_region(pb, src + pRegions[i].srcOffset, dst + pRegions[i].dstOffset, pRegions[i].size);
   }
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdCopyBuffer2(VkCommandBuffer commandBuffer,
                                                const VkCopyBufferInfo2 *pCopyBufferInfo)
{
   struct drv_pushbuf *pb = vkppu_cmd_pb(commandBuffer);
   uint64_t src = vkppu_buffer_address(pCopyBufferInfo->srcBuffer, 0);
   uint64_t dst = vkppu_buffer_address(pCopyBufferInfo->dstBuffer, 0);
   for (uint32_t i = 0; i < pCopyBufferInfo->regionCount; i++) {
      const VkBufferCopy2 *r = &pCopyBufferInfo->pRegions[i];
      copy_region(pb, src + r->srcOffset, dst + r->dstOffset, r->size);
   }
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdFillBuffer(VkCommandBuffer commandBuffer, VkBuffer dstBuffer,
                                               VkDeviceSize dstOffset, VkDeviceSize size,
                                               uint32_t data)
{
   const struct vkppu_buffer *buf = vkppu_buffer_from_handle(dstBuffer);
   if (size == VK_WHOLE_SIZE) {
      /* "If VK_WHOLE_SIZE is used and the remaining size of the buffer is
       * not a multiple of 4, then the nearest smaller multiple is used."
       * (vkCmdFillBuffer) */
      size = dstOffset < buf->size ? (buf->size - dstOffset) & ~(VkDeviceSize)3 : 0;
   }
   if (size)
      drv_emit_fill(vkppu_cmd_pb(commandBuffer), buf->va + dstOffset, size, data);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdUpdateBuffer(VkCommandBuffer commandBuffer, VkBuffer dstBuffer,
                                                 VkDeviceSize dstOffset, VkDeviceSize dataSize,
                                                 const void *pData)
{
   /* dataSize is a multiple of 4 and at most 65536
    * (VUID-vkCmdUpdateBuffer-dataSize-00037/00038); the encoder copies the
    * data now, so the application may reuse pData at once. */
   if (dataSize)
      drv_emit_inline_data(vkppu_cmd_pb(commandBuffer), vkppu_buffer_address(dstBuffer, dstOffset),
                           pData, dataSize & ~(VkDeviceSize)3);
}
