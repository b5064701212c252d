/* Sampled 4x images and sample shading through the loader with validation
 * on (api.graphics_msaa_sampling on vkppu, lvp.graphics_msaa_sampling on
 * lavapipe): texelFetch of every sample of 4x colour, depth, stencil and
 * integer images against the exact coverage (msaa_test_util.h), and
 * fragment shaders run per sample (gl_SampleID, gl_SamplePosition, sample
 * inputs, minSampleShading, interpolateAt*). */
#include "msaa_test_util.h"

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
