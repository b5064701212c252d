/* vkppu only: VK_KHR_performance_query over the hardware counters
 * (docs/counters.md). The counters offered are the rows of PPU_COUNTERS
 * with stable, unique UUIDs; a query around a dispatch or a fill gives that
 * work's exact event counts (read on the host and copied by a command
 * buffer alike), a query around nothing gives 0 for them, two
 * pools can be used in a primary command buffer and its secondary, a ray-query dispatch counts the
 * rays it traced, and in timing mode the cycle counters fill. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ppu/counters.h>

#include "accel_test_util.h"
#include "compute_test_util.h"
#include "ray_query_test_util.h"
#include "vk_test_context.h"

static const struct {
   const char *name, *unit;
} table[] = {
#define ROW_(id, name, unit, desc) {name, unit},
    PPU_COUNTERS(ROW_)
#undef ROW_
};
#define TABLE_ROWS (sizeof(table) / sizeof(table[0]))

#define GROUP_SIZE 64u /* local_size_x of compute_index.comp */
#define FILL_BYTES 65536u

struct rig {
   struct vkt_context ctx;
   struct vkt_device dev;
   uint32_t counter_count;
   VkPerformanceCounterKHR *counters;
   VkPerformanceCounterDescriptionKHR *descriptions;
};

/* The device with VK_KHR_performance_query, the extensions `more` (a
 * NULL-terminated list) and the features of feature_chain; skips when the
 * device lacks one of them. */
static bool rig_create_with(struct rig *r, const char *const *more, void *feature_chain)
{
   memset(r, 0, sizeof(*r));
   if (!vkt_context_create(&r->ctx))
      return false;
   const char *exts[16] = {VK_KHR_PERFORMANCE_QUERY_EXTENSION_NAME};
   uint32_t ext_count = 1;
   for (; more && more[ext_count - 1] && ext_count < 16; ext_count++)
      exts[ext_count] = more[ext_count - 1];
   for (uint32_t i = 0; i < ext_count; i++) {
      if (!vkt_has_device_extension(&r->ctx, exts[i])) {
         vkt_skip("%s does not offer %s", r->ctx.props.deviceName, exts[i]);
         vkt_context_destroy(&r->ctx);
         return false;
      }
   }
   VkPhysicalDevicePerformanceQueryFeaturesKHR features = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PERFORMANCE_QUERY_FEATURES_KHR,
       .pNext = feature_chain,
       .performanceCounterQueryPools = VK_TRUE,
       .performanceCounterMultipleQueryPools = VK_TRUE,
   };
   struct vkt_device_desc desc = {
       .extensions = exts, .extension_count = ext_count, .feature_chain = &features};
   VkResult res = vkt_device_create(&r->ctx, &desc, &r->dev);
   if (res != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "vkCreateDevice -> %s", vkt_result_name(res));
      vkt_context_destroy(&r->ctx);
      return false;
   }
   VKT_CHECK(vkEnumeratePhysicalDeviceQueueFamilyPerformanceQueryCountersKHR(
       r->ctx.physical_device, r->ctx.universal_family, &r->counter_count, NULL, NULL));
   r->counters = calloc(r->counter_count, sizeof(*r->counters));
   r->descriptions = calloc(r->counter_count, sizeof(*r->descriptions));
   for (uint32_t i = 0; i < r->counter_count; i++) {
      r->counters[i].sType = VK_STRUCTURE_TYPE_PERFORMANCE_COUNTER_KHR;
      r->descriptions[i].sType = VK_STRUCTURE_TYPE_PERFORMANCE_COUNTER_DESCRIPTION_KHR;
   }
   VKT_CHECK(vkEnumeratePhysicalDeviceQueueFamilyPerformanceQueryCountersKHR(
       r->ctx.physical_device, r->ctx.universal_family, &r->counter_count, r->counters,
       r->descriptions));
   VkAcquireProfilingLockInfoKHR lock = {
       .sType = VK_STRUCTURE_TYPE_ACQUIRE_PROFILING_LOCK_INFO_KHR,
       .timeout = VKT_WAIT_TIMEOUT_NS,
   };
   /* Command buffers with performance queries are recorded while the lock
    * is held (VUID-vkBeginCommandBuffer-... of VK_KHR_performance_query). */
   VKT_CHECK(vkAcquireProfilingLockKHR(r->dev.device, &lock));
   return true;
}

static bool rig_create(struct rig *r)
{
   return rig_create_with(r, NULL, NULL);
}

static void rig_destroy(struct rig *r)
{
   vkReleaseProfilingLockKHR(r->dev.device);
   free(r->counters);
   free(r->descriptions);
   vkt_teardown(&r->ctx, &r->dev);
}

