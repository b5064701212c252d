/* Application data attached to objects: VK_EXT_private_data slots on many
 * object types (from several threads too), and VK_EXT_debug_utils object
 * names, tags and labels, which must be accepted on every object type
 * without disturbing the work around them. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vk_test_context.h"

/* One object of each type the tests attach data to. */
struct object_zoo {
   VkBuffer buffer;
   VkDeviceMemory memory;
   VkFence fence;
   VkSemaphore semaphore;
   VkEvent event;
   VkCommandPool pool;
   VkCommandBuffer cmd;
   VkQueryPool query_pool;
};

#define ZOO_MAX 12
struct object_ref {
   VkObjectType type;
   uint64_t handle;
   const char *name;
};

static bool zoo_create(struct vkt_device *dev, struct object_zoo *z)
{
   memset(z, 0, sizeof(*z));
   VkBufferCreateInfo bci = {
       .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = 4096, .usage = VKT_USAGE_TRANSFER};
   VkMemoryAllocateInfo mai = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
       .allocationSize = 4096,
       .memoryTypeIndex =
           vkt_find_memory_type(dev->ctx, ~0u, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, 0),
   };
   VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
   VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
   VkEventCreateInfo eci = {.sType = VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
   VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                  .queueFamilyIndex = dev->ctx->universal_family};
   VkQueryPoolCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                .queryType = VK_QUERY_TYPE_TIMESTAMP,
                                .queryCount = 4};
   VkResult r = vkCreateBuffer(dev->device, &bci, NULL, &z->buffer);
   if (r == VK_SUCCESS)
      r = vkAllocateMemory(dev->device, &mai, NULL, &z->memory);
   if (r == VK_SUCCESS)
      r = vkCreateFence(dev->device, &fci, NULL, &z->fence);
   if (r == VK_SUCCESS)
      r = vkCreateSemaphore(dev->device, &sci, NULL, &z->semaphore);
   if (r == VK_SUCCESS)
      r = vkCreateEvent(dev->device, &eci, NULL, &z->event);
   if (r == VK_SUCCESS)
      r = vkCreateCommandPool(dev->device, &pci, NULL, &z->pool);
   if (r == VK_SUCCESS) {
      VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                        .commandPool = z->pool,
                                        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                        .commandBufferCount = 1};
      r = vkAllocateCommandBuffers(dev->device, &ai, &z->cmd);
   }
   if (r == VK_SUCCESS)
      r = vkCreateQueryPool(dev->device, &qci, NULL, &z->query_pool);
   if (r != VK_SUCCESS)
      test_fail(__FILE__, __LINE__, "creating the objects -> %s", vkt_result_name(r));
   return r == VK_SUCCESS;
}

static void zoo_destroy(struct vkt_device *dev, struct object_zoo *z)
{
   VkDevice d = dev->device;
   if (z->query_pool)
      vkDestroyQueryPool(d, z->query_pool, NULL);
   if (z->pool)
      vkDestroyCommandPool(d, z->pool, NULL);
   if (z->event)
      vkDestroyEvent(d, z->event, NULL);
   if (z->semaphore)
      vkDestroySemaphore(d, z->semaphore, NULL);
   if (z->fence)
      vkDestroyFence(d, z->fence, NULL);
   if (z->memory)
      vkFreeMemory(d, z->memory, NULL);
   if (z->buffer)
      vkDestroyBuffer(d, z->buffer, NULL);
}

/* Dispatchable handles are pointers, the others 64-bit values: both travel
 * as uint64_t in these APIs. */
#define DISPATCHABLE(h) ((uint64_t)(uintptr_t)(h))

