/* See rt_embree.h. */
#include "rt_embree.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef RT_HAVE_EMBREE
#include <embree3/rtcore.h>
#endif

bool rt_embree_available(void)
{
#ifdef RT_HAVE_EMBREE
   return true;
#else
   return false;
#endif
}

#ifdef RT_HAVE_EMBREE

static double now_ms(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* ao.comp's constants and helpers, in binary32 as the shader computes. */
#define AO_ORIGIN_OFFSET 1e-5f
#define AO_PI 3.14159265358979f

static uint32_t pcg_hash(uint32_t v)
{
   uint32_t state = v * 747796405u + 2891336453u;
   uint32_t word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
   return (word >> 22u) ^ word;
}

static float unit_float(uint32_t h)
{
   return (float)(h >> 8u) * (1.0f / 16777216.0f);
}

static void cross(const float a[3], const float b[3], float out[3])
{
   out[0] = a[1] * b[2] - a[2] * b[1];
   out[1] = a[2] * b[0] - a[0] * b[2];
   out[2] = a[0] * b[1] - a[1] * b[0];
}

static float dot(const float a[3], const float b[3])
{
   return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

struct embree_run {
   RTCScene scene;
   const struct obj_mesh *mesh;
   struct rt_ao_push pc;
   uint32_t band_rows;
   uint32_t *result;          /* per pixel: AO rays escaped, or RT_AO_MISSED */
   _Atomic uint32_t next_row; /* rows are handed out one at a time */
};

static void vertex(const struct obj_mesh *mesh, uint32_t v, float out[3])
{
   memcpy(out, &mesh->positions[3 * (size_t)v], 3 * sizeof(float));
}

/* ao.comp's main() for one pixel of the band b, x and y within it. */
static uint32_t trace_pixel(const struct embree_run *run, const struct rt_ao_push *b, uint32_t x,
                            uint32_t y)
{
   struct RTCIntersectContext ctx;
   rtcInitIntersectContext(&ctx);
   float sx = ((float)x + 0.5f) / (float)b->width * 2.0f - 1.0f;
   float sy = 1.0f - ((float)y + 0.5f) / (float)b->height * 2.0f;
   float dir[3];
   for (int a = 0; a < 3; a++)
      dir[a] = b->forward[a] + sx * b->right[a] + sy * b->up[a];
   float inv = 1.0f / sqrtf(dot(dir, dir));
   for (int a = 0; a < 3; a++)
      dir[a] *= inv;
   struct RTCRayHit rh = {
       .ray = {.org_x = b->eye[0],
               .org_y = b->eye[1],
               .org_z = b->eye[2],
               .tnear = 0.0f,
               .dir_x = dir[0],
               .dir_y = dir[1],
               .dir_z = dir[2],
               .tfar = 1e30f,
               .mask = ~0u},
       .hit = {.geomID = RTC_INVALID_GEOMETRY_ID, .instID = {RTC_INVALID_GEOMETRY_ID}}};
   rtcIntersect1(run->scene, &ctx, &rh);
   if (rh.hit.geomID == RTC_INVALID_GEOMETRY_ID)
      return RT_AO_MISSED;
   const uint32_t *corner = &run->mesh->indices[3 * (size_t)rh.hit.primID];
   float v0[3], v1[3], v2[3], e1[3], e2[3], n[3];
   vertex(run->mesh, corner[0], v0);
   vertex(run->mesh, corner[1], v1);
   vertex(run->mesh, corner[2], v2);
   for (int a = 0; a < 3; a++) {
      e1[a] = v1[a] - v0[a];
      e2[a] = v2[a] - v0[a];
   }
   cross(e1, e2, n);
   float len = sqrtf(dot(n, n));
   for (int a = 0; a < 3; a++)
      n[a] = len > 0.0f ? n[a] / len : -dir[a];
   if (dot(n, dir) > 0.0f)
      for (int a = 0; a < 3; a++)
         n[a] = -n[a];
   float origin[3];
   for (int a = 0; a < 3; a++)
      origin[a] = v0[a] + rh.hit.u * e1[a] + rh.hit.v * e2[a] +
                  n[a] * (AO_ORIGIN_OFFSET * b->scene_diagonal);
   /* Duff et al.'s branchless basis, as basis() in ao.comp. */
   float s = n[2] >= 0.0f ? 1.0f : -1.0f;
   float ba = -1.0f / (s + n[2]);
   float bc = n[0] * n[1] * ba;
   float t[3] = {1.0f + s * n[0] * n[0] * ba, s * bc, -s * n[0]};
   float bt[3] = {bc, s + n[1] * n[1] * ba, -n[1]};
   uint32_t escaped = 0, pixel_seed = pcg_hash(y * b->width + x);
   for (uint32_t i = 0; i < b->spp; i++) {
      uint32_t h1 = pcg_hash(pixel_seed + i), h2 = pcg_hash(h1);
      float u1 = unit_float(h1), phi = 2.0f * AO_PI * unit_float(h2), r = sqrtf(u1);
      float lift = sqrtf(fmaxf(0.0f, 1.0f - u1)), c = r * cosf(phi), sn = r * sinf(phi);
      struct RTCRay ray = {.org_x = origin[0],
                           .org_y = origin[1],
                           .org_z = origin[2],
                           .tnear = 0.0f,
                           .dir_x = c * t[0] + sn * bt[0] + lift * n[0],
                           .dir_y = c * t[1] + sn * bt[1] + lift * n[1],
                           .dir_z = c * t[2] + sn * bt[2] + lift * n[2],
                           .tfar = b->ao_radius,
                           .mask = ~0u};
      rtcOccluded1(run->scene, &ctx, &ray);
      escaped += ray.tfar >= 0.0f; /* Embree sets tfar to -inf when occluded */
   }
   return escaped;
}

static void *trace_rows(void *arg)
{
   struct embree_run *run = arg;
   for (;;) {
      uint32_t row = atomic_fetch_add_explicit(&run->next_row, 1, memory_order_relaxed);
      if (row >= run->pc.height)
         return NULL;
      uint32_t y0 = row / run->band_rows * run->band_rows;
      struct rt_ao_push band;
      rt_ao_band_push(&run->pc, run->band_rows, y0, &band);
      for (uint32_t x = 0; x < run->pc.width; x++)
         run->result[(size_t)row * run->pc.width + x] = trace_pixel(run, &band, x, row - y0);
   }
}

static bool build_scene(RTCDevice device, const struct obj_mesh *mesh, RTCScene *out)
{
   RTCGeometry g = rtcNewGeometry(device, RTC_GEOMETRY_TYPE_TRIANGLE);
   /* Embree's own buffers: it reads vertices 16 bytes at a time, so a
    * shared buffer would need padding after the last one. */
   float *v = rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3,
                                      3 * sizeof(float), mesh->vertex_count);
   uint32_t *i = rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3,
                                         3 * sizeof(uint32_t), mesh->triangle_count);
   if (!v || !i) {
      rtcReleaseGeometry(g);
      return false;
   }
   memcpy(v, mesh->positions, (size_t)mesh->vertex_count * 3 * sizeof(float));
   memcpy(i, mesh->indices, (size_t)mesh->triangle_count * 3 * sizeof(uint32_t));
   rtcCommitGeometry(g);
   *out = rtcNewScene(device);
   rtcAttachGeometry(*out, g);
   rtcReleaseGeometry(g);
   rtcCommitScene(*out);
   return rtcGetDeviceError(device) == RTC_ERROR_NONE;
}

