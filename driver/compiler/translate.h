/* SPIR-V to IR translation (instruction selection): shared context of the
 * translate_*.c files. Every SPIR-V value is flattened into its scalar
 * leaves (vector components, matrix columns' components, struct members,
 * array elements), one vreg per leaf (two for 64-bit leaves). Booleans are
 * 32-bit 0/1 values in registers; comparisons go through predicate P0,
 * which is scratch: it never lives across two translated instructions. */
#ifndef DRV_COMPILER_TRANSLATE_H
#define DRV_COMPILER_TRANSLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler.h"
#include "ir.h"
#include "spirv_module.h"

#define XL_MAX_LEAVES 1024u
#define XL_MAX_INLINE_DEPTH 16u
/* A loop takes two entries of the warp's reconvergence stack (PBK, PCNT),
 * which ends at 1024 (docs/isa.md): deeper nesting could not run. */
#define XL_MAX_CONSTRUCT_DEPTH 512u

struct xl_val {
   uint32_t first; /* index into ctx->pool */
   uint32_t count;
   bool set;
};

enum xl_ptr_kind {
   XL_PTR_NONE,
   XL_PTR_GLOBAL,  /* 64-bit address: storage/uniform buffers */
   XL_PTR_PUSH,    /* constant bank 0 offset */
   XL_PTR_SHARED,  /* shared memory offset */
   XL_PTR_LOCAL,   /* per-thread local memory offset (Function variables) */
   XL_PTR_BUILTIN, /* an Input built-in */
   XL_PTR_ACCEL,   /* an acceleration-structure descriptor: base = header address */
   XL_PTR_IMAGE,   /* an image, sampler or texel-buffer descriptor: base = its VA */
   XL_PTR_TEXEL,   /* OpImageTexelPointer: base = texture header VA, texel = coordinate */
};

struct xl_ptr {
   enum xl_ptr_kind kind;
   bool set;
   uint32_t base;   /* GLOBAL: 64-bit vreg; others: none */
   uint32_t dyn;    /* 32-bit vreg of a dynamic byte offset, or none */
   uint32_t range;  /* GLOBAL from a descriptor: 32-bit vreg of its range */
   uint32_t offset; /* constant byte offset */
   uint32_t type;   /* pointee type id */
   uint32_t matrix_stride;
   bool row_major;
   bool explicit_layout; /* offsets from decorations (buffers), else natural */
   /* LOCAL: dyn is already a thread-local address (data a caller passed
    * by pointer, call_frames.h), not an index into this function's
    * variables. */
   bool absolute;
   uint32_t builtin;   /* BUILTIN: enum spirv_built_in_value */
   uint32_t component; /* BUILTIN: selected component, UINT32_MAX for whole */
   /* BUILTIN: the leaves (scalars) of the whole variable; with a dynamic
    * index, dyn is a 32-bit vreg of leaves to add to component. */
   uint32_t builtin_leaves;
   /* LOCAL: the whole variable's bytes (for ir_mark_dynamic_local). */
   uint32_t region_start, region_end;
   /* Descriptor arrays: the variable's binding before an element is chosen. */
   const struct drv_binding_layout *binding;
   /* IMAGE: the binding's enum drv_binding_kind (where a combined
    * descriptor keeps its sampler). TEXEL: the image type. */
   uint32_t descriptor_kind;
   uint32_t image_type;
   struct xl_val texel; /* TEXEL: the coordinate value */
};

struct xl_scalar {
   bool is_float, is_bool, is_signed;
   uint32_t width; /* bits */
};

struct xl_scope {
   const struct spirv_function *fn;
   struct xl_val *vals; /* by id */
   struct xl_ptr *ptrs; /* by id */
   uint32_t *labels;    /* by block index within fn: entry label */
   uint32_t *heads;     /* loop headers: label after PBK */
   /* The construct stack a block lies in: its depth, and its innermost
    * header (UINT32_MAX when none), whose own stack is the rest of it. */
   uint16_t *ctx_depth;
   uint32_t *ctx_top;
   /* Loop headers left by a break from inside a switch: a vreg that is
    * nonzero in the lanes breaking (0 when the loop has no such break). */
   uint32_t *break_flag;
   /* Merge blocks of switches such a break passes: loop header index + 1
    * (0: none); the block first sends the flagged lanes on. */
   uint32_t *forward_break;
   bool *reached;
   bool is_entry;
   struct xl_val ret; /* inlined callee: vregs of the return value */
   uint32_t ret_label;
};

