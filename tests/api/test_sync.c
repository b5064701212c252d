/* Synchronization primitives other than timeline semaphores (those are in
 * test_timeline.c): fences, binary semaphores across queues, events set on
 * the host and on the GPU, pipeline barriers (synchronization 1 and 2)
 * between dependent copies, vkQueueSubmit2KHR, and the wait-idle calls.
 *
 * Ordering tests use copies large enough (16 MiB) that work done out of
 * order would show in the data on an implementation that runs commands
 * concurrently. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vk_test_context.h"

#define MiB (1024u * 1024u)
#define CHAIN_SIZE (16 * MiB)

static void copy_whole(VkCommandBuffer cmd, const struct vkt_buffer *src,
                       const struct vkt_buffer *dst)
{
   VkBufferCopy region = {.size = src->size};
   vkCmdCopyBuffer(cmd, src->buffer, dst->buffer, 1, &region);
}

static void transfer_barrier(VkCommandBuffer cmd, VkAccessFlags src, VkAccessFlags dst)
{
   VkMemoryBarrier mb = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
       .srcAccessMask = src,
       .dstAccessMask = dst,
   };
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1,
                        &mb, 0, NULL, 0, NULL);
}

static VkResult submit(VkQueue queue, VkCommandBuffer cmd, VkFence fence)
{
   VkSubmitInfo si = {
       .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
       .commandBufferCount = cmd ? 1 : 0,
       .pCommandBuffers = &cmd,
   };
   return vkQueueSubmit(queue, 1, &si, fence);
}

static VkCommandBuffer end_or_null(VkCommandBuffer cmd)
{
   if (cmd && vkEndCommandBuffer(cmd) != VK_SUCCESS)
      return VK_NULL_HANDLE;
   return cmd;
}

/* A 16 MiB random source and `count` zeroed host buffers of the same size. */
static bool make_chain(struct vkt_device *dev, struct vkt_buffer *bufs, int count, uint64_t seed)
{
   for (int i = 0; i < count; i++) {
      if (vkt_buffer_create(dev, CHAIN_SIZE, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &bufs[i]) !=
          VK_SUCCESS) {
         test_fail(__FILE__, __LINE__, "could not create buffer %d", i);
         return false;
      }
      if (i == 0)
         vkt_fill_random(bufs[i].map, CHAIN_SIZE, seed);
      else
         memset(bufs[i].map, 0, CHAIN_SIZE);
   }
   return true;
}

static void destroy_chain(struct vkt_device *dev, struct vkt_buffer *bufs, int count)
{
   for (int i = 0; i < count; i++)
      vkt_buffer_destroy(dev, &bufs[i]);
}

TEST_CASE(fence_created_signaled_then_reset)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   VkFence fence = vkt_fence_create(&dev, true);
   REQUIRE(fence);
   VKT_CHECK_RESULT(vkGetFenceStatus(dev.device, fence), VK_SUCCESS);
   VKT_CHECK_RESULT(vkWaitForFences(dev.device, 1, &fence, VK_TRUE, 0), VK_SUCCESS);
   VKT_CHECK(vkResetFences(dev.device, 1, &fence));
   VKT_CHECK_RESULT(vkGetFenceStatus(dev.device, fence), VK_NOT_READY);
   /* Timeout 0 on an unsignaled fence polls: VK_TIMEOUT, not an error. */
   VKT_CHECK_RESULT(vkWaitForFences(dev.device, 1, &fence, VK_TRUE, 0), VK_TIMEOUT);
   /* Resetting an unsignaled fence is allowed and changes nothing. */
   VKT_CHECK(vkResetFences(dev.device, 1, &fence));
   VKT_CHECK_RESULT(vkGetFenceStatus(dev.device, fence), VK_NOT_READY);
   vkDestroyFence(dev.device, fence, NULL);
   vkt_teardown(&ctx, &dev);
}

