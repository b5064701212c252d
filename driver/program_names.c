/* See program_names.h. A short unsorted array: a device holds as many
 * programs as the application has pipelines, and lookups happen only when a
 * shader faults. */
#include "program_names.h"

#include <stdio.h>
#include <stdlib.h>

#include "drv_device.h"

enum drv_result drv_program_register(struct drv_device *dev, uint64_t va, uint64_t size,
                                     const char *default_name, drv_program_name_fn current_name,
                                     const void *owner)
{
   enum drv_result r = DRV_SUCCESS;
   pthread_mutex_lock(&dev->program_lock);
   if (dev->program_count == dev->program_capacity) {
      uint32_t capacity = dev->program_capacity ? dev->program_capacity * 2 : 16;
      struct drv_program_range *grown =
          realloc(dev->programs, (size_t)capacity * sizeof(*dev->programs));
      if (!grown) {
         r = DRV_ERROR_OUT_OF_HOST_MEMORY;
         goto out;
      }
      dev->programs = grown;
      dev->program_capacity = capacity;
   }
   struct drv_program_range *p = &dev->programs[dev->program_count++];
   *p = (struct drv_program_range){
       .va = va,
       .size = size,
       .owner = owner,
       .current_name = current_name,
   };
   snprintf(p->default_name, sizeof(p->default_name), "%s", default_name ? default_name : "");
out:
   pthread_mutex_unlock(&dev->program_lock);
   return r;
}

void drv_program_unregister(struct drv_device *dev, uint64_t va)
{
   pthread_mutex_lock(&dev->program_lock);
   for (uint32_t i = 0; i < dev->program_count; i++) {
      if (dev->programs[i].va == va) {
         dev->programs[i] = dev->programs[--dev->program_count];
         break;
      }
   }
   pthread_mutex_unlock(&dev->program_lock);
}

bool drv_program_lookup(struct drv_device *dev, uint64_t pc, char *name, size_t size,
                        uint64_t *start)
{
   bool found = false;
   pthread_mutex_lock(&dev->program_lock);
   for (uint32_t i = 0; i < dev->program_count && !found; i++) {
      const struct drv_program_range *p = &dev->programs[i];
      if (pc < p->va || pc - p->va >= p->size)
         continue;
      const char *current = p->current_name ? p->current_name(p->owner) : NULL;
      snprintf(name, size, "%s", current && current[0] ? current : p->default_name);
      *start = p->va;
      found = true;
   }
   pthread_mutex_unlock(&dev->program_lock);
   return found;
}
