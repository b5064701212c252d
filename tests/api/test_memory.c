/* Device memory: mapping, flush and invalidate, the rules on buffer memory
 * requirements, every memory type in use, buffer device addresses, heap
 * exhaustion, dedicated allocations and vkBindBufferMemory2KHR. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vk_test_context.h"

#define MiB (1024u * 1024u)

static bool is_power_of_two(uint64_t v)
{
   return v && !(v & (v - 1));
}

static VkDeviceSize align_up(VkDeviceSize v, VkDeviceSize alignment)
{
   return (v + alignment - 1) / alignment * alignment;
}

static VkBuffer create_buffer(struct vkt_device *dev, VkDeviceSize size, VkBufferUsageFlags usage)
{
   VkBufferCreateInfo bci = {
       .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
       .size = size,
       .usage = usage,
       .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
   };
   VkBuffer buf = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateBuffer(dev->device, &bci, NULL, &buf));
   return buf;
}

static VkDeviceMemory allocate(struct vkt_device *dev, VkDeviceSize size, uint32_t type,
                               const void *next)
{
   VkMemoryAllocateInfo mai = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
       .pNext = next,
       .allocationSize = size,
       .memoryTypeIndex = type,
   };
   VkDeviceMemory mem = VK_NULL_HANDLE;
   VKT_CHECK(vkAllocateMemory(dev->device, &mai, NULL, &mem));
   return mem;
}

TEST_CASE(map_write_unmap_remap_read)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   uint32_t type = vkt_find_memory_type(
       &ctx, ~0u, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, 0);
   REQUIRE(type != VKT_NO_MEMORY_TYPE);
   /* Any offset may be mapped; 100 is deliberately not page-aligned. */
   const VkDeviceSize size = 8 * MiB, offset = 100, window = 1 * MiB;
   VkDeviceMemory mem = allocate(&dev, size, type, NULL);
   REQUIRE(mem);
   void *p = NULL;
   VKT_REQUIRE(vkMapMemory(dev.device, mem, offset, window, 0, &p));
   REQUIRE(p);
   /* "subtracting offset bytes from the returned pointer will always produce
    * an integer multiple of" minMemoryMapAlignment. */
   CHECK_MSG(((uintptr_t)p - offset) % ctx.props.limits.minMemoryMapAlignment == 0,
             "mapping at %p (offset %llu) breaks minMemoryMapAlignment %zu", p,
             (unsigned long long)offset, ctx.props.limits.minMemoryMapAlignment);
   uint8_t *pattern = malloc(window);
   REQUIRE(pattern);
   vkt_fill_random(pattern, window, 100);
   memcpy(p, pattern, window);
   vkUnmapMemory(dev.device, mem);

   VKT_REQUIRE(vkMapMemory(dev.device, mem, 0, VK_WHOLE_SIZE, 0, &p));
   vkt_compare_words(pattern, (uint8_t *)p + offset, window, "remapped contents");
   vkUnmapMemory(dev.device, mem);

   /* Freeing mapped memory unmaps it implicitly. */
   VKT_REQUIRE(vkMapMemory(dev.device, mem, 0, VK_WHOLE_SIZE, 0, &p));
   vkFreeMemory(dev.device, mem, NULL);
   free(pattern);
   vkt_teardown(&ctx, &dev);
}

/* VK_EXT_memory_priority and VK_EXT_pageable_device_local_memory: an
 * allocation made with a priority, its priority changed, and the memory
 * still holds what was written (priorities are hints; docs/memory.md). */
