#version 450
// shaderStorageImageArrayDynamicIndexing: imageLoad from the storage image
// a push constant picks and imageStore of the value plus one to the next
// (three 16x16 R32_UINT images).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2D images[3];
layout(push_constant) uniform Params { uint index; } p;

void main()
{
   uint i = gl_GlobalInvocationID.x;
   ivec2 xy = ivec2(i % 16u, i / 16u);
   uint v = imageLoad(images[p.index], xy).r;
   imageStore(images[(p.index + 1u) % 3u], xy, uvec4(v + 1u));
}
