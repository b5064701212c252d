/* VK_EXT_descriptor_indexing through the loader with validation on: one
 * dispatch reads a runtime array of sampled images with a variable count
 * (of which one element is never written: partially bound) and arrays of
 * storage images, uniform and storage texel buffers, storage and uniform
 * buffers, each indexed by a per-invocation value (nonuniformEXT). The
 * descriptors of the arrays are written after the set is bound in the
 * command buffer (update after bind), and an element no submission uses is rewritten
 * while the work is pending (update unused while pending). Skipped where
 * the extension is not offered. */
#include <string.h>

#include "compute_test_util.h"
#include "image_test_util.h"

#define INVOCATIONS 256u
#define TEXTURES 6u /* the variable count; element 5 stays unwritten */
#define WRITTEN 5u

static uint32_t which(uint32_t i)
{
   return (i * 7u + i / 3u) % WRITTEN;
}

static bool features_ok(const VkPhysicalDeviceDescriptorIndexingFeatures *f)
{
   return f->runtimeDescriptorArray && f->shaderSampledImageArrayNonUniformIndexing &&
          f->shaderStorageImageArrayNonUniformIndexing &&
          f->shaderUniformTexelBufferArrayNonUniformIndexing &&
          f->shaderStorageTexelBufferArrayNonUniformIndexing &&
          f->shaderStorageBufferArrayNonUniformIndexing &&
          f->shaderUniformBufferArrayNonUniformIndexing &&
          f->descriptorBindingStorageTexelBufferUpdateAfterBind &&
          f->descriptorBindingStorageBufferUpdateAfterBind &&
          f->descriptorBindingUniformBufferUpdateAfterBind &&
          f->descriptorBindingSampledImageUpdateAfterBind &&
          f->descriptorBindingStorageImageUpdateAfterBind &&
          f->descriptorBindingUniformTexelBufferUpdateAfterBind &&
          f->descriptorBindingUpdateUnusedWhilePending && f->descriptorBindingPartiallyBound &&
          f->descriptorBindingVariableDescriptorCount;
}

