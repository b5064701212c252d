/* Acceleration-structure commands on the GPU timeline. Each records one
 * host-assisted job (driver/host_job.h, docs/acceleration-structures.md):
 * its parameters are captured now into a job template the command buffer
 * owns, and a driver worker thread runs the same operation as the host
 * commands do (acceleration_structure_build.c / _copy.c), with device
 * addresses, when the channel reaches the job's place in the stream.
 *
 * From the worker a bad address cannot be returned to anyone: it fails the
 * job and the device is lost with a report. Invalid input the builder or
 * the deserializer detects leaves an empty structure and a message on
 * stderr (the worker may not call the application's messengers). */
#include <stdio.h>
#include <stdlib.h>

#include "vkppu_acceleration_structure.h"
#include "vkppu_cmd_buffer.h"
#include "vkppu_query_pool.h"

enum as_job_kind {
   AS_JOB_BUILD,
   AS_JOB_COPY,
   AS_JOB_PROPERTIES,
};

struct as_job {
   struct drv_host_job base;
   enum as_job_kind kind;
   struct vkppu_as_context ctx; /* device space; copied for every run */
   union {
      struct {
         uint32_t count;
         struct vkppu_as_build *builds; /* arrays follow the struct */
      } build;
      struct vkppu_as_copy copy;
      struct {
         VkQueryType type;
         uint32_t count;
         uint64_t *structures; /* va, size pairs */
         uint64_t first_record_va;
      } properties;
   };
};

static const char *job_name(enum as_job_kind kind)
{
   switch (kind) {
   case AS_JOB_BUILD:
      return "acceleration-structure build";
   case AS_JOB_COPY:
      return "acceleration-structure copy";
   case AS_JOB_PROPERTIES:
      return "acceleration-structure properties query";
   }
   return "acceleration-structure job";
}

/* false: the job fails (the device is lost with `why`). */
static bool settle(struct as_job *job, struct vkppu_as_context *ctx, enum vkppu_as_status s,
                   char *why, size_t why_size)
{
   switch (s) {
   case VKPPU_AS_OK:
      return true;
   case VKPPU_AS_INVALID:
      fprintf(stderr, "vkppu: %s: invalid input, the destination is left empty:\n%s",
              job_name(job->kind), ctx->why);
      return true;
   case VKPPU_AS_FAULT:
      snprintf(why, why_size, "%s", ctx->why);
      return false;
   case VKPPU_AS_OUT_OF_MEMORY:
      snprintf(why, why_size, "  the driver ran out of host memory running the job\n");
      return false;
   }
   return false;
}

static bool write_record(struct vkppu_as_context *ctx, uint64_t record_va, uint64_t value)
{
   /* Value first, then availability: a host reading `available` with
    * acquire semantics (query_pool.c) then sees the value. */
   uint64_t one = 1;
   if (vkppu_as_write_va(ctx, "query record", record_va, &value, sizeof(value)) != VKPPU_AS_OK)
      return false;
   __atomic_thread_fence(__ATOMIC_RELEASE);
   return vkppu_as_write_va(ctx, "query record", record_va + 8, &one, sizeof(one)) == VKPPU_AS_OK;
}

static bool run_job(struct drv_host_job *base, struct drv_device *drv, char *why, size_t why_size)
{
   (void)drv; /* the context carries it */
   struct as_job *job = (struct as_job *)(void *)base;
   struct vkppu_as_context ctx = job->ctx;
   switch (job->kind) {
   case AS_JOB_BUILD:
      for (uint32_t i = 0; i < job->build.count; i++) {
         if (!settle(job, &ctx, vkppu_as_build_run(&ctx, &job->build.builds[i]), why, why_size))
            return false;
      }
      return true;
   case AS_JOB_COPY:
      return settle(job, &ctx, vkppu_as_copy_run(&ctx, &job->copy), why, why_size);
   case AS_JOB_PROPERTIES:
      for (uint32_t i = 0; i < job->properties.count; i++) {
         uint64_t value = 0;
         enum vkppu_as_status s =
             vkppu_as_property(&ctx, job->properties.structures[2 * i],
                               job->properties.structures[2 * i + 1], job->properties.type, &value);
         if (!settle(job, &ctx, s, why, why_size))
            return false;
         uint64_t record = job->properties.first_record_va + i * sizeof(struct ppu_query_record);
         if (!write_record(&ctx, record, value))
            return settle(job, &ctx, VKPPU_AS_FAULT, why, why_size);
      }
      return true;
   }
   return false;
}

static void destroy_job(struct drv_host_job *base)
{
   /* Plain heap memory: a submitted instance may hold the template after
    * its command buffer (and pool) are gone, e.g. when the device was lost
    * before the job ran. */
   free(base);
}

/* A job with `extra` bytes after it, or NULL (the error is kept for
 * vkEndCommandBuffer). */
static struct as_job *new_job(struct vkppu_command_buffer *cmd, enum as_job_kind kind, size_t extra)
{
   struct as_job *job = calloc(1, sizeof(*job) + extra);
   if (!job) {
      if (cmd->pb.error == DRV_SUCCESS)
         cmd->pb.error = DRV_ERROR_OUT_OF_HOST_MEMORY;
      return NULL;
   }
   drv_host_job_init(&job->base, job_name(kind), run_job, destroy_job);
   job->kind = kind;
   vkppu_as_context_init(&job->ctx, cmd->base.device, VKPPU_AS_DEVICE);
   return job;
}

