/* Test-only helpers of the BVH tests and benchmark: random inputs, a CPU
 * ray caster that reads the bvh.h format the way the TTU will (decoded
 * quantized boxes, leaves, instances), and brute-force references. */
#ifndef BVH_TEST_UTIL_H
#define BVH_TEST_UTIL_H

#include "bvh_builder.h"

struct test_ray {
   double origin[3], direction[3];
   double tmin, tmax;
};

struct test_hit {
   bool hit;
   double t;
   uint32_t instance; /* instance_index, or UINT32_MAX in a bottom level */
   uint32_t geometry, primitive;
};

uint32_t test_rand(uint32_t *state);
float test_randf(uint32_t *state, float lo, float hi);

/* Intersections shared by the caster and the brute force, so both see the
 * same arithmetic. */
bool test_ray_triangle(const struct test_ray *r, const float v[9], double *t);
bool test_ray_aabb(const struct test_ray *r, const float box[6], double *t);

/* Closest hit by traversing the structure at bvh. Instance records'
 * blas_address are host pointers in the tests. Returns the number of nodes
 * visited. */
uint32_t test_trace(const void *bvh, const struct test_ray *r, struct test_hit *hit);
/* Closest hit over every active primitive of a bottom-level input. */
void test_brute_force(const struct bvh_build_input *in, const struct test_ray *r,
                      struct test_hit *hit);
/* Closest hit over every active instance of a built top level, each
 * testing its bottom level by brute force (the ray mapped by the record's
 * world_to_object). */
void test_brute_force_tlas(const void *tlas, const struct bvh_build_input *const *blas_inputs,
                           const struct test_ray *r, struct test_hit *hit);

/* Allocates the worst-case size for `in`, builds, and returns the buffer
 * (aligned to PPU_BVH_ALIGN; free() it), NULL on error with *result set. */
void *test_build(const struct bvh_build_input *in, struct bvh_build_stats *stats,
                 enum bvh_result *result);

/* n triangles (9 floats each, malloc'ed) of about `size` scattered in the
 * cube [-scene, scene]^3. */
float *test_random_soup(uint32_t n, uint32_t seed, float scene, float size);

/* A random ray from inside or around the box [lo, hi]. */
void test_random_ray(uint32_t *state, const float lo[3], const float hi[3], struct test_ray *r);

/* The same closest hit: both miss, or both hit at the same t (another
 * primitive at equal t is a tie, not a disagreement). */
bool test_same_hit(const struct test_hit *a, const struct test_hit *b);

/* bvh_validate of the structure at bvh (its header's total_size bytes): a
 * failed check with the reason, and false, when it is not valid. */
bool test_bvh_valid(const void *bvh);

/* Casts `rays` random rays (seeded) at bvh, built from the bottom-level
 * input `in`, and by brute force over `in`; returns the number of
 * disagreements on the closest hit (equal t with another primitive is a
 * tie, not one) and sets *hits to the rays brute force hits. */
uint32_t test_compare_rays(const void *bvh, const struct bvh_build_input *in, uint32_t rays,
                           uint32_t seed, uint32_t *hits);
/* test_compare_rays for a built top level whose instance i uses the
 * bottom-level input by_instance[i]. */
uint32_t test_compare_tlas_rays(const void *tlas, const struct bvh_build_input *const *by_instance,
                                uint32_t rays, uint32_t seed, uint32_t *hits);

#endif