TEST_CASE(nonuniform_update_after_bind_partially_bound_variable_count)
{
   struct vkt_context ctx;
   if (!vkt_context_create(&ctx))
      return;
   if (!vkt_has_device_extension(&ctx, VK_EXT_DESCRIPTOR_INDEXING_EXTENSION_NAME)) {
      vkt_skip("%s does not offer VK_EXT_descriptor_indexing", ctx.props.deviceName);
      vkt_context_destroy(&ctx);
      return;
   }
   VkPhysicalDeviceDescriptorIndexingFeatures supported = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_FEATURES};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &supported};
   vkGetPhysicalDeviceFeatures2KHR(ctx.physical_device, &f2);
   /* The extension requires most of these (Feature Requirements); the
    * optional ones (storage texel buffer, uniform buffer non-uniform
    * indexing, their update after bind) both implementations offer. */
   if (!features_ok(&supported)) {
      vkt_skip("%s lacks a descriptor-indexing feature this case uses", ctx.props.deviceName);
      vkt_context_destroy(&ctx);
      return;
   }
   VkPhysicalDeviceDescriptorIndexingFeatures enable = supported;
   enable.pNext = NULL;
   const char *const exts[] = {VK_KHR_MAINTENANCE_3_EXTENSION_NAME,
                               VK_EXT_DESCRIPTOR_INDEXING_EXTENSION_NAME};
   struct vkt_device_desc desc = {
       .extensions = exts, .extension_count = 2, .feature_chain = &enable};
   struct vkt_device dev;
   if (vkt_device_create(&ctx, &desc, &dev) != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "vkCreateDevice with descriptor indexing failed");
      vkt_context_destroy(&ctx);
      return;
   }

   /* Resources: textures[k] is 4x1 R32_UINT of k*100 + x; texels[j] 8
    * R32_UINT of 1000*j + e; images[j] 2x1 R32_UINT of 5000*j + x. */
   struct vkt_image textures[TEXTURES], images[4];
   struct vkt_buffer texel_bufs[4], storage_texel_bufs[4], datas[4], consts[4], in, out;
   VkBufferView views[4], storage_views[4];
   const VkBufferImageCopy row4 = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                                   .imageExtent = {4, 1, 1}};
   const VkBufferImageCopy row2 = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                                   .imageExtent = {2, 1, 1}};
   for (uint32_t k = 0; k < TEXTURES; k++) {
      uint32_t v[4] = {k * 100, k * 100 + 1, k * 100 + 2, k * 100 + 3};
      REQUIRE(vkt_image_create_2d(&dev, VK_FORMAT_R32_UINT, 4, 1, 1,
                                  VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                  &textures[k]));
      REQUIRE(vkt_image_upload(&dev, textures[k].image, v, sizeof(v), &row4, 1,
                               VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL));
   }
   for (uint32_t j = 0; j < 4; j++) {
      uint32_t v[2] = {5000 * j, 5000 * j + 1};
      REQUIRE(vkt_image_create_2d(&dev, VK_FORMAT_R32_UINT, 2, 1, 1,
                                  VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                  &images[j]));
      REQUIRE(
          vkt_image_upload(&dev, images[j].image, v, sizeof(v), &row2, 1, VK_IMAGE_LAYOUT_GENERAL));
      VKT_REQUIRE(vkt_buffer_create(&dev, 32, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT,
                                    VKT_MEMORY_HOST, &texel_bufs[j]));
      for (uint32_t e = 0; e < 8; e++)
         ((uint32_t *)texel_bufs[j].map)[e] = 1000 * j + e;
      VkBufferViewCreateInfo bvci = {.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO,
                                     .buffer = texel_bufs[j].buffer,
                                     .format = VK_FORMAT_R32_UINT,
                                     .range = VK_WHOLE_SIZE};
      VKT_REQUIRE(vkCreateBufferView(dev.device, &bvci, NULL, &views[j]));
      /* storage_texels[j] and datas[j]: 8 words of 20000*j + e and
       * 30000*j + e; consts[j]: 8 words of 40000*j + e. */
      VKT_REQUIRE(vkt_buffer_create(&dev, 32, VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT,
                                    VKT_MEMORY_HOST, &storage_texel_bufs[j]));
      VKT_REQUIRE(vkt_buffer_create(&dev, 32, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKT_MEMORY_HOST,
                                    &datas[j]));
      VKT_REQUIRE(vkt_buffer_create(&dev, 32, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, VKT_MEMORY_HOST,
                                    &consts[j]));
      for (uint32_t e = 0; e < 8; e++) {
         ((uint32_t *)storage_texel_bufs[j].map)[e] = 20000 * j + e;
         ((uint32_t *)datas[j].map)[e] = 30000 * j + e;
         ((uint32_t *)consts[j].map)[e] = 40000 * j + e;
      }
      bvci.buffer = storage_texel_bufs[j].buffer;
      VKT_REQUIRE(vkCreateBufferView(dev.device, &bvci, NULL, &storage_views[j]));
   }
   VKT_REQUIRE(vkt_buffer_create(&dev, INVOCATIONS * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                 VKT_MEMORY_HOST, &in));
   VKT_REQUIRE(vkt_buffer_create(&dev, INVOCATIONS * 32, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                 VKT_MEMORY_HOST, &out));
   for (uint32_t i = 0; i < INVOCATIONS; i++)
      ((uint32_t *)in.map)[i] = which(i);
   memset(out.map, 0xee, INVOCATIONS * 32);

   const VkDescriptorSetLayoutBinding b[8] = {
       {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {2, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 4, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {3, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 4, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {4, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 4, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {5, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {6, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 4, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {7, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 64, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
   };
   const VkDescriptorBindingFlags uab = VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT |
                                        VK_DESCRIPTOR_BINDING_UPDATE_UNUSED_WHILE_PENDING_BIT;
   const VkDescriptorBindingFlags flags[8] = {
       0,
       0,
       uab,
       uab,
       uab,
       uab,
       uab,
       uab | VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT |
           VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT};
   VkDescriptorSetLayoutBindingFlagsCreateInfo bfci = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO,
       .bindingCount = 8,
       .pBindingFlags = flags};
   VkDescriptorSetLayoutCreateInfo lci = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
       .pNext = &bfci,
       .flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT,
       .bindingCount = 8,
       .pBindings = b};
   VkDescriptorSetLayout set_layout;
   VKT_REQUIRE(vkCreateDescriptorSetLayout(dev.device, &lci, NULL, &set_layout));
   VkPipelineLayout layout = ctu_pipeline_layout(&dev, &set_layout, 1, 0);
   VkShaderModule mod = ctu_shader_module(&dev, "descriptor_indexing");
   VkPipeline pipeline = VK_NULL_HANDLE;
   VKT_REQUIRE(ctu_compute_pipeline(&dev, VK_NULL_HANDLE, mod, layout, NULL, &pipeline));
   VkDescriptorPoolSize sizes[6] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 6},
                                    {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 4},
                                    {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 4},
                                    {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 4},
                                    {VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 4},
                                    {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, TEXTURES}};
   VkDescriptorPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                     .flags = VK_DESCRIPTOR_POOL_CREATE_UPDATE_AFTER_BIND_BIT,
                                     .maxSets = 1,
                                     .poolSizeCount = 6,
                                     .pPoolSizes = sizes};
   VkDescriptorPool pool;
   VKT_REQUIRE(vkCreateDescriptorPool(dev.device, &pci, NULL, &pool));
   uint32_t variable = TEXTURES;
   VkDescriptorSetVariableDescriptorCountAllocateInfo vai = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_ALLOCATE_INFO,
       .descriptorSetCount = 1,
       .pDescriptorCounts = &variable};
   VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                     .pNext = &vai,
                                     .descriptorPool = pool,
                                     .descriptorSetCount = 1,
                                     .pSetLayouts = &set_layout};
   VkDescriptorSet set;
   VKT_REQUIRE(vkAllocateDescriptorSets(dev.device, &ai, &set));
   ctu_write_buffer(&dev, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, in.buffer, 0, VK_WHOLE_SIZE);
   ctu_write_buffer(&dev, set, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, out.buffer, 0, VK_WHOLE_SIZE);

   /* Record first, with the set bound; write the update-after-bind
    * descriptors afterwards, before the submission. */
   VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
   vkCmdDispatch(cmd, INVOCATIONS / 64, 1, 1);
   ctu_compute_to_host_barrier(cmd);

   VkSamplerCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
   VkSampler sampler;
   VKT_REQUIRE(vkCreateSampler(dev.device, &sci, NULL, &sampler));
   VkDescriptorImageInfo storage[4], sampled[WRITTEN];
   for (uint32_t j = 0; j < 4; j++)
      storage[j] = (VkDescriptorImageInfo){VK_NULL_HANDLE, images[j].view, VK_IMAGE_LAYOUT_GENERAL};
   for (uint32_t k = 0; k < WRITTEN; k++)
      sampled[k] = (VkDescriptorImageInfo){sampler, textures[k].view,
                                           VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
   VkDescriptorBufferInfo data_infos[4], const_infos[4];
   for (uint32_t j = 0; j < 4; j++) {
      data_infos[j] = (VkDescriptorBufferInfo){datas[j].buffer, 0, VK_WHOLE_SIZE};
      const_infos[j] = (VkDescriptorBufferInfo){consts[j].buffer, 0, VK_WHOLE_SIZE};
   }
   VkWriteDescriptorSet w[6] = {
       {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstSet = set,
        .dstBinding = 2,
        .descriptorCount = 4,
        .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
        .pImageInfo = storage},
       {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstSet = set,
        .dstBinding = 3,
        .descriptorCount = 4,
        .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER,
        .pTexelBufferView = views},
       {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstSet = set,
        .dstBinding = 4,
        .descriptorCount = 4,
        .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER,
        .pTexelBufferView = storage_views},
       {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstSet = set,
        .dstBinding = 5,
        .descriptorCount = 4,
        .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
        .pBufferInfo = data_infos},
       {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstSet = set,
        .dstBinding = 6,
        .descriptorCount = 4,
        .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
        .pBufferInfo = const_infos},
       {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstSet = set,
        .dstBinding = 7,
        .descriptorCount = WRITTEN,
        .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
        .pImageInfo = sampled},
   };
   vkUpdateDescriptorSets(dev.device, 6, w, 0, NULL);

   VKT_REQUIRE(vkEndCommandBuffer(cmd));
   VkFence fence = vkt_fence_create(&dev, false);
   VkSubmitInfo si = {
       .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd};
   VKT_REQUIRE(vkQueueSubmit(dev.queue, 1, &si, fence));
   /* Element 5 is used by no invocation: writing it while the work is
    * pending is allowed (UPDATE_UNUSED_WHILE_PENDING). */
   VkDescriptorImageInfo late = {sampler, textures[5].view,
                                 VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
   VkWriteDescriptorSet wl = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                              .dstSet = set,
                              .dstBinding = 7,
                              .dstArrayElement = 5,
                              .descriptorCount = 1,
                              .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                              .pImageInfo = &late};
   vkUpdateDescriptorSets(dev.device, 1, &wl, 0, NULL);
   VKT_CHECK(vkWaitForFences(dev.device, 1, &fence, VK_TRUE, VKT_WAIT_TIMEOUT_NS));

   const uint32_t *got = out.map;
   uint32_t wrong = 0;
   for (uint32_t i = 0; i < INVOCATIONS; i++) {
      uint32_t k = which(i), j = k % 4;
      const uint32_t want[8] = {k,
                                k * 100 + i % 4,
                                1000 * j + i % 8,
                                5000 * j + i % 2,
                                20000 * j + i % 8,
                                30000 * j + i % 8,
                                40000 * j + (i / 4) % 2 * 4 + i % 4,
                                0};
      const uint32_t *g = got + 8 * i;
      if (memcmp(g, want, 32) != 0 && wrong++ < 5)
         test_fail(__FILE__, __LINE__,
                   "invocation %u: got (%u %u %u %u | %u %u %u), want (%u %u %u %u | %u %u %u)", i,
                   g[0], g[1], g[2], g[3], g[4], g[5], g[6], want[0], want[1], want[2], want[3],
                   want[4], want[5], want[6]);
   }
   CHECK_EQ_U64(wrong, 0);

   vkDestroyFence(dev.device, fence, NULL);
   vkFreeCommandBuffers(dev.device, dev.pools[ctx.universal_family], 1, &cmd);
   vkDestroySampler(dev.device, sampler, NULL);
   vkDestroyDescriptorPool(dev.device, pool, NULL);
   vkDestroyPipeline(dev.device, pipeline, NULL);
   vkDestroyShaderModule(dev.device, mod, NULL);
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkDestroyDescriptorSetLayout(dev.device, set_layout, NULL);
   for (uint32_t j = 0; j < 4; j++) {
      vkDestroyBufferView(dev.device, views[j], NULL);
      vkDestroyBufferView(dev.device, storage_views[j], NULL);
      vkt_buffer_destroy(&dev, &texel_bufs[j]);
      vkt_buffer_destroy(&dev, &storage_texel_bufs[j]);
      vkt_buffer_destroy(&dev, &datas[j]);
      vkt_buffer_destroy(&dev, &consts[j]);
      vkt_image_destroy(&dev, &images[j]);
   }
   for (uint32_t k = 0; k < TEXTURES; k++)
      vkt_image_destroy(&dev, &textures[k]);
   vkt_buffer_destroy(&dev, &in);
   vkt_buffer_destroy(&dev, &out);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
