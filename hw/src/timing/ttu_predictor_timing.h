/* The ray-intersection predictor's timing-mode structures (MICRO 2021
 * paper, section 4.4; docs/predictor.md): the table's lookup and update
 * ports and the partial warp collector that repacks predicted rays into
 * new warps. The functional TTU has already decided, per ray, whether it
 * looked the table up, was predicted and updated the table; this only
 * decides when.
 *
 * Ports: `lookup_fifo` (`update_fifo`) requests are served per cycle (the
 * paper's 4 ports: 32 rays of a warp cannot all reach the table in one
 * cycle, so they queue in a FIFO); a lookup's answer comes
 * PPU_TTU_PREDICTOR_TABLE_LATENCY cycles after it is served (the notes: "two
 * cycles to access the table").
 *
 * Collector: predicted rays leave their warp and queue by id; a group of
 * 32 leaves as a new (repacked) warp at once, a smaller group when
 * `collector_timeout_cycles` have passed since its first ray. A repacked
 * warp is an additional warp (section 4.4.2): it takes none of the TTU's
 * `ttu.warps_in_flight` slots, which bound the SM's TTU instructions, and
 * is admitted as the ray buffer has room, i.e. its rays take ray-buffer
 * slots as they free like every ray (sm_timing_ttu.c). Rays are
 * booked when their TTU instruction issues, so a ray that joined a group
 * which a later ray filled before the timeout keeps the timeout as its
 * departure: at most `collector_timeout_cycles` late (the paper finds
 * 5..30 cycles make no difference). */
#ifndef PPU_TIMING_TTU_PREDICTOR_TIMING_H
#define PPU_TIMING_TTU_PREDICTOR_TIMING_H

#include <stdbool.h>
#include <stdint.h>

#include "ppu/ttu_predictor.h"

#define PPU_TTU_PREDICTOR_TABLE_LATENCY 2u
#define PPU_TTU_PREDICTOR_PORTS_MAX 32u
#define PPU_TTU_REPACKED_WARP_SIZE 32u
/* Distinct lines whose requests a repacked warp's rays can share. */
#define PPU_TTU_MERGE_LINES 512u

/* Lines a group of rays requested, when and when each arrives: rays of one
 * warp waiting for the same BVH line share one request. */
struct ppu_ttu_merge_table {
   uint32_t count;
   uint64_t line[PPU_TTU_MERGE_LINES], requested[PPU_TTU_MERGE_LINES], ready[PPU_TTU_MERGE_LINES];
};

/* Requests served per cycle: each port serves one per cycle. */
struct ppu_ttu_ports {
   uint32_t count;
   uint64_t free_at[PPU_TTU_PREDICTOR_PORTS_MAX];
};

struct ppu_ttu_predictor_timing {
   struct ppu_ttu_ports lookup, update;
   bool repacking;
   uint32_t timeout;
   /* The group filling now (open: it has rays and has not left). */
   bool open;
   uint32_t rays;
   uint64_t deadline; /* first ray's arrival + timeout */
   uint64_t depart;   /* when it leaves: deadline, or the arrival that filled it */
   struct ppu_ttu_merge_table merge;
};

/* cfg is resolved and enabled. */
void ppu_ttu_predictor_timing_init(struct ppu_ttu_predictor_timing *pt,
                                   const struct ppu_ttu_predictor_config *cfg);

/* The cycle a request arriving at `at` is served (its port is then busy
 * for that cycle). */
uint64_t ppu_ttu_ports_serve(struct ppu_ttu_ports *p, uint64_t at);

/* A predicted ray whose lookup answered at `arrival` enters the collector;
 * returns the cycle its repacked warp leaves the collector. *timeouts and
 * *repacked count the groups that left
 * (a group's leaving is known when it fills, when a ray comes after its
 * deadline, or at ppu_ttu_predictor_timing_flush). */
uint64_t ppu_ttu_collector_add(struct ppu_ttu_predictor_timing *pt, uint64_t arrival,
                               uint64_t *timeouts, uint64_t *repacked);
/* The end of a grid: the open group leaves at its timeout. */
void ppu_ttu_predictor_timing_flush(struct ppu_ttu_predictor_timing *pt, uint64_t *timeouts,
                                    uint64_t *repacked);

/* When the line a ray missed at `at` is back, if a ray of the same warp
 * asked for it by then (*found); else *found is false and the caller sends
 * the request and adds it. The rays' walks are booked one after the other,
 * so a ray may miss a line at a cycle before another ray's request for it
 * was booked: that request cannot serve it. */
uint64_t ppu_ttu_merge_lookup(struct ppu_ttu_merge_table *m, uint64_t line, uint64_t at,
                              bool *found);
/* A request for line made at `requested` arriving at `ready`; replaces an
 * entry for that line. */
void ppu_ttu_merge_add(struct ppu_ttu_merge_table *m, uint64_t line, uint64_t requested,
                       uint64_t ready);

#endif /* PPU_TIMING_TTU_PREDICTOR_TIMING_H */
