/* SPDX-License-Identifier: MIT */
/*
 * check_kernel_dump.c -- the trace dumper behind tracedump (dump.h): event
 * names of every class (KSP-6), the text and JSON formats of
 * reference/kernel/KERNEL.md, integrity errors and rejections with their offsets
 * and rules (KSP-14, KSP-25), a layer that claims events before the kernel
 * layer, and hostile input (cut and corrupted files) that must never crash
 * it or make it read out of bounds (run under valgrind by make
 * check-valgrind, and fuzzed by fuzz/fuzz_slot_decoder.c).
 *
 * The JSON is checked for its shape here; that it meets the decoder
 * contract is checked by kvecrun with tracedump as the decoder (make
 * check-ksp).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check_kernel.h"
#include "dump/dump.h"

/* Runs dump_mem into a string; *rc is its result. */
static char *dump(const void *file, size_t len, enum dump_format fmt, int *rc,
                  struct dump_result *r, const struct dump_layer *layers, size_t nlayers)
{
    char *out = NULL, err[512];
    size_t n = 0;
    FILE *f = open_memstream(&out, &n);
    struct dump_options o = { .format = fmt, .name = "t.kev", .layers = layers,
                              .nlayers = nlayers };
    ck_assert_ptr_nonnull(f);
    *rc = dump_mem(file, len, f, &o, r, err, sizeof err);
    fclose(f);
    return out;
}

static size_t count(const char *s, const char *what)
{
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, what)) != NULL; p += strlen(what))
        n++;
    return n;
}

static struct slot_event event(unsigned cls, unsigned ev, const uint32_t *w, uint32_t nw)
{
    struct slot_event e = { .cls = cls, .event = ev, .words = w, .nwords = nw,
                            .nslots = nw / 2, .complete = 1 };
    return e;
}

/* The name and the text of the arguments dump_kernel_describe gives. */
static void named(unsigned cls, unsigned ev, const uint32_t *w, uint32_t nw, const char *cname,
                  const char *name, const char *arg0, uint64_t v0)
{
    struct dump_desc d;
    struct slot_event e = event(cls, ev, w, nw);
    memset(&d, 0, sizeof d);
    dump_kernel_describe(&e, &d);
    ck_assert_str_eq(d.class_name, cname);
    ck_assert_str_eq(d.name, name);
    if (arg0) {
        ck_assert_uint_ge(d.nargs, 1);
        ck_assert_str_eq(d.args[0].key, arg0);
        ck_assert_uint_eq(d.args[0].num, v0);
    }
}

