/* SPDX-License-Identifier: MIT */
/*
 * eventset.c -- sets of trace event types: posix_trace_eventset_add(),
 * posix_trace_eventset_del(), posix_trace_eventset_empty(),
 * posix_trace_eventset_fill(), posix_trace_eventset_ismember()
 * (XSH posix_trace_eventset_add; option TEF).
 *
 * Portable: a set is opaque and only ever inspected with eventset_ismember(),
 * over the event types the test knows (ct_tef.h): the system event constants
 * of the supported options, the predefined user event and user event types
 * opened by the test.  Sets are initialised with eventset_empty() or
 * eventset_fill() before any other use (the application's duty, S0161); those
 * two are called on objects first filled with garbage bytes, since they are
 * what initialises an object.  Which system events POSIX_TRACE_WOPID_EVENTS
 * holds is implementation-defined: only that it holds no user event type,
 * and no type that POSIX_TRACE_SYSTEM_EVENTS lacks, is checked.  Whether a
 * user event type opened after eventset_fill(..., POSIX_TRACE_ALL_EVENTS) is
 * in the set is not specified and not checked.
 *
 * Exact checks (reference only): the EINVAL of add, del, empty and ismember
 * needs an invalid argument, and the only ones are a NULL pointer or an
 * uninitialised set, undefined behaviour portably.  Those tests run only
 * when the build says the implementation is the reference
 * (CT_EXACT_REFERENCE) and are UNTESTED otherwise.  eventset_fill's EINVAL
 * has a portable trigger, a what that is none of the three values: a "may
 * fail" error, so EINVAL or success is accepted (success ends UNSUPPORTED).
 *
 * Not tested here, and why:
 *   eventset.objects-only  filter.c: it needs a stream's filter.
 */
#include <stdio.h>
#include <string.h>
#include "ct.h"
#include "ct_stream.h"
#include "ct_tef.h"

#if CT_HAVE_TEF

/* A set object full of garbage bytes, as an uninitialised object may be. */
static void garbage(trace_event_set_t *s)
{
    memset(s, 0xA5, sizeof *s);
}

/* A mask of about half of the types: every other one from index start. */
static ct_mask alternate(const struct ct_universe *u, int start)
{
    ct_mask m = 0;
    for (int i = start; i < u->n; i += 2)
        m |= CT_BIT(i);
    return m;
}

#endif /* CT_HAVE_TEF */

/* ---- add, del ------------------------------------------------------------------------ */

CT_TEST(add_adds, "eventset_add.adds", "TRC,TEF",
        "posix_trace_eventset_add,posix_trace_eventset_ismember")
{
#if CT_HAVE_TEF
    require_tef();
    struct ct_universe u;
    trace_event_set_t s;
    ct_universe(&u, "ct.eventset.add", 6);
    ct_mask all = ct_u_all(&u);

    /* Into an empty set, one type at a time: that type joins, nothing else
     * changes. */
    garbage(&s);
    CT_SETUP_OK(posix_trace_eventset_empty(&s));
    ct_mask want = 0;
    for (int i = 0; i < u.n; i++) {
        CT_CHECK_OK(posix_trace_eventset_add(u.id[i], &s));
        want |= CT_BIT(i);
        char what[96];
        snprintf(what, sizeof what, "after eventset_add(%s), the set", u.name[i]);
        ct_expect_set(&u, &s, want, all, what);
    }

    /* Into sets holding every other type: the other members stay. */
    for (int start = 0; start < 2; start++) {
        ct_mask base = alternate(&u, start);
        for (int i = 0; i < u.n; i++) {
            if (base & CT_BIT(i))
                continue;
            char what[96];
            ct_set_of(&s, &u, base);
            CT_CHECK_OK(posix_trace_eventset_add(u.id[i], &s));
            snprintf(what, sizeof what, "a set of %d types after eventset_add(%s)",
                     __builtin_popcountll(base), u.name[i]);
            ct_expect_set(&u, &s, base | CT_BIT(i), all, what);
        }
    }
#else
    NO_TEF();
#endif
}

