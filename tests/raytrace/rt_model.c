/* See rt_model.h. */
#include "rt_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "ppu/bvh.h"
#include "test_harness.h"

bool rt_scenes_available(const char **dir)
{
   const char *d = getenv("VKPPU_SCENES_DIR");
   if (!d || !*d)
      d = VKPPU_SCENES_DIR;
   *dir = d;
   struct stat st;
   return stat(d, &st) == 0 && S_ISDIR(st.st_mode);
}

bool rt_scene_read(const struct scene_camera *cam, struct obj_mesh *mesh, char *err,
                   size_t err_size)
{
   const char *dir;
   if (!rt_scenes_available(&dir)) {
      snprintf(err, err_size, "no scenes directory %s", dir);
      return false;
   }
   char path[1024];
   snprintf(path, sizeof(path), "%s/%s", dir, cam->file);
   return obj_mesh_load(path, mesh, err, err_size);
}

int rt_scene_open(const char *name, const struct scene_camera **cam, struct obj_mesh *mesh)
{
   *cam = scene_catalog_find(name);
   if (!*cam) {
      fprintf(stderr, "unknown scene %s\n", name);
      return -1;
   }
   char err[256];
   if (!rt_scene_read(*cam, mesh, err, sizeof(err))) {
      printf("%-16s skipped (%s)\n", name, err);
      return 0;
   }
   return 1;
}

double rt_mesh_diagonal(const struct obj_mesh *mesh)
{
   double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
   for (uint32_t v = 0; v < mesh->vertex_count; v++)
      for (int a = 0; a < 3; a++) {
         lo[a] = fmin(lo[a], mesh->positions[3 * v + a]);
         hi[a] = fmax(hi[a], mesh->positions[3 * v + a]);
      }
   double d2 = 0;
   for (int a = 0; a < 3; a++)
      d2 += (hi[a] - lo[a]) * (hi[a] - lo[a]);
   return mesh->vertex_count ? sqrt(d2) : 0;
}

static void normalize3(double v[3])
{
   double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
   for (int a = 0; a < 3; a++)
      v[a] /= l;
}

static void cross3(const double a[3], const double b[3], double out[3])
{
   out[0] = a[1] * b[2] - a[2] * b[1];
   out[1] = a[2] * b[0] - a[0] * b[2];
   out[2] = a[0] * b[1] - a[1] * b[0];
}

void rt_ao_push_setup(const struct scene_camera *cam, double diagonal, uint32_t width,
                      uint32_t height, uint32_t spp, struct rt_ao_push *pc)
{
   static const double world_up[3] = {0, 1, 0};
   double f[3], r[3], u[3];
   for (int a = 0; a < 3; a++)
      f[a] = (double)cam->look_at[a] - cam->eye[a];
   normalize3(f);
   cross3(f, world_up, r);
   normalize3(r);
   cross3(r, f, u);
   double t = tan(cam->fov_degrees * M_PI / 360.0);
   memset(pc, 0, sizeof(*pc));
   for (int a = 0; a < 3; a++) {
      pc->eye[a] = cam->eye[a];
      pc->right[a] = (float)(r[a] * t);
      pc->up[a] = (float)(u[a] * t);
      pc->forward[a] = (float)f[a];
   }
   pc->ao_radius = cam->ao_radius;
   pc->scene_diagonal = (float)diagonal;
   pc->width = width;
   pc->height = height;
   pc->spp = spp;
}

