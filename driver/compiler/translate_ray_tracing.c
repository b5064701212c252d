/* Ray-tracing pipeline stages as out-of-line functions on a per-thread
 * call stack (translate.h; the design is in docs/ray-tracing-pipeline.md).
 *
 * Every stage of a pipeline is its own SPIR-V module, translated once by
 * its own xl_ctx into one shared IR program as a function: its globals and
 * local variables are laid out in a static range that ir_lower_call_frames
 * (call_frames.h) turns into a frame on the stack, so a stage may run
 * again while it waits for a call (recursion through traceRayEXT and
 * executeCallableEXT). A call site selects the callee with a compare/branch
 * chain on the shader group index in the shader binding table record,
 * writes the callee's frame header (payload address, trace frame address,
 * record, depth) and CALLs it.
 *
 * OpTraceRayKHR reuses the ray-query lowering: a ray-query object (the
 * caller's trace *frame*, in its stack frame), TTU.INIT, then a PROCEED
 * loop whose candidates call the hit group's any-hit shader (non-opaque
 * triangles) or intersection shader (AABBs), then the closest-hit or miss
 * shader. Callees reach the payload and the trace frame through the
 * addresses in their header.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ppu/bvh.h"
#include "ppu/ray_query.h"
#include "call_frames.h"
#include "translate_ray_tracing.h"

/* A trace frame: the ray-query object, the committed / candidate / pending
 * hit attributes, then these 4-byte slots. */
enum frame_slot {
   SLOT_COMMITTED_KIND,
   SLOT_CANDIDATE_KIND,
   SLOT_PENDING_KIND,
   SLOT_CANDIDATE_T,
   SLOT_PENDING_T,
   SLOT_PENDING,  /* an intersection shader reported an accepted hit */
   SLOT_OUTCOME,  /* any-hit: 0 accept, 1 ignore, 2 terminate */
   SLOT_REPORTED, /* OpReportIntersectionKHR's result */
   /* The Ray Flags operand of OpTraceRayKHR as the shader passed it
    * (IncomingRayFlagsKHR): the ray-query object's flags also hold the
    * pipeline's SKIP_TRIANGLES / SKIP_AABBS, which the built-in must not
    * show. */
   SLOT_INCOMING_FLAGS,
   SLOT_COUNT,
};
#define FRAME_COMMITTED_ATTR PPU_RAY_QUERY_BYTES
#define FRAME_CANDIDATE_ATTR (FRAME_COMMITTED_ATTR + XL_RT_ATTRIBUTE_BYTES)
#define FRAME_PENDING_ATTR (FRAME_CANDIDATE_ATTR + XL_RT_ATTRIBUTE_BYTES)
#define FRAME_SLOTS (FRAME_PENDING_ATTR + XL_RT_ATTRIBUTE_BYTES)
#define FRAME_BYTES (FRAME_SLOTS + 4u * SLOT_COUNT)
#define SLOT(s) (FRAME_SLOTS + 4u * (uint32_t)(s))
/* A callee's frame header (IR_FRAME_HEADER bytes), written by its caller. */
#define HEADER_PAYLOAD 0u
#define HEADER_HIT_FRAME 4u
#define HEADER_RECORD 8u
#define HEADER_DEPTH 16u
_Static_assert(HEADER_DEPTH + 4 <= IR_FRAME_HEADER, "frame header");
#define OUTCOME_IGNORE 1u
#define OUTCOME_TERMINATE 2u
#define HIT_KIND_FRONT 0xfeu /* HitKindFrontFacingTriangleKHR */
#define HIT_KIND_BACK 0xffu

/* --- small emitters ------------------------------------------------------ */

static uint32_t vreg(struct xl_ctx *c, unsigned regs)
{
   return ir_new_vreg(c->ir, regs);
}

/* LD/ST.LOCAL at [addr + offset], addr a vreg holding a thread-local
 * address (or 0 for the absolute offset). */
static void local_at(struct xl_ctx *c, uint32_t addr, uint32_t offset, uint32_t reg, bool is_store,
                     enum ppu_type ty)
{
   struct ir_insn *i =
       is_store ? xl_op(c, PPU_OP_ST, ty, 0, addr, reg) : xl_op(c, PPU_OP_LD, ty, reg, addr, 0);
   i->f.mode = PPU_SPACE_LOCAL;
   i->f.imm = offset;
   i->local_ref = IR_LOCAL_ABSOLUTE;
}

static uint32_t load_at(struct xl_ctx *c, uint32_t addr, uint32_t offset)
{
   uint32_t r = vreg(c, 1);
   local_at(c, addr, offset, r, false, PPU_TYPE_U32);
   return r;
}

static void store_at(struct xl_ctx *c, uint32_t addr, uint32_t offset, uint32_t reg)
{
   local_at(c, addr, offset, reg, true, PPU_TYPE_U32);
}

static void store_imm_at(struct xl_ctx *c, uint32_t addr, uint32_t offset, uint32_t value)
{
   store_at(c, addr, offset, xl_imm32(c, value));
}

static uint32_t load_global(struct xl_ctx *c, uint32_t addr, uint32_t offset, enum ppu_type ty)
{
   uint32_t r = vreg(c, ty == PPU_TYPE_U64 ? 2 : 1);
   struct ir_insn *i = xl_op(c, PPU_OP_LD, ty, r, addr, 0);
   i->f.mode = PPU_SPACE_GLOBAL;
   i->f.imm = offset;
   return r;
}

static uint32_t load_cbank(struct xl_ctx *c, uint32_t offset, enum ppu_type ty)
{
   uint32_t r = vreg(c, ty == PPU_TYPE_U64 ? 2 : 1);
   struct ir_insn *i = xl_op(c, PPU_OP_LDC, ty, r, 0, 0);
   i->f.rb = 0; /* bank 0 */
   i->f.imm = offset;
   return r;
}

static uint32_t add_imm(struct xl_ctx *c, uint32_t a, uint32_t imm)
{
   uint32_t r = vreg(c, 1);
   xl_op_imm(c, PPU_OP_IADD, PPU_TYPE_U32, r, a, imm);
   return r;
}

/* P0 = (a cmp imm). */
static void compare_imm(struct xl_ctx *c, uint32_t a, enum ppu_cmp cmp, uint32_t imm)
{
   struct ir_insn *i = xl_op_imm(c, PPU_OP_ISETP, PPU_TYPE_U32, 0, a, imm);
   i->f.subop = (uint8_t)cmp;
   i->f.pd = 0;
}

static void ttu(struct xl_ctx *c, enum ppu_ttu_op op, uint32_t dst, uint32_t object, uint32_t b)
{
   struct ir_insn *i = xl_op(c, PPU_OP_TTU, PPU_TYPE_U32, dst, object, b);
   i->f.subop = (uint8_t)op;
}

/* --- functions ----------------------------------------------------------- */

/* Hands the shared layout (local memory, prologue) from one context to
 * another when translation moves between them. */
static void hand_over(struct xl_ctx *from, struct xl_ctx *to)
{
   to->local_size = from->local_size;
   to->prologue_end = from->prologue_end;
}

