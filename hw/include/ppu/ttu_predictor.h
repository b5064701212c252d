/* Configuration of the TTU's ray-intersection predictor: Liu, Chang and
 * Aamodt, "Intersection Prediction for Accelerated GPU Ray Tracing" (MICRO
 * 2021), notes in ../shared/seeds/ray-intersection-predictor-notes.txt.
 * docs/ttu.md ("The ray-intersection predictor") says which rays use it and
 * what each counter means.
 *
 * One table per SM remembers, per hash of a ray's origin and direction, BVH
 * nodes near where earlier similar occlusion rays hit; a new ray starts its
 * traversal there and falls back to a full traversal from the root when it
 * finds nothing.
 *
 * Zero-initialised means disabled. When enabled, a field left 0 takes the
 * default given beside it, except go_up_level and collector_timeout_cycles,
 * where 0 is a legal value and is taken as written (ppu_gpu_config_default
 * and the configuration file's keys ttu.predictor.* give every field its
 * documented default).
 * ppu_gpu_create rejects an invalid configuration with a message naming the
 * field.
 */
#ifndef PPU_TTU_PREDICTOR_H
#define PPU_TTU_PREDICTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ppu_ttu_predictor_hash {
   PPU_TTU_PREDICTOR_HASH_DEFAULT = 0,    /* GRID_SPHERICAL */
   PPU_TTU_PREDICTOR_HASH_GRID_SPHERICAL, /* paper section 4.2.1 */
   PPU_TTU_PREDICTOR_HASH_TWO_POINT,      /* paper section 4.2.2 */
};

/* Which way of a set a new tag replaces (the nodes within an entry are
 * always kept most recent first). */
enum ppu_ttu_predictor_replacement {
   PPU_TTU_PREDICTOR_REPLACEMENT_DEFAULT = 0, /* LRU */
   PPU_TTU_PREDICTOR_REPLACEMENT_LRU,         /* least recently looked up or updated */
   PPU_TTU_PREDICTOR_REPLACEMENT_FIFO,        /* first allocated; use does not refresh */
};

enum ppu_ttu_predictor_repacking {
   PPU_TTU_PREDICTOR_REPACKING_DEFAULT = 0, /* ON */
   PPU_TTU_PREDICTOR_REPACKING_ON,
   PPU_TTU_PREDICTOR_REPACKING_OFF,
};

struct ppu_ttu_predictor_config {
   bool enabled; /* ttu.predictor.enabled, default false */
   /* The table (paper section 4.1; its best: 1024 entries, 4-way, 15-bit
    * tags, 1 node per entry). */
   uint32_t entries;         /* ttu.predictor.entries: power of two, multiple of ways; 1024 */
   uint32_t ways;            /* ttu.predictor.ways: 1..entries; 4 */
   uint32_t tag_bits;        /* ttu.predictor.tag_bits: 1..32; 15 */
   uint32_t nodes_per_entry; /* ttu.predictor.nodes_per_entry: 1..8, LRU within the entry; 1 */
   uint32_t replacement; /* ttu.predictor.replacement: enum ppu_ttu_predictor_replacement; LRU */
   uint32_t hash;        /* ttu.predictor.hash: enum ppu_ttu_predictor_hash; GRID_SPHERICAL */
   uint32_t go_up_level; /* ttu.predictor.go_up_level: 0..PPU_BVH_MAX_DEPTH; key default 3
                            (section 4.3) */
   /* Timing mode only (section 4.4; hw/src/timing/ttu_predictor_timing.h);
    * unused in functional mode, where each ray looks up and updates the
    * table on its own. */
   uint32_t lookup_fifo;              /* ttu.predictor.lookup_fifo: lookups served per cycle; 4 */
   uint32_t update_fifo;              /* ttu.predictor.update_fifo: updates per cycle; 4 */
   uint32_t collector_ray_ids;        /* ttu.predictor.collector_ray_ids: 32..1024; 64 */
   uint32_t collector_timeout_cycles; /* ttu.predictor.collector_timeout_cycles: 0..1023; 16 */
   uint32_t repacking; /* ttu.predictor.repacking: enum ppu_ttu_predictor_repacking; ON */
};

/* Writes the effective configuration (defaults filled in, ZERO turned into
 * 0) to *out and returns true, or returns false with a one-line reason in
 * err. A disabled configuration is copied unchanged and always valid. */
bool ppu_ttu_predictor_config_resolve(const struct ppu_ttu_predictor_config *in,
                                      struct ppu_ttu_predictor_config *out, char *err,
                                      size_t err_size);

#endif /* PPU_TTU_PREDICTOR_H */
