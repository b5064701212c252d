/* 4x multisampling through the loader with validation on (api.graphics_msaa
 * on vkppu, lvp.graphics_msaa on lavapipe): 4x colour and depth
 * attachments, resolves (render passes, dynamic rendering,
 * vkCmdResolveImage), clears and copies of 4x images, the sample mask,
 * alpha to coverage and to one, limits and refusals. Sampled 4x images and
 * sample shading: test_graphics_msaa_sampling.c; expectations:
 * msaa_test_util.h. */
#include "msaa_test_util.h"
TEST_CASE(coverage_of_four_samples_resolves_to_the_covered_fraction)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   unsigned histogram[5] = {0};
   for (unsigned y = 0; y < GH; y++)
      for (unsigned x = 0; x < GW; x++)
         histogram[popcount4(covered_samples(x, y))]++;
   for (unsigned n = 0; n <= 4; n++)
      CHECK_MSG(histogram[n] > 0, "no pixel has %u covered samples", n);

   struct gtarget t;
   struct vkt_image ms;
   struct ms_pass p;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   struct gvertex v[3];
   triangle_vertices(v, 0.5f, WHITE);
   struct vkt_buffer vb;
   if (gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &t) &&
       ms_image(&dev, VK_FORMAT_R8G8B8A8_UNORM,
                VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                VK_IMAGE_ASPECT_COLOR_BIT, &ms) &&
       ms_pass_create(&dev, VK_ATTACHMENT_LOAD_OP_CLEAR, ms.view, t.color.view, VK_NULL_HANDLE,
                      &p) &&
       gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
      const VkSampleMask masks[2] = {0xf, 0x5};
      for (unsigned k = 0; k < 2; k++) {
         VkPipeline pipe = ms_pipeline(&dev, layout, p.pass, &masks[k], NULL);
         if (!pipe)
            continue;
         VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
         ms_begin(cmd, &p, BLUE);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
         gtu_bind_vertex_buffer(cmd, &vb);
         vkCmdDraw(cmd, 3, 1, 0, 0);
         if (gtu_end_read(&dev, &t, cmd)) {
            uint32_t want[GW * GH];
            expect_triangle(want, masks[k], WHITE, BLUE);
            char what[48];
            snprintf(what, sizeof(what), "sample mask 0x%x", masks[k]);
            CHECK(gtu_check(&t, want, 1, what) == 0);
         }
         vkDestroyPipeline(dev.device, pipe, NULL);
      }
      vkt_buffer_destroy(&dev, &vb);
   }
   ms_pass_destroy(&dev, &p);
   vkt_image_destroy(&dev, &ms);
   gtu_target_destroy(&dev, &t);
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_teardown(&ctx, &dev);
}

/* The load-op clear and the resolve at the end of the subpass touch only
 * the render area (6, 4) .. (22, 20): the resolve attachment, cleared green
 * before the pass, keeps green outside it. */
TEST_CASE(resolve_attachments_are_written_only_inside_the_render_area)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   struct gtarget t;
   struct vkt_image ms;
   struct ms_pass p;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   struct gvertex v[3];
   triangle_vertices(v, 0.5f, WHITE);
   struct vkt_buffer vb;
   VkPipeline pipe = VK_NULL_HANDLE;
   if (gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &t) &&
       ms_image(&dev, VK_FORMAT_R8G8B8A8_UNORM,
                VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                VK_IMAGE_ASPECT_COLOR_BIT, &ms) &&
       ms_pass_create_layout(&dev, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_FORMAT_R8G8B8A8_UNORM, ms.view,
                             t.color.view, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_NULL_HANDLE,
                             VK_FORMAT_UNDEFINED, &p) &&
       gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb) &&
       (pipe = ms_pipeline(&dev, layout, p.pass, NULL, NULL))) {
      VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
      vkt_cmd_image_barrier(cmd, t.color.image, VK_IMAGE_LAYOUT_UNDEFINED,
                            VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT);
      VkClearColorValue green = {.float32 = {0, 1, 0, 1}};
      VkImageSubresourceRange all = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
      vkCmdClearColorImage(cmd, t.color.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &green, 1,
                           &all);
      ms_begin_area(cmd, &p, BLUE, (VkRect2D){{6, 4}, {16, 16}});
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
      gtu_bind_vertex_buffer(cmd, &vb);
      vkCmdDraw(cmd, 3, 1, 0, 0);
      if (gtu_end_read(&dev, &t, cmd)) {
         uint32_t want[GW * GH], tri[GW * GH];
         expect_triangle(tri, 0xf, WHITE, BLUE);
         gtu_fill(want, 0, 0, GW, GH, mix(4, GREEN, GREEN));
         for (unsigned y = 4; y < 20; y++)
            for (unsigned x = 6; x < 22; x++)
               want[y * GW + x] = tri[y * GW + x];
         CHECK(gtu_check(&t, want, 1, "render area 6,4 16x16") == 0);
      }
      vkt_buffer_destroy(&dev, &vb);
   }
   vkDestroyPipeline(dev.device, pipe, NULL);
   ms_pass_destroy(&dev, &p);
   vkt_image_destroy(&dev, &ms);
   gtu_target_destroy(&dev, &t);
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_teardown(&ctx, &dev);
}

/* Every depth/stencil format that can be 4x keeps a depth and a stencil
 * value per sample. Depth: the triangle at depth 0.3, then a red rectangle
 * over everything at 0.6 with LESS, leaves the triangle's samples white and
 * turns only the others red. Stencil: the triangle writes reference 1 with
 * colour writes off, then the red rectangle passes EQUAL 1 only on its
 * samples, over the blue clear. */