/* The function of stage `stage`, created (not yet translated) on first
 * use. */
static struct xl_rt_instance *function_for(struct xl_ctx *c, uint32_t stage)
{
   struct xl_rt_program *rt = c->rt;
   if (rt->instances[stage])
      return rt->instances[stage];
   struct xl_rt_instance *in = calloc(1, sizeof(*in));
   const struct xl_rt_stage *st = &rt->stages[stage];
   if (in)
      in->ctx.global_ptrs = calloc(spirv_module_bound(st->m), sizeof(struct xl_ptr));
   uint32_t frame = ir_new_frame(c->ir);
   if (!in || !in->ctx.global_ptrs || frame == UINT32_MAX) {
      if (in)
         free(in->ctx.global_ptrs);
      free(in);
      xl_fail(c, "out of memory");
      return NULL;
   }
   rt->instances[stage] = in;
   in->stage = stage;
   in->label = ir_new_label(c->ir);
   in->frame = frame;
   in->trace_frame = UINT32_MAX;
   struct xl_ctx *s = &in->ctx;
   s->m = st->m;
   s->req = &st->req;
   s->ir = c->ir;
   s->err = c->err;
   s->err_size = c->err_size;
   s->bound = spirv_module_bound(st->m);
   s->rt = rt;
   s->rt_instance = in;
   return in;
}

void xl_rt_program_free(struct xl_rt_program *rt)
{
   for (uint32_t i = 0; rt->instances && rt->req && i < rt->req->stage_count; i++) {
      if (!rt->instances[i])
         continue;
      free(rt->instances[i]->ctx.global_ptrs);
      free(rt->instances[i]->ctx.pool);
      free(rt->instances[i]);
   }
   free(rt->instances);
   rt->instances = NULL;
}

/* The trace frame of the function being translated, in its frame: traces
 * of one activation never overlap in time, so they share it. Returns the
 * vreg of its address. */
static uint32_t own_trace_frame(struct xl_ctx *c)
{
   struct xl_rt_instance *in = c->rt_instance;
   if (in->trace_frame == UINT32_MAX) {
      in->trace_frame = (c->local_size + PPU_RAY_QUERY_ALIGN - 1) & ~(PPU_RAY_QUERY_ALIGN - 1);
      c->local_size = in->trace_frame + FRAME_BYTES;
   }
   return add_imm(c, c->frame_base, in->trace_frame);
}

/* The thread-local address of a Local pointer's bytes. Static variables
 * handed to a callee stay in memory (never promoted to registers). */
static uint32_t address_of(struct xl_ctx *c, const struct xl_ptr *p)
{
   uint32_t base = p->dyn;
   if (!p->absolute) {
      ir_mark_dynamic_local(c->ir, p->region_start, p->region_end);
      base = c->frame_base;
      if (p->dyn) {
         base = vreg(c, 1);
         xl_op(c, PPU_OP_IADD, PPU_TYPE_U32, base, p->dyn, c->frame_base);
      }
   }
   return add_imm(c, base, p->offset);
}

/* A Local pointer to bytes at a thread-local address (vreg) + offset. */
static struct xl_ptr absolute_ptr(uint32_t addr, uint32_t offset, uint32_t type)
{
   struct xl_ptr p;
   memset(&p, 0, sizeof(p));
   p.kind = XL_PTR_LOCAL;
   p.set = true;
   p.absolute = true;
   p.dyn = addr;
   p.offset = offset;
   p.type = type;
   p.component = UINT32_MAX;
   return p;
}

static enum drv_rt_stage_kind stage_kind(const struct xl_rt_program *rt, uint32_t stage)
{
   return stage < rt->req->stage_count ? rt->req->stages[stage].kind : DRV_RT_STAGE_RAYGEN;
}

/* Points the function's Incoming* / HitAttribute / ShaderRecordBuffer
 * variables at what its caller passed. */
static void bind_variables(struct xl_ctx *s)
{
   const struct xl_rt_instance *in = s->rt_instance;
   enum drv_rt_stage_kind kind = stage_kind(s->rt, in->stage);
   for (uint32_t g = 0; g < spirv_module_global_variable_count(s->m); g++) {
      const struct spirv_variable *var = spirv_module_global_variable(s->m, g);
      const struct spirv_type *pt = spirv_type(s->m, var->type_id);
      uint32_t type = pt->u.pointer.pointee_type;
      struct xl_ptr *p = &s->global_ptrs[var->id];
      switch (var->storage_class) {
      case SPIRV_STORAGE_CLASS_IncomingRayPayloadKHR:
      case SPIRV_STORAGE_CLASS_IncomingCallableDataKHR:
         /* The same layout as the caller's variable, as Vulkan requires. */
         *p = absolute_ptr(in->payload, 0, type);
         break;
      case SPIRV_STORAGE_CLASS_HitAttributeKHR: {
         uint32_t size = 0, align = 0;
         if (!xl_natural_layout(s, type, &size, &align) || size > XL_RT_ATTRIBUTE_BYTES) {
            xl_fail(s, "hit attributes of more than %u bytes", XL_RT_ATTRIBUTE_BYTES);
            return;
         }
         *p = absolute_ptr(
             in->hit_frame,
             kind == DRV_RT_STAGE_CLOSEST_HIT ? FRAME_COMMITTED_ATTR : FRAME_CANDIDATE_ATTR, type);
         break;
      }
      case SPIRV_STORAGE_CLASS_ShaderRecordBufferKHR: {
         memset(p, 0, sizeof(*p));
         p->kind = XL_PTR_GLOBAL;
         p->set = true;
         p->explicit_layout = true;
         p->type = type;
         p->component = UINT32_MAX;
         /* The application's data follows the group handle. */
         p->base = vreg(s, 2);
         struct ir_insn *i = xl_op_imm(s, PPU_OP_IADD, PPU_TYPE_U64, p->base, in->record, 0);
         i->f.imm = DRV_RT_HANDLE_SIZE;
         break;
      }
      default:
         break;
      }
   }
}

/* Translates the function of `in` at the end of the program: the entry
 * loads its header, the stage runs like an inlined function (a guarded
 * RET from any depth comes back to the final RET). */
static void translate_function(struct xl_ctx *root, struct xl_rt_instance *in)
{
   struct xl_ctx *s = &in->ctx;
   in->translated = true;
   hand_over(root, s);
   s->local_size = (s->local_size + 15) & ~15u;
   uint32_t lo = s->local_size;
   ir_emit_label(s->ir, in->label);
   in->sp = load_at(s, 0, IR_STACK_SLOT);
   s->frame_base = add_imm(s, in->sp, IR_FRAME_HEADER - lo);
   in->payload = load_at(s, in->sp, HEADER_PAYLOAD);
   in->hit_frame = load_at(s, in->sp, HEADER_HIT_FRAME);
   in->record = vreg(s, 2);
   local_at(s, in->sp, HEADER_RECORD, in->record, false, PPU_TYPE_U64);
   in->depth = load_at(s, in->sp, HEADER_DEPTH);
   if (xl_setup_globals(s)) {
      bind_variables(s);
      if (!s->failed)
         xl_inline_stage(s, root->rt->stages[in->stage].entry);
   }
   xl_branch(s, PPU_OP_RET, IR_NO_LABEL, PPU_PT);
   struct ir_frame *f = &s->ir->frames[in->frame];
   f->lo = lo;
   f->hi = s->local_size;
   f->sp = in->sp;
   f->fbase = s->frame_base;
   f->entry_label = in->label;
   hand_over(s, root);
   if (s->failed)
      root->failed = true;
}

