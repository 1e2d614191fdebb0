/* SPDX-License-Identifier: MIT */
/*
 * check_typelist.c -- posix_trace_eventtypelist_getnext_id and
 * posix_trace_eventtypelist_rewind (DESIGN: event identifiers: the system
 * events of the supported options in increasing order, the unnamed user
 * event, then the named user events in the order they were opened).
 */
#include "test_util.h"

#define LIST_MAX (__POSIXTRACE_EVENT_ID_LIMIT + 8)

/* Reads the whole list; returns its length. */
static int read_list(trace_id_t trid, trace_event_id_t *ids, int max)
{
    int n = 0;
    for (;;) {
        trace_event_id_t id = 0xdeadu;
        int unav = -7;
        int rc = posix_trace_eventtypelist_getnext_id(trid, &id, &unav);
        ck_assert_msg(rc == 0, "getnext_id #%d: expected 0, got %d", n, rc);
        ck_assert_msg(unav != -7, "getnext_id #%d did not set *unavailable", n);
        if (unav != 0)
            break;
        ck_assert_msg(n < max, "list longer than %d", max);
        ids[n++] = id;
    }
    return n;
}

/* The system events of the supported options in increasing order, then the
 * unnamed user event (DESIGN: event identifiers); returns the count. */
static int expected_system(trace_event_id_t *ids)
{
    int n = 0;
    ids[n++] = POSIX_TRACE_START;
    ids[n++] = POSIX_TRACE_STOP;
    if (_POSIX_TRACE_EVENT_FILTER > 0)
        ids[n++] = POSIX_TRACE_FILTER;
    ids[n++] = POSIX_TRACE_OVERFLOW;
    ids[n++] = POSIX_TRACE_RESUME;
    if (_POSIX_TRACE_LOG > 0) {
        ids[n++] = POSIX_TRACE_FLUSH_START;
        ids[n++] = POSIX_TRACE_FLUSH_STOP;
    }
    ids[n++] = POSIX_TRACE_ERROR;
    ids[n++] = POSIX_TRACE_UNNAMED_USEREVENT;
    return n;
}

/* S0165, S0166, S0237, S0282, S0284: the list starts with the system events
 * of the supported options in increasing order (none of an option not
 * supported) and the unnamed user event. */
START_TEST(test_list_starts_with_system)
{
    trace_id_t trid = tu_stream_sim();
    trace_event_id_t ids[LIST_MAX], sys[16];
    int n = read_list(trid, ids, LIST_MAX);
    int nsys = expected_system(sys);
    ck_assert_int_ge(n, nsys);
    for (int i = 0; i < nsys; i++)
        ck_assert_msg(ids[i] == sys[i], "list[%d] = %u, expected %u", i, ids[i], sys[i]);
    for (int i = 0; i < n; i++)
        ck_assert_msg((ids[i] != POSIX_TRACE_FILTER || _POSIX_TRACE_EVENT_FILTER > 0) &&
                      ((ids[i] != POSIX_TRACE_FLUSH_START && ids[i] != POSIX_TRACE_FLUSH_STOP)
                       || _POSIX_TRACE_LOG > 0),
                      "list[%d] = %u: event of an unsupported option", i, ids[i]);
    tu_shutdown(trid);
}
END_TEST

/* S0165, S0237, S0131: named user events follow, in the order they were
 * opened, those opened before and after the stream was created included;
 * every id appears once. */
START_TEST(test_list_user_events)
{
    trace_event_id_t a = tu_new_event("tl.before"), b, c;
    trace_id_t trid = tu_stream_sim();
    trace_event_id_t ids[LIST_MAX], sys[16];
    int n, ia = -1, ib = -1, ic = -1, nsys = expected_system(sys);
    b = tu_new_event("tl.after");
    c = tu_new_event("tl.after");
    n = read_list(trid, ids, LIST_MAX);
    for (int i = 0; i < n; i++) {
        if (ids[i] == a) ia = i;
        if (ids[i] == b) ib = i;
        if (ids[i] == c) ic = i;
        for (int j = i + 1; j < n; j++)
            ck_assert_msg(ids[i] != ids[j], "id %u listed twice", ids[i]);
        if (i >= nsys)
            ck_assert_msg(ids[i] > ids[i - 1], "list[%d] = %u not after %u", i,
                          ids[i], ids[i - 1]);
    }
    ck_assert_msg(ia >= nsys && ib > ia && ic > ib,
                  "positions: before-stream %d, after %d, %d", ia, ib, ic);
    ck_assert_int_eq(ic, n - 1);
    tu_shutdown(trid);
}
END_TEST

/* S0167: at the end of the list *unavailable is nonzero, and stays so on
 * further calls. */
START_TEST(test_list_end_stays)
{
    trace_id_t trid = tu_stream_sim();
    trace_event_id_t ids[LIST_MAX], id;
    int unav = 0;
    read_list(trid, ids, LIST_MAX);
    for (int i = 0; i < 3; i++) {
        unav = 0;
        ck_assert_int_eq(posix_trace_eventtypelist_getnext_id(trid, &id, &unav), 0);
        ck_assert_int_ne(unav, 0);
    }
    tu_shutdown(trid);
}
END_TEST

