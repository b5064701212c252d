#version 460
// The camera of scenes/README.md as a projection: a point eye + t * (forward
// + sx * right + sy * up) lands on screen position (sx, sy), (-1, 1) the
// top-left corner, at depth t along the unit forward vector. Clip
// coordinates are (sx * t, -sy * t, z, t) with z mapping [near, far] to
// [0, 1] (Vulkan's y points down).
#extension GL_GOOGLE_include_directive : require
#include "params.glsl"

layout(location = 0) in vec3 position;
layout(location = 0) out vec3 world;

void main()
{
   vec3 d = position - p.eye_near.xyz;
   float t = dot(d, p.forward.xyz);
   float x = dot(d, p.right_far.xyz) / dot(p.right_far.xyz, p.right_far.xyz);
   float y = dot(d, p.up_offset.xyz) / dot(p.up_offset.xyz, p.up_offset.xyz);
   float near = p.eye_near.w, far = p.right_far.w;
   gl_Position = vec4(x, -y, (t - near) * far / (far - near), t);
   world = position;
}
