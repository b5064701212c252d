/* The hardware configuration file (ppu/hw_config.h): every key type, every
 * kind of error with its line, the presets (built in = shipped files, print
 * then parse gives the same chip), the generated documentation, and that the
 * chip shape a file gives is the chip the model runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compute_test_util.h"
#include "ppu/counters.h"
#include "ppu/hw_config.h"
#include "test_harness.h"
#include "ttu_test_scene.h"

static char *read_source_file(const char *relative)
{
   char path[1024];
   snprintf(path, sizeof(path), "%s/%s", VKPPU_SOURCE_DIR, relative);
   FILE *f = fopen(path, "rb");
   if (!f)
      return NULL;
   fseek(f, 0, SEEK_END);
   long n = ftell(f);
   fseek(f, 0, SEEK_SET);
   char *text = malloc((size_t)n + 1);
   if (text && fread(text, 1, (size_t)n, f) != (size_t)n) {
      free(text);
      text = NULL;
   }
   if (text)
      text[n] = '\0';
   fclose(f);
   return text;
}

/* Parses text over the defaults; returns the error count, errors in err. */
static unsigned parse(struct ppu_gpu_config *cfg, const char *text, char *err, size_t size)
{
   ppu_gpu_config_default(cfg);
   return ppu_hw_config_parse(cfg, text, "test.conf", err, size);
}

/* The text holds exactly one error, and it contains `expected`. */
static void check_one_error(const char *text, const char *expected)
{
   struct ppu_gpu_config cfg;
   char err[2048];
   unsigned n = parse(&cfg, text, err, sizeof(err));
   CHECK_MSG(n == 1, "%u errors for <<%s>>:\n%s", n, text, err);
   CHECK_MSG(strstr(err, expected) != NULL, "expected \"%s\" in:\n%s", expected, err);
}

TEST_CASE(defaults_are_todays_chip)
{
   /* The values the model had before the file existed: nothing changes for
    * a run without VKPPU_HW_CONFIG. */
   struct ppu_gpu_config c;
   ppu_gpu_config_default(&c);
   CHECK_EQ_U64(c.vram_size, 8ull << 30);
   CHECK_EQ_U64(c.max_channels, 64);
   CHECK_EQ_U64(c.gpc_count, 2);
   CHECK_EQ_U64(c.tpcs_per_gpc, 2);
   CHECK_EQ_U64(c.sms_per_tpc, 1);
   CHECK_EQ_U64(c.max_warps_per_sm, 48);
   CHECK_EQ_U64(c.max_workgroups_per_sm, 16);
   CHECK_EQ_U64(c.registers_per_sm, 65536);
   CHECK_EQ_U64(c.shared_memory_per_sm, 48u << 10);
   CHECK_EQ_U64(c.host_worker_threads, 0);
   CHECK_EQ_U64(c.watchdog_warp_instructions, 1ull << 34);
   CHECK_EQ_U64(c.watchdog_instructions_per_warp, 1ull << 19);
   CHECK(c.mode == PPU_GPU_MODE_FUNCTIONAL);
   CHECK(!c.ttu_predictor.enabled);

   struct ppu_gpu_config p;
   char err[1024];
   CHECK_EQ_U64(ppu_hw_config_load(&p, "default", err, sizeof(err)), 0);
   CHECK(ppu_hw_config_equal(&c, &p));
   CHECK_EQ_U64(parse(&p, "", err, sizeof(err)), 0);
   CHECK(ppu_hw_config_equal(&c, &p));
}

TEST_CASE(every_key_has_a_valid_default_and_a_unique_name)
{
   for (unsigned i = 0; i < PPU_HWCFG_KEY_COUNT; i++) {
      const struct ppu_hw_config_key *k = &ppu_hw_config_keys[i];
      CHECK_MSG(strchr(k->name, '.') != NULL, "%s has no section", k->name);
      CHECK(ppu_hw_config_find_key(k->name) == k);
      if (k->type == PPU_HWCFG_FLOAT)
         CHECK_MSG(k->fdef >= k->fmin && k->fdef <= k->fmax, "%s default out of range", k->name);
      else
         CHECK_MSG(k->def >= k->min && k->def <= k->max, "%s default out of range", k->name);
      if (k->step == PPU_HWCFG_STEP_POW2)
         CHECK_MSG(k->def && !(k->def & (k->def - 1)) && k->min && !(k->min & (k->min - 1)) &&
                       !(k->max & (k->max - 1)),
                   "%s default or bounds not a power of two", k->name);
      else
         CHECK_MSG(k->step <= 1 || k->def % k->step == 0, "%s default not a multiple", k->name);
      CHECK_MSG(k->description && *k->description, "%s has no description", k->name);
   }
}

