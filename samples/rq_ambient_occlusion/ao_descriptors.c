/* The descriptor set of the ambient-occlusion passes (ao_pass.h): the
 * compute pass of shaders/ao.comp and the ray-tracing pipeline of
 * samples/rt_ambient_occlusion read the same four bindings. */
#include "ao_pass.h"

const VkDescriptorType ao_pass_binding_types[AO_BINDING_COUNT] = {
    [AO_BINDING_SCENE] = VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR,
    [AO_BINDING_RESULT] = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
    [AO_BINDING_POSITIONS] = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
    [AO_BINDING_INDICES] = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
};

void ao_pass_write_descriptors(struct rq_context *ctx, const struct rq_scene *scene,
                               struct ao_pass *pass)
{
   VkWriteDescriptorSetAccelerationStructureKHR as_write = {
       .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_ACCELERATION_STRUCTURE_KHR,
       .accelerationStructureCount = 1,
       .pAccelerationStructures = &scene->tlas.handle,
   };
   VkDescriptorBufferInfo buffers[AO_BINDING_COUNT] = {
       [AO_BINDING_RESULT] = {pass->result.buffer, 0, VK_WHOLE_SIZE},
       [AO_BINDING_POSITIONS] = {scene->positions.buffer, 0, VK_WHOLE_SIZE},
       [AO_BINDING_INDICES] = {scene->indices.buffer, 0, VK_WHOLE_SIZE},
   };
   VkWriteDescriptorSet writes[AO_BINDING_COUNT];
   for (uint32_t b = 0; b < AO_BINDING_COUNT; b++) {
      writes[b] = (VkWriteDescriptorSet){
          .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
          .pNext = b == AO_BINDING_SCENE ? &as_write : NULL,
          .dstSet = pass->pipe.set,
          .dstBinding = b,
          .descriptorCount = 1,
          .descriptorType = ao_pass_binding_types[b],
          .pBufferInfo = b == AO_BINDING_SCENE ? NULL : &buffers[b],
      };
   }
   vkUpdateDescriptorSets(ctx->device, AO_BINDING_COUNT, writes, 0, NULL);
}
