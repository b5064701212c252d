/* ppu_microbench: load latency per memory level (L1, L2, DRAM) by pointer
 * chase, DRAM read bandwidth, shared-memory latency with and without bank
 * conflicts and the FP32 FMA latency, measured through plain Vulkan compute with
 * VK_KHR_performance_query's `timing.chip_cycles` (vkppu in timing mode,
 * docs/timing.md: VKPPU_HW_CONFIG=desktop,gpu.mode=timing). It prints one
 * table row per metric with the model's figure; docs/timing.md compares
 * them with published Turing measurements.
 *
 *   ppu_microbench [--l1-kib N] [--l2-kib N] [--dram-mib N] [--steps N]
 *                  [--stream-mib N] [--check]
 *
 * Latency: a chain of indices, one per 128-byte line, in a random cycle
 * over a footprint sized for the level (smaller than the L1; larger than
 * the L1 but smaller than the L2; larger than the L2). Two dispatches from
 * the same state differ only in `steps` more links, so their difference in
 * cycles over `steps` is the cost of one dependent load at that level
 * (launch and warm-up cancel): a warm-up dispatch fills the L2 first for
 * the L1 and L2 chains (every grid starts with an empty L1), the DRAM chain
 * runs on lines nothing has read. The cost includes the loop's instructions
 * between two loads, as the published chases' does.
 *
 * Bandwidth: grids that read lines nothing has read once, in coalesced
 * 16-byte words; the difference of two sizes (stream_bandwidth).
 *
 * Shared memory and FMA: one dispatch's dependent chains (shared loads
 * that stay on one word per lane, 32 lanes on 32 banks or on one bank;
 * FMAs), the same difference of two lengths.
 *
 * --check: exit 1 unless L1 < L2 < DRAM latency, the bandwidth is positive
 * and a bank conflict costs more than none (tests/timing). Without the extension or the counter
 * (another driver, or vkppu in functional mode, where timing counters read 0) it exits 77. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vk_sample.h"
#include "vk_sample_device.h"

#define TAG "ppu_microbench"
#define LINE_WORDS 32u    /* 128-byte lines of 32-bit indices */
#define STREAM_GROUP 256u /* local_size_x of shaders/stream.comp */
#define STREAM_GROUPS 1024u
/* Bytes a stream grid reads per iteration: a 16-byte word per invocation. */
#define STREAM_BYTES_PER_ITERATION (STREAM_GROUPS * STREAM_GROUP * 16u)

enum { C_CYCLES, C_L1_HITS, C_L2_HITS, C_DRAM_BYTES, C_COUNT };
static const char *const counter_names[C_COUNT] = {"timing.chip_cycles", "l1.hits", "l2.hits",
                                                   "dram.bytes_read"};

struct options {
   uint32_t l1_kib, l2_kib, dram_mib, steps, stream_mib;
   bool check;
};

struct bench {
   struct vk_sample_device dev;
   VkQueryPool pool;
   struct vk_sample_buffer data, sink;
   struct vk_sample_compute_pipeline chase, stream, shared_chase, fma_chain;
};

/* Counter deltas of one dispatch. */
struct sample {
   uint64_t v[C_COUNT];
};

static bool parse_options(int argc, char **argv, struct options *o)
{
   *o = (struct options){8, 1024, 64, 1024, 96, false};
   for (int i = 1; i < argc; i++) {
      const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
      bool ok = v != NULL;
      if (!strcmp(a, "--check")) {
         o->check = true;
         continue;
      } else if (!strcmp(a, "--l1-kib") && v) {
         ok = vk_sample_parse_u32(v, 1, 1 << 20, &o->l1_kib);
      } else if (!strcmp(a, "--l2-kib") && v) {
         ok = vk_sample_parse_u32(v, 1, 1 << 20, &o->l2_kib);
      } else if (!strcmp(a, "--dram-mib") && v) {
         ok = vk_sample_parse_u32(v, 1, 1024, &o->dram_mib);
      } else if (!strcmp(a, "--steps") && v) {
         ok = vk_sample_parse_u32(v, 1, 1 << 20, &o->steps);
      } else if (!strcmp(a, "--stream-mib") && v) {
         ok = vk_sample_parse_u32(v, 12, 1536, &o->stream_mib);
      } else {
         ok = false;
      }
      if (!ok) {
         fprintf(stderr,
                 "usage: %s [--l1-kib N] [--l2-kib N] [--dram-mib N] [--steps N] "
                 "[--stream-mib N] [--check]\n",
                 argv[0]);
         return false;
      }
      i++;
   }
   return true;
}

