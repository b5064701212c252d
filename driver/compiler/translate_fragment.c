/* The fragment stage (docs/graphics-hw.md "Fragment work"): inputs
 * evaluated from the primitive record's planes, built-ins from the launch
 * registers, color outputs in R(4i).. and depth / sample mask in R32 / R33
 * at EXIT, discard through R34, derivatives across the quad's lanes. */
#include <stddef.h>
#include <stdlib.h>

#include "ppu/graphics.h"
#include "translate_graphics.h"

static uint32_t op2(struct xl_ctx *c, enum ppu_op op, enum ppu_type ty, uint32_t a, uint32_t b)
{
   uint32_t d = ir_new_vreg(c->ir, 1);
   xl_op(c, op, ty, d, a, b);
   return d;
}

static uint32_t ffma(struct xl_ctx *c, uint32_t a, uint32_t b, uint32_t add)
{
   uint32_t d = ir_new_vreg(c->ir, 1);
   xl_op(c, PPU_OP_FFMA, PPU_TYPE_F32, d, a, b)->src[2] = add;
   return d;
}

/* The plane {a, b, c} at byte offset `plane` of the primitive record,
 * evaluated at (dx, dy): two FFMAs. */
static uint32_t eval_plane(struct xl_ctx *c, uint32_t plane, uint32_t dx, uint32_t dy)
{
   uint32_t a = xl_gfx_load_at(c, XL_FS_RECORD, plane);
   uint32_t b = xl_gfx_load_at(c, XL_FS_RECORD, plane + 4);
   uint32_t cc = xl_gfx_load_at(c, XL_FS_RECORD, plane + 8);
   return ffma(c, a, dx, ffma(c, b, dy, cc));
}

static bool has_mode(struct xl_ctx *c, uint32_t mode)
{
   const struct spirv_entry_point *ep = c->gfx->ep;
   for (uint32_t i = 0; i < spirv_entry_point_mode_count(c->m, ep); i++)
      if (spirv_entry_point_mode(c->m, ep, i)->mode == mode)
         return true;
   return false;
}

static bool may_discard(struct xl_ctx *c)
{
   for (uint32_t i = 0; i < spirv_module_inst_count(c->m); i++) {
      uint32_t op = spirv_module_inst(c->m, i)->opcode;
      if (op == SPIRV_OP_Kill || op == SPIRV_OP_TerminateInvocation ||
          op == SPIRV_OP_DemoteToHelperInvocation)
         return true;
   }
   return false;
}

/* The elements of the entry point's input of built-in `builtin` (built-in
 * inputs are read where used, so they are not among the stage's vars);
 * 0 without one. */
static uint32_t builtin_input_leaves(struct xl_ctx *c, uint32_t builtin)
{
   const struct xl_gfx *g = c->gfx;
   for (uint32_t i = 0; i < g->ep->interface_count; i++) {
      uint32_t id = spirv_module_operand_word(c->m, g->ep->interface_first + i), b;
      if (spirv_decoration_literal(c->m, id, SPIRV_NO_MEMBER, SPIRV_DECORATION_BuiltIn, &b) &&
          b == builtin) {
         const struct xl_ptr *p = xl_ptr_of(c, id);
         return p && p->builtin_leaves ? p->builtin_leaves : 1;
      }
   }
   return 0;
}

static bool reads_builtin(struct xl_ctx *c, uint32_t builtin)
{
   return builtin_input_leaves(c, builtin) != 0;
}

/* Adds the slot of `loc` in ascending order, or checks that the slot
 * already there agrees on interpolation (Vulkan "Interface Matching": the
 * components of a location agree on their decorations). */
static bool add_slot(struct xl_ctx *c, uint32_t loc, uint32_t interpolation, bool centroid)
{
   struct xl_gfx *g = c->gfx;
   uint32_t s = 0;
   while (s < g->slot_count && g->slot_location[s] < loc)
      s++;
   if (s < g->slot_count && g->slot_location[s] == loc) {
      if (g->slot_interpolation[s] != interpolation || g->slot_centroid[s] != centroid) {
         xl_fail(c, "fragment inputs at location %u disagree on interpolation", loc);
         return false;
      }
      return true;
   }
   if (g->slot_count == DRV_GFX_MAX_SLOTS) {
      xl_fail(c, "more than %u fragment input locations", DRV_GFX_MAX_SLOTS);
      return false;
   }
   for (uint32_t k = g->slot_count; k > s; k--) {
      g->slot_location[k] = g->slot_location[k - 1];
      g->slot_interpolation[k] = g->slot_interpolation[k - 1];
      g->slot_centroid[k] = g->slot_centroid[k - 1];
   }
   g->slot_location[s] = loc;
   g->slot_interpolation[s] = interpolation;
   g->slot_centroid[s] = centroid;
   g->slot_count++;
   return true;
}

