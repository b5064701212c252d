/* Vulkan 1.3 as a device reports it: the VkPhysicalDeviceVulkan13Features
 * block against the promoted extensions' structs, and one case per 1.3
 * feature the device reports that uses it, with SPIR-V 1.6 shaders (glslang
 * --target-env vulkan1.3).
 *
 * A device that reports 1.3 is tested through the core names; a device that
 * reports 1.2 (vkppu until every 1.3 requirement works) through the
 * promoted extensions it lists, so each feature is tested as it lands. A
 * case whose extension a 1.2 device does not list skips. Runs on vkppu and
 * on lavapipe; the checks of vkppu's own values are vkppu-only. */
#include <string.h>

#include "graphics_test_util.h"

/* ---------------------------------------------------------------------------
 * Devices: core 1.3 or the promoted extension
 * ------------------------------------------------------------------------- */

static bool is_1_3(const struct vkt_context *ctx)
{
   return ctx->props.apiVersion >= VK_API_VERSION_1_3;
}

/* A context whose device reports Vulkan 1.3, or 1.2 and lists `ext` (NULL:
 * only 1.3 will do); false (skipped, nothing left to destroy) otherwise. */
static bool context_with(struct vkt_context *ctx, const char *ext)
{
   if (!vkt_context_create(ctx))
      return false;
   if (is_1_3(ctx))
      return true;
   if (ext && ctx->props.apiVersion >= VK_API_VERSION_1_2 && vkt_has_device_extension(ctx, ext))
      return true;
   vkt_skip("%s reports Vulkan 1.%u%s%s", ctx->props.deviceName,
            VK_API_VERSION_MINOR(ctx->props.apiVersion), ext ? " and does not list " : "",
            ext ? ext : "");
   vkt_context_destroy(ctx);
   return false;
}

/* A device with `chain` (feature structs, may be NULL) enabled and, below
 * 1.3, the extension `ext` (and `ext2` when not NULL); false (the case
 * failed, the context destroyed) on error. */
static bool device_with(struct vkt_context *ctx, struct vkt_device *dev, const char *ext,
                        const char *ext2, const VkPhysicalDeviceFeatures *core, void *chain)
{
   const char *exts[2] = {ext, ext2};
   /* glslang gives SPIR-V 1.6 compute shaders LocalSizeId, which needs
    * maintenance4 (VUID-RuntimeSpirv-LocalSizeId-06434). */
   VkPhysicalDeviceMaintenance4Features m4 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES,
       .pNext = chain,
       .maintenance4 = VK_TRUE};
   struct vkt_device_desc desc = {.features = core, .feature_chain = chain};
   if (is_1_3(ctx))
      desc.feature_chain = &m4;
   if (!is_1_3(ctx) && ext) {
      desc.extensions = exts;
      desc.extension_count = ext2 ? 2 : 1;
   }
   VkResult r = vkt_device_create(ctx, &desc, dev);
   if (r != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "vkCreateDevice with %s -> %s", ext ? ext : "1.3 features",
                vkt_result_name(r));
      vkt_context_destroy(ctx);
      return false;
   }
   return true;
}

/* The name of a vulkan13_* shader for this device: SPIR-V 1.6 on a 1.3
 * device, the SPIR-V 1.5 build (shaders/spv15/) below 1.3. */
static const char *shader_for(const struct vkt_context *ctx, const char *name)
{
   static char buf[128];
   snprintf(buf, sizeof(buf), "%s%s", is_1_3(ctx) ? "" : "spv15/", name);
   return buf;
}

/* ---------------------------------------------------------------------------
 * Features
 * ------------------------------------------------------------------------- */

#define SAME_FEATURE(v, ext, member)                                                               \
   CHECK_MSG((v).member == (ext).member, #member ": Vulkan13Features %u, %s %u", (v).member, #ext, \
             (ext).member)

/* Vulkan spec, "Feature Requirements": what every 1.3 device has, and the
 * Vulkan13Features block equal to every promoted struct, member by
 * member. */
TEST_CASE(vulkan_1_3_features_equal_the_promoted_extension_structs)
{
   struct vkt_context ctx;
   if (!context_with(&ctx, NULL))
      return;
   VkPhysicalDeviceImageRobustnessFeatures robust = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_ROBUSTNESS_FEATURES};
   VkPhysicalDeviceInlineUniformBlockFeatures inl = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INLINE_UNIFORM_BLOCK_FEATURES, .pNext = &robust};
   VkPhysicalDevicePipelineCreationCacheControlFeatures cache = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_CREATION_CACHE_CONTROL_FEATURES,
       .pNext = &inl};
   VkPhysicalDevicePrivateDataFeatures priv = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIVATE_DATA_FEATURES, .pNext = &cache};
   VkPhysicalDeviceShaderDemoteToHelperInvocationFeatures demote = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DEMOTE_TO_HELPER_INVOCATION_FEATURES,
       .pNext = &priv};
   VkPhysicalDeviceShaderTerminateInvocationFeatures term = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_TERMINATE_INVOCATION_FEATURES,
       .pNext = &demote};
   VkPhysicalDeviceSubgroupSizeControlFeatures sg = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES, .pNext = &term};
   VkPhysicalDeviceSynchronization2Features sync2 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES, .pNext = &sg};
   VkPhysicalDeviceTextureCompressionASTCHDRFeatures astc = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TEXTURE_COMPRESSION_ASTC_HDR_FEATURES,
       .pNext = &sync2};
   VkPhysicalDeviceZeroInitializeWorkgroupMemoryFeatures zero = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ZERO_INITIALIZE_WORKGROUP_MEMORY_FEATURES,
       .pNext = &astc};
   VkPhysicalDeviceDynamicRenderingFeatures dyn = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES, .pNext = &zero};
   VkPhysicalDeviceShaderIntegerDotProductFeatures dot = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_FEATURES,
       .pNext = &dyn};
   VkPhysicalDeviceMaintenance4Features m4 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES, .pNext = &dot};
   VkPhysicalDeviceVulkan13Features v13 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, .pNext = &m4};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &v13};
   vkGetPhysicalDeviceFeatures2(ctx.physical_device, &f2);

   SAME_FEATURE(v13, robust, robustImageAccess);
   SAME_FEATURE(v13, inl, inlineUniformBlock);
   SAME_FEATURE(v13, inl, descriptorBindingInlineUniformBlockUpdateAfterBind);
   SAME_FEATURE(v13, cache, pipelineCreationCacheControl);
   SAME_FEATURE(v13, priv, privateData);
   SAME_FEATURE(v13, demote, shaderDemoteToHelperInvocation);
   SAME_FEATURE(v13, term, shaderTerminateInvocation);
   SAME_FEATURE(v13, sg, subgroupSizeControl);
   SAME_FEATURE(v13, sg, computeFullSubgroups);
   SAME_FEATURE(v13, sync2, synchronization2);
   SAME_FEATURE(v13, astc, textureCompressionASTC_HDR);
   SAME_FEATURE(v13, zero, shaderZeroInitializeWorkgroupMemory);
   SAME_FEATURE(v13, dyn, dynamicRendering);
   SAME_FEATURE(v13, dot, shaderIntegerDotProduct);
   SAME_FEATURE(v13, m4, maintenance4);

   /* "Feature Requirements": every 1.3 device has these. */
   CHECK(v13.robustImageAccess && v13.inlineUniformBlock && v13.pipelineCreationCacheControl &&
         v13.privateData && v13.shaderDemoteToHelperInvocation && v13.shaderTerminateInvocation &&
         v13.subgroupSizeControl && v13.computeFullSubgroups && v13.synchronization2 &&
         v13.shaderZeroInitializeWorkgroupMemory && v13.dynamicRendering &&
         v13.shaderIntegerDotProduct && v13.maintenance4);
   vkt_context_destroy(&ctx);
}

/* Below 1.3: each promoted extension the device lists has its feature. On
 * vkppu, the extensions of the 1.3 features that have landed are listed. */
