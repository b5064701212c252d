/* SM integer, logic, bitfield, predicate, move and special-register
 * instructions (docs/isa.md, "Integer and logic"). Every op is a loop over
 * the 32 lanes; lanes outside x->exec keep their old values. Arithmetic is
 * modular (two's complement) and never undefined in C: shifts are masked,
 * division by zero and INT_MIN / -1 have defined results. */
#include <limits.h>

#include "compute/sm_operands.h"
#include "host_bits.h"
#include "ppu/qmd.h"

static uint32_t sreg_value(const struct ppu_exec *x, unsigned sr, unsigned lane)
{
   const struct ppu_grid *g = x->grid;
   const struct ppu_workgroup *wg = &x->sm->wg[x->w->wg_slot];
   uint32_t t = x->w->warp_in_wg * PPU_WARP_SIZE + lane;
   uint32_t wx = g->workgroup_size[0], wy = g->workgroup_size[1];
   uint32_t bit = 1u << lane;
   switch (sr) {
   case PPU_SR_TID_X:
      return t % wx;
   case PPU_SR_TID_Y:
      return t / wx % wy;
   case PPU_SR_TID_Z:
      return t / (wx * wy);
   case PPU_SR_CTAID_X:
   case PPU_SR_CTAID_Y:
   case PPU_SR_CTAID_Z:
      return wg->id[sr - PPU_SR_CTAID_X];
   case PPU_SR_NTID_X:
   case PPU_SR_NTID_Y:
   case PPU_SR_NTID_Z:
      return g->workgroup_size[sr - PPU_SR_NTID_X];
   case PPU_SR_NCTAID_X:
   case PPU_SR_NCTAID_Y:
   case PPU_SR_NCTAID_Z:
      return g->grid_size[sr - PPU_SR_NCTAID_X];
   case PPU_SR_LANEID:
      return lane;
   case PPU_SR_WARPID:
      return x->w->warp_in_wg;
   case PPU_SR_NWARPS:
      return g->warps_per_workgroup;
   case PPU_SR_TID_FLAT:
      return t;
   case PPU_SR_LANEMASK_EQ:
      return bit;
   case PPU_SR_LANEMASK_LT:
      return bit - 1;
   case PPU_SR_LANEMASK_LE:
      return bit | (bit - 1);
   case PPU_SR_LANEMASK_GT:
      return ~(bit | (bit - 1));
   case PPU_SR_LANEMASK_GE:
      return ~(bit - 1);
   case PPU_SR_SMID:
      return x->sm->id;
   case PPU_SR_CLOCK_LO:
      return (uint32_t)ppu_timer_read_ns(g->timer);
   case PPU_SR_CLOCK_HI:
      return (uint32_t)(ppu_timer_read_ns(g->timer) >> 32);
   default:
      return 0;
   }
}

/* LDC: constant bank reads. An address beyond the bank reads 0 (the
 * robust-buffer behaviour of real constant caches), never a fault. */
static void exec_ldc(struct ppu_exec *x)
{
   const struct ppu_insn_fields *f = x->f;
   unsigned words = f->type == PPU_TYPE_B128 ? 4 : f->type == PPU_TYPE_U64 ? 2 : 1;
   const uint8_t *bank = x->grid->cbank[f->rb];
   uint64_t size = x->grid->cbank_size[f->rb];
   const uint32_t *a = ppu_reg_src(x->w, f->ra);
   for (unsigned k = 0; k < words; k++) {
      uint32_t *d = ppu_reg_dst(x->w, f->rd, k);
      for (unsigned l = 0; l < LANES; l++) {
         if (!((x->exec >> l) & 1u))
            continue;
         uint64_t off = (uint64_t)a[l] + (uint64_t)(int64_t)(int32_t)f->imm + 4u * k;
         uint32_t v = 0;
         if (off % 4 == 0 && off + 4 <= size && bank)
            memcpy(&v, bank + off, 4);
         d[l] = v;
      }
   }
}

static uint32_t div_u32(uint32_t a, uint32_t b, int rem)
{
   if (b == 0)
      return rem ? a : 0xffffffffu;
   return rem ? a % b : a / b;
}

static uint32_t div_s32(uint32_t ua, uint32_t ub, int rem)
{
   int32_t a = (int32_t)ua, b = (int32_t)ub;
   if (b == 0)
      return rem ? ua : 0xffffffffu;
   if (a == INT32_MIN && b == -1)
      return rem ? 0 : ua;
   return (uint32_t)(rem ? a % b : a / b);
}

