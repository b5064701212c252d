/* The base every API object starts with (see vkppu_object.h). */
#include "vkppu_object.h"

#include "vkppu_alloc.h"
#include "vkppu_instance.h"

void vkppu_object_init(struct vkppu_object *obj, VkObjectType type, struct vkppu_device *device)
{
   /* Loader/ICD interface: a dispatchable object's first word holds
    * ICD_LOADER_MAGIC until the loader stores its dispatch table there. We
    * write it for every object; non-dispatchable ones simply ignore it. */
   set_loader_magic_value(&obj->loader_data);
   obj->type = type;
   obj->device = device;
   obj->private_data_slot0 = 0;
   obj->private_data = NULL;
   obj->debug_name = NULL;
}

static const VkAllocationCallbacks *owned_alloc_callbacks(const struct vkppu_object *obj)
{
   return obj->device != NULL ? &obj->device->alloc : &vkppu_default_alloc;
}

void *vkppu_object_owned_alloc(struct vkppu_object *obj, size_t size)
{
   return vkppu_alloc(owned_alloc_callbacks(obj), size, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
}

void vkppu_object_owned_free(struct vkppu_object *obj, void *p)
{
   vkppu_free(owned_alloc_callbacks(obj), p);
}

void vkppu_object_finish(struct vkppu_object *obj)
{
   if (obj == NULL)
      return;
   struct vkppu_private_data_entry *e = obj->private_data;
   while (e != NULL) {
      struct vkppu_private_data_entry *next = e->next;
      vkppu_object_owned_free(obj, e);
      e = next;
   }
   obj->private_data = NULL;
   vkppu_object_owned_free(obj, obj->debug_name);
   obj->debug_name = NULL;
}

struct vkppu_object *vkppu_object_from_handle(VkObjectType type, uint64_t handle)
{
   if (handle == 0)
      return NULL;
   /* Every vkppu handle, dispatchable or not, is the address of an object
    * whose first member is its base (vkppu_object.h). */
   struct vkppu_object *obj = (struct vkppu_object *)(uintptr_t)handle;
   if (obj->type != type)
      return NULL;
   return obj;
}
