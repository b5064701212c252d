/* Compute engine: compute methods, grid launch and the SM worker pool. See
 * compute_engine.h and docs/compute.md. */
#include "compute/compute_engine.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compute/compute_timing.h"
#include "compute/jit.h"
#include "compute/qmd_validate.h"
#include "compute/sm_timing.h"
#include "fault.h"
#include "ppu/methods.h"
#include "ppu/qmd.h"

#define WORKER_THREADS_MAX 16u
#define SM_COUNT_MAX 256u

void ppu_grid_report_fault(struct ppu_grid *g, const struct ppu_fault *f)
{
   pthread_mutex_lock(&g->fault_lock);
   if (!g->faulted) {
      g->faulted = true;
      g->fault = *f;
   }
   pthread_mutex_unlock(&g->fault_lock);
   atomic_store_explicit(&g->abort, true, memory_order_relaxed);
}

void ppu_grid_cancel(struct ppu_grid *g)
{
   atomic_store_explicit(&g->abort, true, memory_order_relaxed);
}

/* Runs the worker's SMs on the current grid until the CWDU has no more
 * workgroups for them and none is resident, or the grid aborts. */
static void run_grid(struct ppu_compute_engine *ce, uint32_t worker, struct ppu_grid *grid)
{
   if (ce->timing) {
      ppu_compute_run_grid_timed(ce, grid);
      return;
   }
   for (;;) {
      bool busy = false;
      for (uint32_t s = worker; s < ce->sm_count; s += ce->worker_count) {
         struct ppu_sm *sm = &ce->sm[s];
         if (ppu_grid_aborted(grid))
            return;
         struct ppu_grid *g;
         uint64_t index;
         while (ppu_sm_has_free_slot(sm) && ppu_cwdu_take_workgroup(&ce->cwdu, sm->gpc, &g, &index))
            ppu_sm_launch_workgroup(sm, index);
         if (ppu_sm_busy(sm)) {
            ppu_sm_step(sm, grid);
            busy = true;
         }
      }
      if (!busy)
         return;
   }
}

struct worker_arg {
   struct ppu_compute_engine *ce;
   uint32_t index;
};

static void *worker_main(void *p)
{
   struct worker_arg arg = *(struct worker_arg *)p;
   free(p);
   struct ppu_compute_engine *ce = arg.ce;
   uint64_t seen = 0;
   pthread_mutex_lock(&ce->lock);
   for (;;) {
      while (!ce->quit && ce->generation == seen)
         pthread_cond_wait(&ce->work, &ce->lock);
      if (ce->quit)
         break;
      seen = ce->generation;
      if (ce->task) {
         /* A task wants at most task_slots helpers, and none once its
          * caller has done its own share. */
         if (!ce->task_slots)
            continue;
         ce->task_slots--;
         ce->task_running++;
         void (*task)(void *) = ce->task;
         void *task_arg = ce->task_arg;
         pthread_mutex_unlock(&ce->lock);
         task(task_arg);
         pthread_mutex_lock(&ce->lock);
         if (--ce->task_running == 0)
            pthread_cond_broadcast(&ce->done);
         continue;
      }
      struct ppu_grid *grid = ce->grid;
      if (!grid)
         continue; /* woken for a task that has ended */
      pthread_mutex_unlock(&ce->lock);
      run_grid(ce, arg.index, grid);
      pthread_mutex_lock(&ce->lock);
      if (--ce->workers_running == 0) {
         /* Under the lock: whoever waits on `done` (a channel being
          * destroyed) cannot tear the model down while the hook runs. */
         if (ce->on_grid_end)
            ce->on_grid_end(ce->on_grid_end_user);
         pthread_cond_broadcast(&ce->done);
      }
   }
   pthread_mutex_unlock(&ce->lock);
   return NULL;
}

