/* raster_fill_rate: how fast a driver rasterizes and shades small
 * triangles. Draws N right triangles with legs of S pixels (half of them
 * the other way round, so each pair tiles an S x S square) at pseudo-random
 * pixel-corner positions of an RGBA8 target in one vkCmdDraw, R times, and
 * prints triangles/s and fragments/s of the fastest run. The fragment count
 * is exact: coverage_reference.c applies the specification's coverage rule
 * to the same triangles, and every pixel the reference covers must be
 * written (and no other): the image is checked after the runs.
 *
 *   raster_fill_rate [--width W] [--height H] [--triangles N] [--size S]
 *                    [--repeat R] [--output FILE.png] [--validate]
 *
 * Exit status: 0 done and the coverage matched, 1 failure or mismatch, 2
 * bad command line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coverage_reference.h"
#include "png_write.h"
#include "vk_sample_device.h"
#include "vk_sample_graphics.h"

#define TAG "raster_fill_rate"
#define CHECK_VK(call) VK_SAMPLE_CHECK(TAG, call)

struct options {
   uint32_t width, height, triangles, size, repeat;
   const char *output;
   bool validate;
};

struct target {
   VkImage image;
   VkDeviceMemory memory;
   VkImageView view;
   VkRenderPass render_pass;
   VkFramebuffer framebuffer;
   VkPipelineLayout layout;
   VkPipeline pipeline;
};

/* The triangles, as float pixel positions for the vertex buffer and as
 * integers for the reference. A fixed linear congruential sequence keeps
 * runs comparable. */
static struct coverage_triangle *make_triangles(const struct options *o, float *vertices)
{
   struct coverage_triangle *t = calloc(o->triangles, sizeof(*t));
   if (!t)
      return NULL;
   uint64_t state = 12345;
   int32_t s = (int32_t)o->size;
   for (uint32_t i = 0; i < o->triangles; i++) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      int32_t x = (int32_t)((state >> 33) % (o->width - o->size + 1));
      int32_t y = (int32_t)((state >> 13) % (o->height - o->size + 1));
      struct coverage_triangle *c = &t[i];
      if (i % 2 == 0)
         *c = (struct coverage_triangle){{x, x + s, x}, {y, y, y + s}};
      else
         *c = (struct coverage_triangle){{x + s, x, x + s}, {y + s, y + s, y}};
      for (int v = 0; v < 3; v++) {
         vertices[6 * i + 2 * v] = (float)c->x[v];
         vertices[6 * i + 2 * v + 1] = (float)c->y[v];
      }
   }
   return t;
}

static VkResult create_target(struct vk_sample_device *d, const struct options *o, struct target *t)
{
   const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
   VkImageCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                            .imageType = VK_IMAGE_TYPE_2D,
                            .format = format,
                            .extent = {o->width, o->height, 1},
                            .mipLevels = 1,
                            .arrayLayers = 1,
                            .samples = VK_SAMPLE_COUNT_1_BIT,
                            .tiling = VK_IMAGE_TILING_OPTIMAL,
                            .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                                     VK_IMAGE_USAGE_TRANSFER_SRC_BIT};
   CHECK_VK(vkCreateImage(d->device, &ici, NULL, &t->image));
   VkMemoryRequirements req;
   vkGetImageMemoryRequirements(d->device, t->image, &req);
   VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = req.size,
                               .memoryTypeIndex =
                                   vk_sample_memory_type(&d->memory, req.memoryTypeBits, 0)};
   CHECK_VK(vkAllocateMemory(d->device, &mai, NULL, &t->memory));
   CHECK_VK(vkBindImageMemory(d->device, t->image, t->memory, 0));
   VkImageViewCreateInfo vci = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                .image = t->image,
                                .viewType = VK_IMAGE_VIEW_TYPE_2D,
                                .format = format,
                                .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
   CHECK_VK(vkCreateImageView(d->device, &vci, NULL, &t->view));
   VkAttachmentDescription color = {.format = format,
                                    .samples = VK_SAMPLE_COUNT_1_BIT,
                                    .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                    .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
                                    .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                    .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                    .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
                                    .finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL};
   VkAttachmentReference ref = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
   VkSubpassDescription subpass = {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
                                   .colorAttachmentCount = 1,
                                   .pColorAttachments = &ref};
   /* The copy after the pass reads what the pass wrote. */
   VkSubpassDependency after = {.srcSubpass = 0,
                                .dstSubpass = VK_SUBPASS_EXTERNAL,
                                .srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                                .dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT,
                                .srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                                .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT};
   VkRenderPassCreateInfo rpci = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
                                  .attachmentCount = 1,
                                  .pAttachments = &color,
                                  .subpassCount = 1,
                                  .pSubpasses = &subpass,
                                  .dependencyCount = 1,
                                  .pDependencies = &after};
   CHECK_VK(vkCreateRenderPass(d->device, &rpci, NULL, &t->render_pass));
   VkFramebufferCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
                                  .renderPass = t->render_pass,
                                  .attachmentCount = 1,
                                  .pAttachments = &t->view,
                                  .width = o->width,
                                  .height = o->height,
                                  .layers = 1};
   CHECK_VK(vkCreateFramebuffer(d->device, &fci, NULL, &t->framebuffer));
   return VK_SUCCESS;
}

