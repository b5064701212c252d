/* See rt_lavapipe.h. */
#include "rt_lavapipe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool rt_lavapipe_ao(const char *scene, uint32_t width, uint32_t height, uint32_t spp,
                    uint32_t threads, struct rt_lavapipe_measurement *out)
{
   memset(out, 0, sizeof(*out));
   if (access(RT_AO_SAMPLE, X_OK) || access(RT_LVP_ICD_JSON, R_OK)) {
      fprintf(stderr, "rt_lavapipe: %s or %s is missing\n", RT_AO_SAMPLE, RT_LVP_ICD_JSON);
      return false;
   }
   /* Scene names come from the catalog (letters, digits, '_'), so the
    * command line needs no quoting beyond the paths'. */
   char cmd[1024];
   snprintf(cmd, sizeof(cmd),
            "VK_ICD_FILENAMES='%s' VK_DRIVER_FILES='%s' LP_NUM_THREADS=%u '%s' --scene %s "
            "--width %u --height %u --spp %u --benchmark --output /dev/null 2>&1",
            RT_LVP_ICD_JSON, RT_LVP_ICD_JSON, threads ? threads : 2, RT_AO_SAMPLE, scene, width,
            height, spp);
   FILE *p = popen(cmd, "r");
   if (!p)
      return false;
   char line[512];
   bool build = false, trace = false;
   while (fgets(line, sizeof(line), p)) {
      const char *s;
      if ((s = strstr(line, "BLAS build (")) && (s = strchr(s, ')')))
         build = sscanf(s + 1, " %lf ms", &out->blas_build_ms) == 1;
      if ((s = strstr(line, " rays = ")))
         trace = sscanf(s, " rays = %lf Mrays/s", &out->mrays) == 1;
   }
   int status = pclose(p);
   if (status != 0 || !build || !trace) {
      fprintf(stderr, "rt_lavapipe: the sample on lavapipe failed (status %d)\n", status);
      return false;
   }
   return true;
}
