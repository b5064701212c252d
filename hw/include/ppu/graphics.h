/* The graphics contract of the PPU: the methods of the graphics subchannel
 * (PPU_SUBCH_GRAPHICS), the state encodings they carry and the in-memory
 * records that pass between the graphics units (vertex output records,
 * primitive records with plane equations, indirect draw arguments).
 * docs/graphics-hw.md describes the same contract in prose; keep the two in
 * step. The method numbers themselves are in ppu/methods.h.
 *
 * Enumerations that are a plain list of operations (compare ops, stencil ops,
 * blend factors and ops, logic ops) use the numbering of the graphics API the
 * driver serves, as ppu/texture.h does for the sampler's compare_op: the
 * numbers are a list, the hardware knows nothing of the API.
 */
#ifndef PPU_GRAPHICS_H
#define PPU_GRAPHICS_H

#include <stdbool.h>
#include <stdint.h>

#include "ppu/methods.h"

#define PPU_GFX_COLOR_TARGETS 8u
#define PPU_GFX_VIEWPORTS 16u
#define PPU_GFX_SUBPIXEL_BITS 8u  /* vertex positions snap to 1/256 pixel */
#define PPU_GFX_GUARD_BAND 524288 /* |window x|, |window y| < 2^19 pixels, else clipped */
#define PPU_GFX_TILE_SIZE 8u      /* coarse raster / hi-Z tile: 8x8 pixels, 16 quads */
#define PPU_GFX_MAX_FRAMEBUFFER 16384u
#define PPU_GFX_MAX_LAYERS 2048u   /* LAYER_COUNT: layers a primitive may select */
#define PPU_GFX_QUADS_PER_WARP 8u  /* 32 lanes = 8 quads of 2x2 pixels */
#define PPU_GFX_MAX_ATTRIBUTES 32u /* vec4 attribute slots between vertex and fragment */
#define PPU_GFX_MAX_CLIP_DISTANCES 8u
/* Setup clamps a point's size to [1, PPU_GFX_MAX_POINT_SIZE] pixels (a NaN
 * size draws 1 pixel). */
#define PPU_GFX_MAX_POINT_SIZE 64.0f

/* The graphics subchannel's methods (enum ppu_gfx_method) are in
 * ppu/methods.h with the other subchannels'. */

/* Words of a render-target group (COLOR_TARGET(i) + word, DEPTH_TARGET_BASE + word). */
enum ppu_gfx_target_word {
   PPU_GFX_TARGET_ADDR_LO = 0,
   PPU_GFX_TARGET_ADDR_HI = 1,
   PPU_GFX_TARGET_FORMAT = 2,       /* enum ppu_tex_format */
   PPU_GFX_TARGET_LAYOUT = 3,       /* enum ppu_tex_layout | block_height_log2 << 8 */
   PPU_GFX_TARGET_ROW_PITCH = 4,    /* linear layout: bytes between rows of samples */
   PPU_GFX_TARGET_EXTENT = 5,       /* width | height << 16, pixels */
   PPU_GFX_TARGET_LAYER_STRIDE = 6, /* bytes between layers >> 9 */
   PPU_GFX_TARGET_LAYER = 7,        /* first layer rendered to */
};

/* Words of a viewport group. */
enum ppu_gfx_viewport_word {
   PPU_GFX_VIEWPORT_SCALE_X = 0,
   PPU_GFX_VIEWPORT_SCALE_Y = 1,
   PPU_GFX_VIEWPORT_SCALE_Z = 2,
   PPU_GFX_VIEWPORT_OFFSET_X = 3,
   PPU_GFX_VIEWPORT_OFFSET_Y = 4,
   PPU_GFX_VIEWPORT_OFFSET_Z = 5,
   PPU_GFX_VIEWPORT_DEPTH_MIN = 6,
   PPU_GFX_VIEWPORT_DEPTH_MAX = 7,
};

