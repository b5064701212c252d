#include "obj_mesh.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* Long enough for any line the scenes have (about 40 characters) and for
 * polygons with a few hundred corners; longer lines are reported, not cut. */
#define LINE_MAX_CHARS 8192

struct obj_reader {
   const char *path;
   unsigned long line;
   char *error;
   size_t error_size;
   struct obj_mesh *mesh;
   size_t position_capacity; /* floats */
   size_t index_capacity;    /* uint32s */
};

static bool fail(struct obj_reader *rd, const char *fmt, ...)
{
   int n = rd->line ? snprintf(rd->error, rd->error_size, "%s:%lu: ", rd->path, rd->line)
                    : snprintf(rd->error, rd->error_size, "%s: ", rd->path);
   if (n >= 0 && (size_t)n < rd->error_size) {
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(rd->error + n, rd->error_size - (size_t)n, fmt, ap);
      va_end(ap);
   }
   return false;
}

static bool is_space(char c)
{
   return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static const char *skip_space(const char *s)
{
   while (is_space(*s))
      s++;
   return s;
}

static bool token_end(char c)
{
   return c == '\0' || is_space(c);
}

/* Grows *array (of element_size bytes) so that it holds at least need
 * elements. Doubling keeps the 57 MB kitchen scene to a few reallocs. */
static bool reserve(void **array, size_t *capacity, size_t need, size_t element_size)
{
   if (need <= *capacity)
      return true;
   size_t cap = *capacity ? *capacity : 1024;
   while (cap < need)
      cap *= 2;
   if (cap > SIZE_MAX / element_size)
      return false;
   void *grown = realloc(*array, cap * element_size);
   if (!grown)
      return false;
   *array = grown;
   *capacity = cap;
   return true;
}

static bool parse_vertex(struct obj_reader *rd, const char *s)
{
   struct obj_mesh *m = rd->mesh;
   if (m->vertex_count == UINT32_MAX)
      return fail(rd, "more than %u vertices", UINT32_MAX - 1);
   float xyz[3];
   int count = 0;
   for (s = skip_space(s); *s; s = skip_space(s)) {
      char *end = NULL;
      errno = 0;
      double v = strtod(s, &end);
      if (end == s || !token_end(*end))
         return fail(rd, "'v': expected a number, found '%.*s'", (int)strcspn(s, " \t\r"), s);
      /* Past float range would turn into infinity on the GPU. */
      if (!isfinite(v) || fabs(v) > 3.0e38 || errno == ERANGE)
         return fail(rd, "'v': coordinate %.*s is not a finite float", (int)(end - s), s);
      /* A 4th (w) or more (vertex colours) are allowed and ignored. */
      if (count < 3)
         xyz[count] = (float)v;
      count++;
      s = end;
   }
   if (count < 3)
      return fail(rd, "'v' needs 3 coordinates, found %d", count);
   size_t need = ((size_t)m->vertex_count + 1) * 3;
   if (!reserve((void **)&m->positions, &rd->position_capacity, need, sizeof(float)))
      return fail(rd, "out of memory for %u vertices", m->vertex_count + 1);
   memcpy(m->positions + (size_t)m->vertex_count * 3, xyz, sizeof(xyz));
   m->vertex_count++;
   return true;
}

/* Reads one face corner, "i", "i/t", "i//n" or "i/t/n", into a 0-based
 * position index. OBJ indices refer to vertices already read: positive ones
 * count from 1, negative ones back from the last. */
static bool parse_corner(struct obj_reader *rd, const char **sp, uint32_t *index)
{
   const char *s = *sp;
   char *end = NULL;
   errno = 0;
   long long i = strtoll(s, &end, 10);
   if (end == s || (!token_end(*end) && *end != '/'))
      return fail(rd, "'f': expected a vertex index, found '%.*s'", (int)strcspn(s, " \t\r"), s);
   uint32_t n = rd->mesh->vertex_count;
   if (errno == ERANGE || i == 0 || (i > 0 && i > (long long)n) || (i < 0 && -i > (long long)n))
      return fail(rd, "'f': vertex index %.*s out of range (%u vertices so far)", (int)(end - s), s,
                  n);
   *index = i > 0 ? (uint32_t)(i - 1) : (uint32_t)((long long)n + i);
   while (!token_end(*end)) /* texture and normal indices: not needed */
      end++;
   *sp = end;
   return true;
}

static bool parse_face(struct obj_reader *rd, const char *s)
{
   struct obj_mesh *m = rd->mesh;
   uint32_t first = 0, previous = 0, corner = 0;
   int corners = 0;
   for (s = skip_space(s); *s; s = skip_space(s)) {
      if (!parse_corner(rd, &s, &corner))
         return false;
      /* Fan triangulation, as the scenes' converter did for polygons. */
      if (corners >= 2) {
         if (m->triangle_count >= UINT32_MAX / 3)
            return fail(rd, "more than %u triangles", UINT32_MAX / 3);
         size_t need = ((size_t)m->triangle_count + 1) * 3;
         if (!reserve((void **)&m->indices, &rd->index_capacity, need, sizeof(uint32_t)))
            return fail(rd, "out of memory for %u triangles", m->triangle_count + 1);
         uint32_t *tri = m->indices + (size_t)m->triangle_count * 3;
         tri[0] = first;
         tri[1] = previous;
         tri[2] = corner;
         m->triangle_count++;
      }
      if (corners == 0)
         first = corner;
      previous = corner;
      corners++;
   }
   if (corners < 3)
      return fail(rd, "'f' needs at least 3 vertices, found %d", corners);
   return true;
}

/* Statements that carry no positions or triangles. */
static bool skipped_statement(const char *word, size_t len)
{
   static const char *const skipped[] = {"vt", "vn", "vp", "o", "g", "s", "usemtl", "mtllib", "l"};
   for (size_t i = 0; i < sizeof(skipped) / sizeof(skipped[0]); i++) {
      if (strlen(skipped[i]) == len && !strncmp(word, skipped[i], len))
         return true;
   }
   return false;
}

static bool parse_line(struct obj_reader *rd, const char *s)
{
   s = skip_space(s);
   if (*s == '\0' || *s == '#')
      return true;
   size_t len = 0;
   while (!token_end(s[len]))
      len++;
   if (len == 1 && s[0] == 'v')
      return parse_vertex(rd, s + 1);
   if (len == 1 && s[0] == 'f')
      return parse_face(rd, s + 1);
   if (skipped_statement(s, len))
      return true;
   return fail(rd, "unsupported statement '%.*s' (read are v, f and #)", (int)(len > 32 ? 32 : len),
               s);
}

static void compute_bounds(struct obj_mesh *m)
{
   for (int a = 0; a < 3; a++) {
      m->bounds_min[a] = m->vertex_count ? INFINITY : 0.0f;
      m->bounds_max[a] = m->vertex_count ? -INFINITY : 0.0f;
   }
   for (size_t v = 0; v < m->vertex_count; v++) {
      for (int a = 0; a < 3; a++) {
         float c = m->positions[v * 3 + a];
         m->bounds_min[a] = c < m->bounds_min[a] ? c : m->bounds_min[a];
         m->bounds_max[a] = c > m->bounds_max[a] ? c : m->bounds_max[a];
      }
   }
}

static bool read_lines(struct obj_reader *rd, gzFile f)
{
   char *line = malloc(LINE_MAX_CHARS);
   if (!line)
      return fail(rd, "out of memory");
   bool ok = true;
   while (ok && gzgets(f, line, LINE_MAX_CHARS)) {
      rd->line++;
      size_t len = strlen(line);
      if (len > 0 && line[len - 1] == '\n') {
         line[len - 1] = '\0';
      } else if (!gzeof(f)) {
         /* gzgets stopped at the buffer's end, or a NUL byte (binary input)
          * hides where it stopped: either way not a line we can read. */
         ok = fail(rd, "line longer than %d characters, or a NUL byte in it", LINE_MAX_CHARS - 2);
         break;
      }
      ok = parse_line(rd, line);
   }
   int errnum = Z_OK;
   const char *message = gzerror(f, &errnum);
   if (ok && errnum != Z_OK && errnum != Z_STREAM_END)
      ok = fail(rd, "read error after line %lu: %s", rd->line,
                errnum == Z_ERRNO ? strerror(errno) : message);
   free(line);
   return ok;
}

bool obj_mesh_load(const char *path, struct obj_mesh *mesh, char *error, size_t error_size)
{
   memset(mesh, 0, sizeof(*mesh));
   struct obj_reader rd = {path, 0, error, error_size, mesh, 0, 0};
   if (error_size)
      error[0] = '\0';
   errno = 0;
   gzFile f = gzopen(path, "rb");
   if (!f)
      return fail(&rd, "cannot open: %s", errno ? strerror(errno) : "out of memory");
   bool ok = read_lines(&rd, f);
   gzclose(f);
   rd.line = 0; /* what follows is about the whole file */
   if (ok && mesh->triangle_count == 0)
      ok = fail(&rd, "no triangles ('f' lines)");
   if (!ok) {
      obj_mesh_free(mesh);
      return false;
   }
   compute_bounds(mesh);
   return true;
}

void obj_mesh_free(struct obj_mesh *mesh)
{
   free(mesh->positions);
   free(mesh->indices);
   memset(mesh, 0, sizeof(*mesh));
}

float *obj_mesh_triangle_soup(const struct obj_mesh *mesh)
{
   float *soup = malloc((size_t)mesh->triangle_count * 9 * sizeof(float));
   if (!soup)
      return NULL;
   for (size_t t = 0; t < mesh->triangle_count; t++) {
      for (unsigned c = 0; c < 3; c++)
         memcpy(&soup[9 * t + 3 * c], &mesh->positions[3 * (size_t)mesh->indices[3 * t + c]],
                3 * sizeof(float));
   }
   return soup;
}

float obj_mesh_diagonal(const struct obj_mesh *mesh)
{
   float d[3];
   for (int a = 0; a < 3; a++)
      d[a] = mesh->bounds_max[a] - mesh->bounds_min[a];
   return sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}