CT_TEST(del_deletes, "eventset_del.deletes", "TRC,TEF",
        "posix_trace_eventset_del,posix_trace_eventset_ismember,posix_trace_eventset_fill")
{
#if CT_HAVE_TEF
    require_tef();
    struct ct_universe u;
    trace_event_set_t s;
    ct_universe(&u, "ct.eventset.del", 6);
    ct_mask all = ct_u_all(&u);

    /* From a set of every type, one at a time. */
    ct_set_of(&s, &u, all);
    ct_mask want = all;
    for (int i = 0; i < u.n; i++) {
        char what[96];
        CT_CHECK_OK(posix_trace_eventset_del(u.id[i], &s));
        want &= ~CT_BIT(i);
        snprintf(what, sizeof what, "after eventset_del(%s), the set", u.name[i]);
        ct_expect_set(&u, &s, want, all, what);
    }

    /* From sets holding every other type: the other members stay. */
    for (int start = 0; start < 2; start++) {
        ct_mask base = alternate(&u, start);
        for (int i = 0; i < u.n; i++) {
            if (!(base & CT_BIT(i)))
                continue;
            char what[96];
            ct_set_of(&s, &u, base);
            CT_CHECK_OK(posix_trace_eventset_del(u.id[i], &s));
            snprintf(what, sizeof what, "a set of %d types after eventset_del(%s)",
                     __builtin_popcountll(base), u.name[i]);
            ct_expect_set(&u, &s, base & ~CT_BIT(i), all, what);
        }
    }

    /* From a set made by eventset_fill(ALL_EVENTS): a user type leaves it. */
    int k = ct_u_first_user(&u);
    garbage(&s);
    CT_SETUP_OK(posix_trace_eventset_fill(&s, POSIX_TRACE_ALL_EVENTS));
    CT_CHECK_OK(posix_trace_eventset_del(u.id[k], &s));
    ct_expect_set(&u, &s, all & ~CT_BIT(k), all,
                  "a set filled with POSIX_TRACE_ALL_EVENTS, after eventset_del of a user type,");
#else
    NO_TEF();
#endif
}

CT_TEST(add_already_member, "eventset_add.already-member", "TRC,TEF",
        "posix_trace_eventset_add,posix_trace_eventset_ismember")
{
#if CT_HAVE_TEF
    require_tef();
    struct ct_universe u;
    trace_event_set_t s;
    ct_universe(&u, "ct.eventset.again", 4);
    ct_mask all = ct_u_all(&u);
    for (int start = 0; start < 2; start++) {
        ct_mask base = alternate(&u, start);
        ct_set_of(&s, &u, base);
        for (int i = 0; i < u.n; i++) {
            if (!(base & CT_BIT(i)))
                continue;
            char what[128];
            for (int again = 1; again <= 2; again++) {
                int rc = posix_trace_eventset_add(u.id[i], &s);
                CT_CHECK(rc == 0, "eventset_add(%s) of a type already in the set returned %d"
                         " (%s): adding a member again is not an error", u.name[i], rc,
                         ct_errname(rc));
                snprintf(what, sizeof what, "after eventset_add(%s) of a member (%s),"
                         " the set", u.name[i], again == 1 ? "once more" : "a third time");
                ct_expect_set(&u, &s, base, all, what);
            }
        }
    }
#else
    NO_TEF();
#endif
}

