#version 460
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// PhysicalStorageBuffer64 pointers, including a self-referencing linked list node.
layout(local_size_x = 64) in;
layout(buffer_reference) buffer Node;
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Node {
   vec4 value;
   Node next;
};
layout(buffer_reference, std430) buffer Floats { float f[]; };
layout(push_constant) uniform Push { Node head; Floats out_values; uint64_t raw; } pc;
void main() {
   Node n = pc.head;
   float acc = 0.0;
   for (int i = 0; i < 4 && uint64_t(n) != 0ul; i++) {
      acc += n.value.x;
      n = n.next;
   }
   pc.out_values.f[gl_GlobalInvocationID.x] = acc + float(pc.raw);
}
