/* Ray queries executed on the PPU model's TTU: shaders from
 * tests/compiler/shaders/ray_query_*.comp against acceleration structures
 * written here directly in the hw/include/ppu/bvh.h format (one root node
 * whose children are leaves of one record each; no builder involved), with
 * results worked out by hand from the geometry below.
 *
 * Scene. Bottom level "tris" (triangles):
 *   geometry 0, opaque:     prim 0 (0,0,2) (1,0,2) (0,1,2)
 *                           prim 1 (0,0,4) (0,1,4) (1,0,4)  (opposite winding)
 *                           prim 2 (2,0,2) (3,0,2) (2,1,2)
 *   geometry 1, not opaque: prim 0 (4,0,1) (5,0,1) (4,1,1)
 *                           prim 1 (4,0,3) (5,0,3) (4,1,3)
 * Bottom level "boxes" (AABBs): geometry 0 not opaque, prim 0 [0,1]x[0,1]x[2,3];
 * geometry 1 opaque, prim 0 [2,3]x[0,1]x[2,3].
 * Top levels: instances of those with identity or translated transforms. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compiler_test_util.h"
#include "ppu/bvh.h"
#include "ppu/ray_query.h"
#include "test_harness.h"

/* ---- acceleration structures in the bvh.h format ------------------------ */

struct box {
   float lo[3], hi[3];
};

/* Byte layout of a one-node structure: header, geometry table (one line),
 * the root node, then the records. */
#define AS_GEOMETRY_OFFSET 128u
#define AS_NODE_OFFSET 256u
#define AS_LEAF_OFFSET 384u

static void box_grow(struct box *b, const float p[3])
{
   for (int a = 0; a < 3; a++) {
      b->lo[a] = fminf(b->lo[a], p[a]);
      b->hi[a] = fmaxf(b->hi[a], p[a]);
   }
}

static struct box box_empty(void)
{
   return (struct box){{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}};
}

/* The root: child i is a leaf holding record i. Child boxes are quantized
 * conservatively (bvh.h: lo rounded down, hi rounded up), checked in
 * binary32 as the TTU evaluates them. */
static void write_root(struct ppu_bvh_node *n, const struct box *child, uint32_t count,
                       const struct box *all)
{
   memset(n, 0, sizeof(*n));
   n->child_count = (uint8_t)count;
   n->parent = PPU_BVH_NONE;
   for (unsigned a = 0; a < PPU_BVH_ANCESTORS - 1u; a++)
      n->ancestor[a] = PPU_BVH_NONE; /* the root has none */
   for (int a = 0; a < 3; a++) {
      n->origin[a] = floorf(all->lo[a]) - 1.0f;
      int e = -8;
      while (ldexpf(254.0f, e) < all->hi[a] - n->origin[a] + 1.0f)
         e++;
      n->exponent[a] = (int8_t)e;
      for (uint32_t i = 0; i < count; i++) {
         int lo = (int)floorf(ldexpf(child[i].lo[a] - n->origin[a], -e));
         int hi = (int)ceilf(ldexpf(child[i].hi[a] - n->origin[a], -e));
         while (lo > 0 && n->origin[a] + ldexpf((float)lo, e) > child[i].lo[a])
            lo--;
         while (hi < 255 && n->origin[a] + ldexpf((float)hi, e) < child[i].hi[a])
            hi++;
         n->q_lo[a][i] = (uint8_t)(lo < 0 ? 0 : lo);
         n->q_hi[a][i] = (uint8_t)(hi > 255 ? 255 : hi);
      }
   }
   for (uint32_t i = 0; i < count; i++) {
      n->child_kind[i] = PPU_BVH_CHILD_LEAF;
      n->child_index[i] = (uint8_t)i;
      n->child_records[i] = 1;
   }
}

/* Writes a structure of `count` records (stride bytes each) with the given
 * record boxes; returns its address. */
