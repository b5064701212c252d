/* The tree traversal unit through the TTU instruction: closest hits against
 * a brute-force reference over random triangles in rotated and scaled
 * instances, every ray flag, cull masks and instance flags, non-opaque
 * triangle and AABB candidates with CONFIRM / GENERATE, TERMINATE_ON_FIRST_HIT,
 * empty and null top levels, the instruction's text form and the TTU
 * counters. Faults are in test_ttu_faults.c. */
#include <stdio.h>

#include "ppu/isa.h"
#include "ppu_asm.h"
#include "ttu_test_scene.h"

#define RAYS 512

static struct hwc h;
static struct ts_blas blas_a, blas_b, blas_box;
static struct ts_scene scene;
static struct ts_ray rays[RAYS];
static struct ts_result res[RAYS];

static void add_instance(struct ts_scene *s, const struct ts_blas *b, uint32_t mask, uint32_t flags,
                         const float axis[3], float angle, const float scale[3],
                         const float move[3])
{
   uint32_t i = s->instance_count++;
   struct ppu_bvh_instance *in = &s->inst[i];
   memset(in, 0, sizeof(*in));
   ts_transform(in, axis, angle, scale, move);
   in->blas_address = b->va;
   in->custom_index_and_mask = (1000 + i) | mask << 24;
   in->sbt_offset_and_flags = (20 + i) | flags << 24;
   s->blas[i] = b;
}

/* Five instances of two triangle structures: rotations about oblique axes,
 * non-uniform scales, one instance flag each (none, CULL_DISABLE,
 * FLIP_FACING, FORCE_OPAQUE, FORCE_NO_OPAQUE) and masks 1, 2, 4, 3, 0x80. */
static void triangle_scene(bool all_opaque, bool with_instance_flags)
{
   memset(&scene, 0, sizeof(scene));
   ts_random_triangles(&h, &blas_a, 200, 11, all_opaque);
   ts_random_triangles(&h, &blas_b, 150, 23, all_opaque);
   const uint32_t f[5] = {0, PPU_BVH_INSTANCE_CULL_DISABLE, PPU_BVH_INSTANCE_FLIP_FACING,
                          PPU_BVH_INSTANCE_FORCE_OPAQUE, PPU_BVH_INSTANCE_FORCE_NO_OPAQUE};
   const float ax[5][3] = {{1, 1, 0}, {0, 1, 0}, {1, 0, 1}, {0, 0, 1}, {1, 2, 3}};
   const float sc[5][3] = {
       {1, 1, 1}, {2, 0.5f, 1}, {0.7f, 0.7f, 0.7f}, {1, 1, 3}, {1.5f, 1.5f, 1.5f}};
   const float mv[5][3] = {{-2, 0, 0}, {2, 0, 0}, {0, 2, 0}, {0, -2, 1}, {0, 0, -2}};
   const float angle[5] = {0.3f, 1.2f, 2.0f, -0.7f, 0.0f};
   const uint32_t mask[5] = {0x01, 0x02, 0x04, 0x03, 0x80};
   for (unsigned i = 0; i < 5; i++)
      add_instance(&scene, i % 2 ? &blas_b : &blas_a, mask[i], with_instance_flags ? f[i] : 0,
                   ax[i], angle[i], sc[i], mv[i]);
   ts_build_tlas(&h, &scene);
}

/* Rays from around the scene towards random points inside it, unnormalized
 * directions, some with tmin > 0 or a short tmax, some axis-aligned. */
static void make_rays(uint64_t seed, uint32_t flags, uint32_t cull_mask)
{
   for (uint32_t i = 0; i < RAYS; i++) {
      struct ts_ray *r = &rays[i];
      r->tlas = scene.tlas;
      r->flags = flags;
      r->cull_mask = cull_mask;
      float target[3];
      for (unsigned a = 0; a < 3; a++) {
         r->org[a] = ts_rand(&seed, -6, 6);
         target[a] = ts_rand(&seed, -3, 3);
      }
      float scale = ts_rand(&seed, 0.25f, 3.0f);
      for (unsigned a = 0; a < 3; a++)
         r->dir[a] = (target[a] - r->org[a]) * scale;
      if (i % 16 == 5) { /* axis-aligned: zero direction components */
         unsigned a = i / 16 % 3;
         r->dir[0] = r->dir[1] = r->dir[2] = 0;
         r->dir[a] = r->org[a] > 0 ? -1.0f : 1.0f;
      }
      r->tmin = i % 4 == 1 ? ts_rand(&seed, 0, 0.5f) : 0;
      r->tmax = i % 8 == 3 ? ts_rand(&seed, 0.5f, 1.5f) : 1e30f;
   }
}

