/* COUNTER_SNAPSHOT (docs/methods.md, "Counter snapshots"): the record's
 * header and table order, snapshots taken in channel order around copy and
 * compute work giving that work's exact counts, and the faults of a bad
 * address or data word. */
#include <string.h>

#include "compute_test_util.h"
#include "ppu/counter_snapshot.h"
#include "test_harness.h"

#define TEST_VRAM (64ull << 20)

struct snapshot {
   struct ppu_counter_snapshot_header header;
   uint64_t value[PPU_COUNTER_COUNT];
};

static void pb_snapshot(struct hwt_pb *pb, uint64_t va)
{
   hwt_pb_set64(pb, PPU_SUBCH_HOST, PPU_HOST_COUNTER_SNAPSHOT_ADDR_LO, va);
   hwt_pb_immd(pb, PPU_SUBCH_HOST, PPU_HOST_COUNTER_SNAPSHOT, 0);
}

static void read_snapshot(struct hwt *t, uint64_t va, struct snapshot *s)
{
   hwt_read(&t->mem, t->pd, va, s, sizeof(*s));
}

static uint64_t delta(const struct snapshot *a, const struct snapshot *b, enum ppu_counter id)
{
   return b->value[id] - a->value[id];
}

TEST_CASE(snapshot_has_a_header_and_every_counter_in_table_order)
{
   static struct hwt t;
   struct hwt_channel c;
   REQUIRE(hwt_init(&t, TEST_VRAM));
   REQUIRE(hwt_channel_init(&c, &t, "snapshot"));
   /* Across a page boundary, on scattered pages: the record is written
    * through the MMU like any other. */
   uint64_t buf = hwt_alloc_scattered(&t, 2 * PPU_PAGE_SIZE);
   uint64_t va = buf + PPU_PAGE_SIZE - 64;
   static struct hwt_pb pb;
   hwt_pb_reset(&pb);
   hwt_pb_fill(&pb, buf, 0x01020304u, 4096);
   pb_snapshot(&pb, va);
   hwt_submit(&c, &pb);
   REQUIRE(hwt_sync(&c, 5000));

   struct snapshot s;
   read_snapshot(&t, va, &s);
   CHECK_EQ_U64(s.header.version, PPU_COUNTER_SNAPSHOT_VERSION);
   CHECK_EQ_U64(s.header.count, PPU_COUNTER_COUNT);
   CHECK_EQ_U64(sizeof(s), PPU_COUNTER_SNAPSHOT_BYTES);
   /* The fill came before: exact. Counters that only grow are at most what
    * the chip reads now. */
   CHECK_EQ_U64(s.value[PPU_COUNTER_COPY_BYTES_FILLED], 4096);
   CHECK_EQ_U64(s.value[PPU_COUNTER_COPY_OPERATIONS], 1);
   uint64_t now[PPU_COUNTER_COUNT];
   ppu_gpu_read_counters(t.gpu, now);
   for (unsigned i = 0; i < PPU_COUNTER_COUNT; i++)
      CHECK(s.value[i] <= now[i]);
   CHECK(s.value[PPU_COUNTER_HOST_PUSHBUFFER_WORDS] > 0); /* fetched before decoding */
   hwt_channel_finish(&c);
   hwt_finish(&t);
}

