/* Small helpers of the builder: strides, result names, large arrays. */
#include <stdlib.h>
#include <sys/mman.h>

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

void *bvh_alloc_large(size_t bytes)
{
   const size_t huge = (size_t)2 << 20;
   if (bytes < huge)
      return malloc(bytes);
   bytes = (bytes + huge - 1) / huge * huge;
   void *p = aligned_alloc(huge, bytes);
#ifdef MADV_HUGEPAGE
   /* Advice only: where transparent huge pages are off this does nothing. */
   if (p)
      madvise(p, bytes, MADV_HUGEPAGE);
#endif
   return p;
}
