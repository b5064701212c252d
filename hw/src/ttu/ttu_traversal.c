/* The TTU's traversal unit: a stack-based, closest-child-first walk of the
 * two-level BVH of ppu/bvh.h, resumable between TTU instructions.
 *
 * The walk keeps one stack per level in the object's private area
 * (ttu_private.h): each entry is an expanded node and the children it still
 * has to visit, ordered by entry distance when the node was expanded (the
 * seed's traversal units test all children of a node and push the ones the
 * ray hits; its stack management unit keeps the per-ray stack). Instance
 * records of the top level hand the ray, transformed into object space, to
 * the bottom level (the setup unit's "transform coordinates ... from a
 * global coordinate system into a local coordinate system"); when the
 * bottom-level stack runs empty the walk returns to the top level.
 *
 * The rules of what becomes a commit or a candidate are the Vulkan ray
 * traversal rules (Vulkan spec, "Ray Traversal": primitive, mask, face and
 * opacity culling, then confirmation); docs/ray-query.md lists them.
 *
 * Nothing read from memory is trusted: node and record indices are checked
 * against the header's counts, the stack depth against PPU_BVH_MAX_DEPTH,
 * and a node expanded more often than the structure has nodes (a cycle or
 * shared subtree) ends the walk with PPU_FAULT_BAD_RAY_QUERY. So the work of
 * one walk is bounded by the node counts of the structures it enters.
 */
#include "ttu/ttu_traversal.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "fault.h"
#include "host_bits.h"
#include "ttu/ttu_box_datapath.h"
#include "ttu/ttu_intersect.h"

bool ppu_ttu_fail(struct ppu_ttu_query *q, uint64_t address, const char *fmt, ...)
{
   char what[128];
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(what, sizeof(what), fmt, ap);
   va_end(ap);
   ppu_fault_set(q->fault, PPU_FAULT_BAD_RAY_QUERY, PPU_ENGINE_COMPUTE, "%s", what);
   q->fault->address = address;
   return false;
}

static void count(struct ppu_ttu_query *q, enum ppu_counter id)
{
   ppu_counter_add(q->ttu->counters, id, 1);
}

/* One test enters the intersection datapath: counts it, and a change of
 * kind since the last test of this TTU (unified datapath seed: the control
 * unit reconfigures the mux layers between box and triangle tests). */
static void count_test(struct ppu_ttu_query *q, enum ppu_counter id, enum ppu_ttu_test_kind kind)
{
   count(q, id);
   if (q->ttu->last_test_kind != (uint32_t)kind) {
      if (q->ttu->last_test_kind)
         count(q, PPU_COUNTER_TTU_DATAPATH_SWITCHES);
      q->ttu->last_test_kind = kind;
   }
}

/* Pending children of one stack entry: its nibbles with bit 3 set (at most
 * eight, so the sum fits the top nibble of the product). */
static uint32_t entry_pending(uint32_t pending)
{
   return (((pending >> 3) & 0x11111111u) * 0x11111111u) >> 28;
}

/* Pending child nodes on the ray's stacks (the entries a hardware stack of
 * single nodes would hold), counted until there are `enough`: the spill
 * rule below needs the exact count only under the stack's capacity, and
 * deep stacks pass it within a few entries. */
static uint32_t stack_pending_up_to(const struct ppu_ttu_private *p, uint32_t enough)
{
   uint32_t n = 0;
   for (uint32_t i = 0; i < p->top.depth && i < PPU_BVH_MAX_DEPTH && n < enough; i++)
      n += entry_pending(p->top_stack[i].pending);
   if (p->level == PPU_TTU_LEVEL_BOTTOM)
      for (uint32_t i = 0; i < p->bottom.depth && i < PPU_BVH_MAX_DEPTH && n < enough; i++)
         n += entry_pending(p->bottom_stack[i].pending);
   return n;
}

static bool fetch(struct ppu_ttu_query *q, uint64_t va, void *dst, uint32_t len)
{
   return ppu_ttu_l0_read(&q->ttu->l0, q->pd_pa, va, dst, len, q->fault);
}