static int check_config(const struct ppu_gpu_config *c, char *err, size_t n)
{
   const char *bad = NULL;
   uint64_t sms = (uint64_t)c->gpc_count * c->tpcs_per_gpc * c->sms_per_tpc;
   if (sms == 0 || sms > SM_COUNT_MAX)
      bad = "gpc_count * tpcs_per_gpc * sms_per_tpc must be 1..256";
   else if (c->max_warps_per_sm == 0 || c->max_warps_per_sm > 64)
      bad = "max_warps_per_sm must be 1..64";
   else if (c->max_workgroups_per_sm == 0 || c->max_workgroups_per_sm > 64)
      bad = "max_workgroups_per_sm must be 1..64";
   else if (c->registers_per_sm < PPU_WARP_SIZE || c->registers_per_sm > (1u << 20))
      bad = "registers_per_sm must be 32..1048576";
   else if (c->shared_memory_per_sm > (1u << 20))
      bad = "shared_memory_per_sm must be at most 1 MiB";
   else if (c->host_worker_threads > WORKER_THREADS_MAX)
      bad = "host_worker_threads must be 0..16";
   /* The units' arrays are sized for these maxima; a config built in code
    * (not parsed) gets the same limits as a file. */
   else if (c->icache_lines == 0 || c->icache_lines > PPU_ICACHE_LINES_MAX)
      bad = "icache_lines must be 1..1024";
   else if (c->tlb_entries == 0 || c->tlb_entries > PPU_TLB_ENTRIES_MAX ||
            (c->tlb_entries & (c->tlb_entries - 1)))
      bad = "tlb_entries must be a power of two, 1..256";
   else if (c->ttu_l0_lines == 0 || c->ttu_l0_lines > PPU_TTU_L0_LINES_MAX)
      bad = "ttu_l0_lines must be 1..64";
   else if (c->ttu_beam_enabled &&
            (c->ttu_beam_nodes == 0 || c->ttu_beam_nodes > PPU_TTU_BEAM_NODES_MAX))
      bad = "ttu_beam_nodes must be 1..256";
   else if (c->mode == PPU_GPU_MODE_TIMING &&
            (c->sm_schedulers == 0 || c->sm_schedulers > PPU_SM_SCHEDULERS_MAX ||
             c->sm_issue_width == 0 || c->sm_issue_window == 0 || c->sm_issue_window > 64 ||
             c->ttu_warps_in_flight == 0 || c->ttu_ray_queue_slots == 0 || c->l1_mshrs == 0))
      bad = "timing mode: sm.schedulers must be 1..16 and sm.issue_width, sm.issue_window "
            "(<= 64), ttu.warps_in_flight, ttu.ray_queue_slots and l1.mshrs at least 1";
   else if (c->mode == PPU_GPU_MODE_TIMING && (c->l1_ways == 0 || c->l1_size / 128 < c->l1_ways ||
                                               c->l2_ways == 0 || c->l2_size / 128 < c->l2_ways))
      bad = "timing mode: l1.size and l2.size must hold at least one line per way";
   if (bad && err && n)
      snprintf(err, n, "compute configuration: %s", bad);
   return bad ? EINVAL : 0;
}

