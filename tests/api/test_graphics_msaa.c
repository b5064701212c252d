/* 4x multisampling through the loader with validation on (api.graphics_msaa
 * on vkppu, lvp.graphics_msaa on lavapipe): 4x colour and depth
 * attachments, resolves, clears and copies of 4x images, the sample mask,
 * and 4x images read sample by sample with texelFetch.
 *
 * Expected pixels come from the standard 4x sample positions (Vulkan
 * "Standard Sample Locations"): each pixel's covered samples are counted
 * here with exact integer edge functions in 1/256 pixel (vertices are
 * multiples of 1/256, so nothing is rounded), and a resolved UNORM pixel is
 * the average of its samples within one code (implementations may round the
 * average differently). The geometry is checked to put no sample exactly on
 * an edge, so the top-left rule never decides. */
#include "graphics_test_util.h"

enum { SUB = 256 }; /* units of the exact coverage computation */

/* Standard 4x sample positions in 1/256 pixel. */
static const int64_t SAMPLE_POS[4][2] = {{96, 32}, {224, 96}, {32, 160}, {160, 224}};

/* The triangle most cases draw: its edges cross pixels at every angle, so
 * pixels with 0, 1, 2, 3 and 4 covered samples all occur. */
static const int64_t TRI[3][2] = {{845, 538}, {7347, 2458}, {2867, 7526}};

static const float BLUE[4] = {0, 0, 1, 1};
static const float GREEN[4] = {0, 1, 0, 1};
static const float RED[4] = {1, 0, 0, 1};
static const float WHITE[4] = {1, 1, 1, 1};

static int64_t edge(const int64_t a[2], const int64_t b[2], int64_t px, int64_t py)
{
   return (b[0] - a[0]) * (py - a[1]) - (b[1] - a[1]) * (px - a[0]);
}

/* Bit s set when sample s of pixel (x, y) is inside TRI; fails the case if
 * a sample lies on an edge (the geometry would be ambiguous). */
static unsigned covered_samples(unsigned x, unsigned y)
{
   int64_t area = edge(TRI[0], TRI[1], TRI[2][0], TRI[2][1]);
   unsigned mask = 0;
   for (unsigned s = 0; s < 4; s++) {
      int64_t px = x * SUB + SAMPLE_POS[s][0], py = y * SUB + SAMPLE_POS[s][1];
      int64_t e[3] = {edge(TRI[0], TRI[1], px, py), edge(TRI[1], TRI[2], px, py),
                      edge(TRI[2], TRI[0], px, py)};
      bool inside = true;
      for (unsigned i = 0; i < 3; i++) {
         if (e[i] == 0)
            test_fail(__FILE__, __LINE__, "sample %u of pixel (%u, %u) is on an edge", s, x, y);
         inside = inside && (area > 0 ? e[i] > 0 : e[i] < 0);
      }
      mask |= inside ? 1u << s : 0u;
   }
   return mask;
}

static unsigned popcount4(unsigned m)
{
   return (m & 1) + (m >> 1 & 1) + (m >> 2 & 1) + (m >> 3 & 1);
}

static uint8_t code(float f)
{
   return (uint8_t)(f * 255.0f + 0.5f);
}

/* The resolve of n samples of colour `in` and 4 - n of `out`. */
static uint32_t mix(unsigned n, const float in[4], const float out[4])
{
   uint8_t c[4];
   for (unsigned i = 0; i < 4; i++)
      c[i] = code((n * in[i] + (4 - n) * out[i]) / 4.0f);
   return gtu_rgba(c[0], c[1], c[2], c[3]);
}

static void triangle_vertices(struct gvertex v[3], float z, const float c[4])
{
   for (unsigned i = 0; i < 3; i++)
      v[i] = gvtx((float)TRI[i][0] / SUB, (float)TRI[i][1] / SUB, z, c);
}

/* An image of the test's size with `samples`, and a view of `aspects`
 * (none for 0). */
static bool test_image_layers(struct vkt_device *dev, VkFormat format,
                              VkSampleCountFlagBits samples, VkImageUsageFlags usage,
                              VkImageAspectFlags aspects, uint32_t layers, struct vkt_image *out)
{
   VkImageCreateInfo ici = {
       .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
       .imageType = VK_IMAGE_TYPE_2D,
       .format = format,
       .extent = {GW, GH, 1},
       .mipLevels = 1,
       .arrayLayers = layers,
       .samples = samples,
       .tiling = VK_IMAGE_TILING_OPTIMAL,
       .usage = usage,
   };
   if (!vkt_image_create(dev, &ici, VKT_NO_VIEW, out))
      return false;
   if (!aspects)
      return true;
   VkImageViewCreateInfo vci = {
       .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
       .image = out->image,
       .viewType = VK_IMAGE_VIEW_TYPE_2D,
       .format = format,
       .subresourceRange = {aspects, 0, 1, 0, 1},
   };
   GTU_REQUIRE(vkCreateImageView(dev->device, &vci, NULL, &out->view));
   return true;
}

