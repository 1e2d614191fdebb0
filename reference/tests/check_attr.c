/* SPDX-License-Identifier: MIT */
/*
 * check_attr.c -- trace stream attribute objects: posix_trace_attr_init and
 * _destroy, every TRC getter and setter, the TRI/TRL attribute functions,
 * defaults and accepted values as recorded in reference/posix/CHOICES.md.
 */
#include "test_util.h"
#include "stream/attr.h"

#include <stdint.h>
#include <stdio.h>

#define GENVERSION "posixtrace-reference 0.1"

static size_t round8(size_t n) { return (n + 7u) & ~(size_t)7u; }

/* S0002, S0013: the default trace-name is "" (DESIGN: defaults). */
START_TEST(test_default_name)
{
    trace_attr_t a;
    char name[TRACE_NAME_MAX];
    memset(name, 'x', sizeof name);
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    ck_assert_int_eq(posix_trace_attr_getname(&a, name), 0);
    ck_assert_str_eq(name, "");
    ck_assert_int_eq(posix_trace_attr_destroy(&a), 0);
}
END_TEST

/* S0003, S0011, S0012: generation-version is set at init, read-only,
 * "posixtrace-reference 0.1", and fits in TRACE_NAME_MAX bytes. */
START_TEST(test_default_genversion)
{
    trace_attr_t a;
    char v[TRACE_NAME_MAX];
    memset(v, 'x', sizeof v);
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    ck_assert_int_eq(posix_trace_attr_getgenversion(&a, v), 0);
    ck_assert_str_eq(v, GENVERSION);
    ck_assert_uint_lt(strlen(v), TRACE_NAME_MAX);
    ck_assert_int_eq(posix_trace_attr_destroy(&a), 0);
}
END_TEST

/* S0003, S0008: clock-resolution is set at init to the resolution of
 * CLOCK_REALTIME (DESIGN: defaults). */
START_TEST(test_default_clockres)
{
    trace_attr_t a;
    struct timespec res = { -1, -1 }, want;
    ck_assert_int_eq(clock_getres(CLOCK_REALTIME, &want), 0);
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    ck_assert_int_eq(posix_trace_attr_getclockres(&a, &res), 0);
    ck_assert_int_eq(res.tv_sec, want.tv_sec);
    ck_assert_int_eq(res.tv_nsec, want.tv_nsec);
    ck_assert_int_eq(posix_trace_attr_destroy(&a), 0);
}
END_TEST

/* S0009: creation-time of a fresh object is 0 s 0 ns (DESIGN: defaults). */
START_TEST(test_default_createtime)
{
    trace_attr_t a;
    struct timespec t = { -1, -1 };
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    ck_assert_int_eq(posix_trace_attr_getcreatetime(&a, &t), 0);
    ck_assert_int_eq(t.tv_sec, 0);
    ck_assert_int_eq(t.tv_nsec, 0);
    ck_assert_int_eq(posix_trace_attr_destroy(&a), 0);
}
END_TEST

/* S0015, S0013: setname then getname gives the same name. */
START_TEST(test_setname_roundtrip)
{
    trace_attr_t a;
    char name[TRACE_NAME_MAX];
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    ck_assert_int_eq(posix_trace_attr_setname(&a, "my-trace"), 0);
    ck_assert_int_eq(posix_trace_attr_getname(&a, name), 0);
    ck_assert_str_eq(name, "my-trace");
    ck_assert_int_eq(posix_trace_attr_setname(&a, "other"), 0);
    ck_assert_int_eq(posix_trace_attr_getname(&a, name), 0);
    ck_assert_str_eq(name, "other");
    ck_assert_int_eq(posix_trace_attr_setname(&a, ""), 0);
    ck_assert_int_eq(posix_trace_attr_getname(&a, name), 0);
    ck_assert_str_eq(name, "");
    ck_assert_int_eq(posix_trace_attr_destroy(&a), 0);
}
END_TEST

/* S0015, S0014: a name longer than TRACE_NAME_MAX-1 (63) characters is
 * truncated to its first 63 characters (DESIGN, CATALOGUE section 7
 * defect 10); the result fits a TRACE_NAME_MAX buffer. */
