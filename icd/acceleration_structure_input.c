/* From Vulkan build descriptions to the builder's plain input
 * (driver/bvh/bvh_builder.h): capturing a VkAccelerationStructureBuild-
 * GeometryInfoKHR, then — when the build runs — fetching indices and
 * vertices in any supported vertex format, applying the geometry transform,
 * reading AABBs with their stride and decoding
 * VkAccelerationStructureInstanceKHR (arrays or arrays of pointers), with
 * the primitiveOffset / firstVertex / transformOffset rules of
 * VkAccelerationStructureBuildRangeInfoKHR. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "vkppu_acceleration_structure.h"

uint32_t vkppu_as_vertex_format_size(VkFormat format)
{
   /* The formats VK_FORMAT_FEATURE_ACCELERATION_STRUCTURE_VERTEX_BUFFER_BIT_KHR
    * is required for ("Required Format Support"). */
   switch (format) {
   case VK_FORMAT_R32G32B32_SFLOAT:
      return 12;
   case VK_FORMAT_R32G32_SFLOAT:
   case VK_FORMAT_R16G16B16A16_SFLOAT:
   case VK_FORMAT_R16G16B16A16_SNORM:
      return 8;
   case VK_FORMAT_R16G16_SFLOAT:
   case VK_FORMAT_R16G16_SNORM:
      return 4;
   default:
      return 0;
   }
}

static float half_to_float(uint16_t h)
{
   uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
   uint32_t bits;
   if (exp == 0x1f) {
      bits = sign | 0x7f800000u | (mant << 13); /* inf, NaN (stays NaN: inactive) */
   } else if (exp == 0) {
      float f = ldexpf((float)mant, -24); /* subnormal or zero, exact */
      return sign ? -f : f;
   } else {
      bits = sign | ((exp + 112) << 23) | (mant << 13);
   }
   float f;
   memcpy(&f, &bits, sizeof(f));
   return f;
}

static float snorm16_to_float(int16_t v)
{
   /* Vulkan's SNORM conversion: c / 32767, clamped at -1. */
   float f = (float)v / 32767.0f;
   return f < -1.0f ? -1.0f : f;
}

static void decode_vertex(VkFormat format, const uint8_t *p, float out[3])
{
   out[2] = 0.0f; /* two-component formats have z = 0 */
   switch (format) {
   case VK_FORMAT_R32G32B32_SFLOAT:
      memcpy(out, p, 12);
      break;
   case VK_FORMAT_R32G32_SFLOAT:
      memcpy(out, p, 8);
      break;
   case VK_FORMAT_R16G16B16A16_SFLOAT:
   case VK_FORMAT_R16G16_SFLOAT: {
      uint16_t h[3] = {0};
      memcpy(h, p, format == VK_FORMAT_R16G16_SFLOAT ? 4 : 6);
      for (int c = 0; c < (format == VK_FORMAT_R16G16_SFLOAT ? 2 : 3); c++)
         out[c] = half_to_float(h[c]);
      break;
   }
   case VK_FORMAT_R16G16B16A16_SNORM:
   case VK_FORMAT_R16G16_SNORM: {
      int16_t s[3] = {0};
      memcpy(s, p, format == VK_FORMAT_R16G16_SNORM ? 4 : 6);
      for (int c = 0; c < (format == VK_FORMAT_R16G16_SNORM ? 2 : 3); c++)
         out[c] = snorm16_to_float(s[c]);
      break;
   }
   default:
      out[0] = out[1] = out[2] = NAN;
   }
}

/* --- capture ------------------------------------------------------------------ */

static const VkAccelerationStructureGeometryKHR *
geometry_at(const VkAccelerationStructureBuildGeometryInfoKHR *info, uint32_t g)
{
   return info->pGeometries ? &info->pGeometries[g] : info->ppGeometries[g];
}

size_t vkppu_as_build_capture_size(const VkAccelerationStructureBuildGeometryInfoKHR *info,
                                   bool indirect)
{
   size_t per = sizeof(struct vkppu_as_geometry) +
                (indirect ? sizeof(uint32_t) : sizeof(VkAccelerationStructureBuildRangeInfoKHR));
   return (size_t)info->geometryCount * per;
}

/* The two members of VkDeviceOrHostAddressConstKHR as one integer. */
static uint64_t address_of(VkDeviceOrHostAddressConstKHR a, bool host)
{
   return host ? (uint64_t)(uintptr_t)a.hostAddress : a.deviceAddress;
}