static bool near_t(double a, double b)
{
   return fabs(a - b) <= 1e-4 * fmax(1.0, fabs(b));
}

/* Compares every result with the reference. first_hit: any acceptable hit
 * will do (TERMINATE_ON_FIRST_HIT), not only the closest. Returns how many
 * rays hit. */
static uint32_t check_results(const struct ts_policy *pol, bool first_hit, const char *what)
{
   uint32_t hits = 0, failures = 0;
   static struct ts_hit all[4096];
   for (uint32_t i = 0; i < RAYS && failures < 5; i++) {
      const struct ts_ray *r = &rays[i];
      const struct ppu_ray_query_hit *c = &res[i].committed;
      struct ts_hit best;
      uint32_t n = ts_reference(&scene, r, pol, &best, all, 4096);
      bool ok = res[i].state == PPU_RQ_STATE_DONE;
      if (!best.hit) {
         ok = ok && c->type == PPU_RQ_COMMITTED_NONE && c->t == r->tmax;
         if (!ok) {
            failures++;
            CHECK_MSG(false, "%s: ray %u: expected a miss, got type %u t %g prim %u inst %u", what,
                      i, res[i].state == 3 ? c->type : 99, c->t, c->primitive_index,
                      c->instance_id);
         }
         continue;
      }
      hits++;
      const struct ts_hit *m = NULL;
      for (uint32_t k = 0; k < n && k < 4096; k++)
         if (all[k].instance == c->instance_id && all[k].primitive == c->primitive_index &&
             near_t(c->t, all[k].t))
            m = &all[k];
      ok = ok && m && (first_hit || near_t(c->t, best.t));
      if (ok) {
         const struct ts_blas *b = scene.blas[m->instance];
         const struct ppu_bvh_instance *in = &scene.inst[m->instance];
         bool tri = b->kind == PPU_BVH_KIND_TRIANGLES;
         ok = c->type == (tri ? PPU_RQ_COMMITTED_TRIANGLE : PPU_RQ_COMMITTED_GENERATED) &&
              c->instance_custom_index == (in->custom_index_and_mask & 0xffffff) &&
              c->sbt_offset == (in->sbt_offset_and_flags & 0xffffff) &&
              c->instance_address == scene.inst_va[m->instance] &&
              c->geometry_index == (tri ? m->primitive % 3 : 7);
         if (tri)
            ok = ok && c->front_face == m->front && fabs(c->barycentrics[0] - m->u) < 1e-3 &&
                 fabs(c->barycentrics[1] - m->v) < 1e-3;
         /* primitive_address names the very record hit (position fetch reads
          * the vertices from it): the bytes there are the reference's. */
         if (ok && tri) {
            struct ppu_bvh_triangle rec;
            hwt_read(&h.t.mem, h.t.pd, c->primitive_address, &rec, sizeof(rec));
            ok = memcmp(&rec, &b->tri[m->primitive], sizeof(rec)) == 0;
         } else if (ok) {
            struct ppu_bvh_aabb rec;
            hwt_read(&h.t.mem, h.t.pd, c->primitive_address, &rec, sizeof(rec));
            ok = memcmp(&rec, &b->box[m->primitive], sizeof(rec)) == 0;
         }
         for (unsigned a = 0; a < 3 && ok; a++) {
            double o = in->world_to_object[a][3], d = 0;
            for (unsigned k = 0; k < 3; k++) {
               o += (double)in->world_to_object[a][k] * r->org[k];
               d += (double)in->world_to_object[a][k] * r->dir[k];
            }
            ok = fabs(c->object_origin[a] - o) < 1e-3 * fmax(1, fabs(o)) &&
                 fabs(c->object_direction[a] - d) < 1e-3 * fmax(1, fabs(d));
         }
      }
      if (!ok) {
         failures++;
         CHECK_MSG(false,
                   "%s: ray %u: got type %u t %.9g inst %u prim %u front %u (state %u); reference "
                   "t %.9g inst %u prim %u front %u",
                   what, i, c->type, c->t, c->instance_id, c->primitive_index, c->front_face,
                   res[i].state, best.t, best.instance, best.primitive, best.front);
      }
   }
   return hits;
}

