/* See tex_address.h. Section names in comments are those of the Vulkan
 * specification's "Image Operations" chapter. */
#include "texture/tex_address.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* maxSamplerLodBias the device reports: the sum of the sampler's and the
 * shader's bias is clamped to +-15 ("Level-of-Detail Operation"). */
#define MAX_LOD_BIAS 15.0f

/* Integer texel coordinates are kept within +-2^30 so that offsets and
 * wrapping never overflow; anything that far out is outside every image. */
#define COORD_LIMIT 1073741824.0f

static float f32(uint32_t u)
{
   float f;
   memcpy(&f, &u, 4);
   return f;
}

static bool dim_is_array(unsigned d)
{
   return d == PPU_TEXDIM_1DA || d == PPU_TEXDIM_2DA || d == PPU_TEXDIM_CUBEA;
}

static bool dim_is_cube(unsigned d)
{
   return d == PPU_TEXDIM_CUBE || d == PPU_TEXDIM_CUBEA;
}

/* Spatial coordinates: 1 (1D, a texel buffer's element index), 2 (2D), 3
 * (3D, and a cube's direction). */
static unsigned spatial(unsigned d)
{
   static const uint8_t n[PPU_TEXDIM_COUNT] = {1, 2, 3, 3, 1, 2, 3, 1};
   return d < PPU_TEXDIM_COUNT ? n[d] : 1;
}

static int32_t floor_i32(float f)
{
   if (isnan(f))
      return 0;
   f = fminf(fmaxf(floorf(f), -COORD_LIMIT), COORD_LIMIT);
   return (int32_t)f;
}

/* Round to nearest even (the array layer rule), clamped to [0, n-1]. */
static uint32_t layer_index(float a, uint32_t n)
{
   if (isnan(a) || a < 0.0f)
      return 0;
   float r = nearbyintf(fminf(a, COORD_LIMIT));
   return r >= (float)n ? n - 1 : (uint32_t)r;
}

/* sc axis, sc sign, tc axis, tc sign, major axis of each face (the table of
 * "Cube Map Face Selection"). */
static const struct {
   uint8_t sa;
   int8_t ss;
   uint8_t ta;
   int8_t ts;
   uint8_t ma;
} cube_axes[6] = {
    {2, -1, 1, -1, 0}, {2, 1, 1, -1, 0}, {0, 1, 2, 1, 1},
    {0, 1, 2, -1, 1},  {0, 1, 1, -1, 2}, {0, -1, 1, -1, 2},
};

unsigned ppu_tex_cube_face(const float r[3], float *sc, float *tc, float *ma)
{
   float ax = fabsf(r[0]), ay = fabsf(r[1]), az = fabsf(r[2]);
   unsigned face;
   if (az >= ax && az >= ay)
      face = r[2] >= 0.0f ? 4 : 5;
   else if (ay >= ax)
      face = r[1] >= 0.0f ? 2 : 3;
   else
      face = r[0] >= 0.0f ? 0 : 1;
   *sc = cube_axes[face].ss * r[cube_axes[face].sa];
   *tc = cube_axes[face].ts * r[cube_axes[face].ta];
   *ma = r[cube_axes[face].ma];
   return face;
}

int32_t ppu_tex_wrap(int32_t i, int32_t size, unsigned mode)
{
   switch (mode) {
   case PPU_TEX_ADDRESS_REPEAT: {
      int32_t r = i % size;
      return r < 0 ? r + size : r;
   }
   case PPU_TEX_ADDRESS_MIRRORED_REPEAT: {
      int32_t t = i % (2 * size);
      t = (t < 0 ? t + 2 * size : t) - size;
      return (size - 1) - (t >= 0 ? t : -(1 + t));
   }
   case PPU_TEX_ADDRESS_CLAMP_TO_BORDER:
      return i < 0 || i >= size ? -1 : i;
   case PPU_TEX_ADDRESS_MIRROR_CLAMP_TO_EDGE: {
      int32_t m = i >= 0 ? i : -(1 + i);
      return m < size ? m : size - 1;
   }
   default: /* CLAMP_TO_EDGE */
      return i < 0 ? 0 : i >= size ? size - 1 : i;
   }
}

