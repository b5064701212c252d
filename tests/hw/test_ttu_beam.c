/* The TTU's beam query (hw/src/ttu/ttu_beam.c, the beam-tracing seed's
 * Tables 1 and 2):
 *  - every slab case (the signs of dA and dB, 1..6) gives the answer of a
 *    reference written without the case table (each half-condition
 *    oA + t dA >= MIN, oB + t dB <= MAX solved as a linear inequality in
 *    long double), over random beams and boxes near them, both ways: a box
 *    the reference reaches is reached, and a box it misses by more than the
 *    dilation is missed;
 *  - brute force: a beam reaches a box whenever a ray inside it (origin in
 *    [oB, oA], direction in [dB, dA], interval inside [tmin, tmax]) does by
 *    the TTU's own ray-box test, including rays on the beam's edges;
 *  - the node form tests each child as the box form does;
 *  - invalid configurations are rejected as the seed specifies (AABB0 of
 *    negative size, AABB1 smaller than AABB0, tmin < 0, empty range), plus
 *    non-finite inputs, and the enclosing beam of a set of rays is exact. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "test_harness.h"
#include "ttu/ttu_beam.h"
#include "ttu/ttu_box_datapath.h"
#include "ttu/ttu_intersect.h"

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static uint32_t rng(void)
{
   rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
   return (uint32_t)(rng_state >> 32);
}

/* Uniform in [0, 1]. */
static float unit(void)
{
   return (float)(rng() >> 8) / 16777215.0f;
}

static float range(float lo, float hi)
{
   return lo + (hi - lo) * unit();
}

/* Directions of one dimension for slab case c (ttu_beam.h's table). */
static void case_directions(unsigned c, float *dA, float *dB)
{
   switch (c) {
   case 1:
      *dB = range(0.05f, 2.0f);
      *dA = *dB + (rng() % 4 ? range(0.0f, 1.0f) : 0.0f);
      break;
   case 2:
      *dB = 0.0f;
      *dA = range(0.05f, 2.0f);
      break;
   case 3:
      *dB = -range(0.05f, 2.0f);
      *dA = range(0.05f, 2.0f);
      break;
   case 4:
      *dA = *dB = 0.0f;
      break;
   case 5:
      *dA = 0.0f;
      *dB = -range(0.05f, 2.0f);
      break;
   default:
      *dA = -range(0.05f, 2.0f);
      *dB = *dA - (rng() % 4 ? range(0.0f, 1.0f) : 0.0f);
      break;
   }
}

/* Solves alpha + beta t >= 0 into [*lo, *hi] (long double); false: no t. */
static bool half_line(long double alpha, long double beta, long double *lo, long double *hi)
{
   if (beta > 0) {
      long double t = -alpha / beta;
      *lo = t > *lo ? t : *lo;
   } else if (beta < 0) {
      long double t = -alpha / beta;
      *hi = t < *hi ? t : *hi;
   } else if (alpha < 0) {
      return false;
   }
   return true;
}

/* The reference: the t range where every dimension's beam interval
 * [oB + t dB, oA + t dA] meets [lo, hi]; false when empty. *never: empty
 * for every t (a non-moving side on the wrong side of a plane), not only
 * by a range that closed up. */
static bool reference(const struct ppu_ttu_beam *b, const float lo[3], const float hi[3],
                      long double *t0, long double *t1, bool *never)
{
   *t0 = b->tmin;
   *t1 = b->tmax;
   *never = false;
   for (unsigned a = 0; a < 3; a++) {
      if (!half_line((long double)b->oA[a] - lo[a], b->dA[a], t0, t1) ||
          !half_line((long double)hi[a] - b->oB[a], -(long double)b->dB[a], t0, t1)) {
         *never = true;
         return false;
      }
   }
   return *t0 <= *t1;
}

