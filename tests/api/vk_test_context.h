/* What every API test needs to talk to a Vulkan driver through the real
 * loader: an instance with the Khronos validation layer on, a debug messenger
 * that turns validation messages into test failures, the one physical device,
 * a logical device, and small helpers for buffers and one-shot submissions.
 *
 * Message rule (see vkt_debug_callback): every ERROR message fails the current
 * test case, and so does every WARNING of the VALIDATION type. WARNINGs that
 * are only PERFORMANCE or GENERAL (the loader's own notes) are printed and
 * counted but do not fail: they do not say the application or the driver broke
 * a rule of the spec. A case that provokes an error on purpose (an unknown
 * extension, an unsupported feature) brackets the call with
 * vkt_tolerate_begin/end so only messages naming the thing it provoked are
 * excused.
 *
 * Every test runs against whichever ICD the loader finds, so tests find queue
 * families by their flags and memory types by their properties, never by
 * index; vkppu-only cases skip elsewhere (vkt_skip).
 *
 * The device reports apiVersion 1.1 and offers 1.2/1.3 features through
 * extensions, so tests call the extension entry points (the *KHR / *EXT names)
 * and enable the extensions explicitly; lavapipe offers the same extensions.
 */
#ifndef VK_TEST_CONTEXT_H
#define VK_TEST_CONTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <volk.h>

#include "test_harness.h"

#define VKT_NO_FAMILY UINT32_MAX
#define VKT_NO_MEMORY_TYPE UINT32_MAX
#define VKT_MAX_FAMILIES 8
#define VKT_MAX_QUEUES_PER_FAMILY 8

/* Host-side waits on GPU work use this bound instead of UINT64_MAX so a hung
 * GPU fails the case instead of hanging the test program. Generous because the
 * PPU is a software model sharing two cores with other processes. */
#define VKT_WAIT_TIMEOUT_NS (60ull * 1000 * 1000 * 1000)

struct vkt_context {
   VkInstance instance;
   VkDebugUtilsMessengerEXT messenger;
   VkPhysicalDevice physical_device;
   VkPhysicalDeviceProperties props;
   VkPhysicalDeviceMemoryProperties memory;
   uint32_t family_count;
   VkQueueFamilyProperties families[VKT_MAX_FAMILIES];
   uint32_t universal_family; /* graphics|compute (transfer implied) */
   uint32_t transfer_family;  /* transfer without graphics/compute, or VKT_NO_FAMILY */
   bool is_vkppu;             /* deviceName names vkppu */
   bool is_lavapipe;          /* Mesa's llvmpipe-based CPU driver */
};

struct vkt_device_desc {
   const char *const *extensions;
   uint32_t extension_count;
   const VkPhysicalDeviceFeatures *features; /* core features, may be NULL */
   void *feature_chain;     /* extension feature structs chained to VkPhysicalDeviceFeatures2 */
   const void *create_next; /* more VkDeviceCreateInfo pNext structs, after the features */
   bool all_queues;         /* every queue of every family; else one universal queue */
};

struct vkt_device {
   struct vkt_context *ctx;
   VkDevice device;
   uint32_t queue_count[VKT_MAX_FAMILIES];
   VkQueue queues[VKT_MAX_FAMILIES][VKT_MAX_QUEUES_PER_FAMILY];
   /* One pool per family that has queues, created with
    * RESET_COMMAND_BUFFER_BIT. Used from the test's main thread only. */
   VkCommandPool pools[VKT_MAX_FAMILIES];
   VkQueue queue; /* universal family, queue 0 */
};

/* Where a buffer's memory should come from. */
enum vkt_memory_kind {
   VKT_MEMORY_HOST,   /* HOST_VISIBLE | HOST_COHERENT, mapped */
   VKT_MEMORY_DEVICE, /* DEVICE_LOCAL, preferably not host visible; not mapped */
};

struct vkt_buffer {
   VkBuffer buffer;
   VkDeviceMemory memory;
   VkDeviceSize size;
   uint32_t memory_type;
   void *map; /* NULL unless VKT_MEMORY_HOST */
   VkBufferUsageFlags usage;
   enum vkt_memory_kind kind;
};

/* The device extensions the driver promises (see the project brief), in the
 * order vkt_device_create_standard enables them. */
extern const char *const vkt_standard_device_extensions[];
extern const uint32_t vkt_standard_device_extension_count;

/* Instance with validation and debug utils, and the one physical device.
 * Fails the current case (and returns false) when anything is missing. */
bool vkt_context_create(struct vkt_context *ctx);
void vkt_context_destroy(struct vkt_context *ctx);

bool vkt_has_device_extension(const struct vkt_context *ctx, const char *name);

/* Points ctx (whose instance is set) at physical device pd: properties,
 * memory, queue families (the universal family: graphics and compute).
 * False when pd has no such family. */
bool vkt_context_use_device(struct vkt_context *ctx, VkPhysicalDevice pd);
/* For tests that compare two implementations in one instance
 * (VK_ICD_FILENAMES lists both manifests): creates `base` (the instance and
 * messenger; destroy it last) and fills `ppu` and `lvp`, copies of it for
 * the vkppu and llvmpipe devices. Fails the case when either is missing. */
bool vkt_context_pair_create(struct vkt_context *base, struct vkt_context *ppu,
                             struct vkt_context *lvp);

VkResult vkt_device_create(struct vkt_context *ctx, const struct vkt_device_desc *desc,
                           struct vkt_device *dev);
/* Every standard extension and the features they bring (timeline semaphores,
 * synchronization2, private data, buffer device address, host query reset),
 * all queues. Fails the case on error. */
