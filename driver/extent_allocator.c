/* See extent_allocator.h. A treap (a binary search tree on start address that
 * is also a heap on random priorities) keeps its expected depth O(log n)
 * without rebalancing code: split and merge are the only structural
 * operations, and every public operation is a few of them. */
#include "extent_allocator.h"

#include <stdlib.h>

struct extent_node {
   uint64_t start;
   uint64_t size;
   uint64_t max_size; /* largest size in this subtree */
   uint32_t priority;
   struct extent_node *left, *right;
};

static uint64_t subtree_max(const struct extent_node *n)
{
   return n ? n->max_size : 0;
}

static void update(struct extent_node *n)
{
   uint64_t m = n->size;
   if (subtree_max(n->left) > m)
      m = subtree_max(n->left);
   if (subtree_max(n->right) > m)
      m = subtree_max(n->right);
   n->max_size = m;
}

/* xorshift32: priorities only need to be unpredictable relative to the
 * insertion order, not to anyone looking. */
static uint32_t next_priority(struct extent_allocator *a)
{
   uint32_t x = a->rng;
   x ^= x << 13;
   x ^= x >> 17;
   x ^= x << 5;
   a->rng = x;
   return x;
}

/* Splits t into nodes with start < key (*l) and start >= key (*r). */
static void split(struct extent_node *t, uint64_t key, struct extent_node **l,
                  struct extent_node **r)
{
   if (!t) {
      *l = *r = NULL;
      return;
   }
   if (t->start < key) {
      split(t->right, key, &t->right, r);
      *l = t;
   } else {
      split(t->left, key, l, &t->left);
      *r = t;
   }
   update(t);
}

/* Every start in l is below every start in r. */
static struct extent_node *merge(struct extent_node *l, struct extent_node *r)
{
   if (!l)
      return r;
   if (!r)
      return l;
   if (l->priority > r->priority) {
      l->right = merge(l->right, r);
      update(l);
      return l;
   }
   r->left = merge(l, r->left);
   update(r);
   return r;
}

static struct extent_node *leftmost(struct extent_node *t)
{
   while (t && t->left)
      t = t->left;
   return t;
}

static struct extent_node *rightmost(struct extent_node *t)
{
   while (t && t->right)
      t = t->right;
   return t;
}

static void destroy_tree(struct extent_node *t)
{
   while (t) {
      destroy_tree(t->left);
      struct extent_node *right = t->right;
      free(t);
      t = right;
   }
}

void extent_allocator_init(struct extent_allocator *a, uint64_t granule)
{
   a->root = NULL;
   a->granule = granule;
   a->free_bytes = 0;
   a->rng = 0x9e3779b9u;
}

void extent_allocator_finish(struct extent_allocator *a)
{
   destroy_tree(a->root);
   a->root = NULL;
   a->free_bytes = 0;
}

static struct extent_node *new_node(struct extent_allocator *a, uint64_t start, uint64_t size)
{
   struct extent_node *n = malloc(sizeof(*n));
   if (!n)
      return NULL;
   *n = (struct extent_node){.start = start, .size = size, .max_size = size};
   n->priority = next_priority(a);
   return n;
}

/* Where an allocation of size/align would land in node n, if it fits. */
static bool fits_in(const struct extent_node *n, uint64_t size, uint64_t align, uint64_t *addr)
{
   uint64_t start = (n->start + align - 1) & ~(align - 1);
   if (start < n->start) /* wrapped */
      return false;
   uint64_t end = n->start + n->size;
   if (start > end || end - start < size)
      return false;
   *addr = start;
   return true;
}

/* Lowest-address node whose size is at least `need`: O(depth). */
static const struct extent_node *find_at_least(const struct extent_node *t, uint64_t need)
{
   while (t && t->max_size >= need) {
      if (subtree_max(t->left) >= need)
         t = t->left;
      else if (t->size >= need)
         return t;
      else
         t = t->right;
   }
   return NULL;
}

/* In-order search for the lowest node where an aligned range fits; subtrees
 * without a single large enough range are skipped. */
static bool find_aligned(const struct extent_node *t, uint64_t size, uint64_t align, uint64_t *addr)
{
   while (t && t->max_size >= size) {
      if (find_aligned(t->left, size, align, addr))
         return true;
      if (t->size >= size && fits_in(t, size, align, addr))
         return true;
      t = t->right;
   }
   return false;
}

