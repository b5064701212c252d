/* The translator of jit.h on LLVM (its C API, ORC LLJIT): one host function
 * per program.
 *
 * Shape of a translated program. The function starts at a switch on w->pc
 * over the block starts. A block is a run of native instructions (ALU,
 * float, predicate; ppu_jit_is_native) that starts at a branch target or
 * after a non-native instruction and ends before the next such point, at
 * the latest with a BRA. Its prologue checks that the budget covers the
 * whole block and that the icache holds every line the block spans (else it
 * returns to the interpreter, which fills the line and counts the miss
 * exactly as it would have); its epilogue books the block's warp and lane
 * instructions and the watchdog's per-warp count at once. A BRA whose lanes
 * all agree jumps natively; a divergent one, and every non-native
 * instruction, calls ppu_jit_step, after which the code continues at the
 * next block or through the switch.
 *
 * Registers are structure-of-arrays, reg[r][lane], so a register is one
 * <32 x i32> load or store; a masked write is a select on the execution
 * mask bitcast to <32 x i1>. Type-based alias metadata tells LLVM that
 * register memory and warp state never overlap, so within a block values
 * stay in host vector registers and only the last write of each register
 * reaches memory. Float arithmetic is IEEE with the host's default
 * environment, exactly what the interpreter does. */
#include "compute/jit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compute/sm.h"

#ifndef VKPPU_HAVE_LLVM

bool ppu_jit_available(void)
{
   return false;
}

bool ppu_jit_is_native(const struct ppu_insn_fields *f)
{
   (void)f;
   return false;
}

struct ppu_jit_code *ppu_jit_translate(const struct ppu_jit_source *src, ppu_jit_fn *entry,
                                       char *err, size_t err_size)
{
   (void)src;
   *entry = NULL;
   snprintf(err, err_size, "this build of vkppu has no translator (LLVM was not found)");
   return NULL;
}

void ppu_jit_code_free(struct ppu_jit_code *code)
{
   (void)code;
}

#else

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <pthread.h>

#include "compute/sm_operands.h"
#include "ppu/counters.h"
#include "ppu/mmu_format.h"

bool ppu_jit_available(void)
{
   return true;
}

struct ppu_jit_code {
   LLVMOrcLLJITRef lljit;
};

static int ftype_ok(unsigned t)
{
   return t == PPU_TYPE_F32 || t == PPU_TYPE_F64;
}

/* The instructions of sm_float.c. */
static bool float_op(unsigned op)
{
   return op == PPU_OP_FADD || op == PPU_OP_FSUB || op == PPU_OP_FMUL || op == PPU_OP_FFMA ||
          op == PPU_OP_FDIV || op == PPU_OP_FMIN || op == PPU_OP_FMAX || op == PPU_OP_FSETP ||
          op == PPU_OP_MUFU;
}

/* The flow instructions the translator runs natively in their common case
 * (a uniform branch, a push, a pop of a live entry). */
static bool flow_op(unsigned op)
{
   return op == PPU_OP_BRA || op == PPU_OP_SSY || op == PPU_OP_PBK || op == PPU_OP_PCNT ||
          op == PPU_OP_SYNC || op == PPU_OP_BRK || op == PPU_OP_CONT;
}

bool ppu_jit_is_native(const struct ppu_insn_fields *f)
{
   if (flow_op(f->op))
      return true;
   /* MUFU: the correctly rounded ones; EX2, LG2, SIN and COS are the host
    * libm's and stay with the interpreter. */
   if (float_op(f->op))
      return ftype_ok(f->type) && (f->op != PPU_OP_MUFU || f->subop == PPU_MUFU_RCP ||
                                   f->subop == PPU_MUFU_RSQ || f->subop == PPU_MUFU_SQRT);
   switch ((enum ppu_op)f->op) {
   case PPU_OP_NOP:
   case PPU_OP_MOV:
   case PPU_OP_SEL:
   case PPU_OP_IADD:
   case PPU_OP_ISUB:
   case PPU_OP_IMUL:
   case PPU_OP_IMIN:
   case PPU_OP_IMAX:
   case PPU_OP_IABS:
   case PPU_OP_INEG:
   case PPU_OP_ISETP:
   case PPU_OP_AND:
   case PPU_OP_OR:
   case PPU_OP_XOR:
   case PPU_OP_NOT:
   case PPU_OP_SHL:
   case PPU_OP_SHR:
   case PPU_OP_POPC:
   case PPU_OP_IMULHI:
   case PPU_OP_IMAD:
   case PPU_OP_PLOP:
      return true;
   case PPU_OP_LDC:
      return f->ra == PPU_RZ; /* uniform address; per-lane ones stay interpreted */
   case PPU_OP_S2R:
      /* The clock reads the timer: the interpreter's. */
      return f->imm < PPU_SR_CLOCK_LO;
   case PPU_OP_LD:
   case PPU_OP_ST:
      /* Global, shared and local 32- and 64-bit accesses; the other
       * widths and generic addresses stay interpreted. */
      return (f->mode == PPU_SPACE_GLOBAL || f->mode == PPU_SPACE_SHARED ||
              f->mode == PPU_SPACE_LOCAL) &&
             (f->type == PPU_TYPE_U32 || f->type == PPU_TYPE_S32 || f->type == PPU_TYPE_U64);
   default:
      return false;
   }
}

/* Native instructions that end a block: they change the warp's flow or its
 * reconvergence stack, and each has a slow path through the interpreter. */
static bool ends_block(const struct ppu_insn_fields *f)
{
   /* LD/ST may fault: everything before them is booked first. */
   return flow_op(f->op) || f->op == PPU_OP_LD || f->op == PPU_OP_ST;
}

/* --- Code generation -------------------------------------------------------- */

struct gen {
   LLVMContextRef ctx;
   LLVMModuleRef mod;
   LLVMBuilderRef b;
   LLVMTypeRef i1, i32, i64, f32, f64, ptr, v32i1, v32i32, v32i64, v32f32, v32f64;
   LLVMValueRef fn, st, reg, w;
   unsigned tbaa_kind;
   LLVMValueRef tbaa_reg, tbaa_warp, tbaa_state, tbaa_vram;
   LLVMValueRef page_fn; /* ppu_jit_page */
   LLVMTypeRef page_ty;
   LLVMValueRef wg_memory_fn; /* ppu_jit_workgroup_memory */
   LLVMTypeRef wg_memory_ty;
   const struct ppu_jit_source *src;
   LLVMBasicBlockRef *unit; /* per instruction index: the block starting there, or NULL */
   LLVMBasicBlockRef dispatch;
   LLVMValueRef step_fn;
   LLVMValueRef zero; /* an i32 0 in the module, read by out-of-range LDC */
   LLVMTypeRef step_ty;
   /* The warp's budget and counts (enum cached_field) in locals, which
    * LLVM keeps in host registers across blocks and loops: they reach
    * their homes in st and w only before a call to the interpreter and a
    * return (spill_cached), not in every block. */
   LLVMValueRef cached[4];
   /* Within a block. */
   LLVMValueRef active; /* i32 */
   LLVMValueRef lanes;  /* i64: lane instructions so far */
};

static LLVMValueRef c32(struct gen *g, uint64_t v)
{
   return LLVMConstInt(g->i32, v, 0);
}

static LLVMValueRef c64(struct gen *g, uint64_t v)
{
   return LLVMConstInt(g->i64, v, 0);
}

static LLVMValueRef byte_ptr(struct gen *g, LLVMValueRef base, uint64_t offset)
{
   LLVMValueRef idx = c64(g, offset);
   return LLVMBuildGEP2(g->b, LLVMInt8TypeInContext(g->ctx), base, &idx, 1, "");
}

static LLVMValueRef load(struct gen *g, LLVMTypeRef ty, LLVMValueRef p, LLVMValueRef tbaa,
                         unsigned align)
{
   LLVMValueRef v = LLVMBuildLoad2(g->b, ty, p, "");
   LLVMSetMetadata(v, g->tbaa_kind, tbaa);
   LLVMSetAlignment(v, align);
   return v;
}

static void store(struct gen *g, LLVMValueRef v, LLVMValueRef p, LLVMValueRef tbaa, unsigned align)
{
   LLVMValueRef s = LLVMBuildStore(g->b, v, p);
   LLVMSetMetadata(s, g->tbaa_kind, tbaa);
   LLVMSetAlignment(s, align);
}

/* Warp and state fields. */
static LLVMValueRef warp_field(struct gen *g, size_t offset, LLVMTypeRef ty)
{
   return load(g, ty, byte_ptr(g, g->w, offset), g->tbaa_warp, 4);
}

static void set_warp_field(struct gen *g, size_t offset, LLVMValueRef v)
{
   store(g, v, byte_ptr(g, g->w, offset), g->tbaa_warp, 4);
}

static LLVMValueRef state_field(struct gen *g, size_t offset, LLVMTypeRef ty)
{
   return load(g, ty, byte_ptr(g, g->st, offset), g->tbaa_state, 8);
}

static void set_pc(struct gen *g, uint32_t pc)
{
   set_warp_field(g, offsetof(struct ppu_warp, pc), c32(g, pc));
}

