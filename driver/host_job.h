/* Host-assisted jobs: work that runs on a driver thread at a point of a
 * channel's command stream, as if an engine of the chip had done it.
 *
 * A real GPU builds acceleration structures with builder kernels; this
 * model's builder is host code (driver/bvh/), so a device-side build is a
 * job: the command stream stops at the job's place, a driver worker thread
 * runs it against GPU memory (va_access.h), and the stream continues.
 * docs/acceleration-structures.md describes the protocol; in short, each
 * channel has a lane with two semaphore slots, `request` and `done`, and a
 * job instance numbered n (per lane, in submission order) is the segment
 *
 *    WAIT_FOR_IDLE
 *    SEM RELEASE  request = n   (AWAKEN)
 *    SEM ACQUIRE  done >= n
 *
 * The AWAKEN interrupt wakes the device's worker, which runs the lane's
 * queued instances whose number is <= request, in order, then releases
 * done = n and rings the semaphore doorbell.
 *
 * Numbers are per channel and assigned at submission, never at recording:
 * a command buffer may be submitted many times and to several queues, and a
 * channel runs its stream strictly in order, so per-lane numbers are met in
 * increasing order while channels stay independent (a device-wide counter
 * would make one channel's job wait for, or be satisfied by, another's).
 * That is why a recorded job is a *template* (struct drv_host_job, reference
 * counted) and the job segment is written by the channel at submit time
 * (channel.c) into its own pushbuffer, like the semaphore waits it adds.
 *
 * A job that fails (for example a device address that is not mapped) loses
 * the device with a report, exactly like a channel fault: the channel stays
 * stalled on its acquire and every wait returns device lost.
 *
 * Locks: the device's host_jobs.lock is taken by the interrupt handler (to
 * wake the worker) and nothing is called while it is held. */
#ifndef DRV_HOST_JOB_H
#define DRV_HOST_JOB_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drv_result.h"

struct drv_device;
struct drv_channel;
struct drv_pushbuf;
struct drv_host_lane;

#define DRV_HOST_JOB_ERROR_SIZE 1024u

/* A recorded job. The recorder embeds it in its own struct and fills `run`
 * and `destroy`; the channel takes a reference for every submitted instance
 * and the worker drops it once the instance ran (or was discarded). */
struct drv_host_job {
   atomic_uint refs;
   const char *what; /* e.g. "acceleration-structure build", for reports */
   /* Runs on the worker thread. false = the job failed; `why` then says
    * what went wrong in one or more lines (the device is lost). */
   bool (*run)(struct drv_host_job *job, struct drv_device *dev, char *why, size_t why_size);
   void (*destroy)(struct drv_host_job *job);
};

/* refs = 1, owned by the caller. */
void drv_host_job_init(struct drv_host_job *job, const char *what,
                       bool (*run)(struct drv_host_job *, struct drv_device *, char *, size_t),
                       void (*destroy)(struct drv_host_job *));
void drv_host_job_ref(struct drv_host_job *job);
void drv_host_job_unref(struct drv_host_job *job);

/* A job of a command stream: it runs before segment `before_segment` of the
 * stream (== segment_count: after the last one). */
struct drv_host_job_ref {
   uint32_t before_segment;
   struct drv_host_job *job;
};

/* One submitted instance, waiting in its lane. */
struct drv_host_job_instance {
   struct drv_host_job *job; /* referenced */
   uint64_t number;
   uint64_t owner; /* the command buffer handle, for reports */
   char label[44]; /* its debug name */
   struct drv_host_job_instance *next;
};

/* Per-device state (drv_device.host_jobs). */
struct drv_host_jobs {
   pthread_mutex_t lock;
   pthread_cond_t cond;                 /* worker: new work; lane teardown: job ended */
   struct drv_host_lane *lanes;         /* every lane of the device */
   const struct drv_host_lane *running; /* whose job the worker is running */
   bool thread_started, stop;
   pthread_t thread;
   _Atomic uint64_t jobs_run; /* statistics: counted before the job's done release */
};

bool drv_host_jobs_init(struct drv_host_jobs *hj);
/* Stops the worker (after the job it is running); lanes are gone already. */
void drv_host_jobs_finish(struct drv_host_jobs *hj);
/* The interrupt handler saw a semaphore interrupt: the worker looks again. */
void drv_host_jobs_kick(struct drv_host_jobs *hj);

/* The channel's lane, created (with its slots and, on first use, the
 * device's worker thread) when the channel first submits a job. Called with
 * the channel's submit lock held. */
enum drv_result drv_host_lane_get(struct drv_channel *ch, struct drv_host_lane **out);
/* Removes the lane (channel destruction): waits for a job of it that is
 * running, drops the instances still queued, frees the slots. */
void drv_host_lane_destroy(struct drv_device *dev, struct drv_host_lane *lane);

/* The number the lane's next submitted instance gets. */
uint64_t drv_host_lane_next_number(const struct drv_host_lane *lane);
/* Appends instance `number`'s segment (see the top of this file). */
void drv_host_lane_emit(const struct drv_host_lane *lane, struct drv_pushbuf *pb, uint64_t number);
/* Queues instances that were emitted with consecutive numbers from
 * drv_host_lane_next_number() (the list is in number order; the lane takes
 * it over) and wakes the worker: a request may already be waiting, because
 * the channel may ring the doorbell while it still writes entries. */
void drv_host_lane_commit(struct drv_device *dev, struct drv_host_lane *lane,
                          struct drv_host_job_instance *first, uint64_t count);

#endif
