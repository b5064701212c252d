/* present_compute: a compute shader writes an animated pattern straight
 * into each swapchain image through a storage view, and the image is
 * presented; N frames, then the frame rate. Headless (with vkppu,
 * VKPPU_PRESENT_PNG=dir writes the frames as PNGs) or into an X11 window
 * through xcb or Xlib. See README.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vk_sample.h"
#include "window.h"

#define TAG "present_compute"
#define FRAMES_IN_FLIGHT 2
#define MAX_IMAGES 16
#define ACQUIRE_TIMEOUT_NS (60ull * 1000 * 1000 * 1000)

struct options {
   enum pc_surface_kind surface;
   uint32_t frames, width, height;
   VkPresentModeKHR mode;
   bool validate;
};

struct swapchain {
   VkSwapchainKHR handle;
   VkFormat format;
   VkExtent2D extent;
   uint32_t count;
   VkImage images[MAX_IMAGES];
   VkImageView views[MAX_IMAGES];
   VkDescriptorSet sets[MAX_IMAGES];
   VkSemaphore rendered[MAX_IMAGES]; /* per image: its last present waits on it */
};

struct app {
   struct options opt;
   VkInstance instance;
   VkDebugUtilsMessengerEXT messenger;
   uint32_t errors; /* validation errors seen */
   struct pc_window window;
   VkSurfaceKHR surface;
   VkPhysicalDevice pd;
   uint32_t family;
   VkDevice device;
   VkQueue queue;
   VkCommandPool pool;
   struct vk_sample_compute_pipeline pipeline;
   VkDescriptorPool set_pool;
   struct swapchain sc;
   VkSemaphore acquired[FRAMES_IN_FLIGHT];
   VkFence done[FRAMES_IN_FLIGHT];
   VkCommandBuffer cmd[FRAMES_IN_FLIGHT];
   uint32_t recreations;
};

static double now_seconds(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT types,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                 void *user)
{
   (void)types;
   struct app *a = user;
   bool error = (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) != 0;
   a->errors += error;
   fprintf(stderr, TAG ": [%s] %s\n", error ? "error" : "warning",
           data && data->pMessage ? data->pMessage : "(no message)");
   return VK_FALSE;
}

static VkResult create_instance(struct app *a)
{
   VK_SAMPLE_CHECK(TAG, volkInitialize());
   uint32_t surface_ext_count;
   const char *const *surface_ext =
       pc_window_instance_extensions(a->opt.surface, &surface_ext_count);
   const char *extensions[4] = {surface_ext[0], surface_ext[1], VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
   const char *layers[] = {"VK_LAYER_KHRONOS_validation"};
   VkDebugUtilsMessengerCreateInfoEXT mci = {
       .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
       .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                          VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
       .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                      VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT,
       .pfnUserCallback = on_message,
       .pUserData = a,
   };
   VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                            .pApplicationName = TAG,
                            .apiVersion = VK_API_VERSION_1_1};
   VkInstanceCreateInfo ici = {
       .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
       .pNext = a->opt.validate ? &mci : NULL,
       .pApplicationInfo = &app,
       .enabledLayerCount = a->opt.validate ? 1 : 0,
       .ppEnabledLayerNames = layers,
       .enabledExtensionCount = surface_ext_count + (a->opt.validate ? 1 : 0),
       .ppEnabledExtensionNames = extensions,
   };
   VK_SAMPLE_CHECK(TAG, vkCreateInstance(&ici, NULL, &a->instance));
   volkLoadInstance(a->instance);
   if (a->opt.validate)
      VK_SAMPLE_CHECK(TAG, vkCreateDebugUtilsMessengerEXT(a->instance, &mci, NULL, &a->messenger));
   return VK_SUCCESS;
}

