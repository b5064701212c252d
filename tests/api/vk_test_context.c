/* See vk_test_context.h. */
#include "vk_test_context.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VALIDATION_LAYER "VK_LAYER_KHRONOS_validation"

const char *const vkt_standard_device_extensions[] = {
    VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME,
    VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME,
    VK_EXT_PRIVATE_DATA_EXTENSION_NAME,
    VK_KHR_BUFFER_DEVICE_ADDRESS_EXTENSION_NAME,
    VK_KHR_DEVICE_GROUP_EXTENSION_NAME,
    VK_KHR_BIND_MEMORY_2_EXTENSION_NAME,
    VK_KHR_GET_MEMORY_REQUIREMENTS_2_EXTENSION_NAME,
    VK_KHR_DEDICATED_ALLOCATION_EXTENSION_NAME,
    VK_EXT_HOST_QUERY_RESET_EXTENSION_NAME,
    VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME,
};
const uint32_t vkt_standard_device_extension_count =
    sizeof(vkt_standard_device_extensions) / sizeof(vkt_standard_device_extensions[0]);

/* ---------------------------------------------------------------------------
 * Debug messenger
 *
 * The callback may run on any thread that calls into Vulkan (the timeline
 * tests wait and signal from several), so its state sits behind a lock.
 * ------------------------------------------------------------------------- */
static pthread_mutex_t message_lock = PTHREAD_MUTEX_INITIALIZER;
static struct vkt_message_counts message_counts;
static const char *const *tolerated_substrings;
static uint32_t tolerated_messages;

static const char *severity_name(VkDebugUtilsMessageSeverityFlagBitsEXT severity)
{
   if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)
      return "ERROR";
   if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT)
      return "WARNING";
   return "INFO";
}

/* Called with message_lock held. */
static bool is_tolerated(const char *text, const char *id)
{
   for (const char *const *s = tolerated_substrings; s && *s; s++) {
      if (strstr(text, *s) || strstr(id, *s))
         return true;
   }
   return false;
}

static VKAPI_ATTR VkBool32 VKAPI_CALL vkt_debug_callback(
    VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
    const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
   (void)user;
   const char *text = data && data->pMessage ? data->pMessage : "(no message text)";
   const char *id = data && data->pMessageIdName ? data->pMessageIdName : "";
   /* The rule documented in vk_test_context.h. */
   bool fails = (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) ||
                (types & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT);

   pthread_mutex_lock(&message_lock);
   if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)
      message_counts.errors++;
   else
      message_counts.warnings++;
   if (fails && is_tolerated(text, id)) {
      message_counts.tolerated++;
      tolerated_messages++;
      /* Excused messages were asked for: their first line is enough. */
      int first_line = (int)strcspn(text, "\n");
      fprintf(stderr, "  (expected) %s %.*s\n", severity_name(severity),
              first_line < 200 ? first_line : 200, text);
   } else if (fails) {
      message_counts.failing++;
      test_fail(__FILE__, __LINE__, "debug messenger %s %s: %s", severity_name(severity), id, text);
   } else {
      fprintf(stderr, "  (not failing) %s %s\n", severity_name(severity), text);
   }
   pthread_mutex_unlock(&message_lock);
   return VK_FALSE; /* never abort the call: the test wants the driver's answer */
}

void vkt_tolerate_begin(const char *const *substrings)
{
   pthread_mutex_lock(&message_lock);
   tolerated_substrings = substrings;
   tolerated_messages = 0;
   pthread_mutex_unlock(&message_lock);
}

uint32_t vkt_tolerate_end(void)
{
   pthread_mutex_lock(&message_lock);
   uint32_t n = tolerated_messages;
   tolerated_substrings = NULL;
   tolerated_messages = 0;
   pthread_mutex_unlock(&message_lock);
   return n;
}

struct vkt_message_counts vkt_message_counts(void)
{
   pthread_mutex_lock(&message_lock);
   struct vkt_message_counts counts = message_counts;
   pthread_mutex_unlock(&message_lock);
   return counts;
}

