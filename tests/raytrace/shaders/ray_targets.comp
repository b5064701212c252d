#version 460
// Closest-hit rays from given origins through given target points: ray
// (origin o, target p) starts at o with direction p - o, so the target is
// at t = 1. Invocation (x, y) fires target x from origin y and writes
// (primitive index or MISSED, t bits) to result[y * target_count + x].
// Bindings 0..3 as in ao.comp (2 and 3 unused here); 4: targets, 5: origins.
#extension GL_EXT_ray_query : require
layout(local_size_x = 64) in;

layout(push_constant) uniform Params {
   uvec4 counts; // x: targets, y: origins
} p;

layout(set = 0, binding = 0) uniform accelerationStructureEXT scene;
layout(set = 0, binding = 1, std430) writeonly buffer Result {
   uvec2 hit[];
} result;
layout(set = 0, binding = 4, std430) readonly buffer Targets {
   vec4 target[];
} targets;
layout(set = 0, binding = 5, std430) readonly buffer Origins {
   vec4 origin[];
} origins;

const uint MISSED = 0xffffffffu;

void main()
{
   uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y;
   if (x >= p.counts.x || y >= p.counts.y)
      return;
   vec3 o = origins.origin[y].xyz;
   vec3 dir = targets.target[x].xyz - o;
   rayQueryEXT q;
   rayQueryInitializeEXT(q, scene, gl_RayFlagsOpaqueEXT, 0xffu, o, 0.0, dir, 1e30);
   while (rayQueryProceedEXT(q)) {
   }
   uvec2 r = uvec2(MISSED, 0u);
   if (rayQueryGetIntersectionTypeEXT(q, true) != gl_RayQueryCommittedIntersectionNoneEXT)
      r = uvec2(rayQueryGetIntersectionPrimitiveIndexEXT(q, true),
                floatBitsToUint(rayQueryGetIntersectionTEXT(q, true)));
   result.hit[y * p.counts.x + x] = r;
}
