/* The user-mode driver's device: one modeled PPU (struct ppu_gpu) per
 * VkDevice, with its VRAM allocator, GPU address space, semaphore slots,
 * channels, interrupt handler, host-wait machinery and device-lost state.
 *
 * Giving every VkDevice its own chip means a fault that loses one device
 * leaves every other device of the process running.
 *
 * Locks, in the order they may nest:
 *   slot_lock -> mm_lock            (a new slot page allocates memory)
 *   channel submit lock -> mm_lock  (a pushbuffer chunk allocates memory)
 *   mm_lock -> fault_lock           (registering a channel)
 *   fault_lock -> program_lock      (a fault report names the shader)
 *   wait_lock and host_jobs.lock are innermost: nothing is taken or called
 *   into while holding them. */
#ifndef DRV_DEVICE_H
#define DRV_DEVICE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "address_space.h"
#include "drv_result.h"
#include "host_job.h"
#include "vram_allocator.h"

struct ppu_gpu;
struct drv_channel;
struct drv_slot_page;
struct drv_program_range;

/* Channels one device may have: Vulkan queues (4 + 2, see vkppu_instance.h)
 * with room to spare. */
#define DRV_MAX_CHANNELS 16u
#define DRV_FAULT_REPORT_SIZE 4096u

struct drv_device {
   struct ppu_gpu *gpu;
   uint8_t *bar;
   char name[64];

   pthread_mutex_t mm_lock; /* vram, as, channels[] */
   struct vram_allocator vram;
   struct address_space as;

   pthread_mutex_t slot_lock;
   struct drv_slot_page *slot_pages;

   /* Registered channels, for TLB flushes (under mm_lock) and for mapping an
    * interrupt's ppu_channel back to its drv_channel (under fault_lock). */
   struct drv_channel *channels[DRV_MAX_CHANNELS];

   /* Host threads waiting for GPU memory to change (wait.c). */
   pthread_mutex_t wait_lock;
   pthread_cond_t wait_cond;
   uint64_t wake_count; /* interrupts seen; statistics */

   /* Device lost (a channel faulted): set once, never cleared. */
   atomic_bool lost;
   atomic_bool lost_report_taken;
   pthread_mutex_t fault_lock;
   uint32_t fault_count;
   char fault_report[DRV_FAULT_REPORT_SIZE]; /* the first fault, with context */

   /* Program VA ranges and their names (program_names.h). */
   pthread_mutex_t program_lock;
   struct drv_program_range *programs;
   uint32_t program_count, program_capacity;

   /* Host-assisted jobs (host_job.h): the worker thread and the lanes. */
   struct drv_host_jobs host_jobs;
};

struct ppu_gpu_config;

struct drv_device_config {
   uint64_t vram_size; /* bytes of modeled VRAM */
   const char *name;   /* for messages, e.g. the physical device name */
};

/* The chip the driver models: the hardware configuration named by
 * VKPPU_HW_CONFIG (a preset or a file, docs/hw-config.md; unset = the default
 * chip), then VKPPU_WATCHDOG_WARP_INSTRUCTIONS. An invalid configuration, or
 * one below the limits the API layer advertises, fails with every problem
 * (file:line: what) written to err (if given). */
enum drv_result drv_hw_config_load(struct ppu_gpu_config *cfg, char *err, size_t err_size);

/* On failure writes a reason to err (if given). */
enum drv_result drv_device_create(const struct drv_device_config *config, struct drv_device **out,
                                  char *err, size_t err_size);
/* The caller has destroyed every channel and freed every object. */
void drv_device_destroy(struct drv_device *dev);

static inline bool drv_device_is_lost(struct drv_device *dev)
{
   return atomic_load_explicit(&dev->lost, memory_order_acquire);
}

/* Copies the first fault report the first time it is called after the device
 * was lost, so the API layer can pass it to the application's debug
 * messengers exactly once, on an application thread (the interrupt handler
 * runs on a model thread and must not call back into the application).
 * Returns false when there is nothing new to report. */
bool drv_device_take_fault_report(struct drv_device *dev, char *buf, size_t size);

/* Marks the device lost because of something the driver found (a failed
 * host job) rather than a channel fault: keeps `report` if it is the first,
 * and wakes every waiter. The report is taken like a fault report. */
void drv_device_lose(struct drv_device *dev, const char *report);

/* The host wrote semaphore memory through the BAR: wake channels stalled on
 * an acquire and host threads in drv_wait. */
void drv_device_host_signaled(struct drv_device *dev);

/* Registers a channel (channel.c) so TLB flushes and fault reports reach it. */
enum drv_result drv_device_add_channel(struct drv_device *dev, struct drv_channel *ch);
void drv_device_remove_channel(struct drv_device *dev, struct drv_channel *ch);

#endif