int ppu_compute_engine_init(struct ppu_compute_engine *ce, const struct ppu_gpu_config *cfg,
                            struct ppu_mmu *mmu, struct ppu_counter_block *counters,
                            const struct ppu_timer *timer, char *err, size_t err_size)
{
   memset(ce, 0, sizeof(*ce));
   int e = check_config(cfg, err, err_size);
   if (e)
      return e;
   ce->cfg = *cfg;
   ce->counters = counters;
   ce->timer = timer;
   ppu_mmu_client_init(&ce->mmu, mmu, PPU_ENGINE_COMPUTE);
   ce->sm_count = cfg->gpc_count * cfg->tpcs_per_gpc * cfg->sms_per_tpc;
   ce->sm = calloc(ce->sm_count, sizeof(*ce->sm));
   uint32_t sms_per_gpc = cfg->tpcs_per_gpc * cfg->sms_per_tpc;
   if (!ce->sm || ppu_cwdu_init(&ce->cwdu, cfg->gpc_count)) {
      snprintf(err, err_size, "out of host memory for %u SMs", ce->sm_count);
      free(ce->sm);
      return ENOMEM;
   }
   bool predictors = true;
   for (uint32_t i = 0; i < ce->sm_count; i++) {
      ppu_sm_init(&ce->sm[i], i, i / sms_per_gpc, mmu, cfg);
      predictors = predictors && ppu_ttu_configure_predictor(&ce->sm[i].ttu, &cfg->ttu_predictor);
   }
   if (!predictors) {
      snprintf(err, err_size, "out of host memory for the TTU predictor tables");
      for (uint32_t i = 0; i < ce->sm_count; i++)
         ppu_sm_finish(&ce->sm[i]);
      free(ce->sm);
      ppu_cwdu_finish(&ce->cwdu);
      return ENOMEM;
   }
   if (cfg->sm_exec == PPU_SM_EXEC_JIT && !ppu_jit_available()) {
      snprintf(err, err_size,
               "sm.exec = jit: this build of vkppu has no translator (LLVM was "
               "not found when it was built)");
      for (uint32_t i = 0; i < ce->sm_count; i++)
         ppu_sm_finish(&ce->sm[i]);
      free(ce->sm);
      ppu_cwdu_finish(&ce->cwdu);
      return EINVAL;
   }
   ce->jit = ppu_jit_create(cfg, mmu); /* NULL: every program is interpreted */
   if (cfg->mode == PPU_GPU_MODE_TIMING) {
      ce->timing = true;
      bool ok = ppu_l2_init(&ce->l2, &ce->cfg);
      for (uint32_t i = 0; ok && i < ce->sm_count; i++)
         ok = ppu_sm_timing_create(&ce->sm[i], &ce->cfg, &ce->l2);
      if (!ok) {
         snprintf(err, err_size, "out of host memory for the timing model (caches)");
         for (uint32_t i = 0; i < ce->sm_count; i++) {
            ppu_sm_timing_destroy(&ce->sm[i]);
            ppu_sm_finish(&ce->sm[i]);
         }
         ppu_l2_finish(&ce->l2);
         free(ce->sm);
         ppu_cwdu_finish(&ce->cwdu);
         return ENOMEM;
      }
   }

   uint32_t workers = cfg->host_worker_threads;
   if (workers == 0) {
      long n = sysconf(_SC_NPROCESSORS_ONLN);
      workers = n < 1 ? 1 : n > (long)WORKER_THREADS_MAX ? WORKER_THREADS_MAX : (uint32_t)n;
   }
   if (workers > ce->sm_count)
      workers = ce->sm_count;
   if (ce->timing) /* one clock for the chip: see compute_timing.c */
      workers = 1;
   ce->worker_count = workers;
   pthread_mutex_init(&ce->lock, NULL);
   pthread_cond_init(&ce->work, NULL);
   pthread_cond_init(&ce->done, NULL);
   ce->threads = calloc(workers, sizeof(*ce->threads));
   for (uint32_t i = 0; ce->threads && i < workers; i++) {
      struct worker_arg *arg = malloc(sizeof(*arg));
      if (!arg)
         break;
      *arg = (struct worker_arg){ce, i};
      if (pthread_create(&ce->threads[i], NULL, worker_main, arg)) {
         free(arg);
         break;
      }
      ce->threads_started++;
   }
   if (ce->threads_started != workers) {
      snprintf(err, err_size, "cannot start %u compute worker threads", workers);
      ppu_compute_engine_finish(ce);
      return EAGAIN;
   }
   return 0;
}