/* gl_ClipDistance and gl_CullDistance inputs: slots at the distances'
 * pseudo-locations (compiler.h), 4 a slot, interpolated perspective-
 * correctly like any default input. */
static bool add_distance_slots(struct xl_ctx *c, uint32_t builtin, uint32_t base)
{
   uint32_t n = builtin_input_leaves(c, builtin);
   for (uint32_t k = 0; k < (n + 3) / 4; k++)
      if (!add_slot(c, base + k, PPU_GFX_INTERP_PERSPECTIVE, false))
         return false;
   return true;
}

/* The slot map: every location an input variable covers, ascending, each
 * with one interpolation (Vulkan "Interface Matching": the components of a
 * location agree on their decorations). */
static bool assign_slots(struct xl_ctx *c)
{
   struct xl_gfx *g = c->gfx;
   g->slot_count = 0;
   for (uint32_t i = 0; i < g->var_count; i++) {
      const struct xl_gfx_var *v = &g->vars[i];
      if (v->is_output || v->builtin != UINT32_MAX)
         continue;
      uint32_t n = xl_gfx_locations(c, v);
      for (uint32_t e = 0; e < n; e++) {
         uint32_t location, interpolation;
         bool centroid;
         if (!xl_gfx_location_at(c, v, e, &location, &interpolation, &centroid) ||
             !add_slot(c, location, interpolation, centroid))
            return false;
      }
   }
   if (!add_distance_slots(c, SPIRV_BUILT_IN_ClipDistance, DRV_GFX_LOCATION_CLIP_DISTANCE) ||
       !add_distance_slots(c, SPIRV_BUILT_IN_CullDistance, DRV_GFX_LOCATION_CULL_DISTANCE))
      return false;
   g->info.attribute_count = g->slot_count;
   for (uint32_t s = 0; s < g->slot_count; s++) {
      g->info.interpolation |= (uint64_t)g->slot_interpolation[s] << (2 * s);
      if (g->slot_centroid[s])
         g->info.centroid_mask |= 1ull << s;
   }
   /* gl_PointCoord: one more slot, after the varyings (so the vertex
    * program, which writes slots 0..slot_count-1, never sees it), whose
    * planes setup writes; noperspective, as they are linear in window
    * space. */
   if (reads_builtin(c, SPIRV_BUILT_IN_PointCoord)) {
      if (g->slot_count == DRV_GFX_MAX_SLOTS) {
         xl_fail(c, "more than %u fragment input locations with gl_PointCoord",
                 DRV_GFX_MAX_SLOTS - 1);
         return false;
      }
      g->info.flags |= PPU_GFX_PROGRAM_POINT_COORD;
      g->info.point_coord_slot = g->slot_count;
      g->info.attribute_count = g->slot_count + 1;
      g->info.interpolation |= (uint64_t)PPU_GFX_INTERP_NOPERSPECTIVE << (2 * g->slot_count);
   }
   return !c->failed;
}

/* Reserves the output registers and sets the flags they imply. */
static bool reserve_outputs(struct xl_ctx *c)
{
   struct xl_gfx *g = c->gfx;
   for (uint32_t i = 0; i < g->var_count; i++) {
      const struct xl_gfx_var *v = &g->vars[i];
      if (!v->is_output)
         continue;
      if (v->builtin == SPIRV_BUILT_IN_FragDepth) {
         g->info.flags |= PPU_GFX_PROGRAM_WRITES_DEPTH;
         xl_gfx_reserve(c, XL_FS_OUT_DEPTH, 1);
         continue;
      }
      if (v->builtin == SPIRV_BUILT_IN_SampleMask) {
         g->info.flags |= PPU_GFX_PROGRAM_WRITES_SAMPLE_MASK;
         xl_gfx_reserve(c, XL_FS_OUT_SAMPLE_MASK, 1);
         continue;
      }
      if (v->builtin != UINT32_MAX) {
         xl_fail(c, "unsupported fragment output built-in %u", v->builtin);
         return false;
      }
      uint32_t n = xl_gfx_locations(c, v);
      if (!n)
         return false;
      if (v->index > 1 || (v->index == 1 && (v->location != 0 || n != 1))) {
         xl_fail(c,
                 "fragment output Index %u at location %u (dual-source blending takes "
                 "location 0, Index 0 and 1)",
                 v->index, v->location);
         return false;
      }
      if (v->location + v->index + n > 8) {
         xl_fail(c, "fragment output location %u beyond the 8 color targets", v->location);
         return false;
      }
      if (v->index == 1)
         g->info.flags |= PPU_GFX_PROGRAM_DUAL_SOURCE;
      else
         g->info.output_mask |= ((1u << n) - 1u) << v->location;
      xl_gfx_reserve(c, 4 * (v->location + v->index), 4 * n);
   }
   return true;
}

