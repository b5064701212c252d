/* The compiler's intermediate form: a linear list of PPU instructions whose
 * register operands are virtual registers (vregs), plus labels.
 *
 * Why machine-level rather than a higher IR: the SPIR-V front end already
 * gives typed, structured, validated input, so translation selects PPU
 * instructions directly (instruction selection happens in translate_*.c)
 * and the later stages (register allocation, label resolution, encoding)
 * only need to know which operands are registers and where each thread can
 * continue after an instruction. The reconvergence instructions (SSY, PBK,
 * PCNT, SYNC, BRK, CONT, CALL, RET) are emitted during translation, each
 * carrying the label where the executing thread continues, so liveness
 * follows a single thread's path (docs/isa.md "Control flow and
 * reconvergence"; registers are per thread and inactive lanes never write).
 */
#ifndef DRV_COMPILER_IR_H
#define DRV_COMPILER_IR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ppu/isa.h"

#define IR_NO_VREG 0u
#define IR_NO_LABEL 0u

struct ir_insn {
   struct ppu_insn_fields f; /* register fields are filled in by allocation */
   uint32_t dst;             /* vreg written through rd, IR_NO_VREG when none */
   uint32_t src[3];          /* vregs read through ra, rb, rc; IR_NO_VREG keeps the field */
   /* Register offset within the vreg for rd, ra, rb, rc: texture
    * instructions take register groups (a result quad, a coordinate
    * vector), which translation builds and takes apart one 32-bit MOV
    * per register (translate_image.c). 0 everywhere else. */
   uint8_t part[4];
   bool is_label;  /* a label pseudo instruction (no code) */
   uint32_t label; /* is_label: its id; BRA/SSY/PBK/PCNT/CALL: the target */
   /* SYNC, BRK, CONT, RET: the label where the executing thread resumes
    * (the merge, loop exit, continue block or call return). */
   uint32_t resume;
   /* LD/ST.LOCAL: IR_LOCAL_STATIC addresses a variable laid out when the
    * program is compiled (ir_lower_call_frames moves it into its
    * function's frame); IR_LOCAL_ABSOLUTE is already a thread-local
    * address (a stack slot, a pointer a caller passed). */
   uint8_t local_ref;
   /* CALL of an out-of-line function (call_frames.h): the thread goes on
    * after it; the callee's final RET (resume IR_NO_LABEL) comes back. */
   bool out_of_line;
   /* IR_FRAME_PLUS / _MINUS: ir_lower_call_frames sets imm to + / - the
    * size of frame frame_func once it is known. Out-of-line CALLs name the
    * caller's frame in frame_func too. */
   uint8_t frame_fixup;
   uint32_t frame_func;
};

enum { IR_LOCAL_STATIC, IR_LOCAL_ABSOLUTE };
enum { IR_FRAME_NONE, IR_FRAME_PLUS, IR_FRAME_MINUS };

/* The frame of one out-of-line function (call_frames.h): the static local
 * range its variables were laid out in, and the vregs holding its stack
 * pointer and frame base (sp + IR_FRAME_HEADER - lo) in its body. */
struct ir_frame {
   uint32_t lo, hi;
   uint32_t sp, fbase;
   uint32_t entry_label; /* IR_NO_LABEL for the program's root */
   uint32_t save_bytes;  /* set by ir_lower_call_frames */
   uint32_t frame_bytes; /* set by ir_lower_call_frames */
};

/* A byte range of local memory that some access addresses dynamically. */
struct ir_range {
   uint32_t start, end;
};

