/* Graphics stages: interface variables, reserved registers, the stage
 * dispatch of prologue, epilogue and built-ins (translate_graphics.h). */
#include <string.h>

#include "ppu/graphics.h"
#include "translate_graphics.h"

void xl_gfx_reset(struct xl_gfx *g, const struct spirv_entry_point *ep)
{
   g->ep = ep;
   g->var_count = 0;
   g->coverage = 0;
   g->per_sample = false;
   memset(&g->info, 0, sizeof(g->info));
   memset(g->slot_written, 0, sizeof(g->slot_written));
   g->clip_distance_count = g->cull_distance_count = 0;
   g->writes_point_size = false;
}

/* Only the entry point's own interface counts: a module may hold the
 * variables of several entry points. */
static bool in_interface(struct xl_ctx *c, uint32_t id)
{
   const struct spirv_entry_point *ep = c->gfx->ep;
   for (uint32_t i = 0; i < ep->interface_count; i++)
      if (spirv_module_operand_word(c->m, ep->interface_first + i) == id)
         return true;
   return false;
}

/* Interpolation of an id (a variable, or member `member` of a struct
 * type) from its decorations. */
static uint32_t decorated_interpolation(struct xl_ctx *c, uint32_t id, uint32_t member,
                                        uint32_t otherwise)
{
   if (spirv_has_decoration(c->m, id, member, SPIRV_DECORATION_Flat))
      return PPU_GFX_INTERP_FLAT;
   if (spirv_has_decoration(c->m, id, member, SPIRV_DECORATION_NoPerspective))
      return PPU_GFX_INTERP_NOPERSPECTIVE;
   return otherwise;
}

/* A struct with BuiltIn members (gl_PerVertex) rather than user ones. */
static bool is_builtin_block(struct xl_ctx *c, uint32_t type)
{
   const struct spirv_type *t = spirv_type(c->m, type);
   for (uint32_t m = 0; t && m < t->u.structure.member_count; m++)
      if (spirv_has_decoration(c->m, type, m, SPIRV_DECORATION_BuiltIn))
         return true;
   return false;
}

bool xl_gfx_variable(struct xl_ctx *c, const struct spirv_variable *var, struct xl_ptr *p)
{
   struct xl_gfx *g = c->gfx;
   if (!in_interface(c, var->id))
      return true;
   if (g->var_count == XL_GFX_MAX_VARS) {
      xl_fail(c, "more than %u interface variables", XL_GFX_MAX_VARS);
      return false;
   }
   struct xl_gfx_var *v = &g->vars[g->var_count++];
   memset(v, 0, sizeof(*v));
   v->id = var->id;
   v->is_output = var->storage_class == SPIRV_STORAGE_CLASS_Output;
   v->builtin = UINT32_MAX;
   spirv_decoration_literal(c->m, var->id, SPIRV_NO_MEMBER, SPIRV_DECORATION_BuiltIn, &v->builtin);
   const struct spirv_type *t = spirv_type(c->m, p->type);
   bool is_struct = t && t->kind == SPIRV_TYPE_STRUCT;
   if (v->builtin != UINT32_MAX || (is_struct && is_builtin_block(c, p->type)))
      return true; /* built-ins (a gl_PerVertex block's members are) */
   v->user_block = is_struct;
   /* A block may leave the Location to its members instead. */
   if (!spirv_decoration_literal(c->m, var->id, SPIRV_NO_MEMBER, SPIRV_DECORATION_Location,
                                 &v->location) &&
       !(is_struct && t->u.structure.member_count > 0 &&
         spirv_has_decoration(c->m, p->type, 0, SPIRV_DECORATION_Location))) {
      xl_fail(c, "interface variable %%%u has no Location", var->id);
      return false;
   }
   spirv_decoration_literal(c->m, var->id, SPIRV_NO_MEMBER, SPIRV_DECORATION_Component,
                            &v->component);
   spirv_decoration_literal(c->m, var->id, SPIRV_NO_MEMBER, SPIRV_DECORATION_Index, &v->index);
   v->interpolation =
       decorated_interpolation(c, var->id, SPIRV_NO_MEMBER, PPU_GFX_INTERP_PERSPECTIVE);
   /* Sample wins over Centroid: the sample's own position is inside. */
   v->sample = spirv_has_decoration(c->m, var->id, SPIRV_NO_MEMBER, SPIRV_DECORATION_Sample);
   v->centroid = !v->sample &&
                 spirv_has_decoration(c->m, var->id, SPIRV_NO_MEMBER, SPIRV_DECORATION_Centroid);
   for (uint32_t m = 0; is_struct && m < t->u.structure.member_count; m++)
      v->sample |= spirv_has_decoration(c->m, p->type, m, SPIRV_DECORATION_Sample);
   return true;
}

