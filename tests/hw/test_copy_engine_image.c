/* Copy engine image operations through a channel: buffer <-> image round
 * trips over levels, layers, 3D slices, odd extents and compressed formats,
 * with every element checked in VRAM where ppu_tex_byte_offset puts it;
 * image to image between size-compatible formats; clears; and a fault for
 * every bad header field or region. Images live on scattered pages. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw_test_util.h"
#include "ppu/texture.h"
#include "test_harness.h"
#include "texture/texel_codec.h"

#define TEST_VRAM (256ull << 20)

static uint32_t rng_state = 777;
static uint32_t rng(void)
{
   rng_state ^= rng_state << 13;
   rng_state ^= rng_state >> 17;
   rng_state ^= rng_state << 5;
   return rng_state;
}

struct image {
   uint64_t header_va;
   struct ppu_texture_header h;
};

/* An image with its header in GPU memory: block-linear (block height
 * bh) or linear (rows padded to 256 bytes), all layers in the view. */
static struct image make_image(struct hwt *t, unsigned format, unsigned dim, unsigned layout,
                               uint32_t w, uint32_t h, uint32_t d, unsigned levels, uint32_t layers,
                               unsigned bh)
{
   struct image img;
   memset(&img, 0, sizeof(img));
   struct ppu_texture_header *hd = &img.h;
   hd->format = (uint16_t)format;
   hd->dim = (uint8_t)dim;
   hd->layout = (uint8_t)layout;
   hd->swizzle = PPU_TEX_SWIZZLE_IDENTITY;
   hd->block_height_log2 = layout == PPU_TEX_LAYOUT_BLOCK_LINEAR ? (uint8_t)bh : 0;
   hd->width = w;
   hd->height = h;
   hd->depth = d;
   hd->image_levels = (uint8_t)levels;
   hd->level_count = (uint8_t)levels;
   hd->layer_count = layers;
   if (layout == PPU_TEX_LAYOUT_LINEAR)
      hd->row_pitch = (ppu_tex_level_row_bytes(hd, 0) + 255) & ~255u;
   hd->layer_stride = ppu_tex_layer_size(hd);
   uint64_t size = hd->layer_stride * layers;
   hd->address = hwt_alloc_scattered(t, size + PPU_PAGE_SIZE);
   img.header_va = hwt_alloc_mapped(t, PPU_PAGE_SIZE, true) + 128;
   hwt_write(&t->mem, t->pd, img.header_va, hd, sizeof(*hd));
   return img;
}

/* Every image-operation state method, then LAUNCH. */
struct image_op {
   uint64_t src, dst; /* buffer VAs */
   uint64_t src_header, dst_header;
   uint32_t row_length, image_height;
   uint32_t src_level, src_layer, dst_level, dst_layer, layer_count, level_count;
   uint32_t src_offset[3], dst_offset[3], extent[3];
   uint32_t aspect;
   uint32_t clear[4];
};

static void emit(struct hwt_pb *pb, const struct image_op *op, uint32_t launch)
{
   hwt_pb_set64(pb, PPU_SUBCH_COPY, PPU_COPY_SRC_ADDR_LO, op->src);
   hwt_pb_set64(pb, PPU_SUBCH_COPY, PPU_COPY_DST_ADDR_LO, op->dst);
   const uint32_t words[] = {(uint32_t)op->src_header,
                             (uint32_t)(op->src_header >> 32),
                             (uint32_t)op->dst_header,
                             (uint32_t)(op->dst_header >> 32),
                             op->row_length,
                             op->image_height,
                             op->src_level,
                             op->src_layer,
                             op->dst_level,
                             op->dst_layer,
                             op->layer_count,
                             op->level_count,
                             op->src_offset[0],
                             op->src_offset[1],
                             op->src_offset[2],
                             op->dst_offset[0],
                             op->dst_offset[1],
                             op->dst_offset[2],
                             op->extent[0],
                             op->extent[1],
                             op->extent[2],
                             op->aspect,
                             op->clear[0],
                             op->clear[1],
                             op->clear[2],
                             op->clear[3]};
   _Static_assert(sizeof(words) / 4 == PPU_COPY_CLEAR_VALUE_3 - PPU_COPY_SRC_HEADER_LO + 1,
                  "one word per method");
   hwt_pb_method(pb, PPU_MTHD_INCR, PPU_SUBCH_COPY, PPU_COPY_SRC_HEADER_LO, sizeof(words) / 4,
                 words);
   hwt_pb_method(pb, PPU_MTHD_INCR, PPU_SUBCH_COPY, PPU_COPY_LAUNCH, 1, &launch);
}

