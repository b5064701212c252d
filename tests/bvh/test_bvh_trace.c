/* A CPU ray caster that reads the format the way the TTU will agrees with
 * brute force on the closest hit: random triangle soups, AABBs, instances
 * with rotations and scales, the shared scenes, and after refit. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bvh_test_util.h"
#include "obj_mesh.h"
#include "test_harness.h"

/* Builds one geometry, casts rays against it and brute force; frees data. */
static void check_geometry(enum bvh_geometry_type type, float *data, uint32_t n, uint32_t rays,
                           uint32_t seed, uint32_t min_hits)
{
   struct bvh_geometry geo = {type, 0, n, data};
   struct bvh_build_input in = {.kind = type == BVH_GEOMETRY_TRIANGLES ? PPU_BVH_KIND_TRIANGLES
                                                                       : PPU_BVH_KIND_AABBS,
                                .geometries = &geo,
                                .geometry_count = 1};
   enum bvh_result r;
   void *bvh = test_build(&in, NULL, &r);
   CHECK(bvh);
   if (bvh) {
      uint32_t hits;
      CHECK_EQ_U64(test_compare_rays(bvh, &in, rays, seed, &hits), 0);
      CHECK_MSG(hits > min_hits, "%u hits", hits);
   }
   free(bvh);
   free(data);
}

TEST_CASE(random_soup_rays_match_brute_force)
{
   uint32_t n = 3000;
   float *v = test_random_soup(n, 42, 10.0f, 1.0f);
   for (uint32_t i = 0; i < n; i += 17)
      v[9 * i] = NAN; /* some inactive */
   check_geometry(BVH_GEOMETRY_TRIANGLES, v, n, 4000, 7, 1000);
}

TEST_CASE(aabb_rays_match_brute_force)
{
   uint32_t n = 2000, s = 3;
   float *b = malloc(sizeof(float) * 6 * n);
   for (uint32_t i = 0; i < n; i++)
      for (int a = 0; a < 3; a++) {
         b[6 * i + a] = test_randf(&s, -20, 20);
         b[6 * i + 3 + a] = b[6 * i + a] + test_randf(&s, 0, 1.5f);
      }
   check_geometry(BVH_GEOMETRY_AABBS, b, n, 4000, 11, 500);
}

static void rotation_scale(float m[3][4], float angle, const float axis_in[3], float scale,
                           const float t[3])
{
   float len = sqrtf(axis_in[0] * axis_in[0] + axis_in[1] * axis_in[1] + axis_in[2] * axis_in[2]);
   float x = axis_in[0] / len, y = axis_in[1] / len, z = axis_in[2] / len;
   float c = cosf(angle), s = sinf(angle), k = 1 - c;
   float r[3][3] = {{c + x * x * k, x * y * k - z * s, x * z * k + y * s},
                    {y * x * k + z * s, c + y * y * k, y * z * k - x * s},
                    {z * x * k - y * s, z * y * k + x * s, c + z * z * k}};
   for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 3; j++)
         m[i][j] = r[i][j] * scale * (j == 1 ? 0.5f : 1.0f); /* non-uniform */
      m[i][3] = t[i];
   }
}

