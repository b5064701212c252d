/* A small test harness shared by every vkppu test program.
 *
 * A test program registers cases with TEST_CASE and runs them from main via
 * test_run_all(). Checks record a failure and go on (CHECK) or end the case
 * (REQUIRE). The program prints one line per case and, last, the closing line
 * "N passed, N failed" that CI reads, and exits non-zero when any case failed.
 */
#ifndef VKPPU_TEST_HARNESS_H
#define VKPPU_TEST_HARNESS_H

#include <stdbool.h>
#include <stdint.h>

typedef void (*test_fn)(void);

void test_register(const char *name, test_fn fn);
/* Runs the cases whose name contains filter (all when NULL or argv has none). */
int test_run_all(int argc, char **argv);
void test_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
bool test_current_failed(void);

#define TEST_CASE(name)                                                                            \
   static void name(void);                                                                         \
   __attribute__((constructor)) static void name##_register(void)                                  \
   {                                                                                               \
      test_register(#name, name);                                                                  \
   }                                                                                               \
   static void name(void)

#define CHECK(cond)                                                                                \
   do {                                                                                            \
      if (!(cond))                                                                                 \
         test_fail(__FILE__, __LINE__, "CHECK(%s)", #cond);                                        \
   } while (0)

#define CHECK_MSG(cond, ...)                                                                       \
   do {                                                                                            \
      if (!(cond))                                                                                 \
         test_fail(__FILE__, __LINE__, __VA_ARGS__);                                               \
   } while (0)

#define REQUIRE(cond)                                                                              \
   do {                                                                                            \
      if (!(cond)) {                                                                               \
         test_fail(__FILE__, __LINE__, "REQUIRE(%s)", #cond);                                      \
         return;                                                                                   \
      }                                                                                            \
   } while (0)

#define CHECK_EQ_U64(a, b)                                                                         \
   do {                                                                                            \
      uint64_t _a = (uint64_t)(a), _b = (uint64_t)(b);                                             \
      if (_a != _b)                                                                                \
         test_fail(__FILE__, __LINE__, "%s == %s: 0x%llx != 0x%llx", #a, #b,                       \
                   (unsigned long long)_a, (unsigned long long)_b);                                \
   } while (0)

#endif