CT_TEST(del_not_member, "eventset_del.not-member", "TRC,TEF",
        "posix_trace_eventset_del,posix_trace_eventset_ismember")
{
#if CT_HAVE_TEF
    require_tef();
    struct ct_universe u;
    trace_event_set_t s;
    ct_universe(&u, "ct.eventset.absent", 4);
    ct_mask all = ct_u_all(&u);
    for (int start = 0; start < 2; start++) {
        ct_mask base = alternate(&u, start);
        ct_set_of(&s, &u, base);
        for (int i = 0; i < u.n; i++) {
            if (base & CT_BIT(i))
                continue;
            char what[128];
            for (int again = 1; again <= 2; again++) {
                int rc = posix_trace_eventset_del(u.id[i], &s);
                CT_CHECK(rc == 0, "eventset_del(%s) of a type not in the set returned %d (%s):"
                         " deleting a non-member is not an error", u.name[i], rc,
                         ct_errname(rc));
                snprintf(what, sizeof what, "after eventset_del(%s) of a non-member (%s),"
                         " the set", u.name[i], again == 1 ? "once" : "a second time");
                ct_expect_set(&u, &s, base, all, what);
            }
        }
    }
    /* And from an empty set. */
    garbage(&s);
    CT_SETUP_OK(posix_trace_eventset_empty(&s));
    for (int i = 0; i < u.n; i++)
        CT_CHECK(posix_trace_eventset_del(u.id[i], &s) == 0, "eventset_del(%s) on an empty set"
                 " failed: deleting a non-member is not an error", u.name[i]);
    ct_expect_set(&u, &s, 0, all, "an empty set after eventset_del of every type");
#else
    NO_TEF();
#endif
}

/* ---- empty, fill ----------------------------------------------------------------------- */

CT_TEST(empty_excludes_all, "eventset_empty.excludes-all", "TRC,TEF",
        "posix_trace_eventset_empty,posix_trace_eventset_ismember")
{
#if CT_HAVE_TEF
    require_tef();
    struct ct_universe u;
    trace_event_set_t s;
    ct_universe(&u, "ct.eventset.empty", 4);
    ct_mask all = ct_u_all(&u);

    garbage(&s);
    CT_CHECK_OK(posix_trace_eventset_empty(&s));
    ct_expect_set(&u, &s, 0, all, "a set after eventset_empty on a fresh object");

    memset(&s, 0, sizeof s);
    CT_CHECK_OK(posix_trace_eventset_empty(&s));
    ct_expect_set(&u, &s, 0, all, "a set after eventset_empty on a zeroed object");

    /* Re-initialises a set that had members. */
    ct_set_of(&s, &u, all);
    CT_CHECK_OK(posix_trace_eventset_empty(&s));
    ct_expect_set(&u, &s, 0, all, "a set of every known type after eventset_empty");
    CT_SETUP_OK(posix_trace_eventset_fill(&s, POSIX_TRACE_ALL_EVENTS));
    CT_CHECK_OK(posix_trace_eventset_empty(&s));
    ct_expect_set(&u, &s, 0, all, "a set filled with POSIX_TRACE_ALL_EVENTS, after"
                  " eventset_empty,");

    /* A user type opened after the set was emptied is not in it either. */
    int late = ct_u_user(&u, "ct.eventset.empty.late");
    ct_expect_set(&u, &s, 0, CT_BIT(late), "an empty set, for a type opened afterwards,");
#else
    NO_TEF();
#endif
}

CT_TEST(fill_all_events, "eventset_fill.all-events", "TRC,TEF",
        "posix_trace_eventset_fill,posix_trace_eventset_ismember")
{
#if CT_HAVE_TEF
    require_tef();
    struct ct_universe u;
    trace_event_set_t s;
    ct_universe(&u, "ct.eventset.all", 6);
    /* A user type opened through a stream as well (trid_eventid_open). */
    trace_id_t trid = ct_new_stream(NULL, 0);
    trace_event_id_t tid;
    CT_SETUP_OK(posix_trace_trid_eventid_open(trid, "ct.eventset.all.trid", &tid));
    ct_u_add(&u, tid, CT_USER, "ct.eventset.all.trid");
    ct_mask all = ct_u_all(&u);

    garbage(&s);
    CT_CHECK_OK(posix_trace_eventset_fill(&s, POSIX_TRACE_ALL_EVENTS));
    ct_expect_set(&u, &s, all, all, "a set filled with POSIX_TRACE_ALL_EVENTS");

    /* Re-initialises a set that had other contents. */
    ct_set_of(&s, &u, 0);
    CT_CHECK_OK(posix_trace_eventset_fill(&s, POSIX_TRACE_ALL_EVENTS));
    ct_expect_set(&u, &s, all, all, "an empty set, filled with POSIX_TRACE_ALL_EVENTS,");
    CT_SETUP_OK(posix_trace_eventset_fill(&s, POSIX_TRACE_SYSTEM_EVENTS));
    CT_CHECK_OK(posix_trace_eventset_fill(&s, POSIX_TRACE_ALL_EVENTS));
    ct_expect_set(&u, &s, all, all, "a set of the system events, filled with"
                  " POSIX_TRACE_ALL_EVENTS,");
#else
    NO_TEF();
#endif
}

