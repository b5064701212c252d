#version 460
// Shades a hit with the record's colour (diffuse from a fixed light) and,
// for reflective records, mixes in a reflection ray traced from here.
// Triangles take their normal from the record (the scene's quads are
// planar); the sphere (hit kind 1 from sphere.rint) from the hit point.
#extension GL_EXT_ray_tracing : require

layout(set = 0, binding = 0) uniform accelerationStructureEXT scene;
layout(push_constant) uniform Params {
   vec4 eye, right, up, forward;
   uvec4 size; // width, height, max bounces
} p;
layout(shaderRecordEXT, std430) buffer Record {
   vec4 color_reflectivity; // rgb, reflectivity
   vec4 normal;             // object-space normal of a planar triangle record
} record;

struct Payload {
   vec3 color;
   uint depth;
};
layout(location = 0) rayPayloadInEXT Payload payload;
layout(location = 1) rayPayloadEXT Payload reflected;
hitAttributeEXT vec2 attribs;

const vec3 LIGHT = vec3(0.48, 0.8, 0.36); // unit

void main()
{
   vec3 hit = gl_WorldRayOriginEXT + gl_HitTEXT * gl_WorldRayDirectionEXT;
   vec3 object_hit = gl_ObjectRayOriginEXT + gl_HitTEXT * gl_ObjectRayDirectionEXT;
   vec3 n = gl_HitKindEXT == 1u ? normalize(object_hit) : record.normal.xyz;
   n = normalize(mat3(gl_ObjectToWorldEXT) * n);
   if (dot(n, gl_WorldRayDirectionEXT) > 0.0)
      n = -n;
   vec3 color = record.color_reflectivity.rgb * (0.25 + 0.75 * max(dot(n, LIGHT), 0.0));
   float k = record.color_reflectivity.a;
   if (k > 0.0 && payload.depth < p.size.z) {
      reflected.color = vec3(0.0);
      reflected.depth = payload.depth + 1u;
      vec3 dir = reflect(gl_WorldRayDirectionEXT, n);
      traceRayEXT(scene, gl_RayFlagsNoneEXT, 0xffu, 0, 1, 0, hit + n * 1e-3, 0.0, dir, 1e4, 1);
      color = mix(color, reflected.color, k);
   }
   payload.color = color;
}