TEST_CASE(snapshots_around_a_copy_give_its_bytes)
{
   static struct hwt t;
   struct hwt_channel c;
   REQUIRE(hwt_init(&t, TEST_VRAM));
   REQUIRE(hwt_channel_init(&c, &t, "copy"));
   uint64_t rec = hwt_alloc_mapped(&t, 2 * PPU_PAGE_SIZE, true);
   uint64_t src = hwt_alloc_mapped(&t, 1 << 16, true), dst = hwt_alloc_mapped(&t, 1 << 16, true);
   static struct hwt_pb pb;
   hwt_pb_reset(&pb);
   pb_snapshot(&pb, rec);
   hwt_pb_fill(&pb, src, 0xabcdef01u, 1 << 16);
   hwt_pb_copy(&pb, dst, src, 12345);
   pb_snapshot(&pb, rec + PPU_PAGE_SIZE);
   hwt_submit(&c, &pb);
   REQUIRE(hwt_sync(&c, 5000));
   struct snapshot a, b;
   read_snapshot(&t, rec, &a);
   read_snapshot(&t, rec + PPU_PAGE_SIZE, &b);
   CHECK_EQ_U64(delta(&a, &b, PPU_COUNTER_COPY_BYTES_FILLED), 1 << 16);
   CHECK_EQ_U64(delta(&a, &b, PPU_COUNTER_COPY_BYTES_COPIED), 12345);
   CHECK_EQ_U64(delta(&a, &b, PPU_COUNTER_COPY_OPERATIONS), 2);
   CHECK_EQ_U64(delta(&a, &b, PPU_COUNTER_COMPUTE_GRIDS), 0);
   hwt_channel_finish(&c);
   hwt_finish(&t);
}

/* Two instructions per thread. */
static const char *two_instructions = "MOV R1, 1\n"
                                      "EXIT\n";

/* Launches q between two snapshots, all in one segment: the second is only
 * right if it waited for every workgroup. False when the channel faulted. */
static bool snapshots_around_grid(struct hwc *h, const struct ppu_qmd *q, struct snapshot *a,
                                  struct snapshot *b)
{
   uint64_t qva = hwt_alloc_mapped(&h->t, 4096, false);
   hwt_write(&h->t.mem, h->t.pd, qva, q, sizeof(*q));
   uint64_t rec = hwt_alloc_mapped(&h->t, 2 * PPU_PAGE_SIZE, true);
   static struct hwt_pb pb;
   hwt_pb_reset(&pb);
   pb_snapshot(&pb, rec);
   hwt_pb_set64(&pb, PPU_SUBCH_COMPUTE, PPU_COMPUTE_QMD_ADDR_LO, qva);
   hwt_pb_immd(&pb, PPU_SUBCH_COMPUTE, PPU_COMPUTE_LAUNCH, 0);
   pb_snapshot(&pb, rec + PPU_PAGE_SIZE);
   hwt_submit(&h->c, &pb);
   if (!hwt_sync(&h->c, 60000))
      return false;
   read_snapshot(&h->t, rec, a);
   read_snapshot(&h->t, rec + PPU_PAGE_SIZE, b);
   return true;
}

TEST_CASE(snapshot_after_a_launch_waits_for_the_grid_and_counts_it_exactly)
{
   struct hwc h;
   REQUIRE(hwc_init(&h, NULL));
   struct ppu_qmd q;
   hwc_qmd_defaults(&h, &q, hwc_program(&h, two_instructions));
   q.workgroup_size[0] = 64;
   q.grid_size[0] = 5;
   struct snapshot a, b;
   REQUIRE(snapshots_around_grid(&h, &q, &a, &b));
   const uint64_t warps = 5 * 2;
   CHECK_EQ_U64(delta(&a, &b, PPU_COUNTER_COMPUTE_GRIDS), 1);
   CHECK_EQ_U64(delta(&a, &b, PPU_COUNTER_COMPUTE_WORKGROUPS), 5);
   CHECK_EQ_U64(delta(&a, &b, PPU_COUNTER_COMPUTE_WARP_INSTRUCTIONS), warps * 2);
   CHECK_EQ_U64(delta(&a, &b, PPU_COUNTER_COMPUTE_LANE_INSTRUCTIONS), 5 * 64 * 2);
   CHECK_EQ_U64(delta(&a, &b, PPU_COUNTER_TTU_RAYS), 0);
   /* Functional mode: the timing counters stay 0. */
   CHECK_EQ_U64(b.value[PPU_COUNTER_TIMING_CHIP_CYCLES], 0);
   hwc_finish(&h);
}

