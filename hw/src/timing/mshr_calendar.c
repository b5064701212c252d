/* See mshr_calendar.h. */
#include "timing/mshr_calendar.h"

#include <stdlib.h>

bool ppu_mshr_calendar_init(struct ppu_mshr_calendar *c, uint32_t capacity)
{
   c->capacity = capacity ? capacity : 1;
   c->window = calloc(PPU_MSHR_WINDOWS, sizeof(*c->window));
   return c->window != NULL;
}

void ppu_mshr_calendar_finish(struct ppu_mshr_calendar *c)
{
   free(c->window);
   c->window = NULL;
}

/* The entry of window `index`, emptied when it held an older window; NULL
 * when the ring already holds a newer one (beyond the calendar's reach). */
static struct ppu_mshr_window *window_at(struct ppu_mshr_calendar *c, uint64_t index)
{
   struct ppu_mshr_window *w = &c->window[index % PPU_MSHR_WINDOWS];
   if (w->index_plus_1 > index + 1)
      return NULL;
   if (w->index_plus_1 != index + 1) {
      w->index_plus_1 = index + 1;
      w->busy = 0;
   }
   return w;
}

uint64_t ppu_mshr_calendar_first_free(struct ppu_mshr_calendar *c, uint64_t at)
{
   uint64_t index = at / PPU_MSHR_WINDOW_CYCLES;
   for (uint32_t n = 0; n < PPU_MSHR_WINDOWS; n++, index++) {
      struct ppu_mshr_window *w = window_at(c, index);
      if (!w || w->busy < c->capacity) {
         uint64_t from = index * PPU_MSHR_WINDOW_CYCLES;
         return from > at ? from : at;
      }
   }
   return at; /* every window of the reach full: cannot happen with finite misses */
}

void ppu_mshr_calendar_hold(struct ppu_mshr_calendar *c, uint64_t start, uint64_t end)
{
   uint64_t first = start / PPU_MSHR_WINDOW_CYCLES;
   uint64_t last = end > start ? (end - 1) / PPU_MSHR_WINDOW_CYCLES : first;
   if (last - first >= PPU_MSHR_WINDOWS)
      last = first + PPU_MSHR_WINDOWS - 1;
   for (uint64_t index = first; index <= last; index++) {
      struct ppu_mshr_window *w = window_at(c, index);
      if (w)
         w->busy++;
   }
}
