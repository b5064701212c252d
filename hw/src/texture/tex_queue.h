/* The texture queue of one SM (seed US 9,171,525): coordinates of a batch
 * of texture operations are stored in SM memory, 32 banks of 32-bit words
 * written through the write crossbar one slot (1024 bits, one word per
 * bank) at a time, and drained through the read crossbar and the 512-byte
 * texture interface buffer to the texture units in one of two orders:
 *
 *   TexTile  every quad of operation 0, then every quad of operation 1, ...
 *            ("the texture coordinates for each of the quads ... in order
 *            for one texture operation at a time")
 *   QuadTex  every operation of quad 0, then every operation of quad 1, ...
 *            ("for each of the texture operations ... in order for one quad
 *            at a time"), which keeps one quad's texels in the cache.
 *
 * Layout: word k of operation t of lane l is in slot t * PPU_TEX_MAX_WORDS
 * + k, bank l (a lane's words all share its bank). The interface buffer
 * loads as many drained quads as fit (128 words) and reads them one word
 * per bank per cycle; every cycle beyond ceil(words / 32) is a bank
 * conflict (tex.queue_bank_conflicts). In functional mode the order only
 * changes the counters, never a result.
 */
#ifndef PPU_TEXTURE_TEX_QUEUE_H
#define PPU_TEXTURE_TEX_QUEUE_H

#include <stdint.h>

#include "counter_block.h"
#include "ppu/isa.h"
#include "texture/tex_address.h"

#define PPU_TEX_QUEUE_BANKS 32u
#define PPU_TEX_QUEUE_MAX_OPS 8u
#define PPU_TEX_QUEUE_QUADS (PPU_WARP_SIZE / 4)
#define PPU_TEX_INTERFACE_BUFFER_WORDS 128u /* 512 bytes (seed) */

enum ppu_tex_drain_order {
   PPU_TEX_DRAIN_TEXTILE = 0,
   PPU_TEX_DRAIN_QUADTEX = 1,
};

struct ppu_tex_queue_item {
   uint8_t op, quad;
};

struct ppu_tex_queue {
   unsigned ops;                          /* operations in the batch */
   unsigned words[PPU_TEX_QUEUE_MAX_OPS]; /* coordinate words of each */
   uint32_t slot[PPU_TEX_QUEUE_MAX_OPS * PPU_TEX_MAX_WORDS][PPU_TEX_QUEUE_BANKS];
   struct ppu_counter_block *counters;
};

void ppu_tex_queue_init(struct ppu_tex_queue *q, struct ppu_counter_block *counters);
/* Starts a new batch (the previous one has been drained). */
void ppu_tex_queue_reset(struct ppu_tex_queue *q);
/* Reserves room for one more operation of `words` words per lane; returns
 * its index, or -1 when the batch is full. */
int ppu_tex_queue_add_op(struct ppu_tex_queue *q, unsigned words);
/* Write crossbar: word k of operation op for all 32 lanes (one slot). */
void ppu_tex_queue_store(struct ppu_tex_queue *q, unsigned op, unsigned k,
                         const uint32_t lanes[PPU_TEX_QUEUE_BANKS]);
/* The drain order of the batch: fills items (ops * 8 entries) and counts
 * the interface buffer's bank conflicts. Returns the number of items. */
unsigned ppu_tex_queue_drain(struct ppu_tex_queue *q, enum ppu_tex_drain_order order,
                             struct ppu_tex_queue_item *items);
/* Read crossbar: the words of one drained item, per lane of the quad. */
void ppu_tex_queue_read(const struct ppu_tex_queue *q, struct ppu_tex_queue_item item,
                        uint32_t words[4][PPU_TEX_MAX_WORDS]);

#endif
