/* VK_KHR_spirv_1_4 and VK_KHR_shader_float_controls through the loader,
 * with validation on: the float-controls properties are consistent, and
 * SPIR-V 1.4 modules (entry points listing every global they use) that
 * declare the modes a device reports run with those semantics: denormals
 * kept, ties rounded to even, signed zeros, infinities and NaNs honoured,
 * for 32- and 64-bit floats (shaders/spirv14_float_controls32/64.comp). */
#include <math.h>
#include <string.h>

#include "compute_test_util.h"
#include "vk_test_context.h"

static bool float_controls_properties(struct vkt_context *ctx,
                                      VkPhysicalDeviceFloatControlsProperties *fc)
{
   if (!vkt_has_device_extension(ctx, VK_KHR_SPIRV_1_4_EXTENSION_NAME) ||
       !vkt_has_device_extension(ctx, VK_KHR_SHADER_FLOAT_CONTROLS_EXTENSION_NAME)) {
      vkt_skip("%s does not offer VK_KHR_spirv_1_4", ctx->props.deviceName);
      return false;
   }
   memset(fc, 0, sizeof(*fc));
   fc->sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES;
   VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                     .pNext = fc};
   vkGetPhysicalDeviceProperties2KHR(ctx->physical_device, &p2);
   return true;
}

static bool independence_valid(VkShaderFloatControlsIndependence v)
{
   return v == VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_32_BIT_ONLY ||
          v == VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_ALL ||
          v == VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_NONE;
}

TEST_CASE(float_controls_properties_are_what_the_hardware_does)
{
   struct vkt_context ctx;
   if (!vkt_context_create(&ctx))
      return;
   VkPhysicalDeviceFloatControlsProperties fc;
   if (float_controls_properties(&ctx, &fc)) {
      CHECK(independence_valid(fc.denormBehaviorIndependence));
      CHECK(independence_valid(fc.roundingModeIndependence));
      if (ctx.is_vkppu) {
         /* icd/physical_device_properties.c: F32/F64 always round to
          * nearest even and keep denormals; no flush, no RTZ, no F16. */
         CHECK(fc.shaderDenormPreserveFloat32 && fc.shaderDenormPreserveFloat64);
         CHECK(fc.shaderRoundingModeRTEFloat32 && fc.shaderRoundingModeRTEFloat64);
         CHECK(fc.shaderSignedZeroInfNanPreserveFloat32 &&
               fc.shaderSignedZeroInfNanPreserveFloat64);
         CHECK(!fc.shaderDenormFlushToZeroFloat16 && !fc.shaderDenormFlushToZeroFloat32 &&
               !fc.shaderDenormFlushToZeroFloat64);
         CHECK(!fc.shaderRoundingModeRTZFloat16 && !fc.shaderRoundingModeRTZFloat32 &&
               !fc.shaderRoundingModeRTZFloat64);
         CHECK(!fc.shaderDenormPreserveFloat16 && !fc.shaderRoundingModeRTEFloat16 &&
               !fc.shaderSignedZeroInfNanPreserveFloat16);
      }
   }
   vkt_context_destroy(&ctx);
}

/* Both shaders read in[0..IN_COUNT) and write from OUT_FIRST on. */
#define IN_COUNT 16
#define OUT_FIRST 16
#define OUT_COUNT 10

/* Runs shader `name` once on a buffer of OUT_FIRST + OUT_COUNT elements of
 * `elem` bytes, in[] first; results land in out[0..OUT_COUNT). */
static bool run_float_controls(struct vkt_context *ctx, const char *name, size_t elem,
                               const void *in, void *out)
{
   const char *const exts[] = {VK_KHR_SPIRV_1_4_EXTENSION_NAME,
                               VK_KHR_SHADER_FLOAT_CONTROLS_EXTENSION_NAME};
   VkPhysicalDeviceFeatures core = {.shaderFloat64 = elem == sizeof(double)};
   struct vkt_device_desc desc = {.extensions = exts, .extension_count = 2, .features = &core};
   struct vkt_device dev;
   VkResult res = vkt_device_create(ctx, &desc, &dev);
   if (res != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "vkCreateDevice -> %s", vkt_result_name(res));
      return false;
   }
   const VkDescriptorSetLayoutBinding binding = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                                 VK_SHADER_STAGE_COMPUTE_BIT, NULL};
   struct ctu_program p;
   bool ok = ctu_program_create(&dev, name, &binding, 1, sizeof(float), 1, &p);
   struct vkt_buffer buf;
   VKT_CHECK(vkt_buffer_create(&dev, (OUT_FIRST + OUT_COUNT) * elem,
                               VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKT_MEMORY_HOST, &buf));
   if (ok && buf.map) {
      memset(buf.map, 0, (OUT_FIRST + OUT_COUNT) * elem);
      memcpy(buf.map, in, IN_COUNT * elem);
      VkDescriptorSet set = ctu_program_set(&dev, &p);
      ctu_write_buffer(&dev, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, buf.buffer, 0,
                       VK_WHOLE_SIZE);
      VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx->universal_family);
      ctu_program_bind(cmd, &p, set);
      const float one = 1.0f;
      vkCmdPushConstants(cmd, p.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(one), &one);
      vkCmdDispatch(cmd, 1, 1, 1);
      ctu_compute_to_host_barrier(cmd);
      res = vkt_cmd_submit_wait(&dev, ctx->universal_family, 0, cmd);
      VKT_CHECK(res);
      ok = res == VK_SUCCESS;
      memcpy(out, (char *)buf.map + OUT_FIRST * elem, OUT_COUNT * elem);
   }
   vkt_buffer_destroy(&dev, &buf);
   ctu_program_destroy(&dev, &p);
   vkt_device_destroy(&dev);
   return ok;
}