void ppu_compute_engine_finish(struct ppu_compute_engine *ce)
{
   if (!ce->sm)
      return;
   pthread_mutex_lock(&ce->lock);
   ce->quit = true;
   pthread_cond_broadcast(&ce->work);
   pthread_mutex_unlock(&ce->lock);
   for (uint32_t i = 0; i < ce->threads_started; i++)
      pthread_join(ce->threads[i], NULL);
   free(ce->threads);
   pthread_cond_destroy(&ce->work);
   pthread_cond_destroy(&ce->done);
   pthread_mutex_destroy(&ce->lock);
   for (uint32_t i = 0; i < ce->sm_count; i++) {
      ppu_sm_timing_destroy(&ce->sm[i]);
      ppu_sm_finish(&ce->sm[i]);
   }
   if (ce->timing)
      ppu_l2_finish(&ce->l2);
   ppu_jit_destroy(ce->jit);
   free(ce->sm);
   ppu_cwdu_finish(&ce->cwdu);
   memset(ce, 0, sizeof(*ce));
}

void ppu_compute_engine_add_counters(struct ppu_compute_engine *ce, uint64_t *values)
{
   for (uint32_t s = 0; s < ce->sm_count; s++)
      for (unsigned i = 0; i < PPU_COUNTER_COUNT; i++)
         values[i] += atomic_load_explicit(&ce->sm[s].counters.value[i], memory_order_relaxed);
}

/* Snapshots the constant banks into host memory: uniform data is read-only
 * while a grid runs, and a snapshot makes LDC a bounds check and a load. */
bool ppu_compute_load_constant_banks(struct ppu_compute_engine *ce, const struct ppu_qmd *q,
                                     struct ppu_grid *g, struct ppu_fault *fault)
{
   for (unsigned i = 0; i < PPU_QMD_CBANK_COUNT; i++) {
      g->cbank_size[i] = q->cbank[i].size;
      if (!q->cbank[i].size)
         continue;
      g->cbank[i] = malloc(q->cbank[i].size);
      if (!g->cbank[i]) {
         ppu_fault_set(fault, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_COMPUTE,
                       "out of host memory for constant bank %u", i);
         return false;
      }
      if (!ppu_mmu_read(&ce->mmu, g->pd_pa, q->cbank[i].va, g->cbank[i], q->cbank[i].size, fault))
         return false;
   }
   return true;
}

void ppu_grid_free(struct ppu_grid *g)
{
   for (unsigned i = 0; i < PPU_QMD_CBANK_COUNT; i++)
      free(g->cbank[i]);
   ppu_jit_program_put(g->jit);
   pthread_mutex_destroy(&g->fault_lock);
   free(g);
}

/* Starts the grid on the workers; the channel's LAUNCH then polls for its
 * end (finish_grid). */
static bool start_on_workers(struct ppu_compute_engine *ce, struct ppu_compute_context *ctx,
                             struct ppu_grid *g, struct ppu_fault *fault)
{
   for (uint32_t i = 0; i < ce->sm_count; i++) {
      if (!ppu_sm_begin_grid(&ce->sm[i], g)) {
         ppu_fault_set(fault, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_COMPUTE,
                       "out of host memory for SM %u's resident workgroups", i);
         return false;
      }
   }
   ctx->task = (struct ppu_cwdu_task){.grid = g};
   if (!ppu_cwdu_submit(&ce->cwdu, &ctx->task)) {
      ppu_fault_set(fault, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_COMPUTE, "CWDU pending pool full");
      return false;
   }
   pthread_mutex_lock(&ce->lock);
   ce->grid = g;
   ce->workers_running = ce->worker_count;
   ce->generation++;
   ctx->in_flight = g;
   pthread_cond_broadcast(&ce->work);
   pthread_mutex_unlock(&ce->lock);
   return true;
}

