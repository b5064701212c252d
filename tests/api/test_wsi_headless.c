/* Presentation to headless surfaces (VK_EXT_headless_surface,
 * VK_KHR_surface, VK_KHR_get_surface_capabilities2, VK_KHR_swapchain),
 * through the loader with validation on. On vkppu the presented frames
 * are read back from the PNG dump (VKPPU_PRESENT_PNG, docs/wsi.md) and
 * compared with what was drawn; on other drivers (lvp.wsi_headless) the
 * same programs must run clean and the API answers must hold. */
#include <dirent.h>
#include <png.h>
#include <unistd.h>

#include "test_wsi_common.h"

static void teardown_headless(struct wsi_context *w, VkSurfaceKHR surface)
{
   if (w->dev.device)
      vkDeviceWaitIdle(w->dev.device);
   if (surface)
      vkDestroySurfaceKHR(w->ctx.instance, surface, NULL);
   wsi_teardown(w);
}

/* The context and a headless surface; on failure, nothing is left. */
static bool setup_headless(struct wsi_context *w, VkSurfaceKHR *surface)
{
   const char *ext[] = {VK_EXT_HEADLESS_SURFACE_EXTENSION_NAME};
   *surface = VK_NULL_HANDLE;
   VkHeadlessSurfaceCreateInfoEXT ci = {.sType =
                                            VK_STRUCTURE_TYPE_HEADLESS_SURFACE_CREATE_INFO_EXT};
   VkResult r = VK_ERROR_INITIALIZATION_FAILED;
   if (wsi_setup(w, ext, 1)) {
      r = vkCreateHeadlessSurfaceEXT(w->ctx.instance, &ci, NULL, surface);
      if (r != VK_SUCCESS)
         test_fail(__FILE__, __LINE__, "vkCreateHeadlessSurfaceEXT -> %s", vkt_result_name(r));
   }
   if (r != VK_SUCCESS) {
      teardown_headless(w, VK_NULL_HANDLE);
      *surface = VK_NULL_HANDLE;
   }
   return r == VK_SUCCESS;
}

/* ---- the PNG dump ---- */

struct dump_dir {
   char path[64];
};

/* A fresh directory for VKPPU_PRESENT_PNG. */
static bool dump_dir_make(struct dump_dir *d)
{
   snprintf(d->path, sizeof(d->path), "/tmp/vkppu-wsi-test-XXXXXX");
   if (!mkdtemp(d->path)) {
      test_fail(__FILE__, __LINE__, "mkdtemp failed");
      return false;
   }
   return true;
}

static void dump_dir_remove(struct dump_dir *d)
{
   DIR *dir = opendir(d->path);
   if (dir) {
      struct dirent *e;
      while ((e = readdir(dir)) != NULL) {
         if (e->d_name[0] == '.')
            continue;
         char file[384];
         snprintf(file, sizeof(file), "%s/%s", d->path, e->d_name);
         unlink(file);
      }
      closedir(dir);
   }
   rmdir(d->path);
}

/* Frame `frame` of swapchain `swapchain_number` in the dump, as RGBA; NULL
 * when there is no such file. */
static uint8_t *read_dumped_frame(const struct dump_dir *d, uint32_t swapchain_number,
                                  uint32_t frame, VkExtent2D extent)
{
   char path[256];
   snprintf(path, sizeof(path), "%s/swapchain%u-frame%06u.png", d->path, swapchain_number, frame);
   png_image img = {.version = PNG_IMAGE_VERSION};
   if (!png_image_begin_read_from_file(&img, path))
      return NULL;
   img.format = PNG_FORMAT_RGBA;
   if (img.width != extent.width || img.height != extent.height) {
      test_fail(__FILE__, __LINE__, "%s is %ux%u, expected %ux%u", path, img.width, img.height,
                extent.width, extent.height);
      png_image_free(&img);
      return NULL;
   }
   uint8_t *rgba = malloc(PNG_IMAGE_SIZE(img));
   if (!rgba || !png_image_finish_read(&img, NULL, rgba, 0, NULL)) {
      test_fail(__FILE__, __LINE__, "%s: %s", path, img.message);
      free(rgba);
      return NULL;
   }
   return rgba;
}

/* The swapchain number the dump gives the next swapchain: the number of
 * files' distinct swapchain prefixes is not known, so each case makes its
 * own directory and finds the one number used in it. */
