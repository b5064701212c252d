/* Command pools and command buffers. A command buffer records straight into
 * a pushbuffer (driver/pushbuffer.h): every vkCmd* appends its methods as it
 * is called, so ending a recording is free and a submission only hands the
 * pushbuffer's segments to the channel. */
#ifndef VKPPU_CMD_BUFFER_H
#define VKPPU_CMD_BUFFER_H

#include "pushbuffer.h"
#include "vkppu_device.h"

struct vkppu_command_buffer;

struct vkppu_command_pool {
   struct vkppu_object base;
   VkAllocationCallbacks alloc; /* for its command buffers */
   VkCommandPoolCreateFlags flags;
   uint32_t queue_family;
   struct drv_pb_chunk_pool chunks;      /* recycled between recordings */
   struct vkppu_command_buffer *buffers; /* every buffer allocated from it */
};
VKPPU_DEFINE_HANDLE_CASTS(vkppu_command_pool, VkCommandPool)

enum vkppu_cmd_state {
   VKPPU_CMD_INITIAL,
   VKPPU_CMD_RECORDING,
   VKPPU_CMD_EXECUTABLE,
   VKPPU_CMD_INVALID,
};

struct vkppu_command_buffer {
   struct vkppu_object base;
   struct vkppu_command_pool *pool;
   VkCommandBufferLevel level;
   enum vkppu_cmd_state state;
   VkCommandBufferUsageFlags usage;
   struct drv_pushbuf pb;
   struct vkppu_command_buffer *prev, *next; /* in the pool's list */
};
VKPPU_DEFINE_HANDLE_CASTS(vkppu_command_buffer, VkCommandBuffer)

/* The pushbuffer commands of a command buffer record into. */
static inline struct drv_pushbuf *vkppu_cmd_pb(VkCommandBuffer commandBuffer)
{
   return &vkppu_command_buffer_from_handle(commandBuffer)->pb;
}

/* Pool side (command_pool.c) of allocating and freeing command buffers. */
void vkppu_command_pool_link(struct vkppu_command_pool *pool, struct vkppu_command_buffer *cmd);
void vkppu_command_pool_unlink(struct vkppu_command_pool *pool, struct vkppu_command_buffer *cmd);
/* Back to the initial state, chunks returned to the pool (command_buffer.c). */
void vkppu_command_buffer_reset(struct vkppu_command_buffer *cmd);
void vkppu_command_buffer_destroy(struct vkppu_command_buffer *cmd);

#endif
