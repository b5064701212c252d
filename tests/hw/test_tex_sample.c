/* TEX, TLD4, TLD and TXQ through the ISA against a reference written in
 * this file from the Vulkan specification's "Image Operations" formulas
 * (wrapping, level selection, linear weights, cube face selection, depth
 * compare, gather order), reading texel values from the function the
 * images were filled with, so addressing and layout are checked too.
 * Sampled results must agree within 2^-12 (the spec's 8 subtexel and 4
 * mipmap precision bits allow far more); TLD and TXQ are exact. */
#include "ppu/isa.h"
#include "ppu_asm.h"
#include "tex_test_util.h"
#include "texture/tex_header.h"

static struct hwc h;
static uint32_t in[TT_MAX_THREADS][16];
static uint32_t out[TT_MAX_THREADS][4];

static float frand(uint64_t *s, float lo, float hi)
{
   *s = *s * 6364136223846793005ull + 1442695040888963407ull;
   return lo + (hi - lo) * (float)((*s >> 40) & 0xffffff) / 16777216.0f;
}

/* --- Reference -------------------------------------------------------------- */

struct ref {
   const struct ppu_texture_header *tex;
   const struct ppu_sampler_header *smp;
   unsigned texdim;
   bool compare, gather;
   unsigned component;
   int offset[3];
};

static int ref_wrap(int i, int n, unsigned mode)
{
   switch (mode) {
   case PPU_TEX_ADDRESS_REPEAT:
      return (int)(i - n * floor((double)i / n));
   case PPU_TEX_ADDRESS_MIRRORED_REPEAT: {
      int m = (int)(i - 2 * n * floor((double)i / (2 * n))); /* 0 .. 2n-1 */
      return m < n ? m : 2 * n - 1 - m;
   }
   case PPU_TEX_ADDRESS_CLAMP_TO_EDGE:
      return i < 0 ? 0 : (i > n - 1 ? n - 1 : i);
   case PPU_TEX_ADDRESS_CLAMP_TO_BORDER:
      return (i < 0 || i >= n) ? -1 : i;
   default: { /* mirror clamp to edge */
      int m = i < 0 ? -i - 1 : i;
      return m > n - 1 ? n - 1 : m;
   }
   }
}

static unsigned ref_components(unsigned format)
{
   return format == PPU_TEX_FORMAT_R8G8B8A8_UNORM ? 4 : 1;
}

/* Texel (i, j, k) of a level and layer, border included, after the depth
 * compare when asked. */
static void ref_texel(const struct ref *r, unsigned level, unsigned layer, int i, int j, int k,
                      float dref, float v[4])
{
   if (i < 0 || j < 0 || k < 0) {
      for (unsigned c = 0; c < 4; c++)
         v[c] = f32_of(r->smp->border_color[c]);
   } else {
      unsigned n = ref_components(r->tex->format);
      for (unsigned c = 0; c < 4; c++)
         v[c] = c < n ? tt_value(level, layer, (unsigned)i, (unsigned)j, (unsigned)k, c)
                      : (c == 3 ? 1.0f : 0.0f);
   }
   if (r->compare) {
      float d = v[0];
      bool pass = false;
      switch (r->smp->compare_op) {
      case 1:
         pass = dref < d;
         break;
      case 2:
         pass = dref == d;
         break;
      case 3:
         pass = dref <= d;
         break;
      case 4:
         pass = dref > d;
         break;
      case 5:
         pass = dref != d;
         break;
      case 6:
         pass = dref >= d;
         break;
      case 7:
         pass = true;
         break;
      default:
         break;
      }
      v[0] = pass ? 1.0f : 0.0f;
      v[1] = v[2] = 0.0f;
      v[3] = 1.0f;
   }
}

/* Face, s, t of a cube direction (Vulkan's table; ties to Z, then Y). */
static unsigned ref_cube(const float d[3], float *s, float *t)
{
   float x = d[0], y = d[1], z = d[2], sc, tc, ma;
   unsigned face;
   if (fabsf(z) >= fabsf(x) && fabsf(z) >= fabsf(y)) {
      face = z >= 0 ? 4 : 5, sc = z >= 0 ? x : -x, tc = -y, ma = fabsf(z);
   } else if (fabsf(y) >= fabsf(x)) {
      face = y >= 0 ? 2 : 3, sc = x, tc = y >= 0 ? z : -z, ma = fabsf(y);
   } else {
      face = x >= 0 ? 0 : 1, sc = x >= 0 ? -z : z, tc = -y, ma = fabsf(x);
   }
   *s = 0.5f * (sc / ma + 1.0f);
   *t = 0.5f * (tc / ma + 1.0f);
   return face;
}

/* The direction of a point (sc, tc) on the plane of a face (ma = 1): the
 * inverse of ref_cube's table. */
static void ref_face_direction(unsigned face, float sc, float tc, float d[3])
{
   const float dirs[6][3] = {{1, -tc, -sc}, {-1, -tc, sc}, {sc, 1, tc},
                             {sc, -1, -tc}, {sc, -tc, 1},  {-sc, -tc, -1}};
   memcpy(d, dirs[face], sizeof(dirs[face]));
}

static int ref_clamp(int i, int n)
{
   return i < 0 ? 0 : i > n - 1 ? n - 1 : i;
}

/* Texel (i, j) of a face's linear footprint, "Cube Map Edge Handling": a
 * texel beyond one edge is the one whose centre's direction selects it on
 * the adjacent face; beyond both, the average of the three texels meeting
 * at the cube's corner (a gather, which cannot average, takes this face's
 * corner texel). */
