/* The host-assisted jobs of a command buffer (driver/host_job.h): where in
 * the command stream each runs. A job is placed between segments, so
 * recording one closes the open segment; the channel writes the job's
 * request-and-wait segment there at every submission, with a number of its
 * own (jobs are templates: a command buffer may be submitted many times). */
#include <stdlib.h>

#include "vkppu_cmd_buffer.h"

static bool reserve(struct vkppu_command_buffer *cmd, uint32_t more)
{
   if (cmd->job_count + more <= cmd->job_capacity)
      return true;
   uint32_t capacity = cmd->job_capacity ? cmd->job_capacity : 4;
   while (capacity < cmd->job_count + more)
      capacity *= 2;
   struct drv_host_job_ref *grown = realloc(cmd->jobs, capacity * sizeof(*grown));
   if (!grown) {
      if (cmd->pb.error == DRV_SUCCESS)
         cmd->pb.error = DRV_ERROR_OUT_OF_HOST_MEMORY;
      return false;
   }
   cmd->jobs = grown;
   cmd->job_capacity = capacity;
   return true;
}

void vkppu_cmd_add_host_job(struct vkppu_command_buffer *cmd, struct drv_host_job *job)
{
   if (cmd->pb.error != DRV_SUCCESS || !reserve(cmd, 1)) {
      drv_host_job_unref(job);
      return;
   }
   drv_pushbuf_close_segment(&cmd->pb);
   cmd->jobs[cmd->job_count++] = (struct drv_host_job_ref){cmd->pb.segment_count, job};
}

void vkppu_cmd_append_host_job_range(struct vkppu_command_buffer *primary,
                                     const struct vkppu_command_buffer *secondary,
                                     uint32_t first_job, uint32_t end_job, uint32_t first_segment)
{
   if (end_job <= first_job || !reserve(primary, end_job - first_job))
      return;
   /* The secondary's segments from first_segment on are appended right
    * after this, starting at the primary's next segment index. */
   drv_pushbuf_close_segment(&primary->pb);
   uint32_t base = primary->pb.segment_count - first_segment;
   for (uint32_t i = first_job; i < end_job; i++) {
      drv_host_job_ref(secondary->jobs[i].job);
      primary->jobs[primary->job_count++] = (struct drv_host_job_ref){
          base + secondary->jobs[i].before_segment, secondary->jobs[i].job};
   }
}

void vkppu_cmd_append_host_jobs(struct vkppu_command_buffer *primary,
                                const struct vkppu_command_buffer *secondary)
{
   vkppu_cmd_append_host_job_range(primary, secondary, 0, secondary->job_count, 0);
}

void vkppu_cmd_release_host_jobs(struct vkppu_command_buffer *cmd, bool free_array)
{
   for (uint32_t i = 0; i < cmd->job_count; i++)
      drv_host_job_unref(cmd->jobs[i].job);
   cmd->job_count = 0;
   if (free_array) {
      free(cmd->jobs);
      cmd->jobs = NULL;
      cmd->job_capacity = 0;
   }
}