TEST_CASE(depth_and_stencil_are_tested_per_sample)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   struct gvertex v[9];
   triangle_vertices(v, 0.3f, WHITE);
   gtu_rect(&v[3], 0, 0, GW, GH, 0.6f, RED);
   struct vkt_buffer vb;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   const VkFormat formats[] = {VK_FORMAT_D16_UNORM,         VK_FORMAT_X8_D24_UNORM_PACK32,
                               VK_FORMAT_D32_SFLOAT,        VK_FORMAT_S8_UINT,
                               VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT};
   const VkStencilOpState write_one = {VK_STENCIL_OP_KEEP,
                                       VK_STENCIL_OP_REPLACE,
                                       VK_STENCIL_OP_KEEP,
                                       VK_COMPARE_OP_ALWAYS,
                                       0xff,
                                       0xff,
                                       1};
   const VkStencilOpState equal_one = {
       VK_STENCIL_OP_KEEP, VK_STENCIL_OP_KEEP, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_EQUAL, 0xff, 0, 1};
   const VkPipelineDepthStencilStateCreateInfo ds[3] = {
       {.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
        .depthTestEnable = VK_TRUE,
        .depthWriteEnable = VK_TRUE,
        .depthCompareOp = VK_COMPARE_OP_LESS},
       {.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
        .stencilTestEnable = VK_TRUE,
        .front = write_one,
        .back = write_one},
       {.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
        .stencilTestEnable = VK_TRUE,
        .front = equal_one,
        .back = equal_one},
   };
   const VkPipelineColorBlendAttachmentState no_color = {.colorWriteMask = 0};
   if (gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
      unsigned tested = 0;
      for (size_t f = 0; f < sizeof(formats) / sizeof(formats[0]); f++) {
         VkImageFormatProperties ifp;
         if (vkGetPhysicalDeviceImageFormatProperties(
                 ctx.physical_device, formats[f], VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                 VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, 0, &ifp) != VK_SUCCESS ||
             !(ifp.sampleCounts & VK_SAMPLE_COUNT_4_BIT)) {
            CHECK_MSG(!ctx.is_vkppu, "format %d cannot be 4x on vkppu", formats[f]);
            continue;
         }
         const VkImageAspectFlags aspects = gtu_depth_aspects(formats[f]);
         const bool stencil = aspects & VK_IMAGE_ASPECT_STENCIL_BIT;
         struct gtarget t;
         struct vkt_image ms, depth;
         struct ms_pass p;
         memset(&depth, 0, sizeof(depth));
         VkPipeline pipe[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE};
         if (gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &t) &&
             ms_image(&dev, VK_FORMAT_R8G8B8A8_UNORM,
                      VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                      VK_IMAGE_ASPECT_COLOR_BIT, &ms) &&
             ms_image(&dev, formats[f], VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, aspects,
                      &depth) &&
             ms_pass_create_layout(&dev, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_FORMAT_R8G8B8A8_UNORM,
                                   ms.view, t.color.view, VK_IMAGE_LAYOUT_UNDEFINED, depth.view,
                                   formats[f], &p)) {
            VkPipelineMultisampleStateCreateInfo msi = {
                .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
                .rasterizationSamples = VK_SAMPLE_COUNT_4_BIT,
            };
            /* depth: one pipeline for both draws; stencil: write, then test */
            for (unsigned k = 0; k < 2; k++) {
               struct gtu_pipeline_desc d = {
                   .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                   .layout = layout,
                   .pass = p.pass,
                   .ms = &msi,
                   .ds = stencil ? &ds[1 + k] : &ds[0],
                   .blend = stencil && k == 0 ? &no_color : NULL,
               };
               VKT_CHECK(gtu_pipeline(&dev, &d, &pipe[k]));
            }
            if (pipe[0] && pipe[1]) {
               VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
               ms_begin(cmd, &p, BLUE);
               gtu_bind_vertex_buffer(cmd, &vb);
               vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe[0]);
               vkCmdDraw(cmd, 3, 1, 0, 0);
               vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe[1]);
               vkCmdDraw(cmd, 6, 1, 3, 0);
               if (gtu_end_read(&dev, &t, cmd)) {
                  uint32_t want[GW * GH];
                  if (stencil)
                     expect_triangle(want, 0xf, RED, BLUE);
                  else
                     expect_triangle(want, 0xf, WHITE, RED);
                  char what[48];
                  snprintf(what, sizeof(what), "format %d", formats[f]);
                  CHECK(gtu_check(&t, want, 1, what) == 0);
                  tested++;
               }
            }
            ms_pass_destroy(&dev, &p);
         }
         vkDestroyPipeline(dev.device, pipe[0], NULL);
         vkDestroyPipeline(dev.device, pipe[1], NULL);
         vkt_image_destroy(&dev, &depth);
         vkt_image_destroy(&dev, &ms);
         gtu_target_destroy(&dev, &t);
      }
      printf("  %u depth/stencil formats tested at 4x\n", tested);
      CHECK(tested > 0);
      vkt_buffer_destroy(&dev, &vb);
   }
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_teardown(&ctx, &dev);
}

/* An integer colour attachment at 4x (R8G8B8A8_UINT): the resolve
 * attachment takes sample 0 of each pixel (integers have no average), so a
 * pixel is the triangle's colour exactly where sample 0 is covered. */
