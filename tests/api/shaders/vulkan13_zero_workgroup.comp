#version 450
#extension GL_EXT_null_initializer : require
// Workgroup variables with a null initializer are zero when the workgroup
// starts (shaderZeroInitializeWorkgroupMemory): each lane adds its index to
// the counters and its own slot, then lane 0 reads them back. Workgroups
// run one after another on an SM, each leaving its sums behind, so every
// workgroup seeing zero first is the initialization.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer IO { uint w[]; } io;
shared uint counter = {};
shared uint slots[64] = {};
shared uvec2 pair = {};
void main()
{
   uint i = gl_LocalInvocationIndex;
   uint g = gl_WorkGroupID.x;
   // What was there before any write of this workgroup.
   io.w[g * 80u + i] = slots[i] + (i == 0u ? counter + pair.x + pair.y : 0u);
   barrier();
   atomicAdd(counter, i + 1u);
   slots[i] += i;
   if (i == 1u)
      pair = uvec2(7u, 9u);
   barrier();
   if (i == 0u) {
      io.w[g * 80u + 64u] = counter;
      io.w[g * 80u + 65u] = pair.x + pair.y;
   }
}
