#version 450
// Pointer chase (ppu_microbench): one invocation follows `steps` links of a
// chain of 32-bit indices laid one per 128-byte line in a random cycle; each
// load's address depends on the one before, so the run takes `steps` times
// the latency of the memory level the chain fits in, plus the loop's own
// instructions.
layout(local_size_x = 1) in;
layout(std430, binding = 0) readonly buffer Chain { uint next[]; };
layout(std430, binding = 1) writeonly buffer Sink { uint sink[]; };
layout(push_constant) uniform Params { uint start; uint steps; } params;

void main()
{
   uint i = params.start;
   for (uint k = 0u; k < params.steps; k++)
      i = next[i];
   sink[0] = i; // keeps the chain alive
}
