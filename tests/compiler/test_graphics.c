/* Vertex and fragment stages (drv_compile_graphics): the metadata the
 * driver puts in the program descriptors (docs/graphics-hw.md "Program
 * descriptor"), the registers the hardware reads, and failures with
 * messages for what cannot link or is unsupported. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler_test_util.h"
#include "ppu/graphics.h"
#include "test_harness.h"

/* VkFormat values. */
#define VK_R32G32B32A32_SFLOAT 109u
#define VK_R32G32_SFLOAT 103u
#define VK_R32G32B32_SFLOAT 106u
#define VK_R8G8B8A8_UINT 41u
#define VK_R64_SFLOAT 113u

struct pair {
   const char *vs, *fs; /* fs NULL: no fragment stage */
   struct drv_vertex_attribute attrs[4];
   uint32_t attr_count;
   uint32_t samples;
   bool robust;
   uint32_t sample_shading; /* the request's */
};

static int compile_pair(const struct pair *p, struct drv_graphics_binary *out, char *err,
                        size_t err_size)
{
   size_t vn = 0, fn = 0;
   uint32_t *vw = ctu_load_spirv(p->vs, &vn), *fw = p->fs ? ctu_load_spirv(p->fs, &fn) : NULL;
   struct drv_binding_layout b[2] = {{0, 0, DRV_BINDING_UNIFORM_BUFFER, 0, 1, -1},
                                     {0, 1, DRV_BINDING_COMBINED_IMAGE_SAMPLER, 64, 1, -1}};
   if (p->fs && strstr(p->fs, "demote"))
      b[0].kind = DRV_BINDING_STORAGE_BUFFER;
   struct drv_pipeline_abi abi = {b, 2, 0, p->robust};
   struct drv_vertex_binding bind[2] = {{0, 0, 1}, {1, 1, 2}};
   struct drv_graphics_compile_request req = {
       .vertex = {.spirv = vw, .word_count = vn, .entry_point = "main", .abi = &abi},
       .fragment = {.spirv = fw, .word_count = fn, .entry_point = "main"},
       .attributes = p->attrs,
       .attribute_count = p->attr_count,
       .bindings = bind,
       .binding_count = 2,
       .samples = p->samples ? p->samples : 1,
       .sample_shading = p->sample_shading,
   };
   int rc = vw && (fw || !p->fs) ? drv_compile_graphics(&req, out, err, err_size) : -1;
   free(vw);
   free(fw);
   return rc;
}

/* Compiles p, which must succeed (a test failure with the message if not). */
static bool compile_ok(const struct pair *p, struct drv_graphics_binary *g)
{
   char err[256] = "";
   int rc = compile_pair(p, g, err, sizeof(err));
   CHECK_MSG(rc == 0, "%s/%s: %s", p->vs, p->fs ? p->fs : "-", err);
   return rc == 0;
}

static const struct pair cube = {"gfx_cube_vs",
                                 "gfx_cube_fs",
                                 {{0, 0, VK_R32G32B32A32_SFLOAT, 0}, {1, 0, VK_R32G32_SFLOAT, 16}},
                                 2,
                                 1,
                                 false,
                                 0};

TEST_CASE(textured_cube_links_one_slot)
{
   struct drv_graphics_binary g;
   if (!compile_ok(&cube, &g))
      return;
   CHECK(g.vertex.code && g.vertex.code_words > 0);
   CHECK(g.fragment.code && g.fragment.code_words > 0);
   CHECK_EQ_U64(g.vertex_info.attribute_count, 1);
   CHECK_EQ_U64(g.fragment_info.attribute_count, 1);
   CHECK_EQ_U64(g.slot_location[0], 0);
   CHECK_EQ_U64(g.fragment_info.output_mask, 1);
   CHECK_EQ_U64(g.fragment_info.interpolation, PPU_GFX_INTERP_PERSPECTIVE);
   CHECK_EQ_U64(g.fragment_info.flags, 0);
   CHECK_EQ_U64(g.fragment_info.sample_shading, 0);
   /* Launch registers R0..R6 / R0..R7 and target 0's R0..R3. */
   CHECK(g.vertex.register_count >= 7);
   CHECK(g.fragment.register_count >= 8);
   CHECK_EQ_U64(g.clip_distance_count, 0);
   drv_graphics_binary_free(&g);
}