/* One lane's coordinate vector, as floats (TEX, TLD4). */
struct lane_coords {
   float p[3]; /* coordinates, or a cube's direction */
   float layer;
   float lod; /* explicit lod (LL) or bias (LB) */
   float dpdx[3], dpdy[3];
   float dref;
};

static void parse_lane(const struct ppu_tex_instr *in, const uint32_t *w, struct lane_coords *c)
{
   unsigned n = spatial(in->texdim), k = 0;
   memset(c, 0, sizeof(*c));
   for (unsigned i = 0; i < n; i++)
      c->p[i] = f32(w[k++]);
   if (dim_is_array(in->texdim))
      c->layer = f32(w[k++]);
   if (in->kind == PPU_TEX_KIND_SAMPLE) {
      if (in->lod == PPU_TEXLOD_LL || in->lod == PPU_TEXLOD_LB) {
         c->lod = f32(w[k++]);
      } else if (in->lod == PPU_TEXLOD_LG) {
         for (unsigned i = 0; i < n; i++)
            c->dpdx[i] = f32(w[k++]);
         for (unsigned i = 0; i < n; i++)
            c->dpdy[i] = f32(w[k++]);
      }
   }
   if (in->compare)
      c->dref = f32(w[k]);
}

/* A derivative of the face coordinates from one of the direction ("Cube
 * Map Derivative Transformation"): s = (sc / |ma| + 1) / 2. */
static void cube_derivative(unsigned face, const float r[3], const float dr[3], float out[2])
{
   float ma = r[cube_axes[face].ma], ama = fabsf(ma);
   float dma = (ma >= 0.0f ? 1.0f : -1.0f) * dr[cube_axes[face].ma];
   float sc = cube_axes[face].ss * r[cube_axes[face].sa];
   float tc = cube_axes[face].ts * r[cube_axes[face].ta];
   float dsc = cube_axes[face].ss * dr[cube_axes[face].sa];
   float dtc = cube_axes[face].ts * dr[cube_axes[face].ta];
   out[0] = 0.5f * (dsc / ama - sc * dma / (ama * ama));
   out[1] = 0.5f * (dtc / ama - tc * dma / (ama * ama));
}

/* How a lane's footprint is covered: one probe (isotropic), or N probes
 * along the screen axis whose derivative is longer ("Texel Anisotropic
 * Filtering"). */
struct aniso_probes {
   unsigned count; /* N, 1 when isotropic */
   unsigned major; /* 0: along d/dx, 1: along d/dy */
};

/* lambda_base from rho_x, rho_y, the lengths of the derivative vectors in
 * texels of the base level (dx, dy are in normalized coordinates of the
 * face or image). Isotropic: log2(rho_max). With max_anisotropy > 1 the
 * spec's anisotropic rule: eta = min(rho_max / rho_min, max_anisotropy),
 * N = ceil(eta) probes, lambda_base = log2(rho_max / eta), so each probe
 * filters the footprint's short side. */
static float lambda_from_derivatives(const struct ppu_texture_header *h, unsigned nd,
                                     const float dx[3], const float dy[3], float max_anisotropy,
                                     struct aniso_probes *probes)
{
   float scale[3] = {(float)ppu_tex_level_extent(h->width, h->base_level),
                     (float)ppu_tex_level_extent(h->height, h->base_level),
                     (float)ppu_tex_level_extent(h->depth, h->base_level)};
   float rx = 0.0f, ry = 0.0f;
   for (unsigned a = 0; a < nd; a++) {
      rx += (dx[a] * scale[a]) * (dx[a] * scale[a]);
      ry += (dy[a] * scale[a]) * (dy[a] * scale[a]);
   }
   *probes = (struct aniso_probes){1, 0};
   if (!(max_anisotropy > 1.0f))
      return 0.5f * log2f(fmaxf(rx, ry));
   float rho_x = sqrtf(rx), rho_y = sqrtf(ry);
   float rho_max = fmaxf(rho_x, rho_y), rho_min = fminf(rho_x, rho_y);
   float limit = fminf(max_anisotropy, (float)PPU_TEX_MAX_PROBES);
   float eta = rho_min > 0.0f ? fminf(rho_max / rho_min, limit) : rho_max > 0.0f ? limit : 1.0f;
   if (!(eta >= 1.0f)) /* NaN derivatives: isotropic */
      eta = 1.0f;
   probes->count = (unsigned)ceilf(eta);
   probes->major = rho_x >= rho_y ? 0u : 1u;
   return log2f(rho_max / eta);
}

