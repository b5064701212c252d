/* Copies of acceleration structures — clone, compaction, serialization to
 * memory and back — and the properties vkWriteAccelerationStructures-
 * PropertiesKHR and its query types report. One implementation
 * (vkppu_as_copy_run, vkppu_as_property) serves the host commands here and
 * the device jobs of cmd_acceleration_structure.c. */
#include <inttypes.h>
#include <stdlib.h>

#include "vkppu_acceleration_structure.h"

static enum vkppu_as_status copy_structure(struct vkppu_as_context *ctx,
                                           const struct vkppu_as_copy *c, const void *bvh,
                                           uint64_t size)
{
   if (size > c->dst_size)
      return vkppu_as_fail(ctx, VKPPU_AS_INVALID,
                           "  the source (%" PRIu64 " bytes) does not fit the destination (%" PRIu64
                           " bytes)\n",
                           size, c->dst_size);
   void *out = malloc(size);
   if (!out)
      return VKPPU_AS_OUT_OF_MEMORY;
   enum vkppu_as_status s = VKPPU_AS_OK;
   if (bvh_copy(bvh, out, size, c->kind == VKPPU_AS_COPY_COMPACT) != BVH_SUCCESS)
      s = vkppu_as_fail(ctx, VKPPU_AS_INVALID, "  the source cannot be copied\n");
   else
      s = vkppu_as_write_va(ctx, "destination structure", c->dst, out, size);
   free(out);
   return s;
}

static enum vkppu_as_status serialize(struct vkppu_as_context *ctx, const struct vkppu_as_copy *c,
                                      const void *bvh)
{
   uint64_t size = bvh_serialized_size(bvh);
   void *blob = malloc(size);
   if (!blob)
      return VKPPU_AS_OUT_OF_MEMORY;
   uint8_t compat[VK_UUID_SIZE];
   vkppu_as_compatibility_uuid(compat);
   enum vkppu_as_status s = VKPPU_AS_OK;
   if (bvh_serialize(bvh, ctx->driver_uuid, compat, blob, size) != BVH_SUCCESS)
      s = vkppu_as_fail(ctx, VKPPU_AS_INVALID, "  the source cannot be serialized\n");
   else
      s = vkppu_as_write_output(ctx, "serialization destination", c->dst, blob, size);
   free(blob);
   return s;
}

/* The kind a structure header claims, 0 when it is none of the kinds. */
static enum ppu_bvh_kind claimed_kind(const void *header)
{
   uint32_t kind = ((const struct ppu_bvh_header *)header)->kind;
   return kind == PPU_BVH_KIND_TRIANGLES || kind == PPU_BVH_KIND_AABBS ||
                  kind == PPU_BVH_KIND_INSTANCES
              ? (enum ppu_bvh_kind)kind
              : 0;
}

/* *source_kind: the kind of the structure in the blob, when the blob could
 * be read that far (for a GENERIC destination's empty structure). */
