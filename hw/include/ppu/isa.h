/* The PPU instruction set: the binary encoding the SM fetches from GPU
 * memory, the operand and modifier vocabulary, and the name tables shared by
 * the disassembler (hw/src/isa_disasm.c) and assemblers.
 *
 * docs/isa.md describes the semantics of every instruction and how a
 * compiler must use the reconvergence instructions; keep the two in step.
 *
 * Every instruction is 128 bits: four little-endian 32-bit words, 16-byte
 * aligned.
 *
 *   word 0   7..0   opcode (enum ppu_op)
 *           15..8   rd   destination register (R0..R254, 255 = RZ)
 *           23..16  ra   first source register
 *           31..24  rb   second source register (unused when B_IMM is set)
 *   word 1   7..0   rc   third source register
 *           11..8   guard predicate: 10..8 index (7 = PT), 11 negate
 *           15..12  pd   destination predicate: 14..12 index (7 = PT =
 *                        discard), 15 must be 0
 *           19..16  ps   source predicate: 18..16 index, 19 negate
 *           23..20  ps2  second source predicate, same layout
 *           27..24  subop  operation variant (compare, atomic op, rounding..)
 *           31..28  type   data type (enum ppu_type)
 *   word 2  31..0   imm  32-bit immediate (operand b when B_IMM, memory
 *                        offset, branch target, special register number)
 *                        (texture instructions: offsets and flags, PPU_TEXIMM_*)
 *   word 3   3..0   type2  second data type (CVT: source type)
 *            4      B_IMM  operand b is imm, not register rb
 *            7..5   mode   memory space (LD/ST/ATOM), scan mode (WRED) or
 *                          view type (texture instructions, enum ppu_texdim)
 *           31..8   reserved, must be 0
 *
 * Any encoding the table below does not allow (unknown opcode, a type or
 * subop the opcode does not take, a register beyond the grid's register
 * count, a set reserved bit) is an illegal instruction: the SM stops the grid
 * with PPU_FAULT_ILLEGAL_INSTRUCTION naming the PC.
 */
#ifndef PPU_ISA_H
#define PPU_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PPU_INSN_BYTES 16u
#define PPU_INSN_WORDS 4u
#define PPU_WARP_SIZE 32u

#define PPU_REG_COUNT_MAX 255u /* R0..R254 */
#define PPU_RZ 255u            /* reads 0, writes are discarded */
#define PPU_PRED_COUNT 7u      /* P0..P6 */
#define PPU_PT 7u              /* reads true, writes are discarded */
#define PPU_PRED_NEG 8u        /* negate bit of a 4-bit predicate field */

/* Data types (type / type2 fields). 64-bit values live in aligned register
 * pairs (Rn even: low word in Rn), 128-bit in aligned quads. 8/16-bit
 * values occupy the low bits of a 32-bit register. */
enum ppu_type {
   PPU_TYPE_U32 = 0,
   PPU_TYPE_S32 = 1,
   PPU_TYPE_F32 = 2,
   PPU_TYPE_U64 = 3,
   PPU_TYPE_S64 = 4,
   PPU_TYPE_F64 = 5,
   PPU_TYPE_U16 = 6,
   PPU_TYPE_S16 = 7,
   PPU_TYPE_F16 = 8,
   PPU_TYPE_U8 = 9,
   PPU_TYPE_S8 = 10,
   PPU_TYPE_B128 = 11,
   PPU_TYPE_COUNT = 12,
};

/* Type sets an opcode accepts (bit = 1 << enum ppu_type). */
#define PPU_T(t) (1u << PPU_TYPE_##t)
#define PPU_TS_I32 (PPU_T(U32) | PPU_T(S32))
#define PPU_TS_I64 (PPU_T(U64) | PPU_T(S64))
#define PPU_TS_INT (PPU_TS_I32 | PPU_TS_I64)
#define PPU_TS_FLT (PPU_T(F32) | PPU_T(F64))
#define PPU_TS_CVT                                                                                 \
   (PPU_TS_INT | PPU_TS_FLT | PPU_T(U16) | PPU_T(S16) | PPU_T(F16) | PPU_T(U8) | PPU_T(S8))
