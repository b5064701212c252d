#version 460
// Ray-query hard shadows: per pixel one primary ray (closest hit), then one
// shadow ray from the hit towards a point light (TerminateOnFirstHit |
// Opaque). Writes, per pixel, the primary hit (primitive, t), what happened
// to the shadow ray, the shadow ray's origin and the Lambert radiance; the
// host makes the image from the radiance, and --dump-hits writes the rest so
// that tests/raytrace can trace the same rays on the CPU.
#extension GL_EXT_ray_query : require
layout(local_size_x = 8, local_size_y = 8) in;

layout(push_constant) uniform Params {
   vec4 eye_offset;    // xyz: eye; w: shadow-ray origin offset along the normal
   vec4 right;         // xyz: right * tan(fov / 2)
   vec4 up;            // xyz: true up * tan(fov / 2)
   vec4 forward;       // xyz: unit view direction
   vec4 light_ambient; // xyz: point light; w: ambient term
   uvec4 size;         // width, height, unused, unused
} p;

layout(set = 0, binding = 0) uniform accelerationStructureEXT scene;

// Keep in step with struct shadow_pixel (shadow_shader.h).
struct Pixel {
   uint primitive; // hit triangle, or MISSED
   float t;        // primary hit distance (the ray direction is unit length)
   uint state;     // STATE_*
   float radiance; // ambient + (1 - ambient) * cos * visible; 0 on a miss
   vec4 shadow_origin; // xyz: where the shadow ray starts; w: unused
};
layout(set = 0, binding = 1, std430) writeonly buffer Result {
   Pixel pixels[];
} result;
// The same buffers the BLAS was built from, for the geometric normal.
layout(set = 0, binding = 2, std430) readonly buffer Positions {
   float xyz[];
} positions;
layout(set = 0, binding = 3, std430) readonly buffer Indices {
   uint corner[];
} indices;

const uint MISSED = 0xffffffffu;
const uint STATE_MISS = 0u;        // the primary ray hit nothing
const uint STATE_LIT = 1u;         // the shadow ray reached the light
const uint STATE_SHADOWED = 2u;    // the shadow ray hit something
const uint STATE_FACING_AWAY = 3u; // light behind the surface: no shadow ray

vec3 vertex_position(uint v)
{
   return vec3(positions.xyz[3u * v], positions.xyz[3u * v + 1u], positions.xyz[3u * v + 2u]);
}

void main()
{
   uvec2 px = gl_GlobalInvocationID.xy;
   uint width = p.size.x, height = p.size.y;
   if (px.x >= width || px.y >= height)
      return;
   uint pixel = px.y * width + px.x;

   // The camera convention of scenes/README.md: pixel (0, 0) is top-left.
   // tests/raytrace/rq_shadows_golden.c repeats these lines in binary32.
   float sx = (float(px.x) + 0.5) / float(width) * 2.0 - 1.0;
   float sy = 1.0 - (float(px.y) + 0.5) / float(height) * 2.0;
   vec3 dir = normalize(p.forward.xyz + sx * p.right.xyz + sy * p.up.xyz);

   rayQueryEXT primary;
   rayQueryInitializeEXT(primary, scene, gl_RayFlagsOpaqueEXT, 0xffu, p.eye_offset.xyz, 0.0, dir,
                         1e30);
   while (rayQueryProceedEXT(primary)) {
   }
   if (rayQueryGetIntersectionTypeEXT(primary, true) ==
       gl_RayQueryCommittedIntersectionNoneEXT) {
      result.pixels[pixel] = Pixel(MISSED, 0.0, STATE_MISS, 0.0, vec4(0.0));
      return;
   }
   uint triangle = rayQueryGetIntersectionPrimitiveIndexEXT(primary, true);
   float t = rayQueryGetIntersectionTEXT(primary, true);
   vec2 bary = rayQueryGetIntersectionBarycentricsEXT(primary, true);
   vec3 v0 = vertex_position(indices.corner[3u * triangle]);
   vec3 e1 = vertex_position(indices.corner[3u * triangle + 1u]) - v0;
   vec3 e2 = vertex_position(indices.corner[3u * triangle + 2u]) - v0;
   // The scenes' winding is not consistent: the geometric normal turned
   // towards the eye (double-sided surfaces).
   vec3 n = cross(e1, e2);
   float len = length(n);
   n = len > 0.0 ? n / len : -dir; // a sliver too thin for cross(): face the ray
   if (dot(n, dir) > 0.0)
      n = -n;
   // Off the surface along the normal, so the shadow ray cannot find the
   // triangle it starts on.
   vec3 origin = v0 + bary.x * e1 + bary.y * e2 + n * p.eye_offset.w;
   // Unnormalized: t in [0, 1] spans origin to light exactly, with no
   // rounding of a normalized direction or of a distance.
   vec3 to_light = p.light_ambient.xyz - origin;
   float ambient = p.light_ambient.w;
   float cos_light = dot(n, to_light);
   uint state = STATE_FACING_AWAY;
   float radiance = ambient;
   if (cos_light > 0.0) {
      rayQueryEXT shadow;
      rayQueryInitializeEXT(shadow, scene,
                            gl_RayFlagsTerminateOnFirstHitEXT | gl_RayFlagsOpaqueEXT, 0xffu,
                            origin, 0.0, to_light, 1.0);
      while (rayQueryProceedEXT(shadow)) {
      }
      bool lit = rayQueryGetIntersectionTypeEXT(shadow, true) ==
                 gl_RayQueryCommittedIntersectionNoneEXT;
      state = lit ? STATE_LIT : STATE_SHADOWED;
      if (lit)
         radiance += (1.0 - ambient) * cos_light / length(to_light);
   }
   result.pixels[pixel] = Pixel(triangle, t, state, radiance, vec4(origin, 0.0));
}
