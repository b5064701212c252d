/* Pipeline-statistics queries (pipelineStatisticsQuery): every statistic
 * of a graphics draw with known geometry (a lit rectangle, a triangle
 * outside the view volume, an indexed pair sharing vertices) and of a
 * compute dispatch, read with vkGetQueryPoolResults (64-bit, availability)
 * and with vkCmdCopyQueryPoolResults (32-bit, availability), a query that
 * never ran (VK_NOT_READY with PARTIAL), a pool of one statistic, and
 * (inheritedQueries) occlusion and statistics queries around secondary
 * command buffers. Values
 * the spec leaves to the implementation are checked against its bounds;
 * on vkppu, exactly (docs/counters.md, "Pipeline statistics"). */
#include <stdio.h>
#include <string.h>

#include "graphics_test_util.h"

static const float WHITE[4] = {1, 1, 1, 1};

enum {
   IA_VERTICES,
   IA_PRIMITIVES,
   VS_INVOCATIONS,
   GS_INVOCATIONS,
   GS_PRIMITIVES,
   CLIP_INVOCATIONS,
   CLIP_PRIMITIVES,
   FS_INVOCATIONS,
   TCS_PATCHES,
   TES_INVOCATIONS,
   CS_INVOCATIONS,
   STATISTICS
};
#define ALL_STATISTICS ((1u << STATISTICS) - 1u)

static bool setup(struct vkt_context *ctx, struct vkt_device *dev, struct gtarget *t)
{
   memset(dev, 0, sizeof(*dev));
   if (!vkt_context_create(ctx))
      return false;
   VkPhysicalDeviceFeatures have;
   vkGetPhysicalDeviceFeatures(ctx->physical_device, &have);
   if (!have.pipelineStatisticsQuery) {
      if (ctx->is_vkppu)
         CHECK_MSG(false, "vkppu does not report pipelineStatisticsQuery");
      else
         vkt_skip("pipelineStatisticsQuery not supported");
      vkt_context_destroy(ctx);
      return false;
   }
   if (!have.inheritedQueries && ctx->is_vkppu)
      CHECK_MSG(false, "vkppu does not report inheritedQueries");
   VkPhysicalDeviceFeatures want = {.pipelineStatisticsQuery = VK_TRUE,
                                    .inheritedQueries = have.inheritedQueries};
   struct vkt_device_desc desc = {.features = &want};
   /* gtu_case_begin makes its own context: this one only asked. */
   vkt_context_destroy(ctx);
   return gtu_case_begin(ctx, dev, &desc, VK_FORMAT_UNDEFINED, t);
}

static VkQueryPool statistics_pool(struct vkt_device *dev, uint32_t statistics, uint32_t count)
{
   VkQueryPoolCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                .queryType = VK_QUERY_TYPE_PIPELINE_STATISTICS,
                                .queryCount = count,
                                .pipelineStatistics = statistics};
   VkQueryPool pool = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateQueryPool(dev->device, &qci, NULL, &pool));
   return pool;
}

