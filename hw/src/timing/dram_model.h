/* DRAM in the timing mode: a fixed access latency and a bandwidth. Each
 * transfer holds the bus for bytes / bytes_per_cycle cycles (kept exact in
 * byte-times, so a bandwidth above one line per cycle is no problem).
 * Counts dram.bytes_read / _written.
 *
 * Requests do not arrive in cycle order: the SMs' clocks differ by a few
 * cycles, and the TTU books a ray's whole walk when its instruction issues,
 * so a request stamped thousands of cycles ahead can come before one
 * stamped now. A single "bus free at" mark would make the early request
 * wait behind the late one (every SM's misses queued behind the furthest
 * booking on the chip: the serialization of issue 31). So the bus keeps a
 * calendar: time is cut into windows of PPU_DRAM_WINDOW_CYCLES, each window
 * holds window x bytes_per_cycle byte-times, and a transfer takes the first
 * free byte-times of the window of its request and of the ones after.
 * Requests in cycle order are served exactly as by one bus in arrival order;
 * a request arriving out of order can be placed at most one window late. */
#ifndef PPU_TIMING_DRAM_MODEL_H
#define PPU_TIMING_DRAM_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#define PPU_DRAM_WINDOW_CYCLES 16u
/* The calendar's reach: requests up to this many windows behind the latest
 * one still find their window (4 M cycles; a request further back than
 * that is not held up by the bus). */
#define PPU_DRAM_WINDOWS 262144u

struct ppu_dram_window {
   uint64_t index_plus_1; /* which window this entry holds; 0: none yet */
   uint64_t fill;         /* byte-time up to which the bus is taken in it */
};

struct ppu_dram_model {
   uint32_t latency;
   uint32_t bytes_per_cycle;
   struct ppu_dram_window *window; /* PPU_DRAM_WINDOWS, a ring */
};

/* False when host memory runs out. */
bool ppu_dram_model_init(struct ppu_dram_model *d, uint32_t latency, uint32_t bytes_per_cycle);
void ppu_dram_model_finish(struct ppu_dram_model *d);

/* A transfer of `bytes` requested at cycle `now`: returns the cycle its
 * data is back (reads) or written (writes). */
uint64_t ppu_dram_model_transfer(struct ppu_dram_model *d, uint64_t now, uint32_t bytes);

#endif /* PPU_TIMING_DRAM_MODEL_H */
