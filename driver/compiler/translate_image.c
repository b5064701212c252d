/* Images, samplers and texel buffers on the texture unit (translate.h;
 * docs/isa.md "Textures", docs/compiler.md "Images").
 *
 * Descriptors hold the hardware's headers inline (driver/shader_abi.h), so
 * an image or sampler value is the 64-bit VA of its header and a sampled
 * image is the pair (texture header VA, sampler header VA); every lane may
 * hold its own, which is all NonUniform indexing needs. Texture
 * instructions take register groups: a result quad rd..rd+3 and a
 * coordinate vector rc..rc+n-1 laid out per view type. They are built and
 * taken apart with one 32-bit MOV per register (ir_insn.part), which the
 * register allocator places as one vreg of n registers. */
#include <string.h>

#include "ppu/texture.h"
#include "translate_graphics.h"

#define MAX_COORD_WORDS 12u /* cube array, gradients and a reference: 3+1+3+3+1 */

/* The view type and component type an image type declares. */
struct image_info {
   enum ppu_texdim dim;
   enum ppu_type ty;
   unsigned coords; /* spatial coordinates of a sample (cube: a 3D direction) */
   bool arrayed, cube, buffer;
   bool subpass; /* Dim SubpassData: an input attachment, read at the fragment's pixel */
   bool ms;      /* MS 1: a 4x view, read by OpImageFetch with a Sample and queried only */
};

static bool image_info(struct xl_ctx *c, uint32_t type_id, struct image_info *out)
{
   const struct spirv_type *t = spirv_type(c->m, type_id);
   if (t && t->kind == SPIRV_TYPE_SAMPLED_IMAGE)
      t = spirv_type(c->m, t->u.sampled_image.image_type);
   if (!t || t->kind != SPIRV_TYPE_IMAGE) {
      xl_fail(c, "%%%u is not an image type", type_id);
      return false;
   }
   memset(out, 0, sizeof(*out));
   /* The texture unit fetches samples of 2D views (TLD with the sample
    * index, docs/isa.md): sampled 2D images and input attachments (subpass
    * data, Sampled 2 in SPIR-V) may be multisampled; storage access to them
    * (shaderStorageImageMultisample) is not offered. */
   bool ms_subpass = t->u.image.dim == SPIRV_DIM_SubpassData;
   if (t->u.image.multisampled && !ms_subpass &&
       (t->u.image.dim != SPIRV_DIM_2D || t->u.image.sampled == 2)) {
      xl_fail(c,
              "unsupported: multisampled %s (OpTypeImage MS 1 is taken for sampled 2D "
              "images and input attachments only)",
              t->u.image.sampled == 2 ? "storage images" : "images other than 2D");
      return false;
   }
   out->ms = t->u.image.multisampled != 0;
   out->arrayed = t->u.image.arrayed != 0;
   static const enum ppu_texdim plain[] = {PPU_TEXDIM_1D, PPU_TEXDIM_2D, PPU_TEXDIM_3D,
                                           PPU_TEXDIM_CUBE};
   static const enum ppu_texdim arrays[] = {PPU_TEXDIM_1DA, PPU_TEXDIM_2DA, PPU_TEXDIM_COUNT,
                                            PPU_TEXDIM_CUBEA};
   if (t->u.image.dim <= SPIRV_DIM_Cube) {
      out->dim = out->arrayed ? arrays[t->u.image.dim] : plain[t->u.image.dim];
      out->coords = t->u.image.dim == SPIRV_DIM_Cube ? 3 : t->u.image.dim + 1;
      out->cube = t->u.image.dim == SPIRV_DIM_Cube;
   } else if (t->u.image.dim == SPIRV_DIM_SubpassData && !out->arrayed) {
      /* The descriptor is the attachment view's texture header, always
       * arrayed (descriptor_set.c): the layer is the view index. */
      out->dim = PPU_TEXDIM_2DA;
      out->coords = 2;
      out->subpass = true;
   } else if (t->u.image.dim == SPIRV_DIM_Buffer && !out->arrayed) {
      out->dim = PPU_TEXDIM_BUFFER;
      out->coords = 1;
      out->buffer = true;
   } else {
      out->dim = PPU_TEXDIM_COUNT;
   }
   if (out->dim == PPU_TEXDIM_COUNT) {
      const char *name = spirv_enumerant_name(SPIRV_OPERAND_Dim, t->u.image.dim);
      xl_fail(c, "unsupported image dimension %s%s", name ? name : "?",
              out->arrayed ? " (arrayed)" : "");
      return false;
   }
   const struct spirv_type *st = spirv_type(c->m, t->u.image.sampled_type);
   if (!st || (st->kind != SPIRV_TYPE_INT && st->kind != SPIRV_TYPE_FLOAT) ||
       st->u.scalar.width != 32) {
      xl_fail(c, "unsupported: image components that are not 32-bit integers or floats");
      return false;
   }
   out->ty = st->kind == SPIRV_TYPE_FLOAT ? PPU_TYPE_F32
             : st->u.scalar.is_signed     ? PPU_TYPE_S32
                                          : PPU_TYPE_U32;
   return true;
}

