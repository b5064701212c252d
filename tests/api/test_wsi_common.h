/* What the presentation tests (test_wsi_headless.c, test_wsi_x11.c) share:
 * an instance with the surface extensions, validation on and a messenger
 * that fails the case on the rule of vk_test_context.h (every ERROR, every
 * VALIDATION message), a device with VK_KHR_swapchain, and one frame:
 * acquire -> clear or copy -> present, with the semaphores and layout
 * transitions a valid program needs.
 *
 * A header of static functions, so that tests/api/CMakeLists.txt's
 * test_*.c glob does not make it a test of its own. */
#ifndef TEST_WSI_COMMON_H
#define TEST_WSI_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vk_sample.h"
#include "vk_test_context.h"

#define WSI_MAX_IMAGES 16
#define WSI_SECOND_NS 1000000000ull

static VKAPI_ATTR VkBool32 VKAPI_CALL wsi_debug_callback(
    VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
    const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
   (void)user;
   const char *text = data && data->pMessage ? data->pMessage : "(no message text)";
   if ((severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) ||
       (types & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT))
      test_fail(__FILE__, __LINE__, "debug messenger: %s", text);
   else
      fprintf(stderr, "  (not failing) %s\n", text);
   return VK_FALSE;
}

struct wsi_context {
   struct vkt_context ctx; /* instance, physical device, families */
   struct vkt_device dev;  /* with VK_KHR_swapchain */
   VkDebugUtilsMessengerEXT messenger;
   bool storage_without_format; /* shaderStorageImageWriteWithoutFormat enabled */
};

/* The instance (with `extensions` besides debug utils and
 * get_surface_capabilities2) and a device with VK_KHR_swapchain. */
static inline bool wsi_setup(struct wsi_context *w, const char *const *extensions, uint32_t count)
{
   memset(w, 0, sizeof(*w));
   if (volkInitialize() != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "no Vulkan loader");
      return false;
   }
   const char *names[8] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME, VK_KHR_SURFACE_EXTENSION_NAME,
                           VK_KHR_GET_SURFACE_CAPABILITIES_2_EXTENSION_NAME};
   uint32_t n = 3;
   for (uint32_t i = 0; i < count && n < 8; i++)
      names[n++] = extensions[i];
   const char *layers[] = {"VK_LAYER_KHRONOS_validation"};
   VkDebugUtilsMessengerCreateInfoEXT mci = {
       .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
       .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                          VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
       .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                      VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                      VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
       .pfnUserCallback = wsi_debug_callback,
   };
   VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                            .pApplicationName = "vkppu wsi tests",
                            .apiVersion = VK_API_VERSION_1_1};
   VkInstanceCreateInfo ici = {
       .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
       .pNext = &mci,
       .pApplicationInfo = &app,
       .enabledLayerCount = 1,
       .ppEnabledLayerNames = layers,
       .enabledExtensionCount = n,
       .ppEnabledExtensionNames = names,
   };
   VkResult r = vkCreateInstance(&ici, NULL, &w->ctx.instance);
   if (r != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "vkCreateInstance with the surface extensions -> %s",
                vkt_result_name(r));
      return false;
   }
   volkLoadInstance(w->ctx.instance);
   VKT_CHECK(vkCreateDebugUtilsMessengerEXT(w->ctx.instance, &mci, NULL, &w->messenger));
   VkPhysicalDevice pd;
   uint32_t pd_count = 1;
   r = vkEnumeratePhysicalDevices(w->ctx.instance, &pd_count, &pd);
   if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || pd_count == 0 ||
       !vkt_context_use_device(&w->ctx, pd)) {
      test_fail(__FILE__, __LINE__, "no physical device with a universal queue family");
      return false;
   }
   VkPhysicalDeviceFeatures supported;
   vkGetPhysicalDeviceFeatures(pd, &supported);
   VkPhysicalDeviceFeatures features = {0};
   features.shaderStorageImageWriteWithoutFormat = supported.shaderStorageImageWriteWithoutFormat;
   w->storage_without_format = supported.shaderStorageImageWriteWithoutFormat;
   const char *device_extensions[] = {VK_KHR_SWAPCHAIN_EXTENSION_NAME};
   struct vkt_device_desc desc = {
       .extensions = device_extensions,
       .extension_count = 1,
       .features = &features,
   };
   r = vkt_device_create(&w->ctx, &desc, &w->dev);
   if (r != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "vkCreateDevice with VK_KHR_swapchain -> %s",
                vkt_result_name(r));
      return false;
   }
   return true;
}

static inline void wsi_teardown(struct wsi_context *w)
{
   if (w->dev.device)
      vkt_device_destroy(&w->dev);
   if (w->messenger)
      vkDestroyDebugUtilsMessengerEXT(w->ctx.instance, w->messenger, NULL);
   if (w->ctx.instance)
      vkDestroyInstance(w->ctx.instance, NULL);
   memset(w, 0, sizeof(*w));
}