enum ppu_ttu_header_check ppu_ttu_latch_level(const struct ppu_bvh_header *h, uint64_t va, bool top,
                                              struct ppu_ttu_level *lv)
{
   if (h->magic != PPU_BVH_MAGIC || h->version != PPU_BVH_VERSION)
      return PPU_TTU_HEADER_NOT_A_BVH;
   bool kind_ok = top ? h->kind == PPU_BVH_KIND_INSTANCES
                      : h->kind == PPU_BVH_KIND_TRIANGLES || h->kind == PPU_BVH_KIND_AABBS;
   if (!kind_ok)
      return PPU_TTU_HEADER_WRONG_KIND;
   uint32_t record = h->kind == PPU_BVH_KIND_INSTANCES ? sizeof(struct ppu_bvh_instance)
                                                       : sizeof(struct ppu_bvh_triangle);
   if (h->node_count && (h->node_offset % PPU_BVH_NODE_BYTES || h->leaf_stride < record))
      return PPU_TTU_HEADER_BAD_LAYOUT;
   memset(lv, 0, sizeof(*lv));
   lv->address = va;
   lv->kind = h->kind;
   lv->node_offset = h->node_offset;
   lv->node_count = h->node_count;
   lv->leaf_offset = h->leaf_offset;
   lv->leaf_count = h->leaf_count;
   lv->leaf_stride = h->leaf_stride;
   lv->root_pending = h->node_count != 0;
   return PPU_TTU_HEADER_OK;
}

/* Reads the header at va and latches what traversal needs into lv. */
static bool enter_level(struct ppu_ttu_query *q, struct ppu_ttu_level *lv, uint64_t va, bool top)
{
   if (va % PPU_BVH_ALIGN)
      return ppu_ttu_fail(q, va, "acceleration structure at 0x%llx is not 128-byte aligned",
                          (unsigned long long)va);
   struct ppu_bvh_header h;
   if (!fetch(q, va, &h, sizeof(h)))
      return false;
   switch (ppu_ttu_latch_level(&h, va, top, lv)) {
   case PPU_TTU_HEADER_NOT_A_BVH:
      return ppu_ttu_fail(q, va, "no BVH header (magic 0x%08x, version %u) at 0x%llx", h.magic,
                          h.version, (unsigned long long)va);
   case PPU_TTU_HEADER_WRONG_KIND:
      return ppu_ttu_fail(q, va, "BVH at 0x%llx has kind %u where a %s level is needed",
                          (unsigned long long)va, h.kind, top ? "top" : "bottom");
   case PPU_TTU_HEADER_BAD_LAYOUT:
      return ppu_ttu_fail(q, va, "BVH at 0x%llx: node offset %u or leaf stride %u invalid",
                          (unsigned long long)va, h.node_offset, h.leaf_stride);
   case PPU_TTU_HEADER_OK:
      break;
   }
   q->memo_valid[top ? PPU_TTU_LEVEL_TOP : PPU_TTU_LEVEL_BOTTOM] = 0; /* a new ray or tree */
   return true;
}

bool ppu_ttu_enter_top(struct ppu_ttu_query *q, uint64_t va)
{
   q->p.level = PPU_TTU_LEVEL_TOP;
   return enter_level(q, &q->p.top, va, true);
}

static bool check_level(const struct ppu_ttu_level *lv, const struct ppu_ttu_stack_entry *stack)
{
   bool ok = lv->depth <= PPU_BVH_MAX_DEPTH && lv->leaf_next <= lv->leaf_end &&
             lv->leaf_end - lv->leaf_next <= PPU_BVH_MAX_LEAF_RECORDS &&
             lv->leaf_end <= lv->leaf_count;
   for (uint32_t i = 0; ok && i < lv->depth; i++)
      for (uint32_t rest = stack[i].pending; rest; rest >>= 4)
         ok = ok && (rest & 8u);
   return ok;
}

bool ppu_ttu_check_private(struct ppu_ttu_query *q)
{
   const struct ppu_ttu_private *p = &q->p;
   bool ok = p->top.kind == PPU_BVH_KIND_INSTANCES && check_level(&p->top, p->top_stack);
   if (p->level == PPU_TTU_LEVEL_BOTTOM)
      ok = ok &&
           (p->bottom.kind == PPU_BVH_KIND_TRIANGLES || p->bottom.kind == PPU_BVH_KIND_AABBS) &&
           check_level(&p->bottom, p->bottom_stack);
   else
      ok = ok && p->level == PPU_TTU_LEVEL_TOP;
   if (!ok)
      return ppu_ttu_fail(q, 0, "TTU private state of the ray query is corrupted");
   return true;
}

/* The walk of one instruction: the object plus the rays of both levels. */
struct walk {
   struct ppu_ttu_query *q;
   struct ppu_ttu_ray world, object;
};

