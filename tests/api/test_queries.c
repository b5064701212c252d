/* Query pools: timestamps written between copies, vkGetQueryPoolResults with
 * its flags (64-bit, WAIT, WITH_AVAILABILITY, PARTIAL) and VK_NOT_READY after
 * a host reset, vkCmdCopyQueryPoolResults in 32 and 64 bits with
 * availability, and calibrated timestamps (VK_EXT_calibrated_timestamps). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vk_test_context.h"

#define SENTINEL32 0xAAAAAAAAu
#define SENTINEL64 0xAAAAAAAAAAAAAAAAull

static VkQueryPool create_pool(struct vkt_device *dev, VkQueryType type, uint32_t count)
{
   VkQueryPoolCreateInfo qci = {
       .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
       .queryType = type,
       .queryCount = count,
   };
   VkQueryPool pool = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateQueryPool(dev->device, &qci, NULL, &pool));
   return pool;
}

/* Timestamps are comparable only on a family that has them. */
static bool universal_has_timestamps(const struct vkt_context *ctx)
{
   return ctx->families[ctx->universal_family].timestampValidBits != 0;
}

static uint64_t valid_bits_mask(const struct vkt_context *ctx)
{
   uint32_t bits = ctx->families[ctx->universal_family].timestampValidBits;
   return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

/* A 32-bit result of a value that does not fit may wrap or saturate
 * (vkGetQueryPoolResults, "VK_QUERY_RESULT_64_BIT is not set"). */
static bool is_32bit_of(uint32_t v32, uint64_t v64)
{
   return v32 == (uint32_t)v64 || (v64 > UINT32_MAX && v32 == UINT32_MAX);
}

TEST_CASE(timestamps_increase_across_a_sequence_of_copies)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   if (!universal_has_timestamps(&ctx)) {
      vkt_skip("universal queue family has no timestamps");
      vkt_teardown(&ctx, &dev);
      return;
   }
   enum { STAMPS = 8 };
   const VkDeviceSize size = 8u << 20;
   struct vkt_buffer a, b;
   VKT_REQUIRE(vkt_buffer_create(&dev, size, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &a));
   VKT_REQUIRE(vkt_buffer_create(&dev, size, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &b));
   vkt_fill_random(a.map, size, 90);
   VkQueryPool pool = create_pool(&dev, VK_QUERY_TYPE_TIMESTAMP, STAMPS);
   VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
   REQUIRE(pool && cmd);
   vkCmdResetQueryPool(cmd, pool, 0, STAMPS);
   VkBufferCopy whole = {.size = size};
   for (uint32_t q = 0; q < STAMPS; q++) {
      /* Alternate the synchronization-1 and -2 commands. */
      if (q & 1)
         vkCmdWriteTimestamp2KHR(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT_KHR, pool, q);
      else
         vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, q);
      if (q + 1 < STAMPS) {
         vkCmdCopyBuffer(cmd, (q & 1) ? b.buffer : a.buffer, (q & 1) ? a.buffer : b.buffer, 1,
                         &whole);
         VkMemoryBarrier mb = {
             .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
             .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
             .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
         };
         vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                              0, 1, &mb, 0, NULL, 0, NULL);
      }
   }
   double host_start = vkt_seconds();
   VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
   double host_span = vkt_seconds() - host_start;

   uint64_t t[STAMPS];
   VKT_CHECK(vkGetQueryPoolResults(dev.device, pool, 0, STAMPS, sizeof(t), t, sizeof(t[0]),
                                   VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
   for (uint32_t q = 0; q < STAMPS; q++) {
      CHECK_MSG((t[q] & ~valid_bits_mask(&ctx)) == 0, "timestamp %u has bits beyond the valid %u",
                q, ctx.families[ctx.universal_family].timestampValidBits);
      if (q > 0)
         CHECK_MSG(t[q] >= t[q - 1], "timestamp %u (%llu) before timestamp %u (%llu)", q,
                   (unsigned long long)t[q], q - 1, (unsigned long long)t[q - 1]);
   }
   CHECK_MSG(t[STAMPS - 1] > t[0], "seven 8 MiB copies took no time");
   double gpu_span = (double)(t[STAMPS - 1] - t[0]) * ctx.props.limits.timestampPeriod * 1e-9;
   printf("  GPU span %.3f ms, host span %.3f ms\n", gpu_span * 1e3, host_span * 1e3);
   CHECK_MSG(gpu_span <= host_span * 1.05 + 0.002,
             "the GPU measured %.3f ms inside a %.3f ms host interval (timestampPeriod %.3f)",
             gpu_span * 1e3, host_span * 1e3, ctx.props.limits.timestampPeriod);

   vkDestroyQueryPool(dev.device, pool, NULL);
   vkt_buffer_destroy(&dev, &b);
   vkt_buffer_destroy(&dev, &a);
   vkt_teardown(&ctx, &dev);
}

/* Every queue family that reports timestamp bits can write timestamps, and
 * they advance across a copy on that family's queue. */
TEST_CASE(timestamps_on_every_queue_family)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   const VkDeviceSize size = 4u << 20;
   struct vkt_buffer a, b;
   VKT_REQUIRE(vkt_buffer_create(&dev, size, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &a));
   VKT_REQUIRE(vkt_buffer_create(&dev, size, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &b));
   VkQueryPool pool = create_pool(&dev, VK_QUERY_TYPE_TIMESTAMP, 2);
   REQUIRE(pool);
   for (uint32_t f = 0; f < ctx.family_count; f++) {
      if (!dev.queue_count[f] || !ctx.families[f].timestampValidBits)
         continue;
      /* vkCmdResetQueryPool needs a graphics or compute queue; the host
       * reset works for any family. */
      vkResetQueryPoolEXT(dev.device, pool, 0, 2);
      VkCommandBuffer cmd = vkt_cmd_begin(&dev, f);
      REQUIRE(cmd);
      vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool, 0);
      VkBufferCopy whole = {.size = size};
      vkCmdCopyBuffer(cmd, a.buffer, b.buffer, 1, &whole);
      vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 1);
      VKT_CHECK(vkt_cmd_submit_wait(&dev, f, dev.queue_count[f] - 1, cmd));
      uint64_t t[2] = {0, 0};
      VKT_CHECK(vkGetQueryPoolResults(dev.device, pool, 0, 2, sizeof(t), t, 8,
                                      VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
      printf("  family %u: copy took %llu ticks\n", f, (unsigned long long)(t[1] - t[0]));
      CHECK_MSG(t[1] >= t[0], "family %u: timestamps go backwards (%llu then %llu)", f,
                (unsigned long long)t[0], (unsigned long long)t[1]);
   }
   vkDestroyQueryPool(dev.device, pool, NULL);
   vkt_buffer_destroy(&dev, &b);
   vkt_buffer_destroy(&dev, &a);
   vkt_teardown(&ctx, &dev);
}