uint32_t xl_image_descriptor_va(struct xl_ctx *c, const struct drv_binding_layout *b, bool is_const,
                                uint32_t const_index, uint32_t dyn_index)
{
   if (b->kind < DRV_BINDING_SAMPLED_IMAGE) {
      xl_fail(c,
              "set %u binding %u is a buffer or acceleration-structure binding, not an image "
              "or sampler",
              b->set, b->binding);
      return ir_new_vreg(c->ir, 2);
   }
   uint32_t base = xl_set_base(c, b->set), stride = drv_descriptor_stride(b->kind);
   uint32_t va = ir_new_vreg(c->ir, 2);
   if (is_const) {
      /* IADD.U64 sign-extends its immediate; set offsets stay below 2^31. */
      xl_op_imm(c, PPU_OP_IADD, PPU_TYPE_U64, va, base, b->offset + const_index * stride);
      return va;
   }
   uint32_t element = ir_new_vreg(c->ir, 2);
   xl_op_imm(c, PPU_OP_IMADW, PPU_TYPE_U32, element, dyn_index, stride)->src[2] = base;
   xl_op_imm(c, PPU_OP_IADD, PPU_TYPE_U64, va, element, b->offset);
   return va;
}

/* ---- register groups ------------------------------------------------- */

struct coord_vec {
   uint32_t reg[MAX_COORD_WORDS];
   unsigned n;
};

static void push_word(struct xl_ctx *c, struct coord_vec *v, uint32_t reg)
{
   if (v->n >= MAX_COORD_WORDS) {
      xl_fail(c, "internal: texture coordinate vector longer than %u words", MAX_COORD_WORDS);
      return;
   }
   v->reg[v->n++] = reg;
}

/* Components [first, first + n) of a value, each a 32-bit word. */
static void push_components(struct xl_ctx *c, struct coord_vec *v, struct xl_val val,
                            uint32_t first, unsigned n)
{
   for (unsigned k = 0; k < n && !c->failed; k++) {
      uint32_t r = xl_comp(c, val, first + k);
      if (!c->failed && c->ir->vreg_size[r] != 1) {
         xl_fail(c, "unsupported: 64-bit image coordinates or texels");
         return;
      }
      push_word(c, v, r);
   }
}

/* One vreg of v->n consecutive registers (none for an empty vector: RZ). */
static uint32_t make_group(struct xl_ctx *c, const struct coord_vec *v)
{
   if (v->n <= 1)
      return v->n ? v->reg[0] : 0;
   uint32_t g = ir_new_vreg(c->ir, v->n);
   for (unsigned k = 0; k < v->n; k++)
      xl_op(c, PPU_OP_MOV, PPU_TYPE_U32, g, 0, v->reg[k])->part[0] = (uint8_t)k;
   return g;
}

static uint32_t zero_word(struct xl_ctx *c)
{
   return xl_imm32(c, 0);
}

/* The result: components 0.. of the quad the instruction wrote (narrower
 * results take the first ones, SPIR-V spec "Image Instructions"). */
static void set_result(struct xl_ctx *c, const struct spirv_inst *inst, uint32_t quad)
{
   struct xl_val v = xl_new_val(c, inst->result_type);
   if (c->failed)
      return;
   if (v.count > 4) {
      xl_fail(c, "result type %%%u has more than 4 components", inst->result_type);
      return;
   }
   for (uint32_t k = 0; k < v.count; k++) {
      uint32_t d = xl_comp(c, v, k);
      if (c->ir->vreg_size[d] != 1) {
         xl_fail(c, "unsupported: 64-bit image results");
         return;
      }
      xl_op(c, PPU_OP_MOV, PPU_TYPE_U32, d, 0, quad)->part[2] = (uint8_t)k;
   }
   xl_set(c, inst->result_id, v);
}

/* ---- operands -------------------------------------------------------- */

/* The texture header VA (and the sampler's, when smp is given) of an image
 * or sampled-image value, and what its type declares. */
