/* Variables, access chains, loads, stores, atomics and barriers
 * (translate.h). Buffers follow driver/shader_abi.h: the descriptor set's
 * address comes from constant bank 0, the buffer's from its descriptor.
 * Buffer members use the explicit layout of their Offset / ArrayStride /
 * MatrixStride / RowMajor decorations (Vulkan spec "Offset and Stride
 * Assignment"); shared and Function memory use a natural layout of our own. */
#include <string.h>

#include "ppu/ray_query.h"
#include "translate.h"
#include "translate_graphics.h"

static bool is_physical_pointer_type(struct xl_ctx *c, uint32_t type)
{
   const struct spirv_type *t = spirv_type(c->m, type);
   return t && t->kind == SPIRV_TYPE_POINTER &&
          t->u.pointer.storage_class == SPIRV_STORAGE_CLASS_PhysicalStorageBuffer;
}

const struct xl_ptr *xl_ptr_of(struct xl_ctx *c, uint32_t id)
{
   if (id < c->bound && c->scope && c->scope->ptrs[id].set)
      return &c->scope->ptrs[id];
   if (id < c->bound && c->global_ptrs[id].set)
      return &c->global_ptrs[id];
   uint32_t type = spirv_id_type(c->m, id);
   if (id < c->bound && is_physical_pointer_type(c, type)) {
      /* A buffer device address used as a pointer (SPV_KHR_physical_storage_buffer). */
      struct xl_val v = xl_get(c, id);
      if (c->failed)
         return NULL;
      struct xl_ptr *p = &c->scope->ptrs[id];
      memset(p, 0, sizeof(*p));
      p->kind = XL_PTR_GLOBAL;
      p->base = xl_comp(c, v, 0);
      p->type = spirv_type(c->m, type)->u.pointer.pointee_type;
      p->explicit_layout = true;
      p->component = UINT32_MAX;
      p->set = true;
      return p;
   }
   xl_fail(c, "pointer %%%u is not into memory this compiler supports", id);
   return NULL;
}

/* Natural layout: scalars aligned to their size, arrays of elements rounded
 * to their alignment, structs in order. */
static bool natural_layout(struct xl_ctx *c, uint32_t type, uint32_t *size, uint32_t *align)
{
   const struct spirv_type *t = spirv_type(c->m, type);
   if (!t)
      return false;
   uint32_t es, ea;
   uint64_t n;
   switch (t->kind) {
   case SPIRV_TYPE_BOOL:
      *size = *align = 4;
      return true;
   case SPIRV_TYPE_POINTER:
      *size = *align = 8;
      return t->u.pointer.storage_class == SPIRV_STORAGE_CLASS_PhysicalStorageBuffer;
   case SPIRV_TYPE_INT:
   case SPIRV_TYPE_FLOAT:
      *size = *align = t->u.scalar.width / 8;
      return true;
   case SPIRV_TYPE_RAY_QUERY:
      /* The object the TTU works on (hw/include/ppu/ray_query.h). */
      *size = PPU_RAY_QUERY_BYTES;
      *align = PPU_RAY_QUERY_ALIGN;
      return true;
   case SPIRV_TYPE_VECTOR:
      if (!natural_layout(c, t->u.vector.component_type, &es, &ea))
         return false;
      *size = es * t->u.vector.component_count;
      *align = ea;
      return true;
   case SPIRV_TYPE_MATRIX:
      if (!natural_layout(c, t->u.matrix.column_type, &es, &ea))
         return false;
      *size = es * t->u.matrix.column_count;
      *align = ea;
      return true;
   case SPIRV_TYPE_ARRAY:
      if (!natural_layout(c, t->u.array.element_type, &es, &ea) ||
          !spirv_array_length(c->m, type, &n) || n * es > (1u << 24))
         return false;
      *size = (uint32_t)n * es;
      *align = ea;
      return true;
   case SPIRV_TYPE_STRUCT: {
      uint32_t off = 0, al = 4;
      for (uint32_t i = 0; i < t->u.structure.member_count; i++) {
         if (!natural_layout(c, spirv_struct_member_type(c->m, type, i), &es, &ea))
            return false;
         off = (off + ea - 1) / ea * ea + es;
         if (ea > al)
            al = ea;
      }
      *size = (off + al - 1) / al * al;
      *align = al;
      return true;
   }
   default:
      return false;
   }
}

static uint32_t natural_member_offset(struct xl_ctx *c, uint32_t type, uint32_t member)
{
   uint32_t off = 0, es = 0, ea = 4;
   for (uint32_t i = 0; i <= member; i++) {
      natural_layout(c, spirv_struct_member_type(c->m, type, i), &es, &ea);
      off = (off + ea - 1) / ea * ea;
      if (i < member)
         off += es;
   }
   return off;
}

static uint32_t array_stride(struct xl_ctx *c, const struct xl_ptr *p, uint32_t type)
{
   const struct spirv_type *t = spirv_type(c->m, type);
   uint32_t stride = 0, al;
   if (p->explicit_layout) {
      if (!spirv_decoration_literal(c->m, type, SPIRV_NO_MEMBER, SPIRV_DECORATION_ArrayStride,
                                    &stride))
         xl_fail(c, "array type %%%u in a buffer has no ArrayStride", type);
      return stride;
   }
   natural_layout(c, t->u.array.element_type, &stride, &al);
   return stride;
}