TEST_CASE(integer_attachments_resolve_sample_zero)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   const VkFormat f = VK_FORMAT_R8G8B8A8_UINT;
   struct vkt_image ms, one;
   struct vkt_buffer vb, out;
   struct ms_pass p;
   memset(&one, 0, sizeof(one));
   memset(&out, 0, sizeof(out));
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   const float c[4] = {200 / 255.0f, 100 / 255.0f, 50 / 255.0f, 1};
   struct gvertex v[3];
   triangle_vertices(v, 0.5f, c);
   VkPipeline pipe = VK_NULL_HANDLE;
   if (ms_image(&dev, f, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                VK_IMAGE_ASPECT_COLOR_BIT, &ms) &&
       test_image(&dev, f, VK_SAMPLE_COUNT_1_BIT,
                  VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                  VK_IMAGE_ASPECT_COLOR_BIT, &one) &&
       vkt_buffer_create(&dev, GW * GH * 4, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &out) ==
           VK_SUCCESS &&
       ms_pass_create_layout(&dev, VK_ATTACHMENT_LOAD_OP_CLEAR, f, ms.view, one.view,
                             VK_IMAGE_LAYOUT_UNDEFINED, VK_NULL_HANDLE, VK_FORMAT_UNDEFINED, &p) &&
       gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
      pipe = uint_pipeline(&dev, layout, p.pass);
      if (pipe) {
         VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
         draw_uint_triangle(cmd, &p, pipe, &vb);
         VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                                     .imageExtent = {GW, GH, 1}};
         vkCmdCopyImageToBuffer(cmd, one.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, out.buffer, 1,
                                &region);
         vkt_cmd_transfer_to_host_barrier(cmd);
         VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
         const uint32_t *got = out.map;
         unsigned bad = 0;
         for (unsigned y = 0; y < GH; y++) {
            for (unsigned x = 0; x < GW; x++) {
               uint32_t want =
                   covered_samples(x, y) & 1 ? gtu_rgba(200, 100, 50, 255) : gtu_rgba(1, 2, 3, 4);
               if (got[y * GW + x] != want && bad++ < 6)
                  test_fail(__FILE__, __LINE__, "pixel (%u, %u) is 0x%08x, want 0x%08x", x, y,
                            got[y * GW + x], want);
            }
         }
         CHECK(bad == 0);
      }
      vkt_buffer_destroy(&dev, &vb);
      ms_pass_destroy(&dev, &p);
   }
   vkDestroyPipeline(dev.device, pipe, NULL);
   vkt_buffer_destroy(&dev, &out);
   vkt_image_destroy(&dev, &one);
   vkt_image_destroy(&dev, &ms);
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_teardown(&ctx, &dev);
}

/* Alpha to coverage and alpha to one at 4x: five bands of a rectangle over
 * the whole target with alpha 0, 0.25, 0.5, 0.75 and 1 on a transparent
 * black clear. With alpha to coverage alpha 0 covers no sample and 1 every
 * sample anywhere; on vkppu alpha a covers round(4a) samples (the ROP's
 * mask), so band k resolves to k/4 of its colour. Alpha to one (on a device
 * with the alphaToOne feature) writes alpha 1 after coverage took the
 * shader's alpha: with alpha to coverage band k resolves to k/4 of opaque
 * white, without it every band is opaque white. */
TEST_CASE(alpha_to_coverage_and_alpha_to_one)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_context_create(&ctx))
      return;
   VkPhysicalDeviceFeatures have;
   vkGetPhysicalDeviceFeatures(ctx.physical_device, &have);
   VkPhysicalDeviceFeatures want_features = {.alphaToOne = have.alphaToOne};
   const struct vkt_device_desc desc = {.features = &want_features};
   if (vkt_device_create(&ctx, &desc, &dev) != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "vkCreateDevice failed");
      vkt_context_destroy(&ctx);
      return;
   }
   if (!have.alphaToOne)
      vkt_skip("alphaToOne is not reported: alpha to coverage only");
   struct gtarget t;
   struct vkt_image ms;
   struct ms_pass p;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   struct gvertex v[5 * 6];
   float color[5][4];
   for (unsigned k = 0; k < 5; k++) {
      const float c[4] = {1, 1, 1, k / 4.0f};
      memcpy(color[k], c, sizeof(c));
      gtu_rect(&v[6 * k], 0, k * 6.0f, GW, k == 4 ? GH : (k + 1) * 6.0f, 0.5f, color[k]);
   }
   struct vkt_buffer vb;
   if (gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &t) &&
       ms_image(&dev, VK_FORMAT_R8G8B8A8_UNORM,
                VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                VK_IMAGE_ASPECT_COLOR_BIT, &ms) &&
       ms_pass_create(&dev, VK_ATTACHMENT_LOAD_OP_CLEAR, ms.view, t.color.view, VK_NULL_HANDLE,
                      &p) &&
       gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
      /* {alpha to coverage, alpha to one} */
      const bool modes[3][2] = {{true, false}, {true, true}, {false, true}};
      for (unsigned m = 0; m < (have.alphaToOne ? 3u : 1u); m++) {
         VkPipelineMultisampleStateCreateInfo msi = {
             .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
             .rasterizationSamples = VK_SAMPLE_COUNT_4_BIT,
             .alphaToCoverageEnable = modes[m][0],
             .alphaToOneEnable = modes[m][1],
         };
         struct gtu_pipeline_desc d = {
             .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
             .layout = layout,
             .pass = p.pass,
             .ms = &msi,
         };
         VkPipeline pipe = VK_NULL_HANDLE;
         VKT_CHECK(gtu_pipeline(&dev, &d, &pipe));
         if (!pipe)
            continue;
         const float clear[4] = {0, 0, 0, 0};
         VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
         ms_begin(cmd, &p, clear);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
         gtu_bind_vertex_buffer(cmd, &vb);
         vkCmdDraw(cmd, 5 * 6, 1, 0, 0);
         if (gtu_end_read(&dev, &t, cmd)) {
            uint32_t want[GW * GH];
            for (unsigned y = 0; y < GH; y++) {
               unsigned k = y / 6 < 4 ? y / 6 : 4;
               /* Other alphas' masks are the implementation's. */
               bool known = ctx.is_vkppu || k == 0 || k == 4 || !modes[m][0];
               uint32_t c = !modes[m][0]  ? mix(4, WHITE, clear)
                            : modes[m][1] ? mix(k, WHITE, clear)
                                          : mix(k, color[k], clear);
               for (unsigned x = 0; x < GW; x++)
                  want[y * GW + x] = known ? c : ((const uint32_t *)t.readback.map)[y * GW + x];
            }
            char what[64];
            snprintf(what, sizeof(what), "alpha to coverage %d, alpha to one %d", modes[m][0],
                     modes[m][1]);
            CHECK(gtu_check(&t, want, 1, what) == 0);
         }
         vkDestroyPipeline(dev.device, pipe, NULL);
      }
      vkt_buffer_destroy(&dev, &vb);
   }
   ms_pass_destroy(&dev, &p);
   vkt_image_destroy(&dev, &ms);
   gtu_target_destroy(&dev, &t);
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_teardown(&ctx, &dev);
}

