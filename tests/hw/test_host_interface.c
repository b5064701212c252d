/* Host interface: GPFIFO fetch and ring handling, and the decode of every
 * method-header type (ppu/methods.h). Faults of the decoder are covered,
 * with their isolation, in test_faults.c. */
#include <string.h>

#include "hw_test_util.h"
#include "test_harness.h"

#define TEST_VRAM (128ull << 20)

struct env {
   struct hwt t;
   struct hwt_channel c;
   uint64_t buf;
};

static bool env_init(struct env *e)
{
   if (!hwt_init(&e->t, TEST_VRAM))
      return false;
   e->buf = hwt_alloc_mapped(&e->t, 4 * PPU_PAGE_SIZE, true);
   return hwt_channel_init(&e->c, &e->t, "decode");
}

static void env_finish(struct env *e)
{
   hwt_channel_finish(&e->c);
   hwt_finish(&e->t);
}

TEST_CASE(incr_header_sends_word_i_to_method_plus_i)
{
   static struct env e;
   REQUIRE(env_init(&e));
   static struct hwt_pb pb;
   hwt_pb_reset(&pb);
   /* One INCR of 5 words: ADDR_LO, ADDR_HI, PAYLOAD_LO, PAYLOAD_HI, EXECUTE. */
   hwt_pb_sem(&pb, e.buf + 8, 0x0000000b0000000aull, PPU_SEM_OP_RELEASE);
   hwt_submit(&e.c, &pb);
   REQUIRE(hwt_sync(&e.c, 5000));
   CHECK_EQ_U64(hwt_load_u64(&e.t, e.buf + 8), 0x0000000b0000000aull);
   env_finish(&e);
}

TEST_CASE(nonincr_header_sends_every_word_to_one_method)
{
   static struct env e;
   REQUIRE(env_init(&e));
   static struct hwt_pb pb;
   hwt_pb_reset(&pb);
   hwt_pb_set64(&pb, PPU_SUBCH_HOST, PPU_HOST_SEM_ADDR_LO, e.buf);
   hwt_pb_immd(&pb, PPU_SUBCH_HOST, PPU_HOST_SEM_PAYLOAD_HI, 0);
   /* Three payloads in a row: the last one is latched. */
   const uint32_t payloads[3] = {1, 2, 42};
   hwt_pb_method(&pb, PPU_MTHD_NONINCR, PPU_SUBCH_HOST, PPU_HOST_SEM_PAYLOAD_LO, 3, payloads);
   /* Three EXECUTEs: three releases (of the same value). */
   const uint32_t exec[3] = {PPU_SEM_OP_RELEASE, PPU_SEM_OP_RELEASE, PPU_SEM_OP_RELEASE};
   hwt_pb_method(&pb, PPU_MTHD_NONINCR, PPU_SUBCH_HOST, PPU_HOST_SEM_EXECUTE, 3, exec);
   hwt_submit(&e.c, &pb);
   REQUIRE(hwt_sync(&e.c, 5000));
   CHECK_EQ_U64(hwt_load_u64(&e.t, e.buf), 42);
   CHECK_EQ_U64(hwt_counter(&e.t, PPU_COUNTER_HOST_SEM_RELEASES), 3 + 1 /* sync */);
   env_finish(&e);
}

TEST_CASE(inc_once_header_sends_first_word_to_method_and_rest_to_next)
{
   static struct env e;
   REQUIRE(env_init(&e));
   static struct hwt_pb pb;
   hwt_pb_reset(&pb);
   hwt_pb_set64(&pb, PPU_SUBCH_COPY, PPU_COPY_DST_ADDR_LO, e.buf + 4092);
   hwt_pb_set64(&pb, PPU_SUBCH_COPY, PPU_COPY_LENGTH_LO, 12);
   /* LAUNCH (0x010) gets INLINE, INLINE_DATA (0x011) gets the rest. */
   const uint32_t words[4] = {PPU_COPY_OP_INLINE, 0xa0a0a0a0, 0xb1b1b1b1, 0xc2c2c2c2};
   hwt_pb_method(&pb, PPU_MTHD_INC_ONCE, PPU_SUBCH_COPY, PPU_COPY_LAUNCH, 4, words);
   hwt_submit(&e.c, &pb);
   REQUIRE(hwt_sync(&e.c, 5000));
   uint32_t got[3];
   hwt_read(&e.t.mem, e.t.pd, e.buf + 4092, got, 12);
   CHECK_EQ_U64(got[0], 0xa0a0a0a0);
   CHECK_EQ_U64(got[1], 0xb1b1b1b1);
   CHECK_EQ_U64(got[2], 0xc2c2c2c2);
   env_finish(&e);
}

