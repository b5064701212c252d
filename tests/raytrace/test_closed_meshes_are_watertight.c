/* Watertightness through the whole path (shader -> compiler -> TTU ->
 * driver/bvh's tree): from points inside a closed mesh, rays aimed exactly
 * at every vertex and at points along every shared edge must all hit. Those
 * are the rays that slip through cracks when two triangles sharing an edge
 * evaluate it differently (the watertight test of Woop et al. exists for
 * them) or when a conservatively rounded box misses its triangle's corner.
 *
 * Meshes: a subdivided icosphere and a subdivided, rotated cube, both with
 * shared vertices and off-origin coordinates, and the teapot of the shared
 * scenes (README: closed and welded; checked here: every edge has two or
 * more triangles, else the case is skipped with a message). Origins are the
 * centre plus random points inside (for the teapot: random points that the
 * binary64 reference finds inside by parity along three directions).
 *
 * Ray (o, p) has direction p - o, so the target is at t = 1. On the convex
 * meshes the hit must come at t = 1 (within rounding of p on its edge). On
 * the teapot a hit at t < 1 is an earlier crossing; one at t > 1 happens
 * where the ray only touches the surface at p (a concave spot seen from
 * inside), so those must be what the binary64 reference answers too. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_model.h"
#include "rt_reference.h"
#include "test_harness.h"

#define MISSED 0xffffffffu
#define T_TOLERANCE 1e-4 /* the target is rounded to binary32 on its edge */
#define MAX_PRINTED 8

struct targets {
   float *xyzw; /* 4 floats per target (std430 vec4) */
   uint32_t count;
};

static uint32_t rng_next(uint32_t *s)
{
   *s ^= *s << 13;
   *s ^= *s >> 17;
   *s ^= *s << 5;
   return *s;
}

static double rng_unit(uint32_t *s)
{
   return (rng_next(s) >> 8) * (1.0 / 16777216.0);
}

static bool mesh_reserve(struct obj_mesh *m, uint32_t vertices, uint32_t triangles)
{
   float *p = realloc(m->positions, (size_t)vertices * 12);
   if (p)
      m->positions = p;
   uint32_t *i = realloc(m->indices, (size_t)triangles * 12);
   if (i)
      m->indices = i;
   return p && i;
}

static void add_triangle(struct obj_mesh *m, uint32_t a, uint32_t b, uint32_t c)
{
   uint32_t *t = &m->indices[3 * m->triangle_count++];
   t[0] = a;
   t[1] = b;
   t[2] = c;
}

/* ---- undirected edges ----------------------------------------------------- */

static int compare_u64(const void *a, const void *b)
{
   uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
   return x < y ? -1 : x > y;
}

/* Sorted edge keys (min << 32 | max), one per triangle side; NULL on OOM. */
static uint64_t *sorted_edges(const struct obj_mesh *m)
{
   uint64_t *e = malloc((size_t)m->triangle_count * 3 * sizeof(*e));
   if (!e)
      return NULL;
   for (uint32_t t = 0; t < m->triangle_count; t++)
      for (int k = 0; k < 3; k++) {
         uint64_t a = m->indices[3 * t + k], b = m->indices[3 * t + (k + 1) % 3];
         e[3 * t + k] = a < b ? a << 32 | b : b << 32 | a;
      }
   qsort(e, (size_t)m->triangle_count * 3, sizeof(*e), compare_u64);
   return e;
}

/* Edges used by one triangle only: the mesh has a hole there. */
static uint32_t boundary_edges(const struct obj_mesh *m)
{
   uint64_t *e = sorted_edges(m);
   uint32_t n = 3 * m->triangle_count, boundary = 0;
   for (uint32_t i = 0; e && i < n;) {
      uint32_t j = i;
      while (j < n && e[j] == e[i])
         j++;
      boundary += j - i == 1;
      i = j;
   }
   free(e);
   return e ? boundary : UINT32_MAX;
}

/* Every vertex, and `per_edge` points at s = j / (per_edge + 1) along every
 * undirected edge, computed v0 + s (v1 - v0) in binary32 as a shader would. */
