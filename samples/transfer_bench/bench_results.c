#include "bench_results.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Throughputs use GB = 10^9 bytes, the unit memory bandwidth is quoted in. */
#define BYTES_PER_GB 1e9

const struct bench_metric_def bench_metric_defs[BENCH_METRIC_COUNT] = {
    [BENCH_METRIC_GPU_THROUGHPUT] = {"gpu_throughput", "GB/s",
                                     "size / median time between GPU timestamps written before and "
                                     "after the command(s)"},
    [BENCH_METRIC_HOST_THROUGHPUT] = {"host_throughput", "GB/s",
                                      "size / median host time from vkQueueSubmit to "
                                      "vkWaitForFences returning"},
    [BENCH_METRIC_CPU_THROUGHPUT] = {"cpu_throughput", "GB/s",
                                     "size / median time of one memcpy (copy, update) or memset "
                                     "(fill) of that size on this machine's CPU"},
    [BENCH_METRIC_RATIO_TO_CPU] = {"ratio_to_cpu", "x",
                                   "gpu_throughput (host_throughput when the queue has no "
                                   "timestamps) / cpu_throughput"},
    [BENCH_METRIC_RECORD_RATE] =
        {"record_rate", "commands/s",
         "commands / median host time to begin, record and end the command "
         "buffers holding them (not executed)"},
    [BENCH_METRIC_RECORD_TIME] = {"record_time_per_command", "ns",
                                  "the same median time divided by the number of commands"},
    [BENCH_METRIC_LATENCY_MEDIAN] = {"submit_latency_median", "us",
                                     "median host time from vkQueueSubmit of one tiny fill to "
                                     "vkWaitForFences returning"},
    [BENCH_METRIC_LATENCY_P99] = {"submit_latency_p99", "us",
                                  "99th percentile (nearest rank) of the same times"},
};

void results_init(struct bench_results *results, FILE *report)
{
   memset(results, 0, sizeof(*results));
   results->report = report;
}

void results_free(struct bench_results *results)
{
   free(results->rows);
   results->rows = NULL;
   results->count = results->capacity = 0;
}

static void store(struct bench_results *results, const char *operation, const char *memory,
                  uint64_t size_bytes, uint32_t repetitions, enum bench_metric metric, double value)
{
   if (results->count == results->capacity) {
      size_t capacity = results->capacity ? 2 * results->capacity : 64;
      struct bench_result *rows = realloc(results->rows, capacity * sizeof(*rows));
      if (!rows) {
         results->lost_rows = true;
         return;
      }
      results->rows = rows;
      results->capacity = capacity;
   }
   results->rows[results->count++] = (struct bench_result){
       .operation = operation,
       .memory = memory,
       .size_bytes = size_bytes,
       .repetitions = repetitions,
       .metric = metric,
       .value = value,
   };
}

void results_format_size(uint64_t bytes, char *text, size_t text_size)
{
   if (bytes >= (1u << 20) && bytes % (1u << 20) == 0)
      snprintf(text, text_size, "%llu MiB", (unsigned long long)(bytes >> 20));
   else if (bytes >= 1024 && bytes % 1024 == 0)
      snprintf(text, text_size, "%llu KiB", (unsigned long long)(bytes >> 10));
   else
      snprintf(text, text_size, "%llu B", (unsigned long long)bytes);
}

#define THROUGHPUT_ROW "%-9s %-13s %8s %10s %10s  %-7s %9s %8s\n"

void results_throughput_header(struct bench_results *results)
{
   fprintf(results->report, THROUGHPUT_ROW, "operation", "memory", "size", "GPU GB/s", "host GB/s",
           "CPU ref", "CPU GB/s", "GPU/CPU");
}

static double gigabytes_per_second(uint64_t bytes, double seconds)
{
   return (double)bytes / seconds / BYTES_PER_GB;
}

void results_add_throughput(struct bench_results *results, const struct throughput_sample *sample)
{
   char size[32], gpu[32] = "-", host[32] = "-", cpu[32] = "-", ratio[32] = "-";
   results_format_size(sample->size_bytes, size, sizeof(size));
   const char *op = sample->operation, *memory = sample->memory;
   uint64_t bytes = sample->size_bytes;
   uint32_t runs = sample->runs;

   /* A time of zero (a timer too coarse for the size) has no finite rate, so
    * it is printed as "-" and left out of the CSV like a missing timer. */
   double gpu_rate = -1.0, host_rate = -1.0, cpu_rate = -1.0;
   if (sample->gpu_seconds > 0.0) {
      gpu_rate = gigabytes_per_second(bytes, sample->gpu_seconds);
      snprintf(gpu, sizeof(gpu), "%.3f", gpu_rate);
      store(results, op, memory, bytes, runs, BENCH_METRIC_GPU_THROUGHPUT, gpu_rate);
   }
   if (sample->host_seconds > 0.0) {
      host_rate = gigabytes_per_second(bytes, sample->host_seconds);
      snprintf(host, sizeof(host), "%.3f", host_rate);
      store(results, op, memory, bytes, runs, BENCH_METRIC_HOST_THROUGHPUT, host_rate);
   }
   if (sample->cpu_seconds > 0.0) {
      cpu_rate = gigabytes_per_second(bytes, sample->cpu_seconds);
      snprintf(cpu, sizeof(cpu), "%.3f", cpu_rate);
      store(results, op, memory, bytes, runs, BENCH_METRIC_CPU_THROUGHPUT, cpu_rate);
   }
   double device_rate = gpu_rate > 0.0 ? gpu_rate : host_rate;
   if (device_rate > 0.0 && cpu_rate > 0.0) {
      snprintf(ratio, sizeof(ratio), "%.3f", device_rate / cpu_rate);
      store(results, op, memory, bytes, runs, BENCH_METRIC_RATIO_TO_CPU, device_rate / cpu_rate);
   }
   fprintf(results->report, THROUGHPUT_ROW, op, memory, size, gpu, host, sample->cpu_reference, cpu,
           ratio);
}