/* Standard 4x sample locations minus the pixel centre (Vulkan "Multisample
 * Rasterization"): x (-1, 3, -3, 1) / 8, y (-3, -1, 1, 3) / 8. */
static const float sample_ox[4] = {-0.125f, 0.375f, -0.375f, 0.125f};
static const float sample_oy[4] = {-0.375f, -0.125f, 0.125f, 0.375f};

/* The offset of sample s (a vreg) from the pixel centre at 4x: a SEL per
 * sample, (0, 0) for an index beyond 3 (out of range: undefined in Vulkan,
 * the centre here). */
static void sample_offset(struct xl_ctx *c, uint32_t s, uint32_t *ox, uint32_t *oy)
{
   uint32_t off_x = xl_imm32(c, 0), off_y = xl_imm32(c, 0);
   for (uint32_t k = 0; k < 4; k++) {
      struct ir_insn *i = xl_op_imm(c, PPU_OP_ISETP, PPU_TYPE_U32, 0, s, k);
      i->f.subop = PPU_CMP_EQ;
      i->f.pd = 0;
      uint32_t nx = ir_new_vreg(c->ir, 1), ny = ir_new_vreg(c->ir, 1);
      i = xl_op(c, PPU_OP_SEL, PPU_TYPE_U32, nx, xl_imm32(c, xl_gfx_f32(sample_ox[k])), off_x);
      i->f.ps = 0;
      i = xl_op(c, PPU_OP_SEL, PPU_TYPE_U32, ny, xl_imm32(c, xl_gfx_f32(sample_oy[k])), off_y);
      i->f.ps = 0;
      off_x = nx;
      off_y = ny;
   }
   *ox = off_x;
   *oy = off_y;
}

static uint32_t sample_index(struct xl_ctx *c)
{
   return xl_gfx_op_imm(c, PPU_OP_BFE, PPU_TYPE_U32, xl_gfx_read_reg(c, XL_FS_STATE), 8 | 2 << 8);
}

/* The pixel centre minus the record's origin: R4/R5, less the shaded
 * sample's offset when the program runs per sample at 4x. */
static void centre_position(struct xl_ctx *c, uint32_t *dx, uint32_t *dy)
{
   *dx = xl_gfx_read_reg(c, XL_FS_DX);
   *dy = xl_gfx_read_reg(c, XL_FS_DY);
   if (!c->gfx->per_sample)
      return;
   uint32_t ox, oy;
   sample_offset(c, sample_index(c), &ox, &oy);
   *dx = op2(c, PPU_OP_FSUB, PPU_TYPE_F32, *dx, ox);
   *dy = op2(c, PPU_OP_FSUB, PPU_TYPE_F32, *dy, oy);
}

/* Where centroid slots evaluate (docs/graphics-hw.md: the first covered
 * sample, picked from R1): with 4 samples, the offset of that sample from
 * the pixel centre, unless all or none are covered (the centre is then
 * inside the primitive); with 1 sample, the centre. Running per sample,
 * the shaded sample itself (R4/R5): it is covered, and Vulkan's centroid
 * then is that sample. */
static void centroid_position(struct xl_ctx *c, uint32_t *dx, uint32_t *dy)
{
   *dx = xl_gfx_read_reg(c, XL_FS_DX);
   *dy = xl_gfx_read_reg(c, XL_FS_DY);
   if (c->gfx->req->samples != 4 || c->gfx->per_sample)
      return;
   uint32_t mask = xl_gfx_op_imm(c, PPU_OP_AND, PPU_TYPE_U32, xl_gfx_read_reg(c, XL_FS_STATE), 0xf);
   uint32_t off_x, off_y;
   sample_offset(c, op2(c, PPU_OP_FFS, PPU_TYPE_U32, mask, 0), &off_x, &off_y);
   /* All four covered: the centre. */
   struct ir_insn *i = xl_op_imm(c, PPU_OP_ISETP, PPU_TYPE_U32, 0, mask, 0xf);
   i->f.subop = PPU_CMP_EQ;
   i->f.pd = 0;
   uint32_t zero = xl_imm32(c, 0), fx = ir_new_vreg(c->ir, 1), fy = ir_new_vreg(c->ir, 1);
   xl_op(c, PPU_OP_SEL, PPU_TYPE_U32, fx, zero, off_x)->f.ps = 0;
   xl_op(c, PPU_OP_SEL, PPU_TYPE_U32, fy, zero, off_y)->f.ps = 0;
   *dx = op2(c, PPU_OP_FADD, PPU_TYPE_F32, *dx, fx);
   *dy = op2(c, PPU_OP_FADD, PPU_TYPE_F32, *dy, fy);
}

