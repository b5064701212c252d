#include "ttu/ttu_ray_cost.h"

#include <stdatomic.h>
#include <stdlib.h>

#include "counter_block.h"
#include "mmu.h"
#include "ttu/ttu.h"

/* A translation port of its own, so the SM's TLB keeps exactly the entries
 * it would have without profiling, and a block its TLB counts go to that
 * nobody reads. Allocated on first use: only profiled grids pay for it. */
struct ppu_ttu_ray_cost_port {
   struct ppu_mmu_client mmu;
   struct ppu_counter_block unread;
};

static struct ppu_ttu_ray_cost_port *port_of(struct ppu_ttu *ttu)
{
   if (!ttu->ray_cost) {
      struct ppu_ttu_ray_cost_port *p = calloc(1, sizeof(*p));
      if (!p)
         return NULL;
      ppu_mmu_client_init(&p->mmu, ttu->l0.mmu->mmu, PPU_ENGINE_COMPUTE);
      p->mmu.counters = &p->unread;
      ttu->ray_cost = p;
   }
   return ttu->ray_cost;
}

void ppu_ttu_ray_cost_add(struct ppu_ttu *ttu, uint64_t pd_pa, const struct ppu_qmd_ray_cost *rc,
                          uint32_t x, uint32_t y, uint32_t nodes)
{
   if (!nodes || x >= rc->width || y >= rc->height)
      return;
   struct ppu_ttu_ray_cost_port *p = port_of(ttu);
   if (!p)
      return;
   uint64_t va = rc->va + ((uint64_t)y * rc->pitch + x) * 4u;
   uint64_t pa;
   struct ppu_fault fault;
   if (!ppu_mmu_translate(&p->mmu, pd_pa, va, true, &pa, &fault))
      return;
   /* Atomic: in functional mode SMs run on several host threads, and a
    * grid with z > 1 has several invocations per word. */
   _Atomic uint32_t *word = (_Atomic uint32_t *)(void *)ppu_mmu_host_ptr(p->mmu.mmu, pa);
   atomic_fetch_add_explicit(word, nodes, memory_order_relaxed);
}

void ppu_ttu_ray_cost_finish(struct ppu_ttu *ttu)
{
   free(ttu->ray_cost);
   ttu->ray_cost = NULL;
}
