/* SPDX-License-Identifier: MIT */
/*
 * eventtypelist.c -- posix_trace_eventtypelist_getnext_id() and
 * posix_trace_eventtypelist_rewind(): the walk over a stream's event types
 * (XSH posix_trace_eventtypelist_getnext_id; XSH 2.11 and XBD 4.19 on what a
 * stream's mapping holds).
 *
 * Portable: the order of the list is not assumed (identifiers are looked up
 * with posix_trace_eventid_equal), nor which extra system events an
 * implementation lists; the list is only required to hold the system events
 * of the supported options and every user name the process opened, each once.
 *
 * Not tested here, and why:
 *   the list of a pre-recorded stream (TRL): with the log tests.
 */
#include <stdio.h>
#include <string.h>
#include "ct.h"
#include "ct_stream.h"

#define MAXIDS 4096     /* far more than any list a test here can produce */

/* Walks the list from where it stands to its end: the identifiers into ids,
 * their number returned.  Every call must return 0 and set unavailable. */
static int walk(trace_id_t trid, trace_event_id_t *ids)
{
    for (int n = 0; n < MAXIDS; n++) {
        int unavailable = 12345;
        int rc = posix_trace_eventtypelist_getnext_id(trid, &ids[n], &unavailable);
        CT_CHECK(rc == 0, "eventtypelist_getnext_id call %d returned %s, expected 0", n + 1,
                 ct_errname(rc));
        CT_CHECK(unavailable != 12345, "eventtypelist_getnext_id call %d returned 0 without"
                 " setting *unavailable", n + 1);
        if (unavailable)
            return n;
    }
    CT_FAIL("eventtypelist_getnext_id returned %d identifiers without reaching the end of"
            " the list", MAXIDS);
}

static int index_of(trace_id_t trid, const trace_event_id_t *ids, int n, trace_event_id_t id)
{
    for (int i = 0; i < n; i++)
        if (posix_trace_eventid_equal(trid, ids[i], id))
            return i;
    return -1;
}

/* The predefined system events of the supported options (XSH 2.11.2). */
static int system_events(trace_event_id_t *ids, const char **names)
{
    int n = 0;
#define SYS(c, s) (ids[n] = (c), names[n++] = (s))
#if CT_HAVE_POSIX_TRACE_ERROR
    SYS(POSIX_TRACE_ERROR, "POSIX_TRACE_ERROR");
#else
    ct_note("%s", CT_NO_POSIX_TRACE_ERROR_NOTE);
#endif
    SYS(POSIX_TRACE_START, "POSIX_TRACE_START");
    SYS(POSIX_TRACE_STOP, "POSIX_TRACE_STOP");
    SYS(POSIX_TRACE_OVERFLOW, "POSIX_TRACE_OVERFLOW");
    SYS(POSIX_TRACE_RESUME, "POSIX_TRACE_RESUME");
#if CT_HAVE_TEF
    if (ct_option("TEF"))
        SYS(POSIX_TRACE_FILTER, "POSIX_TRACE_FILTER");
#endif
#if CT_HAVE_TRL
    if (ct_option("TRL")) {
        SYS(POSIX_TRACE_FLUSH_START, "POSIX_TRACE_FLUSH_START");
        SYS(POSIX_TRACE_FLUSH_STOP, "POSIX_TRACE_FLUSH_STOP");
    }
#endif
#undef SYS
    return n;
}

CT_TEST(first, "eventtypelist_getnext_id.first", "TRC",
        "posix_trace_eventtypelist_getnext_id")
{
    trace_id_t trid = ct_new_stream(NULL, 0);
    trace_event_id_t id;
    char name[CT_EVENT_NAME_BUF];
    int unavailable = 12345;
    CT_CHECK_OK(posix_trace_eventtypelist_getnext_id(trid, &id, &unavailable));
    CT_CHECK(unavailable == 0, "the first eventtypelist_getnext_id on a new stream set"
             " *unavailable to %d, expected 0 (a stream lists at least its system events)",
             unavailable);
    int rc = posix_trace_eventid_get_name(trid, id, name);
    CT_CHECK(rc == 0, "the first identifier of the list, %s, is unknown to the stream:"
             " eventid_get_name returned %s", CT_HEX(id), ct_errname(rc));
}

