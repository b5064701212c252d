/* SM: resident workgroups, the warp scheduler and the issue loop. The
 * instruction groups execute in sm_alu.c, sm_float.c, sm_convert.c,
 * sm_lsu.c, sm_simt.c, sm_subgroup.c, sm_ttu.c and sm_tex.c. */
#include "compute/sm.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compute/jit.h"
#include "fault.h"
#include "host_bits.h"

const uint32_t ppu_sm_zero[4][PPU_WARP_SIZE];

/* Writes to RZ land here; every thread has its own so SMs on different
 * workers never share it. */
static _Thread_local uint32_t rz_sink[4][PPU_WARP_SIZE];

uint32_t *ppu_reg_dst(struct ppu_warp *w, unsigned r, unsigned word)
{
   return r == PPU_RZ ? rz_sink[word & 3] : w->reg[r + word];
}

void ppu_sm_init(struct ppu_sm *sm, uint32_t id, uint32_t gpc, struct ppu_mmu *mmu,
                 const struct ppu_gpu_config *cfg)
{
   memset(sm, 0, sizeof(*sm));
   sm->id = id;
   sm->gpc = gpc;
   ppu_mmu_client_init(&sm->mmu, mmu, PPU_ENGINE_COMPUTE);
   ppu_mmu_client_set_tlb_entries(&sm->mmu, cfg->tlb_entries);
   sm->mmu.counters = &sm->counters;
   ppu_icache_init(&sm->icache, cfg->icache_lines);
   ppu_ttu_init(&sm->ttu, &sm->mmu, &sm->counters, cfg->ttu_l0_lines);
   sm->ttu.stack_entries = cfg->ttu_stack_entries;
   ppu_ttu_beam_configure(&sm->ttu.beam, cfg->ttu_beam_enabled, cfg->ttu_beam_nodes);
   ppu_tex_unit_init(&sm->tex, &sm->mmu, &sm->counters);
}

/* Frees the warp slots with the stack spill areas some of them made. */
static void free_warps(struct ppu_sm *sm)
{
   for (uint32_t i = 0; sm->warp && i < sm->warp_slots; i++)
      free(sm->warp[i].spill_area);
   free(sm->warp);
   sm->warp = NULL;
}

void ppu_sm_finish(struct ppu_sm *sm)
{
   ppu_ttu_finish(&sm->ttu);
   free(sm->wg);
   free_warps(sm);
   free(sm->order);
   free(sm->regfile);
   free(sm->shared);
   free(sm->local);
   memset(sm, 0, sizeof(*sm));
}

/* Grows *p to at least bytes (contents not kept); false when out of memory. */
static bool reserve(void **p, size_t *have, size_t bytes)
{
   if (bytes <= *have && *p)
      return true;
   void *n = malloc(bytes ? bytes : 1);
   if (!n)
      return false;
   free(*p);
   *p = n;
   *have = bytes;
   return true;
}

bool ppu_sm_begin_grid(struct ppu_sm *sm, const struct ppu_grid *g)
{
   sm->grid = g;
   ppu_icache_flush(&sm->icache, g->register_count);
   ppu_ttu_begin_grid(&sm->ttu);
   ppu_tex_unit_begin_grid(&sm->tex);
   free(sm->wg);
   free_warps(sm);
   free(sm->order);
   sm->wg_slots = g->workgroups_per_sm;
   sm->warp_slots = g->workgroups_per_sm * g->warps_per_workgroup;
   sm->wg = calloc(sm->wg_slots, sizeof(*sm->wg));
   sm->warp = calloc(sm->warp_slots, sizeof(*sm->warp));
   sm->order = calloc(sm->warp_slots, sizeof(*sm->order));
   sm->order_count = 0;
   size_t regs = (size_t)sm->warp_slots * g->register_count * PPU_WARP_SIZE * sizeof(uint32_t);
   size_t shared = (size_t)sm->wg_slots * g->shared_size;
   size_t local = (size_t)sm->wg_slots * g->threads_per_workgroup * g->local_size;
   if (!sm->wg || !sm->warp || !sm->order ||
       !reserve((void **)&sm->regfile, &sm->regfile_bytes, regs) ||
       !reserve((void **)&sm->shared, &sm->shared_bytes, shared) ||
       !reserve((void **)&sm->local, &sm->local_bytes, local))
      return false;
   for (uint32_t i = 0; i < sm->warp_slots; i++)
      sm->warp[i].reg =
          (uint32_t(*)[PPU_WARP_SIZE])(sm->regfile + (size_t)i * g->register_count * PPU_WARP_SIZE);
   for (uint32_t i = 0; i < sm->wg_slots; i++) {
      sm->wg[i].shared = sm->shared + (size_t)i * g->shared_size;
      sm->wg[i].local = sm->local + (size_t)i * g->threads_per_workgroup * g->local_size;
   }
   return true;
}