/* The caller's frame and stack pointer. */
static void caller_frame(struct xl_ctx *c, uint32_t *frame, uint32_t *sp)
{
   if (c->rt_instance) {
      *frame = c->rt_instance->frame;
      *sp = c->rt_instance->sp;
   } else {
      *frame = c->rt->root_frame;
      *sp = c->rt->root_sp;
   }
}

/* Calls stage `stage` with its header: payload and hit_frame addresses
 * (vregs, 0 for none), record (64-bit vreg), depth (vreg). */
static void call_stage(struct xl_ctx *c, uint32_t stage, uint32_t payload, uint32_t hit_frame,
                       uint32_t record, uint32_t depth)
{
   struct xl_rt_instance *callee = function_for(c, stage);
   if (!callee)
      return;
   uint32_t frame, sp;
   caller_frame(c, &frame, &sp);
   uint32_t callee_sp = vreg(c, 1);
   struct ir_insn *i = xl_op_imm(c, PPU_OP_IADD, PPU_TYPE_U32, callee_sp, sp, 0);
   i->frame_fixup = IR_FRAME_PLUS;
   i->frame_func = frame;
   store_at(c, 0, IR_STACK_SLOT, callee_sp);
   store_at(c, callee_sp, HEADER_PAYLOAD, payload ? payload : xl_imm32(c, 0));
   store_at(c, callee_sp, HEADER_HIT_FRAME, hit_frame ? hit_frame : xl_imm32(c, 0));
   local_at(c, callee_sp, HEADER_RECORD, record, true, PPU_TYPE_U64);
   store_at(c, callee_sp, HEADER_DEPTH, depth);
   i = ir_emit(c->ir, PPU_OP_CALL);
   i->label = callee->label;
   i->out_of_line = true;
   i->frame_func = frame;
}

/* --- shader binding table ------------------------------------------------ */

/* The record at table + stride * index (index a 32-bit vreg). */
static uint32_t record_address(struct xl_ctx *c, uint32_t table_offset, uint32_t stride_offset,
                               uint32_t index)
{
   uint32_t table = load_cbank(c, table_offset, PPU_TYPE_U64);
   uint32_t stride = load_cbank(c, stride_offset, PPU_TYPE_U32);
   uint32_t scaled = vreg(c, 1), addr = vreg(c, 2);
   xl_op(c, PPU_OP_IMUL, PPU_TYPE_U32, scaled, index, stride);
   xl_op_imm(c, PPU_OP_IMADW, PPU_TYPE_U32, addr, scaled, 1)->src[2] = table;
   return addr;
}

/* Lanes whose group index (handle word 0: group + 1) names group g of the
 * kind `wanted` run body(g); groups are taken one at a time, so a warp
 * whose lanes hit different shaders runs each shader with its lanes while
 * the others wait on the reconvergence stack (docs/ray-tracing-pipeline.md
 * "Divergence"). */
/* A group filter sees the pipeline and the stage being translated (the
 * caller of the switch). */
typedef bool (*group_filter)(const struct drv_rt_group *g, const struct xl_rt_program *rt,
                             uint32_t own_stage);
typedef void (*group_body)(struct xl_ctx *c, uint32_t group, void *arg);

static uint32_t own_stage(const struct xl_ctx *c)
{
   return c->rt_instance ? c->rt_instance->stage : DRV_RT_UNUSED;
}

static void group_switch(struct xl_ctx *c, uint32_t group_plus_one, group_filter wanted,
                         group_body body, void *arg)
{
   const struct xl_rt_program *rt = c->rt;
   uint32_t n = rt->req->group_count;
   uint32_t *cases = calloc(n ? n : 1, sizeof(*cases));
   if (!cases) {
      xl_fail(c, "out of memory");
      return;
   }
   uint32_t merge = ir_new_label(c->ir);
   xl_branch(c, PPU_OP_PBK, merge, PPU_PT);
   for (uint32_t g = 0; g < n; g++) {
      if (!wanted(&rt->req->groups[g], rt, own_stage(c)))
         continue;
      cases[g] = ir_new_label(c->ir);
      compare_imm(c, group_plus_one, PPU_CMP_EQ, g + 1);
      xl_branch(c, PPU_OP_BRA, cases[g], 0);
   }
   xl_branch(c, PPU_OP_BRK, merge, PPU_PT);
   for (uint32_t g = 0; g < n && !c->failed; g++) {
      if (!cases[g])
         continue;
      ir_emit_label(c->ir, cases[g]);
      body(c, g, arg);
      xl_branch(c, PPU_OP_BRK, merge, PPU_PT);
   }
   ir_emit_label(c->ir, merge);
   free(cases);
}

static bool is_raygen_group(const struct drv_rt_group *g, const struct xl_rt_program *rt,
                            uint32_t own)
{
   (void)own;
   return g->general != DRV_RT_UNUSED && stage_kind(rt, g->general) == DRV_RT_STAGE_RAYGEN;
}
static bool is_miss_group(const struct drv_rt_group *g, const struct xl_rt_program *rt,
                          uint32_t own)
{
   (void)own;
   return g->general != DRV_RT_UNUSED && stage_kind(rt, g->general) == DRV_RT_STAGE_MISS;
}
static bool is_callable_group(const struct drv_rt_group *g, const struct xl_rt_program *rt,
                              uint32_t own)
{
   (void)own;
   return g->general != DRV_RT_UNUSED && stage_kind(rt, g->general) == DRV_RT_STAGE_CALLABLE;
}
static bool has_closest_hit(const struct drv_rt_group *g, const struct xl_rt_program *rt,
                            uint32_t own)
{
   (void)rt;
   (void)own;
   return g->closest_hit != DRV_RT_UNUSED;
}
static bool has_any_hit(const struct drv_rt_group *g, const struct xl_rt_program *rt, uint32_t own)
{
   (void)rt;
   (void)own;
   return g->any_hit != DRV_RT_UNUSED;
}
static bool has_intersection(const struct drv_rt_group *g, const struct xl_rt_program *rt,
                             uint32_t own)
{
   (void)rt;
   (void)own;
   return g->intersection != DRV_RT_UNUSED;
}

static bool pipeline_has(const struct xl_ctx *c, group_filter f)
{
   const struct xl_rt_program *rt = c->rt;
   for (uint32_t g = 0; g < rt->req->group_count; g++)
      if (f(&rt->req->groups[g], rt, own_stage(c)))
         return true;
   return false;
}

/* --- traceRayEXT --------------------------------------------------------- */

