/* VRAM: one host mapping of the whole modeled memory. The BAR aperture is
 * its base (host pointer = base + PA), and every unit that touches memory
 * does so through base + PA after the MMU has checked PA against size. */
#ifndef PPU_VRAM_H
#define PPU_VRAM_H

#include <stddef.h>
#include <stdint.h>

struct ppu_vram {
   uint8_t *base;
   uint64_t size;
};

/* Reserves size bytes (a multiple of PPU_PAGE_SIZE); 0 on success, else
 * errno, and the mapping is not made. */
int ppu_vram_init(struct ppu_vram *vram, uint64_t size);
void ppu_vram_finish(struct ppu_vram *vram);
/* Drops the host pages behind [pa, pa + size) so they read as zero again.
 * The range is clipped to whole pages inside VRAM. */
void ppu_vram_discard(struct ppu_vram *vram, uint64_t pa, uint64_t size);

/* True when [pa, pa + size) lies inside VRAM (overflow-safe). */
static inline int ppu_vram_contains(const struct ppu_vram *vram, uint64_t pa, uint64_t size)
{
   return pa <= vram->size && size <= vram->size - pa;
}

#endif /* PPU_VRAM_H */
