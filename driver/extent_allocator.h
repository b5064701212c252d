/* A first-fit allocator of address ranges ("extents") over a 64-bit space,
 * used for physical VRAM pages and for GPU virtual addresses.
 *
 * The free ranges are kept in a treap ordered by start address; every node
 * also stores the largest free size in its subtree. That makes the common
 * operations O(log n) expected in the number of free ranges:
 *   - allocation finds the lowest-address range that fits by descending
 *     towards the leftmost subtree whose largest range is big enough;
 *   - freeing merges with both neighbours (found by splitting the treap at
 *     the freed address), so free space never fragments needlessly.
 * Alignment beyond the granule first searches for a range of size
 * size + align - granule (which always fits); only if none exists does it
 * fall back to an in-order scan pruned by the subtree maximum.
 *
 * Not thread-safe: the owner serializes calls. */
#ifndef DRV_EXTENT_ALLOCATOR_H
#define DRV_EXTENT_ALLOCATOR_H

#include <stdbool.h>
#include <stdint.h>

#include "drv_result.h"

struct extent_node;

struct extent_allocator {
   struct extent_node *root;
   uint64_t granule;    /* every start and size is a multiple of this (power of two) */
   uint64_t free_bytes; /* sum of free ranges */
   uint32_t rng;        /* treap priorities */
};

/* Starts empty; add the managed range with extent_allocator_free(). */
void extent_allocator_init(struct extent_allocator *a, uint64_t granule);
void extent_allocator_finish(struct extent_allocator *a);

/* Lowest-address range of `size` bytes aligned to `align` (a power of two,
 * at least the granule). DRV_ERROR_OUT_OF_DEVICE_MEMORY when none fits. */
enum drv_result extent_allocator_alloc(struct extent_allocator *a, uint64_t size, uint64_t align,
                                       uint64_t *out_start);
/* Takes exactly [start, start + size), which must be free
 * (DRV_ERROR_ADDRESS_IN_USE otherwise). */
enum drv_result extent_allocator_alloc_at(struct extent_allocator *a, uint64_t start,
                                          uint64_t size);
/* Returns a range. Freeing a range that overlaps free space (a double free)
 * is refused with DRV_ERROR_ADDRESS_IN_USE and changes nothing. */
enum drv_result extent_allocator_free(struct extent_allocator *a, uint64_t start, uint64_t size);

/* Size of the largest free range (0 when full). */
uint64_t extent_allocator_largest(const struct extent_allocator *a);
/* Number of free ranges (walks the tree; for tests and statistics). */
uint64_t extent_allocator_range_count(const struct extent_allocator *a);

#endif
