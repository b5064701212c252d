/* The TTU's ray-intersection predictor (Liu, Chang and Aamodt, "Intersection
 * Prediction for Accelerated GPU Ray Tracing", MICRO 2021; notes in
 * ../shared/seeds/ray-intersection-predictor-notes.txt). Configuration:
 * ppu/ttu_predictor.h; which rays use it and why their results cannot
 * change: docs/ttu.md.
 *
 * The table (paper section 4.1, figure 5) is set associative with LRU
 * replacement; an entry is a valid bit, a tag and up to nodes_per_entry
 * predicted nodes, most recently learned first. Where the paper stores a
 * 27-bit node offset into one BVH, a node here is a node of a bottom-level
 * structure reached through one instance record, so a slot holds the
 * instance record's VA and the bottom-level node index.
 *
 * The hashes (section 4.2) turn a ray into PPU_TTU_PREDICTOR_HASH_BITS bits;
 * the low bits select the set and the next tag_bits are the tag.
 */
#ifndef PPU_TTU_PREDICTOR_INTERNAL_H
#define PPU_TTU_PREDICTOR_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "ppu/ttu_predictor.h"

/* Section 4.2: "5 origin bits and 3 direction bits, giving a 15-bit ray
 * hash": 5 bits per origin axis concatenated (the Grid Hash block), theta
 * and phi 3 bits each, XORed into the low bits. */
#define PPU_TTU_PREDICTOR_ORIGIN_BITS 5u
#define PPU_TTU_PREDICTOR_DIRECTION_BITS 3u
#define PPU_TTU_PREDICTOR_HASH_BITS (3u * PPU_TTU_PREDICTOR_ORIGIN_BITS)
#define PPU_TTU_PREDICTOR_MAX_NODES 8u /* nodes_per_entry at most */

/* A predicted node: node `node` of the bottom level of the instance record
 * at `instance` (a VA inside the top level's records). */
struct ppu_ttu_predicted_node {
   uint64_t instance;
   uint32_t node;
};

struct ppu_ttu_predictor_entry {
   uint64_t last_use; /* 0: never used (invalid) */
   uint32_t tag;
   uint32_t node_count; /* valid slots, from slot 0 (most recent) */
};

struct ppu_ttu_predictor {
   struct ppu_ttu_predictor_config cfg; /* resolved; !cfg.enabled: no table */
   uint32_t sets, set_bits;
   struct ppu_ttu_predictor_entry *entry; /* sets * ways, set-major */
   struct ppu_ttu_predicted_node *slot;   /* nodes_per_entry per entry */
   uint64_t clock;                        /* LRU time */
};

/* Resolves cfg and allocates the table; false when the configuration is
 * invalid or host memory runs out. A disabled configuration allocates
 * nothing. */
bool ppu_ttu_predictor_init(struct ppu_ttu_predictor *t,
                            const struct ppu_ttu_predictor_config *cfg);
void ppu_ttu_predictor_finish(struct ppu_ttu_predictor *t);

/* The ray hash of `kind` (resolved: GRID_SPHERICAL or TWO_POINT) for a ray
 * in a scene whose box is [lo, hi] (the top level's bounds). Any input,
 * NaN and infinities included, gives a value below
 * 2^PPU_TTU_PREDICTOR_HASH_BITS. */
uint32_t ppu_ttu_predictor_hash(uint32_t kind, const float origin[3], const float direction[3],
                                float tmax, const float lo[3], const float hi[3]);

/* Looks hash up; on a tag match refreshes the entry's LRU time and copies
 * its nodes, most recent first, to out[nodes_per_entry]. Returns how many
 * (0: not predicted). */
uint32_t ppu_ttu_predictor_lookup(struct ppu_ttu_predictor *t, uint32_t hash,
                                  struct ppu_ttu_predicted_node *out);

/* Teaches the entry of hash the node: allocates the entry (replacing the
 * set's least recently used) when the tag is absent, and puts the node
 * first in it (dropping the entry's least recent node when full). */
void ppu_ttu_predictor_update(struct ppu_ttu_predictor *t, uint32_t hash,
                              const struct ppu_ttu_predicted_node *node);

/* --- Use by TTU.PROCEED (ttu.c) ---------------------------------------- */

struct ppu_ttu_query;

/* What ppu_ttu_predict found out about the ray, for the update after its
 * traversal. */
struct ppu_ttu_prediction {
   bool eligible; /* an occlusion ray starting its traversal: it looked the table up */
   uint32_t hash;
};

/* Called when PROCEED is about to traverse. For an eligible ray (docs/ttu.md)
 * looks the table up and walks the predicted subtrees. True when one of
 * them held a hit: it is committed and traversal is over (verified). False
 * otherwise, with the object exactly as it was: the caller traverses from
 * where it stands (the root when the ray was predicted: a misprediction). */
bool ppu_ttu_predict(struct ppu_ttu_query *q, struct ppu_ttu_prediction *pr);

/* Called after the walk of an eligible ray: when the walk ended on a hit the
 * TTU committed, the table learns the hit leaf's Go Up Level ancestor. */
void ppu_ttu_predictor_learn(struct ppu_ttu_query *q, const struct ppu_ttu_prediction *pr,
                             bool committed_a_hit);

#endif /* PPU_TTU_PREDICTOR_INTERNAL_H */
