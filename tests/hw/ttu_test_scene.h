/* Test-only helpers for the TTU tests: a tiny recursive-median BVH writer
 * for the ppu/bvh.h format, a two-level scene of random triangles or AABBs
 * with instance transforms, the ray-query program the tests run, and a
 * brute-force reference written from the Vulkan ray traversal rules.
 *
 * The builder is deliberately simple (median splits, no SAH) and exists only
 * so the TTU can be tested without the driver's builder (driver/bvh/).
 * Everything is static inline: each test file uses a different subset.
 */
#ifndef TTU_TEST_SCENE_H
#define TTU_TEST_SCENE_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compute_test_util.h"
#include "ppu/bvh.h"
#include "ppu/ray_query.h"
#include "test_harness.h"

/* --- The chip ------------------------------------------------------------- */

/* TTU_TEST_BEAMS=1 in the environment (the tests' .beams variants): warp
 * beams on (ttu.beam.enabled), so the same checks run with the beam walk
 * reading every structure first. */
static inline bool ts_beams_on(void)
{
   const char *v = getenv("TTU_TEST_BEAMS");
   return v && strcmp(v, "1") == 0;
}

static inline bool ts_chip_init(struct hwc *h)
{
   struct ppu_gpu_config cfg;
   ppu_gpu_config_default(&cfg);
   cfg.vram_size = 256ull << 20; /* as hwc_init's own default */
   cfg.max_channels = 16;
   cfg.ttu_beam_enabled = ts_beams_on();
   return hwc_init(h, &cfg);
}

/* --- BVH writer ----------------------------------------------------------- */

struct tb_item {
   float lo[3], hi[3];
   uint32_t record; /* index into the caller's record array */
};

struct tb_builder {
   uint32_t leaf_max; /* records per leaf child (<= PPU_BVH_MAX_LEAF_RECORDS) */
   uint32_t stride;
   const uint8_t *src;
   struct ppu_bvh_node *nodes;
   uint32_t node_count;
   uint8_t *records;
   uint32_t record_count;
   uint32_t max_depth;
   unsigned sort_axis;
};

static inline void tb_union(const struct tb_item *it, uint32_t n, float lo[3], float hi[3])
{
   for (unsigned a = 0; a < 3; a++) {
      lo[a] = INFINITY;
      hi[a] = -INFINITY;
   }
   for (uint32_t i = 0; i < n; i++)
      for (unsigned a = 0; a < 3; a++) {
         lo[a] = fminf(lo[a], it[i].lo[a]);
         hi[a] = fmaxf(hi[a], it[i].hi[a]);
      }
}

static _Thread_local unsigned tb_axis;
static inline int tb_cmp(const void *x, const void *y)
{
   const struct tb_item *a = x, *b = y;
   float ca = a->lo[tb_axis] + a->hi[tb_axis], cb = b->lo[tb_axis] + b->hi[tb_axis];
   return ca < cb ? -1 : ca > cb ? 1 : (int)a->record - (int)b->record;
}

/* Splits [0, n) into up to 8 groups by repeated median splits of the
 * largest group along its longest centroid axis. */
static inline unsigned tb_partition(struct tb_builder *b, struct tb_item *it, uint32_t n,
                                    uint32_t first[8], uint32_t size[8])
{
   unsigned groups = 1;
   first[0] = 0;
   size[0] = n;
   while (groups < PPU_BVH_WIDTH) {
      unsigned g = 0;
      for (unsigned i = 1; i < groups; i++)
         if (size[i] > size[g])
            g = i;
      if (size[g] <= b->leaf_max)
         break;
      struct tb_item *s = it + first[g];
      float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
      for (uint32_t i = 0; i < size[g]; i++)
         for (unsigned a = 0; a < 3; a++) {
            float c = s[i].lo[a] + s[i].hi[a];
            lo[a] = fminf(lo[a], c);
            hi[a] = fmaxf(hi[a], c);
         }
      tb_axis = 0;
      for (unsigned a = 1; a < 3; a++)
         if (hi[a] - lo[a] > hi[tb_axis] - lo[tb_axis])
            tb_axis = a;
      qsort(s, size[g], sizeof(*s), tb_cmp);
      uint32_t half = size[g] / 2;
      first[groups] = first[g] + half;
      size[groups] = size[g] - half;
      size[g] = half;
      groups++;
   }
   return groups;
}

