/* The timing mode's components against cycle counts worked out by hand
 * (docs/timing.md): pipelines, caches, DRAM bandwidth, the TTU's unified
 * datapath, and whole grids on the SM (a dependent chain of adds takes N x
 * latency, independent ones issue one per interval, a load that misses
 * everywhere costs L2 + transfer + DRAM latency). */
#include <stdio.h>
#include <string.h>

#include "compute/sm_timing.h"
#include "compute_test_util.h"
#include "ppu/counters.h"
#include "test_harness.h"
#include "timing/cache_model.h"
#include "timing/dram_model.h"
#include "timing/fu_pipeline.h"
#include "timing/memory_system.h"
#include "timing/mshr_calendar.h"
#include "timing/ttu_datapath.h"

TEST_CASE(pipeline_result_after_latency_next_issue_after_interval)
{
   struct ppu_fu_pipe p;
   ppu_fu_pipe_init(&p, 6, 2);
   CHECK(ppu_fu_pipe_accepts(&p, 0));
   CHECK_EQ_U64(ppu_fu_pipe_issue(&p, 10, 1), 16);
   CHECK(!ppu_fu_pipe_accepts(&p, 11));
   CHECK(ppu_fu_pipe_accepts(&p, 12));
   /* An instruction of 3 beats holds the entry for 3 intervals. */
   CHECK_EQ_U64(ppu_fu_pipe_issue(&p, 12, 3), 18);
   CHECK(!ppu_fu_pipe_accepts(&p, 17));
   CHECK(ppu_fu_pipe_accepts(&p, 18));
}

TEST_CASE(cache_model_is_lru_within_a_set)
{
   struct ppu_cache_model c;
   /* 4 lines, 2 ways: 2 sets; lines 0, 2, 4 map to set 0. */
   REQUIRE(ppu_cache_model_init(&c, 4 * 128, 2));
   CHECK(!ppu_cache_model_access(&c, 0 * 128).hit);
   CHECK(!ppu_cache_model_access(&c, 2 * 128).hit);
   CHECK(ppu_cache_model_access(&c, 0 * 128 + 64).hit); /* same line; 0 now most recent */
   CHECK(!ppu_cache_model_access(&c, 4 * 128).hit);     /* evicts line 2 */
   CHECK(ppu_cache_model_access(&c, 0).hit);
   CHECK(!ppu_cache_model_access(&c, 2 * 128).hit);
   CHECK(!ppu_cache_model_access(&c, 1 * 128).hit); /* set 1 is independent */
   CHECK(ppu_cache_model_access(&c, 1 * 128).hit);
   ppu_cache_model_finish(&c);
}

TEST_CASE(dram_bandwidth_spaces_transfers_by_bytes_per_cycle)
{
   struct ppu_dram_model d;
   REQUIRE(ppu_dram_model_init(&d, 100, 32)); /* a 128-byte line takes 4 cycles */
   CHECK_EQ_U64(ppu_dram_model_transfer(&d, 10, 128), 10 + 4 + 100);
   /* Requested together: the second waits for the bus. */
   CHECK_EQ_U64(ppu_dram_model_transfer(&d, 10, 128), 10 + 8 + 100);
   /* Later, on an idle bus: no wait. */
   CHECK_EQ_U64(ppu_dram_model_transfer(&d, 1000, 128), 1000 + 4 + 100);
   /* More than a line per cycle stays exact: 4 lines at 256 B/cycle = 2. */
   ppu_dram_model_finish(&d);
   REQUIRE(ppu_dram_model_init(&d, 0, 256));
   uint64_t last = 0;
   for (int i = 0; i < 4; i++)
      last = ppu_dram_model_transfer(&d, 0, 128);
   CHECK_EQ_U64(last, 2);
   ppu_dram_model_finish(&d);
}

/* Issue 31: a transfer booked ahead (a TTU walk books its misses when the
 * instruction issues) must not hold up one requested earlier that reaches
 * the bus after it; a single "bus free at" mark made every miss on the chip
 * wait for the furthest booking. */