/* Checks one query's values (64-bit) against the draw below. */
static void check_draw_statistics(const struct vkt_context *ctx, const uint64_t *v, const char *how)
{
   /* Complete primitives: input assembly counts are exact. Draw 1: 6
    * vertices, 2 triangles; draw 2: 3 vertices, 1 triangle; draw 3: 6
    * indices over 4 vertices, 2 triangles. */
   CHECK_MSG(v[IA_VERTICES] == 15, "%s: input-assembly vertices %llu, want 15", how,
             (unsigned long long)v[IA_VERTICES]);
   CHECK_MSG(v[IA_PRIMITIVES] == 5, "%s: input-assembly primitives %llu, want 5", how,
             (unsigned long long)v[IA_PRIMITIVES]);
   /* A vertex shared by an indexed pair may run once or twice. */
   CHECK_MSG(v[VS_INVOCATIONS] >= 13 && v[VS_INVOCATIONS] <= 15,
             "%s: vertex invocations %llu, want 13..15", how,
             (unsigned long long)v[VS_INVOCATIONS]);
   CHECK_MSG(v[GS_INVOCATIONS] == 0 && v[GS_PRIMITIVES] == 0 && v[TCS_PATCHES] == 0 &&
                 v[TES_INVOCATIONS] == 0 && v[CS_INVOCATIONS] == 0,
             "%s: statistics of stages that did not run: %llu %llu %llu %llu %llu", how,
             (unsigned long long)v[GS_INVOCATIONS], (unsigned long long)v[GS_PRIMITIVES],
             (unsigned long long)v[TCS_PATCHES], (unsigned long long)v[TES_INVOCATIONS],
             (unsigned long long)v[CS_INVOCATIONS]);
   /* Clipping sees the 5 primitives (an implementation may reject the
    * outside one before clipping) and passes on at most those. */
   CHECK_MSG(v[CLIP_INVOCATIONS] >= 4 && v[CLIP_INVOCATIONS] <= 5,
             "%s: clipping invocations %llu, want 4..5", how,
             (unsigned long long)v[CLIP_INVOCATIONS]);
   CHECK_MSG(v[CLIP_PRIMITIVES] <= v[CLIP_INVOCATIONS], "%s: clipping primitives %llu of %llu", how,
             (unsigned long long)v[CLIP_PRIMITIVES], (unsigned long long)v[CLIP_INVOCATIONS]);
   /* 16x8 + 8x8 covered pixels; helper invocations may add some. */
   CHECK_MSG(v[FS_INVOCATIONS] >= 192 && v[FS_INVOCATIONS] <= 192 + 64,
             "%s: fragment invocations %llu, want 192..256", how,
             (unsigned long long)v[FS_INVOCATIONS]);
   if (ctx->is_vkppu) {
      /* A batch shades a repeated index once; helper lanes are not invocations. */
      CHECK_MSG(v[VS_INVOCATIONS] == 13 && v[CLIP_INVOCATIONS] == 5 && v[FS_INVOCATIONS] == 192,
                "%s: vkppu's counts: vertices %llu (13), clipping %llu (5), fragments %llu (192)",
                how, (unsigned long long)v[VS_INVOCATIONS], (unsigned long long)v[CLIP_INVOCATIONS],
                (unsigned long long)v[FS_INVOCATIONS]);
   }
}

/* Query 0 around three draws, query 1 around nothing (available, all 0),
 * query 2 never begun; results by the host and by the copy command. */
