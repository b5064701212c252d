/* Timeline semaphores (VK_KHR_timeline_semaphore): counter values, host
 * signal and wait (any/all, with timeouts), GPU waits submitted before the
 * signal that resolves them, and several host threads signalling and
 * waiting on the same semaphores at once. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vk_test_context.h"

#define MS (1000ull * 1000ull)

static VkResult host_signal(VkDevice device, VkSemaphore sem, uint64_t value)
{
   VkSemaphoreSignalInfoKHR info = {
       .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO_KHR,
       .semaphore = sem,
       .value = value,
   };
   return vkSignalSemaphoreKHR(device, &info);
}

static VkResult host_wait(VkDevice device, uint32_t count, const VkSemaphore *sems,
                          const uint64_t *values, bool any, uint64_t timeout_ns)
{
   VkSemaphoreWaitInfoKHR info = {
       .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO_KHR,
       .flags = any ? VK_SEMAPHORE_WAIT_ANY_BIT_KHR : 0,
       .semaphoreCount = count,
       .pSemaphores = sems,
       .pValues = values,
   };
   return vkWaitSemaphoresKHR(device, &info, timeout_ns);
}

static uint64_t counter(VkDevice device, VkSemaphore sem)
{
   uint64_t value = UINT64_MAX;
   VKT_CHECK(vkGetSemaphoreCounterValueKHR(device, sem, &value));
   return value;
}

TEST_CASE(timeline_counter_follows_host_signals)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   VkSemaphore sem = vkt_timeline_create(&dev, 5);
   REQUIRE(sem);
   CHECK_EQ_U64(counter(dev.device, sem), 5);
   VKT_CHECK(host_signal(dev.device, sem, 10));
   CHECK_EQ_U64(counter(dev.device, sem), 10);

   uint64_t v = 7;
   VKT_CHECK_RESULT(host_wait(dev.device, 1, &sem, &v, false, 0), VK_SUCCESS);
   v = 10;
   VKT_CHECK_RESULT(host_wait(dev.device, 1, &sem, &v, false, 0), VK_SUCCESS);
   v = 11;
   VKT_CHECK_RESULT(host_wait(dev.device, 1, &sem, &v, false, 0), VK_TIMEOUT);
   double t0 = vkt_seconds();
   VKT_CHECK_RESULT(host_wait(dev.device, 1, &sem, &v, false, 30 * MS), VK_TIMEOUT);
   double waited = vkt_seconds() - t0;
   CHECK_MSG(waited < 5.0, "a 30 ms wait took %.3f s", waited);

   /* Values far apart are fine (within maxTimelineSemaphoreValueDifference). */
   VKT_CHECK(host_signal(dev.device, sem, 1u << 30));
   CHECK_EQ_U64(counter(dev.device, sem), 1u << 30);
   vkDestroySemaphore(dev.device, sem, NULL);
   vkt_teardown(&ctx, &dev);
}

TEST_CASE(timeline_wait_any_versus_all)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   VkSemaphore sems[2] = {vkt_timeline_create(&dev, 0), vkt_timeline_create(&dev, 0)};
   REQUIRE(sems[0] && sems[1]);
   const uint64_t values[2] = {3, 3};
   VKT_CHECK_RESULT(host_wait(dev.device, 2, sems, values, true, 0), VK_TIMEOUT);
   VKT_CHECK(host_signal(dev.device, sems[0], 3));
   VKT_CHECK_RESULT(host_wait(dev.device, 2, sems, values, true, 0), VK_SUCCESS);
   VKT_CHECK_RESULT(host_wait(dev.device, 2, sems, values, true, 30 * MS), VK_SUCCESS);
   VKT_CHECK_RESULT(host_wait(dev.device, 2, sems, values, false, 0), VK_TIMEOUT);
   VKT_CHECK_RESULT(host_wait(dev.device, 2, sems, values, false, 30 * MS), VK_TIMEOUT);
   VKT_CHECK(host_signal(dev.device, sems[1], 4));
   VKT_CHECK_RESULT(host_wait(dev.device, 2, sems, values, false, 0), VK_SUCCESS);
   vkDestroySemaphore(dev.device, sems[0], NULL);
   vkDestroySemaphore(dev.device, sems[1], NULL);
   vkt_teardown(&ctx, &dev);
}