static VkResult create_pipeline(struct vk_sample_device *d, struct target *t)
{
   VkPushConstantRange range = {VK_SHADER_STAGE_VERTEX_BIT, 0, 2 * sizeof(float)};
   VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                      .pushConstantRangeCount = 1,
                                      .pPushConstantRanges = &range};
   CHECK_VK(vkCreatePipelineLayout(d->device, &plci, NULL, &t->layout));
   const struct vk_sample_graphics_desc desc = {.vertex_spv = FILL_VERT_SPV,
                                                .fragment_spv = FILL_FRAG_SPV,
                                                .position_format = VK_FORMAT_R32G32_SFLOAT,
                                                .vertex_stride = 2 * sizeof(float),
                                                .layout = t->layout,
                                                .render_pass = t->render_pass};
   return vk_sample_graphics_pipeline_create(d->device, TAG, &desc, &t->pipeline);
}

static void destroy_target(struct vk_sample_device *d, struct target *t)
{
   vkDestroyPipeline(d->device, t->pipeline, NULL);
   vkDestroyPipelineLayout(d->device, t->layout, NULL);
   vkDestroyFramebuffer(d->device, t->framebuffer, NULL);
   vkDestroyRenderPass(d->device, t->render_pass, NULL);
   vkDestroyImageView(d->device, t->view, NULL);
   vkDestroyImage(d->device, t->image, NULL);
   vkFreeMemory(d->device, t->memory, NULL);
}

/* One run: clear, draw every triangle, copy the image to readback. */
static VkResult draw(struct vk_sample_device *d, const struct options *o, struct target *t,
                     const struct vk_sample_buffer *vertices,
                     const struct vk_sample_buffer *readback, double *seconds)
{
   VkCommandBuffer cmd;
   CHECK_VK(vk_sample_commands_begin(d, &cmd));
   VkClearValue clear = {.color = {{0, 0, 0, 0}}};
   VkRenderPassBeginInfo rpbi = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
                                 .renderPass = t->render_pass,
                                 .framebuffer = t->framebuffer,
                                 .renderArea = {{0, 0}, {o->width, o->height}},
                                 .clearValueCount = 1,
                                 .pClearValues = &clear};
   vkCmdBeginRenderPass(cmd, &rpbi, VK_SUBPASS_CONTENTS_INLINE);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, t->pipeline);
   VkViewport viewport = {0, 0, (float)o->width, (float)o->height, 0, 1};
   VkRect2D scissor = {{0, 0}, {o->width, o->height}};
   vkCmdSetViewport(cmd, 0, 1, &viewport);
   vkCmdSetScissor(cmd, 0, 1, &scissor);
   float size[2] = {(float)o->width, (float)o->height};
   vkCmdPushConstants(cmd, t->layout, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(size), size);
   VkDeviceSize offset = 0;
   vkCmdBindVertexBuffers(cmd, 0, 1, &vertices->buffer, &offset);
   vkCmdDraw(cmd, 3 * o->triangles, 1, 0, 0);
   vkCmdEndRenderPass(cmd);
   VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                               .imageExtent = {o->width, o->height, 1}};
   vkCmdCopyImageToBuffer(cmd, t->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback->buffer, 1,
                          &region);
   VkMemoryBarrier host = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                           .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                           .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                        &host, 0, NULL, 0, NULL);
   return vk_sample_commands_submit(d, cmd, seconds);
}

/* Pixels written (not black) against the pixels the reference covers. */
static uint64_t coverage_mismatches(const struct options *o, const uint8_t *rgba,
                                    const uint32_t *count)
{
   uint64_t wrong = 0;
   for (uint64_t p = 0; p < (uint64_t)o->width * o->height; p++) {
      bool written = rgba[4 * p] | rgba[4 * p + 1] | rgba[4 * p + 2];
      if (written != (count[p] > 0)) {
         if (wrong < 5)
            fprintf(stderr, TAG ": pixel (%llu, %llu): %s, the reference covers it %u times\n",
                    (unsigned long long)(p % o->width), (unsigned long long)(p / o->width),
                    written ? "written" : "not written", count[p]);
         wrong++;
      }
   }
   return wrong;
}

