/* The optimizer's copy elimination around promoted Function variables
 * (optimize.c: forward_variable_reads, coalesce_variable_writes): a
 * fixed-point Mandelbrot loop keeps no register-to-register MOV in its
 * body (nor a compare's bool tested again, drop_bool_round_trips), and the hazards the passes must
 * respect (a copy whose source is rewritten before the copy is read, a variable read between the
 * definition of its new value and the store) give C's results. */
#include <stdlib.h>
#include <string.h>

#include "compiler_test_util.h"
#include "ppu/isa.h"
#include "test_harness.h"

#define THREADS 128u

static void reference(int32_t cx, int32_t cy, int32_t out[4])
{
   int32_t x = 0, y = 0, n = 0;
   for (; n < 64; n++) {
      int32_t xx = (int32_t)((uint32_t)x * (uint32_t)x) >> 12;
      int32_t yy = (int32_t)((uint32_t)y * (uint32_t)y) >> 12;
      if (xx + yy > 16384)
         break;
      int32_t xy = (int32_t)((uint32_t)x * (uint32_t)y) >> 11;
      x = xx - yy + cx;
      y = xy + cy;
   }
   int32_t a = x;
   x = (int32_t)((uint32_t)x * 3u) + n;
   int32_t b = a + x;
   int32_t t = (int32_t)((uint32_t)y * 5u);
   int32_t old = y;
   y = t;
   out[0] = n;
   out[1] = b;
   out[2] = y + old;
   out[3] = x;
}

TEST_CASE(results_match_c_around_rewritten_variables)
{
   int32_t in[2 * THREADS], out[4 * THREADS], want[4 * THREADS];
   for (uint32_t i = 0; i < THREADS; i++) {
      /* c over [-2, 1] x [-1.25, 1.25] in 4.12 fixed point: some points
       * escape at once, some stay for all 64 iterations. */
      in[2 * i] = -8192 + (int32_t)(i % 16u) * 768;
      in[2 * i + 1] = -5120 + (int32_t)(i / 16u) * 1280;
      reference(in[2 * i], in[2 * i + 1], &want[4 * i]);
   }
   memset(out, 0, sizeof(out));
   struct ctu t;
   CHECK(ctu_init(&t));
   uint64_t ob = ctu_buffer(&t, out, sizeof(out)), ib = ctu_buffer(&t, in, sizeof(in));
   struct ctu_dispatch d = {.shader = "variable_copies", .groups = {THREADS / 64u}};
   ctu_bind(&d, 0, 0, ob, sizeof(out));
   ctu_bind(&d, 0, 1, ib, sizeof(in));
   CHECK(ctu_run(&t, &d));
   ctu_read(&t, ob, out, sizeof(out));
   ctu_finish(&t);
   for (uint32_t i = 0; i < 4 * THREADS; i++)
      CHECK_EQ_U64((uint64_t)(uint32_t)out[i], (uint64_t)(uint32_t)want[i]);
}

TEST_CASE(loop_body_keeps_no_register_copies)
{
   size_t count = 0;
   uint32_t *words = ctu_load_spirv("variable_copies", &count);
   CHECK(words != NULL);
   struct drv_binding_layout layouts[2] = {
       {.set = 0,
        .binding = 0,
        .kind = DRV_BINDING_STORAGE_BUFFER,
        .offset = 0,
        .dynamic_index = -1},
       {.set = 0,
        .binding = 1,
        .kind = DRV_BINDING_STORAGE_BUFFER,
        .offset = 64,
        .dynamic_index = -1},
   };
   struct drv_pipeline_abi abi = {layouts, 2, 0, false};
   struct drv_compile_request req = {.spirv = words,
                                     .word_count = count,
                                     .entry_point = "main",
                                     .abi = &abi,
                                     .max_registers = 255};
   struct drv_shader_binary bin;
   char err[256] = "";
   int rc = drv_compile_compute(&req, &bin, err, sizeof(err));
   free(words);
   if (rc)
      test_fail(__FILE__, __LINE__, "%s", err);
   CHECK_EQ_U64(rc, 0);
   uint32_t n = bin.code_words / PPU_INSN_WORDS, moves = 0, bool_round_trips = 0, body = 0;
   bool in_loop = false, seen_loop = false;
   for (uint32_t k = 0; k < n; k++) {
      struct ppu_insn_fields f;
      const char *why = NULL;
      CHECK(ppu_insn_decode(&bin.code[k * PPU_INSN_WORDS], &f, &why));
      if (f.op == PPU_OP_PCNT && !seen_loop) {
         in_loop = seen_loop = true;
         continue;
      }
      if (!in_loop)
         continue;
      if (f.op == PPU_OP_CONT)
         break;
      body++;
      if (f.op == PPU_OP_MOV && !f.b_imm)
         moves++;
      if (f.op == PPU_OP_SEL && f.ps == (0 | PPU_PRED_NEG))
         bool_round_trips++;
   }
   drv_shader_binary_free(&bin);
   CHECK(seen_loop);
   /* Before the passes the body was 45 instructions, 21 of them copies,
    * and each branch on a compare turned P0 into a bool and back (2
    * more), and a BRA jumped to the next instruction: now 19. */
   CHECK_EQ_U64(moves, 0);
   CHECK_EQ_U64(bool_round_trips, 0);
   CHECK(body <= 20);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
