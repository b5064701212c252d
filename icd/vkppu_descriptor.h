/* Descriptor set layouts, pipeline layouts, descriptor pools and sets.
 *
 * Descriptor memory follows the shader ABI (driver/shader_abi.h): every set
 * is one 64-byte aligned block of GPU memory, each binding at the byte offset
 * its set layout assigns, DRV_DESCRIPTOR_SIZE bytes per array element. The
 * host writes descriptors straight through the BAR, so a set is ready for the
 * GPU as soon as vkUpdateDescriptorSets returns.
 *
 * Bindings are laid out in increasing binding number without gaps, so the
 * "consecutive binding" rule of VkWriteDescriptorSet (an update that runs
 * past the end of a binding continues with the next one) is a walk through
 * consecutive descriptor slots.
 */
#ifndef VKPPU_DESCRIPTOR_H
#define VKPPU_DESCRIPTOR_H

#include <stdatomic.h>

#include <ppu/texture.h>

#include "extent_allocator.h"
#include "shader_abi.h"
#include "vkppu_device.h"

struct drv_bo;

/* Descriptors one set may hold (maxPerSetDescriptors, and the
 * update-after-bind limits of descriptor indexing, which must be at least
 * 500000): 2^20 of the largest (128-byte) descriptors are 128 MiB of set
 * memory, well inside the 32-bit offsets of a layout. */
#define VKPPU_MAX_PER_SET_DESCRIPTORS (1u << 20)

struct vkppu_set_binding {
   uint32_t binding;
   VkDescriptorType type;
   uint32_t count;        /* descriptorCount (0 bindings take no memory) */
   uint32_t offset;       /* bytes from the start of the set's memory */
   uint32_t stride;       /* bytes per element: drv_descriptor_stride of its kind */
   int32_t dynamic_index; /* first slot among the set's dynamic descriptors, or -1 */
   VkShaderStageFlags stages;
   VkDescriptorBindingFlags flags; /* VkDescriptorSetLayoutBindingFlagsCreateInfo */
   /* SAMPLER and COMBINED_IMAGE_SAMPLER bindings created with
    * pImmutableSamplers: their headers, `count` of them, which every set
    * gets when it is allocated and writes never replace. NULL otherwise. */
   struct ppu_sampler_header *immutable_samplers;
};

/* Reference counted: descriptor sets and pipeline layouts keep the layout
 * they were made from, and the application may destroy its handle first
 * (vkDestroyDescriptorSetLayout only ends the application's use). */
struct vkppu_descriptor_set_layout {
   struct vkppu_object base;
   atomic_uint refs;
   VkAllocationCallbacks alloc; /* what the layout was allocated with */
   uint32_t binding_count;
   struct vkppu_set_binding *bindings; /* sorted by binding number */
   uint32_t size;                      /* bytes of descriptor memory per set */
   uint32_t descriptor_count;          /* sum of counts */
   uint32_t dynamic_count;             /* dynamic buffer descriptors */
   /* The binding with VARIABLE_DESCRIPTOR_COUNT (always the last, highest
    * numbered one: VkDescriptorSetLayoutBindingFlagsCreateInfo), or NULL.
    * Its `count` is the upper bound; each set chooses its own. */
   const struct vkppu_set_binding *variable;
};
VKPPU_DEFINE_HANDLE_CASTS(vkppu_descriptor_set_layout, VkDescriptorSetLayout)

void vkppu_descriptor_set_layout_ref(struct vkppu_descriptor_set_layout *layout);
void vkppu_descriptor_set_layout_unref(struct vkppu_device *dev,
                                       struct vkppu_descriptor_set_layout *layout);
/* The binding with that number, or NULL. */
const struct vkppu_set_binding *
vkppu_set_layout_binding(const struct vkppu_descriptor_set_layout *layout, uint32_t binding);

static inline bool vkppu_descriptor_type_is_dynamic(VkDescriptorType type)
{
   return type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC ||
          type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
}

static inline bool vkppu_descriptor_type_is_buffer(VkDescriptorType type)
{
   return type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER || type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER ||
          vkppu_descriptor_type_is_dynamic(type);
}

/* An inline uniform block binding (VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK,
 * core 1.3) is a uniform-buffer descriptor that names its own data: the
 * 16-byte descriptor at the binding's offset, then the block's `count`
 * bytes, padded to 16. The set writes the descriptor when it is allocated
 * (address = the data, range = count), so shaders read the block as any
 * uniform buffer; updates write the data in place. */
#define VKPPU_INLINE_DATA_OFFSET DRV_DESCRIPTOR_SIZE
/* maxInlineUniformBlockSize and the other inline-block limits: the spec's
 * minimums ("Required Limits"); set memory could hold more, nothing needs
 * it yet. */
#define VKPPU_MAX_INLINE_UNIFORM_BLOCK_SIZE 256u
#define VKPPU_MAX_INLINE_UNIFORM_BLOCKS 4u

/* Bytes of set memory `count` elements (bytes, for an inline block) of
 * binding b take. */
static inline uint64_t vkppu_binding_bytes(const struct vkppu_set_binding *b, uint32_t count)
{
   if (b->type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK)
      return count ? VKPPU_INLINE_DATA_OFFSET + (((uint64_t)count + 15) & ~(uint64_t)15) : 0;
   return (uint64_t)count * b->stride;
}

/* The shader ABI's kind of a descriptor type (driver/shader_abi.h); false
 * for types the device does not support (their bindings take no memory). */