#define PPU_TS_MEM                                                                                 \
   (PPU_TS_I32 | PPU_T(U64) | PPU_T(U16) | PPU_T(S16) | PPU_T(U8) | PPU_T(S8) | PPU_T(B128))
#define PPU_TS_ATOM (PPU_TS_INT | PPU_T(F32))
#define PPU_TS_RED (PPU_TS_I32 | PPU_T(F32))
#define PPU_TS_ANY32 (PPU_TS_I32 | PPU_T(F32))
#define PPU_TS_U32 PPU_T(U32)

/* Subop classes: what the subop field means for an opcode. */
enum ppu_subop_class {
   PPU_SUBOP_NONE,   /* subop must be 0 */
   PPU_SUBOP_CMP,    /* enum ppu_cmp */
   PPU_SUBOP_ATOM,   /* enum ppu_atom_op */
   PPU_SUBOP_MUFU,   /* enum ppu_mufu */
   PPU_SUBOP_ROUND,  /* enum ppu_round */
   PPU_SUBOP_SHFL,   /* enum ppu_shfl */
   PPU_SUBOP_VOTE,   /* enum ppu_vote */
   PPU_SUBOP_REDOP,  /* enum ppu_redop */
   PPU_SUBOP_PLOP,   /* enum ppu_plop */
   PPU_SUBOP_MEMBAR, /* enum ppu_membar_scope */
   PPU_SUBOP_TTU,    /* enum ppu_ttu_op (ray_query.h) */
   PPU_SUBOP_TEXLOD, /* enum ppu_texlod (TEX) */
   PPU_SUBOP_GATHER, /* enum ppu_gather (TLD4) */
   PPU_SUBOP_TXQ,    /* enum ppu_txq */
   PPU_SUBOP_SUFMT,  /* enum ppu_sufmt (SULD, SUST) */
};
/* Mode classes: what the mode field means. */
enum ppu_mode_class {
   PPU_MODE_NONE,   /* mode must be 0 */
   PPU_MODE_SPACE,  /* enum ppu_space */
   PPU_MODE_SCAN,   /* enum ppu_scan */
   PPU_MODE_TEXDIM, /* enum ppu_texdim (texture instructions) */
};

/* Comparisons (ISETP, FSETP). Integer compares take EQ..GE only. The
 * ordered float compares are false when either operand is NaN, the
 * unordered (..U) ones true. */
enum ppu_cmp {
   PPU_CMP_F = 0,
   PPU_CMP_LT,
   PPU_CMP_EQ,
   PPU_CMP_LE,
   PPU_CMP_GT,
   PPU_CMP_NE,
   PPU_CMP_GE,
   PPU_CMP_NUM, /* neither is NaN */
   PPU_CMP_NAN, /* either is NaN */
   PPU_CMP_LTU,
   PPU_CMP_EQU,
   PPU_CMP_LEU,
   PPU_CMP_GTU,
   PPU_CMP_NEU,
   PPU_CMP_GEU,
   PPU_CMP_T,
};

enum ppu_atom_op {
   PPU_ATOM_ADD = 0,
   PPU_ATOM_MIN,
   PPU_ATOM_MAX,
   PPU_ATOM_AND,
   PPU_ATOM_OR,
   PPU_ATOM_XOR,
   PPU_ATOM_EXCH,
   PPU_ATOM_CAS,
   PPU_ATOM_COUNT,
};

/* Multi-function unit (transcendentals); precision in docs/isa.md. */
enum ppu_mufu {
   PPU_MUFU_RCP = 0,
   PPU_MUFU_RSQ,
   PPU_MUFU_SQRT,
   PPU_MUFU_EX2,
   PPU_MUFU_LG2,
   PPU_MUFU_SIN,
   PPU_MUFU_COS,
   PPU_MUFU_COUNT,
};

