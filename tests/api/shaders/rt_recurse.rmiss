#version 460
#extension GL_EXT_ray_tracing : require
layout(location = 0) rayPayloadInEXT uvec2 incoming;

void main()
{
   incoming.x = 1000u;
}