struct trace_site {
   uint32_t frame;   /* vreg: the trace frame's address (the ray query object) */
   uint32_t payload; /* vreg: the payload's address */
   uint32_t depth;   /* vreg: the recursion depth of the shaders this trace calls */
   uint32_t sbt_offset, sbt_stride, miss_index, flags;
   uint32_t record; /* vreg of the current hit or miss record */
};

/* Hit group record of the candidate or committed hit at `hit` (Vulkan
 * "Hit Shaders": base + stride * (instance offset + geometry * sbt stride +
 * sbt offset)). */
static uint32_t hit_record(struct xl_ctx *c, const struct trace_site *t, uint32_t hit)
{
   uint32_t instance = load_at(c, t->frame, hit + offsetof(struct ppu_ray_query_hit, sbt_offset));
   uint32_t geometry =
       load_at(c, t->frame, hit + offsetof(struct ppu_ray_query_hit, geometry_index));
   uint32_t index = vreg(c, 1), sum = vreg(c, 1);
   xl_op(c, PPU_OP_IMAD, PPU_TYPE_U32, index, geometry, t->sbt_stride)->src[2] = t->sbt_offset;
   xl_op(c, PPU_OP_IADD, PPU_TYPE_U32, sum, index, instance);
   return record_address(c, DRV_ABI_CBANK_RT_HIT, DRV_ABI_CBANK_RT_HIT_STRIDE, sum);
}

static void call_any_hit(struct xl_ctx *c, uint32_t group, void *arg)
{
   const struct trace_site *t = arg;
   call_stage(c, c->rt->req->groups[group].any_hit, t->payload, t->frame, t->record, t->depth);
}

/* The hit kind of a triangle hit record: its facing. */
static uint32_t triangle_kind(struct xl_ctx *c, uint32_t frame, uint32_t hit)
{
   uint32_t front = load_at(c, frame, hit + offsetof(struct ppu_ray_query_hit, front_face));
   uint32_t kind = vreg(c, 1);
   compare_imm(c, front, PPU_CMP_NE, 0);
   xl_op(c, PPU_OP_SEL, PPU_TYPE_U32, kind, xl_imm32(c, HIT_KIND_FRONT), xl_imm32(c, HIT_KIND_BACK))
       ->f.ps = 0;
   return kind;
}

static void copy_words(struct xl_ctx *c, uint32_t frame, uint32_t dst, uint32_t src, uint32_t bytes)
{
   for (uint32_t k = 0; k < bytes; k += 4)
      store_at(c, frame, dst + k, load_at(c, frame, src + k));
}

/* A non-opaque triangle: its attributes are the barycentrics; the any-hit
 * shader (if the group has one) decides; then CONFIRM / TERMINATE. */
static void triangle_candidate(struct xl_ctx *c, struct trace_site *t, uint32_t group)
{
   uint32_t f = t->frame, cand = PPU_RQ_OFFSET_CANDIDATE;
   if (!pipeline_has(c, has_any_hit)) {
      ttu(c, PPU_TTU_CONFIRM, 0, f, 0);
      return;
   }
   copy_words(c, f, FRAME_CANDIDATE_ATTR, cand + offsetof(struct ppu_ray_query_hit, barycentrics),
              8);
   store_at(c, f, SLOT(SLOT_CANDIDATE_KIND), triangle_kind(c, f, cand));
   store_at(c, f, SLOT(SLOT_CANDIDATE_T),
            load_at(c, f, cand + offsetof(struct ppu_ray_query_hit, t)));
   store_imm_at(c, f, SLOT(SLOT_OUTCOME), 0);
   group_switch(c, group, has_any_hit, call_any_hit, t);
   uint32_t outcome = load_at(c, f, SLOT(SLOT_OUTCOME));
   compare_imm(c, outcome, PPU_CMP_NE, OUTCOME_IGNORE);
   struct xl_if_block accepted = xl_if_begin(c, false);
   ttu(c, PPU_TTU_CONFIRM, 0, f, 0);
   xl_if_end(c, accepted);
   compare_imm(c, outcome, PPU_CMP_EQ, OUTCOME_TERMINATE);
   struct xl_if_block terminate = xl_if_begin(c, false);
   ttu(c, PPU_TTU_TERMINATE, 0, f, 0);
   xl_if_end(c, terminate);
}

static void call_intersection(struct xl_ctx *c, uint32_t group, void *arg)
{
   const struct trace_site *t = arg;
   call_stage(c, c->rt->req->groups[group].intersection, t->payload, t->frame, t->record, t->depth);
}

/* An AABB: the intersection shader reports hits (report_intersection);
 * the closest accepted one is committed when it returns, because the TTU
 * takes one GENERATE per candidate. */
static void aabb_candidate(struct xl_ctx *c, struct trace_site *t, uint32_t group)
{
   if (!pipeline_has(c, has_intersection))
      return; /* no shader can report a hit: the candidate is dropped */
   uint32_t f = t->frame;
   store_imm_at(c, f, SLOT(SLOT_PENDING), 0);
   store_imm_at(c, f, SLOT(SLOT_OUTCOME), 0);
   store_at(c, f, SLOT(SLOT_PENDING_T),
            load_at(c, f, PPU_RQ_OFFSET_COMMITTED + offsetof(struct ppu_ray_query_hit, t)));
   group_switch(c, group, has_intersection, call_intersection, t);
   compare_imm(c, load_at(c, f, SLOT(SLOT_PENDING)), PPU_CMP_NE, 0);
   struct xl_if_block pending = xl_if_begin(c, false);
   ttu(c, PPU_TTU_GENERATE, 0, f, load_at(c, f, SLOT(SLOT_PENDING_T)));
   copy_words(c, f, FRAME_COMMITTED_ATTR, FRAME_PENDING_ATTR, XL_RT_ATTRIBUTE_BYTES);
   store_at(c, f, SLOT(SLOT_COMMITTED_KIND), load_at(c, f, SLOT(SLOT_PENDING_KIND)));
   xl_if_end(c, pending);
   compare_imm(c, load_at(c, f, SLOT(SLOT_OUTCOME)), PPU_CMP_EQ, OUTCOME_TERMINATE);
   struct xl_if_block terminate = xl_if_begin(c, false);
   ttu(c, PPU_TTU_TERMINATE, 0, f, 0);
   xl_if_end(c, terminate);
}

/* while (PROCEED) { candidate: any-hit or intersection }, lowered as a
 * loop (docs/isa.md: PBK, PCNT, body ending in SYNC, back edge). */
