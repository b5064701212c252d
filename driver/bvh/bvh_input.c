/* From the builder's plain inputs to primitive boxes and leaf records:
 * which primitives are active, the box the tree must contain for each, the
 * records as the TTU reads them, and an instance's inverse transform. */
#include <float.h>
#include <math.h>
#include <stddef.h>
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

static float clamp_finite(float x)
{
   return fminf(fmaxf(x, -FLT_MAX), FLT_MAX);
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
         box->min[a] = fminf(box->min[a], v);
         box->max[a] = fmaxf(box->max[a], v);
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

uint32_t bvh_input_gather(const struct bvh_build_input *in, struct bvh_prim *prims)
{
   uint32_t n = 0;
   uint32_t geometry_count = in->kind == PPU_BVH_KIND_INSTANCES ? 1 : in->geometry_count;
   for (uint32_t g = 0; g < geometry_count; g++) {
      uint32_t count = in->kind == PPU_BVH_KIND_INSTANCES ? in->instance_count
                                                          : in->geometries[g].primitive_count;
      for (uint32_t i = 0; i < count; i++) {
         struct bvh_prim *p = &prims[n];
         if (!prim_box(in, g, i, &p->box))
            continue;
         for (int a = 0; a < 3; a++)
            p->centroid[a] = 0.5f * p->box.min[a] + 0.5f * p->box.max[a];
         p->geometry = g;
         p->primitive = i;
         n++;
      }
   }
   return n;
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

bool bvh_input_write_record(const struct bvh_build_input *in, uint32_t geometry, uint32_t primitive,
                            void *record, struct bvh_box *box)
{
   bool active = prim_box(in, geometry, primitive, box);
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
