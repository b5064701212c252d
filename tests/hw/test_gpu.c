/* The chip's top level: configuration, VRAM and BAR, timer, counters table,
 * channel creation rules, fault names and report, independent chips. */
#include <stdio.h>
#include <string.h>

#include "hw_test_util.h"
#include "test_harness.h"

TEST_CASE(default_config_is_8_gib_and_64_channels_and_comes_up)
{
   struct ppu_gpu_config cfg;
   ppu_gpu_config_default(&cfg);
   CHECK_EQ_U64(cfg.vram_size, 8ull << 30);
   CHECK_EQ_U64(cfg.max_channels, 64);
   char err[128] = "";
   struct ppu_gpu *gpu = ppu_gpu_create(&cfg, err, sizeof(err));
   REQUIRE(gpu);
   CHECK_EQ_U64(ppu_gpu_vram_size(gpu), 8ull << 30);
   uint8_t *bar = ppu_gpu_bar(gpu);
   REQUIRE(bar);
   /* Both ends of the aperture are usable memory and read zero at first. */
   CHECK_EQ_U64(bar[0], 0);
   CHECK_EQ_U64(bar[(8ull << 30) - 1], 0);
   bar[(8ull << 30) - 1] = 0x5a;
   CHECK_EQ_U64(bar[(8ull << 30) - 1], 0x5a);
   ppu_gpu_destroy(gpu);
}

TEST_CASE(bad_configs_are_refused_with_a_reason)
{
   struct ppu_gpu_config cfg;
   char err[128];
   ppu_gpu_config_default(&cfg);
   cfg.vram_size = 12345;
   err[0] = 0;
   CHECK(ppu_gpu_create(&cfg, err, sizeof(err)) == NULL);
   CHECK(strstr(err, "vram_size") != NULL);
   cfg.vram_size = 0;
   CHECK(ppu_gpu_create(&cfg, err, sizeof(err)) == NULL);
   ppu_gpu_config_default(&cfg);
   cfg.max_channels = 0;
   err[0] = 0;
   CHECK(ppu_gpu_create(&cfg, err, sizeof(err)) == NULL);
   CHECK(strstr(err, "max_channels") != NULL);
   ppu_gpu_config_default(&cfg);
   cfg.vram_size = 1ull << 62; /* more address space than the host has */
   err[0] = 0;
   CHECK(ppu_gpu_create(&cfg, err, sizeof(err)) == NULL);
   CHECK(strstr(err, "VRAM") != NULL);
   CHECK(ppu_gpu_create(NULL, NULL, 0) == NULL); /* no err buffer: still fine */
}

TEST_CASE(vram_discard_zeroes_whole_pages_inside_the_range_only)
{
   static struct hwt t;
   REQUIRE(hwt_init(&t, 16ull << 20));
   uint8_t *bar = ppu_gpu_bar(t.gpu);
   memset(bar + 0x10000, 0xee, 4 * PPU_PAGE_SIZE);
   /* [0x10800, 0x13800): only the pages 0x11000 and 0x12000 are whole. */
   ppu_gpu_vram_discard(t.gpu, 0x10800, 0x3000);
   CHECK_EQ_U64(bar[0x10fff], 0xee);
   CHECK_EQ_U64(bar[0x11000], 0);
   CHECK_EQ_U64(bar[0x12fff], 0);
   CHECK_EQ_U64(bar[0x13000], 0xee);
   /* Ranges past the end are clipped, not trusted. */
   memset(bar + (16ull << 20) - PPU_PAGE_SIZE, 0xee, PPU_PAGE_SIZE);
   ppu_gpu_vram_discard(t.gpu, (16ull << 20) - PPU_PAGE_SIZE, ~0ull);
   CHECK_EQ_U64(bar[(16ull << 20) - 1], 0);
   ppu_gpu_vram_discard(t.gpu, ~0ull & ~PPU_PAGE_MASK, PPU_PAGE_SIZE);
   hwt_finish(&t);
}

TEST_CASE(timer_counts_nanoseconds_from_creation_and_never_decreases)
{
   static struct hwt t;
   REQUIRE(hwt_init(&t, 16ull << 20));
   uint64_t first = ppu_gpu_timer_ns(t.gpu);
   CHECK(first < 5000000000ull); /* counts from creation */
   uint64_t prev = first;
   for (int i = 0; i < 100000; i++) {
      uint64_t now = ppu_gpu_timer_ns(t.gpu);
      if (now < prev) {
         CHECK_MSG(false, "timer went from %llu to %llu", (unsigned long long)prev,
                   (unsigned long long)now);
         break;
      }
      prev = now;
   }
   hwt_sleep_us(3000);
   CHECK(ppu_gpu_timer_ns(t.gpu) >= first + 3000000);
   hwt_finish(&t);
}

