/* The compute work distribution unit (CWDU) of the beam-tracing seed's PPU:
 * "the compute work distribution unit manages a pending task pool and an
 * active task pool for each of the GPCs. The pending task pool may comprise
 * a number of slots (e.g. 16 slots) ... The active task pool may comprise a
 * number of slots (e.g. 4 slots) for tasks that are actively being processed
 * by the GPCs. As a GPC finishes the execution of a task that task is
 * evicted from the active task pool ... and one of the other tasks from the
 * pending task pool is selected and scheduled."
 *
 * A task is one grid. Submitting it places it in every GPC's pending pool
 * (its workgroups spread over the whole chip); a GPC's SMs take workgroups
 * from the tasks in that GPC's active pool, in linear workgroup order shared
 * by all GPCs. A task whose workgroups are all handed out is evicted from
 * the GPC's active pool and a pending task is promoted. Evicting an idle
 * task back to pending (the seed's data-dependency case) has no cause in
 * functional mode and is left to the timing mode.
 *
 * Any thread; the pools are under lock.
 */
#ifndef PPU_COMPUTE_CWDU_H
#define PPU_COMPUTE_CWDU_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "compute/grid.h"

#define PPU_CWDU_PENDING_SLOTS 16u
#define PPU_CWDU_ACTIVE_SLOTS 4u

struct ppu_cwdu_task {
   struct ppu_grid *grid;
   uint64_t next_workgroup; /* under the CWDU lock */
};

struct ppu_cwdu_gpc_pools {
   struct ppu_cwdu_task *pending[PPU_CWDU_PENDING_SLOTS];
   uint32_t pending_count;
   struct ppu_cwdu_task *active[PPU_CWDU_ACTIVE_SLOTS];
   uint32_t active_count;
};

struct ppu_cwdu {
   pthread_mutex_t lock;
   uint32_t gpc_count;
   struct ppu_cwdu_gpc_pools *gpc;
};

/* 0 or an errno value. */
int ppu_cwdu_init(struct ppu_cwdu *c, uint32_t gpc_count);
void ppu_cwdu_finish(struct ppu_cwdu *c);
/* Places the task in every GPC's pending pool; false when a pool is full. */
bool ppu_cwdu_submit(struct ppu_cwdu *c, struct ppu_cwdu_task *task);
/* The next workgroup for an SM of gpc: its task's grid and linear index.
 * False when no active or pending task of the GPC has workgroups left. */
bool ppu_cwdu_take_workgroup(struct ppu_cwdu *c, uint32_t gpc, struct ppu_grid **grid,
                             uint64_t *index);
/* Removes the task from every pool (after it ended or faulted). */
void ppu_cwdu_retire(struct ppu_cwdu *c, struct ppu_cwdu_task *task);

#endif /* PPU_COMPUTE_CWDU_H */
