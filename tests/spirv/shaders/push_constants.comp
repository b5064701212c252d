#version 460
// Push constants with a mix of scalar, vector and matrix members.
layout(local_size_x = 64) in;
layout(push_constant) uniform Push {
   uint count;     // 0
   float scale;    // 4
   vec2 offset;    // 8
   mat4 transform; // 16
   uvec4 ids;      // 80
} pc;
layout(std430, binding = 0) buffer B { vec4 data[]; } b;
void main() {
   if (gl_GlobalInvocationID.x < pc.count)
      b.data[gl_GlobalInvocationID.x] = pc.transform * vec4(pc.offset * pc.scale, float(pc.ids.y), 1.0);
}
