/* Composites and linear algebra (translate.h): construct, extract,
 * insert, shuffle, dynamic vector indexing, dot and matrix products,
 * transpose (SPIR-V spec 3.52.12 and 3.52.14). Leaves are shared where a
 * result is a part of an operand, copied otherwise. */
#include "translate.h"

/* Shares the leaves [first, first + count) of v. */
static struct xl_val sub_val(struct xl_ctx *c, struct xl_val v, uint32_t first, uint32_t count)
{
   struct xl_val r = {v.first + first, count, true};
   if (first + count > v.count) {
      xl_fail(c, "composite index out of range");
      r.count = 0;
   }
   return r;
}

static uint32_t id_type(struct xl_ctx *c, uint32_t id)
{
   return spirv_id_type(c->m, id);
}

static void composite_extract(struct xl_ctx *c, const struct spirv_inst *inst)
{
   uint32_t type = id_type(c, xl_word(c, inst, 0));
   struct xl_val v = xl_get(c, xl_word(c, inst, 0));
   uint32_t first = 0;
   for (uint32_t k = 1; k < inst->operand_count && !c->failed; k++) {
      uint32_t f, sub;
      if (!xl_leaf_index(c, type, xl_word(c, inst, k), &f, &sub)) {
         xl_fail(c, "bad composite index");
         return;
      }
      first += f;
      type = sub;
   }
   xl_set(c, inst->result_id, sub_val(c, v, first, xl_leaf_count(c, type)));
}

static void copy_leaves(struct xl_ctx *c, struct xl_val dst, uint32_t at, struct xl_val src)
{
   for (uint32_t k = 0; k < src.count && !c->failed; k++) {
      uint32_t s = xl_comp(c, src, k);
      xl_mov(c, xl_comp(c, dst, at + k), s, c->ir->vreg_size[s]);
   }
}

static void composite_insert(struct xl_ctx *c, const struct spirv_inst *inst)
{
   uint32_t type = inst->result_type;
   struct xl_val obj = xl_get(c, xl_word(c, inst, 0)), comp = xl_get(c, xl_word(c, inst, 1));
   struct xl_val d = xl_new_val(c, type);
   uint32_t first = 0;
   for (uint32_t k = 2; k < inst->operand_count && !c->failed; k++) {
      uint32_t f, sub;
      if (!xl_leaf_index(c, type, xl_word(c, inst, k), &f, &sub)) {
         xl_fail(c, "bad composite index");
         return;
      }
      first += f;
      type = sub;
   }
   for (uint32_t k = 0; k < d.count && !c->failed; k++) {
      uint32_t s =
          k >= first && k < first + obj.count ? xl_comp(c, obj, k - first) : xl_comp(c, comp, k);
      xl_mov(c, xl_comp(c, d, k), s, c->ir->vreg_size[s]);
   }
   xl_set(c, inst->result_id, d);
}

static void composite_construct(struct xl_ctx *c, const struct spirv_inst *inst)
{
   struct xl_val d = xl_new_val(c, inst->result_type);
   uint32_t at = 0;
   for (uint32_t k = 0; k < inst->operand_count && !c->failed; k++) {
      struct xl_val part = xl_get(c, xl_word(c, inst, k));
      if (at + part.count > d.count) {
         xl_fail(c, "composite constituents do not match the result");
         return;
      }
      copy_leaves(c, d, at, part);
      at += part.count;
   }
   xl_set(c, inst->result_id, d);
}

static void vector_shuffle(struct xl_ctx *c, const struct spirv_inst *inst)
{
   struct xl_val a = xl_get(c, xl_word(c, inst, 0)), b = xl_get(c, xl_word(c, inst, 1));
   struct xl_val d = xl_new_val(c, inst->result_type);
   for (uint32_t k = 0; k < d.count && !c->failed; k++) {
      uint32_t sel = xl_word(c, inst, 2 + k);
      if (sel == UINT32_MAX)
         sel = 0; /* undefined component */
      uint32_t s = sel < a.count ? xl_comp(c, a, sel) : xl_comp(c, b, sel - a.count);
      xl_mov(c, xl_comp(c, d, k), s, c->ir->vreg_size[s]);
   }
   xl_set(c, inst->result_id, d);
}