TEST_CASE(each_listed_1_3_extension_reports_its_feature)
{
   struct vkt_context ctx;
   if (!vkt_context_create(&ctx))
      return;
   VkPhysicalDeviceShaderDemoteToHelperInvocationFeatures demote = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DEMOTE_TO_HELPER_INVOCATION_FEATURES};
   VkPhysicalDeviceShaderTerminateInvocationFeatures term = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_TERMINATE_INVOCATION_FEATURES,
       .pNext = &demote};
   VkPhysicalDeviceZeroInitializeWorkgroupMemoryFeatures zero = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ZERO_INITIALIZE_WORKGROUP_MEMORY_FEATURES,
       .pNext = &term};
   VkPhysicalDeviceSubgroupSizeControlFeatures sg = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES, .pNext = &zero};
   VkPhysicalDevicePipelineCreationCacheControlFeatures pcc = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_CREATION_CACHE_CONTROL_FEATURES,
       .pNext = &sg};
   VkPhysicalDeviceMaintenance4Features m4 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES, .pNext = &pcc};
   VkPhysicalDeviceImageRobustnessFeatures robust = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_ROBUSTNESS_FEATURES, .pNext = &m4};
   VkPhysicalDeviceInlineUniformBlockFeatures inl = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INLINE_UNIFORM_BLOCK_FEATURES, .pNext = &robust};
   VkPhysicalDeviceShaderIntegerDotProductFeatures dot = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_FEATURES,
       .pNext = &inl};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &dot};
   vkGetPhysicalDeviceFeatures2(ctx.physical_device, &f2);
   const struct {
      const char *ext;
      const VkBool32 *member;
      const char *name;
   } if_listed[] = {
       {VK_EXT_SHADER_DEMOTE_TO_HELPER_INVOCATION_EXTENSION_NAME,
        &demote.shaderDemoteToHelperInvocation, "shaderDemoteToHelperInvocation"},
       {VK_KHR_SHADER_TERMINATE_INVOCATION_EXTENSION_NAME, &term.shaderTerminateInvocation,
        "shaderTerminateInvocation"},
       {VK_KHR_ZERO_INITIALIZE_WORKGROUP_MEMORY_EXTENSION_NAME,
        &zero.shaderZeroInitializeWorkgroupMemory, "shaderZeroInitializeWorkgroupMemory"},
       {VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME, &sg.subgroupSizeControl,
        "subgroupSizeControl"},
       {VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME, &sg.computeFullSubgroups,
        "computeFullSubgroups"},
       {VK_EXT_PIPELINE_CREATION_CACHE_CONTROL_EXTENSION_NAME, &pcc.pipelineCreationCacheControl,
        "pipelineCreationCacheControl"},
       {VK_KHR_MAINTENANCE_4_EXTENSION_NAME, &m4.maintenance4, "maintenance4"},
       {VK_EXT_IMAGE_ROBUSTNESS_EXTENSION_NAME, &robust.robustImageAccess, "robustImageAccess"},
       {VK_EXT_INLINE_UNIFORM_BLOCK_EXTENSION_NAME, &inl.inlineUniformBlock, "inlineUniformBlock"},
       {VK_KHR_SHADER_INTEGER_DOT_PRODUCT_EXTENSION_NAME, &dot.shaderIntegerDotProduct,
        "shaderIntegerDotProduct"},
   };
   for (size_t i = 0; i < sizeof(if_listed) / sizeof(if_listed[0]); i++)
      if (vkt_has_device_extension(&ctx, if_listed[i].ext))
         CHECK_MSG(*if_listed[i].member, "%s is listed but %s is VK_FALSE", if_listed[i].ext,
                   if_listed[i].name);
   if (ctx.is_vkppu) {
      static const char *const landed[] = {
          VK_EXT_SHADER_DEMOTE_TO_HELPER_INVOCATION_EXTENSION_NAME,
          VK_KHR_SHADER_TERMINATE_INVOCATION_EXTENSION_NAME,
          VK_KHR_ZERO_INITIALIZE_WORKGROUP_MEMORY_EXTENSION_NAME,
          VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME,
          VK_EXT_PIPELINE_CREATION_CACHE_CONTROL_EXTENSION_NAME,
          VK_EXT_PIPELINE_CREATION_FEEDBACK_EXTENSION_NAME,
          VK_KHR_MAINTENANCE_4_EXTENSION_NAME,
          VK_EXT_IMAGE_ROBUSTNESS_EXTENSION_NAME,
          VK_EXT_INLINE_UNIFORM_BLOCK_EXTENSION_NAME,
          VK_KHR_SHADER_INTEGER_DOT_PRODUCT_EXTENSION_NAME,
          VK_KHR_FORMAT_FEATURE_FLAGS_2_EXTENSION_NAME,
          VK_KHR_SHADER_NON_SEMANTIC_INFO_EXTENSION_NAME,
          VK_EXT_TOOLING_INFO_EXTENSION_NAME,
          VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME,
          VK_EXT_PRIVATE_DATA_EXTENSION_NAME,
          VK_KHR_DYNAMIC_RENDERING_EXTENSION_NAME,
          VK_EXT_EXTENDED_DYNAMIC_STATE_EXTENSION_NAME,
          VK_EXT_EXTENDED_DYNAMIC_STATE_2_EXTENSION_NAME,
          VK_KHR_COPY_COMMANDS_2_EXTENSION_NAME,
      };
      for (size_t i = 0; i < sizeof(landed) / sizeof(landed[0]); i++)
         CHECK_MSG(vkt_has_device_extension(&ctx, landed[i]), "%s is not listed", landed[i]);
   }
   vkt_context_destroy(&ctx);
}

/* ---------------------------------------------------------------------------
 * Fragment shaders: demote and terminate (SPIR-V 1.6)
 * ------------------------------------------------------------------------- */

static const float BLACK[4] = {0, 0, 0, 1}, GREEN[4] = {0, 1, 0, 1};

/* Draws a rectangle over the whole target with vertex shader `vs` (NULL:
 * gfx_basic.vert), fragment shader `fs` and vertex colour c; the pixels are
 * then in t->readback.map. */
static bool draw_full(struct vkt_device *dev, struct gtarget *t, const char *vs, const char *fs,
                      const float c[4])
{
   VkPipelineLayout layout = gtu_empty_layout(dev);
   struct gtu_pipeline_desc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                 .vs = vs,
                                 .fs = fs,
                                 .layout = layout,
                                 .pass = t->pass};
   VkPipeline pipe = VK_NULL_HANDLE;
   VKT_CHECK(gtu_pipeline(dev, &d, &pipe));
   struct gvertex v[6];
   gtu_rect(v, 0, 0, GW, GH, 0.5f, c);
   struct vkt_buffer vb;
   bool ok = false;
   if (pipe && gtu_data_buffer(dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
      VkCommandBuffer cmd = gtu_begin(dev, t, BLACK, 1, 0);
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
      gtu_bind_vertex_buffer(cmd, &vb);
      vkCmdDraw(cmd, 6, 1, 0, 0);
      ok = gtu_end_read(dev, t, cmd);
      vkt_buffer_destroy(dev, &vb);
   }
   vkDestroyPipeline(dev->device, pipe, NULL);
   vkDestroyPipelineLayout(dev->device, layout, NULL);
   return ok;
}

/* shaderDemoteToHelperInvocation: odd columns demote and write nothing
 * (they keep the clear colour); even columns see their demoted neighbour
 * in a derivative (green = (2x + 2) / 64) and are not helpers (red 0). */
TEST_CASE(demoted_lanes_write_nothing_but_feed_derivatives)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!context_with(&ctx, VK_EXT_SHADER_DEMOTE_TO_HELPER_INVOCATION_EXTENSION_NAME))
      return;
   VkPhysicalDeviceShaderDemoteToHelperInvocationFeatures f = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DEMOTE_TO_HELPER_INVOCATION_FEATURES,
       .shaderDemoteToHelperInvocation = VK_TRUE};
   if (!device_with(&ctx, &dev, VK_EXT_SHADER_DEMOTE_TO_HELPER_INVOCATION_EXTENSION_NAME, NULL,
                    NULL, &f))
      return;
   struct gtarget t;
   if (gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &t)) {
      const float blue[4] = {0, 0, 1, 1};
      if (draw_full(&dev, &t, NULL, shader_for(&ctx, "gfx_vulkan13_demote.frag"), blue)) {
         uint32_t want[GW * GH];
         for (unsigned y = 0; y < GH; y++)
            for (unsigned x = 0; x < GW; x++) {
               unsigned g = (unsigned)((2.0f * (float)x + 2.0f) / 64.0f * 255.0f + 0.5f);
               want[y * GW + x] =
                   (x & 1) ? gtu_rgba(0, 0, 0, 255) : gtu_rgba(0, (uint8_t)g, 255, 255);
            }
         CHECK(gtu_check(&t, want, 1, "demote") == 0);
      }
      gtu_target_destroy(&dev, &t);
   }
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* shaderTerminateInvocation: pixels right of x = 16 end before their
 * final write and write nothing at all (not the blue written before). */