bool ppu_sm_has_free_slot(const struct ppu_sm *sm)
{
   for (uint32_t i = 0; i < sm->wg_slots; i++)
      if (!sm->wg[i].in_use)
         return true;
   return false;
}

bool ppu_sm_busy(const struct ppu_sm *sm)
{
   return sm->order_count != 0;
}

void ppu_sm_launch_workgroup(struct ppu_sm *sm, uint64_t index)
{
   const struct ppu_grid *g = sm->grid;
   uint32_t slot = 0;
   while (sm->wg[slot].in_use)
      slot++;
   struct ppu_workgroup *wg = &sm->wg[slot];
   wg->in_use = true;
   uint64_t gx = g->grid_size[0], gy = g->grid_size[1];
   wg->id[0] = g->grid_base[0] + (uint32_t)(index % gx);
   wg->id[1] = g->grid_base[1] + (uint32_t)(index / gx % gy);
   wg->id[2] = g->grid_base[2] + (uint32_t)(index / (gx * gy));
   wg->first_warp = slot * g->warps_per_workgroup;
   wg->warps_live = g->warps_per_workgroup;
   wg->barrier_wait = 0;
   /* Shared and local memory start as zero: zero keeps runs reproducible,
    * and the compiler relies on shared memory being zero for Workgroup
    * variables with a null initializer (shaderZeroInitializeWorkgroupMemory;
    * docs/compute.md). */
   memset(wg->shared, 0, g->shared_size);
   memset(wg->local, 0, (size_t)g->threads_per_workgroup * g->local_size);
   for (uint32_t i = 0; i < g->warps_per_workgroup; i++) {
      struct ppu_warp *w = &sm->warp[wg->first_warp + i];
      uint32_t first_thread = i * PPU_WARP_SIZE;
      uint32_t lanes = g->threads_per_workgroup - first_thread;
      w->state = PPU_WARP_READY;
      w->pc = 0;
      w->issued = 0;
      w->live = lanes >= PPU_WARP_SIZE ? 0xffffffffu : (1u << lanes) - 1;
      w->active = w->live;
      memset(w->pred, 0, sizeof(w->pred));
      w->pred[PPU_PT] = 0xffffffffu;
      memset(w->reg, 0, (size_t)g->register_count * sizeof(*w->reg));
      w->age = sm->next_age++;
      w->wg_slot = slot;
      w->warp_in_wg = i;
      w->stack_depth = 0;
      w->stack = w->on_chip;
      sm->order[sm->order_count++] = wg->first_warp + i;
   }
}

/* Releases the barrier when every live warp of the workgroup waits at it.
 * Warps that have exited do not take part (as on hardware), so a barrier
 * after some warps exited still completes. */
static void barrier_check(struct ppu_sm *sm, struct ppu_workgroup *wg)
{
   if (wg->barrier_wait == 0 || wg->barrier_wait < wg->warps_live)
      return;
   for (uint32_t i = 0; i < sm->grid->warps_per_workgroup; i++) {
      struct ppu_warp *w = &sm->warp[wg->first_warp + i];
      if (w->state == PPU_WARP_BARRIER)
         w->state = PPU_WARP_READY;
   }
   wg->barrier_wait = 0;
   ppu_counter_add(&sm->counters, PPU_COUNTER_COMPUTE_BARRIERS, 1);
}

enum ppu_exec_result ppu_sm_barrier_arrive(struct ppu_sm *sm, struct ppu_warp *w)
{
   struct ppu_workgroup *wg = &sm->wg[w->wg_slot];
   w->state = PPU_WARP_BARRIER;
   wg->barrier_wait++;
   barrier_check(sm, wg);
   return w->state == PPU_WARP_BARRIER ? PPU_EXEC_BLOCKED : PPU_EXEC_NEXT;
}

