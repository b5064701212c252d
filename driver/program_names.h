/* Which shader a PC belongs to: a side table of program VA ranges and their
 * names, so a fault report (fault_report.c) can name the shader that faulted
 * and give the PC relative to the start of its program.
 *
 * The API layer registers every program it places in GPU memory
 * (icd/compute_pipeline.c) and removes it before freeing that memory. A
 * program has a fixed default name ("compute pipeline 0x... entry main") and
 * may have an owner callback returning a better one, the object's debug-utils
 * name, which can be set after the program was registered; the callback is
 * called under the table's lock, so it never sees an owner that has been
 * unregistered. */
#ifndef DRV_PROGRAM_NAMES_H
#define DRV_PROGRAM_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drv_result.h"

struct drv_device;

#define DRV_PROGRAM_NAME_SIZE 128u

/* Returns the owner's current name, or NULL to use the default name. Must
 * not lock or call into the driver: it runs on the interrupt handler's
 * thread under the table's lock. */
typedef const char *(*drv_program_name_fn)(const void *owner);

struct drv_program_range {
   uint64_t va;
   uint64_t size;
   const void *owner;
   drv_program_name_fn current_name; /* may be NULL */
   char default_name[DRV_PROGRAM_NAME_SIZE];
};

enum drv_result drv_program_register(struct drv_device *dev, uint64_t va, uint64_t size,
                                     const char *default_name, drv_program_name_fn current_name,
                                     const void *owner);
/* Removes the range that starts at va (no-op if there is none). */
void drv_program_unregister(struct drv_device *dev, uint64_t va);

/* If pc lies in a registered program, writes its name and returns true with
 * *start the program's first byte. */
bool drv_program_lookup(struct drv_device *dev, uint64_t pc, char *name, size_t size,
                        uint64_t *start);

#endif