void results_throughput_skipped(struct bench_results *results, const char *operation,
                                const char *memory, uint64_t size_bytes, const char *reason)
{
   char size[32];
   results_format_size(size_bytes, size, sizeof(size));
   fprintf(results->report, "%-9s %-13s %8s  skipped: %s\n", operation, memory, size, reason);
}

#define RECORD_ROW "%-17s %10s %10s %14s %12s\n"

void results_record_header(struct bench_results *results)
{
   fprintf(results->report, RECORD_ROW, "recording", "commands", "bytes/cmd", "commands/s",
           "ns/command");
}

void results_add_record(struct bench_results *results, const char *operation,
                        uint64_t command_bytes, uint32_t commands, uint32_t runs,
                        double median_seconds)
{
   char count[32], bytes[32], rate[32] = "-", per_command[32] = "-";
   snprintf(count, sizeof(count), "%u", commands);
   snprintf(bytes, sizeof(bytes), "%llu", (unsigned long long)command_bytes);
   if (median_seconds > 0.0) {
      double commands_per_second = (double)commands / median_seconds;
      double ns_per_command = median_seconds * 1e9 / (double)commands;
      snprintf(rate, sizeof(rate), "%.0f", commands_per_second);
      snprintf(per_command, sizeof(per_command), "%.1f", ns_per_command);
      store(results, operation, "", command_bytes, runs, BENCH_METRIC_RECORD_RATE,
            commands_per_second);
      store(results, operation, "", command_bytes, runs, BENCH_METRIC_RECORD_TIME, ns_per_command);
   }
   fprintf(results->report, RECORD_ROW, operation, count, bytes, rate, per_command);
}

#define LATENCY_ROW "%-17s %-13s %8s %10s %10s %10s\n"

void results_latency_header(struct bench_results *results)
{
   fprintf(results->report, LATENCY_ROW, "submit->signal", "memory", "size", "submits", "median us",
           "p99 us");
}

void results_add_latency(struct bench_results *results, const char *operation, const char *memory,
                         uint64_t size_bytes, uint32_t submits, double median_seconds,
                         double p99_seconds)
{
   char size[32], count[32], median[32], p99[32];
   results_format_size(size_bytes, size, sizeof(size));
   snprintf(count, sizeof(count), "%u", submits);
   snprintf(median, sizeof(median), "%.1f", median_seconds * 1e6);
   snprintf(p99, sizeof(p99), "%.1f", p99_seconds * 1e6);
   store(results, operation, memory, size_bytes, submits, BENCH_METRIC_LATENCY_MEDIAN,
         median_seconds * 1e6);
   store(results, operation, memory, size_bytes, submits, BENCH_METRIC_LATENCY_P99,
         p99_seconds * 1e6);
   fprintf(results->report, LATENCY_ROW, operation, memory, size, count, median, p99);
}

void results_print_legend(const struct bench_results *results)
{
   fprintf(results->report, "metrics (CSV name [unit]: meaning):\n");
   for (int i = 0; i < BENCH_METRIC_COUNT; i++) {
      fprintf(results->report, "  %s [%s]: %s\n", bench_metric_defs[i].name,
              bench_metric_defs[i].unit, bench_metric_defs[i].description);
   }
}

bool results_write_csv(const struct bench_results *results, const char *path)
{
   FILE *csv = fopen(path, "w");
   if (!csv) {
      fprintf(stderr, "transfer_bench: cannot write %s: %s\n", path, strerror(errno));
      return false;
   }
   fprintf(csv, "operation,memory,size_bytes,repetitions,metric,value,unit\n");
   for (size_t i = 0; i < results->count; i++) {
      const struct bench_result *row = &results->rows[i];
      const struct bench_metric_def *def = &bench_metric_defs[row->metric];
      fprintf(csv, "%s,%s,%llu,%u,%s,%.6g,%s\n", row->operation, row->memory,
              (unsigned long long)row->size_bytes, row->repetitions, def->name, row->value,
              def->unit);
   }
   bool ok = !ferror(csv);
   if (fclose(csv) != 0)
      ok = false;
   if (!ok)
      fprintf(stderr, "transfer_bench: writing %s failed\n", path);
   if (results->lost_rows)
      fprintf(stderr, "transfer_bench: %s is missing rows (out of host memory)\n", path);
   return ok && !results->lost_rows;
}
