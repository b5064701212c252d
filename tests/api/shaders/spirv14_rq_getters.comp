#version 460
// tests/api/test_ray_query_getters.c: one ray per invocation. Records the
// ray getters, every getter of the first candidate the shader sees and of
// the final committed intersection, and how many candidates it saw.
// SPIR-V 1.4 (VK_KHR_ray_query needs it).
#extension GL_EXT_ray_query : require
layout(local_size_x = 8) in;

// The test's struct ray / struct hit / struct result, std430 (scalars and
// float arrays only, so no padding).
struct Ray {
   vec3 origin;
   float tmin;
   vec3 direction;
   float tmax;
   uint flags;     // gl_RayFlags*
   uint cull_mask;
   uint mode;      // 1: confirm triangles; 2: generate AABBs; 4: terminate at the first candidate
   float generate_t;
};
struct Hit {
   uint type;      // candidate: 0 triangle, 1 AABB, ~0 none seen; committed: 0 none, 1, 2
   float t;
   int custom_index;
   int instance_id;
   uint sbt_offset;
   int geometry;
   int primitive;
   uint front_face;
   uint aabb_opaque;
   float barycentrics[2];
   float object_origin[3];
   float object_direction[3];
   float object_to_world[12]; // row-major 3x4, as VkTransformMatrixKHR
   float world_to_object[12];
   uint pad[3];
};
struct Result {
   float world_origin[3];
   float world_direction[3];
   float tmin;
   uint flags;
   uint candidates;
   int last_instance; // instance id and t of the last triangle candidate
   float last_t;
   uint pad;
   Hit candidate;
   Hit committed;
};

layout(set = 0, binding = 0) uniform accelerationStructureEXT scene;
layout(std430, set = 0, binding = 1) readonly buffer Rays { Ray rays[]; };
layout(std430, set = 0, binding = 2) buffer Results { Result results[]; };
layout(push_constant) uniform Push { uint count; };

// The getters both kinds of intersection share; C is true (committed) or
// false (candidate), a constant as the getters require.
#define RECORD(h, C)                                                                               \
   {                                                                                               \
      h.custom_index = rayQueryGetIntersectionInstanceCustomIndexEXT(q, C);                        \
      h.instance_id = rayQueryGetIntersectionInstanceIdEXT(q, C);                                  \
      h.sbt_offset = rayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetEXT(q, C);       \
      h.geometry = rayQueryGetIntersectionGeometryIndexEXT(q, C);                                  \
      h.primitive = rayQueryGetIntersectionPrimitiveIndexEXT(q, C);                                \
      vec3 oo = rayQueryGetIntersectionObjectRayOriginEXT(q, C);                                   \
      vec3 od = rayQueryGetIntersectionObjectRayDirectionEXT(q, C);                                \
      mat4x3 o2w = rayQueryGetIntersectionObjectToWorldEXT(q, C);                                  \
      mat4x3 w2o = rayQueryGetIntersectionWorldToObjectEXT(q, C);                                  \
      for (int k = 0; k < 3; k++) {                                                                \
         h.object_origin[k] = oo[k];                                                               \
         h.object_direction[k] = od[k];                                                            \
         for (int c = 0; c < 4; c++) {                                                             \
            h.object_to_world[k * 4 + c] = o2w[c][k];                                              \
            h.world_to_object[k * 4 + c] = w2o[c][k];                                              \
         }                                                                                         \
      }                                                                                            \
   }

void main()
{
   uint i = gl_GlobalInvocationID.x;
   if (i >= count)
      return;
   Ray r = rays[i];
   rayQueryEXT q;
   rayQueryInitializeEXT(q, scene, r.flags, r.cull_mask, r.origin, r.tmin, r.direction, r.tmax);
   vec3 wo = rayQueryGetWorldRayOriginEXT(q);
   vec3 wd = rayQueryGetWorldRayDirectionEXT(q);
   for (int k = 0; k < 3; k++) {
      results[i].world_origin[k] = wo[k];
      results[i].world_direction[k] = wd[k];
   }
   results[i].tmin = rayQueryGetRayTMinEXT(q);
   results[i].flags = rayQueryGetRayFlagsEXT(q);
   results[i].candidate.type = ~0u;
   results[i].committed.type = 0u;
   results[i].last_instance = -1;

   uint candidates = 0;
   while (rayQueryProceedEXT(q)) {
      uint type = rayQueryGetIntersectionTypeEXT(q, false);
      if (candidates == 0) {
         results[i].candidate.type = type;
         RECORD(results[i].candidate, false);
         if (type == gl_RayQueryCandidateIntersectionTriangleEXT) {
            results[i].candidate.t = rayQueryGetIntersectionTEXT(q, false);
            vec2 b = rayQueryGetIntersectionBarycentricsEXT(q, false);
            results[i].candidate.barycentrics[0] = b.x;
            results[i].candidate.barycentrics[1] = b.y;
            results[i].candidate.front_face = rayQueryGetIntersectionFrontFaceEXT(q, false) ? 1 : 0;
         } else {
            results[i].candidate.aabb_opaque =
                rayQueryGetIntersectionCandidateAABBOpaqueEXT(q) ? 1 : 0;
         }
      }
      candidates++;
      if (type == gl_RayQueryCandidateIntersectionTriangleEXT) {
         results[i].last_instance = rayQueryGetIntersectionInstanceIdEXT(q, false);
         results[i].last_t = rayQueryGetIntersectionTEXT(q, false);
      }
      if (type == gl_RayQueryCandidateIntersectionTriangleEXT && (r.mode & 1u) != 0)
         rayQueryConfirmIntersectionEXT(q);
      else if (type == gl_RayQueryCandidateIntersectionAABBEXT && (r.mode & 2u) != 0)
         rayQueryGenerateIntersectionEXT(q, r.generate_t);
      if ((r.mode & 4u) != 0)
         rayQueryTerminateEXT(q);
   }
   results[i].candidates = candidates;
   uint type = rayQueryGetIntersectionTypeEXT(q, true);
   results[i].committed.type = type;
   if (type != gl_RayQueryCommittedIntersectionNoneEXT) {
      results[i].committed.t = rayQueryGetIntersectionTEXT(q, true);
      RECORD(results[i].committed, true);
   }
   if (type == gl_RayQueryCommittedIntersectionTriangleEXT) {
      vec2 b = rayQueryGetIntersectionBarycentricsEXT(q, true);
      results[i].committed.barycentrics[0] = b.x;
      results[i].committed.barycentrics[1] = b.y;
      results[i].committed.front_face = rayQueryGetIntersectionFrontFaceEXT(q, true) ? 1 : 0;
   }
}
