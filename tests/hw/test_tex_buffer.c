/* Texel buffers (header dim BUFFER, view type BUFFER): TLD, SULD, SUST,
 * SUATOM and TXQ on buffers of 100000+ elements, every value checked
 * against the bytes in memory; out-of-range indices give 0 or are dropped;
 * invalid buffer headers, view types that differ from the header's, and
 * TEX/TLD4/offsets on texel buffers are refused. */
#include "ppu/isa.h"
#include "ppu_asm.h"
#include "tex_test_util.h"

static struct hwc h;
static uint32_t in[TT_MAX_THREADS][16];
static uint32_t out[TT_MAX_THREADS][4];

static uint32_t rng_state = 12345;
static uint32_t rng(void)
{
   rng_state ^= rng_state << 13;
   rng_state ^= rng_state >> 17;
   rng_state ^= rng_state << 5;
   return rng_state;
}

/* A texel buffer view of `elems` elements over `data` (a copy is uploaded
 * with one page of 0xee guard bytes after it). row_pitch and layer_stride
 * are left 0: a buffer never reads them. */
static uint64_t buffer_view(unsigned format, uint32_t elems, const void *data,
                            struct ppu_texture_header *hd)
{
   uint32_t tb = ppu_tex_format_bytes(format);
   uint64_t bytes = (uint64_t)elems * tb;
   uint8_t *img = malloc(bytes + 4096);
   if (!img)
      return 0;
   memcpy(img, data, bytes);
   memset(img + bytes, 0xee, 4096);
   memset(hd, 0, sizeof(*hd));
   hd->format = (uint16_t)format;
   hd->dim = PPU_TEX_DIM_BUFFER;
   hd->layout = PPU_TEX_LAYOUT_LINEAR;
   hd->swizzle = PPU_TEX_SWIZZLE_IDENTITY;
   hd->width = elems;
   hd->height = hd->depth = 1;
   hd->image_levels = hd->level_count = 1;
   hd->layer_count = 1;
   hd->address = tt_upload(&h, img, bytes + 4096);
   free(img);
   return tt_upload(&h, hd, sizeof(*hd));
}

/* A GPU with room for buffers of 2 MiB and more. */
static bool start(void)
{
   struct ppu_gpu_config cfg;
   ppu_gpu_config_default(&cfg);
   cfg.vram_size = 256ull << 20;
   return hwc_init(&h, &cfg);
}

/* Thread t's element index: spread over the whole buffer, with the last
 * few threads at the edges and beyond them. */
static int32_t index_of(uint32_t t, uint32_t elems)
{
   switch (t) {
   case 250:
      return (int32_t)elems - 1;
   case 251:
      return (int32_t)elems;
   case 252:
      return -1;
   case 253:
      return INT32_MAX;
   case 254:
      return INT32_MIN;
   case 255:
      return 0;
   default:
      return (int32_t)((t * 409u + 17u) % elems);
   }
}

