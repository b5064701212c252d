/* Transfer commands: vkCmdCopyBuffer, vkCmdFillBuffer and vkCmdUpdateBuffer on
 * multi-megabyte buffers with pseudo-random data, checked word by word against
 * a model computed on the host; sub-ranges at odd word offsets, many regions,
 * device-local memory through staging, several queues at once and the
 * transfer-only queue family. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vk_test_context.h"

#define MiB (1024u * 1024u)

/* vkCmdUpdateBuffer's limit (VUID-vkCmdUpdateBuffer-dataSize-00037). */
#define UPDATE_BUFFER_MAX 65536u

static void copy_whole(VkCommandBuffer cmd, const struct vkt_buffer *src,
                       const struct vkt_buffer *dst, VkDeviceSize size)
{
   VkBufferCopy region = {.size = size};
   vkCmdCopyBuffer(cmd, src->buffer, dst->buffer, 1, &region);
}

TEST_CASE(copy_buffer_16mib_host_visible)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   const VkDeviceSize size = 16 * MiB;
   struct vkt_buffer src, dst;
   VKT_REQUIRE(vkt_buffer_create(&dev, size, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &src));
   VKT_REQUIRE(vkt_buffer_create(&dev, size, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &dst));
   vkt_fill_random(src.map, size, 1);
   memset(dst.map, 0, size);

   VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
   REQUIRE(cmd);
   copy_whole(cmd, &src, &dst, size);
   vkt_cmd_transfer_to_host_barrier(cmd);
   VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
   vkt_compare_words(src.map, dst.map, size, "16 MiB copy");

   vkt_buffer_destroy(&dev, &dst);
   vkt_buffer_destroy(&dev, &src);
   vkt_teardown(&ctx, &dev);
}

TEST_CASE(fill_buffer_whole_and_sub_ranges)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   /* Not a multiple of 4: VK_WHOLE_SIZE fills round down to whole words
    * (VkCmdFillBuffer "size" description) and leave the last 2 bytes alone. */
   const VkDeviceSize size = 16 * MiB + 2;
   struct vkt_buffer buf;
   VKT_REQUIRE(vkt_buffer_create(&dev, size, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &buf));
   uint8_t *expected = malloc(size);
   REQUIRE(expected);
   vkt_fill_random(buf.map, size, 2);
   memcpy(expected, buf.map, size);

   struct {
      VkDeviceSize offset, size;
      uint32_t pattern;
   } fills[] = {
       {4, 4, 0x11111111u},                         /* one word at an odd word offset */
       {4 * 1001, 4 * 77777, 0xA5A55A5Au},          /* odd offset, odd word count */
       {8 * MiB + 12, 4 * MiB + 4, 0x01234567u},    /* multi-megabyte */
       {16 * MiB - 64, VK_WHOLE_SIZE, 0xFEEDF00Du}, /* to the end, rounded down */
   };
   VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
   REQUIRE(cmd);
   for (size_t i = 0; i < sizeof(fills) / sizeof(fills[0]); i++) {
      vkCmdFillBuffer(cmd, buf.buffer, fills[i].offset, fills[i].size, fills[i].pattern);
      VkDeviceSize n =
          fills[i].size == VK_WHOLE_SIZE ? (size - fills[i].offset) & ~3ull : fills[i].size;
      for (VkDeviceSize b = 0; b < n; b += 4)
         memcpy(expected + fills[i].offset + b, &fills[i].pattern, 4);
   }
   vkt_cmd_transfer_to_host_barrier(cmd);
   VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
   vkt_compare_words(expected, buf.map, size, "fills");

   free(expected);
   vkt_buffer_destroy(&dev, &buf);
   vkt_teardown(&ctx, &dev);
}

