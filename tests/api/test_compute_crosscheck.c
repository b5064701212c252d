/* Conformance-style cross-check of the compute path: every shader of
 * tests/api/shaders/crosscheck/ runs on vkppu and on lavapipe (llvmpipe)
 * through the loader, in one instance that sees both drivers
 * (VK_ICD_FILENAMES lists both manifests, tests/api/CMakeLists.txt), and the
 * two outputs are compared. One case per shader, registered from the list the
 * build generates (crosscheck_shader_list.h), so the closing line counts
 * shaders.
 *
 * The interface every cross-check shader follows:
 *   local_size_x = 64, 16 workgroups (1024 invocations);
 *   set 0 binding 0: readonly uint in_data[4096], pseudo-random bits seeded
 *                    from the shader's name (the shader maps them into the
 *                    ranges it wants);
 *   set 0 binding 1: uint out_data[4096], zeroed; invocation i writes words
 *                    4 * i + k;
 *   push constant:   uint seed (the same seed's low word).
 *
 * The first line of the source says how the outputs compare:
 *   // tolerance: exact            bit for bit (integer results)
 *   // tolerance: ulp N            as floats, at most N ulp apart
 *   // tolerance: abs E [rel R]    as floats, |a - b| <= E (or <= R * max(|a|, |b|))
 * Float comparisons treat any NaN as equal to any NaN and +0 as equal to -0.
 * A line "// requires: float64 int64 int16" (any of the three) marks shaders
 * with doubles, 64-bit or 16-bit integers, skipped unless both devices
 * report shaderFloat64, shaderInt64, shaderInt16 (enabled when reported).
 * A line "// requires: subgroup" marks subgroup shaders (compiled for Vulkan
 * 1.1); their results do not depend on the subgroup size. A case runs when
 * both devices are 1.1 with subgroups in compute and report every subgroup
 * operation category whose SPIR-V capability the compiled shader declares
 * (what the validation layer checks too), and is skipped otherwise.
 *
 * Shaders that expose a vkppu bug live in shaders/crosscheck/known_failures/,
 * outside the list, each with a comment naming the failure. */
#include <math.h>
#include <spirv/unified1/spirv.h>
#include <string.h>

#include "compute_test_util.h"

#define XC_WORDS 4096u
#define XC_BYTES (XC_WORDS * 4u)
#define XC_GROUPS 16u

/* One implementation under test: its device and the resources every case
 * reuses (the buffers, the set and the pipeline layout). */
struct xc_side {
   const char *label;
   struct vkt_context ctx;
   struct vkt_device dev;
   struct vkt_buffer in, out;
   VkDescriptorSetLayout set_layout;
   VkPipelineLayout layout;
   VkDescriptorPool pool;
   VkDescriptorSet set;
   /* Subgroup operations in compute shaders: 0 before Vulkan 1.1. */
   VkSubgroupFeatureFlags subgroup_ops;
   uint32_t types; /* XC_FLOAT64 | XC_INT64 | XC_INT16: reported, enabled */
};

enum { XC_PPU, XC_LVP, XC_SIDES };

/* Shader types beyond the core ones (the features that allow them). */
enum { XC_FLOAT64 = 1u, XC_INT64 = 2u, XC_INT16 = 4u };
static const struct {
   uint32_t bit;
   const char *word, *feature;
} xc_types[] = {
    {XC_FLOAT64, "float64", "shaderFloat64"},
    {XC_INT64, "int64", "shaderInt64"},
    {XC_INT16, "int16", "shaderInt16"},
};

static struct {
   bool tried, ready;
   struct vkt_context base; /* owns the instance and the messenger */
   struct xc_side sides[XC_SIDES];
} xc;