TEST_CASE(fence_reused_across_many_submissions)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   struct vkt_buffer buf;
   VKT_REQUIRE(vkt_buffer_create(&dev, 4096, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &buf));
   VkFence fence = vkt_fence_create(&dev, false);
   REQUIRE(fence);
   /* An empty submission still signals its fence. */
   VKT_CHECK(vkQueueSubmit(dev.queue, 0, NULL, fence));
   VKT_CHECK(vkWaitForFences(dev.device, 1, &fence, VK_TRUE, VKT_WAIT_TIMEOUT_NS));
   for (uint32_t i = 1; i <= 20 && !test_current_failed(); i++) {
      VKT_CHECK(vkResetFences(dev.device, 1, &fence));
      VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
      REQUIRE(cmd);
      vkCmdFillBuffer(cmd, buf.buffer, 0, VK_WHOLE_SIZE, i);
      vkt_cmd_transfer_to_host_barrier(cmd);
      VKT_CHECK(vkEndCommandBuffer(cmd));
      VKT_CHECK(submit(dev.queue, cmd, fence));
      VkResult r = vkWaitForFences(dev.device, 1, &fence, VK_TRUE, VKT_WAIT_TIMEOUT_NS);
      if (r == VK_TIMEOUT)
         vkt_fatal_hang("a fill");
      VKT_CHECK(r);
      VKT_CHECK_RESULT(vkGetFenceStatus(dev.device, fence), VK_SUCCESS);
      const uint32_t *words = buf.map;
      CHECK_MSG(words[0] == i && words[1023] == i, "round %u: buffer holds %u..%u", i, words[0],
                words[1023]);
      vkFreeCommandBuffers(dev.device, dev.pools[ctx.universal_family], 1, &cmd);
   }
   vkDestroyFence(dev.device, fence, NULL);
   vkt_buffer_destroy(&dev, &buf);
   vkt_teardown(&ctx, &dev);
}

TEST_CASE(wait_for_fences_all_versus_any)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   VkFence fences[2] = {vkt_fence_create(&dev, false), vkt_fence_create(&dev, false)};
   REQUIRE(fences[0] && fences[1]);
   VKT_CHECK(vkQueueSubmit(dev.queue, 0, NULL, fences[0]));
   VKT_CHECK(vkWaitForFences(dev.device, 1, &fences[0], VK_TRUE, VKT_WAIT_TIMEOUT_NS));

   /* fences[1] was never submitted: "all" must time out, "any" must not. */
   double t0 = vkt_seconds();
   VKT_CHECK_RESULT(vkWaitForFences(dev.device, 2, fences, VK_TRUE, 50 * 1000 * 1000), VK_TIMEOUT);
   double waited = vkt_seconds() - t0;
   CHECK_MSG(waited < 5.0, "a 50 ms wait took %.3f s", waited);
   VKT_CHECK_RESULT(vkWaitForFences(dev.device, 2, fences, VK_FALSE, 0), VK_SUCCESS);
   VKT_CHECK_RESULT(vkWaitForFences(dev.device, 2, fences, VK_FALSE, VKT_WAIT_TIMEOUT_NS),
                    VK_SUCCESS);

   VKT_CHECK(vkQueueSubmit(dev.queue, 0, NULL, fences[1]));
   VKT_CHECK_RESULT(vkWaitForFences(dev.device, 2, fences, VK_TRUE, VKT_WAIT_TIMEOUT_NS),
                    VK_SUCCESS);
   vkDestroyFence(dev.device, fences[0], NULL);
   vkDestroyFence(dev.device, fences[1], NULL);
   vkt_teardown(&ctx, &dev);
}

/* Queue X copies A -> B and signals S; queue Y waits on S and copies B -> C.
 * Uses two queues of the universal family where there are two. */
