/* Dispatch commands: vkCmdDispatch, vkCmdDispatchBase (VK_KHR_device_group,
 * reported because VK_KHR_buffer_device_address needs it on a 1.0 device)
 * and vkCmdDispatchIndirect.
 *
 * Each dispatch writes, into the command buffer's upload memory, a QMD
 * (hw/include/ppu/qmd.h) and constant bank 0 (driver/shader_abi.h: push
 * constants, set addresses, dynamic offsets, workgroup count) — a snapshot
 * of the compute state at the time of recording, as Vulkan requires — then
 * emits QMD_ADDR and LAUNCH (or LAUNCH_INDIRECT) on the compute subchannel.
 * LAUNCH returns only after the grid has ended, and pipeline barriers emit
 * WAIT_FOR_IDLE, so no ordering beyond that is needed here. */
#include "gpu_memory.h"
#include "method_encoder.h"
#include "ppu/qmd.h"
#include "vkppu_cmd_buffer.h"
#include "vkppu_memory.h"
#include "vkppu_pipeline.h"
#include "vkppu_ray_cost.h"

/* Local memory per thread: the program's, or for a ray-tracing pipeline
 * with a dynamic stack size, what is below its stack plus the size the
 * command buffer set (at most what a thread may have). */
static uint32_t local_memory_size(const struct vkppu_command_buffer *cmd,
                                  const struct vkppu_pipeline *pipe)
{
   if (!pipe->rt_dynamic_stack)
      return pipe->program.local_memory_size;
   uint64_t size = (uint64_t)pipe->rt_static_local + cmd->rt_stack_size;
   if (size > PPU_QMD_LOCAL_MAX_SIZE) {
      vkppu_report(cmd->base.device->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
                   "vkCmdTraceRays*: a stack of %u bytes does not fit the %u bytes of local "
                   "memory a thread may have; the trace gets %u",
                   cmd->rt_stack_size, PPU_QMD_LOCAL_MAX_SIZE,
                   PPU_QMD_LOCAL_MAX_SIZE - pipe->rt_static_local);
      size = PPU_QMD_LOCAL_MAX_SIZE;
   }
   return ((uint32_t)size + 15) & ~15u;
}

uint64_t vkppu_prepare_grid(struct vkppu_command_buffer *cmd, const struct vkppu_bind_state *state,
                            const uint32_t base[3], const uint32_t count[3], uint32_t cbank_size,
                            uint8_t **cbank_map)
{
   const struct vkppu_pipeline *pipe = state->pipeline;
   if (!pipe)
      return 0; /* VUID-vkCmdDispatch-None-08606: a pipeline must be bound */
   uint64_t va;
   void *map;
   if (!vkppu_cmd_upload_alloc(cmd, PPU_QMD_SIZE + cbank_size, PPU_QMD_ALIGN, &va, &map))
      return 0;
   uint64_t cbank_va = va + PPU_QMD_SIZE;
   uint8_t *cbank = (uint8_t *)map + PPU_QMD_SIZE;
   memset(cbank, 0, cbank_size);
   memcpy(cbank + DRV_ABI_CBANK_PUSH_CONSTANTS, state->push_constants, DRV_ABI_PUSH_CONSTANTS_SIZE);
   memcpy(cbank + DRV_ABI_CBANK_SET_ADDRESSES, state->set_va, sizeof(state->set_va));
   memcpy(cbank + DRV_ABI_CBANK_DYNAMIC_OFFSETS, state->dynamic_offsets,
          sizeof(state->dynamic_offsets));
   uint32_t groups[4] = {count[0], count[1], count[2], 0};
   memcpy(cbank + DRV_ABI_CBANK_NUM_WORKGROUPS, groups, sizeof(groups));

   const struct vkppu_program_info *prog = &pipe->program;
   struct ppu_qmd qmd = {
       .version = PPU_QMD_VERSION,
       .program_va = pipe->code_bo->va,
       .register_count = prog->register_count,
       .shared_memory_size = prog->shared_memory_size,
       .local_memory_size = local_memory_size(cmd, pipe),
       .workgroup_size = {prog->workgroup_size[0], prog->workgroup_size[1],
                          prog->workgroup_size[2]},
       .grid_size = {count[0], count[1], count[2]},
       .grid_base = {base[0], base[1], base[2]},
   };
   qmd.cbank[0] = (struct ppu_qmd_cbank){.va = cbank_va, .size = cbank_size};
   /* A zero count is an indirect launch: its size comes at execution. */
   const uint64_t threads[2] = {(uint64_t)(base[0] + count[0]) * qmd.workgroup_size[0],
                                (uint64_t)(base[1] + count[1]) * qmd.workgroup_size[1]};
   vkppu_ray_cost_fill_qmd(cmd->base.device, &qmd, count[0] ? threads : NULL);
   memcpy(map, &qmd, sizeof(qmd));

   uint32_t *p = drv_pushbuf_reserve(&cmd->pb, 3);
   if (!p)
      return 0;
   p[0] = PPU_MTHD_HDR(PPU_MTHD_INCR, PPU_SUBCH_COMPUTE, PPU_COMPUTE_QMD_ADDR_LO, 2);
   p[1] = drv_lo32(va);
   p[2] = drv_hi32(va);
   drv_pushbuf_commit(&cmd->pb, p + 3);
   if (cbank_map)
      *cbank_map = cbank;
   return cbank_va;
}

