#include "raster_pass.h"

#include <string.h>

#include "vk_sample_graphics.h"

VkFormat raster_pass_depth_format(VkPhysicalDevice physical_device)
{
   static const VkFormat candidates[] = {VK_FORMAT_D32_SFLOAT, VK_FORMAT_D16_UNORM};
   for (size_t i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++) {
      VkFormatProperties props;
      vkGetPhysicalDeviceFormatProperties(physical_device, candidates[i], &props);
      if (props.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT)
         return candidates[i];
   }
   return VK_FORMAT_UNDEFINED;
}

static VkResult create_render_pass(struct rq_context *ctx, struct raster_pass *rp)
{
   VkAttachmentDescription attachments[2] = {
       {.format = rp->color_format,
        .samples = VK_SAMPLE_COUNT_1_BIT,
        .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
        .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
        .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
        .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
        .finalLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR},
       {.format = rp->depth_format,
        .samples = VK_SAMPLE_COUNT_1_BIT,
        .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
        .storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
        .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
        .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
        .finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL},
   };
   VkAttachmentReference color = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
   VkAttachmentReference depth = {1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
   VkSubpassDescription subpass = {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
                                   .colorAttachmentCount = 1,
                                   .pColorAttachments = &color,
                                   .pDepthStencilAttachment = &depth};
   /* The acquire semaphore is waited at colour output, and the depth
    * buffer is reused by the next frame: both wait for earlier work. */
   VkSubpassDependency dependency = {
       .srcSubpass = VK_SUBPASS_EXTERNAL,
       .dstSubpass = 0,
       .srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
                       VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT,
       .dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
                       VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT,
       .srcAccessMask = VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
       .dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT |
                        VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                        VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
   };
   VkRenderPassCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
                                .attachmentCount = 2,
                                .pAttachments = attachments,
                                .subpassCount = 1,
                                .pSubpasses = &subpass,
                                .dependencyCount = 1,
                                .pDependencies = &dependency};
   CHECK_VK(vkCreateRenderPass(ctx->device, &ci, NULL, &rp->render_pass));
   return VK_SUCCESS;
}

static VkResult create_layout_and_set(struct rq_context *ctx, VkAccelerationStructureKHR tlas,
                                      struct raster_pass *rp)
{
   VkDescriptorSetLayoutBinding binding = {.binding = 0,
                                           .descriptorType =
                                               VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR,
                                           .descriptorCount = 1,
                                           .stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT};
   VkDescriptorSetLayoutCreateInfo slci = {.sType =
                                               VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                           .bindingCount = 1,
                                           .pBindings = &binding};
   CHECK_VK(vkCreateDescriptorSetLayout(ctx->device, &slci, NULL, &rp->set_layout));
   VkPushConstantRange range = {VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                                sizeof(struct hybrid_push_constants)};
   VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                      .setLayoutCount = 1,
                                      .pSetLayouts = &rp->set_layout,
                                      .pushConstantRangeCount = 1,
                                      .pPushConstantRanges = &range};
   CHECK_VK(vkCreatePipelineLayout(ctx->device, &plci, NULL, &rp->layout));
   VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR, 1};
   VkDescriptorPoolCreateInfo dpci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                      .maxSets = 1,
                                      .poolSizeCount = 1,
                                      .pPoolSizes = &size};
   CHECK_VK(vkCreateDescriptorPool(ctx->device, &dpci, NULL, &rp->pool));
   VkDescriptorSetAllocateInfo dsai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                       .descriptorPool = rp->pool,
                                       .descriptorSetCount = 1,
                                       .pSetLayouts = &rp->set_layout};
   CHECK_VK(vkAllocateDescriptorSets(ctx->device, &dsai, &rp->set));
   VkWriteDescriptorSetAccelerationStructureKHR as_write = {
       .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_ACCELERATION_STRUCTURE_KHR,
       .accelerationStructureCount = 1,
       .pAccelerationStructures = &tlas};
   VkWriteDescriptorSet write = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                 .pNext = &as_write,
                                 .dstSet = rp->set,
                                 .descriptorCount = 1,
                                 .descriptorType = VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR};
   vkUpdateDescriptorSets(ctx->device, 1, &write, 0, NULL);
   return VK_SUCCESS;
}

VkResult raster_pass_create(struct rq_context *ctx, VkFormat color_format, VkFormat depth_format,
                            VkAccelerationStructureKHR tlas, struct raster_pass *out)
{
   memset(out, 0, sizeof(*out));
   out->color_format = color_format;
   out->depth_format = depth_format;
   VkResult r = create_render_pass(ctx, out);
   if (r == VK_SUCCESS)
      r = create_layout_and_set(ctx, tlas, out);
   /* The mesh's position buffer as it is: three floats a vertex. */
   const struct vk_sample_graphics_desc desc = {.vertex_spv = HYBRID_VERT_SPV,
                                                .fragment_spv = HYBRID_FRAG_SPV,
                                                .position_format = VK_FORMAT_R32G32B32_SFLOAT,
                                                .vertex_stride = 3 * sizeof(float),
                                                .depth_test = true,
                                                .layout = out->layout,
                                                .render_pass = out->render_pass};
   if (r == VK_SUCCESS)
      r = vk_sample_graphics_pipeline_create(ctx->device, RQ_TAG, &desc, &out->pipeline);
   return r;
}

void raster_pass_destroy(struct rq_context *ctx, struct raster_pass *rp)
{
   vkDestroyPipeline(ctx->device, rp->pipeline, NULL);
   vkDestroyPipelineLayout(ctx->device, rp->layout, NULL);
   vkDestroyDescriptorPool(ctx->device, rp->pool, NULL);
   vkDestroyDescriptorSetLayout(ctx->device, rp->set_layout, NULL);
   vkDestroyRenderPass(ctx->device, rp->render_pass, NULL);
   memset(rp, 0, sizeof(*rp));
}
