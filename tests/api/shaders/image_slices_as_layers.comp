#version 450
// 2D views of slices of a 3D image (2D_ARRAY_COMPATIBLE with
// VK_EXT_image_2d_view_of_3d): every texel of one slice's view read with
// texelFetch and imageLoad, every texel of another slice's view written with
// imageStore, and the sizes the views report. test_image_compatibility.c
// checks all against the 3D image.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D sampled;
layout(set = 0, binding = 1, rgba8) uniform readonly image2D loaded;
layout(set = 0, binding = 2, rgba8) uniform writeonly image2D stored;
layout(set = 0, binding = 3) writeonly buffer Out { vec4 texels[]; };
layout(set = 0, binding = 4) writeonly buffer Sizes { ivec2 sizes[]; };

void main()
{
   ivec2 id = ivec2(gl_GlobalInvocationID.xy);
   ivec2 size = imageSize(loaded);
   if (id.x < size.x && id.y < size.y) {
      uint i = uint(id.y * size.x + id.x);
      texels[2u * i] = texelFetch(sampled, id, 0);
      texels[2u * i + 1u] = imageLoad(loaded, id);
   }
   ivec2 s = imageSize(stored);
   if (id.x < s.x && id.y < s.y)
      imageStore(stored, id, vec4(id.x, id.y, 255 - id.x, 128) / 255.0);
   if (id == ivec2(0)) {
      sizes[0] = textureSize(sampled, 0);
      sizes[1] = size;
      sizes[2] = s;
   }
}
