#version 450
// Streaming reads (ppu_microbench): from word `first` on, every invocation
// reads `iterations` 16-byte words, a grid-wide stride apart, so each warp's
// 32 reads cover four whole 128-byte lines and the grid reads
// groups x 256 x iterations consecutive words once each. Bytes over cycles
// is the bandwidth of the level they come from.
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer Data { uvec4 data[]; };
layout(std430, binding = 1) writeonly buffer Sink { uint sink[]; };
layout(push_constant) uniform Params { uint first; uint iterations; } params;

void main()
{
   uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
   uint i = params.first + gl_GlobalInvocationID.x;
   uvec4 sum = uvec4(0u);
   for (uint k = 0u; k < params.iterations; k++, i += stride)
      sum += data[i];
   if (sum.x == 0xffffffffu) // never stored in practice, but not provably dead
      sink[gl_GlobalInvocationID.x] = sum.y;
}
