/* Command buffers: secondaries run by vkCmdExecuteCommands, re-recording,
 * resetting through the pool and one by one, the one-time-submit and
 * simultaneous-use rules, and many command buffers in one submission. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vk_test_context.h"

static VkCommandBuffer allocate(struct vkt_device *dev, VkCommandPool pool,
                                VkCommandBufferLevel level)
{
   VkCommandBufferAllocateInfo ai = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
       .commandPool = pool,
       .level = level,
       .commandBufferCount = 1,
   };
   VkCommandBuffer cmd = VK_NULL_HANDLE;
   VKT_CHECK(vkAllocateCommandBuffers(dev->device, &ai, &cmd));
   return cmd;
}

static VkResult begin(VkCommandBuffer cmd, VkCommandBufferUsageFlags flags, bool secondary)
{
   VkCommandBufferInheritanceInfo inheritance = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO,
   };
   VkCommandBufferBeginInfo bi = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
       .flags = flags,
       .pInheritanceInfo = secondary ? &inheritance : NULL,
   };
   return vkBeginCommandBuffer(cmd, &bi);
}

/* Orders every earlier transfer (in submission order, so also those of
 * earlier command buffers on the queue) before every later one. */
static void transfer_barrier(VkCommandBuffer cmd)
{
   VkMemoryBarrier mb = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
       .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
       .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
   };
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1,
                        &mb, 0, NULL, 0, NULL);
}

static VkResult submit_wait(struct vkt_device *dev, uint32_t submit_count,
                            const VkSubmitInfo *submits)
{
   VkFence fence = vkt_fence_create(dev, false);
   VkResult r = vkQueueSubmit(dev->queue, submit_count, submits, fence);
   if (r == VK_SUCCESS) {
      r = vkWaitForFences(dev->device, 1, &fence, VK_TRUE, VKT_WAIT_TIMEOUT_NS);
      if (r == VK_TIMEOUT)
         vkt_fatal_hang("a submission");
   }
   vkDestroyFence(dev->device, fence, NULL);
   return r;
}

static VkResult submit_one_wait(struct vkt_device *dev, VkCommandBuffer cmd)
{
   VkSubmitInfo si = {
       .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
       .commandBufferCount = 1,
       .pCommandBuffers = &cmd,
   };
   return submit_wait(dev, 1, &si);
}

static bool all_words_are(const struct vkt_buffer *buf, VkDeviceSize offset, VkDeviceSize size,
                          uint32_t value, const char *what)
{
   const uint32_t *w = (const uint32_t *)((const uint8_t *)buf->map + offset);
   for (VkDeviceSize i = 0; i < size / 4; i++) {
      if (w[i] != value) {
         test_fail(__FILE__, __LINE__, "%s: word %llu is 0x%08x, expected 0x%08x", what,
                   (unsigned long long)i, w[i], value);
         return false;
      }
   }
   return true;
}

#define REGION (256u * 1024u)

/* Four fill secondaries in one vkCmdExecuteCommands, an update secondary that
 * overwrites part of the first region after a barrier, and a simultaneous-use
 * copy secondary executed twice around a change of its source. */