static enum vkppu_as_status deserialize(struct vkppu_as_context *ctx, const struct vkppu_as_copy *c,
                                        enum ppu_bvh_kind *source_kind)
{
   uint8_t head[BVH_SERIALIZED_HEADER_BYTES];
   enum vkppu_as_status s = vkppu_as_read_input(ctx, "serialized data", c->src, head, sizeof(head));
   if (s != VKPPU_AS_OK)
      return s;
   uint8_t compat[VK_UUID_SIZE];
   vkppu_as_compatibility_uuid(compat);
   if (bvh_check_compatibility(head, ctx->driver_uuid, compat) != BVH_SUCCESS)
      return vkppu_as_fail(ctx, VKPPU_AS_INVALID,
                           "  the serialized data is from another driver or format version "
                           "(vkGetDeviceAccelerationStructureCompatibilityKHR says so)\n");
   uint64_t blob_size;
   memcpy(&blob_size, head + 32, sizeof(blob_size));
   /* The blob is read before it can be validated, so its claimed size is
    * bounded first by what the destination could hold: the structure plus
    * one handle per 128-byte instance record. A corrupt size beyond that is
    * rejected without reading. */
   uint64_t limit = BVH_SERIALIZED_HEADER_BYTES + c->dst_size + c->dst_size / 16;
   if (blob_size < BVH_SERIALIZED_HEADER_BYTES || blob_size > limit)
      return vkppu_as_fail(ctx, VKPPU_AS_INVALID,
                           "  the serialized size %" PRIu64 " cannot be right for a destination "
                           "of %" PRIu64 " bytes\n",
                           blob_size, c->dst_size);
   uint8_t *blob = malloc(blob_size);
   void *out = malloc(c->dst_size ? c->dst_size : 1);
   if (!blob || !out) {
      free(blob);
      free(out);
      return VKPPU_AS_OUT_OF_MEMORY;
   }
   s = vkppu_as_read_input(ctx, "serialized data", c->src, blob, blob_size);
   uint64_t handles;
   memcpy(&handles, head + 48, sizeof(handles));
   if (s == VKPPU_AS_OK && handles < blob_size / 8 &&
       BVH_SERIALIZED_HEADER_BYTES + 8 * handles + sizeof(struct ppu_bvh_header) <= blob_size)
      *source_kind = claimed_kind(blob + BVH_SERIALIZED_HEADER_BYTES + 8 * handles);
   if (s == VKPPU_AS_OK) {
      enum bvh_result r =
          bvh_deserialize(blob, blob_size, ctx->driver_uuid, compat, out, c->dst_size);
      if (r == BVH_ERROR_OUT_OF_HOST_MEMORY)
         s = VKPPU_AS_OUT_OF_MEMORY;
      else if (r != BVH_SUCCESS)
         s = vkppu_as_fail(ctx, VKPPU_AS_INVALID, "  the serialized data is corrupt (%s)\n",
                           bvh_result_name(r));
   }
   if (s == VKPPU_AS_OK)
      s = vkppu_as_write_va(ctx, "destination structure", c->dst, out,
                            ((const struct ppu_bvh_header *)out)->total_size);
   free(out);
   free(blob);
   return s;
}

/* The kind of the empty structure a failed copy leaves: the destination's
 * own type, as the application will use it — an empty bottom level where a
 * ray query expects a top level faults the TTU (BAD_RAY_QUERY) and loses
 * the device. A GENERIC destination has no type of its own until something
 * is written into it, so it takes the kind the source claims. */
static enum ppu_bvh_kind empty_kind(const struct vkppu_as_copy *c, enum ppu_bvh_kind source_kind)
{
   switch (c->dst_type) {
   case VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR:
      return PPU_BVH_KIND_INSTANCES;
   case VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR:
      return source_kind == PPU_BVH_KIND_AABBS ? PPU_BVH_KIND_AABBS : PPU_BVH_KIND_TRIANGLES;
   default:
      return source_kind ? source_kind : PPU_BVH_KIND_TRIANGLES;
   }
}

enum vkppu_as_status vkppu_as_copy_run(struct vkppu_as_context *ctx, const struct vkppu_as_copy *c)
{
   enum vkppu_as_status s;
   enum ppu_bvh_kind source_kind = 0;
   if (c->kind == VKPPU_AS_COPY_DESERIALIZE) {
      s = deserialize(ctx, c, &source_kind);
   } else {
      void *bvh;
      uint64_t size;
      s = vkppu_as_read_structure(ctx, c->src, c->src_size, &bvh, &size);
      if (s == VKPPU_AS_OK) {
         source_kind = claimed_kind(bvh);
         s = c->kind == VKPPU_AS_COPY_SERIALIZE ? serialize(ctx, c, bvh)
                                                : copy_structure(ctx, c, bvh, size);
         free(bvh);
      }
   }
   /* A failed copy into a structure leaves it empty, never half written. */
   if (s == VKPPU_AS_INVALID && c->kind != VKPPU_AS_COPY_SERIALIZE)
      vkppu_as_write_empty(ctx, c->dst, c->dst_size, empty_kind(c, source_kind));
   return s;
}

