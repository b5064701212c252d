/* The translator against the interpreter on random programs (docs/jit.md):
 * straight-line runs of every instruction the translator executes itself,
 * mixed with ones it leaves to the interpreter, under random guards, inside
 * random if/else nests and loops with divergent BRK and CONT. Each program
 * runs on a chip with sm.exec = interp and one with sm.exec = jit; every
 * register and predicate of every lane, the fault (if any) and every
 * compute counter must be identical. Fixed seeds; one host worker, so the
 * counts do not depend on how the host threads share the SMs. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compute/jit.h"
#include "compute_test_util.h"
#include "ppu/counters.h"
#include "test_harness.h"

#define PROGRAMS 16
#define SRC_MAX (64u << 10)
#define SHARED_BYTES 1024u /* the QMD's shared memory per workgroup */
#define LOCAL_BYTES 256u   /* and local memory per thread */
#define REGS32 15          /* R1..R15 hold 32-bit values; R16..R31 eight 64-bit pairs */
#define OUT_WORDS 40       /* per lane: R1..R31, then P0..P6 as 0/1 */
#define THREADS 64u        /* per workgroup: 8 x 4 x 2 */
#define GROUPS 2u
#define SCRATCH_OFFSET 0x10000u /* in the output buffer: the programs' loads and stores */
#define SCRATCH_WORDS 4096u

struct rng {
   uint64_t s;
};

static uint32_t rnd(struct rng *r)
{
   r->s ^= r->s >> 12;
   r->s ^= r->s << 25;
   r->s ^= r->s >> 27;
   return (uint32_t)((r->s * 2685821657736338717ull) >> 32);
}

static uint32_t below(struct rng *r, uint32_t n)
{
   return rnd(r) % n;
}

struct src {
   char text[SRC_MAX];
   size_t len;
   unsigned labels;
};

static void emit(struct src *s, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   int n = vsnprintf(s->text + s->len, SRC_MAX - s->len, fmt, ap);
   va_end(ap);
   if (n > 0 && s->len + (size_t)n < SRC_MAX)
      s->len += (size_t)n;
}

static unsigned r32(struct rng *r)
{
   return 1 + below(r, REGS32);
}

static unsigned r64(struct rng *r)
{
   return 16 + 2 * below(r, 8);
}

/* "@P2 " / "@!P0 " / "" */
static void guard(struct src *s, struct rng *r)
{
   if (below(r, 10) < 3)
      emit(s, "@%sP%u ", below(r, 2) ? "!" : "", below(r, 4));
}

/* Operand b: a register or an immediate (a float one for float types). */
static void operand_b(struct src *s, struct rng *r, bool wide, bool flt)
{
   if (below(r, 3) == 0) {
      static const char *const fimm[] = {"1.5f", "-0.0f",      "0.0f",
                                         "3.0f", "0x7fc00000", "0x00000001"};
      if (flt)
         emit(s, "%s", fimm[below(r, 6)]);
      else
         emit(s, "0x%x", below(r, 4) ? below(r, 64) : rnd(r));
   } else {
      emit(s, "R%u", wide ? r64(r) : r32(r));
   }
}

static const char *const cmp_int[] = {"LT", "EQ", "LE", "GT", "NE", "GE"};
static const char *const cmp_flt[] = {"F",   "LT",  "EQ",  "LE",  "GT",  "NE",  "GE",  "NUM",
                                      "NAN", "LTU", "EQU", "LEU", "GTU", "NEU", "GEU", "T"};