TEST_CASE(secondaries_execute_in_recorded_order)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   const uint32_t uf = ctx.universal_family;
   VkCommandPool pool = dev.pools[uf];
   struct vkt_buffer dst, a, b, c;
   VKT_REQUIRE(vkt_buffer_create(&dev, 4 * REGION, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &dst));
   VKT_REQUIRE(vkt_buffer_create(&dev, REGION, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &a));
   VKT_REQUIRE(vkt_buffer_create(&dev, REGION, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &b));
   VKT_REQUIRE(vkt_buffer_create(&dev, REGION, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &c));
   memset(dst.map, 0, 4 * REGION);

   VkCommandBuffer fills[4], update, copy;
   for (uint32_t i = 0; i < 4; i++) {
      fills[i] = allocate(&dev, pool, VK_COMMAND_BUFFER_LEVEL_SECONDARY);
      REQUIRE(fills[i]);
      VKT_REQUIRE(begin(fills[i], 0, true));
      vkCmdFillBuffer(fills[i], dst.buffer, i * REGION, REGION, 0x10101010u * (i + 1));
      VKT_REQUIRE(vkEndCommandBuffer(fills[i]));
   }
   uint32_t patch[16];
   vkt_fill_random(patch, sizeof(patch), 50);
   update = allocate(&dev, pool, VK_COMMAND_BUFFER_LEVEL_SECONDARY);
   copy = allocate(&dev, pool, VK_COMMAND_BUFFER_LEVEL_SECONDARY);
   REQUIRE(update && copy);
   VKT_REQUIRE(begin(update, 0, true));
   vkCmdUpdateBuffer(update, dst.buffer, 4, sizeof(patch), patch);
   VKT_REQUIRE(vkEndCommandBuffer(update));
   VKT_REQUIRE(begin(copy, VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT, true));
   VkBufferCopy whole = {.size = REGION};
   vkCmdCopyBuffer(copy, a.buffer, b.buffer, 1, &whole);
   VKT_REQUIRE(vkEndCommandBuffer(copy));

   VkCommandBuffer primary = vkt_cmd_begin(&dev, uf);
   REQUIRE(primary);
   vkCmdExecuteCommands(primary, 4, fills);
   transfer_barrier(primary);
   vkCmdExecuteCommands(primary, 1, &update);
   vkCmdFillBuffer(primary, a.buffer, 0, VK_WHOLE_SIZE, 1);
   transfer_barrier(primary);
   vkCmdExecuteCommands(primary, 1, &copy); /* b = 1s */
   transfer_barrier(primary);
   vkCmdCopyBuffer(primary, b.buffer, c.buffer, 1, &whole); /* c = 1s */
   transfer_barrier(primary);
   vkCmdFillBuffer(primary, a.buffer, 0, VK_WHOLE_SIZE, 2);
   transfer_barrier(primary);
   vkCmdExecuteCommands(primary, 1, &copy); /* b = 2s */
   vkt_cmd_transfer_to_host_barrier(primary);
   VKT_CHECK(vkt_cmd_submit_wait(&dev, uf, 0, primary));

   const uint32_t *words = dst.map;
   CHECK_EQ_U64(words[0], 0x10101010u);
   CHECK(memcmp(words + 1, patch, sizeof(patch)) == 0);
   all_words_are(&dst, 4 + sizeof(patch), REGION - 4 - sizeof(patch), 0x10101010u, "region 0");
   for (uint32_t i = 1; i < 4; i++)
      all_words_are(&dst, i * REGION, REGION, 0x10101010u * (i + 1), "fill region");
   all_words_are(&c, 0, REGION, 1, "first run of the copy secondary");
   all_words_are(&b, 0, REGION, 2, "second run of the copy secondary");

   VkCommandBuffer secondaries[6] = {fills[0], fills[1], fills[2], fills[3], update, copy};
   vkFreeCommandBuffers(dev.device, pool, 6, secondaries);
   vkt_buffer_destroy(&dev, &c);
   vkt_buffer_destroy(&dev, &b);
   vkt_buffer_destroy(&dev, &a);
   vkt_buffer_destroy(&dev, &dst);
   vkt_teardown(&ctx, &dev);
}

/* Resetting and re-recording a secondary (explicitly, then implicitly by
 * beginning it again) changes what a re-recorded primary runs. */