TEST_CASE(memory_priorities_are_taken)
{
   struct vkt_context ctx;
   if (!vkt_context_create(&ctx))
      return;
   if (!vkt_has_device_extension(&ctx, "VK_EXT_memory_priority") ||
       !vkt_has_device_extension(&ctx, "VK_EXT_pageable_device_local_memory")) {
      vkt_skip("%s lacks VK_EXT_memory_priority or VK_EXT_pageable_device_local_memory",
               ctx.props.deviceName);
      vkt_context_destroy(&ctx);
      return;
   }
   static const char *const extensions[] = {"VK_EXT_memory_priority",
                                            "VK_EXT_pageable_device_local_memory"};
   VkPhysicalDevicePageableDeviceLocalMemoryFeaturesEXT pageable = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PAGEABLE_DEVICE_LOCAL_MEMORY_FEATURES_EXT,
       .pageableDeviceLocalMemory = VK_TRUE};
   VkPhysicalDeviceMemoryPriorityFeaturesEXT priority = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PRIORITY_FEATURES_EXT,
       .pNext = &pageable,
       .memoryPriority = VK_TRUE};
   struct vkt_device_desc desc = {
       .extensions = extensions, .extension_count = 2, .feature_chain = &priority};
   struct vkt_device dev;
   VkResult r = vkt_device_create(&ctx, &desc, &dev);
   CHECK_MSG(r == VK_SUCCESS, "vkCreateDevice with both priority features -> %s",
             vkt_result_name(r));
   if (r == VK_SUCCESS) {
      uint32_t type = vkt_find_memory_type(
          &ctx, ~0u, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, 0);
      VkMemoryPriorityAllocateInfoEXT low = {
          .sType = VK_STRUCTURE_TYPE_MEMORY_PRIORITY_ALLOCATE_INFO_EXT, .priority = 0.25f};
      VkDeviceMemory mem = allocate(&dev, 1 * MiB, type, &low);
      CHECK(mem != VK_NULL_HANDLE);
      PFN_vkSetDeviceMemoryPriorityEXT set_priority =
          (PFN_vkSetDeviceMemoryPriorityEXT)vkGetDeviceProcAddr(dev.device,
                                                                "vkSetDeviceMemoryPriorityEXT");
      CHECK(set_priority != NULL);
      if (mem && set_priority) {
         void *p = NULL;
         VKT_CHECK(vkMapMemory(dev.device, mem, 0, VK_WHOLE_SIZE, 0, &p));
         if (p) {
            memset(p, 0x5a, 1 * MiB);
            set_priority(dev.device, mem, 1.0f);
            uint32_t wrong = 0;
            for (size_t i = 0; i < 1 * MiB; i++)
               wrong += ((const uint8_t *)p)[i] != 0x5a;
            CHECK_MSG(wrong == 0, "%u bytes changed after a new priority", wrong);
            vkUnmapMemory(dev.device, mem);
         }
      }
      if (mem)
         vkFreeMemory(dev.device, mem, NULL);
      vkt_device_destroy(&dev);
   }
   vkt_context_destroy(&ctx);
}

/* Host writes made visible by vkFlushMappedMemoryRanges reach a GPU copy, and
 * GPU writes made visible by vkInvalidateMappedMemoryRanges reach the host.
 * Uses a non-coherent host-visible type when there is one. */
TEST_CASE(flush_and_invalidate_mapped_ranges)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   const VkDeviceSize size = 1 * MiB;
   VkBuffer buf = create_buffer(&dev, size, VKT_USAGE_TRANSFER);
   REQUIRE(buf);
   VkMemoryRequirements req;
   vkGetBufferMemoryRequirements(dev.device, buf, &req);
   uint32_t type =
       vkt_find_memory_type(&ctx, req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT,
                            VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
   REQUIRE(type != VKT_NO_MEMORY_TYPE);
   bool coherent =
       ctx.memory.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
   printf("  memory type %u (%s)\n", type,
          coherent ? "coherent: no non-coherent type" : "non-coherent");
   VkDeviceMemory mem = allocate(&dev, req.size, type, NULL);
   REQUIRE(mem);
   VKT_REQUIRE(vkBindBufferMemory(dev.device, buf, mem, 0));
   uint8_t *p;
   VKT_REQUIRE(vkMapMemory(dev.device, mem, 0, VK_WHOLE_SIZE, 0, (void **)&p));
   struct vkt_buffer readback;
   VKT_REQUIRE(vkt_buffer_create(&dev, size, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &readback));

   /* Host -> GPU: two flushed ranges, aligned to nonCoherentAtomSize. */
   const VkDeviceSize atom = ctx.props.limits.nonCoherentAtomSize;
   vkt_fill_random(p, size, 101);
   VkMappedMemoryRange ranges[2] = {
       {.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
        .memory = mem,
        .offset = 0,
        .size = align_up(size / 2, atom)},
       {.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
        .memory = mem,
        .offset = align_up(size / 2, atom),
        .size = VK_WHOLE_SIZE},
   };
   VKT_CHECK(vkFlushMappedMemoryRanges(dev.device, 2, ranges));
   VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
   REQUIRE(cmd);
   VkBufferCopy whole = {.size = size};
   vkCmdCopyBuffer(cmd, buf, readback.buffer, 1, &whole);
   vkt_cmd_transfer_to_host_barrier(cmd);
   VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
   vkt_compare_words(p, readback.map, size, "flushed host writes seen by the GPU");

   /* GPU -> host. */
   cmd = vkt_cmd_begin(&dev, ctx.universal_family);
   REQUIRE(cmd);
   vkCmdFillBuffer(cmd, buf, 0, VK_WHOLE_SIZE, 0x5EED5EEDu);
   vkt_cmd_transfer_to_host_barrier(cmd);
   VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
   VKT_CHECK(vkInvalidateMappedMemoryRanges(dev.device, 2, ranges));
   uint32_t first, last;
   memcpy(&first, p, 4);
   memcpy(&last, p + size - 4, 4);
   CHECK_EQ_U64(first, 0x5EED5EEDu);
   CHECK_EQ_U64(last, 0x5EED5EEDu);

   vkt_buffer_destroy(&dev, &readback);
   vkDestroyBuffer(dev.device, buf, NULL);
   vkFreeMemory(dev.device, mem, NULL);
   vkt_teardown(&ctx, &dev);
}