static uint64_t write_structure(struct ctu *t, enum ppu_bvh_kind kind, const void *records,
                                uint32_t count, uint32_t stride, const struct box *boxes,
                                const struct ppu_bvh_geometry *geometries, uint32_t geometry_count)
{
   uint32_t size = AS_LEAF_OFFSET + count * stride;
   uint8_t *bytes = calloc(1, size);
   if (!bytes)
      return 0;
   struct box all = box_empty();
   for (uint32_t i = 0; i < count; i++) {
      box_grow(&all, boxes[i].lo);
      box_grow(&all, boxes[i].hi);
   }
   struct ppu_bvh_header h = {
       .magic = PPU_BVH_MAGIC,
       .version = PPU_BVH_VERSION,
       .kind = kind,
       .total_size = size,
       .node_offset = AS_NODE_OFFSET,
       .node_count = 1,
       .leaf_offset = AS_LEAF_OFFSET,
       .leaf_count = count,
       .leaf_stride = stride,
       .geometry_offset = AS_GEOMETRY_OFFSET,
       .geometry_count = geometry_count,
       .primitive_count = count,
   };
   memcpy(h.bounds_min, all.lo, sizeof(all.lo));
   memcpy(h.bounds_max, all.hi, sizeof(all.hi));
   memcpy(bytes, &h, sizeof(h));
   if (geometry_count) /* a top level has no geometry table */
      memcpy(bytes + AS_GEOMETRY_OFFSET, geometries, geometry_count * sizeof(*geometries));
   struct ppu_bvh_node root;
   write_root(&root, boxes, count, &all);
   memcpy(bytes + AS_NODE_OFFSET, &root, sizeof(root));
   memcpy(bytes + AS_LEAF_OFFSET, records, (size_t)count * stride);
   uint64_t va = ctu_buffer(t, bytes, size);
   free(bytes);
   return va;
}

static uint64_t triangles_blas(struct ctu *t, struct box *bounds)
{
   static const float v[5][9] = {
       {0, 0, 2, 1, 0, 2, 0, 1, 2}, {0, 0, 4, 0, 1, 4, 1, 0, 4}, {2, 0, 2, 3, 0, 2, 2, 1, 2},
       {4, 0, 1, 5, 0, 1, 4, 1, 1}, {4, 0, 3, 5, 0, 3, 4, 1, 3},
   };
   static const uint32_t geometry[5] = {0, 0, 0, 1, 1}, primitive[5] = {0, 1, 2, 0, 1};
   struct ppu_bvh_triangle tri[5];
   struct box boxes[5];
   *bounds = box_empty();
   memset(tri, 0, sizeof(tri));
   for (int i = 0; i < 5; i++) {
      memcpy(tri[i].v0, &v[i][0], 12);
      memcpy(tri[i].v1, &v[i][3], 12);
      memcpy(tri[i].v2, &v[i][6], 12);
      tri[i].geometry_index = geometry[i];
      tri[i].primitive_index = primitive[i];
      tri[i].flags = geometry[i] == 0 ? PPU_BVH_PRIM_OPAQUE : 0;
      boxes[i] = box_empty();
      for (int k = 0; k < 3; k++)
         box_grow(&boxes[i], &v[i][3 * k]);
      box_grow(bounds, boxes[i].lo);
      box_grow(bounds, boxes[i].hi);
   }
   struct ppu_bvh_geometry g[2] = {{PPU_BVH_GEOMETRY_OPAQUE, 3, 0, 0}, {0, 2, 3, 0}};
   return write_structure(t, PPU_BVH_KIND_TRIANGLES, tri, 5, sizeof(tri[0]), boxes, g, 2);
}

static uint64_t boxes_blas(struct ctu *t, struct box *bounds)
{
   struct ppu_bvh_aabb a[2];
   memset(a, 0, sizeof(a));
   struct box boxes[2] = {{{0, 0, 2}, {1, 1, 3}}, {{2, 0, 2}, {3, 1, 3}}};
   *bounds = box_empty();
   for (int i = 0; i < 2; i++) {
      memcpy(a[i].min, boxes[i].lo, 12);
      memcpy(a[i].max, boxes[i].hi, 12);
      a[i].geometry_index = (uint32_t)i;
      a[i].primitive_index = 0;
      a[i].flags = i == 1 ? PPU_BVH_PRIM_OPAQUE : 0;
      box_grow(bounds, boxes[i].lo);
      box_grow(bounds, boxes[i].hi);
   }
   struct ppu_bvh_geometry g[2] = {{0, 1, 0, 0}, {PPU_BVH_GEOMETRY_OPAQUE, 1, 1, 0}};
   return write_structure(t, PPU_BVH_KIND_AABBS, a, 2, sizeof(a[0]), boxes, g, 2);
}

