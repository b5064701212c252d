#include "vk_compute.h"

VkResult vk_compute_pipeline_create(struct vk_sample_device *d, const char *spv_path,
                                    uint32_t push_constant_bytes,
                                    const struct vk_sample_buffer *buffer,
                                    struct vk_sample_compute_pipeline *out)
{
   const VkDescriptorType binding = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
   VkResult r = vk_sample_compute_pipeline_create(d->device, d->tag, spv_path, &binding, 1,
                                                  push_constant_bytes, out);
   if (r != VK_SUCCESS)
      return r;
   VkDescriptorBufferInfo info = {buffer->buffer, 0, VK_WHOLE_SIZE};
   VkWriteDescriptorSet write = {
       .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
       .dstSet = out->set,
       .descriptorCount = 1,
       .descriptorType = binding,
       .pBufferInfo = &info,
   };
   vkUpdateDescriptorSets(d->device, 1, &write, 0, NULL);
   return VK_SUCCESS;
}

VkResult vk_compute_run(struct vk_sample_device *d, const struct vk_sample_compute_pipeline *p,
                        const void *push_constants, uint32_t push_constant_bytes, uint32_t groups_x,
                        uint32_t groups_y)
{
   VkCommandBuffer cmd;
   VkResult r = vk_sample_commands_begin(d, &cmd);
   if (r != VK_SUCCESS)
      return r;
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->pipeline);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->layout, 0, 1, &p->set, 0, NULL);
   vkCmdPushConstants(cmd, p->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_constant_bytes,
                      push_constants);
   vkCmdDispatch(cmd, groups_x, groups_y, 1);
   /* Shader writes become visible to the host's reads of the mapping. */
   VkMemoryBarrier mb = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
       .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
       .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
   };
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                        &mb, 0, NULL, 0, NULL);
   return vk_sample_commands_submit(d, cmd, NULL);
}
