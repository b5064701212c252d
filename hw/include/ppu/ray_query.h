/* The ray-query object: per-thread state in LOCAL memory through which a
 * shader and the tree traversal unit (TTU) talk. The contract between the
 * compiler (driver/compiler/, SPIR-V OpRayQuery*KHR) and the TTU
 * (hw/src/ttu/); docs/ray-query.md gives the semantics.
 *
 * A shader owns one object per ray query variable, PPU_RAY_QUERY_BYTES at a
 * PPU_RAY_QUERY_ALIGN-aligned offset of its local memory. It writes the ray
 * fields with ST.LOCAL, then runs TTU instructions (isa.h, opcode TTU, subop
 * enum ppu_ttu_op) whose operand a is the object's local offset:
 *
 *   TTU.INIT      a         checks and latches the ray fields, clears both
 *                           hits, state = TRAVERSING (or DONE if the
 *                           structure is empty / the ray cannot hit).
 *   TTU.PROCEED   d, a      traverses until a candidate needs the shader (a
 *                           non-opaque triangle or an AABB) or traversal ends.
 *                           d = 1 when a candidate waits (state CANDIDATE),
 *                           d = 0 when done (state DONE). Opaque triangle hits
 *                           are committed by the TTU on the way, closest
 *                           first; with TERMINATE_ON_FIRST_HIT the first
 *                           commit ends traversal.
 *   TTU.CONFIRM   a         commits the candidate triangle (state must be
 *                           CANDIDATE with a triangle candidate).
 *   TTU.GENERATE  a, b      commits the candidate AABB with hit t = b (F32).
 *   TTU.TERMINATE a         state = DONE; the committed hit stays.
 *
 * The shader reads results with LD.LOCAL at the offsets below (getters), and
 * the matrices of a hit's instance with LD.GLOBAL from instance_address
 * (struct ppu_bvh_instance), a hit triangle's vertices with LD.GLOBAL from
 * primitive_address (struct ppu_bvh_triangle). Everything from PPU_RQ_PRIVATE on belongs to the
 * TTU: its layout is documented for debugging but a shader must not touch it.
 *
 * A TTU instruction whose object is not aligned or lies outside the local
 * allocation faults OUT_OF_RANGE / MISALIGNED_ADDRESS; one used in the wrong
 * state, or whose tlas_address does not hold a PPU_BVH_MAGIC header of a
 * version the TTU knows, faults PPU_FAULT_BAD_RAY_QUERY; memory the TTU
 * cannot translate is an MMU fault with the instruction's PC.
 */
#ifndef PPU_RAY_QUERY_H
#define PPU_RAY_QUERY_H

#include <stdint.h>

#define PPU_RAY_QUERY_BYTES 1024u
#define PPU_RAY_QUERY_ALIGN 16u

/* Ray flags: the SPIR-V RayFlags mask values (SPIR-V spec 3.x "Ray Flags"). */
#define PPU_RAY_FLAG_OPAQUE 0x1u
#define PPU_RAY_FLAG_NO_OPAQUE 0x2u
#define PPU_RAY_FLAG_TERMINATE_ON_FIRST_HIT 0x4u
#define PPU_RAY_FLAG_SKIP_CLOSEST_HIT_SHADER 0x8u /* pipelines only */
#define PPU_RAY_FLAG_CULL_BACK_FACING 0x10u
#define PPU_RAY_FLAG_CULL_FRONT_FACING 0x20u
#define PPU_RAY_FLAG_CULL_OPAQUE 0x40u
#define PPU_RAY_FLAG_CULL_NO_OPAQUE 0x80u
#define PPU_RAY_FLAG_SKIP_TRIANGLES 0x100u
#define PPU_RAY_FLAG_SKIP_AABBS 0x200u

enum ppu_ray_query_state {
   PPU_RQ_STATE_UNINITIALIZED = 0,
   PPU_RQ_STATE_TRAVERSING = 1, /* INIT done, or a candidate was confirmed / ignored */
   PPU_RQ_STATE_CANDIDATE = 2,  /* PROCEED returned 1 */
   PPU_RQ_STATE_DONE = 3,
};