bool rt_embree_ao(const struct obj_mesh *mesh, const struct scene_camera *cam,
                  const struct rt_ao_bench *b, struct rt_embree_measurement *out)
{
   memset(out, 0, sizeof(*out));
   uint32_t threads = b->host_threads ? b->host_threads : 2;
   if (threads > 64)
      threads = 64;
   char config[32];
   snprintf(config, sizeof(config), "threads=%u", threads);
   RTCDevice device = rtcNewDevice(config);
   if (!device) {
      fprintf(stderr, "rt_embree: rtcNewDevice failed\n");
      return false;
   }
   struct embree_run run = {.mesh = mesh};
   double t0 = now_ms();
   bool ok = build_scene(device, mesh, &run.scene);
   out->build_ms = now_ms() - t0;
   double diagonal = rt_mesh_diagonal(mesh);
   rt_ao_push_setup(cam, diagonal, b->width, b->height, b->spp, &run.pc);
   if (b->ao_fraction > 0)
      run.pc.ao_radius = (float)(b->ao_fraction * diagonal);
   run.band_rows = rt_ao_band_rows(&run.pc, b->band_pixels);
   run.result = ok ? malloc((size_t)b->width * b->height * 4) : NULL;
   ok = run.result != NULL;
   if (ok) {
      pthread_t worker[64];
      uint32_t started = 0;
      t0 = now_ms();
      for (; started < threads; started++)
         if (pthread_create(&worker[started], NULL, trace_rows, &run))
            break;
      ok = started > 0;
      for (uint32_t w = 0; w < started; w++)
         pthread_join(worker[w], NULL);
      out->seconds = (now_ms() - t0) * 1e-3;
      rt_ao_stats(run.result, b->width, b->height, b->spp, &out->stats);
   }
   if (!ok)
      fprintf(stderr, "rt_embree: the Embree run failed\n");
   free(run.result);
   if (run.scene)
      rtcReleaseScene(run.scene);
   rtcReleaseDevice(device);
   return ok;
}

#else

bool rt_embree_ao(const struct obj_mesh *mesh, const struct scene_camera *cam,
                  const struct rt_ao_bench *b, struct rt_embree_measurement *out)
{
   (void)mesh, (void)cam, (void)b;
   memset(out, 0, sizeof(*out));
   fprintf(stderr, "rt_embree: built without Embree (install libembree-dev and reconfigure)\n");
   return false;
}

#endif
