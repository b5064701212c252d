/* Descriptor memory as the shader ABI (driver/shader_abi.h) lays it out,
 * read back from the sets' host mappings: binding offsets in binding order,
 * buffer descriptors (address, range with VK_WHOLE_SIZE resolved), writes
 * that run into the next binding, copies, update templates, the dynamic
 * slots a pipeline layout assigns, and the pool's exact accounting
 * (VK_ERROR_OUT_OF_POOL_MEMORY). Called straight into the driver: some of
 * this is invalid usage before Vulkan 1.1 and cannot go through the loader
 * with validation on. */
#include <string.h>

#include "icd_test_device.h"
#include "test_harness.h"
#include "vkppu_descriptor.h"
#include "vkppu_memory.h"

struct rig {
   VkInstance instance;
   VkDevice device;
   VkBuffer buffer;
   VkDeviceMemory memory;
   uint64_t buffer_va;
};

static bool rig_init(struct rig *r)
{
   memset(r, 0, sizeof(*r));
   VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
   if (vkppu_CreateInstance(&ici, NULL, &r->instance) != VK_SUCCESS)
      return false;
   if (!icd_test_device_create(r->instance, &r->device))
      return false;
   VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                             .size = 4096,
                             .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT};
   if (vkppu_CreateBuffer(r->device, &bci, NULL, &r->buffer) != VK_SUCCESS)
      return false;
   VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = 4096,
                               .memoryTypeIndex = 0};
   if (vkppu_AllocateMemory(r->device, &mai, NULL, &r->memory) != VK_SUCCESS ||
       vkppu_BindBufferMemory(r->device, r->buffer, r->memory, 0) != VK_SUCCESS)
      return false;
   r->buffer_va = vkppu_buffer_from_handle(r->buffer)->va;
   return r->buffer_va != 0;
}

static void rig_finish(struct rig *r)
{
   if (r->buffer)
      vkppu_DestroyBuffer(r->device, r->buffer, NULL);
   if (r->memory)
      vkppu_FreeMemory(r->device, r->memory, NULL);
   if (r->device)
      vkppu_DestroyDevice(r->device, NULL);
   if (r->instance)
      vkppu_DestroyInstance(r->instance, NULL);
}

/* Binding 7 (2 storage), binding 1 (1 uniform dynamic), binding 3 (3
 * storage dynamic), binding 4 (1 uniform): given out of order. */
