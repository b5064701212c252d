/* The SM's timing-mode scheduler and issue: see sm_timing.h and
 * docs/timing.md. The TTU's part is in sm_timing_ttu.c. */
#include "compute/sm_timing.h"

#include <stdlib.h>
#include <string.h>

#include "compute/sm_operands.h"

#define NEVER UINT64_MAX
/* Registers one instruction can name: a 128-bit source, a 128-bit value and
 * the longest texture coordinate vector. */
#define OPERAND_REGS_MAX 40u

static uint64_t max_u64(uint64_t a, uint64_t b)
{
   return a > b ? a : b;
}

bool ppu_sm_timing_create(struct ppu_sm *sm, const struct ppu_gpu_config *cfg, struct ppu_l2 *l2)
{
   struct ppu_sm_timing *t = calloc(1, sizeof(*t));
   if (!t)
      return false;
   sm->timing = t;
   t->cfg = cfg;
   t->schedulers =
       cfg->sm_schedulers < PPU_SM_SCHEDULERS_MAX ? cfg->sm_schedulers : PPU_SM_SCHEDULERS_MAX;
   if (t->schedulers == 0)
      t->schedulers = 1;
   for (uint32_t s = 0; s < t->schedulers; s++) {
      ppu_fu_pipe_init(&t->pipe[s][PPU_FU_ALU], cfg->alu_latency, cfg->alu_interval);
      ppu_fu_pipe_init(&t->pipe[s][PPU_FU_FMA], cfg->fma_latency, cfg->fma_interval);
      ppu_fu_pipe_init(&t->pipe[s][PPU_FU_SFU], cfg->sfu_latency, cfg->sfu_interval);
      ppu_fu_pipe_init(&t->pipe[s][PPU_FU_FP64], cfg->fp64_latency, cfg->fp64_interval);
      /* The LSU takes one line (or shared-memory wavefront) per cycle; the
       * texture unit and the TTU one warp instruction per cycle. Their
       * latencies are computed per instruction. */
      ppu_fu_pipe_init(&t->pipe[s][PPU_FU_LSU], 0, 1);
      ppu_fu_pipe_init(&t->pipe[s][PPU_FU_TEX], cfg->tex_latency, 1);
      ppu_fu_pipe_init(&t->pipe[s][PPU_FU_TTU], 0, 1);
   }
   ppu_ttu_datapath_init(&t->datapath, cfg->ttu_box_tests_per_cycle,
                         cfg->ttu_triangle_tests_per_cycle, cfg->ttu_datapath_stages,
                         cfg->ttu_switch_penalty);
   t->ttu_warp_free_at = calloc(cfg->ttu_warps_in_flight ? cfg->ttu_warps_in_flight : 1,
                                sizeof(*t->ttu_warp_free_at));
   t->ttu_ray_free_at =
       calloc(cfg->ttu_ray_queue_slots ? cfg->ttu_ray_queue_slots : 1, sizeof(*t->ttu_ray_free_at));
   bool ok =
       t->ttu_warp_free_at && t->ttu_ray_free_at && ppu_l1_init(&t->l1, cfg, l2, &sm->counters);
   if (ok && cfg->ttu_predictor.enabled) {
      struct ppu_ttu_predictor_config pc;
      t->predictor = calloc(1, sizeof(*t->predictor));
      ok = t->predictor && ppu_ttu_predictor_config_resolve(&cfg->ttu_predictor, &pc, NULL, 0);
      if (ok)
         ppu_ttu_predictor_timing_init(t->predictor, &pc);
   }
   if (!ok)
      ppu_sm_timing_destroy(sm);
   return ok;
}

void ppu_sm_timing_destroy(struct ppu_sm *sm)
{
   struct ppu_sm_timing *t = sm->timing;
   if (!t)
      return;
   ppu_l1_finish(&t->l1);
   free(t->predictor);
   free(t->ttu_warp_free_at);
   free(t->ttu_ray_free_at);
   free(t->warp);
   free(t);
   sm->timing = NULL;
}