TEST_CASE(dram_transfer_requested_earlier_does_not_wait_for_one_booked_ahead)
{
   struct ppu_dram_model d;
   REQUIRE(ppu_dram_model_init(&d, 100, 32));
   CHECK_EQ_U64(ppu_dram_model_transfer(&d, 10000, 128), 10000 + 4 + 100);
   CHECK_EQ_U64(ppu_dram_model_transfer(&d, 10, 128), 10 + 4 + 100);
   CHECK_EQ_U64(ppu_dram_model_transfer(&d, 10, 128), 10 + 8 + 100); /* behind it */
   /* The bandwidth still holds for requests at one cycle: 64 lines at 4
    * cycles each. */
   uint64_t last = 0;
   for (int i = 0; i < 64; i++)
      last = ppu_dram_model_transfer(&d, 50000, 128);
   CHECK_EQ_U64(last, 50000 + 64 * 4 + 100);
   ppu_dram_model_finish(&d);
}

static void timing_config(struct ppu_gpu_config *cfg)
{
   ppu_gpu_config_default(cfg);
   cfg->vram_size = 256ull << 20;
   cfg->max_channels = 16;
   cfg->mode = PPU_GPU_MODE_TIMING;
   cfg->timing_progress = false;
}

/* An L1 in front of the L2 with latencies the memory tests work out by
 * hand: L1 30, L2 200, DRAM 300 cycles, 64 bytes a cycle (a line takes 2
 * cycles on the bus), `mshrs` MSHRs; counters zeroed. */
struct memory_rig {
   struct ppu_gpu_config cfg;
   struct ppu_l2 l2;
   struct ppu_l1 l1;
   struct ppu_counter_block counters;
};

static bool memory_rig_init(struct memory_rig *m, uint32_t mshrs)
{
   memset(m, 0, sizeof(*m));
   timing_config(&m->cfg);
   m->cfg.l1_latency = 30;
   m->cfg.l2_latency = 200;
   m->cfg.dram_latency = 300;
   m->cfg.dram_bytes_per_cycle = 64;
   m->cfg.l1_mshrs = mshrs;
   return ppu_l2_init(&m->l2, &m->cfg) && ppu_l1_init(&m->l1, &m->cfg, &m->l2, &m->counters);
}

static void memory_rig_finish(struct memory_rig *m)
{
   ppu_l1_finish(&m->l1);
   ppu_l2_finish(&m->l2);
}

TEST_CASE(a_miss_costs_the_configured_latencies_and_a_hit_the_l1s)
{
   static struct memory_rig m;
   REQUIRE(memory_rig_init(&m, 2));
   struct ppu_gpu_config cfg = m.cfg;
   /* Cold: L1 miss, L2 miss, 2 cycles on the bus, DRAM. */
   CHECK_EQ_U64(ppu_l1_read(&m.l1, 1000, 0x10000), 1000 + 200 + 2 + 300);
   /* The same line again while in flight: waits for that fill. */
   CHECK_EQ_U64(ppu_l1_read(&m.l1, 1001, 0x10040), 1000 + 200 + 2 + 300);
   /* After it arrived: an L1 hit. */
   CHECK_EQ_U64(ppu_l1_read(&m.l1, 5000, 0x10000), 5000 + 30);
   /* Two MSHRs: a third miss in flight waits for the first to return
    * (6502), to the start of the MSHR calendar's next 8-cycle window. */
   uint64_t a = ppu_l1_read(&m.l1, 6000, 0x20000);
   uint64_t b = ppu_l1_read(&m.l1, 6000, 0x30000);
   uint64_t c = ppu_l1_read(&m.l1, 6000, 0x40000);
   CHECK_EQ_U64(a, 6000 + 200 + 2 + 300);
   CHECK_EQ_U64(b, 6000 + 200 + 4 + 300); /* behind a on the bus */
   CHECK_EQ_U64(c, 6504 + 200 + 2 + 300);
   CHECK_EQ_U64(m.counters.value[PPU_COUNTER_L1_MSHR_STALLS], 1);
   /* Evicted from the L1 but in the L2: the L2's latency. */
   struct ppu_l1 small;
   cfg.l1_size = 4096;
   cfg.l1_ways = 32; /* 32 lines, one set */
   REQUIRE(ppu_l1_init(&small, &cfg, &m.l2, &m.counters));
   for (uint64_t i = 0; i < 33; i++)
      ppu_l1_read(&small, 10000, 0x100000 + i * 128);
   CHECK_EQ_U64(ppu_l1_read(&small, 20000, 0x100000), 20000 + 200);
   CHECK_EQ_U64(m.counters.value[PPU_COUNTER_DRAM_BYTES_READ], 128ull * (1 + 3 + 33));
   /* A write-back: a dirty line evicted from the L2 is written to DRAM. */
   CHECK_EQ_U64(m.counters.value[PPU_COUNTER_DRAM_BYTES_WRITTEN], 0);
   ppu_l1_finish(&small);
   memory_rig_finish(&m);
}

