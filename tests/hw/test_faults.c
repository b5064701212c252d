/* Faults: every kind the model raises, each checked for its record, for
 * stopping only its own channel (a busy channel of the same chip and a
 * channel of another chip keep working), for raising PPU_INTR_FAULT once,
 * and for fetching nothing more. */
#include <stdio.h>
#include <string.h>

#include "hw_test_util.h"
#include "test_harness.h"

#define TEST_VRAM (96ull << 20)

struct fault_env {
   struct hwt t, t2;
   struct hwt_channel victim, bystander, other_chip;
   uint64_t buf;    /* 4 writable pages */
   uint64_t ro;     /* 1 read-only page */
   uint64_t marker; /* the victim releases 1 here before its bad method */
};

/* What the fault record must say. */
struct expect {
   enum ppu_fault_kind kind;
   enum ppu_engine engine;
   bool has_method; /* subchannel/method/method_data are meaningful */
   uint32_t subchannel, method, method_data;
   bool has_address;
   uint64_t address;
   bool write;
   uint64_t gpfifo_entry; /* 0: the one hwt_submit made (checked by VA) */
   const char *detail_has;
   bool marker_first; /* the segment released the marker before faulting */
};

typedef void (*bad_work_fn)(struct fault_env *e, struct expect *x);

/* Pushbuffer with the marker release, then the caller's bad methods. */
static void start_pb(struct fault_env *e, struct hwt_pb *pb, struct expect *x)
{
   hwt_pb_reset(pb);
   hwt_pb_sem(pb, e->marker, 1, PPU_SEM_OP_RELEASE);
   x->marker_first = true;
}

static void run_fault_case(bad_work_fn bad, const char *name)
{
   static struct fault_env e;
   memset(&e, 0, sizeof(e));
   REQUIRE(hwt_init(&e.t, TEST_VRAM));
   REQUIRE(hwt_init(&e.t2, TEST_VRAM));
   REQUIRE(hwt_channel_init(&e.victim, &e.t, name));
   REQUIRE(hwt_channel_init(&e.bystander, &e.t, "bystander"));
   REQUIRE(hwt_channel_init(&e.other_chip, &e.t2, "other chip"));
   e.buf = hwt_alloc_mapped(&e.t, 4 * PPU_PAGE_SIZE, true);
   e.ro = hwt_alloc_mapped(&e.t, PPU_PAGE_SIZE, false);
   e.marker = e.buf + 3 * PPU_PAGE_SIZE;
   uint64_t busy = hwt_alloc_mapped(&e.t, 4 << 20, true);
   uint64_t busy2 = hwt_alloc_mapped(&e.t2, 4 << 20, true);

   /* Keep the bystanders busy while the victim faults. */
   static struct hwt_pb pb;
   for (uint32_t i = 0; i < 8; i++) {
      hwt_pb_reset(&pb);
      hwt_pb_fill(&pb, busy, i * 0x01010101u, 4 << 20);
      hwt_submit(&e.bystander, &pb);
      hwt_pb_reset(&pb);
      hwt_pb_fill(&pb, busy2, i * 0x01010101u, 4 << 20);
      hwt_submit(&e.other_chip, &pb);
   }

   struct expect x = {0};
   uint32_t index = e.victim.put;
   bad(&e, &x);
   struct ppu_fault f;
   bool faulted = hwt_wait_fault(&e.victim, &f, 5000);
   CHECK_MSG(faulted, "%s: the channel did not fault", name);
   if (faulted) {
      CHECK_MSG(f.kind == x.kind, "%s: kind %s, expected %s (%s)", name,
                ppu_fault_kind_name(f.kind), ppu_fault_kind_name(x.kind), f.detail);
      CHECK_MSG(f.engine == x.engine, "%s: engine %s, expected %s", name, ppu_engine_name(f.engine),
                ppu_engine_name(x.engine));
      CHECK_EQ_U64(f.gp_get, index);
      if (x.gpfifo_entry) {
         CHECK_EQ_U64(f.gpfifo_entry, x.gpfifo_entry);
      }
      if (x.has_method) {
         CHECK_EQ_U64(f.subchannel, x.subchannel);
         CHECK_EQ_U64(f.method, x.method);
         CHECK_EQ_U64(f.method_data, x.method_data);
      }
      if (x.has_address) {
         CHECK_EQ_U64(f.address, x.address);
         CHECK(f.write == x.write);
      }
      CHECK_MSG(strstr(f.detail, x.detail_has) != NULL, "%s: detail \"%s\" lacks \"%s\"", name,
                f.detail, x.detail_has);
      char report[1024];
      ppu_fault_format(e.victim.ch, &f, report, sizeof(report));
      CHECK(strstr(report, name) != NULL);
      CHECK(strstr(report, ppu_fault_kind_name(x.kind)) != NULL);
      CHECK(strstr(report, ppu_engine_name(x.engine)) != NULL);
      CHECK(strstr(report, f.detail) != NULL);
   }
   CHECK_EQ_U64(hwt_load_u64(&e.t, e.marker), x.marker_first ? 1 : 0);

   /* Only this channel stopped. */
   CHECK_MSG(hwt_sync(&e.bystander, 5000), "%s: the bystander channel stopped", name);
   CHECK_MSG(hwt_sync(&e.other_chip, 5000), "%s: the other chip stopped", name);
   CHECK(!ppu_channel_fault(e.bystander.ch, NULL));
   CHECK(!ppu_channel_fault(e.other_chip.ch, NULL));

   /* The victim fetches nothing more, and the interrupt came once. */
   uint32_t gp_get = ppu_channel_gp_get(e.victim.ch);
   if (hwt_ptr(&e.t, e.victim.gpfifo_va)) {
      hwt_pb_reset(&pb);
      hwt_pb_sem(&pb, e.marker, 2, PPU_SEM_OP_RELEASE);
      hwt_submit(&e.victim, &pb);
   } else {
      ppu_channel_ring_doorbell(e.victim.ch, e.victim.put + 1); /* its ring is unmapped */
   }
   hwt_sleep_us(5000);
   CHECK_EQ_U64(ppu_channel_gp_get(e.victim.ch), gp_get);
   CHECK(hwt_load_u64(&e.t, e.marker) != 2);
   CHECK_EQ_U64(atomic_load(&e.t.fault_interrupts), 1);
   CHECK_EQ_U64(atomic_load(&e.t2.fault_interrupts), 0);

   hwt_channel_finish(&e.victim);
   hwt_channel_finish(&e.bystander);
   hwt_channel_finish(&e.other_chip);
   hwt_finish(&e.t);
   hwt_finish(&e.t2);
}

