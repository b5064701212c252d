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

/* d[l] = v[l] for the lanes in exec. Every instruction's result goes
 * through here, so it is written for the host: a full warp is one copy,
 * else a blend of four lanes at a time with a mask made by testing each
 * lane's bit of exec (GCC vector extensions: SSE2 on baseline x86-64). The
 * per-lane ternary it replaces compiled to a branch per lane and was a third
 * of ppu_exec_alu's time. */
static inline void ppu_write32(uint32_t *restrict d, const uint32_t v[restrict LANES],
                               uint32_t exec)
{
   if (exec == UINT32_MAX) {
      memcpy(d, v, LANES * sizeof(uint32_t));
      return;
   }
   typedef uint32_t u32x4 __attribute__((vector_size(16)));
   const u32x4 lane_bit = {1u, 2u, 4u, 8u};
   for (unsigned l = 0; l < LANES; l += 4) {
      u32x4 vd, vv;
      memcpy(&vd, d + l, sizeof(vd));
      memcpy(&vv, v + l, sizeof(vv));
      u32x4 bits = (u32x4){exec, exec, exec, exec} >> l;
      u32x4 m = (u32x4)((bits & lane_bit) != 0); /* all ones where the lane runs */
      vd = (vv & m) | (vd & ~m);
      memcpy(d + l, &vd, sizeof(vd));
   }
}

/* A compare's predicate bits from the lanes' less-than, equal and unordered
 * bits (lt and eq are 0 where unord is set), PPU_CMP_* as the ISA defines
 * them: one switch per instruction instead of one per lane. Compares past
 * GEU are true. */
static inline uint32_t ppu_cmp_mask(unsigned cmp, uint32_t lt, uint32_t eq, uint32_t unord)
{
   uint32_t gt = ~(lt | eq | unord);
   switch (cmp) {
   case PPU_CMP_F:
      return 0;
   case PPU_CMP_LT:
      return lt;
   case PPU_CMP_EQ:
      return eq;
   case PPU_CMP_LE:
      return lt | eq;
   case PPU_CMP_GT:
      return gt;
   case PPU_CMP_NE:
      return lt | gt;
   case PPU_CMP_GE:
      return gt | eq;
   case PPU_CMP_NUM:
      return ~unord;
   case PPU_CMP_NAN:
      return unord;
   case PPU_CMP_LTU:
      return lt | unord;
   case PPU_CMP_EQU:
      return eq | unord;
   case PPU_CMP_LEU:
      return lt | eq | unord;
   case PPU_CMP_GTU:
      return gt | unord;
   case PPU_CMP_NEU:
      return ~eq;
   case PPU_CMP_GEU:
      return ~lt;
   default:
      return UINT32_MAX;
   }
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
