/* VK_LAYER_VKPPU_profiler's state (docs/profiler.md): per instance and device
 * the next layer's entry points, and per device what it recorded — a row
 * of counter deltas per submit and present, the frames they form, and the
 * frame's ray cost map. */
#ifndef VKPPU_PROFILER_H
#define VKPPU_PROFILER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#include "private_entrypoints.h"

#define PROFILER_LAYER_NAME "VK_LAYER_VKPPU_profiler"

struct prof_instance {
   void *key; /* the loader's dispatch pointer: first word of the handle */
   VkInstance instance;
   PFN_vkGetInstanceProcAddr next_gipa;
   PFN_vkDestroyInstance DestroyInstance;
   PFN_vkGetPhysicalDeviceProperties GetPhysicalDeviceProperties;
};

enum prof_row_kind { PROF_ROW_SUBMIT, PROF_ROW_PRESENT };

/* One vkQueueSubmit/vkQueueSubmit2 or vkQueuePresentKHR. */
struct prof_row {
   enum prof_row_kind kind;
   uint32_t frame;
   double begin_us, end_us; /* wall clock from device creation: call down to queue idle */
   uint64_t ray_cost_sum;   /* nodes the ray cost plane received in this row */
   uint64_t *delta;         /* counter_count values */
};

/* A ray cost map: width x height words (nodes fetched per invocation). */
struct prof_cost_map {
   uint32_t width, height;
   uint32_t *nodes;
};

struct prof_frame {
   uint32_t first_row, row_count;
   uint64_t *delta; /* sum of its rows */
   uint64_t heat_max, heat_sum;
   uint32_t heat_width, heat_height; /* 0 when it traced no ray */
   char heat_file[64];
};

/* The extent a frame's heat map is cropped to, when one fits (docs/profiler.md). */
struct prof_extent {
   uint32_t width, height;
};

struct prof_device {
   void *key;
   VkDevice device;
   struct prof_instance *instance;
   char name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
   PFN_vkGetDeviceProcAddr next_gdpa;
   PFN_vkDestroyDevice DestroyDevice;
   PFN_vkQueueSubmit QueueSubmit;
   PFN_vkQueueSubmit2 QueueSubmit2;
   PFN_vkQueueSubmit2 QueueSubmit2KHR;
   PFN_vkQueuePresentKHR QueuePresentKHR;
   PFN_vkQueueWaitIdle QueueWaitIdle;
   PFN_vkCreateImage CreateImage;
   PFN_vkCreateSwapchainKHR CreateSwapchainKHR;
   /* vkppu's private entry points; NULL on another driver (pass through). */
   PFN_vkGetCountersVKPPU GetCounters;
   PFN_vkReadRayCostVKPPU ReadRayCost;

   /* Everything below is under lock, which also serializes submissions. */
   pthread_mutex_t lock;
   double start_seconds;
   uint32_t counter_count;
   const char **counter_names, **counter_units;
   uint64_t *at_creation; /* counters when the device was created (its own setup work) */
   uint64_t *last;        /* counters after the previous row; at the end, what came after it */
   struct prof_row *rows;
   uint32_t row_count, row_capacity;
   struct prof_frame *frames;
   uint32_t frame_count, frame_capacity;
   struct prof_cost_map frame_cost;             /* the current frame's, summed over its rows */
   struct prof_cost_map scratch;                /* one row's, as read */
   struct prof_extent storage_image, swapchain; /* latest created; 0 = none */
   bool presented_swapchain;
   char dir[4096]; /* output directory */
};

/* The layer's entry points (profiler_layer.c). */
PFN_vkVoidFunction profiler_device_proc(const char *name);

/* profiler_capture.c: recording. */
bool prof_device_begin(struct prof_device *d); /* false: not vkppu, pass through */
void prof_device_end(struct prof_device *d);   /* writes every output */
struct prof_device *prof_device_of(void *dispatchable);
VKAPI_ATTR VkResult VKAPI_CALL prof_QueueSubmit(VkQueue queue, uint32_t submitCount,
                                                const VkSubmitInfo *pSubmits, VkFence fence);
VKAPI_ATTR VkResult VKAPI_CALL prof_QueueSubmit2(VkQueue queue, uint32_t submitCount,
                                                 const VkSubmitInfo2 *pSubmits, VkFence fence);
VKAPI_ATTR VkResult VKAPI_CALL prof_QueueSubmit2KHR(VkQueue queue, uint32_t submitCount,
                                                    const VkSubmitInfo2 *pSubmits, VkFence fence);
VKAPI_ATTR VkResult VKAPI_CALL prof_QueuePresentKHR(VkQueue queue,
                                                    const VkPresentInfoKHR *pPresentInfo);
VKAPI_ATTR VkResult VKAPI_CALL prof_CreateImage(VkDevice device,
                                                const VkImageCreateInfo *pCreateInfo,
                                                const VkAllocationCallbacks *pAllocator,
                                                VkImage *pImage);
VKAPI_ATTR VkResult VKAPI_CALL prof_CreateSwapchainKHR(VkDevice device,
                                                       const VkSwapchainCreateInfoKHR *pCreateInfo,
                                                       const VkAllocationCallbacks *pAllocator,
                                                       VkSwapchainKHR *pSwapchain);

/* profiler_output.c: d->dir/name opened for writing (path gets the full
 * name), or NULL with a message; closing reports a failed write. */
FILE *prof_open_output(const struct prof_device *d, const char *name, char *path, size_t size);
bool prof_close_output(FILE *f, const char *path);
/* A unit is a counter name's prefix before '.' (host, ttu, sm, ...); the
 * table does not keep a unit's counters together. When counter i is its
 * unit's first, puts the unit's counters into members (counter_count
 * entries) and returns how many; else 0. */
uint32_t prof_unit_members(const struct prof_device *d, uint32_t i, uint32_t *members);
/* s as a JSON string literal. */
void prof_json_string(FILE *f, const char *s);

/* Outputs, each into d->dir; false (with a message on stderr) on failure. */
bool prof_write_csv(const struct prof_device *d);   /* profiler_output.c */
bool prof_write_json(const struct prof_device *d);  /* profiler_output.c */
bool prof_write_trace(const struct prof_device *d); /* profiler_trace.c */
bool prof_write_plots(const struct prof_device *d); /* profiler_plot.c */
/* profiler_heatmap.c: the frame's map as heatmap_<frame>.png, cropped to
 * crop when it is not 0 x 0; fills f's heat fields. */
bool prof_write_heatmap(const struct prof_device *d, struct prof_frame *f, uint32_t frame_index,
                        const struct prof_cost_map *map, struct prof_extent crop);

#endif
