/* Ray queries end to end on the PPU model, for the raytrace tests and the
 * AO benchmark: an OBJ scene of ../shared/scenes read with obj_mesh (samples/common), a
 * BLAS built by driver/bvh into model VRAM with a TLAS of one identity
 * instance, and compute shaders compiled by driver/compiler and run through
 * tests/compiler's harness (ctu_*), with the bindings of the ray-query
 * sample's ao.comp:
 *   set 0 binding 0: the TLAS, 1: result, 2: positions (3 floats per
 *   vertex), 3: indices (3 uints per triangle).
 * Further bindings (4, 5, ...) are for the test shaders' logs.
 */
#ifndef RT_MODEL_H
#define RT_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bvh_builder.h"
#include "compiler_test_util.h"
#include "obj_mesh.h"
#include "ppu/counters.h"
#include "ppu/ttu_predictor.h"
#include "scene_catalog.h"

/* Shader names for rt_model_dispatch, as built into the build tree. */
#define RT_SHADER_AO "ao"                   /* samples/rq_ambient_occlusion/shaders/ao.comp */
#define RT_SHADER_RAY_LOG "ray_log"         /* shaders/ray_log.comp */
#define RT_SHADER_RAY_TARGETS "ray_targets" /* shaders/ray_targets.comp */

#define RT_AO_WORKGROUP 8u        /* local_size_x and _y of ao.comp */
#define RT_AO_MISSED 0xffffffffu  /* ao.comp's result when the primary ray missed */
#define RT_BINDING_FIRST_EXTRA 4u /* after ao.comp's four bindings */

/* Scenes and cameras: samples/common/scene_catalog.h (the README's
 * suggested views and figures). */

/* The scenes directory (compile definition VKPPU_SCENES_DIR, overridden by
 * the environment variable of the same name); false when it is not there. */
bool rt_scenes_available(const char **dir);
/* Reads dir/file of the camera; false with a message in err. */
bool rt_scene_read(const struct scene_camera *cam, struct obj_mesh *mesh, char *err,
                   size_t err_size);
/* For the benchmarks: the catalog's camera named `name` and its mesh.
 * Returns 1 when read; 0, printing "<name> skipped (<reason>)", when the
 * file cannot be read, so a run over many scenes goes on without it; -1,
 * with a message on stderr, for a name the catalog does not have. */
int rt_scene_open(const char *name, const struct scene_camera **cam, struct obj_mesh *mesh);
/* Length of the diagonal of the mesh's bounding box. */
double rt_mesh_diagonal(const struct obj_mesh *mesh);

/* ao.comp's push-constant block, member for member (std430). */
struct rt_ao_push {
   float eye[3], ao_radius;
   float right[3], scene_diagonal; /* unit right * tan(fov / 2) */
   float up[3], unused0;           /* unit true up * tan(fov / 2) */
   float forward[3], unused1;      /* unit view direction */
   uint32_t width, height, spp, unused2;
};

/* The camera convention of the scenes' README (world up +Y). */
void rt_ao_push_setup(const struct scene_camera *cam, double diagonal, uint32_t width,
                      uint32_t height, uint32_t spp, struct rt_ao_push *pc);

/* The chip, the mesh's buffers and the two levels of the structure. */
struct rt_model {
   struct ctu ctu;
   uint64_t positions_va, indices_va, blas_va, tlas_va;
   uint32_t positions_bytes, indices_bytes;
   uint32_t triangle_count;
   double build_ms;      /* host time of the BLAS and TLAS builds, uploads included */
   double blas_build_ms; /* of that, bvh_build of the BLAS alone */
   struct bvh_build_stats blas_stats;
};

/* host_threads: ppu_gpu_config.host_worker_threads (0: the default);
 * vram_mib: 0 for 256. */
bool rt_model_init(struct rt_model *m, uint32_t host_threads, uint32_t vram_mib);
/* The same with the TTU's intersection predictor configured (NULL or
 * zeroed: off). */
bool rt_model_init_predictor(struct rt_model *m, uint32_t host_threads, uint32_t vram_mib,
                             const struct ppu_ttu_predictor_config *predictor);
/* The same with warp beams (ttu.beam.enabled) on, holding beam_nodes
 * nodes (ttu.beam.nodes); beam_nodes 0: off. */
bool rt_model_init_beam(struct rt_model *m, uint32_t host_threads, uint32_t vram_mib,
                        const struct ppu_ttu_predictor_config *predictor, uint32_t beam_nodes);
void rt_model_finish(struct rt_model *m);
/* Uploads positions and indices and builds the BLAS (one opaque triangle
 * geometry) and the TLAS (one identity instance, mask 0xff). */
