#version 450
// Depth compare: textureLod / textureProjLod of a sampler2DShadow and
// textureGather with a reference (OpImageSampleDrefExplicitLod,
// OpImageSampleProjDrefExplicitLod, OpImageDrefGather).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2DShadow shadow;
layout(set = 0, binding = 1) readonly buffer In { vec4 coords[64]; }; // u, v, reference
layout(set = 0, binding = 2) buffer Out { float compared[64]; float projected[64]; vec4 gathered[64]; };

void main() {
   uint i = gl_GlobalInvocationID.x;
   vec4 c = coords[i];
   compared[i] = textureLod(shadow, c.xyz, 0.0);
   projected[i] = textureProjLod(shadow, vec4(c.xy * 2.0, c.z * 2.0, 2.0), 0.0);
   gathered[i] = textureGather(shadow, c.xy, c.z);
}
