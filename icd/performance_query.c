/* VK_KHR_performance_query: the counters an application can choose are the
 * rows of the hardware's counter table, PPU_COUNTERS (ppu/counters.h),
 * described from that table and nowhere else (docs/counters.md). Every
 * counter fits in one pass: the chip writes all of them in one snapshot
 * (COUNTER_SNAPSHOT, docs/methods.md). Results: query_pool_performance.c. */
#include <stdio.h>
#include <string.h>

#include "ppu/counters.h"
#include "vkppu_device.h"

/* 64-bit FNV-1a of s, starting from `basis` (two bases give 128 bits). */
static uint64_t fnv1a64(const char *s, uint64_t basis)
{
   uint64_t h = basis;
   for (; *s; s++) {
      h ^= (unsigned char)*s;
      h *= 0x100000001b3ull;
   }
   return h;
}

/* A counter's UUID is a hash of its name: the same counter keeps its UUID
 * across runs, builds and table reorderings, and a renamed counter (whose
 * meaning may have changed) gets a new one. */
static void counter_uuid(const char *name, uint8_t uuid[VK_UUID_SIZE])
{
   uint64_t h[2] = {fnv1a64(name, 0xcbf29ce484222325ull), fnv1a64(name, 0x84222325cbf29ce4ull)};
   memcpy(uuid, h, VK_UUID_SIZE);
   /* RFC 9562 layout: version 8 (vendor-specific), variant 10. */
   uuid[6] = (uint8_t)((uuid[6] & 0x0f) | 0x80);
   uuid[8] = (uint8_t)((uuid[8] & 0x3f) | 0x80);
}

static VkPerformanceCounterUnitKHR counter_unit(const char *unit)
{
   if (strcmp(unit, "cycles") == 0)
      return VK_PERFORMANCE_COUNTER_UNIT_CYCLES_KHR;
   if (strcmp(unit, "bytes") == 0)
      return VK_PERFORMANCE_COUNTER_UNIT_BYTES_KHR;
   return VK_PERFORMANCE_COUNTER_UNIT_GENERIC_KHR;
}

static void describe_counter(enum ppu_counter id, VkPerformanceCounterKHR *c)
{
   c->unit = counter_unit(ppu_counter_unit(id));
   /* COMMAND: a query may begin and end around any commands (results are
    * the difference of two snapshots taken in channel order). */
   c->scope = VK_PERFORMANCE_COUNTER_SCOPE_COMMAND_KHR;
   c->storage = VK_PERFORMANCE_COUNTER_STORAGE_UINT64_KHR;
   counter_uuid(ppu_counter_name(id), c->uuid);
}

static void describe_counter_text(enum ppu_counter id, VkPerformanceCounterDescriptionKHR *d)
{
   const char *name = ppu_counter_name(id);
   /* The counters count for every channel of the chip together: work of
    * other queues that overlaps the query is counted too. */
   d->flags = VK_PERFORMANCE_COUNTER_DESCRIPTION_CONCURRENTLY_IMPACTED_BIT_KHR;
   snprintf(d->name, sizeof(d->name), "%s", name);
   /* The unit that counts: the name up to its first dot ("ttu"). */
   const char *dot = strchr(name, '.');
   int unit_len = dot ? (int)(dot - name) : (int)strlen(name);
   snprintf(d->category, sizeof(d->category), "%.*s", unit_len, name);
   snprintf(d->description, sizeof(d->description), "%s (%s)", ppu_counter_description(id),
            ppu_counter_unit(id));
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_EnumeratePhysicalDeviceQueueFamilyPerformanceQueryCountersKHR(
    VkPhysicalDevice physicalDevice, uint32_t queueFamilyIndex, uint32_t *pCounterCount,
    VkPerformanceCounterKHR *pCounters, VkPerformanceCounterDescriptionKHR *pCounterDescriptions)
{
   /* Both queue families are channels of the one chip: the same counters. */
   (void)physicalDevice;
   (void)queueFamilyIndex;
   if (!pCounters && !pCounterDescriptions) {
      *pCounterCount = PPU_COUNTER_COUNT;
      return VK_SUCCESS;
   }
   uint32_t n = *pCounterCount < PPU_COUNTER_COUNT ? *pCounterCount : PPU_COUNTER_COUNT;
   for (uint32_t i = 0; i < n; i++) {
      if (pCounters)
         describe_counter((enum ppu_counter)i, &pCounters[i]);
      if (pCounterDescriptions)
         describe_counter_text((enum ppu_counter)i, &pCounterDescriptions[i]);
   }
   *pCounterCount = n;
   return n < PPU_COUNTER_COUNT ? VK_INCOMPLETE : VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkppu_GetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR(
    VkPhysicalDevice physicalDevice,
    const VkQueryPoolPerformanceCreateInfoKHR *pPerformanceQueryCreateInfo, uint32_t *pNumPasses)
{
   (void)physicalDevice;
   (void)pPerformanceQueryCreateInfo;
   *pNumPasses = 1;
}

/* The counters always count and reading them disturbs nothing else, so the
 * lock guards no state: it is always granted at once. */
VKAPI_ATTR VkResult VKAPI_CALL
vkppu_AcquireProfilingLockKHR(VkDevice device, const VkAcquireProfilingLockInfoKHR *pInfo)
{
   (void)device;
   (void)pInfo;
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkppu_ReleaseProfilingLockKHR(VkDevice device)
{
   (void)device;
}
