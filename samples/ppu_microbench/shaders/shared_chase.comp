#version 450
// Shared-memory latency and bank conflicts (ppu_microbench): one warp, each
// lane following a chain in shared memory that stays on word lane x
// `stride` (every word holds its own index), so each step is one dependent
// shared load whose 32 lanes touch 32 / gcd(stride, 32) distinct banks:
// stride 1 reads 32 banks (no conflict), stride 32 one bank (32-way).
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer Unused { uint unused[]; };
layout(std430, binding = 1) writeonly buffer Sink { uint sink[]; };
layout(push_constant) uniform Params { uint stride; uint steps; } params;
shared uint words[1024];

void main()
{
   uint lane = gl_LocalInvocationID.x;
   for (uint i = lane; i < 1024u; i += 32u)
      words[i] = i;
   barrier();
   uint j = (lane * params.stride) % 1024u;
   for (uint k = 0u; k < params.steps; k++)
      j = words[j];
   sink[lane] = j;
}
