/* The builder writes structures that bvh_validate accepts (indices in range,
 * every primitive once, quantized boxes conservative as the TTU decodes
 * them, depth bound), for ordinary and degenerate inputs, and reports sizes
 * that hold what it writes. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bvh_test_util.h"
#include "test_harness.h"

static void *build_triangles(const float *v, uint32_t n, struct bvh_build_stats *st)
{
   struct bvh_geometry geo = {BVH_GEOMETRY_TRIANGLES, PPU_BVH_GEOMETRY_OPAQUE, n, v};
   struct bvh_build_input in = {
       .kind = PPU_BVH_KIND_TRIANGLES, .geometries = &geo, .geometry_count = 1};
   enum bvh_result r;
   void *bvh = test_build(&in, st, &r);
   CHECK_MSG(bvh, "build: %s", bvh_result_name(r));
   return bvh;
}

TEST_CASE(random_soup_validates)
{
   uint32_t counts[] = {1, 2, 7, 8, 9, 100, 1000, 20000};
   for (unsigned c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
      float *v = test_random_soup(counts[c], 1234 + c, 10.0f, 0.5f);
      struct bvh_build_stats st;
      void *bvh = build_triangles(v, counts[c], &st);
      REQUIRE(bvh);
      const struct ppu_bvh_header *h = bvh;
      CHECK(test_bvh_valid(bvh));
      CHECK_EQ_U64(h->leaf_count, counts[c]);
      CHECK_EQ_U64(st.active_record_count, counts[c]);
      CHECK_EQ_U64(h->node_count, st.node_count);
      CHECK(h->max_depth < PPU_BVH_MAX_DEPTH);
      CHECK(h->total_size % 64 == 0 && h->node_offset % PPU_BVH_ALIGN == 0);
      free(bvh);
      free(v);
   }
}

TEST_CASE(zero_primitives_give_an_empty_structure)
{
   struct bvh_geometry geo = {BVH_GEOMETRY_TRIANGLES, 0, 0, NULL};
   struct bvh_build_input in = {
       .kind = PPU_BVH_KIND_TRIANGLES, .geometries = &geo, .geometry_count = 1};
   enum bvh_result r;
   void *bvh = test_build(&in, NULL, &r);
   REQUIRE(bvh);
   const struct ppu_bvh_header *h = bvh;
   CHECK_EQ_U64(h->node_count, 0);
   CHECK_EQ_U64(h->leaf_count, 0);
   CHECK(h->bounds_min[0] > h->bounds_max[0]);
   CHECK(test_bvh_valid(bvh));
   free(bvh);
   /* No geometry at all. */
   in.geometry_count = 0;
   bvh = test_build(&in, NULL, &r);
   REQUIRE(bvh);
   CHECK(test_bvh_valid(bvh));
   free(bvh);
}

