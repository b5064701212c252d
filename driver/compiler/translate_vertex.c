/* The vertex stage (docs/graphics-hw.md "Vertex work"): built-ins from the
 * launch registers, attributes fetched with LD from the vertex buffers of
 * constant bank 0 (driver/shader_abi.h) and decoded by code specialized for
 * each attribute's format, outputs stored into the vertex output record at
 * R2:R3 before EXIT. */
#include "ppu/graphics.h"
#include "translate_graphics.h"

enum vf_kind { VF_FLOAT, VF_UINT, VF_SINT, VF_UNORM, VF_SNORM, VF_USCALED, VF_SSCALED };

/* A vertex format: comps components of bits each (0: the packed
 * 10-10-10-2 layout, one 32-bit word), bgra swaps the first and third. */
struct vertex_format {
   uint32_t vk; /* VkFormat */
   uint8_t comps, bits, kind;
   bool bgra;
};

/* VkFormat values (Vulkan spec "Formats"); the list in docs/compiler.md. */
#define VF_SIX(first, comps, bits)                                                                 \
   {(first), (comps), (bits), VF_UNORM, false}, {(first) + 1, (comps), (bits), VF_SNORM, false},   \
       {(first) + 2, (comps), (bits), VF_USCALED, false},                                          \
       {(first) + 3, (comps), (bits), VF_SSCALED, false},                                          \
       {(first) + 4, (comps), (bits), VF_UINT, false},                                             \
   {                                                                                               \
      (first) + 5, (comps), (bits), VF_SINT, false                                                 \
   }
static const struct vertex_format formats[] = {
    VF_SIX(9, 1, 8),            /* R8_UNORM .. R8_SINT */
    VF_SIX(16, 2, 8),           /* R8G8_* */
    VF_SIX(37, 4, 8),           /* R8G8B8A8_* */
    {44, 4, 8, VF_UNORM, true}, /* B8G8R8A8_UNORM */
    VF_SIX(51, 4, 8),           /* A8B8G8R8_*_PACK32: R8G8B8A8 in memory */
    VF_SIX(64, 4, 0),           /* A2B10G10R10_*_PACK32 */
    VF_SIX(70, 1, 16),          /* R16_* */
    {76, 1, 16, VF_FLOAT, false},
    VF_SIX(77, 2, 16), /* R16G16_* */
    {83, 2, 16, VF_FLOAT, false},
    VF_SIX(84, 3, 16), /* R16G16B16_* */
    {90, 3, 16, VF_FLOAT, false},
    VF_SIX(91, 4, 16), /* R16G16B16A16_* */
    {97, 4, 16, VF_FLOAT, false},
    {98, 1, 32, VF_UINT, false},
    {99, 1, 32, VF_SINT, false},
    {100, 1, 32, VF_FLOAT, false},
    {101, 2, 32, VF_UINT, false},
    {102, 2, 32, VF_SINT, false},
    {103, 2, 32, VF_FLOAT, false},
    {104, 3, 32, VF_UINT, false},
    {105, 3, 32, VF_SINT, false},
    {106, 3, 32, VF_FLOAT, false},
    {107, 4, 32, VF_UINT, false},
    {108, 4, 32, VF_SINT, false},
    {109, 4, 32, VF_FLOAT, false},
};

static const struct vertex_format *find_format(uint32_t vk)
{
   for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
      if (formats[i].vk == vk)
         return &formats[i];
   return NULL;
}

static bool is_signed_kind(uint8_t kind)
{
   return kind == VF_SINT || kind == VF_SNORM || kind == VF_SSCALED;
}

/* The element index of a binding (Vulkan "Vertex Input Address
 * Calculation"): the vertex index, or for instance rate
 * (InstanceIndex - firstInstance) / divisor + firstInstance. */
static uint32_t element_index(struct xl_ctx *c, const struct drv_vertex_binding *b)
{
   if (!b->per_instance)
      return xl_gfx_read_reg(c, XL_VS_VERTEX_INDEX);
   if (b->divisor == 0)
      return xl_gfx_read_reg(c, XL_VS_BASE_INSTANCE);
   if (b->divisor == 1)
      return xl_gfx_read_reg(c, XL_VS_INSTANCE_INDEX);
   uint32_t base = xl_gfx_read_reg(c, XL_VS_BASE_INSTANCE), rel = ir_new_vreg(c->ir, 1);
   xl_op(c, PPU_OP_ISUB, PPU_TYPE_U32, rel, xl_gfx_read_reg(c, XL_VS_INSTANCE_INDEX), base);
   uint32_t q = xl_gfx_op_imm(c, PPU_OP_IDIV, PPU_TYPE_U32, rel, b->divisor),
            d = ir_new_vreg(c->ir, 1);
   xl_op(c, PPU_OP_IADD, PPU_TYPE_U32, d, q, base);
   return d;
}

