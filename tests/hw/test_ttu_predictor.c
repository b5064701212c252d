/* The TTU's ray-intersection predictor (hw/src/ttu/ttu_predictor.c,
 * docs/ttu.md): the table's LRU, associativity, tags and node slots; both
 * hashes deterministic and in range; configuration defaults and refusals;
 * Go Up Level learning the k-th ancestor; mispredictions (wrong, stale or
 * forged entries) falling back to the full traversal; and occlusion results
 * identical with the predictor on and off through the TTU instruction. */
#include <stdio.h>

#include "mmu.h"
#include "ttu/ttu_predictor.h"
#include "ttu/ttu_traversal.h"
#include "ttu_test_scene.h"

#define RAYS 512
#define OCCLUSION (PPU_RAY_FLAG_TERMINATE_ON_FIRST_HIT | PPU_RAY_FLAG_OPAQUE)

static struct ppu_ttu_predictor_config enabled_config(uint32_t entries, uint32_t ways,
                                                      uint32_t tag_bits, uint32_t nodes)
{
   return (struct ppu_ttu_predictor_config){.enabled = true,
                                            .entries = entries,
                                            .ways = ways,
                                            .tag_bits = tag_bits,
                                            .nodes_per_entry = nodes};
}

static struct ppu_ttu_predicted_node pn(uint64_t instance, uint32_t node)
{
   return (struct ppu_ttu_predicted_node){instance, node};
}

static void teach(struct ppu_ttu_predictor *t, uint32_t hash, uint64_t instance, uint32_t node)
{
   struct ppu_ttu_predicted_node n = pn(instance, node);
   ppu_ttu_predictor_update(t, hash, &n);
}

/* hash of (set, tag) for a table of 2^set_bits sets. */
static uint32_t hash_of(uint32_t set, uint32_t tag, unsigned set_bits)
{
   return tag << set_bits | set;
}

static uint32_t predicted_node(struct ppu_ttu_predictor *t, uint32_t hash)
{
   struct ppu_ttu_predicted_node out[PPU_TTU_PREDICTOR_MAX_NODES];
   return ppu_ttu_predictor_lookup(t, hash, out) ? out[0].node : ~0u;
}

TEST_CASE(table_replaces_the_least_recently_used_way_of_a_set)
{
   struct ppu_ttu_predictor t;
   struct ppu_ttu_predictor_config c = enabled_config(8, 4, 15, 1);
   REQUIRE(ppu_ttu_predictor_init(&t, &c));
   CHECK_EQ_U64(t.sets, 2);
   for (uint32_t tag = 1; tag <= 4; tag++)
      teach(&t, hash_of(0, tag, 1), 0x1000, tag);
   for (uint32_t tag = 1; tag <= 4; tag++)
      CHECK_EQ_U64(predicted_node(&t, hash_of(0, tag, 1)), tag);
   /* Touch 1, 3, 4: tag 2 is now the least recently used and goes. */
   predicted_node(&t, hash_of(0, 1, 1));
   predicted_node(&t, hash_of(0, 3, 1));
   predicted_node(&t, hash_of(0, 4, 1));
   teach(&t, hash_of(0, 5, 1), 0x1000, 5);
   CHECK_EQ_U64(predicted_node(&t, hash_of(0, 2, 1)), ~0u);
   CHECK_EQ_U64(predicted_node(&t, hash_of(0, 1, 1)), 1);
   CHECK_EQ_U64(predicted_node(&t, hash_of(0, 5, 1)), 5);
   /* The other set is untouched by all of this. */
   CHECK_EQ_U64(predicted_node(&t, hash_of(1, 1, 1)), ~0u);
   ppu_ttu_predictor_finish(&t);
}

/* FIFO: the same uses as above, but a lookup or a re-update refreshes
 * nothing, so the first allocated tag (1) goes, then 2. */
TEST_CASE(fifo_table_replaces_the_first_allocated_way_of_a_set)
{
   struct ppu_ttu_predictor t;
   struct ppu_ttu_predictor_config c = enabled_config(8, 4, 15, 1);
   c.replacement = PPU_TTU_PREDICTOR_REPLACEMENT_FIFO;
   REQUIRE(ppu_ttu_predictor_init(&t, &c));
   for (uint32_t tag = 1; tag <= 4; tag++)
      teach(&t, hash_of(0, tag, 1), 0x1000, tag);
   predicted_node(&t, hash_of(0, 1, 1));
   teach(&t, hash_of(0, 1, 1), 0x1000, 11); /* re-learned: still the oldest */
   predicted_node(&t, hash_of(0, 3, 1));
   teach(&t, hash_of(0, 5, 1), 0x1000, 5);
   CHECK_EQ_U64(predicted_node(&t, hash_of(0, 1, 1)), ~0u);
   CHECK_EQ_U64(predicted_node(&t, hash_of(0, 2, 1)), 2);
   teach(&t, hash_of(0, 6, 1), 0x1000, 6);
   CHECK_EQ_U64(predicted_node(&t, hash_of(0, 2, 1)), ~0u);
   CHECK_EQ_U64(predicted_node(&t, hash_of(0, 3, 1)), 3);
   CHECK_EQ_U64(predicted_node(&t, hash_of(0, 4, 1)), 4);
   CHECK_EQ_U64(predicted_node(&t, hash_of(0, 5, 1)), 5);
   CHECK_EQ_U64(predicted_node(&t, hash_of(0, 6, 1)), 6);
   ppu_ttu_predictor_finish(&t);
   /* Refused when out of range. */
   struct ppu_ttu_predictor_config r;
   char err[160];
   c.replacement = 3;
   CHECK(!ppu_ttu_predictor_config_resolve(&c, &r, err, sizeof(err)));
   CHECK(strstr(err, "replacement") != NULL);
   c.replacement = 0;
   REQUIRE(ppu_ttu_predictor_config_resolve(&c, &r, err, sizeof(err)));
   CHECK_EQ_U64(r.replacement, PPU_TTU_PREDICTOR_REPLACEMENT_LRU);
}