/* One part of a user variable with its own locations: the variable
 * itself, or one member of an interface block. */
struct piece {
   uint32_t location, component;
   uint32_t per_element, elements; /* components of one location, locations */
   uint32_t interpolation;
   bool centroid;
};

/* Components and locations of a 32-bit scalar, vector or matrix (a
 * location per column), or an array of them; false after xl_fail for
 * other types. */
static bool piece_shape(struct xl_ctx *c, uint32_t type, struct piece *out)
{
   const struct spirv_type *t = spirv_type(c->m, type);
   out->elements = 1;
   if (t && t->kind == SPIRV_TYPE_ARRAY) {
      uint64_t n = 0;
      spirv_array_length(c->m, type, &n);
      out->elements = (uint32_t)n;
      type = t->u.array.element_type;
      t = spirv_type(c->m, type);
   }
   if (t && t->kind == SPIRV_TYPE_MATRIX) {
      out->elements *= t->u.matrix.column_count;
      type = t->u.matrix.column_type;
      t = spirv_type(c->m, type);
   }
   struct xl_scalar s;
   uint32_t n = t && t->kind == SPIRV_TYPE_VECTOR ? t->u.vector.component_count : 1;
   uint32_t scalar = t && t->kind == SPIRV_TYPE_VECTOR ? t->u.vector.component_type : type;
   if (!t || out->elements == 0 || out->elements > DRV_GFX_MAX_SLOTS ||
       !xl_scalar_of(c, scalar, &s) || s.width != 32 || out->component + n > 4) {
      xl_fail(c,
              "unsupported interface variable type at location %u (32-bit scalars, "
              "vectors, matrices, arrays of them and blocks of those)",
              out->location);
      return false;
   }
   out->per_element = n;
   return true;
}

/* The pieces of a user variable, in the order of its value's leaves. */
#define MAX_PIECES 64u
struct pieces {
   struct piece p[MAX_PIECES];
   uint32_t count;
};

/* Appends the pieces of a value of `type` from *location on (advanced past
 * them) with q's qualifiers: a struct member by member, nested ones too,
 * an array of structs element by element, anything else one piece. */
static bool add_pieces(struct xl_ctx *c, uint32_t type, const struct piece *q, uint32_t *location,
                       struct pieces *out)
{
   const struct spirv_type *t = spirv_type(c->m, type);
   struct piece inner = *q;
   inner.component = 0; /* a Component decoration names one member's place */
   if (t && t->kind == SPIRV_TYPE_STRUCT) {
      for (uint32_t m = 0; m < t->u.structure.member_count; m++)
         if (!add_pieces(c, spirv_struct_member_type(c->m, type, m), &inner, location, out))
            return false;
      return true;
   }
   const struct spirv_type *e =
       t && t->kind == SPIRV_TYPE_ARRAY ? spirv_type(c->m, t->u.array.element_type) : NULL;
   if (e && e->kind == SPIRV_TYPE_STRUCT) {
      uint64_t n = 0;
      spirv_array_length(c->m, type, &n);
      for (uint64_t i = 0; i < n && i < DRV_GFX_MAX_SLOTS; i++)
         if (!add_pieces(c, t->u.array.element_type, &inner, location, out))
            return false;
      return true;
   }
   if (out->count == MAX_PIECES) {
      xl_fail(c, "an interface variable with more than %u members", MAX_PIECES);
      return false;
   }
   struct piece p = *q;
   p.location = *location;
   if (!piece_shape(c, type, &p))
      return false;
   out->p[out->count++] = p;
   *location += p.elements;
   return true;
}

/* The pieces of variable v (false after xl_fail). A block's members take
 * consecutive locations from the variable's, unless a member has its own;
 * a member's qualifiers add to the variable's. */
