/* Front end: semaphores across channels, AWAKEN interrupts, timestamps,
 * WAIT_FOR_IDLE and TLB_INVALIDATE, and tearing down stalled channels. */
#include <pthread.h>
#include <string.h>

#include "hw_test_util.h"
#include "test_harness.h"

#define TEST_VRAM (128ull << 20)

static void submit_acquire(struct hwt_channel *c, uint64_t sem, uint64_t value, uint64_t done_va,
                           uint64_t done_value)
{
   static struct hwt_pb pb;
   hwt_pb_reset(&pb);
   hwt_pb_sem(&pb, sem, value, PPU_SEM_OP_ACQUIRE_GEQ);
   hwt_pb_sem(&pb, done_va, done_value, PPU_SEM_OP_RELEASE);
   hwt_submit(c, &pb);
}

static void submit_release(struct hwt_channel *c, uint64_t sem, uint64_t value, uint32_t flags)
{
   static struct hwt_pb pb;
   hwt_pb_reset(&pb);
   hwt_pb_sem(&pb, sem, value, PPU_SEM_OP_RELEASE | flags);
   hwt_submit(c, &pb);
}

TEST_CASE(acquire_stalls_its_channel_while_another_runs_then_proceeds)
{
   static struct hwt t;
   struct hwt_channel waiter, worker;
   REQUIRE(hwt_init(&t, TEST_VRAM));
   REQUIRE(hwt_channel_init(&waiter, &t, "waiter"));
   REQUIRE(hwt_channel_init(&worker, &t, "worker"));
   uint64_t sem = hwt_alloc_mapped(&t, PPU_PAGE_SIZE, true);
   uint64_t src = hwt_alloc_mapped(&t, 1 << 20, true), dst = hwt_alloc_mapped(&t, 1 << 20, true);

   submit_acquire(&waiter, sem, 1, sem + 8, 1);
   /* The worker gets a lot done while the waiter is blocked. */
   static struct hwt_pb pb;
   for (int i = 0; i < 20; i++) {
      hwt_pb_reset(&pb);
      hwt_pb_fill(&pb, src, (uint32_t)i * 0x01010101u, 1 << 20);
      hwt_pb_copy(&pb, dst, src, 1 << 20);
      hwt_submit(&worker, &pb);
   }
   REQUIRE(hwt_sync(&worker, 5000));
   CHECK_EQ_U64(hwt_ptr(&t, dst)[(1 << 20) - 1], 19);
   CHECK_EQ_U64(hwt_load_u64(&t, sem + 8), 0); /* the waiter is still blocked */
   CHECK(!ppu_channel_fault(waiter.ch, NULL));
   CHECK_EQ_U64(hwt_counter(&t, PPU_COUNTER_HOST_ACQUIRE_STALLS), 1);
   CHECK_EQ_U64(hwt_counter(&t, PPU_COUNTER_HOST_SEM_ACQUIRES), 0);

   submit_release(&worker, sem, 1, 0);
   CHECK(hwt_wait_u64(&waiter, sem + 8, 1, 5000));
   CHECK_EQ_U64(hwt_counter(&t, PPU_COUNTER_HOST_SEM_ACQUIRES), 1);
   /* Re-checks of the stalled acquire do not count as new stalls. */
   CHECK_EQ_U64(hwt_counter(&t, PPU_COUNTER_HOST_ACQUIRE_STALLS), 1);
   hwt_channel_finish(&waiter);
   hwt_channel_finish(&worker);
   hwt_finish(&t);
}

TEST_CASE(acquire_compares_all_64_bits_greater_or_equal)
{
   static struct hwt t;
   struct hwt_channel c;
   REQUIRE(hwt_init(&t, TEST_VRAM));
   REQUIRE(hwt_channel_init(&c, &t, "geq"));
   uint64_t sem = hwt_alloc_mapped(&t, PPU_PAGE_SIZE, true);
   hwt_store_u64(&t, sem, 0x100000000ull);
   submit_acquire(&c, sem, 0xffffffffull, sem + 8, 1); /* lower: passes */
   REQUIRE(hwt_wait_u64(&c, sem + 8, 1, 5000));
   submit_acquire(&c, sem, 0x100000000ull, sem + 8, 2); /* equal: passes */
   REQUIRE(hwt_wait_u64(&c, sem + 8, 2, 5000));
   submit_acquire(&c, sem, 0x100000001ull, sem + 8, 3); /* higher: waits */
   hwt_sleep_us(20000);
   CHECK_EQ_U64(hwt_load_u64(&t, sem + 8), 2);
   hwt_store_u64(&t, sem, 0x200000000ull); /* host write through the BAR */
   ppu_gpu_semaphore_doorbell(t.gpu);
   CHECK(hwt_wait_u64(&c, sem + 8, 3, 5000));
   hwt_channel_finish(&c);
   hwt_finish(&t);
}

