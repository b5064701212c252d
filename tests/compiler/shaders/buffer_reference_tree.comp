#version 450
// A binary tree of PhysicalStorageBuffer nodes whose child pointers are an
// array (OpTypeArray of a forward-declared pointer), walked by each thread
// along its own path; the pointer is also taken apart into and rebuilt
// from a uvec2 (OpBitcast between a 64-bit pointer and two 32-bit words).
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 8) in;
layout(buffer_reference) buffer Node;
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Node {
   Node child[2];
   uint value;
};
layout(push_constant) uniform P {
   Node root;
   uint64_t out_addr;
} pc;
layout(buffer_reference, std430) buffer Out { uint o[]; };
void main() {
   uint i = gl_LocalInvocationID.x;
   Node n = pc.root;
   uint sum = n.value;
   for (uint level = 0; level < 3u; level++) {
      uvec2 words = uvec2(n.child[(i >> level) & 1u]);
      n = Node(words);
      sum = sum * 10u + n.value;
   }
   uvec2 root_words = uvec2(pc.root);
   Out out_buf = Out(pc.out_addr);
   out_buf.o[i] = sum;
   out_buf.o[8u + i] = root_words.x ^ root_words.y;
}
