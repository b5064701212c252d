/* Synchronization objects: fences, semaphores and events, and how they map
 * onto the PPU's 64-bit semaphores (docs/driver.md, "Synchronization"). */
#ifndef VKPPU_SYNC_H
#define VKPPU_SYNC_H

#include <stdatomic.h>

#include "semaphore_slots.h"
#include "vkppu_device.h"

struct drv_channel;

/* A fence is signaled when it was created or last set signaled by the host,
 * or when the channel of the submission it was attached to has completed the
 * submission's sequence number. No GPU memory of its own: a fence costs
 * nothing to create, and waiting on it reads the queue's counter. */
struct vkppu_fence {
   struct vkppu_object base;
   atomic_bool signaled;                /* created signaled (until reset) */
   _Atomic uint64_t seqno;              /* of the submission, 0 = none */
   struct drv_channel *_Atomic channel; /* written after seqno, read before */
};
VKPPU_DEFINE_HANDLE_CASTS(vkppu_fence, VkFence)

/* Attaches a fence to a submission (queue.c). */
void vkppu_fence_attach(struct vkppu_device *dev, struct vkppu_fence *fence,
                        struct drv_channel *channel, uint64_t seqno);
bool vkppu_fence_is_signaled(const struct vkppu_fence *fence);

/* Both semaphore types are one 64-bit slot. A timeline semaphore's slot is
 * its value. A binary semaphore's slot counts signals: the n-th signal
 * submitted releases n, and a wait acquires >= the number of signals
 * submitted before it (the spec requires that signal to be pending). */
struct vkppu_semaphore {
   struct vkppu_object base;
   VkSemaphoreType type;
   struct drv_slot slot;
   _Atomic uint64_t binary_signals; /* binary: signals submitted so far */
};
VKPPU_DEFINE_HANDLE_CASTS(vkppu_semaphore, VkSemaphore)

/* The value a submitted wait acquires / a submitted signal releases.
 * `value` is the timeline value (ignored for binary semaphores). */
uint64_t vkppu_semaphore_wait_value(struct vkppu_semaphore *sem, uint64_t value);
uint64_t vkppu_semaphore_signal_value(struct vkppu_semaphore *sem, uint64_t value);

/* An event is a slot: 1 = set, 0 = reset. */
struct vkppu_event {
   struct vkppu_object base;
   struct drv_slot slot;
   VkEventCreateFlags flags;
};
VKPPU_DEFINE_HANDLE_CASTS(vkppu_event, VkEvent)

#endif
