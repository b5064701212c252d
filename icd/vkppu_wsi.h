/* Window-system integration (docs/wsi.md): surfaces (headless, xcb, xlib),
 * swapchains and presentation.
 *
 * A surface reaches the driver in one of two shapes. The loader (interface
 * version >= 3, icd/loader_interface.c) calls our vkCreate*SurfaceKHR and
 * hands us back what it returned: a struct vkppu_surface. A loader that
 * made the surface itself passes its own VkIcdSurface* (vk_icd.h), which
 * begins with VkIcdSurfaceBase. vkppu_surface_base() accepts both, so
 * every query and the swapchain only ever see a VkIcdSurfaceBase.
 *
 * Swapchain images are ordinary vkppu images in host-visible VRAM, linear
 * when their usage allows it (the copy-out is then a memcpy per row);
 * a presentation thread per swapchain reads each presented image and
 * hands it to the window system (wsi_x11.c) or the PNG dump
 * (wsi_png_dump.c). */
#ifndef VKPPU_WSI_H
#define VKPPU_WSI_H

#include <pthread.h>

#include <vulkan/vk_icd.h>

#include "vkppu_device.h"
#include "vkppu_physical_device.h"

/* VkIcdSurfaceXcb and VkIcdSurfaceXlib of vk_icd.h, field for field, with
 * the X types spelled out so that only wsi_x11.c and wsi_xlib.c include
 * the X headers (Xlib.h defines macros such as None and Success). */
struct vkppu_icd_surface_xcb {
   VkIcdSurfaceBase base;
   void *connection; /* xcb_connection_t * */
   uint32_t window;  /* xcb_window_t */
};
struct vkppu_icd_surface_xlib {
   VkIcdSurfaceBase base;
   void *display;        /* Display * */
   unsigned long window; /* Window */
};

/* What our vkCreate*SurfaceKHR allocate: the object base (its first word
 * is ICD_LOADER_MAGIC, which no VkIcdWsiPlatform value equals), then the
 * loader-interface struct of the platform. */
struct vkppu_surface {
   struct vkppu_object base;
   union {
      VkIcdSurfaceBase base;
      VkIcdSurfaceHeadless headless;
      struct vkppu_icd_surface_xcb xcb;
      struct vkppu_icd_surface_xlib xlib;
   } icd;
};

/* A zeroed surface of `platform` with its object base, or NULL. */
struct vkppu_surface *vkppu_surface_alloc(struct vkppu_instance *inst,
                                          const VkAllocationCallbacks *pAllocator,
                                          VkIcdWsiPlatform platform);

/* The platform struct behind a VkSurfaceKHR of either shape (see above). */
const VkIcdSurfaceBase *vkppu_surface_base(VkSurfaceKHR surface);

/* The X11 connection and window of an xcb or xlib surface; false for
 * another platform. */
bool vkppu_surface_x11_window(const VkIcdSurfaceBase *surface, void **connection, uint32_t *window);

/* ---- swapchain formats and limits (surface.c) ---- */

#define VKPPU_WSI_MIN_IMAGES 2u
#define VKPPU_WSI_MAX_IMAGES 8u

/* The formats every surface offers, all VK_COLOR_SPACE_SRGB_NONLINEAR_KHR,
 * in order of preference; 4-byte texels whose copy-out is a row memcpy
 * (BGRA) or a red/blue swap (RGBA). */
extern const VkFormat vkppu_wsi_formats[];
extern const uint32_t vkppu_wsi_format_count;
bool vkppu_wsi_format_supported(VkFormat format);
/* Whether texels of format are stored B, G, R, A (else R, G, B, A). */
bool vkppu_wsi_format_is_bgra(VkFormat format);

/* The image usages a swapchain image may have (surface capabilities). */
VkImageUsageFlags vkppu_wsi_supported_usage(const struct vkppu_physical_device *pd);

/* ---- X11 (wsi_x11.c, wsi_xlib.c) ---- */

/* The xcb connection under an Xlib Display (libX11-xcb). */
void *vkppu_xlib_xcb_connection(void *display);

/* The window's size; VK_ERROR_SURFACE_LOST_KHR when the window is gone. */
VkResult vkppu_x11_window_extent(void *connection, uint32_t window, VkExtent2D *extent);
/* Whether we can present to windows of this visual: TrueColor with 8-bit
 * red, green and blue at bits 16, 8, 0 in 32-bit pixels. */
bool vkppu_x11_visual_supported(void *connection, uint32_t visual_id);
/* The same for the window's visual; VK_ERROR_SURFACE_LOST_KHR when the
 * window is gone. */