/* The first device with a compute family that can present to the surface. */
static VkResult create_device(struct app *a)
{
   VkPhysicalDevice pds[8];
   uint32_t n = 8;
   VkResult r = vkEnumeratePhysicalDevices(a->instance, &n, pds);
   if (r < 0 || n == 0) {
      fprintf(stderr, TAG ": no Vulkan device\n");
      return VK_ERROR_INITIALIZATION_FAILED;
   }
   a->pd = VK_NULL_HANDLE;
   for (uint32_t d = 0; d < n && !a->pd; d++) {
      VkQueueFamilyProperties families[8];
      uint32_t fc = 8;
      vkGetPhysicalDeviceQueueFamilyProperties(pds[d], &fc, families);
      for (uint32_t f = 0; f < fc && !a->pd; f++) {
         VkBool32 present = VK_FALSE;
         if (!(families[f].queueFlags & VK_QUEUE_COMPUTE_BIT) ||
             vkGetPhysicalDeviceSurfaceSupportKHR(pds[d], f, a->surface, &present) != VK_SUCCESS ||
             !present)
            continue;
         a->pd = pds[d];
         a->family = f;
      }
   }
   if (!a->pd) {
      fprintf(stderr, TAG ": no device can compute and present to this surface\n");
      return VK_ERROR_INITIALIZATION_FAILED;
   }
   VkPhysicalDeviceProperties props;
   vkGetPhysicalDeviceProperties(a->pd, &props);
   printf(TAG ": %s\n", props.deviceName);
   VkPhysicalDeviceFeatures supported, features = {0};
   vkGetPhysicalDeviceFeatures(a->pd, &supported);
   if (!supported.shaderStorageImageWriteWithoutFormat) {
      fprintf(stderr, TAG ": the device lacks shaderStorageImageWriteWithoutFormat\n");
      return VK_ERROR_FEATURE_NOT_PRESENT;
   }
   features.shaderStorageImageWriteWithoutFormat = VK_TRUE;
   float priority = 1.0f;
   VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                  .queueFamilyIndex = a->family,
                                  .queueCount = 1,
                                  .pQueuePriorities = &priority};
   const char *extensions[] = {VK_KHR_SWAPCHAIN_EXTENSION_NAME};
   VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                             .queueCreateInfoCount = 1,
                             .pQueueCreateInfos = &qci,
                             .enabledExtensionCount = 1,
                             .ppEnabledExtensionNames = extensions,
                             .pEnabledFeatures = &features};
   VK_SAMPLE_CHECK(TAG, vkCreateDevice(a->pd, &dci, NULL, &a->device));
   vkGetDeviceQueue(a->device, a->family, 0, &a->queue);
   VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                  .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                  .queueFamilyIndex = a->family};
   VK_SAMPLE_CHECK(TAG, vkCreateCommandPool(a->device, &pci, NULL, &a->pool));
   VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                      .commandPool = a->pool,
                                      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                      .commandBufferCount = FRAMES_IN_FLIGHT};
   VK_SAMPLE_CHECK(TAG, vkAllocateCommandBuffers(a->device, &cai, a->cmd));
   VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
   VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO,
                            .flags = VK_FENCE_CREATE_SIGNALED_BIT};
   for (int i = 0; i < FRAMES_IN_FLIGHT; i++) {
      VK_SAMPLE_CHECK(TAG, vkCreateSemaphore(a->device, &sci, NULL, &a->acquired[i]));
      VK_SAMPLE_CHECK(TAG, vkCreateFence(a->device, &fci, NULL, &a->done[i]));
   }
   static const VkDescriptorType type = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
   VK_SAMPLE_CHECK(TAG, vk_sample_compute_pipeline_create(a->device, TAG, PATTERN_SPV, &type, 1, 8,
                                                          &a->pipeline));
   VkDescriptorPoolSize size = {type, MAX_IMAGES};
   VkDescriptorPoolCreateInfo dpci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                      .flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT,
                                      .maxSets = MAX_IMAGES,
                                      .poolSizeCount = 1,
                                      .pPoolSizes = &size};
   VK_SAMPLE_CHECK(TAG, vkCreateDescriptorPool(a->device, &dpci, NULL, &a->set_pool));
   return VK_SUCCESS;
}

static void destroy_swapchain_views(struct app *a, struct swapchain *sc)
{
   for (uint32_t i = 0; i < sc->count; i++) {
      vkDestroyImageView(a->device, sc->views[i], NULL);
      vkDestroySemaphore(a->device, sc->rendered[i], NULL);
   }
   if (sc->count && sc->sets[0])
      vkFreeDescriptorSets(a->device, a->set_pool, sc->count, sc->sets);
   memset(sc->views, 0, sizeof(sc->views));
   memset(sc->sets, 0, sizeof(sc->sets));
   memset(sc->rendered, 0, sizeof(sc->rendered));
}

/* A swapchain for the surface's current size (or the asked size when the
 * surface has none), with a storage view and descriptor set per image. */