/* Component `comp` of slot s at the position (dx, dy); w_clip: the
 * interpolated clip w there (perspective slots). */
static uint32_t input_value(struct xl_ctx *c, uint32_t s, uint32_t comp, uint32_t dx, uint32_t dy,
                            uint32_t *w_clip)
{
   uint32_t plane = (uint32_t)sizeof(struct ppu_gfx_primitive_header) +
                    s * (uint32_t)(PPU_GFX_PRIMITIVE_STRIDE(1) - PPU_GFX_PRIMITIVE_STRIDE(0)) +
                    comp * (uint32_t)sizeof(struct ppu_gfx_plane);
   uint32_t interp = c->gfx->slot_interpolation[s];
   if (interp == PPU_GFX_INTERP_FLAT) /* {0, 0, provoking value}: the bits as they were */
      return xl_gfx_load_at(c, XL_FS_RECORD, plane + 8);
   uint32_t v = eval_plane(c, plane, dx, dy);
   if (interp == PPU_GFX_INTERP_NOPERSPECTIVE)
      return v;
   if (!*w_clip) {
      uint32_t inv_w = eval_plane(c, 20, dx, dy); /* ppu_gfx_primitive_header.inverse_w */
      *w_clip = ir_new_vreg(c->ir, 1);
      xl_op(c, PPU_OP_MUFU, PPU_TYPE_F32, *w_clip, inv_w, 0)->f.subop = PPU_MUFU_RCP;
   }
   return op2(c, PPU_OP_FMUL, PPU_TYPE_F32, v, *w_clip);
}

/* Vulkan "Sample Shading": a fragment shader that reads SampleId or
 * SamplePosition, or has a Sample-decorated input, runs per sample. */
static bool implies_sample_shading(struct xl_ctx *c)
{
   const struct xl_gfx *g = c->gfx;
   for (uint32_t i = 0; i < g->var_count; i++)
      if (!g->vars[i].is_output && g->vars[i].sample)
         return true;
   return reads_builtin(c, SPIRV_BUILT_IN_SampleId) ||
          reads_builtin(c, SPIRV_BUILT_IN_SamplePosition);
}

bool xl_fragment_begin(struct xl_ctx *c)
{
   struct xl_gfx *g = c->gfx;
   xl_gfx_reserve(c, 0, XL_FS_LAUNCH_REGS);
   if (has_mode(c, SPIRV_EXECUTION_MODE_OriginLowerLeft)) {
      xl_fail(c, "unsupported: OriginLowerLeft (Vulkan fragment shaders use OriginUpperLeft)");
      return false;
   }
   if (has_mode(c, SPIRV_EXECUTION_MODE_EarlyFragmentTests))
      g->info.flags |= PPU_GFX_PROGRAM_EARLY_TESTS;
   if (!assign_slots(c) || !reserve_outputs(c))
      return false;
   g->info.sample_shading = g->req->sample_shading || implies_sample_shading(c) ? 1u : 0u;
   /* At 1x the one sample is the pixel centre: R4/R5 are both. */
   g->per_sample = g->info.sample_shading && g->req->samples == 4;
   if (may_discard(c)) {
      g->info.flags |= PPU_GFX_PROGRAM_MAY_DISCARD;
      xl_gfx_reserve(c, XL_FS_COVERAGE, 1);
      g->coverage = xl_gfx_read_reg(c, XL_FS_COVERAGE);
   }
   uint32_t dx = xl_gfx_read_reg(c, XL_FS_DX), dy = xl_gfx_read_reg(c, XL_FS_DY);
   uint32_t cdx = 0, cdy = 0, w = 0, cw = 0;
   for (uint32_t i = 0; i < g->var_count && !c->failed; i++) {
      const struct xl_gfx_var *v = &g->vars[i];
      if (v->is_output || v->builtin != UINT32_MAX)
         continue;
      struct xl_val value = xl_new_val(c, c->global_ptrs[v->id].type);
      for (uint32_t k = 0; k < value.count && !c->failed; k++) {
         uint32_t location, component, s = 0;
         if (!xl_gfx_leaf_slot(c, v, k, &location, &component))
            return false;
         while (g->slot_location[s] != location)
            s++;
         uint32_t r;
         if (g->slot_centroid[s]) {
            if (!cdx)
               centroid_position(c, &cdx, &cdy);
            r = input_value(c, s, component, cdx, cdy, &cw);
         } else {
            r = input_value(c, s, component, dx, dy, &w);
         }
         xl_mov(c, xl_comp(c, value, k), r, 1);
      }
      if (!c->failed)
         xl_gfx_var_store(c, v, value);
   }
   return !c->failed;
}

