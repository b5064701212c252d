/* Fuzzing the host interface and engines with garbage: random GPFIFO
 * entries and pushbuffers (half pure noise, half plausible headers with
 * random data aimed at real buffers), and random page tables. Fixed seeds,
 * bounded time. Every run must end in one of three ways: it finishes, its
 * channel faults with a well-formed record, or it waits on an ACQUIRE_GEQ
 * that garbage made unreachable. Never a crash or a hang. */
#include <stdio.h>
#include <string.h>

#include "hw_test_util.h"
#include "test_harness.h"

#define TEST_VRAM (64ull << 20)
#define SCRATCH_BYTES (256u << 10)
#define FUZZ_BUDGET_NS 4000000000ull /* the whole test stays under ~5 s */

struct rng {
   uint64_t s;
};

static uint32_t rng_next(struct rng *r)
{
   /* xorshift64*: fixed, portable sequence per seed. */
   r->s ^= r->s >> 12;
   r->s ^= r->s << 25;
   r->s ^= r->s >> 27;
   return (uint32_t)((r->s * 2685821657736338717ull) >> 32);
}

static uint32_t rng_below(struct rng *r, uint32_t n)
{
   return rng_next(r) % n;
}

struct fuzz_env {
   struct hwt t;
   uint64_t scratch, readonly;
};

/* A data word that is often an address in or near a real buffer. */
static uint32_t plausible_data(struct fuzz_env *e, struct rng *r, struct hwt_channel *c)
{
   switch (rng_below(r, 8)) {
   case 0:
      return rng_next(r);
   case 1:
      return rng_below(r, 16);
   case 2:
      return (uint32_t)(e->scratch + rng_below(r, SCRATCH_BYTES + 8192));
   case 3:
      return (uint32_t)(e->scratch >> 32);
   case 4:
      return (uint32_t)(e->readonly + rng_below(r, PPU_PAGE_SIZE));
   case 5:
      return (uint32_t)(c->gpfifo_va + 8 * rng_below(r, c->entries));
   case 6:
      return rng_below(r, SCRATCH_BYTES) & ~3u;
   default:
      return 1u << rng_below(r, 32);
   }
}

static uint32_t plausible_method(struct rng *r, uint32_t subch)
{
   static const uint32_t host[] = {PPU_HOST_NOP,
                                   PPU_HOST_SEM_ADDR_LO,
                                   PPU_HOST_SEM_ADDR_HI,
                                   PPU_HOST_SEM_PAYLOAD_LO,
                                   PPU_HOST_SEM_PAYLOAD_HI,
                                   PPU_HOST_SEM_EXECUTE,
                                   PPU_HOST_WAIT_FOR_IDLE,
                                   PPU_HOST_TLB_INVALIDATE};
   if (rng_below(r, 10) == 0)
      return rng_below(r, PPU_MTHD_ADDR_MAX + 1);
   if (subch == PPU_SUBCH_HOST)
      return host[rng_below(r, sizeof(host) / sizeof(host[0]))];
   return rng_below(r, 0x12); /* copy methods, and unknown ones in between */
}

/* Headers of random types, subchannels and methods with plausible data. */
static void gen_noise(struct fuzz_env *e, struct rng *r, struct hwt_channel *c, struct hwt_pb *pb,
                      uint32_t words)
{
   static const uint32_t types[] = {PPU_MTHD_INCR, PPU_MTHD_NONINCR, PPU_MTHD_INC_ONCE,
                                    PPU_MTHD_IMMD, PPU_MTHD_IMMD};
   while (pb->n < words) {
      if (rng_below(r, 20) == 0) {
         hwt_pb_word(pb, rng_next(r));
         continue;
      }
      uint32_t type = rng_below(r, 30) ? types[rng_below(r, 5)] : rng_below(r, 8);
      uint32_t subch =
          rng_below(r, 12) ? (rng_below(r, 2) ? PPU_SUBCH_COPY : PPU_SUBCH_HOST) : rng_below(r, 8);
      uint32_t method = plausible_method(r, subch);
      uint32_t count = rng_below(r, 40) ? 1 + rng_below(r, 8) : rng_below(r, 8192);
      if (type == PPU_MTHD_IMMD) {
         hwt_pb_word(pb, PPU_MTHD_HDR(type, subch, method, plausible_data(e, r, c) & 0x1fff));
         continue;
      }
      hwt_pb_word(pb, PPU_MTHD_HDR(type, subch, method, count));
      for (uint32_t i = 0; i < count && pb->n < words; i++)
         hwt_pb_word(pb, plausible_data(e, r, c));
   }
}