static void vector_dynamic(struct xl_ctx *c, const struct spirv_inst *inst, bool insert)
{
   struct xl_val v = xl_get(c, xl_word(c, inst, 0));
   struct xl_val x = insert ? xl_get(c, xl_word(c, inst, 1)) : v;
   struct xl_val idx = xl_get(c, xl_word(c, inst, insert ? 2 : 1));
   struct xl_val d = xl_new_val(c, inst->result_type);
   if (c->failed)
      return;
   uint32_t ix = xl_comp(c, idx, 0);
   unsigned regs = c->ir->vreg_size[xl_comp(c, v, 0)];
   enum ppu_type ty = regs == 2 ? PPU_TYPE_U64 : PPU_TYPE_U32;
   if (!insert)
      xl_mov(c, xl_comp(c, d, 0), xl_comp(c, v, 0), regs);
   for (uint32_t k = insert ? 0 : 1; k < v.count && !c->failed; k++) {
      struct ir_insn *i = xl_op_imm(c, PPU_OP_ISETP, PPU_TYPE_U32, 0, ix, k);
      i->f.subop = PPU_CMP_EQ;
      i->f.pd = 0;
      if (insert) {
         i = xl_op(c, PPU_OP_SEL, ty, xl_comp(c, d, k), xl_comp(c, x, 0), xl_comp(c, v, k));
      } else {
         i = xl_op(c, PPU_OP_SEL, ty, xl_comp(c, d, 0), xl_comp(c, v, k), xl_comp(c, d, 0));
      }
      i->f.ps = 0;
   }
   xl_set(c, inst->result_id, d);
}

/* acc = sum_k a[ka + k*sa] * b[kb + k*sb] over n terms. */
static uint32_t dot_leaves(struct xl_ctx *c, struct xl_val a, uint32_t ka, uint32_t sa,
                           struct xl_val b, uint32_t kb, uint32_t sb, uint32_t n)
{
   unsigned regs = c->ir->vreg_size[xl_comp(c, a, ka)];
   enum ppu_type ft = regs == 2 ? PPU_TYPE_F64 : PPU_TYPE_F32;
   uint32_t acc = ir_new_vreg(c->ir, regs);
   xl_op(c, PPU_OP_FMUL, ft, acc, xl_comp(c, a, ka), xl_comp(c, b, kb));
   for (uint32_t k = 1; k < n && !c->failed; k++) {
      uint32_t next = ir_new_vreg(c->ir, regs);
      struct ir_insn *i =
          xl_op(c, PPU_OP_FFMA, ft, next, xl_comp(c, a, ka + k * sa), xl_comp(c, b, kb + k * sb));
      i->src[2] = acc;
      acc = next;
   }
   return acc;
}

static uint32_t rows_of(struct xl_ctx *c, uint32_t matrix_type)
{
   const struct spirv_type *t = spirv_type(c->m, matrix_type);
   return spirv_type(c->m, t->u.matrix.column_type)->u.vector.component_count;
}

