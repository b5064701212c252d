#version 450
// A camera over an endless plane textured with a mip-mapped checkerboard:
// every pixel casts a ray at the plane y = 0, samples the texture with the
// gradients of its footprint (textureGrad: trilinear filtering picks the
// level), and writes the average of samples_side^2 sub-pixel samples to a
// storage image. plane_reference.c does the same on the CPU.
layout(local_size_x = 8, local_size_y = 8) in;

layout(set = 0, binding = 0) uniform sampler2D checker;
layout(set = 0, binding = 1, rgba8) uniform writeonly image2D result;

// struct plane_params in plane_params.h.
layout(push_constant) uniform Params {
   vec4 cam_pos;
   vec4 cam_right;
   vec4 cam_up;
   vec4 cam_forward;
   vec4 sky;
   uint width;
   uint height;
   uint samples_side;
   float tile_scale;
} p;

vec3 ray_direction(vec2 pixel)
{
   float nx = 2.0 * pixel.x / float(p.width) - 1.0;
   float ny = 1.0 - 2.0 * pixel.y / float(p.height);
   return p.cam_forward.xyz + nx * p.cam_right.xyz + ny * p.cam_up.xyz;
}

// Texture coordinates where the ray through pixel meets the plane; false
// when it never does (it points at or above the horizon).
bool plane_uv(vec2 pixel, out vec2 uv)
{
   vec3 d = ray_direction(pixel);
   uv = vec2(0.0);
   if (d.y > -1e-6)
      return false;
   float t = -p.cam_pos.y / d.y;
   uv = (p.cam_pos.xz + t * d.xz) * p.tile_scale;
   return true;
}

void main()
{
   uvec2 id = gl_GlobalInvocationID.xy;
   if (id.x >= p.width || id.y >= p.height)
      return;
   float n = float(p.samples_side);
   vec4 sum = vec4(0.0);
   for (uint sy = 0u; sy < p.samples_side; sy++) {
      for (uint sx = 0u; sx < p.samples_side; sx++) {
         vec2 pixel = vec2(id) + (vec2(sx, sy) + 0.5) / n;
         vec2 uv, ux, uy;
         if (plane_uv(pixel, uv) && plane_uv(pixel + vec2(1.0 / n, 0.0), ux) &&
             plane_uv(pixel + vec2(0.0, 1.0 / n), uy))
            sum += textureGrad(checker, uv, ux - uv, uy - uv);
         else
            sum += p.sky;
      }
   }
   imageStore(result, ivec2(id), sum / (n * n));
}