/* The rules vkGetBufferMemoryRequirements must follow (spec, "Resource Memory
 * Association"): sizes, power-of-two alignment, identical type bits and
 * alignment for identical usage/flags, a host-visible coherent and a
 * device-local type always allowed, size monotonic in the buffer size. */
TEST_CASE(buffer_memory_requirements_follow_spec_rules)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   const VkBufferUsageFlags usages[] = {
       VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
       VK_BUFFER_USAGE_TRANSFER_DST_BIT,
       VKT_USAGE_TRANSFER,
       VKT_USAGE_TRANSFER | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
       VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
       VKT_USAGE_TRANSFER | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT_KHR,
   };
   const VkDeviceSize sizes[] = {1, 4, 1000, MiB + 3, 16 * MiB};
   const uint32_t all_types = (1u << ctx.memory.memoryTypeCount) - 1;
   for (size_t u = 0; u < sizeof(usages) / sizeof(usages[0]); u++) {
      VkMemoryRequirements first = {0}, previous = {0};
      for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
         VkBuffer buf = create_buffer(&dev, sizes[s], usages[u]);
         REQUIRE(buf);
         VkMemoryRequirements req;
         vkGetBufferMemoryRequirements(dev.device, buf, &req);
         VkMemoryRequirements2 req2 = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
         VkBufferMemoryRequirementsInfo2 info = {
             .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_REQUIREMENTS_INFO_2,
             .buffer = buf,
         };
         vkGetBufferMemoryRequirements2KHR(dev.device, &info, &req2);
         vkDestroyBuffer(dev.device, buf, NULL);

         const char *what = "usage 0x%x size %llu: %s";
#define RULE(cond, text) CHECK_MSG(cond, what, usages[u], (unsigned long long)sizes[s], text)
         RULE(req.size >= sizes[s], "size smaller than the buffer");
         RULE(is_power_of_two(req.alignment), "alignment not a power of two");
         RULE(req.memoryTypeBits != 0 && (req.memoryTypeBits & ~all_types) == 0,
              "memoryTypeBits empty or naming types that do not exist");
         RULE(vkt_find_memory_type(&ctx, req.memoryTypeBits,
                                   VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                       VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                                   0) != VKT_NO_MEMORY_TYPE,
              "no host-visible coherent type allowed");
         RULE(vkt_find_memory_type(&ctx, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
                                   0) != VKT_NO_MEMORY_TYPE,
              "no device-local type allowed");
         RULE(req2.memoryRequirements.size == req.size &&
                  req2.memoryRequirements.alignment == req.alignment &&
                  req2.memoryRequirements.memoryTypeBits == req.memoryTypeBits,
              "vkGetBufferMemoryRequirements2KHR disagrees");
         if (s > 0) {
            RULE(req.memoryTypeBits == first.memoryTypeBits,
                 "memoryTypeBits differ between buffers of the same usage");
            RULE(req.alignment == first.alignment,
                 "alignment differs between buffers of the same usage");
            RULE(req.size >= previous.size, "a larger buffer needs less memory");
         } else {
            first = req;
         }
#undef RULE
         previous = req;
      }
   }
   vkt_teardown(&ctx, &dev);
}