START_TEST(test_setname_truncates_long)
{
    trace_attr_t a;
    char longname[200], got[TRACE_NAME_MAX + 16];
    memset(longname, 0, sizeof longname);
    for (int i = 0; i < 150; i++)
        longname[i] = (char)('a' + i % 26);
    memset(got, 'Z', sizeof got);
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    ck_assert_int_eq(posix_trace_attr_setname(&a, longname), 0);
    ck_assert_int_eq(posix_trace_attr_getname(&a, got), 0);
    ck_assert_uint_eq(strlen(got), TRACE_NAME_MAX - 1);
    ck_assert_int_eq(strncmp(got, longname, TRACE_NAME_MAX - 1), 0);
    /* Nothing written past the TRACE_NAME_MAX bytes the spec promises. */
    for (int i = TRACE_NAME_MAX; i < (int)sizeof got; i++)
        ck_assert_msg(got[i] == 'Z', "getname wrote byte %d beyond TRACE_NAME_MAX", i);
    ck_assert_int_eq(posix_trace_attr_destroy(&a), 0);
}
END_TEST

/* S0015, S0014: a name of exactly 63 characters is kept whole; one of 64
 * characters loses its last character. */
START_TEST(test_setname_boundary)
{
    trace_attr_t a;
    char n63[TRACE_NAME_MAX], n64[TRACE_NAME_MAX + 1], got[TRACE_NAME_MAX];
    memset(n63, 'q', TRACE_NAME_MAX - 1);
    n63[TRACE_NAME_MAX - 1] = '\0';
    memset(n64, 'r', TRACE_NAME_MAX);
    n64[TRACE_NAME_MAX] = '\0';
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    ck_assert_int_eq(posix_trace_attr_setname(&a, n63), 0);
    ck_assert_int_eq(posix_trace_attr_getname(&a, got), 0);
    ck_assert_str_eq(got, n63);
    ck_assert_int_eq(posix_trace_attr_setname(&a, n64), 0);
    ck_assert_int_eq(posix_trace_attr_getname(&a, got), 0);
    ck_assert_uint_eq(strlen(got), TRACE_NAME_MAX - 1);
    ck_assert_int_eq(strncmp(got, n64, TRACE_NAME_MAX - 1), 0);
    ck_assert_int_eq(posix_trace_attr_destroy(&a), 0);
}
END_TEST

/* ---- The six value attributes, each a row of a table -----------------------------
 *
 * A size attribute (stream-min-size, max-data-size, log-max-size) and an int
 * one (stream-full-policy, log-full-policy, inheritance) are each a getter
 * and a setter with a default, values it accepts and reads back, and values
 * it refuses with EINVAL, leaving what was set.  Each row cites its rules;
 * each Check test below runs one row, so a row fails alone, its messages
 * naming the attribute. */

struct size_attr {
    const char *name;                                   /* for messages */
    const char *rules;                                  /* its S-ids, for messages */
    int (*get)(const trace_attr_t *, size_t *);
    int (*set)(trace_attr_t *, size_t);
    size_t dflt;                                        /* the default (DESIGN) */
    size_t valid[5];                                    /* accepted and read back */
    size_t nvalid;
    size_t keep;                                        /* set before the refused ones */
    size_t invalid[3];                                  /* EINVAL, value kept */
    size_t ninvalid;
};

static const struct size_attr SIZE_ATTRS[] = {
#define STREAMSIZE 0
    /* S0002, S0056: default 65536; S0060, S0056: accepts 1 .. 2^30; S0062:
     * 0 or above 2^30 is EINVAL and leaves the value. */
    { "stream-min-size", "S0002 S0056 S0060 S0062", posix_trace_attr_getstreamsize,
      posix_trace_attr_setstreamsize, 65536, { 1, 2, 1000, 65536, (size_t)1 << 30 }, 5,
      4096, { 0, ((size_t)1 << 30) + 1, SIZE_MAX }, 3 },
#define MAXDATASIZE 1
    /* S0002, S0052: default 256; S0058, S0052: accepts 0 .. 65535; S0062:
     * above 65535 is EINVAL and leaves the value. */
    { "max-data-size", "S0002 S0052 S0058 S0062", posix_trace_attr_getmaxdatasize,
      posix_trace_attr_setmaxdatasize, 256, { 0, 1, 16, 256, 65535 }, 5,
      100, { 65536, SIZE_MAX }, 2 },
#define LOGSIZE 2
    /* S0002, S0047: default 1 MiB (TRL attribute, DESIGN); S0049, S0047:
     * accepts 1 .. ATTR_LOG_SIZE_MAX; S0062: 0 or above it is EINVAL and
     * leaves the value. */
    { "log-max-size", "S0002 S0047 S0049 S0062", posix_trace_attr_getlogsize,
      posix_trace_attr_setlogsize, 1024u * 1024u, { 1, 4096, (size_t)ATTR_LOG_SIZE_MAX }, 3,
      8192, { 0, ATTR_LOG_SIZE_MAX < SIZE_MAX ? (size_t)ATTR_LOG_SIZE_MAX + 1 : 0 }, 2 },
};

