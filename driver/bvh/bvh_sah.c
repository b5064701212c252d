/* The binary tree: top-down binned SAH (Wald, "On fast Construction of
 * SAH-based Bounding Volume Hierarchies", IRT 2007): per node, centroids
 * are binned into BVH_SAH_BINS bins on each axis and the plane between two
 * bins with the lowest surface area heuristic cost is taken. Costs are in
 * datapath cycles (bvh_internal.h): a binary node stands for two child box
 * tests, a leaf for one test per primitive.
 *
 * Per node the work is two passes over its primitives, as in Wald's paper:
 * one that bins every primitive on all three axes at once, and one that
 * partitions them (and computes both children's centroid bounds on the
 * way). The children's boxes come from the bins (prefix and suffix unions
 * of the sweep), so no pass recomputes bounds.
 *
 * Object-median splits take over where the SAH has nothing to offer (all
 * centroids in one point, all primitives in one bin) and where following
 * the SAH could break the depth bound: a node at depth d holding n
 * primitives is only split so that each child can still be finished by
 * median splits within PPU_BVH_MAX_DEPTH, which the root always can
 * (n < 2^32 needs at most 29 levels of leaves of 8).
 *
 * Threads (the split Wald 2007 proposes for parallel builds: data-parallel
 * binning at the top, independent subtrees below): nodes of at least
 * CHUNKED_NODE_MIN primitives are binned and partitioned in chunks of
 * CHUNK_PRIMS, which the pool's threads share; below a size that depends
 * on the thread count, subtrees become tasks built by one thread each.
 * What a node becomes depends only on its primitives, never on who builds
 * it: bins are unions (min, max and counts, exact in any order), and large
 * nodes are partitioned stably (order kept on each side) whether chunked
 * in parallel or not, so the tree is the same for every thread count. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bvh_internal.h"

#define CHUNK_PRIMS BVH_CHUNK_PRIMS
#define CHUNKED_NODE_MIN (2u * CHUNK_PRIMS)
/* Subtree tasks: about this many per thread, so that uneven SAH splits
 * still even out over the threads ... */
#define TASKS_PER_THREAD 8u
/* ... but none so small that the task costs more than its subtree. */
#define TASK_MIN_PRIMS 4096u

/* Four-lane floats for the two hot loops (binning and partitioning): a
 * primitive's box is two of them and its three bin indices come from one
 * multiply. SSE on x86-64 (always present there), plain C elsewhere; lane
 * 3 is kept 0 and never read. Lane arithmetic is IEEE binary32 like the
 * scalar code, so the results do not depend on which version runs. */
#if defined(__SSE2__)
#include <emmintrin.h>
typedef __m128 vec4;
static inline vec4 v4_load3(const float *p)
{
   /* Reads a fourth float past p (the next field of the box or
    * primitive) and clears it. */
   return _mm_and_ps(_mm_loadu_ps(p), _mm_castsi128_ps(_mm_setr_epi32(-1, -1, -1, 0)));
}
static inline vec4 v4_splat(float x)
{
   return _mm_set1_ps(x);
}
static inline vec4 v4_add(vec4 a, vec4 b)
{
   return _mm_add_ps(a, b);
}
static inline vec4 v4_sub(vec4 a, vec4 b)
{
   return _mm_sub_ps(a, b);
}
static inline vec4 v4_mul(vec4 a, vec4 b)
{
   return _mm_mul_ps(a, b);
}
static inline vec4 v4_min(vec4 a, vec4 b)
{
   return _mm_min_ps(a, b);
}
static inline vec4 v4_max(vec4 a, vec4 b)
{
   return _mm_max_ps(a, b);
}
static inline void v4_store3(float *p, vec4 v)
{
   float t[4];
   _mm_storeu_ps(t, v);
   p[0] = t[0];
   p[1] = t[1];
   p[2] = t[2];
}
/* Clamped to [0, hi] in float (t is never NaN), then truncated. */
static inline void v4_to_index(vec4 t, int hi, int out[4])
{
   t = _mm_min_ps(_mm_max_ps(t, _mm_setzero_ps()), _mm_set1_ps((float)hi));
   _mm_storeu_si128((__m128i *)out, _mm_cvttps_epi32(t));
}
#else
typedef struct {
   float v[4];
} vec4;
static inline vec4 v4_load3(const float *p)
{
   return (vec4){{p[0], p[1], p[2], 0.0f}};
}
static inline vec4 v4_splat(float x)
{
   return (vec4){{x, x, x, x}};
}
#define V4_LANES(expr)                                                                             \
   vec4 r;                                                                                         \
   for (int i = 0; i < 4; i++)                                                                     \
      r.v[i] = (expr);                                                                             \
   return r
