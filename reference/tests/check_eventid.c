/* SPDX-License-Identifier: MIT */
/*
 * check_eventid.c -- posix_trace_eventid_open, posix_trace_eventid_equal,
 * posix_trace_eventid_get_name: the per-process name mapping, its limit,
 * and the names of the system events (DESIGN: event identifiers).
 *
 * User event names are per process: every test opens names of its own
 * (tu_unique_name), and the test that exhausts {TRACE_USER_EVENT_MAX} runs
 * in a forked child so that the other tests keep room for their names even
 * with CK_FORK=no.
 */
#include "test_util.h"

#include <stdio.h>

/* S0123, S0125, S0126, S0132: opening the same name twice gives the same
 * id; the id is a named user id (above the unnamed one). */
START_TEST(test_open_same_name_same_id)
{
    char name[64];
    trace_event_id_t a = 0, b = 1;
    tu_unique_name(name, "eid.same");
    ck_assert_int_eq(posix_trace_eventid_open(name, &a), 0);
    ck_assert_int_eq(posix_trace_eventid_open(name, &b), 0);
    ck_assert_uint_eq(a, b);
    ck_assert_uint_gt(a, POSIX_TRACE_UNNAMED_USEREVENT);
}
END_TEST

/* S0125, S0288: different names get different ids; new names get
 * consecutive ids in the order they are opened (DESIGN: 17, 18, ...). */
START_TEST(test_open_distinct_consecutive)
{
    trace_event_id_t a = tu_new_event("eid.dist");
    trace_event_id_t b = tu_new_event("eid.dist");
    trace_event_id_t c = tu_new_event("eid.dist");
    ck_assert_uint_eq(b, a + 1);
    ck_assert_uint_eq(c, b + 1);
}
END_TEST

/* S0124, S0134, S0133: a name longer than {TRACE_EVENT_NAME_MAX} (63)
 * characters gives ENAMETOOLONG. */
START_TEST(test_open_name_too_long)
{
    char name[TRACE_EVENT_NAME_MAX + 2];
    trace_event_id_t id = 12345;
    memset(name, 'L', TRACE_EVENT_NAME_MAX + 1);
    name[TRACE_EVENT_NAME_MAX + 1] = '\0';
    ck_assert_int_eq(posix_trace_eventid_open(name, &id), ENAMETOOLONG);
    {
        char huge[300];
        memset(huge, 'H', 299);
        huge[299] = '\0';
        ck_assert_int_eq(posix_trace_eventid_open(huge, &id), ENAMETOOLONG);
    }
}
END_TEST

/* S0124, S0138, S0137: a name of exactly {TRACE_EVENT_NAME_MAX} characters
 * is accepted and reported back whole by get_name. */
START_TEST(test_open_name_exact_max)
{
    char name[TRACE_EVENT_NAME_MAX + 1], got[TRACE_EVENT_NAME_MAX + 1];
    trace_event_id_t id = 0;
    trace_id_t trid;
    char tag[64];
    memset(name, 'M', TRACE_EVENT_NAME_MAX);
    name[TRACE_EVENT_NAME_MAX] = '\0';
    /* make it unique in the process */
    tu_unique_name(tag, "x");
    memcpy(name, tag, strlen(tag));
    ck_assert_int_eq(posix_trace_eventid_open(name, &id), 0);
    ck_assert_uint_gt(id, POSIX_TRACE_UNNAMED_USEREVENT);
    trid = tu_stream_sim();
    ck_assert_int_eq(posix_trace_eventid_get_name(trid, id, got), 0);
    ck_assert_str_eq(got, name);
    tu_shutdown(trid);
}
END_TEST

