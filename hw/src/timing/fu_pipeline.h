/* One functional-unit pipeline of an SM scheduler in the timing mode: a
 * result is ready `latency` cycles after issue, and the pipe accepts the
 * next warp instruction `interval` cycles after the last (a warp of 32
 * lanes on 16 lanes of hardware takes 2 cycles to enter, for example).
 * Pipelined: latency and interval are independent (docs/timing.md). */
#ifndef PPU_TIMING_FU_PIPELINE_H
#define PPU_TIMING_FU_PIPELINE_H

#include <stdbool.h>
#include <stdint.h>

struct ppu_fu_pipe {
   uint32_t latency;
   uint32_t interval;
   uint64_t next_issue; /* first cycle the pipe accepts another instruction */
};

static inline void ppu_fu_pipe_init(struct ppu_fu_pipe *p, uint32_t latency, uint32_t interval)
{
   p->latency = latency;
   p->interval = interval;
   p->next_issue = 0;
}

static inline bool ppu_fu_pipe_accepts(const struct ppu_fu_pipe *p, uint64_t now)
{
   return now >= p->next_issue;
}

/* Issues one instruction that occupies the pipe's entry for `beats`
 * intervals (1 for arithmetic; a memory instruction holds the LSU for one
 * beat per line). Returns the cycle its result is ready. */
static inline uint64_t ppu_fu_pipe_issue(struct ppu_fu_pipe *p, uint64_t now, uint32_t beats)
{
   p->next_issue = now + (uint64_t)p->interval * (beats ? beats : 1);
   return now + p->latency;
}

#endif /* PPU_TIMING_FU_PIPELINE_H */