static bool fetch_node(struct walk *w, const struct ppu_ttu_level *lv, uint64_t index,
                       struct ppu_bvh_node *n)
{
   if (index >= lv->node_count)
      return ppu_ttu_fail(w->q, lv->address, "node %llu beyond the %u nodes of the BVH at 0x%llx",
                          (unsigned long long)index, lv->node_count,
                          (unsigned long long)lv->address);
   uint64_t va = lv->address + lv->node_offset + index * PPU_BVH_NODE_BYTES;
   /* A node the warp's beam holds is read from it, not fetched (the same
    * bytes: ttu_beam_walk.h). */
   const struct ppu_bvh_node *held = ppu_ttu_beam_lookup(&w->q->ttu->beam, va);
   if (held) {
      *n = *held;
      count(w->q, PPU_COUNTER_TTU_BEAM_NODE_SHARES);
      return true;
   }
   count(w->q, PPU_COUNTER_TTU_NODE_FETCHES);
   return fetch(w->q, va, n, sizeof(*n));
}

/* Ancestors 1..7 of n: its parent, then its stored ancestors 2..7. */
static void node_ancestors(const struct ppu_bvh_node *n, uint32_t up[PPU_BVH_ANCESTORS])
{
   up[0] = n->parent;
   memcpy(&up[1], n->ancestor, sizeof(n->ancestor));
}

static float committed_t(const struct walk *w)
{
   return w->q->rq.committed.t;
}

static bool child_hit(struct walk *w, const struct ppu_ttu_ray *ray, const struct ppu_bvh_node *n,
                      unsigned slot, float *tnear)
{
   float lo[3], hi[3];
   ppu_ttu_child_box(n, slot, lo, hi);
   count_test(w->q, PPU_COUNTER_TTU_BOX_TESTS, PPU_TTU_TEST_BOX);
   return ppu_ttu_box_test(ray, lo, hi, w->q->p.tmin, committed_t(w), tnear);
}

static enum ppu_ttu_level_id level_id(const struct walk *w, const struct ppu_ttu_level *lv)
{
   return lv == &w->q->p.top ? PPU_TTU_LEVEL_TOP : PPU_TTU_LEVEL_BOTTOM;
}

static uint32_t f32_bits(float f)
{
   uint32_t u;
   memcpy(&u, &f, sizeof(u));
   return u;
}

_Static_assert(offsetof(struct ppu_bvh_node, q_lo) == 32 &&
                   offsetof(struct ppu_bvh_node, child_kind) == 80,
               "the memo's planes are node bytes 32..79");

static void memo_record(struct walk *w, enum ppu_ttu_level_id level, uint32_t entry,
                        const struct ppu_bvh_node *n, float tmax, uint32_t hit_mask)
{
   struct ppu_ttu_expansion_memo *m = &w->q->memo[level][entry];
   m->tmax_bits = f32_bits(tmax);
   m->hit_mask = hit_mask;
   memcpy(m->grid, n, sizeof(m->grid));
   memcpy(m->planes, n->q_lo, sizeof(m->planes));
   w->q->memo_valid[level] |= 1u << entry;
}

/* Whether the expansion memo of stack entry `entry` says slot's box is hit
 * by the level's ray over [tmin, tmax]: the same inputs as then. */
static bool memo_says_hit(const struct walk *w, enum ppu_ttu_level_id level, uint32_t entry,
                          const struct ppu_bvh_node *n, unsigned slot, float tmax)
{
   const struct ppu_ttu_expansion_memo *m = &w->q->memo[level][entry];
   return ((w->q->memo_valid[level] >> entry) & 1u) && ((m->hit_mask >> slot) & 1u) &&
          m->tmax_bits == f32_bits(tmax) && !memcmp(m->grid, n, sizeof(m->grid)) &&
          !memcmp(m->planes, n->q_lo, sizeof(m->planes));
}

/* Bit i of *known: slot i is INTERNAL or LEAF; of *empty: slot i is EMPTY
 * (all eight slots, whatever child_count says). One compare of the eight
 * kind bytes per kind where SSE2 is there (every x86-64), else a loop. */
