/* Copy engine: COPY, FILL, INLINE and QUERY_COPY through a channel, over
 * buffers whose pages are physically scattered, checked word by word. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw_test_util.h"
#include "test_harness.h"

#define TEST_VRAM (512ull << 20)

static uint32_t pattern_word(uint64_t i, uint32_t seed)
{
   uint32_t x = (uint32_t)i * 2654435761u ^ seed;
   x ^= x >> 15;
   return x * 2246822519u;
}

static void host_fill_pattern(struct hwt *t, uint64_t va, uint64_t bytes, uint32_t seed)
{
   uint32_t page_words[PPU_PAGE_SIZE / 4];
   for (uint64_t off = 0; off < bytes; off += sizeof(page_words)) {
      uint64_t n = bytes - off < sizeof(page_words) ? bytes - off : sizeof(page_words);
      for (uint64_t i = 0; i < n / 4; i++)
         page_words[i] = pattern_word(off / 4 + i, seed);
      hwt_write(&t->mem, t->pd, va + off, page_words, n);
   }
}

/* Compares count words at va with the pattern starting at word first. */
static bool check_pattern(struct hwt *t, uint64_t va, uint64_t bytes, uint64_t first, uint32_t seed)
{
   for (uint64_t i = 0; i < bytes / 4; i++) {
      uint32_t w;
      hwt_read(&t->mem, t->pd, va + i * 4, &w, 4);
      if (w != pattern_word(first + i, seed)) {
         CHECK_MSG(false, "word %llu at VA 0x%llx is 0x%08x, expected 0x%08x",
                   (unsigned long long)i, (unsigned long long)(va + i * 4), w,
                   pattern_word(first + i, seed));
         return false;
      }
   }
   return true;
}

static uint32_t read_u32(struct hwt *t, uint64_t va)
{
   uint32_t w = 0;
   hwt_read(&t->mem, t->pd, va, &w, 4);
   return w;
}

TEST_CASE(copy_of_8_mib_between_scattered_pages_is_exact_word_by_word)
{
   static struct hwt t;
   struct hwt_channel c;
   REQUIRE(hwt_init(&t, TEST_VRAM));
   REQUIRE(hwt_channel_init(&c, &t, "copy"));
   const uint64_t size = 8ull << 20;
   uint64_t src = hwt_alloc_scattered(&t, size + PPU_PAGE_SIZE);
   uint64_t dst = hwt_alloc_scattered(&t, size + PPU_PAGE_SIZE);
   host_fill_pattern(&t, src, size + PPU_PAGE_SIZE, 1);
   /* Offsets that are not page aligned and differ between the two sides,
    * so every chunk boundary of source and destination falls differently. */
   static struct hwt_pb pb;
   hwt_pb_reset(&pb);
   hwt_pb_copy(&pb, dst + 12, src + 2048, size);
   hwt_submit(&c, &pb);
   CHECK(hwt_sync(&c, 5000));
   CHECK(check_pattern(&t, dst + 12, size, 2048 / 4, 1));
   CHECK_EQ_U64(read_u32(&t, dst + 8), 0);         /* before: untouched */
   CHECK_EQ_U64(read_u32(&t, dst + 12 + size), 0); /* after: untouched */
   CHECK_EQ_U64(hwt_counter(&t, PPU_COUNTER_COPY_BYTES_COPIED), size);
   CHECK_EQ_U64(hwt_counter(&t, PPU_COUNTER_COPY_OPERATIONS), 1);
   hwt_channel_finish(&c);
   hwt_finish(&t);
}

