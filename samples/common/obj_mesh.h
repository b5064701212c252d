/* Triangle meshes from Wavefront OBJ files, the subset the shared scenes use
 * (../shared/scenes/README.md): `v x y z`, `f a b c` with 1-based indices and
 * `#` comments. A little more is accepted so that other meshes load too:
 * polygons (fan-triangulated), `a/t/n` vertex references (the position
 * index is kept), negative (relative) indices, and vt/vn/o/g/s/usemtl/mtllib
 * lines, which are skipped. Files may be gzip-compressed: zlib's gzopen reads
 * plain and compressed files alike. */
#ifndef OBJ_MESH_H
#define OBJ_MESH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct obj_mesh {
   float *positions;  /* x, y, z per vertex */
   uint32_t *indices; /* three 0-based vertex indices per triangle */
   uint32_t vertex_count;
   uint32_t triangle_count;
   float bounds_min[3]; /* over all vertices */
   float bounds_max[3];
};

/* Loads path into *mesh. On failure returns false, leaves *mesh empty and
 * writes "path:line: what" (or "path: what") to error. A file without a
 * single triangle is a failure: no caller can draw it. */
bool obj_mesh_load(const char *path, struct obj_mesh *mesh, char *error, size_t error_size);

void obj_mesh_free(struct obj_mesh *mesh);

/* The triangles as 9 floats each (v0, v1, v2), malloc'ed; NULL when out of
 * memory. What a builder or a brute-force reference wants. */
float *obj_mesh_triangle_soup(const struct obj_mesh *mesh);

/* Length of the bounding box diagonal. */
float obj_mesh_diagonal(const struct obj_mesh *mesh);

#endif