bool ppu_sm_timing_begin_grid(struct ppu_sm *sm, uint64_t start)
{
   struct ppu_sm_timing *t = sm->timing;
   if (t->warp_slots < sm->warp_slots || !t->warp) {
      free(t->warp);
      t->warp = calloc(sm->warp_slots ? sm->warp_slots : 1, sizeof(*t->warp));
      if (!t->warp) {
         t->warp_slots = 0;
         return false;
      }
      t->warp_slots = sm->warp_slots;
   }
   t->now = start;
   t->workgroup_ready = start;
   /* A grid starts with an empty L1 (it may run in another address space);
    * the L2 keeps its lines, as on hardware. */
   ppu_cache_model_flush(&t->l1.tags);
   return true;
}

void ppu_sm_timing_end_grid(struct ppu_sm *sm)
{
   struct ppu_sm_timing *t = sm->timing;
   if (!t->predictor)
      return;
   uint64_t timeouts = 0, repacked = 0;
   ppu_ttu_predictor_timing_flush(t->predictor, &timeouts, &repacked);
   ppu_counter_add(&sm->counters, PPU_COUNTER_TTU_PREDICTOR_COLLECTOR_TIMEOUTS, timeouts);
   ppu_counter_add(&sm->counters, PPU_COUNTER_TTU_PREDICTOR_REPACKED_WARPS, repacked);
}

void ppu_sm_timing_workgroup_launched(struct ppu_sm *sm, uint64_t ready_at)
{
   struct ppu_sm_timing *t = sm->timing;
   uint32_t warps = sm->grid->warps_per_workgroup;
   for (uint32_t i = sm->order_count - warps; i < sm->order_count; i++) {
      struct ppu_warp_timing *wt = &t->warp[sm->order[i]];
      memset(wt, 0, sizeof(*wt));
      wt->fetch_ready = ready_at;
      wt->waiting_since = ready_at;
   }
}

static enum ppu_fu_class fu_class(const struct ppu_insn_fields *f)
{
   switch ((enum ppu_op)f->op) {
   case PPU_OP_FADD:
   case PPU_OP_FSUB:
   case PPU_OP_FMUL:
   case PPU_OP_FFMA:
   case PPU_OP_FMIN:
   case PPU_OP_FMAX:
   case PPU_OP_FSETP:
   case PPU_OP_FRND:
      return f->type == PPU_TYPE_F64 ? PPU_FU_FP64 : PPU_FU_FMA;
   case PPU_OP_MUFU:
   case PPU_OP_FDIV:
      return f->type == PPU_TYPE_F64 ? PPU_FU_FP64 : PPU_FU_SFU;
   case PPU_OP_IDIV:
   case PPU_OP_IREM:
      return PPU_FU_SFU;
   case PPU_OP_LD:
   case PPU_OP_ST:
   case PPU_OP_ATOM:
      return PPU_FU_LSU;
   case PPU_OP_TTU:
      return PPU_FU_TTU;
   default:
      return ppu_op_is_texture((enum ppu_op)f->op) ? PPU_FU_TEX : PPU_FU_ALU;
   }
}

/* The registers and predicates an instruction reads and writes. */
struct operand_regs {
   uint32_t reads, writes;
   uint16_t read[OPERAND_REGS_MAX], write[OPERAND_REGS_MAX];
   uint8_t pred_read[3], pred_reads;
   int pred_write; /* -1: none */
};

static void add_regs(uint16_t *list, uint32_t *n, unsigned r, unsigned width)
{
   if (r == PPU_RZ)
      return;
   for (unsigned k = 0; k < width && *n < OPERAND_REGS_MAX; k++)
      if (r + k < PPU_SCOREBOARD_REGS)
         list[(*n)++] = (uint16_t)(r + k);
}