TEST_CASE(terminated_lanes_write_nothing)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!context_with(&ctx, VK_KHR_SHADER_TERMINATE_INVOCATION_EXTENSION_NAME))
      return;
   VkPhysicalDeviceShaderTerminateInvocationFeatures f = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_TERMINATE_INVOCATION_FEATURES,
       .shaderTerminateInvocation = VK_TRUE};
   if (!device_with(&ctx, &dev, VK_KHR_SHADER_TERMINATE_INVOCATION_EXTENSION_NAME, NULL, NULL, &f))
      return;
   struct gtarget t;
   if (gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &t)) {
      if (draw_full(&dev, &t, NULL, shader_for(&ctx, "gfx_vulkan13_terminate.frag"), GREEN)) {
         uint32_t want[GW * GH];
         gtu_fill(want, 0, 0, GW, GH, gtu_rgba(0, 0, 0, 255));
         gtu_fill(want, 0, 0, 16, GH, gtu_rgba(0, 255, 0, 255));
         CHECK(gtu_check(&t, want, 0, "terminate") == 0);
      }
      gtu_target_destroy(&dev, &t);
   }
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* ---------------------------------------------------------------------------
 * Compute shaders (SPIR-V 1.6)
 * ------------------------------------------------------------------------- */

/* One dispatch of `shader` over `groups` workgroups whose bindings are the
 * given storage buffers; waits. */
static void dispatch_buffers(struct vkt_device *dev, const char *shader, const VkBuffer *buffers,
                             uint32_t count, uint32_t groups)
{
   VkDescriptorSetLayoutBinding bindings[4];
   for (uint32_t i = 0; i < count; i++)
      bindings[i] = (VkDescriptorSetLayoutBinding){i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                                   VK_SHADER_STAGE_COMPUTE_BIT, NULL};
   struct ctu_program p;
   if (!ctu_program_create(dev, shader, bindings, count, 0, 1, &p))
      return;
   VkDescriptorSet set = ctu_program_set(dev, &p);
   for (uint32_t i = 0; i < count && set; i++)
      ctu_write_buffer(dev, set, i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, buffers[i], 0,
                       VK_WHOLE_SIZE);
   VkCommandBuffer cmd = set ? vkt_cmd_begin(dev, dev->ctx->universal_family) : VK_NULL_HANDLE;
   if (cmd) {
      ctu_program_bind(cmd, &p, set);
      vkCmdDispatch(cmd, groups, 1, 1);
      ctu_compute_to_host_barrier(cmd);
      VKT_CHECK(vkt_cmd_submit_wait(dev, dev->ctx->universal_family, 0, cmd));
   }
   ctu_program_destroy(dev, &p);
}

/* VK_KHR_shader_non_semantic_info: a shader with NonSemantic.DebugPrintf
 * instructions compiles and computes as if they were not there. */
TEST_CASE(non_semantic_instructions_are_ignored)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!context_with(&ctx, VK_KHR_SHADER_NON_SEMANTIC_INFO_EXTENSION_NAME))
      return;
   if (!device_with(&ctx, &dev, VK_KHR_SHADER_NON_SEMANTIC_INFO_EXTENSION_NAME, NULL, NULL, NULL))
      return;
   enum { N = 64 };
   struct vkt_buffer io;
   VKT_CHECK(
       vkt_buffer_create(&dev, N * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKT_MEMORY_HOST, &io));
   if (io.buffer) {
      memset(io.map, 0, N * 4);
      dispatch_buffers(&dev, shader_for(&ctx, "vulkan13_non_semantic"), &io.buffer, 1, 1);
      uint32_t want[N];
      for (uint32_t i = 0; i < N; i++)
         want[i] = i * 3 + 1;
      vkt_compare_words(want, io.map, sizeof(want), "non-semantic shader");
      vkt_buffer_destroy(&dev, &io);
   }
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* shaderZeroInitializeWorkgroupMemory: Workgroup variables with null
 * initializers read zero in every workgroup before it writes them, though
 * the workgroups before it on the same SM left sums there. */
TEST_CASE(workgroup_variables_with_null_initializers_start_as_zero)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!context_with(&ctx, VK_KHR_ZERO_INITIALIZE_WORKGROUP_MEMORY_EXTENSION_NAME))
      return;
   VkPhysicalDeviceZeroInitializeWorkgroupMemoryFeatures f = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ZERO_INITIALIZE_WORKGROUP_MEMORY_FEATURES,
       .shaderZeroInitializeWorkgroupMemory = VK_TRUE};
   if (!device_with(&ctx, &dev, VK_KHR_ZERO_INITIALIZE_WORKGROUP_MEMORY_EXTENSION_NAME, NULL, NULL,
                    &f))
      return;
   enum { GROUPS = 16, STRIDE = 80 };
   struct vkt_buffer io;
   VKT_CHECK(vkt_buffer_create(&dev, GROUPS * STRIDE * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                               VKT_MEMORY_HOST, &io));
   if (io.buffer) {
      memset(io.map, 0xff, GROUPS * STRIDE * 4);
      dispatch_buffers(&dev, shader_for(&ctx, "vulkan13_zero_workgroup"), &io.buffer, 1, GROUPS);
      uint32_t want[GROUPS * STRIDE];
      memset(want, 0xff, sizeof(want));
      for (uint32_t g = 0; g < GROUPS; g++) {
         for (uint32_t i = 0; i < 64; i++)
            want[g * STRIDE + i] = 0;
         want[g * STRIDE + 64] = 64 * 65 / 2; /* the sum of i + 1 */
         want[g * STRIDE + 65] = 16;
      }
      vkt_compare_words(want, io.map, sizeof(want), "zero-initialized workgroup memory");
      vkt_buffer_destroy(&dev, &io);
   }
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* subgroupSizeControl and computeFullSubgroups: a compute pipeline created
 * with the largest subgroup size as its required size and
 * REQUIRE_FULL_SUBGROUPS runs 64 invocations as 64 / size full subgroups of
 * that size. */
