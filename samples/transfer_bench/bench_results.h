/* Every figure transfer_bench reports: the metric definitions (name, unit,
 * meaning) kept in one table, the printed report built from them, and the
 * CSV written from the same rows. */
#ifndef TRANSFER_BENCH_RESULTS_H
#define TRANSFER_BENCH_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum bench_metric {
   BENCH_METRIC_GPU_THROUGHPUT,
   BENCH_METRIC_HOST_THROUGHPUT,
   BENCH_METRIC_CPU_THROUGHPUT,
   BENCH_METRIC_RATIO_TO_CPU,
   BENCH_METRIC_RECORD_RATE,
   BENCH_METRIC_RECORD_TIME,
   BENCH_METRIC_LATENCY_MEDIAN,
   BENCH_METRIC_LATENCY_P99,
   BENCH_METRIC_COUNT
};

struct bench_metric_def {
   const char *name;        /* CSV "metric" column */
   const char *unit;        /* CSV "unit" column and printed table */
   const char *description; /* printed legend */
};

extern const struct bench_metric_def bench_metric_defs[BENCH_METRIC_COUNT];

struct bench_result {
   const char *operation; /* static strings only */
   const char *memory;
   uint64_t size_bytes;
   uint32_t repetitions;
   enum bench_metric metric;
   double value;
};

struct bench_results {
   struct bench_result *rows;
   size_t count;
   size_t capacity;
   bool lost_rows; /* a row could not be stored (host out of memory) */
   FILE *report;   /* where the human-readable table goes */
};

void results_init(struct bench_results *results, FILE *report);
void results_free(struct bench_results *results);

/* One throughput measurement: `size_bytes` moved per run, medians over
 * `runs` runs. gpu_seconds < 0: no timestamps; cpu_seconds < 0: no reference. */
struct throughput_sample {
   const char *operation;
   const char *memory;
   uint64_t size_bytes;
   uint32_t runs;
   double gpu_seconds;
   double host_seconds;
   const char *cpu_reference; /* "memcpy" or "memset" */
   double cpu_seconds;
};

void results_throughput_header(struct bench_results *results);
void results_add_throughput(struct bench_results *results, const struct throughput_sample *sample);
void results_throughput_skipped(struct bench_results *results, const char *operation,
                                const char *memory, uint64_t size_bytes, const char *reason);

void results_record_header(struct bench_results *results);
/* `commands` commands of `command_bytes` each, recorded in `median_seconds`. */
void results_add_record(struct bench_results *results, const char *operation,
                        uint64_t command_bytes, uint32_t commands, uint32_t runs,
                        double median_seconds);

void results_latency_header(struct bench_results *results);
void results_add_latency(struct bench_results *results, const char *operation, const char *memory,
                         uint64_t size_bytes, uint32_t submits, double median_seconds,
                         double p99_seconds);

/* The meaning of every metric, from bench_metric_defs. */
void results_print_legend(const struct bench_results *results);

/* One row per figure: operation,memory,size_bytes,repetitions,metric,value,unit. */
bool results_write_csv(const struct bench_results *results, const char *path);

/* "64 KiB", "16 MiB", "100 B": sizes as the report prints them. */
void results_format_size(uint64_t bytes, char *text, size_t text_size);

#endif
