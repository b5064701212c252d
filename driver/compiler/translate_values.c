/* Types, flattened values and constants for the translator (translate.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate.h"

void xl_fail(struct xl_ctx *c, const char *fmt, ...)
{
   if (c->failed)
      return;
   c->failed = true;
   const struct spirv_opcode_info *info = spirv_opcode_info(c->cur_opcode);
   int n = snprintf(c->err, c->err_size, "compiler: word %u (%s): ", c->cur_word,
                    info ? info->name : "no instruction");
   if (n < 0 || (size_t)n >= c->err_size)
      return;
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(c->err + n, c->err_size - (size_t)n, fmt, ap);
   va_end(ap);
}

bool xl_scalar_of(struct xl_ctx *c, uint32_t type, struct xl_scalar *s)
{
   const struct spirv_type *t = spirv_type(c->m, spirv_type_scalar(c->m, type));
   memset(s, 0, sizeof(*s));
   if (!t)
      return false;
   if ((t->kind == SPIRV_TYPE_POINTER &&
        t->u.pointer.storage_class == SPIRV_STORAGE_CLASS_PhysicalStorageBuffer) ||
       t->kind == SPIRV_TYPE_ACCELERATION_STRUCTURE || t->kind == SPIRV_TYPE_IMAGE ||
       t->kind == SPIRV_TYPE_SAMPLER || t->kind == SPIRV_TYPE_SAMPLED_IMAGE) {
      /* A buffer device address, an acceleration structure's header
       * address, or the VA of a texture or sampler header
       * (driver/shader_abi.h): an unsigned 64-bit value. */
      s->width = 64;
      return true;
   }
   if (t->kind == SPIRV_TYPE_BOOL) {
      s->is_bool = true;
      s->width = 32;
      return true;
   }
   if (t->kind != SPIRV_TYPE_INT && t->kind != SPIRV_TYPE_FLOAT)
      return false;
   s->is_float = t->kind == SPIRV_TYPE_FLOAT;
   s->is_signed = t->kind == SPIRV_TYPE_INT && t->u.scalar.is_signed;
   s->width = t->u.scalar.width;
   return true;
}

unsigned xl_scalar_regs(struct xl_ctx *c, uint32_t scalar_type)
{
   struct xl_scalar s;
   if (!xl_scalar_of(c, scalar_type, &s))
      return 1;
   return s.width == 64 ? 2 : 1;
}

static uint32_t array_len(struct xl_ctx *c, const struct spirv_type *t)
{
   uint64_t n = 0;
   if (t->kind != SPIRV_TYPE_ARRAY || !spirv_array_length(c->m, t->id, &n) || n > XL_MAX_LEAVES)
      return UINT32_MAX;
   return (uint32_t)n;
}

uint32_t xl_leaf_count(struct xl_ctx *c, uint32_t type)
{
   const struct spirv_type *t = spirv_type(c->m, type);
   if (!t)
      return UINT32_MAX;
   switch (t->kind) {
   case SPIRV_TYPE_BOOL:
   case SPIRV_TYPE_INT:
   case SPIRV_TYPE_FLOAT:
   case SPIRV_TYPE_ACCELERATION_STRUCTURE:
   case SPIRV_TYPE_IMAGE:
   case SPIRV_TYPE_SAMPLER:
      return 1;
   case SPIRV_TYPE_SAMPLED_IMAGE:
      return 2; /* texture header VA, sampler header VA (translate_image.c) */
   case SPIRV_TYPE_POINTER:
      return t->u.pointer.storage_class == SPIRV_STORAGE_CLASS_PhysicalStorageBuffer ? 1
                                                                                     : UINT32_MAX;
   case SPIRV_TYPE_VECTOR:
      return t->u.vector.component_count;
   case SPIRV_TYPE_MATRIX: {
      uint32_t col = xl_leaf_count(c, t->u.matrix.column_type);
      return col == UINT32_MAX ? col : col * t->u.matrix.column_count;
   }
   case SPIRV_TYPE_ARRAY: {
      uint32_t n = array_len(c, t), e = xl_leaf_count(c, t->u.array.element_type);
      if (n == UINT32_MAX || e == UINT32_MAX || (uint64_t)n * e > XL_MAX_LEAVES)
         return UINT32_MAX;
      return n * e;
   }
   case SPIRV_TYPE_STRUCT: {
      uint64_t sum = 0;
      for (uint32_t i = 0; i < t->u.structure.member_count; i++) {
         uint32_t e = xl_leaf_count(c, spirv_struct_member_type(c->m, type, i));
         if (e == UINT32_MAX)
            return UINT32_MAX;
         sum += e;
      }
      return sum > XL_MAX_LEAVES ? UINT32_MAX : (uint32_t)sum;
   }
   default:
      return UINT32_MAX;
   }
}