TEST_CASE(update_buffer_max_size_at_odd_offsets)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   const VkDeviceSize size = 1 * MiB;
   struct vkt_buffer buf;
   VKT_REQUIRE(vkt_buffer_create(&dev, size, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &buf));
   uint8_t *expected = malloc(size);
   uint8_t *data = malloc(UPDATE_BUFFER_MAX);
   REQUIRE(expected && data);
   vkt_fill_random(buf.map, size, 3);
   memcpy(expected, buf.map, size);

   const struct {
      VkDeviceSize offset, size;
   } updates[] = {
       {12, UPDATE_BUFFER_MAX}, {4, 4},
       {size - 4, 4},           {4 * 33333, 4 * 999},
       {256 * 1024 + 4, 12},    {size - 4 - UPDATE_BUFFER_MAX, UPDATE_BUFFER_MAX},
   };
   VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
   REQUIRE(cmd);
   for (size_t i = 0; i < sizeof(updates) / sizeof(updates[0]); i++) {
      /* The data is copied at record time, so the array may be reused. */
      vkt_fill_random(data, updates[i].size, 100 + i);
      vkCmdUpdateBuffer(cmd, buf.buffer, updates[i].offset, updates[i].size, data);
      memcpy(expected + updates[i].offset, data, updates[i].size);
   }
   memset(data, 0, UPDATE_BUFFER_MAX);
   vkt_cmd_transfer_to_host_barrier(cmd);
   VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
   vkt_compare_words(expected, buf.map, size, "updates");

   free(data);
   free(expected);
   vkt_buffer_destroy(&dev, &buf);
   vkt_teardown(&ctx, &dev);
}

TEST_CASE(copy_many_regions_at_odd_offsets)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   const VkDeviceSize size = 4 * MiB;
   struct vkt_buffer src, dst;
   VKT_REQUIRE(vkt_buffer_create(&dev, size, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &src));
   VKT_REQUIRE(vkt_buffer_create(&dev, size, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &dst));
   vkt_fill_random(src.map, size, 4);
   vkt_fill_random(dst.map, size, 5);
   uint8_t *expected = malloc(size);
   VkBufferCopy *regions = malloc(4096 * sizeof(*regions));
   REQUIRE(expected && regions);
   memcpy(expected, dst.map, size);

   /* Destination regions are disjoint (their order is then irrelevant);
    * source regions may overlap each other. */
   uint64_t rng = 42;
   uint32_t count = 0;
   VkDeviceSize cursor = 0;
   while (count < 4096) {
      VkDeviceSize gap = 4 * (vkt_rand_next(&rng) % 16);
      VkDeviceSize len = 4 * (1 + vkt_rand_next(&rng) % 2048);
      if (cursor + gap + len > size)
         break;
      VkDeviceSize src_offset = 4 * (vkt_rand_next(&rng) % ((size - len) / 4 + 1));
      regions[count++] = (VkBufferCopy){src_offset, cursor + gap, len};
      memcpy(expected + cursor + gap, (uint8_t *)src.map + src_offset, len);
      cursor += gap + len;
   }
   printf("  %u regions\n", count);
   CHECK(count > 500);

   VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
   REQUIRE(cmd);
   vkCmdCopyBuffer(cmd, src.buffer, dst.buffer, count, regions);
   vkt_cmd_transfer_to_host_barrier(cmd);
   VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
   vkt_compare_words(expected, dst.map, size, "many regions");

   free(regions);
   free(expected);
   vkt_buffer_destroy(&dev, &dst);
   vkt_buffer_destroy(&dev, &src);
   vkt_teardown(&ctx, &dev);
}

/* vkCmdCopyBuffer has no alignment rule: offsets and sizes are bytes. */
TEST_CASE(copy_regions_at_byte_granularity)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   const VkDeviceSize size = 1 * MiB;
   struct vkt_buffer src, dst;
   VKT_REQUIRE(vkt_buffer_create(&dev, size, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &src));
   VKT_REQUIRE(vkt_buffer_create(&dev, size, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &dst));
   vkt_fill_random(src.map, size, 9);
   vkt_fill_random(dst.map, size, 10);
   uint8_t *expected = malloc(size);
   REQUIRE(expected);
   memcpy(expected, dst.map, size);
   const VkBufferCopy regions[] = {
       {1, 2, 1},         {3, 7, 5},        {4097, 10001, 3333},   {size - 3, 20003, 3},
       {12, 30001, 4097}, {0, size - 1, 1}, {65537, 65539, 65535},
   };
   const uint32_t count = sizeof(regions) / sizeof(regions[0]);
   for (uint32_t i = 0; i < count; i++)
      memcpy(expected + regions[i].dstOffset, (uint8_t *)src.map + regions[i].srcOffset,
             regions[i].size);
   VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
   REQUIRE(cmd);
   vkCmdCopyBuffer(cmd, src.buffer, dst.buffer, count, regions);
   vkt_cmd_transfer_to_host_barrier(cmd);
   VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
   vkt_compare_words(expected, dst.map, size, "byte-granular regions");
   free(expected);
   vkt_buffer_destroy(&dev, &dst);
   vkt_buffer_destroy(&dev, &src);
   vkt_teardown(&ctx, &dev);
}