static bool run(struct hwt_channel *c, const struct image_op *op, uint32_t launch)
{
   static struct hwt_pb pb;
   hwt_pb_reset(&pb);
   emit(&pb, op, launch);
   hwt_submit(c, &pb);
   return hwt_sync(c, 10000);
}

/* One round-trip case: a region of one level, planes = layers or slices. */
struct region_case {
   const char *name;
   unsigned format, dim, layout;
   uint32_t w, h, d;
   unsigned levels;
   uint32_t layers;
   unsigned bh;
   unsigned level;
   uint32_t layer, offset[3], extent[3], layer_count;
   uint32_t row_length, image_height; /* buffer layout, 0 = packed */
};

static void round_trip(struct hwt *t, struct hwt_channel *c, const struct region_case *rc)
{
   struct image img = make_image(t, rc->format, rc->dim, rc->layout, rc->w, rc->h, rc->d,
                                 rc->levels, rc->layers, rc->bh);
   const struct ppu_texture_header *h = &img.h;
   bool bc = ppu_tex_format_is_compressed(rc->format);
   uint32_t eb = ppu_tex_format_bytes(rc->format);
   uint32_t ew = bc ? (rc->extent[0] + 3) / 4 : rc->extent[0];
   uint32_t eh = bc ? (rc->extent[1] + 3) / 4 : rc->extent[1];
   uint32_t rl = rc->row_length ? rc->row_length : rc->extent[0];
   uint32_t ih = rc->image_height ? rc->image_height : rc->extent[1];
   uint64_t pitch = (uint64_t)(bc ? (rl + 3) / 4 : rl) * eb;
   uint64_t plane = (uint64_t)(bc ? (ih + 3) / 4 : ih) * pitch;
   bool is_3d = rc->dim == PPU_TEX_DIM_3D;
   uint32_t planes = is_3d ? rc->extent[2] : rc->layer_count;
   uint64_t size = plane * planes;
   uint64_t src = hwt_alloc_scattered(t, size + PPU_PAGE_SIZE);
   uint64_t dst = hwt_alloc_scattered(t, size + PPU_PAGE_SIZE);
   uint8_t *data = malloc(size), *back = malloc(size);
   REQUIRE(data && back);
   for (uint64_t i = 0; i < size; i++)
      data[i] = (uint8_t)rng();
   hwt_write(&t->mem, t->pd, src, data, size);

   struct image_op op = {0};
   op.src = src;
   op.dst = dst;
   op.src_header = op.dst_header = img.header_va;
   op.row_length = rc->row_length;
   op.image_height = rc->image_height;
   op.src_level = op.dst_level = rc->level;
   op.src_layer = op.dst_layer = rc->layer;
   op.layer_count = rc->layer_count;
   memcpy(op.src_offset, rc->offset, sizeof(op.src_offset));
   memcpy(op.dst_offset, rc->offset, sizeof(op.dst_offset));
   memcpy(op.extent, rc->extent, sizeof(op.extent));
   CHECK_MSG(run(c, &op, PPU_COPY_OP_BUFFER_TO_IMAGE), "%s: BUFFER_TO_IMAGE", rc->name);

   /* Each element is in VRAM at ppu_tex_byte_offset. */
   uint32_t x0 = bc ? rc->offset[0] / 4 : rc->offset[0],
            y0 = bc ? rc->offset[1] / 4 : rc->offset[1];
   unsigned bad = 0;
   for (uint32_t p = 0; p < planes; p++)
      for (uint32_t y = 0; y < eh; y++)
         for (uint32_t x = 0; x < ew; x++) {
            uint32_t layer = is_3d ? rc->layer : rc->layer + p, z = is_3d ? rc->offset[2] + p : 0;
            uint64_t off = ppu_tex_byte_offset(h, rc->level, layer, (x0 + x) * eb, y0 + y, z);
            uint8_t got[16];
            hwt_read(&t->mem, t->pd, h->address + off, got, eb);
            if (memcmp(got, data + p * plane + y * pitch + (uint64_t)x * eb, eb) != 0 && bad++ < 3)
               CHECK_MSG(false, "%s: element (%u, %u) of plane %u not at offset 0x%llx", rc->name,
                         x, y, p, (unsigned long long)off);
         }
   CHECK_MSG(bad == 0, "%s: %u elements misplaced", rc->name, bad);
   /* An element just outside the region (left of it, or above) is untouched. */
   if (x0 > 0 || y0 > 0) {
      uint32_t layer = rc->layer, z = is_3d ? rc->offset[2] : 0;
      uint64_t off = ppu_tex_byte_offset(h, rc->level, layer, (x0 > 0 ? x0 - 1 : x0) * eb,
                                         x0 > 0 ? y0 : y0 - 1, z);
      uint8_t got[16], zero[16] = {0};
      hwt_read(&t->mem, t->pd, h->address + off, got, eb);
      CHECK_MSG(memcmp(got, zero, eb) == 0, "%s: element outside the region written", rc->name);
   }

   CHECK_MSG(run(c, &op, PPU_COPY_OP_IMAGE_TO_BUFFER), "%s: IMAGE_TO_BUFFER", rc->name);
   hwt_read(&t->mem, t->pd, dst, back, size);
   /* The region's bytes come back; the buffer's row and plane padding is
    * not written (it stays 0). */
   bad = 0;
   for (uint32_t p = 0; p < planes; p++)
      for (uint32_t y = 0; y < (bc ? (ih + 3) / 4 : ih); y++)
         for (uint64_t b = 0; b < pitch; b++) {
            uint64_t i = p * plane + y * pitch + b;
            bool inside = y < eh && b < (uint64_t)ew * eb;
            if (back[i] != (inside ? data[i] : 0))
               bad++;
         }
   CHECK_MSG(bad == 0, "%s: %u buffer bytes differ after the round trip", rc->name, bad);
   free(data);
   free(back);
}