START_TEST(test_kernel_names)
{
    const uint32_t w[8] = { 7, 9, 0x6c6c6568, 0x6f, 0, 0, 0, 0 };
    named(SLOT_CLASS_CONTROL, 1, w, 2, "CONTROL", "TIME", "high", 7);
    named(SLOT_CLASS_CONTROL, 2, w, 2, "CONTROL", "BUFFER", "seq", 7);
    named(SLOT_CLASS_CONTROL, 8, w, 2, "CONTROL", "DROPPED", "events", 7);
    named(SLOT_CLASS_CONTROL, 5, w, 2, "CONTROL", "control:5", NULL, 0);
    named(SLOT_CLASS_KER_CALL, 11, w, 2, "KER_CALL", "enter:11", NULL, 0);
    named(SLOT_CLASS_KER_CALL, 139, w, 2, "KER_CALL", "exit:11", NULL, 0);
    named(SLOT_CLASS_KER_CALL, 267, w, 2, "KER_CALL", "int:11", NULL, 0);
    named(SLOT_CLASS_KER_CALL, 500, w, 2, "KER_CALL", "ker_call:500", NULL, 0);
    named(SLOT_CLASS_INT, 1, w, 2, "INT", "entry", "vector", 7);
    named(SLOT_CLASS_INT, 2, w, 2, "INT", "exit", "vector", 7);
    named(SLOT_CLASS_INT, 3, w, 4, "INT", "handler_entry", "pid", 7);
    named(SLOT_CLASS_INT, 4, w, 2, "INT", "handler_exit", "pid", 7);
    named(SLOT_CLASS_PR_TH, 1, w, 2, "PR_TH", "thread:RUNNING", "pid", 7);
    named(SLOT_CLASS_PR_TH, 22, w, 2, "PR_TH", "thread:state22", "pid", 7);
    named(SLOT_CLASS_PR_TH, 24, w, 2, "PR_TH", "thread_create", "pid", 7);
    named(SLOT_CLASS_PR_TH, 25, w, 2, "PR_TH", "thread_destroy", "pid", 7);
    named(SLOT_CLASS_PR_TH, 27, w, 2, "PR_TH", "vthread:RUNNING", "pid", 7);
    named(SLOT_CLASS_PR_TH, 50, w, 2, "PR_TH", "vthread_create", "pid", 7);
    named(SLOT_CLASS_PR_TH, 64, w, 2, "PR_TH", "process_create", "ppid", 7);
    named(SLOT_CLASS_PR_TH, 128, w, 2, "PR_TH", "process_destroy", "ppid", 7);
    named(SLOT_CLASS_PR_TH, 192, w, 4, "PR_TH", "process_create_name", "ppid", 7);
    named(SLOT_CLASS_PR_TH, 256, w, 4, "PR_TH", "process_destroy_name", "ppid", 7);
    named(SLOT_CLASS_PR_TH, 320, w, 4, "PR_TH", "thread_name", "pid", 7);
    named(SLOT_CLASS_PR_TH, 100, w, 2, "PR_TH", "pr_th:100", NULL, 0);
    named(SLOT_CLASS_USER, 12, w, 2, "USER", "user:12", NULL, 0);
    named(SLOT_CLASS_SYSTEM, 3, w, 2, "SYSTEM", "system:3", NULL, 0);
    named(SLOT_CLASS_COMM, 0, w, 2, "COMM", "smsg", NULL, 0);
    named(SLOT_CLASS_COMM, 4, w, 2, "COMM", "spulse_exe", NULL, 0);   /* QNX's codes */
    named(SLOT_CLASS_COMM, 10, w, 2, "COMM", "reply", NULL, 0);
    named(SLOT_CLASS_COMM, 12, w, 2, "COMM", "comm:12", NULL, 0);
    named(SLOT_CLASS_EMPTY, 4, w, 2, "EMPTY", "EMPTY:4", NULL, 0);

    /* A process name: the bytes after ppid and pid, to the NUL. */
    struct dump_desc d;
    struct slot_event e = event(SLOT_CLASS_PR_TH, 192, w, 4);
    memset(&d, 0, sizeof d);
    dump_kernel_describe(&e, &d);
    ck_assert_uint_eq(d.nargs, 3);
    ck_assert(d.args[2].is_str);
    ck_assert_str_eq(d.args[2].str, "hello");
    /* A USER payload that reads as a string is shown as one; others not. */
    const uint32_t str[4] = { 0x6c6c6568, 0x6f77206f, 0x00646c72, 0 };
    e = event(SLOT_CLASS_USER, 3, str, 4);
    memset(&d, 0, sizeof d);
    dump_kernel_describe(&e, &d);
    ck_assert_uint_eq(d.nargs, 1);
    ck_assert_str_eq(d.args[0].str, "hello world");
    const uint32_t notstr[2] = { 0x6c6c6568, 0x01000000 };
    e = event(SLOT_CLASS_USER, 3, notstr, 2);
    memset(&d, 0, sizeof d);
    dump_kernel_describe(&e, &d);
    ck_assert_uint_eq(d.nargs, 0);
    /* A name of unprintable bytes, longer than the room: escaped and cut. */
    uint32_t bin[200];
    for (int i = 0; i < 200; i++)
        bin[i] = 0x01FF7F22;
    e = event(SLOT_CLASS_PR_TH, 320, bin, 200);
    memset(&d, 0, sizeof d);
    dump_kernel_describe(&e, &d);
    ck_assert(strlen(d.args[2].str) < DUMP_STR_MAX);
    ck_assert(strncmp(d.args[2].str, "\\x22\\x7f\\xff\\x01", 16) == 0);
}
END_TEST

