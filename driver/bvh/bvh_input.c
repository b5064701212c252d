/* From the builder's plain inputs to primitive boxes and leaf records:
 * which primitives are active, the box the tree must contain for each, the
 * records as the TTU reads them, and an instance's inverse transform. */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "bvh_internal.h"

enum bvh_result bvh_input_check(const struct bvh_build_input *in, uint32_t *total)
{
   uint64_t sum = 0;
   switch (in->kind) {
   case PPU_BVH_KIND_TRIANGLES:
   case PPU_BVH_KIND_AABBS: {
      enum bvh_geometry_type want =
          in->kind == PPU_BVH_KIND_TRIANGLES ? BVH_GEOMETRY_TRIANGLES : BVH_GEOMETRY_AABBS;
      if (in->geometry_count && !in->geometries)
         return BVH_ERROR_INVALID_INPUT;
      for (uint32_t g = 0; g < in->geometry_count; g++) {
         const struct bvh_geometry *geo = &in->geometries[g];
         if (geo->type != want || (geo->primitive_count && !geo->data))
            return BVH_ERROR_INVALID_INPUT;
         sum += geo->primitive_count;
      }
      break;
   }
   case PPU_BVH_KIND_INSTANCES:
      if (in->instance_count && !in->instances)
         return BVH_ERROR_INVALID_INPUT;
      sum = in->instance_count;
      break;
   default:
      return BVH_ERROR_INVALID_INPUT;
   }
   /* Record indices are u32 in the format. */
   if (sum > UINT32_MAX)
      return BVH_ERROR_INVALID_INPUT;
   *total = (uint32_t)sum;
   return BVH_SUCCESS;
}

/* Ternaries rather than fminf/fmaxf here and in box_from_points: this is
 * the builder's gather loop, libm's NaN-aware versions are calls, and NaN
 * never gets this far for an active primitive (a NaN that does, from a
 * corrupt record in validation, fails every comparison and is ignored,
 * as fminf/fmaxf would ignore it). */
static float clamp_finite(float x)
{
   return x < -FLT_MAX ? -FLT_MAX : x > FLT_MAX ? FLT_MAX : x;
}

/* Rounds a double to the largest float <= d (down) or smallest >= d (up),
 * so that a world box stays conservative after the double transform. */
static float round_down(double d)
{
   float f = (float)d;
   if ((double)f > d)
      f = nextafterf(f, -INFINITY);
   return f;
}

static float round_up(double d)
{
   float f = (float)d;
   if ((double)f < d)
      f = nextafterf(f, INFINITY);
   return f;
}

static void box_from_points(struct bvh_box *box, const float *p, unsigned count)
{
   bvh_box_set_empty(box);
   for (unsigned i = 0; i < count; i++)
      for (int a = 0; a < 3; a++) {
         float v = clamp_finite(p[3 * i + a]);
         box->min[a] = v < box->min[a] ? v : box->min[a];
         box->max[a] = v > box->max[a] ? v : box->max[a];
      }
}

static bool any_nan(const float *v, unsigned count)
{
   for (unsigned i = 0; i < count; i++)
      if (isnan(v[i]))
         return true;
   return false;
}

/* World box of an instance: the 8 corners of the BLAS bounds through the
 * object-to-world matrix, in double, rounded outwards. An empty BLAS (or
 * a NaN in the matrix) gives a point box at the translation: the instance
 * stays active (spec: degenerate instances are not inactive) and a ray
 * that reaches it simply finds nothing below. */
static void instance_world_box(const struct bvh_instance *inst, struct bvh_box *box)
{
   const float *bmin = inst->blas_bounds_min, *bmax = inst->blas_bounds_max;
   bool empty = !(bmin[0] <= bmax[0] && bmin[1] <= bmax[1] && bmin[2] <= bmax[2]);
   bool bad = any_nan(&inst->transform[0][0], 12);
   if (empty || bad) {
      for (int r = 0; r < 3; r++) {
         float t = bad ? 0.0f : clamp_finite(inst->transform[r][3]);
         box->min[r] = box->max[r] = t;
      }
      return;
   }
   for (int r = 0; r < 3; r++) {
      double lo = 0.0, hi = 0.0;
      for (int c = 0; c < 3; c++) {
         double m = inst->transform[r][c];
         double a = m * bmin[c], b = m * bmax[c];
         lo += fmin(a, b);
         hi += fmax(a, b);
      }
      lo += inst->transform[r][3];
      hi += inst->transform[r][3];
      box->min[r] = isnan(lo) ? -FLT_MAX : clamp_finite(round_down(lo));
      box->max[r] = isnan(hi) ? FLT_MAX : clamp_finite(round_up(hi));
   }
}

/* world_to_object: the inverse of [A | t] is [A^-1 | -A^-1 t], computed in
 * double (cofactors) and rounded once to binary32. A singular matrix has
 * no inverse; the instance then gets zeros (every ray maps to a point and
 * misses), which is as good as any answer to invalid geometry. */