bool rt_model_load(struct rt_model *m, const struct obj_mesh *mesh);
/* Builds the BLAS rt_model_load builds, but with prefer_fast_build
 * (VK_BUILD_ACCELERATION_STRUCTURE_PREFER_FAST_BUILD_BIT_KHR), on the host
 * only: *ms gets bvh_build's time and *sah_cost the tree's SAH cost. */
bool rt_model_time_fast_build(const struct obj_mesh *mesh, uint32_t threads, double *ms,
                              double *sah_cost);

/* A buffer on the model, zeroed or initialised from data. */
uint64_t rt_model_buffer(struct rt_model *m, const void *data, uint32_t bytes);
void rt_model_read(struct rt_model *m, uint64_t va, void *dst, uint32_t bytes);

struct rt_extra_binding {
   uint64_t va;
   uint32_t bytes;
};

/* Runs `shader` with ao.comp's bindings 0..3 (result at result_va) plus
 * extra[i] at binding 4 + i, push constants pc, over groups workgroups. */
bool rt_model_dispatch(struct rt_model *m, const char *shader, const void *pc, uint32_t pc_bytes,
                       uint64_t result_va, uint32_t result_bytes,
                       const struct rt_extra_binding *extra, uint32_t extra_count,
                       const uint32_t groups[3]);

/* Runs ao.comp over the whole image and reads its per-pixel result (AO rays
 * that escaped, or RT_AO_MISSED) into result[width * height]. Images of
 * more than band_pixels pixels go in horizontal bands, each its own grid,
 * so that no grid outlives the harness's wait for it (see the .c).
 * band_pixels 0: one grid. */
bool rt_ao_run(struct rt_model *m, const struct rt_ao_push *pc, uint32_t band_pixels,
               uint32_t *result);

/* The bands of rt_ao_run: rows per band (all rows when band_pixels is 0
 * or the image is smaller), and the push constants of the band starting at
 * row y0, whose row count it returns. */
uint32_t rt_ao_band_rows(const struct rt_ao_push *pc, uint32_t band_pixels);
uint32_t rt_ao_band_push(const struct rt_ao_push *pc, uint32_t band_rows, uint32_t y0,
                         struct rt_ao_push *band);

struct rt_ao_stats {
   uint64_t hit_pixels;
   uint64_t primary_rays, ao_rays; /* rays the shader traced */
   double hit_fraction;            /* of all pixels */
   double mean_ao;                 /* mean unoccluded fraction over hit pixels */
};

void rt_ao_stats(const uint32_t *result, uint32_t width, uint32_t height, uint32_t spp,
                 struct rt_ao_stats *s);

/* One measured run of ao.comp, as the benchmarks make it. */
struct rt_ao_bench {
   uint32_t width, height, spp;
   uint32_t band_pixels;  /* rt_ao_run's; 0: one grid */
   uint32_t host_threads; /* ppu_gpu_config.host_worker_threads; 0: the default */
   double ao_fraction;    /* > 0: AO radius = this x the scene diagonal; else the camera's */
   uint32_t beam_nodes;   /* > 0: warp beams on with this many nodes (rt_model_init_beam) */
};

struct rt_ao_measurement {
   uint64_t counters[PPU_COUNTER_COUNT]; /* deltas over the AO grids only */
   double seconds;                       /* host time of the AO grids */
   uint32_t triangle_count;
   double build_ms, blas_build_ms; /* rt_model's */
   double blas_sah_cost;           /* of rt_model's BLAS (bvh_build_stats) */
};

/* Runs ao.comp once on a fresh chip (so the predictor's table starts
 * empty) with the predictor configured (NULL: off), its per-pixel result in
 * result[width * height]. */
bool rt_ao_measure(const struct obj_mesh *mesh, const struct scene_camera *cam,
                   const struct rt_ao_bench *b, const struct ppu_ttu_predictor_config *predictor,
                   uint32_t *result, struct rt_ao_measurement *out);

/* The paper's figures of a predictor-on run (docs/ttu.md): fractions of
 * all AO rays predicted, verified and mispredicted; node fetches saved
 * against the predictor-off run's fetches_off (1 - on / off) and the same
 * by equation 1 (nodes_skipped - extra_node_fetches, over fetches_off). */
struct rt_predictor_figures {
   double predicted, verified, mispredicted;
   double fetches_saved, eq1;
};

void rt_predictor_figures(const uint64_t *on /* PPU_COUNTER_COUNT */, uint64_t fetches_off,
                          uint64_t ao_rays, struct rt_predictor_figures *f);

/* How much work the tests do: the sanitizer build (compile definition
 * RT_SANITIZED) or VKPPU_RT_SMALL=1 in the environment scales it down. */
bool rt_small_run(void);

#endif /* RT_MODEL_H */