struct instance_desc {
   uint64_t blas;
   struct box blas_bounds;
   float translate[3];
   uint32_t custom, mask, sbt, flags;
};

/* A top level of instances with translation-only transforms (so the world
 * box of an instance is its bottom level's box moved). */
static uint64_t tlas(struct ctu *t, const struct instance_desc *d, uint32_t count)
{
   struct ppu_bvh_instance inst[8];
   struct box boxes[8];
   memset(inst, 0, sizeof(inst));
   for (uint32_t i = 0; i < count; i++) {
      for (int r = 0; r < 3; r++) {
         inst[i].object_to_world[r][r] = 1.0f;
         inst[i].world_to_object[r][r] = 1.0f;
         inst[i].object_to_world[r][3] = d[i].translate[r];
         inst[i].world_to_object[r][3] = -d[i].translate[r];
         boxes[i].lo[r] = d[i].blas_bounds.lo[r] + d[i].translate[r];
         boxes[i].hi[r] = d[i].blas_bounds.hi[r] + d[i].translate[r];
      }
      inst[i].blas_address = d[i].blas;
      inst[i].custom_index_and_mask = d[i].custom | d[i].mask << 24;
      inst[i].sbt_offset_and_flags = d[i].sbt | d[i].flags << 24;
      inst[i].instance_index = i;
   }
   return write_structure(t, PPU_BVH_KIND_INSTANCES, inst, count, sizeof(inst[0]), boxes, NULL, 0);
}

/* ---- the cases ------------------------------------------------------------ */

struct ray {
   float origin[3], tmin, dir[3], tmax;
   uint32_t flags, confirm, cull_mask, pad;
};

static float f32(uint32_t bits)
{
   float f;
   memcpy(&f, &bits, 4);
   return f;
}

static void bind_accel(struct ctu_dispatch *d, uint32_t binding, uint32_t element, uint64_t va)
{
   ctu_bind(d, 0, binding, va, 0);
   d->bindings[d->binding_count - 1].acceleration_structure = true;
   d->bindings[d->binding_count - 1].element = element;
}

/* Runs ray_query_closest_hit on 8 rays; out: 64 words per ray. */
static bool closest_hit(struct ctu *t, uint64_t scene, const struct ray rays[8], uint32_t *out)
{
   uint64_t rb = ctu_buffer(t, rays, 8 * sizeof(struct ray)), ob = ctu_buffer(t, NULL, 8 * 256);
   struct ctu_dispatch d = {.shader = "ray_query_closest_hit", .groups = {1}};
   bind_accel(&d, 0, 0, scene);
   ctu_bind(&d, 0, 1, rb, 8 * sizeof(struct ray));
   ctu_bind(&d, 0, 2, ob, 8 * 256);
   if (!ctu_run(t, &d))
      return false;
   ctu_read(t, ob, out, 8 * 256);
   return true;
}

static uint64_t triangle_scene(struct ctu *t)
{
   struct box b;
   uint64_t blas = triangles_blas(t, &b);
   struct instance_desc inst[2] = {{blas, b, {0, 0, 0}, 7, 0x01, 3, 0},
                                   {blas, b, {10, 0, 0}, 9, 0x02, 5, 0}};
   return tlas(t, inst, 2);
}

#define RAY_Z(x, y, z, tmax_, flags_, confirm_, mask_)                                             \
   {                                                                                               \
      {x, y, z}, 0.0f, {0, 0, 1}, tmax_, flags_, confirm_, mask_, 0                                \
   }