static void ref_cube_texel(const struct ref *r, unsigned level, unsigned cube_layer, unsigned face,
                           int i, int j, int n, float dref, float v[4])
{
   bool out_i = i < 0 || i >= n, out_j = j < 0 || j >= n;
   if (out_i && out_j && !r->gather) {
      float a[4], b[4], c[4];
      ref_texel(r, level, cube_layer + face, ref_clamp(i, n), ref_clamp(j, n), 0, dref, a);
      ref_cube_texel(r, level, cube_layer, face, i, ref_clamp(j, n), n, dref, b);
      ref_cube_texel(r, level, cube_layer, face, ref_clamp(i, n), j, n, dref, c);
      for (unsigned k = 0; k < 4; k++)
         v[k] = (a[k] + b[k] + c[k]) / 3.0f;
      return;
   }
   if (out_i != out_j) {
      float d[3], s, t;
      ref_face_direction(face, 2.0f * ((float)i + 0.5f) / (float)n - 1.0f,
                         2.0f * ((float)j + 0.5f) / (float)n - 1.0f, d);
      face = ref_cube(d, &s, &t);
      i = (int)floorf(s * (float)n);
      j = (int)floorf(t * (float)n);
   }
   ref_texel(r, level, cube_layer + face, ref_clamp(i, n), ref_clamp(j, n), 0, dref, v);
}

/* Samples with the final lambda (after bias and clamps). */
static void ref_sample(const struct ref *r, const float p[3], float a, float lambda, float dref,
                       float res[4])
{
   const struct ppu_texture_header *hd = r->tex;
   const struct ppu_sampler_header *smp = r->smp;
   bool cube = r->texdim == PPU_TEXDIM_CUBE || r->texdim == PPU_TEXDIM_CUBEA;
   bool array =
       r->texdim == PPU_TEXDIM_2DA || r->texdim == PPU_TEXDIM_CUBEA || r->texdim == PPU_TEXDIM_1DA;
   unsigned nd = r->texdim == PPU_TEXDIM_3D                                    ? 3
                 : (r->texdim == PPU_TEXDIM_1D || r->texdim == PPU_TEXDIM_1DA) ? 1
                                                                               : 2;
   float st[3] = {p[0], p[1], p[2]};
   unsigned layer = hd->base_layer, face = 0;
   if (cube)
      face = ref_cube(p, &st[0], &st[1]);
   if (array) {
      unsigned count = cube ? hd->layer_count / 6 : hd->layer_count;
      float rl = rintf(a);
      unsigned al = rl < 0 ? 0 : (rl > count - 1 ? count - 1 : (unsigned)rl);
      layer += cube ? 6 * al : al;
   }
   unsigned cube_layer = layer; /* the cube's +X face */
   layer += face;
   bool unnorm = smp->flags & PPU_SAMPLER_FLAG_UNNORMALIZED;
   bool lin = (lambda <= 0 ? smp->mag_filter : smp->min_filter) == PPU_TEX_FILTER_LINEAR;
   unsigned q = hd->level_count - 1;
   float dp = hd->base_level + (lambda < 0 ? 0 : lambda > q ? q : lambda);
   unsigned lv[2];
   float lw[2];
   unsigned nl = 1;
   if (r->gather || unnorm) {
      lv[0] = hd->base_level, lw[0] = 1;
   } else if (smp->mip_filter == PPU_TEX_FILTER_NEAREST) {
      lv[0] = (unsigned)(ceilf(dp + 0.5f) - 1), lw[0] = 1;
   } else {
      lv[0] = (unsigned)floorf(dp);
      lw[0] = 1 - (dp - floorf(dp));
      lv[1] = lv[0] + 1 > hd->base_level + q ? lv[0] : lv[0] + 1;
      lw[1] = dp - floorf(dp);
      nl = 2;
   }
   unsigned modes[3] = {smp->address_u, smp->address_v, smp->address_w};
   unsigned reduction = (smp->flags & PPU_SAMPLER_REDUCTION_MASK) >> PPU_SAMPLER_REDUCTION_SHIFT;
   memset(res, 0, 4 * sizeof(float));
   for (unsigned m = 0; m < nl; m++) {
      /* Min/max: the extremes of the level's corners with non-zero
       * weight, then weighted by the level (Vulkan "Texel Filtering"). */
      float ext[4] = {0, 0, 0, 0};
      bool seen = false;
      int size[3] = {(int)ppu_tex_level_extent(hd->width, lv[m]),
                     (int)ppu_tex_level_extent(hd->height, lv[m]),
                     (int)ppu_tex_level_extent(hd->depth, lv[m])};
      if (hd->dim != PPU_TEX_DIM_3D)
         size[2] = 1;
      int i0[3] = {0, 0, 0};
      float fr[3] = {0, 0, 0};
      for (unsigned ax = 0; ax < nd; ax++) {
         float u = unnorm ? st[ax] : st[ax] * size[ax];
         if (lin || r->gather) {
            i0[ax] = (int)floorf(u - 0.5f) + r->offset[ax];
            fr[ax] = (u - 0.5f) - floorf(u - 0.5f);
         } else {
            i0[ax] = (int)floorf(u) + r->offset[ax];
         }
      }
      if (r->gather) {
         const int di[4] = {0, 1, 1, 0}, dj[4] = {1, 1, 0, 0};
         for (unsigned c = 0; c < 4; c++) {
            float v[4];
            if (cube)
               ref_cube_texel(r, lv[m], cube_layer, face, i0[0] + di[c], i0[1] + dj[c], size[0],
                              dref, v);
            else
               ref_texel(r, lv[m], layer, ref_wrap(i0[0] + di[c], size[0], modes[0]),
                         ref_wrap(i0[1] + dj[c], size[1], modes[1]), 0, dref, v);
            res[c] = r->compare ? v[0] : v[r->component];
         }
         return;
      }
      for (unsigned corner = 0; corner < (lin ? 1u << nd : 1u); corner++) {
         float w = lw[m];
         int t[3] = {0, 0, 0};
         for (unsigned ax = 0; ax < nd; ax++) {
            unsigned bit = (corner >> ax) & 1;
            if (lin)
               w *= bit ? fr[ax] : 1 - fr[ax];
            t[ax] = ref_wrap(i0[ax] + (int)bit, size[ax],
                             cube ? PPU_TEX_ADDRESS_CLAMP_TO_EDGE : modes[ax]);
         }
         float v[4];
         if (cube && lin)
            ref_cube_texel(r, lv[m], cube_layer, face, i0[0] + (int)(corner & 1),
                           i0[1] + (int)(corner >> 1), size[0], dref, v);
         else
            ref_texel(r, lv[m], layer, t[0], t[1], t[2], dref, v);
         if (reduction && w != 0) {
            for (unsigned c = 0; c < 4; c++)
               ext[c] = !seen                                    ? v[c]
                        : reduction == PPU_SAMPLER_REDUCTION_MIN ? fminf(ext[c], v[c])
                                                                 : fmaxf(ext[c], v[c]);
            seen = true;
         }
         for (unsigned c = 0; reduction == 0 && c < 4; c++)
            res[c] += w * v[c];
      }
      for (unsigned c = 0; reduction && c < 4; c++)
         res[c] += lw[m] * ext[c];
   }
}

