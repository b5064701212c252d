/* The shader ABI: how compiled programs find their resources.
 *
 * This is the contract between the shader compiler (driver/compiler/, which
 * emits code that follows it) and the command encoder (icd/ compute commands,
 * which lay out memory that follows it). hw/ knows nothing of it: to the chip
 * these are constant banks and plain memory. docs/shader-abi.md says the same
 * in prose.
 *
 * Constant bank 0 (QMD cbank[0]) of every dispatch, written by the driver:
 *
 *   offset   size  what
 *   0        256   push constants (VkPushConstantRange offsets are used as-is)
 *   256      64    descriptor set addresses: 8 x u64 GPU VA of each bound set's
 *                  descriptor memory (0 when no set is bound at that index)
 *   320      128   dynamic offsets: 32 x u32, in pipeline-layout order (set 0's
 *                  dynamic bindings in binding order, then set 1's, ...; array
 *                  elements consecutively)
 *   448      16    workgroup count x, y, z as dispatched, and 0
 *   464      ..    reserved
 *
 * Descriptor set memory: one contiguous, 64-byte aligned block per set. Each
 * binding starts at the byte offset the set layout assigns it (see
 * struct drv_binding_layout); an array binding's elements are consecutive,
 * each DRV_DESCRIPTOR_SIZE bytes. A buffer descriptor (uniform, storage, and
 * their dynamic variants) is:
 *
 *   u64 address   GPU VA of the buffer's first byte the descriptor names
 *                 (buffer address + VkDescriptorBufferInfo::offset)
 *   u32 range     bytes the shader may access (VK_WHOLE_SIZE resolved)
 *   u32 reserved  0
 *
 * A dynamic descriptor's effective address is address + the dynamic offset
 * from cbank 0. With robustBufferAccess enabled, accesses at or beyond range
 * read zero and drop writes (the compiler emits the bounds checks).
 *
 * An acceleration-structure descriptor (VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR)
 * takes the same DRV_DESCRIPTOR_SIZE slot, so arrays of them index like
 * buffer arrays:
 *
 *   u64 address   GPU VA of the structure's struct ppu_bvh_header
 *                 (hw/include/ppu/bvh.h; the vkGetAccelerationStructure-
 *                 DeviceAddressKHR value), 0 for a null descriptor
 *   u64 reserved  0
 *
 * The shader loads the address as it loads a buffer's and stores it into a
 * ray query object (hw/include/ppu/ray_query.h) for TTU.INIT, which checks
 * the header; there is no range.
 *
 * Image, sampler and texel-buffer descriptors hold the hardware's own
 * headers inline (hw/include/ppu/texture.h), so a texture instruction gets
 * the VA of the descriptor itself and the texture unit reads it there:
 *
 *   type                      stride  contents
 *   SAMPLED_IMAGE              64     struct ppu_texture_header (the view)
 *   STORAGE_IMAGE              64     struct ppu_texture_header (the view)
 *   UNIFORM/STORAGE_TEXEL_BUFFER 64   struct ppu_texture_header, dim BUFFER
 *                                     (PPU_TEX_DIM_BUFFER: linear, width =
 *                                     elements, height/depth/levels/layers 1)
 *   SAMPLER                    64     struct ppu_sampler_header
 *   COMBINED_IMAGE_SAMPLER    128     texture header at +0, sampler at +64
 *
 * These bindings start at a multiple of 64 bytes of the set (headers are
 * 64-byte aligned). Element i of a binding is at offset + i * stride
 * (drv_descriptor_stride). A descriptor that was never written is zeros:
 * format INVALID, which the texture unit reports as BAD_TEXTURE_HEADER
 * (a fault, never a wrong read). Immutable samplers are written when the
 * set is allocated.
 */
#ifndef DRV_SHADER_ABI_H
#define DRV_SHADER_ABI_H

#include <stdint.h>