TEST_CASE(committed_triangle_hits_report_every_getter)
{
   struct ctu t;
   REQUIRE(ctu_init(&t));
   uint64_t scene = triangle_scene(&t);
   static const struct ray rays[8] = {
       RAY_Z(0.25f, 0.125f, 0, 100, 0, 0, 0xff),  /* prim 0 at t 2 */
       RAY_Z(0.25f, 0.125f, 3, 100, 0, 0, 0xff),  /* prim 1 at t 1 */
       RAY_Z(0.25f, 0.125f, 0, 1.5f, 0, 0, 0xff), /* tmax before prim 0: miss */
       RAY_Z(4.25f, 0.125f, 0, 100, 0, 1, 0xff),  /* non-opaque, confirmed */
       RAY_Z(4.25f, 0.125f, 0, 100, 0, 0, 0xff),  /* non-opaque, ignored: miss */
       RAY_Z(10.25f, 0.125f, 0, 100, 0, 0, 0xff), /* translated instance 1 */
       RAY_Z(10.25f, 0.125f, 0, 100, 0, 0, 0x01), /* instance 1 masked out */
       RAY_Z(4.25f, 0.125f, 0, 100, PPU_RAY_FLAG_OPAQUE, 0, 0xff),
   };
   static uint32_t o[8 * 64];
   REQUIRE(closest_hit(&t, scene, rays, o));
   struct want {
      uint32_t type;
      float t, u, v;
      uint32_t custom, id, sbt, geometry, primitive;
   } want[8] = {
       {1, 2, 0.25f, 0.125f, 7, 0, 3, 0, 0}, {1, 1, 0.125f, 0.25f, 7, 0, 3, 0, 1},
       {0, 1.5f, 0, 0, 0, 0, 0, 0, 0},       {1, 1, 0.25f, 0.125f, 7, 0, 3, 1, 0},
       {0, 100, 0, 0, 0, 0, 0, 0, 0},        {1, 2, 0.25f, 0.125f, 9, 1, 5, 0, 0},
       {0, 100, 0, 0, 0, 0, 0, 0, 0},        {1, 1, 0.25f, 0.125f, 7, 0, 3, 1, 0},
   };
   for (int i = 0; i < 8; i++) {
      const uint32_t *r = &o[i * 64];
      const struct want *w = &want[i];
      CHECK_MSG(r[0] == w->type && ctu_float_near(f32(r[1]), w->t, 1), "ray %d: type %u t %g", i,
                r[0], f32(r[1]));
      if (w->type)
         CHECK_MSG(ctu_float_near(f32(r[2]), w->u, 4) && ctu_float_near(f32(r[3]), w->v, 4) &&
                       r[4] == w->custom && r[5] == w->id && r[6] == w->sbt &&
                       r[7] == w->geometry && r[8] == w->primitive,
                   "ray %d: bary %g %g custom %u id %u sbt %u geometry %u primitive %u", i,
                   f32(r[2]), f32(r[3]), r[4], r[5], r[6], r[7], r[8]);
      /* Ray getters give back what Initialize stored. */
      CHECK_MSG(f32(r[11]) == rays[i].tmin && r[12] == rays[i].flags, "ray %d: tmin/flags", i);
      for (int k = 0; k < 3; k++)
         CHECK_MSG(f32(r[24 + k]) == rays[i].origin[k] && f32(r[28 + k]) == rays[i].dir[k],
                   "ray %d: world ray component %d", i, k);
   }
   /* Candidates: opaque triangles never reach the shader; the two
    * non-opaque ones do unless OPAQUE forces them; confirming the nearer
    * one may hide the farther. */
   CHECK(o[0 * 64 + 10] == 0 && o[5 * 64 + 10] == 0 && o[7 * 64 + 10] == 0);
   CHECK_MSG(o[4 * 64 + 10] == 2, "ignored candidates: %u", o[4 * 64 + 10]);
   CHECK_MSG(o[3 * 64 + 10] >= 1 && o[3 * 64 + 10] <= 2, "confirmed: %u", o[3 * 64 + 10]);
   /* prim 0 and prim 1 are wound oppositely and seen from the same side. */
   CHECK_MSG(o[0 * 64 + 9] != o[1 * 64 + 9], "front faces %u %u", o[9], o[64 + 9]);
   /* Object space and matrices: instance 1 is moved by +10 in x. */
   const uint32_t *r5 = &o[5 * 64], *r0 = &o[0];
   CHECK(f32(r5[16]) == 0.25f && f32(r5[17]) == 0.125f && f32(r5[18]) == 0.0f);
   CHECK(f32(r5[20]) == 0.0f && f32(r5[21]) == 0.0f && f32(r5[22]) == 1.0f);
   for (int c = 0; c < 4; c++)
      for (int e = 0; e < 3; e++) {
         float id = c == e ? 1.0f : 0.0f;
         float o2w = c == 3 && e == 0 ? 10.0f : id, w2o = c == 3 && e == 0 ? -10.0f : id;
         CHECK_MSG(f32(r5[32 + c * 3 + e]) == o2w && f32(r5[44 + c * 3 + e]) == w2o &&
                       f32(r0[32 + c * 3 + e]) == id && f32(r0[44 + c * 3 + e]) == id,
                   "matrix column %d row %d: %g %g", c, e, f32(r5[32 + c * 3 + e]),
                   f32(r5[44 + c * 3 + e]));
      }
   ctu_finish(&t);
}

