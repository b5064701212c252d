/* The QMD (queue meta data): the grid descriptor a compute LAUNCH reads from
 * GPU memory. docs/compute.md describes the same format in prose.
 *
 * The driver writes one QMD per dispatch (256 bytes, 256-byte aligned, all
 * fields little-endian) and points the compute subchannel at it with
 * PPU_COMPUTE_QMD_ADDR_LO/HI before LAUNCH. The chip reads the QMD once at
 * LAUNCH; the memory may be reused as soon as a later method of the channel
 * runs. Every field is validated: a value out of range faults the channel
 * with PPU_FAULT_BAD_METHOD_DATA and nothing of the grid runs.
 */
#ifndef PPU_QMD_H
#define PPU_QMD_H

#include <stdint.h>

#define PPU_QMD_VERSION 1u
#define PPU_QMD_SIZE 256u
#define PPU_QMD_ALIGN 256u
#define PPU_QMD_CBANK_COUNT 8u

/* Limits a QMD is checked against (besides the SM's resources, which are
 * chip configuration: ppu_gpu_config). */
#define PPU_QMD_MAX_WORKGROUP_INVOCATIONS 1024u
#define PPU_QMD_CBANK_MAX_SIZE 65536u /* bytes per constant bank */
#define PPU_QMD_LOCAL_MAX_SIZE 65536u /* bytes of local memory per thread */

struct ppu_qmd_cbank {
   uint64_t va;   /* 16-byte aligned; ignored when size is 0 */
   uint32_t size; /* bytes, multiple of 16, <= PPU_QMD_CBANK_MAX_SIZE */
   uint32_t reserved;
};

/* The optional ray cost buffer (docs/compute.md, "Ray cost buffer"; docs/profiler.md): a 2D
 * array of 32-bit words in GPU memory to which the SM adds, after each TTU
 * instruction of an invocation, the BVH nodes that instruction fetched, at
 * word [global_id.y * pitch + global_id.x] (global_id = gl_GlobalInvocationID,
 * base included; z is not part of the index, so a grid's z slices add up in
 * one word). Invocations with global_id.x >= width or global_id.y >= height
 * add nothing. It is a profiling side channel, not part of the modeled
 * machine: its writes take no cycles and touch no cache, TLB or counter. */
struct ppu_qmd_ray_cost {
   uint64_t va;       /* 4-byte aligned; 0 turns the buffer off (then all fields must be 0) */
   uint32_t pitch;    /* words from one row to the next, >= width */
   uint32_t width;    /* threads in x, >= 1 */
   uint32_t height;   /* threads in y, >= 1 */
   uint32_t reserved; /* must be 0 */
};

struct ppu_qmd {
   uint32_t version;                                /* PPU_QMD_VERSION */
   uint32_t flags;                                  /* reserved, 0 */
   uint64_t program_va;                             /* first instruction, 16-byte aligned */
   uint32_t register_count;                         /* registers per thread, 1..255 */
   uint32_t shared_memory_size;                     /* bytes per workgroup, multiple of 16 */
   uint32_t local_memory_size;                      /* bytes per thread, multiple of 16 */
   uint32_t workgroup_size[3];                      /* threads, each >= 1, product <= 1024 */
   uint32_t grid_size[3];                           /* workgroups; any 0 makes the launch empty */
   uint32_t grid_base[3];                           /* vkCmdDispatchBase: first workgroup id */
   struct ppu_qmd_cbank cbank[PPU_QMD_CBANK_COUNT]; /* c[0] = push constants by convention */
   struct ppu_qmd_ray_cost ray_cost;                /* profiling; va 0 = off */
   uint32_t reserved[10];                           /* must be 0 */
};

_Static_assert(sizeof(struct ppu_qmd) == PPU_QMD_SIZE, "QMD is 256 bytes");
_Static_assert(__builtin_offsetof(struct ppu_qmd, cbank) == 64, "QMD cbank offset");
_Static_assert(__builtin_offsetof(struct ppu_qmd, ray_cost) == 192, "QMD ray cost offset");

/* The indirect launch argument (PPU_COMPUTE_LAUNCH_INDIRECT): three 32-bit
 * workgroup counts, the layout of VkDispatchIndirectCommand. 4-byte aligned. */
struct ppu_dispatch_indirect {
   uint32_t x, y, z;
};

#endif /* PPU_QMD_H */
