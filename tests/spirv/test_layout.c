/* Buffer layout facts read from decorations match the GLSL std140/std430
 * rules (GLSL 4.60 spec 7.6.2.2 "Standard Uniform Block Layout"), and
 * descriptor decorations (Binding, DescriptorSet, Block, NonWritable,
 * BuiltIn) come out right. Expected offsets are worked out by hand in the
 * shader sources' comments. */
#include <string.h>

#include "spirv_test_util.h"
#include "test_harness.h"

static uint32_t type_named(const struct spirv_module *m, const char *name)
{
   for (uint32_t id = 1; id < spirv_module_bound(m); id++) {
      const char *n = spirv_id_name(m, id, SPIRV_NO_MEMBER);
      if (n && strcmp(n, name) == 0 && spirv_type(m, id))
         return id;
   }
   return 0;
}

struct expected_member {
   uint32_t offset, array_stride, matrix_stride, size;
   bool row_major;
};

static void check_members(const struct spirv_module *m, const char *struct_name,
                          const struct expected_member *expected, uint32_t count)
{
   const uint32_t type = type_named(m, struct_name);
   CHECK_MSG(type != 0, "no struct named %s", struct_name);
   if (!type)
      return;
   CHECK_EQ_U64(spirv_type(m, type)->u.structure.member_count, count);
   for (uint32_t i = 0; i < count; i++) {
      struct spirv_member_layout layout;
      CHECK_MSG(spirv_struct_member_layout(m, type, i, &layout), "%s member %u", struct_name, i);
      CHECK_MSG(layout.offset == expected[i].offset, "%s.%s offset %u, expected %u", struct_name,
                spirv_id_name(m, type, i), layout.offset, expected[i].offset);
      CHECK_MSG(layout.array_stride == expected[i].array_stride, "%s.%s array stride %u",
                struct_name, spirv_id_name(m, type, i), layout.array_stride);
      CHECK_MSG(layout.matrix_stride == expected[i].matrix_stride, "%s.%s matrix stride %u",
                struct_name, spirv_id_name(m, type, i), layout.matrix_stride);
      CHECK_MSG(layout.row_major == expected[i].row_major, "%s.%s row major", struct_name,
                spirv_id_name(m, type, i));
      CHECK_MSG(layout.size == expected[i].size, "%s.%s size %u, expected %u", struct_name,
                spirv_id_name(m, type, i), layout.size, expected[i].size);
   }
}

TEST_CASE(std140_uniform_block_offsets_follow_std140_rules)
{
   struct spirv_module *m = spirv_test_parse("std140_block");
   REQUIRE(m);
   const struct expected_member params[] = {
       {0, 0, 0, 4, false},     /* float scale */
       {16, 0, 0, 12, false},   /* vec3 direction */
       {32, 16, 0, 48, false},  /* float arr[3]: std140 rounds the stride up to 16 */
       {80, 0, 0, 24, false},   /* Light light (extent ends at 24; std140 pads to 32) */
       {112, 0, 16, 48, true},  /* row_major mat3 */
       {160, 0, 16, 32, false}, /* mat2: columns padded to vec4 */
       {192, 32, 0, 64, false}, /* Light lights[2] */
       {256, 0, 0, 8, false},   /* vec2 tail */
   };
   check_members(m, "Params", params, 8);
   const struct expected_member light[] = {
       {0, 0, 0, 12, false}, {12, 0, 0, 4, false}, {16, 0, 0, 8, false}};
   check_members(m, "Light", light, 3);
   const uint32_t block = type_named(m, "Params");
   CHECK(spirv_has_decoration(m, block, SPIRV_NO_MEMBER, SPIRV_DECORATION_Block));
   uint64_t size;
   CHECK(spirv_explicit_type_size(m, block, 0, false, &size) && size == 264);
   spirv_module_destroy(m);
}

TEST_CASE(std430_storage_block_offsets_follow_std430_rules)
{
   struct spirv_module *m = spirv_test_parse("std430_block");
   REQUIRE(m);
   const struct expected_member storage[] = {
       {0, 4, 0, 16, false},   /* float values[4]: std430 keeps the scalar stride */
       {16, 0, 0, 12, false},  /* vec3 position */
       {28, 0, 0, 4, false},   /* float weight packs after the vec3 */
       {32, 0, 0, 60, false},  /* Outer outer */
       {96, 0, 8, 24, true},   /* row_major mat2x3: 3 rows of vec2 */
       {120, 0, 0, 8, false},  /* double d */
       {128, 64, 0, 0, false}, /* Outer tail[] */
   };
   check_members(m, "Storage", storage, 7);
   const struct expected_member outer[] = {
       {0, 16, 0, 32, false}, {32, 0, 0, 4, false}, {48, 0, 0, 12, false}};
   check_members(m, "Outer", outer, 3);
   const struct expected_member inner[] = {{0, 0, 0, 4, false}, {8, 0, 0, 8, false}};
   check_members(m, "Inner", inner, 2);
   spirv_module_destroy(m);
}

