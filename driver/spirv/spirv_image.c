/* Operand and result checks of the image instructions (SPIR-V spec 3.49.10
 * "Image Instructions"). The compiler turns them into texture instructions
 * whose operands are fixed register groups (docs/isa.md "Textures"), so an
 * image operand that is not an image, or a result that is not the vector
 * the instruction produces, would otherwise surface as a confusing failure
 * deep in translation; here it is a located message. As elsewhere in the
 * parser, operands not defined yet are skipped. */
#include "spirv_internal.h"

/* What an operand or result must be. */
enum img_kind {
   IMG_ANY,           /* not checked here */
   IMG_NONE,          /* no result */
   IMG_IMAGE,         /* OpTypeImage */
   IMG_SAMPLED_IMAGE, /* OpTypeSampledImage */
   IMG_SAMPLER,       /* OpTypeSampler */
   IMG_IMAGE_POINTER, /* a pointer to OpTypeImage */
   IMG_VEC4,          /* 4 components of a 32-bit int or float */
   IMG_SCALAR,        /* a 32-bit int or float scalar */
   IMG_INT,           /* a 32-bit integer scalar or vector (sizes, levels) */
   IMG_COORD,         /* a 32-bit int or float scalar or vector */
};

struct img_rule {
   uint32_t opcode;
   enum img_kind result;
   enum img_kind operands[3];
};

static const struct img_rule rules[] = {
    {SPIRV_OP_SampledImage, IMG_SAMPLED_IMAGE, {IMG_IMAGE, IMG_SAMPLER}},
    {SPIRV_OP_Image, IMG_IMAGE, {IMG_SAMPLED_IMAGE}},
    {SPIRV_OP_ImageSampleImplicitLod, IMG_VEC4, {IMG_SAMPLED_IMAGE, IMG_COORD}},
    {SPIRV_OP_ImageSampleExplicitLod, IMG_VEC4, {IMG_SAMPLED_IMAGE, IMG_COORD}},
    {SPIRV_OP_ImageSampleProjImplicitLod, IMG_VEC4, {IMG_SAMPLED_IMAGE, IMG_COORD}},
    {SPIRV_OP_ImageSampleProjExplicitLod, IMG_VEC4, {IMG_SAMPLED_IMAGE, IMG_COORD}},
    {SPIRV_OP_ImageSampleDrefImplicitLod, IMG_SCALAR, {IMG_SAMPLED_IMAGE, IMG_COORD, IMG_SCALAR}},
    {SPIRV_OP_ImageSampleDrefExplicitLod, IMG_SCALAR, {IMG_SAMPLED_IMAGE, IMG_COORD, IMG_SCALAR}},
    {SPIRV_OP_ImageSampleProjDrefImplicitLod,
     IMG_SCALAR,
     {IMG_SAMPLED_IMAGE, IMG_COORD, IMG_SCALAR}},
    {SPIRV_OP_ImageSampleProjDrefExplicitLod,
     IMG_SCALAR,
     {IMG_SAMPLED_IMAGE, IMG_COORD, IMG_SCALAR}},
    {SPIRV_OP_ImageFetch, IMG_VEC4, {IMG_IMAGE, IMG_COORD}},
    {SPIRV_OP_ImageGather, IMG_VEC4, {IMG_SAMPLED_IMAGE, IMG_COORD, IMG_SCALAR}},
    {SPIRV_OP_ImageDrefGather, IMG_VEC4, {IMG_SAMPLED_IMAGE, IMG_COORD, IMG_SCALAR}},
    {SPIRV_OP_ImageRead, IMG_ANY, {IMG_IMAGE, IMG_COORD}},
    {SPIRV_OP_ImageWrite, IMG_NONE, {IMG_IMAGE, IMG_COORD, IMG_ANY}},
    {SPIRV_OP_ImageQuerySizeLod, IMG_INT, {IMG_IMAGE, IMG_SCALAR}},
    {SPIRV_OP_ImageQuerySize, IMG_INT, {IMG_IMAGE}},
    {SPIRV_OP_ImageQueryLevels, IMG_INT, {IMG_IMAGE}},
    {SPIRV_OP_ImageQuerySamples, IMG_INT, {IMG_IMAGE}},
    {SPIRV_OP_ImageTexelPointer, IMG_ANY, {IMG_IMAGE_POINTER, IMG_COORD, IMG_SCALAR}},
};

