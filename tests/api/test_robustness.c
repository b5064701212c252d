/* Robust access beyond robustBufferAccess (docs/robustness.md):
 *
 *   VK_EXT_pipeline_robustness: a pipeline (or one stage) asks for robust
 *   buffer access on a device created without robustBufferAccess, and its
 *   out-of-range reads give zero and writes reach no other memory.
 *   VK_EXT_robustness2 robustBufferAccess2: bounds are the descriptor's
 *   exact range, not the buffer's: past it reads give zero, writes and
 *   atomics change nothing, even where the buffer goes on.
 *   robustImageAccess2 and robustBufferAccess2 on texel buffers: reads
 *   outside give zero with alpha one when the format has no alpha.
 *   robustBufferAccess2 on vertex input: bounds are per attribute, so in
 *   a partial last stride an attribute that fits is read, one past the
 *   bound size reads (0, 0, 0, 1).
 *
 * Each case runs on lavapipe too (lvp.robustness), which implements both
 * extensions. On vkppu a missing extension or feature fails the case; on
 * another driver it skips. */
#include <string.h>

#include "graphics_test_util.h"

#define INVOCATIONS 256u
#define GUARD 0xAAAAAAAAu

/* A context whose device lists `ext`: false (skipped elsewhere, failed on
 * vkppu, which must list it) otherwise. */
static bool context_with(struct vkt_context *ctx, const char *ext)
{
   if (!vkt_context_create(ctx))
      return false;
   if (vkt_has_device_extension(ctx, ext))
      return true;
   if (ctx->is_vkppu)
      test_fail(__FILE__, __LINE__, "vkppu does not list %s", ext);
   else
      vkt_skip("%s does not list %s", ctx->props.deviceName, ext);
   vkt_context_destroy(ctx);
   return false;
}

static bool device_with(struct vkt_context *ctx, struct vkt_device *dev, const char *ext,
                        const VkPhysicalDeviceFeatures *core, void *chain)
{
   struct vkt_device_desc desc = {
       .extensions = &ext, .extension_count = 1, .features = core, .feature_chain = chain};
   VkResult r = vkt_device_create(ctx, &desc, dev);
   if (r != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "vkCreateDevice with %s -> %s", ext, vkt_result_name(r));
      vkt_context_destroy(ctx);
      return false;
   }
   return true;
}

/* A context and a device with VK_EXT_robustness2's robustBufferAccess2
 * (and robustImageAccess2 when `images`), robustBufferAccess (which
 * robustBufferAccess2 needs: VUID-VkPhysicalDeviceRobustness2FeaturesEXT-
 * robustBufferAccess2-04000) and the `core` features. False when the
 * device lacks them: skipped elsewhere, failed on vkppu. */
static bool robust2_setup(struct vkt_context *ctx, struct vkt_device *dev, bool images,
                          VkPhysicalDeviceFeatures core)
{
   if (!context_with(ctx, VK_EXT_ROBUSTNESS_2_EXTENSION_NAME))
      return false;
   VkPhysicalDeviceRobustness2FeaturesEXT r2 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &r2};
   vkGetPhysicalDeviceFeatures2(ctx->physical_device, &f2);
   if (!r2.robustBufferAccess2 || (images && !r2.robustImageAccess2)) {
      if (ctx->is_vkppu)
         test_fail(__FILE__, __LINE__,
                   "vkppu reports robustBufferAccess2 %u, robustImageAccess2 %u",
                   r2.robustBufferAccess2, r2.robustImageAccess2);
      else
         vkt_skip("no robustBufferAccess2%s", images ? " or robustImageAccess2" : "");
      vkt_context_destroy(ctx);
      return false;
   }
   r2 = (VkPhysicalDeviceRobustness2FeaturesEXT){
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT,
       .robustBufferAccess2 = VK_TRUE,
       .robustImageAccess2 = images};
   core.robustBufferAccess = VK_TRUE;
   return device_with(ctx, dev, VK_EXT_ROBUSTNESS_2_EXTENSION_NAME, &core, &r2);
}

