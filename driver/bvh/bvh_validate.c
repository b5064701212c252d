/* Internal consistency of a structure in memory. Used by tests and by
 * deserialization, where the bytes come from the application: every read
 * is bounds-checked against `size` first and every count that sizes an
 * allocation is bounded by `size`, so corrupt input costs an error, never a
 * crash or a huge allocation. Reads go through memcpy: the bytes need not
 * be aligned. */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bvh_internal.h"

struct validator {
   const uint8_t *base;
   struct ppu_bvh_header h;
   char *why;
   size_t why_size;
   uint8_t *node_seen;
   uint8_t *record_referenced;
   uint8_t *prim_seen;
   uint64_t *geometry_first; /* prefix sums of primitive counts */
   struct bvh_box *node_box;
};

__attribute__((format(printf, 2, 3))) static enum bvh_result fail(struct validator *v,
                                                                  const char *fmt, ...)
{
   if (v->why && v->why_size) {
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(v->why, v->why_size, fmt, ap);
      va_end(ap);
   }
   return BVH_ERROR_CORRUPT;
}

static void read_node(const struct validator *v, uint32_t i, struct ppu_bvh_node *node)
{
   memcpy(node, v->base + v->h.node_offset + (uint64_t)i * PPU_BVH_NODE_BYTES, sizeof(*node));
}

static const uint8_t *record_at(const struct validator *v, uint64_t r)
{
   return v->base + v->h.leaf_offset + r * v->h.leaf_stride;
}

static enum bvh_result check_layout(struct validator *v, uint64_t size)
{
   const struct ppu_bvh_header *h = &v->h;
   if (h->magic != PPU_BVH_MAGIC || h->version != PPU_BVH_VERSION)
      return fail(v, "bad magic 0x%x or version %u", h->magic, h->version);
   uint32_t stride = bvh_record_stride((enum ppu_bvh_kind)h->kind);
   if (!stride || h->leaf_stride != stride)
      return fail(v, "kind %u with leaf stride %u", h->kind, h->leaf_stride);
   if (h->flags & ~(PPU_BVH_FLAG_ALLOW_UPDATE | PPU_BVH_FLAG_COMPACTED))
      return fail(v, "unknown flags 0x%x", h->flags);
   if (h->kind == PPU_BVH_KIND_INSTANCES && h->geometry_count != 1)
      return fail(v, "top level with %u geometries", h->geometry_count);
   /* The layout is fixed: header, geometry table, nodes, records. */
   uint64_t node_offset = sizeof(*h) + bvh_geometry_table_bytes(h->geometry_count);
   uint64_t leaf_offset = node_offset + (uint64_t)h->node_count * PPU_BVH_NODE_BYTES;
   uint64_t total = leaf_offset + (uint64_t)h->leaf_count * stride;
   if (h->geometry_offset != sizeof(*h) || h->node_offset != node_offset ||
       h->leaf_offset != leaf_offset || h->total_size != total)
      return fail(v, "offsets/sizes do not follow the layout");
   if (total > size)
      return fail(v, "total_size %llu beyond the %llu bytes given", (unsigned long long)total,
                  (unsigned long long)size);
   if (h->primitive_count != h->leaf_count)
      return fail(v, "primitive_count %u != leaf_count %u", h->primitive_count, h->leaf_count);
   if (h->node_count == 0 && h->max_depth != 0)
      return fail(v, "empty tree with max_depth %u", h->max_depth);
   return BVH_SUCCESS;
}

static enum bvh_result check_geometries(struct validator *v)
{
   uint64_t sum = 0;
   for (uint32_t g = 0; g < v->h.geometry_count; g++) {
      struct ppu_bvh_geometry geo;
      memcpy(&geo, v->base + v->h.geometry_offset + (uint64_t)g * sizeof(geo), sizeof(geo));
      v->geometry_first[g] = sum;
      sum += geo.primitive_count;
   }
   v->geometry_first[v->h.geometry_count] = sum;
   if (sum != v->h.leaf_count)
      return fail(v, "geometries hold %llu primitives, %u records", (unsigned long long)sum,
                  v->h.leaf_count);
   return BVH_SUCCESS;
}

/* Top-down: structure, parents, depths, every index in range and every node
 * and record reached at most once. */
