/* Spilling for register allocation (regalloc.c): a vreg that gets no
 * register lives in a slot of the thread's local memory instead. Every
 * instruction that reads it loads the slot into a new vreg first, every
 * instruction that writes it writes a new vreg that is then stored to the
 * slot, so what stays in registers are short ranges around single
 * instructions. Local memory is per thread like the registers and inactive
 * lanes neither load nor store, so the slot follows each lane's value
 * through divergent control flow exactly as a register would.
 */
#ifndef DRV_COMPILER_SPILL_H
#define DRV_COMPILER_SPILL_H

#include <stdbool.h>
#include <stdint.h>

#include "ir.h"

/* Whether vreg v may be spilled: one or two registers (not a register
 * group: texture operands are built in place), not pinned nor extended
 * over other functions' code (call_frames.h), not made by spilling. */
bool ir_spillable(const struct ir_program *p, uint32_t v, uint32_t first_spill_vreg);

/* Rewrites p so that the vregs with spill[v] live in 4- or 8-byte local
 * slots from *local_size on, which grows by the slots. False when memory runs
 * out or local memory would pass local_limit bytes. */
bool ir_spill(struct ir_program *p, const bool *spill, uint32_t *local_size, uint32_t local_limit);

#endif /* DRV_COMPILER_SPILL_H */
