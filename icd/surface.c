/* VkSurfaceKHR: headless surfaces, destruction of every kind, and the
 * surface queries of VK_KHR_surface and VK_KHR_get_surface_capabilities2
 * (and the present-rectangle and device-group queries VK_KHR_swapchain
 * adds on a 1.1 device). xcb and xlib surfaces are created in
 * surface_xcb.c and surface_xlib.c; docs/wsi.md lists what each query
 * answers and why. */
#include "vkppu_image.h"
#include "vkppu_wsi.h"

const VkIcdSurfaceBase *vkppu_surface_base(VkSurfaceKHR surface)
{
   void *p = (void *)(uintptr_t)surface;
   /* Ours start with the object base, whose first word is the loader
    * magic; the loader's own VkIcdSurface starts with a platform enum. */
   const VK_LOADER_DATA *first = p;
   if (first->loaderMagic == ICD_LOADER_MAGIC)
      return &((struct vkppu_surface *)p)->icd.base;
   return p;
}

bool vkppu_surface_x11_window(const VkIcdSurfaceBase *surface, void **connection, uint32_t *window)
{
   if (surface->platform == VK_ICD_WSI_PLATFORM_XCB) {
      const struct vkppu_icd_surface_xcb *s = (const void *)surface;
      *connection = s->connection;
      *window = s->window;
      return true;
   }
   if (surface->platform == VK_ICD_WSI_PLATFORM_XLIB) {
      const struct vkppu_icd_surface_xlib *s = (const void *)surface;
      *connection = vkppu_xlib_xcb_connection(s->display);
      *window = (uint32_t)s->window;
      return true;
   }
   return false;
}