static enum bvh_result check_topology(struct validator *v)
{
   uint32_t max_depth = 0;
   for (uint32_t i = 0; i < v->h.node_count; i++) {
      struct ppu_bvh_node node;
      read_node(v, i, &node);
      if (i == 0 && (node.parent != PPU_BVH_NONE || node.depth != 0))
         return fail(v, "root has parent %u depth %u", node.parent, node.depth);
      for (unsigned a = 0; i == 0 && a < PPU_BVH_ANCESTORS - 1u; a++)
         if (node.ancestor[a] != PPU_BVH_NONE)
            return fail(v, "root has ancestor[%u] %u", a, node.ancestor[a]);
      if (i > 0 && !v->node_seen[i])
         return fail(v, "node %u is not reached from the root", i);
      if (node.depth >= PPU_BVH_MAX_DEPTH)
         return fail(v, "node %u at depth %u", i, node.depth);
      if (node.depth > max_depth)
         max_depth = node.depth;
      if (node.child_count < 1 || node.child_count > PPU_BVH_WIDTH)
         return fail(v, "node %u has %u children", i, node.child_count);
      for (unsigned s = 0; s < PPU_BVH_WIDTH; s++) {
         uint8_t kind = node.child_kind[s];
         if (s >= node.child_count) {
            if (kind != PPU_BVH_CHILD_EMPTY || node.child_records[s])
               return fail(v, "node %u slot %u past child_count is not empty", i, s);
            continue;
         }
         if (kind == PPU_BVH_CHILD_INTERNAL) {
            uint64_t c = (uint64_t)node.internal_base + node.child_index[s];
            if (c <= i || c >= v->h.node_count || v->node_seen[c] || node.child_records[s])
               return fail(v, "node %u slot %u: bad internal child %llu", i, s,
                           (unsigned long long)c);
            v->node_seen[c] = 1;
            struct ppu_bvh_node child;
            read_node(v, (uint32_t)c, &child);
            if (child.parent != i || child.depth != node.depth + 1)
               return fail(v, "node %llu: parent %u depth %u, expected %u and %u",
                           (unsigned long long)c, child.parent, child.depth, i, node.depth + 1);
            /* The parent's list is checked (top down, from the root's), so
             * by induction every entry is the parent chain's. */
            for (unsigned a = 0; a < PPU_BVH_ANCESTORS - 1u; a++) {
               uint32_t want = a == 0 ? node.parent : node.ancestor[a - 1];
               if (child.ancestor[a] != want)
                  return fail(v, "node %llu: ancestor[%u] %u, expected %u", (unsigned long long)c,
                              a, child.ancestor[a], want);
            }
         } else if (kind == PPU_BVH_CHILD_LEAF) {
            uint64_t first = (uint64_t)node.leaf_base + node.child_index[s];
            unsigned n = node.child_records[s];
            if (n < 1 || n > PPU_BVH_MAX_LEAF_RECORDS || first + n > v->h.leaf_count)
               return fail(v, "node %u slot %u: records %llu+%u out of range", i, s,
                           (unsigned long long)first, n);
            for (unsigned k = 0; k < n; k++) {
               if (v->record_referenced[first + k])
                  return fail(v, "record %llu referenced twice", (unsigned long long)first + k);
               v->record_referenced[first + k] = 1;
            }
         } else {
            return fail(v, "node %u slot %u: child kind %u", i, s, kind);
         }
      }
   }
   if (max_depth != v->h.max_depth)
      return fail(v, "max_depth %u, deepest node %u", v->h.max_depth, max_depth);
   return BVH_SUCCESS;
}

/* Every primitive exactly once; unreferenced records inactive. */
static enum bvh_result check_records(struct validator *v, struct bvh_box *bounds)
{
   bvh_box_set_empty(bounds);
   for (uint64_t r = 0; r < v->h.leaf_count; r++) {
      const uint8_t *rec = record_at(v, r);
      struct bvh_box box;
      bool active = bvh_record_box((enum ppu_bvh_kind)v->h.kind, rec, &box);
      if (active && !v->record_referenced[r])
         return fail(v, "active record %llu is in no leaf", (unsigned long long)r);
      if (active)
         bvh_box_grow(bounds, &box);
      uint64_t slot;
      if (v->h.kind == PPU_BVH_KIND_INSTANCES) {
         struct ppu_bvh_instance inst;
         memcpy(&inst, rec, sizeof(inst));
         slot = inst.instance_index;
      } else {
         uint32_t g, p;
         size_t go = v->h.kind == PPU_BVH_KIND_TRIANGLES
                         ? offsetof(struct ppu_bvh_triangle, geometry_index)
                         : offsetof(struct ppu_bvh_aabb, geometry_index);
         memcpy(&g, rec + go, sizeof(g));
         memcpy(&p, rec + go + 4, sizeof(p));
         if (g >= v->h.geometry_count || v->geometry_first[g] + p >= v->geometry_first[g + 1])
            return fail(v, "record %llu: geometry %u primitive %u out of range",
                        (unsigned long long)r, g, p);
         slot = v->geometry_first[g] + p;
      }
      if (slot >= v->h.leaf_count || v->prim_seen[slot])
         return fail(v, "record %llu: primitive recorded twice or out of range",
                     (unsigned long long)r);
      v->prim_seen[slot] = 1;
   }
   return BVH_SUCCESS;
}