static void warp_done(struct ppu_sm *sm, struct ppu_warp *w)
{
   struct ppu_workgroup *wg = &sm->wg[w->wg_slot];
   w->state = PPU_WARP_DONE;
   wg->warps_live--;
   if (wg->warps_live == 0) {
      for (uint32_t i = 0; i < sm->grid->warps_per_workgroup; i++)
         sm->warp[wg->first_warp + i].state = PPU_WARP_FREE;
      wg->in_use = false;
      ppu_counter_add(&sm->counters, PPU_COUNTER_COMPUTE_WORKGROUPS, 1);
   } else {
      barrier_check(sm, wg);
   }
}

void ppu_exec_fault(struct ppu_exec *x, enum ppu_fault_kind kind, uint64_t address, bool write,
                    const char *fmt, ...)
{
   char what[96];
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(what, sizeof(what), fmt, ap);
   va_end(ap);
   const struct ppu_workgroup *wg = &x->sm->wg[x->w->wg_slot];
   ppu_fault_set(x->fault, kind, PPU_ENGINE_COMPUTE, "%s (%s; SM %u, workgroup %u,%u,%u, warp %u)",
                 what, ppu_op_name(x->f->op), x->sm->id, wg->id[0], wg->id[1], wg->id[2],
                 x->w->warp_in_wg);
   x->fault->address = address;
   x->fault->write = write;
   x->fault->pc = x->grid->program_va + x->pc;
}

/* The ready check of the seed's scheduler (FIG. 6, 645-650). Functional
 * mode: only a barrier holds a warp back. The timing mode adds the
 * scoreboard and resource checks here. */
static bool warp_ready(const struct ppu_warp *w)
{
   return w->state == PPU_WARP_READY;
}

static enum ppu_exec_result dispatch(struct ppu_exec *x)
{
   switch ((enum ppu_op)x->f->op) {
   case PPU_OP_FADD:
   case PPU_OP_FSUB:
   case PPU_OP_FMUL:
   case PPU_OP_FFMA:
   case PPU_OP_FDIV:
   case PPU_OP_FMIN:
   case PPU_OP_FMAX:
   case PPU_OP_FSETP:
   case PPU_OP_MUFU:
      return ppu_exec_float(x);
   case PPU_OP_FRND:
   case PPU_OP_CVT:
      return ppu_exec_convert(x);
   case PPU_OP_LD:
   case PPU_OP_ST:
   case PPU_OP_ATOM:
      return ppu_exec_memory(x);
   case PPU_OP_VOTE:
   case PPU_OP_SHFL:
   case PPU_OP_WRED:
      return ppu_exec_subgroup(x);
   case PPU_OP_TTU:
      return ppu_exec_ttu(x);
   case PPU_OP_TEX:
   case PPU_OP_TLD:
   case PPU_OP_TLD4:
   case PPU_OP_TXQ:
   case PPU_OP_SULD:
   case PPU_OP_SUST:
   case PPU_OP_SUATOM:
      return ppu_exec_tex(x);
   case PPU_OP_BRA:
   case PPU_OP_SSY:
   case PPU_OP_PBK:
   case PPU_OP_PCNT:
   case PPU_OP_SYNC:
   case PPU_OP_BRK:
   case PPU_OP_CONT:
   case PPU_OP_CALL:
   case PPU_OP_RET:
   case PPU_OP_EXIT:
   case PPU_OP_BAR:
   case PPU_OP_MEMBAR:
      return ppu_exec_control(x);
   default:
      return ppu_exec_alu(x);
   }
}

/* One fetched instruction of a warp: both modes go through here, so the
 * timing mode computes exactly what the functional mode does. Inlined into
 * the functional loop. */
