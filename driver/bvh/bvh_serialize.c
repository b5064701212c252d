/* Copies of built structures: clone, compaction, and serialization to the
 * layout Vulkan defines (vkCmdCopyAccelerationStructureToMemoryKHR). Every
 * offset in a structure is relative to its header, so all of these are
 * byte copies; only instance records' blas_address values are absolute, and
 * serialization carries them in the spec's handle list so that the
 * application can point them at the bottom levels it recreated. */
#include <stddef.h>
#include <string.h>

#include "bvh_internal.h"

static uint64_t total_size_of(const void *bvh)
{
   struct ppu_bvh_header h;
   memcpy(&h, bvh, sizeof(h));
   return h.total_size;
}

uint64_t bvh_compacted_size(const void *bvh)
{
   /* The builder leaves no slack, so compacting cannot shrink it. */
   return total_size_of(bvh);
}

enum bvh_result bvh_copy(const void *src, void *dst, uint64_t dst_size, bool compact)
{
   uint64_t size = total_size_of(src);
   if (size > dst_size)
      return BVH_ERROR_INVALID_INPUT;
   memmove(dst, src, size);
   if (compact) {
      struct ppu_bvh_header *h = dst;
      h->flags |= PPU_BVH_FLAG_COMPACTED;
   }
   return BVH_SUCCESS;
}

/* Handles in the blob: one per record of a top level, none for a bottom
 * level. */
static uint64_t handle_count_of(const struct ppu_bvh_header *h)
{
   return h->kind == PPU_BVH_KIND_INSTANCES ? h->leaf_count : 0;
}

uint64_t bvh_serialized_size(const void *bvh)
{
   struct ppu_bvh_header h;
   memcpy(&h, bvh, sizeof(h));
   return BVH_SERIALIZED_HEADER_BYTES + 8 * handle_count_of(&h) + h.total_size;
}

static uint64_t blas_address_of(const struct ppu_bvh_header *h, const uint8_t *bvh, uint64_t r)
{
   uint64_t address;
   memcpy(&address,
          bvh + h->leaf_offset + r * h->leaf_stride +
              offsetof(struct ppu_bvh_instance, blas_address),
          sizeof(address));
   return address;
}

enum bvh_result bvh_serialize(const void *bvh, const uint8_t driver_uuid[BVH_UUID_SIZE],
                              const uint8_t compat_uuid[BVH_UUID_SIZE], void *dst,
                              uint64_t dst_size)
{
   struct ppu_bvh_header h;
   memcpy(&h, bvh, sizeof(h));
   uint64_t size = bvh_serialized_size(bvh), handles = handle_count_of(&h);
   if (size > dst_size)
      return BVH_ERROR_INVALID_INPUT;
   uint8_t *out = dst;
   memcpy(out, driver_uuid, BVH_UUID_SIZE);
   memcpy(out + 16, compat_uuid, BVH_UUID_SIZE);
   memcpy(out + 32, &size, 8);
   memcpy(out + 40, &h.total_size, 8);
   memcpy(out + 48, &handles, 8);
   for (uint64_t i = 0; i < handles; i++) {
      uint64_t address = blas_address_of(&h, bvh, i);
      memcpy(out + BVH_SERIALIZED_HEADER_BYTES + 8 * i, &address, 8);
   }
   memcpy(out + BVH_SERIALIZED_HEADER_BYTES + 8 * handles, bvh, h.total_size);
   return BVH_SUCCESS;
}

enum bvh_result bvh_check_compatibility(const void *blob, const uint8_t driver_uuid[BVH_UUID_SIZE],
                                        const uint8_t compat_uuid[BVH_UUID_SIZE])
{
   const uint8_t *in = blob;
   if (memcmp(in, driver_uuid, BVH_UUID_SIZE) || memcmp(in + 16, compat_uuid, BVH_UUID_SIZE))
      return BVH_ERROR_INCOMPATIBLE;
   return BVH_SUCCESS;
}

enum bvh_result bvh_deserialize(const void *blob, uint64_t blob_size,
                                const uint8_t driver_uuid[BVH_UUID_SIZE],
                                const uint8_t compat_uuid[BVH_UUID_SIZE], void *dst,
                                uint64_t dst_size)
{
   const uint8_t *in = blob;
   if (!blob || blob_size < BVH_SERIALIZED_HEADER_BYTES)
      return BVH_ERROR_CORRUPT;
   if (bvh_check_compatibility(blob, driver_uuid, compat_uuid) != BVH_SUCCESS)
      return BVH_ERROR_INCOMPATIBLE;
   uint64_t size, structure_size, handles;
   memcpy(&size, in + 32, 8);
   memcpy(&structure_size, in + 40, 8);
   memcpy(&handles, in + 48, 8);
   /* Written so that no sum can wrap. */
   uint64_t room = blob_size - BVH_SERIALIZED_HEADER_BYTES;
   if (size > blob_size || handles > room / 8 || structure_size > room - 8 * handles ||
       size != BVH_SERIALIZED_HEADER_BYTES + 8 * handles + structure_size)
      return BVH_ERROR_CORRUPT;
   if (structure_size > dst_size)
      return BVH_ERROR_INVALID_INPUT;
   const uint8_t *data = in + BVH_SERIALIZED_HEADER_BYTES + 8 * handles;
   if (bvh_validate(data, structure_size, NULL, 0) != BVH_SUCCESS)
      return BVH_ERROR_CORRUPT;
   struct ppu_bvh_header h;
   memcpy(&h, data, sizeof(h));
   if (h.total_size != structure_size || handles != handle_count_of(&h))
      return BVH_ERROR_CORRUPT;
   memmove(dst, data, structure_size);
   /* The application has replaced the handles with its new bottom levels'
    * addresses (spec, vkCmdCopyMemoryToAccelerationStructureKHR). An
    * inactive instance stays inactive whatever its slot holds. */
   uint8_t *out = dst;
   for (uint64_t i = 0; i < handles; i++) {
      if (!blas_address_of(&h, out, i))
         continue;
      uint64_t address;
      memcpy(&address, in + BVH_SERIALIZED_HEADER_BYTES + 8 * i, 8);
      memcpy(out + h.leaf_offset + i * h.leaf_stride +
                 offsetof(struct ppu_bvh_instance, blas_address),
             &address, 8);
   }
   return BVH_SUCCESS;
}