static const VkDescriptorSetLayoutBinding bindings[] = {
    {7, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
    {1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
    {4, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
    {3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 3, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
};

static VkDescriptorSetLayout make_layout(struct rig *r)
{
   VkDescriptorSetLayoutCreateInfo ci = {.sType =
                                             VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                         .bindingCount = 4,
                                         .pBindings = bindings};
   VkDescriptorSetLayout layout = VK_NULL_HANDLE;
   CHECK(vkppu_CreateDescriptorSetLayout(r->device, &ci, NULL, &layout) == VK_SUCCESS);
   return layout;
}

static VkDescriptorPool make_pool(struct rig *r, uint32_t max_sets, uint32_t scale,
                                  VkDescriptorPoolCreateFlags flags)
{
   VkDescriptorPoolSize sizes[] = {
       {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2 * scale},
       {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, scale},
       {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, scale},
       {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 3 * scale},
   };
   VkDescriptorPoolCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                    .flags = flags,
                                    .maxSets = max_sets,
                                    .poolSizeCount = 4,
                                    .pPoolSizes = sizes};
   VkDescriptorPool pool = VK_NULL_HANDLE;
   CHECK(vkppu_CreateDescriptorPool(r->device, &ci, NULL, &pool) == VK_SUCCESS);
   return pool;
}

static VkResult alloc_sets(struct rig *r, VkDescriptorPool pool, VkDescriptorSetLayout layout,
                           uint32_t n, VkDescriptorSet *sets)
{
   VkDescriptorSetLayout layouts[4] = {layout, layout, layout, layout};
   VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                     .descriptorPool = pool,
                                     .descriptorSetCount = n,
                                     .pSetLayouts = layouts};
   return vkppu_AllocateDescriptorSets(r->device, &ai, sets);
}

static struct drv_buffer_descriptor read_descriptor(VkDescriptorSet set, uint32_t index)
{
   struct drv_buffer_descriptor d;
   memcpy(&d, vkppu_descriptor_set_from_handle(set)->map + index * DRV_DESCRIPTOR_SIZE, sizeof(d));
   return d;
}

TEST_CASE(bindings_are_laid_out_in_binding_order_and_writes_roll_over)
{
   struct rig r;
   REQUIRE(rig_init(&r));
   VkDescriptorSetLayout layout = make_layout(&r);
   const struct vkppu_descriptor_set_layout *l = vkppu_descriptor_set_layout_from_handle(layout);
   /* Order 1, 3, 4, 7: descriptor slots 0 | 1..3 | 4 | 5..6. */
   CHECK_EQ_U64(vkppu_set_layout_binding(l, 1)->offset, 0);
   CHECK_EQ_U64(vkppu_set_layout_binding(l, 3)->offset, 1 * DRV_DESCRIPTOR_SIZE);
   CHECK_EQ_U64(vkppu_set_layout_binding(l, 4)->offset, 4 * DRV_DESCRIPTOR_SIZE);
   CHECK_EQ_U64(vkppu_set_layout_binding(l, 7)->offset, 5 * DRV_DESCRIPTOR_SIZE);
   CHECK_EQ_U64(vkppu_set_layout_binding(l, 1)->dynamic_index, 0);
   CHECK_EQ_U64(vkppu_set_layout_binding(l, 3)->dynamic_index, 1);
   CHECK(vkppu_set_layout_binding(l, 4)->dynamic_index == -1);
   CHECK(vkppu_set_layout_binding(l, 2) == NULL);
   CHECK_EQ_U64(l->size, 7 * DRV_DESCRIPTOR_SIZE);

   VkDescriptorPool pool = make_pool(&r, 2, 2, 0);
   VkDescriptorSet sets[2];
   REQUIRE(alloc_sets(&r, pool, layout, 2, sets) == VK_SUCCESS);
   CHECK(vkppu_descriptor_set_from_handle(sets[0])->va % DRV_DESCRIPTOR_SET_ALIGN == 0);
   CHECK(vkppu_descriptor_set_from_handle(sets[1])->va % DRV_DESCRIPTOR_SET_ALIGN == 0);

   /* Element 2 of binding 3 and on into binding 4 (same descriptor class
    * is the application's business; the layout just continues). */
   VkDescriptorBufferInfo infos[2] = {{r.buffer, 256, 64}, {r.buffer, 1024, VK_WHOLE_SIZE}};
   VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                             .dstSet = sets[0],
                             .dstBinding = 3,
                             .dstArrayElement = 2,
                             .descriptorCount = 2,
                             .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC,
                             .pBufferInfo = infos};
   vkppu_UpdateDescriptorSets(r.device, 1, &w, 0, NULL);
   struct drv_buffer_descriptor d3 = read_descriptor(sets[0], 3);
   struct drv_buffer_descriptor d4 = read_descriptor(sets[0], 4);
   CHECK_EQ_U64(d3.address, r.buffer_va + 256);
   CHECK_EQ_U64(d3.range, 64);
   CHECK_EQ_U64(d4.address, r.buffer_va + 1024);
   CHECK_EQ_U64(d4.range, 4096 - 1024); /* VK_WHOLE_SIZE: to the end of the buffer */
   CHECK_EQ_U64(read_descriptor(sets[0], 2).address, 0);

   /* A write past the last binding stops at the end of the set. */
   w.dstBinding = 7;
   w.dstArrayElement = 1;
   w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
   vkppu_UpdateDescriptorSets(r.device, 1, &w, 0, NULL);
   CHECK_EQ_U64(read_descriptor(sets[0], 6).address, r.buffer_va + 256);

   /* A copy of slots 3..4 into the other set at binding 3, element 0. */
   VkCopyDescriptorSet c = {.sType = VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET,
                            .srcSet = sets[0],
                            .srcBinding = 3,
                            .srcArrayElement = 2,
                            .dstSet = sets[1],
                            .dstBinding = 3,
                            .descriptorCount = 2};
   vkppu_UpdateDescriptorSets(r.device, 0, NULL, 1, &c);
   CHECK_EQ_U64(read_descriptor(sets[1], 1).address, r.buffer_va + 256);
   CHECK_EQ_U64(read_descriptor(sets[1], 2).range, 4096 - 1024);

   /* A template with a stride writes the same layout. */
   struct {
      uint32_t pad[3];
      VkDescriptorBufferInfo info;
   } data[2] = {{{0}, {r.buffer, 64, 32}}, {{0}, {r.buffer, 128, 16}}};
   VkDescriptorUpdateTemplateEntry e = {7,
                                        0,
                                        2,
                                        VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                        offsetof(__typeof__(data[0]), info),
                                        sizeof(data[0])};
   VkDescriptorUpdateTemplateCreateInfo tci = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO,
       .descriptorUpdateEntryCount = 1,
       .pDescriptorUpdateEntries = &e,
       .templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET,
       .descriptorSetLayout = layout};
   VkDescriptorUpdateTemplate t;
   REQUIRE(vkppu_CreateDescriptorUpdateTemplate(r.device, &tci, NULL, &t) == VK_SUCCESS);
   vkppu_UpdateDescriptorSetWithTemplate(r.device, sets[1], t, data);
   CHECK_EQ_U64(read_descriptor(sets[1], 5).address, r.buffer_va + 64);
   CHECK_EQ_U64(read_descriptor(sets[1], 6).range, 16);
   vkppu_DestroyDescriptorUpdateTemplate(r.device, t, NULL);

   /* Two sets in a pipeline layout: set 1's dynamic slots follow set 0's. */
   VkDescriptorSetLayout two[2] = {layout, layout};
   VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                      .setLayoutCount = 2,
                                      .pSetLayouts = two};
   VkPipelineLayout pl;
   REQUIRE(vkppu_CreatePipelineLayout(r.device, &plci, NULL, &pl) == VK_SUCCESS);
   const struct vkppu_pipeline_layout *p = vkppu_pipeline_layout_from_handle(pl);
   CHECK_EQ_U64(p->dynamic_count, 8);
   CHECK_EQ_U64(p->abi.binding_count, 8);
   for (uint32_t i = 0; i < p->abi.binding_count; i++) {
      const struct drv_binding_layout *b = &p->abi.bindings[i];
      if (b->set == 1 && b->binding == 3)
         CHECK_EQ_U64(b->dynamic_index, 5);
      if (b->binding == 4)
         CHECK(b->dynamic_index == -1 && b->kind == DRV_BINDING_UNIFORM_BUFFER);
   }
   /* The layout may be destroyed while pipeline layouts and sets use it. */
   vkppu_DestroyDescriptorSetLayout(r.device, layout, NULL);
   vkppu_DestroyPipelineLayout(r.device, pl, NULL);
   vkppu_DestroyDescriptorPool(r.device, pool, NULL);
   rig_finish(&r);
}