TEST_CASE(integer_keys_take_decimal_hex_and_their_unit)
{
   struct ppu_gpu_config c;
   char err[1024];
   const char *text = "# a comment line\n"
                      "\n"
                      "gpu.gpcs = 3\n"
                      "  gpu.tpcs_per_gpc=0x4   # hex, no spaces around '='\n"
                      "sm.warps_max = 40 warps\n"
                      "compute.watchdog_warp_instructions = 18446744073709551615\n"
                      "host.worker_threads = 2 THREADS\r\n";
   REQUIRE(parse(&c, text, err, sizeof(err)) == 0);
   CHECK_EQ_U64(c.gpc_count, 3);
   CHECK_EQ_U64(c.tpcs_per_gpc, 4);
   CHECK_EQ_U64(c.max_warps_per_sm, 40);
   CHECK_EQ_U64(c.watchdog_warp_instructions, ~0ull);
   CHECK_EQ_U64(c.host_worker_threads, 2);
   CHECK_EQ_U64(c.sms_per_tpc, 1); /* not given: default */
}

TEST_CASE(size_keys_take_every_binary_unit)
{
   static const struct {
      const char *text;
      uint64_t bytes;
   } cases[] = {
       {"sm.shared_memory = 65536 B", 65536},  {"sm.shared_memory = 32 KiB", 32768},
       {"sm.shared_memory = 1 MiB", 1u << 20}, {"gpu.vram = 6 GiB", 6ull << 30},
       {"gpu.vram = 1 TiB", 1ull << 40},       {"gpu.vram = 0x1000000 B", 1ull << 24},
       {"sm.shared_memory = 0 KiB", 0},
   };
   for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      struct ppu_gpu_config c;
      char err[1024];
      CHECK_MSG(parse(&c, cases[i].text, err, sizeof(err)) == 0, "%s: %s", cases[i].text, err);
      uint64_t got =
          strncmp(cases[i].text, "gpu.vram", 8) == 0 ? c.vram_size : c.shared_memory_per_sm;
      CHECK_MSG(got == cases[i].bytes, "%s gave %llu", cases[i].text, (unsigned long long)got);
   }
}

TEST_CASE(boolean_enum_and_float_keys)
{
   static const char *const yes[] = {"true", "YES", "on", "1"};
   static const char *const no[] = {"false", "no", "Off", "0"};
   for (unsigned i = 0; i < 4; i++) {
      struct ppu_gpu_config c;
      char text[128], err[1024];
      snprintf(text, sizeof(text), "ttu.merge_node_requests = %s", no[i]);
      CHECK(parse(&c, text, err, sizeof(err)) == 0 && !c.ttu_merge_node_requests);
      snprintf(text, sizeof(text), "ttu.merge_node_requests = %s", yes[i]);
      CHECK(parse(&c, text, err, sizeof(err)) == 0 && c.ttu_merge_node_requests);
   }
   struct ppu_gpu_config c;
   char err[1024];
   CHECK(parse(&c, "gpu.mode = Functional", err, sizeof(err)) == 0);
   CHECK(c.mode == PPU_GPU_MODE_FUNCTIONAL);
   CHECK(parse(&c, "gpu.clock = 1.545 GHz", err, sizeof(err)) == 0);
   CHECK(c.clock_ghz == 1.545);
   CHECK(parse(&c, "gpu.clock = 0.8", err, sizeof(err)) == 0);
   CHECK(c.clock_ghz == 0.8);
}

TEST_CASE(unknown_key_names_its_line_and_suggests_the_close_name)
{
   check_one_error("gpu.gpcs = 2\nsm.warp_max = 32\n",
                   "test.conf:2: unknown key 'sm.warp_max' (did you mean 'sm.warps_max'?)");
   /* The section left out. */
   check_one_error("shared_memory = 64 KiB",
                   "test.conf:1: unknown key 'shared_memory' (did you mean 'sm.shared_memory'?)");
   /* Nothing close: no guess. */
   check_one_error("\n\nfrobnicator.depth = 3", "test.conf:3: unknown key 'frobnicator.depth' "
                                                "(docs/hw-config.md lists the keys)");
   CHECK(ppu_hw_config_suggest("zzzzzz", (const char *const[]){"gpu.gpcs", NULL}, 0) == NULL);
}

