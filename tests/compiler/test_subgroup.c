/* Subgroup operations: a subgroup is a warp of 32 lanes. Each category of
 * VkSubgroupFeatureFlagBits is run on the model for every type Vulkan 1.1
 * allows in it (32-bit integers and floats, doubles, bools, and with
 * shaderSubgroupExtendedTypes 16- and 64-bit integers), in divergent code
 * and in partial last subgroups, and compared with a scalar recomputation in
 * lane order. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compiler_test_util.h"
#include "spirv_grammar_tables.h"
#include "test_harness.h"

TEST_CASE(subgroup_vote_ballot_arithmetic_shuffle)
{
   struct ctu t;
   REQUIRE(ctu_init(&t));
   enum { N = 128 };
   uint64_t ob = ctu_buffer(&t, NULL, N * 12 * 4);
   struct ctu_dispatch d = {.shader = "subgroup_ops", .groups = {N / 64}};
   ctu_bind(&d, 0, 0, ob, N * 12 * 4);
   REQUIRE(ctu_run(&t, &d));
   static uint32_t out[N * 12];
   ctu_read(&t, ob, out, sizeof(out));
   for (uint32_t i = 0; i < N; i++) {
      uint32_t l = i % 32, base = i - l, sum = 0, inc = 0, mx = 0;
      for (uint32_t k = 0; k < 32; k++) {
         sum += base + k;
         if (k <= l)
            inc += base + k;
         uint32_t v = (base + k) * 7 % 13;
         mx = v > mx ? v : mx;
      }
      uint32_t want[12] = {sum,
                           inc,
                           l,
                           mx,
                           0xaaaaaaaau,
                           1u + 2u * (base == 0) + 4u * (l == 0) + 8u,
                           base + 31 - l,
                           i ^ 1u,
                           base + 5,
                           3200u + (i % 64) / 32,
                           (l & 1) ? 0u : 16u + 100u * 0u,
                           l};
      for (int k = 0; k < 12; k++)
         CHECK_MSG(out[i * 12 + k] == want[k], "i=%u k=%d got 0x%x want 0x%x", i, k,
                   out[i * 12 + k], want[k]);
   }
   ctu_finish(&t);
}

/* ---------------------------------------------------------------------------
 * Divergence: which lanes run the operations
 * ------------------------------------------------------------------------- */

enum { SG_LOCAL = 48, SG_GROUPS = 8, SG_N = SG_LOCAL * SG_GROUPS };

static uint32_t rng = 12345;
static uint32_t rnd(void)
{
   rng ^= rng << 13;
   rng ^= rng >> 17;
   rng ^= rng << 5;
   return rng;
}

/* Workgroup g's pattern of active lanes (l: lane within its subgroup). */
static uint32_t active_pattern(uint32_t g, uint32_t l)
{
   switch (g) {
   case 0:
      return 1; /* converged */
   case 1:
      return rnd() & 1;
   case 2:
      return (rnd() & 7) == 0;
   case 3:
      return (rnd() & 3) != 0;
   case 4:
      return l == 7 || l == 3; /* one lane of the 16-lane subgroup */
   case 5:
      return l & 1;
   case 6:
      return l >= 16; /* the partial subgroup runs nothing */
   default:
      return (rnd() % 10) != 0;
   }
}

static void fill_inputs(uint32_t *sel, uint32_t *val)
{
   for (uint32_t i = 0; i < SG_N; i++) {
      sel[i] = active_pattern(i / SG_LOCAL, (i % SG_LOCAL) % 32);
      val[i] = rnd();
   }
}

/* The lanes of invocation i's subgroup: first invocation and count. */
static void subgroup_of(uint32_t i, uint32_t *first, uint32_t *count)
{
   uint32_t local = i % SG_LOCAL, start = local - local % 32;
   *first = i - local + start;
   *count = SG_LOCAL - start < 32 ? SG_LOCAL - start : 32;
}

/* One storage buffer of a dispatch, bound at set 0 binding = its index:
 * data is copied in, or, for an output, zeroed and read back. */
