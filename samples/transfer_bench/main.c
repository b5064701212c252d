/* transfer_bench: how fast a Vulkan device copies, fills and updates buffers,
 * records transfer commands and turns a submission around, next to what this
 * machine's CPU does with memcpy/memset. Every figure comes from data that
 * was checked. Plain Vulkan 1.0 through volk; runs on any driver. */
#include <stdio.h>
#include <stdlib.h>

#include "bench_context.h"
#include "bench_device.h"
#include "bench_instance.h"
#include "bench_latency.h"
#include "bench_options.h"
#include "bench_record.h"
#include "bench_results.h"
#include "bench_throughput.h"
#include "gpu_buffer.h"

enum exit_status {
   EXIT_ALL_CHECKS_PASSED = 0,
   EXIT_CHECK_FAILED = 1, /* wrong data, or a validation error */
   EXIT_USAGE = 2,
   EXIT_DEVICE_FAILED = 3,
};

static void print_header(const struct bench_options *options, const struct bench_instance *instance,
                         const struct bench_device *dev)
{
   printf("transfer_bench: %s mode, medians of %u runs\n", options->quick ? "quick" : "full",
          options->runs);
   bench_device_print(dev, stdout);
   gpu_memory_print_choice(dev, stdout);
   if (instance->validation)
      printf("validation : on (figures include the validation layer's overhead)\n");
   printf("\n");
}

static enum bench_status run_benchmarks(struct bench_context *ctx)
{
   static const struct throughput_op *const throughput_ops[] = {
       &bench_copy_op,
       &bench_fill_op,
       &bench_update_op,
   };
   enum bench_status worst = BENCH_OK;
   results_throughput_header(ctx->results);
   for (size_t i = 0; i < sizeof(throughput_ops) / sizeof(throughput_ops[0]); i++) {
      worst = bench_status_worst(worst, bench_throughput_run(ctx, throughput_ops[i]));
      if (worst == BENCH_DEVICE_FAILED)
         return worst;
   }
   printf("\n");
   results_record_header(ctx->results);
   worst = bench_status_worst(worst, bench_record_run(ctx));
   if (worst == BENCH_DEVICE_FAILED)
      return worst;
   printf("\n");
   results_latency_header(ctx->results);
   worst = bench_status_worst(worst, bench_latency_run(ctx));
   return worst;
}

int main(int argc, char **argv)
{
   struct bench_options options;
   switch (bench_options_parse(argc, argv, &options)) {
   case BENCH_OPTIONS_RUN:
      break;
   case BENCH_OPTIONS_HELP_SHOWN:
      return EXIT_ALL_CHECKS_PASSED;
   case BENCH_OPTIONS_INVALID:
      return EXIT_USAGE;
   }

   /* Lives until main returns: the debug messenger points into it. */
   struct bench_instance instance;
   if (bench_instance_create(options.validate, &instance) != VK_SUCCESS)
      return EXIT_DEVICE_FAILED;
   struct bench_device dev;
   if (bench_device_create(&instance, options.device_index, &dev) != VK_SUCCESS) {
      bench_instance_destroy(&instance);
      return EXIT_DEVICE_FAILED;
   }
   print_header(&options, &instance, &dev);

   struct bench_results results;
   results_init(&results, stdout);
   struct bench_context ctx = {.options = &options, .dev = &dev, .results = &results};
   enum bench_status status = run_benchmarks(&ctx);
   printf("\n");
   results_print_legend(&results);

   bool csv_ok = true;
   if (options.csv_path) {
      csv_ok = results_write_csv(&results, options.csv_path);
      if (csv_ok)
         printf("\nwrote %zu figures to %s\n", results.count, options.csv_path);
   }
   results_free(&results);
   bench_device_destroy(&dev);
   bench_instance_destroy(&instance);

   /* Read after teardown, which the layer also checks. */
   unsigned validation_errors = atomic_load(&instance.error_messages);
   if (validation_errors > 0)
      fprintf(stderr,
              "transfer_bench: FAILED: %u error message(s) from the validation layer "
              "or loader\n",
              validation_errors);
   if (status == BENCH_CHECK_FAILED)
      fprintf(stderr, "transfer_bench: FAILED: a data check failed\n");
   if (status == BENCH_DEVICE_FAILED) {
      fprintf(stderr, "transfer_bench: FAILED: the device stopped working\n");
      return EXIT_DEVICE_FAILED;
   }
   if (status == BENCH_CHECK_FAILED || validation_errors > 0)
      return EXIT_CHECK_FAILED;
   if (!csv_ok)
      return EXIT_DEVICE_FAILED;
   return EXIT_ALL_CHECKS_PASSED;
}