/* A copy submitted to wait for value 1 must not run until the host signals
 * 1; then it runs and the GPU signals 2. */
TEST_CASE(timeline_gpu_wait_before_signal_resolved_by_host)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   const VkDeviceSize size = 4u << 20;
   struct vkt_buffer src, dst;
   VKT_REQUIRE(vkt_buffer_create(&dev, size, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &src));
   VKT_REQUIRE(vkt_buffer_create(&dev, size, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &dst));
   vkt_fill_random(src.map, size, 30);
   memset(dst.map, 0, size);
   VkSemaphore sem = vkt_timeline_create(&dev, 0);
   VkFence fence = vkt_fence_create(&dev, false);
   VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
   REQUIRE(sem && fence && cmd);
   VkBufferCopy region = {.size = size};
   vkCmdCopyBuffer(cmd, src.buffer, dst.buffer, 1, &region);
   vkt_cmd_transfer_to_host_barrier(cmd);
   VKT_REQUIRE(vkEndCommandBuffer(cmd));

   const uint64_t wait_value = 1, signal_value = 2;
   VkTimelineSemaphoreSubmitInfoKHR values = {
       .sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO_KHR,
       .waitSemaphoreValueCount = 1,
       .pWaitSemaphoreValues = &wait_value,
       .signalSemaphoreValueCount = 1,
       .pSignalSemaphoreValues = &signal_value,
   };
   VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
   VkSubmitInfo si = {
       .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
       .pNext = &values,
       .waitSemaphoreCount = 1,
       .pWaitSemaphores = &sem,
       .pWaitDstStageMask = &stage,
       .commandBufferCount = 1,
       .pCommandBuffers = &cmd,
       .signalSemaphoreCount = 1,
       .pSignalSemaphores = &sem,
   };
   VKT_CHECK(vkQueueSubmit(dev.queue, 1, &si, fence));
   vkt_sleep_ms(50);
   VKT_CHECK_RESULT(vkGetFenceStatus(dev.device, fence), VK_NOT_READY);
   CHECK_EQ_U64(counter(dev.device, sem), 0);
   const uint32_t *words = dst.map;
   CHECK_MSG(words[0] == 0 && words[size / 4 - 1] == 0, "the copy ran before its wait resolved");

   VKT_CHECK(host_signal(dev.device, sem, 1));
   VkResult r = host_wait(dev.device, 1, &sem, &signal_value, false, VKT_WAIT_TIMEOUT_NS);
   if (r == VK_TIMEOUT)
      vkt_fatal_hang("a copy released by a host timeline signal");
   VKT_CHECK(r);
   VKT_CHECK(vkWaitForFences(dev.device, 1, &fence, VK_TRUE, VKT_WAIT_TIMEOUT_NS));
   CHECK_EQ_U64(counter(dev.device, sem), 2);
   vkt_compare_words(src.map, dst.map, size, "copy released by the host");

   vkDestroyFence(dev.device, fence, NULL);
   vkDestroySemaphore(dev.device, sem, NULL);
   vkFreeCommandBuffers(dev.device, dev.pools[ctx.universal_family], 1, &cmd);
   vkt_buffer_destroy(&dev, &dst);
   vkt_buffer_destroy(&dev, &src);
   vkt_teardown(&ctx, &dev);
}

