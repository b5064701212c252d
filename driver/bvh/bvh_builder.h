/* The acceleration-structure builder: host-side C that writes the BVH format
 * of hw/include/ppu/bvh.h into caller-provided memory. docs/bvh.md describes
 * the format byte by byte and the algorithm; this header is the interface.
 *
 * No Vulkan here: icd/ converts vertex formats, index types, geometry
 * transforms and VkAccelerationStructureInstanceKHR into the plain inputs
 * below, and maps enum bvh_result to VkResult.
 *
 * Every function is reentrant; a build or refit uses only host heap memory
 * (see bvh_get_sizes for what that means for scratch sizes). A large build
 * starts its own threads and joins them before it returns
 * (bvh_build_input::thread_count).
 */
#ifndef DRV_BVH_BUILDER_H
#define DRV_BVH_BUILDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ppu/bvh.h"

/* Results of the builder. Kept apart from enum drv_result because two of
 * them have no drv_result counterpart; icd/ maps them as
 *   BVH_ERROR_OUT_OF_HOST_MEMORY -> VK_ERROR_OUT_OF_HOST_MEMORY
 *   BVH_ERROR_INCOMPATIBLE       -> VK_ERROR_INCOMPATIBLE_VERSION_KHR
 *   BVH_ERROR_INVALID_INPUT, BVH_ERROR_CORRUPT -> invalid usage (the API
 *   gives no error code: report it and leave the destination empty). */
enum bvh_result {
   BVH_SUCCESS = 0,
   BVH_ERROR_OUT_OF_HOST_MEMORY, /* malloc failed */
   BVH_ERROR_INVALID_INPUT,      /* bad counts/kind, destination too small, refit mismatch */
   BVH_ERROR_INCOMPATIBLE,       /* serialized data from another driver or format version */
   BVH_ERROR_CORRUPT,            /* a structure or serialized blob failed validation */
};

const char *bvh_result_name(enum bvh_result r);

enum bvh_geometry_type {
   BVH_GEOMETRY_TRIANGLES = 0, /* data: 9 floats per primitive (v0, v1, v2 xyz) */
   BVH_GEOMETRY_AABBS = 1,     /* data: 6 floats per primitive (min xyz, max xyz) */
};

/* One geometry of a bottom-level build. Vertices are already fetched,
 * indexed and transformed by the geometry's transform, in binary32.
 *
 * Inactive primitives (Vulkan spec, "Inactive Primitives and Instances"): a
 * triangle whose vertex has a NaN X is inactive, and so is an AABB whose
 * minimum X is NaN. NaN in any other component is undefined behaviour in
 * the spec; we treat it as inactive too. Degenerate (zero-area) triangles
 * stay active; the intersection test simply never reports them. */
struct bvh_geometry {
   enum bvh_geometry_type type;
   uint32_t flags; /* PPU_BVH_GEOMETRY_* */
   uint32_t primitive_count;
   const float *data;
};

/* One instance of a top-level build (VkAccelerationStructureInstanceKHR,
 * with the BLAS's bounds read from its header by the caller). */
struct bvh_instance {
   float transform[3][4]; /* object to world, row-major 3x4 */
   uint32_t custom_index; /* low 24 bits used */
   uint8_t mask;
   uint32_t sbt_offset;                          /* low 24 bits used */
   uint8_t flags;                                /* PPU_BVH_INSTANCE_* */
   uint64_t blas_address;                        /* 0 = inactive instance */
   float blas_bounds_min[3], blas_bounds_max[3]; /* min > max: the BLAS is empty */
};

struct bvh_build_input {
   enum ppu_bvh_kind kind;
   uint32_t flags; /* PPU_BVH_FLAG_ALLOW_UPDATE; COMPACTED is set by bvh_copy_compacted */
   /* Bottom level (TRIANGLES: every geometry BVH_GEOMETRY_TRIANGLES; AABBS:
    * every geometry BVH_GEOMETRY_AABBS, as Vulkan requires one type per BLAS). */
   const struct bvh_geometry *geometries;
   uint32_t geometry_count;
   /* Top level. instance_geometry_flags go to the single geometry entry. */
   const struct bvh_instance *instances;
   uint32_t instance_count;
   uint32_t instance_geometry_flags;
   /* Host threads bvh_build may use, the caller's included: 0 = default
    * (online CPUs, at most 8), 1 = the caller's thread only. Builds of
    * fewer than BVH_PARALLEL_MIN_PRIMITIVES primitives always use one.
    * The structure is the same, byte for byte, for every thread count.
    * bvh_refit ignores it. */
   uint32_t thread_count;
   /* VK_BUILD_ACCELERATION_STRUCTURE_PREFER_FAST_BUILD_BIT_KHR: a linear
    * BVH (Morton-code sort and midpoint splits, bvh_lbvh.c) instead of the
    * binned SAH tree; several times faster to build, slower to trace. */
   bool prefer_fast_build;
};

/* Below this many primitives bvh_build runs on the caller's thread only:
 * starting threads would cost more than they save. */
#define BVH_PARALLEL_MIN_PRIMITIVES 65536u

/* vkGetAccelerationStructureBuildSizesKHR. */
struct bvh_sizes {
   uint64_t structure_size;      /* worst case for any build with these counts */
   uint64_t build_scratch_size;  /* see bvh_get_sizes */
   uint64_t update_scratch_size; /* see bvh_get_sizes */
};

/* Worst-case sizes for a build of `kind` with `geometry_count` geometries
 * (ignored for INSTANCES) and `primitive_count` primitives or instances in
 * total, active or not. The build and refit run on the host with heap
 * memory and touch no scratch buffer; the scratch sizes are nevertheless
 * PPU_BVH_ALIGN rather than 0 so that an application which creates a
 * scratch buffer of the reported size does not create a zero-sized buffer
 * (VUID-VkBufferCreateInfo-size-00912). BVH_ERROR_INVALID_INPUT for an
 * unknown kind. */
