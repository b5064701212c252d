/* Explicit buffer layout read from decorations (Vulkan spec "Offset and
 * Stride Assignment"; SPIR-V spec 2.16.2: Block/BufferBlock members carry
 * Offset, arrays ArrayStride, matrices MatrixStride and RowMajor/ColMajor).
 * The compiler does not recompute std140/std430 rules: glslang already wrote
 * them into the decorations, which are the contract with the application. */
#include "spirv_internal.h"

/* Walks through arrays of the member type to find whether it holds
 * matrices (MatrixStride applies to the innermost matrix). */
static bool holds_matrix(const struct spirv_module *m, uint32_t type_id)
{
   const struct spirv_type *t = spirv_type(m, type_id);
   for (uint32_t d = 0; t && d <= SPIRV_MAX_TYPE_DEPTH; d++) {
      if (t->kind == SPIRV_TYPE_MATRIX)
         return true;
      if (t->kind != SPIRV_TYPE_ARRAY && t->kind != SPIRV_TYPE_RUNTIME_ARRAY)
         return false;
      t = spirv_type(m, t->u.array.element_type);
   }
   return false;
}

static bool explicit_size(const struct spirv_module *m, uint32_t type_id, uint32_t matrix_stride,
                          bool row_major, uint64_t *size, uint32_t depth)
{
   const struct spirv_type *t = spirv_type(m, type_id);
   if (!t || depth > SPIRV_MAX_TYPE_DEPTH)
      return false;
   switch (t->kind) {
   case SPIRV_TYPE_BOOL:
      return false; /* bools have no memory representation (spec 2.16.1) */
   case SPIRV_TYPE_INT:
   case SPIRV_TYPE_FLOAT:
      *size = t->u.scalar.width / 8;
      return true;
   case SPIRV_TYPE_VECTOR:
      *size = (uint64_t)t->u.vector.component_count *
              (spirv_type_scalar_width(m, t->u.vector.component_type) / 8);
      return true;
   case SPIRV_TYPE_MATRIX: {
      /* Column-major: one stride per column; row-major: one per row. */
      const struct spirv_type *column = spirv_type(m, t->u.matrix.column_type);
      if (matrix_stride == 0)
         return false;
      *size = (uint64_t)matrix_stride *
              (row_major ? column->u.vector.component_count : t->u.matrix.column_count);
      return true;
   }
   case SPIRV_TYPE_POINTER:
      /* PhysicalStorageBuffer pointers are 64-bit addresses. */
      *size = 8;
      return t->u.pointer.storage_class == SPIRV_STORAGE_CLASS_PhysicalStorageBuffer;
   case SPIRV_TYPE_RUNTIME_ARRAY:
      *size = 0;
      return true;
   case SPIRV_TYPE_ARRAY: {
      uint32_t stride;
      uint64_t length;
      if (!spirv_decoration_literal(m, type_id, SPIRV_NO_MEMBER, SPIRV_DECORATION_ArrayStride,
                                    &stride) ||
          !spirv_array_length(m, type_id, &length))
         return false;
      *size = length * stride;
      return true;
   }
   case SPIRV_TYPE_STRUCT: {
      uint64_t end = 0;
      for (uint32_t i = 0; i < t->u.structure.member_count; i++) {
         struct spirv_member_layout layout;
         if (!spirv_struct_member_layout(m, type_id, i, &layout))
            return false;
         uint64_t member_size;
         if (!explicit_size(m, layout.type_id, layout.matrix_stride, layout.row_major, &member_size,
                            depth + 1))
            return false;
         if (layout.offset + member_size > end)
            end = layout.offset + member_size;
      }
      *size = end;
      return true;
   }
   default:
      return false;
   }
}

bool spirv_struct_member_layout(const struct spirv_module *m, uint32_t struct_type, uint32_t member,
                                struct spirv_member_layout *layout)
{
   const uint32_t type_id = spirv_struct_member_type(m, struct_type, member);
   if (type_id == SPIRV_NO_ID)
      return false;
   layout->type_id = type_id;
   layout->matrix_stride = 0;
   layout->array_stride = 0;
   layout->size = 0;
   layout->row_major = spirv_has_decoration(m, struct_type, member, SPIRV_DECORATION_RowMajor);
   if (!spirv_decoration_literal(m, struct_type, member, SPIRV_DECORATION_Offset, &layout->offset))
      return false;
   if (holds_matrix(m, type_id) &&
       !spirv_decoration_literal(m, struct_type, member, SPIRV_DECORATION_MatrixStride,
                                 &layout->matrix_stride))
      return false;
   spirv_decoration_literal(m, type_id, SPIRV_NO_MEMBER, SPIRV_DECORATION_ArrayStride,
                            &layout->array_stride);
   uint64_t size;
   if (explicit_size(m, type_id, layout->matrix_stride, layout->row_major, &size, 0) &&
       size <= UINT32_MAX)
      layout->size = (uint32_t)size;
   return true;
}

bool spirv_explicit_type_size(const struct spirv_module *m, uint32_t type_id,
                              uint32_t matrix_stride, bool row_major, uint64_t *size)
{
   return explicit_size(m, type_id, matrix_stride, row_major, size, 0);
}
