/* Machine-IR optimizations run between translation and register
 * allocation: promotion of statically addressed local memory to registers,
 * copy propagation, constant propagation into immediates, local
 * common-subexpression elimination and dead-code elimination. */
#ifndef DRV_COMPILER_OPTIMIZE_H
#define DRV_COMPILER_OPTIMIZE_H

#include "ir.h"

/* promote_locals: turn statically addressed local memory into registers.
 * Returns true when the program no longer uses local memory. */
bool ir_optimize(struct ir_program *p, bool promote_locals);

/* register_groups.c: removes the moves that build texture coordinate
 * vectors and take result quads apart where a value can be written to or
 * read from its register of the group directly. Run last (ir_optimize). */
void ir_coalesce_register_groups(struct ir_program *p);

#endif /* DRV_COMPILER_OPTIMIZE_H */
