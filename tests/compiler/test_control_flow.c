/* Structured control flow under divergence: if/else, loops, switch, early
 * return, inlined functions, short-circuit phis. */
#include <string.h>

#include "compiler_test_util.h"
#include "test_harness.h"

/* Runs shader with binding 0 = out (zeroed) and optional binding 1, with
 * at most max_registers registers (0: all). */
static bool run_limited(const char *shader, void *out, uint32_t out_bytes, uint32_t groups,
                        void *aux, uint32_t aux_bytes, uint32_t max_registers)
{
   struct ctu t;
   if (!ctu_init(&t))
      return false;
   uint64_t ob = ctu_buffer(&t, NULL, out_bytes), ab = ctu_buffer(&t, aux, aux_bytes);
   struct ctu_dispatch d = {.shader = shader, .groups = {groups}, .max_registers = max_registers};
   ctu_bind(&d, 0, 0, ob, out_bytes);
   ctu_bind(&d, 0, 1, ab, aux_bytes ? aux_bytes : 16);
   bool ok = ctu_run(&t, &d);
   if (ok) {
      ctu_read(&t, ob, out, out_bytes);
      if (aux_bytes)
         ctu_read(&t, ab, aux, aux_bytes);
   }
   ctu_finish(&t);
   return ok;
}

static bool run_out(const char *shader, void *out, uint32_t out_bytes, uint32_t groups, void *aux,
                    uint32_t aux_bytes)
{
   return run_limited(shader, out, out_bytes, groups, aux, aux_bytes, 0);
}

TEST_CASE(if_else_chains_diverge_and_reconverge)
{
   static int32_t out[256];
   REQUIRE(run_out("if_else_divergent", out, sizeof(out), 2, NULL, 0));
   for (int i = 0; i < 256; i++) {
      int r;
      if ((i & 1) == 0) {
         r = i * 3;
         r += (i & 2) ? 1000 : -7;
      } else if (i % 3 == 0) {
         r = -i;
      } else {
         r = i + 5;
      }
      if (i > 200)
         r *= 2;
      CHECK_MSG(out[i] == r, "i=%d got %d want %d", i, out[i], r);
   }
}

TEST_CASE(nested_loops_with_break_and_continue)
{
   static uint32_t out[256];
   REQUIRE(run_out("nested_loops", out, sizeof(out), 4, NULL, 0));
   for (uint32_t i = 0; i < 256; i++) {
      uint32_t sum = 0;
      for (uint32_t a = 0; a < (i % 7) + 1; a++) {
         if (a == 5)
            continue;
         for (uint32_t b = 0; b < 10; b++) {
            if (b > a + (i & 3))
               break;
            if (((a + b) & 1) == 1)
               continue;
            sum += a * 10 + b;
         }
         if (sum > 200 + i)
            break;
      }
      CHECK_MSG(out[i] == sum, "i=%u got %u want %u", i, out[i], sum);
   }
}

TEST_CASE(switch_with_fallthrough_in_loop)
{
   static int32_t out[128];
   REQUIRE(run_out("switch_fallthrough", out, sizeof(out), 2, NULL, 0));
   for (int i = 0; i < 128; i++) {
      int r = 0;
      for (int k = 0; k < 3; k++) {
         switch ((i + k) % 6) {
         case 0:
            r += 1;
            /* fall through */
         case 1:
            r += 10;
            break;
         case 2:
         case 3:
            r += 100;
            break;
         case 5:
            r -= 1000;
            continue;
         default:
            r += 7;
         }
         r *= 2;
      }
      CHECK_MSG(out[i] == r, "i=%d got %d want %d", i, out[i], r);
   }
}

TEST_CASE(early_return_at_any_depth)
{
   static uint32_t out[128];
   REQUIRE(run_out("early_return", out, sizeof(out), 2, NULL, 0));
   for (uint32_t i = 0; i < 128; i++) {
      uint32_t v = 1;
      bool done = i % 5 == 0;
      for (uint32_t k = 0; k < 8 && !done; k++) {
         if (k == i % 8 && (i & 1)) {
            done = true;
            break;
         }
         v += k;
      }
      if (!done)
         v += 100;
      CHECK_MSG(out[i] == v, "i=%u got %u want %u", i, out[i], v);
   }
}

static int collatz_steps(int n)
{
   int steps = 0;
   while (n != 1) {
      if (steps > 50)
         return -1;
      n = (n % 2 == 0) ? n / 2 : 3 * n + 1;
      steps++;
   }
   return steps;
}

TEST_CASE(inlined_functions_with_early_returns_and_out_params)
{
   static int32_t out[64 * 3 * 2];
   REQUIRE(run_out("function_calls", out, sizeof(out), 2, NULL, 0));
   for (int i = 0; i < 128; i++) {
      int s = collatz_steps(i + 1);
      /* % is OpSMod in glslang's output: the remainder takes the divisor's sign. */
      int lo = ((s % 10) + 10) % 10;
      int cls = i < 10 ? 1 : i < 20 ? 2 + collatz_steps(i) : 3;
      CHECK_MSG(out[i * 3] == s / 10 && out[i * 3 + 1] == lo && out[i * 3 + 2] == cls,
                "i=%d got %d %d %d want %d %d %d", i, out[i * 3], out[i * 3 + 1], out[i * 3 + 2],
                s / 10, lo, cls);
   }
}

TEST_CASE(while_and_do_while_loops)
{
   static uint32_t out[192];
   REQUIRE(run_out("while_dowhile", out, sizeof(out), 2, NULL, 0));
   for (uint32_t i = 0; i < 192; i++) {
      uint32_t n = (uint32_t)__builtin_popcount(i), m = 0, y = i;
      do {
         y /= 3;
         m++;
      } while (y > 0);
      CHECK_MSG(out[i] == n * 100 + m, "i=%u got %u want %u", i, out[i], n * 100 + m);
   }
}

