/* The fast binary tree for builds that prefer build speed to trace speed
 * (VK_BUILD_ACCELERATION_STRUCTURE_PREFER_FAST_BUILD_BIT_KHR): a linear BVH
 * (Lauterbach et al., "Fast BVH Construction on GPUs", EG 2009; the
 * top-down split rule of Karras, "Maximizing Parallelism in the
 * Construction of BVHs, Octrees, and k-d Trees", HPG 2012).
 *
 * Each primitive's centroid is quantized to 10 bits per axis within the
 * centroid bounds and the bits are interleaved into a 30-bit Morton code;
 * the primitives are sorted by code (a stable LSD radix sort, so equal
 * codes keep input order). A node's range of sorted primitives is split
 * where the highest bit in which its first and last codes differ turns
 * from 0 to 1: that is a spatial midpoint split of the node's Morton cell,
 * found by a binary search and no pass over the primitives. Boxes are
 * unions of the children's, bottom up. No cost is evaluated anywhere, so
 * the build is a sort plus linear work; the tree's SAH cost is higher than
 * the binned SAH builder's (bench_bvh_build prints both).
 *
 * Same contract as bvh_build_binary: leaves of at most
 * PPU_BVH_MAX_LEAF_RECORDS consecutive primitives, internal nodes above
 * PPU_BVH_MAX_DEPTH (a split that would break it becomes a median split,
 * as in bvh_sah.c), a node of n primitives owning the 2n - 1 entries from
 * its index on. With a pool the subtrees below the top levels are tasks;
 * what a node becomes depends only on its primitives, so the tree is the
 * same for every thread count. */
#include <stdlib.h>
#include <string.h>

#include "bvh_internal.h"

/* Primitives a leaf holds at most: splitting further only adds nodes the
 * collapse to 8-wide nodes merges again, and four records are one
 * triangle-test cycle each, as cheap as the box tests a split adds. */
#define LBVH_LEAF_PRIMS 4u
#define LBVH_AXIS_BITS 10u
/* Top-level nodes larger than this are split on the caller's thread; the
 * others are tasks of the pool. */
#define LBVH_TASK_PRIMS 8192u

struct lbvh {
   struct bvh_prim *prims;
   uint32_t *codes; /* of prims[i], sorted */
   struct bvh_bin_node *nodes;
   struct bvh_pool *pool;
};

/* 10 bits spread to every third bit of 30. */
static uint32_t spread_bits(uint32_t x)
{
   x &= 0x3ffu;
   x = (x | (x << 16)) & 0x030000ffu;
   x = (x | (x << 8)) & 0x0300f00fu;
   x = (x | (x << 4)) & 0x030c30c3u;
   x = (x | (x << 2)) & 0x09249249u;
   return x;
}

struct quantizer {
   double origin[3], scale[3];
};

static struct quantizer quantizer_for(const struct bvh_prim *prims, uint32_t n)
{
   struct bvh_box cbox;
   bvh_box_set_empty(&cbox);
   for (uint32_t i = 0; i < n; i++)
      for (int a = 0; a < 3; a++) {
         float c = bvh_prim_centroid(&prims[i], a);
         cbox.min[a] = c < cbox.min[a] ? c : cbox.min[a];
         cbox.max[a] = c > cbox.max[a] ? c : cbox.max[a];
      }
   struct quantizer q;
   for (int a = 0; a < 3; a++) {
      /* In double: the extent of boxes near +-FLT_MAX overflows binary32. */
      double extent = (double)cbox.max[a] - cbox.min[a];
      q.origin[a] = cbox.min[a];
      q.scale[a] = extent > 0.0 ? (1u << LBVH_AXIS_BITS) * (1.0 - 1e-9) / extent : 0.0;
   }
   return q;
}

static uint32_t morton_code(const struct quantizer *q, const struct bvh_prim *p)
{
   uint32_t code = 0;
   for (int a = 0; a < 3; a++) {
      double t = ((double)bvh_prim_centroid(p, a) - q->origin[a]) * q->scale[a];
      uint32_t cell = t <= 0.0 ? 0u : t >= 1023.0 ? 1023u : (uint32_t)t;
      code |= spread_bits(cell) << (2 - a);
   }
   return code;
}

