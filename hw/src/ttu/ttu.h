/* The tree traversal unit (TTU) of one SM: executes the TTU instruction
 * (ppu/ray_query.h) on a ray-query object in the shader's local memory.
 *
 * Structure follows the beam-tracing seed's TTU: the interface takes an
 * instruction and a query data structure from the SM (ttu.c), a setup step
 * latches the ray and transforms it into an instance's object space, the
 * traversal unit walks the BVH with a per-ray stack in local storage
 * (ttu_traversal.c), the intersection datapath tests child boxes and
 * primitives (ttu_intersect.c, unified-box-triangle-datapath seed), and
 * every BVH fetch goes through the L0 cache (ttu_l0_cache.c). docs/ttu.md
 * describes the units, docs/ray-query.md the semantics.
 *
 * Functional mode: one instruction runs to its end (a candidate, the end of
 * traversal, or a fault) before the next lane's; the timing mode will
 * interleave rays in the seed's ray queue instead.
 */
#ifndef PPU_TTU_H
#define PPU_TTU_H

#include <stdbool.h>
#include <stdint.h>

#include "counter_block.h"
#include "mmu.h"
#include "ttu/ttu_beam_walk.h"
#include "ttu/ttu_box_datapath.h"
#include "ttu/ttu_l0_cache.h"
#include "ttu/ttu_predictor.h"

struct ppu_ttu {
   struct ppu_ttu_l0_cache l0;
   struct ppu_ttu_predictor predictor; /* disabled unless ppu_ttu_configure_predictor enabled it */
   struct ppu_counter_block *counters; /* the SM's block (single writer: the SM's worker) */
   /* Pending child nodes the per-ray stack holds before it spills to local
    * memory (ttu.stack_entries; the predictor notes' "8-entry traversal
    * stack"): only ttu.stack_spills and the timing mode see it. */
   uint32_t stack_entries;
   uint32_t last_test_kind; /* the datapath's input: 0 none yet, else enum ppu_ttu_test_kind */
   struct ppu_ttu_ray_cost_port *ray_cost; /* ttu_ray_cost.c; NULL until a profiled grid */
   /* The box datapath's implementation on this host (same bits either way). */
   ppu_ttu_node_box_fn node_box_test;
   /* The upper nodes a warp beam holds for the rays of one TTU.PROCEED
    * (ttu_beam_walk.h); off unless ttu.beam.enabled. */
   struct ppu_ttu_beam_nodes beam;
};

enum ppu_ttu_test_kind {
   PPU_TTU_TEST_BOX = 1,
   PPU_TTU_TEST_TRIANGLE = 2,
};

#define PPU_TTU_STACK_ENTRIES_DEFAULT 8u

/* l0_lines: the L0's size (ttu.l0_lines), 1 .. PPU_TTU_L0_LINES_MAX. */
void ppu_ttu_init(struct ppu_ttu *ttu, struct ppu_mmu_client *mmu,
                  struct ppu_counter_block *counters, uint32_t l0_lines);
/* Sets up the intersection predictor's table (ppu/ttu_predictor.h); false
 * when the configuration is invalid (ppu_gpu_create has checked it) or host
 * memory runs out. */
bool ppu_ttu_configure_predictor(struct ppu_ttu *ttu, const struct ppu_ttu_predictor_config *cfg);
void ppu_ttu_finish(struct ppu_ttu *ttu);
/* Called at every grid launch: BVH memory may have changed in between. The
 * predictor table is kept: its entries are only hints, checked against the
 * structures of the ray that uses them (docs/ttu.md). */
void ppu_ttu_begin_grid(struct ppu_ttu *ttu);

/* Executes TTU.op on the PPU_RAY_QUERY_BYTES object at `object` (host
 * memory: the lane's local memory) for the address space pd_pa. b is operand
 * b (GENERATE: the hit t as F32 bits); PROCEED sets *d to 1 when a candidate
 * waits and 0 when traversal is done, other ops leave *d alone. False with
 * *fault filled in (kind, address, detail; the caller adds the PC) on an
 * MMU fault or PPU_FAULT_BAD_RAY_QUERY. */
bool ppu_ttu_execute(struct ppu_ttu *ttu, uint64_t pd_pa, unsigned op, uint8_t *object, uint32_t b,
                     uint32_t *d, struct ppu_fault *fault);

#endif /* PPU_TTU_H */