TEST_CASE(counter_table_has_unique_documented_names)
{
   for (unsigned i = 0; i < PPU_COUNTER_COUNT; i++) {
      const char *name = ppu_counter_name(i);
      REQUIRE(name && ppu_counter_unit(i) && ppu_counter_description(i));
      CHECK_MSG(strchr(name, '.') != NULL, "counter %s is not unit.name", name);
      CHECK(ppu_counter_unit(i)[0] != 0);
      CHECK(strlen(ppu_counter_description(i)) > 10);
      for (unsigned j = 0; j < i; j++)
         CHECK_MSG(strcmp(name, ppu_counter_name(j)) != 0, "duplicate counter %s", name);
   }
   CHECK(ppu_counter_name(PPU_COUNTER_COUNT) == NULL);
   CHECK(ppu_counter_description((enum ppu_counter) - 1) == NULL);
   CHECK(strcmp(ppu_counter_name(PPU_COUNTER_COPY_BYTES_COPIED), "copy.bytes_copied") == 0);
}

TEST_CASE(counters_start_at_zero_and_track_work)
{
   static struct hwt t;
   struct hwt_channel c;
   REQUIRE(hwt_init(&t, 32ull << 20));
   uint64_t v[PPU_COUNTER_COUNT];
   ppu_gpu_read_counters(t.gpu, v);
   for (unsigned i = 0; i < PPU_COUNTER_COUNT; i++)
      CHECK_MSG(v[i] == 0, "%s starts at %llu", ppu_counter_name(i), (unsigned long long)v[i]);
   REQUIRE(hwt_channel_init(&c, &t, "counters"));
   uint64_t buf = hwt_alloc_mapped(&t, 1 << 20, true);
   static struct hwt_pb pb;
   hwt_pb_reset(&pb);
   hwt_pb_fill(&pb, buf, 0, 1 << 19);
   hwt_pb_copy(&pb, buf + (1 << 19), buf, 1 << 19);
   hwt_submit(&c, &pb);
   REQUIRE(hwt_sync(&c, 5000));
   ppu_gpu_read_counters(t.gpu, v);
   CHECK_EQ_U64(v[PPU_COUNTER_COPY_BYTES_FILLED], 1 << 19);
   CHECK_EQ_U64(v[PPU_COUNTER_COPY_BYTES_COPIED], 1 << 19);
   CHECK_EQ_U64(v[PPU_COUNTER_COPY_OPERATIONS], 2);
   CHECK_EQ_U64(v[PPU_COUNTER_HOST_GPFIFO_ENTRIES], 2);
   CHECK_EQ_U64(v[PPU_COUNTER_HOST_SEM_RELEASES], 1);
   CHECK(v[PPU_COUNTER_MMU_TLB_HITS] > 0);
   CHECK(v[PPU_COUNTER_MMU_TLB_MISSES] > 0);
   CHECK_EQ_U64(v[PPU_COUNTER_MMU_PAGE_WALKS], v[PPU_COUNTER_MMU_TLB_MISSES]);
   CHECK_EQ_U64(v[PPU_COUNTER_MMU_FAULTS], 0);
   hwt_channel_finish(&c);
   hwt_finish(&t);
}

TEST_CASE(channel_descriptors_that_cannot_work_are_refused)
{
   static struct hwt t;
   REQUIRE(hwt_init(&t, 32ull << 20));
   struct ppu_channel_desc good = {
       .page_directory_pa = t.pd, .gpfifo_va = 0x10000, .gpfifo_entries = 16, .name = "x"};
   struct ppu_channel_desc d = good;
   d.gpfifo_entries = 12; /* not a power of two */
   CHECK(ppu_channel_create(t.gpu, &d) == NULL);
   d = good;
   d.gpfifo_entries = 0;
   CHECK(ppu_channel_create(t.gpu, &d) == NULL);
   d = good;
   d.gpfifo_va = 0x10004; /* entries are 8-byte aligned */
   CHECK(ppu_channel_create(t.gpu, &d) == NULL);
   d = good;
   d.page_directory_pa = t.pd + 8;
   CHECK(ppu_channel_create(t.gpu, &d) == NULL);
   d = good;
   d.page_directory_pa = 32ull << 20; /* outside VRAM */
   CHECK(ppu_channel_create(t.gpu, &d) == NULL);
   CHECK(ppu_channel_create(t.gpu, NULL) == NULL);
   d = good;
   d.name = NULL; /* a name is optional */
   struct ppu_channel *ch = ppu_channel_create(t.gpu, &d);
   CHECK(ch != NULL);
   ppu_channel_destroy(ch);
   ppu_channel_destroy(NULL);
   hwt_finish(&t);
}