static void linear_algebra(struct xl_ctx *c, const struct spirv_inst *inst)
{
   uint32_t ta = id_type(c, xl_word(c, inst, 0)), tb = id_type(c, xl_word(c, inst, 1));
   struct xl_val a = xl_get(c, xl_word(c, inst, 0)), b = xl_get(c, xl_word(c, inst, 1));
   struct xl_val d = xl_new_val(c, inst->result_type);
   struct xl_scalar s;
   xl_scalar_of(c, ta, &s);
   if (s.width != 32 && s.width != 64) {
      xl_fail(c, "unsupported: %u-bit vector/matrix products", s.width);
      return;
   }
   unsigned regs = s.width == 64 ? 2 : 1;
   enum ppu_type ft = regs == 2 ? PPU_TYPE_F64 : PPU_TYPE_F32;
   if (c->failed)
      return;
   switch (inst->opcode) {
   case SPIRV_OP_Dot:
      xl_mov(c, xl_comp(c, d, 0), dot_leaves(c, a, 0, 1, b, 0, 1, a.count), regs);
      break;
   case SPIRV_OP_VectorTimesScalar:
   case SPIRV_OP_MatrixTimesScalar:
      for (uint32_t k = 0; k < d.count; k++)
         xl_op(c, PPU_OP_FMUL, ft, xl_comp(c, d, k), xl_comp(c, a, k), xl_comp(c, b, 0));
      break;
   case SPIRV_OP_MatrixTimesVector: {
      uint32_t rows = rows_of(c, ta);
      for (uint32_t r = 0; r < rows; r++)
         xl_mov(c, xl_comp(c, d, r), dot_leaves(c, a, r, rows, b, 0, 1, b.count), regs);
      break;
   }
   case SPIRV_OP_VectorTimesMatrix: {
      uint32_t rows = rows_of(c, tb);
      for (uint32_t col = 0; col < d.count; col++)
         xl_mov(c, xl_comp(c, d, col), dot_leaves(c, a, 0, 1, b, col * rows, 1, rows), regs);
      break;
   }
   case SPIRV_OP_MatrixTimesMatrix: {
      uint32_t rows = rows_of(c, ta), inner = rows_of(c, tb);
      uint32_t cols = d.count / rows;
      for (uint32_t col = 0; col < cols; col++)
         for (uint32_t r = 0; r < rows; r++)
            xl_mov(c, xl_comp(c, d, col * rows + r),
                   dot_leaves(c, a, r, rows, b, col * inner, 1, inner), regs);
      break;
   }
   case SPIRV_OP_OuterProduct: {
      uint32_t rows = a.count;
      for (uint32_t col = 0; col < b.count; col++)
         for (uint32_t r = 0; r < rows; r++)
            xl_op(c, PPU_OP_FMUL, ft, xl_comp(c, d, col * rows + r), xl_comp(c, a, r),
                  xl_comp(c, b, col));
      break;
   }
   default:
      break;
   }
   xl_set(c, inst->result_id, d);
}

static void transpose(struct xl_ctx *c, const struct spirv_inst *inst)
{
   uint32_t ta = id_type(c, xl_word(c, inst, 0));
   struct xl_val a = xl_get(c, xl_word(c, inst, 0));
   struct xl_val d = xl_new_val(c, inst->result_type);
   if (c->failed)
      return;
   uint32_t rows = rows_of(c, ta), cols = a.count / rows;
   for (uint32_t col = 0; col < cols; col++)
      for (uint32_t r = 0; r < rows; r++) {
         uint32_t s = xl_comp(c, a, col * rows + r);
         xl_mov(c, xl_comp(c, d, r * cols + col), s, c->ir->vreg_size[s]);
      }
   xl_set(c, inst->result_id, d);
}

bool xl_translate_composite(struct xl_ctx *c, const struct spirv_inst *inst)
{
   switch (inst->opcode) {
   case SPIRV_OP_CompositeConstruct:
      composite_construct(c, inst);
      return true;
   case SPIRV_OP_CompositeExtract:
      composite_extract(c, inst);
      return true;
   case SPIRV_OP_CompositeInsert:
      composite_insert(c, inst);
      return true;
   case SPIRV_OP_VectorShuffle:
      vector_shuffle(c, inst);
      return true;
   case SPIRV_OP_VectorExtractDynamic:
      vector_dynamic(c, inst, false);
      return true;
   case SPIRV_OP_VectorInsertDynamic:
      vector_dynamic(c, inst, true);
      return true;
   case SPIRV_OP_Dot:
   case SPIRV_OP_VectorTimesScalar:
   case SPIRV_OP_MatrixTimesScalar:
   case SPIRV_OP_MatrixTimesVector:
   case SPIRV_OP_VectorTimesMatrix:
   case SPIRV_OP_MatrixTimesMatrix:
   case SPIRV_OP_OuterProduct:
      linear_algebra(c, inst);
      return true;
   case SPIRV_OP_Transpose:
      transpose(c, inst);
      return true;
   default:
      return false;
   }
}
