/* Helpers of the 4x multisampling tests (test_graphics_msaa.c: rendering,
 * resolves, clears and copies; test_graphics_msaa_sampling.c: sampled 4x
 * images and sample shading).
 *
 * Expected pixels come from the standard 4x sample positions (Vulkan
 * "Standard Sample Locations"): each pixel's covered samples are counted
 * here with exact integer edge functions in 1/256 pixel (vertices are
 * multiples of 1/256, so nothing is rounded), and a resolved UNORM pixel is
 * the average of its samples within one code (implementations may round the
 * average differently). The geometry is checked to put no sample exactly on
 * an edge, so the top-left rule never decides. */
#ifndef VKPPU_MSAA_TEST_UTIL_H
#define VKPPU_MSAA_TEST_UTIL_H

#include "graphics_test_util.h"

enum { SUB = 256 }; /* units of the exact coverage computation */

/* Standard 4x sample positions in 1/256 pixel. */
static const int64_t SAMPLE_POS[4][2]
    __attribute__((unused)) = {{96, 32}, {224, 96}, {32, 160}, {160, 224}};

/* The triangle most cases draw: its edges cross pixels at every angle, so
 * pixels with 0, 1, 2, 3 and 4 covered samples all occur. */
static const int64_t TRI[3][2] __attribute__((unused)) = {{845, 538}, {7347, 2458}, {2867, 7526}};

static const float BLUE[4] __attribute__((unused)) = {0, 0, 1, 1};
static const float GREEN[4] __attribute__((unused)) = {0, 1, 0, 1};
static const float RED[4] __attribute__((unused)) = {1, 0, 0, 1};
static const float WHITE[4] __attribute__((unused)) = {1, 1, 1, 1};

static inline int64_t edge(const int64_t a[2], const int64_t b[2], int64_t px, int64_t py)
{
   return (b[0] - a[0]) * (py - a[1]) - (b[1] - a[1]) * (px - a[0]);
}

/* Bit s set when sample s of pixel (x, y) is inside TRI; fails the case if
 * a sample lies on an edge (the geometry would be ambiguous). */
static inline unsigned covered_samples(unsigned x, unsigned y)
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

static inline unsigned popcount4(unsigned m)
{
   return (m & 1) + (m >> 1 & 1) + (m >> 2 & 1) + (m >> 3 & 1);
}

static inline uint8_t code(float f)
{
   return (uint8_t)(f * 255.0f + 0.5f);
}

/* The resolve of n samples of colour `in` and 4 - n of `out`. */
static inline uint32_t mix(unsigned n, const float in[4], const float out[4])
{
   uint8_t c[4];
   for (unsigned i = 0; i < 4; i++)
      c[i] = code((n * in[i] + (4 - n) * out[i]) / 4.0f);
   return gtu_rgba(c[0], c[1], c[2], c[3]);
}

static inline void triangle_vertices(struct gvertex v[3], float z, const float c[4])
{
   for (unsigned i = 0; i < 3; i++)
      v[i] = gvtx((float)TRI[i][0] / SUB, (float)TRI[i][1] / SUB, z, c);
}

/* An image of the test's size with `samples`, and a view of `aspects`
 * (none for 0). */
static inline bool test_image_layers(struct vkt_device *dev, VkFormat format,
                                     VkSampleCountFlagBits samples, VkImageUsageFlags usage,
                                     VkImageAspectFlags aspects, uint32_t layers,
                                     struct vkt_image *out)
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

static inline bool test_image(struct vkt_device *dev, VkFormat format,
                              VkSampleCountFlagBits samples, VkImageUsageFlags usage,
                              VkImageAspectFlags aspects, struct vkt_image *out)
{
   return test_image_layers(dev, format, samples, usage, aspects, 1, out);
}

static inline bool ms_image(struct vkt_device *dev, VkFormat format, VkImageUsageFlags usage,
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
static inline bool ms_pass_create_layout(struct vkt_device *dev, VkAttachmentLoadOp load,
                                         VkFormat color_format, VkImageView color,
                                         VkImageView resolve, VkImageLayout resolve_initial,
                                         VkImageView depth, VkFormat depth_format,
                                         struct ms_pass *p)
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

static inline bool ms_pass_create(struct vkt_device *dev, VkAttachmentLoadOp load,
                                  VkImageView color, VkImageView resolve, VkImageView depth,
                                  struct ms_pass *p)
{
   return ms_pass_create_layout(dev, load, VK_FORMAT_R8G8B8A8_UNORM, color, resolve,
                                VK_IMAGE_LAYOUT_UNDEFINED, depth, VK_FORMAT_D32_SFLOAT, p);
}

static inline void ms_pass_destroy(struct vkt_device *dev, struct ms_pass *p)
{
   vkDestroyFramebuffer(dev->device, p->fb, NULL);
   vkDestroyRenderPass(dev->device, p->pass, NULL);
}

/* Begins the pass on cmd: colour cleared to c (if its load op clears),
 * depth to 1 (attachment 0 is colour; a 1x colour resolve attachment, whose
 * load op never clears, ignores its value). */
static inline void ms_begin_area(VkCommandBuffer cmd, const struct ms_pass *p, const float c[4],
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

static inline void ms_begin(VkCommandBuffer cmd, const struct ms_pass *p, const float c[4])
{
   ms_begin_area(cmd, p, c, (VkRect2D){{0, 0}, {GW, GH}});
}

static inline VkPipeline ms_pipeline(struct vkt_device *dev, VkPipelineLayout layout,
                                     VkRenderPass pass, const VkSampleMask *mask,
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
static inline void expect_triangle(uint32_t *want, unsigned mask, const float in[4],
                                   const float out[4])
{
   for (unsigned y = 0; y < GH; y++)
      for (unsigned x = 0; x < GW; x++)
         want[y * GW + x] = mix(popcount4(covered_samples(x, y) & mask), in, out);
}

/* A white triangle on a blue load-op clear, resolved at the end of the
 * subpass: each pixel is the fraction of its samples the triangle covers.
 * With pSampleMask 0b0101 only samples 0 and 2 can be covered. */

static inline void transfer_barrier(VkCommandBuffer cmd)
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

static inline void to_layout(VkCommandBuffer cmd, VkImage image, VkImageLayout from,
                             VkImageLayout to)
{
   vkt_cmd_image_barrier(cmd, image, from, to,
                         VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                         VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
}

/* The coverage case through VK_KHR_dynamic_rendering: a 4x colour
 * attachment with resolveMode AVERAGE into the 1x target, cleared blue by
 * its load op, resolved when the instance ends. */
/* The pipeline of gfx_msaa_uint.frag (the vertex colour as 8-bit integers)
 * at 4x for `pass`; VK_NULL_HANDLE (and a failed case) on error. */
static inline VkPipeline uint_pipeline(struct vkt_device *dev, VkPipelineLayout layout,
                                       VkRenderPass pass)
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
static inline void draw_uint_triangle(VkCommandBuffer cmd, const struct ms_pass *p, VkPipeline pipe,
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

#endif /* VKPPU_MSAA_TEST_UTIL_H */