TEST_CASE(instances_with_rotations_and_scales_match_brute_force)
{
   enum { BLASES = 3, INSTANCES = 60 };
   float *soups[BLASES];
   struct bvh_geometry geos[BLASES];
   struct bvh_build_input blas_in[BLASES];
   void *blas[BLASES];
   for (int b = 0; b < BLASES; b++) {
      soups[b] = test_random_soup(400 + 100 * b, 100 + b, 2.0f, 0.4f);
      geos[b] = (struct bvh_geometry){BVH_GEOMETRY_TRIANGLES, 0, 400 + 100u * b, soups[b]};
      blas_in[b] = (struct bvh_build_input){
          .kind = PPU_BVH_KIND_TRIANGLES, .geometries = &geos[b], .geometry_count = 1};
      enum bvh_result r;
      blas[b] = test_build(&blas_in[b], NULL, &r);
      REQUIRE(blas[b]);
   }
   struct bvh_instance inst[INSTANCES];
   const struct bvh_build_input *by_instance[INSTANCES];
   uint32_t s = 9;
   for (int i = 0; i < INSTANCES; i++) {
      int b = i % BLASES;
      const struct ppu_bvh_header *bh = blas[b];
      float axis[3] = {test_randf(&s, -1, 1), test_randf(&s, -1, 1), test_randf(&s, 0.1f, 1)};
      float t[3] = {test_randf(&s, -30, 30), test_randf(&s, -30, 30), test_randf(&s, -30, 30)};
      memset(&inst[i], 0, sizeof(inst[i]));
      rotation_scale(inst[i].transform, test_randf(&s, 0, 6.28f), axis, test_randf(&s, 0.3f, 3), t);
      inst[i].custom_index = 0x123456u + (uint32_t)i;
      inst[i].mask = 0xff;
      inst[i].blas_address = i % 13 == 5 ? 0 : (uint64_t)(uintptr_t)blas[b];
      memcpy(inst[i].blas_bounds_min, bh->bounds_min, sizeof(float) * 3);
      memcpy(inst[i].blas_bounds_max, bh->bounds_max, sizeof(float) * 3);
      by_instance[i] = &blas_in[b];
   }
   struct bvh_build_input in = {
       .kind = PPU_BVH_KIND_INSTANCES, .instances = inst, .instance_count = INSTANCES};
   enum bvh_result r;
   void *tlas = test_build(&in, NULL, &r);
   REQUIRE(tlas);
   char why[200];
   CHECK_MSG(bvh_validate(tlas, ((struct ppu_bvh_header *)tlas)->total_size, why, sizeof(why)) ==
                 BVH_SUCCESS,
             "%s", why);
   /* world_to_object inverts object_to_world. */
   const struct ppu_bvh_header *th = tlas;
   for (uint32_t k = 0; k < th->leaf_count; k++) {
      const struct ppu_bvh_instance *ir =
          (const void *)((const uint8_t *)tlas + th->leaf_offset + k * th->leaf_stride);
      CHECK_EQ_U64(ir->custom_index_and_mask, (0x123456u + ir->instance_index) | 0xff000000u);
      for (int a = 0; a < 3; a++)
         for (int c = 0; c < 3; c++) {
            double sum = 0;
            for (int j = 0; j < 3; j++)
               sum += (double)ir->world_to_object[a][j] * ir->object_to_world[j][c];
            CHECK(fabs(sum - (a == c)) < 1e-5);
         }
   }
   uint32_t hits;
   CHECK_EQ_U64(test_compare_tlas_rays(tlas, by_instance, 3000, s, &hits), 0);
   CHECK_MSG(hits > 100, "only %u of 3000 rays hit", hits);
   free(tlas);
   for (int b = 0; b < BLASES; b++) {
      free(blas[b]);
      free(soups[b]);
   }
}

TEST_CASE(refit_after_moving_vertices_matches_brute_force)
{
   uint32_t n = 2000, s = 21;
   float *v = test_random_soup(n, 5, 8.0f, 0.7f);
   struct bvh_geometry geo = {BVH_GEOMETRY_TRIANGLES, 0, n, v};
   struct bvh_build_input in = {.kind = PPU_BVH_KIND_TRIANGLES,
                                .flags = PPU_BVH_FLAG_ALLOW_UPDATE,
                                .geometries = &geo,
                                .geometry_count = 1};
   enum bvh_result r;
   void *bvh = test_build(&in, NULL, &r);
   REQUIRE(bvh);
   const struct ppu_bvh_header *h = bvh;
   for (int round = 0; round < 3; round++) {
      /* Move every triangle (a twist plus noise), which changes every box. */
      for (uint32_t i = 0; i < 9 * n; i += 3) {
         float x = v[i], z = v[i + 2], a = 0.3f;
         v[i] = x * cosf(a) - z * sinf(a) + test_randf(&s, -0.2f, 0.2f);
         v[i + 1] += test_randf(&s, -0.5f, 0.5f);
         v[i + 2] = x * sinf(a) + z * cosf(a);
      }
      CHECK(bvh_refit(&in, bvh, h->total_size) == BVH_SUCCESS);
      char why[200];
      CHECK_MSG(bvh_validate(bvh, h->total_size, why, sizeof(why)) == BVH_SUCCESS, "%s", why);
      uint32_t hits;
      CHECK_EQ_U64(test_compare_rays(bvh, &in, 2000, 100 + round, &hits), 0);
   }
   /* Refit needs ALLOW_UPDATE and the same primitive counts. */
   geo.primitive_count = n - 1;
   CHECK(bvh_refit(&in, bvh, h->total_size) == BVH_ERROR_INVALID_INPUT);
   free(bvh);
   free(v);
}