/* ---------------------------------------------------------------------------
 * Instance and physical device
 * ------------------------------------------------------------------------- */
static bool layer_present(const char *name)
{
   uint32_t count = 0;
   if (vkEnumerateInstanceLayerProperties(&count, NULL) != VK_SUCCESS)
      return false;
   VkLayerProperties *layers = calloc(count ? count : 1, sizeof(*layers));
   bool found = false;
   if (layers && vkEnumerateInstanceLayerProperties(&count, layers) == VK_SUCCESS) {
      for (uint32_t i = 0; i < count && !found; i++)
         found = strcmp(layers[i].layerName, name) == 0;
   }
   free(layers);
   return found;
}

/* Looks in the loader's own list and in the validation layer's list. */
static bool instance_extension_present(const char *name)
{
   const char *sources[] = {NULL, VALIDATION_LAYER};
   for (size_t s = 0; s < 2; s++) {
      uint32_t count = 0;
      if (vkEnumerateInstanceExtensionProperties(sources[s], &count, NULL) != VK_SUCCESS)
         continue;
      VkExtensionProperties *exts = calloc(count ? count : 1, sizeof(*exts));
      bool found = false;
      if (exts && vkEnumerateInstanceExtensionProperties(sources[s], &count, exts) == VK_SUCCESS) {
         for (uint32_t i = 0; i < count && !found; i++)
            found = strcmp(exts[i].extensionName, name) == 0;
      }
      free(exts);
      if (found)
         return true;
   }
   return false;
}

static VkDebugUtilsMessengerCreateInfoEXT messenger_info(void)
{
   return (VkDebugUtilsMessengerCreateInfoEXT){
       .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
       .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                          VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
       .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                      VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                      VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
       .pfnUserCallback = vkt_debug_callback,
   };
}

static bool pick_physical_device(struct vkt_context *ctx)
{
   uint32_t count = 0;
   VkResult r = vkEnumeratePhysicalDevices(ctx->instance, &count, NULL);
   if (r != VK_SUCCESS || count == 0) {
      test_fail(__FILE__, __LINE__, "no physical device (%s, count %u): is VK_ICD_FILENAMES right?",
                vkt_result_name(r), count);
      return false;
   }
   VkPhysicalDevice devices[8];
   if (count > 8)
      count = 8;
   r = vkEnumeratePhysicalDevices(ctx->instance, &count, devices);
   if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
      test_fail(__FILE__, __LINE__, "vkEnumeratePhysicalDevices -> %s", vkt_result_name(r));
      return false;
   }
   if (count > 1)
      fprintf(stderr, "  note: %u physical devices, testing the first\n", count);
   if (!vkt_context_use_device(ctx, devices[0])) {
      test_fail(__FILE__, __LINE__, "no queue family with graphics and compute");
      return false;
   }
   return true;
}

bool vkt_context_use_device(struct vkt_context *ctx, VkPhysicalDevice pd)
{
   ctx->physical_device = pd;
   vkGetPhysicalDeviceProperties(ctx->physical_device, &ctx->props);
   vkGetPhysicalDeviceMemoryProperties(ctx->physical_device, &ctx->memory);
   ctx->family_count = VKT_MAX_FAMILIES;
   vkGetPhysicalDeviceQueueFamilyProperties(ctx->physical_device, &ctx->family_count,
                                            ctx->families);
   ctx->universal_family = VKT_NO_FAMILY;
   ctx->transfer_family = VKT_NO_FAMILY;
   const VkQueueFlags gc = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
   for (uint32_t f = 0; f < ctx->family_count; f++) {
      VkQueueFlags flags = ctx->families[f].queueFlags;
      if ((flags & gc) == gc && ctx->universal_family == VKT_NO_FAMILY)
         ctx->universal_family = f;
      if ((flags & VK_QUEUE_TRANSFER_BIT) && !(flags & gc) && ctx->transfer_family == VKT_NO_FAMILY)
         ctx->transfer_family = f;
   }
   ctx->is_vkppu = strcasestr(ctx->props.deviceName, "vkppu") != NULL;
   ctx->is_lavapipe = strstr(ctx->props.deviceName, "llvmpipe") != NULL;
   return ctx->universal_family != VKT_NO_FAMILY;
}

