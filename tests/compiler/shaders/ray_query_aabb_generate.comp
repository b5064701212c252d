#version 460
#extension GL_EXT_ray_query : require
// Procedural geometry: every AABB candidate reports its opacity, candidate
// hit data and the entry t, and is committed with GENERATE at a t the ray
// chooses (when it lies inside the committed range).
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) uniform accelerationStructureEXT tlas;
struct Ray {
  vec3 origin;
  float tmin;
  vec3 dir;
  float tmax;
  float generate_t;
  uint flags;
  uint pad0, pad1;
};
layout(set = 0, binding = 1, std430) readonly buffer Rays { Ray rays[]; };
layout(set = 0, binding = 2, std430) writeonly buffer Out { uint o[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  Ray r = rays[i];
  rayQueryEXT q;
  rayQueryInitializeEXT(q, tlas, r.flags, 0xFF, r.origin, r.tmin, r.dir, r.tmax);
  uint b = i * 16;
  uint aabbs = 0, opaque = 0;
  while (rayQueryProceedEXT(q)) {
    if (rayQueryGetIntersectionTypeEXT(q, false) != gl_RayQueryCandidateIntersectionAABBEXT)
      continue;
    aabbs++;
    if (rayQueryGetIntersectionCandidateAABBOpaqueEXT(q))
      opaque++;
    o[b + 4] = uint(rayQueryGetIntersectionPrimitiveIndexEXT(q, false));
    o[b + 5] = uint(rayQueryGetIntersectionGeometryIndexEXT(q, false));
    o[b + 6] = uint(rayQueryGetIntersectionInstanceCustomIndexEXT(q, false));
    if (r.generate_t <= rayQueryGetIntersectionTEXT(q, true))
      rayQueryGenerateIntersectionEXT(q, r.generate_t);
  }
  o[b + 0] = rayQueryGetIntersectionTypeEXT(q, true);
  o[b + 1] = floatBitsToUint(rayQueryGetIntersectionTEXT(q, true));
  o[b + 2] = aabbs;
  o[b + 3] = opaque;
  o[b + 7] = uint(rayQueryGetIntersectionPrimitiveIndexEXT(q, true));
}
