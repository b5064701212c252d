/* Warp beams: the beam-tracing seed's beam query used where it pays. When
 * the rays a TTU.PROCEED starts (fresh from TTU.INIT) are coherent - the
 * primary rays of a tile, shadow rays towards one light - the TTU forms the
 * beam enclosing them (ttu_beam.h), walks the upper BVH levels once for the
 * warp, breadth first from the top-level root, and keeps the nodes the beam
 * reaches (ttu.beam.nodes of them). Entering an instance the beam is formed
 * again from the rays transformed into its object space, bit for bit as
 * each ray's own walk transforms it, so it encloses them exactly.
 *
 * Each ray then walks as always - its own box tests, its own closest-first
 * order, its own stack - but a node the beam holds is read from the beam
 * instead of fetched (ttu.beam_node_shares instead of ttu.node_fetches and
 * the L0): the subtrees the beam reaches are handed to the rays already
 * decoded. The beam test is conservative against the ray's (a box a ray of
 * the beam enters, the beam enters), so a ray finds every node on its path
 * through the upper levels in the beam; the nodes are the bytes memory
 * holds, so results and the other counters' meaning cannot change, only
 * where a node comes from.
 */
#ifndef PPU_TTU_BEAM_WALK_H
#define PPU_TTU_BEAM_WALK_H

#include <stdbool.h>
#include <stdint.h>

#include "ppu/bvh.h"

#define PPU_TTU_BEAM_NODES_MAX 256u /* ttu.beam.nodes at most */

struct ppu_ttu;

/* The nodes one beam walk holds, for the warp instruction that formed it. */
struct ppu_ttu_beam_nodes {
   bool enabled;      /* ttu.beam.enabled */
   uint32_t capacity; /* ttu.beam.nodes */
   uint32_t count;    /* nodes held now; 0 outside a beam's warp instruction */
   uint16_t slot[2 * PPU_TTU_BEAM_NODES_MAX]; /* open addressing on the VA: entry + 1, 0 free */
   uint64_t va[PPU_TTU_BEAM_NODES_MAX];
   struct ppu_bvh_node node[PPU_TTU_BEAM_NODES_MAX];
};

/* capacity is clamped to 1..PPU_TTU_BEAM_NODES_MAX (the key's range). */
void ppu_ttu_beam_configure(struct ppu_ttu_beam_nodes *b, bool enabled, uint32_t capacity);

/* Before the lanes of a TTU.PROCEED run: objects[0 .. count - 1] are the
 * ray-query objects of the executing lanes (host copies of local memory).
 * Forms and walks a beam when enough of them are fresh and coherent;
 * otherwise holds nothing. Faults of the walk are not the rays' faults:
 * the walk stops there and each ray meets the fault on its own walk. */
void ppu_ttu_beam_begin(struct ppu_ttu *ttu, uint64_t pd_pa, uint8_t *const *objects,
                        unsigned count);
/* After the lanes: drops the nodes (the next instruction may see other
 * memory). */
void ppu_ttu_beam_end(struct ppu_ttu *ttu);

static inline uint32_t ppu_ttu_beam_hash(uint64_t va)
{
   uint64_t h = (va / PPU_BVH_NODE_BYTES) * 0x9e3779b97f4a7c15ull;
   return (uint32_t)(h >> 40) & (2 * PPU_TTU_BEAM_NODES_MAX - 1);
}

/* The node at va if the current beam holds it, else NULL. */
static inline const struct ppu_bvh_node *ppu_ttu_beam_lookup(const struct ppu_ttu_beam_nodes *b,
                                                             uint64_t va)
{
   if (b->count == 0)
      return 0;
   for (uint32_t h = ppu_ttu_beam_hash(va);; h = (h + 1) & (2 * PPU_TTU_BEAM_NODES_MAX - 1)) {
      uint32_t e = b->slot[h];
      if (e == 0)
         return 0;
      if (b->va[e - 1] == va)
         return &b->node[e - 1];
   }
}

#endif /* PPU_TTU_BEAM_WALK_H */
