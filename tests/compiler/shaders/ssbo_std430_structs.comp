#version 450
// std430 runtime array of structs with vec3/float members; read-modify-write.
layout(local_size_x = 64) in;
struct Particle { vec3 pos; float mass; vec2 vel; uint id; };
layout(std430, set = 0, binding = 0) buffer Particles { uint count; Particle p[]; } ps;
void main() {
   uint i = gl_GlobalInvocationID.x;
   if (i >= ps.count)
      return;
   Particle q = ps.p[i];
   q.pos += vec3(q.vel, 1.0) * q.mass;
   q.id = q.id * 2u + 1u;
   ps.p[i] = q;
}