static void random_insn(struct src *s, struct rng *r)
{
   static const char *const int2[] = {"IADD", "ISUB", "IMUL", "IMIN", "IMAX",
                                      "AND",  "OR",   "XOR",  "SHL",  "SHR"};
   static const char *const flt2[] = {"FADD", "FSUB", "FMUL", "FDIV", "FMIN", "FMAX"};
   static const char *const itypes[] = {"U32", "S32", "U64", "S64"};
   guard(s, r);
   switch (below(r, 18)) {
   case 0:
   case 1:
   case 2: {
      const char *t = itypes[below(r, 4)];
      bool wide = t[1] == '6';
      const char *op = int2[below(r, 10)];
      if (wide &&
          (!strcmp(op, "SHL") || !strcmp(op, "AND") || !strcmp(op, "OR") || !strcmp(op, "XOR")))
         t = "U64";
      if (!wide &&
          (!strcmp(op, "SHL") || !strcmp(op, "AND") || !strcmp(op, "OR") || !strcmp(op, "XOR")))
         t = "U32";
      unsigned d = wide ? r64(r) : r32(r), a = wide ? r64(r) : r32(r);
      emit(s, "%s.%s R%u, R%u, ", op, t, d, a);
      operand_b(s, r, wide && strcmp(op, "SHL") && strcmp(op, "SHR"), false);
      emit(s, "\n");
      return;
   }
   case 3: {
      const char *t = below(r, 2) ? "U32" : "S32";
      static const char *const ops[] = {"IMULHI", "IABS", "INEG", "NOT", "POPC", "IMAD"};
      const char *op = ops[below(r, 6)];
      if (!strcmp(op, "IABS"))
         t = "S32";
      if (!strcmp(op, "NOT") || !strcmp(op, "POPC"))
         t = "U32";
      if (!strcmp(op, "IMAD")) {
         emit(s, "IMAD.%s R%u, R%u, ", t, r32(r), r32(r));
         operand_b(s, r, false, false);
         emit(s, ", R%u\n", r32(r));
      } else if (!strcmp(op, "IMULHI")) {
         emit(s, "IMULHI.%s R%u, R%u, ", t, r32(r), r32(r));
         operand_b(s, r, false, false);
         emit(s, "\n");
      } else {
         emit(s, "%s.%s R%u, R%u\n", op, t, r32(r), r32(r));
      }
      return;
   }
   case 4:
   case 5:
   case 6: {
      bool wide = below(r, 4) == 0;
      const char *op = flt2[below(r, 6)];
      emit(s, "%s.%s R%u, R%u, ", op, wide ? "F64" : "F32", wide ? r64(r) : r32(r),
           wide ? r64(r) : r32(r));
      operand_b(s, r, wide, true);
      emit(s, "\n");
      return;
   }
   case 7: {
      bool wide = below(r, 4) == 0;
      unsigned d = wide ? r64(r) : r32(r);
      emit(s, "FFMA.%s R%u, R%u, R%u, R%u\n", wide ? "F64" : "F32", d, wide ? r64(r) : r32(r),
           wide ? r64(r) : r32(r), wide ? r64(r) : r32(r));
      return;
   }
   case 8: {
      static const char *const fn[] = {"RCP", "RSQ", "SQRT", "EX2", "LG2", "SIN", "COS"};
      bool wide = below(r, 4) == 0;
      emit(s, "MUFU.%s.%s R%u, R%u\n", fn[below(r, wide ? 3 : 7)], wide ? "F64" : "F32",
           wide ? r64(r) : r32(r), wide ? r64(r) : r32(r));
      return;
   }
   case 9: {
      const char *t = itypes[below(r, 4)];
      bool wide = t[1] == '6';
      emit(s, "ISETP.%s.%s P%u, R%u, ", cmp_int[below(r, 6)], t, below(r, 4),
           wide ? r64(r) : r32(r));
      operand_b(s, r, wide, false);
      if (below(r, 4) == 0)
         emit(s, ", PT\n");
      else
         emit(s, ", %sP%u\n", below(r, 2) ? "!" : "", below(r, 4));
      return;
   }
   case 10: {
      bool wide = below(r, 4) == 0;
      emit(s, "FSETP.%s.%s P%u, R%u, ", cmp_flt[below(r, 16)], wide ? "F64" : "F32", below(r, 4),
           wide ? r64(r) : r32(r));
      operand_b(s, r, wide, true);
      emit(s, ", PT\n");
      return;
   }
   case 11: {
      static const char *const op[] = {"AND", "OR", "XOR"};
      emit(s, "PLOP.%s P%u, %sP%u, P%u\n", op[below(r, 3)], below(r, 4), below(r, 2) ? "!" : "",
           below(r, 4), below(r, 4));
      return;
   }
   case 12: {
      bool wide = below(r, 3) == 0;
      emit(s, "SEL.%s R%u, R%u, ", wide ? "U64" : "U32", wide ? r64(r) : r32(r),
           wide ? r64(r) : r32(r));
      operand_b(s, r, wide, false);
      emit(s, ", %sP%u\n", below(r, 2) ? "!" : "", below(r, 4));
      return;
   }
   case 13: {
      bool wide = below(r, 3) == 0;
      static const char *const sreg[] = {
          "SR_TID_X",       "SR_TID_Y",       "SR_TID_Z",       "SR_CTAID_X",     "SR_CTAID_Y",
          "SR_CTAID_Z",     "SR_NTID_X",      "SR_NTID_Y",      "SR_NTID_Z",      "SR_NCTAID_X",
          "SR_NCTAID_Y",    "SR_NCTAID_Z",    "SR_LANEID",      "SR_WARPID",      "SR_NWARPS",
          "SR_TID_FLAT",    "SR_LANEMASK_EQ", "SR_LANEMASK_LT", "SR_LANEMASK_LE", "SR_LANEMASK_GT",
          "SR_LANEMASK_GE", "SR_SMID"};
      if (below(r, 8) == 0)
         emit(s, "NOP\n");
      else if (below(r, 4) == 0)
         emit(s, "S2R R%u, %s\n", r32(r), sreg[below(r, 22)]);
      else if (below(r, 2))
         emit(s, "MOV.%s R%u, R%u\n", wide ? "U64" : "U32", wide ? r64(r) : r32(r),
              wide ? r64(r) : r32(r));
      else
         emit(s, "LDC.%s R%u, c[0][RZ+%u]\n", wide ? "U64" : "U32", wide ? r64(r) : r32(r),
              4 * below(r, 12));
      return;
   }
   case 14: {
      /* Left to the interpreter: division, bit fields, conversions. */
      static const char *const op[] = {"IDIV.S32", "IREM.U32", "BFE.U32", "BREV.U32", "FLO.S32"};
      unsigned k = below(r, 5);
      if (k >= 3)
         emit(s, "%s R%u, R%u\n", op[k], r32(r), r32(r));
      else
         emit(s, "%s R%u, R%u, R%u\n", op[k], r32(r), r32(r), r32(r));
      return;
   }
   case 15: {
      /* Global memory in a scratch area (R32:R33): mostly one page for the
       * whole warp, sometimes two pages, rarely misaligned (a fault both
       * engines must report alike). */
      bool wide = below(r, 4) == 0;
      unsigned span = below(r, 5) == 0 ? 0x1ffc : 0x3fc;
      emit(s, "AND.U32 R36, R%u, 0x%x\nMOV.U32 R37, 0\nIADD.U64 R34, R32, R36\n", r32(r),
           wide ? span & ~7u : span);
      unsigned off = below(r, 40) == 0 ? 2 : below(r, 3) == 0 ? 0x1000 : 8 * below(r, 4);
      guard(s, r);
      if (below(r, 2))
         emit(s, "LD.GLOBAL.%s R%u, [R34+%u]\n", wide ? "U64" : "U32", wide ? r64(r) : r32(r), off);
      else
         emit(s, "ST.GLOBAL.%s [R34+%u], R%u\n", wide ? "U64" : "U32", off, wide ? r64(r) : r32(r));
      return;
   }
   case 16: {
      /* The workgroup's shared memory or the thread's local memory (QMD:
       * SHARED_BYTES and LOCAL_BYTES): in range and aligned as a rule,
       * rarely misaligned or beyond the space (faults). */
      bool wide = below(r, 4) == 0, local = below(r, 2);
      unsigned span = local ? 0x7c : 0x1fc;
      emit(s, "AND.U32 R38, R%u, 0x%x\n", r32(r), wide ? span & ~7u : span);
      unsigned off = below(r, 40) == 0   ? 2
                     : below(r, 30) == 0 ? (local ? LOCAL_BYTES : SHARED_BYTES)
                                         : 8 * below(r, 4);
      const char *space = local ? "LOCAL" : "SHARED";
      guard(s, r);
      if (below(r, 2))
         emit(s, "LD.%s.%s R%u, [R38+%u]\n", space, wide ? "U64" : "U32", wide ? r64(r) : r32(r),
              off);
      else
         emit(s, "ST.%s.%s [R38+%u], R%u\n", space, wide ? "U64" : "U32", off,
              wide ? r64(r) : r32(r));
      return;
   }
   default:
      emit(s, "CVT.RN.F32.S32 R%u, R%u\n", r32(r), r32(r));
      return;
   }
}