TEST_CASE(closest_opaque_hit_matches_brute_force_through_rotated_and_scaled_instances)
{
   REQUIRE(hwc_init(&h, NULL));
   triangle_scene(true, false);
   make_rays(7, 0, 0xff);
   uint64_t before[PPU_COUNTER_COUNT];
   for (unsigned i = 0; i < PPU_COUNTER_COUNT; i++)
      before[i] = hwt_counter(&h.t, i);
   struct ts_policy pol = {3, 0};
   REQUIRE(ts_run(&h, ts_program, rays, RAYS, pol.m, pol.k, res, NULL, NULL));
   uint32_t hits = check_results(&pol, false, "opaque");
   CHECK_MSG(hits > RAYS / 3 && hits < RAYS, "%u of %u rays hit", hits, RAYS);
   for (uint32_t i = 0; i < RAYS; i++)
      CHECK_EQ_U64(res[i].candidates, 0); /* opaque hits never reach the shader */
#define DELTA(id) (hwt_counter(&h.t, PPU_COUNTER_##id) - before[PPU_COUNTER_##id])
   CHECK_EQ_U64(DELTA(TTU_RAYS), RAYS);
   CHECK_EQ_U64(DELTA(TTU_PROCEEDS), RAYS);
   CHECK_EQ_U64(DELTA(TTU_TRIANGLE_CANDIDATES), 0);
   CHECK(DELTA(TTU_NODE_FETCHES) > RAYS);
   CHECK(DELTA(TTU_BOX_TESTS) > DELTA(TTU_NODE_FETCHES));
   CHECK(DELTA(TTU_TRIANGLE_TESTS) > hits);
   CHECK(DELTA(TTU_INSTANCE_TRANSFORMS) > hits / 2);
   CHECK(DELTA(TTU_L0_HITS) > 0 && DELTA(TTU_L0_MISSES) > 0);
   /* Every node fetch is one line; records and headers add more. */
   CHECK(DELTA(TTU_L0_HITS) + DELTA(TTU_L0_MISSES) > DELTA(TTU_NODE_FETCHES));
#undef DELTA
   hwc_finish(&h);
}

TEST_CASE(ray_flags_cull_masks_and_instance_flags_follow_the_vulkan_rules)
{
   REQUIRE(hwc_init(&h, NULL));
   triangle_scene(false, true);
   static const struct {
      uint32_t flags, cull, m, k;
      bool first_hit;
      const char *what;
   } cfg[] = {
       {0, 0xff, 3, 0, false, "no flags, 2/3 of non-opaque confirmed"},
       {PPU_RAY_FLAG_OPAQUE, 0xff, 1, 0, false, "OPAQUE"},
       {PPU_RAY_FLAG_NO_OPAQUE, 0xff, 3, 1, false, "NO_OPAQUE"},
       {PPU_RAY_FLAG_CULL_BACK_FACING, 0xff, 1, 1, false, "CULL_BACK_FACING"},
       {PPU_RAY_FLAG_CULL_FRONT_FACING, 0xff, 1, 1, false, "CULL_FRONT_FACING"},
       {PPU_RAY_FLAG_CULL_OPAQUE, 0xff, 1, 1, false, "CULL_OPAQUE"},
       {PPU_RAY_FLAG_CULL_NO_OPAQUE, 0xff, 1, 1, false, "CULL_NO_OPAQUE"},
       {PPU_RAY_FLAG_SKIP_AABBS, 0xff, 2, 0, false, "SKIP_AABBS (no effect on triangles)"},
       {PPU_RAY_FLAG_SKIP_TRIANGLES, 0xff, 1, 1, false, "SKIP_TRIANGLES"},
       {0, 0x01, 1, 1, false, "cull mask 0x01"},
       {0, 0x06, 1, 1, false, "cull mask 0x06"},
       {0, 0x100, 1, 1, false, "cull mask 0x100 (only the low 8 bits count)"},
       {PPU_RAY_FLAG_TERMINATE_ON_FIRST_HIT | PPU_RAY_FLAG_OPAQUE, 0xff, 1, 0, true,
        "TERMINATE_ON_FIRST_HIT | OPAQUE"},
       {PPU_RAY_FLAG_TERMINATE_ON_FIRST_HIT, 0xff, 3, 0, true,
        "TERMINATE_ON_FIRST_HIT with confirmed candidates"},
   };
   for (unsigned c = 0; c < sizeof(cfg) / sizeof(cfg[0]); c++) {
      make_rays(100 + c, cfg[c].flags, cfg[c].cull);
      struct ts_policy pol = {cfg[c].m, cfg[c].k};
      REQUIRE(ts_run(&h, ts_program, rays, RAYS, pol.m, pol.k, res, NULL, NULL));
      uint32_t hits = check_results(&pol, cfg[c].first_hit, cfg[c].what);
      bool none = (cfg[c].flags & PPU_RAY_FLAG_SKIP_TRIANGLES) || (cfg[c].cull & 0xff) == 0;
      CHECK_MSG(none ? hits == 0 : hits > RAYS / 10, "%s: %u hits", cfg[c].what, hits);
   }
   hwc_finish(&h);
}