static uint32_t zoo_list(struct vkt_device *dev, const struct object_zoo *z, struct object_ref *out)
{
   uint32_t n = 0;
   out[n++] = (struct object_ref){VK_OBJECT_TYPE_DEVICE, DISPATCHABLE(dev->device), "device"};
   out[n++] = (struct object_ref){VK_OBJECT_TYPE_QUEUE, DISPATCHABLE(dev->queue), "queue"};
   out[n++] = (struct object_ref){VK_OBJECT_TYPE_COMMAND_BUFFER, DISPATCHABLE(z->cmd), "cmd"};
   out[n++] = (struct object_ref){VK_OBJECT_TYPE_BUFFER, (uint64_t)z->buffer, "buffer"};
   out[n++] = (struct object_ref){VK_OBJECT_TYPE_DEVICE_MEMORY, (uint64_t)z->memory, "memory"};
   out[n++] = (struct object_ref){VK_OBJECT_TYPE_FENCE, (uint64_t)z->fence, "fence"};
   out[n++] = (struct object_ref){VK_OBJECT_TYPE_SEMAPHORE, (uint64_t)z->semaphore, "semaphore"};
   out[n++] = (struct object_ref){VK_OBJECT_TYPE_EVENT, (uint64_t)z->event, "event"};
   out[n++] = (struct object_ref){VK_OBJECT_TYPE_COMMAND_POOL, (uint64_t)z->pool, "pool"};
   out[n++] = (struct object_ref){VK_OBJECT_TYPE_QUERY_POOL, (uint64_t)z->query_pool, "queries"};
   return n;
}

static VkPrivateDataSlotEXT create_slot(struct vkt_device *dev)
{
   VkPrivateDataSlotCreateInfoEXT info = {.sType =
                                              VK_STRUCTURE_TYPE_PRIVATE_DATA_SLOT_CREATE_INFO_EXT};
   VkPrivateDataSlotEXT slot = VK_NULL_HANDLE;
   VKT_CHECK(vkCreatePrivateDataSlotEXT(dev->device, &info, NULL, &slot));
   return slot;
}

static uint64_t get_data(struct vkt_device *dev, const struct object_ref *o,
                         VkPrivateDataSlotEXT slot)
{
   uint64_t v = 0xBADBADBADull;
   vkGetPrivateDataEXT(dev->device, o->type, o->handle, slot, &v);
   return v;
}

static uint64_t value_for(uint32_t slot, uint32_t object, uint32_t round)
{
   return ((uint64_t)(slot + 1) << 48) ^ ((uint64_t)(object + 1) << 24) ^ round ^ 0x5A5A0000ull;
}

TEST_CASE(private_data_round_trips_on_many_object_types)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   struct object_zoo zoo;
   if (!zoo_create(&dev, &zoo)) {
      vkt_teardown(&ctx, &dev);
      return;
   }
   struct object_ref objs[ZOO_MAX];
   uint32_t n = zoo_list(&dev, &zoo, objs);
   VkPrivateDataSlotEXT slots[2] = {create_slot(&dev), create_slot(&dev)};
   REQUIRE(slots[0] && slots[1]);

   /* Never set: 0. */
   for (uint32_t o = 0; o < n; o++)
      CHECK_MSG(get_data(&dev, &objs[o], slots[0]) == 0, "%s: unset data is not 0", objs[o].name);
   for (uint32_t round = 0; round < 2; round++) {
      for (uint32_t s = 0; s < 2; s++)
         for (uint32_t o = 0; o < n; o++)
            VKT_CHECK(vkSetPrivateDataEXT(dev.device, objs[o].type, objs[o].handle, slots[s],
                                          value_for(s, o, round)));
      for (uint32_t s = 0; s < 2; s++)
         for (uint32_t o = 0; o < n; o++) {
            uint64_t got = get_data(&dev, &objs[o], slots[s]);
            CHECK_MSG(got == value_for(s, o, round), "%s slot %u round %u: 0x%llx", objs[o].name, s,
                      round, (unsigned long long)got);
         }
   }
   vkDestroyPrivateDataSlotEXT(dev.device, slots[1], NULL);
   vkDestroyPrivateDataSlotEXT(dev.device, slots[0], NULL);
   zoo_destroy(&dev, &zoo);
   vkt_teardown(&ctx, &dev);
}

/* Slots reserved at device creation and slots beyond them behave the same;
 * destroying one slot leaves the others; a new slot starts empty. */