static bool xc_side_init(struct xc_side *s)
{
   /* Doubles, 64- and 16-bit integers when the device has them (a shader
    * that uses them says "// requires: float64 int64 int16" and is skipped
    * otherwise); enabling a feature changes nothing for the shaders that do
    * not use it. */
   VkPhysicalDeviceFeatures supported, enabled = {0};
   vkGetPhysicalDeviceFeatures(s->ctx.physical_device, &supported);
   enabled.shaderFloat64 = supported.shaderFloat64;
   enabled.shaderInt64 = supported.shaderInt64;
   enabled.shaderInt16 = supported.shaderInt16;
   s->types = (supported.shaderFloat64 ? XC_FLOAT64 : 0u) |
              (supported.shaderInt64 ? XC_INT64 : 0u) | (supported.shaderInt16 ? XC_INT16 : 0u);
   struct vkt_device_desc desc = {.features = &enabled};
   VKT_CHECK(vkt_device_create(&s->ctx, &desc, &s->dev));
   if (!s->dev.device)
      return false;
   struct vkt_device *dev = &s->dev;
   if (vkt_buffer_create(dev, XC_BYTES, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKT_MEMORY_HOST,
                         &s->in) != VK_SUCCESS ||
       vkt_buffer_create(dev, XC_BYTES, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKT_MEMORY_HOST,
                         &s->out) != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "%s: cannot create the buffers", s->label);
      return false;
   }
   const VkDescriptorSetLayoutBinding bindings[2] = {
       {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
   };
   s->set_layout = ctu_set_layout(dev, bindings, 2);
   s->layout = ctu_pipeline_layout(dev, &s->set_layout, 1, 4);
   VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2};
   VkDescriptorPoolCreateInfo pci = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
       .maxSets = 1,
       .poolSizeCount = 1,
       .pPoolSizes = &size,
   };
   VKT_CHECK(vkCreateDescriptorPool(dev->device, &pci, NULL, &s->pool));
   VkDescriptorSetAllocateInfo ai = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
       .descriptorPool = s->pool,
       .descriptorSetCount = 1,
       .pSetLayouts = &s->set_layout,
   };
   VKT_CHECK(vkAllocateDescriptorSets(dev->device, &ai, &s->set));
   if (!s->set)
      return false;
   ctu_write_buffer(dev, s->set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, s->in.buffer, 0,
                    VK_WHOLE_SIZE);
   ctu_write_buffer(dev, s->set, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, s->out.buffer, 0,
                    VK_WHOLE_SIZE);

   /* VkPhysicalDeviceSubgroupProperties is Vulkan 1.1: a 1.0 device has no
    * subgroup operations to offer. */
   if (s->ctx.props.apiVersion >= VK_API_VERSION_1_1) {
      VkPhysicalDeviceSubgroupProperties sg = {
          .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES,
      };
      VkPhysicalDeviceProperties2 p2 = {
          .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
          .pNext = &sg,
      };
      vkGetPhysicalDeviceProperties2(s->ctx.physical_device, &p2);
      if (sg.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT)
         s->subgroup_ops = sg.supportedOperations;
   }
   return true;
}

static void xc_side_finish(struct xc_side *s)
{
   struct vkt_device *dev = &s->dev;
   if (!dev->device)
      return;
   vkDeviceWaitIdle(dev->device);
   vkDestroyDescriptorPool(dev->device, s->pool, NULL);
   vkDestroyPipelineLayout(dev->device, s->layout, NULL);
   vkDestroyDescriptorSetLayout(dev->device, s->set_layout, NULL);
   vkt_buffer_destroy(dev, &s->in);
   vkt_buffer_destroy(dev, &s->out);
   vkt_device_destroy(dev);
}

/* Once, from the first case: the instance, both devices and their
 * resources. A failure fails that case; the later ones fail briefly. */
static bool xc_setup(void)
{
   if (xc.tried) {
      if (!xc.ready)
         test_fail(__FILE__, __LINE__, "cross-check setup failed (see the first case)");
      return xc.ready;
   }
   xc.tried = true;
   xc.sides[XC_PPU].label = "vkppu";
   xc.sides[XC_LVP].label = "llvmpipe";
   if (!vkt_context_pair_create(&xc.base, &xc.sides[XC_PPU].ctx, &xc.sides[XC_LVP].ctx))
      return false;
   for (int i = 0; i < XC_SIDES; i++) {
      if (!xc_side_init(&xc.sides[i]))
         return false;
   }
   for (int i = 0; i < XC_SIDES; i++) {
      const struct xc_side *s = &xc.sides[i];
      uint32_t v = s->ctx.props.apiVersion;
      printf("  %s: %s, Vulkan %u.%u, subgroup operations 0x%x in compute\n",
             i == XC_PPU ? "testing" : "against", s->ctx.props.deviceName, VK_API_VERSION_MAJOR(v),
             VK_API_VERSION_MINOR(v), s->subgroup_ops);
   }
   xc.ready = true;
   return true;
}