static void child_kind_masks(const struct ppu_bvh_node *n, uint32_t *known, uint32_t *empty)
{
#if defined(__SSE2__)
   __m128i kinds = _mm_loadl_epi64((const __m128i *)(const void *)n->child_kind);
   __m128i internal = _mm_cmpeq_epi8(kinds, _mm_set1_epi8(PPU_BVH_CHILD_INTERNAL));
   __m128i leaf = _mm_cmpeq_epi8(kinds, _mm_set1_epi8(PPU_BVH_CHILD_LEAF));
   __m128i none = _mm_cmpeq_epi8(kinds, _mm_set1_epi8(PPU_BVH_CHILD_EMPTY));
   *known = (uint32_t)_mm_movemask_epi8(_mm_or_si128(internal, leaf)) & 0xffu;
   *empty = (uint32_t)_mm_movemask_epi8(none) & 0xffu;
#else
   *known = *empty = 0;
   for (unsigned slot = 0; slot < PPU_BVH_WIDTH; slot++) {
      unsigned kind = n->child_kind[slot];
      *known |= (uint32_t)(kind == PPU_BVH_CHILD_INTERNAL || kind == PPU_BVH_CHILD_LEAF) << slot;
      *empty |= (uint32_t)(kind == PPU_BVH_CHILD_EMPTY) << slot;
   }
#endif
}

/* Tests every child of node `index` and pushes the node with the children
 * hit, closest first. */
static bool expand(struct walk *w, struct ppu_ttu_level *lv, struct ppu_ttu_stack_entry *stack,
                   const struct ppu_ttu_ray *ray, uint64_t index)
{
   if (++lv->expansions > lv->node_count)
      return ppu_ttu_fail(w->q, lv->address,
                          "BVH at 0x%llx is not a tree: more node visits than its %u nodes",
                          (unsigned long long)lv->address, lv->node_count);
   struct ppu_bvh_node n;
   if (!fetch_node(w, lv, index, &n))
      return false;
   if (n.child_count > PPU_BVH_WIDTH)
      return ppu_ttu_fail(w->q, lv->address, "node %llu has %u children", (unsigned long long)index,
                          n.child_count);
   /* Which slots enter the datapath: the non-empty ones, up to a slot of
    * an unknown kind, which ends the expansion with a fault after the tests
    * of the slots before it (as a slot-by-slot walk would count them). */
   uint32_t known, empty;
   child_kind_masks(&n, &known, &empty);
   uint32_t in_node = (1u << n.child_count) - 1u, bad = in_node & ~(known | empty);
   unsigned bad_slot = bad ? (unsigned)__builtin_ctz(bad) : PPU_BVH_WIDTH;
   uint32_t tested = known & in_node & ((1u << bad_slot) - 1u);
   /* All children in one pass of the box datapath (ttu_box_datapath.h),
    * counted as the tests they are; the datapath switches to boxes once. */
   float near[PPU_BVH_WIDTH], tested_tmax = committed_t(w);
   uint32_t hit_mask = 0;
   if (tested) {
      count_test(w->q, PPU_COUNTER_TTU_BOX_TESTS, PPU_TTU_TEST_BOX);
      if (tested & (tested - 1))
         ppu_counter_add(w->q->ttu->counters, PPU_COUNTER_TTU_BOX_TESTS,
                         (uint64_t)ppu_popcount32(tested) - 1);
      hit_mask = tested & w->q->ttu->node_box_test(ray, &n, w->q->p.tmin, tested_tmax, near);
   }
   if (bad_slot < PPU_BVH_WIDTH)
      return ppu_ttu_fail(w->q, lv->address, "node %llu slot %u has child kind %u",
                          (unsigned long long)index, bad_slot, n.child_kind[bad_slot]);
   unsigned order[PPU_BVH_WIDTH], hits = 0;
   float order_t[PPU_BVH_WIDTH];
   for (uint32_t rest = hit_mask; rest; rest &= rest - 1) {
      unsigned slot = (unsigned)__builtin_ctz(rest);
      float t = near[slot];
      /* Insertion by entry t; equal t keep slot order. */
      unsigned i = hits++;
      for (; i > 0 && order_t[i - 1] > t; i--) {
         order_t[i] = order_t[i - 1];
         order[i] = order[i - 1];
      }
      order_t[i] = t;
      order[i] = slot;
   }
   if (hits == 0)
      return true;
   if (lv->depth >= PPU_BVH_MAX_DEPTH)
      return ppu_ttu_fail(w->q, lv->address, "BVH at 0x%llx is deeper than %u levels",
                          (unsigned long long)lv->address, PPU_BVH_MAX_DEPTH);
   /* Entries pushed beyond the stack's capacity spill to local memory
    * (predictor notes: "occasionally overflows into thread-local memory"). */
   uint32_t limit = w->q->ttu->stack_entries, before = stack_pending_up_to(&w->q->p, limit);
   uint32_t spills = before >= limit ? hits : before + hits > limit ? before + hits - limit : 0;
   if (spills)
      ppu_counter_add(w->q->ttu->counters, PPU_COUNTER_TTU_STACK_SPILLS, spills);
   uint32_t pending = 0;
   for (unsigned i = 0; i < hits; i++)
      pending |= (8u | order[i]) << (4 * i);
   stack[lv->depth].node = (uint32_t)index;
   stack[lv->depth].pending = pending;
   memo_record(w, level_id(w, lv), lv->depth, &n, tested_tmax, hit_mask);
   lv->depth++;
   uint32_t *valid =
       &w->q->stack_valid[lv == &w->q->p.top ? PPU_TTU_LEVEL_TOP : PPU_TTU_LEVEL_BOTTOM];
   if (*valid < lv->depth)
      *valid = lv->depth;
   return true;
}

