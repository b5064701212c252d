#version 460
#extension GL_EXT_ray_tracing : require
// Traces again past its own hit (tmin = t + 0.5: the next triangle up)
// until the payload's depth reaches its limit. keep[] and the built-ins
// read after the inner trace must still be this hit's: a callee that
// clobbered them (registers, locals or the hit record) changes the value.
layout(set = 0, binding = 0) uniform accelerationStructureEXT tlas;
struct Payload {
   uint depth;
   uint limit;
   uint value;
};
layout(location = 0) rayPayloadInEXT Payload p;
layout(location = 1) rayPayloadEXT Payload q;

uint mixu(uint a, uint b)
{
   a = (a ^ (b * 0x9E3779B1u)) * 0x85EBCA6Bu;
   return a ^ (a >> 13u);
}

void main()
{
   uint d = p.depth;
   uint keep[4];
   for (uint i = 0u; i < 4u; i++)
      keep[i] = mixu(p.value + i, d * 16u + uint(gl_PrimitiveID) * 4u + i);
   uint inner = 0x600Du;
   if (d < p.limit) {
      q = Payload(d + 1u, p.limit, keep[d & 3u]);
      traceRayEXT(tlas, gl_RayFlagsOpaqueEXT, 0xff, 0, 0, 0, gl_WorldRayOriginEXT,
                  gl_HitTEXT + 0.5, gl_WorldRayDirectionEXT, 100.0, 1);
      inner = q.value;
   }
   // Read after the inner trace on purpose.
   uint prim = uint(gl_PrimitiveID);
   uint t16 = uint(round(gl_HitTEXT * 16.0));
   uint custom = uint(gl_InstanceCustomIndexEXT);
   uint ox = uint(round(gl_WorldRayOriginEXT.x * 8.0));
   p.value = mixu(keep[(inner + d) & 3u] ^ inner, prim * 1000u + t16) + keep[3] * custom + ox +
             (keep[1] ^ keep[2]);
}
