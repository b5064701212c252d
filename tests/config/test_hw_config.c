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
   check_one_error("ttu.l0_lines = 4", "out of range 8 .. 8 (the model fixes this size");
   /* Between keys: reported on the line of the last key involved. */
   check_one_error("gpu.gpcs = 16\ngpu.tpcs_per_gpc = 16\n\ngpu.sms_per_tpc = 2\n",
                   "test.conf:4: gpu.gpcs x gpu.tpcs_per_gpc x gpu.sms_per_tpc = 16 x 16 x 2 = "
                   "512 SMs");
   check_one_error("gpu.mode = timing", "test.conf:1: gpu.mode = timing: the timing mode is not "
                                        "implemented yet");
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

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