bool xl_pointer_value(struct xl_ctx *c, uint32_t id, struct xl_val *out)
{
   if (id >= c->bound || !c->scope || !c->scope->ptrs[id].set ||
       !is_physical_pointer_type(c, spirv_id_type(c->m, id)))
      return false;
   const struct xl_ptr *p = &c->scope->ptrs[id];
   *out = xl_new_val(c, spirv_id_type(c->m, id));
   uint32_t a = ir_new_vreg(c->ir, 2), dst = xl_comp(c, *out, 0);
   if (p->dyn)
      xl_op_imm(c, PPU_OP_IMADW, PPU_TYPE_U32, a, p->dyn, 1)->src[2] = p->base;
   else
      xl_mov(c, a, p->base, 2);
   /* IADD.U64 sign-extends its immediate; offsets stay below 2^31. */
   xl_op_imm(c, PPU_OP_IADD, PPU_TYPE_U64, dst, a, p->offset);
   return true;
}

static uint32_t scalar_bytes(struct xl_ctx *c, uint32_t type)
{
   struct xl_scalar s;
   xl_scalar_of(c, type, &s);
   return s.is_bool ? 4 : s.width / 8;
}

static uint32_t index_u32(struct xl_ctx *c, uint32_t id, bool *is_const, uint32_t *value)
{
   uint64_t v;
   if (spirv_constant_scalar(c->m, id, &v)) {
      *is_const = true;
      *value = (uint32_t)v;
      return 0;
   }
   *is_const = false;
   struct xl_val x = xl_get(c, id);
   if (c->failed)
      return 0;
   uint32_t r = xl_comp(c, x, 0);
   if (c->ir->vreg_size[r] != 1)
      xl_fail(c, "unsupported: 64-bit dynamic index");
   return r;
}

static void add_dyn(struct xl_ctx *c, struct xl_ptr *p, uint32_t index, uint32_t stride)
{
   uint32_t d = ir_new_vreg(c->ir, 1);
   if (p->dyn) {
      struct ir_insn *i = xl_op_imm(c, PPU_OP_IMAD, PPU_TYPE_U32, d, index, stride);
      i->src[2] = p->dyn;
   } else {
      xl_op_imm(c, PPU_OP_IMUL, PPU_TYPE_U32, d, index, stride);
   }
   p->dyn = d;
}

uint32_t xl_set_base(struct xl_ctx *c, uint32_t set)
{
   if (!c->set_base[set]) {
      uint32_t from = xl_hoist_mark(c);
      c->set_base[set] = ir_new_vreg(c->ir, 2);
      struct ir_insn *i = xl_op(c, PPU_OP_LDC, PPU_TYPE_U64, c->set_base[set], 0, 0);
      i->f.rb = 0; /* bank 0 */
      i->f.imm = DRV_ABI_CBANK_SET_ADDRESSES + 8 * set;
      xl_hoist_to_prologue(c, from);
   }
   return c->set_base[set];
}

/* The buffer address of element (const_index or dyn_index) of a binding. */
static uint32_t load_descriptor(struct xl_ctx *c, const struct drv_binding_layout *b, bool is_const,
                                uint32_t const_index, uint32_t dyn_index, uint32_t *range)
{
   uint32_t sb = xl_set_base(c, b->set), addr = sb;
   uint32_t off = b->offset + (is_const ? const_index * DRV_DESCRIPTOR_SIZE : 0);
   if (!is_const) {
      addr = ir_new_vreg(c->ir, 2);
      struct ir_insn *i =
          xl_op_imm(c, PPU_OP_IMADW, PPU_TYPE_U32, addr, dyn_index, DRV_DESCRIPTOR_SIZE);
      i->src[2] = sb;
   }
   uint32_t base = ir_new_vreg(c->ir, 2);
   struct ir_insn *ld = xl_op(c, PPU_OP_LD, PPU_TYPE_U64, base, addr, 0);
   ld->f.mode = PPU_SPACE_GLOBAL;
   ld->f.imm = off;
   /* driver/shader_abi.h: the descriptor's range follows its address. Used
    * by bounds checks and OpArrayLength; dead-code elimination drops it
    * when neither needs it. */
   *range = ir_new_vreg(c->ir, 1);
   struct ir_insn *r = xl_op(c, PPU_OP_LD, PPU_TYPE_U32, *range, addr, 0);
   r->f.mode = PPU_SPACE_GLOBAL;
   r->f.imm = off + 8;
   if (b->dynamic_index >= 0) {
      uint32_t dynoff = ir_new_vreg(c->ir, 1), slot = 0;
      if (!is_const)
         xl_op_imm(c, PPU_OP_SHL, PPU_TYPE_U32, slot = ir_new_vreg(c->ir, 1), dyn_index, 2);
      struct ir_insn *i = xl_op(c, PPU_OP_LDC, PPU_TYPE_U32, dynoff, slot, 0);
      i->f.rb = 0;
      i->f.imm = DRV_ABI_CBANK_DYNAMIC_OFFSETS +
                 4 * ((uint32_t)b->dynamic_index + (is_const ? const_index : 0));
      uint32_t sum = ir_new_vreg(c->ir, 2);
      i = xl_op_imm(c, PPU_OP_IMADW, PPU_TYPE_U32, sum, dynoff, 1);
      i->src[2] = base;
      base = sum;
   }
   return base;
}

