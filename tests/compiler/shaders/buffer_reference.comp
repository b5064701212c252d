#version 450
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// buffer_reference pointers from push constants: arrays and a linked list.
layout(local_size_x = 64) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Data { uint v[]; };
layout(buffer_reference) buffer Node;
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Node { Node next; uint value; };
layout(push_constant) uniform PC { Data src; Data dst; Node head; uint64_t raw; } pc;
void main() {
   uint i = gl_GlobalInvocationID.x;
   pc.dst.v[i] = pc.src.v[i] * 2u;
   uint s = 0u;
   Node n = pc.head;
   for (uint k = 0u; k < i % 8u; k++) {
      s += n.value;
      n = n.next;
   }
   pc.dst.v[i + 64u] = s;
   Data d = Data(pc.raw + 8ul);
   pc.dst.v[i + 128u] = d.v[i];
}