TEST_CASE(bad_values_name_the_line_and_what_was_expected)
{
   check_one_error("gpu.gpcs = two", "test.conf:1: bad value 'two' for gpu.gpcs: expected a whole "
                                     "number");
   check_one_error("gpu.gpcs = -1", "bad value '-1' for gpu.gpcs");
   check_one_error("gpu.gpcs = 2 warps", "unexpected 'warps' after the number (the unit is GPCs)");
   check_one_error("gpu.gpcs = 99999999999999999999999", "bad value");
   check_one_error("sm.shared_memory = 64", "missing unit");
   check_one_error("sm.shared_memory = 64 KB", "unknown unit 'KB': sizes take B, KiB");
   check_one_error("ttu.merge_node_requests = maybe", "expected true or false");
   check_one_error("gpu.mode = timng",
                   "expected one of functional, timing (did you mean 'timing'?)");
   check_one_error("gpu.clock = fast", "bad value 'fast' for gpu.clock: expected a decimal number");
   check_one_error("gpu.clock = 1.2 MHz", "(the unit is GHz)");
   check_one_error("gpu.gpcs =", "test.conf:1: no value for 'gpu.gpcs'");
   check_one_error("gpu.gpcs 2", "test.conf:1: expected 'section.key = value', found 'gpu.gpcs 2'");
   check_one_error("= 2", "a key name is missing");
}

TEST_CASE(out_of_range_values_give_the_range)
{
   check_one_error("\ngpu.gpcs = 0", "test.conf:2: gpu.gpcs = 0 is out of range 1 .. 256");
   check_one_error("sm.warps_max = 65", "sm.warps_max = 65 is out of range 1 .. 64");
   check_one_error("sm.shared_memory = 2 MiB", "out of range 0 B .. 1 MiB");
   check_one_error("gpu.clock = 20 GHz", "gpu.clock = 20 GHz is out of range 0.05 .. 10");
   check_one_error("gpu.vram = 5000 B", "gpu.vram = 5000 B is out of range 16 MiB .. 1 TiB");
   check_one_error("gpu.vram = 16779264 B", "gpu.vram = 16779264 B is not a multiple of 4 KiB");
   check_one_error("ttu.l0_lines = 65", "ttu.l0_lines = 65 is out of range 1 .. 64");
   /* Between keys: reported on the line of the last key involved. */
   check_one_error("gpu.gpcs = 16\ngpu.tpcs_per_gpc = 16\n\ngpu.sms_per_tpc = 2\n",
                   "test.conf:4: gpu.gpcs x gpu.tpcs_per_gpc x gpu.sms_per_tpc = 16 x 16 x 2 = "
                   "512 SMs");
}

TEST_CASE(overrides_after_a_comma_apply_on_top_of_a_preset)
{
   struct ppu_gpu_config cfg, desktop;
   char err[512];
   REQUIRE(ppu_hw_config_load(&desktop, "desktop", err, sizeof(err)) == 0);
   CHECK_EQ_U64(
       ppu_hw_config_load(&cfg, "desktop,gpu.mode=timing, sm.alu.latency = 6", err, sizeof(err)),
       0);
   CHECK(cfg.mode == PPU_GPU_MODE_TIMING);
   CHECK_EQ_U64(cfg.alu_latency, 6);
   CHECK_EQ_U64(cfg.gpc_count, desktop.gpc_count);
   /* A key the preset sets may be overridden. */
   CHECK_EQ_U64(ppu_hw_config_load(&cfg, "desktop,gpu.gpcs=1", err, sizeof(err)), 0);
   CHECK_EQ_U64(cfg.gpc_count, 1);
   /* Mistakes in either part are reported. */
   CHECK_EQ_U64(ppu_hw_config_load(&cfg, "mobile,sm.alu.latency=0", err, sizeof(err)), 1);
   CHECK_MSG(strstr(err, "sm.alu.latency = 0 is out of range") != NULL, "got: %s", err);
   CHECK_EQ_U64(ppu_hw_config_load(&cfg, "mobil,gpu.mode=timing", err, sizeof(err)), 1);
   CHECK_MSG(strstr(err, "did you mean 'mobile'") != NULL, "got: %s", err);
}

