/* PhysicalStorageBuffer pointers (GL_EXT_buffer_reference). */
#include <string.h>

#include "compiler_test_util.h"
#include "test_harness.h"

TEST_CASE(buffer_reference_arrays_and_linked_list)
{
   struct ctu t;
   REQUIRE(ctu_init(&t));
   static uint32_t src[64], raw[2 + 64];
   for (uint32_t i = 0; i < 64; i++) {
      src[i] = i * 3 + 1;
      raw[2 + i] = i ^ 0x55u;
   }
   uint64_t sb = ctu_buffer(&t, src, sizeof(src)), db = ctu_buffer(&t, NULL, 3 * 64 * 4);
   uint64_t rb = ctu_buffer(&t, raw, sizeof(raw));
   /* A list of 8 nodes {next, value} in a scattered order. */
   uint64_t nodes = ctu_buffer(&t, NULL, 8 * 16);
   uint32_t order[8] = {3, 6, 0, 7, 1, 5, 2, 4};
   for (int k = 0; k < 8; k++) {
      uint64_t next = k < 7 ? nodes + 16 * order[k + 1] : 0;
      uint32_t value = 10u * (uint32_t)(k + 1);
      uint8_t node[16] = {0};
      memcpy(node, &next, 8);
      memcpy(node + 8, &value, 4);
      hwt_write(&t.h.t.mem, t.h.t.pd, nodes + 16 * order[k], node, 16);
   }
   struct {
      uint64_t src, dst, head, raw;
   } pc = {sb, db, nodes + 16 * order[0], rb};
   struct ctu_dispatch d = {
       .shader = "buffer_reference", .groups = {1}, .push = &pc, .push_size = sizeof(pc)};
   REQUIRE(ctu_run(&t, &d));
   static uint32_t out[3 * 64];
   ctu_read(&t, db, out, sizeof(out));
   for (uint32_t i = 0; i < 64; i++) {
      uint32_t s = 0;
      for (uint32_t k = 0; k < i % 8; k++)
         s += 10u * (k + 1);
      CHECK_MSG(out[i] == src[i] * 2 && out[64 + i] == s && out[128 + i] == raw[2 + i],
                "i=%u got %u %u %u want %u %u %u", i, out[i], out[64 + i], out[128 + i], src[i] * 2,
                s, raw[2 + i]);
   }
   ctu_finish(&t);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
