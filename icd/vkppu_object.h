/* The base every vkppu API object starts with, and the typed handle casts.
 *
 * Dispatchable objects (instance, physical device, device, queue, command
 * buffer) begin with the loader's dispatch slot, which the loader overwrites
 * with its own table pointer; vkppu_object_init() writes ICD_LOADER_MAGIC
 * there first, as the loader/ICD interface requires.
 *
 * Handles are converted only through VKPPU_FROM_HANDLE / vkppu_*_to_handle,
 * which are generated per type below, never by bare casts at call sites.
 */
#ifndef VKPPU_OBJECT_H
#define VKPPU_OBJECT_H

#include <vulkan/vk_icd.h>
#include <vulkan/vulkan.h>

struct vkppu_device;

struct vkppu_object {
   VK_LOADER_DATA loader_data; /* must stay first: the loader writes here */
   VkObjectType type;
   struct vkppu_device *device; /* owning device, NULL for instance-level */
   uint64_t private_data_slot0; /* VK_EXT_private_data: see private_data.c */
   struct vkppu_private_data_entry *private_data;
   char *debug_name; /* VK_EXT_debug_utils object name, owned */
};

/* One VK_EXT_private_data value stored on an object (a singly linked list
 * hanging off vkppu_object.private_data); slot is the VkPrivateDataSlot
 * handle's value. */
struct vkppu_private_data_entry {
   struct vkppu_private_data_entry *next;
   uint64_t slot;
   uint64_t value;
};

void vkppu_object_init(struct vkppu_object *obj, VkObjectType type, struct vkppu_device *device);
/* Frees what the base owns (name, private data); not the object itself. */
void vkppu_object_finish(struct vkppu_object *obj);
/* The base of any handle of the given type (dispatchable or not); NULL for
 * VK_NULL_HANDLE or when the object is not of that type. */
struct vkppu_object *vkppu_object_from_handle(VkObjectType type, uint64_t handle);
/* Memory the base owns (debug_name, private data entries) comes from these:
 * the owning device's callbacks, or the default ones for instance-level
 * objects, so vkppu_object_finish() can free it. Zeroed. */
void *vkppu_object_owned_alloc(struct vkppu_object *obj, size_t size);
void vkppu_object_owned_free(struct vkppu_object *obj, void *p);

/* Typed casts. Every object struct is named vkppu_<name> and has its base as
 * the member named `base`, so (void *)obj == &obj->base. */
#define VKPPU_DEFINE_HANDLE_CASTS(__vkppu_type, __VkType)                                          \
   static inline struct __vkppu_type *__vkppu_type##_from_handle(__VkType h)                       \
   {                                                                                               \
      return (struct __vkppu_type *)(uintptr_t)h;                                                  \
   }                                                                                               \
   static inline __VkType __vkppu_type##_to_handle(struct __vkppu_type *o)                         \
   {                                                                                               \
      return (__VkType)(uintptr_t)o;                                                               \
   }

#define VKPPU_FROM_HANDLE(__vkppu_type, __name, __handle)                                          \
   struct __vkppu_type *__name = __vkppu_type##_from_handle(__handle)

#endif /* VKPPU_OBJECT_H */