#define DRV_ABI_CBANK_PUSH_CONSTANTS 0u
#define DRV_ABI_PUSH_CONSTANTS_SIZE 256u
#define DRV_ABI_CBANK_SET_ADDRESSES 256u
#define DRV_ABI_MAX_SETS 8u
#define DRV_ABI_CBANK_DYNAMIC_OFFSETS 320u
#define DRV_ABI_MAX_DYNAMIC_BUFFERS 32u
#define DRV_ABI_CBANK_NUM_WORKGROUPS 448u
#define DRV_ABI_CBANK0_SIZE 512u

/* Ray-tracing pipelines (docs/ray-tracing-pipeline.md). vkCmdTraceRaysKHR
 * is a compute dispatch of DRV_RT_WORKGROUP_X x DRV_RT_WORKGROUP_Y
 * invocations per workgroup (a warp covers an 8 x 4 tile of the launch, so
 * neighbouring rays share a warp) whose constant bank 0 is
 * DRV_ABI_RT_CBANK0_SIZE bytes: the compute layout above, then
 *
 *   offset   size  what
 *   464      8     raygen record VA (VkStridedDeviceAddressRegionKHR)
 *   472      8     miss table VA
 *   480      8     hit table VA
 *   488      8     callable table VA
 *   496      4     miss stride, 500 hit stride, 504 callable stride
 *   512      12    launch size width, height, depth
 *
 * A shader group handle is DRV_RT_HANDLE_SIZE bytes: u32 group index + 1
 * (0 never names a group), then zeros. */
#define DRV_RT_WORKGROUP_X 8u
#define DRV_RT_WORKGROUP_Y 4u
#define DRV_ABI_CBANK_RT_RAYGEN 464u
#define DRV_ABI_CBANK_RT_MISS 472u
#define DRV_ABI_CBANK_RT_HIT 480u
#define DRV_ABI_CBANK_RT_CALLABLE 488u
#define DRV_ABI_CBANK_RT_MISS_STRIDE 496u
#define DRV_ABI_CBANK_RT_HIT_STRIDE 500u
#define DRV_ABI_CBANK_RT_CALLABLE_STRIDE 504u
#define DRV_ABI_CBANK_RT_LAUNCH_SIZE 512u
#define DRV_ABI_RT_CBANK0_SIZE 528u
#define DRV_RT_HANDLE_SIZE 32u

/* Graphics pipelines (docs/graphics-hw.md, docs/shader-abi.md "Vertex
 * input"). The vertex and fragment programs' constant bank 0 is
 * DRV_ABI_GFX_CBANK0_SIZE bytes: the compute layout up to 448; at 448 the
 * view index (gl_ViewIndex: the view a multiview draw renders, else 0;
 * 452..463 unused); then one 16-byte record per vertex buffer binding
 * (VkVertexInputBindingDescription::binding b < 16):
 *
 *   offset        size  what
 *   464 + 16 b    8     VA of the bound buffer's first byte (buffer address
 *                       + the vkCmdBindVertexBuffers offset), 0 if unbound
 *   472 + 16 b    4     bytes readable from there (the bound size): with
 *                       robustBufferAccess, an attribute that does not fit
 *                       reads (0, 0, 0, 1)
 *   476 + 16 b    4     stride in bytes (the pipeline's, or the dynamic
 *                       one of vkCmdBindVertexBuffers2)
 *
 * The program fetches its attributes itself: the attribute formats,
 * offsets, input rates and divisors are pipeline state given to the
 * compiler (struct drv_vertex_attribute / drv_vertex_binding in
 * compiler.h), so each attribute's decode is specialized code. */
#define DRV_ABI_CBANK_VIEW_INDEX 448u
#define DRV_ABI_CBANK_VERTEX_BUFFERS 464u
#define DRV_ABI_VERTEX_BUFFER_RECORD 16u
#define DRV_ABI_MAX_VERTEX_BUFFERS 16u
#define DRV_ABI_GFX_CBANK0_SIZE 720u

struct drv_vertex_buffer_record {
   uint64_t address;
   uint32_t size;
   uint32_t stride;
};
_Static_assert(sizeof(struct drv_vertex_buffer_record) == DRV_ABI_VERTEX_BUFFER_RECORD,
               "vertex buffer record size");
