#version 460
#extension GL_EXT_nonuniform_qualifier : require
// Runtime-sized arrays in blocks and arrays of descriptors indexed non-uniformly.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { uint count; vec2 items[]; } inp;
layout(std430, binding = 1) buffer Many { float v[]; } many[4];
void main() {
   uint i = gl_GlobalInvocationID.x;
   if (i < inp.count)
      many[nonuniformEXT(i & 3u)].v[i] = inp.items[i].x + float(inp.items.length());
}