static void operand_regs(const struct ppu_insn_fields *f, struct operand_regs *o)
{
   const char *sig = ppu_op_signature((enum ppu_op)f->op);
   o->reads = o->writes = o->pred_reads = 0;
   o->pred_write = -1;
   o->pred_read[o->pred_reads++] = f->guard & 7;
   if (strchr(sig, 'q'))
      o->pred_read[o->pred_reads++] = f->ps & 7;
   if (strchr(sig, 's'))
      o->pred_read[o->pred_reads++] = f->ps2 & 7;
   if (strchr(sig, 'p') && (f->pd & 7) != PPU_PT)
      o->pred_write = f->pd & 7;
   bool reads_b = strchr(sig, 'r') || (strchr(sig, 'b') && !f->b_imm);
   if (ppu_op_is_texture((enum ppu_op)f->op)) {
      /* Texture results are up to four registers (docs/isa.md). */
      add_regs(o->read, &o->reads, f->ra, 1);
      if (reads_b)
         add_regs(o->read, &o->reads, f->rb, 1);
      add_regs(o->read, &o->reads, f->rc, ppu_tex_coord_words(f));
      if (strchr(sig, 'd'))
         add_regs(o->write, &o->writes, f->rd, 4);
      return;
   }
   unsigned w[4];
   ppu_insn_operand_widths(f, w);
   if (strchr(sig, 'a') || strchr(sig, 'm') || strchr(sig, 'k'))
      add_regs(o->read, &o->reads, f->ra, w[1]);
   if (reads_b)
      add_regs(o->read, &o->reads, f->rb, w[2]);
   if (strchr(sig, 'c'))
      add_regs(o->read, &o->reads, f->rc, w[3]);
   if (strchr(sig, 'd'))
      add_regs(o->write, &o->writes, f->rd, w[0]);
}

/* Whether warp `slot` can issue its next instruction at cycle now (seed
 * FIG. 6: read scoreboard, check resources), and if not why and from when
 * it might. *fetch_fault when its instruction cannot be fetched (fault
 * filled in: the caller stops the grid). */
static enum ppu_warp_wait warp_wait(struct ppu_sm *sm, const struct ppu_grid *g, uint32_t slot,
                                    uint64_t now, uint64_t *ready_at, struct ppu_fault *fault,
                                    bool *fetch_fault)
{
   struct ppu_sm_timing *t = sm->timing;
   struct ppu_warp *w = &sm->warp[slot];
   struct ppu_warp_timing *wt = &t->warp[slot];
   *ready_at = NEVER;
   if (w->state == PPU_WARP_BARRIER)
      return PPU_WAIT_BARRIER;
   if (wt->fetch_ready > now) {
      *ready_at = wt->fetch_ready;
      return PPU_WAIT_FETCH;
   }
   uint64_t va = g->program_va + w->pc;
   /* A next-line prefetcher hides the miss of a line whose predecessor is
    * in the cache (straight-line code); other misses wait for the L2. */
   bool prefetched =
       va >= PPU_ICACHE_LINE_BYTES && ppu_icache_holds(&sm->icache, va - PPU_ICACHE_LINE_BYTES);
   uint64_t misses = atomic_load_explicit(&sm->counters.value[PPU_COUNTER_COMPUTE_ICACHE_MISSES],
                                          memory_order_relaxed);
   const struct ppu_icache_insn *in =
       ppu_icache_fetch(&sm->icache, &sm->mmu, &sm->counters, g->pd_pa, va, fault);
   if (!in) {
      fault->pc = va;
      *fetch_fault = true;
      return PPU_WAIT_NONE;
   }
   if (!prefetched && atomic_load_explicit(&sm->counters.value[PPU_COUNTER_COMPUTE_ICACHE_MISSES],
                                           memory_order_relaxed) != misses) {
      /* An instruction line comes from the L2. */
      wt->fetch_ready = now + t->cfg->l2_latency;
      *ready_at = wt->fetch_ready;
      return PPU_WAIT_FETCH;
   }
   if (in->illegal)
      return PPU_WAIT_NONE; /* issuing it faults */
   struct operand_regs o;
   operand_regs(&in->f, &o);
   uint64_t ready = 0;
   bool memory = false;
   for (uint32_t i = 0; i < o.reads; i++) {
      if (wt->reg_ready[o.read[i]] > ready) {
         ready = wt->reg_ready[o.read[i]];
         memory = wt->reg_from_memory[o.read[i]];
      }
   }
   /* Write after write: this result must not land before one still in
    * flight (fixed-latency pipes retire in order, so only a longer-latency
    * or memory-side write in flight holds it back). */
   enum ppu_fu_class fu = fu_class(&in->f);
   const struct ppu_fu_pipe *pipe = &t->pipe[slot % t->schedulers][fu];
   for (uint32_t i = 0; i < o.writes; i++) {
      uint64_t pending = wt->reg_ready[o.write[i]];
      uint64_t lands = pending > pipe->latency ? pending - pipe->latency : 0;
      if (lands > ready) {
         ready = lands;
         memory = wt->reg_from_memory[o.write[i]];
      }
   }
   for (uint32_t i = 0; i < o.pred_reads; i++)
      if (wt->pred_ready[o.pred_read[i]] > ready) {
         ready = wt->pred_ready[o.pred_read[i]];
         memory = false;
      }
   if (ready > now) {
      *ready_at = ready;
      return memory ? PPU_WAIT_MEMORY : PPU_WAIT_DEPENDENCY;
   }
   if (!ppu_fu_pipe_accepts(pipe, now)) {
      *ready_at = pipe->next_issue;
      return PPU_WAIT_PIPE;
   }
   if (fu == PPU_FU_TTU) {
      uint64_t first_free = NEVER;
      for (uint32_t i = 0; i < t->cfg->ttu_warps_in_flight; i++)
         if (t->ttu_warp_free_at[i] < first_free)
            first_free = t->ttu_warp_free_at[i];
      if (first_free > now) {
         *ready_at = first_free;
         return PPU_WAIT_PIPE;
      }
   }
   return PPU_WAIT_NONE;
}

