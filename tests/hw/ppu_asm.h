/* A small text assembler for the PPU ISA, for tests: the syntax the
 * disassembler prints (docs/isa.md), plus labels ("loop:") usable as branch
 * targets, float immediates ("1.5f") and comments (";" or "//" to the end of
 * the line). Branch targets are byte offsets from the start of the program.
 */
#ifndef PPU_ASM_H
#define PPU_ASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Assembles src into out (max_insns instructions of 4 words); *n gets the
 * instruction count. False with a message ("line N: ...") in err. */
bool ppu_asm(const char *src, uint32_t *out, size_t max_insns, size_t *n, char *err,
             size_t err_size);

#endif /* PPU_ASM_H */