/* The index of the counter called `name` in what the driver enumerates. */
static uint32_t counter_index(const struct rig *r, const char *name)
{
   for (uint32_t i = 0; i < r->counter_count; i++) {
      if (strcmp(r->descriptions[i].name, name) == 0)
         return i;
   }
   test_fail(__FILE__, __LINE__, "no counter named %s", name);
   return 0;
}

static VkQueryPool pool_create(struct rig *r, const uint32_t *indices, uint32_t count,
                               uint32_t queries)
{
   VkQueryPoolPerformanceCreateInfoKHR perf = {
       .sType = VK_STRUCTURE_TYPE_QUERY_POOL_PERFORMANCE_CREATE_INFO_KHR,
       .queueFamilyIndex = r->ctx.universal_family,
       .counterIndexCount = count,
       .pCounterIndices = indices,
   };
   uint32_t passes = 0;
   vkGetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR(r->ctx.physical_device, &perf, &passes);
   CHECK_EQ_U64(passes, 1);
   VkQueryPoolCreateInfo ci = {
       .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
       .pNext = &perf,
       .queryType = VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR,
       .queryCount = queries,
   };
   VkQueryPool pool = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateQueryPool(r->dev.device, &ci, NULL, &pool));
   return pool;
}

/* Resets queries [0, count) of each pool in a submission of its own: a
 * performance query may not be reset in the command buffer that begins it
 * (VUID-vkCmdBeginQuery-None-02863). */
static void reset_pools(struct rig *r, const VkQueryPool *pools, uint32_t n, uint32_t count)
{
   VkCommandBuffer cmd = vkt_cmd_begin(&r->dev, r->ctx.universal_family);
   for (uint32_t i = 0; i < n; i++)
      vkCmdResetQueryPool(cmd, pools[i], 0, count);
   VKT_CHECK(vkt_cmd_submit_wait(&r->dev, r->ctx.universal_family, 0, cmd));
}

TEST_CASE(counters_are_the_hardware_table_with_stable_unique_uuids)
{
   struct rig r;
   if (!rig_create(&r))
      return;
   CHECK_EQ_U64(r.counter_count, TABLE_ROWS);
   for (uint32_t i = 0; i < r.counter_count && i < TABLE_ROWS; i++) {
      const VkPerformanceCounterKHR *c = &r.counters[i];
      const VkPerformanceCounterDescriptionKHR *d = &r.descriptions[i];
      CHECK_MSG(strcmp(d->name, table[i].name) == 0, "counter %u is %s, the table says %s", i,
                d->name, table[i].name);
      CHECK(strncmp(d->name, d->category, strlen(d->category)) == 0);
      CHECK(d->name[strlen(d->category)] == '.');
      CHECK(d->description[0] != 0);
      CHECK(d->flags & VK_PERFORMANCE_COUNTER_DESCRIPTION_CONCURRENTLY_IMPACTED_BIT_KHR);
      CHECK_EQ_U64(c->storage, VK_PERFORMANCE_COUNTER_STORAGE_UINT64_KHR);
      CHECK_EQ_U64(c->scope, VK_PERFORMANCE_COUNTER_SCOPE_COMMAND_KHR);
      VkPerformanceCounterUnitKHR unit =
          strcmp(table[i].unit, "cycles") == 0  ? VK_PERFORMANCE_COUNTER_UNIT_CYCLES_KHR
          : strcmp(table[i].unit, "bytes") == 0 ? VK_PERFORMANCE_COUNTER_UNIT_BYTES_KHR
                                                : VK_PERFORMANCE_COUNTER_UNIT_GENERIC_KHR;
      CHECK_MSG(c->unit == unit, "%s: unit %d for \"%s\"", d->name, (int)c->unit, table[i].unit);
      for (uint32_t j = 0; j < i; j++)
         CHECK_MSG(memcmp(c->uuid, r.counters[j].uuid, VK_UUID_SIZE) != 0, "%s and %s share a UUID",
                   d->name, r.descriptions[j].name);
   }
   /* Stable: the UUID is a hash of the name, the same in every build. */
   static const uint8_t workgroups_uuid[VK_UUID_SIZE] = {0x69, 0x3e, 0x1b, 0x61, 0x10, 0x9d,
                                                         0x88, 0x0c, 0x9c, 0x10, 0x2e, 0xa3,
                                                         0xa6, 0xa6, 0x97, 0x0c};
   CHECK(memcmp(r.counters[counter_index(&r, "compute.workgroups")].uuid, workgroups_uuid,
                VK_UUID_SIZE) == 0);

   /* A short array: VK_INCOMPLETE, the first entries filled. */
   uint32_t two = 2;
   VkPerformanceCounterKHR c2[2] = {{.sType = VK_STRUCTURE_TYPE_PERFORMANCE_COUNTER_KHR},
                                    {.sType = VK_STRUCTURE_TYPE_PERFORMANCE_COUNTER_KHR}};
   CHECK_EQ_U64(vkEnumeratePhysicalDeviceQueueFamilyPerformanceQueryCountersKHR(
                    r.ctx.physical_device, r.ctx.universal_family, &two, c2, NULL),
                VK_INCOMPLETE);
   CHECK_EQ_U64(two, 2);
   CHECK(memcmp(c2[1].uuid, r.counters[1].uuid, VK_UUID_SIZE) == 0);

   /* Results can be copied in command buffers (run_four_queries does). */
   VkPhysicalDevicePerformanceQueryPropertiesKHR props = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PERFORMANCE_QUERY_PROPERTIES_KHR,
   };
   VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                     .pNext = &props};
   vkGetPhysicalDeviceProperties2KHR(r.ctx.physical_device, &p2);
   CHECK(props.allowCommandBufferQueryCopies);
   rig_destroy(&r);
}