TEST_CASE(binary_semaphore_orders_copies_across_queues)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   const uint32_t uf = ctx.universal_family;
   VkQueue x = dev.queues[uf][0], y = dev.queues[uf][dev.queue_count[uf] > 1 ? 1 : 0];
   if (x == y)
      printf("  one queue only: both submissions go to it\n");
   struct vkt_buffer b[3];
   if (!make_chain(&dev, b, 3, 11))
      return;
   VkCommandBuffer first = vkt_cmd_begin(&dev, uf), second = vkt_cmd_begin(&dev, uf);
   REQUIRE(first && second);
   copy_whole(first, &b[0], &b[1]);
   copy_whole(second, &b[1], &b[2]);
   vkt_cmd_transfer_to_host_barrier(second);
   REQUIRE(end_or_null(first) && end_or_null(second));

   VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
   VkSemaphore sem;
   VKT_REQUIRE(vkCreateSemaphore(dev.device, &sci, NULL, &sem));
   VkFence fence = vkt_fence_create(&dev, false);
   VkSubmitInfo s1 = {
       .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
       .commandBufferCount = 1,
       .pCommandBuffers = &first,
       .signalSemaphoreCount = 1,
       .pSignalSemaphores = &sem,
   };
   VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
   VkSubmitInfo s2 = {
       .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
       .waitSemaphoreCount = 1,
       .pWaitSemaphores = &sem,
       .pWaitDstStageMask = &stage,
       .commandBufferCount = 1,
       .pCommandBuffers = &second,
   };
   VKT_CHECK(vkQueueSubmit(x, 1, &s1, VK_NULL_HANDLE));
   VKT_CHECK(vkQueueSubmit(y, 1, &s2, fence));
   VkResult r = vkWaitForFences(dev.device, 1, &fence, VK_TRUE, VKT_WAIT_TIMEOUT_NS);
   if (r == VK_TIMEOUT)
      vkt_fatal_hang("a semaphore-ordered copy");
   VKT_CHECK(r);
   VKT_CHECK(vkQueueWaitIdle(x));
   vkt_compare_words(b[0].map, b[2].map, CHAIN_SIZE, "A -> B -> C across queues");

   vkDestroyFence(dev.device, fence, NULL);
   vkDestroySemaphore(dev.device, sem, NULL);
   vkFreeCommandBuffers(dev.device, dev.pools[uf], 1, &first);
   vkFreeCommandBuffers(dev.device, dev.pools[uf], 1, &second);
   destroy_chain(&dev, b, 3);
   vkt_teardown(&ctx, &dev);
}

/* Batch 2 of one vkQueueSubmit waits on a semaphore batch 1 signals; batch 1
 * copies A -> B, batch 2 copies B -> C. */
TEST_CASE(binary_semaphore_between_batches_of_one_submit)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   const uint32_t uf = ctx.universal_family;
   struct vkt_buffer b[3];
   if (!make_chain(&dev, b, 3, 19))
      return;
   VkCommandBuffer first = vkt_cmd_begin(&dev, uf), second = vkt_cmd_begin(&dev, uf);
   REQUIRE(first && second);
   copy_whole(first, &b[0], &b[1]);
   copy_whole(second, &b[1], &b[2]);
   vkt_cmd_transfer_to_host_barrier(second);
   REQUIRE(end_or_null(first) && end_or_null(second));
   VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
   VkSemaphore sem;
   VKT_REQUIRE(vkCreateSemaphore(dev.device, &sci, NULL, &sem));
   VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
   VkSubmitInfo batches[2] = {
       {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .commandBufferCount = 1,
        .pCommandBuffers = &first,
        .signalSemaphoreCount = 1,
        .pSignalSemaphores = &sem},
       {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .waitSemaphoreCount = 1,
        .pWaitSemaphores = &sem,
        .pWaitDstStageMask = &stage,
        .commandBufferCount = 1,
        .pCommandBuffers = &second},
   };
   VkFence fence = vkt_fence_create(&dev, false);
   VKT_CHECK(vkQueueSubmit(dev.queue, 2, batches, fence));
   VkResult r = vkWaitForFences(dev.device, 1, &fence, VK_TRUE, VKT_WAIT_TIMEOUT_NS);
   if (r == VK_TIMEOUT)
      vkt_fatal_hang("two batches joined by a semaphore");
   VKT_CHECK(r);
   vkt_compare_words(b[0].map, b[2].map, CHAIN_SIZE, "A -> B -> C in one submit");
   vkDestroyFence(dev.device, fence, NULL);
   vkDestroySemaphore(dev.device, sem, NULL);
   VkCommandBuffer both[2] = {first, second};
   vkFreeCommandBuffers(dev.device, dev.pools[uf], 2, both);
   destroy_chain(&dev, b, 3);
   vkt_teardown(&ctx, &dev);
}

