/* The SM's load/store unit: LD, ST and ATOM on global memory (through the
 * SM's MMU port and TLB), workgroup shared memory and per-thread local
 * memory, and generic addresses that select one of the three by window
 * (ppu/isa.h).
 *
 * Lanes are served in lane order, so when several lanes store to one
 * address the highest lane's value remains. Global accesses are relaxed
 * atomic loads/stores of their natural size and atomics are C11 atomics on
 * VRAM: other SMs run on other host threads, and host threads read VRAM
 * through the BAR at the same time. Every access must be aligned to its
 * size; a misaligned or out-of-range address is a fault, never a host
 * access outside the model's memory. */
#include <stdatomic.h>

#include "compute/jit.h"
#include "compute/sm_operands.h"
#include "fault.h"
#include "ppu/mmu_format.h"

/* The last translation made by this instruction: lanes of a warp usually
 * hit one page, so each page costs one TLB lookup per instruction. */
struct page_cache {
   uint64_t vpn;
   bool valid, writable_checked;
   uint8_t *host;
};

struct mem_target {
   uint8_t *p;
   bool global;
};

static unsigned access_bytes(unsigned type)
{
   switch (type) {
   case PPU_TYPE_U8:
   case PPU_TYPE_S8:
      return 1;
   case PPU_TYPE_U16:
   case PPU_TYPE_S16:
      return 2;
   case PPU_TYPE_U64:
   case PPU_TYPE_S64:
      return 8;
   case PPU_TYPE_B128:
      return 16;
   default:
      return 4;
   }
}

/* Resolves one lane's address to a host pointer; false with the fault set. */
static bool resolve(struct ppu_exec *x, unsigned lane, uint64_t addr, unsigned bytes, bool write,
                    struct page_cache *pc, struct mem_target *t)
{
   const struct ppu_grid *g = x->grid;
   if (addr % bytes) {
      ppu_exec_fault(x, PPU_FAULT_MISALIGNED_ADDRESS, addr, write,
                     "lane %u: %u-byte access at 0x%llx", lane, bytes, (unsigned long long)addr);
      return false;
   }
   unsigned space = ppu_lsu_space(x->f->mode, &addr);
   struct ppu_workgroup *wg = &x->sm->wg[x->w->wg_slot];
   t->global = space == PPU_SPACE_GLOBAL;
   if (space == PPU_SPACE_SHARED || space == PPU_SPACE_LOCAL) {
      uint64_t size = space == PPU_SPACE_SHARED ? g->shared_size : g->local_size;
      if (addr > size || bytes > size - addr) {
         ppu_exec_fault(x, PPU_FAULT_OUT_OF_RANGE, addr, write,
                        "lane %u: %s offset 0x%llx beyond %llu bytes", lane,
                        space == PPU_SPACE_SHARED ? "shared" : "local", (unsigned long long)addr,
                        (unsigned long long)size);
         return false;
      }
      if (space == PPU_SPACE_SHARED) {
         t->p = wg->shared + addr;
      } else {
         uint64_t thread = (uint64_t)x->w->warp_in_wg * PPU_WARP_SIZE + lane;
         t->p = wg->local + thread * g->local_size + addr;
      }
      ppu_counter_add(&x->sm->counters, PPU_COUNTER_COMPUTE_SHARED_ACCESSES,
                      space == PPU_SPACE_SHARED);
      return true;
   }
   uint64_t vpn = addr >> PPU_PAGE_SHIFT;
   if (!pc->valid || pc->vpn != vpn) {
      uint64_t pa;
      if (!ppu_mmu_translate(&x->sm->mmu, g->pd_pa, addr & ~PPU_PAGE_MASK, write, &pa, x->fault)) {
         x->fault->pc = g->program_va + x->pc;
         x->fault->address = addr;
         return false;
      }
      pc->vpn = vpn;
      pc->valid = true;
      pc->host = ppu_mmu_host_ptr(x->sm->mmu.mmu, pa);
   }
   /* An access is aligned to its size and pages are 4 KiB, so it never
    * crosses into the next page. */
   t->p = pc->host + (addr & PPU_PAGE_MASK);
   ppu_counter_add(&x->sm->counters, PPU_COUNTER_COMPUTE_GLOBAL_ACCESSES, 1);
   return true;
}

