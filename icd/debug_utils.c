/* VK_EXT_debug_utils: messengers (the channel vkppu_report() speaks through),
 * object names and tags, and labels. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug_report.h"
#include "vkppu_alloc.h"
#include "vkppu_physical_device.h"

struct vkppu_debug_messenger {
   struct vkppu_object base;
   VkAllocationCallbacks alloc;
   struct vkppu_debug_messenger *next; /* instance->messengers list */
   VkDebugUtilsMessageSeverityFlagsEXT severities;
   VkDebugUtilsMessageTypeFlagsEXT types;
   PFN_vkDebugUtilsMessengerCallbackEXT callback;
   void *user_data;
};

VKPPU_DEFINE_HANDLE_CASTS(vkppu_debug_messenger, VkDebugUtilsMessengerEXT)

/* Calls every matching messenger. Spec, "Debug Messengers": a callback is
 * called when severity is in its messageSeverity and some type bit is in its
 * messageType. Callbacks must not call Vulkan, so holding the lock across
 * them cannot deadlock on our side. */
static void dispatch_message(struct vkppu_instance *inst,
                             VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                             VkDebugUtilsMessageTypeFlagsEXT types,
                             const VkDebugUtilsMessengerCallbackDataEXT *data)
{
   pthread_mutex_lock(&inst->debug_lock);
   for (struct vkppu_debug_messenger *m = inst->messengers; m != NULL; m = m->next) {
      if ((m->severities & severity) && (m->types & types) && m->callback != NULL)
         m->callback(severity, types, data, m->user_data);
   }
   pthread_mutex_unlock(&inst->debug_lock);
}

