/* Presentation to X11 windows (VK_KHR_xcb_surface, VK_KHR_xlib_surface)
 * under an Xvfb server the test starts itself (Xvfb -displayfd picks a
 * free display), through the loader with validation on: a known pattern
 * is presented and read back from the window with xcb_get_image; a resize
 * makes the swapchain out of date and a new one (with oldSwapchain) shows
 * the new size; a window destroyed under a swapchain is reported, not a
 * crash. vkppu runs the xcb case twice, with MIT-SHM and with
 * xcb_put_image (VKPPU_WSI_NO_SHM=1). */
#define VK_USE_PLATFORM_XCB_KHR 1
#define VK_USE_PLATFORM_XLIB_KHR 1

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xcb/xcb.h>

#include "test_wsi_common.h"

#include <X11/Xlib-xcb.h>
#include <X11/Xlib.h>

/* ---- the X server ---- */

static pid_t xvfb_pid;

static void stop_xvfb(void)
{
   if (xvfb_pid > 0) {
      kill(xvfb_pid, SIGTERM);
      waitpid(xvfb_pid, NULL, 0);
      xvfb_pid = 0;
   }
}

/* Starts Xvfb on a free display and points DISPLAY at it. */
static bool start_xvfb(void)
{
   if (xvfb_pid > 0)
      return true;
   int fds[2];
   if (pipe(fds) != 0)
      return false;
   pid_t pid = fork();
   if (pid < 0)
      return false;
   if (pid == 0) {
      close(fds[0]);
      int null = open("/dev/null", O_WRONLY);
      if (null >= 0) {
         dup2(null, STDOUT_FILENO);
         dup2(null, STDERR_FILENO);
      }
      char fd[16];
      snprintf(fd, sizeof(fd), "%d", fds[1]);
      /* -noreset: by default the server resets when its last client
       * leaves, and a case connecting just then would be refused. */
      execlp("Xvfb", "Xvfb", "-displayfd", fd, "-screen", "0", "640x480x24", "-nolisten", "tcp",
             "-noreset", (char *)NULL);
      _exit(127);
   }
   close(fds[1]);
   xvfb_pid = pid;
   atexit(stop_xvfb);
   char number[16] = "";
   size_t len = 0;
   struct pollfd p = {fds[0], POLLIN, 0};
   while (len + 1 < sizeof(number) && poll(&p, 1, 20000) > 0) {
      ssize_t n = read(fds[0], number + len, 1);
      if (n <= 0 || number[len] == '\n')
         break;
      len++;
   }
   number[len] = '\0';
   close(fds[0]);
   if (len == 0) {
      test_fail(__FILE__, __LINE__,
                "Xvfb did not start (Debian: apt-get install xvfb; tools/install-deps.sh)");
      stop_xvfb();
      return false;
   }
   char display[24];
   snprintf(display, sizeof(display), ":%s", number);
   setenv("DISPLAY", display, 1);
   return true;
}

/* ---- windows ---- */

static xcb_window_t make_xcb_window(xcb_connection_t *c, uint16_t width, uint16_t height,
                                    xcb_visualid_t *visual)
{
   xcb_screen_t *screen = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
   xcb_window_t window = xcb_generate_id(c);
   uint32_t black = screen->black_pixel;
   xcb_create_window(c, XCB_COPY_FROM_PARENT, window, screen->root, 0, 0, width, height, 0,
                     XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual, XCB_CW_BACK_PIXEL, &black);
   xcb_map_window(c, window);
   free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL)); /* round trip */
   *visual = screen->root_visual;
   return window;
}

static void resize_window(xcb_connection_t *c, xcb_window_t window, uint32_t width, uint32_t height)
{
   uint32_t size[2] = {width, height};
   xcb_configure_window(c, window, XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT, size);
   free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL));
}

/* Polls the window until it shows the pattern (presentation is
 * asynchronous) or 10 s pass; returns the pixels that differ last time. */