/* A ray query object anywhere inside type (arrays of them, in practice). */
static bool holds_ray_query(struct xl_ctx *c, uint32_t type)
{
   for (int depth = 0; depth < 64; depth++) {
      const struct spirv_type *t = spirv_type(c->m, type);
      if (!t)
         return false;
      if (t->kind == SPIRV_TYPE_RAY_QUERY)
         return true;
      if (t->kind == SPIRV_TYPE_STRUCT) {
         for (uint32_t i = 0; i < t->u.structure.member_count; i++)
            if (holds_ray_query(c, spirv_struct_member_type(c->m, type, i)))
               return true;
         return false;
      }
      if (t->kind != SPIRV_TYPE_ARRAY)
         return false;
      type = t->u.array.element_type;
   }
   return false;
}

/* Places a Private or Function variable of p->type in local memory. */
static void allocate_local(struct xl_ctx *c, struct xl_ptr *p, uint32_t size, uint32_t align)
{
   uint32_t a = align > 16 ? align : 16;
   p->kind = XL_PTR_LOCAL;
   p->offset = (c->local_size + a - 1) & ~(a - 1);
   c->local_size = p->offset + size;
   p->region_start = p->offset;
   p->region_end = c->local_size;
   /* The TTU reads and writes a ray query object behind the compiler's
    * back (TTU.INIT latches the ray fields, PROCEED writes the hits), so
    * its bytes must stay in memory: never promote them to registers. */
   if (holds_ray_query(c, p->type))
      ir_mark_dynamic_local(c->ir, p->region_start, p->region_end);
}

static const struct drv_binding_layout *find_binding(struct xl_ctx *c, uint32_t var)
{
   uint32_t set = 0, binding = 0;
   spirv_decoration_literal(c->m, var, SPIRV_NO_MEMBER, SPIRV_DECORATION_DescriptorSet, &set);
   spirv_decoration_literal(c->m, var, SPIRV_NO_MEMBER, SPIRV_DECORATION_Binding, &binding);
   const struct drv_pipeline_abi *abi = c->req->abi;
   for (uint32_t i = 0; abi && i < abi->binding_count; i++)
      if (abi->bindings[i].set == set && abi->bindings[i].binding == binding)
         return &abi->bindings[i];
   return NULL;
}

static void store_leaves(struct xl_ctx *c, const struct xl_ptr *p, uint32_t addr, uint32_t type,
                         uint32_t offset, uint32_t vec_stride, struct xl_val v, uint32_t *n,
                         bool is_store);

bool xl_natural_layout(struct xl_ctx *c, uint32_t type, uint32_t *size, uint32_t *align)
{
   return natural_layout(c, type, size, align);
}

/* A descriptor-backed variable: a single descriptor is loaded once in the
 * prologue, an array's elements when an access chain picks one. False when
 * the pipeline layout has no such binding. */
static bool bind_descriptor(struct xl_ctx *c, uint32_t var, struct xl_ptr *p)
{
   const struct drv_binding_layout *b = find_binding(c, var);
   if (!b)
      return false;
   const struct spirv_type *t = spirv_type(c->m, p->type);
   if (t->kind == SPIRV_TYPE_ARRAY || t->kind == SPIRV_TYPE_RUNTIME_ARRAY) {
      p->binding = b;
   } else {
      uint32_t from = xl_hoist_mark(c);
      if (p->kind == XL_PTR_IMAGE)
         p->base = xl_image_descriptor_va(c, b, true, 0, 0);
      else
         p->base = load_descriptor(c, b, true, 0, 0, &p->range);
      xl_hoist_to_prologue(c, from);
   }
   p->descriptor_kind = b->kind;
   return true;
}

