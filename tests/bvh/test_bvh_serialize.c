/* Copies of structures: compaction and clone keep the bytes (plus the
 * COMPACTED flag), serialization round-trips byte for byte and carries
 * bottom-level addresses in the handle list, and corrupt or truncated blobs
 * are rejected or, when the damage happens to be harmless, still validate —
 * never a crash. */
#include <stdlib.h>
#include <string.h>

#include "bvh_test_util.h"
#include "test_harness.h"

static const uint8_t driver_uuid[16] = "vkppu-driver-id";
static const uint8_t compat_uuid[16] = "vkppu-bvh-v1---";

static void *build_soup(uint32_t n, uint32_t seed, float **soup_out)
{
   uint32_t s = seed;
   float *v = malloc(sizeof(float) * 9 * n);
   for (uint32_t i = 0; i < 9 * n; i++)
      v[i] = test_randf(&s, -5, 5);
   v[0] = __builtin_nanf(""); /* one inactive */
   static struct bvh_geometry geo;
   geo = (struct bvh_geometry){BVH_GEOMETRY_TRIANGLES, 0, n, v};
   struct bvh_build_input in = {
       .kind = PPU_BVH_KIND_TRIANGLES, .geometries = &geo, .geometry_count = 1};
   enum bvh_result r;
   *soup_out = v;
   return test_build(&in, NULL, &r);
}

TEST_CASE(compacting_copy_keeps_bytes_and_sets_the_flag)
{
   float *v;
   void *bvh = build_soup(500, 1, &v);
   REQUIRE(bvh);
   const struct ppu_bvh_header *h = bvh;
   uint64_t size = bvh_compacted_size(bvh);
   CHECK_EQ_U64(size, h->total_size);
   void *dst = aligned_alloc(128, (size + 127) / 128 * 128);
   CHECK(bvh_copy(bvh, dst, size - 1, true) == BVH_ERROR_INVALID_INPUT);
   REQUIRE(bvh_copy(bvh, dst, size, true) == BVH_SUCCESS);
   CHECK(((struct ppu_bvh_header *)dst)->flags & PPU_BVH_FLAG_COMPACTED);
   CHECK(memcmp((uint8_t *)dst + 16, (uint8_t *)bvh + 16, size - 16) == 0);
   CHECK(bvh_validate(dst, size, NULL, 0) == BVH_SUCCESS);
   free(dst);
   free(bvh);
   free(v);
}

TEST_CASE(serialize_round_trip_is_byte_identical)
{
   float *v;
   void *bvh = build_soup(800, 2, &v);
   REQUIRE(bvh);
   uint64_t size = bvh_serialized_size(bvh);
   uint8_t *blob = malloc(size);
   REQUIRE(bvh_serialize(bvh, driver_uuid, compat_uuid, blob, size) == BVH_SUCCESS);
   uint64_t words[3];
   memcpy(words, blob + 32, sizeof(words));
   CHECK_EQ_U64(words[0], size);
   CHECK_EQ_U64(words[1], ((struct ppu_bvh_header *)bvh)->total_size);
   CHECK_EQ_U64(words[2], 0); /* no handles in a bottom level */
   void *out = aligned_alloc(128, (words[1] + 127) / 128 * 128);
   CHECK(bvh_deserialize(blob, size, driver_uuid, compat_uuid, out, words[1]) == BVH_SUCCESS);
   CHECK(memcmp(out, bvh, words[1]) == 0);
   /* Another driver's blob is incompatible, not corrupt. */
   uint8_t other[16] = "another-driver!";
   CHECK(bvh_check_compatibility(blob, other, compat_uuid) == BVH_ERROR_INCOMPATIBLE);
   CHECK(bvh_deserialize(blob, size, driver_uuid, other, out, words[1]) == BVH_ERROR_INCOMPATIBLE);
   free(out);
   free(blob);
   free(bvh);
   free(v);
}

TEST_CASE(top_level_handles_are_rewritten_on_deserialize)
{
   float *v;
   void *blas = build_soup(100, 3, &v);
   REQUIRE(blas);
   const struct ppu_bvh_header *bh = blas;
   struct bvh_instance inst[4];
   memset(inst, 0, sizeof(inst));
   for (int i = 0; i < 4; i++) {
      inst[i].transform[0][0] = inst[i].transform[1][1] = inst[i].transform[2][2] = 1;
      inst[i].transform[0][3] = (float)i * 20;
      inst[i].blas_address = i == 2 ? 0 : 0x1000u * (i + 1);
      memcpy(inst[i].blas_bounds_min, bh->bounds_min, 12);
      memcpy(inst[i].blas_bounds_max, bh->bounds_max, 12);
   }
   struct bvh_build_input in = {
       .kind = PPU_BVH_KIND_INSTANCES, .instances = inst, .instance_count = 4};
   enum bvh_result r;
   void *tlas = test_build(&in, NULL, &r);
   REQUIRE(tlas);
   const struct ppu_bvh_header *th = tlas;
   uint64_t size = bvh_serialized_size(tlas);
   CHECK_EQ_U64(size, BVH_SERIALIZED_HEADER_BYTES + 4 * 8 + th->total_size);
   uint8_t *blob = malloc(size);
   REQUIRE(bvh_serialize(tlas, driver_uuid, compat_uuid, blob, size) == BVH_SUCCESS);
   /* The application recreates its bottom levels elsewhere and patches. */
   for (uint32_t i = 0; i < 4; i++) {
      uint64_t old, fresh;
      memcpy(&old, blob + 56 + 8 * i, 8);
      fresh = old ? old + 0x100000 : 0;
      memcpy(blob + 56 + 8 * i, &fresh, 8);
   }
   void *out = aligned_alloc(128, (th->total_size + 127) / 128 * 128);
   REQUIRE(bvh_deserialize(blob, size, driver_uuid, compat_uuid, out, th->total_size) ==
           BVH_SUCCESS);
   for (uint32_t i = 0; i < 4; i++) {
      const struct ppu_bvh_instance *a =
          (const void *)((const uint8_t *)tlas + th->leaf_offset + i * th->leaf_stride);
      const struct ppu_bvh_instance *b =
          (const void *)((const uint8_t *)out + th->leaf_offset + i * th->leaf_stride);
      CHECK_EQ_U64(b->blas_address, a->blas_address ? a->blas_address + 0x100000 : 0);
   }
   free(out);
   free(blob);
   free(tlas);
   free(blas);
   free(v);
}

