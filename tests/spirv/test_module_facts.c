/* Facts a compiler reads from the corpus: scalar types of every width,
 * matrices, structured control flow (loop and selection merges, switch
 * targets), OpPhi operands, functions and calls, capabilities of subgroup
 * and atomic shaders, extended instruction sets, and image types. */
#include <string.h>

#include "spirv_test_util.h"
#include "test_harness.h"

static bool has_scalar(const struct spirv_module *m, enum spirv_type_kind kind, uint32_t width,
                       bool is_signed)
{
   for (uint32_t id = 1; id < spirv_module_bound(m); id++) {
      const struct spirv_type *t = spirv_type(m, id);
      if (t && t->kind == kind && t->u.scalar.width == width &&
          (kind == SPIRV_TYPE_FLOAT || t->u.scalar.is_signed == is_signed))
         return true;
   }
   return false;
}

static uint32_t count_opcode(const struct spirv_module *m, uint32_t opcode)
{
   uint32_t n = 0;
   for (uint32_t i = 0; i < spirv_module_inst_count(m); i++)
      n += spirv_module_inst(m, i)->opcode == opcode;
   return n;
}

TEST_CASE(explicit_arithmetic_types_have_their_widths_and_capabilities)
{
   static const struct {
      const char *shader;
      enum spirv_type_kind kind;
      uint32_t width;
      uint32_t capability;
   } cases[] = {
       {"int8_types", SPIRV_TYPE_INT, 8, SPIRV_CAPABILITY_Int8},
       {"int16_types", SPIRV_TYPE_INT, 16, SPIRV_CAPABILITY_Int16},
       {"int64_types", SPIRV_TYPE_INT, 64, SPIRV_CAPABILITY_Int64},
       {"float16_types", SPIRV_TYPE_FLOAT, 16, SPIRV_CAPABILITY_Float16},
       {"float64_types", SPIRV_TYPE_FLOAT, 64, SPIRV_CAPABILITY_Float64},
   };
   for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      struct spirv_module *m = spirv_test_parse(cases[i].shader);
      if (!m)
         continue;
      CHECK_MSG(has_scalar(m, cases[i].kind, cases[i].width, true), "%s", cases[i].shader);
      CHECK_MSG(spirv_module_has_capability(m, cases[i].capability), "%s", cases[i].shader);
      spirv_module_destroy(m);
   }
}

TEST_CASE(sixty_four_bit_constants_keep_both_words)
{
   struct spirv_module *m = spirv_test_parse("int64_types");
   REQUIRE(m);
   bool found = false;
   for (uint32_t id = 1; id < spirv_module_bound(m); id++) {
      const struct spirv_constant *c = spirv_constant(m, id);
      found |= c && c->kind == SPIRV_CONSTANT_SCALAR && c->value[0] == 0xfedcba9876543210ull;
   }
   CHECK(found);
   spirv_module_destroy(m);
}

TEST_CASE(matrices_have_float_vector_columns)
{
   struct spirv_module *m = spirv_test_parse("matrix_types");
   REQUIRE(m);
   uint32_t matrices = 0;
   for (uint32_t id = 1; id < spirv_module_bound(m); id++) {
      const struct spirv_type *t = spirv_type(m, id);
      if (!t || t->kind != SPIRV_TYPE_MATRIX)
         continue;
      matrices++;
      const struct spirv_type *column = spirv_type(m, t->u.matrix.column_type);
      CHECK(column->kind == SPIRV_TYPE_VECTOR);
      CHECK(spirv_type(m, spirv_type_scalar(m, id))->kind == SPIRV_TYPE_FLOAT);
   }
   CHECK(matrices >= 6); /* mat2, mat3, mat4, mat2x3, mat3x4, mat4x2 */
   spirv_module_destroy(m);
}

TEST_CASE(loops_have_merge_and_continue_blocks)
{
   struct spirv_module *m = spirv_test_parse("loops");
   REQUIRE(m);
   uint32_t loops = 0;
   for (uint32_t b = 0; spirv_module_block(m, b); b++) {
      const struct spirv_block *block = spirv_module_block(m, b);
      if (block->merge_kind != SPIRV_MERGE_LOOP)
         continue;
      loops++;
      CHECK(spirv_block_by_label(m, block->merge_block) != NULL);
      CHECK(spirv_block_by_label(m, block->continue_target) != NULL);
      CHECK(block->merge_block != block->continue_target);
   }
   CHECK_EQ_U64(loops, 3); /* for, while, do-while */
   spirv_module_destroy(m);
}

TEST_CASE(switch_block_lists_its_case_targets)
{
   struct spirv_module *m = spirv_test_parse("switch");
   REQUIRE(m);
   bool found = false;
   for (uint32_t b = 0; spirv_module_block(m, b); b++) {
      const struct spirv_block *block = spirv_module_block(m, b);
      if (spirv_module_inst(m, block->terminator)->opcode != SPIRV_OP_Switch)
         continue;
      found = true;
      CHECK(block->merge_kind == SPIRV_MERGE_SELECTION);
      uint32_t labels[16];
      /* default + cases 0, 1, 2, 3, -5 */
      CHECK_EQ_U64(spirv_block_successors(m, block, labels, 16), 6);
   }
   CHECK(found);
   spirv_module_destroy(m);
}