TEST_CASE(results_not_ready_after_host_reset_and_availability_per_query)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   if (!universal_has_timestamps(&ctx)) {
      vkt_skip("universal queue family has no timestamps");
      vkt_teardown(&ctx, &dev);
      return;
   }
   VkQueryPool pool = create_pool(&dev, VK_QUERY_TYPE_TIMESTAMP, 4);
   REQUIRE(pool);
   vkResetQueryPoolEXT(dev.device, pool, 0, 4);
   uint64_t r[8]; /* value, availability per query */
   VKT_CHECK_RESULT(
       vkGetQueryPoolResults(dev.device, pool, 0, 4, sizeof(r), r, 16, VK_QUERY_RESULT_64_BIT),
       VK_NOT_READY);
   for (int i = 0; i < 8; i++)
      r[i] = SENTINEL64;
   VKT_CHECK_RESULT(
       vkGetQueryPoolResults(dev.device, pool, 0, 4, sizeof(r), r, 16,
                             VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT),
       VK_NOT_READY);
   for (int q = 0; q < 4; q++) {
      CHECK_MSG(r[2 * q + 1] == 0, "reset query %d reports available", q);
      /* Unavailable and neither WAIT nor PARTIAL: the value is not written. */
      CHECK_MSG(r[2 * q] == SENTINEL64, "value of unavailable query %d was written", q);
   }

   /* Write queries 0 and 2 only. */
   VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
   REQUIRE(cmd);
   vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 0);
   vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 2);
   VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
   for (int i = 0; i < 8; i++)
      r[i] = SENTINEL64;
   VKT_CHECK_RESULT(
       vkGetQueryPoolResults(dev.device, pool, 0, 4, sizeof(r), r, 16,
                             VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT),
       VK_NOT_READY);
   CHECK(r[1] != 0 && r[5] != 0); /* written: available */
   CHECK(r[3] == 0 && r[7] == 0); /* never written: unavailable */
   CHECK(r[2] == SENTINEL64 && r[6] == SENTINEL64);
   CHECK(r[4] >= r[0]);

   /* The written ones alone: success, in 64 and 32 bits. */
   uint64_t v64[1];
   uint32_t v32[1];
   VKT_CHECK(
       vkGetQueryPoolResults(dev.device, pool, 2, 1, sizeof(v64), v64, 8, VK_QUERY_RESULT_64_BIT));
   VKT_CHECK(vkGetQueryPoolResults(dev.device, pool, 2, 1, sizeof(v32), v32, 4, 0));
   CHECK_EQ_U64(v64[0], r[4]);
   CHECK_MSG(is_32bit_of(v32[0], v64[0]), "32-bit result 0x%x of 0x%llx", v32[0],
             (unsigned long long)v64[0]);

   /* A host reset makes a written query unavailable again. */
   vkResetQueryPoolEXT(dev.device, pool, 2, 1);
   VKT_CHECK_RESULT(
       vkGetQueryPoolResults(dev.device, pool, 2, 1, sizeof(v64), v64, 8, VK_QUERY_RESULT_64_BIT),
       VK_NOT_READY);
   VKT_CHECK(
       vkGetQueryPoolResults(dev.device, pool, 0, 1, sizeof(v64), v64, 8, VK_QUERY_RESULT_64_BIT));
   vkDestroyQueryPool(dev.device, pool, NULL);
   vkt_teardown(&ctx, &dev);
}

