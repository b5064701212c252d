/* Helpers shared by the ray-query API tests (test_ray_query*.c).
 * Header-only, like compute_test_util.h. */
#ifndef RAY_QUERY_TEST_UTIL_H
#define RAY_QUERY_TEST_UTIL_H

#include <string.h>

#include "vk_test_context.h"

/* std430 layout of the Ray the trace shaders read
 * (shaders/spirv14_ray_query_trace.comp, spirv14_rq_getters.comp): one
 * ray, and what the shader does with the candidates it sees (MODE_*). */
struct ray {
   float origin[3], tmin;
   float direction[3], tmax;
   uint32_t flags, cull_mask, mode;
   float generate_t;
};
#define MODE_CONFIRM 1u   /* confirm triangle candidates */
#define MODE_GENERATE 2u  /* generate AABB candidates at generate_t */
#define MODE_TERMINATE 4u /* terminate at the first candidate (spirv14_rq_getters only) */

/* gl_RayFlags* (GL_EXT_ray_query) = SPIR-V RayFlags. */
#define RAY_OPAQUE 0x01u
#define RAY_NO_OPAQUE 0x02u
#define RAY_TERMINATE_ON_FIRST_HIT 0x04u
#define RAY_SKIP_CLOSEST_HIT 0x08u
#define RAY_CULL_BACK_FACING 0x10u
#define RAY_CULL_FRONT_FACING 0x20u
#define RAY_CULL_OPAQUE 0x40u
#define RAY_CULL_NO_OPAQUE 0x80u

/* The instance and physical device (vkt_context_create), when the device
 * offers VK_KHR_ray_query; otherwise skips (or fails) the case and returns
 * false with nothing left to destroy. */
static inline bool rqu_context_create(struct vkt_context *ctx)
{
   if (!vkt_context_create(ctx))
      return false;
   if (!vkt_has_device_extension(ctx, VK_KHR_RAY_QUERY_EXTENSION_NAME)) {
      vkt_skip("%s does not offer VK_KHR_ray_query", ctx->props.deviceName);
      vkt_context_destroy(ctx);
      return false;
   }
   return true;
}

/* VK_KHR_acceleration_structure, VK_KHR_ray_query and what a Vulkan 1.1
 * device needs besides the two (their "Extension and Version
 * Dependencies"; a 1.2+ device offers the same names), for an array
 * initializer. */
#define RQU_DEVICE_EXTENSIONS                                                                      \
   VK_KHR_ACCELERATION_STRUCTURE_EXTENSION_NAME, VK_KHR_RAY_QUERY_EXTENSION_NAME,                  \
       VK_KHR_DEFERRED_HOST_OPERATIONS_EXTENSION_NAME,                                             \
       VK_KHR_BUFFER_DEVICE_ADDRESS_EXTENSION_NAME, VK_EXT_DESCRIPTOR_INDEXING_EXTENSION_NAME,     \
       VK_KHR_MAINTENANCE_3_EXTENSION_NAME, VK_KHR_SPIRV_1_4_EXTENSION_NAME,                       \
       VK_KHR_SHADER_FLOAT_CONTROLS_EXTENSION_NAME

/* What a ray-query test needs enabled at the least: acceleration
 * structures, ray queries and buffer device addresses. */
struct rqu_features {
   VkPhysicalDeviceAccelerationStructureFeaturesKHR as;
   VkPhysicalDeviceRayQueryFeaturesKHR rq;
   VkPhysicalDeviceBufferDeviceAddressFeatures address;
};

/* Fills f and returns the head of its chain (&f->as), for
 * rqu_device_create's feature_chain. */
static inline void *rqu_features_minimal(struct rqu_features *f)
{
   memset(f, 0, sizeof(*f));
   f->address.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES;
   f->address.bufferDeviceAddress = VK_TRUE;
   f->rq.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_QUERY_FEATURES_KHR;
   f->rq.pNext = &f->address;
   f->rq.rayQuery = VK_TRUE;
   f->as.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_FEATURES_KHR;
   f->as.pNext = &f->rq;
   f->as.accelerationStructure = VK_TRUE;
   return &f->as;
}

/* A device with RQU_DEVICE_EXTENSIONS and the features of feature_chain.
 * On failure fails the case, destroys ctx and returns false. */
static inline bool rqu_device_create(struct vkt_context *ctx, void *feature_chain,
                                     struct vkt_device *dev)
{
   static const char *const exts[] = {RQU_DEVICE_EXTENSIONS};
   struct vkt_device_desc desc = {.extensions = exts,
                                  .extension_count = sizeof(exts) / sizeof(exts[0]),
                                  .feature_chain = feature_chain};
   VkResult res = vkt_device_create(ctx, &desc, dev);
   if (res != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "vkCreateDevice with ray queries -> %s", vkt_result_name(res));
      vkt_context_destroy(ctx);
   }
   return res == VK_SUCCESS;
}

#endif /* RAY_QUERY_TEST_UTIL_H */
