/* Talking to the X server for xcb and xlib surfaces: window size and
 * visual, and putting frames into a window with MIT-SHM (one shared
 * segment a swapchain, the server copies from it) or, without it, with
 * xcb_put_image in strips no larger than the server's request limit.
 *
 * Every request whose failure matters is a checked one: the connection
 * belongs to the application, so an error of ours must not land in its
 * event queue, and a window that disappears must become
 * VK_ERROR_SURFACE_LOST_KHR, never a crash. */
#include <stdlib.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <xcb/shm.h>
#include <xcb/xcb.h>

#include "vkppu_wsi.h"

/* The window's size and depth; VK_ERROR_SURFACE_LOST_KHR when it is gone. */
static VkResult window_geometry(xcb_connection_t *c, uint32_t window, VkExtent2D *extent,
                                uint8_t *depth)
{
   if (xcb_connection_has_error(c))
      return VK_ERROR_SURFACE_LOST_KHR;
   xcb_get_geometry_reply_t *g = xcb_get_geometry_reply(c, xcb_get_geometry(c, window), NULL);
   if (!g)
      return VK_ERROR_SURFACE_LOST_KHR;
   *extent = (VkExtent2D){g->width, g->height};
   *depth = g->depth;
   free(g);
   return VK_SUCCESS;
}

VkResult vkppu_x11_window_extent(void *connection, uint32_t window, VkExtent2D *extent)
{
   uint8_t depth;
   return window_geometry(connection, window, extent, &depth);
}

/* The depth's pixmap format: 32 bits a pixel is what our texels are. */
static bool depth_has_32_bit_pixels(const xcb_setup_t *setup, uint8_t depth)
{
   xcb_format_iterator_t f = xcb_setup_pixmap_formats_iterator(setup);
   for (; f.rem; xcb_format_next(&f)) {
      if (f.data->depth == depth)
         return f.data->bits_per_pixel == 32;
   }
   return false;
}

bool vkppu_x11_visual_supported(void *connection, uint32_t visual_id)
{
   xcb_connection_t *c = connection;
   if (!c || xcb_connection_has_error(c))
      return false;
   const xcb_setup_t *setup = xcb_get_setup(c);
   /* Pixels go out as the bytes of B8G8R8A8 texels: a little-endian
    * 0xXXRRGGBB. */
   if (setup->image_byte_order != XCB_IMAGE_ORDER_LSB_FIRST)
      return false;
   for (xcb_screen_iterator_t s = xcb_setup_roots_iterator(setup); s.rem; xcb_screen_next(&s)) {
      xcb_depth_iterator_t d = xcb_screen_allowed_depths_iterator(s.data);
      for (; d.rem; xcb_depth_next(&d)) {
         xcb_visualtype_iterator_t v = xcb_depth_visuals_iterator(d.data);
         for (; v.rem; xcb_visualtype_next(&v)) {
            const xcb_visualtype_t *vt = v.data;
            if (vt->visual_id != visual_id)
               continue;
            return (d.data->depth == 24 || d.data->depth == 32) &&
                   depth_has_32_bit_pixels(setup, d.data->depth) &&
                   vt->_class == XCB_VISUAL_CLASS_TRUE_COLOR && vt->red_mask == 0xff0000u &&
                   vt->green_mask == 0xff00u && vt->blue_mask == 0xffu;
         }
      }
   }
   return false;
}

VkResult vkppu_x11_window_supported(void *connection, uint32_t window, bool *supported)
{
   xcb_connection_t *c = connection;
   *supported = false;
   if (xcb_connection_has_error(c))
      return VK_ERROR_SURFACE_LOST_KHR;
   xcb_get_window_attributes_reply_t *a =
       xcb_get_window_attributes_reply(c, xcb_get_window_attributes(c, window), NULL);
   if (!a)
      return VK_ERROR_SURFACE_LOST_KHR;
   *supported = vkppu_x11_visual_supported(c, a->visual);
   free(a);
   return VK_SUCCESS;
}

struct vkppu_x11_presenter {
   xcb_connection_t *c;
   xcb_window_t window;
   xcb_gcontext_t gc;
   uint8_t depth;
   VkExtent2D extent;
   uint32_t *pixels; /* the shared segment, or malloc'd for xcb_put_image */
   bool shm;
   xcb_shm_seg_t seg;
};

/* Attaches a System V segment of `bytes` to the server; false (and
 * nothing left behind) when the server or the system will not. */