bool vkt_context_pair_create(struct vkt_context *base, struct vkt_context *ppu,
                             struct vkt_context *lvp)
{
   if (!vkt_context_create(base))
      return false;
   VkPhysicalDevice pds[8];
   uint32_t count = 8;
   VkResult r = vkEnumeratePhysicalDevices(base->instance, &count, pds);
   if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
      test_fail(__FILE__, __LINE__, "vkEnumeratePhysicalDevices -> %s", vkt_result_name(r));
      return false;
   }
   bool found_ppu = false, found_lvp = false;
   for (uint32_t i = 0; i < count; i++) {
      struct vkt_context probe = *base;
      if (!vkt_context_use_device(&probe, pds[i]))
         continue;
      if (probe.is_vkppu && !found_ppu) {
         *ppu = probe;
         found_ppu = true;
      } else if (probe.is_lavapipe && !found_lvp) {
         *lvp = probe;
         found_lvp = true;
      }
   }
   if (!found_ppu)
      test_fail(__FILE__, __LINE__, "no vkppu device among %u: is VK_ICD_FILENAMES right?", count);
   else if (!found_lvp)
      test_fail(__FILE__, __LINE__,
                "no llvmpipe device among %u: the cross-check needs lavapipe "
                "(/usr/share/vulkan/icd.d/lvp_icd.json; Debian: apt-get install "
                "mesa-vulkan-drivers)",
                count);
   return found_ppu && found_lvp;
}

bool vkt_context_create(struct vkt_context *ctx)
{
   static bool volk_ready;
   memset(ctx, 0, sizeof(*ctx));
   if (!volk_ready) {
      if (volkInitialize() != VK_SUCCESS) {
         test_fail(__FILE__, __LINE__, "volkInitialize failed: no Vulkan loader (libvulkan.so.1)");
         return false;
      }
      volk_ready = true;
   }
   if (!layer_present(VALIDATION_LAYER)) {
      test_fail(__FILE__, __LINE__,
                "%s is not installed: the API tests only run with validation on "
                "(Debian: apt-get install vulkan-validationlayers)",
                VALIDATION_LAYER);
      return false;
   }
   const char *required[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME,
                             VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME};
   const char *extensions[3];
   uint32_t extension_count = 0;
   for (size_t i = 0; i < 2; i++) {
      if (!instance_extension_present(required[i])) {
         /* Drivers provide most instance extensions: a missing one usually
          * means the loader found no driver at all. */
         const char *icd = getenv("VK_ICD_FILENAMES");
         test_fail(__FILE__, __LINE__,
                   "instance extension %s missing (no driver loaded? VK_ICD_FILENAMES=%s)",
                   required[i], icd ? icd : "(unset)");
         return false;
      }
      extensions[extension_count++] = required[i];
   }
   /* VK_KHR_device_group (a standard device extension) depends on it. */
   if (instance_extension_present(VK_KHR_DEVICE_GROUP_CREATION_EXTENSION_NAME))
      extensions[extension_count++] = VK_KHR_DEVICE_GROUP_CREATION_EXTENSION_NAME;

   pthread_mutex_lock(&message_lock);
   memset(&message_counts, 0, sizeof(message_counts));
   pthread_mutex_unlock(&message_lock);

   VkDebugUtilsMessengerCreateInfoEXT mci = messenger_info();
   const char *layers[] = {VALIDATION_LAYER};
   VkApplicationInfo app = {
       .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
       .pApplicationName = "vkppu api tests",
       .apiVersion = VK_API_VERSION_1_3,
   };
   VkInstanceCreateInfo ici = {
       .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
       .pNext = &mci, /* catches messages from vkCreateInstance itself */
       .pApplicationInfo = &app,
       .enabledLayerCount = 1,
       .ppEnabledLayerNames = layers,
       .enabledExtensionCount = extension_count,
       .ppEnabledExtensionNames = extensions,
   };
   VkResult r = vkCreateInstance(&ici, NULL, &ctx->instance);
   if (r != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "vkCreateInstance -> %s", vkt_result_name(r));
      return false;
   }
   /* Loads device commands through the loader's trampolines, which dispatch
    * on the handle: right for every device the case creates. */
   volkLoadInstance(ctx->instance);
   r = vkCreateDebugUtilsMessengerEXT(ctx->instance, &mci, NULL, &ctx->messenger);
   if (r != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "vkCreateDebugUtilsMessengerEXT -> %s", vkt_result_name(r));
      vkDestroyInstance(ctx->instance, NULL);
      ctx->instance = VK_NULL_HANDLE;
      return false;
   }
   if (!pick_physical_device(ctx)) {
      vkt_context_destroy(ctx);
      return false;
   }
   return true;
}

