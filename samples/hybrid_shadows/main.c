/* hybrid_shadows: a rasterized scene with ray-traced shadows, presented.
 * The mesh (the shared scenes, any OBJ, or the built-in procedural scene)
 * is drawn with a graphics pipeline into the swapchain image; its fragment
 * shader traces one shadow ray query per fragment towards a point light
 * that circles as the frames go by (rq_shadows's light), through the
 * acceleration structures rq_ambient_occlusion's accel.c builds from the
 * same vertex and index buffers the draw uses. Presents headless or into
 * an X11 window (present_compute's window.c); --output writes the last
 * frame as a PNG; prints the frame rate. See README.md.
 *
 * Exit status: 0 done, 1 failure, 2 bad command line, 77 cannot run here
 * (no device with ray queries, graphics and presentation, or the scenes
 * folder is missing). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "accel.h"
#include "camera_basis.h"
#include "png_write.h"
#include "raster_pass.h"
#include "shadow_options.h"
#include "window.h"

#define EXIT_SKIP 77
#define FRAMES_IN_FLIGHT 2
#define MAX_IMAGES 16
#define WAIT_NS (10ull * 60 * 1000 * 1000 * 1000) /* a software GPU may be slow */
/* Shadow rays start this fraction of the scene diagonal off the surface
 * (rq_shadows's offset: a shadow ray may leave at a grazing angle). */
#define SHADOW_ORIGIN_OFFSET 1e-4f

struct present_options {
   enum pc_surface_kind surface;
   VkPresentModeKHR mode;
   const char *output; /* PNG of the last frame, or NULL */
};

struct swapchain {
   VkSwapchainKHR handle;
   VkFormat format;
   VkExtent2D extent;
   uint32_t count;
   VkImage images[MAX_IMAGES];
   VkImageView views[MAX_IMAGES];
   VkFramebuffer framebuffers[MAX_IMAGES];
   VkSemaphore rendered[MAX_IMAGES];
   VkImage depth;
   VkDeviceMemory depth_memory;
   VkImageView depth_view;
};

struct app {
   struct shadow_options opt;
   struct present_options present;
   struct obj_mesh mesh;
   struct pc_window window;
   struct rq_context ctx;
   struct rq_scene scene;
   bool scene_built;
   struct raster_pass pass;
   struct swapchain sc;
   VkCommandPool pool;
   VkCommandBuffer cmd[FRAMES_IN_FLIGHT];
   VkSemaphore acquired[FRAMES_IN_FLIGHT];
   VkFence done[FRAMES_IN_FLIGHT];
   struct rq_buffer readback; /* the last frame, with --output */
   uint32_t recreations;
};

static double now_seconds(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static VkResult make_surface(void *user, VkInstance instance, VkSurfaceKHR *surface)
{
   struct app *a = user;
   if (!pc_window_open(&a->window, a->present.surface, a->opt.width, a->opt.height))
      return VK_ERROR_INITIALIZATION_FAILED;
   return pc_window_surface(&a->window, instance, surface);
}

static void destroy_swapchain_targets(struct app *a)
{
   struct swapchain *sc = &a->sc;
   VkDevice dev = a->ctx.device;
   for (uint32_t i = 0; i < sc->count; i++) {
      vkDestroyFramebuffer(dev, sc->framebuffers[i], NULL);
      vkDestroyImageView(dev, sc->views[i], NULL);
      vkDestroySemaphore(dev, sc->rendered[i], NULL);
   }
   vkDestroyImageView(dev, sc->depth_view, NULL);
   vkDestroyImage(dev, sc->depth, NULL);
   vkFreeMemory(dev, sc->depth_memory, NULL);
   memset(sc->framebuffers, 0, sizeof(sc->framebuffers));
   memset(sc->views, 0, sizeof(sc->views));
   memset(sc->rendered, 0, sizeof(sc->rendered));
   sc->depth_view = VK_NULL_HANDLE;
   sc->depth = VK_NULL_HANDLE;
   sc->depth_memory = VK_NULL_HANDLE;
}

static VkResult create_depth(struct app *a)
{
   struct swapchain *sc = &a->sc;
   VkDevice dev = a->ctx.device;
   VkImageCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                            .imageType = VK_IMAGE_TYPE_2D,
                            .format = a->pass.depth_format,
                            .extent = {sc->extent.width, sc->extent.height, 1},
                            .mipLevels = 1,
                            .arrayLayers = 1,
                            .samples = VK_SAMPLE_COUNT_1_BIT,
                            .tiling = VK_IMAGE_TILING_OPTIMAL,
                            .usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT};
   CHECK_VK(vkCreateImage(dev, &ici, NULL, &sc->depth));
   VkMemoryRequirements req;
   vkGetImageMemoryRequirements(dev, sc->depth, &req);
   uint32_t type = vk_sample_memory_type(&a->ctx.memory, req.memoryTypeBits,
                                         VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
   if (type == UINT32_MAX)
      type = vk_sample_memory_type(&a->ctx.memory, req.memoryTypeBits, 0);
   VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = req.size,
                               .memoryTypeIndex = type};
   CHECK_VK(vkAllocateMemory(dev, &mai, NULL, &sc->depth_memory));
   CHECK_VK(vkBindImageMemory(dev, sc->depth, sc->depth_memory, 0));
   VkImageViewCreateInfo vci = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                .image = sc->depth,
                                .viewType = VK_IMAGE_VIEW_TYPE_2D,
                                .format = a->pass.depth_format,
                                .subresourceRange = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1}};
   CHECK_VK(vkCreateImageView(dev, &vci, NULL, &sc->depth_view));
   return VK_SUCCESS;
}