void vkppu_as_build_capture(const VkAccelerationStructureBuildGeometryInfoKHR *info,
                            const VkAccelerationStructureBuildRangeInfoKHR *ranges,
                            uint64_t indirect_address, uint64_t indirect_stride,
                            const uint32_t *max_counts, bool host, void *memory,
                            struct vkppu_as_build *out)
{
   const struct vkppu_acceleration_structure *dst =
       vkppu_acceleration_structure_from_handle(info->dstAccelerationStructure);
   const struct vkppu_acceleration_structure *src =
       vkppu_acceleration_structure_from_handle(info->srcAccelerationStructure);
   if (!src)
      src = dst;
   uint32_t n = info->geometryCount;
   *out = (struct vkppu_as_build){
       .type = info->type,
       .flags = info->flags,
       .mode = info->mode,
       .src_address = vkppu_as_address(src),
       .src_size = src ? src->size : 0,
       .dst_address = vkppu_as_address(dst),
       .dst_size = dst ? dst->size : 0,
       .geometry_count = n,
       .geometries = memory,
       .indirect_address = indirect_address,
       .indirect_stride = indirect_stride,
   };
   void *arrays = out->geometries + n;
   if (ranges) {
      out->ranges = arrays;
      if (n)
         memcpy(out->ranges, ranges, n * sizeof(*ranges));
   } else {
      out->max_primitive_counts = arrays;
      if (n)
         memcpy(out->max_primitive_counts, max_counts, n * sizeof(*max_counts));
   }
   for (uint32_t g = 0; g < n; g++) {
      const VkAccelerationStructureGeometryKHR *in = geometry_at(info, g);
      struct vkppu_as_geometry *geo = &out->geometries[g];
      *geo = (struct vkppu_as_geometry){.type = in->geometryType, .flags = in->flags};
      switch (in->geometryType) {
      case VK_GEOMETRY_TYPE_TRIANGLES_KHR: {
         const VkAccelerationStructureGeometryTrianglesDataKHR *t = &in->geometry.triangles;
         geo->vertex_format = t->vertexFormat;
         geo->data = address_of(t->vertexData, host);
         geo->stride = t->vertexStride;
         geo->max_vertex = t->maxVertex;
         geo->index_type = t->indexType;
         geo->index_data = address_of(t->indexData, host);
         geo->transform_data = address_of(t->transformData, host);
         break;
      }
      case VK_GEOMETRY_TYPE_AABBS_KHR:
         geo->data = address_of(in->geometry.aabbs.data, host);
         geo->stride = in->geometry.aabbs.stride;
         break;
      case VK_GEOMETRY_TYPE_INSTANCES_KHR:
         geo->array_of_pointers = in->geometry.instances.arrayOfPointers;
         geo->data = address_of(in->geometry.instances.data, host);
         break;
      default:
         break;
      }
   }
}

/* --- conversion --------------------------------------------------------------- */

/* Reads `size` bytes of input into a new heap buffer. */
static enum vkppu_as_status read_block(struct vkppu_as_context *ctx, const char *what,
                                       uint64_t address, uint64_t size, uint8_t **out)
{
   *out = NULL;
   if (size > SIZE_MAX / 2)
      return vkppu_as_fail(ctx, VKPPU_AS_INVALID, "  %s: %" PRIu64 " bytes is not a real size\n",
                           what, size);
   uint8_t *p = malloc(size ? (size_t)size : 1);
   if (!p)
      return VKPPU_AS_OUT_OF_MEMORY;
   enum vkppu_as_status s = vkppu_as_read_input(ctx, what, address, p, size);
   if (s != VKPPU_AS_OK) {
      free(p);
      return s;
   }
   *out = p;
   return VKPPU_AS_OK;
}