static VkPipeline create_compute(struct vkt_device *dev, VkShaderModule mod,
                                 VkPipelineLayout layout, const void *pipeline_next,
                                 const void *stage_next)
{
   VkComputePipelineCreateInfo ci = {
       .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
       .pNext = pipeline_next,
       .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                 .pNext = stage_next,
                 .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                 .module = mod,
                 .pName = "main"},
       .layout = layout,
   };
   VkPipeline pipe = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateComputePipelines(dev->device, VK_NULL_HANDLE, 1, &ci, NULL, &pipe));
   return pipe;
}

/* Binds `pipe` with the program's layout and `set`, dispatches `groups`
 * workgroups and waits. */
static void dispatch(struct vkt_context *ctx, struct vkt_device *dev, const struct ctu_program *p,
                     VkPipeline pipe, VkDescriptorSet set, uint32_t groups)
{
   VkCommandBuffer cmd = vkt_cmd_begin(dev, ctx->universal_family);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->layout, 0, 1, &set, 0, NULL);
   vkCmdDispatch(cmd, groups, 1, 1);
   ctu_compute_to_host_barrier(cmd);
   VKT_CHECK(vkt_cmd_submit_wait(dev, ctx->universal_family, 0, cmd));
}

/* A host-visible buffer of `bytes` bound at the start of an allocation
 * twice as large, so that guard bytes follow its memory range: what
 * robustBufferAccess lets no write reach. */
struct guarded_buffer {
   struct vkt_buffer b;
   VkDeviceSize guard_offset, alloc_size;
};

static bool guarded_buffer_create(struct vkt_context *ctx, struct vkt_device *dev, uint32_t bytes,
                                  struct guarded_buffer *g)
{
   memset(g, 0, sizeof(*g));
   g->b.size = bytes;
   VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                             .size = bytes,
                             .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                             .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
   VKT_CHECK(vkCreateBuffer(dev->device, &bci, NULL, &g->b.buffer));
   if (!g->b.buffer)
      return false;
   VkMemoryRequirements req;
   vkGetBufferMemoryRequirements(dev->device, g->b.buffer, &req);
   g->guard_offset = req.size;
   g->alloc_size = req.size * 2;
   g->b.memory_type = vkt_find_memory_type(
       ctx, req.memoryTypeBits,
       VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, 0);
   VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = g->alloc_size,
                               .memoryTypeIndex = g->b.memory_type};
   VKT_CHECK(vkAllocateMemory(dev->device, &mai, NULL, &g->b.memory));
   if (!g->b.memory)
      return false;
   VKT_CHECK(vkBindBufferMemory(dev->device, g->b.buffer, g->b.memory, 0));
   VKT_CHECK(vkMapMemory(dev->device, g->b.memory, 0, VK_WHOLE_SIZE, 0, &g->b.map));
   if (!g->b.map)
      return false;
   memset(g->b.map, 0xAA, (size_t)g->alloc_size);
   return true;
}

static size_t guard_bytes_changed(const struct guarded_buffer *g)
{
   const uint8_t *bytes = g->b.map;
   size_t changed = 0;
   for (VkDeviceSize i = g->guard_offset; i < g->alloc_size; i++)
      changed += bytes[i] != 0xAA;
   return changed;
}

/* feature_robust_access.comp (256 invocations, buffers of 128 words) in a
 * pipeline whose robustness comes from VK_EXT_pipeline_robustness only:
 * `pipeline_behaviour` on the pipeline, `stage_behaviour` (when not 0) on
 * its stage. */