bool xl_leaf_index(struct xl_ctx *c, uint32_t type, uint32_t index, uint32_t *first,
                   uint32_t *subtype)
{
   const struct spirv_type *t = spirv_type(c->m, type);
   if (!t)
      return false;
   switch (t->kind) {
   case SPIRV_TYPE_VECTOR:
      if (index >= t->u.vector.component_count)
         return false;
      *first = index;
      *subtype = t->u.vector.component_type;
      return true;
   case SPIRV_TYPE_MATRIX:
      if (index >= t->u.matrix.column_count)
         return false;
      *subtype = t->u.matrix.column_type;
      *first = index * xl_leaf_count(c, *subtype);
      return true;
   case SPIRV_TYPE_ARRAY:
      if (index >= array_len(c, t))
         return false;
      *subtype = t->u.array.element_type;
      *first = index * xl_leaf_count(c, *subtype);
      return true;
   case SPIRV_TYPE_STRUCT: {
      if (index >= t->u.structure.member_count)
         return false;
      uint32_t sum = 0;
      for (uint32_t i = 0; i < index; i++)
         sum += xl_leaf_count(c, spirv_struct_member_type(c->m, type, i));
      *first = sum;
      *subtype = spirv_struct_member_type(c->m, type, index);
      return true;
   }
   default:
      return false;
   }
}

uint32_t xl_leaf_type(struct xl_ctx *c, uint32_t type, uint32_t i)
{
   for (int guard = 0; guard < 64; guard++) {
      const struct spirv_type *t = spirv_type(c->m, type);
      if (!t)
         return 0;
      if (t->kind == SPIRV_TYPE_BOOL || t->kind == SPIRV_TYPE_INT || t->kind == SPIRV_TYPE_FLOAT ||
          t->kind == SPIRV_TYPE_POINTER || t->kind == SPIRV_TYPE_ACCELERATION_STRUCTURE ||
          t->kind == SPIRV_TYPE_IMAGE || t->kind == SPIRV_TYPE_SAMPLER ||
          t->kind == SPIRV_TYPE_SAMPLED_IMAGE)
         return type;
      /* Find the member holding leaf i. */
      uint32_t n = t->kind == SPIRV_TYPE_VECTOR   ? t->u.vector.component_count
                   : t->kind == SPIRV_TYPE_MATRIX ? t->u.matrix.column_count
                   : t->kind == SPIRV_TYPE_STRUCT ? t->u.structure.member_count
                                                  : array_len(c, t);
      uint32_t found = UINT32_MAX;
      for (uint32_t k = 0; k < n && found == UINT32_MAX; k++) {
         uint32_t first, sub;
         if (!xl_leaf_index(c, type, k, &first, &sub))
            return 0;
         uint32_t cnt = xl_leaf_count(c, sub);
         if (i >= first && i < first + cnt) {
            found = k;
            i -= first;
            type = sub;
         }
      }
      if (found == UINT32_MAX)
         return 0;
   }
   return 0;
}

static uint32_t pool_push(struct xl_ctx *c, uint32_t vreg)
{
   if (c->pool_count >= c->pool_cap) {
      uint32_t cap = c->pool_cap ? c->pool_cap * 2 : 1024;
      uint32_t *n = realloc(c->pool, (size_t)cap * sizeof(*n));
      if (!n) {
         xl_fail(c, "out of memory");
         return 0;
      }
      c->pool = n;
      c->pool_cap = cap;
   }
   c->pool[c->pool_count] = vreg;
   return c->pool_count++;
}

struct xl_val xl_new_val(struct xl_ctx *c, uint32_t type)
{
   struct xl_val v = {c->pool_count, 0, true};
   uint32_t n = xl_leaf_count(c, type);
   if (n == UINT32_MAX) {
      xl_fail(c,
              "unsupported value type %%%u (not a scalar/vector/matrix/array/struct of "
              "at most %u scalars)",
              type, XL_MAX_LEAVES);
      n = 0;
   }
   for (uint32_t i = 0; i < n; i++)
      pool_push(c, ir_new_vreg(c->ir, xl_scalar_regs(c, xl_leaf_type(c, type, i))));
   v.count = c->failed ? 0 : n;
   return v;
}