static enum vkppu_as_status triangle_indices(struct vkppu_as_context *ctx, uint32_t g,
                                             const struct vkppu_as_geometry *geo,
                                             const VkAccelerationStructureBuildRangeInfoKHR *r,
                                             uint32_t *idx, uint64_t *max_index)
{
   uint64_t n = 3ull * r->primitiveCount;
   *max_index = 0;
   if (geo->index_type == VK_INDEX_TYPE_NONE_KHR) {
      for (uint64_t k = 0; k < n; k++)
         idx[k] = (uint32_t)(r->firstVertex + k);
      *max_index = r->firstVertex + n - 1;
      if (*max_index > UINT32_MAX)
         return vkppu_as_fail(ctx, VKPPU_AS_INVALID, "  geometry %u: too many vertices\n", g);
      return VKPPU_AS_OK;
   }
   uint32_t size = geo->index_type == VK_INDEX_TYPE_UINT16   ? 2
                   : geo->index_type == VK_INDEX_TYPE_UINT32 ? 4
                                                             : 0;
   if (!size)
      return vkppu_as_fail(ctx, VKPPU_AS_INVALID, "  geometry %u: index type %d is not allowed\n",
                           g, (int)geo->index_type);
   uint8_t *raw;
   enum vkppu_as_status s =
       read_block(ctx, "index data", geo->index_data + r->primitiveOffset, n * size, &raw);
   if (s != VKPPU_AS_OK)
      return s;
   for (uint64_t k = 0; k < n; k++) {
      uint32_t v = 0;
      if (size == 2) {
         uint16_t v16;
         memcpy(&v16, raw + 2 * k, 2);
         v = v16;
      } else {
         memcpy(&v, raw + 4 * k, 4);
      }
      /* maxVertex bounds the index values (VkAccelerationStructureGeometry-
       * TrianglesDataKHR); it also bounds what we read. */
      if (v > geo->max_vertex) {
         free(raw);
         return vkppu_as_fail(ctx, VKPPU_AS_INVALID,
                              "  geometry %u: index %u exceeds maxVertex %u\n", g, v,
                              geo->max_vertex);
      }
      uint64_t vertex = (uint64_t)v + r->firstVertex;
      if (vertex > UINT32_MAX) {
         free(raw);
         return vkppu_as_fail(ctx, VKPPU_AS_INVALID, "  geometry %u: vertex index overflows\n", g);
      }
      idx[k] = (uint32_t)vertex;
      if (vertex > *max_index)
         *max_index = vertex;
   }
   free(raw);
   return VKPPU_AS_OK;
}

static void transform_point(const float m[12], float v[3])
{
   float x = v[0], y = v[1], z = v[2];
   for (int row = 0; row < 3; row++)
      v[row] = m[4 * row] * x + m[4 * row + 1] * y + m[4 * row + 2] * z + m[4 * row + 3];
}

static enum vkppu_as_status convert_triangles(struct vkppu_as_context *ctx, uint32_t g,
                                              const struct vkppu_as_geometry *geo,
                                              const VkAccelerationStructureBuildRangeInfoKHR *r,
                                              float *out)
{
   uint32_t vsize = vkppu_as_vertex_format_size(geo->vertex_format);
   if (!vsize)
      return vkppu_as_fail(ctx, VKPPU_AS_INVALID,
                           "  geometry %u: vertex format %d is not supported\n", g,
                           (int)geo->vertex_format);
   uint64_t n = 3ull * r->primitiveCount;
   uint32_t *idx = malloc(n * sizeof(*idx));
   if (!idx)
      return VKPPU_AS_OUT_OF_MEMORY;
   uint64_t max_index;
   enum vkppu_as_status s = triangle_indices(ctx, g, geo, r, idx, &max_index);
   float m[12];
   bool transform = geo->transform_data != 0;
   if (s == VKPPU_AS_OK && transform)
      s = vkppu_as_read_input(ctx, "transform data", geo->transform_data + r->transformOffset, m,
                              sizeof(m));
   /* Without indices primitiveOffset moves the vertices; with indices it
    * moves the indices (VkAccelerationStructureBuildRangeInfoKHR). */
   uint64_t base = geo->data + (geo->index_type == VK_INDEX_TYPE_NONE_KHR ? r->primitiveOffset : 0);
   uint8_t *vertices = NULL;
   if (s == VKPPU_AS_OK)
      s = read_block(ctx, "vertex data", base, max_index * geo->stride + vsize, &vertices);
   if (s != VKPPU_AS_OK) {
      free(idx);
      return s;
   }
   for (uint64_t k = 0; k < n; k++) {
      float *v = out + 3 * k;
      decode_vertex(geo->vertex_format, vertices + idx[k] * geo->stride, v);
      if (transform)
         transform_point(m, v);
   }
   free(vertices);
   free(idx);
   return VKPPU_AS_OK;
}