uint8_t *ppu_jit_page(struct ppu_jit_state *st, uint64_t va, uint32_t pc, uint32_t write)
{
   const struct ppu_grid *g = st->grid;
   uint64_t pa;
   if (!ppu_mmu_translate(&st->sm->mmu, g->pd_pa, va & ~PPU_PAGE_MASK, write, &pa, st->fault)) {
      st->fault->pc = g->program_va + pc;
      st->fault->address = va;
      return NULL;
   }
   return ppu_mmu_host_ptr(st->sm->mmu.mmu, pa);
}

uint8_t *ppu_jit_workgroup_memory(struct ppu_jit_state *st, struct ppu_warp *w, uint32_t local)
{
   struct ppu_workgroup *wg = &st->sm->wg[w->wg_slot];
   if (!local)
      return wg->shared;
   return wg->local + (uint64_t)w->warp_in_wg * PPU_WARP_SIZE * st->grid->local_size;
}

uint64_t ppu_lsu_lane_address(const struct ppu_exec *x, unsigned l)
{
   const struct ppu_insn_fields *f = x->f;
   int64_t off = (int32_t)f->imm;
   if (f->mode == PPU_SPACE_GLOBAL || f->mode == PPU_SPACE_GENERIC) {
      struct ppu_vec64 a = ppu_src64(x->w, f->ra);
      return v64(a, l) + (uint64_t)off;
   }
   return (uint64_t)(uint32_t)(ppu_reg_src(x->w, f->ra)[l] + (uint32_t)off);
}

static uint64_t load_n(const uint8_t *p, unsigned bytes)
{
   switch (bytes) {
   case 1:
      return atomic_load_explicit((_Atomic uint8_t *)(void *)p, memory_order_relaxed);
   case 2:
      return atomic_load_explicit((_Atomic uint16_t *)(void *)p, memory_order_relaxed);
   case 4:
      return atomic_load_explicit((_Atomic uint32_t *)(void *)p, memory_order_relaxed);
   default:
      return atomic_load_explicit((_Atomic uint64_t *)(void *)p, memory_order_relaxed);
   }
}

static void store_n(uint8_t *p, unsigned bytes, uint64_t v)
{
   switch (bytes) {
   case 1:
      atomic_store_explicit((_Atomic uint8_t *)(void *)p, (uint8_t)v, memory_order_relaxed);
      break;
   case 2:
      atomic_store_explicit((_Atomic uint16_t *)(void *)p, (uint16_t)v, memory_order_relaxed);
      break;
   case 4:
      atomic_store_explicit((_Atomic uint32_t *)(void *)p, (uint32_t)v, memory_order_relaxed);
      break;
   default:
      atomic_store_explicit((_Atomic uint64_t *)(void *)p, v, memory_order_relaxed);
      break;
   }
}

static enum ppu_exec_result exec_ld_st(struct ppu_exec *x, bool store)
{
   const struct ppu_insn_fields *f = x->f;
   unsigned bytes = access_bytes(f->type);
   unsigned words = bytes > 4 ? bytes / 4 : 1;
   struct page_cache pc = {0};
   for (unsigned l = 0; l < LANES; l++) {
      if (!((x->exec >> l) & 1u))
         continue;
      struct mem_target t;
      if (!resolve(x, l, ppu_lsu_lane_address(x, l), bytes, store, &pc, &t))
         return PPU_EXEC_FAULT;
      unsigned r = store ? f->rb : f->rd;
      if (bytes <= 4) {
         if (store) {
            store_n(t.p, bytes, ppu_reg_src(x->w, r)[l]);
         } else {
            uint64_t v = load_n(t.p, bytes);
            if (f->type == PPU_TYPE_S8)
               v = (uint32_t)(int32_t)(int8_t)v;
            else if (f->type == PPU_TYPE_S16)
               v = (uint32_t)(int32_t)(int16_t)v;
            ppu_reg_dst(x->w, r, 0)[l] = (uint32_t)v;
         }
         continue;
      }
      for (unsigned k = 0; k < words; k += 2) {
         if (store) {
            uint64_t v =
                r == PPU_RZ ? 0 : (uint64_t)x->w->reg[r + k + 1][l] << 32 | x->w->reg[r + k][l];
            store_n(t.p + 4 * k, 8, v);
         } else {
            uint64_t v = load_n(t.p + 4 * k, 8);
            ppu_reg_dst(x->w, r, k)[l] = (uint32_t)v;
            ppu_reg_dst(x->w, r, k + 1)[l] = (uint32_t)(v >> 32);
         }
      }
   }
   return PPU_EXEC_NEXT;
}

