#version 460
#extension GL_EXT_ray_tracing : require
layout(set = 0, binding = 0) uniform accelerationStructureEXT tlas;
layout(push_constant) uniform Limits { uint max_depth; };
layout(location = 0) rayPayloadInEXT uvec2 incoming;
layout(location = 1) rayPayloadEXT uvec2 next;

void main()
{
   uint depth = incoming.x;
   incoming.y += depth;
   if (depth < max_depth) {
      next = uvec2(depth + 1u, 0u);
      traceRayEXT(tlas, 0u, 0xff, 0, 1, 0, gl_WorldRayOriginEXT, 0.0, gl_WorldRayDirectionEXT,
                  100.0, 1);
      incoming.x = next.x;
      incoming.y += next.y;
   }
}
