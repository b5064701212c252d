/* See host_job.h. */
#include "host_job.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "channel.h"
#include "drv_device.h"
#include "method_encoder.h"
#include "semaphore_slots.h"

struct drv_host_lane {
   char channel_name[32];
   struct drv_slot request; /* the GPU releases the number of the job it reached */
   struct drv_slot done;    /* the worker releases the number of the job it finished */
   uint64_t last_number;    /* of the last committed instance */
   struct drv_host_job_instance *head, *tail;
   struct drv_host_lane *next; /* in drv_host_jobs.lanes */
};

void drv_host_job_init(struct drv_host_job *job, const char *what,
                       bool (*run)(struct drv_host_job *, struct drv_device *, char *, size_t),
                       void (*destroy)(struct drv_host_job *))
{
   atomic_init(&job->refs, 1);
   job->what = what;
   job->run = run;
   job->destroy = destroy;
}

void drv_host_job_ref(struct drv_host_job *job)
{
   atomic_fetch_add_explicit(&job->refs, 1, memory_order_relaxed);
}

void drv_host_job_unref(struct drv_host_job *job)
{
   if (job && atomic_fetch_sub_explicit(&job->refs, 1, memory_order_acq_rel) == 1)
      job->destroy(job);
}

bool drv_host_jobs_init(struct drv_host_jobs *hj)
{
   memset(hj, 0, sizeof(*hj));
   if (pthread_mutex_init(&hj->lock, NULL))
      return false;
   if (pthread_cond_init(&hj->cond, NULL)) {
      pthread_mutex_destroy(&hj->lock);
      return false;
   }
   return true;
}

void drv_host_jobs_finish(struct drv_host_jobs *hj)
{
   pthread_mutex_lock(&hj->lock);
   hj->stop = true;
   pthread_cond_broadcast(&hj->cond);
   bool started = hj->thread_started;
   pthread_mutex_unlock(&hj->lock);
   if (started)
      pthread_join(hj->thread, NULL);
   pthread_cond_destroy(&hj->cond);
   pthread_mutex_destroy(&hj->lock);
}

void drv_host_jobs_kick(struct drv_host_jobs *hj)
{
   pthread_mutex_lock(&hj->lock);
   pthread_cond_broadcast(&hj->cond);
   pthread_mutex_unlock(&hj->lock);
}

/* Under hj->lock: the first instance of any lane whose request has reached
 * it. Lanes are independent; within a lane only the head can be due. */
static struct drv_host_job_instance *take_due(struct drv_host_jobs *hj, struct drv_host_lane **out)
{
   for (struct drv_host_lane *l = hj->lanes; l; l = l->next) {
      struct drv_host_job_instance *inst = l->head;
      if (!inst || drv_slot_read(&l->request) < inst->number)
         continue;
      l->head = inst->next;
      if (!l->head)
         l->tail = NULL;
      *out = l;
      return inst;
   }
   return NULL;
}

static void report_failure(struct drv_device *dev, const struct drv_host_lane *lane,
                           const struct drv_host_job_instance *inst, const char *why)
{
   char report[DRV_FAULT_REPORT_SIZE];
   snprintf(report, sizeof(report),
            "device lost: %s: host job on channel \"%s\" failed\n"
            "  job:    %s (lane job %" PRIu64 ")\n"
            "  source: VkCommandBuffer 0x%" PRIx64 "%s%s%s\n"
            "%s",
            dev->name, lane->channel_name, inst->job->what, inst->number, inst->owner,
            inst->label[0] ? " \"" : "", inst->label, inst->label[0] ? "\"" : "", why);
   drv_device_lose(dev, report);
}

static void *worker_main(void *arg)
{
   struct drv_device *dev = arg;
   struct drv_host_jobs *hj = &dev->host_jobs;
   pthread_mutex_lock(&hj->lock);
   while (!hj->stop) {
      struct drv_host_lane *lane = NULL;
      struct drv_host_job_instance *inst = drv_device_is_lost(dev) ? NULL : take_due(hj, &lane);
      if (!inst) {
         pthread_cond_wait(&hj->cond, &hj->lock);
         continue;
      }
      hj->running = lane;
      pthread_mutex_unlock(&hj->lock);

      char why[DRV_HOST_JOB_ERROR_SIZE] = "";
      if (inst->job->run(inst->job, dev, why, sizeof(why))) {
         atomic_fetch_add_explicit(&hj->jobs_run, 1, memory_order_relaxed);
         drv_slot_write(&lane->done, inst->number);
         drv_device_host_signaled(dev);
      } else {
         report_failure(dev, lane, inst, why);
      }
      drv_host_job_unref(inst->job);
      free(inst);

      pthread_mutex_lock(&hj->lock);
      hj->running = NULL;
      pthread_cond_broadcast(&hj->cond); /* a lane being destroyed may wait for us */
   }
   pthread_mutex_unlock(&hj->lock);
   return NULL;
}