struct ir_program {
   struct ir_insn *insns;
   uint32_t insn_count, insn_cap;
   uint8_t *vreg_size; /* registers per vreg (1, 2 or 4), index 0 unused */
   uint32_t vreg_count, vreg_cap;
   uint32_t label_count;
   struct ir_range *dynamic_local; /* see ir_mark_dynamic_local */
   /* Vregs at or above this id stand for promoted local variables
    * (optimize.c): assignable storage, never SSA values, even when written
    * once (a read in a loop may see the previous iteration's write). */
   uint32_t first_variable_vreg;
   /* Instructions moved into the prologue so far (xl_hoist_to_prologue). */
   uint32_t hoisted;
   uint32_t dynamic_local_count, dynamic_local_cap;
   /* Registers allocation never assigns (bit r of word r / 64): graphics
    * programs' launch and output registers (docs/graphics-hw.md), which
    * the program reads and writes by number. */
   uint64_t reserved[4];
   /* Out-of-line functions (ray-tracing stages); none in other programs. */
   struct ir_frame *frames;
   uint32_t frame_count, frame_cap;
   /* Bit v (word v / 64): vreg v must keep its register over the whole
    * program, as a value an out-of-line function reads without defining
    * it does (its function may run again from any call); NULL for none. */
   uint64_t *pinned;
   uint32_t pinned_words;
   /* Vreg v < extend_count must also keep its register over instructions
    * [extend_lo[v], extend_hi[v]) (when lo < hi): the code of the
    * functions a call it lives across can reach (call_frames.c). */
   uint32_t *extend_lo, *extend_hi;
   uint32_t extend_count;
   /* Save around every out-of-line CALL, recursive or not (fewer
    * registers, more memory traffic: the retry when registers run out). */
   bool save_all_calls;
   bool out_of_memory;
};

void ir_init(struct ir_program *p);
void ir_free(struct ir_program *p);
uint32_t ir_new_vreg(struct ir_program *p, unsigned regs);
uint32_t ir_new_label(struct ir_program *p);
/* Appends an instruction and returns it (a static dummy when out of
 * memory, so callers need not check; p->out_of_memory reports it). */
struct ir_insn *ir_emit(struct ir_program *p, enum ppu_op op);
void ir_emit_label(struct ir_program *p, uint32_t label);
/* A label or a control instruction: where a basic block ends. */
bool ir_ends_block(const struct ir_insn *in);
/* Records that [start, end) of local memory is accessed through a dynamic
 * address, so optimize.c does not promote it to registers. */
void ir_mark_dynamic_local(struct ir_program *p, uint32_t start, uint32_t end);
/* Moves insns [from, insn_count) to position at, shifting the rest. */
void ir_move_tail(struct ir_program *p, uint32_t from, uint32_t at);

/* An instruction not yet in a program: op and type, no registers, no guard. */
struct ir_insn ir_insn_make(enum ppu_op op, enum ppu_type type);

/* A new instruction list that passes inserting code build from a
 * program's (call_frames.c, spill.c), then install in its place. */
struct ir_insn_list {
   struct ir_insn *v;
   uint32_t n, cap;
   bool oom;
};
void ir_insn_list_push(struct ir_insn_list *l, const struct ir_insn *in);
/* Makes l the program's instructions (l is left empty). */
void ir_insn_list_install(struct ir_program *p, struct ir_insn_list *l);

/* Thread-level successors of instruction i: up to two instruction indices
 * (UINT32_MAX when none). label_pos maps label ids to instruction indices. */
void ir_successors(const struct ir_program *p, const uint32_t *label_pos, uint32_t i,
                   uint32_t succ[2]);
/* Index of each label's pseudo instruction (UINT32_MAX when absent). */
uint32_t *ir_label_positions(const struct ir_program *p);

/* Backward dataflow to a fixed point over the thread-level successors:
 * live_in[i * words + w] bit b = vreg w * 64 + b is live before insn i.
 * False when out of memory. */
bool ir_liveness(const struct ir_program *p, const uint32_t *label_pos, uint64_t *live_in,
                 uint32_t words);
/* Appends a frame and returns its index (UINT32_MAX when out of memory). */
uint32_t ir_new_frame(struct ir_program *p);

void ir_print(const struct ir_program *p, FILE *out);

#endif /* DRV_COMPILER_IR_H */
