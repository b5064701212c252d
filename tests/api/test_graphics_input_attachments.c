/* Input attachments through the loader with validation on
 * (api.graphics_input_attachments on vkppu, lvp.graphics_input_attachments
 * on lavapipe): subpass 0 draws colour and depth, subpass 1 reads both with
 * subpassLoad at each pixel and writes them into a third attachment. Exact
 * pixels: the colour swaps red and green, the D32 depth 0.25 / 0.75 / 1.0
 * becomes blue 64 / 191 / 255 (UNORM rounding of 63.75, 191.25, 255). Once
 * with 1x attachments and once with 4x ones read as subpassInputMS (the
 * rectangles cover whole pixels, so every sample holds the same value). */
#include "graphics_test_util.h"

static const float RED[4] = {1, 0, 0, 1};
static const float GREEN[4] = {0, 1, 0, 1};

/* An image of usage with a view of aspect; false (case failed) on error. */
static bool attachment_image(struct vkt_device *dev, VkFormat format, VkImageUsageFlags usage,
                             VkImageAspectFlags aspect, VkSampleCountFlagBits samples,
                             struct vkt_image *out, VkImageView *view)
{
   VkImageCreateInfo ici = {
       .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
       .imageType = VK_IMAGE_TYPE_2D,
       .format = format,
       .extent = {GW, GH, 1},
       .mipLevels = 1,
       .arrayLayers = 1,
       .samples = samples,
       .tiling = VK_IMAGE_TILING_OPTIMAL,
       .usage = usage,
   };
   if (!vkt_image_create(dev, &ici, VKT_NO_VIEW, out))
      return false;
   VkImageViewCreateInfo vci = {
       .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
       .image = out->image,
       .viewType = VK_IMAGE_VIEW_TYPE_2D,
       .format = format,
       .subresourceRange = {aspect, 0, 1, 0, 1},
   };
   VkResult r = vkCreateImageView(dev->device, &vci, NULL, view);
   CHECK_MSG(r == VK_SUCCESS, "vkCreateImageView -> %s", vkt_result_name(r));
   return r == VK_SUCCESS;
}

static VkRenderPass two_subpass_pass(struct vkt_device *dev, VkSampleCountFlagBits samples)
{
   const VkAttachmentDescription atts[3] = {
       {0, VK_FORMAT_R8G8B8A8_UNORM, samples, VK_ATTACHMENT_LOAD_OP_CLEAR,
        VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_ATTACHMENT_LOAD_OP_DONT_CARE,
        VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_IMAGE_LAYOUT_UNDEFINED,
        VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
       {0, VK_FORMAT_D32_SFLOAT, samples, VK_ATTACHMENT_LOAD_OP_CLEAR,
        VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_ATTACHMENT_LOAD_OP_DONT_CARE,
        VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_IMAGE_LAYOUT_UNDEFINED,
        VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL},
       {0, VK_FORMAT_R8G8B8A8_UNORM, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_CLEAR,
        VK_ATTACHMENT_STORE_OP_STORE, VK_ATTACHMENT_LOAD_OP_DONT_CARE,
        VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_IMAGE_LAYOUT_UNDEFINED,
        VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL},
   };
   const VkAttachmentReference color0 = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
   const VkAttachmentReference depth0 = {1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
   const VkAttachmentReference inputs[2] = {
       {0, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
       {1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL},
   };
   const VkAttachmentReference color1 = {2, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
   const VkSubpassDescription sp[2] = {
       {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
        .colorAttachmentCount = 1,
        .pColorAttachments = &color0,
        .pDepthStencilAttachment = &depth0},
       {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
        .inputAttachmentCount = 2,
        .pInputAttachments = inputs,
        .colorAttachmentCount = 1,
        .pColorAttachments = &color1},
   };
   const VkSubpassDependency deps[2] = {
       {0, 1,
        VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT,
        VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
        VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
        VK_ACCESS_INPUT_ATTACHMENT_READ_BIT, VK_DEPENDENCY_BY_REGION_BIT},
       {1, VK_SUBPASS_EXTERNAL, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
        VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
        VK_ACCESS_TRANSFER_READ_BIT, 0},
   };
   VkRenderPassCreateInfo rci = {
       .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
       .attachmentCount = 3,
       .pAttachments = atts,
       .subpassCount = 2,
       .pSubpasses = sp,
       .dependencyCount = 2,
       .pDependencies = deps,
   };
   VkRenderPass pass = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateRenderPass(dev->device, &rci, NULL, &pass));
   return pass;
}

/* The descriptor set layout of gfx_input_attachment.frag: two input
 * attachments. */
static VkDescriptorSetLayout input_set_layout(struct vkt_device *dev)
{
   const VkDescriptorSetLayoutBinding b[2] = {
       {0, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL},
       {1, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL},
   };
   VkDescriptorSetLayoutCreateInfo ci = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
       .bindingCount = 2,
       .pBindings = b,
   };
   VkDescriptorSetLayout l = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateDescriptorSetLayout(dev->device, &ci, NULL, &l));
   return l;
}

static VkDescriptorSet input_set(struct vkt_device *dev, VkDescriptorPool pool,
                                 VkDescriptorSetLayout l, VkImageView color, VkImageView depth)
{
   VkDescriptorSetAllocateInfo ai = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
       .descriptorPool = pool,
       .descriptorSetCount = 1,
       .pSetLayouts = &l,
   };
   VkDescriptorSet set = VK_NULL_HANDLE;
   VKT_CHECK(vkAllocateDescriptorSets(dev->device, &ai, &set));
   if (!set)
      return VK_NULL_HANDLE;
   const VkDescriptorImageInfo ii[2] = {
       {VK_NULL_HANDLE, color, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
       {VK_NULL_HANDLE, depth, VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL},
   };
   VkWriteDescriptorSet w[2];
   for (uint32_t i = 0; i < 2; i++)
      w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                    .dstSet = set,
                                    .dstBinding = i,
                                    .descriptorCount = 1,
                                    .descriptorType = VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT,
                                    .pImageInfo = &ii[i]};
   vkUpdateDescriptorSets(dev->device, 2, w, 0, NULL);
   return set;
}