struct wsi_swapchain {
   VkSwapchainKHR swapchain;
   VkExtent2D extent;
   VkFormat format;
   uint32_t image_count;
   VkImage images[WSI_MAX_IMAGES];
};

static inline VkResult wsi_swapchain_create(struct wsi_context *w, VkSurfaceKHR surface,
                                            VkPresentModeKHR mode, VkExtent2D extent,
                                            VkImageUsageFlags usage, VkSwapchainKHR old,
                                            struct wsi_swapchain *out)
{
   VkSurfaceCapabilitiesKHR caps;
   VkResult r = vkGetPhysicalDeviceSurfaceCapabilitiesKHR(w->ctx.physical_device, surface, &caps);
   if (r != VK_SUCCESS)
      return r;
   if (caps.currentExtent.width != UINT32_MAX)
      extent = caps.currentExtent;
   VkBool32 supported = VK_FALSE;
   r = vkGetPhysicalDeviceSurfaceSupportKHR(w->ctx.physical_device, w->ctx.universal_family,
                                            surface, &supported);
   if (r != VK_SUCCESS || !supported)
      return r != VK_SUCCESS ? r : VK_ERROR_INITIALIZATION_FAILED;
   memset(out, 0, sizeof(*out));
   VkSwapchainCreateInfoKHR ci = {
       .sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR,
       .surface = surface,
       .minImageCount = caps.minImageCount,
       .imageFormat = VK_FORMAT_B8G8R8A8_UNORM,
       .imageColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR,
       .imageExtent = extent,
       .imageArrayLayers = 1,
       .imageUsage = usage,
       .imageSharingMode = VK_SHARING_MODE_EXCLUSIVE,
       .preTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR,
       .compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR,
       .presentMode = mode,
       .clipped = VK_TRUE,
       .oldSwapchain = old,
   };
   r = vkCreateSwapchainKHR(w->dev.device, &ci, NULL, &out->swapchain);
   if (r != VK_SUCCESS)
      return r;
   out->extent = extent;
   out->format = ci.imageFormat;
   out->image_count = WSI_MAX_IMAGES;
   r = vkGetSwapchainImagesKHR(w->dev.device, out->swapchain, &out->image_count, out->images);
   return r == VK_INCOMPLETE ? VK_ERROR_INITIALIZATION_FAILED : r;
}

/* Records what fills the image (in TRANSFER_DST_OPTIMAL, or GENERAL for
 * a compute fill); the caller's context. */
typedef void (*wsi_fill_fn)(VkCommandBuffer cmd, VkImage image, void *ctx);

/* Per-frame synchronization objects; destroyed after the device is idle. */
struct wsi_frame_sync {
   VkSemaphore acquired, rendered;
   VkFence done;
};

static inline void wsi_frame_sync_destroy(struct wsi_context *w, struct wsi_frame_sync *s)
{
   vkDestroySemaphore(w->dev.device, s->acquired, NULL);
   vkDestroySemaphore(w->dev.device, s->rendered, NULL);
   vkDestroyFence(w->dev.device, s->done, NULL);
   memset(s, 0, sizeof(*s));
}

/* After the frames: waits for the device, destroys the swapchain (which
 * shows what is still queued) and the frames' objects. */
static inline void wsi_frames_finish(struct wsi_context *w, VkSwapchainKHR swapchain,
                                     struct wsi_frame_sync *sync, uint32_t count)
{
   vkDeviceWaitIdle(w->dev.device);
   vkDestroySwapchainKHR(w->dev.device, swapchain, NULL);
   for (uint32_t k = 0; k < count; k++)
      wsi_frame_sync_destroy(w, &sync[k]);
}

/* One frame: acquire (semaphore), fill in `layout` (TRANSFER_DST_OPTIMAL
 * or GENERAL), move to PRESENT_SRC, submit, present (waiting on the
 * submission's semaphore). *index is the image; the present's result is
 * returned (the acquire's if that failed). The caller waits s->done
 * before destroying s. */