/* compute_index.comp writing one word per invocation into a buffer. */
struct dispatch_rig {
   struct ctu_program program;
   VkDescriptorSet set;
   struct vkt_buffer out;
};

static bool dispatch_rig_create(struct rig *r, struct dispatch_rig *d, uint32_t max_groups)
{
   VkDescriptorSetLayoutBinding b = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                     VK_SHADER_STAGE_COMPUTE_BIT, NULL};
   if (!ctu_program_create(&r->dev, "compute_index", &b, 1, 8, 1, &d->program))
      return false;
   d->set = ctu_program_set(&r->dev, &d->program);
   VkResult res = vkt_buffer_create(&r->dev, (VkDeviceSize)max_groups * GROUP_SIZE * 4,
                                    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VKT_USAGE_TRANSFER,
                                    VKT_MEMORY_DEVICE, &d->out);
   if (res != VK_SUCCESS)
      return false;
   ctu_write_buffer(&r->dev, d->set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, d->out.buffer, 0,
                    VK_WHOLE_SIZE);
   return true;
}

static void dispatch_rig_destroy(struct rig *r, struct dispatch_rig *d)
{
   vkt_buffer_destroy(&r->dev, &d->out);
   ctu_program_destroy(&r->dev, &d->program);
}

static void dispatch(VkCommandBuffer cmd, const struct dispatch_rig *d, uint32_t groups)
{
   uint32_t push[2] = {1, 0};
   ctu_program_bind(cmd, &d->program, d->set);
   vkCmdPushConstants(cmd, d->program.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), push);
   vkCmdDispatch(cmd, groups, 1, 1);
}

enum {
   C_GRIDS,
   C_WORKGROUPS,
   C_LANE_INSTRUCTIONS,
   C_WARP_INSTRUCTIONS,
   C_GLOBAL_ACCESSES,
   C_BYTES_FILLED,
   C_TTU_RAYS,
   C_TEX_REQUESTS,
   C_CHIP_CYCLES,
   C_SM_CYCLES,
   C_COUNT
};
static const char *const chosen[C_COUNT] = {
    "compute.grids",
    "compute.workgroups",
    "compute.lane_instructions",
    "compute.warp_instructions",
    "compute.global_accesses",
    "copy.bytes_filled",
    "ttu.rays",
    "tex.requests",
    "timing.chip_cycles",
    "sm.cycles",
};

static VkQueryPool chosen_pool(struct rig *r, uint32_t queries)
{
   uint32_t indices[C_COUNT];
   for (uint32_t i = 0; i < C_COUNT; i++)
      indices[i] = counter_index(r, chosen[i]);
   return pool_create(r, indices, C_COUNT, queries);
}

/* Results of queries [0, n) of a chosen_pool, waiting for them. */
static void chosen_results(struct rig *r, VkQueryPool pool, uint32_t n,
                           VkPerformanceCounterResultKHR (*out)[C_COUNT])
{
   VKT_CHECK(vkGetQueryPoolResults(
       r->dev.device, pool, 0, n, n * C_COUNT * sizeof(VkPerformanceCounterResultKHR), out,
       C_COUNT * sizeof(VkPerformanceCounterResultKHR), VK_QUERY_RESULT_WAIT_BIT));
}

/* vkCmdCopyQueryPoolResults' stride in run_four_queries: one result set
 * and a gap word, which must stay as it was. */
#define COPY_STRIDE ((C_COUNT + 1) * sizeof(VkPerformanceCounterResultKHR))
#define GAP_SENTINEL 0x5a5a5a5a5a5a5a5aull

/* Queries: 0 around a dispatch of 5 groups, 1 around two of them, 2 around
 * nothing, 3 around a fill. A second command buffer then copies the four
 * results with vkCmdCopyQueryPoolResults, which must equal what
 * vkGetQueryPoolResults returns. */