void vkt_context_destroy(struct vkt_context *ctx)
{
   if (ctx->messenger)
      vkDestroyDebugUtilsMessengerEXT(ctx->instance, ctx->messenger, NULL);
   if (ctx->instance)
      vkDestroyInstance(ctx->instance, NULL);
   memset(ctx, 0, sizeof(*ctx));
   struct vkt_message_counts n = vkt_message_counts();
   if (n.errors || n.warnings)
      printf("  messages: %u errors, %u warnings; %u failed the case, %u were expected\n", n.errors,
             n.warnings, n.failing, n.tolerated);
}

bool vkt_has_device_extension(const struct vkt_context *ctx, const char *name)
{
   uint32_t count = 0;
   if (vkEnumerateDeviceExtensionProperties(ctx->physical_device, NULL, &count, NULL) != VK_SUCCESS)
      return false;
   VkExtensionProperties *exts = calloc(count ? count : 1, sizeof(*exts));
   bool found = false;
   if (exts && vkEnumerateDeviceExtensionProperties(ctx->physical_device, NULL, &count, exts) ==
                   VK_SUCCESS) {
      for (uint32_t i = 0; i < count && !found; i++)
         found = strcmp(exts[i].extensionName, name) == 0;
   }
   free(exts);
   return found;
}

/* ---------------------------------------------------------------------------
 * Logical device
 * ------------------------------------------------------------------------- */
VkResult vkt_device_create(struct vkt_context *ctx, const struct vkt_device_desc *desc,
                           struct vkt_device *dev)
{
   memset(dev, 0, sizeof(*dev));
   dev->ctx = ctx;

   static const float priorities[VKT_MAX_QUEUES_PER_FAMILY] = {1, 1, 1, 1, 1, 1, 1, 1};
   VkDeviceQueueCreateInfo queue_infos[VKT_MAX_FAMILIES];
   uint32_t queue_info_count = 0;
   for (uint32_t f = 0; f < ctx->family_count; f++) {
      if (!desc->all_queues && f != ctx->universal_family)
         continue;
      uint32_t n = desc->all_queues ? ctx->families[f].queueCount : 1;
      if (n > VKT_MAX_QUEUES_PER_FAMILY)
         n = VKT_MAX_QUEUES_PER_FAMILY;
      queue_infos[queue_info_count++] = (VkDeviceQueueCreateInfo){
          .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
          .queueFamilyIndex = f,
          .queueCount = n,
          .pQueuePriorities = priorities,
      };
      dev->queue_count[f] = n;
   }

