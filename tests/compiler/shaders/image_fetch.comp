#version 450
// texelFetch of every level and layer of a 2D array (usampler2DArray),
// a fetch with a constant offset, out-of-range fetches (robust: 0), and
// textureSize / textureQueryLevels of every level.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) uniform usampler2DArray tex;
layout(set = 0, binding = 1) buffer Texels { uint texels[]; };
layout(set = 0, binding = 2) buffer Sizes { ivec4 sizes[8]; uint offset_texels[256]; uint outside[256]; };
layout(push_constant) uniform P { int levels; int layers; };

void main() {
   ivec2 p = ivec2(gl_LocalInvocationID.xy);
   int n = 0;
   for (int level = 0; level < levels; level++) {
      for (int layer = 0; layer < layers; layer++) {
         ivec3 size = textureSize(tex, level);
         uint v = 0xffffffffu;
         if (p.x < size.x && p.y < size.y)
            v = texelFetch(tex, ivec3(p, layer), level).x;
         texels[n * 256 + p.y * 16 + p.x] = v;
         n++;
      }
   }
   uint i = gl_LocalInvocationIndex;
   if (p.x < 15 && p.y < 14)
      offset_texels[i] = texelFetchOffset(tex, ivec3(p, 1), 0, ivec2(1, 2)).x;
   outside[i] = texelFetch(tex, ivec3(p.x + 16, p.y, 0), 0).x + texelFetch(tex, ivec3(p, layers), 0).x +
                texelFetch(tex, ivec3(p, 0), levels).x;
   if (i < uint(levels))
      sizes[i] = ivec4(textureSize(tex, int(i)), textureQueryLevels(tex));
}