/* The pool of the four counters; VK_ERROR_FEATURE_NOT_PRESENT when the
 * driver has no such counters. */
static VkResult pool_create(struct bench *b)
{
   struct vk_sample_device *d = &b->dev;
   uint32_t n = 0;
   VK_SAMPLE_CHECK(TAG, vkEnumeratePhysicalDeviceQueueFamilyPerformanceQueryCountersKHR(
                            d->physical_device, d->family, &n, NULL, NULL));
   VkPerformanceCounterKHR *counters = calloc(n ? n : 1, sizeof(*counters));
   VkPerformanceCounterDescriptionKHR *desc = calloc(n ? n : 1, sizeof(*desc));
   if (!counters || !desc) {
      free(counters);
      free(desc);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   for (uint32_t i = 0; i < n; i++) {
      counters[i].sType = VK_STRUCTURE_TYPE_PERFORMANCE_COUNTER_KHR;
      desc[i].sType = VK_STRUCTURE_TYPE_PERFORMANCE_COUNTER_DESCRIPTION_KHR;
   }
   VkResult r = vkEnumeratePhysicalDeviceQueueFamilyPerformanceQueryCountersKHR(
       d->physical_device, d->family, &n, counters, desc);
   uint32_t index[C_COUNT];
   for (uint32_t c = 0; c < C_COUNT && r == VK_SUCCESS; c++) {
      index[c] = UINT32_MAX;
      for (uint32_t i = 0; i < n; i++)
         if (!strcmp(desc[i].name, counter_names[c]))
            index[c] = i;
      if (index[c] == UINT32_MAX) {
         fprintf(stderr, "%s: the driver has no counter %s\n", TAG, counter_names[c]);
         r = VK_ERROR_FEATURE_NOT_PRESENT;
      }
   }
   free(counters);
   free(desc);
   if (r != VK_SUCCESS)
      return r;
   VkQueryPoolPerformanceCreateInfoKHR perf = {
       .sType = VK_STRUCTURE_TYPE_QUERY_POOL_PERFORMANCE_CREATE_INFO_KHR,
       .queueFamilyIndex = d->family,
       .counterIndexCount = C_COUNT,
       .pCounterIndices = index,
   };
   VkQueryPoolCreateInfo ci = {
       .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
       .pNext = &perf,
       .queryType = VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR,
       .queryCount = 1,
   };
   VK_SAMPLE_CHECK(TAG, vkCreateQueryPool(d->device, &ci, NULL, &b->pool));
   /* Command buffers with performance queries are recorded under the lock. */
   VkAcquireProfilingLockInfoKHR lock = {
       .sType = VK_STRUCTURE_TYPE_ACQUIRE_PROFILING_LOCK_INFO_KHR,
       .timeout = UINT64_MAX,
   };
   VK_SAMPLE_CHECK(TAG, vkAcquireProfilingLockKHR(d->device, &lock));
   return VK_SUCCESS;
}

/* One dispatch of p with its push constants between a query's begin and
 * end; *out gets the counters' deltas. */
static VkResult measure(struct bench *b, const struct vk_sample_compute_pipeline *p,
                        const uint32_t push[2], uint32_t groups, struct sample *out)
{
   struct vk_sample_device *d = &b->dev;
   VkCommandBuffer cmd;
   /* The reset in a submission of its own, before the one that uses it. */
   VK_SAMPLE_CHECK(TAG, vk_sample_commands_begin(d, &cmd));
   vkCmdResetQueryPool(cmd, b->pool, 0, 1);
   VK_SAMPLE_CHECK(TAG, vk_sample_commands_submit(d, cmd, NULL));
   VK_SAMPLE_CHECK(TAG, vk_sample_commands_begin(d, &cmd));
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->pipeline);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->layout, 0, 1, &p->set, 0, NULL);
   vkCmdPushConstants(cmd, p->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 2 * sizeof(uint32_t), push);
   vkCmdBeginQuery(cmd, b->pool, 0, 0);
   vkCmdDispatch(cmd, groups, 1, 1);
   vkCmdEndQuery(cmd, b->pool, 0);
   VK_SAMPLE_CHECK(TAG, vk_sample_commands_submit(d, cmd, NULL));
   VkPerformanceCounterResultKHR res[C_COUNT];
   VK_SAMPLE_CHECK(TAG, vkGetQueryPoolResults(d->device, b->pool, 0, 1, sizeof(res), res,
                                              sizeof(res), VK_QUERY_RESULT_WAIT_BIT));
   for (uint32_t c = 0; c < C_COUNT; c++)
      out->v[c] = res[c].uint64;
   if (out->v[C_CYCLES] == 0) {
      fprintf(stderr,
              "%s: timing.chip_cycles reads 0: run vkppu in timing mode "
              "(VKPPU_HW_CONFIG=desktop,gpu.mode=timing)\n",
              TAG);
      return VK_ERROR_FEATURE_NOT_PRESENT;
   }
   return VK_SUCCESS;
}