   /* Chain: [VkPhysicalDeviceFeatures2 -> feature_chain ->] create_next. The
    * caller's chain is extended at its tail for the call and then restored. */
   VkPhysicalDeviceFeatures2 features2 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
       .pNext = desc->feature_chain,
   };
   VkBaseOutStructure *tail = NULL;
   const void *first = desc->create_next;
   const VkPhysicalDeviceFeatures *core = desc->features;
   if (desc->feature_chain) {
      if (desc->features)
         features2.features = *desc->features;
      core = NULL; /* features2 carries them */
      first = &features2;
      tail = desc->feature_chain;
      while (tail->pNext)
         tail = tail->pNext;
      tail->pNext = (VkBaseOutStructure *)desc->create_next;
   }
   VkDeviceCreateInfo dci = {
       .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
       .pNext = first,
       .queueCreateInfoCount = queue_info_count,
       .pQueueCreateInfos = queue_infos,
       .enabledExtensionCount = desc->extension_count,
       .ppEnabledExtensionNames = desc->extensions,
       .pEnabledFeatures = core,
   };
   VkResult r = vkCreateDevice(ctx->physical_device, &dci, NULL, &dev->device);
   if (tail)
      tail->pNext = NULL;
   if (r != VK_SUCCESS) {
      dev->device = VK_NULL_HANDLE;
      return r;
   }

   for (uint32_t f = 0; f < ctx->family_count; f++) {
      for (uint32_t q = 0; q < dev->queue_count[f]; q++)
         vkGetDeviceQueue(dev->device, f, q, &dev->queues[f][q]);
      if (!dev->queue_count[f])
         continue;
      VkCommandPoolCreateInfo pci = {
          .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
          .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
          .queueFamilyIndex = f,
      };
      r = vkCreateCommandPool(dev->device, &pci, NULL, &dev->pools[f]);
      if (r != VK_SUCCESS) {
         vkt_device_destroy(dev);
         return r;
      }
   }
   dev->queue = dev->queues[ctx->universal_family][0];
   return VK_SUCCESS;
}

bool vkt_device_create_standard(struct vkt_context *ctx, struct vkt_device *dev)
{
   bool missing = false;
   for (uint32_t i = 0; i < vkt_standard_device_extension_count; i++) {
      if (!vkt_has_device_extension(ctx, vkt_standard_device_extensions[i])) {
         test_fail(__FILE__, __LINE__, "device extension %s is not offered",
                   vkt_standard_device_extensions[i]);
         missing = true;
      }
   }
   if (missing)
      return false;

   VkPhysicalDeviceHostQueryResetFeaturesEXT query_reset = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES_EXT,
       .hostQueryReset = VK_TRUE,
   };
   VkPhysicalDeviceBufferDeviceAddressFeaturesKHR bda = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES_KHR,
       .pNext = &query_reset,
       .bufferDeviceAddress = VK_TRUE,
   };
   VkPhysicalDevicePrivateDataFeaturesEXT private_data = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIVATE_DATA_FEATURES_EXT,
       .pNext = &bda,
       .privateData = VK_TRUE,
   };
   VkPhysicalDeviceSynchronization2FeaturesKHR sync2 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES_KHR,
       .pNext = &private_data,
       .synchronization2 = VK_TRUE,
   };
   VkPhysicalDeviceTimelineSemaphoreFeaturesKHR timeline = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES_KHR,
       .pNext = &sync2,
       .timelineSemaphore = VK_TRUE,
   };
   struct vkt_device_desc desc = {
       .extensions = vkt_standard_device_extensions,
       .extension_count = vkt_standard_device_extension_count,
       .feature_chain = &timeline,
       .all_queues = true,
   };
   VkResult r = vkt_device_create(ctx, &desc, dev);
   if (r != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "vkCreateDevice (standard extensions) -> %s",
                vkt_result_name(r));
      return false;
   }
   return true;
}

void vkt_device_destroy(struct vkt_device *dev)
{
   if (!dev->device)
      return;
   /* A lost device answers VK_ERROR_DEVICE_LOST here; destroying is still
    * required and allowed. */
   (void)vkDeviceWaitIdle(dev->device);
   for (uint32_t f = 0; f < VKT_MAX_FAMILIES; f++) {
      if (dev->pools[f])
         vkDestroyCommandPool(dev->device, dev->pools[f], NULL);
   }
   vkDestroyDevice(dev->device, NULL);
   memset(dev, 0, sizeof(*dev));
}

