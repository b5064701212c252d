/* See drv_device.h. */
#include "drv_device.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "channel.h"
#include "counter_dump.h"
#include "fault_report.h"
#include "ppu/gpu.h"
#include "ppu/hw_config.h"
#include "semaphore_slots.h"
#include "wait.h"

const char *drv_result_name(enum drv_result r)
{
   switch (r) {
   case DRV_SUCCESS:
      return "success";
   case DRV_TIMEOUT:
      return "timeout";
   case DRV_NOT_READY:
      return "not ready";
   case DRV_ERROR_OUT_OF_HOST_MEMORY:
      return "out of host memory";
   case DRV_ERROR_OUT_OF_DEVICE_MEMORY:
      return "out of device memory";
   case DRV_ERROR_ADDRESS_IN_USE:
      return "address in use";
   case DRV_ERROR_DEVICE_LOST:
      return "device lost";
   case DRV_ERROR_INITIALIZATION_FAILED:
      return "initialization failed";
   }
   return "unknown result";
}

/* Called by the address space with mm_lock held, after it removed entries. */
static void invalidate_all_tlbs(void *user)
{
   struct drv_device *dev = user;
   for (uint32_t i = 0; i < DRV_MAX_CHANNELS; i++) {
      if (dev->channels[i])
         ppu_channel_tlb_invalidate(dev->channels[i]->hw);
   }
}

/* Runs on a model thread: only memory reads, our own locks and the
 * ppu_channel getters (gpu.h), never an application callback. */
static void on_interrupt(void *user, enum ppu_interrupt kind, struct ppu_channel *channel)
{
   struct drv_device *dev = user;
   if (kind == PPU_INTR_FAULT && channel) {
      drv_fault_record(dev, channel); /* wakes the waiters itself */
   } else {
      drv_wake_waiters(dev);
      /* A release may be a host job's request (host_job.h). */
      drv_host_jobs_kick(&dev->host_jobs);
   }
}

/* VKPPU_WATCHDOG_WARP_INSTRUCTIONS (docs/driver.md): the compute engine's
 * budget of warp instructions per grid, decimal or 0x hex, 0 = no watchdog.
 * A value that is not such a number is reported and the default kept: a
 * typo must not silently turn the watchdog off. */
static void apply_watchdog_env(struct ppu_gpu_config *cfg)
{
   const char *text = getenv("VKPPU_WATCHDOG_WARP_INSTRUCTIONS");
   if (!text)
      return;
   const char *p = text;
   while (*p == ' ' || *p == '\t')
      p++;
   char *end = NULL;
   errno = 0;
   unsigned long long value = *p >= '0' && *p <= '9' ? strtoull(p, &end, 0) : 0;
   if (!end || end == p || *end != '\0' || errno == ERANGE) {
      fprintf(stderr,
              "vkppu: VKPPU_WATCHDOG_WARP_INSTRUCTIONS=\"%s\" is not a number of warp "
              "instructions (decimal or 0x hex, 0 = no watchdog); keeping the default %" PRIu64
              "\n",
              text, cfg->watchdog_warp_instructions);
      return;
   }
   cfg->watchdog_warp_instructions = value;
}

/* VKPPU_SM_EXEC (docs/jit.md): interp, jit or auto, over the chip's
 * sm.exec. Anything else is reported and the configured value kept. */
static void apply_sm_exec_env(struct ppu_gpu_config *cfg)
{
   const char *text = getenv("VKPPU_SM_EXEC");
   if (!text || !*text)
      return;
   for (unsigned i = 0; ppu_sm_exec_names[i]; i++) {
      if (strcmp(text, ppu_sm_exec_names[i]) == 0) {
         cfg->sm_exec = (enum ppu_sm_exec)i;
         return;
      }
   }
   fprintf(stderr, "vkppu: VKPPU_SM_EXEC=\"%s\" is not interp, jit or auto; keeping sm.exec = %s\n",
           text, ppu_sm_exec_names[cfg->sm_exec]);
}

static void set_error(char *err, size_t err_size, const char *what)
{
   if (err && err_size)
      snprintf(err, err_size, "%s", what);
}

/* Limits the API layer advertises, which are those of the default chip
 * (icd/physical_device_properties.c, icd/compute_pipeline.c): a chip below
 * them would refuse work the application was told it may submit. */