void ppu_compute_engine_run_task(struct ppu_compute_engine *ce, void (*task)(void *), void *arg)
{
   /* The caller is one of the worker_count threads: it wakes the others
    * and takes its share, so a handful of warps does not wait for a
    * thread to wake up. */
   uint32_t helpers = ce->threads_started ? ce->worker_count - 1 : 0;
   if (helpers) {
      pthread_mutex_lock(&ce->lock);
      ce->task = task;
      ce->task_arg = arg;
      ce->task_slots = helpers;
      ce->generation++;
      for (uint32_t i = 0; i < helpers; i++)
         pthread_cond_signal(&ce->work);
      pthread_mutex_unlock(&ce->lock);
   }
   task(arg);
   if (!helpers)
      return;
   pthread_mutex_lock(&ce->lock);
   ce->task_slots = 0;
   while (ce->task_running)
      pthread_cond_wait(&ce->done, &ce->lock);
   ce->task = NULL;
   ce->task_arg = NULL;
   pthread_mutex_unlock(&ce->lock);
}

/* True once the channel's grid has ended (then the engine is idle again). */
static bool grid_ended(struct ppu_compute_engine *ce, bool wait)
{
   pthread_mutex_lock(&ce->lock);
   while (wait && ce->workers_running)
      pthread_cond_wait(&ce->done, &ce->lock);
   bool ended = ce->workers_running == 0;
   if (ended)
      ce->grid = NULL;
   pthread_mutex_unlock(&ce->lock);
   return ended;
}

/* Releases an ended grid; false with *fault when it faulted. */
static bool finish_grid(struct ppu_compute_engine *ce, struct ppu_compute_context *ctx,
                        struct ppu_fault *fault)
{
   struct ppu_grid *g = ctx->in_flight;
   ppu_cwdu_retire(&ce->cwdu, &ctx->task);
   ctx->in_flight = NULL;
   bool ok = !g->faulted;
   if (!ok && fault)
      *fault = g->fault;
   ppu_grid_free(g);
   return ok;
}

void ppu_compute_engine_set_grid_end_hook(struct ppu_compute_engine *ce, void (*fn)(void *),
                                          void *user)
{
   pthread_mutex_lock(&ce->lock);
   ce->on_grid_end = fn;
   ce->on_grid_end_user = user;
   pthread_mutex_unlock(&ce->lock);
}

void ppu_compute_engine_channel_finish(struct ppu_compute_engine *ce,
                                       struct ppu_compute_context *ctx)
{
   if (!ctx->in_flight)
      return;
   /* Nobody can see the grid's results any more, and it may never end on
    * its own (a shader that loops, a grid of 2^48 workgroups): stop it. The
    * workers notice between warp runs, so this waits for at most one run
    * (PPU_SM_ISSUE_QUANTUM instructions) per worker. */
   ppu_grid_cancel(ctx->in_flight);
   grid_ended(ce, true);
   finish_grid(ce, ctx, NULL);
}