CT_TEST(walks_list, "eventtypelist_getnext_id.walks-list", "TRC",
        "posix_trace_eventtypelist_getnext_id")
{
    static trace_event_id_t ids[MAXIDS];
    trace_event_id_t sys[8], user[3];
    const char *sysname[8];
    user[0] = ct_open_id("ct.list.a");
    user[1] = ct_open_id("ct.list.b");
    trace_id_t trid = ct_new_stream(NULL, 0);
    user[2] = ct_open_id("ct.list.after-create");
    int nsys = system_events(sys, sysname);

    int n = walk(trid, ids);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            CT_CHECK(!posix_trace_eventid_equal(trid, ids[i], ids[j]),
                     "identifier %s is listed twice (places %d and %d of %d)", CT_HEX(ids[i]),
                     i + 1, j + 1, n);
    for (int k = 0; k < nsys; k++)
        CT_CHECK(index_of(trid, ids, n, sys[k]) >= 0,
                 "%s is missing from the stream's event type list (%d identifiers)",
                 sysname[k], n);
    for (int k = 0; k < 3; k++)
        CT_CHECK(index_of(trid, ids, n, user[k]) >= 0,
                 "the user event %s is missing from the stream's event type list"
                 " (%d identifiers)", k == 0 ? "ct.list.a" : k == 1 ? "ct.list.b"
                                                                   : "ct.list.after-create",
                 n);
}

CT_TEST(unavailable_zero, "eventtypelist_getnext_id.unavailable-zero", "TRC",
        "posix_trace_eventtypelist_getnext_id")
{
    trace_event_id_t sys[8], id;
    const char *sysname[8];
    ct_open_id("ct.zero.a");
    ct_open_id("ct.zero.b");
    trace_id_t trid = ct_new_stream(NULL, 0);
    int known = system_events(sys, sysname) + 2;

    /* At least the known identifiers come back, each with *unavailable 0. */
    for (int i = 0; i < known; i++) {
        int unavailable = 12345;
        CT_CHECK_OK(posix_trace_eventtypelist_getnext_id(trid, &id, &unavailable));
        CT_CHECK(unavailable == 0,
                 "call %d of eventtypelist_getnext_id set *unavailable to %d, expected 0: the"
                 " list holds at least %d identifiers (the system events and 2 user names)",
                 i + 1, unavailable, known);
    }
}

CT_TEST(unavailable_end, "eventtypelist_getnext_id.unavailable-end", "TRC",
        "posix_trace_eventtypelist_getnext_id")
{
    static trace_event_id_t ids[MAXIDS];
    trace_id_t trid = ct_new_stream(NULL, 0);
    trace_event_id_t id;
    int n = walk(trid, ids);
    CT_CHECK(n > 0, "the list is empty");
    for (int k = 0; k < 2; k++) {
        int unavailable = 0;
        CT_CHECK_OK(posix_trace_eventtypelist_getnext_id(trid, &id, &unavailable));
        CT_CHECK(unavailable != 0,
                 "after the end of the list (%d identifiers), call %d past it set"
                 " *unavailable to 0", n, k + 1);
    }
}

CT_TEST(rewind_resets, "eventtypelist_rewind.resets", "TRC",
        "posix_trace_eventtypelist_rewind,posix_trace_eventtypelist_getnext_id")
{
    static trace_event_id_t a[MAXIDS], b[MAXIDS];
    ct_open_id("ct.rewind");
    trace_id_t trid = ct_new_stream(NULL, 0);
    int na = walk(trid, a);
    if (na < 2)
        CT_UNRESOLVED("the event type list holds %d identifier(s): too few to rewind in"
                      " its middle", na);

    CT_CHECK_OK(posix_trace_eventtypelist_rewind(trid));
    int nb = walk(trid, b);
    CT_CHECK(nb == na, "after rewind the walk gave %d identifiers, the first walk %d", nb, na);
    CT_CHECK(posix_trace_eventid_equal(trid, a[0], b[0]),
             "after rewind the first identifier is %s, the first walk began with %s",
             CT_HEX(b[0]), CT_HEX(a[0]));
    for (int i = 0; i < nb; i++)
        CT_CHECK(index_of(trid, a, na, b[i]) >= 0,
                 "after rewind the walk gave %s (place %d), which the first walk did not",
                 CT_HEX(b[i]), i + 1);

    /* A rewind in the middle of the list. */
    int unavailable;
    trace_event_id_t id;
    CT_SETUP_OK(posix_trace_eventtypelist_getnext_id(trid, &id, &unavailable));
    CT_SETUP_OK(posix_trace_eventtypelist_getnext_id(trid, &id, &unavailable));
    CT_CHECK_OK(posix_trace_eventtypelist_rewind(trid));
    unavailable = 12345;
    CT_CHECK_OK(posix_trace_eventtypelist_getnext_id(trid, &id, &unavailable));
    CT_CHECK(unavailable == 0 && posix_trace_eventid_equal(trid, id, a[0]),
             "after two identifiers and a rewind, the next is %s (unavailable %d); expected"
             " the first, %s", CT_HEX(id), unavailable, CT_HEX(a[0]));
}