struct int_attr {
    const char *name, *rules;
    int (*get)(const trace_attr_t *, int *);
    int (*set)(trace_attr_t *, int);
    int dflt;
    int valid[3];
    size_t nvalid;
    int keep;
    int invalid[4];
    size_t ninvalid;
};

static const struct int_attr INT_ATTRS[] = {
#define STREAMFULLPOLICY 0
    /* S0040, S0046: default LOOP (stream without log); S0030, S0031, S0046:
     * accepts UNTIL_FULL, FLUSH and LOOP (FLUSH is only refused by
     * posix_trace_create, S0039); S0031, S0043: any other is EINVAL (APPEND
     * is a log policy only) and leaves the value. */
    { "stream-full-policy", "S0030 S0031 S0040 S0043 S0046",
      posix_trace_attr_getstreamfullpolicy, posix_trace_attr_setstreamfullpolicy,
      POSIX_TRACE_LOOP, { POSIX_TRACE_UNTIL_FULL, POSIX_TRACE_FLUSH, POSIX_TRACE_LOOP }, 3,
      POSIX_TRACE_UNTIL_FULL, { 0, -1, POSIX_TRACE_APPEND, 99 }, 4 },
#define LOGFULLPOLICY 1
    /* S0045: default LOOP (TRL attribute); S0022, S0023, S0045: accepts
     * UNTIL_FULL, APPEND and LOOP; S0023, S0043: any other (FLUSH included)
     * is EINVAL. */
    { "log-full-policy", "S0022 S0023 S0043 S0045",
      posix_trace_attr_getlogfullpolicy, posix_trace_attr_setlogfullpolicy,
      POSIX_TRACE_LOOP, { POSIX_TRACE_UNTIL_FULL, POSIX_TRACE_APPEND, POSIX_TRACE_LOOP }, 3,
      POSIX_TRACE_APPEND, { 0, -1, POSIX_TRACE_FLUSH, 99 }, 4 },
#define INHERITED 2
    /* S0044, S0019: default CLOSE_FOR_CHILD (TRI attribute); S0018, S0019,
     * S0044: accepts INHERITED and CLOSE_FOR_CHILD; S0019, S0043: any other
     * value is EINVAL. */
    { "inheritance", "S0018 S0019 S0043 S0044",
      posix_trace_attr_getinherited, posix_trace_attr_setinherited,
      POSIX_TRACE_CLOSE_FOR_CHILD, { POSIX_TRACE_INHERITED, POSIX_TRACE_CLOSE_FOR_CHILD }, 2,
      POSIX_TRACE_INHERITED, { 0, -1, 3, 99 }, 4 },
};

/* The row's default, as a freshly initialised object reads it. */
static void size_default(const struct size_attr *r)
{
    trace_attr_t a;
    size_t got = 1;
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    ck_assert_msg(r->get(&a, &got) == 0, "get %s (%s) failed", r->name, r->rules);
    ck_assert_msg(got == r->dflt, "default %s (%s): expected %zu, got %zu", r->name,
                  r->rules, r->dflt, got);
    ck_assert_int_eq(posix_trace_attr_destroy(&a), 0);
}

/* Each valid value is accepted and read back. */
static void size_valid(const struct size_attr *r)
{
    trace_attr_t a;
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    for (size_t i = 0; i < r->nvalid; i++) {
        size_t got = 12345678;
        int rc = r->set(&a, r->valid[i]);
        ck_assert_msg(rc == 0, "set %s(%zu) (%s): expected 0, got %d", r->name, r->valid[i],
                      r->rules, rc);
        ck_assert_msg(r->get(&a, &got) == 0, "get %s (%s) failed", r->name, r->rules);
        ck_assert_msg(got == r->valid[i], "%s (%s): set %zu, read back %zu", r->name,
                      r->rules, r->valid[i], got);
    }
    ck_assert_int_eq(posix_trace_attr_destroy(&a), 0);
}

/* Each invalid value is EINVAL and leaves the value set before. */
static void size_invalid(const struct size_attr *r)
{
    trace_attr_t a;
    size_t got = 0;
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    ck_assert_int_eq(r->set(&a, r->keep), 0);
    for (size_t i = 0; i < r->ninvalid; i++) {
        int rc = r->set(&a, r->invalid[i]);
        ck_assert_msg(rc == EINVAL, "set %s(%zu) (%s): expected EINVAL, got %d", r->name,
                      r->invalid[i], r->rules, rc);
    }
    ck_assert_msg(r->get(&a, &got) == 0, "get %s (%s) failed", r->name, r->rules);
    ck_assert_msg(got == r->keep, "%s (%s): refused values changed it from %zu to %zu",
                  r->name, r->rules, r->keep, got);
    ck_assert_int_eq(posix_trace_attr_destroy(&a), 0);
}

