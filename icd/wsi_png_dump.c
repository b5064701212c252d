/* The headless PNG dump: with VKPPU_PRESENT_PNG set, the presentation
 * thread writes presented frames as PNG files so that a headless run can
 * be looked at (docs/wsi.md). Frames are written by the PNG writer the
 * samples use (samples/common/png_write.c, compiled into the driver).
 *
 *   VKPPU_PRESENT_PNG=dir          dir/swapchain<S>-frame<NNNNNN>.png
 *   VKPPU_PRESENT_PNG=path.png     the path, with %s replaced by the
 *                                  swapchain number and %f by the frame
 *                                  number (without %f each frame replaces
 *                                  the last)
 *   VKPPU_PRESENT_PNG_EVERY=N      only frames 0, N, 2N, ... (default 1)
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "png_write.h"
#include "vkppu_wsi.h"

void vkppu_png_dump_init(struct vkppu_png_dump *dump)
{
   static atomic_uint next_swapchain_id;
   memset(dump, 0, sizeof(*dump));
   const char *pattern = getenv("VKPPU_PRESENT_PNG");
   if (!pattern || !*pattern || strlen(pattern) >= sizeof(dump->pattern))
      return;
   snprintf(dump->pattern, sizeof(dump->pattern), "%s", pattern);
   dump->every = 1;
   const char *every = getenv("VKPPU_PRESENT_PNG_EVERY");
   if (every && *every) {
      char *end;
      unsigned long n = strtoul(every, &end, 10);
      if (*end == '\0' && n >= 1 && n <= UINT32_MAX)
         dump->every = (uint32_t)n;
   }
   dump->swapchain_id = atomic_fetch_add(&next_swapchain_id, 1);
   dump->enabled = true;
}

static bool ends_with_png(const char *s)
{
   size_t n = strlen(s);
   return n >= 4 && strcmp(s + n - 4, ".png") == 0;
}

/* The file name of a frame; false when it does not fit. The pattern is
 * the user's text, so it is never used as a printf format. */
static bool frame_path(const struct vkppu_png_dump *dump, uint64_t frame, char *out, size_t size)
{
   if (!ends_with_png(dump->pattern)) {
      /* A directory: made if missing (its parent must exist). */
      if (mkdir(dump->pattern, 0755) != 0 && errno != EEXIST)
         return false;
      int n = snprintf(out, size, "%s/swapchain%u-frame%06llu.png", dump->pattern,
                       dump->swapchain_id, (unsigned long long)frame);
      return n > 0 && (size_t)n < size;
   }
   size_t o = 0;
   for (const char *p = dump->pattern; *p; p++) {
      char number[24] = "";
      if (p[0] == '%' && p[1] == 'f')
         snprintf(number, sizeof(number), "%06llu", (unsigned long long)frame);
      else if (p[0] == '%' && p[1] == 's')
         snprintf(number, sizeof(number), "%u", dump->swapchain_id);
      if (number[0]) {
         size_t len = strlen(number);
         if (o + len >= size)
            return false;
         memcpy(out + o, number, len);
         o += len;
         p++;
      } else {
         if (o + 1 >= size)
            return false;
         out[o++] = *p;
      }
   }
   out[o] = '\0';
   return true;
}

void vkppu_png_dump_frame(struct vkppu_instance *inst, const struct vkppu_png_dump *dump,
                          uint64_t frame, const uint8_t *rgba, uint32_t width, uint32_t height)
{
   if (!dump->enabled || frame % dump->every != 0)
      return;
   char path[sizeof(dump->pattern) + 64];
   if (!frame_path(dump, frame, path, sizeof(path))) {
      vkppu_report(inst, VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
                   "VKPPU_PRESENT_PNG=%s: cannot make a file name for frame %llu", dump->pattern,
                   (unsigned long long)frame);
      return;
   }
   /* png_rgba_write says on stderr what failed. */
   png_rgba_write(path, rgba, width, height);
}