/* Buffers whose size is within an alignment of 2^64: rounding their
 * memory requirement up must not wrap to a small size (CTS
 * api.buffer.basic.size_max_uint64 creates a UINT64_MAX buffer and wants
 * size >= the buffer's). vkCreateBuffer may instead refuse with an
 * out-of-memory error, as the CTS allows. A requirement no heap can hold
 * then fails at vkAllocateMemory with VK_ERROR_OUT_OF_DEVICE_MEMORY
 * (checked on vkppu: allocating more than a heap is invalid usage, which
 * the validation layer reports and this case expects). */
TEST_CASE(huge_buffer_requirements_do_not_wrap)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   const VkDeviceSize sizes[] = {(VkDeviceSize)1 << 40, (VkDeviceSize)1 << 63, UINT64_MAX - 256,
                                 UINT64_MAX - 255,      UINT64_MAX - 1,        UINT64_MAX};
   VkMemoryRequirements previous = {0};
   for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
      VkBufferCreateInfo bci = {
          .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
          .size = sizes[s],
          .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
          .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
      };
      VkBuffer buf = VK_NULL_HANDLE;
      VkResult r = vkCreateBuffer(dev.device, &bci, NULL, &buf);
      if (r != VK_SUCCESS) {
         CHECK_MSG(r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY,
                   "vkCreateBuffer(size %#llx) -> %s", (unsigned long long)sizes[s],
                   vkt_result_name(r));
         continue;
      }
      VkMemoryRequirements req;
      vkGetBufferMemoryRequirements(dev.device, buf, &req);
      VkMemoryRequirements2 req2 = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
      VkBufferMemoryRequirementsInfo2 info = {
          .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_REQUIREMENTS_INFO_2, .buffer = buf};
      vkGetBufferMemoryRequirements2KHR(dev.device, &info, &req2);
      vkDestroyBuffer(dev.device, buf, NULL);
      printf("  buffer of %#llx bytes needs %#llx\n", (unsigned long long)sizes[s],
             (unsigned long long)req.size);
      CHECK_MSG(req.size >= sizes[s], "size %#llx: requirement %#llx is smaller",
                (unsigned long long)sizes[s], (unsigned long long)req.size);
      CHECK_MSG(req2.memoryRequirements.size == req.size,
                "size %#llx: vkGetBufferMemoryRequirements2KHR says %#llx, not %#llx",
                (unsigned long long)sizes[s], (unsigned long long)req2.memoryRequirements.size,
                (unsigned long long)req.size);
      CHECK_MSG(req.size >= previous.size, "size %#llx needs less memory than a smaller buffer",
                (unsigned long long)sizes[s]);
      previous = req;
      uint32_t type = vkt_find_memory_type(&ctx, req.memoryTypeBits, 0, 0);
      if (!ctx.is_vkppu || type == VKT_NO_MEMORY_TYPE)
         continue;
      VkMemoryAllocateInfo mai = {
          .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
          .allocationSize = req.size,
          .memoryTypeIndex = type,
      };
      static const char *const expected[] = {"VUID-vkAllocateMemory-pAllocateInfo-01713", NULL};
      vkt_tolerate_begin(expected);
      VkDeviceMemory mem = VK_NULL_HANDLE;
      r = vkAllocateMemory(dev.device, &mai, NULL, &mem);
      vkt_tolerate_end();
      CHECK_MSG(r == VK_ERROR_OUT_OF_DEVICE_MEMORY, "vkAllocateMemory(%#llx) -> %s",
                (unsigned long long)req.size, vkt_result_name(r));
      if (r == VK_SUCCESS)
         vkFreeMemory(dev.device, mem, NULL);
   }
   vkt_teardown(&ctx, &dev);
}

/* Every memory type a transfer buffer may use really holds data: the GPU
 * fills a buffer in each, and copies it to a host-visible one. */
