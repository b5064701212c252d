/* Ray queries (SPV_KHR_ray_query) on the TTU (translate.h). A ray query
 * variable is a PPU_RAY_QUERY_BYTES object in local memory
 * (hw/include/ppu/ray_query.h, allocated by translate_memory.c and kept out
 * of mem2reg); the shader writes the ray with ST.LOCAL, drives traversal
 * with TTU instructions whose operand a is the object's local offset, and
 * reads results with LD.LOCAL. Only the instance matrices live elsewhere:
 * in the instance record a hit names (hw/include/ppu/bvh.h), read with
 * LD.GLOBAL. docs/compiler.md "Ray queries" has the whole lowering. */
#include <stddef.h>

#include "ppu/bvh.h"
#include "ppu/ray_query.h"
#include "translate.h"

/* The object a ray query pointer operand names. */
static const struct xl_ptr *query_of(struct xl_ctx *c, const struct spirv_inst *inst)
{
   const struct xl_ptr *q = xl_ptr_of(c, xl_word(c, inst, 0));
   if (!q)
      return NULL;
   const struct spirv_type *t = spirv_type(c->m, q->type);
   if (q->kind != XL_PTR_LOCAL || !t || t->kind != SPIRV_TYPE_RAY_QUERY) {
      xl_fail(c, "ray query %%%u is not a Function or Private ray query variable",
              xl_word(c, inst, 0));
      return NULL;
   }
   return q;
}

/* The 32-bit register holding the object's local offset (TTU operand a). */
static uint32_t object_offset(struct xl_ctx *c, const struct xl_ptr *q)
{
   uint32_t r = ir_new_vreg(c->ir, 1), base = q->dyn;
   if (c->frame_base) { /* in a frame (call_frames.h): offsets are from its base */
      base = c->frame_base;
      if (q->dyn) {
         base = ir_new_vreg(c->ir, 1);
         xl_op(c, PPU_OP_IADD, PPU_TYPE_U32, base, q->dyn, c->frame_base);
      }
   }
   if (base)
      xl_op_imm(c, PPU_OP_IADD, PPU_TYPE_U32, r, base, q->offset);
   else
      xl_op_imm(c, PPU_OP_MOV, PPU_TYPE_U32, r, 0, q->offset);
   return r;
}

static void field(struct xl_ctx *c, const struct xl_ptr *q, uint32_t offset, uint32_t reg,
                  bool is_store, enum ppu_type ty)
{
   xl_mem_scalar(c, q, q->dyn, q->offset + offset, reg, is_store, ty);
}

/* TTU.op d, a, b. Neither optimize.c nor regalloc moves, merges or drops
 * it (it is not pure), so it stays between the stores that set up the
 * object and the loads that read its results. */
static void ttu(struct xl_ctx *c, enum ppu_ttu_op op, uint32_t dst, uint32_t object, uint32_t b)
{
   struct ir_insn *i = xl_op(c, PPU_OP_TTU, PPU_TYPE_U32, dst, object, b);
   i->f.subop = (uint8_t)op;
}

static void initialize(struct xl_ctx *c, const struct spirv_inst *inst, const struct xl_ptr *q)
{
   struct xl_val accel = xl_get(c, xl_word(c, inst, 1));
   struct xl_val flags = xl_get(c, xl_word(c, inst, 2));
   struct xl_val cull = xl_get(c, xl_word(c, inst, 3));
   struct xl_val origin = xl_get(c, xl_word(c, inst, 4));
   struct xl_val tmin = xl_get(c, xl_word(c, inst, 5));
   struct xl_val dir = xl_get(c, xl_word(c, inst, 6));
   struct xl_val tmax = xl_get(c, xl_word(c, inst, 7));
   if (c->failed)
      return;
   field(c, q, PPU_RQ_OFFSET_TLAS, xl_comp(c, accel, 0), true, PPU_TYPE_U64);
   field(c, q, PPU_RQ_OFFSET_FLAGS, xl_comp(c, flags, 0), true, PPU_TYPE_U32);
   field(c, q, PPU_RQ_OFFSET_CULL_MASK, xl_comp(c, cull, 0), true, PPU_TYPE_U32);
   for (uint32_t k = 0; k < 3; k++) {
      field(c, q, PPU_RQ_OFFSET_ORIGIN + 4 * k, xl_comp(c, origin, k), true, PPU_TYPE_U32);
      field(c, q, PPU_RQ_OFFSET_DIRECTION + 4 * k, xl_comp(c, dir, k), true, PPU_TYPE_U32);
   }
   field(c, q, PPU_RQ_OFFSET_TMIN, xl_comp(c, tmin, 0), true, PPU_TYPE_U32);
   field(c, q, PPU_RQ_OFFSET_TMAX, xl_comp(c, tmax, 0), true, PPU_TYPE_U32);
   ttu(c, PPU_TTU_INIT, 0, object_offset(c, q), 0);
}