/* Source and destination in the same buffer, at ranges that do not overlap
 * (VUID-vkCmdCopyBuffer-pRegions-00117 forbids only overlap). */
TEST_CASE(copy_within_one_buffer)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   const VkDeviceSize size = 8 * MiB, half = 4 * MiB;
   struct vkt_buffer buf;
   VKT_REQUIRE(vkt_buffer_create(&dev, size, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &buf));
   vkt_fill_random(buf.map, size, 11);
   uint8_t *expected = malloc(size);
   REQUIRE(expected);
   memcpy(expected, buf.map, size);
   memcpy(expected + half + 8, expected + 4, half - 8); /* low half to high half */
   VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
   REQUIRE(cmd);
   VkBufferCopy region = {.srcOffset = 4, .dstOffset = half + 8, .size = half - 8};
   vkCmdCopyBuffer(cmd, buf.buffer, buf.buffer, 1, &region);
   vkt_cmd_transfer_to_host_barrier(cmd);
   VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
   vkt_compare_words(expected, buf.map, size, "copy within one buffer");
   free(expected);
   vkt_buffer_destroy(&dev, &buf);
   vkt_teardown(&ctx, &dev);
}

TEST_CASE(device_local_round_trip_through_staging)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   const VkDeviceSize size = 32 * MiB;
   struct vkt_buffer upload, local, readback;
   VKT_REQUIRE(vkt_buffer_create(&dev, size, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &upload));
   VKT_REQUIRE(vkt_buffer_create(&dev, size, VKT_USAGE_TRANSFER, VKT_MEMORY_DEVICE, &local));
   VKT_REQUIRE(vkt_buffer_create(&dev, size, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &readback));
   CHECK(ctx.memory.memoryTypes[local.memory_type].propertyFlags &
         VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
   vkt_fill_random(upload.map, size, 6);
   memset(readback.map, 0, size);

   VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
   REQUIRE(cmd);
   copy_whole(cmd, &upload, &local, size);
   VkBufferMemoryBarrier to_read = {
       .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
       .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
       .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT,
       .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
       .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
       .buffer = local.buffer,
       .size = VK_WHOLE_SIZE,
   };
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0,
                        NULL, 1, &to_read, 0, NULL);
   copy_whole(cmd, &local, &readback, size);
   vkt_cmd_transfer_to_host_barrier(cmd);
   VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
   vkt_compare_words(upload.map, readback.map, size, "device-local round trip");

   vkt_buffer_destroy(&dev, &readback);
   vkt_buffer_destroy(&dev, &local);
   vkt_buffer_destroy(&dev, &upload);
   vkt_teardown(&ctx, &dev);
}

/* One host thread per queue: each records and submits its own copy with its
 * own pool and waits for its own fence, all at the same time. */
struct queue_worker {
   struct vkt_device *dev;
   uint32_t family;
   VkQueue queue;
   struct vkt_buffer src, dst;
   VkResult result;
   const char *failed_call;
};

