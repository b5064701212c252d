/* vkQueuePresentKHR and the presentation thread of each swapchain.
 *
 * vkQueuePresentKHR waits (on the host, woken by the chip's semaphore
 * interrupts) until the present's wait semaphores are signalled, so the
 * GPU work that made the image is done, then queues the image for the
 * swapchain's thread and returns. Waiting in the call rather than in the
 * thread means the thread never holds a semaphore the application may
 * destroy once vkQueuePresentKHR returned and its fences signalled.
 *
 * The thread takes presented images in order, reads each out of VRAM
 * through the BAR (untiling block-linear images), gives it to the X
 * window or the PNG dump, and frees it for acquire. There is no vertical
 * blank, so FIFO and IMMEDIATE both show every image as soon as the
 * previous one is out; MAILBOX shows only the newest queued image and
 * frees the older ones unshown. */
#include <stdio.h>
#include <stdlib.h>

#include "drv_device.h"
#include "gpu_memory.h"
#include "vkppu_image.h"
#include "vkppu_memory.h"
#include "vkppu_queue.h"
#include "vkppu_sync.h"
#include "vkppu_wsi.h"
#include "wait.h"

/* ---- reading an image ---- */

/* Copies `count` 4-byte texels, exchanging bytes 0 and 2 (R and B) and
 * making alpha 255 as asked. */
static void convert_texels(uint8_t *dst, const uint8_t *src, uint32_t count, bool swap_rb,
                           bool opaque)
{
   if (!swap_rb && !opaque) {
      memcpy(dst, src, (size_t)count * 4);
      return;
   }
   for (uint32_t i = 0; i < count; i++, dst += 4, src += 4) {
      dst[0] = src[swap_rb ? 2 : 0];
      dst[1] = src[1];
      dst[2] = src[swap_rb ? 0 : 2];
      dst[3] = opaque ? 255 : src[3];
   }
}

/* The image's texels, rows top to bottom, tightly packed. */
static void read_image(const struct vkppu_swapchain *sc, uint32_t index, uint8_t *dst, bool swap_rb,
                       bool opaque)
{
   const struct vkppu_image *img = vkppu_image_from_handle(sc->images[index].image);
   const uint8_t *base = img->memory->bo->map + img->memory_offset;
   const struct ppu_texture_header *h = &img->whole;
   uint32_t width = sc->extent.width, row_bytes = width * 4;
   for (uint32_t y = 0; y < sc->extent.height; y++, dst += row_bytes) {
      if (h->layout == PPU_TEX_LAYOUT_LINEAR) {
         convert_texels(dst, base + (size_t)y * h->row_pitch, width, swap_rb, opaque);
         continue;
      }
      /* Block-linear: a row is contiguous within each GOB's 64 bytes. */
      for (uint32_t x = 0; x < row_bytes; x += PPU_GOB_WIDTH_BYTES) {
         uint32_t n = row_bytes - x < PPU_GOB_WIDTH_BYTES ? row_bytes - x : PPU_GOB_WIDTH_BYTES;
         convert_texels(dst + x, base + ppu_tex_byte_offset(h, 0, 0, x, y, 0), n / 4, swap_rb,
                        opaque);
      }
   }
}

/* ---- the presentation thread ---- */

/* Shows one image: into the window, or into the PNG dump. */
static VkResult show(struct vkppu_swapchain *sc, uint32_t index)
{
   bool bgra = vkppu_wsi_format_is_bgra(sc->format);
   uint64_t frame = sc->frames_shown++;
   VkResult r = VK_SUCCESS;
   if (sc->x11) {
      /* X wants B, G, R, X bytes (wsi_x11.c checks the visual). */
      read_image(sc, index, (uint8_t *)vkppu_x11_presenter_pixels(sc->x11), !bgra, sc->opaque);
      r = vkppu_x11_presenter_put(sc->x11);
   }
   /* Window swapchains dump too when asked: a test can then check what an
    * unmodified windowed program (vkcube) showed without grabbing the
    * screen. */
   if (sc->png.enabled && frame % sc->png.every == 0) {
      read_image(sc, index, sc->rgba, bgra, sc->opaque);
      vkppu_png_dump_frame(sc->dev->instance, &sc->png, frame, sc->rgba, sc->extent.width,
                           sc->extent.height);
   }
   return r;
}