bool xl_setup_globals(struct xl_ctx *c)
{
   for (uint32_t g = 0; g < spirv_module_global_variable_count(c->m) && !c->failed; g++) {
      const struct spirv_variable *var = spirv_module_global_variable(c->m, g);
      const struct spirv_type *pt = spirv_type(c->m, var->type_id);
      /* Errors about a variable (its binding) name its OpVariable. */
      const struct spirv_inst *def = spirv_id_definition(c->m, var->id);
      c->cur_word = def ? def->word_offset : 0;
      c->cur_opcode = def ? def->opcode : 0;
      struct xl_ptr p;
      memset(&p, 0, sizeof(p));
      p.type = pt->u.pointer.pointee_type;
      p.component = UINT32_MAX;
      uint32_t size, align, builtin;
      switch (var->storage_class) {
      case SPIRV_STORAGE_CLASS_StorageBuffer:
      case SPIRV_STORAGE_CLASS_Uniform:
         p.kind = XL_PTR_GLOBAL;
         p.explicit_layout = true;
         if (!bind_descriptor(c, var->id, &p))
            continue; /* an error only if the shader uses it */
         break;
      case SPIRV_STORAGE_CLASS_UniformConstant: {
         /* An acceleration structure's descriptor is the header address,
          * loaded like a buffer's; an image's, sampler's or texel
          * buffer's holds the headers themselves, so its VA is the value
          * (driver/shader_abi.h). */
         const struct spirv_type *t = spirv_type(c->m, p.type);
         if (t->kind == SPIRV_TYPE_ARRAY || t->kind == SPIRV_TYPE_RUNTIME_ARRAY)
            t = spirv_type(c->m, t->u.array.element_type);
         if (!t)
            continue;
         if (t->kind == SPIRV_TYPE_ACCELERATION_STRUCTURE)
            p.kind = XL_PTR_ACCEL;
         else if (t->kind == SPIRV_TYPE_IMAGE || t->kind == SPIRV_TYPE_SAMPLER ||
                  t->kind == SPIRV_TYPE_SAMPLED_IMAGE)
            p.kind = XL_PTR_IMAGE;
         else
            continue;
         if (!bind_descriptor(c, var->id, &p))
            continue;
         break;
      }
      case SPIRV_STORAGE_CLASS_PushConstant:
         p.kind = XL_PTR_PUSH;
         p.explicit_layout = true;
         break;
      case SPIRV_STORAGE_CLASS_Workgroup:
         if (!natural_layout(c, p.type, &size, &align))
            continue;
         p.kind = XL_PTR_SHARED;
         p.offset = (c->shared_size + 15) & ~15u;
         c->shared_size = p.offset + size;
         /* An initializer is OpConstantNull (the front end checks), and
          * the SM zeroes a workgroup's shared memory before its first
          * instruction (docs/compute.md), so it needs no code. */
         break;
      case SPIRV_STORAGE_CLASS_RayPayloadKHR:
      case SPIRV_STORAGE_CLASS_CallableDataKHR:
         /* Outgoing payloads and callable data: the caller's local
          * memory, which the inlined callee addresses directly
          * (translate_ray_tracing.c binds its Incoming* variable there). */
      case SPIRV_STORAGE_CLASS_Private:
         if (!natural_layout(c, p.type, &size, &align))
            continue;
         allocate_local(c, &p, size, align);
         if (var->initializer) {
            uint32_t from = xl_hoist_mark(c), n = 0;
            struct xl_val v = xl_constant(c, var->initializer);
            store_leaves(c, &p, 0, p.type, p.offset, 0, v, &n, true);
            /* A ray-tracing stage is a function with its variables in
             * its frame: each call initializes them. */
            if (!c->rt_instance)
               xl_hoist_to_prologue(c, from);
         }
         break;
      case SPIRV_STORAGE_CLASS_Input:
         if (spirv_decoration_literal(c->m, var->id, SPIRV_NO_MEMBER, SPIRV_DECORATION_BuiltIn,
                                      &builtin)) {
            p.kind = XL_PTR_BUILTIN;
            p.builtin = builtin;
            p.builtin_leaves = xl_leaf_count(c, p.type);
            break;
         }
         /* a vertex attribute or fragment input: */
         __attribute__((fallthrough));
      case SPIRV_STORAGE_CLASS_Output:
         /* Graphics interface variables live in local memory; the
          * stage's prologue and epilogue move them (translate_graphics.h). */
         if (!c->gfx || !natural_layout(c, p.type, &size, &align))
            continue;
         allocate_local(c, &p, size, align);
         if (!xl_gfx_variable(c, var, &p))
            return false;
         break;
      default:
         continue;
      }
      p.set = true;
      c->global_ptrs[var->id] = p;
   }
   return !c->failed;
}

void xl_function_variable(struct xl_ctx *c, const struct spirv_inst *inst)
{
   const struct spirv_type *pt = spirv_type(c->m, inst->result_type);
   struct xl_ptr p;
   memset(&p, 0, sizeof(p));
   p.type = pt->u.pointer.pointee_type;
   p.component = UINT32_MAX;
   uint32_t size, align;
   if (!natural_layout(c, p.type, &size, &align)) {
      xl_fail(c, "unsupported Function variable type");
      return;
   }
   allocate_local(c, &p, size, align);
   p.set = true;
   c->scope->ptrs[inst->result_id] = p;
   if (inst->operand_count > 1) {
      uint32_t n = 0;
      struct xl_val v = xl_get(c, xl_word(c, inst, 1));
      store_leaves(c, &p, 0, p.type, p.offset, 0, v, &n, true);
   }
}