static bool random_beam(struct ppu_ttu_beam *b, const unsigned cases[3])
{
   float oA[3], oB[3], dA[3], dB[3];
   for (unsigned a = 0; a < 3; a++) {
      oB[a] = range(-4.0f, 4.0f);
      oA[a] = oB[a] + (rng() % 4 ? range(0.0f, 2.0f) : 0.0f);
      case_directions(cases[a], &dA[a], &dB[a]);
   }
   float tmin = rng() % 3 ? 0.0f : range(0.0f, 2.0f);
   float tmax = rng() % 4 ? tmin + range(0.0f, 8.0f) : INFINITY;
   enum ppu_ttu_beam_error e = ppu_ttu_beam_setup(b, oA, oB, dA, dB, tmin, tmax);
   if (e != PPU_TTU_BEAM_VALID) {
      test_fail(__FILE__, __LINE__, "random beam refused: %s", ppu_ttu_beam_error_name(e));
      return false;
   }
   for (unsigned a = 0; a < 3; a++) {
      if (ppu_ttu_beam_slab_case(b, a) != cases[a]) {
         test_fail(__FILE__, __LINE__, "dimension %u: case %u, expected %u", a,
                   ppu_ttu_beam_slab_case(b, a), cases[a]);
         return false;
      }
   }
   return true;
}

/* A box near the beam: around a point of the beam at some t (reached),
 * pushed off by a random amount (often missed), sometimes with a plane on
 * the beam's edge. */
static void random_box(const struct ppu_ttu_beam *b, float lo[3], float hi[3])
{
   float tcap = isinf(b->tmax) ? b->tmin + 10.0f : b->tmax;
   float t = range(0.0f, tcap + 2.0f);
   for (unsigned a = 0; a < 3; a++) {
      float edge_b = b->oB[a] + t * b->dB[a], edge_a = b->oA[a] + t * b->dA[a];
      float centre = range(edge_b, edge_a) + (rng() % 2 ? range(-3.0f, 3.0f) : 0.0f);
      float half = rng() % 4 ? range(0.0f, 1.5f) : 0.0f;
      lo[a] = centre - half;
      hi[a] = centre + half;
      if (rng() % 8 == 0)
         lo[a] = edge_a; /* touching the A edge from above */
      if (rng() % 8 == 0)
         hi[a] = edge_b; /* touching the B edge from below */
      if (lo[a] > hi[a]) {
         float s = lo[a];
         lo[a] = hi[a];
         hi[a] = s;
      }
   }
}

static float clampf(float v, float lo, float hi)
{
   return fminf(fmaxf(v, lo), hi);
}

/* A ray inside the beam: often on its corners (u in {0, 1}). */
static void ray_inside(const struct ppu_ttu_beam *b, struct ppu_ttu_ray *r, float *tmin,
                       float *tmax)
{
   float org[3], dir[3];
   for (unsigned a = 0; a < 3; a++) {
      float u = rng() % 3 ? unit() : (float)(rng() % 2),
            v = rng() % 3 ? unit() : (float)(rng() % 2);
      org[a] = clampf(b->oB[a] + u * (b->oA[a] - b->oB[a]), b->oB[a], b->oA[a]);
      dir[a] = clampf(b->dB[a] + v * (b->dA[a] - b->dB[a]), b->dB[a], b->dA[a]);
   }
   ppu_ttu_ray_setup(r, org, dir);
   float tcap = isinf(b->tmax) ? b->tmin + 20.0f : b->tmax;
   *tmin = clampf(b->tmin + (rng() % 2 ? 0.0f : range(0.0f, tcap - b->tmin)), b->tmin, tcap);
   *tmax = rng() % 4 == 0 ? b->tmax : clampf(*tmin + range(0.0f, tcap - *tmin), *tmin, b->tmax);
}

struct case_stats {
   unsigned hits, misses, ray_hits;
};

static void check_box(const struct ppu_ttu_beam *b, const float lo[3], const float hi[3],
                      struct case_stats *s)
{
   bool beam = ppu_ttu_beam_box_test(b, lo, hi);
   long double t0, t1;
   bool never, exact = reference(b, lo, hi, &t0, &t1, &never);
   if (exact) {
      CHECK_MSG(beam, "beam misses a box the reference reaches over [%Lg, %Lg]", t0, t1);
   } else if (beam) {
      /* Only a near miss may be let in (the dilation): the reference's
       * range is then empty by a relative hair. */
      long double gap = t0 - t1, scale = fabsl(t0) > fabsl(t1) ? fabsl(t0) : fabsl(t1);
      CHECK_MSG(!never && gap <= scale * 1e-5L + 1e-30L,
                "beam reaches a box the reference misses by [%Lg > %Lg]", t0, t1);
   }
   if (beam)
      s->hits++;
   else
      s->misses++;
   /* Brute force: rays inside the beam. */
   for (unsigned k = 0; k < 24; k++) {
      struct ppu_ttu_ray r;
      float tmin, tmax, tnear;
      ray_inside(b, &r, &tmin, &tmax);
      if (ppu_ttu_box_test(&r, lo, hi, tmin, tmax, &tnear)) {
         s->ray_hits++;
         if (!beam) {
            CHECK_MSG(false,
                      "a ray inside the beam (o %g %g %g, d %g %g %g, [%g, %g]) hits a box the "
                      "beam misses",
                      r.org[0], r.org[1], r.org[2], r.dir[0], r.dir[1], r.dir[2], tmin, tmax);
            return;
         }
      }
   }
}

