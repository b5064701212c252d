/* vkGetCountersVKPPU (private_entrypoints.h): the chip's counters for a
 * layer or tool inside the process, the same values VKPPU_COUNTERS_FILE
 * writes at device destruction (docs/counters.md). */
#include <ppu/counters.h>

#include "drv_device.h"
#include "private_entrypoints.h"
#include "vkppu_device.h"

VKAPI_ATTR VkResult VKAPI_CALL vkppu_GetCountersVKPPU(VkDevice device, uint32_t *pCounterCount,
                                                      uint64_t *pValues, const char **ppNames,
                                                      const char **ppUnits)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   if (!pValues && !ppNames && !ppUnits) {
      *pCounterCount = PPU_COUNTER_COUNT;
      return VK_SUCCESS;
   }
   uint64_t values[PPU_COUNTER_COUNT];
   if (pValues)
      ppu_gpu_read_counters(dev->drv->gpu, values);
   uint32_t n = *pCounterCount < PPU_COUNTER_COUNT ? *pCounterCount : PPU_COUNTER_COUNT;
   for (uint32_t i = 0; i < n; i++) {
      if (pValues)
         pValues[i] = values[i];
      if (ppNames)
         ppNames[i] = ppu_counter_name((enum ppu_counter)i);
      if (ppUnits)
         ppUnits[i] = ppu_counter_unit((enum ppu_counter)i);
   }
   *pCounterCount = n;
   return n < PPU_COUNTER_COUNT ? VK_INCOMPLETE : VK_SUCCESS;
}