static inline enum ppu_exec_result issue(struct ppu_exec *x, const struct ppu_icache_insn *in,
                                         uint64_t *warp_insns, uint64_t *lane_insns)
{
   struct ppu_warp *w = x->w;
   x->pc = w->pc;
   x->f = &in->f;
   if (in->illegal) {
      ppu_exec_fault(x, PPU_FAULT_ILLEGAL_INSTRUCTION, 0, false, "illegal instruction: %s",
                     in->illegal);
      return PPU_EXEC_FAULT;
   }
   /* Counted per warp, at issue, so the count is the same in both modes and
    * however warps are scheduled, and the fault names the looping PC. */
   if (x->grid->watchdog_per_warp && ++w->issued > x->grid->watchdog_per_warp) {
      ppu_exec_fault(x, PPU_FAULT_WATCHDOG, 0, false,
                     "warp issued %llu instructions without ending",
                     (unsigned long long)x->grid->watchdog_per_warp);
      return PPU_EXEC_FAULT;
   }
   x->exec = ppu_warp_exec_mask(w, &in->f);
   *warp_insns += 1;
   *lane_insns += ppu_popcount32(x->exec);
   w->pc += PPU_INSN_BYTES;
   enum ppu_exec_result r = dispatch(x);
   if (r == PPU_EXEC_DONE)
      warp_done(x->sm, w);
   return r;
}

enum ppu_exec_result ppu_sm_issue(struct ppu_sm *sm, struct ppu_grid *g, struct ppu_warp *w,
                                  const struct ppu_icache_insn *in, struct ppu_fault *fault,
                                  uint64_t *warp_insns, uint64_t *lane_insns)
{
   struct ppu_exec x = {.sm = sm, .grid = g, .w = w, .fault = fault};
   return issue(&x, in, warp_insns, lane_insns);
}

int32_t ppu_jit_step(struct ppu_jit_state *st, uint32_t *reg, struct ppu_warp *w)
{
   (void)reg;
   struct ppu_sm *sm = st->sm;
   struct ppu_grid *g = st->grid;
   const struct ppu_icache_insn *in = ppu_icache_fetch(&sm->icache, &sm->mmu, &sm->counters,
                                                       g->pd_pa, g->program_va + w->pc, st->fault);
   if (!in) {
      st->fault->pc = g->program_va + w->pc;
      return PPU_EXEC_FAULT;
   }
   struct ppu_exec x = {.sm = sm, .grid = g, .w = w, .fault = st->fault};
   st->budget--;
   return issue(&x, in, &st->warp_insns, &st->lane_insns);
}

/* Runs translated code for up to budget instructions of w. */
static enum ppu_exec_result run_translated(struct ppu_sm *sm, struct ppu_grid *g,
                                           struct ppu_warp *w, ppu_jit_fn code, unsigned *issued,
                                           struct ppu_fault *fault, uint64_t *warp_insns,
                                           uint64_t *lane_insns)
{
   int64_t budget = PPU_SM_ISSUE_QUANTUM - *issued;
   /* The watchdog faults at the instruction past the warp's limit: the
    * interpreter issues that one. */
   if (g->watchdog_per_warp) {
      uint64_t left = w->issued < g->watchdog_per_warp ? g->watchdog_per_warp - w->issued : 0;
      if (left < (uint64_t)budget)
         budget = (int64_t)left;
   }
   if (budget <= 0)
      return PPU_EXEC_NEXT;
   struct ppu_jit_state st = {
       .budget = budget, .icache = sm->icache.line, .sm = sm, .grid = g, .fault = fault};
   enum ppu_exec_result r = (enum ppu_exec_result)code(&st, w->reg[0], w);
   *issued += (unsigned)(budget - st.budget);
   *warp_insns += st.warp_insns;
   *lane_insns += st.lane_insns;
   return r;
}

/* What the quantum loop does after an instruction (or a translated run):
 * go on, end the warp's turn, or stop the grid. */
enum turn { TURN_GO_ON, TURN_END, TURN_FAULT };

static enum turn turn_after(enum ppu_exec_result r)
{
   return r == PPU_EXEC_NEXT ? TURN_GO_ON : r == PPU_EXEC_FAULT ? TURN_FAULT : TURN_END;
}

/* Issues up to a quantum of one warp's instructions: translated code where
 * the program has it, the interpreter for the rest. Returns false when the
 * grid must stop (fault filled in). */
