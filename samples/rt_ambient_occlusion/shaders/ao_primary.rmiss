#version 460
// Miss shader 0: the primary ray hit nothing (ao.rgen already set hit = 0).
#extension GL_EXT_ray_tracing : require

struct Primary {
   uint hit;
   uint triangle;
   vec2 bary;
};
layout(location = 0) rayPayloadInEXT Primary primary;

void main()
{
   primary.hit = 0u;
}
