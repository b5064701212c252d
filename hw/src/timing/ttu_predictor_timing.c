/* See ttu_predictor_timing.h. */
#include "timing/ttu_predictor_timing.h"

#include <string.h>

static void ports_init(struct ppu_ttu_ports *p, uint32_t count)
{
   memset(p, 0, sizeof(*p));
   p->count = count == 0                            ? 1
              : count > PPU_TTU_PREDICTOR_PORTS_MAX ? PPU_TTU_PREDICTOR_PORTS_MAX
                                                    : count;
}

void ppu_ttu_predictor_timing_init(struct ppu_ttu_predictor_timing *pt,
                                   const struct ppu_ttu_predictor_config *cfg)
{
   memset(pt, 0, sizeof(*pt));
   ports_init(&pt->lookup, cfg->lookup_fifo);
   ports_init(&pt->update, cfg->update_fifo);
   pt->repacking = cfg->repacking != PPU_TTU_PREDICTOR_REPACKING_OFF;
   pt->timeout = cfg->collector_timeout_cycles;
}

uint64_t ppu_ttu_ports_serve(struct ppu_ttu_ports *p, uint64_t at)
{
   uint32_t k = 0;
   for (uint32_t i = 1; i < p->count; i++)
      if (p->free_at[i] < p->free_at[k])
         k = i;
   uint64_t served = at > p->free_at[k] ? at : p->free_at[k];
   p->free_at[k] = served + 1;
   return served;
}

/* The open group leaves: counted, and it no longer takes rays. */
static void close_group(struct ppu_ttu_predictor_timing *pt, bool timed_out, uint64_t *timeouts,
                        uint64_t *repacked)
{
   if (!pt->open)
      return;
   *repacked += 1;
   *timeouts += timed_out;
   pt->open = false;
}

uint64_t ppu_ttu_collector_add(struct ppu_ttu_predictor_timing *pt, uint64_t arrival,
                               uint64_t *timeouts, uint64_t *repacked)
{
   if (pt->open && arrival > pt->deadline)
      close_group(pt, true, timeouts, repacked);
   if (!pt->open) {
      pt->open = true;
      pt->rays = 0;
      pt->deadline = arrival + pt->timeout;
      pt->depart = pt->deadline;
      pt->merge.count = 0;
   }
   pt->rays++;
   uint64_t depart = pt->depart;
   if (pt->rays == PPU_TTU_REPACKED_WARP_SIZE) {
      depart = arrival;
      close_group(pt, false, timeouts, repacked);
   }
   return depart;
}

void ppu_ttu_predictor_timing_flush(struct ppu_ttu_predictor_timing *pt, uint64_t *timeouts,
                                    uint64_t *repacked)
{
   close_group(pt, true, timeouts, repacked);
}

uint64_t ppu_ttu_merge_lookup(struct ppu_ttu_merge_table *m, uint64_t line, uint64_t at,
                              bool *found)
{
   for (uint32_t i = 0; i < m->count; i++) {
      if (m->line[i] == line) {
         *found = m->requested[i] <= at;
         return *found && m->ready[i] > at ? m->ready[i] : at;
      }
   }
   *found = false;
   return at;
}

void ppu_ttu_merge_add(struct ppu_ttu_merge_table *m, uint64_t line, uint64_t requested,
                       uint64_t ready)
{
   uint32_t i = 0;
   while (i < m->count && m->line[i] != line)
      i++;
   if (i == m->count) {
      if (m->count == PPU_TTU_MERGE_LINES)
         return;
      m->count++;
   }
   m->line[i] = line;
   m->requested[i] = requested;
   m->ready[i] = ready;
}
