/* GLSL.std.450 Determinant and MatrixInverse (GLSL 4.60 section 8.6) on
 * 2x2, 3x3 and 4x4 matrices of 32- or 64-bit floats, by cofactor
 * expansion (translate_glsl_float.h). The inverse is the adjugate divided
 * by the determinant; GLSL leaves singular and ill-conditioned matrices
 * undefined, and the Vulkan precision table gives neither function a bound
 * ("inherited from the formula"), which cofactors meet term by term. */
#include "translate_glsl_float.h"

struct matrix {
   struct xl_ctx *c;
   const struct xl_float *f;
   struct xl_val m;
   uint32_t n;
};

/* Row `row` of column `col` (leaves are column-major). */
static uint32_t element(const struct matrix *a, uint32_t row, uint32_t col)
{
   return xl_comp(a->c, a->m, col * a->n + row);
}

/* The determinant of the k x k submatrix of rows[] and cols[], expanded
 * along its first column; 2x2 as one FFMA of one rounded product. */
static uint32_t sub_determinant(const struct matrix *a, const uint32_t *rows, const uint32_t *cols,
                                uint32_t k)
{
   const struct xl_float *f = a->f;
   if (k == 1)
      return element(a, rows[0], cols[0]);
   if (k == 2) {
      uint32_t p =
          xl_fop(f, PPU_OP_FMUL, element(a, rows[1], cols[0]), element(a, rows[0], cols[1]));
      return xl_ffma(f, element(a, rows[0], cols[0]), element(a, rows[1], cols[1]), xl_fneg(f, p));
   }
   uint32_t acc = 0, sub[3];
   for (uint32_t i = 0; i < k; i++) {
      uint32_t m = 0;
      for (uint32_t j = 0; j < k; j++) {
         if (j != i)
            sub[m++] = rows[j];
      }
      uint32_t minor = sub_determinant(a, sub, cols + 1, k - 1);
      uint32_t e = element(a, rows[i], cols[0]);
      if (i & 1)
         e = xl_fneg(f, e);
      acc = i ? xl_ffma(f, e, minor, acc) : xl_fop(f, PPU_OP_FMUL, e, minor);
   }
   return acc;
}

/* Cofactor (-1)^(r+c) * det(A without row r and column c). */
static uint32_t cofactor(const struct matrix *a, uint32_t r, uint32_t c)
{
   uint32_t rows[3], cols[3], nr = 0, nc = 0;
   for (uint32_t i = 0; i < a->n; i++) {
      if (i != r)
         rows[nr++] = i;
      if (i != c)
         cols[nc++] = i;
   }
   uint32_t m = sub_determinant(a, rows, cols, a->n - 1);
   return (r + c) & 1 ? xl_fneg(a->f, m) : m;
}

bool xl_glsl_matrix(struct xl_ctx *c, const struct spirv_inst *inst, uint32_t ext)
{
   if (ext != SPIRV_GLSL_STD_450_Determinant && ext != SPIRV_GLSL_STD_450_MatrixInverse)
      return false;
   bool inverse = ext == SPIRV_GLSL_STD_450_MatrixInverse;
   uint32_t mt = spirv_id_type(c->m, xl_word(c, inst, 2));
   const struct spirv_type *t = spirv_type(c->m, mt);
   const struct spirv_type *col =
       t && t->kind == SPIRV_TYPE_MATRIX ? spirv_type(c->m, t->u.matrix.column_type) : NULL;
   struct xl_scalar s;
   if (!col || col->kind != SPIRV_TYPE_VECTOR ||
       col->u.vector.component_count != t->u.matrix.column_count || t->u.matrix.column_count < 2 ||
       t->u.matrix.column_count > 4 || !xl_scalar_of(c, mt, &s) || !s.is_float ||
       (s.width != 32 && s.width != 64) ||
       inst->result_type != (inverse ? mt : spirv_type_scalar(c->m, mt))) {
      xl_fail(c, "GLSL.std.450 %s needs a square matrix of 32- or 64-bit floats%s",
              inverse ? "MatrixInverse" : "Determinant",
              inverse ? " and returns its type" : " and returns its component type");
      return true;
   }
   const struct xl_float f = xl_float_of_width(c, s.width);
   struct matrix a = {c, &f, xl_get(c, xl_word(c, inst, 2)), t->u.matrix.column_count};
   struct xl_val d = xl_new_val(c, inst->result_type);
   if (c->failed)
      return true;
   uint32_t n = a.n, cof[4][4] = {{0}};
   /* The first column's cofactors give the determinant; the inverse needs
    * them all. */
   for (uint32_t r = 0; r < n; r++) {
      for (uint32_t k = 0; k < (inverse ? n : 1); k++)
         cof[r][k] = cofactor(&a, r, k);
   }
   uint32_t det = xl_fop(&f, PPU_OP_FMUL, element(&a, 0, 0), cof[0][0]);
   for (uint32_t r = 1; r < n; r++)
      det = xl_ffma(&f, element(&a, r, 0), cof[r][0], det);
   if (!inverse) {
      xl_mov(c, xl_comp(c, d, 0), det, f.regs);
   } else {
      /* The adjugate is the transposed cofactor matrix: row k of column r
       * (leaf r * n + k) is cofactor(r, k) / det. */
      for (uint32_t r = 0; r < n; r++) {
         for (uint32_t k = 0; k < n; k++)
            xl_op(c, PPU_OP_FDIV, f.type, xl_comp(c, d, r * n + k), cof[r][k], det);
      }
   }
   xl_set(c, inst->result_id, d);
   return true;
}