/* Takes the next pending child of the top stack entry: descends into an
 * internal child or opens a leaf's records. */
static bool next_child(struct walk *w, struct ppu_ttu_level *lv, struct ppu_ttu_stack_entry *stack,
                       const struct ppu_ttu_ray *ray)
{
   struct ppu_ttu_stack_entry *e = &stack[lv->depth - 1];
   if (e->pending == 0) {
      lv->depth--;
      return true;
   }
   unsigned slot = e->pending & 7u;
   e->pending >>= 4;
   struct ppu_bvh_node n;
   if (!fetch_node(w, lv, e->node, &n))
      return false;
   /* A commit since the node was expanded may have moved the child out of
    * [tmin, committed t]. */
   float t;
   if (memo_says_hit(w, level_id(w, lv), lv->depth - 1, &n, slot, committed_t(w)))
      count_test(w->q, PPU_COUNTER_TTU_BOX_TESTS, PPU_TTU_TEST_BOX);
   else if (!child_hit(w, ray, &n, slot, &t))
      return true;
   switch (n.child_kind[slot]) {
   case PPU_BVH_CHILD_INTERNAL:
      return expand(w, lv, stack, ray, (uint64_t)n.internal_base + n.child_index[slot]);
   case PPU_BVH_CHILD_LEAF: {
      uint64_t first = (uint64_t)n.leaf_base + n.child_index[slot];
      unsigned records = n.child_records[slot];
      if (records == 0 || records > PPU_BVH_MAX_LEAF_RECORDS || first + records > lv->leaf_count)
         return ppu_ttu_fail(w->q, lv->address,
                             "node %u slot %u: records %llu+%u beyond the %u of the BVH", e->node,
                             slot, (unsigned long long)first, records, lv->leaf_count);
      lv->leaf_next = (uint32_t)first;
      lv->leaf_end = (uint32_t)(first + records);
      if (lv == &w->q->p.bottom) { /* the predictor's Go Up Level reads it on a hit */
         w->q->leaf_node.valid = true;
         w->q->leaf_node.level = lv->address;
         w->q->leaf_node.node = e->node;
         node_ancestors(&n, w->q->leaf_node.ancestor);
      }
      return true;
   }
   default: /* the node changed under the walk, or a corrupted stack */
      return ppu_ttu_fail(w->q, lv->address, "node %u slot %u is no longer a child", e->node, slot);
   }
}

/* Transforms the world ray with the instance's world_to_object matrix and
 * makes its bottom-level structure the current level (unless it is empty or
 * its primitives are skipped by the ray flags). False on a fault. */
static bool enter_instance(struct walk *w, uint64_t va, const struct ppu_bvh_instance *inst)
{
   struct ppu_ttu_private *p = &w->q->p;
   if (!enter_level(w->q, &p->bottom, inst->blas_address, false))
      return false;
   uint32_t skip = p->bottom.kind == PPU_BVH_KIND_TRIANGLES ? PPU_RAY_FLAG_SKIP_TRIANGLES
                                                            : PPU_RAY_FLAG_SKIP_AABBS;
   if (p->bottom.node_count == 0 || (p->ray_flags & skip))
      return true;
   ppu_ttu_object_ray(inst->world_to_object, p->origin, p->direction, p->object_origin,
                      p->object_direction);
   ppu_ttu_ray_setup(&w->object, p->object_origin, p->object_direction);
   p->instance_address = va;
   p->instance_custom_index = inst->custom_index_and_mask & 0xffffffu;
   p->instance_sbt_and_flags = inst->sbt_offset_and_flags;
   p->instance_id = inst->instance_index;
   p->level = PPU_TTU_LEVEL_BOTTOM;
   count(w->q, PPU_COUNTER_TTU_INSTANCE_TRANSFORMS);
   return true;
}

