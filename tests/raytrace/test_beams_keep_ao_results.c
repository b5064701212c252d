/* Warp beams (ttu.beam.enabled, hw/src/ttu/ttu_beam_walk.h) change no
 * result of ao.comp and no ray's walk: per pixel the AO result is the same
 * with beams off and on, every box and triangle test is made as before, and
 * each node read a ray makes is either a fetch or a read of its beam's
 * nodes: fetches_off = fetches_on - beam_node_fetches + beam_node_shares,
 * exactly. Primary rays (spp 0: one closest-hit ray per pixel, coherent in
 * a warp's tile) form beams and fetch fewer nodes; the AO rays of a pixel
 * spread over a hemisphere and are refused. Prints the primary rays' node
 * fetches per ray with beams off and on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_model.h"
#include "test_harness.h"

#define BEAM_NODES 64u

struct ao_run {
   struct rt_ao_measurement m;
   uint32_t *result;
};

/* One host thread: with more, which SM runs a workgroup depends on timing,
 * and with it the datapath switches (the TTU's last test kind carries from
 * one ray to the next) and the L0 counts. */
static bool run_ao(const struct obj_mesh *mesh, const struct scene_camera *cam, uint32_t size,
                   uint32_t spp, uint32_t beam_nodes, struct ao_run *out)
{
   struct rt_ao_bench b = {
       .width = size, .height = size, .spp = spp, .host_threads = 1, .beam_nodes = beam_nodes};
   out->result = malloc((size_t)size * size * 4);
   return out->result && rt_ao_measure(mesh, cam, &b, NULL, out->result, &out->m);
}

/* The counters a ray's own walk decides: equal with beams off and on. */
static const enum ppu_counter walk_counters[] = {
    PPU_COUNTER_TTU_RAYS,
    PPU_COUNTER_TTU_PROCEEDS,
    PPU_COUNTER_TTU_BOX_TESTS,
    PPU_COUNTER_TTU_TRIANGLE_TESTS,
    PPU_COUNTER_TTU_STACK_SPILLS,
    PPU_COUNTER_TTU_INSTANCE_TRANSFORMS,
    PPU_COUNTER_TTU_DATAPATH_SWITCHES,
};

/* Returns the node fetches per ray off and on. */
static void compare(const char *name, uint32_t size, uint32_t spp, double *per_ray_off,
                    double *per_ray_on, uint64_t *beams, uint64_t *refused)
{
   const struct scene_camera *cam;
   struct obj_mesh mesh;
   REQUIRE(rt_scene_open(name, &cam, &mesh) == 1);
   struct ao_run off = {0}, on = {0};
   if (run_ao(&mesh, cam, size, spp, 0, &off) && run_ao(&mesh, cam, size, spp, BEAM_NODES, &on)) {
      uint32_t differ = 0, first = 0;
      for (uint32_t i = 0; i < size * size; i++)
         if (off.result[i] != on.result[i] && differ++ == 0)
            first = i;
      CHECK_MSG(differ == 0, "%s spp %u: %u pixels differ, first %u: %u off, %u on", name, spp,
                differ, first, off.result[first], on.result[first]);
      const uint64_t *c0 = off.m.counters, *c1 = on.m.counters;
      for (size_t i = 0; i < sizeof(walk_counters) / sizeof(walk_counters[0]); i++)
         CHECK_MSG(c0[walk_counters[i]] == c1[walk_counters[i]],
                   "%s spp %u: counter %d: %llu off, %llu on", name, spp, (int)walk_counters[i],
                   (unsigned long long)c0[walk_counters[i]],
                   (unsigned long long)c1[walk_counters[i]]);
      uint64_t reads_on = c1[PPU_COUNTER_TTU_NODE_FETCHES] - c1[PPU_COUNTER_TTU_BEAM_NODE_FETCHES] +
                          c1[PPU_COUNTER_TTU_BEAM_NODE_SHARES];
      CHECK_MSG(reads_on == c0[PPU_COUNTER_TTU_NODE_FETCHES],
                "%s spp %u: the rays read %llu nodes with beams on, %llu off", name, spp,
                (unsigned long long)reads_on, (unsigned long long)c0[PPU_COUNTER_TTU_NODE_FETCHES]);
      CHECK_EQ_U64(c0[PPU_COUNTER_TTU_BEAMS] + c0[PPU_COUNTER_TTU_BEAM_NODE_SHARES], 0);
      uint64_t rays = c0[PPU_COUNTER_TTU_RAYS];
      *per_ray_off = rays ? (double)c0[PPU_COUNTER_TTU_NODE_FETCHES] / (double)rays : 0;
      *per_ray_on = rays ? (double)c1[PPU_COUNTER_TTU_NODE_FETCHES] / (double)rays : 0;
      *beams = c1[PPU_COUNTER_TTU_BEAMS];
      *refused = c1[PPU_COUNTER_TTU_BEAMS_REFUSED];
      printf("  %s %ux%u spp %u: %llu rays, node fetches per ray %.2f off, %.2f on (beams %llu, "
             "refused %llu, beam fetches %llu, shared reads %llu)\n",
             name, size, size, spp, (unsigned long long)rays, *per_ray_off, *per_ray_on,
             (unsigned long long)*beams, (unsigned long long)*refused,
             (unsigned long long)c1[PPU_COUNTER_TTU_BEAM_NODE_FETCHES],
             (unsigned long long)c1[PPU_COUNTER_TTU_BEAM_NODE_SHARES]);
   }
   free(off.result);
   free(on.result);
   obj_mesh_free(&mesh);
}

static void check_scene(const char *name, uint32_t size)
{
   double off, on;
   uint64_t beams = 0, refused = 0;
   /* Primary rays only: beams form and pay. */
   compare(name, size, 0, &off, &on, &beams, &refused);
   CHECK_MSG(beams > 0 && on < off,
             "%s primary rays: %llu beams, %.2f fetches per ray on, %.2f off", name,
             (unsigned long long)beams, on, off);
   /* With AO rays: their warps are refused, nothing changes for them. */
   compare(name, size, 4, &off, &on, &beams, &refused);
   CHECK(beams > 0 && refused > 0);
}

TEST_CASE(ao_results_and_ray_walks_are_identical_with_beams_on_and_off)
{
   const char *dir;
   if (!rt_scenes_available(&dir)) {
      printf("SKIP: no scenes directory %s\n", dir);
      return;
   }
   /* 64x64 even in the sanitizer build: at 32x32 a warp's 8x4 pixels
    * span more than the beam's coherence limit (ttu_beam_walk.c) and every
    * primary warp is refused. */
   uint32_t size = 64;
   check_scene("cornell_tiny", size);
   check_scene("teapot", size);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