static bool make_targets(const struct obj_mesh *m, uint32_t per_edge, struct targets *out)
{
   uint64_t *e = sorted_edges(m);
   uint32_t n = 3 * m->triangle_count, unique = 0;
   for (uint32_t i = 0; e && i < n; i++)
      unique += i == 0 || e[i] != e[i - 1];
   out->count = m->vertex_count + unique * per_edge;
   out->xyzw = e ? calloc((size_t)out->count * 4, sizeof(float)) : NULL;
   if (!out->xyzw) {
      free(e);
      return false;
   }
   uint32_t k = 0;
   for (uint32_t v = 0; v < m->vertex_count; v++, k++)
      memcpy(&out->xyzw[4 * k], &m->positions[3 * v], 12);
   for (uint32_t i = 0; i < n; i++) {
      if (i && e[i] == e[i - 1])
         continue;
      const float *a = &m->positions[3 * (e[i] >> 32)], *b = &m->positions[3 * (e[i] & ~0u)];
      for (uint32_t j = 1; j <= per_edge; j++, k++) {
         float s = (float)j / (float)(per_edge + 1);
         for (int c = 0; c < 3; c++)
            out->xyzw[4 * k + c] = a[c] + s * (b[c] - a[c]);
      }
   }
   free(e);
   return true;
}

/* ---- procedural closed meshes -------------------------------------------- */

/* Midpoint vertex of edge (a, b), shared by both triangles of the edge: an
 * open-addressing table keyed by the edge. */
struct midpoints {
   uint64_t *keys;
   uint32_t *values;
   uint32_t size;
};

static uint32_t midpoint(struct midpoints *h, struct obj_mesh *m, double (*unit)[3], uint32_t a,
                         uint32_t b)
{
   uint64_t key = a < b ? (uint64_t)a << 32 | b : (uint64_t)b << 32 | a;
   uint32_t slot = (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 40) % h->size;
   while (h->keys[slot] != UINT64_MAX && h->keys[slot] != key)
      slot = (slot + 1) % h->size;
   if (h->keys[slot] == key)
      return h->values[slot];
   uint32_t v = m->vertex_count++;
   double l = 0;
   for (int c = 0; c < 3; c++) {
      unit[v][c] = unit[a][c] + unit[b][c];
      l += unit[v][c] * unit[v][c];
   }
   for (int c = 0; c < 3; c++)
      unit[v][c] /= sqrt(l);
   h->keys[slot] = key;
   h->values[slot] = v;
   return v;
}

/* An icosahedron subdivided `levels` times onto the sphere (centre c,
 * radius r); vertices are rounded to binary32 once, so shared. */
