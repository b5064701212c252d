/* Size rules and the build: gather active primitives, build the binary SAH
 * tree (bvh_sah.c), collapse it to 8-wide nodes and write header, geometry
 * table, nodes and records.
 *
 * Collapse (Ylitie et al. HPG 2017 sec. 3.2 do this optimally with dynamic
 * programming; we take the common greedy variant): a wide node starts with
 * its binary node's two children and keeps replacing the child binary node
 * of largest surface area by its two children while it has fewer than
 * PPU_BVH_WIDTH children and any child is internal. Binary leaves (at most
 * PPU_BVH_MAX_LEAF_RECORDS primitives) become LEAF slots, the remaining
 * internal children become wide nodes. Each wide node lies strictly deeper
 * in the binary tree than its parent, so the wide depth is bounded by the
 * binary tree's, which bvh_sah.c keeps below PPU_BVH_MAX_DEPTH.
 *
 * Nodes are numbered breadth first, so a node's internal children are
 * consecutive (internal_base + slot offset) and always have larger indices
 * than their parent (refit walks backwards). Records are written in the
 * order the nodes' leaf slots reference them; inactive primitives follow
 * the last active record, referenced by no leaf. */
#include <stdlib.h>
#include <string.h>

#include "bvh_internal.h"

/* Upper bound on wide nodes for n active primitives. With F full nodes
 * (8 slots) and P others, only full nodes have internal slots (collapse
 * stops early only when no child is internal), so I - 1 <= 8F for
 * I = F + P nodes, and the leaf slots L >= 7F + P + 1 (every node has at
 * least 2 slots). Together I <= (4L - 1) / 7, and L <= n. */
static uint64_t max_wide_nodes(uint64_t n)
{
   if (n <= 1)
      return n;
   uint64_t bound = (4 * n - 1) / 7;
   return bound ? bound : 1;
}

enum bvh_result bvh_get_sizes(enum ppu_bvh_kind kind, uint32_t geometry_count,
                              uint32_t primitive_count, struct bvh_sizes *out)
{
   uint32_t stride = bvh_record_stride(kind);
   if (!stride)
      return BVH_ERROR_INVALID_INPUT;
   if (kind == PPU_BVH_KIND_INSTANCES)
      geometry_count = 1;
   out->structure_size = sizeof(struct ppu_bvh_header) + bvh_geometry_table_bytes(geometry_count) +
                         max_wide_nodes(primitive_count) * PPU_BVH_NODE_BYTES +
                         (uint64_t)primitive_count * stride;
   out->build_scratch_size = PPU_BVH_ALIGN;
   out->update_scratch_size = PPU_BVH_ALIGN;
   return BVH_SUCCESS;
}

/* A wide node before it is written: the binary nodes of its slots. */
struct wide_node {
   uint32_t slot[PPU_BVH_WIDTH];
   uint32_t slot_count;
   uint32_t parent, depth;
};

struct collapse {
   const struct bvh_bin_tree *tree;
   struct wide_node *wide;
   uint32_t wide_count, wide_capacity;
};

static bool is_internal(const struct bvh_bin_tree *t, uint32_t i)
{
   return t->nodes[i].count == 0;
}

static void open_children(const struct bvh_bin_tree *t, uint32_t bin, struct wide_node *w)
{
   if (!is_internal(t, bin)) {
      /* A binary leaf as the root: one LEAF slot. */
      w->slot[0] = bin;
      w->slot_count = 1;
      return;
   }
   w->slot[0] = t->nodes[bin].first_or_left;
   w->slot[1] = t->nodes[bin].right;
   w->slot_count = 2;
   while (w->slot_count < PPU_BVH_WIDTH) {
      int best = -1;
      double best_area = -1.0;
      for (uint32_t s = 0; s < w->slot_count; s++) {
         if (!is_internal(t, w->slot[s]))
            continue;
         double area = bvh_box_half_area(&t->nodes[w->slot[s]].box);
         if (area > best_area) {
            best_area = area;
            best = (int)s;
         }
      }
      if (best < 0)
         break;
      /* Keep left-to-right order: the right child goes just after. */
      const struct bvh_bin_node *open = &t->nodes[w->slot[best]];
      memmove(&w->slot[best + 2], &w->slot[best + 1],
              sizeof(w->slot[0]) * (w->slot_count - (uint32_t)best - 1));
      w->slot[best] = open->first_or_left;
      w->slot[best + 1] = open->right;
      w->slot_count++;
   }
}

/* Breadth-first: wide node i's internal children are appended in slot
 * order when i is processed. */
