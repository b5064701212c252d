/* See stderr_capture.h. */
#include "stderr_capture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CAPTURE_LIMIT 65536

bool stderr_capture_begin(struct stderr_capture *c)
{
   fflush(stderr);
   snprintf(c->path, sizeof(c->path), "/tmp/vkppu_stderr_XXXXXX");
   int fd = mkstemp(c->path);
   if (fd < 0)
      return false;
   c->saved_fd = dup(2);
   dup2(fd, 2);
   close(fd);
   return true;
}

char *stderr_capture_end(struct stderr_capture *c)
{
   fflush(stderr);
   dup2(c->saved_fd, 2);
   close(c->saved_fd);
   FILE *f = fopen(c->path, "rb");
   char *text = calloc(1, CAPTURE_LIMIT);
   if (f && text && fread(text, 1, CAPTURE_LIMIT - 1, f) == 0)
      text[0] = 0;
   if (f)
      fclose(f);
   unlink(c->path);
   if (text) {
      fprintf(stderr, "  captured stderr:\n");
      for (char *line = text, *end; line && *line; line = end ? end + 1 : NULL) {
         end = strchr(line, '\n');
         fprintf(stderr, "  | %.*s\n", end ? (int)(end - line) : (int)strlen(line), line);
      }
   }
   return text;
}

bool text_contains_nocase(const char *haystack, const char *needle)
{
   return haystack && strcasestr(haystack, needle) != NULL;
}