static uint32_t instance_flags(const struct ppu_ttu_private *p)
{
   return p->instance_sbt_and_flags >> 24;
}

/* Opacity: the geometry's flag, overridden by the instance's FORCE flags,
 * overridden by the ray's OPAQUE / NO_OPAQUE flags (Vulkan spec, "Ray
 * Opacity Culling"). */
static bool is_opaque(const struct ppu_ttu_private *p, uint32_t prim_flags)
{
   bool opaque = (prim_flags & PPU_BVH_PRIM_OPAQUE) != 0;
   uint32_t inst = instance_flags(p);
   if (inst & PPU_BVH_INSTANCE_FORCE_OPAQUE)
      opaque = true;
   else if (inst & PPU_BVH_INSTANCE_FORCE_NO_OPAQUE)
      opaque = false;
   if (p->ray_flags & PPU_RAY_FLAG_OPAQUE)
      opaque = true;
   else if (p->ray_flags & PPU_RAY_FLAG_NO_OPAQUE)
      opaque = false;
   return opaque;
}

static bool opacity_culled(const struct ppu_ttu_private *p, bool opaque)
{
   return (opaque && (p->ray_flags & PPU_RAY_FLAG_CULL_OPAQUE)) ||
          (!opaque && (p->ray_flags & PPU_RAY_FLAG_CULL_NO_OPAQUE));
}

static void fill_hit(const struct ppu_ttu_private *p, struct ppu_ray_query_hit *h, uint32_t type,
                     float t, uint32_t geometry_index, uint32_t primitive_index,
                     uint64_t primitive_address)
{
   memset(h, 0, sizeof(*h));
   h->type = type;
   h->t = t;
   h->instance_custom_index = p->instance_custom_index;
   h->instance_id = p->instance_id;
   h->sbt_offset = p->instance_sbt_and_flags & 0xffffffu;
   h->geometry_index = geometry_index;
   h->primitive_index = primitive_index;
   h->instance_address = p->instance_address;
   /* The record's own VA: shaders fetch the hit triangle's vertices from it
    * (position fetch) without the TTU copying 36 bytes into every hit. */
   h->primitive_address = primitive_address;
   memcpy(h->object_origin, p->object_origin, sizeof(h->object_origin));
   memcpy(h->object_direction, p->object_direction, sizeof(h->object_direction));
}

/* One triangle record: commit it (opaque), offer it (non-opaque) or drop it. */
static enum ppu_ttu_walk triangle_record(struct walk *w, uint64_t va)
{
   struct ppu_ttu_query *q = w->q;
   struct ppu_ttu_private *p = &q->p;
   struct ppu_bvh_triangle tri;
   if (!fetch(q, va, &tri, sizeof(tri)))
      return PPU_TTU_WALK_FAULT;
   if (tri.flags & PPU_BVH_PRIM_INACTIVE)
      return PPU_TTU_WALK_ON; /* go on */
   count_test(q, PPU_COUNTER_TTU_TRIANGLE_TESTS, PPU_TTU_TEST_TRIANGLE);
   struct ppu_ttu_triangle_hit hit;
   if (!ppu_ttu_triangle_test(&w->object, tri.v0, tri.v1, tri.v2, p->tmin, committed_t(w), &hit))
      return PPU_TTU_WALK_ON;
   /* Front facing: the vertices appear clockwise from the ray origin (the
    * projected area is negative), unless the instance flips it (Vulkan
    * spec, "Ray Face Culling"). */
   uint32_t inst = instance_flags(p);
   bool front = hit.det_positive != ((inst & PPU_BVH_INSTANCE_FLIP_FACING) != 0);
   if (!(inst & PPU_BVH_INSTANCE_CULL_DISABLE) &&
       (((p->ray_flags & PPU_RAY_FLAG_CULL_BACK_FACING) && !front) ||
        ((p->ray_flags & PPU_RAY_FLAG_CULL_FRONT_FACING) && front)))
      return PPU_TTU_WALK_ON;
   bool opaque = is_opaque(p, tri.flags);
   if (opacity_culled(p, opaque))
      return PPU_TTU_WALK_ON;
   struct ppu_ray_query_hit *h = opaque ? &q->rq.committed : &q->rq.candidate;
   if (opaque && q->rq.committed.type != PPU_RQ_COMMITTED_NONE && !(hit.t < q->rq.committed.t))
      return PPU_TTU_WALK_ON; /* of equal t, the first one found stays */
   fill_hit(p, h, opaque ? PPU_RQ_COMMITTED_TRIANGLE : PPU_RQ_CANDIDATE_TRIANGLE, hit.t,
            tri.geometry_index, tri.primitive_index, va);
   h->barycentrics[0] = hit.u;
   h->barycentrics[1] = hit.v;
   h->front_face = front;
   if (!opaque) {
      count(q, PPU_COUNTER_TTU_TRIANGLE_CANDIDATES);
      return PPU_TTU_WALK_CANDIDATE;
   }
   if (p->ray_flags & PPU_RAY_FLAG_TERMINATE_ON_FIRST_HIT)
      return PPU_TTU_WALK_DONE;
   return PPU_TTU_WALK_ON;
}