static void access_chain(struct xl_ctx *c, const struct spirv_inst *inst)
{
   const struct xl_ptr *base = xl_ptr_of(c, xl_word(c, inst, 0));
   if (!base)
      return;
   struct xl_ptr p = *base;
   for (uint32_t k = 1; k < inst->operand_count && !c->failed; k++) {
      bool is_const;
      uint32_t cidx = 0, dyn = index_u32(c, xl_word(c, inst, k), &is_const, &cidx);
      const struct spirv_type *t = spirv_type(c->m, p.type);
      if (p.binding) {
         if (p.kind == XL_PTR_IMAGE)
            p.base = xl_image_descriptor_va(c, p.binding, is_const, cidx, dyn);
         else
            p.base = load_descriptor(c, p.binding, is_const, cidx, dyn, &p.range);
         p.binding = NULL;
         p.type = t->u.array.element_type;
         continue;
      }
      if (p.kind == XL_PTR_BUILTIN) {
         /* A column of a matrix built-in (ObjectToWorldKHR) starts at
          * leaf column * rows; an array element (HitTriangleVertexPositions'
          * vec3) at leaf i * its leaves; a vector component is one leaf. */
         uint32_t first = p.component == UINT32_MAX ? 0 : p.component;
         uint32_t element = t->kind == SPIRV_TYPE_MATRIX  ? t->u.matrix.column_type
                            : t->kind == SPIRV_TYPE_ARRAY ? t->u.array.element_type
                                                          : t->u.vector.component_type;
         uint32_t leaves = xl_leaf_count(c, element);
         p.component = first + (is_const ? cidx * leaves : 0);
         p.type = element;
         if (!is_const) {
            /* A dynamic index: the leaves it skips, selected among the
             * built-in's leaves when the value is loaded. */
            add_dyn(c, &p, dyn, leaves);
         }
         continue;
      }
      switch (t->kind) {
      case SPIRV_TYPE_STRUCT: {
         if (!is_const) {
            xl_fail(c, "struct index must be constant");
            return;
         }
         if (p.explicit_layout) {
            struct spirv_member_layout l;
            if (!spirv_struct_member_layout(c->m, p.type, cidx, &l)) {
               xl_fail(c, "struct %%%u member %u has no explicit layout", p.type, cidx);
               return;
            }
            p.offset += l.offset;
            p.matrix_stride = l.matrix_stride;
            p.row_major = l.row_major;
         } else {
            p.offset += natural_member_offset(c, p.type, cidx);
         }
         p.type = spirv_struct_member_type(c->m, p.type, cidx);
         break;
      }
      case SPIRV_TYPE_ARRAY:
      case SPIRV_TYPE_RUNTIME_ARRAY: {
         uint32_t stride = array_stride(c, &p, p.type);
         if (is_const)
            p.offset += cidx * stride;
         else
            add_dyn(c, &p, dyn, stride);
         p.type = t->u.array.element_type;
         break;
      }
      case SPIRV_TYPE_MATRIX: {
         uint32_t col_type = t->u.matrix.column_type;
         uint32_t stride;
         if (p.explicit_layout && p.row_major)
            stride = scalar_bytes(c, col_type);
         else if (p.explicit_layout)
            stride = p.matrix_stride;
         else
            stride =
                scalar_bytes(c, col_type) * spirv_type(c->m, col_type)->u.vector.component_count;
         if (is_const)
            p.offset += cidx * stride;
         else
            add_dyn(c, &p, dyn, stride);
         p.type = col_type;
         break;
      }
      case SPIRV_TYPE_VECTOR: {
         uint32_t stride = p.explicit_layout && p.row_major && p.matrix_stride
                               ? p.matrix_stride
                               : scalar_bytes(c, t->u.vector.component_type);
         if (is_const)
            p.offset += cidx * stride;
         else
            add_dyn(c, &p, dyn, stride);
         p.type = t->u.vector.component_type;
         break;
      }
      default:
         xl_fail(c, "access chain into an unsupported type");
         return;
      }
   }
   if (p.binding) {
      xl_fail(c, "unsupported: a pointer to a whole descriptor array");
      return;
   }
   p.set = true;
   c->scope->ptrs[inst->result_id] = p;
}

/* Component stride of a pointer to a vector: a column of a row-major
 * matrix has its components MatrixStride apart (SPIR-V spec 2.18.2). */
static uint32_t pointee_vec_stride(struct xl_ctx *c, const struct xl_ptr *p)
{
   const struct spirv_type *t = spirv_type(c->m, p->type);
   if (t && t->kind == SPIRV_TYPE_VECTOR && p->explicit_layout && p->row_major)
      return p->matrix_stride;
   return 0;
}

/* The register operand addressing p's memory: a 64-bit pair for GLOBAL, a
 * 32-bit offset (or none) for the others. */
uint32_t xl_address_of(struct xl_ctx *c, const struct xl_ptr *p)
{
   if (p->kind != XL_PTR_GLOBAL)
      return p->dyn;
   if (!p->dyn)
      return p->base;
   uint32_t a = ir_new_vreg(c->ir, 2);
   struct ir_insn *i = xl_op_imm(c, PPU_OP_IMADW, PPU_TYPE_U32, a, p->dyn, 1);
   i->src[2] = p->base;
   return a;
}

static uint32_t access_bytes(enum ppu_type ty)
{
   switch (ty) {
   case PPU_TYPE_U8:
   case PPU_TYPE_S8:
      return 1;
   case PPU_TYPE_U16:
   case PPU_TYPE_S16:
      return 2;
   case PPU_TYPE_U64:
   case PPU_TYPE_S64:
      return 8;
   default:
      return 4;
   }
}

/* P0 = the access [dyn + offset, + bytes) lies within the descriptor's
 * range. Two compares, so that neither side can wrap: range >= offset +
 * bytes, and dyn <= range - offset - bytes. */
void xl_bounds_check_p0(struct xl_ctx *c, const struct xl_ptr *p, uint32_t offset, uint32_t bytes)
{
   uint32_t end = offset + bytes;
   struct ir_insn *i = xl_op_imm(c, PPU_OP_ISETP, PPU_TYPE_U32, 0, p->range, end);
   i->f.subop = PPU_CMP_GE;
   i->f.pd = 0;
   if (!p->dyn)
      return;
   uint32_t room = ir_new_vreg(c->ir, 1);
   xl_op_imm(c, PPU_OP_ISUB, PPU_TYPE_U32, room, p->range, end);
   i = xl_op(c, PPU_OP_ISETP, PPU_TYPE_U32, 0, p->dyn, room);
   i->f.subop = PPU_CMP_LE;
   i->f.pd = 0;
   i->f.ps = 0;
}