TEST_CASE(every_allowed_memory_type_backs_a_buffer)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   const VkDeviceSize size = 64 * 1024;
   struct vkt_buffer readback;
   VKT_REQUIRE(vkt_buffer_create(&dev, size, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &readback));
   VkBuffer probe = create_buffer(&dev, size, VKT_USAGE_TRANSFER);
   REQUIRE(probe);
   VkMemoryRequirements req;
   vkGetBufferMemoryRequirements(dev.device, probe, &req);
   vkDestroyBuffer(dev.device, probe, NULL);
   for (uint32_t type = 0; type < ctx.memory.memoryTypeCount; type++) {
      if (!(req.memoryTypeBits & (1u << type)))
         continue;
      if (ctx.memory.memoryTypes[type].propertyFlags &
          (VK_MEMORY_PROPERTY_PROTECTED_BIT | VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT))
         continue;
      VkBuffer buf = create_buffer(&dev, size, VKT_USAGE_TRANSFER);
      VkDeviceMemory mem = allocate(&dev, req.size, type, NULL);
      REQUIRE(buf && mem);
      VKT_REQUIRE(vkBindBufferMemory(dev.device, buf, mem, 0));
      memset(readback.map, 0, size);
      VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
      REQUIRE(cmd);
      vkCmdFillBuffer(cmd, buf, 0, VK_WHOLE_SIZE, 0xA000u + type);
      VkMemoryBarrier mb = {
          .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
          .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
          .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT,
      };
      vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
                           1, &mb, 0, NULL, 0, NULL);
      VkBufferCopy whole = {.size = size};
      vkCmdCopyBuffer(cmd, buf, readback.buffer, 1, &whole);
      vkt_cmd_transfer_to_host_barrier(cmd);
      VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
      const uint32_t *w = readback.map;
      CHECK_MSG(w[0] == 0xA000u + type && w[size / 4 - 1] == 0xA000u + type,
                "memory type %u (flags 0x%x) did not hold the fill", type,
                ctx.memory.memoryTypes[type].propertyFlags);
      vkDestroyBuffer(dev.device, buf, NULL);
      vkFreeMemory(dev.device, mem, NULL);
   }
   vkt_buffer_destroy(&dev, &readback);
   vkt_teardown(&ctx, &dev);
}

static VkDeviceAddress address_of(struct vkt_device *dev, VkBuffer buf)
{
   VkBufferDeviceAddressInfoKHR info = {
       .sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO_KHR,
       .buffer = buf,
   };
   return vkGetBufferDeviceAddressKHR(dev->device, &info);
}

/* Addresses are non-zero, aligned, stable, and disjoint for buffers bound to
 * disjoint memory. Two buffers in one allocation are as far apart as their
 * binding offsets: not a spec rule, but what an allocation that is one
 * contiguous GPU virtual range (vkppu, lavapipe, every GPU driver) gives. */
TEST_CASE(device_addresses_unique_and_follow_binding_offsets)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   const VkBufferUsageFlags usage =
       VKT_USAGE_TRANSFER | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT_KHR;
   const VkDeviceSize size = 64 * 1024;
   VkBuffer bufs[4];
   for (int i = 0; i < 4; i++) {
      bufs[i] = create_buffer(&dev, size, usage);
      REQUIRE(bufs[i]);
   }
   VkMemoryRequirements req;
   vkGetBufferMemoryRequirements(dev.device, bufs[0], &req);
   uint32_t type =
       vkt_find_memory_type(&ctx, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0);
   REQUIRE(type != VKT_NO_MEMORY_TYPE);
   VkMemoryAllocateFlagsInfoKHR flags = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO_KHR,
       .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT_KHR,
   };
   const VkDeviceSize stride = align_up(req.size, req.alignment) + align_up(12345, req.alignment);
   VkDeviceMemory shared = allocate(&dev, 3 * stride, type, &flags);
   VkDeviceMemory own = allocate(&dev, req.size, type, &flags);
   REQUIRE(shared && own);
   VkDeviceSize offsets[3] = {0, stride, 2 * stride};
   for (int i = 0; i < 3; i++)
      VKT_REQUIRE(vkBindBufferMemory(dev.device, bufs[i], shared, offsets[i]));
   VKT_REQUIRE(vkBindBufferMemory(dev.device, bufs[3], own, 0));

   VkDeviceAddress addr[4];
   for (int i = 0; i < 4; i++) {
      addr[i] = address_of(&dev, bufs[i]);
      printf("  buffer %d at 0x%llx\n", i, (unsigned long long)addr[i]);
      CHECK_MSG(addr[i] != 0, "buffer %d has the null address", i);
      CHECK_MSG(addr[i] % req.alignment == 0, "buffer %d address not aligned to %llu", i,
                (unsigned long long)req.alignment);
      CHECK_EQ_U64(address_of(&dev, bufs[i]), addr[i]);
      for (int j = 0; j < i; j++)
         CHECK_MSG(addr[i] + size <= addr[j] || addr[j] + size <= addr[i],
                   "buffers %d and %d overlap in the address space", j, i);
   }
   CHECK_EQ_U64(addr[1] - addr[0], offsets[1] - offsets[0]);
   CHECK_EQ_U64(addr[2] - addr[0], offsets[2] - offsets[0]);

   for (int i = 0; i < 4; i++)
      vkDestroyBuffer(dev.device, bufs[i], NULL);
   vkFreeMemory(dev.device, own, NULL);
   vkFreeMemory(dev.device, shared, NULL);
   vkt_teardown(&ctx, &dev);
}