static inline vec4 v4_add(vec4 a, vec4 b)
{
   V4_LANES(a.v[i] + b.v[i]);
}
static inline vec4 v4_sub(vec4 a, vec4 b)
{
   V4_LANES(a.v[i] - b.v[i]);
}
static inline vec4 v4_mul(vec4 a, vec4 b)
{
   V4_LANES(a.v[i] * b.v[i]);
}
static inline vec4 v4_min(vec4 a, vec4 b)
{
   V4_LANES(a.v[i] < b.v[i] ? a.v[i] : b.v[i]);
}
static inline vec4 v4_max(vec4 a, vec4 b)
{
   V4_LANES(a.v[i] > b.v[i] ? a.v[i] : b.v[i]);
}
#undef V4_LANES
static inline void v4_store3(float *p, vec4 v)
{
   for (int i = 0; i < 3; i++)
      p[i] = v.v[i];
}
static inline void v4_to_index(vec4 t, int hi, int out[4])
{
   for (int i = 0; i < 4; i++) {
      float x = t.v[i] > 0.0f ? t.v[i] : 0.0f;
      out[i] = (int)(x < (float)hi ? x : (float)hi);
   }
}
#endif

struct bin {
   vec4 min, max;
};

struct bin_set {
   struct bin bin[3][BVH_SAH_BINS];
   uint32_t count[3][BVH_SAH_BINS];
};

/* Maps a centroid c to its bin on each axis: (c/2 - origin/2) * scale in
 * binary32. The halves keep the difference finite for boxes near
 * +-FLT_MAX (and halving is monotonic, so no centroid falls below bin 0).
 * The partition uses this same function, so its counts are exactly the
 * bins'. */
struct binning {
   vec4 half_origin, scale;
   bool axis_used[3]; /* false: every centroid has the same coordinate */
   unsigned count;    /* bins per axis */
};

/* A node to build: where its primitives are and their bounds. */
struct node_job {
   uint32_t index; /* in the nodes array */
   uint32_t first, count, depth;
   struct bvh_box box, cbox; /* of the primitives' boxes and of their centroids */
};

struct split {
   int axis;     /* -1: none found */
   unsigned bin; /* primitives in bins < bin go left */
   uint32_t left_count;
   double cost;
   struct bvh_box left_box, right_box;
};

/* What a chunk of a large node reports in the parallel passes. */
struct chunk_result {
   struct bin_set bins;
   uint32_t left;
   struct bvh_box box[2], cbox[2]; /* left, right (bounds: [0] only) */
};

struct subtree_task {
   struct bvh_task task;
   struct sah_builder *builder;
   struct node_job job;
};

struct sah_builder {
   struct bvh_prim *prims;
   struct bvh_prim *scratch; /* n entries when n >= CHUNKED_NODE_MIN: stable partitions */
   struct bvh_bin_node *nodes;
   struct bvh_pool *pool;
   struct chunk_result *chunks; /* ceil(n / CHUNK_PRIMS) when pool */
   struct subtree_task *tasks;
   uint32_t task_count, task_capacity;
   uint32_t task_min; /* smaller top-level nodes become tasks */
};

static inline vec4 centroid4(const struct bvh_prim *p)
{
   /* = bvh_prim_centroid on every axis. */
   vec4 half = v4_splat(0.5f);
   return v4_add(v4_mul(half, v4_load3(p->box.min)), v4_mul(half, v4_load3(p->box.max)));
}

