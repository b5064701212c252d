/* Which pixel centres a triangle covers, by the rules of the Vulkan
 * specification ("Polygon Rasterization", "Basic Polygon Rasterization"):
 * a sample exactly on an edge belongs to the triangle when that edge is a
 * top edge or a left edge (framebuffer y grows downwards). Integer vertex
 * coordinates only, so the test is exact (the samples' vertices are on
 * pixel corners). */
#ifndef COVERAGE_REFERENCE_H
#define COVERAGE_REFERENCE_H

#include <stdbool.h>
#include <stdint.h>

struct coverage_triangle {
   int32_t x[3], y[3]; /* pixel corners */
};

/* Adds 1 to count[y * width + x] for every pixel centre the triangle
 * covers inside width x height; returns how many it covers. */
uint64_t coverage_add(const struct coverage_triangle *t, uint32_t width, uint32_t height,
                      uint32_t *count);

#endif