static LLVMValueRef call_intrinsic(struct gen *g, const char *name, LLVMTypeRef ty,
                                   LLVMValueRef *args, unsigned n)
{
   unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
   LLVMValueRef fn = LLVMGetIntrinsicDeclaration(g->mod, id, &ty, 1);
   LLVMTypeRef fty = LLVMIntrinsicGetType(g->ctx, id, &ty, 1);
   return LLVMBuildCall2(g->b, fty, fn, args, n, "");
}

/* Registers. */
static LLVMValueRef reg32(struct gen *g, unsigned r)
{
   if (r == PPU_RZ)
      return LLVMConstNull(g->v32i32);
   return load(g, g->v32i32, byte_ptr(g, g->reg, (uint64_t)r * PPU_WARP_SIZE * 4), g->tbaa_reg, 4);
}

static LLVMValueRef splat(LLVMValueRef scalar)
{
   LLVMValueRef v[PPU_WARP_SIZE];
   for (unsigned l = 0; l < PPU_WARP_SIZE; l++)
      v[l] = scalar;
   return LLVMConstVector(v, PPU_WARP_SIZE);
}

/* A run-time scalar in every lane. */
static LLVMValueRef broadcast(struct gen *g, LLVMValueRef scalar)
{
   LLVMTypeRef vt = LLVMVectorType(LLVMTypeOf(scalar), PPU_WARP_SIZE);
   LLVMValueRef one = LLVMBuildInsertElement(g->b, LLVMGetPoison(vt), scalar, c32(g, 0), "");
   return LLVMBuildShuffleVector(g->b, one, LLVMGetPoison(vt), LLVMConstNull(g->v32i32), "");
}

static LLVMValueRef shift32(struct gen *g)
{
   return splat(c64(g, 32));
}

static LLVMValueRef reg64(struct gen *g, unsigned r)
{
   if (r == PPU_RZ)
      return LLVMConstNull(g->v32i64);
   LLVMValueRef lo = LLVMBuildZExt(g->b, reg32(g, r), g->v32i64, "");
   LLVMValueRef hi = LLVMBuildZExt(g->b, reg32(g, r + 1), g->v32i64, "");
   return LLVMBuildOr(g->b, lo, LLVMBuildShl(g->b, hi, shift32(g), ""), "");
}

static LLVMValueRef mask_vec(struct gen *g, LLVMValueRef exec)
{
   return LLVMBuildBitCast(g->b, exec, g->v32i1, "");
}

static void set_reg32(struct gen *g, unsigned r, LLVMValueRef v, LLVMValueRef exec)
{
   if (r == PPU_RZ)
      return;
   LLVMValueRef p = byte_ptr(g, g->reg, (uint64_t)r * PPU_WARP_SIZE * 4);
   LLVMValueRef old = load(g, g->v32i32, p, g->tbaa_reg, 4);
   store(g, LLVMBuildSelect(g->b, mask_vec(g, exec), v, old, ""), p, g->tbaa_reg, 4);
}

static void set_reg64(struct gen *g, unsigned r, LLVMValueRef v, LLVMValueRef exec)
{
   if (r == PPU_RZ)
      return;
   set_reg32(g, r, LLVMBuildTrunc(g->b, v, g->v32i32, ""), exec);
   set_reg32(g, r + 1, LLVMBuildTrunc(g->b, LLVMBuildLShr(g->b, v, shift32(g), ""), g->v32i32, ""),
             exec);
}

/* Operand b: register rb or the immediate (ppu_src_b / ppu_src_b64). */
static LLVMValueRef op_b32(struct gen *g, const struct ppu_insn_fields *f)
{
   return f->b_imm ? splat(c32(g, f->imm)) : reg32(g, f->rb);
}

static LLVMValueRef op_b64(struct gen *g, const struct ppu_insn_fields *f)
{
   if (!f->b_imm)
      return reg64(g, f->rb);
   uint64_t v =
       f->type == PPU_TYPE_F64 ? (uint64_t)f->imm << 32 : (uint64_t)(int64_t)(int32_t)f->imm;
   return splat(c64(g, v));
}

/* Predicates. */
static LLVMValueRef pred(struct gen *g, unsigned p)
{
   LLVMValueRef v =
       (p & 7) == PPU_PT
           ? c32(g, UINT32_MAX)
           : warp_field(g, offsetof(struct ppu_warp, pred) + (p & 7) * sizeof(uint32_t), g->i32);
   return (p & PPU_PRED_NEG) ? LLVMBuildNot(g->b, v, "") : v;
}

static void set_pred(struct gen *g, unsigned pd, LLVMValueRef bits, LLVMValueRef exec)
{
   if ((pd & 7) == PPU_PT)
      return;
   size_t off = offsetof(struct ppu_warp, pred) + (pd & 7) * sizeof(uint32_t);
   LLVMValueRef old = warp_field(g, off, g->i32);
   LLVMValueRef keep = LLVMBuildAnd(g->b, old, LLVMBuildNot(g->b, exec, ""), "");
   set_warp_field(g, off, LLVMBuildOr(g->b, keep, LLVMBuildAnd(g->b, bits, exec, ""), ""));
}

static LLVMValueRef bits_of(struct gen *g, LLVMValueRef v32i1)
{
   return LLVMBuildBitCast(g->b, v32i1, g->i32, "");
}

static LLVMValueRef exec_mask(struct gen *g, const struct ppu_insn_fields *f)
{
   if ((f->guard & 7) == PPU_PT && !(f->guard & PPU_PRED_NEG))
      return g->active;
   return LLVMBuildAnd(g->b, g->active, pred(g, f->guard), "");
}

static LLVMValueRef popcount(struct gen *g, LLVMValueRef v)
{
   return call_intrinsic(g, "llvm.ctpop", LLVMTypeOf(v), &v, 1);
}

/* --- Instructions ----------------------------------------------------------- */

static LLVMValueRef int_cmp(struct gen *g, unsigned cmp, int is_signed, LLVMValueRef a,
                            LLVMValueRef b)
{
   LLVMIntPredicate lt = is_signed ? LLVMIntSLT : LLVMIntULT;
   LLVMIntPredicate le = is_signed ? LLVMIntSLE : LLVMIntULE;
   LLVMIntPredicate gt = is_signed ? LLVMIntSGT : LLVMIntUGT;
   LLVMIntPredicate ge = is_signed ? LLVMIntSGE : LLVMIntUGE;
   switch (cmp) {
   case PPU_CMP_LT:
      return bits_of(g, LLVMBuildICmp(g->b, lt, a, b, ""));
   case PPU_CMP_EQ:
      return bits_of(g, LLVMBuildICmp(g->b, LLVMIntEQ, a, b, ""));
   case PPU_CMP_LE:
      return bits_of(g, LLVMBuildICmp(g->b, le, a, b, ""));
   case PPU_CMP_GT:
      return bits_of(g, LLVMBuildICmp(g->b, gt, a, b, ""));
   case PPU_CMP_NE:
      return bits_of(g, LLVMBuildICmp(g->b, LLVMIntNE, a, b, ""));
   case PPU_CMP_GE:
      return bits_of(g, LLVMBuildICmp(g->b, ge, a, b, ""));
   default: /* F, and the float-only compares (int_cmp_mask in sm_alu.c) */
      return c32(g, 0);
   }
}

static LLVMValueRef float_cmp(struct gen *g, unsigned cmp, LLVMValueRef a, LLVMValueRef b)
{
   static const LLVMRealPredicate pr[] = {
       [PPU_CMP_F] = LLVMRealPredicateFalse, [PPU_CMP_LT] = LLVMRealOLT,
       [PPU_CMP_EQ] = LLVMRealOEQ,           [PPU_CMP_LE] = LLVMRealOLE,
       [PPU_CMP_GT] = LLVMRealOGT,           [PPU_CMP_NE] = LLVMRealONE,
       [PPU_CMP_GE] = LLVMRealOGE,           [PPU_CMP_NUM] = LLVMRealORD,
       [PPU_CMP_NAN] = LLVMRealUNO,          [PPU_CMP_LTU] = LLVMRealULT,
       [PPU_CMP_EQU] = LLVMRealUEQ,          [PPU_CMP_LEU] = LLVMRealULE,
       [PPU_CMP_GTU] = LLVMRealUGT,          [PPU_CMP_NEU] = LLVMRealUNE,
       [PPU_CMP_GEU] = LLVMRealUGE,          [PPU_CMP_T] = LLVMRealPredicateTrue,
   };
   return bits_of(g, LLVMBuildFCmp(g->b, pr[cmp & 15], a, b, ""));
}

/* FMIN/FMAX as sm_float.c defines them: a NaN operand yields the other, and
 * -0 is below +0. */
static LLVMValueRef float_minmax(struct gen *g, bool max, LLVMValueRef a, LLVMValueRef b,
                                 LLVMTypeRef ivec)
{
   LLVMValueRef nan_a = LLVMBuildFCmp(g->b, LLVMRealUNO, a, a, "");
   LLVMValueRef nan_b = LLVMBuildFCmp(g->b, LLVMRealUNO, b, b, "");
   LLVMValueRef order = LLVMBuildFCmp(g->b, max ? LLVMRealOGT : LLVMRealOLT, a, b, "");
   LLVMValueRef eq = LLVMBuildFCmp(g->b, LLVMRealOEQ, a, b, "");
   LLVMValueRef neg_a = LLVMBuildICmp(g->b, LLVMIntSLT, LLVMBuildBitCast(g->b, a, ivec, ""),
                                      LLVMConstNull(ivec), "");
   LLVMValueRef zero_pick = max ? LLVMBuildNot(g->b, neg_a, "") : neg_a;
   LLVMValueRef pick_a = LLVMBuildOr(g->b, order, LLVMBuildAnd(g->b, eq, zero_pick, ""), "");
   LLVMValueRef r = LLVMBuildSelect(g->b, pick_a, a, b, "");
   r = LLVMBuildSelect(g->b, nan_b, a, r, "");
   return LLVMBuildSelect(g->b, nan_a, b, r, "");
}

