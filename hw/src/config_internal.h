/* Shared by the configuration's parser and printer (hw/src/config*.c). */
#ifndef PPU_CONFIG_INTERNAL_H
#define PPU_CONFIG_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "ppu/hw_config.h"

/* Writes a value already checked against the key's range. */
void ppu_hw_config_set(struct ppu_gpu_config *cfg, const struct ppu_hw_config_key *k, uint64_t v,
                       double f);

/* A growing text buffer; `failed` once an allocation failed. */
struct ppu_strbuf {
   char *text;
   size_t len, cap;
   bool failed;
};
void ppu_strbuf_printf(struct ppu_strbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The text (caller frees), or NULL after a failed allocation. */
char *ppu_strbuf_finish(struct ppu_strbuf *b);

/* A value as the file writes it: "48 KiB", "1.545 GHz", "functional";
 * sizes always carry their unit, other numbers only when with_unit. */
void ppu_hw_config_format_value(char *buf, size_t size, const struct ppu_hw_config_key *k,
                                uint64_t v, double f, bool with_unit);

#endif /* PPU_CONFIG_INTERNAL_H */