static uint32_t window_mismatches(xcb_connection_t *c, xcb_window_t window, VkExtent2D extent)
{
   uint32_t bad = UINT32_MAX;
   for (int attempt = 0; attempt < 1000 && bad != 0; attempt++) {
      if (attempt)
         vkt_sleep_ms(10);
      xcb_get_image_reply_t *img = xcb_get_image_reply(
          c,
          xcb_get_image(c, XCB_IMAGE_FORMAT_Z_PIXMAP, window, 0, 0, (uint16_t)extent.width,
                        (uint16_t)extent.height, UINT32_MAX),
          NULL);
      if (!img)
         continue;
      const uint8_t *px = xcb_get_image_data(img);
      if ((size_t)xcb_get_image_data_length(img) < (size_t)extent.width * extent.height * 4) {
         free(img);
         continue;
      }
      bad = 0;
      for (uint32_t y = 0; y < extent.height; y++) {
         for (uint32_t x = 0; x < extent.width; x++, px += 4) {
            uint8_t want[4];
            wsi_pattern_pixel(x, y, want);
            /* Z pixmap, depth 24 in 32 bits, little-endian: B, G, R, pad. */
            bad += px[0] != want[2] || px[1] != want[1] || px[2] != want[0];
         }
      }
      free(img);
   }
   return bad;
}

/* One pattern frame; returns the present's (or the acquire's) result. */
static VkResult present_pattern(struct wsi_context *w, struct wsi_swapchain *sc)
{
   struct vkt_buffer buf = {0};
   if (!wsi_pattern_buffer(w, sc->extent, &buf))
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   struct wsi_copy copy = {buf.buffer, sc->extent};
   struct wsi_frame_sync sync = {0};
   uint32_t index;
   VkResult r =
       wsi_frame(w, sc, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, wsi_fill_copy, &copy, &sync, &index);
   vkDeviceWaitIdle(w->dev.device);
   wsi_frame_sync_destroy(w, &sync);
   vkt_buffer_destroy(&w->dev, &buf);
   return r;
}

/* The surface's whole life: present, check the window, resize, recreate,
 * present at the new size. */
static void exercise_window(struct wsi_context *w, VkSurfaceKHR surface, xcb_connection_t *c,
                            xcb_window_t window, VkExtent2D size)
{
   VkSurfaceCapabilitiesKHR caps;
   VKT_CHECK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(w->ctx.physical_device, surface, &caps));
   CHECK_MSG(caps.currentExtent.width == size.width && caps.currentExtent.height == size.height,
             "currentExtent %ux%u, the window is %ux%u", caps.currentExtent.width,
             caps.currentExtent.height, size.width, size.height);
   struct wsi_swapchain sc;
   VkImageUsageFlags usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT;
   VKT_REQUIRE(wsi_swapchain_create(w, surface, VK_PRESENT_MODE_FIFO_KHR, size, usage,
                                    VK_NULL_HANDLE, &sc));
   VKT_CHECK(present_pattern(w, &sc));
   CHECK_EQ_U64(window_mismatches(c, window, sc.extent), 0);

   /* A resize: the next present or acquire says the swapchain no longer
    * fits (vkppu: OUT_OF_DATE; the spec also allows SUBOPTIMAL). */
   VkExtent2D bigger = {size.width + 24, size.height + 10};
   resize_window(c, window, bigger.width, bigger.height);
   VkResult r = present_pattern(w, &sc);
   if (w->ctx.is_vkppu) {
      CHECK_MSG(r == VK_ERROR_OUT_OF_DATE_KHR, "present after a resize -> %s, expected OUT_OF_DATE",
                vkt_result_name(r));
   } else {
      /* Others may notice the resize a few frames later (lavapipe learns
       * it from events), or keep presenting (SUCCESS is allowed too). */
      for (int i = 0; i < 5 && r == VK_SUCCESS; i++)
         r = present_pattern(w, &sc);
      CHECK_MSG(r == VK_SUCCESS || r == VK_ERROR_OUT_OF_DATE_KHR || r == VK_SUBOPTIMAL_KHR,
                "present after a resize -> %s", vkt_result_name(r));
   }
   VKT_CHECK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(w->ctx.physical_device, surface, &caps));
   CHECK(caps.currentExtent.width == bigger.width && caps.currentExtent.height == bigger.height);
   struct wsi_swapchain fresh;
   VKT_CHECK(wsi_swapchain_create(w, surface, VK_PRESENT_MODE_FIFO_KHR, bigger, usage, sc.swapchain,
                                  &fresh));
   vkDestroySwapchainKHR(w->dev.device, sc.swapchain, NULL);
   VKT_CHECK(present_pattern(w, &fresh));
   CHECK_EQ_U64(window_mismatches(c, window, fresh.extent), 0);
   vkDestroySwapchainKHR(w->dev.device, fresh.swapchain, NULL);
}