bool xl_is_checked(struct xl_ctx *c, const struct xl_ptr *p)
{
   return p->kind == XL_PTR_GLOBAL && p->range && c->req->abi && c->req->abi->robust_buffer_access;
}

/* OpArrayLength: (range - offset of the runtime array) / stride, the
 * number of whole elements the descriptor's range holds (SPIR-V spec
 * 3.52.8, Vulkan "OpArrayLength"). */
static void array_length(struct xl_ctx *c, const struct spirv_inst *inst)
{
   const struct xl_ptr *p = xl_ptr_of(c, xl_word(c, inst, 0));
   if (!p)
      return;
   uint32_t member = xl_word(c, inst, 1);
   struct spirv_member_layout l;
   if (p->kind != XL_PTR_GLOBAL || !p->range ||
       !spirv_struct_member_layout(c->m, p->type, member, &l)) {
      xl_fail(c, "OpArrayLength needs a buffer from a descriptor");
      return;
   }
   uint32_t stride = array_stride(c, p, l.type_id);
   if (!stride || c->failed) {
      xl_fail(c, "runtime array without an ArrayStride");
      return;
   }
   uint32_t start = p->offset + l.offset;
   struct xl_val d = xl_new_val(c, inst->result_type);
   uint32_t bytes = ir_new_vreg(c->ir, 1), len = ir_new_vreg(c->ir, 1);
   xl_op_imm(c, PPU_OP_ISUB, PPU_TYPE_U32, bytes, p->range, start);
   xl_op_imm(c, PPU_OP_IDIV, PPU_TYPE_U32, len, bytes, stride);
   /* A range shorter than the array's offset holds no element. */
   struct ir_insn *i = xl_op_imm(c, PPU_OP_ISETP, PPU_TYPE_U32, 0, p->range, start);
   i->f.subop = PPU_CMP_GE;
   i->f.pd = 0;
   i = xl_op(c, PPU_OP_SEL, PPU_TYPE_U32, xl_comp(c, d, 0), len, 0);
   i->f.rb = PPU_RZ;
   i->f.ps = 0;
   xl_set(c, inst->result_id, d);
}

/* The memory type of a scalar: narrow loads extend per the value's
 * signedness (16-bit floats as raw bits). */
static enum ppu_type mem_type(struct xl_ctx *c, uint32_t scalar_type, uint32_t reg)
{
   struct xl_scalar s;
   if (c->ir->vreg_size[reg] == 2)
      return PPU_TYPE_U64;
   if (!xl_scalar_of(c, scalar_type, &s) || s.is_bool || s.width == 32)
      return PPU_TYPE_U32;
   bool sign = s.is_signed && !s.is_float;
   if (s.width == 16)
      return sign ? PPU_TYPE_S16 : PPU_TYPE_U16;
   return sign ? PPU_TYPE_S8 : PPU_TYPE_U8;
}

void xl_mem_scalar(struct xl_ctx *c, const struct xl_ptr *p, uint32_t addr, uint32_t offset,
                   uint32_t reg, bool is_store, enum ppu_type ty)
{
   struct ir_insn *i;
   if (p->kind == XL_PTR_LOCAL && addr && !p->absolute)
      ir_mark_dynamic_local(c->ir, p->region_start, p->region_end);
   if (p->kind == XL_PTR_PUSH) {
      if (ty != PPU_TYPE_U32 && ty != PPU_TYPE_U64) {
         /* LDC reads whole words: load the aligned word and extract. */
         uint32_t word = ir_new_vreg(c->ir, 1),
                  bits = ty == PPU_TYPE_U8 || ty == PPU_TYPE_S8 ? 8 : 16;
         i = xl_op(c, PPU_OP_LDC, PPU_TYPE_U32, word, addr, 0);
         i->f.rb = 0;
         i->f.imm = offset & ~3u;
         if (addr) {
            xl_fail(c, "unsupported: dynamically indexed 8/16-bit push constants");
            return;
         }
         bool sign = ty == PPU_TYPE_S8 || ty == PPU_TYPE_S16;
         xl_op_imm(c, PPU_OP_BFE, sign ? PPU_TYPE_S32 : PPU_TYPE_U32, reg, word,
                   (offset & 3u) * 8 | bits << 8);
         return;
      }
      if (is_store) {
         xl_fail(c, "store to push constants");
         return;
      }
      i = xl_op(c, PPU_OP_LDC, ty, reg, addr, 0);
      i->f.rb = 0;
      i->f.imm = offset;
      return;
   }
   bool checked = xl_is_checked(c, p);
   if (checked) {
      xl_bounds_check_p0(c, p, offset, access_bytes(ty));
      if (!is_store) /* out-of-range loads read zero (Vulkan robustBufferAccess) */
         xl_op(c, PPU_OP_MOV, c->ir->vreg_size[reg] == 2 ? PPU_TYPE_U64 : PPU_TYPE_U32, reg, 0, 0)
             ->f.rb = PPU_RZ;
   }
   if (is_store) {
      /* Stores of narrow values take the unsigned width (no extension). */
      ty = ty == PPU_TYPE_S8 ? PPU_TYPE_U8 : ty == PPU_TYPE_S16 ? PPU_TYPE_U16 : ty;
      i = xl_op(c, PPU_OP_ST, ty, 0, addr, reg);
   } else {
      i = xl_op(c, PPU_OP_LD, ty, reg, addr, 0);
   }
   i->f.imm = offset;
   i->f.mode = p->kind == XL_PTR_GLOBAL   ? PPU_SPACE_GLOBAL
               : p->kind == XL_PTR_SHARED ? PPU_SPACE_SHARED
                                          : PPU_SPACE_LOCAL;
   if (checked)
      i->f.guard = 0; /* P0: in range */
   if (p->kind == XL_PTR_LOCAL && p->absolute)
      i->local_ref = IR_LOCAL_ABSOLUTE;
}