/* The spec requires a host vkSetEvent that a command buffer waits for to
 * happen before the submission (vkSetEvent, queue forward progress), so this
 * pins that the GPU sees the host-set state; if it did not, it would wait
 * forever. */
TEST_CASE(event_set_on_host_releases_gpu_wait)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   VkEventCreateInfo eci = {.sType = VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
   VkEvent event;
   VKT_REQUIRE(vkCreateEvent(dev.device, &eci, NULL, &event));
   VKT_CHECK_RESULT(vkGetEventStatus(dev.device, event), VK_EVENT_RESET);
   VKT_CHECK(vkSetEvent(dev.device, event));
   VKT_CHECK_RESULT(vkGetEventStatus(dev.device, event), VK_EVENT_SET);

   struct vkt_buffer b[2];
   if (!make_chain(&dev, b, 2, 12))
      return;
   VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
   REQUIRE(cmd);
   VkMemoryBarrier host_to_copy = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
       .srcAccessMask = VK_ACCESS_HOST_WRITE_BIT,
       .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT,
   };
   vkCmdWaitEvents(cmd, 1, &event, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 1,
                   &host_to_copy, 0, NULL, 0, NULL);
   copy_whole(cmd, &b[0], &b[1]);
   vkt_cmd_transfer_to_host_barrier(cmd);
   VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
   vkt_compare_words(b[0].map, b[1].map, CHAIN_SIZE, "copy after host-set event");

   VKT_CHECK(vkResetEvent(dev.device, event));
   VKT_CHECK_RESULT(vkGetEventStatus(dev.device, event), VK_EVENT_RESET);
   vkDestroyEvent(dev.device, event, NULL);
   destroy_chain(&dev, b, 2);
   vkt_teardown(&ctx, &dev);
}

TEST_CASE(event_set_and_reset_on_gpu_is_seen_by_host)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   VkEventCreateInfo eci = {.sType = VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
   VkEvent event;
   VKT_REQUIRE(vkCreateEvent(dev.device, &eci, NULL, &event));
   struct vkt_buffer b[2];
   if (!make_chain(&dev, b, 2, 13))
      return;

   VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
   REQUIRE(cmd);
   copy_whole(cmd, &b[0], &b[1]);
   vkCmdSetEvent(cmd, event, VK_PIPELINE_STAGE_TRANSFER_BIT);
   VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
   VKT_CHECK_RESULT(vkGetEventStatus(dev.device, event), VK_EVENT_SET);

   cmd = vkt_cmd_begin(&dev, ctx.universal_family);
   REQUIRE(cmd);
   vkCmdResetEvent(cmd, event, VK_PIPELINE_STAGE_TRANSFER_BIT);
   VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
   VKT_CHECK_RESULT(vkGetEventStatus(dev.device, event), VK_EVENT_RESET);

   vkDestroyEvent(dev.device, event, NULL);
   destroy_chain(&dev, b, 2);
   vkt_teardown(&ctx, &dev);
}

/* Split barrier with synchronization2: copy A -> B, set; an unrelated copy
 * X -> Y; wait; copy B -> C. */
