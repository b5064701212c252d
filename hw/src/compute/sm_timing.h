/* The SM in the timing mode (docs/timing.md): the multithreaded-sm seed's
 * instruction scheduler with its resource scoreboard, window and timeout
 * (FIG. 6), per-scheduler functional-unit pipelines, the LSU in front of the
 * L1, and the TTU's and texture unit's latencies.
 *
 * Execute at issue: an instruction runs, through the same code as in
 * functional mode (ppu_sm_issue), in the cycle the scheduler issues it; the
 * timing model only decides that cycle and when its results may be read.
 * So every value a program computes is the functional mode's, bit for bit,
 * as long as the program has no data race (whose outcome the functional
 * mode's thread interleaving does not fix either).
 *
 * Each SM keeps its own clock (`now`); the compute engine's timing loop
 * (compute_timing.c) always steps the SM that is furthest behind, so their
 * requests reach the shared L2 and DRAM in near cycle order. */
#ifndef PPU_COMPUTE_SM_TIMING_H
#define PPU_COMPUTE_SM_TIMING_H

#include <stdbool.h>
#include <stdint.h>

#include "compute/sm.h"
#include "timing/fu_pipeline.h"
#include "timing/line_log.h"
#include "timing/memory_system.h"
#include "timing/ttu_datapath.h"
#include "timing/ttu_predictor_timing.h"

#define PPU_SM_SCHEDULERS_MAX 16u
/* sm.warps_max's limit (hw_config.h). */
#define PPU_SM_WARPS_MAX 64u
/* Register scoreboard slots: R0..R254 plus room for a vector that starts
 * at R254 (RZ, 255, is never waited for). */
#define PPU_SCOREBOARD_REGS 260u

enum ppu_fu_class {
   PPU_FU_ALU,
   PPU_FU_FMA,
   PPU_FU_SFU,
   PPU_FU_FP64,
   PPU_FU_LSU,
   PPU_FU_TEX,
   PPU_FU_TTU,
   PPU_FU_COUNT,
};

/* Why a warp cannot issue this cycle; the order is the stall counters'. */
enum ppu_warp_wait {
   PPU_WAIT_NONE,       /* it can issue */
   PPU_WAIT_DEPENDENCY, /* an operand from an ALU/FMA/SFU/FP64 pipe */
   PPU_WAIT_MEMORY,     /* an operand from a load, texture or TTU instruction */
   PPU_WAIT_PIPE,       /* its pipeline (or the TTU) takes no instruction now */
   PPU_WAIT_BARRIER,
   PPU_WAIT_FETCH, /* its instruction-cache line is being filled */
};

/* The resource scoreboard of one warp (seed: Resource Scoreboard 460):
 * the cycle each register and predicate is written, and whether by a
 * memory-side unit (for the stall reason). */
struct ppu_warp_timing {
   uint64_t reg_ready[PPU_SCOREBOARD_REGS];
   uint8_t reg_from_memory[PPU_SCOREBOARD_REGS];
   uint64_t pred_ready[PPU_PRED_COUNT + 1];
   uint64_t fetch_ready;   /* its instruction line is there */
   uint64_t blocked_until; /* the scheduler need not look before this cycle... */
   uint8_t blocked_why;    /* ...because of this (enum ppu_warp_wait) */
   uint64_t waiting_since; /* last issue (or launch): for the timeout */
};

/* What the TTU did for one lane during one TTU instruction (counter deltas
 * and the L0 lines it missed), filled by sm_ttu.c. */
struct ppu_ttu_lane_work {
   uint64_t node_fetches, boxes, triangles, switches, spills;
   /* The intersection predictor (docs/predictor.md): the ray looked the
    * table up, found a prediction, taught the table. */
   bool looked_up, predicted, updated;
   uint64_t pred_before[3]; /* sm_ttu.c's scratch: the counters before */
   struct ppu_line_log misses;
};

struct ppu_sm_timing {
   uint64_t now; /* this SM's clock */
   const struct ppu_gpu_config *cfg;
   uint32_t schedulers;
   struct ppu_fu_pipe pipe[PPU_SM_SCHEDULERS_MAX][PPU_FU_COUNT];
   struct ppu_warp_timing *warp; /* per warp slot */
   uint32_t warp_slots;
   struct ppu_l1 l1;
   struct ppu_ttu_datapath datapath;
   uint64_t *ttu_warp_free_at; /* ttu.warps_in_flight slots: when each TTU instruction ends */
   uint64_t *ttu_ray_free_at;  /* ttu.ray_queue_slots slots: when each ray's slot frees */
   uint64_t workgroup_ready;   /* the CWDU can place the next workgroup on this SM */
   /* The intersection predictor's ports and collector; NULL when it is
    * off. */
   struct ppu_ttu_predictor_timing *predictor;
   /* Scratch of the instruction being issued (sm_ttu.c, the texture hook). */
   struct ppu_ttu_lane_work ttu_lane[PPU_WARP_SIZE];
   struct ppu_line_log tex_misses;
};

/* Gives sm its timing state (on top of ppu_sm_init); false when host
 * memory runs out. l2 is the chip's. */
bool ppu_sm_timing_create(struct ppu_sm *sm, const struct ppu_gpu_config *cfg, struct ppu_l2 *l2);
void ppu_sm_timing_destroy(struct ppu_sm *sm);
/* After ppu_sm_begin_grid: the clock starts at `start`. False when out of
 * host memory. */
bool ppu_sm_timing_begin_grid(struct ppu_sm *sm, uint64_t start);
/* The grid's last cycle has passed: units holding work until a timeout
 * (the predictor's collector) let it go and count it. */
void ppu_sm_timing_end_grid(struct ppu_sm *sm);
/* The CWDU placed a workgroup (its warps are the last in the age order):
 * they may fetch from cycle ready_at. */
void ppu_sm_timing_workgroup_launched(struct ppu_sm *sm, uint64_t ready_at);
/* One cycle of the SM's schedulers, or, when no warp can issue, a jump to
 * the next cycle one can. Faults go to the grid. */
void ppu_sm_step_timed(struct ppu_sm *sm, struct ppu_grid *g);

/* The cycle a texture instruction issued at `now` ends: tex.latency, or
 * tex.latency after the last texel line that missed the texture cache
 * (tex_misses) arrives through the L1. sm_timing.c */
uint64_t ppu_sm_timing_tex(struct ppu_sm *sm, uint64_t now);

/* The cycle a TTU instruction issued at `now` ends for the executing lanes
 * `exec`, from the work sm_ttu.c recorded in ttu_lane[]; takes a TTU slot
 * and the datapath, counts the TTU timing counters. sm_timing_ttu.c */
uint64_t ppu_sm_timing_ttu(struct ppu_sm *sm, uint64_t now, uint32_t exec);

#endif /* PPU_COMPUTE_SM_TIMING_H */