struct sg_buffer {
   void *data;
   uint32_t bytes;
   bool out;
};

static bool run_with_buffers(const char *shader, uint32_t groups, const struct sg_buffer *b,
                             uint32_t n)
{
   struct ctu t;
   if (!ctu_init(&t))
      return false;
   struct ctu_dispatch d = {.shader = shader, .groups = {groups}};
   uint64_t va[CTU_MAX_BINDINGS];
   for (uint32_t k = 0; k < n && k < CTU_MAX_BINDINGS; k++) {
      va[k] = ctu_buffer(&t, b[k].out ? NULL : b[k].data, b[k].bytes);
      ctu_bind(&d, 0, k, va[k], b[k].bytes);
   }
   bool ok = ctu_run(&t, &d);
   for (uint32_t k = 0; ok && k < n && k < CTU_MAX_BINDINGS; k++)
      if (b[k].out)
         ctu_read(&t, va[k], b[k].data, b[k].bytes);
   ctu_finish(&t);
   return ok;
}

/* ---------------------------------------------------------------------------
 * ARITHMETIC and CLUSTERED
 * ------------------------------------------------------------------------- */

enum sg_ty { TY_U32, TY_S32, TY_F32, TY_F64, TY_BOOL, TY_U64, TY_S64, TY_U16, TY_S16 };
enum sg_red { RED_ADD, RED_MUL, RED_MIN, RED_MAX, RED_AND, RED_OR, RED_XOR };

/* A float operand's value and back: F32 bits in the low word, F64 in all
 * 64 (the results are compared as bits; x86-64 is little-endian). */
union sg_bits {
   uint64_t u64;
   uint32_t u32;
   double f64;
   float f32;
};

static double float_of(enum sg_ty ty, uint64_t bits)
{
   union sg_bits x = {.u64 = bits};
   return ty == TY_F64 ? x.f64 : x.f32;
}

static uint64_t bits_of(enum sg_ty ty, double v)
{
   union sg_bits x = {.f64 = v};
   if (ty == TY_F64)
      return x.u64;
   x.f32 = (float)v;
   return x.u32;
}

static uint64_t combine(enum sg_ty ty, enum sg_red op, uint64_t a, uint64_t b)
{
   if (ty == TY_F32) {
      float x = (float)float_of(ty, a), y = (float)float_of(ty, b);
      return bits_of(ty, op == RED_ADD   ? x + y
                         : op == RED_MUL ? x * y
                         : op == RED_MIN ? fminf(x, y)
                                         : fmaxf(x, y));
   }
   if (ty == TY_F64) {
      double x = float_of(ty, a), y = float_of(ty, b);
      return bits_of(ty, op == RED_ADD   ? x + y
                         : op == RED_MUL ? x * y
                         : op == RED_MIN ? fmin(x, y)
                                         : fmax(x, y));
   }
   /* Integers: 32- and 16-bit ones in the low bits. */
   bool wide = ty == TY_U64 || ty == TY_S64, narrow = ty == TY_U16 || ty == TY_S16;
   bool is_signed = ty == TY_S32 || ty == TY_S64 || ty == TY_S16;
   uint64_t mask = wide ? ~0ull : narrow ? 0xffffull : 0xffffffffull;
   int64_t sa = wide     ? (int64_t)a
                : narrow ? (int16_t)(uint16_t)a
                         : (int32_t)(uint32_t)a,
           sb = wide     ? (int64_t)b
                : narrow ? (int16_t)(uint16_t)b
                         : (int32_t)(uint32_t)b;
   switch (op) {
   case RED_ADD:
      return (a + b) & mask;
   case RED_MUL:
      return (a * b) & mask;
   case RED_MIN:
      return is_signed ? (sa < sb ? a : b) : (a < b ? a : b);
   case RED_MAX:
      return is_signed ? (sa > sb ? a : b) : (a > b ? a : b);
   case RED_AND:
      return a & b;
   case RED_OR:
      return a | b;
   default:
      return a ^ b;
   }
}