static double now_ms(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

bool rt_model_init(struct rt_model *m, uint32_t host_threads, uint32_t vram_mib)
{
   return rt_model_init_predictor(m, host_threads, vram_mib, NULL);
}

bool rt_model_init_predictor(struct rt_model *m, uint32_t host_threads, uint32_t vram_mib,
                             const struct ppu_ttu_predictor_config *predictor)
{
   return rt_model_init_beam(m, host_threads, vram_mib, predictor, 0);
}

bool rt_model_init_beam(struct rt_model *m, uint32_t host_threads, uint32_t vram_mib,
                        const struct ppu_ttu_predictor_config *predictor, uint32_t beam_nodes)
{
   memset(m, 0, sizeof(*m));
   /* ctu_init with the chip configured: the benchmark picks the host
    * threads and bigger scenes need more than ctu_init's 256 MiB. */
   struct ppu_gpu_config cfg;
   ppu_gpu_config_default(&cfg);
   cfg.vram_size = (uint64_t)(vram_mib ? vram_mib : 256) << 20;
   cfg.max_channels = 16;
   cfg.host_worker_threads = host_threads;
   if (predictor)
      cfg.ttu_predictor = *predictor;
   cfg.ttu_beam_enabled = beam_nodes != 0;
   if (beam_nodes)
      cfg.ttu_beam_nodes = beam_nodes;
   /* ao.comp is dispatched once per band: one program, as an application
    * keeps its pipeline, so the SM translator translates it once. */
   m->ctu.reuse_program = true;
   return hwc_init(&m->ctu.h, &cfg);
}

void rt_model_finish(struct rt_model *m)
{
   ctu_finish(&m->ctu);
}

uint64_t rt_model_buffer(struct rt_model *m, const void *data, uint32_t bytes)
{
   return ctu_buffer(&m->ctu, data, bytes);
}

void rt_model_read(struct rt_model *m, uint64_t va, void *dst, uint32_t bytes)
{
   ctu_read(&m->ctu, va, dst, bytes);
}

/* Builds `in` on the host into a worst-case-sized buffer and copies the
 * compact result to VRAM; 0 after a test failure. */
static uint64_t build_to_vram(struct rt_model *m, const struct bvh_build_input *in,
                              uint32_t primitive_count, struct bvh_build_stats *stats,
                              double *build_ms)
{
   struct bvh_sizes sizes;
   enum bvh_result r = bvh_get_sizes(in->kind, in->geometry_count, primitive_count, &sizes);
   if (r != BVH_SUCCESS || sizes.structure_size > UINT32_MAX) {
      test_fail(__FILE__, __LINE__, "bvh_get_sizes: %s", bvh_result_name(r));
      return 0;
   }
   size_t bytes = (sizes.structure_size + PPU_BVH_ALIGN - 1) & ~(size_t)(PPU_BVH_ALIGN - 1);
   void *host = aligned_alloc(PPU_BVH_ALIGN, bytes);
   if (!host) {
      test_fail(__FILE__, __LINE__, "out of memory for a %zu-byte structure", bytes);
      return 0;
   }
   double t0 = now_ms();
   r = bvh_build(in, host, bytes, stats);
   if (build_ms)
      *build_ms = now_ms() - t0;
   uint64_t va = 0;
   if (r == BVH_SUCCESS)
      va = rt_model_buffer(m, host, (uint32_t)bvh_compacted_size(host));
   else
      test_fail(__FILE__, __LINE__, "bvh_build: %s", bvh_result_name(r));
   free(host);
   return va;
}

bool rt_model_load(struct rt_model *m, const struct obj_mesh *mesh)
{
   if ((uint64_t)mesh->vertex_count * 12 > UINT32_MAX ||
       (uint64_t)mesh->triangle_count * 12 > UINT32_MAX) {
      test_fail(__FILE__, __LINE__, "mesh too big for 32-bit buffer sizes");
      return false;
   }
   m->triangle_count = mesh->triangle_count;
   m->positions_bytes = mesh->vertex_count * 12;
   m->indices_bytes = mesh->triangle_count * 12;
   m->positions_va = rt_model_buffer(m, mesh->positions, m->positions_bytes);
   m->indices_va = rt_model_buffer(m, mesh->indices, m->indices_bytes);
   float *soup = obj_mesh_triangle_soup(mesh);
   if (!soup) {
      test_fail(__FILE__, __LINE__, "out of memory for the triangle soup");
      return false;
   }
   /* As the sample builds it: one opaque triangle geometry. */
   struct bvh_geometry geometry = {BVH_GEOMETRY_TRIANGLES, PPU_BVH_GEOMETRY_OPAQUE,
                                   mesh->triangle_count, soup};
   struct bvh_build_input blas_in = {
       .kind = PPU_BVH_KIND_TRIANGLES, .geometries = &geometry, .geometry_count = 1};
   double t0 = now_ms();
   m->blas_va = build_to_vram(m, &blas_in, mesh->triangle_count, &m->blas_stats, &m->blas_build_ms);
   free(soup);
   if (!m->blas_va)
      return false;
   struct ppu_bvh_header header;
   rt_model_read(m, m->blas_va, &header, sizeof(header));
   struct bvh_instance instance = {
       .transform = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}},
       .mask = 0xff,
       .blas_address = m->blas_va,
   };
   memcpy(instance.blas_bounds_min, header.bounds_min, sizeof(header.bounds_min));
   memcpy(instance.blas_bounds_max, header.bounds_max, sizeof(header.bounds_max));
   struct bvh_build_input tlas_in = {.kind = PPU_BVH_KIND_INSTANCES,
                                     .instances = &instance,
                                     .instance_count = 1,
                                     .instance_geometry_flags = PPU_BVH_GEOMETRY_OPAQUE};
   m->tlas_va = build_to_vram(m, &tlas_in, 1, NULL, NULL);
   m->build_ms = now_ms() - t0;
   return m->tlas_va != 0 && m->positions_va && m->indices_va;
}