static enum vkppu_as_status convert_aabbs(struct vkppu_as_context *ctx,
                                          const struct vkppu_as_geometry *geo,
                                          const VkAccelerationStructureBuildRangeInfoKHR *r,
                                          float *out)
{
   uint64_t n = r->primitiveCount;
   uint8_t *raw;
   enum vkppu_as_status s = read_block(ctx, "AABB data", geo->data + r->primitiveOffset,
                                       (n - 1) * geo->stride + sizeof(VkAabbPositionsKHR), &raw);
   if (s != VKPPU_AS_OK)
      return s;
   for (uint64_t p = 0; p < n; p++)
      memcpy(out + 6 * p, raw + p * geo->stride, 6 * sizeof(float));
   free(raw);
   return VKPPU_AS_OK;
}

/* The bottom level an instance references: its address and bounds. */
static enum vkppu_as_status instance_blas(struct vkppu_as_context *ctx, uint32_t i,
                                          uint64_t reference, struct bvh_instance *out)
{
   /* Host builds reference structures by handle, device builds by address
    * (VkAccelerationStructureInstanceKHR::accelerationStructureReference). */
   uint64_t va = reference;
   if (ctx->space == VKPPU_AS_HOST && reference) {
      const struct vkppu_acceleration_structure *as =
          vkppu_acceleration_structure_from_handle((VkAccelerationStructureKHR)reference);
      va = vkppu_as_address(as);
   }
   out->blas_address = va;
   if (!va)
      return VKPPU_AS_OK; /* inactive instance */
   struct ppu_bvh_header h;
   enum vkppu_as_status s =
       vkppu_as_read_va(ctx, "bottom-level structure of an instance", va, &h, sizeof(h));
   if (s != VKPPU_AS_OK)
      return s;
   if (h.magic != PPU_BVH_MAGIC || h.kind == PPU_BVH_KIND_INSTANCES)
      return vkppu_as_fail(
          ctx, VKPPU_AS_INVALID,
          "  instance %u references 0x%" PRIx64 ", which holds no bottom-level structure\n", i, va);
   memcpy(out->blas_bounds_min, h.bounds_min, sizeof(h.bounds_min));
   memcpy(out->blas_bounds_max, h.bounds_max, sizeof(h.bounds_max));
   return VKPPU_AS_OK;
}

static enum vkppu_as_status convert_instances(struct vkppu_as_context *ctx,
                                              const struct vkppu_as_geometry *geo,
                                              const VkAccelerationStructureBuildRangeInfoKHR *r,
                                              struct bvh_instance *out)
{
   uint64_t n = r->primitiveCount;
   const uint64_t record = sizeof(VkAccelerationStructureInstanceKHR);
   uint64_t *pointers = NULL;
   uint8_t *raw = NULL;
   enum vkppu_as_status s;
   if (geo->array_of_pointers) {
      s = read_block(ctx, "instance pointers", geo->data + r->primitiveOffset, n * 8,
                     (uint8_t **)&pointers);
   } else {
      s = read_block(ctx, "instances", geo->data + r->primitiveOffset, n * record, &raw);
   }
   for (uint64_t i = 0; i < n && s == VKPPU_AS_OK; i++) {
      uint8_t one[sizeof(VkAccelerationStructureInstanceKHR)];
      const uint8_t *p = pointers ? one : raw + i * record;
      if (pointers &&
          (s = vkppu_as_read_input(ctx, "instance", pointers[i], one, record)) != VKPPU_AS_OK)
         break;
      /* The layout of VkAccelerationStructureInstanceKHR: a 3x4 matrix,
       * then 24:8 and 24:8 bit fields (low bits first), then the reference. */
      struct bvh_instance *inst = &out[i];
      uint32_t index_mask, sbt_flags;
      uint64_t reference;
      memcpy(inst->transform, p, 48);
      memcpy(&index_mask, p + 48, 4);
      memcpy(&sbt_flags, p + 52, 4);
      memcpy(&reference, p + 56, 8);
      inst->custom_index = index_mask & 0xffffffu;
      inst->mask = (uint8_t)(index_mask >> 24);
      inst->sbt_offset = sbt_flags & 0xffffffu;
      inst->flags = (uint8_t)(sbt_flags >> 24); /* same bits as PPU_BVH_INSTANCE_* */
      s = instance_blas(ctx, (uint32_t)i, reference, inst);
   }
   free(pointers);
   free(raw);
   return s;
}