TEST_CASE(buffer_image_round_trips_place_every_element_by_the_layout_functions)
{
   static struct hwt t;
   struct hwt_channel c;
   REQUIRE(hwt_init(&t, TEST_VRAM));
   REQUIRE(hwt_channel_init(&c, &t, "image"));
   const unsigned BL = PPU_TEX_LAYOUT_BLOCK_LINEAR, LIN = PPU_TEX_LAYOUT_LINEAR;
   /* name, format, dim, layout, w, h, d, levels, layers, bh, level, layer,
    * offset, extent, layer_count, row_length, image_height */
   // clang-format off
   const struct region_case cases[] = {
       {"rgba8 level 1 layers 1-2 of 3", PPU_TEX_FORMAT_R8G8B8A8_UNORM, PPU_TEX_DIM_2D, BL, 67, 45, 1, 3, 3, 2, 1, 1, {3, 5, 0}, {20, 11, 1}, 2, 23, 13},
       {"rgba8 level 0 whole odd", PPU_TEX_FORMAT_R8G8B8A8_UNORM, PPU_TEX_DIM_2D, BL, 67, 45, 1, 3, 1, 4, 0, 0, {0, 0, 0}, {67, 45, 1}, 1, 0, 0},
       {"rgba32f 3D slices 2-5 of level 0", PPU_TEX_FORMAT_R32G32B32A32_SFLOAT, PPU_TEX_DIM_3D, BL, 19, 13, 7, 2, 1, 1, 0, 0, {1, 2, 2}, {17, 9, 4}, 1, 0, 0},
       {"r16 3D level 1 all slices", PPU_TEX_FORMAT_R16_UINT, PPU_TEX_DIM_3D, BL, 40, 33, 9, 3, 1, 3, 1, 0, {0, 0, 0}, {20, 16, 4}, 1, 21, 0},
       {"bc1 level 0 to the odd edge", PPU_TEX_FORMAT_BC1_RGBA_UNORM, PPU_TEX_DIM_2D, BL, 30, 22, 1, 2, 2, 1, 0, 1, {4, 8, 0}, {26, 14, 1}, 1, 32, 16},
       {"bc7 level 1 layers 0-1", PPU_TEX_FORMAT_BC7_UNORM, PPU_TEX_DIM_2D, BL, 100, 60, 1, 4, 2, 3, 1, 0, {8, 4, 0}, {42, 26, 1}, 2, 0, 0},
       {"r16 linear 2D", PPU_TEX_FORMAT_R16_SFLOAT, PPU_TEX_DIM_2D, LIN, 50, 20, 1, 1, 1, 0, 0, 0, {7, 3, 0}, {31, 15, 1}, 1, 40, 0},
       {"r8 1D linear layers", PPU_TEX_FORMAT_R8_UINT, PPU_TEX_DIM_1D, LIN, 300, 1, 1, 1, 4, 0, 0, 1, {5, 0, 0}, {290, 1, 1}, 3, 0, 0},
       {"bc4 linear", PPU_TEX_FORMAT_BC4_UNORM, PPU_TEX_DIM_2D, LIN, 17, 9, 1, 1, 1, 0, 0, 0, {0, 4, 0}, {17, 5, 1}, 1, 0, 0},
       {"rgba16 wide 2-GOB-column rows", PPU_TEX_FORMAT_R16G16B16A16_UNORM, PPU_TEX_DIM_2D, BL, 129, 70, 1, 1, 1, 5, 0, 0, {1, 1, 0}, {127, 68, 1}, 1, 0, 0},
   };
   // clang-format on
   for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
      round_trip(&t, &c, &cases[i]);
   CHECK(hwt_counter(&t, PPU_COUNTER_COPY_IMAGE_BYTES) > 0);
   hwt_channel_finish(&c);
   hwt_finish(&t);
}

