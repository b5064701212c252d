/* See bvh_test_util.h. */
#include "bvh_test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_harness.h"

uint32_t test_rand(uint32_t *state)
{
   /* xorshift32 */
   uint32_t x = *state;
   x ^= x << 13;
   x ^= x >> 17;
   x ^= x << 5;
   return *state = x;
}

float test_randf(uint32_t *state, float lo, float hi)
{
   return lo + (hi - lo) * (float)(test_rand(state) >> 8) * (1.0f / 16777216.0f);
}

bool test_ray_triangle(const struct test_ray *r, const float v[9], double *t_out)
{
   /* Moeller-Trumbore in double. */
   double e1[3], e2[3], s[3], p[3], q[3];
   for (int a = 0; a < 3; a++) {
      e1[a] = (double)v[3 + a] - v[a];
      e2[a] = (double)v[6 + a] - v[a];
      s[a] = r->origin[a] - v[a];
   }
   const double *d = r->direction;
   p[0] = d[1] * e2[2] - d[2] * e2[1];
   p[1] = d[2] * e2[0] - d[0] * e2[2];
   p[2] = d[0] * e2[1] - d[1] * e2[0];
   double det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
   if (det == 0.0 || !isfinite(det))
      return false;
   double inv = 1.0 / det;
   double u = (s[0] * p[0] + s[1] * p[1] + s[2] * p[2]) * inv;
   if (u < 0.0 || u > 1.0)
      return false;
   q[0] = s[1] * e1[2] - s[2] * e1[1];
   q[1] = s[2] * e1[0] - s[0] * e1[2];
   q[2] = s[0] * e1[1] - s[1] * e1[0];
   double w = (d[0] * q[0] + d[1] * q[1] + d[2] * q[2]) * inv;
   if (w < 0.0 || u + w > 1.0)
      return false;
   double t = (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) * inv;
   if (!(t >= r->tmin && t <= r->tmax))
      return false;
   *t_out = t;
   return true;
}

/* Slab test; tolerance widens the interval a little so that rounding in
 * double never rejects a box a triangle hit lies in. */
static bool slab(const struct test_ray *r, const float lo[3], const float hi[3], double tol,
                 double *tnear_out)
{
   double tnear = r->tmin, tfar = r->tmax;
   for (int a = 0; a < 3; a++) {
      double o = r->origin[a], d = r->direction[a];
      if (d == 0.0) {
         if (o < lo[a] || o > hi[a])
            return false;
         continue;
      }
      double t0 = ((double)lo[a] - o) / d, t1 = ((double)hi[a] - o) / d;
      if (t0 > t1) {
         double x = t0;
         t0 = t1;
         t1 = x;
      }
      t0 -= tol * (1.0 + fabs(t0));
      t1 += tol * (1.0 + fabs(t1));
      tnear = t0 > tnear ? t0 : tnear;
      tfar = t1 < tfar ? t1 : tfar;
   }
   if (tnear > tfar)
      return false;
   *tnear_out = tnear;
   return true;
}

bool test_ray_aabb(const struct test_ray *r, const float box[6], double *t)
{
   return slab(r, box, box + 3, 0.0, t);
}

static void consider(struct test_hit *hit, struct test_ray *r, double t, uint32_t instance,
                     uint32_t geometry, uint32_t primitive)
{
   hit->hit = true;
   hit->t = t;
   hit->instance = instance;
   hit->geometry = geometry;
   hit->primitive = primitive;
   r->tmax = t;
}

static void object_ray(const struct ppu_bvh_instance *inst, const struct test_ray *r,
                       struct test_ray *o)
{
   *o = *r;
   for (int i = 0; i < 3; i++) {
      const float *m = inst->world_to_object[i];
      o->origin[i] = m[0] * r->origin[0] + m[1] * r->origin[1] + m[2] * r->origin[2] + m[3];
      o->direction[i] = m[0] * r->direction[0] + m[1] * r->direction[1] + m[2] * r->direction[2];
   }
}

static uint32_t trace(const uint8_t *base, struct test_ray *r, struct test_hit *hit,
                      uint32_t instance);