/* Subpass 0: a red rectangle on the left half at depth 0.25, then a green
 * one in the middle at 0.75 with LESS (hidden where red is), at `samples`.
 * Subpass 1: a rectangle over the whole target reading both attachments
 * with fragment shader fs. */
static void subpass_load(VkSampleCountFlagBits samples, const char *fs)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   struct gtarget out;
   struct vkt_image color, depth;
   VkImageView color_view = VK_NULL_HANDLE, depth_view = VK_NULL_HANDLE;
   memset(&color, 0, sizeof(color));
   memset(&depth, 0, sizeof(depth));
   VkPipelineLayout empty = gtu_empty_layout(&dev);
   VkDescriptorSetLayout set_layout = input_set_layout(&dev);
   VkPipelineLayoutCreateInfo lci = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
       .setLayoutCount = 1,
       .pSetLayouts = &set_layout,
   };
   VkPipelineLayout layout = VK_NULL_HANDLE;
   VKT_CHECK(vkCreatePipelineLayout(dev.device, &lci, NULL, &layout));
   const VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, 2};
   VkDescriptorPoolCreateInfo pci = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
       .maxSets = 1,
       .poolSizeCount = 1,
       .pPoolSizes = &ps,
   };
   VkDescriptorPool pool = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateDescriptorPool(dev.device, &pci, NULL, &pool));
   VkRenderPass pass = two_subpass_pass(&dev, samples);
   VkFramebuffer fb = VK_NULL_HANDLE;
   VkPipeline p[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE};
   if (pass && layout && pool && gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &out) &&
       attachment_image(&dev, VK_FORMAT_R8G8B8A8_UNORM,
                        VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT,
                        VK_IMAGE_ASPECT_COLOR_BIT, samples, &color, &color_view) &&
       attachment_image(&dev, VK_FORMAT_D32_SFLOAT,
                        VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT |
                            VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT,
                        VK_IMAGE_ASPECT_DEPTH_BIT, samples, &depth, &depth_view)) {
      VkImageView views[3] = {color_view, depth_view, out.color.view};
      VkFramebufferCreateInfo fci = {
          .sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
          .renderPass = pass,
          .attachmentCount = 3,
          .pAttachments = views,
          .width = GW,
          .height = GH,
          .layers = 1,
      };
      VKT_CHECK(vkCreateFramebuffer(dev.device, &fci, NULL, &fb));
      VkPipelineDepthStencilStateCreateInfo ds = {
          .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
          .depthTestEnable = VK_TRUE,
          .depthWriteEnable = VK_TRUE,
          .depthCompareOp = VK_COMPARE_OP_LESS,
      };
      VkPipelineMultisampleStateCreateInfo ms = {
          .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
          .rasterizationSamples = samples,
      };
      struct gtu_pipeline_desc d0 = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                     .ds = &ds,
                                     .layout = empty,
                                     .pass = pass,
                                     .subpass = 0,
                                     .ms = &ms};
      struct gtu_pipeline_desc d1 = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                     .fs = fs,
                                     .layout = layout,
                                     .pass = pass,
                                     .subpass = 1};
      VKT_CHECK(gtu_pipeline(&dev, &d0, &p[0]));
      VKT_CHECK(gtu_pipeline(&dev, &d1, &p[1]));
      VkDescriptorSet set = input_set(&dev, pool, set_layout, color_view, depth_view);
      struct gvertex v[18];
      gtu_rect(&v[0], 0, 0, 16, 32, 0.25f, RED);
      gtu_rect(&v[6], 8, 8, 24, 24, 0.75f, GREEN);
      gtu_rect(&v[12], 0, 0, GW, GH, 0.5f, RED);
      struct vkt_buffer vb;
      if (fb && p[0] && p[1] && set &&
          gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
         VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
         const VkClearValue clear[3] = {
             {.color = {{0, 0, 0, 0}}}, {.depthStencil = {1.0f, 0}}, {.color = {{0, 0, 0, 0}}}};
         VkRenderPassBeginInfo bi = {
             .sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
             .renderPass = pass,
             .framebuffer = fb,
             .renderArea = {{0, 0}, {GW, GH}},
             .clearValueCount = 3,
             .pClearValues = clear,
         };
         vkCmdBeginRenderPass(cmd, &bi, VK_SUBPASS_CONTENTS_INLINE);
         gtu_bind_vertex_buffer(cmd, &vb);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p[0]);
         vkCmdDraw(cmd, 12, 1, 0, 0);
         vkCmdNextSubpass(cmd, VK_SUBPASS_CONTENTS_INLINE);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p[1]);
         vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0, NULL);
         vkCmdDraw(cmd, 6, 1, 12, 0);
         vkCmdEndRenderPass(cmd);
         VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                                     .imageExtent = {GW, GH, 1}};
         vkCmdCopyImageToBuffer(cmd, out.color.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                out.readback.buffer, 1, &region);
         vkt_cmd_transfer_to_host_barrier(cmd);
         VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
         uint32_t want[GW * GH];
         gtu_fill(want, 0, 0, GW, GH, gtu_rgba(0, 0, 255, 255));
         gtu_fill(want, 0, 0, 16, 32, gtu_rgba(0, 255, 64, 255));
         gtu_fill(want, 16, 8, 24, 24, gtu_rgba(255, 0, 191, 255));
         CHECK(gtu_check(&out, want, 0, "subpassLoad of colour and depth") == 0);
         vkt_buffer_destroy(&dev, &vb);
      }
      gtu_target_destroy(&dev, &out);
   }
   for (unsigned s = 0; s < 2; s++)
      vkDestroyPipeline(dev.device, p[s], NULL);
   vkDestroyFramebuffer(dev.device, fb, NULL);
   vkDestroyImageView(dev.device, color_view, NULL);
   vkDestroyImageView(dev.device, depth_view, NULL);
   vkt_image_destroy(&dev, &color);
   vkt_image_destroy(&dev, &depth);
   vkDestroyRenderPass(dev.device, pass, NULL);
   vkDestroyDescriptorPool(dev.device, pool, NULL);
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkDestroyPipelineLayout(dev.device, empty, NULL);
   vkDestroyDescriptorSetLayout(dev.device, set_layout, NULL);
   vkt_teardown(&ctx, &dev);
}

TEST_CASE(subpass_load_of_color_and_depth)
{
   subpass_load(VK_SAMPLE_COUNT_1_BIT, "gfx_input_attachment.frag");
}

/* 4x attachments read as subpassInputMS, a different sample of each. */
TEST_CASE(subpass_load_of_multisampled_color_and_depth)
{
   subpass_load(VK_SAMPLE_COUNT_4_BIT, "gfx_input_attachment_ms.frag");
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