TEST_CASE(direct_mapped_table_keeps_one_tag_per_set_and_sets_are_independent)
{
   struct ppu_ttu_predictor t;
   struct ppu_ttu_predictor_config c = enabled_config(4, 1, 15, 1);
   REQUIRE(ppu_ttu_predictor_init(&t, &c));
   CHECK_EQ_U64(t.sets, 4);
   for (uint32_t set = 0; set < 4; set++)
      teach(&t, hash_of(set, 7, 2), 0x1000, 10 + set);
   teach(&t, hash_of(2, 8, 2), 0x1000, 99); /* same set, other tag */
   CHECK_EQ_U64(predicted_node(&t, hash_of(2, 7, 2)), ~0u);
   CHECK_EQ_U64(predicted_node(&t, hash_of(2, 8, 2)), 99);
   for (uint32_t set = 0; set < 4; set++)
      if (set != 2)
         CHECK_EQ_U64(predicted_node(&t, hash_of(set, 7, 2)), 10 + set);
   ppu_ttu_predictor_finish(&t);
}

TEST_CASE(tags_keep_tag_bits_of_the_hash_above_the_set_index)
{
   struct ppu_ttu_predictor t;
   struct ppu_ttu_predictor_config c = enabled_config(8, 4, 2, 1);
   REQUIRE(ppu_ttu_predictor_init(&t, &c));
   teach(&t, hash_of(1, 1, 1), 0x1000, 42);
   /* Tags 1 and 5 agree in their low 2 bits: with 2-bit tags they alias
    * (the paper's reason to keep 15); tag 2 does not. */
   CHECK_EQ_U64(predicted_node(&t, hash_of(1, 5, 1)), 42);
   CHECK_EQ_U64(predicted_node(&t, hash_of(1, 2, 1)), ~0u);
   CHECK_EQ_U64(predicted_node(&t, hash_of(0, 1, 1)), ~0u);
   ppu_ttu_predictor_finish(&t);
   c = enabled_config(8, 4, 15, 1);
   REQUIRE(ppu_ttu_predictor_init(&t, &c));
   teach(&t, hash_of(1, 1, 1), 0x1000, 42);
   CHECK_EQ_U64(predicted_node(&t, hash_of(1, 5, 1)), ~0u);
   ppu_ttu_predictor_finish(&t);
}

TEST_CASE(nodes_of_an_entry_are_kept_most_recent_first_and_the_oldest_drops)
{
   struct ppu_ttu_predictor t;
   struct ppu_ttu_predictor_config c = enabled_config(4, 4, 15, 2);
   REQUIRE(ppu_ttu_predictor_init(&t, &c));
   struct ppu_ttu_predicted_node a = pn(0x1000, 1), b = pn(0x1000, 2), d = pn(0x1080, 2);
   struct ppu_ttu_predicted_node out[PPU_TTU_PREDICTOR_MAX_NODES];
   ppu_ttu_predictor_update(&t, 3, &a);
   CHECK_EQ_U64(ppu_ttu_predictor_lookup(&t, 3, out), 1);
   ppu_ttu_predictor_update(&t, 3, &b);
   ppu_ttu_predictor_update(&t, 3, &b); /* already there: no duplicate */
   REQUIRE(ppu_ttu_predictor_lookup(&t, 3, out) == 2);
   CHECK(out[0].node == 2 && out[1].node == 1);
   /* Same node index through another instance is another prediction. */
   ppu_ttu_predictor_update(&t, 3, &d);
   REQUIRE(ppu_ttu_predictor_lookup(&t, 3, out) == 2);
   CHECK(out[0].instance == 0x1080 && out[1].instance == 0x1000 && out[1].node == 2);
   ppu_ttu_predictor_update(&t, 3, &b);
   REQUIRE(ppu_ttu_predictor_lookup(&t, 3, out) == 2);
   CHECK(out[0].instance == 0x1000 && out[1].instance == 0x1080);
   ppu_ttu_predictor_finish(&t);
}