bool vkt_setup(struct vkt_context *ctx, struct vkt_device *dev)
{
   memset(dev, 0, sizeof(*dev));
   if (!vkt_context_create(ctx))
      return false;
   if (!vkt_device_create_standard(ctx, dev)) {
      vkt_context_destroy(ctx);
      return false;
   }
   return true;
}

void vkt_teardown(struct vkt_context *ctx, struct vkt_device *dev)
{
   vkt_device_destroy(dev);
   vkt_context_destroy(ctx);
}

/* ---------------------------------------------------------------------------
 * Memory and buffers
 * ------------------------------------------------------------------------- */
uint32_t vkt_find_memory_type(const struct vkt_context *ctx, uint32_t type_bits,
                              VkMemoryPropertyFlags required, VkMemoryPropertyFlags avoid)
{
   uint32_t fallback = VKT_NO_MEMORY_TYPE;
   for (uint32_t i = 0; i < ctx->memory.memoryTypeCount; i++) {
      VkMemoryPropertyFlags flags = ctx->memory.memoryTypes[i].propertyFlags;
      if (!(type_bits & (1u << i)) || (flags & required) != required)
         continue;
      if (!(flags & avoid))
         return i;
      if (fallback == VKT_NO_MEMORY_TYPE)
         fallback = i;
   }
   return fallback;
}

VkResult vkt_buffer_create_unbound(struct vkt_device *dev, VkDeviceSize size,
                                   VkBufferUsageFlags usage, enum vkt_memory_kind kind,
                                   struct vkt_buffer *out)
{
   memset(out, 0, sizeof(*out));
   out->size = size;
   out->usage = usage;
   out->kind = kind;
   VkBufferCreateInfo bci = {
       .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
       .size = size,
       .usage = usage,
       .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
   };
   return vkCreateBuffer(dev->device, &bci, NULL, &out->buffer);
}

VkResult vkt_buffer_bind(struct vkt_device *dev, struct vkt_buffer *out)
{
   VkMemoryRequirements req;
   vkGetBufferMemoryRequirements(dev->device, out->buffer, &req);
   enum vkt_memory_kind kind = out->kind;
   VkMemoryPropertyFlags required =
       kind == VKT_MEMORY_HOST
           ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
           : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
   VkMemoryPropertyFlags avoid = kind == VKT_MEMORY_HOST ? 0 : VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
   out->memory_type = vkt_find_memory_type(dev->ctx, req.memoryTypeBits, required, avoid);
   if (out->memory_type == VKT_NO_MEMORY_TYPE) {
      test_fail(__FILE__, __LINE__, "no memory type with flags 0x%x in bits 0x%x", required,
                req.memoryTypeBits);
      vkt_buffer_destroy(dev, out);
      return VK_ERROR_FEATURE_NOT_PRESENT;
   }
   VkMemoryAllocateFlagsInfoKHR flags_info = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO_KHR,
       .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT_KHR,
   };
   VkMemoryAllocateInfo mai = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
       .pNext = (out->usage & VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT_KHR) ? &flags_info : NULL,
       .allocationSize = req.size,
       .memoryTypeIndex = out->memory_type,
   };
   VkResult r = vkAllocateMemory(dev->device, &mai, NULL, &out->memory);
   if (r == VK_SUCCESS)
      r = vkBindBufferMemory(dev->device, out->buffer, out->memory, 0);
   if (r == VK_SUCCESS && kind == VKT_MEMORY_HOST)
      r = vkMapMemory(dev->device, out->memory, 0, VK_WHOLE_SIZE, 0, &out->map);
   if (r != VK_SUCCESS)
      vkt_buffer_destroy(dev, out);
   return r;
}

VkResult vkt_buffer_create(struct vkt_device *dev, VkDeviceSize size, VkBufferUsageFlags usage,
                           enum vkt_memory_kind kind, struct vkt_buffer *out)
{
   VkResult r = vkt_buffer_create_unbound(dev, size, usage, kind, out);
   return r == VK_SUCCESS ? vkt_buffer_bind(dev, out) : r;
}

