/* The hardware configuration file: named keys with units, one per line
 * (`sm.shared_memory = 64 KiB`), `#` comments, blank lines. Keys not given
 * keep their default. docs/hw-config.md is generated from the table below
 * (`ppu-config --doc`), so the documentation cannot drift from the parser.
 *
 * Why a file with named keys: the GPGPU-Sim lesson (STYLE.md) - positional
 * option strings are unreadable and unvalidated; every key here has one
 * default, a range and a unit, and every error names file, line and key.
 *
 * Nothing here knows about Vulkan.
 */
#ifndef PPU_HW_CONFIG_H
#define PPU_HW_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ppu/gpu.h"

enum ppu_hw_config_type {
   PPU_HWCFG_INT,   /* decimal or 0x hex, optionally followed by the key's unit */
   PPU_HWCFG_SIZE,  /* bytes: a number with B, KiB, MiB, GiB or TiB */
   PPU_HWCFG_BOOL,  /* true/false, yes/no, on/off, 1/0 */
   PPU_HWCFG_ENUM,  /* one of the key's names */
   PPU_HWCFG_FLOAT, /* decimal, optionally followed by the key's unit */
};

/* Who reads a key: the functional model (and so both modes), or only the
 * timing mode (docs/timing.md). */
enum ppu_hw_config_use {
   PPU_HWCFG_USE_MODEL,  /* the functional model acts on it */
   PPU_HWCFG_USE_TIMING, /* only gpu.mode = timing acts on it */
};

#define PPU_HWCFG_U64_MAX 18446744073709551615ull

/* A step meaning "a power of two" rather than "a multiple of": for sizes a
 * unit indexes by masking (a direct-mapped TLB). No key needs a multiple
 * this large, so the value cannot be confused with one. */
#define PPU_HWCFG_STEP_POW2 PPU_HWCFG_U64_MAX

/* THE table of keys, in documentation order.
 *   X(id, "name", type, field of struct ppu_gpu_config, default, min, max,
 *     step (value must be a multiple; 0 = any; PPU_HWCFG_STEP_POW2 = a power
 *     of two), "unit", use,
 *     enum value names (NULL-terminated list, or NULL), "description")
 * Float keys give default/min/max as floating constants; the others as
 * integers. Preset numbers live in hw/presets/ with their sources. */