static void traverse(struct xl_ctx *c, struct trace_site *t)
{
   uint32_t done = ir_new_label(c->ir), head = ir_new_label(c->ir), cont = ir_new_label(c->ir);
   xl_branch(c, PPU_OP_PBK, done, PPU_PT);
   ir_emit_label(c->ir, head);
   xl_branch(c, PPU_OP_PCNT, cont, PPU_PT);
   uint32_t more = vreg(c, 1);
   ttu(c, PPU_TTU_PROCEED, more, t->frame, 0);
   compare_imm(c, more, PPU_CMP_EQ, 0);
   xl_branch(c, PPU_OP_BRK, done, 0);
   t->record = hit_record(c, t, PPU_RQ_OFFSET_CANDIDATE);
   uint32_t group = load_global(c, t->record, 0, PPU_TYPE_U32);
   uint32_t type = load_at(c, t->frame, PPU_RQ_OFFSET_CANDIDATE);
   compare_imm(c, type, PPU_CMP_EQ, PPU_RQ_CANDIDATE_TRIANGLE);
   struct xl_if_block triangle = xl_if_begin(c, false);
   triangle_candidate(c, t, group);
   xl_if_end(c, triangle);
   compare_imm(c, type, PPU_CMP_EQ, PPU_RQ_CANDIDATE_AABB);
   struct xl_if_block aabb = xl_if_begin(c, false);
   aabb_candidate(c, t, group);
   xl_if_end(c, aabb);
   xl_branch(c, PPU_OP_SYNC, cont, PPU_PT);
   ir_emit_label(c->ir, cont);
   xl_branch(c, PPU_OP_BRA, head, PPU_PT);
   ir_emit_label(c->ir, done);
}

static void call_closest_hit(struct xl_ctx *c, uint32_t group, void *arg)
{
   const struct trace_site *t = arg;
   call_stage(c, c->rt->req->groups[group].closest_hit, t->payload, t->frame, t->record, t->depth);
}

static void call_general(struct xl_ctx *c, uint32_t group, void *arg)
{
   const struct trace_site *t = arg;
   call_stage(c, c->rt->req->groups[group].general, t->payload, t->frame, t->record, t->depth);
}

/* After traversal: the closest-hit shader of the committed hit's group, or
 * the miss shader missIndex names. */
static void closest_hit_or_miss(struct xl_ctx *c, struct trace_site *t)
{
   uint32_t f = t->frame, committed = PPU_RQ_OFFSET_COMMITTED;
   uint32_t type = load_at(c, f, committed);
   compare_imm(c, type, PPU_CMP_NE, PPU_RQ_COMMITTED_NONE);
   uint32_t merge = ir_new_label(c->ir), miss = ir_new_label(c->ir);
   xl_branch(c, PPU_OP_SSY, merge, PPU_PT);
   xl_branch(c, PPU_OP_BRA, miss, 0 | PPU_PRED_NEG);
   /* A triangle's attributes are its barycentrics and its kind its facing;
    * a generated hit's were stored when it was committed. */
   compare_imm(c, type, PPU_CMP_EQ, PPU_RQ_COMMITTED_TRIANGLE);
   struct xl_if_block triangle = xl_if_begin(c, false);
   copy_words(c, f, FRAME_COMMITTED_ATTR,
              committed + offsetof(struct ppu_ray_query_hit, barycentrics), 8);
   store_at(c, f, SLOT(SLOT_COMMITTED_KIND), triangle_kind(c, f, committed));
   xl_if_end(c, triangle);
   /* SkipClosestHitShaderKHR: the group index becomes 0, which no case
    * matches. */
   t->record = hit_record(c, t, committed);
   uint32_t group = load_global(c, t->record, 0, PPU_TYPE_U32);
   uint32_t skip = vreg(c, 1), chosen = vreg(c, 1);
   xl_op_imm(c, PPU_OP_AND, PPU_TYPE_U32, skip, t->flags, PPU_RAY_FLAG_SKIP_CLOSEST_HIT_SHADER);
   compare_imm(c, skip, PPU_CMP_EQ, 0);
   xl_op(c, PPU_OP_SEL, PPU_TYPE_U32, chosen, group, xl_imm32(c, 0))->f.ps = 0;
   group_switch(c, chosen, has_closest_hit, call_closest_hit, t);
   xl_branch(c, PPU_OP_SYNC, merge, PPU_PT);
   ir_emit_label(c->ir, miss);
   t->record =
       record_address(c, DRV_ABI_CBANK_RT_MISS, DRV_ABI_CBANK_RT_MISS_STRIDE, t->miss_index);
   group_switch(c, load_global(c, t->record, 0, PPU_TYPE_U32), is_miss_group, call_general, t);
   xl_branch(c, PPU_OP_SYNC, merge, PPU_PT);
   ir_emit_label(c->ir, merge);
}

/* The address of the data a traceRayEXT / executeCallableEXT hands to its
 * callee: a RayPayloadKHR / CallableDataKHR variable of the caller, or
 * its own incoming one passed on. */
static uint32_t outgoing_data(struct xl_ctx *c, uint32_t id)
{
   const struct xl_ptr *p = xl_ptr_of(c, id);
   if (!p)
      return 0;
   if (p->kind != XL_PTR_LOCAL) {
      xl_fail(c, "%%%u is not a ray payload or callable data variable", id);
      return 0;
   }
   return address_of(c, p);
}

static uint32_t scalar_operand(struct xl_ctx *c, const struct spirv_inst *inst, uint32_t k,
                               uint32_t count)
{
   struct xl_val v = xl_get(c, xl_word(c, inst, k));
   if (!c->failed && v.count != count) {
      xl_fail(c, "operand %u has %u components, not %u", k, v.count, count);
      return 0;
   }
   return xl_comp(c, v, 0);
}

static enum drv_rt_stage_kind own_kind(struct xl_ctx *c)
{
   return stage_kind(c->rt, c->rt_instance->stage);
}

