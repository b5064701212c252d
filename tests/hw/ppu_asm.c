/* See ppu_asm.h. Two passes: the first finds labels, the second encodes. */
#include "ppu_asm.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ppu/isa.h"

#define MAX_LABELS 256
#define MAX_LINE 256

struct label {
   char name[48];
   uint32_t offset;
};

struct asm_state {
   struct label labels[MAX_LABELS];
   unsigned label_count;
   unsigned line;
   char *err;
   size_t err_size;
};

static bool error(struct asm_state *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool error(struct asm_state *s, const char *fmt, ...)
{
   char msg[200];
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(msg, sizeof(msg), fmt, ap);
   va_end(ap);
   if (s->err && s->err_size)
      snprintf(s->err, s->err_size, "line %u: %s", s->line, msg);
   return false;
}

static char *trim(char *p)
{
   while (isspace((unsigned char)*p))
      p++;
   char *e = p + strlen(p);
   while (e > p && isspace((unsigned char)e[-1]))
      *--e = 0;
   return p;
}

static bool parse_reg(const char *t, uint8_t *r)
{
   if (!strcmp(t, "RZ")) {
      *r = PPU_RZ;
      return true;
   }
   char *end;
   if (t[0] != 'R' || !isdigit((unsigned char)t[1]))
      return false;
   unsigned long v = strtoul(t + 1, &end, 10);
   if (*end || v >= PPU_RZ)
      return false;
   *r = (uint8_t)v;
   return true;
}

static bool parse_pred(const char *t, uint8_t *p, bool allow_neg)
{
   uint8_t neg = 0;
   if (allow_neg && t[0] == '!') {
      neg = PPU_PRED_NEG;
      t++;
   }
   if (!strcmp(t, "PT")) {
      *p = PPU_PT | neg;
      return true;
   }
   if (t[0] == 'P' && t[1] >= '0' && t[1] <= '6' && !t[2]) {
      *p = (uint8_t)(t[1] - '0') | neg;
      return true;
   }
   return false;
}

static bool parse_imm(struct asm_state *s, const char *t, uint32_t *v)
{
   for (unsigned i = 0; i < PPU_SR_COUNT; i++)
      if (!strcmp(t, ppu_sreg_name(i))) {
         *v = i;
         return true;
      }
   for (unsigned i = 0; i < s->label_count; i++)
      if (!strcmp(t, s->labels[i].name)) {
         *v = s->labels[i].offset;
         return true;
      }
   char *end;
   size_t len = strlen(t);
   if (len > 1 && t[len - 1] == 'f' && strncmp(t, "0x", 2) && strncmp(t, "-0x", 3)) {
      float f = strtof(t, &end);
      if (end != t + len - 1)
         return false;
      memcpy(v, &f, 4);
      return true;
   }
   long long x = strtoll(t, &end, 0);
   if (*end || end == t)
      return false;
   *v = (uint32_t)x;
   return true;
}

/* "[R2+0x10]" / "[R2-4]" / "[R2]" */
static bool parse_mem(struct asm_state *s, char *t, uint8_t *ra, uint32_t *imm)
{
   size_t len = strlen(t);
   if (t[0] != '[' || t[len - 1] != ']')
      return false;
   t[len - 1] = 0;
   t++;
   char *sign = strpbrk(t, "+-");
   *imm = 0;
   if (sign) {
      char c = *sign;
      *sign = 0;
      uint32_t v;
      if (!parse_imm(s, trim(sign + 1), &v))
         return false;
      *imm = c == '-' ? 0u - v : v;
   }
   return parse_reg(trim(t), ra);
}

static int find_op(const char *name)
{
   for (int i = 0; i < PPU_OP_COUNT; i++)
      if (!strcmp(name, ppu_op_name(i)))
         return i;
   return -1;
}

static bool apply_modifier(struct ppu_insn_fields *f, const char *m, bool *type_set)
{
   for (unsigned t = 0; t < PPU_TYPE_COUNT; t++)
      if (!strcmp(m, ppu_type_name(t))) {
         if (*type_set)
            f->type2 = (uint8_t)t;
         else
            f->type = (uint8_t)t;
         *type_set = true;
         return true;
      }
   enum ppu_subop_class sc = ppu_op_subop_class(f->op);
   for (unsigned v = 0; ppu_subop_name(sc, v); v++)
      if (!strcmp(m, ppu_subop_name(sc, v))) {
         f->subop = (uint8_t)v;
         return true;
      }
   enum ppu_mode_class mc = ppu_op_mode_class(f->op);
   for (unsigned v = 0; ppu_mode_name(mc, v); v++)
      if (!strcmp(m, ppu_mode_name(mc, v))) {
         f->mode = (uint8_t)v;
         return true;
      }
   if (ppu_op_is_texture(f->op) && !strcmp(m, "DC")) {
      f->imm |= PPU_TEXIMM_DC;
      return true;
   }
   return false;
}

/* "off[u:v:w]": constant texel offsets, each -8..7. */
static bool parse_tex_offsets(const char *t, uint32_t *imm)
{
   int o[3], used = 0;
   if (sscanf(t, "off[%d:%d:%d]%n", &o[0], &o[1], &o[2], &used) != 3 || t[used])
      return false;
   for (unsigned i = 0; i < 3; i++) {
      if (o[i] < -8 || o[i] > 7)
         return false;
      *imm |= ((uint32_t)o[i] & 0xfu) << (4 * i);
   }
   return true;
}

static bool encode_line(struct asm_state *s, char *text, uint32_t out[4])
{
   struct ppu_insn_fields f;
   uint8_t guard = PPU_PT;
   if (text[0] == '@') {
      char *sp = strchr(text, ' ');
      if (!sp)
         return error(s, "guard without instruction");
      *sp = 0;
      if (!parse_pred(text + 1, &guard, true))
         return error(s, "bad guard '%s'", text);
      text = trim(sp + 1);
   }
   char *ops = text + strcspn(text, " \t");
   if (*ops)
      *ops++ = 0;
   char *mod = strchr(text, '.');
   if (mod)
      *mod++ = 0;
   int op = find_op(text);
   if (op < 0)
      return error(s, "unknown mnemonic '%s'", text);
   ppu_insn_fields_init(&f, (enum ppu_op)op);
   f.guard = guard;
   bool type_set = false;
   while (mod) {
      char *next = strchr(mod, '.');
      if (next)
         *next++ = 0;
      if (!apply_modifier(&f, mod, &type_set))
         return error(s, "unknown modifier '.%s' for %s", mod, text);
      mod = next;
   }
   const char *sig = ppu_op_signature(op);
   char *save = NULL;
   char *tok = strtok_r(ops, ",", &save);
   for (const char *k = sig; *k; k++) {
      if (*k == ',')
         continue;
      if (!tok)
         return error(s, "%s needs more operands (signature \"%s\")", text, sig);
      char *t = trim(tok);
      bool ok = true;
      switch (*k) {
      case 'd':
         ok = parse_reg(t, &f.rd);
         break;
      case 'a':
         ok = parse_reg(t, &f.ra);
         break;
      case 'r':
         ok = parse_reg(t, &f.rb);
         break;
      case 'c':
         ok = parse_reg(t, &f.rc);
         break;
      case 'b':
         if (t[0] == 'R')
            ok = parse_reg(t, &f.rb);
         else
            ok = f.b_imm = parse_imm(s, t, &f.imm);
         break;
      case 'p':
         ok = parse_pred(t, &f.pd, false);
         break;
      case 'q':
         ok = parse_pred(t, &f.ps, true);
         break;
      case 's':
         ok = parse_pred(t, &f.ps2, true);
         break;
      case 'i':
         ok = parse_imm(s, t, &f.imm);
         break;
      case 'm':
         ok = parse_mem(s, t, &f.ra, &f.imm);
         break;
      case 'o':
         ok = parse_tex_offsets(t, &f.imm);
         break;
      case 'k': { /* c[bank][Rn+imm] */
         unsigned bank;
         int used = 0;
         ok = sscanf(t, "c[%u]%n", &bank, &used) == 1 && bank < 8 && used > 0;
         f.rb = (uint8_t)bank;
         ok = ok && parse_mem(s, t + used, &f.ra, &f.imm);
         break;
      }
      }
      if (!ok)
         return error(s, "bad operand '%s' for %s", t, text);
      tok = strtok_r(NULL, ",", &save);
   }
   if (tok)
      return error(s, "too many operands for %s", text);
   ppu_insn_encode(&f, out);
   const char *why;
   struct ppu_insn_fields check;
   if (!ppu_insn_decode(out, &check, &why))
      return error(s, "illegal encoding: %s", why);
   return true;
}

/* Copies the next line of src into line (comment stripped); NULL at end. */
static const char *next_line(const char *src, char *line)
{
   if (!*src)
      return NULL;
   size_t n = strcspn(src, "\n");
   size_t c = n < MAX_LINE - 1 ? n : MAX_LINE - 1;
   memcpy(line, src, c);
   line[c] = 0;
   char *cm = strstr(line, "//");
   if (cm)
      *cm = 0;
   cm = strchr(line, ';');
   if (cm)
      *cm = 0;
   return src + n + (src[n] == '\n');
}

bool ppu_asm(const char *src, uint32_t *out, size_t max_insns, size_t *n, char *err,
             size_t err_size)
{
   static _Thread_local struct asm_state s;
   memset(&s, 0, sizeof(s));
   s.err = err;
   s.err_size = err_size;
   char buf[MAX_LINE];
   for (int pass = 0; pass < 2; pass++) {
      uint32_t count = 0;
      s.line = 0;
      for (const char *p = src; (p = next_line(p, buf));) {
         s.line++;
         char *t = trim(buf);
         char *colon = strchr(t, ':');
         if (colon && !strchr(t, '[')) {
            *colon = 0;
            if (pass == 0) {
               if (s.label_count == MAX_LABELS)
                  return error(&s, "too many labels");
               snprintf(s.labels[s.label_count].name, sizeof(s.labels[0].name), "%s", trim(t));
               s.labels[s.label_count++].offset = count * PPU_INSN_BYTES;
            }
            t = trim(colon + 1);
         }
         if (!*t)
            continue;
         if (count == max_insns)
            return error(&s, "program longer than %zu instructions", max_insns);
         if (pass == 1 && !encode_line(&s, t, out + count * PPU_INSN_WORDS))
            return false;
         count++;
      }
      *n = count;
   }
   return true;
}
