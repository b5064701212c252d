/* See channel.h. */
#include "channel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "drv_device.h"
#include "gpu_memory.h"
#include "host_job.h"
#include "method_encoder.h"
#include "ppu/gpu.h"
#include "wait.h"

/* A submission longer than this many entries gets an extra sequence-number
 * release every this many entries, so a full ring always has one to wait for. */
#define MARK_INTERVAL(ch) ((ch)->entries / 4u)

enum drv_result drv_channel_create(struct drv_device *dev, const char *name,
                                   struct drv_channel **out)
{
   struct drv_channel *ch = calloc(1, sizeof(*ch));
   if (!ch)
      return DRV_ERROR_OUT_OF_HOST_MEMORY;
   ch->dev = dev;
   snprintf(ch->name, sizeof(ch->name), "%s", name);
   ch->entries = DRV_GPFIFO_ENTRIES;
   drv_pb_chunk_pool_init(&ch->chunk_pool, dev);
   drv_pushbuf_init(&ch->pb, &ch->chunk_pool, false);
   atomic_init(&ch->submitted_seqno, 0);

   enum drv_result r = DRV_ERROR_OUT_OF_HOST_MEMORY;
   ch->tags = calloc(ch->entries, sizeof(*ch->tags));
   ch->marks = calloc(ch->entries, sizeof(*ch->marks));
   if (!ch->tags || !ch->marks || pthread_mutex_init(&ch->submit_lock, NULL))
      goto fail_host;
   r = drv_bo_create(dev, (uint64_t)ch->entries * sizeof(uint64_t),
                     DRV_BO_HOST_MAPPED | DRV_BO_INTERNAL, 0, &ch->gpfifo_bo);
   if (r != DRV_SUCCESS)
      goto fail_lock;
   ch->gpfifo = (uint64_t *)(void *)ch->gpfifo_bo->map;
   r = drv_slot_alloc(dev, 0, &ch->completion);
   if (r != DRV_SUCCESS)
      goto fail_gpfifo;

   struct ppu_channel_desc desc = {
       .page_directory_pa = dev->as.l0_pa,
       .gpfifo_va = ch->gpfifo_bo->va,
       .gpfifo_entries = ch->entries,
       .name = ch->name,
   };
   ch->hw = ppu_channel_create(dev->gpu, &desc);
   if (!ch->hw) {
      r = DRV_ERROR_INITIALIZATION_FAILED;
      goto fail_slot;
   }
   r = drv_device_add_channel(dev, ch);
   if (r != DRV_SUCCESS)
      goto fail_hw;
   *out = ch;
   return DRV_SUCCESS;

fail_hw:
   ppu_channel_destroy(ch->hw);
fail_slot:
   drv_slot_free(dev, &ch->completion);
fail_gpfifo:
   drv_bo_destroy(dev, ch->gpfifo_bo);
fail_lock:
   pthread_mutex_destroy(&ch->submit_lock);
fail_host:
   free(ch->marks);
   free(ch->tags);
   free(ch);
   return r;
}

static void free_chunks(struct drv_channel *ch, struct drv_pb_chunk *c)
{
   while (c) {
      struct drv_pb_chunk *next = c->next;
      drv_pb_chunk_put(&ch->chunk_pool, c);
      c = next;
   }
}

void drv_channel_destroy(struct drv_channel *ch)
{
   if (!ch)
      return;
   drv_device_remove_channel(ch->dev, ch);
   ppu_channel_destroy(ch->hw);
   drv_host_lane_destroy(ch->dev, ch->host_lane);
   drv_pushbuf_finish(&ch->pb);
   free_chunks(ch, ch->retire_head);
   drv_pb_chunk_pool_finish(&ch->chunk_pool);
   drv_slot_free(ch->dev, &ch->completion);
   drv_bo_destroy(ch->dev, ch->gpfifo_bo);
   pthread_mutex_destroy(&ch->submit_lock);
   free(ch->marks);
   free(ch->tags);
   free(ch);
}

