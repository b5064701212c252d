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
#include <unistd.h>

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
   uint32_t internal_base, leaf_base; /* set after the collapse (number_wide_nodes) */
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

/* Bases of every wide node: internal children are numbered in slot order
 * after everything before them (breadth first), records likewise. A cheap
 * sequential pass, after which every node can be written independently. */
static void number_wide_nodes(struct collapse *c)
{
   const struct bvh_bin_tree *t = c->tree;
   uint32_t next_internal = 1, next_record = 0;
   for (uint32_t i = 0; i < c->wide_count; i++) {
      struct wide_node *w = &c->wide[i];
      w->internal_base = next_internal;
      w->leaf_base = next_record;
      for (uint32_t s = 0; s < w->slot_count; s++) {
         if (is_internal(t, w->slot[s]))
            next_internal++;
         else
            next_record += t->nodes[w->slot[s]].count;
      }
   }
}

struct writer {
   const struct bvh_build_input *in;
   uint8_t *base;
   struct ppu_bvh_header *header;
   struct ppu_bvh_geometry *geometries;
   uint32_t stride;
   /* The node writing pass, over chunks of WIDE_CHUNK nodes. */
   const struct collapse *collapse;
   const struct bvh_prim *prims;
   struct bvh_build_stats *chunk_stats;
};

/* Wide nodes per item of the node writing loop: fixed (bvh_pool.h). */
#define WIDE_CHUNK 512u

static void *record_at(const struct writer *w, uint32_t r)
{
   return w->base + w->header->leaf_offset + (uint64_t)r * w->stride;
}

/* first_record is the lowest record of the geometry; records of one
 * geometry are written by several threads, so it is an atomic minimum
 * (mostly a plain load: within a chunk records only grow). */
static void lower_first_record(struct ppu_bvh_geometry *g, uint32_t r)
{
   uint32_t cur = __atomic_load_n(&g->first_record, __ATOMIC_RELAXED);
   while (r < cur && !__atomic_compare_exchange_n(&g->first_record, &cur, r, true, __ATOMIC_RELAXED,
                                                  __ATOMIC_RELAXED))
      ;
}