#define DRV_ADVERTISED_WARPS_PER_SM 32u /* maxComputeWorkGroupInvocations 1024 */
#define DRV_ADVERTISED_REGISTERS_PER_SM 65536u
#define DRV_ADVERTISED_SHARED_MEMORY 49152u /* maxComputeSharedMemorySize */

static bool check_advertised_limits(const struct ppu_gpu_config *cfg, char *why, size_t why_size)
{
   if (cfg->max_channels < DRV_MAX_CHANNELS)
      snprintf(why, why_size, "gpu.channels = %u: the driver needs %u (one channel per queue)",
               cfg->max_channels, DRV_MAX_CHANNELS);
   else if (cfg->max_warps_per_sm < DRV_ADVERTISED_WARPS_PER_SM)
      snprintf(why, why_size,
               "sm.warps_max = %u: the driver advertises 1024-invocation workgroups, which "
               "need %u warps",
               cfg->max_warps_per_sm, DRV_ADVERTISED_WARPS_PER_SM);
   else if (cfg->registers_per_sm < DRV_ADVERTISED_REGISTERS_PER_SM)
      snprintf(why, why_size, "sm.registers = %u: the driver's compiler assumes %u per SM",
               cfg->registers_per_sm, DRV_ADVERTISED_REGISTERS_PER_SM);
   else if (cfg->shared_memory_per_sm < DRV_ADVERTISED_SHARED_MEMORY)
      snprintf(why, why_size,
               "sm.shared_memory = %u B: the driver advertises maxComputeSharedMemorySize %u",
               cfg->shared_memory_per_sm, DRV_ADVERTISED_SHARED_MEMORY);
   else
      return true;
   return false;
}

enum drv_result drv_hw_config_load(struct ppu_gpu_config *cfg, char *err, size_t err_size)
{
   const char *spec = getenv("VKPPU_HW_CONFIG");
   if (!spec || !*spec) {
      ppu_gpu_config_default(cfg);
   } else {
      char detail[3072];
      if (ppu_hw_config_load(cfg, spec, detail, sizeof(detail))) {
         if (err && err_size)
            snprintf(err, err_size,
                     "VKPPU_HW_CONFIG=%s is not a valid hardware configuration "
                     "(docs/hw-config.md):\n%s",
                     spec, detail);
         return DRV_ERROR_INITIALIZATION_FAILED;
      }
      char why[256];
      if (!check_advertised_limits(cfg, why, sizeof(why))) {
         if (err && err_size)
            snprintf(err, err_size, "VKPPU_HW_CONFIG=%s: %s", spec, why);
         return DRV_ERROR_INITIALIZATION_FAILED;
      }
   }
   apply_watchdog_env(cfg);
   apply_sm_exec_env(cfg);
   return DRV_SUCCESS;
}

enum drv_result drv_device_create(const struct drv_device_config *config, struct drv_device **out,
                                  char *err, size_t err_size)
{
   struct drv_device *dev = calloc(1, sizeof(*dev));
   if (!dev) {
      set_error(err, err_size, "out of host memory");
      return DRV_ERROR_OUT_OF_HOST_MEMORY;
   }
   snprintf(dev->name, sizeof(dev->name), "%s", config->name ? config->name : "vkppu");
   atomic_init(&dev->lost, false);
   atomic_init(&dev->lost_report_taken, false);

   struct ppu_gpu_config cfg;
   enum drv_result r = drv_hw_config_load(&cfg, err, err_size);
   if (r != DRV_SUCCESS)
      goto fail_dev;
   if (config->vram_size)
      cfg.vram_size = config->vram_size & ~PPU_PAGE_MASK;
   r = DRV_ERROR_INITIALIZATION_FAILED;
   dev->gpu = ppu_gpu_create(&cfg, err, err_size);
   if (!dev->gpu)
      goto fail_dev;
   dev->bar = ppu_gpu_bar(dev->gpu);

   if (pthread_mutex_init(&dev->mm_lock, NULL))
      goto fail_gpu;
   if (pthread_mutex_init(&dev->slot_lock, NULL))
      goto fail_mm_lock;
   if (pthread_mutex_init(&dev->fault_lock, NULL))
      goto fail_slot_lock;
   if (pthread_mutex_init(&dev->program_lock, NULL))
      goto fail_fault_lock;
   if (!drv_wait_init(dev))
      goto fail_program_lock;
   if (!drv_host_jobs_init(&dev->host_jobs))
      goto fail_wait_init;
   r = vram_allocator_init(&dev->vram, dev->gpu, ppu_gpu_vram_size(dev->gpu));
   if (r != DRV_SUCCESS) {
      set_error(err, err_size, "cannot set up the VRAM allocator");
      goto fail_host_jobs;
   }
   r = address_space_init(&dev->as, dev->bar, &dev->vram, invalidate_all_tlbs, dev);
   if (r != DRV_SUCCESS) {
      set_error(err, err_size, "cannot set up the GPU address space");
      goto fail_vram;
   }
   ppu_gpu_set_interrupt_handler(dev->gpu, on_interrupt, dev);
   *out = dev;
   return DRV_SUCCESS;

fail_vram:
   vram_allocator_finish(&dev->vram);
fail_host_jobs:
   drv_host_jobs_finish(&dev->host_jobs);
fail_wait_init:
   drv_wait_finish(dev);
fail_program_lock:
   pthread_mutex_destroy(&dev->program_lock);
fail_fault_lock:
   pthread_mutex_destroy(&dev->fault_lock);
fail_slot_lock:
   pthread_mutex_destroy(&dev->slot_lock);
fail_mm_lock:
   pthread_mutex_destroy(&dev->mm_lock);
fail_gpu:
   ppu_gpu_destroy(dev->gpu);
fail_dev:
   free(dev);
   return r;
}

