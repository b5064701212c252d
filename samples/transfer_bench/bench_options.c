#include "bench_options.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KIB ((size_t)1024)
#define MIB (1024 * KIB)

static void print_usage(FILE *out, const char *program)
{
   fprintf(out,
           "usage: %s [--quick] [--validate] [--csv FILE] [--runs N] [--device N]\n"
           "\n"
           "Measures vkCmdCopyBuffer / vkCmdFillBuffer / vkCmdUpdateBuffer throughput,\n"
           "command recording rate and submit-to-fence latency on a Vulkan device.\n"
           "\n"
           "  --quick      64 KiB..1 MiB, 3 runs, 20000 recorded commands, 200 submits\n"
           "               (default: 1, 16, 64 MiB, 9 runs, 1000000 commands, 1000 submits)\n"
           "  --validate   enable VK_LAYER_KHRONOS_validation; any validation error\n"
           "               makes the exit status non-zero\n"
           "  --csv FILE   also write every figure to FILE as CSV\n"
           "  --runs N     timed repetitions behind each throughput median (1..1000)\n"
           "  --device N   use physical device N in enumeration order\n"
           "\n"
           "Exit status: 0 all checks passed, 1 a data check or validation failed,\n"
           "2 bad command line, 3 the device could not be set up or used.\n",
           program);
}

static bool parse_count(const char *text, long min, long max, long *out)
{
   char *end = NULL;
   errno = 0;
   long value = strtol(text, &end, 10);
   if (errno != 0 || end == text || *end != '\0' || value < min || value > max)
      return false;
   *out = value;
   return true;
}

static void set_defaults(struct bench_options *out, bool quick)
{
   out->quick = quick;
   if (quick) {
      /* Small enough that a software-modelled GPU finishes in a few seconds. */
      out->runs = 3;
      out->sizes[0] = 64 * KIB;
      out->sizes[1] = 256 * KIB;
      out->sizes[2] = 1 * MIB;
      out->size_count = 3;
      out->record_commands = 20000;
      out->latency_submits = 200;
   } else {
      out->runs = 9;
      out->sizes[0] = 1 * MIB;
      out->sizes[1] = 16 * MIB;
      out->sizes[2] = 64 * MIB;
      out->size_count = 3;
      out->record_commands = 1000000;
      out->latency_submits = 1000;
   }
}

enum bench_options_outcome bench_options_parse(int argc, char **argv, struct bench_options *out)
{
   enum { OPT_QUICK = 1, OPT_VALIDATE, OPT_CSV, OPT_RUNS, OPT_DEVICE, OPT_HELP };
   static const struct option long_options[] = {
       {"quick", no_argument, NULL, OPT_QUICK},
       {"validate", no_argument, NULL, OPT_VALIDATE},
       {"csv", required_argument, NULL, OPT_CSV},
       {"runs", required_argument, NULL, OPT_RUNS},
       {"device", required_argument, NULL, OPT_DEVICE},
       {"help", no_argument, NULL, OPT_HELP},
       {NULL, 0, NULL, 0},
   };
   const char *program = argc > 0 ? argv[0] : "transfer_bench";
   bool quick = false;
   bool validate = false;
   const char *csv_path = NULL;
   long runs = 0; /* 0: the mode's default */
   long device_index = -1;

   int opt;
   while ((opt = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
      switch (opt) {
      case OPT_QUICK:
         quick = true;
         break;
      case OPT_VALIDATE:
         validate = true;
         break;
      case OPT_CSV:
         csv_path = optarg;
         break;
      case OPT_RUNS:
         if (!parse_count(optarg, 1, 1000, &runs)) {
            fprintf(stderr, "%s: --runs wants a whole number from 1 to 1000, not '%s'\n", program,
                    optarg);
            return BENCH_OPTIONS_INVALID;
         }
         break;
      case OPT_DEVICE:
         if (!parse_count(optarg, 0, 1023, &device_index)) {
            fprintf(stderr, "%s: --device wants a device index, not '%s'\n", program, optarg);
            return BENCH_OPTIONS_INVALID;
         }
         break;
      case OPT_HELP:
         print_usage(stdout, program);
         return BENCH_OPTIONS_HELP_SHOWN;
      default:
         print_usage(stderr, program);
         return BENCH_OPTIONS_INVALID;
      }
   }
   if (optind < argc) {
      fprintf(stderr, "%s: unexpected argument '%s'\n", program, argv[optind]);
      print_usage(stderr, program);
      return BENCH_OPTIONS_INVALID;
   }

   memset(out, 0, sizeof(*out));
   set_defaults(out, quick);
   out->validate = validate;
   out->csv_path = csv_path;
   out->device_index = (int)device_index;
   if (runs > 0)
      out->runs = (uint32_t)runs;
   return BENCH_OPTIONS_RUN;
}
