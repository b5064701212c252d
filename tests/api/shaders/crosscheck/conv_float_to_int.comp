// tolerance: exact
// float to int/uint truncate toward zero (in range).
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   float x = float(int(a)) * (1.0 / 8.0);
   float y = abs(float(int(b))) * (1.0 / 4.0);
   float z = float(int(c & 0xffffu) - 32768) * (1.0 / 256.0);
   out_data[o + 0u] = uint(int(x));
   out_data[o + 1u] = uint(y);
   out_data[o + 2u] = uint(int(z));
   out_data[o + 3u] = uint(float(d >> 9) * 1.5);
}