/* Loads (or stores) the leaves of `type` at offset, in leaf order. */
static void store_leaves(struct xl_ctx *c, const struct xl_ptr *p, uint32_t addr, uint32_t type,
                         uint32_t offset, uint32_t vec_stride, struct xl_val v, uint32_t *n,
                         bool is_store)
{
   const struct spirv_type *t = spirv_type(c->m, type);
   if (!t || c->failed)
      return;
   switch (t->kind) {
   case SPIRV_TYPE_POINTER:
      if (!is_physical_pointer_type(c, type)) {
         xl_fail(c, "unsupported pointer type in memory");
         return;
      }
      xl_mem_scalar(c, p, addr, offset, xl_comp(c, v, *n), is_store, PPU_TYPE_U64);
      (*n)++;
      return;
   case SPIRV_TYPE_BOOL:
   case SPIRV_TYPE_INT:
   case SPIRV_TYPE_FLOAT: {
      uint32_t reg = xl_comp(c, v, (*n)++);
      xl_mem_scalar(c, p, addr, offset, reg, is_store, mem_type(c, type, reg));
      return;
   }
   case SPIRV_TYPE_VECTOR: {
      uint32_t es = scalar_bytes(c, t->u.vector.component_type);
      for (uint32_t i = 0; i < t->u.vector.component_count; i++)
         store_leaves(c, p, addr, t->u.vector.component_type,
                      offset + i * (vec_stride ? vec_stride : es), 0, v, n, is_store);
      return;
   }
   case SPIRV_TYPE_MATRIX: {
      uint32_t col = t->u.matrix.column_type;
      const struct spirv_type *ct = spirv_type(c->m, col);
      uint32_t es = scalar_bytes(c, ct->u.vector.component_type);
      for (uint32_t i = 0; i < t->u.matrix.column_count; i++) {
         if (p->explicit_layout && p->row_major)
            store_leaves(c, p, addr, col, offset + i * es, p->matrix_stride, v, n, is_store);
         else if (p->explicit_layout)
            store_leaves(c, p, addr, col, offset + i * p->matrix_stride, 0, v, n, is_store);
         else
            store_leaves(c, p, addr, col, offset + i * es * ct->u.vector.component_count, 0, v, n,
                         is_store);
      }
      return;
   }
   case SPIRV_TYPE_ARRAY: {
      uint64_t len;
      spirv_array_length(c->m, type, &len);
      uint32_t stride = array_stride(c, p, type);
      for (uint32_t i = 0; i < len && !c->failed; i++)
         store_leaves(c, p, addr, t->u.array.element_type, offset + i * stride, 0, v, n, is_store);
      return;
   }
   case SPIRV_TYPE_STRUCT:
      for (uint32_t i = 0; i < t->u.structure.member_count && !c->failed; i++) {
         uint32_t mt = spirv_struct_member_type(c->m, type, i);
         struct xl_ptr q = *p;
         uint32_t moff;
         if (p->explicit_layout) {
            struct spirv_member_layout l;
            if (!spirv_struct_member_layout(c->m, type, i, &l)) {
               xl_fail(c, "struct %%%u member %u has no explicit layout", type, i);
               return;
            }
            moff = l.offset;
            q.matrix_stride = l.matrix_stride;
            q.row_major = l.row_major;
         } else {
            moff = natural_member_offset(c, type, i);
         }
         store_leaves(c, &q, addr, mt, offset + moff, 0, v, n, is_store);
      }
      return;
   default:
      xl_fail(c, "unsupported type in memory");
      return;
   }
}

/* Leaf comp + p->dyn of a built-in indexed dynamically: every leaf it can
 * be is read, and a chain of selects keeps the one the index names (an
 * index past the end reads the last leaf; SPIR-V leaves it undefined). */
static void load_builtin_dynamic(struct xl_ctx *c, const struct xl_ptr *p, uint32_t comp,
                                 uint32_t dst)
{
   uint32_t last = p->builtin_leaves ? p->builtin_leaves - 1 : 0;
   if (comp > last)
      comp = last;
   xl_mov(c, dst, xl_builtin_component(c, p->builtin, comp), 1);
   for (uint32_t leaf = comp + 1; leaf <= last && !c->failed; leaf++) {
      struct ir_insn *i = xl_op_imm(c, PPU_OP_ISETP, PPU_TYPE_U32, 0, p->dyn, leaf - comp);
      i->f.subop = PPU_CMP_GE;
      i->f.pd = 0;
      i = xl_op(c, PPU_OP_SEL, PPU_TYPE_U32, dst, xl_builtin_component(c, p->builtin, leaf), dst);
      i->f.ps = 0;
   }
}

