/* A grid in flight: the validated QMD as the SMs use it, snapshots of its
 * constant banks, and the state every SM of the chip shares while the grid
 * runs (the first fault, the abort flag and the watchdog counts).
 *
 * The grid is written by the compute engine before the worker threads are
 * started on it and is read-only to them afterwards, except for the fields
 * marked shared, which are atomics or under fault_lock.
 */
#ifndef PPU_COMPUTE_GRID_H
#define PPU_COMPUTE_GRID_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "ppu/gpu.h"
#include "ppu/qmd.h"
#include "timer.h"

struct ppu_grid {
   uint64_t pd_pa; /* the launching channel's address space */
   uint64_t program_va;
   uint32_t register_count;
   uint32_t shared_size; /* bytes per workgroup */
   uint32_t local_size;  /* bytes per thread */
   uint32_t workgroup_size[3];
   uint32_t grid_size[3];
   uint32_t grid_base[3];
   uint32_t threads_per_workgroup;
   uint32_t warps_per_workgroup;
   uint64_t workgroup_count;
   /* How many workgroups of this grid one SM holds at once: the tightest of
    * the SM's warp, register, shared-memory and workgroup-slot limits. */
   uint32_t workgroups_per_sm;
   struct ppu_qmd_ray_cost ray_cost;    /* profiling side channel (ppu/qmd.h); va 0 = off */
   uint8_t *cbank[PPU_QMD_CBANK_COUNT]; /* host snapshots, NULL when size is 0 */
   uint32_t cbank_size[PPU_QMD_CBANK_COUNT];
   uint64_t watchdog_budget; /* warp instructions; 0 = none */
   /* Instructions one warp may issue; 0 = none. A shader that never ends
    * trips it however long legitimate grids run, since their warps end all
    * along (docs/compute.md, "Watchdog and cancellation"). */
   uint64_t watchdog_per_warp;
   const struct ppu_timer *timer;
   /* The program's translation entry (compute/jit.h); NULL: interpreted. */
   struct ppu_jit_program *jit;

   /* A flag the grid's channel raises when it is destroyed, for grids its
    * destroyer cannot reach otherwise (a draw's programs, running inside
    * the channel's turn); NULL for compute grids, which
    * ppu_compute_engine_channel_finish cancels itself. */
   const _Atomic bool *cancel;

   /* Shared by the SMs. */
   _Atomic uint64_t warp_instructions; /* for the watchdog, added in batches */
   _Atomic bool abort;                 /* a fault happened: every SM stops */
   pthread_mutex_t fault_lock;
   bool faulted;
   struct ppu_fault fault; /* the first fault, under fault_lock */
};

/* A warp's WATCHDOG budget: the warps resident at once share
 * compute.watchdog_resident_instructions (default 2^26), each taking it
 * divided by how many of the grid's warps the chip holds at once, or
 * compute.watchdog_instructions_per_warp if that is more. A grid of a few
 * warps may then loop long (a conformance shader that walks a whole image
 * in one warp issues 0.6 M instructions; a robustness2 case's one warp
 * issues more than 2^25), while a full chip of hung warps stops after 2^26
 * instructions in all (a few seconds here), as one hung warp does. */
static inline uint64_t ppu_grid_watchdog_per_warp(const struct ppu_grid *g, uint64_t per_warp,
                                                  uint64_t resident_total, uint32_t sm_count)
{
   if (!per_warp)
      return 0;
   uint64_t workgroups = (uint64_t)g->workgroups_per_sm * sm_count;
   if (workgroups > g->workgroup_count)
      workgroups = g->workgroup_count;
   uint64_t resident = workgroups * g->warps_per_workgroup;
   uint64_t share = resident_total / (resident ? resident : 1);
   return share > per_warp ? share : per_warp;
}

/* Records f as the grid's fault unless an earlier one is there, and tells
 * every SM to stop. Any thread. */
void ppu_grid_report_fault(struct ppu_grid *g, const struct ppu_fault *f);
/* Tells every SM to stop without a fault: the grid's results are no longer
 * wanted (its channel is being destroyed). SMs stop between warp runs. Any
 * thread. */
void ppu_grid_cancel(struct ppu_grid *g);

static inline bool ppu_grid_aborted(const struct ppu_grid *g)
{
   return atomic_load_explicit(&g->abort, memory_order_relaxed) ||
          (g->cancel && atomic_load_explicit(g->cancel, memory_order_relaxed));
}

#endif /* PPU_COMPUTE_GRID_H */
