/* SPDX-License-Identifier: MIT */
/*
 * ct_tef.c -- the helpers of ct_tef.h (what each does is said there),
 * compiled once into the tests' helper library (build/harness/obj/libct.a).
 * Only with TEF at compile time (CT_HAVE_TEF): without it the object is
 * empty and the tests of the option end UNSUPPORTED (NO_TEF()).
 */
#include "../ct_tef.h"

#if CT_HAVE_TEF

void require_tef(void)
{
    if (!ct_option("TEF"))
        CT_UNSUPPORTED("TEF is not supported at run time");
}

int ct_u_add(struct ct_universe *u, trace_event_id_t id, enum ct_kind kind,
             const char *name)
{
    if (u->n == CT_U_MAX)
        CT_UNRESOLVED("more than %d event types in the test's universe", CT_U_MAX);
    u->id[u->n] = id;
    u->kind[u->n] = kind;
    snprintf(u->name[u->n], sizeof u->name[0], "%s", name);
    return u->n++;
}

int ct_u_user(struct ct_universe *u, const char *name)
{
    return ct_u_add(u, ct_open_id(name), CT_USER, name);
}

void ct_universe(struct ct_universe *u, const char *prefix, int nusers)
{
    char name[48];
    u->n = 0;
#if CT_HAVE_POSIX_TRACE_ERROR
    ct_u_add(u, POSIX_TRACE_ERROR, CT_SYSTEM, "POSIX_TRACE_ERROR");
#else
    ct_note("%s", CT_NO_POSIX_TRACE_ERROR_NOTE);
#endif
    ct_u_add(u, POSIX_TRACE_START, CT_SYSTEM, "POSIX_TRACE_START");
    ct_u_add(u, POSIX_TRACE_STOP, CT_SYSTEM, "POSIX_TRACE_STOP");
    ct_u_add(u, POSIX_TRACE_FILTER, CT_SYSTEM, "POSIX_TRACE_FILTER");
    ct_u_add(u, POSIX_TRACE_OVERFLOW, CT_SYSTEM, "POSIX_TRACE_OVERFLOW");
    ct_u_add(u, POSIX_TRACE_RESUME, CT_SYSTEM, "POSIX_TRACE_RESUME");
#if CT_HAVE_TRL
    if (ct_option("TRL")) {
        ct_u_add(u, POSIX_TRACE_FLUSH_START, CT_SYSTEM, "POSIX_TRACE_FLUSH_START");
        ct_u_add(u, POSIX_TRACE_FLUSH_STOP, CT_SYSTEM, "POSIX_TRACE_FLUSH_STOP");
    }
#endif
    ct_u_add(u, CT_UNNAMED, CT_UNNAMED_USER, "POSIX_TRACE_UNNAMED_USEREVENT");
    for (int i = 0; i < nusers; i++) {
        snprintf(name, sizeof name, "%s.%d", prefix, i);
        ct_u_user(u, name);
    }
}

int ct_u_first_user(const struct ct_universe *u)
{
    for (int i = 0; i < u->n; i++)
        if (u->kind[i] == CT_USER)
            return i;
    CT_UNRESOLVED("the test's universe has no user event type");
}

ct_mask ct_u_kind(const struct ct_universe *u, enum ct_kind kind)
{
    ct_mask m = 0;
    for (int i = 0; i < u->n; i++)
        if (u->kind[i] == kind)
            m |= CT_BIT(i);
    return m;
}

ct_mask ct_u_all(const struct ct_universe *u)
{
    return u->n == 64 ? ~0ULL : CT_BIT(u->n) - 1;
}

const char *ct_names(const struct ct_universe *u, ct_mask m)
{
    static char bufs[4][1024];
    static unsigned next;
    char *b = bufs[next++ % 4];
    size_t len = 0;
    b[len++] = '{';
    b[len] = '\0';
    for (int i = 0; i < u->n; i++) {
        if (!(m & CT_BIT(i)))
            continue;
        int w = snprintf(b + len, sizeof bufs[0] - len, "%s%s", len > 1 ? ", " : "",
                         u->name[i]);
        if (w < 0 || (size_t)w >= sizeof bufs[0] - len - 2)
            break;
        len += (size_t)w;
    }
    snprintf(b + len, sizeof bufs[0] - len, "}");
    return b;
}