TEST_CASE(both_hashes_are_deterministic_in_range_and_group_similar_rays)
{
   const float lo[3] = {-4, -1, 0}, hi[3] = {4, 3, 10};
   const uint32_t kinds[2] = {PPU_TTU_PREDICTOR_HASH_GRID_SPHERICAL,
                              PPU_TTU_PREDICTOR_HASH_TWO_POINT};
   uint64_t seed = 5;
   uint32_t distinct[2] = {0, 0};
   static uint8_t seen[2][1u << PPU_TTU_PREDICTOR_HASH_BITS];
   memset(seen, 0, sizeof(seen));
   for (int i = 0; i < 4000; i++) {
      float o[3], d[3];
      for (unsigned a = 0; a < 3; a++) {
         o[a] = ts_rand(&seed, lo[a] - 2, hi[a] + 2); /* some outside the box */
         d[a] = ts_rand(&seed, -1, 1);
      }
      if (i % 50 == 0)
         o[i / 50 % 3] = NAN;
      if (i % 70 == 0)
         d[i / 70 % 3] = INFINITY;
      if (i % 90 == 0)
         d[0] = d[1] = d[2] = 0;
      float tmax = i % 3 ? ts_rand(&seed, 0.1f, 5) : INFINITY;
      for (unsigned k = 0; k < 2; k++) {
         uint32_t h = ppu_ttu_predictor_hash(kinds[k], o, d, tmax, lo, hi);
         CHECK(h < (1u << PPU_TTU_PREDICTOR_HASH_BITS));
         CHECK_EQ_U64(ppu_ttu_predictor_hash(kinds[k], o, d, tmax, lo, hi), h);
         if (h < (1u << PPU_TTU_PREDICTOR_HASH_BITS) && !seen[k][h]++)
            distinct[k]++;
      }
   }
   CHECK_MSG(distinct[0] > 1000 && distinct[1] > 300, "distinct hashes %u %u", distinct[0],
             distinct[1]);
   /* An empty scene box (the +inf/-inf of an empty structure) is fine too. */
   const float elo[3] = {INFINITY, INFINITY, INFINITY}, ehi[3] = {-INFINITY, -INFINITY, -INFINITY};
   const float o[3] = {1, 2, 3}, d[3] = {0, 0, 1};
   CHECK(ppu_ttu_predictor_hash(kinds[0], o, d, 1, elo, ehi) < (1u << 15));
   CHECK(ppu_ttu_predictor_hash(kinds[1], o, d, 1, elo, ehi) < (1u << 15));
   /* Grid Spherical: a slightly moved origin and turned direction within
    * one cell share the hash; the opposite direction does not. */
   const float o2[3] = {1.01f, 2.01f, 3.01f}, d2[3] = {0.01f, 0.001f, 1}, d3[3] = {0, 0, -1};
   CHECK_EQ_U64(ppu_ttu_predictor_hash(kinds[0], o, d, 1, lo, hi),
                ppu_ttu_predictor_hash(kinds[0], o2, d2, 1, lo, hi));
   CHECK(ppu_ttu_predictor_hash(kinds[0], o, d, 1, lo, hi) !=
         ppu_ttu_predictor_hash(kinds[0], o, d3, 1, lo, hi));
   /* Two Point: origin cell XOR the cell of the ray's end in the box. */
   const float far[3] = {0, 0, 20};
   uint32_t cell_o = (uint32_t)((1 + 4) / 8.0 * 32) << 10 | (uint32_t)((2 + 1) / 4.0 * 32) << 5 |
                     (uint32_t)(3 / 10.0 * 32);
   uint32_t cell_end = (uint32_t)((1 + 4) / 8.0 * 32) << 10 | (uint32_t)((2 + 1) / 4.0 * 32) << 5 |
                       (uint32_t)(8 / 10.0 * 32);
   CHECK_EQ_U64(ppu_ttu_predictor_hash(kinds[1], o, d, 5, lo, hi), cell_o ^ cell_end);
   CHECK_EQ_U64(ppu_ttu_predictor_hash(kinds[1], o, far, 1, lo, hi), cell_o ^ (cell_o | 31));
}

/* Grid Spherical by hand, in the box [0, 32]^3 (one unit per cell): the
 * origin (1.5, 2.5, 31.9) is cell (1, 2, 31), the Grid Hash block
 * 1 << 10 | 2 << 5 | 31 = 1119. Directions: +z has theta 0, phi 0 ->
 * cells 0 and 4 of 8 (phi's range starts at -pi), block 0 << 3 | 4 = 4;
 * -y has theta pi/2 (cell 4), phi -pi/2 (cell 2): 34; -x has theta pi/2,
 * phi pi (the last cell, 7): 39. The hash is block XOR block. An origin
 * outside the box or NaN clamps to the edge cells: (-5, 40, NaN) is cell
 * (0, 31, 0), 31 << 5 = 992. */
TEST_CASE(grid_spherical_hash_by_hand)
{
   const float lo[3] = {0, 0, 0}, hi[3] = {32, 32, 32};
   const float o[3] = {1.5f, 2.5f, 31.9f}, out[3] = {-5, 40, NAN};
   const float pz[3] = {0, 0, 1}, ny[3] = {0, -1, 0}, nx[3] = {-1, 0, 0};
   const uint32_t g = PPU_TTU_PREDICTOR_HASH_GRID_SPHERICAL;
   CHECK_EQ_U64(ppu_ttu_predictor_hash(g, o, pz, 10, lo, hi), 1119u ^ 4u);
   CHECK_EQ_U64(ppu_ttu_predictor_hash(g, o, ny, 10, lo, hi), 1119u ^ 34u);
   CHECK_EQ_U64(ppu_ttu_predictor_hash(g, o, nx, 10, lo, hi), 1119u ^ 39u);
   CHECK_EQ_U64(ppu_ttu_predictor_hash(g, out, pz, 10, lo, hi), 992u ^ 4u);
   /* The direction's length does not matter; tmax does not either. */
   const float pz3[3] = {0, 0, 3};
   CHECK_EQ_U64(ppu_ttu_predictor_hash(g, o, pz3, 1, lo, hi), 1119u ^ 4u);
}