static inline VkResult wsi_frame(struct wsi_context *w, const struct wsi_swapchain *sc,
                                 VkImageLayout layout, wsi_fill_fn fill, void *fill_ctx,
                                 struct wsi_frame_sync *s, uint32_t *index)
{
   VkDevice device = w->dev.device;
   VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
   VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
   VKT_CHECK(vkCreateSemaphore(device, &sci, NULL, &s->acquired));
   VKT_CHECK(vkCreateSemaphore(device, &sci, NULL, &s->rendered));
   VKT_CHECK(vkCreateFence(device, &fci, NULL, &s->done));
   VkResult r = vkAcquireNextImageKHR(device, sc->swapchain, 10 * WSI_SECOND_NS, s->acquired,
                                      VK_NULL_HANDLE, index);
   if (r != VK_SUCCESS && r != VK_SUBOPTIMAL_KHR)
      return r;
   VkImage image = sc->images[*index];
   VkCommandBuffer cmd = vkt_cmd_begin(&w->dev, w->ctx.universal_family);
   VkPipelineStageFlags fill_stage = layout == VK_IMAGE_LAYOUT_GENERAL
                                         ? VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT
                                         : VK_PIPELINE_STAGE_TRANSFER_BIT;
   VkAccessFlags fill_access = layout == VK_IMAGE_LAYOUT_GENERAL ? VK_ACCESS_SHADER_WRITE_BIT
                                                                 : VK_ACCESS_TRANSFER_WRITE_BIT;
   vk_sample_image_barrier(cmd, image, 0, 1, VK_IMAGE_LAYOUT_UNDEFINED, layout, 0, fill_access,
                           fill_stage);
   fill(cmd, image, fill_ctx);
   vk_sample_image_barrier(cmd, image, 0, 1, layout, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, fill_access,
                           0, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
   VKT_CHECK(vkEndCommandBuffer(cmd));
   VkSubmitInfo si = {
       .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
       .waitSemaphoreCount = 1,
       .pWaitSemaphores = &s->acquired,
       .pWaitDstStageMask = &fill_stage,
       .commandBufferCount = 1,
       .pCommandBuffers = &cmd,
       .signalSemaphoreCount = 1,
       .pSignalSemaphores = &s->rendered,
   };
   VKT_CHECK(vkQueueSubmit(w->dev.queue, 1, &si, s->done));
   VkPresentInfoKHR pi = {
       .sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR,
       .waitSemaphoreCount = 1,
       .pWaitSemaphores = &s->rendered,
       .swapchainCount = 1,
       .pSwapchains = &sc->swapchain,
       .pImageIndices = index,
   };
   r = vkQueuePresentKHR(w->dev.queue, &pi);
   VKT_CHECK(vkWaitForFences(device, 1, &s->done, VK_TRUE, VKT_WAIT_TIMEOUT_NS));
   vkFreeCommandBuffers(device, w->dev.pools[w->ctx.universal_family], 1, &cmd);
   return r;
}

/* B8G8R8A8_UNORM clear colours that differ in every channel per frame. */
static inline void wsi_frame_color(uint32_t frame, uint8_t rgba[4])
{
   rgba[0] = (uint8_t)(40 + 50 * (frame % 4));
   rgba[1] = (uint8_t)(200 - 30 * (frame % 5));
   rgba[2] = (uint8_t)(17 * (frame + 1));
   rgba[3] = 255;
}

struct wsi_clear {
   uint8_t rgba[4];
};

static inline void wsi_fill_clear(VkCommandBuffer cmd, VkImage image, void *ctx)
{
   const struct wsi_clear *c = ctx;
   VkClearColorValue color = {
       .float32 = {c->rgba[0] / 255.0f, c->rgba[1] / 255.0f, c->rgba[2] / 255.0f, 1.0f}};
   VkImageSubresourceRange range = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
   vkCmdClearColorImage(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &color, 1, &range);
}

/* A pattern no two pixels of a 256-wide image share: (x, y, x ^ y). */
static inline void wsi_pattern_pixel(uint32_t x, uint32_t y, uint8_t rgba[4])
{
   rgba[0] = (uint8_t)x;
   rgba[1] = (uint8_t)y;
   rgba[2] = (uint8_t)((x * 7) ^ (y * 3));
   rgba[3] = 255;
}

struct wsi_copy {
   VkBuffer buffer; /* B8G8R8A8 texels of the pattern, extent.width a row */
   VkExtent2D extent;
};

static inline void wsi_fill_copy(VkCommandBuffer cmd, VkImage image, void *ctx)
{
   const struct wsi_copy *c = ctx;
   VkBufferImageCopy region = {
       .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
       .imageExtent = {c->extent.width, c->extent.height, 1},
   };
   vkCmdCopyBufferToImage(cmd, c->buffer, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
}

/* A host buffer holding the pattern as B8G8R8A8 texels. */
static inline bool wsi_pattern_buffer(struct wsi_context *w, VkExtent2D extent,
                                      struct vkt_buffer *buf)
{
   VkDeviceSize size = (VkDeviceSize)extent.width * extent.height * 4;
   if (vkt_buffer_create(&w->dev, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, VKT_MEMORY_HOST, buf) !=
       VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "pattern buffer");
      return false;
   }
   uint8_t *p = buf->map;
   for (uint32_t y = 0; y < extent.height; y++) {
      for (uint32_t x = 0; x < extent.width; x++, p += 4) {
         uint8_t rgba[4];
         wsi_pattern_pixel(x, y, rgba);
         p[0] = rgba[2];
         p[1] = rgba[1];
         p[2] = rgba[0];
         p[3] = rgba[3];
      }
   }
   return true;
}

#endif /* TEST_WSI_COMMON_H */
