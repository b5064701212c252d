/* The physical device: identity, memory types and heaps, queue families and
 * device extensions. Properties, features and formats are in
 * physical_device_{properties,features,formats}.c. */
#include <string.h>

#include "compiler_build_id.h"
#include "drv_device.h"
#include "ppu/gpu.h"
#include "vkppu_physical_device.h"

/* 64-bit FNV-1a over a string, from a given start value. Used to derive the
 * UUIDs from stable identity strings: the spec wants deviceUUID and
 * driverUUID the same across instances and processes, which a hash of fixed
 * strings gives without storing anything. */
static uint64_t fnv1a64(uint64_t h, const char *s)
{
   for (; *s != '\0'; s++) {
      h ^= (uint8_t)*s;
      h *= 0x100000001b3ull;
   }
   return h;
}

static void uuid_from_string(uint8_t uuid[VK_UUID_SIZE], const char *s)
{
   uint64_t lo = fnv1a64(0xcbf29ce484222325ull, s);
   uint64_t hi = fnv1a64(0x84222325cbf29ce4ull, s);
   for (int i = 0; i < 8; i++) {
      uuid[i] = (uint8_t)(lo >> (8 * i));
      uuid[8 + i] = (uint8_t)(hi >> (8 * i));
   }
}

/* Heaps and types (spec, "Device Memory"). The model has one pool of VRAM
 * behind a host-visible BAR; heap 1 stands for system memory the driver
 * carves out of it. Type order follows the spec's rule: a type whose
 * property flags are a strict subset of another's comes first, so 0
 * (DEVICE_LOCAL) precedes 3 (DEVICE_LOCAL|HOST_VISIBLE|HOST_COHERENT) and 1
 * (HOST_VISIBLE|HOST_COHERENT) precedes 2 (…|HOST_CACHED) and 3. */
static void init_memory_properties(struct vkppu_physical_device *pd)
{
   VkPhysicalDeviceMemoryProperties *m = &pd->memory;
   memset(m, 0, sizeof(*m));
   m->memoryHeapCount = 2;
   m->memoryHeaps[0].size = pd->vram_size / 4 * 3;
   m->memoryHeaps[0].flags = VK_MEMORY_HEAP_DEVICE_LOCAL_BIT;
   m->memoryHeaps[1].size = pd->vram_size - m->memoryHeaps[0].size;
   m->memoryHeaps[1].flags = 0;

   const VkMemoryPropertyFlags host =
       VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
   m->memoryTypeCount = 4;
   m->memoryTypes[0] = (VkMemoryType){VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0};
   m->memoryTypes[1] = (VkMemoryType){host, 1};
   m->memoryTypes[2] = (VkMemoryType){host | VK_MEMORY_PROPERTY_HOST_CACHED_BIT, 1};
   m->memoryTypes[3] = (VkMemoryType){VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | host, 0};
}

void vkppu_physical_device_init(struct vkppu_physical_device *pd, struct vkppu_instance *inst)
{
   vkppu_object_init(&pd->base, VK_OBJECT_TYPE_PHYSICAL_DEVICE, NULL);
   pd->instance = inst;
   /* The heaps report the configured chip's VRAM (VKPPU_HW_CONFIG). An
    * invalid configuration keeps the default here; vkCreateDevice reports it
    * and fails. */
   struct ppu_gpu_config hw;
   pd->vram_size = drv_hw_config_load(&hw, NULL, 0) == DRV_SUCCESS ? hw.vram_size : VKPPU_VRAM_SIZE;
   snprintf(pd->name, sizeof(pd->name), "vkppu PPU model");
   init_memory_properties(pd);

   char id[sizeof(pd->name) + 64];
   snprintf(id, sizeof(id), "device:%x:%x:%s", VKPPU_VENDOR_ID, VKPPU_DEVICE_ID, pd->name);
   uuid_from_string(pd->device_uuid, id);
   uuid_from_string(pd->driver_uuid, "driver:vkppu:" VKPPU_DRIVER_VERSION_STRING);
   /* Changes with the driver version and with the compiler's sources
    * (VKPPU_COMPILER_BUILD_ID): a cache written by another build is refused
    * rather than misread. */
   uuid_from_string(pd->pipeline_cache_uuid, "pipeline-cache:vkppu:" VKPPU_DRIVER_VERSION_STRING
                                             ":" VKPPU_COMPILER_BUILD_ID);
}

void vkppu_physical_device_finish(struct vkppu_physical_device *pd)
{
   vkppu_object_finish(&pd->base);
}

