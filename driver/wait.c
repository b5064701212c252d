/* See wait.h. */
#include "wait.h"

#include <errno.h>
#include <time.h>

#include "drv_device.h"

uint64_t drv_now_ns(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t drv_deadline_from_timeout(uint64_t timeout_ns)
{
   uint64_t now = drv_now_ns();
   return timeout_ns >= DRV_DEADLINE_NEVER - now ? DRV_DEADLINE_NEVER : now + timeout_ns;
}

bool drv_wait_init(struct drv_device *dev)
{
   pthread_condattr_t attr;
   if (pthread_condattr_init(&attr))
      return false;
   /* Deadlines are CLOCK_MONOTONIC (Vulkan timeouts are relative durations;
    * a wall-clock change must not stretch or cut them). */
   bool ok = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) == 0 &&
             pthread_cond_init(&dev->wait_cond, &attr) == 0;
   pthread_condattr_destroy(&attr);
   if (!ok)
      return false;
   if (pthread_mutex_init(&dev->wait_lock, NULL)) {
      pthread_cond_destroy(&dev->wait_cond);
      return false;
   }
   return true;
}

void drv_wait_finish(struct drv_device *dev)
{
   pthread_cond_destroy(&dev->wait_cond);
   pthread_mutex_destroy(&dev->wait_lock);
}

void drv_wake_waiters(struct drv_device *dev)
{
   pthread_mutex_lock(&dev->wait_lock);
   dev->wake_count++;
   pthread_cond_broadcast(&dev->wait_cond);
   pthread_mutex_unlock(&dev->wait_lock);
}

enum drv_result drv_wait(struct drv_device *dev, drv_wait_condition done, void *ctx,
                         uint64_t deadline_ns)
{
   if (drv_device_is_lost(dev))
      return DRV_ERROR_DEVICE_LOST;
   if (done(ctx))
      return DRV_SUCCESS;
   if (deadline_ns != DRV_DEADLINE_NEVER && drv_now_ns() >= deadline_ns)
      return DRV_TIMEOUT;

   struct timespec ts = {
       .tv_sec = (time_t)(deadline_ns / 1000000000ull),
       .tv_nsec = (long)(deadline_ns % 1000000000ull),
   };
   enum drv_result result = DRV_TIMEOUT;
   pthread_mutex_lock(&dev->wait_lock);
   for (;;) {
      if (drv_device_is_lost(dev)) {
         result = DRV_ERROR_DEVICE_LOST;
         break;
      }
      if (done(ctx)) {
         result = DRV_SUCCESS;
         break;
      }
      int rc = deadline_ns == DRV_DEADLINE_NEVER
                   ? pthread_cond_wait(&dev->wait_cond, &dev->wait_lock)
                   : pthread_cond_timedwait(&dev->wait_cond, &dev->wait_lock, &ts);
      if (rc == ETIMEDOUT) {
         result = done(ctx) ? DRV_SUCCESS : DRV_TIMEOUT;
         break;
      }
   }
   pthread_mutex_unlock(&dev->wait_lock);
   return result;
}