TEST_CASE(dynamic_rendering_resolves_its_4x_attachment)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   VkPhysicalDeviceDynamicRenderingFeatures dr = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES,
       .dynamicRendering = VK_TRUE,
   };
   static const char *const extensions[] = {VK_KHR_CREATE_RENDERPASS_2_EXTENSION_NAME,
                                            VK_KHR_DEPTH_STENCIL_RESOLVE_EXTENSION_NAME,
                                            VK_KHR_DYNAMIC_RENDERING_EXTENSION_NAME};
   struct vkt_device_desc desc = {
       .feature_chain = &dr, .extensions = extensions, .extension_count = 3};
   if (!gtu_setup_device(&ctx, &dev, &desc))
      return;
   struct gtarget t;
   struct vkt_image ms;
   memset(&ms, 0, sizeof(ms));
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   struct gvertex v[3];
   triangle_vertices(v, 0.5f, WHITE);
   struct vkt_buffer vb;
   VkPipeline pipe = VK_NULL_HANDLE;
   if (gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &t) &&
       ms_image(&dev, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
                VK_IMAGE_ASPECT_COLOR_BIT, &ms) &&
       gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
      const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
      const VkPipelineRenderingCreateInfo rci = {
          .sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
          .colorAttachmentCount = 1,
          .pColorAttachmentFormats = &format,
      };
      VkPipelineMultisampleStateCreateInfo mss = {
          .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
          .rasterizationSamples = VK_SAMPLE_COUNT_4_BIT,
      };
      struct gtu_pipeline_desc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                    .layout = layout,
                                    .ms = &mss,
                                    .next = &rci};
      VKT_CHECK(gtu_pipeline(&dev, &d, &pipe));
      const VkRenderingAttachmentInfo color = {
          .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
          .imageView = ms.view,
          .imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
          .resolveMode = VK_RESOLVE_MODE_AVERAGE_BIT,
          .resolveImageView = t.color.view,
          .resolveImageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
          .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
          .storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
          .clearValue = {.color = {{0, 0, 1, 1}}},
      };
      const VkRenderingInfo ri = {
          .sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
          .renderArea = {{0, 0}, {GW, GH}},
          .layerCount = 1,
          .colorAttachmentCount = 1,
          .pColorAttachments = &color,
      };
      if (pipe) {
         VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
         to_layout(cmd, ms.image, VK_IMAGE_LAYOUT_UNDEFINED,
                   VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
         to_layout(cmd, t.color.image, VK_IMAGE_LAYOUT_UNDEFINED,
                   VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
         vkCmdBeginRenderingKHR(cmd, &ri);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
         gtu_bind_vertex_buffer(cmd, &vb);
         vkCmdDraw(cmd, 3, 1, 0, 0);
         vkCmdEndRenderingKHR(cmd);
         to_layout(cmd, t.color.image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                   VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
         VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                                     .imageExtent = {GW, GH, 1}};
         vkCmdCopyImageToBuffer(cmd, t.color.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                t.readback.buffer, 1, &region);
         vkt_cmd_transfer_to_host_barrier(cmd);
         VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
         uint32_t want[GW * GH];
         expect_triangle(want, 0xf, WHITE, BLUE);
         CHECK(gtu_check(&t, want, 1, "dynamic rendering resolve") == 0);
      }
      vkt_buffer_destroy(&dev, &vb);
   }
   vkDestroyPipeline(dev.device, pipe, NULL);
   vkt_image_destroy(&dev, &ms);
   gtu_target_destroy(&dev, &t);
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* Every sample of a 4x image is cleared and copied: image A gets the
 * triangle (resolve-free pass, stored); B is cleared green with
 * vkCmdClearColorImage; vkCmdCopyImage moves A's pixels 8..24 into B and
 * vkCmdResolveImage resolves B. Then B is loaded by a pass that clears a
 * rectangle red with vkCmdClearAttachments and resolves at its end. A
 * sample left uncleared or uncopied would pull a pixel off its expected
 * average. */
TEST_CASE(clears_copies_and_resolves_of_4x_images_cover_every_sample)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   struct gtarget t;
   struct vkt_image a, b;
   struct ms_pass pa, pb;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   struct gvertex v[3];
   triangle_vertices(v, 0.5f, WHITE);
   struct vkt_buffer vb;
   const VkImageUsageFlags usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                                   VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                   VK_IMAGE_USAGE_TRANSFER_DST_BIT;
   VkPipeline pipe = VK_NULL_HANDLE;
   if (gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &t) &&
       ms_image(&dev, VK_FORMAT_R8G8B8A8_UNORM, usage, VK_IMAGE_ASPECT_COLOR_BIT, &a) &&
       ms_image(&dev, VK_FORMAT_R8G8B8A8_UNORM, usage, VK_IMAGE_ASPECT_COLOR_BIT, &b) &&
       ms_pass_create(&dev, VK_ATTACHMENT_LOAD_OP_CLEAR, a.view, VK_NULL_HANDLE, VK_NULL_HANDLE,
                      &pa) &&
       ms_pass_create(&dev, VK_ATTACHMENT_LOAD_OP_LOAD, b.view, t.color.view, VK_NULL_HANDLE,
                      &pb) &&
       gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb) &&
       (pipe = ms_pipeline(&dev, layout, pa.pass, NULL, NULL))) {
      VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
      ms_begin(cmd, &pa, BLUE);
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
      gtu_bind_vertex_buffer(cmd, &vb);
      vkCmdDraw(cmd, 3, 1, 0, 0);
      vkCmdEndRenderPass(cmd); /* a is TRANSFER_SRC_OPTIMAL */
      to_layout(cmd, b.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
      VkClearColorValue green = {.float32 = {0, 1, 0, 1}};
      VkImageSubresourceRange all = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
      vkCmdClearColorImage(cmd, b.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &green, 1, &all);
      transfer_barrier(cmd);
      VkImageSubresourceLayers sub = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
      VkImageCopy copy = {sub, {8, 8, 0}, sub, {8, 8, 0}, {16, 16, 1}};
      vkCmdCopyImage(cmd, a.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, b.image,
                     VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
      transfer_barrier(cmd);
      to_layout(cmd, b.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
      to_layout(cmd, t.color.image, VK_IMAGE_LAYOUT_UNDEFINED,
                VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
      VkImageResolve r = {sub, {0, 0, 0}, sub, {0, 0, 0}, {GW, GH, 1}};
      vkCmdResolveImage(cmd, b.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, t.color.image,
                        VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r);
      transfer_barrier(cmd);
      to_layout(cmd, t.color.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
      VkBufferImageCopy region = {.imageSubresource = sub, .imageExtent = {GW, GH, 1}};
      vkCmdCopyImageToBuffer(cmd, t.color.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                             t.readback.buffer, 1, &region);
      vkt_cmd_transfer_to_host_barrier(cmd);
      VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
      uint32_t want[GW * GH], tri[GW * GH];
      expect_triangle(tri, 0xf, WHITE, BLUE);
      gtu_fill(want, 0, 0, GW, GH, mix(4, GREEN, GREEN));
      for (unsigned y = 8; y < 24; y++)
         for (unsigned x = 8; x < 24; x++)
            want[y * GW + x] = tri[y * GW + x];
      CHECK(gtu_check(&t, want, 1, "clear, copy, vkCmdResolveImage") == 0);

      /* A region resolved to another offset, across 16-pixel pieces. */
      cmd = vkt_cmd_begin(&dev, ctx.universal_family);
      to_layout(cmd, t.color.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
      vkCmdClearColorImage(cmd, t.color.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &green, 1,
                           &all);
      transfer_barrier(cmd);
      VkImageResolve shifted = {sub, {8, 8, 0}, sub, {2, 5, 0}, {20, 18, 1}};
      vkCmdResolveImage(cmd, b.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, t.color.image,
                        VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &shifted);
      transfer_barrier(cmd);
      to_layout(cmd, t.color.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
      vkCmdCopyImageToBuffer(cmd, t.color.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                             t.readback.buffer, 1, &region);
      vkt_cmd_transfer_to_host_barrier(cmd);
      VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
      uint32_t moved[GW * GH];
      gtu_fill(moved, 0, 0, GW, GH, mix(4, GREEN, GREEN));
      for (unsigned y = 0; y < 18; y++)
         for (unsigned x = 0; x < 20; x++)
            moved[(5 + y) * GW + 2 + x] = want[(8 + y) * GW + 8 + x];
      CHECK(gtu_check(&t, moved, 1, "vkCmdResolveImage to another offset") == 0);

      /* b is TRANSFER_SRC_OPTIMAL; the LOAD pass starts from TRANSFER_DST. */
      cmd = vkt_cmd_begin(&dev, ctx.universal_family);
      to_layout(cmd, b.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
      ms_begin(cmd, &pb, BLUE);
      VkClearAttachment ca = {VK_IMAGE_ASPECT_COLOR_BIT, 0, {.color = {.float32 = {1, 0, 0, 1}}}};
      VkClearRect rect = {{{2, 4}, {10, 6}}, 0, 1};
      vkCmdClearAttachments(cmd, 1, &ca, 1, &rect);
      if (gtu_end_read(&dev, &t, cmd)) {
         gtu_fill(want, 2, 4, 12, 10, mix(4, RED, RED));
         CHECK(gtu_check(&t, want, 1, "LOAD, vkCmdClearAttachments, resolve attachment") == 0);
      }
      vkt_buffer_destroy(&dev, &vb);
   }
   vkDestroyPipeline(dev.device, pipe, NULL);
   ms_pass_destroy(&dev, &pa);
   ms_pass_destroy(&dev, &pb);
   vkt_image_destroy(&dev, &a);
   vkt_image_destroy(&dev, &b);
   gtu_target_destroy(&dev, &t);
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_teardown(&ctx, &dev);
}

/* A render pass (made with vkCreateRenderPass2KHR) on a 4x colour and a 4x
 * D32 depth attachment whose depth is resolved into a 1x D32 attachment
 * with `mode`. */
static bool depth_resolve_pass(struct vkt_device *dev, PFN_vkCreateRenderPass2KHR create,
                               VkResolveModeFlagBits mode, const VkImageView views[3],
                               struct ms_pass *p)
{
   const VkAttachmentDescription2 att[3] = {
       {VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2, NULL, 0, VK_FORMAT_R8G8B8A8_UNORM,
        VK_SAMPLE_COUNT_4_BIT, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_DONT_CARE,
        VK_ATTACHMENT_LOAD_OP_DONT_CARE, VK_ATTACHMENT_STORE_OP_DONT_CARE,
        VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL},
       {VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2, NULL, 0, VK_FORMAT_D32_SFLOAT,
        VK_SAMPLE_COUNT_4_BIT, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_DONT_CARE,
        VK_ATTACHMENT_LOAD_OP_DONT_CARE, VK_ATTACHMENT_STORE_OP_DONT_CARE,
        VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL},
       {VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2, NULL, 0, VK_FORMAT_D32_SFLOAT,
        VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_DONT_CARE, VK_ATTACHMENT_STORE_OP_STORE,
        VK_ATTACHMENT_LOAD_OP_DONT_CARE, VK_ATTACHMENT_STORE_OP_DONT_CARE,
        VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL},
   };
   const VkAttachmentReference2 color = {VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, NULL, 0,
                                         VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                         VK_IMAGE_ASPECT_COLOR_BIT};
   const VkAttachmentReference2 depth = {VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, NULL, 1,
                                         VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
                                         VK_IMAGE_ASPECT_DEPTH_BIT};
   const VkAttachmentReference2 resolve = {VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, NULL, 2,
                                           VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
                                           VK_IMAGE_ASPECT_DEPTH_BIT};
   const VkSubpassDescriptionDepthStencilResolve dsr = {
       VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_DEPTH_STENCIL_RESOLVE, NULL, mode,
       VK_RESOLVE_MODE_NONE, &resolve};
   const VkSubpassDescription2 sp = {
       .sType = VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2,
       .pNext = &dsr,
       .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
       .colorAttachmentCount = 1,
       .pColorAttachments = &color,
       .pDepthStencilAttachment = &depth,
   };
   const VkSubpassDependency2 dep = {VK_STRUCTURE_TYPE_SUBPASS_DEPENDENCY_2,
                                     NULL,
                                     0,
                                     VK_SUBPASS_EXTERNAL,
                                     VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT |
                                         VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT,
                                     VK_PIPELINE_STAGE_TRANSFER_BIT,
                                     VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                                     VK_ACCESS_TRANSFER_READ_BIT,
                                     0,
                                     0};
   const VkRenderPassCreateInfo2 ci = {
       .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2,
       .attachmentCount = 3,
       .pAttachments = att,
       .subpassCount = 1,
       .pSubpasses = &sp,
       .dependencyCount = 1,
       .pDependencies = &dep,
   };
   p->attachments = 3;
   GTU_REQUIRE(create(dev->device, &ci, NULL, &p->pass));
   VkFramebufferCreateInfo fci = {
       .sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
       .renderPass = p->pass,
       .attachmentCount = 3,
       .pAttachments = views,
       .width = GW,
       .height = GH,
       .layers = 1,
   };
   GTU_REQUIRE(vkCreateFramebuffer(dev->device, &fci, NULL, &p->fb));
   return true;
}

/* Depth resolve at the end of a subpass (VkSubpassDescriptionDepthStencilResolve):
 * the triangle at depth 0.25 over a clear of 1 resolves to 0.25 where
 * sample 0 is covered (SAMPLE_ZERO), any sample is (MIN), every sample is
 * (MAX); 1 elsewhere. Runs where VK_KHR_depth_stencil_resolve is offered
 * (lavapipe; vkppu once the extension is reported) and only for the modes
 * the device supports. */
TEST_CASE(depth_resolves_take_sample_zero_min_or_max)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_context_create(&ctx))
      return;
   if (!vkt_has_device_extension(&ctx, VK_KHR_DEPTH_STENCIL_RESOLVE_EXTENSION_NAME) ||
       !vkt_has_device_extension(&ctx, VK_KHR_CREATE_RENDERPASS_2_EXTENSION_NAME)) {
      vkt_skip("VK_KHR_depth_stencil_resolve is not offered");
      vkt_context_destroy(&ctx);
      return;
   }
   VkPhysicalDeviceDepthStencilResolveProperties dsp = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_STENCIL_RESOLVE_PROPERTIES};
   VkPhysicalDeviceProperties2 props = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                        .pNext = &dsp};
   vkGetPhysicalDeviceProperties2(ctx.physical_device, &props);
   const char *const extensions[] = {VK_KHR_CREATE_RENDERPASS_2_EXTENSION_NAME,
                                     VK_KHR_DEPTH_STENCIL_RESOLVE_EXTENSION_NAME};
   const struct vkt_device_desc desc = {.extensions = extensions, .extension_count = 2};
   if (vkt_device_create(&ctx, &desc, &dev) != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "cannot create a device with VK_KHR_depth_stencil_resolve");
      vkt_context_destroy(&ctx);
      return;
   }
   PFN_vkCreateRenderPass2KHR create =
       (PFN_vkCreateRenderPass2KHR)vkGetDeviceProcAddr(dev.device, "vkCreateRenderPass2KHR");
   struct vkt_image color, depth, resolved;
   struct vkt_buffer vb, readback;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   struct gvertex v[3];
   triangle_vertices(v, 0.25f, WHITE);
   VkPipelineDepthStencilStateCreateInfo ds = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
       .depthTestEnable = VK_TRUE,
       .depthWriteEnable = VK_TRUE,
       .depthCompareOp = VK_COMPARE_OP_LESS,
   };
   memset(&resolved, 0, sizeof(resolved));
   if (create &&
       ms_image(&dev, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
                VK_IMAGE_ASPECT_COLOR_BIT, &color) &&
       ms_image(&dev, VK_FORMAT_D32_SFLOAT, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                VK_IMAGE_ASPECT_DEPTH_BIT, &depth) &&
       test_image(&dev, VK_FORMAT_D32_SFLOAT, VK_SAMPLE_COUNT_1_BIT,
                  VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                  VK_IMAGE_ASPECT_DEPTH_BIT, &resolved) &&
       gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb) &&
       vkt_buffer_create(&dev, GW * GH * 4, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &readback) ==
           VK_SUCCESS) {
      const VkResolveModeFlagBits modes[3] = {VK_RESOLVE_MODE_SAMPLE_ZERO_BIT,
                                              VK_RESOLVE_MODE_MIN_BIT, VK_RESOLVE_MODE_MAX_BIT};
      const VkImageView views[3] = {color.view, depth.view, resolved.view};
      for (unsigned k = 0; k < 3; k++) {
         if (!(dsp.supportedDepthResolveModes & modes[k])) {
            vkt_skip("depth resolve mode 0x%x is not supported", modes[k]);
            continue;
         }
         struct ms_pass p;
         if (!depth_resolve_pass(&dev, create, modes[k], views, &p))
            continue;
         VkPipeline pipe = ms_pipeline(&dev, layout, p.pass, NULL, &ds);
         if (pipe) {
            VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
            ms_begin(cmd, &p, BLUE);
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
            gtu_bind_vertex_buffer(cmd, &vb);
            vkCmdDraw(cmd, 3, 1, 0, 0);
            vkCmdEndRenderPass(cmd);
            VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1},
                                        .imageExtent = {GW, GH, 1}};
            vkCmdCopyImageToBuffer(cmd, resolved.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                   readback.buffer, 1, &region);
            vkt_cmd_transfer_to_host_barrier(cmd);
            VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
            const float *got = readback.map;
            unsigned bad = 0;
            for (unsigned y = 0; y < GH; y++) {
               for (unsigned x = 0; x < GW; x++) {
                  unsigned m = covered_samples(x, y);
                  bool near = k == 0 ? (m & 1) : k == 1 ? m != 0 : m == 0xf;
                  float want = near ? 0.25f : 1.0f;
                  if (got[y * GW + x] != want && bad++ < 6)
                     test_fail(__FILE__, __LINE__, "mode 0x%x: pixel (%u, %u) depth %g, want %g",
                               modes[k], x, y, got[y * GW + x], want);
               }
            }
            CHECK(bad == 0);
            vkDestroyPipeline(dev.device, pipe, NULL);
         }
         ms_pass_destroy(&dev, &p);
      }
      vkt_buffer_destroy(&dev, &vb);
      vkt_buffer_destroy(&dev, &readback);
   }
   vkt_image_destroy(&dev, &resolved);
   vkt_image_destroy(&dev, &depth);
   vkt_image_destroy(&dev, &color);
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_teardown(&ctx, &dev);
}

