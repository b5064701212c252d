#version 460
#extension GL_EXT_ray_query : require
// Two ray queries in a dynamically indexed array, descriptors from an array
// of acceleration structures: query k confirms its first candidate and
// terminates; afterwards Proceed must return false and the confirmed hit
// stays committed.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) uniform accelerationStructureEXT tlas[2];
layout(set = 0, binding = 1, std430) buffer Io {
  vec4 origin_tmin;
  vec4 dir_tmax;
  uint o[];
};

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint k = i & 1u;
  rayQueryEXT q[2];
  rayQueryInitializeEXT(q[k], tlas[k], gl_RayFlagsNoneEXT, 0xFF, origin_tmin.xyz, origin_tmin.w,
                        dir_tmax.xyz, dir_tmax.w);
  uint steps = 0;
  while (rayQueryProceedEXT(q[k])) {
    steps++;
    rayQueryConfirmIntersectionEXT(q[k]);
    rayQueryTerminateEXT(q[k]);
  }
  bool again = rayQueryProceedEXT(q[k]);
  uint b = i * 4;
  o[b + 0] = steps;
  o[b + 1] = again ? 1u : 0u;
  o[b + 2] = rayQueryGetIntersectionTypeEXT(q[k], true);
  o[b + 3] = uint(rayQueryGetIntersectionPrimitiveIndexEXT(q[k], true));
}