void vkt_buffer_destroy(struct vkt_device *dev, struct vkt_buffer *buf)
{
   if (buf->buffer)
      vkDestroyBuffer(dev->device, buf->buffer, NULL);
   if (buf->memory)
      vkFreeMemory(dev->device, buf->memory, NULL); /* unmaps implicitly */
   memset(buf, 0, sizeof(*buf));
}

/* ---------------------------------------------------------------------------
 * Command buffers and synchronization objects
 * ------------------------------------------------------------------------- */
VkCommandBuffer vkt_cmd_begin(struct vkt_device *dev, uint32_t family)
{
   VkCommandBufferAllocateInfo ai = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
       .commandPool = dev->pools[family],
       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
       .commandBufferCount = 1,
   };
   VkCommandBuffer cmd = VK_NULL_HANDLE;
   VkResult r = vkAllocateCommandBuffers(dev->device, &ai, &cmd);
   if (r != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "vkAllocateCommandBuffers -> %s", vkt_result_name(r));
      return VK_NULL_HANDLE;
   }
   VkCommandBufferBeginInfo bi = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
       .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
   };
   r = vkBeginCommandBuffer(cmd, &bi);
   if (r != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "vkBeginCommandBuffer -> %s", vkt_result_name(r));
      vkFreeCommandBuffers(dev->device, dev->pools[family], 1, &cmd);
      return VK_NULL_HANDLE;
   }
   return cmd;
}

VkResult vkt_cmd_submit_wait(struct vkt_device *dev, uint32_t family, uint32_t queue_index,
                             VkCommandBuffer cmd)
{
   VkResult r = vkEndCommandBuffer(cmd);
   VkFence fence = VK_NULL_HANDLE;
   if (r == VK_SUCCESS) {
      VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
      r = vkCreateFence(dev->device, &fci, NULL, &fence);
   }
   if (r == VK_SUCCESS) {
      VkSubmitInfo si = {
          .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
          .commandBufferCount = 1,
          .pCommandBuffers = &cmd,
      };
      r = vkQueueSubmit(dev->queues[family][queue_index], 1, &si, fence);
      if (r == VK_SUCCESS)
         r = vkWaitForFences(dev->device, 1, &fence, VK_TRUE, VKT_WAIT_TIMEOUT_NS);
      if (r == VK_TIMEOUT)
         vkt_fatal_hang("a one-shot submission");
   }
   if (fence)
      vkDestroyFence(dev->device, fence, NULL);
   vkFreeCommandBuffers(dev->device, dev->pools[family], 1, &cmd);
   return r;
}

void vkt_cmd_transfer_to_host_barrier(VkCommandBuffer cmd)
{
   VkMemoryBarrier mb = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
       .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
       .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
   };
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb,
                        0, NULL, 0, NULL);
}

VkFence vkt_fence_create(struct vkt_device *dev, bool signaled)
{
   VkFenceCreateInfo fci = {
       .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO,
       .flags = signaled ? VK_FENCE_CREATE_SIGNALED_BIT : 0,
   };
   VkFence fence = VK_NULL_HANDLE;
   VkResult r = vkCreateFence(dev->device, &fci, NULL, &fence);
   if (r != VK_SUCCESS)
      test_fail(__FILE__, __LINE__, "vkCreateFence -> %s", vkt_result_name(r));
   return fence;
}

VkSemaphore vkt_timeline_create(struct vkt_device *dev, uint64_t initial_value)
{
   VkSemaphoreTypeCreateInfoKHR type = {
       .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO_KHR,
       .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE_KHR,
       .initialValue = initial_value,
   };
   VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &type};
   VkSemaphore sem = VK_NULL_HANDLE;
   VkResult r = vkCreateSemaphore(dev->device, &sci, NULL, &sem);
   if (r != VK_SUCCESS)
      test_fail(__FILE__, __LINE__, "vkCreateSemaphore (timeline) -> %s", vkt_result_name(r));
   return sem;
}