START_TEST(test_text_format)
{
    struct ksim_config c = kt_config(2, 1500, 3);
    c.nbuffers = 2;
    c.logger_every = 450;
    struct kt_trace t;
    kt_run(&c, &t);
    struct dump_result r;
    int rc;
    char *out = dump(t.file, t.len, DUMP_TEXT, &rc, &r, NULL, 0);
    ck_assert_int_eq(rc, 0);
    ck_assert_uint_eq(r.sum.errors, 0);
    ck_assert_uint_eq(r.cpu_num, 2);
    /* One line per event: every line not a comment is one. */
    size_t lines = count(out, "\n") - count(out, "\n#") - (out[0] == '#');
    ck_assert_uint_eq(lines, r.sum.events);
    ck_assert_msg(strstr(out, " CONTROL  BUFFER               seq=0 slots=") != NULL, "%.400s",
                  out);
    ck_assert(strstr(out, "# TRACE_CPU_NUM::2\n") != NULL);
    char want[96];
    snprintf(want, sizeof want, "#   dropped %llu events, %llu slots (KSP-22)\n",
             (unsigned long long)t.st.events_dropped, (unsigned long long)t.st.slots_dropped);
    ck_assert_msg(strstr(out, want) != NULL, "no \"%s\"", want);
    ck_assert(strstr(out, "#   per CPU: 0:") != NULL);
    ck_assert(strstr(out, "#   per class: CONTROL:") != NULL);
    free(out);
    /* --summary: no event line. */
    char *s = NULL, err[256];
    size_t n = 0;
    FILE *f = open_memstream(&s, &n);
    struct dump_options o = { .format = DUMP_TEXT, .no_events = 1 };
    ck_assert_int_eq(dump_mem(t.file, t.len, f, &o, &r, err, sizeof err), 0);
    fclose(f);
    ck_assert_uint_eq(count(s, "\n") - count(s, "\n#") - (s[0] == '#'), 0);
    ck_assert_uint_eq(r.sum.events, lines);
    free(s);
    kt_free(&t);
}
END_TEST

/* Only printable ASCII and newlines: valid UTF-8 whatever the input. */
static void plain_ascii(const char *s)
{
    for (const char *p = s; *p; p++)
        ck_assert_msg(*p == '\n' || (*p >= 0x20 && *p < 0x7f), "byte 0x%02x at %td",
                      (unsigned char)*p, p - s);
}

START_TEST(test_json_format)
{
    struct ksim_config c = kt_config(2, 800, 4);
    c.nodename = "a\"b\\c\td\x7f\xe9";
    struct kt_trace t;
    kt_run(&c, &t);
    struct dump_result r;
    int rc;
    char *out = dump(t.file, t.len, DUMP_JSON, &rc, &r, NULL, 0);
    ck_assert_int_eq(rc, 0);
    ck_assert(strncmp(out, "{\"format\":\"posixtrace-ksp-dump\",\"version\":1,\"file\":{", 52) == 0);
    ck_assert(strstr(out, "\"byte_order\":\"little\",\"cpu_num\":2,") != NULL);
    ck_assert(strstr(out, "[\"NODENAME\",\"a\\\"b\\\\c\\u0009d\\u007f\\u00e9\"]") != NULL);
    ck_assert_uint_eq(count(out, "\n{\"offset\":"), r.sum.events);
    ck_assert(strstr(out, "\"errors\":[],\n\"fatal\":null,\n\"summary\":{") != NULL);
    ck_assert(strstr(out, "\"class\":1,\"class_name\":\"CONTROL\",\"event\":2,\"name\":"
                          "\"BUFFER\"") != NULL);
    ck_assert(strstr(out, "\"args\":{\"seq\":0,\"slots\":") != NULL);
    ck_assert(strstr(out, "\"dropped_events\":0,\"dropped_slots\":0,") != NULL);
    plain_ascii(out);
    size_t n = strlen(out);
    ck_assert(n > 3 && strcmp(out + n - 3, "}}\n") == 0);
    free(out);
    kt_free(&t);
}
END_TEST

