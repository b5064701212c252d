/* A short list of cache-line addresses a unit missed during one
 * instruction, kept for the timing mode: the TTU's L0 and the texture cache
 * note their misses here so the SM's timing model can send them on to the
 * L1 (memory_system.h) in order. Functional mode leaves the log pointer NULL
 * and nothing is recorded. Misses beyond the capacity are counted in
 * `dropped` and cost nothing (docs/timing.md). */
#ifndef PPU_TIMING_LINE_LOG_H
#define PPU_TIMING_LINE_LOG_H

#include <stdint.h>

#define PPU_LINE_LOG_CAPACITY 256u

struct ppu_line_log {
   uint32_t count;
   uint32_t dropped;
   uint64_t line[PPU_LINE_LOG_CAPACITY]; /* byte address of each line missed */
};

static inline void ppu_line_log_add(struct ppu_line_log *log, uint64_t line_va)
{
   if (log->count < PPU_LINE_LOG_CAPACITY)
      log->line[log->count++] = line_va;
   else
      log->dropped++;
}

#endif /* PPU_TIMING_LINE_LOG_H */