TEST_CASE(events2_split_barrier_orders_copies)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   VkEventCreateInfo eci = {.sType = VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
   VkEvent event;
   VKT_REQUIRE(vkCreateEvent(dev.device, &eci, NULL, &event));
   struct vkt_buffer b[3], x[2];
   if (!make_chain(&dev, b, 3, 14) || !make_chain(&dev, x, 2, 15))
      return;
   VkMemoryBarrier2KHR mb = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2_KHR,
       .srcStageMask = VK_PIPELINE_STAGE_2_COPY_BIT_KHR,
       .srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT_KHR,
       .dstStageMask = VK_PIPELINE_STAGE_2_COPY_BIT_KHR,
       .dstAccessMask = VK_ACCESS_2_TRANSFER_READ_BIT_KHR,
   };
   VkDependencyInfoKHR dep = {
       .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO_KHR,
       .memoryBarrierCount = 1,
       .pMemoryBarriers = &mb,
   };
   VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
   REQUIRE(cmd);
   copy_whole(cmd, &b[0], &b[1]);
   vkCmdSetEvent2KHR(cmd, event, &dep);
   copy_whole(cmd, &x[0], &x[1]);
   vkCmdWaitEvents2KHR(cmd, 1, &event, &dep);
   copy_whole(cmd, &b[1], &b[2]);
   vkt_cmd_transfer_to_host_barrier(cmd);
   VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
   vkt_compare_words(b[0].map, b[2].map, CHAIN_SIZE, "A -> B -> C around an event");
   vkt_compare_words(x[0].map, x[1].map, CHAIN_SIZE, "X -> Y between set and wait");
   VKT_CHECK_RESULT(vkGetEventStatus(dev.device, event), VK_EVENT_SET);

   vkDestroyEvent(dev.device, event, NULL);
   destroy_chain(&dev, x, 2);
   destroy_chain(&dev, b, 3);
   vkt_teardown(&ctx, &dev);
}

/* fill B; copy A -> B; copy B -> C; copy C -> D, each step depending on the
 * one before through a synchronization-1 barrier (buffer and global). */
TEST_CASE(pipeline_barriers_order_dependent_copies)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   struct vkt_buffer b[4];
   if (!make_chain(&dev, b, 4, 16))
      return;
   VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
   REQUIRE(cmd);
   vkCmdFillBuffer(cmd, b[1].buffer, 0, VK_WHOLE_SIZE, 0xDEADBEEFu);
   transfer_barrier(cmd, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
   copy_whole(cmd, &b[0], &b[1]);
   VkBufferMemoryBarrier bmb = {
       .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
       .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
       .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT,
       .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
       .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
       .buffer = b[1].buffer,
       .size = VK_WHOLE_SIZE,
   };
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0,
                        NULL, 1, &bmb, 0, NULL);
   copy_whole(cmd, &b[1], &b[2]);
   transfer_barrier(cmd, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT);
   copy_whole(cmd, &b[2], &b[3]);
   vkt_cmd_transfer_to_host_barrier(cmd);
   VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
   vkt_compare_words(b[0].map, b[3].map, CHAIN_SIZE, "fill, A -> B -> C -> D");
   destroy_chain(&dev, b, 4);
   vkt_teardown(&ctx, &dev);
}

static void barrier2(VkCommandBuffer cmd, const struct vkt_buffer *buf, VkAccessFlags2KHR src,
                     VkAccessFlags2KHR dst)
{
   VkBufferMemoryBarrier2KHR bmb = {
       .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2_KHR,
       .srcStageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT_KHR,
       .srcAccessMask = src,
       .dstStageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT_KHR,
       .dstAccessMask = dst,
       .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
       .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
       .buffer = buf->buffer,
       .size = VK_WHOLE_SIZE,
   };
   VkDependencyInfoKHR dep = {
       .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO_KHR,
       .bufferMemoryBarrierCount = 1,
       .pBufferMemoryBarriers = &bmb,
   };
   vkCmdPipelineBarrier2KHR(cmd, &dep);
}

