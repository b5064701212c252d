/* VK_KHR_xcb_surface: the surface of an xcb window, and which visuals we
 * can present to (wsi_x11.c decides). */
#define VK_USE_PLATFORM_XCB_KHR 1

#include "vkppu_wsi.h"

VKAPI_ATTR VkResult VKAPI_CALL
vkppu_CreateXcbSurfaceKHR(VkInstance instance, const VkXcbSurfaceCreateInfoKHR *pCreateInfo,
                          const VkAllocationCallbacks *pAllocator, VkSurfaceKHR *pSurface)
{
   VKPPU_FROM_HANDLE(vkppu_instance, inst, instance);
   struct vkppu_surface *s = vkppu_surface_alloc(inst, pAllocator, VK_ICD_WSI_PLATFORM_XCB);
   if (!s)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   s->icd.xcb.connection = pCreateInfo->connection;
   s->icd.xcb.window = pCreateInfo->window;
   *pSurface = (VkSurfaceKHR)(uintptr_t)s;
   return VK_SUCCESS;
}

VKAPI_ATTR VkBool32 VKAPI_CALL vkppu_GetPhysicalDeviceXcbPresentationSupportKHR(
    VkPhysicalDevice physicalDevice, uint32_t queueFamilyIndex, xcb_connection_t *connection,
    xcb_visualid_t visual_id)
{
   (void)physicalDevice;
   (void)queueFamilyIndex; /* the host presents: every family can */
   return vkppu_x11_visual_supported(connection, visual_id) ? VK_TRUE : VK_FALSE;
}