enum ppu_gfx_topology {
   PPU_GFX_TOPOLOGY_POINT_LIST = 0,
   PPU_GFX_TOPOLOGY_LINE_LIST = 1,
   PPU_GFX_TOPOLOGY_LINE_STRIP = 2,
   PPU_GFX_TOPOLOGY_TRIANGLE_LIST = 3,
   PPU_GFX_TOPOLOGY_TRIANGLE_STRIP = 4,
   PPU_GFX_TOPOLOGY_TRIANGLE_FAN = 5,
};

#define PPU_GFX_CULL_FRONT 0x1u
#define PPU_GFX_CULL_BACK 0x2u

/* DEPTH_CLAMP: CLAMP clamps fragment depth to the viewport's DEPTH_MIN/MAX
 * and turns near/far clipping off; CLIP keeps near/far clipping on while
 * clamping, NO_CLIP turns it off without clamping (not both). */
#define PPU_GFX_DEPTH_CLAMP_CLAMP 0x1u
#define PPU_GFX_DEPTH_CLAMP_CLIP 0x2u
#define PPU_GFX_DEPTH_CLAMP_NO_CLIP 0x4u

/* Whether primitives are clipped at the near and far planes. */
static inline bool ppu_gfx_depth_clips(uint32_t depth_clamp)
{
   return (depth_clamp & PPU_GFX_DEPTH_CLAMP_CLAMP) ? (depth_clamp & PPU_GFX_DEPTH_CLAMP_CLIP) != 0
                                                    : !(depth_clamp & PPU_GFX_DEPTH_CLAMP_NO_CLIP);
}

/* Facing comes from the sign of a = -1/2 sum(x_i y_(i+1) - x_(i+1) y_i) in
 * window coordinates (y down): POSITIVE_AREA makes a > 0 front-facing. */
enum ppu_gfx_front_face {
   PPU_GFX_FRONT_FACE_POSITIVE_AREA = 0,
   PPU_GFX_FRONT_FACE_NEGATIVE_AREA = 1,
};

/* PIXEL_ORDER: ORDERED keeps every pixel's fragment operations in primitive
 * order; RELAXED (the multithreaded-SM seed's switch) lets the engine skip
 * position-hazard checks, and the engine honours it only for state whose
 * result cannot depend on the order (rop_order_is_relaxable()). */
enum ppu_gfx_pixel_order {
   PPU_GFX_PIXEL_ORDER_ORDERED = 0,
   PPU_GFX_PIXEL_ORDER_RELAXED = 1,
};

enum ppu_gfx_compare_op {
   PPU_GFX_COMPARE_NEVER = 0,
   PPU_GFX_COMPARE_LESS = 1,
   PPU_GFX_COMPARE_EQUAL = 2,
   PPU_GFX_COMPARE_LESS_OR_EQUAL = 3,
   PPU_GFX_COMPARE_GREATER = 4,
   PPU_GFX_COMPARE_NOT_EQUAL = 5,
   PPU_GFX_COMPARE_GREATER_OR_EQUAL = 6,
   PPU_GFX_COMPARE_ALWAYS = 7,
};

enum ppu_gfx_stencil_op {
   PPU_GFX_STENCIL_KEEP = 0,
   PPU_GFX_STENCIL_ZERO = 1,
   PPU_GFX_STENCIL_REPLACE = 2,
   PPU_GFX_STENCIL_INCREMENT_CLAMP = 3,
   PPU_GFX_STENCIL_DECREMENT_CLAMP = 4,
   PPU_GFX_STENCIL_INVERT = 5,
   PPU_GFX_STENCIL_INCREMENT_WRAP = 6,
   PPU_GFX_STENCIL_DECREMENT_WRAP = 7,
};

/* STENCIL_*_OPS: fail | pass << 4 | depth_fail << 8 | compare << 12.
 * STENCIL_*_MASKS: compare_mask | write_mask << 8 | reference << 16. */
#define PPU_GFX_STENCIL_OPS(fail, pass, depth_fail, compare)                                       \
   ((uint32_t)(fail) | (uint32_t)(pass) << 4 | (uint32_t)(depth_fail) << 8 |                       \
    (uint32_t)(compare) << 12)