/* SPIR-V's identities (an exclusive scan's value for the lowest lane). */
static uint64_t identity_of(enum sg_ty ty, enum sg_red op)
{
   bool is_float = ty == TY_F32 || ty == TY_F64, wide = ty == TY_U64 || ty == TY_S64;
   bool narrow = ty == TY_U16 || ty == TY_S16;
   bool is_signed = ty == TY_S32 || ty == TY_S64 || ty == TY_S16;
   uint64_t ones = wide ? ~0ull : narrow ? 0xffffull : 0xffffffffull;
   uint64_t sign = wide ? 1ull << 63 : narrow ? 1ull << 15 : 1ull << 31;
   switch (op) {
   case RED_ADD:
   case RED_OR:
   case RED_XOR:
      return 0;
   case RED_MUL:
      return is_float ? bits_of(ty, 1.0) : 1;
   case RED_MIN:
      return is_float ? bits_of(ty, INFINITY) : is_signed ? ones ^ sign : ones;
   case RED_MAX:
      return is_float ? bits_of(ty, -INFINITY) : is_signed ? sign : 0;
   default: /* and */
      return ty == TY_BOOL ? 1 : ones;
   }
}

/* The operand subgroup_arith_types.comp derives from u for ty and op. */
static uint64_t operand_of(enum sg_ty ty, enum sg_red op, uint32_t u)
{
   float fm = (float)(1 << (u % 3)) * 0.5f;
   if (u & 8)
      fm = -fm;
   switch (ty) {
   case TY_F32:
      return bits_of(ty, op == RED_MUL ? fm : (float)((int)(u % 64) - 32) * 0.25f);
   case TY_F64:
      return bits_of(ty, op == RED_MUL ? fm : (double)((int)(u % 4096) - 2048) / 1024.0);
   case TY_BOOL:
      return ((u >> 4) & 3) != 0;
   case TY_U64:
   case TY_S64:
      return (uint64_t)u << 32 | (uint32_t)(u * 2654435761u);
   case TY_U16:
   case TY_S16:
      return u & 0xffffu;
   default:
      return u;
   }
}

/* Result m of the nine (reduce, inclusive, exclusive, clusters 1..32) for
 * active invocation i. */
static uint64_t expected_arith(const uint32_t *sel, const uint32_t *val, enum sg_ty ty,
                               enum sg_red op, uint32_t m, uint32_t i)
{
   uint32_t first, count, lane = (i % SG_LOCAL) % 32;
   subgroup_of(i, &first, &count);
   uint32_t cluster = m >= 3 ? 1u << (m - 3) : 32;
   uint64_t acc = identity_of(ty, op);
   for (uint32_t j = 0; j < count; j++) {
      bool in = m == 1 ? j <= lane : m == 2 ? j < lane : j / cluster == lane / cluster;
      if (sel[first + j] && in)
         acc = combine(ty, op, acc, operand_of(ty, op, val[first + j]));
   }
   return acc;
}