TEST_CASE(rerecorded_secondary_changes_what_primary_runs)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   const uint32_t uf = ctx.universal_family;
   VkCommandPool pool = dev.pools[uf]; /* RESET_COMMAND_BUFFER_BIT */
   struct vkt_buffer buf;
   VKT_REQUIRE(vkt_buffer_create(&dev, REGION, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &buf));
   VkCommandBuffer secondary = allocate(&dev, pool, VK_COMMAND_BUFFER_LEVEL_SECONDARY);
   VkCommandBuffer primary = allocate(&dev, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY);
   REQUIRE(secondary && primary);
   const uint32_t values[3] = {7, 9, 11};
   for (int round = 0; round < 3; round++) {
      if (round == 1)
         VKT_CHECK(vkResetCommandBuffer(secondary, VK_COMMAND_BUFFER_RESET_RELEASE_RESOURCES_BIT));
      VKT_REQUIRE(begin(secondary, 0, true)); /* round 2: implicit reset */
      vkCmdFillBuffer(secondary, buf.buffer, 0, VK_WHOLE_SIZE, values[round]);
      VKT_REQUIRE(vkEndCommandBuffer(secondary));
      /* The primary became invalid when its secondary was reset. */
      VKT_REQUIRE(begin(primary, 0, false));
      vkCmdExecuteCommands(primary, 1, &secondary);
      vkt_cmd_transfer_to_host_barrier(primary);
      VKT_REQUIRE(vkEndCommandBuffer(primary));
      VKT_CHECK(submit_one_wait(&dev, primary));
      all_words_are(&buf, 0, REGION, values[round], "after re-recording");
   }
   VkCommandBuffer both[2] = {secondary, primary};
   vkFreeCommandBuffers(dev.device, pool, 2, both);
   vkt_buffer_destroy(&dev, &buf);
   vkt_teardown(&ctx, &dev);
}

/* A pool without RESET_COMMAND_BUFFER_BIT: its command buffers are recycled by
 * vkResetCommandPool (with and without releasing resources). */
TEST_CASE(reset_pool_recycles_every_command_buffer)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   enum { COUNT = 8 };
   VkCommandPoolCreateInfo pci = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
       .queueFamilyIndex = ctx.universal_family,
   };
   VkCommandPool pool;
   VKT_REQUIRE(vkCreateCommandPool(dev.device, &pci, NULL, &pool));
   VkCommandBufferAllocateInfo ai = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
       .commandPool = pool,
       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
       .commandBufferCount = COUNT,
   };
   VkCommandBuffer cmds[COUNT];
   VKT_REQUIRE(vkAllocateCommandBuffers(dev.device, &ai, cmds));
   struct vkt_buffer buf;
   VKT_REQUIRE(vkt_buffer_create(&dev, COUNT * 4096, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &buf));

   for (uint32_t round = 0; round < 3; round++) {
      if (round > 0)
         VKT_CHECK(vkResetCommandPool(
             dev.device, pool, round == 2 ? VK_COMMAND_POOL_RESET_RELEASE_RESOURCES_BIT : 0));
      for (uint32_t i = 0; i < COUNT; i++) {
         VKT_REQUIRE(begin(cmds[i], 0, false));
         vkCmdFillBuffer(cmds[i], buf.buffer, i * 4096, 4096, round * 100 + i);
         vkt_cmd_transfer_to_host_barrier(cmds[i]);
         VKT_REQUIRE(vkEndCommandBuffer(cmds[i]));
      }
      VkSubmitInfo si = {
          .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
          .commandBufferCount = COUNT,
          .pCommandBuffers = cmds,
      };
      VKT_CHECK(submit_wait(&dev, 1, &si));
      for (uint32_t i = 0; i < COUNT; i++)
         all_words_are(&buf, i * 4096, 4096, round * 100 + i, "after pool reset");
   }
   vkDestroyCommandPool(dev.device, pool, NULL); /* frees its command buffers */
   vkt_buffer_destroy(&dev, &buf);
   vkt_teardown(&ctx, &dev);
}

/* ONE_TIME_SUBMIT buffers become invalid after running, so each submission
 * re-records (vkBeginCommandBuffer resets implicitly in this pool). */
