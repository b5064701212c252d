/* The TTU's private area of a ray-query object (bytes PPU_RQ_PRIVATE ..
 * PPU_RAY_QUERY_BYTES - 1 of struct ppu_ray_query): the per-ray local
 * storage and traversal stacks of the beam-tracing seed, kept in the
 * shader's local memory between TTU instructions so a PROCEED can resume
 * where the last one returned a candidate. docs/ray-query.md documents the
 * layout for debugging; a shader must not write it.
 *
 * Everything here is read back from memory the shader can write, so the TTU
 * checks it before use (levels, depths and leaf cursors in range) and treats
 * anything inconsistent as PPU_FAULT_BAD_RAY_QUERY.
 */
#ifndef PPU_TTU_PRIVATE_H
#define PPU_TTU_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include "ppu/bvh.h"
#include "ppu/ray_query.h"

/* One level of a traversal stack: an expanded node and the children still to
 * visit, closest first. Nibble i (bits 4i+3..4i) is 8 | slot for the i-th
 * pending child; the list is consumed from bit 0 and is empty at 0. Eight
 * nibbles hold a full node (PPU_BVH_WIDTH children). */
struct ppu_ttu_stack_entry {
   uint32_t node;
   uint32_t pending;
};

/* Where traversal stands in one structure (the top level or the bottom
 * level being visited), with the header fields it needs, latched when the
 * structure was entered. */
struct ppu_ttu_level {
   uint64_t address;     /* VA of the header */
   uint32_t kind;        /* enum ppu_bvh_kind */
   uint32_t node_offset; /* header fields */
   uint32_t node_count;
   uint32_t leaf_offset;
   uint32_t leaf_count;
   uint32_t leaf_stride;
   uint32_t root_pending; /* 1: node 0 is still to be expanded */
   uint32_t depth;        /* stack entries in use */
   uint32_t expansions;   /* nodes expanded since entry: more than node_count means "not a tree" */
   uint32_t leaf_next;    /* next record of the current leaf to test */
   uint32_t leaf_end;     /* one past its last record; leaf_next == leaf_end: none */
   uint32_t reserved;
};

enum ppu_ttu_level_id {
   PPU_TTU_LEVEL_TOP = 0,
   PPU_TTU_LEVEL_BOTTOM = 1,
};

struct ppu_ttu_private {
   /* The ray as TTU.INIT latched it (later shader writes to the public
    * fields do not change a traversal in flight). */
   float origin[3];    /* 256 */
   float direction[3]; /* 268 */
   float tmin, tmax;   /* 280 */
   uint32_t ray_flags; /* 288 */
   uint32_t cull_mask; /* 292 */
   uint32_t level;     /* 296 enum ppu_ttu_level_id */
   uint32_t reserved0; /* 300 */
   /* The instance being visited (valid while level is BOTTOM). */
   uint64_t instance_address;       /* 304 */
   uint32_t instance_custom_index;  /* 312 bits 23..0 of custom_index_and_mask */
   uint32_t instance_sbt_and_flags; /* 316 as in the record */
   uint32_t instance_id;            /* 320 instance_index */
   float object_origin[3];          /* 324 the ray transformed by world_to_object */
   float object_direction[3];       /* 336 */
   uint32_t reserved1;              /* 348 */
   struct ppu_ttu_level top;        /* 352 */
   struct ppu_ttu_level bottom;     /* 408 */
   struct ppu_ttu_stack_entry top_stack[PPU_BVH_MAX_DEPTH];    /* 464 */
   struct ppu_ttu_stack_entry bottom_stack[PPU_BVH_MAX_DEPTH]; /* 720 */
   /* 976..1023 unused */
};

_Static_assert(sizeof(struct ppu_ttu_level) == 56, "level record");
/* The offsets docs/ray-query.md gives (object offset = PPU_RQ_PRIVATE + these). */
_Static_assert(offsetof(struct ppu_ttu_private, level) == 296 - PPU_RQ_PRIVATE, "level");
_Static_assert(offsetof(struct ppu_ttu_private, instance_address) == 304 - PPU_RQ_PRIVATE,
               "instance");
_Static_assert(offsetof(struct ppu_ttu_private, top) == 352 - PPU_RQ_PRIVATE, "top level");
_Static_assert(offsetof(struct ppu_ttu_private, top_stack) == 464 - PPU_RQ_PRIVATE, "stacks");
_Static_assert(offsetof(struct ppu_ttu_private, bottom_stack) == 720 - PPU_RQ_PRIVATE, "stacks");
_Static_assert(sizeof(struct ppu_ttu_private) <= PPU_RAY_QUERY_BYTES - PPU_RQ_PRIVATE,
               "private state fits the object");

#endif /* PPU_TTU_PRIVATE_H */