TEST_CASE(configuration_defaults_and_refusals_name_the_field)
{
   struct ppu_ttu_predictor_config in = {0}, out;
   char err[160];
   REQUIRE(ppu_ttu_predictor_config_resolve(&in, &out, err, sizeof(err)));
   CHECK(!out.enabled && out.entries == 0);
   in.enabled = true;
   REQUIRE(ppu_ttu_predictor_config_resolve(&in, &out, err, sizeof(err)));
   CHECK(out.entries == 1024 && out.ways == 4 && out.tag_bits == 15 && out.nodes_per_entry == 1);
   /* Go Up Level and the collector timeout take 0 as written. */
   CHECK(out.hash == PPU_TTU_PREDICTOR_HASH_GRID_SPHERICAL && out.go_up_level == 0);
   CHECK(out.lookup_fifo == 4 && out.update_fifo == 4 && out.collector_ray_ids == 64);
   CHECK(out.collector_timeout_cycles == 0 && out.repacking == PPU_TTU_PREDICTOR_REPACKING_ON);
   struct ppu_gpu_config defaults;
   ppu_gpu_config_default(&defaults);
   CHECK(!defaults.ttu_predictor.enabled && defaults.ttu_predictor.go_up_level == 3 &&
         defaults.ttu_predictor.collector_timeout_cycles == 16 &&
         defaults.ttu_predictor.entries == 1024);
   in.go_up_level = 5;
   REQUIRE(ppu_ttu_predictor_config_resolve(&in, &out, err, sizeof(err)));
   CHECK_EQ_U64(out.go_up_level, 5);
   static const struct {
      struct ppu_ttu_predictor_config c;
      const char *field;
   } bad[] = {
       {{.enabled = true, .entries = 1000}, "entries"},
       {{.enabled = true, .entries = 2, .ways = 4}, "entries"},
       {{.enabled = true, .entries = 48, .ways = 3}, "ways"},
       {{.enabled = true, .tag_bits = 33}, "tag_bits"},
       {{.enabled = true, .nodes_per_entry = 9}, "nodes_per_entry"},
       {{.enabled = true, .hash = 3}, "hash"},
       {{.enabled = true, .go_up_level = PPU_BVH_MAX_DEPTH + 1}, "go_up_level"},
       {{.enabled = true, .collector_ray_ids = 16}, "collector_ray_ids"},
       {{.enabled = true, .repacking = 3}, "repacking"},
   };
   for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
      err[0] = 0;
      CHECK_MSG(!ppu_ttu_predictor_config_resolve(&bad[i].c, &out, err, sizeof(err)),
                "case %u accepted", i);
      CHECK_MSG(strstr(err, bad[i].field) && strstr(err, "ttu_predictor"), "case %u: '%s'", i, err);
   }
   /* ppu_gpu_create checks it too. */
   struct ppu_gpu_config cfg;
   ppu_gpu_config_default(&cfg);
   cfg.vram_size = 64ull << 20;
   cfg.ttu_predictor = bad[0].c;
   CHECK(!ppu_gpu_create(&cfg, err, sizeof(err)));
   CHECK_MSG(strstr(err, "ttu_predictor: entries"), "%s", err);
}

/* --- One TTU on its own, over a scene in a chip's memory ------------------ */

static struct hwc h;
static struct ts_blas blas_a, blas_b;
static struct ts_scene scene;

struct lone_ttu {
   struct ppu_vram vram;
   struct ppu_mmu mmu;
   struct ppu_mmu_client port;
   struct ppu_counter_block counters;
   struct ppu_ttu ttu;
};

static bool lone_init(struct lone_ttu *u, uint32_t go_up_level)
{
   memset(u, 0, sizeof(*u));
   u->vram.base = ppu_gpu_bar(h.t.gpu);
   u->vram.size = ppu_gpu_vram_size(h.t.gpu);
   ppu_mmu_init(&u->mmu, &u->vram, &u->counters);
   ppu_mmu_client_init(&u->port, &u->mmu, PPU_ENGINE_COMPUTE);
   u->port.counters = &u->counters;
   /* The default chip's L0, so the lone unit counts as an SM's would. */
   struct ppu_gpu_config defaults;
   ppu_gpu_config_default(&defaults);
   ppu_ttu_init(&u->ttu, &u->port, &u->counters, defaults.ttu_l0_lines);
   struct ppu_ttu_predictor_config c = {.enabled = true, .go_up_level = go_up_level};
   return ppu_ttu_configure_predictor(&u->ttu, &c);
}

static uint64_t lone_counter(struct lone_ttu *u, enum ppu_counter id)
{
   return atomic_load(&u->counters.value[id]);
}

/* INIT and PROCEED to the end; the committed hit in *hit. */
static bool lone_trace(struct lone_ttu *u, const struct ts_ray *r, struct ppu_ray_query_hit *hit)
{
   _Alignas(16) uint8_t obj[PPU_RAY_QUERY_BYTES] = {0};
   memcpy(obj, r, sizeof(*r));
   struct ppu_fault f;
   uint32_t d = 1;
   if (!ppu_ttu_execute(&u->ttu, h.t.pd, PPU_TTU_INIT, obj, 0, &d, &f))
      return false;
   for (int i = 0; i < 100 && d; i++)
      if (!ppu_ttu_execute(&u->ttu, h.t.pd, PPU_TTU_PROCEED, obj, 0, &d, &f))
         return false;
   memcpy(hit, obj + PPU_RQ_OFFSET_COMMITTED, sizeof(*hit));
   return true;
}