static void run_four_queries(struct rig *r, VkPerformanceCounterResultKHR (*res)[C_COUNT])
{
   struct dispatch_rig d;
   if (!dispatch_rig_create(r, &d, 5))
      return;
   struct vkt_buffer copy;
   if (vkt_buffer_create(&r->dev, 4 * COPY_STRIDE, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &copy) !=
       VK_SUCCESS) {
      dispatch_rig_destroy(r, &d);
      return;
   }
   uint64_t *words = copy.map;
   for (size_t i = 0; i < 4 * COPY_STRIDE / 8; i++)
      words[i] = GAP_SENTINEL;
   VkQueryPool pool = chosen_pool(r, 4);
   reset_pools(r, &pool, 1, 4);
   VkCommandBuffer cmd = vkt_cmd_begin(&r->dev, r->ctx.universal_family);
   vkCmdBeginQuery(cmd, pool, 0, 0);
   dispatch(cmd, &d, 5);
   vkCmdEndQuery(cmd, pool, 0);
   vkCmdBeginQuery(cmd, pool, 1, 0);
   dispatch(cmd, &d, 5);
   dispatch(cmd, &d, 5);
   vkCmdEndQuery(cmd, pool, 1);
   vkCmdBeginQuery(cmd, pool, 2, 0);
   vkCmdEndQuery(cmd, pool, 2);
   vkCmdBeginQuery(cmd, pool, 3, 0);
   vkCmdFillBuffer(cmd, d.out.buffer, 0, FILL_BYTES < d.out.size ? FILL_BYTES : d.out.size, 7);
   vkCmdEndQuery(cmd, pool, 3);
   VKT_CHECK(vkt_cmd_submit_wait(&r->dev, r->ctx.universal_family, 0, cmd));
   /* A copy needs the queries' pass submitted before it is
    * (VUID-vkCmdCopyQueryPoolResults-queryType-03234): a submission of its own. */
   cmd = vkt_cmd_begin(&r->dev, r->ctx.universal_family);
   vkCmdCopyQueryPoolResults(cmd, pool, 0, 4, copy.buffer, 0, COPY_STRIDE,
                             VK_QUERY_RESULT_WAIT_BIT);
   vkt_cmd_transfer_to_host_barrier(cmd);
   VKT_CHECK(vkt_cmd_submit_wait(&r->dev, r->ctx.universal_family, 0, cmd));
   chosen_results(r, pool, 4, res);
   for (uint32_t q = 0; q < 4; q++) {
      const uint8_t *copied = (const uint8_t *)copy.map + q * COPY_STRIDE;
      CHECK_MSG(memcmp(copied, res[q], sizeof(res[q])) == 0,
                "query %u: vkCmdCopyQueryPoolResults differs from vkGetQueryPoolResults", q);
      CHECK_EQ_U64(words[(q * COPY_STRIDE) / 8 + C_COUNT], GAP_SENTINEL);
   }
   vkDestroyQueryPool(r->dev.device, pool, NULL);
   vkt_buffer_destroy(&r->dev, &copy);
   dispatch_rig_destroy(r, &d);
}

