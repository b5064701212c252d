/* ppu-disasm: prints the disassembly of a binary blob of PPU instructions
 * (128-bit each, little-endian), e.g. a program dumped from GPU memory.
 *
 *   ppu-disasm FILE [OFFSET]     OFFSET in bytes (default 0), 16-aligned
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ppu/isa.h"

int main(int argc, char **argv)
{
   if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
      printf("usage: %s FILE [OFFSET]\n"
             "Prints the disassembly of FILE, a blob of PPU instructions (128 bits each,\n"
             "little-endian), from byte OFFSET (default 0, a multiple of 16). The ISA is\n"
             "docs/isa.md.\n",
             argv[0]);
      return 0;
   }
   if (argc < 2 || argc > 3) {
      fprintf(stderr, "usage: %s FILE [OFFSET]\n", argv[0]);
      return 2;
   }
   FILE *f = fopen(argv[1], "rb");
   if (!f) {
      perror(argv[1]);
      return 1;
   }
   long offset = argc == 3 ? strtol(argv[2], NULL, 0) : 0;
   if (offset < 0 || offset % PPU_INSN_BYTES || fseek(f, offset, SEEK_SET)) {
      fprintf(stderr, "%s: bad offset %ld\n", argv[0], offset);
      fclose(f);
      return 2;
   }
   uint32_t words[PPU_INSN_WORDS];
   long pc = offset;
   char line[256];
   while (fread(words, sizeof(words), 1, f) == 1) {
      ppu_disasm_insn(words, line, sizeof(line));
      printf("  0x%06lx:  %s\n", pc, line);
      pc += PPU_INSN_BYTES;
   }
   fclose(f);
   return 0;
}