static bool setup_x11(struct wsi_context *w)
{
   const char *ext[] = {VK_KHR_XCB_SURFACE_EXTENSION_NAME, VK_KHR_XLIB_SURFACE_EXTENSION_NAME};
   return start_xvfb() && wsi_setup(w, ext, 2);
}

static VkSurfaceKHR xcb_surface(struct wsi_context *w, xcb_connection_t *c, xcb_window_t window)
{
   PFN_vkCreateXcbSurfaceKHR create =
       (PFN_vkCreateXcbSurfaceKHR)vkGetInstanceProcAddr(w->ctx.instance, "vkCreateXcbSurfaceKHR");
   VkXcbSurfaceCreateInfoKHR ci = {
       .sType = VK_STRUCTURE_TYPE_XCB_SURFACE_CREATE_INFO_KHR,
       .connection = c,
       .window = window,
   };
   VkSurfaceKHR surface = VK_NULL_HANDLE;
   if (!create) {
      test_fail(__FILE__, __LINE__, "no vkCreateXcbSurfaceKHR");
      return VK_NULL_HANDLE;
   }
   VKT_CHECK(create(w->ctx.instance, &ci, NULL, &surface));
   return surface;
}

static void xcb_window_case(bool shm)
{
   struct wsi_context w;
   if (!setup_x11(&w)) {
      wsi_teardown(&w);
      return;
   }
   if (!shm && !w.ctx.is_vkppu) {
      vkt_skip("VKPPU_WSI_NO_SHM is vkppu's");
      wsi_teardown(&w);
      return;
   }
   if (!shm)
      setenv("VKPPU_WSI_NO_SHM", "1", 1);
   xcb_connection_t *c = xcb_connect(NULL, NULL);
   REQUIRE(!xcb_connection_has_error(c));
   xcb_visualid_t visual;
   VkExtent2D size = {97, 61};
   xcb_window_t window = make_xcb_window(c, (uint16_t)size.width, (uint16_t)size.height, &visual);
   PFN_vkGetPhysicalDeviceXcbPresentationSupportKHR support =
       (PFN_vkGetPhysicalDeviceXcbPresentationSupportKHR)vkGetInstanceProcAddr(
           w.ctx.instance, "vkGetPhysicalDeviceXcbPresentationSupportKHR");
   REQUIRE(support != NULL);
   CHECK(support(w.ctx.physical_device, w.ctx.universal_family, c, visual));
   VkSurfaceKHR surface = xcb_surface(&w, c, window);
   if (surface)
      exercise_window(&w, surface, c, window, size);
   vkDeviceWaitIdle(w.dev.device);
   vkDestroySurfaceKHR(w.ctx.instance, surface, NULL);
   unsetenv("VKPPU_WSI_NO_SHM");
   xcb_destroy_window(c, window);
   xcb_disconnect(c);
   wsi_teardown(&w);
}

TEST_CASE(xcb_window_shows_presented_pixels)
{
   xcb_window_case(true);
}

TEST_CASE(xcb_window_shows_presented_pixels_without_mit_shm)
{
   xcb_window_case(false);
}