TEST_CASE(arithmetic_and_clustered_ops_on_every_type_in_divergent_code)
{
   static const struct {
      enum sg_ty ty;
      enum sg_red op;
      const char *name;
   } cases[] = {
       {TY_U32, RED_ADD, "uint add"},   {TY_U32, RED_MUL, "uint mul"},
       {TY_U32, RED_MIN, "uint min"},   {TY_U32, RED_MAX, "uint max"},
       {TY_U32, RED_AND, "uint and"},   {TY_U32, RED_OR, "uint or"},
       {TY_U32, RED_XOR, "uint xor"},   {TY_S32, RED_MIN, "int min"},
       {TY_S32, RED_MAX, "int max"},    {TY_F32, RED_ADD, "float add"},
       {TY_F32, RED_MUL, "float mul"},  {TY_F32, RED_MIN, "float min"},
       {TY_F32, RED_MAX, "float max"},  {TY_BOOL, RED_AND, "bool and"},
       {TY_BOOL, RED_OR, "bool or"},    {TY_BOOL, RED_XOR, "bool xor"},
       {TY_F64, RED_ADD, "double add"}, {TY_F64, RED_MUL, "double mul"},
       {TY_F64, RED_MIN, "double min"}, {TY_F64, RED_MAX, "double max"},
   };
   enum { WORDS = 144, DOUBLES = 36 };
   static const char *const modes[9] = {"reduce",    "inclusive",  "exclusive",
                                        "cluster 1", "cluster 2",  "cluster 4",
                                        "cluster 8", "cluster 16", "cluster 32"};
   static uint32_t sel[SG_N], val[SG_N], out[SG_N * WORDS];
   static uint64_t outd[SG_N * DOUBLES];
   fill_inputs(sel, val);
   const struct sg_buffer buffers[] = {{sel, sizeof(sel), false},
                                       {val, sizeof(val), false},
                                       {out, sizeof(out), true},
                                       {outd, sizeof(outd), true}};
   REQUIRE(run_with_buffers("subgroup_arith_types", SG_GROUPS, buffers, 4));
   uint32_t failures = 0;
   for (uint32_t i = 0; i < SG_N; i++) {
      uint32_t word = 0, dbl = 0;
      for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
         bool wide = cases[c].ty == TY_F64;
         for (uint32_t m = 0; m < 9; m++) {
            uint64_t got = wide ? outd[i * DOUBLES + dbl + m] : out[i * WORDS + word + m];
            uint64_t want = sel[i] ? expected_arith(sel, val, cases[c].ty, cases[c].op, m, i) : 0;
            if (got != want && failures++ < 10)
               CHECK_MSG(false, "invocation %u (group %u lane %u) %s %s: got 0x%llx want 0x%llx", i,
                         i / SG_LOCAL, (i % SG_LOCAL) % 32, cases[c].name, modes[m],
                         (unsigned long long)got, (unsigned long long)want);
         }
         if (wide)
            dbl += 9;
         else
            word += 9;
      }
   }
   CHECK_MSG(failures == 0, "%u results differ", failures);
}

/* 64-bit integers (shaderSubgroupExtendedTypes): the serial scan takes
 * them like doubles. */
TEST_CASE(arithmetic_and_clustered_ops_on_64_bit_integers)
{
   static const struct {
      enum sg_ty ty;
      enum sg_red op;
   } cases[] = {{TY_U64, RED_ADD}, {TY_U64, RED_MUL}, {TY_U64, RED_MIN},
                {TY_U64, RED_MAX}, {TY_U64, RED_AND}, {TY_U64, RED_OR},
                {TY_U64, RED_XOR}, {TY_S64, RED_MIN}, {TY_S64, RED_MAX}};
   enum { WORDS = 81 };
   static uint32_t sel[SG_N], val[SG_N];
   static uint64_t out[SG_N * WORDS];
   fill_inputs(sel, val);
   const struct sg_buffer buffers[] = {
       {sel, sizeof(sel), false}, {val, sizeof(val), false}, {out, sizeof(out), true}};
   REQUIRE(run_with_buffers("subgroup_arith_int64", SG_GROUPS, buffers, 3));
   uint32_t failures = 0;
   for (uint32_t i = 0; i < SG_N; i++) {
      for (uint32_t k = 0; k < WORDS; k++) {
         uint64_t want =
             sel[i] ? expected_arith(sel, val, cases[k / 9].ty, cases[k / 9].op, k % 9, i) : 0;
         if (out[i * WORDS + k] != want && failures++ < 10)
            CHECK_MSG(false, "invocation %u case %u mode %u: got 0x%llx want 0x%llx", i, k / 9,
                      k % 9, (unsigned long long)out[i * WORDS + k], (unsigned long long)want);
      }
   }
   CHECK_MSG(failures == 0, "%u results differ", failures);
}

/* 16-bit integers (shaderSubgroupExtendedTypes): they live in 32-bit
 * registers, extended per their type, so each operation must keep 16-bit
 * results and the exclusive scans' identities (INT16_MAX, not INT32_MAX)
 * and hand back registers extended for the result type. */