TEST_CASE(copy_of_odd_length_and_unaligned_bytes)
{
   static struct hwt t;
   struct hwt_channel c;
   REQUIRE(hwt_init(&t, TEST_VRAM));
   REQUIRE(hwt_channel_init(&c, &t, "copy"));
   uint64_t src = hwt_alloc_scattered(&t, 4 * PPU_PAGE_SIZE);
   uint64_t dst = hwt_alloc_scattered(&t, 5 * PPU_PAGE_SIZE);
   host_fill_pattern(&t, src, 4 * PPU_PAGE_SIZE, 9);
   static struct hwt_pb pb;
   hwt_pb_reset(&pb);
   hwt_pb_copy(&pb, dst + 4093, src + 1, 3 * PPU_PAGE_SIZE + 5);
   hwt_submit(&c, &pb);
   REQUIRE(hwt_sync(&c, 5000));
   uint8_t *want = malloc(4 * PPU_PAGE_SIZE), *got = malloc(4 * PPU_PAGE_SIZE);
   REQUIRE(want && got);
   hwt_read(&t.mem, t.pd, src + 1, want, 3 * PPU_PAGE_SIZE + 5);
   hwt_read(&t.mem, t.pd, dst + 4093, got, 3 * PPU_PAGE_SIZE + 5);
   CHECK(memcmp(want, got, 3 * PPU_PAGE_SIZE + 5) == 0);
   CHECK_EQ_U64(*hwt_ptr(&t, dst + 4092), 0);
   free(want);
   free(got);
   hwt_channel_finish(&c);
   hwt_finish(&t);
}

static double seconds_since(uint64_t t0)
{
   return (double)(hwt_now_ns() - t0) * 1e-9;
}

TEST_CASE(contiguous_64_mib_copy_runs_at_memcpy_speed)
{
   /* Prints both rates so a slowdown shows in the log; the check is only
    * that the copy is right (rates are for people, not for pass/fail). */
   static struct hwt t;
   struct hwt_channel c;
   REQUIRE(hwt_init(&t, TEST_VRAM));
   REQUIRE(hwt_channel_init(&c, &t, "bandwidth"));
   const uint64_t size = 64ull << 20;
   uint64_t src = hwt_alloc_mapped(&t, size, true), dst = hwt_alloc_mapped(&t, size, true);
   memset(hwt_ptr(&t, src), 0x3c, size);
   memset(hwt_ptr(&t, dst), 0, size); /* touch the pages before timing */
   static struct hwt_pb pb;
   hwt_pb_reset(&pb);
   hwt_pb_copy(&pb, dst, src, size);
   uint64_t t0 = hwt_now_ns();
   hwt_submit(&c, &pb);
   REQUIRE(hwt_sync(&c, 10000));
   double engine = seconds_since(t0);
   t0 = hwt_now_ns();
   memcpy(hwt_ptr(&t, dst), hwt_ptr(&t, src), size);
   double host = seconds_since(t0);
   printf("  copy engine %.0f MB/s, host memcpy %.0f MB/s (64 MiB)\n", size / engine / 1e6,
          size / host / 1e6);
   CHECK_EQ_U64(hwt_ptr(&t, dst)[size - 1], 0x3c);
   CHECK(hwt_counter(&t, PPU_COUNTER_MMU_TLB_MISSES) < 3 * (size / PPU_PAGE_SIZE));
   hwt_channel_finish(&c);
   hwt_finish(&t);
}

