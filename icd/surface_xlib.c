/* VK_KHR_xlib_surface: an Xlib window is presented to through the xcb
 * connection under its Display (libX11-xcb), so everything after surface
 * creation is the xcb path. The only file that includes Xlib.h, whose
 * macros (None, Success, Bool, ...) would collide elsewhere. */
#define VK_USE_PLATFORM_XLIB_KHR 1

#include <X11/Xlib-xcb.h>

#include "vkppu_wsi.h"

void *vkppu_xlib_xcb_connection(void *display)
{
   return XGetXCBConnection(display);
}

VKAPI_ATTR VkResult VKAPI_CALL
vkppu_CreateXlibSurfaceKHR(VkInstance instance, const VkXlibSurfaceCreateInfoKHR *pCreateInfo,
                           const VkAllocationCallbacks *pAllocator, VkSurfaceKHR *pSurface)
{
   VKPPU_FROM_HANDLE(vkppu_instance, inst, instance);
   struct vkppu_surface *s = vkppu_surface_alloc(inst, pAllocator, VK_ICD_WSI_PLATFORM_XLIB);
   if (!s)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   s->icd.xlib.display = pCreateInfo->dpy;
   s->icd.xlib.window = pCreateInfo->window;
   *pSurface = (VkSurfaceKHR)(uintptr_t)s;
   return VK_SUCCESS;
}

VKAPI_ATTR VkBool32 VKAPI_CALL vkppu_GetPhysicalDeviceXlibPresentationSupportKHR(
    VkPhysicalDevice physicalDevice, uint32_t queueFamilyIndex, Display *dpy, VisualID visualID)
{
   (void)physicalDevice;
   (void)queueFamilyIndex;
   return vkppu_x11_visual_supported(XGetXCBConnection(dpy), (uint32_t)visualID) ? VK_TRUE
                                                                                 : VK_FALSE;
}