TEST_CASE(host_semaphore_write_without_doorbell_is_seen_within_milliseconds)
{
   static struct hwt t;
   struct hwt_channel c;
   REQUIRE(hwt_init(&t, TEST_VRAM));
   REQUIRE(hwt_channel_init(&c, &t, "poll"));
   uint64_t sem = hwt_alloc_mapped(&t, PPU_PAGE_SIZE, true);
   submit_acquire(&c, sem, 5, sem + 8, 1);
   hwt_sleep_us(5000);
   CHECK_EQ_U64(hwt_load_u64(&t, sem + 8), 0);
   uint64_t t0 = hwt_now_ns();
   hwt_store_u64(&t, sem, 5);
   CHECK(hwt_wait_u64(&c, sem + 8, 1, 1000));
   /* Re-checked every ~1 ms; allow for a loaded machine. */
   CHECK((hwt_now_ns() - t0) < 500000000ull);
   hwt_channel_finish(&c);
   hwt_finish(&t);
}

struct interrupt_log {
   pthread_mutex_t lock;
   int semaphore, fault;
   struct ppu_channel *last_channel;
   uint32_t gp_get_seen; /* ppu_channel_gp_get from inside the handler */
};

static void log_interrupt(void *user, enum ppu_interrupt kind, struct ppu_channel *ch)
{
   struct interrupt_log *log = user;
   uint32_t gp_get = ppu_channel_gp_get(ch); /* getters are allowed here */
   pthread_mutex_lock(&log->lock);
   if (kind == PPU_INTR_SEMAPHORE)
      log->semaphore++;
   else
      log->fault++;
   log->last_channel = ch;
   log->gp_get_seen = gp_get;
   pthread_mutex_unlock(&log->lock);
}

TEST_CASE(awaken_raises_one_semaphore_interrupt_per_operation)
{
   static struct hwt t;
   struct hwt_channel c;
   REQUIRE(hwt_init(&t, TEST_VRAM));
   REQUIRE(hwt_channel_init(&c, &t, "awaken"));
   static struct interrupt_log log = {.lock = PTHREAD_MUTEX_INITIALIZER};
   ppu_gpu_set_interrupt_handler(t.gpu, log_interrupt, &log);
   uint64_t sem = hwt_alloc_mapped(&t, PPU_PAGE_SIZE, true);
   static struct hwt_pb pb;
   hwt_pb_reset(&pb);
   hwt_pb_sem(&pb, sem, 1, PPU_SEM_OP_RELEASE);                             /* no */
   hwt_pb_sem(&pb, sem, 2, PPU_SEM_OP_RELEASE | PPU_SEM_FLAG_AWAKEN);       /* yes */
   hwt_pb_sem(&pb, sem, 2, PPU_SEM_OP_ACQUIRE_GEQ | PPU_SEM_FLAG_AWAKEN);   /* yes */
   hwt_pb_sem(&pb, sem + 8, 0, PPU_SEM_OP_TIMESTAMP | PPU_SEM_FLAG_AWAKEN); /* yes */
   hwt_submit(&c, &pb);
   REQUIRE(hwt_sync(&c, 5000));
   pthread_mutex_lock(&log.lock);
   CHECK_EQ_U64(log.semaphore, 3);
   CHECK_EQ_U64(log.fault, 0);
   CHECK(log.last_channel == c.ch);
   CHECK_EQ_U64(log.gp_get_seen, 1);
   pthread_mutex_unlock(&log.lock);
   /* An acquire with AWAKEN interrupts when it completes, not when it stalls. */
   hwt_pb_reset(&pb);
   hwt_pb_sem(&pb, sem, 3, PPU_SEM_OP_ACQUIRE_GEQ | PPU_SEM_FLAG_AWAKEN);
   hwt_submit(&c, &pb);
   hwt_sleep_us(10000);
   pthread_mutex_lock(&log.lock);
   CHECK_EQ_U64(log.semaphore, 3);
   pthread_mutex_unlock(&log.lock);
   hwt_store_u64(&t, sem, 3);
   ppu_gpu_semaphore_doorbell(t.gpu);
   REQUIRE(hwt_sync(&c, 5000));
   pthread_mutex_lock(&log.lock);
   CHECK_EQ_U64(log.semaphore, 4);
   pthread_mutex_unlock(&log.lock);
   ppu_gpu_set_interrupt_handler(t.gpu, NULL, NULL);
   hwt_channel_finish(&c);
   hwt_finish(&t);
}