TEST_CASE(required_subgroup_size_and_full_subgroups)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!context_with(&ctx, VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME))
      return;
   VkPhysicalDeviceSubgroupSizeControlProperties sp = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES};
   VkPhysicalDeviceSubgroupProperties sub = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES, .pNext = &sp};
   VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                     .pNext = &sub};
   vkGetPhysicalDeviceProperties2(ctx.physical_device, &p2);
   if (ctx.is_vkppu)
      CHECK(sp.minSubgroupSize == 32 && sp.maxSubgroupSize == 32 &&
            sp.maxComputeWorkgroupSubgroups == 32 &&
            sp.requiredSubgroupSizeStages == VK_SHADER_STAGE_COMPUTE_BIT);
   const uint32_t size = sp.maxSubgroupSize;
   if (!(sp.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT) || size > 64 ||
       (sub.supportedOperations & VK_SUBGROUP_FEATURE_BALLOT_BIT) == 0) {
      vkt_skip("a required subgroup size up to 64 and ballots in compute needed");
      vkt_context_destroy(&ctx);
      return;
   }
   VkPhysicalDeviceSubgroupSizeControlFeatures f = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES,
       .subgroupSizeControl = VK_TRUE,
       .computeFullSubgroups = VK_TRUE};
   if (!device_with(&ctx, &dev, VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME, NULL, NULL, &f))
      return;
   VkDescriptorSetLayoutBinding binding = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                           VK_SHADER_STAGE_COMPUTE_BIT, NULL};
   struct ctu_program p;
   struct vkt_buffer io;
   VKT_CHECK(
       vkt_buffer_create(&dev, 64 * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKT_MEMORY_HOST, &io));
   if (io.buffer && ctu_program_create(&dev, shader_for(&ctx, "vulkan13_subgroup_size"), &binding,
                                       1, 0, 1, &p)) {
      VkPipelineShaderStageRequiredSubgroupSizeCreateInfo req = {
          .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO,
          .requiredSubgroupSize = size};
      VkComputePipelineCreateInfo ci = {
          .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
          .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                    .pNext = &req,
                    .flags = VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT,
                    .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                    .module = p.module,
                    .pName = "main"},
          .layout = p.layout,
      };
      /* The program's own pipeline is replaced by the one with the
       * required size. */
      vkDestroyPipeline(dev.device, p.pipeline, NULL);
      p.pipeline = VK_NULL_HANDLE;
      VKT_CHECK(vkCreateComputePipelines(dev.device, VK_NULL_HANDLE, 1, &ci, NULL, &p.pipeline));
      VkDescriptorSet set = ctu_program_set(&dev, &p);
      if (p.pipeline && set) {
         ctu_write_buffer(&dev, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, io.buffer, 0,
                          VK_WHOLE_SIZE);
         VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
         ctu_program_bind(cmd, &p, set);
         vkCmdDispatch(cmd, 1, 1, 1);
         ctu_compute_to_host_barrier(cmd);
         VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
         uint32_t want[64 * 4];
         for (uint32_t i = 0; i < 64; i++) {
            want[4 * i + 0] = size;
            want[4 * i + 1] = 64 / size;
            want[4 * i + 2] = size;
            want[4 * i + 3] = i / size;
         }
         vkt_compare_words(want, io.map, sizeof(want), "required subgroup size");
      }
      ctu_program_destroy(&dev, &p);
   }
   /* vkppu: a workgroup of 48 cannot be all full subgroups of 32, so
    * REQUIRE_FULL_SUBGROUPS is refused rather than run with a partial
    * last warp (invalid usage the layer may also name). */
   VkShaderModule lsid =
       ctx.is_vkppu && is_1_3(&ctx) ? ctu_shader_module(&dev, "m4_local_size_id") : VK_NULL_HANDLE;
   if (lsid) {
      VkDescriptorSetLayout sl = ctu_set_layout(&dev, &binding, 1);
      VkPipelineLayout pl = ctu_pipeline_layout(&dev, &sl, 1, 0);
      const uint32_t x = 48;
      VkSpecializationMapEntry entry = {0, 0, 4};
      VkSpecializationInfo spec = {1, &entry, 4, &x};
      VkComputePipelineCreateInfo ci = {
          .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
          .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                    .flags = VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT,
                    .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                    .module = lsid,
                    .pName = "main",
                    .pSpecializationInfo = &spec},
          .layout = pl,
      };
      const char *const expected[] = {"full subgroups", "02758", "02759", NULL};
      VkPipeline pipe = VK_NULL_HANDLE;
      vkt_tolerate_begin(expected);
      VkResult r = vkCreateComputePipelines(dev.device, VK_NULL_HANDLE, 1, &ci, NULL, &pipe);
      vkt_tolerate_end();
      CHECK_MSG(r < 0 && pipe == VK_NULL_HANDLE, "full subgroups of a 48-wide workgroup -> %s",
                vkt_result_name(r));
      vkDestroyPipeline(dev.device, pipe, NULL);
      vkDestroyPipelineLayout(dev.device, pl, NULL);
      vkDestroyDescriptorSetLayout(dev.device, sl, NULL);
      vkDestroyShaderModule(dev.device, lsid, NULL);
   }
   if (io.buffer)
      vkt_buffer_destroy(&dev, &io);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* pipelineCreationCacheControl and VK_EXT_pipeline_creation_feedback: a
 * compute pipeline that needs compiling is refused under
 * FAIL_ON_PIPELINE_COMPILE_REQUIRED; once compiled into a cache, vkppu
 * creates it from there (feedback says so) and it runs. EARLY_RETURN_ON_FAILURE
 * stops at the first failure and leaves every later handle null. */
TEST_CASE(pipeline_creation_cache_control_and_feedback)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!context_with(&ctx, VK_EXT_PIPELINE_CREATION_CACHE_CONTROL_EXTENSION_NAME))
      return;
   if (!is_1_3(&ctx) &&
       !vkt_has_device_extension(&ctx, VK_EXT_PIPELINE_CREATION_FEEDBACK_EXTENSION_NAME)) {
      vkt_skip("VK_EXT_pipeline_creation_feedback needed");
      vkt_context_destroy(&ctx);
      return;
   }
   VkPhysicalDevicePipelineCreationCacheControlFeatures f = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_CREATION_CACHE_CONTROL_FEATURES,
       .pipelineCreationCacheControl = VK_TRUE};
   if (!device_with(&ctx, &dev, VK_EXT_PIPELINE_CREATION_CACHE_CONTROL_EXTENSION_NAME,
                    VK_EXT_PIPELINE_CREATION_FEEDBACK_EXTENSION_NAME, NULL, &f))
      return;
   VkDescriptorSetLayoutBinding binding = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                           VK_SHADER_STAGE_COMPUTE_BIT, NULL};
   struct ctu_program p;
   struct vkt_buffer io = {0};
   VkPipelineCacheCreateInfo cci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
   VkPipelineCache cache = VK_NULL_HANDLE, empty = VK_NULL_HANDLE;
   VKT_CHECK(vkCreatePipelineCache(dev.device, &cci, NULL, &cache));
   VKT_CHECK(vkCreatePipelineCache(dev.device, &cci, NULL, &empty));
   VKT_CHECK(
       vkt_buffer_create(&dev, 64 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKT_MEMORY_HOST, &io));
   if (io.buffer && cache && empty &&
       ctu_program_create(&dev, shader_for(&ctx, "vulkan13_cached"), &binding, 1, 0, 1, &p)) {
      vkDestroyPipeline(dev.device, p.pipeline, NULL);
      p.pipeline = VK_NULL_HANDLE;
      VkPipelineCreationFeedback fb = {0}, stage_fb = {0};
      VkPipelineCreationFeedbackCreateInfo fci = {
          .sType = VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO,
          .pPipelineCreationFeedback = &fb,
          .pipelineStageCreationFeedbackCount = 1,
          .pPipelineStageCreationFeedbacks = &stage_fb};
      VkComputePipelineCreateInfo ci = {
          .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
          .pNext = &fci,
          .flags = VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT,
          .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                    .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                    .module = p.module,
                    .pName = "main"},
          .layout = p.layout,
      };
      /* Not in the cache yet: the compiler would be needed. */
      VkPipeline pipe = (VkPipeline)(uintptr_t)1;
      VkResult r = vkCreateComputePipelines(dev.device, cache, 1, &ci, NULL, &pipe);
      CHECK_MSG(r == VK_PIPELINE_COMPILE_REQUIRED, "uncached FAIL_ON_COMPILE_REQUIRED -> %s",
                vkt_result_name(r));
      CHECK(pipe == VK_NULL_HANDLE);

      /* Compiled into the cache, with feedback. */
      ci.flags = 0;
      VKT_CHECK(vkCreateComputePipelines(dev.device, cache, 1, &ci, NULL, &pipe));
      CHECK(fb.flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT);
      if (ctx.is_vkppu)
         CHECK(!(fb.flags & VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT) &&
               fb.duration > 0 && stage_fb.flags == fb.flags && stage_fb.duration == fb.duration);
      vkDestroyPipeline(dev.device, pipe, NULL);

      /* From the cache: vkppu needs no compiler now (an implementation may
       * still answer COMPILE_REQUIRED). */
      ci.flags = VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT;
      fb = (VkPipelineCreationFeedback){0};
      r = vkCreateComputePipelines(dev.device, cache, 1, &ci, NULL, &p.pipeline);
      CHECK_MSG(r == VK_SUCCESS || (!ctx.is_vkppu && r == VK_PIPELINE_COMPILE_REQUIRED),
                "cached FAIL_ON_COMPILE_REQUIRED -> %s", vkt_result_name(r));
      if (ctx.is_vkppu)
         CHECK((fb.flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT) &&
               (fb.flags & VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT));
      if (r != VK_SUCCESS) {
         ci.flags = 0;
         VKT_CHECK(vkCreateComputePipelines(dev.device, cache, 1, &ci, NULL, &p.pipeline));
      }
      VkDescriptorSet set = ctu_program_set(&dev, &p);
      if (p.pipeline && set) {
         ctu_write_buffer(&dev, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, io.buffer, 0,
                          VK_WHOLE_SIZE);
         VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
         ctu_program_bind(cmd, &p, set);
         vkCmdDispatch(cmd, 1, 1, 1);
         ctu_compute_to_host_barrier(cmd);
         VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
         uint32_t want[64];
         for (uint32_t i = 0; i < 64; i++)
            want[i] = (i * 2654435761u) ^ 0x5a5au;
         vkt_compare_words(want, io.map, sizeof(want), "pipeline from the cache");
      }

      /* Early return: the first of two fails, the second is not made. */
      VkComputePipelineCreateInfo two[2] = {ci, ci};
      two[0].pNext = NULL;
      two[0].flags = VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT |
                     VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT;
      two[1].pNext = NULL;
      two[1].flags = 0;
      VkPipeline pipes[2] = {(VkPipeline)(uintptr_t)1, (VkPipeline)(uintptr_t)1};
      r = vkCreateComputePipelines(dev.device, empty, 2, two, NULL, pipes);
      CHECK_MSG(r == VK_PIPELINE_COMPILE_REQUIRED, "early return -> %s", vkt_result_name(r));
      CHECK(pipes[0] == VK_NULL_HANDLE && pipes[1] == VK_NULL_HANDLE);
      vkDestroyPipeline(dev.device, pipes[1], NULL);
      ctu_program_destroy(&dev, &p);
   }
   vkDestroyPipelineCache(dev.device, cache, NULL);
   vkDestroyPipelineCache(dev.device, empty, NULL);
   if (io.buffer)
      vkt_buffer_destroy(&dev, &io);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* A device command by its 1.3 core name, or its KHR name below 1.3. */