CT_TEST(return_convention, "eventtypelist_getnext_id.return-convention", "TRC",
        "posix_trace_eventtypelist_getnext_id,posix_trace_eventtypelist_rewind")
{
    trace_event_id_t id;
    int unavailable, rc;
    trace_id_t live = ct_new_stream(NULL, 0);
    errno = 0;
    rc = posix_trace_eventtypelist_getnext_id(live, &id, &unavailable);
    CT_CHECK(rc == 0, "a successful eventtypelist_getnext_id returned %d (%s), errno %s",
             rc, ct_errname(rc), ct_errname(errno));
    errno = 0;
    rc = posix_trace_eventtypelist_rewind(live);
    CT_CHECK(rc == 0, "a successful eventtypelist_rewind returned %d (%s), errno %s", rc,
             ct_errname(rc), ct_errname(errno));
    trace_id_t dead = ct_dead_stream();
    errno = 0;
    rc = posix_trace_eventtypelist_getnext_id(dead, &id, &unavailable);
    CT_CHECK(rc == EINVAL, "eventtypelist_getnext_id on a shut-down trid returned %d (%s),"
             " errno %s: expected the error number EINVAL itself", rc, ct_errname(rc),
             ct_errname(errno));
    errno = 0;
    rc = posix_trace_eventtypelist_rewind(dead);
    CT_CHECK(rc == EINVAL, "eventtypelist_rewind on a shut-down trid returned %d (%s),"
             " errno %s: expected the error number EINVAL itself", rc, ct_errname(rc),
             ct_errname(errno));
}

CT_TEST(getnext_id_einval, "eventtypelist_getnext_id.EINVAL", "TRC",
        "posix_trace_eventtypelist_getnext_id")
{
    trace_event_id_t id;
    int unavailable;
    trace_id_t dead = ct_dead_stream();
    CT_CHECK_ERR(posix_trace_eventtypelist_getnext_id(dead, &id, &unavailable), EINVAL);
}

CT_TEST(rewind_einval, "eventtypelist_rewind.EINVAL", "TRC",
        "posix_trace_eventtypelist_rewind")
{
    trace_id_t dead = ct_dead_stream();
    CT_CHECK_ERR(posix_trace_eventtypelist_rewind(dead), EINVAL);
}

CT_TEST(stream_mapping, "xsh211.stream-mapping", "TRC",
        "posix_trace_eventtypelist_getnext_id,posix_trace_eventid_get_name,"
        "posix_trace_eventid_open")
{
    static trace_event_id_t ids[MAXIDS];
    trace_event_id_t sys[8], user[2];
    const char *sysname[8], *username[2] = { "ct.mapping.before", "ct.mapping.later" };
    char name[CT_EVENT_NAME_BUF];
    user[0] = ct_open_id(username[0]);
    trace_id_t trid = ct_new_stream(NULL, 0);
    int nsys = system_events(sys, sysname);
    int n = walk(trid, ids);
    for (int k = 0; k < nsys; k++)
        CT_CHECK(index_of(trid, ids, n, sys[k]) >= 0,
                 "the predefined system event %s is not in the stream's mapping (event type"
                 " list of %d)", sysname[k], n);

    /* A name opened while the stream exists joins its mapping. */
    user[1] = ct_open_id(username[1]);
    CT_SETUP_OK(posix_trace_eventtypelist_rewind(trid));
    n = walk(trid, ids);
    for (int k = 0; k < 2; k++) {
        CT_CHECK(index_of(trid, ids, n, user[k]) >= 0,
                 "the user name \"%s\", opened %s the stream was created, is not in its event"
                 " type list", username[k], k == 0 ? "before" : "after");
        CT_CHECK_OK(posix_trace_eventid_get_name(trid, user[k], name));
        CT_CHECK(strcmp(name, username[k]) == 0,
                 "the stream maps the id of \"%s\" to the name \"%.60s\"", username[k], name);
    }
}