/* Sorts prims[0..n) by Morton code, stably: keys are code << 32 | input
 * position, radix-sorted by their code bits in three passes of 10 bits.
 * codes[] gets the sorted codes. False when memory runs out. */
static bool sort_by_code(struct bvh_prim *prims, uint32_t *codes, uint32_t n)
{
   uint64_t *keys = bvh_alloc_large(sizeof(*keys) * n);
   uint64_t *other = bvh_alloc_large(sizeof(*other) * n);
   struct bvh_prim *sorted = bvh_alloc_large(sizeof(*sorted) * n);
   bool ok = keys && other && sorted;
   if (ok) {
      struct quantizer q = quantizer_for(prims, n);
      for (uint32_t i = 0; i < n; i++)
         keys[i] = (uint64_t)morton_code(&q, &prims[i]) << 32 | i;
      for (unsigned shift = 32; shift < 32 + 3 * LBVH_AXIS_BITS; shift += LBVH_AXIS_BITS) {
         uint32_t start[1u << LBVH_AXIS_BITS] = {0};
         for (uint32_t i = 0; i < n; i++)
            start[(keys[i] >> shift) & 0x3ffu]++;
         uint32_t sum = 0;
         for (unsigned k = 0; k < (1u << LBVH_AXIS_BITS); k++) {
            uint32_t c = start[k];
            start[k] = sum;
            sum += c;
         }
         for (uint32_t i = 0; i < n; i++)
            other[start[(keys[i] >> shift) & 0x3ffu]++] = keys[i];
         uint64_t *t = keys;
         keys = other;
         other = t;
      }
      for (uint32_t i = 0; i < n; i++) {
         sorted[i] = prims[(uint32_t)keys[i]];
         codes[i] = (uint32_t)(keys[i] >> 32);
      }
      memcpy(prims, sorted, sizeof(*prims) * n);
   }
   free(sorted);
   free(other);
   free(keys);
   return ok;
}

/* Primitives of [first, first + count) that go left: those before the
 * first whose code has the highest differing bit of the range set; 0 when
 * every code is the same. */
static uint32_t morton_split(const uint32_t *codes, uint32_t first, uint32_t count)
{
   uint32_t lo_code = codes[first], hi_code = codes[first + count - 1];
   if (lo_code == hi_code)
      return 0;
   uint32_t bit = 1u << (31 - __builtin_clz(lo_code ^ hi_code));
   /* codes[first] has the bit clear, the last one set: find the first set. */
   uint32_t lo = first, hi = first + count - 1;
   while (hi - lo > 1) {
      uint32_t mid = lo + (hi - lo) / 2;
      if (codes[mid] & bit)
         hi = mid;
      else
         lo = mid;
   }
   return hi - first;
}

/* Makes node `index` a leaf or an internal node of its range; false for a
 * leaf. *left_count gets the left child's primitives. */
static bool split(const struct lbvh *b, uint32_t index, uint32_t first, uint32_t count,
                  uint32_t depth, uint32_t *left_count)
{
   struct bvh_bin_node *node = &b->nodes[index];
   node->count = count;
   node->first_or_left = first;
   bool may_leaf = count <= PPU_BVH_MAX_LEAF_RECORDS;
   if (count <= LBVH_LEAF_PRIMS || (may_leaf && depth + 1 >= PPU_BVH_MAX_DEPTH))
      return false;
   uint32_t left = morton_split(b->codes, first, count);
   if (left == 0 || !bvh_child_fits(depth, left) || !bvh_child_fits(depth, count - left))
      left = count / 2;
   node->count = 0;
   node->first_or_left = index + 1;
   node->right = index + 2 * left;
   *left_count = left;
   return true;
}

static void leaf_box(const struct lbvh *b, struct bvh_bin_node *node)
{
   bvh_box_set_empty(&node->box);
   for (uint32_t i = 0; i < node->count; i++)
      bvh_box_grow(&node->box, &b->prims[node->first_or_left + i].box);
}

