/* The binary tree: top-down binned SAH (Wald, "On fast Construction of
 * SAH-based Bounding Volume Hierarchies", IRT 2007): per node, centroids
 * are binned into BVH_SAH_BINS bins on each axis and the plane between two
 * bins with the lowest surface area heuristic cost is taken. Costs are in
 * datapath cycles (bvh_internal.h): a binary node stands for two child box
 * tests, a leaf for one test per primitive.
 *
 * Object-median splits take over where the SAH has nothing to offer (all
 * centroids in one point, all primitives in one bin) and where following
 * the SAH could break the depth bound: a node at depth d holding n
 * primitives is only split so that each child can still be finished by
 * median splits within PPU_BVH_MAX_DEPTH, which the root always can
 * (n < 2^32 needs at most 29 levels of leaves of 8). */
#include <math.h>
#include <stdlib.h>

#include "bvh_internal.h"

struct bin {
   struct bvh_box box;
   uint32_t count;
};

struct sah_builder {
   struct bvh_prim *prims;
   struct bvh_bin_node *nodes;
   uint32_t node_count;
};

/* Levels of internal nodes that median splits need for n primitives. */
static uint32_t median_levels(uint32_t n)
{
   uint64_t leaves = ((uint64_t)n + PPU_BVH_MAX_LEAF_RECORDS - 1) / PPU_BVH_MAX_LEAF_RECORDS;
   uint32_t levels = 0;
   while ((1ull << levels) < leaves)
      levels++;
   return levels;
}

/* May a node at `depth` (internal, so depth < PPU_BVH_MAX_DEPTH) have a
 * child of n primitives? The child sits at depth + 1 and needs
 * median_levels(n) more levels of internal nodes. */
static bool child_fits(uint32_t depth, uint32_t n)
{
   return depth + 1 + median_levels(n) <= PPU_BVH_MAX_DEPTH;
}

static int bin_of(const struct bvh_prim *p, int axis, double cmin, double inv, unsigned bins)
{
   double k = ((double)p->centroid[axis] - cmin) * inv;
   int b = (int)k;
   return b < 0 ? 0 : b >= (int)bins ? (int)bins - 1 : b;
}

/* Small nodes get fewer bins: the per-bin sweep would otherwise cost more
 * than binning their few primitives (most nodes are small). */
static unsigned bins_for(uint32_t n)
{
   return n < BVH_SAH_BINS ? (n < 4 ? 4 : n) : BVH_SAH_BINS;
}

struct split {
   int axis;
   int bin; /* primitives in bins < bin go left */
   unsigned bins;
   double cost;
};

