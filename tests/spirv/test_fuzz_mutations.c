/* Deterministic mutation fuzzing of the parser: every corpus module gets a
 * fixed number of seeded mutations (bit flips, word replacements with
 * interesting values, word-count edits, truncations, deleted or duplicated
 * instructions, splices from another module). Each mutant must parse or fail
 * with a message; a crash, hang or sanitizer report fails the test. Modules
 * that still parse are also run through the queries and specialization. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "spirv_test_util.h"
#include "test_harness.h"

#define MUTANTS_PER_MODULE 3000

struct rng {
   uint64_t state;
};

static uint32_t rng_next(struct rng *r)
{
   /* xorshift64*: fixed seeds make every failure reproducible. */
   r->state ^= r->state >> 12;
   r->state ^= r->state << 25;
   r->state ^= r->state >> 27;
   return (uint32_t)((r->state * 0x2545F4914F6CDD1Dull) >> 32);
}

static uint32_t rng_below(struct rng *r, uint32_t n)
{
   return n ? rng_next(r) % n : 0;
}

/* Word offsets of instruction starts in a well-formed module. */
static size_t instruction_starts(const uint32_t *w, size_t count, size_t *starts, size_t max)
{
   size_t n = 0;
   for (size_t pos = 5; pos < count && n < max;) {
      const uint32_t len = w[pos] >> 16;
      if (len == 0 || pos + len > count)
         break;
      starts[n++] = pos;
      pos += len;
   }
   return n;
}

static size_t mutate(struct rng *r, uint32_t *w, size_t count, size_t capacity,
                     const uint32_t *other, size_t other_count)
{
   size_t starts[4096];
   const size_t inst_count = instruction_starts(w, count, starts, 4096);
   const uint32_t bound = count > 3 ? w[3] : 1;
   const uint32_t interesting[] = {0,          1,          2,          bound - 1,  bound,
                                   bound + 1,  0xffffffff, 0x7fffffff, 0x80000000, 0x00010000,
                                   0xffff0000, 64,         0x00030000};
   const uint32_t steps = 1 + rng_below(r, 3);
   for (uint32_t s = 0; s < steps && count > 0; s++) {
      /* One random draw per statement: the order of two draws inside one
       * expression is unspecified in C and differs between gcc and clang. */
      const uint32_t kind = rng_below(r, 8);
      const uint32_t target = rng_below(r, (uint32_t)count);
      const uint32_t value = rng_next(r);
      switch (kind) {
      case 0: /* flip one bit */
         w[target] ^= 1u << (value % 32);
         break;
      case 1: /* interesting value */
         w[target] = interesting[value % 13];
         break;
      case 2: /* random word */
         w[target] = value;
         break;
      case 3: /* edit an instruction's word count */
         if (inst_count) {
            const size_t at = starts[rng_below(r, (uint32_t)inst_count)];
            const uint32_t len = (w[at] >> 16) + rng_below(r, 5) - 2;
            w[at] = (len << 16) | (w[at] & 0xffffu);
         }
         break;
      case 4: /* truncate */
         count = rng_below(r, (uint32_t)count + 1);
         break;
      case 5: /* delete an instruction */
         if (inst_count) {
            const size_t at = starts[rng_below(r, (uint32_t)inst_count)];
            const size_t len = w[at] >> 16;
            if (len && at + len <= count) {
               memmove(w + at, w + at + len, (count - at - len) * 4);
               count -= len;
            }
         }
         return count; /* starts[] is stale now */
      case 6:          /* duplicate an instruction */
         if (inst_count) {
            const size_t at = starts[rng_below(r, (uint32_t)inst_count)];
            const size_t len = w[at] >> 16;
            if (len && at + len <= count && count + len <= capacity) {
               memmove(w + at + len, w + at, (count - at) * 4);
               count += len;
            }
         }
         return count;
      default: { /* splice a run of words from another module */
         if (other_count < 6)
            break;
         const size_t from = 5 + rng_below(r, (uint32_t)(other_count - 5));
         size_t len = 1 + rng_below(r, 16);
         if (from + len > other_count)
            len = other_count - from;
         const size_t to = rng_below(r, (uint32_t)count);
         if (to + len > capacity)
            break;
         memcpy(w + to, other + from, len * 4);
         if (to + len > count)
            count = to + len;
         break;
      }
      }
   }
   return count;
}

