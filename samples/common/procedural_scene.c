/* See procedural_scene.h. */
#include "procedural_scene.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Subdivision levels of the icosphere: 20 * 4^3 = 1280 triangles, enough
 * curvature for AO to show shading without slowing a functional-mode run. */
#define SPHERE_LEVELS 3u

struct mesh_writer {
   struct obj_mesh *mesh;
   uint32_t vertex_capacity, triangle_capacity;
};

static bool add_vertex(struct mesh_writer *w, float x, float y, float z, uint32_t *index)
{
   struct obj_mesh *m = w->mesh;
   if (m->vertex_count == w->vertex_capacity) {
      uint32_t cap = w->vertex_capacity ? 2 * w->vertex_capacity : 256;
      float *p = realloc(m->positions, (size_t)cap * 3 * sizeof(float));
      if (!p)
         return false;
      m->positions = p;
      w->vertex_capacity = cap;
   }
   float *v = &m->positions[3 * (size_t)m->vertex_count];
   v[0] = x;
   v[1] = y;
   v[2] = z;
   *index = m->vertex_count++;
   return true;
}

static bool add_triangle(struct mesh_writer *w, uint32_t a, uint32_t b, uint32_t c)
{
   struct obj_mesh *m = w->mesh;
   if (m->triangle_count == w->triangle_capacity) {
      uint32_t cap = w->triangle_capacity ? 2 * w->triangle_capacity : 256;
      uint32_t *p = realloc(m->indices, (size_t)cap * 3 * sizeof(uint32_t));
      if (!p)
         return false;
      m->indices = p;
      w->triangle_capacity = cap;
   }
   uint32_t *t = &m->indices[3 * (size_t)m->triangle_count++];
   t[0] = a;
   t[1] = b;
   t[2] = c;
   return true;
}

/* A quad a-b-c-d (in order around its edge) as two triangles. */
static bool add_quad(struct mesh_writer *w, const float corners[4][3])
{
   uint32_t i[4];
   for (unsigned k = 0; k < 4; k++) {
      if (!add_vertex(w, corners[k][0], corners[k][1], corners[k][2], &i[k]))
         return false;
   }
   return add_triangle(w, i[0], i[1], i[2]) && add_triangle(w, i[0], i[2], i[3]);
}

static bool add_room(struct mesh_writer *w)
{
   static const float walls[5][4][3] = {
       {{-5, 0, -5}, {5, 0, -5}, {5, 0, 5}, {-5, 0, 5}},     /* floor */
       {{-5, 10, -5}, {-5, 10, 5}, {5, 10, 5}, {5, 10, -5}}, /* ceiling */
       {{-5, 0, -5}, {-5, 10, -5}, {5, 10, -5}, {5, 0, -5}}, /* back */
       {{-5, 0, -5}, {-5, 0, 5}, {-5, 10, 5}, {-5, 10, -5}}, /* left */
       {{5, 0, -5}, {5, 10, -5}, {5, 10, 5}, {5, 0, 5}},     /* right */
   };
   for (unsigned q = 0; q < 5; q++) {
      if (!add_quad(w, walls[q]))
         return false;
   }
   return true;
}