TEST_CASE(fill_writes_pattern_over_scattered_pages_and_nothing_else)
{
   static struct hwt t;
   struct hwt_channel c;
   REQUIRE(hwt_init(&t, TEST_VRAM));
   REQUIRE(hwt_channel_init(&c, &t, "fill"));
   const uint64_t size = 3ull << 20;
   uint64_t dst = hwt_alloc_scattered(&t, size + 3 * PPU_PAGE_SIZE);
   static struct hwt_pb pb;
   hwt_pb_reset(&pb);
   hwt_pb_fill(&pb, dst + 4, 0x01020304, size);            /* byte pattern differs */
   hwt_pb_fill(&pb, dst + size + 8, 0x7f7f7f7f, 2 * 4096); /* memset path */
   hwt_submit(&c, &pb);
   REQUIRE(hwt_sync(&c, 5000));
   CHECK_EQ_U64(read_u32(&t, dst), 0);
   for (uint64_t off = 4; off < size + 4; off += 4) {
      uint32_t w = read_u32(&t, dst + off);
      if (w != 0x01020304) {
         CHECK_MSG(false, "fill word at +%llu is 0x%08x", (unsigned long long)off, w);
         break;
      }
   }
   CHECK_EQ_U64(read_u32(&t, dst + size + 4), 0);
   CHECK_EQ_U64(read_u32(&t, dst + size + 8), 0x7f7f7f7f);
   CHECK_EQ_U64(read_u32(&t, dst + size + 8 + 8188), 0x7f7f7f7f);
   CHECK_EQ_U64(read_u32(&t, dst + size + 8 + 8192), 0);
   CHECK_EQ_U64(hwt_counter(&t, PPU_COUNTER_COPY_BYTES_FILLED), size + 8192);
   hwt_channel_finish(&c);
   hwt_finish(&t);
}

TEST_CASE(inline_data_crosses_pages_and_segments)
{
   static struct hwt t;
   struct hwt_channel c;
   REQUIRE(hwt_init(&t, TEST_VRAM));
   REQUIRE(hwt_channel_init(&c, &t, "inline"));
   const uint32_t words = 3000; /* ~2.9 pages */
   uint64_t dst = hwt_alloc_scattered(&t, 4 * PPU_PAGE_SIZE);
   static struct hwt_pb pb;
   hwt_pb_reset(&pb);
   hwt_pb_set64(&pb, PPU_SUBCH_COPY, PPU_COPY_DST_ADDR_LO, dst + 4096 - 8);
   hwt_pb_set64(&pb, PPU_SUBCH_COPY, PPU_COPY_LENGTH_LO, words * 4);
   hwt_pb_immd(&pb, PPU_SUBCH_COPY, PPU_COPY_LAUNCH, PPU_COPY_OP_INLINE);
   uint32_t *data = malloc(words * 4);
   REQUIRE(data);
   for (uint32_t i = 0; i < words; i++)
      data[i] = pattern_word(i, 5);
   /* The first 1000 words in this segment, the rest in the next one. */
   hwt_pb_method(&pb, PPU_MTHD_NONINCR, PPU_SUBCH_COPY, PPU_COPY_INLINE_DATA, 1000, data);
   hwt_submit(&c, &pb);
   hwt_pb_reset(&pb);
   hwt_pb_method(&pb, PPU_MTHD_NONINCR, PPU_SUBCH_COPY, PPU_COPY_INLINE_DATA, words - 1000,
                 data + 1000);
   hwt_submit(&c, &pb);
   REQUIRE(hwt_sync(&c, 5000));
   CHECK(check_pattern(&t, dst + 4096 - 8, words * 4, 0, 5));
   CHECK_EQ_U64(read_u32(&t, dst + 4096 - 8 + words * 4), 0);
   CHECK_EQ_U64(hwt_counter(&t, PPU_COUNTER_COPY_BYTES_INLINE), words * 4);
   free(data);
   hwt_channel_finish(&c);
   hwt_finish(&t);
}

/* --- QUERY_COPY --------------------------------------------------------- */

static const struct ppu_query_record query_records[4] = {
    {0x1111111122222222ull, 1},
    {0x0000000000000005ull, 0}, /* unavailable */
    {0xfffffffffffffff0ull, 7}, /* any non-zero availability counts as 1 */
    {0x0000000100000003ull, 1},
};