TEST_CASE(timestamps_increase_and_lie_within_the_gpu_timer)
{
   static struct hwt t;
   struct hwt_channel c;
   REQUIRE(hwt_init(&t, TEST_VRAM));
   REQUIRE(hwt_channel_init(&c, &t, "timestamps"));
   uint64_t ts = hwt_alloc_mapped(&t, PPU_PAGE_SIZE, true);
   uint64_t before = ppu_gpu_timer_ns(t.gpu);
   static struct hwt_pb pb;
   hwt_pb_reset(&pb);
   hwt_pb_sem(&pb, ts, 0, PPU_SEM_OP_TIMESTAMP);
   hwt_pb_fill(&pb, ts + 1024, 1, 2048);
   hwt_pb_sem(&pb, ts + 8, 0, PPU_SEM_OP_TIMESTAMP);
   hwt_submit(&c, &pb);
   REQUIRE(hwt_sync(&c, 5000));
   hwt_sleep_us(2000);
   hwt_pb_reset(&pb);
   hwt_pb_sem(&pb, ts + 16, 0, PPU_SEM_OP_TIMESTAMP);
   hwt_submit(&c, &pb);
   REQUIRE(hwt_sync(&c, 5000));
   uint64_t after = ppu_gpu_timer_ns(t.gpu);
   uint64_t t0 = hwt_load_u64(&t, ts), t1 = hwt_load_u64(&t, ts + 8),
            t2 = hwt_load_u64(&t, ts + 16);
   CHECK(before <= t0);
   CHECK(t0 <= t1);
   CHECK(t2 >= t1 + 2000000); /* 2 ms later */
   CHECK(t2 <= after);
   CHECK_EQ_U64(hwt_counter(&t, PPU_COUNTER_HOST_SEM_RELEASES), 3 + 2);
   hwt_channel_finish(&c);
   hwt_finish(&t);
}

TEST_CASE(every_channel_waiting_on_one_semaphore_proceeds_after_one_release)
{
   static struct hwt t;
   struct hwt_channel waiters[4], releaser;
   REQUIRE(hwt_init(&t, TEST_VRAM));
   uint64_t sem = hwt_alloc_mapped(&t, PPU_PAGE_SIZE, true);
   for (int i = 0; i < 4; i++) {
      REQUIRE(hwt_channel_init(&waiters[i], &t, "waiter"));
      submit_acquire(&waiters[i], sem, 10 + i, sem + 8 + 8 * i, 1);
   }
   REQUIRE(hwt_channel_init(&releaser, &t, "releaser"));
   hwt_sleep_us(5000);
   submit_release(&releaser, sem, 12, 0); /* wakes waiters 0..2 */
   for (int i = 0; i < 3; i++)
      CHECK(hwt_wait_u64(&waiters[i], sem + 8 + 8 * i, 1, 5000));
   hwt_sleep_us(5000);
   CHECK_EQ_U64(hwt_load_u64(&t, sem + 8 + 24), 0);
   submit_release(&releaser, sem, 13, 0);
   CHECK(hwt_wait_u64(&waiters[3], sem + 32, 1, 5000));
   for (int i = 0; i < 4; i++)
      hwt_channel_finish(&waiters[i]);
   hwt_channel_finish(&releaser);
   hwt_finish(&t);
}

TEST_CASE(destroying_a_channel_stalled_forever_returns_promptly)
{
   static struct hwt t;
   struct hwt_channel stuck, other;
   REQUIRE(hwt_init(&t, TEST_VRAM));
   REQUIRE(hwt_channel_init(&stuck, &t, "stuck"));
   REQUIRE(hwt_channel_init(&other, &t, "other"));
   uint64_t sem = hwt_alloc_mapped(&t, PPU_PAGE_SIZE, true);
   submit_acquire(&stuck, sem, ~0ull, sem + 8, 1);
   hwt_sleep_us(5000);
   uint64_t t0 = hwt_now_ns();
   hwt_channel_finish(&stuck);
   CHECK(hwt_now_ns() - t0 < 1000000000ull);
   /* The chip goes on serving the others. */
   CHECK(hwt_sync(&other, 5000));
   /* ...and a chip destroyed with a stalled channel still open returns too. */
   REQUIRE(hwt_channel_init(&stuck, &t, "stuck again"));
   submit_acquire(&stuck, sem, ~0ull, sem + 8, 1);
   hwt_sleep_us(5000);
   t0 = hwt_now_ns();
   hwt_finish(&t);
   CHECK(hwt_now_ns() - t0 < 1000000000ull);
}