static uint64_t div_u64(uint64_t a, uint64_t b, int rem)
{
   if (b == 0)
      return rem ? a : ~0ull;
   return rem ? a % b : a / b;
}

static uint64_t div_s64(uint64_t ua, uint64_t ub, int rem)
{
   int64_t a = (int64_t)ua, b = (int64_t)ub;
   if (b == 0)
      return rem ? ua : ~0ull;
   if (a == INT64_MIN && b == -1)
      return rem ? 0 : ua;
   return (uint64_t)(rem ? a % b : a / b);
}

/* ISETP's predicate bits: the ordered compares F..GE of ppu_cmp_mask (no
 * lane is unordered); the float-only compares past GE are false. */
static uint32_t int_cmp_mask(unsigned cmp, uint32_t lt, uint32_t eq)
{
   return cmp <= PPU_CMP_GE ? ppu_cmp_mask(cmp, lt, eq, 0) : 0;
}

static void exec_int64(struct ppu_exec *x)
{
   const struct ppu_insn_fields *f = x->f;
   struct ppu_vec64 a = ppu_src64(x->w, f->ra);
   uint32_t blo[LANES], bhi[LANES];
   struct ppu_vec64 b = ppu_src_b64(x, blo, bhi);
   const uint32_t *b32 = f->b_imm ? blo : ppu_reg_src(x->w, f->rb);
   int s = ppu_type_signed(f->type);
   uint64_t r[LANES];
   if (f->op == PPU_OP_ISETP) {
      uint32_t lt = 0, eq = 0;
      for (unsigned l = 0; l < LANES; l++) {
         uint64_t va = v64(a, l), vb = v64(b, l);
         lt |= (uint32_t)(s ? (int64_t)va < (int64_t)vb : va < vb) << l;
         eq |= (uint32_t)(va == vb) << l;
      }
      uint32_t bits = int_cmp_mask(f->subop, lt, eq);
      ppu_write_pred(x->w, f->pd, bits & ppu_read_pred(x->w, f->ps), x->exec);
      return;
   }
   for (unsigned l = 0; l < LANES; l++) {
      uint64_t va = v64(a, l), vb = v64(b, l);
      switch (f->op) {
      case PPU_OP_MOV:
         r[l] = vb;
         break;
      case PPU_OP_SEL:
         r[l] = (ppu_read_pred(x->w, f->ps) >> l) & 1u ? va : vb;
         break;
      case PPU_OP_IADD:
         r[l] = va + vb;
         break;
      case PPU_OP_ISUB:
         r[l] = va - vb;
         break;
      case PPU_OP_IMUL:
         r[l] = va * vb;
         break;
      case PPU_OP_IDIV:
      case PPU_OP_IREM:
         r[l] = s ? div_s64(va, vb, f->op == PPU_OP_IREM) : div_u64(va, vb, f->op == PPU_OP_IREM);
         break;
      case PPU_OP_IMIN:
         r[l] = (s ? (int64_t)va < (int64_t)vb : va < vb) ? va : vb;
         break;
      case PPU_OP_IMAX:
         r[l] = (s ? (int64_t)va > (int64_t)vb : va > vb) ? va : vb;
         break;
      case PPU_OP_IABS:
         r[l] = (int64_t)va < 0 ? 0 - va : va;
         break;
      case PPU_OP_INEG:
         r[l] = 0 - va;
         break;
      case PPU_OP_AND:
         r[l] = va & vb;
         break;
      case PPU_OP_OR:
         r[l] = va | vb;
         break;
      case PPU_OP_XOR:
         r[l] = va ^ vb;
         break;
      case PPU_OP_NOT:
         r[l] = ~va;
         break;
      case PPU_OP_SHL:
         r[l] = va << (b32[l] & 63);
         break;
      case PPU_OP_SHR:
         r[l] = s ? (uint64_t)((int64_t)va >> (b32[l] & 63)) : va >> (b32[l] & 63);
         break;
      default:
         r[l] = 0;
         break;
      }
   }
   if (f->op == PPU_OP_POPC) {
      uint32_t c[LANES];
      for (unsigned l = 0; l < LANES; l++)
         c[l] = ppu_popcount64(v64(a, l));
      ppu_write32(ppu_reg_dst(x->w, f->rd, 0), c, x->exec);
      return;
   }
   ppu_write64(x->w, f->rd, r, x->exec);
}