VKAPI_ATTR void VKAPI_CALL vkppu_GetPhysicalDeviceMemoryProperties(
    VkPhysicalDevice physicalDevice, VkPhysicalDeviceMemoryProperties *pMemoryProperties)
{
   VKPPU_FROM_HANDLE(vkppu_physical_device, pd, physicalDevice);
   *pMemoryProperties = pd->memory;
}

VKAPI_ATTR void VKAPI_CALL vkppu_GetPhysicalDeviceMemoryProperties2(
    VkPhysicalDevice physicalDevice, VkPhysicalDeviceMemoryProperties2 *pMemoryProperties)
{
   VKPPU_FROM_HANDLE(vkppu_physical_device, pd, physicalDevice);
   /* No extension we advertise adds a struct to this chain. */
   pMemoryProperties->memoryProperties = pd->memory;
}

/* Family 0 is the universal engine, family 1 the copy engine, family 2
 * compute without graphics (vkppu_instance.h). Timestamps come from the
 * 64-bit PTIMER in ns. */
static VkQueueFamilyProperties queue_family(uint32_t index)
{
   VkQueueFamilyProperties p = {
       .timestampValidBits = 64,
       .minImageTransferGranularity = {1, 1, 1},
   };
   if (index == VKPPU_QUEUE_FAMILY_UNIVERSAL) {
      p.queueFlags = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT;
      p.queueCount = VKPPU_QUEUES_PER_FAMILY;
   } else if (index == VKPPU_QUEUE_FAMILY_COMPUTE) {
      p.queueFlags = VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT;
      p.queueCount = VKPPU_QUEUES_PER_FAMILY;
   } else {
      p.queueFlags = VK_QUEUE_TRANSFER_BIT;
      p.queueCount = VKPPU_TRANSFER_QUEUE_COUNT;
   }
   return p;
}

VKAPI_ATTR void VKAPI_CALL vkppu_GetPhysicalDeviceQueueFamilyProperties(
    VkPhysicalDevice physicalDevice, uint32_t *pQueueFamilyPropertyCount,
    VkQueueFamilyProperties *pQueueFamilyProperties)
{
   (void)physicalDevice;
   if (pQueueFamilyProperties == NULL) {
      *pQueueFamilyPropertyCount = VKPPU_QUEUE_FAMILY_COUNT;
      return;
   }
   uint32_t n = *pQueueFamilyPropertyCount < VKPPU_QUEUE_FAMILY_COUNT ? *pQueueFamilyPropertyCount
                                                                      : VKPPU_QUEUE_FAMILY_COUNT;
   for (uint32_t i = 0; i < n; i++)
      pQueueFamilyProperties[i] = queue_family(i);
   *pQueueFamilyPropertyCount = n;
}

VKAPI_ATTR void VKAPI_CALL vkppu_GetPhysicalDeviceQueueFamilyProperties2(
    VkPhysicalDevice physicalDevice, uint32_t *pQueueFamilyPropertyCount,
    VkQueueFamilyProperties2 *pQueueFamilyProperties)
{
   (void)physicalDevice;
   if (pQueueFamilyProperties == NULL) {
      *pQueueFamilyPropertyCount = VKPPU_QUEUE_FAMILY_COUNT;
      return;
   }
   uint32_t n = *pQueueFamilyPropertyCount < VKPPU_QUEUE_FAMILY_COUNT ? *pQueueFamilyPropertyCount
                                                                      : VKPPU_QUEUE_FAMILY_COUNT;
   /* No extension we advertise adds a struct to this chain. */
   for (uint32_t i = 0; i < n; i++)
      pQueueFamilyProperties[i].queueFamilyProperties = queue_family(i);
   *pQueueFamilyPropertyCount = n;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_EnumerateDeviceExtensionProperties(
    VkPhysicalDevice physicalDevice, const char *pLayerName, uint32_t *pPropertyCount,
    VkExtensionProperties *pProperties)
{
   (void)physicalDevice;
   if (pLayerName != NULL)
      return VK_ERROR_LAYER_NOT_PRESENT;
   return vkppu_copy_extension_properties(vkppu_device_extensions, VKPPU_DEVICE_EXT_COUNT,
                                          pPropertyCount, pProperties);
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_EnumerateDeviceLayerProperties(VkPhysicalDevice physicalDevice,
                                                                    uint32_t *pPropertyCount,
                                                                    VkLayerProperties *pProperties)
{
   /* Device layers are deprecated; a driver has none. */
   (void)physicalDevice;
   (void)pProperties;
   *pPropertyCount = 0;
   return VK_SUCCESS;
}