TEST_CASE(graphics_statistics_count_the_draws)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   struct gtarget t;
   if (!setup(&ctx, &dev, &t))
      return;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   struct gtu_pipeline_desc d = {
       .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, .layout = layout, .pass = t.pass};
   VkPipeline pipe;
   VKT_CHECK(gtu_pipeline(&dev, &d, &pipe));
   VkQueryPool pool = statistics_pool(&dev, ALL_STATISTICS, 3);
   struct gvertex v[13];
   gtu_rect(&v[0], 4, 4, 20, 12, 0.5f, WHITE);
   /* Entirely right of the view volume (x > w). */
   v[6] = gvtx(80, 4, 0.5f, WHITE);
   v[7] = gvtx(90, 4, 0.5f, WHITE);
   v[8] = gvtx(80, 12, 0.5f, WHITE);
   /* The 8x8 square at (4, 16) as two indexed triangles over 4 vertices. */
   v[9] = gvtx(4, 16, 0.5f, WHITE);
   v[10] = gvtx(12, 16, 0.5f, WHITE);
   v[11] = gvtx(4, 24, 0.5f, WHITE);
   v[12] = gvtx(12, 24, 0.5f, WHITE);
   const uint32_t indices[6] = {9, 10, 11, 11, 10, 12};
   struct vkt_buffer vb, ib, out;
   bool have_vb = gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb);
   bool have_ib = have_vb && gtu_data_buffer(&dev, indices, sizeof(indices),
                                             VK_BUFFER_USAGE_INDEX_BUFFER_BIT, &ib);
   enum { STRIDE32 = 4 * (STATISTICS + 1) };
   bool have_out = have_ib && vkt_buffer_create(&dev, 3 * STRIDE32, VKT_USAGE_TRANSFER,
                                                VKT_MEMORY_HOST, &out) == VK_SUCCESS;
   if (pipe && pool && have_out) {
      memset(out.map, 0xaa, 3 * STRIDE32);
      VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
      vkCmdResetQueryPool(cmd, pool, 0, 3);
      VkClearValue clear = {.color = {{0, 0, 0, 0}}};
      VkRenderPassBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
                                  .renderPass = t.pass,
                                  .framebuffer = t.fb,
                                  .renderArea = {{0, 0}, {GW, GH}},
                                  .clearValueCount = 1,
                                  .pClearValues = &clear};
      vkCmdBeginQuery(cmd, pool, 0, 0);
      vkCmdBeginRenderPass(cmd, &bi, VK_SUBPASS_CONTENTS_INLINE);
      gtu_bind_vertex_buffer(cmd, &vb);
      vkCmdBindIndexBuffer(cmd, ib.buffer, 0, VK_INDEX_TYPE_UINT32);
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
      vkCmdDraw(cmd, 6, 1, 0, 0);
      vkCmdDraw(cmd, 3, 1, 6, 0);
      vkCmdDrawIndexed(cmd, 6, 1, 0, 0, 0);
      vkCmdEndRenderPass(cmd);
      vkCmdEndQuery(cmd, pool, 0);
      vkCmdBeginQuery(cmd, pool, 1, 0);
      vkCmdEndQuery(cmd, pool, 1);
      vkCmdCopyQueryPoolResults(cmd, pool, 0, 2, out.buffer, 0, STRIDE32,
                                VK_QUERY_RESULT_WAIT_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
      vkCmdCopyQueryPoolResults(cmd, pool, 2, 1, out.buffer, 2 * STRIDE32, STRIDE32,
                                VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
      vkt_cmd_transfer_to_host_barrier(cmd);
      VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));

      uint64_t host[STATISTICS + 1];
      memset(host, 0xaa, sizeof(host));
      VKT_CHECK(vkGetQueryPoolResults(dev.device, pool, 0, 1, sizeof(host), host, sizeof(host),
                                      VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT |
                                          VK_QUERY_RESULT_WITH_AVAILABILITY_BIT));
      check_draw_statistics(&ctx, host, "vkGetQueryPoolResults");
      CHECK_MSG(host[STATISTICS] == 1, "availability %llu", (unsigned long long)host[STATISTICS]);

      const uint32_t *copied = out.map;
      uint64_t wide[STATISTICS];
      for (unsigned i = 0; i < STATISTICS; i++)
         wide[i] = copied[i];
      check_draw_statistics(&ctx, wide, "vkCmdCopyQueryPoolResults");
      CHECK_MSG(copied[STATISTICS] == 1, "copied availability %u", copied[STATISTICS]);
      const uint32_t *empty = copied + STATISTICS + 1;
      for (unsigned i = 0; i <= STATISTICS; i++)
         CHECK_MSG(empty[i] == (i == STATISTICS ? 1u : 0u), "empty query, word %u: %u", i,
                   empty[i]);
      /* Never begun: availability 0 and, on vkppu, no value written. */
      const uint32_t *never = empty + STATISTICS + 1;
      CHECK_MSG(never[STATISTICS] == 0, "unavailable query's availability %u", never[STATISTICS]);
      for (unsigned i = 0; ctx.is_vkppu && i < STATISTICS; i++)
         CHECK_MSG(never[i] == 0xaaaaaaaau, "unavailable query, word %u: 0x%x", i, never[i]);
      uint32_t partial[STATISTICS + 1];
      memset(partial, 0xaa, sizeof(partial));
      /* VK_NOT_READY is required only without PARTIAL; vkppu returns it anyway. */
      VkResult pr = vkGetQueryPoolResults(
          dev.device, pool, 2, 1, sizeof(partial), partial, sizeof(partial),
          VK_QUERY_RESULT_PARTIAL_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
      CHECK_MSG(pr == VK_NOT_READY || (pr == VK_SUCCESS && !ctx.is_vkppu), "partial read -> %s",
                vkt_result_name(pr));
      CHECK_MSG(partial[STATISTICS] == 0, "partial availability %u", partial[STATISTICS]);
   }
   if (have_out)
      vkt_buffer_destroy(&dev, &out);
   if (have_ib)
      vkt_buffer_destroy(&dev, &ib);
   if (have_vb)
      vkt_buffer_destroy(&dev, &vb);
   vkDestroyQueryPool(dev.device, pool, NULL);
   vkDestroyPipeline(dev.device, pipe, NULL);
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   gtu_case_end(&ctx, &dev, &t);
}