static bool run_warp(struct ppu_sm *sm, struct ppu_grid *g, struct ppu_warp *w,
                     struct ppu_fault *fault, uint64_t *warp_insns, uint64_t *lane_insns)
{
   struct ppu_exec x = {.sm = sm, .grid = g, .w = w, .fault = fault};
   ppu_jit_fn code = g->jit ? ppu_jit_program_code(g->jit, 0) : NULL;
   unsigned n = 0;
   while (n < PPU_SM_ISSUE_QUANTUM) {
      if (code) {
         enum turn t =
             turn_after(run_translated(sm, g, w, code, &n, fault, warp_insns, lane_insns));
         if (t != TURN_GO_ON)
            return t == TURN_END;
         if (n >= PPU_SM_ISSUE_QUANTUM)
            break;
      }
      const struct ppu_icache_insn *in = ppu_icache_fetch(&sm->icache, &sm->mmu, &sm->counters,
                                                          g->pd_pa, g->program_va + w->pc, fault);
      if (!in) {
         fault->pc = g->program_va + w->pc;
         return false;
      }
      n++;
      enum turn t = turn_after(issue(&x, in, warp_insns, lane_insns));
      if (t != TURN_GO_ON)
         return t == TURN_END;
   }
   return true;
}

bool ppu_sm_account(struct ppu_sm *sm, struct ppu_grid *g, struct ppu_warp *w, uint64_t warp_insns,
                    uint64_t lane_insns)
{
   ppu_counter_add(&sm->counters, PPU_COUNTER_COMPUTE_WARP_INSTRUCTIONS, warp_insns);
   ppu_counter_add(&sm->counters, PPU_COUNTER_COMPUTE_LANE_INSTRUCTIONS, lane_insns);
   if (g->jit)
      ppu_jit_program_code(g->jit, warp_insns); /* tiering: may translate the program */
   /* The watchdog counts per warp run so the fault names the PC of the
    * warp that crossed the budget. */
   uint64_t total =
       atomic_fetch_add_explicit(&g->warp_instructions, warp_insns, memory_order_relaxed) +
       warp_insns;
   if (!g->watchdog_budget || total <= g->watchdog_budget)
      return true;
   struct ppu_fault fault;
   struct ppu_exec x = {.sm = sm, .grid = g, .w = w, .fault = &fault, .pc = w->pc};
   struct ppu_insn_fields nop;
   ppu_insn_fields_init(&nop, PPU_OP_NOP);
   x.f = &nop;
   ppu_exec_fault(&x, PPU_FAULT_WATCHDOG, 0, false,
                  "grid exceeded its budget of %llu warp instructions",
                  (unsigned long long)g->watchdog_budget);
   ppu_grid_report_fault(g, &fault);
   return false;
}

void ppu_sm_compact_order(struct ppu_sm *sm)
{
   uint32_t kept = 0;
   for (uint32_t i = 0; i < sm->order_count; i++) {
      enum ppu_warp_state s = sm->warp[sm->order[i]].state;
      if (s == PPU_WARP_READY || s == PPU_WARP_BARRIER)
         sm->order[kept++] = sm->order[i];
   }
   sm->order_count = kept;
}

void ppu_sm_step(struct ppu_sm *sm, struct ppu_grid *g)
{
   uint64_t warp_insns = 0, lane_insns = 0;
   struct ppu_fault fault;
   for (uint32_t i = 0; i < sm->order_count; i++) {
      struct ppu_warp *w = &sm->warp[sm->order[i]];
      if (!warp_ready(w))
         continue;
      uint64_t warp_before = warp_insns, lane_before = lane_insns;
      if (!run_warp(sm, g, w, &fault, &warp_insns, &lane_insns)) {
         ppu_counter_add(&sm->counters, PPU_COUNTER_COMPUTE_WARP_INSTRUCTIONS,
                         warp_insns - warp_before);
         ppu_counter_add(&sm->counters, PPU_COUNTER_COMPUTE_LANE_INSTRUCTIONS,
                         lane_insns - lane_before);
         ppu_grid_report_fault(g, &fault);
         break;
      }
      if (!ppu_sm_account(sm, g, w, warp_insns - warp_before, lane_insns - lane_before))
         break;
      if (ppu_grid_aborted(g))
         break;
   }
   ppu_sm_compact_order(sm);
}