/* ---------------------------------------------------------------------------
 * Several host threads on timelines at once.
 *
 * THREADS threads form a ring: thread i owns semaphore ring[i] and, in round
 * k, waits until its predecessor's semaphore reaches its round-k value, then
 * signals its own to k + 1. Every signal therefore wakes a wait made on
 * another thread. Only the owner signals a semaphore: the validation layer
 * tracks host signals per call, and two threads signalling one semaphore
 * would race in its bookkeeping. Odd threads wait with WAIT_ANY over their
 * predecessor and a semaphore nobody signals. Meanwhile batches already on the
 * GPU wait for milestones of the last semaphore of the ring and signal
 * another timeline, so GPU waits are resolved by host signals.
 * ------------------------------------------------------------------------- */
#define THREADS 4
#define ROUNDS 150
#define MILESTONES 5

struct ring_thread {
   VkDevice device;
   VkSemaphore own, predecessor, never;
   uint32_t index;
   VkResult result;
   uint64_t failed_round;
};

static void *ring_thread_main(void *arg)
{
   struct ring_thread *t = arg;
   for (uint64_t k = 0; k < ROUNDS; k++) {
      /* Thread 0 waits for the last thread's previous round. */
      VkSemaphore sems[2] = {t->predecessor, t->never};
      uint64_t values[2] = {t->index == 0 ? k : k + 1, 1};
      bool any = t->index & 1;
      t->result = host_wait(t->device, any ? 2 : 1, sems, values, any, VKT_WAIT_TIMEOUT_NS / 4);
      if (t->result == VK_SUCCESS)
         t->result = host_signal(t->device, t->own, k + 1);
      if (t->result != VK_SUCCESS) {
         t->failed_round = k;
         /* Let the successor go on so it fails on its own problem, if any,
          * rather than on a timeout. */
         (void)host_signal(t->device, t->own, ROUNDS);
         return NULL;
      }
   }
   return NULL;
}

TEST_CASE(timeline_host_threads_in_a_ring_release_gpu_waits)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   VkSemaphore ring[THREADS];
   for (uint32_t i = 0; i < THREADS; i++) {
      ring[i] = vkt_timeline_create(&dev, 0);
      REQUIRE(ring[i]);
   }
   VkSemaphore never = vkt_timeline_create(&dev, 0), gpu_progress = vkt_timeline_create(&dev, 0);
   REQUIRE(never && gpu_progress);

   /* Empty batches: the GPU waits for ring milestones, signals progress. */
   for (uint64_t m = 1; m <= MILESTONES; m++) {
      uint64_t wait_value = m * ROUNDS / MILESTONES, signal_value = m;
      VkTimelineSemaphoreSubmitInfoKHR values = {
          .sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO_KHR,
          .waitSemaphoreValueCount = 1,
          .pWaitSemaphoreValues = &wait_value,
          .signalSemaphoreValueCount = 1,
          .pSignalSemaphoreValues = &signal_value,
      };
      VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
      VkSubmitInfo si = {
          .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
          .pNext = &values,
          .waitSemaphoreCount = 1,
          .pWaitSemaphores = &ring[THREADS - 1],
          .pWaitDstStageMask = &stage,
          .signalSemaphoreCount = 1,
          .pSignalSemaphores = &gpu_progress,
      };
      VKT_CHECK(vkQueueSubmit(dev.queue, 1, &si, VK_NULL_HANDLE));
   }

   struct ring_thread threads[THREADS];
   pthread_t ids[THREADS];
   double t0 = vkt_seconds();
   for (uint32_t i = 0; i < THREADS; i++) {
      threads[i] = (struct ring_thread){
          .device = dev.device,
          .own = ring[i],
          .predecessor = ring[(i + THREADS - 1) % THREADS],
          .never = never,
          .index = i,
      };
      REQUIRE(pthread_create(&ids[i], NULL, ring_thread_main, &threads[i]) == 0);
   }
   /* The main thread waits for the end of the ring and for the GPU. */
   VkSemaphore both[2] = {ring[THREADS - 1], gpu_progress};
   uint64_t finals[2] = {ROUNDS, MILESTONES};
   VkResult r = host_wait(dev.device, 2, both, finals, false, VKT_WAIT_TIMEOUT_NS);
   for (uint32_t i = 0; i < THREADS; i++)
      pthread_join(ids[i], NULL);
   printf("  %d host signals from %d threads in %.3f s\n", THREADS * ROUNDS, THREADS,
          vkt_seconds() - t0);
   for (uint32_t i = 0; i < THREADS; i++)
      CHECK_MSG(threads[i].result == VK_SUCCESS, "thread %u failed in round %llu: %s", i,
                (unsigned long long)threads[i].failed_round, vkt_result_name(threads[i].result));
   if (r == VK_TIMEOUT)
      vkt_fatal_hang("GPU waits on host-signalled timeline values");
   VKT_CHECK(r);
   for (uint32_t i = 0; i < THREADS; i++)
      CHECK_EQ_U64(counter(dev.device, ring[i]), ROUNDS);
   CHECK_EQ_U64(counter(dev.device, gpu_progress), MILESTONES);
   CHECK_EQ_U64(counter(dev.device, never), 0);

   VKT_CHECK(vkQueueWaitIdle(dev.queue));
   vkDestroySemaphore(dev.device, gpu_progress, NULL);
   vkDestroySemaphore(dev.device, never, NULL);
   for (uint32_t i = 0; i < THREADS; i++)
      vkDestroySemaphore(dev.device, ring[i], NULL);
   vkt_teardown(&ctx, &dev);
}