static void record_builds(VkCommandBuffer commandBuffer, uint32_t infoCount,
                          const VkAccelerationStructureBuildGeometryInfoKHR *pInfos,
                          const VkAccelerationStructureBuildRangeInfoKHR *const *ranges,
                          const VkDeviceAddress *indirect, const uint32_t *strides,
                          const uint32_t *const *max_counts)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   size_t extra = infoCount * sizeof(struct vkppu_as_build);
   for (uint32_t i = 0; i < infoCount; i++)
      extra += vkppu_as_build_capture_size(&pInfos[i], indirect != NULL);
   struct as_job *job = new_job(cmd, AS_JOB_BUILD, extra);
   if (!job)
      return;
   job->build.count = infoCount;
   job->build.builds = (struct vkppu_as_build *)(void *)(job + 1);
   uint8_t *arrays = (uint8_t *)(job->build.builds + infoCount);
   for (uint32_t i = 0; i < infoCount; i++) {
      vkppu_as_build_capture(&pInfos[i], ranges ? ranges[i] : NULL, indirect ? indirect[i] : 0,
                             strides ? strides[i] : 0, max_counts ? max_counts[i] : NULL, false,
                             arrays, &job->build.builds[i]);
      arrays += vkppu_as_build_capture_size(&pInfos[i], indirect != NULL);
   }
   vkppu_cmd_add_host_job(cmd, &job->base);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdBuildAccelerationStructuresKHR(
    VkCommandBuffer commandBuffer, uint32_t infoCount,
    const VkAccelerationStructureBuildGeometryInfoKHR *pInfos,
    const VkAccelerationStructureBuildRangeInfoKHR *const *ppBuildRangeInfos)
{
   record_builds(commandBuffer, infoCount, pInfos, ppBuildRangeInfos, NULL, NULL, NULL);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdBuildAccelerationStructuresIndirectKHR(
    VkCommandBuffer commandBuffer, uint32_t infoCount,
    const VkAccelerationStructureBuildGeometryInfoKHR *pInfos,
    const VkDeviceAddress *pIndirectDeviceAddresses, const uint32_t *pIndirectStrides,
    const uint32_t *const *ppMaxPrimitiveCounts)
{
   record_builds(commandBuffer, infoCount, pInfos, NULL, pIndirectDeviceAddresses, pIndirectStrides,
                 ppMaxPrimitiveCounts);
}

static void record_copy(VkCommandBuffer commandBuffer, const struct vkppu_as_copy *copy)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   struct as_job *job = new_job(cmd, AS_JOB_COPY, 0);
   if (!job)
      return;
   job->copy = *copy;
   vkppu_cmd_add_host_job(cmd, &job->base);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdCopyAccelerationStructureKHR(
    VkCommandBuffer commandBuffer, const VkCopyAccelerationStructureInfoKHR *pInfo)
{
   struct vkppu_as_copy copy;
   vkppu_as_copy_from_info(pInfo, &copy);
   record_copy(commandBuffer, &copy);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdCopyAccelerationStructureToMemoryKHR(
    VkCommandBuffer commandBuffer, const VkCopyAccelerationStructureToMemoryInfoKHR *pInfo)
{
   struct vkppu_as_copy copy;
   vkppu_as_copy_to_memory(pInfo->src, pInfo->dst.deviceAddress, &copy);
   record_copy(commandBuffer, &copy);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdCopyMemoryToAccelerationStructureKHR(
    VkCommandBuffer commandBuffer, const VkCopyMemoryToAccelerationStructureInfoKHR *pInfo)
{
   struct vkppu_as_copy copy;
   vkppu_as_copy_from_memory(pInfo->src.deviceAddress, pInfo->dst, &copy);
   record_copy(commandBuffer, &copy);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdWriteAccelerationStructuresPropertiesKHR(
    VkCommandBuffer commandBuffer, uint32_t accelerationStructureCount,
    const VkAccelerationStructureKHR *pAccelerationStructures, VkQueryType queryType,
    VkQueryPool queryPool, uint32_t firstQuery)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   const struct vkppu_query_pool *pool = vkppu_query_pool_from_handle(queryPool);
   if (!pool || firstQuery > pool->count || accelerationStructureCount > pool->count - firstQuery)
      return; /* invalid usage; never write outside the pool */
   struct as_job *job =
       new_job(cmd, AS_JOB_PROPERTIES, accelerationStructureCount * 2 * sizeof(uint64_t));
   if (!job)
      return;
   job->properties.type = queryType;
   job->properties.count = accelerationStructureCount;
   job->properties.structures = (uint64_t *)(void *)(job + 1);
   job->properties.first_record_va = vkppu_query_record_va(pool, firstQuery);
   for (uint32_t i = 0; i < accelerationStructureCount; i++) {
      const struct vkppu_acceleration_structure *as =
          vkppu_acceleration_structure_from_handle(pAccelerationStructures[i]);
      job->properties.structures[2 * i] = vkppu_as_address(as);
      job->properties.structures[2 * i + 1] = as ? as->size : 0;
   }
   vkppu_cmd_add_host_job(cmd, &job->base);
}
