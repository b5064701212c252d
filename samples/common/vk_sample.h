/* Vulkan plumbing every sample repeats: the instance with an optional
 * validation layer whose errors are counted, VkResult names, memory type
 * choice and a compute pipeline with one descriptor set. */
#ifndef VK_SAMPLE_H
#define VK_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <volk.h>

/* Returns the VkResult of call from the enclosing function, after printing
 * "tag: call -> VK_ERROR_...", unless it is VK_SUCCESS. */
#define VK_SAMPLE_CHECK(tag, call)                                                                 \
   do {                                                                                            \
      VkResult r_ = (call);                                                                        \
      if (r_ != VK_SUCCESS) {                                                                      \
         fprintf(stderr, "%s: %s -> %s\n", tag, #call, vk_sample_result_string(r_));               \
         return r_;                                                                                \
      }                                                                                            \
   } while (0)

struct vk_sample_instance {
   VkInstance instance;
   VkDebugUtilsMessengerEXT messenger;
   uint32_t error_messages; /* validation and driver errors seen */
   const char *tag;         /* prefix of every message: the program's name */
};

/* Loads the Vulkan loader (volk) and creates an instance for api_version.
 * With validation, VK_LAYER_KHRONOS_validation is enabled and a messenger
 * prints its warnings and counts its errors into *si, so *si must not move
 * until vk_sample_instance_destroy. Prints what failed. */
VkResult vk_sample_instance_create(struct vk_sample_instance *si, const char *tag,
                                   uint32_t api_version, bool validation);
/* The same with extra instance extensions (at most
 * VK_SAMPLE_MAX_INSTANCE_EXTENSIONS), e.g. a surface's. */
#define VK_SAMPLE_MAX_INSTANCE_EXTENSIONS 4
VkResult vk_sample_instance_create_with(struct vk_sample_instance *si, const char *tag,
                                        uint32_t api_version, bool validation,
                                        const char *const *extra_extensions, uint32_t extra_count);
void vk_sample_instance_destroy(struct vk_sample_instance *si);

const char *vk_sample_result_string(VkResult r);

/* First memory type in type_bits with all of want, or UINT32_MAX. */
uint32_t vk_sample_memory_type(const VkPhysicalDeviceMemoryProperties *memory, uint32_t type_bits,
                               VkMemoryPropertyFlags want);

struct vk_sample_compute_pipeline {
   VkShaderModule module;
   VkDescriptorSetLayout set_layout;
   VkPipelineLayout layout;
   VkPipeline pipeline;
   VkDescriptorPool pool;
   VkDescriptorSet set; /* allocated; the caller writes its descriptors */
};

/* The compute pipeline of the SPIR-V file at spv_path (entry point "main"),
 * with one descriptor set whose binding i holds one descriptor of
 * binding_types[i], and push_constant_bytes of push constants (0: none). */
VkResult vk_sample_compute_pipeline_create(VkDevice device, const char *tag, const char *spv_path,
                                           const VkDescriptorType *binding_types,
                                           uint32_t binding_count, uint32_t push_constant_bytes,
                                           struct vk_sample_compute_pipeline *out);
void vk_sample_compute_pipeline_destroy(VkDevice device, struct vk_sample_compute_pipeline *p);
/* The parts of vk_sample_compute_pipeline_create, for pipelines of other
 * kinds (samples/rt_ambient_occlusion): a module from a SPIR-V file, and
 * out->set_layout, out->pool and out->set with one descriptor of
 * binding_types[i] at binding i, visible to `stages`. */
VkResult vk_sample_shader_module_create(VkDevice device, const char *tag, const char *spv_path,
                                        VkShaderModule *out);
VkResult vk_sample_descriptor_set_create(VkDevice device, const char *tag,
                                         const VkDescriptorType *binding_types,
                                         uint32_t binding_count, VkShaderStageFlags stages,
                                         struct vk_sample_compute_pipeline *out);

/* A primary command buffer from pool, begun for one submission. */
VkResult vk_sample_begin_one_time(VkDevice device, VkCommandPool pool, const char *tag,
                                  VkCommandBuffer *cmd);

/* A layout transition of levels [level, level + level_count) of layer 0 of
 * a colour image, from every earlier transfer and compute access to the
 * stage that comes next. */
void vk_sample_image_barrier(VkCommandBuffer cmd, VkImage image, uint32_t level,
                             uint32_t level_count, VkImageLayout from, VkImageLayout to,
                             VkAccessFlags src_access, VkAccessFlags dst_access,
                             VkPipelineStageFlags dst_stage);

/* A decimal command-line value in [lo, hi] ("-5", "", "3x" are refused). */
bool vk_sample_parse_u32(const char *s, uint32_t lo, uint32_t hi, uint32_t *out);
/* The same for a real number in [lo, hi] (NaN never is), and as a float. */
bool vk_sample_parse_double(const char *s, double lo, double hi, double *out);
bool vk_sample_parse_float(const char *s, double lo, double hi, float *out);

#endif
