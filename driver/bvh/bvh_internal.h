/* Internals shared by the builder's files (driver/bvh/). Not for icd/. */
#ifndef DRV_BVH_INTERNAL_H
#define DRV_BVH_INTERNAL_H

#include <math.h>

#include "bvh_builder.h"
#include "bvh_pool.h"

/* An axis-aligned box in binary32. Empty: min = +inf, max = -inf. */
struct bvh_box {
   float min[3], max[3];
};

/* Inline and without fminf/fmaxf: they are the builder's inner loop, and
 * libm's NaN-aware versions are calls (boxes here never hold NaN). */
static inline void bvh_box_set_empty(struct bvh_box *b)
{
   for (int a = 0; a < 3; a++) {
      b->min[a] = INFINITY;
      b->max[a] = -INFINITY;
   }
}

static inline bool bvh_box_is_empty(const struct bvh_box *b)
{
   return !(b->min[0] <= b->max[0] && b->min[1] <= b->max[1] && b->min[2] <= b->max[2]);
}

static inline void bvh_box_grow(struct bvh_box *b, const struct bvh_box *o)
{
   for (int a = 0; a < 3; a++) {
      b->min[a] = o->min[a] < b->min[a] ? o->min[a] : b->min[a];
      b->max[a] = o->max[a] > b->max[a] ? o->max[a] : b->max[a];
   }
}

/* Half the surface area, in double so that 1e30-sized scenes do not
 * overflow (the SAH only needs ratios). */
static inline double bvh_box_half_area(const struct bvh_box *b)
{
   if (bvh_box_is_empty(b))
      return 0.0;
   double dx = (double)b->max[0] - b->min[0];
   double dy = (double)b->max[1] - b->min[1];
   double dz = (double)b->max[2] - b->min[2];
   return dx * dy + dy * dz + dz * dx;
}

/* The leaf stride of a kind (0 for an unknown kind). */
uint32_t bvh_record_stride(enum ppu_bvh_kind kind);
/* Bytes of the geometry table, padded to PPU_BVH_ALIGN. */
uint64_t bvh_geometry_table_bytes(uint32_t geometry_count);
/* malloc for the build's large temporary arrays (primitives, binary and
 * wide nodes): from 2 MiB on, 2 MiB aligned and advised to use
 * transparent huge pages. Each build touches megabytes of fresh memory
 * once, and the profile showed 10-15% of a build in the kernel's page
 * fault path with 4 KiB pages. Release with free(). */
void *bvh_alloc_large(size_t bytes);

/* A primitive as the builder sorts it: its box and where it came from (for
 * instances geometry is 0 and primitive the instance index). 32 bytes, so
 * that binning and partitioning stream through half a cache line per
 * primitive; the centroid is recomputed from the box where needed
 * (bvh_prim_centroid) rather than stored. */
struct bvh_prim {
   struct bvh_box box;
   uint32_t geometry, primitive;
};

/* 0.5 min + 0.5 max rather than (min + max) / 2: boxes reach +-FLT_MAX,
 * where the sum would overflow. */
static inline float bvh_prim_centroid(const struct bvh_prim *p, int axis)
{
   return 0.5f * p->box.min[axis] + 0.5f * p->box.max[axis];
}

/* Input checks shared by build and refit: kind, geometry types, counts.
 * *total gets the number of primitives or instances. */
enum bvh_result bvh_input_check(const struct bvh_build_input *in, uint32_t *total);
/* Fills prims[] with the active primitives of `in` (inactive ones are left
 * out, the rest in input order) and sets *active to how many; pool may be
 * NULL. */
enum bvh_result bvh_input_gather(const struct bvh_build_input *in, struct bvh_prim *prims,
                                 struct bvh_pool *pool, uint32_t *active);
/* Writes the record of primitive `primitive` of geometry `geometry` (for
 * instances: geometry 0, instance `primitive`) at `record`; returns false
 * when the primitive is inactive (its record is still written, with
 * PPU_BVH_PRIM_INACTIVE or blas_address 0). `box` gets the box the tree
 * must contain (clamped to finite values; empty when inactive). */
