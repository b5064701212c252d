#version 460
// The primary ray's hit: its triangle and barycentrics (ao.rgen).
#extension GL_EXT_ray_tracing : require

struct Primary {
   uint hit;
   uint triangle;
   vec2 bary;
};
layout(location = 0) rayPayloadInEXT Primary primary;
hitAttributeEXT vec2 bary;

void main()
{
   primary.hit = 1u;
   primary.triangle = gl_PrimitiveID;
   primary.bary = bary;
}