static bool image_operand(struct xl_ctx *c, uint32_t id, uint32_t *tex, uint32_t *smp,
                          struct image_info *info)
{
   uint32_t type = spirv_id_type(c->m, id);
   struct xl_val v = xl_get(c, id);
   if (c->failed || !image_info(c, type, info))
      return false;
   const struct spirv_type *t = spirv_type(c->m, type);
   if (smp && t->kind != SPIRV_TYPE_SAMPLED_IMAGE) {
      xl_fail(c, "%%%u is not a sampled image", id);
      return false;
   }
   *tex = xl_comp(c, v, 0);
   if (smp)
      *smp = xl_comp(c, v, 1);
   return !c->failed;
}

/* The optional operands of SPIR-V spec 3.14 "Image Operands", one id per
 * parameter in increasing bit order (Grad has two). */
struct image_operands {
   uint32_t mask;
   uint32_t bias, lod, grad_x, grad_y, offset, const_offsets, sample;
};

static bool parse_image_operands(struct xl_ctx *c, const struct spirv_inst *inst, uint32_t first,
                                 struct image_operands *ops)
{
   memset(ops, 0, sizeof(*ops));
   if (first >= inst->operand_count)
      return true;
   ops->mask = xl_word(c, inst, first);
   uint32_t k = first + 1;
   for (unsigned bit = 0; bit < 32; bit++) {
      uint32_t b = 1u << bit;
      if (!(ops->mask & b))
         continue;
      unsigned params =
          b == SPIRV_IMAGE_OPERANDS_Grad                                                       ? 2
          : b >= SPIRV_IMAGE_OPERANDS_NonPrivateTexel && b <= SPIRV_IMAGE_OPERANDS_Nontemporal ? 0
                                                                                               : 1;
      if (k + params > inst->operand_count) {
         xl_fail(c, "image operands 0x%x lack their parameters", ops->mask);
         return false;
      }
      switch (b) {
      case SPIRV_IMAGE_OPERANDS_Bias:
         ops->bias = xl_word(c, inst, k);
         break;
      case SPIRV_IMAGE_OPERANDS_Lod:
         ops->lod = xl_word(c, inst, k);
         break;
      case SPIRV_IMAGE_OPERANDS_Grad:
         ops->grad_x = xl_word(c, inst, k);
         ops->grad_y = xl_word(c, inst, k + 1);
         break;
      case SPIRV_IMAGE_OPERANDS_ConstOffset:
      case SPIRV_IMAGE_OPERANDS_Offset:
         ops->offset = xl_word(c, inst, k);
         break;
      case SPIRV_IMAGE_OPERANDS_ConstOffsets:
         ops->const_offsets = xl_word(c, inst, k);
         break;
      case SPIRV_IMAGE_OPERANDS_Sample:
         ops->sample = xl_word(c, inst, k);
         break;
      case SPIRV_IMAGE_OPERANDS_MakeTexelAvailable:
      case SPIRV_IMAGE_OPERANDS_MakeTexelVisible:
      case SPIRV_IMAGE_OPERANDS_NonPrivateTexel:
      case SPIRV_IMAGE_OPERANDS_VolatileTexel:
      case SPIRV_IMAGE_OPERANDS_SignExtend:
      case SPIRV_IMAGE_OPERANDS_ZeroExtend:
      case SPIRV_IMAGE_OPERANDS_Nontemporal:
         /* Coherence and extension hints: the texture unit reads and
          * writes memory directly and returns 32-bit components. */
         break;
      default: {
         const char *name = spirv_enumerant_name(SPIRV_OPERAND_ImageOperands, b);
         xl_fail(c, "unsupported image operand %s%s", name ? name : "0x", name ? "" : "(unknown)");
         return false;
      }
      }
      k += params;
   }
   return true;
}

/* Constant texel offsets (ConstOffset, or an Offset that is a constant) as
 * the imm bits of TEX/TLD/TLD4: signed 4-bit per axis (docs/isa.md). */
static bool offset_imm(struct xl_ctx *c, uint32_t id, unsigned axes, uint32_t *imm)
{
   const struct spirv_constant *k = spirv_constant(c->m, id);
   if (!k || (!k->has_value && k->kind != SPIRV_CONSTANT_NULL)) {
      xl_fail(c, "unsupported: a texel offset that is not a constant (the texture unit takes "
                 "constant offsets only)");
      return false;
   }
   for (unsigned a = 0; a < axes && a < SPIRV_MAX_VECTOR_COMPONENTS; a++) {
      int32_t v = k->kind == SPIRV_CONSTANT_NULL ? 0 : (int32_t)(uint32_t)k->value[a];
      if (v < -8 || v > 7) {
         xl_fail(c, "texel offset %d is outside -8..7", v);
         return false;
      }
      *imm |= ((uint32_t)v & 0xfu) << (4 * a);
   }
   return true;
}