static inline void bin_indices(const struct binning *b, vec4 centroid, int k[4])
{
   vec4 t = v4_mul(v4_sub(v4_mul(centroid, v4_splat(0.5f)), b->half_origin), b->scale);
   v4_to_index(t, (int)b->count - 1, k);
}

/* Centroid bounds kept in registers over a loop. */
struct cbounds {
   vec4 min, max;
};

static inline void cbounds_clear(struct cbounds *c)
{
   c->min = v4_splat(INFINITY);
   c->max = v4_splat(-INFINITY);
}

static inline void cbounds_grow(struct cbounds *c, vec4 p)
{
   c->min = v4_min(c->min, p);
   c->max = v4_max(c->max, p);
}

static inline void cbounds_store(const struct cbounds *c, struct bvh_box *box)
{
   v4_store3(box->min, c->min);
   v4_store3(box->max, c->max);
}

static inline void grow_centroid(struct bvh_box *cbox, const struct bvh_prim *p)
{
   float c[3] = {bvh_prim_centroid(p, 0), bvh_prim_centroid(p, 1), bvh_prim_centroid(p, 2)};
   for (int a = 0; a < 3; a++) {
      cbox->min[a] = c[a] < cbox->min[a] ? c[a] : cbox->min[a];
      cbox->max[a] = c[a] > cbox->max[a] ? c[a] : cbox->max[a];
   }
}

/* Small nodes get fewer bins: the per-bin sweep would otherwise cost more
 * than binning their few primitives (most nodes are small). */
static struct binning binning_for(const struct bvh_box *cbox, uint32_t n)
{
   struct binning b = {.count = n < BVH_SAH_BINS ? (n < 4 ? 4 : n) : BVH_SAH_BINS};
   float half_origin[3], scale[3];
   for (int a = 0; a < 3; a++) {
      half_origin[a] = 0.5f * cbox->min[a];
      double extent = (double)(0.5f * cbox->max[a]) - half_origin[a];
      b.axis_used[a] = extent > 0.0;
      /* 1 - 1e-6 keeps the largest centroid inside the last bin despite
       * the rounding of scale (the index is clamped anyway). */
      scale[a] = b.axis_used[a] ? (float)(b.count * (1.0 - 1e-6) / extent) : 0.0f;
   }
   b.half_origin = v4_load3((const float[4]){half_origin[0], half_origin[1], half_origin[2]});
   b.scale = v4_load3((const float[4]){scale[0], scale[1], scale[2]});
   return b;
}

static void bins_clear(struct bin_set *s, unsigned count)
{
   for (int a = 0; a < 3; a++)
      for (unsigned k = 0; k < count; k++) {
         s->bin[a][k].min = v4_splat(INFINITY);
         s->bin[a][k].max = v4_splat(-INFINITY);
         s->count[a][k] = 0;
      }
}

/* The binning pass: each primitive into its bin on all three axes. */
static void bins_add(struct bin_set *s, const struct binning *b, const struct bvh_prim *prims,
                     uint32_t n)
{
   for (uint32_t i = 0; i < n; i++) {
      vec4 lo = v4_load3(prims[i].box.min), hi = v4_load3(prims[i].box.max);
      int k[4];
      bin_indices(b, centroid4(&prims[i]), k);
      for (int a = 0; a < 3; a++) {
         struct bin *bin = &s->bin[a][k[a]];
         bin->min = v4_min(bin->min, lo);
         bin->max = v4_max(bin->max, hi);
         s->count[a][k[a]]++;
      }
   }
}

static void bins_merge(struct bin_set *dst, const struct bin_set *src, unsigned count)
{
   for (int a = 0; a < 3; a++)
      for (unsigned k = 0; k < count; k++) {
         dst->bin[a][k].min = v4_min(dst->bin[a][k].min, src->bin[a][k].min);
         dst->bin[a][k].max = v4_max(dst->bin[a][k].max, src->bin[a][k].max);
         dst->count[a][k] += src->count[a][k];
      }
}

