/* See tex_queue.h. */
#include "texture/tex_queue.h"

#include <string.h>

void ppu_tex_queue_init(struct ppu_tex_queue *q, struct ppu_counter_block *counters)
{
   memset(q, 0, sizeof(*q));
   q->counters = counters;
}

void ppu_tex_queue_reset(struct ppu_tex_queue *q)
{
   q->ops = 0;
}

int ppu_tex_queue_add_op(struct ppu_tex_queue *q, unsigned words)
{
   if (q->ops == PPU_TEX_QUEUE_MAX_OPS || words > PPU_TEX_MAX_WORDS)
      return -1;
   q->words[q->ops] = words;
   return (int)q->ops++;
}

void ppu_tex_queue_store(struct ppu_tex_queue *q, unsigned op, unsigned k,
                         const uint32_t lanes[PPU_TEX_QUEUE_BANKS])
{
   if (op < q->ops && k < PPU_TEX_MAX_WORDS)
      memcpy(q->slot[op * PPU_TEX_MAX_WORDS + k], lanes, sizeof(q->slot[0]));
}

/* Cycles to read a group of items into the interface buffer beyond the
 * ideal one slot per 32 words: item (op, quad) reads words[op] words from
 * each of the banks 4 * quad .. 4 * quad + 3. */
static uint64_t group_conflicts(const struct ppu_tex_queue *q, const struct ppu_tex_queue_item *g,
                                unsigned n)
{
   unsigned per_bank[PPU_TEX_QUEUE_BANKS] = {0};
   unsigned words = 0, cycles = 0;
   for (unsigned i = 0; i < n; i++)
      for (unsigned l = 0; l < 4; l++) {
         per_bank[4 * g[i].quad + l] += q->words[g[i].op];
         words += q->words[g[i].op];
      }
   for (unsigned b = 0; b < PPU_TEX_QUEUE_BANKS; b++)
      cycles = per_bank[b] > cycles ? per_bank[b] : cycles;
   unsigned ideal = (words + PPU_TEX_QUEUE_BANKS - 1) / PPU_TEX_QUEUE_BANKS;
   return cycles > ideal ? cycles - ideal : 0;
}

unsigned ppu_tex_queue_drain(struct ppu_tex_queue *q, enum ppu_tex_drain_order order,
                             struct ppu_tex_queue_item *items)
{
   unsigned n = 0;
   for (unsigned outer = 0; outer < (order == PPU_TEX_DRAIN_TEXTILE ? q->ops : PPU_TEX_QUEUE_QUADS);
        outer++)
      for (unsigned inner = 0;
           inner < (order == PPU_TEX_DRAIN_TEXTILE ? PPU_TEX_QUEUE_QUADS : q->ops); inner++) {
         bool textile = order == PPU_TEX_DRAIN_TEXTILE;
         items[n].op = (uint8_t)(textile ? outer : inner);
         items[n].quad = (uint8_t)(textile ? inner : outer);
         n++;
      }
   /* The interface buffer takes items in drain order while they fit. */
   uint64_t conflicts = 0;
   for (unsigned start = 0; start < n;) {
      unsigned end = start, words = 0;
      while (end < n && (end == start ||
                         words + 4 * q->words[items[end].op] <= PPU_TEX_INTERFACE_BUFFER_WORDS)) {
         words += 4 * q->words[items[end].op];
         end++;
      }
      conflicts += group_conflicts(q, items + start, end - start);
      start = end;
   }
   ppu_counter_add(q->counters, PPU_COUNTER_TEX_QUEUE_BANK_CONFLICTS, conflicts);
   return n;
}

void ppu_tex_queue_read(const struct ppu_tex_queue *q, struct ppu_tex_queue_item item,
                        uint32_t words[4][PPU_TEX_MAX_WORDS])
{
   memset(words, 0, 4 * PPU_TEX_MAX_WORDS * sizeof(uint32_t));
   if (item.op >= q->ops || item.quad >= PPU_TEX_QUEUE_QUADS)
      return;
   for (unsigned k = 0; k < q->words[item.op]; k++)
      for (unsigned l = 0; l < 4; l++)
         words[l][k] = q->slot[item.op * PPU_TEX_MAX_WORDS + k][4 * item.quad + l];
}