static uint32_t ray_hash(const struct ts_ray *r)
{
   struct ppu_bvh_header hd;
   hwt_read(&h.t.mem, h.t.pd, r->tlas, &hd, sizeof(hd));
   return ppu_ttu_predictor_hash(PPU_TTU_PREDICTOR_HASH_GRID_SPHERICAL, r->org, r->dir, r->tmax,
                                 hd.bounds_min, hd.bounds_max);
}

static void read_node(uint64_t blas, uint32_t index, struct ppu_bvh_node *n)
{
   struct ppu_bvh_header hd;
   hwt_read(&h.t.mem, h.t.pd, blas, &hd, sizeof(hd));
   hwt_read(&h.t.mem, h.t.pd, blas + hd.node_offset + (uint64_t)index * PPU_BVH_NODE_BYTES, n,
            sizeof(*n));
}

/* The node with a leaf child holding the record of primitive `prim`. */
static uint32_t leaf_node_of(uint64_t blas, uint32_t prim)
{
   struct ppu_bvh_header hd;
   hwt_read(&h.t.mem, h.t.pd, blas, &hd, sizeof(hd));
   for (uint32_t i = 0; i < hd.node_count; i++) {
      struct ppu_bvh_node n;
      read_node(blas, i, &n);
      for (unsigned s = 0; s < n.child_count; s++) {
         if (n.child_kind[s] != PPU_BVH_CHILD_LEAF)
            continue;
         for (unsigned k = 0; k < n.child_records[s]; k++) {
            struct ppu_bvh_triangle t;
            uint64_t rec = n.leaf_base + n.child_index[s] + k;
            hwt_read(&h.t.mem, h.t.pd, blas + hd.leaf_offset + rec * hd.leaf_stride, &t, sizeof(t));
            if (t.primitive_index == prim)
               return i;
         }
      }
   }
   return ~0u;
}

/* One instance of blas_a (identity) that the rays aim at, and far away
 * one whose bottom level is unmapped memory: no ray reaches it, so only a
 * prediction naming it would read there. */
#define UNMAPPED_BLAS 0x7000000000ull

static void single_instance_scene(void)
{
   memset(&scene, 0, sizeof(scene));
   ts_random_triangles(&h, &blas_a, 400, 31, true);
   const float axis[3] = {0, 0, 1}, one[3] = {1, 1, 1}, at[2][3] = {{0, 0, 0}, {100, 100, 100}};
   for (unsigned i = 0; i < 2; i++) {
      struct ppu_bvh_instance *in = &scene.inst[i];
      ts_transform(in, axis, 0, one, at[i]);
      in->blas_address = i ? UNMAPPED_BLAS : blas_a.va;
      in->custom_index_and_mask = 0xffu << 24;
      scene.blas[i] = &blas_a;
   }
   scene.instance_count = 2;
   ts_build_tlas(&h, &scene);
}

static struct ts_ray ray_towards(uint64_t *seed)
{
   struct ts_ray r = {.tlas = scene.tlas, .flags = OCCLUSION, .cull_mask = 0xff, .tmax = 3};
   for (unsigned a = 0; a < 3; a++) {
      r.org[a] = ts_rand(seed, -3, 3);
      r.dir[a] = ts_rand(seed, -0.5f, 0.5f) - r.org[a];
   }
   return r;
}

TEST_CASE(go_up_level_k_teaches_the_table_the_kth_ancestor_of_the_hit_leaf)
{
   REQUIRE(hwc_init(&h, NULL));
   single_instance_scene();
   struct ppu_bvh_header hd;
   hwt_read(&h.t.mem, h.t.pd, blas_a.va, &hd, sizeof(hd));
   REQUIRE(hd.max_depth >= 2); /* 8-wide: k = 3, 4 and 32 reach the root */
   uint32_t checked = 0;
   for (uint32_t k = 0; k <= 5; k++) {
      struct lone_ttu u;
      REQUIRE(lone_init(&u, k == 5 ? PPU_BVH_MAX_DEPTH : k));
      uint64_t seed = 100 + k;
      for (int i = 0; i < 20; i++) {
         struct ts_ray r = ray_towards(&seed);
         struct ppu_ray_query_hit hit;
         REQUIRE(lone_trace(&u, &r, &hit));
         if (hit.type != PPU_RQ_COMMITTED_TRIANGLE)
            continue;
         uint32_t want = leaf_node_of(blas_a.va, hit.primitive_index);
         for (uint32_t up = 0; up < u.ttu.predictor.cfg.go_up_level && want != 0; up++) {
            struct ppu_bvh_node n;
            read_node(blas_a.va, want, &n);
            want = n.parent;
         }
         struct ppu_ttu_predicted_node out[PPU_TTU_PREDICTOR_MAX_NODES];
         REQUIRE(ppu_ttu_predictor_lookup(&u.ttu.predictor, ray_hash(&r), out) >= 1);
         CHECK_MSG(out[0].node == want && out[0].instance == scene.inst_va[0],
                   "k %u: table holds node %u, the ancestor is %u", k, out[0].node, want);
         if (k == 5)
            CHECK_EQ_U64(out[0].node, 0); /* beyond the root: the root */
         checked++;
      }
      CHECK(lone_counter(&u, PPU_COUNTER_TTU_PREDICTOR_UPDATES) > 0);
      ppu_ttu_finish(&u.ttu);
   }
   CHECK(checked > 30);
   hwc_finish(&h);
}

