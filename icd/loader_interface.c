/* The loader/ICD interface (Khronos "Architecture of the Vulkan Loader
 * Interfaces", section "Loader and ICD Interface") and the two
 * vkGet*ProcAddr commands. These are the only symbols the library exports:
 * it builds with hidden visibility. */
#include <string.h>

#include "private_entrypoints.h"
#include "vkppu_device.h"
#include "vkppu_physical_device.h"

#define VKPPU_EXPORT __attribute__((visibility("default")))

/* Interface versions we implement. 7: the vk_icd* functions are also
 * reachable through vk_icdGetInstanceProcAddr. 6: vk_icdEnumerateAdapter-
 * PhysicalDevices, Windows only, nothing to do here. 5: the loader passes the
 * application's apiVersion through and the driver must not refuse it. 4:
 * vk_icdGetPhysicalDeviceProcAddr. 3: the loader calls our
 * vkCreate*SurfaceKHR and hands our surfaces back (docs/wsi.md; surface.c
 * also accepts the loader's own VkIcdSurface*). 2: VkSurfaceKHR is a
 * VkIcdSurface* the loader made. 1: entry points come through
 * vk_icdGetInstanceProcAddr. Version 0
 * (exports named vkGetInstanceProcAddr) is not offered. */
#define VKPPU_LOADER_INTERFACE_MIN 1u
#define VKPPU_LOADER_INTERFACE_MAX 7u

VKPPU_EXPORT VKAPI_ATTR VkResult VKAPI_CALL
vk_icdNegotiateLoaderICDInterfaceVersion(uint32_t *pSupportedVersion);
VKPPU_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_icdGetInstanceProcAddr(VkInstance instance,
                                                                                const char *pName);
VKPPU_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
vk_icdGetPhysicalDeviceProcAddr(VkInstance instance, const char *pName);

VKAPI_ATTR VkResult VKAPI_CALL vk_icdNegotiateLoaderICDInterfaceVersion(uint32_t *pSupportedVersion)
{
   if (pSupportedVersion == NULL)
      return VK_ERROR_INCOMPATIBLE_DRIVER;
   /* The loader offers its highest version; both sides use the lower of
    * the two maxima. */
   if (*pSupportedVersion < VKPPU_LOADER_INTERFACE_MIN)
      return VK_ERROR_INCOMPATIBLE_DRIVER;
   if (*pSupportedVersion > VKPPU_LOADER_INTERFACE_MAX)
      *pSupportedVersion = VKPPU_LOADER_INTERFACE_MAX;
   return VK_SUCCESS;
}

uint32_t vkppu_device_effective_api_version(const struct vkppu_device *dev)
{
   uint32_t instance_version = dev->instance->api_version;
   /* VK_MAKE_API_VERSION orders variant, major, minor, patch from the top
    * bit down, so plain comparison orders versions. */
   return instance_version < VKPPU_DEVICE_API_VERSION ? instance_version : VKPPU_DEVICE_API_VERSION;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkppu_GetInstanceProcAddr(VkInstance instance,
                                                                   const char *pName)
{
   VKPPU_FROM_HANDLE(vkppu_instance, inst, instance);
   if (pName == NULL)
      return NULL;
   if (inst == NULL)
      return vkppu_lookup_global(pName);
   return vkppu_lookup_instance(pName, inst->api_version, inst->enabled_instance_ext);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkppu_GetDeviceProcAddr(VkDevice device, const char *pName)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   if (dev == NULL || pName == NULL)
      return NULL;
   PFN_vkVoidFunction f =
       vkppu_lookup_device(pName, vkppu_device_effective_api_version(dev),
                           dev->instance->enabled_instance_ext, dev->enabled_device_ext);
   if (f != NULL)
      return f;
   return vkppu_lookup_private_device(pName);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_icdGetInstanceProcAddr(VkInstance instance,
                                                                   const char *pName)
{
   if (pName == NULL)
      return NULL;
   /* Interface version 7: the loader may fetch the interface functions
    * themselves through here instead of by symbol. */
   if (strcmp(pName, "vk_icdNegotiateLoaderICDInterfaceVersion") == 0)
      return (PFN_vkVoidFunction)vk_icdNegotiateLoaderICDInterfaceVersion;
   if (strcmp(pName, "vk_icdGetPhysicalDeviceProcAddr") == 0)
      return (PFN_vkVoidFunction)vk_icdGetPhysicalDeviceProcAddr;
   if (strcmp(pName, "vk_icdGetInstanceProcAddr") == 0)
      return (PFN_vkVoidFunction)vk_icdGetInstanceProcAddr;
   return vkppu_GetInstanceProcAddr(instance, pName);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_icdGetPhysicalDeviceProcAddr(VkInstance instance,
                                                                         const char *pName)
{
   /* The loader asks here for physical-device commands it does not know
    * itself (it builds a trampoline for them); anything else is NULL. */
   (void)instance;
   return vkppu_lookup_physical_device(pName);
}
