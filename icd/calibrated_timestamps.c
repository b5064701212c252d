/* VK_EXT_calibrated_timestamps: the GPU timer (PTIMER, nanoseconds since the
 * chip was created) sampled together with the host clocks. */
#include <time.h>

#include "drv_device.h"
#include "ppu/gpu.h"
#include "vkppu_device.h"

static uint64_t clock_ns(clockid_t id)
{
   struct timespec ts;
   clock_gettime(id, &ts);
   return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_GetCalibratedTimestampsEXT(
    VkDevice device, uint32_t timestampCount, const VkCalibratedTimestampInfoEXT *pTimestampInfos,
    uint64_t *pTimestamps, uint64_t *pMaxDeviation)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   /* The samples are taken one after another; the deviation bound is the
    * time the whole sampling took (VkCalibratedTimestampInfoEXT: "the
    * maximum deviation ... in nanoseconds"), measured on the raw clock. */
   uint64_t begin = clock_ns(CLOCK_MONOTONIC_RAW);
   for (uint32_t i = 0; i < timestampCount; i++) {
      switch (pTimestampInfos[i].timeDomain) {
      case VK_TIME_DOMAIN_DEVICE_EXT:
         pTimestamps[i] = ppu_gpu_timer_ns(dev->drv->gpu);
         break;
      case VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT:
         pTimestamps[i] = clock_ns(CLOCK_MONOTONIC);
         break;
      case VK_TIME_DOMAIN_CLOCK_MONOTONIC_RAW_EXT:
         pTimestamps[i] = clock_ns(CLOCK_MONOTONIC_RAW);
         break;
      default:
         /* Not a domain vkGetPhysicalDeviceCalibrateableTimeDomainsEXT
          * reports (VUID-VkCalibratedTimestampInfoEXT-timeDomain-02354). */
         pTimestamps[i] = 0;
         break;
      }
   }
   uint64_t end = clock_ns(CLOCK_MONOTONIC_RAW);
   /* At least 1 ns: the clocks have nanosecond resolution. */
   *pMaxDeviation = end > begin ? end - begin : 1;
   return VK_SUCCESS;
}