/* Go Up Level on a chain of 20 nodes (node i's parent is i - 1): the k-th
 * ancestor of the deepest node for every k, with the node fetches it costs.
 * The node holding the hit is latched by the walk that found it, so k <= 7
 * (its parent and stored ancestors 2..7) fetches nothing and each further 7
 * levels fetch one node; without the latch the node itself is fetched. A
 * stored ancestor beyond the structure is a fault, as a bad parent was. */
TEST_CASE(go_up_level_reads_stored_ancestors_and_fetches_one_node_per_seven_levels)
{
   REQUIRE(hwc_init(&h, NULL));
   enum { CHAIN = 20 };
   struct ppu_bvh_node chain[CHAIN];
   memset(chain, 0, sizeof(chain));
   for (uint32_t i = 0; i < CHAIN; i++) {
      chain[i].parent = i ? i - 1 : PPU_BVH_NONE;
      for (uint32_t a = 0; a < PPU_BVH_ANCESTORS - 1u; a++)
         chain[i].ancestor[a] = i >= a + 2 ? i - (a + 2) : PPU_BVH_NONE;
   }
   uint64_t va = hwt_alloc_mapped(&h.t, 256 + sizeof(chain), false);
   hwt_write(&h.t.mem, h.t.pd, va + 256, chain, sizeof(chain));
   struct lone_ttu u;
   REQUIRE(lone_init(&u, 3));
   for (int latched = 0; latched < 2; latched++)
      for (uint32_t k = 0; k <= PPU_BVH_MAX_DEPTH; k++) {
         struct ppu_fault f;
         struct ppu_ttu_query q = {.ttu = &u.ttu, .pd_pa = h.t.pd, .fault = &f};
         q.p.bottom = (struct ppu_ttu_level){.address = va,
                                             .kind = PPU_BVH_KIND_TRIANGLES,
                                             .node_offset = 256,
                                             .node_count = CHAIN};
         if (latched) {
            q.leaf_node.valid = true;
            q.leaf_node.level = va;
            q.leaf_node.node = CHAIN - 1;
            q.leaf_node.ancestor[0] = chain[CHAIN - 1].parent;
            memcpy(&q.leaf_node.ancestor[1], chain[CHAIN - 1].ancestor, sizeof(chain[0].ancestor));
         }
         uint64_t before = lone_counter(&u, PPU_COUNTER_TTU_NODE_FETCHES);
         uint32_t out = ~0u;
         REQUIRE(ppu_ttu_bottom_ancestor(&q, CHAIN - 1, k, &out));
         uint64_t fetches = lone_counter(&u, PPU_COUNTER_TTU_NODE_FETCHES) - before;
         /* Each 7 levels (or part) read one node's list, up to the root
          * at level CHAIN - 1. */
         uint32_t lists = ((k < CHAIN - 1 ? k : CHAIN - 1) + 6u) / 7u;
         uint64_t want_fetches = k == 0 ? 0 : lists - (latched ? 1u : 0u);
         CHECK_MSG(out == (k < CHAIN ? CHAIN - 1 - k : 0), "k %u: ancestor %u", k, out);
         CHECK_MSG(fetches == want_fetches, "k %u latched %d: %llu fetches, want %llu", k, latched,
                   (unsigned long long)fetches, (unsigned long long)want_fetches);
      }
   /* A stored ancestor beyond the nodes: no ancestor, a fault. */
   chain[CHAIN - 1].ancestor[2] = CHAIN;
   hwt_write(&h.t.mem, h.t.pd, va + 256, chain, sizeof(chain));
   struct ppu_fault f;
   struct ppu_ttu_query q = {.ttu = &u.ttu, .pd_pa = h.t.pd, .fault = &f};
   q.p.bottom = (struct ppu_ttu_level){
       .address = va, .kind = PPU_BVH_KIND_TRIANGLES, .node_offset = 256, .node_count = CHAIN};
   uint32_t out;
   CHECK(ppu_ttu_bottom_ancestor(&q, CHAIN - 1, 3, &out));
   CHECK_EQ_U64(out, CHAIN - 4);
   CHECK(!ppu_ttu_bottom_ancestor(&q, CHAIN - 1, 4, &out));
   CHECK_EQ_U64(f.kind, PPU_FAULT_BAD_RAY_QUERY);
   ppu_ttu_finish(&u.ttu);
   hwc_finish(&h);
}