static void run_pipeline_robustness(VkPipelineRobustnessBufferBehaviorEXT pipeline_behaviour,
                                    VkPipelineRobustnessBufferBehaviorEXT stage_behaviour,
                                    const char *what)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!context_with(&ctx, VK_EXT_PIPELINE_ROBUSTNESS_EXTENSION_NAME))
      return;
   VkPhysicalDevicePipelineRobustnessFeaturesEXT pr = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_ROBUSTNESS_FEATURES_EXT,
       .pipelineRobustness = VK_TRUE};
   /* No robustBufferAccess: the device's default is not robust. */
   const VkPhysicalDeviceFeatures core = {0};
   if (!device_with(&ctx, &dev, VK_EXT_PIPELINE_ROBUSTNESS_EXTENSION_NAME, &core, &pr))
      return;
   const uint32_t words = INVOCATIONS / 2;
   const VkDescriptorSetLayoutBinding bindings[] = {
       {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
   };
   struct ctu_program p;
   struct vkt_buffer src = {0}, seen = {0};
   struct guarded_buffer dst;
   if (ctu_program_create(&dev, "feature_robust_access", bindings, 3, 0, 1, &p) &&
       vkt_buffer_create(&dev, words * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKT_MEMORY_HOST,
                         &src) == VK_SUCCESS &&
       vkt_buffer_create(&dev, INVOCATIONS * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKT_MEMORY_HOST,
                         &seen) == VK_SUCCESS &&
       guarded_buffer_create(&ctx, &dev, words * 4, &dst)) {
      vkt_fill_random(src.map, words * 4, 2201);
      memset(seen.map, 0xAA, INVOCATIONS * 4);
      VkPipelineRobustnessCreateInfoEXT on_pipeline = {
          .sType = VK_STRUCTURE_TYPE_PIPELINE_ROBUSTNESS_CREATE_INFO_EXT,
          .storageBuffers = pipeline_behaviour,
          .uniformBuffers = pipeline_behaviour,
          .vertexInputs = VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_DEVICE_DEFAULT_EXT,
          .images = VK_PIPELINE_ROBUSTNESS_IMAGE_BEHAVIOR_DEVICE_DEFAULT_EXT};
      VkPipelineRobustnessCreateInfoEXT on_stage = on_pipeline;
      on_stage.storageBuffers = on_stage.uniformBuffers = stage_behaviour;
      VkPipeline pipe = create_compute(&dev, p.module, p.layout, &on_pipeline,
                                       stage_behaviour ? &on_stage : NULL);
      VkDescriptorSet set = ctu_program_set(&dev, &p);
      if (pipe && set) {
         ctu_write_buffer(&dev, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, src.buffer, 0,
                          VK_WHOLE_SIZE);
         ctu_write_buffer(&dev, set, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, dst.b.buffer, 0,
                          VK_WHOLE_SIZE);
         ctu_write_buffer(&dev, set, 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, seen.buffer, 0,
                          VK_WHOLE_SIZE);
         dispatch(&ctx, &dev, &p, pipe, set, INVOCATIONS / 64);
         uint32_t want[INVOCATIONS] = {0};
         memcpy(want, src.map, words * 4); /* zeros past the end */
         vkt_compare_words(want, seen.map, sizeof(want), what);
         for (uint32_t i = 0; i < words; i++)
            want[i] = i + 1;
         vkt_compare_words(want, dst.b.map, words * 4, "writes in bounds");
         size_t changed = guard_bytes_changed(&dst);
         CHECK_MSG(changed == 0, "%s: %zu guard bytes after the buffer were written", what,
                   changed);
      }
      if (pipe)
         vkDestroyPipeline(dev.device, pipe, NULL);
   }
   if (dst.b.buffer)
      vkDestroyBuffer(dev.device, dst.b.buffer, NULL);
   if (dst.b.memory)
      vkFreeMemory(dev.device, dst.b.memory, NULL);
   if (src.buffer)
      vkt_buffer_destroy(&dev, &src);
   if (seen.buffer)
      vkt_buffer_destroy(&dev, &seen);
   ctu_program_destroy(&dev, &p);
   vkt_teardown(&ctx, &dev);
}

TEST_CASE(pipeline_robustness_makes_one_pipeline_robust)
{
   run_pipeline_robustness(VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_ROBUST_BUFFER_ACCESS_EXT, 0,
                           "reads, robust pipeline on a device without robustBufferAccess");
}

