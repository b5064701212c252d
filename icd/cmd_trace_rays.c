/* vkCmdTraceRaysKHR, vkCmdTraceRaysIndirectKHR and
 * vkCmdSetRayTracingPipelineStackSizeKHR (docs/ray-tracing-pipeline.md).
 *
 * A trace is a compute grid of the bound ray-tracing pipeline's program:
 * workgroups of DRV_RT_WORKGROUP_X x DRV_RT_WORKGROUP_Y invocations (one
 * warp, an 8 x 4 tile of the launch) cover the launch, and constant bank 0
 * carries, after the compute layout, the four shader binding table regions
 * and the launch size (driver/shader_abi.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "gpu_memory.h"
#include "host_job.h"
#include "method_encoder.h"
#include "ppu/qmd.h"
#include "va_access.h"
#include "vkppu_cmd_buffer.h"
#include "vkppu_pipeline.h"

static uint32_t groups_for(uint32_t size, uint32_t tile)
{
   return (uint32_t)(((uint64_t)size + tile - 1) / tile);
}

static void put_u64(uint8_t *cbank, uint32_t offset, uint64_t v)
{
   memcpy(cbank + offset, &v, sizeof(v));
}

static void put_u32(uint8_t *cbank, uint32_t offset, uint32_t v)
{
   memcpy(cbank + offset, &v, sizeof(v));
}

static void write_regions(uint8_t *cbank, const VkStridedDeviceAddressRegionKHR *raygen,
                          const VkStridedDeviceAddressRegionKHR *miss,
                          const VkStridedDeviceAddressRegionKHR *hit,
                          const VkStridedDeviceAddressRegionKHR *callable)
{
   put_u64(cbank, DRV_ABI_CBANK_RT_RAYGEN, raygen ? raygen->deviceAddress : 0);
   put_u64(cbank, DRV_ABI_CBANK_RT_MISS, miss ? miss->deviceAddress : 0);
   put_u64(cbank, DRV_ABI_CBANK_RT_HIT, hit ? hit->deviceAddress : 0);
   put_u64(cbank, DRV_ABI_CBANK_RT_CALLABLE, callable ? callable->deviceAddress : 0);
   /* Strides are at most maxShaderGroupStride, so 32 bits hold them. */
   put_u32(cbank, DRV_ABI_CBANK_RT_MISS_STRIDE, miss ? (uint32_t)miss->stride : 0);
   put_u32(cbank, DRV_ABI_CBANK_RT_HIT_STRIDE, hit ? (uint32_t)hit->stride : 0);
   put_u32(cbank, DRV_ABI_CBANK_RT_CALLABLE_STRIDE, callable ? (uint32_t)callable->stride : 0);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdTraceRaysKHR(
    VkCommandBuffer commandBuffer, const VkStridedDeviceAddressRegionKHR *pRaygenShaderBindingTable,
    const VkStridedDeviceAddressRegionKHR *pMissShaderBindingTable,
    const VkStridedDeviceAddressRegionKHR *pHitShaderBindingTable,
    const VkStridedDeviceAddressRegionKHR *pCallableShaderBindingTable, uint32_t width,
    uint32_t height, uint32_t depth)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   if (!width || !height || !depth)
      return; /* nothing to launch */
   const uint32_t base[3] = {0, 0, 0};
   const uint32_t count[3] = {groups_for(width, DRV_RT_WORKGROUP_X),
                              groups_for(height, DRV_RT_WORKGROUP_Y), depth};
   uint8_t *cbank = NULL;
   if (!vkppu_prepare_grid(cmd, &cmd->ray_tracing, base, count, DRV_ABI_RT_CBANK0_SIZE, &cbank))
      return;
   write_regions(cbank, pRaygenShaderBindingTable, pMissShaderBindingTable, pHitShaderBindingTable,
                 pCallableShaderBindingTable);
   const uint32_t launch[3] = {width, height, depth};
   memcpy(cbank + DRV_ABI_CBANK_RT_LAUNCH_SIZE, launch, sizeof(launch));
   vkppu_emit_launch(cmd, false);
}