/* Adds the line holding addr to lines[] unless it is there. */
static void add_line(uint64_t *lines, uint32_t *n, uint64_t addr)
{
   uint64_t line = addr & ~(uint64_t)(PPU_CACHE_LINE_BYTES - 1);
   for (uint32_t i = 0; i < *n; i++)
      if (lines[i] == line)
         return;
   lines[(*n)++] = line;
}

/* Timing of LD/ST/ATOM x issued at now, from the addresses the lanes name
 * (read before the instruction runs, which may overwrite them). Returns when
 * its result is there; *beats gets the LSU cycles it occupies: one per
 * 128-byte line (coalescing) plus one per shared-memory wavefront. */
static uint64_t lsu_timing(struct ppu_sm *sm, const struct ppu_exec *x, uint64_t now,
                           uint32_t *beats)
{
   struct ppu_sm_timing *t = sm->timing;
   const struct ppu_insn_fields *f = x->f;
   const struct ppu_grid *g = x->grid;
   uint64_t lines[LANES];
   uint32_t nlines = 0, nshared = 0;
   uint32_t shared_word[LANES];
   for (unsigned l = 0; l < LANES; l++) {
      if (!((x->exec >> l) & 1u))
         continue;
      uint64_t addr = ppu_lsu_lane_address(x, l);
      unsigned space = ppu_lsu_space(f->mode, &addr);
      if (space == PPU_SPACE_SHARED) {
         shared_word[nshared++] = (uint32_t)(addr / 4);
      } else if (space == PPU_SPACE_LOCAL) {
         /* Local memory lives in VRAM interleaved word by word across the
          * warp's lanes (so a warp's same-offset accesses coalesce); a
          * per-SM, per-warp-slot tag range keeps it apart from global VAs. */
         uint64_t warp_slot = (uint64_t)x->w->wg_slot * g->warps_per_workgroup + x->w->warp_in_wg;
         uint64_t base = PPU_GENERIC_LOCAL_BASE + ((uint64_t)sm->id << 40) +
                         warp_slot * (uint64_t)g->local_size * PPU_WARP_SIZE;
         add_line(lines, &nlines, base + (addr / 4) * 4 * PPU_WARP_SIZE + l * 4);
      } else {
         add_line(lines, &nlines, addr);
      }
   }
   /* Shared memory: 32 banks of 4 bytes; lanes reading one word share it,
    * distinct words of one bank take a cycle each. */
   uint32_t degree = 0;
   for (uint32_t i = 0; i < nshared; i++) {
      uint32_t distinct = 0;
      for (uint32_t j = 0; j < nshared; j++) {
         if (shared_word[j] % 32 != shared_word[i] % 32)
            continue;
         bool first = true;
         for (uint32_t k = 0; k < j; k++)
            first &= shared_word[k] != shared_word[j];
         distinct += first;
      }
      if (distinct > degree)
         degree = distinct;
   }
   uint64_t done = now + 1;
   if (degree) {
      ppu_counter_add(&sm->counters, PPU_COUNTER_SM_SHARED_BANK_CONFLICTS, degree - 1);
      done = now + t->cfg->shared_latency + degree - 1;
   }
   for (uint32_t i = 0; i < nlines; i++) {
      uint64_t at = now + i; /* one line per cycle leaves the LSU */
      uint64_t ready;
      if (f->op == PPU_OP_LD) {
         ppu_counter_add(&sm->counters, PPU_COUNTER_L1_LSU_READS, 1);
         ready = ppu_l1_read(&t->l1, at, lines[i]);
      } else if (f->op == PPU_OP_ATOM) { /* performed at the L2 */
         ready = ppu_l2_access(t->l1.l2, &sm->counters, at, lines[i], true);
      } else {
         ready = (ppu_l1_write(&t->l1, at, lines[i]), at + 1); /* posted */
      }
      done = max_u64(done, ready);
   }
   *beats = nlines + degree ? nlines + degree : 1;
   return done;
}