TEST_CASE(pipeline_robustness_of_a_stage_overrides_the_pipeline)
{
   run_pipeline_robustness(VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_DISABLED_EXT,
                           VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_ROBUST_BUFFER_ACCESS_EXT,
                           "reads, robust stage of a pipeline that disables robustness");
}

/* robust2_buffers.comp with descriptors narrower than their buffers. */
TEST_CASE(robust_buffer_access2_bounds_are_the_descriptor_range)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!robust2_setup(&ctx, &dev, false, (VkPhysicalDeviceFeatures){0}))
      return;
   enum { SRC_RANGE = 100, UBO_RANGE = 8, DST_RANGE = 100, COUNTER_RANGE = 16, COUNTERS = 32 };
   const VkDescriptorSetLayoutBinding bindings[] = {
       {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
   };
   struct ctu_program p;
   struct vkt_buffer src = {0}, ubo = {0}, dst = {0}, counters = {0}, seen = {0};
   const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
   if (ctu_program_create(&dev, "robust2_buffers", bindings, 5, 0, 1, &p) &&
       vkt_buffer_create(&dev, INVOCATIONS * 4, storage, VKT_MEMORY_HOST, &src) == VK_SUCCESS &&
       vkt_buffer_create(&dev, 16 * 16, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, VKT_MEMORY_HOST,
                         &ubo) == VK_SUCCESS &&
       vkt_buffer_create(&dev, INVOCATIONS * 4, storage, VKT_MEMORY_HOST, &dst) == VK_SUCCESS &&
       vkt_buffer_create(&dev, COUNTERS * 4, storage, VKT_MEMORY_HOST, &counters) == VK_SUCCESS &&
       vkt_buffer_create(&dev, INVOCATIONS * 16, storage, VKT_MEMORY_HOST, &seen) == VK_SUCCESS) {
      vkt_fill_random(src.map, INVOCATIONS * 4, 2202);
      vkt_fill_random(ubo.map, 16 * 16, 2203);
      memset(dst.map, 0xAA, INVOCATIONS * 4);
      uint32_t *count = counters.map;
      for (uint32_t k = 0; k < COUNTERS; k++)
         count[k] = 1000;
      memset(seen.map, 0xAA, INVOCATIONS * 16);
      VkDescriptorSet set = ctu_program_set(&dev, &p);
      if (set) {
         ctu_write_buffer(&dev, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, src.buffer, 0,
                          SRC_RANGE * 4);
         ctu_write_buffer(&dev, set, 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, ubo.buffer, 0,
                          UBO_RANGE * 16);
         ctu_write_buffer(&dev, set, 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, dst.buffer, 0,
                          DST_RANGE * 4);
         ctu_write_buffer(&dev, set, 3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, counters.buffer, 0,
                          COUNTER_RANGE * 4);
         ctu_write_buffer(&dev, set, 4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, seen.buffer, 0,
                          VK_WHOLE_SIZE);
         dispatch(&ctx, &dev, &p, p.pipeline, set, INVOCATIONS / 64);
         const uint32_t *s = src.map, *u = ubo.map, *d = dst.map;
         const uint32_t(*got)[4] = seen.map;
         uint32_t bad = 0;
         for (uint32_t i = 0; i < INVOCATIONS && bad < 8; i++) {
            uint32_t want_src = i < SRC_RANGE ? s[i] : 0;
            uint32_t want_ubo = i % 16 < UBO_RANGE ? u[(i % 16) * 4] : 0;
            bool old_ok = i % COUNTERS >= COUNTER_RANGE ||
                          (got[i][2] >= 1000 && got[i][2] < 1000 + INVOCATIONS / COUNTERS);
            if (got[i][0] != want_src || got[i][1] != want_ubo || !old_ok || got[i][3] != 7) {
               test_fail(__FILE__, __LINE__,
                         "invocation %u saw (%08x, %08x, %u, %u), want (%08x, %08x, %s, 7)", i,
                         got[i][0], got[i][1], got[i][2], got[i][3], want_src, want_ubo,
                         i % COUNTERS < COUNTER_RANGE ? "1000..1007" : "any");
               bad++;
            }
         }
         uint32_t want[INVOCATIONS];
         for (uint32_t i = 0; i < INVOCATIONS; i++)
            want[i] = i < DST_RANGE ? i + 1 : GUARD;
         vkt_compare_words(want, d, sizeof(want), "stores, past the range dropped");
         for (uint32_t k = 0; k < COUNTERS; k++)
            want[k] = k < COUNTER_RANGE ? 1000 + INVOCATIONS / COUNTERS : 1000;
         vkt_compare_words(want, count, COUNTERS * 4, "atomics, past the range dropped");
      }
   }
   struct vkt_buffer *all[] = {&src, &ubo, &dst, &counters, &seen};
   for (unsigned k = 0; k < 5; k++)
      if (all[k]->buffer)
         vkt_buffer_destroy(&dev, all[k]);
   ctu_program_destroy(&dev, &p);
   vkt_teardown(&ctx, &dev);
}