enum drv_result extent_allocator_alloc(struct extent_allocator *a, uint64_t size, uint64_t align,
                                       uint64_t *out_start)
{
   if (size == 0 || (size & (a->granule - 1)) || align < a->granule || (align & (align - 1)))
      return DRV_ERROR_OUT_OF_DEVICE_MEMORY;
   uint64_t addr = 0;
   bool found = false;
   uint64_t slack = align - a->granule;
   if (size + slack >= size) {
      const struct extent_node *n = find_at_least(a->root, size + slack);
      found = n && fits_in(n, size, align, &addr);
   }
   if (!found && slack)
      found = find_aligned(a->root, size, align, &addr);
   if (!found)
      return DRV_ERROR_OUT_OF_DEVICE_MEMORY;
   enum drv_result r = extent_allocator_alloc_at(a, addr, size);
   if (r == DRV_SUCCESS)
      *out_start = addr;
   return r == DRV_ERROR_ADDRESS_IN_USE ? DRV_ERROR_OUT_OF_DEVICE_MEMORY : r;
}

enum drv_result extent_allocator_alloc_at(struct extent_allocator *a, uint64_t start, uint64_t size)
{
   if (size == 0 || start + size < start || ((start | size) & (a->granule - 1)))
      return DRV_ERROR_ADDRESS_IN_USE;
   struct extent_node *l, *r, *mid;
   split(a->root, start + 1, &l, &r); /* l: ranges starting at or below start */
   struct extent_node *n = rightmost(l);
   if (!n || n->start + n->size < start + size) {
      a->root = merge(l, r);
      return DRV_ERROR_ADDRESS_IN_USE;
   }
   uint64_t before = start - n->start;
   uint64_t after = n->start + n->size - (start + size);
   struct extent_node *tail = NULL;
   if (before && after) {
      tail = new_node(a, start + size, after);
      if (!tail) {
         a->root = merge(l, r);
         return DRV_ERROR_OUT_OF_HOST_MEMORY;
      }
   }
   split(l, n->start, &l, &mid); /* mid is n alone */
   if (before) {
      n->size = before;
      update(n);
      l = merge(l, n);
   } else if (after) {
      n->start = start + size;
      n->size = after;
      update(n);
      r = merge(n, r);
   } else {
      free(n);
   }
   if (tail)
      r = merge(tail, r);
   a->root = merge(l, r);
   a->free_bytes -= size;
   return DRV_SUCCESS;
}

enum drv_result extent_allocator_free(struct extent_allocator *a, uint64_t start, uint64_t size)
{
   if (size == 0 || start + size < start || ((start | size) & (a->granule - 1)))
      return DRV_ERROR_ADDRESS_IN_USE;
   struct extent_node *l, *r, *piece;
   split(a->root, start, &l, &r);
   struct extent_node *pred = rightmost(l), *succ = leftmost(r);
   if ((pred && pred->start + pred->size > start) || (succ && succ->start < start + size)) {
      a->root = merge(l, r); /* overlaps free space: a double free */
      return DRV_ERROR_ADDRESS_IN_USE;
   }
   struct extent_node *n = NULL;
   if (pred && pred->start + pred->size == start) {
      split(l, pred->start, &l, &piece);
      n = pred;
      n->size += size;
   }
   if (succ && succ->start == start + size) {
      split(r, succ->start + 1, &piece, &r);
      if (n) {
         n->size += succ->size;
         free(succ);
      } else {
         n = succ;
         n->start = start;
         n->size += size;
      }
   }
   if (!n) {
      n = new_node(a, start, size);
      if (!n) {
         a->root = merge(l, r);
         return DRV_ERROR_OUT_OF_HOST_MEMORY;
      }
   }
   n->left = n->right = NULL;
   update(n);
   a->root = merge(merge(l, n), r);
   a->free_bytes += size;
   return DRV_SUCCESS;
}

uint64_t extent_allocator_largest(const struct extent_allocator *a)
{
   return subtree_max(a->root);
}

static uint64_t count_nodes(const struct extent_node *t)
{
   uint64_t n = 0;
   while (t) {
      n += 1 + count_nodes(t->left);
      t = t->right;
   }
   return n;
}

uint64_t extent_allocator_range_count(const struct extent_allocator *a)
{
   return count_nodes(a->root);
}