uint64_t ppu_sm_timing_tex(struct ppu_sm *sm, uint64_t now)
{
   struct ppu_sm_timing *t = sm->timing;
   uint64_t data = now;
   ppu_counter_add(&sm->counters, PPU_COUNTER_L1_TEX_READS, t->tex_misses.count);
   for (uint32_t i = 0; i < t->tex_misses.count; i++)
      data = max_u64(data, ppu_l1_read(&t->l1, now, t->tex_misses.line[i]));
   return data + t->cfg->tex_latency;
}

/* Issues warp `slot`'s next instruction at now: executes it (ppu_sm_issue)
 * and books its pipeline and the scoreboard. False on a fault. */
static bool issue_timed(struct ppu_sm *sm, struct ppu_grid *g, uint32_t slot, uint64_t now,
                        uint64_t *warp_insns, uint64_t *lane_insns, struct ppu_fault *fault)
{
   struct ppu_sm_timing *t = sm->timing;
   struct ppu_warp *w = &sm->warp[slot];
   struct ppu_warp_timing *wt = &t->warp[slot];
   const struct ppu_icache_insn *in = ppu_icache_fetch(&sm->icache, &sm->mmu, &sm->counters,
                                                       g->pd_pa, g->program_va + w->pc, fault);
   if (!in) {
      fault->pc = g->program_va + w->pc;
      return false;
   }
   const struct ppu_insn_fields *f = &in->f;
   uint32_t exec = ppu_warp_exec_mask(w, f);
   enum ppu_fu_class fu = fu_class(f);
   struct ppu_fu_pipe *pipe = &t->pipe[slot % t->schedulers][fu];
   uint64_t done = now + 1;
   uint32_t beats = 1;
   if (fu == PPU_FU_LSU && exec && !in->illegal) {
      struct ppu_exec x = {.sm = sm, .grid = g, .w = w, .f = f, .exec = exec, .fault = fault};
      done = lsu_timing(sm, &x, now, &beats);
   }
   if (fu == PPU_FU_TEX) {
      t->tex_misses.count = 0;
      sm->tex.cache.miss_log = &t->tex_misses;
   }
   struct operand_regs o;
   operand_regs(f, &o);
   enum ppu_exec_result r = ppu_sm_issue(sm, g, w, in, fault, warp_insns, lane_insns);
   sm->tex.cache.miss_log = NULL;
   if (r == PPU_EXEC_FAULT)
      return false;
   switch (fu) {
   case PPU_FU_LSU:
      ppu_fu_pipe_issue(pipe, now, beats);
      break;
   case PPU_FU_TEX:
      ppu_fu_pipe_issue(pipe, now, 1);
      done = ppu_sm_timing_tex(sm, now);
      break;
   case PPU_FU_TTU:
      ppu_fu_pipe_issue(pipe, now, 1);
      done = exec ? ppu_sm_timing_ttu(sm, now, exec) : now + 1;
      break;
   default:
      done = ppu_fu_pipe_issue(pipe, now, 1);
      break;
   }
   bool memory = fu == PPU_FU_LSU || fu == PPU_FU_TEX || fu == PPU_FU_TTU;
   for (uint32_t i = 0; i < o.writes; i++) {
      wt->reg_ready[o.write[i]] = done;
      wt->reg_from_memory[o.write[i]] = memory;
   }
   if (o.pred_write >= 0)
      wt->pred_ready[o.pred_write] = done;
   wt->waiting_since = now + 1;
   return true;
}

