/* What the profiler records: around every submit and present it reads the
 * chip's counters (vkGetCountersVKPPU) before, calls down, waits for the
 * queue, reads them after, and keeps the difference as that call's row.
 * Waiting makes the difference exactly that submission's work, and the
 * device lock makes submissions from several threads take turns: profiling
 * serializes the application's GPU work (docs/profiler.md). Rows between two
 * presents form a frame; each frame's ray cost map becomes a heat map. */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "profiler.h"

/* The ray cost plane the layer asks for: any dispatch up to 2048 x 2048
 * invocations maps whole (16 MiB of VRAM); larger ones are clipped. */
#define RAY_COST_PLANE 2048u

static double now_seconds(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *grow(void *array, uint32_t *capacity, uint32_t count, size_t size)
{
   if (count < *capacity)
      return array;
   uint32_t n = *capacity ? *capacity * 2 : 64;
   void *p = realloc(array, (size_t)n * size);
   if (p)
      *capacity = n;
   return p;
}

/* Creates dir and any missing parent, as mkdir -p does: the output folder
 * is often named inside one that the run has not made yet. */
static bool make_dir(const char *dir)
{
   char path[4096];
   if (snprintf(path, sizeof(path), "%s", dir) >= (int)sizeof(path)) {
      fprintf(stderr, PROFILER_LAYER_NAME ": output folder name too long: %s\n", dir);
      return false;
   }
   for (char *p = path + 1; *p; p++) {
      if (*p != '/')
         continue;
      *p = '\0';
      if (mkdir(path, 0777) != 0 && errno != EEXIST)
         break; /* the full path's mkdir below reports it */
      *p = '/';
   }
   if (mkdir(dir, 0777) == 0 || errno == EEXIST)
      return true;
   fprintf(stderr, PROFILER_LAYER_NAME ": cannot create %s: %s\n", dir, strerror(errno));
   return false;
}

bool prof_device_begin(struct prof_device *d)
{
   uint32_t n = 0;
   if (!d->GetCounters || d->GetCounters(d->device, &n, NULL, NULL, NULL) != VK_SUCCESS || !n) {
      static bool warned;
      if (!warned)
         fprintf(stderr,
                 PROFILER_LAYER_NAME ": %s is not a vkppu device; passing everything through\n",
                 d->name);
      warned = true;
      return false;
   }
   /* The process's first vkppu device writes into the directory itself;
    * every later one (a second device, or a second instance's) into a
    * numbered folder inside it, so that no device overwrites another's. */
   static atomic_uint devices_begun;
   unsigned sequence = atomic_fetch_add(&devices_begun, 1);
   const char *dir = getenv("VKPPU_PROFILER_DIR");
   const char *base = dir && dir[0] ? dir : "vkppu-profile";
   if (sequence == 0)
      snprintf(d->dir, sizeof(d->dir), "%s", base);
   else if (make_dir(base))
      snprintf(d->dir, sizeof(d->dir), "%s/device%u", base, sequence);
   else
      return false;
   d->counter_count = n;
   d->counter_names = calloc(n, sizeof(char *));
   d->counter_units = calloc(n, sizeof(char *));
   d->last = calloc(n, sizeof(uint64_t));
   d->at_creation = calloc(n, sizeof(uint64_t));
   if (!d->counter_names || !d->counter_units || !d->last || !d->at_creation || !make_dir(d->dir)) {
      free(d->counter_names);
      free(d->counter_units);
      free(d->last);
      free(d->at_creation);
      return false;
   }
   d->GetCounters(d->device, &n, d->last, d->counter_names, d->counter_units);
   memcpy(d->at_creation, d->last, n * sizeof(uint64_t));
   d->start_seconds = now_seconds();
   PFN_vkSetRayCostRecordingVKPPU set_ray_cost =
       (PFN_vkSetRayCostRecordingVKPPU)d->next_gdpa(d->device, "vkSetRayCostRecordingVKPPU");
   if (!set_ray_cost || set_ray_cost(d->device, RAY_COST_PLANE, RAY_COST_PLANE) != VK_SUCCESS) {
      fprintf(stderr, PROFILER_LAYER_NAME ": no ray cost plane; no heat maps\n");
      d->ReadRayCost = NULL;
   }
   return true;
}

/* Adds the words of src to dst, growing dst to cover src (the plane's used
 * part only grows, so dst's rows keep their coordinates). */
static void cost_map_add(struct prof_cost_map *dst, const struct prof_cost_map *src)
{
   if (src->width > dst->width || src->height > dst->height) {
      uint32_t w = src->width > dst->width ? src->width : dst->width;
      uint32_t h = src->height > dst->height ? src->height : dst->height;
      uint32_t *n = calloc((size_t)w * h, sizeof(uint32_t));
      if (!n)
         return;
      for (uint32_t y = 0; y < dst->height; y++)
         memcpy(n + (size_t)y * w, dst->nodes + (size_t)y * dst->width,
                dst->width * sizeof(uint32_t));
      free(dst->nodes);
      *dst = (struct prof_cost_map){.width = w, .height = h, .nodes = n};
   }
   for (uint32_t y = 0; y < src->height; y++)
      for (uint32_t x = 0; x < src->width; x++)
         dst->nodes[(size_t)y * dst->width + x] += src->nodes[(size_t)y * src->width + x];
}

/* The nodes the ray cost plane received since the last read; adds them to
 * the frame's map and clears the plane. */
static uint64_t take_ray_cost(struct prof_device *d)
{
   uint32_t w = 0, h = 0;
   if (!d->ReadRayCost || d->ReadRayCost(d->device, &w, &h, NULL, VK_FALSE) != VK_SUCCESS || !w ||
       !h)
      return 0;
   struct prof_cost_map *s = &d->scratch;
   if ((size_t)w * h > (size_t)s->width * s->height) {
      free(s->nodes);
      s->nodes = malloc((size_t)w * h * sizeof(uint32_t));
      if (!s->nodes) {
         s->width = s->height = 0;
         return 0;
      }
   }
   s->width = w;
   s->height = h;
   d->ReadRayCost(d->device, &w, &h, s->nodes, VK_TRUE);
   uint64_t sum = 0;
   for (size_t i = 0; i < (size_t)w * h; i++)
      sum += s->nodes[i];
   if (sum)
      cost_map_add(&d->frame_cost, s);
   return sum;
}

/* The row for a call that has returned and whose queue is idle. */
static void add_row(struct prof_device *d, enum prof_row_kind kind, double begin)
{
   uint64_t *now = malloc(d->counter_count * sizeof(uint64_t));
   struct prof_row *rows = grow(d->rows, &d->row_capacity, d->row_count, sizeof(*rows));
   if (!now || !rows) {
      free(now);
      return;
   }
   d->rows = rows;
   uint32_t n = d->counter_count;
   d->GetCounters(d->device, &n, now, NULL, NULL);
   struct prof_row *r = &rows[d->row_count++];
   *r = (struct prof_row){.kind = kind,
                          .frame = d->frame_count,
                          .begin_us = (begin - d->start_seconds) * 1e6,
                          .end_us = (now_seconds() - d->start_seconds) * 1e6,
                          .ray_cost_sum = take_ray_cost(d),
                          .delta = now};
   for (uint32_t i = 0; i < d->counter_count; i++) {
      uint64_t v = now[i];
      r->delta[i] = v - d->last[i];
      d->last[i] = v;
   }
}

/* The heat map is cropped to the presented swapchain's extent, else to the
 * latest storage image's, when that extent is what the dispatches covered
 * rounded up to whole workgroups (at most 64 invocations more a side). */
static bool covers(struct prof_extent e, const struct prof_cost_map *m)
{
   return e.width && e.height && e.width <= m->width && m->width - e.width < 64 &&
          e.height <= m->height && m->height - e.height < 64;
}

/* Closes the current frame (its rows so far) and starts the next. */
static void end_frame(struct prof_device *d)
{
   uint32_t first = d->frame_count ? d->frames[d->frame_count - 1].first_row +
                                         d->frames[d->frame_count - 1].row_count
                                   : 0;
   if (first == d->row_count)
      return; /* nothing happened since the last one */
   struct prof_frame *frames = grow(d->frames, &d->frame_capacity, d->frame_count, sizeof(*frames));
   uint64_t *delta = calloc(d->counter_count, sizeof(uint64_t));
   if (!frames || !delta) {
      free(delta);
      return;
   }
   d->frames = frames;
   struct prof_frame *f = &frames[d->frame_count];
   *f = (struct prof_frame){.first_row = first, .row_count = d->row_count - first, .delta = delta};
   for (uint32_t r = first; r < d->row_count; r++) {
      d->rows[r].frame = d->frame_count;
      for (uint32_t i = 0; i < d->counter_count; i++)
         delta[i] += d->rows[r].delta[i];
   }
   if (d->frame_cost.width) {
      struct prof_extent crop = {0, 0};
      if (d->presented_swapchain && covers(d->swapchain, &d->frame_cost))
         crop = d->swapchain;
      else if (covers(d->storage_image, &d->frame_cost))
         crop = d->storage_image;
      prof_write_heatmap(d, f, d->frame_count, &d->frame_cost, crop);
      memset(d->frame_cost.nodes, 0,
             (size_t)d->frame_cost.width * d->frame_cost.height * sizeof(uint32_t));
   }
   d->presented_swapchain = false;
   d->frame_count++;
}

void prof_device_end(struct prof_device *d)
{
   pthread_mutex_lock(&d->lock);
   end_frame(d); /* an application that never presents: the whole run is one frame */
   /* Work after the last row and before vkDestroyDevice (the tail of
    * asynchronous driver work, e.g. a host-assisted job's channel). */
   uint32_t n = d->counter_count;
   uint64_t *now = malloc(n * sizeof(uint64_t));
   if (now) {
      d->GetCounters(d->device, &n, now, NULL, NULL);
      for (uint32_t i = 0; i < n; i++)
         d->last[i] = now[i] - d->last[i];
      free(now);
   } else {
      memset(d->last, 0, n * sizeof(uint64_t));
   }
   prof_write_csv(d);
   prof_write_json(d);
   prof_write_trace(d);
   prof_write_plots(d);
   fprintf(stderr, PROFILER_LAYER_NAME ": %u submits, %u frames written to %s/\n", d->row_count,
           d->frame_count, d->dir);
   for (uint32_t i = 0; i < d->row_count; i++)
      free(d->rows[i].delta);
   for (uint32_t i = 0; i < d->frame_count; i++)
      free(d->frames[i].delta);
   free(d->rows);
   free(d->frames);
   free(d->frame_cost.nodes);
   free(d->scratch.nodes);
   free(d->last);
   free(d->at_creation);
   free(d->counter_names);
   free(d->counter_units);
   pthread_mutex_unlock(&d->lock);
}

/* Calls down (submit), waits for the queue and records the row. */
#define PROFILED_CALL(queue, kind, call)                                                           \
   do {                                                                                            \
      struct prof_device *d = prof_device_of(queue);                                               \
      if (!d || !d->GetCounters)                                                                   \
         return d ? (call) : VK_ERROR_INITIALIZATION_FAILED;                                       \
      pthread_mutex_lock(&d->lock);                                                                \
      double begin = now_seconds();                                                                \
      VkResult r = (call);                                                                         \
      if (r == VK_SUCCESS || r == VK_SUBOPTIMAL_KHR) {                                             \
         d->QueueWaitIdle(queue);                                                                  \
         add_row(d, kind, begin);                                                                  \
      }                                                                                            \
      if ((kind) == PROF_ROW_PRESENT)                                                              \
         end_frame(d);                                                                             \
      pthread_mutex_unlock(&d->lock);                                                              \
      return r;                                                                                    \
   } while (0)

VKAPI_ATTR VkResult VKAPI_CALL prof_QueueSubmit(VkQueue queue, uint32_t submitCount,
                                                const VkSubmitInfo *pSubmits, VkFence fence)
{
   PROFILED_CALL(queue, PROF_ROW_SUBMIT, d->QueueSubmit(queue, submitCount, pSubmits, fence));
}

VKAPI_ATTR VkResult VKAPI_CALL prof_QueueSubmit2(VkQueue queue, uint32_t submitCount,
                                                 const VkSubmitInfo2 *pSubmits, VkFence fence)
{
   PROFILED_CALL(queue, PROF_ROW_SUBMIT, d->QueueSubmit2(queue, submitCount, pSubmits, fence));
}

VKAPI_ATTR VkResult VKAPI_CALL prof_QueueSubmit2KHR(VkQueue queue, uint32_t submitCount,
                                                    const VkSubmitInfo2 *pSubmits, VkFence fence)
{
   PROFILED_CALL(queue, PROF_ROW_SUBMIT, d->QueueSubmit2KHR(queue, submitCount, pSubmits, fence));
}

VKAPI_ATTR VkResult VKAPI_CALL prof_QueuePresentKHR(VkQueue queue,
                                                    const VkPresentInfoKHR *pPresentInfo)
{
   struct prof_device *d = prof_device_of(queue);
   if (d && d->GetCounters) {
      pthread_mutex_lock(&d->lock);
      d->presented_swapchain = true;
      pthread_mutex_unlock(&d->lock);
   }
   PROFILED_CALL(queue, PROF_ROW_PRESENT, d->QueuePresentKHR(queue, pPresentInfo));
}

static void note_extent(struct prof_device *d, struct prof_extent *field, uint32_t width,
                        uint32_t height)
{
   pthread_mutex_lock(&d->lock);
   *field = (struct prof_extent){width, height};
   pthread_mutex_unlock(&d->lock);
}

VKAPI_ATTR VkResult VKAPI_CALL prof_CreateImage(VkDevice device,
                                                const VkImageCreateInfo *pCreateInfo,
                                                const VkAllocationCallbacks *pAllocator,
                                                VkImage *pImage)
{
   struct prof_device *d = prof_device_of(device);
   if (!d)
      return VK_ERROR_INITIALIZATION_FAILED;
   VkResult r = d->CreateImage(device, pCreateInfo, pAllocator, pImage);
   if (r == VK_SUCCESS && (pCreateInfo->usage & VK_IMAGE_USAGE_STORAGE_BIT) &&
       pCreateInfo->imageType == VK_IMAGE_TYPE_2D)
      note_extent(d, &d->storage_image, pCreateInfo->extent.width, pCreateInfo->extent.height);
   return r;
}

VKAPI_ATTR VkResult VKAPI_CALL prof_CreateSwapchainKHR(VkDevice device,
                                                       const VkSwapchainCreateInfoKHR *pCreateInfo,
                                                       const VkAllocationCallbacks *pAllocator,
                                                       VkSwapchainKHR *pSwapchain)
{
   struct prof_device *d = prof_device_of(device);
   if (!d)
      return VK_ERROR_INITIALIZATION_FAILED;
   VkResult r = d->CreateSwapchainKHR(device, pCreateInfo, pAllocator, pSwapchain);
   if (r == VK_SUCCESS)
      note_extent(d, &d->swapchain, pCreateInfo->imageExtent.width,
                  pCreateInfo->imageExtent.height);
   return r;
}