TEST_CASE(non_opaque_triangles_reach_the_shader_and_only_confirmed_ones_commit)
{
   REQUIRE(hwc_init(&h, NULL));
   triangle_scene(false, false);
   make_rays(77, 0, 0xff);
   /* Nothing confirmed: the result is the closest opaque hit. */
   struct ts_policy never = {1, 0}, always = {1, 1}, some = {4, 1};
   REQUIRE(ts_run(&h, ts_program, rays, RAYS, never.m, never.k, res, NULL, NULL));
   check_results(&never, false, "none confirmed");
   uint64_t candidates = 0;
   for (uint32_t i = 0; i < RAYS; i++)
      candidates += res[i].candidates;
   CHECK(candidates > RAYS / 4);
   REQUIRE(ts_run(&h, ts_program, rays, RAYS, always.m, always.k, res, NULL, NULL));
   check_results(&always, false, "all confirmed");
   REQUIRE(ts_run(&h, ts_program, rays, RAYS, some.m, some.k, res, NULL, NULL));
   check_results(&some, false, "a quarter ignored");
   hwc_finish(&h);
}

TEST_CASE(aabb_candidates_commit_only_through_generate_at_the_shader_t)
{
   REQUIRE(hwc_init(&h, NULL));
   memset(&scene, 0, sizeof(scene));
   ts_random_aabbs(&h, &blas_box, 120, 5);
   ts_random_triangles(&h, &blas_a, 100, 6, false);
   const float ax[3][3] = {{0, 0, 1}, {1, 1, 1}, {1, 0, 0}};
   const float sc[3][3] = {{1, 1, 1}, {0.5f, 2, 1}, {1, 1, 1}};
   const float mv[3][3] = {{-1.5f, 0, 0}, {1.5f, 0, 0}, {0, 0, 2}};
   const uint32_t flags[3] = {0, PPU_BVH_INSTANCE_FORCE_OPAQUE, 0};
   for (unsigned i = 0; i < 3; i++)
      add_instance(&scene, i == 2 ? &blas_a : &blas_box, 0xff, flags[i], ax[i], 0.4f * i, sc[i],
                   mv[i]);
   ts_build_tlas(&h, &scene);
   static const struct {
      uint32_t flags;
      const char *what;
   } cfg[] = {{0, "AABBs and triangles"},
              {PPU_RAY_FLAG_SKIP_AABBS, "SKIP_AABBS"},
              {PPU_RAY_FLAG_SKIP_TRIANGLES, "SKIP_TRIANGLES"},
              {PPU_RAY_FLAG_CULL_OPAQUE, "CULL_OPAQUE (opaque AABBs dropped)"},
              {PPU_RAY_FLAG_CULL_NO_OPAQUE, "CULL_NO_OPAQUE"}};
   for (unsigned c = 0; c < sizeof(cfg) / sizeof(cfg[0]); c++) {
      make_rays(300 + c, cfg[c].flags, 0xff);
      struct ts_policy pol = {3, 0};
      REQUIRE(ts_run(&h, ts_program, rays, RAYS, pol.m, pol.k, res, NULL, NULL));
      uint32_t hits = check_results(&pol, false, cfg[c].what);
      CHECK_MSG(hits > RAYS / 32, "%s: %u hits", cfg[c].what, hits);
   }
   /* The AABB opacity the shader sees: opaque records, or all of the
    * FORCE_OPAQUE instance. One ray straight into an opaque box of
    * instance 0 that confirms nothing. */
   make_rays(400, 0, 0xff);
   struct ts_policy none = {1, 0};
   REQUIRE(ts_run(&h, ts_program, rays, RAYS, none.m, none.k, res, NULL, NULL));
   check_results(&none, false, "nothing generated: only opaque triangles commit");
   /* A GENERATE at a t beyond the committed t (here: beyond tmax) is
    * dropped. */
   const char *from = "TTU.GENERATE RZ, RZ, R24";
   const char *at = strstr(ts_program, from);
   REQUIRE(at);
   char prog[sizeof(ts_program) + 64];
   snprintf(prog, sizeof(prog), "%.*sTTU.GENERATE RZ, RZ, 0x7f7fffff%s", (int)(at - ts_program),
            ts_program, at + strlen(from));
   for (uint32_t i = 0; i < RAYS; i++)
      rays[i].flags = PPU_RAY_FLAG_SKIP_TRIANGLES;
   struct ts_policy all = {1, 1};
   REQUIRE(ts_run(&h, prog, rays, RAYS, all.m, all.k, res, NULL, NULL));
   uint32_t generated = 0, candidates = 0;
   for (uint32_t i = 0; i < RAYS; i++) {
      generated += res[i].committed.type != PPU_RQ_COMMITTED_NONE;
      candidates += res[i].candidates;
   }
   CHECK_EQ_U64(generated, 0);
   CHECK(candidates > RAYS / 4);
   hwc_finish(&h);
}

