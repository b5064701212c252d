/* Texture and sampler header fetch and checks (ppu/texture.h). A texture
 * instruction names its headers by VA; the unit reads them through the
 * SM's MMU port and refuses any field that would make a texel address or a
 * loop bound meaningless, so no memory content can crash the model: a bad
 * header stops the grid with PPU_FAULT_BAD_TEXTURE_HEADER. */
#ifndef PPU_TEXTURE_TEX_HEADER_H
#define PPU_TEXTURE_TEX_HEADER_H

#include <stdbool.h>
#include <stdint.h>

#include "mmu.h"
#include "ppu/isa.h"
#include "ppu/texture.h"

/* NULL when the header is usable, else the reason. */
const char *ppu_tex_header_check(const struct ppu_texture_header *h);
const char *ppu_tex_sampler_check(const struct ppu_sampler_header *s);
/* NULL when the view type of the header is the one the instruction
 * declared (mode field), else the reason. */
const char *ppu_tex_header_matches_dim(const struct ppu_texture_header *h, unsigned texdim);

/* Reads the 64-byte header at va (64-byte aligned) and checks it. False
 * with *fault filled in (kind, address, detail) on a misaligned VA, an MMU
 * fault or an invalid header. */
bool ppu_tex_header_fetch(struct ppu_mmu_client *mmu, uint64_t pd_pa, uint64_t va,
                          struct ppu_texture_header *out, struct ppu_fault *fault);
bool ppu_tex_sampler_fetch(struct ppu_mmu_client *mmu, uint64_t pd_pa, uint64_t va,
                           struct ppu_sampler_header *out, struct ppu_fault *fault);

#endif
