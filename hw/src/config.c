/* Default chip configuration. */
#include "ppu/gpu.h"

void ppu_gpu_config_default(struct ppu_gpu_config *cfg)
{
   cfg->vram_size = 8ull << 30; /* 8 GiB, reserved lazily: pages cost host RAM only once touched */
   cfg->max_channels = 64;
}