/* The hit record an Intersection operand selects (a constant 0/1: the front
 * end checked it). */
static uint32_t hit_offset(struct xl_ctx *c, const struct spirv_inst *inst)
{
   uint64_t which = 0;
   spirv_constant_scalar(c->m, xl_word(c, inst, 1), &which);
   return which ? PPU_RQ_OFFSET_COMMITTED : PPU_RQ_OFFSET_CANDIDATE;
}

/* A result made of consecutive 32-bit fields of the object. */
static void load_fields(struct xl_ctx *c, const struct spirv_inst *inst, const struct xl_ptr *q,
                        uint32_t offset)
{
   struct xl_val v = xl_new_val(c, inst->result_type);
   for (uint32_t k = 0; k < v.count && !c->failed; k++)
      field(c, q, offset + 4 * k, xl_comp(c, v, k), false, PPU_TYPE_U32);
   xl_set(c, inst->result_id, v);
}

/* FrontFace and CandidateAABBOpaque: the TTU writes 1 for true; any
 * nonzero word is taken as true so the result is a proper 0/1 bool. */
static void load_bool(struct xl_ctx *c, const struct spirv_inst *inst, const struct xl_ptr *q,
                      uint32_t offset)
{
   struct xl_val v = xl_new_val(c, inst->result_type);
   uint32_t word = ir_new_vreg(c->ir, 1);
   field(c, q, offset, word, false, PPU_TYPE_U32);
   xl_bool_to_p0(c, word);
   xl_mov(c, xl_comp(c, v, 0), xl_p0_to_bool(c), 1);
   xl_set(c, inst->result_id, v);
}

/* ObjectToWorld / WorldToObject: a 4-column, 3-row SPIR-V matrix read from
 * the row-major 3x4 matrix of the hit's instance record, leaf c * 3 + r =
 * M[r][c]. Without a hit the record address is 0 (TTU.INIT clears the
 * hits); reading it would fault, so the result is zero instead (the value
 * is undefined there, SPIR-V spec OpRayQueryGetIntersectionObjectToWorldKHR). */
static void load_matrix(struct xl_ctx *c, const struct spirv_inst *inst, const struct xl_ptr *q,
                        uint32_t matrix_offset)
{
   struct xl_val v = xl_new_val(c, inst->result_type);
   if (c->failed || v.count != 12) {
      xl_fail(c, "internal: a ray query matrix of %u values", v.count);
      return;
   }
   uint32_t record = ir_new_vreg(c->ir, 2);
   field(c, q, hit_offset(c, inst) + offsetof(struct ppu_ray_query_hit, instance_address), record,
         false, PPU_TYPE_U64);
   struct ir_insn *i = xl_op_imm(c, PPU_OP_ISETP, PPU_TYPE_U64, 0, record, 0);
   i->f.subop = PPU_CMP_NE;
   i->f.pd = 0;
   for (uint32_t col = 0; col < 4; col++) {
      for (uint32_t row = 0; row < 3; row++) {
         uint32_t d = xl_comp(c, v, col * 3 + row);
         xl_op(c, PPU_OP_MOV, PPU_TYPE_U32, d, 0, 0)->f.rb = PPU_RZ;
         i = xl_op(c, PPU_OP_LD, PPU_TYPE_U32, d, record, 0);
         i->f.mode = PPU_SPACE_GLOBAL;
         i->f.imm = matrix_offset + (row * 4 + col) * 4;
         i->f.guard = 0; /* P0: there is an instance record */
      }
   }
   xl_set(c, inst->result_id, v);
}

/* TriangleVertexPositions: v0, v1, v2 (leaves 3 * vertex + axis) from the
 * hit's leaf record, whose first 36 bytes are the vertices as the
 * application gave them (after its geometry transform, in index order:
 * driver/bvh keeps both). Without a hit, or for an AABB, the value is
 * undefined (SPIR-V spec); an address of 0 (no hit since TTU.INIT) would
 * fault, so the result is zero instead. */