/* The surface's first 8-bit UNORM RGBA or BGRA format (the fragment
 * shader encodes for display itself). */
static VkFormat choose_format(struct app *a)
{
   VkSurfaceFormatKHR formats[32];
   uint32_t n = 32;
   if (vkGetPhysicalDeviceSurfaceFormatsKHR(a->ctx.physical_device, a->ctx.surface, &n, formats) <
       0)
      return VK_FORMAT_UNDEFINED;
   for (uint32_t i = 0; i < n; i++) {
      if (formats[i].format == VK_FORMAT_B8G8R8A8_UNORM ||
          formats[i].format == VK_FORMAT_R8G8B8A8_UNORM)
         return formats[i].format;
   }
   return VK_FORMAT_UNDEFINED;
}

/* A swapchain for the surface's current size (or the asked one), with a
 * view, a framebuffer and a semaphore per image and one depth buffer. */
static VkResult create_swapchain(struct app *a)
{
   struct swapchain *sc = &a->sc;
   VkDevice dev = a->ctx.device;
   VkSurfaceCapabilitiesKHR caps;
   CHECK_VK(
       vkGetPhysicalDeviceSurfaceCapabilitiesKHR(a->ctx.physical_device, a->ctx.surface, &caps));
   VkImageUsageFlags usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
   if (a->present.output)
      usage |= VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
   if ((caps.supportedUsageFlags & usage) != usage) {
      fprintf(stderr, RQ_TAG ": swapchain images cannot be colour attachments%s here\n",
              a->present.output ? " and copy sources" : "");
      return VK_ERROR_FEATURE_NOT_PRESENT;
   }
   VkExtent2D extent = caps.currentExtent;
   if (extent.width == UINT32_MAX)
      extent = (VkExtent2D){a->opt.width, a->opt.height};
   uint32_t count = caps.minImageCount + 1;
   if (caps.maxImageCount && count > caps.maxImageCount)
      count = caps.maxImageCount;
   VkSwapchainKHR old = sc->handle;
   destroy_swapchain_targets(a);
   VkSwapchainCreateInfoKHR ci = {
       .sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR,
       .surface = a->ctx.surface,
       .minImageCount = count,
       .imageFormat = sc->format,
       .imageColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR,
       .imageExtent = extent,
       .imageArrayLayers = 1,
       .imageUsage = usage,
       .imageSharingMode = VK_SHARING_MODE_EXCLUSIVE,
       .preTransform = caps.currentTransform,
       .compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR,
       .presentMode = a->present.mode,
       .clipped = VK_TRUE,
       .oldSwapchain = old,
   };
   VkResult r = vkCreateSwapchainKHR(dev, &ci, NULL, &sc->handle);
   if (old)
      vkDestroySwapchainKHR(dev, old, NULL);
   if (r != VK_SUCCESS) {
      sc->handle = VK_NULL_HANDLE;
      fprintf(stderr, RQ_TAG ": vkCreateSwapchainKHR -> %s\n", vk_sample_result_string(r));
      return r;
   }
   sc->extent = extent;
   sc->count = MAX_IMAGES;
   CHECK_VK(vkGetSwapchainImagesKHR(dev, sc->handle, &sc->count, sc->images));
   CHECK_VK(create_depth(a));
   VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
   for (uint32_t i = 0; i < sc->count; i++) {
      VkImageViewCreateInfo vci = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                   .image = sc->images[i],
                                   .viewType = VK_IMAGE_VIEW_TYPE_2D,
                                   .format = sc->format,
                                   .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
      CHECK_VK(vkCreateImageView(dev, &vci, NULL, &sc->views[i]));
      VkImageView attachments[2] = {sc->views[i], sc->depth_view};
      VkFramebufferCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
                                     .renderPass = a->pass.render_pass,
                                     .attachmentCount = 2,
                                     .pAttachments = attachments,
                                     .width = extent.width,
                                     .height = extent.height,
                                     .layers = 1};
      CHECK_VK(vkCreateFramebuffer(dev, &fci, NULL, &sc->framebuffers[i]));
      CHECK_VK(vkCreateSemaphore(dev, &sci, NULL, &sc->rendered[i]));
   }
   return VK_SUCCESS;
}

