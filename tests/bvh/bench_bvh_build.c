/* Build-speed and tree-quality figures of the BVH builder on the shared
 * scenes (not a test: numbers come from benchmarks that print figures).
 *
 *   bench_bvh_build [--threads N] [--fast] [scene ...]
 *
 * Default scenes: bunny sibenik dabrovic_sponza conference. --threads sets
 * bvh_build_input::thread_count (default 0: the builder's default, the
 * online CPUs; 1: single-threaded). --fast: each scene is built twice, the
 * default SAH tree and the PREFER_FAST_BUILD one (bvh_lbvh.c), one row each.
 *
 * Names are looked up as <scenes>/<name>.obj, then <name>.obj.gz. Prints,
 * per scene: triangles, build time (best of 3), Mtriangles/s, nodes, leaf
 * slots, bytes, SAH cost (datapath cycles per ray, docs/bvh.md) and max
 * depth. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bvh_test_util.h"
#include "obj_mesh.h"

static double now(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void bench(const char *name, uint32_t threads, bool fast)
{
   char path[512], err[256];
   struct obj_mesh mesh;
   snprintf(path, sizeof(path), "%s/%s.obj", VKPPU_SCENES_DIR, name);
   if (!obj_mesh_load(path, &mesh, err, sizeof(err))) {
      snprintf(path, sizeof(path), "%s/%s.obj.gz", VKPPU_SCENES_DIR, name);
      if (!obj_mesh_load(path, &mesh, err, sizeof(err))) {
         printf("%-16s skipped (%s)\n", name, err);
         return;
      }
   }
   float *soup = obj_mesh_triangle_soup(&mesh);
   struct bvh_geometry geo = {BVH_GEOMETRY_TRIANGLES, PPU_BVH_GEOMETRY_OPAQUE, mesh.triangle_count,
                              soup};
   struct bvh_build_input in = {
       .kind = PPU_BVH_KIND_TRIANGLES,
       .geometries = &geo,
       .geometry_count = 1,
       .thread_count = threads,
       .prefer_fast_build = fast,
   };
   struct bvh_sizes sizes;
   bvh_get_sizes(in.kind, 1, mesh.triangle_count, &sizes);
   void *mem = aligned_alloc(PPU_BVH_ALIGN, (sizes.structure_size + 127) / 128 * 128);
   struct bvh_build_stats st = {0};
   double best = 1e30;
   enum bvh_result r = BVH_SUCCESS;
   for (int rep = 0; rep < 3 && r == BVH_SUCCESS; rep++) {
      double t0 = now();
      r = bvh_build(&in, mem, sizes.structure_size, &st);
      double t = now() - t0;
      best = t < best ? t : best;
   }
   if (r != BVH_SUCCESS) {
      printf("%-16s build failed: %s\n", name, bvh_result_name(r));
   } else {
      const struct ppu_bvh_header *h = mem;
      printf("%-11s %-4s %9u %9.1f %8.2f %9u %9u %7.1f %7.1f %6.2f %5u\n", name,
             fast ? "fast" : "sah", mesh.triangle_count, best * 1e3,
             mesh.triangle_count / best * 1e-6, st.node_count, st.leaf_child_count,
             h->total_size / 1048576.0, sizes.structure_size / 1048576.0, st.sah_cost,
             st.max_depth);
   }
   free(mem);
   free(soup);
   obj_mesh_free(&mesh);
}

int main(int argc, char **argv)
{
   const char *defaults[] = {"bunny", "sibenik", "dabrovic_sponza", "conference"};
   uint32_t threads = 0;
   int first = 1;
   bool both = false;
   for (;;) {
      if (argc > first + 1 && strcmp(argv[first], "--threads") == 0) {
         threads = (uint32_t)strtoul(argv[first + 1], NULL, 10);
         first += 2;
      } else if (argc > first && strcmp(argv[first], "--fast") == 0) {
         both = true;
         first++;
      } else {
         break;
      }
   }
   printf("threads: %u%s\n", threads, threads ? "" : " (builder default)");
   printf("%-16s %9s %9s %8s %9s %9s %7s %7s %6s %5s\n", "scene", "tris", "build_ms", "Mtris/s",
          "nodes", "leaves", "MiB", "max_MiB", "SAH", "depth");
   int count = argc > first ? argc - first : (int)(sizeof(defaults) / sizeof(defaults[0]));
   for (int i = 0; i < count; i++) {
      const char *name = argc > first ? argv[first + i] : defaults[i];
      bench(name, threads, false);
      if (both)
         bench(name, threads, true);
   }
   return 0;
}
