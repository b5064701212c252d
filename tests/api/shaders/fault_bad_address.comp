#version 450
// Reads through a buffer_reference pointer from push constants and writes
// what it read + 1 through another: given an unmapped source, the load
// faults (MMU_UNMAPPED). No descriptor buffers, so the SPIR-V needs no
// SPV_KHR_storage_buffer_storage_class (not offered by a 1.0 device).
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 64) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Words {
   uint v[];
};
layout(push_constant) uniform PushConstants {
   Words source;
   Words dest;
} pc;
void main()
{
   uint i = gl_GlobalInvocationID.x;
   pc.dest.v[i] = pc.source.v[i] + 1u;
}