static float ref_lambda(const struct ppu_sampler_header *smp, float base, float shader_bias)
{
   float bias = smp->lod_bias + shader_bias;
   bias = bias < -15 ? -15 : bias > 15 ? 15 : bias;
   float l = base + bias;
   return l < smp->min_lod ? smp->min_lod : l > smp->max_lod ? smp->max_lod : l;
}

static bool close_to(float got, float want, float tol)
{
   return fabsf(got - want) <= tol;
}

/* Compares out[t] with want[t] for n threads; reports the first misses. */
static void check_results(const char *what, float (*want)[4], uint32_t n, unsigned comps)
{
   unsigned failures = 0;
   for (uint32_t t = 0; t < n && failures < 4; t++)
      for (unsigned c = 0; c < comps; c++)
         if (!close_to(f32_of(out[t][c]), want[t][c], 1.0f / 4096)) {
            failures++;
            CHECK_MSG(false, "%s: thread %u component %u: got %g want %g (in %g %g %g %g)", what, t,
                      c, f32_of(out[t][c]), want[t][c], f32_of(in[t][0]), f32_of(in[t][1]),
                      f32_of(in[t][2]), f32_of(in[t][3]));
            break;
         }
}

static float want[TT_MAX_THREADS][4];

/* Point t of an explicit-LOD 2D sample: in[t] holds (p, lod) and want[t]
 * the reference for sampler r. */
static void ll_point(const struct ref *r, uint32_t t, float u, float v, float lod)
{
   float p[3] = {u, v, 0};
   in[t][0] = u32_of(u);
   in[t][1] = u32_of(v);
   in[t][2] = u32_of(lod);
   ref_sample(r, p, 0, ref_lambda(r->smp, lod, 0), 0, want[t]);
}

/* Runs TEX.LL.2D over the 64 points and compares with want. */
static void check_ll(const char *what, uint64_t tex, uint64_t smp)
{
   if (tt_run(&h, "TEX.LL.2D.F32 R4, R0, R2, R8, off[0:0:0]", tex, smp, in, 64, out, false, NULL,
              NULL))
      check_results(what, want, 64, 4);
}

TEST_CASE(explicit_lod_sampling_matches_the_reference_for_every_filter_and_address_mode)
{
   REQUIRE(hwc_init(&h, NULL));
   struct ppu_texture_header hd;
   tt_header(&hd, PPU_TEX_FORMAT_R8G8B8A8_UNORM, PPU_TEX_DIM_2D, 40, 24, 1, 5, 1);
   uint64_t tex = tt_image(&h, &hd);
   uint64_t seed = 1;
   for (unsigned filter = 0; filter < 2; filter++)
      for (unsigned mip = 0; mip < 2; mip++)
         for (unsigned mode = 0; mode <= PPU_TEX_ADDRESS_MIRROR_CLAMP_TO_EDGE; mode++) {
            struct ppu_sampler_header s;
            tt_sampler(&s, filter, mip, mode);
            s.border_color[0] = u32_of(0.25f);
            s.border_color[1] = u32_of(0.5f);
            s.border_color[2] = u32_of(0.75f);
            s.border_color[3] = u32_of(1.0f);
            s.lod_bias = mode == 1 ? 0.5f : 0.0f;
            uint64_t smp = tt_upload(&h, &s, sizeof(s));
            struct ref r = {&hd, &s, PPU_TEXDIM_2D, false, false, 0, {0, 0, 0}};
            for (uint32_t t = 0; t < 64; t++) {
               float u = frand(&seed, -1.5f, 2.5f), v = frand(&seed, -1.5f, 2.5f);
               ll_point(&r, t, u, v, frand(&seed, -1.0f, 5.0f));
            }
            char what[64];
            snprintf(what, sizeof(what), "filter %u mip %u address %u", filter, mip, mode);
            check_ll(what, tex, smp);
         }
   hwc_finish(&h);
}

/* A min or max reduction replaces each level's weighted average by the
 * extremes of its texels with non-zero weight; the levels still blend by
 * their weights. */
