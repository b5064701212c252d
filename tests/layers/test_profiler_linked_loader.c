/* VK_LAYER_VKPPU_profiler in a program linked with libvulkan.so.1 directly
 * (-lvulkan, as vkcube, vulkaninfo and most third-party programs are), not
 * through volk: there the loader's own vkGetInstanceProcAddr is a global
 * symbol of the process, and a layer whose references to its exported names
 * bind to the loader's re-enters vkCreateInstance and deadlocks.
 *
 * usage: test_profiler_linked_loader INSTANCES DEVICES LAYER...
 *   Creates INSTANCES instances, each with DEVICES devices on its first
 *   physical device, all alive at once, with LAYER... enabled in that order
 *   (first = nearest the application). On every device it fills a buffer
 *   three times, calling vkQueueSubmit once through the symbol linked from
 *   the loader, once through vkGetInstanceProcAddr and once through
 *   vkGetDeviceProcAddr, and checks the buffer. Validation messages of
 *   warning or error severity fail the run. A watchdog turns a hang into a
 *   failure. Prints "devices D submits S" for the caller to check the
 *   layer's outputs against. */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <vulkan/vulkan.h>

#define MAX_INSTANCES 4
#define MAX_DEVICES 4
#define WORDS 1024
#define WATCHDOG_SECONDS 120

static int failures;
static unsigned validation_messages;

#define CHECK(cond, ...)                                                                           \
   do {                                                                                            \
      if (!(cond)) {                                                                               \
         fprintf(stderr, "FAILED %s:%d: ", __FILE__, __LINE__);                                    \
         fprintf(stderr, __VA_ARGS__);                                                             \
         fputc('\n', stderr);                                                                      \
         failures++;                                                                               \
      }                                                                                            \
   } while (0)

static void on_watchdog(int sig)
{
   (void)sig;
   static const char msg[] = "FAILED: not done in the watchdog's time: a layer deadlock?\n";
   if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
      _exit(2);
   _exit(1);
}

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT types,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                 void *user)
{
   (void)types;
   (void)user;
   if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
      fprintf(stderr, "validation: %s\n", data->pMessage);
      validation_messages++;
   }
   return VK_FALSE;
}

struct test_device {
   VkDevice device;
   VkQueue queue;
   VkBuffer buffer;
   VkDeviceMemory memory;
   VkCommandPool pool;
   VkCommandBuffer cmd;
};

static uint32_t host_visible_type(VkPhysicalDevice pd, uint32_t allowed)
{
   VkPhysicalDeviceMemoryProperties mp;
   vkGetPhysicalDeviceMemoryProperties(pd, &mp);
   const VkMemoryPropertyFlags want =
       VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
   for (uint32_t i = 0; i < mp.memoryTypeCount; i++)
      if ((allowed & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want)
         return i;
   return UINT32_MAX;
}

static bool device_create(VkInstance instance, VkPhysicalDevice pd, struct test_device *t)
{
   float priority = 1.0f;
   VkDeviceQueueCreateInfo queue = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                    .queueFamilyIndex = 0,
                                    .queueCount = 1,
                                    .pQueuePriorities = &priority};
   VkDeviceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                              .queueCreateInfoCount = 1,
                              .pQueueCreateInfos = &queue};
   VkResult r = vkCreateDevice(pd, &info, NULL, &t->device);
   CHECK(r == VK_SUCCESS, "vkCreateDevice: %d", r);
   if (r != VK_SUCCESS)
      return false;
   (void)instance;
   vkGetDeviceQueue(t->device, 0, 0, &t->queue);
   VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                            .size = WORDS * 4,
                            .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT};
   CHECK(vkCreateBuffer(t->device, &bi, NULL, &t->buffer) == VK_SUCCESS, "vkCreateBuffer");
   VkMemoryRequirements req;
   vkGetBufferMemoryRequirements(t->device, t->buffer, &req);
   VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                              .allocationSize = req.size,
                              .memoryTypeIndex = host_visible_type(pd, req.memoryTypeBits)};
   CHECK(ai.memoryTypeIndex != UINT32_MAX, "no host-visible coherent memory type");
   CHECK(vkAllocateMemory(t->device, &ai, NULL, &t->memory) == VK_SUCCESS, "vkAllocateMemory");
   CHECK(vkBindBufferMemory(t->device, t->buffer, t->memory, 0) == VK_SUCCESS, "bind");
   VkCommandPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                 .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                 .queueFamilyIndex = 0};
   CHECK(vkCreateCommandPool(t->device, &pi, NULL, &t->pool) == VK_SUCCESS, "command pool");
   VkCommandBufferAllocateInfo ci = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                     .commandPool = t->pool,
                                     .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                     .commandBufferCount = 1};
   CHECK(vkAllocateCommandBuffers(t->device, &ci, &t->cmd) == VK_SUCCESS, "command buffer");
   return failures == 0;
}

/* Fills the buffer with value, submitting through submit, and checks it. */
static void fill_and_check(struct test_device *t, PFN_vkQueueSubmit submit, uint32_t value,
                           const char *how)
{
   CHECK(submit != NULL, "no vkQueueSubmit %s", how);
   if (!submit)
      return;
   VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                  .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
   vkResetCommandBuffer(t->cmd, 0);
   vkBeginCommandBuffer(t->cmd, &bi);
   vkCmdFillBuffer(t->cmd, t->buffer, 0, VK_WHOLE_SIZE, value);
   vkEndCommandBuffer(t->cmd);
   VkSubmitInfo si = {
       .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &t->cmd};
   VkResult r = submit(t->queue, 1, &si, VK_NULL_HANDLE);
   CHECK(r == VK_SUCCESS, "vkQueueSubmit %s: %d", how, r);
   CHECK(vkQueueWaitIdle(t->queue) == VK_SUCCESS, "vkQueueWaitIdle");
   uint32_t *words = NULL;
   CHECK(vkMapMemory(t->device, t->memory, 0, VK_WHOLE_SIZE, 0, (void **)&words) == VK_SUCCESS,
         "map");
   if (!words)
      return;
   uint32_t wrong = 0;
   for (uint32_t i = 0; i < WORDS; i++)
      wrong += words[i] != value;
   CHECK(wrong == 0, "submit %s: %u of %u words not 0x%x", how, wrong, WORDS, value);
   vkUnmapMemory(t->device, t->memory);
}