static void trace_ray(struct xl_ctx *c, const struct spirv_inst *inst)
{
   struct xl_rt_instance *caller = c->rt_instance;
   if (inst->operand_count != 11) {
      xl_fail(c, "OpTraceRayKHR takes 11 operands");
      return;
   }
   struct xl_val accel = xl_get(c, xl_word(c, inst, 0));
   struct xl_val origin = xl_get(c, xl_word(c, inst, 6));
   struct xl_val dir = xl_get(c, xl_word(c, inst, 8));
   if (c->failed)
      return;
   if (accel.count != 1 || c->ir->vreg_size[xl_comp(c, accel, 0)] != 2 || origin.count != 3 ||
       dir.count != 3) {
      xl_fail(c, "OpTraceRayKHR needs an acceleration structure and vec3 origin and direction");
      return;
   }
   uint32_t word[6] = {0};
   static const uint32_t scalar_ops[6] = {1, 2, 3, 4, 5, 7};
   for (uint32_t k = 0; k < 6 && !c->failed; k++)
      word[k] = scalar_operand(c, inst, scalar_ops[k], 1);
   uint32_t tmax = scalar_operand(c, inst, 9, 1);
   if (c->failed)
      return;
   /* Beyond maxPipelineRayRecursionDepth the application promised never to
    * trace (Vulkan "Ray Tracing"): such a trace does nothing, so that the
    * stack the pipeline sized is never exceeded. */
   if (c->rt->req->max_recursion_depth == 0)
      return;
   struct xl_if_block allowed = {0};
   bool checked = own_kind(c) != DRV_RT_STAGE_RAYGEN;
   if (checked) {
      compare_imm(c, caller->depth, PPU_CMP_LT, c->rt->req->max_recursion_depth);
      allowed = xl_if_begin(c, false);
   }
   struct trace_site t = {0};
   t.payload = outgoing_data(c, xl_word(c, inst, 10));
   if (!t.payload)
      return;
   t.frame = own_trace_frame(c);
   t.depth = add_imm(c, caller->depth, 1);
   t.flags = word[0];
   if (c->rt->req->extra_ray_flags) {
      t.flags = vreg(c, 1);
      xl_op_imm(c, PPU_OP_OR, PPU_TYPE_U32, t.flags, word[0], c->rt->req->extra_ray_flags);
   }
   /* Only the low 4 bits of the SBT offset and stride and the low 16 of
    * the miss index count (SPIR-V OpTraceRayKHR). */
   t.sbt_offset = vreg(c, 1);
   xl_op_imm(c, PPU_OP_AND, PPU_TYPE_U32, t.sbt_offset, word[2], 0xf);
   t.sbt_stride = vreg(c, 1);
   xl_op_imm(c, PPU_OP_AND, PPU_TYPE_U32, t.sbt_stride, word[3], 0xf);
   t.miss_index = vreg(c, 1);
   xl_op_imm(c, PPU_OP_AND, PPU_TYPE_U32, t.miss_index, word[4], 0xffff);
   uint32_t f = t.frame;
   local_at(c, f, PPU_RQ_OFFSET_TLAS, xl_comp(c, accel, 0), true, PPU_TYPE_U64);
   store_at(c, f, PPU_RQ_OFFSET_FLAGS, t.flags);
   store_at(c, f, SLOT(SLOT_INCOMING_FLAGS), word[0]);
   /* Only the Cull Mask's 8 low bits count (OpTraceRayKHR), for the
    * instances' masks and for CullMaskKHR alike. */
   uint32_t cull_mask = vreg(c, 1);
   xl_op_imm(c, PPU_OP_AND, PPU_TYPE_U32, cull_mask, word[1], 0xff);
   store_at(c, f, PPU_RQ_OFFSET_CULL_MASK, cull_mask);
   for (uint32_t k = 0; k < 3; k++) {
      store_at(c, f, PPU_RQ_OFFSET_ORIGIN + 4 * k, xl_comp(c, origin, k));
      store_at(c, f, PPU_RQ_OFFSET_DIRECTION + 4 * k, xl_comp(c, dir, k));
   }
   store_at(c, f, PPU_RQ_OFFSET_TMIN, word[5]);
   store_at(c, f, PPU_RQ_OFFSET_TMAX, tmax);
   ttu(c, PPU_TTU_INIT, 0, f, 0);
   traverse(c, &t);
   closest_hit_or_miss(c, &t);
   if (checked)
      xl_if_end(c, allowed);
}

/* --- executeCallableEXT -------------------------------------------------- */

static void call_callable(struct xl_ctx *c, uint32_t group, void *arg)
{
   const struct trace_site *t = arg;
   call_stage(c, c->rt->req->groups[group].general, t->payload, 0, t->record, t->depth);
}

static void execute_callable(struct xl_ctx *c, const struct spirv_inst *inst)
{
   if (inst->operand_count != 2) {
      xl_fail(c, "OpExecuteCallableKHR takes 2 operands");
      return;
   }
   uint32_t index = scalar_operand(c, inst, 0, 1);
   if (c->failed)
      return;
   struct trace_site t = {0};
   t.payload = outgoing_data(c, xl_word(c, inst, 1));
   if (!t.payload)
      return;
   t.depth = c->rt_instance->depth;
   t.record = record_address(c, DRV_ABI_CBANK_RT_CALLABLE, DRV_ABI_CBANK_RT_CALLABLE_STRIDE, index);
   group_switch(c, load_global(c, t.record, 0, PPU_TYPE_U32), is_callable_group, call_callable, &t);
}

/* --- intersection and any-hit shaders ------------------------------------ */

/* Groups whose intersection shader is the one being translated and that
 * have an any-hit shader. */
static bool runs_own_any_hit(const struct drv_rt_group *g, const struct xl_rt_program *rt,
                             uint32_t own)
{
   (void)rt;
   return g->intersection == own && g->any_hit != DRV_RT_UNUSED;
}

/* reportIntersectionEXT(t, kind): a hit in [tmin, closest so far] is
 * offered to the group's any-hit shader; accepted, it becomes the pending
 * hit that aabb_candidate commits. Returns whether it was accepted. */
static void report_intersection(struct xl_ctx *c, const struct spirv_inst *inst)
{
   if (own_kind(c) != DRV_RT_STAGE_INTERSECTION || inst->operand_count != 2) {
      xl_fail(c, "OpReportIntersectionKHR outside an intersection shader");
      return;
   }
   uint32_t t = scalar_operand(c, inst, 0, 1);
   uint32_t kind = scalar_operand(c, inst, 1, 1);
   struct xl_val result = xl_new_val(c, inst->result_type);
   if (c->failed || result.count != 1)
      return;
   struct xl_rt_instance *self = c->rt_instance;
   uint32_t f = self->hit_frame;
   store_imm_at(c, f, SLOT(SLOT_REPORTED), 0);
   /* In range and not after a terminateRayEXT. */
   uint32_t tmin = load_at(c, f, PPU_RQ_OFFSET_TMIN);
   uint32_t closest = load_at(c, f, SLOT(SLOT_PENDING_T));
   uint32_t outcome = load_at(c, f, SLOT(SLOT_OUTCOME));
   struct ir_insn *i = xl_op(c, PPU_OP_FSETP, PPU_TYPE_F32, 0, tmin, t);
   i->f.subop = PPU_CMP_LE;
   i->f.pd = 0;
   i->f.ps = PPU_PT;
   i = xl_op(c, PPU_OP_FSETP, PPU_TYPE_F32, 0, t, closest);
   i->f.subop = PPU_CMP_LE;
   i->f.pd = 0;
   i->f.ps = 0;
   i = xl_op_imm(c, PPU_OP_ISETP, PPU_TYPE_U32, 0, outcome, OUTCOME_TERMINATE);
   i->f.subop = PPU_CMP_NE;
   i->f.pd = 0;
   i->f.ps = 0;
   struct xl_if_block in_range = xl_if_begin(c, false);
   store_at(c, f, SLOT(SLOT_CANDIDATE_T), t);
   store_at(c, f, SLOT(SLOT_CANDIDATE_KIND), kind);
   /* The any-hit shader of the group this intersection shader runs for
    * (groups may share an intersection shader), for a non-opaque AABB only:
    * the TTU's candidate says whether it is, the geometry's flag with the
    * instance's FORCE_(NO_)OPAQUE and the ray's (NO_)OPAQUE applied
    * (Vulkan "Ray Opacity Culling"). */
   if (pipeline_has(c, runs_own_any_hit)) {
      struct trace_site site = {0};
      site.frame = f;
      site.payload = self->payload;
      site.record = self->record;
      site.depth = self->depth;
      compare_imm(
          c,
          load_at(c, f, PPU_RQ_OFFSET_CANDIDATE + offsetof(struct ppu_ray_query_hit, aabb_opaque)),
          PPU_CMP_EQ, 0);
      struct xl_if_block not_opaque = xl_if_begin(c, false);
      group_switch(c, load_global(c, self->record, 0, PPU_TYPE_U32), runs_own_any_hit, call_any_hit,
                   &site);
      xl_if_end(c, not_opaque);
   }
   outcome = load_at(c, f, SLOT(SLOT_OUTCOME));
   compare_imm(c, outcome, PPU_CMP_NE, OUTCOME_IGNORE);
   struct xl_if_block accepted = xl_if_begin(c, false);
   store_imm_at(c, f, SLOT(SLOT_PENDING), 1);
   store_imm_at(c, f, SLOT(SLOT_REPORTED), 1);
   store_at(c, f, SLOT(SLOT_PENDING_T), t);
   store_at(c, f, SLOT(SLOT_PENDING_KIND), kind);
   copy_words(c, f, FRAME_PENDING_ATTR, FRAME_CANDIDATE_ATTR, XL_RT_ATTRIBUTE_BYTES);
   xl_if_end(c, accepted);
   /* An ignored hit leaves the outcome free for the next report. */
   compare_imm(c, load_at(c, f, SLOT(SLOT_OUTCOME)), PPU_CMP_EQ, OUTCOME_IGNORE);
   struct xl_if_block ignored = xl_if_begin(c, false);
   store_imm_at(c, f, SLOT(SLOT_OUTCOME), 0);
   xl_if_end(c, ignored);
   xl_if_end(c, in_range);
   xl_mov(c, xl_comp(c, result, 0), load_at(c, f, SLOT(SLOT_REPORTED)), 1);
   xl_set(c, inst->result_id, result);
   /* terminateRayEXT in the any-hit shader ends the intersection shader. */
   xl_rt_after_call(c);
}

