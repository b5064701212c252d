#version 450
// textureLod on a depth texture with a compare sampler: (u, v, reference,
// unused) in, the filtered comparison result out.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2DShadow tex;
layout(set = 0, binding = 1) readonly buffer Coords { vec4 coords[]; };
layout(set = 0, binding = 2) writeonly buffer Results { float results[]; };
layout(push_constant) uniform Params { uint count; } p;

void main()
{
   uint i = gl_GlobalInvocationID.x;
   if (i >= p.count)
      return;
   vec4 c = coords[i];
   results[i] = textureLod(tex, c.xyz, 0.0);
}
