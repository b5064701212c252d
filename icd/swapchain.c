/* VkSwapchainKHR: creation (images in host-visible VRAM, linear when the
 * usage allows, else block-linear), destruction, the image list and
 * vkAcquireNextImage(2)KHR. Presentation is in swapchain_present.c.
 *
 * Image states (vkppu_wsi.h): FREE -> ACQUIRED (acquire) -> QUEUED
 * (present) -> FREE (the presentation thread is done with it). Acquire
 * hands out free images oldest first, so FIFO images come back in the
 * order they were presented. A free image is not read by anything, so the
 * acquire's semaphore and fence are signalled on the host at once. */
#include <stdlib.h>
#include <time.h>

#include "drv_device.h"
#include "vkppu_image.h"
#include "vkppu_sync.h"
#include "vkppu_wsi.h"
#include "wait.h"

/* The memory type for images the host reads: device-local and host-visible
 * if there is one, else any host-visible type. */
static uint32_t host_visible_memory_type(const struct vkppu_physical_device *pd)
{
   const VkPhysicalDeviceMemoryProperties *m = &pd->memory;
   const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
   const VkMemoryPropertyFlags both = host | VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
   for (uint32_t i = 0; i < m->memoryTypeCount; i++) {
      if ((m->memoryTypes[i].propertyFlags & both) == both)
         return i;
   }
   for (uint32_t i = 0; i < m->memoryTypeCount; i++) {
      if (m->memoryTypes[i].propertyFlags & host)
         return i;
   }
   return UINT32_MAX;
}

/* Linear images make the copy-out a memcpy per row; block-linear ones are
 * untiled by the presentation thread. VKPPU_WSI_TILING=optimal forces
 * block-linear (docs/wsi.md; the tests use it to cover that path). */
static bool choose_tiling(const struct vkppu_physical_device *pd, VkFormat format,
                          VkImageUsageFlags usage, VkImageTiling *tiling)
{
   const char *force = getenv("VKPPU_WSI_TILING");
   bool force_optimal = force && strcmp(force, "optimal") == 0;
   VkImageFormatProperties props;
   if (!force_optimal && !vkppu_image_format_support(pd, format, VK_IMAGE_TYPE_2D,
                                                     VK_IMAGE_TILING_LINEAR, usage, 0, &props)) {
      *tiling = VK_IMAGE_TILING_LINEAR;
      return true;
   }
   *tiling = VK_IMAGE_TILING_OPTIMAL;
   return !vkppu_image_format_support(pd, format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL, usage,
                                      0, &props);
}

/* What vkCreateSwapchainKHR refuses that valid usage does not already
 * rule out; NULL when the create info is one we can make. */
static const char *unsupported(const struct vkppu_physical_device *pd,
                               const VkSwapchainCreateInfoKHR *ci)
{
   if (ci->flags)
      return "swapchain create flags belong to extensions this device does not report";
   if (!vkppu_wsi_format_supported(ci->imageFormat) ||
       ci->imageColorSpace != VK_COLOR_SPACE_SRGB_NONLINEAR_KHR)
      return "the format or color space is not one the surface offers";
   if (ci->imageArrayLayers != 1)
      return "imageArrayLayers must be 1 (maxImageArrayLayers)";
   if (ci->minImageCount > VKPPU_WSI_MAX_IMAGES)
      return "minImageCount is above maxImageCount";
   if (ci->imageExtent.width == 0 || ci->imageExtent.height == 0)
      return "imageExtent is empty";
   if (ci->presentMode != VK_PRESENT_MODE_FIFO_KHR &&
       ci->presentMode != VK_PRESENT_MODE_MAILBOX_KHR &&
       ci->presentMode != VK_PRESENT_MODE_IMMEDIATE_KHR)
      return "the present mode is not supported";
   if (ci->imageUsage & ~vkppu_wsi_supported_usage(pd))
      return "imageUsage is not within supportedUsageFlags";
   return NULL;
}

static VkResult create_images(struct vkppu_swapchain *sc, const VkSwapchainCreateInfoKHR *ci,
                              VkImageTiling tiling)
{
   VkDevice device = vkppu_device_to_handle(sc->dev);
   uint32_t type = host_visible_memory_type(sc->dev->physical_device);
   if (type == UINT32_MAX)
      return VK_ERROR_INITIALIZATION_FAILED;
   for (uint32_t i = 0; i < sc->image_count; i++) {
      const VkImageCreateInfo ici = {
          .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
          .imageType = VK_IMAGE_TYPE_2D,
          .format = ci->imageFormat,
          .extent = {ci->imageExtent.width, ci->imageExtent.height, 1},
          .mipLevels = 1,
          .arrayLayers = 1,
          .samples = VK_SAMPLE_COUNT_1_BIT,
          .tiling = tiling,
          .usage = ci->imageUsage,
          .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
          .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
      };
      struct vkppu_swapchain_image *si = &sc->images[i];
      VkResult r = vkppu_CreateImage(device, &ici, NULL, &si->image);
      if (r != VK_SUCCESS)
         return r;
      const struct vkppu_image *img = vkppu_image_from_handle(si->image);
      const VkMemoryAllocateInfo mai = {
          .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
          .allocationSize = img->size,
          .memoryTypeIndex = type,
      };
      r = vkppu_AllocateMemory(device, &mai, NULL, &si->memory);
      if (r != VK_SUCCESS)
         return r;
      r = vkppu_BindImageMemory(device, si->image, si->memory, 0);
      if (r != VK_SUCCESS)
         return r;
      si->state = VKPPU_IMAGE_FREE;
      sc->free_order[sc->free_count++] = i;
   }
   return VK_SUCCESS;
}

