/* TTU faults: a structure that is not a BVH, unmapped memory, instructions
 * in the wrong state, a misplaced object, a private area the shader wrote
 * and corrupted nodes all stop the grid with a fault naming the PC; none of
 * them harms the host, and a fresh channel runs normally afterwards. With
 * TTU_TEST_BEAMS=1 (hw.test_ttu_faults.beams) the same with warp beams on:
 * the beam walk reads the broken structures first and must neither fault
 * for the rays nor harm the host. */
#include <stdio.h>

#include "ppu/isa.h"
#include "ttu_test_scene.h"

static struct hwc h;
static struct ts_blas blas;
static struct ts_scene scene;
static struct ts_ray rays[64];

/* Instruction index where a program's body starts (after the prologue). */
static uint64_t body_pc(uint64_t prog, unsigned insn)
{
   unsigned n = 0;
   for (const char *s = TS_PROGRAM_PROLOGUE; *s; s++)
      n += *s == '\n';
   return prog + (uint64_t)(n + insn) * PPU_INSN_BYTES;
}

/* Runs prologue + body + epilogue over 64 rays; expects a fault of `kind`
 * at body instruction `insn`, then restarts the channel. */
static void expect_fault(const char *body, enum ppu_fault_kind kind, unsigned insn,
                         uint64_t address, const char *what)
{
   char prog[4096];
   snprintf(prog, sizeof(prog), "%s%s%s", TS_PROGRAM_PROLOGUE, body, TS_PROGRAM_EPILOGUE);
   struct ppu_fault f;
   uint64_t pva;
   bool ok = ts_run(&h, prog, rays, 64, 1, 1, NULL, &f, &pva);
   CHECK_MSG(!ok && f.kind == kind && f.engine == PPU_ENGINE_COMPUTE && f.pc == body_pc(pva, insn),
             "%s: %s at pc 0x%llx (want %s at 0x%llx): %s", what,
             ok ? "no fault" : ppu_fault_kind_name(f.kind), (unsigned long long)f.pc,
             ppu_fault_kind_name(kind), (unsigned long long)body_pc(pva, insn), f.detail);
   if (address)
      CHECK_MSG(f.address == address, "%s: address 0x%llx", what, (unsigned long long)f.address);
   REQUIRE(hwt_channel_restart(&h.c, "compute"));
}

/* One identity instance of `b`; rays from z = -5 towards the unit cube. */
static void one_instance_scene(struct ts_blas *b)
{
   ts_one_instance_scene(&h, &scene, b);
   uint64_t seed = 3;
   for (unsigned i = 0; i < 64; i++) {
      struct ts_ray *r = &rays[i];
      memset(r, 0, sizeof(*r));
      r->tlas = scene.tlas;
      r->cull_mask = 0xff;
      r->org[0] = ts_rand(&seed, -0.8f, 0.8f);
      r->org[1] = ts_rand(&seed, -0.8f, 0.8f);
      r->org[2] = -5;
      r->dir[2] = 1;
      r->tmax = 1e30f;
   }
}

static void set_tlas(uint64_t va)
{
   for (unsigned i = 0; i < 64; i++)
      rays[i].tlas = va;
}

static const char init_proceed[] = "TTU.INIT RZ, RZ, RZ\nTTU.PROCEED R21, RZ, RZ\n";

