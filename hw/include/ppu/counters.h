/* The PPU's hardware counters: ONE table, the single source of every
 * counter's name, unit and description.
 *
 * Documentation, CSV headers and VK_KHR_performance_query are generated from
 * PPU_COUNTERS below, so a counter is added here and nowhere else. Each row is
 *
 *   X(ID, "unit.name", "unit of measure", "what one count means")
 *
 * ID becomes PPU_COUNTER_<ID>. Counters only ever increase; they start at 0
 * when the chip is created and count for all channels together.
 */
#ifndef PPU_COUNTERS_H
#define PPU_COUNTERS_H

#include <stdint.h>

struct ppu_gpu;

#define PPU_COUNTERS(X)                                                                            \
   X(HOST_GPFIFO_ENTRIES, "host.gpfifo_entries", "entries",                                        \
     "GPFIFO entries fetched by the host interface")                                               \
   X(HOST_PUSHBUFFER_WORDS, "host.pushbuffer_words", "words",                                      \
     "pushbuffer words (method headers and data) fetched by the host interface")                   \
   X(HOST_METHODS, "host.methods", "methods",                                                      \
     "methods executed (one per data word, one per immediate header), all subchannels")            \
   X(HOST_SEM_ACQUIRES, "host.semaphore_acquires", "operations",                                   \
     "semaphore ACQUIRE_GEQ operations completed")                                                 \
   X(HOST_SEM_RELEASES, "host.semaphore_releases", "operations",                                   \
     "semaphore RELEASE and TIMESTAMP operations completed")                                       \
   X(HOST_ACQUIRE_STALLS, "host.acquire_stalls", "events",                                         \
     "times a channel stalled on an ACQUIRE_GEQ whose value was not yet reached")                  \
   X(COPY_BYTES_COPIED, "copy.bytes_copied", "bytes", "bytes copied by COPY operations")           \
   X(COPY_BYTES_FILLED, "copy.bytes_filled", "bytes", "bytes written by FILL operations")          \
   X(COPY_BYTES_INLINE, "copy.bytes_inline", "bytes", "bytes written by INLINE_DATA words")        \
   X(COPY_IMAGE_BYTES, "copy.image_bytes", "bytes",                                                \
     "texel bytes moved into or out of images by image copies and clears")                         \
   X(COPY_OPERATIONS, "copy.operations", "operations",                                             \
     "copy engine LAUNCHes (buffer and image operations)")                                         \
   X(MMU_TLB_HITS, "mmu.tlb_hits", "lookups", "translations found in a TLB")                       \
   X(MMU_TLB_MISSES, "mmu.tlb_misses", "lookups", "translations not found in a TLB")               \
   X(MMU_PAGE_WALKS, "mmu.page_walks", "walks",                                                    \
     "page-table walks started (a miss of a VA that can be mapped at all)")                        \
   X(MMU_FAULTS, "mmu.faults", "faults",                                                           \
     "translations that failed: unmapped, write-protected or bad entry")                           \
   X(COMPUTE_GRIDS, "compute.grids", "grids", "compute grids launched (empty grids included)")     \
   X(COMPUTE_WORKGROUPS, "compute.workgroups", "workgroups", "workgroups that ran to their end")   \
   X(COMPUTE_THREADS, "compute.threads", "threads",                                                \
     "threads of the grids launched: workgroups x workgroup size (ray-tracing launches included)") \
   X(COMPUTE_WARP_INSTRUCTIONS, "compute.warp_instructions", "instructions",                       \
     "instructions issued by warps (one per warp, whatever its active mask)")                      \
   X(COMPUTE_LANE_INSTRUCTIONS, "compute.lane_instructions", "instructions",                       \
     "instructions executed by threads: the active lanes of each issued instruction")              \
   X(COMPUTE_ICACHE_MISSES, "compute.icache_misses", "lines",                                      \
     "SM instruction-cache lines fetched from memory")                                             \
   X(COMPUTE_DIVERGENT_BRANCHES, "compute.divergent_branches", "branches",                         \
     "branches whose active lanes went both ways")                                                 \
   X(COMPUTE_SIMT_STACK_SPILLS, "compute.simt_stack_spills", "entries",                            \
     "reconvergence-stack entries pushed out to local memory (stack deeper than 64)")              \
   X(COMPUTE_BARRIERS, "compute.barriers", "barriers", "workgroup barriers completed")             \
   X(COMPUTE_GLOBAL_ACCESSES, "compute.global_accesses", "accesses",                               \
     "per-lane global loads, stores and atomics")                                                  \
   X(COMPUTE_SHARED_ACCESSES, "compute.shared_accesses", "accesses",                               \
     "per-lane shared-memory loads, stores and atomics")                                           \
   X(TTU_RAYS, "ttu.rays", "rays", "ray queries started: TTU.INIT per lane")                       \
   X(TTU_PROCEEDS, "ttu.proceeds", "instructions", "TTU.PROCEED per lane")                         \
   X(TTU_NODE_FETCHES, "ttu.node_fetches", "nodes", "BVH nodes (128-byte lines) read by the TTU")  \
   X(TTU_BOX_TESTS, "ttu.box_tests", "tests",                                                      \
     "ray-box slab tests: child boxes of nodes and AABB primitives")                               \
   X(TTU_TRIANGLE_TESTS, "ttu.triangle_tests", "tests", "ray-triangle tests")                      \
   X(TTU_TRIANGLE_CANDIDATES, "ttu.triangle_candidates", "candidates",                             \
     "non-opaque triangle hits handed to the shader (PROCEED returned 1)")                         \
   X(TTU_AABB_CANDIDATES, "ttu.aabb_candidates", "candidates",                                     \
     "AABB primitives the ray entered, handed to the shader (PROCEED returned 1)")                 \
   X(TTU_INSTANCE_TRANSFORMS, "ttu.instance_transforms", "instances",                              \
     "rays transformed into an instance's object space to visit its bottom level")                 \
   X(TTU_L0_HITS, "ttu.l0_hits", "lines", "TTU L0 cache lookups that hit")                         \
   X(TTU_L0_MISSES, "ttu.l0_misses", "lines", "TTU L0 cache lookups that missed (line fetched)")   \
   X(TEX_REQUESTS, "tex.requests", "requests",                                                     \
     "texture-unit requests: one per lane of TEX, TLD, TLD4 (SULD/SUST/SUATOM/TXQ not included)")  \
   X(TEX_CACHE_HITS, "tex.cache_hits", "lines", "texture cache lookups that hit (128-byte lines)") \
   X(TEX_CACHE_MISSES, "tex.cache_misses", "lines", "texture cache lookups that missed")           \
   X(TEX_TRB_ALLOCATIONS, "tex.trb_allocations", "entries",                                        \
     "texture return buffer entries allocated (one per quad of a texture operation)")              \
   X(TEX_TRB_OCCUPANCY_SUM, "tex.trb_occupancy_sum", "entries",                                    \
     "TRB entries in use, summed at each allocation (divide by allocations for the mean)")         \
   X(TEX_TRB_FREE_LIST_STALLS, "tex.trb_free_list_stalls", "stalls",                               \
     "times the filtering unit found the TRB free list empty and waited for the SM")               \
   X(TEX_QUEUE_BANK_CONFLICTS, "tex.queue_bank_conflicts", "cycles",                               \
     "extra texture-queue read cycles because coordinates drained together shared a bank")         \
   X(TEX_TEXELS_FILTERED, "tex.texels_filtered", "texels",                                         \
     "texels read and weighted by the filtering unit (border texels included)")                    \
   X(TTU_PREDICTOR_LOOKUPS, "ttu.predictor_lookups", "rays",                                       \
     "occlusion rays that looked up the intersection predictor (docs/ttu.md)")                     \
   X(TTU_PREDICTOR_PREDICTED, "ttu.predictor_predicted", "rays",                                   \
     "predictor lookups that found an entry: traversal started at the predicted nodes")            \
   X(TTU_PREDICTOR_VERIFIED, "ttu.predictor_verified", "rays",                                     \
     "predicted rays that found a hit below a predicted node (no traversal from the root)")        \
   X(TTU_PREDICTOR_MISPREDICTED, "ttu.predictor_mispredicted", "rays",                             \
     "predicted rays that found no hit there and traversed again from the root")                   \
   X(TTU_PREDICTOR_NODES_SKIPPED, "ttu.predictor_nodes_skipped", "nodes",                          \
     "verified rays: node fetches of the full traversal minus those of the predicted one, where "  \
     "positive (equation 1 of the MICRO 2021 paper = this - extra_node_fetches)")                  \
   X(TTU_PREDICTOR_EXTRA_NODE_FETCHES, "ttu.predictor_extra_node_fetches", "nodes",                \
     "node fetches of predicted walks beyond a full traversal's: all of a misprediction's, and "   \
     "the excess of a verified walk that cost more than the full traversal")                       \
   X(TTU_PREDICTOR_UPDATES, "ttu.predictor_updates", "updates",                                    \
     "predictor table updates: an occlusion ray's hit taught the table its Go Up Level node")      \
   X(TTU_STACK_SPILLS, "ttu.stack_spills", "entries",                                              \
     "traversal stack entries pushed beyond ttu.stack_entries, written to local memory")           \
   X(TTU_DATAPATH_SWITCHES, "ttu.datapath_switches", "switches",                                   \
     "changes of the intersection datapath's input between box and triangle tests")                \
   X(TTU_BEAMS, "ttu.beams", "beams",                                                              \
     "warp instructions whose fresh rays went as one beam (ttu.beam.enabled)")                     \
   X(TTU_BEAMS_REFUSED, "ttu.beams_refused", "warps",                                              \
     "warp instructions with fresh rays that formed no beam: too few, too spread or invalid")      \
   X(TTU_BEAM_BOX_TESTS, "ttu.beam_box_tests", "tests", "beam-box tests of the beam walks")        \
   X(TTU_BEAM_NODE_FETCHES, "ttu.beam_node_fetches", "nodes",                                      \
     "BVH nodes the beam walks fetched (also counted in ttu.node_fetches)")                        \
   X(TTU_BEAM_NODE_SHARES, "ttu.beam_node_shares", "nodes",                                        \
     "node reads of rays served by their beam's nodes instead of a fetch")                         \
   /* Timing mode only (docs/timing.md): 0 in functional mode. */                                  \
   X(TIMING_CHIP_CYCLES, "timing.chip_cycles", "cycles",                                           \
     "chip cycles of compute grids, LAUNCH to the last workgroup's end (sum over grids)")          \
   X(SM_CYCLES, "sm.cycles", "cycles", "cycles SMs held at least one warp (sum over SMs)")         \
   X(SM_WARP_OCCUPANCY_SUM, "sm.warp_occupancy_sum", "warps",                                      \
     "resident warps summed over SM cycles (divide by sm.cycles for the mean)")                    \
   X(SM_ISSUE_CYCLES, "sm.issue_cycles", "cycles", "scheduler cycles that issued an instruction")  \
   X(SM_STALL_DEPENDENCY, "sm.stall_dependency", "cycles",                                         \
     "scheduler cycles without issue: the oldest warp waited for an ALU/FMA/SFU result")           \
   X(SM_STALL_MEMORY, "sm.stall_memory", "cycles",                                                 \
     "scheduler cycles without issue: the oldest warp waited for a load, texture or TTU result")   \
   X(SM_STALL_PIPE_BUSY, "sm.stall_pipe_busy", "cycles",                                           \
     "scheduler cycles without issue: the oldest warp's pipeline (or the TTU) was full")           \
   X(SM_STALL_BARRIER, "sm.stall_barrier", "cycles",                                               \
     "scheduler cycles without issue: the oldest warp waited at a barrier")                        \
   X(SM_STALL_FETCH, "sm.stall_fetch", "cycles",                                                   \
     "scheduler cycles without issue: the oldest warp waited for an instruction-cache fill")       \
   X(SM_STALL_NO_WARP, "sm.stall_no_warp", "cycles",                                               \
     "scheduler cycles without issue: the scheduler had no resident warp")                         \
   X(SM_SHARED_BANK_CONFLICTS, "sm.shared_bank_conflicts", "cycles",                               \
     "extra shared-memory cycles because lanes of one instruction used one bank")                  \
   X(L1_HITS, "l1.hits", "lines", "L1 lookups that hit (LSU, TTU L0 fills, texture fills)")        \
   X(L1_MISSES, "l1.misses", "lines", "L1 lookups that missed and went to the L2")                 \
   X(L1_LSU_READS, "l1.lsu_reads", "lines",                                                        \
     "L1 read requests from the LSU (global and local loads)")                                     \
   X(L1_TTU_READS, "l1.ttu_reads", "lines",                                                        \
     "L1 read requests from the TTU (unmerged L0 misses and stack refills)")                       \
   X(L1_TEX_READS, "l1.tex_reads", "lines",                                                        \
     "L1 read requests from the texture unit (cache misses)")                                      \
   X(L1_MSHR_STALLS, "l1.mshr_stalls", "misses",                                                   \
     "L1 misses that waited because every MSHR was in use")                                        \
   X(L2_HITS, "l2.hits", "lines", "L2 lookups that hit")                                           \
   X(L2_MISSES, "l2.misses", "lines", "L2 lookups that missed")                                    \
   X(DRAM_BYTES_READ, "dram.bytes_read", "bytes", "bytes read from DRAM (L2 line fills)")          \
   X(DRAM_BYTES_WRITTEN, "dram.bytes_written", "bytes",                                            \
     "bytes written to DRAM (dirty L2 lines evicted)")                                             \
   X(TTU_DATAPATH_BUSY_CYCLES, "ttu.datapath_busy_cycles", "cycles",                               \
     "cycles the intersection datapath accepted tests (divide by sm.cycles for utilization)")      \
   X(TTU_MERGED_REQUESTS, "ttu.merged_requests", "lines",                                          \
     "L0 misses served by another ray's request for the same line (ttu.merge_node_requests)")      \
   X(TTU_PREDICTOR_REPACKED_WARPS, "ttu.predictor_repacked_warps", "warps",                        \
     "warps of predicted rays the partial warp collector sent to traversal (docs/predictor.md)")   \
   X(TTU_PREDICTOR_COLLECTOR_TIMEOUTS, "ttu.predictor_collector_timeouts", "warps",                \
     "repacked warps sent with fewer than 32 rays because the collector's timeout passed")         \
   X(TTU_RAY_LATENCY_LT_64, "ttu.ray_latency_lt_64", "rays",                                       \
     "TTU instructions of one lane that took under 64 cycles")                                     \
   X(TTU_RAY_LATENCY_LT_256, "ttu.ray_latency_lt_256", "rays",                                     \
     "TTU lane instructions of 64..255 cycles")                                                    \
   X(TTU_RAY_LATENCY_LT_1024, "ttu.ray_latency_lt_1024", "rays",                                   \
     "TTU lane instructions of 256..1023 cycles")                                                  \
   X(TTU_RAY_LATENCY_LT_4096, "ttu.ray_latency_lt_4096", "rays",                                   \
     "TTU lane instructions of 1024..4095 cycles")                                                 \
   X(TTU_RAY_LATENCY_GE_4096, "ttu.ray_latency_ge_4096", "rays",                                   \
     "TTU lane instructions of 4096 cycles or more")                                               \
   /* Graphics (docs/graphics-hw.md): counted in both modes. */                                    \
   X(GFX_DRAWS, "gfx.draws", "draws", "DRAW and DRAW_INDIRECT methods executed")                   \
   X(GFX_RELAXED_DRAWS, "gfx.relaxed_draws", "draws",                                              \
     "draws with PIXEL_ORDER RELAXED whose state makes fragment order invisible (graphics-hw.md)") \
   X(GFX_PRIMITIVES, "gfx.primitives", "primitives",                                               \
     "points, lines and triangles assembled from vertex batches and sent to clipping")             \
   X(GFX_PRIMITIVES_CULLED, "gfx.primitives_culled", "primitives",                                 \
     "primitives that covered nothing: clipped away, culled by facing, zero area or off-target")   \
   X(GFX_TILES_HIZ_CULLED, "gfx.tiles_hiz_culled", "tiles",                                        \
     "8x8 tiles of a primitive dropped by hierarchical Z before the fine raster")                  \
   X(GFX_QUADS, "gfx.quads", "quads", "2x2 quads with coverage sent to fragment work")             \
   X(GFX_HELPER_LANES, "gfx.helper_lanes", "lanes",                                                \
     "fragment lanes launched without coverage (helper invocations for derivatives)")              \
   X(GFX_SAMPLES_PASSED, "gfx.samples_passed", "samples",                                          \
     "samples that passed the fragment tests (what occlusion queries count)")                      \
   X(GFX_VERTEX_WARPS, "gfx.vertex_warps", "warps",                                                \
     "vertex warps launched (one per vertex batch)")                                               \
   X(GFX_FRAGMENT_WARPS, "gfx.fragment_warps", "warps",                                            \
     "fragment warps launched (up to 8 quads each)")                                               \
   X(GFX_INPUT_VERTICES, "gfx.input_vertices", "vertices",                                         \
     "vertices input assembly read: one per index or vertex of each instance, restarts excluded")  \
   X(GFX_VERTEX_LANES, "gfx.vertex_lanes", "lanes",                                                \
     "vertex-program invocations: lanes of vertex warps (a vertex reused in a batch runs once)")   \
   X(GFX_PRIMITIVES_CLIPPED, "gfx.primitives_clipped", "primitives",                               \
     "primitives clipping passed on to setup (a clipped polygon counts once)")                     \
   X(GFX_FRAGMENT_LANES, "gfx.fragment_lanes", "lanes",                                            \
     "fragment-program invocations: fragment lanes with coverage (helper lanes not counted)")      \
   X(ROP_BLENDS, "rop.blends", "samples", "samples the CROP blended into a color target")

enum ppu_counter {
#define PPU_COUNTER_ENUM_(id, name, unit, desc) PPU_COUNTER_##id,
   PPU_COUNTERS(PPU_COUNTER_ENUM_)
#undef PPU_COUNTER_ENUM_
       PPU_COUNTER_COUNT
};

/* Copies the current value of every counter into values[PPU_COUNTER_COUNT].
 * Callable from any thread at any time; each value is read atomically, the
 * set as a whole is not a snapshot of one instant. */
void ppu_gpu_read_counters(struct ppu_gpu *gpu, uint64_t *values /* PPU_COUNTER_COUNT */);

/* Table lookups; NULL for an id out of range. */
const char *ppu_counter_name(enum ppu_counter id);
const char *ppu_counter_unit(enum ppu_counter id);
const char *ppu_counter_description(enum ppu_counter id);

#endif /* PPU_COUNTERS_H */