static VkResult create_swapchain(struct app *a)
{
   VkSurfaceCapabilitiesKHR caps;
   VK_SAMPLE_CHECK(TAG, vkGetPhysicalDeviceSurfaceCapabilitiesKHR(a->pd, a->surface, &caps));
   if (!(caps.supportedUsageFlags & VK_IMAGE_USAGE_STORAGE_BIT)) {
      fprintf(stderr, TAG ": swapchain images of this surface cannot be storage images\n");
      return VK_ERROR_FEATURE_NOT_PRESENT;
   }
   VkSurfaceFormatKHR formats[32];
   uint32_t n = 32;
   VkResult r = vkGetPhysicalDeviceSurfaceFormatsKHR(a->pd, a->surface, &n, formats);
   if (r < 0)
      return r;
   VkFormat format = VK_FORMAT_UNDEFINED;
   for (uint32_t i = 0; i < n && format == VK_FORMAT_UNDEFINED; i++) {
      if (formats[i].format == VK_FORMAT_B8G8R8A8_UNORM ||
          formats[i].format == VK_FORMAT_R8G8B8A8_UNORM)
         format = formats[i].format;
   }
   if (format == VK_FORMAT_UNDEFINED) {
      fprintf(stderr, TAG ": the surface offers no 8-bit UNORM RGBA/BGRA format\n");
      return VK_ERROR_FORMAT_NOT_SUPPORTED;
   }
   VkExtent2D extent = caps.currentExtent;
   if (extent.width == UINT32_MAX)
      extent = (VkExtent2D){a->opt.width, a->opt.height};
   uint32_t count = caps.minImageCount + 1;
   if (caps.maxImageCount && count > caps.maxImageCount)
      count = caps.maxImageCount;
   struct swapchain *sc = &a->sc;
   VkSwapchainKHR old = sc->handle;
   destroy_swapchain_views(a, sc);
   VkSwapchainCreateInfoKHR ci = {
       .sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR,
       .surface = a->surface,
       .minImageCount = count,
       .imageFormat = format,
       .imageColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR,
       .imageExtent = extent,
       .imageArrayLayers = 1,
       .imageUsage = VK_IMAGE_USAGE_STORAGE_BIT,
       .imageSharingMode = VK_SHARING_MODE_EXCLUSIVE,
       .preTransform = caps.currentTransform,
       .compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR,
       .presentMode = a->opt.mode,
       .clipped = VK_TRUE,
       .oldSwapchain = old,
   };
   r = vkCreateSwapchainKHR(a->device, &ci, NULL, &sc->handle);
   if (old)
      vkDestroySwapchainKHR(a->device, old, NULL);
   if (r != VK_SUCCESS) {
      sc->handle = VK_NULL_HANDLE;
      fprintf(stderr, TAG ": vkCreateSwapchainKHR -> %s\n", vk_sample_result_string(r));
      return r;
   }
   sc->format = format;
   sc->extent = extent;
   sc->count = MAX_IMAGES;
   VK_SAMPLE_CHECK(TAG, vkGetSwapchainImagesKHR(a->device, sc->handle, &sc->count, sc->images));
   VkDescriptorSetLayout layouts[MAX_IMAGES];
   for (uint32_t i = 0; i < sc->count; i++)
      layouts[i] = a->pipeline.set_layout;
   VkDescriptorSetAllocateInfo dsai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                       .descriptorPool = a->set_pool,
                                       .descriptorSetCount = sc->count,
                                       .pSetLayouts = layouts};
   VK_SAMPLE_CHECK(TAG, vkAllocateDescriptorSets(a->device, &dsai, sc->sets));
   VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
   for (uint32_t i = 0; i < sc->count; i++) {
      VkImageViewCreateInfo vci = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                   .image = sc->images[i],
                                   .viewType = VK_IMAGE_VIEW_TYPE_2D,
                                   .format = format,
                                   .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
      VK_SAMPLE_CHECK(TAG, vkCreateImageView(a->device, &vci, NULL, &sc->views[i]));
      VK_SAMPLE_CHECK(TAG, vkCreateSemaphore(a->device, &sci, NULL, &sc->rendered[i]));
      VkDescriptorImageInfo ii = {.imageView = sc->views[i],
                                  .imageLayout = VK_IMAGE_LAYOUT_GENERAL};
      VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                .dstSet = sc->sets[i],
                                .descriptorCount = 1,
                                .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
                                .pImageInfo = &ii};
      vkUpdateDescriptorSets(a->device, 1, &w, 0, NULL);
   }
   return VK_SUCCESS;
}