static struct bvh_box bin_box(const struct bin *bin)
{
   struct bvh_box box;
   v4_store3(box.min, bin->min);
   v4_store3(box.max, bin->max);
   return box;
}

/* bvh_box_half_area of a bin the sweep has put a primitive in (so never
 * empty), without the round trip through struct bvh_box. */
static double bin_half_area(const struct bin *bin)
{
   float lo[3], hi[3];
   v4_store3(lo, bin->min);
   v4_store3(hi, bin->max);
   /* In double: extents of boxes near +-FLT_MAX overflow binary32. */
   double dx = (double)hi[0] - lo[0], dy = (double)hi[1] - lo[1], dz = (double)hi[2] - lo[2];
   return dx * dy + dy * dz + dz * dx;
}

static inline void bin_grow(struct bin *acc, const struct bin *o)
{
   acc->min = v4_min(acc->min, o->min);
   acc->max = v4_max(acc->max, o->max);
}

static struct bvh_box bins_union(const struct bin *bins, unsigned from, unsigned to)
{
   struct bin acc = {v4_splat(INFINITY), v4_splat(-INFINITY)};
   for (unsigned k = from; k < to; k++)
      bin_grow(&acc, &bins[k]);
   return bin_box(&acc);
}

/* The SAH sweep over the bins of every axis with extent: suffix areas
 * from the right, then prefix areas from the left, each plane's cost
 * 2 C_box + C_prim (A_L N_L + A_R N_R) / A. Only planes just after a
 * non-empty bin are evaluated: a plane further right up to the next
 * non-empty bin splits the primitives the same way at the same cost, and
 * small nodes, which are most nodes, have mostly empty bins. Ties keep the
 * lowest axis and plane. */
static struct split best_split(const struct bin_set *s, const struct binning *b, double parent_area)
{
   struct split best = {.axis = -1, .cost = INFINITY};
   for (int axis = 0; axis < 3; axis++) {
      if (!b->axis_used[axis])
         continue;
      const struct bin *bins = s->bin[axis];
      const uint32_t *counts = s->count[axis];
      unsigned used[BVH_SAH_BINS], m = 0;
      for (unsigned k = 0; k < b->count; k++)
         if (counts[k])
            used[m++] = k;
      if (m < 2)
         continue;
      /* right_cost[j]: bins used[j..m) on the right. */
      double right_cost[BVH_SAH_BINS];
      struct bin acc = bins[used[m - 1]];
      uint32_t count = counts[used[m - 1]];
      for (unsigned j = m - 1; j > 0; j--) {
         right_cost[j] = bin_half_area(&acc) * count;
         bin_grow(&acc, &bins[used[j - 1]]);
         count += counts[used[j - 1]];
      }
      acc = bins[used[0]];
      count = counts[used[0]];
      for (unsigned j = 1; j < m; j++) {
         double cost = 2.0 * BVH_SAH_COST_BOX + BVH_SAH_COST_PRIM *
                                                    (bin_half_area(&acc) * count + right_cost[j]) /
                                                    parent_area;
         if (cost < best.cost) {
            best.axis = axis;
            best.bin = used[j - 1] + 1;
            best.left_count = count;
            best.cost = cost;
         }
         bin_grow(&acc, &bins[used[j]]);
         count += counts[used[j]];
      }
   }
   if (best.axis >= 0) {
      best.left_box = bins_union(s->bin[best.axis], 0, best.bin);
      best.right_box = bins_union(s->bin[best.axis], best.bin, b->count);
   }
   return best;
}

static void swap_prims(struct bvh_prim *a, struct bvh_prim *b)
{
   struct bvh_prim t = *a;
   *a = *b;
   *b = t;
}

/* Reorders prims[0..n) so that prims[k] holds the element of rank k by
 * centroid[axis], smaller ones before it and larger ones after (Hoare
 * partitioning, which splits runs of equal keys evenly). */
