/* Disassembler core: one instruction or a whole blob to text, in the syntax
 * docs/isa.md uses (and tests/hw/ppu_asm.c reads):
 *
 *   [@[!]Pn ]NAME[.SUBOP][.MODE][.TYPE[.TYPE2]] operand, operand, ...
 *
 * Shared by tools/ppu_disasm and the driver's debug output. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ppu/isa.h"

struct out {
   char *buf;
   size_t size, len;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct out *o, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   size_t room = o->len < o->size ? o->size - o->len : 0;
   int n = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
   va_end(ap);
   if (n > 0)
      o->len += (size_t)n;
}

static void put_reg(struct out *o, unsigned r)
{
   if (r == PPU_RZ)
      put(o, "RZ");
   else
      put(o, "R%u", r);
}

static void put_pred(struct out *o, unsigned p)
{
   if (p & PPU_PRED_NEG)
      put(o, "!");
   if ((p & 7) == PPU_PT)
      put(o, "PT");
   else
      put(o, "P%u", p & 7);
}

static void put_offset(struct out *o, uint32_t imm)
{
   int32_t v = (int32_t)imm;
   if (v < 0)
      put(o, "-0x%x", (unsigned)(0u - imm));
   else if (v > 0)
      put(o, "+0x%x", imm);
}

static bool type_shown(const struct ppu_insn_fields *f)
{
   return ppu_op_types(f->op) != PPU_TS_U32 || f->op == PPU_OP_CVT;
}

int ppu_disasm_insn(const uint32_t words[PPU_INSN_WORDS], char *buf, size_t size)
{
   struct out o = {buf, size, 0};
   if (size)
      buf[0] = 0;
   struct ppu_insn_fields f;
   const char *why = NULL;
   if (!ppu_insn_decode(words, &f, &why)) {
      put(&o, ".word 0x%08x, 0x%08x, 0x%08x, 0x%08x ; illegal: %s", words[0], words[1], words[2],
          words[3], why);
      return (int)o.len;
   }
   if ((f.guard & 7) != PPU_PT || (f.guard & PPU_PRED_NEG)) {
      put(&o, "@");
      put_pred(&o, f.guard);
      put(&o, " ");
   }
   put(&o, "%s", ppu_op_name(f.op));
   enum ppu_subop_class sc = ppu_op_subop_class(f.op);
   enum ppu_mode_class mc = ppu_op_mode_class(f.op);
   if (sc != PPU_SUBOP_NONE)
      put(&o, ".%s", ppu_subop_name(sc, f.subop));
   if (mc != PPU_MODE_NONE)
      put(&o, ".%s", ppu_mode_name(mc, f.mode));
   if (ppu_op_is_texture(f.op) && (f.imm & PPU_TEXIMM_DC))
      put(&o, ".DC");
   if (type_shown(&f))
      put(&o, ".%s", ppu_type_name(f.type));
   if (f.op == PPU_OP_CVT)
      put(&o, ".%s", ppu_type_name(f.type2));
   const char *sig = ppu_op_signature(f.op);
   bool first = true;
   for (const char *s = sig; *s; s++) {
      if (*s == ',')
         continue;
      put(&o, first ? " " : ", ");
      first = false;
      switch (*s) {
      case 'd':
         put_reg(&o, f.rd);
         break;
      case 'a':
         put_reg(&o, f.ra);
         break;
      case 'r':
         put_reg(&o, f.rb);
         break;
      case 'c':
         put_reg(&o, f.rc);
         break;
      case 'b':
         if (f.b_imm)
            put(&o, "0x%x", f.imm);
         else
            put_reg(&o, f.rb);
         break;
      case 'p':
         put_pred(&o, f.pd);
         break;
      case 'q':
         put_pred(&o, f.ps);
         break;
      case 's':
         put_pred(&o, f.ps2);
         break;
      case 'i':
         if (f.op == PPU_OP_S2R && ppu_sreg_name(f.imm))
            put(&o, "%s", ppu_sreg_name(f.imm));
         else
            put(&o, "0x%x", f.imm);
         break;
      case 'm':
         put(&o, "[");
         put_reg(&o, f.ra);
         put_offset(&o, f.imm);
         put(&o, "]");
         break;
      case 'o':
         put(&o, "off[%d:%d:%d]", ppu_teximm_offset(f.imm, 0), ppu_teximm_offset(f.imm, 1),
             ppu_teximm_offset(f.imm, 2));
         break;
      case 'k':
         put(&o, "c[%u][", f.rb);
         put_reg(&o, f.ra);
         put_offset(&o, f.imm);
         put(&o, "]");
         break;
      default:
         break;
      }
   }
   return (int)o.len;
}

size_t ppu_disasm_program(const void *code, size_t bytes, char *buf, size_t size)
{
   struct out o = {buf, size, 0};
   if (size)
      buf[0] = 0;
   const uint8_t *p = code;
   for (size_t off = 0; off + PPU_INSN_BYTES <= bytes; off += PPU_INSN_BYTES) {
      uint32_t w[PPU_INSN_WORDS];
      memcpy(w, p + off, sizeof(w));
      char line[160];
      ppu_disasm_insn(w, line, sizeof(line));
      put(&o, "  0x%04zx:  %s\n", off, line);
   }
   if (bytes % PPU_INSN_BYTES)
      put(&o, "  ; %zu trailing bytes\n", bytes % PPU_INSN_BYTES);
   return o.len;
}