static void xc_teardown(void)
{
   for (int i = 0; i < XC_SIDES; i++)
      xc_side_finish(&xc.sides[i]);
   if (xc.base.instance)
      vkt_context_destroy(&xc.base);
}

/* ---------------------------------------------------------------------------
 * What a shader's header asks for
 * ------------------------------------------------------------------------- */
enum xc_mode { XC_EXACT, XC_FLOAT };

struct xc_header {
   enum xc_mode mode;
   uint32_t ulp;   /* XC_FLOAT: allowed ulp distance */
   double abs_tol; /* XC_FLOAT: allowed absolute difference (0: none) */
   double rel_tol; /* XC_FLOAT: allowed relative difference (0: none) */
   bool subgroup;
   uint32_t types; /* XC_FLOAT64 ...: the "requires:" line names them */
};

static bool xc_parse_tolerance(const char *line, struct xc_header *h, const char *name)
{
   const char *p = strstr(line, "tolerance:");
   if (!p) {
      test_fail(__FILE__, __LINE__, "%s.comp: first line has no '// tolerance: ...'", name);
      return false;
   }
   p += strlen("tolerance:");
   char word[16];
   int used = 0;
   while (sscanf(p, " %15s%n", word, &used) == 1) {
      p += used;
      if (strcmp(word, "exact") == 0) {
         h->mode = XC_EXACT;
         continue;
      }
      double value = 0;
      if (sscanf(p, " %lf%n", &value, &used) != 1) {
         test_fail(__FILE__, __LINE__, "%s.comp: tolerance '%s' without a value", name, word);
         return false;
      }
      p += used;
      h->mode = XC_FLOAT;
      if (strcmp(word, "ulp") == 0) {
         h->ulp = (uint32_t)value;
      } else if (strcmp(word, "abs") == 0) {
         h->abs_tol = value;
      } else if (strcmp(word, "rel") == 0) {
         h->rel_tol = value;
      } else {
         test_fail(__FILE__, __LINE__, "%s.comp: unknown tolerance '%s'", name, word);
         return false;
      }
   }
   return true;
}

static bool xc_read_header(const char *name, struct xc_header *h)
{
   char path[1024];
   snprintf(path, sizeof(path), "%s/%s.comp", XC_SOURCE_DIR, name);
   FILE *f = fopen(path, "r");
   if (!f) {
      test_fail(__FILE__, __LINE__, "cannot open %s", path);
      return false;
   }
   memset(h, 0, sizeof(*h));
   char line[256];
   bool ok = fgets(line, sizeof(line), f) && xc_parse_tolerance(line, h, name);
   for (int i = 0; ok && i < 8 && fgets(line, sizeof(line), f); i++) {
      if (strstr(line, "// requires: subgroup"))
         h->subgroup = true;
      for (size_t t = 0; t < sizeof(xc_types) / sizeof(xc_types[0]); t++) {
         const char *req = strstr(line, "// requires:");
         if (req && strstr(req, xc_types[t].word))
            h->types |= xc_types[t].bit;
      }
   }
   fclose(f);
   return ok;
}

/* ---------------------------------------------------------------------------
 * Running and comparing
 * ------------------------------------------------------------------------- */
static uint64_t xc_seed_of(const char *name)
{
   uint64_t hash = 0xcbf29ce484222325ull; /* FNV-1a */
   for (const char *c = name; *c; c++)
      hash = (hash ^ (uint8_t)*c) * 0x100000001b3ull;
   return hash | 1;
}

