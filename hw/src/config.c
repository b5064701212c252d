/* Default chip configuration. */
#include "ppu/gpu.h"

void ppu_gpu_config_default(struct ppu_gpu_config *cfg)
{
   cfg->vram_size = 8ull << 30; /* 8 GiB, reserved lazily: pages cost host RAM only once touched */
   cfg->max_channels = 64;
   cfg->gpc_count = 2;
   cfg->tpcs_per_gpc = 2;
   cfg->sms_per_tpc = 1;
   cfg->max_warps_per_sm = 48;      /* 1536 threads, a desktop-class SM */
   cfg->max_workgroups_per_sm = 16; /* CTA slots */
   cfg->registers_per_sm = 65536;
   cfg->shared_memory_per_sm = 48u << 10;
   cfg->host_worker_threads = 0;
   cfg->watchdog_warp_instructions = 1ull << 34;
}