/* The camera, the light of frame `frame` and the depth range. */
static bool push_constants(const struct app *a, uint32_t frame, struct hybrid_push_constants *pc)
{
   const struct shadow_options *o = &a->opt;
   memset(pc, 0, sizeof(*pc));
   if (!camera_basis(o->choice.eye, o->choice.look_at, o->choice.fov_degrees, pc->forward,
                     pc->right, pc->up))
      return false;
   /* Vertical fov as the scenes give it; wider images see more sideways. */
   float aspect = (float)a->sc.extent.width / (float)a->sc.extent.height;
   for (int i = 0; i < 3; i++)
      pc->right[i] *= aspect;
   memcpy(pc->eye, o->choice.eye, sizeof(pc->eye));
   float diagonal = obj_mesh_diagonal(&a->mesh), far_plane = 0;
   for (int i = 0; i < 3; i++) {
      float c = 0.5f * (a->mesh.bounds_min[i] + a->mesh.bounds_max[i]) - pc->eye[i];
      far_plane += c * c;
   }
   pc->far_plane = sqrtf(far_plane) + diagonal;
   pc->near_plane = 1e-3f * diagonal;
   pc->origin_offset = SHADOW_ORIGIN_OFFSET * diagonal;
   shadow_light_position(o, &a->mesh, frame, pc->light);
   pc->ambient = o->ambient;
   return true;
}

/* After the render pass of the last frame: its image into the readback
 * buffer, and back to PRESENT_SRC for the present. */
static void record_readback(struct app *a, VkCommandBuffer cmd, VkImage image)
{
   VkImageMemoryBarrier b = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                             .srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                             .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT,
                             .oldLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
                             .newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                             .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                             .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                             .image = image,
                             .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                        VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0, NULL, 1, &b);
   VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                               .imageExtent = {a->sc.extent.width, a->sc.extent.height, 1}};
   vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, a->readback.buffer, 1,
                          &region);
   b.srcAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
   b.dstAccessMask = 0;
   b.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
   b.newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
   VkBufferMemoryBarrier host = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
                                 .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                                 .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
                                 .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                 .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                 .buffer = a->readback.buffer,
                                 .size = VK_WHOLE_SIZE};
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                        VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT | VK_PIPELINE_STAGE_HOST_BIT, 0, 0,
                        NULL, 1, &host, 1, &b);
}