TEST_CASE(arithmetic_and_clustered_ops_on_16_bit_integers)
{
   static const struct {
      enum sg_ty ty;
      enum sg_red op;
   } cases[] = {{TY_U16, RED_ADD}, {TY_U16, RED_MUL}, {TY_U16, RED_MIN}, {TY_U16, RED_MAX},
                {TY_U16, RED_AND}, {TY_U16, RED_OR},  {TY_U16, RED_XOR}, {TY_S16, RED_MIN},
                {TY_S16, RED_MAX}, {TY_S16, RED_ADD}};
   enum { WORDS = 90 };
   static uint32_t sel[SG_N], val[SG_N], out[SG_N * WORDS];
   fill_inputs(sel, val);
   const struct sg_buffer buffers[] = {
       {sel, sizeof(sel), false}, {val, sizeof(val), false}, {out, sizeof(out), true}};
   REQUIRE(run_with_buffers("subgroup_arith_int16", SG_GROUPS, buffers, 3));
   uint32_t failures = 0;
   for (uint32_t i = 0; i < SG_N; i++) {
      for (uint32_t k = 0; k < WORDS; k++) {
         const enum sg_ty ty = cases[k / 9].ty;
         uint64_t r = sel[i] ? expected_arith(sel, val, ty, cases[k / 9].op, k % 9, i) : 0;
         /* int(int16_t) sign-extends, int(uint16_t) zero-extends. */
         uint32_t want = ty == TY_S16 ? (uint32_t)(int32_t)(int16_t)(uint16_t)r : (uint32_t)r;
         if (out[i * WORDS + k] != want && failures++ < 10)
            CHECK_MSG(false, "invocation %u case %u mode %u: got 0x%x want 0x%x", i, k / 9, k % 9,
                      out[i * WORDS + k], want);
      }
   }
   CHECK_MSG(failures == 0, "%u results differ", failures);
}

/* ---------------------------------------------------------------------------
 * VOTE, BALLOT, SHUFFLE, SHUFFLE_RELATIVE, QUAD
 * ------------------------------------------------------------------------- */

enum { EX_WORDS = 40, EX_DOUBLES = 12 };

struct ex_subgroup {
   uint32_t first, count, lane, active; /* active: mask of executing lanes */
};

static struct ex_subgroup ex_subgroup_of(const uint32_t *sel, uint32_t i)
{
   struct ex_subgroup s;
   subgroup_of(i, &s.first, &s.count);
   s.lane = i - s.first;
   s.active = 0;
   for (uint32_t j = 0; j < s.count; j++)
      s.active |= (uint32_t)(sel[s.first + j] != 0) << j;
   return s;
}

/* Lane src's value when SPIR-V defines the result (src executes), else
 * false. */
static bool ex_source(const struct ex_subgroup *s, uint32_t src)
{
   return src < 32 && ((s->active >> src) & 1);
}

static double ex_double(const uint32_t *val, const uint32_t *q, uint32_t i)
{
   return (double)val[i] + (double)q[i] * 4294967296.0;
}

static float ex_fq(const uint32_t *q, uint32_t i, uint32_t lane)
{
   return q[i] == 0 ? ((lane & 1) ? -0.0f : 0.0f) : (float)q[i];
}

