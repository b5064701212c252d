#version 460
// tests/api/test_ray_query.c: one ray per invocation, from the rays buffer;
// the committed intersection (and how many candidates the shader saw) goes
// to the results buffer. SPIR-V 1.4 (VK_KHR_ray_query needs it).
#extension GL_EXT_ray_query : require
layout(local_size_x = 8) in;

// The test's struct ray / struct ray_result, std430.
struct Ray {
   vec3 origin;
   float tmin;
   vec3 direction;
   float tmax;
   uint flags;     // gl_RayFlags*
   uint cull_mask;
   uint mode;      // bit 0: confirm triangle candidates; bit 1: generate AABB candidates
   float generate_t;
};
struct Result {
   uint type;      // committed: 0 none, 1 triangle, 2 generated
   float t;
   int primitive;
   int custom_index;
   int instance_id;
   int geometry;
   vec2 barycentrics;
   uint front_face;
   uint candidates;
   uint pad0, pad1;
};

layout(set = 0, binding = 0) uniform accelerationStructureEXT scene;
layout(std430, set = 0, binding = 1) readonly buffer Rays { Ray rays[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Results { Result results[]; };
layout(push_constant) uniform Push { uint count; };

void main()
{
   uint i = gl_GlobalInvocationID.x;
   if (i >= count)
      return;
   Ray r = rays[i];
   rayQueryEXT q;
   rayQueryInitializeEXT(q, scene, r.flags, r.cull_mask, r.origin, r.tmin, r.direction, r.tmax);
   uint candidates = 0;
   while (rayQueryProceedEXT(q)) {
      candidates++;
      uint type = rayQueryGetIntersectionTypeEXT(q, false);
      if (type == gl_RayQueryCandidateIntersectionTriangleEXT && (r.mode & 1u) != 0)
         rayQueryConfirmIntersectionEXT(q);
      else if (type == gl_RayQueryCandidateIntersectionAABBEXT && (r.mode & 2u) != 0)
         rayQueryGenerateIntersectionEXT(q, r.generate_t);
   }
   Result o;
   o.type = rayQueryGetIntersectionTypeEXT(q, true);
   o.t = rayQueryGetIntersectionTEXT(q, true);
   o.primitive = -1;
   o.custom_index = -1;
   o.instance_id = -1;
   o.geometry = -1;
   o.barycentrics = vec2(0.0);
   o.front_face = 0;
   if (o.type != gl_RayQueryCommittedIntersectionNoneEXT) {
      o.primitive = rayQueryGetIntersectionPrimitiveIndexEXT(q, true);
      o.custom_index = rayQueryGetIntersectionInstanceCustomIndexEXT(q, true);
      o.instance_id = rayQueryGetIntersectionInstanceIdEXT(q, true);
      o.geometry = rayQueryGetIntersectionGeometryIndexEXT(q, true);
   }
   if (o.type == gl_RayQueryCommittedIntersectionTriangleEXT) {
      o.barycentrics = rayQueryGetIntersectionBarycentricsEXT(q, true);
      o.front_face = rayQueryGetIntersectionFrontFaceEXT(q, true) ? 1u : 0u;
   }
   o.candidates = candidates;
   o.pad0 = 0;
   o.pad1 = 0;
   results[i] = o;
}