TEST_CASE(destroying_a_channel_while_it_runs_waits_for_its_turn_to_end)
{
   static struct hwt t;
   REQUIRE(hwt_init(&t, TEST_VRAM));
   uint64_t buf = hwt_alloc_mapped(&t, 16 << 20, true);
   static struct hwt_pb pb;
   /* Create, load with big fills, and destroy at once, many times: the
    * destroy races the model thread in every phase of a turn. */
   for (int i = 0; i < 50; i++) {
      struct hwt_channel c;
      REQUIRE(hwt_channel_init(&c, &t, "short-lived"));
      hwt_pb_reset(&pb);
      hwt_pb_fill(&pb, buf, (uint32_t)i, 16 << 20);
      hwt_submit(&c, &pb);
      hwt_submit(&c, &pb);
      if (i % 2)
         hwt_sleep_us(500);
      hwt_channel_finish(&c);
   }
   struct hwt_channel last;
   REQUIRE(hwt_channel_init(&last, &t, "last"));
   CHECK(hwt_sync(&last, 5000));
   hwt_channel_finish(&last);
   hwt_finish(&t);
}

TEST_CASE(tlb_invalidate_method_and_call_make_remapped_pages_visible)
{
   static struct hwt t;
   struct hwt_channel c;
   REQUIRE(hwt_init(&t, TEST_VRAM));
   REQUIRE(hwt_channel_init(&c, &t, "tlb"));
   uint64_t src = hwt_alloc_mapped(&t, PPU_PAGE_SIZE, true);
   uint64_t dst = hwt_alloc_mapped(&t, PPU_PAGE_SIZE, true);
   uint64_t pa_new = hwt_alloc_pages(&t.mem, 2), pa_newer = pa_new + PPU_PAGE_SIZE;
   memset(hwt_ptr(&t, src), 0x11, PPU_PAGE_SIZE);
   static struct hwt_pb pb;
   hwt_pb_reset(&pb);
   hwt_pb_copy(&pb, dst, src, 64); /* puts dst in the copy engine's TLB */
   hwt_pb_immd(&pb, PPU_SUBCH_HOST, PPU_HOST_WAIT_FOR_IDLE, 0);
   hwt_submit(&c, &pb);
   REQUIRE(hwt_sync(&c, 5000));

   /* Remap dst, invalidate with the method, copy again. */
   hwt_map(&t.mem, t.pd, dst, pa_new, PPU_PAGE_SIZE, true);
   hwt_pb_reset(&pb);
   hwt_pb_immd(&pb, PPU_SUBCH_HOST, PPU_HOST_TLB_INVALIDATE, 0);
   hwt_pb_copy(&pb, dst, src, 64);
   hwt_submit(&c, &pb);
   REQUIRE(hwt_sync(&c, 5000));
   CHECK_EQ_U64(t.mem.bar[pa_new + 63], 0x11);

   /* Remap again, invalidate from the host. */
   hwt_map(&t.mem, t.pd, dst, pa_newer, PPU_PAGE_SIZE, true);
   ppu_channel_tlb_invalidate(c.ch);
   hwt_pb_reset(&pb);
   hwt_pb_copy(&pb, dst, src, 64);
   hwt_submit(&c, &pb);
   REQUIRE(hwt_sync(&c, 5000));
   CHECK_EQ_U64(t.mem.bar[pa_newer + 63], 0x11);
   hwt_channel_finish(&c);
   hwt_finish(&t);
}

TEST_CASE(release_is_ordered_after_the_copies_before_it)
{
   static struct hwt t;
   struct hwt_channel c;
   REQUIRE(hwt_init(&t, TEST_VRAM));
   REQUIRE(hwt_channel_init(&c, &t, "ordering"));
   const uint64_t size = 1 << 20;
   uint64_t src = hwt_alloc_mapped(&t, size, true), dst = hwt_alloc_mapped(&t, size, true);
   uint64_t sem = hwt_alloc_mapped(&t, PPU_PAGE_SIZE, true);
   static struct hwt_pb pb;
   for (uint32_t round = 1; round <= 20; round++) {
      hwt_pb_reset(&pb);
      hwt_pb_fill(&pb, src, round * 0x01010101u, size);
      hwt_pb_copy(&pb, dst, src, size);
      hwt_pb_sem(&pb, sem, round, PPU_SEM_OP_RELEASE);
      hwt_submit(&c, &pb);
      REQUIRE(hwt_wait_u64(&c, sem, round, 5000));
      /* Seeing the payload means the copy's data is visible. */
      CHECK_EQ_U64(hwt_ptr(&t, dst)[size - 1], (uint8_t)round);
   }
   hwt_channel_finish(&c);
   hwt_finish(&t);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
