/* Spec constants: defaults, SpecId lookup, specialization by id -> bytes,
 * OpSpecConstantOp evaluation, and workgroup sizes from local_size_x_id. */
#include <string.h>

#include "spirv_test_util.h"
#include "test_harness.h"

/* The constant decorated SpecId id, or NULL. */
static const struct spirv_constant *by_spec_id(const struct spirv_module *m, uint32_t spec_id)
{
   for (uint32_t id = 1; id < spirv_module_bound(m); id++) {
      const struct spirv_constant *c = spirv_constant(m, id);
      if (c && c->spec_id == spec_id)
         return c;
   }
   return NULL;
}

/* The spec-op constant with the given name set by glslang (OpName). */
static uint32_t named(const struct spirv_module *m, const char *name)
{
   for (uint32_t id = 1; id < spirv_module_bound(m); id++) {
      const char *n = spirv_id_name(m, id, SPIRV_NO_MEMBER);
      if (n && strcmp(n, name) == 0)
         return id;
   }
   return 0;
}

static uint32_t float_bits(float f)
{
   uint32_t b;
   memcpy(&b, &f, 4);
   return b;
}

TEST_CASE(spec_constant_defaults_come_from_the_module)
{
   struct spirv_module *m = spirv_test_parse("spec_constants");
   REQUIRE(m);
   const struct spirv_constant *count = by_spec_id(m, 0), *scale = by_spec_id(m, 1);
   const struct spirv_constant *enabled = by_spec_id(m, 2), *mask = by_spec_id(m, 3);
   REQUIRE(count && scale && enabled && mask);
   CHECK(count->is_spec && count->kind == SPIRV_CONSTANT_SCALAR);
   CHECK_EQ_U64(count->value[0], 4);
   CHECK_EQ_U64(scale->value[0], float_bits(2.5f));
   CHECK_EQ_U64(enabled->value[0], 1);
   CHECK_EQ_U64(mask->value[0], 0xf0);
   uint64_t v;
   REQUIRE(named(m, "DOUBLE_COUNT") != 0);
   CHECK(spirv_constant(m, named(m, "DOUBLE_COUNT"))->kind == SPIRV_CONSTANT_SPEC_OP);
   CHECK(spirv_constant_scalar(m, named(m, "DOUBLE_COUNT"), &v) && v == 9);
   CHECK(spirv_constant_scalar(m, named(m, "SHIFTED"), &v) && v == 0xf);
   CHECK(spirv_constant_scalar(m, named(m, "BOTH"), &v) && v == 1);
   spirv_module_destroy(m);
}

TEST_CASE(specialization_values_reach_spec_ops)
{
   struct spirv_module *m = spirv_test_parse("spec_constants");
   REQUIRE(m);
   const int32_t count = -3;
   const float scale = 0.125f;
   const uint32_t enabled = 1, mask = 0x1234;
   uint8_t data[16];
   memcpy(data, &count, 4);
   memcpy(data + 4, &scale, 4);
   memcpy(data + 8, &enabled, 4);
   memcpy(data + 12, &mask, 4);
   const struct spirv_specialization_entry entries[] = {
       {0, 0, 4}, {1, 4, 4}, {2, 8, 4}, {3, 12, 4}, {99, 0, 4} /* unused ids are ignored */};
   struct spirv_error error;
   REQUIRE(spirv_module_specialize(m, entries, 5, data, sizeof(data), &error));
   uint64_t v;
   CHECK_EQ_U64(by_spec_id(m, 0)->value[0], 0xfffffffdu);
   CHECK_EQ_U64(by_spec_id(m, 1)->value[0], float_bits(0.125f));
   CHECK(spirv_constant_scalar(m, named(m, "DOUBLE_COUNT"), &v) && v == 0xfffffffbu); /* -5 */
   CHECK(spirv_constant_scalar(m, named(m, "SHIFTED"), &v) && v == 0x123);
   CHECK(spirv_constant_scalar(m, named(m, "BOTH"), &v) && v == 0); /* -3 > 3 is false */
   /* Specializing again starts from the defaults. */
   REQUIRE(spirv_module_specialize(m, NULL, 0, NULL, 0, &error));
   CHECK(spirv_constant_scalar(m, named(m, "DOUBLE_COUNT"), &v) && v == 9);
   spirv_module_destroy(m);
}