bool bvh_input_write_record(const struct bvh_build_input *in, uint32_t geometry, uint32_t primitive,
                            void *record, struct bvh_box *box);
/* The box of a record as written, clamped to finite values (what the tree
 * must contain); false when the record is inactive. Instances need their
 * BLAS's bounds, which the record does not hold: bvh_input_write_record
 * returns those, and validation skips instance boxes' contents check
 * against the BLAS. */
/* bvh_input_write_record for a caller that already knows whether the
 * primitive is active (the build: from the gather). */
void bvh_input_write_record_as(const struct bvh_build_input *in, uint32_t geometry,
                               uint32_t primitive, bool active, void *record);
bool bvh_record_box(enum ppu_bvh_kind kind, const void *record, struct bvh_box *box);

/* Sets origin, exponent, q_lo and q_hi of `node` so that every decoded
 * child box (bvh_node_child_box) contains boxes[i] for i < count. Empty
 * boxes decode to a point at the origin. */
void bvh_quantize_node(struct ppu_bvh_node *node, const struct bvh_box *boxes, unsigned count);

/* The binary tree the SAH builder makes (bvh_sah.c). */
struct bvh_bin_node {
   struct bvh_box box;
   uint32_t count; /* 0: internal (children left, right); else leaf of prims first..first+count */
   uint32_t first_or_left;
   uint32_t right;
};

struct bvh_bin_tree {
   struct bvh_bin_node *nodes;
   uint32_t node_count; /* entries of nodes[] (2n - 1), used or not */
};

/* Builds over prims[0..n) (n > 0), reordering prims so that every leaf's
 * primitives are consecutive. Leaves hold at most PPU_BVH_MAX_LEAF_RECORDS
 * primitives and every internal node's depth is below PPU_BVH_MAX_DEPTH.
 * The nodes array has 2n - 1 entries, not all of them used: only those
 * reachable from node 0 are part of the tree. The tree is the same for
 * every pool (and for none). */
enum bvh_result bvh_build_binary(struct bvh_prim *prims, uint32_t n, struct bvh_pool *pool,
                                 struct bvh_bin_tree *out);

/* Levels of internal nodes that median splits need for n primitives. */
static inline uint32_t bvh_median_levels(uint32_t n)
{
   uint64_t leaves = ((uint64_t)n + PPU_BVH_MAX_LEAF_RECORDS - 1) / PPU_BVH_MAX_LEAF_RECORDS;
   uint32_t levels = 0;
   while ((1ull << levels) < leaves)
      levels++;
   return levels;
}

/* May a node at `depth` (internal, so depth < PPU_BVH_MAX_DEPTH) have a
 * child of n primitives? The child sits at depth + 1 and needs
 * bvh_median_levels(n) more levels of internal nodes. Both binary builders
 * split only so, and fall back to a median split otherwise, which the root
 * always allows (n < 2^32 needs at most 29 levels of leaves of 8). */
static inline bool bvh_child_fits(uint32_t depth, uint32_t n)
{
   return depth + 1 + bvh_median_levels(n) <= PPU_BVH_MAX_DEPTH;
}

/* The fast alternative to bvh_build_binary for builds that ask for it
 * (bvh_build_input::prefer_fast_build): a linear BVH (bvh_lbvh.c), same
 * contract. */
enum bvh_result bvh_build_binary_fast(struct bvh_prim *prims, uint32_t n, struct bvh_pool *pool,
                                      struct bvh_bin_tree *out);

/* Cost constants of the SAH, in cycles of the unified box/triangle
 * datapath (unified-box-triangle-datapath seed: 4 box tests or 1 triangle
 * test per cycle). */
#define BVH_SAH_COST_BOX 0.25 /* one child box test */
#define BVH_SAH_COST_PRIM 1.0 /* one triangle (or AABB record) test */
#define BVH_SAH_BINS 32u      /* bins per axis over the centroid bounds */

#endif