static void random_block(struct src *s, struct rng *r, unsigned depth, bool in_loop);

static void random_if(struct src *s, struct rng *r, unsigned depth, bool in_loop)
{
   unsigned k = s->labels++;
   emit(s, "SSY merge%u\n", k);
   emit(s, "@%sP%u BRA else%u\n", below(r, 2) ? "!" : "", below(r, 4), k);
   random_block(s, r, depth + 1, in_loop);
   emit(s, "SYNC\nelse%u:\n", k);
   random_block(s, r, depth + 1, in_loop);
   emit(s, "SYNC\nmerge%u:\n", k);
}

static void random_loop(struct src *s, struct rng *r, unsigned depth)
{
   unsigned k = s->labels++;
   unsigned counter = 40 + depth; /* R40.. count iterations, never touched otherwise */
   emit(s, "MOV.U32 R%u, 0\nPBK exit%u\nhead%u:\n  PCNT cont%u\n", counter, k, k, k);
   random_block(s, r, depth + 1, true);
   emit(s, "  SYNC\ncont%u:\n  IADD.U32 R%u, R%u, 1\n", k, counter, counter);
   emit(s, "  ISETP.GE.U32 P6, R%u, %u, PT\n  @P6 BRK\n  BRA head%u\nexit%u:\n", counter,
        1 + below(r, 6), k, k);
}