static void destroy(struct vkppu_swapchain *sc, const VkAllocationCallbacks *pAllocator)
{
   VkDevice device = vkppu_device_to_handle(sc->dev);
   vkppu_swapchain_stop_presenting(sc);
   for (uint32_t i = 0; i < sc->image_count; i++) {
      vkppu_DestroyImage(device, sc->images[i].image, NULL);
      vkppu_FreeMemory(device, sc->images[i].memory, NULL);
   }
   pthread_cond_destroy(&sc->changed);
   pthread_mutex_destroy(&sc->lock);
   vkppu_object_finish(&sc->base);
   vkppu_device_free(sc->dev, pAllocator, sc);
}

/* Retires a swapchain replaced by a new one: acquires from it report
 * VK_ERROR_OUT_OF_DATE_KHR; images already acquired may still be
 * presented (and are then released without being shown). */
static void retire(struct vkppu_swapchain *old)
{
   pthread_mutex_lock(&old->lock);
   if (old->status == VK_SUCCESS)
      old->status = VK_ERROR_OUT_OF_DATE_KHR;
   pthread_cond_broadcast(&old->changed);
   pthread_mutex_unlock(&old->lock);
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_CreateSwapchainKHR(VkDevice device,
                                                        const VkSwapchainCreateInfoKHR *pCreateInfo,
                                                        const VkAllocationCallbacks *pAllocator,
                                                        VkSwapchainKHR *pSwapchain)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_swapchain, old, pCreateInfo->oldSwapchain);
   *pSwapchain = VK_NULL_HANDLE;
   /* Retired even if the new one fails (spec, vkCreateSwapchainKHR). */
   if (old)
      retire(old);
   VkResult r = vkppu_device_check_lost(dev);
   if (r != VK_SUCCESS)
      return r;

   const VkIcdSurfaceBase *surface = vkppu_surface_base(pCreateInfo->surface);
   void *connection = NULL;
   uint32_t window = 0;
   if (vkppu_surface_x11_window(surface, &connection, &window)) {
      VkExtent2D extent;
      r = vkppu_x11_window_extent(connection, window, &extent);
      if (r != VK_SUCCESS)
         return r;
   } else if (surface->platform != VK_ICD_WSI_PLATFORM_HEADLESS) {
      return VK_ERROR_SURFACE_LOST_KHR;
   }
   VkImageTiling tiling = VK_IMAGE_TILING_LINEAR;
   const char *why = unsupported(dev->physical_device, pCreateInfo);
   if (!why && !choose_tiling(dev->physical_device, pCreateInfo->imageFormat,
                              pCreateInfo->imageUsage, &tiling))
      why = "no tiling of the format supports imageUsage";
   if (why) {
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "vkCreateSwapchainKHR: %s", why);
      return VK_ERROR_INITIALIZATION_FAILED;
   }

   struct vkppu_swapchain *sc =
       vkppu_device_zalloc(dev, pAllocator, sizeof(*sc), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!sc)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   vkppu_object_init(&sc->base, VK_OBJECT_TYPE_SWAPCHAIN_KHR, dev);
   sc->dev = dev;
   sc->surface = surface;
   sc->format = pCreateInfo->imageFormat;
   sc->extent = pCreateInfo->imageExtent;
   sc->present_mode = pCreateInfo->presentMode;
   sc->opaque = pCreateInfo->compositeAlpha == VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR ||
                pCreateInfo->compositeAlpha == VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR;
   sc->image_count = pCreateInfo->minImageCount > VKPPU_WSI_MIN_IMAGES ? pCreateInfo->minImageCount
                                                                       : VKPPU_WSI_MIN_IMAGES;
   sc->x11_connection = connection;
   sc->x11_window = window;
   sc->status = VK_SUCCESS;
   pthread_mutex_init(&sc->lock, NULL);
   /* Acquire timeouts are CLOCK_MONOTONIC deadlines (driver/wait.h). */
   pthread_condattr_t attr;
   pthread_condattr_init(&attr);
   pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
   pthread_cond_init(&sc->changed, &attr);
   pthread_condattr_destroy(&attr);

   r = create_images(sc, pCreateInfo, tiling);
   if (r == VK_SUCCESS)
      r = vkppu_swapchain_start_presenting(sc);
   if (r != VK_SUCCESS) {
      destroy(sc, pAllocator);
      return r;
   }
   *pSwapchain = vkppu_swapchain_to_handle(sc);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkppu_DestroySwapchainKHR(VkDevice device, VkSwapchainKHR swapchain,
                                                     const VkAllocationCallbacks *pAllocator)
{
   (void)device;
   VKPPU_FROM_HANDLE(vkppu_swapchain, sc, swapchain);
   if (sc)
      destroy(sc, pAllocator);
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_GetSwapchainImagesKHR(VkDevice device,
                                                           VkSwapchainKHR swapchain,
                                                           uint32_t *pSwapchainImageCount,
                                                           VkImage *pSwapchainImages)
{
   (void)device;
   VKPPU_FROM_HANDLE(vkppu_swapchain, sc, swapchain);
   if (!pSwapchainImages) {
      *pSwapchainImageCount = sc->image_count;
      return VK_SUCCESS;
   }
   uint32_t n = *pSwapchainImageCount < sc->image_count ? *pSwapchainImageCount : sc->image_count;
   for (uint32_t i = 0; i < n; i++)
      pSwapchainImages[i] = sc->images[i].image;
   *pSwapchainImageCount = n;
   return n < sc->image_count ? VK_INCOMPLETE : VK_SUCCESS;
}

/* A binary semaphore signalled by the host: the next signal value,
 * written through the BAR (as vkSignalSemaphore does for timelines). */
static void signal_semaphore_now(struct vkppu_device *dev, struct vkppu_semaphore *sem)
{
   uint64_t value = vkppu_semaphore_signal_value(sem, 0);
   uint64_t current = drv_slot_read(&sem->slot);
   while (current < value && !__atomic_compare_exchange_n(sem->slot.host, &current, value, true,
                                                          __ATOMIC_RELEASE, __ATOMIC_ACQUIRE)) {
   }
   drv_device_host_signaled(dev->drv);
}

static void signal_fence_now(struct vkppu_device *dev, struct vkppu_fence *fence)
{
   atomic_store_explicit(&fence->channel, NULL, memory_order_release);
   atomic_store_explicit(&fence->seqno, 0, memory_order_relaxed);
   atomic_store_explicit(&fence->signaled, true, memory_order_release);
   drv_wake_waiters(dev->drv);
}

static VkResult acquire(struct vkppu_swapchain *sc, uint64_t timeout, VkSemaphore semaphore,
                        VkFence fence, uint32_t *index)
{
   VkResult r = vkppu_device_check_lost(sc->dev);
   if (r != VK_SUCCESS)
      return r;
   uint64_t deadline = drv_deadline_from_timeout(timeout);
   pthread_mutex_lock(&sc->lock);
   for (;;) {
      if (sc->status != VK_SUCCESS) {
         r = sc->status;
         break;
      }
      if (sc->free_count > 0) {
         *index = sc->free_order[0];
         sc->free_count--;
         memmove(sc->free_order, sc->free_order + 1, sc->free_count * sizeof(sc->free_order[0]));
         sc->images[*index].state = VKPPU_IMAGE_ACQUIRED;
         r = VK_SUCCESS;
         break;
      }
      if (timeout == 0) {
         r = VK_NOT_READY;
         break;
      }
      /* Every image is with the application: none can come back, and an
       * endless wait would hang the program (the spec forbids UINT64_MAX
       * then; we answer rather than hang). */
      if (sc->queue_count == 0 && deadline == DRV_DEADLINE_NEVER) {
         r = VK_TIMEOUT;
         break;
      }
      if (deadline == DRV_DEADLINE_NEVER) {
         pthread_cond_wait(&sc->changed, &sc->lock);
      } else {
         struct timespec ts = {(time_t)(deadline / 1000000000u), (long)(deadline % 1000000000u)};
         if (pthread_cond_timedwait(&sc->changed, &sc->lock, &ts) != 0 && sc->free_count == 0 &&
             sc->status == VK_SUCCESS) {
            r = VK_TIMEOUT;
            break;
         }
      }
   }
   pthread_mutex_unlock(&sc->lock);
   if (r != VK_SUCCESS)
      return r;
   if (semaphore != VK_NULL_HANDLE)
      signal_semaphore_now(sc->dev, vkppu_semaphore_from_handle(semaphore));
   if (fence != VK_NULL_HANDLE)
      signal_fence_now(sc->dev, vkppu_fence_from_handle(fence));
   return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_AcquireNextImageKHR(VkDevice device, VkSwapchainKHR swapchain,
                                                         uint64_t timeout, VkSemaphore semaphore,
                                                         VkFence fence, uint32_t *pImageIndex)
{
   (void)device;
   return acquire(vkppu_swapchain_from_handle(swapchain), timeout, semaphore, fence, pImageIndex);
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_AcquireNextImage2KHR(
    VkDevice device, const VkAcquireNextImageInfoKHR *pAcquireInfo, uint32_t *pImageIndex)
{
   (void)device;
   /* deviceMask can only be 1 in a group of one device. */
   return acquire(vkppu_swapchain_from_handle(pAcquireInfo->swapchain), pAcquireInfo->timeout,
                  pAcquireInfo->semaphore, pAcquireInfo->fence, pImageIndex);
}
