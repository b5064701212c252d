/* The ISA's encoding (ppu/isa.h): field packing, the legality check every
 * fetched instruction goes through, and the name tables the disassembler and
 * assemblers share. */
#include "ppu/isa.h"
#include "ppu/ray_query.h"

#include <string.h>

struct op_info {
   const char *name;
   const char *signature;
   enum ppu_subop_class subop;
   enum ppu_mode_class mode;
   uint32_t types;
   uint32_t flags;
};

static const struct op_info op_table[PPU_OP_COUNT] = {
#define PPU_OP_ROW_(id, nm, sig, sub, md, ty, fl)                                                  \
   [PPU_OP_##id] = {nm, sig, PPU_SUBOP_##sub, PPU_MODE_##md, ty, fl},
    PPU_OPCODES(PPU_OP_ROW_)
#undef PPU_OP_ROW_
};

static const char *const type_names[PPU_TYPE_COUNT] = {
    "U32", "S32", "F32", "U64", "S64", "F64", "U16", "S16", "F16", "U8", "S8", "B128",
};
static const char *const cmp_names[16] = {
    "F",   "LT",  "EQ",  "LE",  "GT",  "NE",  "GE",  "NUM",
    "NAN", "LTU", "EQU", "LEU", "GTU", "NEU", "GEU", "T",
};
static const char *const atom_names[PPU_ATOM_COUNT] = {"ADD", "MIN", "MAX",  "AND",
                                                       "OR",  "XOR", "EXCH", "CAS"};
static const char *const mufu_names[PPU_MUFU_COUNT] = {"RCP", "RSQ", "SQRT", "EX2",
                                                       "LG2", "SIN", "COS"};
static const char *const round_names[PPU_ROUND_COUNT] = {"RN", "RZ", "RM", "RP"};
static const char *const shfl_names[PPU_SHFL_COUNT] = {"IDX", "UP", "DOWN", "BFLY"};
static const char *const vote_names[PPU_VOTE_COUNT] = {"ALL", "ANY", "EQ"};
static const char *const redop_names[PPU_REDOP_COUNT] = {"ADD", "MIN", "MAX", "AND", "OR", "XOR"};
static const char *const plop_names[PPU_PLOP_COUNT] = {"AND", "OR", "XOR"};
static const char *const membar_names[PPU_MEMBAR_COUNT] = {"CTA", "GL", "SYS"};
static const char *const ttu_names[PPU_TTU_COUNT] = {"INIT", "PROCEED", "CONFIRM", "GENERATE",
                                                     "TERMINATE"};
static const char *const texlod_names[PPU_TEXLOD_COUNT] = {"AUTO", "LZ", "LL", "LB", "LG"};
static const char *const gather_names[PPU_GATHER_COUNT] = {"R", "G", "B", "A"};
static const char *const txq_names[PPU_TXQ_COUNT] = {"SIZE", "LEVELS", "SAMPLES"};
static const char *const sufmt_names[PPU_SUFMT_COUNT] = {"P", "B"};
static const char *const texdim_names[PPU_TEXDIM_COUNT] = {"1D",  "2D",  "3D",    "CUBE",
                                                           "1DA", "2DA", "CUBEA", "BUFFER"};
static const char *const space_names[PPU_SPACE_COUNT] = {"GENERIC", "GLOBAL", "SHARED", "LOCAL"};
static const char *const scan_names[PPU_SCAN_COUNT] = {"RED", "INC", "EXC"};
static const char *const sreg_names[PPU_SR_COUNT] = {
    "SR_TID_X",       "SR_TID_Y",       "SR_TID_Z",       "SR_CTAID_X",     "SR_CTAID_Y",
    "SR_CTAID_Z",     "SR_NTID_X",      "SR_NTID_Y",      "SR_NTID_Z",      "SR_NCTAID_X",
    "SR_NCTAID_Y",    "SR_NCTAID_Z",    "SR_LANEID",      "SR_WARPID",      "SR_NWARPS",
    "SR_TID_FLAT",    "SR_LANEMASK_EQ", "SR_LANEMASK_LT", "SR_LANEMASK_LE", "SR_LANEMASK_GT",
    "SR_LANEMASK_GE", "SR_SMID",        "SR_CLOCK_LO",    "SR_CLOCK_HI",
};

#define NAME_AT(table, v) ((v) < sizeof(table) / sizeof(table[0]) ? table[v] : NULL)

const char *ppu_op_name(enum ppu_op op)
{
   return (unsigned)op < PPU_OP_COUNT ? op_table[op].name : NULL;
}

const char *ppu_op_signature(enum ppu_op op)
{
   return (unsigned)op < PPU_OP_COUNT ? op_table[op].signature : NULL;
}

enum ppu_subop_class ppu_op_subop_class(enum ppu_op op)
{
   return (unsigned)op < PPU_OP_COUNT ? op_table[op].subop : PPU_SUBOP_NONE;
}

enum ppu_mode_class ppu_op_mode_class(enum ppu_op op)
{
   return (unsigned)op < PPU_OP_COUNT ? op_table[op].mode : PPU_MODE_NONE;
}

uint32_t ppu_op_types(enum ppu_op op)
{
   return (unsigned)op < PPU_OP_COUNT ? op_table[op].types : 0;
}

uint32_t ppu_op_flags(enum ppu_op op)
{
   return (unsigned)op < PPU_OP_COUNT ? op_table[op].flags : 0;
}

const char *ppu_type_name(enum ppu_type t)
{
   return NAME_AT(type_names, (unsigned)t);
}

const char *ppu_subop_name(enum ppu_subop_class c, unsigned v)
{
   switch (c) {
   case PPU_SUBOP_NONE:
      return NULL;
   case PPU_SUBOP_CMP:
      return NAME_AT(cmp_names, v);
   case PPU_SUBOP_ATOM:
      return NAME_AT(atom_names, v);
   case PPU_SUBOP_MUFU:
      return NAME_AT(mufu_names, v);
   case PPU_SUBOP_ROUND:
      return NAME_AT(round_names, v);
   case PPU_SUBOP_SHFL:
      return NAME_AT(shfl_names, v);
   case PPU_SUBOP_VOTE:
      return NAME_AT(vote_names, v);
   case PPU_SUBOP_REDOP:
      return NAME_AT(redop_names, v);
   case PPU_SUBOP_PLOP:
      return NAME_AT(plop_names, v);
   case PPU_SUBOP_MEMBAR:
      return NAME_AT(membar_names, v);
   case PPU_SUBOP_TTU:
      return NAME_AT(ttu_names, v);
   case PPU_SUBOP_TEXLOD:
      return NAME_AT(texlod_names, v);
   case PPU_SUBOP_GATHER:
      return NAME_AT(gather_names, v);
   case PPU_SUBOP_TXQ:
      return NAME_AT(txq_names, v);
   case PPU_SUBOP_SUFMT:
      return NAME_AT(sufmt_names, v);
   }
   return NULL;
}

const char *ppu_mode_name(enum ppu_mode_class c, unsigned v)
{
   switch (c) {
   case PPU_MODE_NONE:
      return NULL;
   case PPU_MODE_SPACE:
      return NAME_AT(space_names, v);
   case PPU_MODE_SCAN:
      return NAME_AT(scan_names, v);
   case PPU_MODE_TEXDIM:
      return NAME_AT(texdim_names, v);
   }
   return NULL;
}

const char *ppu_sreg_name(enum ppu_sreg sr)
{
   return NAME_AT(sreg_names, (unsigned)sr);
}

bool ppu_op_is_texture(enum ppu_op op)
{
   return op >= PPU_OP_TEX && op <= PPU_OP_SUATOM;
}

/* Coordinates of a view type: float coordinates (cube: a direction) plus
 * the array layer; integer coordinates address a cube's faces as layers.
 * A texel buffer has one integer coordinate, the element index (its float
 * entries only size TEX/TLD4 vectors, which refuse BUFFER anyway). */
static unsigned float_coords(unsigned dim)
{
   static const uint8_t n[PPU_TEXDIM_COUNT] = {1, 2, 3, 3, 2, 3, 4, 1};
   return dim < PPU_TEXDIM_COUNT ? n[dim] : 0;
}

static unsigned int_coords(unsigned dim)
{
   static const uint8_t n[PPU_TEXDIM_COUNT] = {1, 2, 3, 3, 2, 3, 3, 1};
   return dim < PPU_TEXDIM_COUNT ? n[dim] : 0;
}

static unsigned gradient_words(unsigned dim)
{
   static const uint8_t n[PPU_TEXDIM_COUNT] = {1, 2, 3, 3, 1, 2, 3, 1};
   return dim < PPU_TEXDIM_COUNT ? n[dim] : 0;
}

unsigned ppu_tex_coord_words(const struct ppu_insn_fields *f)
{
   unsigned dc = (f->imm & PPU_TEXIMM_DC) ? 1 : 0;
   switch (f->op) {
   case PPU_OP_TEX: {
      unsigned n = float_coords(f->mode) + dc;
      if (f->subop == PPU_TEXLOD_LL || f->subop == PPU_TEXLOD_LB)
         n++;
      else if (f->subop == PPU_TEXLOD_LG)
         n += 2 * gradient_words(f->mode);
      return n;
   }
   case PPU_OP_TLD4:
      return float_coords(f->mode) + dc;
   case PPU_OP_TLD:
      /* A texel buffer has no levels (SPIR-V forbids Lod on a Buffer
       * fetch): its vector is the element index alone. */
      return int_coords(f->mode) + (f->mode == PPU_TEXDIM_BUFFER ? 0 : 1);
   case PPU_OP_TXQ:
      return 1;
   case PPU_OP_SULD:
   case PPU_OP_SUST:
   case PPU_OP_SUATOM:
      return int_coords(f->mode);
   default:
      return 0;
   }
}

/* Texture rules the table cannot express. */
static const char *texture_rule(const struct ppu_insn_fields *f)
{
   bool offsets = f->op == PPU_OP_TEX || f->op == PPU_OP_TLD || f->op == PPU_OP_TLD4;
   bool dc = f->op == PPU_OP_TEX || f->op == PPU_OP_TLD4;
   uint32_t allowed = (offsets ? PPU_TEXIMM_OFFSET_MASK : 0) | (dc ? PPU_TEXIMM_DC : 0);
   if (f->imm & ~allowed)
      return "texture control bits not allowed for this opcode";
   if (f->op == PPU_OP_TLD4 && f->mode != PPU_TEXDIM_2D && f->mode != PPU_TEXDIM_2DA &&
       f->mode != PPU_TEXDIM_CUBE && f->mode != PPU_TEXDIM_CUBEA)
      return "TLD4 gathers from 2D and cube views only";
   if ((f->mode == PPU_TEXDIM_CUBE || f->mode == PPU_TEXDIM_CUBEA) && (f->imm & 0xfffu))
      return "no texel offsets on cube views";
   /* Texel buffers are fetched, loaded, stored and queried, never sampled
    * (Vulkan: no sampler, no ConstOffset on a Buffer image). */
   if (f->mode == PPU_TEXDIM_BUFFER && f->op == PPU_OP_TEX)
      return "TEX does not sample texel buffers";
   if (f->mode == PPU_TEXDIM_BUFFER && (f->imm & 0xfffu))
      return "no texel offsets on texel buffers";
   if (f->op == PPU_OP_SUATOM && f->type == PPU_TYPE_F32 && f->subop != PPU_ATOM_EXCH)
      return "F32 image atomics are EXCH only";
   return NULL;
}

void ppu_insn_fields_init(struct ppu_insn_fields *f, enum ppu_op op)
{
   memset(f, 0, sizeof(*f));
   f->op = (uint8_t)op;
   f->rd = f->ra = f->rb = f->rc = PPU_RZ;
   f->guard = f->pd = f->ps = f->ps2 = PPU_PT;
}

void ppu_insn_encode(const struct ppu_insn_fields *f, uint32_t out[PPU_INSN_WORDS])
{
   out[0] = (uint32_t)f->op | (uint32_t)f->rd << 8 | (uint32_t)f->ra << 16 | (uint32_t)f->rb << 24;
   out[1] = (uint32_t)f->rc | (uint32_t)(f->guard & 0xf) << 8 | (uint32_t)(f->pd & 0x7) << 12 |
            (uint32_t)(f->ps & 0xf) << 16 | (uint32_t)(f->ps2 & 0xf) << 20 |
            (uint32_t)(f->subop & 0xf) << 24 | (uint32_t)(f->type & 0xf) << 28;
   out[2] = f->imm;
   out[3] = (uint32_t)(f->type2 & PPU_INSN_W3_TYPE2_MASK) | (f->b_imm ? PPU_INSN_W3_B_IMM : 0) |
            (uint32_t)(f->mode & PPU_INSN_W3_MODE_MASK) << PPU_INSN_W3_MODE_SHIFT;
}

static bool subop_valid(enum ppu_op op, unsigned subop)
{
   enum ppu_subop_class c = op_table[op].subop;
   if (c == PPU_SUBOP_NONE)
      return subop == 0;
   if (op == PPU_OP_ISETP) /* integer compares: LT..GE only */
      return subop >= PPU_CMP_LT && subop <= PPU_CMP_GE;
   return ppu_subop_name(c, subop) != NULL;
}

static bool fail(const char **why, const char *reason)
{
   if (why)
      *why = reason;
   return false;
}

bool ppu_insn_decode(const uint32_t w[PPU_INSN_WORDS], struct ppu_insn_fields *f, const char **why)
{
   memset(f, 0, sizeof(*f));
   f->op = (uint8_t)(w[0] & 0xff);
   f->rd = (uint8_t)(w[0] >> 8);
   f->ra = (uint8_t)(w[0] >> 16);
   f->rb = (uint8_t)(w[0] >> 24);
   f->rc = (uint8_t)(w[1] & 0xff);
   f->guard = (uint8_t)((w[1] >> 8) & 0xf);
   f->pd = (uint8_t)((w[1] >> 12) & 0x7);
   f->ps = (uint8_t)((w[1] >> 16) & 0xf);
   f->ps2 = (uint8_t)((w[1] >> 20) & 0xf);
   f->subop = (uint8_t)((w[1] >> 24) & 0xf);
   f->type = (uint8_t)(w[1] >> 28);
   f->imm = w[2];
   f->type2 = (uint8_t)(w[3] & PPU_INSN_W3_TYPE2_MASK);
   f->b_imm = (w[3] & PPU_INSN_W3_B_IMM) != 0;
   f->mode = (uint8_t)((w[3] >> PPU_INSN_W3_MODE_SHIFT) & PPU_INSN_W3_MODE_MASK);

   if (f->op >= PPU_OP_COUNT)
      return fail(why, "unknown opcode");
   const struct op_info *info = &op_table[f->op];
   if ((w[1] & PPU_INSN_W1_PD_RSVD) || (w[3] & PPU_INSN_W3_RSVD_MASK))
      return fail(why, "reserved bits set");
   if (f->type >= PPU_TYPE_COUNT || !(info->types & (1u << f->type)))
      return fail(why, "type not allowed for this opcode");
   if (f->op == PPU_OP_CVT) {
      if (f->type2 >= PPU_TYPE_COUNT || !(PPU_TS_CVT & (1u << f->type2)))
         return fail(why, "CVT source type not allowed");
   } else if (f->type2 != 0) {
      return fail(why, "type2 set on an opcode that has one type");
   }
   if (!subop_valid(f->op, f->subop))
      return fail(why, "subop not allowed for this opcode");
   if (info->mode == PPU_MODE_NONE ? f->mode != 0 : ppu_mode_name(info->mode, f->mode) == NULL)
      return fail(why, "mode not allowed for this opcode");
   if ((info->flags & PPU_OPF_UNGUARDED) && f->guard != PPU_PT)
      return fail(why, "control instruction with a guard predicate");
   if (f->b_imm && !strchr(info->signature, 'b'))
      return fail(why, "immediate operand b on an opcode without operand b");
   if (ppu_op_is_texture(f->op)) {
      const char *rule = texture_rule(f);
      if (rule)
         return fail(why, rule);
   }
   return true;
}