typedef LLVMValueRef (*binary_builder)(LLVMBuilderRef, LLVMValueRef, LLVMValueRef, const char *);

/* The instructions that are one LLVM operation on a and b. */
static binary_builder binary_op(unsigned op)
{
   switch ((enum ppu_op)op) {
   case PPU_OP_IADD:
      return LLVMBuildAdd;
   case PPU_OP_ISUB:
      return LLVMBuildSub;
   case PPU_OP_IMUL:
      return LLVMBuildMul;
   case PPU_OP_AND:
      return LLVMBuildAnd;
   case PPU_OP_OR:
      return LLVMBuildOr;
   case PPU_OP_XOR:
      return LLVMBuildXor;
   case PPU_OP_FADD:
      return LLVMBuildFAdd;
   case PPU_OP_FSUB:
      return LLVMBuildFSub;
   case PPU_OP_FMUL:
      return LLVMBuildFMul;
   case PPU_OP_FDIV:
      return LLVMBuildFDiv;
   default:
      return NULL;
   }
}

static void emit_int(struct gen *g, const struct ppu_insn_fields *f, LLVMValueRef exec)
{
   bool wide = ppu_type_is64(f->type);
   int s = ppu_type_signed(f->type);
   LLVMTypeRef vt = wide ? g->v32i64 : g->v32i32;
   LLVMValueRef a = wide ? reg64(g, f->ra) : reg32(g, f->ra);
   LLVMValueRef b = wide ? op_b64(g, f) : op_b32(g, f);
   LLVMValueRef r;
   switch ((enum ppu_op)f->op) {
   case PPU_OP_MOV:
      r = b;
      break;
   case PPU_OP_SEL: {
      LLVMValueRef p = mask_vec(g, pred(g, f->ps));
      r = LLVMBuildSelect(g->b, p, a, b, "");
      break;
   }
   case PPU_OP_IMIN:
   case PPU_OP_IMAX: {
      LLVMIntPredicate p =
          f->op == PPU_OP_IMIN ? (s ? LLVMIntSLT : LLVMIntULT) : (s ? LLVMIntSGT : LLVMIntUGT);
      r = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, p, a, b, ""), a, b, "");
      break;
   }
   case PPU_OP_IABS:
      r = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, a, LLVMConstNull(vt), ""),
                          LLVMBuildNeg(g->b, a, ""), a, "");
      break;
   case PPU_OP_INEG:
      r = LLVMBuildNeg(g->b, a, "");
      break;
   case PPU_OP_NOT:
      r = LLVMBuildNot(g->b, a, "");
      break;
   case PPU_OP_SHL:
   case PPU_OP_SHR: {
      /* The count is the low word of b, taken mod the width. */
      LLVMValueRef count = f->b_imm ? splat(c32(g, f->imm)) : reg32(g, f->rb);
      count = LLVMBuildAnd(g->b, count, splat(c32(g, wide ? 63 : 31)), "");
      if (wide)
         count = LLVMBuildZExt(g->b, count, vt, "");
      r = f->op == PPU_OP_SHL ? LLVMBuildShl(g->b, a, count, "")
          : s                 ? LLVMBuildAShr(g->b, a, count, "")
                              : LLVMBuildLShr(g->b, a, count, "");
      break;
   }
   case PPU_OP_POPC:
      r = popcount(g, a);
      if (wide)
         r = LLVMBuildTrunc(g->b, r, g->v32i32, "");
      set_reg32(g, f->rd, r, exec);
      return;
   case PPU_OP_IMULHI: {
      LLVMValueRef a64 =
          s ? LLVMBuildSExt(g->b, a, g->v32i64, "") : LLVMBuildZExt(g->b, a, g->v32i64, "");
      LLVMValueRef b64 =
          s ? LLVMBuildSExt(g->b, b, g->v32i64, "") : LLVMBuildZExt(g->b, b, g->v32i64, "");
      LLVMValueRef p = LLVMBuildMul(g->b, a64, b64, "");
      r = LLVMBuildTrunc(g->b, LLVMBuildLShr(g->b, p, shift32(g), ""), g->v32i32, "");
      break;
   }
   case PPU_OP_IMAD:
      r = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, a, b, ""), reg32(g, f->rc), "");
      break;
   case PPU_OP_ISETP: {
      LLVMValueRef bits = int_cmp(g, f->subop, s, a, b);
      set_pred(g, f->pd, LLVMBuildAnd(g->b, bits, pred(g, f->ps), ""), exec);
      return;
   }
   default:
      r = binary_op(f->op)(g->b, a, b, "");
      break;
   }
   if (wide)
      set_reg64(g, f->rd, r, exec);
   else
      set_reg32(g, f->rd, r, exec);
}

static void emit_float(struct gen *g, const struct ppu_insn_fields *f, LLVMValueRef exec)
{
   bool wide = f->type == PPU_TYPE_F64;
   LLVMTypeRef ft = wide ? g->v32f64 : g->v32f32, it = wide ? g->v32i64 : g->v32i32;
   LLVMValueRef a = LLVMBuildBitCast(g->b, wide ? reg64(g, f->ra) : reg32(g, f->ra), ft, "");
   LLVMValueRef b = LLVMBuildBitCast(g->b, wide ? op_b64(g, f) : op_b32(g, f), ft, "");
   LLVMValueRef r;
   switch ((enum ppu_op)f->op) {
   case PPU_OP_FFMA: {
      LLVMValueRef c = LLVMBuildBitCast(g->b, wide ? reg64(g, f->rc) : reg32(g, f->rc), ft, "");
      r = call_intrinsic(g, "llvm.fma", ft, (LLVMValueRef[]){a, b, c}, 3);
      break;
   }
   case PPU_OP_FMIN:
   case PPU_OP_FMAX:
      r = float_minmax(g, f->op == PPU_OP_FMAX, a, b, it);
      break;
   case PPU_OP_FSETP: {
      LLVMValueRef bits = float_cmp(g, f->subop, a, b);
      set_pred(g, f->pd, LLVMBuildAnd(g->b, bits, pred(g, f->ps), ""), exec);
      return;
   }
   case PPU_OP_MUFU: {
      LLVMValueRef one = splat(LLVMConstReal(wide ? g->f64 : g->f32, 1));
      if (f->subop == PPU_MUFU_RCP) {
         r = LLVMBuildFDiv(g->b, one, a, "");
      } else if (f->subop == PPU_MUFU_SQRT) {
         r = call_intrinsic(g, "llvm.sqrt", ft, &a, 1);
      } else if (wide) {
         r = LLVMBuildFDiv(g->b, one, call_intrinsic(g, "llvm.sqrt", ft, &a, 1), "");
      } else {
         /* RSQ F32: in double, rounded once (sm_float.c). */
         LLVMValueRef d = LLVMBuildFPExt(g->b, a, g->v32f64, "");
         LLVMValueRef one64 = splat(LLVMConstReal(g->f64, 1));
         d = LLVMBuildFDiv(g->b, one64, call_intrinsic(g, "llvm.sqrt", g->v32f64, &d, 1), "");
         r = LLVMBuildFPTrunc(g->b, d, g->v32f32, "");
      }
      break;
   }
   default:
      r = binary_op(f->op)(g->b, a, b, "");
      break;
   }
   /* Canonical NaN (sm_float.c). */
   LLVMValueRef nan = LLVMBuildFCmp(g->b, LLVMRealUNO, r, r, "");
   r = LLVMBuildBitCast(g->b, r, it, "");
   r = LLVMBuildSelect(
       g->b, nan, wide ? splat(c64(g, 0x7fffffffffffffffull)) : splat(c32(g, 0x7fffffffu)), r, "");
   if (wide)
      set_reg64(g, f->rd, r, exec);
   else
      set_reg32(g, f->rd, r, exec);
}

/* LDC with a uniform address: one scalar read of the grid's snapshot of
 * the bank, splatted; out of range reads 0 (sm_alu.c). */
