// Push constants of both stages (struct hybrid_push_constants, raster_pass.h).
layout(push_constant) uniform Params {
   vec4 eye_near;      // xyz: eye; w: near plane distance
   vec4 right_far;     // xyz: right * tan(fov / 2); w: far plane distance
   vec4 up_offset;     // xyz: true up * tan(fov / 2); w: shadow-ray origin offset
   vec4 forward;       // xyz: unit view direction
   vec4 light_ambient; // xyz: point light; w: ambient term
} p;
