/* Descriptor memory as the shader ABI (driver/shader_abi.h) lays it out,
 * read back from the sets' host mappings: binding offsets in binding order,
 * buffer descriptors (address, range with VK_WHOLE_SIZE resolved), writes
 * that run into the next binding, copies, update templates, the dynamic
 * slots a pipeline layout assigns, and the pool's exact accounting
 * (VK_ERROR_OUT_OF_POOL_MEMORY), and image, sampler and texel-buffer
 * descriptors (headers inline, 64-byte aligned bindings, immutable
 * samplers). Called straight into the driver: some of
 * this is invalid usage before Vulkan 1.1 and cannot go through the loader
 * with validation on. */
#include <string.h>

#include "icd_test_device.h"
#include "test_harness.h"
#include "vkppu_descriptor.h"
#include "vkppu_image.h"
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

/* Views, samplers and buffer views as the descriptor writes see them: only
 * their headers are read, so the test makes them by hand. */
static struct ppu_texture_header test_view_header(uint32_t seed)
{
   return (struct ppu_texture_header){.address = 0x100000u * seed,
                                      .format = PPU_TEX_FORMAT_R8G8B8A8_UNORM,
                                      .dim = PPU_TEX_DIM_2D,
                                      .swizzle = PPU_TEX_SWIZZLE_IDENTITY,
                                      .width = seed,
                                      .height = 2 * seed,
                                      .depth = 1,
                                      .image_levels = 1,
                                      .level_count = 1,
                                      .layer_count = 1};
}

static struct ppu_sampler_header test_sampler_header(float lod_bias)
{
   return (struct ppu_sampler_header){.mag_filter = PPU_TEX_FILTER_LINEAR,
                                      .address_u = PPU_TEX_ADDRESS_CLAMP_TO_EDGE,
                                      .lod_bias = lod_bias,
                                      .max_lod = 1000.0f,
                                      .max_anisotropy = 1.0f};
}

static bool bytes_are(const uint8_t *p, const void *expected, size_t n)
{
   return memcmp(p, expected, n) == 0;
}

static bool bytes_are_zero(const uint8_t *p, size_t n)
{
   for (size_t i = 0; i < n; i++) {
      if (p[i])
         return false;
   }
   return true;
}

