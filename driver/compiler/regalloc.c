/* See regalloc.h. */
#include "regalloc.h"

#include "spill.h"

#include <stdlib.h>
#include <string.h>

struct interval {
   uint32_t vreg, start, end;
};

static int interval_by_start(const void *a, const void *b)
{
   const struct interval *x = a, *y = b;
   if (x->start != y->start)
      return x->start < y->start ? -1 : 1;
   return x->vreg < y->vreg ? -1 : (x->vreg > y->vreg);
}

static void rewrite_fields(struct ir_program *p, const uint8_t *phys)
{
   for (uint32_t i = 0; i < p->insn_count; i++) {
      struct ir_insn *in = &p->insns[i];
      if (in->dst)
         in->f.rd = (uint8_t)(phys[in->dst] + in->part[0]);
      if (in->src[0])
         in->f.ra = (uint8_t)(phys[in->src[0]] + in->part[1]);
      if (in->src[1])
         in->f.rb = (uint8_t)(phys[in->src[1]] + in->part[2]);
      if (in->src[2])
         in->f.rc = (uint8_t)(phys[in->src[2]] + in->part[3]);
   }
}

enum attempt { ALLOCATED, SPILL, NO_REGISTERS, NO_MEMORY };

/* One linear scan. When an interval finds no register, spillable vregs
 * holding registers at its start (the one that lives longest first, the
 * interval itself among them) give theirs up and are marked in spill[]:
 * the scan goes on to mark all it needs in this round. */
