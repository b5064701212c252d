#version 450
// Writes each invocation's global index, scaled by push constants, plus the
// workgroup count in the top byte: checks vkCmdDispatch/Base/Indirect,
// gl_NumWorkGroups and push constants.
layout(local_size_x = 64) in;
layout(push_constant) uniform PushConstants {
   uint mul;
   uint add;
} pc;
layout(set = 0, binding = 0) buffer Out {
   uint v[];
} o;
void main()
{
   uint i = gl_GlobalInvocationID.x;
   o.v[i] = i * pc.mul + pc.add + (gl_NumWorkGroups.x << 24);
}
