/* The device's ray cost plane (vkSetRayCostRecordingVKPPU,
 * private_entrypoints.h): where the chip adds per-invocation BVH node
 * fetches for the profiler layer's heat map (docs/profiler.md). */
#ifndef VKPPU_RAY_COST_H
#define VKPPU_RAY_COST_H

#include <stdatomic.h>
#include <stdint.h>

struct drv_bo;
struct ppu_qmd;
struct vkppu_device;

struct vkppu_ray_cost {
   struct drv_bo *bo; /* width x height words, host mapped */
   uint32_t width, height;
   /* Largest thread extents of the dispatches recorded with the plane
    * (recording happens on any application thread). */
   _Atomic uint32_t used_width, used_height;
};

/* Turns the QMD's ray cost buffer on when the device records ray costs.
 * threads: the grid's extent in invocations (x, y), or NULL when it is only
 * known at execution (indirect launches). */
void vkppu_ray_cost_fill_qmd(struct vkppu_device *dev, struct ppu_qmd *qmd,
                             const uint64_t *threads);

/* Frees the plane; at device destruction, after every queue is idle. */
void vkppu_ray_cost_finish(struct vkppu_device *dev);

#endif