/* Issue 31: a line whose fill was booked ahead (at a later cycle) by one
 * requester does not make a request made before it wait for that fill: the
 * earlier request fetches the line itself, and later requests wait for the
 * earlier fill. In the L1 and in the L2 (another SM's L1 booked ahead). */
TEST_CASE(a_request_made_before_a_fill_booked_ahead_fetches_the_line_itself)
{
   static struct memory_rig m;
   REQUIRE(memory_rig_init(&m, 64));
   struct ppu_l1 other;
   REQUIRE(ppu_l1_init(&other, &m.cfg, &m.l2, &m.counters));
   CHECK_EQ_U64(ppu_l1_read(&m.l1, 9000, 0x10000), 9000 + 200 + 2 + 300);
   CHECK_EQ_U64(ppu_l1_read(&m.l1, 1000, 0x10000), 1000 + 200 + 2 + 300);
   CHECK_EQ_U64(ppu_l1_read(&m.l1, 1100, 0x10000), 1000 + 200 + 2 + 300); /* merged */
   CHECK_EQ_U64(ppu_l1_read(&m.l1, 9000, 0x10000), 9000 + 30);
   /* The other SM's L1 misses; its L2 request comes before the fill. */
   CHECK_EQ_U64(ppu_l1_read(&other, 900, 0x10000), 900 + 200 + 2 + 300);
   /* The L2 alone. */
   CHECK_EQ_U64(ppu_l2_access(&m.l2, &m.counters, 7000, 0x20000, false), 7000 + 200 + 2 + 300);
   CHECK_EQ_U64(ppu_l2_access(&m.l2, &m.counters, 2000, 0x20000, false), 2000 + 200 + 2 + 300);
   /* Counted as the tags saw them: the refetches are not new accesses. */
   CHECK_EQ_U64(m.counters.value[PPU_COUNTER_L1_MISSES], 2);
   CHECK_EQ_U64(m.counters.value[PPU_COUNTER_L1_HITS], 3);
   CHECK_EQ_U64(m.counters.value[PPU_COUNTER_L2_MISSES], 2);
   CHECK_EQ_U64(m.counters.value[PPU_COUNTER_L2_HITS], 2);
   CHECK_EQ_U64(m.counters.value[PPU_COUNTER_DRAM_BYTES_READ], 2 * 128);
   ppu_l1_finish(&other);
   memory_rig_finish(&m);
}

/* Issue 31: misses booked ahead hold their MSHRs only while they are in
 * flight; a miss made before them is not held up. */
TEST_CASE(mshrs_booked_ahead_do_not_hold_up_an_earlier_miss)
{
   struct ppu_mshr_calendar c;
   REQUIRE(ppu_mshr_calendar_init(&c, 2));
   ppu_mshr_calendar_hold(&c, 10000, 10500);
   ppu_mshr_calendar_hold(&c, 10000, 10500);
   CHECK_EQ_U64(ppu_mshr_calendar_first_free(&c, 10100), 10504);
   CHECK_EQ_U64(ppu_mshr_calendar_first_free(&c, 1000), 1000);
   /* ... unless it would still be in flight when they start: it takes its
    * MSHR at once all the same (it came first), and they are what waits. */
   CHECK_EQ_U64(ppu_mshr_calendar_first_free(&c, 9990), 9990);
   ppu_mshr_calendar_finish(&c);
   /* The same through the L1: two misses 9000 cycles ahead, then one now. */
   static struct memory_rig m;
   REQUIRE(memory_rig_init(&m, 2));
   ppu_l1_read(&m.l1, 10000, 0x10000);
   ppu_l1_read(&m.l1, 10000, 0x20000);
   CHECK_EQ_U64(ppu_l1_read(&m.l1, 1000, 0x30000), 1000 + 200 + 2 + 300);
   CHECK_EQ_U64(m.counters.value[PPU_COUNTER_L1_MSHR_STALLS], 0);
   memory_rig_finish(&m);
}