/* Runs `name` on one side; out receives its XC_WORDS result words. */
static bool xc_run_on(struct xc_side *s, const char *name, uint64_t seed, uint32_t *out)
{
   struct vkt_device *dev = &s->dev;
   vkt_fill_random(s->in.map, XC_BYTES, seed);
   memset(s->out.map, 0, XC_BYTES);
   char spv[256];
   snprintf(spv, sizeof(spv), "crosscheck/%s", name);
   VkShaderModule mod = ctu_shader_module(dev, spv);
   if (!mod)
      return false;
   VkPipeline pipe = VK_NULL_HANDLE;
   VkResult r = ctu_compute_pipeline(dev, VK_NULL_HANDLE, mod, s->layout, NULL, &pipe);
   vkDestroyShaderModule(dev->device, mod, NULL);
   if (r != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "%s: vkCreateComputePipelines(%s) -> %s", s->label, name,
                vkt_result_name(r));
      return false;
   }
   uint32_t push = (uint32_t)seed;
   VkCommandBuffer cmd = vkt_cmd_begin(dev, s->ctx.universal_family);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, s->layout, 0, 1, &s->set, 0, NULL);
   vkCmdPushConstants(cmd, s->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &push);
   vkCmdDispatch(cmd, XC_GROUPS, 1, 1);
   ctu_compute_to_host_barrier(cmd);
   r = vkt_cmd_submit_wait(dev, s->ctx.universal_family, 0, cmd);
   vkDestroyPipeline(dev->device, pipe, NULL);
   if (r != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "%s: dispatch of %s -> %s", s->label, name, vkt_result_name(r));
      return false;
   }
   memcpy(out, s->out.map, XC_BYTES);
   return true;
}

static float xc_float(uint32_t bits)
{
   float f;
   memcpy(&f, &bits, 4);
   return f;
}

/* Position of a float on a line where adjacent floats are 1 apart and both
 * zeros are 0. */
static int64_t xc_ordinal(uint32_t bits)
{
   int64_t magnitude = bits & 0x7fffffffu;
   return (bits & 0x80000000u) ? -magnitude : magnitude;
}

static bool xc_words_match(const struct xc_header *h, uint32_t a, uint32_t b)
{
   if (a == b)
      return true;
   if (h->mode == XC_EXACT)
      return false;
   float fa = xc_float(a), fb = xc_float(b);
   if (isnan(fa) || isnan(fb))
      return isnan(fa) && isnan(fb);
   if (isinf(fa) || isinf(fb))
      return false; /* equal infinities have equal bits */
   int64_t d = xc_ordinal(a) - xc_ordinal(b);
   if ((d < 0 ? -d : d) <= (int64_t)h->ulp)
      return true;
   double diff = fabs((double)fa - (double)fb);
   if (h->abs_tol > 0 && diff <= h->abs_tol)
      return true;
   double mag = fmax(fabs((double)fa), fabs((double)fb));
   return h->rel_tol > 0 && diff <= h->rel_tol * mag;
}

/* The subgroup operation categories a compiled shader needs: one per
 * GroupNonUniform* capability it declares (the SPIR-V environment appendix
 * of the Vulkan spec maps each to a VkSubgroupFeatureFlagBits). */
static VkSubgroupFeatureFlags xc_subgroup_ops_needed(const char *name)
{
   static const struct {
      SpvCapability cap;
      VkSubgroupFeatureFlags op;
   } map[] = {
       {SpvCapabilityGroupNonUniform, VK_SUBGROUP_FEATURE_BASIC_BIT},
       {SpvCapabilityGroupNonUniformVote, VK_SUBGROUP_FEATURE_VOTE_BIT},
       {SpvCapabilityGroupNonUniformArithmetic, VK_SUBGROUP_FEATURE_ARITHMETIC_BIT},
       {SpvCapabilityGroupNonUniformBallot, VK_SUBGROUP_FEATURE_BALLOT_BIT},
       {SpvCapabilityGroupNonUniformShuffle, VK_SUBGROUP_FEATURE_SHUFFLE_BIT},
       {SpvCapabilityGroupNonUniformShuffleRelative, VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT},
       {SpvCapabilityGroupNonUniformClustered, VK_SUBGROUP_FEATURE_CLUSTERED_BIT},
       {SpvCapabilityGroupNonUniformQuad, VK_SUBGROUP_FEATURE_QUAD_BIT},
   };
   char spv[256];
   snprintf(spv, sizeof(spv), "crosscheck/%s", name);
   size_t bytes = 0;
   uint32_t *words = ctu_load_spirv(spv, &bytes);
   VkSubgroupFeatureFlags ops = 0;
   /* Capabilities come first, after the 5-word header. */
   for (size_t w = 5; words && w < bytes / 4;) {
      uint32_t count = words[w] >> 16, opcode = words[w] & 0xffffu;
      if (count == 0 || (opcode != SpvOpCapability && opcode != SpvOpExtension))
         break;
      for (size_t m = 0; opcode == SpvOpCapability && m < sizeof(map) / sizeof(map[0]); m++) {
         if (count >= 2 && words[w + 1] == (uint32_t)map[m].cap)
            ops |= map[m].op;
      }
      w += count;
   }
   free(words);
   return ops;
}