CT_TEST(fill_system_events, "eventset_fill.system-events", "TRC,TEF",
        "posix_trace_eventset_fill,posix_trace_eventset_ismember")
{
#if CT_HAVE_TEF
    require_tef();
    struct ct_universe u;
    trace_event_set_t s;
    ct_universe(&u, "ct.eventset.system", 6);
    ct_mask sys = ct_u_kind(&u, CT_SYSTEM), user = ct_u_kind(&u, CT_USER);

    garbage(&s);
    CT_CHECK_OK(posix_trace_eventset_fill(&s, POSIX_TRACE_SYSTEM_EVENTS));
    ct_expect_set(&u, &s, sys, sys | user, "a set filled with POSIX_TRACE_SYSTEM_EVENTS");

    /* Re-initialises a set that held every type: the user types leave. */
    CT_SETUP_OK(posix_trace_eventset_fill(&s, POSIX_TRACE_ALL_EVENTS));
    CT_CHECK_OK(posix_trace_eventset_fill(&s, POSIX_TRACE_SYSTEM_EVENTS));
    ct_expect_set(&u, &s, sys, sys | user, "a set of every type, filled with"
                  " POSIX_TRACE_SYSTEM_EVENTS,");
    int unnamed = 0;
    CT_SETUP_OK(posix_trace_eventset_ismember(CT_UNNAMED, &s, &unnamed));
    ct_note("POSIX_TRACE_UNNAMED_USEREVENT is %sin the POSIX_TRACE_SYSTEM_EVENTS set",
            unnamed ? "" : "not ");
#else
    NO_TEF();
#endif
}

CT_TEST(fill_wopid_events, "eventset_fill.wopid-events", "TRC,TEF",
        "posix_trace_eventset_fill,posix_trace_eventset_ismember")
{
#if CT_HAVE_TEF
    require_tef();
    struct ct_universe u;
    trace_event_set_t w, sys;
    ct_universe(&u, "ct.eventset.wopid", 6);
    ct_mask user = ct_u_kind(&u, CT_USER);

    garbage(&w);
    CT_CHECK_OK(posix_trace_eventset_fill(&w, POSIX_TRACE_WOPID_EVENTS));
    ct_expect_set(&u, &w, 0, user, "a set filled with POSIX_TRACE_WOPID_EVENTS");

    /* Re-initialises a set that held every type. */
    CT_SETUP_OK(posix_trace_eventset_fill(&w, POSIX_TRACE_ALL_EVENTS));
    CT_CHECK_OK(posix_trace_eventset_fill(&w, POSIX_TRACE_WOPID_EVENTS));
    ct_expect_set(&u, &w, 0, user, "a set of every type, filled with"
                  " POSIX_TRACE_WOPID_EVENTS,");

    /* Its members are system events: each is in the SYSTEM_EVENTS set. */
    ct_mask wm = ct_members(&u, &w);
    CT_SETUP_OK(posix_trace_eventset_fill(&sys, POSIX_TRACE_SYSTEM_EVENTS));
    ct_mask sm = ct_members(&u, &sys);
    CT_CHECK((wm & ~sm & ~ct_u_kind(&u, CT_UNNAMED_USER)) == 0,
             "POSIX_TRACE_WOPID_EVENTS holds %s, which POSIX_TRACE_SYSTEM_EVENTS lacks: the"
             " process-independent events are system events", ct_names(&u, wm & ~sm));
    ct_note("the POSIX_TRACE_WOPID_EVENTS set holds %s of the POSIX system events",
            ct_names(&u, wm & ct_u_kind(&u, CT_SYSTEM)));
#else
    NO_TEF();
#endif
}