enum bvh_result bvh_get_sizes(enum ppu_bvh_kind kind, uint32_t geometry_count,
                              uint32_t primitive_count, struct bvh_sizes *out);

/* Optional figures of a build, for benchmarks and tests. */
struct bvh_build_stats {
   uint32_t node_count;
   uint32_t record_count;        /* every primitive, active or not */
   uint32_t active_record_count; /* those the tree references */
   uint32_t leaf_child_count;    /* LEAF slots */
   uint32_t max_depth;
   double sah_cost; /* of the wide tree, in datapath cycles per ray (docs/bvh.md) */
};

/* Builds into dst (dst_size bytes, PPU_BVH_ALIGN-aligned for the TTU; the
 * builder itself only needs 8-byte alignment). The structure is written
 * compactly: its header's total_size is what it occupies, at most
 * bvh_get_sizes()'s structure_size. stats may be NULL. */
enum bvh_result bvh_build(const struct bvh_build_input *in, void *dst, uint64_t dst_size,
                          struct bvh_build_stats *stats);

/* Update (VK_BUILD_ACCELERATION_STRUCTURE_MODE_UPDATE_KHR) in place: bvh
 * was built with PPU_BVH_FLAG_ALLOW_UPDATE from an input with the same kind,
 * geometry count and per-geometry primitive counts (else
 * BVH_ERROR_INVALID_INPUT). Records are rewritten from `in` and every box
 * is recomputed bottom-up and requantized; the topology stays. For an
 * update from a source to another destination, copy total_size bytes
 * first. The spec forbids changing a primitive's active state in an
 * update; if an application does, an inactive primitive stays inactive and
 * an active one that turned NaN is flagged INACTIVE (never hit) but keeps
 * its place in the tree. */
enum bvh_result bvh_refit(const struct bvh_build_input *in, void *bvh, uint64_t size);

/* Compaction: the builder already writes compactly, so the compacted size
 * is the header's total_size (VK_QUERY_TYPE_ACCELERATION_STRUCTURE_
 * COMPACTED_SIZE_KHR), and a compacting copy is a copy that sets
 * PPU_BVH_FLAG_COMPACTED. A plain clone is the same copy without the flag. */
uint64_t bvh_compacted_size(const void *bvh);
enum bvh_result bvh_copy(const void *src, void *dst, uint64_t dst_size, bool compact);

/* Serialization (vkCmdCopyAccelerationStructureToMemoryKHR and back).
 * Layout, as the spec defines the header:
 *   0   driver UUID (VK_UUID_SIZE = 16 bytes)
 *   16  compatibility UUID (16 bytes)
 *   32  u64 serialized size: the whole blob
 *   40  u64 deserialized size: the structure's total_size
 *   48  u64 count of bottom-level handles N
 *   56  N u64 handles
 *   56 + 8N  the structure, byte for byte
 * For a top level N = leaf_count and handle i is record i's blas_address
 * (0 for an inactive instance); for a bottom level N = 0. */
#define BVH_UUID_SIZE 16u
#define BVH_SERIALIZED_HEADER_BYTES 56u

uint64_t bvh_serialized_size(const void *bvh);
enum bvh_result bvh_serialize(const void *bvh, const uint8_t driver_uuid[BVH_UUID_SIZE],
                              const uint8_t compat_uuid[BVH_UUID_SIZE], void *dst,
                              uint64_t dst_size);
/* vkGetDeviceAccelerationStructureCompatibilityKHR: BVH_SUCCESS when the
 * blob's two UUIDs are ours, else BVH_ERROR_INCOMPATIBLE. */
enum bvh_result bvh_check_compatibility(const void *blob, const uint8_t driver_uuid[BVH_UUID_SIZE],
                                        const uint8_t compat_uuid[BVH_UUID_SIZE]);
/* Copies the structure out of a blob of blob_size bytes into dst and writes
 * each active instance's blas_address from the handle list, which the spec
 * has the application fill with the new bottom-level structures' addresses
 * before deserializing (vkCmdCopyMemoryToAccelerationStructureKHR). The
 * result is validated with bvh_validate; corrupt input gives
 * BVH_ERROR_CORRUPT (dst may then hold garbage; the caller must not use it). */
enum bvh_result bvh_deserialize(const void *blob, uint64_t blob_size,
                                const uint8_t driver_uuid[BVH_UUID_SIZE],
                                const uint8_t compat_uuid[BVH_UUID_SIZE], void *dst,
                                uint64_t dst_size);

/* Checks a structure of at most `size` bytes for internal consistency:
 * header fields and offsets, every node and record index in range, each
 * node reached exactly once with the right parent and depth, depth below
 * PPU_BVH_MAX_DEPTH, every primitive recorded exactly once, exactly the
 * active records referenced, quantized boxes conservative with respect to
 * the records under them (as the TTU decodes them). Never reads outside
 * [bvh, bvh + size). BVH_SUCCESS or BVH_ERROR_CORRUPT (with a reason in
 * `why` when non-NULL, why_size bytes). */
enum bvh_result bvh_validate(const void *bvh, uint64_t size, char *why, size_t why_size);

/* Child box of a node slot exactly as the TTU evaluates it (bvh.h):
 * lo = origin + (float)q_lo * 2^exponent in binary32 round-to-nearest. */
void bvh_node_child_box(const struct ppu_bvh_node *node, unsigned slot, float lo[3], float hi[3]);

#endif