/* S0168, S0169: rewind after the end starts the list again, identical. */
START_TEST(test_rewind_after_end)
{
    trace_id_t trid = tu_stream_sim();
    trace_event_id_t l1[LIST_MAX], l2[LIST_MAX];
    int n1 = read_list(trid, l1, LIST_MAX), n2;
    ck_assert_int_eq(posix_trace_eventtypelist_rewind(trid), 0);
    n2 = read_list(trid, l2, LIST_MAX);
    ck_assert_int_eq(n1, n2);
    for (int i = 0; i < n1; i++)
        ck_assert_uint_eq(l1[i], l2[i]);
    tu_shutdown(trid);
}
END_TEST

/* S0168: rewind in the middle goes back to the first id. */
START_TEST(test_rewind_midway)
{
    trace_id_t trid = tu_stream_sim();
    trace_event_id_t id;
    int unav;
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(posix_trace_eventtypelist_getnext_id(trid, &id, &unav), 0);
    ck_assert_uint_eq(id, POSIX_TRACE_FILTER);          /* TEF: START STOP FILTER ... */
    ck_assert_int_eq(posix_trace_eventtypelist_rewind(trid), 0);
    ck_assert_int_eq(posix_trace_eventtypelist_getnext_id(trid, &id, &unav), 0);
    ck_assert_int_eq(unav, 0);
    ck_assert_uint_eq(id, POSIX_TRACE_START);
    /* rewind twice in a row is fine */
    ck_assert_int_eq(posix_trace_eventtypelist_rewind(trid), 0);
    ck_assert_int_eq(posix_trace_eventtypelist_rewind(trid), 0);
    ck_assert_int_eq(posix_trace_eventtypelist_getnext_id(trid, &id, &unav), 0);
    ck_assert_uint_eq(id, POSIX_TRACE_START);
    tu_shutdown(trid);
}
END_TEST

/* S0165: each stream has its own position in its list. */
START_TEST(test_list_per_stream_cursor)
{
    trace_id_t a = tu_stream_sim(), b = tu_stream_sim();
    trace_event_id_t id;
    int unav;
    ck_assert_int_eq(posix_trace_eventtypelist_getnext_id(a, &id, &unav), 0);
    ck_assert_int_eq(posix_trace_eventtypelist_getnext_id(a, &id, &unav), 0);
    ck_assert_uint_eq(id, POSIX_TRACE_STOP);
    ck_assert_int_eq(posix_trace_eventtypelist_getnext_id(b, &id, &unav), 0);
    ck_assert_uint_eq(id, POSIX_TRACE_START);
    ck_assert_int_eq(posix_trace_eventtypelist_getnext_id(a, &id, &unav), 0);
    ck_assert_uint_eq(id, POSIX_TRACE_FILTER);
    tu_shutdown(a);
    tu_shutdown(b);
}
END_TEST

/* S0171, S0170: both functions give EINVAL for an invalid trace id. */
START_TEST(test_typelist_einval)
{
    trace_id_t trid = tu_stream_sim();
    trace_event_id_t id;
    int unav;
    tu_shutdown(trid);
    ck_assert_int_eq(posix_trace_eventtypelist_getnext_id(trid, &id, &unav), EINVAL);
    ck_assert_int_eq(posix_trace_eventtypelist_rewind(trid), EINVAL);
    ck_assert_int_eq(posix_trace_eventtypelist_getnext_id(0, &id, &unav), EINVAL);
    ck_assert_int_eq(posix_trace_eventtypelist_rewind((trace_id_t)-1), EINVAL);
}
END_TEST

/* S0137, S0165: every id in the list has a name (get_name succeeds). */
START_TEST(test_list_ids_have_names)
{
    trace_id_t trid = tu_stream_sim();
    trace_event_id_t ids[LIST_MAX];
    int n;
    (void)tu_new_event("tl.named");
    n = read_list(trid, ids, LIST_MAX);
    for (int i = 0; i < n; i++) {
        char name[TRACE_EVENT_NAME_MAX + 1];
        int rc = posix_trace_eventid_get_name(trid, ids[i], name);
        ck_assert_msg(rc == 0, "get_name(%u): got %d", ids[i], rc);
        ck_assert_msg(name[0] != '\0', "empty name for %u", ids[i]);
    }
    tu_shutdown(trid);
}
END_TEST

/* S0170: NULL event or unavailable pointers give EINVAL (the reference
 * checks them; DESIGN does not list them), and do not move the position. */
START_TEST(test_typelist_null_args)
{
    trace_id_t trid = tu_stream_sim();
    trace_event_id_t id;
    int unav;
    ck_assert_int_eq(posix_trace_eventtypelist_getnext_id(trid, NULL, &unav), EINVAL);
    ck_assert_int_eq(posix_trace_eventtypelist_getnext_id(trid, &id, NULL), EINVAL);
    ck_assert_int_eq(posix_trace_eventtypelist_getnext_id(trid, &id, &unav), 0);
    ck_assert_uint_eq(id, POSIX_TRACE_START);
    tu_shutdown(trid);
}
END_TEST

Suite *suite_typelist(void)
{
    Suite *s = suite_create("typelist");
    TCase *tc = tu_tcase("typelist");
    tcase_add_test(tc, test_list_starts_with_system);
    tcase_add_test(tc, test_list_user_events);
    tcase_add_test(tc, test_list_end_stays);
    tcase_add_test(tc, test_rewind_after_end);
    tcase_add_test(tc, test_rewind_midway);
    tcase_add_test(tc, test_list_per_stream_cursor);
    tcase_add_test(tc, test_typelist_einval);
    tcase_add_test(tc, test_typelist_null_args);
    tcase_add_test(tc, test_list_ids_have_names);
    suite_add_tcase(s, tc);
    return s;
}
