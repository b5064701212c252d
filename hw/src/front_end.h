/* The front end: takes decoded (subchannel, method, data) words from the
 * host interface, executes the host subchannel's own methods (semaphores,
 * timestamps, idle waits, TLB invalidation) and routes the rest to the
 * engine bound to the subchannel.
 */
#ifndef PPU_FRONT_END_H
#define PPU_FRONT_END_H

#include <stdbool.h>
#include <stdint.h>

#include "compute/compute_engine.h"
#include "copy_engine.h"
#include "counter_block.h"
#include "counter_snapshot.h"
#include "graphics/graphics_engine.h"
#include "interrupt.h"
#include "method_status.h"
#include "mmu.h"
#include "timer.h"

/* The host subchannel's state of one channel. */
struct ppu_host_context {
   uint64_t sem_va;
   uint64_t sem_payload;
   bool acquire_waiting; /* the last SEM_EXECUTE stalled and will be retried */
};

/* Everything a channel's methods latch, per subchannel. */
struct ppu_method_context {
   uint64_t pd_pa; /* the channel's address space */
   struct ppu_host_context host;
   struct ppu_copy_context copy;
   struct ppu_compute_context compute;
   struct ppu_graphics_context graphics;
   struct ppu_counter_snapshot_context counter_snapshot;
};

struct ppu_front_end {
   struct ppu_mmu_client mmu; /* semaphore port */
   struct ppu_copy_engine *copy;
   struct ppu_compute_engine *compute; /* NULL until attached */
   /* Its warps run on compute's SMs; set up when compute is attached. */
   struct ppu_graphics_engine graphics;
   struct ppu_counter_snapshot counter_snapshot; /* initialized by the chip (gpu.c) */
   struct ppu_counter_block *counters;
   struct ppu_interrupts *intr;
   const struct ppu_timer *timer;
   /* Semaphore writes so far; the host interface compares it after a turn
    * to know whether stalled channels need another look. */
   uint64_t semaphore_writes;
};

void ppu_front_end_init(struct ppu_front_end *fe, struct ppu_mmu *mmu, struct ppu_copy_engine *copy,
                        struct ppu_counter_block *counters, struct ppu_interrupts *intr,
                        const struct ppu_timer *timer);

/* Routes PPU_SUBCH_COMPUTE to ce, and PPU_SUBCH_GRAPHICS to the graphics
 * engine, whose warps run on ce's SMs. */
void ppu_front_end_attach_compute(struct ppu_front_end *fe, struct ppu_compute_engine *ce);

/* Executes one method word of channel ch (ch is only passed on to
 * interrupts). */
enum ppu_method_status ppu_front_end_method(struct ppu_front_end *fe, struct ppu_channel *ch,
                                            struct ppu_method_context *ctx, uint32_t subchannel,
                                            uint32_t method, uint32_t data,
                                            struct ppu_fault *fault);

/* Offers a run of data words that all go to the same method (a NONINCR
 * method's remaining data) to the engine in one call, for the methods that
 * stream data (today the copy engine's INLINE_DATA). *consumed says how many
 * were executed; 0 means "go word by word" and is always correct to get.
 * Returns false with *fault filled on a fault. */
bool ppu_front_end_data_run(struct ppu_front_end *fe, struct ppu_method_context *ctx,
                            uint32_t subchannel, uint32_t method, const uint32_t *words,
                            uint32_t count, uint32_t *consumed, struct ppu_fault *fault);

#endif /* PPU_FRONT_END_H */
