/* Every instruction of the GLSL.std.450 grammar compiles, on every type the
 * GLSL.std.450 specification allows that the device reports (32- and
 * 64-bit floats, 8- to 64-bit integers; no 16-bit floats).
 *
 * The grammar is read at test time from the JSON that spirv-headers
 * installs (the one the front end's tables are generated from), so a newer
 * grammar with an instruction this table does not know fails the test
 * instead of going unnoticed. For each instruction, the table below lists
 * the signatures to try; each becomes a tiny module, assembled here, whose
 * entry point loads the operands from Private variables (so they are not
 * constants), or takes Function variables for pointer operands, and
 * executes the instruction once. InterpolateAt* go into a fragment entry
 * point of a vertex + fragment module compiled with drv_compile_graphics.
 * A module the compiler rejects fails with the compiler's message. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler_test_util.h"
#include "spirv_grammar_tables.h"
#include "test_harness.h"

/* ---------------------------------------------------------------------------
 * The signatures: "RESULT : OPERAND ...". Types: f32 f64 i8 u8 i16 u16 i32
 * u32 i64 u64, a vector with vN (f32v3), a square matrix with mN (f64m4),
 * a two-member struct {A,B}, a Function pointer *T; "in" is a fragment
 * input (vec4 at location 0) for the interpolation functions.
 * ------------------------------------------------------------------------- */
#define MAX_SIGS 12
struct glsl_case {
   const char *name;
   const char *sigs[MAX_SIGS];
};

#define FLOAT_UNARY "f32 : f32", "f32v3 : f32v3", "f64 : f64", "f64v4 : f64v4"
#define F32_UNARY "f32 : f32", "f32v4 : f32v4"
#define FLOAT_BINARY "f32 : f32 f32", "f32v3 : f32v3 f32v3", "f64 : f64 f64", "f64v2 : f64v2 f64v2"
#define FLOAT_TERNARY                                                                              \
   "f32 : f32 f32 f32", "f32v3 : f32v3 f32v3 f32v3", "f64 : f64 f64 f64",                          \
       "f64v2 : f64v2 f64v2 f64v2"
#define INT_UNARY "i32 : i32", "i32v3 : i32v3", "i64 : i64", "i16 : i16", "i8v2 : i8v2", "u32 : u32"
#define INT_BINARY                                                                                 \
   "i32 : i32 i32", "u32v3 : u32v3 u32v3", "i64 : i64 i64", "u64v2 : u64v2 u64v2",                 \
       "i16 : i16 i16", "u8 : u8 u8"
#define INT_TERNARY                                                                                \
   "i32 : i32 i32 i32", "u32v2 : u32v2 u32v2 u32v2", "i64 : i64 i64 i64", "u64 : u64 u64 u64",     \
       "i16v3 : i16v3 i16v3 i16v3", "u8 : u8 u8 u8"
#define FIND_BITS "i32 : i32", "u32v3 : u32v3", "i32v2 : u32v2"

