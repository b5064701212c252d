/* The loader side of VK_LAYER_VKPPU_profiler: interface negotiation,
 * vkGetInstanceProcAddr/vkGetDeviceProcAddr, and the instance and device
 * dispatch chains ("Vulkan Loader Interface to Layers": a layer finds the
 * next link in the VK_LAYER_LINK_INFO element of the create info's pNext
 * chain, advances it for the layer below, and calls down through the next
 * link's GetInstanceProcAddr/GetDeviceProcAddr).
 *
 * Everything the layer does not intercept is the next layer's function: the
 * proc-addr functions return the next link's pointer for it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profiler.h"

/* The loader's interface is the only thing this library exports
 * (profiler.map lists it; the link uses -Bsymbolic). Inside the layer every
 * reference goes to the static prof_* functions, never to an exported
 * vk* name: in a program linked with libvulkan.so.1 such a name binds to the
 * loader's function of that name, and the layer would re-enter the loader
 * while the loader holds its lock (a deadlock in vkCreateInstance). */
#define PROF_EXPORT __attribute__((visibility("default")))

/* Few instances and devices exist at once: a short list each, keyed by the
 * loader's dispatch pointer (the first word of every dispatchable handle;
 * a queue's and a physical device's equal their device's and instance's). */
#define PROF_MAX_OBJECTS 32
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct prof_instance *instances[PROF_MAX_OBJECTS];
static struct prof_device *devices[PROF_MAX_OBJECTS];

static void *dispatch_key(const void *handle)
{
   return *(void *const *)handle;
}

static bool registry_add(void **table, void *object)
{
   pthread_mutex_lock(&registry_lock);
   bool added = false;
   for (int i = 0; i < PROF_MAX_OBJECTS && !added; i++) {
      if (!table[i]) {
         table[i] = object;
         added = true;
      }
   }
   pthread_mutex_unlock(&registry_lock);
   return added;
}

/* The entry of table whose key field (first member) is key; with remove,
 * also takes it out. */
static void *registry_find(void **table, void *key, bool remove)
{
   void *found = NULL;
   pthread_mutex_lock(&registry_lock);
   for (int i = 0; i < PROF_MAX_OBJECTS && !found; i++) {
      if (table[i] && *(void **)table[i] == key) {
         found = table[i];
         if (remove)
            table[i] = NULL;
      }
   }
   pthread_mutex_unlock(&registry_lock);
   return found;
}

static struct prof_instance *instance_of(const void *dispatchable)
{
   return registry_find((void **)instances, dispatch_key(dispatchable), false);
}

struct prof_device *prof_device_of(void *dispatchable)
{
   return registry_find((void **)devices, dispatch_key(dispatchable), false);
}

/* The loader's VK_LAYER_LINK_INFO element of a create info's pNext chain. */
static void *find_link_info(const void *pNext, VkStructureType type)
{
   for (const VkBaseInStructure *s = pNext; s; s = s->pNext) {
      if (s->sType != type)
         continue;
      /* VkLayerInstanceCreateInfo and VkLayerDeviceCreateInfo share the
       * sType, pNext, function prefix. */
      const VkLayerInstanceCreateInfo *info = (const void *)s;
      if (info->function == VK_LAYER_LINK_INFO)
         return (void *)s;
   }
   return NULL;
}