static void select_kth(struct bvh_prim *prims, uint32_t n, uint32_t k, int axis)
{
   uint32_t lo = 0, hi = n - 1;
   while (lo < hi) {
      float pivot = bvh_prim_centroid(&prims[lo + (hi - lo) / 2], axis);
      uint32_t i = lo, j = hi;
      while (i <= j) {
         while (bvh_prim_centroid(&prims[i], axis) < pivot)
            i++;
         while (bvh_prim_centroid(&prims[j], axis) > pivot)
            j--;
         if (i <= j) {
            swap_prims(&prims[i], &prims[j]);
            i++;
            if (j == 0)
               break;
            j--;
         }
      }
      if (k <= j)
         hi = j;
      else if (k >= i)
         lo = i;
      else
         return;
   }
}

static void bounds_of(const struct bvh_prim *prims, uint32_t n, struct bvh_box *box,
                      struct bvh_box *cbox)
{
   bvh_box_set_empty(box);
   bvh_box_set_empty(cbox);
   for (uint32_t i = 0; i < n; i++) {
      bvh_box_grow(box, &prims[i].box);
      grow_centroid(cbox, &prims[i]);
   }
}

/* Object median on the axis of largest centroid extent; positional halves
 * when every centroid is the same point. Sequential even for the largest
 * nodes: it only runs for inputs the SAH cannot split. */
static void median_split(struct bvh_prim *prims, const struct node_job *job, struct node_job *l,
                         struct node_job *r)
{
   int axis = 0;
   double best = -1.0;
   for (int a = 0; a < 3; a++) {
      double e = (double)job->cbox.max[a] - job->cbox.min[a];
      if (e > best) {
         best = e;
         axis = a;
      }
   }
   uint32_t mid = job->count / 2;
   if (best > 0.0)
      select_kth(prims, job->count, mid, axis);
   l->count = mid;
   r->count = job->count - mid;
   bounds_of(prims, l->count, &l->box, &l->cbox);
   bounds_of(prims + mid, r->count, &r->box, &r->cbox);
}

/* Which side a primitive goes to, and its centroid for the side's bounds:
 * the binning's own arithmetic (bin_indices). */
static inline bool goes_left(const struct binning *b, const struct split *s,
                             const struct bvh_prim *p, vec4 *centroid)
{
   int k[4];
   *centroid = centroid4(p);
   bin_indices(b, *centroid, k);
   return (unsigned)k[s->axis] < s->bin;
}

/* Small nodes: in place, from both ends (not stable, and it need not be:
 * the outcome is still a function of the node's primitives alone). */
static void partition_in_place(struct bvh_prim *prims, uint32_t n, const struct binning *b,
                               const struct split *s, struct node_job *l, struct node_job *r)
{
   uint32_t i = 0, j = n;
   struct cbounds lc, rc;
   cbounds_clear(&lc);
   cbounds_clear(&rc);
   while (i < j) {
      vec4 c;
      if (goes_left(b, s, &prims[i], &c)) {
         cbounds_grow(&lc, c);
         i++;
      } else {
         cbounds_grow(&rc, c);
         swap_prims(&prims[i], &prims[--j]);
      }
   }
   cbounds_store(&lc, &l->cbox);
   cbounds_store(&rc, &r->cbox);
}

/* Large nodes, one thread: a stable partition through the scratch array,
 * left_count (known from the bins) telling where the right side starts. */
static void partition_stable(struct bvh_prim *prims, struct bvh_prim *scratch, uint32_t n,
                             const struct binning *b, const struct split *s, struct node_job *l,
                             struct node_job *r)
{
   uint32_t left = 0, right = s->left_count;
   struct cbounds lc, rc;
   cbounds_clear(&lc);
   cbounds_clear(&rc);
   for (uint32_t i = 0; i < n; i++) {
      vec4 c;
      if (goes_left(b, s, &prims[i], &c)) {
         cbounds_grow(&lc, c);
         scratch[left++] = prims[i];
      } else {
         cbounds_grow(&rc, c);
         scratch[right++] = prims[i];
      }
   }
   cbounds_store(&lc, &l->cbox);
   cbounds_store(&rc, &r->cbox);
   memcpy(prims, scratch, sizeof(*prims) * n);
}