TEST_CASE(depth_stencil_buffer_copies_move_one_aspect_in_vulkans_buffer_layout)
{
   static struct hwt t;
   struct hwt_channel c;
   REQUIRE(hwt_init(&t, TEST_VRAM));
   REQUIRE(hwt_channel_init(&c, &t, "depth"));
   struct image img = make_image(&t, PPU_TEX_FORMAT_D24_UNORM_S8_UINT, PPU_TEX_DIM_2D,
                                 PPU_TEX_LAYOUT_BLOCK_LINEAR, 9, 5, 1, 1, 1, 1);
   uint64_t buf = hwt_alloc_mapped(&t, PPU_PAGE_SIZE, true);
   uint64_t out = hwt_alloc_mapped(&t, PPU_PAGE_SIZE, true);
   uint32_t depth[45];
   uint8_t stencil[45];
   for (unsigned i = 0; i < 45; i++) {
      depth[i] = 0xff000000u | (i * 0x10101u); /* top byte must be ignored */
      stencil[i] = (uint8_t)(200 + i);
   }
   hwt_write(&t.mem, t.pd, buf, depth, sizeof(depth));
   struct image_op op = {.src = buf,
                         .dst = out,
                         .src_header = img.header_va,
                         .dst_header = img.header_va,
                         .layer_count = 1,
                         .extent = {9, 5, 1},
                         .aspect = PPU_COPY_ASPECT_DEPTH};
   REQUIRE(run(&c, &op, PPU_COPY_OP_BUFFER_TO_IMAGE));
   hwt_write(&t.mem, t.pd, buf, stencil, sizeof(stencil));
   op.aspect = PPU_COPY_ASPECT_STENCIL;
   REQUIRE(run(&c, &op, PPU_COPY_OP_BUFFER_TO_IMAGE));
   /* In the image: depth in bits 23..0, stencil in 31..24. */
   for (unsigned i = 0; i < 45; i++) {
      uint32_t w;
      uint64_t off = ppu_tex_byte_offset(&img.h, 0, 0, (i % 9) * 4, i / 9, 0);
      hwt_read(&t.mem, t.pd, img.h.address + off, &w, 4);
      CHECK_MSG(w == ((depth[i] & 0xffffffu) | (uint32_t)stencil[i] << 24), "texel %u: 0x%08x", i,
                w);
   }
   /* Back out: depth as 4-byte texels with the top byte 0. */
   op.aspect = PPU_COPY_ASPECT_DEPTH;
   REQUIRE(run(&c, &op, PPU_COPY_OP_IMAGE_TO_BUFFER));
   uint32_t got[45];
   hwt_read(&t.mem, t.pd, out, got, sizeof(got));
   for (unsigned i = 0; i < 45; i++)
      CHECK(got[i] == (depth[i] & 0xffffffu));
   hwt_channel_finish(&c);
   hwt_finish(&t);
}

/* An element position: image, level, layer, x and y in elements. */
struct at {
   const struct image *img;
   unsigned level;
   uint32_t layer, x, y;
};

/* Compares w x h 8-byte elements of two images, read straight from VRAM. */
static unsigned count_8_byte_differences(struct hwt *t, struct at a, struct at b, uint32_t w,
                                         uint32_t h)
{
   unsigned bad = 0;
   for (uint32_t y = 0; y < h; y++)
      for (uint32_t x = 0; x < w; x++) {
         uint64_t va = 0, vb = 0;
         const struct ppu_texture_header *ha = &a.img->h, *hb = &b.img->h;
         hwt_read(&t->mem, t->pd,
                  ha->address +
                      ppu_tex_byte_offset(ha, a.level, a.layer, (a.x + x) * 8, a.y + y, 0),
                  &va, 8);
         hwt_read(&t->mem, t->pd,
                  hb->address +
                      ppu_tex_byte_offset(hb, b.level, b.layer, (b.x + x) * 8, b.y + y, 0),
                  &vb, 8);
         bad += va != vb;
      }
   return bad;
}

