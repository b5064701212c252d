#version 450
// MatrixInverse, Determinant, Modf, Frexp, Ldexp, Refract, the double forms,
// PackDouble2x32, isinf on doubles and umulExtended in one module, for
// test_glsl_std450.c's corruption case (the results are cross-checked
// against lavapipe by tests/api/shaders/crosscheck/glsl_* and double_*).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
layout(set = 0, binding = 1) readonly buffer In { vec4 v[]; };
void main()
{
   uint i = gl_GlobalInvocationID.x;
   mat4 m = mat4(v[i], v[i + 1u], v[i + 2u], v[i + 3u]);
   dmat3 dm = dmat3(mat3(m));
   float w;
   int e;
   float f = modf(m[0][0], w) + frexp(m[1][1], e) + ldexp(m[2][2], int(i) - 32);
   vec3 r = refract(normalize(m[0].xyz), normalize(m[1].xyz), m[2][3]);
   double dw;
   double d = determinant(dm) + modf(dm[0][0], dw) + inverse(dm)[1][2] + frexp(dm[2][1], e);
   uint hi, lo;
   umulExtended(i, floatBitsToUint(f), hi, lo);
   o[i * 4u] = floatBitsToUint(determinant(m) + inverse(m)[3][1] + inverse(mat2(m))[1][0] + w);
   o[i * 4u + 1u] = floatBitsToUint(r.x + r.y + r.z + float(e));
   o[i * 4u + 2u] = uint(isinf(d)) + uint(isnan(dw)) + unpackDouble2x32(d).y +
                    uint(packDouble2x32(uvec2(hi, lo)) > 1.0lf);
   o[i * 4u + 3u] = hi ^ lo;
}
