#version 460
// std140 uniform block: nested struct, arrays of scalars/vec3/structs, row-major matrix.
layout(local_size_x = 1) in;
struct Light { vec3 position; float radius; vec2 extent; };
layout(std140, binding = 0) uniform Params {
   float scale;            // 0
   vec3 direction;         // 16
   float arr[3];           // 32 (stride 16)
   Light light;            // 80 (position 0, radius 12, extent 16; size 32)
   layout(row_major) mat3 rotation; // 112 (matrix stride 16, 3 rows -> 48)
   mat2 plain;             // 160 (col-major, stride 16)
   Light lights[2];        // 192 (stride 32)
   vec2 tail;              // 256
} params;
layout(std430, binding = 1) buffer Out { vec4 result; } outp;
void main() {
   outp.result = vec4(params.rotation * params.direction * params.scale + params.light.position,
                      params.arr[1] + params.lights[1].radius + params.plain[1].y + params.tail.x);
}