/* Quantizes child boxes against the node grid so that, evaluated in binary32
 * as ppu/bvh.h says, each decoded box contains the exact one. */
static inline void tb_quantize(struct ppu_bvh_node *n, float clo[8][3], float chi[8][3], unsigned k)
{
   float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
   for (unsigned i = 0; i < k; i++)
      for (unsigned a = 0; a < 3; a++) {
         lo[a] = fminf(lo[a], clo[i][a]);
         hi[a] = fmaxf(hi[a], chi[i][a]);
      }
   for (unsigned a = 0; a < 3; a++) {
      n->origin[a] = lo[a];
      double ext = (double)hi[a] - lo[a];
      int e = ext > 0 ? (int)ceil(log2(ext / 250.0)) : -100;
      for (;; e++) {
         bool ok = true;
         for (unsigned i = 0; i < k && ok; i++) {
            double ql = floor(((double)clo[i][a] - lo[a]) / ldexp(1, e));
            double qh = ceil(((double)chi[i][a] - lo[a]) / ldexp(1, e));
            int l = ql < 0 ? 0 : ql > 255 ? 255 : (int)ql;
            int h = qh < 0 ? 0 : qh > 255 ? 255 : (int)qh;
            while (l > 0 && lo[a] + ldexpf((float)l, e) > clo[i][a])
               l--;
            while (h < 255 && lo[a] + ldexpf((float)h, e) < chi[i][a])
               h++;
            ok = lo[a] + ldexpf((float)l, e) <= clo[i][a] &&
                 lo[a] + ldexpf((float)h, e) >= chi[i][a];
            n->q_lo[a][i] = (uint8_t)l;
            n->q_hi[a][i] = (uint8_t)h;
         }
         if (ok)
            break;
      }
      n->exponent[a] = (int8_t)e;
   }
}

static inline void tb_node(struct tb_builder *b, uint32_t index, uint32_t parent, uint32_t depth,
                           struct tb_item *it, uint32_t n)
{
   uint32_t first[8], size[8];
   unsigned groups = tb_partition(b, it, n, first, size);
   struct ppu_bvh_node *node = &b->nodes[index];
   memset(node, 0, sizeof(*node));
   node->child_count = (uint8_t)groups;
   node->parent = parent;
   node->depth = depth;
   /* Ancestors 2..7: the parent's list shifted by one (the parent is
    * written before its children). */
   for (unsigned a = 0; a < PPU_BVH_ANCESTORS - 1u; a++)
      node->ancestor[a] = parent == PPU_BVH_NONE ? PPU_BVH_NONE
                          : a == 0               ? b->nodes[parent].parent
                                                 : b->nodes[parent].ancestor[a - 1];
   node->internal_base = b->node_count;
   node->leaf_base = b->record_count;
   if (depth > b->max_depth)
      b->max_depth = depth;
   float clo[8][3], chi[8][3];
   unsigned internal = 0;
   for (unsigned g = 0; g < groups; g++) {
      tb_union(it + first[g], size[g], clo[g], chi[g]);
      if (size[g] > b->leaf_max) {
         node->child_kind[g] = PPU_BVH_CHILD_INTERNAL;
         node->child_index[g] = (uint8_t)internal++;
      } else {
         node->child_kind[g] = PPU_BVH_CHILD_LEAF;
         node->child_index[g] = (uint8_t)(b->record_count - node->leaf_base);
         node->child_records[g] = (uint8_t)size[g];
         for (uint32_t i = 0; i < size[g]; i++)
            memcpy(b->records + (size_t)b->record_count++ * b->stride,
                   b->src + (size_t)it[first[g] + i].record * b->stride, b->stride);
      }
   }
   tb_quantize(node, clo, chi, groups);
   uint32_t base = b->node_count;
   b->node_count += internal;
   internal = 0;
   for (unsigned g = 0; g < groups; g++)
      if (size[g] > b->leaf_max)
         tb_node(b, base + internal++, index, depth + 1, it + first[g], size[g]);
}

