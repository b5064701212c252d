#version 460
// A small path tracer with ray queries: per pixel `spp` paths, each a camera
// ray jittered in the pixel and up to `bounces` diffuse (cosine-weighted)
// bounces, every segment a closest-hit query over the opaque triangles.
// Light comes from the sky (paths that escape) and from the scene's top
// triangles (emitters, e.g. a room's ceiling). Every surface is a gray
// Lambertian of the same albedo. Random numbers are an integer hash of
// pixel, sample, bounce and draw, so a run is the same every time and, up to
// float differences in traversal and sin/cos, on every driver.
#extension GL_EXT_ray_query : require
layout(local_size_x = 8, local_size_y = 8) in;

// Keep in step with struct pt_push_constants (pt_shader.h).
layout(push_constant) uniform Params {
   vec4 eye_offset;      // xyz: eye; w: bounce origin offset along the normal
   vec4 right_albedo;    // xyz: right * tan(fov / 2); w: albedo
   vec4 up_emission;     // xyz: true up * tan(fov / 2); w: emitters' radiance
   vec4 forward_emit_y;  // xyz: unit view direction; w: lowest y of an emitter
   uvec4 size_spp_bounces; // width, height, samples per pixel, bounces
} p;

layout(set = 0, binding = 0) uniform accelerationStructureEXT scene;

// Keep in step with struct pt_pixel (pt_shader.h).
struct Pixel {
   float r, g, b; // mean radiance over the samples
   uint rays;     // ray queries traced
};
layout(set = 0, binding = 1, std430) writeonly buffer Result {
   Pixel pixels[];
} result;
// The buffers the BLAS was built from: the hit triangle's corners.
layout(set = 0, binding = 2, std430) readonly buffer Positions {
   float xyz[];
} positions;
layout(set = 0, binding = 3, std430) readonly buffer Indices {
   uint corner[];
} indices;

const float TWO_PI = 6.28318530717959;
const vec3 SKY_HORIZON = vec3(1.0, 1.0, 1.0);
const vec3 SKY_ZENITH = vec3(0.45, 0.65, 1.0);

// Integer hash (the "PCG" hash of Jarzynski and Olano, JCGT 2020, as in
// rq_ambient_occlusion): integers only, so every driver draws the same
// numbers.
uint hash_u32(uint v)
{
   uint state = v * 747796405u + 2891336453u;
   uint word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
   return (word >> 22u) ^ word;
}

// The k-th random number of (pixel, sample, bounce), in [0, 1): 24 bits,
// exactly representable.
float random01(uint pixel, uint sample_index, uint bounce, uint k)
{
   uint h = hash_u32(pixel ^ hash_u32(sample_index ^ hash_u32(bounce * 4u + k)));
   return float(h >> 8u) * (1.0 / 16777216.0);
}

vec3 corner(uint triangle, uint i)
{
   uint v = indices.corner[3u * triangle + i];
   return vec3(positions.xyz[3u * v], positions.xyz[3u * v + 1u], positions.xyz[3u * v + 2u]);
}

// White at and below the horizon, blue towards the zenith (+Y).
vec3 sky(vec3 dir)
{
   return mix(SKY_HORIZON, SKY_ZENITH, clamp(dir.y, 0.0, 1.0));
}

// A cosine-weighted direction about unit n: a uniform point on the unit
// disc in the tangent plane, lifted onto the hemisphere (Malley's method).
vec3 cosine_direction(vec3 n, float u1, float u2)
{
   // Any tangent: cross n with the axis it is least aligned with.
   vec3 axis = abs(n.x) < 0.5 ? vec3(1.0, 0.0, 0.0) : vec3(0.0, 1.0, 0.0);
   vec3 t = normalize(cross(axis, n));
   vec3 b = cross(n, t);
   float r = sqrt(u1);
   float phi = TWO_PI * u2;
   return normalize(r * cos(phi) * t + r * sin(phi) * b + sqrt(max(0.0, 1.0 - u1)) * n);
}

void main()
{
   uvec2 px = gl_GlobalInvocationID.xy;
   uint width = p.size_spp_bounces.x, height = p.size_spp_bounces.y;
   uint spp = p.size_spp_bounces.z, bounces = p.size_spp_bounces.w;
   if (px.x >= width || px.y >= height)
      return;
   uint pixel = px.y * width + px.x;
   float albedo = p.right_albedo.w;

   vec3 sum = vec3(0.0);
   uint rays = 0u;
   for (uint s = 0u; s < spp; s++) {
      // The camera convention of scenes/README.md (pixel (0, 0) top-left),
      // with the point jittered inside the pixel.
      float jx = random01(pixel, s, 0xffffu, 0u), jy = random01(pixel, s, 0xffffu, 1u);
      float sx = (float(px.x) + jx) / float(width) * 2.0 - 1.0;
      float sy = 1.0 - (float(px.y) + jy) / float(height) * 2.0;
      vec3 origin = p.eye_offset.xyz;
      vec3 dir = normalize(p.forward_emit_y.xyz + sx * p.right_albedo.xyz + sy * p.up_emission.xyz);
      vec3 throughput = vec3(1.0);
      for (uint bounce = 0u; bounce <= bounces; bounce++) {
         rayQueryEXT q;
         rayQueryInitializeEXT(q, scene, gl_RayFlagsOpaqueEXT, 0xffu, origin, 0.0, dir, 1e30);
         while (rayQueryProceedEXT(q)) {
         }
         rays++;
         if (rayQueryGetIntersectionTypeEXT(q, true) == gl_RayQueryCommittedIntersectionNoneEXT) {
            sum += throughput * sky(dir);
            break;
         }
         uint triangle = rayQueryGetIntersectionPrimitiveIndexEXT(q, true);
         vec2 bary = rayQueryGetIntersectionBarycentricsEXT(q, true);
         vec3 v0 = corner(triangle, 0u), v1 = corner(triangle, 1u), v2 = corner(triangle, 2u);
         if (min(v0.y, min(v1.y, v2.y)) >= p.forward_emit_y.w)
            sum += throughput * p.up_emission.w;
         if (bounce == bounces)
            break;
         // The scenes' winding is not consistent: the geometric normal,
         // turned to face the incoming ray (double-sided surfaces).
         vec3 n = cross(v1 - v0, v2 - v0);
         float len = length(n);
         n = len > 0.0 ? n / len : -dir; // a sliver too thin for cross()
         if (dot(n, dir) > 0.0)
            n = -n;
         origin = v0 + bary.x * (v1 - v0) + bary.y * (v2 - v0) + n * p.eye_offset.w;
         // Cosine-weighted sampling cancels the cosine and 1/pi of the
         // Lambertian: the throughput only takes the albedo.
         dir = cosine_direction(n, random01(pixel, s, bounce, 2u), random01(pixel, s, bounce, 3u));
         throughput *= albedo;
      }
   }
   vec3 mean = sum / float(spp);
   result.pixels[pixel] = Pixel(mean.r, mean.g, mean.b, rays);
}
