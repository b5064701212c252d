#version 460
#extension GL_EXT_ray_tracing : require
layout(location = 0) rayPayloadInEXT uint payload[32];
layout(location = 1) callableDataEXT uint callable_value;
hitAttributeEXT vec2 attribs;
layout(shaderRecordEXT, std430) buffer Record { uint value; };

void main()
{
   payload[0] = 1u;
   payload[1] = floatBitsToUint(gl_RayTmaxEXT);
   payload[2] = gl_InstanceCustomIndexEXT;
   payload[3] = gl_InstanceID;
   payload[4] = gl_PrimitiveID;
   payload[5] = gl_GeometryIndexEXT;
   payload[6] = gl_HitKindEXT;
   payload[7] = value;
   payload[8] = floatBitsToUint(attribs.x);
   payload[9] = floatBitsToUint(attribs.y);
   payload[11] = gl_IncomingRayFlagsEXT;
   payload[15] = floatBitsToUint(gl_RayTminEXT);
   uvec3 object_origin = floatBitsToUint(gl_ObjectRayOriginEXT);
   uvec3 direction = floatBitsToUint(gl_WorldRayDirectionEXT);
   uvec3 origin = floatBitsToUint(gl_WorldRayOriginEXT);
   payload[12] = object_origin.x;
   payload[13] = object_origin.y;
   payload[14] = object_origin.z;
   payload[16] = direction.x;
   payload[17] = direction.y;
   payload[18] = direction.z;
   payload[21] = origin.x;
   payload[22] = origin.y;
   payload[23] = origin.z;
   payload[24] = floatBitsToUint(gl_ObjectToWorldEXT[3][0]);
   payload[25] = floatBitsToUint(gl_WorldToObjectEXT[3][0]);
   payload[26] = floatBitsToUint(gl_ObjectRayDirectionEXT.z);
   // A callable from a closest-hit shader (instance 3 only).
   if (gl_InstanceCustomIndexEXT == 13u) {
      callable_value = 5u;
      executeCallableEXT(0, 1);
      payload[19] = callable_value;
   }
}