void xl_rt_end_any_hit(struct xl_ctx *c, uint32_t opcode)
{
   if (!c->rt_instance || own_kind(c) != DRV_RT_STAGE_ANY_HIT || !c->scope || c->scope->is_entry) {
      xl_fail(c, "ignoreIntersectionEXT / terminateRayEXT outside an any-hit shader");
      return;
   }
   store_imm_at(c, c->rt_instance->hit_frame, SLOT(SLOT_OUTCOME),
                opcode == SPIRV_OP_IgnoreIntersectionKHR ? OUTCOME_IGNORE : OUTCOME_TERMINATE);
   xl_branch(c, PPU_OP_RET, c->scope->ret_label, PPU_PT);
}

void xl_rt_after_call(struct xl_ctx *c)
{
   if (!c->rt_instance || !c->scope || c->scope->is_entry)
      return;
   enum drv_rt_stage_kind kind = own_kind(c);
   if (kind != DRV_RT_STAGE_ANY_HIT && kind != DRV_RT_STAGE_INTERSECTION)
      return;
   uint32_t outcome = load_at(c, c->rt_instance->hit_frame, SLOT(SLOT_OUTCOME));
   if (kind == DRV_RT_STAGE_ANY_HIT)
      compare_imm(c, outcome, PPU_CMP_NE, 0);
   else
      compare_imm(c, outcome, PPU_CMP_EQ, OUTCOME_TERMINATE);
   xl_branch(c, PPU_OP_RET, c->scope->ret_label, 0);
}

bool xl_translate_ray_tracing(struct xl_ctx *c, const struct spirv_inst *inst)
{
   switch (inst->opcode) {
   case SPIRV_OP_TraceRayKHR:
   case SPIRV_OP_ExecuteCallableKHR:
   case SPIRV_OP_ReportIntersectionKHR:
      break;
   default:
      return false;
   }
   if (!c->rt_instance) {
      xl_fail(c, "a ray-tracing instruction outside a ray-tracing pipeline");
      return true;
   }
   if (inst->opcode == SPIRV_OP_TraceRayKHR)
      trace_ray(c, inst);
   else if (inst->opcode == SPIRV_OP_ExecuteCallableKHR)
      execute_callable(c, inst);
   else
      report_intersection(c, inst);
   return true;
}

/* --- built-ins ----------------------------------------------------------- */

/* The hit record a stage's built-ins read: closest-hit the committed hit,
 * any-hit and intersection the candidate. */
static bool hit_of_stage(struct xl_ctx *c, uint32_t *offset)
{
   switch (own_kind(c)) {
   case DRV_RT_STAGE_CLOSEST_HIT:
      *offset = PPU_RQ_OFFSET_COMMITTED;
      return true;
   case DRV_RT_STAGE_ANY_HIT:
   case DRV_RT_STAGE_INTERSECTION:
      *offset = PPU_RQ_OFFSET_CANDIDATE;
      return true;
   default:
      return false;
   }
}

static bool sees_ray(struct xl_ctx *c)
{
   enum drv_rt_stage_kind k = own_kind(c);
   return k != DRV_RT_STAGE_RAYGEN && k != DRV_RT_STAGE_CALLABLE;
}