TEST_CASE(corrupt_and_truncated_blobs_never_crash)
{
   float *v;
   void *bvh = build_soup(300, 4, &v);
   REQUIRE(bvh);
   uint64_t size = bvh_serialized_size(bvh);
   uint64_t structure = ((struct ppu_bvh_header *)bvh)->total_size;
   uint8_t *blob = malloc(size), *bad = malloc(size);
   void *out = aligned_alloc(128, (structure + 127) / 128 * 128 + 128);
   REQUIRE(bvh_serialize(bvh, driver_uuid, compat_uuid, blob, size) == BVH_SUCCESS);
   uint32_t s = 17, rejected = 0, accepted = 0;
   for (int trial = 0; trial < 3000; trial++) {
      memcpy(bad, blob, size);
      int flips = 1 + (int)(test_rand(&s) % 4);
      for (int f = 0; f < flips; f++) {
         /* Mostly in the header and nodes, where damage matters most. */
         uint64_t at = trial % 2
                           ? 32 + test_rand(&s) % (size - 32)
                           : 32 + test_rand(&s) % (uint64_t)(1024 < size - 32 ? 1024 : size - 32);
         bad[at] ^= (uint8_t)(1u << (test_rand(&s) % 8));
      }
      enum bvh_result r = bvh_deserialize(bad, size, driver_uuid, compat_uuid, out, structure);
      if (r == BVH_SUCCESS) {
         /* Accepted damage must leave a structure that still validates. */
         CHECK(bvh_validate(out, structure, NULL, 0) == BVH_SUCCESS);
         accepted++;
      } else {
         rejected++;
      }
   }
   CHECK(rejected > 1000);
   (void)accepted;
   /* Truncation at every length up to the full blob is rejected. */
   for (uint64_t len = 0; len < size; len += 1 + len / 8)
      CHECK(bvh_deserialize(blob, len, driver_uuid, compat_uuid, out, structure) != BVH_SUCCESS);
   /* A header that lies about sizes. */
   memcpy(bad, blob, size);
   uint64_t huge = ~0ull;
   memcpy(bad + 48, &huge, 8);
   CHECK(bvh_deserialize(bad, size, driver_uuid, compat_uuid, out, structure) == BVH_ERROR_CORRUPT);
   memcpy(bad, blob, size);
   memcpy(bad + 40, &huge, 8);
   CHECK(bvh_deserialize(bad, size, driver_uuid, compat_uuid, out, structure) == BVH_ERROR_CORRUPT);
   free(out);
   free(bad);
   free(blob);
   free(bvh);
   free(v);
}

TEST_CASE(validate_rejects_damaged_structures)
{
   float *v;
   void *bvh = build_soup(400, 5, &v);
   REQUIRE(bvh);
   struct ppu_bvh_header *h = bvh;
   uint64_t size = h->total_size;
   uint8_t *copy = malloc(size);
   struct ppu_bvh_node *root;
   char why[200];
   /* A child box that no longer contains its content. */
   memcpy(copy, bvh, size);
   root = (struct ppu_bvh_node *)(copy + h->node_offset);
   root->q_hi[0][0] = 0;
   root->q_lo[0][0] = 0;
   root->origin[0] += 1.0f;
   CHECK(bvh_validate(copy, size, why, sizeof(why)) == BVH_ERROR_CORRUPT);
   /* A record referenced twice. */
   memcpy(copy, bvh, size);
   root = (struct ppu_bvh_node *)(copy + h->node_offset);
   root->child_kind[1] = root->child_kind[0];
   root->child_index[1] = root->child_index[0];
   root->child_records[1] = root->child_records[0];
   CHECK(bvh_validate(copy, size, why, sizeof(why)) == BVH_ERROR_CORRUPT);
   /* A wrong stored ancestor: above the root (node 1's grandparent), and
    * one the root claims. */
   REQUIRE(h->node_count > 1);
   memcpy(copy, bvh, size);
   ((struct ppu_bvh_node *)(copy + h->node_offset))[1].ancestor[0] = 0;
   CHECK(bvh_validate(copy, size, why, sizeof(why)) == BVH_ERROR_CORRUPT);
   memcpy(copy, bvh, size);
   ((struct ppu_bvh_node *)(copy + h->node_offset))[0].ancestor[5] = 1;
   CHECK(bvh_validate(copy, size, why, sizeof(why)) == BVH_ERROR_CORRUPT);
   /* Version 1 (nodes without ancestors) is not this format. */
   memcpy(copy, bvh, size);
   ((struct ppu_bvh_header *)copy)->version = 1;
   CHECK(bvh_validate(copy, size, why, sizeof(why)) == BVH_ERROR_CORRUPT);
   /* Too short a buffer. */
   CHECK(bvh_validate(bvh, size - 1, why, sizeof(why)) == BVH_ERROR_CORRUPT);
   CHECK(bvh_validate(bvh, 10, why, sizeof(why)) == BVH_ERROR_CORRUPT);
   free(copy);
   free(bvh);
   free(v);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
