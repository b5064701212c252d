/* Name table of vkppu's private device-level entry points (see
 * private_entrypoints.h). Add a row per new entry point. */
#include "private_entrypoints.h"

#include <string.h>

struct vkppu_private_entrypoint {
   const char *name;
   PFN_vkVoidFunction function; /* NULL when the weak symbol is not linked */
};

static const struct vkppu_private_entrypoint vkppu_private_entrypoints[] = {
    {"vkCmdPushRawMethodsVKPPU", (PFN_vkVoidFunction)vkppu_CmdPushRawMethodsVKPPU},
    {"vkGetCountersVKPPU", (PFN_vkVoidFunction)vkppu_GetCountersVKPPU},
    {"vkSetRayCostRecordingVKPPU", (PFN_vkVoidFunction)vkppu_SetRayCostRecordingVKPPU},
    {"vkReadRayCostVKPPU", (PFN_vkVoidFunction)vkppu_ReadRayCostVKPPU},
};

PFN_vkVoidFunction vkppu_lookup_private_device(const char *name)
{
   if (name == NULL)
      return NULL;
   for (size_t i = 0; i < sizeof(vkppu_private_entrypoints) / sizeof(vkppu_private_entrypoints[0]);
        i++) {
      if (strcmp(name, vkppu_private_entrypoints[i].name) == 0)
         return vkppu_private_entrypoints[i].function;
   }
   return NULL;
}
