#include "accel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static VkResult accel_create(struct rq_context *ctx, VkAccelerationStructureTypeKHR type,
                             VkDeviceSize size, enum rq_build_mode mode, struct rq_accel *out)
{
   memset(out, 0, sizeof(*out));
   /* Host builds write the structure through a mapping: its memory must be
    * host-visible (vkBuildAccelerationStructuresKHR, VUID-03722). */
   VkResult r = rq_buffer_create(ctx, size,
                                 VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_STORAGE_BIT_KHR |
                                     VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
                                 mode == RQ_BUILD_HOST, &out->storage);
   if (r != VK_SUCCESS)
      return r;
   VkAccelerationStructureCreateInfoKHR aci = {
       .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_CREATE_INFO_KHR,
       .buffer = out->storage.buffer,
       .size = size,
       .type = type,
   };
   CHECK_VK(vkCreateAccelerationStructureKHR(ctx->device, &aci, NULL, &out->handle));
   VkAccelerationStructureDeviceAddressInfoKHR dai = {
       .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_DEVICE_ADDRESS_INFO_KHR,
       .accelerationStructure = out->handle,
   };
   out->address = vkGetAccelerationStructureDeviceAddressKHR(ctx->device, &dai);
   return VK_SUCCESS;
}

void rq_accel_destroy(struct rq_context *ctx, struct rq_accel *a)
{
   if (a->handle)
      vkDestroyAccelerationStructureKHR(ctx->device, a->handle, NULL);
   rq_buffer_destroy(ctx, &a->storage);
   memset(a, 0, sizeof(*a));
}

/* Makes earlier acceleration structure builds and copies (in this or an
 * earlier submission) visible to what is recorded next in cmd. */
static void accel_build_barrier(VkCommandBuffer cmd, VkPipelineStageFlags dst_stage)
{
   VkMemoryBarrier mb = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
       .srcAccessMask = VK_ACCESS_ACCELERATION_STRUCTURE_WRITE_BIT_KHR,
       .dstAccessMask = VK_ACCESS_ACCELERATION_STRUCTURE_READ_BIT_KHR,
   };
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ACCELERATION_STRUCTURE_BUILD_BIT_KHR, dst_stage, 0,
                        1, &mb, 0, NULL, 0, NULL);
}

static VkResult build_on_device(struct rq_context *ctx, struct rq_level_build *lb,
                                VkAccelerationStructureBuildGeometryInfoKHR *info,
                                VkDeviceSize scratch_size, double *seconds, bool *timed_on_gpu)
{
   /* The scratch address must be a multiple of
    * minAccelerationStructureScratchOffsetAlignment: over-allocate and round
    * up rather than trust the buffer's own alignment. */
   VkDeviceSize align = ctx->as_properties.minAccelerationStructureScratchOffsetAlignment;
   align = align ? align : 1;
   struct rq_buffer scratch;
   VkResult r = rq_buffer_create(ctx, scratch_size + align - 1,
                                 VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                     VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
                                 false, &scratch);
   VkCommandBuffer cmd = VK_NULL_HANDLE;
   if (r == VK_SUCCESS)
      r = rq_commands_begin(ctx, &cmd);
   if (r == VK_SUCCESS) {
      info->scratchData.deviceAddress = (scratch.address + align - 1) / align * align;
      const VkAccelerationStructureBuildRangeInfoKHR *ranges = &lb->range;
      accel_build_barrier(cmd, VK_PIPELINE_STAGE_ACCELERATION_STRUCTURE_BUILD_BIT_KHR);
      vkCmdBuildAccelerationStructuresKHR(cmd, 1, info, &ranges);
      if (lb->compacted_size) {
         accel_build_barrier(cmd, VK_PIPELINE_STAGE_ACCELERATION_STRUCTURE_BUILD_BIT_KHR);
         vkCmdResetQueryPool(cmd, lb->compacted_size, 0, 1);
         vkCmdWriteAccelerationStructuresPropertiesKHR(
             cmd, 1, &info->dstAccelerationStructure,
             VK_QUERY_TYPE_ACCELERATION_STRUCTURE_COMPACTED_SIZE_KHR, lb->compacted_size, 0);
      }
      r = rq_commands_submit(ctx, cmd, seconds, timed_on_gpu);
   }
   if (r != VK_TIMEOUT)
      rq_buffer_destroy(ctx, &scratch);
   return r;
}

