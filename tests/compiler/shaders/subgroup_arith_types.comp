#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_clustered : require
// Every subgroup arithmetic operation on every type Vulkan 1.1 allows
// without shaderSubgroupExtendedTypes (uint, int, float, double, bool):
// reduce, inclusive and exclusive scans, and clustered reduces of sizes
// 1..32, in lanes that sel[] leaves active. 48 invocations per workgroup:
// warps of 32 and 16 lanes (a partial last subgroup).
layout(local_size_x = 48) in;
layout(set = 0, binding = 0) readonly buffer Sel { uint sel[]; };
layout(set = 0, binding = 1) readonly buffer Val { uint val[]; };
layout(set = 0, binding = 2) buffer Out { uint o[]; };
layout(set = 0, binding = 3) buffer OutD { double od[]; };

// Nine results of OP on x: reduce, inclusive, exclusive, clusters 1..32.
#define ALL9(OP, x, k, W)                                                      \
   W(k + 0u, subgroup##OP(x));                                                 \
   W(k + 1u, subgroupInclusive##OP(x));                                        \
   W(k + 2u, subgroupExclusive##OP(x));                                        \
   W(k + 3u, subgroupClustered##OP(x, 1u));                                    \
   W(k + 4u, subgroupClustered##OP(x, 2u));                                    \
   W(k + 5u, subgroupClustered##OP(x, 4u));                                    \
   W(k + 6u, subgroupClustered##OP(x, 8u));                                    \
   W(k + 7u, subgroupClustered##OP(x, 16u));                                   \
   W(k + 8u, subgroupClustered##OP(x, 32u));
#define WU(k, v) o[b + (k)] = uint(v)
#define WF(k, v) o[b + (k)] = floatBitsToUint(v)
#define WD(k, v) od[bd + (k)] = (v)

void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint b = i * 144u, bd = i * 36u;
   uint u = val[i];
   int s = int(u);
   // Sums of up to 32 quarters below 8, products of powers of two: exact
   // in any order.
   float f = float(int(u % 64u) - 32) * 0.25, fm = float(1 << (u % 3u)) * 0.5;
   if ((u & 8u) != 0u)
      fm = -fm;
   double d = double(int(u % 4096u) - 2048) / 1024.0, dm = double(fm);
   bool t = ((u >> 4) & 3u) != 0u;
   if (sel[i] != 0u) {
      ALL9(Add, u, 0u, WU)
      ALL9(Mul, u, 9u, WU)
      ALL9(Min, u, 18u, WU)
      ALL9(Max, u, 27u, WU)
      ALL9(And, u, 36u, WU)
      ALL9(Or, u, 45u, WU)
      ALL9(Xor, u, 54u, WU)
      ALL9(Min, s, 63u, WU)
      ALL9(Max, s, 72u, WU)
      ALL9(Add, f, 81u, WF)
      ALL9(Mul, fm, 90u, WF)
      ALL9(Min, f, 99u, WF)
      ALL9(Max, f, 108u, WF)
      ALL9(And, t, 117u, WU)
      ALL9(Or, t, 126u, WU)
      ALL9(Xor, t, 135u, WU)
      ALL9(Add, d, 0u, WD)
      ALL9(Mul, dm, 9u, WD)
      ALL9(Min, d, 18u, WD)
      ALL9(Max, d, 27u, WD)
   }
}