TEST_CASE(pipeline_barriers2_order_dependent_copies)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   struct vkt_buffer b[4];
   if (!make_chain(&dev, b, 4, 17))
      return;
   VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
   REQUIRE(cmd);
   vkCmdFillBuffer(cmd, b[1].buffer, 0, VK_WHOLE_SIZE, 0xDEADBEEFu);
   barrier2(cmd, &b[1], VK_ACCESS_2_TRANSFER_WRITE_BIT_KHR, VK_ACCESS_2_TRANSFER_WRITE_BIT_KHR);
   copy_whole(cmd, &b[0], &b[1]);
   barrier2(cmd, &b[1], VK_ACCESS_2_TRANSFER_WRITE_BIT_KHR, VK_ACCESS_2_TRANSFER_READ_BIT_KHR);
   copy_whole(cmd, &b[1], &b[2]);
   barrier2(cmd, &b[2], VK_ACCESS_2_TRANSFER_WRITE_BIT_KHR, VK_ACCESS_2_TRANSFER_READ_BIT_KHR);
   copy_whole(cmd, &b[2], &b[3]);
   VkMemoryBarrier2KHR to_host = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2_KHR,
       .srcStageMask = VK_PIPELINE_STAGE_2_COPY_BIT_KHR,
       .srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT_KHR,
       .dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT_KHR,
       .dstAccessMask = VK_ACCESS_2_HOST_READ_BIT_KHR,
   };
   VkDependencyInfoKHR dep = {
       .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO_KHR,
       .memoryBarrierCount = 1,
       .pMemoryBarriers = &to_host,
   };
   vkCmdPipelineBarrier2KHR(cmd, &dep);
   VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
   vkt_compare_words(b[0].map, b[3].map, CHAIN_SIZE, "fill, A -> B -> C -> D (sync2)");
   destroy_chain(&dev, b, 4);
   vkt_teardown(&ctx, &dev);
}

/* vkQueueSubmit2KHR: batch 1 waits on a timeline value the host signals after
 * the submission and signals a binary semaphore; batch 2 waits on that and
 * signals the fence. */
TEST_CASE(queue_submit2_waits_and_signals)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   const uint32_t uf = ctx.universal_family;
   struct vkt_buffer b[3];
   if (!make_chain(&dev, b, 3, 18))
      return;
   VkSemaphore timeline = vkt_timeline_create(&dev, 0);
   VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
   VkSemaphore binary;
   VKT_REQUIRE(vkCreateSemaphore(dev.device, &sci, NULL, &binary));
   VkFence fence = vkt_fence_create(&dev, false);
   VkCommandBuffer first = vkt_cmd_begin(&dev, uf), second = vkt_cmd_begin(&dev, uf);
   REQUIRE(timeline && fence && first && second);
   copy_whole(first, &b[0], &b[1]);
   copy_whole(second, &b[1], &b[2]);
   vkt_cmd_transfer_to_host_barrier(second);
   REQUIRE(end_or_null(first) && end_or_null(second));

   VkSemaphoreSubmitInfoKHR wait_timeline = {
       .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO_KHR,
       .semaphore = timeline,
       .value = 1,
       .stageMask = VK_PIPELINE_STAGE_2_COPY_BIT_KHR,
   };
   VkSemaphoreSubmitInfoKHR signals[2] = {
       {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO_KHR,
        .semaphore = binary,
        .stageMask = VK_PIPELINE_STAGE_2_COPY_BIT_KHR},
       {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO_KHR,
        .semaphore = timeline,
        .value = 2,
        .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT_KHR},
   };
   VkCommandBufferSubmitInfoKHR cb1 = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO_KHR,
       .commandBuffer = first,
   };
   VkSubmitInfo2KHR batch1 = {
       .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2_KHR,
       .waitSemaphoreInfoCount = 1,
       .pWaitSemaphoreInfos = &wait_timeline,
       .commandBufferInfoCount = 1,
       .pCommandBufferInfos = &cb1,
       .signalSemaphoreInfoCount = 2,
       .pSignalSemaphoreInfos = signals,
   };
   VKT_CHECK(vkQueueSubmit2KHR(dev.queue, 1, &batch1, VK_NULL_HANDLE));
   vkt_sleep_ms(20);
   uint64_t value = 99;
   VKT_CHECK(vkGetSemaphoreCounterValueKHR(dev.device, timeline, &value));
   CHECK_MSG(value == 0, "timeline advanced to %llu before the host signalled",
             (unsigned long long)value);
   VkSemaphoreSignalInfoKHR host_signal = {
       .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO_KHR,
       .semaphore = timeline,
       .value = 1,
   };
   VKT_CHECK(vkSignalSemaphoreKHR(dev.device, &host_signal));

   VkSemaphoreSubmitInfoKHR wait_binary = {
       .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO_KHR,
       .semaphore = binary,
       .stageMask = VK_PIPELINE_STAGE_2_COPY_BIT_KHR,
   };
   VkCommandBufferSubmitInfoKHR cb2 = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO_KHR,
       .commandBuffer = second,
   };
   VkSubmitInfo2KHR batch2 = {
       .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2_KHR,
       .waitSemaphoreInfoCount = 1,
       .pWaitSemaphoreInfos = &wait_binary,
       .commandBufferInfoCount = 1,
       .pCommandBufferInfos = &cb2,
   };
   VkQueue other = dev.queues[uf][dev.queue_count[uf] > 1 ? 1 : 0];
   VKT_CHECK(vkQueueSubmit2KHR(other, 1, &batch2, fence));
   VkResult r = vkWaitForFences(dev.device, 1, &fence, VK_TRUE, VKT_WAIT_TIMEOUT_NS);
   if (r == VK_TIMEOUT)
      vkt_fatal_hang("vkQueueSubmit2KHR batches");
   VKT_CHECK(r);
   VKT_CHECK(vkGetSemaphoreCounterValueKHR(dev.device, timeline, &value));
   CHECK_EQ_U64(value, 2);
   vkt_compare_words(b[0].map, b[2].map, CHAIN_SIZE, "A -> B -> C through submit2");

   VKT_CHECK(vkDeviceWaitIdle(dev.device));
   vkDestroyFence(dev.device, fence, NULL);
   vkDestroySemaphore(dev.device, binary, NULL);
   vkDestroySemaphore(dev.device, timeline, NULL);
   vkFreeCommandBuffers(dev.device, dev.pools[uf], 1, &first);
   vkFreeCommandBuffers(dev.device, dev.pools[uf], 1, &second);
   destroy_chain(&dev, b, 3);
   vkt_teardown(&ctx, &dev);
}