TEST_CASE(tld_fetches_every_format_element_of_a_100003_element_buffer_and_zero_beyond_it)
{
   REQUIRE(start());
   const uint32_t n = 100003;
   float *f = malloc((size_t)n * 16);
   const uint32_t nb = n + 70000;
   uint8_t *b = malloc((size_t)nb * 4);
   REQUIRE(f && b);
   for (uint32_t i = 0; i < 4 * n; i++)
      f[i] = (float)(int32_t)rng() / 1024.0f;
   for (uint32_t i = 0; i < 4 * nb; i++)
      b[i] = (uint8_t)rng();
   struct ppu_texture_header hf, hb;
   uint64_t tf = buffer_view(PPU_TEX_FORMAT_R32G32B32A32_SFLOAT, n, f, &hf);
   uint64_t tb = buffer_view(PPU_TEX_FORMAT_R8G8B8A8_UNORM, nb, b, &hb);
   for (uint32_t t = 0; t < 256; t++) {
      memset(in[t], 0xcd, sizeof(in[t])); /* words past the index are not read */
      in[t][0] = (uint32_t)index_of(t, n);
   }
   if (tt_run(&h, "TLD.BUFFER.F32 R4, R0, R8, off[0:0:0]", tf, 0, in, 256, out, false, NULL,
              NULL)) {
      unsigned bad = 0;
      for (uint32_t t = 0; t < 256; t++) {
         int32_t i = (int32_t)in[t][0];
         bool inside = i >= 0 && (uint32_t)i < n;
         for (unsigned c = 0; c < 4; c++) {
            uint32_t want = inside ? u32_of(f[(size_t)i * 4 + c]) : 0;
            if (out[t][c] != want && bad++ < 4)
               CHECK_MSG(false, "rgba32f thread %u index %d comp %u: 0x%08x want 0x%08x", t, i, c,
                         out[t][c], want);
         }
      }
      CHECK_EQ_U64(bad, 0);
   }
   /* RGBA8 UNORM over 170003 elements: c / 255 of the byte in memory. */
   for (uint32_t t = 0; t < 256; t++)
      in[t][0] = (uint32_t)index_of(t, nb);
   if (tt_run(&h, "TLD.BUFFER.F32 R4, R0, R8, off[0:0:0]", tb, 0, in, 256, out, false, NULL,
              NULL)) {
      unsigned bad = 0;
      for (uint32_t t = 0; t < 256; t++) {
         int32_t i = (int32_t)in[t][0];
         bool inside = i >= 0 && (uint32_t)i < nb;
         for (unsigned c = 0; c < 4; c++) {
            float want = inside ? (float)b[(size_t)i * 4 + c] / 255.0f : 0.0f;
            if (f32_of(out[t][c]) != want && bad++ < 4)
               CHECK_MSG(false, "rgba8 thread %u index %d comp %u: %g want %g", t, i, c,
                         f32_of(out[t][c]), want);
         }
      }
      CHECK_EQ_U64(bad, 0);
   }
   free(f);
   free(b);
   hwc_finish(&h);
}

TEST_CASE(sust_suld_round_trip_on_a_buffer_and_drop_stores_beyond_it)
{
   REQUIRE(start());
   const uint32_t n = 131075;
   uint8_t *zero = calloc(n, 16);
   REQUIRE(zero);
   struct ppu_texture_header hd;
   uint64_t tex = buffer_view(PPU_TEX_FORMAT_R32G32B32A32_SFLOAT, n, zero, &hd);
   /* Thread t stores (t, -t, t / 4, 1) at its index, then loads it back. */
   const char *prog = "CVT.RN.F32.U32 R4, R62\n"
                      "FMUL.F32 R5, R4, -1.0f\n"
                      "FMUL.F32 R6, R4, 0.25f\n"
                      "MOV R7, 1.0f\n"
                      "SUST.P.BUFFER.F32 R0, R8, R4\n"
                      "MEMBAR.GL\n"
                      "SULD.P.BUFFER.F32 R4, R0, R8";
   for (uint32_t t = 0; t < 256; t++) {
      memset(in[t], 0, sizeof(in[t]));
      in[t][0] = (uint32_t)index_of(t, n);
   }
   if (tt_run(&h, prog, tex, 0, in, 256, out, false, NULL, NULL)) {
      float *mem = malloc((size_t)n * 16);
      REQUIRE(mem);
      hwt_read(&h.t.mem, h.t.pd, hd.address, mem, (uint64_t)n * 16);
      unsigned bad = 0;
      for (uint32_t t = 0; t < 256; t++) {
         int32_t i = (int32_t)in[t][0];
         bool inside = i >= 0 && (uint32_t)i < n;
         float want[4] = {(float)t, -(float)t, (float)t * 0.25f, 1.0f};
         for (unsigned c = 0; c < 4; c++) {
            float w = inside ? want[c] : 0.0f;
            if (f32_of(out[t][c]) != w && bad++ < 4)
               CHECK_MSG(false, "thread %u comp %u: %g want %g", t, c, f32_of(out[t][c]), w);
            if (inside && mem[(size_t)i * 4 + c] != want[c] && bad++ < 4)
               CHECK_MSG(false, "memory of index %d comp %u: %g", i, c, mem[(size_t)i * 4 + c]);
         }
      }
      CHECK_EQ_U64(bad, 0);
      /* The guard bytes right after the buffer are untouched. */
      uint8_t guard[64];
      hwt_read(&h.t.mem, h.t.pd, hd.address + (uint64_t)n * 16, guard, sizeof(guard));
      for (unsigned i = 0; i < sizeof(guard); i++)
         CHECK_EQ_U64(guard[i], 0xee);
      free(mem);
   }
   /* Raw RGBA8 stores (SUST.B) land byte for byte. */
   struct ppu_texture_header h8;
   uint64_t t8 = buffer_view(PPU_TEX_FORMAT_R8G8B8A8_UNORM, n, zero, &h8);
   if (tt_run(&h, "MOV R4, R62\nSUST.B.BUFFER.U32 R0, R8, R4\nMOV R4, 0", t8, 0, in, 256, out,
              false, NULL, NULL)) {
      for (uint32_t t = 0; t < 250; t++) {
         uint32_t got;
         hwt_read(&h.t.mem, h.t.pd, h8.address + (uint64_t)in[t][0] * 4, &got, 4);
         CHECK_EQ_U64(got, t);
      }
   }
   free(zero);
   hwc_finish(&h);
}