static void *queue_worker_main(void *arg)
{
   struct queue_worker *w = arg;
   VkDevice device = w->dev->device;
   VkCommandPool pool = VK_NULL_HANDLE;
   VkCommandBuffer cmd = VK_NULL_HANDLE;
   VkFence fence = VK_NULL_HANDLE;
   VkCommandPoolCreateInfo pci = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
       .flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
       .queueFamilyIndex = w->family,
   };
   w->failed_call = "vkCreateCommandPool";
   w->result = vkCreateCommandPool(device, &pci, NULL, &pool);
   if (w->result == VK_SUCCESS) {
      VkCommandBufferAllocateInfo ai = {
          .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
          .commandPool = pool,
          .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
          .commandBufferCount = 1,
      };
      w->failed_call = "vkAllocateCommandBuffers";
      w->result = vkAllocateCommandBuffers(device, &ai, &cmd);
   }
   if (w->result == VK_SUCCESS) {
      VkCommandBufferBeginInfo bi = {
          .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
          .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
      };
      w->failed_call = "vkBeginCommandBuffer";
      w->result = vkBeginCommandBuffer(cmd, &bi);
   }
   if (w->result == VK_SUCCESS) {
      copy_whole(cmd, &w->src, &w->dst, w->src.size);
      vkt_cmd_transfer_to_host_barrier(cmd);
      w->failed_call = "vkEndCommandBuffer";
      w->result = vkEndCommandBuffer(cmd);
   }
   if (w->result == VK_SUCCESS) {
      VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
      w->failed_call = "vkCreateFence";
      w->result = vkCreateFence(device, &fci, NULL, &fence);
   }
   if (w->result == VK_SUCCESS) {
      VkSubmitInfo si = {
          .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
          .commandBufferCount = 1,
          .pCommandBuffers = &cmd,
      };
      w->failed_call = "vkQueueSubmit";
      w->result = vkQueueSubmit(w->queue, 1, &si, fence);
   }
   if (w->result == VK_SUCCESS) {
      w->failed_call = "vkWaitForFences";
      w->result = vkWaitForFences(device, 1, &fence, VK_TRUE, VKT_WAIT_TIMEOUT_NS);
      if (w->result != VK_SUCCESS)
         (void)vkQueueWaitIdle(w->queue);
   }
   if (fence)
      vkDestroyFence(device, fence, NULL);
   if (pool)
      vkDestroyCommandPool(device, pool, NULL);
   return NULL;
}

TEST_CASE(copies_on_every_queue_at_once)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   const VkDeviceSize size = 8 * MiB;
   struct queue_worker workers[VKT_MAX_FAMILIES * VKT_MAX_QUEUES_PER_FAMILY];
   uint32_t n = 0;
   for (uint32_t f = 0; f < ctx.family_count; f++) {
      for (uint32_t q = 0; q < dev.queue_count[f]; q++) {
         struct queue_worker *w = &workers[n];
         memset(w, 0, sizeof(*w));
         w->dev = &dev;
         w->family = f;
         w->queue = dev.queues[f][q];
         VKT_REQUIRE(vkt_buffer_create(&dev, size, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &w->src));
         VKT_REQUIRE(vkt_buffer_create(&dev, size, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &w->dst));
         vkt_fill_random(w->src.map, size, 1000 + n);
         memset(w->dst.map, 0, size);
         n++;
      }
   }
   printf("  %u queues\n", n);
   pthread_t threads[VKT_MAX_FAMILIES * VKT_MAX_QUEUES_PER_FAMILY];
   for (uint32_t i = 0; i < n; i++)
      REQUIRE(pthread_create(&threads[i], NULL, queue_worker_main, &workers[i]) == 0);
   for (uint32_t i = 0; i < n; i++)
      pthread_join(threads[i], NULL);
   for (uint32_t i = 0; i < n; i++) {
      struct queue_worker *w = &workers[i];
      char what[64];
      snprintf(what, sizeof(what), "copy on family %u queue %u", w->family, i);
      CHECK_MSG(w->result == VK_SUCCESS, "%s: %s -> %s", what, w->failed_call,
                vkt_result_name(w->result));
      if (w->result == VK_SUCCESS)
         vkt_compare_words(w->src.map, w->dst.map, size, what);
      vkt_buffer_destroy(&dev, &w->src);
      vkt_buffer_destroy(&dev, &w->dst);
   }
   vkt_teardown(&ctx, &dev);
}

/* The transfer-only family copies and updates on its own, then hands a buffer
 * (shared CONCURRENTly by both families) to the universal family through a
 * semaphore. */
