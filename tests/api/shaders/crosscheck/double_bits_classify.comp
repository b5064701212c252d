// tolerance: exact
// requires: float64
// packDouble2x32 / unpackDouble2x32 and isinf / isnan of doubles (OpIsInf,
// OpIsNan on 64-bit floats) over random bits, infinities and NaNs.
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
   // Every fourth value has an all-ones exponent: an infinity when the
   // mantissa is 0 (every other one of those), else a NaN.
   uint hi = (i & 3u) == 0u ? (b | 0x7ff00000u) : b;
   uint lo = (i & 7u) == 0u ? 0u : a;
   if ((i & 15u) == 0u)
      hi &= 0xfff00000u;
   double x = packDouble2x32(uvec2(lo, hi));
   dvec2 v = dvec2(packDouble2x32(uvec2(c, d)), x);
   uvec2 back = unpackDouble2x32(x);
   out_data[o + 0u] = uint(isinf(x)) | uint(isnan(x)) << 1 | uint(isinf(-x)) << 2;
   out_data[o + 1u] = back.x ^ (back.y * 3u);
   bvec2 vi = isinf(v), vn = isnan(v);
   out_data[o + 2u] = uint(vi.x) | uint(vi.y) << 1 | uint(vn.x) << 2 | uint(vn.y) << 3;
   out_data[o + 3u] = unpackDouble2x32(double(uintBitsToFloat(c & 0x3fffffffu)) * 3.0).y;
}