TEST_CASE(image_atomics_on_a_buffer_are_exact_and_ignore_indices_beyond_it)
{
   REQUIRE(start());
   const uint32_t n = 100000;
   uint32_t *init = calloc(n, 4);
   REQUIRE(init);
   struct ppu_texture_header hd;
   uint64_t tex = buffer_view(PPU_TEX_FORMAT_R32_UINT, n, init, &hd);
   /* Every thread adds 1 to element 99999 and t + 1 to its own index. */
   const char *prog = "MOV R20, 1\n"
                      "MOV R9, 99999\n"
                      "SUATOM.ADD.BUFFER.U32 R4, R0, R9, R20\n"
                      "IADD.U32 R20, R62, 1\n"
                      "SUATOM.ADD.BUFFER.U32 R4, R0, R8, R20";
   for (uint32_t t = 0; t < 256; t++) {
      memset(in[t], 0, sizeof(in[t]));
      in[t][0] = t < 250 ? t * 397u : (uint32_t)index_of(t, n);
   }
   if (tt_run(&h, prog, tex, 0, in, 256, out, false, NULL, NULL)) {
      uint32_t *mem = malloc((size_t)n * 4);
      REQUIRE(mem);
      hwt_read(&h.t.mem, h.t.pd, hd.address, mem, (uint64_t)n * 4);
      uint32_t *want = calloc(n, 4);
      REQUIRE(want);
      want[99999] = 256;
      for (uint32_t t = 0; t < 256; t++) {
         int32_t i = (int32_t)in[t][0];
         bool inside = i >= 0 && (uint32_t)i < n;
         uint32_t old = inside ? want[i] : 0;
         if (inside)
            want[i] += t + 1;
         /* Indices are distinct except 0 (threads 0 and 255) and 99999
          * (thread 250 and everyone's +1), whose order between workgroups
          * is free: their sums are checked below. */
         if (i != 0 && i != 99999)
            CHECK_MSG(out[t][0] == old, "thread %u old %u want %u", t, out[t][0], old);
      }
      CHECK_MSG(memcmp(mem, want, (size_t)n * 4) == 0, "buffer contents after the atomics");
      free(mem);
      free(want);
   }
   free(init);
   hwc_finish(&h);
}