bool vkppu_as_query_type_supported(VkQueryType type)
{
   return type == VK_QUERY_TYPE_ACCELERATION_STRUCTURE_COMPACTED_SIZE_KHR ||
          type == VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SERIALIZATION_SIZE_KHR ||
          type == VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SIZE_KHR ||
          type == VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SERIALIZATION_BOTTOM_LEVEL_POINTERS_KHR;
}

enum vkppu_as_status vkppu_as_property(struct vkppu_as_context *ctx, uint64_t va, uint64_t size,
                                       VkQueryType type, uint64_t *value)
{
   struct ppu_bvh_header h;
   enum vkppu_as_status s = vkppu_as_read_va(ctx, "structure header", va, &h, sizeof(h));
   if (s != VKPPU_AS_OK)
      return s;
   if (h.magic != PPU_BVH_MAGIC || h.total_size > size)
      return vkppu_as_fail(ctx, VKPPU_AS_INVALID, "  structure at 0x%" PRIx64 " was never built\n",
                           va);
   switch (type) {
   case VK_QUERY_TYPE_ACCELERATION_STRUCTURE_COMPACTED_SIZE_KHR:
      *value = bvh_compacted_size(&h);
      break;
   case VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SERIALIZATION_SIZE_KHR:
      *value = bvh_serialized_size(&h);
      break;
   case VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SIZE_KHR:
      *value = h.total_size;
      break;
   case VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SERIALIZATION_BOTTOM_LEVEL_POINTERS_KHR:
      /* One handle per instance record in serialized data (docs/bvh.md). */
      *value = h.kind == PPU_BVH_KIND_INSTANCES ? h.leaf_count : 0;
      break;
   default:
      return vkppu_as_fail(ctx, VKPPU_AS_INVALID, "  query type %d is not a structure property\n",
                           (int)type);
   }
   return VKPPU_AS_OK;
}

/* --- host commands ------------------------------------------------------------- */

struct host_copy {
   struct vkppu_device *dev;
   const char *command;
   struct vkppu_as_copy copy;
};

static VkResult run_host_copy(void *ctx, uint32_t item)
{
   (void)item;
   struct host_copy *hc = ctx;
   struct vkppu_as_context as;
   vkppu_as_context_init(&as, hc->dev, VKPPU_AS_HOST);
   return vkppu_as_host_result(hc->dev, hc->command, &as, vkppu_as_copy_run(&as, &hc->copy));
}

static void finish_host_copy(void *ctx)
{
   free(ctx);
}

static VkResult host_copy(struct vkppu_device *dev, VkDeferredOperationKHR op, const char *command,
                          struct vkppu_as_copy copy)
{
   struct host_copy *hc = malloc(sizeof(*hc));
   if (!hc)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   *hc = (struct host_copy){dev, command, copy};
   struct vkppu_deferred_work work = {1, run_host_copy, finish_host_copy, hc};
   return vkppu_deferred_run(op, &work);
}

/* Address and size of a structure handle (0 for VK_NULL_HANDLE). */
static void structure_range(VkAccelerationStructureKHR handle, uint64_t *va, uint64_t *size)
{
   const struct vkppu_acceleration_structure *as = vkppu_acceleration_structure_from_handle(handle);
   *va = vkppu_as_address(as);
   *size = as ? as->size : 0;
}

static VkAccelerationStructureTypeKHR structure_type(VkAccelerationStructureKHR handle)
{
   const struct vkppu_acceleration_structure *as = vkppu_acceleration_structure_from_handle(handle);
   return as ? as->type : VK_ACCELERATION_STRUCTURE_TYPE_GENERIC_KHR;
}