struct vkppu_surface *vkppu_surface_alloc(struct vkppu_instance *inst,
                                          const VkAllocationCallbacks *pAllocator,
                                          VkIcdWsiPlatform platform)
{
   struct vkppu_surface *s = vkppu_alloc(vkppu_choose_alloc(pAllocator, &inst->alloc), sizeof(*s),
                                         VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (s) {
      vkppu_object_init(&s->base, VK_OBJECT_TYPE_SURFACE_KHR, NULL);
      s->icd.base.platform = platform;
   }
   return s;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_CreateHeadlessSurfaceEXT(
    VkInstance instance, const VkHeadlessSurfaceCreateInfoEXT *pCreateInfo,
    const VkAllocationCallbacks *pAllocator, VkSurfaceKHR *pSurface)
{
   VKPPU_FROM_HANDLE(vkppu_instance, inst, instance);
   (void)pCreateInfo;
   struct vkppu_surface *s = vkppu_surface_alloc(inst, pAllocator, VK_ICD_WSI_PLATFORM_HEADLESS);
   if (!s)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   *pSurface = (VkSurfaceKHR)(uintptr_t)s;
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkppu_DestroySurfaceKHR(VkInstance instance, VkSurfaceKHR surface,
                                                   const VkAllocationCallbacks *pAllocator)
{
   VKPPU_FROM_HANDLE(vkppu_instance, inst, instance);
   if (surface == VK_NULL_HANDLE)
      return;
   /* A surface the loader made is the loader's to free. */
   if (vkppu_surface_base(surface) != (const void *)(uintptr_t)surface) {
      struct vkppu_surface *s = (void *)(uintptr_t)surface;
      vkppu_object_finish(&s->base);
      vkppu_free(vkppu_choose_alloc(pAllocator, &inst->alloc), s);
   }
}

/* ---- formats and usage ---- */

const VkFormat vkppu_wsi_formats[] = {
    VK_FORMAT_B8G8R8A8_UNORM,
    VK_FORMAT_B8G8R8A8_SRGB,
    VK_FORMAT_R8G8B8A8_UNORM,
    VK_FORMAT_R8G8B8A8_SRGB,
};
const uint32_t vkppu_wsi_format_count = sizeof(vkppu_wsi_formats) / sizeof(vkppu_wsi_formats[0]);

bool vkppu_wsi_format_supported(VkFormat format)
{
   for (uint32_t i = 0; i < vkppu_wsi_format_count; i++) {
      if (vkppu_wsi_formats[i] == format)
         return true;
   }
   return false;
}

bool vkppu_wsi_format_is_bgra(VkFormat format)
{
   return format == VK_FORMAT_B8G8R8A8_UNORM || format == VK_FORMAT_B8G8R8A8_SRGB;
}

VkImageUsageFlags vkppu_wsi_supported_usage(const struct vkppu_physical_device *pd)
{
   /* The usages an optimal-tiling image of the first format has: what the
    * validation layer checks a swapchain's usage against
    * (VUID-VkSwapchainCreateInfoKHR-imageFormat-01778). The images are
    * linear when the usage allows, else block-linear (swapchain.c), so
    * either way they can have it (COLOR_ATTACHMENT included, the ROP's
    * render targets being linear or block-linear). */
   static const VkImageUsageFlagBits candidates[] = {
       VK_IMAGE_USAGE_TRANSFER_SRC_BIT,     VK_IMAGE_USAGE_TRANSFER_DST_BIT,
       VK_IMAGE_USAGE_SAMPLED_BIT,          VK_IMAGE_USAGE_STORAGE_BIT,
       VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT,
   };
   VkImageUsageFlags usage = 0;
   for (size_t i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++) {
      VkImageFormatProperties props;
      if (!vkppu_image_format_support(pd, vkppu_wsi_formats[0], VK_IMAGE_TYPE_2D,
                                      VK_IMAGE_TILING_OPTIMAL, candidates[i], 0, &props))
         usage |= candidates[i];
   }
   return usage;
}

/* ---- queries ---- */

VKAPI_ATTR VkResult VKAPI_CALL
vkppu_GetPhysicalDeviceSurfaceSupportKHR(VkPhysicalDevice physicalDevice, uint32_t queueFamilyIndex,
                                         VkSurfaceKHR surface, VkBool32 *pSupported)
{
   (void)physicalDevice;
   (void)queueFamilyIndex; /* presentation is done by the host: every family */
   const VkIcdSurfaceBase *s = vkppu_surface_base(surface);
   void *connection;
   uint32_t window;
   *pSupported = VK_FALSE;
   if (s->platform == VK_ICD_WSI_PLATFORM_HEADLESS) {
      *pSupported = VK_TRUE;
      return VK_SUCCESS;
   }
   if (!vkppu_surface_x11_window(s, &connection, &window))
      return VK_SUCCESS;
   bool supported = false;
   VkResult r = vkppu_x11_window_supported(connection, window, &supported);
   *pSupported = supported ? VK_TRUE : VK_FALSE;
   return r;
}

/* Every surface's capabilities but currentExtent's source. */
static VkResult surface_capabilities(const struct vkppu_physical_device *pd,
                                     const VkIcdSurfaceBase *s, VkSurfaceCapabilitiesKHR *caps)
{
   void *connection;
   uint32_t window;
   VkExtent2D current = {UINT32_MAX, UINT32_MAX}; /* headless: the swapchain decides */
   if (vkppu_surface_x11_window(s, &connection, &window)) {
      VkResult r = vkppu_x11_window_extent(connection, window, &current);
      if (r != VK_SUCCESS)
         return r;
   } else if (s->platform != VK_ICD_WSI_PLATFORM_HEADLESS) {
      return VK_ERROR_SURFACE_LOST_KHR;
   }
   VkImageFormatProperties props;
   uint32_t max_extent = 16384;
   if (!vkppu_image_format_support(pd, vkppu_wsi_formats[0], VK_IMAGE_TYPE_2D,
                                   VK_IMAGE_TILING_LINEAR, VK_IMAGE_USAGE_TRANSFER_SRC_BIT, 0,
                                   &props))
      max_extent = props.maxExtent.width < props.maxExtent.height ? props.maxExtent.width
                                                                  : props.maxExtent.height;
   *caps = (VkSurfaceCapabilitiesKHR){
       .minImageCount = VKPPU_WSI_MIN_IMAGES,
       .maxImageCount = VKPPU_WSI_MAX_IMAGES,
       .currentExtent = current,
       .minImageExtent = {1, 1},
       .maxImageExtent = {max_extent, max_extent},
       /* Linear images have one layer (docs/images.md). */
       .maxImageArrayLayers = 1,
       .supportedTransforms = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR,
       .currentTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR,
       /* Alpha is dropped on the way out (X visuals of depth 24, PNGs
        * written opaque); INHERIT means the same here. */
       .supportedCompositeAlpha =
           VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR | VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR,
       .supportedUsageFlags = vkppu_wsi_supported_usage(pd),
   };
   if (current.width != UINT32_MAX) {
      /* An X window's images are exactly its size: a swapchain of any other
       * size would be out of date at its first present. */
      caps->minImageExtent = current;
      caps->maxImageExtent = current;
   }
   return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL
vkppu_GetPhysicalDeviceSurfaceCapabilitiesKHR(VkPhysicalDevice physicalDevice, VkSurfaceKHR surface,
                                              VkSurfaceCapabilitiesKHR *pSurfaceCapabilities)
{
   VKPPU_FROM_HANDLE(vkppu_physical_device, pd, physicalDevice);
   return surface_capabilities(pd, vkppu_surface_base(surface), pSurfaceCapabilities);
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_GetPhysicalDeviceSurfaceCapabilities2KHR(
    VkPhysicalDevice physicalDevice, const VkPhysicalDeviceSurfaceInfo2KHR *pSurfaceInfo,
    VkSurfaceCapabilities2KHR *pSurfaceCapabilities)
{
   VKPPU_FROM_HANDLE(vkppu_physical_device, pd, physicalDevice);
   /* No extension this device reports chains anything we would fill
    * (VkSharedPresentSurfaceCapabilitiesKHR, VkSurfaceProtectedCapabilitiesKHR,
    * ... belong to extensions not listed). */
   return surface_capabilities(pd, vkppu_surface_base(pSurfaceInfo->surface),
                               &pSurfaceCapabilities->surfaceCapabilities);
}

/* The count/array protocol of every enumeration ("Opaque Non-Dispatchable
 * Handle" queries): fills up to *count, VK_INCOMPLETE when that was short. */
static VkResult enumerate_formats(uint32_t *count, VkSurfaceFormatKHR *formats,
                                  VkSurfaceFormat2KHR *formats2)
{
   if (!formats && !formats2) {
      *count = vkppu_wsi_format_count;
      return VK_SUCCESS;
   }
   uint32_t n = *count < vkppu_wsi_format_count ? *count : vkppu_wsi_format_count;
   for (uint32_t i = 0; i < n; i++) {
      VkSurfaceFormatKHR f = {vkppu_wsi_formats[i], VK_COLOR_SPACE_SRGB_NONLINEAR_KHR};
      if (formats)
         formats[i] = f;
      else
         formats2[i].surfaceFormat = f;
   }
   *count = n;
   return n < vkppu_wsi_format_count ? VK_INCOMPLETE : VK_SUCCESS;
}

/* VK_ERROR_SURFACE_LOST_KHR for an X window that is gone. */
static VkResult surface_alive(const VkIcdSurfaceBase *s)
{
   void *connection;
   uint32_t window;
   VkExtent2D extent;
   if (vkppu_surface_x11_window(s, &connection, &window))
      return vkppu_x11_window_extent(connection, window, &extent);
   return s->platform == VK_ICD_WSI_PLATFORM_HEADLESS ? VK_SUCCESS : VK_ERROR_SURFACE_LOST_KHR;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_GetPhysicalDeviceSurfaceFormatsKHR(
    VkPhysicalDevice physicalDevice, VkSurfaceKHR surface, uint32_t *pSurfaceFormatCount,
    VkSurfaceFormatKHR *pSurfaceFormats)
{
   (void)physicalDevice;
   VkResult r = surface_alive(vkppu_surface_base(surface));
   if (r != VK_SUCCESS)
      return r;
   return enumerate_formats(pSurfaceFormatCount, pSurfaceFormats, NULL);
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_GetPhysicalDeviceSurfaceFormats2KHR(
    VkPhysicalDevice physicalDevice, const VkPhysicalDeviceSurfaceInfo2KHR *pSurfaceInfo,
    uint32_t *pSurfaceFormatCount, VkSurfaceFormat2KHR *pSurfaceFormats)
{
   (void)physicalDevice;
   VkResult r = surface_alive(vkppu_surface_base(pSurfaceInfo->surface));
   if (r != VK_SUCCESS)
      return r;
   return enumerate_formats(pSurfaceFormatCount, NULL, pSurfaceFormats);
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_GetPhysicalDeviceSurfacePresentModesKHR(
    VkPhysicalDevice physicalDevice, VkSurfaceKHR surface, uint32_t *pPresentModeCount,
    VkPresentModeKHR *pPresentModes)
{
   (void)physicalDevice;
   /* FIFO first: the one every surface must support. */
   static const VkPresentModeKHR modes[] = {VK_PRESENT_MODE_FIFO_KHR, VK_PRESENT_MODE_MAILBOX_KHR,
                                            VK_PRESENT_MODE_IMMEDIATE_KHR};
   const uint32_t mode_count = sizeof(modes) / sizeof(modes[0]);
   VkResult r = surface_alive(vkppu_surface_base(surface));
   if (r != VK_SUCCESS)
      return r;
   if (!pPresentModes) {
      *pPresentModeCount = mode_count;
      return VK_SUCCESS;
   }
   uint32_t n = *pPresentModeCount < mode_count ? *pPresentModeCount : mode_count;
   memcpy(pPresentModes, modes, n * sizeof(modes[0]));
   *pPresentModeCount = n;
   return n < mode_count ? VK_INCOMPLETE : VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_GetPhysicalDevicePresentRectanglesKHR(
    VkPhysicalDevice physicalDevice, VkSurfaceKHR surface, uint32_t *pRectCount, VkRect2D *pRects)
{
   VKPPU_FROM_HANDLE(vkppu_physical_device, pd, physicalDevice);
   VkSurfaceCapabilitiesKHR caps;
   VkResult r = surface_capabilities(pd, vkppu_surface_base(surface), &caps);
   if (r != VK_SUCCESS)
      return r;
   if (!pRects) {
      *pRectCount = 1;
      return VK_SUCCESS;
   }
   if (*pRectCount == 0)
      return VK_INCOMPLETE;
   /* One device shows the whole surface; a headless one has no size, so
    * its rectangle is as large as an image may be. */
   VkExtent2D e = caps.currentExtent.width != UINT32_MAX ? caps.currentExtent : caps.maxImageExtent;
   pRects[0] = (VkRect2D){{0, 0}, e};
   *pRectCount = 1;
   return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_GetDeviceGroupPresentCapabilitiesKHR(
    VkDevice device, VkDeviceGroupPresentCapabilitiesKHR *pDeviceGroupPresentCapabilities)
{
   (void)device;
   /* A group of one device presents its own images. */
   memset(pDeviceGroupPresentCapabilities->presentMask, 0,
          sizeof(pDeviceGroupPresentCapabilities->presentMask));
   pDeviceGroupPresentCapabilities->presentMask[0] = 1;
   pDeviceGroupPresentCapabilities->modes = VK_DEVICE_GROUP_PRESENT_MODE_LOCAL_BIT_KHR;
   return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_GetDeviceGroupSurfacePresentModesKHR(
    VkDevice device, VkSurfaceKHR surface, VkDeviceGroupPresentModeFlagsKHR *pModes)
{
   (void)device;
   VkResult r = surface_alive(vkppu_surface_base(surface));
   *pModes = r == VK_SUCCESS ? VK_DEVICE_GROUP_PRESENT_MODE_LOCAL_BIT_KHR : 0;
   return r;
}