TEST_CASE(a_verified_prediction_skips_nodes_and_a_repeated_ray_is_verified)
{
   REQUIRE(hwc_init(&h, NULL));
   single_instance_scene();
   struct lone_ttu u;
   REQUIRE(lone_init(&u, 0));
   uint64_t seed = 9;
   uint32_t tried = 0;
   for (int i = 0; i < 40 && tried < 10; i++) {
      struct ts_ray r = ray_towards(&seed);
      struct ppu_ray_query_hit first, again;
      REQUIRE(lone_trace(&u, &r, &first));
      if (first.type == PPU_RQ_COMMITTED_NONE)
         continue;
      uint64_t verified = lone_counter(&u, PPU_COUNTER_TTU_PREDICTOR_VERIFIED);
      REQUIRE(lone_trace(&u, &r, &again));
      CHECK_EQ_U64(lone_counter(&u, PPU_COUNTER_TTU_PREDICTOR_VERIFIED), verified + 1);
      CHECK_EQ_U64(again.primitive_index, first.primitive_index);
      tried++;
   }
   CHECK(tried == 10);
   CHECK(lone_counter(&u, PPU_COUNTER_TTU_PREDICTOR_NODES_SKIPPED) > 0);
   ppu_ttu_finish(&u.ttu);
   hwc_finish(&h);
}

TEST_CASE(a_wrong_stale_or_forged_prediction_falls_back_and_finds_the_hit)
{
   REQUIRE(hwc_init(&h, NULL));
   single_instance_scene();
   struct ppu_bvh_header hd;
   hwt_read(&h.t.mem, h.t.pd, blas_a.va, &hd, sizeof(hd));
   struct lone_ttu off, on;
   REQUIRE(lone_init(&off, 0));
   REQUIRE(lone_init(&on, 0));
   ppu_ttu_predictor_finish(&off.ttu.predictor); /* disabled */
   uint64_t seed = 21;
   uint32_t hits = 0;
   for (int i = 0; i < 60; i++) {
      struct ts_ray r = ray_towards(&seed);
      struct ppu_ray_query_hit want, got;
      REQUIRE(lone_trace(&off, &r, &want));
      /* Plant a prediction: a deep node the ray most likely misses, an
       * address that is no instance record of this TLAS, a node index
       * beyond the structure, or the instance whose bottom level is
       * unmapped (a fault the program must not see). */
      struct ppu_ttu_predicted_node bad;
      switch (i % 4) {
      case 0:
         bad = pn(scene.inst_va[0], hd.node_count - 1 - (uint32_t)i % 4);
         break;
      case 1:
         bad = pn(scene.inst_va[0] + 64, 0);
         break;
      case 2:
         bad = pn(scene.inst_va[0], hd.node_count + 5);
         break;
      default:
         bad = pn(scene.inst_va[1], 0);
         break;
      }
      ppu_ttu_predictor_update(&on.ttu.predictor, ray_hash(&r), &bad);
      uint64_t mis = lone_counter(&on, PPU_COUNTER_TTU_PREDICTOR_MISPREDICTED);
      uint64_t ver = lone_counter(&on, PPU_COUNTER_TTU_PREDICTOR_VERIFIED);
      REQUIRE(lone_trace(&on, &r, &got));
      CHECK_MSG(got.type == want.type, "ray %d (%d): %u with the bad prediction, %u without", i,
                i % 4, got.type, want.type);
      bool verified = lone_counter(&on, PPU_COUNTER_TTU_PREDICTOR_VERIFIED) == ver + 1;
      bool mispredicted = lone_counter(&on, PPU_COUNTER_TTU_PREDICTOR_MISPREDICTED) == mis + 1;
      CHECK(verified != mispredicted);
      if (i % 4 != 0 || want.type == PPU_RQ_COMMITTED_NONE)
         CHECK_MSG(mispredicted, "ray %d", i);
      hits += want.type != PPU_RQ_COMMITTED_NONE;
   }
   CHECK(hits > 20);
   CHECK(lone_counter(&on, PPU_COUNTER_TTU_PREDICTOR_EXTRA_NODE_FETCHES) > 0);
   ppu_ttu_finish(&on.ttu);
   ppu_ttu_finish(&off.ttu);
   hwc_finish(&h);
}

/* --- Through the TTU instruction on the chip ------------------------------- */

static struct ts_ray rays[RAYS];
static struct ts_result res_off[6][RAYS], res_on[RAYS];

/* Two structures in four rotated and scaled instances with masks 1, 2, 4, 8
 * and instance flags, so predictions cross instances. */
static void instanced_scene(void)
{
   memset(&scene, 0, sizeof(scene));
   ts_random_triangles(&h, &blas_a, 300, 11, false);
   ts_random_triangles(&h, &blas_b, 200, 23, false);
   const float ax[4][3] = {{1, 1, 0}, {0, 1, 0}, {1, 0, 1}, {1, 2, 3}};
   const float sc[4][3] = {{1, 1, 1}, {2, 0.5f, 1}, {0.7f, 0.7f, 0.7f}, {1.5f, 1.5f, 1.5f}};
   const float mv[4][3] = {{-1.5f, 0, 0}, {1.5f, 0, 0}, {0, 1.5f, 0}, {0, -1.5f, 1}};
   const uint32_t flags[4] = {0, PPU_BVH_INSTANCE_FLIP_FACING, PPU_BVH_INSTANCE_CULL_DISABLE,
                              PPU_BVH_INSTANCE_FORCE_NO_OPAQUE};
   for (unsigned i = 0; i < 4; i++) {
      struct ppu_bvh_instance *in = &scene.inst[i];
      ts_transform(in, ax[i], 0.5f * (float)i, sc[i], mv[i]);
      in->blas_address = (i % 2 ? &blas_b : &blas_a)->va;
      in->custom_index_and_mask = (1u << i) << 24;
      in->sbt_offset_and_flags = flags[i] << 24;
      scene.blas[i] = i % 2 ? &blas_b : &blas_a;
   }
   scene.instance_count = 4;
   ts_build_tlas(&h, &scene);
}

