/* Interrupt delivery to the host's handler. */
#include "interrupt.h"

void ppu_interrupts_init(struct ppu_interrupts *intr)
{
   pthread_mutex_init(&intr->lock, NULL);
   intr->fn = NULL;
   intr->user = NULL;
}

void ppu_interrupts_finish(struct ppu_interrupts *intr)
{
   pthread_mutex_destroy(&intr->lock);
}

void ppu_interrupts_set_handler(struct ppu_interrupts *intr, ppu_interrupt_fn fn, void *user)
{
   pthread_mutex_lock(&intr->lock);
   intr->fn = fn;
   intr->user = user;
   pthread_mutex_unlock(&intr->lock);
}

void ppu_interrupts_raise(struct ppu_interrupts *intr, enum ppu_interrupt kind,
                          struct ppu_channel *ch)
{
   pthread_mutex_lock(&intr->lock);
   ppu_interrupt_fn fn = intr->fn;
   void *user = intr->user;
   pthread_mutex_unlock(&intr->lock);
   if (fn)
      fn(user, kind, ch);
}