/* IEEE rounding modes (CVT, FRND). */
enum ppu_round {
   PPU_ROUND_RN = 0, /* to nearest, ties to even */
   PPU_ROUND_RZ,     /* toward zero */
   PPU_ROUND_RM,     /* toward -inf */
   PPU_ROUND_RP,     /* toward +inf */
   PPU_ROUND_COUNT,
};

enum ppu_shfl {
   PPU_SHFL_IDX = 0, /* source lane b & 31 ... b >= 32 is out of range */
   PPU_SHFL_UP,      /* lane - b */
   PPU_SHFL_DOWN,    /* lane + b */
   PPU_SHFL_BFLY,    /* lane ^ b */
   PPU_SHFL_COUNT,
};

enum ppu_vote {
   PPU_VOTE_ALL = 0,
   PPU_VOTE_ANY,
   PPU_VOTE_EQ,
   PPU_VOTE_COUNT,
};

enum ppu_redop {
   PPU_REDOP_ADD = 0,
   PPU_REDOP_MIN,
   PPU_REDOP_MAX,
   PPU_REDOP_AND,
   PPU_REDOP_OR,
   PPU_REDOP_XOR,
   PPU_REDOP_COUNT,
};

enum ppu_plop {
   PPU_PLOP_AND = 0,
   PPU_PLOP_OR,
   PPU_PLOP_XOR,
   PPU_PLOP_COUNT,
};

enum ppu_membar_scope {
   PPU_MEMBAR_CTA = 0, /* workgroup */
   PPU_MEMBAR_GL,      /* device */
   PPU_MEMBAR_SYS,     /* device and host */
   PPU_MEMBAR_COUNT,
};

/* Memory spaces (mode field of LD/ST/ATOM). Addresses of GLOBAL and GENERIC
 * are 64-bit register pairs; SHARED and LOCAL take a 32-bit register. */
enum ppu_space {
   PPU_SPACE_GENERIC = 0,
   PPU_SPACE_GLOBAL,
   PPU_SPACE_SHARED,
   PPU_SPACE_LOCAL,
   PPU_SPACE_COUNT,
};

/* Generic address windows: a generic address in [base, base + 4 GiB) is a
 * shared (local) address, anything else a global VA. Both windows lie far
 * above the 40-bit VA space so no global address falls into them. */
#define PPU_GENERIC_SHARED_BASE 0x0001000000000000ull
#define PPU_GENERIC_LOCAL_BASE 0x0002000000000000ull
#define PPU_GENERIC_WINDOW_SIZE 0x0000000100000000ull

enum ppu_scan {
   PPU_SCAN_REDUCE = 0, /* every active lane gets the result over all active lanes */
   PPU_SCAN_INCLUSIVE,
   PPU_SCAN_EXCLUSIVE,
   PPU_SCAN_COUNT,
};

/* Texture instructions (docs/isa.md "Textures", docs/texture-unit.md).
 * The mode field names the view type the shader declared; it fixes the
 * layout of the coordinate vector rc.. (see ppu_tex_coord_words). */
enum ppu_texdim {
   PPU_TEXDIM_1D = 0,
   PPU_TEXDIM_2D,
   PPU_TEXDIM_3D,
   PPU_TEXDIM_CUBE,
   PPU_TEXDIM_1DA, /* arrays: the layer follows the coordinates */
   PPU_TEXDIM_2DA,
   PPU_TEXDIM_CUBEA,
   PPU_TEXDIM_BUFFER, /* texel buffers: TLD, TXQ and the SU instructions only */
   PPU_TEXDIM_COUNT,
};

/* How TEX finds its level of detail (Vulkan "Level-of-Detail Operation"). */
enum ppu_texlod {
   PPU_TEXLOD_AUTO = 0, /* from the quad's derivatives (lanes 4k..4k+3) */
   PPU_TEXLOD_LZ,       /* lod 0 */
   PPU_TEXLOD_LL,       /* explicit lod in the vector */
   PPU_TEXLOD_LB,       /* derivatives plus a bias in the vector */
   PPU_TEXLOD_LG,       /* explicit gradients dP/dx, dP/dy in the vector */
   PPU_TEXLOD_COUNT,
};