static const struct glsl_case cases[] = {
    {"Round", {FLOAT_UNARY}},
    {"RoundEven", {FLOAT_UNARY}},
    {"Trunc", {FLOAT_UNARY}},
    {"FAbs", {FLOAT_UNARY}},
    {"SAbs", {INT_UNARY}},
    {"FSign", {FLOAT_UNARY}},
    {"SSign", {INT_UNARY}},
    {"Floor", {FLOAT_UNARY}},
    {"Ceil", {FLOAT_UNARY}},
    {"Fract", {FLOAT_UNARY}},
    {"Radians", {F32_UNARY}},
    {"Degrees", {F32_UNARY}},
    {"Sin", {F32_UNARY}},
    {"Cos", {F32_UNARY}},
    {"Tan", {F32_UNARY}},
    {"Asin", {F32_UNARY}},
    {"Acos", {F32_UNARY}},
    {"Atan", {F32_UNARY}},
    {"Sinh", {F32_UNARY}},
    {"Cosh", {F32_UNARY}},
    {"Tanh", {F32_UNARY}},
    {"Asinh", {F32_UNARY}},
    {"Acosh", {F32_UNARY}},
    {"Atanh", {F32_UNARY}},
    {"Atan2", {"f32 : f32 f32", "f32v2 : f32v2 f32v2"}},
    {"Pow", {"f32 : f32 f32", "f32v3 : f32v3 f32v3"}},
    {"Exp", {F32_UNARY}},
    {"Log", {F32_UNARY}},
    {"Exp2", {F32_UNARY}},
    {"Log2", {F32_UNARY}},
    {"Sqrt", {FLOAT_UNARY}},
    {"InverseSqrt", {FLOAT_UNARY}},
    {"Determinant",
     {"f32 : f32m2", "f32 : f32m3", "f32 : f32m4", "f64 : f64m2", "f64 : f64m3", "f64 : f64m4"}},
    {"MatrixInverse",
     {"f32m2 : f32m2", "f32m3 : f32m3", "f32m4 : f32m4", "f64m2 : f64m2", "f64m3 : f64m3",
      "f64m4 : f64m4"}},
    {"Modf", {"f32 : f32 *f32", "f32v3 : f32v3 *f32v3", "f64 : f64 *f64", "f64v2 : f64v2 *f64v2"}},
    {"ModfStruct", {"{f32,f32} : f32", "{f32v4,f32v4} : f32v4", "{f64v3,f64v3} : f64v3"}},
    {"FMin", {FLOAT_BINARY}},
    {"UMin", {INT_BINARY}},
    {"SMin", {INT_BINARY}},
    {"FMax", {FLOAT_BINARY}},
    {"UMax", {INT_BINARY}},
    {"SMax", {INT_BINARY}},
    {"FClamp", {FLOAT_TERNARY}},
    {"UClamp", {INT_TERNARY}},
    {"SClamp", {INT_TERNARY}},
    {"FMix", {FLOAT_TERNARY}},
    {"IMix", {INT_TERNARY}},
    {"Step", {FLOAT_BINARY}},
    {"SmoothStep", {FLOAT_TERNARY}},
    {"Fma", {FLOAT_TERNARY}},
    {"Frexp",
     {"f32 : f32 *i32", "f32v3 : f32v3 *i32v3", "f64 : f64 *i32", "f64v2 : f64v2 *i32v2",
      "f32 : f32 *i64", "f64 : f64 *i16"}},
    {"FrexpStruct", {"{f32,i32} : f32", "{f32v2,i32v2} : f32v2", "{f64v4,i32v4} : f64v4"}},
    {"Ldexp",
     {"f32 : f32 i32", "f32v3 : f32v3 i32v3", "f64 : f64 i32", "f64v2 : f64v2 i32v2",
      "f32 : f32 u32", "f64 : f64 i64", "f32 : f32 i16"}},
    {"PackSnorm4x8", {"u32 : f32v4"}},
    {"PackUnorm4x8", {"u32 : f32v4"}},
    {"PackSnorm2x16", {"u32 : f32v2"}},
    {"PackUnorm2x16", {"u32 : f32v2"}},
    {"PackHalf2x16", {"u32 : f32v2"}},
    {"PackDouble2x32", {"f64 : u32v2", "f64 : i32v2"}},
    {"UnpackSnorm2x16", {"f32v2 : u32"}},
    {"UnpackUnorm2x16", {"f32v2 : u32"}},
    {"UnpackHalf2x16", {"f32v2 : u32"}},
    {"UnpackSnorm4x8", {"f32v4 : u32"}},
    {"UnpackUnorm4x8", {"f32v4 : u32"}},
    {"UnpackDouble2x32", {"u32v2 : f64"}},
    {"Length", {"f32 : f32", "f32 : f32v3", "f64 : f64", "f64 : f64v4"}},
    {"Distance", {"f32 : f32 f32", "f32 : f32v4 f32v4", "f64 : f64v3 f64v3"}},
    {"Cross", {"f32v3 : f32v3 f32v3", "f64v3 : f64v3 f64v3"}},
    {"Normalize", {"f32 : f32", "f32v2 : f32v2", "f64v3 : f64v3"}},
    {"FaceForward",
     {"f32 : f32 f32 f32", "f32v3 : f32v3 f32v3 f32v3", "f64v4 : f64v4 f64v4 f64v4"}},
    {"Reflect", {"f32 : f32 f32", "f32v3 : f32v3 f32v3", "f64v2 : f64v2 f64v2"}},
    {"Refract",
     {"f32 : f32 f32 f32", "f32v3 : f32v3 f32v3 f32", "f64v3 : f64v3 f64v3 f64",
      "f64v2 : f64v2 f64v2 f32"}},
    {"FindILsb", {FIND_BITS}},
    {"FindSMsb", {"i32 : i32", "i32v3 : i32v3", "u32v2 : i32v2"}},
    {"FindUMsb", {FIND_BITS}},
    {"InterpolateAtCentroid", {"f32v4 : in"}},
    {"InterpolateAtSample", {"f32v4 : in i32", "f32v4 : in u32"}},
    {"InterpolateAtOffset", {"f32v4 : in f32v2"}},
    {"NMin", {FLOAT_BINARY}},
    {"NMax", {FLOAT_BINARY}},
    {"NClamp", {FLOAT_TERNARY}},
};
#define CASE_COUNT (sizeof(cases) / sizeof(cases[0]))