static bool dumped_swapchain_number(const struct dump_dir *d, uint32_t *number)
{
   DIR *dir = opendir(d->path);
   bool found = false;
   if (dir) {
      struct dirent *e;
      while ((e = readdir(dir)) != NULL) {
         unsigned n, f;
         if (sscanf(e->d_name, "swapchain%u-frame%u.png", &n, &f) == 2) {
            *number = n;
            found = true;
         }
      }
      closedir(dir);
   }
   return found;
}

static uint32_t count_mismatches(const uint8_t *rgba, VkExtent2D extent, const uint8_t *expected,
                                 bool pattern)
{
   uint32_t bad = 0;
   for (uint32_t y = 0; y < extent.height; y++) {
      for (uint32_t x = 0; x < extent.width; x++) {
         uint8_t want[4];
         if (pattern)
            wsi_pattern_pixel(x, y, want);
         else
            memcpy(want, expected, 4);
         const uint8_t *got = rgba + ((size_t)y * extent.width + x) * 4;
         if (memcmp(got, want, 4) != 0 && bad++ < 3)
            fprintf(stderr, "  pixel (%u,%u): %u %u %u %u, expected %u %u %u %u\n", x, y, got[0],
                    got[1], got[2], got[3], want[0], want[1], want[2], want[3]);
      }
   }
   return bad;
}

/* ---- cases ---- */

TEST_CASE(surface_queries_answer_consistently)
{
   struct wsi_context w;
   VkSurfaceKHR surface = VK_NULL_HANDLE;
   if (!setup_headless(&w, &surface))
      return;
   VkPhysicalDevice pd = w.ctx.physical_device;
   for (uint32_t f = 0; f < w.ctx.family_count; f++) {
      VkBool32 supported = VK_FALSE;
      VKT_CHECK(vkGetPhysicalDeviceSurfaceSupportKHR(pd, f, surface, &supported));
      if (f == w.ctx.universal_family)
         CHECK_MSG(supported, "the universal family cannot present to a headless surface");
   }

   VkSurfaceCapabilitiesKHR caps;
   VKT_CHECK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(pd, surface, &caps));
   CHECK(caps.minImageCount >= 1);
   CHECK(caps.maxImageCount == 0 || caps.maxImageCount >= caps.minImageCount);
   CHECK(caps.maxImageArrayLayers >= 1);
   CHECK(caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT);
   CHECK(caps.supportedTransforms & caps.currentTransform);
   CHECK(caps.supportedCompositeAlpha & VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR);
   CHECK(caps.minImageExtent.width <= caps.maxImageExtent.width);

   VkPhysicalDeviceSurfaceInfo2KHR info = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SURFACE_INFO_2_KHR,
       .surface = surface,
   };
   VkSurfaceCapabilities2KHR caps2 = {.sType = VK_STRUCTURE_TYPE_SURFACE_CAPABILITIES_2_KHR};
   VKT_CHECK(vkGetPhysicalDeviceSurfaceCapabilities2KHR(pd, &info, &caps2));
   CHECK_MSG(memcmp(&caps, &caps2.surfaceCapabilities, sizeof(caps)) == 0,
             "vkGetPhysicalDeviceSurfaceCapabilities2KHR differs from the 1 variant");

   uint32_t count = 0;
   VKT_CHECK(vkGetPhysicalDeviceSurfaceFormatsKHR(pd, surface, &count, NULL));
   REQUIRE(count >= 1 && count <= 64);
   VkSurfaceFormatKHR formats[64];
   VKT_CHECK(vkGetPhysicalDeviceSurfaceFormatsKHR(pd, surface, &count, formats));
   bool has_bgra = false;
   for (uint32_t i = 0; i < count; i++)
      has_bgra |= formats[i].format == VK_FORMAT_B8G8R8A8_UNORM &&
                  formats[i].colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
   CHECK_MSG(has_bgra, "B8G8R8A8_UNORM / SRGB_NONLINEAR is not offered");
   if (count > 1) {
      uint32_t short_count = count - 1;
      VKT_CHECK_RESULT(vkGetPhysicalDeviceSurfaceFormatsKHR(pd, surface, &short_count, formats),
                       VK_INCOMPLETE);
      CHECK_EQ_U64(short_count, count - 1);
   }
   uint32_t count2 = 0;
   VKT_CHECK(vkGetPhysicalDeviceSurfaceFormats2KHR(pd, &info, &count2, NULL));
   CHECK_EQ_U64(count2, count);
   VkSurfaceFormat2KHR formats2[64];
   for (uint32_t i = 0; i < 64; i++)
      formats2[i] = (VkSurfaceFormat2KHR){.sType = VK_STRUCTURE_TYPE_SURFACE_FORMAT_2_KHR};
   VKT_CHECK(vkGetPhysicalDeviceSurfaceFormats2KHR(pd, &info, &count2, formats2));
   for (uint32_t i = 0; i < count2 && i < count; i++)
      CHECK(formats2[i].surfaceFormat.format == formats[i].format &&
            formats2[i].surfaceFormat.colorSpace == formats[i].colorSpace);

   uint32_t mode_count = 0;
   VKT_CHECK(vkGetPhysicalDeviceSurfacePresentModesKHR(pd, surface, &mode_count, NULL));
   REQUIRE(mode_count >= 1 && mode_count <= 16);
   VkPresentModeKHR modes[16];
   VKT_CHECK(vkGetPhysicalDeviceSurfacePresentModesKHR(pd, surface, &mode_count, modes));
   bool has_fifo = false;
   for (uint32_t i = 0; i < mode_count; i++)
      has_fifo |= modes[i] == VK_PRESENT_MODE_FIFO_KHR;
   CHECK_MSG(has_fifo, "FIFO must be supported by every surface");
   if (w.ctx.is_vkppu)
      CHECK_EQ_U64(mode_count, 3); /* FIFO, MAILBOX, IMMEDIATE */
   teardown_headless(&w, surface);
}