enum ppu_gather { /* TLD4: the component gathered (after the view's swizzle) */
                  PPU_GATHER_R = 0,
                  PPU_GATHER_G,
                  PPU_GATHER_B,
                  PPU_GATHER_A,
                  PPU_GATHER_COUNT,
};

enum ppu_txq {
   PPU_TXQ_SIZE = 0, /* extent of level rc (Vulkan OpImageQuerySizeLod order) */
   PPU_TXQ_LEVELS,   /* levels of the view */
   PPU_TXQ_SAMPLES,  /* samples per texel (1) */
   PPU_TXQ_COUNT,
};

enum ppu_sufmt {
   PPU_SUFMT_P = 0, /* formatted: converted through the header's format */
   PPU_SUFMT_B,     /* raw texel bits, no conversion */
   PPU_SUFMT_COUNT,
};

/* The imm word of TEX, TLD and TLD4: constant texel offsets (signed 4-bit,
 * Vulkan's minTexelOffset -8 .. maxTexelOffset 7) and the depth-compare
 * flag; every other bit is reserved. Texture instructions without offsets
 * (TXQ, SULD, SUST, SUATOM) take imm = 0. */
#define PPU_TEXIMM_OFFSET_MASK 0xfffu /* u in 3..0, v in 7..4, w in 11..8 */
#define PPU_TEXIMM_DC (1u << 16)      /* depth compare: the reference ends the vector */
#define PPU_TEXIMM_VALID_MASK (PPU_TEXIMM_OFFSET_MASK | PPU_TEXIMM_DC)

static inline int ppu_teximm_offset(uint32_t imm, unsigned axis)
{
   return (int)((imm >> (4 * axis)) & 0xf) - (int)(((imm >> (4 * axis)) & 0x8) << 1);
}

/* Special registers (S2R, imm = number). */
enum ppu_sreg {
   PPU_SR_TID_X = 0, /* gl_LocalInvocationID */
   PPU_SR_TID_Y,
   PPU_SR_TID_Z,
   PPU_SR_CTAID_X, /* gl_WorkGroupID: base + index in the grid */
   PPU_SR_CTAID_Y,
   PPU_SR_CTAID_Z,
   PPU_SR_NTID_X, /* gl_WorkGroupSize */
   PPU_SR_NTID_Y,
   PPU_SR_NTID_Z,
   PPU_SR_NCTAID_X, /* gl_NumWorkGroups (without the base) */
   PPU_SR_NCTAID_Y,
   PPU_SR_NCTAID_Z,
   PPU_SR_LANEID,   /* gl_SubgroupInvocationID */
   PPU_SR_WARPID,   /* gl_SubgroupID: warp index within the workgroup */
   PPU_SR_NWARPS,   /* gl_NumSubgroups */
   PPU_SR_TID_FLAT, /* gl_LocalInvocationIndex */
   PPU_SR_LANEMASK_EQ,
   PPU_SR_LANEMASK_LT,
   PPU_SR_LANEMASK_LE,
   PPU_SR_LANEMASK_GT,
   PPU_SR_LANEMASK_GE,
   PPU_SR_SMID,
   PPU_SR_CLOCK_LO, /* GPU timer, ns */
   PPU_SR_CLOCK_HI,
   PPU_SR_COUNT,
};

/* Operand signature letters (assembler and disassembler order):
 *   d rd   a ra   r rb (register only)   b operand b (rb or imm with B_IMM)
 *   c rc   p pd   q ps   s ps2   i imm (number, label or SR_ name)
 *   m memory [ra + imm]    k constant c[rb][ra + imm] (rb = bank number)
 *   o texel offsets, imm bits 11..0, written off[u:v:w]
 * Flags: PPU_OPF_UNGUARDED: the guard must be PT (control instructions that
 * the whole active mask executes). */
#define PPU_OPF_UNGUARDED 1u