static void instance_inverse(const float m[3][4], float out[3][4])
{
   double a[3][3], inv[3][3];
   for (int r = 0; r < 3; r++)
      for (int c = 0; c < 3; c++)
         a[r][c] = m[r][c];
   inv[0][0] = a[1][1] * a[2][2] - a[1][2] * a[2][1];
   inv[0][1] = a[0][2] * a[2][1] - a[0][1] * a[2][2];
   inv[0][2] = a[0][1] * a[1][2] - a[0][2] * a[1][1];
   inv[1][0] = a[1][2] * a[2][0] - a[1][0] * a[2][2];
   inv[1][1] = a[0][0] * a[2][2] - a[0][2] * a[2][0];
   inv[1][2] = a[0][2] * a[1][0] - a[0][0] * a[1][2];
   inv[2][0] = a[1][0] * a[2][1] - a[1][1] * a[2][0];
   inv[2][1] = a[0][1] * a[2][0] - a[0][0] * a[2][1];
   inv[2][2] = a[0][0] * a[1][1] - a[0][1] * a[1][0];
   double det = a[0][0] * inv[0][0] + a[0][1] * inv[1][0] + a[0][2] * inv[2][0];
   if (det == 0.0 || !isfinite(det)) {
      memset(out, 0, sizeof(float) * 12);
      return;
   }
   for (int r = 0; r < 3; r++) {
      double t = 0.0;
      for (int c = 0; c < 3; c++) {
         inv[r][c] /= det;
         t -= inv[r][c] * m[c][3];
      }
      for (int c = 0; c < 3; c++)
         out[r][c] = (float)inv[r][c];
      out[r][3] = (float)t;
   }
}

/* Box and activity of one primitive. */
static bool prim_box(const struct bvh_build_input *in, uint32_t g, uint32_t i, struct bvh_box *box)
{
   if (in->kind == PPU_BVH_KIND_INSTANCES) {
      const struct bvh_instance *inst = &in->instances[i];
      if (!inst->blas_address) {
         bvh_box_set_empty(box);
         return false;
      }
      instance_world_box(inst, box);
      return true;
   }
   const struct bvh_geometry *geo = &in->geometries[g];
   if (geo->type == BVH_GEOMETRY_TRIANGLES) {
      const float *v = geo->data + (size_t)9 * i;
      if (any_nan(v, 9)) {
         bvh_box_set_empty(box);
         return false;
      }
      box_from_points(box, v, 3);
      return true;
   }
   const float *b = geo->data + (size_t)6 * i;
   if (any_nan(b, 6)) {
      bvh_box_set_empty(box);
      return false;
   }
   /* min > max is invalid usage; taking both corners keeps the tree
    * conservative whatever the TTU makes of the record. */
   box_from_points(box, b, 2);
   return true;
}

/* The gather runs over chunks of the primitives in input order (all
 * geometries concatenated); each chunk packs its active primitives at the
 * start of its own range of prims[], and the ranges are then moved
 * together in order (nothing moves when every primitive is active). */
struct gather {
   const struct bvh_build_input *in;
   struct bvh_prim *prims;
   const uint32_t *geometry_start; /* first global index of each geometry, then the total */
   uint32_t geometry_count;
   uint32_t *chunk_active;
};

static void gather_chunk(void *arg, uint32_t k)
{
   struct gather *ga = arg;
   uint32_t start = k * BVH_CHUNK_PRIMS, total = ga->geometry_start[ga->geometry_count];
   uint32_t end = total - start < BVH_CHUNK_PRIMS ? total : start + BVH_CHUNK_PRIMS;
   /* The geometry holding `start`: the last one starting at or before it. */
   uint32_t lo = 0, hi = ga->geometry_count - 1;
   while (lo < hi) {
      uint32_t mid = lo + (hi - lo + 1) / 2;
      if (ga->geometry_start[mid] <= start)
         lo = mid;
      else
         hi = mid - 1;
   }
   struct bvh_prim *out = ga->prims + start;
   uint32_t n = 0;
   for (uint32_t g = lo, i = start; i < end; g++) {
      uint32_t geo_end = ga->geometry_start[g + 1] < end ? ga->geometry_start[g + 1] : end;
      for (; i < geo_end; i++) {
         struct bvh_prim *p = &out[n];
         if (!prim_box(ga->in, g, i - ga->geometry_start[g], &p->box))
            continue;
         p->geometry = g;
         p->primitive = i - ga->geometry_start[g];
         n++;
      }
   }
   ga->chunk_active[k] = n;
}