TEST_CASE(image_to_image_copies_between_size_compatible_formats_and_layouts)
{
   static struct hwt t;
   struct hwt_channel c;
   REQUIRE(hwt_init(&t, TEST_VRAM));
   REQUIRE(hwt_channel_init(&c, &t, "i2i"));
   /* BC1 (8-byte blocks) to R32G32_UINT (8-byte texels): a 16x12 texel
    * region of blocks becomes a 4x3 texel region. Source block-linear,
    * destination linear, different layers. */
   struct image bc1 = make_image(&t, PPU_TEX_FORMAT_BC1_RGB_UNORM, PPU_TEX_DIM_2D,
                                 PPU_TEX_LAYOUT_BLOCK_LINEAR, 40, 24, 1, 1, 2, 2);
   struct image rg = make_image(&t, PPU_TEX_FORMAT_R32G32_UINT, PPU_TEX_DIM_2D,
                                PPU_TEX_LAYOUT_LINEAR, 9, 7, 1, 1, 3, 0);
   for (uint32_t by = 0; by < 6; by++)
      for (uint32_t bx = 0; bx < 10; bx++) {
         uint64_t v = (uint64_t)rng() << 32 | rng();
         uint64_t off = ppu_tex_byte_offset(&bc1.h, 0, 1, bx * 8, by, 0);
         hwt_write(&t.mem, t.pd, bc1.h.address + off, &v, 8);
      }
   struct image_op op = {.src_header = bc1.header_va,
                         .dst_header = rg.header_va,
                         .src_layer = 1,
                         .dst_layer = 2,
                         .layer_count = 1,
                         .src_offset = {8, 4, 0},
                         .dst_offset = {2, 3, 0},
                         .extent = {16, 12, 1}};
   REQUIRE(run(&c, &op, PPU_COPY_OP_IMAGE_TO_IMAGE));
   CHECK_EQ_U64(count_8_byte_differences(&t, (struct at){&bc1, 0, 1, 2, 1},
                                         (struct at){&rg, 0, 2, 2, 3}, 4, 3),
                0);
   /* And back the other way: R32G32 texels into BC1 blocks of a 3D-free
    * 2D image at level 1 (20x12 texels, 5x3 blocks). */
   struct image bc1b = make_image(&t, PPU_TEX_FORMAT_BC1_RGB_SRGB, PPU_TEX_DIM_2D,
                                  PPU_TEX_LAYOUT_BLOCK_LINEAR, 40, 24, 1, 2, 1, 1);
   struct image_op back = {.src_header = rg.header_va,
                           .dst_header = bc1b.header_va,
                           .src_layer = 2,
                           .dst_level = 1,
                           .layer_count = 1,
                           .src_offset = {2, 3, 0},
                           .dst_offset = {4, 0, 0},
                           .extent = {4, 3, 1}};
   REQUIRE(run(&c, &back, PPU_COPY_OP_IMAGE_TO_IMAGE));
   CHECK_EQ_U64(count_8_byte_differences(&t, (struct at){&rg, 0, 2, 2, 3},
                                         (struct at){&bc1b, 1, 0, 1, 0}, 4, 3),
                0);
   /* 2D array layers into 3D slices: layers 0..1 of an RGBA8 array to
    * slices 1..2 of a 3D image. */
   struct image arr = make_image(&t, PPU_TEX_FORMAT_R8G8B8A8_UNORM, PPU_TEX_DIM_2D,
                                 PPU_TEX_LAYOUT_BLOCK_LINEAR, 13, 11, 1, 1, 2, 1);
   struct image vol = make_image(&t, PPU_TEX_FORMAT_R32_UINT, PPU_TEX_DIM_3D,
                                 PPU_TEX_LAYOUT_BLOCK_LINEAR, 13, 11, 4, 1, 1, 1);
   for (uint32_t l = 0; l < 2; l++)
      for (uint32_t y = 0; y < 11; y++)
         for (uint32_t x = 0; x < 13; x++) {
            uint32_t v = l << 16 | y << 8 | x;
            hwt_write(&t.mem, t.pd, arr.h.address + ppu_tex_byte_offset(&arr.h, 0, l, x * 4, y, 0),
                      &v, 4);
         }
   struct image_op a2v = {.src_header = arr.header_va,
                          .dst_header = vol.header_va,
                          .layer_count = 2,
                          .dst_offset = {0, 0, 1},
                          .extent = {13, 11, 2}};
   REQUIRE(run(&c, &a2v, PPU_COPY_OP_IMAGE_TO_IMAGE));
   unsigned bad = 0;
   for (uint32_t z = 0; z < 2; z++)
      for (uint32_t y = 0; y < 11; y++)
         for (uint32_t x = 0; x < 13; x++) {
            uint32_t v;
            hwt_read(&t.mem, t.pd,
                     vol.h.address + ppu_tex_byte_offset(&vol.h, 0, 0, x * 4, y, z + 1), &v, 4);
            bad += v != (z << 16 | y << 8 | x);
         }
   CHECK_EQ_U64(bad, 0);
   hwt_channel_finish(&c);
   hwt_finish(&t);
}