static bool mode_supported(struct wsi_context *w, VkSurfaceKHR surface, VkPresentModeKHR mode)
{
   VkPresentModeKHR modes[16];
   uint32_t n = 16;
   if (vkGetPhysicalDeviceSurfacePresentModesKHR(w->ctx.physical_device, surface, &n, modes) < 0)
      return false;
   for (uint32_t i = 0; i < n; i++) {
      if (modes[i] == mode)
         return true;
   }
   return false;
}

static const char *mode_name(VkPresentModeKHR mode)
{
   return mode == VK_PRESENT_MODE_FIFO_KHR      ? "FIFO"
          : mode == VK_PRESENT_MODE_MAILBOX_KHR ? "MAILBOX"
                                                : "IMMEDIATE";
}

/* Presents `frames` frames cleared to wsi_frame_color(k) in `mode`; on
 * vkppu checks the dump: FIFO and IMMEDIATE show every frame in order,
 * MAILBOX an increasing subset that ends with the last frame. */
static void present_cleared_frames(VkPresentModeKHR mode)
{
   struct wsi_context w;
   VkSurfaceKHR surface = VK_NULL_HANDLE;
   struct dump_dir dump = {{0}};
   if (!setup_headless(&w, &surface) || !dump_dir_make(&dump)) {
      teardown_headless(&w, surface);
      return;
   }
   if (!mode_supported(&w, surface, mode)) {
      vkt_skip("%s is not offered", mode_name(mode));
      teardown_headless(&w, surface);
      dump_dir_remove(&dump);
      return;
   }
   setenv("VKPPU_PRESENT_PNG", dump.path, 1);
   struct wsi_swapchain sc;
   VkExtent2D extent = {40, 24};
   VkResult r = wsi_swapchain_create(&w, surface, mode, extent, VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                     VK_NULL_HANDLE, &sc);
   unsetenv("VKPPU_PRESENT_PNG");
   VKT_CHECK(r);
   const uint32_t frames = 6;
   struct wsi_frame_sync sync[6] = {0};
   for (uint32_t k = 0; k < frames && r == VK_SUCCESS; k++) {
      struct wsi_clear clear;
      wsi_frame_color(k, clear.rgba);
      uint32_t index;
      r = wsi_frame(&w, &sc, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, wsi_fill_clear, &clear, &sync[k],
                    &index);
      VKT_CHECK(r);
   }
   /* Destroying the swapchain shows what is still queued (docs/wsi.md). */
   wsi_frames_finish(&w, sc.swapchain, sync, frames);

   uint32_t number;
   if (w.ctx.is_vkppu && r == VK_SUCCESS) {
      REQUIRE(dumped_swapchain_number(&dump, &number));
      uint32_t shown = 0, next_color = 0, last_color = UINT32_MAX;
      for (uint32_t f = 0; f < frames; f++) {
         uint8_t *rgba = read_dumped_frame(&dump, number, f, sc.extent);
         if (!rgba)
            break;
         /* Which presented frame is this? */
         uint32_t color = UINT32_MAX;
         for (uint32_t k = next_color; k < frames && color == UINT32_MAX; k++) {
            uint8_t want[4];
            wsi_frame_color(k, want);
            if (count_mismatches(rgba, sc.extent, want, false) == 0)
               color = k;
         }
         free(rgba);
         CHECK_MSG(color != UINT32_MAX, "%s: dumped frame %u is none of the later presented frames",
                   mode_name(mode), f);
         if (color == UINT32_MAX)
            break;
         if (mode != VK_PRESENT_MODE_MAILBOX_KHR)
            CHECK_MSG(color == f, "%s: dumped frame %u shows presented frame %u", mode_name(mode),
                      f, color);
         next_color = color + 1;
         last_color = color;
         shown++;
      }
      if (mode == VK_PRESENT_MODE_MAILBOX_KHR)
         CHECK_MSG(shown >= 1 && last_color == frames - 1,
                   "MAILBOX: %u frames shown, the last shown was %u (expected the newest, %u)",
                   shown, last_color, frames - 1);
      else
         CHECK_MSG(shown == frames, "%s: %u of %u frames were dumped", mode_name(mode), shown,
                   frames);
      printf("  %s: %u of %u frames shown\n", mode_name(mode), shown, frames);
   }
   teardown_headless(&w, surface);
   dump_dir_remove(&dump);
}