TEST_CASE(query_around_work_gives_its_exact_event_counts)
{
   struct rig r;
   if (!rig_create(&r))
      return;
   VkPerformanceCounterResultKHR res[4][C_COUNT];
   memset(res, 0xff, sizeof(res));
   run_four_queries(&r, res);
   const uint64_t fill = 5 * GROUP_SIZE * 4;
   printf("  one dispatch of 5 x %u invocations: %llu warp / %llu lane instructions, %llu "
          "global accesses\n",
          GROUP_SIZE, (unsigned long long)res[0][C_WARP_INSTRUCTIONS].uint64,
          (unsigned long long)res[0][C_LANE_INSTRUCTIONS].uint64,
          (unsigned long long)res[0][C_GLOBAL_ACCESSES].uint64);
   /* One dispatch of 5 workgroups of 64 invocations. */
   CHECK_EQ_U64(res[0][C_GRIDS].uint64, 1);
   CHECK_EQ_U64(res[0][C_WORKGROUPS].uint64, 5);
   CHECK(res[0][C_GLOBAL_ACCESSES].uint64 >= 5 * GROUP_SIZE); /* one store each at least */
   /* Full warps: every issued instruction has its 32 lanes active. */
   CHECK_EQ_U64(res[0][C_LANE_INSTRUCTIONS].uint64, 32 * res[0][C_WARP_INSTRUCTIONS].uint64);
   CHECK(res[0][C_LANE_INSTRUCTIONS].uint64 > 0);
   CHECK_EQ_U64(res[0][C_BYTES_FILLED].uint64, 0);
   CHECK_EQ_U64(res[0][C_TTU_RAYS].uint64, 0);
   CHECK_EQ_U64(res[0][C_TEX_REQUESTS].uint64, 0);
   /* Two of the same: exactly twice everything. */
   CHECK_EQ_U64(res[1][C_GRIDS].uint64, 2);
   CHECK_EQ_U64(res[1][C_WORKGROUPS].uint64, 10);
   CHECK_EQ_U64(res[1][C_LANE_INSTRUCTIONS].uint64, 2 * res[0][C_LANE_INSTRUCTIONS].uint64);
   CHECK_EQ_U64(res[1][C_GLOBAL_ACCESSES].uint64, 2 * res[0][C_GLOBAL_ACCESSES].uint64);
   /* Nothing: every event counter reads 0. */
   for (uint32_t c = 0; c < C_COUNT; c++)
      CHECK_MSG(res[2][c].uint64 == 0, "%s = %llu around nothing", chosen[c],
                (unsigned long long)res[2][c].uint64);
   /* A fill: its bytes, no grid. */
   CHECK_EQ_U64(res[3][C_BYTES_FILLED].uint64, fill);
   CHECK_EQ_U64(res[3][C_GRIDS].uint64, 0);
   /* Functional mode: the timing rows stay 0 (docs/counters.md). */
   CHECK_EQ_U64(res[0][C_CHIP_CYCLES].uint64, 0);
   CHECK_EQ_U64(res[0][C_SM_CYCLES].uint64, 0);
   rig_destroy(&r);
}

TEST_CASE(query_around_nothing_reads_zero_but_for_its_own_methods_and_writes)
{
   struct rig r;
   if (!rig_create(&r))
      return;
   uint32_t *all = calloc(r.counter_count, sizeof(uint32_t));
   VkPerformanceCounterResultKHR *res = calloc(r.counter_count, sizeof(*res));
   for (uint32_t i = 0; i < r.counter_count; i++)
      all[i] = i;
   VkQueryPool pool = pool_create(&r, all, r.counter_count, 1);
   reset_pools(&r, &pool, 1, 1);
   VkCommandBuffer cmd = vkt_cmd_begin(&r.dev, r.ctx.universal_family);
   vkCmdBeginQuery(cmd, pool, 0, 0);
   vkCmdEndQuery(cmd, pool, 0);
   VKT_CHECK(vkt_cmd_submit_wait(&r.dev, r.ctx.universal_family, 0, cmd));
   VKT_CHECK(vkGetQueryPoolResults(r.dev.device, pool, 0, 1, r.counter_count * sizeof(*res), res,
                                   r.counter_count * sizeof(*res), VK_QUERY_RESULT_WAIT_BIT));
   /* The end snapshot's methods and the begin snapshot's page lookups fall
    * inside the query (docs/counters.md); nothing else does. */
   for (uint32_t i = 0; i < r.counter_count; i++) {
      const char *name = r.descriptions[i].name;
      if (strncmp(name, "host.", 5) != 0 && strncmp(name, "mmu.", 4) != 0)
         CHECK_MSG(res[i].uint64 == 0, "%s = %llu around nothing", name,
                   (unsigned long long)res[i].uint64);
   }
   vkDestroyQueryPool(r.dev.device, pool, NULL);
   free(all);
   free(res);
   rig_destroy(&r);
}

