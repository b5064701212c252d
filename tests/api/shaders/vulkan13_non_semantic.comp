#version 450
#extension GL_EXT_debug_printf : require
// NonSemantic.DebugPrintf instructions among the arithmetic: the driver
// ignores them (VK_KHR_shader_non_semantic_info), the result is i * 3 + 1.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer IO { uint w[]; } io;
void main()
{
   uint i = gl_LocalInvocationIndex;
   debugPrintfEXT("lane %u", i);
   io.w[i] = i * 3u + 1u;
}