static bool collapse_tree(struct collapse *c)
{
   c->wide_count = 1;
   c->wide[0].parent = PPU_BVH_NONE;
   c->wide[0].depth = 0;
   open_children(c->tree, 0, &c->wide[0]);
   for (uint32_t i = 0; i < c->wide_count; i++) {
      struct wide_node *w = &c->wide[i];
      for (uint32_t s = 0; s < w->slot_count; s++) {
         if (!is_internal(c->tree, w->slot[s]))
            continue;
         /* max_wide_nodes() says this cannot happen; never write past. */
         if (c->wide_count == c->wide_capacity)
            return false;
         struct wide_node *child = &c->wide[c->wide_count++];
         child->parent = i;
         child->depth = w->depth + 1;
         open_children(c->tree, w->slot[s], child);
      }
   }
   return true;
}

struct writer {
   const struct bvh_build_input *in;
   uint8_t *base;
   struct ppu_bvh_header *header;
   struct ppu_bvh_geometry *geometries;
   uint32_t stride;
   uint32_t next_record;
};

static void write_record(struct writer *w, const struct bvh_prim *p)
{
   struct bvh_box box;
   uint32_t r = w->next_record++;
   bvh_input_write_record(w->in, p->geometry, p->primitive,
                          w->base + w->header->leaf_offset + (uint64_t)r * w->stride, &box);
   struct ppu_bvh_geometry *g = &w->geometries[p->geometry];
   if (r < g->first_record)
      g->first_record = r;
}

static void write_nodes(struct writer *w, const struct collapse *c, const struct bvh_prim *prims,
                        struct bvh_build_stats *stats)
{
   const struct bvh_bin_tree *t = c->tree;
   struct ppu_bvh_node *nodes = (struct ppu_bvh_node *)(w->base + w->header->node_offset);
   double root_area = bvh_box_half_area(&t->nodes[0].box);
   uint32_t next_internal = 1;
   for (uint32_t i = 0; i < c->wide_count; i++) {
      const struct wide_node *wn = &c->wide[i];
      struct ppu_bvh_node *node = &nodes[i];
      struct bvh_box boxes[PPU_BVH_WIDTH];
      memset(node, 0, sizeof(*node));
      node->child_count = (uint8_t)wn->slot_count;
      node->parent = wn->parent;
      node->depth = wn->depth;
      node->internal_base = next_internal;
      node->leaf_base = w->next_record;
      struct bvh_box node_box;
      bvh_box_set_empty(&node_box);
      for (uint32_t s = 0; s < wn->slot_count; s++) {
         const struct bvh_bin_node *b = &t->nodes[wn->slot[s]];
         boxes[s] = b->box;
         bvh_box_grow(&node_box, &b->box);
         double rel = root_area > 0.0 ? bvh_box_half_area(&b->box) / root_area : 1.0;
         if (b->count == 0) {
            node->child_kind[s] = PPU_BVH_CHILD_INTERNAL;
            node->child_index[s] = (uint8_t)(next_internal++ - node->internal_base);
         } else {
            node->child_kind[s] = PPU_BVH_CHILD_LEAF;
            node->child_index[s] = (uint8_t)(w->next_record - node->leaf_base);
            node->child_records[s] = (uint8_t)b->count;
            for (uint32_t k = 0; k < b->count; k++)
               write_record(w, &prims[b->first_or_left + k]);
            stats->leaf_child_count++;
            stats->sah_cost += rel * b->count * BVH_SAH_COST_PRIM;
         }
      }
      double node_rel = root_area > 0.0 ? bvh_box_half_area(&node_box) / root_area : 1.0;
      stats->sah_cost += node_rel * wn->slot_count * BVH_SAH_COST_BOX;
      if (wn->depth > stats->max_depth)
         stats->max_depth = wn->depth;
      bvh_quantize_node(node, boxes, wn->slot_count);
   }
}

static void write_header(struct writer *w, uint32_t geometry_count, uint32_t total,
                         uint32_t node_count)
{
   struct ppu_bvh_header *h = w->header;
   memset(h, 0, sizeof(*h));
   h->magic = PPU_BVH_MAGIC;
   h->version = PPU_BVH_VERSION;
   h->kind = w->in->kind;
   h->flags = w->in->flags & PPU_BVH_FLAG_ALLOW_UPDATE;
   h->geometry_offset = sizeof(*h);
   h->geometry_count = geometry_count;
   h->node_offset = (uint32_t)(h->geometry_offset + bvh_geometry_table_bytes(geometry_count));
   h->node_count = node_count;
   h->leaf_offset = h->node_offset + node_count * PPU_BVH_NODE_BYTES;
   h->leaf_count = total;
   h->leaf_stride = w->stride;
   h->primitive_count = total;
   h->total_size = h->leaf_offset + (uint64_t)total * w->stride;
}