static void test_record(const uint8_t *base, const struct ppu_bvh_header *h, uint32_t index,
                        struct test_ray *r, struct test_hit *hit, uint32_t instance,
                        uint32_t *visited)
{
   const uint8_t *rec = base + h->leaf_offset + (uint64_t)index * h->leaf_stride;
   double t;
   if (h->kind == PPU_BVH_KIND_TRIANGLES) {
      const struct ppu_bvh_triangle *tri = (const void *)rec;
      float v[9];
      memcpy(v, rec, sizeof(v)); /* v0, v1, v2 */
      if (!(tri->flags & PPU_BVH_PRIM_INACTIVE) && test_ray_triangle(r, v, &t))
         consider(hit, r, t, instance, tri->geometry_index, tri->primitive_index);
   } else if (h->kind == PPU_BVH_KIND_AABBS) {
      const struct ppu_bvh_aabb *b = (const void *)rec;
      float box[6];
      memcpy(box, rec, sizeof(box)); /* min, max */
      if (!(b->flags & PPU_BVH_PRIM_INACTIVE) && test_ray_aabb(r, box, &t))
         consider(hit, r, t, instance, b->geometry_index, b->primitive_index);
   } else {
      const struct ppu_bvh_instance *inst = (const void *)rec;
      if (!inst->blas_address)
         return;
      struct test_ray o;
      object_ray(inst, r, &o);
      *visited +=
          trace((const uint8_t *)(uintptr_t)inst->blas_address, &o, hit, inst->instance_index);
      r->tmax = o.tmax;
   }
}

static uint32_t trace(const uint8_t *base, struct test_ray *r, struct test_hit *hit,
                      uint32_t instance)
{
   const struct ppu_bvh_header *h = (const void *)base;
   const struct ppu_bvh_node *nodes = (const void *)(base + h->node_offset);
   uint32_t stack[PPU_BVH_MAX_DEPTH * PPU_BVH_WIDTH], sp = 0, visited = 0;
   if (h->node_count)
      stack[sp++] = 0;
   while (sp) {
      const struct ppu_bvh_node *n = &nodes[stack[--sp]];
      visited++;
      for (unsigned s = 0; s < n->child_count; s++) {
         float lo[3], hi[3];
         double tnear;
         bvh_node_child_box(n, s, lo, hi);
         if (!slab(r, lo, hi, 1e-9, &tnear))
            continue;
         if (n->child_kind[s] == PPU_BVH_CHILD_INTERNAL) {
            stack[sp++] = n->internal_base + n->child_index[s];
         } else {
            for (unsigned k = 0; k < n->child_records[s]; k++)
               test_record(base, h, n->leaf_base + n->child_index[s] + k, r, hit, instance,
                           &visited);
         }
      }
   }
   return visited;
}

uint32_t test_trace(const void *bvh, const struct test_ray *r, struct test_hit *hit)
{
   struct test_ray ray = *r;
   memset(hit, 0, sizeof(*hit));
   return trace(bvh, &ray, hit, UINT32_MAX);
}

static bool has_nan(const float *v, unsigned n)
{
   for (unsigned i = 0; i < n; i++)
      if (isnan(v[i]))
         return true;
   return false;
}

static void brute(const struct bvh_build_input *in, struct test_ray *r, struct test_hit *hit,
                  uint32_t instance)
{
   for (uint32_t g = 0; g < in->geometry_count; g++) {
      const struct bvh_geometry *geo = &in->geometries[g];
      for (uint32_t i = 0; i < geo->primitive_count; i++) {
         double t;
         if (geo->type == BVH_GEOMETRY_TRIANGLES) {
            const float *v = geo->data + 9 * (size_t)i;
            if (!has_nan(v, 9) && test_ray_triangle(r, v, &t))
               consider(hit, r, t, instance, g, i);
         } else {
            const float *b = geo->data + 6 * (size_t)i;
            if (!has_nan(b, 6) && test_ray_aabb(r, b, &t))
               consider(hit, r, t, instance, g, i);
         }
      }
   }
}

void test_brute_force(const struct bvh_build_input *in, const struct test_ray *r,
                      struct test_hit *hit)
{
   struct test_ray ray = *r;
   memset(hit, 0, sizeof(*hit));
   brute(in, &ray, hit, UINT32_MAX);
}

void test_brute_force_tlas(const void *tlas, const struct bvh_build_input *const *blas_inputs,
                           const struct test_ray *r, struct test_hit *hit)
{
   const struct ppu_bvh_header *h = tlas;
   struct test_ray ray = *r;
   memset(hit, 0, sizeof(*hit));
   for (uint32_t i = 0; i < h->leaf_count; i++) {
      const struct ppu_bvh_instance *inst =
          (const void *)((const uint8_t *)tlas + h->leaf_offset + (uint64_t)i * h->leaf_stride);
      if (!inst->blas_address)
         continue;
      struct test_ray o;
      object_ray(inst, &ray, &o);
      brute(blas_inputs[inst->instance_index], &o, hit, inst->instance_index);
      ray.tmax = o.tmax;
   }
}