static bool is_zero_constant(struct xl_ctx *c, uint32_t id)
{
   uint64_t v;
   return spirv_constant_scalar(c->m, id, &v) && v == 0;
}

/* ---- instructions ---------------------------------------------------- */

static uint32_t fdiv(struct xl_ctx *c, uint32_t a, uint32_t b)
{
   uint32_t d = ir_new_vreg(c->ir, 1);
   xl_op(c, PPU_OP_FDIV, PPU_TYPE_F32, d, a, b);
   return d;
}

static struct ir_insn *emit_tex(struct xl_ctx *c, enum ppu_op op, const struct image_info *info,
                                uint32_t dst, uint32_t tex, uint32_t b, const struct coord_vec *v)
{
   uint32_t coords = make_group(c, v);
   struct ir_insn *i = xl_op(c, op, op == PPU_OP_TXQ ? PPU_TYPE_U32 : info->ty, dst, tex, b);
   i->src[2] = coords;
   i->f.mode = (uint8_t)info->dim;
   return i;
}

/* OpImageSample*: TEX. Coordinates (divided by q for Proj), layer, the lod
 * words of the subop, then the depth reference. */
static void sample(struct xl_ctx *c, const struct spirv_inst *inst)
{
   uint32_t op = inst->opcode;
   bool dref = op == SPIRV_OP_ImageSampleDrefImplicitLod ||
               op == SPIRV_OP_ImageSampleDrefExplicitLod ||
               op == SPIRV_OP_ImageSampleProjDrefImplicitLod ||
               op == SPIRV_OP_ImageSampleProjDrefExplicitLod;
   bool proj = op == SPIRV_OP_ImageSampleProjImplicitLod ||
               op == SPIRV_OP_ImageSampleProjExplicitLod ||
               op == SPIRV_OP_ImageSampleProjDrefImplicitLod ||
               op == SPIRV_OP_ImageSampleProjDrefExplicitLod;
   bool implicit =
       op == SPIRV_OP_ImageSampleImplicitLod || op == SPIRV_OP_ImageSampleDrefImplicitLod ||
       op == SPIRV_OP_ImageSampleProjImplicitLod || op == SPIRV_OP_ImageSampleProjDrefImplicitLod;
   struct image_info info;
   struct image_operands ops;
   uint32_t tex, smp, imm = 0;
   if (!image_operand(c, xl_word(c, inst, 0), &tex, &smp, &info) ||
       !parse_image_operands(c, inst, dref ? 3 : 2, &ops))
      return;
   if (info.buffer || info.ms || ops.sample) {
      xl_fail(c, "%s",
              info.buffer ? "a texel buffer cannot be sampled"
              : info.ms   ? "a multisampled image cannot be sampled (only fetched)"
                          : "a Sample operand on a sampling instruction");
      return;
   }
   if (implicit && !xl_has_derivatives(c)) {
      xl_fail(c, "unsupported: implicit level of detail in a compute shader without the "
                 "DerivativeGroupQuadsNV or DerivativeGroupLinearNV execution mode");
      return;
   }
   struct xl_val coord = xl_get(c, xl_word(c, inst, 1));
   struct coord_vec v = {{0}, 0};
   uint32_t q = proj ? xl_comp(c, coord, info.coords) : 0;
   for (unsigned k = 0; k < info.coords + info.arrayed && !c->failed; k++) {
      uint32_t r = xl_comp(c, coord, k);
      push_word(c, &v, proj && k < info.coords ? fdiv(c, r, q) : r);
   }
   enum ppu_texlod lod = PPU_TEXLOD_AUTO;
   if (ops.grad_x) {
      lod = PPU_TEXLOD_LG;
      push_components(c, &v, xl_get(c, ops.grad_x), 0, info.coords);
      push_components(c, &v, xl_get(c, ops.grad_y), 0, info.coords);
   } else if (ops.lod && is_zero_constant(c, ops.lod)) {
      lod = PPU_TEXLOD_LZ;
   } else if (ops.lod) {
      lod = PPU_TEXLOD_LL;
      push_components(c, &v, xl_get(c, ops.lod), 0, 1);
   } else if (ops.bias) {
      lod = PPU_TEXLOD_LB;
      push_components(c, &v, xl_get(c, ops.bias), 0, 1);
   } else if (!implicit) {
      xl_fail(c, "an explicit-lod sample without a Lod or Grad operand");
      return;
   }
   if (dref) {
      uint32_t ref = xl_comp(c, xl_get(c, xl_word(c, inst, 2)), 0);
      /* Vulkan "Projection Operation": the reference is divided by q too. */
      push_word(c, &v, proj ? fdiv(c, ref, q) : ref);
      imm |= PPU_TEXIMM_DC;
   }
   if (ops.const_offsets) {
      xl_fail(c, "ConstOffsets is for gathers only");
      return;
   }
   if (ops.offset && (info.cube || !offset_imm(c, ops.offset, info.coords, &imm))) {
      if (info.cube)
         xl_fail(c, "texel offsets on a cube image");
      return;
   }
   if (c->failed)
      return;
   uint32_t quad = ir_new_vreg(c->ir, 4);
   struct ir_insn *i = emit_tex(c, PPU_OP_TEX, &info, quad, tex, smp, &v);
   i->f.subop = (uint8_t)lod;
   i->f.imm = imm;
   set_result(c, inst, quad);
}