static const enum ppu_counter stall_counter[] = {
    [PPU_WAIT_NONE] = PPU_COUNTER_SM_STALL_PIPE_BUSY,
    [PPU_WAIT_DEPENDENCY] = PPU_COUNTER_SM_STALL_DEPENDENCY,
    [PPU_WAIT_MEMORY] = PPU_COUNTER_SM_STALL_MEMORY,
    [PPU_WAIT_PIPE] = PPU_COUNTER_SM_STALL_PIPE_BUSY,
    [PPU_WAIT_BARRIER] = PPU_COUNTER_SM_STALL_BARRIER,
    [PPU_WAIT_FETCH] = PPU_COUNTER_SM_STALL_FETCH,
};

/* The warps of each scheduler that may issue this cycle (ready or at a
 * barrier another scheduler's warp may release), in age order: one pass
 * over the age order per step instead of one per scheduler (the division
 * and the warps' cache lines were a fifth of a 72-SM chip's host time). A
 * warp that is neither cannot become either within a step. */
struct scheduler_warps {
   uint32_t count[PPU_SM_SCHEDULERS_MAX];
   uint32_t slot[PPU_SM_SCHEDULERS_MAX][PPU_SM_WARPS_MAX];
};

static void scheduler_warps(const struct ppu_sm *sm, struct scheduler_warps *w)
{
   const struct ppu_sm_timing *t = sm->timing;
   memset(w->count, 0, sizeof(w->count));
   for (uint32_t i = 0; i < sm->order_count; i++) {
      uint32_t slot = sm->order[i];
      enum ppu_warp_state st = sm->warp[slot].state;
      if (st != PPU_WARP_READY && st != PPU_WARP_BARRIER)
         continue;
      uint32_t s = slot % t->schedulers;
      if (w->count[s] < PPU_SM_WARPS_MAX)
         w->slot[s][w->count[s]++] = slot;
   }
}

/* One scheduler's cycle: among its `issue_window` oldest warps (mine,
 * nmine), those that waited past the timeout go first, then age order; up
 * to issue_width issue. Returns how many issued (-1 on a fault, reported);
 * *oldest gets the reason its oldest warp waits and *next the earliest
 * cycle a waiting warp could go. */
