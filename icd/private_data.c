/* VK_EXT_private_data: application values attached to any device-level
 * object, per slot.
 *
 * Values live in a list on the object's base (vkppu_object.private_data),
 * so they are freed with the object (vkppu_object_finish). Each entry names
 * its slot by the slot's unique id rather than by the slot's address: a slot
 * created after another was destroyed may get the same address, and must
 * still read 0 on every object (vkGetPrivateData: "If the slot has not been
 * set ... zero is returned"). The base's private_data_slot0 is not used.
 *
 * vkSetPrivateData and vkGetPrivateData need no external synchronization,
 * so the lists are guarded by one lock; the operations are a short list
 * walk, and objects carry few entries. */
#include <pthread.h>
#include <stdatomic.h>

#include "vkppu_device.h"

struct vkppu_private_data_slot {
   struct vkppu_object base;
   uint64_t id;
};
VKPPU_DEFINE_HANDLE_CASTS(vkppu_private_data_slot, VkPrivateDataSlot)

static pthread_mutex_t private_data_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic uint64_t next_slot_id = 1;

VKAPI_ATTR VkResult VKAPI_CALL vkppu_CreatePrivateDataSlot(
    VkDevice device, const VkPrivateDataSlotCreateInfo *pCreateInfo,
    const VkAllocationCallbacks *pAllocator, VkPrivateDataSlot *pPrivateDataSlot)
{
   (void)pCreateInfo;
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   struct vkppu_private_data_slot *slot =
       vkppu_device_zalloc(dev, pAllocator, sizeof(*slot), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!slot)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   vkppu_object_init(&slot->base, VK_OBJECT_TYPE_PRIVATE_DATA_SLOT, dev);
   slot->id = atomic_fetch_add(&next_slot_id, 1);
   *pPrivateDataSlot = vkppu_private_data_slot_to_handle(slot);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkppu_DestroyPrivateDataSlot(VkDevice device,
                                                        VkPrivateDataSlot privateDataSlot,
                                                        const VkAllocationCallbacks *pAllocator)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_private_data_slot, slot, privateDataSlot);
   if (!slot)
      return;
   /* Entries of this slot stay on their objects until those are destroyed;
    * no later slot has the same id, so they are never read again. */
   vkppu_object_finish(&slot->base);
   vkppu_device_free(dev, pAllocator, slot);
}

/* The entry of `slot_id` on obj; called with private_data_lock held. */
static struct vkppu_private_data_entry *find_entry(struct vkppu_object *obj, uint64_t slot_id)
{
   for (struct vkppu_private_data_entry *e = obj->private_data; e; e = e->next) {
      if (e->slot == slot_id)
         return e;
   }
   return NULL;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_SetPrivateData(VkDevice device, VkObjectType objectType,
                                                    uint64_t objectHandle,
                                                    VkPrivateDataSlot privateDataSlot,
                                                    uint64_t data)
{
   (void)device;
   VKPPU_FROM_HANDLE(vkppu_private_data_slot, slot, privateDataSlot);
   struct vkppu_object *obj = vkppu_object_from_handle(objectType, objectHandle);
   if (!obj || !slot)
      return VK_ERROR_OUT_OF_HOST_MEMORY; /* invalid handle: nothing to store on */
   pthread_mutex_lock(&private_data_lock);
   struct vkppu_private_data_entry *e = find_entry(obj, slot->id);
   if (!e) {
      e = vkppu_object_owned_alloc(obj, sizeof(*e));
      if (!e) {
         pthread_mutex_unlock(&private_data_lock);
         return VK_ERROR_OUT_OF_HOST_MEMORY;
      }
      e->slot = slot->id;
      e->next = obj->private_data;
      obj->private_data = e;
   }
   e->value = data;
   pthread_mutex_unlock(&private_data_lock);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkppu_GetPrivateData(VkDevice device, VkObjectType objectType,
                                                uint64_t objectHandle,
                                                VkPrivateDataSlot privateDataSlot, uint64_t *pData)
{
   (void)device;
   VKPPU_FROM_HANDLE(vkppu_private_data_slot, slot, privateDataSlot);
   struct vkppu_object *obj = vkppu_object_from_handle(objectType, objectHandle);
   *pData = 0;
   if (!obj || !slot)
      return;
   pthread_mutex_lock(&private_data_lock);
   const struct vkppu_private_data_entry *e = find_entry(obj, slot->id);
   if (e)
      *pData = e->value;
   pthread_mutex_unlock(&private_data_lock);
}