TEST_CASE(push_constant_block_layout)
{
   struct spirv_module *m = spirv_test_parse("push_constants");
   REQUIRE(m);
   const struct expected_member push[] = {{0, 0, 0, 4, false},
                                          {4, 0, 0, 4, false},
                                          {8, 0, 0, 8, false},
                                          {16, 0, 16, 64, false},
                                          {80, 0, 0, 16, false}};
   check_members(m, "Push", push, 5);
   bool found = false;
   for (uint32_t i = 0; i < spirv_module_global_variable_count(m); i++) {
      const struct spirv_variable *v = spirv_module_global_variable(m, i);
      found |= v->storage_class == SPIRV_STORAGE_CLASS_PushConstant;
   }
   CHECK(found);
   spirv_module_destroy(m);
}

TEST_CASE(buffer_reference_pointers_are_physical_storage_buffer)
{
   struct spirv_module *m = spirv_test_parse("buffer_reference");
   REQUIRE(m);
   CHECK(spirv_module_addressing_model(m) == SPIRV_ADDRESSING_MODEL_PhysicalStorageBuffer64);
   CHECK(spirv_module_has_capability(m, SPIRV_CAPABILITY_PhysicalStorageBufferAddresses));
   const uint32_t node = type_named(m, "Node");
   REQUIRE(node);
   /* Node.next points back at Node through a forward-declared pointer. */
   const uint32_t next_type = spirv_struct_member_type(m, node, 1);
   const struct spirv_type *next = spirv_type(m, next_type);
   REQUIRE(next && next->kind == SPIRV_TYPE_POINTER);
   CHECK(next->u.pointer.storage_class == SPIRV_STORAGE_CLASS_PhysicalStorageBuffer);
   CHECK(next->u.pointer.pointee_type == node);
   const struct expected_member node_members[] = {{0, 0, 0, 16, false}, {16, 0, 0, 8, false}};
   check_members(m, "Node", node_members, 2);
   const struct expected_member push[] = {
       {0, 0, 0, 8, false}, {8, 0, 0, 8, false}, {16, 0, 0, 8, false}};
   check_members(m, "Push", push, 3);
   spirv_module_destroy(m);
}

TEST_CASE(descriptor_and_builtin_decorations)
{
   struct spirv_module *m = spirv_test_parse("runtime_array");
   REQUIRE(m);
   uint32_t seen = 0;
   for (uint32_t i = 0; i < spirv_module_global_variable_count(m); i++) {
      const struct spirv_variable *v = spirv_module_global_variable(m, i);
      uint32_t binding, set, builtin;
      const char *name = spirv_id_name(m, v->id, SPIRV_NO_MEMBER);
      if (name && strcmp(name, "inp") == 0) {
         CHECK(spirv_decoration_literal(m, v->id, SPIRV_NO_MEMBER, SPIRV_DECORATION_Binding,
                                        &binding) &&
               binding == 0);
         CHECK(spirv_decoration_literal(m, v->id, SPIRV_NO_MEMBER, SPIRV_DECORATION_DescriptorSet,
                                        &set) &&
               set == 0);
         const uint32_t block = spirv_type(m, v->type_id)->u.pointer.pointee_type;
         CHECK(spirv_has_decoration(m, block, SPIRV_NO_MEMBER, SPIRV_DECORATION_Block));
         CHECK(spirv_has_decoration(m, block, 1, SPIRV_DECORATION_NonWritable));
         CHECK(v->storage_class == SPIRV_STORAGE_CLASS_StorageBuffer);
         seen |= 1;
      } else if (name && strcmp(name, "many") == 0) {
         CHECK(spirv_decoration_literal(m, v->id, SPIRV_NO_MEMBER, SPIRV_DECORATION_Binding,
                                        &binding) &&
               binding == 1);
         const struct spirv_type *arr =
             spirv_type(m, spirv_type(m, v->type_id)->u.pointer.pointee_type);
         uint64_t n;
         CHECK(arr->kind == SPIRV_TYPE_ARRAY && spirv_array_length(m, arr->id, &n) && n == 4);
         seen |= 2;
      } else if (spirv_decoration_literal(m, v->id, SPIRV_NO_MEMBER, SPIRV_DECORATION_BuiltIn,
                                          &builtin)) {
         CHECK(builtin == SPIRV_BUILT_IN_GlobalInvocationId);
         CHECK(v->storage_class == SPIRV_STORAGE_CLASS_Input);
         seen |= 4;
      }
   }
   CHECK_EQ_U64(seen, 7);
   spirv_module_destroy(m);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