static void random_block(struct src *s, struct rng *r, unsigned depth, bool in_loop)
{
   unsigned parts = 1 + below(r, 3);
   for (unsigned p = 0; p < parts; p++) {
      unsigned what = below(r, 10);
      if (what < 2 && depth < 3) {
         random_if(s, r, depth, in_loop);
      } else if (what < 3 && depth < 3) {
         random_loop(s, r, depth);
      } else {
         unsigned n = 1 + below(r, 10);
         for (unsigned i = 0; i < n; i++)
            random_insn(s, r);
      }
   }
}

/* Stores every register and predicate of every thread of the launch
 * (workgroups of THREADS threads, GROUPS of them) and ends. */
static void emit_epilogue(struct src *s)
{
   emit(s, "S2R R56, SR_TID_FLAT\nS2R R57, SR_CTAID_X\nIMAD.U32 R56, R57, %u, R56\n", THREADS);
   emit(s, "LDC.U64 R60, c[0][RZ]\nIMADW.U32 R60, R56, %u, R60\n", OUT_WORDS * 4);
   for (unsigned i = 1; i < 32; i++)
      emit(s, "ST.GLOBAL.U32 [R60+%u], R%u\n", 4 * (i - 1), i);
   emit(s, "MOV.U32 R59, 1\n");
   for (unsigned p = 0; p < 7; p++)
      emit(s, "SEL.U32 R58, R59, RZ, P%u\nST.GLOBAL.U32 [R60+%u], R58\n", p, 4 * (31 + p));
   emit(s, "EXIT\n");
}

