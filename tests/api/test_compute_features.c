/* Core shader features, one case each: the case enables the feature on a new
 * device (with validation on) and checks the exact results of a dispatch of
 * a shader that needs it (shaders/feature_*.comp) against a C reference.
 * shaderInt64, shaderFloat64, shaderInt16, shaderStorageBufferArrayDynamic-
 * Indexing, shaderUniformBufferArrayDynamicIndexing, and robustBufferAccess
 * with shaders (out-of-bounds storage reads give 0, writes are dropped); the
 * image features: shaderStorageImageReadWithoutFormat, ...WriteWithoutFormat,
 * shaderStorageImageExtendedFormats, shaderSampledImageArrayDynamicIndexing,
 * shaderStorageImageArrayDynamicIndexing, imageCubeArray and
 * textureCompressionBC.
 * A device that does not report a feature skips its case. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "compute_test_util.h"
#include "image_test_util.h"

#define WORKGROUP 64u /* local_size_x of every feature_*.comp */
#define GROUPS 4u
#define INVOCATIONS (WORKGROUP * GROUPS)
#define MAX_SLOTS 8u

/* Byte offset of a VkPhysicalDeviceFeatures member, to enable one by name. */
#define FEATURE(member) offsetof(VkPhysicalDeviceFeatures, member)

/* One descriptor of the set: binding, array element, type and buffer, or
 * for image types (buffer NULL) the image's view and a sampler. */
struct slot {
   uint32_t binding;
   uint32_t element;
   VkDescriptorType type;
   struct vkt_buffer *buffer;
   VkDeviceSize range; /* 0 = VK_WHOLE_SIZE */
   const struct vkt_image *image;
   VkSampler sampler;
};

struct rig {
   struct vkt_context ctx;
   struct vkt_device dev;
};

/* Context and a device with one core feature enabled; false when the case
 * is skipped (feature not reported) or failed. */
static bool rig_setup(struct rig *r, size_t feature_offset, const char *feature_name)
{
   if (!vkt_context_create(&r->ctx))
      return false;
   VkPhysicalDeviceFeatures supported;
   vkGetPhysicalDeviceFeatures(r->ctx.physical_device, &supported);
   if (!*(const VkBool32 *)((const char *)&supported + feature_offset)) {
      vkt_skip("%s does not report %s", r->ctx.props.deviceName, feature_name);
      vkt_context_destroy(&r->ctx);
      return false;
   }
   VkPhysicalDeviceFeatures features;
   memset(&features, 0, sizeof(features));
   *(VkBool32 *)((char *)&features + feature_offset) = VK_TRUE;
   struct vkt_device_desc desc = {.features = &features};
   VkResult res = vkt_device_create(&r->ctx, &desc, &r->dev);
   if (res != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "vkCreateDevice with %s -> %s", feature_name,
                vkt_result_name(res));
      vkt_context_destroy(&r->ctx);
      return false;
   }
   return true;
}

static void rig_teardown(struct rig *r)
{
   vkt_device_destroy(&r->dev);
   vkt_context_destroy(&r->ctx);
}

/* Dispatches GROUPS workgroups of `shader` with the set described by
 * `bindings` (set 0) filled from `slots`, and waits. */