/* vkCmdTraceRaysIndirectKHR: the launch size is in device memory when the
 * command runs, and the grid must be derived from it (rounded up to whole
 * 8 x 4 tiles), which no engine of the chip computes. A host-assisted job
 * (driver/host_job.h) at that point of the stream reads the
 * VkTraceRaysIndirectCommandKHR and writes the grid for LAUNCH_INDIRECT
 * and the launch size into the grid's constant bank 0;
 * vkCmdTraceRaysIndirect2KHR's VkTraceRaysIndirectCommand2KHR also holds
 * the SBT regions, which the job writes there too. */
struct trace_indirect_job {
   struct drv_host_job base;
   uint64_t command_va; /* VkTraceRaysIndirectCommandKHR or ...Command2KHR */
   uint64_t grid_va;    /* struct ppu_dispatch_indirect */
   uint64_t cbank_va;   /* the grid's constant bank 0 */
   bool with_regions;   /* Command2: the SBT regions come with the size */
   const char *command; /* for messages */
};

static bool run_trace_indirect(struct drv_host_job *base, struct drv_device *dev, char *why,
                               size_t why_size)
{
   struct trace_indirect_job *job = (struct trace_indirect_job *)base;
   VkTraceRaysIndirectCommand2KHR c2;
   uint32_t launch[3];
   uint64_t bad = 0;
   bool read = job->with_regions ? drv_va_read(dev, job->command_va, &c2, sizeof(c2), &bad)
                                 : drv_va_read(dev, job->command_va, launch, sizeof(launch), &bad);
   if (!read) {
      snprintf(why, why_size,
               "%s: the command at 0x%" PRIx64 " cannot be read (address 0x%" PRIx64
               " is not mapped)",
               job->command, job->command_va, bad);
      return false;
   }
   uint8_t regions[DRV_ABI_RT_CBANK0_SIZE];
   if (job->with_regions) {
      /* The same layout vkCmdTraceRaysKHR writes when it is recorded. */
      const VkStridedDeviceAddressRegionKHR raygen = {c2.raygenShaderRecordAddress,
                                                      c2.raygenShaderRecordSize,
                                                      c2.raygenShaderRecordSize},
                                            miss = {c2.missShaderBindingTableAddress,
                                                    c2.missShaderBindingTableStride,
                                                    c2.missShaderBindingTableSize},
                                            hit = {c2.hitShaderBindingTableAddress,
                                                   c2.hitShaderBindingTableStride,
                                                   c2.hitShaderBindingTableSize},
                                            callable = {c2.callableShaderBindingTableAddress,
                                                        c2.callableShaderBindingTableStride,
                                                        c2.callableShaderBindingTableSize};
      memset(regions, 0, sizeof(regions));
      write_regions(regions, &raygen, &miss, &hit, &callable);
      launch[0] = c2.width;
      launch[1] = c2.height;
      launch[2] = c2.depth;
   }
   struct ppu_dispatch_indirect grid = {groups_for(launch[0], DRV_RT_WORKGROUP_X),
                                        groups_for(launch[1], DRV_RT_WORKGROUP_Y), launch[2]};
   bool written = drv_va_write(dev, job->grid_va, &grid, sizeof(grid), &bad) &&
                  drv_va_write(dev, job->cbank_va + DRV_ABI_CBANK_RT_LAUNCH_SIZE, launch,
                               sizeof(launch), &bad) &&
                  (!job->with_regions ||
                   drv_va_write(dev, job->cbank_va + DRV_ABI_CBANK_RT_RAYGEN,
                                regions + DRV_ABI_CBANK_RT_RAYGEN,
                                DRV_ABI_CBANK_RT_LAUNCH_SIZE - DRV_ABI_CBANK_RT_RAYGEN, &bad));
   if (!written) {
      snprintf(why, why_size, "%s: cannot write 0x%" PRIx64, job->command, bad);
      return false;
   }
   return true;
}

