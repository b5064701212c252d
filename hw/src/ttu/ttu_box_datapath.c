/* See ttu_box_datapath.h. */
#include "ttu/ttu_box_datapath.h"

#include <math.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_AVX2_PATH 1
#endif

uint32_t ppu_ttu_node_box_test_scalar(const struct ppu_ttu_ray *r, const struct ppu_bvh_node *n,
                                      float tmin, float tmax, float near[PPU_BVH_WIDTH])
{
   uint32_t hits = 0;
   for (unsigned slot = 0; slot < n->child_count && slot < PPU_BVH_WIDTH; slot++) {
      float lo[3], hi[3];
      ppu_ttu_child_box(n, slot, lo, hi);
      if (ppu_ttu_box_test(r, lo, hi, tmin, tmax, &near[slot]))
         hits |= 1u << slot;
   }
   return hits;
}

#ifdef HAVE_AVX2_PATH
/* Eight children at once: the planes of one axis as eight binary32 lanes
 * (the decode), the slabs as two halves of four binary64 lanes (the upper
 * one only for nodes of more than four children). Each statement is the
 * scalar code's expression on a vector, in its order. Its selections
 * "x = c ? a : b" are MINPD/MAXPD, which are defined as exactly that
 * (MAXPD a, b = a > b ? a : b; MINPD a, b = a < b ? a : b: the second
 * operand whenever either is NaN), so operands are placed to match:
 *   t0 > t1 ? t1 : t0     = min(t1, t0)    (near end after the swap)
 *   t0 > t1 ? t0 : t1     = max(t0, t1)    (far end)
 *   near > enter ? near : enter = max(near, enter)
 *   far < leave ? far : leave   = min(far, leave)
 *   enter < tmin ? tmin : enter = max(tmin, enter), and so on.
 *
 * One axis's slabs of four children, folded into their intervals. */
__attribute__((target("avx2"), always_inline)) static inline void
slabs4(__m128 lo4, __m128 hi4, __m256d org, __m256d inv, __m256d *enter, __m256d *leave,
       __m256d *ok)
{
   __m256d t0 = _mm256_mul_pd(_mm256_sub_pd(_mm256_cvtps_pd(lo4), org), inv);
   __m256d t1 = _mm256_mul_pd(_mm256_sub_pd(_mm256_cvtps_pd(hi4), org), inv);
   __m256d near_t = _mm256_min_pd(t1, t0);
   __m256d far_t = _mm256_max_pd(t0, t1);
   *enter = _mm256_max_pd(near_t, *enter);
   *leave = _mm256_min_pd(far_t, *leave);
   *ok = _mm256_and_pd(*ok, _mm256_cmp_pd(near_t, far_t, _CMP_LE_OQ));
}

/* The end of the test for four children: dilation, clamping to [tmin,
 * tmax], the hit bits and the entry t rounded to binary32 as the scalar
 * cast (MXCSR's round to nearest), then kept inside [tmin, ...]. */
__attribute__((target("avx2"), always_inline)) static inline uint32_t
finish4(__m256d e, __m256d l, __m256d ok, float tmin, float tmax, float near[4])
{
   const __m256d sign = _mm256_set1_pd(-0.0), dilation = _mm256_set1_pd(PPU_TTU_BOX_DILATION);
   e = _mm256_sub_pd(e, _mm256_mul_pd(_mm256_andnot_pd(sign, e), dilation));
   l = _mm256_add_pd(l, _mm256_mul_pd(_mm256_andnot_pd(sign, l), dilation));
   e = _mm256_max_pd(_mm256_set1_pd((double)tmin), e);
   l = _mm256_min_pd(_mm256_set1_pd((double)tmax), l);
   __m256d hit = _mm256_and_pd(ok, _mm256_cmp_pd(e, l, _CMP_LE_OQ));
   _mm_storeu_ps(near, _mm_max_ps(_mm_set1_ps(tmin), _mm256_cvtpd_ps(e)));
   return (uint32_t)_mm256_movemask_pd(hit);
}

/* The four intervals of each half are locals, not arrays, so that they
 * stay in registers through the three axes (indexed arrays were kept in
 * memory: a third of the function's instructions). */
__attribute__((target("avx2"))) static uint32_t node_box_test_avx2(const struct ppu_ttu_ray *r,
                                                                   const struct ppu_bvh_node *n,
                                                                   float tmin, float tmax,
                                                                   float near[PPU_BVH_WIDTH])
{
   const bool upper = n->child_count > 4;
   __m256d enter0 = _mm256_set1_pd(-INFINITY), leave0 = _mm256_set1_pd(INFINITY);
   __m256d ok0 = _mm256_castsi256_pd(_mm256_set1_epi64x(-1));
   __m256d enter1 = enter0, leave1 = leave0, ok1 = ok0;
   uint32_t inside = 0xffu; /* slabs parallel to the ray that contain its origin */
   for (unsigned a = 0; a < 3; a++) {
      /* q * 2^e is exact in binary32, then one rounded addition: the
       * lanes hold ppu_bvh_plane's bits. */
      __m256 scale = _mm256_set1_ps(ppu_bvh_pow2(n->exponent[a]));
      __m256 origin = _mm256_set1_ps(n->origin[a]);
      __m256i qlo =
          _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)n->q_lo[a]));
      __m256i qhi =
          _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)n->q_hi[a]));
      __m256 lo = _mm256_add_ps(origin, _mm256_mul_ps(_mm256_cvtepi32_ps(qlo), scale));
      __m256 hi = _mm256_add_ps(origin, _mm256_mul_ps(_mm256_cvtepi32_ps(qhi), scale));
      if (r->dir[a] == 0.0f) {
         __m256 org = _mm256_set1_ps(r->org[a]);
         __m256 in =
             _mm256_and_ps(_mm256_cmp_ps(org, lo, _CMP_GE_OQ), _mm256_cmp_ps(org, hi, _CMP_LE_OQ));
         inside &= (uint32_t)_mm256_movemask_ps(in);
         continue;
      }
      __m256d org = _mm256_set1_pd((double)r->org[a]);
      __m256d inv = _mm256_set1_pd(r->inv_dir[a]);
      slabs4(_mm256_castps256_ps128(lo), _mm256_castps256_ps128(hi), org, inv, &enter0, &leave0,
             &ok0);
      if (upper)
         slabs4(_mm256_extractf128_ps(lo, 1), _mm256_extractf128_ps(hi, 1), org, inv, &enter1,
                &leave1, &ok1);
   }
   uint32_t hits = finish4(enter0, leave0, ok0, tmin, tmax, near);
   if (upper)
      hits |= finish4(enter1, leave1, ok1, tmin, tmax, near + 4) << 4;
   return hits & inside;
}
#endif

ppu_ttu_node_box_fn ppu_ttu_node_box_avx2(void)
{
#ifdef HAVE_AVX2_PATH
   if (__builtin_cpu_supports("avx2"))
      return node_box_test_avx2;
#endif
   return NULL;
}

ppu_ttu_node_box_fn ppu_ttu_node_box_select(void)
{
   ppu_ttu_node_box_fn avx2 = ppu_ttu_node_box_avx2();
   return avx2 ? avx2 : ppu_ttu_node_box_test_scalar;
}