TEST_CASE(specialization_rejects_out_of_range_and_mis_sized_entries)
{
   struct spirv_module *m = spirv_test_parse("spec_constants");
   REQUIRE(m);
   uint8_t data[4] = {0};
   struct spirv_error error;
   const struct spirv_specialization_entry past_end = {0, 2, 4};
   CHECK(!spirv_module_specialize(m, &past_end, 1, data, sizeof(data), &error));
   CHECK(strstr(error.message, "outside the 4 bytes") != NULL);
   const struct spirv_specialization_entry wrong_size = {0, 0, 2};
   CHECK(!spirv_module_specialize(m, &wrong_size, 1, data, sizeof(data), &error));
   CHECK(strstr(error.message, "SpecId 0 has 2 bytes") != NULL);
   spirv_module_destroy(m);
}

TEST_CASE(workgroup_size_follows_local_size_id_specialization)
{
   struct spirv_module *m = spirv_test_parse("local_size_id");
   REQUIRE(m);
   const struct spirv_entry_point *ep =
       spirv_find_entry_point(m, "main", SPIRV_EXECUTION_MODEL_GLCompute);
   REQUIRE(ep);
   uint32_t size[3];
   struct spirv_error error;
   REQUIRE(spirv_entry_point_workgroup_size(m, ep, size, &error));
   /* Defaults of local_size_x_id/y_id are 1; z is the literal 2. */
   CHECK_EQ_U64(size[0], 1);
   CHECK_EQ_U64(size[1], 1);
   CHECK_EQ_U64(size[2], 2);
   const uint32_t values[2] = {32, 4};
   const struct spirv_specialization_entry entries[] = {{0, 0, 4}, {1, 4, 4}};
   REQUIRE(spirv_module_specialize(m, entries, 2, values, sizeof(values), &error));
   REQUIRE(spirv_entry_point_workgroup_size(m, ep, size, &error));
   CHECK_EQ_U64(size[0], 32);
   CHECK_EQ_U64(size[1], 4);
   CHECK_EQ_U64(size[2], 2);
   spirv_module_destroy(m);
}

TEST_CASE(workgroup_size_from_literal_local_size)
{
   struct spirv_module *m = spirv_test_parse("builtins");
   REQUIRE(m);
   uint32_t size[3];
   struct spirv_error error;
   REQUIRE(spirv_entry_point_workgroup_size(m, spirv_module_entry_point(m, 0), size, &error));
   CHECK(size[0] == 4 && size[1] == 4 && size[2] == 4);
   spirv_module_destroy(m);
}

TEST_CASE(spec_sized_array_length_follows_specialization)
{
   struct spirv_module *m = spirv_test_parse("spec_array_size");
   REQUIRE(m);
   /* shared float scratch[N]: find the Workgroup variable's array type. */
   uint32_t array_type = 0;
   for (uint32_t i = 0; i < spirv_module_global_variable_count(m); i++) {
      const struct spirv_variable *v = spirv_module_global_variable(m, i);
      if (v->storage_class == SPIRV_STORAGE_CLASS_Workgroup)
         array_type = spirv_type(m, v->type_id)->u.pointer.pointee_type;
   }
   REQUIRE(array_type != 0);
   uint64_t length;
   REQUIRE(spirv_array_length(m, array_type, &length));
   CHECK_EQ_U64(length, 6);
   const int32_t values[2] = {11, 5};
   const struct spirv_specialization_entry entries[] = {{7, 0, 4}, {9, 4, 4}};
   struct spirv_error error;
   REQUIRE(spirv_module_specialize(m, entries, 2, values, sizeof(values), &error));
   REQUIRE(spirv_array_length(m, array_type, &length));
   CHECK_EQ_U64(length, 11);
   /* WEIGHTS = ivec2(N, N * 2 + BIAS): a spec composite over spec ops. */
   const struct spirv_constant *weights = spirv_constant(m, named(m, "WEIGHTS"));
   REQUIRE(weights && weights->kind == SPIRV_CONSTANT_COMPOSITE && weights->has_value);
   CHECK_EQ_U64(weights->value[0], 11);
   CHECK_EQ_U64(weights->value[1], 27);
   spirv_module_destroy(m);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