TEST_CASE(cull_back_facing_keeps_only_front_facing_hits)
{
   struct ctu t;
   REQUIRE(ctu_init(&t));
   uint64_t scene = triangle_scene(&t);
   struct ray rays[8];
   for (int i = 0; i < 8; i++)
      rays[i] = (struct ray)RAY_Z(0.25f, 0.125f, 0, 100, 0, 0, 0xff);
   rays[1].flags = PPU_RAY_FLAG_CULL_BACK_FACING;
   rays[2].flags = PPU_RAY_FLAG_CULL_FRONT_FACING;
   static uint32_t o[8 * 64];
   REQUIRE(closest_hit(&t, scene, rays, o));
   /* Without culling the ray meets prim 0 at t 2 first, then prim 1 (wound
    * the other way) at t 4; culling one facing leaves the other. */
   bool prim0_front = o[9] != 0;
   CHECK(o[0] == 1 && o[8] == 0);
   CHECK_MSG(o[64 + 0] == 1 && o[64 + 9] == 1 && o[64 + 8] == (prim0_front ? 0u : 1u),
             "cull back: type %u primitive %u front %u", o[64], o[64 + 8], o[64 + 9]);
   CHECK_MSG(o[128 + 0] == 1 && o[128 + 9] == 0 && o[128 + 8] == (prim0_front ? 1u : 0u),
             "cull front: type %u primitive %u front %u", o[128], o[128 + 8], o[128 + 9]);
   ctu_finish(&t);
}

struct aabb_ray {
   float origin[3], tmin, dir[3], tmax, generate_t;
   uint32_t flags, pad[2];
};