static bool shm_attach(struct vkppu_x11_presenter *p, size_t bytes)
{
   const char *no_shm = getenv("VKPPU_WSI_NO_SHM");
   if (no_shm && *no_shm && *no_shm != '0')
      return false;
   const xcb_query_extension_reply_t *ext = xcb_get_extension_data(p->c, &xcb_shm_id);
   if (!ext || !ext->present)
      return false;
   int id = shmget(IPC_PRIVATE, bytes, IPC_CREAT | 0600);
   if (id < 0)
      return false;
   void *addr = shmat(id, NULL, 0);
   if (addr == (void *)-1) {
      shmctl(id, IPC_RMID, NULL);
      return false;
   }
   p->seg = xcb_generate_id(p->c);
   xcb_generic_error_t *e = xcb_request_check(p->c, xcb_shm_attach_checked(p->c, p->seg, id, 0));
   /* Marked for removal now: it goes away when both sides detach, even if
    * this process dies. A server on another machine fails the attach. */
   shmctl(id, IPC_RMID, NULL);
   if (e) {
      free(e);
      shmdt(addr);
      return false;
   }
   p->pixels = addr;
   p->shm = true;
   return true;
}

VkResult vkppu_x11_presenter_create(void *connection, uint32_t window, VkExtent2D extent,
                                    struct vkppu_x11_presenter **out)
{
   xcb_connection_t *c = connection;
   *out = NULL;
   VkExtent2D window_extent;
   uint8_t depth;
   VkResult r = window_geometry(c, window, &window_extent, &depth);
   if (r != VK_SUCCESS)
      return r;

   struct vkppu_x11_presenter *p = calloc(1, sizeof(*p));
   if (!p)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   p->c = c;
   p->window = window;
   p->depth = depth;
   p->extent = extent;
   p->gc = xcb_generate_id(c);
   uint32_t no_exposures = 0;
   xcb_generic_error_t *e = xcb_request_check(
       c, xcb_create_gc_checked(c, p->gc, window, XCB_GC_GRAPHICS_EXPOSURES, &no_exposures));
   if (e) {
      free(e);
      free(p);
      return VK_ERROR_SURFACE_LOST_KHR;
   }
   size_t bytes = (size_t)extent.width * extent.height * 4;
   if (!shm_attach(p, bytes)) {
      p->pixels = malloc(bytes);
      if (!p->pixels) {
         xcb_free_gc(c, p->gc);
         free(p);
         return VK_ERROR_OUT_OF_HOST_MEMORY;
      }
   }
   *out = p;
   return VK_SUCCESS;
}

void vkppu_x11_presenter_destroy(struct vkppu_x11_presenter *p)
{
   if (!p)
      return;
   if (!xcb_connection_has_error(p->c)) {
      if (p->shm)
         xcb_shm_detach(p->c, p->seg);
      xcb_free_gc(p->c, p->gc);
      xcb_flush(p->c);
   }
   if (p->shm)
      shmdt(p->pixels);
   else
      free(p->pixels);
   free(p);
}

uint32_t *vkppu_x11_presenter_pixels(struct vkppu_x11_presenter *p)
{
   return p->pixels;
}

bool vkppu_x11_presenter_uses_shm(const struct vkppu_x11_presenter *p)
{
   return p->shm;
}

VkResult vkppu_x11_presenter_put(struct vkppu_x11_presenter *p)
{
   xcb_connection_t *c = p->c;
   if (xcb_connection_has_error(c))
      return VK_ERROR_SURFACE_LOST_KHR;
   uint32_t w = p->extent.width, h = p->extent.height;
   xcb_void_cookie_t last = {0};
   if (p->shm) {
      last = xcb_shm_put_image_checked(c, p->window, p->gc, (uint16_t)w, (uint16_t)h, 0, 0,
                                       (uint16_t)w, (uint16_t)h, 0, 0, p->depth,
                                       XCB_IMAGE_FORMAT_Z_PIXMAP, 0, p->seg, 0);
   } else {
      /* The request limit is in 4-byte units and counts the request's own
       * header (6 units for PutImage). */
      uint64_t limit = (uint64_t)xcb_get_maximum_request_length(c) * 4;
      uint64_t row_bytes = (uint64_t)w * 4;
      uint64_t rows = limit > 64 ? (limit - 64) / row_bytes : 1;
      if (rows == 0)
         rows = 1;
      for (uint32_t y = 0; y < h; y += (uint32_t)rows) {
         uint32_t n = h - y < rows ? h - y : (uint32_t)rows;
         xcb_void_cookie_t cookie = xcb_put_image_checked(
             c, XCB_IMAGE_FORMAT_Z_PIXMAP, p->window, p->gc, (uint16_t)w, (uint16_t)n, 0,
             (int16_t)y, 0, p->depth, (uint32_t)(n * row_bytes),
             (const uint8_t *)(p->pixels + (size_t)y * w));
         if (y + n < h)
            xcb_discard_reply(c, cookie.sequence); /* the last check covers it */
         else
            last = cookie;
      }
   }
   /* The round trip: when it returns the server has read the pixels, so
    * the buffer may be refilled. */
   xcb_generic_error_t *e = xcb_request_check(c, last);
   if (e) {
      free(e);
      return VK_ERROR_SURFACE_LOST_KHR;
   }
   return VK_SUCCESS;
}
