/* Tags of a set-associative cache with LRU replacement, for the timing
 * mode's L1 and L2 (docs/timing.md). It holds no data: the functional model
 * always reads memory, so a cache can only change when a result arrives,
 * never what it is.
 *
 * Each line remembers the cycle its fill completes, so a second request for
 * a line still in flight waits for that fill instead of counting as an
 * immediate hit (the merging an MSHR does). It remembers when that fill was
 * requested, too: requests do not reach a cache in cycle order (the TTU
 * books a ray's whole walk at issue), and a request made before the fill's
 * own request must not wait for it (memory_system.c). */
#ifndef PPU_TIMING_CACHE_MODEL_H
#define PPU_TIMING_CACHE_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#define PPU_CACHE_LINE_BYTES 128u

struct ppu_cache_line_tag {
   uint64_t line;         /* line address + 1; 0 = empty */
   uint64_t last_use;     /* LRU stamp */
   uint64_t ready_at;     /* cycle the line's data arrives */
   uint64_t requested_at; /* cycle the request that fills it was made */
   bool dirty;
};

struct ppu_cache_model {
   uint32_t sets, ways;
   uint64_t stamp;
   struct ppu_cache_line_tag *tag; /* sets * ways */
};

struct ppu_cache_lookup {
   bool hit;
   uint64_t ready_at;     /* hit: when the line's data is there */
   bool evicted_dirty;    /* miss: the victim was dirty (a write-back) */
   uint64_t evicted_line; /* its line address */
   struct ppu_cache_line_tag *entry;
};

/* size bytes of 128-byte lines in `ways` ways (size >= ways lines). False
 * when host memory runs out. */
bool ppu_cache_model_init(struct ppu_cache_model *c, uint64_t size, uint32_t ways);
void ppu_cache_model_finish(struct ppu_cache_model *c);
void ppu_cache_model_flush(struct ppu_cache_model *c);

/* Looks up the line holding byte address addr; on a miss, allocates it (the
 * least recently used way) with ready_at = requested_at = 0 for the caller
 * to set. */
struct ppu_cache_lookup ppu_cache_model_access(struct ppu_cache_model *c, uint64_t addr);

#endif /* PPU_TIMING_CACHE_MODEL_H */
