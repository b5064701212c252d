#version 450
// Keeps many values live at once: needs more registers than a tiny limit.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main() {
   uint i = gl_GlobalInvocationID.x;
   uint a = i * 3u, b = i * 5u, c = i * 7u, d = i * 11u, e = i * 13u, f = i * 17u;
   o[i] = a * b + c * d + e * f + a * f + b * e;
}
