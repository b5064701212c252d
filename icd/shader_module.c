/* VkShaderModule: a validated copy of the SPIR-V words.
 *
 * The module is checked by the SPIR-V front end (driver/spirv/spirv_module.h)
 * at creation, so that a broken module fails here, with the front end's
 * located message, instead of deep inside pipeline creation.
 *
 * Which error for an invalid module: passing invalid SPIR-V is invalid usage
 * (VUID-VkShaderModuleCreateInfo-pCode-08737), so the spec defines no result
 * for it. VK_ERROR_INVALID_SHADER_NV belongs to VK_NV_glsl_shader, which this
 * device does not report. VK_ERROR_UNKNOWN is the code the spec gives for
 * "the application has provided invalid input" when no specific code
 * applies (the "Return Codes" section), and every command may return it; it
 * is what we return, after telling the application why through vkppu_report
 * (debug messengers and stderr).
 */
#include "spirv_module.h"
#include "vkppu_pipeline.h"

VKAPI_ATTR VkResult VKAPI_CALL vkppu_CreateShaderModule(VkDevice device,
                                                        const VkShaderModuleCreateInfo *pCreateInfo,
                                                        const VkAllocationCallbacks *pAllocator,
                                                        VkShaderModule *pShaderModule)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   /* codeSize is in bytes and a multiple of 4
    * (VUID-VkShaderModuleCreateInfo-codeSize-08735); a stray remainder is
    * not SPIR-V either way, and the front end rejects it below. */
   size_t word_count = pCreateInfo->codeSize / 4;
   if (pCreateInfo->codeSize % 4 || !pCreateInfo->pCode) {
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "vkCreateShaderModule: codeSize %zu is not a multiple of 4 or pCode is NULL",
                   pCreateInfo->codeSize);
      return VK_ERROR_UNKNOWN;
   }
   struct spirv_error err = {0};
   struct spirv_module *parsed = spirv_module_parse(pCreateInfo->pCode, word_count, &err);
   if (!parsed) {
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "vkCreateShaderModule: invalid SPIR-V: %s", err.message);
      return VK_ERROR_UNKNOWN;
   }
   /* The parsed form is not kept: pipelines parse again with their
    * specialization applied, and a module may never be used at all. */
   spirv_module_destroy(parsed);

   struct vkppu_shader_module *mod =
       vkppu_device_zalloc(dev, pAllocator, sizeof(*mod), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!mod)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   mod->words =
       vkppu_device_zalloc(dev, pAllocator, word_count * 4, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!mod->words) {
      vkppu_device_free(dev, pAllocator, mod);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   vkppu_object_init(&mod->base, VK_OBJECT_TYPE_SHADER_MODULE, dev);
   memcpy(mod->words, pCreateInfo->pCode, word_count * 4);
   mod->word_count = word_count;
   *pShaderModule = vkppu_shader_module_to_handle(mod);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkppu_DestroyShaderModule(VkDevice device, VkShaderModule shaderModule,
                                                     const VkAllocationCallbacks *pAllocator)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_shader_module, mod, shaderModule);
   if (!mod)
      return;
   vkppu_device_free(dev, pAllocator, mod->words);
   vkppu_object_finish(&mod->base);
   vkppu_device_free(dev, pAllocator, mod);
}