/* Called with the lock held: the image at the head of the queue is done. */
static void release_head(struct vkppu_swapchain *sc)
{
   uint32_t index = sc->queue[0];
   sc->queue_count--;
   memmove(sc->queue, sc->queue + 1, sc->queue_count * sizeof(sc->queue[0]));
   sc->images[index].state = VKPPU_IMAGE_FREE;
   sc->free_order[sc->free_count++] = index;
   pthread_cond_broadcast(&sc->changed);
}

static void *presentation_thread(void *arg)
{
   struct vkppu_swapchain *sc = arg;
   pthread_mutex_lock(&sc->lock);
   /* Presented images are shown before the thread stops, so that the last
    * frames of a program reach the window or the dump. */
   while (!sc->stop || sc->queue_count > 0) {
      if (sc->queue_count == 0) {
         pthread_cond_wait(&sc->changed, &sc->lock);
         continue;
      }
      if (sc->present_mode == VK_PRESENT_MODE_MAILBOX_KHR && sc->queue_count > 1) {
         /* A newer image replaced this one before it was shown. */
         sc->frames_skipped++;
         release_head(sc);
         continue;
      }
      uint32_t index = sc->queue[0];
      bool show_it = sc->status == VK_SUCCESS && sc->images[index].show;
      pthread_mutex_unlock(&sc->lock);
      uint64_t start = drv_now_ns();
      VkResult r = show_it ? show(sc, index) : VK_SUCCESS;
      if (show_it) {
         uint64_t end = drv_now_ns(), latency = end - sc->images[index].queued_ns;
         sc->show_sum_ns += end - start;
         sc->latency_sum_ns += latency;
         if (latency > sc->latency_max_ns)
            sc->latency_max_ns = latency;
      }
      pthread_mutex_lock(&sc->lock);
      if (r != VK_SUCCESS && sc->status == VK_SUCCESS)
         sc->status = r;
      release_head(sc);
   }
   pthread_mutex_unlock(&sc->lock);
   return NULL;
}