static bool contains(const float lo[3], const float hi[3], const struct bvh_box *b)
{
   for (int a = 0; a < 3; a++)
      if (!(lo[a] <= b->min[a] && hi[a] >= b->max[a]))
         return false;
   return true;
}

/* Bottom-up: the box the TTU decodes for each slot contains everything
 * below it. Instance leaves are skipped: their content is another
 * structure's, which this one does not hold. */
static enum bvh_result check_boxes(struct validator *v)
{
   for (uint32_t i = v->h.node_count; i-- > 0;) {
      struct ppu_bvh_node node;
      read_node(v, i, &node);
      bvh_box_set_empty(&v->node_box[i]);
      for (unsigned s = 0; s < node.child_count; s++) {
         struct bvh_box box;
         bvh_box_set_empty(&box);
         if (node.child_kind[s] == PPU_BVH_CHILD_INTERNAL) {
            box = v->node_box[node.internal_base + node.child_index[s]];
         } else {
            uint64_t first = (uint64_t)node.leaf_base + node.child_index[s];
            for (unsigned k = 0; k < node.child_records[s]; k++) {
               struct bvh_box rb;
               if (bvh_record_box((enum ppu_bvh_kind)v->h.kind, record_at(v, first + k), &rb))
                  bvh_box_grow(&box, &rb);
            }
         }
         float lo[3], hi[3];
         bvh_node_child_box(&node, s, lo, hi);
         if (!bvh_box_is_empty(&box) && !contains(lo, hi, &box))
            return fail(v, "node %u slot %u: quantized box does not contain its content", i, s);
         bvh_box_grow(&v->node_box[i], &box);
      }
   }
   return BVH_SUCCESS;
}

enum bvh_result bvh_validate(const void *bvh, uint64_t size, char *why, size_t why_size)
{
   struct validator v = {.base = bvh, .why = why, .why_size = why_size};
   if (why && why_size)
      why[0] = '\0';
   if (!bvh || size < sizeof(v.h))
      return fail(&v, "smaller than a header");
   memcpy(&v.h, bvh, sizeof(v.h));
   enum bvh_result r = check_layout(&v, size);
   if (r != BVH_SUCCESS)
      return r;
   /* check_layout bounded every count by size, so these are modest. */
   v.node_seen = calloc(v.h.node_count + 1u, 1);
   v.record_referenced = calloc(v.h.leaf_count + 1u, 1);
   v.prim_seen = calloc(v.h.leaf_count + 1u, 1);
   v.geometry_first = calloc(v.h.geometry_count + 1u, sizeof(*v.geometry_first));
   v.node_box = calloc(v.h.node_count + 1u, sizeof(*v.node_box));
   if (!v.node_seen || !v.record_referenced || !v.prim_seen || !v.geometry_first || !v.node_box) {
      r = BVH_ERROR_OUT_OF_HOST_MEMORY;
      goto out;
   }
   struct bvh_box bounds;
   if ((r = check_geometries(&v)) != BVH_SUCCESS || (r = check_topology(&v)) != BVH_SUCCESS ||
       (r = check_records(&v, &bounds)) != BVH_SUCCESS || (r = check_boxes(&v)) != BVH_SUCCESS)
      goto out;
   if (v.h.kind != PPU_BVH_KIND_INSTANCES && !bvh_box_is_empty(&bounds) &&
       !contains(v.h.bounds_min, v.h.bounds_max, &bounds))
      r = fail(&v, "header bounds do not contain the records");
out:
   free(v.node_seen);
   free(v.record_referenced);
   free(v.prim_seen);
   free(v.geometry_first);
   free(v.node_box);
   return r;
}
