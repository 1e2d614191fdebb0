/* SPDX-License-Identifier: MIT */
/*
 * check_kernel_sim.c -- the kernel simulator as a whole (<posixtrace_kernel.h>):
 * determinism, the configuration and its errors, the workload's classes,
 * the trace file header (KSP-23, KSP-24), the accounting of every event.
 *
 * The buffer rules (KSP-18..22) are in check_kernel_ring.c, the dumper in
 * check_kernel_dump.c.  Not tested here: the progress callback's timing
 * (tracesim's business), and out-of-memory paths (no failing allocator).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "check_kernel.h"

START_TEST(test_same_seed_same_bytes)
{
    /* Determinism: two runs of one configuration give one file. */
    struct ksim_config c = kt_config(4, 5000, 42);
    c.nbuffers = 4;
    c.logger_every = 300;
    c.logger_lanes = 2;
    c.logger_jitter = 50;
    c.wrap_early = 1;
    struct kt_trace a, b;
    kt_run(&c, &a);
    kt_run(&c, &b);
    ck_assert_uint_eq(a.len, b.len);
    ck_assert_msg(memcmp(a.file, b.file, a.len) == 0, "two runs of seed 42 differ");
    ck_assert_msg(memcmp(&a.st, &b.st, sizeof a.st) == 0, "their statistics differ");
    kt_free(&a);
    kt_free(&b);
}
END_TEST

START_TEST(test_other_seed_other_bytes)
{
    struct ksim_config c = kt_config(2, 2000, 1);
    struct kt_trace a, b;
    kt_run(&c, &a);
    c.seed = 2;
    kt_run(&c, &b);
    ck_assert_msg(a.len != b.len || memcmp(a.file, b.file, a.len) != 0,
                  "seeds 1 and 2 gave the same file");
    kt_free(&a);
    kt_free(&b);
}
END_TEST

START_TEST(test_logger_speed_keeps_the_workload)
{
    /* The logger has its own PRNG stream: slowing it down changes what is
     * dropped, not what is generated. */
    struct ksim_config c = kt_config(3, 6000, 9);
    c.nbuffers = 3;
    struct kt_trace a, b;
    kt_run(&c, &a);
    c.logger_every = 500;
    kt_run(&c, &b);
    ck_assert_uint_eq(a.st.events_dropped, 0);
    ck_assert_uint_gt(b.st.events_dropped, 0);
    ck_assert_uint_eq(a.st.events_generated, b.st.events_generated);
    ck_assert_msg(memcmp(a.st.events_per_ext_class, b.st.events_per_ext_class,
                         sizeof a.st.events_per_ext_class) == 0,
                  "the workload changed with the logger's speed");
    kt_free(&a);
    kt_free(&b);
}
END_TEST

/* ksim_config_check refuses field, naming it in the message. */
static void refused(struct ksim_config c, const char *name)
{
    char err[256] = "";
    int rc = ksim_config_check(&c, err, sizeof err);
    ck_assert_msg(rc == EINVAL, "%s: accepted (%d)", name, rc);
    ck_assert_msg(strstr(err, name) != NULL, "the message \"%s\" does not name %s", err, name);
}

START_TEST(test_config_errors)
{
    struct ksim_config c = kt_config(1, 10, 1), x;
    char err[256];
    ck_assert_int_eq(ksim_config_check(&c, err, sizeof err), 0);
    x = c; x.ncpus = 0; refused(x, "cpus");
    x = c; x.ncpus = 65; refused(x, "cpus");
    x = c; x.nbuffers = 1; refused(x, "buffers");
    x = c; x.nbuffers = KSIM_MAX_BUFFERS + 1; refused(x, "buffers");
    x = c; x.mode = (enum ksim_mode)7; refused(x, "mode");
    x = c; x.cycles_per_sec = 0; refused(x, "cycles per second");
    x = c; x.gap_ns = 0; refused(x, "gap");
    x = c; x.gap_ns = 1000000000; refused(x, "gap");     /* 1e9 cycles a step: > 2^28 */
    x = c; x.gap_ns = 1000000000; x.cycles_per_sec = KSIM_MAX_CPS; refused(x, "gap");
    x = c; x.logger_lanes = 0; refused(x, "logger lanes");
    x = c; x.logger_lanes = 9; refused(x, "logger lanes");
    x = c; x.logger_jitter = 101; refused(x, "logger jitter");
    x = c; x.syspage_len = 65537; refused(x, "system page");
    /* ksim_run refuses the same, with nothing written. */
    x = c; x.ncpus = 65;
    struct ksim_sink sink = { NULL, NULL };
    ck_assert_int_eq(ksim_run(&x, &sink, NULL, NULL, err, sizeof err), EINVAL);
}
END_TEST

