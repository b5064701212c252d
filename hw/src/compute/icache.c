/* SM instruction cache and the per-grid operand checks made when a line is
 * decoded. See icache.h. */
#include "compute/icache.h"

#include <assert.h>
#include <string.h>

#include "compute/sm.h"
#include "counter_block.h"
#include "ppu/qmd.h"

void ppu_icache_init(struct ppu_icache *ic, uint32_t lines)
{
   assert(lines >= 1 && lines <= PPU_ICACHE_LINES_MAX);
   ic->lines = lines;
   ppu_icache_flush(ic, 0);
}

void ppu_icache_flush(struct ppu_icache *ic, uint32_t register_count)
{
   for (unsigned i = 0; i < ic->lines; i++)
      ic->line[i].va = 0;
   ic->register_count = register_count;
}

static bool is64(unsigned type)
{
   return type == PPU_TYPE_U64 || type == PPU_TYPE_S64 || type == PPU_TYPE_F64;
}

static unsigned width_of_type(unsigned type)
{
   return type == PPU_TYPE_B128 ? 4 : is64(type) ? 2 : 1;
}

void ppu_insn_operand_widths(const struct ppu_insn_fields *f, unsigned w[4])
{
   unsigned t = width_of_type(f->type);
   w[0] = w[1] = w[2] = w[3] = 1;
   switch (f->op) {
   case PPU_OP_MOV:
   case PPU_OP_SEL:
   case PPU_OP_IADD:
   case PPU_OP_ISUB:
   case PPU_OP_IMUL:
   case PPU_OP_IDIV:
   case PPU_OP_IREM:
   case PPU_OP_IMIN:
   case PPU_OP_IMAX:
   case PPU_OP_IABS:
   case PPU_OP_INEG:
   case PPU_OP_AND:
   case PPU_OP_OR:
   case PPU_OP_XOR:
   case PPU_OP_NOT:
   case PPU_OP_FADD:
   case PPU_OP_FSUB:
   case PPU_OP_FMUL:
   case PPU_OP_FFMA:
   case PPU_OP_FDIV:
   case PPU_OP_FMIN:
   case PPU_OP_FMAX:
   case PPU_OP_MUFU:
   case PPU_OP_FRND:
      w[0] = w[1] = w[2] = w[3] = t;
      break;
   case PPU_OP_ISETP:
   case PPU_OP_FSETP:
      w[1] = w[2] = t;
      break;
   case PPU_OP_SHL:
   case PPU_OP_SHR:
      w[0] = w[1] = t;
      break;
   case PPU_OP_POPC:
      w[1] = t;
      break;
   case PPU_OP_IMADW:
      w[0] = w[3] = 2;
      break;
   case PPU_OP_CVT:
      w[0] = t;
      w[1] = width_of_type(f->type2);
      break;
   case PPU_OP_LDC:
      w[0] = t;
      break;
   case PPU_OP_LD:
   case PPU_OP_ST:
   case PPU_OP_ATOM:
      w[0] = w[2] = w[3] = t;
      w[1] = (f->mode == PPU_SPACE_GLOBAL || f->mode == PPU_SPACE_GENERIC) ? 2 : 1;
      break;
   default:
      break;
   }
}

static bool reg_ok(unsigned r, unsigned width, uint32_t count)
{
   if (r == PPU_RZ)
      return true;
   return r % width == 0 && r + width <= count;
}