bool rt_model_time_fast_build(const struct obj_mesh *mesh, uint32_t threads, double *ms,
                              double *sah_cost)
{
   float *soup = obj_mesh_triangle_soup(mesh);
   struct bvh_geometry geometry = {BVH_GEOMETRY_TRIANGLES, PPU_BVH_GEOMETRY_OPAQUE,
                                   mesh->triangle_count, soup};
   struct bvh_build_input in = {.kind = PPU_BVH_KIND_TRIANGLES,
                                .geometries = &geometry,
                                .geometry_count = 1,
                                .thread_count = threads,
                                .prefer_fast_build = true};
   struct bvh_sizes sizes;
   bool ok = soup && bvh_get_sizes(in.kind, 1, mesh->triangle_count, &sizes) == BVH_SUCCESS;
   size_t bytes =
       ok ? (sizes.structure_size + PPU_BVH_ALIGN - 1) & ~(size_t)(PPU_BVH_ALIGN - 1) : 0;
   void *host = ok ? aligned_alloc(PPU_BVH_ALIGN, bytes) : NULL;
   struct bvh_build_stats stats;
   double t0 = now_ms();
   ok = host && bvh_build(&in, host, bytes, &stats) == BVH_SUCCESS;
   *ms = now_ms() - t0;
   *sah_cost = ok ? stats.sah_cost : 0.0;
   free(host);
   free(soup);
   return ok;
}

/* ctu_run names shaders relative to the compiler tests' SPIR-V directory;
 * CMake hands us the relative path from there to ours. */
bool rt_model_dispatch(struct rt_model *m, const char *shader, const void *pc, uint32_t pc_bytes,
                       uint64_t result_va, uint32_t result_bytes,
                       const struct rt_extra_binding *extra, uint32_t extra_count,
                       const uint32_t groups[3])
{
   char name[512];
   snprintf(name, sizeof(name), "%s/%s", RT_SHADER_DIR_FROM_COMPILER_TESTS, shader);
   struct ctu_dispatch d = {.shader = name, .push = pc, .push_size = pc_bytes};
   memcpy(d.groups, groups, sizeof(d.groups));
   d.bindings[0] = (struct ctu_binding){.va = m->tlas_va, .acceleration_structure = true};
   d.binding_count = 1;
   ctu_bind(&d, 0, 1, result_va, result_bytes);
   ctu_bind(&d, 0, 2, m->positions_va, m->positions_bytes);
   ctu_bind(&d, 0, 3, m->indices_va, m->indices_bytes);
   for (uint32_t i = 0; i < extra_count; i++)
      ctu_bind(&d, 0, RT_BINDING_FIRST_EXTRA + i, extra[i].va, extra[i].bytes);
   return ctu_run(&m->ctu, &d);
}

