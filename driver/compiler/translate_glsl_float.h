/* Float arithmetic written once for 32- and 64-bit floats, for the
 * GLSL.std.450 instructions that the GLSL.std.450 specification allows on
 * doubles (geometric functions, Modf, Frexp, Ldexp, Determinant,
 * MatrixInverse): each helper emits the F32 or F64 form of an instruction
 * and returns a new vreg of one or two registers. */
#ifndef DRV_COMPILER_TRANSLATE_GLSL_FLOAT_H
#define DRV_COMPILER_TRANSLATE_GLSL_FLOAT_H

#include "translate.h"

struct xl_float {
   struct xl_ctx *c;
   enum ppu_type type; /* PPU_TYPE_F32 or PPU_TYPE_F64 */
   unsigned regs;      /* 1 or 2 */
};

struct xl_float xl_float_of_width(struct xl_ctx *c, uint32_t width);
uint32_t xl_fop(const struct xl_float *f, enum ppu_op op, uint32_t a, uint32_t b);
uint32_t xl_ffma(const struct xl_float *f, uint32_t a, uint32_t b, uint32_t addend);
uint32_t xl_fneg(const struct xl_float *f, uint32_t a);
uint32_t xl_fconst(const struct xl_float *f, double v);
/* a0 * b0 + a1 * b1 + ... over n components of two values. */
uint32_t xl_fdot(const struct xl_float *f, struct xl_val a, struct xl_val b, uint32_t n);

/* Translators (translate_glsl.c dispatches to them); each returns false when
 * ext is not one of its instructions. */
/* Length, Distance, Normalize, Cross, Reflect, FaceForward, Refract, Modf,
 * ModfStruct, Frexp, FrexpStruct, Ldexp, PackDouble2x32, UnpackDouble2x32. */
bool xl_glsl_float(struct xl_ctx *c, const struct spirv_inst *inst, uint32_t ext);
/* Determinant, MatrixInverse (translate_glsl_matrix.c). */
bool xl_glsl_matrix(struct xl_ctx *c, const struct spirv_inst *inst, uint32_t ext);

#endif /* DRV_COMPILER_TRANSLATE_GLSL_FLOAT_H */
