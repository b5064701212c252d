#version 460
// Workgroup size from specialization constants (local_size_x_id).
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z = 2) in;
layout(std430, binding = 0) buffer B { uint data[]; } b;
void main() {
   b.data[gl_LocalInvocationIndex] = gl_WorkGroupSize.x * gl_WorkGroupSize.y;
}
