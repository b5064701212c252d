/* See test_harness.h. */
#include "test_harness.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TEST_MAX_CASES 512

static struct {
   const char *name;
   test_fn fn;
} cases[TEST_MAX_CASES];
static int case_count;
static bool current_failed;

void test_register(const char *name, test_fn fn)
{
   if (case_count == TEST_MAX_CASES) {
      fprintf(stderr, "test harness: more than %d cases\n", TEST_MAX_CASES);
      exit(2);
   }
   cases[case_count].name = name;
   cases[case_count].fn = fn;
   case_count++;
}

void test_fail(const char *file, int line, const char *fmt, ...)
{
   va_list ap;
   fprintf(stderr, "  %s:%d: ", file, line);
   va_start(ap, fmt);
   vfprintf(stderr, fmt, ap);
   va_end(ap);
   fputc('\n', stderr);
   current_failed = true;
}

bool test_current_failed(void)
{
   return current_failed;
}

static double now_seconds(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int test_run_all(int argc, char **argv)
{
   const char *filter = argc > 1 ? argv[1] : NULL;
   int passed = 0, failed = 0;
   for (int i = 0; i < case_count; i++) {
      if (filter && !strstr(cases[i].name, filter))
         continue;
      current_failed = false;
      double t0 = now_seconds();
      cases[i].fn();
      double dt = now_seconds() - t0;
      printf("%s %s (%.3f s)\n", current_failed ? "FAIL" : "ok  ", cases[i].name, dt);
      fflush(stdout);
      if (current_failed)
         failed++;
      else
         passed++;
   }
   printf("%d passed, %d failed\n", passed, failed);
   return failed ? 1 : 0;
}