/* 4x array images: each of two layers of a 4x image cleared to its own
 * colour, both resolved by one vkCmdResolveImage region of two layers into
 * a 1x array image (one RESOLVE a layer). */
TEST_CASE(layers_of_4x_array_images_clear_and_resolve_separately)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   struct vkt_image ms, one;
   struct vkt_buffer out;
   memset(&one, 0, sizeof(one));
   const VkImageUsageFlags usage =
       VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
   if (test_image_layers(&dev, VK_FORMAT_R8G8B8A8_UNORM, VK_SAMPLE_COUNT_4_BIT,
                         usage | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, 0, 2, &ms) &&
       test_image_layers(&dev, VK_FORMAT_R8G8B8A8_UNORM, VK_SAMPLE_COUNT_1_BIT, usage, 0, 2,
                         &one) &&
       vkt_buffer_create(&dev, 2 * GW * GH * 4, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &out) ==
           VK_SUCCESS) {
      VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
      to_layout(cmd, ms.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
      to_layout(cmd, one.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
      const VkClearColorValue colors[2] = {{.float32 = {1, 0, 0, 1}}, {.float32 = {0, 0, 1, 1}}};
      for (uint32_t l = 0; l < 2; l++) {
         VkImageSubresourceRange layer = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, l, 1};
         vkCmdClearColorImage(cmd, ms.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &colors[l], 1,
                              &layer);
      }
      transfer_barrier(cmd);
      to_layout(cmd, ms.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
      VkImageSubresourceLayers both = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 2};
      VkImageResolve r = {both, {0, 0, 0}, both, {0, 0, 0}, {GW, GH, 1}};
      vkCmdResolveImage(cmd, ms.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, one.image,
                        VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r);
      transfer_barrier(cmd);
      to_layout(cmd, one.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
      VkBufferImageCopy region = {.imageSubresource = both, .imageExtent = {GW, GH, 1}};
      vkCmdCopyImageToBuffer(cmd, one.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, out.buffer, 1,
                             &region);
      vkt_cmd_transfer_to_host_barrier(cmd);
      VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
      const uint32_t *got = out.map;
      const uint32_t want[2] = {gtu_rgba(255, 0, 0, 255), gtu_rgba(0, 0, 255, 255)};
      unsigned bad = 0;
      for (unsigned i = 0; i < 2 * GW * GH; i++)
         if (got[i] != want[i / (GW * GH)] && bad++ < 6)
            test_fail(__FILE__, __LINE__, "layer %u pixel %u is 0x%08x, want 0x%08x", i / (GW * GH),
                      i % (GW * GH), got[i], want[i / (GW * GH)]);
      CHECK(bad == 0);
      vkt_buffer_destroy(&dev, &out);
   }
   vkt_image_destroy(&dev, &ms);
   vkt_image_destroy(&dev, &one);
   vkt_teardown(&ctx, &dev);
}

/* Which images can be 4x: optimal 2D attachments. vkppu answers exactly
 * (1 | 4 for non-integer colour and depth/stencil attachments that are not
 * sampled or storage images, 1 otherwise); any implementation must offer 4x
 * for a colour attachment and a depth attachment. */
/* The last attachment write of a pass -> compute shader reads of `image`
 * in SHADER_READ_ONLY_OPTIMAL. */
TEST_CASE(sample_counts_of_images_and_limits)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   const VkSampleCountFlags both = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT;
   const struct {
      VkFormat format;
      VkImageTiling tiling;
      VkImageUsageFlags usage;
      VkSampleCountFlags vkppu; /* 0: not checked on vkppu */
      bool required_4x;
   } cases[] = {
       {VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TILING_OPTIMAL,
        VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, both, true},
       {VK_FORMAT_R16G16B16A16_SFLOAT, VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
        both, true},
       {VK_FORMAT_D32_SFLOAT, VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
        both, true},
       {VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TILING_OPTIMAL,
        VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT, both, true},
       {VK_FORMAT_D32_SFLOAT, VK_IMAGE_TILING_OPTIMAL,
        VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT, both, true},
       {VK_FORMAT_R8G8B8A8_UINT, VK_IMAGE_TILING_OPTIMAL,
        VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT, both, true},
       /* No multisampled storage images (shaderStorageImageMultisample). */
       {VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TILING_OPTIMAL,
        VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_STORAGE_BIT, VK_SAMPLE_COUNT_1_BIT,
        false},
       {VK_FORMAT_R8G8B8A8_UINT, VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, both,
        false},
       {VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TILING_LINEAR, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
        VK_SAMPLE_COUNT_1_BIT, false},
       {VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_TRANSFER_DST_BIT, both,
        false},
   };
   for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      VkImageFormatProperties p;
      VkResult r = vkGetPhysicalDeviceImageFormatProperties(ctx.physical_device, cases[i].format,
                                                            VK_IMAGE_TYPE_2D, cases[i].tiling,
                                                            cases[i].usage, 0, &p);
      CHECK_MSG(r == VK_SUCCESS, "case %zu -> %s", i, vkt_result_name(r));
      if (r != VK_SUCCESS)
         continue;
      if (ctx.is_vkppu)
         CHECK_MSG(p.sampleCounts == cases[i].vkppu, "case %zu: sampleCounts 0x%x, expected 0x%x",
                   i, p.sampleCounts, cases[i].vkppu);
      if (cases[i].required_4x)
         CHECK_MSG(p.sampleCounts & VK_SAMPLE_COUNT_4_BIT, "case %zu: sampleCounts 0x%x", i,
                   p.sampleCounts);
   }
   const VkPhysicalDeviceLimits *l = &ctx.props.limits;
   CHECK(l->framebufferColorSampleCounts & VK_SAMPLE_COUNT_4_BIT);
   /* The spec's required minimum ("Required Limits"). */
   CHECK(l->sampledImageColorSampleCounts & VK_SAMPLE_COUNT_4_BIT);
   CHECK(l->sampledImageIntegerSampleCounts & VK_SAMPLE_COUNT_4_BIT);
   CHECK(l->sampledImageDepthSampleCounts & VK_SAMPLE_COUNT_4_BIT);
   CHECK(l->sampledImageStencilSampleCounts & VK_SAMPLE_COUNT_4_BIT);
   CHECK(l->framebufferDepthSampleCounts & VK_SAMPLE_COUNT_4_BIT);
   CHECK(l->standardSampleLocations);
   CHECK(l->maxSampleMaskWords >= 1);
   if (ctx.is_vkppu) {
      CHECK_EQ_U64(l->framebufferColorSampleCounts, both);
      CHECK_EQ_U64(l->framebufferStencilSampleCounts, both);
      CHECK_EQ_U64(l->framebufferNoAttachmentsSampleCounts, both);
      CHECK_EQ_U64(l->sampledImageColorSampleCounts, both);
      CHECK_EQ_U64(l->sampledImageIntegerSampleCounts, both);
      CHECK_EQ_U64(l->sampledImageDepthSampleCounts, both);
      CHECK_EQ_U64(l->sampledImageStencilSampleCounts, both);
      CHECK_EQ_U64(l->storageImageSampleCounts, VK_SAMPLE_COUNT_1_BIT);
      CHECK_EQ_U64(l->maxSampleMaskWords, 1);
   }
   vkt_teardown(&ctx, &dev);
}