TEST_CASE(query_ending_after_a_wait_is_not_ready_until_the_work_is_done)
{
   struct rig r;
   if (!rig_create(&r))
      return;
   VkQueryPool pool = chosen_pool(&r, 1);
   reset_pools(&r, &pool, 1, 1);
   VkEventCreateInfo eci = {.sType = VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
   VkEvent event = VK_NULL_HANDLE;
   VKT_REQUIRE(vkCreateEvent(r.dev.device, &eci, NULL, &event));
   /* The query ends, and the fill runs, only once the host sets the event. */
   struct vkt_buffer buf;
   VKT_REQUIRE(vkt_buffer_create(&r.dev, 4096, VKT_USAGE_TRANSFER, VKT_MEMORY_DEVICE, &buf));
   VkCommandBuffer cmd = vkt_cmd_begin(&r.dev, r.ctx.universal_family);
   vkCmdBeginQuery(cmd, pool, 0, 0);
   vkCmdWaitEvents(cmd, 1, &event, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
                   NULL, 0, NULL, 0, NULL);
   vkCmdFillBuffer(cmd, buf.buffer, 0, 4096, 3);
   vkCmdEndQuery(cmd, pool, 0);
   VKT_CHECK(vkEndCommandBuffer(cmd));
   VkFence fence = vkt_fence_create(&r.dev, false);
   VkSubmitInfo si = {
       .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd};
   VKT_CHECK(vkQueueSubmit(r.dev.queue, 1, &si, fence));
   VkPerformanceCounterResultKHR res[C_COUNT];
   memset(res, 0xab, sizeof(res));
   /* The query's one pass was recorded and submitted, as 03231 asks; the
    * validation layer counts a pass only once its submission has retired,
    * so it reports this (valid) early read. */
   static const char *const early_read[] = {"VUID-vkGetQueryPoolResults-queryType-03231", NULL};
   vkt_tolerate_begin(early_read);
   CHECK_EQ_U64(vkGetQueryPoolResults(r.dev.device, pool, 0, 1, sizeof(res), res, sizeof(res), 0),
                VK_NOT_READY);
   vkt_tolerate_end();
   CHECK_EQ_U64(res[C_BYTES_FILLED].uint64, 0xababababababababull); /* nothing written */
   VKT_CHECK(vkSetEvent(r.dev.device, event));
   VKT_CHECK(vkWaitForFences(r.dev.device, 1, &fence, VK_TRUE, VKT_WAIT_TIMEOUT_NS));
   CHECK_EQ_U64(vkGetQueryPoolResults(r.dev.device, pool, 0, 1, sizeof(res), res, sizeof(res), 0),
                VK_SUCCESS);
   CHECK_EQ_U64(res[C_BYTES_FILLED].uint64, 4096);
   CHECK_EQ_U64(res[C_GRIDS].uint64, 0);
   vkDestroyFence(r.dev.device, fence, NULL);
   vkFreeCommandBuffers(r.dev.device, r.dev.pools[r.ctx.universal_family], 1, &cmd);
   vkt_buffer_destroy(&r.dev, &buf);
   vkDestroyEvent(r.dev.device, event, NULL);
   vkDestroyQueryPool(r.dev.device, pool, NULL);
   rig_destroy(&r);
}

TEST_CASE(two_pools_in_a_primary_and_its_secondary_count_their_own_work)
{
   struct rig r;
   if (!rig_create(&r))
      return;
   struct dispatch_rig d;
   if (!dispatch_rig_create(&r, &d, 3)) {
      rig_destroy(&r);
      return;
   }
   uint32_t workgroups = counter_index(&r, "compute.workgroups");
   uint32_t filled[2] = {counter_index(&r, "copy.bytes_filled"), workgroups};
   VkQueryPool a = pool_create(&r, &workgroups, 1, 1);
   VkQueryPool b = pool_create(&r, filled, 2, 1);
   VkQueryPool both[2] = {a, b};
   reset_pools(&r, both, 2, 1);
   VkCommandBuffer cmd = vkt_cmd_begin(&r.dev, r.ctx.universal_family);
   vkCmdBeginQuery(cmd, a, 0, 0);
   dispatch(cmd, &d, 3);
   vkCmdEndQuery(cmd, a, 0);
   /* Pool b's query is recorded in a secondary command buffer. */
   VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                     .commandPool = r.dev.pools[r.ctx.universal_family],
                                     .level = VK_COMMAND_BUFFER_LEVEL_SECONDARY,
                                     .commandBufferCount = 1};
   VkCommandBuffer secondary = VK_NULL_HANDLE;
   VKT_CHECK(vkAllocateCommandBuffers(r.dev.device, &ai, &secondary));
   VkCommandBufferInheritanceInfo inheritance = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
   VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                  .pInheritanceInfo = &inheritance};
   VKT_CHECK(vkBeginCommandBuffer(secondary, &bi));
   vkCmdBeginQuery(secondary, b, 0, 0);
   vkCmdFillBuffer(secondary, d.out.buffer, 0, 256, 1);
   vkCmdEndQuery(secondary, b, 0);
   VKT_CHECK(vkEndCommandBuffer(secondary));
   vkCmdExecuteCommands(cmd, 1, &secondary);
   VKT_CHECK(vkt_cmd_submit_wait(&r.dev, r.ctx.universal_family, 0, cmd));
   vkFreeCommandBuffers(r.dev.device, r.dev.pools[r.ctx.universal_family], 1, &secondary);
   VkPerformanceCounterResultKHR ra[1], rb[2];
   VKT_CHECK(vkGetQueryPoolResults(r.dev.device, a, 0, 1, sizeof(ra), ra, sizeof(ra),
                                   VK_QUERY_RESULT_WAIT_BIT));
   VKT_CHECK(vkGetQueryPoolResults(r.dev.device, b, 0, 1, sizeof(rb), rb, sizeof(rb),
                                   VK_QUERY_RESULT_WAIT_BIT));
   CHECK_EQ_U64(ra[0].uint64, 3);
   CHECK_EQ_U64(rb[0].uint64, 256);
   CHECK_EQ_U64(rb[1].uint64, 0);
   vkDestroyQueryPool(r.dev.device, a, NULL);
   vkDestroyQueryPool(r.dev.device, b, NULL);
   dispatch_rig_destroy(&r, &d);
   rig_destroy(&r);
}

