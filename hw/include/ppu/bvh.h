/* The in-memory format of a bounding volume hierarchy (BVH) as the tree
 * traversal unit (TTU) reads it: the contract between the driver's builder
 * (driver/bvh/) and the TTU (hw/src/ttu/). docs/bvh.md describes it byte by
 * byte with the rules a builder must follow; keep the two in step.
 *
 * One acceleration structure is one contiguous block of GPU memory, 128-byte
 * aligned (the TTU's L0 cache line, beam-tracing seed: "eight entries for
 * cache lines having 128 bytes"):
 *
 *   header            128 B                     struct ppu_bvh_header
 *   geometry table    geometry_count * 16 B      struct ppu_bvh_geometry,
 *                     padded to 128 B            (builder and refit use it; the
 *                                                 TTU does not read it)
 *   nodes             node_count * 128 B         struct ppu_bvh_node, node 0 is
 *                                                 the root
 *   leaf records      leaf_count * leaf_stride   triangles, AABBs or instances
 *
 * Records of inactive primitives (NaN vertex or AABB, instance address 0)
 * follow the active ones and no leaf references them. A TTU treats a
 * record flagged PPU_BVH_PRIM_INACTIVE, or an instance with blas_address 0,
 * as never hit (refit can produce one when an application breaks the update
 * rules).
 *
 * All offsets in the header are bytes from the header's address, so a
 * structure can be copied to another address unchanged (clone, compaction,
 * deserialization copy bytes; only instance records hold absolute
 * addresses, of bottom-level structures).
 *
 * Nodes are wide (up to 8 children) with child boxes quantized to 8 bits
 * per plane relative to a per-node grid, in the style of Ylitie, Karras and
 * Laine, "Efficient Incoherent Ray Traversal on GPUs Through Compressed Wide
 * BVHs" (HPG 2017): child box = origin + q * 2^exponent per axis, lower
 * planes rounded down and upper planes rounded up, so a quantized box always
 * contains the exact one (traversal stays conservative).
 *
 * All fields are little-endian. Floats are IEEE binary32.
 */
#ifndef PPU_BVH_H
#define PPU_BVH_H

#include <stdint.h>

#define PPU_BVH_MAGIC 0x48564250u /* "PBVH" */
#define PPU_BVH_VERSION 2u        /* 2: nodes store ancestors 2..7 (1 is refused) */
#define PPU_BVH_ALIGN 128u        /* a structure's address and its node size */
#define PPU_BVH_NODE_BYTES 128u
#define PPU_BVH_WIDTH 8u            /* children per node at most */
#define PPU_BVH_MAX_DEPTH 32u       /* root is depth 0; builders keep every node above this */
#define PPU_BVH_MAX_LEAF_RECORDS 8u /* records one leaf child may hold */
#define PPU_BVH_NONE 0xffffffffu    /* "no node" (the root's parent) */
#define PPU_BVH_ANCESTORS 7u        /* ancestors a node names: parent + ancestor[6] */

enum ppu_bvh_kind {
   PPU_BVH_KIND_TRIANGLES = 1, /* bottom level, triangle records */
   PPU_BVH_KIND_AABBS = 2,     /* bottom level, AABB records */
   PPU_BVH_KIND_INSTANCES = 3, /* top level, instance records */
};

/* Header flags: what the builder was asked for. Informational for the TTU;
 * refit (update) needs ALLOW_UPDATE. */
#define PPU_BVH_FLAG_ALLOW_UPDATE 0x1u
#define PPU_BVH_FLAG_COMPACTED 0x2u

