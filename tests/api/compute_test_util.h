/* Helpers shared by the compute API tests (test_compute_*.c): loading the
 * SPIR-V the build compiled from shaders/<name>.comp, and the descriptor and
 * pipeline boilerplate every dispatch needs. Header-only because the test
 * executables are one source file each (tests/api/CMakeLists.txt). */
#ifndef COMPUTE_TEST_UTIL_H
#define COMPUTE_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vk_test_context.h"

/* What a test that loses a device on purpose excuses (vkt_tolerate_begin):
 * the loss's own report, and the "in use" errors validation layer 1.3.239
 * gives when a lost device's objects are destroyed (see test_device_lost.c). */
static const char *const ctu_device_loss_messages[] = {
    "device lost",
    "VUID-vkDestroyFence-fence-01120",
    "VUID-vkFreeCommandBuffers-pCommandBuffers-00047",
    "VUID-vkDestroyCommandPool-commandPool-00041",
    NULL,
};

/* Reads VKT_SHADER_DIR/<name>.spv; NULL (and a failed case) when missing.
 * The caller frees the words. */
static inline uint32_t *ctu_load_spirv(const char *name, size_t *bytes)
{
   char path[1024];
   snprintf(path, sizeof(path), "%s/%s.spv", VKT_SHADER_DIR, name);
   FILE *f = fopen(path, "rb");
   if (!f) {
      test_fail(__FILE__, __LINE__, "cannot open %s", path);
      return NULL;
   }
   fseek(f, 0, SEEK_END);
   long size = ftell(f);
   fseek(f, 0, SEEK_SET);
   uint32_t *words = size > 0 ? malloc((size_t)size) : NULL;
   if (!words || fread(words, 1, (size_t)size, f) != (size_t)size) {
      test_fail(__FILE__, __LINE__, "cannot read %s", path);
      free(words);
      fclose(f);
      return NULL;
   }
   fclose(f);
   *bytes = (size_t)size;
   return words;
}

static inline VkShaderModule ctu_shader_module(struct vkt_device *dev, const char *name)
{
   size_t bytes = 0;
   uint32_t *words = ctu_load_spirv(name, &bytes);
   if (!words)
      return VK_NULL_HANDLE;
   VkShaderModuleCreateInfo ci = {
       .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
       .codeSize = bytes,
       .pCode = words,
   };
   VkShaderModule mod = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateShaderModule(dev->device, &ci, NULL, &mod));
   free(words);
   return mod;
}

static inline VkDescriptorSetLayout
ctu_set_layout(struct vkt_device *dev, const VkDescriptorSetLayoutBinding *bindings, uint32_t count)
{
   VkDescriptorSetLayoutCreateInfo ci = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
       .bindingCount = count,
       .pBindings = bindings,
   };
   VkDescriptorSetLayout layout = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateDescriptorSetLayout(dev->device, &ci, NULL, &layout));
   return layout;
}

static inline VkPipelineLayout ctu_pipeline_layout(struct vkt_device *dev,
                                                   const VkDescriptorSetLayout *sets,
                                                   uint32_t set_count, uint32_t push_bytes)
{
   VkPushConstantRange range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes};
   VkPipelineLayoutCreateInfo ci = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
       .setLayoutCount = set_count,
       .pSetLayouts = sets,
       .pushConstantRangeCount = push_bytes ? 1 : 0,
       .pPushConstantRanges = &range,
   };
   VkPipelineLayout layout = VK_NULL_HANDLE;
   VKT_CHECK(vkCreatePipelineLayout(dev->device, &ci, NULL, &layout));
   return layout;
}