static void emit_ldc(struct gen *g, const struct ppu_insn_fields *f, LLVMValueRef exec)
{
   unsigned words = f->type == PPU_TYPE_B128 ? 4 : f->type == PPU_TYPE_U64 ? 2 : 1;
   LLVMValueRef grid = state_field(g, offsetof(struct ppu_jit_state, grid), g->ptr);
   LLVMValueRef bank =
       load(g, g->ptr,
            byte_ptr(g, grid, offsetof(struct ppu_grid, cbank) + (size_t)f->rb * sizeof(uint8_t *)),
            g->tbaa_state, 8);
   LLVMValueRef size = load(
       g, g->i32,
       byte_ptr(g, grid, offsetof(struct ppu_grid, cbank_size) + (size_t)f->rb * sizeof(uint32_t)),
       g->tbaa_state, 4);
   LLVMValueRef nonnull = LLVMBuildIsNotNull(g->b, bank, "");
   for (unsigned k = 0; k < words; k++) {
      int64_t off = (int64_t)(int32_t)f->imm + 4 * (int64_t)k;
      LLVMValueRef v = c32(g, 0);
      if (off >= 0 && off % 4 == 0) {
         LLVMValueRef fits = LLVMBuildICmp(g->b, LLVMIntULE, c64(g, (uint64_t)off + 4),
                                           LLVMBuildZExt(g->b, size, g->i64, ""), "");
         LLVMValueRef ok = LLVMBuildAnd(g->b, nonnull, fits, "");
         LLVMValueRef p = LLVMBuildSelect(g->b, ok, byte_ptr(g, bank, (uint64_t)off), g->zero, "");
         v = load(g, g->i32, p, g->tbaa_state, 4);
      }
      set_reg32(g, f->rd == PPU_RZ ? PPU_RZ : f->rd + k, broadcast(g, v), exec);
   }
}

/* A u32 field of the grid, in every lane. */
static LLVMValueRef grid_u32(struct gen *g, size_t offset)
{
   LLVMValueRef grid = state_field(g, offsetof(struct ppu_jit_state, grid), g->ptr);
   return broadcast(g, load(g, g->i32, byte_ptr(g, grid, offset), g->tbaa_state, 4));
}

/* S2R: the special registers as sm_alu.c's sreg_value computes them. */
static void emit_s2r(struct gen *g, const struct ppu_insn_fields *f, LLVMValueRef exec)
{
   LLVMValueRef lanes[PPU_WARP_SIZE];
   for (unsigned l = 0; l < PPU_WARP_SIZE; l++)
      lanes[l] = c32(g, l);
   LLVMValueRef lane = LLVMConstVector(lanes, PPU_WARP_SIZE);
   LLVMValueRef warp = broadcast(g, warp_field(g, offsetof(struct ppu_warp, warp_in_wg), g->i32));
   LLVMValueRef t =
       LLVMBuildAdd(g->b, LLVMBuildMul(g->b, warp, splat(c32(g, PPU_WARP_SIZE)), ""), lane, "");
   LLVMValueRef bit = LLVMBuildShl(g->b, splat(c32(g, 1)), lane, "");
   LLVMValueRef below = LLVMBuildSub(g->b, bit, splat(c32(g, 1)), "");
   size_t wgs = offsetof(struct ppu_grid, workgroup_size);
   LLVMValueRef r;
   switch (f->imm) {
   case PPU_SR_TID_X:
      r = LLVMBuildURem(g->b, t, grid_u32(g, wgs), "");
      break;
   case PPU_SR_TID_Y:
      r = LLVMBuildURem(g->b, LLVMBuildUDiv(g->b, t, grid_u32(g, wgs), ""), grid_u32(g, wgs + 4),
                        "");
      break;
   case PPU_SR_TID_Z:
      r = LLVMBuildUDiv(g->b, t, LLVMBuildMul(g->b, grid_u32(g, wgs), grid_u32(g, wgs + 4), ""),
                        "");
      break;
   case PPU_SR_CTAID_X:
   case PPU_SR_CTAID_Y:
   case PPU_SR_CTAID_Z: {
      LLVMValueRef sm = state_field(g, offsetof(struct ppu_jit_state, sm), g->ptr);
      LLVMValueRef wgs_base =
          load(g, g->ptr, byte_ptr(g, sm, offsetof(struct ppu_sm, wg)), g->tbaa_state, 8);
      LLVMValueRef slot = warp_field(g, offsetof(struct ppu_warp, wg_slot), g->i32);
      LLVMValueRef off = LLVMBuildAdd(
          g->b,
          LLVMBuildMul(g->b, LLVMBuildZExt(g->b, slot, g->i64, ""),
                       c64(g, sizeof(struct ppu_workgroup)), ""),
          c64(g, offsetof(struct ppu_workgroup, id) + 4 * (f->imm - PPU_SR_CTAID_X)), "");
      LLVMValueRef p = LLVMBuildGEP2(g->b, LLVMInt8TypeInContext(g->ctx), wgs_base, &off, 1, "");
      r = broadcast(g, load(g, g->i32, p, g->tbaa_state, 4));
      break;
   }
   case PPU_SR_NTID_X:
   case PPU_SR_NTID_Y:
   case PPU_SR_NTID_Z:
      r = grid_u32(g, wgs + 4 * (f->imm - PPU_SR_NTID_X));
      break;
   case PPU_SR_NCTAID_X:
   case PPU_SR_NCTAID_Y:
   case PPU_SR_NCTAID_Z:
      r = grid_u32(g, offsetof(struct ppu_grid, grid_size) + 4 * (f->imm - PPU_SR_NCTAID_X));
      break;
   case PPU_SR_LANEID:
      r = lane;
      break;
   case PPU_SR_WARPID:
      r = warp;
      break;
   case PPU_SR_NWARPS:
      r = grid_u32(g, offsetof(struct ppu_grid, warps_per_workgroup));
      break;
   case PPU_SR_TID_FLAT:
      r = t;
      break;
   case PPU_SR_LANEMASK_EQ:
      r = bit;
      break;
   case PPU_SR_LANEMASK_LT:
      r = below;
      break;
   case PPU_SR_LANEMASK_LE:
      r = LLVMBuildOr(g->b, bit, below, "");
      break;
   case PPU_SR_LANEMASK_GT:
      r = LLVMBuildNot(g->b, LLVMBuildOr(g->b, bit, below, ""), "");
      break;
   case PPU_SR_LANEMASK_GE:
      r = LLVMBuildNot(g->b, below, "");
      break;
   case PPU_SR_SMID: {
      LLVMValueRef sm = state_field(g, offsetof(struct ppu_jit_state, sm), g->ptr);
      r = broadcast(
          g, load(g, g->i32, byte_ptr(g, sm, offsetof(struct ppu_sm, id)), g->tbaa_state, 4));
      break;
   }
   default: /* unknown numbers read 0 (sm_alu.c) */
      r = LLVMConstNull(g->v32i32);
      break;
   }
   set_reg32(g, f->rd, r, exec);
}

static void emit_native(struct gen *g, const struct ppu_insn_fields *f)
{
   LLVMValueRef exec = exec_mask(g, f);
   g->lanes = LLVMBuildAdd(g->b, g->lanes, LLVMBuildZExt(g->b, popcount(g, exec), g->i64, ""), "");
   switch ((enum ppu_op)f->op) {
   case PPU_OP_NOP:
      return;
   case PPU_OP_LDC:
      emit_ldc(g, f, exec);
      return;
   case PPU_OP_S2R:
      emit_s2r(g, f, exec);
      return;
   case PPU_OP_PLOP: {
      LLVMValueRef p = pred(g, f->ps), q = pred(g, f->ps2);
      LLVMValueRef v = f->subop == PPU_PLOP_AND  ? LLVMBuildAnd(g->b, p, q, "")
                       : f->subop == PPU_PLOP_OR ? LLVMBuildOr(g->b, p, q, "")
                                                 : LLVMBuildXor(g->b, p, q, "");
      set_pred(g, f->pd, v, exec);
      return;
   }
   default:
      if (float_op(f->op))
         emit_float(g, f, exec);
      else
         emit_int(g, f, exec);
      return;
   }
}

/* --- Blocks ----------------------------------------------------------------- */

static LLVMBasicBlockRef new_bb(struct gen *g, const char *name)
{
   return LLVMAppendBasicBlockInContext(g->ctx, g->fn, name);
}

enum cached_field { CACHED_BUDGET, CACHED_WARP_INSNS, CACHED_LANE_INSNS, CACHED_ISSUED };

/* Where cached field k lives between translated runs. */
static LLVMValueRef cached_home(struct gen *g, enum cached_field k, LLVMValueRef *tbaa)
{
   static const size_t state_offset[] = {offsetof(struct ppu_jit_state, budget),
                                         offsetof(struct ppu_jit_state, warp_insns),
                                         offsetof(struct ppu_jit_state, lane_insns)};
   if (k == CACHED_ISSUED) {
      *tbaa = g->tbaa_warp;
      return byte_ptr(g, g->w, offsetof(struct ppu_warp, issued));
   }
   *tbaa = g->tbaa_state;
   return byte_ptr(g, g->st, state_offset[k]);
}

static LLVMValueRef cached(struct gen *g, enum cached_field k)
{
   return LLVMBuildLoad2(g->b, g->i64, g->cached[k], "");
}

static void set_cached(struct gen *g, enum cached_field k, LLVMValueRef v)
{
   LLVMBuildStore(g->b, v, g->cached[k]);
}

/* The locals from their homes (at entry and after the interpreter ran). */
static void reload_cached(struct gen *g)
{
   for (unsigned k = 0; k < 4; k++) {
      LLVMValueRef tbaa, home = cached_home(g, (enum cached_field)k, &tbaa);
      set_cached(g, (enum cached_field)k, load(g, g->i64, home, tbaa, 4));
   }
}

/* The locals to their homes, before the interpreter or the caller reads
 * them. */