TEST_CASE(timing_mode_is_accepted)
{
   struct ppu_gpu_config cfg;
   ppu_gpu_config_default(&cfg);
   char err[256] = "";
   CHECK_EQ_U64(ppu_hw_config_parse(&cfg, "gpu.mode = timing\nl2.size = 2 MiB\n", "test.conf", err,
                                    sizeof(err)),
                0u);
   CHECK(cfg.mode == PPU_GPU_MODE_TIMING);
   CHECK_EQ_U64(cfg.l2_size, 2ull << 20);
   check_one_error("sm.alu.latency = 0", "sm.alu.latency = 0 is out of range 1 .. 1000");
}

TEST_CASE(duplicate_keys_name_both_lines)
{
   check_one_error("gpu.gpcs = 1\n# again\ngpu.gpcs = 1\n",
                   "test.conf:3: duplicate key 'gpu.gpcs' (first given on line 1)");
}

TEST_CASE(every_error_of_a_file_is_reported_in_one_run)
{
   struct ppu_gpu_config c;
   char err[4096];
   unsigned n = parse(&c, "gpu.gpcs = 0\nsm.warp_max = 1\ngpu.gpcs = 2\nsm.registers = x\n", err,
                      sizeof(err));
   CHECK_EQ_U64(n, 4);
   CHECK(strstr(err, "test.conf:1:") && strstr(err, "test.conf:2:") &&
         strstr(err, "test.conf:3:") && strstr(err, "test.conf:4:"));
}

TEST_CASE(load_reports_unknown_presets_and_unreadable_files)
{
   struct ppu_gpu_config c;
   char err[1024];
   CHECK_EQ_U64(ppu_hw_config_load(&c, "mobil", err, sizeof(err)), 1);
   CHECK_MSG(strstr(err, "'mobil'") && strstr(err, "did you mean 'mobile'?"), "%s", err);
   CHECK_EQ_U64(ppu_hw_config_load(&c, "/nonexistent/chip.conf", err, sizeof(err)), 1);
   CHECK_MSG(strstr(err, "/nonexistent/chip.conf: cannot read") != NULL, "%s", err);
}

TEST_CASE(built_in_presets_equal_the_shipped_files)
{
   CHECK(ppu_hw_config_preset_text("mobile") != NULL);
   CHECK(ppu_hw_config_preset_text("desktop") != NULL);
   CHECK(ppu_hw_config_preset_text("default") != NULL);
   for (unsigned i = 0; i < ppu_hw_preset_count; i++) {
      char rel[256];
      snprintf(rel, sizeof(rel), "hw/presets/%s.conf", ppu_hw_presets[i].name);
      char *file = read_source_file(rel);
      CHECK_MSG(file && strcmp(file, ppu_hw_presets[i].text) == 0,
                "%s differs from the built-in preset (rebuild)", rel);
      free(file);

      /* Loading the file by path gives the preset's chip. */
      char path[1024], err[2048];
      snprintf(path, sizeof(path), "%s/%s", VKPPU_SOURCE_DIR, rel);
      struct ppu_gpu_config a, b;
      CHECK_EQ_U64(ppu_hw_config_load(&a, ppu_hw_presets[i].name, err, sizeof(err)), 0);
      CHECK_MSG(ppu_hw_config_load(&b, path, err, sizeof(err)) == 0, "%s", err);
      CHECK(ppu_hw_config_equal(&a, &b));
   }
}

TEST_CASE(mobile_and_desktop_presets_have_the_papers_shapes)
{
   struct ppu_gpu_config m, d;
   char err[2048];
   REQUIRE(ppu_hw_config_load(&m, "mobile", err, sizeof(err)) == 0);
   REQUIRE(ppu_hw_config_load(&d, "desktop", err, sizeof(err)) == 0);
   uint32_t mobile_sms = m.gpc_count * m.tpcs_per_gpc * m.sms_per_tpc;
   uint32_t desktop_sms = d.gpc_count * d.tpcs_per_gpc * d.sms_per_tpc;
   CHECK(mobile_sms <= 4);
   CHECK(desktop_sms >= 64);
   CHECK_EQ_U64(m.shared_memory_per_sm, 64u << 10); /* the notes' 64 KB L1 */
   CHECK_EQ_U64(m.ttu_l0_lines, 8);                 /* beam-tracing seed */
   CHECK(m.ttu_ray_queue_slots < d.ttu_ray_queue_slots);
}