TEST_CASE(slab_cases_match_the_reference)
{
   for (unsigned c = 1; c <= 6; c++) {
      struct case_stats s = {0};
      for (unsigned trial = 0; trial < 4000; trial++) {
         /* The case under test in all three dimensions half of the time,
          * else in one with random cases in the others. */
         unsigned cases[3];
         for (unsigned a = 0; a < 3; a++)
            cases[a] = trial % 2 ? c : 1 + rng() % 6;
         cases[trial % 3] = c;
         struct ppu_ttu_beam b;
         if (!random_beam(&b, cases))
            return;
         float lo[3], hi[3];
         random_box(&b, lo, hi);
         check_box(&b, lo, hi, &s);
      }
      printf("  slab case %u: %u boxes reached, %u missed, %u ray hits\n", c, s.hits, s.misses,
             s.ray_hits);
      /* Both answers occur, and rays hit: the checks above had work. */
      CHECK_MSG(s.hits > 400 && s.misses > 400 && s.ray_hits > 1000,
                "case %u: %u reached, %u missed, %u ray hits", c, s.hits, s.misses, s.ray_hits);
   }
}

/* The six rules by hand, at points where the answer is known. */
TEST_CASE(slab_rules_by_hand)
{
   struct ppu_ttu_beam b;
   const float zero[3] = {0, 0, 0};
   float oA[3] = {1, 1, 1}, oB[3] = {0, 0, 0};
   /* Case 1 along x: the beam [t, 1 + 2t] meets [4, 5] for t in [1.5, 5]. */
   float dA[3] = {2, 0, 0}, dB[3] = {1, 0, 0};
   double t0, t1;
   REQUIRE(ppu_ttu_beam_setup(&b, oA, oB, dA, dB, 0.0f, INFINITY) == PPU_TTU_BEAM_VALID);
   CHECK(ppu_ttu_beam_slab_case(&b, 0) == 1 && ppu_ttu_beam_slab_case(&b, 1) == 4);
   CHECK(ppu_ttu_beam_slab(&b, 0, 4.0f, 5.0f, &t0, &t1) && t0 == 1.5 && t1 == 5.0);
   /* Case 4 along y: [0, 1] never moves; [2, 3] is never reached. */
   CHECK(ppu_ttu_beam_slab(&b, 1, 0.5f, 3.0f, &t0, &t1) && isinf(t0) && isinf(t1));
   CHECK(!ppu_ttu_beam_slab(&b, 1, 2.0f, 3.0f, &t0, &t1));
   /* Case 2: dB = 0 keeps B at 0: a slab below it is never reached. */
   float dA2[3] = {1, 0, 0}, dB2[3] = {0, 0, 0};
   REQUIRE(ppu_ttu_beam_setup(&b, oA, oB, dA2, dB2, 0.0f, 10.0f) == PPU_TTU_BEAM_VALID);
   CHECK(ppu_ttu_beam_slab_case(&b, 0) == 2);
   CHECK(ppu_ttu_beam_slab(&b, 0, 3.0f, 4.0f, &t0, &t1) && t0 == 2.0 && isinf(t1));
   CHECK(!ppu_ttu_beam_slab(&b, 0, -3.0f, -2.0f, &t0, &t1));
   /* Case 3: A rises, B falls; [-5, -4] is reached from t = 4 on. */
   float dA3[3] = {1, 0, 0}, dB3[3] = {-1, 0, 0};
   REQUIRE(ppu_ttu_beam_setup(&b, oA, oB, dA3, dB3, 0.0f, 10.0f) == PPU_TTU_BEAM_VALID);
   CHECK(ppu_ttu_beam_slab_case(&b, 0) == 3);
   CHECK(ppu_ttu_beam_slab(&b, 0, -5.0f, -4.0f, &t0, &t1) && t0 == 4.0 && isinf(t1));
   /* Case 5: A stays at 1, B falls: [-2, 0.5] from t = 0, [2, 3] never. */
   float dB5[3] = {-2, 0, 0};
   REQUIRE(ppu_ttu_beam_setup(&b, oA, oB, zero, dB5, 0.0f, 10.0f) == PPU_TTU_BEAM_VALID);
   CHECK(ppu_ttu_beam_slab_case(&b, 0) == 5);
   CHECK(ppu_ttu_beam_slab(&b, 0, -6.0f, -5.0f, &t0, &t1) && t0 == 2.5 && isinf(t1));
   CHECK(!ppu_ttu_beam_slab(&b, 0, 2.0f, 3.0f, &t0, &t1));
   /* Case 6: both fall: [-3, -2] is met for t in [2, 4] by [-t, 1 - t]. */
   float dA6[3] = {-1, 0, 0}, dB6[3] = {-1, 0, 0};
   REQUIRE(ppu_ttu_beam_setup(&b, oA, oB, dA6, dB6, 0.0f, 10.0f) == PPU_TTU_BEAM_VALID);
   CHECK(ppu_ttu_beam_slab_case(&b, 0) == 6);
   CHECK(ppu_ttu_beam_slab(&b, 0, -3.0f, -2.0f, &t0, &t1) && t0 == 2.0 && t1 == 4.0);
   /* Table 1: the t range is cut by [tmin, tmax]: with tmax 3 the case-1
    * box [4, 5] (reached from 1.5) is reached, with tmax 1 it is not. */
   const float lo[3] = {4, 0, 0}, hi[3] = {5, 1, 1};
   REQUIRE(ppu_ttu_beam_setup(&b, oA, oB, dA, dB, 0.0f, 3.0f) == PPU_TTU_BEAM_VALID);
   CHECK(ppu_ttu_beam_box_test(&b, lo, hi));
   REQUIRE(ppu_ttu_beam_setup(&b, oA, oB, dA, dB, 0.0f, 1.0f) == PPU_TTU_BEAM_VALID);
   CHECK(!ppu_ttu_beam_box_test(&b, lo, hi));
}

