/* The texture unit's parts on their own (no SM): the texture return
 * buffer (allocation, texture identifiers, last-use free, the free-list
 * stall), the texture queue's TexTile and QuadTex drain orders and their
 * bank conflicts, and a whole batch run in both orders giving identical
 * values with different texture-cache behaviour. */
#include <stdlib.h>
#include <string.h>

#include "hw_test_util.h"
#include "mmu.h"
#include "test_harness.h"
#include "texture/tex_address.h"
#include "texture/tex_unit.h"
#include "texture/texel_codec.h"

static uint64_t count(struct ppu_counter_block *b, enum ppu_counter id)
{
   return atomic_load(&b->value[id]);
}

TEST_CASE(trb_allocates_by_texture_id_frees_on_last_use_and_stalls_when_full)
{
   static struct ppu_counter_block counters;
   static struct ppu_tex_trb trb;
   ppu_tex_trb_init(&trb, &counters);
   uint32_t v[4][4], got[4][4];
   for (unsigned id = 0; id < PPU_TEX_TRB_SLOTS; id++) {
      memset(v, (int)id, sizeof(v));
      CHECK(ppu_tex_trb_write(&trb, id, v));
   }
   CHECK_EQ_U64(ppu_tex_trb_occupancy(&trb), PPU_TEX_TRB_SLOTS);
   /* Free list empty: the next write stalls. */
   CHECK(!ppu_tex_trb_write(&trb, 40, v));
   CHECK_EQ_U64(count(&counters, PPU_COUNTER_TEX_TRB_FREE_LIST_STALLS), 1);
   CHECK(!ppu_tex_trb_ready(&trb, 40));
   /* A read without last use keeps the slot. */
   CHECK(ppu_tex_trb_read(&trb, 3, false, got));
   CHECK_EQ_U64(got[2][1], 0x03030303u);
   CHECK(!ppu_tex_trb_write(&trb, 40, v));
   /* The last use frees it; the stalled write goes through. */
   CHECK(ppu_tex_trb_read(&trb, 3, true, got));
   CHECK(!ppu_tex_trb_ready(&trb, 3));
   CHECK(!ppu_tex_trb_read(&trb, 3, true, got));
   memset(v, 0x77, sizeof(v));
   CHECK(ppu_tex_trb_write(&trb, 40, v));
   CHECK(ppu_tex_trb_read(&trb, 40, true, got));
   CHECK_EQ_U64(got[3][3], 0x77777777u);
   /* An identifier already holding a value is refused (not a stall). */
   CHECK(!ppu_tex_trb_write(&trb, 5, v));
   CHECK_EQ_U64(count(&counters, PPU_COUNTER_TEX_TRB_FREE_LIST_STALLS), 2);
   CHECK_EQ_U64(count(&counters, PPU_COUNTER_TEX_TRB_ALLOCATIONS), PPU_TEX_TRB_SLOTS + 1);
   CHECK_EQ_U64(trb.max_occupancy, PPU_TEX_TRB_SLOTS);
   for (unsigned id = 0; id < PPU_TEX_TRB_SLOTS; id++)
      if (id != 3)
         CHECK(ppu_tex_trb_read(&trb, id, true, got));
   CHECK_EQ_U64(ppu_tex_trb_occupancy(&trb), 0);
}

TEST_CASE(textile_drains_by_operation_and_quadtex_by_quad)
{
   static struct ppu_counter_block counters;
   static struct ppu_tex_queue q;
   ppu_tex_queue_init(&q, &counters);
   for (unsigned op = 0; op < 3; op++)
      CHECK_EQ_U64(ppu_tex_queue_add_op(&q, 2), op);
   struct ppu_tex_queue_item items[PPU_TEX_QUEUE_MAX_OPS * PPU_TEX_QUEUE_QUADS];
   unsigned n = ppu_tex_queue_drain(&q, PPU_TEX_DRAIN_TEXTILE, items);
   CHECK_EQ_U64(n, 24);
   for (unsigned i = 0; i < n; i++) {
      CHECK_EQ_U64(items[i].op, i / 8);
      CHECK_EQ_U64(items[i].quad, i % 8);
   }
   /* TexTile: each interface-buffer load reads one slot pair of every bank
    * once per word: no conflicts. */
   CHECK_EQ_U64(count(&counters, PPU_COUNTER_TEX_QUEUE_BANK_CONFLICTS), 0);
   n = ppu_tex_queue_drain(&q, PPU_TEX_DRAIN_QUADTEX, items);
   CHECK_EQ_U64(n, 24);
   for (unsigned i = 0; i < n; i++) {
      CHECK_EQ_U64(items[i].op, i % 3);
      CHECK_EQ_U64(items[i].quad, i / 3);
   }
   /* QuadTex: 16 items (5 quads and a bit) per 128-word load; a quad's three
    * operations share its four banks. Loads of items 0..15 and 16..23:
    * banks of quad 0..4 hold 6 words each (quad 5: 2) -> 6 cycles for 128
    * words (ideal 4), then quads 5..7 -> 6 cycles for 64 words (ideal 2). */
   CHECK_EQ_U64(count(&counters, PPU_COUNTER_TEX_QUEUE_BANK_CONFLICTS), 2 + 4);
   /* The read crossbar gives a quad's lanes their own words. */
   uint32_t lanes[32];
   for (unsigned l = 0; l < 32; l++)
      lanes[l] = 100 * l;
   ppu_tex_queue_store(&q, 1, 1, lanes);
   uint32_t words[4][PPU_TEX_MAX_WORDS];
   struct ppu_tex_queue_item it = {1, 5};
   ppu_tex_queue_read(&q, it, words);
   CHECK_EQ_U64(words[2][1], 100 * 22);
   CHECK(ppu_tex_queue_add_op(&q, 2) == 3);
   for (unsigned i = 4; i < PPU_TEX_QUEUE_MAX_OPS; i++)
      ppu_tex_queue_add_op(&q, 1);
   CHECK(ppu_tex_queue_add_op(&q, 1) < 0);
}