/* Writes a structure of `count` records (each `stride` bytes at src, with
 * boxes lo/hi) into fresh GPU memory; returns the header's VA. */
static inline uint64_t tb_build(struct hwc *h, uint32_t kind, const void *src, uint32_t stride,
                                uint32_t count, const float (*lo)[3], const float (*hi)[3],
                                uint32_t leaf_max)
{
   struct tb_builder b = {.leaf_max = leaf_max, .stride = stride, .src = src};
   struct tb_item *it = calloc(count ? count : 1, sizeof(*it));
   b.nodes = calloc(2 * count + 2, sizeof(*b.nodes));
   b.records = calloc(count ? count : 1, stride);
   for (uint32_t i = 0; i < count; i++) {
      memcpy(it[i].lo, lo[i], sizeof(it[i].lo));
      memcpy(it[i].hi, hi[i], sizeof(it[i].hi));
      it[i].record = i;
   }
   struct ppu_bvh_header hd = {.magic = PPU_BVH_MAGIC, .version = PPU_BVH_VERSION, .kind = kind};
   if (count) {
      b.node_count = 1;
      tb_node(&b, 0, PPU_BVH_NONE, 0, it, count);
      tb_union(it, count, hd.bounds_min, hd.bounds_max);
   }
   hd.geometry_offset = 128;
   hd.geometry_count = 1;
   hd.node_offset = 256;
   hd.node_count = b.node_count;
   hd.leaf_offset = 256 + b.node_count * PPU_BVH_NODE_BYTES;
   hd.leaf_count = b.record_count;
   hd.leaf_stride = stride;
   hd.primitive_count = count;
   hd.max_depth = b.max_depth;
   hd.total_size = hd.leaf_offset + (uint64_t)b.record_count * stride;
   uint64_t va = hwt_alloc_mapped(&h->t, hd.total_size, true);
   struct ppu_bvh_geometry geo = {.flags = 0, .primitive_count = count};
   hwt_write(&h->t.mem, h->t.pd, va, &hd, sizeof(hd));
   hwt_write(&h->t.mem, h->t.pd, va + 128, &geo, sizeof(geo));
   hwt_write(&h->t.mem, h->t.pd, va + 256, b.nodes, (uint64_t)b.node_count * PPU_BVH_NODE_BYTES);
   hwt_write(&h->t.mem, h->t.pd, va + hd.leaf_offset, b.records, (uint64_t)b.record_count * stride);
   free(it);
   free(b.nodes);
   free(b.records);
   return va;
}

/* --- Scenes ---------------------------------------------------------------- */

#define TS_MAX_PRIMS 512
#define TS_MAX_INSTANCES 8

static inline float ts_rand(uint64_t *s, float lo, float hi)
{
   *s = *s * 6364136223846793005ull + 1442695040888963407ull;
   return lo + (hi - lo) * (float)((*s >> 40) / 16777216.0);
}

struct ts_blas {
   uint64_t va;
   uint32_t kind, count;
   struct ppu_bvh_triangle tri[TS_MAX_PRIMS];
   struct ppu_bvh_aabb box[TS_MAX_PRIMS];
   float lo[TS_MAX_PRIMS][3], hi[TS_MAX_PRIMS][3];
   float bmin[3], bmax[3];
};

struct ts_scene {
   uint64_t tlas;
   uint32_t instance_count;
   struct ppu_bvh_instance inst[TS_MAX_INSTANCES];
   const struct ts_blas *blas[TS_MAX_INSTANCES];
   uint64_t inst_va[TS_MAX_INSTANCES]; /* VA of each instance record in the TLAS */
};

/* Random triangles in [-1, 1]^3 (edges up to ~0.6); every third one OPAQUE
 * unless all_opaque, geometry index = primitive index % 3. */