TEST_CASE(interpolation_qualifiers_and_instancing_builtins)
{
   struct pair p = {"gfx_varyings_vs",
                    "gfx_varyings_fs",
                    {{0, 0, VK_R32G32B32_SFLOAT, 0}, {1, 1, VK_R8G8B8A8_UINT, 0}},
                    2,
                    4,
                    true,
                    0};
   struct drv_graphics_binary g;
   if (!compile_ok(&p, &g))
      return;
   /* Fragment reads locations 0, 1, 2, 4 -> slots 0..3; location 3 dropped. */
   CHECK_EQ_U64(g.fragment_info.attribute_count, 4);
   CHECK_EQ_U64(g.vertex_info.attribute_count, 4);
   CHECK_EQ_U64(g.slot_location[0], 0);
   CHECK_EQ_U64(g.slot_location[1], 1);
   CHECK_EQ_U64(g.slot_location[2], 2);
   CHECK_EQ_U64(g.slot_location[3], 4);
   uint64_t want = (uint64_t)PPU_GFX_INTERP_FLAT | (uint64_t)PPU_GFX_INTERP_NOPERSPECTIVE << 2 |
                   (uint64_t)PPU_GFX_INTERP_PERSPECTIVE << 4 |
                   (uint64_t)PPU_GFX_INTERP_PERSPECTIVE << 6;
   CHECK_EQ_U64(g.fragment_info.interpolation, want);
   CHECK_EQ_U64(g.fragment_info.centroid_mask, 1u << 2);
   CHECK_EQ_U64(g.fragment_info.output_mask, 0x5);
   CHECK(g.fragment.register_count >= 12); /* target 2 in R8..R11 */
   CHECK_EQ_U64(g.clip_distance_count, 2);
   drv_graphics_binary_free(&g);
}

/* Clip and cull distances share the header's 8 (the clip ones first); a
 * fragment program reading them gets slots at their pseudo-locations,
 * after the user varyings, perspective-interpolated. */
TEST_CASE(clip_and_cull_distances_fill_the_header_and_link_to_fragment_slots)
{
   struct pair p = {
       "gfx_distances_vs", "gfx_distances_fs", {{0, 0, VK_R32G32B32A32_SFLOAT, 0}}, 1, 1, false, 0};
   struct drv_graphics_binary g;
   if (!compile_ok(&p, &g))
      return;
   CHECK_EQ_U64(g.clip_distance_count, 3);
   CHECK_EQ_U64(g.cull_distance_count, 2);
   /* Location 1, then one slot of clip and one of cull distances. */
   CHECK_EQ_U64(g.fragment_info.attribute_count, 3);
   CHECK_EQ_U64(g.vertex_info.attribute_count, 3);
   CHECK_EQ_U64(g.slot_location[0], 1);
   CHECK_EQ_U64(g.slot_location[1], DRV_GFX_LOCATION_CLIP_DISTANCE);
   CHECK_EQ_U64(g.slot_location[2], DRV_GFX_LOCATION_CULL_DISTANCE);
   CHECK_EQ_U64(g.fragment_info.interpolation,
                (uint64_t)PPU_GFX_INTERP_PERSPECTIVE * (1u | 1u << 2 | 1u << 4));
   drv_graphics_binary_free(&g);
}