/* Chunks whose last user has completed go back to the pool. */
static void reclaim_chunks(struct drv_channel *ch)
{
   uint64_t done = drv_channel_completed_seqno(ch);
   while (ch->retire_head && ch->retire_head->retire_seqno <= done) {
      struct drv_pb_chunk *c = ch->retire_head;
      ch->retire_head = c->next;
      drv_pb_chunk_put(&ch->chunk_pool, c);
   }
   if (!ch->retire_head)
      ch->retire_tail = NULL;
}

static uint32_t ring_free_entries(struct drv_channel *ch)
{
   uint32_t mask = ch->entries - 1;
   uint32_t get = ppu_channel_gp_get(ch->hw) & mask;
   uint32_t in_flight = (ch->put - get) & mask;
   return ch->entries - 1 - in_flight;
}

struct seqno_wait {
   const struct drv_channel *ch;
   uint64_t seqno;
};

static bool seqno_reached(void *ctx)
{
   const struct seqno_wait *w = ctx;
   return drv_channel_completed_seqno(w->ch) >= w->seqno;
}

enum drv_result drv_channel_wait_seqno(struct drv_channel *ch, uint64_t seqno, uint64_t deadline_ns)
{
   struct seqno_wait w = {ch, seqno};
   return drv_wait(ch->dev, seqno_reached, &w, deadline_ns);
}

enum drv_result drv_channel_wait_idle(struct drv_channel *ch, uint64_t deadline_ns)
{
   return drv_channel_wait_seqno(ch, drv_channel_submitted_seqno(ch), deadline_ns);
}

static void forget_completed_marks(struct drv_channel *ch)
{
   uint64_t done = drv_channel_completed_seqno(ch);
   while (ch->mark_count && ch->marks[ch->mark_head].seqno <= done) {
      ch->mark_head = (ch->mark_head + 1) & (ch->entries - 1);
      ch->mark_count--;
   }
}

/* Sleeps until the ring has a free entry: rings the doorbell for what is
 * written so far, then waits for the oldest sequence-number release in the
 * ring, whose completion means the host interface has fetched past it. */
static enum drv_result wait_for_ring_space(struct drv_channel *ch)
{
   while (ring_free_entries(ch) == 0) {
      forget_completed_marks(ch);
      ppu_channel_ring_doorbell(ch->hw, ch->put);
      if (ch->mark_count == 0) {
         /* Every mark has completed, so the host interface is at most a
          * step from moving GP_GET past it: a short sleep, not a spin. (No
          * interrupt marks GP_GET moves, and the model may not be called
          * with the wait lock held, so this cannot be a drv_wait.) */
         if (drv_device_is_lost(ch->dev))
            return DRV_ERROR_DEVICE_LOST;
         nanosleep(&(struct timespec){.tv_nsec = 50000}, NULL);
         continue;
      }
      struct drv_seqno_mark m = ch->marks[ch->mark_head];
      ch->mark_head = (ch->mark_head + 1) & (ch->entries - 1);
      ch->mark_count--;
      enum drv_result r = drv_channel_wait_seqno(ch, m.seqno, DRV_DEADLINE_NEVER);
      if (r != DRV_SUCCESS)
         return r;
   }
   return DRV_SUCCESS;
}

static enum drv_result write_entry(struct drv_channel *ch, struct drv_pb_segment seg,
                                   const struct drv_gp_tag *tag)
{
   enum drv_result r = wait_for_ring_space(ch);
   if (r != DRV_SUCCESS)
      return r;
   ch->gpfifo[ch->put] = PPU_GPFIFO_ENTRY(seg.va, seg.words);
   ch->tags[ch->put] = *tag;
   ch->put = (ch->put + 1) & (ch->entries - 1);
   return DRV_SUCCESS;
}

static void record_mark(struct drv_channel *ch, uint64_t seqno)
{
   if (ch->mark_count == ch->entries) {
      /* Every release takes a ring entry, so this many uncompleted marks
       * cannot exist; drop the oldest rather than overwrite a neighbour. */
      ch->mark_head = (ch->mark_head + 1) & (ch->entries - 1);
      ch->mark_count--;
   }
   uint32_t i = (ch->mark_head + ch->mark_count) & (ch->entries - 1);
   ch->marks[i] = (struct drv_seqno_mark){seqno, ch->put};
   ch->mark_count++;
}