/* vkppu refuses with a message, recording nothing, what Vulkan forbids of
 * 4x images: copies to and from buffers (the buffer keeps its bytes), a
 * pipeline of 2 samples (not a count the ROP has), a resolve region beyond
 * the destination (which keeps its green). */
TEST_CASE(invalid_and_unsupported_uses_of_4x_images_are_refused)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   if (!ctx.is_vkppu) {
      vkt_skip("invalid usage: undefined elsewhere");
      vkt_teardown(&ctx, &dev);
      return;
   }
   struct vkt_image ms, one;
   struct vkt_buffer buf, out;
   struct ms_pass p;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   memset(&one, 0, sizeof(one));
   if (test_image(&dev, VK_FORMAT_R8G8B8A8_UNORM, VK_SAMPLE_COUNT_1_BIT,
                  VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, 0, &one) &&
       vkt_buffer_create(&dev, GW * GH * 4, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &out) ==
           VK_SUCCESS &&
       ms_image(&dev, VK_FORMAT_R8G8B8A8_UNORM,
                VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                VK_IMAGE_ASPECT_COLOR_BIT, &ms) &&
       ms_pass_create(&dev, VK_ATTACHMENT_LOAD_OP_CLEAR, ms.view, VK_NULL_HANDLE, VK_NULL_HANDLE,
                      &p) &&
       vkt_buffer_create(&dev, GW * GH * 4, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &buf) ==
           VK_SUCCESS) {
      memset(buf.map, 0x5a, GW * GH * 4);
      static const char *const expected[] = {"vkCmdCopyImageToBuffer", "rasterizationSamples",
                                             "vkCmdResolveImage", NULL};
      vkt_tolerate_begin(expected);
      VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
      ms_begin(cmd, &p, BLUE);
      vkCmdEndRenderPass(cmd);
      VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                                  .imageExtent = {GW, GH, 1}};
      vkCmdCopyImageToBuffer(cmd, ms.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buf.buffer, 1,
                             &region);
      vkt_cmd_image_barrier(cmd, one.image, VK_IMAGE_LAYOUT_UNDEFINED,
                            VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT);
      VkClearColorValue green = {.float32 = {0, 1, 0, 1}};
      VkImageSubresourceRange all = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
      vkCmdClearColorImage(cmd, one.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &green, 1, &all);
      transfer_barrier(cmd);
      VkImageSubresourceLayers sub = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
      const VkImageResolve bad = {sub, {0, 0, 0}, sub, {4, 0, 0}, {GW, GH, 1}};
      vkCmdResolveImage(cmd, ms.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, one.image,
                        VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &bad);
      transfer_barrier(cmd);
      vkt_cmd_image_barrier(cmd, one.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                            VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_ACCESS_TRANSFER_WRITE_BIT,
                            VK_ACCESS_TRANSFER_READ_BIT);
      vkCmdCopyImageToBuffer(cmd, one.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, out.buffer, 1,
                             &region);
      vkt_cmd_transfer_to_host_barrier(cmd);
      VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
      VkPipelineMultisampleStateCreateInfo two = {
          .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
          .rasterizationSamples = VK_SAMPLE_COUNT_2_BIT,
      };
      struct gtu_pipeline_desc d = {
          .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
          .layout = layout,
          .pass = p.pass,
          .ms = &two,
      };
      VkPipeline pipe;
      VkResult r = gtu_pipeline(&dev, &d, &pipe);
      struct vkt_message_counts counts = vkt_message_counts();
      uint32_t excused = vkt_tolerate_end();
      CHECK_MSG(r != VK_SUCCESS && pipe == VK_NULL_HANDLE, "2x pipeline -> %s", vkt_result_name(r));
      CHECK_MSG(excused >= 4 && counts.errors >= 4, "%u messages excused", excused);
      const uint32_t *texels = out.map;
      unsigned not_green = 0;
      for (unsigned i = 0; i < GW * GH; i++)
         not_green += texels[i] != gtu_rgba(0, 255, 0, 255);
      CHECK_EQ_U64(not_green, 0);
      const uint8_t *bytes = buf.map;
      unsigned changed = 0;
      for (unsigned i = 0; i < GW * GH * 4; i++)
         changed += bytes[i] != 0x5a;
      CHECK_EQ_U64(changed, 0);
      vkt_buffer_destroy(&dev, &buf);
   }
   ms_pass_destroy(&dev, &p);
   vkt_image_destroy(&dev, &ms);
   vkt_image_destroy(&dev, &one);
   vkt_buffer_destroy(&dev, &out);
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_teardown(&ctx, &dev);
}

/* One sample-shading case: a fragment shader drawn on a 4x attachment
 * cleared blue and resolved. */
int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