TEST_CASE(l2_writes_back_dirty_lines_it_evicts)
{
   struct ppu_gpu_config cfg;
   timing_config(&cfg);
   cfg.l2_size = 64 << 10;
   cfg.l2_ways = 512; /* one set of 512 lines */
   struct ppu_l2 l2;
   static struct ppu_counter_block counters;
   memset(&counters, 0, sizeof(counters));
   REQUIRE(ppu_l2_init(&l2, &cfg));
   ppu_l2_access(&l2, &counters, 0, 0, true); /* allocated dirty, no fill */
   CHECK_EQ_U64(counters.value[PPU_COUNTER_DRAM_BYTES_READ], 0);
   for (uint64_t i = 1; i <= 512; i++)
      ppu_l2_access(&l2, &counters, 0, i * 128, false);
   CHECK_EQ_U64(counters.value[PPU_COUNTER_DRAM_BYTES_WRITTEN], 128);
   CHECK_EQ_U64(counters.value[PPU_COUNTER_DRAM_BYTES_READ], 512 * 128);
   ppu_l2_finish(&l2);
}

TEST_CASE(a_stream_of_box_tests_achieves_four_per_cycle)
{
   struct ppu_ttu_datapath dp;
   ppu_ttu_datapath_init(&dp, 4, 1, 8, 3);
   uint64_t busy;
   /* 4000 box tests enter in 1000 cycles; the last leaves 8 stages later. */
   CHECK_EQ_U64(ppu_ttu_datapath_run(&dp, 100, 4000, 0, 0, &busy), 100 + 1000 - 1 + 8);
   CHECK_EQ_U64(busy, 1000);
   /* 500 triangle tests right behind: one per cycle, after the boxes. */
   CHECK_EQ_U64(ppu_ttu_datapath_run(&dp, 100, 0, 500, 0, &busy), 1100 + 500 - 1 + 8);
   /* Each switch between kinds costs the penalty: 8 boxes, 2 tris, 8 boxes
    * with 2 switches = 2 + 2 + 2 + 2 * 3 cycles. */
   CHECK_EQ_U64(ppu_ttu_datapath_issue_cycles(&dp, 16, 2, 2), 12);
   /* An empty batch takes nothing. */
   CHECK_EQ_U64(ppu_ttu_datapath_run(&dp, 5000, 0, 0, 0, &busy), 5000);
   CHECK_EQ_U64(busy, 0);
}

/* Two lanes' TTU work as sm_ttu.c records it: 3 node fetches, 16 box and 2
 * triangle tests with 2 switches, and an L0 miss of the same line. */
static void two_rays_missing_one_line(struct ppu_sm_timing *t)
{
   for (unsigned l = 0; l < 2; l++) {
      struct ppu_ttu_lane_work *lw = &t->ttu_lane[l];
      memset(lw, 0, sizeof(*lw));
      lw->node_fetches = 3;
      lw->boxes = 16;
      lw->triangles = 2;
      lw->switches = 2;
      lw->misses.count = 1;
      lw->misses.line[0] = 0x40000;
   }
}