#define PPU_GFX_STENCIL_MASKS(compare_mask, write_mask, reference)                                 \
   (((uint32_t)(compare_mask)&0xffu) | ((uint32_t)(write_mask)&0xffu) << 8 |                       \
    ((uint32_t)(reference)&0xffu) << 16)

enum ppu_gfx_blend_factor {
   PPU_GFX_BLEND_ZERO = 0,
   PPU_GFX_BLEND_ONE = 1,
   PPU_GFX_BLEND_SRC_COLOR = 2,
   PPU_GFX_BLEND_ONE_MINUS_SRC_COLOR = 3,
   PPU_GFX_BLEND_DST_COLOR = 4,
   PPU_GFX_BLEND_ONE_MINUS_DST_COLOR = 5,
   PPU_GFX_BLEND_SRC_ALPHA = 6,
   PPU_GFX_BLEND_ONE_MINUS_SRC_ALPHA = 7,
   PPU_GFX_BLEND_DST_ALPHA = 8,
   PPU_GFX_BLEND_ONE_MINUS_DST_ALPHA = 9,
   PPU_GFX_BLEND_CONSTANT_COLOR = 10,
   PPU_GFX_BLEND_ONE_MINUS_CONSTANT_COLOR = 11,
   PPU_GFX_BLEND_CONSTANT_ALPHA = 12,
   PPU_GFX_BLEND_ONE_MINUS_CONSTANT_ALPHA = 13,
   PPU_GFX_BLEND_SRC_ALPHA_SATURATE = 14,
   PPU_GFX_BLEND_SRC1_COLOR = 15,
   PPU_GFX_BLEND_ONE_MINUS_SRC1_COLOR = 16,
   PPU_GFX_BLEND_SRC1_ALPHA = 17,
   PPU_GFX_BLEND_ONE_MINUS_SRC1_ALPHA = 18,
   PPU_GFX_BLEND_FACTOR_COUNT
};

enum ppu_gfx_blend_op {
   PPU_GFX_BLEND_OP_ADD = 0,
   PPU_GFX_BLEND_OP_SUBTRACT = 1,
   PPU_GFX_BLEND_OP_REVERSE_SUBTRACT = 2,
   PPU_GFX_BLEND_OP_MIN = 3,
   PPU_GFX_BLEND_OP_MAX = 4,
   PPU_GFX_BLEND_OP_COUNT
};

/* BLEND(i) word 0 (BLEND_EQUATION): color src factor | dst << 5 | op << 10 |
 * alpha src factor << 16 | dst << 21 | op << 26. Word 1 (BLEND_CONTROL):
 * bit 0 enable, bits 7..4 write mask (R G B A from bit 4). */
#define PPU_GFX_BLEND_EQUATION(cs, cd, cop, as, ad, aop)                                           \
   ((uint32_t)(cs) | (uint32_t)(cd) << 5 | (uint32_t)(cop) << 10 | (uint32_t)(as) << 16 |          \
    (uint32_t)(ad) << 21 | (uint32_t)(aop) << 26)

enum ppu_gfx_logic_op {
   PPU_GFX_LOGIC_CLEAR = 0,
   PPU_GFX_LOGIC_AND = 1,
   PPU_GFX_LOGIC_AND_REVERSE = 2,
   PPU_GFX_LOGIC_COPY = 3,
   PPU_GFX_LOGIC_AND_INVERTED = 4,
   PPU_GFX_LOGIC_NO_OP = 5,
   PPU_GFX_LOGIC_XOR = 6,
   PPU_GFX_LOGIC_OR = 7,
   PPU_GFX_LOGIC_NOR = 8,
   PPU_GFX_LOGIC_EQUIVALENT = 9,
   PPU_GFX_LOGIC_INVERT = 10,
   PPU_GFX_LOGIC_OR_REVERSE = 11,
   PPU_GFX_LOGIC_COPY_INVERTED = 12,
   PPU_GFX_LOGIC_OR_INVERTED = 13,
   PPU_GFX_LOGIC_NAND = 14,
   PPU_GFX_LOGIC_SET = 15,
};