TEST_CASE(one_time_submit_buffer_rerecorded_for_each_submission)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   struct vkt_buffer buf;
   VKT_REQUIRE(vkt_buffer_create(&dev, 4096, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &buf));
   VkCommandBuffer cmd =
       allocate(&dev, dev.pools[ctx.universal_family], VK_COMMAND_BUFFER_LEVEL_PRIMARY);
   REQUIRE(cmd);
   for (uint32_t i = 0; i < 5; i++) {
      uint32_t data[4] = {i, i * 3, ~i, 0xC0DE0000u | i};
      VKT_REQUIRE(begin(cmd, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT, false));
      vkCmdUpdateBuffer(cmd, buf.buffer, 64, sizeof(data), data);
      vkt_cmd_transfer_to_host_barrier(cmd);
      VKT_REQUIRE(vkEndCommandBuffer(cmd));
      VKT_CHECK(submit_one_wait(&dev, cmd));
      CHECK_MSG(memcmp((uint8_t *)buf.map + 64, data, sizeof(data)) == 0, "submission %u", i);
   }
   vkFreeCommandBuffers(dev.device, dev.pools[ctx.universal_family], 1, &cmd);
   vkt_buffer_destroy(&dev, &buf);
   vkt_teardown(&ctx, &dev);
}

/* A command buffer recorded once (no ONE_TIME_SUBMIT) runs again on each
 * submission and sees the source data of that moment. */
TEST_CASE(reusable_command_buffer_resubmitted)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   const VkDeviceSize size = 2u << 20;
   struct vkt_buffer src, dst;
   VKT_REQUIRE(vkt_buffer_create(&dev, size, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &src));
   VKT_REQUIRE(vkt_buffer_create(&dev, size, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &dst));
   VkCommandBuffer cmd =
       allocate(&dev, dev.pools[ctx.universal_family], VK_COMMAND_BUFFER_LEVEL_PRIMARY);
   REQUIRE(cmd);
   VKT_REQUIRE(begin(cmd, 0, false));
   VkBufferCopy whole = {.size = size};
   vkCmdCopyBuffer(cmd, src.buffer, dst.buffer, 1, &whole);
   vkt_cmd_transfer_to_host_barrier(cmd);
   VKT_REQUIRE(vkEndCommandBuffer(cmd));
   for (uint32_t i = 0; i < 5; i++) {
      vkt_fill_random(src.map, size, 60 + i);
      VKT_CHECK(submit_one_wait(&dev, cmd));
      vkt_compare_words(src.map, dst.map, size, "resubmitted copy");
   }
   vkFreeCommandBuffers(dev.device, dev.pools[ctx.universal_family], 1, &cmd);
   vkt_buffer_destroy(&dev, &dst);
   vkt_buffer_destroy(&dev, &src);
   vkt_teardown(&ctx, &dev);
}

/* A SIMULTANEOUS_USE buffer X (copy A -> B -> C) is pending twice in one
 * vkQueueSubmit: [set A = v1] [X] [read C] [set A = v2] [X] [read C]. Every
 * command buffer starts with a barrier that orders it after the ones before. */