TEST_CASE(pools_keep_to_their_counts_exactly)
{
   struct rig r;
   REQUIRE(rig_init(&r));
   VkDescriptorSetLayout layout = make_layout(&r);
   VkDescriptorSet sets[4] = {0};
   /* maxSets 3 but descriptors for 2 sets: the third fails on counts. */
   VkDescriptorPool pool = make_pool(&r, 3, 2, VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT);
   CHECK(alloc_sets(&r, pool, layout, 2, sets) == VK_SUCCESS);
   sets[2] = (VkDescriptorSet)(uintptr_t)1;
   CHECK(alloc_sets(&r, pool, layout, 1, &sets[2]) == VK_ERROR_OUT_OF_POOL_MEMORY);
   CHECK(sets[2] == VK_NULL_HANDLE);
   /* Freeing one makes room again. */
   CHECK(vkppu_FreeDescriptorSets(r.device, pool, 1, &sets[0]) == VK_SUCCESS);
   CHECK(alloc_sets(&r, pool, layout, 1, &sets[0]) == VK_SUCCESS);
   vkppu_DestroyDescriptorPool(r.device, pool, NULL);

   /* maxSets 1 with descriptors to spare: the second set fails on sets,
    * and a failed multi-set call leaves nothing allocated. */
   pool = make_pool(&r, 1, 4, 0);
   sets[0] = sets[1] = (VkDescriptorSet)(uintptr_t)1;
   CHECK(alloc_sets(&r, pool, layout, 2, sets) == VK_ERROR_OUT_OF_POOL_MEMORY);
   CHECK(sets[0] == VK_NULL_HANDLE && sets[1] == VK_NULL_HANDLE);
   CHECK(alloc_sets(&r, pool, layout, 1, sets) == VK_SUCCESS);
   CHECK(vkppu_ResetDescriptorPool(r.device, pool, 0) == VK_SUCCESS);
   CHECK(alloc_sets(&r, pool, layout, 1, sets) == VK_SUCCESS);
   vkppu_DestroyDescriptorPool(r.device, pool, NULL);
   vkppu_DestroyDescriptorSetLayout(r.device, layout, NULL);
   rig_finish(&r);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