/* ---------------------------------------------------------------------------
 * The grammar: opname, opcode and operand count of each instruction, read
 * with a scanner that knows the layout of the grammar files (one JSON
 * object per instruction, "opname" before "opcode" before "operands").
 * ------------------------------------------------------------------------- */
struct grammar_inst {
   char name[64];
   uint32_t opcode;
   uint32_t operand_count;
};

static char *read_text(const char *path)
{
   FILE *f = fopen(path, "rb");
   if (!f)
      return NULL;
   fseek(f, 0, SEEK_END);
   long n = ftell(f);
   fseek(f, 0, SEEK_SET);
   char *s = n > 0 ? malloc((size_t)n + 1) : NULL;
   if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
      free(s);
      s = NULL;
   }
   if (s)
      s[n] = '\0';
   fclose(f);
   return s;
}

/* Returns the number of instructions (at most max), -1 on a format error. */
static int parse_grammar(const char *json, struct grammar_inst *out, int max)
{
   const char *p = strstr(json, "\"instructions\"");
   int n = 0;
   while (p && (p = strstr(p, "\"opname\"")) != NULL) {
      if (n == max)
         return -1;
      struct grammar_inst *g = &out[n];
      const char *q = strchr(p + 8, '"');
      const char *e = q ? strchr(q + 1, '"') : NULL;
      if (!e || (size_t)(e - q - 1) >= sizeof(g->name))
         return -1;
      memcpy(g->name, q + 1, (size_t)(e - q - 1));
      g->name[e - q - 1] = '\0';
      const char *op = strstr(e, "\"opcode\"");
      const char *next = strstr(e, "\"opname\"");
      if (!op || (next && op > next) || sscanf(strchr(op + 8, ':') + 1, "%u", &g->opcode) != 1)
         return -1;
      /* Operands: the "kind" keys before the next instruction. */
      g->operand_count = 0;
      const char *ops = strstr(op, "\"operands\"");
      if (ops && (!next || ops < next)) {
         const char *end = strchr(ops, ']');
         for (const char *k = strstr(ops, "\"kind\""); k && k < end; k = strstr(k + 6, "\"kind\""))
            g->operand_count++;
      }
      n++;
      p = e;
   }
   return n;
}

/* ---------------------------------------------------------------------------
 * A small SPIR-V assembler
 * ------------------------------------------------------------------------- */
struct words {
   uint32_t w[4096];
   uint32_t n;
};

struct module {
   struct words caps, entry, annot, decl, vars, body;
   uint32_t next_id;
   bool float64, int64, int16, int8, fragment;
   struct {
      char key[48];
      uint32_t id;
   } types[96];
   uint32_t type_count;
   uint32_t glsl, void_type, fn_type;
   bool overflow;
};