TEST_CASE(printed_configuration_parses_back_to_the_same_chip)
{
   for (unsigned i = 0; i < ppu_hw_preset_count; i++) {
      struct ppu_gpu_config a, b;
      char err[2048];
      REQUIRE(ppu_hw_config_load(&a, ppu_hw_presets[i].name, err, sizeof(err)) == 0);
      char *text = ppu_hw_config_format(&a, ppu_hw_presets[i].name);
      REQUIRE(text != NULL);
      CHECK_MSG(parse(&b, text, err, sizeof(err)) == 0, "%s:\n%s", ppu_hw_presets[i].name, err);
      CHECK_MSG(ppu_hw_config_equal(&a, &b), "%s does not round-trip", ppu_hw_presets[i].name);
      /* Every key is printed, and says whether it is the default. */
      for (unsigned k = 0; k < PPU_HWCFG_KEY_COUNT; k++) {
         char needle[96];
         snprintf(needle, sizeof(needle), "\n%s = ", ppu_hw_config_keys[k].name);
         CHECK_MSG(strstr(text, needle) != NULL, "%s missing", ppu_hw_config_keys[k].name);
      }
      free(text);
   }
   /* A value with a long decimal expansion survives too. */
   struct ppu_gpu_config a, b;
   char err[1024];
   REQUIRE(parse(&a, "gpu.clock = 1.2345678901234567\ngpu.vram = 17 MiB", err, sizeof(err)) == 0);
   char *text = ppu_hw_config_format(&a, "odd");
   REQUIRE(text != NULL);
   CHECK(strstr(text, "gpu.vram = 17 MiB") != NULL);
   CHECK(strstr(text, "# set; default 8 GiB") != NULL);
   CHECK(parse(&b, text, err, sizeof(err)) == 0 && ppu_hw_config_equal(&a, &b));
   free(text);
}

TEST_CASE(committed_doc_equals_the_generated_one)
{
   char *doc = ppu_hw_config_doc_markdown();
   char *committed = read_source_file("docs/hw-config.md");
   REQUIRE(doc != NULL);
   CHECK_MSG(committed && strcmp(doc, committed) == 0,
             "docs/hw-config.md is stale: run build/tools/ppu_config/ppu-config --doc > "
             "docs/hw-config.md");
   for (unsigned k = 0; k < PPU_HWCFG_KEY_COUNT; k++)
      CHECK(strstr(doc, ppu_hw_config_keys[k].name) != NULL);
   free(doc);
   free(committed);
}

/* SMs that ran at least one workgroup of a one-line program: each SM's
 * instruction cache misses exactly once per grid on it. */
static uint64_t sms_used_by_a_grid(const char *config_text, uint32_t workgroups)
{
   struct ppu_gpu_config cfg;
   char err[1024];
   if (parse(&cfg, config_text, err, sizeof(err))) {
      test_fail(__FILE__, __LINE__, "%s", err);
      return 0;
   }
   struct hwc h;
   if (!hwc_init(&h, &cfg)) {
      test_fail(__FILE__, __LINE__, "hwc_init");
      return 0;
   }
   uint64_t prog = hwc_program(&h, "EXIT\n");
   struct ppu_qmd q;
   hwc_qmd_defaults(&h, &q, prog);
   q.grid_size[0] = workgroups;
   uint64_t before[PPU_COUNTER_COUNT], after[PPU_COUNTER_COUNT];
   ppu_gpu_read_counters(h.t.gpu, before);
   bool ok = hwc_launch(&h, &q, 0, NULL);
   ppu_gpu_read_counters(h.t.gpu, after);
   CHECK(ok);
   CHECK_EQ_U64(after[PPU_COUNTER_COMPUTE_WORKGROUPS] - before[PPU_COUNTER_COMPUTE_WORKGROUPS],
                workgroups);
   hwc_finish(&h);
   return after[PPU_COUNTER_COMPUTE_ICACHE_MISSES] - before[PPU_COUNTER_COMPUTE_ICACHE_MISSES];
}