void drv_device_destroy(struct drv_device *dev)
{
   if (!dev)
      return;
   /* The worker may ring the chip's doorbell: stop it before the chip goes.
    * Every lane went with its channel, so it runs nothing any more. */
   drv_host_jobs_finish(&dev->host_jobs);
   drv_slot_pages_destroy(dev);
   address_space_finish(&dev->as);
   vram_allocator_finish(&dev->vram);
   /* Every channel is gone, so the counters are final. */
   drv_counters_dump_from_env(dev->gpu);
   /* No channel is left, so no interrupt can arrive; destroying the chip
    * stops its threads before the state the handler uses goes away. */
   ppu_gpu_destroy(dev->gpu);
   drv_wait_finish(dev);
   free(dev->programs);
   pthread_mutex_destroy(&dev->program_lock);
   pthread_mutex_destroy(&dev->fault_lock);
   pthread_mutex_destroy(&dev->slot_lock);
   pthread_mutex_destroy(&dev->mm_lock);
   free(dev);
}

bool drv_device_take_fault_report(struct drv_device *dev, char *buf, size_t size)
{
   if (!drv_device_is_lost(dev) || atomic_exchange(&dev->lost_report_taken, true))
      return false;
   pthread_mutex_lock(&dev->fault_lock);
   snprintf(buf, size, "%s", dev->fault_report);
   pthread_mutex_unlock(&dev->fault_lock);
   return true;
}

void drv_device_lose(struct drv_device *dev, const char *report)
{
   pthread_mutex_lock(&dev->fault_lock);
   if (dev->fault_count++ == 0)
      snprintf(dev->fault_report, sizeof(dev->fault_report), "%s", report);
   pthread_mutex_unlock(&dev->fault_lock);
   atomic_store_explicit(&dev->lost, true, memory_order_release);
   drv_wake_waiters(dev);
}

void drv_device_host_signaled(struct drv_device *dev)
{
   ppu_gpu_semaphore_doorbell(dev->gpu);
   drv_wake_waiters(dev);
}

enum drv_result drv_device_add_channel(struct drv_device *dev, struct drv_channel *ch)
{
   enum drv_result r = DRV_ERROR_INITIALIZATION_FAILED;
   pthread_mutex_lock(&dev->mm_lock);
   pthread_mutex_lock(&dev->fault_lock);
   for (uint32_t i = 0; i < DRV_MAX_CHANNELS; i++) {
      if (!dev->channels[i]) {
         dev->channels[i] = ch;
         r = DRV_SUCCESS;
         break;
      }
   }
   pthread_mutex_unlock(&dev->fault_lock);
   pthread_mutex_unlock(&dev->mm_lock);
   return r;
}

void drv_device_remove_channel(struct drv_device *dev, struct drv_channel *ch)
{
   pthread_mutex_lock(&dev->mm_lock);
   pthread_mutex_lock(&dev->fault_lock);
   for (uint32_t i = 0; i < DRV_MAX_CHANNELS; i++) {
      if (dev->channels[i] == ch)
         dev->channels[i] = NULL;
   }
   pthread_mutex_unlock(&dev->fault_lock);
   pthread_mutex_unlock(&dev->mm_lock);
}
