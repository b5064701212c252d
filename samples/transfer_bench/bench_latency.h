/* How long the smallest possible piece of GPU work takes, seen from the host. */
#ifndef TRANSFER_BENCH_LATENCY_H
#define TRANSFER_BENCH_LATENCY_H

#include "bench_context.h"

/* Submits one tiny fill options->latency_submits times, each timed from
 * vkQueueSubmit to vkWaitForFences returning; reports median and p99. */
enum bench_status bench_latency_run(struct bench_context *ctx);

#endif
