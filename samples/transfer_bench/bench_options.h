/* What the command line asks transfer_bench to measure, and how much. */
#ifndef TRANSFER_BENCH_OPTIONS_H
#define TRANSFER_BENCH_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BENCH_MAX_SIZES 4

struct bench_options {
   bool quick;                    /* small sizes and few repetitions, for CI */
   bool validate;                 /* VK_LAYER_KHRONOS_validation + failing debug messenger */
   const char *csv_path;          /* NULL: no CSV */
   int device_index;              /* -1: first device with a usable queue family */
   uint32_t runs;                 /* timed repetitions behind every throughput median */
   size_t sizes[BENCH_MAX_SIZES]; /* bytes per copy/fill/update, each a multiple of 4 */
   size_t size_count;
   uint32_t record_commands; /* commands recorded per run of the recording benchmark */
   uint32_t latency_submits; /* submissions behind the latency median and p99 */
};

enum bench_options_outcome {
   BENCH_OPTIONS_RUN,
   BENCH_OPTIONS_HELP_SHOWN,
   BENCH_OPTIONS_INVALID,
};

enum bench_options_outcome bench_options_parse(int argc, char **argv, struct bench_options *out);

#endif