static void spill_cached(struct gen *g)
{
   for (unsigned k = 0; k < 4; k++) {
      LLVMValueRef tbaa, home = cached_home(g, (enum cached_field)k, &tbaa);
      store(g, cached(g, (enum cached_field)k), home, tbaa, 4);
   }
}

/* Every return goes through here. */
static void leave(struct gen *g, LLVMValueRef result)
{
   spill_cached(g);
   LLVMBuildRet(g->b, result);
}

/* Continues at instruction index i (a block start), or returns to the
 * interpreter when there is none. */
static void goto_index(struct gen *g, uint64_t i)
{
   if (i < g->src->count && g->unit[i]) {
      LLVMBuildBr(g->b, g->unit[i]);
      return;
   }
   set_pc(g, (uint32_t)(i * PPU_INSN_BYTES));
   leave(g, c32(g, PPU_EXEC_NEXT));
}

/* Returns to the interpreter at pc unless cond holds. */
static void require(struct gen *g, LLVMValueRef cond, uint32_t pc)
{
   LLVMBasicBlockRef ok = new_bb(g, "ok"), out = new_bb(g, "out");
   LLVMBuildCondBr(g->b, cond, ok, out);
   LLVMPositionBuilderAtEnd(g->b, out);
   set_pc(g, pc);
   leave(g, c32(g, PPU_EXEC_NEXT));
   LLVMPositionBuilderAtEnd(g->b, ok);
}

static void book(struct gen *g, uint32_t n)
{
   set_cached(g, CACHED_BUDGET, LLVMBuildSub(g->b, cached(g, CACHED_BUDGET), c64(g, n), ""));
   set_cached(g, CACHED_WARP_INSNS,
              LLVMBuildAdd(g->b, cached(g, CACHED_WARP_INSNS), c64(g, n), ""));
   set_cached(g, CACHED_LANE_INSNS, LLVMBuildAdd(g->b, cached(g, CACHED_LANE_INSNS), g->lanes, ""));
   set_cached(g, CACHED_ISSUED, LLVMBuildAdd(g->b, cached(g, CACHED_ISSUED), c64(g, n), ""));
   g->lanes = c64(g, 0);
}

/* The interpreter executes the instruction at index i; then on to the next
 * block, or through the switch when it moved the warp elsewhere. */
static void emit_step(struct gen *g, uint32_t i)
{
   uint32_t pc = i * PPU_INSN_BYTES;
   require(g, LLVMBuildICmp(g->b, LLVMIntSGT, cached(g, CACHED_BUDGET), c64(g, 0), ""), pc);
   set_pc(g, pc);
   spill_cached(g); /* the interpreter counts in st and w */
   LLVMValueRef r =
       LLVMBuildCall2(g->b, g->step_ty, g->step_fn, (LLVMValueRef[]){g->st, g->reg, g->w}, 3, "");
   reload_cached(g);
   LLVMBasicBlockRef next = new_bb(g, "stepped"), out = new_bb(g, "leave");
   LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, r, c32(g, PPU_EXEC_NEXT), ""), next, out);
   LLVMPositionBuilderAtEnd(g->b, out);
   leave(g, r);
   LLVMPositionBuilderAtEnd(g->b, next);
   LLVMValueRef now = warp_field(g, offsetof(struct ppu_warp, pc), g->i32);
   LLVMBasicBlockRef on = new_bb(g, "on");
   LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, now, c32(g, pc + PPU_INSN_BYTES), ""), on,
                   g->dispatch);
   LLVMPositionBuilderAtEnd(g->b, on);
   goto_index(g, (uint64_t)i + 1);
}

/* --- Flow: the uniform cases natively, the rest through the interpreter --- */

/* Books the terminator at index i with the lanes it executes for. */
static void book_one(struct gen *g, LLVMValueRef exec)
{
   g->lanes = LLVMBuildZExt(g->b, popcount(g, exec), g->i64, "");
   book(g, 1);
}

/* Continues at the slow path (the interpreter executes instruction i)
 * unless cond holds. */
static void unless_slow(struct gen *g, LLVMValueRef cond, uint32_t i)
{
   LLVMBasicBlockRef ok = new_bb(g, "fast"), slow = new_bb(g, "slow");
   LLVMBuildCondBr(g->b, cond, ok, slow);
   LLVMPositionBuilderAtEnd(g->b, slow);
   emit_step(g, i);
   LLVMPositionBuilderAtEnd(g->b, ok);
}

static LLVMValueRef stack_field(struct gen *g, LLVMValueRef index, size_t field)
{
   LLVMValueRef stack = warp_field(g, offsetof(struct ppu_warp, stack), g->ptr);
   LLVMValueRef off = LLVMBuildAdd(g->b,
                                   LLVMBuildMul(g->b, LLVMBuildZExt(g->b, index, g->i64, ""),
                                                c64(g, sizeof(struct ppu_simt_entry)), ""),
                                   c64(g, field), "");
   return LLVMBuildGEP2(g->b, LLVMInt8TypeInContext(g->ctx), stack, &off, 1, "");
}

static void emit_branch(struct gen *g, const struct ppu_insn_fields *f, uint32_t i)
{
   LLVMValueRef exec = exec_mask(g, f);
   LLVMBasicBlockRef none = new_bb(g, "not_taken"), some = new_bb(g, "taken"),
                     all = new_bb(g, "uniform");
   LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, exec, c32(g, 0), ""), none, some);
   LLVMPositionBuilderAtEnd(g->b, none);
   book_one(g, exec);
   goto_index(g, (uint64_t)i + 1);
   LLVMPositionBuilderAtEnd(g->b, some);
   /* Divergent: the interpreter pushes the taken side. */
   unless_slow(g, LLVMBuildICmp(g->b, LLVMIntEQ, exec, g->active, ""), i);
   LLVMBuildBr(g->b, all);
   LLVMPositionBuilderAtEnd(g->b, all);
   book_one(g, exec);
   goto_index(g, f->imm / PPU_INSN_BYTES);
}

/* SSY, PBK, PCNT: an entry for the active lanes, while the on-chip stack
 * has room (a spill is the interpreter's). */
static void emit_push(struct gen *g, const struct ppu_insn_fields *f, uint32_t i,
                      enum ppu_simt_kind kind)
{
   LLVMValueRef depth = warp_field(g, offsetof(struct ppu_warp, stack_depth), g->i32);
   unless_slow(g, LLVMBuildICmp(g->b, LLVMIntULT, depth, c32(g, PPU_SIMT_STACK_DEPTH), ""), i);
   store(g, c32(g, f->imm), stack_field(g, depth, offsetof(struct ppu_simt_entry, pc)),
         g->tbaa_warp, 4);
   store(g, g->active, stack_field(g, depth, offsetof(struct ppu_simt_entry, mask)), g->tbaa_warp,
         4);
   store(g, c32(g, kind), stack_field(g, depth, offsetof(struct ppu_simt_entry, kind)),
         g->tbaa_warp, 4);
   set_warp_field(g, offsetof(struct ppu_warp, stack_depth),
                  LLVMBuildAdd(g->b, depth, c32(g, 1), ""));
   book_one(g, exec_mask(g, f));
   goto_index(g, (uint64_t)i + 1);
}

/* The end of a path: resumes the top entry when it still has live lanes
 * (the interpreter's resume() in its common case; an empty or dead top
 * entry is left to it). depth is known to be nonzero. */
static void emit_pop(struct gen *g, LLVMValueRef depth, LLVMValueRef exec, uint32_t i)
{
   LLVMValueRef top = LLVMBuildSub(g->b, depth, c32(g, 1), "");
   LLVMValueRef live = warp_field(g, offsetof(struct ppu_warp, live), g->i32);
   LLVMValueRef mask = LLVMBuildAnd(
       g->b,
       load(g, g->i32, stack_field(g, top, offsetof(struct ppu_simt_entry, mask)), g->tbaa_warp, 4),
       live, "");
   unless_slow(g, LLVMBuildICmp(g->b, LLVMIntNE, mask, c32(g, 0), ""), i);
   LLVMValueRef pc =
       load(g, g->i32, stack_field(g, top, offsetof(struct ppu_simt_entry, pc)), g->tbaa_warp, 4);
   set_warp_field(g, offsetof(struct ppu_warp, stack_depth), top);
   set_warp_field(g, offsetof(struct ppu_warp, pc), pc);
   set_warp_field(g, offsetof(struct ppu_warp, active), mask);
   book_one(g, exec);
   LLVMBuildBr(g->b, g->dispatch);
}

static void emit_sync(struct gen *g, uint32_t i)
{
   LLVMValueRef depth = warp_field(g, offsetof(struct ppu_warp, stack_depth), g->i32);
   unless_slow(g, LLVMBuildICmp(g->b, LLVMIntNE, depth, c32(g, 0), ""), i);
   emit_pop(g, depth, g->active, i);
}

/* BRK, CONT: lanes leave to the top entry when it is of the kind (deeper
 * targets clear the entries above them: the interpreter's). */