/* Checks invocation i's words of subgroup_exchange.comp; returns failures. */
static uint32_t check_exchange(const uint32_t *sel, const uint32_t *val, const uint32_t *q,
                               const uint32_t *o, const uint64_t *od, uint32_t i)
{
   struct ex_subgroup s = ex_subgroup_of(sel, i);
   uint32_t lane = s.lane, first_lane = (uint32_t)__builtin_ctz(s.active), failures = 0;
   uint32_t ballot = 0, all_q = 1, u = val[i];
   for (uint32_t j = 0; j < s.count; j++) {
      if (!((s.active >> j) & 1))
         continue;
      ballot |= (val[s.first + j] & 1) << j;
      all_q &= q[s.first + j] == q[s.first + first_lane];
   }
   /* want[k] < 0 (as int64): not checked (undefined in SPIR-V). */
   int64_t want[EX_WORDS];
   for (int k = 0; k < EX_WORDS; k++)
      want[k] = -1;
   uint32_t first = val[s.first + first_lane];
#define LANE_VAL(src, expr) (ex_source(&s, (src)) ? (int64_t)(expr) : -1)
   want[0] = ballot == s.active;
   want[1] = ballot != 0;
   want[2] = want[3] = want[4] = want[5] = want[7] = all_q;
   uint32_t sevens = 0; /* executing lanes whose q is 7 */
   for (uint32_t j = 0; j < s.count; j++)
      sevens += ((s.active >> j) & 1) && q[s.first + j] == 7;
   want[6] = sevens == 0 || sevens == (uint32_t)__builtin_popcount(s.active);
   want[8] = ballot;
   want[9] = 0;
   want[10] = (first >> lane) & 1;
   uint32_t index = (u >> 3) & 127, words[4] = {u, ~u, u ^ 0x5555u, 7u};
   want[11] = (words[index >> 5] >> (index & 31)) & 1;
   want[12] = __builtin_popcount(ballot);
   want[13] = __builtin_popcount(ballot & (0xffffffffu >> (31 - lane)));
   want[14] = __builtin_popcount(ballot & ((1u << lane) - 1));
   want[15] = ballot ? (int64_t)__builtin_ctz(ballot) : -1;
   want[16] = ballot ? (int64_t)(31 - __builtin_clz(ballot)) : -1;
   want[17] = first;
   want[18] = LANE_VAL(5, val[s.first + 5]);
   uint32_t idx = (u >> 5) & 31;
   want[19] = LANE_VAL(idx, val[s.first + idx]);
   want[20] = LANE_VAL(lane ^ 5, val[s.first + (lane ^ 5)]);
   want[21] = lane >= 3 ? LANE_VAL(lane - 3, val[s.first + lane - 3]) : -1;
   want[22] = LANE_VAL(lane + 2, val[s.first + lane + 2]);
   uint32_t x2 = lane ^ 2;
   want[23] = LANE_VAL(x2, val[s.first + x2]);
   want[24] = LANE_VAL(x2, val[s.first + x2] + 1);
   want[25] = LANE_VAL(x2, x2);
   want[26] = LANE_VAL(lane ^ 1, val[s.first + (lane ^ 1)] & 1);
   uint32_t quad = lane & ~3u;
   want[27] = LANE_VAL(quad + 2, val[s.first + quad + 2]);
   want[28] = LANE_VAL(lane ^ 1, val[s.first + (lane ^ 1)]);
   want[29] = LANE_VAL(lane ^ 2, val[s.first + (lane ^ 2)]);
   want[30] = LANE_VAL(lane ^ 3, val[s.first + (lane ^ 3)]);
   want[31] = want[26];
   if (ex_source(&s, lane ^ 2)) {
      uint32_t src = s.first + (lane ^ 2);
      want[32] = (int64_t)bits_of(TY_F32, ex_fq(q, src, lane ^ 2) + (float)(val[src] & 255));
   }
   want[33] = lane == first_lane;
   uint32_t below = ballot | ~s.active; /* t, or not executing */
   want[34] = (below & ((1u << lane) - 1)) != ((1u << lane) - 1);
   for (int k = 0; k < EX_WORDS; k++) {
      uint32_t got = o[i * EX_WORDS + k];
      if (k >= 35)
         want[k] = 0;
      if (want[k] >= 0 && got != (uint32_t)want[k] && failures++ < 4)
         CHECK_MSG(false, "invocation %u (group %u lane %u) word %d: got 0x%x want 0x%llx", i,
                   i / SG_LOCAL, lane, k, got, (unsigned long long)want[k]);
   }
   /* The doubles: lanes whose value each result reads. */
   int32_t src[EX_DOUBLES] = {3,
                              (int32_t)first_lane,
                              (int32_t)idx,
                              (int32_t)(lane ^ 1),
                              (int32_t)lane - 1,
                              (int32_t)lane + 7,
                              (int32_t)quad + 1,
                              (int32_t)(lane ^ 3),
                              (int32_t)(lane ^ 2),
                              (int32_t)(lane ^ 2),
                              (int32_t)(lane ^ 1),
                              -1};
   for (int k = 0; k < EX_DOUBLES; k++) {
      if (src[k] < 0 || !ex_source(&s, (uint32_t)src[k]))
         continue;
      double v = ex_double(val, q, s.first + (uint32_t)src[k]);
      uint64_t want_bits = bits_of(TY_F64, k == 9 ? -v : v), got = od[i * EX_DOUBLES + k];
      if (got != want_bits && failures++ < 4)
         CHECK_MSG(false, "invocation %u (lane %u) double %d: got %.17g want %.17g", i, lane, k,
                   float_of(TY_F64, got), float_of(TY_F64, want_bits));
   }
#undef LANE_VAL
   return failures;
}

