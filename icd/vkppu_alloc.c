/* Host allocation through VkAllocationCallbacks (see vkppu_alloc.h). */
#include "vkppu_alloc.h"

#include <malloc.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

static void *VKAPI_PTR default_allocation(void *user, size_t size, size_t alignment,
                                          VkSystemAllocationScope scope)
{
   (void)user;
   (void)scope;
   /* posix_memalign wants a multiple of sizeof(void *); the spec guarantees
    * callers pass a power of two. */
   if (alignment < sizeof(void *))
      alignment = sizeof(void *);
   void *p = NULL;
   if (posix_memalign(&p, alignment, size ? size : 1) != 0)
      return NULL;
   return p;
}

static void *VKAPI_PTR default_reallocation(void *user, void *original, size_t size,
                                            size_t alignment, VkSystemAllocationScope scope)
{
   if (original == NULL)
      return default_allocation(user, size, alignment, scope);
   if (size == 0) {
      free(original);
      return NULL;
   }
   if (alignment <= alignof(max_align_t))
      return realloc(original, size);
   /* realloc does not keep larger alignments: move by hand. */
   void *p = default_allocation(user, size, alignment, scope);
   if (p == NULL)
      return NULL;
   size_t old_size = malloc_usable_size(original);
   memcpy(p, original, old_size < size ? old_size : size);
   free(original);
   return p;
}

static void VKAPI_PTR default_free(void *user, void *p)
{
   (void)user;
   free(p);
}

const VkAllocationCallbacks vkppu_default_alloc = {
    .pUserData = NULL,
    .pfnAllocation = default_allocation,
    .pfnReallocation = default_reallocation,
    .pfnFree = default_free,
};

void *vkppu_alloc_aligned(const VkAllocationCallbacks *a, size_t size, size_t alignment,
                          VkSystemAllocationScope scope)
{
   if (a == NULL)
      a = &vkppu_default_alloc;
   if (alignment == 0)
      alignment = alignof(max_align_t);
   void *p = a->pfnAllocation(a->pUserData, size, alignment, scope);
   if (p != NULL)
      memset(p, 0, size);
   return p;
}

void vkppu_free(const VkAllocationCallbacks *a, void *p)
{
   if (p == NULL)
      return;
   if (a == NULL)
      a = &vkppu_default_alloc;
   a->pfnFree(a->pUserData, p);
}

const VkAllocationCallbacks *vkppu_choose_alloc(const VkAllocationCallbacks *given,
                                                const VkAllocationCallbacks *parent)
{
   if (given != NULL)
      return given;
   if (parent != NULL)
      return parent;
   return &vkppu_default_alloc;
}
