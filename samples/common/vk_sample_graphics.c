#include "vk_sample_graphics.h"

static VkResult create(VkDevice device, const char *tag, const struct vk_sample_graphics_desc *d,
                       VkShaderModule vs, VkShaderModule fs, VkPipeline *out)
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
   VkVertexInputBindingDescription binding = {0, d->vertex_stride, VK_VERTEX_INPUT_RATE_VERTEX};
   VkVertexInputAttributeDescription attribute = {0, 0, d->position_format, 0};
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
   /* The scenes' triangles face either way, and the fill-rate triangles
    * come in both windings: nothing is culled. */
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
                                      .pDepthStencilState = d->depth_test ? &depth : NULL,
                                      .pColorBlendState = &blend,
                                      .pDynamicState = &dynamic,
                                      .layout = d->layout,
                                      .renderPass = d->render_pass,
                                      .subpass = 0};
   VK_SAMPLE_CHECK(tag, vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &ci, NULL, out));
   return VK_SUCCESS;
}

VkResult vk_sample_graphics_pipeline_create(VkDevice device, const char *tag,
                                            const struct vk_sample_graphics_desc *d,
                                            VkPipeline *out)
{
   VkShaderModule vs = VK_NULL_HANDLE, fs = VK_NULL_HANDLE;
   VkResult r = vk_sample_shader_module_create(device, tag, d->vertex_spv, &vs);
   if (r == VK_SUCCESS)
      r = vk_sample_shader_module_create(device, tag, d->fragment_spv, &fs);
   if (r == VK_SUCCESS)
      r = create(device, tag, d, vs, fs, out);
   vkDestroyShaderModule(device, vs, NULL);
   vkDestroyShaderModule(device, fs, NULL);
   return r;
}