TEST_CASE(node_form_matches_box_form)
{
   for (unsigned trial = 0; trial < 2000; trial++) {
      unsigned cases[3] = {1 + rng() % 6, 1 + rng() % 6, 1 + rng() % 6};
      struct ppu_ttu_beam b;
      if (!random_beam(&b, cases))
         return;
      struct ppu_bvh_node n;
      memset(&n, 0, sizeof(n));
      n.child_count = (uint8_t)(1 + rng() % PPU_BVH_WIDTH);
      for (unsigned a = 0; a < 3; a++) {
         n.origin[a] = range(-8.0f, 0.0f);
         n.exponent[a] = (int8_t)(-6 + (int)(rng() % 4));
         for (unsigned s = 0; s < PPU_BVH_WIDTH; s++) {
            n.q_lo[a][s] = (uint8_t)(rng() % 200);
            n.q_hi[a][s] = (uint8_t)(n.q_lo[a][s] + rng() % 56);
         }
      }
      uint32_t expect = 0;
      for (unsigned s = 0; s < n.child_count; s++) {
         float lo[3], hi[3];
         ppu_ttu_child_box(&n, s, lo, hi);
         expect |= (uint32_t)ppu_ttu_beam_box_test(&b, lo, hi) << s;
      }
      uint32_t got = ppu_ttu_beam_node_test(&b, &n);
      CHECK_MSG(got == expect, "trial %u: node mask 0x%x, boxes 0x%x", trial, got, expect);
   }
}