static void emit(struct module *m, struct words *s, uint32_t opcode, uint32_t count, ...)
{
   if (s->n + count + 1 > sizeof(s->w) / sizeof(s->w[0])) {
      m->overflow = true;
      return;
   }
   s->w[s->n++] = (count + 1) << 16 | opcode;
   va_list ap;
   va_start(ap, count);
   for (uint32_t i = 0; i < count; i++)
      s->w[s->n++] = va_arg(ap, uint32_t);
   va_end(ap);
}

/* An instruction with a literal string between words before and after. */
static void emit_with_string(struct module *m, struct words *s, uint32_t opcode,
                             const uint32_t *before, uint32_t nb, const char *str,
                             const uint32_t *after, uint32_t na)
{
   uint32_t sw = (uint32_t)strlen(str) / 4 + 1, count = nb + sw + na;
   if (s->n + count + 1 > sizeof(s->w) / sizeof(s->w[0])) {
      m->overflow = true;
      return;
   }
   s->w[s->n++] = (count + 1) << 16 | opcode;
   for (uint32_t i = 0; i < nb; i++)
      s->w[s->n++] = before[i];
   uint32_t *dst = &s->w[s->n];
   memset(dst, 0, sw * 4);
   memcpy(dst, str, strlen(str));
   s->n += sw;
   for (uint32_t i = 0; i < na; i++)
      s->w[s->n++] = after[i];
}

static uint32_t new_id(struct module *m)
{
   return m->next_id++;
}

static uint32_t *cached(struct module *m, const char *key)
{
   for (uint32_t i = 0; i < m->type_count; i++) {
      if (strcmp(m->types[i].key, key) == 0)
         return &m->types[i].id;
   }
   if (m->type_count == sizeof(m->types) / sizeof(m->types[0]) || strlen(key) >= 48) {
      m->overflow = true;
      return NULL;
   }
   snprintf(m->types[m->type_count].key, 48, "%s", key);
   m->types[m->type_count].id = 0;
   return &m->types[m->type_count++].id;
}

/* The id of a type token (see the table's comment), declared on first use;
 * 0 for a token this assembler does not know. */
static uint32_t type_id(struct module *m, const char *tok)
{
   uint32_t *slot = cached(m, tok);
   if (!slot)
      return 0;
   if (*slot)
      return *slot;
   uint32_t id = 0;
   char part[48];
   size_t len = strlen(tok);
   if (tok[0] == '*' || tok[0] == '^' || tok[0] == '<' || tok[0] == '>') {
      /* Pointers: * Function, ^ Private, < Input, > Output. */
      uint32_t pointee = type_id(m, tok + 1);
      uint32_t sc = tok[0] == '*'   ? SPIRV_STORAGE_CLASS_Function
                    : tok[0] == '^' ? SPIRV_STORAGE_CLASS_Private
                    : tok[0] == '<' ? SPIRV_STORAGE_CLASS_Input
                                    : SPIRV_STORAGE_CLASS_Output;
      if (pointee)
         emit(m, &m->decl, SPIRV_OP_TypePointer, 3, id = new_id(m), sc, pointee);
   } else if (tok[0] == '{' && tok[len - 1] == '}' && len < sizeof(part)) {
      const char *comma = strchr(tok, ',');
      if (!comma)
         return 0;
      snprintf(part, sizeof(part), "%.*s", (int)(comma - tok - 1), tok + 1);
      uint32_t a = type_id(m, part);
      snprintf(part, sizeof(part), "%.*s", (int)(len - (size_t)(comma - tok) - 2), comma + 1);
      uint32_t b = type_id(m, part);
      if (a && b)
         emit(m, &m->decl, SPIRV_OP_TypeStruct, 3, id = new_id(m), a, b);
   } else if (strpbrk(tok + 1, "vm") && len < sizeof(part)) {
      /* A vector (f32v3) or a square matrix of vectors (f32m3). */
      const char *vm = strpbrk(tok + 1, "vm");
      uint32_t count = (uint32_t)atoi(vm + 1);
      if (count < 2 || count > 4)
         return 0;
      if (*vm == 'm') {
         snprintf(part, sizeof(part), "%.*sv%u", (int)(vm - tok), tok, count);
         uint32_t col = type_id(m, part);
         if (col)
            emit(m, &m->decl, SPIRV_OP_TypeMatrix, 3, id = new_id(m), col, count);
      } else {
         snprintf(part, sizeof(part), "%.*s", (int)(vm - tok), tok);
         uint32_t comp = type_id(m, part);
         if (comp)
            emit(m, &m->decl, SPIRV_OP_TypeVector, 3, id = new_id(m), comp, count);
      }
   } else if (len >= 2 && len <= 3 && (tok[0] == 'f' || tok[0] == 'i' || tok[0] == 'u')) {
      uint32_t width = (uint32_t)atoi(tok + 1);
      if (tok[0] == 'f' && (width == 32 || width == 64)) {
         m->float64 |= width == 64;
         emit(m, &m->decl, SPIRV_OP_TypeFloat, 2, id = new_id(m), width);
      } else if (tok[0] != 'f' && (width == 8 || width == 16 || width == 32 || width == 64)) {
         m->int64 |= width == 64;
         m->int16 |= width == 16;
         m->int8 |= width == 8;
         emit(m, &m->decl, SPIRV_OP_TypeInt, 3, id = new_id(m), width, tok[0] == 'i' ? 1u : 0u);
      }
   }
   *cached(m, tok) = id;
   return id;
}