_Static_assert(DRV_ABI_CBANK_VERTEX_BUFFERS +
                       DRV_ABI_MAX_VERTEX_BUFFERS * DRV_ABI_VERTEX_BUFFER_RECORD ==
                   DRV_ABI_GFX_CBANK0_SIZE,
               "graphics constant bank 0 size");

#define DRV_DESCRIPTOR_SIZE 16u /* buffer and acceleration-structure descriptors */
#define DRV_IMAGE_DESCRIPTOR_SIZE 64u
#define DRV_SAMPLER_DESCRIPTOR_SIZE 64u
#define DRV_COMBINED_DESCRIPTOR_SIZE 128u
#define DRV_COMBINED_SAMPLER_OFFSET 64u /* the sampler header in a combined descriptor */
#define DRV_DESCRIPTOR_SET_ALIGN 64u

struct drv_buffer_descriptor {
   uint64_t address;
   uint32_t range;
   uint32_t reserved;
};
_Static_assert(sizeof(struct drv_buffer_descriptor) == DRV_DESCRIPTOR_SIZE,
               "buffer descriptor size");

struct drv_acceleration_structure_descriptor {
   uint64_t address;
   uint64_t reserved;
};
_Static_assert(sizeof(struct drv_acceleration_structure_descriptor) == DRV_DESCRIPTOR_SIZE,
               "acceleration-structure descriptor size");

/* What the compiler needs to know of one binding of a pipeline layout. */
enum drv_binding_kind {
   DRV_BINDING_UNIFORM_BUFFER,
   DRV_BINDING_STORAGE_BUFFER,
   DRV_BINDING_ACCELERATION_STRUCTURE,
   DRV_BINDING_SAMPLED_IMAGE,
   DRV_BINDING_STORAGE_IMAGE,
   DRV_BINDING_SAMPLER,
   DRV_BINDING_COMBINED_IMAGE_SAMPLER,
   DRV_BINDING_UNIFORM_TEXEL_BUFFER,
   DRV_BINDING_STORAGE_TEXEL_BUFFER,
};

/* Bytes between the elements of a binding of that kind. */
static inline uint32_t drv_descriptor_stride(enum drv_binding_kind kind)
{
   switch (kind) {
   case DRV_BINDING_UNIFORM_BUFFER:
   case DRV_BINDING_STORAGE_BUFFER:
   case DRV_BINDING_ACCELERATION_STRUCTURE:
      return DRV_DESCRIPTOR_SIZE;
   case DRV_BINDING_SAMPLER:
      return DRV_SAMPLER_DESCRIPTOR_SIZE;
   case DRV_BINDING_COMBINED_IMAGE_SAMPLER:
      return DRV_COMBINED_DESCRIPTOR_SIZE;
   default:
      return DRV_IMAGE_DESCRIPTOR_SIZE;
   }
}
struct drv_binding_layout {
   uint32_t set, binding;
   enum drv_binding_kind kind;
   uint32_t offset;       /* byte offset of element 0 in the set's memory */
   uint32_t array_size;   /* descriptors in this binding */
   int32_t dynamic_index; /* first slot in the dynamic-offset table, or -1 */
};

/* Buffer robustness a program is compiled with: what the application asked
 * for (robustBufferAccess, or VK_EXT_robustness2's robustBufferAccess2).
 * Both levels compile the same checks, robustBufferAccess2's: every access
 * of a uniform or storage buffer against its descriptor's exact range
 * (reads outside give 0, writes and atomics outside are dropped), every
 * vertex attribute against its binding's bound size, attribute by
 * attribute. NONE leaves out-of-range accesses to the MMU (a fault). */
enum drv_robustness {
   DRV_ROBUST_NONE = 0,
   DRV_ROBUST_BUFFER_ACCESS = 1,
   DRV_ROBUST_BUFFER_ACCESS_2 = 2,
};

/* The pipeline layout as the compiler sees it. */
struct drv_pipeline_abi {
   const struct drv_binding_layout *bindings;
   uint32_t binding_count;
   uint32_t push_constant_size;   /* bytes, <= DRV_ABI_PUSH_CONSTANTS_SIZE */
   uint32_t robust_buffer_access; /* enum drv_robustness: bounds-check buffer accesses */
};

#endif /* DRV_SHADER_ABI_H */
