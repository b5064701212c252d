#version 450
// shaderStorageImageReadWithoutFormat: imageLoad from a storage image whose
// format the shader does not declare (a 16x16 R8G8B8A8_UNORM image).
#extension GL_EXT_shader_image_load_formatted : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform readonly image2D img;
layout(set = 0, binding = 1) writeonly buffer Out { vec4 texels[]; };

void main()
{
   uint i = gl_GlobalInvocationID.x;
   texels[i] = imageLoad(img, ivec2(i % 16u, i / 16u));
}