#define PPU_HW_CONFIG_KEYS(X)                                                                      \
   X(GPU_MODE, "gpu.mode", PPU_HWCFG_ENUM, mode, PPU_GPU_MODE_FUNCTIONAL, 0, 1, 0, "",             \
     PPU_HWCFG_USE_MODEL, ppu_gpu_mode_names,                                                      \
     "how the model runs: `functional` (fast, instruction by instruction) or `timing` (the "       \
     "same execution, each warp instruction issued when scoreboard, pipelines, caches and "        \
     "DRAM allow; counts cycles; docs/timing.md)")                                                 \
   X(GPU_CLOCK, "gpu.clock", PPU_HWCFG_FLOAT, clock_ghz, 1.0, 0.05, 10.0, 0, "GHz",                \
     PPU_HWCFG_USE_TIMING, NULL, "core clock: turns the timing mode's cycles into time")           \
   X(GPU_TIMING_PROGRESS, "gpu.timing_progress", PPU_HWCFG_BOOL, timing_progress, 1, 0, 1, 0, "",  \
     PPU_HWCFG_USE_TIMING, NULL,                                                                   \
     "a grid that runs longer than a second reports simulated cycles and % of its workgroups "     \
     "done on stderr, once a second")                                                              \
   X(GPU_VRAM, "gpu.vram", PPU_HWCFG_SIZE, vram_size, 8ull << 30, 16ull << 20, 1ull << 40, 4096,   \
     "B", PPU_HWCFG_USE_MODEL, NULL,                                                               \
     "device memory, whole 4 KiB pages; reserved lazily, so it costs host RAM only once touched")  \
   X(GPU_CHANNELS, "gpu.channels", PPU_HWCFG_INT, max_channels, 64, 1, 4096, 0, "channels",        \
     PPU_HWCFG_USE_MODEL, NULL,                                                                    \
     "GPFIFO channels the host interface serves (the Vulkan driver needs 16: one per queue)")      \
   X(GPU_GPCS, "gpu.gpcs", PPU_HWCFG_INT, gpc_count, 2, 1, 256, 0, "GPCs", PPU_HWCFG_USE_MODEL,    \
     NULL, "graphics processing clusters; gpcs x tpcs_per_gpc x sms_per_tpc is at most 256 SMs")   \
   X(GPU_TPCS_PER_GPC, "gpu.tpcs_per_gpc", PPU_HWCFG_INT, tpcs_per_gpc, 2, 1, 256, 0, "TPCs",      \
     PPU_HWCFG_USE_MODEL, NULL, "texture processing clusters in each GPC")                         \
   X(GPU_SMS_PER_TPC, "gpu.sms_per_tpc", PPU_HWCFG_INT, sms_per_tpc, 1, 1, 256, 0, "SMs",          \
     PPU_HWCFG_USE_MODEL, NULL, "streaming multiprocessors in each TPC")                           \
   X(SM_WARPS_MAX, "sm.warps_max", PPU_HWCFG_INT, max_warps_per_sm, 48, 1, 64, 0, "warps",         \
     PPU_HWCFG_USE_MODEL, NULL,                                                                    \
     "resident warps per SM (the Vulkan driver needs 32 for 1024-invocation workgroups)")          \
   X(SM_WORKGROUPS_MAX, "sm.workgroups_max", PPU_HWCFG_INT, max_workgroups_per_sm, 16, 1, 64, 0,   \
     "workgroups", PPU_HWCFG_USE_MODEL, NULL, "resident workgroups (CTA slots) per SM")            \
   X(SM_REGISTERS, "sm.registers", PPU_HWCFG_INT, registers_per_sm, 65536, 32, 1u << 20, 0,        \
     "registers", PPU_HWCFG_USE_MODEL, NULL,                                                       \
     "32-bit registers per SM (the Vulkan driver needs 65536)")                                    \
   X(SM_SHARED_MEMORY, "sm.shared_memory", PPU_HWCFG_SIZE, shared_memory_per_sm, 48u << 10, 0,     \
     1u << 20, 0, "B", PPU_HWCFG_USE_MODEL, NULL,                                                  \
     "shared memory per SM (the Vulkan driver needs 48 KiB)")                                      \
   X(SM_ICACHE_LINES, "sm.icache_lines", PPU_HWCFG_INT, icache_lines, 256, 1, 1024, 0, "lines",    \
     PPU_HWCFG_USE_MODEL, NULL,                                                                    \
     "instruction-cache lines of 128 bytes per SM, direct mapped; changes "                        \
     "`compute.icache_misses`, never results")                                                     \
   X(SM_EXEC, "sm.exec", PPU_HWCFG_ENUM, sm_exec, PPU_SM_EXEC_AUTO, 0, 2, 0, "",                   \
     PPU_HWCFG_USE_MODEL, ppu_sm_exec_names,                                                       \
     "how the functional model runs SM programs: `interp` (the reference interpreter), `jit` "     \
     "(translated to host vector code before they run) or `auto` (translated once a program "      \
     "has issued sm.jit_threshold warp instructions); never changes results, faults or "           \
     "counters (docs/jit.md)")                                                                     \
   X(SM_JIT_THRESHOLD, "sm.jit_threshold", PPU_HWCFG_INT, jit_threshold, 2000000, 0,               \
     PPU_HWCFG_U64_MAX, 0, "warp instructions", PPU_HWCFG_USE_MODEL, NULL,                         \
     "with sm.exec = auto: warp instructions a program issues on the interpreter before it is "    \
     "translated, at the least (it must also have issued 50,000 per instruction of its own; "      \
     "docs/jit.md)")                                                                               \
   X(MMU_TLB_ENTRIES, "mmu.tlb_entries", PPU_HWCFG_INT, tlb_entries, 64, 1, 256,                   \
     PPU_HWCFG_STEP_POW2, "entries", PPU_HWCFG_USE_MODEL, NULL,                                    \
     "TLB entries of each SM's MMU port, direct mapped (the host, front-end and copy engine "      \
     "ports keep 64); changes the `mmu.tlb_*` counts, never results")                              \
   X(TTU_L0_LINES, "ttu.l0_lines", PPU_HWCFG_INT, ttu_l0_lines, 8, 1, 64, 0, "lines",              \
     PPU_HWCFG_USE_MODEL, NULL,                                                                    \
     "TTU L0 cache lines of 128 bytes, fully associative LRU; the beam-tracing seed's 8. Changes " \
     "`ttu.l0_hits`/`ttu.l0_misses`, never results")                                               \
   X(TTU_STACK_ENTRIES, "ttu.stack_entries", PPU_HWCFG_INT, ttu_stack_entries, 8, 1, 64, 0,        \
     "entries", PPU_HWCFG_USE_MODEL, NULL,                                                         \
     "per-ray traversal stack entries (pending child nodes) the TTU holds; more spill to "         \
     "local memory (predictor notes: 8). Changes `ttu.stack_spills`, never results")               \
   X(TTU_BEAM_ENABLED, "ttu.beam.enabled", PPU_HWCFG_BOOL, ttu_beam_enabled, 0, 0, 1, 0, "",       \
     PPU_HWCFG_USE_MODEL, NULL,                                                                    \
     "beam queries (beam-tracing seed, docs/ttu.md): when the rays a TTU.PROCEED starts are "      \
     "coherent, the TTU walks the upper BVH levels once with the beam enclosing them and the "     \
     "rays read those nodes from it instead of fetching them. Changes `ttu.node_fetches`, "        \
     "`ttu.l0_*` and `ttu.beam_*`, never results")                                                 \
   X(TTU_BEAM_NODES, "ttu.beam.nodes", PPU_HWCFG_INT, ttu_beam_nodes, 64, 1, 256, 0, "nodes",      \
     PPU_HWCFG_USE_MODEL, NULL,                                                                    \
     "BVH nodes a beam walk fetches and holds for the rays of its warp instruction, breadth "      \
     "first from the top-level root")                                                              \
   X(TTU_RAY_QUEUE_SLOTS, "ttu.ray_queue_slots", PPU_HWCFG_INT, ttu_ray_queue_slots, 32, 1, 1024,  \
     0, "slots", PPU_HWCFG_USE_TIMING, NULL,                                                       \
     "rays in flight in the TTU scheduler's queue, hiding L0 miss latency (beam-tracing "          \
     "seed: 32)")                                                                                  \
   X(TTU_BOX_TESTS_PER_CYCLE, "ttu.box_tests_per_cycle", PPU_HWCFG_INT, ttu_box_tests_per_cycle,   \
     4, 1, 64, 0, "tests/cycle", PPU_HWCFG_USE_TIMING, NULL,                                       \
     "ray-box tests the intersection datapath completes per cycle (unified datapath seed: "        \
     "4)")                                                                                         \
   X(TTU_TRIANGLE_TESTS_PER_CYCLE, "ttu.triangle_tests_per_cycle", PPU_HWCFG_INT,                  \
     ttu_triangle_tests_per_cycle, 1, 1, 64, 0, "tests/cycle", PPU_HWCFG_USE_TIMING, NULL,         \
     "ray-triangle tests the intersection datapath completes per cycle (unified datapath "         \
     "seed: 1)")                                                                                   \
   X(TTU_MERGE_NODE_REQUESTS, "ttu.merge_node_requests", PPU_HWCFG_BOOL, ttu_merge_node_requests,  \
     1, 0, 1, 0, "", PPU_HWCFG_USE_TIMING, NULL,                                                   \
     "rays waiting for the same BVH line share one L0 fill instead of one fill each, as "          \
     "the predictor notes' RT unit merges same-node requests")                                     \
   X(TTU_WARPS_IN_FLIGHT, "ttu.warps_in_flight", PPU_HWCFG_INT, ttu_warps_in_flight, 8, 1, 64, 0,  \
     "warps", PPU_HWCFG_USE_TIMING, NULL,                                                          \
     "TTU instructions (warps) the TTU works on at once; another waits to issue (predictor "       \
     "notes: the RT unit executes up to 8 warps)")                                                 \
   X(TTU_DATAPATH_STAGES, "ttu.datapath_stages", PPU_HWCFG_INT, ttu_datapath_stages, 8, 1, 64, 0,  \
     "stages", PPU_HWCFG_USE_TIMING, NULL,                                                         \
     "pipeline stages of the unified intersection datapath: latency of one test (unified "         \
     "datapath seed, FIG. 4: stages 0..7)")                                                        \
   X(TTU_SWITCH_PENALTY, "ttu.switch_penalty_cycles", PPU_HWCFG_INT, ttu_switch_penalty, 1, 0, 64, \
     0, "cycles", PPU_HWCFG_USE_TIMING, NULL,                                                      \
     "issue cycles lost when the datapath's input changes between box and triangle tests (the "    \
     "control unit reconfigures the mux layers; an assumption, the seed gives no figure)")         \
   X(TTU_L0_LATENCY, "ttu.l0_latency", PPU_HWCFG_INT, ttu_l0_latency, 2, 1, 1000, 0, "cycles",     \
     PPU_HWCFG_USE_TIMING, NULL,                                                                   \
     "cycles from a node request to its data when the L0 hits (predictor notes: 2 cycles of "      \
     "table access)")                                                                              \
   X(TTU_SETUP_LATENCY, "ttu.setup_latency", PPU_HWCFG_INT, ttu_setup_latency, 4, 0, 1000, 0,      \
     "cycles", PPU_HWCFG_USE_TIMING, NULL,                                                         \
     "cycles of a TTU instruction before its first node request: queueing and setup "              \
     "(assumption)")                                                                               \
   X(TTU_PREDICTOR_ENABLED, "ttu.predictor.enabled", PPU_HWCFG_BOOL, ttu_predictor.enabled, 0, 0,  \
     1, 0, "", PPU_HWCFG_USE_MODEL, NULL,                                                          \
     "the ray-intersection predictor of the MICRO 2021 paper, for occlusion rays "                 \
     "(docs/ttu.md); results are the same with it on or off")                                      \
   X(TTU_PREDICTOR_ENTRIES, "ttu.predictor.entries", PPU_HWCFG_INT, ttu_predictor.entries, 1024,   \
     1, 1u << 24, 0, "entries", PPU_HWCFG_USE_MODEL, NULL,                                         \
     "predictor table entries per SM: a power of two, a multiple of the ways (paper: 1024)")       \
   X(TTU_PREDICTOR_WAYS, "ttu.predictor.ways", PPU_HWCFG_INT, ttu_predictor.ways, 4, 1, 1u << 20,  \
     0, "ways", PPU_HWCFG_USE_MODEL, NULL, "associativity of the predictor table (paper: 4)")      \
   X(TTU_PREDICTOR_TAG_BITS, "ttu.predictor.tag_bits", PPU_HWCFG_INT, ttu_predictor.tag_bits, 15,  \
     1, 32, 0, "bits", PPU_HWCFG_USE_MODEL, NULL, "tag bits per table entry (paper: 15)")          \
   X(TTU_PREDICTOR_NODES_PER_ENTRY, "ttu.predictor.nodes_per_entry", PPU_HWCFG_INT,                \
     ttu_predictor.nodes_per_entry, 1, 1, 8, 0, "nodes", PPU_HWCFG_USE_MODEL, NULL,                \
     "BVH nodes remembered per entry, LRU within the entry (paper: 1)")                            \
   X(TTU_PREDICTOR_REPLACEMENT, "ttu.predictor.replacement", PPU_HWCFG_ENUM,                       \
     ttu_predictor.replacement, PPU_TTU_PREDICTOR_REPLACEMENT_LRU, 1, 2, 0, "",                    \
     PPU_HWCFG_USE_MODEL, ppu_ttu_predictor_replacement_names,                                     \
     "which way of a set a new tag replaces: `lru` (least recently looked up or updated; the "     \
     "paper's) or `fifo` (first allocated)")                                                       \
   X(TTU_PREDICTOR_HASH, "ttu.predictor.hash", PPU_HWCFG_ENUM, ttu_predictor.hash,                 \
     PPU_TTU_PREDICTOR_HASH_GRID_SPHERICAL, 1, 2, 0, "", PPU_HWCFG_USE_MODEL,                      \
     ppu_ttu_predictor_hash_names,                                                                 \
     "ray hash: `grid_spherical` (origin in a 5-bit grid, direction angles) or `two_point`")       \
   X(TTU_PREDICTOR_GO_UP_LEVEL, "ttu.predictor.go_up_level", PPU_HWCFG_INT,                        \
     ttu_predictor.go_up_level, 3, 0, 32, 0, "levels", PPU_HWCFG_USE_MODEL, NULL,                  \
     "the table learns the k-th ancestor of the node whose leaf was hit (paper: 3; one level "     \
     "of our 8-wide BVH spans about three binary levels)")                                         \
   X(TTU_PREDICTOR_LOOKUP_FIFO, "ttu.predictor.lookup_fifo", PPU_HWCFG_INT,                        \
     ttu_predictor.lookup_fifo, 4, 1, 32, 0, "lookups/cycle", PPU_HWCFG_USE_TIMING, NULL,          \
     "predictor table lookup ports: the rays of a TTU instruction queue in the lookup FIFO and "   \
     "this many are served per cycle, answered 2 cycles later (paper: 4 ports)")                   \
   X(TTU_PREDICTOR_UPDATE_FIFO, "ttu.predictor.update_fifo", PPU_HWCFG_INT,                        \
     ttu_predictor.update_fifo, 4, 1, 32, 0, "updates/cycle", PPU_HWCFG_USE_TIMING, NULL,          \
     "predictor table update ports: rays that hit queue their update in the update FIFO and this " \
     "many are written per cycle; a ray's slot frees once its update is taken (paper: 4 ports)")   \
   X(TTU_PREDICTOR_COLLECTOR_RAY_IDS, "ttu.predictor.collector_ray_ids", PPU_HWCFG_INT,            \
     ttu_predictor.collector_ray_ids, 64, 32, 1024, 0, "rays", PPU_HWCFG_USE_TIMING, NULL,         \
     "ray ids the partial warp collector can hold (paper: 64); a group leaves as a repacked warp " \
     "at 32 rays or at the timeout, so the model never holds more than 32")                        \
   X(TTU_PREDICTOR_COLLECTOR_TIMEOUT, "ttu.predictor.collector_timeout_cycles", PPU_HWCFG_INT,     \
     ttu_predictor.collector_timeout_cycles, 16, 0, 1023, 0, "cycles", PPU_HWCFG_USE_TIMING, NULL, \
     "cycles after its first ray that a partial warp of predicted rays leaves the collector with " \
     "fewer than 32 rays (paper: 5..30 make no difference)")                                       \
   X(TTU_PREDICTOR_REPACKING, "ttu.predictor.repacking", PPU_HWCFG_ENUM, ttu_predictor.repacking,  \
     PPU_TTU_PREDICTOR_REPACKING_ON, 1, 2, 0, "", PPU_HWCFG_USE_TIMING,                            \
     ppu_ttu_predictor_repacking_names,                                                            \
     "warp repacking (paper 4.4): `on`, predicted rays leave their warp for the partial warp "     \
     "collector and run in repacked warps with slots of their own; `off`, they stay in their "     \
     "warp")                                                                                       \
   X(COMPUTE_LAUNCH_LATENCY, "compute.launch_latency", PPU_HWCFG_INT, launch_latency, 1000, 0,     \
     1000000, 0, "cycles", PPU_HWCFG_USE_TIMING, NULL,                                             \
     "cycles from LAUNCH to the first workgroup: host interface, front end reading the QMD and "   \
     "constant banks (assumption: about 1 us)")                                                    \
   X(COMPUTE_WORKGROUP_LAUNCH_CYCLES, "compute.workgroup_launch_cycles", PPU_HWCFG_INT,            \
     workgroup_launch_cycles, 20, 0, 100000, 0, "cycles", PPU_HWCFG_USE_TIMING, NULL,              \
     "cycles the CWDU takes to place one workgroup on an SM (assumption)")                         \
   X(SM_SCHEDULERS, "sm.schedulers", PPU_HWCFG_INT, sm_schedulers, 4, 1, 16, 0, "schedulers",      \
     PPU_HWCFG_USE_TIMING, NULL,                                                                   \
     "warp schedulers per SM, each with its own pipelines; warp slot i belongs to scheduler i "    \
     "mod schedulers")                                                                             \
   X(SM_ISSUE_WIDTH, "sm.issue_width", PPU_HWCFG_INT, sm_issue_width, 1, 1, 8, 0,                  \
     "instructions/cycle", PPU_HWCFG_USE_TIMING, NULL,                                             \
     "warp instructions one scheduler issues per cycle (from different warps)")                    \
   X(SM_ISSUE_WINDOW, "sm.issue_window", PPU_HWCFG_INT, sm_issue_window, 16, 1, 64, 0, "warps",    \
     PPU_HWCFG_USE_TIMING, NULL,                                                                   \
     "oldest warps of a scheduler whose next instruction it considers each cycle "                 \
     "(multithreaded-sm seed, FIG. 6: instruction window)")                                        \
   X(SM_SCHEDULER_TIMEOUT, "sm.scheduler_timeout", PPU_HWCFG_INT, sm_scheduler_timeout, 1000, 1,   \
     1000000, 0, "cycles", PPU_HWCFG_USE_TIMING, NULL,                                             \
     "a warp ready but not issued for this long goes before older warps (seed FIG. 6: "            \
     "timeout)")                                                                                   \
   X(SM_ALU_LATENCY, "sm.alu.latency", PPU_HWCFG_INT, alu_latency, 4, 1, 1000, 0, "cycles",        \
     PPU_HWCFG_USE_TIMING, NULL,                                                                   \
     "integer, logic, move, compare, conversion, subgroup and control instructions: cycles "       \
     "until a dependent instruction may issue")                                                    \
   X(SM_ALU_INTERVAL, "sm.alu.interval", PPU_HWCFG_INT, alu_interval, 1, 1, 64, 0, "cycles",       \
     PPU_HWCFG_USE_TIMING, NULL, "cycles between two warp instructions on one scheduler's ALU")    \
   X(SM_FMA_LATENCY, "sm.fma.latency", PPU_HWCFG_INT, fma_latency, 4, 1, 1000, 0, "cycles",        \
     PPU_HWCFG_USE_TIMING, NULL, "FP32 add, multiply, FMA, min/max, compare and rounding")         \
   X(SM_FMA_INTERVAL, "sm.fma.interval", PPU_HWCFG_INT, fma_interval, 1, 1, 64, 0, "cycles",       \
     PPU_HWCFG_USE_TIMING, NULL,                                                                   \
     "cycles between two warp instructions on one scheduler's FMA "                                \
     "pipe")                                                                                       \
   X(SM_SFU_LATENCY, "sm.sfu.latency", PPU_HWCFG_INT, sfu_latency, 20, 1, 1000, 0, "cycles",       \
     PPU_HWCFG_USE_TIMING, NULL, "MUFU (transcendentals), FDIV, IDIV and IREM")                    \
   X(SM_SFU_INTERVAL, "sm.sfu.interval", PPU_HWCFG_INT, sfu_interval, 8, 1, 64, 0, "cycles",       \
     PPU_HWCFG_USE_TIMING, NULL,                                                                   \
     "cycles between two warp instructions on one scheduler's SFU (8: 4 lanes per cycle)")         \
   X(SM_FP64_LATENCY, "sm.fp64.latency", PPU_HWCFG_INT, fp64_latency, 8, 1, 1000, 0, "cycles",     \
     PPU_HWCFG_USE_TIMING, NULL, "F64 arithmetic")                                                 \
   X(SM_FP64_INTERVAL, "sm.fp64.interval", PPU_HWCFG_INT, fp64_interval, 16, 1, 64, 0, "cycles",   \
     PPU_HWCFG_USE_TIMING, NULL, "cycles between two F64 warp instructions on one scheduler")      \
   X(SM_SHARED_LATENCY, "sm.shared.latency", PPU_HWCFG_INT, shared_latency, 24, 1, 1000, 0,        \
     "cycles", PPU_HWCFG_USE_TIMING, NULL,                                                         \
     "shared-memory load without bank conflicts; each extra access to one of the 32 banks adds "   \
     "a cycle")                                                                                    \
   X(TEX_LATENCY, "tex.latency", PPU_HWCFG_INT, tex_latency, 100, 1, 10000, 0, "cycles",           \
     PPU_HWCFG_USE_TIMING, NULL,                                                                   \
     "texture instruction whose texels hit the texture cache: queue, TAU, latency FIFO, TFU, "     \
     "TRB; misses add their L1/L2/DRAM time")                                                      \
   X(L1_SIZE, "l1.size", PPU_HWCFG_SIZE, l1_size, 64u << 10, 4u << 10, 16u << 20, 4096, "B",       \
     PPU_HWCFG_USE_TIMING, NULL,                                                                   \
     "per-SM L1 data cache (128-byte lines) shared by the LSU, the TTU's L0 fills and the "        \
     "texture cache's fills")                                                                      \
   X(L1_WAYS, "l1.ways", PPU_HWCFG_INT, l1_ways, 4, 1, 64, 0, "ways", PPU_HWCFG_USE_TIMING, NULL,  \
     "associativity of the L1 (LRU)")                                                              \
   X(L1_LATENCY, "l1.latency", PPU_HWCFG_INT, l1_latency, 32, 1, 10000, 0, "cycles",               \
     PPU_HWCFG_USE_TIMING, NULL, "global load that hits the L1")                                   \
   X(L1_MSHRS, "l1.mshrs", PPU_HWCFG_INT, l1_mshrs, 64, 1, 4096, 0, "lines", PPU_HWCFG_USE_TIMING, \
     NULL, "L1 misses in flight per SM; a further miss waits for the oldest to return")            \
   X(L2_SIZE, "l2.size", PPU_HWCFG_SIZE, l2_size, 1u << 20, 64u << 10, 1ull << 32, 4096, "B",      \
     PPU_HWCFG_USE_TIMING, NULL, "L2 cache shared by all SMs (128-byte lines, write-back)")        \
   X(L2_WAYS, "l2.ways", PPU_HWCFG_INT, l2_ways, 16, 1, 64, 0, "ways", PPU_HWCFG_USE_TIMING, NULL, \
     "associativity of the L2 (LRU)")                                                              \
   X(L2_LATENCY, "l2.latency", PPU_HWCFG_INT, l2_latency, 190, 1, 10000, 0, "cycles",              \
     PPU_HWCFG_USE_TIMING, NULL, "load that misses the L1 and hits the L2, from issue")            \
   X(DRAM_LATENCY, "dram.latency", PPU_HWCFG_INT, dram_latency, 250, 1, 100000, 0, "cycles",       \
     PPU_HWCFG_USE_TIMING, NULL, "cycles a line fetch from DRAM adds to an L2 miss")               \
   X(DRAM_BYTES_PER_CYCLE, "dram.bytes_per_cycle", PPU_HWCFG_INT, dram_bytes_per_cycle, 64, 1,     \
     65536, 0, "bytes/cycle", PPU_HWCFG_USE_TIMING, NULL,                                          \
     "DRAM bandwidth in core cycles: each 128-byte line read or written back occupies the bus "    \
     "128 / this cycles")                                                                          \
   X(COMPUTE_WATCHDOG_WARP_INSTRUCTIONS, "compute.watchdog_warp_instructions", PPU_HWCFG_INT,      \
     watchdog_warp_instructions, 1ull << 34, 0, PPU_HWCFG_U64_MAX, 0, "instructions",              \
     PPU_HWCFG_USE_MODEL, NULL,                                                                    \
     "warp instructions a grid's warps together may issue before it faults with WATCHDOG; 0 = "    \
     "no grid budget (the environment variable VKPPU_WATCHDOG_WARP_INSTRUCTIONS overrides it)")    \
   X(COMPUTE_WATCHDOG_INSTRUCTIONS_PER_WARP, "compute.watchdog_instructions_per_warp",             \
     PPU_HWCFG_INT, watchdog_instructions_per_warp, 1ull << 19, 0, PPU_HWCFG_U64_MAX, 0,           \
     "instructions", PPU_HWCFG_USE_MODEL, NULL,                                                    \
     "instructions one warp may issue before it faults with WATCHDOG: stops a shader that never "  \
     "ends within seconds however long legitimate grids run; 0 = off (docs/compute.md)")           \
   X(COMPUTE_WATCHDOG_RESIDENT_INSTRUCTIONS, "compute.watchdog_resident_instructions",             \
     PPU_HWCFG_INT, watchdog_resident_instructions, 1ull << 26, 0, PPU_HWCFG_U64_MAX, 0,           \
     "instructions", PPU_HWCFG_USE_MODEL, NULL,                                                    \
     "instructions a compute grid's resident warps share: a warp's watchdog budget is this "       \
     "divided by the grid's warps the chip holds at once, if that is more than "                   \
     "compute.watchdog_instructions_per_warp, so grids of few warps may loop long "                \
     "(docs/compute.md)")                                                                          \
   X(HOST_WORKER_THREADS, "host.worker_threads", PPU_HWCFG_INT, host_worker_threads, 0, 0, 16, 0,  \
     "threads", PPU_HWCFG_USE_MODEL, NULL,                                                         \
     "host threads running the SMs; 0 = one per host CPU (at most 16). Changes speed, never "      \
     "results")