TEST_CASE(top_level_that_is_not_a_bvh_faults_bad_ray_query_at_the_init_pc)
{
   REQUIRE(ts_chip_init(&h));
   ts_random_triangles(&h, &blas, 64, 1, true);
   one_instance_scene(&blas);
   uint64_t zeros = hwt_alloc_mapped(&h.t, 4096, false);
   set_tlas(zeros);
   expect_fault(init_proceed, PPU_FAULT_BAD_RAY_QUERY, 0, zeros, "zero page");
   set_tlas(blas.va); /* a bottom level where a top level belongs */
   expect_fault(init_proceed, PPU_FAULT_BAD_RAY_QUERY, 0, blas.va, "kind TRIANGLES");
   uint64_t copy = hwt_alloc_mapped(&h.t, 4096, true);
   struct ppu_bvh_header hd;
   hwt_read(&h.t.mem, h.t.pd, scene.tlas, &hd, sizeof(hd));
   /* Version 1 (nodes without stored ancestors) and a future version. */
   const uint32_t refused[2] = {1, PPU_BVH_VERSION + 1};
   for (unsigned i = 0; i < 2; i++) {
      hd.version = refused[i];
      hwt_write(&h.t.mem, h.t.pd, copy, &hd, sizeof(hd));
      set_tlas(copy);
      expect_fault(init_proceed, PPU_FAULT_BAD_RAY_QUERY, 0, copy,
                   i ? "a future version" : "version 1");
   }
   set_tlas(scene.tlas + 64);
   expect_fault(init_proceed, PPU_FAULT_BAD_RAY_QUERY, 0, 0, "not 128-byte aligned");
   /* The chip is fine afterwards. */
   set_tlas(scene.tlas);
   struct ts_result res[64];
   REQUIRE(ts_run(&h, ts_program, rays, 64, 1, 1, res, NULL, NULL));
   hwc_finish(&h);
}

TEST_CASE(unmapped_top_or_bottom_level_is_an_mmu_fault_naming_pc_and_address)
{
   REQUIRE(ts_chip_init(&h));
   ts_random_triangles(&h, &blas, 64, 2, true);
   one_instance_scene(&blas);
   set_tlas(0x7700000000ull);
   expect_fault(init_proceed, PPU_FAULT_MMU_UNMAPPED, 0, 0x7700000000ull, "unmapped TLAS");
   set_tlas(scene.tlas);
   uint64_t bad = 0x7700000080ull;
   hwt_write(&h.t.mem, h.t.pd, scene.inst_va[0] + 96, &bad, 8);
   expect_fault(init_proceed, PPU_FAULT_MMU_UNMAPPED, 1, bad, "unmapped BLAS");
   /* An instance naming a top level, or a page of zeros, as its BLAS. */
   hwt_write(&h.t.mem, h.t.pd, scene.inst_va[0] + 96, &scene.tlas, 8);
   expect_fault(init_proceed, PPU_FAULT_BAD_RAY_QUERY, 1, scene.tlas, "BLAS of kind INSTANCES");
   hwc_finish(&h);
}

