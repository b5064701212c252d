/* Pixel ordering (multithreaded-SM seed: the switch that lets pixel threads
 * run "independent of the order in which the samples are received", FIG. 5B
 * skips the position-hazard check when it is on; FIG. 7B/7C turn it on for
 * non-intersecting or opaque objects). The graphics engine keeps every
 * pixel's fragment operations in primitive order unless PIXEL_ORDER is
 * RELAXED and this check says the final memory contents cannot depend on
 * the order of the draw's fragments.
 */
#ifndef PPU_ROP_ORDER_H
#define PPU_ROP_ORDER_H

#include <stdbool.h>
#include <stdint.h>

#include "rop/rop_crop.h"
#include "rop/rop_zrop.h"

/* color_targets: bit i when target i is bound and written by the fragment
 * program. counting_samples: an occlusion query is active. */
bool rop_order_is_relaxable(const struct rop_zs_state *z, const struct rop_blend_state *b,
                            uint32_t color_targets, bool counting_samples);

#endif