static bool var_pieces(struct xl_ctx *c, const struct xl_gfx_var *v, struct pieces *out)
{
   uint32_t type = c->global_ptrs[v->id].type;
   struct piece q = {
       .component = v->component, .interpolation = v->interpolation, .centroid = v->centroid};
   uint32_t location = v->location;
   out->count = 0;
   if (!v->user_block)
      return add_pieces(c, type, &q, &location, out);
   const struct spirv_type *t = spirv_type(c->m, type);
   for (uint32_t m = 0; m < t->u.structure.member_count; m++) {
      uint32_t member_location;
      if (spirv_decoration_literal(c->m, type, m, SPIRV_DECORATION_Location, &member_location))
         location = member_location;
      q.component = 0;
      spirv_decoration_literal(c->m, type, m, SPIRV_DECORATION_Component, &q.component);
      q.interpolation = decorated_interpolation(c, type, m, v->interpolation);
      bool sample = spirv_has_decoration(c->m, type, m, SPIRV_DECORATION_Sample);
      q.centroid = !sample && !v->sample &&
                   (v->centroid || spirv_has_decoration(c->m, type, m, SPIRV_DECORATION_Centroid));
      if (!add_pieces(c, spirv_struct_member_type(c->m, type, m), &q, &location, out))
         return false;
   }
   return true;
}

uint32_t xl_gfx_locations(struct xl_ctx *c, const struct xl_gfx_var *v)
{
   struct pieces ps;
   if (!var_pieces(c, v, &ps))
      return 0;
   uint32_t n = 0;
   for (uint32_t k = 0; k < ps.count; k++)
      n += ps.p[k].elements;
   return n;
}

bool xl_gfx_location_at(struct xl_ctx *c, const struct xl_gfx_var *v, uint32_t i,
                        uint32_t *location, uint32_t *interpolation, bool *centroid)
{
   struct pieces ps;
   if (!var_pieces(c, v, &ps))
      return false;
   for (uint32_t k = 0; k < ps.count; k++) {
      const struct piece *p = &ps.p[k];
      if (i < p->elements) {
         *location = p->location + i;
         *interpolation = p->interpolation;
         *centroid = p->centroid;
         return true;
      }
      i -= p->elements;
   }
   xl_fail(c, "location %u beyond interface variable %%%u", i, v->id);
   return false;
}

bool xl_gfx_leaf_slot(struct xl_ctx *c, const struct xl_gfx_var *v, uint32_t leaf,
                      uint32_t *location, uint32_t *component)
{
   struct pieces ps;
   if (!var_pieces(c, v, &ps))
      return false;
   for (uint32_t k = 0; k < ps.count; k++) {
      const struct piece *p = &ps.p[k];
      uint32_t leaves = p->elements * p->per_element;
      if (leaf < leaves) {
         *location = p->location + leaf / p->per_element;
         *component = p->component + leaf % p->per_element;
         return true;
      }
      leaf -= leaves;
   }
   xl_fail(c, "leaf %u beyond interface variable %%%u", leaf, v->id);
   return false;
}

struct xl_val xl_gfx_var_value(struct xl_ctx *c, const struct xl_gfx_var *v)
{
   return xl_load_ptr(c, &c->global_ptrs[v->id]);
}

void xl_gfx_var_store(struct xl_ctx *c, const struct xl_gfx_var *v, struct xl_val value)
{
   xl_store_ptr(c, &c->global_ptrs[v->id], value);
}

uint32_t xl_gfx_f32(float f)
{
   union {
      float f;
      uint32_t u;
   } x = {f};
   return x.u;
}

uint32_t xl_gfx_op_imm(struct xl_ctx *c, enum ppu_op op, enum ppu_type ty, uint32_t a, uint32_t imm)
{
   uint32_t d = ir_new_vreg(c->ir, 1);
   xl_op_imm(c, op, ty, d, a, imm);
   return d;
}

uint32_t xl_gfx_read_reg(struct xl_ctx *c, unsigned reg)
{
   uint32_t d = ir_new_vreg(c->ir, 1);
   xl_op(c, PPU_OP_MOV, PPU_TYPE_U32, d, 0, 0)->f.rb = (uint8_t)reg;
   return d;
}