/* X(ID, "NAME", "signature", subop class, mode class, allowed types, flags) */
#define PPU_OPCODES(X)                                                                             \
   X(NOP, "NOP", "", NONE, NONE, PPU_TS_U32, 0)                                                    \
   X(MOV, "MOV", "d,b", NONE, NONE, PPU_TS_U32 | PPU_T(U64), 0)                                    \
   X(S2R, "S2R", "d,i", NONE, NONE, PPU_TS_U32, 0)                                                 \
   X(LDC, "LDC", "d,k", NONE, NONE, PPU_TS_U32 | PPU_T(U64) | PPU_T(B128), 0)                      \
   X(SEL, "SEL", "d,a,b,q", NONE, NONE, PPU_TS_U32 | PPU_T(U64), 0)                                \
   X(IADD, "IADD", "d,a,b", NONE, NONE, PPU_TS_INT, 0)                                             \
   X(ISUB, "ISUB", "d,a,b", NONE, NONE, PPU_TS_INT, 0)                                             \
   X(IMUL, "IMUL", "d,a,b", NONE, NONE, PPU_TS_INT, 0)                                             \
   X(IMULHI, "IMULHI", "d,a,b", NONE, NONE, PPU_TS_I32, 0)                                         \
   X(IMAD, "IMAD", "d,a,b,c", NONE, NONE, PPU_TS_I32, 0)                                           \
   X(IMADW, "IMADW", "d,a,b,c", NONE, NONE, PPU_TS_I32, 0)                                         \
   X(IDIV, "IDIV", "d,a,b", NONE, NONE, PPU_TS_INT, 0)                                             \
   X(IREM, "IREM", "d,a,b", NONE, NONE, PPU_TS_INT, 0)                                             \
   X(IMIN, "IMIN", "d,a,b", NONE, NONE, PPU_TS_INT, 0)                                             \
   X(IMAX, "IMAX", "d,a,b", NONE, NONE, PPU_TS_INT, 0)                                             \
   X(IABS, "IABS", "d,a", NONE, NONE, PPU_T(S32) | PPU_T(S64), 0)                                  \
   X(INEG, "INEG", "d,a", NONE, NONE, PPU_TS_INT, 0)                                               \
   X(ISETP, "ISETP", "p,a,b,q", CMP, NONE, PPU_TS_INT, 0)                                          \
   X(AND, "AND", "d,a,b", NONE, NONE, PPU_TS_U32 | PPU_T(U64), 0)                                  \
   X(OR, "OR", "d,a,b", NONE, NONE, PPU_TS_U32 | PPU_T(U64), 0)                                    \
   X(XOR, "XOR", "d,a,b", NONE, NONE, PPU_TS_U32 | PPU_T(U64), 0)                                  \
   X(NOT, "NOT", "d,a", NONE, NONE, PPU_TS_U32 | PPU_T(U64), 0)                                    \
   X(SHL, "SHL", "d,a,b", NONE, NONE, PPU_TS_U32 | PPU_T(U64), 0)                                  \
   X(SHR, "SHR", "d,a,b", NONE, NONE, PPU_TS_INT, 0)                                               \
   X(BFE, "BFE", "d,a,b", NONE, NONE, PPU_TS_I32, 0)                                               \
   X(BFI, "BFI", "d,a,b,c", NONE, NONE, PPU_TS_U32, 0)                                             \
   X(BREV, "BREV", "d,a", NONE, NONE, PPU_TS_U32, 0)                                               \
   X(POPC, "POPC", "d,a", NONE, NONE, PPU_TS_U32 | PPU_T(U64), 0)                                  \
   X(FLO, "FLO", "d,a", NONE, NONE, PPU_TS_I32, 0)                                                 \
   X(FFS, "FFS", "d,a", NONE, NONE, PPU_TS_U32, 0)                                                 \
   X(FADD, "FADD", "d,a,b", NONE, NONE, PPU_TS_FLT, 0)                                             \
   X(FSUB, "FSUB", "d,a,b", NONE, NONE, PPU_TS_FLT, 0)                                             \
   X(FMUL, "FMUL", "d,a,b", NONE, NONE, PPU_TS_FLT, 0)                                             \
   X(FFMA, "FFMA", "d,a,b,c", NONE, NONE, PPU_TS_FLT, 0)                                           \
   X(FDIV, "FDIV", "d,a,b", NONE, NONE, PPU_TS_FLT, 0)                                             \
   X(FMIN, "FMIN", "d,a,b", NONE, NONE, PPU_TS_FLT, 0)                                             \
   X(FMAX, "FMAX", "d,a,b", NONE, NONE, PPU_TS_FLT, 0)                                             \
   X(FSETP, "FSETP", "p,a,b,q", CMP, NONE, PPU_TS_FLT, 0)                                          \
   X(MUFU, "MUFU", "d,a", MUFU, NONE, PPU_TS_FLT, 0)                                               \
   X(FRND, "FRND", "d,a", ROUND, NONE, PPU_TS_FLT, 0)                                              \
   X(CVT, "CVT", "d,a", ROUND, NONE, PPU_TS_CVT, 0)                                                \
   X(PLOP, "PLOP", "p,q,s", PLOP, NONE, PPU_TS_U32, 0)                                             \
   X(LD, "LD", "d,m", NONE, SPACE, PPU_TS_MEM, 0)                                                  \
   X(ST, "ST", "m,r", NONE, SPACE, PPU_TS_MEM, 0)                                                  \
   X(ATOM, "ATOM", "d,m,r,c", ATOM, SPACE, PPU_TS_ATOM, 0)                                         \
   X(VOTE, "VOTE", "d,p,q", VOTE, NONE, PPU_TS_U32, 0)                                             \
   X(SHFL, "SHFL", "d,p,a,b", SHFL, NONE, PPU_TS_U32, 0)                                           \
   X(WRED, "WRED", "d,a", REDOP, SCAN, PPU_TS_RED, 0)                                              \
   X(BRA, "BRA", "i", NONE, NONE, PPU_TS_U32, 0)                                                   \
   X(SSY, "SSY", "i", NONE, NONE, PPU_TS_U32, PPU_OPF_UNGUARDED)                                   \
   X(PBK, "PBK", "i", NONE, NONE, PPU_TS_U32, PPU_OPF_UNGUARDED)                                   \
   X(PCNT, "PCNT", "i", NONE, NONE, PPU_TS_U32, PPU_OPF_UNGUARDED)                                 \
   X(SYNC, "SYNC", "", NONE, NONE, PPU_TS_U32, PPU_OPF_UNGUARDED)                                  \
   X(BRK, "BRK", "", NONE, NONE, PPU_TS_U32, 0)                                                    \
   X(CONT, "CONT", "", NONE, NONE, PPU_TS_U32, 0)                                                  \
   X(CALL, "CALL", "i", NONE, NONE, PPU_TS_U32, PPU_OPF_UNGUARDED)                                 \
   X(RET, "RET", "", NONE, NONE, PPU_TS_U32, 0)                                                    \
   X(EXIT, "EXIT", "", NONE, NONE, PPU_TS_U32, 0)                                                  \
   X(BAR, "BAR", "", NONE, NONE, PPU_TS_U32, PPU_OPF_UNGUARDED)                                    \
   X(MEMBAR, "MEMBAR", "", MEMBAR, NONE, PPU_TS_U32, 0)                                            \
   X(TTU, "TTU", "d,a,b", TTU, NONE, PPU_TS_U32, 0)                                                \
   X(TEX, "TEX", "d,a,r,c,o", TEXLOD, TEXDIM, PPU_TS_ANY32, 0)                                     \
   X(TLD, "TLD", "d,a,c,o", NONE, TEXDIM, PPU_TS_ANY32, 0)                                         \
   X(TLD4, "TLD4", "d,a,r,c,o", GATHER, TEXDIM, PPU_TS_ANY32, 0)                                   \
   X(TXQ, "TXQ", "d,a,c", TXQ, TEXDIM, PPU_TS_U32, 0)                                              \
   X(SULD, "SULD", "d,a,c", SUFMT, TEXDIM, PPU_TS_ANY32, 0)                                        \
   X(SUST, "SUST", "a,c,r", SUFMT, TEXDIM, PPU_TS_ANY32, 0)                                        \
   X(SUATOM, "SUATOM", "d,a,c,r", ATOM, TEXDIM, PPU_TS_ANY32, 0)