#define FAULT_CASE(name)                                                                           \
   static void name##_bad(struct fault_env *e, struct expect *x);                                  \
   TEST_CASE(name)                                                                                 \
   {                                                                                               \
      run_fault_case(name##_bad, #name);                                                           \
   }                                                                                               \
   static void name##_bad(struct fault_env *e, struct expect *x)

static void expect_method(struct expect *x, enum ppu_fault_kind kind, enum ppu_engine engine,
                          uint32_t subch, uint32_t method, uint32_t data, const char *detail)
{
   x->kind = kind;
   x->engine = engine;
   x->has_method = true;
   x->subchannel = subch;
   x->method = method;
   x->method_data = data;
   x->detail_has = detail;
}

/* --- GPFIFO entries -------------------------------------------------------- */

FAULT_CASE(gpfifo_entry_with_reserved_bit_63)
{
   uint64_t entry = PPU_GPFIFO_ENTRY(e->buf, 4) | (1ull << 63);
   hwt_submit_entry(&e->victim, entry);
   *x = (struct expect){.kind = PPU_FAULT_BAD_GPFIFO_ENTRY,
                        .engine = PPU_ENGINE_HOST,
                        .gpfifo_entry = entry,
                        .detail_has = "reserved"};
}

FAULT_CASE(gpfifo_entry_of_zero_words)
{
   uint64_t entry = PPU_GPFIFO_ENTRY(e->buf, 0);
   hwt_submit_entry(&e->victim, entry);
   *x = (struct expect){.kind = PPU_FAULT_BAD_GPFIFO_ENTRY,
                        .engine = PPU_ENGINE_HOST,
                        .gpfifo_entry = entry,
                        .detail_has = "length is 0"};
}

FAULT_CASE(gpfifo_entry_with_misaligned_segment)
{
   uint64_t entry = PPU_GPFIFO_ENTRY(e->buf + 2, 1);
   hwt_submit_entry(&e->victim, entry);
   *x = (struct expect){.kind = PPU_FAULT_BAD_GPFIFO_ENTRY,
                        .engine = PPU_ENGINE_HOST,
                        .gpfifo_entry = entry,
                        .detail_has = "aligned"};
}

FAULT_CASE(gpfifo_segment_in_unmapped_memory)
{
   /* Starts in the last mapped page and runs into the guard page. */
   uint64_t va = e->buf + 4 * PPU_PAGE_SIZE - 8;
   uint64_t entry = PPU_GPFIFO_ENTRY(va, 4);
   hwt_submit_entry(&e->victim, entry);
   *x = (struct expect){.kind = PPU_FAULT_MMU_UNMAPPED,
                        .engine = PPU_ENGINE_HOST,
                        .has_address = true,
                        .address = e->buf + 4 * PPU_PAGE_SIZE,
                        .gpfifo_entry = entry,
                        .detail_has = "not valid"};
}

FAULT_CASE(gpfifo_ring_in_unmapped_memory)
{
   /* Swap the victim for a channel whose ring VA is not mapped. */
   hwt_channel_finish(&e->victim);
   struct ppu_channel_desc desc = {.page_directory_pa = e->t.pd,
                                   .gpfifo_va = 0x7000000000ull,
                                   .gpfifo_entries = 8,
                                   .name = "gpfifo_ring_in_unmapped_memory"};
   e->victim.ch = ppu_channel_create(e->t.gpu, &desc);
   e->victim.gpfifo_va = desc.gpfifo_va;
   e->victim.entries = 8;
   e->victim.put = 1;
   ppu_channel_ring_doorbell(e->victim.ch, 1);
   *x = (struct expect){.kind = PPU_FAULT_MMU_UNMAPPED,
                        .engine = PPU_ENGINE_HOST,
                        .has_address = true,
                        .address = 0x7000000000ull,
                        .detail_has = "not valid"};
}

/* --- Method headers ---------------------------------------------------------- */

static void submit_header_fault(struct fault_env *e, struct expect *x, uint32_t header,
                                uint32_t data_words, const char *detail)
{
   static struct hwt_pb pb;
   start_pb(e, &pb, x);
   hwt_pb_word(&pb, header);
   for (uint32_t i = 0; i < data_words; i++)
      hwt_pb_word(&pb, 0);
   hwt_submit(&e->victim, &pb);
   expect_method(x, PPU_FAULT_BAD_METHOD, PPU_ENGINE_HOST, PPU_MTHD_HDR_SUBCH(header),
                 PPU_MTHD_HDR_ADDR(header), header, detail);
}

FAULT_CASE(header_of_undefined_type_0)
{
   submit_header_fault(e, x, PPU_MTHD_HDR(0, PPU_SUBCH_HOST, PPU_HOST_NOP, 1), 1, "type 0");
}

FAULT_CASE(header_of_undefined_type_2)
{
   submit_header_fault(e, x, PPU_MTHD_HDR(2, PPU_SUBCH_HOST, PPU_HOST_NOP, 1), 1, "type 2");
}

FAULT_CASE(header_of_undefined_type_6)
{
   submit_header_fault(e, x, PPU_MTHD_HDR(6, PPU_SUBCH_COPY, 4, 1), 1, "type 6");
}

FAULT_CASE(header_of_undefined_type_7)
{
   submit_header_fault(e, x, 0xffffffffu, 0, "type 7");
}

FAULT_CASE(header_announcing_no_data_words)
{
   submit_header_fault(e, x, PPU_MTHD_HDR(PPU_MTHD_INCR, PPU_SUBCH_HOST, PPU_HOST_NOP, 0), 1,
                       "no data words");
}

FAULT_CASE(header_of_unbound_subchannel)
{
   submit_header_fault(e, x, PPU_MTHD_HDR(PPU_MTHD_IMMD, 5, 0, 0), 0, "subchannel 5");
}

FAULT_CASE(method_running_past_the_end_of_its_segment)
{
   /* Announces 4 words, the segment holds 2 more: the segment rule. */
   submit_header_fault(e, x, PPU_MTHD_HDR(PPU_MTHD_NONINCR, PPU_SUBCH_HOST, PPU_HOST_NOP, 4), 2,
                       "one segment");
}

/* --- Methods ------------------------------------------------------------------ */

FAULT_CASE(unknown_host_method)
{
   static struct hwt_pb pb;
   start_pb(e, &pb, x);
   hwt_pb_immd(&pb, PPU_SUBCH_HOST, 0x009, 3);
   hwt_submit(&e->victim, &pb);
   expect_method(x, PPU_FAULT_BAD_METHOD, PPU_ENGINE_HOST, PPU_SUBCH_HOST, 0x009, 3,
                 "unknown host method");
}

FAULT_CASE(incr_walking_into_an_unknown_method)
{
   /* INCR from WAIT_FOR_IDLE: 0x010 and 0x011 exist, 0x012 does not. */
   static struct hwt_pb pb;
   start_pb(e, &pb, x);
   const uint32_t d[3] = {0, 0, 77};
   hwt_pb_method(&pb, PPU_MTHD_INCR, PPU_SUBCH_HOST, PPU_HOST_WAIT_FOR_IDLE, 3, d);
   hwt_submit(&e->victim, &pb);
   expect_method(x, PPU_FAULT_BAD_METHOD, PPU_ENGINE_HOST, PPU_SUBCH_HOST, 0x012, 77,
                 "unknown host method");
}

FAULT_CASE(unknown_compute_method)
{
   static struct hwt_pb pb;
   start_pb(e, &pb, x);
   hwt_pb_immd(&pb, PPU_SUBCH_COMPUTE, 0x40, 1);
   hwt_submit(&e->victim, &pb);
   expect_method(x, PPU_FAULT_BAD_METHOD, PPU_ENGINE_COMPUTE, PPU_SUBCH_COMPUTE, 0x40, 1,
                 "unknown compute method 0x040");
}

FAULT_CASE(graphics_method_undefined)
{
   static struct hwt_pb pb;
   start_pb(e, &pb, x);
   const uint32_t d = 0xabcd;
   hwt_pb_method(&pb, PPU_MTHD_INCR, PPU_SUBCH_GRAPHICS, 0x004, 1, &d);
   hwt_submit(&e->victim, &pb);
   expect_method(x, PPU_FAULT_BAD_METHOD, PPU_ENGINE_GRAPHICS, PPU_SUBCH_GRAPHICS, 0x004, 0xabcd,
                 "graphics method 0x004 is not defined");
}

FAULT_CASE(semaphore_address_not_8_byte_aligned)
{
   static struct hwt_pb pb;
   start_pb(e, &pb, x);
   hwt_pb_sem(&pb, e->buf + 4, 1, PPU_SEM_OP_RELEASE);
   hwt_submit(&e->victim, &pb);
   expect_method(x, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_HOST, PPU_SUBCH_HOST,
                 PPU_HOST_SEM_EXECUTE, PPU_SEM_OP_RELEASE, "8-byte aligned");
}

FAULT_CASE(semaphore_operation_undefined)
{
   static struct hwt_pb pb;
   start_pb(e, &pb, x);
   hwt_pb_sem(&pb, e->buf, 1, 0);
   hwt_submit(&e->victim, &pb);
   expect_method(x, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_HOST, PPU_SUBCH_HOST,
                 PPU_HOST_SEM_EXECUTE, 0, "unknown operation 0");
}

FAULT_CASE(semaphore_execute_with_undefined_flag_bits)
{
   static struct hwt_pb pb;
   start_pb(e, &pb, x);
   hwt_pb_sem(&pb, e->buf, 1, PPU_SEM_OP_RELEASE | (1u << 5));
   hwt_submit(&e->victim, &pb);
   expect_method(x, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_HOST, PPU_SUBCH_HOST,
                 PPU_HOST_SEM_EXECUTE, PPU_SEM_OP_RELEASE | (1u << 5), "undefined bits");
}

FAULT_CASE(semaphore_release_to_the_null_address)
{
   static struct hwt_pb pb;
   start_pb(e, &pb, x);
   hwt_pb_sem(&pb, 0, 1, PPU_SEM_OP_RELEASE);
   hwt_submit(&e->victim, &pb);
   expect_method(x, PPU_FAULT_MMU_UNMAPPED, PPU_ENGINE_HOST, PPU_SUBCH_HOST, PPU_HOST_SEM_EXECUTE,
                 PPU_SEM_OP_RELEASE, "null");
   x->has_address = true;
   x->address = 0;
   x->write = true;
}

FAULT_CASE(semaphore_release_to_a_read_only_page)
{
   static struct hwt_pb pb;
   start_pb(e, &pb, x);
   hwt_pb_sem(&pb, e->ro + 8, 1, PPU_SEM_OP_TIMESTAMP);
   hwt_submit(&e->victim, &pb);
   expect_method(x, PPU_FAULT_MMU_WRITE_PROTECT, PPU_ENGINE_HOST, PPU_SUBCH_HOST,
                 PPU_HOST_SEM_EXECUTE, PPU_SEM_OP_TIMESTAMP, "read-only");
   x->has_address = true;
   x->address = e->ro + 8;
   x->write = true;
}

FAULT_CASE(semaphore_acquire_through_a_bad_pte)
{
   uint64_t va = e->buf + PPU_PAGE_SIZE;
   *hwt_leaf_pte(&e->t.mem, e->t.pd, va) |= 1ull << 60; /* reserved bit */
   static struct hwt_pb pb;
   start_pb(e, &pb, x);
   hwt_pb_sem(&pb, va + 16, 1, PPU_SEM_OP_ACQUIRE_GEQ);
   hwt_submit(&e->victim, &pb);
   expect_method(x, PPU_FAULT_MMU_BAD_PTE, PPU_ENGINE_HOST, PPU_SUBCH_HOST, PPU_HOST_SEM_EXECUTE,
                 PPU_SEM_OP_ACQUIRE_GEQ, "reserved bits");
   x->has_address = true;
   x->address = va + 16;
   x->write = false;
}

FAULT_CASE(copy_source_mapped_outside_vram)
{
   uint64_t va = e->buf + 2 * PPU_PAGE_SIZE;
   *hwt_leaf_pte(&e->t.mem, e->t.pd, va) = (TEST_VRAM + (1ull << 30)) | PPU_PTE_VALID;
   static struct hwt_pb pb;
   start_pb(e, &pb, x);
   hwt_pb_copy(&pb, e->buf, va + 100, 64);
   hwt_submit(&e->victim, &pb);
   expect_method(x, PPU_FAULT_MMU_BAD_PTE, PPU_ENGINE_COPY, PPU_SUBCH_COPY, PPU_COPY_LAUNCH,
                 PPU_COPY_OP_COPY, "outside VRAM");
   x->has_address = true;
   x->address = va + 100;
   x->write = false;
}

FAULT_CASE(copy_destination_unmapped)
{
   static struct hwt_pb pb;
   start_pb(e, &pb, x);
   hwt_pb_fill(&pb, e->buf + 4 * PPU_PAGE_SIZE - 16, 0x12345678, 32);
   hwt_submit(&e->victim, &pb);
   expect_method(x, PPU_FAULT_MMU_UNMAPPED, PPU_ENGINE_COPY, PPU_SUBCH_COPY, PPU_COPY_LAUNCH,
                 PPU_COPY_OP_FILL, "not valid");
   x->has_address = true;
   x->address = e->buf + 4 * PPU_PAGE_SIZE;
   x->write = true;
}

FAULT_CASE(copy_with_overlapping_ranges)
{
   static struct hwt_pb pb;
   start_pb(e, &pb, x);
   hwt_pb_copy(&pb, e->buf + 8, e->buf, 64);
   hwt_submit(&e->victim, &pb);
   expect_method(x, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_COPY, PPU_SUBCH_COPY, PPU_COPY_LAUNCH,
                 PPU_COPY_OP_COPY, "overlap");
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