/* A random but well-formed program over the scratch buffer: every operation
 * is valid, so without mutations it runs to the end. */
static void gen_program(struct fuzz_env *e, struct rng *r, struct hwt_channel *c, struct hwt_pb *pb,
                        uint32_t ops)
{
   const uint32_t half = SCRATCH_BYTES / 2;
   for (uint32_t i = 0; i < ops; i++) {
      uint64_t a = e->scratch + (rng_below(r, half / 8) * 8);
      uint64_t b = e->scratch + half + (rng_below(r, half / 8) * 8);
      uint32_t len = 4 * rng_below(r, 2048);
      if (a + len > e->scratch + half)
         len = (uint32_t)(e->scratch + half - a) & ~3u;
      switch (rng_below(r, 9)) {
      case 0:
         hwt_pb_sem(pb, a, rng_next(r), PPU_SEM_OP_RELEASE | (rng_below(r, 2) << 4));
         break;
      case 1:
         hwt_pb_sem(pb, b, 0, PPU_SEM_OP_TIMESTAMP);
         break;
      case 2:
         hwt_pb_sem(pb, c->fence_va, 0, PPU_SEM_OP_ACQUIRE_GEQ); /* always satisfied */
         break;
      case 3:
         hwt_pb_fill(pb, a, rng_next(r), len);
         break;
      case 4:
         hwt_pb_copy(pb, b, a, len);
         break;
      case 5: {
         uint32_t n = 1 + rng_below(r, 64);
         hwt_pb_set64(pb, PPU_SUBCH_COPY, PPU_COPY_DST_ADDR_LO, b);
         hwt_pb_set64(pb, PPU_SUBCH_COPY, PPU_COPY_LENGTH_LO, 4ull * n);
         hwt_pb_immd(pb, PPU_SUBCH_COPY, PPU_COPY_LAUNCH, PPU_COPY_OP_INLINE);
         hwt_pb_word(pb, PPU_MTHD_HDR(PPU_MTHD_NONINCR, PPU_SUBCH_COPY, PPU_COPY_INLINE_DATA, n));
         for (uint32_t k = 0; k < n; k++)
            hwt_pb_word(pb, rng_next(r));
         break;
      }
      case 6: {
         hwt_pb_set64(pb, PPU_SUBCH_COPY, PPU_COPY_SRC_ADDR_LO, a);
         hwt_pb_set64(pb, PPU_SUBCH_COPY, PPU_COPY_DST_ADDR_LO, b);
         uint32_t d[3] = {16, 1 + rng_below(r, 32), rng_below(r, 8)};
         hwt_pb_method(pb, PPU_MTHD_INCR, PPU_SUBCH_COPY, PPU_COPY_DST_STRIDE, 3, d);
         hwt_pb_immd(pb, PPU_SUBCH_COPY, PPU_COPY_LAUNCH, PPU_COPY_OP_QUERY_COPY);
         break;
      }
      case 7:
         hwt_pb_immd(pb, PPU_SUBCH_HOST,
                     rng_below(r, 2) ? PPU_HOST_WAIT_FOR_IDLE : PPU_HOST_TLB_INVALIDATE, 0);
         break;
      default:
         hwt_pb_immd(pb, PPU_SUBCH_HOST, PPU_HOST_NOP, rng_below(r, 8192));
      }
   }
}

/* Flips bits in, or replaces, a few random words. */
static void mutate(struct rng *r, struct hwt_pb *pb, uint32_t mutations)
{
   for (uint32_t i = 0; i < mutations && pb->n; i++) {
      uint32_t at = rng_below(r, pb->n);
      pb->w[at] = rng_below(r, 2) ? rng_next(r) : pb->w[at] ^ (1u << rng_below(r, 32));
   }
}

