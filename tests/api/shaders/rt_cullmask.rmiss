#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_EXT_ray_cull_mask : require
layout(location = 0) rayPayloadInEXT uvec2 incoming;

void main()
{
   incoming = uvec2(2000u, gl_CullMaskEXT);
}
