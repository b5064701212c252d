/* Command pools and command buffers. A command buffer records straight into
 * a pushbuffer (driver/pushbuffer.h): every vkCmd* appends its methods as it
 * is called, so ending a recording is free and a submission only hands the
 * pushbuffer's segments to the channel. */
#ifndef VKPPU_CMD_BUFFER_H
#define VKPPU_CMD_BUFFER_H

#include "host_job.h"
#include "pushbuffer.h"
#include "shader_abi.h"
#include "vkppu_device.h"
#include "vkppu_gfx_state.h"

struct vkppu_command_buffer;
struct vkppu_pipeline;
struct vkppu_rendering_instance;

/* Upload memory (cmd_upload.c): host-mapped GPU memory a command buffer
 * writes per-command data into while recording (QMDs, constant banks). Its
 * chunks belong to the command buffer until it is reset, then go back to
 * the pool's free list, like pushbuffer chunks. */
struct vkppu_upload_chunk {
   struct drv_bo *bo;
   struct vkppu_upload_chunk *next;
};

struct vkppu_command_pool {
   struct vkppu_object base;
   VkAllocationCallbacks alloc; /* for its command buffers */
   VkCommandPoolCreateFlags flags;
   uint32_t queue_family;
   struct drv_pb_chunk_pool chunks;        /* recycled between recordings */
   struct vkppu_command_buffer *buffers;   /* every buffer allocated from it */
   struct vkppu_upload_chunk *free_upload; /* recycled upload chunks */
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
   struct vkppu_upload_chunk *upload;        /* owned; the current one first */
   uint32_t upload_used;                     /* bytes used of the current chunk */
   /* Compute state the next dispatch snapshots into constant bank 0
    * (driver/shader_abi.h); cmd_compute.c. The ray-tracing bind point has
    * its own (vkCmdTraceRaysKHR, cmd_trace_rays.c); push constants are
    * shared by every bind point, as in Vulkan. */
   struct vkppu_bind_state {
      const struct vkppu_pipeline *pipeline;
      uint64_t set_va[DRV_ABI_MAX_SETS];
      uint32_t dynamic_offsets[DRV_ABI_MAX_DYNAMIC_BUFFERS];
      uint8_t push_constants[DRV_ABI_PUSH_CONSTANTS_SIZE];
   } compute, ray_tracing, graphics;
   /* vkCmdSetRayTracingPipelineStackSizeKHR (cmd_trace_rays.c). */
   uint32_t rt_stack_size;
   /* Draw state: pipeline, dynamic values, vertex and index buffers, the
    * render pass instance (vkppu_gfx_state.h). */
   struct vkppu_gfx_cmd_state gfx;
   /* The render passes dynamic rendering made (cmd_rendering.c); owned. */
   struct vkppu_rendering_instance *rendering;
   /* Imageless framebuffers with the views of their vkCmdBeginRenderPass
    * (cmd_render_pass.c); owned. */
   struct vkppu_imageless_framebuffer *imageless_framebuffers;
   /* Host-assisted jobs (driver/host_job.h), referenced, in recording
    * order; each runs before segment `before_segment` of pb. */
   struct drv_host_job_ref *jobs;
   uint32_t job_count, job_capacity;
   /* Clears recorded where the views are not known (cmd_clear_rect.c):
    * vkCmdExecuteCommands performs them, in recording order. */
   struct vkppu_deferred_clear *deferred_clears;
   uint32_t deferred_clear_count;
};

/* vkCmdClearAttachments in a secondary that continues a render pass or
 * dynamic rendering without its framebuffer: the attachments are the
 * primary's, so the clear is kept here and performed by
 * vkCmdExecuteCommands between the segments and host jobs recorded before
 * and after it. */
struct vkppu_deferred_clear {
   uint32_t before_segment, before_job;
   uint32_t attachment_count, rect_count;
   VkClearAttachment *attachments;
   VkClearRect *rects;
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

/* Records a host-assisted job at the current point of the command stream
 * (cmd_host_job.c). The command buffer takes over the caller's reference;
 * on failure the job is released and the error kept in pb.error. */
void vkppu_cmd_add_host_job(struct vkppu_command_buffer *cmd, struct drv_host_job *job);
/* Appends a secondary's jobs, placed among the segments it appends next. */
void vkppu_cmd_append_host_jobs(struct vkppu_command_buffer *primary,
                                const struct vkppu_command_buffer *secondary);
/* The same for the secondary's jobs [first_job, end_job), placed among its
 * segments from first_segment on, which the caller appends next. */
void vkppu_cmd_append_host_job_range(struct vkppu_command_buffer *primary,
                                     const struct vkppu_command_buffer *secondary,
                                     uint32_t first_job, uint32_t end_job, uint32_t first_segment);
/* Performs a secondary's deferred clear in the primary's render pass
 * instance, and frees a command buffer's deferred clears (cmd_clear_rect.c). */
void vkppu_cmd_run_deferred_clear(struct vkppu_command_buffer *primary,
                                  const struct vkppu_deferred_clear *clear);
void vkppu_cmd_release_deferred_clears(struct vkppu_command_buffer *cmd);
/* Releases every recorded job (reset); `free_array` also frees the list. */
void vkppu_cmd_release_host_jobs(struct vkppu_command_buffer *cmd, bool free_array);

/* `size` bytes of upload memory aligned to `align` (a power of two up to
 * 4096); false after an allocation failure, which is kept in pb.error and
 * reported by vkEndCommandBuffer. */
bool vkppu_cmd_upload_alloc(struct vkppu_command_buffer *cmd, uint32_t size, uint32_t align,
                            uint64_t *va, void **map);
/* Gives the command buffer's upload chunks back to its pool. */
void vkppu_cmd_upload_reset(struct vkppu_command_buffer *cmd);
/* Frees the pool's idle upload chunks (trim, destroy). */
void vkppu_command_pool_upload_trim(struct vkppu_command_pool *pool);

#endif
