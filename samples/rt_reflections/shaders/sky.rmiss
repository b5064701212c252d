#version 460
// A sky gradient by the ray's height.
#extension GL_EXT_ray_tracing : require

struct Payload {
   vec3 color;
   uint depth;
};
layout(location = 0) rayPayloadInEXT Payload payload;

void main()
{
   float h = clamp(gl_WorldRayDirectionEXT.y * 0.5 + 0.5, 0.0, 1.0);
   payload.color = mix(vec3(0.9, 0.9, 0.85), vec3(0.35, 0.55, 0.9), h);
}