TEST_CASE(invalid_configurations_are_rejected)
{
   struct ppu_ttu_beam b;
   const float oA[3] = {1, 1, 1}, oB[3] = {0, 0, 0}, dA[3] = {1, 1, 1}, dB[3] = {0.5f, 0.5f, 0.5f};
   CHECK(ppu_ttu_beam_setup(&b, oA, oB, dA, dB, 0.0f, 1.0f) == PPU_TTU_BEAM_VALID);
   /* The seed's requirements: oA >= oB, dA >= dB, tmin >= 0, tmax >= tmin. */
   const float oA_low[3] = {1, -1, 1};
   CHECK(ppu_ttu_beam_setup(&b, oA_low, oB, dA, dB, 0.0f, 1.0f) == PPU_TTU_BEAM_ORIGINS_INVERTED);
   const float dA_low[3] = {1, 1, 0.25f};
   CHECK(ppu_ttu_beam_setup(&b, oA, oB, dA_low, dB, 0.0f, 1.0f) ==
         PPU_TTU_BEAM_DIRECTIONS_INVERTED);
   CHECK(ppu_ttu_beam_setup(&b, oA, oB, dA, dB, -0.5f, 1.0f) == PPU_TTU_BEAM_NEGATIVE_TMIN);
   CHECK(ppu_ttu_beam_setup(&b, oA, oB, dA, dB, 2.0f, 1.0f) == PPU_TTU_BEAM_EMPTY_RANGE);
   const float nan3[3] = {0, NAN, 0}, inf3[3] = {INFINITY, 0, 0};
   CHECK(ppu_ttu_beam_setup(&b, nan3, oB, dA, dB, 0.0f, 1.0f) == PPU_TTU_BEAM_NOT_FINITE);
   CHECK(ppu_ttu_beam_setup(&b, oA, oB, inf3, dB, 0.0f, 1.0f) == PPU_TTU_BEAM_NOT_FINITE);
   CHECK(ppu_ttu_beam_setup(&b, oA, oB, dA, dB, 0.0f, NAN) == PPU_TTU_BEAM_NOT_FINITE);
   /* An infinite tmax is a valid beam (a ray query's usual one). */
   CHECK(ppu_ttu_beam_setup(&b, oA, oB, dA, dB, 0.0f, INFINITY) == PPU_TTU_BEAM_VALID);
   for (int e = PPU_TTU_BEAM_VALID; e <= PPU_TTU_BEAM_EMPTY_RANGE; e++)
      CHECK(strcmp(ppu_ttu_beam_error_name((enum ppu_ttu_beam_error)e), "unknown beam error"));
}

TEST_CASE(enclosing_beam_is_exact)
{
   const float o[3][3] = {{0, 1, 2}, {-1, 3, 2}, {0.5f, 0, 7}};
   const float d[3][3] = {{1, 0, -1}, {0.5f, 0, -2}, {2, -1, -1}};
   const float tmin[3] = {0.25f, 0.0f, 1.0f}, tmax[3] = {1.0f, INFINITY, 2.0f};
   struct ppu_ttu_beam b;
   REQUIRE(ppu_ttu_beam_enclose(&b, 3, o, d, tmin, tmax) == PPU_TTU_BEAM_VALID);
   CHECK(b.oA[0] == 0.5f && b.oA[1] == 3 && b.oA[2] == 7 && b.oB[0] == -1 && b.oB[1] == 0 &&
         b.oB[2] == 2);
   CHECK(b.dA[0] == 2 && b.dA[1] == 0 && b.dA[2] == -1 && b.dB[0] == 0.5f && b.dB[1] == -1 &&
         b.dB[2] == -2);
   CHECK(b.tmin == 0.0f && isinf(b.tmax));
   CHECK(ppu_ttu_beam_slab_case(&b, 0) == 1 && ppu_ttu_beam_slab_case(&b, 1) == 5 &&
         ppu_ttu_beam_slab_case(&b, 2) == 6);
   /* A NaN ray does not vanish from the beam: it invalidates it. */
   const float o_nan[2][3] = {{0, 0, 0}, {NAN, 0, 0}};
   CHECK(ppu_ttu_beam_enclose(&b, 2, o_nan, d, tmin, tmax) == PPU_TTU_BEAM_NOT_FINITE);
   const float neg[1] = {-1.0f};
   CHECK(ppu_ttu_beam_enclose(&b, 1, o, d, neg, tmax) == PPU_TTU_BEAM_NEGATIVE_TMIN);
   CHECK(ppu_ttu_beam_enclose(&b, 0, o, d, tmin, tmax) == PPU_TTU_BEAM_EMPTY_RANGE);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