TEST_CASE(min_max_reduction_takes_each_levels_extremes_then_blends_the_levels)
{
   REQUIRE(hwc_init(&h, NULL));
   struct ppu_texture_header hd;
   tt_header(&hd, PPU_TEX_FORMAT_R8G8B8A8_UNORM, PPU_TEX_DIM_2D, 40, 24, 1, 5, 1);
   uint64_t tex = tt_image(&h, &hd);
   uint64_t seed = 7;
   for (unsigned red = PPU_SAMPLER_REDUCTION_MIN; red <= PPU_SAMPLER_REDUCTION_MAX; red++)
      for (unsigned mip = 0; mip < 2; mip++) {
         struct ppu_sampler_header s;
         tt_sampler(&s, PPU_TEX_FILTER_LINEAR, mip, PPU_TEX_ADDRESS_CLAMP_TO_EDGE);
         s.flags |= (uint8_t)(red << PPU_SAMPLER_REDUCTION_SHIFT);
         uint64_t smp = tt_upload(&h, &s, sizeof(s));
         struct ref r = {&hd, &s, PPU_TEXDIM_2D, false, false, 0, {0, 0, 0}};
         for (uint32_t t = 0; t < 64; t++) {
            /* Every fourth point on a texel centre row: two corners of
             * weight 0, which must not count. */
            float u = frand(&seed, 0, 1), v = t % 4 ? frand(&seed, 0, 1) : 4.5f / 24;
            ll_point(&r, t, u, v, t % 4 ? frand(&seed, -1.0f, 4.0f) : 0.0f);
         }
         char what[64];
         snprintf(what, sizeof(what), "reduction %u mip %u", red, mip);
         check_ll(what, tex, smp);
      }
   struct ppu_sampler_header bad;
   tt_sampler(&bad, PPU_TEX_FILTER_LINEAR, 0, PPU_TEX_ADDRESS_CLAMP_TO_EDGE);
   bad.flags |= 3u << PPU_SAMPLER_REDUCTION_SHIFT;
   CHECK(ppu_tex_sampler_check(&bad) != NULL);
   hwc_finish(&h);
}

TEST_CASE(lod_bias_clamps_offsets_and_lz_follow_the_level_of_detail_rules)
{
   REQUIRE(hwc_init(&h, NULL));
   struct ppu_texture_header hd;
   tt_header(&hd, PPU_TEX_FORMAT_R8G8B8A8_UNORM, PPU_TEX_DIM_2D, 32, 32, 1, 6, 1);
   hd.base_level = 1;
   hd.level_count = 4;
   uint64_t tex = tt_image(&h, &hd);
   struct ppu_sampler_header s;
   tt_sampler(&s, PPU_TEX_FILTER_LINEAR, PPU_TEX_FILTER_LINEAR, PPU_TEX_ADDRESS_REPEAT);
   s.lod_bias = 0.75f;
   s.min_lod = 0.5f;
   s.max_lod = 2.25f;
   uint64_t smp = tt_upload(&h, &s, sizeof(s));
   uint64_t seed = 7;
   struct ref r = {&hd, &s, PPU_TEXDIM_2D, false, false, 0, {0, 0, 0}};
   for (uint32_t t = 0; t < 64; t++) {
      float p[3] = {frand(&seed, 0, 1), frand(&seed, 0, 1), 0};
      float bias = frand(&seed, -20.0f, 20.0f);
      in[t][0] = u32_of(p[0]);
      in[t][1] = u32_of(p[1]);
      in[t][2] = u32_of(bias);
      /* Explicit gradients are tested below; here the quad derivatives are
       * the differences of the inputs of lanes 1 and 2 from lane 0. */
      want[t][0] = p[0], want[t][1] = p[1], want[t][2] = bias;
   }
   /* LB: derivatives from the quad plus the shader's bias. */
   float inputs[64][3];
   memcpy(inputs, want, 0);
   for (uint32_t t = 0; t < 64; t++)
      for (unsigned k = 0; k < 3; k++)
         inputs[t][k] = want[t][k];
   for (uint32_t t = 0; t < 64; t++) {
      uint32_t q0 = t & ~3u;
      float dx[2] = {inputs[q0 + 1][0] - inputs[q0][0], inputs[q0 + 1][1] - inputs[q0][1]};
      float dy[2] = {inputs[q0 + 2][0] - inputs[q0][0], inputs[q0 + 2][1] - inputs[q0][1]};
      float w = 16, ht = 16; /* level 1 of 32x32: the view's base level */
      float rx = sqrtf(dx[0] * w * dx[0] * w + dx[1] * ht * dx[1] * ht);
      float ry = sqrtf(dy[0] * w * dy[0] * w + dy[1] * ht * dy[1] * ht);
      float base = log2f(rx > ry ? rx : ry);
      float p[3] = {inputs[t][0], inputs[t][1], 0};
      ref_sample(&r, p, 0, ref_lambda(&s, base, inputs[t][2]), 0, want[t]);
   }
   if (tt_run(&h, "TEX.LB.2D.F32 R4, R0, R2, R8, off[0:0:0]", tex, smp, in, 64, out, false, NULL,
              NULL))
      check_results("LB with clamps", want, 64, 4);

   /* LZ with a constant offset. */
   struct ref ro = {&hd, &s, PPU_TEXDIM_2D, false, false, 0, {3, -2, 0}};
   for (uint32_t t = 0; t < 64; t++) {
      float p[3] = {inputs[t][0], inputs[t][1], 0};
      ref_sample(&ro, p, 0, ref_lambda(&s, 0, 0), 0, want[t]);
   }
   if (tt_run(&h, "TEX.LZ.2D.F32 R4, R0, R2, R8, off[3:-2:0]", tex, smp, in, 64, out, false, NULL,
              NULL))
      check_results("LZ with offsets", want, 64, 4);

   /* LG: explicit gradients (dPdx in R10..R11, dPdy in R12..R13). */
   for (uint32_t t = 0; t < 64; t++) {
      float g[4] = {frand(&seed, -0.2f, 0.2f), frand(&seed, -0.2f, 0.2f), frand(&seed, -0.2f, 0.2f),
                    frand(&seed, -0.2f, 0.2f)};
      for (unsigned k = 0; k < 4; k++)
         in[t][2 + k] = u32_of(g[k]);
      float rx = sqrtf(g[0] * 16 * g[0] * 16 + g[1] * 16 * g[1] * 16);
      float ry = sqrtf(g[2] * 16 * g[2] * 16 + g[3] * 16 * g[3] * 16);
      float p[3] = {inputs[t][0], inputs[t][1], 0};
      ref_sample(&r, p, 0, ref_lambda(&s, log2f(rx > ry ? rx : ry), 0), 0, want[t]);
   }
   if (tt_run(&h, "TEX.LG.2D.F32 R4, R0, R2, R8, off[0:0:0]", tex, smp, in, 64, out, false, NULL,
              NULL))
      check_results("LG", want, 64, 4);
   hwc_finish(&h);
}