TEST_CASE(immediate_header_carries_13_bits_of_data)
{
   static struct env e;
   REQUIRE(env_init(&e));
   static struct hwt_pb pb;
   hwt_pb_reset(&pb);
   hwt_pb_immd(&pb, PPU_SUBCH_HOST, PPU_HOST_NOP, 0x1fff);
   hwt_pb_set64(&pb, PPU_SUBCH_HOST, PPU_HOST_SEM_ADDR_LO, e.buf + 16);
   hwt_pb_immd(&pb, PPU_SUBCH_HOST, PPU_HOST_SEM_PAYLOAD_LO, 0x1fff);
   hwt_pb_immd(&pb, PPU_SUBCH_HOST, PPU_HOST_SEM_PAYLOAD_HI, 0x1234);
   hwt_pb_immd(&pb, PPU_SUBCH_HOST, PPU_HOST_SEM_EXECUTE, PPU_SEM_OP_RELEASE | PPU_SEM_FLAG_AWAKEN);
   hwt_submit(&e.c, &pb);
   REQUIRE(hwt_sync(&e.c, 5000));
   CHECK_EQ_U64(hwt_load_u64(&e.t, e.buf + 16), 0x0000123400001fffull);
   CHECK_EQ_U64(atomic_load(&e.t.semaphore_interrupts), 1);
   env_finish(&e);
}

TEST_CASE(counters_count_entries_words_and_methods_exactly)
{
   static struct env e;
   REQUIRE(env_init(&e));
   static struct hwt_pb pb;
   hwt_pb_reset(&pb);
   hwt_pb_immd(&pb, PPU_SUBCH_HOST, PPU_HOST_NOP, 0); /* 1 word, 1 method */
   const uint32_t nops[3] = {0, 0, 0};
   hwt_pb_method(&pb, PPU_MTHD_NONINCR, PPU_SUBCH_HOST, PPU_HOST_NOP, 3, nops); /* 4, 3 */
   hwt_pb_sem(&pb, e.c.fence_va, 1, PPU_SEM_OP_RELEASE); /* 6 words, 5 methods */
   hwt_submit(&e.c, &pb);
   REQUIRE(hwt_wait_u64(&e.c, e.c.fence_va, 1, 5000));
   CHECK_EQ_U64(hwt_counter(&e.t, PPU_COUNTER_HOST_GPFIFO_ENTRIES), 1);
   CHECK_EQ_U64(hwt_counter(&e.t, PPU_COUNTER_HOST_PUSHBUFFER_WORDS), 11);
   CHECK_EQ_U64(hwt_counter(&e.t, PPU_COUNTER_HOST_METHODS), 9);
   env_finish(&e);
}

TEST_CASE(gpfifo_ring_wraps_and_gp_get_follows_gp_put)
{
   static struct env e;
   REQUIRE(env_init(&e));
   static struct hwt_pb pb;
   /* 3.5 times around a 64-entry ring. */
   for (uint64_t i = 1; i <= 224; i++) {
      hwt_pb_reset(&pb);
      hwt_pb_sem(&pb, e.buf, i, PPU_SEM_OP_RELEASE);
      hwt_submit(&e.c, &pb);
   }
   REQUIRE(hwt_wait_u64(&e.c, e.buf, 224, 5000));
   CHECK_EQ_U64(ppu_channel_gp_get(e.c.ch), e.c.put);
   CHECK_EQ_U64(e.c.put, 224 % 64);
   CHECK_EQ_U64(hwt_counter(&e.t, PPU_COUNTER_HOST_GPFIFO_ENTRIES), 224);
   CHECK(!ppu_channel_fault(e.c.ch, NULL));
   env_finish(&e);
}

TEST_CASE(one_doorbell_covers_every_entry_before_gp_put)
{
   static struct env e;
   REQUIRE(env_init(&e));
   static struct hwt_pb pb;
   /* Write 10 entries, then ring once: every one of them runs. */
   uint64_t seg_va = e.c.pb_va;
   for (uint32_t i = 0; i < 10; i++) {
      hwt_pb_reset(&pb);
      hwt_pb_sem(&pb, e.buf + 8 * i, 100 + i, PPU_SEM_OP_RELEASE);
      hwt_write(&e.t.mem, e.t.pd, seg_va + i * 64, pb.w, pb.n * 4);
      uint64_t entry = PPU_GPFIFO_ENTRY(seg_va + i * 64, pb.n);
      hwt_write(&e.t.mem, e.t.pd, e.c.gpfifo_va + 8 * i, &entry, 8);
   }
   CHECK_EQ_U64(hwt_load_u64(&e.t, e.buf), 0);
   e.c.put = 10;
   e.c.pb_used = 10 * 64;
   ppu_channel_ring_doorbell(e.c.ch, 10);
   REQUIRE(hwt_wait_u64(&e.c, e.buf + 72, 109, 5000));
   for (uint32_t i = 0; i < 10; i++)
      CHECK_EQ_U64(hwt_load_u64(&e.t, e.buf + 8 * i), 100 + i);
   CHECK_EQ_U64(ppu_channel_gp_get(e.c.ch), 10);
   env_finish(&e);
}