/* GPU -> GPU: a chain of batches spread over the universal queues, batch s
 * (on queue s % queues) waiting for value s and signalling s + 1. The host
 * starts the chain by signalling 1 after everything is submitted. Queues are
 * filled last-first, so most waits are submitted before their signals; within
 * one queue batches stay in ascending order, because a batch blocked on a
 * value that only a later batch of the same queue signals can never run
 * (queue forward progress). */
TEST_CASE(timeline_chain_across_queues_waits_before_signals)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   const uint32_t uf = ctx.universal_family, queues = dev.queue_count[uf];
   const uint64_t steps = 24;
   VkSemaphore sem = vkt_timeline_create(&dev, 0);
   REQUIRE(sem);
   for (uint32_t q = queues; q-- > 0;) {
      for (uint64_t s = 1; s <= steps; s++) {
         if (s % queues != q)
            continue;
         VkSemaphoreSubmitInfoKHR wait = {
             .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO_KHR,
             .semaphore = sem,
             .value = s,
             .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT_KHR,
         };
         VkSemaphoreSubmitInfoKHR signal = wait;
         signal.value = s + 1;
         VkSubmitInfo2KHR batch = {
             .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2_KHR,
             .waitSemaphoreInfoCount = 1,
             .pWaitSemaphoreInfos = &wait,
             .signalSemaphoreInfoCount = 1,
             .pSignalSemaphoreInfos = &signal,
         };
         VKT_CHECK(vkQueueSubmit2KHR(dev.queues[uf][q], 1, &batch, VK_NULL_HANDLE));
      }
   }
   vkt_sleep_ms(20);
   CHECK_EQ_U64(counter(dev.device, sem), 0);
   VKT_CHECK(host_signal(dev.device, sem, 1));
   uint64_t last = steps + 1;
   VkResult r = host_wait(dev.device, 1, &sem, &last, false, VKT_WAIT_TIMEOUT_NS);
   if (r == VK_TIMEOUT)
      vkt_fatal_hang("a timeline chain across queues");
   VKT_CHECK(r);
   CHECK_EQ_U64(counter(dev.device, sem), steps + 1);
   VKT_CHECK(vkDeviceWaitIdle(dev.device));
   vkDestroySemaphore(dev.device, sem, NULL);
   vkt_teardown(&ctx, &dev);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