void xl_fragment_exit(struct xl_ctx *c)
{
   struct xl_gfx *g = c->gfx;
   for (uint32_t i = 0; i < g->var_count && !c->failed; i++) {
      const struct xl_gfx_var *v = &g->vars[i];
      if (!v->is_output)
         continue;
      struct xl_val value = xl_gfx_var_value(c, v);
      if (c->failed || !value.count)
         return;
      if (v->builtin == SPIRV_BUILT_IN_FragDepth) {
         xl_gfx_write_reg(c, XL_FS_OUT_DEPTH, xl_comp(c, value, 0));
         continue;
      }
      if (v->builtin == SPIRV_BUILT_IN_SampleMask) {
         xl_gfx_write_reg(c, XL_FS_OUT_SAMPLE_MASK, xl_comp(c, value, 0));
         continue;
      }
      for (uint32_t k = 0; k < value.count; k++) {
         uint32_t location, component;
         if (!xl_gfx_leaf_slot(c, v, k, &location, &component))
            return;
         xl_gfx_write_reg(c, 4 * (location + v->index) + component, xl_comp(c, value, k));
      }
   }
   if (g->coverage)
      xl_gfx_write_reg(c, XL_FS_COVERAGE, g->coverage);
}

void xl_gfx_terminate(struct xl_ctx *c)
{
   /* No covered samples: the ROP writes nothing of this lane. */
   xl_op(c, PPU_OP_MOV, PPU_TYPE_U32, 0, 0, 0)->f.rd = XL_FS_COVERAGE;
   ir_emit(c->ir, PPU_OP_EXIT);
}

static uint32_t helper_invocation(struct xl_ctx *c)
{
   if (c->gfx->coverage) { /* demoted lanes have no coverage left */
      uint32_t m = xl_gfx_op_imm(c, PPU_OP_AND, PPU_TYPE_U32, c->gfx->coverage, 0xf);
      struct ir_insn *i = xl_op_imm(c, PPU_OP_ISETP, PPU_TYPE_U32, 0, m, 0);
      i->f.subop = PPU_CMP_EQ;
      i->f.pd = 0;
      return xl_p0_to_bool(c);
   }
   return xl_gfx_op_imm(c, PPU_OP_BFE, PPU_TYPE_U32, xl_gfx_read_reg(c, XL_FS_STATE), 4 | 1 << 8);
}

bool xl_fragment_writes_memory(struct xl_ctx *c, const struct spirv_inst *inst)
{
   if (c->gfx->model != SPIRV_EXECUTION_MODEL_Fragment)
      return false;
   switch (inst->opcode) {
   case SPIRV_OP_Store: {
      /* Outputs, Private and Function variables live in local memory. */
      const struct xl_ptr *p = xl_ptr_of(c, xl_word(c, inst, 0));
      return p && p->kind == XL_PTR_GLOBAL;
   }
   case SPIRV_OP_ImageWrite:
      return true;
   default:
      return xl_atomic_writes(inst->opcode);
   }
}

struct xl_if_block xl_fragment_live_begin(struct xl_ctx *c)
{
   xl_bool_to_p0(c, helper_invocation(c));
   return xl_if_begin(c, true); /* the body runs where P0 (helper) fails */
}