TEST_CASE(the_configured_sm_count_is_the_one_the_model_runs)
{
   /* One worker thread: every SM takes its first workgroups in the first
    * round, so each SM of the chip runs some (16 slots x SMs < grid). */
   const char *base = "gpu.vram = 256 MiB\nhost.worker_threads = 1\n";
   char text[512];
   snprintf(text, sizeof(text), "%sgpu.gpcs = 1\ngpu.tpcs_per_gpc = 1\n", base);
   CHECK_EQ_U64(sms_used_by_a_grid(text, 512), 1);
   snprintf(text, sizeof(text), "%sgpu.gpcs = 3\ngpu.tpcs_per_gpc = 2\ngpu.sms_per_tpc = 2\n",
            base);
   CHECK_EQ_U64(sms_used_by_a_grid(text, 512), 12);
   CHECK_EQ_U64(sms_used_by_a_grid(base, 512), 4); /* the default 2 x 2 x 1 */
}

TEST_CASE(cache_sizes_out_of_range_or_not_a_power_of_two_are_rejected)
{
   check_one_error("sm.icache_lines = 0", "sm.icache_lines = 0 is out of range 1 .. 1024");
   check_one_error("sm.icache_lines = 1025", "sm.icache_lines = 1025 is out of range 1 .. 1024");
   check_one_error("ttu.l0_lines = 0", "ttu.l0_lines = 0 is out of range 1 .. 64");
   check_one_error("mmu.tlb_entries = 512", "mmu.tlb_entries = 512 is out of range 1 .. 256");
   check_one_error("\nmmu.tlb_entries = 48",
                   "test.conf:2: mmu.tlb_entries = 48 is not a power of two");
   /* The TLB indexes by masking; any other size is fine anywhere in range. */
   struct ppu_gpu_config c;
   char err[1024];
   CHECK_MSG(parse(&c, "sm.icache_lines = 3\nttu.l0_lines = 5\nmmu.tlb_entries = 1\n", err,
                   sizeof(err)) == 0,
             "%s", err);
   CHECK(c.icache_lines == 3 && c.ttu_l0_lines == 5 && c.tlb_entries == 1);
   /* A configuration built in code, not parsed, meets the same limits. */
   static const struct {
      uint32_t icache, tlb, l0;
      const char *why;
   } bad[] = {
       {0, 64, 8, "icache_lines must be 1..1024"},
       {256, 48, 8, "tlb_entries must be a power of two, 1..256"},
       {256, 512, 8, "tlb_entries must be a power of two, 1..256"},
       {256, 64, 65, "ttu_l0_lines must be 1..64"},
   };
   for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
      ppu_gpu_config_default(&c);
      c.vram_size = 64ull << 20;
      c.icache_lines = bad[i].icache;
      c.tlb_entries = bad[i].tlb;
      c.ttu_l0_lines = bad[i].l0;
      err[0] = '\0';
      struct ppu_gpu *gpu = ppu_gpu_create(&c, err, sizeof(err));
      CHECK_MSG(!gpu && strstr(err, bad[i].why), "case %u: '%s'", i, err);
      if (gpu)
         ppu_gpu_destroy(gpu);
   }
}

/* One workgroup on a one-SM chip: a loop of 16 iterations whose body spans
 * several icache lines and that reads and writes one of four data pages in
 * turn (out word (i % 4 + 1) * 1024 + lane += i + 1). *counters gets the
 * grid's counter deltas; out the four pages. */