/* A closed box with 8 shared corners. */
static bool add_box(struct mesh_writer *w, const float lo[3], const float hi[3])
{
   uint32_t c[8];
   for (unsigned k = 0; k < 8; k++) {
      if (!add_vertex(w, k & 1 ? hi[0] : lo[0], k & 2 ? hi[1] : lo[1], k & 4 ? hi[2] : lo[2],
                      &c[k]))
         return false;
   }
   /* Faces as corner-bit quads, wound outwards. */
   static const uint8_t faces[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                                       {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
   for (unsigned f = 0; f < 6; f++) {
      const uint8_t *q = faces[f];
      if (!add_triangle(w, c[q[0]], c[q[1]], c[q[2]]) ||
          !add_triangle(w, c[q[0]], c[q[2]], c[q[3]]))
         return false;
   }
   return true;
}

/* Midpoint of edge (a, b) on the unit sphere, shared between the two
 * triangles of the edge through a small per-level table, so the mesh stays
 * closed (no T-junctions, no duplicated vertices). */
struct edge_midpoints {
   uint64_t *keys;
   uint32_t *values;
   uint32_t capacity;
};

static bool midpoint(struct mesh_writer *w, struct edge_midpoints *table, uint32_t a, uint32_t b,
                     const float center[3], float radius, uint32_t *out)
{
   uint64_t key = a < b ? (uint64_t)a << 32 | b : (uint64_t)b << 32 | a;
   uint32_t slot = (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 40) & (table->capacity - 1);
   while (table->keys[slot] != UINT64_MAX) {
      if (table->keys[slot] == key) {
         *out = table->values[slot];
         return true;
      }
      slot = (slot + 1) & (table->capacity - 1);
   }
   const float *pa = &w->mesh->positions[3 * (size_t)a];
   const float *pb = &w->mesh->positions[3 * (size_t)b];
   double d[3], len = 0;
   for (unsigned k = 0; k < 3; k++) {
      d[k] = ((double)pa[k] + pb[k]) * 0.5 - center[k];
      len += d[k] * d[k];
   }
   len = sqrt(len);
   if (!add_vertex(w, (float)(center[0] + d[0] / len * radius),
                   (float)(center[1] + d[1] / len * radius),
                   (float)(center[2] + d[2] / len * radius), out))
      return false;
   table->keys[slot] = key;
   table->values[slot] = *out;
   return true;
}

static bool add_icosphere(struct mesh_writer *w, const float center[3], float radius)
{
   /* The 12 vertices of an icosahedron: cyclic permutations of (0, +-1, +-g). */
   const double g = (1.0 + sqrt(5.0)) / 2.0, norm = sqrt(1.0 + g * g);
   static const int8_t base[12][3] = {{-1, 1, 0}, {1, 1, 0}, {-1, -1, 0}, {1, -1, 0},
                                      {0, -1, 1}, {0, 1, 1}, {0, -1, -1}, {0, 1, -1},
                                      {1, 0, -1}, {1, 0, 1}, {-1, 0, -1}, {-1, 0, 1}};
   static const uint8_t faces[20][3] = {
       {0, 11, 5},  {0, 5, 1},  {0, 1, 7},  {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
       {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
       {3, 8, 9},   {4, 9, 5},  {2, 4, 11}, {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
   uint32_t first = w->mesh->vertex_count;
   for (unsigned k = 0; k < 12; k++) {
      /* (x, y, z) = (a, b*g, 0)-style: component 0 scales by 1, the +-1
       * in the table by g where the golden-ratio axis sits. */
      double v[3];
      for (unsigned c = 0; c < 3; c++)
         v[c] = base[k][c];
      if (base[k][2] == 0)
         v[1] *= g;
      else if (base[k][0] == 0)
         v[2] *= g;
      else
         v[0] *= g;
      uint32_t unused;
      if (!add_vertex(w, (float)(center[0] + v[0] / norm * radius),
                      (float)(center[1] + v[1] / norm * radius),
                      (float)(center[2] + v[2] / norm * radius), &unused))
         return false;
   }
   uint32_t count = 20;
   uint32_t *tris = malloc((size_t)count * 3 * sizeof(uint32_t));
   if (!tris)
      return false;
   for (unsigned f = 0; f < 20; f++) {
      for (unsigned c = 0; c < 3; c++)
         tris[3 * f + c] = first + faces[f][c];
   }
   bool ok = true;
   for (unsigned level = 0; ok && level < SPHERE_LEVELS; level++) {
      struct edge_midpoints table = {.capacity = 1};
      while (table.capacity < 4 * count)
         table.capacity *= 2;
      table.keys = malloc((size_t)table.capacity * sizeof(uint64_t));
      table.values = malloc((size_t)table.capacity * sizeof(uint32_t));
      uint32_t *next = malloc((size_t)count * 4 * 3 * sizeof(uint32_t));
      ok = table.keys && table.values && next;
      if (ok)
         memset(table.keys, 0xff, (size_t)table.capacity * sizeof(uint64_t));
      for (uint32_t t = 0; ok && t < count; t++) {
         uint32_t a = tris[3 * t], b = tris[3 * t + 1], c = tris[3 * t + 2], ab, bc, ca;
         ok = midpoint(w, &table, a, b, center, radius, &ab) &&
              midpoint(w, &table, b, c, center, radius, &bc) &&
              midpoint(w, &table, c, a, center, radius, &ca);
         const uint32_t children[4][3] = {{a, ab, ca}, {ab, b, bc}, {ca, bc, c}, {ab, bc, ca}};
         memcpy(&next[12 * (size_t)t], children, sizeof(children));
      }
      free(table.keys);
      free(table.values);
      free(tris);
      tris = next;
      count *= 4;
   }
   for (uint32_t t = 0; ok && t < count; t++)
      ok = add_triangle(w, tris[3 * t], tris[3 * t + 1], tris[3 * t + 2]);
   free(tris);
   return ok;
}

bool procedural_scene_build(struct obj_mesh *mesh)
{
   memset(mesh, 0, sizeof(*mesh));
   struct mesh_writer w = {.mesh = mesh};
   static const float sphere_center[3] = {-2, 2.5f, -1};
   static const float box_lo[3] = {1, 0, -2}, box_hi[3] = {3.5f, 4, 1};
   bool ok = add_room(&w) && add_icosphere(&w, sphere_center, 2.5f) && add_box(&w, box_lo, box_hi);
   if (!ok) {
      obj_mesh_free(mesh);
      return false;
   }
   for (unsigned k = 0; k < 3; k++) {
      mesh->bounds_min[k] = INFINITY;
      mesh->bounds_max[k] = -INFINITY;
   }
   for (uint32_t v = 0; v < mesh->vertex_count; v++) {
      for (unsigned k = 0; k < 3; k++) {
         float x = mesh->positions[3 * (size_t)v + k];
         mesh->bounds_min[k] = fminf(mesh->bounds_min[k], x);
         mesh->bounds_max[k] = fmaxf(mesh->bounds_max[k], x);
      }
   }
   return true;
}