/* Integer code -> float: UNORM c / (2^b - 1), SNORM max(c / (2^(b-1) - 1),
 * -1) (Vulkan "Fixed-Point Data Conversions"; FDIV rounds correctly),
 * SCALED the integer's value. */
static uint32_t to_float(struct xl_ctx *c, uint32_t v, uint8_t kind, unsigned bits)
{
   if (kind == VF_UINT || kind == VF_SINT || kind == VF_FLOAT)
      return v;
   bool sign = is_signed_kind(kind);
   uint32_t f = ir_new_vreg(c->ir, 1);
   struct ir_insn *i = xl_op(c, PPU_OP_CVT, PPU_TYPE_F32, f, v, 0);
   i->f.type2 = sign ? PPU_TYPE_S32 : PPU_TYPE_U32;
   i->f.subop = PPU_ROUND_RN;
   if (kind == VF_USCALED || kind == VF_SSCALED)
      return f;
   float max = (float)((1u << (sign ? bits - 1 : bits)) - 1u);
   uint32_t q = xl_gfx_op_imm(c, PPU_OP_FDIV, PPU_TYPE_F32, f, xl_gfx_f32(max));
   return sign ? xl_gfx_op_imm(c, PPU_OP_FMAX, PPU_TYPE_F32, q, xl_gfx_f32(-1.0f)) : q;
}