TEST_CASE(snapshot_in_timing_mode_has_chip_cycles)
{
   struct ppu_gpu_config cfg;
   ppu_gpu_config_default(&cfg);
   cfg.vram_size = 256ull << 20;
   cfg.mode = PPU_GPU_MODE_TIMING;
   cfg.timing_progress = false;
   struct hwc h;
   REQUIRE(hwc_init(&h, &cfg));
   struct ppu_qmd q;
   hwc_qmd_defaults(&h, &q, hwc_program(&h, two_instructions));
   struct snapshot a, b;
   REQUIRE(snapshots_around_grid(&h, &q, &a, &b));
   CHECK(delta(&a, &b, PPU_COUNTER_TIMING_CHIP_CYCLES) > 0);
   CHECK(delta(&a, &b, PPU_COUNTER_SM_CYCLES) > 0);
   CHECK_EQ_U64(delta(&a, &b, PPU_COUNTER_COMPUTE_LANE_INSTRUCTIONS), 32 * 2);
   hwc_finish(&h);
}

/* Runs one snapshot at make_va's address with data word `data` on a fresh
 * chip; true with *f filled when the channel faulted. */
static bool snapshot_fault(uint64_t (*make_va)(struct hwt *), uint32_t data, struct ppu_fault *f)
{
   static struct hwt t;
   struct hwt_channel c;
   if (!hwt_init(&t, TEST_VRAM))
      return false;
   if (!hwt_channel_init(&c, &t, "bad")) {
      hwt_finish(&t);
      return false;
   }
   uint64_t va = make_va(&t);
   static struct hwt_pb pb;
   hwt_pb_reset(&pb);
   hwt_pb_set64(&pb, PPU_SUBCH_HOST, PPU_HOST_COUNTER_SNAPSHOT_ADDR_LO, va);
   hwt_pb_immd(&pb, PPU_SUBCH_HOST, PPU_HOST_COUNTER_SNAPSHOT, data);
   hwt_submit(&c, &pb);
   bool faulted = hwt_wait_fault(&c, f, 5000);
   hwt_channel_finish(&c);
   hwt_finish(&t);
   return faulted;
}

static uint64_t unmapped_va(struct hwt *t)
{
   return hwt_alloc_va(t, PPU_PAGE_SIZE);
}

static uint64_t read_only_va(struct hwt *t)
{
   return hwt_alloc_mapped(t, PPU_PAGE_SIZE, false);
}

static uint64_t misaligned_va(struct hwt *t)
{
   return hwt_alloc_mapped(t, PPU_PAGE_SIZE, true) + 4;
}

static uint64_t good_va(struct hwt *t)
{
   return hwt_alloc_mapped(t, PPU_PAGE_SIZE, true);
}

TEST_CASE(snapshot_to_an_unmapped_address_is_an_mmu_fault_of_the_host)
{
   struct ppu_fault f;
   REQUIRE(snapshot_fault(unmapped_va, 0, &f));
   CHECK_EQ_U64(f.kind, PPU_FAULT_MMU_UNMAPPED);
   CHECK_EQ_U64(f.engine, PPU_ENGINE_HOST);
   CHECK(f.write);
   CHECK_EQ_U64(f.method, PPU_HOST_COUNTER_SNAPSHOT);
}

TEST_CASE(snapshot_to_a_read_only_page_is_a_write_protect_fault)
{
   struct ppu_fault f;
   REQUIRE(snapshot_fault(read_only_va, 0, &f));
   CHECK_EQ_U64(f.kind, PPU_FAULT_MMU_WRITE_PROTECT);
   CHECK_EQ_U64(f.engine, PPU_ENGINE_HOST);
}

TEST_CASE(snapshot_to_a_misaligned_address_is_bad_method_data)
{
   struct ppu_fault f;
   REQUIRE(snapshot_fault(misaligned_va, 0, &f));
   CHECK_EQ_U64(f.kind, PPU_FAULT_BAD_METHOD_DATA);
   CHECK(strstr(f.detail, "8-byte aligned") != NULL);
}

TEST_CASE(snapshot_with_nonzero_data_is_bad_method_data)
{
   struct ppu_fault f;
   REQUIRE(snapshot_fault(good_va, 1, &f));
   CHECK_EQ_U64(f.kind, PPU_FAULT_BAD_METHOD_DATA);
   CHECK_EQ_U64(f.method_data, 1);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