TEST_CASE(ttu_instruction_books_ray_chains_merged_misses_and_ray_slots)
{
   struct ppu_gpu_config cfg;
   timing_config(&cfg);
   cfg.ttu_setup_latency = 4;
   cfg.ttu_l0_latency = 2;
   cfg.ttu_datapath_stages = 8;
   cfg.ttu_switch_penalty = 1;
   cfg.l2_latency = 190;
   cfg.dram_latency = 250;
   cfg.dram_bytes_per_cycle = 64;
   cfg.ttu_merge_node_requests = true;
   static struct ppu_sm sm;
   static struct ppu_l2 l2;
   memset(&sm, 0, sizeof(sm));
   REQUIRE(ppu_l2_init(&l2, &cfg));
   REQUIRE(ppu_sm_timing_create(&sm, &cfg, &l2));
   two_rays_missing_one_line(sm.timing);
   /* Each ray: setup to 104, 3 L0 lookups to 110, the miss from the L1
    * (cold: 110 + 190 + 2 + 250 = 552), then its tests: 4 + 2 + 2 x 1
    * issue cycles and 3 x 8 stages = 584. The second ray's miss merges
    * with the first's. The shared datapath (32 boxes, 4 triangles, 4
    * switches = 16 cycles from 104) is not the bound. */
   CHECK_EQ_U64(ppu_sm_timing_ttu(&sm, 100, 0x3), 584);
   CHECK_EQ_U64(sm.counters.value[PPU_COUNTER_TTU_MERGED_REQUESTS], 1);
   CHECK_EQ_U64(sm.counters.value[PPU_COUNTER_L1_MISSES], 1);
   /* The merged request never reached the L1: one TTU read, one lookup. */
   CHECK_EQ_U64(sm.counters.value[PPU_COUNTER_L1_TTU_READS], 1);
   CHECK_EQ_U64(sm.counters.value[PPU_COUNTER_L1_HITS], 0);
   CHECK_EQ_U64(sm.counters.value[PPU_COUNTER_TTU_RAY_LATENCY_LT_1024], 2);
   CHECK_EQ_U64(sm.counters.value[PPU_COUNTER_TTU_DATAPATH_BUSY_CYCLES], 16);
   ppu_sm_timing_destroy(&sm);

   ppu_l2_finish(&l2);

   /* A ray that spilled 20 stack entries (two lines of local memory) and
    * fetched one node that hit the L0: after setup (104) and the lookup
    * (106) it writes both lines through to the L2 (106 + 190) and reads
    * them back (+ 190, from the L2), then 1 box test cycle and 8 stages. */
   memset(&sm.counters, 0, sizeof(sm.counters));
   REQUIRE(ppu_l2_init(&l2, &cfg));
   REQUIRE(ppu_sm_timing_create(&sm, &cfg, &l2));
   memset(&sm.timing->ttu_lane[0], 0, sizeof(sm.timing->ttu_lane[0]));
   sm.timing->ttu_lane[0].node_fetches = 1;
   sm.timing->ttu_lane[0].boxes = 4;
   sm.timing->ttu_lane[0].spills = 20;
   CHECK_EQ_U64(ppu_sm_timing_ttu(&sm, 100, 0x1), 106 + 190 + 190 + 1 + 8);
   CHECK_EQ_U64(sm.counters.value[PPU_COUNTER_L1_MISSES], 2);
   CHECK_EQ_U64(sm.counters.value[PPU_COUNTER_L1_TTU_READS], 2); /* the two refills */
   ppu_sm_timing_destroy(&sm);
   ppu_l2_finish(&l2);

   /* One ray slot: the second ray starts when the first ends (584) and
    * after its L0 lookups (590) finds its line merged with the first ray's
    * request, already back; without merging it asks the L1, which has the
    * line by then: 32 cycles more. */
   cfg.ttu_ray_queue_slots = 1;
   for (int merge = 1; merge >= 0; merge--) {
      cfg.ttu_merge_node_requests = merge;
      REQUIRE(ppu_l2_init(&l2, &cfg));
      REQUIRE(ppu_sm_timing_create(&sm, &cfg, &l2));
      two_rays_missing_one_line(sm.timing);
      CHECK_EQ_U64(ppu_sm_timing_ttu(&sm, 100, 0x3), 590 + (merge ? 0 : 32) + 8 + 24);
      ppu_sm_timing_destroy(&sm);
      ppu_l2_finish(&l2);
   }
}

TEST_CASE(texture_instruction_takes_its_latency_after_missed_texels_arrive)
{
   struct ppu_gpu_config cfg;
   timing_config(&cfg);
   cfg.tex_latency = 100;
   cfg.l1_latency = 30;
   cfg.l2_latency = 200;
   cfg.dram_latency = 300;
   cfg.dram_bytes_per_cycle = 128;
   static struct ppu_sm sm;
   static struct ppu_l2 l2;
   memset(&sm, 0, sizeof(sm));
   REQUIRE(ppu_l2_init(&l2, &cfg));
   REQUIRE(ppu_sm_timing_create(&sm, &cfg, &l2));
   struct ppu_line_log *misses = &sm.timing->tex_misses;
   misses->count = 0; /* every texel hit the texture cache */
   CHECK_EQ_U64(ppu_sm_timing_tex(&sm, 1000), 1100);
   /* Two lines missed: the second is off the bus 2 cycles after the L2
    * latency (1 cycle a line), back after DRAM latency, then tex.latency. */
   misses->count = 2;
   misses->line[0] = 0x1000;
   misses->line[1] = 0x2000;
   CHECK_EQ_U64(ppu_sm_timing_tex(&sm, 1000), 1000 + 200 + 2 + 300 + 100);
   /* Again: both lines are in the L1 now. */
   CHECK_EQ_U64(ppu_sm_timing_tex(&sm, 5000), 5000 + 30 + 100);
   ppu_sm_timing_destroy(&sm);
   ppu_l2_finish(&l2);
}

