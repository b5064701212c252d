/* VkQueue: a dispatchable object over one hardware channel. */
#ifndef VKPPU_QUEUE_H
#define VKPPU_QUEUE_H

#include "vkppu_device.h"

struct drv_channel;

struct vkppu_queue {
   struct vkppu_object base;
   uint32_t family;
   uint32_t index;
   VkDeviceQueueCreateFlags flags;
   struct drv_channel *channel;
};

VKPPU_DEFINE_HANDLE_CASTS(vkppu_queue, VkQueue)

/* Called by vkCreateDevice / vkDestroyDevice. */
VkResult vkppu_queue_create(struct vkppu_device *dev, uint32_t family, uint32_t index,
                            VkDeviceQueueCreateFlags flags, struct vkppu_queue **out);
void vkppu_queue_destroy(struct vkppu_device *dev, struct vkppu_queue *queue);

/* Waits until everything submitted to the queue has completed. */
VkResult vkppu_queue_wait_idle(struct vkppu_queue *queue);

#endif