uint32_t xl_rt_builtin_component(struct xl_ctx *c, uint32_t builtin, uint32_t k)
{
   if (!c->rt_instance) {
      xl_fail(c, "unsupported built-in %u", builtin);
      return vreg(c, 1);
   }
   uint32_t hit = 0;
   bool has_hit = hit_of_stage(c, &hit);
   bool ray = sees_ray(c);
   /* The trace frame of the hit or miss being handled (frame header). */
   uint32_t f = c->rt_instance->hit_frame;
   switch (builtin) {
   case SPIRV_BUILT_IN_LaunchIdKHR:
      if (k > 2)
         break;
      return xl_builtin_component(c, SPIRV_BUILT_IN_GlobalInvocationId, k);
   case SPIRV_BUILT_IN_LaunchSizeKHR:
      if (k > 2)
         break;
      return load_cbank(c, DRV_ABI_CBANK_RT_LAUNCH_SIZE + 4 * k, PPU_TYPE_U32);
   case SPIRV_BUILT_IN_WorldRayOriginKHR:
      if (ray && k < 3)
         return load_at(c, f, PPU_RQ_OFFSET_ORIGIN + 4 * k);
      break;
   case SPIRV_BUILT_IN_WorldRayDirectionKHR:
      if (ray && k < 3)
         return load_at(c, f, PPU_RQ_OFFSET_DIRECTION + 4 * k);
      break;
   case SPIRV_BUILT_IN_RayTminKHR:
      if (ray)
         return load_at(c, f, PPU_RQ_OFFSET_TMIN);
      break;
   case SPIRV_BUILT_IN_IncomingRayFlagsKHR:
      if (ray)
         return load_at(c, f, SLOT(SLOT_INCOMING_FLAGS));
      break;
   case SPIRV_BUILT_IN_CullMaskKHR:
      if (ray)
         return load_at(c, f, PPU_RQ_OFFSET_CULL_MASK);
      break;
   case SPIRV_BUILT_IN_RayTmaxKHR:
   case SPIRV_BUILT_IN_HitTNV:
      if (!ray)
         break;
      switch (own_kind(c)) {
      case DRV_RT_STAGE_MISS:
         return load_at(c, f, PPU_RQ_OFFSET_TMAX);
      case DRV_RT_STAGE_CLOSEST_HIT:
         return load_at(c, f, hit + offsetof(struct ppu_ray_query_hit, t));
      case DRV_RT_STAGE_ANY_HIT:
         return load_at(c, f, SLOT(SLOT_CANDIDATE_T));
      default: /* intersection: the closest hit so far */
         return load_at(c, f, SLOT(SLOT_PENDING_T));
      }
   case SPIRV_BUILT_IN_HitKindKHR:
      if (own_kind(c) == DRV_RT_STAGE_CLOSEST_HIT)
         return load_at(c, f, SLOT(SLOT_COMMITTED_KIND));
      if (own_kind(c) == DRV_RT_STAGE_ANY_HIT)
         return load_at(c, f, SLOT(SLOT_CANDIDATE_KIND));
      break;
   case SPIRV_BUILT_IN_InstanceCustomIndexKHR:
      if (has_hit)
         return load_at(c, f, hit + offsetof(struct ppu_ray_query_hit, instance_custom_index));
      break;
   case SPIRV_BUILT_IN_InstanceId:
      if (has_hit)
         return load_at(c, f, hit + offsetof(struct ppu_ray_query_hit, instance_id));
      break;
   case SPIRV_BUILT_IN_PrimitiveId:
      if (has_hit)
         return load_at(c, f, hit + offsetof(struct ppu_ray_query_hit, primitive_index));
      break;
   case SPIRV_BUILT_IN_RayGeometryIndexKHR:
      if (has_hit)
         return load_at(c, f, hit + offsetof(struct ppu_ray_query_hit, geometry_index));
      break;
   case SPIRV_BUILT_IN_ObjectRayOriginKHR:
      if (has_hit && k < 3)
         return load_at(c, f, hit + offsetof(struct ppu_ray_query_hit, object_origin) + 4 * k);
      break;
   case SPIRV_BUILT_IN_ObjectRayDirectionKHR:
      if (has_hit && k < 3)
         return load_at(c, f, hit + offsetof(struct ppu_ray_query_hit, object_direction) + 4 * k);
      break;
   case SPIRV_BUILT_IN_ObjectToWorldKHR:
   case SPIRV_BUILT_IN_WorldToObjectKHR: {
      if (!has_hit || k >= 12)
         break;
      /* Leaf k = column * 3 + row of a 4-column matrix of vec3; the
       * instance record holds row-major 3x4 matrices (ppu/bvh.h). */
      uint32_t record = vreg(c, 2);
      local_at(c, f, hit + offsetof(struct ppu_ray_query_hit, instance_address), record, false,
               PPU_TYPE_U64);
      uint32_t matrix = builtin == SPIRV_BUILT_IN_ObjectToWorldKHR
                            ? offsetof(struct ppu_bvh_instance, object_to_world)
                            : offsetof(struct ppu_bvh_instance, world_to_object);
      uint32_t col = k / 3, row = k % 3;
      return load_global(c, record, matrix + (row * 4 + col) * 4, PPU_TYPE_U32);
   }
   case SPIRV_BUILT_IN_HitTriangleVertexPositionsKHR: {
      /* Leaf k = vertex * 3 + axis; the leaf record's first 36 bytes are
       * v0, v1, v2 in the application's order (ppu/bvh.h). Closest-hit and
       * any-hit only: intersection shaders handle AABBs, which have none. */
      enum drv_rt_stage_kind kind = own_kind(c);
      if ((kind != DRV_RT_STAGE_CLOSEST_HIT && kind != DRV_RT_STAGE_ANY_HIT) || k >= 9)
         break;
      uint32_t record = vreg(c, 2);
      local_at(c, f, hit + offsetof(struct ppu_ray_query_hit, primitive_address), record, false,
               PPU_TYPE_U64);
      return load_global(c, record, offsetof(struct ppu_bvh_triangle, v0) + 4 * k, PPU_TYPE_U32);
   }
   default:
      break;
   }
   xl_fail(c, "built-in %u is not available in this ray-tracing stage", builtin);
   return vreg(c, 1);
}

/* --- the program --------------------------------------------------------- */

static void call_raygen(struct xl_ctx *c, uint32_t group, void *arg)
{
   call_stage(c, c->rt->req->groups[group].general, 0, 0, *(const uint32_t *)arg, xl_imm32(c, 0));
}

static bool names_stage(const struct drv_rt_group *g, uint32_t stage)
{
   return g->general == stage || g->closest_hit == stage || g->any_hit == stage ||
          g->intersection == stage;
}

void xl_rt_translate_program(struct xl_ctx *root)
{
   struct xl_rt_program *rt = root->rt;
   rt->instances = calloc(rt->req->stage_count, sizeof(*rt->instances));
   rt->root_frame = ir_new_frame(root->ir); /* frame 0 (call_frames.h) */
   if (!rt->instances || rt->root_frame != 0) {
      xl_fail(root, "out of memory");
      return;
   }
   /* The stack slot is read and written by every call: keep it out of
    * mem2reg. Functions lay their variables out above it. */
   ir_mark_dynamic_local(root->ir, 0, IR_STACK_BASE);
   root->local_size = IR_STACK_BASE;
   rt->root_sp = xl_imm32(root, IR_STACK_BASE);
   struct ir_frame *rf = &root->ir->frames[rt->root_frame];
   rf->sp = rt->root_sp;
   /* Invocations beyond the launch size (the last workgroups of each
    * dimension are partial) end at once. */
   for (uint32_t k = 0; k < 3; k++) {
      uint32_t id = xl_builtin_component(root, SPIRV_BUILT_IN_GlobalInvocationId, k);
      uint32_t size = load_cbank(root, DRV_ABI_CBANK_RT_LAUNCH_SIZE + 4 * k, PPU_TYPE_U32);
      struct ir_insn *i = xl_op(root, PPU_OP_ISETP, PPU_TYPE_U32, 0, id, size);
      i->f.subop = PPU_CMP_GE;
      i->f.pd = 0;
      ir_emit(root->ir, PPU_OP_EXIT)->f.guard = 0;
   }
   uint32_t record = load_cbank(root, DRV_ABI_CBANK_RT_RAYGEN, PPU_TYPE_U64);
   uint32_t group = load_global(root, record, 0, PPU_TYPE_U32);
   group_switch(root, group, is_raygen_group, call_raygen, &record);
   ir_emit(root->ir, PPU_OP_EXIT);
   /* Every stage a group names is a function, called or not, so each
    * group's stack size is known (vkGetRayTracingShaderGroupStackSizeKHR). */
   for (uint32_t s = 0; s < rt->req->stage_count && !root->failed; s++)
      for (uint32_t g = 0; g < rt->req->group_count; g++)
         if (names_stage(&rt->req->groups[g], s)) {
            function_for(root, s);
            break;
         }
   /* Functions reach more functions only through the groups, so one pass
    * translates them all. */
   for (uint32_t s = 0; s < rt->req->stage_count && !root->failed; s++)
      if (rt->instances[s] && !rt->instances[s]->translated)
         translate_function(root, rt->instances[s]);
}