void vkppu_as_copy_from_info(const VkCopyAccelerationStructureInfoKHR *info,
                             struct vkppu_as_copy *out)
{
   out->kind = info->mode == VK_COPY_ACCELERATION_STRUCTURE_MODE_COMPACT_KHR ? VKPPU_AS_COPY_COMPACT
                                                                             : VKPPU_AS_COPY_CLONE;
   structure_range(info->src, &out->src, &out->src_size);
   structure_range(info->dst, &out->dst, &out->dst_size);
   out->dst_type = structure_type(info->dst);
}

void vkppu_as_copy_to_memory(VkAccelerationStructureKHR src, uint64_t dst,
                             struct vkppu_as_copy *out)
{
   out->kind = VKPPU_AS_COPY_SERIALIZE;
   structure_range(src, &out->src, &out->src_size);
   out->dst = dst;
   out->dst_size = 0;
   out->dst_type = VK_ACCELERATION_STRUCTURE_TYPE_GENERIC_KHR; /* memory, not a structure */
}

void vkppu_as_copy_from_memory(uint64_t src, VkAccelerationStructureKHR dst,
                               struct vkppu_as_copy *out)
{
   out->kind = VKPPU_AS_COPY_DESERIALIZE;
   out->src = src;
   out->src_size = 0;
   structure_range(dst, &out->dst, &out->dst_size);
   out->dst_type = structure_type(dst);
}

VKAPI_ATTR VkResult VKAPI_CALL
vkppu_CopyAccelerationStructureKHR(VkDevice device, VkDeferredOperationKHR deferredOperation,
                                   const VkCopyAccelerationStructureInfoKHR *pInfo)
{
   struct vkppu_as_copy copy;
   vkppu_as_copy_from_info(pInfo, &copy);
   return host_copy(vkppu_device_from_handle(device), deferredOperation,
                    "vkCopyAccelerationStructureKHR", copy);
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_CopyAccelerationStructureToMemoryKHR(
    VkDevice device, VkDeferredOperationKHR deferredOperation,
    const VkCopyAccelerationStructureToMemoryInfoKHR *pInfo)
{
   struct vkppu_as_copy copy;
   vkppu_as_copy_to_memory(pInfo->src, (uint64_t)(uintptr_t)pInfo->dst.hostAddress, &copy);
   return host_copy(vkppu_device_from_handle(device), deferredOperation,
                    "vkCopyAccelerationStructureToMemoryKHR", copy);
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_CopyMemoryToAccelerationStructureKHR(
    VkDevice device, VkDeferredOperationKHR deferredOperation,
    const VkCopyMemoryToAccelerationStructureInfoKHR *pInfo)
{
   struct vkppu_as_copy copy;
   vkppu_as_copy_from_memory((uint64_t)(uintptr_t)pInfo->src.hostAddress, pInfo->dst, &copy);
   return host_copy(vkppu_device_from_handle(device), deferredOperation,
                    "vkCopyMemoryToAccelerationStructureKHR", copy);
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_WriteAccelerationStructuresPropertiesKHR(
    VkDevice device, uint32_t accelerationStructureCount,
    const VkAccelerationStructureKHR *pAccelerationStructures, VkQueryType queryType,
    size_t dataSize, void *pData, size_t stride)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   struct vkppu_as_context as;
   vkppu_as_context_init(&as, dev, VKPPU_AS_HOST);
   for (uint32_t i = 0; i < accelerationStructureCount; i++) {
      uint64_t va, size, value = 0;
      structure_range(pAccelerationStructures[i], &va, &size);
      /* Every query type's value is a VkDeviceSize (stride a multiple of 8). */
      if ((uint64_t)i * stride + sizeof(value) > dataSize)
         break;
      enum vkppu_as_status s = vkppu_as_property(&as, va, size, queryType, &value);
      if (s != VKPPU_AS_OK)
         return vkppu_as_host_result(dev, "vkWriteAccelerationStructuresPropertiesKHR", &as, s);
      memcpy((uint8_t *)pData + (size_t)i * stride, &value, sizeof(value));
   }
   return VK_SUCCESS;
}