static inline void ts_random_triangles(struct hwc *h, struct ts_blas *b, uint32_t n, uint64_t seed,
                                       bool all_opaque)
{
   b->kind = PPU_BVH_KIND_TRIANGLES;
   b->count = n;
   for (uint32_t i = 0; i < n; i++) {
      struct ppu_bvh_triangle *t = &b->tri[i];
      memset(t, 0, sizeof(*t));
      float c[3] = {ts_rand(&seed, -1, 1), ts_rand(&seed, -1, 1), ts_rand(&seed, -1, 1)};
      float *v[3] = {t->v0, t->v1, t->v2};
      for (unsigned k = 0; k < 3; k++)
         for (unsigned a = 0; a < 3; a++)
            v[k][a] = c[a] + ts_rand(&seed, -0.3f, 0.3f);
      t->geometry_index = i % 3;
      t->primitive_index = i;
      t->flags = (all_opaque || i % 3 == 0) ? PPU_BVH_PRIM_OPAQUE : 0;
      for (unsigned a = 0; a < 3; a++) {
         b->lo[i][a] = fminf(t->v0[a], fminf(t->v1[a], t->v2[a]));
         b->hi[i][a] = fmaxf(t->v0[a], fmaxf(t->v1[a], t->v2[a]));
      }
   }
   b->va = tb_build(h, PPU_BVH_KIND_TRIANGLES, b->tri, sizeof(b->tri[0]), n,
                    (const float(*)[3])b->lo, (const float(*)[3])b->hi, 3);
   tb_union(NULL, 0, b->bmin, b->bmax);
   for (uint32_t i = 0; i < n; i++)
      for (unsigned a = 0; a < 3; a++) {
         b->bmin[a] = fminf(b->bmin[a], b->lo[i][a]);
         b->bmax[a] = fmaxf(b->bmax[a], b->hi[i][a]);
      }
}

/* Random boxes in [-1, 1]^3, every other one OPAQUE. */
static inline void ts_random_aabbs(struct hwc *h, struct ts_blas *b, uint32_t n, uint64_t seed)
{
   b->kind = PPU_BVH_KIND_AABBS;
   b->count = n;
   for (unsigned a = 0; a < 3; a++) {
      b->bmin[a] = INFINITY;
      b->bmax[a] = -INFINITY;
   }
   for (uint32_t i = 0; i < n; i++) {
      struct ppu_bvh_aabb *x = &b->box[i];
      memset(x, 0, sizeof(*x));
      for (unsigned a = 0; a < 3; a++) {
         float c = ts_rand(&seed, -1, 1), r = ts_rand(&seed, 0.02f, 0.2f);
         x->min[a] = b->lo[i][a] = c - r;
         x->max[a] = b->hi[i][a] = c + r;
         b->bmin[a] = fminf(b->bmin[a], c - r);
         b->bmax[a] = fmaxf(b->bmax[a], c + r);
      }
      x->geometry_index = 7;
      x->primitive_index = i;
      x->flags = i % 2 ? PPU_BVH_PRIM_OPAQUE : 0;
   }
   b->va = tb_build(h, PPU_BVH_KIND_AABBS, b->box, sizeof(b->box[0]), n, (const float(*)[3])b->lo,
                    (const float(*)[3])b->hi, 2);
}

/* object_to_world = translate * rotate(axis, angle) * scale; the inverse is
 * computed in double. */
static inline void ts_transform(struct ppu_bvh_instance *in, const float axis[3], float angle,
                                const float scale[3], const float move[3])
{
   double n =
       sqrt((double)axis[0] * axis[0] + (double)axis[1] * axis[1] + (double)axis[2] * axis[2]);
   double x = axis[0] / n, y = axis[1] / n, z = axis[2] / n, c = cos(angle), s = sin(angle);
   double r[3][3] = {{c + x * x * (1 - c), x * y * (1 - c) - z * s, x * z * (1 - c) + y * s},
                     {y * x * (1 - c) + z * s, c + y * y * (1 - c), y * z * (1 - c) - x * s},
                     {z * x * (1 - c) - y * s, z * y * (1 - c) + x * s, c + z * z * (1 - c)}};
   for (unsigned i = 0; i < 3; i++) {
      for (unsigned j = 0; j < 3; j++) {
         in->object_to_world[i][j] = (float)(r[i][j] * scale[j]);
         /* inverse: S^-1 R^T */
         in->world_to_object[i][j] = (float)(r[j][i] / scale[i]);
      }
      in->object_to_world[i][3] = move[i];
   }
   for (unsigned i = 0; i < 3; i++) {
      double t = 0;
      for (unsigned j = 0; j < 3; j++)
         t -= (r[j][i] / scale[i]) * move[j];
      in->world_to_object[i][3] = (float)t;
   }
}