static void load_positions(struct xl_ctx *c, const struct spirv_inst *inst, const struct xl_ptr *q)
{
   struct xl_val v = xl_new_val(c, inst->result_type);
   if (c->failed || v.count != 9) {
      xl_fail(c, "internal: triangle vertex positions of %u values", v.count);
      return;
   }
   uint32_t record = ir_new_vreg(c->ir, 2);
   field(c, q, hit_offset(c, inst) + offsetof(struct ppu_ray_query_hit, primitive_address), record,
         false, PPU_TYPE_U64);
   struct ir_insn *i = xl_op_imm(c, PPU_OP_ISETP, PPU_TYPE_U64, 0, record, 0);
   i->f.subop = PPU_CMP_NE;
   i->f.pd = 0;
   for (uint32_t k = 0; k < 9; k++) {
      uint32_t d = xl_comp(c, v, k);
      xl_op(c, PPU_OP_MOV, PPU_TYPE_U32, d, 0, 0)->f.rb = PPU_RZ;
      i = xl_op(c, PPU_OP_LD, PPU_TYPE_U32, d, record, 0);
      i->f.mode = PPU_SPACE_GLOBAL;
      i->f.imm = offsetof(struct ppu_bvh_triangle, v0) + 4 * k;
      i->f.guard = 0; /* P0: there is a record */
   }
   xl_set(c, inst->result_id, v);
}

/* OpConvertUToAccelerationStructureKHR: the address as a 64-bit value, from
 * a uint64 or a uvec2 (low word first). */
static void convert_to_accel(struct xl_ctx *c, const struct spirv_inst *inst)
{
   struct xl_val a = xl_get(c, xl_word(c, inst, 0));
   struct xl_val d = xl_new_val(c, inst->result_type);
   if (c->failed)
      return;
   uint32_t dst = xl_comp(c, d, 0);
   if (a.count == 1) {
      xl_mov(c, dst, xl_comp(c, a, 0), 2);
   } else {
      /* (hi << 32) + lo, with IMADW's zero-extending 32 x 32 + 64. */
      uint32_t hi = ir_new_vreg(c->ir, 2);
      xl_op(c, PPU_OP_MOV, PPU_TYPE_U32, hi, 0, xl_comp(c, a, 1));
      xl_op_imm(c, PPU_OP_SHL, PPU_TYPE_U64, hi, hi, 32);
      xl_op_imm(c, PPU_OP_IMADW, PPU_TYPE_U32, dst, xl_comp(c, a, 0), 1)->src[2] = hi;
   }
   xl_set(c, inst->result_id, d);
}

/* The SPV_KHR_ray_query instructions that take a ray query operand: two
 * runs of opcodes in the grammar. */
static bool takes_ray_query(uint32_t opcode)
{
   return (opcode >= SPIRV_OP_RayQueryInitializeKHR && opcode <= SPIRV_OP_RayQueryProceedKHR) ||
          opcode == SPIRV_OP_RayQueryGetIntersectionTypeKHR ||
          (opcode >= SPIRV_OP_RayQueryGetRayTMinKHR &&
           opcode <= SPIRV_OP_RayQueryGetIntersectionWorldToObjectKHR) ||
          opcode == SPIRV_OP_RayQueryGetIntersectionTriangleVertexPositionsKHR;
}