/* Chip cycles of one grid of `threads` threads running src. */
static uint64_t grid_cycles(struct hwc *h, const char *src, uint32_t threads)
{
   uint64_t before = hwt_counter(&h->t, PPU_COUNTER_TIMING_CHIP_CYCLES);
   if (!hwc_run_simple(h, src, threads))
      return 0;
   return hwt_counter(&h->t, PPU_COUNTER_TIMING_CHIP_CYCLES) - before;
}

/* A program: `n` copies of `body`, then the store of R1 (constant length
 * apart from the body, so differences are the body's). */
static char *repeat_program(const char *head, const char *body, unsigned n)
{
   static char buf[64 << 10];
   size_t len = 0;
   len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s", head);
   for (unsigned i = 0; i < n; i++)
      len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s", body);
   snprintf(buf + len, sizeof(buf) - len, "%s", HWC_STORE_LANE("R1") "EXIT\n");
   return buf;
}

/* Cycles that n copies of body add to the program head + store. */
static uint64_t body_cycles(struct hwc *h, const char *head, const char *body, unsigned n)
{
   uint64_t base = grid_cycles(h, repeat_program(head, "", 0), 32);
   uint64_t with = grid_cycles(h, repeat_program(head, body, n), 32);
   CHECK(base != 0 && with != 0);
   return with - base;
}

TEST_CASE(a_dependent_chain_of_n_adds_takes_n_times_the_latency)
{
   static struct hwc h;
   struct ppu_gpu_config cfg;
   timing_config(&cfg);
   cfg.alu_latency = 6;
   cfg.alu_interval = 1;
   cfg.fma_latency = 4;
   cfg.fma_interval = 2;
   REQUIRE(hwc_init(&h, &cfg));
   /* Each add waits 6 cycles for the previous one (the first for the MOV),
    * and the store sequence after them starts a cycle after the last. */
   CHECK_EQ_U64(body_cycles(&h, "MOV R1, 0\n", "IADD.U32 R1, R1, 1\n", 64), 64 * 6);
   CHECK_EQ_U64(hwc_out32(&h, 5), 64); /* the same result as functional mode */
   /* Independent adds issue back to back, one per cycle. */
   CHECK_EQ_U64(body_cycles(&h, "MOV R1, 0\n", "IADD.U32 R2, R3, 1\n", 64), 64);
   /* Independent FADDs, one every 2 cycles (the FMA pipe's interval); the
    * ALU instruction after the last goes in the next cycle (another pipe). */
   CHECK_EQ_U64(body_cycles(&h, "MOV R1, 0\n", "FADD.F32 R2, R3, R4\n", 40), 40 * 2 - 1);
   hwc_finish(&h);
}

TEST_CASE(the_issue_window_lets_a_younger_warp_fill_the_older_ones_stalls)
{
   /* Two warps on one scheduler, each a chain of 16 dependent adds. */
   uint64_t added[2];
   for (uint32_t window = 1; window <= 2; window++) {
      static struct hwc h;
      struct ppu_gpu_config cfg;
      timing_config(&cfg);
      cfg.sm_schedulers = 1;
      cfg.sm_issue_window = window;
      cfg.alu_latency = 4;
      REQUIRE(hwc_init(&h, &cfg));
      uint64_t base = grid_cycles(&h, repeat_program("MOV R1, 0\n", "", 0), 64);
      uint64_t with =
          grid_cycles(&h, repeat_program("MOV R1, 0\n", "IADD.U32 R1, R1, 1\n", 16), 64);
      REQUIRE(base != 0 && with != 0);
      CHECK_EQ_U64(hwc_out32(&h, 63), 16);
      added[window - 1] = with - base;
      hwc_finish(&h);
   }
   /* Window 1: the scheduler sees only the oldest warp, so the younger one
    * runs after it and the chains add up: 2 x 16 x 4. Window 2: the younger
    * warp issues in the older one's dependency stalls, and the chains
    * overlap: 16 x 4. */
   CHECK_EQ_U64(added[0], 2 * 16 * 4);
   CHECK_EQ_U64(added[1], 16 * 4);
}

