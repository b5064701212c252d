/* Subgroup (warp-wide) instructions: VOTE (any/all/eq and ballot), SHFL
 * (index, up, down, xor) and WRED (reduce and inclusive/exclusive scan over
 * the active lanes). A subgroup is one warp of 32 lanes; only lanes in the
 * executing mask take part. */
#include <math.h>

#include "compute/sm_operands.h"

static enum ppu_exec_result exec_vote(struct ppu_exec *x)
{
   uint32_t exec = x->exec;
   uint32_t ballot = ppu_read_pred(x->w, x->f->ps) & exec;
   uint32_t result;
   switch (x->f->subop) {
   case PPU_VOTE_ALL:
      result = ballot == exec;
      break;
   case PPU_VOTE_ANY:
      result = ballot != 0;
      break;
   default:
      result = ballot == exec || ballot == 0;
      break;
   }
   ppu_write_pred(x->w, x->f->pd, result ? 0xffffffffu : 0, exec);
   uint32_t v[LANES];
   for (unsigned l = 0; l < LANES; l++)
      v[l] = ballot;
   ppu_write32(ppu_reg_dst(x->w, x->f->rd, 0), v, exec);
   return PPU_EXEC_NEXT;
}

static enum ppu_exec_result exec_shfl(struct ppu_exec *x)
{
   uint32_t src[LANES], btmp[LANES], r[LANES];
   const uint32_t *a = ppu_reg_src(x->w, x->f->ra);
   const uint32_t *b = ppu_src_b(x, btmp);
   uint32_t valid = 0;
   for (unsigned l = 0; l < LANES; l++)
      src[l] = a[l];
   for (unsigned l = 0; l < LANES; l++) {
      uint64_t s;
      switch (x->f->subop) {
      case PPU_SHFL_IDX:
         s = b[l];
         break;
      case PPU_SHFL_UP:
         s = b[l] <= l ? l - b[l] : LANES;
         break;
      case PPU_SHFL_DOWN:
         s = (uint64_t)l + b[l];
         break;
      default:
         s = l ^ b[l];
         break;
      }
      if (s < LANES) {
         r[l] = src[s];
         valid |= 1u << l;
      } else {
         r[l] = src[l];
      }
   }
   ppu_write32(ppu_reg_dst(x->w, x->f->rd, 0), r, x->exec);
   ppu_write_pred(x->w, x->f->pd, valid, x->exec);
   return PPU_EXEC_NEXT;
}

static uint32_t combine(unsigned op, unsigned type, uint32_t a, uint32_t b)
{
   if (type == PPU_TYPE_F32) {
      float fa = f32_of(a), fb = f32_of(b);
      return u32_of(op == PPU_REDOP_ADD   ? fa + fb
                    : op == PPU_REDOP_MIN ? fminf(fa, fb)
                                          : fmaxf(fa, fb));
   }
   int s = type == PPU_TYPE_S32;
   switch (op) {
   case PPU_REDOP_ADD:
      return a + b;
   case PPU_REDOP_MIN:
      return (s ? (int32_t)a < (int32_t)b : a < b) ? a : b;
   case PPU_REDOP_MAX:
      return (s ? (int32_t)a > (int32_t)b : a > b) ? a : b;
   case PPU_REDOP_AND:
      return a & b;
   case PPU_REDOP_OR:
      return a | b;
   default:
      return a ^ b;
   }
}

/* The identity of op: what an exclusive scan gives the first lane. */
static uint32_t identity(unsigned op, unsigned type)
{
   if (type == PPU_TYPE_F32)
      return op == PPU_REDOP_ADD ? 0u : op == PPU_REDOP_MIN ? 0x7f800000u : 0xff800000u;
   int s = type == PPU_TYPE_S32;
   switch (op) {
   case PPU_REDOP_MIN:
      return s ? 0x7fffffffu : 0xffffffffu;
   case PPU_REDOP_MAX:
      return s ? 0x80000000u : 0u;
   case PPU_REDOP_AND:
      return 0xffffffffu;
   default:
      return 0;
   }
}

/* Lane order is the combination order, so float results are reproducible. */
static enum ppu_exec_result exec_wred(struct ppu_exec *x)
{
   const struct ppu_insn_fields *f = x->f;
   const uint32_t *a = ppu_reg_src(x->w, f->ra);
   uint32_t r[LANES];
   uint32_t acc = identity(f->subop, f->type);
   for (unsigned l = 0; l < LANES; l++) {
      if (!((x->exec >> l) & 1u))
         continue;
      uint32_t next = combine(f->subop, f->type, acc, a[l]);
      r[l] = f->mode == PPU_SCAN_EXCLUSIVE ? acc : next;
      acc = next;
   }
   if (f->mode == PPU_SCAN_REDUCE)
      for (unsigned l = 0; l < LANES; l++)
         r[l] = acc;
   uint32_t *d = ppu_reg_dst(x->w, f->rd, 0);
   for (unsigned l = 0; l < LANES; l++)
      if ((x->exec >> l) & 1u)
         d[l] = r[l];
   return PPU_EXEC_NEXT;
}

enum ppu_exec_result ppu_exec_subgroup(struct ppu_exec *x)
{
   if (x->exec == 0)
      return PPU_EXEC_NEXT;
   switch (x->f->op) {
   case PPU_OP_VOTE:
      return exec_vote(x);
   case PPU_OP_SHFL:
      return exec_shfl(x);
   default:
      return exec_wred(x);
   }
}