/* The harness waits 60 s for a grid (hwc_launch), so big images go in
 * bands of rows. ao.comp has no row offset, so a band is the same camera
 * looking at its slice: with sy_band = 1 - (y + 0.5) / h * 2 for the band's
 * h rows starting at y0 of H, the full image's
 * sy = sy_band * h / H + (1 - (2 y0 + h) / H), so up is scaled by h / H and
 * forward moved by the constant term (the shader normalizes the sum). The
 * rays equal the full image's up to rounding, but ao.comp seeds its random
 * directions with the pixel index within the band, so the AO samples of
 * a banded image differ from a one-grid image's (statistically the same). */
uint32_t rt_ao_band_rows(const struct rt_ao_push *pc, uint32_t band_pixels)
{
   uint32_t band_rows = pc->height;
   if (band_pixels && (uint64_t)pc->width * pc->height > band_pixels) {
      band_rows = band_pixels / pc->width / RT_AO_WORKGROUP * RT_AO_WORKGROUP;
      if (band_rows < RT_AO_WORKGROUP)
         band_rows = RT_AO_WORKGROUP;
   }
   return band_rows;
}

uint32_t rt_ao_band_push(const struct rt_ao_push *pc, uint32_t band_rows, uint32_t y0,
                         struct rt_ao_push *band)
{
   uint32_t h = pc->height - y0 < band_rows ? pc->height - y0 : band_rows;
   *band = *pc;
   if (h != pc->height) {
      double scale = (double)h / pc->height, shift = 1.0 - (2.0 * y0 + h) / pc->height;
      for (int a = 0; a < 3; a++) {
         band->forward[a] = (float)(pc->forward[a] + shift * pc->up[a]);
         band->up[a] = (float)(pc->up[a] * scale);
      }
      band->height = h;
   }
   return h;
}

bool rt_ao_run(struct rt_model *m, const struct rt_ao_push *pc, uint32_t band_pixels,
               uint32_t *result)
{
   uint64_t bytes = (uint64_t)pc->width * pc->height * 4;
   if (bytes > UINT32_MAX || !pc->width || !pc->height)
      return false;
   uint32_t band_rows = rt_ao_band_rows(pc, band_pixels);
   uint64_t result_va = rt_model_buffer(m, NULL, (uint32_t)bytes);
   bool ok = result_va != 0;
   for (uint32_t y0 = 0; ok && y0 < pc->height; y0 += band_rows) {
      struct rt_ao_push band;
      uint32_t h = rt_ao_band_push(pc, band_rows, y0, &band);
      uint32_t groups[3] = {(pc->width + RT_AO_WORKGROUP - 1) / RT_AO_WORKGROUP,
                            (h + RT_AO_WORKGROUP - 1) / RT_AO_WORKGROUP, 1};
      uint64_t offset = (uint64_t)y0 * pc->width * 4;
      ok = rt_model_dispatch(m, RT_SHADER_AO, &band, sizeof(band), result_va + offset,
                             h * pc->width * 4, NULL, 0, groups);
   }
   if (ok)
      rt_model_read(m, result_va, result, (uint32_t)bytes);
   return ok;
}

void rt_ao_stats(const uint32_t *result, uint32_t width, uint32_t height, uint32_t spp,
                 struct rt_ao_stats *s)
{
   memset(s, 0, sizeof(*s));
   uint64_t pixels = (uint64_t)width * height, escaped = 0;
   for (uint64_t i = 0; i < pixels; i++) {
      if (result[i] == RT_AO_MISSED)
         continue;
      s->hit_pixels++;
      escaped += result[i];
   }
   s->primary_rays = pixels;
   s->ao_rays = s->hit_pixels * spp;
   s->hit_fraction = pixels ? (double)s->hit_pixels / (double)pixels : 0;
   s->mean_ao = s->ao_rays ? (double)escaped / (double)s->ao_rays : 0;
}

