#include "bench_instance.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vk_check.h"

static const char VALIDATION_LAYER[] = "VK_LAYER_KHRONOS_validation";

static const char *message_type_name(VkDebugUtilsMessageTypeFlagsEXT types)
{
   if (types & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT)
      return "validation";
   if (types & VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT)
      return "performance";
   return "general"; /* the loader's and layers' own notes */
}

static VKAPI_ATTR VkBool32 VKAPI_CALL count_and_print_message(
    VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
    const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
   atomic_uint *error_messages = user;
   const char *level = "warning";
   /* Every ERROR counts, whatever its type: a loader error (a driver that
    * failed to load) is as fatal to a clean run as a broken rule. */
   if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) {
      level = "error";
      atomic_fetch_add(error_messages, 1);
   }
   fprintf(stderr, "transfer_bench: [%s %s] %s\n", message_type_name(types), level,
           data && data->pMessage ? data->pMessage : "(no message)");
   /* VK_FALSE: the spec reserves VK_TRUE for layer development. */
   return VK_FALSE;
}

static bool layer_available(const char *name)
{
   uint32_t count = 0;
   if (vkEnumerateInstanceLayerProperties(&count, NULL) != VK_SUCCESS)
      return false;
   VkLayerProperties *layers = calloc(count ? count : 1, sizeof(*layers));
   if (!layers)
      return false;
   bool found = false;
   if (vkEnumerateInstanceLayerProperties(&count, layers) == VK_SUCCESS) {
      for (uint32_t i = 0; i < count && !found; i++)
         found = strcmp(layers[i].layerName, name) == 0;
   }
   free(layers);
   return found;
}

/* Whether the loader, its drivers or `layer` (when not NULL) provide the
 * instance extension `name`. */
static bool instance_extension_available(const char *layer, const char *name)
{
   uint32_t count = 0;
   if (vkEnumerateInstanceExtensionProperties(layer, &count, NULL) != VK_SUCCESS)
      return false;
   VkExtensionProperties *extensions = calloc(count ? count : 1, sizeof(*extensions));
   if (!extensions)
      return false;
   bool found = false;
   if (vkEnumerateInstanceExtensionProperties(layer, &count, extensions) == VK_SUCCESS) {
      for (uint32_t i = 0; i < count && !found; i++)
         found = strcmp(extensions[i].extensionName, name) == 0;
   }
   free(extensions);
   return found;
}

VkResult bench_instance_create(bool validate, struct bench_instance *out)
{
   memset(out, 0, sizeof(*out));
   atomic_init(&out->error_messages, 0);

   VkResult result = volkInitialize();
   if (result != VK_SUCCESS) {
      fprintf(stderr, "transfer_bench: no Vulkan loader found (volkInitialize: %s)\n",
              vk_result_name(result));
      return result;
   }

   const char *extensions[2];
   uint32_t extension_count = 0;
   if (instance_extension_available(NULL, VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME)) {
      extensions[extension_count++] = VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME;
      out->has_properties2 = true;
   }

   const char *layers[1];
   uint32_t layer_count = 0;
   VkDebugUtilsMessengerCreateInfoEXT messenger_info = {
       .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
       .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                          VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
       .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                      VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                      VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
       .pfnUserCallback = count_and_print_message,
       .pUserData = &out->error_messages,
   };
   if (validate) {
      /* Asked for validation and not getting it must not look like a clean
       * run, so a missing layer is an error rather than a warning. */
      if (!layer_available(VALIDATION_LAYER)) {
         fprintf(stderr, "transfer_bench: --validate: %s is not installed\n", VALIDATION_LAYER);
         return VK_ERROR_LAYER_NOT_PRESENT;
      }
      if (!instance_extension_available(NULL, VK_EXT_DEBUG_UTILS_EXTENSION_NAME) &&
          !instance_extension_available(VALIDATION_LAYER, VK_EXT_DEBUG_UTILS_EXTENSION_NAME)) {
         fprintf(stderr, "transfer_bench: --validate: %s is not available\n",
                 VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
         return VK_ERROR_EXTENSION_NOT_PRESENT;
      }
      layers[layer_count++] = VALIDATION_LAYER;
      extensions[extension_count++] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
      out->validation = true;
   }

   const VkApplicationInfo app = {
       .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
       .pApplicationName = "transfer_bench",
       .applicationVersion = 1,
       /* Everything measured here is Vulkan 1.0 core; asking for more would
        * shut out devices that report 1.0. */
       .apiVersion = VK_API_VERSION_1_0,
   };
   const VkInstanceCreateInfo create_info = {
       .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
       /* Chaining the messenger also reports errors raised while the instance
        * itself is created and destroyed. */
       .pNext = validate ? &messenger_info : NULL,
       .pApplicationInfo = &app,
       .enabledLayerCount = layer_count,
       .ppEnabledLayerNames = layers,
       .enabledExtensionCount = extension_count,
       .ppEnabledExtensionNames = extensions,
   };
   result = vkCreateInstance(&create_info, NULL, &out->instance);
   if (vk_failed(result, "vkCreateInstance"))
      return result;
   volkLoadInstance(out->instance);

   if (validate) {
      result =
          vkCreateDebugUtilsMessengerEXT(out->instance, &messenger_info, NULL, &out->messenger);
      if (vk_failed(result, "vkCreateDebugUtilsMessengerEXT")) {
         vkDestroyInstance(out->instance, NULL);
         out->instance = VK_NULL_HANDLE;
         return result;
      }
   }
   return VK_SUCCESS;
}

void bench_instance_destroy(struct bench_instance *instance)
{
   if (instance->messenger != VK_NULL_HANDLE)
      vkDestroyDebugUtilsMessengerEXT(instance->instance, instance->messenger, NULL);
   if (instance->instance != VK_NULL_HANDLE)
      vkDestroyInstance(instance->instance, NULL);
   instance->messenger = VK_NULL_HANDLE;
   instance->instance = VK_NULL_HANDLE;
}