/* One AABB record: every AABB the ray enters within [tmin, committed t] is
 * a candidate, opaque or not (the shader decides, as Vulkan ray queries
 * require: there is no intersection shader to run). */
static enum ppu_ttu_walk aabb_record(struct walk *w, uint64_t va)
{
   struct ppu_ttu_query *q = w->q;
   struct ppu_ttu_private *p = &q->p;
   struct ppu_bvh_aabb box;
   if (!fetch(q, va, &box, sizeof(box)))
      return PPU_TTU_WALK_FAULT;
   if (box.flags & PPU_BVH_PRIM_INACTIVE)
      return PPU_TTU_WALK_ON;
   bool opaque = is_opaque(p, box.flags);
   if (opacity_culled(p, opaque))
      return PPU_TTU_WALK_ON;
   float t;
   count_test(q, PPU_COUNTER_TTU_BOX_TESTS, PPU_TTU_TEST_BOX);
   if (!ppu_ttu_box_test(&w->object, box.min, box.max, p->tmin, committed_t(w), &t))
      return PPU_TTU_WALK_ON;
   fill_hit(p, &q->rq.candidate, PPU_RQ_CANDIDATE_AABB, t, box.geometry_index, box.primitive_index,
            va);
   q->rq.candidate.aabb_opaque = opaque;
   count(q, PPU_COUNTER_TTU_AABB_CANDIDATES);
   return PPU_TTU_WALK_CANDIDATE;
}

/* One record of the current leaf: DONE, CANDIDATE or FAULT end the walk. */
static enum ppu_ttu_walk leaf_record(struct walk *w, struct ppu_ttu_level *lv)
{
   struct ppu_ttu_private *p = &w->q->p;
   uint32_t index = lv->leaf_next++;
   uint64_t va = lv->address + lv->leaf_offset + (uint64_t)index * lv->leaf_stride;
   if (p->level == PPU_TTU_LEVEL_BOTTOM)
      return lv->kind == PPU_BVH_KIND_TRIANGLES ? triangle_record(w, va) : aabb_record(w, va);
   struct ppu_bvh_instance inst;
   if (!fetch(w->q, va, &inst, sizeof(inst)))
      return PPU_TTU_WALK_FAULT;
   /* Ray mask culling: (mask & cull mask) == 0 drops the instance. */
   if (((inst.custom_index_and_mask >> 24) & p->cull_mask & 0xffu) == 0 || inst.blas_address == 0)
      return PPU_TTU_WALK_ON;
   return enter_instance(w, va, &inst) ? PPU_TTU_WALK_ON : PPU_TTU_WALK_FAULT;
}

/* One step within level lv: the next record of an open leaf, or the next
 * child of the stack's top entry. *idle when lv has neither left. */
static enum ppu_ttu_walk advance(struct walk *w, struct ppu_ttu_level *lv,
                                 struct ppu_ttu_stack_entry *stack, const struct ppu_ttu_ray *ray,
                                 bool *idle)
{
   *idle = false;
   if (lv->leaf_next < lv->leaf_end)
      return leaf_record(w, lv);
   if (lv->depth > 0)
      return next_child(w, lv, stack, ray) ? PPU_TTU_WALK_ON : PPU_TTU_WALK_FAULT;
   *idle = true;
   return PPU_TTU_WALK_ON;
}

