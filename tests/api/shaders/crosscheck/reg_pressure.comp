// tolerance: exact
// Many values live across a loop (register allocation).
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
   uint v0 = a, v1 = b, v2 = c, v3 = d, v4 = a ^ b, v5 = c ^ d, v6 = a + c, v7 = b + d;
   uint v8 = a * 3u, v9 = b * 5u, v10 = c * 7u, v11 = d * 11u, v12 = a >> 3, v13 = b >> 5;
   uint v14 = c << 2, v15 = d << 4, v16 = a | d, v17 = b & c, v18 = ~a, v19 = ~b;
   for (uint k = 0u; k < 8u + (seed & 3u); k++) {
      uint t = v0 + v19;
      v0 = v1 ^ k; v1 = v2 + v18; v2 = v3 * 3u; v3 = v4 ^ v17; v4 = v5 + k; v5 = v6 ^ v16;
      v6 = v7 + v15; v7 = v8 ^ v14; v8 = v9 + v13; v9 = v10 ^ v12; v10 = v11 + v11;
      v11 = v12 ^ t; v12 = v13 + v0; v13 = v14 ^ v1; v14 = v15 + v2; v15 = v16 ^ v3;
      v16 = v17 + v4; v17 = v18 ^ v5; v18 = v19 + v6; v19 = t ^ v7;
   }
   out_data[o + 0u] = v0 ^ v1 ^ v2 ^ v3 ^ v4;
   out_data[o + 1u] = v5 + v6 + v7 + v8 + v9;
   out_data[o + 2u] = v10 ^ v11 ^ v12 ^ v13 ^ v14;
   out_data[o + 3u] = v15 + v16 + v17 + v18 + v19;
}