/* AO-like bundles: 16 origins, 32 rays each in a cone around one direction,
 * short and long. */
static void bundled_rays(uint64_t seed, uint32_t flags, uint32_t cull_mask)
{
   for (uint32_t b = 0; b < RAYS / 32; b++) {
      float o[3], d[3];
      for (unsigned a = 0; a < 3; a++) {
         o[a] = ts_rand(&seed, -4, 4);
         d[a] = ts_rand(&seed, -1, 1) - o[a];
      }
      for (uint32_t i = 0; i < 32; i++) {
         struct ts_ray *r = &rays[b * 32 + i];
         r->tlas = scene.tlas;
         r->flags = flags;
         r->cull_mask = cull_mask;
         for (unsigned a = 0; a < 3; a++) {
            r->org[a] = o[a] + ts_rand(&seed, -0.05f, 0.05f);
            r->dir[a] = d[a] + ts_rand(&seed, -0.15f, 0.15f);
         }
         r->tmin = 0;
         r->tmax = i % 2 ? 1.0f : 0.6f;
      }
   }
}

TEST_CASE(occlusion_results_are_identical_with_the_predictor_on_and_off)
{
   struct ppu_gpu_config cfg;
   ppu_gpu_config_default(&cfg);
   cfg.vram_size = 256ull << 20;
   cfg.max_channels = 16;
   static const struct {
      uint32_t flags, cull;
      const char *what;
   } cases[] = {
       {OCCLUSION, 0xff, "TERMINATE_ON_FIRST_HIT | OPAQUE"},
       {OCCLUSION | PPU_RAY_FLAG_CULL_BACK_FACING, 0xff, "with CULL_BACK_FACING"},
       {OCCLUSION | PPU_RAY_FLAG_CULL_FRONT_FACING, 0xff, "with CULL_FRONT_FACING"},
       {OCCLUSION, 0x05, "cull mask 0x05 after learning with 0xff"},
       {OCCLUSION, 0x02, "cull mask 0x02"},
       {PPU_RAY_FLAG_TERMINATE_ON_FIRST_HIT, 0xff, "not OPAQUE: not predicted"},
   };
   uint64_t predicted = 0, verified = 0;
   for (int on = 0; on < 2; on++) {
      cfg.ttu_predictor = (struct ppu_ttu_predictor_config){.enabled = on != 0};
      REQUIRE(hwc_init(&h, &cfg));
      instanced_scene();
      for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
         uint64_t lookups = hwt_counter(&h.t, PPU_COUNTER_TTU_PREDICTOR_LOOKUPS);
         /* Twice: the second pass meets a table the first one filled. */
         for (int pass = 0; pass < 2; pass++) {
            bundled_rays(700 + c, cases[c].flags, cases[c].cull);
            struct ts_result *res = on ? res_on : res_off[c];
            REQUIRE(ts_run(&h, ts_program, rays, RAYS, 1, 1, res, NULL, NULL));
         }
         uint64_t looked = hwt_counter(&h.t, PPU_COUNTER_TTU_PREDICTOR_LOOKUPS) - lookups;
         if (!on || c == 5)
            CHECK_MSG(looked == 0, "%s: %llu lookups", cases[c].what, (unsigned long long)looked);
         else
            CHECK_EQ_U64(looked, 2 * RAYS);
         if (!on)
            continue;
         uint32_t hits = 0;
         struct ts_policy pol = {1, 1};
         static struct ts_hit all[4096];
         for (uint32_t i = 0; i < RAYS; i++) {
            bool hit_off = res_off[c][i].committed.type != PPU_RQ_COMMITTED_NONE;
            bool hit_on = res_on[i].committed.type != PPU_RQ_COMMITTED_NONE;
            CHECK_MSG(hit_off == hit_on, "%s: ray %u hits %d off, %d on", cases[c].what, i, hit_off,
                      hit_on);
            hits += hit_on;
            if (!hit_on)
               continue;
            /* Any hit will do (TERMINATE_ON_FIRST_HIT), but it must be one. */
            struct ts_hit best;
            uint32_t n = ts_reference(&scene, &rays[i], &pol, &best, all, 4096);
            bool found = false;
            for (uint32_t k = 0; k < n && k < 4096 && !found; k++)
               found = all[k].instance == res_on[i].committed.instance_id &&
                       all[k].primitive == res_on[i].committed.primitive_index;
            CHECK_MSG(found, "%s: ray %u committed a hit the reference does not have",
                      cases[c].what, i);
         }
         CHECK_MSG(hits > RAYS / 32 && hits < RAYS, "%s: %u hits", cases[c].what, hits);
      }
      if (on) {
         predicted = hwt_counter(&h.t, PPU_COUNTER_TTU_PREDICTOR_PREDICTED);
         verified = hwt_counter(&h.t, PPU_COUNTER_TTU_PREDICTOR_VERIFIED);
         CHECK_EQ_U64(predicted,
                      verified + hwt_counter(&h.t, PPU_COUNTER_TTU_PREDICTOR_MISPREDICTED));
      }
      hwc_finish(&h);
   }
   printf("  predicted %llu, verified %llu of %u occlusion rays\n", (unsigned long long)predicted,
          (unsigned long long)verified, 10 * RAYS);
   CHECK(verified > RAYS);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