/* Builds the TLAS over the scene's instances (their records filled in by
 * the caller, blas_address included). Instance boxes are the BLAS bounds
 * transformed to world space, widened a little to stay conservative. */
static inline void ts_build_tlas(struct hwc *h, struct ts_scene *s)
{
   float lo[TS_MAX_INSTANCES][3], hi[TS_MAX_INSTANCES][3];
   for (uint32_t i = 0; i < s->instance_count; i++) {
      const struct ts_blas *b = s->blas[i];
      for (unsigned a = 0; a < 3; a++) {
         lo[i][a] = INFINITY;
         hi[i][a] = -INFINITY;
      }
      for (unsigned c = 0; c < 8; c++) {
         double p[3] = {c & 1 ? b->bmax[0] : b->bmin[0], c & 2 ? b->bmax[1] : b->bmin[1],
                        c & 4 ? b->bmax[2] : b->bmin[2]};
         for (unsigned a = 0; a < 3; a++) {
            double w = s->inst[i].object_to_world[a][3];
            for (unsigned k = 0; k < 3; k++)
               w += (double)s->inst[i].object_to_world[a][k] * p[k];
            lo[i][a] = fminf(lo[i][a], (float)w - 1e-3f);
            hi[i][a] = fmaxf(hi[i][a], (float)w + 1e-3f);
         }
      }
      s->inst[i].instance_index = i;
   }
   s->tlas = tb_build(h, PPU_BVH_KIND_INSTANCES, s->inst, sizeof(s->inst[0]), s->instance_count,
                      (const float(*)[3])lo, (const float(*)[3])hi, 1);
   /* Find where each record landed (the builder reorders them). */
   struct ppu_bvh_header hd;
   hwt_read(&h->t.mem, h->t.pd, s->tlas, &hd, sizeof(hd));
   for (uint32_t r = 0; r < hd.leaf_count; r++) {
      struct ppu_bvh_instance in;
      uint64_t va = s->tlas + hd.leaf_offset + (uint64_t)r * hd.leaf_stride;
      hwt_read(&h->t.mem, h->t.pd, va, &in, sizeof(in));
      s->inst_va[in.instance_index] = va;
   }
}

/* A scene of one identity instance of b (mask 0xff), its TLAS built. */
static inline void ts_one_instance_scene(struct hwc *h, struct ts_scene *s, const struct ts_blas *b)
{
   memset(s, 0, sizeof(*s));
   const float axis[3] = {0, 0, 1}, one[3] = {1, 1, 1}, zero[3] = {0, 0, 0};
   ts_transform(&s->inst[0], axis, 0, one, zero);
   s->inst[0].blas_address = b->va;
   s->inst[0].custom_index_and_mask = 0xffu << 24;
   s->blas[0] = b;
   s->instance_count = 1;
   ts_build_tlas(h, s);
}

/* --- The ray-query program -------------------------------------------------
 * Thread i reads ray i (48 bytes: the first 48 bytes of the ray-query object)
 * from the buffer at c[0][8], runs INIT and a PROCEED loop, and writes the
 * committed hit, the number of candidates it saw and the final state to
 * out + i * 128. A candidate whose primitive index p has p % c[0][16] !=
 * c[0][20] is accepted: a triangle is CONFIRMed, an AABB GENERATEd at its
 * candidate t. */