static void run_query_copy(struct hwt *t, struct hwt_channel *c, uint64_t src, uint64_t dst,
                           uint32_t stride, uint32_t flags)
{
   memset(hwt_ptr(t, dst), 0xaa, PPU_PAGE_SIZE);
   static struct hwt_pb pb;
   hwt_pb_reset(&pb);
   hwt_pb_set64(&pb, PPU_SUBCH_COPY, PPU_COPY_SRC_ADDR_LO, src);
   hwt_pb_set64(&pb, PPU_SUBCH_COPY, PPU_COPY_DST_ADDR_LO, dst);
   uint32_t d[3] = {stride, 4, flags};
   hwt_pb_method(&pb, PPU_MTHD_INCR, PPU_SUBCH_COPY, PPU_COPY_DST_STRIDE, 3, d);
   hwt_pb_immd(&pb, PPU_SUBCH_COPY, PPU_COPY_LAUNCH, PPU_COPY_OP_QUERY_COPY);
   hwt_submit(c, &pb);
   CHECK(hwt_sync(c, 5000));
}

static uint64_t read_u64(struct hwt *t, uint64_t va)
{
   uint64_t v = 0;
   hwt_read(&t->mem, t->pd, va, &v, 8);
   return v;
}

TEST_CASE(query_copy_formats_values_and_availability)
{
   static struct hwt t;
   struct hwt_channel c;
   REQUIRE(hwt_init(&t, TEST_VRAM));
   REQUIRE(hwt_channel_init(&c, &t, "query"));
   uint64_t src = hwt_alloc_mapped(&t, PPU_PAGE_SIZE, true);
   uint64_t dst = hwt_alloc_mapped(&t, PPU_PAGE_SIZE, true);
   hwt_write(&t.mem, t.pd, src, query_records, sizeof(query_records));
   const uint32_t untouched32 = 0xaaaaaaaau;
   const uint64_t untouched64 = 0xaaaaaaaaaaaaaaaaull;

   /* 32-bit values only: truncated, unavailable one not written. */
   run_query_copy(&t, &c, src, dst, 4, 0);
   CHECK_EQ_U64(read_u32(&t, dst + 0), 0x22222222);
   CHECK_EQ_U64(read_u32(&t, dst + 4), untouched32);
   CHECK_EQ_U64(read_u32(&t, dst + 8), 0xfffffff0);
   CHECK_EQ_U64(read_u32(&t, dst + 12), 3);
   CHECK_EQ_U64(read_u32(&t, dst + 16), untouched32);

   /* 32-bit with availability, stride 12 (value, availability, gap). */
   run_query_copy(&t, &c, src, dst, 12, PPU_QUERY_FLAG_WITH_AVAILABILITY);
   CHECK_EQ_U64(read_u32(&t, dst + 0), 0x22222222);
   CHECK_EQ_U64(read_u32(&t, dst + 4), 1);
   CHECK_EQ_U64(read_u32(&t, dst + 8), untouched32);
   CHECK_EQ_U64(read_u32(&t, dst + 12), untouched32); /* unavailable: value kept */
   CHECK_EQ_U64(read_u32(&t, dst + 16), 0);           /* ...availability written */
   CHECK_EQ_U64(read_u32(&t, dst + 28), 1);           /* 7 reads as available */

   /* 64-bit with availability, stride 16. */
   run_query_copy(&t, &c, src, dst, 16, PPU_QUERY_FLAG_64BIT | PPU_QUERY_FLAG_WITH_AVAILABILITY);
   CHECK_EQ_U64(read_u64(&t, dst + 0), 0x1111111122222222ull);
   CHECK_EQ_U64(read_u64(&t, dst + 8), 1);
   CHECK_EQ_U64(read_u64(&t, dst + 16), untouched64);
   CHECK_EQ_U64(read_u64(&t, dst + 24), 0);
   CHECK_EQ_U64(read_u64(&t, dst + 32), 0xfffffffffffffff0ull);
   CHECK_EQ_U64(read_u64(&t, dst + 48), 0x0000000100000003ull);
   CHECK_EQ_U64(read_u64(&t, dst + 56), 1);

   /* PARTIAL writes the unavailable value too. */
   run_query_copy(&t, &c, src, dst, 8, PPU_QUERY_FLAG_64BIT | PPU_QUERY_FLAG_PARTIAL);
   CHECK_EQ_U64(read_u64(&t, dst + 8), 5);
   CHECK_EQ_U64(read_u64(&t, dst + 32), untouched64);
   hwt_channel_finish(&c);
   hwt_finish(&t);
}

