/* Building and updating acceleration structures: one build
 * (vkppu_as_build_run) as host commands and device jobs both run it, and
 * vkBuildAccelerationStructuresKHR, whose builds are the independent items
 * of a deferred operation when one is given. */
#include <inttypes.h>
#include <stdlib.h>

#include "vkppu_acceleration_structure.h"

static enum ppu_bvh_kind kind_of(const struct vkppu_as_build *b)
{
   if (b->type == VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR)
      return PPU_BVH_KIND_INSTANCES;
   return b->geometry_count && b->geometries[0].type == VK_GEOMETRY_TYPE_AABBS_KHR
              ? PPU_BVH_KIND_AABBS
              : PPU_BVH_KIND_TRIANGLES;
}

static enum vkppu_as_status from_bvh(struct vkppu_as_context *ctx, enum bvh_result r,
                                     const char *step)
{
   if (r == BVH_SUCCESS)
      return VKPPU_AS_OK;
   if (r == BVH_ERROR_OUT_OF_HOST_MEMORY)
      return VKPPU_AS_OUT_OF_MEMORY;
   return vkppu_as_fail(ctx, VKPPU_AS_INVALID, "  the builder's %s refused the input: %s\n", step,
                        bvh_result_name(r));
}

/* vkCmdBuildAccelerationStructuresIndirectKHR: the ranges are in device
 * memory, written by earlier GPU work, so they are read when the job runs. */
static enum vkppu_as_status read_indirect_ranges(struct vkppu_as_context *ctx,
                                                 const struct vkppu_as_build *b,
                                                 VkAccelerationStructureBuildRangeInfoKHR *ranges)
{
   for (uint32_t g = 0; g < b->geometry_count; g++) {
      enum vkppu_as_status s = vkppu_as_read_input(ctx, "indirect build ranges",
                                                   b->indirect_address + g * b->indirect_stride,
                                                   &ranges[g], sizeof(ranges[g]));
      if (s != VKPPU_AS_OK)
         return s;
      if (ranges[g].primitiveCount > b->max_primitive_counts[g])
         return vkppu_as_fail(ctx, VKPPU_AS_INVALID,
                              "  geometry %u: indirect primitiveCount %u exceeds "
                              "ppMaxPrimitiveCounts (%u)\n",
                              g, ranges[g].primitiveCount, b->max_primitive_counts[g]);
   }
   return VKPPU_AS_OK;
}

static enum vkppu_as_status build_new(struct vkppu_as_context *ctx, const struct vkppu_as_build *b,
                                      const struct bvh_build_input *in)
{
   uint64_t primitives = 0;
   for (uint32_t g = 0; g < in->geometry_count; g++)
      primitives += in->geometries[g].primitive_count;
   if (in->kind == PPU_BVH_KIND_INSTANCES)
      primitives = in->instance_count;
   struct bvh_sizes sizes;
   enum bvh_result br =
       bvh_get_sizes(in->kind, in->geometry_count,
                     primitives > UINT32_MAX ? UINT32_MAX : (uint32_t)primitives, &sizes);
   if (br != BVH_SUCCESS)
      return from_bvh(ctx, br, "size rules");
   /* The builder writes compactly; it needs at most the worst-case size. */
   uint64_t bytes = sizes.structure_size < b->dst_size ? sizes.structure_size : b->dst_size;
   void *bvh = malloc(bytes ? bytes : 1);
   if (!bvh)
      return VKPPU_AS_OUT_OF_MEMORY;
   enum vkppu_as_status s = from_bvh(ctx, bvh_build(in, bvh, bytes, NULL), "build");
   if (s == VKPPU_AS_OK)
      s = vkppu_as_write_va(ctx, "destination structure", b->dst_address, bvh,
                            ((const struct ppu_bvh_header *)bvh)->total_size);
   free(bvh);
   return s;
}

