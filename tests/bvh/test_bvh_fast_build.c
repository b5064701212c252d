/* Builds that prefer build speed (bvh_build_input::prefer_fast_build, from
 * VK_BUILD_ACCELERATION_STRUCTURE_PREFER_FAST_BUILD_BIT_KHR) take the linear
 * BVH of bvh_lbvh.c: a different tree from the SAH builder's, whose SAH cost
 * stays within a bound of it, that bvh_validate accepts, whose closest hits
 * are brute force's, that keeps the depth bound on inputs made to break it
 * and that is the same for every thread count. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bvh_test_util.h"
#include "test_harness.h"

static struct bvh_build_input triangles_input(const struct bvh_geometry *geo, bool fast,
                                              uint32_t threads)
{
   return (struct bvh_build_input){.kind = PPU_BVH_KIND_TRIANGLES,
                                   .geometries = geo,
                                   .geometry_count = 1,
                                   .thread_count = threads,
                                   .prefer_fast_build = fast};
}

static void *build(const struct bvh_build_input *in, struct bvh_build_stats *st)
{
   enum bvh_result r;
   void *bvh = test_build(in, st, &r);
   CHECK_MSG(bvh, "build: %s", bvh_result_name(r));
   return bvh;
}

TEST_CASE(fast_builds_validate_and_match_brute_force)
{
   const uint32_t counts[] = {1, 2, 4, 5, 9, 100, 3000};
   for (unsigned c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
      uint32_t n = counts[c];
      float *v = test_random_soup(n, 77 + c, 10.0f, 1.0f);
      for (uint32_t i = 3; i < n; i += 17)
         v[9 * i] = NAN; /* inactive, left out of the tree */
      struct bvh_geometry geo = {BVH_GEOMETRY_TRIANGLES, 0, n, v};
      struct bvh_build_input in = triangles_input(&geo, true, 1);
      struct bvh_build_stats st;
      void *bvh = build(&in, &st);
      REQUIRE(bvh);
      CHECK(test_bvh_valid(bvh));
      CHECK_EQ_U64(((const struct ppu_bvh_header *)bvh)->leaf_count, n);
      uint32_t hits;
      CHECK_EQ_U64(test_compare_rays(bvh, &in, 2000, 5 + c, &hits), 0);
      CHECK_MSG(n < 1000 || hits > 200, "%u triangles: %u hits", n, hits);
      free(bvh);
      free(v);
   }
}

TEST_CASE(fast_aabb_builds_match_brute_force)
{
   uint32_t n = 2000, s = 9;
   float *b = malloc(sizeof(float) * 6 * n);
   REQUIRE(b);
   for (uint32_t i = 0; i < n; i++)
      for (int a = 0; a < 3; a++) {
         float c = test_randf(&s, -10.0f, 10.0f), e = test_randf(&s, 0.0f, 0.6f);
         b[6 * i + a] = c - e;
         b[6 * i + 3 + a] = c + e;
      }
   struct bvh_geometry geo = {BVH_GEOMETRY_AABBS, 0, n, b};
   struct bvh_build_input in = {.kind = PPU_BVH_KIND_AABBS,
                                .geometries = &geo,
                                .geometry_count = 1,
                                .prefer_fast_build = true};
   void *bvh = build(&in, NULL);
   REQUIRE(bvh);
   CHECK(test_bvh_valid(bvh));
   uint32_t hits;
   CHECK_EQ_U64(test_compare_rays(bvh, &in, 2000, 13, &hits), 0);
   CHECK(hits > 200);
   free(bvh);
   free(b);
}

TEST_CASE(fast_build_is_another_tree_of_bounded_sah_cost)
{
   uint32_t n = 20000;
   float *v = test_random_soup(n, 5, 50.0f, 0.7f);
   struct bvh_geometry geo = {BVH_GEOMETRY_TRIANGLES, PPU_BVH_GEOMETRY_OPAQUE, n, v};
   struct bvh_build_input sah_in = triangles_input(&geo, false, 1);
   struct bvh_build_input fast_in = triangles_input(&geo, true, 1);
   struct bvh_build_stats sah, fast;
   void *a = build(&sah_in, &sah), *b = build(&fast_in, &fast);
   REQUIRE(a && b);
   CHECK(test_bvh_valid(b));
   const struct ppu_bvh_header *ha = a, *hb = b;
   /* The flag must change the tree (else it is ignored) ... */
   CHECK_MSG(ha->total_size != hb->total_size || memcmp(a, b, ha->total_size) != 0,
             "the fast build wrote the SAH tree");
   CHECK_MSG(fast.node_count != sah.node_count, "nodes: fast %u, SAH %u", fast.node_count,
             sah.node_count);
   /* ... and a midpoint tree of a uniform soup is not much worse (about
    * 1.3x on the shared scenes: docs/acceleration-structures.md). */
   CHECK_MSG(fast.sah_cost >= sah.sah_cost && fast.sah_cost < 1.6 * sah.sah_cost,
             "SAH cost: fast %.2f, SAH builder %.2f", fast.sah_cost, sah.sah_cost);
   free(a);
   free(b);
   free(v);
}