VkResult vkppu_x11_window_supported(void *connection, uint32_t window, bool *supported);

/* Puts frames into one window: MIT-SHM when the server has it (and
 * VKPPU_WSI_NO_SHM is not set), else xcb_put_image in strips. */
struct vkppu_x11_presenter;
VkResult vkppu_x11_presenter_create(void *connection, uint32_t window, VkExtent2D extent,
                                    struct vkppu_x11_presenter **out);
void vkppu_x11_presenter_destroy(struct vkppu_x11_presenter *p);
/* A buffer of width * height 32-bit pixels (B, G, R, X in memory) to fill
 * before vkppu_x11_presenter_put. */
uint32_t *vkppu_x11_presenter_pixels(struct vkppu_x11_presenter *p);
/* Sends the pixels and waits until the server has taken them.
 * VK_ERROR_SURFACE_LOST_KHR when the window is gone. */
VkResult vkppu_x11_presenter_put(struct vkppu_x11_presenter *p);
bool vkppu_x11_presenter_uses_shm(const struct vkppu_x11_presenter *p);

/* ---- headless PNG dump (wsi_png_dump.c) ---- */

/* VKPPU_PRESENT_PNG / VKPPU_PRESENT_PNG_EVERY, read when a swapchain is
 * created. */
struct vkppu_png_dump {
   bool enabled;
   char pattern[512]; /* a directory, or a path with %u for the frame */
   uint32_t every;    /* write frame n when n % every == 0 */
   uint32_t swapchain_id;
};
void vkppu_png_dump_init(struct vkppu_png_dump *dump);
/* Writes frame number `frame` (RGBA, tightly packed) if it is due. */
void vkppu_png_dump_frame(struct vkppu_instance *inst, const struct vkppu_png_dump *dump,
                          uint64_t frame, const uint8_t *rgba, uint32_t width, uint32_t height);

/* ---- swapchains (swapchain.c, swapchain_present.c) ---- */

enum vkppu_swapchain_image_state {
   VKPPU_IMAGE_FREE,     /* may be acquired */
   VKPPU_IMAGE_ACQUIRED, /* the application owns it */
   VKPPU_IMAGE_QUEUED,   /* presented, waiting for the presentation thread */
};

struct vkppu_swapchain_image {
   VkImage image;
   VkDeviceMemory memory;
   enum vkppu_swapchain_image_state state;
   bool show;          /* QUEUED: false when the present failed (released unshown) */
   uint64_t queued_ns; /* QUEUED: when vkQueuePresentKHR queued it */
};

struct vkppu_swapchain {
   struct vkppu_object base;
   struct vkppu_device *dev;
   const VkIcdSurfaceBase *surface;
   VkFormat format;
   VkExtent2D extent;
   VkPresentModeKHR present_mode;
   bool opaque; /* composite alpha OPAQUE/INHERIT: alpha is ignored */
   uint32_t image_count;
   struct vkppu_swapchain_image images[VKPPU_WSI_MAX_IMAGES];

   pthread_mutex_t lock;
   pthread_cond_t changed; /* an image was freed or queued, or stop/status changed */
   /* Images in the order they became free (acquire hands out the oldest). */
   uint32_t free_order[VKPPU_WSI_MAX_IMAGES];
   uint32_t free_count;
   /* Presented images in present order. */
   uint32_t queue[VKPPU_WSI_MAX_IMAGES];
   uint32_t queue_count;
   /* Sticky: OUT_OF_DATE (retired by a newer swapchain, or the window
    * changed size), SURFACE_LOST; else VK_SUCCESS. */
   VkResult status;
   bool stop;
   pthread_t thread;
   bool thread_started;

   /* Presentation thread state. */
   void *x11_connection; /* NULL: headless */
   uint32_t x11_window;
   struct vkppu_x11_presenter *x11;
   struct vkppu_png_dump png;
   uint8_t *rgba;         /* frame for the PNG dump */
   uint64_t frames_shown; /* frames given to the window or the dump */
   uint64_t frames_skipped;
   /* VKPPU_WSI_STATS: queued-to-shown latency and the show itself. */
   uint64_t latency_sum_ns, latency_max_ns, show_sum_ns;
};
VKPPU_DEFINE_HANDLE_CASTS(vkppu_swapchain, VkSwapchainKHR)

/* Starts/stops the presentation thread (swapchain_present.c). */
VkResult vkppu_swapchain_start_presenting(struct vkppu_swapchain *sc);
void vkppu_swapchain_stop_presenting(struct vkppu_swapchain *sc);

#endif /* VKPPU_WSI_H */
