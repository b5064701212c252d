/* A reader for the scenes in ../shared/scenes (their README gives the
 * format): Wavefront OBJ with only `v x y z` and `f a b c` lines (1-based,
 * triangles), plain or gzip-compressed (.obj.gz, when built with zlib:
 * OBJ_READER_HAVE_ZLIB). Other lines are skipped; polygons with more than
 * three corners are fan-triangulated and negative (relative) indices are
 * accepted, so ordinary OBJ files read too. Shared by the BVH tests and
 * benchmark; samples can link the same file. */
#ifndef VKPPU_OBJ_READER_H
#define VKPPU_OBJ_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct obj_mesh {
   float *positions; /* 3 per vertex */
   uint32_t vertex_count;
   uint32_t *indices; /* 3 per triangle, 0-based */
   uint32_t triangle_count;
};

/* false with a message in err (err_size bytes) when the file cannot be read
 * or an index is out of range. */
bool obj_read(const char *path, struct obj_mesh *mesh, char *err, size_t err_size);
void obj_free(struct obj_mesh *mesh);
/* 9 floats per triangle (v0, v1, v2), malloc'ed; NULL when out of memory. */
float *obj_triangle_soup(const struct obj_mesh *mesh);

#endif