static void run(struct vkt_device *dev, const char *shader,
                const VkDescriptorSetLayoutBinding *bindings, uint32_t binding_count,
                const struct slot *slots, uint32_t slot_count, const void *push, uint32_t push_size)
{
   VkDescriptorSetLayout set_layout = ctu_set_layout(dev, bindings, binding_count);
   VkPipelineLayout layout = ctu_pipeline_layout(dev, &set_layout, 1, push_size);
   VkShaderModule mod = ctu_shader_module(dev, shader);
   VkPipeline pipe = VK_NULL_HANDLE;
   VKT_CHECK(ctu_compute_pipeline(dev, VK_NULL_HANDLE, mod, layout, NULL, &pipe));
   VkDescriptorPoolSize sizes[] = {
       {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, MAX_SLOTS},
       {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, MAX_SLOTS},
       {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, MAX_SLOTS},
       {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, MAX_SLOTS},
   };
   VkDescriptorPoolCreateInfo pci = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
       .maxSets = 1,
       .poolSizeCount = 4,
       .pPoolSizes = sizes,
   };
   VkDescriptorPool pool = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateDescriptorPool(dev->device, &pci, NULL, &pool));
   VkDescriptorSetAllocateInfo ai = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
       .descriptorPool = pool,
       .descriptorSetCount = 1,
       .pSetLayouts = &set_layout,
   };
   VkDescriptorSet set = VK_NULL_HANDLE;
   VKT_CHECK(vkAllocateDescriptorSets(dev->device, &ai, &set));
   for (uint32_t i = 0; i < slot_count; i++) {
      VkDescriptorBufferInfo info = {slots[i].buffer ? slots[i].buffer->buffer : VK_NULL_HANDLE, 0,
                                     slots[i].range ? slots[i].range : VK_WHOLE_SIZE};
      VkDescriptorImageInfo image_info = {
          slots[i].sampler, slots[i].image ? slots[i].image->view : VK_NULL_HANDLE,
          slots[i].sampler ? VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL : VK_IMAGE_LAYOUT_GENERAL};
      VkWriteDescriptorSet w = {
          .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
          .dstSet = set,
          .dstBinding = slots[i].binding,
          .dstArrayElement = slots[i].element,
          .descriptorCount = 1,
          .descriptorType = slots[i].type,
          .pBufferInfo = slots[i].buffer ? &info : NULL,
          .pImageInfo = slots[i].buffer ? NULL : &image_info,
      };
      vkUpdateDescriptorSets(dev->device, 1, &w, 0, NULL);
   }
   if (pipe) {
      VkCommandBuffer cmd = vkt_cmd_begin(dev, dev->ctx->universal_family);
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
      vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
      if (push_size)
         vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_size, push);
      vkCmdDispatch(cmd, GROUPS, 1, 1);
      ctu_compute_to_host_barrier(cmd);
      VKT_CHECK(vkt_cmd_submit_wait(dev, dev->ctx->universal_family, 0, cmd));
   }
   vkDestroyDescriptorPool(dev->device, pool, NULL);
   vkDestroyPipeline(dev->device, pipe, NULL);
   vkDestroyShaderModule(dev->device, mod, NULL);
   vkDestroyPipelineLayout(dev->device, layout, NULL);
   vkDestroyDescriptorSetLayout(dev->device, set_layout, NULL);
}

