/* The scene on the device: vertex and index buffers, one bottom-level
 * acceleration structure over them (one opaque triangle geometry) and a
 * top-level one with a single identity instance of it. */
#ifndef ACCEL_H
#define ACCEL_H

#include "obj_mesh.h"
#include "rq_context.h"

/* Buffer usage the mesh's position and index buffers get on top of what
 * the build and the shaders need (-DRQ_MESH_EXTRA_USAGE=...). */
#ifndef RQ_MESH_EXTRA_USAGE
#define RQ_MESH_EXTRA_USAGE 0
#endif

struct rq_accel {
   VkAccelerationStructureKHR handle;
   struct rq_buffer storage;
   VkDeviceAddress address;
};

struct rq_scene {
   struct rq_buffer positions; /* R32G32B32_SFLOAT; also read by the shader */
   struct rq_buffer indices;   /* UINT32; also read by the shader */
   struct rq_buffer instances;
   struct rq_accel blas, tlas;
   /* What --benchmark reports. */
   bool timed_on_gpu;
   double blas_seconds, compact_seconds, tlas_seconds;
   VkDeviceSize blas_bytes, blas_compacted_bytes, tlas_bytes;
};

enum rq_build_mode {
   RQ_BUILD_DEVICE, /* vkCmdBuildAccelerationStructuresKHR */
   RQ_BUILD_HOST,   /* vkBuildAccelerationStructuresKHR (accelerationStructureHostCommands) */
};

/* Everything one level's build needs, whichever way it is built. */
struct rq_level_build {
   enum rq_build_mode mode;
   VkAccelerationStructureTypeKHR type;
   VkAccelerationStructureGeometryKHR geometry;
   VkAccelerationStructureBuildRangeInfoKHR range;
   VkBuildAccelerationStructureFlagsKHR flags;
   VkQueryPool compacted_size; /* device builds with --compact: written after the build */
};

/* Sizes, creates and builds one level of one geometry into *out (other
 * samples build their own scenes with it: samples/rt_reflections);
 * *seconds and *timed_on_gpu as rq_commands_submit. */
VkResult rq_accel_build(struct rq_context *ctx, struct rq_level_build *lb, struct rq_accel *out,
                        double *seconds, bool *timed_on_gpu);
void rq_accel_destroy(struct rq_context *ctx, struct rq_accel *a);

/* Uploads mesh and builds both levels; compact: builds the BLAS with
 * ALLOW_COMPACTION, queries its compacted size and keeps a compacted copy. */
VkResult rq_scene_build(struct rq_context *ctx, const struct obj_mesh *mesh,
                        enum rq_build_mode mode, bool compact, struct rq_scene *scene);
void rq_scene_destroy(struct rq_context *ctx, struct rq_scene *scene);

#endif