struct xl_ctx {
   struct spirv_module *m;
   const struct drv_compile_request *req;
   struct ir_program *ir;
   char *err;
   size_t err_size;
   bool failed;
   uint32_t bound;
   uint32_t *pool;
   uint32_t pool_count, pool_cap;
   struct xl_ptr *global_ptrs; /* by id */
   struct xl_scope *scope;
   uint32_t depth;
   uint32_t prologue_end; /* instructions [0, prologue_end) run first */
   uint32_t set_base[DRV_ABI_MAX_SETS];
   uint32_t shared_size, local_size;
   uint32_t cur_word; /* word offset of the instruction being translated */
   uint32_t cur_opcode;
   /* Ray-tracing pipelines (translate_ray_tracing.c): the pipeline being
    * compiled and which inlined copy of which stage this context is; NULL
    * for compute. */
   struct xl_rt_program *rt;
   struct xl_rt_instance *rt_instance;
   /* Out-of-line functions (call_frames.h): the vreg of the frame base the
    * static local offsets of this function are relative to at run time
    * (for addresses held in registers, such as a ray query's); 0 when
    * local offsets are the addresses. */
   uint32_t frame_base;
   /* Vertex and fragment stages (translate_graphics.h); NULL otherwise. */
   struct xl_gfx *gfx;
};

/* err, or scratch when the caller gave no buffer; emptied. The public
 * entry points' one-line messages go there. */
static inline char *xl_error_buffer(char *err, size_t *err_size, char *scratch, size_t scratch_size)
{
   if (!err || !*err_size) {
      err = scratch;
      *err_size = scratch_size;
   }
   err[0] = '\0';
   return err;
}