/* Checks every texel of levels [first, first + count) of layers [0, layers)
 * against one encoded texel. */
static unsigned count_not_equal(struct hwt *t, const struct image *img, unsigned first,
                                unsigned count, uint32_t layers, const uint8_t *want,
                                uint32_t mask_bytes_from, uint32_t mask_bytes)
{
   const struct ppu_texture_header *h = &img->h;
   uint32_t eb = ppu_tex_format_bytes(h->format);
   unsigned bad = 0;
   for (unsigned l = first; l < first + count; l++) {
      uint32_t w = ppu_tex_level_extent(h->width, l), hh = ppu_tex_level_extent(h->height, l);
      uint32_t d = h->dim == PPU_TEX_DIM_3D ? ppu_tex_level_extent(h->depth, l) : 1;
      for (uint32_t layer = 0; layer < layers; layer++)
         for (uint32_t z = 0; z < d; z++)
            for (uint32_t y = 0; y < hh; y++)
               for (uint32_t x = 0; x < w; x++) {
                  uint8_t got[16];
                  hwt_read(&t->mem, t->pd,
                           h->address + ppu_tex_byte_offset(h, l, layer, x * eb, y, z), got, eb);
                  bad += memcmp(got + mask_bytes_from, want + mask_bytes_from, mask_bytes) != 0;
               }
   }
   return bad;
}

static uint32_t fbits(float f)
{
   uint32_t u;
   memcpy(&u, &f, 4);
   return u;
}

TEST_CASE(clear_image_encodes_the_value_over_levels_layers_and_slices)
{
   static struct hwt t;
   struct hwt_channel c;
   REQUIRE(hwt_init(&t, TEST_VRAM));
   REQUIRE(hwt_channel_init(&c, &t, "clear"));

   /* RGBA8 UNORM, levels 1..2 of layers 1..2 of a 3-layer image: bytes
    * 64, 128, 191, 255 (0.25 * 255 = 63.75 -> 64, 0.75 * 255 = 191.25 ->
    * 191). Level 0 and layer 0 stay 0. */
   struct image rgba = make_image(&t, PPU_TEX_FORMAT_R8G8B8A8_UNORM, PPU_TEX_DIM_2D,
                                  PPU_TEX_LAYOUT_BLOCK_LINEAR, 37, 21, 1, 3, 3, 2);
   struct image_op op = {.dst_header = rgba.header_va,
                         .dst_level = 1,
                         .level_count = 2,
                         .dst_layer = 1,
                         .layer_count = 2,
                         .clear = {fbits(0.25f), fbits(0.5f), fbits(0.75f), fbits(1.0f)}};
   REQUIRE(run(&c, &op, PPU_COPY_OP_CLEAR_IMAGE));
   const uint8_t want_rgba[4] = {64, 128, 191, 255}, zero[16] = {0};
   struct image layer12 = rgba;
   layer12.h.address += rgba.h.layer_stride; /* layers 1 and 2 as layers 0 and 1 */
   CHECK_EQ_U64(count_not_equal(&t, &layer12, 1, 2, 2, want_rgba, 0, 4), 0);
   CHECK_EQ_U64(count_not_equal(&t, &rgba, 0, 1, 3, zero, 0, 4), 0);
   CHECK_EQ_U64(count_not_equal(&t, &rgba, 1, 2, 1, zero, 0, 4), 0);

   /* A 3D RGBA16F image: every slice of level 1. 1.5 = 0x3e00. */
   struct image vol = make_image(&t, PPU_TEX_FORMAT_R16G16B16A16_SFLOAT, PPU_TEX_DIM_3D,
                                 PPU_TEX_LAYOUT_BLOCK_LINEAR, 20, 10, 9, 2, 1, 1);
   struct image_op vop = {.dst_header = vol.header_va,
                          .dst_level = 1,
                          .level_count = 1,
                          .layer_count = 1,
                          .clear = {fbits(1.5f), fbits(-2.0f), fbits(0.0f), fbits(1.0f)}};
   REQUIRE(run(&c, &vop, PPU_COPY_OP_CLEAR_IMAGE));
   const uint16_t want_half[4] = {0x3e00, 0xc000, 0x0000, 0x3c00};
   CHECK_EQ_U64(count_not_equal(&t, &vol, 1, 1, 1, (const uint8_t *)want_half, 0, 8), 0);

   /* R32_UINT linear: the integer as is. */
   struct image u32 = make_image(&t, PPU_TEX_FORMAT_R32_UINT, PPU_TEX_DIM_2D, PPU_TEX_LAYOUT_LINEAR,
                                 33, 5, 1, 1, 1, 0);
   struct image_op uop = {.dst_header = u32.header_va,
                          .level_count = 1,
                          .layer_count = 1,
                          .clear = {0xdeadbeef, 1, 2, 3}};
   REQUIRE(run(&c, &uop, PPU_COPY_OP_CLEAR_IMAGE));
   const uint32_t want_u = 0xdeadbeef;
   CHECK_EQ_U64(count_not_equal(&t, &u32, 0, 1, 1, (const uint8_t *)&want_u, 0, 4), 0);

   /* D24S8: stencil clear to 0x5a, then depth-only clear to 1.0 keeps the
    * stencil: every texel 0x5affffff. */
   struct image ds = make_image(&t, PPU_TEX_FORMAT_D24_UNORM_S8_UINT, PPU_TEX_DIM_2D,
                                PPU_TEX_LAYOUT_BLOCK_LINEAR, 30, 17, 1, 1, 1, 1);
   struct image_op dop = {.dst_header = ds.header_va,
                          .level_count = 1,
                          .layer_count = 1,
                          .aspect = PPU_COPY_ASPECT_STENCIL,
                          .clear = {fbits(0.0f), 0x5a}};
   REQUIRE(run(&c, &dop, PPU_COPY_OP_CLEAR_IMAGE));
   dop.aspect = PPU_COPY_ASPECT_DEPTH;
   dop.clear[0] = fbits(1.0f);
   dop.clear[1] = 0;
   REQUIRE(run(&c, &dop, PPU_COPY_OP_CLEAR_IMAGE));
   const uint32_t want_ds = 0x5affffffu;
   CHECK_EQ_U64(count_not_equal(&t, &ds, 0, 1, 1, (const uint8_t *)&want_ds, 0, 4), 0);
   hwt_channel_finish(&c);
   hwt_finish(&t);
}

