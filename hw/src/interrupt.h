/* The interrupt line to the host: one handler, called on the model thread. */
#ifndef PPU_INTERRUPT_H
#define PPU_INTERRUPT_H

#include <pthread.h>

#include "ppu/gpu.h"

struct ppu_interrupts {
   pthread_mutex_t lock; /* guards fn and user against a concurrent set */
   ppu_interrupt_fn fn;
   void *user;
};

void ppu_interrupts_init(struct ppu_interrupts *intr);
void ppu_interrupts_finish(struct ppu_interrupts *intr);
void ppu_interrupts_set_handler(struct ppu_interrupts *intr, ppu_interrupt_fn fn, void *user);
/* Calls the handler, if any. The lock is not held during the call, so the
 * handler may take its own locks and read channel state freely. A handler
 * that was just replaced may still be finishing a call when
 * ppu_interrupts_set_handler returns; only destroying the chip (which joins
 * the model thread) guarantees no call is running. */
void ppu_interrupts_raise(struct ppu_interrupts *intr, enum ppu_interrupt kind,
                          struct ppu_channel *ch);

#endif /* PPU_INTERRUPT_H */