static void emit_leave(struct gen *g, const struct ppu_insn_fields *f, uint32_t i,
                       enum ppu_simt_kind kind)
{
   LLVMValueRef exec = exec_mask(g, f);
   LLVMValueRef depth = warp_field(g, offsetof(struct ppu_warp, stack_depth), g->i32);
   unless_slow(g, LLVMBuildICmp(g->b, LLVMIntNE, depth, c32(g, 0), ""), i);
   LLVMValueRef top = LLVMBuildSub(g->b, depth, c32(g, 1), "");
   LLVMValueRef top_kind =
       load(g, g->i32, stack_field(g, top, offsetof(struct ppu_simt_entry, kind)), g->tbaa_warp, 4);
   unless_slow(g, LLVMBuildICmp(g->b, LLVMIntEQ, top_kind, c32(g, kind), ""), i);
   LLVMValueRef left = LLVMBuildAnd(g->b, g->active, LLVMBuildNot(g->b, exec, ""), "");
   LLVMBasicBlockRef stay = new_bb(g, "lanes_left"), ended = new_bb(g, "path_ended");
   LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntNE, left, c32(g, 0), ""), stay, ended);
   LLVMPositionBuilderAtEnd(g->b, stay);
   set_warp_field(g, offsetof(struct ppu_warp, active), left);
   book_one(g, exec);
   goto_index(g, (uint64_t)i + 1);
   LLVMPositionBuilderAtEnd(g->b, ended);
   emit_pop(g, depth, exec, i);
}

/* The memory instruction f at i: its execution mask, with a path that
 * only books it when no lane runs (the interpreter touches no memory
 * then). */
static LLVMValueRef lanes_or_skip(struct gen *g, const struct ppu_insn_fields *f, uint32_t i)
{
   LLVMValueRef exec = exec_mask(g, f);
   LLVMBasicBlockRef none = new_bb(g, "no_lanes"), some = new_bb(g, "lanes");
   LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, exec, c32(g, 0), ""), none, some);
   LLVMPositionBuilderAtEnd(g->b, none);
   book_one(g, exec);
   goto_index(g, (uint64_t)i + 1);
   LLVMPositionBuilderAtEnd(g->b, some);
   return exec;
}

/* Adds exec's lane count to the SM's counter id, as the interpreter adds
 * one per lane. */
static void count_lanes(struct gen *g, enum ppu_counter id, LLVMValueRef exec)
{
   LLVMValueRef sm = state_field(g, offsetof(struct ppu_jit_state, sm), g->ptr);
   LLVMValueRef counter =
       byte_ptr(g, sm, offsetof(struct ppu_sm, counters) + id * sizeof(uint64_t));
   LLVMValueRef count = load(g, g->i64, counter, g->tbaa_state, 8);
   store(g, LLVMBuildAdd(g->b, count, LLVMBuildZExt(g->b, popcount(g, exec), g->i64, ""), ""),
         counter, g->tbaa_state, 8);
}

/* The registers of LD/ST f from or to host + offset[lane] for the lanes
 * of exec: 32-bit gathers or scatters in lane order (so overlapping
 * stores land as the interpreter's lane loop leaves them), a 64-bit
 * access as two. */
static void gather_scatter(struct gen *g, const struct ppu_insn_fields *f, LLVMValueRef host,
                           LLVMValueRef offset, LLVMValueRef exec)
{
   bool is_store = f->op == PPU_OP_ST;
   unsigned bytes = f->type == PPU_TYPE_U64 ? 8 : 4;
   LLVMValueRef mask = mask_vec(g, exec);
   LLVMTypeRef pv = LLVMVectorType(g->ptr, PPU_WARP_SIZE);
   unsigned id_gather = LLVMLookupIntrinsicID("llvm.masked.gather", 18);
   unsigned id_scatter = LLVMLookupIntrinsicID("llvm.masked.scatter", 19);
   LLVMTypeRef over[2] = {g->v32i32, pv};
   for (unsigned k = 0; k < bytes / 4; k++) {
      LLVMValueRef off = LLVMBuildAdd(g->b, offset, splat(c64(g, 4 * k)), "");
      LLVMValueRef ptrs = LLVMBuildGEP2(g->b, LLVMInt8TypeInContext(g->ctx), host, &off, 1, "");
      unsigned r = is_store ? f->rb : f->rd;
      unsigned reg = r == PPU_RZ ? PPU_RZ : r + k;
      if (is_store) {
         LLVMValueRef fn = LLVMGetIntrinsicDeclaration(g->mod, id_scatter, over, 2);
         LLVMTypeRef fty = LLVMIntrinsicGetType(g->ctx, id_scatter, over, 2);
         LLVMValueRef v = reg32(g, reg);
         LLVMValueRef call =
             LLVMBuildCall2(g->b, fty, fn, (LLVMValueRef[]){v, ptrs, c32(g, 4), mask}, 4, "");
         LLVMSetMetadata(call, g->tbaa_kind, g->tbaa_vram);
      } else {
         LLVMValueRef fn = LLVMGetIntrinsicDeclaration(g->mod, id_gather, over, 2);
         LLVMTypeRef fty = LLVMIntrinsicGetType(g->ctx, id_gather, over, 2);
         LLVMValueRef v = LLVMBuildCall2(
             g->b, fty, fn, (LLVMValueRef[]){ptrs, c32(g, 4), mask, LLVMGetPoison(g->v32i32)}, 4,
             "");
         LLVMSetMetadata(v, g->tbaa_kind, g->tbaa_vram);
         set_reg32(g, reg, v, exec);
      }
   }
}

/* LD/ST.SHARED and .LOCAL natively when every lane that runs is aligned
 * and inside the space (the interpreter's checks, which fault otherwise:
 * then the interpreter runs it). Shared memory is the workgroup's; local
 * memory is per thread, local_size bytes apart in thread order
 * (sm_lsu.c). */
static void emit_workgroup_memory(struct gen *g, const struct ppu_insn_fields *f, uint32_t i)
{
   bool local = f->mode == PPU_SPACE_LOCAL;
   unsigned bytes = f->type == PPU_TYPE_U64 ? 8 : 4;
   LLVMValueRef exec = lanes_or_skip(g, f, i);

   LLVMValueRef addr = LLVMBuildZExt(
       g->b, LLVMBuildAdd(g->b, reg32(g, f->ra), splat(c32(g, f->imm)), ""), g->v32i64, "");
   LLVMValueRef size = LLVMBuildZExt(g->b,
                                     grid_u32(g, local ? offsetof(struct ppu_grid, local_size)
                                                       : offsetof(struct ppu_grid, shared_size)),
                                     g->v32i64, "");
   LLVMValueRef aligned =
       LLVMBuildICmp(g->b, LLVMIntEQ, LLVMBuildAnd(g->b, addr, splat(c64(g, bytes - 1)), ""),
                     LLVMConstNull(g->v32i64), "");
   LLVMValueRef inside = LLVMBuildICmp(
       g->b, LLVMIntULE, LLVMBuildAdd(g->b, addr, splat(c64(g, bytes)), ""), size, "");
   LLVMValueRef ok = bits_of(g, LLVMBuildAnd(g->b, aligned, inside, ""));
   unless_slow(g, LLVMBuildICmp(g->b, LLVMIntEQ, LLVMBuildAnd(g->b, ok, exec, ""), exec, ""), i);

   book_one(g, exec);
   if (!local) {
      count_lanes(g, PPU_COUNTER_COMPUTE_SHARED_ACCESSES, exec);
   }
   LLVMValueRef host = LLVMBuildCall2(g->b, g->wg_memory_ty, g->wg_memory_fn,
                                      (LLVMValueRef[]){g->st, g->w, c32(g, local)}, 3, "");
   LLVMValueRef offset = addr;
   if (local) {
      LLVMValueRef lanes[PPU_WARP_SIZE];
      for (unsigned l = 0; l < PPU_WARP_SIZE; l++)
         lanes[l] = c64(g, l);
      LLVMValueRef lane = LLVMConstVector(lanes, PPU_WARP_SIZE);
      offset = LLVMBuildAdd(g->b, offset, LLVMBuildMul(g->b, lane, size, ""), "");
   }
   gather_scatter(g, f, host, offset, exec);
   goto_index(g, (uint64_t)i + 1);
}

/* LD/ST.GLOBAL natively when every lane that runs is aligned and on the
 * page of the first one (a warp's usual access): one translation through
 * the SM's TLB, as the interpreter's page cache makes, then a gather or
 * scatter on the page's host memory. Anything else is the interpreter's. */
