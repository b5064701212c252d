/* Shader modules and pipeline caches, without running anything: invalid
 * SPIR-V is rejected (an error, never a crash), a pipeline cache's data
 * starts with the header the spec defines for this device, short buffers
 * give VK_INCOMPLETE, corrupted or foreign initial data is ignored, and
 * compute pipeline creation either works or fails cleanly with a null
 * handle. Dispatches (and caches holding real programs) are in
 * test_compute_dispatch.c. */
#include <string.h>

#include "compute_test_util.h"

/* Messages provoked on purpose: the validation layer's SPIR-V checks and
 * vkppu's own report of why it rejected a module. */
static const char *const invalid_spirv_messages[] = {"VkShaderModuleCreateInfo-pCode",
                                                     "vkCreateShaderModule", "SPIR-V", NULL};

static VkResult create_module(struct vkt_device *dev, const uint32_t *words, size_t bytes,
                              VkShaderModule *out)
{
   VkShaderModuleCreateInfo ci = {
       .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
       .codeSize = bytes,
       .pCode = words,
   };
   *out = VK_NULL_HANDLE;
   return vkCreateShaderModule(dev->device, &ci, NULL, out);
}

TEST_CASE(invalid_spirv_is_rejected_without_crashing)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   if (!ctx.is_vkppu) {
      /* Invalid SPIR-V is invalid usage: other drivers may trust the words
       * (lavapipe under the validation layer dies of std::bad_alloc). */
      vkt_skip("only vkppu promises to reject invalid SPIR-V");
      vkt_teardown(&ctx, &dev);
      return;
   }
   size_t bytes = 0;
   uint32_t *valid = ctu_load_spirv("compute_index", &bytes);
   REQUIRE(valid);
   size_t words = bytes / 4;
   uint32_t *bad = malloc(bytes);
   REQUIRE(bad);
   enum { KINDS = 5 };
   for (int kind = 0; kind < KINDS; kind++) {
      size_t size = bytes;
      memcpy(bad, valid, bytes);
      switch (kind) {
      case 0: /* wrong magic number */
         bad[0] = 0x12345678u;
         break;
      case 1: /* truncated in the middle of an instruction stream */
         size = (words / 2) * 4;
         break;
      case 2: /* an instruction whose word count runs past the end */
         bad[words - 2] = (0xffffu << 16) | (bad[words - 2] & 0xffffu);
         break;
      case 3: /* a bound of 0 makes every id out of range */
         bad[3] = 0;
         break;
      case 4: /* pseudo-random words after the header */
         vkt_fill_random(bad + 5, bytes - 20, 0xC0FFEEu);
         break;
      }
      vkt_tolerate_begin(invalid_spirv_messages);
      VkShaderModule mod;
      VkResult r = create_module(&dev, bad, size, &mod);
      vkt_tolerate_end();
      CHECK_MSG(r == VK_ERROR_UNKNOWN, "invalid module %d -> %s", kind, vkt_result_name(r));
      CHECK(mod == VK_NULL_HANDLE);
      if (r == VK_SUCCESS)
         vkDestroyShaderModule(dev.device, mod, NULL);
   }
   /* The untouched module is accepted everywhere. */
   VkShaderModule mod;
   VKT_CHECK(create_module(&dev, valid, bytes, &mod));
   vkDestroyShaderModule(dev.device, mod, NULL);
   free(bad);
   free(valid);
   vkt_teardown(&ctx, &dev);
}

static VkPipelineCache create_cache(struct vkt_device *dev, const void *data, size_t size)
{
   VkPipelineCacheCreateInfo ci = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO,
       .initialDataSize = size,
       .pInitialData = data,
   };
   VkPipelineCache cache = VK_NULL_HANDLE;
   VKT_CHECK(vkCreatePipelineCache(dev->device, &ci, NULL, &cache));
   return cache;
}