static uint32_t bit_reverse(uint32_t v)
{
   v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
   v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
   v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
   v = ((v >> 8) & 0x00ff00ffu) | ((v & 0x00ff00ffu) << 8);
   return (v >> 16) | (v << 16);
}

/* BFE: b = offset (7..0) | count (15..8); fields reaching past bit 31 are
 * cut at bit 31 (GLSL leaves them undefined). */
static uint32_t bfe(uint32_t v, uint32_t b, int is_signed)
{
   uint32_t off = b & 0xff, cnt = (b >> 8) & 0xff;
   if (cnt == 0 || off > 31)
      return 0;
   if (cnt > 32 - off)
      cnt = 32 - off;
   uint32_t field = (v >> off) & (cnt == 32 ? 0xffffffffu : (1u << cnt) - 1);
   if (is_signed && cnt < 32 && (field >> (cnt - 1)) & 1u)
      field |= ~((1u << cnt) - 1);
   return field;
}

static uint32_t bfi(uint32_t insert, uint32_t b, uint32_t base)
{
   uint32_t off = b & 0xff, cnt = (b >> 8) & 0xff;
   if (cnt == 0 || off > 31)
      return base;
   if (cnt > 32 - off)
      cnt = 32 - off;
   uint32_t mask = (cnt == 32 ? 0xffffffffu : (1u << cnt) - 1) << off;
   return (base & ~mask) | ((insert << off) & mask);
}

/* findMSB: for signed values the highest bit that differs from the sign. */
static uint32_t flo(uint32_t v, int is_signed)
{
   if (is_signed && (int32_t)v < 0)
      v = ~v;
   return v ? 31u - (uint32_t)__builtin_clz(v) : 0xffffffffu;
}