/* A pool of the compute statistic alone: 3 workgroups of 64 invocations
 * and an indirect dispatch of 2 more. */
TEST_CASE(compute_invocations_count_every_thread)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   struct gtarget t;
   if (!setup(&ctx, &dev, &t))
      return;
   const VkDescriptorSetLayoutBinding binding = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                                 VK_SHADER_STAGE_COMPUTE_BIT, NULL};
   struct ctu_program p;
   struct vkt_buffer buf, args;
   const uint32_t indirect[3] = {2, 1, 1};
   if (ctu_program_create(&dev, "compute_index", &binding, 1, 8, 1, &p) &&
       vkt_buffer_create(&dev, 5 * 64 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKT_MEMORY_HOST,
                         &buf) == VK_SUCCESS) {
      if (gtu_data_buffer(&dev, indirect, sizeof(indirect), VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                          &args)) {
         VkQueryPool pool =
             statistics_pool(&dev, VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT, 1);
         VkDescriptorSet set = ctu_program_set(&dev, &p);
         ctu_write_buffer(&dev, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, buf.buffer, 0,
                          VK_WHOLE_SIZE);
         VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
         vkCmdResetQueryPool(cmd, pool, 0, 1);
         ctu_program_bind(cmd, &p, set);
         const uint32_t pc[2] = {1, 0};
         vkCmdPushConstants(cmd, p.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(pc), pc);
         vkCmdBeginQuery(cmd, pool, 0, 0);
         vkCmdDispatch(cmd, 3, 1, 1);
         vkCmdDispatchIndirect(cmd, args.buffer, 0);
         vkCmdEndQuery(cmd, pool, 0);
         VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
         uint32_t invocations = 0;
         VKT_CHECK(vkGetQueryPoolResults(dev.device, pool, 0, 1, sizeof(invocations), &invocations,
                                         sizeof(invocations), VK_QUERY_RESULT_WAIT_BIT));
         CHECK_MSG(invocations == 5 * 64, "compute invocations %u, want 320", invocations);
         vkDestroyQueryPool(dev.device, pool, NULL);
         vkt_buffer_destroy(&dev, &args);
      }
      vkt_buffer_destroy(&dev, &buf);
   }
   ctu_program_destroy(&dev, &p);
   gtu_case_end(&ctx, &dev, &t);
}

/* inheritedQueries: an occlusion query and a statistics query active in
 * the primary count the draws of the secondary it executes. */
