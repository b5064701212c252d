/* See spill.h. */
#include "spill.h"

#include <stdlib.h>

bool ir_spillable(const struct ir_program *p, uint32_t v, uint32_t first_spill_vreg)
{
   if (v == IR_NO_VREG || v >= first_spill_vreg || p->vreg_size[v] > 2)
      return false;
   if (p->pinned && v / 64 < p->pinned_words && (p->pinned[v / 64] >> (v % 64) & 1u))
      return false;
   return !(p->extend_lo && v < p->extend_count && p->extend_lo[v] < p->extend_hi[v]);
}

/* LD/ST.LOCAL of vreg v (`regs` registers) at the absolute local address
 * `slot`. */
static struct ir_insn slot_access(bool is_store, uint32_t v, unsigned regs, uint32_t slot)
{
   struct ir_insn i =
       ir_insn_make(is_store ? PPU_OP_ST : PPU_OP_LD, regs == 2 ? PPU_TYPE_U64 : PPU_TYPE_U32);
   i.f.mode = PPU_SPACE_LOCAL;
   i.f.imm = slot;
   i.local_ref = IR_LOCAL_ABSOLUTE;
   if (is_store)
      i.src[1] = v;
   else
      i.dst = v;
   return i;
}

bool ir_spill(struct ir_program *p, const bool *spill, uint32_t *local_size, uint32_t local_limit)
{
   /* 8-byte slots (aligned) for 64-bit values first, then 4-byte ones. */
   uint32_t nv = p->vreg_count, end = (*local_size + 7) & ~7u;
   uint32_t *slot = calloc(nv, sizeof(*slot));
   if (!slot)
      return false;
   for (unsigned regs = 2; regs >= 1; regs--)
      for (uint32_t v = 1; v < nv; v++)
         if (spill[v] && p->vreg_size[v] == regs) {
            slot[v] = end;
            end += 4 * regs;
         }
   if (end > local_limit) {
      free(slot);
      return false;
   }
   struct ir_insn_list r = {0};
   for (uint32_t k = 0; k < p->insn_count && !r.oom; k++) {
      struct ir_insn in = p->insns[k];
      if (in.is_label) {
         ir_insn_list_push(&r, &in);
         continue;
      }
      /* One new vreg per spilled vreg the instruction names. */
      uint32_t from[4] = {0}, to[4] = {0}, count = 0;
      uint32_t *fields[4] = {&in.dst, &in.src[0], &in.src[1], &in.src[2]};
      for (int f = 0; f < 4; f++) {
         uint32_t v = *fields[f];
         if (!v || !spill[v])
            continue;
         uint32_t j = 0;
         while (j < count && from[j] != v)
            j++;
         if (j == count) {
            unsigned regs = p->vreg_size[v];
            from[count] = v;
            to[count++] = ir_new_vreg(p, regs);
            /* A read, or a write the guard may skip in some lanes (they
             * keep the value), or that may set one half of a 64-bit
             * value, needs the value first. */
            bool reads = in.src[0] == v || in.src[1] == v || in.src[2] == v;
            if (reads || regs == 2 || (in.f.guard & 7u) != PPU_PT) {
               struct ir_insn ld = slot_access(false, to[j], regs, slot[v]);
               ir_insn_list_push(&r, &ld);
            }
         }
         *fields[f] = to[j];
      }
      ir_insn_list_push(&r, &in);
      if (in.dst && p->insns[k].dst && spill[p->insns[k].dst]) {
         struct ir_insn st = slot_access(true, in.dst, p->vreg_size[in.dst], slot[p->insns[k].dst]);
         ir_insn_list_push(&r, &st);
      }
   }
   free(slot);
   if (r.oom || p->out_of_memory) {
      free(r.v);
      return false;
   }
   ir_insn_list_install(p, &r);
   *local_size = end;
   return true;
}