static int child_exhaust_names(void *arg, char *msg, size_t len)
{
    trace_event_id_t first = 0, prev = 0, id = 0, again = 0;
    char name[64], keep[64] = "";
    int count = 0, rc;
    (void)arg;
    for (int i = 0; i < TRACE_USER_EVENT_MAX + 10; i++) {
        snprintf(name, sizeof name, "limit.child.%d", i);
        rc = posix_trace_eventid_open(name, &id);
        if (rc != 0) {
            snprintf(msg, len, "eventid_open(%s) #%d: expected 0, got %d", name, i, rc);
            return 1;
        }
        if (id == POSIX_TRACE_UNNAMED_USEREVENT)
            break;
        if (count == 0) {
            first = id;
            snprintf(keep, sizeof keep, "%s", name);
        } else if (id != prev + 1) {
            snprintf(msg, len, "name #%d: id %u, expected %u", i, id, prev + 1);
            return 2;
        }
        prev = id;
        count++;
    }
    if (id != POSIX_TRACE_UNNAMED_USEREVENT) {
        snprintf(msg, len, "limit never reached after %d names", count);
        return 3;
    }
    if (prev != POSIX_TRACE_UNNAMED_USEREVENT + TRACE_USER_EVENT_MAX - 1) {
        snprintf(msg, len, "last named id %u, expected %u (first %u, %d names)",
                 prev, POSIX_TRACE_UNNAMED_USEREVENT + TRACE_USER_EVENT_MAX - 1,
                 first, count);
        return 4;
    }
    if (count != (int)(prev - first + 1)) {
        snprintf(msg, len, "count %d != ids %u..%u", count, first, prev);
        return 5;
    }
    /* Further new names: still the unnamed event, and success. */
    rc = posix_trace_eventid_open("limit.child.more", &id);
    if (rc != 0 || id != POSIX_TRACE_UNNAMED_USEREVENT) {
        snprintf(msg, len, "after limit: rc %d id %u, expected 0 and %u", rc, id,
                 POSIX_TRACE_UNNAMED_USEREVENT);
        return 6;
    }
    /* A name opened before the limit keeps its id. */
    rc = posix_trace_eventid_open(keep, &again);
    if (rc != 0 || again != first) {
        snprintf(msg, len, "reopen %s: rc %d id %u, expected 0 and %u", keep, rc,
                 again, first);
        return 7;
    }
    return 0;
}

/* S0127, S0286, S0130: after {TRACE_USER_EVENT_MAX} - 1 named events (the
 * unnamed one counts), further new names give POSIX_TRACE_UNNAMED_USEREVENT
 * (with success); names already mapped keep their ids.  The last named id
 * is 16 + 255 = 271 (DESIGN).  Runs in a forked child. */
START_TEST(test_open_user_event_limit)
{
    tu_run_in_child(child_exhaust_names, NULL);
}
END_TEST

/* S0151, S0135: eventid_equal is nonzero for equal ids and zero otherwise,
 * for system and user ids of a stream. */
START_TEST(test_eventid_equal)
{
    trace_event_id_t u = tu_new_event("eid.eq"), v = tu_new_event("eid.eq"), u2;
    char name[TRACE_EVENT_NAME_MAX + 1];
    trace_id_t trid = tu_stream_sim();
    ck_assert_int_eq(posix_trace_eventid_get_name(trid, u, name), 0);
    ck_assert_int_eq(posix_trace_eventid_open(name, &u2), 0);
    ck_assert_int_ne(posix_trace_eventid_equal(trid, u, u2), 0);
    ck_assert_int_ne(posix_trace_eventid_equal(trid, u, u), 0);
    ck_assert_int_eq(posix_trace_eventid_equal(trid, u, v), 0);
    ck_assert_int_ne(posix_trace_eventid_equal(trid, POSIX_TRACE_START, POSIX_TRACE_START), 0);
    ck_assert_int_eq(posix_trace_eventid_equal(trid, POSIX_TRACE_START, POSIX_TRACE_STOP), 0);
    ck_assert_int_eq(posix_trace_eventid_equal(trid, POSIX_TRACE_UNNAMED_USEREVENT, u), 0);
    ck_assert_int_ne(posix_trace_eventid_equal(trid, POSIX_TRACE_UNNAMED_USEREVENT,
                                               POSIX_TRACE_UNNAMED_USER_EVENT), 0);
    tu_shutdown(trid);
}
END_TEST