enum ppu_exec_result ppu_exec_alu(struct ppu_exec *x)
{
   const struct ppu_insn_fields *f = x->f;
   struct ppu_warp *w = x->w;
   uint32_t exec = x->exec;
   if (f->op == PPU_OP_NOP || exec == 0)
      return PPU_EXEC_NEXT;
   if (f->op == PPU_OP_PLOP) {
      uint32_t p = ppu_read_pred(w, f->ps), q = ppu_read_pred(w, f->ps2);
      uint32_t v = f->subop == PPU_PLOP_AND ? p & q : f->subop == PPU_PLOP_OR ? p | q : p ^ q;
      ppu_write_pred(w, f->pd, v, exec);
      return PPU_EXEC_NEXT;
   }
   if (f->op == PPU_OP_LDC) {
      exec_ldc(x);
      return PPU_EXEC_NEXT;
   }
   if (ppu_type_is64(f->type) && f->op != PPU_OP_S2R) {
      exec_int64(x);
      return PPU_EXEC_NEXT;
   }
   const uint32_t *a = ppu_reg_src(w, f->ra);
   uint32_t btmp[LANES];
   const uint32_t *b = ppu_src_b(x, btmp);
   const uint32_t *c = ppu_reg_src(w, f->rc);
   int s = ppu_type_signed(f->type);
   uint32_t r[LANES];
   unsigned l;
   switch ((enum ppu_op)f->op) {
   case PPU_OP_MOV:
      for (l = 0; l < LANES; l++)
         r[l] = b[l];
      break;
   case PPU_OP_S2R:
      for (l = 0; l < LANES; l++)
         r[l] = sreg_value(x, f->imm, l);
      break;
   case PPU_OP_SEL: {
      uint32_t p = ppu_read_pred(w, f->ps);
      for (l = 0; l < LANES; l++)
         r[l] = (p >> l) & 1u ? a[l] : b[l];
      break;
   }
   case PPU_OP_IADD:
      for (l = 0; l < LANES; l++)
         r[l] = a[l] + b[l];
      break;
   case PPU_OP_ISUB:
      for (l = 0; l < LANES; l++)
         r[l] = a[l] - b[l];
      break;
   case PPU_OP_IMUL:
      for (l = 0; l < LANES; l++)
         r[l] = a[l] * b[l];
      break;
   case PPU_OP_IMULHI:
      for (l = 0; l < LANES; l++)
         r[l] = s ? (uint32_t)((uint64_t)((int64_t)(int32_t)a[l] * (int32_t)b[l]) >> 32)
                  : (uint32_t)(((uint64_t)a[l] * b[l]) >> 32);
      break;
   case PPU_OP_IMAD:
      for (l = 0; l < LANES; l++)
         r[l] = a[l] * b[l] + c[l];
      break;
   case PPU_OP_IMADW: {
      struct ppu_vec64 c64 = ppu_src64(w, f->rc);
      uint64_t r64[LANES];
      for (l = 0; l < LANES; l++)
         r64[l] = (s ? (uint64_t)((int64_t)(int32_t)a[l] * (int32_t)b[l]) : (uint64_t)a[l] * b[l]) +
                  v64(c64, l);
      ppu_write64(w, f->rd, r64, exec);
      return PPU_EXEC_NEXT;
   }
   case PPU_OP_IDIV:
   case PPU_OP_IREM:
      for (l = 0; l < LANES; l++)
         r[l] = s ? div_s32(a[l], b[l], f->op == PPU_OP_IREM)
                  : div_u32(a[l], b[l], f->op == PPU_OP_IREM);
      break;
   case PPU_OP_IMIN:
      for (l = 0; l < LANES; l++)
         r[l] = (s ? (int32_t)a[l] < (int32_t)b[l] : a[l] < b[l]) ? a[l] : b[l];
      break;
   case PPU_OP_IMAX:
      for (l = 0; l < LANES; l++)
         r[l] = (s ? (int32_t)a[l] > (int32_t)b[l] : a[l] > b[l]) ? a[l] : b[l];
      break;
   case PPU_OP_IABS:
      for (l = 0; l < LANES; l++)
         r[l] = (int32_t)a[l] < 0 ? 0u - a[l] : a[l];
      break;
   case PPU_OP_INEG:
      for (l = 0; l < LANES; l++)
         r[l] = 0u - a[l];
      break;
   case PPU_OP_ISETP: {
      uint32_t lt = 0, eq = 0;
      for (l = 0; l < LANES; l++) {
         lt |= (uint32_t)(s ? (int32_t)a[l] < (int32_t)b[l] : a[l] < b[l]) << l;
         eq |= (uint32_t)(a[l] == b[l]) << l;
      }
      uint32_t bits = int_cmp_mask(f->subop, lt, eq);
      ppu_write_pred(w, f->pd, bits & ppu_read_pred(w, f->ps), exec);
      return PPU_EXEC_NEXT;
   }
   case PPU_OP_AND:
      for (l = 0; l < LANES; l++)
         r[l] = a[l] & b[l];
      break;
   case PPU_OP_OR:
      for (l = 0; l < LANES; l++)
         r[l] = a[l] | b[l];
      break;
   case PPU_OP_XOR:
      for (l = 0; l < LANES; l++)
         r[l] = a[l] ^ b[l];
      break;
   case PPU_OP_NOT:
      for (l = 0; l < LANES; l++)
         r[l] = ~a[l];
      break;
   case PPU_OP_SHL:
      for (l = 0; l < LANES; l++)
         r[l] = a[l] << (b[l] & 31);
      break;
   case PPU_OP_SHR:
      for (l = 0; l < LANES; l++)
         r[l] = s ? (uint32_t)((int32_t)a[l] >> (b[l] & 31)) : a[l] >> (b[l] & 31);
      break;
   case PPU_OP_BFE:
      for (l = 0; l < LANES; l++)
         r[l] = bfe(a[l], b[l], s);
      break;
   case PPU_OP_BFI:
      for (l = 0; l < LANES; l++)
         r[l] = bfi(a[l], b[l], c[l]);
      break;
   case PPU_OP_BREV:
      for (l = 0; l < LANES; l++)
         r[l] = bit_reverse(a[l]);
      break;
   case PPU_OP_POPC:
      for (l = 0; l < LANES; l++)
         r[l] = ppu_popcount32(a[l]);
      break;
   case PPU_OP_FLO:
      for (l = 0; l < LANES; l++)
         r[l] = flo(a[l], s);
      break;
   case PPU_OP_FFS:
      for (l = 0; l < LANES; l++)
         r[l] = a[l] ? (uint32_t)__builtin_ctz(a[l]) : 0xffffffffu;
      break;
   default:
      ppu_exec_fault(x, PPU_FAULT_ILLEGAL_INSTRUCTION, 0, false, "opcode not executed by the ALU");
      return PPU_EXEC_FAULT;
   }
   ppu_write32(ppu_reg_dst(w, f->rd, 0), r, exec);
   return PPU_EXEC_NEXT;
}
