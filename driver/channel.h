/* Channels: one hardware channel per Vulkan queue, with its GPFIFO ring, a
 * 64-bit completion counter in GPU memory, and a pushbuffer for the small
 * segments the driver adds around command buffers.
 *
 * A submission becomes GPFIFO entries in this order, per batch:
 *   [waits]      one driver segment: SEM ACQUIRE_GEQ per wait
 *   [commands]   the command buffers' segments, by reference
 *   [signals]    one driver segment: SEM RELEASE (AWAKEN) per signal
 * and once per submission
 *   [completion] SEM RELEASE of the next sequence number (AWAKEN)
 * then the doorbell. A fence is "this channel's counter >= seqno".
 *
 * The ring is reused as the host interface advances GP_GET. When it is full
 * the submitting thread sleeps until an earlier sequence number completes (an
 * interrupt wakes it); submissions longer than a quarter of the ring carry
 * extra sequence-number releases so there is always one to wait for.
 * Driver segments live in pushbuffer chunks that return to the channel's
 * pool only after the sequence number of their last user has completed.
 *
 * Vulkan requires external synchronization of a queue; the channel still
 * takes its own lock so that device-wide waits may read it from any thread. */
#ifndef DRV_CHANNEL_H
#define DRV_CHANNEL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "drv_result.h"
#include "pushbuffer.h"
#include "semaphore_slots.h"

struct drv_device;
struct drv_host_job_ref;
struct drv_host_lane;
struct ppu_channel;

#define DRV_GPFIFO_ENTRIES 4096u

/* What produced a GPFIFO entry, for fault reports. */
enum drv_segment_kind {
   DRV_SEGMENT_NONE = 0,
   DRV_SEGMENT_COMMANDS,   /* a command buffer's segment */
   DRV_SEGMENT_WAITS,      /* driver: semaphore waits of a batch */
   DRV_SEGMENT_SIGNALS,    /* driver: semaphore signals of a batch */
   DRV_SEGMENT_COMPLETION, /* driver: sequence-number release */
   DRV_SEGMENT_HOST_JOB,   /* driver: a host-assisted job's request and wait (host_job.h) */
};

struct drv_gp_tag {
   uint64_t owner;   /* the command buffer's handle, 0 for driver segments */
   uint32_t segment; /* index among the owner's segments */
   uint32_t segment_count;
   uint32_t kind;  /* enum drv_segment_kind */
   char label[44]; /* the command buffer's debug name, if it has one */
};

/* One semaphore operation of a submission. */
struct drv_sem_op {
   uint64_t va;
   uint64_t value;
};

/* One command buffer's segments, and the host-assisted jobs that run
 * between them (host_job.h; in order of before_segment). */
struct drv_cmd_stream {
   const struct drv_pb_segment *segments;
   uint32_t segment_count;
   const struct drv_host_job_ref *jobs;
   uint32_t job_count;
   uint64_t owner;    /* for fault reports */
   const char *label; /* may be NULL */
};

struct drv_batch {
   const struct drv_sem_op *waits;
   uint32_t wait_count;
   const struct drv_cmd_stream *streams;
   uint32_t stream_count;
   const struct drv_sem_op *signals;
   uint32_t signal_count;
};

struct drv_seqno_mark {
   uint64_t seqno;
   uint32_t put_after; /* ring index after the entry that releases seqno */
};

struct drv_channel {
   struct drv_device *dev;
   struct ppu_channel *hw;
   char name[32];

   pthread_mutex_t submit_lock;
   struct drv_bo *gpfifo_bo;
   uint64_t *gpfifo;
   uint32_t entries;        /* power of two */
   uint32_t put;            /* next entry to write */
   struct drv_gp_tag *tags; /* per entry */

   struct drv_slot completion;       /* last completed seqno */
   _Atomic uint64_t submitted_seqno; /* last seqno written to the ring */

   /* Sequence-number releases in the ring, oldest first (a ring buffer of
    * `entries` marks: every release uses at least one entry). */
   struct drv_seqno_mark *marks;
   uint32_t mark_head, mark_count;

   struct drv_pb_chunk_pool chunk_pool;
   struct drv_pushbuf pb;
   struct drv_pb_chunk *retire_head, *retire_tail; /* waiting for their seqno */

   struct drv_host_lane *host_lane; /* created by the first job submitted (host_job.h) */
};

enum drv_result drv_channel_create(struct drv_device *dev, const char *name,
                                   struct drv_channel **out);
/* Stops the hardware channel and frees everything. */
void drv_channel_destroy(struct drv_channel *ch);

/* Queues the batches; *out_seqno is the sequence number whose completion
 * means every batch finished. DRV_ERROR_DEVICE_LOST once the device is lost
 * (nothing is queued then). */
enum drv_result drv_channel_submit(struct drv_channel *ch, const struct drv_batch *batches,
                                   uint32_t batch_count, uint64_t *out_seqno);

static inline uint64_t drv_channel_completed_seqno(const struct drv_channel *ch)
{
   return drv_slot_read(&ch->completion);
}

static inline uint64_t drv_channel_submitted_seqno(struct drv_channel *ch)
{
   return atomic_load_explicit(&ch->submitted_seqno, memory_order_acquire);
}

/* Waits until everything submitted so far has completed. */
enum drv_result drv_channel_wait_idle(struct drv_channel *ch, uint64_t deadline_ns);
/* Waits until the channel's counter reaches seqno. */
enum drv_result drv_channel_wait_seqno(struct drv_channel *ch, uint64_t seqno,
                                       uint64_t deadline_ns);

#endif
