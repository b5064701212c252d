#version 450
// Uniform buffer array indexed dynamically (std140: 16-byte element stride).
layout(local_size_x = 64) in;
layout(std140, set = 0, binding = 1) uniform U { uint lut[16]; uvec4 v[4]; };
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main() {
   uint i = gl_GlobalInvocationID.x;
   o[i] = lut[i % 16u] + v[i % 4u][(i / 4u) % 4u] * 100u;
}