static VkResult record_frame(struct app *a, VkCommandBuffer cmd, uint32_t index,
                             const struct hybrid_push_constants *pc, bool readback)
{
   VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                  .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
   CHECK_VK(vkBeginCommandBuffer(cmd, &bi));
   VkClearValue clear[2] = {{.color = {{0.05f, 0.06f, 0.09f, 1.0f}}}, {.depthStencil = {1.0f, 0}}};
   VkRenderPassBeginInfo rpbi = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
                                 .renderPass = a->pass.render_pass,
                                 .framebuffer = a->sc.framebuffers[index],
                                 .renderArea = {{0, 0}, a->sc.extent},
                                 .clearValueCount = 2,
                                 .pClearValues = clear};
   vkCmdBeginRenderPass(cmd, &rpbi, VK_SUBPASS_CONTENTS_INLINE);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, a->pass.pipeline);
   VkViewport viewport = {0, 0, (float)a->sc.extent.width, (float)a->sc.extent.height, 0, 1};
   VkRect2D scissor = {{0, 0}, a->sc.extent};
   vkCmdSetViewport(cmd, 0, 1, &viewport);
   vkCmdSetScissor(cmd, 0, 1, &scissor);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, a->pass.layout, 0, 1, &a->pass.set,
                           0, NULL);
   vkCmdPushConstants(cmd, a->pass.layout,
                      VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(*pc),
                      pc);
   VkDeviceSize offset = 0;
   vkCmdBindVertexBuffers(cmd, 0, 1, &a->scene.positions.buffer, &offset);
   vkCmdBindIndexBuffer(cmd, a->scene.indices.buffer, 0, VK_INDEX_TYPE_UINT32);
   vkCmdDrawIndexed(cmd, 3 * a->mesh.triangle_count, 1, 0, 0, 0);
   vkCmdEndRenderPass(cmd);
   if (readback)
      record_readback(a, cmd, a->sc.images[index]);
   CHECK_VK(vkEndCommandBuffer(cmd));
   return VK_SUCCESS;
}

/* One frame; VK_ERROR_OUT_OF_DATE_KHR / VK_SUBOPTIMAL_KHR ask for a new
 * swapchain. */
static VkResult draw_frame(struct app *a, uint32_t frame, bool last)
{
   uint32_t f = frame % FRAMES_IN_FLIGHT;
   VkDevice dev = a->ctx.device;
   CHECK_VK(vkWaitForFences(dev, 1, &a->done[f], VK_TRUE, WAIT_NS));
   uint32_t index;
   VkResult r =
       vkAcquireNextImageKHR(dev, a->sc.handle, WAIT_NS, a->acquired[f], VK_NULL_HANDLE, &index);
   if (r == VK_ERROR_OUT_OF_DATE_KHR)
      return r;
   if (r != VK_SUCCESS && r != VK_SUBOPTIMAL_KHR) {
      fprintf(stderr, RQ_TAG ": vkAcquireNextImageKHR -> %s\n", vk_sample_result_string(r));
      return r;
   }
   struct hybrid_push_constants pc;
   if (!push_constants(a, a->opt.frame + frame, &pc)) {
      fprintf(stderr, RQ_TAG ": degenerate camera (eye = look-at, or looking along +-Y)\n");
      return VK_ERROR_INITIALIZATION_FAILED;
   }
   CHECK_VK(vkResetFences(dev, 1, &a->done[f]));
   CHECK_VK(record_frame(a, a->cmd[f], index, &pc, last && a->present.output));
   VkPipelineStageFlags stage = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
   VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                      .waitSemaphoreCount = 1,
                      .pWaitSemaphores = &a->acquired[f],
                      .pWaitDstStageMask = &stage,
                      .commandBufferCount = 1,
                      .pCommandBuffers = &a->cmd[f],
                      .signalSemaphoreCount = 1,
                      .pSignalSemaphores = &a->sc.rendered[index]};
   CHECK_VK(vkQueueSubmit(a->ctx.queue, 1, &si, a->done[f]));
   VkPresentInfoKHR pi = {.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR,
                          .waitSemaphoreCount = 1,
                          .pWaitSemaphores = &a->sc.rendered[index],
                          .swapchainCount = 1,
                          .pSwapchains = &a->sc.handle,
                          .pImageIndices = &index};
   r = vkQueuePresentKHR(a->ctx.queue, &pi);
   if (r != VK_SUCCESS && r != VK_SUBOPTIMAL_KHR && r != VK_ERROR_OUT_OF_DATE_KHR)
      fprintf(stderr, RQ_TAG ": vkQueuePresentKHR -> %s\n", vk_sample_result_string(r));
   return r;
}