TEST_CASE(refit_of_instances_follows_new_transforms)
{
   float *soup = test_random_soup(300, 8, 1.0f, 0.3f);
   struct bvh_geometry geo = {BVH_GEOMETRY_TRIANGLES, 0, 300, soup};
   struct bvh_build_input bin = {
       .kind = PPU_BVH_KIND_TRIANGLES, .geometries = &geo, .geometry_count = 1};
   enum bvh_result r;
   void *blas = test_build(&bin, NULL, &r);
   REQUIRE(blas);
   const struct ppu_bvh_header *bh = blas;
   enum { N = 20 };
   struct bvh_instance inst[N];
   const struct bvh_build_input *by_instance[N];
   for (int i = 0; i < N; i++) {
      memset(&inst[i], 0, sizeof(inst[i]));
      float axis[3] = {0, 1, 0}, t[3] = {(float)i * 3, 0, 0};
      rotation_scale(inst[i].transform, 0.1f * i, axis, 1.0f, t);
      inst[i].blas_address = (uint64_t)(uintptr_t)blas;
      memcpy(inst[i].blas_bounds_min, bh->bounds_min, 12);
      memcpy(inst[i].blas_bounds_max, bh->bounds_max, 12);
      by_instance[i] = &bin;
   }
   struct bvh_build_input in = {.kind = PPU_BVH_KIND_INSTANCES,
                                .flags = PPU_BVH_FLAG_ALLOW_UPDATE,
                                .instances = inst,
                                .instance_count = N};
   void *tlas = test_build(&in, NULL, &r);
   REQUIRE(tlas);
   const struct ppu_bvh_header *th = tlas;
   for (int i = 0; i < N; i++) {
      float axis[3] = {1, 0, 1}, t[3] = {0, (float)i * 2.5f, 1};
      rotation_scale(inst[i].transform, 0.4f * i, axis, 1.5f, t);
   }
   CHECK(bvh_refit(&in, tlas, th->total_size) == BVH_SUCCESS);
   CHECK(bvh_validate(tlas, th->total_size, NULL, 0) == BVH_SUCCESS);
   uint32_t hits;
   CHECK_EQ_U64(test_compare_tlas_rays(tlas, by_instance, 2000, 4, &hits), 0);
   free(tlas);
   free(blas);
   free(soup);
}

/* Loads a scene; false (and a note) when the shared scenes are absent. */
static bool load_scene(const char *name, struct obj_mesh *mesh, float **soup)
{
   char path[512], err[256];
   snprintf(path, sizeof(path), "%s/%s", VKPPU_SCENES_DIR, name);
   if (!obj_mesh_load(path, mesh, err, sizeof(err))) {
      printf("  skipped: %s\n", err);
      return false;
   }
   *soup = obj_mesh_triangle_soup(mesh);
   return *soup != NULL;
}

static void check_scene(const char *name, uint32_t expect_tris, uint32_t rays)
{
   struct obj_mesh mesh;
   float *soup;
   if (!load_scene(name, &mesh, &soup))
      return;
   CHECK_EQ_U64(mesh.triangle_count, expect_tris);
   struct bvh_geometry geo = {BVH_GEOMETRY_TRIANGLES, PPU_BVH_GEOMETRY_OPAQUE, mesh.triangle_count,
                              soup};
   struct bvh_build_input in = {
       .kind = PPU_BVH_KIND_TRIANGLES, .geometries = &geo, .geometry_count = 1};
   enum bvh_result r;
   struct bvh_build_stats st;
   void *bvh = test_build(&in, &st, &r);
   REQUIRE(bvh);
   char why[200];
   CHECK_MSG(bvh_validate(bvh, ((struct ppu_bvh_header *)bvh)->total_size, why, sizeof(why)) ==
                 BVH_SUCCESS,
             "%s: %s", name, why);
   uint32_t hits;
   CHECK_EQ_U64(test_compare_rays(bvh, &in, rays, 77, &hits), 0);
   CHECK(hits > 0);
   free(bvh);
   free(soup);
   obj_mesh_free(&mesh);
}

TEST_CASE(scene_cornell_tiny_matches_brute_force_and_known_hits)
{
   struct obj_mesh mesh;
   float *soup;
   if (!load_scene("cornell_tiny.obj", &mesh, &soup))
      return;
   struct bvh_geometry geo = {BVH_GEOMETRY_TRIANGLES, 0, mesh.triangle_count, soup};
   struct bvh_build_input in = {
       .kind = PPU_BVH_KIND_TRIANGLES, .geometries = &geo, .geometry_count = 1};
   enum bvh_result r;
   void *bvh = test_build(&in, NULL, &r);
   REQUIRE(bvh);
   /* The scene README's worked examples. */
   struct test_ray back = {{0, 8, 16}, {0, 0, -1}, 0, INFINITY};
   struct test_ray top = {{2, 9, 1.5}, {0, -1, 0}, 0, INFINITY};
   struct test_hit h;
   test_trace(bvh, &back, &h);
   CHECK(h.hit && fabs(h.t - 21.0) < 1e-6);
   test_trace(bvh, &top, &h);
   CHECK(h.hit && fabs(h.t - 6.0) < 1e-6);
   uint32_t hits;
   CHECK_EQ_U64(test_compare_rays(bvh, &in, 5000, 3, &hits), 0);
   free(bvh);
   free(soup);
   obj_mesh_free(&mesh);
}

TEST_CASE(scene_teapot_matches_brute_force)
{
   check_scene("teapot.obj", 15704, 1500);
}

TEST_CASE(scene_bunny_matches_brute_force)
{
   check_scene("bunny.obj", 69451, 300);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
