/* The host interface: channels, their GPFIFOs and doorbells, pushbuffer
 * fetch and method-header decode, and the model thread that serves every
 * channel of one chip round-robin.
 *
 * Per turn the thread gives one channel at most one pushbuffer segment: it
 * fetches the GPFIFO entry at GP_GET and the segment's words through the MMU,
 * advances GP_GET, then decodes the segment and hands each (subchannel,
 * method, data) to the front end. A channel whose SEM_EXECUTE ACQUIRE_GEQ is
 * not yet satisfied stalls on that word and is skipped until a doorbell, a
 * semaphore write by any channel, or 1 ms has passed.
 *
 * Locking: lock guards the channel table, GP_PUT, stall bookkeeping and the
 * thread's sleep. A channel's decode state belongs to the model thread, which
 * runs a turn without the lock; `serving` tells destroyers which channel that
 * is. GP_GET and the fault record are published with atomics, so their
 * getters take no lock and may be called from the interrupt handler.
 *
 * ppu_channel_destroy waits for a turn of that channel to end, and interrupts
 * are raised during turns: a host thread must not hold a lock its interrupt
 * handler takes while it destroys a channel or the chip.
 */
#ifndef PPU_HOST_INTERFACE_H
#define PPU_HOST_INTERFACE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "front_end.h"
#include "mmu.h"

/* The pushbuffer segment a channel is executing, and where in it. */
struct ppu_segment {
   bool active;
   uint64_t gpfifo_entry;
   uint32_t gp_index; /* the entry's index in the ring */
   uint32_t len;      /* words */
   uint32_t pos;      /* next word to read */
   /* The method header being executed. */
   uint32_t type, subchannel, method;
   uint32_t index;     /* data words of this header executed so far */
   uint32_t left;      /* data words still to execute */
   uint32_t immediate; /* PPU_MTHD_IMMD: the data from the header */
   uint32_t *words;    /* PPU_GPFIFO_LEN_MAX words */
};

struct ppu_channel {
   struct ppu_host_interface *hi;
   uint32_t slot;
   char name[64];
   uint64_t gpfifo_va;
   uint32_t gpfifo_entries;

   /* Under hi->lock. */
   uint32_t gp_put;
   bool stalled;
   uint64_t stall_wake_seq;   /* hi->wake_seq when the stall was last checked */
   uint64_t stall_recheck_ns; /* look again at this time even without a wake */

   /* Model thread only. */
   struct ppu_segment seg;
   struct ppu_method_context ctx;

   /* Published to host threads. fault is written once, before faulted. */
   _Atomic uint32_t gp_get;
   _Atomic bool faulted;
   struct ppu_fault fault;
};

struct ppu_host_interface {
   pthread_mutex_t lock;
   pthread_cond_t wake; /* the model thread sleeps here */
   pthread_cond_t idle; /* destroyers wait here for `serving` to change */
   pthread_t thread;
   bool thread_running;
   bool quit;
   struct ppu_channel **channels; /* max_channels slots, NULL = free */
   uint32_t max_channels;
   uint32_t next_slot; /* round-robin position */
   struct ppu_channel *serving;
   uint64_t wake_seq; /* bumped by doorbells and semaphore writes */
   uint64_t seen_semaphore_writes;

   struct ppu_mmu_client mmu; /* GPFIFO and pushbuffer fetch port */
   struct ppu_mmu *mmu_unit;
   struct ppu_front_end *fe;
   struct ppu_counter_block *counters;
   struct ppu_interrupts *intr;
};

/* Returns 0 or an errno value (the thread or memory could not be made). */
int ppu_host_interface_init(struct ppu_host_interface *hi, uint32_t max_channels,
                            struct ppu_mmu *mmu, struct ppu_front_end *fe,
                            struct ppu_counter_block *counters, struct ppu_interrupts *intr);
/* Stops the thread and frees any channel still open. */
void ppu_host_interface_finish(struct ppu_host_interface *hi);

struct ppu_channel *ppu_host_interface_channel_create(struct ppu_host_interface *hi,
                                                      const struct ppu_channel_desc *desc);
/* Wakes the thread so stalled channels look at memory again. */
void ppu_host_interface_wake(struct ppu_host_interface *hi);

const char *ppu_channel_name(const struct ppu_channel *ch);

#endif /* PPU_HOST_INTERFACE_H */