TEST_CASE(short_circuit_evaluates_only_needed_operands)
{
   static uint32_t out[64], calls[64];
   REQUIRE(run_out("short_circuit_phi", out, sizeof(out), 1, calls, sizeof(calls)));
   for (uint32_t i = 0; i < 64; i++) {
      uint32_t n = 1, r = 0;
      if (i & 1) {
         n++;
         if (i & 2)
            r |= 1;
      }
      n++;
      if (i & 4) {
         r |= 2;
      } else {
         n++;
         if (i & 8)
            r |= 2;
      }
      if (i > 10 && i < 50)
         r |= 4;
      CHECK_MSG(out[i] == r && calls[i] == n, "i=%u got r=%u calls=%u want %u %u", i, out[i],
                calls[i], r, n);
   }
}

TEST_CASE(switch_break_from_nested_if_and_loop)
{
   static int32_t out[128];
   REQUIRE(run_out("switch_nested_break", out, sizeof(out), 2, NULL, 0));
   for (int i = 0; i < 128; i++) {
      int r = 0;
      switch (i % 5 - 2) {
      case -2:
         r = 1;
         if ((i & 1) == 1)
            break;
         r += 10;
         break;
      case -1:
      case 0:
         for (int k = 0; k < i % 4; k++) {
            if (k == 2)
               break;
            r += 100;
         }
         if (i > 30) {
            r += 5;
            break;
         }
         r += 7;
         /* fall through */
      case 1:
         r += 1000;
         break;
      default:
         r = -i;
      }
      CHECK_MSG(out[i] == r, "i=%d got %d want %d", i, out[i], r);
   }
}

TEST_CASE(loop_break_from_inside_switches)
{
   static int32_t out[128];
   REQUIRE(run_out("loop_break_in_switch", out, sizeof(out), 2, NULL, 0));
   for (int i = 0; i < 128; i++) {
      int r = 0;
      for (int outer = 0; outer < 3; outer++) {
         int code = 0; /* the OpPhi of the inner loop's merge */
         for (int k = 0; k < 8; k++) {
            switch ((i + k + outer) % 5) {
            case 0:
               r += 1;
               break;
            case 1:
               if ((i & 3) == outer) {
                  r += 1000;
                  code = 1;
                  goto inner_done;
               }
               r += 10;
               break;
            case 2:
               if ((i & 1) == 0) {
                  if (k > (i & 7)) {
                     r += 50000;
                     code = 3;
                     goto inner_done;
                  }
                  r += 100;
               } else {
                  r += 3;
               }
               r += 7;
               break;
            default:
               r += 20;
            }
            r = r * 3 % 1000003;
         }
      inner_done:
         r += 100000 + code;
      }
      CHECK_MSG(out[i] == r, "i=%d got %d want %d", i, out[i], r);
   }
}

TEST_CASE(loop_whose_continue_target_is_its_header)
{
   static uint32_t out[128];
   REQUIRE(run_out("loop_continue_is_header", out, sizeof(out), 2, NULL, 0));
   for (uint32_t i = 0; i < 128; i++) {
      uint32_t n = i + 1, steps = 0;
      do {
         n = (n & 1) ? 3 * n + 1 : n / 2;
         steps++;
      } while (n > 1 && steps < 200);
      uint32_t bits = 0, x = steps;
      do {
         x >>= 1;
         bits++;
      } while (x != 0);
      CHECK_MSG(out[i] == (steps << 8 | bits), "i=%u got %#x want %#x", i, out[i],
                steps << 8 | bits);
   }
}

/* deep_loops.comp's LOOP, nested `depth` deep around its body. */
static void deep_loops(int depth, int id, int bound, int *count, int *a)
{
   if (depth == 0) {
      if ((*count & 7) == (id & 7))
         *a += 100;
      return;
   }
   for (int i = 0; i < 2 && *count < bound; i++, (*count)++, (*a)++)
      deep_loops(depth - 1, id, bound, count, a);
}

TEST_CASE(forty_nested_loops)
{
   static int32_t out[128];
   REQUIRE(run_out("deep_loops", out, sizeof(out), 2, NULL, 0));
   for (int id = 0; id < 128; id++) {
      int count = 0, a = 0;
      deep_loops(40, id, id % 50 + 30, &count, &a);
      CHECK_MSG(out[id] == a * 1000 + count, "id=%d got %d want %d", id, out[id], a * 1000 + count);
   }
}

/* With 6 registers, values live across branches, loop back edges,
 * breaks out of switches and inlined returns are spilled to local memory;
 * the results must not change (those with all registers are checked
 * against C above). */
TEST_CASE(control_flow_with_spilled_values)
{
   static const char *const shaders[] = {"nested_loops",         "switch_fallthrough",
                                         "loop_break_in_switch", "function_calls",
                                         "early_return",         "deep_loops"};
   static uint32_t all[384], few[384];
   for (size_t k = 0; k < sizeof(shaders) / sizeof(shaders[0]); k++) {
      REQUIRE(run_limited(shaders[k], all, sizeof(all), 2, NULL, 0, 0));
      REQUIRE(run_limited(shaders[k], few, sizeof(few), 2, NULL, 0, 6));
      for (uint32_t i = 0; i < 384; i++)
         CHECK_MSG(all[i] == few[i], "%s [%u]: %u with 6 registers, %u with all", shaders[k], i,
                   few[i], all[i]);
   }
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