struct ppu_bvh_header {
   uint32_t magic;           /* 0   PPU_BVH_MAGIC */
   uint32_t version;         /* 4   PPU_BVH_VERSION */
   uint32_t kind;            /* 8   enum ppu_bvh_kind */
   uint32_t flags;           /* 12  PPU_BVH_FLAG_* */
   uint64_t total_size;      /* 16  bytes from the header to the end of the last record */
   uint32_t node_offset;     /* 24  byte offset of node 0; multiple of 128 */
   uint32_t node_count;      /* 28  0 = empty structure: every ray misses */
   uint32_t leaf_offset;     /* 32  byte offset of record 0 */
   uint32_t leaf_count;      /* 36  records */
   uint32_t leaf_stride;     /* 40  64 (triangles, AABBs) or 128 (instances) */
   uint32_t geometry_offset; /* 44  byte offset of the geometry table */
   uint32_t geometry_count;  /* 48  entries in the geometry table */
   uint32_t primitive_count; /* 52  primitives or instances in the build (active or not) */
   float bounds_min[3];      /* 56  box of every active record, exact; empty: +inf / -inf */
   float bounds_max[3];      /* 68 */
   uint32_t max_depth;       /* 80  deepest node's depth (root = 0) */
   uint32_t reserved[11];    /* 84  0 */
};

/* Geometry flags: VkGeometryFlagsKHR values, copied from the build. */
#define PPU_BVH_GEOMETRY_OPAQUE 0x1u
#define PPU_BVH_GEOMETRY_NO_DUPLICATE_ANY_HIT 0x2u

struct ppu_bvh_geometry {
   uint32_t flags;           /* PPU_BVH_GEOMETRY_* */
   uint32_t primitive_count; /* primitives the geometry had at build time */
   uint32_t first_record;    /* informational: records are not grouped by geometry */
   uint32_t reserved;
};

enum ppu_bvh_child_kind {
   PPU_BVH_CHILD_EMPTY = 0,
   PPU_BVH_CHILD_INTERNAL = 1, /* node internal_base + child_index */
   PPU_BVH_CHILD_LEAF = 2,     /* records leaf_base + child_index, child_records of them */
};

/* One node: a 128-byte line. Slots 0..child_count-1 hold children; the rest
 * are EMPTY. Child box of slot i, per axis a (0 = x, 1 = y, 2 = z):
 *   lo = origin[a] + q_lo[a][i] * 2^exponent[a]
 *   hi = origin[a] + q_hi[a][i] * 2^exponent[a]
 * evaluated in binary32: q * 2^exponent is exact (an 8-bit integer times a
 * power of two) and the addition to origin rounds to nearest, as IEEE
 * addition does. The builder picks origin, exponent and q and then checks
 * that result: lo <= every point of the child and hi >= every point.
 *
 * With parent (the 1st) and ancestor[] (2nd..7th) a node names its
 * ancestors 1..7, so the TTU's intersection predictor finds its Go Up Level
 * node (k <= 7) in the node it already holds for a hit, with no node fetch
 * per level (docs/ttu.md). */
struct ppu_bvh_node {
   float origin[3];                      /* 0 */
   int8_t exponent[3];                   /* 12 */
   uint8_t child_count;                  /* 15  1..8 */
   uint32_t internal_base;               /* 16  node index */
   uint32_t leaf_base;                   /* 20  record index */
   uint32_t parent;                      /* 24  node index; PPU_BVH_NONE at the root */
   uint32_t depth;                       /* 28  root = 0 */
   uint8_t q_lo[3][PPU_BVH_WIDTH];       /* 32  per axis, per slot */
   uint8_t q_hi[3][PPU_BVH_WIDTH];       /* 56 */
   uint8_t child_kind[PPU_BVH_WIDTH];    /* 80  enum ppu_bvh_child_kind */
   uint8_t child_index[PPU_BVH_WIDTH];   /* 88  offset from internal_base / leaf_base */
   uint8_t child_records[PPU_BVH_WIDTH]; /* 96  LEAF: 1..PPU_BVH_MAX_LEAF_RECORDS; else 0 */
   uint32_t ancestor[6]; /* 104 ancestor[i] = node index of the (i+2)-th ancestor (grandparent,
                            ...); PPU_BVH_NONE above the root */
};

/* 2^e as binary32, exactly (what ldexpf(1, e) returns), for every int8_t
 * exponent: built from its bits, e >= -126 a normal float and below it a
 * subnormal (2^-128 = 2^-149 * 2^21). The TTU decodes several planes per
 * node fetch; libm's ldexpf is a call and was a fifth of ray time. */
