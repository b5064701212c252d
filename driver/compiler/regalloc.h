/* Register allocation: liveness over the thread-level control flow of the
 * IR (ir_successors), one live interval per vreg over the linear order, and
 * a linear scan that gives each vreg physical registers (64-bit values in
 * aligned pairs, docs/isa.md "State"). When max_registers do not suffice,
 * vregs move to local memory (spill.h) and the scan runs again.
 */
#ifndef DRV_COMPILER_REGALLOC_H
#define DRV_COMPILER_REGALLOC_H

#include <stddef.h>

#include "ir.h"

/* Rewrites the register fields of every instruction; returns false with a
 * message in err when the registers do not suffice (or memory runs out).
 * Spill slots go from *local_size on (which grows), up to local_limit
 * bytes; local_size NULL: no spilling. */
bool regalloc_run(struct ir_program *p, uint32_t max_registers, uint32_t *local_size,
                  uint32_t local_limit, uint32_t *register_count, char *err, size_t err_size);

#endif /* DRV_COMPILER_REGALLOC_H */
