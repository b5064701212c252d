/* Bit counts for the model's hot paths. The library is built for baseline
 * x86-64, which has no POPCNT instruction, so __builtin_popcount becomes a
 * call into libgcc (__popcountdi2) — once per warp instruction for the
 * lane count alone, 7% of a compute-bound run. These are branch-free
 * sums of bit fields, a dozen host instructions inlined. */
#ifndef PPU_HOST_BITS_H
#define PPU_HOST_BITS_H

#include <stdint.h>

static inline uint32_t ppu_popcount32(uint32_t v)
{
   v = v - ((v >> 1) & 0x55555555u);
   v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
   v = (v + (v >> 4)) & 0x0f0f0f0fu;
   return (v * 0x01010101u) >> 24;
}

static inline uint32_t ppu_popcount64(uint64_t v)
{
   return ppu_popcount32((uint32_t)v) + ppu_popcount32((uint32_t)(v >> 32));
}

#endif