TEST_CASE(timing_mode_fills_the_cycle_counters)
{
   setenv("VKPPU_HW_CONFIG", "default,gpu.mode=timing,gpu.timing_progress=false", 1);
   struct rig r;
   bool ok = rig_create(&r);
   unsetenv("VKPPU_HW_CONFIG");
   if (!ok)
      return;
   VkPerformanceCounterResultKHR res[4][C_COUNT];
   memset(res, 0, sizeof(res));
   run_four_queries(&r, res);
   printf("  timing mode, one dispatch of 5 x %u: %llu chip cycles, %llu SM cycles\n", GROUP_SIZE,
          (unsigned long long)res[0][C_CHIP_CYCLES].uint64,
          (unsigned long long)res[0][C_SM_CYCLES].uint64);
   CHECK(res[0][C_CHIP_CYCLES].uint64 > 0);
   CHECK(res[0][C_SM_CYCLES].uint64 > 0);
   /* Events are the same in both modes. */
   CHECK_EQ_U64(res[0][C_WORKGROUPS].uint64, 5);
   CHECK_EQ_U64(res[1][C_LANE_INSTRUCTIONS].uint64, 2 * res[0][C_LANE_INSTRUCTIONS].uint64);
   CHECK_EQ_U64(res[2][C_CHIP_CYCLES].uint64, 0);
   rig_destroy(&r);
}

/* --- ray queries ------------------------------------------------------------ */

#define RAYS 64u

#define RAY_RESULT_BYTES 48u

/* One opaque triangle, (0,0,0) (1,0,0) (0,1,0), under one instance, built
 * on the device from the host-visible `inputs`. */
static bool scene_build(struct rig *r, struct vkt_buffer *inputs, struct atu_accel *blas,
                        struct atu_accel *tlas)
{
   VkPhysicalDeviceAccelerationStructurePropertiesKHR props = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_PROPERTIES_KHR};
   VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                     .pNext = &props};
   vkGetPhysicalDeviceProperties2KHR(r->ctx.physical_device, &p2);
   VkDeviceSize align = props.minAccelerationStructureScratchOffsetAlignment;
   if (vkt_buffer_create(&r->dev, 256,
                         VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_BIT_KHR |
                             VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
                         VKT_MEMORY_HOST, inputs) != VK_SUCCESS)
      return false;
   static const float vertices[3][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
   memcpy(inputs->map, vertices, sizeof(vertices));
   VkDeviceAddress base = atu_buffer_address(&r->dev, inputs->buffer);
   VkAccelerationStructureGeometryKHR tri = {
       .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR,
       .geometryType = VK_GEOMETRY_TYPE_TRIANGLES_KHR,
       .geometry.triangles =
           {
               .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_TRIANGLES_DATA_KHR,
               .vertexFormat = VK_FORMAT_R32G32B32_SFLOAT,
               .vertexData.deviceAddress = base,
               .vertexStride = sizeof(vertices[0]),
               .maxVertex = 2,
               .indexType = VK_INDEX_TYPE_NONE_KHR,
           },
       .flags = VK_GEOMETRY_OPAQUE_BIT_KHR,
   };
   const uint32_t one = 1;
   if (!atu_accel_build(&r->dev, r->ctx.universal_family, align,
                        VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR, &tri, &one, 1, blas))
      return false;
   VkAccelerationStructureInstanceKHR instance = {
       .transform = {{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}}},
       .mask = 0xff,
       .accelerationStructureReference = blas->address,
   };
   memcpy((uint8_t *)inputs->map + 128, &instance, sizeof(instance)); /* 16-byte aligned */
   VkAccelerationStructureGeometryKHR inst = {
       .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR,
       .geometryType = VK_GEOMETRY_TYPE_INSTANCES_KHR,
       .geometry.instances =
           {
               .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_INSTANCES_DATA_KHR,
               .data.deviceAddress = base + 128,
           },
   };
   return atu_accel_build(&r->dev, r->ctx.universal_family, align,
                          VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR, &inst, &one, 1, tlas);
}

