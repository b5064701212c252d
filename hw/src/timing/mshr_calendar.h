/* The L1's miss status holding registers (MSHRs) in the timing mode: at
 * most `capacity` misses in flight at any cycle; a miss that finds them all
 * taken waits for one to free (l1.mshrs, memory_system.h).
 *
 * Misses are not booked in cycle order: the TTU books a ray's whole walk
 * when its instruction issues, so a miss stamped thousands of cycles ahead
 * can come before one stamped now. Per-MSHR "free at" marks would let the
 * misses booked ahead hold every MSHR over the cycles before them, and an
 * earlier miss would wait behind them (issue 31). So the MSHRs keep a
 * calendar: time is cut into windows of PPU_MSHR_WINDOW_CYCLES, each window
 * counts the misses in flight during any part of it, and a miss may start
 * in the first window, from its own cycle on, that has an MSHR left. A
 * window is full as soon as `capacity` misses touch it, so a miss waiting
 * for an MSHR starts at most one window after a real one would free. */
#ifndef PPU_TIMING_MSHR_CALENDAR_H
#define PPU_TIMING_MSHR_CALENDAR_H

#include <stdbool.h>
#include <stdint.h>

#define PPU_MSHR_WINDOW_CYCLES 8u
/* The calendar's reach (128 K cycles); a miss held longer than that frees
 * its MSHR after it, and one further back than it is not held up. */
#define PPU_MSHR_WINDOWS 16384u

struct ppu_mshr_window {
   uint64_t index_plus_1; /* which window this entry holds; 0: none yet */
   uint32_t busy;         /* misses in flight during it */
};

struct ppu_mshr_calendar {
   uint32_t capacity;
   struct ppu_mshr_window *window; /* PPU_MSHR_WINDOWS, a ring */
};

/* False when host memory runs out. */
bool ppu_mshr_calendar_init(struct ppu_mshr_calendar *c, uint32_t capacity);
void ppu_mshr_calendar_finish(struct ppu_mshr_calendar *c);

/* The first cycle from `at` on at which a miss finds an MSHR. */
uint64_t ppu_mshr_calendar_first_free(struct ppu_mshr_calendar *c, uint64_t at);
/* A miss holds an MSHR from cycle start to cycle end (its line is back). */
void ppu_mshr_calendar_hold(struct ppu_mshr_calendar *c, uint64_t start, uint64_t end);

#endif /* PPU_TIMING_MSHR_CALENDAR_H */