void vkppu_report(struct vkppu_instance *inst, VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                  const char *fmt, ...)
{
   char small[512];
   char *text = small;
   va_list ap;
   va_start(ap, fmt);
   int len = vsnprintf(small, sizeof(small), fmt, ap);
   va_end(ap);
   if (len < 0)
      return;
   if ((size_t)len >= sizeof(small)) {
      /* Fault reports run to several lines; do not cut them. */
      char *big = malloc((size_t)len + 1);
      if (big != NULL) {
         va_start(ap, fmt);
         vsnprintf(big, (size_t)len + 1, fmt, ap);
         va_end(ap);
         text = big;
      }
   }

   if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)
      fprintf(stderr, "vkppu: %s\n", text);

   if (inst != NULL) {
      const VkDebugUtilsMessengerCallbackDataEXT data = {
          .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT,
          .pMessageIdName = "vkppu",
          .messageIdNumber = 0,
          .pMessage = text,
      };
      dispatch_message(inst, severity, VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT, &data);
   }
   if (text != small)
      free(text);
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_CreateDebugUtilsMessengerEXT(
    VkInstance instance, const VkDebugUtilsMessengerCreateInfoEXT *pCreateInfo,
    const VkAllocationCallbacks *pAllocator, VkDebugUtilsMessengerEXT *pMessenger)
{
   VKPPU_FROM_HANDLE(vkppu_instance, inst, instance);
   const VkAllocationCallbacks *alloc = vkppu_choose_alloc(pAllocator, &inst->alloc);
   struct vkppu_debug_messenger *m =
       vkppu_alloc(alloc, sizeof(*m), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (m == NULL)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   vkppu_object_init(&m->base, VK_OBJECT_TYPE_DEBUG_UTILS_MESSENGER_EXT, NULL);
   m->alloc = *alloc;
   m->severities = pCreateInfo->messageSeverity;
   m->types = pCreateInfo->messageType;
   m->callback = pCreateInfo->pfnUserCallback;
   m->user_data = pCreateInfo->pUserData;

   pthread_mutex_lock(&inst->debug_lock);
   m->next = inst->messengers;
   inst->messengers = m;
   pthread_mutex_unlock(&inst->debug_lock);

   *pMessenger = vkppu_debug_messenger_to_handle(m);
   return VK_SUCCESS;
}

static void messenger_free(struct vkppu_debug_messenger *m)
{
   VkAllocationCallbacks alloc = m->alloc;
   vkppu_object_finish(&m->base);
   vkppu_free(&alloc, m);
}

VKAPI_ATTR void VKAPI_CALL
vkppu_DestroyDebugUtilsMessengerEXT(VkInstance instance, VkDebugUtilsMessengerEXT messenger,
                                    const VkAllocationCallbacks *pAllocator)
{
   VKPPU_FROM_HANDLE(vkppu_instance, inst, instance);
   VKPPU_FROM_HANDLE(vkppu_debug_messenger, m, messenger);
   (void)pAllocator; /* the messenger keeps the callbacks it was created with */
   if (m == NULL)
      return;
   pthread_mutex_lock(&inst->debug_lock);
   for (struct vkppu_debug_messenger **p = &inst->messengers; *p != NULL; p = &(*p)->next) {
      if (*p == m) {
         *p = m->next;
         break;
      }
   }
   pthread_mutex_unlock(&inst->debug_lock);
   messenger_free(m);
}

void vkppu_debug_messengers_destroy_all(struct vkppu_instance *inst)
{
   pthread_mutex_lock(&inst->debug_lock);
   struct vkppu_debug_messenger *m = inst->messengers;
   inst->messengers = NULL;
   pthread_mutex_unlock(&inst->debug_lock);
   while (m != NULL) {
      struct vkppu_debug_messenger *next = m->next;
      messenger_free(m);
      m = next;
   }
}

VKAPI_ATTR void VKAPI_CALL vkppu_SubmitDebugUtilsMessageEXT(
    VkInstance instance, VkDebugUtilsMessageSeverityFlagBitsEXT messageSeverity,
    VkDebugUtilsMessageTypeFlagsEXT messageTypes,
    const VkDebugUtilsMessengerCallbackDataEXT *pCallbackData)
{
   VKPPU_FROM_HANDLE(vkppu_instance, inst, instance);
   dispatch_message(inst, messageSeverity, messageTypes, pCallbackData);
}

VKAPI_ATTR VkResult VKAPI_CALL
vkppu_SetDebugUtilsObjectNameEXT(VkDevice device, const VkDebugUtilsObjectNameInfoEXT *pNameInfo)
{
   (void)device;
   struct vkppu_object *obj =
       vkppu_object_from_handle(pNameInfo->objectType, pNameInfo->objectHandle);
   /* A handle that is not one of ours (valid usage forbids it; the
    * validation layer reports it) is ignored rather than written through. */
   if (obj == NULL)
      return VK_SUCCESS;

   char *name = NULL;
   /* Spec: a NULL or empty pObjectName removes the name. */
   if (pNameInfo->pObjectName != NULL && pNameInfo->pObjectName[0] != '\0') {
      size_t len = strlen(pNameInfo->pObjectName);
      name = vkppu_object_owned_alloc(obj, len + 1);
      if (name == NULL)
         return VK_ERROR_OUT_OF_HOST_MEMORY;
      memcpy(name, pNameInfo->pObjectName, len + 1);
   }
   vkppu_object_owned_free(obj, obj->debug_name);
   obj->debug_name = name;
   return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL
vkppu_SetDebugUtilsObjectTagEXT(VkDevice device, const VkDebugUtilsObjectTagInfoEXT *pTagInfo)
{
   /* Tags are for tools that understand a tagName; the driver has no use
    * for any, and the spec lets an implementation ignore them. */
   (void)device;
   (void)pTagInfo;
   return VK_SUCCESS;
}

/* Labels mark regions for tools and layers, which see them on the way down;
 * the driver itself has nothing to do with them. */
VKAPI_ATTR void VKAPI_CALL
vkppu_QueueBeginDebugUtilsLabelEXT(VkQueue queue, const VkDebugUtilsLabelEXT *pLabelInfo)
{
   (void)queue;
   (void)pLabelInfo;
}

VKAPI_ATTR void VKAPI_CALL vkppu_QueueEndDebugUtilsLabelEXT(VkQueue queue)
{
   (void)queue;
}

VKAPI_ATTR void VKAPI_CALL
vkppu_QueueInsertDebugUtilsLabelEXT(VkQueue queue, const VkDebugUtilsLabelEXT *pLabelInfo)
{
   (void)queue;
   (void)pLabelInfo;
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdBeginDebugUtilsLabelEXT(VkCommandBuffer commandBuffer,
                                                            const VkDebugUtilsLabelEXT *pLabelInfo)
{
   (void)commandBuffer;
   (void)pLabelInfo;
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdEndDebugUtilsLabelEXT(VkCommandBuffer commandBuffer)
{
   (void)commandBuffer;
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdInsertDebugUtilsLabelEXT(VkCommandBuffer commandBuffer,
                                                             const VkDebugUtilsLabelEXT *pLabelInfo)
{
   (void)commandBuffer;
   (void)pLabelInfo;
}