enum ppu_ttu_walk ppu_ttu_traverse(struct ppu_ttu_query *q)
{
   struct ppu_ttu_private *p = &q->p;
   struct walk w = {.q = q};
   ppu_ttu_ray_setup(&w.world, p->origin, p->direction);
   if (p->level == PPU_TTU_LEVEL_BOTTOM)
      ppu_ttu_ray_setup(&w.object, p->object_origin, p->object_direction);
   for (;;) {
      bool top = p->level == PPU_TTU_LEVEL_TOP;
      struct ppu_ttu_level *lv = top ? &p->top : &p->bottom;
      struct ppu_ttu_stack_entry *stack = top ? p->top_stack : p->bottom_stack;
      const struct ppu_ttu_ray *ray = top ? &w.world : &w.object;
      if (lv->root_pending && lv->leaf_next >= lv->leaf_end) {
         lv->root_pending = 0;
         if (!expand(&w, lv, stack, ray, 0))
            return PPU_TTU_WALK_FAULT;
         continue;
      }
      bool idle;
      enum ppu_ttu_walk r = advance(&w, lv, stack, ray, &idle);
      if (r != PPU_TTU_WALK_ON)
         return r;
      if (idle && top)
         return PPU_TTU_WALK_DONE;
      if (idle)
         p->level = PPU_TTU_LEVEL_TOP; /* this instance is done */
   }
}

bool ppu_ttu_top_bounds(struct ppu_ttu_query *q, float lo[3], float hi[3])
{
   struct ppu_bvh_header h;
   if (!fetch(q, q->p.top.address, &h, sizeof(h)))
      return false;
   memcpy(lo, h.bounds_min, sizeof(h.bounds_min));
   memcpy(hi, h.bounds_max, sizeof(h.bounds_max));
   return true;
}

/* The predicted walk trusts nothing it is given: the instance must be a
 * record of the ray's own top level (a prediction learned from another
 * structure, or a table entry gone stale, finds nothing) and pass the
 * ray's mask, and the node is checked like any other. */
enum ppu_ttu_walk ppu_ttu_traverse_subtree(struct ppu_ttu_query *q, uint64_t instance_va,
                                           uint32_t node)
{
   struct ppu_ttu_private *p = &q->p;
   const struct ppu_ttu_level *top = &p->top;
   uint64_t records = top->address + top->leaf_offset;
   if (top->leaf_stride == 0 || instance_va < records ||
       (instance_va - records) % top->leaf_stride ||
       (instance_va - records) / top->leaf_stride >= top->leaf_count)
      return PPU_TTU_WALK_ON;
   struct walk w = {.q = q};
   ppu_ttu_ray_setup(&w.world, p->origin, p->direction);
   struct ppu_bvh_instance inst;
   if (!fetch(q, instance_va, &inst, sizeof(inst)))
      return PPU_TTU_WALK_FAULT;
   if (((inst.custom_index_and_mask >> 24) & p->cull_mask & 0xffu) == 0 || inst.blas_address == 0)
      return PPU_TTU_WALK_ON;
   if (!enter_instance(&w, instance_va, &inst))
      return PPU_TTU_WALK_FAULT;
   struct ppu_ttu_level *lv = &p->bottom;
   if (p->level != PPU_TTU_LEVEL_BOTTOM || lv->kind != PPU_BVH_KIND_TRIANGLES ||
       node >= lv->node_count)
      return PPU_TTU_WALK_ON;
   lv->root_pending = 0;
   if (!expand(&w, lv, p->bottom_stack, &w.object, node))
      return PPU_TTU_WALK_FAULT;
   for (;;) {
      bool idle;
      enum ppu_ttu_walk r = advance(&w, lv, p->bottom_stack, &w.object, &idle);
      if (r != PPU_TTU_WALK_ON || idle)
         return r;
   }
}

bool ppu_ttu_bottom_ancestor(struct ppu_ttu_query *q, uint32_t node, uint32_t k, uint32_t *out)
{
   struct walk w = {.q = q};
   const struct ppu_ttu_level *lv = &q->p.bottom;
   while (k > 0) {
      uint32_t up[PPU_BVH_ANCESTORS];
      if (q->leaf_node.valid && q->leaf_node.level == lv->address && q->leaf_node.node == node) {
         memcpy(up, q->leaf_node.ancestor, sizeof(up));
      } else {
         struct ppu_bvh_node n;
         if (!fetch_node(&w, lv, node, &n))
            return false;
         node_ancestors(&n, up);
      }
      uint32_t steps = k < PPU_BVH_ANCESTORS ? k : PPU_BVH_ANCESTORS;
      for (uint32_t i = 0; i < steps; i++) {
         if (up[i] == PPU_BVH_NONE) { /* above the root: nothing is higher */
            *out = i ? up[i - 1] : node;
            return true;
         }
         if (up[i] >= lv->node_count)
            return ppu_ttu_fail(q, lv->address, "node %u has ancestor %u %u", node, i + 1, up[i]);
      }
      node = up[steps - 1];
      k -= steps;
   }
   *out = node;
   return true;
}
