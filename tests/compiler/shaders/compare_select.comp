#version 450
// Boolean vectors, any/all, component-wise select, logical operators.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
layout(set = 0, binding = 1) buffer In { ivec4 v[]; } inp;
void main() {
   uint i = gl_GlobalInvocationID.x;
   ivec4 a = inp.v[i], b = inp.v[i + 64u];
   bvec4 lt = lessThan(a, b);
   bvec4 eq = equal(a, b);
   ivec4 m = mix(b, a, lt);  // select a where a < b
   o[i * 4u + 0u] = uint(m.x + m.y + m.z + m.w);
   o[i * 4u + 1u] = uint(any(eq)) + 2u * uint(all(lt)) + 4u * uint(any(notEqual(a, b)));
   bool p = a.x > 0 && b.x > 0;
   bool q = a.y < 0 || b.y < 0;
   o[i * 4u + 2u] = uint(p) + 2u * uint(q) + 4u * uint(p != q) + 8u * uint(!p);
   o[i * 4u + 3u] = a.z > b.z ? uint(a.z) : uint(b.w);
}