/* A grid of 64 workgroups of 64 threads that loads, computes and stores. */
static uint64_t wide_grid_cycles(const struct ppu_gpu_config *cfg, uint32_t *checksum)
{
   static struct hwc h;
   if (!hwc_init(&h, cfg))
      return 0;
   const char *src = "S2R R0, SR_TID_FLAT\n"
                     "S2R R2, SR_CTAID_X\n"
                     "IMAD.U32 R0, R2, 64, R0\n"
                     "LDC.U64 R4, c[0][RZ]\n"
                     "IMADW.U32 R6, R0, 4, R4\n"
                     "IADD.U64 R6, R6, 65536\n"
                     "LD.GLOBAL.U32 R1, [R6]\n"
                     "MOV R3, 20\n"
                     "loop:\n"
                     "IMAD.U32 R1, R1, 3, R0\n"
                     "IADD.U32 R3, R3, -1\n"
                     "ISETP.NE.U32 P0, R3, 0, PT\n"
                     "@P0 BRA loop\n" HWC_STORE_LANE("R1") "EXIT\n";
   struct ppu_qmd q;
   hwc_qmd_defaults(&h, &q, hwc_program(&h, src));
   q.workgroup_size[0] = 64;
   q.grid_size[0] = 64;
   uint64_t cycles = 0;
   if (hwc_launch(&h, &q, 0, NULL))
      cycles = hwt_counter(&h.t, PPU_COUNTER_TIMING_CHIP_CYCLES);
   *checksum = 0;
   for (uint32_t i = 0; i < 64 * 64; i++)
      *checksum = *checksum * 31 + hwc_out32(&h, i);
   hwc_finish(&h);
   return cycles;
}

TEST_CASE(timing_runs_are_deterministic_and_more_sms_take_fewer_cycles)
{
   struct ppu_gpu_config cfg;
   timing_config(&cfg);
   uint32_t sum_a, sum_b, sum_wide, sum_functional;
   uint64_t a = wide_grid_cycles(&cfg, &sum_a);
   uint64_t b = wide_grid_cycles(&cfg, &sum_b);
   REQUIRE(a != 0);
   CHECK_EQ_U64(a, b); /* one clock, one thread: the same cycles every run */
   cfg.gpc_count = 4;  /* 16 SMs instead of 4 */
   uint64_t wide = wide_grid_cycles(&cfg, &sum_wide);
   CHECK_MSG(wide < a, "16 SMs: %llu cycles, 4 SMs: %llu", (unsigned long long)wide,
             (unsigned long long)a);
   cfg.mode = PPU_GPU_MODE_FUNCTIONAL;
   CHECK_EQ_U64(wide_grid_cycles(&cfg, &sum_functional), 0);
   CHECK_EQ_U64(sum_a, sum_functional);
   CHECK_EQ_U64(sum_b, sum_functional);
   CHECK_EQ_U64(sum_wide, sum_functional);
}

TEST_CASE(a_load_that_misses_everywhere_costs_l2_transfer_and_dram)
{
   static struct hwc h;
   struct ppu_gpu_config cfg;
   timing_config(&cfg);
   cfg.alu_latency = 4;
   cfg.l2_latency = 150;
   cfg.dram_latency = 200;
   cfg.dram_bytes_per_cycle = 32;
   REQUIRE(hwc_init(&h, &cfg));
   /* Lane-uniform address 2 KiB into the output buffer: one line. */
   const char *load = "LDC.U64 R4, c[0][RZ]\n"
                      "IADD.U64 R4, R4, 2048\n"
                      "LD.GLOBAL.U32 R1, [R4]\n"
                      "IADD.U32 R1, R1, 7\n";
   const char *alu = "LDC.U64 R4, c[0][RZ]\n"
                     "IADD.U64 R4, R4, 2048\n"
                     "IADD.U32 R1, R4, 0\n"
                     "IADD.U32 R1, R1, 7\n";
   uint64_t with_alu = grid_cycles(&h, repeat_program(alu, "", 0), 32);
   uint64_t with_load = grid_cycles(&h, repeat_program(load, "", 0), 32);
   REQUIRE(with_alu != 0 && with_load != 0);
   CHECK_EQ_U64(hwc_out32(&h, 0), 7);
   /* The load's result: L2 latency + 4 cycles of bus + DRAM, where the
    * other program waits an ALU latency. */
   CHECK_EQ_U64(with_load - with_alu, 150 + 4 + 200 - 4);
   CHECK(hwt_counter(&h.t, PPU_COUNTER_L1_MISSES) >= 1);
   CHECK(hwt_counter(&h.t, PPU_COUNTER_DRAM_BYTES_READ) >= 128);
   hwc_finish(&h);
}

