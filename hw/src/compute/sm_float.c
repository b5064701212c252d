/* SM floating-point instructions: F32/F64 arithmetic, compares into
 * predicates and the multi-function unit (transcendentals). Arithmetic is
 * IEEE 754 round-to-nearest-even with denormals preserved (the host's
 * default environment); FFMA is fused (one rounding). MUFU precision is
 * documented in docs/isa.md. */
#include <math.h>

#include "compute/sm_operands.h"

/* Every NaN an F32/F64 instruction produces is this one, whatever the
 * operands' payloads (as on NVIDIA GPUs): host instructions propagate
 * payloads and signs by operand position, which would make results depend
 * on instruction selection (the translator's and the host compiler's). */
#define CANONICAL_NAN32 0x7fffffffu
#define CANONICAL_NAN64 0x7fffffffffffffffull

static uint32_t canon32(float f)
{
   return isnan(f) ? CANONICAL_NAN32 : u32_of(f);
}

static uint64_t canon64(double d)
{
   return isnan(d) ? CANONICAL_NAN64 : u64_of(d);
}

/* FMIN/FMAX: a NaN operand yields the other, and -0 is below +0, so the
 * result never depends on operand order or the host's libm. */
static double min_num(double a, double b)
{
   if (isnan(a))
      return b;
   if (isnan(b))
      return a;
   return a < b || (a == b && signbit(a)) ? a : b;
}

static double max_num(double a, double b)
{
   if (isnan(a))
      return b;
   if (isnan(b))
      return a;
   return a > b || (a == b && !signbit(a)) ? a : b;
}

/* The lanes' less-than, equal and unordered bits of a compare (NaN
 * operands are unordered: lt and eq stay 0), for ppu_cmp_mask. */
struct fcmp_bits {
   uint32_t lt, eq, unord;
};

static void fcmp_lane(struct fcmp_bits *c, unsigned l, double a, double b)
{
   uint32_t unord = isnan(a) || isnan(b);
   c->unord |= unord << l;
   c->lt |= (uint32_t)(!unord && a < b) << l;
   c->eq |= (uint32_t)(!unord && a == b) << l;
}

static float mufu32(unsigned fn, float a)
{
   switch (fn) {
   case PPU_MUFU_RCP:
      return 1.0f / a;
   case PPU_MUFU_RSQ:
      /* Computed in double and rounded once: within 1 ULP. */
      return (float)(1.0 / sqrt((double)a));
   case PPU_MUFU_SQRT:
      return sqrtf(a);
   case PPU_MUFU_EX2:
      return exp2f(a);
   case PPU_MUFU_LG2:
      return log2f(a);
   case PPU_MUFU_SIN:
      return sinf(a);
   default:
      return cosf(a);
   }
}

static double mufu64(unsigned fn, double a)
{
   switch (fn) {
   case PPU_MUFU_RCP:
      return 1.0 / a;
   case PPU_MUFU_RSQ:
      return 1.0 / sqrt(a);
   default:
      return sqrt(a);
   }
}

static enum ppu_exec_result exec_f64(struct ppu_exec *x)
{
   const struct ppu_insn_fields *f = x->f;
   struct ppu_vec64 a = ppu_src64(x->w, f->ra), c = ppu_src64(x->w, f->rc);
   uint32_t blo[LANES], bhi[LANES];
   struct ppu_vec64 b = ppu_src_b64(x, blo, bhi);
   uint64_t r[LANES];
   if (f->op == PPU_OP_FSETP) {
      struct fcmp_bits c = {0, 0, 0};
      for (unsigned l = 0; l < LANES; l++)
         fcmp_lane(&c, l, f64_of(v64(a, l)), f64_of(v64(b, l)));
      uint32_t bits = ppu_cmp_mask(f->subop, c.lt, c.eq, c.unord);
      ppu_write_pred(x->w, f->pd, bits & ppu_read_pred(x->w, f->ps), x->exec);
      return PPU_EXEC_NEXT;
   }
   for (unsigned l = 0; l < LANES; l++) {
      double va = f64_of(v64(a, l)), vb = f64_of(v64(b, l)), vr;
      switch (f->op) {
      case PPU_OP_FADD:
         vr = va + vb;
         break;
      case PPU_OP_FSUB:
         vr = va - vb;
         break;
      case PPU_OP_FMUL:
         vr = va * vb;
         break;
      case PPU_OP_FFMA:
         vr = fma(va, vb, f64_of(v64(c, l)));
         break;
      case PPU_OP_FDIV:
         vr = va / vb;
         break;
      case PPU_OP_FMIN:
         vr = min_num(va, vb);
         break;
      case PPU_OP_FMAX:
         vr = max_num(va, vb);
         break;
      default:
         vr = mufu64(f->subop, va);
         break;
      }
      r[l] = canon64(vr);
   }
   ppu_write64(x->w, f->rd, r, x->exec);
   return PPU_EXEC_NEXT;
}

enum ppu_exec_result ppu_exec_float(struct ppu_exec *x)
{
   const struct ppu_insn_fields *f = x->f;
   if (x->exec == 0)
      return PPU_EXEC_NEXT;
   if (f->type == PPU_TYPE_F64)
      return exec_f64(x);
   const uint32_t *ua = ppu_reg_src(x->w, f->ra), *uc = ppu_reg_src(x->w, f->rc);
   uint32_t btmp[LANES];
   const uint32_t *ub = ppu_src_b(x, btmp);
   float a[LANES], b[LANES], c[LANES], r[LANES];
   unsigned l;
   for (l = 0; l < LANES; l++) {
      a[l] = f32_of(ua[l]);
      b[l] = f32_of(ub[l]);
      c[l] = f32_of(uc[l]);
   }
   switch ((enum ppu_op)f->op) {
   case PPU_OP_FADD:
      for (l = 0; l < LANES; l++)
         r[l] = a[l] + b[l];
      break;
   case PPU_OP_FSUB:
      for (l = 0; l < LANES; l++)
         r[l] = a[l] - b[l];
      break;
   case PPU_OP_FMUL:
      for (l = 0; l < LANES; l++)
         r[l] = a[l] * b[l];
      break;
   case PPU_OP_FFMA:
      for (l = 0; l < LANES; l++)
         r[l] = fmaf(a[l], b[l], c[l]);
      break;
   case PPU_OP_FDIV:
      for (l = 0; l < LANES; l++)
         r[l] = a[l] / b[l];
      break;
   case PPU_OP_FMIN:
      for (l = 0; l < LANES; l++)
         r[l] = (float)min_num(a[l], b[l]);
      break;
   case PPU_OP_FMAX:
      for (l = 0; l < LANES; l++)
         r[l] = (float)max_num(a[l], b[l]);
      break;
   case PPU_OP_FSETP: {
      struct fcmp_bits c = {0, 0, 0};
      for (l = 0; l < LANES; l++)
         fcmp_lane(&c, l, a[l], b[l]);
      uint32_t bits = ppu_cmp_mask(f->subop, c.lt, c.eq, c.unord);
      ppu_write_pred(x->w, f->pd, bits & ppu_read_pred(x->w, f->ps), x->exec);
      return PPU_EXEC_NEXT;
   }
   default: /* MUFU */
      for (l = 0; l < LANES; l++)
         r[l] = (x->exec >> l) & 1u ? mufu32(f->subop, a[l]) : 0.0f;
      break;
   }
   uint32_t out[LANES];
   for (l = 0; l < LANES; l++)
      out[l] = canon32(r[l]);
   ppu_write32(ppu_reg_dst(x->w, f->rd, 0), out, x->exec);
   return PPU_EXEC_NEXT;
}