/* One frame; VK_ERROR_OUT_OF_DATE_KHR / VK_SUBOPTIMAL_KHR ask for a new
 * swapchain. */
static VkResult draw_frame(struct app *a, uint32_t frame)
{
   uint32_t f = frame % FRAMES_IN_FLIGHT;
   VK_SAMPLE_CHECK(TAG, vkWaitForFences(a->device, 1, &a->done[f], VK_TRUE, ACQUIRE_TIMEOUT_NS));
   uint32_t index;
   VkResult r = vkAcquireNextImageKHR(a->device, a->sc.handle, ACQUIRE_TIMEOUT_NS, a->acquired[f],
                                      VK_NULL_HANDLE, &index);
   if (r == VK_ERROR_OUT_OF_DATE_KHR)
      return r;
   if (r != VK_SUCCESS && r != VK_SUBOPTIMAL_KHR) {
      fprintf(stderr, TAG ": vkAcquireNextImageKHR -> %s\n", vk_sample_result_string(r));
      return r;
   }
   VK_SAMPLE_CHECK(TAG, vkResetFences(a->device, 1, &a->done[f]));
   VkCommandBuffer cmd = a->cmd[f];
   VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                  .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
   VK_SAMPLE_CHECK(TAG, vkBeginCommandBuffer(cmd, &bi));
   VkImage image = a->sc.images[index];
   vk_sample_image_barrier(cmd, image, 0, 1, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, 0,
                           VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, a->pipeline.pipeline);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, a->pipeline.layout, 0, 1,
                           &a->sc.sets[index], 0, NULL);
   struct {
      float time;
      uint32_t frame;
   } push = {(float)frame / 60.0f, frame};
   vkCmdPushConstants(cmd, a->pipeline.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
   vkCmdDispatch(cmd, (a->sc.extent.width + 7) / 8, (a->sc.extent.height + 7) / 8, 1);
   vk_sample_image_barrier(cmd, image, 0, 1, VK_IMAGE_LAYOUT_GENERAL,
                           VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, VK_ACCESS_SHADER_WRITE_BIT, 0,
                           VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
   VK_SAMPLE_CHECK(TAG, vkEndCommandBuffer(cmd));
   VkPipelineStageFlags stage = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
   VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                      .waitSemaphoreCount = 1,
                      .pWaitSemaphores = &a->acquired[f],
                      .pWaitDstStageMask = &stage,
                      .commandBufferCount = 1,
                      .pCommandBuffers = &cmd,
                      .signalSemaphoreCount = 1,
                      .pSignalSemaphores = &a->sc.rendered[index]};
   VK_SAMPLE_CHECK(TAG, vkQueueSubmit(a->queue, 1, &si, a->done[f]));
   VkPresentInfoKHR pi = {.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR,
                          .waitSemaphoreCount = 1,
                          .pWaitSemaphores = &a->sc.rendered[index],
                          .swapchainCount = 1,
                          .pSwapchains = &a->sc.handle,
                          .pImageIndices = &index};
   r = vkQueuePresentKHR(a->queue, &pi);
   if (r != VK_SUCCESS && r != VK_SUBOPTIMAL_KHR && r != VK_ERROR_OUT_OF_DATE_KHR)
      fprintf(stderr, TAG ": vkQueuePresentKHR -> %s\n", vk_sample_result_string(r));
   return r;
}

static VkResult run(struct app *a)
{
   VK_SAMPLE_CHECK(TAG, create_instance(a));
   if (!pc_window_open(&a->window, a->opt.surface, a->opt.width, a->opt.height))
      return VK_ERROR_INITIALIZATION_FAILED;
   VK_SAMPLE_CHECK(TAG, pc_window_surface(&a->window, a->instance, &a->surface));
   VK_SAMPLE_CHECK(TAG, create_device(a));
   VK_SAMPLE_CHECK(TAG, create_swapchain(a));
   double start = now_seconds();
   for (uint32_t frame = 0; frame < a->opt.frames;) {
      VkResult r = draw_frame(a, frame);
      if (r == VK_ERROR_OUT_OF_DATE_KHR || r == VK_SUBOPTIMAL_KHR) {
         VK_SAMPLE_CHECK(TAG, vkDeviceWaitIdle(a->device));
         VK_SAMPLE_CHECK(TAG, create_swapchain(a));
         a->recreations++;
         if (r == VK_ERROR_OUT_OF_DATE_KHR)
            continue; /* the frame was not shown */
      } else if (r != VK_SUCCESS) {
         return r;
      }
      frame++;
   }
   VK_SAMPLE_CHECK(TAG, vkDeviceWaitIdle(a->device));
   double seconds = now_seconds() - start;
   static const char *const surface_names[] = {"headless", "xcb", "xlib"};
   const char *mode = a->opt.mode == VK_PRESENT_MODE_FIFO_KHR      ? "fifo"
                      : a->opt.mode == VK_PRESENT_MODE_MAILBOX_KHR ? "mailbox"
                                                                   : "immediate";
   printf(TAG ": %u frames of %ux%u (%s, %s) in %.3f s: %.1f frames/s, %.2f ms a frame; "
              "%u swapchain recreations\n",
          a->opt.frames, a->sc.extent.width, a->sc.extent.height, surface_names[a->opt.surface],
          mode, seconds, a->opt.frames / seconds, 1000.0 * seconds / a->opt.frames, a->recreations);
   return VK_SUCCESS;
}

