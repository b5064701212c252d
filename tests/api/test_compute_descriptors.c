/* Descriptor set layouts, pools and sets: their lifecycle (sets freed one by
 * one with FREE_DESCRIPTOR_SET, by pool reset, by pool destruction; layouts
 * destroyed while their sets live), exhausting a pool
 * (VK_ERROR_OUT_OF_POOL_MEMORY), and writes, copies and update templates
 * being accepted. What the descriptors say is checked by the dispatches of
 * test_compute_dispatch.c, which read through them. */
#include <string.h>

#include "compute_test_util.h"

static const VkDescriptorSetLayoutBinding mixed_bindings[] = {
    /* Out of order and with a gap on purpose: layouts sort by binding. */
    {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
    {0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 2, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
    {5, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
    {3, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
    {4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 0, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
};
#define MIXED_COUNT (sizeof(mixed_bindings) / sizeof(mixed_bindings[0]))

static VkDescriptorPool create_pool(struct vkt_device *dev, uint32_t max_sets, uint32_t per_type,
                                    VkDescriptorPoolCreateFlags flags)
{
   VkDescriptorPoolSize sizes[] = {
       {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 2 * per_type},
       {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3 * per_type},
       {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, per_type},
       {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, per_type},
   };
   VkDescriptorPoolCreateInfo ci = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
       .flags = flags,
       .maxSets = max_sets,
       .poolSizeCount = 4,
       .pPoolSizes = sizes,
   };
   VkDescriptorPool pool = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateDescriptorPool(dev->device, &ci, NULL, &pool));
   return pool;
}

static VkResult allocate(struct vkt_device *dev, VkDescriptorPool pool,
                         VkDescriptorSetLayout layout, uint32_t count, VkDescriptorSet *sets)
{
   VkDescriptorSetLayout layouts[8];
   for (uint32_t i = 0; i < count; i++)
      layouts[i] = layout;
   VkDescriptorSetAllocateInfo ai = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
       .descriptorPool = pool,
       .descriptorSetCount = count,
       .pSetLayouts = layouts,
   };
   return vkAllocateDescriptorSets(dev->device, &ai, sets);
}

TEST_CASE(sets_are_freed_one_by_one_by_reset_and_with_their_pool)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   VkDescriptorSetLayout layout = ctu_set_layout(&dev, mixed_bindings, MIXED_COUNT);
   VkDescriptorPool pool =
       create_pool(&dev, 4, 4, VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT);
   VkDescriptorSet sets[4] = {0};
   VKT_CHECK(allocate(&dev, pool, layout, 3, sets));
   for (int i = 0; i < 3; i++)
      CHECK(sets[i] != VK_NULL_HANDLE);
   /* Free the middle one (and a null handle, which is ignored), then the
    * space must be usable again. */
   VkDescriptorSet to_free[2] = {sets[1], VK_NULL_HANDLE};
   VKT_CHECK(vkFreeDescriptorSets(dev.device, pool, 2, to_free));
   VkDescriptorSet again[2] = {0};
   VKT_CHECK(allocate(&dev, pool, layout, 2, again));
   sets[1] = again[0];
   sets[3] = again[1];
   VKT_CHECK(vkFreeDescriptorSets(dev.device, pool, 4, sets));

   /* Reset returns every set; allocate the full pool again, many times. */
   for (int round = 0; round < 16; round++) {
      VKT_CHECK(allocate(&dev, pool, layout, 4, sets));
      VKT_CHECK(vkResetDescriptorPool(dev.device, pool, 0));
   }

   /* The layout may go before its sets; the pool destroys what is left. */
   VKT_CHECK(allocate(&dev, pool, layout, 2, sets));
   vkDestroyDescriptorSetLayout(dev.device, layout, NULL);
   vkDestroyDescriptorPool(dev.device, pool, NULL);

   /* An empty layout and a pool with room for nothing but sets. */
   VkDescriptorSetLayout empty = ctu_set_layout(&dev, NULL, 0);
   VkDescriptorPoolSize one = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
   VkDescriptorPoolCreateInfo pci = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
       .maxSets = 2,
       .poolSizeCount = 1,
       .pPoolSizes = &one,
   };
   VKT_CHECK(vkCreateDescriptorPool(dev.device, &pci, NULL, &pool));
   VKT_CHECK(allocate(&dev, pool, empty, 2, sets));
   vkDestroyDescriptorPool(dev.device, pool, NULL);
   vkDestroyDescriptorSetLayout(dev.device, empty, NULL);
   vkt_teardown(&ctx, &dev);
}