static PFN_vkVoidFunction device_command(const struct vkt_context *ctx,
                                         const struct vkt_device *dev, const char *core)
{
   char name[128];
   snprintf(name, sizeof(name), "%s%s", core, is_1_3(ctx) ? "" : "KHR");
   PFN_vkVoidFunction f = vkGetDeviceProcAddr(dev->device, name);
   if (!f)
      test_fail(__FILE__, __LINE__, "vkGetDeviceProcAddr(\"%s\") is NULL", name);
   return f;
}

/* maintenance4: requirements from create infos equal the objects'; sizes
 * never shrink as objects grow; equal images align alike; maxBufferSize. */
TEST_CASE(maintenance4_requirements_without_objects)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!context_with(&ctx, VK_KHR_MAINTENANCE_4_EXTENSION_NAME))
      return;
   VkPhysicalDeviceMaintenance4Properties mp = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES};
   VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                     .pNext = &mp};
   vkGetPhysicalDeviceProperties2(ctx.physical_device, &p2);
   CHECK_MSG(mp.maxBufferSize >= (1ull << 30), "maxBufferSize %llu",
             (unsigned long long)mp.maxBufferSize);
   VkPhysicalDeviceMaintenance4Features f = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES, .maintenance4 = VK_TRUE};
   if (!device_with(&ctx, &dev, VK_KHR_MAINTENANCE_4_EXTENSION_NAME, NULL, NULL,
                    is_1_3(&ctx) ? NULL : &f))
      return;
   PFN_vkGetDeviceBufferMemoryRequirements buffer_reqs =
       (PFN_vkGetDeviceBufferMemoryRequirements)device_command(
           &ctx, &dev, "vkGetDeviceBufferMemoryRequirements");
   PFN_vkGetDeviceImageMemoryRequirements image_reqs =
       (PFN_vkGetDeviceImageMemoryRequirements)device_command(&ctx, &dev,
                                                              "vkGetDeviceImageMemoryRequirements");
   PFN_vkGetDeviceImageSparseMemoryRequirements sparse_reqs =
       (PFN_vkGetDeviceImageSparseMemoryRequirements)device_command(
           &ctx, &dev, "vkGetDeviceImageSparseMemoryRequirements");
   if (buffer_reqs && image_reqs && sparse_reqs) {
      static const VkDeviceSize sizes[] = {1, 100, 4096, 65537, 1u << 20};
      VkDeviceSize last = 0;
      for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
         VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                                   .size = sizes[i],
                                   .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT};
         VkDeviceBufferMemoryRequirements info = {
             .sType = VK_STRUCTURE_TYPE_DEVICE_BUFFER_MEMORY_REQUIREMENTS, .pCreateInfo = &bci};
         VkMemoryRequirements2 from_info = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
         buffer_reqs(dev.device, &info, &from_info);
         VkBuffer b = VK_NULL_HANDLE;
         VKT_CHECK(vkCreateBuffer(dev.device, &bci, NULL, &b));
         VkMemoryRequirements from_object;
         vkGetBufferMemoryRequirements(dev.device, b, &from_object);
         vkDestroyBuffer(dev.device, b, NULL);
         const VkMemoryRequirements *r = &from_info.memoryRequirements;
         CHECK_MSG(r->size == from_object.size && r->alignment == from_object.alignment &&
                       r->memoryTypeBits == from_object.memoryTypeBits,
                   "buffer of %llu: requirements differ", (unsigned long long)sizes[i]);
         CHECK_MSG(r->size >= last, "buffer of %llu needs less than a smaller one",
                   (unsigned long long)sizes[i]);
         last = r->size;
      }
      static const uint32_t sides[] = {1, 7, 64, 100, 256};
      last = 0;
      for (size_t i = 0; i < sizeof(sides) / sizeof(sides[0]); i++) {
         VkImageCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                                  .imageType = VK_IMAGE_TYPE_2D,
                                  .format = VK_FORMAT_R8G8B8A8_UNORM,
                                  .extent = {sides[i], sides[i], 1},
                                  .mipLevels = 1,
                                  .arrayLayers = 1,
                                  .samples = VK_SAMPLE_COUNT_1_BIT,
                                  .tiling = VK_IMAGE_TILING_OPTIMAL,
                                  .usage =
                                      VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT};
         VkDeviceImageMemoryRequirements info = {
             .sType = VK_STRUCTURE_TYPE_DEVICE_IMAGE_MEMORY_REQUIREMENTS, .pCreateInfo = &ici};
         VkMemoryRequirements2 from_info = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
         image_reqs(dev.device, &info, &from_info);
         VkMemoryRequirements from_object[2];
         for (int k = 0; k < 2; k++) {
            VkImage img = VK_NULL_HANDLE;
            VKT_CHECK(vkCreateImage(dev.device, &ici, NULL, &img));
            vkGetImageMemoryRequirements(dev.device, img, &from_object[k]);
            vkDestroyImage(dev.device, img, NULL);
         }
         const VkMemoryRequirements *r = &from_info.memoryRequirements;
         CHECK_MSG(r->size == from_object[0].size && r->alignment == from_object[0].alignment &&
                       r->memoryTypeBits == from_object[0].memoryTypeBits,
                   "%ux%u image: requirements differ", sides[i], sides[i]);
         CHECK(from_object[1].alignment == from_object[0].alignment &&
               from_object[1].size == from_object[0].size);
         CHECK_MSG(r->size >= last, "%ux%u image needs less than a smaller one", sides[i],
                   sides[i]);
         last = r->size;
         /* Not sparse: no sparse requirements. */
         uint32_t count = 1;
         sparse_reqs(dev.device, &info, &count, NULL);
         CHECK(count == 0);
      }
   }
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* maintenance4: LocalSizeId sizes the workgroup from a specialization
 * constant, and the pipeline layout may be destroyed as soon as the
 * pipeline exists (the sets are bound through an identical layout). */
