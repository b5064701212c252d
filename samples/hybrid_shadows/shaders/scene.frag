#version 460
// Rasterized surface, ray-traced shadow: the fragment's geometric normal
// from the derivatives of its world position (turned towards the eye), then
// one shadow ray query towards the point light, as rq_shadows's compute
// shader does from a primary ray's hit.
#extension GL_EXT_ray_query : require
#extension GL_GOOGLE_include_directive : require
#include "params.glsl"

layout(set = 0, binding = 0) uniform accelerationStructureEXT scene;

layout(location = 0) in vec3 world;
layout(location = 0) out vec4 color;

const vec3 ALBEDO = vec3(0.95, 0.82, 0.66);

void main()
{
   vec3 n = normalize(cross(dFdx(world), dFdy(world)));
   if (dot(n, p.eye_near.xyz - world) < 0.0)
      n = -n;
   vec3 to_light = p.light_ambient.xyz - world;
   float distance_to_light = length(to_light);
   vec3 l = to_light / distance_to_light;
   float cosine = dot(n, l);
   float visible = 0.0;
   if (cosine > 0.0) {
      rayQueryEXT q;
      rayQueryInitializeEXT(q, scene, gl_RayFlagsTerminateOnFirstHitEXT | gl_RayFlagsOpaqueEXT,
                            0xffu, world + p.up_offset.w * n, 0.0, l, distance_to_light);
      while (rayQueryProceedEXT(q)) {
      }
      if (rayQueryGetIntersectionTypeEXT(q, true) == gl_RayQueryCommittedIntersectionNoneEXT)
         visible = 1.0;
   }
   float ambient = p.light_ambient.w;
   float radiance = ambient + (1.0 - ambient) * max(cosine, 0.0) * visible;
   // The swapchain format is UNORM: encode for display here.
   color = vec4(pow(ALBEDO * radiance, vec3(1.0 / 2.2)), 1.0);
}