static VkResult build_on_host(struct rq_context *ctx, struct rq_level_build *lb,
                              VkAccelerationStructureBuildGeometryInfoKHR *info,
                              VkDeviceSize scratch_size, double *seconds)
{
   /* Host scratch has no documented alignment; 256 covers any vector
    * access an implementation may make. */
   const size_t align = 256;
   size_t bytes = ((size_t)scratch_size + align - 1) / align * align;
   void *scratch = aligned_alloc(align, bytes ? bytes : align);
   if (!scratch) {
      fprintf(stderr, RQ_TAG ": out of memory for %zu bytes of build scratch\n", bytes);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   info->scratchData.hostAddress = scratch;
   const VkAccelerationStructureBuildRangeInfoKHR *ranges = &lb->range;
   double start = rq_host_seconds();
   VkResult r = vkBuildAccelerationStructuresKHR(ctx->device, VK_NULL_HANDLE, 1, info, &ranges);
   *seconds = rq_host_seconds() - start;
   free(scratch);
   if (r != VK_SUCCESS)
      fprintf(stderr, RQ_TAG ": vkBuildAccelerationStructuresKHR -> %s\n",
              vk_sample_result_string(r));
   return r;
}

VkResult rq_accel_build(struct rq_context *ctx, struct rq_level_build *lb, struct rq_accel *out,
                        double *seconds, bool *timed_on_gpu)
{
   VkAccelerationStructureBuildGeometryInfoKHR info = {
       .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_BUILD_GEOMETRY_INFO_KHR,
       .type = lb->type,
       .flags = lb->flags,
       .mode = VK_BUILD_ACCELERATION_STRUCTURE_MODE_BUILD_KHR,
       .geometryCount = 1,
       .pGeometries = &lb->geometry,
   };
   VkAccelerationStructureBuildSizesInfoKHR sizes = {
       .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_BUILD_SIZES_INFO_KHR,
   };
   vkGetAccelerationStructureBuildSizesKHR(ctx->device,
                                           lb->mode == RQ_BUILD_HOST
                                               ? VK_ACCELERATION_STRUCTURE_BUILD_TYPE_HOST_KHR
                                               : VK_ACCELERATION_STRUCTURE_BUILD_TYPE_DEVICE_KHR,
                                           &info, &lb->range.primitiveCount, &sizes);
   VkResult r = accel_create(ctx, lb->type, sizes.accelerationStructureSize, lb->mode, out);
   if (r != VK_SUCCESS)
      return r;
   info.dstAccelerationStructure = out->handle;
   *timed_on_gpu = false;
   if (lb->mode == RQ_BUILD_HOST)
      return build_on_host(ctx, lb, &info, sizes.buildScratchSize, seconds);
   return build_on_device(ctx, lb, &info, sizes.buildScratchSize, seconds, timed_on_gpu);
}

/* Replaces scene->blas by a compacted copy of it. On the device, the size
 * comes from the query build_on_device wrote. */
static VkResult compact_blas(struct rq_context *ctx, enum rq_build_mode mode, VkQueryPool query,
                             struct rq_scene *scene)
{
   VkDeviceSize size = 0;
   double start = rq_host_seconds();
   if (mode == RQ_BUILD_HOST) {
      CHECK_VK(vkWriteAccelerationStructuresPropertiesKHR(
          ctx->device, 1, &scene->blas.handle,
          VK_QUERY_TYPE_ACCELERATION_STRUCTURE_COMPACTED_SIZE_KHR, sizeof(size), &size,
          sizeof(size)));
   } else {
      CHECK_VK(vkGetQueryPoolResults(ctx->device, query, 0, 1, sizeof(size), &size, sizeof(size),
                                     VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
   }
   if (size == 0 || size > scene->blas.storage.size) {
      fprintf(stderr, RQ_TAG ": implausible compacted BLAS size %llu (built %llu)\n",
              (unsigned long long)size, (unsigned long long)scene->blas.storage.size);
      return VK_ERROR_UNKNOWN;
   }
   struct rq_accel compacted;
   VkResult r =
       accel_create(ctx, VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR, size, mode, &compacted);
   VkCopyAccelerationStructureInfoKHR copy = {
       .sType = VK_STRUCTURE_TYPE_COPY_ACCELERATION_STRUCTURE_INFO_KHR,
       .src = scene->blas.handle,
       .dst = compacted.handle,
       .mode = VK_COPY_ACCELERATION_STRUCTURE_MODE_COMPACT_KHR,
   };
   if (r == VK_SUCCESS && mode == RQ_BUILD_HOST) {
      r = vkCopyAccelerationStructureKHR(ctx->device, VK_NULL_HANDLE, &copy);
      if (r != VK_SUCCESS)
         fprintf(stderr, RQ_TAG ": vkCopyAccelerationStructureKHR -> %s\n",
                 vk_sample_result_string(r));
      scene->compact_seconds = rq_host_seconds() - start;
   } else if (r == VK_SUCCESS) {
      VkCommandBuffer cmd;
      r = rq_commands_begin(ctx, &cmd);
      if (r == VK_SUCCESS) {
         accel_build_barrier(cmd, VK_PIPELINE_STAGE_ACCELERATION_STRUCTURE_BUILD_BIT_KHR);
         vkCmdCopyAccelerationStructureKHR(cmd, &copy);
         r = rq_commands_submit(ctx, cmd, &scene->compact_seconds, NULL);
      }
   }
   if (r != VK_SUCCESS) {
      if (r != VK_TIMEOUT)
         rq_accel_destroy(ctx, &compacted);
      return r;
   }
   rq_accel_destroy(ctx, &scene->blas);
   scene->blas = compacted;
   scene->blas_compacted_bytes = size;
   return VK_SUCCESS;
}

static VkResult upload_mesh(struct rq_context *ctx, const struct obj_mesh *mesh,
                            struct rq_scene *scene)
{
   /* Build input for the BLAS and storage buffers for the shader's normal
    * (samples that also draw the mesh add vertex and index buffer usage). */
   const VkBufferUsageFlags usage =
       VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_BIT_KHR |
       VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
       RQ_MESH_EXTRA_USAGE;
   VkDeviceSize position_bytes = (VkDeviceSize)mesh->vertex_count * 3 * sizeof(float);
   VkDeviceSize index_bytes = (VkDeviceSize)mesh->triangle_count * 3 * sizeof(uint32_t);
   VkResult r = rq_buffer_create(ctx, position_bytes, usage, true, &scene->positions);
   if (r == VK_SUCCESS)
      r = rq_buffer_create(ctx, index_bytes, usage, true, &scene->indices);
   if (r == VK_SUCCESS)
      r = rq_buffer_create(ctx, sizeof(VkAccelerationStructureInstanceKHR),
                           VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_BIT_KHR |
                               VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
                           true, &scene->instances);
   if (r != VK_SUCCESS)
      return r;
   memcpy(scene->positions.map, mesh->positions, position_bytes);
   memcpy(scene->indices.map, mesh->indices, index_bytes);
   return VK_SUCCESS;
}

static VkResult build_blas(struct rq_context *ctx, const struct obj_mesh *mesh,
                           enum rq_build_mode mode, bool compact, struct rq_scene *scene)
{
   struct rq_level_build lb = {
       .mode = mode,
       .type = VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR,
       .geometry =
           {
               .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR,
               .geometryType = VK_GEOMETRY_TYPE_TRIANGLES_KHR,
               .flags = VK_GEOMETRY_OPAQUE_BIT_KHR,
               .geometry.triangles =
                   {
                       .sType =
                           VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_TRIANGLES_DATA_KHR,
                       .vertexFormat = VK_FORMAT_R32G32B32_SFLOAT,
                       .vertexStride = 3 * sizeof(float),
                       .maxVertex = mesh->vertex_count - 1,
                       .indexType = VK_INDEX_TYPE_UINT32,
                   },
           },
       .range = {.primitiveCount = mesh->triangle_count},
       .flags = VK_BUILD_ACCELERATION_STRUCTURE_PREFER_FAST_TRACE_BIT_KHR |
                (compact ? VK_BUILD_ACCELERATION_STRUCTURE_ALLOW_COMPACTION_BIT_KHR : 0),
   };
   VkAccelerationStructureGeometryTrianglesDataKHR *tri = &lb.geometry.geometry.triangles;
   if (mode == RQ_BUILD_HOST) {
      tri->vertexData.hostAddress = scene->positions.map;
      tri->indexData.hostAddress = scene->indices.map;
   } else {
      tri->vertexData.deviceAddress = scene->positions.address;
      tri->indexData.deviceAddress = scene->indices.address;
   }
   if (compact && mode == RQ_BUILD_DEVICE) {
      VkQueryPoolCreateInfo qpci = {
          .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
          .queryType = VK_QUERY_TYPE_ACCELERATION_STRUCTURE_COMPACTED_SIZE_KHR,
          .queryCount = 1,
      };
      CHECK_VK(vkCreateQueryPool(ctx->device, &qpci, NULL, &lb.compacted_size));
   }
   VkResult r = rq_accel_build(ctx, &lb, &scene->blas, &scene->blas_seconds, &scene->timed_on_gpu);
   scene->blas_bytes = scene->blas.storage.size;
   if (r == VK_SUCCESS && compact)
      r = compact_blas(ctx, mode, lb.compacted_size, scene);
   if (lb.compacted_size && r != VK_TIMEOUT)
      vkDestroyQueryPool(ctx->device, lb.compacted_size, NULL);
   return r;
}

static VkResult build_tlas(struct rq_context *ctx, enum rq_build_mode mode, struct rq_scene *scene)
{
   VkAccelerationStructureInstanceKHR *instance = scene->instances.map;
   *instance = (VkAccelerationStructureInstanceKHR){
       .transform.matrix = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}},
       .mask = 0xff,
       .flags = VK_GEOMETRY_INSTANCE_TRIANGLE_FACING_CULL_DISABLE_BIT_KHR,
       /* Host operations name the BLAS by handle, device ones by address
        * (VkAccelerationStructureInstanceKHR::accelerationStructureReference). */
       .accelerationStructureReference =
           mode == RQ_BUILD_HOST ? (uint64_t)(uintptr_t)scene->blas.handle : scene->blas.address,
   };
   struct rq_level_build lb = {
       .mode = mode,
       .type = VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR,
       .geometry =
           {
               .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR,
               .geometryType = VK_GEOMETRY_TYPE_INSTANCES_KHR,
               .geometry.instances =
                   {
                       .sType =
                           VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_INSTANCES_DATA_KHR,
                   },
           },
       .range = {.primitiveCount = 1},
       .flags = VK_BUILD_ACCELERATION_STRUCTURE_PREFER_FAST_TRACE_BIT_KHR,
   };
   if (mode == RQ_BUILD_HOST)
      lb.geometry.geometry.instances.data.hostAddress = scene->instances.map;
   else
      lb.geometry.geometry.instances.data.deviceAddress = scene->instances.address;
   bool gpu;
   VkResult r = rq_accel_build(ctx, &lb, &scene->tlas, &scene->tlas_seconds, &gpu);
   scene->tlas_bytes = scene->tlas.storage.size;
   return r;
}

VkResult rq_scene_build(struct rq_context *ctx, const struct obj_mesh *mesh,
                        enum rq_build_mode mode, bool compact, struct rq_scene *scene)
{
   memset(scene, 0, sizeof(*scene));
   VkResult r = upload_mesh(ctx, mesh, scene);
   if (r == VK_SUCCESS)
      r = build_blas(ctx, mesh, mode, compact, scene);
   if (r == VK_SUCCESS)
      r = build_tlas(ctx, mode, scene);
   return r;
}

void rq_scene_destroy(struct rq_context *ctx, struct rq_scene *scene)
{
   rq_accel_destroy(ctx, &scene->tlas);
   rq_accel_destroy(ctx, &scene->blas);
   rq_buffer_destroy(ctx, &scene->instances);
   rq_buffer_destroy(ctx, &scene->positions);
   rq_buffer_destroy(ctx, &scene->indices);
}
