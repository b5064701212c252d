/* Reading back what the driver writes to stderr: tests of device-lost and
 * shader-fault reports redirect fd 2 to a temporary file around the call
 * that provokes the report, then look for the facts the report must give. */
#ifndef STDERR_CAPTURE_H
#define STDERR_CAPTURE_H

#include <stdbool.h>

struct stderr_capture {
   int saved_fd;
   char path[64];
};

/* Redirects stderr (fd 2) to a new temporary file. */
bool stderr_capture_begin(struct stderr_capture *c);

/* Restores stderr, echoes what was captured (indented, so the test log shows
 * it) and returns it as a heap string the caller frees (NULL if out of
 * memory). */
char *stderr_capture_end(struct stderr_capture *c);

/* Whether `needle` occurs in `haystack`, ignoring case; false for NULL. */
bool text_contains_nocase(const char *haystack, const char *needle);

#endif