static inline float ppu_bvh_pow2(int exponent)
{
   union {
      uint32_t bits;
      float value;
   } u = {.bits = exponent >= -126 ? (uint32_t)(exponent + 127) << 23 : 1u << (exponent + 149)};
   return u.value;
}

/* One decoded plane of a child box, the expression the node layout above
 * defines: (float)q * 2^exponent is exact (8 significant bits), so only the
 * addition rounds (to nearest), and a fused multiply-add would give the same
 * bits. The builder checks its boxes with this function and the TTU decodes
 * with it, so the two cannot disagree. */
static inline float ppu_bvh_plane(float origin, int exponent, unsigned q)
{
   return origin + (float)q * ppu_bvh_pow2(exponent);
}

/* Record flags (triangle and AABB records). */
#define PPU_BVH_PRIM_OPAQUE 0x1u               /* the geometry was OPAQUE */
#define PPU_BVH_PRIM_NO_DUPLICATE_ANY_HIT 0x2u /* informational: records are never duplicated */
#define PPU_BVH_PRIM_INACTIVE 0x4u             /* NaN at build (Vulkan: inactive): never hit */

/* A triangle as the TTU tests it: object-space vertices, already fetched,
 * transformed by the geometry's transform and converted to binary32 by the
 * builder (vertex formats and index types are the builder's business). */
struct ppu_bvh_triangle {
   float v0[3], v1[3], v2[3]; /* 0 */
   uint32_t geometry_index;   /* 36 */
   uint32_t primitive_index;  /* 40  index within its geometry */
   uint32_t flags;            /* 44  PPU_BVH_PRIM_* */
   uint32_t reserved[4];      /* 48  0 */
};

struct ppu_bvh_aabb {
   float min[3], max[3];     /* 0 */
   uint32_t geometry_index;  /* 24 */
   uint32_t primitive_index; /* 28 */
   uint32_t flags;           /* 32  PPU_BVH_PRIM_* */
   uint32_t reserved[7];     /* 36  0 */
};

/* Instance flags (bits 31..24 of sbt_offset_and_flags): the
 * VkGeometryInstanceFlagBitsKHR values. */
#define PPU_BVH_INSTANCE_CULL_DISABLE 0x1u
#define PPU_BVH_INSTANCE_FLIP_FACING 0x2u
#define PPU_BVH_INSTANCE_FORCE_OPAQUE 0x4u
#define PPU_BVH_INSTANCE_FORCE_NO_OPAQUE 0x8u

/* A top-level record. Matrices are row-major 3x4 (VkTransformMatrixKHR):
 * world = M * (x, y, z, 1). world_to_object is the builder's inverse. */
struct ppu_bvh_instance {
   float object_to_world[3][4];    /* 0 */
   float world_to_object[3][4];    /* 48 */
   uint64_t blas_address;          /* 96  VA of a bottom-level header; 0 = inactive */
   uint32_t custom_index_and_mask; /* 104 bits 23..0 instanceCustomIndex, 31..24 mask */
   uint32_t sbt_offset_and_flags;  /* 108 bits 23..0 SBT record offset, 31..24 PPU_BVH_INSTANCE_* */
   uint32_t instance_index;        /* 112 position in the build's instance array (InstanceId) */
   uint32_t reserved[3];           /* 116 0 */
};

_Static_assert(sizeof(struct ppu_bvh_header) == 128, "header is one line");
_Static_assert(sizeof(struct ppu_bvh_geometry) == 16, "geometry entry");
_Static_assert(sizeof(struct ppu_bvh_node) == PPU_BVH_NODE_BYTES, "node is one line");
_Static_assert(sizeof(((struct ppu_bvh_node *)0)->ancestor) == 4 * (PPU_BVH_ANCESTORS - 1),
               "parent + ancestor[] name PPU_BVH_ANCESTORS ancestors");
_Static_assert(sizeof(struct ppu_bvh_triangle) == 64, "triangle record");
_Static_assert(sizeof(struct ppu_bvh_aabb) == 64, "AABB record");
_Static_assert(sizeof(struct ppu_bvh_instance) == 128, "instance record");

#endif /* PPU_BVH_H */
