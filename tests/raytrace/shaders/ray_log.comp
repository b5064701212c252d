#version 460
// The rays of samples/rq_ambient_occlusion/shaders/ao.comp, generated the
// same way (same push constants, bindings 0..3, hash, basis and offsets),
// each also WRITTEN with its result so the host can trace the very same
// rays on the CPU. Per pixel, slot 0 is the primary ray and slots 1..spp
// the AO rays. An AO ray is traced twice: closest hit (flags Opaque: the
// logged result, which has a unique answer to compare) and as ao.comp does
// (TerminateOnFirstHit | Opaque: its hit/miss only). Binding 1 gets what
// ao.comp writes, so the host can check this shader against ao.comp itself.
#extension GL_EXT_ray_query : require
layout(local_size_x = 8, local_size_y = 8) in;

layout(push_constant) uniform Params {
   vec4 eye_radius;
   vec4 right_diagonal;
   vec4 up;
   vec4 forward;
   uvec4 size_spp;
} p;

layout(set = 0, binding = 0) uniform accelerationStructureEXT scene;
layout(set = 0, binding = 1, std430) writeonly buffer Result {
   uint unoccluded[];
} result;
layout(set = 0, binding = 2, std430) readonly buffer Positions {
   float xyz[];
} positions;
layout(set = 0, binding = 3, std430) readonly buffer Indices {
   uint corner[];
} indices;

// kind: 0 = slot unused (the primary ray missed), 1 = primary, 2 = AO.
struct Ray {
   vec4 origin_tmin;
   vec4 direction_tmax;
   uvec4 flags_kind_pixel_sample;
};
// type = committed intersection type; first_hit_type: the AO ray traced
// with TerminateOnFirstHit (as ao.comp does); t_u_v: committed t and
// barycentrics.
struct Hit {
   uvec4 type_primitive_firsthit;
   vec4 t_u_v;
};
layout(set = 0, binding = 4, std430) writeonly buffer Rays {
   Ray ray[];
} rays;
layout(set = 0, binding = 5, std430) writeonly buffer Hits {
   Hit hit[];
} hits;

const uint MISSED = 0xffffffffu;
const float ORIGIN_OFFSET = 1e-5;
const float PI = 3.14159265358979;

uint pcg_hash(uint v)
{
   uint state = v * 747796405u + 2891336453u;
   uint word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
   return (word >> 22u) ^ word;
}

float unit_float(uint h)
{
   return float(h >> 8u) * (1.0 / 16777216.0);
}

vec3 vertex_position(uint v)
{
   return vec3(positions.xyz[3u * v], positions.xyz[3u * v + 1u], positions.xyz[3u * v + 2u]);
}

void basis(vec3 n, out vec3 t, out vec3 b)
{
   float s = n.z >= 0.0 ? 1.0 : -1.0;
   float a = -1.0 / (s + n.z);
   float c = n.x * n.y * a;
   t = vec3(1.0 + s * n.x * n.x * a, s * c, -s * n.x);
   b = vec3(c, s + n.y * n.y * a, -n.y);
}

// Traces closest-hit and logs ray and result in slot; returns the hit type.
uint trace_logged(uint slot, uint kind, uint pixel, uint sample_index, vec3 origin, float tmax,
                  vec3 dir, out uint primitive, out vec2 bary)
{
   const uint flags = gl_RayFlagsOpaqueEXT;
   rayQueryEXT q;
   rayQueryInitializeEXT(q, scene, flags, 0xffu, origin, 0.0, dir, tmax);
   while (rayQueryProceedEXT(q)) {
   }
   uint type = rayQueryGetIntersectionTypeEXT(q, true);
   primitive = MISSED;
   bary = vec2(0.0);
   vec4 tuv = vec4(0.0);
   if (type != gl_RayQueryCommittedIntersectionNoneEXT) {
      primitive = rayQueryGetIntersectionPrimitiveIndexEXT(q, true);
      bary = rayQueryGetIntersectionBarycentricsEXT(q, true);
      tuv = vec4(rayQueryGetIntersectionTEXT(q, true), bary, 0.0);
   }
   rays.ray[slot] = Ray(vec4(origin, 0.0), vec4(dir, tmax), uvec4(flags, kind, pixel, sample_index));
   hits.hit[slot] = Hit(uvec4(type, primitive, 0u, 0u), tuv);
   return type;
}

void main()
{
   uvec2 px = gl_GlobalInvocationID.xy;
   uint width = p.size_spp.x, height = p.size_spp.y, spp = p.size_spp.z;
   if (px.x >= width || px.y >= height)
      return;
   uint pixel = px.y * width + px.x;
   uint base = pixel * (spp + 1u);

   float sx = (float(px.x) + 0.5) / float(width) * 2.0 - 1.0;
   float sy = 1.0 - (float(px.y) + 0.5) / float(height) * 2.0;
   vec3 dir = normalize(p.forward.xyz + sx * p.right_diagonal.xyz + sy * p.up.xyz);

   // As ao.comp's primary ray (same flags, tmin and tmax).
   uint triangle;
   vec2 bary;
   if (trace_logged(base, 1u, pixel, 0u, p.eye_radius.xyz, 1e30, dir, triangle, bary) ==
       gl_RayQueryCommittedIntersectionNoneEXT) {
      for (uint i = 1u; i <= spp; i++)
         rays.ray[base + i].flags_kind_pixel_sample = uvec4(0u, 0u, pixel, i - 1u);
      result.unoccluded[pixel] = MISSED;
      return;
   }
   vec3 v0 = vertex_position(indices.corner[3u * triangle]);
   vec3 e1 = vertex_position(indices.corner[3u * triangle + 1u]) - v0;
   vec3 e2 = vertex_position(indices.corner[3u * triangle + 2u]) - v0;
   vec3 n = cross(e1, e2);
   float len = length(n);
   n = len > 0.0 ? n / len : -dir;
   if (dot(n, dir) > 0.0)
      n = -n;
   vec3 hit_point = v0 + bary.x * e1 + bary.y * e2;
   vec3 origin = hit_point + n * (ORIGIN_OFFSET * p.right_diagonal.w);
   vec3 t, b;
   basis(n, t, b);

   uint escaped = 0u;
   uint pixel_seed = pcg_hash(pixel);
   for (uint i = 0u; i < spp; i++) {
      uint h1 = pcg_hash(pixel_seed + i);
      uint h2 = pcg_hash(h1);
      float u1 = unit_float(h1);
      float phi = 2.0 * PI * unit_float(h2);
      float r = sqrt(u1);
      vec3 ao_dir = r * cos(phi) * t + r * sin(phi) * b + sqrt(max(0.0, 1.0 - u1)) * n;

      uint slot = base + 1u + i;
      uint unused_primitive;
      vec2 unused_bary;
      trace_logged(slot, 2u, pixel, i, origin, p.eye_radius.w, ao_dir, unused_primitive,
                   unused_bary);
      rayQueryEXT occlusion;
      rayQueryInitializeEXT(occlusion, scene,
                            gl_RayFlagsTerminateOnFirstHitEXT | gl_RayFlagsOpaqueEXT, 0xffu,
                            origin, 0.0, ao_dir, p.eye_radius.w);
      while (rayQueryProceedEXT(occlusion)) {
      }
      uint first_hit = rayQueryGetIntersectionTypeEXT(occlusion, true);
      hits.hit[slot].type_primitive_firsthit.z = first_hit;
      if (first_hit == gl_RayQueryCommittedIntersectionNoneEXT)
         escaped++;
   }
   result.unoccluded[pixel] = escaped;
}
