/* SIMT control flow: branches, the per-warp reconvergence stack, calls,
 * exits, barriers and memory barriers. docs/isa.md ("Control flow and
 * reconvergence") gives the rules a compiler follows; this file is the
 * machine those rules drive.
 *
 * The warp runs one path at a time with an active mask. SSY/PBK/PCNT/CALL
 * push an entry naming where lanes resume and which lanes resume there; a
 * divergent BRA pushes the taken side (DIV) and goes on with the not-taken
 * side. SYNC ends the current path: the top entry is popped and its lanes
 * resume at its PC. BRK/CONT/RET/EXIT take lanes out of the active mask and
 * out of every entry above the innermost PBK/PCNT/CALL (EXIT: all entries),
 * so they come back only at that entry; when no lane is left active the path
 * has ended as if by SYNC. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "compute/sm_operands.h"

/* A push onto a full on-chip stack moves its oldest entry to the warp's
 * stack area in local memory. The model keeps the whole stack in one array
 * (spill_area from then on) and counts the entries that went out; they
 * come back in the same order as the stack unwinds. */
static bool make_room(struct ppu_exec *x)
{
   struct ppu_warp *w = x->w;
   if (w->stack_depth < PPU_SIMT_STACK_DEPTH)
      return true;
   if (w->stack_depth == PPU_SIMT_STACK_MAX) {
      ppu_exec_fault(x, PPU_FAULT_SIMT_STACK, 0, false,
                     "reconvergence stack overflow (%u entries, %u of them in local memory)",
                     PPU_SIMT_STACK_MAX, PPU_SIMT_STACK_MAX - PPU_SIMT_STACK_DEPTH);
      return false;
   }
   if (w->stack == w->on_chip) {
      if (!w->spill_area)
         w->spill_area = malloc(PPU_SIMT_STACK_MAX * sizeof(*w->spill_area));
      if (!w->spill_area) {
         ppu_exec_fault(x, PPU_FAULT_SIMT_STACK, 0, false,
                        "no host memory for the reconvergence stack's local-memory area");
         return false;
      }
      memcpy(w->spill_area, w->on_chip, sizeof(w->on_chip));
      w->stack = w->spill_area;
   }
   ppu_counter_add(&x->sm->counters, PPU_COUNTER_COMPUTE_SIMT_STACK_SPILLS, 1);
   return true;
}

static enum ppu_exec_result push(struct ppu_exec *x, enum ppu_simt_kind kind, uint32_t pc,
                                 uint32_t mask)
{
   struct ppu_warp *w = x->w;
   if (!make_room(x))
      return PPU_EXEC_FAULT;
   w->stack[w->stack_depth++] = (struct ppu_simt_entry){.pc = pc, .mask = mask, .kind = kind};
   return PPU_EXEC_NEXT;
}

/* The current path has ended: resume the newest entry that still has lanes.
 * With an empty stack the warp is done, provided no lane is still live. */
static enum ppu_exec_result resume(struct ppu_exec *x)
{
   struct ppu_warp *w = x->w;
   while (w->stack_depth) {
      struct ppu_simt_entry e = w->stack[--w->stack_depth];
      e.mask &= w->live;
      if (e.mask) {
         w->pc = e.pc;
         w->active = e.mask;
         return PPU_EXEC_NEXT;
      }
   }
   w->active = 0;
   if (w->live) {
      ppu_exec_fault(x, PPU_FAULT_SIMT_STACK, 0, false,
                     "path ended with lanes 0x%08x live but no entry to resume", w->live);
      return PPU_EXEC_FAULT;
   }
   return PPU_EXEC_DONE;
}