static void write_node(const struct writer *w, uint32_t i, struct bvh_build_stats *stats)
{
   const struct bvh_bin_tree *t = w->collapse->tree;
   const struct wide_node *wn = &w->collapse->wide[i];
   struct ppu_bvh_node *node = (struct ppu_bvh_node *)(w->base + w->header->node_offset) + i;
   double root_area = bvh_box_half_area(&t->nodes[0].box);
   struct bvh_box boxes[PPU_BVH_WIDTH];
   memset(node, 0, sizeof(*node));
   node->child_count = (uint8_t)wn->slot_count;
   node->parent = wn->parent;
   node->depth = wn->depth;
   /* Ancestors 2..7 from the wide nodes' parent links: at most six reads
    * of finished data, so nodes stay independent of each other and of the
    * thread that writes them (deterministic output). */
   uint32_t up = wn->parent;
   for (unsigned a = 0; a < PPU_BVH_ANCESTORS - 1u; a++) {
      up = up == PPU_BVH_NONE ? PPU_BVH_NONE : w->collapse->wide[up].parent;
      node->ancestor[a] = up;
   }
   node->internal_base = wn->internal_base;
   node->leaf_base = wn->leaf_base;
   uint32_t next_internal = wn->internal_base, next_record = wn->leaf_base;
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
         node->child_index[s] = (uint8_t)(next_record - node->leaf_base);
         node->child_records[s] = (uint8_t)b->count;
         for (uint32_t k = 0; k < b->count; k++) {
            const struct bvh_prim *p = &w->prims[b->first_or_left + k];
            bvh_input_write_record_as(w->in, p->geometry, p->primitive, true,
                                      record_at(w, next_record));
            lower_first_record(&w->geometries[p->geometry], next_record++);
         }
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

static void write_node_chunk(void *arg, uint32_t k)
{
   const struct writer *w = arg;
   struct bvh_build_stats *stats = &w->chunk_stats[k];
   uint32_t end = w->collapse->wide_count;
   memset(stats, 0, sizeof(*stats));
   for (uint32_t i = k * WIDE_CHUNK; i < end && i < (k + 1) * WIDE_CHUNK; i++)
      write_node(w, i, stats);
}

/* Nodes and the active records below them, chunks in parallel; the
 * statistics are summed in chunk order so that they too are the same for
 * every thread count. */
static enum bvh_result write_nodes(struct writer *w, struct bvh_pool *pool,
                                   struct bvh_build_stats *stats)
{
   uint32_t chunks = (w->collapse->wide_count + WIDE_CHUNK - 1) / WIDE_CHUNK;
   w->chunk_stats = malloc(sizeof(*w->chunk_stats) * chunks);
   if (!w->chunk_stats)
      return BVH_ERROR_OUT_OF_HOST_MEMORY;
   bvh_pool_for(pool, chunks, write_node_chunk, w);
   for (uint32_t k = 0; k < chunks; k++) {
      const struct bvh_build_stats *c = &w->chunk_stats[k];
      stats->leaf_child_count += c->leaf_child_count;
      stats->sah_cost += c->sah_cost;
      if (c->max_depth > stats->max_depth)
         stats->max_depth = c->max_depth;
   }
   free(w->chunk_stats);
   w->chunk_stats = NULL;
   return BVH_SUCCESS;
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
static void write_inactive_records(struct writer *w, uint32_t geometry_count, uint32_t next_record)
{
   for (uint32_t g = 0; g < geometry_count; g++) {
      uint32_t count = w->geometries[g].primitive_count;
      for (uint32_t i = 0; i < count; i++) {
         /* Decide activity without writing: into a scratch record. */
         uint8_t scratch[sizeof(struct ppu_bvh_instance)];
         struct bvh_box box;
         if (bvh_input_write_record(w->in, g, i, scratch, &box))
            continue;
         bvh_input_write_record_as(w->in, g, i, false, record_at(w, next_record));
         lower_first_record(&w->geometries[g], next_record++);
      }
   }
}

/* Threads for a build of n active primitives: one below
 * BVH_PARALLEL_MIN_PRIMITIVES, where starting threads costs more than
 * they save; else the caller's choice, by default the online CPUs. */
static unsigned build_threads(const struct bvh_build_input *in, uint32_t n)
{
   if (n < BVH_PARALLEL_MIN_PRIMITIVES)
      return 1;
   long threads = in->thread_count;
   if (threads == 0)
      threads = sysconf(_SC_NPROCESSORS_ONLN);
   if (threads < 1)
      threads = 1;
   return threads > (long)BVH_MAX_THREADS ? BVH_MAX_THREADS : (unsigned)threads;
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
   struct bvh_prim *prims = bvh_alloc_large(sizeof(*prims) * (total ? total : 1));
   if (!prims)
      return BVH_ERROR_OUT_OF_HOST_MEMORY;
   /* Whether threads pay off is only known after the gather, which the
    * pool would speed up; the total is close enough to decide. */
   struct bvh_pool *pool = bvh_pool_create(build_threads(in, total));
   uint32_t active = 0;
   struct bvh_bin_tree tree = {0};
   struct collapse c = {.tree = &tree};
   r = bvh_input_gather(in, prims, pool, &active);
   if (r != BVH_SUCCESS)
      goto out;
   stats.active_record_count = active;

   if (active) {
      r = in->prefer_fast_build ? bvh_build_binary_fast(prims, active, pool, &tree)
                                : bvh_build_binary(prims, active, pool, &tree);
      if (r == BVH_SUCCESS) {
         c.wide_capacity = (uint32_t)max_wide_nodes(active);
         c.wide = bvh_alloc_large(sizeof(*c.wide) * c.wide_capacity);
         if (!c.wide)
            r = BVH_ERROR_OUT_OF_HOST_MEMORY;
      }
      if (r == BVH_SUCCESS && !collapse_tree(&c))
         r = BVH_ERROR_INVALID_INPUT;
      if (r != BVH_SUCCESS)
         goto out;
      number_wide_nodes(&c);
   }

   struct writer w = {
       .in = in,
       .base = dst,
       .header = dst,
       .stride = bvh_record_stride(in->kind),
       .collapse = &c,
       .prims = prims,
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
      r = write_nodes(&w, pool, &stats);
      if (r != BVH_SUCCESS)
         goto out;
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
   /* Most builds have no inactive primitive: skip the pass over the input. */
   if (active < total)
      write_inactive_records(&w, geometry_count, active);
   w.header->max_depth = stats.max_depth;
   stats.node_count = c.wide_count;
   if (stats_out)
      *stats_out = stats;
out:
   bvh_pool_destroy(pool);
   free(c.wide);
   free(tree.nodes);
   free(prims);
   return r;
}