/* A batch of four operations on one 32x32 RGBA8 image, run in both drain
 * orders on the unit itself. */
struct env {
   struct ppu_vram vram;
   struct ppu_counter_block counters;
   struct ppu_mmu mmu;
   struct ppu_mmu_client client;
   struct hwt_mem mem;
   uint64_t pd;
   struct ppu_tex_unit unit;
   uint32_t result[PPU_TEX_QUEUE_MAX_OPS][32][4];
   unsigned consumed;
};

static void consume(void *ctx, unsigned op, unsigned quad, const uint32_t value[4][4])
{
   struct env *e = ctx;
   memcpy(e->result[op][4 * quad], value, 16 * sizeof(uint32_t));
   e->consumed++;
}

static void run_batch(struct env *e, enum ppu_tex_drain_order order,
                      const struct ppu_texture_header *hd, const struct ppu_sampler_header *s)
{
   struct ppu_tex_unit *u = &e->unit;
   u->order = order;
   ppu_tex_unit_begin_grid(u);
   ppu_tex_unit_begin_batch(u);
   for (unsigned o = 0; o < 4; o++) {
      struct ppu_tex_instr in = {
          .kind = PPU_TEX_KIND_SAMPLE, .texdim = PPU_TEXDIM_2D, .lod = PPU_TEXLOD_LL};
      struct ppu_tex_op *op = ppu_tex_unit_add_op(u, &in, 3);
      REQUIRE(op);
      op->active = 0xffffffffu;
      op->headers = 0xffffffffu;
      uint32_t w[3][32];
      for (unsigned l = 0; l < 32; l++) {
         op->tex[l] = *hd;
         op->smp[l] = *s;
         float st[3] = {(float)(l % 8) / 8.0f + 0.01f * (float)o, (float)(l / 8) / 4.0f,
                        (float)o * 0.5f};
         memcpy(&w[0][l], &st[0], 4);
         memcpy(&w[1][l], &st[1], 4);
         memcpy(&w[2][l], &st[2], 4);
      }
      for (unsigned k = 0; k < 3; k++)
         ppu_tex_queue_store(&u->queue, (unsigned)(op - u->op), k, w[k]);
   }
   e->consumed = 0;
   struct ppu_fault f;
   CHECK(ppu_tex_unit_run(u, e->pd, consume, e, &f));
   CHECK_EQ_U64(e->consumed, 32);
}