/* R0 holds the pixel as x | y << 16. */
uint32_t xl_fragment_pixel(struct xl_ctx *c, unsigned axis)
{
   return xl_gfx_op_imm(c, PPU_OP_BFE, PPU_TYPE_U32, xl_gfx_read_reg(c, XL_FS_POSITION),
                        (axis ? 16u : 0u) | 16u << 8);
}
uint32_t xl_fragment_builtin(struct xl_ctx *c, uint32_t builtin, uint32_t k)
{
   uint32_t state = XL_FS_STATE;
   switch (builtin) {
   case SPIRV_BUILT_IN_FragCoord: {
      if (k == 2)
         return xl_gfx_read_reg(c, XL_FS_DEPTH);
      if (k == 3) /* 1 / w_clip: the inverse-w plane */
         return eval_plane(c, 20, xl_gfx_read_reg(c, XL_FS_DX), xl_gfx_read_reg(c, XL_FS_DY));
      uint32_t xy = xl_fragment_pixel(c, k);
      uint32_t f = ir_new_vreg(c->ir, 1);
      struct ir_insn *i = xl_op(c, PPU_OP_CVT, PPU_TYPE_F32, f, xy, 0);
      i->f.type2 = PPU_TYPE_U32;
      i->f.subop = PPU_ROUND_RN;
      return xl_gfx_op_imm(c, PPU_OP_FADD, PPU_TYPE_F32, f, xl_gfx_f32(0.5f));
   }
   case SPIRV_BUILT_IN_FrontFacing:
      return xl_gfx_op_imm(c, PPU_OP_BFE, PPU_TYPE_U32, xl_gfx_read_reg(c, state), 5 | 1 << 8);
   case SPIRV_BUILT_IN_HelperInvocation:
      return helper_invocation(c);
   case SPIRV_BUILT_IN_SampleId:
      return sample_index(c);
   case SPIRV_BUILT_IN_SamplePosition: { /* within the pixel: 0.5 + the offset */
      uint32_t o = xl_imm32(c, 0);
      if (c->gfx->per_sample) {
         uint32_t ox, oy;
         sample_offset(c, sample_index(c), &ox, &oy);
         o = k ? oy : ox;
      }
      return xl_gfx_op_imm(c, PPU_OP_FADD, PPU_TYPE_F32, o, xl_gfx_f32(0.5f));
   }
   case SPIRV_BUILT_IN_SampleMask:
      return xl_gfx_op_imm(c, PPU_OP_AND, PPU_TYPE_U32, xl_gfx_read_reg(c, state), 0xf);
   case SPIRV_BUILT_IN_PrimitiveId:
      return xl_gfx_read_reg(c, XL_FS_PRIMITIVE_ID);
   case SPIRV_BUILT_IN_ViewportIndex: { /* from the primitive record's flags word */
      uint32_t flags = xl_gfx_load_at(c, XL_FS_RECORD,
                                      (uint32_t)offsetof(struct ppu_gfx_primitive_header, flags));
      uint32_t shifted =
          xl_gfx_op_imm(c, PPU_OP_SHR, PPU_TYPE_U32, flags, PPU_GFX_PRIMITIVE_VIEWPORT_SHIFT);
      return xl_gfx_op_imm(c, PPU_OP_AND, PPU_TYPE_U32, shifted, PPU_GFX_PRIMITIVE_VIEWPORT_MASK);
   }
   case SPIRV_BUILT_IN_ClipDistance:
   case SPIRV_BUILT_IN_CullDistance: { /* element k: its distance slot */
      uint32_t loc = (builtin == SPIRV_BUILT_IN_ClipDistance ? DRV_GFX_LOCATION_CLIP_DISTANCE
                                                             : DRV_GFX_LOCATION_CULL_DISTANCE) +
                     k / 4;
      uint32_t s = 0, w = 0;
      while (s < c->gfx->slot_count && c->gfx->slot_location[s] != loc)
         s++;
      if (s == c->gfx->slot_count) {
         xl_fail(c, "gl_ClipDistance / gl_CullDistance read but not in the interface");
         return ir_new_vreg(c->ir, 1);
      }
      /* Where the prologue evaluates default inputs: R4/R5. */
      return input_value(c, s, k % 4, xl_gfx_read_reg(c, XL_FS_DX), xl_gfx_read_reg(c, XL_FS_DY),
                         &w);
   }
   case SPIRV_BUILT_IN_PointCoord: { /* the planes of the slot setup fills in */
      if (!(c->gfx->info.flags & PPU_GFX_PROGRAM_POINT_COORD) || k > 1) {
         xl_fail(c, "gl_PointCoord read but not in the entry point's interface");
         return ir_new_vreg(c->ir, 1);
      }
      uint32_t plane = (uint32_t)sizeof(struct ppu_gfx_primitive_header) +
                       c->gfx->info.point_coord_slot *
                           (uint32_t)(PPU_GFX_PRIMITIVE_STRIDE(1) - PPU_GFX_PRIMITIVE_STRIDE(0)) +
                       k * (uint32_t)sizeof(struct ppu_gfx_plane);
      return eval_plane(c, plane, xl_gfx_read_reg(c, XL_FS_DX), xl_gfx_read_reg(c, XL_FS_DY));
   }
   default:
      xl_fail(c, "unsupported fragment input built-in %u", builtin);
      return ir_new_vreg(c->ir, 1);
   }
}

/* Scalars in a value of `type` (inputs: scalars, vectors, arrays). */
static uint64_t leaf_count(struct xl_ctx *c, uint32_t type)
{
   const struct spirv_type *t = spirv_type(c->m, type);
   uint64_t n = 0;
   if (t && t->kind == SPIRV_TYPE_ARRAY && spirv_array_length(c->m, type, &n))
      return n * leaf_count(c, t->u.array.element_type);
   return t && t->kind == SPIRV_TYPE_VECTOR ? t->u.vector.component_count : 1;
}

/* The leaf an interpolant pointer starts at: the variable itself or an
 * access chain into it with constant indices (array element, vector
 * component). NULL after xl_fail otherwise. */