START_TEST(test_rejected_file)
{
    static const char bad[] = "TRACE_HEADER_BEGIN::TRACE_FILE_NAME::x";
    struct dump_result r;
    int rc;
    char *out = dump(bad, sizeof bad - 1, DUMP_JSON, &rc, &r, NULL, 0);
    ck_assert_int_eq(rc, EINVAL);
    ck_assert(r.rejected);
    ck_assert_msg(strstr(out, "\"fatal\":{\"offset\":38,\"rule\":\"KSP-25\",\"errno\":\"EINVAL\","
                              "\"message\":\"offset 38: KSP-25: header not terminated")
                  != NULL, "%s", out);
    ck_assert(strstr(out, "\"file\":null,\n\"events\":[],\n\"errors\":[]") != NULL);
    plain_ascii(out);
    free(out);
    out = dump("nothing", 7, DUMP_TEXT, &rc, &r, NULL, 0);
    ck_assert_int_eq(rc, EINVAL);
    ck_assert_str_eq(out, "");     /* text: the caller prints the message */
    free(out);
}
END_TEST

/* A small file by hand: header and these slots. */
static unsigned char *handmade(const traceevent_t *s, size_t n, size_t *len)
{
    char h[1024];
    size_t hl;
    struct trace_file_meta m = { .cycles_per_sec = 1000, .cpu_num = 2 };
    ck_assert_int_eq(trace_file_header_build(&m, h, sizeof h, &hl), 0);
    unsigned char *f = malloc(hl + 16 * n);
    memcpy(f, h, hl);
    memcpy(f + hl, s, 16 * n);      /* host order: the header says the host's */
    *len = hl + 16 * n;
    return f;
}

START_TEST(test_errors_listed)
{
    traceevent_t s[3] = {
        { slot_header(_TRACE_STRUCT_S, 0, SLOT_CLASS_USER, 1), { 0x10, 1, 2 } },
        { slot_header(_TRACE_STRUCT_CE, 1, SLOT_CLASS_USER, 2), { 0x20, 3, 4 } },
        { slot_header(_TRACE_STRUCT_CB, 1, SLOT_CLASS_USER, 3), { 0x30, 5, 6 } },
    };
    size_t len;
    unsigned char *f = handmade(s, 3, &len);
    size_t at = len - 48;
    struct dump_result r;
    int rc;
    char want[160];
    char *out = dump(f, len, DUMP_TEXT, &rc, &r, NULL, 0);
    ck_assert_int_eq(rc, 0);
    ck_assert_uint_eq(r.sum.errors, 2);
    snprintf(want, sizeof want, "ERROR offset %zu: KSP-14: CE matches no open combine event "
             "(cpu 1, class 6, event 2, time 0x00000020)\n", at + 16);
    ck_assert_msg(strstr(out, want) != NULL, "no \"%s\" in\n%s", want, out);
    ck_assert(strstr(out, "[incomplete: 1 slots]") != NULL);
    ck_assert(strstr(out, "integrity errors 2, no_open_combine 1, left_open 1") != NULL);
    free(out);
    out = dump(f, len, DUMP_JSON, &rc, &r, NULL, 0);
    snprintf(want, sizeof want, "\"errors\":[\n{\"offset\":%zu,\"rule\":\"KSP-14\",\"kind\":"
             "\"no_open_combine\",\"message\":\"offset %zu: KSP-14: CE", at + 16, at + 16);
    ck_assert_msg(strstr(out, want) != NULL, "no \"%s\" in\n%s", want, out);
    ck_assert(strstr(out, "\"kind\":\"left_open\"") != NULL);
    ck_assert(strstr(out, "\"complete\":false") != NULL);
    free(out);
    free(f);
}
END_TEST

static int posix_layer(void *ctx, const struct slot_event *ev, struct dump_desc *d)
{
    int *calls = ctx;
    ++*calls;
    if (ev->cls != SLOT_CLASS_USER)
        return 0;
    d->class_name = "POSIX";
    snprintf(d->name, sizeof d->name, "posix_event");
    dump_add_num(d, "id", ev->event, 0);
    return 1;
}