/* S0137, S0281, S0282, S0287: the system events of TRC and the unnamed
 * user event have their 2.11.2 names. */
START_TEST(test_get_name_system)
{
    static const struct { trace_event_id_t id; const char *name; } t[] = {
        { POSIX_TRACE_START, "posix_trace_start" },
        { POSIX_TRACE_STOP, "posix_trace_stop" },
        { POSIX_TRACE_OVERFLOW, "posix_trace_overflow" },
        { POSIX_TRACE_RESUME, "posix_trace_resume" },
        { POSIX_TRACE_ERROR, "posix_trace_error" },
        { POSIX_TRACE_UNNAMED_USEREVENT, "posix_trace_unnamed_userevent" },
    };
    trace_id_t trid = tu_stream_sim();
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        char name[TRACE_EVENT_NAME_MAX + 1] = "";
        int rc = posix_trace_eventid_get_name(trid, t[i].id, name);
        ck_assert_msg(rc == 0, "get_name(%u): expected 0, got %d", t[i].id, rc);
        ck_assert_str_eq(name, t[i].name);
    }
    tu_shutdown(trid);
}
END_TEST

/* S0137, S0139, S0149: get_name gives the name of a user event, the same
 * on every call. */
START_TEST(test_get_name_user)
{
    char name[64], got[TRACE_EVENT_NAME_MAX + 1];
    trace_event_id_t id;
    trace_id_t trid = tu_stream_sim();
    tu_unique_name(name, "eid.getname");
    ck_assert_int_eq(posix_trace_eventid_open(name, &id), 0);
    for (int i = 0; i < 3; i++) {
        memset(got, 0, sizeof got);
        ck_assert_int_eq(posix_trace_eventid_get_name(trid, id, got), 0);
        ck_assert_str_eq(got, name);
    }
    tu_shutdown(trid);
}
END_TEST

/* S0155, S0150: an id that has no name in the stream gives EINVAL. */
START_TEST(test_get_name_unknown_id)
{
    trace_event_id_t last = tu_new_event("eid.unknown");
    trace_event_id_t bad[] = { 0, 9, 15, last + 1, last + 50,
                               __POSIXTRACE_EVENT_ID_LIMIT, 100000, (trace_event_id_t)-1 };
    trace_id_t trid = tu_stream_sim();
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char name[TRACE_EVENT_NAME_MAX + 1];
        int rc = posix_trace_eventid_get_name(trid, bad[i], name);
        ck_assert_msg(rc == EINVAL, "get_name(%u): expected EINVAL (%d), got %d",
                      bad[i], EINVAL, rc);
    }
    tu_shutdown(trid);
}
END_TEST

/* S0153: get_name with an invalid trace id gives EINVAL. */
START_TEST(test_get_name_bad_trid)
{
    trace_id_t trid = tu_stream_sim();
    char name[TRACE_EVENT_NAME_MAX + 1];
    tu_shutdown(trid);
    ck_assert_int_eq(posix_trace_eventid_get_name(trid, POSIX_TRACE_START, name), EINVAL);
    ck_assert_int_eq(posix_trace_eventid_get_name(0, POSIX_TRACE_START, name), EINVAL);
}
END_TEST

/* S0131, S0237: a name opened before any stream exists is known to a
 * stream created later. */
START_TEST(test_mapping_before_stream)
{
    char name[64], got[TRACE_EVENT_NAME_MAX + 1];
    trace_event_id_t id;
    trace_id_t trid;
    struct tu_ev evs[4];
    tu_unique_name(name, "eid.before");
    ck_assert_int_eq(posix_trace_eventid_open(name, &id), 0);
    trid = tu_stream_sim_started();
    ck_assert_int_eq(posix_trace_eventid_get_name(trid, id, got), 0);
    ck_assert_str_eq(got, name);
    tu_event_int(id, 5);
    ck_assert_int_eq(tu_read_all(trid, evs, 4), 2);
    ck_assert_uint_eq(evs[1].info.posix_event_id, id);
    tu_shutdown(trid);
}
END_TEST

