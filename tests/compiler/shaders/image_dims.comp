#version 450
// Every view type: a 1D array, a 3D image, a cube and a cube array sampled,
// a cube array loaded as a storage image with face-layer coordinates, and
// their sizes; a gather with four offsets and a projective sample.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler1DArray line;
layout(set = 0, binding = 1) uniform sampler3D volume;
layout(set = 0, binding = 2) uniform samplerCube cube;
layout(set = 0, binding = 3) uniform samplerCubeArray cubes;
layout(set = 0, binding = 4, r32f) uniform readonly imageCubeArray cube_image;
layout(set = 0, binding = 5) uniform sampler2D plane;
layout(set = 0, binding = 6) buffer Out {
   float line_values[64];
   float volume_values[64];
   float cube_values[64];
   float cubes_values[64];
   float image_values[64];
   vec4 gathered[64];
   float projected[64];
   ivec4 sizes[4];
};

const vec3 face_directions[6] = vec3[6](vec3(1, 0, 0), vec3(-1, 0, 0), vec3(0, 1, 0),
                                        vec3(0, -1, 0), vec3(0, 0, 1), vec3(0, 0, -1));

void main() {
   uint i = gl_GlobalInvocationID.x;
   int x = int(i % 8u), layer = int(i / 8u) % 3;
   line_values[i] = textureLod(line, vec2((float(x) + 0.5) / 8.0, float(layer)), 0.0).x;
   ivec3 p = ivec3(i % 4u, (i / 4u) % 4u, (i / 16u) % 4u);
   volume_values[i] = texelFetch(volume, p, 0).x + textureLod(volume, (vec3(p) + 0.5) / 4.0, 0.0).x;
   vec3 direction = face_directions[i % 6u];
   cube_values[i] = textureLod(cube, direction, 0.0).x;
   cubes_values[i] = textureLod(cubes, vec4(direction, float((i / 6u) % 2u)), 0.0).x;
   image_values[i] = imageLoad(cube_image, ivec3(i % 2u, (i / 2u) % 2u, i % 12u)).x;
   gathered[i] = textureGatherOffsets(plane, vec2(0.5),
                                      ivec2[4](ivec2(0, 0), ivec2(1, 0), ivec2(0, 1), ivec2(-1, -1)));
   projected[i] = textureProjLod(plane, vec3((vec2(float(x)) + 0.5) / 8.0 * 2.0, 2.0), 0.0).x;
   if (i == 0u) {
      sizes[0] = ivec4(textureSize(line, 0), 0, 0);
      sizes[1] = ivec4(textureSize(volume, 0), 0);
      sizes[2] = ivec4(textureSize(cubes, 0), 0);
      sizes[3] = ivec4(imageSize(cube_image), 0);
   }
}