/* Committed hit type: SPIR-V RayQueryCommittedIntersectionType. */
#define PPU_RQ_COMMITTED_NONE 0u
#define PPU_RQ_COMMITTED_TRIANGLE 1u
#define PPU_RQ_COMMITTED_GENERATED 2u
/* Candidate type: SPIR-V RayQueryCandidateIntersectionType. */
#define PPU_RQ_CANDIDATE_TRIANGLE 0u
#define PPU_RQ_CANDIDATE_AABB 1u

/* One hit (committed or candidate), 96 bytes. */
struct ppu_ray_query_hit {
   uint32_t type;                  /* 0   PPU_RQ_COMMITTED_* / PPU_RQ_CANDIDATE_* */
   float t;                        /* 4   committed: t of the hit (tmax when NONE);
                                          candidate AABB: the entry t of the box (clamped to tmin) */
   uint32_t instance_custom_index; /* 8 */
   uint32_t instance_id;           /* 12  instance_index of the instance record */
   uint32_t sbt_offset;            /* 16  instance SBT record offset */
   uint32_t geometry_index;        /* 20 */
   uint32_t primitive_index;       /* 24 */
   float barycentrics[2];          /* 28  triangles: (u, v) weights of v1 and v2 */
   uint32_t front_face;            /* 36  triangles: 1 when front facing */
   uint32_t aabb_opaque;           /* 40  candidate AABBs: 1 when the AABB is opaque */
   uint32_t reserved0;             /* 44 */
   uint64_t instance_address;      /* 48  VA of the struct ppu_bvh_instance hit */
   float object_origin[3];         /* 56  the ray in the instance's object space */
   float object_direction[3];      /* 68 */
   uint64_t primitive_address;     /* 80  VA of the leaf record hit (struct ppu_bvh_triangle,
                                          or ppu_bvh_aabb): the vertex positions for
                                          position fetch; a committed hit keeps its
                                          candidate's */
   uint32_t reserved1[2];          /* 88 */
};

/* The object. Offsets are what the compiler uses. */
struct ppu_ray_query {
   /* Written by the shader before TTU.INIT. */
   uint64_t tlas_address; /* 0   VA of a top-level (INSTANCES) header */
   uint32_t ray_flags;    /* 8   PPU_RAY_FLAG_* */
   uint32_t cull_mask;    /* 12  low 8 bits are compared with instance masks */
   float origin[3];       /* 16 */
   float tmin;            /* 28 */
   float direction[3];    /* 32 */
   float tmax;            /* 44 */
   /* Read by the shader, written by the TTU. */
   uint32_t state;                     /* 48  enum ppu_ray_query_state */
   uint32_t reserved[3];               /* 52 */
   struct ppu_ray_query_hit committed; /* 64 */
   struct ppu_ray_query_hit candidate; /* 160 */
   /* 256..1023: TTU private (traversal stacks, current instance, resume
    * point within a leaf). Layout: docs/ray-query.md. */
   uint8_t ttu_private[PPU_RAY_QUERY_BYTES - 256];
};

#define PPU_RQ_OFFSET_TLAS 0u
#define PPU_RQ_OFFSET_FLAGS 8u
#define PPU_RQ_OFFSET_CULL_MASK 12u
#define PPU_RQ_OFFSET_ORIGIN 16u
#define PPU_RQ_OFFSET_TMIN 28u
#define PPU_RQ_OFFSET_DIRECTION 32u
#define PPU_RQ_OFFSET_TMAX 44u
#define PPU_RQ_OFFSET_STATE 48u
#define PPU_RQ_OFFSET_COMMITTED 64u
#define PPU_RQ_OFFSET_CANDIDATE 160u
#define PPU_RQ_PRIVATE 256u

_Static_assert(sizeof(struct ppu_ray_query_hit) == 96, "hit record");
_Static_assert(sizeof(struct ppu_ray_query) == PPU_RAY_QUERY_BYTES, "ray query object");

/* Subops of the TTU instruction. */
enum ppu_ttu_op {
   PPU_TTU_INIT = 0,
   PPU_TTU_PROCEED,
   PPU_TTU_CONFIRM,
   PPU_TTU_GENERATE,
   PPU_TTU_TERMINATE,
   PPU_TTU_COUNT,
};

#endif /* PPU_RAY_QUERY_H */