TEST_CASE(discard_depth_and_derivatives)
{
   struct pair p = cube;
   p.fs = "gfx_discard_fs";
   struct drv_graphics_binary g;
   if (!compile_ok(&p, &g))
      return;
   CHECK_EQ_U64(g.fragment_info.flags, PPU_GFX_PROGRAM_WRITES_DEPTH | PPU_GFX_PROGRAM_MAY_DISCARD);
   CHECK(g.fragment.register_count >= 35); /* R32 depth, R34 coverage */
   drv_graphics_binary_free(&g);
}

TEST_CASE(demote_early_tests_and_side_effects)
{
   struct pair p = cube;
   p.fs = "gfx_demote_fs";
   struct drv_graphics_binary g;
   if (!compile_ok(&p, &g))
      return;
   CHECK_EQ_U64(g.fragment_info.flags, PPU_GFX_PROGRAM_MAY_DISCARD | PPU_GFX_PROGRAM_EARLY_TESTS |
                                           PPU_GFX_PROGRAM_SIDE_EFFECTS);
   drv_graphics_binary_free(&g);
}

TEST_CASE(sample_builtins_and_sample_mask)
{
   struct pair p = cube;
   p.fs = "gfx_samples_fs";
   struct drv_graphics_binary g;
   if (!compile_ok(&p, &g))
      return;
   CHECK_EQ_U64(g.fragment_info.flags, PPU_GFX_PROGRAM_WRITES_SAMPLE_MASK);
   CHECK_EQ_U64(g.fragment_info.sample_shading, 1); /* gl_SampleID implies it */
   CHECK_EQ_U64(g.fragment_info.attribute_count, 0);
   CHECK_EQ_U64(g.vertex_info.attribute_count, 0);
   CHECK(g.fragment.register_count >= 34);
   drv_graphics_binary_free(&g);
}

/* Per-sample shading: asked for by the pipeline, or implied by a `sample`
 * input or SamplePosition (Vulkan "Sample Shading"); interpolateAt* alone
 * does not imply it. */
TEST_CASE(sample_shading_requested_or_implied)
{
   static const char *const fs[] = {"gfx_cube_fs", "gfx_sample_in_fs", "gfx_interpolate_fs"};
   for (uint32_t samples = 1; samples <= 4; samples += 3) {
      for (uint32_t k = 0; k < 3; k++) {
         for (uint32_t request = 0; request < 2; request++) {
            struct pair p = cube;
            p.fs = fs[k];
            p.samples = samples;
            p.sample_shading = request;
            struct drv_graphics_binary g;
            if (!compile_ok(&p, &g))
               continue;
            uint32_t want = request || k == 1 ? 1u : 0u;
            CHECK_MSG(g.fragment_info.sample_shading == want, "%s at %ux, request %u: %u", fs[k],
                      samples, request, g.fragment_info.sample_shading);
            CHECK_EQ_U64(g.fragment_info.attribute_count, 1);
            drv_graphics_binary_free(&g);
         }
      }
   }
}

TEST_CASE(vertex_only_pipeline)
{
   struct pair p = cube;
   p.fs = NULL;
   struct drv_graphics_binary g;
   if (!compile_ok(&p, &g))
      return;
   CHECK(g.fragment.code == NULL);
   CHECK_EQ_U64(g.vertex_info.attribute_count, 0);
   drv_graphics_binary_free(&g);
}

static void expect_failure(const struct pair *p, const char *needle)
{
   struct drv_graphics_binary g;
   char err[256] = "";
   int rc = compile_pair(p, &g, err, sizeof(err));
   CHECK_MSG(rc != 0, "%s/%s compiled", p->vs, p->fs ? p->fs : "-");
   CHECK_MSG(strstr(err, needle) != NULL, "message \"%s\" lacks \"%s\"", err, needle);
   if (!rc)
      drv_graphics_binary_free(&g);
}

