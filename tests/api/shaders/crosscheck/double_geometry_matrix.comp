// tolerance: ulp 1 abs 1e-9
// requires: float64
// Geometric functions, mix, smoothstep, determinant and inverse on doubles,
// rounded to float for the comparison (so a few double ulps never show).
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
double unit(uint b) { return double(int(b & 0xffffu) - 32768) / 32768.0; }
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   dvec3 p = dvec3(unit(a), unit(a >> 16), unit(b) + 2.0);
   dvec3 q = dvec3(unit(b >> 16), unit(c), unit(c >> 16) - 2.0);
   dvec3 n = normalize(q);
   dmat3 m = dmat3(p, q, cross(p, q));
   dmat2 m2 = dmat2(p.xy + dvec2(3.0, 0.0), q.xy - dvec2(0.0, 3.0));
   double t = double(d & 0xffffu) / 65536.0;
   out_data[o + 0u] = floatBitsToUint(float(length(p) + distance(p, q) * 3.0 + n.z));
   out_data[o + 1u] = floatBitsToUint(float(dot(reflect(p, n), dvec3(1.0, 2.0, 3.0)) + refract(n, normalize(p), 0.75).y +
                                            faceforward(p, q, n).x));
   out_data[o + 2u] = floatBitsToUint(float(determinant(m) + mix(p.x, q.x, t) + smoothstep(-1.0, 1.0, q.y)));
   out_data[o + 3u] = floatBitsToUint(float(inverse(m)[i % 3u][(i / 3u) % 3u] + inverse(m2)[i % 2u].y +
                                            determinant(dmat4(m) + dmat4(1.0))));
}
