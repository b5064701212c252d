/* The record COUNTER_SNAPSHOT writes (host subchannel, ppu/methods.h;
 * docs/methods.md, "Counter snapshots").
 *
 * A snapshot is a header followed by one 64-bit value per row of
 * PPU_COUNTERS (ppu/counters.h), in table order, so value[i] is the counter
 * whose enum ppu_counter is i. `count` is the number of values the chip
 * wrote; a reader built against a different table must use the smaller of
 * its own PPU_COUNTER_COUNT and `count`. Two snapshots taken around some
 * work of a channel give that work's counts as their difference.
 */
#ifndef PPU_COUNTER_SNAPSHOT_H
#define PPU_COUNTER_SNAPSHOT_H

#include <stdint.h>

#include "ppu/counters.h"

/* Bumped when the layout below changes (not when counters are added). */
#define PPU_COUNTER_SNAPSHOT_VERSION 1u

struct ppu_counter_snapshot_header {
   uint32_t version; /* PPU_COUNTER_SNAPSHOT_VERSION */
   uint32_t count;   /* values that follow */
};

/* Bytes of one snapshot written by this chip; the address must be 8-byte
 * aligned. */
#define PPU_COUNTER_SNAPSHOT_BYTES                                                                 \
   (sizeof(struct ppu_counter_snapshot_header) + 8u * (uint64_t)PPU_COUNTER_COUNT)

#endif /* PPU_COUNTER_SNAPSHOT_H */
