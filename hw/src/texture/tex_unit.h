/* The texture unit of one SM: the units of the seed (US 9,171,525) wired
 * together. The SM stores a batch of texture operations' coordinates in
 * the texture queue; the queue drains quads in TexTile or QuadTex order;
 * the texture address unit turns each quad into a texel footprint, which
 * waits in the texture latency FIFO, the filtering unit reads the texels
 * through the texture cache and filters them, and the final values go to
 * the texture return buffer under the operation's texture identifier,
 * from where the SM copies them to the destination registers with the
 * last-use bit set. This file owns no unit's logic, only the order in
 * which they run. docs/texture-unit.md describes the whole.
 */
#ifndef PPU_TEXTURE_TEX_UNIT_H
#define PPU_TEXTURE_TEX_UNIT_H

#include <stdbool.h>
#include <stdint.h>

#include "counter_block.h"
#include "mmu.h"
#include "texture/tex_address.h"
#include "texture/tex_cache.h"
#include "texture/tex_latency_fifo.h"
#include "texture/tex_queue.h"
#include "texture/tex_trb.h"

/* One texture operation of a batch: one warp instruction's worth. */
struct ppu_tex_op {
   struct ppu_tex_instr instr;
   uint32_t active;  /* lanes that want a result */
   uint32_t headers; /* lanes whose headers below are valid */
   bool sampled;     /* smp[] is used (TEX, TLD4) */
   struct ppu_texture_header tex[PPU_WARP_SIZE];
   struct ppu_sampler_header smp[PPU_WARP_SIZE];
};

struct ppu_tex_unit {
   struct ppu_tex_cache cache;
   struct ppu_tex_queue queue;
   struct ppu_tex_latency_fifo fifo;
   struct ppu_tex_trb trb;
   enum ppu_tex_drain_order order;
   struct ppu_tex_op op[PPU_TEX_QUEUE_MAX_OPS];
   struct ppu_counter_block *counters;
};

/* Receives the final values of one quad of one operation, read from the
 * TRB with the last-use bit: value[lane of the quad][component]. */
typedef void (*ppu_tex_consume_fn)(void *ctx, unsigned op, unsigned quad,
                                   const uint32_t value[4][4]);

void ppu_tex_unit_init(struct ppu_tex_unit *u, struct ppu_mmu_client *mmu,
                       struct ppu_counter_block *counters);
/* Called at every grid launch: images may have changed in between. */
void ppu_tex_unit_begin_grid(struct ppu_tex_unit *u);
void ppu_tex_unit_begin_batch(struct ppu_tex_unit *u);
/* Adds an operation with `words` coordinate words per lane to the batch;
 * NULL when the batch is full. Its index is the pointer's offset in u->op;
 * the caller fills active, headers, tex/smp and stores the coordinates
 * with ppu_tex_queue_store. */
struct ppu_tex_op *ppu_tex_unit_add_op(struct ppu_tex_unit *u, const struct ppu_tex_instr *instr,
                                       unsigned words);
/* Runs the batch to its end in u->order; every quad's values reach
 * consume (in TRB order: oldest first). False with *fault filled in when a
 * texel cannot be read. */
bool ppu_tex_unit_run(struct ppu_tex_unit *u, uint64_t pd_pa, ppu_tex_consume_fn consume, void *ctx,
                      struct ppu_fault *fault);

#endif