static VkResult create_frame_objects(struct app *a)
{
   VkDevice dev = a->ctx.device;
   VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                  .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                  .queueFamilyIndex = a->ctx.family};
   CHECK_VK(vkCreateCommandPool(dev, &pci, NULL, &a->pool));
   VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                      .commandPool = a->pool,
                                      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                      .commandBufferCount = FRAMES_IN_FLIGHT};
   CHECK_VK(vkAllocateCommandBuffers(dev, &cai, a->cmd));
   VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
   VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO,
                            .flags = VK_FENCE_CREATE_SIGNALED_BIT};
   for (int i = 0; i < FRAMES_IN_FLIGHT; i++) {
      CHECK_VK(vkCreateSemaphore(dev, &sci, NULL, &a->acquired[i]));
      CHECK_VK(vkCreateFence(dev, &fci, NULL, &a->done[i]));
   }
   return VK_SUCCESS;
}

/* The readback buffer as an RGBA PNG. */
static bool write_output(struct app *a)
{
   uint32_t w = a->sc.extent.width, h = a->sc.extent.height;
   uint8_t *rgba = malloc((size_t)w * h * 4);
   if (!rgba)
      return false;
   memcpy(rgba, a->readback.map, (size_t)w * h * 4);
   if (a->sc.format == VK_FORMAT_B8G8R8A8_UNORM) {
      for (size_t i = 0; i < (size_t)w * h; i++) {
         uint8_t b = rgba[4 * i];
         rgba[4 * i] = rgba[4 * i + 2];
         rgba[4 * i + 2] = b;
      }
   }
   bool ok = png_rgba_write(a->present.output, rgba, w, h);
   free(rgba);
   if (ok)
      printf(RQ_TAG ": wrote %s\n", a->present.output);
   return ok;
}

static VkResult run(struct app *a)
{
   CHECK_VK(rq_scene_build(&a->ctx, &a->mesh, RQ_BUILD_DEVICE, false, &a->scene));
   a->scene_built = true;
   a->sc.format = choose_format(a);
   VkFormat depth = raster_pass_depth_format(a->ctx.physical_device);
   if (a->sc.format == VK_FORMAT_UNDEFINED || depth == VK_FORMAT_UNDEFINED) {
      fprintf(stderr, RQ_TAG ": no 8-bit UNORM surface format or no depth attachment format\n");
      return VK_ERROR_FORMAT_NOT_SUPPORTED;
   }
   CHECK_VK(raster_pass_create(&a->ctx, a->sc.format, depth, a->scene.tlas.handle, &a->pass));
   CHECK_VK(create_frame_objects(a));
   CHECK_VK(create_swapchain(a));
   if (a->present.output)
      CHECK_VK(rq_buffer_create(&a->ctx, (VkDeviceSize)a->sc.extent.width * a->sc.extent.height * 4,
                                VK_BUFFER_USAGE_TRANSFER_DST_BIT, true, &a->readback));
   printf(RQ_TAG ": %s: %s, %u triangles, %ux%u\n", a->ctx.properties.deviceName,
          a->opt.choice.scene ? a->opt.choice.scene->name : a->opt.choice.mesh_path,
          a->mesh.triangle_count, a->sc.extent.width, a->sc.extent.height);
   VkExtent2D first_extent = a->sc.extent;
   double start = now_seconds();
   for (uint32_t frame = 0; frame < a->opt.frames;) {
      VkResult r = draw_frame(a, frame, frame + 1 == a->opt.frames);
      if (r == VK_ERROR_OUT_OF_DATE_KHR || r == VK_SUBOPTIMAL_KHR) {
         CHECK_VK(vkDeviceWaitIdle(a->ctx.device));
         CHECK_VK(create_swapchain(a));
         a->recreations++;
         if (a->present.output && (a->sc.extent.width != first_extent.width ||
                                   a->sc.extent.height != first_extent.height)) {
            fprintf(stderr, RQ_TAG ": the window changed size: no --output\n");
            return VK_ERROR_OUT_OF_DATE_KHR;
         }
         if (r == VK_ERROR_OUT_OF_DATE_KHR)
            continue; /* the frame was not shown */
      } else if (r != VK_SUCCESS) {
         return r;
      }
      frame++;
   }
   CHECK_VK(vkDeviceWaitIdle(a->ctx.device));
   double seconds = now_seconds() - start;
   printf(RQ_TAG ": %u frames of %ux%u in %.3f s: %.2f frames/s, %.1f ms a frame; %u swapchain "
                 "recreations\n",
          a->opt.frames, a->sc.extent.width, a->sc.extent.height, seconds, a->opt.frames / seconds,
          1000.0 * seconds / a->opt.frames, a->recreations);
   if (a->present.output && !write_output(a))
      return VK_ERROR_UNKNOWN;
   return VK_SUCCESS;
}