/* A value of type tok loaded in the body from a Private variable. */
static uint32_t load_value(struct module *m, const char *tok)
{
   char key[48];
   snprintf(key, sizeof(key), "^%s", tok);
   uint32_t t = type_id(m, tok), pt = type_id(m, key);
   if (!t || !pt)
      return 0;
   uint32_t var = new_id(m), v = new_id(m);
   emit(m, &m->decl, SPIRV_OP_Variable, 3, pt, var, SPIRV_STORAGE_CLASS_Private);
   emit(m, &m->body, SPIRV_OP_Load, 3, t, v, var);
   return v;
}

static void module_init(struct module *m)
{
   memset(m, 0, sizeof(*m));
   m->next_id = 1;
   m->glsl = new_id(m);
   m->void_type = new_id(m);
   m->fn_type = new_id(m);
   emit(m, &m->decl, SPIRV_OP_TypeVoid, 1, m->void_type);
   emit(m, &m->decl, SPIRV_OP_TypeFunction, 2, m->fn_type, m->void_type);
}

/* Header, capabilities, import, memory model, then the sections. */
static uint32_t *module_words(struct module *m, size_t *count)
{
   struct words *head = calloc(1, sizeof(*head));
   uint32_t *out = NULL;
   if (!head)
      return NULL;
   const uint32_t header[5] = {0x07230203u, 0x00010000u, 0, m->next_id, 0};
   memcpy(head->w, header, sizeof(header));
   head->n = 5;
   emit(m, head, SPIRV_OP_Capability, 1, SPIRV_CAPABILITY_Shader);
   if (m->float64)
      emit(m, head, SPIRV_OP_Capability, 1, SPIRV_CAPABILITY_Float64);
   if (m->int64)
      emit(m, head, SPIRV_OP_Capability, 1, SPIRV_CAPABILITY_Int64);
   if (m->int16)
      emit(m, head, SPIRV_OP_Capability, 1, SPIRV_CAPABILITY_Int16);
   if (m->int8)
      emit(m, head, SPIRV_OP_Capability, 1, SPIRV_CAPABILITY_Int8);
   if (m->fragment)
      emit(m, head, SPIRV_OP_Capability, 1, SPIRV_CAPABILITY_InterpolationFunction);
   emit_with_string(m, head, SPIRV_OP_ExtInstImport, &m->glsl, 1, "GLSL.std.450", NULL, 0);
   emit(m, head, SPIRV_OP_MemoryModel, 2, SPIRV_ADDRESSING_MODEL_Logical,
        SPIRV_MEMORY_MODEL_GLSL450);
   const struct words *parts[] = {head, &m->entry, &m->annot, &m->decl, &m->body};
   size_t total = 0;
   for (unsigned i = 0; i < 5; i++)
      total += parts[i]->n;
   out = m->overflow ? NULL : malloc(total * 4);
   if (out) {
      size_t at = 0;
      for (unsigned i = 0; i < 5; i++) {
         memcpy(out + at, parts[i]->w, parts[i]->n * 4);
         at += parts[i]->n;
      }
      *count = total;
   }
   free(head);
   return out;
}