/* Loads and decodes the attribute at `location` into out[4]. */
static bool fetch_attribute(struct xl_ctx *c, uint32_t location, uint32_t out[4])
{
   const struct drv_graphics_compile_request *req = c->gfx->req;
   const struct drv_vertex_attribute *a = NULL;
   for (uint32_t i = 0; i < req->attribute_count; i++)
      if (req->attributes[i].location == location)
         a = &req->attributes[i];
   if (!a && req->vertex_input_unknown) {
      for (unsigned k = 0; k < 4; k++)
         out[k] = xl_imm32(c, k == 3 ? xl_gfx_f32(1.0f) : 0u);
      return true;
   }
   if (!a) {
      xl_fail(c, "vertex input location %u has no attribute in the vertex input state", location);
      return false;
   }
   const struct drv_vertex_binding *b = NULL;
   for (uint32_t i = 0; i < req->binding_count; i++)
      if (req->bindings[i].binding == a->binding)
         b = &req->bindings[i];
   if (!b || a->binding >= DRV_ABI_MAX_VERTEX_BUFFERS) {
      xl_fail(c,
              "vertex attribute at location %u uses binding %u, which the vertex input state "
              "does not describe",
              location, a->binding);
      return false;
   }
   const struct vertex_format *f = find_format(a->format);
   if (!f) {
      xl_fail(c, "unsupported vertex format %u (VkFormat) at location %u", a->format, location);
      return false;
   }
   uint32_t record = DRV_ABI_CBANK_VERTEX_BUFFERS + a->binding * DRV_ABI_VERTEX_BUFFER_RECORD;
   uint32_t base = xl_gfx_cbank_load(c, record, 2), stride = xl_gfx_cbank_load(c, record + 12, 1);
   uint32_t index = element_index(c, b), addr = ir_new_vreg(c->ir, 2);
   xl_op(c, PPU_OP_IMADW, PPU_TYPE_U32, addr, index, stride)->src[2] = base;
   unsigned bytes = f->bits ? f->comps * f->bits / 8 : 4;
   bool robust = c->req->abi && c->req->abi->robust_buffer_access;
   if (robust) {
      /* P0 = index * stride + offset + bytes <= the bound size. */
      uint32_t end = ir_new_vreg(c->ir, 1);
      xl_op(c, PPU_OP_IMAD, PPU_TYPE_U32, end, index, stride)->src[2] =
          xl_imm32(c, a->offset + bytes);
      struct ir_insn *i =
          xl_op(c, PPU_OP_ISETP, PPU_TYPE_U32, 0, end, xl_gfx_cbank_load(c, record + 8, 1));
      i->f.subop = PPU_CMP_LE;
      i->f.pd = 0;
   }
   bool sign = is_signed_kind(f->kind);
   uint32_t word = 0;
   for (unsigned k = 0; k < 4; k++) {
      bool is_int = f->kind == VF_UINT || f->kind == VF_SINT;
      if (k >= f->comps) { /* missing components: (0, 0, 0, 1) */
         out[k] = xl_imm32(c, k < 3 ? 0 : is_int ? 1u : xl_gfx_f32(1.0f));
         continue;
      }
      uint32_t raw = ir_new_vreg(c->ir, 1);
      if (robust) /* out of range: zeros (and w = 1 from the missing rule) */
         xl_op(c, PPU_OP_MOV, PPU_TYPE_U32, raw, 0, 0)->f.rb = PPU_RZ;
      if (f->bits == 0) {
         if (k == 0) {
            word = ir_new_vreg(c->ir, 1);
            if (robust)
               xl_op(c, PPU_OP_MOV, PPU_TYPE_U32, word, 0, 0)->f.rb = PPU_RZ;
            struct ir_insn *i = xl_op(c, PPU_OP_LD, PPU_TYPE_U32, word, addr, 0);
            i->f.imm = a->offset;
            i->f.mode = PPU_SPACE_GLOBAL;
            if (robust)
               i->f.guard = 0;
         }
         unsigned width = k == 3 ? 2 : 10;
         xl_op_imm(c, PPU_OP_BFE, sign ? PPU_TYPE_S32 : PPU_TYPE_U32, raw, word,
                   (10 * k) | width << 8);
         out[k] = to_float(c, raw, f->kind, width);
         continue;
      }
      enum ppu_type ty = f->bits == 32   ? PPU_TYPE_U32
                         : f->bits == 16 ? (sign ? PPU_TYPE_S16 : PPU_TYPE_U16)
                                         : (sign ? PPU_TYPE_S8 : PPU_TYPE_U8);
      struct ir_insn *i = xl_op(c, PPU_OP_LD, ty, raw, addr, 0);
      i->f.imm = a->offset + k * f->bits / 8;
      i->f.mode = PPU_SPACE_GLOBAL;
      if (robust)
         i->f.guard = 0;
      if (f->kind == VF_FLOAT && f->bits == 16) {
         uint32_t h = ir_new_vreg(c->ir, 1);
         i = xl_op(c, PPU_OP_CVT, PPU_TYPE_F32, h, raw, 0);
         i->f.type2 = PPU_TYPE_F16;
         i->f.subop = PPU_ROUND_RN;
         raw = h;
      }
      out[k] = to_float(c, raw, f->kind, f->bits);
   }
   if (f->bgra) {
      uint32_t t = out[0];
      out[0] = out[2];
      out[2] = t;
   }
   return true;
}

static bool uses_capability(struct xl_ctx *c, uint32_t cap)
{
   return spirv_module_has_capability(c->m, cap);
}

/* The length of gl_ClipDistance or gl_CullDistance (`builtin`), when the
 * shader uses it: glslang declares both in every gl_PerVertex block but
 * adds the capability (`cap`) only when one is used. */
static uint32_t distance_count(struct xl_ctx *c, uint32_t cap, uint32_t builtin)
{
   struct xl_gfx *g = c->gfx;
   if (!uses_capability(c, cap))
      return 0;
   for (uint32_t i = 0; i < g->var_count; i++) {
      uint32_t type = c->global_ptrs[g->vars[i].id].type;
      const struct spirv_type *t = spirv_type(c->m, type);
      if (!g->vars[i].is_output || !t)
         continue;
      if (g->vars[i].builtin == builtin)
         return xl_leaf_count(c, type);
      for (uint32_t m = 0; t->kind == SPIRV_TYPE_STRUCT && m < t->u.structure.member_count; m++) {
         uint32_t b;
         if (spirv_decoration_literal(c->m, type, m, SPIRV_DECORATION_BuiltIn, &b) && b == builtin)
            return xl_leaf_count(c, spirv_struct_member_type(c->m, type, m));
      }
   }
   return 0;
}

/* gl_PointSize starts at 1.0 (glslang declares it in every gl_PerVertex
 * block, written or not), so the record's point size is always defined;
 * the rest of an output block starts at 0. */