/* Large nodes with a pool: the same stable partition in three parallel
 * passes over the chunks (count, scatter to scratch, copy back). */
struct chunked_node {
   struct sah_builder *b;
   const struct node_job *job;
   const struct binning *binning;
   const struct split *split;
   uint32_t chunk_count;
};

static uint32_t chunk_size(const struct chunked_node *c, uint32_t k)
{
   uint32_t start = k * CHUNK_PRIMS;
   return c->job->count - start < CHUNK_PRIMS ? c->job->count - start : CHUNK_PRIMS;
}

static const struct bvh_prim *chunk_prims(const struct chunked_node *c, uint32_t k)
{
   return c->b->prims + c->job->first + (size_t)k * CHUNK_PRIMS;
}

static void chunk_bounds(void *arg, uint32_t k)
{
   const struct chunked_node *c = arg;
   struct chunk_result *res = &c->b->chunks[k];
   bounds_of(chunk_prims(c, k), chunk_size(c, k), &res->box[0], &res->cbox[0]);
}

static void chunk_bin(void *arg, uint32_t k)
{
   const struct chunked_node *c = arg;
   struct bin_set *s = &c->b->chunks[k].bins;
   bins_clear(s, c->binning->count);
   bins_add(s, c->binning, chunk_prims(c, k), chunk_size(c, k));
}

static void chunk_count_left(void *arg, uint32_t k)
{
   const struct chunked_node *c = arg;
   struct chunk_result *res = &c->b->chunks[k];
   const struct bvh_prim *prims = chunk_prims(c, k);
   struct cbounds side[2];
   cbounds_clear(&side[0]);
   cbounds_clear(&side[1]);
   res->left = 0;
   for (uint32_t i = 0, n = chunk_size(c, k); i < n; i++) {
      vec4 centroid;
      bool left = goes_left(c->binning, c->split, &prims[i], &centroid);
      res->left += left;
      cbounds_grow(&side[!left], centroid);
   }
   cbounds_store(&side[0], &res->cbox[0]);
   cbounds_store(&side[1], &res->cbox[1]);
}

/* After chunk_count_left, chunks[k].left holds the left count of the
 * chunks before k (exclusive prefix sum). */
static void chunk_scatter(void *arg, uint32_t k)
{
   const struct chunked_node *c = arg;
   const struct bvh_prim *prims = chunk_prims(c, k);
   struct bvh_prim *dst = c->b->scratch + c->job->first;
   uint32_t left = c->b->chunks[k].left;
   uint32_t right = c->split->left_count + k * CHUNK_PRIMS - left;
   for (uint32_t i = 0, n = chunk_size(c, k); i < n; i++) {
      vec4 centroid;
      if (goes_left(c->binning, c->split, &prims[i], &centroid))
         dst[left++] = prims[i];
      else
         dst[right++] = prims[i];
   }
}

static void chunk_copy_back(void *arg, uint32_t k)
{
   const struct chunked_node *c = arg;
   size_t first = c->job->first + (size_t)k * CHUNK_PRIMS;
   memcpy(c->b->prims + first, c->b->scratch + first, sizeof(struct bvh_prim) * chunk_size(c, k));
}

static uint32_t chunks_of(uint32_t n)
{
   return (n + CHUNK_PRIMS - 1) / CHUNK_PRIMS;
}

/* Bins the node's primitives and returns the best SAH split. */
static struct split find_split(struct sah_builder *b, struct bvh_pool *pool,
                               const struct node_job *job, const struct binning *binning)
{
   struct bin_set bins;
   bins_clear(&bins, binning->count);
   if (pool && job->count >= CHUNKED_NODE_MIN) {
      struct chunked_node c = {b, job, binning, NULL, chunks_of(job->count)};
      bvh_pool_for(pool, c.chunk_count, chunk_bin, &c);
      for (uint32_t k = 0; k < c.chunk_count; k++)
         bins_merge(&bins, &b->chunks[k].bins, binning->count);
   } else {
      bins_add(&bins, binning, b->prims + job->first, job->count);
   }
   return best_split(&bins, binning, bvh_box_half_area(&job->box));
}