static const struct xl_gfx_var *interpolant(struct xl_ctx *c, uint32_t id, uint32_t *leaf)
{
   const struct spirv_inst *def = spirv_id_definition(c->m, id);
   if (def && def->opcode == SPIRV_OP_Variable) {
      for (uint32_t i = 0; i < c->gfx->var_count; i++) {
         const struct xl_gfx_var *v = &c->gfx->vars[i];
         if (v->id == id && !v->is_output && v->builtin == UINT32_MAX) {
            *leaf = 0;
            return v;
         }
      }
   } else if (def && (def->opcode == SPIRV_OP_AccessChain ||
                      def->opcode == SPIRV_OP_InBoundsAccessChain)) {
      const struct xl_gfx_var *v = interpolant(c, xl_word(c, def, 0), leaf);
      if (!v)
         return NULL;
      /* The chain's base type, then one step per index. */
      uint32_t type = spirv_id_type(c->m, xl_word(c, def, 0));
      const struct spirv_type *t = spirv_type(c->m, type);
      type = t && t->kind == SPIRV_TYPE_POINTER ? t->u.pointer.pointee_type : 0;
      if (def->operand_count == 1) /* no indices: the base itself */
         return v;
      for (uint32_t k = 1; k < def->operand_count; k++) {
         uint64_t idx;
         t = spirv_type(c->m, type);
         if (!t || !spirv_constant_scalar(c->m, xl_word(c, def, k), &idx))
            break;
         if (t->kind == SPIRV_TYPE_ARRAY) {
            const struct spirv_type *e = spirv_type(c->m, t->u.array.element_type);
            *leaf += (uint32_t)idx *
                     (e && e->kind == SPIRV_TYPE_VECTOR ? e->u.vector.component_count : 1u);
            type = t->u.array.element_type;
         } else if (t->kind == SPIRV_TYPE_VECTOR) {
            *leaf += (uint32_t)idx;
            type = t->u.vector.component_type;
         } else {
            break;
         }
         if (k + 1 == def->operand_count)
            return v;
      }
   }
   xl_fail(c, "unsupported interpolant %%%u (a user input, or a constant access chain into one)",
           id);
   return NULL;
}

void xl_fragment_interpolate(struct xl_ctx *c, const struct spirv_inst *inst, uint32_t ext)
{
   if (!c->gfx || c->gfx->model != SPIRV_EXECUTION_MODEL_Fragment) {
      xl_fail(c, "GLSL.std.450 InterpolateAt* outside a fragment shader");
      return;
   }
   uint32_t leaf;
   const struct xl_gfx_var *v = interpolant(c, xl_word(c, inst, 2), &leaf);
   if (!v)
      return;
   uint32_t dx, dy;
   if (ext == SPIRV_GLSL_STD_450_InterpolateAtCentroid) {
      centroid_position(c, &dx, &dy);
   } else {
      centre_position(c, &dx, &dy);
      uint32_t ox = 0, oy = 0;
      if (ext == SPIRV_GLSL_STD_450_InterpolateAtOffset) {
         struct xl_val off = xl_get(c, xl_word(c, inst, 3));
         if (c->failed || off.count != 2) {
            xl_fail(c, "InterpolateAtOffset takes a vec2 offset");
            return;
         }
         ox = xl_comp(c, off, 0);
         oy = xl_comp(c, off, 1);
      } else if (c->gfx->req->samples == 4) { /* at 1x every sample is the centre */
         struct xl_val s = xl_get(c, xl_word(c, inst, 3));
         if (c->failed || s.count != 1) {
            xl_fail(c, "InterpolateAtSample takes a scalar sample index");
            return;
         }
         sample_offset(c, xl_comp(c, s, 0), &ox, &oy);
      }
      if (ox) {
         dx = op2(c, PPU_OP_FADD, PPU_TYPE_F32, dx, ox);
         dy = op2(c, PPU_OP_FADD, PPU_TYPE_F32, dy, oy);
      }
   }
   struct xl_val d = xl_new_val(c, inst->result_type);
   if ((uint64_t)leaf + d.count > leaf_count(c, c->global_ptrs[v->id].type)) {
      xl_fail(c, "interpolant %%%u: an index beyond its variable", xl_word(c, inst, 2));
      return;
   }
   uint32_t w = 0;
   for (uint32_t k = 0; k < d.count && !c->failed; k++) {
      uint32_t location, component, s = 0;
      if (!xl_gfx_leaf_slot(c, v, leaf + k, &location, &component))
         return;
      while (s < c->gfx->slot_count && c->gfx->slot_location[s] != location)
         s++;
      if (s == c->gfx->slot_count) { /* an index beyond the variable */
         xl_fail(c, "interpolant %%%u: location %u is not an input", xl_word(c, inst, 2), location);
         return;
      }
      xl_mov(c, xl_comp(c, d, k), input_value(c, s, component, dx, dy, &w), 1);
   }
   xl_set(c, inst->result_id, d);
}