static void init_point_size(struct xl_ctx *c, const struct xl_gfx_var *v)
{
   uint32_t type = c->global_ptrs[v->id].type, at = UINT32_MAX;
   const struct spirv_type *t = spirv_type(c->m, type);
   if (v->builtin == SPIRV_BUILT_IN_PointSize) {
      at = 0;
   } else if (t && t->kind == SPIRV_TYPE_STRUCT) {
      uint32_t first = 0;
      for (uint32_t m = 0; m < t->u.structure.member_count; m++) {
         uint32_t builtin = UINT32_MAX, mt = spirv_struct_member_type(c->m, type, m);
         spirv_decoration_literal(c->m, type, m, SPIRV_DECORATION_BuiltIn, &builtin);
         if (builtin == SPIRV_BUILT_IN_PointSize)
            at = first;
         first += xl_leaf_count(c, mt);
      }
   }
   if (at == UINT32_MAX)
      return;
   c->gfx->writes_point_size = true;
   struct xl_val value = xl_new_val(c, type);
   for (uint32_t k = 0; k < value.count && !c->failed; k++)
      xl_mov(c, xl_comp(c, value, k), xl_imm32(c, k == at ? xl_gfx_f32(1.0f) : 0), 1);
   if (!c->failed)
      xl_gfx_var_store(c, v, value);
}

bool xl_vertex_begin(struct xl_ctx *c)
{
   struct xl_gfx *g = c->gfx;
   xl_gfx_reserve(c, 0, XL_VS_LAUNCH_REGS);
   g->clip_distance_count =
       distance_count(c, SPIRV_CAPABILITY_ClipDistance, SPIRV_BUILT_IN_ClipDistance);
   g->cull_distance_count =
       distance_count(c, SPIRV_CAPABILITY_CullDistance, SPIRV_BUILT_IN_CullDistance);
   /* Both share the header's 8 distances (maxCombinedClipAndCullDistances). */
   if (g->clip_distance_count + g->cull_distance_count > PPU_GFX_MAX_CLIP_DISTANCES) {
      xl_fail(c, "%u clip and %u cull distances (at most %u together)", g->clip_distance_count,
              g->cull_distance_count, PPU_GFX_MAX_CLIP_DISTANCES);
      return false;
   }
   for (uint32_t i = 0; i < g->var_count && !c->failed; i++) {
      const struct xl_gfx_var *v = &g->vars[i];
      if (v->is_output) {
         init_point_size(c, v);
         continue;
      }
      if (v->builtin != UINT32_MAX)
         continue;
      struct xl_val value = xl_new_val(c, c->global_ptrs[v->id].type);
      uint32_t leaves = xl_leaf_count(c, c->global_ptrs[v->id].type);
      uint32_t attr[4] = {0}, fetched = UINT32_MAX;
      for (uint32_t k = 0; k < leaves && !c->failed; k++) {
         uint32_t location, component;
         if (!xl_gfx_leaf_slot(c, v, k, &location, &component))
            return false;
         if (location != fetched && !fetch_attribute(c, location, attr))
            return false;
         fetched = location;
         xl_mov(c, xl_comp(c, value, k), attr[component], 1);
      }
      if (!c->failed)
         xl_gfx_var_store(c, v, value);
   }
   return !c->failed;
}

/* Stores reg into the slot of `location`, if the fragment program reads it. */
static void store_slot(struct xl_ctx *c, uint32_t location, uint32_t component, uint32_t reg)
{
   struct xl_gfx *g = c->gfx;
   for (uint32_t s = 0; s < g->slot_count; s++) {
      if (g->slot_location[s] == location) {
         g->slot_written[s] = true;
         xl_gfx_store_at(c, XL_VS_RECORD, PPU_GFX_VERTEX_STRIDE(s) + 4 * component, reg);
      }
   }
}