/* Enough VRAM for the mesh, its worst-case BLAS and the result, with room
 * for the harness's own buffers: the biggest scenes need more than the
 * default 256 MiB, and the smallest should not pay for it. */
static uint32_t vram_mib_for(const struct obj_mesh *mesh, const struct rt_ao_bench *b)
{
   struct bvh_sizes sizes = {0};
   bvh_get_sizes(PPU_BVH_KIND_TRIANGLES, 1, mesh->triangle_count, &sizes);
   uint64_t bytes = sizes.structure_size + 12ull * mesh->vertex_count +
                    12ull * mesh->triangle_count + 4ull * b->width * b->height;
   return (uint32_t)((bytes >> 20) + 64);
}

bool rt_ao_measure(const struct obj_mesh *mesh, const struct scene_camera *cam,
                   const struct rt_ao_bench *b, const struct ppu_ttu_predictor_config *predictor,
                   uint32_t *result, struct rt_ao_measurement *out)
{
   memset(out, 0, sizeof(*out));
   struct rt_model m;
   if (!rt_model_init_beam(&m, b->host_threads, vram_mib_for(mesh, b), predictor, b->beam_nodes))
      return false;
   bool ok = rt_model_load(&m, mesh);
   if (ok) {
      double diagonal = rt_mesh_diagonal(mesh);
      struct rt_ao_push pc;
      rt_ao_push_setup(cam, diagonal, b->width, b->height, b->spp, &pc);
      if (b->ao_fraction > 0)
         pc.ao_radius = (float)(b->ao_fraction * diagonal);
      /* Deltas, so the uploads and builds before the grids do not count. */
      uint64_t before[PPU_COUNTER_COUNT], after[PPU_COUNTER_COUNT];
      ppu_gpu_read_counters(m.ctu.h.t.gpu, before);
      double t0 = now_ms();
      ok = rt_ao_run(&m, &pc, b->band_pixels, result);
      out->seconds = (now_ms() - t0) * 1e-3;
      ppu_gpu_read_counters(m.ctu.h.t.gpu, after);
      for (int i = 0; i < PPU_COUNTER_COUNT; i++)
         out->counters[i] = after[i] - before[i];
      out->triangle_count = m.triangle_count;
      out->build_ms = m.build_ms;
      out->blas_build_ms = m.blas_build_ms;
      out->blas_sah_cost = m.blas_stats.sah_cost;
   }
   rt_model_finish(&m);
   return ok;
}

static double ratio(uint64_t a, uint64_t b)
{
   return b ? (double)a / (double)b : 0.0;
}

void rt_predictor_figures(const uint64_t *on, uint64_t fetches_off, uint64_t ao_rays,
                          struct rt_predictor_figures *f)
{
   f->predicted = ratio(on[PPU_COUNTER_TTU_PREDICTOR_PREDICTED], ao_rays);
   f->verified = ratio(on[PPU_COUNTER_TTU_PREDICTOR_VERIFIED], ao_rays);
   f->mispredicted = ratio(on[PPU_COUNTER_TTU_PREDICTOR_MISPREDICTED], ao_rays);
   f->fetches_saved =
       fetches_off ? 1.0 - ratio(on[PPU_COUNTER_TTU_NODE_FETCHES], fetches_off) : 0.0;
   /* Two non-negative counters because a counter never decreases. */
   double eq1 = (double)on[PPU_COUNTER_TTU_PREDICTOR_NODES_SKIPPED] -
                (double)on[PPU_COUNTER_TTU_PREDICTOR_EXTRA_NODE_FETCHES];
   f->eq1 = fetches_off ? eq1 / (double)fetches_off : 0.0;
}

bool rt_small_run(void)
{
#ifdef RT_SANITIZED
   return true;
#else
   const char *e = getenv("VKPPU_RT_SMALL");
   return e && *e && strcmp(e, "0") != 0;
#endif
}
