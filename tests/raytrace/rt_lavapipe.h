/* The AO benchmark's third column (issue 21): the ray-query sample
 * (samples/rq_ambient_occlusion) on lavapipe, run as a child process with
 * the same scene, size and AO rays per pixel, and its own figures read
 * from its --benchmark output. lavapipe gets as many threads as the model
 * (LP_NUM_THREADS). Its bands and rays are the sample's, so its mean AO
 * matches the others to the noise, not to the bit.
 */
#ifndef RT_LAVAPIPE_H
#define RT_LAVAPIPE_H

#include <stdbool.h>
#include <stdint.h>

struct rt_lavapipe_measurement {
   double blas_build_ms; /* the sample's BLAS build (device build, lavapipe's clock) */
   double mrays;         /* its trace rate */
};

/* False (with a message on stderr) when the sample or lavapipe's manifest
 * is missing or the run fails. threads 0: 2. */
bool rt_lavapipe_ao(const char *scene, uint32_t width, uint32_t height, uint32_t spp,
                    uint32_t threads, struct rt_lavapipe_measurement *out);

#endif /* RT_LAVAPIPE_H */