TEST_CASE(maintenance4_local_size_id_and_early_layout_destruction)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!context_with(&ctx, VK_KHR_MAINTENANCE_4_EXTENSION_NAME))
      return;
   VkPhysicalDeviceMaintenance4Features f = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES, .maintenance4 = VK_TRUE};
   if (!device_with(&ctx, &dev, VK_KHR_MAINTENANCE_4_EXTENSION_NAME, NULL, NULL,
                    is_1_3(&ctx) ? NULL : &f))
      return;
   VkDescriptorSetLayoutBinding binding = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                           VK_SHADER_STAGE_COMPUTE_BIT, NULL};
   struct ctu_program p;
   struct vkt_buffer io = {0};
   VKT_CHECK(
       vkt_buffer_create(&dev, 64 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKT_MEMORY_HOST, &io));
   if (io.buffer && ctu_program_create(&dev, "m4_local_size_id", &binding, 1, 0, 1, &p)) {
      memset(io.map, 0xff, 64 * 4);
      vkDestroyPipeline(dev.device, p.pipeline, NULL);
      p.pipeline = VK_NULL_HANDLE;
      const uint32_t x = 48;
      VkSpecializationMapEntry entry = {0, 0, 4};
      VkSpecializationInfo spec = {1, &entry, 4, &x};
      VkPipelineLayout first = ctu_pipeline_layout(&dev, &p.set_layout, 1, 0);
      VKT_CHECK(ctu_compute_pipeline(&dev, VK_NULL_HANDLE, p.module, first, &spec, &p.pipeline));
      vkDestroyPipelineLayout(dev.device, first, NULL);
      VkDescriptorSet set = ctu_program_set(&dev, &p);
      if (p.pipeline && set) {
         ctu_write_buffer(&dev, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, io.buffer, 0,
                          VK_WHOLE_SIZE);
         VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
         ctu_program_bind(cmd, &p, set);
         vkCmdDispatch(cmd, 1, 1, 1);
         ctu_compute_to_host_barrier(cmd);
         VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
         uint32_t want[64];
         for (uint32_t i = 0; i < 64; i++)
            want[i] = i < x ? x * 1000 + i : 0xffffffffu;
         vkt_compare_words(want, io.map, sizeof(want), "LocalSizeId workgroup");
      }
      ctu_program_destroy(&dev, &p);
   }
   if (io.buffer)
      vkt_buffer_destroy(&dev, &io);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* maintenance4's interface matching: a vec4 vertex output read as a vec2
 * by the fragment shader; the extra components are dropped. */
TEST_CASE(maintenance4_wider_output_feeds_a_narrower_input)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!context_with(&ctx, VK_KHR_MAINTENANCE_4_EXTENSION_NAME))
      return;
   VkPhysicalDeviceMaintenance4Features f = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES, .maintenance4 = VK_TRUE};
   if (!device_with(&ctx, &dev, VK_KHR_MAINTENANCE_4_EXTENSION_NAME, NULL, NULL,
                    is_1_3(&ctx) ? NULL : &f))
      return;
   struct gtarget t;
   if (gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &t)) {
      const float c[4] = {1.0f, 0.0f, 0.0f, 0.5f};
      char vs[128];
      snprintf(vs, sizeof(vs), "%s", shader_for(&ctx, "gfx_vulkan13_wide_out.vert"));
      if (draw_full(&dev, &t, vs, shader_for(&ctx, "gfx_vulkan13_narrow_in.frag"), c)) {
         uint32_t want[GW * GH];
         gtu_fill(want, 0, 0, GW, GH, gtu_rgba(255, 0, 255, 255));
         CHECK(gtu_check(&t, want, 0, "vec4 output read as vec2") == 0);
      }
      gtu_target_destroy(&dev, &t);
   }
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* robustImageAccess: out-of-bounds storage loads and texel fetches (past
 * the extent, past the levels) read zero (alpha 0 or 1), out-of-bounds
 * stores change nothing, in-range accesses work. */