enum vkppu_as_status vkppu_as_build_input(struct vkppu_as_context *ctx,
                                          const struct vkppu_as_build *build,
                                          const VkAccelerationStructureBuildRangeInfoKHR *ranges,
                                          struct bvh_build_input *in, void **storage)
{
   *storage = NULL;
   memset(in, 0, sizeof(*in));
   in->flags = (build->flags & VK_BUILD_ACCELERATION_STRUCTURE_ALLOW_UPDATE_BIT_KHR)
                   ? PPU_BVH_FLAG_ALLOW_UPDATE
                   : 0;
   in->prefer_fast_build =
       (build->flags & VK_BUILD_ACCELERATION_STRUCTURE_PREFER_FAST_BUILD_BIT_KHR) != 0;
   uint32_t n = build->geometry_count;
   if (build->type == VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR) {
      /* A top level has exactly one geometry, of instances
       * (VUID-VkAccelerationStructureBuildGeometryInfoKHR-type-03790). */
      if (n != 1 || build->geometries[0].type != VK_GEOMETRY_TYPE_INSTANCES_KHR)
         return vkppu_as_fail(ctx, VKPPU_AS_INVALID,
                              "  a top level needs exactly one geometry of instances (%u given)\n",
                              n);
      uint32_t count = ranges[0].primitiveCount;
      struct bvh_instance *instances = calloc(count ? count : 1, sizeof(*instances));
      if (!instances)
         return VKPPU_AS_OUT_OF_MEMORY;
      *storage = instances;
      in->kind = PPU_BVH_KIND_INSTANCES;
      in->instances = instances;
      in->instance_count = count;
      in->instance_geometry_flags = build->geometries[0].flags;
      return count ? convert_instances(ctx, &build->geometries[0], &ranges[0], instances)
                   : VKPPU_AS_OK;
   }

   VkGeometryTypeKHR type = n ? build->geometries[0].type : VK_GEOMETRY_TYPE_TRIANGLES_KHR;
   in->kind = type == VK_GEOMETRY_TYPE_AABBS_KHR ? PPU_BVH_KIND_AABBS : PPU_BVH_KIND_TRIANGLES;
   uint32_t per = in->kind == PPU_BVH_KIND_AABBS ? 6 : 9;
   uint64_t floats = 0;
   for (uint32_t g = 0; g < n; g++) {
      if (build->geometries[g].type != type ||
          (type != VK_GEOMETRY_TYPE_TRIANGLES_KHR && type != VK_GEOMETRY_TYPE_AABBS_KHR))
         return vkppu_as_fail(ctx, VKPPU_AS_INVALID,
                              "  geometry %u: a bottom level takes triangles or AABBs, one type "
                              "for all geometries\n",
                              g);
      floats += (uint64_t)ranges[g].primitiveCount * per;
   }
   size_t head = (n ? n : 1) * sizeof(struct bvh_geometry);
   if (floats > (SIZE_MAX - head) / sizeof(float))
      return VKPPU_AS_OUT_OF_MEMORY;
   uint8_t *block = malloc(head + floats * sizeof(float));
   if (!block)
      return VKPPU_AS_OUT_OF_MEMORY;
   *storage = block;
   struct bvh_geometry *geometries = (struct bvh_geometry *)(void *)block;
   float *data = (float *)(void *)(block + head);
   in->geometries = geometries;
   in->geometry_count = n;
   for (uint32_t g = 0; g < n; g++) {
      const struct vkppu_as_geometry *geo = &build->geometries[g];
      const VkAccelerationStructureBuildRangeInfoKHR *r = &ranges[g];
      geometries[g] = (struct bvh_geometry){
          .type = in->kind == PPU_BVH_KIND_AABBS ? BVH_GEOMETRY_AABBS : BVH_GEOMETRY_TRIANGLES,
          .flags = geo->flags & (PPU_BVH_GEOMETRY_OPAQUE | PPU_BVH_GEOMETRY_NO_DUPLICATE_ANY_HIT),
          .primitive_count = r->primitiveCount,
          .data = data,
      };
      if (r->primitiveCount) {
         enum vkppu_as_status s = in->kind == PPU_BVH_KIND_AABBS
                                      ? convert_aabbs(ctx, geo, r, data)
                                      : convert_triangles(ctx, g, geo, r, data);
         if (s != VKPPU_AS_OK)
            return s;
      }
      data += (uint64_t)r->primitiveCount * per;
   }
   return VKPPU_AS_OK;
}