TEST_CASE(image_descriptors_hold_headers_in_aligned_bindings)
{
   struct rig r;
   REQUIRE(rig_init(&r));
   struct vkppu_image_view views[3];
   struct vkppu_sampler samplers[3];
   struct vkppu_buffer_view texel_view = {.header = test_view_header(9)};
   for (uint32_t i = 0; i < 3; i++) {
      views[i] = (struct vkppu_image_view){.header = test_view_header(i + 1)};
      samplers[i] = (struct vkppu_sampler){.header = test_sampler_header((float)i + 0.5f)};
   }
   VkSampler immutable[2] = {vkppu_sampler_to_handle(&samplers[2]),
                             vkppu_sampler_to_handle(&samplers[1])};
   /* One buffer first, so the next binding must be padded to 64 bytes. */
   const VkDescriptorSetLayoutBinding b[] = {
       {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {2, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {3, VK_DESCRIPTOR_TYPE_SAMPLER, 2, VK_SHADER_STAGE_COMPUTE_BIT, immutable},
       {4, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {5, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, immutable},
   };
   VkDescriptorSetLayoutCreateInfo lci = {.sType =
                                              VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                          .bindingCount = 6,
                                          .pBindings = b};
   VkDescriptorSetLayout layout = VK_NULL_HANDLE;
   REQUIRE(vkppu_CreateDescriptorSetLayout(r.device, &lci, NULL, &layout) == VK_SUCCESS);
   /* The application may destroy immutable samplers once the layout
    * exists: the layout copied them. */
   samplers[2].header.lod_bias = -99.0f;
   const struct vkppu_descriptor_set_layout *l = vkppu_descriptor_set_layout_from_handle(layout);
   CHECK_EQ_U64(vkppu_set_layout_binding(l, 0)->offset, 0);
   CHECK_EQ_U64(vkppu_set_layout_binding(l, 1)->offset, 64);
   CHECK_EQ_U64(vkppu_set_layout_binding(l, 1)->stride, DRV_COMBINED_DESCRIPTOR_SIZE);
   CHECK_EQ_U64(vkppu_set_layout_binding(l, 2)->offset, 64 + 2 * 128);
   CHECK_EQ_U64(vkppu_set_layout_binding(l, 3)->offset, 64 + 2 * 128 + 64);
   CHECK_EQ_U64(vkppu_set_layout_binding(l, 4)->offset, 64 + 2 * 128 + 64 + 2 * 64);
   CHECK_EQ_U64(vkppu_set_layout_binding(l, 5)->offset, 64 + 2 * 128 + 64 + 2 * 64 + 64);
   CHECK_EQ_U64(l->size, 64 + 2 * 128 + 64 + 2 * 64 + 64 + 128);

   /* A pool sized exactly by the counts holds the set, padding included. */
   VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
                                   {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 3},
                                   {VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1},
                                   {VK_DESCRIPTOR_TYPE_SAMPLER, 2},
                                   {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 1}};
   VkDescriptorPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                     .maxSets = 1,
                                     .poolSizeCount = 5,
                                     .pPoolSizes = sizes};
   VkDescriptorPool pool = VK_NULL_HANDLE;
   REQUIRE(vkppu_CreateDescriptorPool(r.device, &pci, NULL, &pool) == VK_SUCCESS);
   VkDescriptorSet set = VK_NULL_HANDLE;
   REQUIRE(alloc_sets(&r, pool, layout, 1, &set) == VK_SUCCESS);
   const uint8_t *m = vkppu_descriptor_set_from_handle(set)->map;
   CHECK(vkppu_descriptor_set_from_handle(set)->va % 64 == 0);

   /* Immutable samplers are there from allocation on, as copied. */
   struct ppu_sampler_header s1 = test_sampler_header(1.5f), s2 = test_sampler_header(2.5f);
   CHECK(bytes_are(m + 384, &s2, 64) && bytes_are(m + 448, &s1, 64));
   CHECK(bytes_are(m + 576 + 64, &s2, 64));
   CHECK(bytes_are_zero(m + 576, 64)); /* its image: not written yet */

   /* Combined writes put the view at +0 and the sampler at +64; the write
    * of 3 elements runs from binding 1 element 1 into binding 2. Binding
    * 5's immutable sampler survives a write that names another. */
   VkDescriptorImageInfo infos[3] = {
       {vkppu_sampler_to_handle(&samplers[0]), vkppu_image_view_to_handle(&views[0]),
        VK_IMAGE_LAYOUT_GENERAL},
       {vkppu_sampler_to_handle(&samplers[1]), vkppu_image_view_to_handle(&views[1]),
        VK_IMAGE_LAYOUT_GENERAL},
       {VK_NULL_HANDLE, vkppu_image_view_to_handle(&views[2]), VK_IMAGE_LAYOUT_GENERAL},
   };
   VkWriteDescriptorSet w[] = {
       {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstSet = set,
        .dstBinding = 1,
        .dstArrayElement = 0,
        .descriptorCount = 2,
        .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
        .pImageInfo = infos},
       {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstSet = set,
        .dstBinding = 2,
        .descriptorCount = 1,
        .descriptorType = VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE,
        .pImageInfo = &infos[2]},
       {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstSet = set,
        .dstBinding = 5,
        .descriptorCount = 1,
        .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
        .pImageInfo = &infos[0]},
   };
   VkBufferView tv = vkppu_buffer_view_to_handle(&texel_view);
   VkWriteDescriptorSet wt = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                              .dstSet = set,
                              .dstBinding = 4,
                              .descriptorCount = 1,
                              .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER,
                              .pTexelBufferView = &tv};
   vkppu_UpdateDescriptorSets(r.device, 3, w, 0, NULL);
   vkppu_UpdateDescriptorSets(r.device, 1, &wt, 0, NULL);
   CHECK(bytes_are(m + 64, &views[0].header, 64) && bytes_are(m + 128, &samplers[0].header, 64));
   CHECK(bytes_are(m + 192, &views[1].header, 64) && bytes_are(m + 256, &samplers[1].header, 64));
   CHECK(bytes_are(m + 320, &views[2].header, 64));
   CHECK(bytes_are(m + 512, &texel_view.header, 64));
   CHECK(bytes_are(m + 576, &views[0].header, 64) && bytes_are(m + 576 + 64, &s2, 64));

   /* A null view writes zeros: the texture unit faults on format INVALID
    * instead of reading stale memory. */
   infos[0].imageView = VK_NULL_HANDLE;
   vkppu_UpdateDescriptorSets(r.device, 1, &w[0], 0, NULL);
   CHECK(bytes_are_zero(m + 64, 64));

   /* Copies move whole elements, at the binding's stride. */
   VkCopyDescriptorSet c = {.sType = VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET,
                            .srcSet = set,
                            .srcBinding = 1,
                            .srcArrayElement = 1,
                            .dstSet = set,
                            .dstBinding = 1,
                            .dstArrayElement = 0,
                            .descriptorCount = 1};
   vkppu_UpdateDescriptorSets(r.device, 0, NULL, 1, &c);
   CHECK(bytes_are(m + 64, &views[1].header, 64) && bytes_are(m + 128, &samplers[1].header, 64));

   /* The pipeline layout tells the compiler each binding's kind. */
   VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                      .setLayoutCount = 1,
                                      .pSetLayouts = &layout};
   VkPipelineLayout pl = VK_NULL_HANDLE;
   REQUIRE(vkppu_CreatePipelineLayout(r.device, &plci, NULL, &pl) == VK_SUCCESS);
   const struct drv_pipeline_abi *abi = &vkppu_pipeline_layout_from_handle(pl)->abi;
   CHECK_EQ_U64(abi->binding_count, 6);
   static const enum drv_binding_kind kinds[] = {
       DRV_BINDING_STORAGE_BUFFER,       DRV_BINDING_COMBINED_IMAGE_SAMPLER,
       DRV_BINDING_SAMPLED_IMAGE,        DRV_BINDING_SAMPLER,
       DRV_BINDING_UNIFORM_TEXEL_BUFFER, DRV_BINDING_COMBINED_IMAGE_SAMPLER};
   for (uint32_t i = 0; i < abi->binding_count && i < 6; i++) {
      CHECK(abi->bindings[i].kind == kinds[i]);
      CHECK_EQ_U64(abi->bindings[i].offset, vkppu_set_layout_binding(l, i)->offset);
   }
   vkppu_DestroyPipelineLayout(r.device, pl, NULL);
   vkppu_DestroyDescriptorPool(r.device, pool, NULL);
   vkppu_DestroyDescriptorSetLayout(r.device, layout, NULL);
   rig_finish(&r);
}