/* ---- ismember ------------------------------------------------------------------------------ */

CT_TEST(ismember_tests, "eventset_ismember.tests", "TRC,TEF",
        "posix_trace_eventset_ismember,posix_trace_eventset_add")
{
#if CT_HAVE_TEF
    require_tef();
    struct ct_universe u;
    trace_event_set_t s;
    ct_universe(&u, "ct.eventset.ismember", 4);
    ct_mask in = alternate(&u, 1);
    ct_set_of(&s, &u, in);
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < u.n; i++) {
            int member = (in & CT_BIT(i)) != 0;
            /* A result object holding the wrong answer beforehand. */
            int r = member ? 0 : (pass ? -1 : 1);
            int rc = posix_trace_eventset_ismember(u.id[i], &s, &r);
            CT_CHECK(rc == 0, "eventset_ismember(%s) returned %d (%s), expected 0", u.name[i],
                     rc, ct_errname(rc));
            if (member)
                CT_CHECK(r != 0, "eventset_ismember(%s), a member of the set, stored 0:"
                         " expected a non-zero value", u.name[i]);
            else
                CT_CHECK(r == 0, "eventset_ismember(%s), not a member of the set, stored %d:"
                         " expected 0", u.name[i], r);
        }
        in = ct_u_all(&u) & ~in;        /* the complement, the second time */
        ct_set_of(&s, &u, in);
    }
#else
    NO_TEF();
#endif
}

/* ---- the return convention and EINVAL ------------------------------------------------------ */

CT_TEST(return_convention, "eventset_add.return-convention", "TRC,TEF",
        "posix_trace_eventset_add,posix_trace_eventset_del,posix_trace_eventset_empty,"
        "posix_trace_eventset_fill,posix_trace_eventset_ismember")
{
#if CT_HAVE_TEF
    require_tef();
    trace_event_set_t s;
    trace_event_id_t id = ct_open_id("ct.eventset.convention");
    int r = 0, rc;

    /* Success: 0 (not a count, not a pointer-like value; errno is shown). */
    CT_SUCCEEDS(posix_trace_eventset_empty(&s));
    CT_SUCCEEDS(posix_trace_eventset_fill(&s, POSIX_TRACE_WOPID_EVENTS));
    CT_SUCCEEDS(posix_trace_eventset_fill(&s, POSIX_TRACE_SYSTEM_EVENTS));
    CT_SUCCEEDS(posix_trace_eventset_fill(&s, POSIX_TRACE_ALL_EVENTS));
    CT_SUCCEEDS(posix_trace_eventset_del(id, &s));
    CT_SUCCEEDS(posix_trace_eventset_ismember(id, &s, &r));
    CT_CHECK(r == 0, "eventset_ismember after eventset_del stored %d", r);
    CT_SUCCEEDS(posix_trace_eventset_add(id, &s));
    CT_SUCCEEDS(posix_trace_eventset_ismember(id, &s, &r));
    CT_CHECK(r != 0, "eventset_ismember after eventset_add stored 0");

    /* Failure: the error number itself (EINVAL), never -1 with errno. */
#if CT_EXACT_REFERENCE
    errno = 0;
    rc = posix_trace_eventset_add(id, NULL);
    CT_CHECK(rc == EINVAL, "eventset_add(id, NULL) returned %d (%s), errno %s: expected the"
             " error number EINVAL itself", rc, ct_errname(rc), ct_errname(errno));
    errno = 0;
    rc = posix_trace_eventset_del(id, NULL);
    CT_CHECK(rc == EINVAL, "eventset_del(id, NULL) returned %d (%s), errno %s: expected the"
             " error number EINVAL itself", rc, ct_errname(rc), ct_errname(errno));
    errno = 0;
    rc = posix_trace_eventset_empty(NULL);
    CT_CHECK(rc == EINVAL, "eventset_empty(NULL) returned %d (%s), errno %s: expected the"
             " error number EINVAL itself", rc, ct_errname(rc), ct_errname(errno));
    errno = 0;
    rc = posix_trace_eventset_ismember(id, NULL, &r);
    CT_CHECK(rc == EINVAL, "eventset_ismember(id, NULL, &r) returned %d (%s), errno %s:"
             " expected the error number EINVAL itself", rc, ct_errname(rc),
             ct_errname(errno));
#endif
    errno = 0;
    rc = posix_trace_eventset_fill(&s, ct_invalid_what());
    CT_CHECK(rc == 0 || rc == EINVAL, "eventset_fill(what = %d, none of WOPID_EVENTS,"
             " SYSTEM_EVENTS, ALL_EVENTS) returned %d (%s), errno %s: expected 0 or the error"
             " number EINVAL", ct_invalid_what(), rc, ct_errname(rc), ct_errname(errno));
    if (rc == 0 && !CT_EXACT_REFERENCE)
        ct_note("eventset_fill accepted a what that is none of the three values: the failure"
                " half of the convention is not exercised");
#else
    NO_TEF();
#endif
}

