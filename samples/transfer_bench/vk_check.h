/* Turning a VkResult into a readable report at the one place that sees it. */
#ifndef TRANSFER_BENCH_VK_CHECK_H
#define TRANSFER_BENCH_VK_CHECK_H

#include <stdbool.h>

#include <volk.h>

const char *vk_result_name(VkResult result);

/* True when `result` is not VK_SUCCESS, after printing which call returned
 * what. VK_TIMEOUT and VK_NOT_READY count as failures: every wait in this
 * program expects its work to finish. */
bool vk_failed(VkResult result, const char *call);

/* Out-of-memory results mean "this size does not fit on this device", which
 * the benchmarks report as a skipped row rather than as a failure. */
bool vk_is_out_of_memory(VkResult result);

#endif