TEST_CASE(vote_ballot_shuffle_and_quad_ops_on_every_type_in_divergent_code)
{
   static uint32_t sel[SG_N], val[SG_N], q[SG_N], out[SG_N * EX_WORDS];
   static uint64_t outd[SG_N * EX_DOUBLES];
   fill_inputs(sel, val);
   /* q: uniform per subgroup, except that one lane differs in every third
    * subgroup; 0 (as -0.0 and +0.0 floats) in every fourth. */
   for (uint32_t i = 0; i < SG_N; i++) {
      uint32_t sg = i / SG_LOCAL * 2 + (i % SG_LOCAL) / 32;
      q[i] = sg % 4 == 1 ? 0 : sg * 3 + 5;
      if (sg % 3 == 0 && (i % SG_LOCAL) % 32 == 9)
         q[i] = 7;
   }
   const struct sg_buffer buffers[] = {{sel, sizeof(sel), false},
                                       {val, sizeof(val), false},
                                       {q, sizeof(q), false},
                                       {out, sizeof(out), true},
                                       {outd, sizeof(outd), true}};
   REQUIRE(run_with_buffers("subgroup_exchange", SG_GROUPS, buffers, 5));
   uint32_t failures = 0;
   for (uint32_t i = 0; i < SG_N; i++) {
      if (sel[i]) {
         failures += check_exchange(sel, val, q, out, outd, i);
         continue;
      }
      for (int k = 0; k < EX_WORDS; k++)
         if (out[i * EX_WORDS + k] && failures++ < 10)
            CHECK_MSG(false, "inactive invocation %u wrote word %d", i, k);
   }
   CHECK_MSG(failures == 0, "%u results differ", failures);
}

/* ---------------------------------------------------------------------------
 * Subgroup barriers
 * ------------------------------------------------------------------------- */

static uint32_t barrier_acc(uint32_t lid)
{
   uint32_t acc = 0, sg = lid / 32;
   for (uint32_t it = 0; it < 1 + 2 * sg; it++)
      acc += (lid ^ 1) * 16 + it;
   if (lid & 1)
      acc += 1000 + (lid ^ 2);
   return acc;
}

TEST_CASE(subgroup_barrier_in_divergent_code_waits_for_its_subgroup_only)
{
   enum { G = 3, N = 64 * G };
   static uint32_t out[N];
   const struct sg_buffer buffer = {out, sizeof(out), true};
   REQUIRE(run_with_buffers("subgroup_barrier", G, &buffer, 1));
   for (uint32_t i = 0; i < N; i++) {
      uint32_t want = barrier_acc((i % 64 + 32) % 64);
      CHECK_MSG(out[i] == want, "invocation %u: got %u want %u", i, out[i], want);
   }
}

/* ---------------------------------------------------------------------------
 * Malformed subgroup instructions: an error with a message, never a crash
 * ------------------------------------------------------------------------- */

/* The subgroup shaders' bindings: storage buffers 0..4 of set 0. */
static int compile_buffers(const uint32_t *words, size_t count, char *err, size_t err_size)
{
   static const enum drv_binding_kind kinds[5] = {
       DRV_BINDING_STORAGE_BUFFER, DRV_BINDING_STORAGE_BUFFER, DRV_BINDING_STORAGE_BUFFER,
       DRV_BINDING_STORAGE_BUFFER, DRV_BINDING_STORAGE_BUFFER};
   return ctu_compile_with_bindings(words, count, kinds, 5, err, err_size);
}