/* Seeds registers from the lane, runs the random body, then stores every
 * register and predicate of every thread. */
static void random_program(struct src *s, struct rng *r)
{
   s->len = 0;
   s->labels = 0;
   emit(s, "S2R R0, SR_LANEID\n");
   for (unsigned i = 1; i < 32; i++)
      emit(s, "IMUL.U32 R%u, R0, 0x%x\nXOR.U32 R%u, R%u, 0x%x\n", i, rnd(r) | 1, i, i, rnd(r));
   for (unsigned p = 0; p < 4; p++)
      emit(s, "ISETP.LT.U32 P%u, R%u, R%u, PT\n", p, 1 + p, 5 + p);
   emit(s, "LDC.U64 R32, c[0][RZ]\nIADD.U64 R32, R32, 0x%x\n", SCRATCH_OFFSET);
   unsigned parts = 1 + below(r, 4);
   for (unsigned p = 0; p < parts; p++) {
      if (below(r, 3) == 0) {
         unsigned k = s->labels++;
         /* A loop whose body may leave divergently at its own level. */
         emit(s, "MOV.U32 R50, 0\nPBK exit%u\nhead%u:\n  PCNT cont%u\n", k, k, k);
         random_block(s, r, 1, true);
         emit(s, "  @P%u BRK\n", below(r, 4));
         random_block(s, r, 1, true);
         emit(s, "  @P%u CONT\n", below(r, 4));
         random_block(s, r, 1, true);
         emit(s, "  SYNC\ncont%u:\n  IADD.U32 R50, R50, 1\n", k);
         emit(s, "  ISETP.GE.U32 P6, R50, %u, PT\n  @P6 BRK\n  BRA head%u\nexit%u:\n",
              2 + below(r, 5), k, k);
      } else {
         random_block(s, r, 0, false);
      }
   }
   emit_epilogue(s);
}

static const enum ppu_counter compared[] = {
    PPU_COUNTER_COMPUTE_WARP_INSTRUCTIONS,
    PPU_COUNTER_COMPUTE_LANE_INSTRUCTIONS,
    PPU_COUNTER_COMPUTE_ICACHE_MISSES,
    PPU_COUNTER_COMPUTE_DIVERGENT_BRANCHES,
    PPU_COUNTER_COMPUTE_SIMT_STACK_SPILLS,
    PPU_COUNTER_COMPUTE_GLOBAL_ACCESSES,
    PPU_COUNTER_COMPUTE_SHARED_ACCESSES,
    PPU_COUNTER_MMU_TLB_HITS,
    PPU_COUNTER_MMU_TLB_MISSES,
};

struct run {
   uint32_t out[THREADS * GROUPS * OUT_WORDS];
   uint32_t scratch[SCRATCH_WORDS];
   bool ok;
   struct ppu_fault fault;
   uint64_t counters[PPU_COUNTER_COUNT];
};

static void run_on(enum ppu_sm_exec exec, uint32_t icache_lines, const char *text, struct run *out)
{
   struct ppu_gpu_config cfg;
   ppu_gpu_config_default(&cfg);
   cfg.vram_size = 64ull << 20;
   cfg.max_channels = 4;
   cfg.host_worker_threads = 1;
   cfg.sm_exec = exec;
   cfg.icache_lines = icache_lines;
   static struct hwc h;
   memset(out, 0, sizeof(*out));
   if (!hwc_init(&h, &cfg))
      return;
   uint32_t bank[12];
   for (unsigned i = 0; i < 12; i++)
      bank[i] = 0x3f800000u + i * 0x00123457u;
   hwt_write(&h.t.mem, h.t.pd, h.cb_va + 8, bank, sizeof(bank));
   uint64_t prog = hwc_program(&h, text);
   struct ppu_qmd q;
   hwc_qmd_defaults(&h, &q, prog);
   /* Two warps a workgroup in a 3D shape and two workgroups, so every
    * special register has more than one value. */
   q.workgroup_size[0] = 8;
   q.workgroup_size[1] = 4;
   q.workgroup_size[2] = THREADS / 32;
   q.grid_size[0] = GROUPS;
   q.shared_memory_size = SHARED_BYTES;
   q.local_memory_size = LOCAL_BYTES;
   out->ok = hwc_launch(&h, &q, 0, &out->fault);
   hwt_read(&h.t.mem, h.t.pd, h.out_va, out->out, sizeof(out->out));
   hwt_read(&h.t.mem, h.t.pd, h.out_va + SCRATCH_OFFSET, out->scratch, sizeof(out->scratch));
   for (unsigned c = 0; c < PPU_COUNTER_COUNT; c++)
      out->counters[c] = hwt_counter(&h.t, (enum ppu_counter)c);
   hwc_finish(&h);
}