/* The integer texel coordinates of fetches, loads, stores and atomics:
 * x [y [z]] [layer], cubes x, y, face-layer (docs/isa.md). */
static void push_texel_coords(struct xl_ctx *c, struct coord_vec *v, const struct image_info *info,
                              struct xl_val coord)
{
   unsigned n = info->cube ? 3 : info->coords + info->arrayed;
   push_components(c, v, coord, 0, n);
}

/* OpImageFetch: TLD with the level (relative to the view's base) last,
 * or for a multisampled image the Sample operand in its place (a 4x view
 * has one level). */
static void fetch(struct xl_ctx *c, const struct spirv_inst *inst)
{
   struct image_info info;
   struct image_operands ops;
   uint32_t tex, imm = 0;
   if (!image_operand(c, xl_word(c, inst, 0), &tex, NULL, &info) ||
       !parse_image_operands(c, inst, 2, &ops))
      return;
   struct coord_vec v = {{0}, 0};
   push_texel_coords(c, &v, &info, xl_get(c, xl_word(c, inst, 1)));
   if (info.buffer && (ops.lod || ops.offset)) {
      xl_fail(c, "a texel buffer fetch takes no Lod or offset");
      return;
   }
   if (info.ms != (ops.sample != 0) || (info.ms && ops.lod)) {
      xl_fail(c, "%s",
              info.ms ? "a fetch from a multisampled image takes a Sample and no Lod"
                      : "a Sample operand on a fetch from an image that is not "
                        "multisampled");
      return;
   }
   if (info.ms)
      push_components(c, &v, xl_get(c, ops.sample), 0, 1);
   else if (!info.buffer)
      push_word(c, &v, ops.lod ? xl_comp(c, xl_get(c, ops.lod), 0) : zero_word(c));
   if (ops.offset && !offset_imm(c, ops.offset, info.coords, &imm))
      return;
   if (c->failed)
      return;
   uint32_t quad = ir_new_vreg(c->ir, 4);
   emit_tex(c, PPU_OP_TLD, &info, quad, tex, 0, &v)->f.imm = imm;
   set_result(c, inst, quad);
}

/* OpImageGather / OpImageDrefGather: TLD4. ConstOffsets (four offsets) is
 * four gathers, each giving the texel at its offset as its i0j0 (last)
 * component (Vulkan "Texel Gathering"). */
static void gather(struct xl_ctx *c, const struct spirv_inst *inst)
{
   bool dref = inst->opcode == SPIRV_OP_ImageDrefGather;
   struct image_info info;
   struct image_operands ops;
   uint32_t tex, smp, imm = 0;
   uint64_t component = 0;
   if (!image_operand(c, xl_word(c, inst, 0), &tex, &smp, &info) ||
       !parse_image_operands(c, inst, 3, &ops))
      return;
   if (!dref && (!spirv_constant_scalar(c->m, xl_word(c, inst, 2), &component) || component > 3)) {
      xl_fail(c, "the gathered component must be a constant 0..3");
      return;
   }
   if ((info.dim != PPU_TEXDIM_2D && info.dim != PPU_TEXDIM_2DA && !info.cube) || info.ms) {
      xl_fail(c, "gathers take 2D and cube images only (not multisampled)");
      return;
   }
   struct coord_vec v = {{0}, 0};
   push_components(c, &v, xl_get(c, xl_word(c, inst, 1)), 0, info.coords + info.arrayed);
   if (dref) {
      push_components(c, &v, xl_get(c, xl_word(c, inst, 2)), 0, 1);
      imm |= PPU_TEXIMM_DC;
   }
   if ((ops.offset || ops.const_offsets) && info.cube) {
      xl_fail(c, "texel offsets on a cube image");
      return;
   }
   if (ops.offset && !offset_imm(c, ops.offset, info.coords, &imm))
      return;
   if (c->failed)
      return;
   if (!ops.const_offsets) {
      uint32_t quad = ir_new_vreg(c->ir, 4);
      struct ir_insn *i = emit_tex(c, PPU_OP_TLD4, &info, quad, tex, smp, &v);
      i->f.subop = (uint8_t)component;
      i->f.imm = imm;
      set_result(c, inst, quad);
      return;
   }
   const struct spirv_constant *offsets = spirv_constant(c->m, ops.const_offsets);
   if (!offsets || offsets->kind != SPIRV_CONSTANT_COMPOSITE || offsets->component_count != 4) {
      xl_fail(c, "ConstOffsets %%%u is not a constant array of 4 offsets", ops.const_offsets);
      return;
   }
   struct coord_vec texels = {{0}, 0};
   for (uint32_t k = 0; k < 4 && !c->failed; k++) {
      uint32_t each = imm;
      if (!offset_imm(c, spirv_constant_constituent(c->m, offsets, k), info.coords, &each))
         return;
      uint32_t quad = ir_new_vreg(c->ir, 4), texel = ir_new_vreg(c->ir, 1);
      struct ir_insn *i = emit_tex(c, PPU_OP_TLD4, &info, quad, tex, smp, &v);
      i->f.subop = (uint8_t)component;
      i->f.imm = each;
      xl_op(c, PPU_OP_MOV, PPU_TYPE_U32, texel, 0, quad)->part[2] = 3;
      push_word(c, &texels, texel);
   }
   set_result(c, inst, make_group(c, &texels));
}

