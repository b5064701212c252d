#version 460
#extension GL_EXT_ray_tracing : require
struct Payload {
   uint depth;
   uint limit;
   uint value;
};
layout(location = 0) rayPayloadInEXT Payload p;

void main()
{
   p.value = 0x4D155u + p.depth * 0x100u + uint(gl_RayTmaxEXT);
}