/* The subtree of node `index` on one thread, boxes included. */
static void build_subtree(const struct lbvh *b, uint32_t index, uint32_t first, uint32_t count,
                          uint32_t depth)
{
   struct bvh_bin_node *node = &b->nodes[index];
   uint32_t left;
   if (!split(b, index, first, count, depth, &left)) {
      leaf_box(b, node);
      return;
   }
   uint32_t l = node->first_or_left, r = node->right;
   build_subtree(b, l, first, left, depth + 1);
   build_subtree(b, r, first + left, count - left, depth + 1);
   node->box = b->nodes[l].box;
   bvh_box_grow(&node->box, &b->nodes[r].box);
}

struct subtree_task {
   struct bvh_task task;
   const struct lbvh *b;
   uint32_t index, first, count, depth;
};

static void run_subtree(struct bvh_task *task)
{
   struct subtree_task *t = (struct subtree_task *)task;
   build_subtree(t->b, t->index, t->first, t->count, t->depth);
}

/* The levels above the tasks, on the caller's thread: their nodes in
 * pre-order in top[], for the boxes once the tasks are done. */
struct top_levels {
   uint32_t *top, top_count;
   struct subtree_task *tasks;
   uint32_t task_count;
};

static void build_top(const struct lbvh *b, struct top_levels *t, uint32_t index, uint32_t first,
                      uint32_t count, uint32_t depth)
{
   if (count <= LBVH_TASK_PRIMS) {
      struct subtree_task *task = &t->tasks[t->task_count++];
      *task = (struct subtree_task){.task.run = run_subtree,
                                    .b = b,
                                    .index = index,
                                    .first = first,
                                    .count = count,
                                    .depth = depth};
      bvh_pool_submit(b->pool, &task->task);
      return;
   }
   uint32_t left;
   if (!split(b, index, first, count, depth, &left)) { /* cannot happen above the task size */
      leaf_box(b, &b->nodes[index]);
      return;
   }
   t->top[t->top_count++] = index;
   build_top(b, t, b->nodes[index].first_or_left, first, left, depth + 1);
   build_top(b, t, b->nodes[index].right, first + left, count - left, depth + 1);
}

enum bvh_result bvh_build_binary_fast(struct bvh_prim *prims, uint32_t n, struct bvh_pool *pool,
                                      struct bvh_bin_tree *out)
{
   enum bvh_result result = BVH_ERROR_OUT_OF_HOST_MEMORY;
   struct lbvh b = {.prims = prims, .pool = pool};
   struct top_levels t = {0};
   b.codes = bvh_alloc_large(sizeof(*b.codes) * n);
   b.nodes = bvh_alloc_large(sizeof(*b.nodes) * (2 * (size_t)n - 1));
   /* The top levels' nodes on one level hold disjoint ranges of more than
    * LBVH_TASK_PRIMS primitives, and there are at most PPU_BVH_MAX_DEPTH
    * levels; each of those nodes has two children, tasks or top nodes. */
   size_t top_max = (size_t)PPU_BVH_MAX_DEPTH * (n / LBVH_TASK_PRIMS);
   t.top = malloc(sizeof(*t.top) * (top_max + 1));
   t.tasks = malloc(sizeof(*t.tasks) * (2 * top_max + 1));
   if (!b.codes || !b.nodes || !t.top || !t.tasks || !sort_by_code(prims, b.codes, n))
      goto done;
   build_top(&b, &t, 0, 0, n, 0);
   bvh_pool_wait(pool);
   for (uint32_t i = t.top_count; i-- > 0;) {
      struct bvh_bin_node *node = &b.nodes[t.top[i]];
      node->box = b.nodes[node->first_or_left].box;
      bvh_box_grow(&node->box, &b.nodes[node->right].box);
   }
   out->nodes = b.nodes;
   out->node_count = 2 * n - 1;
   b.nodes = NULL;
   result = BVH_SUCCESS;
done:
   free(t.tasks);
   free(t.top);
   free(b.nodes);
   free(b.codes);
   return result;
}