static int run(const struct options *o)
{
   struct vk_sample_device d;
   if (vk_sample_device_create(&d, TAG, o->validate) != VK_SUCCESS)
      return 1;
   VkQueueFamilyProperties families[16];
   uint32_t nf = 16;
   vkGetPhysicalDeviceQueueFamilyProperties(d.physical_device, &nf, families);
   int status = 1;
   struct target t = {0};
   struct vk_sample_buffer vertices = {0}, readback = {0};
   struct coverage_triangle *tris = NULL;
   uint32_t *count = calloc((size_t)o->width * o->height, sizeof(*count));
   if (!(families[d.family].queueFlags & VK_QUEUE_GRAPHICS_BIT)) {
      fprintf(stderr, TAG ": %s's queue family %u cannot draw\n", d.device_name, d.family);
      goto done;
   }
   if (!count ||
       vk_sample_buffer_create(&d, (VkDeviceSize)o->triangles * 6 * sizeof(float),
                               VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vertices) ||
       vk_sample_buffer_create(&d, (VkDeviceSize)o->width * o->height * 4,
                               VK_BUFFER_USAGE_TRANSFER_DST_BIT, &readback) ||
       create_target(&d, o, &t) || create_pipeline(&d, &t))
      goto done;
   tris = make_triangles(o, vertices.map);
   if (!tris)
      goto done;
   uint64_t fragments = 0;
   for (uint32_t i = 0; i < o->triangles; i++)
      fragments += coverage_add(&tris[i], o->width, o->height, count);
   double best = 0;
   for (uint32_t r = 0; r < o->repeat; r++) {
      double seconds = 0;
      if (draw(&d, o, &t, &vertices, &readback, &seconds) != VK_SUCCESS)
         goto done;
      best = r == 0 || seconds < best ? seconds : best;
   }
   uint64_t wrong = coverage_mismatches(o, readback.map, count);
   printf(TAG ": %s: %u triangles of %ux%u pixels (legs), %llu fragments, %ux%u RGBA8\n",
          d.device_name, o->triangles, o->size, o->size, (unsigned long long)fragments, o->width,
          o->height);
   printf(TAG ": best of %u: %.3f ms: %.3f M triangles/s, %.3f M fragments/s\n", o->repeat,
          best * 1e3, o->triangles / best * 1e-6, (double)fragments / best * 1e-6);
   printf(TAG ": coverage against the specification's rule: %llu pixel%s wrong\n",
          (unsigned long long)wrong, wrong == 1 ? "" : "s");
   status = wrong ? 1 : 0;
   if (o->output && !png_rgba_write(o->output, readback.map, o->width, o->height))
      status = 1;
   else if (o->output)
      printf(TAG ": wrote %s\n", o->output);
done:
   free(tris);
   free(count);
   if (d.device) {
      destroy_target(&d, &t);
      vk_sample_buffer_destroy(&d, &vertices);
      vk_sample_buffer_destroy(&d, &readback);
   }
   if (d.inst.error_messages) {
      fprintf(stderr, TAG ": %u validation error messages\n", d.inst.error_messages);
      status = 1;
   }
   vk_sample_device_destroy(&d);
   return status;
}

static bool parse(int argc, char **argv, struct options *o)
{
   *o = (struct options){.width = 512, .height = 512, .triangles = 20000, .size = 8, .repeat = 3};
   for (int i = 1; i < argc; i++) {
      const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "";
      bool ok = true;
      if (!strcmp(a, "--validate")) {
         o->validate = true;
         continue;
      }
      if (!strcmp(a, "--width"))
         ok = vk_sample_parse_u32(v, 1, 8192, &o->width);
      else if (!strcmp(a, "--height"))
         ok = vk_sample_parse_u32(v, 1, 8192, &o->height);
      else if (!strcmp(a, "--triangles"))
         ok = vk_sample_parse_u32(v, 1, 10000000, &o->triangles);
      else if (!strcmp(a, "--size"))
         ok = vk_sample_parse_u32(v, 1, 8192, &o->size);
      else if (!strcmp(a, "--repeat"))
         ok = vk_sample_parse_u32(v, 1, 1000, &o->repeat);
      else if (!strcmp(a, "--output"))
         o->output = v;
      else
         ok = false;
      if (!ok || !*v) {
         fprintf(stderr, "usage: " TAG " [--width W] [--height H] [--triangles N] [--size S] "
                         "[--repeat R] [--output FILE.png] [--validate]\n");
         return false;
      }
      i++;
   }
   if (o->size > o->width || o->size > o->height) {
      fprintf(stderr, TAG ": --size must fit in the target\n");
      return false;
   }
   return true;
}

int main(int argc, char **argv)
{
   struct options o;
   if (!parse(argc, argv, &o))
      return 2;
   return run(&o);
}