TEST_CASE(translated_programs_match_the_interpreter_bit_for_bit)
{
   static struct src s;
   static struct run interp, jit;
   struct rng r = {0x9e3779b97f4a7c15ull};
   unsigned faulted = 0;
   /* JIT_DIFF_PROGRAM=file runs that program alone (to reduce a failure). */
   const char *one = getenv("JIT_DIFF_PROGRAM");
   for (unsigned n = 0; n < (one ? 1u : PROGRAMS); n++) {
      random_program(&s, &r);
      if (one) {
         FILE *f = fopen(one, "r");
         REQUIRE(f != NULL);
         s.len = fread(s.text, 1, SRC_MAX - 1, f);
         s.text[s.len] = 0;
         fclose(f);
      }
      /* A small icache on some programs: blocks then meet missing lines. */
      uint32_t lines = n % 3 == 0 ? 4 : 256;
      run_on(PPU_SM_EXEC_INTERP, lines, s.text, &interp);
      run_on(PPU_SM_EXEC_JIT, lines, s.text, &jit);
      CHECK_EQ_U64(interp.ok, jit.ok);
      faulted += !interp.ok;
      if (!interp.ok && !jit.ok) {
         CHECK_EQ_U64(interp.fault.kind, jit.fault.kind);
         CHECK_EQ_U64(interp.fault.pc, jit.fault.pc);
      }
      bool same = memcmp(interp.out, jit.out, sizeof(interp.out)) == 0;
      if (memcmp(interp.scratch, jit.scratch, sizeof(interp.scratch)) != 0) {
         test_fail(__FILE__, __LINE__, "program %u: the scratch memory differs\n%s", n, s.text);
         same = false;
      }
      if (!same) {
         for (unsigned i = 0; i < sizeof(interp.out) / 4; i++) {
            if (interp.out[i] != jit.out[i]) {
               test_fail(__FILE__, __LINE__,
                         "program %u: lane %u word %u: interpreter 0x%08x, translated 0x%08x\n%s",
                         n, i / OUT_WORDS, i % OUT_WORDS, interp.out[i], jit.out[i], s.text);
               break;
            }
         }
      }
      for (unsigned c = 0; c < sizeof(compared) / sizeof(compared[0]); c++) {
         if (interp.counters[compared[c]] != jit.counters[compared[c]])
            test_fail(
                __FILE__, __LINE__, "program %u: counter %s: interpreter %llu, translated %llu", n,
                ppu_counter_name(compared[c]), (unsigned long long)interp.counters[compared[c]],
                (unsigned long long)jit.counters[compared[c]]);
      }
      if (!same)
         break;
   }
   printf("%u random programs, %u of them faulted on both engines\n", PROGRAMS, faulted);
}

/* One instruction at a time on lane-hashed operands (special float values
 * included), so a difference names its opcode. */