ct_mask ct_members(const struct ct_universe *u, const trace_event_set_t *s)
{
    ct_mask m = 0;
    for (int i = 0; i < u->n; i++) {
        int is = -12345;
        int rc = posix_trace_eventset_ismember(u->id[i], s, &is);
        CT_CHECK(rc == 0, "posix_trace_eventset_ismember(%s) on a valid set returned %d (%s),"
                 " expected 0", u->name[i], rc, ct_errname(rc));
        CT_CHECK(is != -12345, "posix_trace_eventset_ismember(%s) returned 0 but stored"
                 " nothing", u->name[i]);
        if (is)
            m |= CT_BIT(i);
    }
    return m;
}

void ct_set_of(trace_event_set_t *s, const struct ct_universe *u, ct_mask m)
{
    CT_SETUP_OK(posix_trace_eventset_empty(s));
    for (int i = 0; i < u->n; i++)
        if (m & CT_BIT(i))
            CT_SETUP_OK(posix_trace_eventset_add(u->id[i], s));
}

void ct_expect_set(const struct ct_universe *u, const trace_event_set_t *s,
                   ct_mask want, ct_mask care, const char *what)
{
    ct_mask got = ct_members(u, s) & care;
    want &= care;
    CT_CHECK(got == want, "%s holds %s, expected %s: missing %s, extra %s", what,
             ct_names(u, got), ct_names(u, want), ct_names(u, want & ~got),
             ct_names(u, got & ~want));
}

ct_mask ct_filter_of(const struct ct_universe *u, trace_id_t trid)
{
    trace_event_set_t s;
    int rc = posix_trace_get_filter(trid, &s);
    CT_CHECK(rc == 0, "posix_trace_get_filter on an active stream returned %d (%s), expected"
             " 0", rc, ct_errname(rc));
    return ct_members(u, &s);
}

void ct_filter(trace_id_t trid, const struct ct_universe *u, ct_mask m, int how)
{
    trace_event_set_t s;
    ct_set_of(&s, u, m);
    CT_SETUP_OK(posix_trace_set_filter(trid, &s, how));
}

int ct_invalid_what(void)
{
    int v = 0x5a5a;
    while (v == POSIX_TRACE_WOPID_EVENTS || v == POSIX_TRACE_SYSTEM_EVENTS ||
           v == POSIX_TRACE_ALL_EVENTS)
        v++;
    return v;
}

trace_id_t ct_tef_stream(int start)
{
    trace_attr_t a;
    trace_id_t trid;
    size_t ev = 0, se = 0;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    if (posix_trace_attr_getmaxusereventsize(&a, sizeof(unsigned), &ev) == 0 &&
        posix_trace_attr_getmaxsystemeventsize(&a, &se) == 0 && ev > 0 &&
        posix_trace_attr_setstreamsize(&a, 64 * ev + 16 * se) != 0)
        ct_note("stream-min-size could not be set: the default is used");
    CT_SETUP_OK(posix_trace_create(0, &a, &trid));
    posix_trace_attr_destroy(&a);
    if (start)
        CT_SETUP_OK(posix_trace_start(trid));
    return trid;
}

void ct_no_loss(trace_id_t trid)
{
    struct posix_trace_status_info st;
    CT_SETUP_OK(posix_trace_get_status(trid, &st));
    if (st.posix_stream_full_status == POSIX_TRACE_FULL ||
        st.posix_stream_overrun_status == POSIX_TRACE_OVERRUN)
        CT_UNRESOLVED("the stream became full or lost events: what it holds cannot be judged");
}

size_t ct_drain_sev(trace_id_t trid, struct ct_rec *v, size_t max)
{
    size_t n = 0;
    struct ct_rec e;
    while (ct_next_event(trid, &e)) {
        if (n == max)
            CT_UNRESOLVED("the stream holds more than the %zu events the test expects at most",
                          max);
        v[n++] = e;
    }
    return n;
}

trace_event_set_t ct_set_in(const struct ct_rec *e, int k)
{
    trace_event_set_t s;
    memcpy(&s, e->data + (size_t)k * sizeof s, sizeof s);
    return s;
}

int ct_is_seq(trace_id_t trid, const struct ct_rec *e, trace_event_id_t id,
              unsigned seq)
{
    unsigned got;
    if (!posix_trace_eventid_equal(trid, e->info.posix_event_id, id) || e->len != sizeof got)
        return 0;
    memcpy(&got, e->data, sizeof got);
    return got == seq;
}

int ct_count_seq(trace_id_t trid, const struct ct_rec *v, size_t n,
                 trace_event_id_t id, unsigned seq)
{
    int c = 0;
    for (size_t i = 0; i < n; i++)
        c += ct_is_seq(trid, &v[i], id, seq);
    return c;
}

#else
typedef int ct_tef_without_tef;     /* ISO C wants a declaration in every file */
#endif /* CT_HAVE_TEF */