TEST_CASE(invalid_combinations_fail_with_messages)
{
   struct pair p = cube;
   p.fs = "gfx_mismatch_fs";
   expect_failure(&p, "location 5");
   p = cube;
   p.attrs[1].format = VK_R64_SFLOAT;
   expect_failure(&p, "unsupported vertex format 113");
   p = cube;
   p.attr_count = 1;
   expect_failure(&p, "location 1 has no attribute");
   p = cube;
   p.attrs[1].binding = 7;
   expect_failure(&p, "binding 7");
   p = cube;
   p.samples = 2;
   expect_failure(&p, "samples");
   /* Stages swapped: no Vertex entry point in a fragment module. */
   p = cube;
   p.vs = "gfx_cube_fs";
   expect_failure(&p, "no Vertex entry point");
   p = cube;
   p.fs = "gfx_interpolate_dynamic_fs";
   p.samples = 4;
   expect_failure(&p, "unsupported interpolant");
}

static int compile_fragment_corrupt(const uint32_t *words, size_t count, char *err, size_t err_size)
{
   size_t vn = 0;
   uint32_t *vw = ctu_load_spirv("gfx_cube_vs", &vn);
   struct drv_binding_layout b[2] = {{0, 0, DRV_BINDING_UNIFORM_BUFFER, 0, 1, -1},
                                     {0, 1, DRV_BINDING_COMBINED_IMAGE_SAMPLER, 64, 1, -1}};
   struct drv_pipeline_abi abi = {b, 2, 0, 0};
   struct drv_vertex_binding bind = {0, 0, 1};
   struct drv_graphics_compile_request req = {
       .vertex = {.spirv = vw, .word_count = vn, .entry_point = "main", .abi = &abi},
       .fragment = {.spirv = words, .word_count = count, .entry_point = "main"},
       .attributes = cube.attrs,
       .attribute_count = 2,
       .bindings = &bind,
       .binding_count = 1,
       .samples = 4,
   };
   struct drv_graphics_binary g;
   int rc = drv_compile_graphics(&req, &g, err, err_size);
   if (!rc)
      drv_graphics_binary_free(&g);
   free(vw);
   return rc;
}

TEST_CASE(corrupted_fragment_shaders_never_crash)
{
   ctu_check_corruptions("gfx_varyings_fs", 7, 150, compile_fragment_corrupt);
   /* interpolateAt* with damaged pointers, indices and types. */
   ctu_check_corruptions("gfx_interpolate_fs", 13, 150, compile_fragment_corrupt);
   ctu_check_corruptions("gfx_discard_fs", 11, 150, compile_fragment_corrupt);
}

/* gl_PointCoord is one more fragment slot after the varyings: the vertex
 * program does not write it (setup fills its planes), it is noperspective,
 * and the descriptor names it with POINT_COORD. */
TEST_CASE(point_coord_takes_the_slot_after_the_varyings)
{
   struct pair p = cube;
   p.fs = "gfx_point_coord_fs";
   struct drv_graphics_binary g;
   if (!compile_ok(&p, &g))
      return;
   CHECK_EQ_U64(g.vertex_info.attribute_count, 1);
   CHECK_EQ_U64(g.fragment_info.attribute_count, 2);
   CHECK(g.fragment_info.flags & PPU_GFX_PROGRAM_POINT_COORD);
   CHECK_EQ_U64(g.fragment_info.point_coord_slot, 1);
   CHECK_EQ_U64((g.fragment_info.interpolation >> 2) & 3u, PPU_GFX_INTERP_NOPERSPECTIVE);
   CHECK_EQ_U64(g.slot_location[0], 0);
   CHECK(!(g.vertex_info.flags & PPU_GFX_PROGRAM_POINT_COORD));
   drv_graphics_binary_free(&g);
   /* Without gl_PointCoord, no such slot. */
   if (!compile_ok(&cube, &g))
      return;
   CHECK(!(g.fragment_info.flags & PPU_GFX_PROGRAM_POINT_COORD));
   CHECK_EQ_U64(g.fragment_info.attribute_count, 1);
   CHECK_EQ_U64(g.fragment_info.point_coord_slot, 0);
   drv_graphics_binary_free(&g);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