TEST_CASE(private_data_slots_reserved_and_beyond_are_independent)
{
   struct vkt_context ctx;
   if (!vkt_context_create(&ctx))
      return;
   VkDevicePrivateDataCreateInfoEXT reserve = {
       .sType = VK_STRUCTURE_TYPE_DEVICE_PRIVATE_DATA_CREATE_INFO_EXT,
       .privateDataSlotRequestCount = 3,
   };
   VkPhysicalDevicePrivateDataFeaturesEXT feature = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIVATE_DATA_FEATURES_EXT,
       .privateData = VK_TRUE,
   };
   const char *ext[] = {VK_EXT_PRIVATE_DATA_EXTENSION_NAME};
   struct vkt_device_desc desc = {
       .extensions = ext,
       .extension_count = 1,
       .feature_chain = &feature,
       .create_next = &reserve,
   };
   struct vkt_device dev;
   VKT_REQUIRE(vkt_device_create(&ctx, &desc, &dev));
   struct object_ref device = {VK_OBJECT_TYPE_DEVICE, DISPATCHABLE(dev.device), "device"};
   enum { SLOTS = 10 };
   VkPrivateDataSlotEXT slots[SLOTS];
   for (uint32_t s = 0; s < SLOTS; s++) {
      slots[s] = create_slot(&dev);
      REQUIRE(slots[s]);
      VKT_CHECK(vkSetPrivateDataEXT(dev.device, device.type, device.handle, slots[s],
                                    value_for(s, 0, 7)));
   }
   vkDestroyPrivateDataSlotEXT(dev.device, slots[4], NULL);
   slots[4] = create_slot(&dev);
   REQUIRE(slots[4]);
   CHECK_MSG(get_data(&dev, &device, slots[4]) == 0, "a new slot is not empty");
   for (uint32_t s = 0; s < SLOTS; s++) {
      if (s != 4)
         CHECK_MSG(get_data(&dev, &device, slots[s]) == value_for(s, 0, 7), "slot %u lost its data",
                   s);
      vkDestroyPrivateDataSlotEXT(dev.device, slots[s], NULL);
   }
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

struct private_data_thread {
   struct vkt_device *dev;
   VkPrivateDataSlotEXT slot;
   const struct object_ref *objs;
   uint32_t object_count, index, mismatches;
};

static void *private_data_thread_main(void *arg)
{
   struct private_data_thread *t = arg;
   for (uint32_t round = 0; round < 500; round++) {
      for (uint32_t o = 0; o < t->object_count; o++)
         (void)vkSetPrivateDataEXT(t->dev->device, t->objs[o].type, t->objs[o].handle, t->slot,
                                   value_for(t->index, o, round));
      for (uint32_t o = 0; o < t->object_count; o++) {
         if (get_data(t->dev, &t->objs[o], t->slot) != value_for(t->index, o, round))
            t->mismatches++;
      }
   }
   return NULL;
}

/* Four threads, one slot each, the same objects: no thread sees another's
 * data. (Only the slot is the thread's own; the objects are shared.) */
TEST_CASE(private_data_from_several_threads)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   struct object_zoo zoo;
   if (!zoo_create(&dev, &zoo)) {
      vkt_teardown(&ctx, &dev);
      return;
   }
   struct object_ref objs[ZOO_MAX];
   uint32_t n = zoo_list(&dev, &zoo, objs);
   enum { THREADS = 4 };
   struct private_data_thread threads[THREADS];
   pthread_t ids[THREADS];
   for (uint32_t i = 0; i < THREADS; i++) {
      threads[i] = (struct private_data_thread){&dev, create_slot(&dev), objs, n, i, 0};
      REQUIRE(threads[i].slot);
   }
   for (uint32_t i = 0; i < THREADS; i++)
      REQUIRE(pthread_create(&ids[i], NULL, private_data_thread_main, &threads[i]) == 0);
   for (uint32_t i = 0; i < THREADS; i++)
      pthread_join(ids[i], NULL);
   for (uint32_t i = 0; i < THREADS; i++) {
      CHECK_MSG(threads[i].mismatches == 0, "thread %u read back %u wrong values", i,
                threads[i].mismatches);
      vkDestroyPrivateDataSlotEXT(dev.device, threads[i].slot, NULL);
   }
   zoo_destroy(&dev, &zoo);
   vkt_teardown(&ctx, &dev);
}

