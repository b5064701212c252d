/* Host waits on GPU progress: "until this condition on GPU memory holds",
 * with a timeout, woken by the chip's semaphore interrupts (SEM_EXECUTE with
 * AWAKEN) and by host-side signals, never by spinning.
 *
 * The condition is a callback so that fences, timeline semaphores, query
 * availability and ring space share one mechanism. It is evaluated with the
 * device's wait lock held, so it must only read memory (no locks, no waits).
 * It is re-evaluated after every wake-up; because the interrupt handler takes
 * the same lock before broadcasting, a change that happens between a check
 * and the sleep is never missed. */
#ifndef DRV_WAIT_H
#define DRV_WAIT_H

#include <stdbool.h>
#include <stdint.h>

#include "drv_result.h"

struct drv_device;

#define DRV_DEADLINE_NEVER UINT64_MAX

typedef bool (*drv_wait_condition)(void *ctx);

/* DRV_SUCCESS once done(ctx) is true, DRV_TIMEOUT at the deadline
 * (CLOCK_MONOTONIC nanoseconds, DRV_DEADLINE_NEVER for none; a deadline in
 * the past checks once), DRV_ERROR_DEVICE_LOST when the device is lost. */
enum drv_result drv_wait(struct drv_device *dev, drv_wait_condition done, void *ctx,
                         uint64_t deadline_ns);

/* Wakes every waiter of the device to re-check its condition. */
void drv_wake_waiters(struct drv_device *dev);

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t drv_now_ns(void);
/* now + timeout, saturating at DRV_DEADLINE_NEVER. */
uint64_t drv_deadline_from_timeout(uint64_t timeout_ns);

/* Sets up the device's wait lock and condition variable (drv_device.c). */
bool drv_wait_init(struct drv_device *dev);
void drv_wait_finish(struct drv_device *dev);

#endif