static inline VkResult ctu_compute_pipeline(struct vkt_device *dev, VkPipelineCache cache,
                                            VkShaderModule mod, VkPipelineLayout layout,
                                            const VkSpecializationInfo *spec, VkPipeline *out)
{
   VkComputePipelineCreateInfo ci = {
       .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
       .stage =
           {
               .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
               .stage = VK_SHADER_STAGE_COMPUTE_BIT,
               .module = mod,
               .pName = "main",
               .pSpecializationInfo = spec,
           },
       .layout = layout,
   };
   return vkCreateComputePipelines(dev->device, cache, 1, &ci, NULL, out);
}

/* Shader writes -> host reads, after the dispatches of a command buffer. */
static inline void ctu_compute_to_host_barrier(VkCommandBuffer cmd)
{
   VkMemoryBarrier mb = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
       .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
       .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
   };
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                        &mb, 0, NULL, 0, NULL);
}

/* One descriptor of binding `binding`: an image or a buffer. */
static inline void ctu_write_descriptor(struct vkt_device *dev, VkDescriptorSet set,
                                        uint32_t binding, VkDescriptorType type,
                                        const VkDescriptorImageInfo *image,
                                        const VkDescriptorBufferInfo *buffer)
{
   VkWriteDescriptorSet w = {
       .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
       .dstSet = set,
       .dstBinding = binding,
       .descriptorCount = 1,
       .descriptorType = type,
       .pImageInfo = image,
       .pBufferInfo = buffer,
   };
   vkUpdateDescriptorSets(dev->device, 1, &w, 0, NULL);
}

static inline void ctu_write_buffer(struct vkt_device *dev, VkDescriptorSet set, uint32_t binding,
                                    VkDescriptorType type, VkBuffer buffer, VkDeviceSize offset,
                                    VkDeviceSize range)
{
   VkDescriptorBufferInfo info = {buffer, offset, range};
   ctu_write_descriptor(dev, set, binding, type, NULL, &info);
}

static inline void ctu_write_image(struct vkt_device *dev, VkDescriptorSet set, uint32_t binding,
                                   VkDescriptorType type, VkSampler sampler, VkImageView view,
                                   VkImageLayout layout)
{
   VkDescriptorImageInfo info = {sampler, view, layout};
   ctu_write_descriptor(dev, set, binding, type, &info, NULL);
}

/* Acceleration structure `accel` as descriptor `binding` (ray queries). */
static inline void ctu_write_accel(struct vkt_device *dev, VkDescriptorSet set, uint32_t binding,
                                   VkAccelerationStructureKHR accel)
{
   VkWriteDescriptorSetAccelerationStructureKHR as_write = {
       .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_ACCELERATION_STRUCTURE_KHR,
       .accelerationStructureCount = 1,
       .pAccelerationStructures = &accel};
   VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                             .pNext = &as_write,
                             .dstSet = set,
                             .dstBinding = binding,
                             .descriptorCount = 1,
                             .descriptorType = VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR};
   vkUpdateDescriptorSets(dev->device, 1, &w, 0, NULL);
}

/* One shader's pipeline with its one set layout, and a pool for `sets`
 * sets of those bindings: what a test that dispatches one shader needs. */
struct ctu_program {
   VkDescriptorSetLayout set_layout;
   VkPipelineLayout layout;
   VkShaderModule module;
   VkPipeline pipeline;
   VkDescriptorPool pool;
};

/* At most 8 bindings; false (and a failed case) on error. */
static inline bool ctu_program_create(struct vkt_device *dev, const char *shader,
                                      const VkDescriptorSetLayoutBinding *bindings, uint32_t count,
                                      uint32_t push_bytes, uint32_t sets, struct ctu_program *p)
{
   memset(p, 0, sizeof(*p));
   p->set_layout = ctu_set_layout(dev, bindings, count);
   p->layout = ctu_pipeline_layout(dev, &p->set_layout, 1, push_bytes);
   p->module = ctu_shader_module(dev, shader);
   VkDescriptorPoolSize sizes[8];
   for (uint32_t i = 0; i < count && i < 8; i++)
      sizes[i] = (VkDescriptorPoolSize){bindings[i].descriptorType, sets};
   VkDescriptorPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                     .maxSets = sets,
                                     .poolSizeCount = count < 8 ? count : 8,
                                     .pPoolSizes = sizes};
   VkResult r = ctu_compute_pipeline(dev, VK_NULL_HANDLE, p->module, p->layout, NULL, &p->pipeline);
   if (r == VK_SUCCESS)
      r = vkCreateDescriptorPool(dev->device, &pci, NULL, &p->pool);
   if (r != VK_SUCCESS)
      test_fail(__FILE__, __LINE__, "program %s -> %s", shader, vkt_result_name(r));
   return r == VK_SUCCESS;
}