/* RESOLVE data: bits 7..0 color targets, 9..8 color mode, bit 10 depth,
 * bit 11 stencil, 13..12 depth mode, 15..14 stencil mode. Modes: 0 average
 * (float-class formats), 1 sample zero, 2 min, 3 max (rop_resolve). */
#define PPU_GFX_RESOLVE_COLOR_MASK 0xffu
#define PPU_GFX_RESOLVE_COLOR_MODE_SHIFT 8
#define PPU_GFX_RESOLVE_DEPTH (1u << 10)
#define PPU_GFX_RESOLVE_STENCIL (1u << 11)
#define PPU_GFX_RESOLVE_DEPTH_MODE_SHIFT 12
#define PPU_GFX_RESOLVE_STENCIL_MODE_SHIFT 14

/* DRAW / DRAW_INDIRECT flags. */
#define PPU_GFX_DRAW_FLAG_INDEXED 0x1u           /* vertices come through the index buffer */
#define PPU_GFX_DRAW_FLAG_COUNT_FROM_MEMORY 0x2u /* DRAW_INDIRECT: draw count at COUNT_ADDR */

/* Indirect argument records (4-byte aligned), one per draw, STRIDE apart. */
struct ppu_gfx_draw_indirect {
   uint32_t vertex_count, instance_count, first_vertex, first_instance;
};
struct ppu_gfx_draw_indexed_indirect {
   uint32_t index_count, instance_count, first_index;
   int32_t vertex_offset;
   uint32_t first_instance;
};

/* ---------------------------------------------------------------------------
 * Program descriptor (256 bytes, 256-byte aligned): what a vertex or fragment
 * warp runs. The layout follows the QMD's (ppu/qmd.h) where they share
 * fields, so the same checks apply.
 * ------------------------------------------------------------------------- */
#define PPU_GFX_PROGRAM_VERSION 1u
#define PPU_GFX_PROGRAM_SIZE 256u

/* Interpolation of one attribute slot (2 bits per slot in interpolation[]). */
enum ppu_gfx_interpolation {
   PPU_GFX_INTERP_PERSPECTIVE = 0,
   PPU_GFX_INTERP_NOPERSPECTIVE = 1,
   PPU_GFX_INTERP_FLAT = 2,
};

/* Program flags. */
#define PPU_GFX_PROGRAM_WRITES_DEPTH 0x1u /* fragment: late depth test, no hi-Z cull */
#define PPU_GFX_PROGRAM_MAY_DISCARD 0x2u  /* fragment: coverage known after the program */
#define PPU_GFX_PROGRAM_SIDE_EFFECTS 0x4u /* stores/atomics: no hi-Z culling of live quads */
#define PPU_GFX_PROGRAM_EARLY_TESTS 0x8u  /* fragment: depth/stencil before the program */
#define PPU_GFX_PROGRAM_WRITES_SAMPLE_MASK 0x10u
#define PPU_GFX_PROGRAM_DUAL_SOURCE 0x20u /* fragment: output 1 is the second blend source */
/* fragment: slot point_coord_slot is the point coordinate (gl_PointCoord),
 * whose planes setup writes itself (docs/graphics-hw.md "Lines and points") */
#define PPU_GFX_PROGRAM_POINT_COORD 0x40u

