#define VK_USE_PLATFORM_XCB_KHR 1
#define VK_USE_PLATFORM_XLIB_KHR 1

#include "window.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xcb/xcb.h>

#include <X11/Xlib-xcb.h>
#include <X11/Xlib.h>

bool pc_surface_kind_parse(const char *name, enum pc_surface_kind *kind)
{
   static const char *const names[] = {"headless", "xcb", "xlib"};
   for (int i = 0; i < 3; i++) {
      if (strcmp(name, names[i]) == 0) {
         *kind = (enum pc_surface_kind)i;
         return true;
      }
   }
   return false;
}

const char *const *pc_window_instance_extensions(enum pc_surface_kind kind, uint32_t *count)
{
   static const char *const headless[] = {VK_KHR_SURFACE_EXTENSION_NAME,
                                          VK_EXT_HEADLESS_SURFACE_EXTENSION_NAME};
   static const char *const xcb[] = {VK_KHR_SURFACE_EXTENSION_NAME,
                                     VK_KHR_XCB_SURFACE_EXTENSION_NAME};
   static const char *const xlib[] = {VK_KHR_SURFACE_EXTENSION_NAME,
                                      VK_KHR_XLIB_SURFACE_EXTENSION_NAME};
   *count = 2;
   return kind == PC_SURFACE_XCB ? xcb : kind == PC_SURFACE_XLIB ? xlib : headless;
}

bool pc_window_open(struct pc_window *w, enum pc_surface_kind kind, uint32_t width, uint32_t height)
{
   memset(w, 0, sizeof(*w));
   w->kind = kind;
   if (kind == PC_SURFACE_XCB) {
      xcb_connection_t *c = xcb_connect(NULL, NULL);
      if (xcb_connection_has_error(c)) {
         fprintf(stderr, "present_compute: cannot connect to the X server (DISPLAY=%s)\n",
                 getenv("DISPLAY") ? getenv("DISPLAY") : "");
         xcb_disconnect(c);
         return false;
      }
      xcb_screen_t *screen = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
      xcb_window_t win = xcb_generate_id(c);
      uint32_t black = screen->black_pixel;
      xcb_create_window(c, XCB_COPY_FROM_PARENT, win, screen->root, 0, 0, (uint16_t)width,
                        (uint16_t)height, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual,
                        XCB_CW_BACK_PIXEL, &black);
      const char *title = "present_compute";
      xcb_change_property(c, XCB_PROP_MODE_REPLACE, win, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 8,
                          (uint32_t)strlen(title), title);
      xcb_map_window(c, win);
      xcb_flush(c);
      w->xcb = c;
      w->xcb_window = win;
   } else if (kind == PC_SURFACE_XLIB) {
      Display *dpy = XOpenDisplay(NULL);
      if (!dpy) {
         fprintf(stderr, "present_compute: cannot open the X display (DISPLAY=%s)\n",
                 getenv("DISPLAY") ? getenv("DISPLAY") : "");
         return false;
      }
      int screen = DefaultScreen(dpy);
      Window win = XCreateSimpleWindow(dpy, RootWindow(dpy, screen), 0, 0, width, height, 0, 0,
                                       BlackPixel(dpy, screen));
      XStoreName(dpy, win, "present_compute");
      XMapWindow(dpy, win);
      XSync(dpy, False);
      w->display = dpy;
      w->x_window = win;
   }
   return true;
}

VkResult pc_window_surface(struct pc_window *w, VkInstance instance, VkSurfaceKHR *surface)
{
   /* volk is built without the platform defines: fetch the commands. */
   if (w->kind == PC_SURFACE_XCB) {
      PFN_vkCreateXcbSurfaceKHR create =
          (PFN_vkCreateXcbSurfaceKHR)vkGetInstanceProcAddr(instance, "vkCreateXcbSurfaceKHR");
      VkXcbSurfaceCreateInfoKHR ci = {.sType = VK_STRUCTURE_TYPE_XCB_SURFACE_CREATE_INFO_KHR,
                                      .connection = w->xcb,
                                      .window = w->xcb_window};
      return create ? create(instance, &ci, NULL, surface) : VK_ERROR_EXTENSION_NOT_PRESENT;
   }
   if (w->kind == PC_SURFACE_XLIB) {
      PFN_vkCreateXlibSurfaceKHR create =
          (PFN_vkCreateXlibSurfaceKHR)vkGetInstanceProcAddr(instance, "vkCreateXlibSurfaceKHR");
      VkXlibSurfaceCreateInfoKHR ci = {.sType = VK_STRUCTURE_TYPE_XLIB_SURFACE_CREATE_INFO_KHR,
                                       .dpy = w->display,
                                       .window = w->x_window};
      return create ? create(instance, &ci, NULL, surface) : VK_ERROR_EXTENSION_NOT_PRESENT;
   }
   VkHeadlessSurfaceCreateInfoEXT ci = {.sType =
                                            VK_STRUCTURE_TYPE_HEADLESS_SURFACE_CREATE_INFO_EXT};
   return vkCreateHeadlessSurfaceEXT(instance, &ci, NULL, surface);
}

void pc_window_close(struct pc_window *w)
{
   if (w->xcb) {
      xcb_destroy_window(w->xcb, w->xcb_window);
      xcb_disconnect(w->xcb);
   }
   if (w->display) {
      XDestroyWindow(w->display, w->x_window);
      XCloseDisplay(w->display);
   }
   memset(w, 0, sizeof(*w));
}
