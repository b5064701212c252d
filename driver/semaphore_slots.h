/* 64-bit semaphore slots in GPU memory: the words that SEM_EXECUTE acquires
 * on and releases to (methods.h). Vulkan semaphores, events and each
 * channel's completion counter get one slot each.
 *
 * Slots are carved out of 4 KiB pages (512 slots per page) so that a program
 * with thousands of semaphores does not spend a page, a VA range and page
 * table entries on each. Thread-safe. */
#ifndef DRV_SEMAPHORE_SLOTS_H
#define DRV_SEMAPHORE_SLOTS_H

#include <stdint.h>

#include "drv_result.h"

struct drv_device;
struct drv_slot_page;

struct drv_slot {
   uint64_t va;    /* GPU address, 8-byte aligned */
   uint64_t *host; /* the same word through the BAR */
   struct drv_slot_page *page;
   uint32_t index;
};

/* A slot whose value is `initial_value`. */
enum drv_result drv_slot_alloc(struct drv_device *dev, uint64_t initial_value,
                               struct drv_slot *out);
void drv_slot_free(struct drv_device *dev, struct drv_slot *slot);
/* Frees every page; the device is being destroyed. */
void drv_slot_pages_destroy(struct drv_device *dev);

/* The value, as the GPU last wrote it (or the host did). */
static inline uint64_t drv_slot_read(const struct drv_slot *slot)
{
   return __atomic_load_n(slot->host, __ATOMIC_ACQUIRE);
}

/* Host write through the BAR. Callers then ring the semaphore doorbell
 * (drv_device_host_signaled) so waiting channels and threads look again. */
static inline void drv_slot_write(const struct drv_slot *slot, uint64_t value)
{
   __atomic_store_n(slot->host, value, __ATOMIC_RELEASE);
}

#endif