static enum vkppu_as_status update(struct vkppu_as_context *ctx, const struct vkppu_as_build *b,
                                   const struct bvh_build_input *in)
{
   void *bvh;
   uint64_t size;
   enum vkppu_as_status s = vkppu_as_read_structure(ctx, b->src_address, b->src_size, &bvh, &size);
   if (s != VKPPU_AS_OK)
      return s;
   if (size > b->dst_size)
      s = vkppu_as_fail(ctx, VKPPU_AS_INVALID,
                        "  the update's source (%" PRIu64 " bytes) does not fit the destination "
                        "(%" PRIu64 " bytes)\n",
                        size, b->dst_size);
   if (s == VKPPU_AS_OK)
      s = from_bvh(ctx, bvh_refit(in, bvh, size), "update (refit)");
   if (s == VKPPU_AS_OK)
      s = vkppu_as_write_va(ctx, "destination structure", b->dst_address, bvh, size);
   free(bvh);
   return s;
}

enum vkppu_as_status vkppu_as_build_run(struct vkppu_as_context *ctx,
                                        const struct vkppu_as_build *b)
{
   VkAccelerationStructureBuildRangeInfoKHR *indirect = NULL;
   const VkAccelerationStructureBuildRangeInfoKHR *ranges = b->ranges;
   enum vkppu_as_status s = VKPPU_AS_OK;
   if (!ranges) {
      indirect = calloc(b->geometry_count ? b->geometry_count : 1, sizeof(*indirect));
      if (!indirect)
         return VKPPU_AS_OUT_OF_MEMORY;
      s = read_indirect_ranges(ctx, b, indirect);
      ranges = indirect;
   }
   struct bvh_build_input in;
   void *storage = NULL;
   if (s == VKPPU_AS_OK)
      s = vkppu_as_build_input(ctx, b, ranges, &in, &storage);
   if (s == VKPPU_AS_OK) {
      s = b->mode == VK_BUILD_ACCELERATION_STRUCTURE_MODE_UPDATE_KHR ? update(ctx, b, &in)
                                                                     : build_new(ctx, b, &in);
   }
   if (s == VKPPU_AS_INVALID)
      vkppu_as_write_empty(ctx, b->dst_address, b->dst_size, kind_of(b));
   free(storage);
   free(indirect);
   return s;
}

/* --- vkBuildAccelerationStructuresKHR ------------------------------------------ */

struct host_builds {
   struct vkppu_device *dev;
   uint32_t count;
   struct vkppu_as_build *builds; /* their arrays follow in the same block */
};

static VkResult run_host_build(void *ctx, uint32_t item)
{
   struct host_builds *hb = ctx;
   struct vkppu_as_context as;
   vkppu_as_context_init(&as, hb->dev, VKPPU_AS_HOST);
   enum vkppu_as_status s = vkppu_as_build_run(&as, &hb->builds[item]);
   return vkppu_as_host_result(hb->dev, "vkBuildAccelerationStructuresKHR", &as, s);
}

static void finish_host_builds(void *ctx)
{
   free(ctx);
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_BuildAccelerationStructuresKHR(
    VkDevice device, VkDeferredOperationKHR deferredOperation, uint32_t infoCount,
    const VkAccelerationStructureBuildGeometryInfoKHR *pInfos,
    const VkAccelerationStructureBuildRangeInfoKHR *const *ppBuildRangeInfos)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   /* Captured now (the descriptions), read when each build runs (the data
    * they point at, which must stay valid until a deferred operation
    * completes). Heap memory: a deferred operation may outlive the call. */
   size_t bytes = sizeof(struct host_builds) + infoCount * sizeof(struct vkppu_as_build);
   for (uint32_t i = 0; i < infoCount; i++)
      bytes += vkppu_as_build_capture_size(&pInfos[i], false);
   struct host_builds *hb = malloc(bytes);
   if (!hb)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   hb->dev = dev;
   hb->count = infoCount;
   hb->builds = (struct vkppu_as_build *)(void *)(hb + 1);
   uint8_t *arrays = (uint8_t *)(hb->builds + infoCount);
   for (uint32_t i = 0; i < infoCount; i++) {
      vkppu_as_build_capture(&pInfos[i], ppBuildRangeInfos[i], 0, 0, NULL, true, arrays,
                             &hb->builds[i]);
      arrays += vkppu_as_build_capture_size(&pInfos[i], false);
   }
   struct vkppu_deferred_work work = {
       .item_count = infoCount,
       .run_item = run_host_build,
       .finish = finish_host_builds,
       .ctx = hb,
   };
   return vkppu_deferred_run(deferredOperation, &work);
}
