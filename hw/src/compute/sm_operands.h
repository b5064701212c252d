/* Operand access shared by the SM's execution units: 32- and 64-bit lane
 * values from structure-of-arrays registers, the b operand as register or
 * immediate, and masked writes that the host compiler turns into blends. */
#ifndef PPU_COMPUTE_SM_OPERANDS_H
#define PPU_COMPUTE_SM_OPERANDS_H

#include <stdint.h>
#include <string.h>

#include "compute/sm.h"

#define LANES PPU_WARP_SIZE

/* A 64-bit operand: the low and high word vectors of a register pair. */
struct ppu_vec64 {
   const uint32_t *lo, *hi;
};

static inline uint64_t v64(struct ppu_vec64 v, unsigned l)
{
   return (uint64_t)v.hi[l] << 32 | v.lo[l];
}

static inline struct ppu_vec64 ppu_src64(const struct ppu_warp *w, unsigned r)
{
   struct ppu_vec64 v = {ppu_reg_src(w, r), r == PPU_RZ ? ppu_reg_src(w, r) : w->reg[r + 1]};
   return v;
}

/* Operand b (32-bit): register rb or the immediate splatted into tmp. */
static inline const uint32_t *ppu_src_b(const struct ppu_exec *x, uint32_t tmp[LANES])
{
   if (!x->f->b_imm)
      return ppu_reg_src(x->w, x->f->rb);
   for (unsigned l = 0; l < LANES; l++)
      tmp[l] = x->f->imm;
   return tmp;
}

/* Operand b (64-bit): register pair rb, or the immediate: sign-extended for
 * integer types, the high word of a double (low word 0) for F64. */
static inline struct ppu_vec64 ppu_src_b64(const struct ppu_exec *x, uint32_t lo[LANES],
                                           uint32_t hi[LANES])
{
   if (!x->f->b_imm)
      return ppu_src64(x->w, x->f->rb);
   uint32_t imm = x->f->imm;
   uint32_t l32 = x->f->type == PPU_TYPE_F64 ? 0 : imm;
   uint32_t h32 = x->f->type == PPU_TYPE_F64 ? imm : (uint32_t)((int32_t)imm >> 31);
   for (unsigned l = 0; l < LANES; l++) {
      lo[l] = l32;
      hi[l] = h32;
   }
   struct ppu_vec64 v = {lo, hi};
   return v;
}

/* d[l] = v[l] for the lanes in exec; the blend form vectorizes. */
static inline void ppu_write32(uint32_t *d, const uint32_t v[LANES], uint32_t exec)
{
   for (unsigned l = 0; l < LANES; l++)
      d[l] = (exec >> l) & 1u ? v[l] : d[l];
}

static inline void ppu_write64(struct ppu_warp *w, unsigned rd, const uint64_t v[LANES],
                               uint32_t exec)
{
   uint32_t *lo = ppu_reg_dst(w, rd, 0), *hi = ppu_reg_dst(w, rd, 1);
   for (unsigned l = 0; l < LANES; l++) {
      if ((exec >> l) & 1u) {
         lo[l] = (uint32_t)v[l];
         hi[l] = (uint32_t)(v[l] >> 32);
      }
   }
}

static inline void ppu_write_pred(struct ppu_warp *w, unsigned pd, uint32_t value, uint32_t exec)
{
   if ((pd & 7) == PPU_PT)
      return;
   w->pred[pd & 7] = (w->pred[pd & 7] & ~exec) | (value & exec);
}

static inline uint32_t ppu_read_pred(const struct ppu_warp *w, unsigned p)
{
   uint32_t v = w->pred[p & 7];
   return (p & PPU_PRED_NEG) ? ~v : v;
}

static inline float f32_of(uint32_t u)
{
   float f;
   memcpy(&f, &u, 4);
   return f;
}

static inline uint32_t u32_of(float f)
{
   uint32_t u;
   memcpy(&u, &f, 4);
   return u;
}

static inline double f64_of(uint64_t u)
{
   double d;
   memcpy(&d, &u, 8);
   return d;
}

static inline uint64_t u64_of(double d)
{
   uint64_t u;
   memcpy(&u, &d, 8);
   return u;
}

static inline int ppu_type_is64(unsigned t)
{
   return t == PPU_TYPE_U64 || t == PPU_TYPE_S64 || t == PPU_TYPE_F64;
}

static inline int ppu_type_signed(unsigned t)
{
   return t == PPU_TYPE_S32 || t == PPU_TYPE_S64 || t == PPU_TYPE_S16 || t == PPU_TYPE_S8;
}

#endif /* PPU_COMPUTE_SM_OPERANDS_H */