/* Writes a random cycle over the first `lines` lines of the data buffer
 * (one index per line, in the line's first word); start[k] gets the index
 * of the line at position at[k] of the cycle. */
static bool chain_write(struct bench *b, uint32_t lines, const uint32_t at[2], uint32_t start[2])
{
   uint32_t *order = malloc(lines * sizeof(*order));
   if (!order)
      return false;
   for (uint32_t i = 0; i < lines; i++)
      order[i] = i;
   uint64_t x = 0x9e3779b97f4a7c15ull; /* a fixed seed: the same chain every run */
   for (uint32_t i = lines - 1; i > 0; i--) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      uint32_t j = (uint32_t)(x % (i + 1));
      uint32_t t = order[i];
      order[i] = order[j];
      order[j] = t;
   }
   uint32_t *words = b->data.map;
   for (uint32_t i = 0; i < lines; i++)
      words[order[i] * LINE_WORDS] = order[(i + 1) % lines] * LINE_WORDS;
   for (int k = 0; k < 2; k++)
      start[k] = order[at[k] % lines] * LINE_WORDS;
   free(order);
   return true;
}

/* Cycles per operation of a one-group dispatch of p whose push constants
 * are {param, steps}: runs of base and base + steps steps (param[0] and
 * param[1]), each step `ops` operations; *extra gets the counters of the
 * difference. */
static VkResult step_cycles(struct bench *b, const struct vk_sample_compute_pipeline *p,
                            const uint32_t param[2], uint32_t base, uint32_t steps, uint32_t ops,
                            double *cycles_per_op, struct sample *extra)
{
   struct sample s0, s1;
   uint32_t push0[2] = {param[0], base}, push1[2] = {param[1], base + steps};
   VK_SAMPLE_CHECK(TAG, measure(b, p, push0, 1, &s0));
   VK_SAMPLE_CHECK(TAG, measure(b, p, push1, 1, &s1));
   *cycles_per_op = ((double)s1.v[C_CYCLES] - (double)s0.v[C_CYCLES]) / ((double)steps * ops);
   for (uint32_t c = 0; c < C_COUNT; c++)
      extra->v[c] = s1.v[c] - s0.v[c];
   return VK_SUCCESS;
}

/* Cycles per dependent load over a footprint of `lines` lines: a warm-up
 * (when warm) of one pass, then `base` links and base + steps links from
 * the same start; the DRAM chain starts its two runs at far-apart points
 * of the cycle instead, on lines nothing has read. */
static VkResult chase_latency(struct bench *b, uint32_t lines, uint32_t steps, bool warm,
                              double *cycles_per_load, struct sample *extra)
{
   uint32_t at[2] = {0, warm ? 0 : lines / 2}, start[2];
   if (!chain_write(b, lines, at, start))
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   uint32_t base = warm ? lines : 16;
   if (warm) {
      struct sample s;
      uint32_t push[2] = {start[0], lines};
      VK_SAMPLE_CHECK(TAG, measure(b, &b->chase, push, 1, &s));
   }
   return step_cycles(b, &b->chase, start, base, steps, 1, cycles_per_load, extra);
}

/* Bytes per chip cycle reading lines nobody has read: a grid reads
 * `iterations` x STREAM_BYTES_PER_ITERATION bytes, another twice that from
 * the lines after, and the difference of bytes over the difference of
 * cycles is the bandwidth (the grids' launch and their last line's
 * latency cancel). The stream pipeline's binding starts after the chains'
 * lines. */