static void write_geometry_table(struct writer *w, uint32_t geometry_count)
{
   memset(w->geometries, 0, bvh_geometry_table_bytes(geometry_count));
   for (uint32_t g = 0; g < geometry_count; g++) {
      struct ppu_bvh_geometry *geo = &w->geometries[g];
      if (w->in->kind == PPU_BVH_KIND_INSTANCES) {
         geo->flags = w->in->instance_geometry_flags;
         geo->primitive_count = w->in->instance_count;
      } else {
         geo->flags = w->in->geometries[g].flags;
         geo->primitive_count = w->in->geometries[g].primitive_count;
      }
      /* Lowered to the first record written; 0 when there is none. */
      geo->first_record = geo->primitive_count ? UINT32_MAX : 0;
   }
}

/* Every primitive that did not make it into prims[] (inactive), in input
 * order, after the active records. */
static void write_inactive_records(struct writer *w, uint32_t geometry_count)
{
   for (uint32_t g = 0; g < geometry_count; g++) {
      uint32_t count = w->geometries[g].primitive_count;
      for (uint32_t i = 0; i < count; i++) {
         struct bvh_prim p = {.geometry = g, .primitive = i};
         /* Decide activity without writing: into a scratch record. */
         uint8_t scratch[sizeof(struct ppu_bvh_instance)];
         struct bvh_box box;
         if (!bvh_input_write_record(w->in, g, i, scratch, &box))
            write_record(w, &p);
      }
   }
}

enum bvh_result bvh_build(const struct bvh_build_input *in, void *dst, uint64_t dst_size,
                          struct bvh_build_stats *stats_out)
{
   uint32_t total;
   enum bvh_result r = bvh_input_check(in, &total);
   if (r != BVH_SUCCESS)
      return r;
   uint32_t geometry_count = in->kind == PPU_BVH_KIND_INSTANCES ? 1 : in->geometry_count;
   struct bvh_build_stats stats = {.record_count = total};
   struct bvh_prim *prims = malloc(sizeof(*prims) * (total ? total : 1));
   if (!prims)
      return BVH_ERROR_OUT_OF_HOST_MEMORY;
   uint32_t active = bvh_input_gather(in, prims);
   stats.active_record_count = active;

   struct bvh_bin_tree tree = {0};
   struct collapse c = {.tree = &tree};
   if (active) {
      r = bvh_build_binary(prims, active, &tree);
      if (r == BVH_SUCCESS) {
         c.wide_capacity = (uint32_t)max_wide_nodes(active);
         c.wide = malloc(sizeof(*c.wide) * c.wide_capacity);
         if (!c.wide)
            r = BVH_ERROR_OUT_OF_HOST_MEMORY;
      }
      if (r == BVH_SUCCESS && !collapse_tree(&c))
         r = BVH_ERROR_INVALID_INPUT;
      if (r != BVH_SUCCESS)
         goto out;
   }

   struct writer w = {
       .in = in,
       .base = dst,
       .header = dst,
       .stride = bvh_record_stride(in->kind),
   };
   uint64_t need = sizeof(struct ppu_bvh_header) + bvh_geometry_table_bytes(geometry_count) +
                   (uint64_t)c.wide_count * PPU_BVH_NODE_BYTES + (uint64_t)total * w.stride;
   if (!dst || need > dst_size) {
      r = BVH_ERROR_INVALID_INPUT;
      goto out;
   }
   write_header(&w, geometry_count, total, c.wide_count);
   w.geometries = (struct ppu_bvh_geometry *)(w.base + w.header->geometry_offset);
   write_geometry_table(&w, geometry_count);
   if (active) {
      write_nodes(&w, &c, prims, &stats);
      for (int a = 0; a < 3; a++) {
         w.header->bounds_min[a] = tree.nodes[0].box.min[a];
         w.header->bounds_max[a] = tree.nodes[0].box.max[a];
      }
   } else {
      struct bvh_box empty;
      bvh_box_set_empty(&empty);
      memcpy(w.header->bounds_min, empty.min, sizeof(empty.min));
      memcpy(w.header->bounds_max, empty.max, sizeof(empty.max));
   }
   write_inactive_records(&w, geometry_count);
   w.header->max_depth = stats.max_depth;
   stats.node_count = c.wide_count;
   if (stats_out)
      *stats_out = stats;
out:
   free(c.wide);
   free(tree.nodes);
   free(prims);
   return r;
}
