/* obj_mesh_test WORK_DIR [SCENES_DIR]: loads small OBJ files written into
 * WORK_DIR — good ones, compressed ones and malformed ones — and checks the
 * mesh or the located error message; then cornell_tiny from SCENES_DIR (the
 * README's counts and bounds) when that folder exists. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "obj_mesh.h"

static int failures;
static char work_dir[4096];

static const char *write_file(const char *name, const char *text, size_t len, bool gzip)
{
   static char path[4200];
   snprintf(path, sizeof(path), "%s/%s", work_dir, name);
   bool ok;
   if (gzip) {
      gzFile f = gzopen(path, "wb");
      ok = f && gzwrite(f, text, (unsigned)len) == (int)len;
      ok = f && gzclose(f) == Z_OK && ok;
   } else {
      FILE *f = fopen(path, "wb");
      ok = f && fwrite(text, 1, len, f) == len;
      ok = f && fclose(f) == 0 && ok;
   }
   if (!ok) {
      fprintf(stderr, "obj_mesh_test: cannot write %s\n", path);
      failures++;
   }
   return path;
}

static void expect_error(const char *name, const char *text, const char *want)
{
   const char *path = write_file(name, text, strlen(text), false);
   struct obj_mesh m;
   char error[512];
   if (obj_mesh_load(path, &m, error, sizeof(error))) {
      fprintf(stderr, "FAIL %s: loaded, expected an error containing '%s'\n", name, want);
      failures++;
      obj_mesh_free(&m);
   } else if (!strstr(error, want) || !strstr(error, name)) {
      fprintf(stderr, "FAIL %s: error '%s', expected '%s' and the file name\n", name, error, want);
      failures++;
   } else if (m.positions || m.indices || m.triangle_count) {
      fprintf(stderr, "FAIL %s: failed load left a non-empty mesh\n", name);
      failures++;
   }
}

static void expect_mesh(const char *name, const char *path, uint32_t vertices, uint32_t triangles,
                        const uint32_t *first_indices, size_t first_count)
{
   struct obj_mesh m;
   char error[512];
   if (!obj_mesh_load(path, &m, error, sizeof(error))) {
      fprintf(stderr, "FAIL %s: %s\n", name, error);
      failures++;
      return;
   }
   if (m.vertex_count != vertices || m.triangle_count != triangles) {
      fprintf(stderr, "FAIL %s: %u vertices, %u triangles; expected %u, %u\n", name, m.vertex_count,
              m.triangle_count, vertices, triangles);
      failures++;
   }
   for (size_t i = 0; i < first_count && i < (size_t)m.triangle_count * 3; i++) {
      if (m.indices[i] != first_indices[i]) {
         fprintf(stderr, "FAIL %s: index %zu is %u, expected %u\n", name, i, m.indices[i],
                 first_indices[i]);
         failures++;
      }
   }
   obj_mesh_free(&m);
}

static void good_files(void)
{
   static const char triangle[] = "# one triangle\nv 0 0 0\nv 1 0 0\n\nv 0 1 0\nf 1 2 3\n";
   static const uint32_t triangle_indices[] = {0, 1, 2};
   expect_mesh("triangle.obj", write_file("triangle.obj", triangle, strlen(triangle), false), 3, 1,
               triangle_indices, 3);
   /* gzopen reads a compressed file the same way. */
   expect_mesh("triangle.obj.gz", write_file("triangle.obj.gz", triangle, strlen(triangle), true),
               3, 1, triangle_indices, 3);

   /* A quad is fanned; v/t/n corners, relative indices, CRLF, skipped
    * statements and a last line without a newline. */
   static const char quad[] = "mtllib x.mtl\r\no quad\r\nv 0 0 0\r\nv 1 0 0 1\r\nv 1 1 0\r\n"
                              "v 0 1 0\r\nvt 0 0\r\nvn 0 0 1\r\ns off\r\nf 1/1/1 2//1 -2 -1";
   static const uint32_t quad_indices[] = {0, 1, 2, 0, 2, 3};
   expect_mesh("quad.obj", write_file("quad.obj", quad, strlen(quad), false), 4, 2, quad_indices,
               6);
}

