/* Upload memory of command buffers: 64 KiB host-mapped chunks of GPU memory
 * that commands fill while recording (a dispatch's QMD and constant bank 0)
 * and the GPU reads when the command buffer runs. A command buffer owns its
 * chunks until it is reset; then they return to the command pool and are
 * reused, so re-recording allocates nothing. Data written here must stay
 * valid for as long as the command buffer may execute, which is exactly
 * until it is reset or freed (a pending command buffer may not be reset). */
#include "gpu_memory.h"
#include "vkppu_cmd_buffer.h"

#define UPLOAD_CHUNK_BYTES (64u << 10)

bool vkppu_cmd_upload_alloc(struct vkppu_command_buffer *cmd, uint32_t size, uint32_t align,
                            uint64_t *va, void **map)
{
   if (cmd->pb.error != DRV_SUCCESS || size > UPLOAD_CHUNK_BYTES)
      return false;
   uint32_t offset = (cmd->upload_used + align - 1) & ~(align - 1);
   if (!cmd->upload || offset + size > UPLOAD_CHUNK_BYTES) {
      struct vkppu_command_pool *pool = cmd->pool;
      struct vkppu_upload_chunk *chunk = pool->free_upload;
      if (chunk) {
         pool->free_upload = chunk->next;
      } else {
         chunk = vkppu_alloc(&pool->alloc, sizeof(*chunk), 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
         if (!chunk) {
            cmd->pb.error = DRV_ERROR_OUT_OF_HOST_MEMORY;
            return false;
         }
         enum drv_result r = drv_bo_create(cmd->base.device->drv, UPLOAD_CHUNK_BYTES,
                                           DRV_BO_HOST_MAPPED | DRV_BO_INTERNAL, 0, &chunk->bo);
         if (r != DRV_SUCCESS) {
            vkppu_free(&pool->alloc, chunk);
            cmd->pb.error = r;
            return false;
         }
      }
      chunk->next = cmd->upload;
      cmd->upload = chunk;
      offset = 0;
   }
   cmd->upload_used = offset + size;
   *va = cmd->upload->bo->va + offset;
   *map = cmd->upload->bo->map + offset;
   return true;
}

void vkppu_cmd_upload_reset(struct vkppu_command_buffer *cmd)
{
   struct vkppu_command_pool *pool = cmd->pool;
   while (cmd->upload) {
      struct vkppu_upload_chunk *chunk = cmd->upload;
      cmd->upload = chunk->next;
      chunk->next = pool->free_upload;
      pool->free_upload = chunk;
   }
   cmd->upload_used = 0;
}

void vkppu_command_pool_upload_trim(struct vkppu_command_pool *pool)
{
   struct vkppu_device *dev = pool->base.device;
   while (pool->free_upload) {
      struct vkppu_upload_chunk *chunk = pool->free_upload;
      pool->free_upload = chunk->next;
      drv_bo_destroy(dev->drv, chunk->bo);
      vkppu_free(&pool->alloc, chunk);
   }
}