static uint64_t gen_entry(struct rng *r, struct hwt_channel *c, uint64_t pb_va, uint32_t pb_words)
{
   switch (rng_below(r, 10)) {
   case 0:
      return ((uint64_t)rng_next(r) << 32) | rng_next(r);
   case 1:
      return PPU_GPFIFO_ENTRY(c->pb_va + rng_below(r, 1 << 21), rng_below(r, 32768));
   default: {
      uint32_t start = rng_below(r, pb_words);
      uint32_t len = 1 + rng_below(r, pb_words - start);
      return PPU_GPFIFO_ENTRY(pb_va + 4ull * start, len);
   }
   }
}

enum outcome { FINISHED, FAULTED, STALLED, HUNG };

/* Waits for the fence, a fault, or a stall nothing will end. */
static enum outcome wait_outcome(struct hwt_channel *c, uint64_t stalls_before)
{
   uint64_t deadline = hwt_now_ns() + 2000000000ull;
   uint64_t last_methods = ~0ull, quiet_since = hwt_now_ns();
   for (;;) {
      if (hwt_load_u64(c->t, c->fence_va) >= c->fence_value)
         return FINISHED;
      if (ppu_channel_fault(c->ch, NULL))
         return FAULTED;
      uint64_t now = hwt_now_ns();
      uint64_t methods = hwt_counter(c->t, PPU_COUNTER_HOST_METHODS);
      if (methods != last_methods) {
         last_methods = methods;
         quiet_since = now;
      } else if (hwt_counter(c->t, PPU_COUNTER_HOST_ACQUIRE_STALLS) > stalls_before &&
                 now - quiet_since > 30000000ull) {
         return STALLED;
      }
      if (now > deadline)
         return HUNG;
      hwt_sleep_us(100);
   }
}

static void check_record(struct hwt_channel *c, uint64_t seed)
{
   struct ppu_fault f;
   if (!ppu_channel_fault(c->ch, &f))
      return;
   CHECK_MSG(f.kind > PPU_FAULT_NONE && f.kind <= PPU_FAULT_WATCHDOG, "seed %llu: kind %d",
             (unsigned long long)seed, (int)f.kind);
   CHECK_MSG(f.engine <= PPU_ENGINE_COPY, "seed %llu: engine %d", (unsigned long long)seed,
             (int)f.engine);
   CHECK_MSG(f.detail[0] != 0 && memchr(f.detail, 0, sizeof(f.detail)), "seed %llu: no detail",
             (unsigned long long)seed);
   char report[1024];
   ppu_fault_format(c->ch, &f, report, sizeof(report));
   CHECK(strstr(report, ppu_fault_kind_name(f.kind)) != NULL);
}