TEST_CASE(single_instructions_match_the_interpreter)
{
   static const char *const insns[] = {
       "FFMA.F32 R3, R1, R2, R4",      "FFMA.F64 R16, R18, R20, R22", "FADD.F32 R3, R1, R2",
       "FSUB.F32 R3, R1, R2",          "FMUL.F32 R3, R1, R2",         "FDIV.F32 R3, R1, R2",
       "FMIN.F32 R3, R1, R2",          "FMAX.F32 R3, R1, R2",         "FMIN.F64 R16, R18, R20",
       "FADD.F64 R16, R18, R20",       "FDIV.F64 R16, R18, R20",      "MUFU.RCP.F32 R3, R1",
       "MUFU.RSQ.F32 R3, R1",          "MUFU.SQRT.F32 R3, R1",        "MUFU.RSQ.F64 R16, R18",
       "FSETP.LTU.F32 P0, R1, R2, PT", "IMULHI.S32 R3, R1, R2",       "SHR.S64 R16, R18, R2",
   };
   static struct src s;
   static struct run interp, jit;
   struct rng r = {12345};
   for (unsigned n = 0; n < sizeof(insns) / sizeof(insns[0]); n++) {
      s.len = 0;
      emit(&s, "S2R R0, SR_LANEID\n");
      for (unsigned i = 1; i < 32; i++)
         emit(&s, "IMUL.U32 R%u, R0, 0x%x\nXOR.U32 R%u, R%u, 0x%x\n", i, rnd(&r) | 1, i, i,
              rnd(&r));
      /* Lanes 0..3 of R1/R2: zeros of both signs, infinity and a NaN. */
      emit(&s, "ISETP.LT.U32 P5, R0, 4, PT\n@P5 SHL.U32 R1, R0, 30\n@P5 SHL.U32 R2, R0, 31\n");
      emit(&s, "%s\n", insns[n]);
      emit_epilogue(&s);
      run_on(PPU_SM_EXEC_INTERP, 256, s.text, &interp);
      run_on(PPU_SM_EXEC_JIT, 256, s.text, &jit);
      for (unsigned i = 0; i < sizeof(interp.out) / 4; i++) {
         if (interp.out[i] != jit.out[i]) {
            test_fail(__FILE__, __LINE__,
                      "%s: lane %u word %u: interpreter 0x%08x, translated 0x%08x", insns[n],
                      i / OUT_WORDS, i % OUT_WORDS, interp.out[i], jit.out[i]);
            break;
         }
      }
   }
}

TEST_CASE(every_native_opcode_is_covered_by_the_generator)
{
   /* The generator above must reach each instruction the translator runs
    * natively; a new native opcode without a case here fails this. */
   static const char *const covered[] = {
       "NOP",  "MOV",  "SEL",  "IADD",  "ISUB", "IMUL", "IMIN", "IMAX",   "IABS", "INEG", "ISETP",
       "AND",  "OR",   "XOR",  "NOT",   "SHL",  "SHR",  "POPC", "IMULHI", "IMAD", "PLOP", "BRA",
       "SSY",  "PBK",  "PCNT", "SYNC",  "BRK",  "CONT", "LDC",  "FADD",   "FSUB", "FMUL", "FFMA",
       "FDIV", "FMIN", "FMAX", "FSETP", "MUFU", "LD",   "ST",   "S2R"};
   for (unsigned op = 0; op < PPU_OP_COUNT; op++) {
      struct ppu_insn_fields f;
      ppu_insn_fields_init(&f, (enum ppu_op)op);
      f.type = (ppu_op_types((enum ppu_op)op) & PPU_T(F32)) ? PPU_TYPE_F32 : f.type;
      if (!ppu_jit_is_native(&f))
         continue;
      bool found = false;
      for (unsigned i = 0; i < sizeof(covered) / sizeof(covered[0]); i++)
         found = found || strcmp(covered[i], ppu_op_name((enum ppu_op)op)) == 0;
      if (!found)
         test_fail(__FILE__, __LINE__, "native opcode %s is not generated",
                   ppu_op_name((enum ppu_op)op));
   }
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