TEST_CASE(channels_run_out_at_max_channels_and_slots_are_reused)
{
   static struct hwt t;
   REQUIRE(hwt_init(&t, 32ull << 20)); /* 16 channels */
   struct ppu_channel_desc d = {
       .page_directory_pa = t.pd, .gpfifo_va = 0x10000, .gpfifo_entries = 8, .name = "slot"};
   struct ppu_channel *ch[16];
   for (int i = 0; i < 16; i++) {
      ch[i] = ppu_channel_create(t.gpu, &d);
      CHECK(ch[i] != NULL);
   }
   CHECK(ppu_channel_create(t.gpu, &d) == NULL);
   ppu_channel_destroy(ch[7]);
   ch[7] = ppu_channel_create(t.gpu, &d);
   CHECK(ch[7] != NULL);
   for (int i = 0; i < 16; i++)
      ppu_channel_destroy(ch[i]);
   hwt_finish(&t);
}

TEST_CASE(fault_names_cover_every_kind_and_engine)
{
   for (int k = PPU_FAULT_NONE; k <= PPU_FAULT_WATCHDOG; k++)
      CHECK(strcmp(ppu_fault_kind_name(k), "UNKNOWN") != 0);
   CHECK(strcmp(ppu_fault_kind_name(PPU_FAULT_MMU_BAD_PTE), "MMU_BAD_PTE") == 0);
   CHECK(strcmp(ppu_fault_kind_name((enum ppu_fault_kind)99), "UNKNOWN") == 0);
   CHECK(strcmp(ppu_engine_name(PPU_ENGINE_COPY), "copy") == 0);
   CHECK(strcmp(ppu_engine_name(PPU_ENGINE_HOST), "host") == 0);
   CHECK(strcmp(ppu_engine_name((enum ppu_engine)42), "unknown") == 0);
}

TEST_CASE(fault_report_names_everything_a_person_needs)
{
   struct ppu_fault f = {.kind = PPU_FAULT_MMU_WRITE_PROTECT,
                         .engine = PPU_ENGINE_COPY,
                         .address = 0x12345678,
                         .write = true,
                         .subchannel = PPU_SUBCH_COPY,
                         .method = PPU_COPY_LAUNCH,
                         .method_data = 1,
                         .gpfifo_entry = PPU_GPFIFO_ENTRY(0xabc000, 12),
                         .gp_get = 5};
   strcpy(f.detail, "page PA 0x1000 is mapped read-only");
   char buf[1024];
   ppu_fault_format(NULL, &f, buf, sizeof(buf));
   const char *want[] = {"MMU_WRITE_PROTECT", "copy",         "0x0012345678", "write",    "0x010",
                         "entry 5",           "0x0000abc000", "12 words",     "read-only"};
   for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++)
      CHECK_MSG(strstr(buf, want[i]) != NULL, "report lacks \"%s\":\n%s", want[i], buf);
   /* A short buffer is truncated, never overrun. */
   char small[16];
   memset(small, 'x', sizeof(small));
   ppu_fault_format(NULL, &f, small, 8);
   CHECK(small[7] == 0 && small[8] == 'x');
}

TEST_CASE(two_chips_in_one_process_are_independent)
{
   static struct hwt a, b;
   struct hwt_channel ca, cb;
   REQUIRE(hwt_init(&a, 32ull << 20));
   REQUIRE(hwt_init(&b, 32ull << 20));
   REQUIRE(hwt_channel_init(&ca, &a, "a"));
   REQUIRE(hwt_channel_init(&cb, &b, "b"));
   CHECK(ppu_gpu_bar(a.gpu) != ppu_gpu_bar(b.gpu));
   CHECK(hwt_sync(&ca, 5000));
   CHECK(hwt_sync(&cb, 5000));
   CHECK_EQ_U64(hwt_counter(&a, PPU_COUNTER_HOST_SEM_RELEASES), 1);
   /* Destroying one leaves the other working. */
   hwt_channel_finish(&ca);
   hwt_finish(&a);
   CHECK(hwt_sync(&cb, 5000));
   CHECK_EQ_U64(hwt_counter(&b, PPU_COUNTER_HOST_SEM_RELEASES), 2);
   hwt_channel_finish(&cb);
   hwt_finish(&b);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