/* Cycles of one 32-thread workgroup that loads shared memory at
 * lane * stride bytes and uses the value. */
static uint64_t shared_load_cycles(struct hwc *h, unsigned stride)
{
   char src[1024];
   snprintf(src, sizeof(src),
            "S2R R0, SR_LANEID\n"
            "IMUL.U32 R2, R0, %u\n"
            "LD.SHARED.U32 R1, [R2]\n"
            "IADD.U32 R1, R1, 1\n" HWC_STORE_LANE("R1") "EXIT\n",
            stride);
   struct ppu_qmd q;
   hwc_qmd_defaults(h, &q, hwc_program(h, src));
   q.shared_memory_size = 4096;
   uint64_t before = hwt_counter(&h->t, PPU_COUNTER_TIMING_CHIP_CYCLES);
   if (!hwc_launch(h, &q, 0, NULL))
      return 0;
   return hwt_counter(&h->t, PPU_COUNTER_TIMING_CHIP_CYCLES) - before;
}

TEST_CASE(shared_memory_bank_conflicts_cost_a_cycle_per_extra_word)
{
   static struct hwc h;
   struct ppu_gpu_config cfg;
   timing_config(&cfg);
   cfg.shared_latency = 20;
   REQUIRE(hwc_init(&h, &cfg));
   uint64_t spread = shared_load_cycles(&h, 4);     /* 32 banks, no conflict */
   uint64_t same_word = shared_load_cycles(&h, 0);  /* one word: a broadcast */
   uint64_t conflict = shared_load_cycles(&h, 128); /* 32 words in bank 0 */
   REQUIRE(spread != 0 && same_word != 0 && conflict != 0);
   CHECK_EQ_U64(hwc_out32(&h, 7), 1); /* shared memory starts zeroed */
   CHECK_EQ_U64(same_word, spread);
   CHECK_EQ_U64(conflict - spread, 31);
   CHECK_EQ_U64(hwt_counter(&h.t, PPU_COUNTER_SM_SHARED_BANK_CONFLICTS), 31);
   hwc_finish(&h);
}

TEST_CASE(a_fault_in_timing_mode_stops_the_grid_with_its_pc)
{
   static struct hwc h;
   struct ppu_gpu_config cfg;
   timing_config(&cfg);
   REQUIRE(hwc_init(&h, &cfg));
   /* A load from an unmapped VA after a few instructions. */
   uint64_t prog = hwc_program(&h, "MOV R1, 0\n"
                                   "MOV R4, 0x1000\n"
                                   "MOV R5, 0x7f\n"
                                   "LD.GLOBAL.U32 R1, [R4]\n"
                                   "EXIT\n");
   struct ppu_qmd q;
   hwc_qmd_defaults(&h, &q, prog);
   struct ppu_fault f;
   CHECK(!hwc_launch(&h, &q, 0, &f));
   CHECK(f.kind == PPU_FAULT_MMU_UNMAPPED);
   CHECK_EQ_U64(f.pc, prog + 3 * 16);
   hwc_finish(&h);
}

TEST_CASE(timing_counters_stay_zero_in_functional_mode)
{
   static struct hwc h;
   REQUIRE(hwc_init(&h, NULL));
   REQUIRE(hwc_run_simple(&h, repeat_program("MOV R1, 3\n", "IADD.U32 R1, R1, 1\n", 8), 64));
   CHECK_EQ_U64(hwc_out32(&h, 40), 11);
   CHECK_EQ_U64(hwt_counter(&h.t, PPU_COUNTER_TIMING_CHIP_CYCLES), 0);
   CHECK_EQ_U64(hwt_counter(&h.t, PPU_COUNTER_SM_CYCLES), 0);
   CHECK_EQ_U64(hwt_counter(&h.t, PPU_COUNTER_L1_HITS) + hwt_counter(&h.t, PPU_COUNTER_L1_MISSES),
                0);
   hwc_finish(&h);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
