/* Memory access and error reporting shared by every acceleration-structure
 * operation, host command or device job (vkppu_acceleration_structure.h).
 *
 * Host commands get host pointers from the application and cannot check
 * them (a bad one is the application's crash, as on any driver); device
 * jobs get GPU addresses and check every byte through the page tables, so
 * a bad address fails the job instead of the process. Structures are
 * always reached by GPU VA, for host commands too: that works whatever
 * memory type backs them. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "va_access.h"
#include "vkppu_acceleration_structure.h"

void vkppu_as_context_init(struct vkppu_as_context *ctx, struct vkppu_device *dev,
                           enum vkppu_as_space space)
{
   memset(ctx, 0, sizeof(*ctx));
   ctx->drv = dev->drv;
   ctx->space = space;
   memcpy(ctx->driver_uuid, dev->physical_device->driver_uuid, VK_UUID_SIZE);
}

enum vkppu_as_status vkppu_as_fail(struct vkppu_as_context *ctx, enum vkppu_as_status status,
                                   const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(ctx->why, sizeof(ctx->why), fmt, ap);
   va_end(ap);
   return status;
}

static enum vkppu_as_status va_fault(struct vkppu_as_context *ctx, const char *what, uint64_t va,
                                     uint64_t size, uint64_t bad, bool write)
{
   return vkppu_as_fail(ctx, VKPPU_AS_FAULT,
                        "  %s: [0x%" PRIx64 ", +%" PRIu64 ") cannot be %s: address 0x%" PRIx64
                        " is not mapped%s\n",
                        what, va, size, write ? "written" : "read", bad, write ? " writable" : "");
}

enum vkppu_as_status vkppu_as_read_va(struct vkppu_as_context *ctx, const char *what, uint64_t va,
                                      void *dst, uint64_t size)
{
   uint64_t bad = va;
   if (!drv_va_read(ctx->drv, va, dst, size, &bad))
      return va_fault(ctx, what, va, size, bad, false);
   return VKPPU_AS_OK;
}

enum vkppu_as_status vkppu_as_write_va(struct vkppu_as_context *ctx, const char *what, uint64_t va,
                                       const void *src, uint64_t size)
{
   uint64_t bad = va;
   if (!drv_va_write(ctx->drv, va, src, size, &bad))
      return va_fault(ctx, what, va, size, bad, true);
   return VKPPU_AS_OK;
}

enum vkppu_as_status vkppu_as_read_input(struct vkppu_as_context *ctx, const char *what,
                                         uint64_t address, void *dst, uint64_t size)
{
   if (ctx->space == VKPPU_AS_DEVICE)
      return vkppu_as_read_va(ctx, what, address, dst, size);
   if (!address && size)
      return vkppu_as_fail(ctx, VKPPU_AS_FAULT, "  %s: the host address is NULL\n", what);
   if (size)
      memcpy(dst, (const void *)(uintptr_t)address, size);
   return VKPPU_AS_OK;
}

enum vkppu_as_status vkppu_as_write_output(struct vkppu_as_context *ctx, const char *what,
                                           uint64_t address, const void *src, uint64_t size)
{
   if (ctx->space == VKPPU_AS_DEVICE)
      return vkppu_as_write_va(ctx, what, address, src, size);
   if (!address && size)
      return vkppu_as_fail(ctx, VKPPU_AS_FAULT, "  %s: the host address is NULL\n", what);
   if (size)
      memcpy((void *)(uintptr_t)address, src, size);
   return VKPPU_AS_OK;
}

enum vkppu_as_status vkppu_as_read_structure(struct vkppu_as_context *ctx, uint64_t va,
                                             uint64_t limit, void **out, uint64_t *size)
{
   struct ppu_bvh_header h;
   if (limit < sizeof(h))
      return vkppu_as_fail(ctx, VKPPU_AS_INVALID,
                           "  structure at 0x%" PRIx64 ": %" PRIu64 " bytes hold no header\n", va,
                           limit);
   enum vkppu_as_status s = vkppu_as_read_va(ctx, "structure header", va, &h, sizeof(h));
   if (s != VKPPU_AS_OK)
      return s;
   if (h.magic != PPU_BVH_MAGIC || h.total_size < sizeof(h) || h.total_size > limit)
      return vkppu_as_fail(ctx, VKPPU_AS_INVALID,
                           "  structure at 0x%" PRIx64 " was never built (no valid header in its "
                           "%" PRIu64 " bytes)\n",
                           va, limit);
   void *bvh = malloc(h.total_size);
   if (!bvh)
      return VKPPU_AS_OUT_OF_MEMORY;
   s = vkppu_as_read_va(ctx, "structure", va, bvh, h.total_size);
   if (s != VKPPU_AS_OK) {
      free(bvh);
      return s;
   }
   *out = bvh;
   *size = h.total_size;
   return VKPPU_AS_OK;
}

void vkppu_as_write_empty(struct vkppu_as_context *ctx, uint64_t va, uint64_t size,
                          enum ppu_bvh_kind kind)
{
   /* Small enough for the stack: header and one padded geometry line. */
   _Alignas(8) uint8_t bvh[4 * PPU_BVH_ALIGN];
   struct bvh_geometry none = {.type = kind == PPU_BVH_KIND_AABBS ? BVH_GEOMETRY_AABBS
                                                                  : BVH_GEOMETRY_TRIANGLES};
   struct bvh_build_input in = {.kind = kind};
   if (kind != PPU_BVH_KIND_INSTANCES) {
      in.geometries = &none;
      in.geometry_count = 1;
   }
   if (bvh_build(&in, bvh, sizeof(bvh), NULL) != BVH_SUCCESS)
      return;
   uint64_t bytes = ((const struct ppu_bvh_header *)(const void *)bvh)->total_size;
   char why[sizeof(ctx->why)];
   memcpy(why, ctx->why, sizeof(why)); /* keep the first error's text */
   if (bytes <= size)
      vkppu_as_write_va(ctx, "structure", va, bvh, bytes);
   memcpy(ctx->why, why, sizeof(why));
}

VkResult vkppu_as_host_result(struct vkppu_device *dev, const char *command,
                              const struct vkppu_as_context *ctx, enum vkppu_as_status status)
{
   switch (status) {
   case VKPPU_AS_OK:
      return VK_SUCCESS;
   case VKPPU_AS_OUT_OF_MEMORY:
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   case VKPPU_AS_INVALID:
      /* Invalid usage the driver detected (corrupt serialized data, an
       * update that does not match its source...). These commands have no
       * error code for it; VK_ERROR_UNKNOWN is the one any command may
       * return, and the message says why. The destination holds an empty
       * structure, so a trace through it misses instead of faulting. */
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "%s: invalid input, the destination is left empty:\n%s", command, ctx->why);
      return VK_ERROR_UNKNOWN;
   case VKPPU_AS_FAULT:
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "%s: bad memory:\n%s", command, ctx->why);
      return VK_ERROR_UNKNOWN;
   }
   return VK_ERROR_UNKNOWN;
}
