#version 450
// textureGrad over a 256x256 texture of vertical stripes, as a floor seen at
// a grazing angle: invocation i = 64 * row + column samples at
// u = (column + 0.5) / 64 * 0.37 + 0.05, v = (row + 0.5) / 64, with one
// texel per pixel across (dPdx = (1/256, 0)) and k = 1 + row / 4 texels per
// pixel along (dPdy = (0, k/256)): the footprint's anisotropy grows with the
// row to 16. test_texture_anisotropy.c runs it on vkppu and lavapipe.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) writeonly buffer Out { vec4 texels[]; };

void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint column = i % 64u, row = i / 64u;
   vec2 uv = vec2((float(column) + 0.5) / 64.0 * 0.37 + 0.05, (float(row) + 0.5) / 64.0);
   float k = 1.0 + float(row / 4u);
   texels[i] = textureGrad(tex, uv, vec2(1.0 / 256.0, 0.0), vec2(0.0, k / 256.0));
}