/* Work submitted without fences is finished once vkQueueWaitIdle (per queue)
 * or vkDeviceWaitIdle (all queues) returns. */
TEST_CASE(queue_and_device_wait_idle_finish_work)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   const uint32_t uf = ctx.universal_family;
   const uint32_t n = dev.queue_count[uf];
   struct vkt_buffer pairs[VKT_MAX_QUEUES_PER_FAMILY][2];
   VkCommandBuffer cmds[VKT_MAX_QUEUES_PER_FAMILY];
   for (uint32_t q = 0; q < n; q++) {
      if (!make_chain(&dev, pairs[q], 2, 20 + q))
         return;
   }
   for (int round = 0; round < 2; round++) {
      for (uint32_t q = 0; q < n; q++) {
         if (round == 1)
            vkt_fill_random(pairs[q][0].map, CHAIN_SIZE, 40 + q);
         cmds[q] = vkt_cmd_begin(&dev, uf);
         REQUIRE(cmds[q]);
         copy_whole(cmds[q], &pairs[q][0], &pairs[q][1]);
         vkt_cmd_transfer_to_host_barrier(cmds[q]);
         REQUIRE(end_or_null(cmds[q]));
         VKT_CHECK(submit(dev.queues[uf][q], cmds[q], VK_NULL_HANDLE));
      }
      if (round == 0) {
         for (uint32_t q = 0; q < n; q++)
            VKT_CHECK(vkQueueWaitIdle(dev.queues[uf][q]));
      } else {
         VKT_CHECK(vkDeviceWaitIdle(dev.device));
      }
      for (uint32_t q = 0; q < n; q++) {
         vkt_compare_words(pairs[q][0].map, pairs[q][1].map, CHAIN_SIZE,
                           round == 0 ? "after vkQueueWaitIdle" : "after vkDeviceWaitIdle");
         vkFreeCommandBuffers(dev.device, dev.pools[uf], 1, &cmds[q]);
      }
   }
   for (uint32_t q = 0; q < n; q++)
      destroy_chain(&dev, pairs[q], 2);
   vkt_teardown(&ctx, &dev);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