/* S0237, S0236, S0289: a name opened while a stream exists is part of that
 * stream's mapping too. */
START_TEST(test_mapping_after_stream)
{
    char name[64], got[TRACE_EVENT_NAME_MAX + 1];
    trace_event_id_t id;
    trace_id_t trid = tu_stream_sim_started();
    tu_unique_name(name, "eid.after");
    ck_assert_int_eq(posix_trace_eventid_open(name, &id), 0);
    ck_assert_int_eq(posix_trace_eventid_get_name(trid, id, got), 0);
    ck_assert_str_eq(got, name);
    tu_shutdown(trid);
}
END_TEST

/* S0288, S0293: two streams of the process share the mapping: the same id
 * has the same name in both. */
START_TEST(test_mapping_shared_by_streams)
{
    char name[64], g1[TRACE_EVENT_NAME_MAX + 1], g2[TRACE_EVENT_NAME_MAX + 1];
    trace_event_id_t id;
    trace_id_t a = tu_stream_sim(), b;
    tu_unique_name(name, "eid.shared");
    ck_assert_int_eq(posix_trace_eventid_open(name, &id), 0);
    b = tu_stream_sim();
    ck_assert_int_eq(posix_trace_eventid_get_name(a, id, g1), 0);
    ck_assert_int_eq(posix_trace_eventid_get_name(b, id, g2), 0);
    ck_assert_str_eq(g1, name);
    ck_assert_str_eq(g2, name);
    tu_shutdown(a);
    tu_shutdown(b);
}
END_TEST

/* S0126: the mapping outlives the streams: a name opened while a stream
 * existed keeps its id after the stream is shut down. */
START_TEST(test_mapping_survives_shutdown)
{
    char name[64];
    trace_event_id_t id, again;
    trace_id_t trid = tu_stream_sim();
    tu_unique_name(name, "eid.survive");
    ck_assert_int_eq(posix_trace_eventid_open(name, &id), 0);
    tu_shutdown(trid);
    ck_assert_int_eq(posix_trace_eventid_open(name, &again), 0);
    ck_assert_uint_eq(again, id);
}
END_TEST

/* S0133, S0150: NULL name or id pointers give EINVAL from eventid_open
 * and get_name (the reference checks them; DESIGN does not list them). */
START_TEST(test_eventid_null_args)
{
    trace_event_id_t id;
    trace_id_t trid = tu_stream_sim();
    ck_assert_int_eq(posix_trace_eventid_open(NULL, &id), EINVAL);
    ck_assert_int_eq(posix_trace_eventid_open("eid.null.id", NULL), EINVAL);
    ck_assert_int_eq(posix_trace_eventid_get_name(trid, POSIX_TRACE_START, NULL), EINVAL);
    tu_shutdown(trid);
}
END_TEST

Suite *suite_eventid(void)
{
    Suite *s = suite_create("eventid");
    TCase *tc = tu_tcase("open");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_open_same_name_same_id);
    tcase_add_test(tc, test_open_distinct_consecutive);
    tcase_add_test(tc, test_open_name_too_long);
    tcase_add_test(tc, test_open_name_exact_max);
    tcase_add_test(tc, test_open_user_event_limit);
    suite_add_tcase(s, tc);

    tc = tu_tcase("names");
    tcase_add_test(tc, test_eventid_equal);
    tcase_add_test(tc, test_get_name_system);
    tcase_add_test(tc, test_get_name_user);
    tcase_add_test(tc, test_get_name_unknown_id);
    tcase_add_test(tc, test_get_name_bad_trid);
    tcase_add_test(tc, test_eventid_null_args);
    suite_add_tcase(s, tc);

    tc = tu_tcase("mapping");
    tcase_add_test(tc, test_mapping_before_stream);
    tcase_add_test(tc, test_mapping_after_stream);
    tcase_add_test(tc, test_mapping_shared_by_streams);
    tcase_add_test(tc, test_mapping_survives_shutdown);
    suite_add_tcase(s, tc);
    return s;
}
