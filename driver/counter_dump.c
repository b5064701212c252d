#include "counter_dump.h"

#include <errno.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ppu/counters.h>

void drv_counters_dump_from_env(struct ppu_gpu *gpu)
{
   const char *path = getenv("VKPPU_COUNTERS_FILE");
   if (!path || !path[0])
      return;
   uint64_t values[PPU_COUNTER_COUNT];
   ppu_gpu_read_counters(gpu, values);
   bool to_stderr = strcmp(path, "-") == 0;
   FILE *f = to_stderr ? stderr : fopen(path, "w");
   if (!f) {
      fprintf(stderr, "vkppu: VKPPU_COUNTERS_FILE=%s: %s; counters not written\n", path,
              strerror(errno));
      return;
   }
   fprintf(f, "counter,value,unit\n");
   for (unsigned i = 0; i < PPU_COUNTER_COUNT; i++)
      fprintf(f, "%s,%llu,%s\n", ppu_counter_name((enum ppu_counter)i),
              (unsigned long long)values[i], ppu_counter_unit((enum ppu_counter)i));
   if (!to_stderr && fclose(f) != 0)
      fprintf(stderr, "vkppu: VKPPU_COUNTERS_FILE=%s: %s\n", path, strerror(errno));
}
