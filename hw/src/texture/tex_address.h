/* The texture address unit (TAU, seed: "the TAU ... computes texel
 * addresses") of one SM's texture unit: from one quad's coordinates to the
 * texels the filtering unit must read and their weights, following the
 * Vulkan specification's chapter "Image Operations": cube map face selection
 * ("Cube Map Face Selection" and "Cube Map Derivative Transformation"),
 * "Level-of-Detail Operation" (implicit from the quad's derivatives,
 * explicit, bias, clamps), "Image Level(s) Selection", "(u,v,w,a) to
 * (i,j,k,l,n) Transformation and Array Layer Selection", "Wrapping
 * Operation", "Cube Map Edge Handling" (seamless cube filtering) and the
 * texel footprints of "Texel Filtering" and "Texel
 * Gathering". Addresses come from ppu_tex_byte_offset, the layout's one
 * definition.
 *
 * The quad is 4 lanes in Vulkan's compute derivative group order (lanes
 * 4k..4k+3: 0 and 1 differ in x, 0 and 2 in y); derivatives are coarse
 * (one per quad: lane 1 - lane 0 and lane 2 - lane 0).
 */
#ifndef PPU_TEXTURE_TEX_ADDRESS_H
#define PPU_TEXTURE_TEX_ADDRESS_H

#include <stdbool.h>
#include <stdint.h>

#include "ppu/isa.h"
#include "ppu/texture.h"

enum ppu_tex_kind {
   PPU_TEX_KIND_SAMPLE, /* TEX */
   PPU_TEX_KIND_FETCH,  /* TLD */
   PPU_TEX_KIND_GATHER, /* TLD4 */
};

/* What the instruction asks for, the same for every lane. */
struct ppu_tex_instr {
   uint8_t kind;      /* enum ppu_tex_kind */
   uint8_t texdim;    /* enum ppu_texdim */
   uint8_t lod;       /* enum ppu_texlod (SAMPLE) */
   uint8_t component; /* enum ppu_gather (GATHER) */
   bool compare;      /* depth compare, the reference ends the vector */
   int8_t offset[3];  /* constant texel offsets */
};

/* Coordinate words per lane at most: a cube array with gradients and a
 * reference (4 + 6 + 1). */
#define PPU_TEX_MAX_WORDS 12u
/* Anisotropic probes per lane at most (the sampler's max_anisotropy is
 * clamped to it; the device reports maxSamplerAnisotropy 16). */
#define PPU_TEX_MAX_PROBES 16u
/* Texels per lane at most: per probe, trilinear 3D filtering, 8 texels on 2
 * levels (a cube's bilinear footprint at a corner takes 6 per level). */
#define PPU_TEX_MAX_TEXELS (16u * PPU_TEX_MAX_PROBES)

struct ppu_tex_texel_ref {
   uint64_t va;    /* texel (or 4x4 block of a compressed format) */
   float weight;   /* filter weight; 1 for fetches and gathers */
   uint8_t border; /* the texel is the border color */
   uint8_t sub;    /* texel index inside a compressed block (row-major) */
   uint8_t group;  /* the level of one probe it belongs to (min/max reduction) */
};

struct ppu_tex_lane_footprint {
   bool active; /* the lane wants a result */
   bool zero;   /* out-of-range fetch: the result is 0 (robust access) */
   const struct ppu_texture_header *tex;
   const struct ppu_sampler_header *smp; /* NULL for fetches */
   float dref;                           /* depth-compare reference */
   unsigned count;
   unsigned groups; /* levels x probes filtered so far; texels of the last are group - 1 */
   struct ppu_tex_texel_ref texel[PPU_TEX_MAX_TEXELS];
};

/* One quad's work from the TAU to the filtering unit, through the latency
 * FIFO, tagged with the texture identifier its TRB slot will answer to. */
struct ppu_tex_footprint {
   unsigned id;
   unsigned op, quad; /* where in the batch it came from */
   struct ppu_tex_instr instr;
   struct ppu_tex_lane_footprint lane[4];
};

/* The quad's input: which lanes want results, every lane's headers (NULL
 * for a lane that supplies coordinates only) and coordinate words (all
 * four lanes: inactive ones are helpers for the derivatives). */
struct ppu_tex_quad_input {
   unsigned active; /* bit per lane of the quad */
   const struct ppu_texture_header *tex[4];
   const struct ppu_sampler_header *smp[4];
   uint32_t words[4][PPU_TEX_MAX_WORDS];
};

/* Cube map face selection (Vulkan "Cube Map Face Selection"): the face
 * (0..5 = +X -X +Y -Y +Z -Z) and sc, tc, ma of direction r. Ties go to Z,
 * then Y (the spec leaves ties to the implementation). */
unsigned ppu_tex_cube_face(const float r[3], float *sc, float *tc, float *ma);

/* Wrapping of an integer texel coordinate (Vulkan "Wrapping Operation");
 * returns -1 for a border texel of CLAMP_TO_BORDER. */
int32_t ppu_tex_wrap(int32_t i, int32_t size, unsigned mode);

/* The TAU for one quad. Fills fp (lanes, texels, weights, references). */
void ppu_tex_address_quad(const struct ppu_tex_instr *in, const struct ppu_tex_quad_input *q,
                          struct ppu_tex_footprint *fp);

/* Storage images (SULD, SUST, SUATOM): the VA of the texel at integer
 * coordinates c (layout by view type texdim) of the view's base level;
 * false when out of range (Vulkan robust access: loads return 0, stores
 * and atomics are dropped). */
bool ppu_tex_storage_address(const struct ppu_texture_header *h, unsigned texdim,
                             const int32_t c[3], uint64_t *va);

#endif