static struct split find_sah_split(const struct bvh_prim *prims, uint32_t n,
                                   const struct bvh_box *cbox, double parent_area)
{
   unsigned nb = bins_for(n);
   struct split best = {.axis = -1, .bins = nb, .cost = INFINITY};
   for (int axis = 0; axis < 3; axis++) {
      double cmin = cbox->min[axis], extent = (double)cbox->max[axis] - cmin;
      if (!(extent > 0.0))
         continue;
      double inv = nb * (1.0 - 1e-9) / extent;
      struct bin bins[BVH_SAH_BINS];
      for (unsigned b = 0; b < nb; b++) {
         bvh_box_set_empty(&bins[b].box);
         bins[b].count = 0;
      }
      for (uint32_t i = 0; i < n; i++) {
         struct bin *b = &bins[bin_of(&prims[i], axis, cmin, inv, nb)];
         bvh_box_grow(&b->box, &prims[i].box);
         b->count++;
      }
      /* Sweep from the right for the right-hand areas and counts. */
      double right_cost[BVH_SAH_BINS];
      struct bvh_box acc;
      bvh_box_set_empty(&acc);
      uint32_t count = 0;
      for (unsigned b = nb - 1; b > 0; b--) {
         bvh_box_grow(&acc, &bins[b].box);
         count += bins[b].count;
         right_cost[b] = bvh_box_half_area(&acc) * count;
      }
      bvh_box_set_empty(&acc);
      count = 0;
      for (unsigned b = 1; b < nb; b++) {
         bvh_box_grow(&acc, &bins[b - 1].box);
         count += bins[b - 1].count;
         if (count == 0 || count == n)
            continue;
         double cost =
             2.0 * BVH_SAH_COST_BOX +
             BVH_SAH_COST_PRIM * (bvh_box_half_area(&acc) * count + right_cost[b]) / parent_area;
         if (cost < best.cost) {
            best.axis = axis;
            best.bin = (int)b;
            best.cost = cost;
         }
      }
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
      float pivot = prims[lo + (hi - lo) / 2].centroid[axis];
      uint32_t i = lo, j = hi;
      while (i <= j) {
         while (prims[i].centroid[axis] < pivot)
            i++;
         while (prims[j].centroid[axis] > pivot)
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

/* Object median on the axis of largest centroid extent; positional halves
 * when every centroid is the same point. Returns the left count. */
static uint32_t median_split(struct bvh_prim *prims, uint32_t n, const struct bvh_box *cbox)
{
   int axis = 0;
   double best = -1.0;
   for (int a = 0; a < 3; a++) {
      double e = (double)cbox->max[a] - cbox->min[a];
      if (e > best) {
         best = e;
         axis = a;
      }
   }
   uint32_t mid = n / 2;
   if (best > 0.0)
      select_kth(prims, n, mid, axis);
   return mid;
}

static uint32_t sah_partition(struct bvh_prim *prims, uint32_t n, const struct bvh_box *cbox,
                              struct split s)
{
   double cmin = cbox->min[s.axis];
   double inv = s.bins * (1.0 - 1e-9) / ((double)cbox->max[s.axis] - cmin);
   uint32_t i = 0, j = n;
   while (i < j) {
      if (bin_of(&prims[i], s.axis, cmin, inv, s.bins) < s.bin)
         i++;
      else
         swap_prims(&prims[i], &prims[--j]);
   }
   return i;
}

static void build_node(struct sah_builder *b, uint32_t index, uint32_t first, uint32_t n,
                       uint32_t depth)
{
   struct bvh_prim *prims = b->prims + first;
   struct bvh_bin_node *node = &b->nodes[index];
   struct bvh_box cbox;
   bvh_box_set_empty(&node->box);
   bvh_box_set_empty(&cbox);
   for (uint32_t i = 0; i < n; i++) {
      bvh_box_grow(&node->box, &prims[i].box);
      struct bvh_box c = {{prims[i].centroid[0], prims[i].centroid[1], prims[i].centroid[2]},
                          {prims[i].centroid[0], prims[i].centroid[1], prims[i].centroid[2]}};
      bvh_box_grow(&cbox, &c);
   }

   bool may_leaf = n <= PPU_BVH_MAX_LEAF_RECORDS;
   /* Only a node above the depth limit may be internal. */
   if (may_leaf && (n == 1 || depth + 1 >= PPU_BVH_MAX_DEPTH)) {
      node->count = n;
      node->first_or_left = first;
      return;
   }

   double area = bvh_box_half_area(&node->box);
   uint32_t left_n = 0;
   struct split s = {.axis = -1};
   if (area > 0.0 && isfinite(area))
      s = find_sah_split(prims, n, &cbox, area);
   if (s.axis >= 0 && may_leaf && BVH_SAH_COST_PRIM * n <= s.cost) {
      node->count = n;
      node->first_or_left = first;
      return;
   }
   if (s.axis >= 0) {
      left_n = sah_partition(prims, n, &cbox, s);
      if (!child_fits(depth, left_n) || !child_fits(depth, n - left_n))
         s.axis = -1;
   }
   if (s.axis < 0) {
      if (may_leaf) {
         node->count = n;
         node->first_or_left = first;
         return;
      }
      left_n = median_split(prims, n, &cbox);
   }

   uint32_t left = b->node_count, right = b->node_count + 1;
   b->node_count += 2;
   node->count = 0;
   node->first_or_left = left;
   node->right = right;
   build_node(b, left, first, left_n, depth + 1);
   build_node(b, right, first + left_n, n - left_n, depth + 1);
}

enum bvh_result bvh_build_binary(struct bvh_prim *prims, uint32_t n, struct bvh_bin_tree *out)
{
   /* A binary tree with non-empty leaves has at most 2n - 1 nodes. */
   struct sah_builder b = {.prims = prims, .node_count = 1};
   b.nodes = malloc(sizeof(*b.nodes) * (2 * (size_t)n - 1));
   if (!b.nodes)
      return BVH_ERROR_OUT_OF_HOST_MEMORY;
   build_node(&b, 0, 0, n, 0);
   out->nodes = b.nodes;
   out->node_count = b.node_count;
   return BVH_SUCCESS;
}