/* PARTIAL is not allowed with timestamps (VUID-vkGetQueryPoolResults-
 * queryType-00818), so it is exercised on occlusion queries; a query with no
 * draws between begin and end counts zero samples. */
TEST_CASE(partial_results_of_occlusion_queries)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   VkQueryPool pool = create_pool(&dev, VK_QUERY_TYPE_OCCLUSION, 2);
   REQUIRE(pool);
   vkResetQueryPoolEXT(dev.device, pool, 0, 2);
   const VkQueryResultFlags partial =
       VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT | VK_QUERY_RESULT_PARTIAL_BIT;
   uint64_t r[4] = {SENTINEL64, SENTINEL64, SENTINEL64, SENTINEL64};
   /* The spec names VK_NOT_READY only for WAIT and PARTIAL both unset; with
    * PARTIAL either success code is allowed (lavapipe answers VK_SUCCESS). */
   VkResult res = vkGetQueryPoolResults(dev.device, pool, 0, 2, sizeof(r), r, 16, partial);
   CHECK_MSG(res == VK_SUCCESS || res == VK_NOT_READY, "-> %s", vkt_result_name(res));
   CHECK(r[1] == 0 && r[3] == 0);
   /* PARTIAL writes some value between 0 and the final result. */
   CHECK_MSG(r[0] != SENTINEL64 && r[2] != SENTINEL64, "PARTIAL wrote no value");

   VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
   REQUIRE(cmd);
   vkCmdBeginQuery(cmd, pool, 0, 0);
   vkCmdEndQuery(cmd, pool, 0);
   VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
   for (int i = 0; i < 4; i++)
      r[i] = SENTINEL64;
   res = vkGetQueryPoolResults(dev.device, pool, 0, 2, sizeof(r), r, 16, partial);
   CHECK_MSG(res == VK_SUCCESS || res == VK_NOT_READY, "-> %s", vkt_result_name(res));
   CHECK_EQ_U64(r[0], 0);
   CHECK_EQ_U64(r[1], 1);
   CHECK_EQ_U64(r[3], 0);
   uint32_t v32[2] = {SENTINEL32, SENTINEL32};
   VKT_CHECK(
       vkGetQueryPoolResults(dev.device, pool, 0, 1, sizeof(v32), v32, 8,
                             VK_QUERY_RESULT_WAIT_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT));
   CHECK(v32[0] == 0 && v32[1] == 1);
   vkDestroyQueryPool(dev.device, pool, NULL);
   vkt_teardown(&ctx, &dev);
}

/* Query records as vkCmdCopyQueryPoolResults writes them, at three layouts in
 * one buffer: 64-bit + availability (stride 24), 32-bit + availability
 * (stride 12, including an unwritten query), tight 64-bit (stride 8). */
