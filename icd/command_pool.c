/* VkCommandPool: owns its command buffers and the pushbuffer chunks they
 * record into, which are recycled between recordings instead of being
 * allocated again (vkResetCommandPool, vkTrimCommandPool). */
#include "vkppu_cmd_buffer.h"

void vkppu_command_pool_link(struct vkppu_command_pool *pool, struct vkppu_command_buffer *cmd)
{
   cmd->prev = NULL;
   cmd->next = pool->buffers;
   if (pool->buffers)
      pool->buffers->prev = cmd;
   pool->buffers = cmd;
}

void vkppu_command_pool_unlink(struct vkppu_command_pool *pool, struct vkppu_command_buffer *cmd)
{
   if (cmd->prev)
      cmd->prev->next = cmd->next;
   else
      pool->buffers = cmd->next;
   if (cmd->next)
      cmd->next->prev = cmd->prev;
   cmd->prev = cmd->next = NULL;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_CreateCommandPool(VkDevice device,
                                                       const VkCommandPoolCreateInfo *pCreateInfo,
                                                       const VkAllocationCallbacks *pAllocator,
                                                       VkCommandPool *pCommandPool)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   if (pCreateInfo->flags & VK_COMMAND_POOL_CREATE_PROTECTED_BIT) {
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "vkCreateCommandPool: protected command pools need protectedMemory, which "
                   "this device does not support");
      return VK_ERROR_FEATURE_NOT_PRESENT;
   }
   struct vkppu_command_pool *pool =
       vkppu_device_zalloc(dev, pAllocator, sizeof(*pool), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!pool)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   vkppu_object_init(&pool->base, VK_OBJECT_TYPE_COMMAND_POOL, dev);
   pool->alloc = *vkppu_choose_alloc(pAllocator, &dev->alloc);
   pool->flags = pCreateInfo->flags;
   pool->queue_family = pCreateInfo->queueFamilyIndex;
   drv_pb_chunk_pool_init(&pool->chunks, dev->drv);
   *pCommandPool = vkppu_command_pool_to_handle(pool);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkppu_DestroyCommandPool(VkDevice device, VkCommandPool commandPool,
                                                    const VkAllocationCallbacks *pAllocator)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_command_pool, pool, commandPool);
   if (!pool)
      return;
   /* Destroying a pool frees its command buffers (vkDestroyCommandPool). */
   while (pool->buffers)
      vkppu_command_buffer_destroy(pool->buffers);
   vkppu_command_pool_upload_trim(pool);
   drv_pb_chunk_pool_finish(&pool->chunks);
   vkppu_object_finish(&pool->base);
   vkppu_device_free(dev, pAllocator, pool);
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_ResetCommandPool(VkDevice device, VkCommandPool commandPool,
                                                      VkCommandPoolResetFlags flags)
{
   (void)device;
   VKPPU_FROM_HANDLE(vkppu_command_pool, pool, commandPool);
   for (struct vkppu_command_buffer *cmd = pool->buffers; cmd; cmd = cmd->next)
      vkppu_command_buffer_reset(cmd);
   if (flags & VK_COMMAND_POOL_RESET_RELEASE_RESOURCES_BIT) {
      drv_pb_chunk_pool_trim(&pool->chunks);
      vkppu_command_pool_upload_trim(pool);
   }
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkppu_TrimCommandPool(VkDevice device, VkCommandPool commandPool,
                                                 VkCommandPoolTrimFlags flags)
{
   (void)device;
   (void)flags;
   VKPPU_FROM_HANDLE(vkppu_command_pool, pool, commandPool);
   /* Chunks held by command buffers stay; the idle ones go back to VRAM. */
   drv_pb_chunk_pool_trim(&pool->chunks);
   vkppu_command_pool_upload_trim(pool);
}
