/* VK_KHR_deferred_host_operations. A deferred command leaves its work as
 * independent items (struct vkppu_deferred_work: one per build of a
 * vkBuildAccelerationStructuresKHR call, one for a copy). Every thread that
 * joins takes unclaimed items one at a time, so several joiners split the
 * work. The spec's answers to vkDeferredOperationJoinKHR:
 *   VK_SUCCESS          the operation is complete (this thread finished the
 *                       last item, or it was complete already);
 *   VK_THREAD_DONE_KHR  not complete, but every item is taken: the other
 *                       joiners are finishing it and joining again is
 *                       useless;
 *   VK_THREAD_IDLE_KHR  not complete and nothing to do *for now*; items
 *                       never appear later here, so this is never returned.
 * The first failing item's result becomes the operation's result. */
#include <stdlib.h>

#include "vkppu_acceleration_structure.h"

VKAPI_ATTR VkResult VKAPI_CALL vkppu_CreateDeferredOperationKHR(
    VkDevice device, const VkAllocationCallbacks *pAllocator, VkDeferredOperationKHR *pOperation)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   struct vkppu_deferred_operation *op =
       vkppu_device_zalloc(dev, pAllocator, sizeof(*op), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!op)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   if (pthread_mutex_init(&op->lock, NULL)) {
      vkppu_device_free(dev, pAllocator, op);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   vkppu_object_init(&op->base, VK_OBJECT_TYPE_DEFERRED_OPERATION_KHR, dev);
   op->result = VK_SUCCESS;
   *pOperation = vkppu_deferred_operation_to_handle(op);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkppu_DestroyDeferredOperationKHR(
    VkDevice device, VkDeferredOperationKHR operation, const VkAllocationCallbacks *pAllocator)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_deferred_operation, op, operation);
   if (!op)
      return;
   /* The operation must be complete (VUID-vkDestroyDeferredOperationKHR-
    * operation-03436); if work was never joined, drop it rather than leak. */
   if (op->has_work && !op->complete)
      op->work.finish(op->work.ctx);
   pthread_mutex_destroy(&op->lock);
   vkppu_object_finish(&op->base);
   vkppu_device_free(dev, pAllocator, op);
}

VkResult vkppu_deferred_run(VkDeferredOperationKHR operation, const struct vkppu_deferred_work *w)
{
   VKPPU_FROM_HANDLE(vkppu_deferred_operation, op, operation);
   if (!op) {
      VkResult result = VK_SUCCESS;
      for (uint32_t i = 0; i < w->item_count; i++) {
         VkResult r = w->run_item(w->ctx, i);
         if (result == VK_SUCCESS)
            result = r;
      }
      w->finish(w->ctx);
      return result;
   }
   pthread_mutex_lock(&op->lock);
   op->work = *w;
   op->has_work = true;
   op->complete = w->item_count == 0;
   op->next_item = op->items_done = 0;
   op->result = VK_SUCCESS;
   pthread_mutex_unlock(&op->lock);
   if (w->item_count == 0) {
      w->finish(w->ctx);
      /* Nothing to defer: the spec's code for "completed at once". */
      return VK_OPERATION_NOT_DEFERRED_KHR;
   }
   return VK_OPERATION_DEFERRED_KHR;
}

VKAPI_ATTR uint32_t VKAPI_CALL
vkppu_GetDeferredOperationMaxConcurrencyKHR(VkDevice device, VkDeferredOperationKHR operation)
{
   (void)device;
   VKPPU_FROM_HANDLE(vkppu_deferred_operation, op, operation);
   pthread_mutex_lock(&op->lock);
   /* Items not taken yet: more joiners than that would only get
    * VK_THREAD_DONE_KHR; 0 once complete. */
   uint32_t n = op->has_work && !op->complete ? op->work.item_count - op->next_item : 0;
   pthread_mutex_unlock(&op->lock);
   return n;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_GetDeferredOperationResultKHR(VkDevice device,
                                                                   VkDeferredOperationKHR operation)
{
   (void)device;
   VKPPU_FROM_HANDLE(vkppu_deferred_operation, op, operation);
   pthread_mutex_lock(&op->lock);
   /* No deferred command yet: VK_SUCCESS (vkGetDeferredOperationResultKHR). */
   VkResult r = !op->has_work ? VK_SUCCESS : op->complete ? op->result : VK_NOT_READY;
   pthread_mutex_unlock(&op->lock);
   return r;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_DeferredOperationJoinKHR(VkDevice device,
                                                              VkDeferredOperationKHR operation)
{
   (void)device;
   VKPPU_FROM_HANDLE(vkppu_deferred_operation, op, operation);
   pthread_mutex_lock(&op->lock);
   for (;;) {
      if (!op->has_work || op->complete) {
         pthread_mutex_unlock(&op->lock);
         return VK_SUCCESS;
      }
      if (op->next_item == op->work.item_count) {
         pthread_mutex_unlock(&op->lock);
         return VK_THREAD_DONE_KHR;
      }
      uint32_t item = op->next_item++;
      pthread_mutex_unlock(&op->lock);
      VkResult r = op->work.run_item(op->work.ctx, item);
      pthread_mutex_lock(&op->lock);
      if (r != VK_SUCCESS && op->result == VK_SUCCESS)
         op->result = r;
      if (++op->items_done == op->work.item_count) {
         /* This thread finished the last item: it completes the operation. */
         op->work.finish(op->work.ctx);
         op->complete = true;
      }
   }
}
