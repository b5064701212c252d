/* Floating-point bit patterns of SPIR-V constants (16, 32 or 64 bits wide). */
#ifndef VKPPU_SPIRV_FLOAT_H
#define VKPPU_SPIRV_FLOAT_H

#include <stdint.h>

double spirv_float_to_double(uint64_t bits, uint32_t width);
uint64_t spirv_float_from_double(double value, uint32_t width);

#endif
