/* Operand and result checks of the SPV_KHR_ray_query instructions (SPIR-V
 * spec 3.49.24 "Ray Query Instructions", and OpConvertUToAccelerationStructureKHR
 * in 3.49.11). The compiler lowers these to fixed offsets of the ray-query
 * object (hw/include/ppu/ray_query.h), so a wrong operand type would otherwise
 * become a wrong-sized load or store there; catching it here gives a located
 * message instead. As elsewhere in the parser, operands not defined yet (a
 * block placed before its dominator) are skipped. */
#include "spirv_internal.h"

/* What an operand or result must be. */
enum rq_kind {
   RQ_NONE,
   RQ_QUERY,        /* a pointer to OpTypeRayQueryKHR */
   RQ_ACCEL,        /* OpTypeAccelerationStructureKHR */
   RQ_INT32,        /* 32-bit integer scalar */
   RQ_FLOAT32,      /* 32-bit float scalar */
   RQ_BOOL,         /* OpTypeBool */
   RQ_VEC2,         /* 2 x 32-bit float */
   RQ_VEC3,         /* 3 x 32-bit float */
   RQ_MAT4X3,       /* 4 columns of 3 x 32-bit float */
   RQ_VEC3_ARRAY3,  /* an array of 3 vectors of 3 x 32-bit float */
   RQ_INTERSECTION, /* a constant 32-bit integer 0 (candidate) or 1 (committed) */
};

struct rq_rule {
   uint32_t opcode;
   enum rq_kind result;
   enum rq_kind operands[8];
};

#define Q RQ_QUERY
#define I RQ_INTERSECTION
static const struct rq_rule rules[] = {
    {SPIRV_OP_RayQueryInitializeKHR,
     RQ_NONE,
     {Q, RQ_ACCEL, RQ_INT32, RQ_INT32, RQ_VEC3, RQ_FLOAT32, RQ_VEC3, RQ_FLOAT32}},
    {SPIRV_OP_RayQueryTerminateKHR, RQ_NONE, {Q}},
    {SPIRV_OP_RayQueryGenerateIntersectionKHR, RQ_NONE, {Q, RQ_FLOAT32}},
    {SPIRV_OP_RayQueryConfirmIntersectionKHR, RQ_NONE, {Q}},
    {SPIRV_OP_RayQueryProceedKHR, RQ_BOOL, {Q}},
    {SPIRV_OP_RayQueryGetIntersectionTypeKHR, RQ_INT32, {Q, I}},
    {SPIRV_OP_RayQueryGetRayTMinKHR, RQ_FLOAT32, {Q}},
    {SPIRV_OP_RayQueryGetRayFlagsKHR, RQ_INT32, {Q}},
    {SPIRV_OP_RayQueryGetIntersectionTKHR, RQ_FLOAT32, {Q, I}},
    {SPIRV_OP_RayQueryGetIntersectionInstanceCustomIndexKHR, RQ_INT32, {Q, I}},
    {SPIRV_OP_RayQueryGetIntersectionInstanceIdKHR, RQ_INT32, {Q, I}},
    {SPIRV_OP_RayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetKHR, RQ_INT32, {Q, I}},
    {SPIRV_OP_RayQueryGetIntersectionGeometryIndexKHR, RQ_INT32, {Q, I}},
    {SPIRV_OP_RayQueryGetIntersectionPrimitiveIndexKHR, RQ_INT32, {Q, I}},
    {SPIRV_OP_RayQueryGetIntersectionBarycentricsKHR, RQ_VEC2, {Q, I}},
    {SPIRV_OP_RayQueryGetIntersectionFrontFaceKHR, RQ_BOOL, {Q, I}},
    {SPIRV_OP_RayQueryGetIntersectionCandidateAABBOpaqueKHR, RQ_BOOL, {Q}},
    {SPIRV_OP_RayQueryGetIntersectionObjectRayDirectionKHR, RQ_VEC3, {Q, I}},
    {SPIRV_OP_RayQueryGetIntersectionObjectRayOriginKHR, RQ_VEC3, {Q, I}},
    {SPIRV_OP_RayQueryGetWorldRayDirectionKHR, RQ_VEC3, {Q}},
    {SPIRV_OP_RayQueryGetWorldRayOriginKHR, RQ_VEC3, {Q}},
    {SPIRV_OP_RayQueryGetIntersectionObjectToWorldKHR, RQ_MAT4X3, {Q, I}},
    {SPIRV_OP_RayQueryGetIntersectionWorldToObjectKHR, RQ_MAT4X3, {Q, I}},
    {SPIRV_OP_RayQueryGetIntersectionTriangleVertexPositionsKHR, RQ_VEC3_ARRAY3, {Q, I}},
};
#undef Q
#undef I

static const char *const kind_names[] = {
    [RQ_NONE] = "nothing",
    [RQ_QUERY] = "a pointer to OpTypeRayQueryKHR",
    [RQ_ACCEL] = "an OpTypeAccelerationStructureKHR",
    [RQ_INT32] = "a 32-bit integer scalar",
    [RQ_FLOAT32] = "a 32-bit float scalar",
    [RQ_BOOL] = "a bool",
    [RQ_VEC2] = "a vector of 2 32-bit floats",
    [RQ_VEC3] = "a vector of 3 32-bit floats",
    [RQ_MAT4X3] = "a matrix of 4 columns of 3 32-bit floats",
    [RQ_VEC3_ARRAY3] = "an array of 3 vectors of 3 32-bit floats",
    [RQ_INTERSECTION] = "a constant 32-bit integer 0 or 1",
};

static bool is_scalar(const struct spirv_module *m, uint32_t type, enum spirv_type_kind kind,
                      uint32_t width)
{
   const struct spirv_type *t = spirv_type(m, type);
   return t && t->kind == kind && t->u.scalar.width == width;
}

