/* How the driver tells the application about things it cannot return as a
 * VkResult, e.g. a GPU fault found after the submit returned: every
 * VK_EXT_debug_utils messenger of the instance whose severity and type masks
 * match gets the message, and errors also go to stderr so they are seen
 * without a messenger. */
#ifndef VKPPU_DEBUG_REPORT_H
#define VKPPU_DEBUG_REPORT_H

#include <vulkan/vulkan.h>

struct vkppu_instance;

/* Message type VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT. May be called from
 * any thread; inst may be NULL (stderr only). Must not be called from inside
 * a messenger callback. */
void vkppu_report(struct vkppu_instance *inst, VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                  const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Destroys every messenger still registered (vkDestroyInstance). */
void vkppu_debug_messengers_destroy_all(struct vkppu_instance *inst);

#endif /* VKPPU_DEBUG_REPORT_H */
