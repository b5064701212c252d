/* The chip's top level: creates the units, wires them together and forwards
 * the public entry points of ppu/gpu.h to the unit that owns each. No unit's
 * logic lives here. */
#include "ppu/counters.h"
#include "ppu/gpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compute/compute_engine.h"
#include "compute/jit.h"
#include "copy_engine.h"
#include "counter_block.h"
#include "front_end.h"
#include "host_interface.h"
#include "interrupt.h"
#include "mmu.h"
#include "ppu/mmu_format.h"
#include "timer.h"
#include "vram.h"

/* Channel numbers beyond this would only make the round-robin scan long;
 * it is a sanity bound on the configuration, not a format limit. */
#define PPU_MAX_CHANNELS_LIMIT 4096u

struct ppu_gpu {
   struct ppu_gpu_config config;
   struct ppu_vram vram;
   struct ppu_timer timer;
   struct ppu_counter_block counters;
   struct ppu_interrupts interrupts;
   struct ppu_mmu mmu;
   struct ppu_copy_engine copy;
   struct ppu_compute_engine compute;
   struct ppu_front_end front_end;
   struct ppu_host_interface host;
};

static void set_error(char *err, size_t err_size, const char *fmt, unsigned long long v)
{
   if (err && err_size)
      snprintf(err, err_size, fmt, v);
}

/* A grid has ended: the channel whose LAUNCH waits for it is stalled, so the
 * model thread is told to look again. */
static void wake_host_interface(void *host)
{
   ppu_host_interface_wake(host);
}

struct ppu_gpu *ppu_gpu_create(const struct ppu_gpu_config *cfg, char *err, size_t err_size)
{
   if (!cfg || cfg->vram_size == 0 || (cfg->vram_size & PPU_PAGE_MASK)) {
      set_error(err, err_size, "vram_size %llu is not a non-zero multiple of 4096",
                cfg ? (unsigned long long)cfg->vram_size : 0ull);
      return NULL;
   }
   if (cfg->max_channels == 0 || cfg->max_channels > PPU_MAX_CHANNELS_LIMIT) {
      set_error(err, err_size, "max_channels %llu is outside 1..4096",
                (unsigned long long)cfg->max_channels);
      return NULL;
   }
   struct ppu_ttu_predictor_config predictor;
   if (!ppu_ttu_predictor_config_resolve(&cfg->ttu_predictor, &predictor, err, err_size))
      return NULL;
   struct ppu_gpu *gpu = calloc(1, sizeof(*gpu));
   if (!gpu) {
      set_error(err, err_size, "out of host memory (%llu bytes)", (unsigned long long)sizeof(*gpu));
      return NULL;
   }
   gpu->config = *cfg;
   int e = ppu_vram_init(&gpu->vram, cfg->vram_size);
   if (e) {
      set_error(err, err_size, "cannot reserve %llu bytes of VRAM", cfg->vram_size);
      free(gpu);
      return NULL;
   }
   ppu_timer_init(&gpu->timer);
   ppu_interrupts_init(&gpu->interrupts);
   ppu_mmu_init(&gpu->mmu, &gpu->vram, &gpu->counters);
   ppu_copy_engine_init(&gpu->copy, &gpu->mmu, &gpu->counters);
   ppu_front_end_init(&gpu->front_end, &gpu->mmu, &gpu->copy, &gpu->counters, &gpu->interrupts,
                      &gpu->timer);
   ppu_counter_snapshot_init(&gpu->front_end.counter_snapshot, &gpu->mmu, gpu);
   e = ppu_compute_engine_init(&gpu->compute, cfg, &gpu->mmu, &gpu->counters, &gpu->timer, err,
                               err_size);
   if (e) {
      ppu_interrupts_finish(&gpu->interrupts);
      ppu_vram_finish(&gpu->vram);
      free(gpu);
      return NULL;
   }
   ppu_front_end_attach_compute(&gpu->front_end, &gpu->compute);
   e = ppu_host_interface_init(&gpu->host, cfg->max_channels, &gpu->mmu, &gpu->front_end,
                               &gpu->counters, &gpu->interrupts);
   if (e) {
      set_error(err, err_size, "cannot start the model thread (error %llu)", (unsigned long long)e);
      ppu_compute_engine_finish(&gpu->compute);
      ppu_interrupts_finish(&gpu->interrupts);
      ppu_vram_finish(&gpu->vram);
      free(gpu);
      return NULL;
   }
   ppu_compute_engine_set_grid_end_hook(&gpu->compute, wake_host_interface, &gpu->host);
   return gpu;
}

void ppu_gpu_destroy(struct ppu_gpu *gpu)
{
   if (!gpu)
      return;
   ppu_host_interface_finish(&gpu->host); /* stops the thread first */
   ppu_compute_engine_finish(&gpu->compute);
   ppu_interrupts_finish(&gpu->interrupts);
   ppu_vram_finish(&gpu->vram);
   free(gpu);
}

uint8_t *ppu_gpu_bar(struct ppu_gpu *gpu)
{
   return gpu->vram.base;
}

uint64_t ppu_gpu_vram_size(const struct ppu_gpu *gpu)
{
   return gpu->vram.size;
}

void ppu_gpu_vram_discard(struct ppu_gpu *gpu, uint64_t pa, uint64_t size)
{
   ppu_vram_discard(&gpu->vram, pa, size);
}

uint64_t ppu_gpu_timer_ns(const struct ppu_gpu *gpu)
{
   return ppu_timer_read_ns(&gpu->timer);
}

void ppu_gpu_jit_stats(struct ppu_gpu *gpu, struct ppu_gpu_jit_stats *out)
{
   ppu_jit_stats(gpu->compute.jit, out);
}

void ppu_gpu_set_interrupt_handler(struct ppu_gpu *gpu, ppu_interrupt_fn fn, void *user)
{
   ppu_interrupts_set_handler(&gpu->interrupts, fn, user);
}

void ppu_gpu_semaphore_doorbell(struct ppu_gpu *gpu)
{
   ppu_host_interface_wake(&gpu->host);
}

struct ppu_channel *ppu_channel_create(struct ppu_gpu *gpu, const struct ppu_channel_desc *desc)
{
   return desc ? ppu_host_interface_channel_create(&gpu->host, desc) : NULL;
}

void ppu_gpu_read_counters(struct ppu_gpu *gpu, uint64_t *values)
{
   for (unsigned i = 0; i < PPU_COUNTER_COUNT; i++)
      values[i] = atomic_load_explicit(&gpu->counters.value[i], memory_order_relaxed);
   ppu_compute_engine_add_counters(&gpu->compute, values);
}
