#version 450
// textureLod at coordinates from a buffer: (u, v, lod, unused) in, the
// filtered RGBA out. test_image_sampling.c compares with its reference.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) readonly buffer Coords { vec4 coords[]; };
layout(set = 0, binding = 2) writeonly buffer Results { vec4 results[]; };
layout(push_constant) uniform Params { uint count; } p;

void main()
{
   uint i = gl_GlobalInvocationID.x;
   if (i >= p.count)
      return;
   vec4 c = coords[i];
   results[i] = textureLod(tex, c.xy, c.z);
}