/* x of lane (lane & ~clear) | set: SHFL.IDX. */
static uint32_t quad_lane(struct xl_ctx *c, uint32_t x, uint32_t clear, uint32_t set)
{
   uint32_t lane = ir_new_vreg(c->ir, 1);
   xl_op_imm(c, PPU_OP_S2R, PPU_TYPE_U32, lane, 0, PPU_SR_LANEID)->f.b_imm = false;
   lane = xl_gfx_op_imm(c, PPU_OP_OR, PPU_TYPE_U32,
                        xl_gfx_op_imm(c, PPU_OP_AND, PPU_TYPE_U32, lane, ~clear), set);
   uint32_t d = ir_new_vreg(c->ir, 1);
   xl_op(c, PPU_OP_SHFL, PPU_TYPE_U32, d, x, lane)->f.subop = PPU_SHFL_IDX;
   return d;
}

/* Derivatives over the quad (lane 4q + p is pixel p: +1 is +x, +2 is +y;
 * docs/graphics-hw.md): fine takes the pixel's own row or column, coarse
 * the quad's pixel 0 row and column (as TEX's implicit LOD does). The ISA
 * has no quad-swizzle instruction, so two SHFL.IDX read the pair. */
static uint32_t derivative(struct xl_ctx *c, uint32_t x, bool is_y, bool fine)
{
   uint32_t axis = is_y ? 2 : 1;
   uint32_t clear = fine ? axis : 3;
   uint32_t hi = quad_lane(c, x, clear, axis), lo = quad_lane(c, x, clear, 0);
   return op2(c, PPU_OP_FSUB, PPU_TYPE_F32, hi, lo);
}

static void derivatives(struct xl_ctx *c, const struct spirv_inst *inst)
{
   uint32_t op = inst->opcode;
   bool fine =
       op != SPIRV_OP_DPdxCoarse && op != SPIRV_OP_DPdyCoarse && op != SPIRV_OP_FwidthCoarse;
   bool width = op == SPIRV_OP_Fwidth || op == SPIRV_OP_FwidthFine || op == SPIRV_OP_FwidthCoarse;
   bool is_y = op == SPIRV_OP_DPdy || op == SPIRV_OP_DPdyFine || op == SPIRV_OP_DPdyCoarse;
   struct xl_val a = xl_get(c, xl_word(c, inst, 0));
   struct xl_val d = xl_new_val(c, inst->result_type);
   for (uint32_t k = 0; k < d.count && k < a.count && !c->failed; k++) {
      uint32_t x = xl_comp(c, a, k), r;
      if (c->ir->vreg_size[x] != 1) {
         xl_fail(c, "unsupported: derivatives of 64-bit values");
         return;
      }
      if (width) {
         uint32_t ax =
             xl_gfx_op_imm(c, PPU_OP_AND, PPU_TYPE_U32, derivative(c, x, false, fine), 0x7fffffffu);
         uint32_t ay =
             xl_gfx_op_imm(c, PPU_OP_AND, PPU_TYPE_U32, derivative(c, x, true, fine), 0x7fffffffu);
         r = op2(c, PPU_OP_FADD, PPU_TYPE_F32, ax, ay);
      } else {
         r = derivative(c, x, is_y, fine);
      }
      xl_mov(c, xl_comp(c, d, k), r, 1);
   }
   xl_set(c, inst->result_id, d);
}

bool xl_translate_fragment(struct xl_ctx *c, const struct spirv_inst *inst)
{
   switch (inst->opcode) {
   case SPIRV_OP_DPdx:
   case SPIRV_OP_DPdy:
   case SPIRV_OP_Fwidth:
   case SPIRV_OP_DPdxFine:
   case SPIRV_OP_DPdyFine:
   case SPIRV_OP_FwidthFine:
   case SPIRV_OP_DPdxCoarse:
   case SPIRV_OP_DPdyCoarse:
   case SPIRV_OP_FwidthCoarse:
      if (c->gfx->model != SPIRV_EXECUTION_MODEL_Fragment)
         return false;
      derivatives(c, inst);
      return true;
   case SPIRV_OP_DemoteToHelperInvocation:
      if (c->gfx->model != SPIRV_EXECUTION_MODEL_Fragment || !c->gfx->coverage)
         return false;
      /* The lane keeps running (its values feed its quad's derivatives)
       * but covers nothing. */
      xl_op_imm(c, PPU_OP_AND, PPU_TYPE_U32, c->gfx->coverage, c->gfx->coverage, ~0xfu);
      return true;
   case SPIRV_OP_IsHelperInvocationEXT: {
      if (c->gfx->model != SPIRV_EXECUTION_MODEL_Fragment)
         return false;
      struct xl_val d = xl_new_val(c, inst->result_type);
      xl_mov(c, xl_comp(c, d, 0), helper_invocation(c), 1);
      xl_set(c, inst->result_id, d);
      return true;
   }
   default:
      return false;
   }
}
