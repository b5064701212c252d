#version 460
// A ray query on an acceleration structure at an address from push
// constants: given an address nothing is mapped at, the TTU's read of the
// structure's header faults (test_compute_faults.c).
#extension GL_EXT_ray_query : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint v[]; };
layout(push_constant) uniform P { uint64_t address; } pc;
void main()
{
   rayQueryEXT rq;
   rayQueryInitializeEXT(rq, accelerationStructureEXT(pc.address), gl_RayFlagsOpaqueEXT, 0xff,
                         vec3(0.0), 0.0, vec3(0.0, 0.0, 1.0), 100.0);
   while (rayQueryProceedEXT(rq)) {
   }
   v[gl_GlobalInvocationID.x] = uint(rayQueryGetIntersectionTypeEXT(rq, true));
}
