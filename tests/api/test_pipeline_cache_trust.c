/* A pipeline cache that trusts nothing (icd/pipeline_cache.c): a blob whose
 * program was altered, with the blob's own checksum recomputed so that its
 * framing is intact, must not build a pipeline from the altered code — the
 * driver compiles again and the pipeline returns the right data.
 *
 * vkppu only: it edits vkppu's serialized form (the FNV-1a 64 payload
 * checksum after the 32-byte spec header and the payload's magic, count
 * and size; docs in icd/pipeline_cache.c). */
#include <string.h>

#include "compute_test_util.h"

#define CONSTANT 0x5EED1234u /* what cache_constant.comp writes */
#define WORDS 128u           /* two workgroups of 64 */
#define PAYLOAD_START 56u    /* spec header 32 + payload header 24 */
#define CHECKSUM_OFFSET 48u

static uint64_t fnv1a64(const uint8_t *p, size_t n)
{
   uint64_t h = 0xcbf29ce484222325ull;
   for (size_t i = 0; i < n; i++) {
      h ^= p[i];
      h *= 0x100000001b3ull;
   }
   return h;
}

static VkPipeline create_pipeline(struct vkt_device *dev, VkPipelineCache cache,
                                  const struct ctu_program *p, VkPipelineCreateFlags flags,
                                  VkResult *result)
{
   VkComputePipelineCreateInfo ci = {
       .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
       .flags = flags,
       .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                 .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                 .module = p->module,
                 .pName = "main"},
       .layout = p->layout,
   };
   VkPipeline pipe = VK_NULL_HANDLE;
   *result = vkCreateComputePipelines(dev->device, cache, 1, &ci, NULL, &pipe);
   return pipe;
}

/* Runs pipe over a fresh buffer and checks every word is CONSTANT. */
static void check_pipeline(struct vkt_context *ctx, struct vkt_device *dev,
                           const struct ctu_program *p, VkPipeline pipe, const char *what)
{
   struct vkt_buffer out;
   VKT_REQUIRE(vkt_buffer_create(dev, WORDS * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                 VKT_MEMORY_HOST, &out));
   memset(out.map, 0xAA, WORDS * 4);
   VkDescriptorSet set = ctu_program_set(dev, p);
   ctu_write_buffer(dev, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, out.buffer, 0, VK_WHOLE_SIZE);
   VkCommandBuffer cmd = vkt_cmd_begin(dev, ctx->universal_family);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->layout, 0, 1, &set, 0, NULL);
   vkCmdDispatch(cmd, 2, 1, 1);
   ctu_compute_to_host_barrier(cmd);
   VKT_CHECK(vkt_cmd_submit_wait(dev, ctx->universal_family, 0, cmd));
   uint32_t want[WORDS];
   for (uint32_t i = 0; i < WORDS; i++)
      want[i] = CONSTANT;
   vkt_compare_words(want, out.map, sizeof(want), what);
   vkt_buffer_destroy(dev, &out);
}

TEST_CASE(altered_program_with_recomputed_checksum_is_compiled_again)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_context_create(&ctx))
      return;
   /* FAIL_ON_PIPELINE_COMPILE_REQUIRED needs pipelineCreationCacheControl. */
   const char *ext = VK_EXT_PIPELINE_CREATION_CACHE_CONTROL_EXTENSION_NAME;
   VkPhysicalDevicePipelineCreationCacheControlFeatures control = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_CREATION_CACHE_CONTROL_FEATURES,
       .pipelineCreationCacheControl = VK_TRUE};
   const struct vkt_device_desc desc = {
       .extensions = &ext, .extension_count = 1, .feature_chain = &control};
   if (vkt_device_create(&ctx, &desc, &dev) != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "vkCreateDevice with %s failed", ext);
      vkt_context_destroy(&ctx);
      return;
   }
   const VkDescriptorSetLayoutBinding binding = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                                 VK_SHADER_STAGE_COMPUTE_BIT, NULL};
   struct ctu_program prog;
   if (!ctu_program_create(&dev, "cache_constant", &binding, 1, 0, 4, &prog)) {
      vkt_teardown(&ctx, &dev);
      return;
   }
   /* A cache holding the program, and its data. */
   VkPipelineCacheCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
   VkPipelineCache cache;
   VKT_REQUIRE(vkCreatePipelineCache(dev.device, &ci, NULL, &cache));
   VkResult r;
   VkPipeline pipe = create_pipeline(&dev, cache, &prog, 0, &r);
   VKT_CHECK(r);
   vkDestroyPipeline(dev.device, pipe, NULL);
   size_t size = 0;
   VKT_CHECK(vkGetPipelineCacheData(dev.device, cache, &size, NULL));
   uint8_t *data = malloc(size);
   REQUIRE(data);
   VKT_CHECK(vkGetPipelineCacheData(dev.device, cache, &size, data));
   vkDestroyPipelineCache(dev.device, cache, NULL);

   /* The constant is an instruction immediate somewhere in the code: change
    * it, then make the blob's checksum right again. */
   size_t at = 0;
   for (size_t o = PAYLOAD_START; o + 4 <= size && !at; o += 4) {
      uint32_t w;
      memcpy(&w, data + o, 4);
      if (w == CONSTANT)
         at = o;
   }
   CHECK_MSG(at, "the program's constant 0x%08x is not in the %zu-byte cache data", CONSTANT, size);
   REQUIRE(at);
   const uint32_t altered = CONSTANT + 1;
   memcpy(data + at, &altered, 4);
   uint64_t sum = fnv1a64(data + PAYLOAD_START, size - PAYLOAD_START);
   memcpy(data + CHECKSUM_OFFSET, &sum, 8);

   ci.initialDataSize = size;
   ci.pInitialData = data;
   VKT_REQUIRE(vkCreatePipelineCache(dev.device, &ci, NULL, &cache));
   /* The altered entry is not served: a pipeline that may not compile
    * cannot be created from this cache... */
   pipe = create_pipeline(&dev, cache, &prog,
                          VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT, &r);
   CHECK_MSG(r == VK_PIPELINE_COMPILE_REQUIRED && pipe == VK_NULL_HANDLE,
             "a pipeline was served from the altered entry (%s)", vkt_result_name(r));
   if (pipe)
      vkDestroyPipeline(dev.device, pipe, NULL);
   /* ...and one that may compile returns the right data. */
   pipe = create_pipeline(&dev, cache, &prog, 0, &r);
   VKT_CHECK(r);
   if (pipe) {
      check_pipeline(&ctx, &dev, &prog, pipe, "pipeline created through the altered cache");
      vkDestroyPipeline(dev.device, pipe, NULL);
   }
   vkDestroyPipelineCache(dev.device, cache, NULL);
   free(data);
   ctu_program_destroy(&dev, &prog);
   vkt_teardown(&ctx, &dev);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
