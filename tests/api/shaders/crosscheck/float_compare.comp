// tolerance: exact
// Float comparisons and selects by their results.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
// Exact inputs: 12-bit integers over 64, in [-32, 32).
float fx(uint b) { return float(int(b & 0xfffu) - 2048) * (1.0 / 64.0); }
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   float x = fx(a), y = fx(b);
   uint r = uint(x < y) | uint(x <= y) << 1 | uint(x > y) << 2 | uint(x >= y) << 3 |
            uint(x == y) << 4 | uint(x != y) << 5;
   out_data[o + 0u] = r;
   out_data[o + 1u] = floatBitsToUint(x < y ? x : y);
   out_data[o + 2u] = uint(all(lessThan(vec2(x, y), vec2(fx(c)))));
   out_data[o + 3u] = uint(fx(d) == fx(d));
}
