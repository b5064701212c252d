/* A running grid holds only its own channel: the model thread goes on
 * serving other channels while the SMs work, and the launching channel goes
 * no further until its grid has ended. */
#include <string.h>

#include "compute_test_util.h"
#include "ppu/methods.h"
#include "test_harness.h"

/* Spins until the 32-bit word at out[0] is nonzero; then writes 7 to
 * out[1]. Only another channel can end it. */
static const char *wait_for_flag = "LDC.U64 R60, c[0][RZ]\n"
                                   "PBK done\n"
                                   "spin:\n"
                                   "  LD.GLOBAL.U32 R1, [R60]\n"
                                   "  ISETP.NE.U32 P0, R1, 0, PT\n"
                                   "  @P0 BRK\n"
                                   "  BRA spin\n"
                                   "done:\n"
                                   "MOV R2, 7\n"
                                   "ST.GLOBAL.U32 [R60+4], R2\n"
                                   "EXIT\n";

static void launch_without_sync(struct hwc *h, const struct ppu_qmd *q)
{
   uint64_t qva = hwt_alloc_mapped(&h->t, 4096, false);
   hwt_write(&h->t.mem, h->t.pd, qva, q, sizeof(*q));
   static struct hwt_pb pb;
   hwt_pb_reset(&pb);
   hwt_pb_set64(&pb, PPU_SUBCH_COMPUTE, PPU_COMPUTE_QMD_ADDR_LO, qva);
   hwt_pb_immd(&pb, PPU_SUBCH_COMPUTE, PPU_COMPUTE_LAUNCH, 0);
   hwt_submit(&h->c, &pb);
}

TEST_CASE(other_channels_run_while_a_grid_waits_on_them)
{
   struct hwc h;
   REQUIRE(hwc_init(&h, NULL));
   struct hwt_channel other;
   REQUIRE(hwt_channel_init(&other, &h.t, "other"));

   uint64_t prog = hwc_program(&h, wait_for_flag);
   struct ppu_qmd q;
   hwc_qmd_defaults(&h, &q, prog);
   launch_without_sync(&h, &q);

   /* The grid cannot end before this release: if LAUNCH held the model
    * thread, the other channel would never run and both syncs would time
    * out. */
   static struct hwt_pb pb;
   hwt_pb_reset(&pb);
   hwt_pb_sem(&pb, h.out_va, 1, PPU_SEM_OP_RELEASE);
   hwt_submit(&other, &pb);
   CHECK(hwt_sync(&other, 10000));
   CHECK(hwt_sync(&h.c, 10000));
   CHECK_EQ_U64(hwc_out32(&h, 1), 7);

   hwt_channel_finish(&other);
   hwc_finish(&h);
}

TEST_CASE(the_launching_channel_waits_for_its_grid)
{
   struct hwc h;
   REQUIRE(hwc_init(&h, NULL));
   uint64_t prog = hwc_program(&h, wait_for_flag);
   struct ppu_qmd q;
   hwc_qmd_defaults(&h, &q, prog);
   launch_without_sync(&h, &q);

   /* The release after LAUNCH on the same channel must not happen while the
    * grid still spins. */
   uint64_t marker = hwt_alloc_mapped(&h.t, 4096, true);
   static struct hwt_pb pb;
   hwt_pb_reset(&pb);
   hwt_pb_sem(&pb, marker, 5, PPU_SEM_OP_RELEASE);
   hwt_submit(&h.c, &pb);
   hwt_sleep_us(50000);
   CHECK_EQ_U64(hwt_load_u64(&h.t, marker), 0);
   CHECK_EQ_U64(hwc_out32(&h, 1), 0);

   hwt_store_u64(&h.t, h.out_va, 1); /* lets the grid end */
   ppu_gpu_semaphore_doorbell(h.t.gpu);
   CHECK(hwt_wait_u64(&h.c, marker, 5, 10000));
   CHECK_EQ_U64(hwc_out32(&h, 1), 7);
   hwc_finish(&h);
}

TEST_CASE(destroying_a_channel_waits_out_its_running_grid)
{
   struct hwc h;
   REQUIRE(hwc_init(&h, NULL));
   uint64_t prog = hwc_program(&h, wait_for_flag);
   struct ppu_qmd q;
   hwc_qmd_defaults(&h, &q, prog);
   launch_without_sync(&h, &q);
   hwt_sleep_us(20000);
   /* The grid ends once the flag is set; destroy must then release it
    * (ASan checks nothing leaks or is used after free). */
   hwt_store_u64(&h.t, h.out_va, 1);
   hwc_finish(&h);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