const char *ppu_insn_check_operands(const struct ppu_insn_fields *f, uint32_t count)
{
   if (ppu_op_is_texture(f->op))
      return ppu_tex_check_operands(f, count);
   const char *sig = ppu_op_signature(f->op);
   unsigned w[4];
   ppu_insn_operand_widths(f, w);
   if (strchr(sig, 'd') && !reg_ok(f->rd, w[0], count))
      return "rd beyond the register count or misaligned";
   if ((strchr(sig, 'a') || strchr(sig, 'm') || strchr(sig, 'k')) && !reg_ok(f->ra, w[1], count))
      return "ra beyond the register count or misaligned";
   if ((strchr(sig, 'r') || (strchr(sig, 'b') && !f->b_imm)) && !reg_ok(f->rb, w[2], count))
      return "rb beyond the register count or misaligned";
   if (strchr(sig, 'c') && !reg_ok(f->rc, w[3], count))
      return "rc beyond the register count or misaligned";
   if (f->op == PPU_OP_LDC && f->rb >= PPU_QMD_CBANK_COUNT)
      return "constant bank number beyond 7";
   if (f->op == PPU_OP_ATOM && f->type == PPU_TYPE_F32 && f->subop != PPU_ATOM_ADD &&
       f->subop != PPU_ATOM_EXCH && f->subop != PPU_ATOM_CAS)
      return "F32 atomics are ADD, EXCH and CAS only";
   if (f->op == PPU_OP_WRED && f->type == PPU_TYPE_F32 && f->subop > PPU_REDOP_MAX)
      return "F32 warp reductions are ADD, MIN and MAX only";
   if (f->op == PPU_OP_ST && f->type != PPU_TYPE_U32 && f->type != PPU_TYPE_U64 &&
       f->type != PPU_TYPE_U16 && f->type != PPU_TYPE_U8 && f->type != PPU_TYPE_B128 &&
       f->type != PPU_TYPE_S32)
      return "stores take U8, U16, U32, U64 or B128";
   if (f->op == PPU_OP_MUFU && f->type == PPU_TYPE_F64 && f->subop != PPU_MUFU_RCP &&
       f->subop != PPU_MUFU_RSQ && f->subop != PPU_MUFU_SQRT)
      return "F64 MUFU is RCP, RSQ and SQRT only";
   if ((f->op == PPU_OP_BRA || f->op == PPU_OP_SSY || f->op == PPU_OP_PBK || f->op == PPU_OP_PCNT ||
        f->op == PPU_OP_CALL) &&
       (f->imm % PPU_INSN_BYTES) != 0)
      return "branch target not a multiple of 16";
   return NULL;
}

bool ppu_icache_holds(const struct ppu_icache *ic, uint64_t va)
{
   uint64_t line_va = va & ~(uint64_t)(PPU_ICACHE_LINE_BYTES - 1);
   return ic->line[(line_va / PPU_ICACHE_LINE_BYTES) % ic->lines].va == line_va;
}

const struct ppu_icache_insn *ppu_icache_fetch(struct ppu_icache *ic, struct ppu_mmu_client *mmu,
                                               struct ppu_counter_block *counters, uint64_t pd_pa,
                                               uint64_t va, struct ppu_fault *fault)
{
   uint64_t line_va = va & ~(uint64_t)(PPU_ICACHE_LINE_BYTES - 1);
   /* Modulo, not a mask: a direct-mapped model works for any line count. */
   struct ppu_icache_line *line = &ic->line[(line_va / PPU_ICACHE_LINE_BYTES) % ic->lines];
   unsigned slot = (unsigned)(va - line_va) / PPU_INSN_BYTES;
   if (line->va == line_va)
      return &line->insn[slot];
   uint64_t pa;
   if (!ppu_mmu_translate(mmu, pd_pa, line_va, false, &pa, fault))
      return NULL;
   ppu_counter_add(counters, PPU_COUNTER_COMPUTE_ICACHE_MISSES, 1);
   uint32_t words[PPU_ICACHE_LINE_INSNS * PPU_INSN_WORDS];
   memcpy(words, ppu_mmu_host_ptr(mmu->mmu, pa), sizeof(words));
   for (unsigned i = 0; i < PPU_ICACHE_LINE_INSNS; i++) {
      struct ppu_icache_insn *in = &line->insn[i];
      in->illegal = NULL;
      if (!ppu_insn_decode(&words[i * PPU_INSN_WORDS], &in->f, &in->illegal))
         continue;
      in->illegal = ppu_insn_check_operands(&in->f, ic->register_count);
   }
   line->va = line_va;
   return &line->insn[slot];
}