static const char *const kind_names[] = {
    [IMG_ANY] = "anything",
    [IMG_NONE] = "nothing",
    [IMG_IMAGE] = "an OpTypeImage",
    [IMG_SAMPLED_IMAGE] = "an OpTypeSampledImage",
    [IMG_SAMPLER] = "an OpTypeSampler",
    [IMG_IMAGE_POINTER] = "a pointer to an OpTypeImage",
    [IMG_VEC4] = "a vector of 4 32-bit integers or floats",
    [IMG_SCALAR] = "a 32-bit integer or float scalar",
    [IMG_INT] = "a 32-bit integer scalar or vector",
    [IMG_COORD] = "a 32-bit integer or float scalar or vector",
};

static bool is_32bit_numeric(const struct spirv_module *m, uint32_t type, bool int_only)
{
   const struct spirv_type *t = spirv_type(m, type);
   if (!t || (t->kind != SPIRV_TYPE_INT && (int_only || t->kind != SPIRV_TYPE_FLOAT)))
      return false;
   return t->u.scalar.width == 32;
}

static bool type_matches(const struct spirv_module *m, uint32_t type, enum img_kind kind)
{
   const struct spirv_type *t = spirv_type(m, type);
   if (!t)
      return false;
   uint32_t n = t->kind == SPIRV_TYPE_VECTOR ? t->u.vector.component_count : 1;
   uint32_t scalar = t->kind == SPIRV_TYPE_VECTOR ? t->u.vector.component_type : type;
   switch (kind) {
   case IMG_ANY:
      return true;
   case IMG_NONE:
      return false;
   case IMG_IMAGE:
      return t->kind == SPIRV_TYPE_IMAGE;
   case IMG_SAMPLED_IMAGE:
      return t->kind == SPIRV_TYPE_SAMPLED_IMAGE;
   case IMG_SAMPLER:
      return t->kind == SPIRV_TYPE_SAMPLER;
   case IMG_IMAGE_POINTER: {
      const struct spirv_type *pointee =
          t->kind == SPIRV_TYPE_POINTER ? spirv_type(m, t->u.pointer.pointee_type) : NULL;
      return pointee && pointee->kind == SPIRV_TYPE_IMAGE;
   }
   case IMG_VEC4:
      return t->kind == SPIRV_TYPE_VECTOR && n == 4 && is_32bit_numeric(m, scalar, false);
   case IMG_SCALAR:
      return t->kind != SPIRV_TYPE_VECTOR && is_32bit_numeric(m, type, false);
   case IMG_INT:
      return is_32bit_numeric(m, scalar, true);
   case IMG_COORD:
      return is_32bit_numeric(m, scalar, false);
   }
   return false;
}

/* OpImage's result is the sampled image's image type (spec OpImage). */
static bool check_image_extract(struct spirv_parser *p, const struct spirv_inst *inst)
{
   const struct spirv_type *si = spirv_type(p->module, spirv_operand_type(p->module, inst, 0));
   if (si && si->kind == SPIRV_TYPE_SAMPLED_IMAGE &&
       si->u.sampled_image.image_type != inst->result_type)
      return spirv_fail(p, "result type %%%u is not the sampled image's image type %%%u",
                        inst->result_type, si->u.sampled_image.image_type);
   return true;
}

static bool check_rule(struct spirv_parser *p, const struct spirv_inst *inst,
                       const struct img_rule *r)
{
   const struct spirv_module *m = p->module;
   if (r->result != IMG_NONE && r->result != IMG_ANY &&
       !type_matches(m, inst->result_type, r->result))
      return spirv_fail(p, "result type %%%u is not %s", inst->result_type, kind_names[r->result]);
   for (uint32_t i = 0; i < 3 && r->operands[i] != IMG_ANY && r->operands[i] != IMG_NONE; i++) {
      if (i >= inst->operand_count)
         return spirv_fail(p, "missing operand %u", i + 1);
      const uint32_t type = spirv_operand_type(m, inst, i);
      if (type != SPIRV_NO_ID && !type_matches(m, type, r->operands[i]))
         return spirv_fail(p, "operand %u (%%%u) has type %%%u, which is not %s", i + 1,
                           spirv_operand_word_at(m, inst, i), type, kind_names[r->operands[i]]);
   }
   if (inst->opcode == SPIRV_OP_Image)
      return check_image_extract(p, inst);
   return true;
}

bool spirv_check_image(struct spirv_parser *p, const struct spirv_inst *inst)
{
   for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
      if (rules[i].opcode == inst->opcode)
         return check_rule(p, inst, &rules[i]);
   return true;
}