void xl_gfx_write_reg(struct xl_ctx *c, unsigned reg, uint32_t v)
{
   xl_op(c, PPU_OP_MOV, PPU_TYPE_U32, 0, 0, v)->f.rd = (uint8_t)reg;
}

void xl_gfx_reserve(struct xl_ctx *c, unsigned first, unsigned count)
{
   for (unsigned r = first; r < first + count && r < PPU_REG_COUNT_MAX; r++)
      c->ir->reserved[r / 64] |= 1ull << (r % 64);
}

uint32_t xl_gfx_load_at(struct xl_ctx *c, unsigned pair, uint32_t offset)
{
   uint32_t d = ir_new_vreg(c->ir, 1);
   struct ir_insn *i = xl_op(c, PPU_OP_LD, PPU_TYPE_U32, d, 0, 0);
   i->f.ra = (uint8_t)pair;
   i->f.imm = offset;
   i->f.mode = PPU_SPACE_GLOBAL;
   return d;
}

void xl_gfx_store_at(struct xl_ctx *c, unsigned pair, uint32_t offset, uint32_t v)
{
   struct ir_insn *i = xl_op(c, PPU_OP_ST, PPU_TYPE_U32, 0, 0, v);
   i->f.ra = (uint8_t)pair;
   i->f.imm = offset;
   i->f.mode = PPU_SPACE_GLOBAL;
}

bool xl_gfx_begin(struct xl_ctx *c)
{
   return c->gfx->model == SPIRV_EXECUTION_MODEL_Vertex ? xl_vertex_begin(c) : xl_fragment_begin(c);
}

void xl_gfx_exit(struct xl_ctx *c)
{
   if (c->gfx->model == SPIRV_EXECUTION_MODEL_Vertex)
      xl_vertex_exit(c);
   else
      xl_fragment_exit(c);
}

uint32_t xl_gfx_cbank_load(struct xl_ctx *c, uint32_t offset, unsigned regs)
{
   uint32_t d = ir_new_vreg(c->ir, regs);
   struct ir_insn *i = xl_op(c, PPU_OP_LDC, regs == 2 ? PPU_TYPE_U64 : PPU_TYPE_U32, d, 0, 0);
   i->f.rb = 0;
   i->f.imm = offset;
   return d;
}

uint32_t xl_gfx_builtin_component(struct xl_ctx *c, uint32_t builtin, uint32_t k)
{
   /* Both stages: the draw runs once per view with its index in bank 0. */
   if (builtin == SPIRV_BUILT_IN_ViewIndex)
      return xl_gfx_cbank_load(c, DRV_ABI_CBANK_VIEW_INDEX, 1);
   return c->gfx->model == SPIRV_EXECUTION_MODEL_Vertex ? xl_vertex_builtin(c, builtin, k)
                                                        : xl_fragment_builtin(c, builtin, k);
}

/* Stores, atomics and image writes (SIDE_EFFECTS: the engine may not cull
 * live quads by hi-Z nor drop them early). The vertex epilogue's stores
 * are to the record, but only fragment programs report the flag. */
static bool has_side_effects(const struct ir_program *ir)
{
   for (uint32_t i = 0; i < ir->insn_count; i++) {
      const struct ir_insn *in = &ir->insns[i];
      if (in->is_label)
         continue;
      if ((in->f.op == PPU_OP_ST && in->f.mode == PPU_SPACE_GLOBAL) || in->f.op == PPU_OP_ATOM ||
          in->f.op == PPU_OP_SUST || in->f.op == PPU_OP_SUATOM)
         return true;
   }
   return false;
}

bool xl_gfx_end(struct xl_ctx *c)
{
   struct xl_gfx *g = c->gfx;
   if (g->model == SPIRV_EXECUTION_MODEL_Fragment) {
      if (has_side_effects(c->ir))
         g->info.flags |= PPU_GFX_PROGRAM_SIDE_EFFECTS;
      return !c->failed;
   }
   for (uint32_t s = 0; s < g->slot_count; s++) {
      /* Distances the vertex program does not write read 0, the
       * record's default (their array sizes may differ between stages). */
      if (!g->slot_written[s] && g->slot_location[s] < DRV_GFX_LOCATION_CLIP_DISTANCE) {
         xl_fail(c, "the fragment shader reads location %u, which the vertex shader does not write",
                 g->slot_location[s]);
         return false;
      }
   }
   return !c->failed;
}