TEST_CASE(instructions_in_the_wrong_state_fault_bad_ray_query)
{
   REQUIRE(ts_chip_init(&h));
   /* One big non-opaque triangle every ray hits: PROCEED returns a
    * triangle candidate. */
   memset(&blas, 0, sizeof(blas));
   struct ppu_bvh_triangle *t = &blas.tri[0];
   const float v[3][3] = {{-4, -4, 0}, {4, -4, 0}, {0, 4, 0}};
   memcpy(t->v0, v[0], 12);
   memcpy(t->v1, v[1], 12);
   memcpy(t->v2, v[2], 12);
   blas.kind = PPU_BVH_KIND_TRIANGLES;
   blas.count = 1;
   const float lo[1][3] = {{-4, -4, 0}}, hi[1][3] = {{4, 4, 0}};
   blas.va = tb_build(&h, PPU_BVH_KIND_TRIANGLES, blas.tri, 64, 1, lo, hi, 1);
   memcpy(blas.bmin, lo[0], 12);
   memcpy(blas.bmax, hi[0], 12);
   one_instance_scene(&blas);
   expect_fault("TTU.PROCEED R21, RZ, RZ\n", PPU_FAULT_BAD_RAY_QUERY, 0, 0, "PROCEED before INIT");
   expect_fault("TTU.TERMINATE RZ, RZ, RZ\n", PPU_FAULT_BAD_RAY_QUERY, 0, 0,
                "TERMINATE before INIT");
   expect_fault("TTU.INIT RZ, RZ, RZ\nTTU.CONFIRM RZ, RZ, RZ\n", PPU_FAULT_BAD_RAY_QUERY, 1, 0,
                "CONFIRM without a candidate");
   expect_fault("TTU.INIT RZ, RZ, RZ\nTTU.PROCEED R21, RZ, RZ\nTTU.GENERATE RZ, RZ, RZ\n",
                PPU_FAULT_BAD_RAY_QUERY, 2, 0, "GENERATE on a triangle candidate");
   expect_fault("TTU.INIT RZ, RZ, RZ\nTTU.PROCEED R21, RZ, RZ\nTTU.CONFIRM RZ, RZ, RZ\n"
                "TTU.CONFIRM RZ, RZ, RZ\n",
                PPU_FAULT_BAD_RAY_QUERY, 3, 0, "CONFIRM twice");
   /* The same sequence with one CONFIRM is fine: the hit is committed. */
   char prog[2048];
   snprintf(prog, sizeof(prog), "%s%s%s", TS_PROGRAM_PROLOGUE,
            "TTU.INIT RZ, RZ, RZ\nTTU.PROCEED R30, RZ, RZ\nTTU.CONFIRM RZ, RZ, RZ\n"
            "TTU.PROCEED R21, RZ, RZ\n",
            TS_PROGRAM_EPILOGUE);
   struct ts_result res[64];
   REQUIRE(ts_run(&h, prog, rays, 64, 1, 1, res, NULL, NULL));
   for (unsigned i = 0; i < 64; i++) {
      CHECK_EQ_U64(res[i].candidates, 1); /* R30 = the first PROCEED's result */
      CHECK_EQ_U64(res[i].committed.type, PPU_RQ_COMMITTED_TRIANGLE);
      CHECK(res[i].committed.t == 5.0f);
      CHECK_EQ_U64(res[i].state, PPU_RQ_STATE_DONE);
   }
   /* AABBs: CONFIRM on an AABB candidate faults. */
   ts_random_aabbs(&h, &blas, 1, 4);
   blas.box[0].min[0] = blas.box[0].min[1] = -4;
   blas.box[0].max[0] = blas.box[0].max[1] = 4;
   const float blo[1][3] = {{-4, -4, blas.box[0].min[2]}}, bhi[1][3] = {{4, 4, blas.box[0].max[2]}};
   blas.va = tb_build(&h, PPU_BVH_KIND_AABBS, blas.box, 64, 1, blo, bhi, 1);
   memcpy(blas.bmin, blo[0], 12);
   memcpy(blas.bmax, bhi[0], 12);
   one_instance_scene(&blas);
   expect_fault("TTU.INIT RZ, RZ, RZ\nTTU.PROCEED R21, RZ, RZ\nTTU.CONFIRM RZ, RZ, RZ\n",
                PPU_FAULT_BAD_RAY_QUERY, 2, 0, "CONFIRM on an AABB candidate");
   hwc_finish(&h);
}

TEST_CASE(ray_query_object_misaligned_or_beyond_local_memory_faults)
{
   REQUIRE(ts_chip_init(&h));
   ts_random_triangles(&h, &blas, 16, 5, true);
   one_instance_scene(&blas);
   expect_fault("MOV R1, 8\nTTU.INIT RZ, R1, RZ\n", PPU_FAULT_MISALIGNED_ADDRESS, 1, 0,
                "object at local offset 8");
   expect_fault("MOV R1, 16\nTTU.INIT RZ, R1, RZ\n", PPU_FAULT_OUT_OF_RANGE, 1, 0,
                "object crossing the end of local memory");
   hwc_finish(&h);
}

TEST_CASE(private_state_written_by_the_shader_faults_instead_of_steering_the_ttu)
{
   REQUIRE(ts_chip_init(&h));
   ts_random_triangles(&h, &blas, 64, 6, true);
   one_instance_scene(&blas);
   /* level (offset 296) := 7; top.depth (offset 352 + 36) := 1000. */
   expect_fault("TTU.INIT RZ, RZ, RZ\nMOV R1, 7\nST.LOCAL.U32 [RZ+296], R1\n"
                "TTU.PROCEED R21, RZ, RZ\n",
                PPU_FAULT_BAD_RAY_QUERY, 3, 0, "level 7");
   expect_fault("TTU.INIT RZ, RZ, RZ\nMOV R1, 1000\nST.LOCAL.U32 [RZ+388], R1\n"
                "TTU.PROCEED R21, RZ, RZ\n",
                PPU_FAULT_BAD_RAY_QUERY, 3, 0, "stack depth 1000");
   hwc_finish(&h);
}

/* Node i of a hand-made chain: one internal child (node i + 1) or, at the
 * end, one leaf child; every box is [-10, 10]^3. */