static void bad_files(void)
{
   expect_error("short_v.obj", "v 1 2\n", "short_v.obj:1: 'v' needs 3 coordinates");
   expect_error("word_v.obj", "v 1 2 x\n", ":1: 'v': expected a number, found 'x'");
   expect_error("huge_v.obj", "v 1e39 0 0\n", "not a finite float");
   expect_error("nan_v.obj", "v nan 0 0\n", "not a finite float");
   expect_error("ahead.obj", "v 0 0 0\nv 1 0 0\nf 1 2 3\n", "ahead.obj:3: 'f': vertex index 3 out");
   expect_error("zero.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n", ":4: 'f': vertex index 0 out");
   expect_error("back.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf -4 1 2\n", "vertex index -4 out");
   expect_error("big.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 99999999999999999999\n",
                "out of range");
   expect_error("float_f.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1.5 2 3\n", "expected a vertex index");
   expect_error("line_f.obj", "v 0 0 0\nv 1 0 0\nf 1 2\n", "'f' needs at least 3 vertices");
   expect_error("statement.obj", "v 0 0 0\nvx 1\n", ":2: unsupported statement 'vx'");
   expect_error("empty.obj", "# nothing\n", "no triangles");
   expect_error("vertices.obj", "v 0 0 0\n", "no triangles");

   static char long_line[10000];
   memset(long_line, ' ', sizeof(long_line) - 1);
   long_line[0] = '#';
   expect_error("long.obj", long_line, ":1: line longer than");

   static const char binary[] = "v 0 0 0\n\0\x01\x02\xff garbage\nf 1 1 1\n";
   const char *path = write_file("binary.obj", binary, sizeof(binary) - 1, false);
   struct obj_mesh m;
   char error[512];
   if (obj_mesh_load(path, &m, error, sizeof(error))) {
      fprintf(stderr, "FAIL binary.obj: loaded\n");
      failures++;
      obj_mesh_free(&m);
   }

   /* A gzip stream cut short is a read error, not a shorter mesh. */
   static char many[20000];
   size_t len = 0;
   for (int i = 0; i < 500; i++)
      len += (size_t)snprintf(many + len, sizeof(many) - len, "v %d 0 0\n", i);
   len += (size_t)snprintf(many + len, sizeof(many) - len, "f 1 2 3\n");
   path = write_file("cut.obj.gz", many, len, true);
   FILE *f = fopen(path, "r+b");
   long size = f && fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
   if (f)
      fclose(f);
   if (size <= 40 || truncate(path, size / 2) != 0) {
      fprintf(stderr, "FAIL cut.obj.gz: cannot truncate\n");
      failures++;
   } else if (obj_mesh_load(path, &m, error, sizeof(error))) {
      fprintf(stderr, "FAIL cut.obj.gz: a truncated stream loaded\n");
      failures++;
      obj_mesh_free(&m);
   }

   path = write_file("missing.obj", "", 0, false);
   if (unlink(path) != 0 || obj_mesh_load(path, &m, error, sizeof(error)) ||
       !strstr(error, "cannot open")) {
      fprintf(stderr, "FAIL missing.obj: %s\n", error);
      failures++;
   }
}

static void cornell_tiny(const char *scenes_dir)
{
   char path[4200];
   snprintf(path, sizeof(path), "%s/cornell_tiny.obj", scenes_dir);
   struct stat st;
   if (stat(path, &st) != 0) {
      printf("obj_mesh_test: %s not found, scene check skipped\n", path);
      return;
   }
   struct obj_mesh m;
   char error[512];
   if (!obj_mesh_load(path, &m, error, sizeof(error))) {
      fprintf(stderr, "FAIL cornell_tiny: %s\n", error);
      failures++;
      return;
   }
   /* README: 30 triangles, 24 vertices, (-5, 0, -5) -> (5, 10, 5). */
   const float lo[3] = {-5, 0, -5}, hi[3] = {5, 10, 5};
   bool ok = m.vertex_count == 24 && m.triangle_count == 30;
   for (int a = 0; a < 3; a++)
      ok = ok && m.bounds_min[a] == lo[a] && m.bounds_max[a] == hi[a];
   if (!ok) {
      fprintf(stderr, "FAIL cornell_tiny: %u vertices, %u triangles, bounds differ or not\n",
              m.vertex_count, m.triangle_count);
      failures++;
   }
   obj_mesh_free(&m);
}

int main(int argc, char **argv)
{
   if (argc < 2) {
      fprintf(stderr, "usage: %s WORK_DIR [SCENES_DIR]\n", argv[0]);
      return 2;
   }
   snprintf(work_dir, sizeof(work_dir), "%s", argv[1]);
   if (mkdir(work_dir, 0755) != 0 && errno != EEXIST) {
      perror(work_dir);
      return 1;
   }
   good_files();
   bad_files();
   if (argc > 2)
      cornell_tiny(argv[2]);
   if (failures) {
      fprintf(stderr, "obj_mesh_test: %d failures\n", failures);
      return 1;
   }
   printf("obj_mesh_test: all passed\n");
   return 0;
}