TEST_CASE(queries_count_the_work_of_secondary_command_buffers)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   struct gtarget t;
   if (!setup(&ctx, &dev, &t))
      return;
   VkPhysicalDeviceFeatures have;
   vkGetPhysicalDeviceFeatures(ctx.physical_device, &have);
   if (!have.inheritedQueries) {
      vkt_skip("inheritedQueries not supported");
      gtu_case_end(&ctx, &dev, &t);
      return;
   }
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   struct gtu_pipeline_desc d = {
       .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, .layout = layout, .pass = t.pass};
   VkPipeline pipe;
   VKT_CHECK(gtu_pipeline(&dev, &d, &pipe));
   const uint32_t wanted = VK_QUERY_PIPELINE_STATISTIC_VERTEX_SHADER_INVOCATIONS_BIT |
                           VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT;
   VkQueryPool stats = statistics_pool(&dev, wanted, 1);
   VkQueryPoolCreateInfo oci = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                .queryType = VK_QUERY_TYPE_OCCLUSION,
                                .queryCount = 1};
   VkQueryPool occlusion = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateQueryPool(dev.device, &oci, NULL, &occlusion));
   struct gvertex v[6];
   gtu_rect(&v[0], 4, 4, 20, 12, 0.5f, WHITE);
   struct vkt_buffer vb;
   if (pipe && stats && occlusion &&
       gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
      VkCommandBufferInheritanceInfo inh = {.sType =
                                                VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO,
                                            .renderPass = t.pass,
                                            .framebuffer = t.fb,
                                            .occlusionQueryEnable = VK_TRUE,
                                            .pipelineStatistics = wanted};
      VkCommandBuffer sec = gtu_secondary_begin(&dev, &inh);
      if (sec) {
         vkCmdBindPipeline(sec, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
         gtu_bind_vertex_buffer(sec, &vb);
         vkCmdDraw(sec, 6, 1, 0, 0);
         VKT_CHECK(vkEndCommandBuffer(sec));
         VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
         vkCmdResetQueryPool(cmd, stats, 0, 1);
         vkCmdResetQueryPool(cmd, occlusion, 0, 1);
         VkClearValue clear = {.color = {{0, 0, 0, 0}}};
         VkRenderPassBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
                                     .renderPass = t.pass,
                                     .framebuffer = t.fb,
                                     .renderArea = {{0, 0}, {GW, GH}},
                                     .clearValueCount = 1,
                                     .pClearValues = &clear};
         /* Queries may not begin inside a subpass of secondaries. */
         vkCmdBeginQuery(cmd, stats, 0, 0);
         vkCmdBeginQuery(cmd, occlusion, 0, 0);
         vkCmdBeginRenderPass(cmd, &bi, VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS);
         vkCmdExecuteCommands(cmd, 1, &sec);
         vkCmdEndRenderPass(cmd);
         vkCmdEndQuery(cmd, occlusion, 0);
         vkCmdEndQuery(cmd, stats, 0);
         VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
         uint64_t samples = 0, counts[2] = {0, 0};
         VKT_CHECK(vkGetQueryPoolResults(dev.device, occlusion, 0, 1, sizeof(samples), &samples,
                                         sizeof(samples),
                                         VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
         VKT_CHECK(vkGetQueryPoolResults(dev.device, stats, 0, 1, sizeof(counts), counts,
                                         sizeof(counts),
                                         VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
         CHECK_MSG(samples == 128, "occlusion query around the secondary: %llu samples, want 128",
                   (unsigned long long)samples);
         CHECK_MSG(counts[0] >= 4 && counts[0] <= 6 && counts[1] >= 128,
                   "statistics around the secondary: %llu vertex, %llu fragment invocations",
                   (unsigned long long)counts[0], (unsigned long long)counts[1]);
         vkFreeCommandBuffers(dev.device, dev.pools[ctx.universal_family], 1, &sec);
      }
      vkt_buffer_destroy(&dev, &vb);
   }
   vkDestroyQueryPool(dev.device, occlusion, NULL);
   vkDestroyQueryPool(dev.device, stats, NULL);
   vkDestroyPipeline(dev.device, pipe, NULL);
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   gtu_case_end(&ctx, &dev, &t);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