TEST_CASE(txq_gives_the_element_count_and_one_level)
{
   REQUIRE(start());
   const uint32_t n = 1u << 27; /* the largest buffer: only its header is read */
   struct ppu_texture_header hd;
   memset(&hd, 0, sizeof(hd));
   hd.format = PPU_TEX_FORMAT_R8_UINT;
   hd.dim = PPU_TEX_DIM_BUFFER;
   hd.swizzle = PPU_TEX_SWIZZLE_IDENTITY;
   hd.width = n;
   hd.height = hd.depth = 1;
   hd.image_levels = hd.level_count = 1;
   hd.layer_count = 1;
   hd.address = 0x1000;
   uint64_t tex = tt_upload(&h, &hd, sizeof(hd));
   for (uint32_t t = 0; t < 32; t++)
      in[t][0] = t * 5; /* a level word: a buffer has none, it is ignored */
   if (tt_run(&h, "TXQ.SIZE.BUFFER.U32 R4, R0, R8", tex, 0, in, 32, out, false, NULL, NULL))
      for (uint32_t t = 0; t < 32; t++) {
         CHECK_EQ_U64(out[t][0], n);
         CHECK_EQ_U64(out[t][1] | out[t][2] | out[t][3], 0);
      }
   if (tt_run(&h, "TXQ.LEVELS.BUFFER.U32 R4, R0, R8", tex, 0, in, 32, out, false, NULL, NULL))
      CHECK_EQ_U64(out[7][0], 1);
   hwc_finish(&h);
}

static void expect_fault(const char *insn, uint64_t tex, enum ppu_fault_kind kind, const char *what)
{
   struct ppu_fault f;
   uint64_t pc = 0;
   for (uint32_t t = 0; t < 32; t++)
      memset(in[t], 0, sizeof(in[t]));
   bool ok = tt_run(&h, insn, tex, 0, in, 32, out, true, &f, &pc);
   CHECK_MSG(!ok && f.kind == kind && f.pc == pc, "%s: %s (want %s): %s", what,
             ok ? "no fault" : ppu_fault_kind_name(f.kind), ppu_fault_kind_name(kind), f.detail);
   REQUIRE(hwt_channel_restart(&h.c, "compute"));
}

TEST_CASE(bad_buffer_headers_and_mismatched_view_types_fault_bad_texture_header)
{
   REQUIRE(start());
   uint8_t data[64 * 4] = {0};
   struct ppu_texture_header good;
   uint64_t good_va = buffer_view(PPU_TEX_FORMAT_R8G8B8A8_UNORM, 64, data, &good);
   struct ppu_texture_header e[10];
   for (unsigned i = 0; i < 10; i++)
      e[i] = good;
   e[0].layout = PPU_TEX_LAYOUT_BLOCK_LINEAR;
   e[1].width = 0;
   e[2].width = (1u << 27) + 1;
   e[3].height = 2;
   e[4].image_levels = e[4].level_count = 2;
   e[5].layer_count = 2;
   e[6].flags = PPU_TEX_FLAG_ARRAY;
   e[7].format = PPU_TEX_FORMAT_BC1_RGB_UNORM;
   e[8].address += 2; /* not aligned to the 4-byte texel */
   e[9].dim = 5;
   for (unsigned i = 0; i < 10; i++) {
      uint64_t va = tt_upload(&h, &e[i], sizeof(e[i]));
      char what[48];
      snprintf(what, sizeof(what), "bad buffer header %u", i);
      expect_fault("TLD.BUFFER.F32 R4, R0, R8, off[0:0:0]", va, PPU_FAULT_BAD_TEXTURE_HEADER, what);
   }
   /* A buffer header through a 1D instruction, a 1D header through a
    * buffer instruction. */
   expect_fault("TLD.1D.F32 R4, R0, R8, off[0:0:0]", good_va, PPU_FAULT_BAD_TEXTURE_HEADER,
                "buffer header, 1D view type");
   expect_fault("SULD.P.1D.F32 R4, R0, R8", good_va, PPU_FAULT_BAD_TEXTURE_HEADER,
                "buffer header, 1D SULD");
   struct ppu_texture_header one_d;
   tt_header(&one_d, PPU_TEX_FORMAT_R8G8B8A8_UNORM, PPU_TEX_DIM_1D, 64, 1, 1, 1, 1);
   uint64_t one_d_va = tt_image(&h, &one_d);
   expect_fault("TLD.BUFFER.F32 R4, R0, R8, off[0:0:0]", one_d_va, PPU_FAULT_BAD_TEXTURE_HEADER,
                "1D header, buffer view type");
   expect_fault("SUATOM.ADD.BUFFER.U32 R4, R0, R8, R20", good_va, PPU_FAULT_BAD_TEXTURE_HEADER,
                "atomic on an rgba8 buffer");
   hwc_finish(&h);
}