/* The same three for an int attribute. */
static void int_default(const struct int_attr *r)
{
    trace_attr_t a;
    int got = -1;
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    ck_assert_msg(r->get(&a, &got) == 0, "get %s (%s) failed", r->name, r->rules);
    ck_assert_msg(got == r->dflt, "default %s (%s): expected %d, got %d", r->name, r->rules,
                  r->dflt, got);
    ck_assert_int_eq(posix_trace_attr_destroy(&a), 0);
}

static void int_valid(const struct int_attr *r)
{
    trace_attr_t a;
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    for (size_t i = 0; i < r->nvalid; i++) {
        int got = -1;
        int rc = r->set(&a, r->valid[i]);
        ck_assert_msg(rc == 0, "set %s(%d) (%s): expected 0, got %d", r->name, r->valid[i],
                      r->rules, rc);
        ck_assert_msg(r->get(&a, &got) == 0, "get %s (%s) failed", r->name, r->rules);
        ck_assert_msg(got == r->valid[i], "%s (%s): set %d, read back %d", r->name, r->rules,
                      r->valid[i], got);
    }
    ck_assert_int_eq(posix_trace_attr_destroy(&a), 0);
}

static void int_invalid(const struct int_attr *r)
{
    trace_attr_t a;
    int got = -1;
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    ck_assert_int_eq(r->set(&a, r->keep), 0);
    for (size_t i = 0; i < r->ninvalid; i++) {
        int rc = r->set(&a, r->invalid[i]);
        ck_assert_msg(rc == EINVAL, "set %s(%d) (%s): expected EINVAL, got %d", r->name,
                      r->invalid[i], r->rules, rc);
    }
    ck_assert_msg(r->get(&a, &got) == 0, "get %s (%s) failed", r->name, r->rules);
    ck_assert_msg(got == r->keep, "%s (%s): refused values changed it from %d to %d",
                  r->name, r->rules, r->keep, got);
    ck_assert_int_eq(posix_trace_attr_destroy(&a), 0);
}

/* One Check test a row and a question, under the names the suite has always
 * had (make check-unit lists them). */
#define ROW_TEST(test, run, table, row)                                                 \
    START_TEST(test) { run(&table[row]); }                                              \
    END_TEST

ROW_TEST(test_default_streamsize, size_default, SIZE_ATTRS, STREAMSIZE)
ROW_TEST(test_default_maxdatasize, size_default, SIZE_ATTRS, MAXDATASIZE)
ROW_TEST(test_default_logsize, size_default, SIZE_ATTRS, LOGSIZE)
ROW_TEST(test_default_streamfullpolicy, int_default, INT_ATTRS, STREAMFULLPOLICY)
ROW_TEST(test_default_logfullpolicy, int_default, INT_ATTRS, LOGFULLPOLICY)
ROW_TEST(test_default_inherited, int_default, INT_ATTRS, INHERITED)
ROW_TEST(test_streamsize_valid, size_valid, SIZE_ATTRS, STREAMSIZE)
ROW_TEST(test_streamsize_invalid, size_invalid, SIZE_ATTRS, STREAMSIZE)
ROW_TEST(test_maxdatasize_valid, size_valid, SIZE_ATTRS, MAXDATASIZE)
ROW_TEST(test_maxdatasize_invalid, size_invalid, SIZE_ATTRS, MAXDATASIZE)
ROW_TEST(test_streamfullpolicy_valid, int_valid, INT_ATTRS, STREAMFULLPOLICY)
ROW_TEST(test_streamfullpolicy_invalid, int_invalid, INT_ATTRS, STREAMFULLPOLICY)
ROW_TEST(test_logfullpolicy_valid, int_valid, INT_ATTRS, LOGFULLPOLICY)
ROW_TEST(test_logfullpolicy_invalid, int_invalid, INT_ATTRS, LOGFULLPOLICY)
ROW_TEST(test_inherited_valid, int_valid, INT_ATTRS, INHERITED)
ROW_TEST(test_inherited_invalid, int_invalid, INT_ATTRS, INHERITED)

/* S0049, S0047: ATTR_LOG_SIZE_MAX (the log-max-size row's largest value) is
 * 2^40 where size_t and off_t have 64 bits, 2^30 where either has 32 (issue
 * 14: the limit was (size_t)1 << 40, 0 on a 32-bit target). */
START_TEST(test_logsize_valid)
{
    uint64_t want = sizeof(off_t) >= 8 && sizeof(size_t) >= 8 ? UINT64_C(1) << 40 :
                    UINT64_C(1) << 30;
    ck_assert_uint_eq(ATTR_LOG_SIZE_MAX, want);
    size_valid(&SIZE_ATTRS[LOGSIZE]);
}
END_TEST