uint32_t xl_comp(struct xl_ctx *c, struct xl_val v, uint32_t i)
{
   if (i >= v.count) {
      xl_fail(c, "internal: component %u of a %u-component value", i, v.count);
      return ir_new_vreg(c->ir, 1);
   }
   return c->pool[v.first + i];
}

void xl_set(struct xl_ctx *c, uint32_t id, struct xl_val v)
{
   if (id < c->bound)
      c->scope->vals[id] = v;
}

uint32_t xl_half_of(struct xl_ctx *c, uint32_t x, unsigned k)
{
   uint32_t d = ir_new_vreg(c->ir, 1);
   xl_op(c, PPU_OP_MOV, PPU_TYPE_U32, d, 0, x)->part[2] = (uint8_t)k;
   return d;
}

uint32_t xl_pair_of(struct xl_ctx *c, uint32_t lo, uint32_t hi)
{
   uint32_t d = ir_new_vreg(c->ir, 2);
   xl_op(c, PPU_OP_MOV, PPU_TYPE_U32, d, 0, lo)->part[0] = 0;
   xl_op(c, PPU_OP_MOV, PPU_TYPE_U32, d, 0, hi)->part[0] = 1;
   return d;
}

uint32_t xl_imm32(struct xl_ctx *c, uint32_t bits)
{
   uint32_t d = ir_new_vreg(c->ir, 1);
   xl_op_imm(c, PPU_OP_MOV, PPU_TYPE_U32, d, 0, bits);
   return d;
}

void xl_mov(struct xl_ctx *c, uint32_t dst, uint32_t src, unsigned regs)
{
   xl_op(c, PPU_OP_MOV, regs == 2 ? PPU_TYPE_U64 : PPU_TYPE_U32, dst, 0, src);
}

/* Fills the leaves of a constant of type `type` into out[*n...]. */
static void constant_leaves(struct xl_ctx *c, uint32_t id, uint32_t type, struct xl_val out,
                            uint32_t *n)
{
   const struct spirv_constant *k = spirv_constant(c->m, id);
   const struct spirv_type *t = spirv_type(c->m, type);
   if (!k || !t) {
      xl_fail(c, "id %%%u is not a constant this compiler can evaluate", id);
      return;
   }
   uint32_t leaves = xl_leaf_count(c, type);
   if (k->kind == SPIRV_CONSTANT_NULL || k->kind == SPIRV_CONSTANT_UNDEF) {
      for (uint32_t i = 0; i < leaves && !c->failed; i++) {
         uint32_t v = xl_comp(c, out, (*n)++);
         xl_op(c, PPU_OP_MOV, c->ir->vreg_size[v] == 2 ? PPU_TYPE_U64 : PPU_TYPE_U32, v, 0, 0)
             ->f.rb = PPU_RZ;
      }
      return;
   }
   bool scalarish =
       t->kind != SPIRV_TYPE_MATRIX && t->kind != SPIRV_TYPE_ARRAY && t->kind != SPIRV_TYPE_STRUCT;
   if (scalarish) {
      if (!k->has_value) {
         xl_fail(c, "constant %%%u has no value after specialization", id);
         return;
      }
      for (uint32_t i = 0; i < leaves && i < SPIRV_MAX_VECTOR_COMPONENTS; i++) {
         uint32_t v = xl_comp(c, out, (*n)++);
         uint64_t bits = k->value[i];
         if (c->ir->vreg_size[v] == 2) {
            uint32_t lo = xl_imm32(c, (uint32_t)bits), hi = xl_imm32(c, (uint32_t)(bits >> 32));
            /* MOV.U64 of an immediate sign-extends: build (hi << 32) | lo. */
            uint32_t pair_hi = ir_new_vreg(c->ir, 2);
            xl_op(c, PPU_OP_MOV, PPU_TYPE_U32, pair_hi, 0, hi);
            xl_op_imm(c, PPU_OP_SHL, PPU_TYPE_U64, pair_hi, pair_hi, 32);
            uint32_t pair_lo = ir_new_vreg(c->ir, 2);
            xl_op(c, PPU_OP_MOV, PPU_TYPE_U32, pair_lo, 0, lo);
            xl_op_imm(c, PPU_OP_SHL, PPU_TYPE_U64, pair_lo, pair_lo, 32);
            xl_op_imm(c, PPU_OP_SHR, PPU_TYPE_U64, pair_lo, pair_lo, 32);
            xl_op(c, PPU_OP_OR, PPU_TYPE_U64, v, pair_hi, pair_lo);
         } else {
            /* Narrow signed integers are kept sign-extended (translate_alu.c). */
            struct xl_scalar sc;
            if (xl_scalar_of(c, type, &sc) && !sc.is_float && sc.is_signed && sc.width < 32 &&
                ((bits >> (sc.width - 1)) & 1u))
               bits |= ~0ull << sc.width;
            xl_op_imm(c, PPU_OP_MOV, PPU_TYPE_U32, v, 0, (uint32_t)bits);
         }
      }
      return;
   }
   if (k->kind != SPIRV_CONSTANT_COMPOSITE) {
      xl_fail(c, "unsupported constant kind for %%%u", id);
      return;
   }
   for (uint32_t i = 0; i < k->component_count && !c->failed; i++) {
      uint32_t first, sub;
      if (!xl_leaf_index(c, type, i, &first, &sub)) {
         xl_fail(c, "malformed composite constant %%%u", id);
         return;
      }
      constant_leaves(c, spirv_constant_constituent(c->m, k, i), sub, out, n);
   }
}