static void add_texel(struct ppu_tex_lane_footprint *lf, const struct ppu_texture_header *h,
                      unsigned level, uint32_t layer, int32_t i, int32_t j, int32_t k, float weight)
{
   if (lf->count == PPU_TEX_MAX_TEXELS)
      return;
   struct ppu_tex_texel_ref *t = &lf->texel[lf->count++];
   memset(t, 0, sizeof(*t));
   t->weight = weight;
   t->group = (uint8_t)(lf->groups ? lf->groups - 1 : 0);
   if (i < 0 || j < 0 || k < 0) {
      t->border = 1;
      return;
   }
   uint32_t bytes = ppu_tex_format_bytes(h->format);
   uint32_t x = (uint32_t)i, y = (uint32_t)j;
   if (ppu_tex_format_is_compressed(h->format)) {
      t->sub = (uint8_t)((y % 4) * 4 + x % 4);
      x /= 4;
      y /= 4;
   }
   t->va = h->address + ppu_tex_byte_offset(h, level, layer, x * bytes, y, (uint32_t)k);
}

/* "Cube Map Edge Handling": a texel one step beyond an edge of a face is
 * the texel of the adjacent face that touches it. The face's texel centres
 * are put on the cube of half-size n in doubled units (centre of texel i at
 * 2i + 1 - n, the face plane at +-n), so the texel beyond the edge lies at
 * +-(n + 1) on another axis: that axis and its sign name the adjacent face,
 * and the old major coordinate (+-n) becomes its edge row or column. All
 * integer, so the mapping is exact at every size. */
static void cube_edge_texel(unsigned face, int32_t n, int32_t *i, int32_t *j, unsigned *out_face)
{
   int32_t r[3];
   r[cube_axes[face].ma] = face % 2 ? -n : n;
   r[cube_axes[face].sa] = cube_axes[face].ss * (2 * *i + 1 - n);
   r[cube_axes[face].ta] = cube_axes[face].ts * (2 * *j + 1 - n);
   unsigned axis = 0;
   for (unsigned a = 1; a < 3; a++)
      if (abs(r[a]) > abs(r[axis]))
         axis = a;
   unsigned f = 2 * axis + (r[axis] < 0 ? 1u : 0u);
   int32_t sc = cube_axes[f].ss * r[cube_axes[f].sa], tc = cube_axes[f].ts * r[cube_axes[f].ta];
   *i = ppu_tex_wrap((sc + n - 1) / 2, n, PPU_TEX_ADDRESS_CLAMP_TO_EDGE);
   *j = ppu_tex_wrap((tc + n - 1) / 2, n, PPU_TEX_ADDRESS_CLAMP_TO_EDGE);
   *out_face = f;
}

/* A texel (i, j) of a linear footprint on `face` of the cube whose +X face
 * is layer cube_layer, with i and j at most one texel beyond the face (the
 * footprint of a direction never reaches further: cube views take no
 * offsets). Edge texels come from the adjacent face; a corner texel, which
 * has no unique neighbour, is the average of the three texels that meet at
 * the cube's corner (the spec's "should"). A gather returns texels rather
 * than a weighted sum, so its corner takes this face's corner texel, which
 * the spec allows ("implementations may replace the cube map corner texel
 * by other methods"; the constraint on equal texels is for filtering). */
static void add_cube_texel(struct ppu_tex_lane_footprint *lf, unsigned level, uint32_t cube_layer,
                           unsigned face, int32_t i, int32_t j, int32_t n, float weight,
                           bool gather)
{
   const struct ppu_texture_header *h = lf->tex;
   /* Rounding cannot push a footprint further out; a bad one stays near. */
   i = i < -1 ? -1 : i > n ? n : i;
   j = j < -1 ? -1 : j > n ? n : j;
   int32_t ci = ppu_tex_wrap(i, n, PPU_TEX_ADDRESS_CLAMP_TO_EDGE);
   int32_t cj = ppu_tex_wrap(j, n, PPU_TEX_ADDRESS_CLAMP_TO_EDGE);
   bool out_i = ci != i, out_j = cj != j;
   if (out_i && out_j && !gather) {
      add_texel(lf, h, level, cube_layer + face, ci, cj, 0, weight / 3.0f);
      add_cube_texel(lf, level, cube_layer, face, i, cj, n, weight / 3.0f, gather);
      add_cube_texel(lf, level, cube_layer, face, ci, j, n, weight / 3.0f, gather);
      return;
   }
   unsigned f = face;
   if (out_i != out_j)
      cube_edge_texel(face, n, &i, &j, &f);
   else
      i = ci, j = cj;
   add_texel(lf, h, level, cube_layer + f, i, j, 0, weight);
}