static bool make_icosphere(uint32_t levels, const double c[3], double r, struct obj_mesh *m)
{
   memset(m, 0, sizeof(*m));
   uint32_t tris = 20u << (2 * levels), verts = tris / 2 + 2;
   double(*unit)[3] = malloc((size_t)verts * sizeof(*unit));
   uint32_t *work = malloc((size_t)tris * 12);
   struct midpoints h = {malloc((size_t)tris * 2 * 8), malloc((size_t)tris * 2 * 4), tris * 2};
   bool ok = unit && work && h.keys && h.values && mesh_reserve(m, verts, tris);
   if (ok) {
      const double g = (1 + sqrt(5.0)) / 2;
      const double ico[12][3] = {{-1, g, 0}, {1, g, 0}, {-1, -g, 0}, {1, -g, 0},
                                 {0, -1, g}, {0, 1, g}, {0, -1, -g}, {0, 1, -g},
                                 {g, 0, -1}, {g, 0, 1}, {-g, 0, -1}, {-g, 0, 1}};
      static const uint32_t faces[20][3] = {
          {0, 11, 5},  {0, 5, 1},  {0, 1, 7},  {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
          {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
          {3, 8, 9},   {4, 9, 5},  {2, 4, 11}, {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
      for (uint32_t v = 0; v < 12; v++)
         for (int k = 0; k < 3; k++)
            unit[v][k] = ico[v][k] / sqrt(1 + g * g);
      m->vertex_count = 12;
      for (uint32_t f = 0; f < 20; f++)
         add_triangle(m, faces[f][0], faces[f][1], faces[f][2]);
      for (uint32_t l = 0; l < levels; l++) {
         memset(h.keys, 0xff, (size_t)h.size * 8);
         uint32_t n = m->triangle_count;
         memcpy(work, m->indices, (size_t)n * 12);
         m->triangle_count = 0;
         for (uint32_t t = 0; t < n; t++) {
            uint32_t a = work[3 * t], b = work[3 * t + 1], cc = work[3 * t + 2];
            uint32_t ab = midpoint(&h, m, unit, a, b), bc = midpoint(&h, m, unit, b, cc),
                     ca = midpoint(&h, m, unit, cc, a);
            add_triangle(m, a, ab, ca);
            add_triangle(m, ab, b, bc);
            add_triangle(m, ca, bc, cc);
            add_triangle(m, ab, bc, ca);
         }
      }
      for (uint32_t v = 0; v < m->vertex_count; v++)
         for (int k = 0; k < 3; k++)
            m->positions[3 * v + k] = (float)(c[k] + r * unit[v][k]);
   }
   free(unit);
   free(work);
   free(h.keys);
   free(h.values);
   return ok;
}

/* A cube of n x n quads per face (lattice vertices shared between faces),
 * half-size r, rotated about (1, 2, 3) and moved to c. */
static bool make_cube(uint32_t n, const double c[3], double r, struct obj_mesh *m)
{
   memset(m, 0, sizeof(*m));
   uint32_t side = n + 1;
   uint32_t *lattice = malloc((size_t)side * side * side * 4);
   if (!lattice || !mesh_reserve(m, 6 * n * n + 2, 12 * n * n)) {
      free(lattice);
      return false;
   }
   memset(lattice, 0xff, (size_t)side * side * side * 4);
   /* Rodrigues rotation by 0.7 rad about the unit axis (1, 2, 3) / sqrt(14). */
   double ax[3] = {1 / sqrt(14.0), 2 / sqrt(14.0), 3 / sqrt(14.0)}, cs = cos(0.7), sn = sin(0.7);
   double rot[3][3];
   for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++)
         rot[i][j] = (i == j ? cs : 0) + (1 - cs) * ax[i] * ax[j];
   rot[0][1] -= sn * ax[2], rot[0][2] += sn * ax[1], rot[1][0] += sn * ax[2];
   rot[1][2] -= sn * ax[0], rot[2][0] -= sn * ax[1], rot[2][1] += sn * ax[0];
   for (int axis = 0; axis < 3; axis++)
      for (uint32_t face = 0; face < 2; face++)
         for (uint32_t a = 0; a < n; a++)
            for (uint32_t b = 0; b < n; b++) {
               uint32_t quad[4];
               for (uint32_t q = 0; q < 4; q++) {
                  uint32_t ijk[3];
                  ijk[axis] = face * n;
                  ijk[(axis + 1) % 3] = a + (q == 1 || q == 2);
                  ijk[(axis + 2) % 3] = b + (q >= 2);
                  uint32_t *slot = &lattice[(ijk[0] * side + ijk[1]) * side + ijk[2]];
                  if (*slot == UINT32_MAX) {
                     *slot = m->vertex_count++;
                     for (int i = 0; i < 3; i++) {
                        double p = 0;
                        for (int j = 0; j < 3; j++)
                           p += rot[i][j] * r * (2.0 * ijk[j] / n - 1.0);
                        m->positions[3 * *slot + i] = (float)(c[i] + p);
                     }
                  }
                  quad[q] = *slot;
               }
               add_triangle(m, quad[0], quad[1], quad[2]);
               add_triangle(m, quad[0], quad[2], quad[3]);
            }
   free(lattice);
   return true;
}

/* ---- the test ------------------------------------------------------------- */

/* Inside by parity: an odd number of crossings along each of three
 * directions, none of them grazing. */
static bool inside_by_parity(const float *soup, uint32_t count, const double p[3])
{
   static const double dirs[3][3] = {{1, 0.137, 0.291}, {-0.213, 1, 0.077}, {0.311, -0.173, -1}};
   for (int d = 0; d < 3; d++) {
      struct rt_ref_ray r = {{p[0], p[1], p[2]}, {dirs[d][0], dirs[d][1], dirs[d][2]}, 0, 1e30};
      bool grazing;
      if (rt_ref_crossings(soup, count, &r, &grazing) % 2 == 0 || grazing)
         return false;
   }
   return true;
}

/* A hit beyond the target of teapot ray (o, p) checked against the
 * reference, with the direction rounded as the shader rounds it. */
static bool reference_agrees(const float *soup, uint32_t count, const float *o, const float *p,
                             uint32_t primitive, float t)
{
   struct rt_ref_ray r = {.tmin = 0, .tmax = 1e30};
   for (int c = 0; c < 3; c++) {
      r.origin[c] = o[c];
      r.direction[c] = p[c] - o[c];
   }
   struct rt_ref_hit ref;
   const char *why;
   rt_ref_trace(soup, count, &r, &ref);
   return rt_ref_accepts(&ref, true, primitive, t, T_TOLERANCE * t, &why);
}

/* Fires every target from every origin: zero misses, and t as the header
 * says (soup: the mesh's triangles when it is not convex, else NULL). */
static void check_mesh(const char *name, const struct obj_mesh *mesh, const float *soup,
                       const float *origins, uint32_t origin_count, uint32_t per_edge)
{
   bool convex = soup == NULL;
   struct targets tg = {0};
   struct rt_model m;
   REQUIRE(make_targets(mesh, per_edge, &tg));
   uint64_t rays = (uint64_t)tg.count * origin_count;
   uint32_t(*out)[2] = malloc(rays * 8);
   if (!out || rays * 8 > UINT32_MAX || !rt_model_init(&m, 0, 0)) {
      test_fail(__FILE__, __LINE__, "%s: setup failed", name);
      free(out);
      free(tg.xyzw);
      return;
   }
   uint32_t push[4] = {tg.count, origin_count, 0, 0};
   uint64_t result_va = rt_model_buffer(&m, NULL, (uint32_t)(rays * 8));
   struct rt_extra_binding extra[2] = {
       {rt_model_buffer(&m, tg.xyzw, tg.count * 16), tg.count * 16},
       {rt_model_buffer(&m, origins, origin_count * 16), origin_count * 16},
   };
   uint32_t groups[3] = {(tg.count + 63) / 64, origin_count, 1};
   if (rt_model_load(&m, mesh) &&
       rt_model_dispatch(&m, RT_SHADER_RAY_TARGETS, push, sizeof(push), result_va,
                         (uint32_t)(rays * 8), extra, 2, groups)) {
      rt_model_read(&m, result_va, out, (uint32_t)(rays * 8));
      uint64_t misses = 0, bad_t = 0, beyond = 0;
      uint32_t printed = 0;
      for (uint64_t i = 0; i < rays; i++) {
         uint32_t target = (uint32_t)(i % tg.count), origin = (uint32_t)(i / tg.count);
         float t;
         memcpy(&t, &out[i][1], 4);
         bool missed = out[i][0] == MISSED;
         const float *o = &origins[4 * origin], *p = &tg.xyzw[4 * target];
         bool t_ok = missed || (t > 0 && t <= 1 + T_TOLERANCE && (!convex || t >= 1 - T_TOLERANCE));
         if (!missed && t > 1 + T_TOLERANCE && !convex) {
            t_ok = reference_agrees(soup, mesh->triangle_count, o, p, out[i][0], t);
            beyond++;
         }
         misses += missed;
         bad_t += !t_ok;
         if ((missed || !t_ok) && printed++ < MAX_PRINTED) {
            printf("    %s: origin (%.9g %.9g %.9g) target %u (%s) (%.9g %.9g %.9g): %s t %.9g\n",
                   name, o[0], o[1], o[2], target, target < mesh->vertex_count ? "vertex" : "edge",
                   p[0], p[1], p[2], missed ? "MISSED" : "hit", t);
         }
      }
      printf("  %s: %u triangles, %u targets (%u vertices + %u per edge) x %u origins = %llu "
             "rays: %llu misses, %llu hits at a wrong t, %llu beyond the target (touching it)\n",
             name, mesh->triangle_count, tg.count, mesh->vertex_count, per_edge, origin_count,
             (unsigned long long)rays, (unsigned long long)misses, (unsigned long long)bad_t,
             (unsigned long long)beyond);
      CHECK_MSG(misses == 0, "%s: %llu rays from inside leaked through", name,
                (unsigned long long)misses);
      CHECK_MSG(bad_t == 0, "%s: %llu hits at a wrong t", name, (unsigned long long)bad_t);
   }
   rt_model_finish(&m);
   free(out);
   free(tg.xyzw);
}

/* The centre and count - 1 random points within `spread` of it. */
static void ball_origins(const double c[3], double spread, uint32_t count, float *origins)
{
   uint32_t s = 0x2545f491u;
   for (uint32_t i = 0; i < count; i++)
      for (int k = 0; k < 3; k++)
         origins[4 * i + k] = (float)(c[k] + (i ? spread * (2 * rng_unit(&s) - 1) : 0));
}

#define MAX_ORIGINS 8

static uint32_t origin_count(void)
{
   return rt_small_run() ? 1 : 4;
}

TEST_CASE(icosphere_is_watertight)
{
   const double c[3] = {0.3125, -1.7, 2.1}, r = 5.3;
   struct obj_mesh mesh;
   REQUIRE(make_icosphere(rt_small_run() ? 2 : 4, c, r, &mesh));
   CHECK_EQ_U64(boundary_edges(&mesh), 0);
   float origins[4 * MAX_ORIGINS] = {0};
   ball_origins(c, r * 0.3, origin_count(), origins);
   check_mesh("icosphere", &mesh, NULL, origins, origin_count(), rt_small_run() ? 1 : 7);
   free(mesh.positions);
   free(mesh.indices);
}

TEST_CASE(cube_is_watertight)
{
   const double c[3] = {-2.25, 0.7, 1.3}, r = 3.1;
   struct obj_mesh mesh;
   REQUIRE(make_cube(rt_small_run() ? 4 : 16, c, r, &mesh));
   CHECK_EQ_U64(boundary_edges(&mesh), 0);
   float origins[4 * MAX_ORIGINS] = {0};
   ball_origins(c, r * 0.3, origin_count(), origins);
   check_mesh("cube", &mesh, NULL, origins, origin_count(), rt_small_run() ? 1 : 7);
   free(mesh.positions);
   free(mesh.indices);
}

TEST_CASE(teapot_is_watertight)
{
   const char *dir;
   if (!rt_scenes_available(&dir)) {
      printf("SKIP: no scenes directory %s\n", dir);
      return;
   }
   struct obj_mesh mesh;
   char err[256];
   if (!rt_scene_read(scene_catalog_find("teapot"), &mesh, err, sizeof(err))) {
      test_fail(__FILE__, __LINE__, "%s", err);
      return;
   }
   uint32_t boundary = boundary_edges(&mesh);
   if (boundary) {
      printf("SKIP: teapot has %u boundary edges: not closed, so rays from inside may escape\n",
             boundary);
      obj_mesh_free(&mesh);
      return;
   }
   /* Random points of the body's box (around the bounding box's centre),
    * kept when the reference finds them inside. */
   float *soup = obj_mesh_triangle_soup(&mesh);
   float origins[4 * MAX_ORIGINS] = {0};
   uint32_t found = 0, s = 0x1234567u;
   for (uint32_t attempt = 0; soup && attempt < 200 && found < origin_count(); attempt++) {
      double p[3] = {5 + 40 * (2 * rng_unit(&s) - 1), 40 + 25 * (2 * rng_unit(&s) - 1),
                     30 * (2 * rng_unit(&s) - 1)};
      for (int k = 0; k < 3; k++)
         p[k] = (float)p[k];
      if (!inside_by_parity(soup, mesh.triangle_count, p))
         continue;
      for (int k = 0; k < 3; k++)
         origins[4 * found + k] = (float)p[k];
      found++;
   }
   CHECK_MSG(found == origin_count(), "found %u points inside the teapot", found);
   if (found)
      check_mesh("teapot", &mesh, soup, origins, found, rt_small_run() ? 1 : 7);
   free(soup);
   obj_mesh_free(&mesh);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