static uint64_t chain_blas(uint32_t nodes)
{
   struct {
      struct ppu_bvh_header hd;
      uint8_t geo[128];
      struct ppu_bvh_node node[48];
      struct ppu_bvh_triangle tri;
   } s;
   memset(&s, 0, sizeof(s));
   for (uint32_t i = 0; i < nodes; i++) {
      struct ppu_bvh_node *n = &s.node[i];
      for (unsigned a = 0; a < 3; a++) {
         n->origin[a] = -10;
         n->q_hi[a][0] = 20;
      }
      n->child_count = 1;
      n->parent = i ? i - 1 : PPU_BVH_NONE;
      for (uint32_t a = 0; a < PPU_BVH_ANCESTORS - 1u; a++) /* a chain: i - (a + 2) */
         n->ancestor[a] = i >= a + 2 ? i - (a + 2) : PPU_BVH_NONE;
      n->depth = i;
      n->internal_base = i + 1;
      n->child_kind[0] = i + 1 < nodes ? PPU_BVH_CHILD_INTERNAL : PPU_BVH_CHILD_LEAF;
      n->child_records[0] = i + 1 < nodes ? 0 : 1;
   }
   const float v[3][3] = {{-4, -4, 0}, {4, -4, 0}, {0, 4, 0}};
   memcpy(s.tri.v0, v[0], 12);
   memcpy(s.tri.v1, v[1], 12);
   memcpy(s.tri.v2, v[2], 12);
   s.tri.flags = PPU_BVH_PRIM_OPAQUE;
   s.hd = (struct ppu_bvh_header){.magic = PPU_BVH_MAGIC,
                                  .version = PPU_BVH_VERSION,
                                  .kind = PPU_BVH_KIND_TRIANGLES,
                                  .node_offset = 256,
                                  .node_count = nodes,
                                  .leaf_offset = 256 + nodes * 128,
                                  .leaf_count = 1,
                                  .leaf_stride = 64,
                                  .max_depth = nodes - 1};
   uint64_t va = hwt_alloc_mapped(&h.t, sizeof(s), false);
   hwt_write(&h.t.mem, h.t.pd, va, &s, 256 + nodes * 128);
   hwt_write(&h.t.mem, h.t.pd, va + 256 + nodes * 128, &s.tri, 64);
   return va;
}

TEST_CASE(bvh_deeper_than_max_depth_or_with_a_cycle_faults_bad_ray_query)
{
   REQUIRE(ts_chip_init(&h));
   memset(&blas, 0, sizeof(blas));
   blas.kind = PPU_BVH_KIND_TRIANGLES;
   for (unsigned a = 0; a < 3; a++) {
      blas.bmin[a] = -10;
      blas.bmax[a] = 10;
   }
   /* PPU_BVH_MAX_DEPTH levels (depth 0..31) are fine... */
   blas.va = chain_blas(PPU_BVH_MAX_DEPTH);
   one_instance_scene(&blas);
   struct ts_result res[64];
   REQUIRE(ts_run(&h, ts_program, rays, 64, 1, 1, res, NULL, NULL));
   for (unsigned i = 0; i < 64; i++)
      CHECK(res[i].committed.type == PPU_RQ_COMMITTED_TRIANGLE && res[i].committed.t == 5.0f);
   /* ... one more is not. */
   blas.va = chain_blas(PPU_BVH_MAX_DEPTH + 1);
   one_instance_scene(&blas);
   expect_fault(init_proceed, PPU_FAULT_BAD_RAY_QUERY, 1, 0, "33 levels");
   /* A node whose child is the root again. */
   blas.va = chain_blas(4);
   struct ppu_bvh_node n;
   hwt_read(&h.t.mem, h.t.pd, blas.va + 256 + 2 * 128, &n, sizeof(n));
   n.internal_base = 0;
   hwt_write(&h.t.mem, h.t.pd, blas.va + 256 + 2 * 128, &n, sizeof(n));
   one_instance_scene(&blas);
   expect_fault(init_proceed, PPU_FAULT_BAD_RAY_QUERY, 1, 0, "cycle");
   hwc_finish(&h);
}