/* TEX and TLD4 never take a buffer, nor does any instruction take texel
 * offsets on one: such encodings are illegal (the SM faults
 * ILLEGAL_INSTRUCTION at fetch; the assembler refuses them). TLD, TXQ and
 * the SU instructions take it, with the vector lengths docs/isa.md gives,
 * and the disassembler prints the mode. */
TEST_CASE(tex_tld4_and_offsets_on_buffers_are_illegal_encodings)
{
   struct {
      enum ppu_op op;
      uint32_t imm;
      bool legal;
      unsigned words;
   } cases[] = {
       {PPU_OP_TEX, 0, false, 0}, {PPU_OP_TLD4, 0, false, 0},  {PPU_OP_TLD, 0x001u, false, 0},
       {PPU_OP_TLD, 0, true, 1},  {PPU_OP_TXQ, 0, true, 1},    {PPU_OP_SULD, 0, true, 1},
       {PPU_OP_SUST, 0, true, 1}, {PPU_OP_SUATOM, 0, true, 1},
   };
   for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      struct ppu_insn_fields f, g;
      ppu_insn_fields_init(&f, cases[i].op);
      f.mode = PPU_TEXDIM_BUFFER;
      f.imm = cases[i].imm;
      f.type = cases[i].op == PPU_OP_TXQ ? PPU_TYPE_U32 : PPU_TYPE_F32;
      if (cases[i].op == PPU_OP_SUATOM)
         f.type = PPU_TYPE_U32;
      uint32_t w[PPU_INSN_WORDS];
      ppu_insn_encode(&f, w);
      const char *why = NULL;
      bool legal = ppu_insn_decode(w, &g, &why);
      CHECK_MSG(legal == cases[i].legal, "case %u (%s): legal %d: %s", i, ppu_op_name(f.op), legal,
                why ? why : "");
      if (legal) {
         CHECK_EQ_U64(ppu_tex_coord_words(&g), cases[i].words);
         char text[128];
         ppu_disasm_insn(w, text, sizeof(text));
         CHECK_MSG(strstr(text, ".BUFFER") != NULL, "disassembly '%s'", text);
      }
   }
   /* The assembler refuses it; the running SM faults at its PC. */
   uint32_t words[8 * PPU_INSN_WORDS];
   size_t count = 0;
   char err[256];
   CHECK(!ppu_asm("TEX.LZ.BUFFER.F32 R4, R0, R2, R8, off[0:0:0]\n", words, 8, &count, err,
                  sizeof(err)));
   REQUIRE(hwc_init(&h, NULL));
   REQUIRE(ppu_asm("EXIT\nEXIT\n", words, 8, &count, err, sizeof(err)));
   struct ppu_insn_fields f;
   ppu_insn_fields_init(&f, PPU_OP_TEX);
   f.mode = PPU_TEXDIM_BUFFER;
   f.type = PPU_TYPE_F32;
   ppu_insn_encode(&f, words);
   uint64_t prog = hwt_alloc_mapped(&h.t, 4096, false);
   hwt_write(&h.t.mem, h.t.pd, prog, words, count * PPU_INSN_BYTES);
   struct ppu_qmd q;
   hwc_qmd_defaults(&h, &q, prog);
   q.workgroup_size[0] = 32;
   q.grid_size[0] = 1;
   struct ppu_fault fault;
   memset(&fault, 0, sizeof(fault));
   CHECK(!hwc_launch(&h, &q, 0, &fault));
   CHECK_MSG(fault.kind == PPU_FAULT_ILLEGAL_INSTRUCTION && fault.pc == prog, "%s at 0x%llx",
             ppu_fault_kind_name(fault.kind), (unsigned long long)fault.pc);
   hwc_finish(&h);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
