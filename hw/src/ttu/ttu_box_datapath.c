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
 *   enter < tmin ? tmin : enter = max(tmin, enter), and so on. */
__attribute__((target("avx2"))) static uint32_t node_box_test_avx2(const struct ppu_ttu_ray *r,
                                                                   const struct ppu_bvh_node *n,
                                                                   float tmin, float tmax,
                                                                   float near[PPU_BVH_WIDTH])
{
   const unsigned halves = n->child_count > 4 ? 2 : 1;
   __m256d enter[2], leave[2], ok[2];
   for (unsigned h = 0; h < 2; h++) {
      enter[h] = _mm256_set1_pd(-INFINITY);
      leave[h] = _mm256_set1_pd(INFINITY);
      ok[h] = _mm256_castsi256_pd(_mm256_set1_epi64x(-1));
   }
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
      for (unsigned h = 0; h < halves; h++) {
         __m128 lo4 = h ? _mm256_extractf128_ps(lo, 1) : _mm256_castps256_ps128(lo);
         __m128 hi4 = h ? _mm256_extractf128_ps(hi, 1) : _mm256_castps256_ps128(hi);
         __m256d t0 = _mm256_mul_pd(_mm256_sub_pd(_mm256_cvtps_pd(lo4), org), inv);
         __m256d t1 = _mm256_mul_pd(_mm256_sub_pd(_mm256_cvtps_pd(hi4), org), inv);
         __m256d near_t = _mm256_min_pd(t1, t0);
         __m256d far_t = _mm256_max_pd(t0, t1);
         enter[h] = _mm256_max_pd(near_t, enter[h]);
         leave[h] = _mm256_min_pd(far_t, leave[h]);
         ok[h] = _mm256_and_pd(ok[h], _mm256_cmp_pd(near_t, far_t, _CMP_LE_OQ));
      }
   }
   const __m256d sign = _mm256_set1_pd(-0.0), dilation = _mm256_set1_pd(PPU_TTU_BOX_DILATION);
   const __m256d lo_t = _mm256_set1_pd((double)tmin), hi_t = _mm256_set1_pd((double)tmax);
   const __m128 tmin4 = _mm_set1_ps(tmin);
   uint32_t hits = 0;
   for (unsigned h = 0; h < halves; h++) {
      __m256d e = enter[h], l = leave[h];
      e = _mm256_sub_pd(e, _mm256_mul_pd(_mm256_andnot_pd(sign, e), dilation));
      l = _mm256_add_pd(l, _mm256_mul_pd(_mm256_andnot_pd(sign, l), dilation));
      e = _mm256_max_pd(lo_t, e);
      l = _mm256_min_pd(hi_t, l);
      __m256d hit = _mm256_and_pd(ok[h], _mm256_cmp_pd(e, l, _CMP_LE_OQ));
      hits |= (uint32_t)_mm256_movemask_pd(hit) << (4 * h);
      /* Rounded to binary32 as the scalar cast (MXCSR's round to nearest),
       * then kept inside [tmin, ...]. */
      __m128 t = _mm_max_ps(tmin4, _mm256_cvtpd_ps(e));
      _mm_storeu_ps(&near[4 * h], t);
   }
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