#define LOOP_WORDS (4u * 1024u)
static bool run_cache_loop(const char *sizes, uint64_t counters[PPU_COUNTER_COUNT],
                           uint32_t out[LOOP_WORDS])
{
   char text[512], err[1024];
   snprintf(text, sizeof(text),
            "gpu.vram = 256 MiB\ngpu.gpcs = 1\ngpu.tpcs_per_gpc = 1\nhost.worker_threads = 1\n%s",
            sizes);
   struct ppu_gpu_config cfg;
   if (parse(&cfg, text, err, sizeof(err))) {
      test_fail(__FILE__, __LINE__, "%s", err);
      return false;
   }
   struct hwc h;
   if (!hwc_init(&h, &cfg)) {
      test_fail(__FILE__, __LINE__, "hwc_init");
      return false;
   }
   uint64_t prog = hwc_program(&h, "S2R R0, SR_TID_FLAT\n"
                                   "LDC.U64 R60, c[0][RZ]\n"
                                   "MOV R1, 0\n"
                                   "loop:\n"
                                   "  AND R3, R1, 3\n"
                                   "  IADD.U32 R3, R3, 1\n"
                                   "  SHL R3, R3, 10\n"
                                   "  IADD.U32 R3, R3, R0\n"
                                   "  IMADW.U32 R4, R3, 4, R60\n"
                                   "  LD.GLOBAL.U32 R6, [R4]\n"
                                   "  IADD.U32 R6, R6, R1\n"
                                   "  IADD.U32 R6, R6, 1\n"
                                   "  ST.GLOBAL.U32 [R4], R6\n"
                                   "  NOP\nNOP\nNOP\nNOP\nNOP\nNOP\nNOP\nNOP\n"
                                   "  NOP\nNOP\nNOP\nNOP\nNOP\nNOP\nNOP\nNOP\n"
                                   "  IADD.U32 R1, R1, 1\n"
                                   "  ISETP.LT.U32 P0, R1, 16, PT\n"
                                   "  @P0 BRA loop\n"
                                   "EXIT\n");
   struct ppu_qmd q;
   hwc_qmd_defaults(&h, &q, prog);
   uint64_t before[PPU_COUNTER_COUNT];
   ppu_gpu_read_counters(h.t.gpu, before);
   bool ok = prog && hwc_launch(&h, &q, 0, NULL);
   ppu_gpu_read_counters(h.t.gpu, counters);
   for (unsigned i = 0; i < PPU_COUNTER_COUNT; i++)
      counters[i] -= before[i];
   hwt_read(&h.t.mem, h.t.pd, h.out_va + 4096, out, LOOP_WORDS * 4);
   hwc_finish(&h);
   CHECK_MSG(ok, "grid with '%s' faulted", sizes);
   return ok;
}

TEST_CASE(icache_and_tlb_sizes_change_the_counters_never_the_results)
{
   static uint32_t big_out[LOOP_WORDS], small_icache_out[LOOP_WORDS], small_tlb_out[LOOP_WORDS];
   uint64_t big[PPU_COUNTER_COUNT], small_icache[PPU_COUNTER_COUNT], small_tlb[PPU_COUNTER_COUNT];
   REQUIRE(run_cache_loop("sm.icache_lines = 256\nmmu.tlb_entries = 256\n", big, big_out));
   REQUIRE(run_cache_loop("sm.icache_lines = 1\nmmu.tlb_entries = 256\n", small_icache,
                          small_icache_out));
   REQUIRE(
       run_cache_loop("sm.icache_lines = 256\nmmu.tlb_entries = 1\n", small_tlb, small_tlb_out));
   /* The program is 32 instructions: 4 lines, each missed once when they
    * all fit. One line: the loop body's 3+ lines evict each other every
    * iteration. */
   CHECK_EQ_U64(big[PPU_COUNTER_COMPUTE_ICACHE_MISSES], 4);
   CHECK_MSG(small_icache[PPU_COUNTER_COMPUTE_ICACHE_MISSES] >= 16 * 3, "%llu misses",
             (unsigned long long)small_icache[PPU_COUNTER_COMPUTE_ICACHE_MISSES]);
   /* Four data pages in turn: a one-entry TLB misses each load (its store
    * hits the entry the load filled); 256 entries miss each page once. */
   CHECK_EQ_U64(small_tlb[PPU_COUNTER_COMPUTE_ICACHE_MISSES], 4);
   CHECK_MSG(small_tlb[PPU_COUNTER_MMU_TLB_MISSES] >= big[PPU_COUNTER_MMU_TLB_MISSES] + 12,
             "%llu vs %llu TLB misses", (unsigned long long)small_tlb[PPU_COUNTER_MMU_TLB_MISSES],
             (unsigned long long)big[PPU_COUNTER_MMU_TLB_MISSES]);
   CHECK_EQ_U64(small_tlb[PPU_COUNTER_MMU_TLB_HITS] + small_tlb[PPU_COUNTER_MMU_TLB_MISSES],
                big[PPU_COUNTER_MMU_TLB_HITS] + big[PPU_COUNTER_MMU_TLB_MISSES]);
   /* Same results: page k holds the sum of i + 1 over i % 4 == k. */
   for (unsigned k = 0; k < 4; k++) {
      uint32_t want = 0;
      for (uint32_t i = k; i < 16; i += 4)
         want += i + 1;
      for (unsigned lane = 0; lane < 32; lane++)
         CHECK_EQ_U64(big_out[k * 1024 + lane], want);
   }
   CHECK(memcmp(big_out, small_icache_out, sizeof(big_out)) == 0);
   CHECK(memcmp(big_out, small_tlb_out, sizeof(big_out)) == 0);
}