/* What each result is (compared bit for bit, NaNs as any NaN). */
static const char *const result_names[OUT_COUNT] = {"min normal * 0.5 (denormal)",
                                                    "denormal + denormal",
                                                    "1 + half ulp (tie to even: 1)",
                                                    "1 + ulp + half ulp (tie to even)",
                                                    "-0 * 1",
                                                    "-0 + -0",
                                                    "inf - 1",
                                                    "inf * 0",
                                                    "NaN + 1",
                                                    "-(-0)"};

/* One width's case: inputs and expected results follow from the format's
 * minimum normal and denormal exponents and its precision (24 or 53
 * bits), computed in double and narrowed exactly for 32 bits. */
static void check_float_controls(int bits)
{
   struct vkt_context ctx;
   if (!vkt_context_create(&ctx))
      return;
   VkPhysicalDeviceFloatControlsProperties fc;
   if (!float_controls_properties(&ctx, &fc)) {
      vkt_context_destroy(&ctx);
      return;
   }
   VkPhysicalDeviceFeatures features;
   vkGetPhysicalDeviceFeatures(ctx.physical_device, &features);
   const bool wide = bits == 64;
   const bool modes = wide ? fc.shaderDenormPreserveFloat64 && fc.shaderRoundingModeRTEFloat64 &&
                                 fc.shaderSignedZeroInfNanPreserveFloat64 && features.shaderFloat64
                           : fc.shaderDenormPreserveFloat32 && fc.shaderRoundingModeRTEFloat32 &&
                                 fc.shaderSignedZeroInfNanPreserveFloat32;
   if (!modes) {
      vkt_skip("%s lacks a %d-bit float-controls mode the shader declares (or doubles)",
               ctx.props.deviceName, bits);
      vkt_context_destroy(&ctx);
      return;
   }
   const int min_normal = wide ? -1022 : -126, min_denormal = wide ? -1074 : -149;
   const int precision = wide ? 53 : 24;
   const double in[IN_COUNT] = {ldexp(1, min_normal),
                                0.5,
                                ldexp(1, min_denormal),
                                1,
                                ldexp(1, -precision),
                                1 + ldexp(1, 1 - precision),
                                -0.0,
                                INFINITY,
                                0,
                                NAN};
   const double want[OUT_COUNT] = {ldexp(1, min_normal - 1),
                                   ldexp(1, min_denormal + 1),
                                   1,
                                   1 + ldexp(1, 2 - precision),
                                   -0.0,
                                   -0.0,
                                   INFINITY,
                                   NAN,
                                   NAN,
                                   0.0};
   union {
      float f[OUT_FIRST + OUT_COUNT];
      double d[OUT_FIRST + OUT_COUNT];
   } buf_in, buf_out;
   for (int i = 0; i < IN_COUNT; i++) {
      if (wide)
         buf_in.d[i] = in[i];
      else
         buf_in.f[i] = (float)in[i];
   }
   const size_t elem = wide ? sizeof(double) : sizeof(float);
   if (run_float_controls(&ctx, wide ? "spirv14_float_controls64" : "spirv14_float_controls32",
                          elem, &buf_in, &buf_out)) {
      for (int i = 0; i < OUT_COUNT; i++) {
         double got = wide ? buf_out.d[i] : buf_out.f[i];
         bool same;
         if (isnan(want[i]))
            same = isnan(got);
         else if (wide)
            same = !memcmp(&want[i], &buf_out.d[i], sizeof(double));
         else
            same = !memcmp(&(float){(float)want[i]}, &buf_out.f[i], sizeof(float));
         CHECK_MSG(same, "%d bits, %s: got %a, expected %a", bits, result_names[i], got, want[i]);
      }
   }
   vkt_context_destroy(&ctx);
}

TEST_CASE(float_controls_32_bit_modes_hold)
{
   check_float_controls(32);
}

TEST_CASE(float_controls_64_bit_modes_hold)
{
   check_float_controls(64);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
