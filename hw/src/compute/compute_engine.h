/* The compute engine (subchannel PPU_SUBCH_COMPUTE): the compute methods,
 * grid launch, and the host worker threads that run the chip's SMs.
 *
 * Shape of the chip (beam-tracing seed): GPCs of TPCs of SMs, counts from
 * ppu_gpu_config; the CWDU (cwdu.h) hands workgroups to SMs. Functional
 * mode runs the SMs on a pool of host worker threads (SM i belongs to
 * worker i mod N), each worker stepping its SMs round-robin; the timing
 * mode runs all of them on one worker, cycle by cycle (compute_timing.h).
 *
 * A LAUNCH executes on the host interface's model thread and returns when
 * every workgroup has ended or the grid faulted, so the channel proceeds
 * past LAUNCH only after the grid is complete.
 */
#ifndef PPU_COMPUTE_ENGINE_H
#define PPU_COMPUTE_ENGINE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compute/cwdu.h"
#include "compute/grid.h"
#include "compute/sm.h"
#include "counter_block.h"
#include "method_status.h"
#include "mmu.h"
#include "timer.h"
#include "timing/memory_system.h"

/* The compute subchannel's latched state of one channel. */
struct ppu_compute_context {
   uint64_t qmd_va;
   uint64_t indirect_va;
   /* The channel's grid while it runs on the workers. LAUNCH returns STALL
    * until it has ended, so the channel goes no further (work of a channel
    * completes in order) while the model thread serves other channels. */
   struct ppu_grid *in_flight;
   struct ppu_cwdu_task task;
};

struct ppu_compute_engine {
   struct ppu_mmu_client mmu; /* QMD, constant-bank and indirect fetch (model thread) */
   struct ppu_counter_block *counters;
   const struct ppu_timer *timer;
   struct ppu_gpu_config cfg;
   uint32_t sm_count;
   struct ppu_sm *sm;
   struct ppu_cwdu cwdu;
   struct ppu_jit *jit; /* translated programs (compute/jit.h); NULL: interpreter only */

   /* Timing mode (cfg.mode; docs/timing.md): the chip's L2 and DRAM, and
    * the chip clock at the end of the last grid. One worker thread. */
   bool timing;
   struct ppu_l2 l2;
   uint64_t chip_cycle;
   uint64_t timed_grids;

   /* Worker pool. */
   uint32_t worker_count;
   pthread_t *threads;
   uint32_t threads_started;
   pthread_mutex_t lock;
   pthread_cond_t work; /* workers wait for a new generation */
   pthread_cond_t done; /* the launcher waits for workers_running == 0 */
   uint64_t generation;
   uint32_t workers_running;
   bool quit;
   struct ppu_grid *grid; /* the grid of the current generation; NULL when idle */
   /* Or the task of the current generation (ppu_compute_engine_run_task),
    * how many more workers may join it, and how many run it. */
   void (*task)(void *arg);
   void *task_arg;
   uint32_t task_slots, task_running;
   /* Called (under lock) when a grid's workers are all done, so the model
    * thread looks at the stalled LAUNCH again at once. */
   void (*on_grid_end)(void *user);
   void *on_grid_end_user;
};

/* Checks the compute keys of cfg and starts the workers; 0 on success,
 * else an errno value with a reason in err. */
int ppu_compute_engine_init(struct ppu_compute_engine *ce, const struct ppu_gpu_config *cfg,
                            struct ppu_mmu *mmu, struct ppu_counter_block *counters,
                            const struct ppu_timer *timer, char *err, size_t err_size);
void ppu_compute_engine_finish(struct ppu_compute_engine *ce);

enum ppu_method_status ppu_compute_engine_method(struct ppu_compute_engine *ce,
                                                 struct ppu_compute_context *ctx, uint64_t pd_pa,
                                                 uint32_t method, uint32_t data,
                                                 struct ppu_fault *fault);

/* Adds every SM's counters to values[PPU_COUNTER_COUNT]. Any thread. */
void ppu_compute_engine_set_grid_end_hook(struct ppu_compute_engine *ce, void (*fn)(void *),
                                          void *user);

/* Before a channel's context goes away: waits for its grid, if one is still
 * running, and releases it. */
void ppu_compute_engine_channel_finish(struct ppu_compute_engine *ce,
                                       struct ppu_compute_context *ctx);

/* Runs task(arg) on the caller's thread and on up to worker_count - 1
 * workers at once, and returns when every run has returned: the graphics
 * engine's fragment warps use the workers this way while no grid holds
 * them. The task shares its work out itself (a worker may join late or
 * not at all). Model thread only, with no grid in flight. */
void ppu_compute_engine_run_task(struct ppu_compute_engine *ce, void (*task)(void *), void *arg);

void ppu_compute_engine_add_counters(struct ppu_compute_engine *ce, uint64_t *values);

/* Snapshots q's constant banks into g (host copies read through the
 * engine's MMU port); false with *fault on an MMU fault or no host memory.
 * The graphics engine loads its programs' banks the same way. */
bool ppu_compute_load_constant_banks(struct ppu_compute_engine *ce, const struct ppu_qmd *q,
                                     struct ppu_grid *g, struct ppu_fault *fault);
/* Frees a grid made by QMD validation and the bank snapshot. */
void ppu_grid_free(struct ppu_grid *g);

#endif /* PPU_COMPUTE_ENGINE_H */
