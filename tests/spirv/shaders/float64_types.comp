#version 460
// Double precision scalars, vectors and a matrix.
layout(local_size_x = 16) in;
layout(std430, binding = 0) buffer B { double d; dvec3 v; dmat2 m; } b;
void main() {
   double x = b.d * 3.141592653589793lf;
   dvec3 v = b.v + dvec3(x);
   b.v = sqrt(abs(v));
   b.m = b.m * dmat2(x);
   b.d = dot(v, v);
}