static VkResult stream_bandwidth(struct bench *b, uint32_t iterations, double *bytes_per_cycle,
                                 struct sample *s1)
{
   struct sample s0;
   uint32_t words = STREAM_GROUPS * STREAM_GROUP * iterations;
   uint32_t first[2] = {0, iterations}, second[2] = {words, 2 * iterations};
   VK_SAMPLE_CHECK(TAG, measure(b, &b->stream, first, STREAM_GROUPS, &s0));
   VK_SAMPLE_CHECK(TAG, measure(b, &b->stream, second, STREAM_GROUPS, s1));
   double bytes = (double)STREAM_BYTES_PER_ITERATION * iterations;
   *bytes_per_cycle = bytes / ((double)s1->v[C_CYCLES] - (double)s0.v[C_CYCLES]);
   for (uint32_t c = 0; c < C_COUNT; c++)
      s1->v[c] -= s0.v[c];
   return VK_SUCCESS;
}

static VkResult pipelines_create(struct bench *b, uint64_t chase_bytes)
{
   const VkDescriptorType two[2] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                    VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
   struct vk_sample_compute_pipeline *p[4] = {&b->chase, &b->stream, &b->shared_chase,
                                              &b->fma_chain};
   const char *spv[4] = {CHASE_SPV, STREAM_SPV, SHARED_CHASE_SPV, FMA_CHAIN_SPV};
   for (int i = 0; i < 4; i++) {
      VK_SAMPLE_CHECK(TAG, vk_sample_compute_pipeline_create(b->dev.device, TAG, spv[i], two, 2,
                                                             2 * sizeof(uint32_t), p[i]));
      VkDescriptorBufferInfo info[2] = {{b->data.buffer, i == 1 ? chase_bytes : 0, VK_WHOLE_SIZE},
                                        {b->sink.buffer, 0, VK_WHOLE_SIZE}};
      VkWriteDescriptorSet w[2];
      for (uint32_t k = 0; k < 2; k++)
         w[k] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                       .dstSet = p[i]->set,
                                       .dstBinding = k,
                                       .descriptorCount = 1,
                                       .descriptorType = two[k],
                                       .pBufferInfo = &info[k]};
      vkUpdateDescriptorSets(b->dev.device, 2, w, 0, NULL);
   }
   return VK_SUCCESS;
}

