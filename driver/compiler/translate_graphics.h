/* Vertex and fragment stages (docs/graphics-hw.md "Vertex work",
 * "Fragment work"; docs/compiler.md "Graphics stages"): the shared state of
 * translate_graphics.c (interface variables, launch and output registers),
 * translate_vertex.c (attribute fetch, the vertex output record) and
 * translate_fragment.c (plane evaluation, outputs at EXIT, discard,
 * derivatives), driven by compiler_graphics.c.
 *
 * Interface variables (Input with a Location, every Output) live in local
 * memory like Private variables, so loads, stores and access chains need
 * nothing new and the optimizer promotes them to registers: the prologue
 * fills the inputs (fetched attributes, evaluated planes), and every EXIT of
 * the entry point is preceded by an epilogue that takes the outputs from
 * there (ST.GLOBAL to the vertex output record; MOV to R0.. for fragment
 * outputs). The launch and output registers are reserved from register
 * allocation (ir_program.reserved) and read and written by number. */
#ifndef DRV_COMPILER_TRANSLATE_GRAPHICS_H
#define DRV_COMPILER_TRANSLATE_GRAPHICS_H

#include "translate.h"

#define XL_GFX_MAX_VARS 64u

/* Launch registers (docs/graphics-hw.md). */
enum {
   XL_VS_VERTEX_INDEX = 0,
   XL_VS_INSTANCE_INDEX = 1,
   XL_VS_RECORD = 2, /* R2:R3 */
   XL_VS_DRAW_INDEX = 4,
   XL_VS_BASE_INSTANCE = 5,
   XL_VS_BASE_VERTEX = 6,
   XL_VS_LAUNCH_REGS = 7,
   XL_FS_POSITION = 0,
   XL_FS_STATE = 1, /* coverage, helper, facing, sample index */
   XL_FS_RECORD = 2,
   XL_FS_DX = 4,
   XL_FS_DY = 5,
   XL_FS_DEPTH = 6,
   XL_FS_PRIMITIVE_ID = 7,
   XL_FS_LAUNCH_REGS = 8,
   XL_FS_OUT_DEPTH = 32,
   XL_FS_OUT_SAMPLE_MASK = 33,
   XL_FS_COVERAGE = 34, /* with MAY_DISCARD */
};

/* An interface variable of the stage being compiled. */
struct xl_gfx_var {
   uint32_t id;
   bool is_output;
   uint32_t builtin;  /* SPIRV_BUILT_IN_*, or UINT32_MAX for a user variable */
   uint32_t location; /* user variables */
   uint32_t component;
   uint32_t index;         /* fragment output Index (dual-source blending) */
   uint32_t interpolation; /* enum ppu_gfx_interpolation */
   bool centroid;
   bool sample;     /* Sample: evaluated at the sample (implies sample shading) */
   bool user_block; /* a struct of user members (an interface block), not gl_PerVertex */
};

struct xl_gfx {
   uint32_t model; /* SPIRV_EXECUTION_MODEL_Vertex or _Fragment */
   const struct drv_graphics_compile_request *req;
   const struct spirv_entry_point *ep;
   /* Link state: the fragment compile fills the slot map, the vertex
    * compile writes those slots. */
   uint32_t slot_count;
   uint32_t slot_location[DRV_GFX_MAX_SLOTS];
   uint32_t slot_interpolation[DRV_GFX_MAX_SLOTS];
   bool slot_centroid[DRV_GFX_MAX_SLOTS];
   bool slot_written[DRV_GFX_MAX_SLOTS]; /* vertex compile */
   /* Per compile (reset by xl_gfx_reset). */
   struct xl_gfx_var vars[XL_GFX_MAX_VARS];
   uint32_t var_count;
   uint32_t coverage; /* fragment with discard: vreg of R34's value */
   /* Fragment at 4x running once per sample: R4/R5 are the sample's
    * position, not the pixel centre's. */
   bool per_sample;
   /* Results. */
   struct drv_graphics_program_info info;
   uint32_t clip_distance_count, cull_distance_count;
   bool writes_point_size; /* a gl_PointSize exists (initialized to 1.0) */
};

/* Called by compile_entry (compiler.c). */
void xl_gfx_reset(struct xl_gfx *g, const struct spirv_entry_point *ep);
/* After xl_setup_globals: reserves registers, emits the prologue. */
bool xl_gfx_begin(struct xl_ctx *c);
/* After translation: flags from the translated code, link checks. */
bool xl_gfx_end(struct xl_ctx *c);

/* translate_memory.c: an Input (non-built-in) or Output variable of a
 * graphics stage; p has its type. Places it in local memory. */