TEST_CASE(fifo_shows_every_frame_in_order)
{
   present_cleared_frames(VK_PRESENT_MODE_FIFO_KHR);
}

TEST_CASE(immediate_shows_every_frame_in_order)
{
   present_cleared_frames(VK_PRESENT_MODE_IMMEDIATE_KHR);
}

TEST_CASE(mailbox_shows_the_newest_frame)
{
   present_cleared_frames(VK_PRESENT_MODE_MAILBOX_KHR);
}

/* A pattern copied into the image reaches the dump pixel for pixel, in
 * the tiling given by VKPPU_WSI_TILING (vkppu's block-linear path). */
static void present_pattern(const char *tiling)
{
   struct wsi_context w;
   VkSurfaceKHR surface = VK_NULL_HANDLE;
   struct dump_dir dump = {{0}};
   if (!setup_headless(&w, &surface) || !dump_dir_make(&dump)) {
      teardown_headless(&w, surface);
      return;
   }
   /* Not a multiple of the 64-byte GOB width or of a block's rows. */
   VkExtent2D extent = {83, 37};
   struct vkt_buffer buf = {0};
   if (!wsi_pattern_buffer(&w, extent, &buf)) {
      teardown_headless(&w, surface);
      dump_dir_remove(&dump);
      return;
   }
   setenv("VKPPU_PRESENT_PNG", dump.path, 1);
   if (tiling)
      setenv("VKPPU_WSI_TILING", tiling, 1);
   struct wsi_swapchain sc;
   VkResult r = wsi_swapchain_create(&w, surface, VK_PRESENT_MODE_FIFO_KHR, extent,
                                     VK_IMAGE_USAGE_TRANSFER_DST_BIT, VK_NULL_HANDLE, &sc);
   unsetenv("VKPPU_PRESENT_PNG");
   unsetenv("VKPPU_WSI_TILING");
   VKT_CHECK(r);
   struct wsi_frame_sync sync = {0};
   if (r == VK_SUCCESS) {
      struct wsi_copy copy = {buf.buffer, extent};
      uint32_t index;
      VKT_CHECK(wsi_frame(&w, &sc, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, wsi_fill_copy, &copy,
                          &sync, &index));
      vkDeviceWaitIdle(w.dev.device);
      vkDestroySwapchainKHR(w.dev.device, sc.swapchain, NULL);
   }
   wsi_frame_sync_destroy(&w, &sync);
   uint32_t number;
   if (w.ctx.is_vkppu && r == VK_SUCCESS && dumped_swapchain_number(&dump, &number)) {
      uint8_t *rgba = read_dumped_frame(&dump, number, 0, extent);
      CHECK_MSG(rgba != NULL, "frame 0 was not dumped");
      if (rgba)
         CHECK_EQ_U64(count_mismatches(rgba, extent, NULL, true), 0);
      free(rgba);
   } else if (w.ctx.is_vkppu) {
      CHECK_MSG(false, "nothing was dumped");
   }
   vkt_buffer_destroy(&w.dev, &buf);
   teardown_headless(&w, surface);
   dump_dir_remove(&dump);
}

TEST_CASE(linear_swapchain_images_reach_the_dump_unchanged)
{
   present_pattern(NULL);
}

TEST_CASE(block_linear_swapchain_images_reach_the_dump_unchanged)
{
   present_pattern("optimal");
}

/* ---- a compute shader writing the swapchain image ---- */

