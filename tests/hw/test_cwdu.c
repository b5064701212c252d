/* Grid launch through the compute subchannel: every workgroup of a large
 * grid runs exactly once across the SMs, dispatch base offsets workgroup
 * ids, indirect launch reads the grid size from memory, empty grids are
 * no-ops, and bad QMDs fault with BAD_METHOD_DATA. */
#include <string.h>

#include "compute_test_util.h"
#include "ppu/methods.h"
#include "test_harness.h"

/* out[linear workgroup index] += 1 + id.x + id.y * 1000 + id.z * 1000000 */
static const char *id_program = "S2R R0, SR_TID_FLAT\n"
                                "ISETP.NE.U32 P0, R0, 0, PT\n"
                                "@P0 EXIT\n"
                                "S2R R1, SR_CTAID_X\nS2R R2, SR_CTAID_Y\nS2R R3, SR_CTAID_Z\n"
                                "LDC R4, c[0][RZ+8]\nLDC R5, c[0][RZ+12]\n" /* base x, y */
                                "ISUB.U32 R6, R1, R4\nISUB.U32 R7, R2, R5\n"
                                "S2R R8, SR_NCTAID_X\nS2R R9, SR_NCTAID_Y\n"
                                "LDC R10, c[0][RZ+16]\n"
                                "ISUB.U32 R11, R3, R10\n"
                                "IMAD.U32 R12, R11, R9, R7\nIMAD.U32 R12, R12, R8, R6\n"
                                "IMUL.U32 R13, R2, 1000\nIADD.U32 R13, R13, R1\n"
                                "IMUL.U32 R14, R3, 1000000\nIADD.U32 R13, R13, R14\n"
                                "IADD.U32 R13, R13, 1\n"
                                "LDC.U64 R60, c[0][RZ]\n"
                                "IMADW.U32 R60, R12, 4, R60\n"
                                "ATOM.ADD.GLOBAL.U32 RZ, [R60], R13, RZ\n"
                                "EXIT\n";

static void check_ids(struct hwc *h, const uint32_t grid[3], const uint32_t base[3])
{
   for (uint32_t z = 0; z < grid[2]; z++)
      for (uint32_t y = 0; y < grid[1]; y++)
         for (uint32_t x = 0; x < grid[0]; x++) {
            uint32_t i = (z * grid[1] + y) * grid[0] + x;
            uint32_t want = 1 + (x + base[0]) + (y + base[1]) * 1000 + (z + base[2]) * 1000000;
            if (hwc_out32(h, i) != want) {
               CHECK_MSG(false, "workgroup %u,%u,%u: 0x%x, want 0x%x", x, y, z, hwc_out32(h, i),
                         want);
               return;
            }
         }
}

TEST_CASE(every_workgroup_of_a_3d_grid_with_base_runs_exactly_once)
{
   static struct hwc h;
   REQUIRE(hwc_init(&h, NULL));
   uint32_t grid[3] = {37, 5, 3}, base[3] = {10, 20, 2};
   hwc_cb_write32(&h, 8, base[0]);
   hwc_cb_write32(&h, 12, base[1]);
   hwc_cb_write32(&h, 16, base[2]);
   struct ppu_qmd q;
   hwc_qmd_defaults(&h, &q, hwc_program(&h, id_program));
   q.workgroup_size[0] = 48;
   memcpy(q.grid_size, grid, sizeof(grid));
   memcpy(q.grid_base, base, sizeof(base));
   REQUIRE(hwc_launch(&h, &q, 0, NULL));
   check_ids(&h, grid, base);
   CHECK_EQ_U64(hwt_counter(&h.t, PPU_COUNTER_COMPUTE_WORKGROUPS), 37 * 5 * 3);
   hwc_finish(&h);
}

TEST_CASE(indirect_launch_reads_grid_size_from_memory)
{
   static struct hwc h;
   REQUIRE(hwc_init(&h, NULL));
   uint32_t grid[3] = {9, 4, 2}, base[3] = {0, 0, 0};
   uint64_t ind = hwt_alloc_mapped(&h.t, 4096, false);
   hwt_write(&h.t.mem, h.t.pd, ind + 4, grid, sizeof(grid));
   struct ppu_qmd q;
   hwc_qmd_defaults(&h, &q, hwc_program(&h, id_program));
   q.grid_size[0] = 1000; /* replaced by the indirect arguments */
   REQUIRE(hwc_launch(&h, &q, ind + 4, NULL));
   check_ids(&h, grid, base);
   hwc_finish(&h);
}

TEST_CASE(empty_grid_is_a_no_op_and_the_channel_goes_on)
{
   static struct hwc h;
   REQUIRE(hwc_init(&h, NULL));
   uint64_t ind = hwt_alloc_mapped(&h.t, 4096, false);
   struct ppu_qmd q;
   hwc_qmd_defaults(&h, &q, hwc_program(&h, id_program));
   REQUIRE(hwc_launch(&h, &q, ind, NULL)); /* zeros in memory: 0x0x0 */
   CHECK_EQ_U64(hwc_out32(&h, 0), 0);
   CHECK_EQ_U64(hwt_counter(&h.t, PPU_COUNTER_COMPUTE_GRIDS), 1);
   hwc_finish(&h);
}

TEST_CASE(invalid_qmd_fields_fault_with_bad_method_data)
{
   static struct hwc h;
   REQUIRE(hwc_init(&h, NULL));
   uint64_t prog = hwc_program(&h, "EXIT\n");
   for (int i = 0; i < 7; i++) {
      struct ppu_qmd q;
      hwc_qmd_defaults(&h, &q, prog);
      switch (i) {
      case 0:
         q.version = 7;
         break;
      case 1:
         q.register_count = 0;
         break;
      case 2:
         q.workgroup_size[0] = 1024;
         q.workgroup_size[1] = 2;
         break;
      case 3:
         q.shared_memory_size = 1u << 20;
         break;
      case 4:
         q.program_va += 4;
         break;
      case 5:
         q.register_count = 255;
         q.workgroup_size[0] = 1024; /* 32 warps x 255 x 32 > 65536 registers */
         break;
      case 6:
         q.cbank[3].size = 8; /* not a multiple of 16 */
         break;
      }
      struct ppu_fault f;
      CHECK(!hwc_launch(&h, &q, 0, &f));
      CHECK_MSG(f.kind == PPU_FAULT_BAD_METHOD_DATA && f.engine == PPU_ENGINE_COMPUTE,
                "case %d: kind %s engine %s (%s)", i, ppu_fault_kind_name(f.kind),
                ppu_engine_name(f.engine), f.detail);
      REQUIRE(hwt_channel_restart(&h.c, "compute"));
   }
   hwc_finish(&h);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