TEST_CASE(ray_query_dispatch_counts_every_ray_it_traced)
{
   static const char *const more[] = {RQU_DEVICE_EXTENSIONS, NULL};
   struct rqu_features features;
   struct rig r;
   if (!rig_create_with(&r, more, rqu_features_minimal(&features)))
      return;
   struct vkt_buffer inputs = {0};
   struct atu_accel blas = {0}, tlas = {0};
   bool built = scene_build(&r, &inputs, &blas, &tlas);
   const VkDescriptorSetLayoutBinding bindings[3] = {
       {0, VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
   };
   struct ctu_program p;
   struct vkt_buffer rays, results;
   if (!built || !ctu_program_create(&r.dev, "spirv14_ray_query_trace", bindings, 3,
                                     sizeof(uint32_t), 1, &p)) {
      test_fail(__FILE__, __LINE__, "scene or program");
      atu_accel_destroy(&r.dev, &tlas);
      atu_accel_destroy(&r.dev, &blas);
      vkt_buffer_destroy(&r.dev, &inputs);
      rig_destroy(&r);
      return;
   }
   VKT_CHECK(vkt_buffer_create(&r.dev, RAYS * sizeof(struct ray),
                               VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKT_MEMORY_HOST, &rays));
   VKT_CHECK(vkt_buffer_create(&r.dev, RAYS * RAY_RESULT_BYTES, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                               VKT_MEMORY_HOST, &results));
   /* Even rays hit the triangle, odd ones pass beside it. */
   struct ray *ray = rays.map;
   for (uint32_t i = 0; i < RAYS; i++)
      ray[i] = (struct ray){.origin = {i % 2 ? 5.0f : 0.25f, 0.25f, -1},
                            .direction = {0, 0, 1},
                            .tmax = 100,
                            .flags = 0,
                            .cull_mask = 0xff};
   VkDescriptorSet set = ctu_program_set(&r.dev, &p);
   ctu_write_accel(&r.dev, set, 0, tlas.handle);
   ctu_write_buffer(&r.dev, set, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, rays.buffer, 0,
                    VK_WHOLE_SIZE);
   ctu_write_buffer(&r.dev, set, 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, results.buffer, 0,
                    VK_WHOLE_SIZE);

   enum { RAYS_STARTED, NODES, PROCEEDS, TRIANGLE_TESTS, N };
   uint32_t indices[N] = {counter_index(&r, "ttu.rays"), counter_index(&r, "ttu.node_fetches"),
                          counter_index(&r, "ttu.proceeds"),
                          counter_index(&r, "ttu.triangle_tests")};
   VkQueryPool pool = pool_create(&r, indices, N, 1);
   reset_pools(&r, &pool, 1, 1);
   VkCommandBuffer cmd = vkt_cmd_begin(&r.dev, r.ctx.universal_family);
   vkCmdBeginQuery(cmd, pool, 0, 0);
   ctu_program_bind(cmd, &p, set);
   uint32_t count = RAYS;
   vkCmdPushConstants(cmd, p.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(count), &count);
   vkCmdDispatch(cmd, RAYS / 8, 1, 1);
   vkCmdEndQuery(cmd, pool, 0);
   VKT_CHECK(vkt_cmd_submit_wait(&r.dev, r.ctx.universal_family, 0, cmd));
   VkPerformanceCounterResultKHR res[N];
   VKT_CHECK(vkGetQueryPoolResults(r.dev.device, pool, 0, 1, sizeof(res), res, sizeof(res),
                                   VK_QUERY_RESULT_WAIT_BIT));
   printf("  %u rays: %llu rays started, %llu node fetches, %llu PROCEEDs, %llu triangle tests\n",
          RAYS, (unsigned long long)res[RAYS_STARTED].uint64, (unsigned long long)res[NODES].uint64,
          (unsigned long long)res[PROCEEDS].uint64, (unsigned long long)res[TRIANGLE_TESTS].uint64);
   CHECK_EQ_U64(res[RAYS_STARTED].uint64, RAYS);
   CHECK(res[NODES].uint64 >= RAYS);
   CHECK(res[PROCEEDS].uint64 >= RAYS);           /* every ray's loop asks at least once */
   CHECK(res[TRIANGLE_TESTS].uint64 >= RAYS / 2); /* every hit tested its triangle */
   /* The shader saw what the counters say: half the rays hit. */
   uint32_t hits = 0;
   for (uint32_t i = 0; i < RAYS; i++) {
      uint32_t type;
      memcpy(&type, (const uint8_t *)results.map + i * RAY_RESULT_BYTES, sizeof(type));
      hits += type == 1;
   }
   CHECK_EQ_U64(hits, RAYS / 2);

   vkDestroyQueryPool(r.dev.device, pool, NULL);
   vkt_buffer_destroy(&r.dev, &rays);
   vkt_buffer_destroy(&r.dev, &results);
   ctu_program_destroy(&r.dev, &p);
   atu_accel_destroy(&r.dev, &tlas);
   atu_accel_destroy(&r.dev, &blas);
   vkt_buffer_destroy(&r.dev, &inputs);
   rig_destroy(&r);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
