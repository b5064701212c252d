/* Coverage operations between the fragment program and ZROP (Vulkan
 * "Multisample Coverage"): alpha to coverage, and the sample mask.
 *
 * Alpha to coverage: the spec leaves the mask to the implementation but
 * asks that it be monotonic in alpha, empty at 0 and full at 1. Here it
 * covers n = floor(alpha * samples + 1/2) samples (clamped), taken in the
 * order 0, 3, 1, 2 so that two samples of a 4x pixel are diagonal; no
 * dither, so a result never depends on the pixel's position.
 */
#ifndef PPU_ROP_COVERAGE_H
#define PPU_ROP_COVERAGE_H

#include <stdbool.h>
#include <stdint.h>

/* The sample bits (0..3) that alpha covers with 1 or 4 samples. */
uint8_t rop_alpha_to_coverage_mask(float alpha, unsigned samples_log2);

/* Applies alpha to coverage (alpha[p] of pixel p) and the sample mask to a
 * quad's coverage (bit 4 * pixel + sample). */
uint16_t rop_quad_coverage(uint16_t coverage, const float alpha[4], unsigned samples_log2,
                           bool alpha_to_coverage, uint32_t sample_mask);

#endif
