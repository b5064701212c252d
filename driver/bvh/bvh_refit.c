/* Update (refit): same topology, new positions. Records are rewritten from
 * the new input, then boxes are recomputed bottom-up: nodes are numbered
 * breadth first, so walking indices backwards visits every node after its
 * children. Refit trades tree quality for speed; after large motion a
 * rebuild gives better traversal (Vulkan leaves that choice to the app). */
#include <stdlib.h>
#include <string.h>

#include "bvh_internal.h"

static enum bvh_result check_same_shape(const struct bvh_build_input *in,
                                        const struct ppu_bvh_header *h, uint64_t size)
{
   uint32_t total;
   if (bvh_input_check(in, &total) != BVH_SUCCESS)
      return BVH_ERROR_INVALID_INPUT;
   if (h->magic != PPU_BVH_MAGIC || h->version != PPU_BVH_VERSION || h->kind != in->kind ||
       !(h->flags & PPU_BVH_FLAG_ALLOW_UPDATE) || h->total_size > size || h->leaf_count != total ||
       h->leaf_stride != bvh_record_stride(in->kind))
      return BVH_ERROR_INVALID_INPUT;
   uint32_t geometry_count = in->kind == PPU_BVH_KIND_INSTANCES ? 1 : in->geometry_count;
   if (h->geometry_count != geometry_count)
      return BVH_ERROR_INVALID_INPUT;
   if (in->kind != PPU_BVH_KIND_INSTANCES) {
      const struct ppu_bvh_geometry *geo =
          (const struct ppu_bvh_geometry *)((const uint8_t *)h + h->geometry_offset);
      for (uint32_t g = 0; g < geometry_count; g++)
         if (geo[g].primitive_count != in->geometries[g].primitive_count)
            return BVH_ERROR_INVALID_INPUT;
   }
   return BVH_SUCCESS;
}

/* Rewrites record r from the input; its box (empty when inactive) goes to
 * *box. */
static enum bvh_result refit_record(const struct bvh_build_input *in, uint8_t *record,
                                    struct bvh_box *box)
{
   uint32_t g = 0, i;
   if (in->kind == PPU_BVH_KIND_INSTANCES) {
      i = ((const struct ppu_bvh_instance *)record)->instance_index;
      if (i >= in->instance_count)
         return BVH_ERROR_INVALID_INPUT;
   } else {
      /* geometry_index and primitive_index sit at the same offsets in
       * triangle (36, 40) and AABB (24, 28) records only by kind. */
      bool tri = in->kind == PPU_BVH_KIND_TRIANGLES;
      g = tri ? ((const struct ppu_bvh_triangle *)record)->geometry_index
              : ((const struct ppu_bvh_aabb *)record)->geometry_index;
      i = tri ? ((const struct ppu_bvh_triangle *)record)->primitive_index
              : ((const struct ppu_bvh_aabb *)record)->primitive_index;
      if (g >= in->geometry_count || i >= in->geometries[g].primitive_count)
         return BVH_ERROR_INVALID_INPUT;
   }
   struct bvh_box old;
   bool was_active = bvh_record_box(in->kind, record, &old);
   uint8_t fresh[sizeof(struct ppu_bvh_instance)];
   bool active = bvh_input_write_record(in, g, i, fresh, box);
   if (was_active) {
      /* active -> inactive is invalid usage: the record stays in its leaf
       * flagged INACTIVE (or with blas_address 0), which is never hit. */
      memcpy(record, fresh, bvh_record_stride(in->kind));
   } else if (active) {
      /* inactive -> active is invalid usage too: it stays inactive. */
      bvh_box_set_empty(box);
   }
   return BVH_SUCCESS;
}

enum bvh_result bvh_refit(const struct bvh_build_input *in, void *bvh, uint64_t size)
{
   if (!bvh || size < sizeof(struct ppu_bvh_header))
      return BVH_ERROR_INVALID_INPUT;
   struct ppu_bvh_header *h = bvh;
   enum bvh_result r = check_same_shape(in, h, size);
   if (r != BVH_SUCCESS)
      return r;
   uint8_t *base = bvh;
   struct bvh_box *record_boxes = malloc(sizeof(*record_boxes) * (h->leaf_count + 1u));
   struct bvh_box *node_boxes = malloc(sizeof(*node_boxes) * (h->node_count + 1u));
   if (!record_boxes || !node_boxes) {
      r = BVH_ERROR_OUT_OF_HOST_MEMORY;
      goto out;
   }
   for (uint32_t i = 0; i < h->leaf_count && r == BVH_SUCCESS; i++)
      r = refit_record(in, base + h->leaf_offset + (uint64_t)i * h->leaf_stride, &record_boxes[i]);
   if (r != BVH_SUCCESS)
      goto out;

   struct ppu_bvh_node *nodes = (struct ppu_bvh_node *)(base + h->node_offset);
   for (uint32_t n = h->node_count; n-- > 0;) {
      struct ppu_bvh_node *node = &nodes[n];
      struct bvh_box boxes[PPU_BVH_WIDTH];
      bvh_box_set_empty(&node_boxes[n]);
      if (node->child_count > PPU_BVH_WIDTH) {
         r = BVH_ERROR_INVALID_INPUT;
         goto out;
      }
      for (unsigned s = 0; s < node->child_count; s++) {
         bvh_box_set_empty(&boxes[s]);
         if (node->child_kind[s] == PPU_BVH_CHILD_INTERNAL) {
            uint64_t child = (uint64_t)node->internal_base + node->child_index[s];
            if (child <= n || child >= h->node_count) {
               r = BVH_ERROR_INVALID_INPUT;
               goto out;
            }
            boxes[s] = node_boxes[child];
         } else {
            uint64_t first = (uint64_t)node->leaf_base + node->child_index[s];
            if (first + node->child_records[s] > h->leaf_count) {
               r = BVH_ERROR_INVALID_INPUT;
               goto out;
            }
            for (unsigned k = 0; k < node->child_records[s]; k++)
               bvh_box_grow(&boxes[s], &record_boxes[first + k]);
         }
         bvh_box_grow(&node_boxes[n], &boxes[s]);
      }
      bvh_quantize_node(node, boxes, node->child_count);
   }
   struct bvh_box bounds;
   bvh_box_set_empty(&bounds);
   if (h->node_count)
      bounds = node_boxes[0];
   memcpy(h->bounds_min, bounds.min, sizeof(bounds.min));
   memcpy(h->bounds_max, bounds.max, sizeof(bounds.max));
out:
   free(record_boxes);
   free(node_boxes);
   return r;
}