TEST_CASE(aabb_candidates_are_committed_by_generate)
{
   struct ctu t;
   REQUIRE(ctu_init(&t));
   struct box b;
   uint64_t blas = boxes_blas(&t, &b);
   struct instance_desc inst = {blas, b, {0, 0, 0}, 4, 0xff, 0, 0};
   uint64_t scene = tlas(&t, &inst, 1);
   static const struct aabb_ray rays[4] = {
       {{0.5f, 0.5f, 0}, 0, {0, 0, 1}, 100, 2.5f, 0, {0}},
       {{2.5f, 0.5f, 0}, 0, {0, 0, 1}, 100, 2.25f, 0, {0}},
       {{0.5f, 0.5f, 0}, 0, {0, 0, 1}, 100, 200.0f, 0, {0}}, /* beyond tmax: not generated */
       {{0.5f, 0.5f, 0}, 0, {0, 0, 1}, 100, 2.5f, PPU_RAY_FLAG_SKIP_AABBS, {0}},
   };
   uint64_t rb = ctu_buffer(&t, rays, sizeof(rays)), ob = ctu_buffer(&t, NULL, 4 * 64);
   struct ctu_dispatch d = {.shader = "ray_query_aabb_generate", .groups = {1}};
   bind_accel(&d, 0, 0, scene);
   ctu_bind(&d, 0, 1, rb, sizeof(rays));
   ctu_bind(&d, 0, 2, ob, 4 * 64);
   REQUIRE(ctu_run(&t, &d));
   uint32_t o[4 * 16];
   ctu_read(&t, ob, o, sizeof(o));
   /* type, t, aabbs, opaque, candidate primitive, geometry, custom, committed primitive */
   CHECK_MSG(o[0] == PPU_RQ_COMMITTED_GENERATED && f32(o[1]) == 2.5f && o[2] == 1 && o[3] == 0 &&
                 o[4] == 0 && o[5] == 0 && o[6] == 4 && o[7] == 0,
             "ray 0: type %u t %g aabbs %u opaque %u geometry %u custom %u", o[0], f32(o[1]), o[2],
             o[3], o[5], o[6]);
   CHECK_MSG(o[16] == PPU_RQ_COMMITTED_GENERATED && f32(o[17]) == 2.25f && o[18] == 1 &&
                 o[19] == 1 && o[21] == 1,
             "ray 1: type %u t %g aabbs %u opaque %u geometry %u", o[16], f32(o[17]), o[18], o[19],
             o[21]);
   CHECK_MSG(o[32] == PPU_RQ_COMMITTED_NONE && f32(o[33]) == 100.0f && o[34] == 1,
             "ray 2: type %u t %g aabbs %u", o[32], f32(o[33]), o[34]);
   CHECK_MSG(o[48] == PPU_RQ_COMMITTED_NONE && o[50] == 0, "ray 3: type %u aabbs %u", o[48], o[50]);
   ctu_finish(&t);
}

TEST_CASE(terminate_ends_traversal_and_keeps_the_confirmed_hit)
{
   struct ctu t;
   REQUIRE(ctu_init(&t));
   struct box b;
   uint64_t blas = triangles_blas(&t, &b);
   /* tlas[1] forces the opaque triangles to be candidates. */
   struct instance_desc plain = {blas, b, {0, 0, 0}, 0, 0xff, 0, 0};
   struct instance_desc forced = {blas, b, {0, 0, 0}, 0, 0xff, 0, PPU_BVH_INSTANCE_FORCE_NO_OPAQUE};
   uint64_t scene0 = tlas(&t, &plain, 1), scene1 = tlas(&t, &forced, 1);
   float io[8 + 16] = {0.25f, 0.125f, 0, 0, 0, 0, 1, 100};
   uint64_t iob = ctu_buffer(&t, io, sizeof(io));
   struct ctu_dispatch d = {.shader = "ray_query_terminate", .groups = {1}};
   bind_accel(&d, 0, 0, scene0);
   bind_accel(&d, 0, 1, scene1);
   ctu_bind(&d, 0, 1, iob, sizeof(io));
   REQUIRE(ctu_run(&t, &d));
   uint32_t o[16];
   ctu_read(&t, iob + 32, o, sizeof(o));
   for (int i = 0; i < 4; i++) {
      const uint32_t *r = &o[4 * i];
      bool forced_lane = i & 1;
      /* steps, Proceed after the loop, committed type, primitive */
      CHECK_MSG(r[0] == (forced_lane ? 1u : 0u) && r[1] == 0 && r[2] == 1 &&
                    (forced_lane ? r[3] <= 1 : r[3] == 0),
                "lane %d: steps %u again %u type %u primitive %u", i, r[0], r[1], r[2], r[3]);
   }
   ctu_finish(&t);
}

TEST_CASE(acceleration_structure_from_a_device_address)
{
   struct ctu t;
   REQUIRE(ctu_init(&t));
   uint64_t scene = triangle_scene(&t);
   uint64_t ob = ctu_buffer(&t, NULL, 64);
   struct ctu_dispatch d = {
       .shader = "ray_query_convert", .groups = {1}, .push = &scene, .push_size = sizeof(scene)};
   ctu_bind(&d, 0, 0, ob, 64);
   REQUIRE(ctu_run(&t, &d));
   uint32_t o[2];
   ctu_read(&t, ob, o, sizeof(o));
   CHECK_MSG(o[0] == 1 && f32(o[1]) == 3.0f, "type %u t %g", o[0], f32(o[1]));
   ctu_finish(&t);
}

