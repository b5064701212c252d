/* Inside the TTU: the state of one instruction on one ray-query object, and
 * the traversal unit's entry points (ttu_traversal.c) that ttu.c calls. */
#ifndef PPU_TTU_TRAVERSAL_H
#define PPU_TTU_TRAVERSAL_H

#include <stdbool.h>
#include <stdint.h>

#include "ppu/ray_query.h"
#include "ttu/ttu.h"
#include "ttu/ttu_private.h"

/* Host copies of the object's public and private parts, written back when
 * the instruction ends. */
struct ppu_ttu_query {
   struct ppu_ttu *ttu;
   uint64_t pd_pa;
   struct ppu_ray_query rq;
   struct ppu_ttu_private p;
   struct ppu_fault *fault;
   /* Stack entries of each level (enum ppu_ttu_level_id) that p holds as
    * they are in the object, or as the instruction wrote them: entries
    * 0 .. stack_valid[l] - 1. ppu_ttu_execute copies only these in and out
    * (the entries above are stale pushes nothing reads), so the object ends
    * byte for byte as a copy of the whole area would leave it. */
   uint32_t stack_valid[2];
   /* The box tests of the expansions this instruction made, per level and
    * stack entry (bit i of memo_valid[level]: entry i has one). Taking a
    * child of an expanded node, the TTU tests its box again against the
    * committed t of then (next_child); when the bytes the test reads (the
    * node's origin, exponents and quantized planes), the ray (the level's:
    * entering a level clears its memos) and the interval are what they
    * were, the host knows the result and does not compute it again. The
    * test is still counted: the datapath runs it. */
   struct ppu_ttu_expansion_memo {
      uint32_t tmax_bits; /* the committed t the children were tested against */
      uint32_t hit_mask;  /* the slots hit */
      uint8_t grid[16];   /* node bytes 0..15: origin, exponents, child count */
      uint8_t planes[48]; /* node bytes 32..79: q_lo and q_hi */
   } memo[2][PPU_BVH_MAX_DEPTH];
   uint32_t memo_valid[2];
   /* The bottom-level node whose leaf slot the walk opened last in this
    * instruction, with its ancestors 1..7 as that fetch read them: the node
    * holding a hit, which the intersection predictor learns from without
    * fetching it again. valid = 0 until a bottom-level leaf is opened. */
   struct {
      bool valid;
      uint64_t level; /* the bottom-level header's VA */
      uint32_t node;
      uint32_t ancestor[PPU_BVH_ANCESTORS]; /* parent, then node.ancestor[] */
   } leaf_node;
};

enum ppu_ttu_walk {
   PPU_TTU_WALK_DONE,      /* no more candidates: traversal is over */
   PPU_TTU_WALK_CANDIDATE, /* rq.candidate waits for the shader */
   PPU_TTU_WALK_FAULT,     /* *fault filled in */
   PPU_TTU_WALK_ON,        /* inside the traversal unit: nothing to report yet */
};

/* Fills *q->fault as PPU_FAULT_BAD_RAY_QUERY; returns false. */
bool ppu_ttu_fail(struct ppu_ttu_query *q, uint64_t address, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* What a BVH header is as a level of a walk (top: instances; else
 * triangles or AABBs). */
enum ppu_ttu_header_check {
   PPU_TTU_HEADER_OK,         /* lv latched: walk state cleared, root pending if any node */
   PPU_TTU_HEADER_NOT_A_BVH,  /* magic or version */
   PPU_TTU_HEADER_WRONG_KIND, /* not the kind the level needs */
   PPU_TTU_HEADER_BAD_LAYOUT, /* node offset not node-aligned, or leaf stride below a record */
};

enum ppu_ttu_header_check ppu_ttu_latch_level(const struct ppu_bvh_header *h, uint64_t va, bool top,
                                              struct ppu_ttu_level *lv);

/* Reads and checks the top-level header at va and makes it the top level
 * with its root pending (TTU.INIT). */
bool ppu_ttu_enter_top(struct ppu_ttu_query *q, uint64_t va);

/* Checks the private state read back from local memory (a shader may have
 * written it), so traversal can index its stacks without further checks. */
bool ppu_ttu_check_private(struct ppu_ttu_query *q);

/* Traverses from where the object stands until a candidate needs the
 * shader or nothing is left. */
enum ppu_ttu_walk ppu_ttu_traverse(struct ppu_ttu_query *q);

/* For the intersection predictor (ttu_predictor.c). */

/* Reads the scene box (bounds of the top-level header). */
bool ppu_ttu_top_bounds(struct ppu_ttu_query *q, float lo[3], float hi[3]);

/* Walks only the subtree of node `node` in the bottom level of the instance
 * record at instance_va, for a ray at its start: DONE when a hit was
 * committed there, ON when the subtree (or the instance, which must be a
 * record of the ray's top level that its mask admits) holds none, FAULT or
 * CANDIDATE as ppu_ttu_traverse. Leaves the object mid-walk: the caller
 * restores it unless DONE. */
enum ppu_ttu_walk ppu_ttu_traverse_subtree(struct ppu_ttu_query *q, uint64_t instance_va,
                                           uint32_t node);

/* The k-th ancestor of node in the current bottom level; the root when the
 * tree is shallower. Ancestors 1..7 come from the node's parent and
 * ancestor fields: read from q->leaf_node when it latched this node (no
 * fetch), else from one counted node fetch through the L0; beyond 7, one
 * counted fetch of the 7th ancestor per further 7 levels. False with the
 * fault filled in on an ancestor index beyond the structure. */
bool ppu_ttu_bottom_ancestor(struct ppu_ttu_query *q, uint32_t node, uint32_t k, uint32_t *out);

#endif /* PPU_TTU_TRAVERSAL_H */
