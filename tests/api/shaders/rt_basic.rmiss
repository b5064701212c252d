#version 460
#extension GL_EXT_ray_tracing : require
layout(location = 0) rayPayloadInEXT uint payload[32];
layout(shaderRecordEXT, std430) buffer Record { uint value; };

void main()
{
   payload[0] = 2u;
   payload[1] = floatBitsToUint(gl_RayTmaxEXT);
   payload[7] = value;
   payload[11] = gl_IncomingRayFlagsEXT;
   payload[15] = floatBitsToUint(gl_RayTminEXT);
   uvec3 direction = floatBitsToUint(gl_WorldRayDirectionEXT);
   uvec3 origin = floatBitsToUint(gl_WorldRayOriginEXT);
   payload[16] = direction.x;
   payload[17] = direction.y;
   payload[18] = direction.z;
   payload[21] = origin.x;
   payload[22] = origin.y;
   payload[23] = origin.z;
}
