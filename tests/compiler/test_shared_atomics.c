/* Shared memory with barriers (reductions, scans) and atomics under
 * contention, on buffers and on shared memory. */
#include <string.h>

#include "compiler_test_util.h"
#include "test_harness.h"

static uint32_t rng_state = 777;
static uint32_t rnd(void)
{
   rng_state = rng_state * 1664525u + 1013904223u;
   return rng_state >> 8;
}

static bool run2(const char *shader, void *out, uint32_t out_bytes, const void *in,
                 uint32_t in_bytes, uint32_t groups)
{
   struct ctu t;
   if (!ctu_init(&t))
      return false;
   uint64_t ob = ctu_buffer(&t, out, out_bytes), ib = ctu_buffer(&t, in, in_bytes);
   struct ctu_dispatch d = {.shader = shader, .groups = {groups}};
   ctu_bind(&d, 0, 0, ob, out_bytes);
   ctu_bind(&d, 0, 1, ib, in_bytes ? in_bytes : 16);
   bool ok = ctu_run(&t, &d);
   if (ok)
      ctu_read(&t, ob, out, out_bytes);
   ctu_finish(&t);
   return ok;
}

TEST_CASE(shared_memory_tree_reduction)
{
   enum { G = 6 };
   static uint32_t in[256 * G], out[G];
   for (int i = 0; i < 256 * G; i++)
      in[i] = rnd() % 100000;
   REQUIRE(run2("shared_reduction", out, sizeof(out), in, sizeof(in), G));
   for (int g = 0; g < G; g++) {
      uint32_t s = 0;
      for (int k = 0; k < 256; k++)
         s += in[g * 256 + k];
      CHECK_MSG(out[g] == s, "group %d got %u want %u", g, out[g], s);
   }
}

TEST_CASE(shared_memory_inclusive_scan)
{
   enum { G = 3 };
   static uint32_t in[128 * G], out[128 * G];
   for (int i = 0; i < 128 * G; i++)
      in[i] = rnd() % 1000;
   REQUIRE(run2("shared_scan", out, sizeof(out), in, sizeof(in), G));
   for (int g = 0; g < G; g++) {
      uint32_t s = 0;
      for (int k = 0; k < 128; k++) {
         s += in[g * 128 + k];
         CHECK_MSG(out[g * 128 + k] == s, "group %d k %d got %u want %u", g, k, out[g * 128 + k],
                   s);
      }
   }
}

TEST_CASE(contended_atomic_add_hands_out_unique_tickets)
{
   enum { N = 64 * 8 };
   static uint32_t buf[1 + N];
   memset(buf, 0, sizeof(buf));
   REQUIRE(run2("atomic_counter", buf, sizeof(buf), NULL, 0, N / 64));
   CHECK_EQ_U64(buf[0], N);
   static bool seen[N + 1];
   memset(seen, 0, sizeof(seen));
   for (int k = 0; k < N; k++) {
      uint32_t v = buf[1 + k];
      CHECK_MSG(v >= 1 && v <= N && !seen[v], "ticket %d holds %u", k, v);
      if (v >= 1 && v <= N)
         seen[v] = true;
   }
}

TEST_CASE(buffer_atomics_of_every_kind)
{
   enum { N = 64 * 4 };
   struct {
      int32_t smin, smax;
      uint32_t umin, umax, andv, orv, xorv, exch, cas;
      int32_t sub;
   } r = {1000, -1000, 0xffffffffu, 0, 0xffffffffu, 0, 0x5a5a5a5au, 0, 0, 10};
   REQUIRE(run2("atomic_ops", &r, sizeof(r), NULL, 0, N / 64));
   uint32_t x = 0x5a5a5a5au;
   for (uint32_t i = 0; i < N; i++)
      x ^= i;
   CHECK_EQ_U64((uint32_t)r.smin, (uint32_t)-100);
   CHECK_EQ_U64((uint32_t)r.smax, (uint32_t)(N - 1 - 100));
   CHECK_EQ_U64(r.umin, 5);
   CHECK_EQ_U64(r.umax, (N - 1) * 3);
   CHECK_EQ_U64(r.andv, 0);
   CHECK_EQ_U64(r.orv, 0xffffffffu);
   CHECK_EQ_U64(r.xorv, x);
   CHECK_EQ_U64(r.exch, 42);
   CHECK_MSG(r.cas >= 1 && r.cas <= N, "cas holds %u", r.cas);
   CHECK_EQ_U64((uint32_t)r.sub, (uint32_t)(10 - 2 * N));
}

TEST_CASE(shared_memory_atomics_histogram)
{
   enum { G = 4 };
   static uint32_t in[128 * G], hist[16];
   uint32_t want[16] = {0};
   for (int i = 0; i < 128 * G; i++) {
      in[i] = rnd();
      want[in[i] % 16]++;
   }
   memset(hist, 0, sizeof(hist));
   REQUIRE(run2("shared_atomics", hist, sizeof(hist), in, sizeof(in), G));
   for (int k = 0; k < 16; k++)
      CHECK_MSG(hist[k] == want[k], "bin %d got %u want %u", k, hist[k], want[k]);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