TEST_CASE(exhausting_a_pool_fails_with_out_of_pool_memory)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   /* Before Vulkan 1.1 (or VK_KHR_maintenance1) asking a pool for more than
    * it holds is invalid usage rather than an error the driver returns
    * (VUID-VkDescriptorSetAllocateInfo-apiVersion-07895). */
   if (VK_API_VERSION_MINOR(ctx.props.apiVersion) < 1 &&
       VK_API_VERSION_MAJOR(ctx.props.apiVersion) == 1) {
      vkt_skip("device reports Vulkan 1.0: exceeding a pool is invalid usage there");
      vkt_teardown(&ctx, &dev);
      return;
   }
   VkDescriptorSetLayout layout = ctu_set_layout(&dev, mixed_bindings, MIXED_COUNT);
   VkDescriptorPool pool = create_pool(&dev, 2, 2, 0);
   VkDescriptorSet sets[3] = {0};
   VKT_CHECK(allocate(&dev, pool, layout, 2, sets));
   /* A third set exceeds maxSets: the spec lets the allocation fail with
    * VK_ERROR_OUT_OF_POOL_MEMORY (or FRAGMENTED_POOL), and vkppu always
    * does; whatever fails must leave the handle null. */
   VkDescriptorSet extra = (VkDescriptorSet)(uintptr_t)0x1;
   VkResult r = allocate(&dev, pool, layout, 1, &extra);
   if (ctx.is_vkppu)
      CHECK_MSG(r == VK_ERROR_OUT_OF_POOL_MEMORY, "third set -> %s", vkt_result_name(r));
   if (r != VK_SUCCESS) {
      CHECK(r == VK_ERROR_OUT_OF_POOL_MEMORY || r == VK_ERROR_FRAGMENTED_POOL);
      CHECK(extra == VK_NULL_HANDLE);
   }
   vkDestroyDescriptorPool(dev.device, pool, NULL);

   /* Room for one set's storage buffers but two sets asked in one call:
    * all or nothing. */
   pool = create_pool(&dev, 4, 1, 0);
   sets[0] = sets[1] = (VkDescriptorSet)(uintptr_t)0x1;
   r = allocate(&dev, pool, layout, 2, sets);
   if (ctx.is_vkppu)
      CHECK_MSG(r == VK_ERROR_OUT_OF_POOL_MEMORY, "two sets -> %s", vkt_result_name(r));
   if (r != VK_SUCCESS)
      CHECK(sets[0] == VK_NULL_HANDLE && sets[1] == VK_NULL_HANDLE);
   vkDestroyDescriptorPool(dev.device, pool, NULL);
   vkDestroyDescriptorSetLayout(dev.device, layout, NULL);
   vkt_teardown(&ctx, &dev);
}

TEST_CASE(writes_copies_and_templates_are_accepted)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   memset(&dev, 0, sizeof(dev));
   if (!vkt_context_create(&ctx))
      return;
   const char *ext[] = {VK_KHR_DESCRIPTOR_UPDATE_TEMPLATE_EXTENSION_NAME};
   struct vkt_device_desc desc = {.extensions = ext, .extension_count = 1};
   VkResult dr = vkt_device_create(&ctx, &desc, &dev);
   if (dr != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "device with %s -> %s", ext[0], vkt_result_name(dr));
      vkt_context_destroy(&ctx);
      return;
   }
   struct vkt_buffer buf;
   VKT_REQUIRE(vkt_buffer_create(
       &dev, 4096, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
       VKT_MEMORY_DEVICE, &buf));
   VkDescriptorSetLayout layout = ctu_set_layout(&dev, mixed_bindings, MIXED_COUNT);
   VkDescriptorPool pool = create_pool(&dev, 2, 2, 0);
   VkDescriptorSet sets[2];
   VKT_CHECK(allocate(&dev, pool, layout, 2, sets));

   /* Binding 0 has two elements; three storage descriptors at binding 5. */
   VkDescriptorBufferInfo ubo[2] = {{buf.buffer, 0, 256}, {buf.buffer, 256, VK_WHOLE_SIZE}};
   VkDescriptorBufferInfo ssbo[3] = {
       {buf.buffer, 512, 64}, {buf.buffer, 1024, 64}, {buf.buffer, 2048, VK_WHOLE_SIZE}};
   VkDescriptorBufferInfo dyn = {buf.buffer, 0, 64};
   VkWriteDescriptorSet w[4] = {
       {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, sets[0], 0, 0, 2,
        VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, NULL, ubo, NULL},
       {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, sets[0], 5, 0, 3,
        VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, NULL, ssbo, NULL},
       {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, sets[0], 2, 0, 1,
        VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, NULL, &dyn, NULL},
       {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, sets[0], 3, 0, 1,
        VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, NULL, &dyn, NULL},
   };
   vkUpdateDescriptorSets(dev.device, 4, w, 0, NULL);
   VkCopyDescriptorSet c[2] = {
       {VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET, NULL, sets[0], 0, 0, sets[1], 0, 0, 2},
       {VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET, NULL, sets[0], 5, 1, sets[1], 5, 0, 2},
   };
   vkUpdateDescriptorSets(dev.device, 0, NULL, 2, c);

   /* A template over an application struct with its own stride. */
   struct app_data {
      uint32_t tag;
      VkDescriptorBufferInfo info;
   } data[3] = {{1, {buf.buffer, 0, 64}}, {2, {buf.buffer, 256, 64}}, {3, {buf.buffer, 512, 64}}};
   VkDescriptorUpdateTemplateEntry entries[2] = {
       {5, 0, 3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, offsetof(struct app_data, info),
        sizeof(struct app_data)},
       {0, 1, 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, offsetof(struct app_data, info), 0},
   };
   VkDescriptorUpdateTemplateCreateInfo tci = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO,
       .descriptorUpdateEntryCount = 2,
       .pDescriptorUpdateEntries = entries,
       .templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET,
       .descriptorSetLayout = layout,
   };
   VkDescriptorUpdateTemplate tmpl = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateDescriptorUpdateTemplateKHR(dev.device, &tci, NULL, &tmpl));
   if (tmpl) {
      vkUpdateDescriptorSetWithTemplateKHR(dev.device, sets[1], tmpl, data);
      vkDestroyDescriptorUpdateTemplateKHR(dev.device, tmpl, NULL);
   }
   vkDestroyDescriptorPool(dev.device, pool, NULL);
   vkDestroyDescriptorSetLayout(dev.device, layout, NULL);
   vkt_buffer_destroy(&dev, &buf);
   vkt_teardown(&ctx, &dev);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