struct ts_ray {
   uint64_t tlas;
   uint32_t flags, cull_mask;
   float org[3], tmin, dir[3], tmax;
};
_Static_assert(sizeof(struct ts_ray) == PPU_RQ_OFFSET_STATE, "ray record = object prefix");

struct ts_result {
   struct ppu_ray_query_hit committed;
   uint32_t candidates;
   uint32_t state;
   uint32_t pad[6];
};
_Static_assert(sizeof(struct ts_result) == 128, "result record");

#define TS_PROGRAM_PROLOGUE                                                                        \
   "S2R R0, SR_TID_FLAT\nS2R R1, SR_CTAID_X\nS2R R2, SR_NTID_X\nIMAD.U32 R0, R1, R2, R0\n"         \
   "LDC.U64 R4, c[0][RZ+8]\nIMADW.U32 R4, R0, 48, R4\n"                                            \
   "LD.GLOBAL.B128 R8, [R4]\nLD.GLOBAL.B128 R12, [R4+16]\nLD.GLOBAL.B128 R16, [R4+32]\n"           \
   "ST.LOCAL.B128 [RZ], R8\nST.LOCAL.B128 [RZ+16], R12\nST.LOCAL.B128 [RZ+32], R16\n"              \
   "MOV R30, 0\n"

#define TS_PROGRAM_EPILOGUE                                                                        \
   "LDC.U64 R40, c[0][RZ]\nIMADW.U32 R40, R0, 128, R40\n"                                          \
   "LD.LOCAL.B128 R44, [RZ+64]\nST.GLOBAL.B128 [R40], R44\n"                                       \
   "LD.LOCAL.B128 R44, [RZ+80]\nST.GLOBAL.B128 [R40+16], R44\n"                                    \
   "LD.LOCAL.B128 R44, [RZ+96]\nST.GLOBAL.B128 [R40+32], R44\n"                                    \
   "LD.LOCAL.B128 R44, [RZ+112]\nST.GLOBAL.B128 [R40+48], R44\n"                                   \
   "LD.LOCAL.B128 R44, [RZ+128]\nST.GLOBAL.B128 [R40+64], R44\n"                                   \
   "LD.LOCAL.B128 R44, [RZ+144]\nST.GLOBAL.B128 [R40+80], R44\n"                                   \
   "ST.GLOBAL.U32 [R40+96], R30\n"                                                                 \
   "LD.LOCAL.U32 R31, [RZ+48]\nST.GLOBAL.U32 [R40+100], R31\n"                                     \
   "EXIT\n"

static const char ts_program[] =
    TS_PROGRAM_PROLOGUE "LDC.U32 R26, c[0][RZ+16]\nLDC.U32 R27, c[0][RZ+20]\n"
                        "TTU.INIT RZ, RZ, RZ\n"
                        "PBK done\n"
                        "next:\n"
                        "  PCNT cont\n"
                        "  TTU.PROCEED R21, RZ, RZ\n"
                        "  ISETP.EQ.U32 P0, R21, 0, PT\n"
                        "  @P0 BRK\n"
                        "  IADD.U32 R30, R30, 1\n"
                        "  LD.LOCAL.U32 R22, [RZ+160]\n" /* candidate type */
                        "  LD.LOCAL.U32 R24, [RZ+164]\n" /* candidate t */
                        "  LD.LOCAL.U32 R23, [RZ+184]\n" /* candidate primitive index */
                        "  IREM.U32 R25, R23, R26\n"
                        "  ISETP.NE.U32 P1, R25, R27, PT\n"
                        "  ISETP.EQ.U32 P2, R22, 0, P1\n"
                        "  ISETP.EQ.U32 P3, R22, 1, P1\n"
                        "  @P2 TTU.CONFIRM RZ, RZ, RZ\n"
                        "  @P3 TTU.GENERATE RZ, RZ, R24\n"
                        "  SYNC\n"
                        "cont:\n"
                        "  BRA next\n"
                        "done:\n" TS_PROGRAM_EPILOGUE;

/* Runs prog over n rays (n a multiple of 32) with acceptance p % m != k;
 * false (fault filled in) when the grid faulted. */
