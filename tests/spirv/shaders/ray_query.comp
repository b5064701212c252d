#version 460
#extension GL_EXT_ray_query : require
#extension GL_EXT_ray_tracing : require
#extension GL_EXT_ray_flags_primitive_culling : require
// Every SPV_KHR_ray_query instruction: both hit records of each getter, an
// array of acceleration structures, a ray query array, a ray query passed to
// a function, and an acceleration structure made from a device address.
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) uniform accelerationStructureEXT tlas[2];
layout(set = 0, binding = 1, std430) buffer Out {
  uvec2 address;
  uint o[];
};

uint candidate_kind(rayQueryEXT q) { return rayQueryGetIntersectionTypeEXT(q, false); }

void main() {
  uint i = gl_GlobalInvocationID.x;
  rayQueryEXT q[2];
  rayQueryInitializeEXT(q[0], tlas[i & 1u], gl_RayFlagsNoneEXT, 0xFF, vec3(0.0), 0.0,
                        vec3(0.0, 0.0, 1.0), 100.0);
  rayQueryInitializeEXT(q[1], accelerationStructureEXT(address),
                        gl_RayFlagsOpaqueEXT | gl_RayFlagsSkipAABBEXT, 0x0F, vec3(1.0), 0.5,
                        vec3(1.0, 0.0, 0.0), 50.0);
  while (rayQueryProceedEXT(q[0])) {
    if (candidate_kind(q[0]) == gl_RayQueryCandidateIntersectionAABBEXT) {
      if (rayQueryGetIntersectionCandidateAABBOpaqueEXT(q[0]))
        rayQueryGenerateIntersectionEXT(q[0], 2.0);
    } else {
      rayQueryConfirmIntersectionEXT(q[0]);
    }
  }
  rayQueryTerminateEXT(q[1]);
  uint b = i * 64;
  // The Intersection operand must be a constant: one block per hit record.
#define HIT_GETTERS(c, committed)                                                                  \
  o[c + 0] = rayQueryGetIntersectionTypeEXT(q[0], committed);                                      \
  o[c + 1] = floatBitsToUint(rayQueryGetIntersectionTEXT(q[0], committed));                        \
  o[c + 2] = uint(rayQueryGetIntersectionInstanceCustomIndexEXT(q[0], committed));                 \
  o[c + 3] = uint(rayQueryGetIntersectionInstanceIdEXT(q[0], committed));                          \
  o[c + 4] = rayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetEXT(q[0], committed);    \
  o[c + 5] = uint(rayQueryGetIntersectionGeometryIndexEXT(q[0], committed));                       \
  o[c + 6] = uint(rayQueryGetIntersectionPrimitiveIndexEXT(q[0], committed));                      \
  o[c + 7] = packHalf2x16(rayQueryGetIntersectionBarycentricsEXT(q[0], committed));                \
  o[c + 8] = rayQueryGetIntersectionFrontFaceEXT(q[0], committed) ? 1u : 0u;                       \
  o[c + 9] = floatBitsToUint(rayQueryGetIntersectionObjectRayDirectionEXT(q[0], committed).x);     \
  o[c + 10] = floatBitsToUint(rayQueryGetIntersectionObjectRayOriginEXT(q[0], committed).y);       \
  o[c + 11] = floatBitsToUint(rayQueryGetIntersectionObjectToWorldEXT(q[0], committed)[3].z);      \
  o[c + 12] = floatBitsToUint(rayQueryGetIntersectionWorldToObjectEXT(q[0], committed)[0].x);
  HIT_GETTERS(b, false)
  HIT_GETTERS(b + 32, true)
  o[b + 13] = floatBitsToUint(rayQueryGetRayTMinEXT(q[1]));
  o[b + 14] = rayQueryGetRayFlagsEXT(q[1]);
  o[b + 15] = floatBitsToUint(rayQueryGetWorldRayDirectionEXT(q[1]).x);
  o[b + 16] = floatBitsToUint(rayQueryGetWorldRayOriginEXT(q[1]).z);
}