ROW_TEST(test_logsize_invalid, size_invalid, SIZE_ATTRS, LOGSIZE)

/* S0055, S0054: getmaxusereventsize(n) = 40 + round8(min(n, max-data-size))
 * (DESIGN: event sizes), for the default max-data-size (256). */
START_TEST(test_maxusereventsize)
{
    trace_attr_t a;
    size_t lens[] = { 0, 1, 7, 8, 9, 100, 255, 256, 257, 100000 };
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        size_t got = 0, n = lens[i] < 256 ? lens[i] : 256;
        ck_assert_int_eq(posix_trace_attr_getmaxusereventsize(&a, lens[i], &got), 0);
        ck_assert_msg(got == 40 + round8(n),
                      "getmaxusereventsize(%zu): expected %zu, got %zu",
                      lens[i], 40 + round8(n), got);
    }
    ck_assert_int_eq(posix_trace_attr_destroy(&a), 0);
}
END_TEST

/* S0055, S0059: the user event size follows max-data-size (data beyond it
 * is truncated, so it takes no room). */
START_TEST(test_maxusereventsize_follows_maxdata)
{
    trace_attr_t a;
    size_t got = 0;
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    ck_assert_int_eq(posix_trace_attr_setmaxdatasize(&a, 16), 0);
    ck_assert_int_eq(posix_trace_attr_getmaxusereventsize(&a, 100, &got), 0);
    ck_assert_uint_eq(got, 56);
    ck_assert_int_eq(posix_trace_attr_getmaxusereventsize(&a, 10, &got), 0);
    ck_assert_uint_eq(got, 56);
    ck_assert_int_eq(posix_trace_attr_setmaxdatasize(&a, 0), 0);
    ck_assert_int_eq(posix_trace_attr_getmaxusereventsize(&a, 100, &got), 0);
    ck_assert_uint_eq(got, 40);
    ck_assert_int_eq(posix_trace_attr_setmaxdatasize(&a, 65535), 0);
    ck_assert_int_eq(posix_trace_attr_getmaxusereventsize(&a, 65535, &got), 0);
    ck_assert_uint_eq(got, 40 + 65536);
    ck_assert_int_eq(posix_trace_attr_destroy(&a), 0);
}
END_TEST

/* S0053: getmaxsystemeventsize = 40 + round8(2 * sizeof(trace_event_set_t))
 * (the FILTER event, DESIGN: event sizes), whatever max-data-size is. */
START_TEST(test_maxsystemeventsize)
{
    trace_attr_t a;
    size_t got = 0, want = 40 + round8(2 * sizeof(trace_event_set_t));
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    ck_assert_int_eq(posix_trace_attr_getmaxsystemeventsize(&a, &got), 0);
    ck_assert_uint_eq(got, want);
    ck_assert_int_eq(posix_trace_attr_setmaxdatasize(&a, 0), 0);
    ck_assert_int_eq(posix_trace_attr_getmaxsystemeventsize(&a, &got), 0);
    ck_assert_uint_eq(got, want);
    ck_assert_int_eq(posix_trace_attr_destroy(&a), 0);
}
END_TEST

