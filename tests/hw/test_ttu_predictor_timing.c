/* The intersection predictor's timing-mode structures
 * (hw/src/timing/ttu_predictor_timing.h, docs/predictor.md) against cycle
 * counts worked out by hand: the lookup and update ports, the partial warp
 * collector (a full group leaves at once, a partial one at its timeout, a
 * late ray opens a new group) and the merge table of a repacked warp. */
#include "test_harness.h"
#include "timing/ttu_predictor_timing.h"

static void init(struct ppu_ttu_predictor_timing *pt, uint32_t ports, uint32_t timeout)
{
   struct ppu_ttu_predictor_config c = {.enabled = true,
                                        .lookup_fifo = ports,
                                        .update_fifo = ports,
                                        .collector_timeout_cycles = timeout,
                                        .repacking = PPU_TTU_PREDICTOR_REPACKING_ON};
   struct ppu_ttu_predictor_config r;
   CHECK(ppu_ttu_predictor_config_resolve(&c, &r, NULL, 0));
   ppu_ttu_predictor_timing_init(pt, &r);
}

/* 4 ports: a warp's 32 lookups queued at cycle 100 are served 4 a cycle,
 * 100..107; a 33rd comes at 108. A request that comes later than the
 * ports are free is served when it comes. */
TEST_CASE(four_lookup_ports_serve_a_warp_in_eight_cycles)
{
   struct ppu_ttu_predictor_timing pt;
   init(&pt, 4, 16);
   for (uint32_t i = 0; i < 32; i++)
      CHECK_EQ_U64(ppu_ttu_ports_serve(&pt.lookup, 100), 100 + i / 4);
   CHECK_EQ_U64(ppu_ttu_ports_serve(&pt.lookup, 100), 108);
   CHECK_EQ_U64(ppu_ttu_ports_serve(&pt.lookup, 500), 500);
   /* The update ports are separate: still free at 100. */
   CHECK_EQ_U64(ppu_ttu_ports_serve(&pt.update, 100), 100);
}

TEST_CASE(one_port_serves_one_request_per_cycle)
{
   struct ppu_ttu_predictor_timing pt;
   init(&pt, 1, 16);
   CHECK_EQ_U64(ppu_ttu_ports_serve(&pt.update, 10), 10);
   CHECK_EQ_U64(ppu_ttu_ports_serve(&pt.update, 10), 11);
   CHECK_EQ_U64(ppu_ttu_ports_serve(&pt.update, 10), 12);
}

/* Three rays arrive at 50, 51, 52 with a timeout of 16: the group leaves
 * at 50 + 16 = 66 for each of them; a ray at 67 finds the group gone (one
 * timeout, one repacked warp) and opens a new one, leaving at 83; the end
 * of the grid lets that one go too. */
TEST_CASE(a_partial_warp_leaves_at_its_timeout)
{
   struct ppu_ttu_predictor_timing pt;
   init(&pt, 4, 16);
   uint64_t timeouts = 0, repacked = 0;
   CHECK_EQ_U64(ppu_ttu_collector_add(&pt, 50, &timeouts, &repacked), 66);
   CHECK_EQ_U64(ppu_ttu_collector_add(&pt, 51, &timeouts, &repacked), 66);
   CHECK_EQ_U64(ppu_ttu_collector_add(&pt, 52, &timeouts, &repacked), 66);
   CHECK_EQ_U64(repacked, 0);
   CHECK_EQ_U64(ppu_ttu_collector_add(&pt, 67, &timeouts, &repacked), 83);
   CHECK_EQ_U64(timeouts, 1);
   CHECK_EQ_U64(repacked, 1);
   ppu_ttu_predictor_timing_flush(&pt, &timeouts, &repacked);
   CHECK_EQ_U64(timeouts, 2);
   CHECK_EQ_U64(repacked, 2);
   /* Flushing an empty collector counts nothing. */
   ppu_ttu_predictor_timing_flush(&pt, &timeouts, &repacked);
   CHECK_EQ_U64(repacked, 2);
}

/* 32 rays arriving at 10, 11, ..., 41 (timeout 1000): the 32nd fills the
 * group, which leaves at once (41), counted as a repacked warp without a
 * timeout; the rays before it were booked with the timeout (1010). */
TEST_CASE(a_full_warp_leaves_when_its_32nd_ray_comes)
{
   struct ppu_ttu_predictor_timing pt;
   init(&pt, 4, 1000);
   uint64_t timeouts = 0, repacked = 0;
   for (uint32_t i = 0; i < 31; i++)
      CHECK_EQ_U64(ppu_ttu_collector_add(&pt, 10 + i, &timeouts, &repacked), 1010);
   CHECK_EQ_U64(ppu_ttu_collector_add(&pt, 41, &timeouts, &repacked), 41);
   CHECK_EQ_U64(repacked, 1);
   CHECK_EQ_U64(timeouts, 0);
   /* The next ray opens a new group. */
   CHECK_EQ_U64(ppu_ttu_collector_add(&pt, 42, &timeouts, &repacked), 1042);
}

/* A line already requested is shared: the later ray gets it when it comes
 * back (or at once if it is already back). */
TEST_CASE(merge_table_shares_a_line)
{
   static struct ppu_ttu_merge_table m;
   bool found;
   m.count = 0;
   CHECK_EQ_U64(ppu_ttu_merge_lookup(&m, 0x1000, 5, &found), 5);
   CHECK(!found);
   ppu_ttu_merge_add(&m, 0x1000, 5, 300);
   CHECK_EQ_U64(ppu_ttu_merge_lookup(&m, 0x1000, 7, &found), 300);
   CHECK(found);
   CHECK_EQ_U64(ppu_ttu_merge_lookup(&m, 0x1000, 400, &found), 400);
   CHECK(found);
   ppu_ttu_merge_lookup(&m, 0x1080, 7, &found);
   CHECK(!found);
}

/* Issue 31: rays' walks are booked one after the other, so a ray can miss
 * a line at a cycle before another ray's request for it: that request,
 * not yet made, cannot serve it. Its own request replaces the entry. */
TEST_CASE(merge_table_does_not_serve_a_ray_before_the_request_was_made)
{
   static struct ppu_ttu_merge_table m;
   bool found;
   m.count = 0;
   ppu_ttu_merge_add(&m, 0x1000, 5000, 5500);
   CHECK_EQ_U64(ppu_ttu_merge_lookup(&m, 0x1000, 100, &found), 100);
   CHECK(!found);
   ppu_ttu_merge_add(&m, 0x1000, 100, 600);
   CHECK_EQ_U64(m.count, 1);
   CHECK_EQ_U64(ppu_ttu_merge_lookup(&m, 0x1000, 200, &found), 600);
   CHECK(found);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
