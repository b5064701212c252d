/* Host memory for API objects, through the application's
 * VkAllocationCallbacks when it gave some (Vulkan spec, "Memory Allocation"),
 * else through malloc. */
#ifndef VKPPU_ALLOC_H
#define VKPPU_ALLOC_H

#include <stddef.h>
#include <vulkan/vulkan.h>

/* Callbacks that allocate with the C library; what an object falls back to
 * when neither it nor its parent was given any. */
extern const VkAllocationCallbacks vkppu_default_alloc;

/* Zeroed memory of `size` bytes aligned to `alignment` (a power of two; 0
 * means alignof(max_align_t)), or NULL. */
void *vkppu_alloc_aligned(const VkAllocationCallbacks *a, size_t size, size_t alignment,
                          VkSystemAllocationScope scope);
void vkppu_free(const VkAllocationCallbacks *a, void *p);

/* vkppu_alloc(a, size, scope) or vkppu_alloc(a, size, alignment, scope):
 * zeroed, aligned for any type unless an alignment is given. Both spellings
 * are in use in icd/; they call vkppu_alloc_aligned. */
#define VKPPU_ALLOC_PICK(_1, _2, _3, _4, NAME, ...) NAME
#define VKPPU_ALLOC_3(a, size, scope) vkppu_alloc_aligned((a), (size), 0, (scope))
#define VKPPU_ALLOC_4(a, size, alignment, scope)                                                   \
   vkppu_alloc_aligned((a), (size), (alignment), (scope))
#define vkppu_alloc(...)                                                                           \
   VKPPU_ALLOC_PICK(__VA_ARGS__, VKPPU_ALLOC_4, VKPPU_ALLOC_3, _unused2, _unused1)(__VA_ARGS__)

/* The callbacks an object uses: `given` (the pAllocator passed to its
 * vkCreate*) when not NULL, else `parent` (the callbacks of the object it
 * was created from), else the default. Never NULL. Spec, "Memory
 * Allocation": "pAllocator ... the allocator which the object will use". */
const VkAllocationCallbacks *vkppu_choose_alloc(const VkAllocationCallbacks *given,
                                                const VkAllocationCallbacks *parent);

#endif /* VKPPU_ALLOC_H */