/* Stores one output value; UINT32_MAX builtin: the user location. */
static void store_output(struct xl_ctx *c, uint32_t builtin, uint32_t element, uint32_t location,
                         uint32_t component, uint32_t reg)
{
   struct xl_gfx *g = c->gfx;
   uint32_t offset;
   switch (builtin) {
   case UINT32_MAX:
      store_slot(c, location, component, reg);
      return; /* a location the fragment shader does not read */
   case SPIRV_BUILT_IN_Position:
      offset = 4 * element;
      break;
   case SPIRV_BUILT_IN_PointSize:
      offset = 16;
      break;
   case SPIRV_BUILT_IN_Layer:
      offset = 20;
      break;
   case SPIRV_BUILT_IN_ViewportIndex:
      offset = 24;
      break;
   case SPIRV_BUILT_IN_ClipDistance:
      if (element >= g->clip_distance_count)
         return; /* declared in gl_PerVertex, never written */
      store_slot(c, DRV_GFX_LOCATION_CLIP_DISTANCE + element / 4, element % 4, reg);
      offset = 32 + 4 * element;
      break;
   case SPIRV_BUILT_IN_CullDistance: /* after the clip distances */
      if (element >= g->cull_distance_count)
         return;
      store_slot(c, DRV_GFX_LOCATION_CULL_DISTANCE + element / 4, element % 4, reg);
      offset = 32 + 4 * (g->clip_distance_count + element);
      break;
   default:
      xl_fail(c, "unsupported vertex output built-in %u", builtin);
      return;
   }
   xl_gfx_store_at(c, XL_VS_RECORD, offset, reg);
}

/* The leaves of a built-in value of `type`: element k of a vector or
 * array. */
static void store_builtin(struct xl_ctx *c, uint32_t builtin, struct xl_val v, uint32_t first,
                          uint32_t count)
{
   for (uint32_t k = 0; k < count && !c->failed; k++)
      store_output(c, builtin, k, 0, 0, xl_comp(c, v, first + k));
}

void xl_vertex_exit(struct xl_ctx *c)
{
   struct xl_gfx *g = c->gfx;
   for (uint32_t i = 0; i < g->var_count && !c->failed; i++) {
      const struct xl_gfx_var *v = &g->vars[i];
      if (!v->is_output)
         continue;
      uint32_t type = c->global_ptrs[v->id].type;
      struct xl_val value = xl_gfx_var_value(c, v);
      const struct spirv_type *t = spirv_type(c->m, type);
      if (v->builtin != UINT32_MAX) {
         store_builtin(c, v->builtin, value, 0, value.count);
      } else if (t && t->kind == SPIRV_TYPE_STRUCT && !v->user_block) { /* gl_PerVertex */
         uint32_t first = 0;
         for (uint32_t m = 0; m < t->u.structure.member_count && !c->failed; m++) {
            uint32_t mt = spirv_struct_member_type(c->m, type, m), builtin = UINT32_MAX;
            uint32_t n = xl_leaf_count(c, mt);
            if (!spirv_decoration_literal(c->m, type, m, SPIRV_DECORATION_BuiltIn, &builtin)) {
               xl_fail(c, "unsupported: an output block member without BuiltIn");
               return;
            }
            store_builtin(c, builtin, value, first, n);
            first += n;
         }
      } else {
         for (uint32_t k = 0; k < value.count && !c->failed; k++) {
            uint32_t location, component;
            if (xl_gfx_leaf_slot(c, v, k, &location, &component))
               store_output(c, UINT32_MAX, 0, location, component, xl_comp(c, value, k));
         }
      }
   }
   if (!g->writes_point_size) /* no gl_PointSize at all: 1.0 for points */
      xl_gfx_store_at(c, XL_VS_RECORD, 16, xl_imm32(c, xl_gfx_f32(1.0f)));
}

uint32_t xl_vertex_builtin(struct xl_ctx *c, uint32_t builtin, uint32_t k)
{
   (void)k;
   switch (builtin) {
   case SPIRV_BUILT_IN_VertexIndex:
      return xl_gfx_read_reg(c, XL_VS_VERTEX_INDEX);
   case SPIRV_BUILT_IN_InstanceIndex:
      return xl_gfx_read_reg(c, XL_VS_INSTANCE_INDEX);
   case SPIRV_BUILT_IN_DrawIndex:
      return xl_gfx_read_reg(c, XL_VS_DRAW_INDEX);
   case SPIRV_BUILT_IN_BaseInstance:
      return xl_gfx_read_reg(c, XL_VS_BASE_INSTANCE);
   case SPIRV_BUILT_IN_BaseVertex:
      return xl_gfx_read_reg(c, XL_VS_BASE_VERTEX);
   default:
      xl_fail(c, "unsupported vertex input built-in %u", builtin);
      return ir_new_vreg(c->ir, 1);
   }
}