TEST_CASE(implicit_lod_uses_the_quads_derivatives_helper_lanes_included)
{
   REQUIRE(hwc_init(&h, NULL));
   struct ppu_texture_header hd;
   tt_header(&hd, PPU_TEX_FORMAT_R8G8B8A8_UNORM, PPU_TEX_DIM_2D, 64, 64, 1, 7, 1);
   uint64_t tex = tt_image(&h, &hd);
   struct ppu_sampler_header s;
   tt_sampler(&s, PPU_TEX_FILTER_LINEAR, PPU_TEX_FILTER_LINEAR, PPU_TEX_ADDRESS_CLAMP_TO_EDGE);
   uint64_t smp = tt_upload(&h, &s, sizeof(s));
   struct ref r = {&hd, &s, PPU_TEXDIM_2D, false, false, 0, {0, 0, 0}};
   /* Quad k covers a 2x2 pixel footprint whose size doubles every quad:
    * scale 2^(k/2 - 1) texels per pixel gives lambda = k/2 - 1 (+ 0.3). */
   for (uint32_t t = 0; t < 32; t++) {
      unsigned k = t / 4, l = t % 4;
      float step = exp2f((float)k / 2.0f - 1.0f + 0.3f) / 64.0f;
      float p[3] = {0.3f + (l & 1) * step, 0.4f + (l >> 1) * step * 0.5f, 0};
      in[t][0] = u32_of(p[0]);
      in[t][1] = u32_of(p[1]);
   }
   for (uint32_t t = 0; t < 32; t++) {
      unsigned k = t / 4;
      float lambda = (float)k / 2.0f - 1.0f + 0.3f;
      float p[3] = {f32_of(in[t][0]), f32_of(in[t][1]), 0};
      ref_sample(&r, p, 0, ref_lambda(&s, lambda, 0), 0, want[t]);
   }
   if (tt_run(&h, "TEX.AUTO.2D.F32 R4, R0, R2, R8, off[0:0:0]", tex, smp, in, 32, out, false, NULL,
              NULL))
      check_results("implicit lod", want, 32, 4);
   /* Lanes 1..3 of every quad idle: they still supply the derivatives. */
   uint32_t full[32][4];
   memcpy(full, out, sizeof(full));
   if (tt_run(&h,
              "S2R R20, SR_LANEID\n"
              "AND R20, R20, 3\n"
              "ISETP.EQ.U32 P0, R20, 0, PT\n"
              "MOV R4, 0\nMOV R5, 0\nMOV R6, 0\nMOV R7, 0\n"
              "@P0 TEX.AUTO.2D.F32 R4, R0, R2, R8, off[0:0:0]",
              tex, smp, in, 32, out, false, NULL, NULL)) {
      for (uint32_t t = 0; t < 32; t++)
         for (unsigned c = 0; c < 4; c++)
            CHECK_EQ_U64(out[t][c], t % 4 ? 0 : full[t][c]);
   }
   hwc_finish(&h);
}

TEST_CASE(depth_compare_is_applied_per_texel_before_filtering)
{
   REQUIRE(hwc_init(&h, NULL));
   struct ppu_texture_header hd;
   tt_header(&hd, PPU_TEX_FORMAT_D32_SFLOAT, PPU_TEX_DIM_2D, 16, 16, 1, 1, 1);
   uint64_t tex = tt_image(&h, &hd);
   uint64_t seed = 3;
   for (unsigned op = 0; op < 8; op++) {
      struct ppu_sampler_header s;
      tt_sampler(&s, PPU_TEX_FILTER_LINEAR, PPU_TEX_FILTER_NEAREST, PPU_TEX_ADDRESS_REPEAT);
      s.flags = PPU_SAMPLER_FLAG_COMPARE;
      s.compare_op = (uint8_t)op;
      uint64_t smp = tt_upload(&h, &s, sizeof(s));
      struct ref r = {&hd, &s, PPU_TEXDIM_2D, true, false, 0, {0, 0, 0}};
      for (uint32_t t = 0; t < 64; t++) {
         float p[3] = {frand(&seed, 0, 1), frand(&seed, 0, 1), 0};
         /* Some references equal a texel exactly, for EQUAL and NOT_EQUAL. */
         float dref = t % 4 == 0 ? tt_value(0, 0, t % 16, t / 4 % 16, 0, 0) : frand(&seed, 0, 1);
         in[t][0] = u32_of(p[0]);
         in[t][1] = u32_of(p[1]);
         in[t][2] = u32_of(0.0f);
         in[t][3] = u32_of(dref);
         ref_sample(&r, p, 0, 0, dref, want[t]);
      }
      if (tt_run(&h, "TEX.LL.2D.DC.F32 R4, R0, R2, R8, off[0:0:0]", tex, smp, in, 64, out, false,
                 NULL, NULL)) {
         char what[32];
         snprintf(what, sizeof(what), "compare op %u", op);
         check_results(what, want, 64, 4);
      }
      /* TLD4.DC: four comparisons, no filtering. */
      struct ref rg = r;
      rg.gather = true;
      for (uint32_t t = 0; t < 64; t++) {
         in[t][2] = in[t][3];
         float p[3] = {f32_of(in[t][0]), f32_of(in[t][1]), 0};
         ref_sample(&rg, p, 0, 0, f32_of(in[t][2]), want[t]);
      }
      if (tt_run(&h, "TLD4.R.2D.DC.F32 R4, R0, R2, R8, off[0:0:0]", tex, smp, in, 64, out, false,
                 NULL, NULL))
         check_results("gather compare", want, 64, 4);
   }
   hwc_finish(&h);
}

