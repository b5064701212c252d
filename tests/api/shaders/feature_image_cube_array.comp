#version 450
// imageCubeArray: textureLod of a cube-array view (two cubes of 1x1 faces,
// each face its own colour) along the six axes of each cube.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform samplerCubeArray cubes;
layout(set = 0, binding = 1) writeonly buffer Out { vec4 colors[]; };

void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint face = i % 6u, cube = (i / 6u) % 2u;
   vec3 axis = vec3(0.0);
   axis[face / 2u] = (face % 2u) == 0u ? 1.0 : -1.0;
   colors[i] = textureLod(cubes, vec4(axis, float(cube)), 0.0);
}