enum drv_result drv_host_lane_get(struct drv_channel *ch, struct drv_host_lane **out)
{
   if (ch->host_lane) {
      *out = ch->host_lane;
      return DRV_SUCCESS;
   }
   struct drv_device *dev = ch->dev;
   struct drv_host_lane *lane = calloc(1, sizeof(*lane));
   if (!lane)
      return DRV_ERROR_OUT_OF_HOST_MEMORY;
   snprintf(lane->channel_name, sizeof(lane->channel_name), "%s", ch->name);
   enum drv_result r = drv_slot_alloc(dev, 0, &lane->request);
   if (r == DRV_SUCCESS) {
      r = drv_slot_alloc(dev, 0, &lane->done);
      if (r != DRV_SUCCESS)
         drv_slot_free(dev, &lane->request);
   }
   if (r != DRV_SUCCESS) {
      free(lane);
      return r;
   }
   struct drv_host_jobs *hj = &dev->host_jobs;
   pthread_mutex_lock(&hj->lock);
   /* The worker starts with the first lane: a device that never runs a job
    * never gets the thread. */
   if (!hj->thread_started) {
      if (pthread_create(&hj->thread, NULL, worker_main, dev) != 0) {
         pthread_mutex_unlock(&hj->lock);
         drv_slot_free(dev, &lane->done);
         drv_slot_free(dev, &lane->request);
         free(lane);
         return DRV_ERROR_OUT_OF_HOST_MEMORY;
      }
      hj->thread_started = true;
   }
   lane->next = hj->lanes;
   hj->lanes = lane;
   pthread_mutex_unlock(&hj->lock);
   ch->host_lane = lane;
   *out = lane;
   return DRV_SUCCESS;
}

void drv_host_lane_destroy(struct drv_device *dev, struct drv_host_lane *lane)
{
   if (!lane)
      return;
   struct drv_host_jobs *hj = &dev->host_jobs;
   pthread_mutex_lock(&hj->lock);
   while (hj->running == lane)
      pthread_cond_wait(&hj->cond, &hj->lock);
   for (struct drv_host_lane **p = &hj->lanes; *p; p = &(*p)->next) {
      if (*p == lane) {
         *p = lane->next;
         break;
      }
   }
   struct drv_host_job_instance *inst = lane->head;
   pthread_mutex_unlock(&hj->lock);
   /* Instances still queued were never reached (the device was lost or the
    * application destroys the device with work pending). */
   while (inst) {
      struct drv_host_job_instance *next = inst->next;
      drv_host_job_unref(inst->job);
      free(inst);
      inst = next;
   }
   drv_slot_free(dev, &lane->done);
   drv_slot_free(dev, &lane->request);
   free(lane);
}

uint64_t drv_host_lane_next_number(const struct drv_host_lane *lane)
{
   return lane->last_number + 1;
}

void drv_host_lane_emit(const struct drv_host_lane *lane, struct drv_pushbuf *pb, uint64_t number)
{
   /* The job reads what earlier work wrote: everything before it must be
    * done (RELEASE waits too, but the idle makes the intent explicit and
    * stays right once engines run asynchronously). */
   drv_emit_wait_for_idle(pb);
   drv_emit_sem_release(pb, lane->request.va, number, true);
   drv_emit_sem_acquire_geq(pb, lane->done.va, number);
}

void drv_host_lane_commit(struct drv_device *dev, struct drv_host_lane *lane,
                          struct drv_host_job_instance *first, uint64_t count)
{
   if (!first)
      return;
   struct drv_host_job_instance *last = first;
   while (last->next)
      last = last->next;
   struct drv_host_jobs *hj = &dev->host_jobs;
   pthread_mutex_lock(&hj->lock);
   if (lane->tail)
      lane->tail->next = first;
   else
      lane->head = first;
   lane->tail = last;
   lane->last_number += count;
   pthread_cond_broadcast(&hj->cond);
   pthread_mutex_unlock(&hj->lock);
}
