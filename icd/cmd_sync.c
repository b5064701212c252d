/* Synchronization commands: pipeline barriers and events.
 *
 * Work of one channel executes in order, so a barrier needs no cache or
 * hazard handling today; it still records WAIT_FOR_IDLE, so the method
 * stream says what the application asked for and the timing model can honour
 * it. Events are 64-bit slots (vkppu_sync.h): set and reset are semaphore
 * releases (which wait for earlier work first, as "set after the source
 * stages" requires), a wait is an acquire >= 1 per event. */
#include "method_encoder.h"
#include "vkppu_cmd_buffer.h"
#include "vkppu_sync.h"

static uint64_t event_va(VkEvent event)
{
   return vkppu_event_from_handle(event)->slot.va;
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdPipelineBarrier(
    VkCommandBuffer commandBuffer, VkPipelineStageFlags srcStageMask,
    VkPipelineStageFlags dstStageMask, VkDependencyFlags dependencyFlags,
    uint32_t memoryBarrierCount, const VkMemoryBarrier *pMemoryBarriers,
    uint32_t bufferMemoryBarrierCount, const VkBufferMemoryBarrier *pBufferMemoryBarriers,
    uint32_t imageMemoryBarrierCount, const VkImageMemoryBarrier *pImageMemoryBarriers)
{
   (void)srcStageMask;
   (void)dstStageMask;
   (void)dependencyFlags;
   (void)memoryBarrierCount;
   (void)pMemoryBarriers;
   (void)bufferMemoryBarrierCount;
   (void)pBufferMemoryBarriers;
   (void)imageMemoryBarrierCount;
   (void)pImageMemoryBarriers;
   drv_emit_wait_for_idle(vkppu_cmd_pb(commandBuffer));
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdPipelineBarrier2(VkCommandBuffer commandBuffer,
                                                     const VkDependencyInfo *pDependencyInfo)
{
   (void)pDependencyInfo;
   drv_emit_wait_for_idle(vkppu_cmd_pb(commandBuffer));
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdSetEvent(VkCommandBuffer commandBuffer, VkEvent event,
                                             VkPipelineStageFlags stageMask)
{
   (void)stageMask;
   drv_emit_sem_release(vkppu_cmd_pb(commandBuffer), event_va(event), 1, false);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdSetEvent2(VkCommandBuffer commandBuffer, VkEvent event,
                                              const VkDependencyInfo *pDependencyInfo)
{
   (void)pDependencyInfo;
   drv_emit_sem_release(vkppu_cmd_pb(commandBuffer), event_va(event), 1, false);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdResetEvent(VkCommandBuffer commandBuffer, VkEvent event,
                                               VkPipelineStageFlags stageMask)
{
   (void)stageMask;
   drv_emit_sem_release(vkppu_cmd_pb(commandBuffer), event_va(event), 0, false);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdResetEvent2(VkCommandBuffer commandBuffer, VkEvent event,
                                                VkPipelineStageFlags2 stageMask)
{
   (void)stageMask;
   drv_emit_sem_release(vkppu_cmd_pb(commandBuffer), event_va(event), 0, false);
}

static void wait_events(VkCommandBuffer commandBuffer, uint32_t count, const VkEvent *events)
{
   struct drv_pushbuf *pb = vkppu_cmd_pb(commandBuffer);
   for (uint32_t i = 0; i < count; i++)
      drv_emit_sem_acquire_geq(pb, event_va(events[i]), 1);
   /* The barrier half of vkCmdWaitEvents: later work starts after it. */
   drv_emit_wait_for_idle(pb);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdWaitEvents(
    VkCommandBuffer commandBuffer, uint32_t eventCount, const VkEvent *pEvents,
    VkPipelineStageFlags srcStageMask, VkPipelineStageFlags dstStageMask,
    uint32_t memoryBarrierCount, const VkMemoryBarrier *pMemoryBarriers,
    uint32_t bufferMemoryBarrierCount, const VkBufferMemoryBarrier *pBufferMemoryBarriers,
    uint32_t imageMemoryBarrierCount, const VkImageMemoryBarrier *pImageMemoryBarriers)
{
   (void)srcStageMask;
   (void)dstStageMask;
   (void)memoryBarrierCount;
   (void)pMemoryBarriers;
   (void)bufferMemoryBarrierCount;
   (void)pBufferMemoryBarriers;
   (void)imageMemoryBarrierCount;
   (void)pImageMemoryBarriers;
   wait_events(commandBuffer, eventCount, pEvents);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdWaitEvents2(VkCommandBuffer commandBuffer, uint32_t eventCount,
                                                const VkEvent *pEvents,
                                                const VkDependencyInfo *pDependencyInfos)
{
   (void)pDependencyInfos;
   wait_events(commandBuffer, eventCount, pEvents);
}