TEST_CASE(phi_operands_pair_values_with_parent_blocks)
{
   struct spirv_module *m = spirv_test_parse("phi");
   REQUIRE(m);
   uint32_t phis = 0;
   for (uint32_t i = 0; i < spirv_module_inst_count(m); i++) {
      const struct spirv_inst *inst = spirv_module_inst(m, i);
      if (inst->opcode != SPIRV_OP_Phi)
         continue;
      phis++;
      uint32_t value, parent, k = 0;
      while (spirv_phi_incoming(m, inst, k, &value, &parent)) {
         CHECK(spirv_block_by_label(m, parent) != NULL);
         CHECK(spirv_id_type(m, value) == inst->result_type);
         k++;
      }
      CHECK(k >= 2);
   }
   CHECK(phis >= 1);
   spirv_module_destroy(m);
}

TEST_CASE(functions_and_calls)
{
   struct spirv_module *m = spirv_test_parse("functions");
   REQUIRE(m);
   CHECK_EQ_U64(spirv_module_function_count(m), 4); /* main, square, split, accumulate */
   CHECK(count_opcode(m, SPIRV_OP_FunctionCall) >= 4);
   const struct spirv_entry_point *ep = spirv_module_entry_point(m, 0);
   const struct spirv_function *main_fn = spirv_function_by_id(m, ep->function_id);
   REQUIRE(main_fn);
   CHECK_EQ_U64(main_fn->parameter_count, 0);
   bool has_three_params = false;
   for (uint32_t f = 0; f < spirv_module_function_count(m); f++)
      has_three_params |= spirv_module_function(m, f)->parameter_count == 3; /* split */
   CHECK(has_three_params);
   spirv_module_destroy(m);
}

TEST_CASE(subgroup_atomic_and_barrier_shaders_declare_what_they_use)
{
   struct spirv_module *m = spirv_test_parse("subgroup_arithmetic");
   REQUIRE(m);
   CHECK(spirv_module_has_capability(m, SPIRV_CAPABILITY_GroupNonUniformArithmetic));
   CHECK(spirv_module_has_capability(m, SPIRV_CAPABILITY_GroupNonUniformClustered));
   CHECK(count_opcode(m, SPIRV_OP_GroupNonUniformFAdd) >= 1);
   spirv_module_destroy(m);
   m = spirv_test_parse("atomics");
   REQUIRE(m);
   CHECK(count_opcode(m, SPIRV_OP_AtomicIAdd) == 1);
   CHECK(count_opcode(m, SPIRV_OP_AtomicCompareExchange) == 1);
   spirv_module_destroy(m);
   m = spirv_test_parse("barriers");
   REQUIRE(m);
   CHECK(count_opcode(m, SPIRV_OP_ControlBarrier) >= 2);
   CHECK(count_opcode(m, SPIRV_OP_MemoryBarrier) >= 3);
   spirv_module_destroy(m);
}

TEST_CASE(glsl_std_450_instructions_name_the_imported_set)
{
   struct spirv_module *m = spirv_test_parse("glsl_std450");
   REQUIRE(m);
   uint32_t ext = 0;
   for (uint32_t i = 0; i < spirv_module_inst_count(m); i++) {
      const struct spirv_inst *inst = spirv_module_inst(m, i);
      if (inst->opcode != SPIRV_OP_ExtInst)
         continue;
      ext++;
      const uint32_t set = spirv_inst_operand_word(m, inst, 0);
      CHECK(spirv_ext_inst_set_kind(m, set) == SPIRV_EXT_INST_SET_GLSL_STD_450);
   }
   CHECK(ext >= 15);
   spirv_module_destroy(m);
}

TEST_CASE(image_and_sampler_types)
{
   struct spirv_module *m = spirv_test_parse("images");
   REQUIRE(m);
   uint32_t images = 0, sampled = 0;
   for (uint32_t id = 1; id < spirv_module_bound(m); id++) {
      const struct spirv_type *t = spirv_type(m, id);
      images += t && t->kind == SPIRV_TYPE_IMAGE;
      sampled += t && t->kind == SPIRV_TYPE_SAMPLED_IMAGE;
   }
   CHECK(images >= 4);
   CHECK(sampled >= 2);
   spirv_module_destroy(m);
}

TEST_CASE(entry_point_lookup_by_name_and_stage)
{
   struct spirv_module *m = spirv_test_parse("shared_memory");
   REQUIRE(m);
   CHECK(spirv_find_entry_point(m, "main", SPIRV_EXECUTION_MODEL_GLCompute) != NULL);
   CHECK(spirv_find_entry_point(m, "main", SPIRV_EXECUTION_MODEL_Fragment) == NULL);
   CHECK(spirv_find_entry_point(m, "other", SPIRV_EXECUTION_MODEL_GLCompute) == NULL);
   const struct spirv_entry_point *ep = spirv_module_entry_point(m, 0);
   CHECK(spirv_entry_point_mode_count(m, ep) >= 1);
   CHECK(spirv_entry_point_mode(m, ep, 0)->mode == SPIRV_EXECUTION_MODE_LocalSize);
   /* SPIR-V 1.4+: the interface lists every global variable used. */
   uint32_t workgroup = 0;
   for (uint32_t i = 0; i < spirv_module_global_variable_count(m); i++)
      workgroup +=
          spirv_module_global_variable(m, i)->storage_class == SPIRV_STORAGE_CLASS_Workgroup;
   CHECK_EQ_U64(workgroup, 2);
   CHECK(ep->interface_count >= 4);
   spirv_module_destroy(m);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