static int run(struct bench *b, const struct options *o)
{
   const char *ext = VK_KHR_PERFORMANCE_QUERY_EXTENSION_NAME;
   VkPhysicalDevicePerformanceQueryFeaturesKHR features = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PERFORMANCE_QUERY_FEATURES_KHR,
       .performanceCounterQueryPools = VK_TRUE,
   };
   VkResult r =
       vk_sample_device_create_with(&b->dev, TAG, false, VK_API_VERSION_1_1, &ext, 1, &features);
   if (r == VK_ERROR_EXTENSION_NOT_PRESENT || r == VK_ERROR_FEATURE_NOT_PRESENT) {
      fprintf(stderr, "%s: the driver has no VK_KHR_performance_query\n", TAG);
      return 77;
   }
   if (r != VK_SUCCESS)
      return 1;
   r = pool_create(b);
   if (r == VK_ERROR_FEATURE_NOT_PRESENT)
      return 77;
   uint64_t chase_bytes = (uint64_t)o->dram_mib << 20;
   /* Two grids of 1 and 2 parts: the buffer holds 3 parts. */
   uint32_t iterations =
       (uint32_t)(((uint64_t)o->stream_mib << 20) / 3 / STREAM_BYTES_PER_ITERATION);
   if (iterations == 0) {
      fprintf(stderr, "%s: --stream-mib must be at least 12\n", TAG);
      return 2;
   }
   uint64_t stream_bytes = 3ull * iterations * STREAM_BYTES_PER_ITERATION;
   VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
   if (r != VK_SUCCESS ||
       vk_sample_buffer_create(&b->dev, chase_bytes + stream_bytes, usage, &b->data) ||
       vk_sample_buffer_create(&b->dev, 1 << 20, usage, &b->sink) ||
       pipelines_create(b, chase_bytes))
      return 1;
   struct {
      const char *name;
      uint32_t lines;
      bool warm;
   } level[3] = {{"L1 hit", o->l1_kib * 8, true},
                 {"L2 hit", o->l2_kib * 8, true},
                 {"DRAM", o->dram_mib * 8192, false}};
   double latency[3], bandwidth;
   printf("| metric | footprint | model (cycles) | l1.hits | l2.hits | DRAM bytes |\n"
          "| --- | ---: | ---: | ---: | ---: | ---: |\n");
   for (int i = 0; i < 3; i++) {
      struct sample s;
      r = chase_latency(b, level[i].lines, o->steps, level[i].warm, &latency[i], &s);
      if (r != VK_SUCCESS)
         return r == VK_ERROR_FEATURE_NOT_PRESENT ? 77 : 1;
      printf("| %s latency (pointer chase) | %u KiB | %.1f | %llu | %llu | %llu |\n", level[i].name,
             level[i].lines / 8, latency[i], (unsigned long long)s.v[C_L1_HITS],
             (unsigned long long)s.v[C_L2_HITS], (unsigned long long)s.v[C_DRAM_BYTES]);
   }
   struct sample s;
   if (stream_bandwidth(b, iterations, &bandwidth, &s))
      return 1;
   printf("| DRAM read bandwidth (bytes/cycle) | %u MiB | %.1f | %llu | %llu | %llu |\n",
          (unsigned)(STREAM_BYTES_PER_ITERATION * iterations >> 20), bandwidth,
          (unsigned long long)s.v[C_L1_HITS], (unsigned long long)s.v[C_L2_HITS],
          (unsigned long long)s.v[C_DRAM_BYTES]);
   /* Shared memory without and with a 32-way bank conflict, and the
    * FMA chain (a = 1.0f). */
   struct {
      const char *name;
      const struct vk_sample_compute_pipeline *p;
      uint32_t param, ops;
   } op[3] = {{"shared memory load latency, 32 banks", &b->shared_chase, 1, 1},
              {"shared memory load latency, 32-way bank conflict", &b->shared_chase, 32, 1},
              {"FP32 FMA latency (dependent chain)", &b->fma_chain, 0x3f800000u, 8}};
   double op_cycles[3];
   for (int i = 0; i < 3; i++) {
      uint32_t param[2] = {op[i].param, op[i].param};
      if (step_cycles(b, op[i].p, param, 16, o->steps, op[i].ops, &op_cycles[i], &s))
         return 1;
      /* A difference of two runs: the L2 may hold a line in one only. */
      printf("| %s | - | %.1f | %lld | %lld | %lld |\n", op[i].name, op_cycles[i],
             (long long)s.v[C_L1_HITS], (long long)s.v[C_L2_HITS], (long long)s.v[C_DRAM_BYTES]);
   }
   if (o->check &&
       !(latency[0] > 0 && latency[0] < latency[1] && latency[1] < latency[2] && bandwidth > 0 &&
         op_cycles[0] > 0 && op_cycles[1] > op_cycles[0] && op_cycles[2] > 0)) {
      fprintf(stderr,
              "%s: latencies not L1 < L2 < DRAM, no bandwidth, or a bank conflict "
              "that costs nothing\n",
              TAG);
      return 1;
   }
   return 0;
}

int main(int argc, char **argv)
{
   struct options o;
   if (!parse_options(argc, argv, &o))
      return 2;
   static struct bench b;
   int status = run(&b, &o);
   if (b.dev.device) {
      vkDeviceWaitIdle(b.dev.device);
      vk_sample_compute_pipeline_destroy(b.dev.device, &b.chase);
      vk_sample_compute_pipeline_destroy(b.dev.device, &b.stream);
      vk_sample_compute_pipeline_destroy(b.dev.device, &b.shared_chase);
      vk_sample_compute_pipeline_destroy(b.dev.device, &b.fma_chain);
      vk_sample_buffer_destroy(&b.dev, &b.data);
      vk_sample_buffer_destroy(&b.dev, &b.sink);
      if (b.pool) {
         vkReleaseProfilingLockKHR(b.dev.device);
         vkDestroyQueryPool(b.dev.device, b.pool, NULL);
      }
   }
   vk_sample_device_destroy(&b.dev);
   return status;
}