/* Splits "R : A B C" into tokens; returns the operand count or -1. */
static int split_signature(const char *sig, char toks[4][48])
{
   char buf[160];
   snprintf(buf, sizeof(buf), "%s", sig);
   char *save = NULL;
   int n = 0;
   for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
      if (n == 1) {
         if (strcmp(t, ":") != 0)
            return -1;
         n++;
         continue;
      }
      if (n == 5 || strlen(t) >= 48)
         return -1;
      snprintf(toks[n ? n - 1 : 0], 48, "%s", t);
      n++;
   }
   return n >= 2 ? n - 2 : -1;
}

/* Builds the module for one signature of GLSL.std.450 instruction `ext`:
 * a GLCompute "main", or for an "in" operand a Vertex "vmain" writing
 * location 0 and a Fragment "fmain" interpolating it. */
static uint32_t *build_module(uint32_t ext, const char *sig, size_t *count, char *why,
                              size_t why_size)
{
   char toks[4][48];
   int argc = split_signature(sig, toks);
   if (argc < 0) {
      snprintf(why, why_size, "bad signature in the test's table");
      return NULL;
   }
   struct module *m = calloc(1, sizeof(*m));
   if (!m)
      return NULL;
   module_init(m);
   bool fragment = false;
   for (int a = 0; a < argc; a++)
      fragment |= strcmp(toks[1 + a], "in") == 0;
   m->fragment = fragment;
   uint32_t result_type = type_id(m, toks[0]);
   uint32_t main_fn = new_id(m), vmain = fragment ? new_id(m) : 0, in_var = 0;
   if (fragment) {
      uint32_t out_var = new_id(m);
      in_var = new_id(m);
      uint32_t pin = type_id(m, "<f32v4"), pout = type_id(m, ">f32v4");
      emit(m, &m->decl, SPIRV_OP_Variable, 3, pout, out_var, SPIRV_STORAGE_CLASS_Output);
      emit(m, &m->decl, SPIRV_OP_Variable, 3, pin, in_var, SPIRV_STORAGE_CLASS_Input);
      emit(m, &m->annot, SPIRV_OP_Decorate, 3, out_var, SPIRV_DECORATION_Location, 0u);
      emit(m, &m->annot, SPIRV_OP_Decorate, 3, in_var, SPIRV_DECORATION_Location, 0u);
      uint32_t model = SPIRV_EXECUTION_MODEL_Vertex;
      emit_with_string(m, &m->entry, SPIRV_OP_EntryPoint, (uint32_t[]){model, vmain}, 2, "vmain",
                       &out_var, 1);
      model = SPIRV_EXECUTION_MODEL_Fragment;
      emit_with_string(m, &m->entry, SPIRV_OP_EntryPoint, (uint32_t[]){model, main_fn}, 2, "fmain",
                       &in_var, 1);
      emit(m, &m->entry, SPIRV_OP_ExecutionMode, 2, main_fn, SPIRV_EXECUTION_MODE_OriginUpperLeft);
      /* The vertex stage: store a loaded vec4 to location 0. */
      emit(m, &m->body, SPIRV_OP_Function, 4, m->void_type, vmain, 0u, m->fn_type);
      emit(m, &m->body, SPIRV_OP_Label, 1, new_id(m));
      uint32_t v = load_value(m, "f32v4");
      emit(m, &m->body, SPIRV_OP_Store, 2, out_var, v);
      emit(m, &m->body, SPIRV_OP_Return, 0);
      emit(m, &m->body, SPIRV_OP_FunctionEnd, 0);
   } else {
      emit_with_string(m, &m->entry, SPIRV_OP_EntryPoint,
                       (uint32_t[]){SPIRV_EXECUTION_MODEL_GLCompute, main_fn}, 2, "main", NULL, 0);
      emit(m, &m->entry, SPIRV_OP_ExecutionMode, 5, main_fn, SPIRV_EXECUTION_MODE_LocalSize, 1u, 1u,
           1u);
   }
   emit(m, &m->body, SPIRV_OP_Function, 4, m->void_type, main_fn, 0u, m->fn_type);
   emit(m, &m->body, SPIRV_OP_Label, 1, new_id(m));
   /* Function variables first in the block (pointer operands), then loads. */
   uint32_t operands[3] = {0};
   for (int a = 0; a < argc; a++) {
      const char *t = toks[1 + a];
      if (t[0] == '*') {
         uint32_t pt = type_id(m, t);
         operands[a] = new_id(m);
         emit(m, &m->body, SPIRV_OP_Variable, 3, pt, operands[a], SPIRV_STORAGE_CLASS_Function);
      }
   }
   for (int a = 0; a < argc; a++) {
      const char *t = toks[1 + a];
      if (strcmp(t, "in") == 0)
         operands[a] = in_var;
      else if (t[0] != '*')
         operands[a] = load_value(m, t);
   }
   uint32_t result = new_id(m);
   uint32_t ops[7] = {result_type, result, m->glsl, ext, operands[0], operands[1], operands[2]};
   for (int a = 0; a < argc; a++) {
      if (!operands[a] || !result_type) {
         snprintf(why, why_size, "bad type in the test's table");
         free(m);
         return NULL;
      }
   }
   emit(m, &m->body, SPIRV_OP_ExtInst, 4, ops[0], ops[1], ops[2], ops[3]);
   /* Operands after the four fixed words (emit takes a fixed count). */
   m->body.w[m->body.n - 5] += (uint32_t)argc << 16;
   for (int a = 0; a < argc; a++)
      m->body.w[m->body.n++] = ops[4 + a];
   emit(m, &m->body, SPIRV_OP_Return, 0);
   emit(m, &m->body, SPIRV_OP_FunctionEnd, 0);
   uint32_t *words = module_words(m, count);
   if (!words)
      snprintf(why, why_size, "the module does not fit the test's buffers");
   free(m);
   return words;
}