enum ppu_hw_config_key_id {
#define PPU_HWCFG_ENUM_(id, ...) PPU_HWCFG_KEY_##id,
   PPU_HW_CONFIG_KEYS(PPU_HWCFG_ENUM_)
#undef PPU_HWCFG_ENUM_
       PPU_HWCFG_KEY_COUNT
};

extern const char *const ppu_gpu_mode_names[]; /* indexed by enum ppu_gpu_mode, NULL-terminated */
/* Indexed by enum ppu_ttu_predictor_hash / _repacking (0 is "default", which
 * the keys' ranges leave out), NULL-terminated. */
extern const char *const ppu_ttu_predictor_hash_names[];
extern const char *const ppu_sm_exec_names[];
extern const char *const ppu_ttu_predictor_repacking_names[];
extern const char *const ppu_ttu_predictor_replacement_names[];

/* One row of the table, as the parser, printer and tools see it. */
struct ppu_hw_config_key {
   const char *name;
   enum ppu_hw_config_type type;
   uint64_t def, min, max;  /* integer, size, bool and enum keys */
   double fdef, fmin, fmax; /* float keys */
   uint64_t step;
   const char *unit;
   enum ppu_hw_config_use use;
   const char *const *enum_names;
   const char *description;
   size_t offset, size; /* of the field in struct ppu_gpu_config */
};