static void destroy(struct app *a)
{
   if (a->device) {
      vkDeviceWaitIdle(a->device);
      destroy_swapchain_views(a, &a->sc);
      vkDestroySwapchainKHR(a->device, a->sc.handle, NULL);
      for (int i = 0; i < FRAMES_IN_FLIGHT; i++) {
         vkDestroySemaphore(a->device, a->acquired[i], NULL);
         vkDestroyFence(a->device, a->done[i], NULL);
      }
      vkDestroyDescriptorPool(a->device, a->set_pool, NULL);
      vk_sample_compute_pipeline_destroy(a->device, &a->pipeline);
      vkDestroyCommandPool(a->device, a->pool, NULL);
      vkDestroyDevice(a->device, NULL);
   }
   if (a->surface)
      vkDestroySurfaceKHR(a->instance, a->surface, NULL);
   pc_window_close(&a->window);
   if (a->messenger)
      vkDestroyDebugUtilsMessengerEXT(a->instance, a->messenger, NULL);
   if (a->instance)
      vkDestroyInstance(a->instance, NULL);
}

static void usage(void)
{
   fprintf(stderr, "usage: " TAG " [--surface headless|xcb|xlib] [--frames N] [--width N] "
                   "[--height N] [--mode fifo|mailbox|immediate] [--validate]\n");
}

static bool parse(int argc, char **argv, struct options *o)
{
   *o = (struct options){PC_SURFACE_HEADLESS, 120, 512, 512, VK_PRESENT_MODE_FIFO_KHR, false};
   for (int i = 1; i < argc; i++) {
      const char *arg = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
      bool ok = true;
      if (strcmp(arg, "--validate") == 0) {
         o->validate = true;
         continue;
      }
      if (!value) {
         usage();
         return false;
      }
      i++;
      if (strcmp(arg, "--surface") == 0)
         ok = pc_surface_kind_parse(value, &o->surface);
      else if (strcmp(arg, "--frames") == 0)
         ok = vk_sample_parse_u32(value, 1, 1000000, &o->frames);
      else if (strcmp(arg, "--width") == 0)
         ok = vk_sample_parse_u32(value, 1, 8192, &o->width);
      else if (strcmp(arg, "--height") == 0)
         ok = vk_sample_parse_u32(value, 1, 8192, &o->height);
      else if (strcmp(arg, "--mode") == 0 && strcmp(value, "fifo") == 0)
         o->mode = VK_PRESENT_MODE_FIFO_KHR;
      else if (strcmp(arg, "--mode") == 0 && strcmp(value, "mailbox") == 0)
         o->mode = VK_PRESENT_MODE_MAILBOX_KHR;
      else if (strcmp(arg, "--mode") == 0 && strcmp(value, "immediate") == 0)
         o->mode = VK_PRESENT_MODE_IMMEDIATE_KHR;
      else
         ok = false;
      if (!ok) {
         fprintf(stderr, TAG ": bad option %s %s\n", arg, value);
         usage();
         return false;
      }
   }
   return true;
}

int main(int argc, char **argv)
{
   struct app a = {0};
   if (!parse(argc, argv, &a.opt))
      return 2;
   VkResult r = run(&a);
   destroy(&a);
   if (a.errors) {
      fprintf(stderr, TAG ": %u validation errors\n", a.errors);
      return 1;
   }
   return r == VK_SUCCESS ? 0 : 1;
}