/* Runs the queries a compiler would on a mutant that parsed. */
static void exercise_queries(struct spirv_module *m, struct rng *r)
{
   struct spirv_error error;
   for (uint32_t i = 0; i < spirv_module_entry_point_count(m); i++) {
      uint32_t size[3];
      spirv_entry_point_workgroup_size(m, spirv_module_entry_point(m, i), size, &error);
   }
   for (uint32_t id = 1; id < spirv_module_bound(m); id++) {
      const struct spirv_type *t = spirv_type(m, id);
      uint64_t size;
      if (t && t->kind == SPIRV_TYPE_STRUCT) {
         for (uint32_t k = 0; k < t->u.structure.member_count; k++) {
            struct spirv_member_layout layout;
            spirv_struct_member_layout(m, id, k, &layout);
         }
      }
      if (t)
         spirv_explicit_type_size(m, id, 16, false, &size);
   }
   uint8_t data[16];
   for (size_t i = 0; i < sizeof(data); i++)
      data[i] = (uint8_t)rng_next(r);
   const struct spirv_specialization_entry entries[] = {{0, 0, 4}, {1, 4, 4}, {2, 8, 4},
                                                        {7, 0, 4}, {8, 4, 4}, {9, 8, 8}};
   spirv_module_specialize(m, entries, 6, data, sizeof(data), &error);
   for (uint32_t b = 0; spirv_module_block(m, b); b++) {
      uint32_t labels[8];
      spirv_block_successors(m, spirv_module_block(m, b), labels, 8);
   }
}

TEST_CASE(mutated_corpus_modules_parse_or_fail_cleanly)
{
   char **names;
   const size_t count = spirv_test_corpus(&names);
   REQUIRE(count > 0);
   uint32_t **modules = calloc(count, sizeof(*modules));
   size_t *sizes = calloc(count, sizeof(*sizes));
   REQUIRE(modules && sizes);
   for (size_t i = 0; i < count; i++) {
      modules[i] = spirv_test_load(names[i], &sizes[i]);
      REQUIRE(modules[i] != NULL);
   }
   const clock_t start = clock();
   uint64_t parsed = 0, rejected = 0;
   for (size_t i = 0; i < count; i++) {
      const size_t capacity = sizes[i] * 2 + 64;
      uint32_t *work = malloc(capacity * 4);
      REQUIRE(work);
      for (uint32_t k = 0; k < MUTANTS_PER_MODULE; k++) {
         struct rng r = {.state = 0x9E3779B97F4A7C15ull ^ ((uint64_t)i << 32) ^ (k + 1)};
         memcpy(work, modules[i], sizes[i] * 4);
         const size_t other = (i + 1 + rng_below(&r, (uint32_t)count)) % count;
         const size_t n = mutate(&r, work, sizes[i], capacity, modules[other], sizes[other]);
         struct spirv_error error;
         struct spirv_module *m = spirv_module_parse(work, n, &error);
         if (m) {
            parsed++;
            exercise_queries(m, &r);
            spirv_module_destroy(m);
         } else {
            rejected++;
            CHECK_MSG(strncmp(error.message, "spirv: word ", 12) == 0,
                      "%s mutant %u: malformed message \"%s\"", names[i], k, error.message);
         }
      }
      free(work);
   }
   printf("  %llu mutants: %llu parsed, %llu rejected, %.2f s\n",
          (unsigned long long)(parsed + rejected), (unsigned long long)parsed,
          (unsigned long long)rejected, (double)(clock() - start) / CLOCKS_PER_SEC);
   for (size_t i = 0; i < count; i++)
      free(modules[i]);
   free(modules);
   free(sizes);
   spirv_test_free_names(names);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