static enum attempt allocate(struct ir_program *p, uint32_t max_registers, uint32_t *register_count,
                             bool *spill, uint32_t first_spill_vreg)
{
   uint32_t nv = p->vreg_count, words = (nv + 63) / 64;
   uint32_t *label_pos = ir_label_positions(p);
   uint64_t *live_in = calloc((size_t)p->insn_count * words + 1, sizeof(uint64_t));
   struct interval *iv = calloc(nv, sizeof(*iv));
   uint8_t *phys = calloc(nv, 1);
   enum attempt result = NO_MEMORY;
   if (!label_pos || !live_in || !iv || !phys || !ir_liveness(p, label_pos, live_in, words))
      goto done;
   for (uint32_t v = 0; v < nv; v++) {
      iv[v].vreg = v;
      iv[v].start = UINT32_MAX;
      iv[v].end = 0;
   }
   for (uint32_t i = 0; i < p->insn_count; i++) {
      const struct ir_insn *in = &p->insns[i];
      const uint64_t *set = &live_in[(size_t)i * words];
      for (uint32_t w = 0; w < words; w++) {
         for (uint64_t bits = set[w]; bits; bits &= bits - 1) {
            uint32_t v = w * 64 + (uint32_t)__builtin_ctzll(bits);
            if (iv[v].start > i)
               iv[v].start = i;
            if (iv[v].end < i)
               iv[v].end = i;
         }
      }
      if (in->dst) {
         if (iv[in->dst].start > i)
            iv[in->dst].start = i;
         if (iv[in->dst].end < i)
            iv[in->dst].end = i;
      }
   }
   for (uint32_t v = 1; p->pinned && v < nv && v / 64 < p->pinned_words; v++)
      if (p->pinned[v / 64] >> (v % 64) & 1u) {
         iv[v].start = 0;
         iv[v].end = p->insn_count;
      }
   for (uint32_t v = 1; p->extend_lo && v < nv && v < p->extend_count; v++) {
      if (p->extend_lo[v] >= p->extend_hi[v])
         continue;
      if (iv[v].start > p->extend_lo[v])
         iv[v].start = p->extend_lo[v];
      if (iv[v].end < p->extend_hi[v] - 1)
         iv[v].end = p->extend_hi[v] - 1;
   }
   qsort(iv + 1, nv - 1, sizeof(*iv), interval_by_start);
   /* busy_until[r]: last instruction index at which register r is taken. */
   int64_t busy_until[PPU_REG_COUNT_MAX];
   for (unsigned r = 0; r < PPU_REG_COUNT_MAX; r++)
      busy_until[r] = -1;
   uint32_t limit = max_registers < PPU_REG_COUNT_MAX ? max_registers : PPU_REG_COUNT_MAX;
   uint32_t used = 1, owner[PPU_REG_COUNT_MAX] = {0};
   bool spilling = false;
   for (uint32_t k = 1; k < nv; k++) {
      const struct interval *it = &iv[k];
      if (it->start == UINT32_MAX)
         continue; /* never written nor read */
      unsigned size = p->vreg_size[it->vreg];
      bool placed = false;
   retry:
      for (uint32_t r = 0; r + size <= limit; r += size) {
         bool free_here = true;
         for (unsigned j = 0; j < size; j++)
            if (busy_until[r + j] >= (int64_t)it->start ||
                (p->reserved[(r + j) / 64] >> ((r + j) % 64) & 1u))
               free_here = false;
         if (!free_here)
            continue;
         for (unsigned j = 0; j < size; j++) {
            busy_until[r + j] = it->end;
            owner[r + j] = it->vreg;
         }
         phys[it->vreg] = (uint8_t)r;
         if (r + size > used)
            used = r + size;
         placed = true;
         break;
      }
      if (!placed) {
         uint32_t victim = ir_spillable(p, it->vreg, first_spill_vreg) ? it->vreg : 0;
         uint32_t victim_end = victim ? it->end : 0;
         for (uint32_t r = 0; r < limit; r++) {
            uint32_t v = owner[r];
            if (busy_until[r] >= (int64_t)it->start && v && !spill[v] &&
                ir_spillable(p, v, first_spill_vreg) && busy_until[r] > (int64_t)victim_end) {
               victim = v;
               victim_end = (uint32_t)busy_until[r];
            }
         }
         if (!victim) {
            result = NO_REGISTERS;
            goto done;
         }
         spill[victim] = true;
         spilling = true;
         if (victim == it->vreg)
            continue;
         for (unsigned j = 0; j < p->vreg_size[victim]; j++) {
            busy_until[phys[victim] + j] = -1; /* free from here on */
            owner[phys[victim] + j] = 0;
         }
         goto retry;
      }
   }
   if (spilling) {
      result = SPILL;
      goto done;
   }
   rewrite_fields(p, phys);
   for (uint32_t r = used; r < PPU_REG_COUNT_MAX; r++)
      if (p->reserved[r / 64] >> (r % 64) & 1u)
         used = r + 1; /* the program reads or writes it by number */
   *register_count = used;
   result = ALLOCATED;
done:
   free(label_pos);
   free(live_in);
   free(iv);
   free(phys);
   return result;
}

bool regalloc_run(struct ir_program *p, uint32_t max_registers, uint32_t *local_size,
                  uint32_t local_limit, uint32_t *register_count, char *err, size_t err_size)
{
   /* Spilling rewrites instruction indices, which call frames' register
    * ranges (extend_lo/hi) name: programs with out-of-line functions do
    * not spill. Each round spills more; the vregs it adds are never
    * spilled, so rounds end when those alone do not fit. */
   uint32_t first_spill_vreg = local_size && !p->frame_count ? p->vreg_count : 0;
   for (uint32_t round = 0;; round++) {
      bool *spill = calloc(p->vreg_count, sizeof(bool));
      enum attempt a =
          spill ? allocate(p, max_registers, register_count, spill, first_spill_vreg) : NO_MEMORY;
      bool spilled = a == SPILL && round < 16 && ir_spill(p, spill, local_size, local_limit);
      free(spill);
      if (a == ALLOCATED)
         return true;
      if (spilled)
         continue;
      if (a == NO_MEMORY || p->out_of_memory)
         snprintf(err, err_size, "compiler: out of memory in register allocation");
      else
         snprintf(err, err_size,
                  "compiler: the shader needs more than %u registers, and spilling to local "
                  "memory does not make it fit",
                  max_registers < PPU_REG_COUNT_MAX ? max_registers : PPU_REG_COUNT_MAX);
      return false;
   }
}