TEST_CASE(gather_returns_one_component_of_the_footprint_in_vulkan_order)
{
   REQUIRE(hwc_init(&h, NULL));
   struct ppu_texture_header hd;
   tt_header(&hd, PPU_TEX_FORMAT_R8G8B8A8_UNORM, PPU_TEX_DIM_2D, 16, 8, 1, 3, 1);
   uint64_t tex = tt_image(&h, &hd);
   struct ppu_sampler_header s;
   tt_sampler(&s, PPU_TEX_FILTER_NEAREST, PPU_TEX_FILTER_NEAREST, PPU_TEX_ADDRESS_MIRRORED_REPEAT);
   uint64_t smp = tt_upload(&h, &s, sizeof(s));
   uint64_t seed = 5;
   static const char *const names[4] = {"R", "G", "B", "A"};
   for (unsigned c = 0; c < 4; c++) {
      struct ref r = {&hd, &s, PPU_TEXDIM_2D, false, true, c, {-1, 2, 0}};
      for (uint32_t t = 0; t < 64; t++) {
         float p[3] = {frand(&seed, -1, 2), frand(&seed, -1, 2), 0};
         in[t][0] = u32_of(p[0]);
         in[t][1] = u32_of(p[1]);
         ref_sample(&r, p, 0, 0, 0, want[t]);
      }
      char insn[96];
      snprintf(insn, sizeof(insn), "TLD4.%s.2D.F32 R4, R0, R2, R8, off[-1:2:0]", names[c]);
      if (tt_run(&h, insn, tex, smp, in, 64, out, false, NULL, NULL))
         check_results(insn, want, 64, 4);
   }
   hwc_finish(&h);
}

TEST_CASE(cube_maps_arrays_and_3d_images_select_faces_layers_and_slices)
{
   REQUIRE(hwc_init(&h, NULL));
   uint64_t seed = 11;
   /* Cube array of 2 cubes, 16x16, 3 levels. */
   struct ppu_texture_header cube;
   tt_header(&cube, PPU_TEX_FORMAT_R8G8B8A8_UNORM, PPU_TEX_DIM_CUBE, 16, 16, 1, 3, 12);
   uint64_t cube_va = tt_image(&h, &cube);
   struct ppu_texture_header arr;
   tt_header(&arr, PPU_TEX_FORMAT_R32_SFLOAT, PPU_TEX_DIM_2D, 8, 8, 1, 1, 5);
   arr.base_layer = 1;
   arr.layer_count = 3;
   uint64_t arr_va = tt_image(&h, &arr);
   struct ppu_texture_header vol;
   tt_header(&vol, PPU_TEX_FORMAT_R8G8B8A8_UNORM, PPU_TEX_DIM_3D, 8, 8, 8, 2, 1);
   uint64_t vol_va = tt_image(&h, &vol);
   for (unsigned filter = 0; filter < 2; filter++) {
      struct ppu_sampler_header s;
      tt_sampler(&s, filter, PPU_TEX_FILTER_LINEAR, PPU_TEX_ADDRESS_REPEAT);
      uint64_t smp = tt_upload(&h, &s, sizeof(s));
      struct ref r = {&cube, &s, PPU_TEXDIM_CUBEA, false, false, 0, {0, 0, 0}};
      for (uint32_t t = 0; t < 64; t++) {
         float p[3] = {frand(&seed, -1, 1), frand(&seed, -1, 1), frand(&seed, -1, 1)};
         float a = frand(&seed, -0.7f, 2.7f), lod = frand(&seed, 0, 2);
         for (unsigned k = 0; k < 3; k++)
            in[t][k] = u32_of(p[k]);
         in[t][3] = u32_of(a);
         in[t][4] = u32_of(lod);
         ref_sample(&r, p, a, ref_lambda(&s, lod, 0), 0, want[t]);
      }
      if (tt_run(&h, "TEX.LL.CUBEA.F32 R4, R0, R2, R8, off[0:0:0]", cube_va, smp, in, 64, out,
                 false, NULL, NULL))
         check_results("cube array", want, 64, 4);

      struct ref ra = {&arr, &s, PPU_TEXDIM_2DA, false, false, 0, {0, 0, 0}};
      for (uint32_t t = 0; t < 64; t++) {
         float p[3] = {frand(&seed, 0, 1), frand(&seed, 0, 1), 0};
         float a = t % 8 == 0 ? 0.5f + (float)(t % 3) : frand(&seed, -2, 5); /* ties to even */
         in[t][0] = u32_of(p[0]);
         in[t][1] = u32_of(p[1]);
         in[t][2] = u32_of(a);
         ref_sample(&ra, p, a, 0, 0, want[t]);
      }
      if (tt_run(&h, "TEX.LZ.2DA.F32 R4, R0, R2, R8, off[0:0:0]", arr_va, smp, in, 64, out, false,
                 NULL, NULL))
         check_results("2D array", want, 64, 4);

      struct ref rv = {&vol, &s, PPU_TEXDIM_3D, false, false, 0, {0, 0, 0}};
      for (uint32_t t = 0; t < 64; t++) {
         float p[3] = {frand(&seed, -1, 2), frand(&seed, -1, 2), frand(&seed, -1, 2)};
         float lod = frand(&seed, -0.5f, 1.5f);
         for (unsigned k = 0; k < 3; k++)
            in[t][k] = u32_of(p[k]);
         in[t][3] = u32_of(lod);
         ref_sample(&rv, p, 0, ref_lambda(&s, lod, 0), 0, want[t]);
      }
      if (tt_run(&h, "TEX.LL.3D.F32 R4, R0, R2, R8, off[0:0:0]", vol_va, smp, in, 64, out, false,
                 NULL, NULL))
         check_results("3D", want, 64, 4);
   }
   hwc_finish(&h);
}