TEST_CASE(single_primitive_is_a_root_with_one_leaf)
{
   float v[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
   void *bvh = build_triangles(v, 1, NULL);
   REQUIRE(bvh);
   const struct ppu_bvh_header *h = bvh;
   const struct ppu_bvh_node *root = (const void *)((const uint8_t *)bvh + h->node_offset);
   CHECK_EQ_U64(h->node_count, 1);
   CHECK_EQ_U64(root->child_count, 1);
   CHECK_EQ_U64(root->child_kind[0], PPU_BVH_CHILD_LEAF);
   CHECK_EQ_U64(root->child_records[0], 1);
   CHECK_EQ_U64(root->parent, PPU_BVH_NONE);
   for (unsigned a = 0; a < PPU_BVH_ANCESTORS - 1u; a++)
      CHECK_EQ_U64(root->ancestor[a], PPU_BVH_NONE);
   CHECK(test_bvh_valid(bvh));
   free(bvh);
}

TEST_CASE(all_primitives_at_one_point)
{
   uint32_t n = 5000;
   float *v = calloc(9 * n, sizeof(float));
   for (uint32_t i = 0; i < 9 * n; i++)
      v[i] = 3.0f;
   void *bvh = build_triangles(v, n, NULL);
   REQUIRE(bvh);
   CHECK(test_bvh_valid(bvh));
   CHECK(((const struct ppu_bvh_header *)bvh)->max_depth < PPU_BVH_MAX_DEPTH);
   free(bvh);
   free(v);
}

TEST_CASE(nan_triangles_are_inactive_and_unreferenced)
{
   uint32_t n = 300;
   float *v = test_random_soup(n, 77, 5.0f, 1.0f);
   uint32_t inactive = 0;
   for (uint32_t i = 0; i < n; i += 3) {
      v[9 * i + 3 * (i % 3)] = NAN; /* the X of one vertex */
      inactive++;
   }
   v[9 * 1 + 4] = NAN; /* a Y: undefined in the spec, inactive here */
   inactive++;
   struct bvh_build_stats st;
   void *bvh = build_triangles(v, n, &st);
   REQUIRE(bvh);
   CHECK(test_bvh_valid(bvh));
   CHECK_EQ_U64(st.active_record_count, n - inactive);
   const struct ppu_bvh_header *h = bvh;
   CHECK_EQ_U64(h->leaf_count, n);
   /* Inactive records come last and carry the flag. */
   const struct ppu_bvh_triangle *recs = (const void *)((const uint8_t *)bvh + h->leaf_offset);
   for (uint32_t i = 0; i < n; i++)
      CHECK(((recs[i].flags & PPU_BVH_PRIM_INACTIVE) != 0) == (i >= n - inactive));
   free(bvh);
   /* All inactive: an empty tree that still records every primitive. */
   for (uint32_t i = 0; i < n; i++)
      v[9 * i] = NAN;
   bvh = build_triangles(v, n, NULL);
   REQUIRE(bvh);
   CHECK_EQ_U64(((const struct ppu_bvh_header *)bvh)->node_count, 0);
   CHECK(test_bvh_valid(bvh));
   free(bvh);
   free(v);
}

/* Two triangles that must both stay active. */
static void check_two_active(const float v[18])
{
   struct bvh_build_stats st;
   void *bvh = build_triangles(v, 2, &st);
   REQUIRE(bvh);
   CHECK_EQ_U64(st.active_record_count, 2);
   CHECK(test_bvh_valid(bvh));
   free(bvh);
}

TEST_CASE(degenerate_triangles_stay_active)
{
   /* Zero area (collinear and coincident vertices) is not inactive. */
   float v[18] = {0, 0, 0, 1, 1, 1, 2, 2, 2, 5, 5, 5, 5, 5, 5, 5, 5, 5};
   check_two_active(v);
}

static void check_scaled_soup(float scene, float size, uint32_t seed)
{
   float *v = test_random_soup(3000, seed, scene, size);
   void *bvh = build_triangles(v, 3000, NULL);
   REQUIRE(bvh);
   CHECK_MSG(test_bvh_valid(bvh), "scene %g size %g", scene, size);
   free(bvh);
   free(v);
}

TEST_CASE(huge_and_tiny_coordinates_quantize_conservatively)
{
   check_scaled_soup(1e30f, 1e28f, 1);
   check_scaled_soup(3e38f, 1e37f, 2); /* near FLT_MAX: extents overflow binary32 */
   check_scaled_soup(1e-30f, 1e-32f, 3);
   check_scaled_soup(1e-38f, 1e-39f, 4); /* subnormal sizes */
   check_scaled_soup(1e6f, 1e-3f, 5);    /* small triangles far from the origin */
   /* Mixed: tiny triangles around huge offsets in one structure. */
   float v[27] = {1e30f,    0,        0,        1e30f,   1e-30f,  0,       1e30f, 0,      1e-30f,
                  -1e-30f,  0,        0,        1e-30f,  0,       0,       0,     1e-30f, 0,
                  -FLT_MAX, -FLT_MAX, -FLT_MAX, FLT_MAX, FLT_MAX, FLT_MAX, 0,     0,      1};
   void *bvh = build_triangles(v, 3, NULL);
   REQUIRE(bvh);
   CHECK(test_bvh_valid(bvh));
   free(bvh);
}

TEST_CASE(infinite_vertices_stay_active_with_clamped_boxes)
{
   float v[18] = {INFINITY, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, -INFINITY, 0};
   check_two_active(v);
}

TEST_CASE(quantized_boxes_contain_every_primitive_exactly_as_decoded)
{
   /* Independent of bvh_validate: for each leaf slot, decode its box and
    * check each record's vertices, with values that round badly. */
   uint32_t n = 4000, s = 99;
   float *v = malloc(sizeof(float) * 9 * n);
   for (uint32_t i = 0; i < 9 * n; i++)
      v[i] = ldexpf(test_randf(&s, -1.0f, 1.0f), (int)(test_rand(&s) % 40) - 20) + 0.1f;
   void *bvh = build_triangles(v, n, NULL);
   REQUIRE(bvh);
   const struct ppu_bvh_header *h = bvh;
   const struct ppu_bvh_node *nodes = (const void *)((const uint8_t *)bvh + h->node_offset);
   const struct ppu_bvh_triangle *recs = (const void *)((const uint8_t *)bvh + h->leaf_offset);
   uint32_t bad = 0;
   for (uint32_t i = 0; i < h->node_count; i++)
      for (unsigned sl = 0; sl < nodes[i].child_count; sl++) {
         if (nodes[i].child_kind[sl] != PPU_BVH_CHILD_LEAF)
            continue;
         float lo[3], hi[3];
         bvh_node_child_box(&nodes[i], sl, lo, hi);
         for (unsigned k = 0; k < nodes[i].child_records[sl]; k++) {
            const struct ppu_bvh_triangle *t =
                &recs[nodes[i].leaf_base + nodes[i].child_index[sl] + k];
            const float *p[3] = {t->v0, t->v1, t->v2};
            for (int q = 0; q < 3; q++)
               for (int a = 0; a < 3; a++)
                  bad += !(lo[a] <= p[q][a] && p[q][a] <= hi[a]);
         }
      }
   CHECK_EQ_U64(bad, 0);
   CHECK(test_bvh_valid(bvh));
   free(bvh);
   free(v);
}

TEST_CASE(depth_bound_holds_for_pathological_input)
{
   /* Geometrically spaced triangles: the SAH peels one primitive per split,
    * which unchecked gives a binary chain as deep as the input is long. */
   uint32_t n = 700;
   float *v = malloc(sizeof(float) * 9 * n);
   for (uint32_t i = 0; i < n; i++) {
      float x = powf(1.1f, (float)i);
      float tri[9] = {x, 0, 0, x * 1.01f, 1, 0, x, 0, 1};
      memcpy(&v[9 * i], tri, sizeof(tri));
   }
   struct bvh_build_stats st;
   void *bvh = build_triangles(v, n, &st);
   REQUIRE(bvh);
   CHECK(test_bvh_valid(bvh));
   CHECK_MSG(st.max_depth < PPU_BVH_MAX_DEPTH, "max depth %u", st.max_depth);
   /* Deep enough that ancestors 2..7 are all real nodes somewhere: each
    * stored entry is the node's parent chain, walked here on the host
    * (independently of bvh_validate's check against the parent's list). */
   CHECK_MSG(st.max_depth > PPU_BVH_ANCESTORS, "max depth %u", st.max_depth);
   const struct ppu_bvh_header *h = bvh;
   const struct ppu_bvh_node *nodes = (const void *)((const uint8_t *)bvh + h->node_offset);
   uint32_t bad = 0;
   for (uint32_t i = 0; i < h->node_count; i++) {
      uint32_t up = nodes[i].parent;
      for (unsigned a = 0; a < PPU_BVH_ANCESTORS - 1u; a++) {
         up = up == PPU_BVH_NONE ? PPU_BVH_NONE : nodes[up].parent;
         bad += nodes[i].ancestor[a] != up;
      }
   }
   CHECK_EQ_U64(bad, 0);
   free(bvh);
   free(v);
}

TEST_CASE(aabbs_with_nan_min_x_are_inactive)
{
   uint32_t n = 500, s = 5;
   float *b = malloc(sizeof(float) * 6 * n);
   for (uint32_t i = 0; i < n; i++) {
      for (int a = 0; a < 3; a++) {
         b[6 * i + a] = test_randf(&s, -10, 10);
         b[6 * i + 3 + a] = b[6 * i + a] + test_randf(&s, 0, 2);
      }
      if (i % 10 == 0)
         b[6 * i] = NAN;
   }
   struct bvh_geometry geo = {BVH_GEOMETRY_AABBS, 0, n, b};
   struct bvh_build_input in = {
       .kind = PPU_BVH_KIND_AABBS, .geometries = &geo, .geometry_count = 1};
   enum bvh_result r;
   struct bvh_build_stats st;
   void *bvh = test_build(&in, &st, &r);
   REQUIRE(bvh);
   CHECK_EQ_U64(st.active_record_count, n - n / 10);
   CHECK(test_bvh_valid(bvh));
   free(bvh);
   free(b);
}

TEST_CASE(geometry_table_and_record_fields)
{
   float *a = test_random_soup(50, 1, 3, 1), *b = test_random_soup(70, 2, 3, 1);
   struct bvh_geometry geos[3] = {
       {BVH_GEOMETRY_TRIANGLES, PPU_BVH_GEOMETRY_OPAQUE, 50, a},
       {BVH_GEOMETRY_TRIANGLES, 0, 0, NULL},
       {BVH_GEOMETRY_TRIANGLES, PPU_BVH_GEOMETRY_NO_DUPLICATE_ANY_HIT, 70, b},
   };
   struct bvh_build_input in = {
       .kind = PPU_BVH_KIND_TRIANGLES, .geometries = geos, .geometry_count = 3};
   enum bvh_result r;
   void *bvh = test_build(&in, NULL, &r);
   REQUIRE(bvh);
   CHECK(test_bvh_valid(bvh));
   const struct ppu_bvh_header *h = bvh;
   const struct ppu_bvh_geometry *gt = (const void *)((const uint8_t *)bvh + h->geometry_offset);
   CHECK_EQ_U64(h->geometry_count, 3);
   CHECK_EQ_U64(gt[0].primitive_count, 50);
   CHECK_EQ_U64(gt[2].flags, PPU_BVH_GEOMETRY_NO_DUPLICATE_ANY_HIT);
   const struct ppu_bvh_triangle *recs = (const void *)((const uint8_t *)bvh + h->leaf_offset);
   for (uint32_t i = 0; i < h->leaf_count; i++) {
      const struct ppu_bvh_triangle *t = &recs[i];
      const float *src = (t->geometry_index == 0 ? a : b) + 9 * t->primitive_index;
      CHECK(memcmp((const void *)t, src, 36) == 0); /* v0, v1, v2 */
      CHECK_EQ_U64(t->flags, t->geometry_index == 0 ? PPU_BVH_PRIM_OPAQUE
                                                    : PPU_BVH_PRIM_NO_DUPLICATE_ANY_HIT);
      CHECK(i >= gt[t->geometry_index].first_record);
   }
   free(bvh);
   free(a);
   free(b);
}

TEST_CASE(bad_inputs_are_errors)
{
   float v[9] = {0};
   struct bvh_geometry aabb = {BVH_GEOMETRY_AABBS, 0, 1, v};
   struct bvh_build_input in = {
       .kind = PPU_BVH_KIND_TRIANGLES, .geometries = &aabb, .geometry_count = 1};
   uint8_t buf[4096] __attribute__((aligned(128)));
   CHECK(bvh_build(&in, buf, sizeof(buf), NULL) == BVH_ERROR_INVALID_INPUT);
   struct bvh_geometry tri = {BVH_GEOMETRY_TRIANGLES, 0, 1, v};
   in.geometries = &tri;
   CHECK(bvh_build(&in, buf, 100, NULL) == BVH_ERROR_INVALID_INPUT); /* too small */
   in.kind = (enum ppu_bvh_kind)9;
   CHECK(bvh_build(&in, buf, sizeof(buf), NULL) == BVH_ERROR_INVALID_INPUT);
   struct bvh_sizes sz;
   CHECK(bvh_get_sizes((enum ppu_bvh_kind)0, 1, 1, &sz) == BVH_ERROR_INVALID_INPUT);
}

TEST_CASE(sizes_hold_the_worst_case)
{
   /* One far-apart primitive per leaf is the worst case for nodes. */
   for (uint32_t n = 0; n < 300; n += 7) {
      float *v = calloc(9 * (size_t)n + 1, sizeof(float));
      for (uint32_t i = 0; i < n; i++)
         for (int k = 0; k < 9; k++)
            v[9 * i + k] = (float)i * 1000.0f + (float)(k / 3);
      struct bvh_sizes sz;
      CHECK(bvh_get_sizes(PPU_BVH_KIND_TRIANGLES, 1, n, &sz) == BVH_SUCCESS);
      CHECK(sz.build_scratch_size > 0 && sz.update_scratch_size > 0);
      void *bvh = build_triangles(v, n, NULL);
      REQUIRE(bvh);
      CHECK(((const struct ppu_bvh_header *)bvh)->total_size <= sz.structure_size);
      CHECK(bvh_compacted_size(bvh) == ((const struct ppu_bvh_header *)bvh)->total_size);
      free(bvh);
      free(v);
   }
}

/* Builds `in` with the given thread count into a fresh buffer. */
static void *build_with_threads(struct bvh_build_input in, uint32_t threads,
                                struct bvh_build_stats *st)
{
   in.thread_count = threads;
   enum bvh_result r;
   void *bvh = test_build(&in, st, &r);
   CHECK_MSG(bvh, "build with %u threads: %s", threads, bvh_result_name(r));
   return bvh;
}

/* The same input must give the same bytes whatever the thread count:
 * large enough for the parallel path (BVH_PARALLEL_MIN_PRIMITIVES) and
 * for chunked binning and partitioning of the top nodes, with several
 * geometries, inactive primitives spread over the input (the gather packs
 * chunks) and a dense cluster of coincident triangles (median splits). */
static void check_thread_counts_agree(const struct bvh_build_input *in)
{
   struct bvh_build_stats ref_stats;
   void *ref = build_with_threads(*in, 1, &ref_stats);
   REQUIRE(ref);
   CHECK(test_bvh_valid(ref));
   uint64_t size = ((const struct ppu_bvh_header *)ref)->total_size;
   const uint32_t counts[] = {2, 3, 4, 0};
   for (unsigned t = 0; t < sizeof(counts) / sizeof(counts[0]); t++) {
      struct bvh_build_stats st;
      void *bvh = build_with_threads(*in, counts[t], &st);
      REQUIRE(bvh);
      CHECK_EQ_U64(((const struct ppu_bvh_header *)bvh)->total_size, size);
      CHECK_MSG(memcmp(bvh, ref, size) == 0, "%u threads: bytes differ from 1 thread", counts[t]);
      CHECK(st.sah_cost == ref_stats.sah_cost && st.node_count == ref_stats.node_count);
      free(bvh);
   }
   free(ref);
}

TEST_CASE(any_thread_count_builds_the_same_bytes)
{
   uint32_t n0 = 150000, n2 = 90000;
   float *a = test_random_soup(n0, 11, 100.0f, 0.5f);
   float *b = test_random_soup(n2, 12, 30.0f, 2.0f);
   /* 20000 coincident triangles: no SAH plane, object-median splits. */
   for (uint32_t i = 0; i < 20000; i++)
      for (int k = 0; k < 9; k++)
         b[9 * i + k] = (float)(k % 3 == 0);
   for (uint32_t i = 7; i < n0; i += 4099)
      a[9 * i] = NAN;
   struct bvh_geometry geos[3] = {
       {BVH_GEOMETRY_TRIANGLES, PPU_BVH_GEOMETRY_OPAQUE, n0, a},
       {BVH_GEOMETRY_TRIANGLES, 0, 0, NULL},
       {BVH_GEOMETRY_TRIANGLES, 0, n2, b},
   };
   struct bvh_build_input in = {
       .kind = PPU_BVH_KIND_TRIANGLES, .geometries = geos, .geometry_count = 3};
   check_thread_counts_agree(&in);
   free(a);
   free(b);
}

TEST_CASE(any_thread_count_builds_the_same_top_level)
{
   /* Instances take the same path with their own boxes and records. */
   uint32_t n = 70000, s = 3;
   struct bvh_instance *inst = calloc(n, sizeof(*inst));
   REQUIRE(inst);
   for (uint32_t i = 0; i < n; i++) {
      for (int r = 0; r < 3; r++) {
         inst[i].transform[r][r] = test_randf(&s, 0.5f, 2.0f);
         inst[i].transform[r][3] = test_randf(&s, -1000.0f, 1000.0f);
         inst[i].blas_bounds_min[r] = -1.0f;
         inst[i].blas_bounds_max[r] = 1.0f;
      }
      inst[i].blas_address = i % 1000 == 0 ? 0 : 0x10000 + 128 * (uint64_t)i;
      inst[i].mask = 0xff;
   }
   struct bvh_build_input in = {
       .kind = PPU_BVH_KIND_INSTANCES, .instances = inst, .instance_count = n};
   check_thread_counts_agree(&in);
   free(inst);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