extern const struct ppu_hw_config_key ppu_hw_config_keys[PPU_HWCFG_KEY_COUNT];

/* The key named `name`, or NULL. */
const struct ppu_hw_config_key *ppu_hw_config_find_key(const char *name);
/* The field of a non-float key in cfg, widened; and the float one. */
uint64_t ppu_hw_config_get(const struct ppu_gpu_config *cfg, const struct ppu_hw_config_key *k);
double ppu_hw_config_get_float(const struct ppu_gpu_config *cfg, const struct ppu_hw_config_key *k);
/* Whether cfg holds the key's default. */
bool ppu_hw_config_is_default(const struct ppu_gpu_config *cfg, const struct ppu_hw_config_key *k);
/* Whether two configurations agree on every key. */
bool ppu_hw_config_equal(const struct ppu_gpu_config *a, const struct ppu_gpu_config *b);

/* Parses the text of a configuration file on top of *cfg (usually the
 * defaults). Every problem is appended to err (when given) as one line
 * "<source>:<line>: <what was wrong>"; keys after a bad line are still read
 * so one run shows every mistake. Checks between keys (the SM count) run at
 * the end. Returns the number of errors; *cfg is only meaningful when 0. */
unsigned ppu_hw_config_parse(struct ppu_gpu_config *cfg, const char *text, const char *source,
                             char *err, size_t err_size);

