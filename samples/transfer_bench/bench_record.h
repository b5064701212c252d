/* Host-side cost of recording small transfer commands. */
#ifndef TRANSFER_BENCH_RECORD_H
#define TRANSFER_BENCH_RECORD_H

#include "bench_context.h"

/* Records options->record_commands small vkCmdCopyBuffer, then as many
 * vkCmdFillBuffer, into command buffers and reports commands per second. */
enum bench_status bench_record_run(struct bench_context *ctx);

#endif
