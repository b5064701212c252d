#version 450
// Every buffer atomic on 32-bit integers, contended across workgroups.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer A {
   int smin; int smax; uint umin; uint umax; uint andv; uint orv; uint xorv; uint exch;
   uint cas; int sub;
} r;
void main() {
   uint i = gl_GlobalInvocationID.x;
   int si = int(i) - 100;
   atomicMin(r.smin, si);
   atomicMax(r.smax, si);
   atomicMin(r.umin, i + 5u);
   atomicMax(r.umax, i * 3u);
   atomicAnd(r.andv, ~(1u << (i % 32u)) | (i == 7u ? 0xffffffffu : 0u));
   atomicOr(r.orv, 1u << (i % 32u));
   atomicXor(r.xorv, i);
   atomicExchange(r.exch, 42u);
   // Only the invocation that sees 0 installs its id + 1.
   atomicCompSwap(r.cas, 0u, i + 1u);
   atomicAdd(r.sub, -2);
}