TEST_CASE(copy_query_pool_results_32_and_64_bit_with_availability)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   if (!universal_has_timestamps(&ctx)) {
      vkt_skip("universal queue family has no timestamps");
      vkt_teardown(&ctx, &dev);
      return;
   }
   struct vkt_buffer out, scratch;
   VKT_REQUIRE(vkt_buffer_create(&dev, 1024, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &out));
   VKT_REQUIRE(vkt_buffer_create(&dev, 1u << 20, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &scratch));
   memset(out.map, 0xAA, 1024);
   VkQueryPool pool = create_pool(&dev, VK_QUERY_TYPE_TIMESTAMP, 3);
   VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
   REQUIRE(pool && cmd);
   vkCmdResetQueryPool(cmd, pool, 0, 3);
   vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 0);
   vkCmdFillBuffer(cmd, scratch.buffer, 0, VK_WHOLE_SIZE, 5);
   vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 1);
   /* Query 2 stays reset. The timestamps must have been written before a copy
    * without WAIT reads them: an execution dependency orders that. */
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
                        0, NULL, 0, NULL, 0, NULL);
   const VkQueryResultFlags avail = VK_QUERY_RESULT_WITH_AVAILABILITY_BIT;
   vkCmdCopyQueryPoolResults(cmd, pool, 0, 2, out.buffer, 0, 24,
                             VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT | avail);
   vkCmdCopyQueryPoolResults(cmd, pool, 0, 3, out.buffer, 256, 12, avail);
   vkCmdCopyQueryPoolResults(cmd, pool, 0, 2, out.buffer, 512, 8,
                             VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
   vkt_cmd_transfer_to_host_barrier(cmd);
   VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));

   uint64_t t[2];
   VKT_CHECK(vkGetQueryPoolResults(dev.device, pool, 0, 2, sizeof(t), t, 8,
                                   VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
   CHECK(t[1] >= t[0]);
   const uint8_t *base = out.map;
   for (int q = 0; q < 2; q++) {
      uint64_t rec[3];
      memcpy(rec, base + 24 * q, sizeof(rec));
      CHECK_EQ_U64(rec[0], t[q]);
      CHECK_MSG(rec[1] != 0, "64-bit record %d: not available", q);
      CHECK_MSG(rec[2] == SENTINEL64, "64-bit record %d: padding of the stride overwritten", q);
   }
   for (int q = 0; q < 3; q++) {
      uint32_t rec[3];
      memcpy(rec, base + 256 + 12 * q, sizeof(rec));
      if (q < 2) {
         CHECK_MSG(is_32bit_of(rec[0], t[q]), "32-bit record %d: 0x%x of 0x%llx", q, rec[0],
                   (unsigned long long)t[q]);
         CHECK_MSG(rec[1] != 0, "32-bit record %d: not available", q);
         CHECK_MSG(rec[2] == SENTINEL32, "32-bit record %d: padding overwritten", q);
      } else {
         /* Only the availability word is pinned for an unavailable query:
          * lavapipe zeroes its whole record, which the spec does not
          * clearly forbid for the device-side copy. */
         CHECK_MSG(rec[1] == 0, "reset query reported available");
      }
   }
   uint64_t tight[3];
   memcpy(tight, base + 512, sizeof(tight));
   CHECK_EQ_U64(tight[0], t[0]);
   CHECK_EQ_U64(tight[1], t[1]);
   CHECK_EQ_U64(tight[2], SENTINEL64);
   vkDestroyQueryPool(dev.device, pool, NULL);
   vkt_buffer_destroy(&dev, &scratch);
   vkt_buffer_destroy(&dev, &out);
   vkt_teardown(&ctx, &dev);
}

struct calibration {
   uint64_t device, monotonic, max_deviation;
   uint64_t host_before, host_after;
};

static bool calibrate(VkDevice device, struct calibration *c)
{
   VkCalibratedTimestampInfoEXT infos[2] = {
       {.sType = VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT,
        .timeDomain = VK_TIME_DOMAIN_DEVICE_EXT},
       {.sType = VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT,
        .timeDomain = VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT},
   };
   uint64_t stamps[2];
   c->host_before = vkt_monotonic_ns();
   VkResult r = vkGetCalibratedTimestampsEXT(device, 2, infos, stamps, &c->max_deviation);
   c->host_after = vkt_monotonic_ns();
   c->device = stamps[0];
   c->monotonic = stamps[1];
   if (r != VK_SUCCESS)
      test_fail(__FILE__, __LINE__, "vkGetCalibratedTimestampsEXT -> %s", vkt_result_name(r));
   return r == VK_SUCCESS;
}

/* DEVICE and CLOCK_MONOTONIC samples advance together, the monotonic sample
 * is CLOCK_MONOTONIC, and a timestamp the GPU writes between two calibrations
 * falls between their DEVICE samples. */
TEST_CASE(calibrated_timestamps_track_clock_monotonic)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   uint32_t count = 0;
   VKT_CHECK(vkGetPhysicalDeviceCalibrateableTimeDomainsEXT(ctx.physical_device, &count, NULL));
   VkTimeDomainEXT domains[8];
   count = count > 8 ? 8 : count;
   VKT_CHECK(vkGetPhysicalDeviceCalibrateableTimeDomainsEXT(ctx.physical_device, &count, domains));
   bool has_device = false, has_monotonic = false;
   for (uint32_t i = 0; i < count; i++) {
      has_device |= domains[i] == VK_TIME_DOMAIN_DEVICE_EXT;
      has_monotonic |= domains[i] == VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT;
   }
   CHECK_MSG(has_device, "VK_TIME_DOMAIN_DEVICE_EXT is not calibrateable");
   if (!has_device || !has_monotonic || !universal_has_timestamps(&ctx)) {
      vkt_skip("DEVICE and CLOCK_MONOTONIC not both calibrateable, or no timestamps");
      vkt_teardown(&ctx, &dev);
      return;
   }
   const double period = ctx.props.limits.timestampPeriod;
   VkQueryPool pool = create_pool(&dev, VK_QUERY_TYPE_TIMESTAMP, 1);
   REQUIRE(pool);
   struct calibration c1, c2;
   REQUIRE(calibrate(dev.device, &c1));
   VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
   REQUIRE(cmd);
   vkCmdResetQueryPool(cmd, pool, 0, 1);
   vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 0);
   VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
   vkt_sleep_ms(50);
   REQUIRE(calibrate(dev.device, &c2));
   uint64_t gpu_stamp = 0;
   VKT_CHECK(vkGetQueryPoolResults(dev.device, pool, 0, 1, 8, &gpu_stamp, 8,
                                   VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));

   /* The CLOCK_MONOTONIC sample lies within the call, give or take the
    * reported deviation. */
   const struct calibration *cs[2] = {&c1, &c2};
   for (int i = 0; i < 2; i++) {
      CHECK_MSG(cs[i]->monotonic + cs[i]->max_deviation >= cs[i]->host_before &&
                    cs[i]->monotonic <= cs[i]->host_after + cs[i]->max_deviation,
                "monotonic sample %llu outside the call [%llu, %llu] (deviation %llu)",
                (unsigned long long)cs[i]->monotonic, (unsigned long long)cs[i]->host_before,
                (unsigned long long)cs[i]->host_after, (unsigned long long)cs[i]->max_deviation);
   }
   REQUIRE(c2.device > c1.device);
   double device_ns = (double)(c2.device - c1.device) * period;
   double monotonic_ns = (double)(c2.monotonic - c1.monotonic);
   double allowed = (double)(c1.max_deviation + c2.max_deviation) + 1e6 + monotonic_ns * 1e-3;
   printf("  device advanced %.3f ms, CLOCK_MONOTONIC %.3f ms, deviations %llu + %llu ns\n",
          device_ns * 1e-6, monotonic_ns * 1e-6, (unsigned long long)c1.max_deviation,
          (unsigned long long)c2.max_deviation);
   CHECK_MSG(fabs(device_ns - monotonic_ns) <= allowed,
             "device and CLOCK_MONOTONIC disagree by %.0f ns (allowed %.0f)",
             fabs(device_ns - monotonic_ns), allowed);

   double slack1 = (double)c1.max_deviation / period, slack2 = (double)c2.max_deviation / period;
   CHECK_MSG((double)gpu_stamp + slack1 >= (double)c1.device &&
                 (double)gpu_stamp <= (double)c2.device + slack2,
             "GPU timestamp %llu outside the calibrated interval [%llu, %llu]",
             (unsigned long long)gpu_stamp, (unsigned long long)c1.device,
             (unsigned long long)c2.device);
   vkDestroyQueryPool(dev.device, pool, NULL);
   vkt_teardown(&ctx, &dev);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
