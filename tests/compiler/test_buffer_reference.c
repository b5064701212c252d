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

/* Nodes of 24 bytes {child[0], child[1], value}: a full binary tree of
 * depth 3 (15 nodes, node k's children 2k+1 and 2k+2, value k + 1). */
TEST_CASE(array_of_forward_pointers_and_pointer_uvec2_bitcasts)
{
   struct ctu t;
   REQUIRE(ctu_init(&t));
   uint64_t nodes = ctu_buffer(&t, NULL, 15 * 24), ob = ctu_buffer(&t, NULL, 16 * 4);
   for (uint32_t k = 0; k < 15; k++) {
      uint64_t child[2] = {k < 7 ? nodes + 24 * (2 * k + 1) : 0,
                           k < 7 ? nodes + 24 * (2 * k + 2) : 0};
      uint32_t value = k + 1;
      uint8_t node[24] = {0};
      memcpy(node, child, 16);
      memcpy(node + 16, &value, 4);
      hwt_write(&t.h.t.mem, t.h.t.pd, nodes + 24 * k, node, 24);
   }
   struct {
      uint64_t root, out;
   } pc = {nodes, ob};
   struct ctu_dispatch d = {
       .shader = "buffer_reference_tree", .groups = {1}, .push = &pc, .push_size = sizeof(pc)};
   REQUIRE(ctu_run(&t, &d));
   uint32_t out[16];
   ctu_read(&t, ob, out, sizeof(out));
   for (uint32_t i = 0; i < 8; i++) {
      uint32_t k = 0, sum = 1;
      for (uint32_t level = 0; level < 3; level++) {
         k = 2 * k + 1 + ((i >> level) & 1u);
         sum = sum * 10u + k + 1;
      }
      CHECK_EQ_U64(out[i], sum);
      CHECK_EQ_U64(out[8 + i], (uint32_t)nodes ^ (uint32_t)(nodes >> 32));
   }
   ctu_finish(&t);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
