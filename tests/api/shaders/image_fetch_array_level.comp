#version 450
// texelFetch of every texel (x, y, layer) of one level of a 2D-array view,
// row by row and layer by layer; the level and the level's size come in
// push constants.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2DArray tex;
layout(set = 0, binding = 1) writeonly buffer Out { vec4 texels[]; };
layout(push_constant) uniform Params { int level, w, h, layers; } p;

void main()
{
   int i = int(gl_GlobalInvocationID.x);
   if (i >= p.w * p.h * p.layers)
      return;
   texels[i] = texelFetch(tex, ivec3(i % p.w, (i / p.w) % p.h, i / (p.w * p.h)), p.level);
}