static void device_destroy(struct test_device *t)
{
   vkDestroyCommandPool(t->device, t->pool, NULL);
   vkDestroyBuffer(t->device, t->buffer, NULL);
   vkFreeMemory(t->device, t->memory, NULL);
   vkDestroyDevice(t->device, NULL);
}

int main(int argc, char **argv)
{
   if (argc < 3) {
      fprintf(stderr, "usage: %s INSTANCES DEVICES LAYER...\n", argv[0]);
      return 2;
   }
   uint32_t instance_count = (uint32_t)atoi(argv[1]), device_count = (uint32_t)atoi(argv[2]);
   if (instance_count < 1 || instance_count > MAX_INSTANCES || device_count < 1 ||
       device_count > MAX_DEVICES) {
      fprintf(stderr, "1..%d instances, 1..%d devices\n", MAX_INSTANCES, MAX_DEVICES);
      return 2;
   }
   signal(SIGALRM, on_watchdog);
   alarm(WATCHDOG_SECONDS);

   const char *const *layers = (const char *const *)argv + 3;
   uint32_t layer_count = (uint32_t)argc - 3;
   bool validation = false;
   for (uint32_t i = 0; i < layer_count; i++)
      validation |= !strcmp(layers[i], "VK_LAYER_KHRONOS_validation");
   const char *extension = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
   VkDebugUtilsMessengerCreateInfoEXT messenger_info = {
       .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
       .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                          VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
       .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                      VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT,
       .pfnUserCallback = on_message};
   VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                            .pApplicationName = "test_profiler_linked_loader",
                            .apiVersion = VK_API_VERSION_1_1};
   VkInstanceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                                .pNext = validation ? &messenger_info : NULL,
                                .pApplicationInfo = &app,
                                .enabledLayerCount = layer_count,
                                .ppEnabledLayerNames = layers,
                                .enabledExtensionCount = validation ? 1 : 0,
                                .ppEnabledExtensionNames = &extension};

   VkInstance instances[MAX_INSTANCES] = {0};
   VkDebugUtilsMessengerEXT messengers[MAX_INSTANCES] = {0};
   struct test_device devices[MAX_INSTANCES][MAX_DEVICES] = {0};
   uint32_t devices_made = 0, submits = 0;
   for (uint32_t i = 0; i < instance_count; i++) {
      VkResult r = vkCreateInstance(&info, NULL, &instances[i]);
      CHECK(r == VK_SUCCESS, "vkCreateInstance %u: %d", i, r);
      if (r != VK_SUCCESS)
         return 1;
      if (validation) {
         PFN_vkCreateDebugUtilsMessengerEXT create_messenger =
             (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(
                 instances[i], "vkCreateDebugUtilsMessengerEXT");
         CHECK(create_messenger && create_messenger(instances[i], &messenger_info, NULL,
                                                    &messengers[i]) == VK_SUCCESS,
               "vkCreateDebugUtilsMessengerEXT");
      }
      uint32_t n = 1;
      VkPhysicalDevice pd;
      r = vkEnumeratePhysicalDevices(instances[i], &n, &pd);
      CHECK((r == VK_SUCCESS || r == VK_INCOMPLETE) && n == 1, "no physical device");
      if (n != 1)
         return 1;
      for (uint32_t d = 0; d < device_count; d++) {
         if (!device_create(instances[i], pd, &devices[i][d]))
            return 1;
         devices_made++;
      }
   }
   /* Submit on every device while all of them are alive. */
   for (uint32_t i = 0; i < instance_count; i++) {
      PFN_vkQueueSubmit by_instance =
          (PFN_vkQueueSubmit)vkGetInstanceProcAddr(instances[i], "vkQueueSubmit");
      for (uint32_t d = 0; d < device_count; d++) {
         struct test_device *t = &devices[i][d];
         PFN_vkQueueSubmit by_device =
             (PFN_vkQueueSubmit)vkGetDeviceProcAddr(t->device, "vkQueueSubmit");
         uint32_t tag = (i << 8) | (d << 4);
         fill_and_check(t, vkQueueSubmit, 0xa5000001u | tag, "(linked symbol)");
         fill_and_check(t, by_instance, 0xa5000002u | tag, "(vkGetInstanceProcAddr)");
         fill_and_check(t, by_device, 0xa5000003u | tag, "(vkGetDeviceProcAddr)");
         submits += 3;
      }
   }
   for (uint32_t i = 0; i < instance_count; i++) {
      for (uint32_t d = 0; d < device_count; d++)
         device_destroy(&devices[i][d]);
      if (messengers[i]) {
         PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger =
             (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(
                 instances[i], "vkDestroyDebugUtilsMessengerEXT");
         destroy_messenger(instances[i], messengers[i], NULL);
      }
      vkDestroyInstance(instances[i], NULL);
   }
   CHECK(validation_messages == 0, "%u validation messages", validation_messages);
   printf("devices %u submits %u\n", devices_made, submits);
   return failures ? 1 : 0;
}