static int compile_module(const uint32_t *words, size_t count, bool fragment, char *err,
                          size_t err_size)
{
   struct drv_pipeline_abi abi = {0};
   if (!fragment) {
      struct drv_shader_binary bin;
      struct drv_compile_request req = {.spirv = words,
                                        .word_count = count,
                                        .entry_point = "main",
                                        .abi = &abi,
                                        .max_registers = 255};
      int rc = drv_compile_compute(&req, &bin, err, err_size);
      if (!rc)
         drv_shader_binary_free(&bin);
      return rc;
   }
   struct drv_graphics_compile_request req = {
       .vertex = {.spirv = words,
                  .word_count = count,
                  .entry_point = "vmain",
                  .abi = &abi,
                  .max_registers = 255},
       .fragment = {.spirv = words, .word_count = count, .entry_point = "fmain"},
       .samples = 4,
   };
   struct drv_graphics_binary bin;
   int rc = drv_compile_graphics(&req, &bin, err, err_size);
   if (!rc)
      drv_graphics_binary_free(&bin);
   return rc;
}

static struct grammar_inst grammar[256];
static int grammar_count = -1;

static bool load_grammar(void)
{
   if (grammar_count >= 0)
      return true;
   char *json = read_text(GLSL_STD_450_GRAMMAR);
   CHECK_MSG(json != NULL, "cannot read %s", GLSL_STD_450_GRAMMAR);
   if (!json)
      return false;
   grammar_count = parse_grammar(json, grammar, (int)(sizeof(grammar) / sizeof(grammar[0])));
   free(json);
   CHECK_MSG(grammar_count > 0, "%s: no instructions found", GLSL_STD_450_GRAMMAR);
   return grammar_count > 0;
}

static const struct glsl_case *case_named(const char *name)
{
   for (size_t i = 0; i < CASE_COUNT; i++) {
      if (strcmp(cases[i].name, name) == 0)
         return &cases[i];
   }
   return NULL;
}