static void emit_memory(struct gen *g, const struct ppu_insn_fields *f, uint32_t i)
{
   bool is_store = f->op == PPU_OP_ST;
   unsigned bytes = f->type == PPU_TYPE_U64 ? 8 : 4;
   LLVMValueRef exec = lanes_or_skip(g, f, i);

   LLVMValueRef addr =
       LLVMBuildAdd(g->b, reg64(g, f->ra), splat(c64(g, (uint64_t)(int64_t)(int32_t)f->imm)), "");
   LLVMValueRef misaligned = LLVMBuildAnd(g->b, addr, splat(c64(g, bytes - 1)), "");
   LLVMValueRef aligned =
       bits_of(g, LLVMBuildICmp(g->b, LLVMIntEQ, misaligned, LLVMConstNull(g->v32i64), ""));
   LLVMValueRef first =
       call_intrinsic(g, "llvm.cttz", g->i32, (LLVMValueRef[]){exec, LLVMConstInt(g->i1, 1, 0)}, 2);
   LLVMValueRef a0 = LLVMBuildExtractElement(g->b, addr, first, "");
   LLVMValueRef page = splat(c64(g, PPU_PAGE_SHIFT));
   LLVMValueRef same = bits_of(
       g, LLVMBuildICmp(g->b, LLVMIntEQ, LLVMBuildLShr(g->b, addr, page, ""),
                        broadcast(g, LLVMBuildLShr(g->b, a0, c64(g, PPU_PAGE_SHIFT), "")), ""));
   LLVMValueRef ok = LLVMBuildAnd(g->b, aligned, same, "");
   unless_slow(g, LLVMBuildICmp(g->b, LLVMIntEQ, LLVMBuildAnd(g->b, ok, exec, ""), exec, ""), i);

   /* The interpreter counts an instruction before executing it, so a fault
    * is booked too. */
   book_one(g, exec);
   set_pc(g, (i + 1) * PPU_INSN_BYTES);
   LLVMValueRef host = LLVMBuildCall2(
       g->b, g->page_ty, g->page_fn,
       (LLVMValueRef[]){g->st, a0, c32(g, i * PPU_INSN_BYTES), c32(g, is_store)}, 4, "");
   LLVMBasicBlockRef mapped = new_bb(g, "mapped"), fault = new_bb(g, "fault");
   LLVMBuildCondBr(g->b, LLVMBuildIsNull(g->b, host, ""), fault, mapped);
   LLVMPositionBuilderAtEnd(g->b, fault);
   leave(g, c32(g, PPU_EXEC_FAULT));
   LLVMPositionBuilderAtEnd(g->b, mapped);

   count_lanes(g, PPU_COUNTER_COMPUTE_GLOBAL_ACCESSES, exec);

   LLVMValueRef offset = LLVMBuildAnd(g->b, addr, splat(c64(g, PPU_PAGE_MASK)), "");
   gather_scatter(g, f, host, offset, exec);
   goto_index(g, (uint64_t)i + 1);
}

/* Native instructions [first, end); a BRA can only be the last. */
static void emit_block(struct gen *g, uint32_t first, uint32_t end)
{
   const struct ppu_jit_source *src = g->src;
   uint32_t len = end - first;
   uint32_t pc = first * PPU_INSN_BYTES;
   require(g, LLVMBuildICmp(g->b, LLVMIntSGE, cached(g, CACHED_BUDGET), c64(g, len), ""), pc);
   /* The icache must hold every line the block spans: then the
    * interpreter would have fetched them all without a miss. */
   uint64_t first_line = (src->program_va + pc) & ~(uint64_t)(PPU_ICACHE_LINE_BYTES - 1);
   uint64_t last_line = (src->program_va + (uint64_t)(end - 1) * PPU_INSN_BYTES) &
                        ~(uint64_t)(PPU_ICACHE_LINE_BYTES - 1);
   LLVMValueRef lines = state_field(g, offsetof(struct ppu_jit_state, icache), g->ptr);
   for (uint64_t line = first_line; line <= last_line; line += PPU_ICACHE_LINE_BYTES) {
      uint64_t slot = (line / PPU_ICACHE_LINE_BYTES) % src->icache_lines;
      LLVMValueRef va = load(
          g, g->i64,
          byte_ptr(g, lines,
                   slot * sizeof(struct ppu_icache_line) + offsetof(struct ppu_icache_line, va)),
          g->tbaa_state, 8);
      require(g, LLVMBuildICmp(g->b, LLVMIntEQ, va, c64(g, line), ""), pc);
   }
   g->active = warp_field(g, offsetof(struct ppu_warp, active), g->i32);
   g->lanes = c64(g, 0);
   const struct ppu_insn_fields *last = &src->insn[end - 1].f;
   bool terminated = ends_block(last);
   uint32_t body_end = terminated ? end - 1 : end;
   for (uint32_t i = first; i < body_end; i++)
      emit_native(g, &src->insn[i].f);
   book(g, body_end - first);
   if (!terminated) {
      goto_index(g, end);
      return;
   }
   switch ((enum ppu_op)last->op) {
   case PPU_OP_BRA:
      emit_branch(g, last, end - 1);
      break;
   case PPU_OP_SSY:
      emit_push(g, last, end - 1, PPU_SIMT_SYNC);
      break;
   case PPU_OP_PBK:
      emit_push(g, last, end - 1, PPU_SIMT_BREAK);
      break;
   case PPU_OP_PCNT:
      emit_push(g, last, end - 1, PPU_SIMT_CONT);
      break;
   case PPU_OP_SYNC:
      emit_sync(g, end - 1);
      break;
   case PPU_OP_LD:
   case PPU_OP_ST:
      if (last->mode == PPU_SPACE_GLOBAL)
         emit_memory(g, last, end - 1);
      else
         emit_workgroup_memory(g, last, end - 1);
      break;
   default: /* BRK, CONT */
      emit_leave(g, last, end - 1, last->op == PPU_OP_BRK ? PPU_SIMT_BREAK : PPU_SIMT_CONT);
      break;
   }
}

/* Block starts: offset 0, every branch, reconvergence and call target, and
 * whatever follows an instruction that ends a block. */
static void find_leaders(const struct ppu_jit_source *src, bool *leader)
{
   leader[0] = true;
   for (uint32_t i = 0; i < src->count; i++) {
      const struct ppu_icache_insn *in = &src->insn[i];
      bool native = !in->illegal && ppu_jit_is_native(&in->f);
      if ((!native || ends_block(&in->f)) && i + 1 < src->count)
         leader[i + 1] = true;
      if (!native)
         leader[i] = true;
      if (in->illegal)
         continue;
      switch ((enum ppu_op)in->f.op) {
      case PPU_OP_BRA:
      case PPU_OP_SSY:
      case PPU_OP_PBK:
      case PPU_OP_PCNT:
      case PPU_OP_CALL:
         if (in->f.imm / PPU_INSN_BYTES < src->count)
            leader[in->f.imm / PPU_INSN_BYTES] = true;
         break;
      default:
         break;
      }
   }
}

static LLVMValueRef tbaa_node(struct gen *g, LLVMMetadataRef root, const char *name)
{
   LLVMMetadataRef zero = LLVMValueAsMetadata(c64(g, 0));
   LLVMMetadataRef type = LLVMMDNodeInContext2(
       g->ctx, (LLVMMetadataRef[]){LLVMMDStringInContext2(g->ctx, name, strlen(name)), root, zero},
       3);
   LLVMMetadataRef tag = LLVMMDNodeInContext2(g->ctx, (LLVMMetadataRef[]){type, type, zero}, 3);
   return LLVMMetadataAsValue(g->ctx, tag);
}

static void init_types(struct gen *g)
{
   g->i1 = LLVMInt1TypeInContext(g->ctx);
   g->i32 = LLVMInt32TypeInContext(g->ctx);
   g->i64 = LLVMInt64TypeInContext(g->ctx);
   g->f32 = LLVMFloatTypeInContext(g->ctx);
   g->f64 = LLVMDoubleTypeInContext(g->ctx);
   g->ptr = LLVMPointerTypeInContext(g->ctx, 0);
   g->v32i1 = LLVMVectorType(g->i1, PPU_WARP_SIZE);
   g->v32i32 = LLVMVectorType(g->i32, PPU_WARP_SIZE);
   g->v32i64 = LLVMVectorType(g->i64, PPU_WARP_SIZE);
   g->v32f32 = LLVMVectorType(g->f32, PPU_WARP_SIZE);
   g->v32f64 = LLVMVectorType(g->f64, PPU_WARP_SIZE);
   g->tbaa_kind = LLVMGetMDKindIDInContext(g->ctx, "tbaa", 4);
   LLVMMetadataRef root = LLVMMDNodeInContext2(
       g->ctx, (LLVMMetadataRef[]){LLVMMDStringInContext2(g->ctx, "vkppu jit", 9)}, 1);
   g->tbaa_reg = tbaa_node(g, root, "register");
   g->tbaa_warp = tbaa_node(g, root, "warp");
   g->tbaa_state = tbaa_node(g, root, "state");
   g->tbaa_vram = tbaa_node(g, root, "vram");
}