CT_TEST(add_einval, "eventset_add.EINVAL", "TRC,TEF", "posix_trace_eventset_add")
{
#if CT_HAVE_TEF
    require_tef();
    CT_REFERENCE_ONLY();
    CT_CHECK_ERR(posix_trace_eventset_add(ct_open_id("ct.eventset.einval"), NULL), EINVAL);
#else
    NO_TEF();
#endif
}

CT_TEST(del_einval, "eventset_del.EINVAL", "TRC,TEF", "posix_trace_eventset_del")
{
#if CT_HAVE_TEF
    require_tef();
    CT_REFERENCE_ONLY();
    CT_CHECK_ERR(posix_trace_eventset_del(ct_open_id("ct.eventset.einval"), NULL), EINVAL);
#else
    NO_TEF();
#endif
}

CT_TEST(empty_einval, "eventset_empty.EINVAL", "TRC,TEF", "posix_trace_eventset_empty")
{
#if CT_HAVE_TEF
    require_tef();
    CT_REFERENCE_ONLY();
    CT_CHECK_ERR(posix_trace_eventset_empty(NULL), EINVAL);
#else
    NO_TEF();
#endif
}

CT_TEST(ismember_einval, "eventset_ismember.EINVAL", "TRC,TEF",
        "posix_trace_eventset_ismember")
{
#if CT_HAVE_TEF
    require_tef();
    CT_REFERENCE_ONLY();
    trace_event_set_t s;
    int r;
    CT_SETUP_OK(posix_trace_eventset_empty(&s));
    CT_CHECK_ERR(posix_trace_eventset_ismember(POSIX_TRACE_START, NULL, &r), EINVAL);
    CT_CHECK_ERR(posix_trace_eventset_ismember(POSIX_TRACE_START, &s, NULL), EINVAL);
#else
    NO_TEF();
#endif
}

CT_TEST(fill_einval, "eventset_fill.EINVAL", "TRC,TEF", "posix_trace_eventset_fill")
{
#if CT_HAVE_TEF
    require_tef();
    trace_event_set_t s;
    CT_SETUP_OK(posix_trace_eventset_empty(&s));
#if CT_EXACT_REFERENCE
    CT_CHECK_ERR(posix_trace_eventset_fill(NULL, POSIX_TRACE_ALL_EVENTS), EINVAL);
    CT_CHECK_ERR(posix_trace_eventset_fill(&s, ct_invalid_what()), EINVAL);
#endif
    /* Portable: a what that is none of the three values. */
    CT_CHECK_MAY_ERR(posix_trace_eventset_fill(&s, ct_invalid_what()), EINVAL);
#else
    NO_TEF();
#endif
}