/* The memory-access operands after the pointer (Volatile, Aligned,
 * Nontemporal and the Vulkan memory model's MakePointerAvailable,
 * MakePointerVisible and NonPrivatePointer with their scopes) are read
 * past, not acted on: every access is issued when the warp reaches it, in
 * program order, to the one memory all SMs see (availability and
 * visibility need no cache operations; barriers with memory semantics are
 * MEMBARs, translate_atomic.c; the model's caches hold tags only,
 * docs/timing.md), and accesses go a component at a time, so Aligned
 * changes nothing. So the Vulkan memory model's semantics hold as they are
 * (vulkanMemoryModel, tests/api/test_vulkan12.c). */
static void load(struct xl_ctx *c, const struct spirv_inst *inst)
{
   const struct xl_ptr *p = xl_ptr_of(c, xl_word(c, inst, 0));
   if (!p)
      return;
   struct xl_val v = xl_new_val(c, inst->result_type);
   if (c->failed)
      return;
   if (p->kind == XL_PTR_ACCEL) {
      xl_mov(c, xl_comp(c, v, 0), p->base, 2);
   } else if (p->kind == XL_PTR_TEXEL || p->binding) {
      xl_fail(c, p->binding ? "unsupported: loading a whole descriptor array"
                            : "an image texel pointer is only for atomics");
      return;
   } else if (p->kind == XL_PTR_IMAGE) {
      /* Header VAs: a combined descriptor keeps its sampler at
       * DRV_COMBINED_SAMPLER_OFFSET, whether the shader reads both
       * (a sampled image) or only the sampler. */
      bool combined = p->descriptor_kind == DRV_BINDING_COMBINED_IMAGE_SAMPLER;
      const struct spirv_type *t = spirv_type(c->m, p->type);
      if (t->kind == SPIRV_TYPE_SAMPLER && combined)
         xl_op_imm(c, PPU_OP_IADD, PPU_TYPE_U64, xl_comp(c, v, 0), p->base,
                   DRV_COMBINED_SAMPLER_OFFSET);
      else
         xl_mov(c, xl_comp(c, v, 0), p->base, 2);
      if (t->kind == SPIRV_TYPE_SAMPLED_IMAGE && combined) {
         xl_op_imm(c, PPU_OP_IADD, PPU_TYPE_U64, xl_comp(c, v, 1), p->base,
                   DRV_COMBINED_SAMPLER_OFFSET);
      } else if (t->kind == SPIRV_TYPE_SAMPLED_IMAGE) {
         /* A samplerBuffer is a sampled image in SPIR-V but a uniform
          * texel buffer in Vulkan: no sampler, and only fetches use it. */
         const struct spirv_type *img = spirv_type(c->m, t->u.sampled_image.image_type);
         if (!img || img->u.image.dim != SPIRV_DIM_Buffer) {
            xl_fail(c, "a sampled image needs a COMBINED_IMAGE_SAMPLER binding");
            return;
         }
         xl_op(c, PPU_OP_MOV, PPU_TYPE_U64, xl_comp(c, v, 1), 0, 0)->f.rb = PPU_RZ;
      }
   } else if (p->kind == XL_PTR_BUILTIN) {
      for (uint32_t k = 0; k < v.count; k++) {
         uint32_t comp = p->component == UINT32_MAX ? k : p->component + k;
         if (!p->dyn)
            xl_mov(c, xl_comp(c, v, k), xl_builtin_component(c, p->builtin, comp), 1);
         else
            load_builtin_dynamic(c, p, comp, xl_comp(c, v, k));
      }
   } else {
      v = xl_load_ptr(c, p);
   }
   xl_set(c, inst->result_id, v);
}

struct xl_val xl_load_ptr(struct xl_ctx *c, const struct xl_ptr *p)
{
   struct xl_val v = xl_new_val(c, p->type);
   uint32_t n = 0;
   if (!c->failed)
      store_leaves(c, p, xl_address_of(c, p), p->type, p->offset, pointee_vec_stride(c, p), v, &n,
                   false);
   return v;
}

void xl_store_ptr(struct xl_ctx *c, const struct xl_ptr *p, struct xl_val v)
{
   uint32_t n = 0;
   store_leaves(c, p, xl_address_of(c, p), p->type, p->offset, pointee_vec_stride(c, p), v, &n,
                true);
}

static void store(struct xl_ctx *c, const struct spirv_inst *inst)
{
   const struct xl_ptr *p = xl_ptr_of(c, xl_word(c, inst, 0));
   struct xl_val v = xl_get(c, xl_word(c, inst, 1));
   if (!p || c->failed)
      return;
   if (p->kind == XL_PTR_BUILTIN || p->kind == XL_PTR_PUSH || p->kind == XL_PTR_ACCEL ||
       p->kind == XL_PTR_IMAGE || p->kind == XL_PTR_TEXEL) {
      xl_fail(c, "store to read-only memory");
      return;
   }
   xl_store_ptr(c, p, v);
}

bool xl_translate_memory(struct xl_ctx *c, const struct spirv_inst *inst)
{
   switch (inst->opcode) {
   case SPIRV_OP_AccessChain:
   case SPIRV_OP_InBoundsAccessChain:
      access_chain(c, inst);
      return true;
   case SPIRV_OP_Load:
      load(c, inst);
      return true;
   case SPIRV_OP_Store:
      store(c, inst);
      return true;
   case SPIRV_OP_ArrayLength:
      array_length(c, inst);
      return true;
   default:
      return false;
   }
}