static VKAPI_ATTR VkResult VKAPI_CALL prof_CreateInstance(const VkInstanceCreateInfo *pCreateInfo,
                                                          const VkAllocationCallbacks *pAllocator,
                                                          VkInstance *pInstance)
{
   VkLayerInstanceCreateInfo *link =
       find_link_info(pCreateInfo->pNext, VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO);
   if (!link || !link->u.pLayerInfo)
      return VK_ERROR_INITIALIZATION_FAILED;
   PFN_vkGetInstanceProcAddr next_gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
   PFN_vkCreateInstance create = (PFN_vkCreateInstance)next_gipa(NULL, "vkCreateInstance");
   if (!create)
      return VK_ERROR_INITIALIZATION_FAILED;
   link->u.pLayerInfo = link->u.pLayerInfo->pNext; /* the layer below takes the next link */
   VkResult r = create(pCreateInfo, pAllocator, pInstance);
   if (r != VK_SUCCESS)
      return r;
   struct prof_instance *pi = calloc(1, sizeof(*pi));
   if (!pi || !registry_add((void **)instances, pi)) {
      free(pi);
      PFN_vkDestroyInstance destroy =
          (PFN_vkDestroyInstance)next_gipa(*pInstance, "vkDestroyInstance");
      destroy(*pInstance, pAllocator);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   pi->key = dispatch_key(*pInstance);
   pi->instance = *pInstance;
   pi->next_gipa = next_gipa;
   pi->DestroyInstance = (PFN_vkDestroyInstance)next_gipa(*pInstance, "vkDestroyInstance");
   pi->GetPhysicalDeviceProperties =
       (PFN_vkGetPhysicalDeviceProperties)next_gipa(*pInstance, "vkGetPhysicalDeviceProperties");
   return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL prof_DestroyInstance(VkInstance instance,
                                                       const VkAllocationCallbacks *pAllocator)
{
   if (!instance)
      return;
   struct prof_instance *pi = registry_find((void **)instances, dispatch_key(instance), true);
   if (!pi)
      return;
   pi->DestroyInstance(instance, pAllocator);
   free(pi);
}

#define NEXT_DEVICE_PROC(d, type, name) (d)->name = (type)(d)->next_gdpa((d)->device, "vk" #name)

static VKAPI_ATTR VkResult VKAPI_CALL prof_CreateDevice(VkPhysicalDevice physicalDevice,
                                                        const VkDeviceCreateInfo *pCreateInfo,
                                                        const VkAllocationCallbacks *pAllocator,
                                                        VkDevice *pDevice)
{
   struct prof_instance *pi = instance_of(physicalDevice);
   VkLayerDeviceCreateInfo *link =
       find_link_info(pCreateInfo->pNext, VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO);
   if (!pi || !link || !link->u.pLayerInfo)
      return VK_ERROR_INITIALIZATION_FAILED;
   PFN_vkGetInstanceProcAddr next_gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
   PFN_vkGetDeviceProcAddr next_gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
   PFN_vkCreateDevice create = (PFN_vkCreateDevice)next_gipa(pi->instance, "vkCreateDevice");
   if (!create)
      return VK_ERROR_INITIALIZATION_FAILED;
   link->u.pLayerInfo = link->u.pLayerInfo->pNext;
   VkResult r = create(physicalDevice, pCreateInfo, pAllocator, pDevice);
   if (r != VK_SUCCESS)
      return r;
   struct prof_device *d = calloc(1, sizeof(*d));
   if (!d || !registry_add((void **)devices, d)) {
      free(d);
      PFN_vkDestroyDevice destroy = (PFN_vkDestroyDevice)next_gdpa(*pDevice, "vkDestroyDevice");
      destroy(*pDevice, pAllocator);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   pthread_mutex_init(&d->lock, NULL);
   d->key = dispatch_key(*pDevice);
   d->device = *pDevice;
   d->instance = pi;
   d->next_gdpa = next_gdpa;
   VkPhysicalDeviceProperties props;
   pi->GetPhysicalDeviceProperties(physicalDevice, &props);
   snprintf(d->name, sizeof(d->name), "%s", props.deviceName);
   NEXT_DEVICE_PROC(d, PFN_vkDestroyDevice, DestroyDevice);
   NEXT_DEVICE_PROC(d, PFN_vkQueueSubmit, QueueSubmit);
   NEXT_DEVICE_PROC(d, PFN_vkQueueSubmit2, QueueSubmit2);
   NEXT_DEVICE_PROC(d, PFN_vkQueueSubmit2, QueueSubmit2KHR);
   NEXT_DEVICE_PROC(d, PFN_vkQueuePresentKHR, QueuePresentKHR);
   NEXT_DEVICE_PROC(d, PFN_vkQueueWaitIdle, QueueWaitIdle);
   NEXT_DEVICE_PROC(d, PFN_vkCreateImage, CreateImage);
   NEXT_DEVICE_PROC(d, PFN_vkCreateSwapchainKHR, CreateSwapchainKHR);
   /* Found through the chain like any command: a layer between us and the
    * driver passes names it does not know down. */
   d->GetCounters = (PFN_vkGetCountersVKPPU)next_gdpa(*pDevice, "vkGetCountersVKPPU");
   d->ReadRayCost = (PFN_vkReadRayCostVKPPU)next_gdpa(*pDevice, "vkReadRayCostVKPPU");
   if (!prof_device_begin(d)) {
      d->GetCounters = NULL;
      d->ReadRayCost = NULL;
   }
   return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL prof_DestroyDevice(VkDevice device,
                                                     const VkAllocationCallbacks *pAllocator)
{
   if (!device)
      return;
   struct prof_device *d = registry_find((void **)devices, dispatch_key(device), true);
   if (!d)
      return;
   if (d->GetCounters)
      prof_device_end(d);
   d->DestroyDevice(device, pAllocator);
   pthread_mutex_destroy(&d->lock);
   free(d);
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL prof_GetDeviceProcAddr(VkDevice device,
                                                                       const char *pName);

PFN_vkVoidFunction profiler_device_proc(const char *name)
{
   static const struct {
      const char *name;
      PFN_vkVoidFunction function;
   } table[] = {
       {"vkGetDeviceProcAddr", (PFN_vkVoidFunction)prof_GetDeviceProcAddr},
       {"vkDestroyDevice", (PFN_vkVoidFunction)prof_DestroyDevice},
       {"vkQueueSubmit", (PFN_vkVoidFunction)prof_QueueSubmit},
       {"vkQueueSubmit2", (PFN_vkVoidFunction)prof_QueueSubmit2},
       {"vkQueueSubmit2KHR", (PFN_vkVoidFunction)prof_QueueSubmit2KHR},
       {"vkQueuePresentKHR", (PFN_vkVoidFunction)prof_QueuePresentKHR},
       {"vkCreateImage", (PFN_vkVoidFunction)prof_CreateImage},
       {"vkCreateSwapchainKHR", (PFN_vkVoidFunction)prof_CreateSwapchainKHR},
   };
   for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
      if (!strcmp(name, table[i].name))
         return table[i].function;
   return NULL;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL prof_GetDeviceProcAddr(VkDevice device,
                                                                       const char *pName)
{
   if (!device || !pName)
      return NULL;
   struct prof_device *d = prof_device_of(device);
   if (!d)
      return NULL;
   PFN_vkVoidFunction next = d->next_gdpa(device, pName);
   /* Only commands the device below has are wrapped (an extension not
    * enabled stays NULL, as the spec requires). */
   PFN_vkVoidFunction mine = profiler_device_proc(pName);
   return mine && next ? mine : next;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL prof_GetInstanceProcAddr(VkInstance instance,
                                                                         const char *pName)
{
   if (!pName)
      return NULL;
   if (!strcmp(pName, "vkGetInstanceProcAddr"))
      return (PFN_vkVoidFunction)prof_GetInstanceProcAddr;
   if (!strcmp(pName, "vkGetDeviceProcAddr"))
      return (PFN_vkVoidFunction)prof_GetDeviceProcAddr;
   if (!strcmp(pName, "vkCreateInstance"))
      return (PFN_vkVoidFunction)prof_CreateInstance;
   if (!strcmp(pName, "vkDestroyInstance"))
      return (PFN_vkVoidFunction)prof_DestroyInstance;
   if (!strcmp(pName, "vkCreateDevice"))
      return (PFN_vkVoidFunction)prof_CreateDevice;
   if (!instance)
      return NULL;
   struct prof_instance *pi = instance_of(instance);
   if (!pi)
      return NULL;
   /* Device commands asked for through the instance still go through our
    * wrappers when we have one. */
   PFN_vkVoidFunction next = pi->next_gipa(instance, pName);
   PFN_vkVoidFunction mine = profiler_device_proc(pName);
   return mine && next ? mine : next;
}

/* Loaders older than interface version 2 look these two up by name. */
PROF_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance instance,
                                                                           const char *pName)
{
   return prof_GetInstanceProcAddr(instance, pName);
}

PROF_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetDeviceProcAddr(VkDevice device,
                                                                         const char *pName)
{
   return prof_GetDeviceProcAddr(device, pName);
}

PROF_EXPORT VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface *pVersionStruct)
{
   if (!pVersionStruct || pVersionStruct->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT)
      return VK_ERROR_INITIALIZATION_FAILED;
   if (pVersionStruct->loaderLayerInterfaceVersion > CURRENT_LOADER_LAYER_INTERFACE_VERSION)
      pVersionStruct->loaderLayerInterfaceVersion = CURRENT_LOADER_LAYER_INTERFACE_VERSION;
   if (pVersionStruct->loaderLayerInterfaceVersion >= 2) {
      pVersionStruct->pfnGetInstanceProcAddr = prof_GetInstanceProcAddr;
      pVersionStruct->pfnGetDeviceProcAddr = prof_GetDeviceProcAddr;
      pVersionStruct->pfnGetPhysicalDeviceProcAddr = NULL;
   }
   return VK_SUCCESS;
}