TEST_CASE(doorbell_value_is_taken_modulo_the_ring_size)
{
   static struct env e;
   REQUIRE(env_init(&e));
   static struct hwt_pb pb;
   hwt_pb_reset(&pb);
   hwt_pb_sem(&pb, e.buf, 7, PPU_SEM_OP_RELEASE);
   hwt_write(&e.t.mem, e.t.pd, e.c.pb_va, pb.w, pb.n * 4);
   uint64_t entry = PPU_GPFIFO_ENTRY(e.c.pb_va, pb.n);
   hwt_write(&e.t.mem, e.t.pd, e.c.gpfifo_va, &entry, 8);
   ppu_channel_ring_doorbell(e.c.ch, 64 + 1); /* == 1 */
   REQUIRE(hwt_wait_u64(&e.c, e.buf, 7, 5000));
   CHECK_EQ_U64(ppu_channel_gp_get(e.c.ch), 1);
   env_finish(&e);
}

TEST_CASE(largest_segment_is_fetched_and_decoded)
{
   static struct env e;
   REQUIRE(env_init(&e));
   static struct hwt_pb pb;
   hwt_pb_reset(&pb);
   /* One NONINCR of NOPs filling a whole segment but the release. */
   while (pb.n < PPU_GPFIFO_LEN_MAX - 6 - 2) {
      uint32_t n = PPU_GPFIFO_LEN_MAX - 6 - 2 - pb.n - 1;
      if (n > PPU_MTHD_COUNT_MAX)
         n = PPU_MTHD_COUNT_MAX;
      hwt_pb_word(&pb, PPU_MTHD_HDR(PPU_MTHD_NONINCR, PPU_SUBCH_HOST, PPU_HOST_NOP, n));
      for (uint32_t i = 0; i < n; i++)
         hwt_pb_word(&pb, i);
   }
   hwt_pb_immd(&pb, PPU_SUBCH_HOST, PPU_HOST_NOP, 0);
   hwt_pb_immd(&pb, PPU_SUBCH_HOST, PPU_HOST_NOP, 0);
   hwt_pb_sem(&pb, e.buf, 5, PPU_SEM_OP_RELEASE);
   REQUIRE(pb.n == PPU_GPFIFO_LEN_MAX);
   hwt_submit(&e.c, &pb);
   REQUIRE(hwt_wait_u64(&e.c, e.buf, 5, 5000));
   CHECK_EQ_U64(hwt_counter(&e.t, PPU_COUNTER_HOST_PUSHBUFFER_WORDS), PPU_GPFIFO_LEN_MAX);
   env_finish(&e);
}

TEST_CASE(channels_share_the_model_thread_round_robin)
{
   /* Two channels with 50 segments each, both made runnable at the same
    * instant (they first wait on one semaphore): with one segment per turn
    * they alternate, so when a runs its last segment b has run all or all
    * but one of its own. */
   static struct hwt t;
   struct hwt_channel a, b;
   REQUIRE(hwt_init(&t, TEST_VRAM));
   REQUIRE(hwt_channel_init(&a, &t, "a"));
   REQUIRE(hwt_channel_init(&b, &t, "b"));
   uint64_t buf = hwt_alloc_mapped(&t, PPU_PAGE_SIZE, true), gate = buf + 2048;
   static struct hwt_pb pb;
   for (int ch = 0; ch < 2; ch++) {
      struct hwt_channel *c = ch ? &b : &a;
      hwt_pb_reset(&pb);
      hwt_pb_sem(&pb, gate, 1, PPU_SEM_OP_ACQUIRE_GEQ);
      hwt_submit(c, &pb);
      /* a's segments also log how far b was: copy b's slot to log[i]. */
      for (uint64_t i = 1; i <= 50; i++) {
         hwt_pb_reset(&pb);
         hwt_pb_sem(&pb, buf + 8 * ch, i, PPU_SEM_OP_RELEASE);
         if (ch == 0)
            hwt_pb_copy(&pb, buf + 16 + 8 * i, buf + 8, 8);
         hwt_submit(c, &pb);
      }
   }
   uint64_t deadline = hwt_now_ns() + 5000000000ull;
   while (hwt_counter(&t, PPU_COUNTER_HOST_ACQUIRE_STALLS) < 2 && hwt_now_ns() < deadline)
      hwt_sleep_us(100);
   REQUIRE(hwt_counter(&t, PPU_COUNTER_HOST_ACQUIRE_STALLS) == 2);
   hwt_store_u64(&t, gate, 1);
   ppu_gpu_semaphore_doorbell(t.gpu);
   REQUIRE(hwt_wait_u64(&a, buf, 50, 5000));
   REQUIRE(hwt_wait_u64(&b, buf + 8, 50, 5000));
   for (uint64_t i = 1; i <= 50; i++) {
      uint64_t b_seen = hwt_load_u64(&t, buf + 16 + 8 * i);
      CHECK_MSG(b_seen == i || b_seen == i - 1, "b had run %llu segments when a ran its %llu",
                (unsigned long long)b_seen, (unsigned long long)i);
   }
   hwt_channel_finish(&a);
   hwt_channel_finish(&b);
   hwt_finish(&t);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
