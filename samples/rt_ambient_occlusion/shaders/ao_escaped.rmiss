#version 460
// Miss shader 1: an AO ray that hits nothing has escaped (ao.rgen).
#extension GL_EXT_ray_tracing : require

layout(location = 1) rayPayloadInEXT uint escaped_flag;

void main()
{
   escaped_flag = 1u;
}