/* ---- every identifier a process can have --------------------------------------------- */

#define EVERY_MAX 512

CT_TEST(every_id, "eventset_add.adds,eventset_del.deletes", "TRC,TEF",
        "posix_trace_eventset_add,posix_trace_eventset_del,posix_trace_eventset_ismember,"
        "posix_trace_eventset_empty,posix_trace_eventset_fill,posix_trace_eventid_open")
{
#if CT_HAVE_TEF
    require_tef();
    /* Not a few types but every one: as many user event names as the
     * process may open ({TRACE_USER_EVENT_MAX}, at most EVERY_MAX here),
     * whatever their identifiers are, each added alone to an empty set and
     * taken alone from a full one: only that type changes. */
    long max = ct_limit_trace_user_event_max();
    int n = (int)(max > 0 && max < EVERY_MAX ? max : (max > 0 ? EVERY_MAX : CT_MIN_TRACE_USER_EVENT_MAX));
    static trace_event_id_t id[EVERY_MAX];
    trace_id_t trid = ct_new_stream(NULL, 0);       /* for eventid_equal */
    int have = 0;
    for (int i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "ct.every.%d", i);
        if (posix_trace_eventid_open(name, &id[have]) != 0 ||
            posix_trace_eventid_equal(trid, id[have], CT_UNNAMED))
            break;                      /* past the limit: the unnamed type */
        have++;
    }
    CT_SETUP_OK(posix_trace_shutdown(trid));
    if (have < 2)
        CT_UNRESOLVED("only %d user event types could be opened", have);
    trace_event_set_t s;
    int bad_add = -1, bad_del = -1, other = -1;
    CT_RULE("eventset_add.adds");
    for (int i = 0; i < have && bad_add < 0 && other < 0; i++) {
        int m = 0;
        CT_SETUP_OK(posix_trace_eventset_empty(&s));
        CT_CHECK_OK(posix_trace_eventset_add(id[i], &s));
        CT_SETUP_OK(posix_trace_eventset_ismember(id[i], &s, &m));
        if (!m)
            bad_add = i;
        for (int k = 0; k < have && other < 0; k++) {
            if (k == i)
                continue;
            CT_SETUP_OK(posix_trace_eventset_ismember(id[k], &s, &m));
            if (m)
                other = k;
        }
    }
    CT_CHECK(bad_add < 0 && other < 0, "of %d user event types, the one opened as number %d"
             " is %s after eventset_add of the one opened as number %d into an empty set",
             have, bad_add >= 0 ? bad_add + 1 : other + 1, bad_add >= 0 ? "not a member" :
             "a member", bad_add >= 0 ? bad_add + 1 : 0);
    other = -1;
    CT_RULE("eventset_del.deletes");
    for (int i = 0; i < have && bad_del < 0 && other < 0; i++) {
        int m = 1;
        CT_SETUP_OK(posix_trace_eventset_fill(&s, POSIX_TRACE_ALL_EVENTS));
        CT_CHECK_OK(posix_trace_eventset_del(id[i], &s));
        CT_SETUP_OK(posix_trace_eventset_ismember(id[i], &s, &m));
        if (m)
            bad_del = i;
        for (int k = 0; k < have && other < 0; k++) {
            if (k == i)
                continue;
            CT_SETUP_OK(posix_trace_eventset_ismember(id[k], &s, &m));
            if (!m)
                other = k;
        }
    }
    CT_CHECK(bad_del < 0 && other < 0, "of %d user event types, the one opened as number %d"
             " is %s after eventset_del of that type from a set of all events", have,
             bad_del >= 0 ? bad_del + 1 : other + 1,
             bad_del >= 0 ? "still a member" : "no longer a member (another type's del)");
#else
    NO_TEF();
#endif
}