/* Directions a little inside a face, near its edges and corners, so that
 * linear footprints cross onto the adjacent faces at every level size. */
static void near_edge_direction(uint64_t *seed, uint32_t t, float p[3])
{
   unsigned face = t % 6;
   float sc = frand(seed, 0.8f, 1.0f) * (t & 8 ? 1.0f : -1.0f);
   float tc = t & 16 ? frand(seed, 0.8f, 1.0f) * (t & 32 ? 1.0f : -1.0f) : frand(seed, -1, 1);
   if (t & 64) { /* swap, so both kinds of edge of every face are hit */
      float x = sc;
      sc = tc;
      tc = x;
   }
   ref_face_direction(face, sc, tc, p);
}

TEST_CASE(linear_cube_filtering_reads_across_face_edges_and_averages_corners)
{
   REQUIRE(hwc_init(&h, NULL));
   uint64_t seed = 23;
   /* Two cubes of 4x4 faces, 3 levels (4, 2, 1): the view shows the second. */
   struct ppu_texture_header cube;
   tt_header(&cube, PPU_TEX_FORMAT_R8G8B8A8_UNORM, PPU_TEX_DIM_CUBE, 4, 4, 1, 3, 12);
   cube.base_layer = 6;
   cube.layer_count = 6;
   cube.flags &= (uint8_t)~PPU_TEX_FLAG_ARRAY;
   uint64_t cube_va = tt_image(&h, &cube);
   for (unsigned filter = 0; filter < 2; filter++) {
      struct ppu_sampler_header s;
      tt_sampler(&s, filter, PPU_TEX_FILTER_LINEAR, PPU_TEX_ADDRESS_CLAMP_TO_BORDER);
      uint64_t smp = tt_upload(&h, &s, sizeof(s));
      struct ref r = {&cube, &s, PPU_TEXDIM_CUBE, false, false, 0, {0, 0, 0}};
      for (uint32_t t = 0; t < 128; t++) {
         float p[3];
         near_edge_direction(&seed, t, p);
         float lod = (float)(t % 3) + (t & 4 ? 0.5f : 0.0f);
         for (unsigned k = 0; k < 3; k++)
            in[t][k] = u32_of(p[k]);
         in[t][3] = u32_of(lod);
         ref_sample(&r, p, 0, ref_lambda(&s, lod, 0), 0, want[t]);
      }
      if (tt_run(&h, "TEX.LL.CUBE.F32 R4, R0, R2, R8, off[0:0:0]", cube_va, smp, in, 128, out,
                 false, NULL, NULL))
         check_results(filter ? "linear cube near edges" : "nearest cube near edges", want, 128, 4);
   }
   /* A corner of texels all equal filters to that value (the spec's
    * constraint), and a gather takes the adjacent faces' texels. */
   struct ppu_sampler_header s;
   tt_sampler(&s, PPU_TEX_FILTER_NEAREST, PPU_TEX_FILTER_NEAREST, PPU_TEX_ADDRESS_REPEAT);
   uint64_t smp = tt_upload(&h, &s, sizeof(s));
   for (unsigned c = 0; c < 4; c++) {
      static const char *const names[4] = {"R", "G", "B", "A"};
      struct ref r = {&cube, &s, PPU_TEXDIM_CUBE, false, true, c, {0, 0, 0}};
      for (uint32_t t = 0; t < 128; t++) {
         float p[3];
         near_edge_direction(&seed, t, p);
         for (unsigned k = 0; k < 3; k++)
            in[t][k] = u32_of(p[k]);
         ref_sample(&r, p, 0, 0, 0, want[t]);
      }
      char insn[96];
      snprintf(insn, sizeof(insn), "TLD4.%s.CUBE.F32 R4, R0, R2, R8, off[0:0:0]", names[c]);
      if (tt_run(&h, insn, cube_va, smp, in, 128, out, false, NULL, NULL))
         check_results("cube gather near edges", want, 128, 4);
   }
   hwc_finish(&h);
}

TEST_CASE(unnormalized_coordinates_address_texels_of_the_base_level)
{
   REQUIRE(hwc_init(&h, NULL));
   struct ppu_texture_header hd;
   tt_header(&hd, PPU_TEX_FORMAT_R8G8B8A8_UNORM, PPU_TEX_DIM_2D, 20, 12, 1, 2, 1);
   uint64_t tex = tt_image(&h, &hd);
   uint64_t seed = 13;
   for (unsigned filter = 0; filter < 2; filter++) {
      struct ppu_sampler_header s;
      tt_sampler(&s, filter, PPU_TEX_FILTER_NEAREST, PPU_TEX_ADDRESS_CLAMP_TO_EDGE);
      s.flags = PPU_SAMPLER_FLAG_UNNORMALIZED;
      s.max_lod = 0;
      uint64_t smp = tt_upload(&h, &s, sizeof(s));
      struct ref r = {&hd, &s, PPU_TEXDIM_2D, false, false, 0, {0, 0, 0}};
      for (uint32_t t = 0; t < 64; t++) {
         float p[3] = {frand(&seed, -2, 22), frand(&seed, -2, 14), 0};
         in[t][0] = u32_of(p[0]);
         in[t][1] = u32_of(p[1]);
         in[t][2] = u32_of(3.0f); /* ignored: unnormalized samples level 0 */
         ref_sample(&r, p, 0, 0, 0, want[t]);
      }
      if (tt_run(&h, "TEX.LL.2D.F32 R4, R0, R2, R8, off[0:0:0]", tex, smp, in, 64, out, false, NULL,
                 NULL))
         check_results("unnormalized", want, 64, 4);
   }
   hwc_finish(&h);
}

