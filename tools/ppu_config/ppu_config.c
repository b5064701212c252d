/* ppu-config: what chip a hardware configuration describes.
 *
 *   ppu-config [PRESET|FILE][,KEY=VALUE...]
 *                              every key with its value, unit and whether it
 *                              is the default (no argument: $VKPPU_HW_CONFIG,
 *                              else the default chip); the output is itself
 *                              a valid configuration file
 *   ppu-config --doc           docs/hw-config.md
 *   ppu-config --preset NAME   the built-in preset's file, byte for byte
 *   ppu-config --list          the built-in presets
 *
 * Exit status 1 and the errors (file:line: what) on stderr when the
 * configuration is invalid, 2 on a usage error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ppu/hw_config.h"

static int usage(void)
{
   fprintf(stderr,
           "usage: ppu-config [PRESET|FILE][,KEY=VALUE...] | --doc | --preset NAME | --list\n");
   return 2;
}

static int print_text(char *text)
{
   if (!text) {
      fprintf(stderr, "ppu-config: out of memory\n");
      return 1;
   }
   fputs(text, stdout);
   free(text);
   return 0;
}

int main(int argc, char **argv)
{
   if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
      printf("usage: ppu-config [PRESET|FILE][,KEY=VALUE...] | --doc | --preset NAME | --list\n"
             "Checks a hardware configuration (VKPPU_HW_CONFIG's syntax) and prints it with\n"
             "every key; --doc prints the key reference (docs/hw-config.md), --preset a\n"
             "built-in preset's file, --list the presets. Exit 0 valid, 1 invalid, 2 usage.\n");
      return 0;
   }
   if (argc > 3)
      return usage();
   if (argc >= 2 && strcmp(argv[1], "--doc") == 0)
      return argc == 2 ? print_text(ppu_hw_config_doc_markdown()) : usage();
   if (argc >= 2 && strcmp(argv[1], "--list") == 0) {
      for (unsigned i = 0; i < ppu_hw_preset_count; i++)
         printf("%s\n", ppu_hw_presets[i].name);
      return argc == 2 ? 0 : usage();
   }
   if (argc >= 2 && strcmp(argv[1], "--preset") == 0) {
      const char *text = argc == 3 ? ppu_hw_config_preset_text(argv[2]) : NULL;
      if (!text) {
         fprintf(stderr, "ppu-config: no built-in preset '%s' (--list shows them)\n",
                 argc == 3 ? argv[2] : "");
         return argc == 3 ? 1 : usage();
      }
      fputs(text, stdout);
      return 0;
   }
   if (argc == 3 || (argc == 2 && argv[1][0] == '-'))
      return usage();

   const char *spec = argc == 2 ? argv[1] : getenv("VKPPU_HW_CONFIG");
   struct ppu_gpu_config cfg;
   char err[8192];
   if (spec && *spec) {
      if (ppu_hw_config_load(&cfg, spec, err, sizeof(err))) {
         fputs(err, stderr);
         return 1;
      }
   } else {
      ppu_gpu_config_default(&cfg);
      spec = "default";
   }
   return print_text(ppu_hw_config_format(&cfg, spec));
}