static void xc_run_shader(const char *name)
{
   struct xc_header h;
   if (!xc_read_header(name, &h) || !xc_setup())
      return;
   if (h.subgroup) {
      VkSubgroupFeatureFlags needed = xc_subgroup_ops_needed(name);
      for (int i = 0; i < XC_SIDES; i++) {
         VkSubgroupFeatureFlags missing = needed & ~xc.sides[i].subgroup_ops;
         if (missing) {
            vkt_skip("%s: %s does not report subgroup operations 0x%x in compute (needs 0x%x)",
                     name, xc.sides[i].label, missing, needed);
            return;
         }
      }
   }
   for (int i = 0; i < XC_SIDES; i++) {
      for (size_t t = 0; t < sizeof(xc_types) / sizeof(xc_types[0]); t++) {
         if ((h.types & xc_types[t].bit) && !(xc.sides[i].types & xc_types[t].bit)) {
            vkt_skip("%s: %s does not report %s", name, xc.sides[i].label, xc_types[t].feature);
            return;
         }
      }
   }
   static uint32_t results[XC_SIDES][XC_WORDS];
   uint64_t seed = xc_seed_of(name);
   for (int i = 0; i < XC_SIDES; i++) {
      if (!xc_run_on(&xc.sides[i], name, seed, results[i]))
         return;
   }
   const uint32_t *ppu = results[XC_PPU], *lvp = results[XC_LVP];
   /* A shader whose reference output is all zero checks nothing. */
   bool wrote = false;
   for (uint32_t w = 0; w < XC_WORDS && !wrote; w++)
      wrote = lvp[w] != 0;
   CHECK_MSG(wrote, "%s: llvmpipe wrote only zeros: the shader checks nothing", name);
   uint32_t differing = 0, first = 0;
   int64_t worst_ulp = 0; /* float shaders: the largest distance among finite words */
   double worst_abs = 0.0;
   for (uint32_t w = 0; w < XC_WORDS; w++) {
      if (!xc_words_match(&h, ppu[w], lvp[w]) && differing++ == 0)
         first = w;
      float fa = xc_float(ppu[w]), fb = xc_float(lvp[w]);
      if (h.mode == XC_FLOAT && isfinite(fa) && isfinite(fb)) {
         int64_t d = xc_ordinal(ppu[w]) - xc_ordinal(lvp[w]);
         worst_ulp = d < 0 ? (-d > worst_ulp ? -d : worst_ulp) : (d > worst_ulp ? d : worst_ulp);
         worst_abs = fmax(worst_abs, fabs((double)fa - (double)fb));
      }
   }
   if (h.mode == XC_FLOAT)
      printf("  %s: largest difference %lld ulp, %.3g absolute\n", name, (long long)worst_ulp,
             worst_abs);
   if (differing) {
      test_fail(__FILE__, __LINE__,
                "%s: %u of %u words differ; first: word %u (invocation %u, k %u): "
                "vkppu 0x%08x (%.9g) llvmpipe 0x%08x (%.9g); seed 0x%016llx",
                name, differing, XC_WORDS, first, first / 4, first % 4, ppu[first],
                (double)xc_float(ppu[first]), lvp[first], (double)xc_float(lvp[first]),
                (unsigned long long)seed);
   }
}

/* One case per shader of the generated list. */
#define XC_SHADER(name)                                                                            \
   static void xc_case_##name(void)                                                                \
   {                                                                                               \
      xc_run_shader(#name);                                                                        \
   }
#include "crosscheck_shader_list.h"
#undef XC_SHADER

__attribute__((constructor)) static void xc_register_cases(void)
{
#define XC_SHADER(name) test_register(#name, xc_case_##name);
#include "crosscheck_shader_list.h"
#undef XC_SHADER
}

int main(int argc, char **argv)
{
   int status = test_run_all(argc, argv);
   /* Validation messages while destroying the devices fail the program
    * (test_fail marks the last case, already counted). */
   bool failed_before = test_current_failed();
   xc_teardown();
   if (!failed_before && test_current_failed()) {
      printf("FAIL cross-check teardown\n");
      status = 1;
   }
   return status;
}