/* The driver segments of one submission, emitted before any GPFIFO entry is
 * written so that a failure to allocate them leaves the ring untouched. Each
 * group is a range of ch->pb.segments. */
struct segment_range {
   uint32_t first, count;
};

static struct segment_range emit_group(struct drv_channel *ch, const struct drv_sem_op *ops,
                                       uint32_t count, enum ppu_sem_operation op)
{
   struct segment_range range = {ch->pb.segment_count, 0};
   for (uint32_t i = 0; i < count; i++) {
      drv_emit_semaphore(&ch->pb, op, ops[i].va, ops[i].value,
                         op == PPU_SEM_OP_RELEASE /* host waits may watch signals */);
   }
   drv_pushbuf_close_segment(&ch->pb);
   range.count = ch->pb.segment_count - range.first;
   return range;
}

static enum drv_result write_range(struct drv_channel *ch, struct segment_range range,
                                   enum drv_segment_kind kind)
{
   struct drv_gp_tag tag = {.kind = kind, .segment_count = range.count};
   for (uint32_t i = 0; i < range.count; i++) {
      tag.segment = i;
      enum drv_result r = write_entry(ch, ch->pb.segments[range.first + i], &tag);
      if (r != DRV_SUCCESS)
         return r;
   }
   return DRV_SUCCESS;
}

static uint64_t count_entries(const struct drv_batch *batches, uint32_t batch_count)
{
   uint64_t n = 1; /* completion */
   for (uint32_t b = 0; b < batch_count; b++) {
      n += batches[b].wait_count ? 1 : 0;
      n += batches[b].signal_count ? 1 : 0;
      for (uint32_t s = 0; s < batches[b].stream_count; s++)
         n += batches[b].streams[s].segment_count + batches[b].streams[s].job_count;
   }
   return n;
}

static uint64_t count_jobs(const struct drv_batch *batches, uint32_t batch_count)
{
   uint64_t n = 0;
   for (uint32_t b = 0; b < batch_count; b++) {
      for (uint32_t s = 0; s < batches[b].stream_count; s++)
         n += batches[b].streams[s].job_count;
   }
   return n;
}

/* Host-assisted jobs of one submission (host_job.h): a segment per job
 * instance with its lane number, and the instances to queue once the
 * entries are written. Numbers are decided here, under the submit lock, so
 * they follow the channel's execution order. */
struct job_plan {
   struct drv_host_lane *lane;
   struct segment_range *ranges; /* one per job, in submission order */
   struct drv_host_job_instance *first, *last;
   uint64_t count;
};

static void job_plan_discard(struct job_plan *plan)
{
   struct drv_host_job_instance *inst = plan->first;
   while (inst) {
      struct drv_host_job_instance *next = inst->next;
      drv_host_job_unref(inst->job);
      free(inst);
      inst = next;
   }
   free(plan->ranges);
   *plan = (struct job_plan){0};
}

static enum drv_result job_plan_emit(struct drv_channel *ch, const struct drv_batch *batches,
                                     uint32_t batch_count, struct job_plan *plan)
{
   uint64_t total = count_jobs(batches, batch_count);
   *plan = (struct job_plan){0};
   if (total == 0)
      return DRV_SUCCESS;
   enum drv_result r = drv_host_lane_get(ch, &plan->lane);
   if (r != DRV_SUCCESS)
      return r;
   plan->ranges = malloc(total * sizeof(*plan->ranges));
   if (!plan->ranges)
      return DRV_ERROR_OUT_OF_HOST_MEMORY;
   uint64_t number = drv_host_lane_next_number(plan->lane);
   for (uint32_t b = 0; b < batch_count; b++) {
      for (uint32_t s = 0; s < batches[b].stream_count; s++) {
         const struct drv_cmd_stream *stream = &batches[b].streams[s];
         for (uint32_t j = 0; j < stream->job_count; j++) {
            struct drv_host_job_instance *inst = calloc(1, sizeof(*inst));
            if (!inst) {
               job_plan_discard(plan);
               return DRV_ERROR_OUT_OF_HOST_MEMORY;
            }
            inst->job = stream->jobs[j].job;
            drv_host_job_ref(inst->job);
            inst->number = number;
            inst->owner = stream->owner;
            if (stream->label)
               snprintf(inst->label, sizeof(inst->label), "%s", stream->label);
            if (plan->last)
               plan->last->next = inst;
            else
               plan->first = inst;
            plan->last = inst;
            plan->ranges[plan->count].first = ch->pb.segment_count;
            drv_host_lane_emit(plan->lane, &ch->pb, number);
            drv_pushbuf_close_segment(&ch->pb);
            plan->ranges[plan->count].count =
                ch->pb.segment_count - plan->ranges[plan->count].first;
            plan->count++;
            number++;
         }
      }
   }
   return DRV_SUCCESS;
}

