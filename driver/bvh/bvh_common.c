/* Small helpers of the builder: boxes, strides, result names. */
#include <math.h>

#include "bvh_internal.h"

const char *bvh_result_name(enum bvh_result r)
{
   switch (r) {
   case BVH_SUCCESS:
      return "BVH_SUCCESS";
   case BVH_ERROR_OUT_OF_HOST_MEMORY:
      return "BVH_ERROR_OUT_OF_HOST_MEMORY";
   case BVH_ERROR_INVALID_INPUT:
      return "BVH_ERROR_INVALID_INPUT";
   case BVH_ERROR_INCOMPATIBLE:
      return "BVH_ERROR_INCOMPATIBLE";
   case BVH_ERROR_CORRUPT:
      return "BVH_ERROR_CORRUPT";
   }
   return "BVH_ERROR_?";
}

void bvh_box_set_empty(struct bvh_box *b)
{
   for (int a = 0; a < 3; a++) {
      b->min[a] = INFINITY;
      b->max[a] = -INFINITY;
   }
}

double bvh_box_half_area(const struct bvh_box *b)
{
   if (bvh_box_is_empty(b))
      return 0.0;
   double dx = (double)b->max[0] - b->min[0];
   double dy = (double)b->max[1] - b->min[1];
   double dz = (double)b->max[2] - b->min[2];
   return dx * dy + dy * dz + dz * dx;
}

uint32_t bvh_record_stride(enum ppu_bvh_kind kind)
{
   switch (kind) {
   case PPU_BVH_KIND_TRIANGLES:
      return sizeof(struct ppu_bvh_triangle);
   case PPU_BVH_KIND_AABBS:
      return sizeof(struct ppu_bvh_aabb);
   case PPU_BVH_KIND_INSTANCES:
      return sizeof(struct ppu_bvh_instance);
   }
   return 0;
}

uint64_t bvh_geometry_table_bytes(uint32_t geometry_count)
{
   uint64_t bytes = (uint64_t)geometry_count * sizeof(struct ppu_bvh_geometry);
   return (bytes + PPU_BVH_ALIGN - 1) / PPU_BVH_ALIGN * PPU_BVH_ALIGN;
}