/* --- Faults ------------------------------------------------------------------ */

static void expect_fault(struct hwt *t, const struct image_op *op, uint32_t launch,
                         enum ppu_fault_kind kind, const char *name)
{
   struct hwt_channel c;
   if (!hwt_channel_init(&c, t, name))
      return;
   static struct hwt_pb pb;
   hwt_pb_reset(&pb);
   emit(&pb, op, launch);
   hwt_submit(&c, &pb);
   struct ppu_fault f;
   bool faulted = hwt_wait_fault(&c, &f, 5000);
   CHECK_MSG(faulted, "%s: no fault", name);
   if (faulted) {
      CHECK_MSG(f.kind == kind, "%s: fault %s (%s)", name, ppu_fault_kind_name(f.kind), f.detail);
      CHECK_MSG(f.engine == PPU_ENGINE_COPY && f.method == PPU_COPY_LAUNCH,
                "%s: engine %s method 0x%x", name, ppu_engine_name(f.engine), f.method);
   }
   hwt_channel_finish(&c);
}

/* A header variant written to fresh memory, returning its VA. */
static uint64_t header_with(struct hwt *t, const struct ppu_texture_header *h)
{
   uint64_t va = hwt_alloc_mapped(t, PPU_PAGE_SIZE, true);
   hwt_write(&t->mem, t->pd, va, h, sizeof(*h));
   return va;
}

