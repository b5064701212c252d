/* Building fault records. A unit that finds an error fills in what it knows
 * (kind, engine, address, detail) and returns the error as a value; the host
 * interface adds the method and GPFIFO context and stops the channel. */
#ifndef PPU_FAULT_H
#define PPU_FAULT_H

#include <stdbool.h>
#include <stdint.h>

#include "ppu/gpu.h"

/* Clears *f and sets kind, engine and a printf-formatted detail line. */
void ppu_fault_set(struct ppu_fault *f, enum ppu_fault_kind kind, enum ppu_engine engine,
                   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* The same, for MMU faults: also records the address and the direction. */
void ppu_fault_set_mmu(struct ppu_fault *f, enum ppu_fault_kind kind, enum ppu_engine engine,
                       uint64_t va, bool write, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

#endif /* PPU_FAULT_H */
