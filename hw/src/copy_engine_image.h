/* What the copy engine's image operations share (copy_engine_image.c):
 * one side of an operation read from its texture header and checked, its
 * planes and region, row moves, and which bytes of a texel an ASPECT
 * names. BLIT (copy_engine_blit.c) builds on the same checks, so a header
 * is refused for the same reasons by every operation. */
#ifndef PPU_COPY_ENGINE_IMAGE_H
#define PPU_COPY_ENGINE_IMAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "copy_engine.h"
#include "ppu/methods.h"
#include "ppu/texture.h"

#define PPU_CE_ASPECT_ALL (PPU_COPY_ASPECT_DEPTH | PPU_COPY_ASPECT_STENCIL)

#define PPU_CE_TRY(expr)                                                                           \
   do {                                                                                            \
      enum ppu_method_status st_ = (expr);                                                         \
      if (st_ != PPU_METHOD_DONE)                                                                  \
         return st_;                                                                               \
   } while (0)

/* One side of an operation: the image, the level, and the region in
 * elements (texels, or 4x4 blocks of a compressed format). "Planes" are
 * the layers of a 1D/2D/cube image or the slices of a 3D one. */
struct image_side {
   const char *name; /* "SRC_HEADER" or "DST_HEADER", for fault messages */
   struct ppu_texture_header h;
   unsigned level;
   uint32_t elem_bytes;
   bool compressed, is_3d;
   uint32_t level_texels[3]; /* width, height, depth (1 unless 3D) */
   uint32_t level_elems[2];
   uint32_t x, y;          /* region start, elements */
   uint32_t first_plane;   /* layer, or slice of a 3D image */
   uint32_t layer;         /* a 3D image's one layer */
   uint32_t width, height; /* region, elements */
};

/* Which bytes of a texel an operation moves, from the format and ASPECT:
 * the whole texel, or one aspect of a combined depth/stencil texel (then
 * `partial`: the image's other bytes stay). buffer_bytes is the size of
 * one element in a buffer (methods.h: 4-byte depth, 1-byte stencil). */
struct aspect_bytes {
   uint32_t buffer_bytes, first, count;
   bool partial;
};

/* A BAD_METHOD_DATA fault naming the side (NULL: none), what is wrong and
 * two values. */
enum ppu_method_status ppu_ce_bad(struct ppu_fault *fault, const char *side, const char *what,
                                  uint64_t v1, uint64_t v2);

/* Reads the header at va and checks the image fields the engine uses,
 * with `level` the side's level; fills s (s->name set by the caller). */
enum ppu_method_status ppu_ce_load_image(struct ppu_copy_engine *ce, uint64_t pd_pa, uint64_t va,
                                         unsigned level, struct image_side *s,
                                         struct ppu_fault *fault);

/* Checks that planes [first, first + count) exist (slices of a 3D level
 * from offset_z, else layers from `layer` within the view) and sets them. */
enum ppu_method_status ppu_ce_set_planes(struct image_side *s, uint32_t layer, uint32_t offset_z,
                                         uint64_t count, struct ppu_fault *fault);

/* Reads or writes `bytes` of element row y of plane p, from element s->x. */
bool ppu_ce_image_row(struct ppu_copy_engine *ce, uint64_t pd_pa, const struct image_side *s,
                      uint32_t p, uint32_t y, void *host, uint64_t bytes, bool write,
                      struct ppu_fault *fault);

bool ppu_ce_is_depth_stencil(unsigned format);

/* The bytes of a texel ASPECT names for side s (buffer_copy: the one
 * aspect a buffer copy of a combined format needs). */
enum ppu_method_status ppu_ce_aspect_bytes(const struct image_side *s, uint32_t aspect,
                                           bool buffer_copy, struct aspect_bytes *a,
                                           struct ppu_fault *fault);

#endif /* PPU_COPY_ENGINE_IMAGE_H */
