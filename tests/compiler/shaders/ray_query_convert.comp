#version 460
#extension GL_EXT_ray_query : require
#extension GL_EXT_ray_tracing : require
// An acceleration structure from a device address (uvec2 in a push
// constant): OpConvertUToAccelerationStructureKHR.
layout(local_size_x = 1) in;
layout(push_constant) uniform Push { uvec2 address; } pc;
layout(set = 0, binding = 0, std430) buffer Out { uint o[]; };

void main() {
  rayQueryEXT q;
  rayQueryInitializeEXT(q, accelerationStructureEXT(pc.address), gl_RayFlagsOpaqueEXT, 0xFF,
                        vec3(0.25, 0.25, -1.0), 0.0, vec3(0.0, 0.0, 1.0), 100.0);
  while (rayQueryProceedEXT(q)) {
  }
  o[0] = rayQueryGetIntersectionTypeEXT(q, true);
  o[1] = floatBitsToUint(rayQueryGetIntersectionTEXT(q, true));
}