static bool is_float_vector(const struct spirv_module *m, uint32_t type, uint32_t n)
{
   const struct spirv_type *t = spirv_type(m, type);
   return t && t->kind == SPIRV_TYPE_VECTOR && t->u.vector.component_count == n &&
          is_scalar(m, t->u.vector.component_type, SPIRV_TYPE_FLOAT, 32);
}

static bool type_matches(const struct spirv_module *m, uint32_t type, enum rq_kind kind)
{
   const struct spirv_type *t = spirv_type(m, type);
   if (!t)
      return false;
   switch (kind) {
   case RQ_QUERY: {
      const struct spirv_type *pointee =
          t->kind == SPIRV_TYPE_POINTER ? spirv_type(m, t->u.pointer.pointee_type) : NULL;
      return pointee && pointee->kind == SPIRV_TYPE_RAY_QUERY;
   }
   case RQ_ACCEL:
      return t->kind == SPIRV_TYPE_ACCELERATION_STRUCTURE;
   case RQ_INT32:
   case RQ_INTERSECTION:
      return is_scalar(m, type, SPIRV_TYPE_INT, 32);
   case RQ_FLOAT32:
      return is_scalar(m, type, SPIRV_TYPE_FLOAT, 32);
   case RQ_BOOL:
      return t->kind == SPIRV_TYPE_BOOL;
   case RQ_VEC2:
      return is_float_vector(m, type, 2);
   case RQ_VEC3:
      return is_float_vector(m, type, 3);
   case RQ_MAT4X3:
      return t->kind == SPIRV_TYPE_MATRIX && t->u.matrix.column_count == 4 &&
             is_float_vector(m, t->u.matrix.column_type, 3);
   case RQ_VEC3_ARRAY3: {
      if (t->kind != SPIRV_TYPE_ARRAY || !is_float_vector(m, t->u.array.element_type, 3))
         return false;
      const struct spirv_constant *n = spirv_constant(m, t->u.array.length_id);
      return n && !n->is_spec && n->kind == SPIRV_CONSTANT_SCALAR && n->has_value &&
             n->value[0] == 3;
   }
   case RQ_NONE:
      return false;
   }
   return false;
}

/* Intersection selects the candidate or the committed hit at compile time
 * (spec: "must be a constant instruction with a value of 0 or 1"); a spec
 * constant could change after the compiler chose the record, so it is
 * refused too. */
static bool check_intersection(struct spirv_parser *p, uint32_t id)
{
   const struct spirv_constant *k = spirv_constant(p->module, id);
   if (!k || k->is_spec || k->kind != SPIRV_CONSTANT_SCALAR || !k->has_value ||
       !type_matches(p->module, k->type_id, RQ_INTERSECTION))
      return spirv_fail(p, "Intersection %%%u is not %s", id, kind_names[RQ_INTERSECTION]);
   if (k->value[0] > 1)
      return spirv_fail(p, "Intersection %%%u is %llu, not 0 (candidate) or 1 (committed)", id,
                        (unsigned long long)k->value[0]);
   return true;
}

static bool check_rule(struct spirv_parser *p, const struct spirv_inst *inst,
                       const struct rq_rule *r)
{
   const struct spirv_module *m = p->module;
   if (r->result != RQ_NONE && !type_matches(m, inst->result_type, r->result))
      return spirv_fail(p, "result type %%%u is not %s", inst->result_type, kind_names[r->result]);
   for (uint32_t i = 0; i < inst->operand_count && i < 8 && r->operands[i] != RQ_NONE; i++) {
      const uint32_t id = spirv_operand_word_at(m, inst, i);
      if (r->operands[i] == RQ_INTERSECTION) {
         if (!check_intersection(p, id))
            return false;
         continue;
      }
      const uint32_t type = spirv_operand_type(m, inst, i);
      if (type != SPIRV_NO_ID && !type_matches(m, type, r->operands[i]))
         return spirv_fail(p, "operand %u (%%%u) has type %%%u, which is not %s", i + 1, id, type,
                           kind_names[r->operands[i]]);
   }
   return true;
}

/* The address is a 64-bit integer or a vector of two 32-bit integers (spec
 * OpConvertUToAccelerationStructureKHR). */
static bool check_convert(struct spirv_parser *p, const struct spirv_inst *inst)
{
   const struct spirv_module *m = p->module;
   if (!type_matches(m, inst->result_type, RQ_ACCEL))
      return spirv_fail(p, "result type %%%u is not %s", inst->result_type, kind_names[RQ_ACCEL]);
   const uint32_t type = spirv_operand_type(m, inst, 0);
   if (type == SPIRV_NO_ID)
      return true;
   const struct spirv_type *t = spirv_type(m, type);
   bool is_uvec2 = t && t->kind == SPIRV_TYPE_VECTOR && t->u.vector.component_count == 2 &&
                   is_scalar(m, t->u.vector.component_type, SPIRV_TYPE_INT, 32);
   if (!is_scalar(m, type, SPIRV_TYPE_INT, 64) && !is_uvec2)
      return spirv_fail(p,
                        "operand %%%u has type %%%u, which is neither a 64-bit integer nor a "
                        "vector of two 32-bit integers",
                        spirv_operand_word_at(m, inst, 0), type);
   return true;
}

bool spirv_check_ray_query(struct spirv_parser *p, const struct spirv_inst *inst)
{
   if (inst->opcode == SPIRV_OP_ConvertUToAccelerationStructureKHR)
      return check_convert(p, inst);
   for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
      if (rules[i].opcode == inst->opcode)
         return check_rule(p, inst, &rules[i]);
   return true;
}