bool vkppu_descriptor_type_kind(VkDescriptorType type, enum drv_binding_kind *kind);

struct vkppu_pipeline_layout {
   struct vkppu_object base;
   uint32_t set_count;
   struct vkppu_descriptor_set_layout *sets[DRV_ABI_MAX_SETS]; /* referenced, may be NULL */
   uint32_t dynamic_base[DRV_ABI_MAX_SETS]; /* first dynamic-offset slot of each set */
   uint32_t dynamic_count;                  /* all sets */
   uint32_t push_constant_size;             /* bytes: end of the furthest range */
   /* The ABI as the compiler sees it; abi.bindings points at `bindings`. */
   struct drv_pipeline_abi abi;
   struct drv_binding_layout *bindings;
};
VKPPU_DEFINE_HANDLE_CASTS(vkppu_pipeline_layout, VkPipelineLayout)

struct vkppu_descriptor_set;

/* Indexed by VkDescriptorType for the core types (SAMPLER .. INPUT_ATTACHMENT). */
#define VKPPU_CORE_DESCRIPTOR_TYPES 11u
/* Pools count the core types and acceleration structures, which come last. */
#define VKPPU_POOL_DESCRIPTOR_TYPES (VKPPU_CORE_DESCRIPTOR_TYPES + 1u)

/* A type's slot in the pool's counts, or -1 for types pools do not count. */
static inline int vkppu_pool_type_index(VkDescriptorType type)
{
   if ((uint32_t)type < VKPPU_CORE_DESCRIPTOR_TYPES)
      return (int)type;
   return type == VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR ? (int)VKPPU_CORE_DESCRIPTOR_TYPES
                                                                : -1;
}

struct vkppu_descriptor_pool {
   struct vkppu_object base;
   VkDescriptorPoolCreateFlags flags;
   uint32_t max_sets, set_count;
   uint32_t capacity[VKPPU_POOL_DESCRIPTOR_TYPES];
   uint32_t used[VKPPU_POOL_DESCRIPTOR_TYPES];
   struct drv_bo *bo;                 /* descriptor memory of every set, NULL when empty */
   struct extent_allocator space;     /* free ranges of bo, offsets from 0 */
   struct vkppu_descriptor_set *sets; /* every set allocated from it */
};
VKPPU_DEFINE_HANDLE_CASTS(vkppu_descriptor_pool, VkDescriptorPool)

struct vkppu_descriptor_set {
   struct vkppu_object base;
   struct vkppu_descriptor_pool *pool;
   struct vkppu_descriptor_set_layout *layout; /* referenced */
   uint64_t offset;                            /* in the pool's bo */
   uint64_t va;                                /* GPU address of the set's memory */
   uint8_t *map;            /* host pointer to it (NULL when the layout is empty) */
   uint32_t size;           /* bytes reserved (descriptor bytes rounded up) */
   uint32_t bytes;          /* bytes of descriptors: the layout's, less what a
                             * smaller variable count leaves out */
   uint32_t variable_count; /* descriptors of the layout's variable binding */
   struct vkppu_descriptor_set *prev, *next; /* in the pool's list */
};
VKPPU_DEFINE_HANDLE_CASTS(vkppu_descriptor_set, VkDescriptorSet)

/* Writes descriptorCount buffer descriptors starting at (binding,
 * array_element) of set, crossing into the following bindings as
 * VkWriteDescriptorSet describes. Elements past the end of the set are
 * dropped (an invalid update must not write outside the set). */
void vkppu_descriptor_set_write_buffers(struct vkppu_descriptor_set *set, uint32_t binding,
                                        uint32_t array_element, uint32_t count,
                                        const VkDescriptorBufferInfo *infos, size_t info_stride);
/* Image-type descriptors (SAMPLER, COMBINED_IMAGE_SAMPLER, SAMPLED_IMAGE,
 * STORAGE_IMAGE, INPUT_ATTACHMENT) from VkDescriptorImageInfo elements
 * `info_stride` bytes apart. Null handles write zeros (a descriptor the
 * texture unit reports as a bad header); bindings with immutable samplers
 * keep theirs. */
void vkppu_descriptor_set_write_images(struct vkppu_descriptor_set *set, VkDescriptorType type,
                                       uint32_t binding, uint32_t array_element, uint32_t count,
                                       const VkDescriptorImageInfo *infos, size_t info_stride);
/* Texel-buffer descriptors from VkBufferView handles `stride` bytes apart. */
/* `bytes` of data into inline uniform block `binding` at byte `offset`,
 * clamped to the block. */
void vkppu_descriptor_set_write_inline(struct vkppu_descriptor_set *set, uint32_t binding,
                                       uint32_t offset, uint32_t bytes, const void *data);
void vkppu_descriptor_set_write_texel_buffers(struct vkppu_descriptor_set *set, uint32_t binding,
                                              uint32_t array_element, uint32_t count,
                                              const void *views, size_t stride);
/* The same for acceleration-structure descriptors: `handles` are
 * VkAccelerationStructureKHR, `stride` bytes apart; VK_NULL_HANDLE writes
 * address 0, which the TTU treats as a miss. */
void vkppu_descriptor_set_write_acceleration_structures(struct vkppu_descriptor_set *set,
                                                        uint32_t binding, uint32_t array_element,
                                                        uint32_t count, const void *handles,
                                                        size_t stride);

#endif /* VKPPU_DESCRIPTOR_H */