TEST_CASE(empty_or_null_top_level_and_culled_instances_miss_with_committed_t_equal_tmax)
{
   REQUIRE(hwc_init(&h, NULL));
   memset(&scene, 0, sizeof(scene));
   scene.tlas = tb_build(&h, PPU_BVH_KIND_INSTANCES, NULL, sizeof(struct ppu_bvh_instance), 0, NULL,
                         NULL, 1);
   uint64_t empty = scene.tlas;
   triangle_scene(true, false);
   for (unsigned c = 0; c < 3; c++) {
      make_rays(500 + c, 0, c == 2 ? 0x08 : 0xff); /* no instance has mask bit 3 */
      for (uint32_t i = 0; i < RAYS; i++)
         rays[i].tlas = c == 0 ? empty : c == 1 ? 0 : scene.tlas;
      REQUIRE(ts_run(&h, ts_program, rays, RAYS, 1, 1, res, NULL, NULL));
      for (uint32_t i = 0; i < RAYS; i++) {
         CHECK_EQ_U64(res[i].state, PPU_RQ_STATE_DONE);
         CHECK_EQ_U64(res[i].committed.type, PPU_RQ_COMMITTED_NONE);
         CHECK(res[i].committed.t == rays[i].tmax);
         CHECK_EQ_U64(res[i].candidates, 0);
      }
   }
   hwc_finish(&h);
}

TEST_CASE(ttu_instruction_disassembles_and_assembles_with_its_subop_names)
{
   struct ppu_insn_fields f;
   ppu_insn_fields_init(&f, PPU_OP_TTU);
   f.subop = PPU_TTU_PROCEED;
   f.rd = 4;
   f.ra = 2;
   uint32_t w[4];
   ppu_insn_encode(&f, w);
   char text[96];
   ppu_disasm_insn(w, text, sizeof(text));
   CHECK_MSG(!strcmp(text, "TTU.PROCEED R4, R2, RZ"), "%s", text);
   static const char *const names[] = {"INIT", "PROCEED", "CONFIRM", "GENERATE", "TERMINATE"};
   for (unsigned op = 0; op < PPU_TTU_COUNT; op++) {
      char src[64];
      snprintf(src, sizeof(src), "TTU.%s R1, R2, R3\n", names[op]);
      uint32_t out[4];
      size_t n;
      char err[128];
      REQUIRE(ppu_asm(src, out, 1, &n, err, sizeof(err)));
      struct ppu_insn_fields d;
      REQUIRE(ppu_insn_decode(out, &d, NULL));
      CHECK_EQ_U64(d.op, PPU_OP_TTU);
      CHECK_EQ_U64(d.subop, op);
   }
   f.subop = PPU_TTU_COUNT; /* beyond the subops */
   ppu_insn_encode(&f, w);
   CHECK(!ppu_insn_decode(w, &f, NULL));
   ppu_insn_fields_init(&f, PPU_OP_TTU);
   f.type = PPU_TYPE_F32;
   ppu_insn_encode(&f, w);
   CHECK(!ppu_insn_decode(w, &f, NULL));
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