struct xl_val xl_constant(struct xl_ctx *c, uint32_t id)
{
   uint32_t type = spirv_id_type(c->m, id);
   struct xl_val v = xl_new_val(c, type);
   uint32_t n = 0;
   constant_leaves(c, id, type, v, &n);
   return v;
}

struct xl_val xl_get(struct xl_ctx *c, uint32_t id)
{
   if (spirv_id_class(c->m, id) == SPIRV_ID_CONSTANT)
      return xl_constant(c, id);
   if (id < c->bound && c->scope->vals[id].set)
      return c->scope->vals[id];
   struct xl_val address;
   if (xl_pointer_value(c, id, &address))
      return address;
   xl_fail(c, "value %%%u is not available (unsupported producer)", id);
   struct xl_val none = {0, 0, false};
   return none;
}

struct ir_insn *xl_op(struct xl_ctx *c, enum ppu_op op, enum ppu_type type, uint32_t dst,
                      uint32_t a, uint32_t b)
{
   struct ir_insn *i = ir_emit(c->ir, op);
   i->f.type = (uint8_t)type;
   i->dst = dst;
   i->src[0] = a;
   i->src[1] = b;
   return i;
}

struct ir_insn *xl_op_imm(struct xl_ctx *c, enum ppu_op op, enum ppu_type type, uint32_t dst,
                          uint32_t a, uint32_t imm)
{
   struct ir_insn *i = xl_op(c, op, type, dst, a, 0);
   i->f.b_imm = true;
   i->f.imm = imm;
   return i;
}

void xl_bool_to_p0(struct xl_ctx *c, uint32_t v)
{
   struct ir_insn *i = xl_op(c, PPU_OP_ISETP, PPU_TYPE_U32, 0, v, 0);
   i->f.subop = PPU_CMP_NE;
   i->f.pd = 0;
   i->f.rb = PPU_RZ;
}

uint32_t xl_p0_to_bool(struct xl_ctx *c)
{
   /* SEL d, a, b, q = q ? a : b; with q = !P0: P0 ? 1 : 0. */
   uint32_t d = ir_new_vreg(c->ir, 1);
   struct ir_insn *i = xl_op_imm(c, PPU_OP_SEL, PPU_TYPE_U32, d, 0, 1);
   i->f.ra = PPU_RZ;
   i->f.ps = 0 | PPU_PRED_NEG;
   return d;
}

uint32_t xl_hoist_mark(struct xl_ctx *c)
{
   return c->ir->insn_count - c->ir->hoisted;
}

void xl_hoist_to_prologue(struct xl_ctx *c, uint32_t mark)
{
   /* Hoists done since the mark (nested ones) moved the code after the
    * prologue down by as many instructions. */
   uint32_t from = mark + c->ir->hoisted;
   uint32_t n = c->ir->insn_count - from;
   ir_move_tail(c->ir, from, c->prologue_end);
   c->prologue_end += n;
   c->ir->hoisted += n;
}