TEST_CASE(pipeline_cache_data_starts_with_the_spec_header)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   VkPipelineCache cache = create_cache(&dev, NULL, 0);
   size_t size = 0;
   VKT_CHECK(vkGetPipelineCacheData(dev.device, cache, &size, NULL));
   REQUIRE(size >= sizeof(VkPipelineCacheHeaderVersionOne));
   uint8_t *data = malloc(size);
   REQUIRE(data);
   VKT_CHECK(vkGetPipelineCacheData(dev.device, cache, &size, data));
   VkPipelineCacheHeaderVersionOne h;
   memcpy(&h, data, sizeof(h));
   /* "Pipeline Cache Header": these fields, in this order, little-endian. */
   CHECK_EQ_U64(h.headerSize, 32);
   CHECK_EQ_U64(h.headerVersion, VK_PIPELINE_CACHE_HEADER_VERSION_ONE);
   CHECK_EQ_U64(h.vendorID, ctx.props.vendorID);
   CHECK_EQ_U64(h.deviceID, ctx.props.deviceID);
   CHECK(memcmp(h.pipelineCacheUUID, ctx.props.pipelineCacheUUID, VK_UUID_SIZE) == 0);

   /* Too small for the header: nothing written, size 0, VK_INCOMPLETE. */
   size_t small = 16;
   uint8_t sentinel[16];
   memset(sentinel, 0xAB, sizeof(sentinel));
   VKT_CHECK_RESULT(vkGetPipelineCacheData(dev.device, cache, &small, sentinel), VK_INCOMPLETE);
   CHECK_EQ_U64(small, 0);
   CHECK_EQ_U64(sentinel[0], 0xAB);

   /* Its own data round trips, and merging caches works on empty ones. */
   VkPipelineCache copy = create_cache(&dev, data, size);
   VKT_CHECK(vkMergePipelineCaches(dev.device, copy, 1, &cache));
   vkDestroyPipelineCache(dev.device, copy, NULL);
   vkDestroyPipelineCache(dev.device, cache, NULL);
   free(data);
   vkt_teardown(&ctx, &dev);
}

TEST_CASE(corrupt_or_foreign_cache_data_is_ignored)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   /* A valid blob of this device to start the corruptions from. */
   VkPipelineCache cache = create_cache(&dev, NULL, 0);
   size_t size = 0;
   VKT_CHECK(vkGetPipelineCacheData(dev.device, cache, &size, NULL));
   uint8_t *valid = malloc(size + 256);
   REQUIRE(valid);
   VKT_CHECK(vkGetPipelineCacheData(dev.device, cache, &size, valid));
   vkDestroyPipelineCache(dev.device, cache, NULL);

   uint8_t blob[512];
   enum { KINDS = 6 };
   for (int kind = 0; kind < KINDS; kind++) {
      size_t n = size;
      memcpy(blob, valid, size);
      switch (kind) {
      case 0: /* another device's UUID */
         blob[16] ^= 0xff;
         break;
      case 1: /* a header that claims to be bigger than the data */
         blob[0] = 0xff;
         break;
      case 2: /* random bytes throughout */
         n = sizeof(blob);
         vkt_fill_random(blob, n, 42);
         break;
      case 3: /* a valid header followed by garbage */
         n = sizeof(blob);
         vkt_fill_random(blob + 32, n - 32, 7);
         break;
      case 4: /* truncated inside the header */
         n = 20;
         break;
      case 5: /* one flipped bit in the last byte */
         blob[size - 1] ^= 1;
         break;
      }
      VkPipelineCache c = create_cache(&dev, blob, n);
      if (c) {
         /* Whatever was kept, the cache's own data is well formed. */
         size_t out = 0;
         VKT_CHECK(vkGetPipelineCacheData(dev.device, c, &out, NULL));
         CHECK(out >= 32);
         vkDestroyPipelineCache(dev.device, c, NULL);
      }
   }
   free(valid);
   vkt_teardown(&ctx, &dev);
}

static const char *const no_compiler_messages[] = {"vkCreateComputePipelines", NULL};

TEST_CASE(compute_pipeline_creation_succeeds_or_fails_cleanly)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   VkShaderModule mod = ctu_shader_module(&dev, "compute_index");
   VkDescriptorSetLayoutBinding b = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                     VK_SHADER_STAGE_COMPUTE_BIT, NULL};
   VkDescriptorSetLayout set_layout = ctu_set_layout(&dev, &b, 1);
   VkPipelineLayout layout = ctu_pipeline_layout(&dev, &set_layout, 1, 8);
   VkPipeline pipe = (VkPipeline)(uintptr_t)0x1;
   /* vkppu without its shader compiler fails here with a message. */
   if (ctx.is_vkppu)
      vkt_tolerate_begin(no_compiler_messages);
   VkResult r = ctu_compute_pipeline(&dev, VK_NULL_HANDLE, mod, layout, NULL, &pipe);
   if (ctx.is_vkppu)
      vkt_tolerate_end();
   if (r == VK_SUCCESS) {
      CHECK(pipe != VK_NULL_HANDLE);
      vkDestroyPipeline(dev.device, pipe, NULL);
   } else {
      CHECK_MSG(ctx.is_vkppu, "vkCreateComputePipelines -> %s", vkt_result_name(r));
      CHECK(pipe == VK_NULL_HANDLE);
      printf("  note: compute pipelines are not available (%s)\n", vkt_result_name(r));
   }
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkDestroyDescriptorSetLayout(dev.device, set_layout, NULL);
   vkDestroyShaderModule(dev.device, mod, NULL);
   vkt_teardown(&ctx, &dev);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