TEST_CASE(robust_image_access_reads_zero_and_drops_stores_outside)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!context_with(&ctx, VK_EXT_IMAGE_ROBUSTNESS_EXTENSION_NAME))
      return;
   VkPhysicalDeviceImageRobustnessFeatures f = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_ROBUSTNESS_FEATURES,
       .robustImageAccess = VK_TRUE};
   if (!device_with(&ctx, &dev, VK_EXT_IMAGE_ROBUSTNESS_EXTENSION_NAME, NULL, NULL, &f))
      return;
   struct vkt_image img;
   if (vkt_image_create_2d(&dev, VK_FORMAT_R32_UINT, 4, 4, 1,
                           VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT |
                               VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                           &img)) {
      uint32_t texels[16];
      for (uint32_t i = 0; i < 16; i++)
         texels[i] = 100 + i;
      VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                                  .imageExtent = {4, 4, 1}};
      vkt_image_upload(&dev, img.image, texels, sizeof(texels), &region, 1,
                       VK_IMAGE_LAYOUT_GENERAL);
      VkSamplerCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
                                 .magFilter = VK_FILTER_NEAREST,
                                 .minFilter = VK_FILTER_NEAREST,
                                 .mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST,
                                 .addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                 .addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                 .addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE};
      VkSampler sampler = VK_NULL_HANDLE;
      VKT_CHECK(vkCreateSampler(dev.device, &sci, NULL, &sampler));
      struct vkt_buffer out;
      VKT_CHECK(vkt_buffer_create(&dev, 7 * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKT_MEMORY_HOST,
                                  &out));
      const VkDescriptorSetLayoutBinding bindings[3] = {
          {0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
          {1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
          {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
      };
      struct ctu_program p;
      if (sampler && out.buffer &&
          ctu_program_create(&dev, shader_for(&ctx, "vulkan13_robust_image"), bindings, 3, 0, 1,
                             &p)) {
         memset(out.map, 0xff, 7 * 16);
         VkDescriptorSet set = ctu_program_set(&dev, &p);
         if (set) {
            ctu_write_image(&dev, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_NULL_HANDLE,
                            img.view, VK_IMAGE_LAYOUT_GENERAL);
            ctu_write_image(&dev, set, 1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, sampler,
                            img.view, VK_IMAGE_LAYOUT_GENERAL);
            ctu_write_buffer(&dev, set, 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, out.buffer, 0,
                             VK_WHOLE_SIZE);
            VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
            ctu_program_bind(cmd, &p, set);
            vkCmdDispatch(cmd, 1, 1, 1);
            ctu_compute_to_host_barrier(cmd);
            VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
            const uint32_t(*w)[4] = out.map;
            static const unsigned outside[] = {0, 1, 2, 4, 5};
            for (unsigned k = 0; k < 5; k++) {
               const uint32_t *v = w[outside[k]];
               CHECK_MSG(v[0] == 0 && v[1] == 0 && v[2] == 0 && v[3] <= 1,
                         "out-of-bounds read %u: (%u, %u, %u, %u)", outside[k], v[0], v[1], v[2],
                         v[3]);
            }
            CHECK_MSG(w[3][0] == 100 + 1 * 4 + 2, "in-range load %u", w[3][0]);
            CHECK_MSG(w[6][0] == 100 + 3 * 4 + 3, "in-range fetch %u", w[6][0]);
            uint32_t after[16];
            if (vkt_image_download(&dev, img.image, VK_IMAGE_LAYOUT_GENERAL, 4, 4, 4, after)) {
               texels[1 * 4 + 1] = 7;
               vkt_compare_words(texels, after, sizeof(after), "image after the stores");
            }
         }
         ctu_program_destroy(&dev, &p);
      }
      if (out.buffer)
         vkt_buffer_destroy(&dev, &out);
      vkDestroySampler(dev.device, sampler, NULL);
      vkt_image_destroy(&dev, &img);
   }
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* inlineUniformBlock: two inline uniform blocks, one written through a
 * descriptor update template and one (update-after-bind) with two partial
 * writes after the command buffer that binds it was recorded; the shader
 * reads both as uniform blocks. */
TEST_CASE(inline_uniform_blocks_are_read_as_uniform_blocks)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!context_with(&ctx, VK_EXT_INLINE_UNIFORM_BLOCK_EXTENSION_NAME))
      return;
   VkPhysicalDeviceInlineUniformBlockProperties ip = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INLINE_UNIFORM_BLOCK_PROPERTIES};
   VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                     .pNext = &ip};
   vkGetPhysicalDeviceProperties2(ctx.physical_device, &p2);
   /* "Required Limits". */
   CHECK(ip.maxInlineUniformBlockSize >= 256 && ip.maxPerStageDescriptorInlineUniformBlocks >= 4 &&
         ip.maxDescriptorSetInlineUniformBlocks >= 4 &&
         ip.maxPerStageDescriptorUpdateAfterBindInlineUniformBlocks >= 4 &&
         ip.maxDescriptorSetUpdateAfterBindInlineUniformBlocks >= 4);
   VkPhysicalDeviceInlineUniformBlockFeatures supported = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INLINE_UNIFORM_BLOCK_FEATURES};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &supported};
   vkGetPhysicalDeviceFeatures2(ctx.physical_device, &f2);
   if (!supported.descriptorBindingInlineUniformBlockUpdateAfterBind) {
      vkt_skip("descriptorBindingInlineUniformBlockUpdateAfterBind needed");
      vkt_context_destroy(&ctx);
      return;
   }
   VkPhysicalDeviceInlineUniformBlockFeatures f = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INLINE_UNIFORM_BLOCK_FEATURES,
       .inlineUniformBlock = VK_TRUE,
       .descriptorBindingInlineUniformBlockUpdateAfterBind = VK_TRUE};
   if (!device_with(&ctx, &dev, VK_EXT_INLINE_UNIFORM_BLOCK_EXTENSION_NAME, NULL, NULL, &f))
      return;
   const VkDescriptorSetLayoutBinding bindings[3] = {
       {0, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 32, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {1, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 16, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
   };
   const VkDescriptorBindingFlags flags[3] = {VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT, 0, 0};
   VkDescriptorSetLayoutBindingFlagsCreateInfo bf = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO,
       .bindingCount = 3,
       .pBindingFlags = flags};
   VkDescriptorSetLayoutCreateInfo lci = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
       .pNext = &bf,
       .flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT,
       .bindingCount = 3,
       .pBindings = bindings};
   VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateDescriptorSetLayout(dev.device, &lci, NULL, &set_layout));
   VkPipelineLayout layout = ctu_pipeline_layout(&dev, &set_layout, 1, 0);
   VkShaderModule mod = ctu_shader_module(&dev, shader_for(&ctx, "vulkan13_inline_uniform"));
   VkPipeline pipe = VK_NULL_HANDLE;
   VKT_CHECK(ctu_compute_pipeline(&dev, VK_NULL_HANDLE, mod, layout, NULL, &pipe));
   VkDescriptorPoolInlineUniformBlockCreateInfo pii = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_INLINE_UNIFORM_BLOCK_CREATE_INFO,
       .maxInlineUniformBlockBindings = 2};
   const VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 48},
                                          {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}};
   VkDescriptorPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                     .pNext = &pii,
                                     .flags = VK_DESCRIPTOR_POOL_CREATE_UPDATE_AFTER_BIND_BIT,
                                     .maxSets = 1,
                                     .poolSizeCount = 2,
                                     .pPoolSizes = sizes};
   VkDescriptorPool pool = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateDescriptorPool(dev.device, &pci, NULL, &pool));
   VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                     .descriptorPool = pool,
                                     .descriptorSetCount = 1,
                                     .pSetLayouts = &set_layout};
   VkDescriptorSet set = VK_NULL_HANDLE;
   if (pool)
      VKT_CHECK(vkAllocateDescriptorSets(dev.device, &ai, &set));
   struct vkt_buffer out = {0};
   VKT_CHECK(
       vkt_buffer_create(&dev, 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKT_MEMORY_HOST, &out));
   if (pipe && set && out.buffer) {
      ctu_write_buffer(&dev, set, 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, out.buffer, 0,
                       VK_WHOLE_SIZE);
      /* Binding 1 through a template: 16 bytes of raw data. */
      const uint32_t c[4] = {1, 2, 3, 4};
      VkDescriptorUpdateTemplateEntry entry = {1, 0, 16, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK,
                                               0, 0};
      VkDescriptorUpdateTemplateCreateInfo tci = {
          .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO,
          .descriptorUpdateEntryCount = 1,
          .pDescriptorUpdateEntries = &entry,
          .templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET,
          .descriptorSetLayout = set_layout};
      VkDescriptorUpdateTemplate tmpl = VK_NULL_HANDLE;
      VKT_CHECK(vkCreateDescriptorUpdateTemplate(dev.device, &tci, NULL, &tmpl));
      if (tmpl)
         vkUpdateDescriptorSetWithTemplate(dev.device, set, tmpl, c);
      VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
      vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
      vkCmdDispatch(cmd, 1, 1, 1);
      ctu_compute_to_host_barrier(cmd);
      /* Binding 0 after it was bound: a and b, in two writes of 16 bytes
       * (dstArrayElement is a byte offset). */
      const uint32_t ab[8] = {5, 6, 7, 8, 9, 10, 11, 12};
      VkWriteDescriptorSetInlineUniformBlock data[2];
      VkWriteDescriptorSet w[2];
      for (int k = 0; k < 2; k++) {
         data[k] = (VkWriteDescriptorSetInlineUniformBlock){
             .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_INLINE_UNIFORM_BLOCK,
             .dataSize = 16,
             .pData = &ab[4 * k]};
         w[k] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                       .pNext = &data[k],
                                       .dstSet = set,
                                       .dstBinding = 0,
                                       .dstArrayElement = 16u * (uint32_t)k,
                                       .descriptorCount = 16,
                                       .descriptorType = VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK};
      }
      vkUpdateDescriptorSets(dev.device, 2, w, 0, NULL);
      VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
      uint32_t want[4];
      for (int i = 0; i < 4; i++)
         want[i] = ab[i] + ab[4 + i] * 100 + c[i] * 10000;
      vkt_compare_words(want, out.map, sizeof(want), "inline uniform blocks");
      vkDestroyDescriptorUpdateTemplate(dev.device, tmpl, NULL);
   }
   if (out.buffer)
      vkt_buffer_destroy(&dev, &out);
   vkDestroyDescriptorPool(dev.device, pool, NULL);
   vkDestroyPipeline(dev.device, pipe, NULL);
   vkDestroyShaderModule(dev.device, mod, NULL);
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkDestroyDescriptorSetLayout(dev.device, set_layout, NULL);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* The dot products of integer_dot_forms.spvasm, computed exactly. An
 * AccSat form whose dot product (before the saturating accumulation)
 * leaves the result type's range is undefined (SPIR-V OpSDotAccSat), so
 * it is not compared: defined[k] says which are. */
static bool in_range(__int128 v, bool is_signed)
{
   return is_signed ? v >= INT32_MIN && v <= INT32_MAX : v >= 0 && v <= UINT32_MAX;
}

static uint32_t sat(__int128 dot, __int128 acc, bool is_signed, bool *defined)
{
   *defined = in_range(dot, is_signed);
   __int128 v = dot + acc, lo = is_signed ? INT32_MIN : 0, hi = is_signed ? INT32_MAX : UINT32_MAX;
   return (uint32_t)(int64_t)(v < lo ? lo : v > hi ? hi : v);
}

static __int128 packed_dot(uint32_t a, bool as, uint32_t b, bool bs)
{
   __int128 sum = 0;
   for (int k = 0; k < 4; k++) {
      int32_t x = as ? (int8_t)(a >> (8 * k)) : (uint8_t)(a >> (8 * k));
      int32_t y = bs ? (int8_t)(b >> (8 * k)) : (uint8_t)(b >> (8 * k));
      sum += (__int128)x * y;
   }
   return sum;
}

static void integer_dot_reference(const uint32_t *w, uint32_t *out, bool *defined)
{
   const int32_t *i = (const int32_t *)(const void *)w;
   for (int k = 0; k < 13; k++)
      defined[k] = true;
   out[0] = (uint32_t)(int32_t)packed_dot(w[0], true, w[1], true);
   out[1] = (uint32_t)packed_dot(w[0], false, w[1], false);
   out[2] = (uint32_t)(int32_t)packed_dot(w[0], true, w[1], false);
   out[3] = sat(packed_dot(w[0], true, w[1], true), i[2], true, &defined[3]);
   out[4] = sat(packed_dot(w[0], false, w[1], false), w[3], false, &defined[4]);
   __int128 v = 0;
   for (int k = 0; k < 4; k++)
      v += (__int128)i[k] * i[4 + k];
   out[5] = (uint32_t)(uint64_t)v;
   out[6] = sat(v, i[2], true, &defined[6]);
   out[7] = sat((__int128)w[4] * w[6] + (__int128)w[5] * w[7], w[3], false, &defined[7]);
   __int128 su = (__int128)i[0] * w[6] + (__int128)i[1] * w[7];
   out[8] = sat(su, i[2], true, &defined[8]);
   int64_t h = 0;
   for (int k = 0; k < 4; k++)
      h += (int64_t)(int16_t)w[k] * (int16_t)w[4 + k];
   out[9] = (uint32_t)h;
   out[10] = (uint32_t)(uint64_t)v;
   out[11] = (uint32_t)((uint64_t)v >> 32);
   out[12] = (uint32_t)(uint64_t)su;
}

