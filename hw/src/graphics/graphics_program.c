/* Program descriptors: fetch, checks, grid. */
#include "graphics/graphics_program.h"

#include <stdlib.h>
#include <string.h>

#include "compute/jit.h"
#include "compute/qmd_validate.h"
#include "fault.h"
#include "ppu/qmd.h"

#define REJECT(...)                                                                                \
   do {                                                                                            \
      ppu_fault_set(fault, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_GRAPHICS, __VA_ARGS__);           \
      return false;                                                                                \
   } while (0)

static const uint32_t known_flags = PPU_GFX_PROGRAM_WRITES_DEPTH | PPU_GFX_PROGRAM_MAY_DISCARD |
                                    PPU_GFX_PROGRAM_SIDE_EFFECTS | PPU_GFX_PROGRAM_EARLY_TESTS |
                                    PPU_GFX_PROGRAM_WRITES_SAMPLE_MASK |
                                    PPU_GFX_PROGRAM_DUAL_SOURCE | PPU_GFX_PROGRAM_POINT_COORD;

/* The lowest register count that holds the launch registers and the
 * outputs the descriptor declares. */
static uint32_t registers_needed(const struct ppu_gfx_program *d, bool fragment)
{
   if (!fragment)
      return PPU_GFX_VERTEX_LAUNCH_REGS;
   uint32_t n = PPU_GFX_FRAGMENT_LAUNCH_REGS;
   if (d->output_mask)
      n = n > 4u * (32u - (uint32_t)__builtin_clz(d->output_mask))
              ? n
              : 4u * (32u - (uint32_t)__builtin_clz(d->output_mask));
   if ((d->flags & PPU_GFX_PROGRAM_WRITES_DEPTH) && n <= PPU_GFX_FRAGMENT_DEPTH_REG)
      n = PPU_GFX_FRAGMENT_DEPTH_REG + 1;
   if ((d->flags & PPU_GFX_PROGRAM_WRITES_SAMPLE_MASK) && n <= PPU_GFX_FRAGMENT_SAMPLE_MASK_REG)
      n = PPU_GFX_FRAGMENT_SAMPLE_MASK_REG + 1;
   if ((d->flags & PPU_GFX_PROGRAM_MAY_DISCARD) && n <= PPU_GFX_FRAGMENT_COVERAGE_REG)
      n = PPU_GFX_FRAGMENT_COVERAGE_REG + 1;
   return n;
}

static bool check(const struct ppu_gfx_program *d, bool fragment, struct ppu_fault *fault)
{
   const char *kind = fragment ? "fragment" : "vertex";
   if (d->version != PPU_GFX_PROGRAM_VERSION)
      REJECT("%s program version %u, expected %u", kind, d->version, PPU_GFX_PROGRAM_VERSION);
   if (d->flags & ~known_flags || (!fragment && d->flags & ~PPU_GFX_PROGRAM_SIDE_EFFECTS))
      REJECT("%s program flags 0x%x: undefined for this stage", kind, d->flags);
   if (d->attribute_count > PPU_GFX_MAX_ATTRIBUTES)
      REJECT("%s program attribute count %u above %u", kind, d->attribute_count,
             PPU_GFX_MAX_ATTRIBUTES);
   if (!fragment && (d->output_mask || d->interpolation || d->centroid_mask))
      REJECT("vertex program: output_mask, interpolation and centroid_mask must be 0");
   if (fragment && d->output_mask >> PPU_GFX_COLOR_TARGETS)
      REJECT("fragment program output mask 0x%x names targets above 7", d->output_mask);
   for (unsigned s = 0; fragment && s < PPU_GFX_MAX_ATTRIBUTES; s++) {
      if (((d->interpolation >> (2 * s)) & 3u) > PPU_GFX_INTERP_FLAT)
         REJECT("fragment program interpolation of slot %u is undefined", s);
   }
   if (fragment && (d->flags & PPU_GFX_PROGRAM_POINT_COORD) &&
       d->point_coord_slot >= d->attribute_count)
      REJECT("fragment program point coordinate slot %u is not below its attribute count %u",
             d->point_coord_slot, d->attribute_count);
   if (!(fragment && (d->flags & PPU_GFX_PROGRAM_POINT_COORD)) && d->point_coord_slot)
      REJECT("%s program point_coord_slot %u without POINT_COORD", kind, d->point_coord_slot);
   for (size_t i = 0; i < sizeof(d->reserved0); i++)
      if (d->reserved0[i])
         REJECT("%s program reserved byte %zu is not 0", kind, i);
   if (d->register_count < registers_needed(d, fragment) && d->register_count)
      REJECT("%s program register count %u does not hold its launch registers and outputs "
             "(needs %u)",
             kind, d->register_count, registers_needed(d, fragment));
   return true;
}

bool gfx_program_load(struct ppu_compute_engine *ce, struct ppu_mmu_client *mmu, uint64_t pd_pa,
                      uint64_t va, bool fragment, struct gfx_program *p, struct ppu_fault *fault)
{
   memset(p, 0, sizeof(*p));
   const char *kind = fragment ? "fragment" : "vertex";
   if (va % PPU_GFX_PROGRAM_SIZE || (!fragment && va == 0))
      REJECT("%s program descriptor address 0x%llx is zero or not 256-byte aligned", kind,
             (unsigned long long)va);
   if (va == 0)
      return true; /* no fragment program: depth-only */
   if (!ppu_mmu_read(mmu, pd_pa, va, &p->desc, sizeof(p->desc), fault))
      return false;
   if (!check(&p->desc, fragment, fault))
      return false;
   /* The fields a QMD shares are checked by the QMD's rules: a grid of
    * one-warp workgroups, launched warp by warp by the engine. */
   struct ppu_qmd q;
   memset(&q, 0, sizeof(q));
   q.version = PPU_QMD_VERSION;
   q.program_va = p->desc.program_va;
   q.register_count = p->desc.register_count;
   q.local_memory_size = p->desc.local_memory_size;
   q.workgroup_size[0] = PPU_WARP_SIZE;
   q.workgroup_size[1] = q.workgroup_size[2] = 1;
   q.grid_size[0] = q.grid_size[1] = q.grid_size[2] = 1;
   memcpy(q.cbank, p->desc.cbank, sizeof(q.cbank));
   struct ppu_grid *g = calloc(1, sizeof(*g));
   if (!g)
      REJECT("out of host memory for the %s program", kind);
   if (!ppu_qmd_validate(&q, &ce->cfg, g, fault)) {
      free(g);
      fault->engine = PPU_ENGINE_GRAPHICS;
      return false;
   }
   pthread_mutex_init(&g->fault_lock, NULL);
   g->pd_pa = pd_pa;
   g->timer = ce->timer;
   g->watchdog_budget = ce->cfg.watchdog_warp_instructions;
   /* A draw runs its program's warps one at a time on an SM, so each may
    * take the whole resident share (a fragment shader that walks an image). */
   g->watchdog_per_warp = ppu_grid_watchdog_per_warp(g, ce->cfg.watchdog_instructions_per_warp,
                                                     ce->cfg.watchdog_resident_instructions, 1);
   if (!ppu_compute_load_constant_banks(ce, &q, g, fault)) {
      ppu_grid_free(g);
      return false;
   }
   g->jit = ppu_jit_program_get(ce->jit, pd_pa, g->program_va, g->register_count);
   p->grid = g;
   return true;
}

void gfx_program_release(struct gfx_program *p)
{
   if (p->grid)
      ppu_grid_free(p->grid);
   p->grid = NULL;
}