static enum ppu_method_status launch(struct ppu_compute_engine *ce, struct ppu_compute_context *ctx,
                                     uint64_t pd_pa, bool indirect, struct ppu_fault *fault)
{
   if (ctx->qmd_va % PPU_QMD_ALIGN) {
      ppu_fault_set(fault, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_COMPUTE,
                    "QMD address 0x%llx is not 256-byte aligned", (unsigned long long)ctx->qmd_va);
      return PPU_METHOD_FAULT;
   }
   if (ctx->in_flight) {
      if (!grid_ended(ce, false))
         return PPU_METHOD_STALL;
      return finish_grid(ce, ctx, fault) ? PPU_METHOD_DONE : PPU_METHOD_FAULT;
   }
   /* One grid at a time: another channel's LAUNCH waits for the engine. */
   pthread_mutex_lock(&ce->lock);
   bool busy = ce->grid != NULL;
   pthread_mutex_unlock(&ce->lock);
   if (busy)
      return PPU_METHOD_STALL;
   struct ppu_qmd q;
   if (!ppu_mmu_read(&ce->mmu, pd_pa, ctx->qmd_va, &q, sizeof(q), fault))
      return PPU_METHOD_FAULT;
   if (indirect) {
      struct ppu_dispatch_indirect d;
      if (ctx->indirect_va % 4) {
         ppu_fault_set(fault, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_COMPUTE,
                       "indirect address 0x%llx is not 4-byte aligned",
                       (unsigned long long)ctx->indirect_va);
         return PPU_METHOD_FAULT;
      }
      if (!ppu_mmu_read(&ce->mmu, pd_pa, ctx->indirect_va, &d, sizeof(d), fault))
         return PPU_METHOD_FAULT;
      q.grid_size[0] = d.x;
      q.grid_size[1] = d.y;
      q.grid_size[2] = d.z;
   }
   struct ppu_grid *g = calloc(1, sizeof(*g));
   if (!g) {
      ppu_fault_set(fault, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_COMPUTE, "out of host memory");
      return PPU_METHOD_FAULT;
   }
   if (!ppu_qmd_validate(&q, &ce->cfg, g, fault)) {
      free(g);
      return PPU_METHOD_FAULT;
   }
   pthread_mutex_init(&g->fault_lock, NULL);
   g->pd_pa = pd_pa;
   g->timer = ce->timer;
   g->watchdog_budget = ce->cfg.watchdog_warp_instructions;
   g->watchdog_per_warp =
       ppu_grid_watchdog_per_warp(g, ce->cfg.watchdog_instructions_per_warp,
                                  ce->cfg.watchdog_resident_instructions, ce->sm_count);
   ppu_counter_add(ce->counters, PPU_COUNTER_COMPUTE_GRIDS, 1);
   if (!ppu_compute_load_constant_banks(ce, &q, g, fault)) {
      ppu_grid_free(g);
      return PPU_METHOD_FAULT;
   }
   if (g->workgroup_count == 0) {
      ppu_grid_free(g);
      return PPU_METHOD_DONE;
   }
   ppu_counter_add(ce->counters, PPU_COUNTER_COMPUTE_THREADS,
                   g->workgroup_count * g->threads_per_workgroup);
   g->jit = ppu_jit_program_get(ce->jit, pd_pa, g->program_va, g->register_count);
   if (!start_on_workers(ce, ctx, g, fault)) {
      ppu_grid_free(g);
      return PPU_METHOD_FAULT;
   }
   return PPU_METHOD_STALL; /* executed again until the grid has ended */
}

enum ppu_method_status ppu_compute_engine_method(struct ppu_compute_engine *ce,
                                                 struct ppu_compute_context *ctx, uint64_t pd_pa,
                                                 uint32_t method, uint32_t data,
                                                 struct ppu_fault *fault)
{
   switch (method) {
   case PPU_COMPUTE_QMD_ADDR_LO:
      ctx->qmd_va = (ctx->qmd_va & ~0xffffffffull) | data;
      return PPU_METHOD_DONE;
   case PPU_COMPUTE_QMD_ADDR_HI:
      ctx->qmd_va = (ctx->qmd_va & 0xffffffffull) | (uint64_t)data << 32;
      return PPU_METHOD_DONE;
   case PPU_COMPUTE_INDIRECT_ADDR_LO:
      ctx->indirect_va = (ctx->indirect_va & ~0xffffffffull) | data;
      return PPU_METHOD_DONE;
   case PPU_COMPUTE_INDIRECT_ADDR_HI:
      ctx->indirect_va = (ctx->indirect_va & 0xffffffffull) | (uint64_t)data << 32;
      return PPU_METHOD_DONE;
   case PPU_COMPUTE_LAUNCH:
   case PPU_COMPUTE_LAUNCH_INDIRECT:
      if (data) {
         ppu_fault_set(fault, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_COMPUTE,
                       "LAUNCH data 0x%x: must be 0", data);
         return PPU_METHOD_FAULT;
      }
      return launch(ce, ctx, pd_pa, method == PPU_COMPUTE_LAUNCH_INDIRECT, fault);
   default:
      ppu_fault_set(fault, PPU_FAULT_BAD_METHOD, PPU_ENGINE_COMPUTE,
                    "unknown compute method 0x%03x", method);
      return PPU_METHOD_FAULT;
   }
}