/* Allocating past the heap size, in allocations that are each valid, ends in
 * VK_ERROR_OUT_OF_DEVICE_MEMORY; freeing one makes room again. Skipped on
 * lavapipe, whose "device" memory is host RAM the allocations would take. */
TEST_CASE(heap_exhaustion_returns_out_of_device_memory)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   if (ctx.is_lavapipe) {
      vkt_skip("lavapipe's heap is host RAM");
      vkt_teardown(&ctx, &dev);
      return;
   }
   VkBuffer probe = create_buffer(&dev, 4096, VKT_USAGE_TRANSFER);
   REQUIRE(probe);
   VkMemoryRequirements req;
   vkGetBufferMemoryRequirements(dev.device, probe, &req);
   vkDestroyBuffer(dev.device, probe, NULL);
   uint32_t type =
       vkt_find_memory_type(&ctx, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
                            VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
   REQUIRE(type != VKT_NO_MEMORY_TYPE);
   const VkDeviceSize heap = ctx.memory.memoryHeaps[ctx.memory.memoryTypes[type].heapIndex].size;
   /* An eighth of the heap, so the ninth allocation cannot fit. */
   const VkDeviceSize chunk = heap / 8 / MiB * MiB;
   REQUIRE(chunk > 0);
   printf("  heap %llu MiB, allocating %llu MiB at a time from type %u\n",
          (unsigned long long)(heap / MiB), (unsigned long long)(chunk / MiB), type);
   enum { MAX_CHUNKS = 16 };
   VkDeviceMemory mems[MAX_CHUNKS];
   uint32_t count = 0;
   VkResult r = VK_SUCCESS;
   while (count < MAX_CHUNKS) {
      VkMemoryAllocateInfo mai = {
          .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
          .allocationSize = chunk,
          .memoryTypeIndex = type,
      };
      r = vkAllocateMemory(dev.device, &mai, NULL, &mems[count]);
      if (r != VK_SUCCESS)
         break;
      count++;
   }
   printf("  %u allocations succeeded, then %s\n", count, vkt_result_name(r));
   CHECK_MSG(r == VK_ERROR_OUT_OF_DEVICE_MEMORY, "allocating past the heap -> %s",
             vkt_result_name(r));
   CHECK_MSG(count <= 8, "%u allocations of %llu bytes from a %llu-byte heap", count,
             (unsigned long long)chunk, (unsigned long long)heap);
   if (count > 0 && r == VK_ERROR_OUT_OF_DEVICE_MEMORY) {
      vkFreeMemory(dev.device, mems[--count], NULL);
      VkMemoryAllocateInfo mai = {
          .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
          .allocationSize = chunk,
          .memoryTypeIndex = type,
      };
      VKT_CHECK(vkAllocateMemory(dev.device, &mai, NULL, &mems[count]));
      count++;
   }
   for (uint32_t i = 0; i < count; i++)
      vkFreeMemory(dev.device, mems[i], NULL);
   vkt_teardown(&ctx, &dev);
}

