/* Core shader features, one case each: the case enables the feature on a new
 * device (with validation on) and checks the exact results of a dispatch of
 * a shader that needs it (shaders/feature_*.comp) against a C reference.
 * shaderInt64, shaderFloat64, shaderInt16, shaderStorageBufferArrayDynamic-
 * Indexing, shaderUniformBufferArrayDynamicIndexing, and robustBufferAccess
 * with shaders (out-of-bounds storage reads give 0, writes are dropped).
 * A device that does not report a feature skips its case. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "compute_test_util.h"

#define WORKGROUP 64u /* local_size_x of every feature_*.comp */
#define GROUPS 4u
#define INVOCATIONS (WORKGROUP * GROUPS)
#define MAX_SLOTS 8u

/* Byte offset of a VkPhysicalDeviceFeatures member, to enable one by name. */
#define FEATURE(member) offsetof(VkPhysicalDeviceFeatures, member)

/* One descriptor of the set: binding, array element, type and buffer. */
struct slot {
   uint32_t binding;
   uint32_t element;
   VkDescriptorType type;
   struct vkt_buffer *buffer;
   VkDeviceSize range; /* 0 = VK_WHOLE_SIZE */
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
   };
   VkDescriptorPoolCreateInfo pci = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
       .maxSets = 1,
       .poolSizeCount = 2,
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
      VkDescriptorBufferInfo info = {slots[i].buffer->buffer, 0,
                                     slots[i].range ? slots[i].range : VK_WHOLE_SIZE};
      VkWriteDescriptorSet w = {
          .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
          .dstSet = set,
          .dstBinding = slots[i].binding,
          .dstArrayElement = slots[i].element,
          .descriptorCount = 1,
          .descriptorType = slots[i].type,
          .pBufferInfo = &info,
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
       {0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, in, 0},
       {1, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, out, 0},
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
      slots[k] = (struct slot){0, k, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &bufs[k], 0};
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
      slots[k] = (struct slot){0, k, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, &tables[k], 0};
   }
   VKT_REQUIRE(vkt_buffer_create(&r.dev, INVOCATIONS * 8, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                 VKT_MEMORY_HOST, &out));
   memset(out.map, 0xAA, INVOCATIONS * 8);
   slots[3] = (struct slot){1, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &out, 0};
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
       {0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &src, 0},
       {1, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &dst, 0},
       {2, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &seen, 0},
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

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