/* Position fetch (ray_query_positions.spvasm): the committed and the
 * candidate triangle's v0, v1, v2 exactly as the records hold them, in
 * their order (prim 1 has the opposite winding), in object space (the
 * translated instance 1 gives the same vertices). */
TEST_CASE(triangle_vertex_positions_of_committed_and_candidate_hits)
{
   struct ctu t;
   REQUIRE(ctu_init(&t));
   uint64_t scene = triangle_scene(&t);
   static const struct ray rays[8] = {
       RAY_Z(0.25f, 0.125f, 0, 100, 0, 0, 0xff),  /* prim 0 at t 2 */
       RAY_Z(0.25f, 0.125f, 3, 100, 0, 0, 0xff),  /* prim 1 at t 1 */
       RAY_Z(0.25f, 0.125f, 0, 1.5f, 0, 0, 0xff), /* miss: zeros */
       RAY_Z(4.25f, 0.125f, 0, 100, 0, 1, 0xff),  /* geometry 1 prim 0, confirmed */
       RAY_Z(4.25f, 0.125f, 2, 100, 0, 0, 0xff),  /* geometry 1 prim 1, a candidate only */
       RAY_Z(10.25f, 0.125f, 0, 100, 0, 0, 0xff), /* instance 1 (translated): prim 0 */
       RAY_Z(2.25f, 0.125f, 0, 100, 0, 0, 0xff),  /* prim 2 */
       RAY_Z(10.25f, 0.125f, 3, 100, 0, 0, 0xff), /* instance 1: prim 1 */
   };
   static const float p0[9] = {0, 0, 2, 1, 0, 2, 0, 1, 2}, p1[9] = {0, 0, 4, 0, 1, 4, 1, 0, 4},
                      p2[9] = {2, 0, 2, 3, 0, 2, 2, 1, 2}, g10[9] = {4, 0, 1, 5, 0, 1, 4, 1, 1},
                      g11[9] = {4, 0, 3, 5, 0, 3, 4, 1, 3}, zero[9] = {0};
   const float *committed[8] = {p0, p1, zero, g10, zero, p0, p2, p1};
   const float *candidate[8] = {NULL, NULL, NULL, g10, g11, NULL, NULL, NULL};
   uint64_t rb = ctu_buffer(&t, rays, sizeof(rays)), ob = ctu_buffer(&t, NULL, 8 * 32 * 4);
   struct ctu_dispatch d = {.shader = "ray_query_positions", .groups = {1}};
   bind_accel(&d, 0, 0, scene);
   ctu_bind(&d, 0, 1, rb, sizeof(rays));
   ctu_bind(&d, 0, 2, ob, 8 * 32 * 4);
   REQUIRE(ctu_run(&t, &d));
   static float o[8 * 32];
   ctu_read(&t, ob, o, sizeof(o));
   for (int i = 0; i < 8; i++) {
      CHECK_MSG(memcmp(&o[i * 32], committed[i], 36) == 0,
                "ray %d committed: (%g %g %g) (%g %g %g) (%g %g %g)", i, o[i * 32], o[i * 32 + 1],
                o[i * 32 + 2], o[i * 32 + 3], o[i * 32 + 4], o[i * 32 + 5], o[i * 32 + 6],
                o[i * 32 + 7], o[i * 32 + 8]);
      if (candidate[i])
         CHECK_MSG(memcmp(&o[i * 32 + 16], candidate[i], 36) == 0,
                   "ray %d candidate: (%g %g %g) (%g %g %g) (%g %g %g)", i, o[i * 32 + 16],
                   o[i * 32 + 17], o[i * 32 + 18], o[i * 32 + 19], o[i * 32 + 20], o[i * 32 + 21],
                   o[i * 32 + 22], o[i * 32 + 23], o[i * 32 + 24]);
   }
   ctu_finish(&t);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
