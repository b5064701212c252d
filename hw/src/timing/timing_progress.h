/* Progress of a long timing-mode grid on stderr: after the first second of
 * wall time, once a second, the simulated cycles and the share of the
 * grid's workgroups that have ended (gpu.timing_progress). */
#ifndef PPU_TIMING_PROGRESS_H
#define PPU_TIMING_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

struct ppu_timing_progress {
   bool enabled;
   uint64_t grid;          /* grid number, for the message */
   uint64_t start_ns;      /* wall clock at the grid's start */
   uint64_t last_print_ns; /* 0 until the first line */
   uint64_t start_cycle;
   unsigned polls;
};

void ppu_timing_progress_begin(struct ppu_timing_progress *p, bool enabled, uint64_t grid,
                               uint64_t start_cycle);
/* Called often (each step of the chip loop): true when a progress line is
 * due; it looks at the clock every few hundred calls. */
bool ppu_timing_progress_due(struct ppu_timing_progress *p);
/* Prints the line that is due. */
void ppu_timing_progress_print(struct ppu_timing_progress *p, uint64_t cycle,
                               uint64_t workgroups_done, uint64_t workgroups);
/* Ends the line of a grid that printed progress. */
void ppu_timing_progress_end(struct ppu_timing_progress *p, uint64_t cycle);

#endif /* PPU_TIMING_PROGRESS_H */