TEST_CASE(transfer_only_queue_copies_and_hands_over)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   if (ctx.transfer_family == VKT_NO_FAMILY) {
      vkt_skip("no transfer-only queue family");
      vkt_teardown(&ctx, &dev);
      return;
   }
   const VkDeviceSize size = 8 * MiB;
   const uint32_t tf = ctx.transfer_family, uf = ctx.universal_family;
   struct vkt_buffer src, dst, shared = {0};
   VKT_REQUIRE(vkt_buffer_create(&dev, size, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &src));
   VKT_REQUIRE(vkt_buffer_create(&dev, size, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &dst));
   vkt_fill_random(src.map, size, 7);
   memset(dst.map, 0, size);

   /* The shared buffer is built by hand: CONCURRENT over both families. */
   uint32_t families[2] = {tf, uf};
   VkBufferCreateInfo bci = {
       .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
       .size = size,
       .usage = VKT_USAGE_TRANSFER,
       .sharingMode = VK_SHARING_MODE_CONCURRENT,
       .queueFamilyIndexCount = 2,
       .pQueueFamilyIndices = families,
   };
   VKT_REQUIRE(vkCreateBuffer(dev.device, &bci, NULL, &shared.buffer));
   VkMemoryRequirements req;
   vkGetBufferMemoryRequirements(dev.device, shared.buffer, &req);
   VkMemoryAllocateInfo mai = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
       .allocationSize = req.size,
       .memoryTypeIndex =
           vkt_find_memory_type(&ctx, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0),
   };
   REQUIRE(mai.memoryTypeIndex != VKT_NO_MEMORY_TYPE);
   VKT_REQUIRE(vkAllocateMemory(dev.device, &mai, NULL, &shared.memory));
   VKT_REQUIRE(vkBindBufferMemory(dev.device, shared.buffer, shared.memory, 0));

   /* Transfer queue: src -> shared, then overwrite a few words with updates. */
   uint32_t patch[1024];
   vkt_fill_random(patch, sizeof(patch), 8);
   uint8_t *expected = malloc(size);
   REQUIRE(expected);
   memcpy(expected, src.map, size);
   memcpy(expected + 4 * 12345, patch, sizeof(patch));

   VkCommandBuffer on_transfer = vkt_cmd_begin(&dev, tf);
   VkCommandBuffer on_universal = vkt_cmd_begin(&dev, uf);
   REQUIRE(on_transfer && on_universal);
   copy_whole(on_transfer, &src, &shared, size);
   VkMemoryBarrier waw = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
       .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
       .dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
   };
   vkCmdPipelineBarrier(on_transfer, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                        0, 1, &waw, 0, NULL, 0, NULL);
   vkCmdUpdateBuffer(on_transfer, shared.buffer, 4 * 12345, sizeof(patch), patch);
   VKT_REQUIRE(vkEndCommandBuffer(on_transfer));
   copy_whole(on_universal, &shared, &dst, size);
   vkt_cmd_transfer_to_host_barrier(on_universal);
   VKT_REQUIRE(vkEndCommandBuffer(on_universal));

   VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
   VkSemaphore handed_over;
   VKT_REQUIRE(vkCreateSemaphore(dev.device, &sci, NULL, &handed_over));
   VkFence fence = vkt_fence_create(&dev, false);
   VkSubmitInfo first = {
       .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
       .commandBufferCount = 1,
       .pCommandBuffers = &on_transfer,
       .signalSemaphoreCount = 1,
       .pSignalSemaphores = &handed_over,
   };
   VkPipelineStageFlags wait_stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
   VkSubmitInfo second = {
       .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
       .waitSemaphoreCount = 1,
       .pWaitSemaphores = &handed_over,
       .pWaitDstStageMask = &wait_stage,
       .commandBufferCount = 1,
       .pCommandBuffers = &on_universal,
   };
   VKT_CHECK(vkQueueSubmit(dev.queues[tf][0], 1, &first, VK_NULL_HANDLE));
   VKT_CHECK(vkQueueSubmit(dev.queue, 1, &second, fence));
   VKT_CHECK(vkWaitForFences(dev.device, 1, &fence, VK_TRUE, VKT_WAIT_TIMEOUT_NS));
   VKT_CHECK(vkDeviceWaitIdle(dev.device));
   vkt_compare_words(expected, dst.map, size, "transfer queue -> universal queue");

   vkDestroyFence(dev.device, fence, NULL);
   vkDestroySemaphore(dev.device, handed_over, NULL);
   vkFreeCommandBuffers(dev.device, dev.pools[tf], 1, &on_transfer);
   vkFreeCommandBuffers(dev.device, dev.pools[uf], 1, &on_universal);
   free(expected);
   vkt_buffer_destroy(&dev, &shared);
   vkt_buffer_destroy(&dev, &dst);
   vkt_buffer_destroy(&dev, &src);
   vkt_teardown(&ctx, &dev);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