bool xl_gfx_variable(struct xl_ctx *c, const struct spirv_variable *var, struct xl_ptr *p);
/* translate_cfg.c: the entry point returns (the epilogue before EXIT). */
void xl_gfx_exit(struct xl_ctx *c);
/* translate_cfg.c: OpKill / OpTerminateInvocation. */
void xl_gfx_terminate(struct xl_ctx *c);
/* A vertex or fragment built-in (translate_builtin.c's fallback). */
uint32_t xl_gfx_builtin_component(struct xl_ctx *c, uint32_t builtin, uint32_t k);
/* Fragment instructions: derivatives, demote, helper queries. */
bool xl_translate_fragment(struct xl_ctx *c, const struct spirv_inst *inst);
/* Whether inst, in a fragment program, writes memory other shaders or the
 * host can see (a store through a buffer pointer, an atomic that writes,
 * an image write), which its helper lanes must not do; and the if-block
 * around it that runs only the lanes that are not helpers (launched
 * uncovered, or demoted since). */
bool xl_fragment_writes_memory(struct xl_ctx *c, const struct spirv_inst *inst);
struct xl_if_block xl_fragment_live_begin(struct xl_ctx *c);
/* GLSL.std.450 InterpolateAtCentroid / AtSample / AtOffset (ext): the
 * input's planes at that position (translate_glsl.c hands them over before
 * reading operands, as the first is a pointer). */
void xl_fragment_interpolate(struct xl_ctx *c, const struct spirv_inst *inst, uint32_t ext);

/* Shared helpers (translate_graphics.c). */
/* A launch register's value (the register is reserved: never written
 * before the epilogue, so it can be read anywhere). */
uint32_t xl_gfx_read_reg(struct xl_ctx *c, unsigned reg);
/* MOV R<reg>, v (the epilogue). */
void xl_gfx_write_reg(struct xl_ctx *c, unsigned reg, uint32_t v);
void xl_gfx_reserve(struct xl_ctx *c, unsigned first, unsigned count);
/* LD.GLOBAL / ST.GLOBAL at R<pair> + offset. */
uint32_t xl_gfx_load_at(struct xl_ctx *c, unsigned pair, uint32_t offset);
void xl_gfx_store_at(struct xl_ctx *c, unsigned pair, uint32_t offset, uint32_t v);
/* The whole value of an interface variable in local memory (loads), and
 * storing a value there (the prologue). */
struct xl_val xl_gfx_var_value(struct xl_ctx *c, const struct xl_gfx_var *v);
void xl_gfx_var_store(struct xl_ctx *c, const struct xl_gfx_var *v, struct xl_val value);
/* Leaf i of a variable's value: its location and component (user
 * variables: scalars, vectors and arrays of them, 32-bit, or an interface
 * block of such members). False after xl_fail for other types. */
bool xl_gfx_leaf_slot(struct xl_ctx *c, const struct xl_gfx_var *v, uint32_t leaf,
                      uint32_t *location, uint32_t *component);
/* Locations a user variable covers (0 after xl_fail). */
uint32_t xl_gfx_locations(struct xl_ctx *c, const struct xl_gfx_var *v);
/* The i-th location a user variable covers (i < xl_gfx_locations), with
 * the interpolation and centroid qualifier of the member that holds it. */
bool xl_gfx_location_at(struct xl_ctx *c, const struct xl_gfx_var *v, uint32_t i,
                        uint32_t *location, uint32_t *interpolation, bool *centroid);

/* A new vreg of regs (1 or 2) registers = constant bank 0 at offset. */
uint32_t xl_gfx_cbank_load(struct xl_ctx *c, uint32_t offset, unsigned regs);

/* Float bits; a new vreg = op(a, #imm). */
uint32_t xl_gfx_f32(float f);
uint32_t xl_gfx_op_imm(struct xl_ctx *c, enum ppu_op op, enum ppu_type ty, uint32_t a,
                       uint32_t imm);

/* Stage parts. */
bool xl_vertex_begin(struct xl_ctx *c);
void xl_vertex_exit(struct xl_ctx *c);
uint32_t xl_vertex_builtin(struct xl_ctx *c, uint32_t builtin, uint32_t k);
bool xl_fragment_begin(struct xl_ctx *c);
void xl_fragment_exit(struct xl_ctx *c);
uint32_t xl_fragment_builtin(struct xl_ctx *c, uint32_t builtin, uint32_t k);
/* The fragment's pixel coordinate on axis 0 (x) or 1 (y), an unsigned
 * integer: where subpassLoad reads its input attachment. */
uint32_t xl_fragment_pixel(struct xl_ctx *c, unsigned axis);

#endif /* DRV_COMPILER_TRANSLATE_GRAPHICS_H */