/* OpImageRead of subpass data (subpassLoad): a TLD of level 0 at the
 * fragment's pixel plus the coordinate operand, which Vulkan requires to be
 * (0, 0) ("Input Attachment Interface"), in layer gl_ViewIndex; the
 * descriptor is an ordinary (arrayed) texture header, so the view's format
 * converts as for texelFetch. A multisampled input attachment (MS 1) reads
 * the sample the Sample operand names instead of a level, as a fetch from
 * a 4x view does. */
static void read_subpass(struct xl_ctx *c, const struct spirv_inst *inst,
                         const struct image_info *info, uint32_t tex, uint32_t sample)
{
   if (!c->gfx || c->gfx->model != SPIRV_EXECUTION_MODEL_Fragment) {
      xl_fail(c, "subpass data (an input attachment) read outside a fragment shader");
      return;
   }
   struct xl_val offset = xl_get(c, xl_word(c, inst, 1));
   struct coord_vec v = {{0}, 0};
   for (unsigned axis = 0; axis < 2 && !c->failed; axis++) {
      uint32_t xy = ir_new_vreg(c->ir, 1);
      xl_op(c, PPU_OP_IADD, PPU_TYPE_U32, xy, xl_fragment_pixel(c, axis), xl_comp(c, offset, axis));
      push_word(c, &v, xy);
   }
   /* Layer: gl_ViewIndex (Vulkan "Multiview": input attachment reads use
    * the view's layer; 0 without multiview), then level 0. */
   push_word(c, &v, xl_gfx_cbank_load(c, DRV_ABI_CBANK_VIEW_INDEX, 1));
   if (info->ms)
      push_components(c, &v, xl_get(c, sample), 0, 1);
   else
      push_word(c, &v, zero_word(c));
   if (c->failed)
      return;
   uint32_t quad = ir_new_vreg(c->ir, 4);
   emit_tex(c, PPU_OP_TLD, info, quad, tex, 0, &v);
   set_result(c, inst, quad);
}

/* OpImageRead / OpImageWrite: SULD.P / SUST.P, which convert through the
 * view's format; so do images declared with a format, which Vulkan requires
 * to match the view's. */