static void destroy(struct app *a)
{
   VkDevice dev = a->ctx.device;
   if (dev) {
      vkDeviceWaitIdle(dev);
      destroy_swapchain_targets(a);
      vkDestroySwapchainKHR(dev, a->sc.handle, NULL);
      for (int i = 0; i < FRAMES_IN_FLIGHT; i++) {
         vkDestroySemaphore(dev, a->acquired[i], NULL);
         vkDestroyFence(dev, a->done[i], NULL);
      }
      vkDestroyCommandPool(dev, a->pool, NULL);
      if (a->readback.buffer)
         rq_buffer_destroy(&a->ctx, &a->readback);
      if (a->pass.render_pass)
         raster_pass_destroy(&a->ctx, &a->pass);
      if (a->scene_built)
         rq_scene_destroy(&a->ctx, &a->scene);
   }
}

/* Takes this sample's own options out of argv (the rest are rq_shadows's,
 * shadow_options.h); false after saying what is wrong. */
static bool take_present_options(int *argc, char **argv, struct present_options *p)
{
   *p = (struct present_options){PC_SURFACE_HEADLESS, VK_PRESENT_MODE_FIFO_KHR, NULL};
   int kept = 1;
   for (int i = 1; i < *argc; i++) {
      const char *arg = argv[i], *value = i + 1 < *argc ? argv[i + 1] : NULL;
      bool mine = !strcmp(arg, "--surface") || !strcmp(arg, "--mode") || !strcmp(arg, "--output");
      if (!mine) {
         argv[kept++] = argv[i];
         continue;
      }
      bool ok = value != NULL;
      if (ok && !strcmp(arg, "--surface"))
         ok = pc_surface_kind_parse(value, &p->surface);
      else if (ok && !strcmp(arg, "--output"))
         p->output = value;
      else if (ok && !strcmp(value, "fifo"))
         p->mode = VK_PRESENT_MODE_FIFO_KHR;
      else if (ok && !strcmp(value, "mailbox"))
         p->mode = VK_PRESENT_MODE_MAILBOX_KHR;
      else if (ok && !strcmp(value, "immediate"))
         p->mode = VK_PRESENT_MODE_IMMEDIATE_KHR;
      else
         ok = false;
      if (!ok) {
         fprintf(stderr,
                 RQ_TAG ": bad %s (--surface headless|xcb|xlib, --mode fifo|mailbox|immediate, "
                        "--output FILE.png); the other options are rq_shadows's\n",
                 arg);
         return false;
      }
      i++;
   }
   *argc = kept;
   return true;
}

int main(int argc, char **argv)
{
   static struct app a;
   if (!take_present_options(&argc, argv, &a.present))
      return 2;
   int status = shadow_options_parse(argc, argv, &a.opt);
   if (status)
      return status;
   if (!scene_choice_load(&a.opt.choice, RQ_TAG, &a.mesh))
      return 1;
   uint32_t ext_count;
   const char *const *exts = pc_window_instance_extensions(a.present.surface, &ext_count);
   struct rq_present_hooks hooks = {exts, ext_count, make_surface, &a};
   VkResult r = rq_context_init_present(&a.ctx, a.opt.validate, &hooks);
   if (r == VK_ERROR_EXTENSION_NOT_PRESENT) {
      printf(RQ_TAG ": SKIP: no Vulkan device with ray queries, graphics and presentation\n");
      status = EXIT_SKIP;
   } else {
      status = r == VK_SUCCESS && run(&a) == VK_SUCCESS ? 0 : 1;
   }
   destroy(&a);
   if (a.ctx.inst.error_messages) {
      fprintf(stderr, RQ_TAG ": %u validation error messages\n", a.ctx.inst.error_messages);
      status = 1;
   }
   rq_context_finish(&a.ctx);
   pc_window_close(&a.window);
   obj_mesh_free(&a.mesh);
   return status;
}