bool vkt_device_create_standard(struct vkt_context *ctx, struct vkt_device *dev);
/* Waits for the device to go idle, then destroys the pools and the device. */
void vkt_device_destroy(struct vkt_device *dev);

/* Context plus standard device; the pair most cases start with. */
bool vkt_setup(struct vkt_context *ctx, struct vkt_device *dev);
void vkt_teardown(struct vkt_context *ctx, struct vkt_device *dev);

/* Index of a memory type allowed by type_bits that has all of `required`;
 * among those, one with none of `avoid` if there is one. */
uint32_t vkt_find_memory_type(const struct vkt_context *ctx, uint32_t type_bits,
                              VkMemoryPropertyFlags required, VkMemoryPropertyFlags avoid);

/* A buffer with its own memory. With VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT
 * in usage the memory is allocated with VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT. */
VkResult vkt_buffer_create(struct vkt_device *dev, VkDeviceSize size, VkBufferUsageFlags usage,
                           enum vkt_memory_kind kind, struct vkt_buffer *out);
/* The same in two steps, for objects made on a buffer before its memory is
 * bound (acceleration structures may be): the buffer alone, then its own
 * memory of `kind`, bound (and mapped for VKT_MEMORY_HOST). On failure
 * vkt_buffer_bind destroys the buffer. */
VkResult vkt_buffer_create_unbound(struct vkt_device *dev, VkDeviceSize size,
                                   VkBufferUsageFlags usage, enum vkt_memory_kind kind,
                                   struct vkt_buffer *out);
VkResult vkt_buffer_bind(struct vkt_device *dev, struct vkt_buffer *buf);
void vkt_buffer_destroy(struct vkt_device *dev, struct vkt_buffer *buf);
/* Transfer source and destination, the usage almost every test wants. */
#define VKT_USAGE_TRANSFER (VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT)

/* A primary command buffer from the family's pool, begun for one submission. */
VkCommandBuffer vkt_cmd_begin(struct vkt_device *dev, uint32_t family);
/* Ends cmd, submits it to queues[family][queue_index] with a fence, waits at
 * most VKT_WAIT_TIMEOUT_NS and frees it. Returns the first failing result. */
VkResult vkt_cmd_submit_wait(struct vkt_device *dev, uint32_t family, uint32_t queue_index,
                             VkCommandBuffer cmd);
/* Makes transfer writes visible to host reads; the host may read buffers
 * written by the commands before it once the submission's fence signals. */
void vkt_cmd_transfer_to_host_barrier(VkCommandBuffer cmd);

VkFence vkt_fence_create(struct vkt_device *dev, bool signaled);
VkSemaphore vkt_timeline_create(struct vkt_device *dev, uint64_t initial_value);

/* Deterministic pseudo-random data (xorshift64*): tests print seeds, not data. */
uint32_t vkt_rand_next(uint64_t *state);
void vkt_fill_random(void *dst, size_t bytes, uint64_t seed);
/* Compares word by word; reports the first few differences (byte offsets and
 * values) through test_fail. Returns the number of differing words. */
size_t vkt_compare_words(const void *expected, const void *actual, size_t bytes, const char *what);

double vkt_seconds(void);        /* CLOCK_MONOTONIC, seconds */
uint64_t vkt_monotonic_ns(void); /* CLOCK_MONOTONIC, nanoseconds */
void vkt_sleep_ms(unsigned ms);

const char *vkt_result_name(VkResult result);
/* For a wait that timed out on work that should have finished: nothing the
 * work uses can be freed, so the program reports and exits non-zero. */
void vkt_fatal_hang(const char *what) __attribute__((noreturn));
/* Prints "  SKIP: ..." for a case that cannot run on this implementation. */
void vkt_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Until vkt_tolerate_end (which returns how many were excused), messages
 * whose text contains one of the NULL-terminated `substrings` are printed but
 * do not fail the case. The array must live until vkt_tolerate_end. */
void vkt_tolerate_begin(const char *const *substrings);
uint32_t vkt_tolerate_end(void);
/* Messages the messenger saw since the last vkt_context_create. */
struct vkt_message_counts {
   uint32_t errors, warnings; /* by severity, whatever became of them */
   uint32_t failing;          /* those that failed the case */
   uint32_t tolerated;        /* those excused by vkt_tolerate_begin */
};
struct vkt_message_counts vkt_message_counts(void);

/* Fails the case with the call's text and the result name unless it returned
 * VK_SUCCESS; the _OR_RETURN form then leaves the case. */
#define VKT_CHECK(expr)                                                                            \
   do {                                                                                            \
      VkResult _r = (expr);                                                                        \
      if (_r != VK_SUCCESS)                                                                        \
         test_fail(__FILE__, __LINE__, "%s -> %s", #expr, vkt_result_name(_r));                    \
   } while (0)
#define VKT_REQUIRE(expr)                                                                          \
   do {                                                                                            \
      VkResult _r = (expr);                                                                        \
      if (_r != VK_SUCCESS) {                                                                      \
         test_fail(__FILE__, __LINE__, "%s -> %s", #expr, vkt_result_name(_r));                    \
         return;                                                                                   \
      }                                                                                            \
   } while (0)
#define VKT_CHECK_RESULT(expr, expected)                                                           \
   do {                                                                                            \
      VkResult _r = (expr);                                                                        \
      if (_r != (expected))                                                                        \
         test_fail(__FILE__, __LINE__, "%s -> %s, expected %s", #expr, vkt_result_name(_r),        \
                   vkt_result_name(expected));                                                     \
   } while (0)

#endif