static void read_write(struct xl_ctx *c, const struct spirv_inst *inst)
{
   bool write = inst->opcode == SPIRV_OP_ImageWrite;
   struct image_info info;
   struct image_operands ops;
   uint32_t tex;
   if (!image_operand(c, xl_word(c, inst, 0), &tex, NULL, &info) ||
       !parse_image_operands(c, inst, write ? 3 : 2, &ops))
      return;
   if (info.subpass) {
      const uint32_t allowed =
          SPIRV_IMAGE_OPERANDS_NonPrivateTexel | SPIRV_IMAGE_OPERANDS_VolatileTexel |
          SPIRV_IMAGE_OPERANDS_MakeTexelVisible | (info.ms ? SPIRV_IMAGE_OPERANDS_Sample : 0u);
      if (write || (ops.mask & ~allowed) || info.ms != (ops.sample != 0)) {
         xl_fail(c, "unsupported: subpass data %s",
                 write                          ? "written"
                 : info.ms != (ops.sample != 0) ? "read without its Sample (or with one, not MS)"
                                                : "with image operands");
         return;
      }
      read_subpass(c, inst, &info, tex, ops.sample);
      return;
   }
   if (info.ms) {
      xl_fail(c, "unsupported: multisampled storage images (shaderStorageImageMultisample)");
      return;
   }
   if (ops.mask &
       (SPIRV_IMAGE_OPERANDS_Lod | SPIRV_IMAGE_OPERANDS_Offset | SPIRV_IMAGE_OPERANDS_ConstOffset |
        SPIRV_IMAGE_OPERANDS_Grad | SPIRV_IMAGE_OPERANDS_Bias | SPIRV_IMAGE_OPERANDS_Sample)) {
      xl_fail(c, "unsupported image operands 0x%x on a storage image", ops.mask);
      return;
   }
   struct coord_vec v = {{0}, 0};
   push_texel_coords(c, &v, &info, xl_get(c, xl_word(c, inst, 1)));
   if (c->failed)
      return;
   if (!write) {
      uint32_t quad = ir_new_vreg(c->ir, 4);
      emit_tex(c, PPU_OP_SULD, &info, quad, tex, 0, &v)->f.subop = PPU_SUFMT_P;
      set_result(c, inst, quad);
      return;
   }
   struct xl_val texel = xl_get(c, xl_word(c, inst, 2));
   struct coord_vec data = {{0}, 0};
   if (texel.count > 4) {
      xl_fail(c, "a texel of more than 4 components");
      return;
   }
   push_components(c, &data, texel, 0, texel.count);
   while (data.n < 4 && !c->failed)
      push_word(c, &data, zero_word(c));
   uint32_t quad = make_group(c, &data);
   if (c->failed)
      return;
   emit_tex(c, PPU_OP_SUST, &info, 0, tex, quad, &v)->f.subop = PPU_SUFMT_P;
}

/* OpImageQuery*: TXQ. SIZE takes the level in rc (RZ reads level 0, all
 * OpImageQuerySize of a multisampled image has: TXQ gives its pixel size). */
static void query(struct xl_ctx *c, const struct spirv_inst *inst)
{
   struct image_info info;
   uint32_t tex;
   if (!image_operand(c, xl_word(c, inst, 0), &tex, NULL, &info))
      return;
   struct coord_vec v = {{0}, 0};
   enum ppu_txq q = PPU_TXQ_SIZE;
   if (inst->opcode == SPIRV_OP_ImageQuerySizeLod)
      push_components(c, &v, xl_get(c, xl_word(c, inst, 1)), 0, 1);
   else if (inst->opcode == SPIRV_OP_ImageQueryLevels)
      q = PPU_TXQ_LEVELS;
   else if (inst->opcode == SPIRV_OP_ImageQuerySamples)
      q = PPU_TXQ_SAMPLES;
   if (c->failed)
      return;
   uint32_t quad = ir_new_vreg(c->ir, 4);
   emit_tex(c, PPU_OP_TXQ, &info, quad, tex, 0, &v)->f.subop = (uint8_t)q;
   set_result(c, inst, quad);
}

/* OpImageTexelPointer: remembers the header and coordinate for the atomics
 * that use it (xl_image_atomic). */
static void texel_pointer(struct xl_ctx *c, const struct spirv_inst *inst)
{
   const struct xl_ptr *img = xl_ptr_of(c, xl_word(c, inst, 0));
   if (!img)
      return;
   struct image_info info;
   if (img->kind != XL_PTR_IMAGE || img->binding) {
      xl_fail(c, "%%%u is not an image variable or an element of an image array",
              xl_word(c, inst, 0));
      return;
   }
   if (!image_info(c, img->type, &info))
      return;
   if (info.ms) {
      xl_fail(c, "unsupported: multisampled storage images (shaderStorageImageMultisample)");
      return;
   }
   if (!is_zero_constant(c, xl_word(c, inst, 2))) {
      xl_fail(c, "unsupported: a Sample other than 0 (multisampled images)");
      return;
   }
   const struct spirv_type *pt = spirv_type(c->m, inst->result_type);
   struct xl_ptr p;
   memset(&p, 0, sizeof(p));
   p.kind = XL_PTR_TEXEL;
   p.base = img->base;
   p.image_type = img->type;
   p.type = pt && pt->kind == SPIRV_TYPE_POINTER ? pt->u.pointer.pointee_type : 0;
   p.texel = xl_get(c, xl_word(c, inst, 1));
   p.component = UINT32_MAX;
   p.set = !c->failed;
   c->scope->ptrs[inst->result_id] = p;
}

