/* See cache_model.h. */
#include "timing/cache_model.h"

#include <stdlib.h>
#include <string.h>

bool ppu_cache_model_init(struct ppu_cache_model *c, uint64_t size, uint32_t ways)
{
   memset(c, 0, sizeof(*c));
   uint64_t lines = size / PPU_CACHE_LINE_BYTES;
   if (ways == 0 || lines < ways)
      return false;
   c->ways = ways;
   c->sets = (uint32_t)(lines / ways);
   c->tag = calloc((size_t)c->sets * ways, sizeof(*c->tag));
   return c->tag != NULL;
}

void ppu_cache_model_finish(struct ppu_cache_model *c)
{
   free(c->tag);
   memset(c, 0, sizeof(*c));
}

void ppu_cache_model_flush(struct ppu_cache_model *c)
{
   memset(c->tag, 0, (size_t)c->sets * c->ways * sizeof(*c->tag));
}

struct ppu_cache_lookup ppu_cache_model_access(struct ppu_cache_model *c, uint64_t addr)
{
   struct ppu_cache_lookup r = {0};
   uint64_t line = addr / PPU_CACHE_LINE_BYTES;
   /* Modulo, not a mask: set counts need not be powers of two. */
   struct ppu_cache_line_tag *set = &c->tag[(size_t)(line % c->sets) * c->ways];
   struct ppu_cache_line_tag *victim = &set[0];
   c->stamp++;
   for (uint32_t w = 0; w < c->ways; w++) {
      if (set[w].line == line + 1) {
         set[w].last_use = c->stamp;
         r.hit = true;
         r.ready_at = set[w].ready_at;
         r.entry = &set[w];
         return r;
      }
      if (set[w].last_use < victim->last_use)
         victim = &set[w];
   }
   r.evicted_dirty = victim->line != 0 && victim->dirty;
   r.evicted_line = (victim->line - 1) * PPU_CACHE_LINE_BYTES;
   victim->line = line + 1;
   victim->last_use = c->stamp;
   victim->ready_at = 0;
   victim->requested_at = 0;
   victim->dirty = false;
   r.entry = victim;
   return r;
}