static bool fault_is_memory_or_bvh(const struct ppu_fault *f)
{
   return f->kind == PPU_FAULT_BAD_RAY_QUERY || f->kind == PPU_FAULT_MMU_UNMAPPED ||
          f->kind == PPU_FAULT_MMU_BAD_PTE;
}

TEST_CASE(corrupted_node_fields_fault_and_random_corruption_never_crashes)
{
   REQUIRE(ts_chip_init(&h));
   ts_random_triangles(&h, &blas, 300, 8, false);
   one_instance_scene(&blas);
   struct ppu_bvh_header hd;
   hwt_read(&h.t.mem, h.t.pd, blas.va, &hd, sizeof(hd));
   uint64_t nodes_va = blas.va + hd.node_offset;
   uint64_t nodes_bytes = (uint64_t)hd.node_count * PPU_BVH_NODE_BYTES;
   uint8_t *orig = malloc(nodes_bytes), *work = malloc(nodes_bytes);
   REQUIRE(orig && work);
   hwt_read(&h.t.mem, h.t.pd, nodes_va, orig, nodes_bytes);
   /* Specific corruptions, every one a BAD_RAY_QUERY at the PROCEED: the
    * index fields in every node, the kind and count in the root (whose
    * slots are widened to the whole scene so rays reach them). */
   for (unsigned c = 0; c < 5; c++) {
      memcpy(work, orig, nodes_bytes);
      const char *what = "";
      for (uint32_t i = 0; i < hd.node_count; i++) {
         struct ppu_bvh_node n;
         memcpy(&n, work + (size_t)i * sizeof(n), sizeof(n));
         for (unsigned s = 0; s < n.child_count && i == 0; s++)
            for (unsigned a = 0; a < 3; a++) {
               n.q_lo[a][s] = 0;
               n.q_hi[a][s] = 255;
            }
         switch (c) {
         case 0:
            n.internal_base = 0xfffffff0u;
            what = "internal_base beyond node_count";
            break;
         case 1:
            n.leaf_base = 0xffffff00u;
            what = "leaf_base beyond leaf_count";
            break;
         case 2:
            for (unsigned s = 0; s < n.child_count; s++)
               if (n.child_kind[s] == PPU_BVH_CHILD_LEAF)
                  n.child_records[s] = i % 2 ? 0 : PPU_BVH_MAX_LEAF_RECORDS + 1;
            what = "leaf with 0 or 9 records";
            break;
         case 3:
            n.child_kind[0] = i == 0 ? 7 : n.child_kind[0];
            what = "child kind 7";
            break;
         case 4:
            n.child_count = i == 0 ? 9 : n.child_count;
            what = "9 children";
            break;
         }
         memcpy(work + (size_t)i * sizeof(n), &n, sizeof(n));
      }
      hwt_write(&h.t.mem, h.t.pd, nodes_va, work, nodes_bytes);
      expect_fault(init_proceed, PPU_FAULT_BAD_RAY_QUERY, 1, 0, what);
   }
   /* Random bytes in random nodes: the grid ends normally or with a
    * memory or BVH fault, never anything else. */
   uint64_t seed = 99;
   unsigned faults = 0;
   for (unsigned it = 0; it < 150; it++) {
      memcpy(work, orig, nodes_bytes);
      for (unsigned k = 0; k < 6; k++) {
         uint64_t at = (uint64_t)ts_rand(&seed, 0, (float)nodes_bytes);
         work[at % nodes_bytes] = (uint8_t)ts_rand(&seed, 0, 256);
      }
      hwt_write(&h.t.mem, h.t.pd, nodes_va, work, nodes_bytes);
      struct ppu_fault f;
      if (!ts_run(&h, ts_program, rays, 64, 3, 0, NULL, &f, NULL)) {
         faults++;
         CHECK_MSG(fault_is_memory_or_bvh(&f), "iteration %u: %s (%s)", it,
                   ppu_fault_kind_name(f.kind), f.detail);
         REQUIRE(hwt_channel_restart(&h.c, "compute"));
      }
   }
   CHECK(faults > 0);
   /* The rays are parallel: with beams on, their warps walk as beams. */
   if (ts_beams_on())
      CHECK(hwt_counter(&h.t, PPU_COUNTER_TTU_BEAMS) > 0);
   free(orig);
   free(work);
   hwc_finish(&h);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