static void partition(struct sah_builder *b, struct bvh_pool *pool, const struct node_job *job,
                      const struct binning *binning, const struct split *s, struct node_job *l,
                      struct node_job *r)
{
   struct bvh_prim *prims = b->prims + job->first;
   if (job->count < CHUNKED_NODE_MIN) {
      partition_in_place(prims, job->count, binning, s, l, r);
   } else if (!pool) {
      partition_stable(prims, b->scratch + job->first, job->count, binning, s, l, r);
   } else {
      struct chunked_node c = {b, job, binning, s, chunks_of(job->count)};
      bvh_pool_for(pool, c.chunk_count, chunk_count_left, &c);
      bvh_box_set_empty(&l->cbox);
      bvh_box_set_empty(&r->cbox);
      uint32_t before = 0;
      for (uint32_t k = 0; k < c.chunk_count; k++) {
         struct chunk_result *res = &b->chunks[k];
         bvh_box_grow(&l->cbox, &res->cbox[0]);
         bvh_box_grow(&r->cbox, &res->cbox[1]);
         uint32_t left = res->left;
         res->left = before;
         before += left;
      }
      bvh_pool_for(pool, c.chunk_count, chunk_scatter, &c);
      bvh_pool_for(pool, c.chunk_count, chunk_copy_back, &c);
   }
   l->count = s->left_count;
   r->count = job->count - s->left_count;
   l->box = s->left_box;
   r->box = s->right_box;
}

/* Decides what node job->index becomes: a leaf (false), or an internal
 * node whose children's primitives are now [first, first + l->count) and
 * the rest (true; l and r get everything but their index). */
static bool split_node(struct sah_builder *b, struct bvh_pool *pool, const struct node_job *job,
                       struct node_job *l, struct node_job *r)
{
   struct bvh_bin_node *node = &b->nodes[job->index];
   uint32_t n = job->count;
   node->box = job->box;
   node->count = n;
   node->first_or_left = job->first;

   bool may_leaf = n <= PPU_BVH_MAX_LEAF_RECORDS;
   /* Only a node above the depth limit may be internal. */
   if (may_leaf && (n == 1 || job->depth + 1 >= PPU_BVH_MAX_DEPTH))
      return false;

   double area = bvh_box_half_area(&job->box);
   struct split s = {.axis = -1};
   struct binning binning = binning_for(&job->cbox, n);
   if (area > 0.0 && isfinite(area))
      s = find_split(b, pool, job, &binning);
   if (s.axis >= 0 && may_leaf && BVH_SAH_COST_PRIM * n <= s.cost)
      return false;
   if (s.axis >= 0 &&
       (!bvh_child_fits(job->depth, s.left_count) || !bvh_child_fits(job->depth, n - s.left_count)))
      s.axis = -1;
   if (s.axis < 0) {
      if (may_leaf)
         return false;
      median_split(b->prims + job->first, job, l, r);
   } else {
      partition(b, pool, job, &binning, &s, l, r);
   }
   l->first = job->first;
   r->first = job->first + l->count;
   l->depth = r->depth = job->depth + 1;
   node->count = 0;
   return true;
}

static void link_children(struct sah_builder *b, const struct node_job *job, uint32_t left,
                          uint32_t right)
{
   b->nodes[job->index].first_or_left = left;
   b->nodes[job->index].right = right;
}

/* One thread, depth first; children are numbered from *next on, which
 * stays within the 2 count - 1 entries the subtree owns. */