/* shaderIntegerDotProduct: OpSDot, OpUDot, OpSUDot and the AccSat forms,
 * packed and on vectors of 16- and 32-bit integers, to 32- and 64-bit
 * results, with inputs that saturate; the properties say nothing is
 * accelerated on vkppu. */
TEST_CASE(integer_dot_products_packed_and_vector)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!context_with(&ctx, VK_KHR_SHADER_INTEGER_DOT_PRODUCT_EXTENSION_NAME))
      return;
   VkPhysicalDeviceShaderIntegerDotProductProperties dp = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_PROPERTIES};
   VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                     .pNext = &dp};
   vkGetPhysicalDeviceProperties2(ctx.physical_device, &p2);
   if (ctx.is_vkppu) {
      /* Every member after pNext is an "accelerated" VkBool32. */
      const VkBool32 *m = &dp.integerDotProduct8BitUnsignedAccelerated;
      size_t n = (sizeof(dp) - offsetof(VkPhysicalDeviceShaderIntegerDotProductProperties,
                                        integerDotProduct8BitUnsignedAccelerated)) /
                 sizeof(VkBool32);
      for (size_t k = 0; k < n; k++)
         CHECK_MSG(!m[k], "accelerated property %zu is VK_TRUE", k);
   }
   VkPhysicalDeviceFeatures core = {0};
   vkGetPhysicalDeviceFeatures(ctx.physical_device, &core);
   if (!core.shaderInt16 || !core.shaderInt64) {
      vkt_skip("shaderInt16 and shaderInt64 needed");
      vkt_context_destroy(&ctx);
      return;
   }
   VkPhysicalDeviceFeatures want = {.shaderInt16 = VK_TRUE, .shaderInt64 = VK_TRUE};
   VkPhysicalDeviceShaderIntegerDotProductFeatures f = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_FEATURES,
       .shaderIntegerDotProduct = VK_TRUE};
   if (!device_with(&ctx, &dev, VK_KHR_SHADER_INTEGER_DOT_PRODUCT_EXTENSION_NAME, NULL, &want, &f))
      return;
   static const uint32_t inputs[][8] = {
       {0x7f80ff01u, 0x80ff7f7fu, 0x7ffffff0u, 0xfffffff0u, 0x7fffffffu, 0x80000000u, 0x7fffffffu,
        0xffffffffu},
       {0x01020304u, 0xfffefdfcu, 0x80000005u, 0x00000010u, 0x00001234u, 0xffff0001u, 0x00000002u,
        0x00000003u},
       {0x80808080u, 0x80808080u, 0x7fffffffu, 0xffffffffu, 0x80000000u, 0x80000000u, 0x80000000u,
        0x80000000u},
       /* Small dot products, accumulators at the edges: every AccSat form
        * is defined and saturates (signed up, unsigned up, signed down). */
       {0x7f7f7f7fu, 0x7f7f7f7fu, 0x7fffff00u, 0xffffff00u, 0x00010000u, 0x00000100u, 0x00007fffu,
        0x00000002u},
       {0x80808080u, 0x7f7f7f7fu, 0x80000100u, 0x00000010u, 0xffff8000u, 0x00000003u, 0x00000005u,
        0x00000007u},
   };
   for (size_t t = 0; t < sizeof(inputs) / sizeof(inputs[0]); t++) {
      struct vkt_buffer io;
      VKT_CHECK(vkt_buffer_create(&dev, 32 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKT_MEMORY_HOST,
                                  &io));
      if (!io.buffer)
         break;
      memset(io.map, 0, 32 * 4);
      memcpy(io.map, inputs[t], sizeof(inputs[t]));
      dispatch_buffers(&dev, "integer_dot_forms", &io.buffer, 1, 1);
      uint32_t want_out[13];
      bool defined[13];
      integer_dot_reference(inputs[t], want_out, defined);
      const uint32_t *got = (const uint32_t *)io.map + 16;
      unsigned compared = 0;
      for (int k = 0; k < 13; k++) {
         compared += defined[k];
         CHECK_MSG(!defined[k] || got[k] == want_out[k],
                   "input set %zu, result %d: 0x%08x, want 0x%08x", t, k, got[k], want_out[k]);
      }
      CHECK(compared >= 10);
      vkt_buffer_destroy(&dev, &io);
   }
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* VK_KHR_format_feature_flags2: VkFormatProperties3 repeats
 * VkFormatProperties in its low bits, and with
 * shaderStorageImageRead/WriteWithoutFormat every storage format says it
 * can be read and written without a format. */
TEST_CASE(format_properties3_agree_with_format_properties)
{
   struct vkt_context ctx;
   if (!context_with(&ctx, VK_KHR_FORMAT_FEATURE_FLAGS_2_EXTENSION_NAME))
      return;
   VkPhysicalDeviceFeatures core;
   vkGetPhysicalDeviceFeatures(ctx.physical_device, &core);
   static const VkFormat formats[] = {VK_FORMAT_R8G8B8A8_UNORM,      VK_FORMAT_R32_UINT,
                                      VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R16G16_SFLOAT,
                                      VK_FORMAT_D32_SFLOAT,          VK_FORMAT_BC1_RGB_UNORM_BLOCK};
   for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
      VkFormatProperties3 p3 = {.sType = VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3};
      VkFormatProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2, .pNext = &p3};
      vkGetPhysicalDeviceFormatProperties2(ctx.physical_device, formats[i], &p2);
      const VkFormatProperties *p = &p2.formatProperties;
      const uint64_t low = 0x7fffffffu;
      CHECK_MSG((p3.optimalTilingFeatures & low) == (p->optimalTilingFeatures & low) &&
                    (p3.linearTilingFeatures & low) == (p->linearTilingFeatures & low) &&
                    (p3.bufferFeatures & low) == (p->bufferFeatures & low),
                "format %d: VkFormatProperties3 differs from VkFormatProperties", formats[i]);
      if (ctx.is_vkppu && (p3.optimalTilingFeatures & VK_FORMAT_FEATURE_2_STORAGE_IMAGE_BIT) &&
          core.shaderStorageImageReadWithoutFormat && core.shaderStorageImageWriteWithoutFormat)
         CHECK_MSG(
             (p3.optimalTilingFeatures & VK_FORMAT_FEATURE_2_STORAGE_READ_WITHOUT_FORMAT_BIT) &&
                 (p3.optimalTilingFeatures & VK_FORMAT_FEATURE_2_STORAGE_WRITE_WITHOUT_FORMAT_BIT),
             "format %d: storage without the without-format bits", formats[i]);
   }
   vkt_context_destroy(&ctx);
}

/* ---------------------------------------------------------------------------
 * Commands
 * ------------------------------------------------------------------------- */

/* vkGetPhysicalDeviceToolProperties (core 1.3; VK_EXT_tooling_info below
 * it): the driver is no tool, so what comes back is what the layers add
 * (none with 1.3.239's validation layer); the count and the array agree and
 * every tool reported is described. */
TEST_CASE(tool_properties_count_and_array_agree)
{
   struct vkt_context ctx;
   if (!context_with(&ctx, VK_EXT_TOOLING_INFO_EXTENSION_NAME))
      return;
   PFN_vkGetPhysicalDeviceToolProperties get =
       (PFN_vkGetPhysicalDeviceToolProperties)vkGetInstanceProcAddr(
           ctx.instance, is_1_3(&ctx) ? "vkGetPhysicalDeviceToolProperties"
                                      : "vkGetPhysicalDeviceToolPropertiesEXT");
   CHECK(get != NULL);
   if (get) {
      uint32_t count = 0;
      VKT_CHECK(get(ctx.physical_device, &count, NULL));
      VkPhysicalDeviceToolProperties tools[8];
      for (unsigned i = 0; i < 8; i++)
         tools[i] = (VkPhysicalDeviceToolProperties){
             .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TOOL_PROPERTIES};
      uint32_t got = count < 8 ? count : 8;
      VkResult r = get(ctx.physical_device, &got, tools);
      CHECK(r == (count <= 8 ? VK_SUCCESS : VK_INCOMPLETE));
      CHECK(got == (count < 8 ? count : 8));
      for (uint32_t i = 0; i < got; i++)
         CHECK_MSG(tools[i].name[0] && tools[i].version[0] && tools[i].purposes,
                   "tool %u is not described", i);
   }
   vkt_context_destroy(&ctx);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
