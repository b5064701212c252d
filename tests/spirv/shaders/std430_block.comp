#version 460
// std430 storage block: tightly packed scalar arrays, vec3 + float, nested structs, runtime array.
layout(local_size_x = 1) in;
struct Inner { float a; vec2 b; };   // std430: a 0, b 8, size 16
struct Outer { Inner inner[2]; uint flags; vec3 normal; }; // inner 0 (stride 16), flags 32, normal 48, size 64
layout(std430, binding = 0) buffer Storage {
   float values[4];   // 0 (stride 4)
   vec3 position;     // 16
   float weight;      // 28
   Outer outer;       // 32
   layout(row_major) mat2x3 rm; // 96 (row-major: 3 rows? no: mat2x3 has 2 columns, 3 rows; stride 8, size 24)
   double d;          // 120
   Outer tail[];      // 128 (stride 64)
} storage_buf;
void main() {
   storage_buf.values[1] = storage_buf.position.y + storage_buf.weight + storage_buf.outer.inner[1].b.x +
                       storage_buf.rm[1].z + float(storage_buf.d) + storage_buf.tail[2].normal.z;
}
