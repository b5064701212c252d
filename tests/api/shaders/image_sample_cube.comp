#version 450
// textureLod of a cube view at directions from a buffer: (x, y, z, lod) in,
// the filtered RGBA out. test_image_sampling.c compares with its seamless
// ("Cube Map Edge Handling") reference.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform samplerCube cube;
layout(set = 0, binding = 1) readonly buffer Coords { vec4 coords[]; };
layout(set = 0, binding = 2) writeonly buffer Results { vec4 results[]; };
layout(push_constant) uniform Params { uint count; } p;

void main()
{
   uint i = gl_GlobalInvocationID.x;
   if (i >= p.count)
      return;
   vec4 c = coords[i];
   results[i] = textureLod(cube, c.xyz, c.w);
}