enum ppu_op {
#define PPU_OP_ENUM_(id, name, sig, sub, mode, types, flags) PPU_OP_##id,
   PPU_OPCODES(PPU_OP_ENUM_)
#undef PPU_OP_ENUM_
       PPU_OP_COUNT
};

/* Word 3 fields. */
#define PPU_INSN_W3_TYPE2_MASK 0xfu
#define PPU_INSN_W3_B_IMM (1u << 4)
#define PPU_INSN_W3_MODE_SHIFT 5u
#define PPU_INSN_W3_MODE_MASK 0x7u
#define PPU_INSN_W3_RSVD_MASK 0xffffff00u
#define PPU_INSN_W1_PD_RSVD (1u << 15)

/* An instruction's fields, as an encoder fills them and the decoder returns
 * them. Predicate fields hold index | PPU_PRED_NEG. */
struct ppu_insn_fields {
   uint8_t op, rd, ra, rb, rc;
   uint8_t guard, pd, ps, ps2;
   uint8_t subop, type, type2, mode;
   bool b_imm;
   uint32_t imm;
};

/* Fields with every register RZ, every predicate PT, the rest 0. */
void ppu_insn_fields_init(struct ppu_insn_fields *f, enum ppu_op op);
void ppu_insn_encode(const struct ppu_insn_fields *f, uint32_t out[PPU_INSN_WORDS]);
/* Splits the words into fields and checks them against the opcode table;
 * false (with a reason in why, if given) for an illegal encoding. Register
 * numbers are checked against the grid's register count by the SM. */
