/* The CPU limit for the AO benchmark (issue 21): ao.comp's rays traced by
 * Embree 3 (Debian's libembree-dev) on the host. Built only when CMake
 * finds Embree (RT_HAVE_EMBREE); bench_ao_model --embree prints it beside
 * the model's figures.
 *
 * The rays are the shader's, written again in C: the same camera and bands
 * (rt_ao_band_push), one primary ray per pixel, then spp cosine-weighted AO
 * rays from its hit with the shader's hash, basis and origin offset. The
 * AO rays start where Embree's primary hit is, so they can differ from the
 * model's in the last bits; the counts of rays are the same and the mean
 * AO agrees to the noise.
 */
#ifndef RT_EMBREE_H
#define RT_EMBREE_H

#include <stdbool.h>
#include <stdint.h>

#include "rt_model.h"

struct rt_embree_measurement {
   double build_ms; /* geometry and scene commit (the BVH build; not the device) */
   double seconds;  /* tracing every band */
   struct rt_ao_stats stats;
};

/* Whether this build has Embree. */
bool rt_embree_available(void);

/* Traces the benchmark b of the mesh and camera on threads host threads
 * (b->host_threads; 0: 2). False with a message on stderr on failure. */
bool rt_embree_ao(const struct obj_mesh *mesh, const struct scene_camera *cam,
                  const struct rt_ao_bench *b, struct rt_embree_measurement *out);

#endif /* RT_EMBREE_H */
