#version 450
// FP32 FMA latency (ppu_microbench): one invocation runs `steps` x 8
// dependent fused multiply-adds whose operands come from push constants (so
// nothing folds); the cycles per FMA are its latency to a dependent one.
layout(local_size_x = 1) in;
layout(std430, binding = 0) readonly buffer Unused { uint unused[]; };
layout(std430, binding = 1) writeonly buffer Sink { uint sink[]; };
layout(push_constant) uniform Params { uint scale_bits; uint steps; } params;

void main()
{
   float a = uintBitsToFloat(params.scale_bits), x = 1.0;
   for (uint k = 0u; k < params.steps; k++) {
      x = fma(x, a, 0.5);
      x = fma(x, a, 0.5);
      x = fma(x, a, 0.5);
      x = fma(x, a, 0.5);
      x = fma(x, a, 0.5);
      x = fma(x, a, 0.5);
      x = fma(x, a, 0.5);
      x = fma(x, a, 0.5);
   }
   sink[0] = floatBitsToUint(x);
}
