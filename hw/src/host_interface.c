/* Host interface: channels, GPFIFO fetch, method-header decode and the model
 * thread's round-robin schedule. Formats: ppu/methods.h, docs/methods.md. */
#include "host_interface.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fault.h"
#include "ppu/methods.h"
#include "ppu/mmu_format.h"

/* A stalled acquire looks at memory again at least this often, so a host
 * that writes a semaphore through the BAR without ringing the semaphore
 * doorbell is still seen (gpu.h). */
#define STALL_RECHECK_NS 1000000ull

static uint64_t monotonic_ns(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

const char *ppu_channel_name(const struct ppu_channel *ch)
{
   return ch->name;
}

/* --- Faults ------------------------------------------------------------- */

/* Completes the record with the GPFIFO context, stops the channel and raises
 * the interrupt (once: a faulted channel is never served again). */
static void channel_stop_on_fault(struct ppu_host_interface *hi, struct ppu_channel *ch,
                                  struct ppu_fault *f)
{
   f->gpfifo_entry = ch->seg.gpfifo_entry;
   f->gp_get = ch->seg.gp_index;
   ch->seg.active = false;
   ch->fault = *f;
   atomic_store_explicit(&ch->faulted, true, memory_order_release);
   ppu_interrupts_raise(hi->intr, PPU_INTR_FAULT, ch);
}

/* --- GPFIFO fetch ------------------------------------------------------- */

/* Fetches the entry at GP_GET and its whole segment. The segment is copied
 * out of memory before any of it executes, so GP_GET can advance at once:
 * both the entry and the pushbuffer memory are free for the driver to reuse
 * as soon as GP_GET has moved past them. */
static bool fetch_segment(struct ppu_host_interface *hi, struct ppu_channel *ch)
{
   struct ppu_segment *seg = &ch->seg;
   struct ppu_fault f;
   uint32_t index = atomic_load_explicit(&ch->gp_get, memory_order_relaxed);
   uint64_t entry = 0;

   seg->gpfifo_entry = 0;
   seg->gp_index = index;
   if (!ppu_mmu_read(&hi->mmu, ch->ctx.pd_pa, ch->gpfifo_va + (uint64_t)index * 8, &entry, 8, &f)) {
      channel_stop_on_fault(hi, ch, &f);
      return false;
   }
   ppu_counter_add(hi->counters, PPU_COUNTER_HOST_GPFIFO_ENTRIES, 1);
   seg->gpfifo_entry = entry;

   uint32_t len = PPU_GPFIFO_ENTRY_LEN(entry);
   uint64_t va = PPU_GPFIFO_ENTRY_VA(entry);
   const char *problem = NULL;
   if (PPU_GPFIFO_ENTRY_RSVD(entry))
      problem = "reserved bit 63 is set";
   else if (len == 0)
      problem = "segment length is 0 words";
   else if (va & 3)
      problem = "segment VA is not 4-byte aligned";
   if (problem) {
      ppu_fault_set(&f, PPU_FAULT_BAD_GPFIFO_ENTRY, PPU_ENGINE_HOST, "GPFIFO entry %u: %s", index,
                    problem);
      channel_stop_on_fault(hi, ch, &f);
      return false;
   }
   if (!ppu_mmu_read(&hi->mmu, ch->ctx.pd_pa, va, seg->words, (uint64_t)len * 4, &f)) {
      channel_stop_on_fault(hi, ch, &f);
      return false;
   }
   ppu_counter_add(hi->counters, PPU_COUNTER_HOST_PUSHBUFFER_WORDS, len);

   seg->active = true;
   seg->len = len;
   seg->pos = 0;
   seg->left = 0;
   atomic_store_explicit(&ch->gp_get, (index + 1) & (ch->gpfifo_entries - 1), memory_order_release);
   return true;
}

/* --- Method decode ------------------------------------------------------ */

/* Decodes the header at seg->pos (already consumed) into the segment's
 * current-method state. The whole method must lie in this segment
 * (docs/methods.md, "the segment rule"). */
static bool begin_method(struct ppu_segment *seg, uint32_t header, struct ppu_fault *f)
{
   uint32_t type = PPU_MTHD_HDR_TYPE(header);
   uint32_t count = PPU_MTHD_HDR_COUNT(header);
   uint32_t subch = PPU_MTHD_HDR_SUBCH(header);
   seg->type = type;
   seg->subchannel = subch;
   seg->method = PPU_MTHD_HDR_ADDR(header);
   seg->index = 0;
   /* The type says what the other fields mean, so it is checked first. */
   if (type != PPU_MTHD_IMMD && type != PPU_MTHD_INCR && type != PPU_MTHD_NONINCR &&
       type != PPU_MTHD_INC_ONCE) {
      ppu_fault_set(f, PPU_FAULT_BAD_METHOD, PPU_ENGINE_HOST, "header 0x%08x has undefined type %u",
                    header, type);
      return false;
   }
   if (subch > PPU_SUBCH_COPY) {
      ppu_fault_set(f, PPU_FAULT_BAD_METHOD, PPU_ENGINE_HOST,
                    "header 0x%08x: subchannel %u is not bound to an engine", header, subch);
      return false;
   }
   switch (type) {
   case PPU_MTHD_IMMD:
      seg->immediate = count;
      seg->left = 1;
      return true;
   case PPU_MTHD_INCR:
   case PPU_MTHD_NONINCR:
   case PPU_MTHD_INC_ONCE:
      if (count == 0) {
         ppu_fault_set(f, PPU_FAULT_BAD_METHOD, PPU_ENGINE_HOST,
                       "header 0x%08x announces no data words", header);
         return false;
      }
      if (count > seg->len - seg->pos) {
         ppu_fault_set(f, PPU_FAULT_BAD_METHOD, PPU_ENGINE_HOST,
                       "header 0x%08x needs %u data words but its segment ends after %u "
                       "(a method and its data must lie in one segment)",
                       header, count, seg->len - seg->pos);
         return false;
      }
      seg->left = count;
      return true;
   }
   return false; /* not reached: the type was checked above */
}

static uint32_t current_method(const struct ppu_segment *seg)
{
   switch (seg->type) {
   case PPU_MTHD_INCR:
      return seg->method + seg->index;
   case PPU_MTHD_INC_ONCE:
      return seg->method + (seg->index ? 1 : 0);
   default: /* NONINCR, IMMD */
      return seg->method;
   }
}

/* Executes the rest of the channel's segment. Returns true when the channel
 * stalled (the stalling word is executed again on a later turn). */
static bool run_segment(struct ppu_host_interface *hi, struct ppu_channel *ch)
{
   struct ppu_segment *seg = &ch->seg;
   struct ppu_fault f;
   uint64_t executed = 0;
   bool stalled = false;
   for (;;) {
      if (seg->left == 0) {
         if (seg->pos == seg->len) {
            seg->active = false;
            break;
         }
         uint32_t header = seg->words[seg->pos++];
         if (!begin_method(seg, header, &f)) {
            f.subchannel = PPU_MTHD_HDR_SUBCH(header);
            f.method = PPU_MTHD_HDR_ADDR(header);
            f.method_data = header; /* for header faults: the header itself */
            channel_stop_on_fault(hi, ch, &f);
            break;
         }
      }
      uint32_t method = current_method(seg);
      if (seg->type == PPU_MTHD_NONINCR && seg->left > 1) {
         /* Streamed data (inline updates) goes to the engine as one run. */
         uint32_t done;
         if (!ppu_front_end_data_run(hi->fe, &ch->ctx, seg->subchannel, method,
                                     &seg->words[seg->pos], seg->left, &done, &f)) {
            f.subchannel = seg->subchannel;
            f.method = method;
            f.method_data = seg->words[seg->pos];
            channel_stop_on_fault(hi, ch, &f);
            break;
         }
         if (done) {
            executed += done;
            seg->pos += done;
            seg->index += done;
            seg->left -= done;
            continue;
         }
      }
      uint32_t data = seg->type == PPU_MTHD_IMMD ? seg->immediate : seg->words[seg->pos];
      enum ppu_method_status st =
          ppu_front_end_method(hi->fe, ch, &ch->ctx, seg->subchannel, method, data, &f);
      if (st == PPU_METHOD_STALL) {
         stalled = true;
         break;
      }
      if (st == PPU_METHOD_FAULT) {
         f.subchannel = seg->subchannel;
         f.method = method;
         f.method_data = data;
         channel_stop_on_fault(hi, ch, &f);
         break;
      }
      executed++;
      if (seg->type != PPU_MTHD_IMMD)
         seg->pos++;
      seg->index++;
      seg->left--;
   }
   ppu_counter_add(hi->counters, PPU_COUNTER_HOST_METHODS, executed);
   return stalled;
}

/* One turn: at most one segment of one channel. */
static bool channel_turn(struct ppu_host_interface *hi, struct ppu_channel *ch)
{
   if (!ch->seg.active && !fetch_segment(hi, ch))
      return false;
   return run_segment(hi, ch);
}

/* --- Scheduling --------------------------------------------------------- */

static bool channel_has_work(struct ppu_channel *ch)
{
   return ch->seg.active || atomic_load_explicit(&ch->gp_get, memory_order_relaxed) != ch->gp_put;
}

/* Under lock: the next runnable channel after the last one served, or NULL;
 * *wake_at gets the earliest stall re-check time (0 if none). */
static struct ppu_channel *pick_channel(struct ppu_host_interface *hi, uint64_t now,
                                        uint64_t *wake_at)
{
   *wake_at = 0;
   for (uint32_t i = 0; i < hi->max_channels; i++) {
      uint32_t slot = (hi->next_slot + i) % hi->max_channels;
      struct ppu_channel *ch = hi->channels[slot];
      if (!ch || atomic_load_explicit(&ch->faulted, memory_order_relaxed))
         continue;
      if (ch->stalled) {
         if (ch->stall_wake_seq == hi->wake_seq && now < ch->stall_recheck_ns) {
            if (!*wake_at || ch->stall_recheck_ns < *wake_at)
               *wake_at = ch->stall_recheck_ns;
            continue;
         }
      } else if (!channel_has_work(ch)) {
         continue;
      }
      hi->next_slot = (slot + 1) % hi->max_channels;
      return ch;
   }
   return NULL;
}

static void sleep_until(struct ppu_host_interface *hi, uint64_t wake_at)
{
   if (!wake_at) {
      pthread_cond_wait(&hi->wake, &hi->lock);
      return;
   }
   struct timespec ts = {.tv_sec = (time_t)(wake_at / 1000000000ull),
                         .tv_nsec = (long)(wake_at % 1000000000ull)};
   pthread_cond_timedwait(&hi->wake, &hi->lock, &ts);
}

static void *model_thread(void *arg)
{
   struct ppu_host_interface *hi = arg;
   pthread_mutex_lock(&hi->lock);
   while (!hi->quit) {
      uint64_t wake_at;
      struct ppu_channel *ch = pick_channel(hi, monotonic_ns(), &wake_at);
      if (!ch) {
         sleep_until(hi, wake_at);
         continue;
      }
      hi->serving = ch;
      uint64_t wake_seq = hi->wake_seq;
      pthread_mutex_unlock(&hi->lock);

      bool stalled = channel_turn(hi, ch);

      pthread_mutex_lock(&hi->lock);
      ch->stalled = stalled;
      if (stalled) {
         ch->stall_wake_seq = wake_seq;
         ch->stall_recheck_ns = monotonic_ns() + STALL_RECHECK_NS;
      }
      if (hi->fe->semaphore_writes != hi->seen_semaphore_writes) {
         hi->seen_semaphore_writes = hi->fe->semaphore_writes;
         hi->wake_seq++;
      }
      hi->serving = NULL;
      pthread_cond_broadcast(&hi->idle);
   }
   pthread_mutex_unlock(&hi->lock);
   return NULL;
}

/* --- Setup -------------------------------------------------------------- */

int ppu_host_interface_init(struct ppu_host_interface *hi, uint32_t max_channels,
                            struct ppu_mmu *mmu, struct ppu_front_end *fe,
                            struct ppu_counter_block *counters, struct ppu_interrupts *intr)
{
   memset(hi, 0, sizeof(*hi));
   hi->channels = calloc(max_channels, sizeof(*hi->channels));
   if (!hi->channels)
      return ENOMEM;
   hi->max_channels = max_channels;
   hi->mmu_unit = mmu;
   hi->fe = fe;
   hi->counters = counters;
   hi->intr = intr;
   ppu_mmu_client_init(&hi->mmu, mmu, PPU_ENGINE_HOST);

   pthread_condattr_t attr;
   pthread_condattr_init(&attr);
   pthread_condattr_setclock(&attr, CLOCK_MONOTONIC); /* deadlines are monotonic_ns() */
   pthread_mutex_init(&hi->lock, NULL);
   pthread_cond_init(&hi->wake, &attr);
   pthread_cond_init(&hi->idle, NULL);
   pthread_condattr_destroy(&attr);

   int err = pthread_create(&hi->thread, NULL, model_thread, hi);
   if (err) {
      ppu_host_interface_finish(hi);
      return err;
   }
   hi->thread_running = true;
   return 0;
}

static void channel_free(struct ppu_host_interface *hi, struct ppu_channel *ch)
{
   /* A grid the channel launched may still be running on the workers. */
   if (hi->fe && hi->fe->compute)
      ppu_compute_engine_channel_finish(hi->fe->compute, &ch->ctx.compute);
   free(ch->seg.words);
   free(ch);
}

void ppu_host_interface_finish(struct ppu_host_interface *hi)
{
   if (hi->thread_running) {
      pthread_mutex_lock(&hi->lock);
      hi->quit = true;
      pthread_cond_signal(&hi->wake);
      pthread_mutex_unlock(&hi->lock);
      pthread_join(hi->thread, NULL);
      hi->thread_running = false;
   }
   for (uint32_t i = 0; hi->channels && i < hi->max_channels; i++) {
      if (hi->channels[i])
         channel_free(hi, hi->channels[i]);
   }
   free(hi->channels);
   hi->channels = NULL;
   pthread_cond_destroy(&hi->idle);
   pthread_cond_destroy(&hi->wake);
   pthread_mutex_destroy(&hi->lock);
}

void ppu_host_interface_wake(struct ppu_host_interface *hi)
{
   pthread_mutex_lock(&hi->lock);
   hi->wake_seq++;
   pthread_cond_signal(&hi->wake);
   pthread_mutex_unlock(&hi->lock);
}

/* --- Channels ----------------------------------------------------------- */

struct ppu_channel *ppu_host_interface_channel_create(struct ppu_host_interface *hi,
                                                      const struct ppu_channel_desc *desc)
{
   /* The descriptor comes from the kernel-mode side of the driver, so a bad
    * one is refused here rather than turned into a fault later. */
   uint32_t n = desc->gpfifo_entries;
   if (n == 0 || (n & (n - 1)) || (desc->gpfifo_va & 7) ||
       !ppu_mmu_directory_ok(hi->mmu_unit, desc->page_directory_pa))
      return NULL;

   struct ppu_channel *ch = calloc(1, sizeof(*ch));
   if (!ch)
      return NULL;
   ch->seg.words = malloc(PPU_GPFIFO_LEN_MAX * sizeof(uint32_t));
   if (!ch->seg.words) {
      free(ch);
      return NULL;
   }
   ch->hi = hi;
   ch->gpfifo_va = desc->gpfifo_va;
   ch->gpfifo_entries = n;
   ch->ctx.pd_pa = desc->page_directory_pa;
   strncpy(ch->name, desc->name ? desc->name : "(unnamed)", sizeof(ch->name) - 1);
   atomic_init(&ch->gp_get, 0);
   atomic_init(&ch->faulted, false);

   pthread_mutex_lock(&hi->lock);
   for (uint32_t i = 0; i < hi->max_channels; i++) {
      if (!hi->channels[i]) {
         ch->slot = i;
         hi->channels[i] = ch;
         pthread_mutex_unlock(&hi->lock);
         return ch;
      }
   }
   pthread_mutex_unlock(&hi->lock);
   channel_free(hi, ch);
   return NULL;
}

void ppu_channel_destroy(struct ppu_channel *ch)
{
   if (!ch)
      return;
   struct ppu_host_interface *hi = ch->hi;
   pthread_mutex_lock(&hi->lock);
   hi->channels[ch->slot] = NULL; /* never picked again */
   /* A turn already running may be a draw whose shader never ends: stop it
    * (compute grids, which outlive turns, are stopped in channel_free). */
   atomic_store_explicit(&ch->ctx.graphics.cancel, true, memory_order_relaxed);
   /* A stalled channel is not being served, so this does not wait on its
    * semaphore; it only waits out a turn already running. */
   while (hi->serving == ch)
      pthread_cond_wait(&hi->idle, &hi->lock);
   pthread_mutex_unlock(&hi->lock);
   channel_free(hi, ch);
}

void ppu_channel_ring_doorbell(struct ppu_channel *ch, uint32_t gp_put)
{
   struct ppu_host_interface *hi = ch->hi;
   pthread_mutex_lock(&hi->lock);
   ch->gp_put = gp_put & (ch->gpfifo_entries - 1);
   hi->wake_seq++;
   pthread_cond_signal(&hi->wake);
   pthread_mutex_unlock(&hi->lock);
}

uint32_t ppu_channel_gp_get(const struct ppu_channel *ch)
{
   return atomic_load_explicit(&ch->gp_get, memory_order_acquire);
}

void ppu_channel_tlb_invalidate(struct ppu_channel *ch)
{
   /* Conservative: drops every address space's translations, which is a
    * superset of this channel's and costs only refills. */
   ppu_mmu_invalidate_all(ch->hi->mmu_unit);
}

bool ppu_channel_fault(const struct ppu_channel *ch, struct ppu_fault *out)
{
   if (!atomic_load_explicit(&ch->faulted, memory_order_acquire))
      return false;
   if (out)
      *out = ch->fault;
   return true;
}