static void destroy_trace_indirect(struct drv_host_job *base)
{
   free(base); /* may outlive its command buffer, like every job */
}

/* An indirect trace: the grid and (Command2) the regions come from the
 * command at indirect_va when the trace executes. */
static void trace_indirect(struct vkppu_command_buffer *cmd,
                           const VkStridedDeviceAddressRegionKHR *regions[4],
                           VkDeviceAddress indirect_va, const char *command)
{
   uint64_t grid_va;
   void *grid_map;
   if (!vkppu_cmd_upload_alloc(cmd, sizeof(struct ppu_dispatch_indirect), 16, &grid_va, &grid_map))
      return;
   memset(grid_map, 0, sizeof(struct ppu_dispatch_indirect));
   const uint32_t zero[3] = {0, 0, 0};
   uint8_t *cbank = NULL;
   uint64_t cbank_va =
       vkppu_prepare_grid(cmd, &cmd->ray_tracing, zero, zero, DRV_ABI_RT_CBANK0_SIZE, &cbank);
   if (!cbank_va)
      return;
   if (regions)
      write_regions(cbank, regions[0], regions[1], regions[2], regions[3]);
   struct trace_indirect_job *job = calloc(1, sizeof(*job));
   if (!job) {
      if (cmd->pb.error == DRV_SUCCESS)
         cmd->pb.error = DRV_ERROR_OUT_OF_HOST_MEMORY;
      return;
   }
   drv_host_job_init(&job->base, "ray-tracing indirect launch size", run_trace_indirect,
                     destroy_trace_indirect);
   job->command_va = indirect_va;
   job->grid_va = grid_va;
   job->cbank_va = cbank_va;
   job->with_regions = regions == NULL;
   job->command = command;
   vkppu_cmd_add_host_job(cmd, &job->base);
   uint32_t *p = drv_pushbuf_reserve(&cmd->pb, 3);
   if (!p)
      return;
   p[0] = PPU_MTHD_HDR(PPU_MTHD_INCR, PPU_SUBCH_COMPUTE, PPU_COMPUTE_INDIRECT_ADDR_LO, 2);
   p[1] = drv_lo32(grid_va);
   p[2] = drv_hi32(grid_va);
   drv_pushbuf_commit(&cmd->pb, p + 3);
   vkppu_emit_launch(cmd, true);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdTraceRaysIndirectKHR(
    VkCommandBuffer commandBuffer, const VkStridedDeviceAddressRegionKHR *pRaygenShaderBindingTable,
    const VkStridedDeviceAddressRegionKHR *pMissShaderBindingTable,
    const VkStridedDeviceAddressRegionKHR *pHitShaderBindingTable,
    const VkStridedDeviceAddressRegionKHR *pCallableShaderBindingTable,
    VkDeviceAddress indirectDeviceAddress)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   const VkStridedDeviceAddressRegionKHR *regions[4] = {
       pRaygenShaderBindingTable, pMissShaderBindingTable, pHitShaderBindingTable,
       pCallableShaderBindingTable};
   trace_indirect(cmd, regions, indirectDeviceAddress, "vkCmdTraceRaysIndirectKHR");
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdTraceRaysIndirect2KHR(VkCommandBuffer commandBuffer,
                                                          VkDeviceAddress indirectDeviceAddress)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   trace_indirect(cmd, NULL, indirectDeviceAddress, "vkCmdTraceRaysIndirect2KHR");
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdSetRayTracingPipelineStackSizeKHR(VkCommandBuffer commandBuffer,
                                                                      uint32_t pipelineStackSize)
{
   /* Used by the traces that follow with a pipeline of the dynamic state
    * (vkppu_prepare_grid); beyond what a thread's local memory holds, a
    * trace gets what fits and a deeper call faults the channel. */
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   cmd->rt_stack_size = pipelineStackSize;
}