/* BRK / CONT / RET: lanes leave to the innermost entry of kind. */
static enum ppu_exec_result leave_to(struct ppu_exec *x, enum ppu_simt_kind kind)
{
   struct ppu_warp *w = x->w;
   uint32_t lanes = x->exec;
   int target = (int)w->stack_depth - 1;
   while (target >= 0 && w->stack[target].kind != kind)
      target--;
   if (target < 0) {
      ppu_exec_fault(x, PPU_FAULT_SIMT_STACK, 0, false, "%s without a matching %s entry",
                     ppu_op_name(x->f->op),
                     kind == PPU_SIMT_BREAK  ? "PBK"
                     : kind == PPU_SIMT_CONT ? "PCNT"
                                             : "CALL");
      return PPU_EXEC_FAULT;
   }
   if (!lanes)
      return PPU_EXEC_NEXT;
   for (uint32_t i = (uint32_t)target + 1; i < w->stack_depth; i++)
      w->stack[i].mask &= ~lanes;
   w->active &= ~lanes;
   return w->active ? PPU_EXEC_NEXT : resume(x);
}

static enum ppu_exec_result exec_exit(struct ppu_exec *x)
{
   struct ppu_warp *w = x->w;
   uint32_t lanes = x->exec;
   for (uint32_t i = 0; i < w->stack_depth; i++)
      w->stack[i].mask &= ~lanes;
   w->live &= ~lanes;
   w->active &= ~lanes;
   return w->active ? PPU_EXEC_NEXT : resume(x);
}

static enum ppu_exec_result exec_branch(struct ppu_exec *x)
{
   struct ppu_warp *w = x->w;
   uint32_t taken = x->exec, not_taken = w->active & ~taken;
   if (!taken)
      return PPU_EXEC_NEXT;
   if (!not_taken) {
      w->pc = x->f->imm;
      return PPU_EXEC_NEXT;
   }
   /* Divergence: the taken side waits on the stack, the fall-through side
    * runs first and hands over at its SYNC. */
   ppu_counter_add(&x->sm->counters, PPU_COUNTER_COMPUTE_DIVERGENT_BRANCHES, 1);
   enum ppu_exec_result r = push(x, PPU_SIMT_DIV, x->f->imm, taken);
   w->active = not_taken;
   return r;
}

enum ppu_exec_result ppu_exec_control(struct ppu_exec *x)
{
   struct ppu_warp *w = x->w;
   switch ((enum ppu_op)x->f->op) {
   case PPU_OP_BRA:
      return exec_branch(x);
   case PPU_OP_SSY:
      return push(x, PPU_SIMT_SYNC, x->f->imm, w->active);
   case PPU_OP_PBK:
      return push(x, PPU_SIMT_BREAK, x->f->imm, w->active);
   case PPU_OP_PCNT:
      return push(x, PPU_SIMT_CONT, x->f->imm, w->active);
   case PPU_OP_CALL: {
      enum ppu_exec_result r = push(x, PPU_SIMT_CALL, w->pc, w->active);
      w->pc = x->f->imm;
      return r;
   }
   case PPU_OP_SYNC:
      if (w->stack_depth == 0) {
         ppu_exec_fault(x, PPU_FAULT_SIMT_STACK, 0, false, "SYNC with an empty stack");
         return PPU_EXEC_FAULT;
      }
      return resume(x);
   case PPU_OP_BRK:
      return leave_to(x, PPU_SIMT_BREAK);
   case PPU_OP_CONT:
      return leave_to(x, PPU_SIMT_CONT);
   case PPU_OP_RET:
      return leave_to(x, PPU_SIMT_CALL);
   case PPU_OP_EXIT:
      return exec_exit(x);
   case PPU_OP_BAR:
      return ppu_sm_barrier_arrive(x->sm, w);
   case PPU_OP_MEMBAR:
      /* Functional mode: memory is coherent, so a fence on the host thread
       * orders this warp's accesses against other SMs' threads. */
      if (x->f->subop != PPU_MEMBAR_CTA)
         atomic_thread_fence(memory_order_seq_cst);
      return PPU_EXEC_NEXT;
   default:
      ppu_exec_fault(x, PPU_FAULT_ILLEGAL_INSTRUCTION, 0, false, "not a control instruction");
      return PPU_EXEC_FAULT;
   }
}