/* Calls every attribute function on a, expecting EINVAL from each. */
static void expect_all_einval(trace_attr_t *a, const char *what)
{
    struct timespec ts, start = { 1, 0 };
    char buf[TRACE_NAME_MAX];
    size_t sz;
    int iv, en;
    long step;
#define EXPECT_EINVAL(call)                                                   \
    do {                                                                      \
        int rc_ = (call);                                                     \
        ck_assert_msg(rc_ == EINVAL, "%s: %s: expected EINVAL (%d), got %d",  \
                      what, #call, EINVAL, rc_);                              \
    } while (0)
    EXPECT_EINVAL(posix_trace_attr_getclockres(a, &ts));
    EXPECT_EINVAL(posix_trace_attr_getcreatetime(a, &ts));
    EXPECT_EINVAL(posix_trace_attr_getgenversion(a, buf));
    EXPECT_EINVAL(posix_trace_attr_getname(a, buf));
    EXPECT_EINVAL(posix_trace_attr_setname(a, "x"));
    EXPECT_EINVAL(posix_trace_attr_getinherited(a, &iv));
    EXPECT_EINVAL(posix_trace_attr_setinherited(a, POSIX_TRACE_CLOSE_FOR_CHILD));
    EXPECT_EINVAL(posix_trace_attr_getlogfullpolicy(a, &iv));
    EXPECT_EINVAL(posix_trace_attr_setlogfullpolicy(a, POSIX_TRACE_LOOP));
    EXPECT_EINVAL(posix_trace_attr_getstreamfullpolicy(a, &iv));
    EXPECT_EINVAL(posix_trace_attr_setstreamfullpolicy(a, POSIX_TRACE_LOOP));
    EXPECT_EINVAL(posix_trace_attr_getlogsize(a, &sz));
    EXPECT_EINVAL(posix_trace_attr_setlogsize(a, 4096));
    EXPECT_EINVAL(posix_trace_attr_getmaxdatasize(a, &sz));
    EXPECT_EINVAL(posix_trace_attr_setmaxdatasize(a, 16));
    EXPECT_EINVAL(posix_trace_attr_getmaxsystemeventsize(a, &sz));
    EXPECT_EINVAL(posix_trace_attr_getmaxusereventsize(a, 8, &sz));
    EXPECT_EINVAL(posix_trace_attr_getstreamsize(a, &sz));
    EXPECT_EINVAL(posix_trace_attr_setstreamsize(a, 4096));
    EXPECT_EINVAL(posixtrace_attr_setsimclock(a, &start, 10));
    EXPECT_EINVAL(posixtrace_attr_getsimclock(a, &en, &start, &step));
    EXPECT_EINVAL(posix_trace_attr_destroy(a));
#undef EXPECT_EINVAL
}

/* S0006, S0017, S0043, S0062: every attribute function gives EINVAL for a
 * NULL attribute object (DESIGN: attribute defaults). */
START_TEST(test_null_attr_einval)
{
    expect_all_einval(NULL, "NULL attr");
    ck_assert_int_eq(posix_trace_attr_init(NULL), EINVAL);
}
END_TEST

/* S0017, S0043, S0062: every getter gives EINVAL for a NULL output pointer,
 * and setname for a NULL name (DESIGN: NULL pointers). */
START_TEST(test_null_output_einval)
{
    trace_attr_t a;
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    ck_assert_int_eq(posix_trace_attr_getclockres(&a, NULL), EINVAL);
    ck_assert_int_eq(posix_trace_attr_getcreatetime(&a, NULL), EINVAL);
    ck_assert_int_eq(posix_trace_attr_getgenversion(&a, NULL), EINVAL);
    ck_assert_int_eq(posix_trace_attr_getname(&a, NULL), EINVAL);
    ck_assert_int_eq(posix_trace_attr_setname(&a, NULL), EINVAL);
    ck_assert_int_eq(posix_trace_attr_getinherited(&a, NULL), EINVAL);
    ck_assert_int_eq(posix_trace_attr_getlogfullpolicy(&a, NULL), EINVAL);
    ck_assert_int_eq(posix_trace_attr_getstreamfullpolicy(&a, NULL), EINVAL);
    ck_assert_int_eq(posix_trace_attr_getlogsize(&a, NULL), EINVAL);
    ck_assert_int_eq(posix_trace_attr_getmaxdatasize(&a, NULL), EINVAL);
    ck_assert_int_eq(posix_trace_attr_getmaxsystemeventsize(&a, NULL), EINVAL);
    ck_assert_int_eq(posix_trace_attr_getmaxusereventsize(&a, 8, NULL), EINVAL);
    ck_assert_int_eq(posix_trace_attr_getstreamsize(&a, NULL), EINVAL);
    ck_assert_int_eq(posix_trace_attr_destroy(&a), 0);
}
END_TEST

/* S0083, S0006: an object that was never initialised (all zero, all ones)
 * is refused with EINVAL by every attribute function (DESIGN: magic). */
START_TEST(test_uninitialised_einval)
{
    trace_attr_t a;
    memset(&a, 0, sizeof a);
    expect_all_einval(&a, "zeroed attr");
    memset(&a, 0xff, sizeof a);
    expect_all_einval(&a, "0xff-filled attr");
}
END_TEST

/* S0001, S0006: after destroy the object is refused with EINVAL by every
 * attribute function, destroy included (DESIGN: magic cleared). */
START_TEST(test_destroyed_einval)
{
    trace_attr_t a;
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    ck_assert_int_eq(posix_trace_attr_destroy(&a), 0);
    expect_all_einval(&a, "destroyed attr");
}
END_TEST

/* S0002, S0005: a destroyed object may be initialised again and then has
 * the default values, not the ones set before. */
START_TEST(test_reinit_after_destroy)
{
    trace_attr_t a;
    size_t s = 0;
    char name[TRACE_NAME_MAX];
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    ck_assert_int_eq(posix_trace_attr_setstreamsize(&a, 1234), 0);
    ck_assert_int_eq(posix_trace_attr_setname(&a, "old"), 0);
    ck_assert_int_eq(posix_trace_attr_destroy(&a), 0);
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    ck_assert_int_eq(posix_trace_attr_getstreamsize(&a, &s), 0);
    ck_assert_uint_eq(s, 65536);
    ck_assert_int_eq(posix_trace_attr_getname(&a, name), 0);
    ck_assert_str_eq(name, "");
    ck_assert_int_eq(posix_trace_attr_destroy(&a), 0);
}
END_TEST

/* S0004, S0086: changing the attribute object after posix_trace_create
 * does not change the stream's attributes. */
START_TEST(test_changes_do_not_affect_stream)
{
    trace_attr_t a, got;
    trace_id_t trid;
    char name[TRACE_NAME_MAX];
    size_t s = 0;
    int p = -1;

    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    ck_assert_int_eq(posix_trace_attr_setname(&a, "before"), 0);
    ck_assert_int_eq(posix_trace_attr_setstreamsize(&a, 8192), 0);
    ck_assert_int_eq(posix_trace_attr_setmaxdatasize(&a, 32), 0);
    ck_assert_int_eq(posix_trace_attr_setstreamfullpolicy(&a, POSIX_TRACE_UNTIL_FULL), 0);
    ck_assert_int_eq(posix_trace_create(0, &a, &trid), 0);

    ck_assert_int_eq(posix_trace_attr_setname(&a, "after"), 0);
    ck_assert_int_eq(posix_trace_attr_setstreamsize(&a, 4096), 0);
    ck_assert_int_eq(posix_trace_attr_setmaxdatasize(&a, 64), 0);
    ck_assert_int_eq(posix_trace_attr_setstreamfullpolicy(&a, POSIX_TRACE_LOOP), 0);

    ck_assert_int_eq(posix_trace_attr_init(&got), 0);
    ck_assert_int_eq(posix_trace_get_attr(trid, &got), 0);
    ck_assert_int_eq(posix_trace_attr_getname(&got, name), 0);
    ck_assert_str_eq(name, "before");
    ck_assert_int_eq(posix_trace_attr_getstreamsize(&got, &s), 0);
    ck_assert_uint_eq(s, 8192);
    ck_assert_int_eq(posix_trace_attr_getmaxdatasize(&got, &s), 0);
    ck_assert_uint_eq(s, 32);
    ck_assert_int_eq(posix_trace_attr_getstreamfullpolicy(&got, &p), 0);
    ck_assert_int_eq(p, POSIX_TRACE_UNTIL_FULL);
    ck_assert_int_eq(posix_trace_attr_destroy(&got), 0);
    ck_assert_int_eq(posix_trace_attr_destroy(&a), 0);
    tu_shutdown(trid);
}
END_TEST

/* S0004: destroying the attribute object does not affect the stream made
 * from it: it still records and reports events with its own attributes. */
START_TEST(test_destroy_does_not_affect_stream)
{
    trace_attr_t a, got;
    trace_id_t trid;
    struct tu_ev ev;
    char name[TRACE_NAME_MAX];
    unsigned char data[40];
    size_t md = 0;

    memset(data, 7, sizeof data);
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    ck_assert_int_eq(posix_trace_attr_setname(&a, "kept"), 0);
    ck_assert_int_eq(posix_trace_attr_setmaxdatasize(&a, 24), 0);
    ck_assert_int_eq(posix_trace_create(0, &a, &trid), 0);
    ck_assert_int_eq(posix_trace_attr_destroy(&a), 0);

    ck_assert_int_eq(posix_trace_start(trid), 0);
    posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, data, sizeof data);
    ck_assert(tu_read1(trid, &ev));
    ck_assert_int_eq(ev.info.posix_event_id, POSIX_TRACE_START);
    ck_assert(tu_read1(trid, &ev));
    ck_assert_int_eq(ev.info.posix_event_id, POSIX_TRACE_UNNAMED_USEREVENT);
    ck_assert_uint_eq(ev.len, 24);
    ck_assert_int_eq(ev.info.posix_truncation_status, POSIX_TRACE_TRUNCATED_RECORD);

    ck_assert_int_eq(posix_trace_attr_init(&got), 0);
    ck_assert_int_eq(posix_trace_get_attr(trid, &got), 0);
    ck_assert_int_eq(posix_trace_attr_getname(&got, name), 0);
    ck_assert_str_eq(name, "kept");
    ck_assert_int_eq(posix_trace_attr_getmaxdatasize(&got, &md), 0);
    ck_assert_uint_eq(md, 24);
    ck_assert_int_eq(posix_trace_attr_destroy(&got), 0);
    tu_shutdown(trid);
}
END_TEST