TEST_CASE(variable_count_bindings_size_each_set)
{
   struct rig r;
   REQUIRE(rig_init(&r));
   /* Binding 0: one storage buffer; binding 4: up to 1000 sampled images,
    * variable count, partially bound, update after bind. */
   const VkDescriptorSetLayoutBinding b[] = {
       {4, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1000, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
   };
   const VkDescriptorBindingFlags flags[] = {VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT |
                                                 VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT |
                                                 VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT,
                                             0};
   VkDescriptorSetLayoutBindingFlagsCreateInfo fci = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO,
       .bindingCount = 2,
       .pBindingFlags = flags};
   VkDescriptorSetLayoutCreateInfo lci = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
       .pNext = &fci,
       .flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT,
       .bindingCount = 2,
       .pBindings = b};
   VkDescriptorSetVariableDescriptorCountLayoutSupport vs = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_LAYOUT_SUPPORT};
   VkDescriptorSetLayoutSupport support = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_SUPPORT,
                                           .pNext = &vs};
   vkppu_GetDescriptorSetLayoutSupport(r.device, &lci, &support);
   CHECK(support.supported);
   CHECK_EQ_U64(vs.maxVariableDescriptorCount, VKPPU_MAX_PER_SET_DESCRIPTORS - 1);
   VkDescriptorSetLayout layout = VK_NULL_HANDLE;
   REQUIRE(vkppu_CreateDescriptorSetLayout(r.device, &lci, NULL, &layout) == VK_SUCCESS);
   const struct vkppu_descriptor_set_layout *l = vkppu_descriptor_set_layout_from_handle(layout);
   REQUIRE(l->variable == vkppu_set_layout_binding(l, 4));
   CHECK_EQ_U64(l->variable->offset, 64);

   /* Pool room for 10 images: sets of 3 and 7 fit, then nothing. */
   VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4},
                                   {VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 10}};
   VkDescriptorPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                     .flags = VK_DESCRIPTOR_POOL_CREATE_UPDATE_AFTER_BIND_BIT |
                                              VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT,
                                     .maxSets = 4,
                                     .poolSizeCount = 2,
                                     .pPoolSizes = sizes};
   VkDescriptorPool pool = VK_NULL_HANDLE;
   REQUIRE(vkppu_CreateDescriptorPool(r.device, &pci, NULL, &pool) == VK_SUCCESS);
   VkDescriptorSetLayout layouts[2] = {layout, layout};
   uint32_t counts[2] = {3, 7};
   VkDescriptorSetVariableDescriptorCountAllocateInfo vai = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_ALLOCATE_INFO,
       .descriptorSetCount = 2,
       .pDescriptorCounts = counts};
   VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                     .pNext = &vai,
                                     .descriptorPool = pool,
                                     .descriptorSetCount = 2,
                                     .pSetLayouts = layouts};
   VkDescriptorSet sets[2] = {0};
   REQUIRE(vkppu_AllocateDescriptorSets(r.device, &ai, sets) == VK_SUCCESS);
   const struct vkppu_descriptor_set *s0 = vkppu_descriptor_set_from_handle(sets[0]);
   CHECK_EQ_U64(s0->bytes, 64 + 3 * DRV_IMAGE_DESCRIPTOR_SIZE);
   CHECK_EQ_U64(vkppu_descriptor_set_from_handle(sets[1])->bytes,
                64 + 7 * DRV_IMAGE_DESCRIPTOR_SIZE);
   counts[0] = 1;
   vai.descriptorSetCount = 1;
   ai.descriptorSetCount = 1;
   VkDescriptorSet extra = VK_NULL_HANDLE;
   CHECK(vkppu_AllocateDescriptorSets(r.device, &ai, &extra) == VK_ERROR_OUT_OF_POOL_MEMORY);
   /* Without a count the variable binding is empty, which still fits. */
   ai.pNext = NULL;
   REQUIRE(vkppu_AllocateDescriptorSets(r.device, &ai, &extra) == VK_SUCCESS);
   CHECK_EQ_U64(vkppu_descriptor_set_from_handle(extra)->bytes, 64);

   /* A write runs to the set's own count and no further: elements 1..2 of
    * set 0 are written, the 4th is dropped, memory past the set untouched. */
   struct vkppu_image_view views[4];
   VkDescriptorImageInfo infos[4];
   for (uint32_t i = 0; i < 4; i++) {
      views[i] = (struct vkppu_image_view){.header = test_view_header(i + 1)};
      infos[i] = (VkDescriptorImageInfo){VK_NULL_HANDLE, vkppu_image_view_to_handle(&views[i]),
                                         VK_IMAGE_LAYOUT_GENERAL};
   }
   uint8_t after[64];
   memcpy(after, s0->map + s0->bytes, sizeof(after));
   VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                             .dstSet = sets[0],
                             .dstBinding = 4,
                             .dstArrayElement = 1,
                             .descriptorCount = 3,
                             .descriptorType = VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE,
                             .pImageInfo = infos};
   vkppu_UpdateDescriptorSets(r.device, 1, &w, 0, NULL);
   CHECK(bytes_are_zero(s0->map + 64, 64)); /* element 0: partially bound, never written */
   CHECK(bytes_are(s0->map + 128, &views[0].header, 64));
   CHECK(bytes_are(s0->map + 192, &views[1].header, 64));
   CHECK(memcmp(s0->map + s0->bytes, after, sizeof(after)) == 0);

   /* Freeing gives the counts back. */
   CHECK(vkppu_FreeDescriptorSets(r.device, pool, 1, &sets[1]) == VK_SUCCESS);
   counts[0] = 7;
   ai.pNext = &vai;
   REQUIRE(vkppu_AllocateDescriptorSets(r.device, &ai, &sets[1]) == VK_SUCCESS);
   vkppu_DestroyDescriptorPool(r.device, pool, NULL);
   vkppu_DestroyDescriptorSetLayout(r.device, layout, NULL);
   rig_finish(&r);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