static enum drv_result submit_locked(struct drv_channel *ch, const struct drv_batch *batches,
                                     uint32_t batch_count, uint64_t *out_seqno)
{
   reclaim_chunks(ch);
   forget_completed_marks(ch);

   /* 1. Emit every driver segment (nothing reaches the ring yet). */
   uint64_t total_entries = count_entries(batches, batch_count);
   uint32_t interval = MARK_INTERVAL(ch);
   uint64_t extra_marks = total_entries > interval ? total_entries / interval : 0;
   uint64_t seqno = drv_channel_submitted_seqno(ch);
   uint64_t first_mark_seqno = seqno + 1;
   uint64_t final_seqno = seqno + extra_marks + 1;

   struct segment_range *ranges =
       malloc(((size_t)batch_count * 2 + extra_marks + 1) * sizeof(*ranges));
   if (!ranges)
      return DRV_ERROR_OUT_OF_HOST_MEMORY;
   drv_pushbuf_clear_segments(&ch->pb);
   struct job_plan jobs;
   enum drv_result jr = job_plan_emit(ch, batches, batch_count, &jobs);
   if (jr != DRV_SUCCESS) {
      drv_pushbuf_clear_segments(&ch->pb);
      free(ranges);
      return jr;
   }
   for (uint32_t b = 0; b < batch_count; b++) {
      ranges[2 * b] =
          emit_group(ch, batches[b].waits, batches[b].wait_count, PPU_SEM_OP_ACQUIRE_GEQ);
      ranges[2 * b + 1] =
          emit_group(ch, batches[b].signals, batches[b].signal_count, PPU_SEM_OP_RELEASE);
   }
   struct segment_range *mark_ranges = ranges + 2 * (size_t)batch_count;
   for (uint64_t m = 0; m <= extra_marks; m++) {
      uint64_t value = m == extra_marks ? final_seqno : first_mark_seqno + m;
      struct drv_sem_op op = {ch->completion.va, value};
      mark_ranges[m] = emit_group(ch, &op, 1, PPU_SEM_OP_RELEASE);
   }
   if (ch->pb.error != DRV_SUCCESS) {
      enum drv_result r = ch->pb.error;
      /* Forget the partial driver segments: they were never submitted. */
      ch->pb.error = DRV_SUCCESS;
      drv_pushbuf_clear_segments(&ch->pb);
      job_plan_discard(&jobs);
      free(ranges);
      return r;
   }

   /* 2. Write the entries in execution order, adding a mark release every
    *    `interval` entries of long submissions. */
   enum drv_result r = DRV_SUCCESS;
   uint64_t written = 0, next_mark = 0, next_job = 0;
#define AFTER_ENTRY()                                                                              \
   do {                                                                                            \
      if (++written % interval == 0 && next_mark < extra_marks && r == DRV_SUCCESS) {              \
         r = write_range(ch, mark_ranges[next_mark], DRV_SEGMENT_COMPLETION);                      \
         record_mark(ch, first_mark_seqno + next_mark);                                            \
         next_mark++;                                                                              \
      }                                                                                            \
   } while (0)

   for (uint32_t b = 0; b < batch_count && r == DRV_SUCCESS; b++) {
      const struct drv_batch *batch = &batches[b];
      if (ranges[2 * b].count) {
         r = write_range(ch, ranges[2 * b], DRV_SEGMENT_WAITS);
         AFTER_ENTRY();
      }
      for (uint32_t s = 0; s < batch->stream_count && r == DRV_SUCCESS; s++) {
         const struct drv_cmd_stream *stream = &batch->streams[s];
         struct drv_gp_tag tag = {
             .owner = stream->owner,
             .segment_count = stream->segment_count,
             .kind = DRV_SEGMENT_COMMANDS,
         };
         if (stream->label)
            snprintf(tag.label, sizeof(tag.label), "%s", stream->label);
         /* Jobs run before the segment they were recorded in front of;
          * i == segment_count catches the ones recorded last. */
         uint32_t job = 0;
         for (uint32_t i = 0; i <= stream->segment_count && r == DRV_SUCCESS; i++) {
            while (job < stream->job_count && stream->jobs[job].before_segment <= i &&
                   r == DRV_SUCCESS) {
               r = write_range(ch, jobs.ranges[next_job++], DRV_SEGMENT_HOST_JOB);
               job++;
               AFTER_ENTRY();
            }
            if (i == stream->segment_count || r != DRV_SUCCESS)
               break;
            tag.segment = i;
            r = write_entry(ch, stream->segments[i], &tag);
            AFTER_ENTRY();
         }
      }
      if (r == DRV_SUCCESS && ranges[2 * b + 1].count) {
         r = write_range(ch, ranges[2 * b + 1], DRV_SEGMENT_SIGNALS);
         AFTER_ENTRY();
      }
   }
#undef AFTER_ENTRY
   /* Marks not reached (segments spanning several entries made the count
    * approximate) are written before the final release, in order. */
   while (r == DRV_SUCCESS && next_mark < extra_marks) {
      r = write_range(ch, mark_ranges[next_mark], DRV_SEGMENT_COMPLETION);
      record_mark(ch, first_mark_seqno + next_mark);
      next_mark++;
   }
   if (r == DRV_SUCCESS) {
      r = write_range(ch, mark_ranges[extra_marks], DRV_SEGMENT_COMPLETION);
      record_mark(ch, final_seqno);
   }
   free(ranges);
   drv_pushbuf_clear_segments(&ch->pb);
   /* The instances are queued before the final doorbell (an earlier one,
    * rung for ring space, may already have made a request: committing
    * wakes the worker to look). Only device loss fails here, and then no
    * job will run anyway. */
   if (r == DRV_SUCCESS && jobs.count) {
      drv_host_lane_commit(ch->dev, jobs.lane, jobs.first, jobs.count);
      jobs.first = NULL;
   }
   job_plan_discard(&jobs);
   /* Even a failed submission may have put entries in the ring (only device
    * loss fails after the first entry); publish what was written. */
   atomic_store_explicit(&ch->submitted_seqno, final_seqno, memory_order_release);
   ppu_channel_ring_doorbell(ch->hw, ch->put);

   /* 3. Chunks this submission filled retire with its final seqno; the
    *    current chunk is tagged again by whoever fills it. */
   struct drv_pb_chunk *full = drv_pushbuf_detach_full_chunks(&ch->pb);
   while (full) {
      struct drv_pb_chunk *next = full->next;
      full->retire_seqno = final_seqno;
      full->next = NULL;
      if (ch->retire_tail)
         ch->retire_tail->next = full;
      else
         ch->retire_head = full;
      ch->retire_tail = full;
      full = next;
   }
   if (r == DRV_SUCCESS)
      *out_seqno = final_seqno;
   return r;
}

enum drv_result drv_channel_submit(struct drv_channel *ch, const struct drv_batch *batches,
                                   uint32_t batch_count, uint64_t *out_seqno)
{
   if (drv_device_is_lost(ch->dev))
      return DRV_ERROR_DEVICE_LOST;
   pthread_mutex_lock(&ch->submit_lock);
   enum drv_result r = submit_locked(ch, batches, batch_count, out_seqno);
   pthread_mutex_unlock(&ch->submit_lock);
   return r;
}