START_TEST(test_max_event_slots)
{
    /* ncpus * (max + 1) <= 301: the reserve of KSP-20 holds what is in
     * progress when a buffer passes its high-water mark. */
    ck_assert_uint_eq(ksim_max_event_slots(1), 24);
    ck_assert_uint_eq(ksim_max_event_slots(12), 24);
    ck_assert_uint_eq(ksim_max_event_slots(13), 22);
    ck_assert_uint_eq(ksim_max_event_slots(64), 3);
    for (unsigned n = 1; n <= 64; n++) {
        unsigned m = ksim_max_event_slots(n);
        ck_assert_msg(m >= 2 && n * (m + 1) <= 301, "%u CPUs: %u slots", n, m);
    }
}
END_TEST

START_TEST(test_every_class_generated)
{
    /* KSP-6: the workload emits every external class but the CONTROL ones,
     * which are the kernel's own. */
    static const int classes[] = {
        _NTO_TRACE_KERCALLENTER, _NTO_TRACE_KERCALLEXIT, _NTO_TRACE_KERCALLINT,
        _NTO_TRACE_INTENTER, _NTO_TRACE_INTEXIT, _NTO_TRACE_PROCESS, _NTO_TRACE_THREAD,
        _NTO_TRACE_VTHREAD, _NTO_TRACE_USER, _NTO_TRACE_SYSTEM, _NTO_TRACE_COMM,
        _NTO_TRACE_INT_HANDLER_ENTER, _NTO_TRACE_INT_HANDLER_EXIT,
    };
    struct ksim_config c = kt_config(2, 20000, 3);
    struct kt_trace t;
    kt_run(&c, &t);
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
        ck_assert_msg(t.st.events_per_ext_class[classes[i]] > 0, "no event of external "
                      "class %d in 20000", classes[i]);
    ck_assert_uint_eq(t.st.events_per_ext_class[_NTO_TRACE_CONTROL], 0);
    /* Combine events of one to 24 slots: some long ones. */
    ck_assert_uint_gt(t.st.combine_events, 1000);
    struct kt_decoded d;
    kt_decode(&t, &d);
    ck_assert_uint_eq(d.sum.errors, 0);
    ck_assert_uint_eq(d.sum.combine_events, t.st.combine_events);
    unsigned longest = d.max_slots;
    ck_assert_msg(longest >= 16, "the longest combine event has %u slots", longest);
    kt_free(&t);
}
END_TEST

START_TEST(test_header_fields)
{
    /* KSP-23: the keys in order with the configuration's values; KSP-24:
     * SYSPAGE_LEN bytes of system page before the slots. */
    struct ksim_config c = kt_config(3, 100, 77);
    c.cycles_per_sec = 2500000;
    c.syspage_len = 40;
    c.nodename = "node7";
    struct kt_trace t;
    kt_run(&c, &t);
    const struct trace_file_info *i = t.info;
    static const char *const order[] = {
        "FILE_NAME", "DATE", "VER_MAJOR", "VER_MINOR", "LITTLE_ENDIAN", "ENCODING",
        "BOOT_DATE", "CYCLES_PER_SEC", "CPU_NUM", "SYSNAME", "NODENAME", "SYS_RELEASE",
        "SYS_VERSION", "MACHINE", "SYSPAGE_LEN", "KSIM_SEED",
    };
    for (unsigned k = 0; k < sizeof order / sizeof order[0]; k++)
        ck_assert_str_eq(trace_file_key(i, k), order[k]);
    ck_assert_int_eq(i->big_endian, 0);
    ck_assert_uint_eq(i->cycles_per_sec, 2500000);
    ck_assert_uint_eq(i->cpu_num, 3);
    ck_assert_uint_eq(i->syspage_len, 40);
    ck_assert_str_eq(trace_file_value(i, "FILE_NAME"), "/dev/shmem/tracebuffer.kev");
    ck_assert_str_eq(trace_file_value(i, "DATE"), "Thu Jan  1 00:00:00 1970");
    ck_assert_str_eq(trace_file_value(i, "NODENAME"), "node7");
    ck_assert_str_eq(trace_file_value(i, "ENCODING"), "16 byte events");
    ck_assert_str_eq(trace_file_value(i, "KSIM_SEED"), "77");
    ck_assert_str_eq(trace_file_value(i, "KSIM_MODE"), "linear");
    ck_assert_uint_eq(i->slots_offset, i->header_len + 40);
    ck_assert_msg(memcmp(t.file + i->header_len, "KSIM-SYSPAGE", 12) == 0,
                  "the system page does not follow the header");
    ck_assert_uint_eq(t.st.header_bytes, i->slots_offset);
    ck_assert_uint_eq(t.st.file_bytes, t.len);
    ck_assert_uint_eq(t.st.slots_logged, t.nslots);
    kt_free(&t);
}
END_TEST