static int schedule(struct ppu_sm *sm, struct ppu_grid *g, const uint32_t *mine, uint32_t nmine,
                    int *oldest, uint64_t *next, uint64_t *warp_insns, uint64_t *lane_insns,
                    struct ppu_warp **last)
{
   struct ppu_sm_timing *t = sm->timing;
   const struct ppu_gpu_config *cfg = t->cfg;
   uint64_t now = t->now;
   uint32_t ready[PPU_SM_WARPS_MAX], nready = 0, considered = 0;
   struct ppu_fault fault;
   *oldest = -1;
   for (uint32_t i = 0; i < nmine && considered < cfg->sm_issue_window; i++) {
      uint32_t slot = mine[i];
      enum ppu_warp_state st = sm->warp[slot].state;
      if (st != PPU_WARP_READY && st != PPU_WARP_BARRIER)
         continue;
      considered++;
      /* A warp waiting for an operand, a fetch or a pipe cannot go before
       * the cycle it was found to wait for: those only move later while it
       * waits (its own scoreboard does not change, pipes and TTU slots only
       * fill up), so the scheduler does not look again until then. */
      struct ppu_warp_timing *wt = &t->warp[slot];
      uint64_t at = wt->blocked_until;
      enum ppu_warp_wait why = (enum ppu_warp_wait)wt->blocked_why;
      if (now >= at || st != PPU_WARP_READY) {
         bool fetch_fault = false;
         why = warp_wait(sm, g, slot, now, &at, &fault, &fetch_fault);
         if (fetch_fault) {
            ppu_grid_report_fault(g, &fault);
            return -1;
         }
         bool stable = why == PPU_WAIT_DEPENDENCY || why == PPU_WAIT_MEMORY ||
                       why == PPU_WAIT_FETCH || why == PPU_WAIT_PIPE;
         wt->blocked_until = stable ? at : 0;
         wt->blocked_why = (uint8_t)why;
      }
      if (*oldest < 0)
         *oldest = (int)why;
      if (why == PPU_WAIT_NONE)
         ready[nready++] = slot;
      else if (at < *next)
         *next = at;
   }
   int issued = 0;
   for (int pass = 0; pass < 2; pass++) {
      for (uint32_t k = 0; k < nready && (uint32_t)issued < cfg->sm_issue_width; k++) {
         uint32_t slot = ready[k];
         if (slot == UINT32_MAX)
            continue;
         struct ppu_warp *w = &sm->warp[slot];
         bool timed_out = now - t->warp[slot].waiting_since >= cfg->sm_scheduler_timeout &&
                          now >= t->warp[slot].waiting_since;
         if ((pass == 0) != timed_out || w->state != PPU_WARP_READY)
            continue;
         /* An instruction issued this cycle may have taken the pipe. */
         uint64_t at;
         bool fetch_fault = false;
         if (issued && warp_wait(sm, g, slot, now, &at, &fault, &fetch_fault) != PPU_WAIT_NONE) {
            if (at < *next)
               *next = at;
            continue;
         }
         if (!issue_timed(sm, g, slot, now, warp_insns, lane_insns, &fault)) {
            ppu_grid_report_fault(g, &fault);
            return -1;
         }
         *last = w;
         ready[k] = UINT32_MAX; /* not again in the second pass */
         issued++;
      }
   }
   return issued;
}

void ppu_sm_step_timed(struct ppu_sm *sm, struct ppu_grid *g)
{
   struct ppu_sm_timing *t = sm->timing;
   uint64_t now = t->now, next = NEVER;
   uint64_t warp_insns = 0, lane_insns = 0;
   struct ppu_warp *last = NULL;
   uint32_t resident = sm->order_count;
   int oldest[PPU_SM_SCHEDULERS_MAX];
   uint32_t issuing = 0;
   struct scheduler_warps mine;
   scheduler_warps(sm, &mine);
   for (uint32_t s = 0; s < t->schedulers; s++) {
      int n = schedule(sm, g, mine.slot[s], mine.count[s], &oldest[s], &next, &warp_insns,
                       &lane_insns, &last);
      if (n < 0) {
         ppu_counter_add(&sm->counters, PPU_COUNTER_COMPUTE_WARP_INSTRUCTIONS, warp_insns);
         ppu_counter_add(&sm->counters, PPU_COUNTER_COMPUTE_LANE_INSTRUCTIONS, lane_insns);
         return;
      }
      if (n > 0) {
         issuing++;
         oldest[s] = -2;
      }
   }
   /* Nothing issued: every warp waits, so jump to the first cycle one may
    * go (event-driven), charging the whole wait to each scheduler's reason. */
   uint64_t step = 1;
   if (!issuing && next != NEVER && next > now)
      step = next - now;
   for (uint32_t s = 0; s < t->schedulers; s++) {
      if (oldest[s] == -2)
         continue;
      enum ppu_counter c = oldest[s] < 0 ? PPU_COUNTER_SM_STALL_NO_WARP : stall_counter[oldest[s]];
      ppu_counter_add(&sm->counters, c, issuing ? 1 : step);
   }
   ppu_counter_add(&sm->counters, PPU_COUNTER_SM_ISSUE_CYCLES, issuing);
   ppu_counter_add(&sm->counters, PPU_COUNTER_SM_CYCLES, step);
   ppu_counter_add(&sm->counters, PPU_COUNTER_SM_WARP_OCCUPANCY_SUM, (uint64_t)resident * step);
   t->now = now + step;
   if (last && !ppu_sm_account(sm, g, last, warp_insns, lane_insns))
      return;
   ppu_sm_compact_order(sm);
}