bool xl_translate_ray_query(struct xl_ctx *c, const struct spirv_inst *inst)
{
   if (inst->opcode == SPIRV_OP_ConvertUToAccelerationStructureKHR) {
      convert_to_accel(c, inst);
      return true;
   }
   if (!takes_ray_query(inst->opcode))
      return false;
   const struct xl_ptr *q = query_of(c, inst);
   if (!q)
      return true;
#define HIT_FIELD(name) (hit_offset(c, inst) + offsetof(struct ppu_ray_query_hit, name))
   switch (inst->opcode) {
   case SPIRV_OP_RayQueryInitializeKHR:
      initialize(c, inst, q);
      break;
   case SPIRV_OP_RayQueryTerminateKHR:
      ttu(c, PPU_TTU_TERMINATE, 0, object_offset(c, q), 0);
      break;
   case SPIRV_OP_RayQueryConfirmIntersectionKHR:
      ttu(c, PPU_TTU_CONFIRM, 0, object_offset(c, q), 0);
      break;
   case SPIRV_OP_RayQueryGenerateIntersectionKHR: {
      struct xl_val t = xl_get(c, xl_word(c, inst, 1));
      if (!c->failed)
         ttu(c, PPU_TTU_GENERATE, 0, object_offset(c, q), xl_comp(c, t, 0));
      break;
   }
   case SPIRV_OP_RayQueryProceedKHR: {
      /* d is 0 or 1 (ray_query.h), which is already this compiler's bool. */
      struct xl_val v = xl_new_val(c, inst->result_type);
      if (!c->failed)
         ttu(c, PPU_TTU_PROCEED, xl_comp(c, v, 0), object_offset(c, q), 0);
      xl_set(c, inst->result_id, v);
      break;
   }
   case SPIRV_OP_RayQueryGetRayTMinKHR:
      load_fields(c, inst, q, PPU_RQ_OFFSET_TMIN);
      break;
   case SPIRV_OP_RayQueryGetRayFlagsKHR:
      load_fields(c, inst, q, PPU_RQ_OFFSET_FLAGS);
      break;
   case SPIRV_OP_RayQueryGetWorldRayOriginKHR:
      load_fields(c, inst, q, PPU_RQ_OFFSET_ORIGIN);
      break;
   case SPIRV_OP_RayQueryGetWorldRayDirectionKHR:
      load_fields(c, inst, q, PPU_RQ_OFFSET_DIRECTION);
      break;
   case SPIRV_OP_RayQueryGetIntersectionTypeKHR:
      load_fields(c, inst, q, HIT_FIELD(type));
      break;
   case SPIRV_OP_RayQueryGetIntersectionTKHR:
      load_fields(c, inst, q, HIT_FIELD(t));
      break;
   case SPIRV_OP_RayQueryGetIntersectionInstanceCustomIndexKHR:
      load_fields(c, inst, q, HIT_FIELD(instance_custom_index));
      break;
   case SPIRV_OP_RayQueryGetIntersectionInstanceIdKHR:
      load_fields(c, inst, q, HIT_FIELD(instance_id));
      break;
   case SPIRV_OP_RayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetKHR:
      load_fields(c, inst, q, HIT_FIELD(sbt_offset));
      break;
   case SPIRV_OP_RayQueryGetIntersectionGeometryIndexKHR:
      load_fields(c, inst, q, HIT_FIELD(geometry_index));
      break;
   case SPIRV_OP_RayQueryGetIntersectionPrimitiveIndexKHR:
      load_fields(c, inst, q, HIT_FIELD(primitive_index));
      break;
   case SPIRV_OP_RayQueryGetIntersectionBarycentricsKHR:
      load_fields(c, inst, q, HIT_FIELD(barycentrics));
      break;
   case SPIRV_OP_RayQueryGetIntersectionObjectRayOriginKHR:
      load_fields(c, inst, q, HIT_FIELD(object_origin));
      break;
   case SPIRV_OP_RayQueryGetIntersectionObjectRayDirectionKHR:
      load_fields(c, inst, q, HIT_FIELD(object_direction));
      break;
   case SPIRV_OP_RayQueryGetIntersectionFrontFaceKHR:
      load_bool(c, inst, q, HIT_FIELD(front_face));
      break;
   case SPIRV_OP_RayQueryGetIntersectionCandidateAABBOpaqueKHR:
      /* No Intersection operand: a property of the candidate only. */
      load_bool(c, inst, q,
                PPU_RQ_OFFSET_CANDIDATE + offsetof(struct ppu_ray_query_hit, aabb_opaque));
      break;
   case SPIRV_OP_RayQueryGetIntersectionObjectToWorldKHR:
      load_matrix(c, inst, q, offsetof(struct ppu_bvh_instance, object_to_world));
      break;
   case SPIRV_OP_RayQueryGetIntersectionWorldToObjectKHR:
      load_matrix(c, inst, q, offsetof(struct ppu_bvh_instance, world_to_object));
      break;
   case SPIRV_OP_RayQueryGetIntersectionTriangleVertexPositionsKHR:
      load_positions(c, inst, q);
      break;
   default:
      break;
   }
#undef HIT_FIELD
   return true;
}