static void build_subtree(struct sah_builder *b, const struct node_job *job, uint32_t *next)
{
   struct node_job l, r;
   if (!split_node(b, NULL, job, &l, &r))
      return;
   l.index = (*next)++;
   r.index = (*next)++;
   link_children(b, job, l.index, r.index);
   build_subtree(b, &l, next);
   build_subtree(b, &r, next);
}

static void run_subtree(struct bvh_task *task)
{
   struct subtree_task *t = (struct subtree_task *)task;
   uint32_t next = t->job.index + 1;
   build_subtree(t->builder, &t->job, &next);
}

/* The top of the tree on the caller's thread, large nodes chunked over
 * the pool. A node of n primitives owns the 2n - 1 node entries from its
 * index on, so each subtree task numbers its nodes without talking to
 * the others. */
static void build_top(struct sah_builder *b, const struct node_job *job)
{
   if (job->count <= b->task_min && b->task_count < b->task_capacity) {
      struct subtree_task *t = &b->tasks[b->task_count++];
      t->task.run = run_subtree;
      t->builder = b;
      t->job = *job;
      bvh_pool_submit(b->pool, &t->task);
      return;
   }
   struct node_job l, r;
   if (!split_node(b, b->pool, job, &l, &r))
      return;
   l.index = job->index + 1;
   r.index = job->index + 2 * l.count;
   link_children(b, job, l.index, r.index);
   build_top(b, &l);
   build_top(b, &r);
}

enum bvh_result bvh_build_binary(struct bvh_prim *prims, uint32_t n, struct bvh_pool *pool,
                                 struct bvh_bin_tree *out)
{
   enum bvh_result result = BVH_ERROR_OUT_OF_HOST_MEMORY;
   /* A binary tree with non-empty leaves has at most 2n - 1 nodes. */
   struct sah_builder b = {.prims = prims, .pool = pool};
   b.nodes = bvh_alloc_large(sizeof(*b.nodes) * (2 * (size_t)n - 1));
   if (n >= CHUNKED_NODE_MIN)
      b.scratch = bvh_alloc_large(sizeof(*b.scratch) * n);
   if (pool) {
      b.chunks = malloc(sizeof(*b.chunks) * chunks_of(n));
      /* Room for the subtrees below task_min in any tree of reasonable
       * shape; should it run out, build_top simply keeps splitting on the
       * caller's thread (same tree, less parallel). */
      b.task_min = n / (TASKS_PER_THREAD * bvh_pool_thread_count(pool));
      if (b.task_min < TASK_MIN_PRIMS)
         b.task_min = TASK_MIN_PRIMS;
      b.task_capacity = 2 * (n / b.task_min) + 2;
      b.tasks = malloc(sizeof(*b.tasks) * b.task_capacity);
   } else {
      /* Everything is one task, run at once. */
      b.task_min = UINT32_MAX;
      b.task_capacity = 1;
      b.tasks = malloc(sizeof(*b.tasks));
   }
   if (!b.nodes || (n >= CHUNKED_NODE_MIN && !b.scratch) || (pool && !b.chunks) || !b.tasks)
      goto out;

   struct node_job root = {.count = n};
   if (pool && n >= CHUNKED_NODE_MIN) {
      struct chunked_node c = {&b, &root, NULL, NULL, chunks_of(n)};
      bvh_pool_for(pool, c.chunk_count, chunk_bounds, &c);
      bvh_box_set_empty(&root.box);
      bvh_box_set_empty(&root.cbox);
      for (uint32_t k = 0; k < c.chunk_count; k++) {
         bvh_box_grow(&root.box, &b.chunks[k].box[0]);
         bvh_box_grow(&root.cbox, &b.chunks[k].cbox[0]);
      }
   } else {
      bounds_of(prims, n, &root.box, &root.cbox);
   }
   build_top(&b, &root);
   bvh_pool_wait(pool);
   out->nodes = b.nodes;
   out->node_count = 2 * n - 1;
   b.nodes = NULL;
   result = BVH_SUCCESS;
out:
   free(b.tasks);
   free(b.chunks);
   free(b.scratch);
   free(b.nodes);
   return result;
}