static uint64_t prepare_dispatch(struct vkppu_command_buffer *cmd, const uint32_t base[3],
                                 const uint32_t count[3])
{
   return vkppu_prepare_grid(cmd, &cmd->compute, base, count, DRV_ABI_CBANK0_SIZE, NULL);
}

void vkppu_emit_launch(struct vkppu_command_buffer *cmd, bool indirect)
{
   uint32_t *p = drv_pushbuf_reserve(&cmd->pb, 1);
   if (!p)
      return;
   p[0] = PPU_MTHD_HDR(PPU_MTHD_IMMD, PPU_SUBCH_COMPUTE,
                       indirect ? PPU_COMPUTE_LAUNCH_INDIRECT : PPU_COMPUTE_LAUNCH, 0);
   drv_pushbuf_commit(&cmd->pb, p + 1);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdDispatchBase(VkCommandBuffer commandBuffer, uint32_t baseGroupX,
                                                 uint32_t baseGroupY, uint32_t baseGroupZ,
                                                 uint32_t groupCountX, uint32_t groupCountY,
                                                 uint32_t groupCountZ)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   const uint32_t base[3] = {baseGroupX, baseGroupY, baseGroupZ};
   const uint32_t count[3] = {groupCountX, groupCountY, groupCountZ};
   /* A dispatch with a zero dimension does nothing (vkCmdDispatch); the
    * chip would run it as empty too, but there is no reason to send it. */
   if (!groupCountX || !groupCountY || !groupCountZ)
      return;
   if (prepare_dispatch(cmd, base, count))
      vkppu_emit_launch(cmd, false);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdDispatch(VkCommandBuffer commandBuffer, uint32_t groupCountX,
                                             uint32_t groupCountY, uint32_t groupCountZ)
{
   vkppu_CmdDispatchBase(commandBuffer, 0, 0, 0, groupCountX, groupCountY, groupCountZ);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdDispatchIndirect(VkCommandBuffer commandBuffer, VkBuffer buffer,
                                                     VkDeviceSize offset)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   const uint32_t zero[3] = {0, 0, 0};
   /* The grid size is only known when the command runs, so the QMD's
    * grid_size is replaced by LAUNCH_INDIRECT, and the copy engine puts the
    * same three counts into cbank 0's workgroup-count slot first (shaders
    * read gl_NumWorkGroups from there). */
   uint64_t cbank_va = prepare_dispatch(cmd, zero, zero);
   if (!cbank_va)
      return;
   uint64_t args = vkppu_buffer_address(buffer, offset);
   drv_emit_copy(&cmd->pb, cbank_va + DRV_ABI_CBANK_NUM_WORKGROUPS, args,
                 sizeof(struct ppu_dispatch_indirect));
   /* The copy must land before LAUNCH_INDIRECT snapshots the constant
    * banks; engines of a channel are ordered by WAIT_FOR_IDLE. */
   drv_emit_wait_for_idle(&cmd->pb);
   uint32_t *p = drv_pushbuf_reserve(&cmd->pb, 3);
   if (!p)
      return;
   p[0] = PPU_MTHD_HDR(PPU_MTHD_INCR, PPU_SUBCH_COMPUTE, PPU_COMPUTE_INDIRECT_ADDR_LO, 2);
   p[1] = drv_lo32(args);
   p[2] = drv_hi32(args);
   drv_pushbuf_commit(&cmd->pb, p + 3);
   vkppu_emit_launch(cmd, true);
}