TEST_CASE(every_grammar_instruction_has_signatures_with_its_operand_count)
{
   if (!load_grammar())
      return;
   for (int g = 0; g < grammar_count; g++) {
      const struct glsl_case *c = case_named(grammar[g].name);
      CHECK_MSG(c != NULL, "GLSL.std.450 %s (%u) is in the grammar but not in this test's table",
                grammar[g].name, grammar[g].opcode);
      for (int s = 0; c && s < MAX_SIGS && c->sigs[s]; s++) {
         char toks[4][48];
         int argc = split_signature(c->sigs[s], toks);
         CHECK_MSG(argc == (int)grammar[g].operand_count,
                   "%s: signature '%s' has %d operands, the grammar %u", c->name, c->sigs[s], argc,
                   grammar[g].operand_count);
      }
   }
   /* And the table names nothing the grammar lacks. */
   for (size_t i = 0; i < CASE_COUNT; i++) {
      bool found = false;
      for (int g = 0; g < grammar_count && !found; g++)
         found = strcmp(grammar[g].name, cases[i].name) == 0;
      CHECK_MSG(found, "the table's %s is not in the grammar", cases[i].name);
   }
}

TEST_CASE(every_grammar_instruction_compiles_on_each_type_it_allows)
{
   if (!load_grammar())
      return;
   uint32_t modules = 0, failures = 0;
   for (int g = 0; g < grammar_count; g++) {
      const struct glsl_case *c = case_named(grammar[g].name);
      for (int s = 0; c && s < MAX_SIGS && c->sigs[s]; s++) {
         char why[128] = "", err[512] = "";
         size_t count = 0;
         uint32_t *words = build_module(grammar[g].opcode, c->sigs[s], &count, why, sizeof(why));
         CHECK_MSG(words != NULL, "%s '%s': %s", c->name, c->sigs[s], why);
         if (!words)
            continue;
         bool fragment = strstr(c->sigs[s], " in") != NULL;
         int rc = compile_module(words, count, fragment, err, sizeof(err));
         CHECK_MSG(rc == 0, "GLSL.std.450 %s '%s' does not compile: %s", c->name, c->sigs[s], err);
         failures += rc != 0;
         modules++;
         free(words);
      }
   }
   printf("  %d GLSL.std.450 instructions, %u modules, %u rejected\n", grammar_count, modules,
          failures);
}

/* The other direction: operand and result types the specification does not
 * allow are refused with a message naming the instruction or the mismatch
 * (the front end checks only operand counts), never compiled into
 * something. */
TEST_CASE(instructions_on_types_the_device_lacks_are_refused_with_a_message)
{
   static const struct {
      uint32_t ext;
      const char *sig;
      const char *message;
   } refused[] = {
       {SPIRV_GLSL_STD_450_Determinant, "f32 : f32v3", "Determinant"},
       {SPIRV_GLSL_STD_450_MatrixInverse, "f32m3 : f32m2", "MatrixInverse"},
       {SPIRV_GLSL_STD_450_Modf, "f32 : f32 *f64", "Modf"},
       {SPIRV_GLSL_STD_450_Frexp, "f32 : f32 *f32", "Frexp"},
       {SPIRV_GLSL_STD_450_PackDouble2x32, "f64 : u32v3", "PackDouble2x32"},
       {SPIRV_GLSL_STD_450_Cross, "f32v2 : f32v2 f32v2", "result type"},
       {SPIRV_GLSL_STD_450_FMin, "f32 : f32 f64", "operand"},
   };
   for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
      char why[128] = "", err[512] = "";
      size_t count = 0;
      uint32_t *words = build_module(refused[i].ext, refused[i].sig, &count, why, sizeof(why));
      CHECK_MSG(words != NULL, "'%s': %s", refused[i].sig, why);
      if (!words)
         continue;
      int rc = compile_module(words, count, false, err, sizeof(err));
      CHECK_MSG(rc != 0, "'%s' compiled", refused[i].sig);
      CHECK_MSG(strstr(err, refused[i].message) != NULL, "'%s': message '%s' lacks '%s'",
                refused[i].sig, err, refused[i].message);
      free(words);
   }
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