TEST_CASE(garbage_gpfifo_and_pushbuffers_fault_or_finish_and_never_crash)
{
   static struct fuzz_env e;
   REQUIRE(hwt_init(&e.t, TEST_VRAM));
   e.scratch = hwt_alloc_mapped(&e.t, SCRATCH_BYTES, true);
   e.readonly = hwt_alloc_mapped(&e.t, PPU_PAGE_SIZE, false);
   static struct hwt_pb pb;
   unsigned counts[4] = {0};
   uint64_t t0 = hwt_now_ns(), seed;
   struct hwt_channel c;
   REQUIRE(hwt_channel_init(&c, &e.t, "fuzz"));
   for (seed = 1; seed <= 2000 && hwt_now_ns() - t0 < FUZZ_BUDGET_NS; seed++) {
      struct rng r = {seed * 0x9e3779b97f4a7c15ull};
      char name[32];
      snprintf(name, sizeof(name), "fuzz %llu", (unsigned long long)seed);
      /* A fresh channel on the same memory: garbage may have overwritten
       * the scratch buffer, the ring or the fence, never the tables. */
      REQUIRE(hwt_channel_restart(&c, name));
      uint64_t stalls = hwt_counter(&e.t, PPU_COUNTER_HOST_ACQUIRE_STALLS);

      /* One seed in four is noise in random GPFIFO entries; the others are
       * valid programs, in one entry, with 0..3 words damaged. */
      uint64_t pb_va = c.pb_va;
      hwt_pb_reset(&pb);
      bool noise = rng_below(&r, 4) == 0;
      if (noise)
         gen_noise(&e, &r, &c, &pb, 1 + rng_below(&r, 1500));
      else
         gen_program(&e, &r, &c, &pb, 1 + rng_below(&r, 40));
      if (!noise)
         mutate(&r, &pb, rng_below(&r, 4));
      hwt_write(&e.t.mem, e.t.pd, pb_va, pb.w, 4ull * pb.n);
      c.pb_used = 4ull * pb.n + 8;
      if (noise) {
         uint32_t entries = 1 + rng_below(&r, 6);
         for (uint32_t i = 0; i < entries; i++)
            hwt_submit_entry(&c, gen_entry(&r, &c, pb_va, pb.n));
      } else {
         hwt_submit_entry(&c, PPU_GPFIFO_ENTRY(pb_va, pb.n));
      }
      /* Then a well-formed release: reached only if nothing faulted. */
      c.fence_value = 1;
      hwt_pb_reset(&pb);
      hwt_pb_sem(&pb, c.fence_va, 1, PPU_SEM_OP_RELEASE);
      hwt_submit(&c, &pb);

      enum outcome o = wait_outcome(&c, stalls);
      counts[o]++;
      CHECK_MSG(o != HUNG, "seed %llu neither finished, faulted nor waits on an acquire",
                (unsigned long long)seed);
      check_record(&c, seed);
   }
   hwt_channel_finish(&c); /* restart destroyed the others, stalled or not */
   printf("  %llu seeds: %u finished, %u faulted, %u stalled on an acquire\n",
          (unsigned long long)(seed - 1), counts[FINISHED], counts[FAULTED], counts[STALLED]);
   CHECK(seed > 30); /* the budget allowed a meaningful number */
   CHECK(counts[FINISHED] > 0 && counts[FAULTED] > 0);

   /* The chip is still healthy. */
   struct hwt_channel ok;
   REQUIRE(hwt_channel_init(&ok, &e.t, "after fuzz"));
   CHECK(hwt_sync(&ok, 5000));
   hwt_channel_finish(&ok);
   hwt_finish(&e.t);
}

TEST_CASE(garbage_page_tables_fault_and_never_crash)
{
   static struct hwt t;
   REQUIRE(hwt_init(&t, TEST_VRAM));
   uint64_t t0 = hwt_now_ns();
   unsigned faulted = 0, runs = 0;
   for (uint64_t seed = 1; seed <= 40 && hwt_now_ns() - t0 < 1000000000ull; seed++, runs++) {
      struct rng r = {seed * 0x2545f4914f6cdd1dull};
      /* A directory and two more pages of noise, some entries VALID and
       * pointing at each other so walks go deep before they fail. */
      uint64_t pd = hwt_new_directory(&t.mem), extra = hwt_alloc_pages(&t.mem, 2);
      uint64_t *w = (uint64_t *)(void *)(t.mem.bar + pd);
      for (unsigned i = 0; i < 2048; i++) {
         uint64_t v = ((uint64_t)rng_next(&r) << 32) | rng_next(&r);
         if (rng_below(&r, 3) == 0)
            v = (rng_below(&r, 2) ? extra : pd) | (v & 3);
         w[i] = v;
      }
      uint64_t *x = (uint64_t *)(void *)(t.mem.bar + extra);
      for (unsigned i = 0; i < 1024; i++)
         x[i] = rng_below(&r, 2) ? (extra | 3) : (((uint64_t)rng_next(&r) << 32) | rng_next(&r));
      struct ppu_channel_desc desc = {.page_directory_pa = pd,
                                      .gpfifo_va = ((uint64_t)rng_next(&r) << 12) & 0xfffffff8ull,
                                      .gpfifo_entries = 4,
                                      .name = "garbage tables"};
      struct ppu_channel *ch = ppu_channel_create(t.gpu, &desc);
      REQUIRE(ch);
      ppu_channel_ring_doorbell(ch, 3);
      uint64_t deadline = hwt_now_ns() + 1000000000ull;
      while (!ppu_channel_fault(ch, NULL) && ppu_channel_gp_get(ch) != 3 && hwt_now_ns() < deadline)
         hwt_sleep_us(100);
      faulted += ppu_channel_fault(ch, NULL);
      ppu_channel_destroy(ch);
   }
   /* Noise does not make three valid GPFIFO entries with valid segments. */
   CHECK_EQ_U64(faulted, runs);
   hwt_finish(&t);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