static inline bool ts_run(struct hwc *h, const char *prog, const struct ts_ray *rays, uint32_t n,
                          uint32_t m, uint32_t k, struct ts_result *out, struct ppu_fault *fault,
                          uint64_t *prog_va)
{
   uint64_t rays_va = hwt_alloc_mapped(&h->t, (uint64_t)n * sizeof(*rays), false);
   hwt_write(&h->t.mem, h->t.pd, rays_va, rays, (uint64_t)n * sizeof(*rays));
   hwt_write(&h->t.mem, h->t.pd, h->cb_va + 8, &rays_va, 8);
   hwc_cb_write32(h, 16, m);
   hwc_cb_write32(h, 20, k);
   uint64_t pva = hwc_program(h, prog);
   if (prog_va)
      *prog_va = pva;
   struct ppu_qmd q;
   hwc_qmd_defaults(h, &q, pva);
   q.local_memory_size = PPU_RAY_QUERY_BYTES;
   q.grid_size[0] = n / 32;
   struct ppu_fault f;
   memset(&f, 0, sizeof(f));
   bool ok = hwc_launch(h, &q, 0, &f);
   if (fault)
      *fault = f;
   if (ok && out)
      hwt_read(&h->t.mem, h->t.pd, h->out_va, out, (uint64_t)n * sizeof(*out));
   return ok;
}

/* --- Brute-force reference ------------------------------------------------
 * Written from the Vulkan spec's "Ray Traversal" chapter, independently of
 * the TTU's code: Moller-Trumbore in double, facing from the sign of
 * dot(cross(v1 - v0, v2 - v0), direction) in object space (negative:
 * clockwise seen from the origin: front), the culling and opacity rules,
 * and the program's acceptance rule for non-opaque hits. */
struct ts_hit {
   bool hit;
   double t, u, v;
   uint32_t instance, primitive;
   bool front;
};

struct ts_policy {
   uint32_t m, k; /* accept non-opaque p when p % m != k */
};

static inline bool ts_accept(const struct ts_policy *pol, uint32_t p)
{
   uint32_t r = pol->m ? p % pol->m : p;
   return r != pol->k;
}

static inline bool ts_opaque(uint32_t prim_flags, uint32_t inst_flags, uint32_t ray_flags)
{
   bool o = prim_flags & PPU_BVH_PRIM_OPAQUE;
   if (inst_flags & PPU_BVH_INSTANCE_FORCE_OPAQUE)
      o = true;
   else if (inst_flags & PPU_BVH_INSTANCE_FORCE_NO_OPAQUE)
      o = false;
   if (ray_flags & PPU_RAY_FLAG_OPAQUE)
      o = true;
   else if (ray_flags & PPU_RAY_FLAG_NO_OPAQUE)
      o = false;
   return o;
}

/* Every hit the program would commit or accept for ray r, closest first in
 * *best; all[] gets each acceptable hit (for checks that allow any). */