VkResult vkppu_swapchain_start_presenting(struct vkppu_swapchain *sc)
{
   if (sc->x11_connection) {
      VkResult r =
          vkppu_x11_presenter_create(sc->x11_connection, sc->x11_window, sc->extent, &sc->x11);
      if (r != VK_SUCCESS)
         return r;
   }
   vkppu_png_dump_init(&sc->png);
   if (sc->png.enabled) {
      sc->rgba = malloc((size_t)sc->extent.width * sc->extent.height * 4);
      if (!sc->rgba)
         return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   if (pthread_create(&sc->thread, NULL, presentation_thread, sc) != 0)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   sc->thread_started = true;
   return VK_SUCCESS;
}

/* VKPPU_WSI_STATS=1: one line on stderr per swapchain when it goes. */
static void print_stats(const struct vkppu_swapchain *sc)
{
   const char *stats = getenv("VKPPU_WSI_STATS");
   if (!stats || !*stats || *stats == '0')
      return;
   uint64_t n = sc->frames_shown ? sc->frames_shown : 1;
   fprintf(stderr,
           "vkppu: swapchain %ux%u (%s): %llu frames shown, %llu replaced unshown; "
           "present to shown %.3f ms on average, %.3f ms at most; read-out and put %.3f ms\n",
           sc->extent.width, sc->extent.height,
           sc->x11 ? (vkppu_x11_presenter_uses_shm(sc->x11) ? "x11 mit-shm" : "x11 put-image")
           : sc->png.enabled ? "headless, png"
                             : "headless",
           (unsigned long long)sc->frames_shown, (unsigned long long)sc->frames_skipped,
           sc->latency_sum_ns / 1e6 / n, sc->latency_max_ns / 1e6, sc->show_sum_ns / 1e6 / n);
}

void vkppu_swapchain_stop_presenting(struct vkppu_swapchain *sc)
{
   if (sc->thread_started) {
      pthread_mutex_lock(&sc->lock);
      sc->stop = true;
      pthread_cond_broadcast(&sc->changed);
      pthread_mutex_unlock(&sc->lock);
      pthread_join(sc->thread, NULL);
      sc->thread_started = false;
      print_stats(sc);
   }
   vkppu_x11_presenter_destroy(sc->x11);
   sc->x11 = NULL;
   free(sc->rgba);
   sc->rgba = NULL;
}

/* ---- vkQueuePresentKHR ---- */

struct present_wait {
   const struct drv_slot *const *slots;
   const uint64_t *values;
   uint32_t count;
};

static bool semaphores_reached(void *ctx)
{
   const struct present_wait *w = ctx;
   for (uint32_t i = 0; i < w->count; i++) {
      if (drv_slot_read(w->slots[i]) < w->values[i])
         return false;
   }
   return true;
}

static VkResult wait_semaphores(struct vkppu_device *dev, const VkPresentInfoKHR *info)
{
   uint32_t n = info->waitSemaphoreCount;
   if (n == 0)
      return VK_SUCCESS;
   const struct drv_slot **slots = malloc(n * sizeof(*slots));
   uint64_t *values = malloc(n * sizeof(*values));
   VkResult r = VK_ERROR_OUT_OF_HOST_MEMORY;
   if (slots && values) {
      for (uint32_t i = 0; i < n; i++) {
         struct vkppu_semaphore *sem = vkppu_semaphore_from_handle(info->pWaitSemaphores[i]);
         slots[i] = &sem->slot;
         values[i] = vkppu_semaphore_wait_value(sem, 0);
      }
      struct present_wait w = {slots, values, n};
      r = vkppu_device_result(dev, drv_wait(dev->drv, semaphores_reached, &w, DRV_DEADLINE_NEVER));
   }
   free(slots);
   free(values);
   return r;
}

/* The one swapchain's part of a present: queue the image, to be shown
 * if `show` and nothing is wrong with the swapchain, else released
 * unshown; the result says why it was not shown. */
static VkResult present_one(struct vkppu_swapchain *sc, uint32_t index, bool show)
{
   /* An X window whose size changed no longer matches the images; tell
    * the application to make a new swapchain (the spec's OUT_OF_DATE,
    * rather than SUBOPTIMAL: currentExtent is the window's size). */
   VkResult check = VK_SUCCESS;
   if (sc->x11_connection) {
      VkExtent2D extent;
      check = vkppu_x11_window_extent(sc->x11_connection, sc->x11_window, &extent);
      if (check == VK_SUCCESS &&
          (extent.width != sc->extent.width || extent.height != sc->extent.height))
         check = VK_ERROR_OUT_OF_DATE_KHR;
   }
   pthread_mutex_lock(&sc->lock);
   if (index >= sc->image_count || sc->images[index].state != VKPPU_IMAGE_ACQUIRED) {
      /* Invalid usage (VUID-VkPresentInfoKHR-pImageIndices-01430); refuse
       * rather than queue an image twice. */
      pthread_mutex_unlock(&sc->lock);
      return VK_ERROR_OUT_OF_DATE_KHR;
   }
   if (check != VK_SUCCESS && sc->status == VK_SUCCESS)
      sc->status = check;
   VkResult r = sc->status;
   /* Queued even when it will not be shown: the thread frees images in
    * present order, so FIFO order of acquisition holds. */
   sc->images[index].state = VKPPU_IMAGE_QUEUED;
   sc->images[index].show = show && r == VK_SUCCESS;
   sc->images[index].queued_ns = drv_now_ns();
   sc->queue[sc->queue_count++] = index;
   pthread_cond_broadcast(&sc->changed);
   pthread_mutex_unlock(&sc->lock);
   return r;
}

/* Which of two results vkQueuePresentKHR returns: errors before
 * SUBOPTIMAL before SUCCESS, the more serious error first. */
static int severity(VkResult r)
{
   switch (r) {
   case VK_SUCCESS:
      return 0;
   case VK_SUBOPTIMAL_KHR:
      return 1;
   case VK_ERROR_OUT_OF_DATE_KHR:
      return 2;
   case VK_ERROR_SURFACE_LOST_KHR:
      return 3;
   default:
      return 4;
   }
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_QueuePresentKHR(VkQueue queue,
                                                     const VkPresentInfoKHR *pPresentInfo)
{
   VKPPU_FROM_HANDLE(vkppu_queue, q, queue);
   struct vkppu_device *dev = q->base.device;
   VkResult r = vkppu_device_check_lost(dev);
   if (r == VK_SUCCESS)
      r = wait_semaphores(dev, pPresentInfo);
   VkResult overall = r;
   for (uint32_t i = 0; i < pPresentInfo->swapchainCount; i++) {
      struct vkppu_swapchain *sc = vkppu_swapchain_from_handle(pPresentInfo->pSwapchains[i]);
      /* After a failed wait (device lost) the images are still given
       * back, unshown, so the application can acquire again. */
      VkResult one = present_one(sc, pPresentInfo->pImageIndices[i], r == VK_SUCCESS);
      if (r != VK_SUCCESS)
         one = r;
      if (pPresentInfo->pResults)
         pPresentInfo->pResults[i] = one;
      if (severity(one) > severity(overall))
         overall = one;
   }
   return overall;
}
