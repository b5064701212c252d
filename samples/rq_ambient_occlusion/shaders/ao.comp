#version 460
// Ray-query ambient occlusion (the MICRO'21 ray-intersection-predictor
// workload): one primary ray per pixel, then spp cosine-weighted AO rays from
// the first hit. Writes, per pixel, how many AO rays escaped (0..spp), or
// MISSED when the primary ray hit nothing; the host turns that into the image
// and the statistics, so both are integers and identical on every driver up
// to float differences in traversal.
#extension GL_EXT_ray_query : require
layout(local_size_x = 8, local_size_y = 8) in;

layout(push_constant) uniform Params {
   vec4 eye_radius;       // xyz: eye; w: AO radius (t_max of the AO rays)
   vec4 right_diagonal;   // xyz: right * tan(fov / 2); w: scene bbox diagonal
   vec4 up;               // xyz: true up * tan(fov / 2)
   vec4 forward;          // xyz: unit view direction
   uvec4 size_spp;        // width, height, AO rays per pixel, unused
} p;

layout(set = 0, binding = 0) uniform accelerationStructureEXT scene;
layout(set = 0, binding = 1, std430) writeonly buffer Result {
   uint unoccluded[];
} result;
// The same buffers the BLAS was built from: the shader needs the hit
// triangle's corners for its geometric normal.
layout(set = 0, binding = 2, std430) readonly buffer Positions {
   float xyz[];
} positions;
layout(set = 0, binding = 3, std430) readonly buffer Indices {
   uint corner[];
} indices;

const uint MISSED = 0xffffffffu;
// scenes/README.md: AO rays start 1e-5 x bbox diagonal off the surface.
const float ORIGIN_OFFSET = 1e-5;
const float PI = 3.14159265358979;

// PCG-style integer hash (Jarzynski and Olano, "Hash Functions for GPU
// Rendering", JCGT 2020): integers only, so every driver draws the same
// directions.
uint pcg_hash(uint v)
{
   uint state = v * 747796405u + 2891336453u;
   uint word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
   return (word >> 22u) ^ word;
}

// The top 24 bits: exactly representable, in [0, 1).
float unit_float(uint h)
{
   return float(h >> 8u) * (1.0 / 16777216.0);
}

vec3 vertex_position(uint v)
{
   return vec3(positions.xyz[3u * v], positions.xyz[3u * v + 1u], positions.xyz[3u * v + 2u]);
}

// Orthonormal basis around unit n without a branch on n's direction (Duff et
// al., "Building an Orthonormal Basis, Revisited", JCGT 2017).
void basis(vec3 n, out vec3 t, out vec3 b)
{
   float s = n.z >= 0.0 ? 1.0 : -1.0;
   float a = -1.0 / (s + n.z);
   float c = n.x * n.y * a;
   t = vec3(1.0 + s * n.x * n.x * a, s * c, -s * n.x);
   b = vec3(c, s + n.y * n.y * a, -n.y);
}

void main()
{
   uvec2 px = gl_GlobalInvocationID.xy;
   uint width = p.size_spp.x, height = p.size_spp.y, spp = p.size_spp.z;
   if (px.x >= width || px.y >= height)
      return;
   uint pixel = px.y * width + px.x;

   // The camera convention of scenes/README.md: pixel (0, 0) is top-left.
   float sx = (float(px.x) + 0.5) / float(width) * 2.0 - 1.0;
   float sy = 1.0 - (float(px.y) + 0.5) / float(height) * 2.0;
   vec3 dir = normalize(p.forward.xyz + sx * p.right_diagonal.xyz + sy * p.up.xyz);

   rayQueryEXT primary;
   rayQueryInitializeEXT(primary, scene, gl_RayFlagsOpaqueEXT, 0xffu, p.eye_radius.xyz, 0.0, dir,
                         1e30);
   while (rayQueryProceedEXT(primary)) {
   }
   if (rayQueryGetIntersectionTypeEXT(primary, true) ==
       gl_RayQueryCommittedIntersectionNoneEXT) {
      result.unoccluded[pixel] = MISSED;
      return;
   }
   uint triangle = rayQueryGetIntersectionPrimitiveIndexEXT(primary, true);
   vec2 bary = rayQueryGetIntersectionBarycentricsEXT(primary, true);
   vec3 v0 = vertex_position(indices.corner[3u * triangle]);
   vec3 e1 = vertex_position(indices.corner[3u * triangle + 1u]) - v0;
   vec3 e2 = vertex_position(indices.corner[3u * triangle + 2u]) - v0;
   // The scenes' winding is not consistent: use the geometric normal turned
   // towards the eye (double-sided surfaces).
   vec3 n = cross(e1, e2);
   float len = length(n);
   n = len > 0.0 ? n / len : -dir; // a sliver too thin for cross(): face the ray
   if (dot(n, dir) > 0.0)
      n = -n;
   vec3 hit = v0 + bary.x * e1 + bary.y * e2;
   vec3 origin = hit + n * (ORIGIN_OFFSET * p.right_diagonal.w);
   vec3 t, b;
   basis(n, t, b);

   uint escaped = 0u;
   uint pixel_seed = pcg_hash(pixel);
   for (uint i = 0u; i < spp; i++) {
      uint h1 = pcg_hash(pixel_seed + i);
      uint h2 = pcg_hash(h1);
      // Cosine-weighted hemisphere: uniform on the disc, lifted onto it.
      float u1 = unit_float(h1);
      float phi = 2.0 * PI * unit_float(h2);
      float r = sqrt(u1);
      vec3 ao_dir = r * cos(phi) * t + r * sin(phi) * b + sqrt(max(0.0, 1.0 - u1)) * n;

      rayQueryEXT occlusion;
      rayQueryInitializeEXT(occlusion, scene,
                            gl_RayFlagsTerminateOnFirstHitEXT | gl_RayFlagsOpaqueEXT, 0xffu,
                            origin, 0.0, ao_dir, p.eye_radius.w);
      while (rayQueryProceedEXT(occlusion)) {
      }
      if (rayQueryGetIntersectionTypeEXT(occlusion, true) ==
          gl_RayQueryCommittedIntersectionNoneEXT)
         escaped++;
   }
   result.unoccluded[pixel] = escaped;
}