TEST_CASE(simultaneous_use_buffer_pending_twice)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   const uint32_t uf = ctx.universal_family;
   const VkDeviceSize size = 65536; /* one vkCmdUpdateBuffer */
   struct vkt_buffer a, b, c, r1, r2;
   VKT_REQUIRE(vkt_buffer_create(&dev, size, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &a));
   VKT_REQUIRE(vkt_buffer_create(&dev, size, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &b));
   VKT_REQUIRE(vkt_buffer_create(&dev, size, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &c));
   VKT_REQUIRE(vkt_buffer_create(&dev, size, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &r1));
   VKT_REQUIRE(vkt_buffer_create(&dev, size, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &r2));
   uint8_t *v1 = malloc(size), *v2 = malloc(size);
   REQUIRE(v1 && v2);
   vkt_fill_random(v1, size, 70);
   vkt_fill_random(v2, size, 71);
   VkBufferCopy whole = {.size = size};

   VkCommandBuffer cmds[5];
   for (int i = 0; i < 5; i++) {
      cmds[i] = allocate(&dev, dev.pools[uf], VK_COMMAND_BUFFER_LEVEL_PRIMARY);
      REQUIRE(cmds[i]);
      VKT_REQUIRE(begin(cmds[i],
                        i == 0 ? VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT
                               : VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
                        false));
      transfer_barrier(cmds[i]);
   }
   VkCommandBuffer x = cmds[0], set1 = cmds[1], read1 = cmds[2], set2 = cmds[3], read2 = cmds[4];
   vkCmdCopyBuffer(x, a.buffer, b.buffer, 1, &whole);
   transfer_barrier(x);
   vkCmdCopyBuffer(x, b.buffer, c.buffer, 1, &whole);
   vkCmdUpdateBuffer(set1, a.buffer, 0, size, v1);
   vkCmdUpdateBuffer(set2, a.buffer, 0, size, v2);
   vkCmdCopyBuffer(read1, c.buffer, r1.buffer, 1, &whole);
   vkCmdCopyBuffer(read2, c.buffer, r2.buffer, 1, &whole);
   vkt_cmd_transfer_to_host_barrier(read2);
   for (int i = 0; i < 5; i++)
      VKT_REQUIRE(vkEndCommandBuffer(cmds[i]));

   VkCommandBuffer order[6] = {set1, x, read1, set2, x, read2};
   VkSubmitInfo submits[6];
   for (int i = 0; i < 6; i++)
      submits[i] = (VkSubmitInfo){
          .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
          .commandBufferCount = 1,
          .pCommandBuffers = &order[i],
      };
   VKT_CHECK(submit_wait(&dev, 6, submits));
   vkt_compare_words(v1, r1.map, size, "first run of X");
   vkt_compare_words(v2, r2.map, size, "second run of X");

   vkFreeCommandBuffers(dev.device, dev.pools[uf], 5, cmds);
   free(v2);
   free(v1);
   struct vkt_buffer *bufs[5] = {&a, &b, &c, &r1, &r2};
   for (int i = 0; i < 5; i++)
      vkt_buffer_destroy(&dev, bufs[i]);
   vkt_teardown(&ctx, &dev);
}

/* 256 command buffers in one VkSubmitInfo, then 64 VkSubmitInfos of 4 in one
 * vkQueueSubmit; each writes its own 16-byte slot. */
TEST_CASE(many_command_buffers_in_one_submission)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   enum { COUNT = 256, SLOT = 16 };
   struct vkt_buffer buf;
   VKT_REQUIRE(vkt_buffer_create(&dev, COUNT * SLOT, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &buf));
   VkCommandBufferAllocateInfo ai = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
       .commandPool = dev.pools[ctx.universal_family],
       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
       .commandBufferCount = COUNT,
   };
   VkCommandBuffer *cmds = calloc(COUNT, sizeof(*cmds));
   uint8_t *expected = malloc(COUNT * SLOT);
   REQUIRE(cmds && expected);
   VKT_REQUIRE(vkAllocateCommandBuffers(dev.device, &ai, cmds));

   for (int layout = 0; layout < 2; layout++) {
      vkt_fill_random(expected, COUNT * SLOT, 80 + layout);
      memset(buf.map, 0, COUNT * SLOT);
      for (uint32_t i = 0; i < COUNT; i++) {
         VKT_REQUIRE(begin(cmds[i], VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT, false));
         vkCmdUpdateBuffer(cmds[i], buf.buffer, i * SLOT, SLOT, expected + i * SLOT);
         vkt_cmd_transfer_to_host_barrier(cmds[i]);
         VKT_REQUIRE(vkEndCommandBuffer(cmds[i]));
      }
      VkSubmitInfo submits[COUNT / 4];
      uint32_t submit_count = layout == 0 ? 1 : COUNT / 4;
      for (uint32_t s = 0; s < submit_count; s++)
         submits[s] = (VkSubmitInfo){
             .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
             .commandBufferCount = COUNT / submit_count,
             .pCommandBuffers = cmds + s * (COUNT / submit_count),
         };
      VKT_CHECK(submit_wait(&dev, submit_count, submits));
      vkt_compare_words(expected, buf.map, COUNT * SLOT,
                        layout == 0 ? "256 buffers, 1 submit" : "64 submits of 4");
   }
   vkFreeCommandBuffers(dev.device, dev.pools[ctx.universal_family], COUNT, cmds);
   free(expected);
   free(cmds);
   vkt_buffer_destroy(&dev, &buf);
   vkt_teardown(&ctx, &dev);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