/* Closest hits of 256 random rays into one instance of 300 random
 * triangles, on a one-SM chip with the given L0 size: the results, and the
 * L0 hit and miss counts. */
#define L0_RAYS 256
static bool run_l0_rays(uint32_t l0_lines, struct ts_result *res, uint64_t *hits, uint64_t *misses)
{
   char text[512], err[1024];
   snprintf(text, sizeof(text),
            "gpu.vram = 256 MiB\ngpu.gpcs = 1\ngpu.tpcs_per_gpc = 1\nhost.worker_threads = "
            "1\nttu.l0_lines = %u\n",
            l0_lines);
   struct ppu_gpu_config cfg;
   if (parse(&cfg, text, err, sizeof(err))) {
      test_fail(__FILE__, __LINE__, "%s", err);
      return false;
   }
   static struct hwc h;
   static struct ts_blas blas;
   static struct ts_scene scene;
   static struct ts_ray rays[L0_RAYS];
   if (!hwc_init(&h, &cfg)) {
      test_fail(__FILE__, __LINE__, "hwc_init");
      return false;
   }
   memset(&scene, 0, sizeof(scene));
   ts_random_triangles(&h, &blas, 300, 5, true);
   const float axis[3] = {0, 0, 1}, scale[3] = {1, 1, 1}, move[3] = {0, 0, 0};
   ts_transform(&scene.inst[0], axis, 0, scale, move);
   scene.inst[0].blas_address = blas.va;
   scene.inst[0].custom_index_and_mask = 0xffu << 24;
   scene.blas[0] = &blas;
   scene.instance_count = 1;
   ts_build_tlas(&h, &scene);
   uint64_t seed = 99;
   for (unsigned i = 0; i < L0_RAYS; i++) {
      struct ts_ray *r = &rays[i];
      memset(r, 0, sizeof(*r));
      r->tlas = scene.tlas;
      r->cull_mask = 0xff;
      /* From around the triangles towards a point among them. */
      for (unsigned a = 0; a < 3; a++) {
         r->org[a] = ts_rand(&seed, -4, 4);
         r->dir[a] = ts_rand(&seed, -0.5f, 0.5f) - r->org[a];
      }
      r->tmax = 1e30f;
   }
   uint64_t h0 = hwt_counter(&h.t, PPU_COUNTER_TTU_L0_HITS);
   uint64_t m0 = hwt_counter(&h.t, PPU_COUNTER_TTU_L0_MISSES);
   bool ok = ts_run(&h, ts_program, rays, L0_RAYS, 1, 1, res, NULL, NULL);
   *hits = hwt_counter(&h.t, PPU_COUNTER_TTU_L0_HITS) - h0;
   *misses = hwt_counter(&h.t, PPU_COUNTER_TTU_L0_MISSES) - m0;
   hwc_finish(&h);
   CHECK_MSG(ok, "ray grid with %u L0 lines faulted", l0_lines);
   return ok;
}

TEST_CASE(ttu_l0_lines_change_the_l0_counts_never_the_hits)
{
   static struct ts_result one[L0_RAYS], seed[L0_RAYS], many[L0_RAYS];
   uint64_t h1, m1, h8, m8, h64, m64;
   REQUIRE(run_l0_rays(1, one, &h1, &m1));
   REQUIRE(run_l0_rays(8, seed, &h8, &m8));
   REQUIRE(run_l0_rays(64, many, &h64, &m64));
   /* The same lookups; a bigger LRU cache holds a superset of a smaller
    * one's lines (LRU is a stack algorithm), so it never hits less. */
   CHECK_EQ_U64(h1 + m1, h8 + m8);
   CHECK_EQ_U64(h8 + m8, h64 + m64);
   CHECK_MSG(h1 < h8 && h8 < h64, "L0 hits: 1 line %llu, 8 lines %llu, 64 lines %llu",
             (unsigned long long)h1, (unsigned long long)h8, (unsigned long long)h64);
   uint32_t hit_rays = 0;
   for (unsigned i = 0; i < L0_RAYS; i++)
      hit_rays += one[i].committed.type != 0;
   CHECK_MSG(hit_rays > L0_RAYS / 4, "only %u rays hit", hit_rays);
   CHECK(memcmp(one, seed, sizeof(one)) == 0);
   CHECK(memcmp(one, many, sizeof(one)) == 0);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
