/* QMD validation: turns a QMD read from memory into a grid the SMs can run,
 * or a BAD_METHOD_DATA fault naming the first field it rejects. Nothing in
 * a QMD is trusted: every size that later becomes a host allocation or an
 * index is bounded here. */
#include "compute/qmd_validate.h"

#include <string.h>

#include "fault.h"
#include "ppu/isa.h"

/* Host memory one SM may spend on local memory for its resident threads:
 * enough for one workgroup of the largest size with the largest local
 * memory (1024 threads x PPU_QMD_LOCAL_MAX_SIZE), so every valid QMD fits. */
#define LOCAL_BYTES_PER_SM_MAX ((uint64_t)PPU_QMD_MAX_WORKGROUP_INVOCATIONS * PPU_QMD_LOCAL_MAX_SIZE)

#define REJECT(...)                                                                                \
   do {                                                                                            \
      ppu_fault_set(fault, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_COMPUTE, __VA_ARGS__);            \
      return false;                                                                                \
   } while (0)

static uint32_t min_u32(uint32_t a, uint64_t b)
{
   return b < a ? (uint32_t)b : a;
}

bool ppu_qmd_validate(const struct ppu_qmd *q, const struct ppu_gpu_config *cfg, struct ppu_grid *g,
                      struct ppu_fault *fault)
{
   if (q->version != PPU_QMD_VERSION)
      REJECT("QMD version %u, expected %u", q->version, PPU_QMD_VERSION);
   if (q->flags)
      REJECT("QMD flags 0x%x: no flag is defined", q->flags);
   if (q->program_va % PPU_INSN_BYTES || q->program_va == 0)
      REJECT("QMD program VA 0x%llx is zero or not 16-byte aligned",
             (unsigned long long)q->program_va);
   if (q->register_count == 0 || q->register_count > PPU_REG_COUNT_MAX)
      REJECT("QMD register count %u outside 1..%u", q->register_count, PPU_REG_COUNT_MAX);
   if (q->shared_memory_size % 16 || q->shared_memory_size > cfg->shared_memory_per_sm)
      REJECT("QMD shared memory %u bytes: not a multiple of 16 or above the SM's %u",
             q->shared_memory_size, cfg->shared_memory_per_sm);
   if (q->local_memory_size % 16 || q->local_memory_size > PPU_QMD_LOCAL_MAX_SIZE)
      REJECT("QMD local memory %u bytes per thread: not a multiple of 16 or above %u",
             q->local_memory_size, PPU_QMD_LOCAL_MAX_SIZE);
   uint64_t threads = 1;
   for (int i = 0; i < 3; i++) {
      if (q->workgroup_size[i] == 0 || q->workgroup_size[i] > PPU_QMD_MAX_WORKGROUP_INVOCATIONS)
         REJECT("QMD workgroup size[%d] = %u outside 1..%u", i, q->workgroup_size[i],
                PPU_QMD_MAX_WORKGROUP_INVOCATIONS);
      threads *= q->workgroup_size[i];
      if ((uint64_t)q->grid_base[i] + q->grid_size[i] > 0xffffffffull)
         REJECT("QMD grid base[%d] %u + size %u overflows 32 bits", i, q->grid_base[i],
                q->grid_size[i]);
   }
   if (threads > PPU_QMD_MAX_WORKGROUP_INVOCATIONS)
      REJECT("QMD workgroup of %llu threads, more than %u", (unsigned long long)threads,
             PPU_QMD_MAX_WORKGROUP_INVOCATIONS);
   for (int i = 0; i < (int)PPU_QMD_CBANK_COUNT; i++) {
      const struct ppu_qmd_cbank *b = &q->cbank[i];
      if (b->reserved)
         REJECT("QMD constant bank %d reserved word is 0x%x", i, b->reserved);
      if (b->size % 16 || b->size > PPU_QMD_CBANK_MAX_SIZE)
         REJECT("QMD constant bank %d size %u: not a multiple of 16 or above %u", i, b->size,
                PPU_QMD_CBANK_MAX_SIZE);
      if (b->size && b->va % 16)
         REJECT("QMD constant bank %d VA 0x%llx not 16-byte aligned", i, (unsigned long long)b->va);
   }
   for (size_t i = 0; i < sizeof(q->reserved) / 4; i++)
      if (q->reserved[i])
         REJECT("QMD reserved word %zu is not 0", i);
   const struct ppu_qmd_ray_cost *rc = &q->ray_cost;
   if (rc->reserved)
      REJECT("QMD ray cost reserved word is 0x%x", rc->reserved);
   if (rc->va == 0 && (rc->pitch || rc->width || rc->height))
      REJECT("QMD ray cost buffer is off (VA 0) but its pitch or size is not 0");
   if (rc->va && (rc->va % 4 || rc->width == 0 || rc->height == 0 || rc->pitch < rc->width))
      REJECT("QMD ray cost buffer VA 0x%llx, pitch %u, %ux%u: VA not 4-byte aligned, a size of "
             "0 or pitch below width",
             (unsigned long long)rc->va, rc->pitch, rc->width, rc->height);

   memset(g, 0, sizeof(*g));
   g->program_va = q->program_va;
   g->register_count = q->register_count;
   g->shared_size = q->shared_memory_size;
   g->local_size = q->local_memory_size;
   memcpy(g->workgroup_size, q->workgroup_size, sizeof(g->workgroup_size));
   memcpy(g->grid_size, q->grid_size, sizeof(g->grid_size));
   memcpy(g->grid_base, q->grid_base, sizeof(g->grid_base));
   g->ray_cost = *rc;
   g->threads_per_workgroup = (uint32_t)threads;
   g->warps_per_workgroup = (uint32_t)((threads + PPU_WARP_SIZE - 1) / PPU_WARP_SIZE);
   g->workgroup_count = (uint64_t)q->grid_size[0] * q->grid_size[1] * q->grid_size[2];

   /* How many workgroups fit on one SM at once: each resource limit of the
    * SM, the tightest wins. */
   uint64_t regs_per_wg = (uint64_t)g->warps_per_workgroup * PPU_WARP_SIZE * g->register_count;
   uint32_t fit = cfg->max_workgroups_per_sm;
   fit = min_u32(fit, cfg->max_warps_per_sm / g->warps_per_workgroup);
   fit = min_u32(fit, cfg->registers_per_sm / regs_per_wg);
   if (g->shared_size)
      fit = min_u32(fit, cfg->shared_memory_per_sm / g->shared_size);
   if (g->local_size)
      fit = min_u32(fit, LOCAL_BYTES_PER_SM_MAX / ((uint64_t)threads * g->local_size));
   if (fit == 0)
      REJECT("a workgroup (%u warps, %llu registers, %u bytes shared) does not fit on an SM",
             g->warps_per_workgroup, (unsigned long long)regs_per_wg, g->shared_size);
   g->workgroups_per_sm = fit;
   return true;
}