/* --- Faults ------------------------------------------------------------- */

struct copy_fault_case {
   const char *name;
   enum ppu_fault_kind kind;
   uint32_t method; /* expected faulting method */
};

/* Runs pb on a fresh channel and checks the fault it stops on. */
static void expect_copy_fault(struct hwt *t, const struct hwt_pb *pb,
                              const struct copy_fault_case *want)
{
   struct hwt_channel c;
   if (!hwt_channel_init(&c, t, want->name))
      return;
   hwt_submit(&c, pb);
   struct ppu_fault f;
   bool faulted = hwt_wait_fault(&c, &f, 5000);
   CHECK_MSG(faulted, "%s: no fault", want->name);
   if (faulted) {
      CHECK_MSG(f.kind == want->kind, "%s: fault %s (%s)", want->name, ppu_fault_kind_name(f.kind),
                f.detail);
      CHECK_MSG(f.engine == PPU_ENGINE_COPY, "%s: engine %s", want->name,
                ppu_engine_name(f.engine));
      CHECK_EQ_U64(f.subchannel, PPU_SUBCH_COPY);
      CHECK_MSG(f.method == want->method, "%s: method 0x%x", want->name, f.method);
   }
   hwt_channel_finish(&c);
}

TEST_CASE(copy_engine_rejects_bad_operations_with_a_fault)
{
   static struct hwt t;
   REQUIRE(hwt_init(&t, TEST_VRAM));
   uint64_t buf = hwt_alloc_mapped(&t, 4 * PPU_PAGE_SIZE, true);
   uint64_t ro = hwt_alloc_mapped(&t, PPU_PAGE_SIZE, false);
   static struct hwt_pb pb;

   hwt_pb_reset(&pb);
   hwt_pb_copy(&pb, buf + 100, buf, 200);
   expect_copy_fault(
       &t, &pb, &(struct copy_fault_case){"overlap", PPU_FAULT_BAD_METHOD_DATA, PPU_COPY_LAUNCH});
   hwt_pb_reset(&pb);
   hwt_pb_fill(&pb, buf + 2, 0, 8);
   expect_copy_fault(
       &t, &pb,
       &(struct copy_fault_case){"fill-misaligned", PPU_FAULT_BAD_METHOD_DATA, PPU_COPY_LAUNCH});
   hwt_pb_reset(&pb);
   hwt_pb_fill(&pb, buf, 0, 6);
   expect_copy_fault(
       &t, &pb,
       &(struct copy_fault_case){"fill-length", PPU_FAULT_BAD_METHOD_DATA, PPU_COPY_LAUNCH});
   hwt_pb_reset(&pb);
   hwt_pb_copy(&pb, ro, buf, 16);
   expect_copy_fault(
       &t, &pb,
       &(struct copy_fault_case){"read-only", PPU_FAULT_MMU_WRITE_PROTECT, PPU_COPY_LAUNCH});
   hwt_pb_reset(&pb);
   hwt_pb_immd(&pb, PPU_SUBCH_COPY, PPU_COPY_LAUNCH, PPU_COPY_OP_BLIT + 1);
   expect_copy_fault(
       &t, &pb,
       &(struct copy_fault_case){"unknown-op", PPU_FAULT_BAD_METHOD_DATA, PPU_COPY_LAUNCH});
   hwt_pb_reset(&pb);
   hwt_pb_immd(&pb, PPU_SUBCH_COPY, 0x1f, 0);
   expect_copy_fault(&t, &pb,
                     &(struct copy_fault_case){"unknown-method", PPU_FAULT_BAD_METHOD, 0x1f});
   hwt_pb_reset(&pb);
   hwt_pb_immd(&pb, PPU_SUBCH_COPY, PPU_COPY_QUERY_FLAGS, 8);
   expect_copy_fault(
       &t, &pb,
       &(struct copy_fault_case){"query-flags", PPU_FAULT_BAD_METHOD_DATA, PPU_COPY_QUERY_FLAGS});
   hwt_pb_reset(&pb);
   hwt_pb_set64(&pb, PPU_SUBCH_COPY, PPU_COPY_SRC_ADDR_LO, buf);
   hwt_pb_set64(&pb, PPU_SUBCH_COPY, PPU_COPY_DST_ADDR_LO, buf + 4);
   hwt_pb_immd(&pb, PPU_SUBCH_COPY, PPU_COPY_QUERY_FLAGS, PPU_QUERY_FLAG_64BIT);
   hwt_pb_immd(&pb, PPU_SUBCH_COPY, PPU_COPY_QUERY_COUNT, 1);
   hwt_pb_immd(&pb, PPU_SUBCH_COPY, PPU_COPY_LAUNCH, PPU_COPY_OP_QUERY_COPY);
   expect_copy_fault(
       &t, &pb,
       &(struct copy_fault_case){"query-align", PPU_FAULT_BAD_METHOD_DATA, PPU_COPY_LAUNCH});

   /* INLINE: a length that is not whole words, a word too many, and a
    * different copy method before the data is complete. */
   hwt_pb_reset(&pb);
   hwt_pb_set64(&pb, PPU_SUBCH_COPY, PPU_COPY_DST_ADDR_LO, buf);
   hwt_pb_set64(&pb, PPU_SUBCH_COPY, PPU_COPY_LENGTH_LO, 6);
   hwt_pb_immd(&pb, PPU_SUBCH_COPY, PPU_COPY_LAUNCH, PPU_COPY_OP_INLINE);
   expect_copy_fault(
       &t, &pb,
       &(struct copy_fault_case){"inline-length", PPU_FAULT_BAD_METHOD_DATA, PPU_COPY_LAUNCH});
   hwt_pb_reset(&pb);
   hwt_pb_set64(&pb, PPU_SUBCH_COPY, PPU_COPY_DST_ADDR_LO, buf);
   hwt_pb_set64(&pb, PPU_SUBCH_COPY, PPU_COPY_LENGTH_LO, 8);
   hwt_pb_immd(&pb, PPU_SUBCH_COPY, PPU_COPY_LAUNCH, PPU_COPY_OP_INLINE);
   const uint32_t three[3] = {1, 2, 3};
   hwt_pb_method(&pb, PPU_MTHD_NONINCR, PPU_SUBCH_COPY, PPU_COPY_INLINE_DATA, 3, three);
   expect_copy_fault(
       &t, &pb,
       &(struct copy_fault_case){"inline-extra", PPU_FAULT_BAD_METHOD_DATA, PPU_COPY_INLINE_DATA});
   CHECK_EQ_U64(read_u32(&t, buf + 4), 2); /* the two expected words landed */
   hwt_pb_reset(&pb);
   hwt_pb_set64(&pb, PPU_SUBCH_COPY, PPU_COPY_LENGTH_LO, 8);
   hwt_pb_immd(&pb, PPU_SUBCH_COPY, PPU_COPY_LAUNCH, PPU_COPY_OP_INLINE);
   hwt_pb_immd(&pb, PPU_SUBCH_COPY, PPU_COPY_FILL_PATTERN, 0);
   expect_copy_fault(&t, &pb,
                     &(struct copy_fault_case){"inline-interrupted", PPU_FAULT_BAD_METHOD,
                                               PPU_COPY_FILL_PATTERN});
   hwt_finish(&t);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