static inline VkDescriptorSet ctu_program_set(struct vkt_device *dev, const struct ctu_program *p)
{
   VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                     .descriptorPool = p->pool,
                                     .descriptorSetCount = 1,
                                     .pSetLayouts = &p->set_layout};
   VkDescriptorSet set = VK_NULL_HANDLE;
   VKT_CHECK(vkAllocateDescriptorSets(dev->device, &ai, &set));
   return set;
}

/* Binds the program and its set `set` for the dispatches that follow. */
static inline void ctu_program_bind(VkCommandBuffer cmd, const struct ctu_program *p,
                                    VkDescriptorSet set)
{
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->pipeline);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->layout, 0, 1, &set, 0, NULL);
}

static inline void ctu_program_destroy(struct vkt_device *dev, struct ctu_program *p)
{
   vkDestroyDescriptorPool(dev->device, p->pool, NULL);
   vkDestroyPipeline(dev->device, p->pipeline, NULL);
   vkDestroyShaderModule(dev->device, p->module, NULL);
   vkDestroyPipelineLayout(dev->device, p->layout, NULL);
   vkDestroyDescriptorSetLayout(dev->device, p->set_layout, NULL);
}

/* Runs `shader` (binding 0: view with one of `samplers`, 1: the coords,
 * 2: results, `result_bytes` a point, push constant: the point count) once
 * per sampler over the same `points` coordinates (a multiple of 64);
 * results[k * points + i] for sampler k. */
static inline bool ctu_sample_points(struct vkt_device *dev, const char *shader, VkImageView view,
                                     const VkSampler *samplers, uint32_t sampler_count,
                                     const struct vkt_buffer *coords, uint32_t points,
                                     uint32_t result_bytes, struct vkt_buffer *results)
{
   const VkDescriptorSetLayoutBinding b[3] = {
       {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
   };
   struct ctu_program p;
   if (!ctu_program_create(dev, shader, b, 3, 4, sampler_count, &p) ||
       vkt_buffer_create(dev, (VkDeviceSize)sampler_count * points * result_bytes,
                         VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKT_MEMORY_HOST,
                         results) != VK_SUCCESS)
      return false;
   VkCommandBuffer cmd = vkt_cmd_begin(dev, dev->ctx->universal_family);
   for (uint32_t k = 0; k < sampler_count; k++) {
      VkDescriptorSet set = ctu_program_set(dev, &p);
      ctu_write_image(dev, set, 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, samplers[k], view,
                      VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
      ctu_write_buffer(dev, set, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, coords->buffer, 0,
                       VK_WHOLE_SIZE);
      ctu_write_buffer(dev, set, 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, results->buffer,
                       (VkDeviceSize)k * points * result_bytes, points * result_bytes);
      ctu_program_bind(cmd, &p, set);
      uint32_t count = points;
      vkCmdPushConstants(cmd, p.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &count);
      vkCmdDispatch(cmd, points / 64, 1, 1);
   }
   ctu_compute_to_host_barrier(cmd);
   VkResult r = vkt_cmd_submit_wait(dev, dev->ctx->universal_family, 0, cmd);
   ctu_program_destroy(dev, &p);
   return r == VK_SUCCESS;
}

#endif /* COMPUTE_TEST_UTIL_H */