static inline uint32_t ts_reference(const struct ts_scene *s, const struct ts_ray *r,
                                    const struct ts_policy *pol, struct ts_hit *best,
                                    struct ts_hit *all, uint32_t max_all)
{
   uint32_t n = 0;
   memset(best, 0, sizeof(*best));
   best->t = r->tmax;
   if (!r->tlas)
      return 0;
   for (uint32_t i = 0; i < s->instance_count; i++) {
      const struct ppu_bvh_instance *in = &s->inst[i];
      const struct ts_blas *b = s->blas[i];
      uint32_t iflags = in->sbt_offset_and_flags >> 24;
      if (((in->custom_index_and_mask >> 24) & r->cull_mask & 0xff) == 0 || !in->blas_address)
         continue;
      double o[3], d[3];
      for (unsigned a = 0; a < 3; a++) {
         o[a] = in->world_to_object[a][3];
         d[a] = 0;
         for (unsigned k = 0; k < 3; k++) {
            o[a] += (double)in->world_to_object[a][k] * r->org[k];
            d[a] += (double)in->world_to_object[a][k] * r->dir[k];
         }
      }
      for (uint32_t p = 0; p < b->count; p++) {
         struct ts_hit h = {.hit = true, .instance = i};
         uint32_t pflags;
         if (b->kind == PPU_BVH_KIND_TRIANGLES) {
            if (r->flags & PPU_RAY_FLAG_SKIP_TRIANGLES)
               continue;
            const struct ppu_bvh_triangle *t = &b->tri[p];
            pflags = t->flags;
            double e1[3], e2[3], s0[3];
            for (unsigned a = 0; a < 3; a++) {
               e1[a] = (double)t->v1[a] - t->v0[a];
               e2[a] = (double)t->v2[a] - t->v0[a];
               s0[a] = o[a] - t->v0[a];
            }
            double pv[3] = {d[1] * e2[2] - d[2] * e2[1], d[2] * e2[0] - d[0] * e2[2],
                            d[0] * e2[1] - d[1] * e2[0]};
            double det = e1[0] * pv[0] + e1[1] * pv[1] + e1[2] * pv[2];
            if (det == 0)
               continue;
            double u = (s0[0] * pv[0] + s0[1] * pv[1] + s0[2] * pv[2]) / det;
            double qv[3] = {s0[1] * e1[2] - s0[2] * e1[1], s0[2] * e1[0] - s0[0] * e1[2],
                            s0[0] * e1[1] - s0[1] * e1[0]};
            double v = (d[0] * qv[0] + d[1] * qv[1] + d[2] * qv[2]) / det;
            double tt = (e2[0] * qv[0] + e2[1] * qv[1] + e2[2] * qv[2]) / det;
            if (u < 0 || v < 0 || u + v > 1 || tt < r->tmin || tt > r->tmax)
               continue;
            double nrm[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                             e1[0] * e2[1] - e1[1] * e2[0]};
            bool front = nrm[0] * d[0] + nrm[1] * d[1] + nrm[2] * d[2] < 0;
            if (iflags & PPU_BVH_INSTANCE_FLIP_FACING)
               front = !front;
            if (!(iflags & PPU_BVH_INSTANCE_CULL_DISABLE) &&
                (((r->flags & PPU_RAY_FLAG_CULL_BACK_FACING) && !front) ||
                 ((r->flags & PPU_RAY_FLAG_CULL_FRONT_FACING) && front)))
               continue;
            h.t = tt;
            h.u = u;
            h.v = v;
            h.front = front;
            h.primitive = t->primitive_index;
         } else {
            if (r->flags & PPU_RAY_FLAG_SKIP_AABBS)
               continue;
            const struct ppu_bvh_aabb *x = &b->box[p];
            pflags = x->flags;
            double t0 = r->tmin, t1 = r->tmax;
            for (unsigned a = 0; a < 3; a++) {
               if (d[a] == 0) {
                  if (o[a] < x->min[a] || o[a] > x->max[a])
                     t0 = INFINITY;
                  continue;
               }
               double ta = (x->min[a] - o[a]) / d[a], tb = (x->max[a] - o[a]) / d[a];
               t0 = fmax(t0, fmin(ta, tb));
               t1 = fmin(t1, fmax(ta, tb));
            }
            if (!(t0 <= t1))
               continue;
            h.t = t0;
            h.primitive = x->primitive_index;
         }
         bool opaque = ts_opaque(pflags, iflags, r->flags);
         if ((opaque && (r->flags & PPU_RAY_FLAG_CULL_OPAQUE)) ||
             (!opaque && (r->flags & PPU_RAY_FLAG_CULL_NO_OPAQUE)))
            continue;
         /* The program decides on every candidate: non-opaque triangles
          * and all AABBs. */
         bool candidate = !opaque || b->kind == PPU_BVH_KIND_AABBS;
         if (candidate && !ts_accept(pol, h.primitive))
            continue;
         if (n < max_all)
            all[n] = h;
         n++;
         if (!best->hit || h.t < best->t)
            *best = h;
      }
   }
   return n;
}

#endif /* TTU_TEST_SCENE_H */