static bool is_subgroup_opcode(uint32_t op)
{
   return (op >= SPIRV_OP_GroupNonUniformElect && op <= SPIRV_OP_GroupNonUniformQuadSwap) ||
          op == SPIRV_OP_ControlBarrier;
}

/* Every operand word of every subgroup instruction replaced by other ids
 * and by out-of-range values. */
static uint32_t substitute_subgroup_operands(const char *shader)
{
   size_t n = 0;
   uint32_t *words = ctu_load_spirv(shader, &n);
   uint32_t *copy = words ? malloc(n * 4) : NULL;
   uint32_t tried = 0;
   if (!copy) {
      free(words);
      return 0;
   }
   uint32_t bound = words[3];
   char err[256];
   for (size_t at = 5; at < n;) {
      uint32_t count = words[at] >> 16;
      if (count == 0 || at + count > n)
         break;
      for (uint32_t w = 1; w < count && is_subgroup_opcode(words[at] & 0xffffu); w++) {
         static const uint32_t extra[] = {0, 0xffffffffu, 0x10000u, 3, 2};
         uint32_t step = bound / 24 + 1, ids = (bound - 1 + step - 1) / step;
         for (uint32_t k = 0; k < ids + 5; k++) {
            memcpy(copy, words, n * 4);
            copy[at + w] = k < ids ? 1 + k * step : extra[k - ids];
            err[0] = '\0';
            if (compile_buffers(copy, n, err, sizeof(err)))
               CHECK_MSG(err[0], "%s word %zu = %u: error without a message", shader, at + w,
                         copy[at + w]);
            tried++;
         }
      }
      at += count;
   }
   free(copy);
   free(words);
   return tried;
}

TEST_CASE(malformed_subgroup_operands_fail_cleanly)
{
   uint32_t tried = substitute_subgroup_operands("subgroup_exchange");
   tried += substitute_subgroup_operands("subgroup_barrier");
   CHECK_MSG(tried > 1000, "only %u substitutions", tried);
}

TEST_CASE(corrupted_subgroup_module_never_crashes)
{
   ctu_check_corruptions("subgroup_exchange", 5, 300, compile_buffers);
}

/* Word offset of the first instruction with opcode whose word `word` is
 * `value` (any when value is UINT32_MAX), n when there is none. */
static size_t find_inst(const uint32_t *words, size_t n, uint32_t opcode, uint32_t word,
                        uint32_t value)
{
   for (size_t at = 5; at < n;) {
      uint32_t count = words[at] >> 16;
      if (count == 0 || at + count > n)
         break;
      if ((words[at] & 0xffffu) == opcode && word < count &&
          (value == UINT32_MAX || words[at + word] == value))
         return at;
      at += count;
   }
   return n;
}

/* shader with word `word` of the first such instruction replaced by the
 * word before it (the value operand, which is no constant) must fail with a
 * message naming what. */
static void check_non_constant_rejected(const char *shader, uint32_t opcode, uint32_t word,
                                        uint32_t group_op, const char *what)
{
   size_t n = 0;
   uint32_t *words = ctu_load_spirv(shader, &n);
   REQUIRE(words);
   size_t at = find_inst(words, n, opcode, 4, group_op);
   REQUIRE(at < n && word < (words[at] >> 16));
   words[at + word] = words[at + word - 1];
   char err[256] = "";
   CHECK(compile_buffers(words, n, err, sizeof(err)) != 0);
   CHECK_MSG(strstr(err, what), "message: %s", err);
   free(words);
}

TEST_CASE(non_constant_cluster_size_and_quad_direction_are_rejected)
{
   check_non_constant_rejected("subgroup_arith_types", SPIRV_OP_GroupNonUniformIAdd, 6,
                               SPIRV_GROUP_OPERATION_ClusteredReduce, "ClusterSize");
   check_non_constant_rejected("subgroup_exchange", SPIRV_OP_GroupNonUniformQuadSwap, 5, UINT32_MAX,
                               "Direction");
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