/* Records the first failure: "compiler: word N (OpX): ...". */
void xl_fail(struct xl_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Types. */
bool xl_scalar_of(struct xl_ctx *c, uint32_t type, struct xl_scalar *s);
uint32_t xl_leaf_count(struct xl_ctx *c, uint32_t type);
/* Leaf i's scalar type id. */
uint32_t xl_leaf_type(struct xl_ctx *c, uint32_t type, uint32_t i);
/* First leaf and subtype of a composite index (OpCompositeExtract). */
bool xl_leaf_index(struct xl_ctx *c, uint32_t type, uint32_t index, uint32_t *first,
                   uint32_t *subtype);
unsigned xl_scalar_regs(struct xl_ctx *c, uint32_t scalar_type);

/* Values. */
struct xl_val xl_new_val(struct xl_ctx *c, uint32_t type);
uint32_t xl_comp(struct xl_ctx *c, struct xl_val v, uint32_t i);
/* The value of id (constants are materialized at the current position). */
struct xl_val xl_get(struct xl_ctx *c, uint32_t id);
void xl_set(struct xl_ctx *c, uint32_t id, struct xl_val v);
struct xl_val xl_constant(struct xl_ctx *c, uint32_t id);
uint32_t xl_imm32(struct xl_ctx *c, uint32_t bits);
/* Word k (0: low) of the 64-bit vreg x, as a new 32-bit vreg. */
uint32_t xl_half_of(struct xl_ctx *c, uint32_t x, unsigned k);
/* A new 64-bit vreg of the 32-bit vregs lo and hi. */
uint32_t xl_pair_of(struct xl_ctx *c, uint32_t lo, uint32_t hi);
void xl_mov(struct xl_ctx *c, uint32_t dst, uint32_t src, unsigned regs);

/* IR helpers. */
struct ir_insn *xl_op(struct xl_ctx *c, enum ppu_op op, enum ppu_type type, uint32_t dst,
                      uint32_t a, uint32_t b);
struct ir_insn *xl_op_imm(struct xl_ctx *c, enum ppu_op op, enum ppu_type type, uint32_t dst,
                          uint32_t a, uint32_t imm);
/* P0 = (v != 0) for a 32-bit bool vreg. */
/* Control-flow emitters (translate_cfg.c). xl_branch: SSY, BRA, PBK and
 * PCNT take a target label, SYNC, BRK and CONT resume at one. xl_if_begin:
 * if (P0 holds, or fails when negate) { ... } as SSY merge, a guarded BRA
 * to a SYNC stub; the caller emits the body, then xl_if_end. */
void xl_branch(struct xl_ctx *c, enum ppu_op op, uint32_t label, uint8_t guard);
struct xl_if_block {
   uint32_t merge, skip;
};
struct xl_if_block xl_if_begin(struct xl_ctx *c, bool negate);
void xl_if_end(struct xl_ctx *c, struct xl_if_block b);
void xl_bool_to_p0(struct xl_ctx *c, uint32_t v);
/* A new bool vreg = P0. */
uint32_t xl_p0_to_bool(struct xl_ctx *c);
/* Runs the code emitted since xl_hoist_mark at the end of the prologue
 * (nested hoists in between are accounted for). */
uint32_t xl_hoist_mark(struct xl_ctx *c);
void xl_hoist_to_prologue(struct xl_ctx *c, uint32_t mark);

/* Per-area translators: return false when inst is not theirs. */
bool xl_translate_alu(struct xl_ctx *c, const struct spirv_inst *inst);
bool xl_translate_memory(struct xl_ctx *c, const struct spirv_inst *inst);
bool xl_translate_glsl(struct xl_ctx *c, const struct spirv_inst *inst);
bool xl_translate_subgroup(struct xl_ctx *c, const struct spirv_inst *inst);
bool xl_translate_composite(struct xl_ctx *c, const struct spirv_inst *inst);
bool xl_translate_atomic(struct xl_ctx *c, const struct spirv_inst *inst);
/* Whether an atomic opcode writes memory (every one but OpAtomicLoad). */
bool xl_atomic_writes(uint32_t opcode);
bool xl_translate_ray_query(struct xl_ctx *c, const struct spirv_inst *inst);
bool xl_translate_image(struct xl_ctx *c, const struct spirv_inst *inst);
/* OpTraceRayKHR, OpExecuteCallableKHR, OpReportIntersectionKHR. */
bool xl_translate_ray_tracing(struct xl_ctx *c, const struct spirv_inst *inst);
/* OpIgnoreIntersectionKHR / OpTerminateRayKHR ending an any-hit shader. */
void xl_rt_end_any_hit(struct xl_ctx *c, uint32_t opcode);
/* After an inlined call inside a stage that can end early (any-hit,
 * intersection): the lanes whose stage has ended return too. */
void xl_rt_after_call(struct xl_ctx *c);
/* A ray-tracing built-in (LaunchId, HitT, ...); xl_fail when the stage has
 * no such built-in. */
uint32_t xl_rt_builtin_component(struct xl_ctx *c, uint32_t builtin, uint32_t k);
/* Inlines fn (an entry point of c's module, called from code of another
 * context) inside a CALL ... RET bracket; returns false on failure. */
bool xl_inline_stage(struct xl_ctx *c, const struct spirv_function *fn);

/* Memory helpers shared by translate_memory.c and translate_atomic.c. */
/* The memory a pointer id names; NULL (after xl_fail) when unsupported. */
const struct xl_ptr *xl_ptr_of(struct xl_ctx *c, uint32_t id);
/* The register operand addressing p's memory: a 64-bit pair for GLOBAL, a
 * 32-bit offset (or none) for the others. */
uint32_t xl_address_of(struct xl_ctx *c, const struct xl_ptr *p);
/* Accesses through p are bounds-checked (robust buffer access). */
bool xl_is_checked(struct xl_ctx *c, const struct xl_ptr *p);
/* P0 = [dyn + offset, + bytes) lies within a checked buffer's range. */
void xl_bounds_check_p0(struct xl_ctx *c, const struct xl_ptr *p, uint32_t offset, uint32_t bytes);
/* Loads or stores one scalar register of memory type ty at addr + offset. */
void xl_mem_scalar(struct xl_ctx *c, const struct xl_ptr *p, uint32_t addr, uint32_t offset,
                   uint32_t reg, bool is_store, enum ppu_type ty);
/* Component k of an Input built-in. */
uint32_t xl_builtin_component(struct xl_ctx *c, uint32_t builtin, uint32_t k);
/* The entry point's derivative group execution mode (DerivativeGroupQuadsNV
 * or DerivativeGroupLinearNV), 0 when it has none: implicit-lod sampling
 * is only defined with one. */
uint32_t xl_derivative_mode(struct xl_ctx *c);
/* Quads of lanes 4k..4k+3 that are 2x2 pixels or invocations: fragment
 * warps always (docs/graphics-hw.md), compute with a derivative mode. */
bool xl_has_derivatives(struct xl_ctx *c);

/* The 64-bit VA of descriptor set `set` (loaded once, in the prologue). */
uint32_t xl_set_base(struct xl_ctx *c, uint32_t set);
/* The VA of element (const_index or dyn_index) of an image, sampler or
 * texel-buffer binding: the descriptor holds the headers inline. */
uint32_t xl_image_descriptor_va(struct xl_ctx *c, const struct drv_binding_layout *b, bool is_const,
                                uint32_t const_index, uint32_t dyn_index);
/* SUATOM for an atomic on an OpImageTexelPointer (translate_atomic.c has
 * chosen op, type and operands); writes the old value to dst. */
void xl_image_atomic(struct xl_ctx *c, const struct xl_ptr *p, enum ppu_atom_op op,
                     enum ppu_type ty, uint32_t dst, uint32_t value, uint32_t compare);
/* OpAtomicLoad / OpAtomicStore on an OpImageTexelPointer. */
void xl_image_atomic_load_store(struct xl_ctx *c, const struct xl_ptr *p, uint32_t reg,
                                bool is_store);

/* Global variables (buffers, push constants, shared memory, built-ins). */
bool xl_setup_globals(struct xl_ctx *c);
/* The 64-bit address held by a PhysicalStorageBuffer pointer id that was
 * made by an access chain (false when id is no such pointer). */
bool xl_pointer_value(struct xl_ctx *c, uint32_t id, struct xl_val *out);
/* Loads the whole pointee of p (a memory pointer), or stores v there. */
struct xl_val xl_load_ptr(struct xl_ctx *c, const struct xl_ptr *p);
void xl_store_ptr(struct xl_ctx *c, const struct xl_ptr *p, struct xl_val v);
/* Size and alignment of a type in local memory (no explicit layout). */
bool xl_natural_layout(struct xl_ctx *c, uint32_t type, uint32_t *size, uint32_t *align);
/* A Function-storage variable in local memory. */
void xl_function_variable(struct xl_ctx *c, const struct spirv_inst *inst);

/* Optimizes, allocates registers and encodes a translated program into out
 * (compiler.c). Returns 0, 1 on an error (in err), or
 * XL_COMPILE_OUT_OF_REGISTERS when it needs more than max_registers. */
#define XL_COMPILE_OUT_OF_REGISTERS 2
/* Applies specialization constant values (VkSpecializationInfo resolved). */
bool xl_specialize(struct spirv_module *m, const struct drv_spec_value *spec, uint32_t spec_count,
                   struct spirv_error *e);
/* Parses and specializes req's module and compiles its entry point of
 * execution model `model` (compute, or a graphics stage with gfx). */
int xl_compile_stage(const struct drv_compile_request *req, uint32_t model, struct xl_gfx *gfx,
                     struct drv_shader_binary *out, char *err, size_t err_size);
int xl_finish_program(struct ir_program *ir, uint32_t local_size, bool promote_locals,
                      uint32_t max_registers, uint32_t debug_flags, const char *name,
                      struct drv_shader_binary *out, char *err, size_t err_size);

/* Control flow: translates the entry point into c->ir. */
bool xl_translate_entry(struct xl_ctx *c, const struct spirv_function *fn);

static inline uint32_t xl_word(struct xl_ctx *c, const struct spirv_inst *inst, uint32_t i)
{
   return spirv_inst_operand_word(c->m, inst, i);
}

#endif /* DRV_COMPILER_TRANSLATE_H */
