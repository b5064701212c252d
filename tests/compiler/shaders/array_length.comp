#version 450
// .length() of runtime arrays (OpArrayLength) from the descriptor's range.
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) buffer Out { uint o[]; };
layout(std430, set = 0, binding = 1) buffer A { uint header; uvec2 items[]; } a;
layout(std430, set = 0, binding = 2) buffer B { float f[]; } b;
void main() {
   o[0] = uint(a.items.length());
   o[1] = uint(b.f.length());
   uint s = 0u;
   for (int k = 0; k < a.items.length(); k++)
      s += a.items[k].y;
   o[2] = s;
}