enum bvh_result bvh_input_gather(const struct bvh_build_input *in, struct bvh_prim *prims,
                                 struct bvh_pool *pool, uint32_t *active)
{
   uint32_t geometry_count = in->kind == PPU_BVH_KIND_INSTANCES ? 1 : in->geometry_count;
   struct gather ga = {.in = in, .prims = prims, .geometry_count = geometry_count};
   uint32_t *start = malloc(sizeof(*start) * (geometry_count + 1u));
   uint32_t total = 0;
   if (start) {
      for (uint32_t g = 0; g < geometry_count; g++) {
         start[g] = total;
         total += in->kind == PPU_BVH_KIND_INSTANCES ? in->instance_count
                                                     : in->geometries[g].primitive_count;
      }
      start[geometry_count] = total;
   }
   uint32_t chunks = (total + BVH_CHUNK_PRIMS - 1) / BVH_CHUNK_PRIMS;
   ga.geometry_start = start;
   ga.chunk_active = malloc(sizeof(*ga.chunk_active) * (chunks + 1u));
   if (!start || !ga.chunk_active) {
      free(start);
      free(ga.chunk_active);
      return BVH_ERROR_OUT_OF_HOST_MEMORY;
   }
   bvh_pool_for(pool, chunks, gather_chunk, &ga);
   uint32_t n = 0;
   for (uint32_t k = 0; k < chunks; k++) {
      if (n != k * BVH_CHUNK_PRIMS)
         memmove(prims + n, prims + (size_t)k * BVH_CHUNK_PRIMS,
                 sizeof(*prims) * ga.chunk_active[k]);
      n += ga.chunk_active[k];
   }
   free(start);
   free(ga.chunk_active);
   *active = n;
   return BVH_SUCCESS;
}

static uint32_t prim_flags(uint32_t geometry_flags, bool active)
{
   uint32_t f = 0;
   if (geometry_flags & PPU_BVH_GEOMETRY_OPAQUE)
      f |= PPU_BVH_PRIM_OPAQUE;
   if (geometry_flags & PPU_BVH_GEOMETRY_NO_DUPLICATE_ANY_HIT)
      f |= PPU_BVH_PRIM_NO_DUPLICATE_ANY_HIT;
   if (!active)
      f |= PPU_BVH_PRIM_INACTIVE;
   return f;
}

void bvh_input_write_record_as(const struct bvh_build_input *in, uint32_t geometry,
                               uint32_t primitive, bool active, void *record)
{
   switch (in->kind) {
   case PPU_BVH_KIND_TRIANGLES: {
      const struct bvh_geometry *geo = &in->geometries[geometry];
      struct ppu_bvh_triangle t = {.geometry_index = geometry, .primitive_index = primitive};
      /* v0, v1, v2 are the first 36 bytes of the record. */
      memcpy(&t, geo->data + (size_t)9 * primitive, sizeof(float) * 9);
      t.flags = prim_flags(geo->flags, active);
      memcpy(record, &t, sizeof(t));
      break;
   }
   case PPU_BVH_KIND_AABBS: {
      const struct bvh_geometry *geo = &in->geometries[geometry];
      struct ppu_bvh_aabb b = {.geometry_index = geometry, .primitive_index = primitive};
      /* min, max are the first 24 bytes of the record. */
      memcpy(&b, geo->data + (size_t)6 * primitive, sizeof(float) * 6);
      b.flags = prim_flags(geo->flags, active);
      memcpy(record, &b, sizeof(b));
      break;
   }
   default: {
      const struct bvh_instance *inst = &in->instances[primitive];
      struct ppu_bvh_instance r = {
          .blas_address = inst->blas_address,
          .custom_index_and_mask = (inst->custom_index & 0xffffffu) | (uint32_t)inst->mask << 24,
          .sbt_offset_and_flags = (inst->sbt_offset & 0xffffffu) | (uint32_t)inst->flags << 24,
          .instance_index = primitive,
      };
      memcpy(r.object_to_world, inst->transform, sizeof(r.object_to_world));
      instance_inverse(inst->transform, r.world_to_object);
      memcpy(record, &r, sizeof(r));
      break;
   }
   }
}

bool bvh_input_write_record(const struct bvh_build_input *in, uint32_t geometry, uint32_t primitive,
                            void *record, struct bvh_box *box)
{
   bool active = prim_box(in, geometry, primitive, box);
   bvh_input_write_record_as(in, geometry, primitive, active, record);
   return active;
}

bool bvh_record_box(enum ppu_bvh_kind kind, const void *record, struct bvh_box *box)
{
   bvh_box_set_empty(box);
   if (kind == PPU_BVH_KIND_TRIANGLES || kind == PPU_BVH_KIND_AABBS) {
      /* Both records start with their points (9 or 6 floats); flags sit at
       * a kind-specific offset. */
      bool tri = kind == PPU_BVH_KIND_TRIANGLES;
      float points[9];
      uint32_t flags;
      memcpy(points, record, sizeof(float) * (tri ? 9 : 6));
      memcpy(&flags,
             (const uint8_t *)record + (tri ? offsetof(struct ppu_bvh_triangle, flags)
                                            : offsetof(struct ppu_bvh_aabb, flags)),
             sizeof(flags));
      if (flags & PPU_BVH_PRIM_INACTIVE)
         return false;
      box_from_points(box, points, tri ? 3 : 2);
      return true;
   }
   struct ppu_bvh_instance r;
   memcpy(&r, record, sizeof(r));
   return r.blas_address != 0;
}
