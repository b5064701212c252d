// tolerance: exact
// subgroupAdd, summed per workgroup by one atomic per subgroup.
// requires: subgroup (results do not depend on the subgroup size)
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   uint wg = gl_WorkGroupID.x;
   uint s = subgroupAdd(a & 0xffffu);
   uint t = subgroupAdd(1u);
   if (subgroupElect()) {
      atomicAdd(out_data[wg * 4u + 3u], s);
      atomicAdd(out_data[(16u + wg) * 4u + 3u], t);
   }
   out_data[o] = subgroupAdd(0u);
}
