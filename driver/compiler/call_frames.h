/* Out-of-line functions with frames on a per-thread stack in local memory
 * (used by ray-tracing pipelines: docs/ray-tracing-pipeline.md "Call
 * stack").
 *
 * Translation lays every function's variables out at static local offsets
 * [lo, hi) of its struct ir_frame, as for any program, so optimize.c
 * promotes them to registers as usual. Then ir_lower_call_frames makes the
 * functions reentrant:
 *
 *  - every LD/ST.LOCAL of a static offset in a frame's range is rebased on
 *    that function's frame base (sp + IR_FRAME_HEADER - lo): each
 *    activation gets its own copy of what stayed in memory;
 *  - around an out-of-line CALL whose callee may come back into the
 *    caller's function (recursion), the caller stores the vregs live
 *    across it into its frame's save area and loads them back after (the
 *    callee runs the caller's code, so it may use any of its registers);
 *    the caller's stack pointer comes back from the stack slot at local
 *    offset 0, which holds the callee's sp: the frame sizes are constants;
 *  - around any other out-of-line CALL nothing is saved: the vregs live
 *    across it keep their registers over the code of every function the
 *    callee may reach (ir_program.extend_lo / extend_hi), so no callee
 *    writes them;
 *  - the frame sizes (header + variables + save area, 16-byte multiples)
 *    fill the IR_FRAME_PLUS / _MINUS immediates.
 *
 * Frame 0 is the root's: the code that calls the first function (it has
 * no variables, only a header-sized frame and its save area), at
 * IR_STACK_BASE; the stack starts above it.
 *
 * The stack slot (offset IR_STACK_SLOT, 4 bytes) holds the stack pointer
 * of the innermost call: a caller writes its callee's sp there before the
 * CALL, the callee reads it on entry. */
#ifndef DRV_COMPILER_CALL_FRAMES_H
#define DRV_COMPILER_CALL_FRAMES_H

#include <stddef.h>

#include "ir.h"

#define IR_STACK_SLOT 0u
/* Local bytes before the first frame: the stack slot, padded. */
#define IR_STACK_BASE 16u
/* Bytes at the start of each frame for the arguments its caller writes. */
#define IR_FRAME_HEADER 32u

/* Rebases, saves and sizes as above (p->frames[k].save_bytes and
 * frame_bytes are set). False with a message on an internal error or when
 * memory runs out. */
bool ir_lower_call_frames(struct ir_program *p, char *err, size_t err_size);

#endif /* DRV_COMPILER_CALL_FRAMES_H */