struct compute_fill {
   VkPipeline pipeline;
   VkPipelineLayout layout;
   VkDescriptorSet set;
   VkExtent2D extent;
   uint32_t blue;
};

static void fill_by_compute(VkCommandBuffer cmd, VkImage image, void *ctx)
{
   (void)image; /* the set's view shows it */
   const struct compute_fill *c = ctx;
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, c->pipeline);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, c->layout, 0, 1, &c->set, 0, NULL);
   vkCmdPushConstants(cmd, c->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &c->blue);
   vkCmdDispatch(cmd, (c->extent.width + 7) / 8, (c->extent.height + 7) / 8, 1);
}

TEST_CASE(compute_shader_writes_the_swapchain_image_through_a_storage_view)
{
   struct wsi_context w;
   VkSurfaceKHR surface = VK_NULL_HANDLE;
   struct dump_dir dump = {{0}};
   if (!setup_headless(&w, &surface) || !dump_dir_make(&dump)) {
      teardown_headless(&w, surface);
      return;
   }
   VkSurfaceCapabilitiesKHR caps;
   VKT_CHECK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(w.ctx.physical_device, surface, &caps));
   if (!(caps.supportedUsageFlags & VK_IMAGE_USAGE_STORAGE_BIT) || !w.storage_without_format) {
      vkt_skip("no STORAGE swapchain images or no shaderStorageImageWriteWithoutFormat");
      teardown_headless(&w, surface);
      dump_dir_remove(&dump);
      return;
   }
   if (w.ctx.is_vkppu)
      CHECK_MSG(w.storage_without_format, "vkppu reports STORAGE swapchain images");
   VkDevice device = w.dev.device;
   setenv("VKPPU_PRESENT_PNG", dump.path, 1);
   struct wsi_swapchain sc;
   VkExtent2D extent = {70, 45};
   VkResult r = wsi_swapchain_create(&w, surface, VK_PRESENT_MODE_FIFO_KHR, extent,
                                     VK_IMAGE_USAGE_STORAGE_BIT, VK_NULL_HANDLE, &sc);
   unsetenv("VKPPU_PRESENT_PNG");
   VKT_REQUIRE(r);

   static const VkDescriptorType type = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
   struct vk_sample_compute_pipeline p;
   r = vk_sample_compute_pipeline_create(device, "wsi", VKT_SHADER_DIR "/wsi_storage_pattern.spv",
                                         &type, 1, 4, &p);
   VKT_REQUIRE(r);
   VkImageView views[WSI_MAX_IMAGES] = {0};
   for (uint32_t i = 0; i < sc.image_count; i++) {
      VkImageViewCreateInfo vci = {
          .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
          .image = sc.images[i],
          .viewType = VK_IMAGE_VIEW_TYPE_2D,
          .format = sc.format,
          .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1},
      };
      VKT_CHECK(vkCreateImageView(device, &vci, NULL, &views[i]));
   }
   /* Each frame writes the acquired image's view into the one set; the
    * previous frame's fence was waited, so the set is not in use. */
   const uint32_t frames = 3;
   struct wsi_frame_sync sync[3] = {0};
   for (uint32_t k = 0; k < frames; k++) {
      uint32_t index;
      VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
      VkSemaphore probe;
      VKT_CHECK(vkCreateSemaphore(device, &sci, NULL, &probe));
      /* Find the image first, so the set can show it before recording. */
      VKT_REQUIRE(vkAcquireNextImageKHR(device, sc.swapchain, 10 * WSI_SECOND_NS, probe,
                                        VK_NULL_HANDLE, &index));
      VkDescriptorImageInfo ii = {.imageView = views[index],
                                  .imageLayout = VK_IMAGE_LAYOUT_GENERAL};
      VkWriteDescriptorSet wr = {
          .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
          .dstSet = p.set,
          .descriptorCount = 1,
          .descriptorType = type,
          .pImageInfo = &ii,
      };
      vkUpdateDescriptorSets(device, 1, &wr, 0, NULL);
      struct compute_fill fill = {p.pipeline, p.layout, p.set, sc.extent, 10 + 40 * k};
      /* wsi_frame acquires itself: give the image back by presenting it
       * through the same path is not possible, so record here. */
      VkCommandBuffer cmd = vkt_cmd_begin(&w.dev, w.ctx.universal_family);
      vk_sample_image_barrier(cmd, sc.images[index], 0, 1, VK_IMAGE_LAYOUT_UNDEFINED,
                              VK_IMAGE_LAYOUT_GENERAL, 0, VK_ACCESS_SHADER_WRITE_BIT,
                              VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
      fill_by_compute(cmd, sc.images[index], &fill);
      vk_sample_image_barrier(cmd, sc.images[index], 0, 1, VK_IMAGE_LAYOUT_GENERAL,
                              VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, VK_ACCESS_SHADER_WRITE_BIT, 0,
                              VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
      VKT_CHECK(vkEndCommandBuffer(cmd));
      VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
      VKT_CHECK(vkCreateSemaphore(device, &sci, NULL, &sync[k].rendered));
      VKT_CHECK(vkCreateFence(device, &fci, NULL, &sync[k].done));
      sync[k].acquired = probe;
      VkPipelineStageFlags stage = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
      VkSubmitInfo si = {
          .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
          .waitSemaphoreCount = 1,
          .pWaitSemaphores = &probe,
          .pWaitDstStageMask = &stage,
          .commandBufferCount = 1,
          .pCommandBuffers = &cmd,
          .signalSemaphoreCount = 1,
          .pSignalSemaphores = &sync[k].rendered,
      };
      VKT_CHECK(vkQueueSubmit(w.dev.queue, 1, &si, sync[k].done));
      VkPresentInfoKHR pi = {
          .sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR,
          .waitSemaphoreCount = 1,
          .pWaitSemaphores = &sync[k].rendered,
          .swapchainCount = 1,
          .pSwapchains = &sc.swapchain,
          .pImageIndices = &index,
      };
      VKT_CHECK(vkQueuePresentKHR(w.dev.queue, &pi));
      VKT_CHECK(vkWaitForFences(device, 1, &sync[k].done, VK_TRUE, VKT_WAIT_TIMEOUT_NS));
      vkFreeCommandBuffers(device, w.dev.pools[w.ctx.universal_family], 1, &cmd);
   }
   vkDeviceWaitIdle(device);
   for (uint32_t i = 0; i < sc.image_count; i++)
      vkDestroyImageView(device, views[i], NULL);
   wsi_frames_finish(&w, sc.swapchain, sync, frames);
   vk_sample_compute_pipeline_destroy(device, &p);

   uint32_t number;
   if (w.ctx.is_vkppu) {
      REQUIRE(dumped_swapchain_number(&dump, &number));
      for (uint32_t k = 0; k < frames; k++) {
         uint8_t *rgba = read_dumped_frame(&dump, number, k, sc.extent);
         CHECK_MSG(rgba != NULL, "frame %u was not dumped", k);
         if (!rgba)
            continue;
         uint32_t bad = 0;
         for (uint32_t y = 0; y < sc.extent.height; y++) {
            for (uint32_t x = 0; x < sc.extent.width; x++) {
               const uint8_t *px = rgba + ((size_t)y * sc.extent.width + x) * 4;
               uint8_t want[4] = {(uint8_t)x, (uint8_t)y, (uint8_t)(10 + 40 * k), 255};
               bad += memcmp(px, want, 4) != 0;
            }
         }
         CHECK_MSG(bad == 0, "frame %u: %u pixels differ from the shader's pattern", k, bad);
         free(rgba);
      }
   }
   teardown_headless(&w, surface);
   dump_dir_remove(&dump);
}

/* ---- acquire ---- */

TEST_CASE(acquire_reports_not_ready_and_timeout_when_every_image_is_acquired)
{
   struct wsi_context w;
   VkSurfaceKHR surface = VK_NULL_HANDLE;
   if (!setup_headless(&w, &surface))
      return;
   VkDevice device = w.dev.device;
   struct wsi_swapchain sc;
   VkResult r = wsi_swapchain_create(&w, surface, VK_PRESENT_MODE_FIFO_KHR, (VkExtent2D){16, 16},
                                     VK_IMAGE_USAGE_TRANSFER_DST_BIT, VK_NULL_HANDLE, &sc);
   VKT_REQUIRE(r);
   REQUIRE(sc.image_count >= 1 && sc.image_count <= WSI_MAX_IMAGES);

   /* Every image, each with a fence (the first also with a semaphore that
    * a submission then waits on). */
   VkFence fences[WSI_MAX_IMAGES] = {0};
   uint32_t indices[WSI_MAX_IMAGES];
   bool seen[WSI_MAX_IMAGES] = {false};
   VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
   VkSemaphore acquired;
   VKT_CHECK(vkCreateSemaphore(device, &sci, NULL, &acquired));
   for (uint32_t i = 0; i < sc.image_count; i++) {
      fences[i] = vkt_fence_create(&w.dev, false);
      r = vkAcquireNextImageKHR(device, sc.swapchain, 10 * WSI_SECOND_NS,
                                i == 0 ? acquired : VK_NULL_HANDLE, fences[i], &indices[i]);
      VKT_CHECK(r);
      if (r != VK_SUCCESS)
         break;
      CHECK(indices[i] < sc.image_count && !seen[indices[i]]);
      seen[indices[i] % WSI_MAX_IMAGES] = true;
      VKT_CHECK(vkWaitForFences(device, 1, &fences[i], VK_TRUE, VKT_WAIT_TIMEOUT_NS));
   }
   if (r == VK_SUCCESS) {
      uint32_t index;
      VKT_CHECK(vkResetFences(device, 1, &fences[0]));
      VKT_CHECK_RESULT(
          vkAcquireNextImageKHR(device, sc.swapchain, 0, VK_NULL_HANDLE, fences[0], &index),
          VK_NOT_READY);
      uint64_t t0 = vkt_monotonic_ns();
      r = vkAcquireNextImageKHR(device, sc.swapchain, 20 * 1000 * 1000, VK_NULL_HANDLE, fences[0],
                                &index);
      uint64_t waited = vkt_monotonic_ns() - t0;
      if (w.ctx.is_vkppu) {
         CHECK_MSG(r == VK_TIMEOUT, "a 20 ms acquire -> %s, expected VK_TIMEOUT",
                   vkt_result_name(r));
         CHECK_MSG(waited >= 15 * 1000 * 1000, "a 20 ms acquire timed out after %llu ns",
                   (unsigned long long)waited);
      } else {
         /* lavapipe's headless swapchain answers NOT_READY at once when
          * nothing can come back. */
         CHECK_MSG(r == VK_TIMEOUT || r == VK_NOT_READY, "a 20 ms acquire -> %s",
                   vkt_result_name(r));
      }
      r = VK_SUCCESS;
      VKT_CHECK_RESULT(vkGetFenceStatus(device, fences[0]), VK_NOT_READY);

      /* The acquire semaphore is signalled: a submission waiting on it
       * completes. */
      VkFence submitted = vkt_fence_create(&w.dev, false);
      VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT;
      VkCommandBuffer cmd = vkt_cmd_begin(&w.dev, w.ctx.universal_family);
      for (uint32_t i = 0; i < sc.image_count; i++)
         vk_sample_image_barrier(cmd, sc.images[indices[i]], 0, 1, VK_IMAGE_LAYOUT_UNDEFINED,
                                 VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, 0, 0,
                                 VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
      VKT_CHECK(vkEndCommandBuffer(cmd));
      VkSubmitInfo si = {
          .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
          .waitSemaphoreCount = 1,
          .pWaitSemaphores = &acquired,
          .pWaitDstStageMask = &stage,
          .commandBufferCount = 1,
          .pCommandBuffers = &cmd,
      };
      VKT_CHECK(vkQueueSubmit(w.dev.queue, 1, &si, submitted));
      VKT_CHECK(vkWaitForFences(device, 1, &submitted, VK_TRUE, VKT_WAIT_TIMEOUT_NS));
      vkFreeCommandBuffers(device, w.dev.pools[w.ctx.universal_family], 1, &cmd);
      vkDestroyFence(device, submitted, NULL);

      /* Presented images come back. */
      VkPresentInfoKHR pi = {
          .sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR,
          .swapchainCount = 1,
          .pSwapchains = &sc.swapchain,
          .pImageIndices = &indices[0],
      };
      VKT_CHECK(vkQueuePresentKHR(w.dev.queue, &pi));
      VKT_CHECK(vkAcquireNextImageKHR(device, sc.swapchain, 10 * WSI_SECOND_NS, VK_NULL_HANDLE,
                                      fences[0], &index));
      VKT_CHECK(vkWaitForFences(device, 1, &fences[0], VK_TRUE, VKT_WAIT_TIMEOUT_NS));
      if (w.ctx.is_vkppu)
         CHECK_EQ_U64(index, indices[0]); /* the only one presented */
   }
   vkDeviceWaitIdle(device);
   vkDestroySwapchainKHR(device, sc.swapchain, NULL);
   vkDestroySemaphore(device, acquired, NULL);
   for (uint32_t i = 0; i < sc.image_count; i++)
      vkDestroyFence(device, fences[i], NULL);
   teardown_headless(&w, surface);
}

/* FIFO on vkppu: images come back to acquire in the order presented. */
TEST_CASE(fifo_images_come_back_in_present_order)
{
   struct wsi_context w;
   VkSurfaceKHR surface = VK_NULL_HANDLE;
   if (!setup_headless(&w, &surface))
      return;
   if (!w.ctx.is_vkppu) {
      vkt_skip("the order in which images come back is the implementation's");
      teardown_headless(&w, surface);
      return;
   }
   struct wsi_swapchain sc;
   VKT_REQUIRE(wsi_swapchain_create(&w, surface, VK_PRESENT_MODE_FIFO_KHR, (VkExtent2D){8, 8},
                                    VK_IMAGE_USAGE_TRANSFER_DST_BIT, VK_NULL_HANDLE, &sc));
   struct wsi_frame_sync sync[8] = {0};
   uint32_t order[8];
   for (uint32_t k = 0; k < 8; k++) {
      struct wsi_clear clear;
      wsi_frame_color(k, clear.rgba);
      VKT_CHECK(wsi_frame(&w, &sc, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, wsi_fill_clear, &clear,
                          &sync[k], &order[k]));
      if (k >= sc.image_count)
         CHECK_MSG(order[k] == order[k - sc.image_count],
                   "frame %u got image %u; FIFO order gives %u", k, order[k],
                   order[k - sc.image_count]);
   }
   wsi_frames_finish(&w, sc.swapchain, sync, 8);
   teardown_headless(&w, surface);
}

TEST_CASE(recreating_with_old_swapchain_retires_it)
{
   struct wsi_context w;
   VkSurfaceKHR surface = VK_NULL_HANDLE;
   if (!setup_headless(&w, &surface))
      return;
   VkDevice device = w.dev.device;
   struct wsi_swapchain old, fresh;
   VKT_REQUIRE(wsi_swapchain_create(&w, surface, VK_PRESENT_MODE_FIFO_KHR, (VkExtent2D){32, 32},
                                    VK_IMAGE_USAGE_TRANSFER_DST_BIT, VK_NULL_HANDLE, &old));
   /* An image acquired before the swapchain is retired... */
   VkFence fence = vkt_fence_create(&w.dev, false);
   uint32_t index;
   VKT_REQUIRE(vkAcquireNextImageKHR(device, old.swapchain, 10 * WSI_SECOND_NS, VK_NULL_HANDLE,
                                     fence, &index));
   VKT_CHECK(vkWaitForFences(device, 1, &fence, VK_TRUE, VKT_WAIT_TIMEOUT_NS));
   VKT_REQUIRE(wsi_swapchain_create(&w, surface, VK_PRESENT_MODE_FIFO_KHR, (VkExtent2D){48, 20},
                                    VK_IMAGE_USAGE_TRANSFER_DST_BIT, old.swapchain, &fresh));
   /* ...may still be presented: shown or refused as out of date. */
   VkCommandBuffer cmd = vkt_cmd_begin(&w.dev, w.ctx.universal_family);
   vk_sample_image_barrier(cmd, old.images[index], 0, 1, VK_IMAGE_LAYOUT_UNDEFINED,
                           VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, 0, 0,
                           VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
   VKT_CHECK(vkt_cmd_submit_wait(&w.dev, w.ctx.universal_family, 0, cmd));
   VkPresentInfoKHR pi = {
       .sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR,
       .swapchainCount = 1,
       .pSwapchains = &old.swapchain,
       .pImageIndices = &index,
   };
   VkResult r = vkQueuePresentKHR(w.dev.queue, &pi);
   CHECK_MSG(r == VK_SUCCESS || r == VK_ERROR_OUT_OF_DATE_KHR || r == VK_SUBOPTIMAL_KHR,
             "presenting an image of a retired swapchain -> %s", vkt_result_name(r));
   if (w.ctx.is_vkppu)
      CHECK_MSG(r == VK_ERROR_OUT_OF_DATE_KHR, "vkppu does not show retired swapchains' images");
   vkDeviceWaitIdle(device);
   vkDestroySwapchainKHR(device, old.swapchain, NULL);
   vkDestroyFence(device, fence, NULL);
   /* The new one works. */
   struct wsi_frame_sync frame = {0};
   struct wsi_clear clear = {{1, 2, 3, 255}};
   VKT_CHECK(wsi_frame(&w, &fresh, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, wsi_fill_clear, &clear,
                       &frame, &index));
   CHECK_EQ_U64(fresh.extent.width, 48);
   wsi_frames_finish(&w, fresh.swapchain, &frame, 1);
   teardown_headless(&w, surface);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