START_TEST(test_layer_claims_events)
{
    traceevent_t s[2] = {
        { slot_header(_TRACE_STRUCT_S, 0, SLOT_CLASS_USER, 40), { 0x10, 1, 2 } },
        { slot_header(_TRACE_STRUCT_S, 0, SLOT_CLASS_INT, 1), { 0x11, 3, 4 } },
    };
    size_t len;
    unsigned char *f = handmade(s, 2, &len);
    int calls = 0, rc;
    struct dump_layer layer = { "posix", posix_layer, &calls };
    struct dump_result r;
    char *out = dump(f, len, DUMP_TEXT, &rc, &r, &layer, 1);
    ck_assert_int_eq(calls, 2);
    ck_assert_msg(strstr(out, " POSIX    posix_event          id=40\n") != NULL, "%s", out);
    ck_assert(strstr(out, " INT      entry                vector=3 ip=0x4\n") != NULL);
    free(out);
    free(f);
}
END_TEST

START_TEST(test_fd_and_memory_agree)
{
    struct ksim_config c = kt_config(3, 2000, 5);
    struct kt_trace t;
    kt_run(&c, &t);
    FILE *tmp = tmpfile();
    ck_assert_ptr_nonnull(tmp);
    ck_assert_uint_eq(fwrite(t.file, 1, t.len, tmp), t.len);
    fflush(tmp);
    for (int fmt = 0; fmt < 2; fmt++) {
        char *a = NULL, *b, err[256];
        size_t n = 0;
        int rc;
        struct dump_result r;
        struct dump_options o = { .format = (enum dump_format)fmt, .name = "t.kev" };
        FILE *f = open_memstream(&a, &n);
        ck_assert_int_eq(dump_fd(fileno(tmp), f, &o, &r, err, sizeof err), 0);
        fclose(f);
        b = dump(t.file, t.len, (enum dump_format)fmt, &rc, &r, NULL, 0);
        ck_assert_str_eq(a, b);
        free(a);
        free(b);
    }
    fclose(tmp);
    kt_free(&t);
}
END_TEST

START_TEST(test_hostile_input)
{
    /* Cut at many lengths and corrupted at random: the dumper reads all of
     * it, in both formats, and returns; valgrind and the sanitizers watch
     * the bounds. */
    struct ksim_config c = kt_config(3, 300, 6);
    struct kt_trace t;
    kt_run(&c, &t);
    FILE *null = fopen("/dev/null", "w");
    ck_assert_ptr_nonnull(null);
    unsigned char *copy = malloc(t.len);
    uint64_t x = 88172645463325252u;
    char err[256];
    struct dump_result r;
    for (size_t cut = 0; cut <= t.len; cut += cut < 1200 ? 13 : 509) {
        struct dump_options o = { .format = (enum dump_format)(cut & 1) };
        int rc = dump_mem(t.file, cut, null, &o, &r, err, sizeof err);
        ck_assert(rc == 0 || rc == EINVAL);
    }
    for (int round = 0; round < 120; round++) {
        memcpy(copy, t.file, t.len);
        for (int k = 0; k < 1 + round % 20; k++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            size_t at = round % 3 ? t.info->slots_offset + x % (t.len - t.info->slots_offset)
                                  : x % t.len;
            copy[at] = (unsigned char)(x >> 40);
        }
        struct dump_options o = { .format = (enum dump_format)(round & 1) };
        int rc = dump_mem(copy, t.len, null, &o, &r, err, sizeof err);
        ck_assert(rc == 0 || rc == EINVAL || rc == ENOTSUP);
        if (rc == 0)
            ck_assert_uint_eq(r.sum.slots, t.nslots);
    }
    free(copy);
    fclose(null);
    kt_free(&t);
}
END_TEST

Suite *suite_kernel_dump(void)
{
    Suite *s = suite_create("kernel_dump");
    TCase *tc = tcase_create("dump");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_kernel_names);
    tcase_add_test(tc, test_text_format);
    tcase_add_test(tc, test_json_format);
    tcase_add_test(tc, test_rejected_file);
    tcase_add_test(tc, test_errors_listed);
    tcase_add_test(tc, test_layer_claims_events);
    tcase_add_test(tc, test_fd_and_memory_agree);
    tcase_add_test(tc, test_hostile_input);
    suite_add_tcase(s, tc);
    return s;
}