static bool test_image(struct vkt_device *dev, VkFormat format, VkSampleCountFlagBits samples,
                       VkImageUsageFlags usage, VkImageAspectFlags aspects, struct vkt_image *out)
{
   return test_image_layers(dev, format, samples, usage, aspects, 1, out);
}

static bool ms_image(struct vkt_device *dev, VkFormat format, VkImageUsageFlags usage,
                     VkImageAspectFlags aspects, struct vkt_image *out)
{
   return test_image(dev, format, VK_SAMPLE_COUNT_4_BIT, usage, aspects, out);
}

/* A render pass on a 4x colour attachment (0), optionally resolved into a
 * 1x one (1), optionally with a 4x depth attachment (last). */
struct ms_pass {
   VkRenderPass pass;
   VkFramebuffer fb;
   uint32_t attachments;
};

/* color_format: of the colour and resolve attachments; resolve_initial:
 * the resolve attachment's initial layout (UNDEFINED, or
 * TRANSFER_DST_OPTIMAL to keep what lies outside the render area). */
static bool ms_pass_create_layout(struct vkt_device *dev, VkAttachmentLoadOp load,
                                  VkFormat color_format, VkImageView color, VkImageView resolve,
                                  VkImageLayout resolve_initial, VkImageView depth,
                                  VkFormat depth_format, struct ms_pass *p)
{
   VkAttachmentDescription att[3] = {
       {0, color_format, VK_SAMPLE_COUNT_4_BIT, load, VK_ATTACHMENT_STORE_OP_STORE,
        VK_ATTACHMENT_LOAD_OP_DONT_CARE, VK_ATTACHMENT_STORE_OP_DONT_CARE,
        load == VK_ATTACHMENT_LOAD_OP_LOAD ? VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL
                                           : VK_IMAGE_LAYOUT_UNDEFINED,
        VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL},
   };
   VkImageView views[3] = {color};
   uint32_t n = 1;
   VkAttachmentReference color_ref = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
   VkAttachmentReference resolve_ref = {1, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
   VkAttachmentReference depth_ref = {0, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
   if (resolve) {
      att[n] = (VkAttachmentDescription){0,
                                         color_format,
                                         VK_SAMPLE_COUNT_1_BIT,
                                         VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                         VK_ATTACHMENT_STORE_OP_STORE,
                                         VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                         VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                         resolve_initial,
                                         VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL};
      views[n++] = resolve;
   }
   if (depth) {
      att[n] = (VkAttachmentDescription){0,
                                         depth_format,
                                         VK_SAMPLE_COUNT_4_BIT,
                                         VK_ATTACHMENT_LOAD_OP_CLEAR,
                                         VK_ATTACHMENT_STORE_OP_STORE, /* texel_fetch cases */
                                         VK_ATTACHMENT_LOAD_OP_CLEAR,
                                         VK_ATTACHMENT_STORE_OP_STORE,
                                         VK_IMAGE_LAYOUT_UNDEFINED,
                                         VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
      depth_ref.attachment = n;
      views[n++] = depth;
   }
   VkSubpassDescription sp = {
       .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
       .colorAttachmentCount = 1,
       .pColorAttachments = &color_ref,
       .pResolveAttachments = resolve ? &resolve_ref : NULL,
       .pDepthStencilAttachment = depth ? &depth_ref : NULL,
   };
   const VkAccessFlags color_rw =
       VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_COLOR_ATTACHMENT_READ_BIT;
   VkSubpassDependency deps[2] = {
       {VK_SUBPASS_EXTERNAL, 0, VK_PIPELINE_STAGE_TRANSFER_BIT,
        VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT,
        VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
        color_rw | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT, 0},
       {0, VK_SUBPASS_EXTERNAL, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
        VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
        VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, 0},
   };
   VkRenderPassCreateInfo ci = {
       .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
       .attachmentCount = n,
       .pAttachments = att,
       .subpassCount = 1,
       .pSubpasses = &sp,
       .dependencyCount = 2,
       .pDependencies = deps,
   };
   p->attachments = n;
   GTU_REQUIRE(vkCreateRenderPass(dev->device, &ci, NULL, &p->pass));
   VkFramebufferCreateInfo fci = {
       .sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
       .renderPass = p->pass,
       .attachmentCount = n,
       .pAttachments = views,
       .width = GW,
       .height = GH,
       .layers = 1,
   };
   GTU_REQUIRE(vkCreateFramebuffer(dev->device, &fci, NULL, &p->fb));
   return true;
}

static bool ms_pass_create(struct vkt_device *dev, VkAttachmentLoadOp load, VkImageView color,
                           VkImageView resolve, VkImageView depth, struct ms_pass *p)
{
   return ms_pass_create_layout(dev, load, VK_FORMAT_R8G8B8A8_UNORM, color, resolve,
                                VK_IMAGE_LAYOUT_UNDEFINED, depth, VK_FORMAT_D32_SFLOAT, p);
}

static void ms_pass_destroy(struct vkt_device *dev, struct ms_pass *p)
{
   vkDestroyFramebuffer(dev->device, p->fb, NULL);
   vkDestroyRenderPass(dev->device, p->pass, NULL);
}

/* Begins the pass on cmd: colour cleared to c (if its load op clears),
 * depth to 1 (attachment 0 is colour; a 1x colour resolve attachment, whose
 * load op never clears, ignores its value). */
static void ms_begin_area(VkCommandBuffer cmd, const struct ms_pass *p, const float c[4],
                          VkRect2D area)
{
   VkClearValue clear[3];
   memcpy(clear[0].color.float32, c, 16);
   clear[1].depthStencil = clear[2].depthStencil = (VkClearDepthStencilValue){1.0f, 0};
   VkRenderPassBeginInfo bi = {
       .sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
       .renderPass = p->pass,
       .framebuffer = p->fb,
       .renderArea = area,
       .clearValueCount = p->attachments,
       .pClearValues = clear,
   };
   vkCmdBeginRenderPass(cmd, &bi, VK_SUBPASS_CONTENTS_INLINE);
}

static void ms_begin(VkCommandBuffer cmd, const struct ms_pass *p, const float c[4])
{
   ms_begin_area(cmd, p, c, (VkRect2D){{0, 0}, {GW, GH}});
}

static VkPipeline ms_pipeline(struct vkt_device *dev, VkPipelineLayout layout, VkRenderPass pass,
                              const VkSampleMask *mask,
                              const VkPipelineDepthStencilStateCreateInfo *ds)
{
   VkPipelineMultisampleStateCreateInfo ms = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
       .rasterizationSamples = VK_SAMPLE_COUNT_4_BIT,
       .pSampleMask = mask,
   };
   struct gtu_pipeline_desc d = {
       .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
       .layout = layout,
       .pass = pass,
       .ms = &ms,
       .ds = ds,
   };
   VkPipeline pipe = VK_NULL_HANDLE;
   VKT_CHECK(gtu_pipeline(dev, &d, &pipe));
   return pipe;
}

/* want[] for TRI in colour `in` over `out`, samples limited to `mask`. */
static void expect_triangle(uint32_t *want, unsigned mask, const float in[4], const float out[4])
{
   for (unsigned y = 0; y < GH; y++)
      for (unsigned x = 0; x < GW; x++)
         want[y * GW + x] = mix(popcount4(covered_samples(x, y) & mask), in, out);
}

/* A white triangle on a blue load-op clear, resolved at the end of the
 * subpass: each pixel is the fraction of its samples the triangle covers.
 * With pSampleMask 0b0101 only samples 0 and 2 can be covered. */
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

/* The pipeline of gfx_msaa_uint.frag (the vertex colour as 8-bit integers)
 * at 4x for `pass`; VK_NULL_HANDLE (and a failed case) on error. */
static VkPipeline uint_pipeline(struct vkt_device *dev, VkPipelineLayout layout, VkRenderPass pass)
{
   VkPipelineMultisampleStateCreateInfo msi = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
       .rasterizationSamples = VK_SAMPLE_COUNT_4_BIT,
   };
   struct gtu_pipeline_desc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                 .fs = "gfx_msaa_uint.frag",
                                 .layout = layout,
                                 .pass = pass,
                                 .ms = &msi};
   VkPipeline pipe = VK_NULL_HANDLE;
   VKT_CHECK(gtu_pipeline(dev, &d, &pipe));
   return pipe;
}

