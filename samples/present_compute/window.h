/* Where present_compute's frames go: a headless surface, or an X11 window
 * made through xcb or Xlib. Kept apart from main.c so that only window.c
 * includes the X headers. */
#ifndef PRESENT_COMPUTE_WINDOW_H
#define PRESENT_COMPUTE_WINDOW_H

#include <stdbool.h>
#include <stdint.h>
#include <volk.h>

enum pc_surface_kind { PC_SURFACE_HEADLESS, PC_SURFACE_XCB, PC_SURFACE_XLIB };

struct pc_window {
   enum pc_surface_kind kind;
   void *xcb;              /* xcb_connection_t *: xcb surfaces */
   uint32_t xcb_window;    /* xcb_window_t */
   void *display;          /* Display *: xlib surfaces */
   unsigned long x_window; /* Window */
};

/* "headless", "xcb" or "xlib"; false for anything else. */
bool pc_surface_kind_parse(const char *name, enum pc_surface_kind *kind);

/* The instance extensions the kind's surface needs (VK_KHR_surface and
 * the platform's); count is set. */
const char *const *pc_window_instance_extensions(enum pc_surface_kind kind, uint32_t *count);

/* Opens a width x height window (nothing for headless); prints why not. */
bool pc_window_open(struct pc_window *w, enum pc_surface_kind kind, uint32_t width,
                    uint32_t height);
VkResult pc_window_surface(struct pc_window *w, VkInstance instance, VkSurfaceKHR *surface);
void pc_window_close(struct pc_window *w);

#endif