struct level_pick {
   unsigned level; /* absolute */
   float weight;
};

/* The texels of one level for a sample or gather (Vulkan "Texel Filtering",
 * "Texel Gathering"): nearest, or the 2^n linear footprint with weights
 * alpha, beta, gamma; gathers return the 2x2 footprint in the order
 * i0j1, i1j1, i1j0, i0j0. */
static void select_texels(struct ppu_tex_lane_footprint *lf, const struct ppu_tex_instr *in,
                          const float s[3], unsigned nd, uint32_t layer, struct level_pick lp,
                          bool linear, bool normalized)
{
   const struct ppu_texture_header *h = lf->tex;
   const struct ppu_sampler_header *smp = lf->smp;
   lf->groups++; /* this level of this probe: one min/max reduction */
   int32_t size[3] = {
       (int32_t)ppu_tex_level_extent(h->width, lp.level),
       (int32_t)ppu_tex_level_extent(h->height, lp.level),
       (int32_t)(h->dim == PPU_TEX_DIM_3D ? ppu_tex_level_extent(h->depth, lp.level) : 1)};
   /* Cube maps ignore the address modes: NEAREST clamps to the edge of the
    * face, LINEAR (and gathers) continue on the adjacent faces ("Cube Map
    * Edge Handling", "seamless" filtering). */
   bool cube = dim_is_cube(in->texdim);
   unsigned mode[3] = {cube ? PPU_TEX_ADDRESS_CLAMP_TO_EDGE : smp->address_u,
                       cube ? PPU_TEX_ADDRESS_CLAMP_TO_EDGE : smp->address_v,
                       cube ? PPU_TEX_ADDRESS_CLAMP_TO_EDGE : smp->address_w};
   int32_t i0[3] = {0, 0, 0};
   float frac[3] = {0, 0, 0};
   linear = linear || in->kind == PPU_TEX_KIND_GATHER;
   /* The lane's layer is the cube's first layer plus the face. */
   unsigned face = cube ? (layer - h->base_layer) % 6 : 0;
   bool seamless = cube && linear;
   for (unsigned a = 0; a < nd; a++) {
      float u = normalized ? s[a] * (float)size[a] : s[a];
      if (linear) {
         i0[a] = floor_i32(u - 0.5f);
         frac[a] = (u - 0.5f) - floorf(u - 0.5f);
         if (!(frac[a] >= 0.0f && frac[a] < 1.0f))
            frac[a] = 0.0f;
      } else {
         i0[a] = floor_i32(u);
      }
      i0[a] += in->offset[a];
   }
   if (in->kind == PPU_TEX_KIND_GATHER) {
      static const uint8_t order[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
      for (unsigned c = 0; c < 4; c++) {
         int32_t x = i0[0] + order[c][0], y = i0[1] + order[c][1];
         if (seamless)
            add_cube_texel(lf, lp.level, layer - face, face, x, y, size[0], 1.0f, true);
         else
            add_texel(lf, h, lp.level, layer, ppu_tex_wrap(x, size[0], mode[0]),
                      ppu_tex_wrap(y, size[1], mode[1]), 0, 1.0f);
      }
      return;
   }
   unsigned corners = linear ? 1u << nd : 1u;
   for (unsigned c = 0; c < corners; c++) {
      float w = lp.weight;
      int32_t t[3] = {0, 0, 0};
      for (unsigned a = 0; a < nd; a++) {
         unsigned hi = (c >> a) & 1u;
         if (linear)
            w *= hi ? frac[a] : 1.0f - frac[a];
         t[a] =
             seamless ? i0[a] + (int32_t)hi : ppu_tex_wrap(i0[a] + (int32_t)hi, size[a], mode[a]);
      }
      if (seamless)
         add_cube_texel(lf, lp.level, layer - face, face, t[0], t[1], size[0], w, false);
      else
         add_texel(lf, h, lp.level, layer, t[0], t[1], t[2], w);
   }
}

static bool integer_format(unsigned format)
{
   switch (format) {
   case PPU_TEX_FORMAT_R8_UINT:
   case PPU_TEX_FORMAT_R8_SINT:
   case PPU_TEX_FORMAT_R8G8_UINT:
   case PPU_TEX_FORMAT_R8G8_SINT:
   case PPU_TEX_FORMAT_R8G8B8A8_UINT:
   case PPU_TEX_FORMAT_R8G8B8A8_SINT:
   case PPU_TEX_FORMAT_A2B10G10R10_UINT:
   case PPU_TEX_FORMAT_R16_UINT:
   case PPU_TEX_FORMAT_R16_SINT:
   case PPU_TEX_FORMAT_R16G16_UINT:
   case PPU_TEX_FORMAT_R16G16_SINT:
   case PPU_TEX_FORMAT_R16G16B16A16_UINT:
   case PPU_TEX_FORMAT_R16G16B16A16_SINT:
   case PPU_TEX_FORMAT_R32_UINT:
   case PPU_TEX_FORMAT_R32_SINT:
   case PPU_TEX_FORMAT_R32G32_UINT:
   case PPU_TEX_FORMAT_R32G32_SINT:
   case PPU_TEX_FORMAT_R32G32B32A32_UINT:
   case PPU_TEX_FORMAT_R32G32B32A32_SINT:
   case PPU_TEX_FORMAT_S8_UINT:
      return true;
   default:
      return false;
   }
}

/* TEX and TLD4 for lane l of the quad. */
static void sample_lane(const struct ppu_tex_instr *in, const struct lane_coords c[4], unsigned l,
                        struct ppu_tex_lane_footprint *lf)
{
   const struct ppu_texture_header *h = lf->tex;
   const struct ppu_sampler_header *smp = lf->smp;
   bool cube = dim_is_cube(in->texdim);
   bool normalized = !(smp->flags & PPU_SAMPLER_FLAG_UNNORMALIZED);
   unsigned nd = cube ? 2 : spatial(in->texdim);
   float s[3] = {c[l].p[0], c[l].p[1], c[l].p[2]};
   unsigned face = 0;
   if (cube) {
      float sc, tc, ma;
      face = ppu_tex_cube_face(c[l].p, &sc, &tc, &ma);
      s[0] = 0.5f * (sc / fabsf(ma) + 1.0f);
      s[1] = 0.5f * (tc / fabsf(ma) + 1.0f);
   }
   uint32_t layer = h->base_layer;
   if (dim_is_array(in->texdim)) {
      uint32_t n = cube ? h->layer_count / 6 : h->layer_count;
      uint32_t a = layer_index(c[l].layer, n);
      layer += cube ? 6 * a : a;
   }
   if (cube)
      layer += face;

   /* Level of detail: lambda_base, bias, clamps. */
   float lambda = 0.0f;
   struct aniso_probes probes = {1, 0};
   float major[3] = {0, 0, 0}; /* the derivative the probes step along */
   if (in->kind == PPU_TEX_KIND_SAMPLE && normalized) {
      float base = 0.0f, bias = smp->lod_bias;
      float dx[3] = {0, 0, 0}, dy[3] = {0, 0, 0};
      switch (in->lod) {
      case PPU_TEXLOD_AUTO:
      case PPU_TEXLOD_LB:
      case PPU_TEXLOD_LG:
         for (unsigned a = 0; a < 3; a++) {
            bool grad = in->lod == PPU_TEXLOD_LG;
            dx[a] = grad ? c[l].dpdx[a] : c[1].p[a] - c[0].p[a];
            dy[a] = grad ? c[l].dpdy[a] : c[2].p[a] - c[0].p[a];
         }
         if (cube) {
            float fx[2], fy[2];
            cube_derivative(face, c[l].p, dx, fx);
            cube_derivative(face, c[l].p, dy, fy);
            dx[0] = fx[0], dx[1] = fx[1], dy[0] = fy[0], dy[1] = fy[1];
         }
         base = lambda_from_derivatives(h, nd, dx, dy, smp->max_anisotropy, &probes);
         for (unsigned a = 0; a < 3; a++)
            major[a] = probes.major ? dy[a] : dx[a];
         if (in->lod == PPU_TEXLOD_LB)
            bias += c[l].lod;
         break;
      case PPU_TEXLOD_LL:
         base = c[l].lod;
         break;
      default: /* LZ */
         break;
      }
      lambda = base + fminf(fmaxf(bias, -MAX_LOD_BIAS), MAX_LOD_BIAS);
      lambda = fminf(fmaxf(lambda, smp->min_lod), smp->max_lod);
      if (isnan(lambda))
         lambda = smp->min_lod;
   }

   /* "Image Level(s) Selection". Integer formats filter nearest only. */
   bool integer = integer_format(h->format);
   float q = (float)(h->level_count - 1);
   float d = (float)h->base_level + fminf(fmaxf(lambda, 0.0f), q);
   if (h->min_lod_clamp > d)
      d = fminf(h->min_lod_clamp, (float)h->base_level + q);
   bool linear = !integer && (lambda <= 0.0f ? smp->mag_filter : smp->min_filter);
   struct level_pick picks[2] = {{h->base_level, 1.0f}, {0, 0.0f}};
   unsigned n_picks = 1;
   if (in->kind == PPU_TEX_KIND_GATHER) {
      picks[0].level = h->base_level;
   } else if (integer || smp->mip_filter == PPU_TEX_FILTER_NEAREST) {
      picks[0].level = (unsigned)(ceilf(d + 0.5f) - 1.0f);
   } else {
      float hi = floorf(d), delta = d - hi;
      picks[0].level = (unsigned)hi;
      picks[0].weight = 1.0f - delta;
      if (delta > 0.0f) {
         unsigned lo = (unsigned)hi + 1;
         picks[1].level = lo > (unsigned)h->base_level + h->level_count - 1u ? lo - 1 : lo;
         picks[1].weight = delta;
         n_picks = 2;
      }
   }
   /* Anisotropic: N probes at u(x - 1/2 + i / (N + 1)), i = 1..N, along
    * the major derivative, each filtered as one isotropic sample at lambda
    * and weighted 1 / N (spec "Texel Anisotropic Filtering"). */
   for (unsigned i = 1; i <= probes.count; i++) {
      float at[3] = {s[0], s[1], s[2]};
      if (probes.count > 1) {
         float t = (float)i / (float)(probes.count + 1) - 0.5f;
         for (unsigned a = 0; a < nd; a++)
            at[a] += t * major[a];
      }
      for (unsigned p = 0; p < n_picks; p++) {
         struct level_pick pick = picks[p];
         pick.weight /= (float)probes.count;
         select_texels(lf, in, at, nd, layer, pick, linear, normalized);
      }
   }
   lf->dref = c[l].dref;
}

/* Integer texel coordinates (TLD and storage images) of a view's level
 * (relative to its base level); false when out of range. */
static bool int_texel(const struct ppu_texture_header *h, unsigned texdim, const int32_t c[3],
                      int32_t level, const int8_t offset[3], unsigned *abs_level, uint32_t *layer,
                      int32_t t[3])
{
   if (level < 0 || level >= h->level_count)
      return false;
   unsigned lv = h->base_level + (unsigned)level;
   unsigned nd = dim_is_cube(texdim) ? 2 : spatial(texdim);
   int32_t size[3] = {(int32_t)ppu_tex_level_extent(h->width, lv),
                      (int32_t)ppu_tex_level_extent(h->height, lv),
                      (int32_t)(h->dim == PPU_TEX_DIM_3D ? ppu_tex_level_extent(h->depth, lv) : 1)};
   t[0] = t[1] = t[2] = 0;
   for (unsigned a = 0; a < nd; a++) {
      int64_t v = (int64_t)c[a] + offset[a];
      if (v < 0 || v >= size[a])
         return false;
      t[a] = (int32_t)v;
   }
   int64_t a = 0;
   if (dim_is_array(texdim) || dim_is_cube(texdim))
      a = c[nd];
   if (a < 0 || a >= (int64_t)h->layer_count)
      return false;
   *abs_level = lv;
   *layer = h->base_layer + (uint32_t)a;
   return true;
}

/* TLD on a 4x view: pixel (x, y) [layer] and the sample index, which
 * takes the level's place at the end of the vector (the view has one
 * level). Sample s is texel (2x + (s & 1), 2y + (s >> 1)) of the 1x image
 * the header describes; a pixel, layer or sample outside the view is out of
 * range like any texel (robust access: 0). */
static void fetch_4x_lane(const struct ppu_tex_instr *in, const uint32_t *w,
                          struct ppu_tex_lane_footprint *lf)
{
   const struct ppu_texture_header *h = lf->tex;
   bool array = dim_is_array(in->texdim);
   int64_t x = (int64_t)(int32_t)w[0] + in->offset[0];
   int64_t y = (int64_t)(int32_t)w[1] + in->offset[1];
   int64_t layer = array ? (int32_t)w[2] : 0;
   uint32_t s = w[array ? 3 : 2];
   if (x < 0 || x >= h->width / 2 || y < 0 || y >= h->height / 2 || layer < 0 ||
       layer >= (int64_t)h->layer_count || s >= 4u) {
      lf->zero = true;
      return;
   }
   add_texel(lf, h, h->base_level, h->base_layer + (uint32_t)layer, (int32_t)(2 * x + (s & 1u)),
             (int32_t)(2 * y + (s >> 1)), 0, 1.0f);
}

static void fetch_lane(const struct ppu_tex_instr *in, const uint32_t *w,
                       struct ppu_tex_lane_footprint *lf)
{
   if (lf->tex->samples_log2) {
      fetch_4x_lane(in, w, lf);
      return;
   }
   /* x [y [z]] [layer]; cubes address their faces as layers (x, y, face);
    * then the level, except for a texel buffer (element index only). */
   static const uint8_t words[PPU_TEXDIM_COUNT] = {1, 2, 3, 3, 2, 3, 3, 1};
   unsigned n = words[in->texdim % PPU_TEXDIM_COUNT];
   int32_t c[3] = {(int32_t)w[0], n > 1 ? (int32_t)w[1] : 0, n > 2 ? (int32_t)w[2] : 0};
   int32_t lv = in->texdim == PPU_TEXDIM_BUFFER ? 0 : (int32_t)w[n];
   unsigned level;
   uint32_t layer;
   int32_t t[3];
   if (!int_texel(lf->tex, in->texdim, c, lv, in->offset, &level, &layer, t)) {
      lf->zero = true;
      return;
   }
   add_texel(lf, lf->tex, level, layer, t[0], t[1], t[2], 1.0f);
}

void ppu_tex_address_quad(const struct ppu_tex_instr *in, const struct ppu_tex_quad_input *q,
                          struct ppu_tex_footprint *fp)
{
   fp->instr = *in;
   struct lane_coords c[4];
   if (in->kind != PPU_TEX_KIND_FETCH)
      for (unsigned l = 0; l < 4; l++)
         parse_lane(in, q->words[l], &c[l]);
   for (unsigned l = 0; l < 4; l++) {
      struct ppu_tex_lane_footprint *lf = &fp->lane[l];
      lf->active = (q->active >> l) & 1u;
      lf->zero = false;
      lf->count = 0;
      lf->groups = 0;
      lf->tex = q->tex[l];
      lf->smp = q->smp[l];
      lf->dref = 0.0f;
      if (!lf->active || !lf->tex)
         continue;
      if (in->kind == PPU_TEX_KIND_FETCH)
         fetch_lane(in, q->words[l], lf);
      else if (lf->smp)
         sample_lane(in, c, l, lf);
   }
}

bool ppu_tex_storage_address(const struct ppu_texture_header *h, unsigned texdim,
                             const int32_t c[3], uint64_t *va)
{
   static const int8_t none[3] = {0, 0, 0};
   unsigned level;
   uint32_t layer;
   int32_t t[3];
   if (!int_texel(h, texdim, c, 0, none, &level, &layer, t))
      return false;
   uint32_t bytes = ppu_tex_format_bytes(h->format);
   *va = h->address + ppu_tex_byte_offset(h, level, layer, (uint32_t)t[0] * bytes, (uint32_t)t[1],
                                          (uint32_t)t[2]);
   return true;
}