static int counting_sink(void *user, const void *p, size_t n)
{
    (void)p;
    (void)n;
    ++*(int *)user;
    return 0;
}

START_TEST(test_bad_header_value)
{
    /* A header value the reader would take for a key is refused. */
    struct ksim_config c = kt_config(1, 10, 1);
    c.nodename = "xTRACE_DATE::y";
    char err[256];
    int calls = 0;
    struct ksim_sink sink = { counting_sink, &calls };
    ck_assert_int_eq(ksim_run(&c, &sink, NULL, NULL, err, sizeof err), EINVAL);
    ck_assert_int_eq(calls, 0);
    ck_assert_msg(strstr(err, "header") != NULL, "message: %s", err);
}
END_TEST

static int failing_sink(void *user, const void *p, size_t n)
{
    int *calls = user;
    (void)p;
    (void)n;
    return ++*calls >= 3 ? EIO : 0;
}

START_TEST(test_sink_error)
{
    struct ksim_config c = kt_config(2, 5000, 1);
    int calls = 0;
    char err[256];
    struct ksim_sink sink = { failing_sink, &calls };
    ck_assert_int_eq(ksim_run(&c, &sink, NULL, NULL, err, sizeof err), EIO);
    ck_assert_msg(strstr(err, "cannot write the trace file at offset") != NULL, "message: %s",
                  err);
}
END_TEST

START_TEST(test_zero_events)
{
    /* Tracing started and stopped: one buffer, BUFFER and a TIME per CPU. */
    struct ksim_config c = kt_config(4, 0, 1);
    struct kt_trace t;
    kt_run(&c, &t);
    ck_assert_uint_eq(t.nslots, 5);
    ck_assert(kt_is_control(&t.slots[0], _TRACE_CONTROL_BUFFER));
    ck_assert_uint_eq(t.slots[0].data[2], 5);
    for (unsigned i = 1; i < 5; i++) {
        ck_assert(kt_is_control(&t.slots[i], _TRACE_CONTROL_TIME));
        ck_assert_uint_eq(_NTO_TRACE_GETCPU(t.slots[i].header), i - 1);
    }
    kt_free(&t);
}
END_TEST

START_TEST(test_accounting)
{
    /* decoded + reported dropped = generated, in linear mode with drops. */
    struct ksim_config c = kt_config(4, 30000, 5);
    c.nbuffers = 4;
    c.logger_every = 800;
    c.logger_lanes = 2;
    c.logger_jitter = 60;
    c.wrap_early = 1;
    struct kt_trace t;
    kt_run(&c, &t);
    struct kt_decoded d;
    kt_decode(&t, &d);
    ck_assert_uint_gt(t.st.events_dropped, 0);
    ck_assert_uint_eq(d.sum.errors, 0);
    ck_assert_uint_eq(d.sum.dropped_events, t.st.events_dropped);
    ck_assert_uint_eq(d.sum.dropped_slots, t.st.slots_dropped);
    ck_assert_uint_eq(d.workload_events, t.st.events_written);
    ck_assert_uint_eq(d.workload_events + d.sum.dropped_events, t.st.events_generated);
    ck_assert_uint_eq(t.st.events_generated, 30000);
    ck_assert_msg(!d.time_went_back, "KSP-9: a CPU's time did not increase");
    kt_free(&t);
}
END_TEST

Suite *suite_kernel_sim(void)
{
    Suite *s = suite_create("kernel_sim");
    TCase *tc = tcase_create("sim");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_same_seed_same_bytes);
    tcase_add_test(tc, test_other_seed_other_bytes);
    tcase_add_test(tc, test_logger_speed_keeps_the_workload);
    tcase_add_test(tc, test_config_errors);
    tcase_add_test(tc, test_max_event_slots);
    tcase_add_test(tc, test_every_class_generated);
    tcase_add_test(tc, test_header_fields);
    tcase_add_test(tc, test_bad_header_value);
    tcase_add_test(tc, test_sink_error);
    tcase_add_test(tc, test_zero_events);
    tcase_add_test(tc, test_accounting);
    suite_add_tcase(s, tc);
    return s;
}