static const VkDescriptorSetLayoutBinding in_out_bindings[] = {
    {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
    {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
};

/* Random input words (src) and an output buffer, run `shader` on them. */
static bool run_in_out(struct vkt_device *dev, const char *shader, VkDeviceSize in_bytes,
                       VkDeviceSize out_bytes, uint64_t seed, struct vkt_buffer *in,
                       struct vkt_buffer *out)
{
   if (vkt_buffer_create(dev, in_bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKT_MEMORY_HOST, in) !=
       VK_SUCCESS)
      return false;
   if (vkt_buffer_create(dev, out_bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKT_MEMORY_HOST,
                         out) != VK_SUCCESS) {
      vkt_buffer_destroy(dev, in);
      return false;
   }
   vkt_fill_random(in->map, in_bytes, seed);
   memset(out->map, 0xAA, out_bytes);
   struct slot slots[] = {
       {0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, in, 0, NULL, 0},
       {1, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, out, 0, NULL, 0},
   };
   run(dev, shader, in_out_bindings, 2, slots, 2, NULL, 0);
   return true;
}

TEST_CASE(shader_int64_arithmetic_is_exact)
{
   struct rig r;
   if (!rig_setup(&r, FEATURE(shaderInt64), "shaderInt64"))
      return;
   struct vkt_buffer in, out;
   REQUIRE(run_in_out(&r.dev, "feature_int64", INVOCATIONS * 8, INVOCATIONS * 32, 401, &in, &out));
   const uint32_t *src = in.map;
   uint64_t *want = calloc(INVOCATIONS * 4, 8);
   REQUIRE(want);
   for (uint32_t i = 0; i < INVOCATIONS; i++) {
      uint64_t x = ((uint64_t)src[2 * i + 1] << 32) | src[2 * i];
      int64_t s = (int64_t)x;
      want[4 * i + 0] = x * 0x9E3779B97F4A7C15ull + i;
      want[4 * i + 1] = (x >> 7) ^ (x << 13);
      want[4 * i + 2] = (uint64_t)(s / (int64_t)(-7 - (int32_t)i));
      want[4 * i + 3] = (uint64_t)(s >> 9) + (x > 0x8000000000000000ull ? 1u : 2u);
   }
   vkt_compare_words(want, out.map, INVOCATIONS * 32, "64-bit integer results");
   free(want);
   vkt_buffer_destroy(&r.dev, &out);
   vkt_buffer_destroy(&r.dev, &in);
   rig_teardown(&r);
}

TEST_CASE(shader_float64_arithmetic_is_exact)
{
   struct rig r;
   if (!rig_setup(&r, FEATURE(shaderFloat64), "shaderFloat64"))
      return;
   struct vkt_buffer in, out;
   REQUIRE(
       run_in_out(&r.dev, "feature_float64", INVOCATIONS * 8, INVOCATIONS * 32, 402, &in, &out));
   const uint32_t *src = in.map;
   double *want = calloc(INVOCATIONS * 4, 8);
   REQUIRE(want);
   for (uint32_t i = 0; i < INVOCATIONS; i++) {
      double a = (double)(src[2 * i] & 0xFFFFFu);
      double b = (double)(src[2 * i + 1] & 0xFFFFFu);
      double big = a * 1048576.0 + b;
      want[4 * i + 0] = big * 0.5 - 3.25;
      want[4 * i + 1] = (a - b) / 4.0;
      want[4 * i + 2] = floor(b / 8.0) + (double)((uint32_t)(a + b) & 0xFFFu);
      want[4 * i + 3] = (a > b ? a : b) - (a < b ? a : b) * 2.0;
   }
   vkt_compare_words(want, out.map, INVOCATIONS * 32, "double results");
   free(want);
   vkt_buffer_destroy(&r.dev, &out);
   vkt_buffer_destroy(&r.dev, &in);
   rig_teardown(&r);
}

TEST_CASE(shader_int16_arithmetic_wraps_at_16_bits)
{
   struct rig r;
   if (!rig_setup(&r, FEATURE(shaderInt16), "shaderInt16"))
      return;
   struct vkt_buffer in, out;
   REQUIRE(run_in_out(&r.dev, "feature_int16", INVOCATIONS * 4, INVOCATIONS * 12, 403, &in, &out));
   const uint32_t *src = in.map;
   uint32_t *want = calloc(INVOCATIONS * 3, 4);
   REQUIRE(want);
   for (uint32_t i = 0; i < INVOCATIONS; i++) {
      uint16_t u = (uint16_t)src[i];
      int16_t s = (int16_t)(uint16_t)(src[i] >> 16);
      want[3 * i + 0] = (uint16_t)((uint32_t)u * 40503u + i);
      want[3 * i + 1] = (uint32_t)(int32_t)(int16_t)(s >> 3);
      want[3 * i + 2] = (uint32_t)(int32_t)(int16_t)(uint16_t)((uint32_t)(uint16_t)s - (u & 0xFFu));
   }
   vkt_compare_words(want, out.map, INVOCATIONS * 12, "16-bit integer results");
   free(want);
   vkt_buffer_destroy(&r.dev, &out);
   vkt_buffer_destroy(&r.dev, &in);
   rig_teardown(&r);
}

TEST_CASE(storage_buffer_arrays_index_dynamically)
{
   struct rig r;
   if (!rig_setup(&r, FEATURE(shaderStorageBufferArrayDynamicIndexing),
                  "shaderStorageBufferArrayDynamicIndexing"))
      return;
   const VkDescriptorSetLayoutBinding binding = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4,
                                                 VK_SHADER_STAGE_COMPUTE_BIT, NULL};
   struct vkt_buffer bufs[4];
   struct slot slots[4];
   uint32_t *want = calloc(INVOCATIONS, 4);
   REQUIRE(want);
   for (uint32_t k = 0; k < 4; k++) {
      VKT_REQUIRE(vkt_buffer_create(&r.dev, INVOCATIONS * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                    VKT_MEMORY_HOST, &bufs[k]));
      vkt_fill_random(bufs[k].map, INVOCATIONS * 4, 410 + k);
      slots[k] = (struct slot){0, k, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &bufs[k], 0, NULL, 0};
   }
   for (uint32_t i = 0; i < INVOCATIONS; i++) {
      for (uint32_t k = 0; k < 4; k++)
         want[i] += ((const uint32_t *)bufs[k].map)[i] * (k + 1);
   }
   const uint32_t target = 2;
   uint32_t *others[3] = {malloc(INVOCATIONS * 4), malloc(INVOCATIONS * 4),
                          malloc(INVOCATIONS * 4)};
   REQUIRE(others[0] && others[1] && others[2]);
   for (uint32_t k = 0, o = 0; k < 4; k++) {
      if (k != target)
         memcpy(others[o++], bufs[k].map, INVOCATIONS * 4);
   }
   run(&r.dev, "feature_storage_array_indexing", &binding, 1, slots, 4, &target, sizeof(target));
   vkt_compare_words(want, bufs[target].map, INVOCATIONS * 4, "the buffer picked by index");
   for (uint32_t k = 0, o = 0; k < 4; k++) {
      if (k != target)
         vkt_compare_words(others[o++], bufs[k].map, INVOCATIONS * 4, "an untouched buffer");
   }
   for (uint32_t k = 0; k < 4; k++)
      vkt_buffer_destroy(&r.dev, &bufs[k]);
   for (uint32_t o = 0; o < 3; o++)
      free(others[o]);
   free(want);
   rig_teardown(&r);
}

TEST_CASE(uniform_buffer_arrays_index_dynamically)
{
   struct rig r;
   if (!rig_setup(&r, FEATURE(shaderUniformBufferArrayDynamicIndexing),
                  "shaderUniformBufferArrayDynamicIndexing"))
      return;
   const VkDescriptorSetLayoutBinding bindings[] = {
       {0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 3, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
   };
   struct vkt_buffer tables[3], out;
   struct slot slots[4];
   for (uint32_t k = 0; k < 3; k++) {
      VKT_REQUIRE(vkt_buffer_create(&r.dev, 256, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
                                    VKT_MEMORY_HOST, &tables[k]));
      vkt_fill_random(tables[k].map, 256, 420 + k);
      slots[k] = (struct slot){0, k, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, &tables[k], 0, NULL, 0};
   }
   VKT_REQUIRE(vkt_buffer_create(&r.dev, INVOCATIONS * 8, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                 VKT_MEMORY_HOST, &out));
   memset(out.map, 0xAA, INVOCATIONS * 8);
   slots[3] = (struct slot){1, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &out, 0, NULL, 0};
   const uint32_t pick = 1;
   run(&r.dev, "feature_uniform_array_indexing", bindings, 2, slots, 4, &pick, sizeof(pick));
   uint32_t *want = calloc(INVOCATIONS * 2, 4);
   REQUIRE(want);
   for (uint32_t i = 0; i < INVOCATIONS; i++) {
      for (uint32_t k = 0; k < 3; k++)
         want[2 * i] += ((const uint32_t *)tables[k].map)[(i % 16) * 4 + k] * (k + 1);
      want[2 * i + 1] = ((const uint32_t *)tables[pick].map)[((i * 7) % 16) * 4 + 3];
   }
   vkt_compare_words(want, out.map, INVOCATIONS * 8, "sums over the uniform buffer array");
   free(want);
   vkt_buffer_destroy(&r.dev, &out);
   for (uint32_t k = 0; k < 3; k++)
      vkt_buffer_destroy(&r.dev, &tables[k]);
   rig_teardown(&r);
}

/* robustBufferAccess with shaders: buffers of 128 words, 256 invocations.
 * dst shares one allocation with guard words right after its memory range,
 * which the out-of-bounds writes must leave alone. */
TEST_CASE(robust_buffer_access_reads_zero_and_drops_writes)
{
   struct rig r;
   if (!rig_setup(&r, FEATURE(robustBufferAccess), "robustBufferAccess"))
      return;
   const uint32_t words = INVOCATIONS / 2;
   const VkDescriptorSetLayoutBinding bindings[] = {
       {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
   };
   struct vkt_buffer src, seen;
   VKT_REQUIRE(vkt_buffer_create(&r.dev, words * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                 VKT_MEMORY_HOST, &src));
   VKT_REQUIRE(vkt_buffer_create(&r.dev, INVOCATIONS * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                 VKT_MEMORY_HOST, &seen));
   vkt_fill_random(src.map, words * 4, 430);
   memset(seen.map, 0xAA, INVOCATIONS * 4);

   /* dst by hand: its memory range, then as many guard bytes again. */
   struct vkt_buffer dst = {.size = words * 4};
   VkBufferCreateInfo bci = {
       .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
       .size = words * 4,
       .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
       .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
   };
   VKT_REQUIRE(vkCreateBuffer(r.dev.device, &bci, NULL, &dst.buffer));
   VkMemoryRequirements req;
   vkGetBufferMemoryRequirements(r.dev.device, dst.buffer, &req);
   const VkDeviceSize guard_offset = req.size;
   const VkDeviceSize alloc_size = req.size + words * 4 * 2;
   dst.memory_type = vkt_find_memory_type(
       &r.ctx, req.memoryTypeBits,
       VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, 0);
   REQUIRE(dst.memory_type != VKT_NO_MEMORY_TYPE);
   VkMemoryAllocateInfo mai = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
       .allocationSize = alloc_size,
       .memoryTypeIndex = dst.memory_type,
   };
   VKT_REQUIRE(vkAllocateMemory(r.dev.device, &mai, NULL, &dst.memory));
   VKT_REQUIRE(vkBindBufferMemory(r.dev.device, dst.buffer, dst.memory, 0));
   VKT_REQUIRE(vkMapMemory(r.dev.device, dst.memory, 0, VK_WHOLE_SIZE, 0, &dst.map));
   memset(dst.map, 0xAA, (size_t)alloc_size);

   struct slot slots[] = {
       {0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &src, 0, NULL, 0},
       {1, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &dst, 0, NULL, 0},
       {2, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &seen, 0, NULL, 0},
   };
   run(&r.dev, "feature_robust_access", bindings, 3, slots, 3, NULL, 0);

   uint32_t *want = calloc(INVOCATIONS, 4);
   REQUIRE(want);
   memcpy(want, src.map, words * 4); /* and zeros past the end */
   vkt_compare_words(want, seen.map, INVOCATIONS * 4, "reads, in bounds and out of bounds");
   for (uint32_t i = 0; i < words; i++)
      want[i] = i + 1;
   vkt_compare_words(want, dst.map, words * 4, "writes in bounds");
   const uint8_t *bytes = dst.map;
   size_t changed = 0;
   for (VkDeviceSize b = guard_offset; b < alloc_size; b++)
      changed += bytes[b] != 0xAA;
   CHECK_MSG(changed == 0, "%zu guard bytes after the buffer were written", changed);
   free(want);
   vkt_buffer_destroy(&r.dev, &dst);
   vkt_buffer_destroy(&r.dev, &seen);
   vkt_buffer_destroy(&r.dev, &src);
   rig_teardown(&r);
}

/* ---- image features ------------------------------------------------------ */

static VkSampler nearest_sampler(struct vkt_device *dev)
{
   VkSamplerCreateInfo sci = {
       .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
       .addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
       .addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
       .addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
   };
   VkSampler s = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateSampler(dev->device, &sci, NULL, &s));
   return s;
}

static const VkBufferImageCopy whole_16x16 = {
    .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, .imageExtent = {16, 16, 1}};

static const VkDescriptorSetLayoutBinding storage_image_and_buffer[] = {
    {0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
    {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
};

TEST_CASE(storage_images_read_without_format)
{
   struct rig r;
   if (!rig_setup(&r, FEATURE(shaderStorageImageReadWithoutFormat),
                  "shaderStorageImageReadWithoutFormat"))
      return;
   uint8_t texels[16 * 16 * 4];
   vkt_fill_random(texels, sizeof(texels), 515);
   struct vkt_image img;
   struct vkt_buffer out;
   REQUIRE(vkt_image_create_2d(&r.dev, VK_FORMAT_R8G8B8A8_UNORM, 16, 16, 1,
                               VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, &img));
   REQUIRE(vkt_image_upload(&r.dev, img.image, texels, sizeof(texels), &whole_16x16, 1,
                            VK_IMAGE_LAYOUT_GENERAL));
   VKT_REQUIRE(vkt_buffer_create(&r.dev, INVOCATIONS * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                 VKT_MEMORY_HOST, &out));
   struct slot slots[] = {{0, 0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, NULL, 0, &img, 0},
                          {1, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &out, 0, NULL, 0}};
   run(&r.dev, "feature_image_read_without_format", storage_image_and_buffer, 2, slots, 2, NULL, 0);
   const float *got = out.map;
   uint32_t wrong = 0;
   for (uint32_t i = 0; i < INVOCATIONS * 4; i++)
      wrong += fabsf(got[i] - texels[i] / 255.0f) > 1e-6f;
   CHECK_EQ_U64(wrong, 0);
   vkt_buffer_destroy(&r.dev, &out);
   vkt_image_destroy(&r.dev, &img);
   rig_teardown(&r);
}

TEST_CASE(storage_images_write_without_format_to_b8g8r8a8)
{
   struct rig r;
   if (!rig_setup(&r, FEATURE(shaderStorageImageWriteWithoutFormat),
                  "shaderStorageImageWriteWithoutFormat"))
      return;
   VkFormatProperties fp;
   vkGetPhysicalDeviceFormatProperties(r.ctx.physical_device, VK_FORMAT_B8G8R8A8_UNORM, &fp);
   if (!(fp.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT)) {
      vkt_skip("B8G8R8A8_UNORM is not a storage format here");
      rig_teardown(&r);
      return;
   }
   struct vkt_image img;
   REQUIRE(vkt_image_create_2d(&r.dev, VK_FORMAT_B8G8R8A8_UNORM, 16, 16, 1,
                               VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, &img));
   REQUIRE(
       vkt_image_transition(&r.dev, img.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL));
   struct slot slot = {0, 0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, NULL, 0, &img, 0};
   run(&r.dev, "feature_image_write_without_format", storage_image_and_buffer, 1, &slot, 1, NULL,
       0);
   uint8_t got[16 * 16 * 4];
   REQUIRE(vkt_image_download(&r.dev, img.image, VK_IMAGE_LAYOUT_GENERAL, 16, 16, 4, got));
   uint32_t wrong = 0;
   for (uint32_t i = 0; i < 256; i++) {
      /* Memory order B, G, R, A of the shader's (R, G, B, A). */
      const uint8_t want[4] = {51, (uint8_t)(i / 16 * 17), (uint8_t)(i % 16 * 17), 255};
      wrong += memcmp(got + 4 * i, want, 4) != 0;
   }
   CHECK_EQ_U64(wrong, 0);
   vkt_image_destroy(&r.dev, &img);
   rig_teardown(&r);
}

TEST_CASE(storage_images_of_extended_formats)
{
   struct rig r;
   if (!rig_setup(&r, FEATURE(shaderStorageImageExtendedFormats),
                  "shaderStorageImageExtendedFormats"))
      return;
   struct vkt_image img;
   REQUIRE(vkt_image_create_2d(&r.dev, VK_FORMAT_R16G16_SFLOAT, 16, 16, 1,
                               VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, &img));
   REQUIRE(
       vkt_image_transition(&r.dev, img.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL));
   struct slot slot = {0, 0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, NULL, 0, &img, 0};
   run(&r.dev, "feature_image_extended_formats", storage_image_and_buffer, 1, &slot, 1, NULL, 0);
   uint16_t got[16 * 16 * 2];
   REQUIRE(vkt_image_download(&r.dev, img.image, VK_IMAGE_LAYOUT_GENERAL, 16, 16, 4, got));
   uint32_t wrong = 0;
   for (uint32_t i = 0; i < 256; i++) {
      /* Half floats: i / 4 and -(i + 1) are exact (no -0.0 to encode). */
      float x = (float)i * 0.25f, y = -(float)(i + 1);
      uint16_t hx = 0, hy = 0;
      if (x != 0.0f) {
         int e;
         float m = frexpf(x, &e); /* x = m * 2^e, m in [0.5, 1) */
         hx = (uint16_t)(((e - 1 + 15) << 10) | (uint16_t)((m * 2.0f - 1.0f) * 1024.0f));
      }
      {
         int e;
         float m = frexpf(-y, &e);
         hy = (uint16_t)(0x8000u | ((e - 1 + 15) << 10) | (uint16_t)((m * 2.0f - 1.0f) * 1024.0f));
      }
      wrong += got[2 * i] != hx || got[2 * i + 1] != hy;
   }
   CHECK_EQ_U64(wrong, 0);
   vkt_image_destroy(&r.dev, &img);
   rig_teardown(&r);
}

TEST_CASE(sampled_image_arrays_index_dynamically)
{
   struct rig r;
   if (!rig_setup(&r, FEATURE(shaderSampledImageArrayDynamicIndexing),
                  "shaderSampledImageArrayDynamicIndexing"))
      return;
   const VkDescriptorSetLayoutBinding b[] = {
       {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 4, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
   };
   VkSampler sampler = nearest_sampler(&r.dev);
   struct vkt_image imgs[4];
   struct vkt_buffer out;
   struct slot slots[5];
   const VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                                     .imageExtent = {4, 4, 1}};
   for (uint32_t k = 0; k < 4; k++) {
      uint32_t values[16];
      for (uint32_t t = 0; t < 16; t++)
         values[t] = k * 1000 + t;
      REQUIRE(vkt_image_create_2d(&r.dev, VK_FORMAT_R32_UINT, 4, 4, 1,
                                  VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                  &imgs[k]));
      REQUIRE(vkt_image_upload(&r.dev, imgs[k].image, values, sizeof(values), &region, 1,
                               VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL));
      slots[k] = (struct slot){0,        k,      VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, NULL, 0,
                               &imgs[k], sampler};
   }
   VKT_REQUIRE(vkt_buffer_create(&r.dev, INVOCATIONS * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                 VKT_MEMORY_HOST, &out));
   slots[4] = (struct slot){1, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &out, 0, NULL, 0};
   const uint32_t index = 2;
   run(&r.dev, "feature_sampled_image_array_indexing", b, 2, slots, 5, &index, sizeof(index));
   const uint32_t *got = out.map;
   uint32_t wrong = 0;
   for (uint32_t i = 0; i < INVOCATIONS; i++)
      wrong += got[i] != index * 1000 + i % 16;
   CHECK_EQ_U64(wrong, 0);
   vkt_buffer_destroy(&r.dev, &out);
   for (uint32_t k = 0; k < 4; k++)
      vkt_image_destroy(&r.dev, &imgs[k]);
   vkDestroySampler(r.dev.device, sampler, NULL);
   rig_teardown(&r);
}

TEST_CASE(storage_image_arrays_index_dynamically)
{
   struct rig r;
   if (!rig_setup(&r, FEATURE(shaderStorageImageArrayDynamicIndexing),
                  "shaderStorageImageArrayDynamicIndexing"))
      return;
   const VkDescriptorSetLayoutBinding b = {0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 3,
                                           VK_SHADER_STAGE_COMPUTE_BIT, NULL};
   struct vkt_image imgs[3];
   struct slot slots[3];
   uint32_t values[3][256];
   for (uint32_t k = 0; k < 3; k++) {
      vkt_fill_random(values[k], sizeof(values[k]), 900 + k);
      REQUIRE(vkt_image_create_2d(&r.dev, VK_FORMAT_R32_UINT, 16, 16, 1,
                                  VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                                      VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                                  &imgs[k]));
      REQUIRE(vkt_image_upload(&r.dev, imgs[k].image, values[k], sizeof(values[k]), &whole_16x16, 1,
                               VK_IMAGE_LAYOUT_GENERAL));
      slots[k] = (struct slot){0, k, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, NULL, 0, &imgs[k], 0};
   }
   const uint32_t index = 1;
   run(&r.dev, "feature_storage_image_array_indexing", &b, 1, slots, 3, &index, sizeof(index));
   for (uint32_t k = 0; k < 3; k++) {
      uint32_t got[256], want[256];
      for (uint32_t i = 0; i < 256; i++)
         want[i] = k == 2 ? values[1][i] + 1 : values[k][i];
      REQUIRE(vkt_image_download(&r.dev, imgs[k].image, VK_IMAGE_LAYOUT_GENERAL, 16, 16, 4, got));
      vkt_compare_words(want, got, sizeof(got), k == 2 ? "the image written" : "an image read");
   }
   for (uint32_t k = 0; k < 3; k++)
      vkt_image_destroy(&r.dev, &imgs[k]);
   rig_teardown(&r);
}

static const VkDescriptorSetLayoutBinding sampler_and_buffer[] = {
    {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
    {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
};

/* Runs `shader` (binding 0: img with a nearest sampler, binding 1: *out,
 * 16 bytes an invocation, which the caller destroys). */
static bool sample_into_buffer(struct vkt_device *dev, const struct vkt_image *img,
                               const char *shader, struct vkt_buffer *out)
{
   if (vkt_buffer_create(dev, INVOCATIONS * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKT_MEMORY_HOST,
                         out) != VK_SUCCESS)
      return false;
   VkSampler sampler = nearest_sampler(dev);
   struct slot slots[] = {{0, 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, NULL, 0, img, sampler},
                          {1, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, out, 0, NULL, 0}};
   run(dev, shader, sampler_and_buffer, 2, slots, 2, NULL, 0);
   vkDestroySampler(dev->device, sampler, NULL);
   return true;
}

TEST_CASE(cube_array_views_sample_the_face_of_each_cube)
{
   struct rig r;
   if (!rig_setup(&r, FEATURE(imageCubeArray), "imageCubeArray"))
      return;
   VkImageCreateInfo ici = {
       .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
       .flags = VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT,
       .imageType = VK_IMAGE_TYPE_2D,
       .format = VK_FORMAT_R8G8B8A8_UNORM,
       .extent = {1, 1, 1},
       .mipLevels = 1,
       .arrayLayers = 12,
       .samples = VK_SAMPLE_COUNT_1_BIT,
       .tiling = VK_IMAGE_TILING_OPTIMAL,
       .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
   };
   struct vkt_image img;
   REQUIRE(vkt_image_create(&r.dev, &ici, VK_IMAGE_VIEW_TYPE_CUBE_ARRAY, &img));
   uint8_t faces[12][4];
   for (uint32_t l = 0; l < 12; l++) {
      faces[l][0] = (uint8_t)(l * 17);
      faces[l][1] = (uint8_t)(255 - l * 17);
      faces[l][2] = (uint8_t)(l % 6 * 51);
      faces[l][3] = 255;
   }
   const VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 12},
                                     .imageExtent = {1, 1, 1}};
   REQUIRE(vkt_image_upload(&r.dev, img.image, faces, sizeof(faces), &region, 1,
                            VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL));
   struct vkt_buffer out;
   REQUIRE(sample_into_buffer(&r.dev, &img, "feature_image_cube_array", &out));
   const float *got = out.map;
   uint32_t wrong = 0;
   for (uint32_t i = 0; i < INVOCATIONS; i++) {
      /* Axis +X, -X, +Y, -Y, +Z, -Z selects face 0..5 of cube (i / 6) % 2. */
      uint32_t layer = (i / 6) % 2 * 6 + i % 6;
      for (uint32_t c = 0; c < 4; c++)
         wrong += fabsf(got[4 * i + c] - faces[layer][c] / 255.0f) > 1e-6f;
   }
   CHECK_EQ_U64(wrong, 0);
   vkt_buffer_destroy(&r.dev, &out);
   vkt_image_destroy(&r.dev, &img);
   rig_teardown(&r);
}

TEST_CASE(bc1_blocks_decode_through_the_texture_path)
{
   struct rig r;
   if (!rig_setup(&r, FEATURE(textureCompressionBC), "textureCompressionBC"))
      return;
   /* color0 = pure red (0xf800) > color1 = pure green (0x07e0): the
    * four-colour mode; 2-bit indices 0 and 1 pick the endpoints exactly.
    * Texel t (row-major) uses index t % 3 == 0 ? 1 : 0. */
   uint32_t indices = 0;
   for (uint32_t t = 0; t < 16; t++)
      indices |= (t % 3 == 0 ? 1u : 0u) << (2 * t);
   uint8_t block[8] = {0x00,
                       0xf8,
                       0xe0,
                       0x07,
                       (uint8_t)indices,
                       (uint8_t)(indices >> 8),
                       (uint8_t)(indices >> 16),
                       (uint8_t)(indices >> 24)};
   struct vkt_image img;
   REQUIRE(vkt_image_create_2d(&r.dev, VK_FORMAT_BC1_RGBA_UNORM_BLOCK, 4, 4, 1,
                               VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, &img));
   const VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                                     .imageExtent = {4, 4, 1}};
   REQUIRE(vkt_image_upload(&r.dev, img.image, block, sizeof(block), &region, 1,
                            VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL));
   struct vkt_buffer out;
   REQUIRE(sample_into_buffer(&r.dev, &img, "feature_texture_compression_bc", &out));
   const float *got = out.map;
   uint32_t wrong = 0;
   for (uint32_t i = 0; i < INVOCATIONS; i++) {
      bool green = (i % 16) % 3 == 0;
      const float want[4] = {green ? 0.0f : 1.0f, green ? 1.0f : 0.0f, 0.0f, 1.0f};
      for (uint32_t c = 0; c < 4; c++)
         wrong += got[4 * i + c] != want[c];
   }
   CHECK_EQ_U64(wrong, 0);
   vkt_buffer_destroy(&r.dev, &out);
   vkt_image_destroy(&r.dev, &img);
   rig_teardown(&r);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