static void build_function(struct gen *g)
{
   const struct ppu_jit_source *src = g->src;
   LLVMTypeRef fty = LLVMFunctionType(g->i32, (LLVMTypeRef[]){g->ptr, g->ptr, g->ptr}, 3, 0);
   g->fn = LLVMAddFunction(g->mod, "ppu_program", fty);
   g->st = LLVMGetParam(g->fn, 0);
   g->reg = LLVMGetParam(g->fn, 1);
   g->w = LLVMGetParam(g->fn, 2);
   g->step_ty = fty;
   g->step_fn = LLVMConstIntToPtr(c64(g, (uint64_t)(uintptr_t)ppu_jit_step), g->ptr);
   g->page_ty = LLVMFunctionType(g->ptr, (LLVMTypeRef[]){g->ptr, g->i64, g->i32, g->i32}, 4, 0);
   g->page_fn = LLVMConstIntToPtr(c64(g, (uint64_t)(uintptr_t)ppu_jit_page), g->ptr);
   g->wg_memory_ty = LLVMFunctionType(g->ptr, (LLVMTypeRef[]){g->ptr, g->ptr, g->i32}, 3, 0);
   g->wg_memory_fn =
       LLVMConstIntToPtr(c64(g, (uint64_t)(uintptr_t)ppu_jit_workgroup_memory), g->ptr);
   g->zero = LLVMAddGlobal(g->mod, g->i32, "zero");
   LLVMSetInitializer(g->zero, c32(g, 0));
   LLVMSetGlobalConstant(g->zero, 1);
   LLVMSetLinkage(g->zero, LLVMPrivateLinkage);

   LLVMBasicBlockRef entry = new_bb(g, "entry");
   g->dispatch = new_bb(g, "dispatch");
   bool *leader = calloc(src->count, sizeof(*leader));
   g->unit = calloc(src->count, sizeof(*g->unit));
   find_leaders(src, leader);
   for (uint32_t i = 0; i < src->count; i++)
      if (leader[i])
         g->unit[i] = new_bb(g, "unit");
   LLVMPositionBuilderAtEnd(g->b, entry);
   for (unsigned k = 0; k < 4; k++)
      g->cached[k] = LLVMBuildAlloca(g->b, g->i64, "");
   reload_cached(g);
   LLVMBuildBr(g->b, g->dispatch);

   LLVMBasicBlockRef unknown = new_bb(g, "unknown_pc");
   LLVMPositionBuilderAtEnd(g->b, unknown);
   leave(g, c32(g, PPU_EXEC_NEXT));
   LLVMPositionBuilderAtEnd(g->b, g->dispatch);
   unsigned cases = 0;
   for (uint32_t i = 0; i < src->count; i++)
      cases += g->unit[i] != NULL;
   LLVMValueRef pc = warp_field(g, offsetof(struct ppu_warp, pc), g->i32);
   LLVMValueRef sw = LLVMBuildSwitch(g->b, pc, unknown, cases);
   for (uint32_t i = 0; i < src->count; i++)
      if (g->unit[i])
         LLVMAddCase(sw, c32(g, i * PPU_INSN_BYTES), g->unit[i]);

   for (uint32_t i = 0; i < src->count;) {
      LLVMPositionBuilderAtEnd(g->b, g->unit[i]);
      const struct ppu_icache_insn *in = &src->insn[i];
      if (in->illegal || !ppu_jit_is_native(&in->f)) {
         emit_step(g, i);
         i++;
         continue;
      }
      uint32_t end = i + 1;
      while (end < src->count && !leader[end] && !ends_block(&src->insn[end - 1].f))
         end++;
      emit_block(g, i, end);
      i = end;
   }
   free(leader);
   free(g->unit);
   g->unit = NULL;
}

/* --- LLVM set-up and compilation -------------------------------------------- */

static pthread_once_t llvm_once = PTHREAD_ONCE_INIT;
static bool llvm_ready;

static void init_llvm(void)
{
   llvm_ready = !LLVMInitializeNativeTarget() && !LLVMInitializeNativeAsmPrinter();
}

static void error_text(LLVMErrorRef e, const char *what, char *err, size_t err_size)
{
   char *msg = LLVMGetErrorMessage(e);
   snprintf(err, err_size, "%s: %s", what, msg);
   LLVMDisposeErrorMessage(msg);
}

/* A target machine for the host CPU (AVX2 and whatever else it has). */
static LLVMTargetMachineRef host_machine(LLVMCodeGenOptLevel level, char *err, size_t err_size)
{
   char *triple = LLVMGetDefaultTargetTriple();
   char *cpu = LLVMGetHostCPUName();
   char *features = LLVMGetHostCPUFeatures();
   char *why = NULL;
   LLVMTargetRef target;
   LLVMTargetMachineRef tm = NULL;
   if (!LLVMGetTargetFromTriple(triple, &target, &why))
      tm = LLVMCreateTargetMachine(target, triple, cpu, features, level, LLVMRelocDefault,
                                   LLVMCodeModelJITDefault);
   else
      snprintf(err, err_size, "no LLVM target for %s: %s", triple, why ? why : "?");
   LLVMDisposeMessage(why);
   LLVMDisposeMessage(triple);
   LLVMDisposeMessage(cpu);
   LLVMDisposeMessage(features);
   return tm;
}

/* Code generation at level Less: on compute_mandelbrot 2048x2048 its code
 * runs about 20% faster than level None's (fast register allocation spills
 * the 32-lane vectors) at about 1.5x the compile time, and Default adds
 * compile time for no further speed measured (docs/jit.md, "Compile
 * latency"). */
static LLVMCodeGenOptLevel codegen_level(void)
{
   return LLVMCodeGenLevelLess;
}

/* Optimizes the module for the host CPU. */
static bool optimize(LLVMModuleRef mod, LLVMValueRef fn, char *err, size_t err_size)
{
   LLVMTargetMachineRef tm = host_machine(codegen_level(), err, err_size);
   if (!tm)
      return false;
   LLVMContextRef ctx = LLVMGetModuleContext(mod);
   char *cpu = LLVMGetTargetMachineCPU(tm);
   char *features = LLVMGetTargetMachineFeatureString(tm);
   char *triple = LLVMGetTargetMachineTriple(tm);
   LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                           LLVMCreateStringAttribute(ctx, "target-cpu", 10, cpu, strlen(cpu)));
   LLVMAddAttributeAtIndex(
       fn, LLVMAttributeFunctionIndex,
       LLVMCreateStringAttribute(ctx, "target-features", 15, features, strlen(features)));
   LLVMSetTarget(mod, triple);
   LLVMTargetDataRef layout = LLVMCreateTargetDataLayout(tm);
   LLVMSetModuleDataLayout(mod, layout);
   LLVMDisposeTargetData(layout);
   LLVMDisposeMessage(cpu);
   LLVMDisposeMessage(features);
   LLVMDisposeMessage(triple);
   LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
   LLVMErrorRef e = LLVMRunPasses(mod, "default<O2>", tm, opts);
   bool ok = !e;
   if (e)
      error_text(e, "optimizing", err, err_size);
   LLVMDisposePassBuilderOptions(opts);
   LLVMDisposeTargetMachine(tm);
   return ok;
}

struct ppu_jit_code *ppu_jit_translate(const struct ppu_jit_source *src, ppu_jit_fn *entry,
                                       char *err, size_t err_size)
{
   *entry = NULL;
   pthread_once(&llvm_once, init_llvm);
   if (!llvm_ready) {
      snprintf(err, err_size, "LLVM has no native target on this host");
      return NULL;
   }
   if (src->count == 0 || src->icache_lines == 0) {
      snprintf(err, err_size, "empty program");
      return NULL;
   }
   struct ppu_jit_code *code = calloc(1, sizeof(*code));
   if (!code) {
      snprintf(err, err_size, "out of host memory");
      return NULL;
   }
   LLVMOrcThreadSafeContextRef tsc = LLVMOrcCreateNewThreadSafeContext();
   struct gen g = {.ctx = LLVMOrcThreadSafeContextGetContext(tsc), .src = src};
   g.mod = LLVMModuleCreateWithNameInContext("ppu_program", g.ctx);
   g.b = LLVMCreateBuilderInContext(g.ctx);
   init_types(&g);
   build_function(&g);
   LLVMDisposeBuilder(g.b);
   char *why = NULL;
   if (LLVMVerifyModule(g.mod, LLVMReturnStatusAction, &why)) {
      snprintf(err, err_size, "translated module does not verify: %.200s", why ? why : "?");
      LLVMDisposeMessage(why);
      LLVMDisposeModule(g.mod);
      LLVMOrcDisposeThreadSafeContext(tsc);
      free(code);
      return NULL;
   }
   LLVMDisposeMessage(why);
   if (!optimize(g.mod, g.fn, err, err_size)) {
      LLVMDisposeModule(g.mod);
      LLVMOrcDisposeThreadSafeContext(tsc);
      free(code);
      return NULL;
   }

   LLVMTargetMachineRef tm = host_machine(codegen_level(), err, err_size);
   LLVMErrorRef e = NULL;
   if (!tm) {
      LLVMDisposeModule(g.mod);
      LLVMOrcDisposeThreadSafeContext(tsc);
      free(code);
      return NULL;
   }
   LLVMOrcLLJITBuilderRef jb = LLVMOrcCreateLLJITBuilder();
   LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(
       jb, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(tm));
   e = LLVMOrcCreateLLJIT(&code->lljit, jb);
   if (!e) {
      LLVMOrcThreadSafeModuleRef tsm = LLVMOrcCreateNewThreadSafeModule(g.mod, tsc);
      e = LLVMOrcLLJITAddLLVMIRModule(code->lljit, LLVMOrcLLJITGetMainJITDylib(code->lljit), tsm);
      if (e)
         LLVMOrcDisposeThreadSafeModule(tsm);
      g.mod = NULL;
   }
   LLVMOrcExecutorAddress addr = 0;
   if (!e)
      e = LLVMOrcLLJITLookup(code->lljit, &addr, "ppu_program");
   LLVMOrcDisposeThreadSafeContext(tsc);
   if (g.mod)
      LLVMDisposeModule(g.mod);
   if (e) {
      error_text(e, "compiling", err, err_size);
      ppu_jit_code_free(code);
      return NULL;
   }
   *entry = (ppu_jit_fn)(uintptr_t)addr;
   return code;
}

void ppu_jit_code_free(struct ppu_jit_code *code)
{
   if (!code)
      return;
   if (code->lljit)
      LLVMOrcDisposeLLJIT(code->lljit);
   free(code);
}

#endif /* VKPPU_HAVE_LLVM */