/* Records the pass p on an integer colour attachment cleared to
 * (1, 2, 3, 4) with the triangle of vb drawn by pipe. */
static void draw_uint_triangle(VkCommandBuffer cmd, const struct ms_pass *p, VkPipeline pipe,
                               const struct vkt_buffer *vb)
{
   VkClearValue clear = {.color = {.uint32 = {1, 2, 3, 4}}};
   VkRenderPassBeginInfo bi = {
       .sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
       .renderPass = p->pass,
       .framebuffer = p->fb,
       .renderArea = {{0, 0}, {GW, GH}},
       .clearValueCount = 1,
       .pClearValues = &clear,
   };
   vkCmdBeginRenderPass(cmd, &bi, VK_SUBPASS_CONTENTS_INLINE);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
   gtu_bind_vertex_buffer(cmd, vb);
   vkCmdDraw(cmd, 3, 1, 0, 0);
   vkCmdEndRenderPass(cmd);
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

static void transfer_barrier(VkCommandBuffer cmd)
{
   VkMemoryBarrier b = {VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL,
                        VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                        VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT |
                            VK_ACCESS_COLOR_ATTACHMENT_READ_BIT |
                            VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT};
   vkCmdPipelineBarrier(
       cmd, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
       VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0, 1, &b, 0,
       NULL, 0, NULL);
}

static void to_layout(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to)
{
   vkt_cmd_image_barrier(cmd, image, from, to,
                         VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                         VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
}

/* The coverage case through VK_KHR_dynamic_rendering: a 4x colour
 * attachment with resolveMode AVERAGE into the 1x target, cleared blue by
 * its load op, resolved when the instance ends. */
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
static void attachment_to_shader_read(VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect,
                                      VkImageLayout from)
{
   VkImageMemoryBarrier b = {
       .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
       .srcAccessMask =
           VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
       .dstAccessMask = VK_ACCESS_SHADER_READ_BIT,
       .oldLayout = from,
       .newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
       .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
       .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
       .image = image,
       .subresourceRange = {aspect, 0, 1, 0, 1},
   };
   vkCmdPipelineBarrier(cmd,
                        VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
                            VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT,
                        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, NULL, 0, NULL, 1, &b);
}

/* What ms_fetch.comp / ms_fetch_uint.comp write: textureSize and
 * textureSamples, then every sample (GW * GH pixels of 4). */
struct fetched {
   int32_t info[4];
   uint32_t sample[GW * GH * 4][4];
};

/* Records the dispatch of `shader` reading `view` (SHADER_READ_ONLY_OPTIMAL)
 * into out (host visible, sizeof(struct fetched)). */
static void fetch_samples(struct vkt_device *dev, VkCommandBuffer cmd, struct ctu_program *prog,
                          VkImageView view, const struct vkt_buffer *out)
{
   VkDescriptorSet set = ctu_program_set(dev, prog);
   ctu_write_image(dev, set, 0, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, VK_NULL_HANDLE, view,
                   VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
   ctu_write_buffer(dev, set, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, out->buffer, 0,
                    sizeof(struct fetched));
   ctu_program_bind(cmd, prog, set);
   vkCmdDispatch(cmd, GW * GH * 4 / 64, 1, 1);
}

/* Every sample of `got` is `in` where TRI covers it, else `out`; the
 * queries say GW x GH and 4 samples. */
static void check_fetched(const char *what, const struct fetched *got, const uint32_t in[4],
                          const uint32_t out[4])
{
   CHECK_MSG(got->info[0] == GW && got->info[1] == GH && got->info[2] == 4,
             "%s: textureSize %dx%d, textureSamples %d", what, got->info[0], got->info[1],
             got->info[2]);
   unsigned bad = 0, covered = 0;
   for (unsigned y = 0; y < GH; y++)
      for (unsigned x = 0; x < GW; x++) {
         unsigned mask = covered_samples(x, y);
         for (unsigned s = 0; s < 4; s++) {
            const uint32_t *want = mask >> s & 1u ? in : out;
            const uint32_t *v = got->sample[(y * GW + x) * 4 + s];
            covered += mask >> s & 1u;
            if (memcmp(v, want, 16) && bad++ < 6)
               test_fail(__FILE__, __LINE__,
                         "%s: sample %u of pixel (%u, %u) is (0x%x 0x%x 0x%x 0x%x), want (0x%x "
                         "0x%x 0x%x 0x%x)",
                         what, s, x, y, v[0], v[1], v[2], v[3], want[0], want[1], want[2], want[3]);
         }
      }
   CHECK_MSG(bad == 0, "%s: %u samples differ", what, bad);
   CHECK_MSG(covered > 0 && covered < GW * GH * 4, "%s: the triangle covers %u samples", what,
             covered);
}

static void float_bits(const float f[4], uint32_t out[4])
{
   memcpy(out, f, 16);
}

/* A white triangle at depth 0.5 on a blue colour and depth-1 clear, into a
 * 4x RGBA8 colour and a 4x D32 depth image that are also SAMPLED; a compute
 * shader then reads every sample of each with texelFetch (the depth view
 * returns (d, 0, 0, 1)): exactly the shaded value where TRI covers the
 * sample, the clear value elsewhere. */
TEST_CASE(texel_fetch_reads_every_sample_of_4x_colour_and_depth_images)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   struct vkt_image color, depth;
   struct vkt_buffer vb, out[2];
   struct ms_pass p;
   struct ctu_program prog;
   memset(&color, 0, sizeof(color));
   memset(&depth, 0, sizeof(depth));
   memset(out, 0, sizeof(out));
   memset(&p, 0, sizeof(p));
   memset(&prog, 0, sizeof(prog));
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   struct gvertex v[3];
   triangle_vertices(v, 0.5f, WHITE);
   const VkDescriptorSetLayoutBinding bindings[2] = {
       {0, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
   };
   const VkPipelineDepthStencilStateCreateInfo ds = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
       .depthTestEnable = VK_TRUE,
       .depthWriteEnable = VK_TRUE,
       .depthCompareOp = VK_COMPARE_OP_LESS};
   VkPipeline pipe = VK_NULL_HANDLE;
   /* TRANSFER_SRC: ms_pass leaves the colour in TRANSFER_SRC_OPTIMAL. */
   if (ms_image(&dev, VK_FORMAT_R8G8B8A8_UNORM,
                VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT |
                    VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                VK_IMAGE_ASPECT_COLOR_BIT, &color) &&
       ms_image(&dev, VK_FORMAT_D32_SFLOAT,
                VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
                VK_IMAGE_ASPECT_DEPTH_BIT, &depth) &&
       ms_pass_create(&dev, VK_ATTACHMENT_LOAD_OP_CLEAR, color.view, VK_NULL_HANDLE, depth.view,
                      &p) &&
       ctu_program_create(&dev, "ms_fetch", bindings, 2, 0, 2, &prog) &&
       vkt_buffer_create(&dev, sizeof(struct fetched), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                         VKT_MEMORY_HOST, &out[0]) == VK_SUCCESS &&
       vkt_buffer_create(&dev, sizeof(struct fetched), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                         VKT_MEMORY_HOST, &out[1]) == VK_SUCCESS &&
       gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
      pipe = ms_pipeline(&dev, layout, p.pass, NULL, &ds);
      if (pipe) {
         VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
         ms_begin(cmd, &p, BLUE);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
         gtu_bind_vertex_buffer(cmd, &vb);
         vkCmdDraw(cmd, 3, 1, 0, 0);
         vkCmdEndRenderPass(cmd);
         attachment_to_shader_read(cmd, color.image, VK_IMAGE_ASPECT_COLOR_BIT,
                                   VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
         attachment_to_shader_read(cmd, depth.image, VK_IMAGE_ASPECT_DEPTH_BIT,
                                   VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
         fetch_samples(&dev, cmd, &prog, color.view, &out[0]);
         fetch_samples(&dev, cmd, &prog, depth.view, &out[1]);
         ctu_compute_to_host_barrier(cmd);
         VkResult r = vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd);
         VKT_CHECK(r);
         if (r == VK_SUCCESS) {
            uint32_t in[4], bg[4];
            float_bits(WHITE, in);
            float_bits(BLUE, bg);
            check_fetched("RGBA8 colour", out[0].map, in, bg);
            const float near[4] = {0.5f, 0, 0, 1}, far[4] = {1, 0, 0, 1};
            float_bits(near, in);
            float_bits(far, bg);
            check_fetched("D32 depth", out[1].map, in, bg);
         }
      }
      vkt_buffer_destroy(&dev, &vb);
   }
   vkDestroyPipeline(dev.device, pipe, NULL);
   ctu_program_destroy(&dev, &prog);
   vkt_buffer_destroy(&dev, &out[0]);
   vkt_buffer_destroy(&dev, &out[1]);
   ms_pass_destroy(&dev, &p);
   vkt_image_destroy(&dev, &depth);
   vkt_image_destroy(&dev, &color);
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_teardown(&ctx, &dev);
}

/* The stencil aspect of a 4x D32_SFLOAT_S8_UINT image: the triangle writes
 * stencil 1 (REPLACE) over a 0 clear, and a stencil view read through a
 * utexture2DMS gives (1, 0, 0, 1) for covered samples, (0, 0, 0, 1) for the
 * rest. */
TEST_CASE(texel_fetch_reads_every_sample_of_a_4x_stencil_aspect)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   const VkFormat f = VK_FORMAT_D32_SFLOAT_S8_UINT;
   const VkImageUsageFlags ds_usage =
       VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
   VkImageFormatProperties ifp;
   if (vkGetPhysicalDeviceImageFormatProperties(ctx.physical_device, f, VK_IMAGE_TYPE_2D,
                                                VK_IMAGE_TILING_OPTIMAL, ds_usage, 0,
                                                &ifp) != VK_SUCCESS ||
       !(ifp.sampleCounts & VK_SAMPLE_COUNT_4_BIT)) {
      CHECK_MSG(!ctx.is_vkppu, "vkppu: D32_SFLOAT_S8_UINT is not a sampled 4x image");
      vkt_skip("no sampled 4x D32_SFLOAT_S8_UINT");
      vkt_teardown(&ctx, &dev);
      return;
   }
   struct vkt_image color, ds;
   struct vkt_buffer vb, out;
   struct ms_pass p;
   struct ctu_program prog;
   VkImageView stencil_view = VK_NULL_HANDLE;
   memset(&color, 0, sizeof(color));
   memset(&ds, 0, sizeof(ds));
   memset(&out, 0, sizeof(out));
   memset(&p, 0, sizeof(p));
   memset(&prog, 0, sizeof(prog));
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   struct gvertex v[3];
   triangle_vertices(v, 0.5f, WHITE);
   const VkDescriptorSetLayoutBinding bindings[2] = {
       {0, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
   };
   const VkStencilOpState write_one = {VK_STENCIL_OP_KEEP,
                                       VK_STENCIL_OP_REPLACE,
                                       VK_STENCIL_OP_KEEP,
                                       VK_COMPARE_OP_ALWAYS,
                                       0xff,
                                       0xff,
                                       1};
   const VkPipelineDepthStencilStateCreateInfo dsi = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
       .stencilTestEnable = VK_TRUE,
       .front = write_one,
       .back = write_one};
   VkPipeline pipe = VK_NULL_HANDLE;
   const VkImageAspectFlags both = VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
   if (ms_image(&dev, VK_FORMAT_R8G8B8A8_UNORM,
                VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                VK_IMAGE_ASPECT_COLOR_BIT, &color) &&
       ms_image(&dev, f, ds_usage, both, &ds) &&
       ms_pass_create_layout(&dev, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_FORMAT_R8G8B8A8_UNORM,
                             color.view, VK_NULL_HANDLE, VK_IMAGE_LAYOUT_UNDEFINED, ds.view, f,
                             &p) &&
       ctu_program_create(&dev, "ms_fetch_uint", bindings, 2, 0, 1, &prog) &&
       vkt_buffer_create(&dev, sizeof(struct fetched), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                         VKT_MEMORY_HOST, &out) == VK_SUCCESS &&
       gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
      VkImageViewCreateInfo vci = {
          .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
          .image = ds.image,
          .viewType = VK_IMAGE_VIEW_TYPE_2D,
          .format = f,
          .subresourceRange = {VK_IMAGE_ASPECT_STENCIL_BIT, 0, 1, 0, 1},
      };
      VKT_CHECK(vkCreateImageView(dev.device, &vci, NULL, &stencil_view));
      pipe = ms_pipeline(&dev, layout, p.pass, NULL, &dsi);
      if (pipe && stencil_view) {
         VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
         ms_begin(cmd, &p, BLUE);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
         gtu_bind_vertex_buffer(cmd, &vb);
         vkCmdDraw(cmd, 3, 1, 0, 0);
         vkCmdEndRenderPass(cmd);
         attachment_to_shader_read(cmd, ds.image, both,
                                   VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
         fetch_samples(&dev, cmd, &prog, stencil_view, &out);
         ctu_compute_to_host_barrier(cmd);
         VkResult r = vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd);
         VKT_CHECK(r);
         if (r == VK_SUCCESS) {
            const uint32_t in[4] = {1, 0, 0, 1}, bg[4] = {0, 0, 0, 1};
            check_fetched("D32S8 stencil", out.map, in, bg);
         }
      }
      vkt_buffer_destroy(&dev, &vb);
   }
   vkDestroyPipeline(dev.device, pipe, NULL);
   vkDestroyImageView(dev.device, stencil_view, NULL);
   ctu_program_destroy(&dev, &prog);
   vkt_buffer_destroy(&dev, &out);
   ms_pass_destroy(&dev, &p);
   vkt_image_destroy(&dev, &ds);
   vkt_image_destroy(&dev, &color);
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_teardown(&ctx, &dev);
}

/* The same for a 4x R8G8B8A8_UINT image (gfx_msaa_uint.frag writes 200,
 * 100, 50, 255 on a (1, 2, 3, 4) clear), read through a utexture2DMS. */
TEST_CASE(texel_fetch_reads_every_sample_of_a_4x_integer_image)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   const VkFormat f = VK_FORMAT_R8G8B8A8_UINT;
   struct vkt_image ms;
   struct vkt_buffer vb, out;
   struct ms_pass p;
   struct ctu_program prog;
   memset(&ms, 0, sizeof(ms));
   memset(&out, 0, sizeof(out));
   memset(&p, 0, sizeof(p));
   memset(&prog, 0, sizeof(prog));
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   const float c[4] = {200 / 255.0f, 100 / 255.0f, 50 / 255.0f, 1};
   struct gvertex v[3];
   triangle_vertices(v, 0.5f, c);
   const VkDescriptorSetLayoutBinding bindings[2] = {
       {0, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
   };
   VkPipeline pipe = VK_NULL_HANDLE;
   if (ms_image(&dev, f,
                VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT |
                    VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                VK_IMAGE_ASPECT_COLOR_BIT, &ms) &&
       ms_pass_create_layout(&dev, VK_ATTACHMENT_LOAD_OP_CLEAR, f, ms.view, VK_NULL_HANDLE,
                             VK_IMAGE_LAYOUT_UNDEFINED, VK_NULL_HANDLE, VK_FORMAT_UNDEFINED, &p) &&
       ctu_program_create(&dev, "ms_fetch_uint", bindings, 2, 0, 1, &prog) &&
       vkt_buffer_create(&dev, sizeof(struct fetched), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                         VKT_MEMORY_HOST, &out) == VK_SUCCESS &&
       gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
      pipe = uint_pipeline(&dev, layout, p.pass);
      if (pipe) {
         VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
         draw_uint_triangle(cmd, &p, pipe, &vb);
         attachment_to_shader_read(cmd, ms.image, VK_IMAGE_ASPECT_COLOR_BIT,
                                   VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
         fetch_samples(&dev, cmd, &prog, ms.view, &out);
         ctu_compute_to_host_barrier(cmd);
         VkResult r = vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd);
         VKT_CHECK(r);
         if (r == VK_SUCCESS) {
            const uint32_t in[4] = {200, 100, 50, 255}, bg[4] = {1, 2, 3, 4};
            check_fetched("RGBA8 UINT", out.map, in, bg);
         }
      }
      vkt_buffer_destroy(&dev, &vb);
   }
   vkDestroyPipeline(dev.device, pipe, NULL);
   ctu_program_destroy(&dev, &prog);
   vkt_buffer_destroy(&dev, &out);
   ms_pass_destroy(&dev, &p);
   vkt_image_destroy(&dev, &ms);
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_teardown(&ctx, &dev);
}

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
struct shading_case {
   const char *fs;
   VkBool32 enable;   /* sampleShadingEnable */
   float min_shading; /* minSampleShading */
   float want[4];     /* every pixel's resolved colour, unless want_pixels */
   /* What Vulkan leaves open, checked on vkppu only: OPEN_RGBA where a
    * plain input is evaluated under sample shading (vkppu: at the sample;
    * lavapipe: the centre), OPEN_ALPHA the centroid of a covered pixel
    * (vkppu: the centre; lavapipe: a sample). */
   enum { EXACT, OPEN_RGBA, OPEN_ALPHA } open;
   const uint32_t *want_pixels; /* GW x GH, or NULL */
};

/* Draws the triangle v with each case's pipeline on a device with
 * sampleRateShading, and checks the resolved pixels. */
static void check_shading_cases(const struct gvertex v[3], const struct shading_case *cases,
                                unsigned count)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   VkPhysicalDeviceFeatures features = {.sampleRateShading = VK_TRUE};
   struct vkt_device_desc desc = {.features = &features};
   if (!gtu_setup_device(&ctx, &dev, &desc))
      return;
   struct gtarget t;
   struct vkt_image ms;
   struct ms_pass p;
   memset(&ms, 0, sizeof(ms));
   memset(&p, 0, sizeof(p));
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   struct vkt_buffer vb;
   if (gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &t) &&
       ms_image(&dev, VK_FORMAT_R8G8B8A8_UNORM,
                VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                VK_IMAGE_ASPECT_COLOR_BIT, &ms) &&
       ms_pass_create(&dev, VK_ATTACHMENT_LOAD_OP_CLEAR, ms.view, t.color.view, VK_NULL_HANDLE,
                      &p) &&
       gtu_data_buffer(&dev, v, 3 * sizeof(*v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
      for (unsigned k = 0; k < count; k++) {
         const struct shading_case *sc = &cases[k];
         VkPipelineMultisampleStateCreateInfo msi = {
             .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
             .rasterizationSamples = VK_SAMPLE_COUNT_4_BIT,
             .sampleShadingEnable = sc->enable,
             .minSampleShading = sc->min_shading,
         };
         struct gtu_pipeline_desc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                       .fs = sc->fs,
                                       .layout = layout,
                                       .pass = p.pass,
                                       .ms = &msi};
         VkPipeline pipe = VK_NULL_HANDLE;
         VKT_CHECK(gtu_pipeline(&dev, &d, &pipe));
         if (!pipe)
            continue;
         VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
         ms_begin(cmd, &p, BLUE);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
         gtu_bind_vertex_buffer(cmd, &vb);
         vkCmdDraw(cmd, 3, 1, 0, 0);
         if (gtu_end_read(&dev, &t, cmd) && (ctx.is_vkppu || sc->open != OPEN_RGBA)) {
            uint32_t want[GW * GH];
            gtu_fill(want, 0, 0, GW, GH,
                     gtu_rgba(code(sc->want[0]), code(sc->want[1]), code(sc->want[2]),
                              code(sc->want[3])));
            if (sc->want_pixels)
               memcpy(want, sc->want_pixels, sizeof(want));
            const uint32_t *got = t.readback.map;
            for (unsigned i = 0; i < GW * GH && !ctx.is_vkppu && sc->open == OPEN_ALPHA; i++)
               want[i] = (want[i] & 0xffffffu) | (got[i] & 0xff000000u);
            CHECK(gtu_check(&t, want, 1, sc->fs) == 0);
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

/* The resolve of f(sample position) over the four standard positions. */
static float sample_mean(float (*f)(float, float))
{
   float sum = 0;
   for (unsigned s = 0; s < 4; s++)
      sum += f((float)SAMPLE_POS[s][0] / SUB, (float)SAMPLE_POS[s][1] / SUB);
   return sum / 4.0f;
}
static float square_x(float x, float y)
{
   (void)y;
   return x * x;
}
static float square_y(float x, float y)
{
   (void)x;
   return y * y;
}

/* Sample shading (sampleRateShading) over a triangle that covers every
 * sample, whose colour varying is the window position (its fraction is the
 * position inside the pixel): gl_SampleID and gl_SamplePosition and
 * `sample` inputs run the shader per sample by themselves, a plain shader
 * does with minSampleShading 1.0 (gl_SampleMaskIn then holds one sample);
 * each pixel resolves to the mean of its four samples' colours.
 * interpolateAtSample / AtOffset / AtCentroid evaluate the varying at sample
 * 3's standard position, at the centre plus an offset, and at the centroid
 * of a fully covered pixel. */
TEST_CASE(sample_shading_runs_the_fragment_shader_per_sample)
{
   const float sx2 = sample_mean(square_x), sy2 = sample_mean(square_y);
   const float x3 = (float)SAMPLE_POS[3][0] / SUB, y3 = (float)SAMPLE_POS[3][1] / SUB;
   const struct shading_case cases[] = {
       {"gfx_ss_sample_id.frag", VK_FALSE, 0, {0.25f, 0.25f, 0.25f, 0.25f}, EXACT, NULL},
       {"gfx_ss_sample_position.frag", VK_FALSE, 0, {sx2, sy2, 0, 1}, EXACT, NULL},
       {"gfx_ss_sample_in.frag", VK_FALSE, 0, {sx2, sy2, 0, 1}, EXACT, NULL},
       {"gfx_ss_mask_in.frag", VK_TRUE, 1.0f, {0.25f, 0.25f, 0.25f, 0.25f}, EXACT, NULL},
       {"gfx_ss_fract.frag", VK_TRUE, 1.0f, {sx2, sy2, 0, 1}, OPEN_RGBA, NULL},
       /* minSampleShading 0.25: one invocation a pixel is enough (vkppu: at
        * the centre). */
       {"gfx_ss_fract.frag", VK_TRUE, 0.25f, {0.25f, 0.25f, 0, 1}, OPEN_RGBA, NULL},
       /* Sample 3 at (x3, y3); the centre plus (-0.25, 0.125). */
       {"gfx_ss_interpolate_at.frag",
        VK_FALSE,
        0,
        {x3, y3, 0.5f * (0.25f + 0.625f), 0.5f},
        OPEN_ALPHA,
        NULL},
   };
   /* One triangle over the whole target: no pixel on an inner edge. */
   const float corner[3][2] = {{0, 0}, {2 * GW, 0}, {0, 2 * GH}};
   struct gvertex v[3];
   for (unsigned i = 0; i < 3; i++) {
      const float c[4] = {corner[i][0], corner[i][1], 0, 1};
      v[i] = gvtx(corner[i][0], corner[i][1], 0.5f, c);
   }
   check_shading_cases(v, cases, sizeof(cases) / sizeof(cases[0]));
}

/* Per-sample shading at the triangle's edges: each covered sample gets
 * gl_SampleID's one-hot colour, uncovered samples keep the blue clear, so a
 * pixel resolves to the mean of exactly those. */
TEST_CASE(sample_shading_writes_only_the_covered_samples)
{
   static uint32_t want[GW * GH];
   for (unsigned y = 0; y < GH; y++) {
      for (unsigned x = 0; x < GW; x++) {
         unsigned m = covered_samples(x, y);
         float sum[4] = {0, 0, 0, 0};
         for (unsigned s = 0; s < 4; s++) {
            for (unsigned c = 0; c < 4; c++)
               sum[c] += m >> s & 1 ? (c == s ? 1.0f : 0.0f) : BLUE[c];
         }
         want[y * GW + x] =
             gtu_rgba(code(sum[0] / 4), code(sum[1] / 4), code(sum[2] / 4), code(sum[3] / 4));
      }
   }
   const struct shading_case edges = {"gfx_ss_sample_id.frag", VK_FALSE, 0, {0}, EXACT, want};
   struct gvertex v[3];
   triangle_vertices(v, 0.5f, WHITE);
   check_shading_cases(v, &edges, 1);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
