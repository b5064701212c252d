/* See tex_unit.h. */
#include "texture/tex_unit.h"

#include <string.h>

#include "host_bits.h"
#include "texture/tex_filter.h"

void ppu_tex_unit_init(struct ppu_tex_unit *u, struct ppu_mmu_client *mmu,
                       struct ppu_counter_block *counters)
{
   memset(u, 0, sizeof(*u));
   u->counters = counters;
   u->order = PPU_TEX_DRAIN_TEXTILE;
   ppu_tex_cache_init(&u->cache, mmu, counters);
   ppu_tex_queue_init(&u->queue, counters);
   ppu_tex_latency_fifo_init(&u->fifo);
   ppu_tex_trb_init(&u->trb, counters);
}

void ppu_tex_unit_begin_grid(struct ppu_tex_unit *u)
{
   ppu_tex_cache_flush(&u->cache);
}

void ppu_tex_unit_begin_batch(struct ppu_tex_unit *u)
{
   ppu_tex_queue_reset(&u->queue);
}

struct ppu_tex_op *ppu_tex_unit_add_op(struct ppu_tex_unit *u, const struct ppu_tex_instr *instr,
                                       unsigned words)
{
   int i = ppu_tex_queue_add_op(&u->queue, words);
   if (i < 0)
      return NULL;
   struct ppu_tex_op *op = &u->op[i];
   op->instr = *instr;
   op->active = op->headers = 0;
   op->sampled = instr->kind != PPU_TEX_KIND_FETCH;
   return op;
}

/* The texture identifier of a quad of an operation: unique within a batch
 * (8 operations x 8 quads = PPU_TEX_TRB_IDS). */
static unsigned texture_id(unsigned op, unsigned quad)
{
   return op * PPU_TEX_QUEUE_QUADS + quad;
}

/* Ready identifiers in the order the TRB received them. */
struct ready_list {
   uint8_t id[PPU_TEX_TRB_IDS];
   unsigned head, count;
};

static void consume_oldest(struct ppu_tex_unit *u, struct ready_list *r, ppu_tex_consume_fn consume,
                           void *ctx)
{
   unsigned id = r->id[r->head];
   r->head = (r->head + 1) % PPU_TEX_TRB_IDS;
   r->count--;
   uint32_t value[4][4];
   if (ppu_tex_trb_read(&u->trb, id, true, value))
      consume(ctx, id / PPU_TEX_QUEUE_QUADS, id % PPU_TEX_QUEUE_QUADS, value);
}

/* TAU: one drained item to the tail of the latency FIFO. */
static void address_item(struct ppu_tex_unit *u, struct ppu_tex_queue_item item)
{
   const struct ppu_tex_op *op = &u->op[item.op];
   struct ppu_tex_quad_input in;
   in.active = (op->active >> (4 * item.quad)) & 0xfu;
   for (unsigned l = 0; l < 4; l++) {
      unsigned lane = 4 * item.quad + l;
      bool has = (op->headers >> lane) & 1u;
      in.tex[l] = has ? &op->tex[lane] : NULL;
      in.smp[l] = has && op->sampled ? &op->smp[lane] : NULL;
   }
   ppu_tex_queue_read(&u->queue, item, in.words);
   ppu_counter_add(u->counters, PPU_COUNTER_TEX_REQUESTS, ppu_popcount32(in.active));
   struct ppu_tex_footprint *fp = ppu_tex_latency_fifo_tail(&u->fifo);
   ppu_tex_address_quad(&op->instr, &in, fp);
   fp->op = item.op;
   fp->quad = item.quad;
   fp->id = texture_id(item.op, item.quad);
   ppu_tex_latency_fifo_push(&u->fifo);
}

bool ppu_tex_unit_run(struct ppu_tex_unit *u, uint64_t pd_pa, ppu_tex_consume_fn consume, void *ctx,
                      struct ppu_fault *fault)
{
   struct ppu_tex_queue_item items[PPU_TEX_QUEUE_MAX_OPS * PPU_TEX_QUEUE_QUADS];
   unsigned n = ppu_tex_queue_drain(&u->queue, u->order, items);
   struct ready_list ready = {.head = 0, .count = 0};
   unsigned next = 0;
   bool ok = true;
   /* The TAU fills the latency FIFO; when it is full (or the queue is
    * drained) the TFU takes the oldest entry. */
   while (ok && (next < n || !ppu_tex_latency_fifo_empty(&u->fifo))) {
      if (next < n && !ppu_tex_latency_fifo_full(&u->fifo)) {
         address_item(u, items[next++]);
         continue;
      }
      const struct ppu_tex_footprint *fp = ppu_tex_latency_fifo_head(&u->fifo);
      uint32_t value[4][4];
      ok = ppu_tex_filter_quad(&u->cache, pd_pa, fp, u->counters, value, fault);
      if (ok) {
         /* Free list empty: the TFU stalls until the SM consumes a value. */
         while (!ppu_tex_trb_write(&u->trb, fp->id, value) && ready.count)
            consume_oldest(u, &ready, consume, ctx);
         ready.id[(ready.head + ready.count++) % PPU_TEX_TRB_IDS] = (uint8_t)fp->id;
      }
      ppu_tex_latency_fifo_pop(&u->fifo);
   }
   /* What is left in the TRB is consumed (and freed) in order, also after
    * a fault, so the next batch starts with an empty TRB. */
   while (ready.count)
      consume_oldest(u, &ready, consume, ctx);
   while (!ppu_tex_latency_fifo_empty(&u->fifo))
      ppu_tex_latency_fifo_pop(&u->fifo);
   return ok;
}