TEST_CASE(tld_fetches_exact_texels_and_zero_out_of_range_and_txq_reports_sizes)
{
   REQUIRE(hwc_init(&h, NULL));
   struct ppu_texture_header hd;
   tt_header(&hd, PPU_TEX_FORMAT_R32_UINT, PPU_TEX_DIM_2D, 24, 10, 1, 4, 4);
   hd.base_level = 1;
   hd.level_count = 3;
   hd.base_layer = 1;
   hd.layer_count = 2;
   uint64_t tex = tt_image(&h, &hd);
   for (uint32_t t = 0; t < 64; t++) {
      int32_t x = (int32_t)(t % 15) - 1, y = (int32_t)(t / 3 % 7) - 1, a = (int32_t)(t % 3);
      int32_t lv = (int32_t)(t / 16);
      in[t][0] = (uint32_t)x, in[t][1] = (uint32_t)y, in[t][2] = (uint32_t)a,
      in[t][3] = (uint32_t)lv;
   }
   if (tt_run(&h, "TLD.2DA.U32 R4, R0, R8, off[1:0:0]", tex, 0, in, 64, out, false, NULL, NULL)) {
      for (uint32_t t = 0; t < 64; t++) {
         int32_t x = (int32_t)in[t][0] + 1, y = (int32_t)in[t][1], a = (int32_t)in[t][2];
         int32_t lv = (int32_t)in[t][3];
         bool inside = lv < 3 && a < 2 && x >= 0 && y >= 0 &&
                       x < (int32_t)ppu_tex_level_extent(24, 1 + lv) &&
                       y < (int32_t)ppu_tex_level_extent(10, 1 + lv);
         /* Outside: a zero texel, whose missing alpha is 1 as any R32_UINT
          * texel's (texel replacement, robustImageAccess2). */
         uint32_t w[4] = {0, 0, 0, 1};
         if (inside)
            w[0] =
                (uint32_t)lroundf(tt_value(1 + lv, 1 + a, (unsigned)x, (unsigned)y, 0, 0) * 255.0f);
         for (unsigned c = 0; c < 4; c++)
            CHECK_MSG(out[t][c] == w[c], "TLD thread %u comp %u: %u want %u", t, c, out[t][c],
                      w[c]);
      }
   }
   for (uint32_t t = 0; t < 8; t++)
      in[t][0] = t;
   if (tt_run(&h, "TXQ.SIZE.2DA R4, R0, R8", tex, 0, in, 8, out, false, NULL, NULL))
      for (uint32_t t = 0; t < 8; t++) {
         uint32_t w[4] = {0, 0, 0, 0};
         if (t < 3)
            w[0] = ppu_tex_level_extent(24, 1 + t), w[1] = ppu_tex_level_extent(10, 1 + t),
            w[2] = 2;
         for (unsigned c = 0; c < 4; c++)
            CHECK_EQ_U64(out[t][c], w[c]);
      }
   if (tt_run(&h, "TXQ.LEVELS.2DA R4, R0, RZ", tex, 0, in, 8, out, false, NULL, NULL))
      CHECK_EQ_U64(out[5][0], 3);
   struct ppu_texture_header cube;
   tt_header(&cube, PPU_TEX_FORMAT_R8G8B8A8_UNORM, PPU_TEX_DIM_CUBE, 8, 8, 1, 1, 18);
   uint64_t cube_va = tt_image(&h, &cube);
   if (tt_run(&h, "TXQ.SIZE.CUBEA R4, R0, RZ", cube_va, 0, in, 4, out, false, NULL, NULL)) {
      CHECK_EQ_U64(out[0][0], 8);
      CHECK_EQ_U64(out[0][1], 8);
      CHECK_EQ_U64(out[0][2], 3);
   }
   hwc_finish(&h);
}

TEST_CASE(texture_instructions_assemble_and_disassemble_to_the_same_text)
{
   static const char *const lines[] = {
       "TEX.LB.CUBEA.DC.F32 R4, R0, R2, R8, off[0:0:0]",
       "TEX.AUTO.2D.S32 R12, R2, R6, R20, off[-8:7:1]",
       "TLD.3D.U32 R4, R0, R8, off[1:-1:0]",
       "TLD4.A.2DA.F32 R4, R0, R2, R8, off[0:0:0]",
       "TXQ.SIZE.1DA R4, R0, R8",
       "SULD.B.2D.U32 R4, R0, R8",
       "SUST.P.3D.F32 R0, R8, R4",
       "SUATOM.CAS.2DA.U32 R5, R0, R8, R12",
   };
   for (unsigned i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
      uint32_t words[4];
      size_t n;
      char err[128], text[160];
      REQUIRE(ppu_asm(lines[i], words, 1, &n, err, sizeof(err)));
      ppu_disasm_insn(words, text, sizeof(text));
      CHECK_MSG(!strcmp(text, lines[i]), "'%s' came back as '%s'", lines[i], text);
   }
   /* Illegal: offsets on a cube, TLD4 on 3D, reserved texture bits. */
   struct ppu_insn_fields f;
   uint32_t w[4];
   const char *why;
   ppu_insn_fields_init(&f, PPU_OP_TEX);
   f.mode = PPU_TEXDIM_CUBE;
   f.imm = 1;
   ppu_insn_encode(&f, w);
   CHECK(!ppu_insn_decode(w, &f, &why));
   ppu_insn_fields_init(&f, PPU_OP_TLD4);
   f.mode = PPU_TEXDIM_3D;
   ppu_insn_encode(&f, w);
   CHECK(!ppu_insn_decode(w, &f, &why));
   ppu_insn_fields_init(&f, PPU_OP_TLD);
   f.imm = PPU_TEXIMM_DC;
   ppu_insn_encode(&f, w);
   CHECK(!ppu_insn_decode(w, &f, &why));
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