TEST_CASE(xlib_window_shows_presented_pixels)
{
   struct wsi_context w;
   if (!setup_x11(&w)) {
      wsi_teardown(&w);
      return;
   }
   Display *dpy = XOpenDisplay(NULL);
   REQUIRE(dpy != NULL);
   VkExtent2D size = {75, 50};
   int screen = DefaultScreen(dpy);
   Window window = XCreateSimpleWindow(dpy, RootWindow(dpy, screen), 0, 0, size.width, size.height,
                                       0, 0, BlackPixel(dpy, screen));
   XMapWindow(dpy, window);
   XSync(dpy, False);
   PFN_vkGetPhysicalDeviceXlibPresentationSupportKHR support =
       (PFN_vkGetPhysicalDeviceXlibPresentationSupportKHR)vkGetInstanceProcAddr(
           w.ctx.instance, "vkGetPhysicalDeviceXlibPresentationSupportKHR");
   PFN_vkCreateXlibSurfaceKHR create =
       (PFN_vkCreateXlibSurfaceKHR)vkGetInstanceProcAddr(w.ctx.instance, "vkCreateXlibSurfaceKHR");
   REQUIRE(support != NULL && create != NULL);
   CHECK(support(w.ctx.physical_device, w.ctx.universal_family, dpy,
                 XVisualIDFromVisual(DefaultVisual(dpy, screen))));
   VkXlibSurfaceCreateInfoKHR ci = {
       .sType = VK_STRUCTURE_TYPE_XLIB_SURFACE_CREATE_INFO_KHR,
       .dpy = dpy,
       .window = window,
   };
   VkSurfaceKHR surface = VK_NULL_HANDLE;
   VKT_CHECK(create(w.ctx.instance, &ci, NULL, &surface));
   if (surface)
      exercise_window(&w, surface, XGetXCBConnection(dpy), (xcb_window_t)window, size);
   vkDeviceWaitIdle(w.dev.device);
   vkDestroySurfaceKHR(w.ctx.instance, surface, NULL);
   XDestroyWindow(dpy, window);
   XCloseDisplay(dpy);
   wsi_teardown(&w);
}

/* The application destroys the window under a live swapchain: presents
 * and acquires report it (SURFACE_LOST, or OUT_OF_DATE), and nothing
 * crashes. */
TEST_CASE(window_destroyed_under_a_swapchain_is_reported)
{
   struct wsi_context w;
   if (!setup_x11(&w)) {
      wsi_teardown(&w);
      return;
   }
   if (!w.ctx.is_vkppu) {
      vkt_skip("what a driver does with a destroyed window varies");
      wsi_teardown(&w);
      return;
   }
   xcb_connection_t *c = xcb_connect(NULL, NULL);
   REQUIRE(!xcb_connection_has_error(c));
   xcb_visualid_t visual;
   VkExtent2D size = {64, 40};
   xcb_window_t window = make_xcb_window(c, (uint16_t)size.width, (uint16_t)size.height, &visual);
   VkSurfaceKHR surface = xcb_surface(&w, c, window);
   struct wsi_swapchain sc;
   VkResult r = wsi_swapchain_create(&w, surface, VK_PRESENT_MODE_MAILBOX_KHR, size,
                                     VK_IMAGE_USAGE_TRANSFER_DST_BIT, VK_NULL_HANDLE, &sc);
   VKT_CHECK(r);
   if (r == VK_SUCCESS) {
      VKT_CHECK(present_pattern(&w, &sc));
      xcb_destroy_window(c, window);
      free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL));
      r = present_pattern(&w, &sc);
      CHECK_MSG(r == VK_ERROR_SURFACE_LOST_KHR, "present to a destroyed window -> %s",
                vkt_result_name(r));
      uint32_t index;
      VkFence fence = vkt_fence_create(&w.dev, false);
      r = vkAcquireNextImageKHR(w.dev.device, sc.swapchain, 0, VK_NULL_HANDLE, fence, &index);
      CHECK_MSG(r == VK_ERROR_SURFACE_LOST_KHR, "acquire after the window is gone -> %s",
                vkt_result_name(r));
      VkSurfaceCapabilitiesKHR caps;
      VKT_CHECK_RESULT(
          vkGetPhysicalDeviceSurfaceCapabilitiesKHR(w.ctx.physical_device, surface, &caps),
          VK_ERROR_SURFACE_LOST_KHR);
      vkDestroyFence(w.dev.device, fence, NULL);
      vkDestroySwapchainKHR(w.dev.device, sc.swapchain, NULL);
   }
   vkDestroySurfaceKHR(w.ctx.instance, surface, NULL);
   xcb_disconnect(c);
   wsi_teardown(&w);
}

int main(int argc, char **argv)
{
   int failed = test_run_all(argc, argv);
   stop_xvfb();
   return failed;
}