TEST_CASE(dedicated_allocation_holds_its_buffer)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   const VkDeviceSize size = 4 * MiB;
   VkBuffer buf = create_buffer(&dev, size, VKT_USAGE_TRANSFER);
   REQUIRE(buf);
   VkMemoryDedicatedRequirementsKHR dedicated = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS_KHR,
   };
   VkMemoryRequirements2 req2 = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2,
                                 .pNext = &dedicated};
   VkBufferMemoryRequirementsInfo2 info = {
       .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_REQUIREMENTS_INFO_2,
       .buffer = buf,
   };
   vkGetBufferMemoryRequirements2KHR(dev.device, &info, &req2);
   CHECK(dedicated.prefersDedicatedAllocation <= VK_TRUE);
   /* Only external-memory buffers may require a dedicated allocation. */
   CHECK(dedicated.requiresDedicatedAllocation == VK_FALSE);
   const VkMemoryRequirements *req = &req2.memoryRequirements;
   uint32_t type =
       vkt_find_memory_type(&ctx, req->memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
                            VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
   REQUIRE(type != VKT_NO_MEMORY_TYPE);
   VkMemoryDedicatedAllocateInfoKHR dedicated_info = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO_KHR,
       .buffer = buf,
   };
   VkDeviceMemory mem = allocate(&dev, req->size, type, &dedicated_info);
   REQUIRE(mem);
   VKT_REQUIRE(vkBindBufferMemory(dev.device, buf, mem, 0));

   struct vkt_buffer upload, readback;
   VKT_REQUIRE(vkt_buffer_create(&dev, size, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &upload));
   VKT_REQUIRE(vkt_buffer_create(&dev, size, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &readback));
   vkt_fill_random(upload.map, size, 102);
   VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
   REQUIRE(cmd);
   VkBufferCopy whole = {.size = size};
   vkCmdCopyBuffer(cmd, upload.buffer, buf, 1, &whole);
   VkMemoryBarrier mb = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
       .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
       .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT,
   };
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1,
                        &mb, 0, NULL, 0, NULL);
   vkCmdCopyBuffer(cmd, buf, readback.buffer, 1, &whole);
   vkt_cmd_transfer_to_host_barrier(cmd);
   VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
   vkt_compare_words(upload.map, readback.map, size, "through a dedicated allocation");

   vkt_buffer_destroy(&dev, &readback);
   vkt_buffer_destroy(&dev, &upload);
   vkDestroyBuffer(dev.device, buf, NULL);
   vkFreeMemory(dev.device, mem, NULL);
   vkt_teardown(&ctx, &dev);
}

/* vkBindBufferMemory2KHR binds three buffers to one allocation in one call;
 * a copy chain through them shows each landed at its own offset. */
TEST_CASE(bind_buffer_memory2_binds_several_buffers)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   const VkDeviceSize size = 256 * 1024;
   VkBuffer bufs[3];
   VkMemoryRequirements req;
   uint32_t type_bits = ~0u;
   for (int i = 0; i < 3; i++) {
      bufs[i] = create_buffer(&dev, size, VKT_USAGE_TRANSFER);
      REQUIRE(bufs[i]);
      vkGetBufferMemoryRequirements(dev.device, bufs[i], &req);
      type_bits &= req.memoryTypeBits;
   }
   uint32_t type = vkt_find_memory_type(
       &ctx, type_bits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
       0);
   REQUIRE(type != VKT_NO_MEMORY_TYPE);
   const VkDeviceSize stride = align_up(req.size, req.alignment);
   VkDeviceMemory mem = allocate(&dev, 3 * stride, type, NULL);
   REQUIRE(mem);
   VkBindBufferMemoryInfoKHR binds[3];
   for (int i = 0; i < 3; i++)
      binds[i] = (VkBindBufferMemoryInfoKHR){
          .sType = VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_INFO_KHR,
          .buffer = bufs[i],
          .memory = mem,
          .memoryOffset = (VkDeviceSize)(2 - i) * stride, /* reverse order in memory */
      };
   VKT_REQUIRE(vkBindBufferMemory2KHR(dev.device, 3, binds));
   uint8_t *p;
   VKT_REQUIRE(vkMapMemory(dev.device, mem, 0, VK_WHOLE_SIZE, 0, (void **)&p));
   memset(p, 0, 3 * stride);
   uint8_t *first = p + binds[0].memoryOffset, *last = p + binds[2].memoryOffset;
   vkt_fill_random(first, size, 103);

   VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
   REQUIRE(cmd);
   VkBufferCopy whole = {.size = size};
   vkCmdCopyBuffer(cmd, bufs[0], bufs[1], 1, &whole);
   VkMemoryBarrier mb = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
       .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
       .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT,
   };
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1,
                        &mb, 0, NULL, 0, NULL);
   vkCmdCopyBuffer(cmd, bufs[1], bufs[2], 1, &whole);
   vkt_cmd_transfer_to_host_barrier(cmd);
   VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
   vkt_compare_words(first, last, size, "through three buffers bound in one call");
   vkt_compare_words(first, p + binds[1].memoryOffset, size, "middle buffer");

   for (int i = 0; i < 3; i++)
      vkDestroyBuffer(dev.device, bufs[i], NULL);
   vkFreeMemory(dev.device, mem, NULL);
   vkt_teardown(&ctx, &dev);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