void *test_build(const struct bvh_build_input *in, struct bvh_build_stats *stats,
                 enum bvh_result *result)
{
   uint32_t total = in->kind == PPU_BVH_KIND_INSTANCES ? in->instance_count : 0;
   for (uint32_t g = 0; in->kind != PPU_BVH_KIND_INSTANCES && g < in->geometry_count; g++)
      total += in->geometries[g].primitive_count;
   struct bvh_sizes sizes;
   *result = bvh_get_sizes(in->kind, in->geometry_count, total, &sizes);
   if (*result != BVH_SUCCESS)
      return NULL;
   size_t bytes = (sizes.structure_size + PPU_BVH_ALIGN - 1) / PPU_BVH_ALIGN * PPU_BVH_ALIGN;
   void *mem = aligned_alloc(PPU_BVH_ALIGN, bytes);
   if (!mem) {
      *result = BVH_ERROR_OUT_OF_HOST_MEMORY;
      return NULL;
   }
   *result = bvh_build(in, mem, sizes.structure_size, stats);
   if (*result != BVH_SUCCESS) {
      free(mem);
      return NULL;
   }
   return mem;
}

void test_random_ray(uint32_t *state, const float lo[3], const float hi[3], struct test_ray *r)
{
   for (int a = 0; a < 3; a++) {
      float ext = hi[a] - lo[a];
      r->origin[a] = test_randf(state, lo[a] - 0.2f * ext, hi[a] + 0.2f * ext);
      r->direction[a] = test_randf(state, -1.0f, 1.0f);
   }
   r->tmin = 0.0;
   r->tmax = INFINITY;
}

float *test_random_soup(uint32_t n, uint32_t seed, float scene, float size)
{
   uint32_t s = seed;
   float *v = malloc(sizeof(float) * 9 * n);
   for (uint32_t i = 0; i < n; i++) {
      float c[3];
      for (int a = 0; a < 3; a++)
         c[a] = test_randf(&s, -scene, scene);
      for (int k = 0; k < 9; k++)
         v[9 * i + k] = c[k % 3] + test_randf(&s, -size, size);
   }
   return v;
}

bool test_same_hit(const struct test_hit *a, const struct test_hit *b)
{
   if (a->hit != b->hit)
      return false;
   if (!a->hit)
      return true;
   /* Equal t with another primitive is a tie, not a disagreement. */
   return a->t == b->t;
}

uint32_t test_compare_rays(const void *bvh, const struct bvh_build_input *in, uint32_t rays,
                           uint32_t seed, uint32_t *hits)
{
   const struct ppu_bvh_header *h = bvh;
   uint32_t bad = 0, s = seed;
   *hits = 0;
   for (uint32_t i = 0; i < rays; i++) {
      struct test_ray r;
      test_random_ray(&s, h->bounds_min, h->bounds_max, &r);
      struct test_hit a, b;
      test_trace(bvh, &r, &a);
      test_brute_force(in, &r, &b);
      if (!test_same_hit(&a, &b)) {
         if (bad < 5)
            fprintf(stderr, "  ray %u: bvh %d t=%.9g, brute %d t=%.9g (prim %u)\n", i, a.hit, a.t,
                    b.hit, b.t, b.primitive);
         bad++;
      }
      *hits += b.hit;
   }
   return bad;
}

uint32_t test_compare_tlas_rays(const void *tlas, const struct bvh_build_input *const *by_instance,
                                uint32_t rays, uint32_t seed, uint32_t *hits)
{
   const struct ppu_bvh_header *th = tlas;
   uint32_t bad = 0, s = seed;
   *hits = 0;
   for (uint32_t i = 0; i < rays; i++) {
      struct test_ray ray;
      test_random_ray(&s, th->bounds_min, th->bounds_max, &ray);
      struct test_hit a, b;
      test_trace(tlas, &ray, &a);
      test_brute_force_tlas(tlas, by_instance, &ray, &b);
      bad += !test_same_hit(&a, &b);
      *hits += b.hit;
   }
   return bad;
}

bool test_bvh_valid(const void *bvh)
{
   char why[256];
   const struct ppu_bvh_header *h = bvh;
   enum bvh_result r = bvh_validate(bvh, h->total_size, why, sizeof(why));
   CHECK_MSG(r == BVH_SUCCESS, "bvh_validate: %s", why);
   return r == BVH_SUCCESS;
}