static VkBufferView texel_view(struct vkt_device *dev, VkBuffer buffer, VkFormat format,
                               VkDeviceSize range)
{
   VkBufferViewCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO,
                                .buffer = buffer,
                                .format = format,
                                .range = range};
   VkBufferView view = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateBufferView(dev->device, &ci, NULL, &view));
   return view;
}

static void write_texel_buffer(struct vkt_device *dev, VkDescriptorSet set, uint32_t binding,
                               VkDescriptorType type, VkBufferView view)
{
   VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                             .dstSet = set,
                             .dstBinding = binding,
                             .descriptorCount = 1,
                             .descriptorType = type,
                             .pTexelBufferView = &view};
   vkUpdateDescriptorSets(dev->device, 1, &w, 0, NULL);
}

/* robust2_texels.comp: a 4x4 R32_UINT image (storage and sampled), a
 * 64-word buffer seen through 16-element R32_UINT and R8G8B8A8_UINT
 * views. */
TEST_CASE(robust_image_access2_reads_zero_with_alpha_one_where_the_format_has_none)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!robust2_setup(&ctx, &dev, true, (VkPhysicalDeviceFeatures){0}))
      return;
   enum { ELEMENTS = 16, BUFFER_WORDS = 64, RESULTS = 8 };
   const VkDescriptorSetLayoutBinding bindings[] = {
       {0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {2, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {3, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {4, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {5, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
   };
   struct vkt_image img = {0};
   struct vkt_buffer texels = {0}, out = {0};
   VkSampler sampler = VK_NULL_HANDLE;
   VkBufferView r32 = VK_NULL_HANDLE, rgba8 = VK_NULL_HANDLE;
   struct ctu_program p = {0};
   uint32_t image_data[16];
   for (uint32_t i = 0; i < 16; i++)
      image_data[i] = 100 + i;
   const VkSamplerCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
                                    .magFilter = VK_FILTER_NEAREST,
                                    .minFilter = VK_FILTER_NEAREST,
                                    .mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST,
                                    .addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                    .addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                    .addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE};
   if (vkt_image_create_2d(&dev, VK_FORMAT_R32_UINT, 4, 4, 1,
                           VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT |
                               VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                           &img) &&
       vkt_buffer_create(&dev, BUFFER_WORDS * 4,
                         VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT |
                             VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT,
                         VKT_MEMORY_HOST, &texels) == VK_SUCCESS &&
       vkt_buffer_create(&dev, RESULTS * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKT_MEMORY_HOST,
                         &out) == VK_SUCCESS &&
       vkCreateSampler(dev.device, &sci, NULL, &sampler) == VK_SUCCESS &&
       (r32 = texel_view(&dev, texels.buffer, VK_FORMAT_R32_UINT, ELEMENTS * 4)) &&
       (rgba8 = texel_view(&dev, texels.buffer, VK_FORMAT_R8G8B8A8_UINT, ELEMENTS * 4)) &&
       ctu_program_create(&dev, "robust2_texels", bindings, 6, 0, 1, &p)) {
      VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                                  .imageExtent = {4, 4, 1}};
      vkt_image_upload(&dev, img.image, image_data, sizeof(image_data), &region, 1,
                       VK_IMAGE_LAYOUT_GENERAL);
      uint32_t *t = texels.map;
      for (uint32_t i = 0; i < BUFFER_WORDS; i++)
         t[i] = 500 + i;
      memset(out.map, 0xAA, RESULTS * 16);
      VkDescriptorSet set = ctu_program_set(&dev, &p);
      if (set) {
         ctu_write_image(&dev, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_NULL_HANDLE, img.view,
                         VK_IMAGE_LAYOUT_GENERAL);
         ctu_write_image(&dev, set, 1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, sampler, img.view,
                         VK_IMAGE_LAYOUT_GENERAL);
         write_texel_buffer(&dev, set, 2, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, r32);
         write_texel_buffer(&dev, set, 3, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, r32);
         write_texel_buffer(&dev, set, 4, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, rgba8);
         ctu_write_buffer(&dev, set, 5, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, out.buffer, 0,
                          VK_WHOLE_SIZE);
         dispatch(&ctx, &dev, &p, p.pipeline, set, 1);
         const uint32_t want[RESULTS][4] = {
             {0, 0, 0, 1}, /* storage image load outside: R32_UINT has no alpha */
             {0, 0, 0, 1}, /* texel fetch outside */
             {0, 0, 0, 1}, /* uniform texel buffer past the view */
             {0, 0, 0, 1}, /* storage texel buffer past the view */
             {0, 0, 0, 0}, /* R8G8B8A8_UINT has alpha: zero */
             {100 + 1 * 4 + 1, 0, 0, 1},
             {503, 0, 0, 1},
             {(502u & 0xff), 502u >> 8, 0, 0}, /* the bytes of word 502 */
         };
         vkt_compare_words(want, out.map, sizeof(want), "reads outside (zero, alpha by format)");
         CHECK_MSG(t[ELEMENTS + 1] == 500 + ELEMENTS + 1,
                   "a store past the texel buffer view wrote %u into the buffer", t[ELEMENTS + 1]);
         uint32_t after[16];
         if (vkt_image_download(&dev, img.image, VK_IMAGE_LAYOUT_GENERAL, 4, 4, 4, after))
            vkt_compare_words(image_data, after, sizeof(after), "image after a store outside");
      }
   }
   if (p.pipeline)
      ctu_program_destroy(&dev, &p);
   vkDestroyBufferView(dev.device, rgba8, NULL);
   vkDestroyBufferView(dev.device, r32, NULL);
   vkDestroySampler(dev.device, sampler, NULL);
   if (out.buffer)
      vkt_buffer_destroy(&dev, &out);
   if (texels.buffer)
      vkt_buffer_destroy(&dev, &texels);
   if (img.image)
      vkt_image_destroy(&dev, &img);
   vkt_teardown(&ctx, &dev);
}

/* Five points through gfx_robust2_vertex.vert, 28-byte vertices (position
 * then an R32G32_SFLOAT colour at 12) from a 104-byte buffer. Vertex 3 is
 * in a partial stride, but its colour ends at byte 104: robustBufferAccess2
 * bounds each attribute, so it is read (what the CTS's
 * robustness.*.out_of_bounds_stride cases pin down; robustBufferAccess
 * alone may judge whole strides). Vertex 4's colour is past the bound
 * size: (0, 0, 0, 1). */
TEST_CASE(robust_buffer_access2_vertex_input_is_bounded_per_attribute)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!robust2_setup(&ctx, &dev, false,
                      (VkPhysicalDeviceFeatures){.vertexPipelineStoresAndAtomics = VK_TRUE}))
      return;
   enum { VERTICES = 5, BOUND = 3 * sizeof(struct gvertex) + 20 };
   _Static_assert(sizeof(struct gvertex) == 28, "28-byte vertices");
   struct gtarget t;
   const VkDescriptorSetLayoutBinding b = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                           VK_SHADER_STAGE_VERTEX_BIT, NULL};
   VkDescriptorSetLayout set_layout = ctu_set_layout(&dev, &b, 1);
   VkPipelineLayout layout = ctu_pipeline_layout(&dev, &set_layout, 1, 0);
   struct vkt_buffer seen = {0}, vb = {0};
   VkDescriptorPool pool = VK_NULL_HANDLE;
   VkPipeline pipe = VK_NULL_HANDLE;
   const float red[4] = {1, 0, 0, 1};
   struct gvertex v[VERTICES];
   for (uint32_t k = 0; k < VERTICES; k++) {
      v[k] = gvtx(4.0f + k, 4.0f, 0.5f, red);
      v[k].color[0] = 0.25f * (float)(k + 1);
      v[k].color[1] = 2.0f + (float)k;
   }
   if (gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &t)) {
      struct gtu_pipeline_desc d = {.vs = "gfx_robust2_vertex.vert",
                                    .topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST,
                                    .color_format = VK_FORMAT_R32G32_SFLOAT,
                                    .layout = layout,
                                    .pass = t.pass};
      VKT_CHECK(gtu_pipeline(&dev, &d, &pipe));
      const VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
      const VkDescriptorPoolCreateInfo pci = {.sType =
                                                  VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                              .maxSets = 1,
                                              .poolSizeCount = 1,
                                              .pPoolSizes = &size};
      VKT_CHECK(vkCreateDescriptorPool(dev.device, &pci, NULL, &pool));
      const VkDescriptorSetAllocateInfo ai = {.sType =
                                                  VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                              .descriptorPool = pool,
                                              .descriptorSetCount = 1,
                                              .pSetLayouts = &set_layout};
      VkDescriptorSet set = VK_NULL_HANDLE;
      if (pool)
         VKT_CHECK(vkAllocateDescriptorSets(dev.device, &ai, &set));
      if (pipe && set &&
          vkt_buffer_create(&dev, VERTICES * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                            VKT_MEMORY_HOST, &seen) == VK_SUCCESS &&
          gtu_data_buffer(&dev, v, BOUND, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
         memset(seen.map, 0xAA, VERTICES * 16);
         ctu_write_buffer(&dev, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, seen.buffer, 0,
                          VK_WHOLE_SIZE);
         const float black[4] = {0, 0, 0, 0};
         VkCommandBuffer cmd = gtu_begin(&dev, &t, black, 1.0f, 0);
         gtu_bind_vertex_buffer(cmd, &vb);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
         vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0, NULL);
         vkCmdDraw(cmd, VERTICES, 1, 0, 0);
         if (gtu_end_read(&dev, &t, cmd)) {
            float want[VERTICES][4];
            for (uint32_t k = 0; k < VERTICES; k++) {
               bool inside = k < 4;
               want[k][0] = inside ? v[k].color[0] : 0.0f;
               want[k][1] = inside ? v[k].color[1] : 0.0f;
               want[k][2] = 0.0f;
               want[k][3] = 1.0f;
            }
            vkt_compare_words(want, seen.map, sizeof(want),
                              "colours fetched (vertex 4 past the bound size)");
         }
      }
      gtu_target_destroy(&dev, &t);
   }
   if (vb.buffer)
      vkt_buffer_destroy(&dev, &vb);
   if (seen.buffer)
      vkt_buffer_destroy(&dev, &seen);
   vkDestroyPipeline(dev.device, pipe, NULL);
   vkDestroyDescriptorPool(dev.device, pool, NULL);
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkDestroyDescriptorSetLayout(dev.device, set_layout, NULL);
   vkt_teardown(&ctx, &dev);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