TEST_CASE(both_drain_orders_give_identical_values_and_the_trb_stalls_on_a_big_batch)
{
   static struct env e;
   memset(&e, 0, sizeof(e));
   REQUIRE(ppu_vram_init(&e.vram, 16ull << 20) == 0);
   ppu_mmu_init(&e.mmu, &e.vram, &e.counters);
   ppu_mmu_client_init(&e.client, &e.mmu, PPU_ENGINE_COMPUTE);
   hwt_mem_init(&e.mem, e.vram.base, e.vram.size);
   e.pd = hwt_new_directory(&e.mem);
   ppu_tex_unit_init(&e.unit, &e.client, &e.counters);

   struct ppu_texture_header hd;
   memset(&hd, 0, sizeof(hd));
   hd.format = PPU_TEX_FORMAT_R8G8B8A8_UNORM;
   hd.dim = PPU_TEX_DIM_2D;
   hd.layout = PPU_TEX_LAYOUT_BLOCK_LINEAR;
   hd.swizzle = PPU_TEX_SWIZZLE_IDENTITY;
   hd.block_height_log2 = 2;
   hd.width = hd.height = hd.depth = 32;
   hd.depth = 1;
   hd.image_levels = hd.level_count = 3;
   hd.layer_count = 1;
   hd.layer_stride = ppu_tex_layer_size(&hd);
   uint64_t pages = (hd.layer_stride + 4095) / 4096;
   uint64_t pa = hwt_alloc_pages(&e.mem, pages);
   hd.address = 0x40000000;
   hwt_map(&e.mem, e.pd, hd.address, pa, pages * 4096, true);
   for (uint64_t i = 0; i < hd.layer_stride; i++)
      e.vram.base[pa + i] = (uint8_t)(i * 7 + (i >> 8));
   struct ppu_sampler_header s;
   memset(&s, 0, sizeof(s));
   s.mag_filter = s.min_filter = s.mip_filter = PPU_TEX_FILTER_LINEAR;
   s.max_lod = 10;

   run_batch(&e, PPU_TEX_DRAIN_TEXTILE, &hd, &s);
   static uint32_t textile[PPU_TEX_QUEUE_MAX_OPS][32][4];
   memcpy(textile, e.result, sizeof(textile));
   uint64_t misses_textile = count(&e.counters, PPU_COUNTER_TEX_CACHE_MISSES);
   uint64_t stalls = count(&e.counters, PPU_COUNTER_TEX_TRB_FREE_LIST_STALLS);
   /* 32 quads, 16 slots, all consumed at the end: the TFU stalled. */
   CHECK(stalls > 0);
   CHECK_EQ_U64(e.unit.trb.max_occupancy, PPU_TEX_TRB_SLOTS);
   CHECK_EQ_U64(ppu_tex_trb_occupancy(&e.unit.trb), 0);
   CHECK_EQ_U64(count(&e.counters, PPU_COUNTER_TEX_REQUESTS), 128);
   CHECK_EQ_U64(count(&e.counters, PPU_COUNTER_TEX_TRB_ALLOCATIONS), 32);

   memset(e.result, 0, sizeof(e.result));
   run_batch(&e, PPU_TEX_DRAIN_QUADTEX, &hd, &s);
   CHECK(memcmp(textile, e.result, sizeof(textile)) == 0);
   uint64_t misses_quadtex = count(&e.counters, PPU_COUNTER_TEX_CACHE_MISSES) - misses_textile;
   CHECK(misses_textile > 0 && misses_quadtex > 0);
   CHECK(count(&e.counters, PPU_COUNTER_TEX_TEXELS_FILTERED) > 0);
   /* Some value is not zero (the image is not). */
   bool any = false;
   for (unsigned o = 0; o < 4; o++)
      for (unsigned l = 0; l < 32; l++)
         any = any || textile[o][l][0] != 0;
   CHECK(any);
   ppu_vram_finish(&e.vram);
}

TEST_CASE(wrap_modes_and_cube_faces_follow_the_spec_tables)
{
   /* Vulkan "Wrapping Operation", size 4. */
   const int32_t repeat[] = {2, 3, 0, 1, 2, 3, 0, 1};
   const int32_t mirror[] = {1, 0, 0, 1, 2, 3, 3, 2};
   const int32_t clamp[] = {0, 0, 0, 1, 2, 3, 3, 3};
   const int32_t border[] = {-1, -1, 0, 1, 2, 3, -1, -1};
   const int32_t mclamp[] = {1, 0, 0, 1, 2, 3, 3, 3};
   for (int32_t i = -2; i < 6; i++) {
      CHECK_EQ_U64(ppu_tex_wrap(i, 4, PPU_TEX_ADDRESS_REPEAT), repeat[i + 2]);
      CHECK_EQ_U64(ppu_tex_wrap(i, 4, PPU_TEX_ADDRESS_MIRRORED_REPEAT), mirror[i + 2]);
      CHECK_EQ_U64(ppu_tex_wrap(i, 4, PPU_TEX_ADDRESS_CLAMP_TO_EDGE), clamp[i + 2]);
      CHECK_EQ_U64(ppu_tex_wrap(i, 4, PPU_TEX_ADDRESS_CLAMP_TO_BORDER), border[i + 2]);
      CHECK_EQ_U64(ppu_tex_wrap(i, 4, PPU_TEX_ADDRESS_MIRROR_CLAMP_TO_EDGE), mclamp[i + 2]);
   }
   const float dirs[6][3] = {{1, 0.2f, 0.1f},  {-1, 0.2f, 0.1f}, {0.1f, 1, 0.2f},
                             {0.1f, -1, 0.2f}, {0.1f, 0.2f, 1},  {0.1f, 0.2f, -1}};
   for (unsigned f = 0; f < 6; f++) {
      float sc, tc, ma;
      CHECK_EQ_U64(ppu_tex_cube_face(dirs[f], &sc, &tc, &ma), f);
   }
   float sc, tc, ma;
   const float px[3] = {1, 0.5f, -0.25f};
   ppu_tex_cube_face(px, &sc, &tc, &ma); /* +X: sc = -rz, tc = -ry */
   CHECK(sc == 0.25f && tc == -0.5f && ma == 1.0f);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