struct ppu_gfx_program {
   uint32_t version;           /* 0   PPU_GFX_PROGRAM_VERSION */
   uint32_t flags;             /* 4   PPU_GFX_PROGRAM_* */
   uint64_t program_va;        /* 8   first instruction, 16-byte aligned */
   uint32_t register_count;    /* 16  1..255 */
   uint32_t attribute_count;   /* 20  vertex: slots written; fragment: slots read (<= 32) */
   uint32_t local_memory_size; /* 24 bytes per thread, multiple of 16 */
   uint32_t output_mask;       /* 28  fragment: color targets written (bit i = target i) */
   uint64_t interpolation;     /* 32  fragment: 2 bits per slot, enum ppu_gfx_interpolation */
   uint64_t centroid_mask;     /* 40  fragment: bit per slot, planes evaluated at centroid */
   uint32_t point_coord_slot;  /* 48  fragment with POINT_COORD: < attribute_count */
   uint8_t reserved0[12];      /* 52 */
   struct {
      uint64_t va;
      uint32_t size;
      uint32_t reserved;
   } cbank[8];            /* 64  as the QMD's: c[0] push constants */
   uint32_t reserved[16]; /* 192 */
};
_Static_assert(sizeof(struct ppu_gfx_program) == PPU_GFX_PROGRAM_SIZE, "program descriptor");

/* ---------------------------------------------------------------------------
 * Vertex output record: what a vertex warp writes, one per vertex, in the
 * draw's scratch memory. Slot 0 is the clip-space position, slot 1 the
 * fixed-function outputs, slots 2.. the attributes (16 bytes each).
 * ------------------------------------------------------------------------- */
struct ppu_gfx_vertex_header {
   float position[4]; /* 0   clip space x, y, z, w */
   float point_size;  /* 16  pixels (point topology) */
   uint32_t layer;    /* 20  render-target layer (from vertex work) */
   uint32_t viewport; /* 24  viewport index */
   uint32_t reserved; /* 28 */
   /* 32: the user distances: CLIP_DISTANCE_MASK names those that clip,
    * CULL_DISTANCE_MASK those that cull (the API's clip and cull distances
    * share these 8, as maxCombinedClipAndCullDistances is 8). */
   float clip_distance[PPU_GFX_MAX_CLIP_DISTANCES];
};
_Static_assert(sizeof(struct ppu_gfx_vertex_header) == 64, "vertex header");
#define PPU_GFX_VERTEX_STRIDE(attribute_count) (64u + 16u * (attribute_count))

/* ---------------------------------------------------------------------------
 * Primitive record: written by setup, read by fragment warps (the plane
 * equations). Plane value at a sample = a * dx + b * dy + c, with dx, dy the
 * sample's window position minus (origin_x, origin_y). A perspective slot
 * holds planes of attribute / w; divide by the inverse-w plane. A flat slot
 * has a = b = 0 and c = the provoking vertex's value.
 * ------------------------------------------------------------------------- */
struct ppu_gfx_plane {
   float a, b, c;
};
struct ppu_gfx_primitive_header {
   int32_t origin_x, origin_y;     /* 0  pixel the planes are relative to */
   struct ppu_gfx_plane depth;     /* 8  window z (before bias) */
   struct ppu_gfx_plane inverse_w; /* 20 1 / clip w */
   float depth_bias;               /* 32 added to every sample's depth */
   uint32_t flags;                 /* 36 PPU_GFX_PRIMITIVE_* below */
   uint32_t primitive_id;          /* 40 */
   uint32_t attribute_count;       /* 44 */
   /* 48: attribute_count * 4 planes (x, y, z, w components). */
};
_Static_assert(sizeof(struct ppu_gfx_primitive_header) == 48, "primitive header");
#define PPU_GFX_PRIMITIVE_FRONT_FACING 0x1u
/* The provoking vertex's viewport index (modulo PPU_GFX_VIEWPORTS) and
 * layer, for fragment programs that read them. */
#define PPU_GFX_PRIMITIVE_VIEWPORT_SHIFT 8u
#define PPU_GFX_PRIMITIVE_VIEWPORT_MASK 0xfu
#define PPU_GFX_PRIMITIVE_LAYER_SHIFT 16u
#define PPU_GFX_PRIMITIVE_LAYER_MASK 0xffffu
#define PPU_GFX_PRIMITIVE_STRIDE(attribute_count) (48u + 48u * (attribute_count))

#endif /* PPU_GRAPHICS_H */