/* S0003, S0011, S0008: a stream's attributes (get_attr) carry the same
 * read-only generation-version and clock resolution as a fresh object. */
START_TEST(test_stream_readonly_attrs)
{
    trace_attr_t got;
    trace_id_t trid;
    char v[TRACE_NAME_MAX];
    struct timespec res, want;

    ck_assert_int_eq(clock_getres(CLOCK_REALTIME, &want), 0);
    ck_assert_int_eq(posix_trace_create(0, NULL, &trid), 0);
    ck_assert_int_eq(posix_trace_attr_init(&got), 0);
    ck_assert_int_eq(posix_trace_get_attr(trid, &got), 0);
    ck_assert_int_eq(posix_trace_attr_getgenversion(&got, v), 0);
    ck_assert_str_eq(v, GENVERSION);
    ck_assert_int_eq(posix_trace_attr_getclockres(&got, &res), 0);
    ck_assert_int_eq(res.tv_sec, want.tv_sec);
    ck_assert_int_eq(res.tv_nsec, want.tv_nsec);
    ck_assert_int_eq(posix_trace_attr_destroy(&got), 0);
    tu_shutdown(trid);
}
END_TEST

/* S0002: two objects initialised independently do not share state. */
START_TEST(test_objects_independent)
{
    trace_attr_t a, b;
    char n[TRACE_NAME_MAX];
    size_t s;
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    ck_assert_int_eq(posix_trace_attr_init(&b), 0);
    ck_assert_int_eq(posix_trace_attr_setname(&a, "aaa"), 0);
    ck_assert_int_eq(posix_trace_attr_setstreamsize(&a, 999), 0);
    ck_assert_int_eq(posix_trace_attr_getname(&b, n), 0);
    ck_assert_str_eq(n, "");
    ck_assert_int_eq(posix_trace_attr_getstreamsize(&b, &s), 0);
    ck_assert_uint_eq(s, 65536);
    ck_assert_int_eq(posix_trace_attr_destroy(&a), 0);
    /* b still valid after a is destroyed */
    ck_assert_int_eq(posix_trace_attr_getstreamsize(&b, &s), 0);
    ck_assert_int_eq(posix_trace_attr_destroy(&b), 0);
}
END_TEST

