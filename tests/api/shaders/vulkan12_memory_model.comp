#version 450
// The Vulkan memory model (vulkanMemoryModel, vulkanMemoryModelDeviceScope):
// coherent accesses become NonPrivate/MakeAvailable/MakeVisible operands,
// and the barrier and atomics carry acquire/release semantics at workgroup
// and device scope. Each invocation publishes a value, the workgroup
// synchronizes, and each reads its mirror image's value; the last atomic
// counts the invocations with release semantics at device scope.
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) coherent buffer Io {
   uint count;
   uint data[64];
   uint o[64];
} io;
shared uint s[64];
void main()
{
   uint i = gl_LocalInvocationIndex;
   io.data[i] = i * 7u + 1u;
   s[i] = i * 3u;
   controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup,
                  gl_StorageSemanticsBuffer | gl_StorageSemanticsShared,
                  gl_SemanticsAcquireRelease | gl_SemanticsMakeAvailable | gl_SemanticsMakeVisible);
   uint j = 63u - i;
   uint seen = atomicLoad(io.data[j], gl_ScopeDevice, gl_StorageSemanticsBuffer,
                          gl_SemanticsAcquire | gl_SemanticsMakeVisible);
   io.o[i] = seen + s[j];
   atomicAdd(io.count, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer,
             gl_SemanticsRelease | gl_SemanticsMakeAvailable);
}