bool ppu_insn_decode(const uint32_t words[PPU_INSN_WORDS], struct ppu_insn_fields *f,
                     const char **why);

/* Register-operand checks for one decoded instruction, the ones the SM makes
 * when it decodes a line for a grid: every register it names (at the width
 * it uses it) lies inside register_count, pairs and quads are aligned, and
 * the type/subop combination is one the SM executes. Returns NULL or the
 * reason it is illegal. Public so that a driver can refuse such a program
 * before it ever runs (a pipeline cache that trusts nothing). */
const char *ppu_insn_check_operands(const struct ppu_insn_fields *f, uint32_t register_count);

/* Name tables (NULL for out of range). */
const char *ppu_op_name(enum ppu_op op);
const char *ppu_op_signature(enum ppu_op op);
enum ppu_subop_class ppu_op_subop_class(enum ppu_op op);
enum ppu_mode_class ppu_op_mode_class(enum ppu_op op);
uint32_t ppu_op_types(enum ppu_op op);
uint32_t ppu_op_flags(enum ppu_op op);
const char *ppu_type_name(enum ppu_type t);
/* Name of value v of a subop or mode class; NULL when out of range. */
const char *ppu_subop_name(enum ppu_subop_class c, unsigned v);
const char *ppu_mode_name(enum ppu_mode_class c, unsigned v);
const char *ppu_sreg_name(enum ppu_sreg sr);
/* True for the texture instructions (TEX .. SUATOM). */
bool ppu_op_is_texture(enum ppu_op op);
/* Registers of the coordinate vector rc.. of a texture instruction (0 for
 * other opcodes): see docs/isa.md "Textures". */
unsigned ppu_tex_coord_words(const struct ppu_insn_fields *f);

/* One instruction as text, e.g. "@!P0 IADD.S32 R1, R2, 0x5"; returns the
 * length written (snprintf rules). Illegal encodings print as
 * ".word 0x........ ... ; illegal: reason". */
int ppu_disasm_insn(const uint32_t words[PPU_INSN_WORDS], char *buf, size_t size);
/* A whole blob: one line per instruction, "  0x0010:  <text>\n", with the
 * offset relative to the start of the blob. Returns the length written. */
size_t ppu_disasm_program(const void *code, size_t bytes, char *buf, size_t size);

#endif /* PPU_ISA_H */
