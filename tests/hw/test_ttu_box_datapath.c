/* The TTU's node box datapath (hw/src/ttu/ttu_box_datapath.c): the AVX2
 * pass over all children of a node gives, bit for bit, what
 * ppu_ttu_box_test gives child by child, and so does the scalar fallback,
 * over random nodes and rays that include the awkward inputs: directions
 * with zero components (the parallel-slab rule), origins on the planes,
 * NaN and infinite node origins (garbage memory), extreme exponents
 * (subnormal and overflowing planes) and empty or inverted intervals. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "test_harness.h"
#include "ttu/ttu_box_datapath.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t rng(void)
{
   rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
   return (uint32_t)(rng_state >> 32);
}

static float rng_float(float scale)
{
   return ((float)(rng() >> 8) / 16777216.0f * 2.0f - 1.0f) * scale;
}

/* A value that is sometimes exactly one of the special ones. */
static float awkward(float usual, float special)
{
   return rng() % 16 == 0 ? special : usual;
}

static void random_node(struct ppu_bvh_node *n)
{
   memset(n, 0, sizeof(*n));
   static const float specials[] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 1e30f};
   for (unsigned a = 0; a < 3; a++) {
      n->origin[a] = awkward(rng_float(100.0f), specials[rng() % 6]);
      /* Mostly the builder's range; sometimes the int8 extremes. */
      n->exponent[a] = (int8_t)(rng() % 8 == 0 ? (int)(rng() % 256) - 128 : (int)(rng() % 24) - 16);
      for (unsigned s = 0; s < PPU_BVH_WIDTH; s++) {
         n->q_lo[a][s] = (uint8_t)rng();
         /* Mostly lo <= hi, sometimes inverted. */
         n->q_hi[a][s] =
             rng() % 8 ? (uint8_t)(n->q_lo[a][s] + rng() % (256 - n->q_lo[a][s])) : (uint8_t)rng();
      }
   }
}

static void random_ray(const struct ppu_bvh_node *n, struct ppu_ttu_ray *r, float *tmin,
                       float *tmax)
{
   float org[3], dir[3], lo[3], hi[3];
   /* Mostly aimed at the middle of a child, so that boxes are hit. */
   bool aim = rng() % 4 != 0;
   ppu_ttu_child_box(n, rng() % 8, lo, hi);
   for (unsigned a = 0; a < 3; a++) {
      /* Sometimes exactly on a child's plane. */
      float plane = ppu_bvh_plane(n->origin[a], n->exponent[a], n->q_lo[a][rng() % 8]);
      org[a] = awkward(rng_float(200.0f), plane);
      float toward = aim ? 0.5f * lo[a] + 0.5f * hi[a] - org[a] : rng_float(1.0f);
      dir[a] = awkward(toward, rng() % 2 ? 0.0f : -0.0f);
   }
   ppu_ttu_ray_setup(r, org, dir);
   *tmin = rng() % 4 ? 0.0f : fabsf(rng_float(50.0f));
   *tmax = rng() % 4 ? 1e30f : fabsf(rng_float(500.0f));
}

static bool same_bits(float a, float b)
{
   return memcmp(&a, &b, sizeof(a)) == 0;
}

/* Checks fn against ppu_ttu_box_test on `rounds` random node/ray pairs;
 * returns how many slots were hit (so the test knows it tested hits). */
static uint64_t check_against_reference(ppu_ttu_node_box_fn fn, const char *name, unsigned rounds)
{
   uint64_t hits_seen = 0;
   unsigned failures = 0;
   for (unsigned i = 0; i < rounds; i++) {
      struct ppu_bvh_node n;
      struct ppu_ttu_ray r;
      float tmin, tmax, near[PPU_BVH_WIDTH];
      random_node(&n);
      random_ray(&n, &r, &tmin, &tmax);
      n.child_count = (uint8_t)(1 + rng() % PPU_BVH_WIDTH);
      uint32_t mask = fn(&r, &n, tmin, tmax, near);
      for (unsigned s = 0; s < n.child_count; s++) {
         float lo[3], hi[3], t = 0;
         ppu_ttu_child_box(&n, s, lo, hi);
         bool hit = ppu_ttu_box_test(&r, lo, hi, tmin, tmax, &t);
         bool got = (mask >> s) & 1u;
         hits_seen += hit;
         bool ok = got == hit && (!hit || same_bits(near[s], t));
         CHECK_MSG(ok, "%s: round %u slot %u: hit %d t %a, reference hit %d t %a", name, i, s, got,
                   (double)near[s], hit, (double)t);
         if (!ok && ++failures == 10)
            return hits_seen; /* enough to go on */
      }
   }
   return hits_seen;
}

TEST_CASE(scalar_node_box_test_matches_the_box_test_per_child)
{
   uint64_t hits = check_against_reference(ppu_ttu_node_box_test_scalar, "scalar", 20000);
   CHECK(hits > 1000);
}

TEST_CASE(avx2_node_box_test_matches_the_box_test_per_child)
{
   ppu_ttu_node_box_fn avx2 = ppu_ttu_node_box_avx2();
   if (!avx2) {
      printf("SKIP: no AVX2 on this host\n");
      return;
   }
   uint64_t hits = check_against_reference(avx2, "avx2", 200000);
   CHECK(hits > 10000);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
