/* See obj_reader.h. */
#include "obj_reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef OBJ_READER_HAVE_ZLIB
#include <zlib.h>
/* gzopen reads uncompressed files transparently, so one path serves both. */
typedef gzFile obj_file;
#define obj_open(path) gzopen(path, "rb")
#define obj_gets(f, buf, n) gzgets(f, buf, n)
#define obj_close(f) gzclose(f)
#else
typedef FILE *obj_file;
#define obj_open(path) fopen(path, "rb")
#define obj_gets(f, buf, n) fgets(buf, n, f)
#define obj_close(f) fclose(f)
#endif

struct growable {
   void *data;
   size_t count, capacity, elem;
};

static bool grow_push(struct growable *g, const void *items, size_t n)
{
   if (g->count + n > g->capacity) {
      size_t cap = g->capacity ? g->capacity * 2 : 1024;
      while (cap < g->count + n)
         cap *= 2;
      void *p = realloc(g->data, cap * g->elem);
      if (!p)
         return false;
      g->data = p;
      g->capacity = cap;
   }
   memcpy((char *)g->data + g->count * g->elem, items, n * g->elem);
   g->count += n;
   return true;
}

/* A face corner "a", "a/b", "a//c" or "a/b/c": the position index. */
static bool parse_corner(char **s, long vertex_count, uint32_t *out)
{
   char *end;
   long i = strtol(*s, &end, 10);
   if (end == *s)
      return false;
   while (*end && *end != ' ' && *end != '\t' && *end != '\r' && *end != '\n')
      end++;
   *s = end;
   if (i < 0)
      i = vertex_count + i + 1;
   if (i < 1 || i > vertex_count)
      return false;
   *out = (uint32_t)(i - 1);
   return true;
}

bool obj_read(const char *path, struct obj_mesh *mesh, char *err, size_t err_size)
{
   memset(mesh, 0, sizeof(*mesh));
   if (err_size)
      err[0] = '\0';
   obj_file f = obj_open(path);
   if (!f) {
      snprintf(err, err_size, "%s: cannot open", path);
      return false;
   }
   struct growable pos = {.elem = sizeof(float)}, idx = {.elem = sizeof(uint32_t)};
   char line[4096];
   unsigned long line_no = 0;
   bool ok = true;
   while (ok && obj_gets(f, line, sizeof(line))) {
      line_no++;
      char *s = line;
      while (*s == ' ' || *s == '\t')
         s++;
      if (s[0] == 'v' && (s[1] == ' ' || s[1] == '\t')) {
         float v[3];
         char *p = s + 1;
         for (int a = 0; a < 3; a++)
            v[a] = strtof(p, &p);
         ok = grow_push(&pos, v, 3);
      } else if (s[0] == 'f' && (s[1] == ' ' || s[1] == '\t')) {
         char *p = s + 1;
         uint32_t first = 0, prev = 0, cur = 0;
         long vcount = (long)(pos.count / 3);
         int corners = 0;
         while (ok) {
            while (*p == ' ' || *p == '\t')
               p++;
            if (!*p || *p == '\r' || *p == '\n')
               break;
            if (!parse_corner(&p, vcount, &cur)) {
               snprintf(err, err_size, "%s:%lu: bad face index", path, line_no);
               ok = false;
               break;
            }
            if (corners == 0)
               first = cur;
            else if (corners >= 2) {
               uint32_t tri[3] = {first, prev, cur};
               ok = grow_push(&idx, tri, 3);
            }
            prev = cur;
            corners++;
         }
      }
   }
   obj_close(f);
   if (!ok) {
      if (err_size && !err[0])
         snprintf(err, err_size, "%s: out of memory", path);
      free(pos.data);
      free(idx.data);
      return false;
   }
   mesh->positions = pos.data;
   mesh->vertex_count = (uint32_t)(pos.count / 3);
   mesh->indices = idx.data;
   mesh->triangle_count = (uint32_t)(idx.count / 3);
   return true;
}

void obj_free(struct obj_mesh *mesh)
{
   free(mesh->positions);
   free(mesh->indices);
   memset(mesh, 0, sizeof(*mesh));
}

float *obj_triangle_soup(const struct obj_mesh *mesh)
{
   float *soup = malloc(sizeof(float) * 9 * ((size_t)mesh->triangle_count + 1));
   if (!soup)
      return NULL;
   for (size_t t = 0; t < mesh->triangle_count; t++)
      for (int k = 0; k < 3; k++)
         memcpy(&soup[9 * t + 3 * k], &mesh->positions[3 * (size_t)mesh->indices[3 * t + k]],
                sizeof(float) * 3);
   return soup;
}