/* Defaults, then `spec`: the name of a built-in preset, or a path to a file
 * (anything with a '/' or a '.' is a path), optionally followed by
 * `,key=value` overrides read on top of it ("desktop,gpu.mode=timing").
 * Returns the number of errors. */
unsigned ppu_hw_config_load(struct ppu_gpu_config *cfg, const char *spec, char *err,
                            size_t err_size);

/* Built-in presets: the files of hw/presets/, compiled in at build time. */
struct ppu_hw_preset {
   const char *name; /* file name without .conf */
   const char *text; /* the file's bytes */
};
extern const struct ppu_hw_preset ppu_hw_presets[];
extern const unsigned ppu_hw_preset_count;
const char *ppu_hw_config_preset_text(const char *name); /* NULL if not built in */

/* The closest name to `word` among `count` names (NULL-terminated list when
 * count is 0), or NULL when none is close enough to be a likely typo. */
const char *ppu_hw_config_suggest(const char *word, const char *const *names, unsigned count);

/* Text of the effective configuration: every key as `name = value`, each
 * followed by a comment saying whether it is the default. Parsing the text
 * gives cfg back. `title` goes in the first comment line. malloc'd; NULL
 * when out of memory. */
char *ppu_hw_config_format(const struct ppu_gpu_config *cfg, const char *title);
/* docs/hw-config.md: the format, the table of keys and the presets. */
char *ppu_hw_config_doc_markdown(void);

#endif /* PPU_HW_CONFIG_H */