static bool texel_coords(struct xl_ctx *c, const struct xl_ptr *p, struct image_info *info,
                         struct coord_vec *v)
{
   if (!image_info(c, p->image_type, info))
      return false;
   push_texel_coords(c, v, info, p->texel);
   return !c->failed;
}

void xl_image_atomic(struct xl_ctx *c, const struct xl_ptr *p, enum ppu_atom_op op,
                     enum ppu_type ty, uint32_t dst, uint32_t value, uint32_t compare)
{
   struct image_info info;
   struct coord_vec v = {{0}, 0};
   if (!texel_coords(c, p, &info, &v))
      return;
   if (ty != PPU_TYPE_U32 && ty != PPU_TYPE_S32 && ty != PPU_TYPE_F32) {
      xl_fail(c, "unsupported: 64-bit image atomics");
      return;
   }
   if (ty == PPU_TYPE_F32 && op != PPU_ATOM_EXCH) {
      xl_fail(c, "unsupported: float image atomics other than exchange");
      return;
   }
   /* CAS takes the value in rb and the comparator in rb+1. */
   struct coord_vec operand = {{value, compare}, op == PPU_ATOM_CAS ? 2u : 1u};
   uint32_t b = make_group(c, &operand);
   struct ir_insn *i = emit_tex(c, PPU_OP_SUATOM, &info, dst, p->base, b, &v);
   i->f.subop = (uint8_t)op;
   i->f.type = (uint8_t)ty; /* the atomic's, not the image's: SMin/SMax compare signed */
}

void xl_image_atomic_load_store(struct xl_ctx *c, const struct xl_ptr *p, uint32_t reg,
                                bool is_store)
{
   struct image_info info;
   struct coord_vec v = {{0}, 0};
   if (!texel_coords(c, p, &info, &v))
      return;
   if (is_store) {
      /* An exchange whose old value nobody reads: atomic, unlike SUST. */
      emit_tex(c, PPU_OP_SUATOM, &info, ir_new_vreg(c->ir, 1), p->base, reg, &v)->f.subop =
          PPU_ATOM_EXCH;
      return;
   }
   uint32_t quad = ir_new_vreg(c->ir, 4);
   emit_tex(c, PPU_OP_SULD, &info, quad, p->base, 0, &v)->f.subop = PPU_SUFMT_P;
   xl_op(c, PPU_OP_MOV, PPU_TYPE_U32, reg, 0, quad)->part[2] = 0;
}

/* OpSampledImage pairs the two header VAs; OpImage takes the first. */
static void combine(struct xl_ctx *c, const struct spirv_inst *inst)
{
   struct xl_val v = xl_new_val(c, inst->result_type);
   struct xl_val image = xl_get(c, xl_word(c, inst, 0));
   if (c->failed)
      return;
   xl_mov(c, xl_comp(c, v, 0), xl_comp(c, image, 0), 2);
   if (inst->opcode == SPIRV_OP_SampledImage)
      xl_mov(c, xl_comp(c, v, 1), xl_comp(c, xl_get(c, xl_word(c, inst, 1)), 0), 2);
   xl_set(c, inst->result_id, v);
}

bool xl_translate_image(struct xl_ctx *c, const struct spirv_inst *inst)
{
   switch (inst->opcode) {
   case SPIRV_OP_SampledImage:
   case SPIRV_OP_Image:
      combine(c, inst);
      return true;
   case SPIRV_OP_ImageSampleImplicitLod:
   case SPIRV_OP_ImageSampleExplicitLod:
   case SPIRV_OP_ImageSampleDrefImplicitLod:
   case SPIRV_OP_ImageSampleDrefExplicitLod:
   case SPIRV_OP_ImageSampleProjImplicitLod:
   case SPIRV_OP_ImageSampleProjExplicitLod:
   case SPIRV_OP_ImageSampleProjDrefImplicitLod:
   case SPIRV_OP_ImageSampleProjDrefExplicitLod:
      sample(c, inst);
      return true;
   case SPIRV_OP_ImageFetch:
      fetch(c, inst);
      return true;
   case SPIRV_OP_ImageGather:
   case SPIRV_OP_ImageDrefGather:
      gather(c, inst);
      return true;
   case SPIRV_OP_ImageRead:
   case SPIRV_OP_ImageWrite:
      read_write(c, inst);
      return true;
   case SPIRV_OP_ImageQuerySize:
   case SPIRV_OP_ImageQuerySizeLod:
   case SPIRV_OP_ImageQueryLevels:
   case SPIRV_OP_ImageQuerySamples:
      query(c, inst);
      return true;
   case SPIRV_OP_ImageTexelPointer:
      texel_pointer(c, inst);
      return true;
   default:
      return false;
   }
}