TEST_CASE(fast_build_keeps_the_depth_bound)
{
   /* Geometrically spaced triangles (every Morton split peels off the
    * nearest few) and a cluster of coincident ones (one Morton code: median
    * splits). */
   uint32_t n = 700, same = 5000;
   float *v = malloc(sizeof(float) * 9 * (n + same));
   REQUIRE(v);
   for (uint32_t i = 0; i < n + same; i++) {
      float x = i < n ? powf(1.1f, (float)i) : 3.0f;
      float tri[9] = {x, 0, 0, x * 1.01f, 1, 0, x, 0, 1};
      memcpy(&v[9 * i], tri, sizeof(tri));
   }
   struct bvh_geometry geo = {BVH_GEOMETRY_TRIANGLES, 0, n + same, v};
   struct bvh_build_input in = triangles_input(&geo, true, 1);
   struct bvh_build_stats st;
   void *bvh = build(&in, &st);
   REQUIRE(bvh);
   CHECK(test_bvh_valid(bvh));
   CHECK_MSG(st.max_depth < PPU_BVH_MAX_DEPTH, "max depth %u", st.max_depth);
   uint32_t hits;
   CHECK_EQ_U64(test_compare_rays(bvh, &in, 2000, 21, &hits), 0);
   free(bvh);
   free(v);
}

TEST_CASE(fast_build_is_the_same_for_any_thread_count)
{
   /* Large enough for the pool (BVH_PARALLEL_MIN_PRIMITIVES) and many
    * subtree tasks, with a cluster of coincident triangles. */
   uint32_t n = 120000;
   float *v = test_random_soup(n, 31, 100.0f, 0.5f);
   for (uint32_t i = 0; i < 20000; i++)
      for (int k = 0; k < 9; k++)
         v[9 * i + k] = (float)(k % 3 == 0);
   struct bvh_geometry geo = {BVH_GEOMETRY_TRIANGLES, 0, n, v};
   struct bvh_build_input in = triangles_input(&geo, true, 1);
   struct bvh_build_stats ref_stats;
   void *ref = build(&in, &ref_stats);
   REQUIRE(ref);
   CHECK(test_bvh_valid(ref));
   uint64_t size = ((const struct ppu_bvh_header *)ref)->total_size;
   const uint32_t threads[] = {2, 3, 0};
   for (unsigned t = 0; t < sizeof(threads) / sizeof(threads[0]); t++) {
      in.thread_count = threads[t];
      void *bvh = build(&in, NULL);
      REQUIRE(bvh);
      CHECK_EQ_U64(((const struct ppu_bvh_header *)bvh)->total_size, size);
      CHECK_MSG(memcmp(bvh, ref, size) == 0, "%u threads: bytes differ from 1 thread", threads[t]);
      free(bvh);
   }
   free(ref);
   free(v);
}

TEST_CASE(fast_top_level_matches_brute_force)
{
   /* A top level takes the same path with instance boxes. */
   uint32_t tri_count = 200, n = 300, s = 17;
   float *v = test_random_soup(tri_count, 3, 1.0f, 0.3f);
   struct bvh_geometry geo = {BVH_GEOMETRY_TRIANGLES, 0, tri_count, v};
   struct bvh_build_input blas_in = triangles_input(&geo, true, 1);
   void *blas = build(&blas_in, NULL);
   REQUIRE(blas);
   const struct ppu_bvh_header *bh = blas;
   struct bvh_instance *inst = calloc(n, sizeof(*inst));
   REQUIRE(inst);
   for (uint32_t i = 0; i < n; i++) {
      for (int r = 0; r < 3; r++) {
         inst[i].transform[r][r] = test_randf(&s, 0.5f, 2.0f);
         inst[i].transform[r][3] = test_randf(&s, -20.0f, 20.0f);
         inst[i].blas_bounds_min[r] = bh->bounds_min[r];
         inst[i].blas_bounds_max[r] = bh->bounds_max[r];
      }
      inst[i].blas_address = (uint64_t)(uintptr_t)blas;
      inst[i].mask = 0xff;
   }
   struct bvh_build_input in = {.kind = PPU_BVH_KIND_INSTANCES,
                                .instances = inst,
                                .instance_count = n,
                                .prefer_fast_build = true};
   void *tlas = build(&in, NULL);
   REQUIRE(tlas);
   CHECK(test_bvh_valid(tlas));
   const struct bvh_build_input **blas_inputs = malloc(sizeof(*blas_inputs) * n);
   REQUIRE(blas_inputs);
   for (uint32_t i = 0; i < n; i++)
      blas_inputs[i] = &blas_in; /* by instance index */
   uint32_t hits, bad = test_compare_tlas_rays(tlas, blas_inputs, 1000, 99, &hits);
   CHECK_EQ_U64(bad, 0);
   CHECK(hits > 50);
   free(blas_inputs);
   free(tlas);
   free(inst);
   free(blas);
   free(v);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
