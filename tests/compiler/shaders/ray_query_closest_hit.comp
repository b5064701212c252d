#version 460
#extension GL_EXT_ray_query : require
// Closest-hit style traversal: every getter of the committed hit, the ray
// getters, and a candidate loop that confirms non-opaque triangles when the
// ray asks for it (lanes of a warp take different numbers of iterations).
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) uniform accelerationStructureEXT tlas;
struct Ray {
  vec3 origin;
  float tmin;
  vec3 dir;
  float tmax;
  uint flags;
  uint confirm;
  uint cull_mask;
  uint pad;
};
layout(set = 0, binding = 1, std430) readonly buffer Rays { Ray rays[]; };
layout(set = 0, binding = 2, std430) writeonly buffer Out { uint o[]; };

void put(uint at, float v) { o[at] = floatBitsToUint(v); }

void main() {
  uint i = gl_GlobalInvocationID.x;
  Ray r = rays[i];
  rayQueryEXT q;
  rayQueryInitializeEXT(q, tlas, r.flags, r.cull_mask, r.origin, r.tmin, r.dir, r.tmax);
  uint candidates = 0;
  while (rayQueryProceedEXT(q)) {
    candidates++;
    if (rayQueryGetIntersectionTypeEXT(q, false) == gl_RayQueryCandidateIntersectionTriangleEXT &&
        r.confirm != 0)
      rayQueryConfirmIntersectionEXT(q);
  }
  uint b = i * 64;
  o[b + 0] = rayQueryGetIntersectionTypeEXT(q, true);
  put(b + 1, rayQueryGetIntersectionTEXT(q, true));
  vec2 bc = rayQueryGetIntersectionBarycentricsEXT(q, true);
  put(b + 2, bc.x);
  put(b + 3, bc.y);
  o[b + 4] = uint(rayQueryGetIntersectionInstanceCustomIndexEXT(q, true));
  o[b + 5] = uint(rayQueryGetIntersectionInstanceIdEXT(q, true));
  o[b + 6] = rayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetEXT(q, true);
  o[b + 7] = uint(rayQueryGetIntersectionGeometryIndexEXT(q, true));
  o[b + 8] = uint(rayQueryGetIntersectionPrimitiveIndexEXT(q, true));
  o[b + 9] = rayQueryGetIntersectionFrontFaceEXT(q, true) ? 1u : 0u;
  o[b + 10] = candidates;
  put(b + 11, rayQueryGetRayTMinEXT(q));
  o[b + 12] = rayQueryGetRayFlagsEXT(q);
  vec3 oo = rayQueryGetIntersectionObjectRayOriginEXT(q, true);
  vec3 od = rayQueryGetIntersectionObjectRayDirectionEXT(q, true);
  vec3 wo = rayQueryGetWorldRayOriginEXT(q);
  vec3 wd = rayQueryGetWorldRayDirectionEXT(q);
  for (int k = 0; k < 3; k++) {
    put(b + 16 + k, oo[k]);
    put(b + 20 + k, od[k]);
    put(b + 24 + k, wo[k]);
    put(b + 28 + k, wd[k]);
  }
  mat4x3 o2w = rayQueryGetIntersectionObjectToWorldEXT(q, true);
  mat4x3 w2o = rayQueryGetIntersectionWorldToObjectEXT(q, true);
  for (int c = 0; c < 4; c++)
    for (int e = 0; e < 3; e++) {
      put(b + 32 + c * 3 + e, o2w[c][e]);
      put(b + 44 + c * 3 + e, w2o[c][e]);
    }
}