TEST_CASE(debug_utils_names_and_tags_on_many_object_types)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   struct object_zoo zoo;
   if (!zoo_create(&dev, &zoo)) {
      vkt_teardown(&ctx, &dev);
      return;
   }
   struct object_ref objs[ZOO_MAX];
   uint32_t n = zoo_list(&dev, &zoo, objs);
   VkPrivateDataSlotEXT slot = create_slot(&dev);
   REQUIRE(slot);
   objs[n++] = (struct object_ref){VK_OBJECT_TYPE_PRIVATE_DATA_SLOT_EXT, (uint64_t)slot, "slot"};
   const uint8_t tag[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
   for (uint32_t o = 0; o < n; o++) {
      char name[64];
      snprintf(name, sizeof(name), "vkppu test %s", objs[o].name);
      VkDebugUtilsObjectNameInfoEXT info = {
          .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
          .objectType = objs[o].type,
          .objectHandle = objs[o].handle,
          .pObjectName = name,
      };
      VKT_CHECK(vkSetDebugUtilsObjectNameEXT(dev.device, &info));
      info.pObjectName = "renamed"; /* a second name replaces the first */
      VKT_CHECK(vkSetDebugUtilsObjectNameEXT(dev.device, &info));
      info.pObjectName = NULL; /* removes the name */
      VKT_CHECK(vkSetDebugUtilsObjectNameEXT(dev.device, &info));
      VkDebugUtilsObjectTagInfoEXT tag_info = {
          .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_TAG_INFO_EXT,
          .objectType = objs[o].type,
          .objectHandle = objs[o].handle,
          .tagName = 0x7070,
          .tagSize = sizeof(tag),
          .pTag = tag,
      };
      VKT_CHECK(vkSetDebugUtilsObjectTagEXT(dev.device, &tag_info));
   }
   vkDestroyPrivateDataSlotEXT(dev.device, slot, NULL);
   zoo_destroy(&dev, &zoo);
   vkt_teardown(&ctx, &dev);
}

/* Labels on a command buffer (nested, inserted) and on the queue around a
 * submission change nothing about the work. */
TEST_CASE(debug_utils_labels_leave_work_intact)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   const VkDeviceSize size = 1u << 20;
   struct vkt_buffer src, dst;
   VKT_REQUIRE(vkt_buffer_create(&dev, size, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &src));
   VKT_REQUIRE(vkt_buffer_create(&dev, size, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &dst));
   vkt_fill_random(src.map, size, 110);
   memset(dst.map, 0, size);
   VkDebugUtilsLabelEXT outer = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT,
                                 .pLabelName = "outer",
                                 .color = {1, 0, 0, 1}};
   VkDebugUtilsLabelEXT inner = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT,
                                 .pLabelName = "copy"};
   VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
   REQUIRE(cmd);
   vkCmdBeginDebugUtilsLabelEXT(cmd, &outer);
   vkCmdInsertDebugUtilsLabelEXT(cmd, &inner);
   vkCmdBeginDebugUtilsLabelEXT(cmd, &inner);
   VkBufferCopy whole = {.size = size};
   vkCmdCopyBuffer(cmd, src.buffer, dst.buffer, 1, &whole);
   vkCmdEndDebugUtilsLabelEXT(cmd);
   vkt_cmd_transfer_to_host_barrier(cmd);
   vkCmdEndDebugUtilsLabelEXT(cmd);
   vkQueueBeginDebugUtilsLabelEXT(dev.queue, &outer);
   vkQueueInsertDebugUtilsLabelEXT(dev.queue, &inner);
   VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
   vkQueueEndDebugUtilsLabelEXT(dev.queue);
   vkt_compare_words(src.map, dst.map, size, "copy inside labels");
   vkt_buffer_destroy(&dev, &dst);
   vkt_buffer_destroy(&dev, &src);
   vkt_teardown(&ctx, &dev);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