uint32_t ppu_lsu_atom32(uint8_t *p, unsigned op, unsigned type, uint32_t v, uint32_t cmp)
{
   _Atomic uint32_t *a = (_Atomic uint32_t *)(void *)p;
   uint32_t old;
   switch (op) {
   case PPU_ATOM_ADD:
      if (type == PPU_TYPE_F32) {
         old = atomic_load_explicit(a, memory_order_relaxed);
         while (!atomic_compare_exchange_weak(a, &old, u32_of(f32_of(old) + f32_of(v))))
            ;
         return old;
      }
      return atomic_fetch_add(a, v);
   case PPU_ATOM_AND:
      return atomic_fetch_and(a, v);
   case PPU_ATOM_OR:
      return atomic_fetch_or(a, v);
   case PPU_ATOM_XOR:
      return atomic_fetch_xor(a, v);
   case PPU_ATOM_EXCH:
      return atomic_exchange(a, v);
   case PPU_ATOM_CAS:
      old = cmp;
      atomic_compare_exchange_strong(a, &old, v);
      return old;
   default: { /* MIN, MAX */
      int s = type == PPU_TYPE_S32;
      old = atomic_load_explicit(a, memory_order_relaxed);
      for (;;) {
         int less = s ? (int32_t)v < (int32_t)old : v < old;
         uint32_t want = (op == PPU_ATOM_MIN) == less ? v : old;
         if (want == old || atomic_compare_exchange_weak(a, &old, want))
            return old;
      }
   }
   }
}

static uint64_t atom64(uint8_t *p, unsigned op, unsigned type, uint64_t v, uint64_t cmp)
{
   _Atomic uint64_t *a = (_Atomic uint64_t *)(void *)p;
   uint64_t old;
   switch (op) {
   case PPU_ATOM_ADD:
      return atomic_fetch_add(a, v);
   case PPU_ATOM_AND:
      return atomic_fetch_and(a, v);
   case PPU_ATOM_OR:
      return atomic_fetch_or(a, v);
   case PPU_ATOM_XOR:
      return atomic_fetch_xor(a, v);
   case PPU_ATOM_EXCH:
      return atomic_exchange(a, v);
   case PPU_ATOM_CAS:
      old = cmp;
      atomic_compare_exchange_strong(a, &old, v);
      return old;
   default: {
      int s = type == PPU_TYPE_S64;
      old = atomic_load_explicit(a, memory_order_relaxed);
      for (;;) {
         int less = s ? (int64_t)v < (int64_t)old : v < old;
         uint64_t want = (op == PPU_ATOM_MIN) == less ? v : old;
         if (want == old || atomic_compare_exchange_weak(a, &old, want))
            return old;
      }
   }
   }
}

static enum ppu_exec_result exec_atom(struct ppu_exec *x)
{
   const struct ppu_insn_fields *f = x->f;
   bool wide = ppu_type_is64(f->type);
   unsigned bytes = wide ? 8 : 4;
   struct page_cache pc = {0};
   struct ppu_vec64 v = ppu_src64(x->w, f->rb), c = ppu_src64(x->w, f->rc);
   for (unsigned l = 0; l < LANES; l++) {
      if (!((x->exec >> l) & 1u))
         continue;
      struct mem_target t;
      if (!resolve(x, l, ppu_lsu_lane_address(x, l), bytes, true, &pc, &t))
         return PPU_EXEC_FAULT;
      if (wide) {
         uint64_t old = atom64(t.p, f->subop, f->type, v64(v, l), v64(c, l));
         ppu_reg_dst(x->w, f->rd, 0)[l] = (uint32_t)old;
         ppu_reg_dst(x->w, f->rd, 1)[l] = (uint32_t)(old >> 32);
      } else {
         ppu_reg_dst(x->w, f->rd, 0)[l] = ppu_lsu_atom32(t.p, f->subop, f->type, v.lo[l], c.lo[l]);
      }
   }
   return PPU_EXEC_NEXT;
}

enum ppu_exec_result ppu_exec_memory(struct ppu_exec *x)
{
   if (x->exec == 0)
      return PPU_EXEC_NEXT;
   switch (x->f->op) {
   case PPU_OP_LD:
      return exec_ld_st(x, false);
   case PPU_OP_ST:
      return exec_ld_st(x, true);
   default:
      return exec_atom(x);
   }
}