Suite *suite_attr(void)
{
    Suite *s = suite_create("attr");
    TCase *tc;

    tc = tu_tcase("defaults");
    tcase_add_test(tc, test_default_name);
    tcase_add_test(tc, test_default_genversion);
    tcase_add_test(tc, test_default_clockres);
    tcase_add_test(tc, test_default_createtime);
    tcase_add_test(tc, test_default_streamsize);
    tcase_add_test(tc, test_default_maxdatasize);
    tcase_add_test(tc, test_default_streamfullpolicy);
    tcase_add_test(tc, test_default_logsize);
    tcase_add_test(tc, test_default_logfullpolicy);
    tcase_add_test(tc, test_default_inherited);
    suite_add_tcase(s, tc);

    tc = tu_tcase("set_get");
    tcase_add_test(tc, test_setname_roundtrip);
    tcase_add_test(tc, test_setname_truncates_long);
    tcase_add_test(tc, test_setname_boundary);
    tcase_add_test(tc, test_streamsize_valid);
    tcase_add_test(tc, test_streamsize_invalid);
    tcase_add_test(tc, test_maxdatasize_valid);
    tcase_add_test(tc, test_maxdatasize_invalid);
    tcase_add_test(tc, test_streamfullpolicy_valid);
    tcase_add_test(tc, test_streamfullpolicy_invalid);
    tcase_add_test(tc, test_logsize_valid);
    tcase_add_test(tc, test_logsize_invalid);
    tcase_add_test(tc, test_logfullpolicy_valid);
    tcase_add_test(tc, test_logfullpolicy_invalid);
    tcase_add_test(tc, test_inherited_valid);
    tcase_add_test(tc, test_inherited_invalid);
    tcase_add_test(tc, test_objects_independent);
    suite_add_tcase(s, tc);

    tc = tu_tcase("sizes");
    tcase_add_test(tc, test_maxusereventsize);
    tcase_add_test(tc, test_maxusereventsize_follows_maxdata);
    tcase_add_test(tc, test_maxsystemeventsize);
    suite_add_tcase(s, tc);

    tc = tu_tcase("errors");
    tcase_add_test(tc, test_null_attr_einval);
    tcase_add_test(tc, test_null_output_einval);
    tcase_add_test(tc, test_uninitialised_einval);
    tcase_add_test(tc, test_destroyed_einval);
    tcase_add_test(tc, test_reinit_after_destroy);
    suite_add_tcase(s, tc);

    tc = tu_tcase("streams");
    tcase_add_test(tc, test_changes_do_not_affect_stream);
    tcase_add_test(tc, test_destroy_does_not_affect_stream);
    tcase_add_test(tc, test_stream_readonly_attrs);
    suite_add_tcase(s, tc);
    return s;
}
