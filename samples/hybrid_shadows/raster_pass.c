#include "raster_pass.h"

#include <string.h>

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

static VkResult create_pipeline(struct rq_context *ctx, VkShaderModule vs, VkShaderModule fs,
                                struct raster_pass *rp)
{
   VkPipelineShaderStageCreateInfo stages[2] = {
       {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
        .stage = VK_SHADER_STAGE_VERTEX_BIT,
        .module = vs,
        .pName = "main"},
       {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
        .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
        .module = fs,
        .pName = "main"},
   };
   /* The mesh's position buffer as it is: three floats a vertex. */
   VkVertexInputBindingDescription binding = {0, 3 * sizeof(float), VK_VERTEX_INPUT_RATE_VERTEX};
   VkVertexInputAttributeDescription attribute = {0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0};
   VkPipelineVertexInputStateCreateInfo vertex_input = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
       .vertexBindingDescriptionCount = 1,
       .pVertexBindingDescriptions = &binding,
       .vertexAttributeDescriptionCount = 1,
       .pVertexAttributeDescriptions = &attribute};
   VkPipelineInputAssemblyStateCreateInfo assembly = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
       .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST};
   VkPipelineViewportStateCreateInfo viewport = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
       .viewportCount = 1,
       .scissorCount = 1};
   /* The scenes' triangles face either way: nothing is culled. */
   VkPipelineRasterizationStateCreateInfo raster = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
       .polygonMode = VK_POLYGON_MODE_FILL,
       .cullMode = VK_CULL_MODE_NONE,
       .frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE,
       .lineWidth = 1.0f};
   VkPipelineMultisampleStateCreateInfo multisample = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
       .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT};
   VkPipelineDepthStencilStateCreateInfo depth = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
       .depthTestEnable = VK_TRUE,
       .depthWriteEnable = VK_TRUE,
       .depthCompareOp = VK_COMPARE_OP_LESS};
   VkPipelineColorBlendAttachmentState blend_attachment = {
       .colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                         VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT};
   VkPipelineColorBlendStateCreateInfo blend = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
       .attachmentCount = 1,
       .pAttachments = &blend_attachment};
   /* The swapchain may change size: viewport and scissor are set per frame. */
   VkDynamicState dynamic_states[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
   VkPipelineDynamicStateCreateInfo dynamic = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
       .dynamicStateCount = 2,
       .pDynamicStates = dynamic_states};
   VkGraphicsPipelineCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
                                      .stageCount = 2,
                                      .pStages = stages,
                                      .pVertexInputState = &vertex_input,
                                      .pInputAssemblyState = &assembly,
                                      .pViewportState = &viewport,
                                      .pRasterizationState = &raster,
                                      .pMultisampleState = &multisample,
                                      .pDepthStencilState = &depth,
                                      .pColorBlendState = &blend,
                                      .pDynamicState = &dynamic,
                                      .layout = rp->layout,
                                      .renderPass = rp->render_pass,
                                      .subpass = 0};
   CHECK_VK(vkCreateGraphicsPipelines(ctx->device, VK_NULL_HANDLE, 1, &ci, NULL, &rp->pipeline));
   return VK_SUCCESS;
}

VkResult raster_pass_create(struct rq_context *ctx, VkFormat color_format, VkFormat depth_format,
                            VkAccelerationStructureKHR tlas, struct raster_pass *out)
{
   memset(out, 0, sizeof(*out));
   out->color_format = color_format;
   out->depth_format = depth_format;
   VkShaderModule vs = VK_NULL_HANDLE, fs = VK_NULL_HANDLE;
   VkResult r = create_render_pass(ctx, out);
   if (r == VK_SUCCESS)
      r = create_layout_and_set(ctx, tlas, out);
   if (r == VK_SUCCESS)
      r = vk_sample_shader_module_create(ctx->device, RQ_TAG, HYBRID_VERT_SPV, &vs);
   if (r == VK_SUCCESS)
      r = vk_sample_shader_module_create(ctx->device, RQ_TAG, HYBRID_FRAG_SPV, &fs);
   if (r == VK_SUCCESS)
      r = create_pipeline(ctx, vs, fs, out);
   vkDestroyShaderModule(ctx->device, vs, NULL);
   vkDestroyShaderModule(ctx->device, fs, NULL);
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