TEST_CASE(every_bad_header_field_and_region_faults_bad_method_data)
{
   static struct hwt t;
   REQUIRE(hwt_init(&t, TEST_VRAM));
   struct image img = make_image(&t, PPU_TEX_FORMAT_R8G8B8A8_UNORM, PPU_TEX_DIM_2D,
                                 PPU_TEX_LAYOUT_BLOCK_LINEAR, 32, 16, 1, 2, 2, 1);
   struct image bc = make_image(&t, PPU_TEX_FORMAT_BC3_UNORM, PPU_TEX_DIM_2D,
                                PPU_TEX_LAYOUT_BLOCK_LINEAR, 32, 16, 1, 1, 1, 1);
   uint64_t buf = hwt_alloc_mapped(&t, 16 * PPU_PAGE_SIZE, true);
   const struct image_op good = {.src = buf,
                                 .dst = buf,
                                 .src_header = img.header_va,
                                 .dst_header = img.header_va,
                                 .layer_count = 1,
                                 .level_count = 1,
                                 .extent = {8, 8, 1}};
   struct ppu_texture_header h;
   struct image_op op;

   /* The good operation works. */
   struct hwt_channel c;
   REQUIRE(hwt_channel_init(&c, &t, "good"));
   CHECK(run(&c, &good, PPU_COPY_OP_BUFFER_TO_IMAGE));
   hwt_channel_finish(&c);

#define HEADER_CASE(field_change, name)                                                            \
   do {                                                                                            \
      h = img.h;                                                                                   \
      field_change;                                                                                \
      op = good;                                                                                   \
      op.dst_header = header_with(&t, &h);                                                         \
      expect_fault(&t, &op, PPU_COPY_OP_BUFFER_TO_IMAGE, PPU_FAULT_BAD_METHOD_DATA, name);         \
   } while (0)
   HEADER_CASE(h.format = PPU_TEX_FORMAT_INVALID, "format INVALID");
   HEADER_CASE(h.format = 200, "format out of range");
   HEADER_CASE(h.width = 0, "width 0");
   HEADER_CASE(h.height = 20000, "height above the maximum");
   HEADER_CASE(h.depth = 2, "depth of a 2D image");
   HEADER_CASE(h.image_levels = 0, "no levels");
   HEADER_CASE(h.image_levels = 16, "too many levels");
   HEADER_CASE(h.dim = 9, "undefined dim");
   HEADER_CASE(h.layout = 3, "undefined layout");
   HEADER_CASE(h.block_height_log2 = 6, "block height");
   HEADER_CASE(h.address += 64, "block-linear address misaligned");
   HEADER_CASE(h.layer_count = 0, "no layers in the view");
   HEADER_CASE(h.samples_log2 = 2, "multisampled");
   HEADER_CASE((h.layout = PPU_TEX_LAYOUT_LINEAR, h.row_pitch = 64), "linear pitch too small");
#undef HEADER_CASE
   /* layer_stride is checked when a second layer is touched. */
   h = img.h;
   h.layer_stride = 512;
   op = good;
   op.dst_header = header_with(&t, &h);
   op.layer_count = 2;
   expect_fault(&t, &op, PPU_COPY_OP_BUFFER_TO_IMAGE, PPU_FAULT_BAD_METHOD_DATA, "layers overlap");

#define OP_CASE(change, launch, kind, name)                                                        \
   do {                                                                                            \
      op = good;                                                                                   \
      change;                                                                                      \
      expect_fault(&t, &op, launch, kind, name);                                                   \
   } while (0)
   const uint32_t B2I = PPU_COPY_OP_BUFFER_TO_IMAGE, I2B = PPU_COPY_OP_IMAGE_TO_BUFFER;
   const uint32_t I2I = PPU_COPY_OP_IMAGE_TO_IMAGE, CLR = PPU_COPY_OP_CLEAR_IMAGE;
   const enum ppu_fault_kind BMD = PPU_FAULT_BAD_METHOD_DATA;
   OP_CASE(op.dst_level = 2, B2I, BMD, "level beyond image_levels");
   OP_CASE(op.src_level = 5, I2B, BMD, "source level beyond image_levels");
   OP_CASE(op.extent[0] = 0, B2I, BMD, "extent 0");
   OP_CASE(op.dst_offset[0] = 25, B2I, BMD, "region beyond the width");
   OP_CASE((op.dst_level = 1, op.extent[1] = 9), B2I, BMD, "region below level 1's height");
   OP_CASE(op.dst_offset[2] = 1, B2I, BMD, "OFFSET_Z of a 2D image");
   OP_CASE((op.dst_layer = 1, op.layer_count = 2), B2I, BMD, "layers beyond the view");
   OP_CASE(op.layer_count = 0, B2I, BMD, "no layers");
   OP_CASE(op.extent[2] = 2, B2I, BMD, "depth of a 2D copy");
   OP_CASE(op.aspect = PPU_COPY_ASPECT_DEPTH, B2I, BMD, "depth aspect of a color format");
   OP_CASE(op.row_length = 4, B2I, BMD, "row length below the width");
   OP_CASE(op.dst_header = img.header_va + 8, B2I, BMD, "header misaligned");
   OP_CASE(op.dst_header = 0x7000000000ull, B2I, PPU_FAULT_MMU_UNMAPPED, "header unmapped");
   OP_CASE(op.src = 0x7000000000ull, B2I, PPU_FAULT_MMU_UNMAPPED, "buffer unmapped");
   OP_CASE((op.dst_header = bc.header_va, op.dst_offset[0] = 2), B2I, BMD,
           "compressed offset not a block");
   OP_CASE((op.dst_header = bc.header_va, op.extent[0] = 6), B2I, BMD,
           "compressed extent not whole blocks");
   OP_CASE(op.src_header = bc.header_va, I2I, BMD, "image copy between sizes");
   OP_CASE(op.dst_header = bc.header_va, CLR, BMD, "clear of a compressed format");
   OP_CASE(op.level_count = 3, CLR, BMD, "clear beyond image_levels");
   OP_CASE(op.level_count = 0, CLR, BMD, "clear of no levels");
#undef OP_CASE
   hwt_finish(&t);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
