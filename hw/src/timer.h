/* PTIMER: the GPU's nanosecond clock, counting from chip creation. */
#ifndef PPU_TIMER_H
#define PPU_TIMER_H

#include <stdint.h>

struct ppu_timer {
   uint64_t start_ns; /* CLOCK_MONOTONIC at creation */
};

void ppu_timer_init(struct ppu_timer *t);
/* Never decreases: CLOCK_MONOTONIC cannot go backwards (POSIX), and the
 * start is fixed, so successive reads from any thread are non-decreasing. */
uint64_t ppu_timer_read_ns(const struct ppu_timer *t);

#endif /* PPU_TIMER_H */
