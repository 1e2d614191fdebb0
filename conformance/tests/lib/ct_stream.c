/* SPDX-License-Identifier: MIT */
/*
 * ct_stream.c -- the helpers of ct_stream.h (what each does is said there),
 * compiled once into the tests' helper library (build/harness/obj/libct.a)
 * rather than into every test program.  Compiled against the implementation
 * under test like the tests: it uses the standard API only.
 */
#include "../ct_stream.h"

char *ct_long_name(size_t n, char tag)
{
    char *s = malloc(n + 1);
    if (s == NULL)
        CT_UNRESOLVED("out of memory for a name of %zu characters", n);
    memset(s, 'n', n);
    s[0] = 'c';
    s[1] = 't';
    s[2] = tag;
    s[n] = '\0';
    return s;
}

size_t ct_event_name_max(void)
{
    long max = ct_limit_trace_event_name_max();
    if (max < 0)
        CT_UNTESTED("{TRACE_EVENT_NAME_MAX} is indeterminate (no macro, sysconf gives -1):"
                    " the rule needs the limit (ruling 24)");
    if (max < 3 || max > (1L << 20))
        CT_UNTESTED("{TRACE_EVENT_NAME_MAX} is %ld: too small or too large to build such a"
                    " name", max);
    return (size_t)max;
}

trace_event_id_t ct_open_id(const char *name)
{
    trace_event_id_t id;
    CT_SETUP_OK(posix_trace_eventid_open(name, &id));
    return id;
}

trace_id_t ct_new_stream(const trace_attr_t *attr, int start)
{
    trace_id_t trid;
    CT_SETUP_OK(posix_trace_create(0, attr, &trid));
    if (start)
        CT_SETUP_OK(posix_trace_start(trid));
    return trid;
}

void ct_check_user_event_limit(trace_id_t trid, ct_open_fn open, const char *fn,
                               const char *prefix)
{
    long limit = ct_limit_trace_user_event_max();
    char name[64];
    int determinate = limit > 0 && limit <= 65536;
    long tries = determinate ? limit + 1 : CT_MIN_TRACE_USER_EVENT_MAX;
    trace_event_id_t *ids = malloc(sizeof *ids * (size_t)tries);
    long named = 0, unnamed_at = 0;
    CT_CHECK(ids != NULL, "out of memory");
    if (!determinate)
        ct_note("{TRACE_USER_EVENT_MAX} is %ld: opening only {_POSIX_TRACE_USER_EVENT_MAX} ="
                " %d names (ruling 21)", limit, CT_MIN_TRACE_USER_EVENT_MAX);

    for (long i = 1; i <= tries; i++) {
        trace_event_id_t id;
        snprintf(name, sizeof name, "%s.%ld", prefix, i);
        int rc = open(trid, name, &id);
        CT_CHECK(rc == 0, "%s of name %ld (\"%s\") returned %s, expected 0: past the limit it"
                 " returns the unnamed user event, not an error", fn, i, name, ct_errname(rc));
        if (posix_trace_eventid_equal(trid, id, CT_UNNAMED)) {
            unnamed_at = i;
            break;
        }
        ids[named++] = id;
    }
    if (determinate) {
        CT_CHECK(unnamed_at != 0,
                 "%ld distinct names opened with {TRACE_USER_EVENT_MAX} = %ld: none returned"
                 " POSIX_TRACE_UNNAMED_USEREVENT; the limit includes the predefined user"
                 " event, so name %ld should have (ruling 21)", tries, limit, limit);
        CT_CHECK(unnamed_at == limit,
                 "POSIX_TRACE_UNNAMED_USEREVENT came back for name %ld, after %ld named"
                 " identifiers; {TRACE_USER_EVENT_MAX} = %ld counts the predefined user event"
                 " (<limits.h>), so exactly %ld names get identifiers of their own and name"
                 " %ld gets the unnamed event (ruling 21)", unnamed_at, named, limit,
                 limit - 1, limit);
        for (int k = 1; k <= 3; k++) {
            trace_event_id_t id;
            snprintf(name, sizeof name, "%s.beyond.%d", prefix, k);
            CT_CHECK_OK(open(trid, name, &id));
            CT_CHECK(posix_trace_eventid_equal(trid, id, CT_UNNAMED),
                     "past the limit, the new name \"%s\" got %s, not"
                     " POSIX_TRACE_UNNAMED_USEREVENT", name, CT_HEX(id));
        }
        /* A name mapped before the limit keeps its identifier (S0126). */
        trace_event_id_t again;
        snprintf(name, sizeof name, "%s.1", prefix);
        CT_CHECK_OK(open(trid, name, &again));
        CT_CHECK(named == 0 || posix_trace_eventid_equal(trid, again, ids[0]),
                 "past the limit, the name mapped first got %s, not its identifier %s",
                 CT_HEX(again), CT_HEX(ids[0]));
    } else {
        CT_CHECK(unnamed_at == 0 || unnamed_at == CT_MIN_TRACE_USER_EVENT_MAX,
                 "POSIX_TRACE_UNNAMED_USEREVENT came back for name %ld: the limit is at least"
                 " {_POSIX_TRACE_USER_EVENT_MAX} = %d identifiers", unnamed_at,
                 CT_MIN_TRACE_USER_EVENT_MAX);
    }
    /* Pairwise up to 4096 names; beyond, each against its 64 successors. */
    for (long i = 0; i < named; i++)
        for (long j = i + 1; j < named && (named <= 4096 || j <= i + 64); j++)
            CT_CHECK(!posix_trace_eventid_equal(trid, ids[i], ids[j]),
                     "names %s.%ld and %s.%ld got equal identifiers %s", prefix, i + 1,
                     prefix, j + 1, CT_HEX(ids[i]));
    free(ids);
}

void ct_check_name_max_opens(ct_open_fn open, const char *fn, char tag)
{
    size_t max = ct_event_name_max();
    char *name = ct_long_name(max, tag), *back = malloc(max + 17);
    trace_event_id_t id;
    CT_CHECK(back != NULL, "out of memory");
    trace_id_t trid = ct_new_stream(NULL, 0);
    int rc = open(trid, name, &id);
    CT_CHECK(rc == 0, "%s of a name of exactly {TRACE_EVENT_NAME_MAX} = %zu characters"
             " returned %s, expected 0 (ruling 24: the limit excludes the NUL)", fn, max,
             ct_errname(rc));
    memset(back, 'x', max + 17);
    CT_CHECK_OK(posix_trace_eventid_get_name(trid, id, back));
    CT_CHECK(memchr(back, '\0', max + 1) != NULL && strcmp(back, name) == 0,
             "eventid_get_name gives back a name of %zu characters, expected the %zu"
             " opened", strnlen(back, max + 17), max);
    free(name);
    free(back);
}

size_t ct_typelist_count(trace_id_t trid)
{
    size_t n = 0;
    int unavailable = 0;
    CT_SETUP_OK(posix_trace_eventtypelist_rewind(trid));
    for (;;) {
        trace_event_id_t id;
        CT_SETUP_OK(posix_trace_eventtypelist_getnext_id(trid, &id, &unavailable));
        if (unavailable)
            return n;
        if (++n > 100000)
            CT_UNRESOLVED("the event type list does not end after 100000 identifiers");
    }
}

trace_id_t ct_dead_stream(void)
{
    trace_id_t trid = ct_new_stream(NULL, 0);
    CT_SETUP_OK(posix_trace_shutdown(trid));
    return trid;
}

trace_id_t ct_small_stream(int policy)
{
    trace_attr_t a;
    trace_id_t trid;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_SETUP_OK(posix_trace_attr_setstreamfullpolicy(&a, policy));
    (void)posix_trace_attr_setstreamsize(&a, 2048);
    CT_SETUP_OK(posix_trace_create(0, &a, &trid));
    CT_SETUP_OK(posix_trace_attr_destroy(&a));
    return trid;
}

trace_id_t ct_stream_for_32(int policy, int start)
{
    trace_attr_t attr;
    trace_id_t trid;
    size_t ev = 0;
    CT_SETUP_OK(posix_trace_attr_init(&attr));
    CT_SETUP_OK(posix_trace_attr_setstreamfullpolicy(&attr, policy));
    if (posix_trace_attr_getmaxusereventsize(&attr, sizeof(unsigned), &ev) != 0 ||
        posix_trace_attr_setstreamsize(&attr, 32 * (ev ? ev : 64)) != 0)
        ct_note("stream-min-size could not be set: the default is used");
    CT_SETUP_OK(posix_trace_create(0, &attr, &trid));
    posix_trace_attr_destroy(&attr);
    if (start)
        CT_SETUP_OK(posix_trace_start(trid));
    return trid;
}

size_t ct_stream_max_data(trace_id_t trid)
{
    trace_attr_t a;
    size_t m = 0;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_SETUP_OK(posix_trace_get_attr(trid, &a));
    CT_SETUP_OK(posix_trace_attr_getmaxdatasize(&a, &m));
    posix_trace_attr_destroy(&a);
    return m;
}

trace_id_t ct_stream_for_data(size_t bytes, int start)
{
    trace_attr_t a;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_SETUP_OK(posix_trace_attr_setmaxdatasize(&a, bytes));
    trace_id_t trid = ct_new_stream(&a, start);
    posix_trace_attr_destroy(&a);
    size_t m = ct_stream_max_data(trid);
    if (m < bytes)
        CT_UNRESOLVED("a stream asked for max-data-size %zu has %zu", bytes, m);
    return trid;
}

struct posix_trace_status_info ct_status(trace_id_t trid)
{
    struct posix_trace_status_info st;
    CT_CHECK_OK(posix_trace_get_status(trid, &st));
    return st;
}

const char *ct_state_name(int s)
{
    return s == POSIX_TRACE_RUNNING ? "RUNNING" : s == POSIX_TRACE_SUSPENDED ? "SUSPENDED"
                                                                               : "(invalid)";
}

long ct_fill(trace_id_t trid, trace_event_id_t id)
{
    char data[16];
    memset(data, 'f', sizeof data);
    for (long n = 1; n <= 200000; n++) {
        posix_trace_event(id, data, sizeof data);
        if (n % 4 == 0 && ct_status(trid).posix_stream_full_status == POSIX_TRACE_FULL)
            return n;
    }
    CT_UNRESOLVED("200000 events did not make the stream FULL");
}

size_t ct_drain(trace_id_t trid, struct ct_ev *v, size_t max)
{
    size_t n = 0;
    for (;;) {
        struct ct_ev e;
        int unavailable = 1;
        e.len = 0;
        CT_CHECK_OK(posix_trace_trygetnext_event(trid, &e.info, e.data, sizeof e.data,
                                                 &e.len, &unavailable));
        if (unavailable)
            break;
        if (n < max)
            v[n] = e;
        if (++n > 1000000)
            CT_FAIL("trygetnext reported more than a million events: the stream never empties");
    }
    return n;
}

int ct_is_event(trace_id_t trid, const struct ct_ev *e, trace_event_id_t id)
{
    return posix_trace_eventid_equal(trid, e->info.posix_event_id, id) != 0;
}

size_t ct_count(trace_id_t trid, const struct ct_ev *v, size_t n,
                trace_event_id_t id)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += ct_is_event(trid, &v[i], id);
    return c;
}

int ct_next_event(trace_id_t trid, struct ct_rec *r)
{
    int unavailable = -1;
    r->len = 0;
    CT_SETUP_OK(posix_trace_trygetnext_event(trid, &r->info, r->data, sizeof r->data,
                                             &r->len, &unavailable));
    return unavailable == 0;
}

int ct_next_of(trace_id_t trid, trace_event_id_t id, struct ct_rec *r)
{
    while (ct_next_event(trid, r))
        if (posix_trace_eventid_equal(trid, r->info.posix_event_id, id))
            return 1;
    return 0;
}

void ct_record_seq(trace_event_id_t id, unsigned seq)
{
    posix_trace_event(id, &seq, sizeof seq);
}

double ct_mono_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

int ct_valid_timespec(const struct timespec *t)
{
    return t->tv_sec >= 0 && t->tv_nsec >= 0 && t->tv_nsec < 1000000000L;
}

int ct_same_time(const struct timespec *a, const struct timespec *b)
{
    return a->tv_sec == b->tv_sec && a->tv_nsec == b->tv_nsec;
}

int ct_is_policy_constant(int p)
{
    if (p == POSIX_TRACE_LOOP || p == POSIX_TRACE_UNTIL_FULL)
        return 1;
#ifdef POSIX_TRACE_FLUSH
    if (p == POSIX_TRACE_FLUSH)
        return 1;
#endif
    return 0;
}

int ct_invalid_policy(void)
{
    int v = 0x5a5a;
    while (ct_is_policy_constant(v))
        v++;
    return v;
}

static int ct_int_listed(const int *v, int n, int x)
{
    for (int i = 0; i < n; i++)
        if (v[i] == x)
            return 1;
    return 0;
}

int ct_invalid_ints(const int *valid, int nvalid, int *out, const char **names)
{
    int cand[CT_INVALID_MAX * 2];
    const char *what[CT_INVALID_MAX * 2];
    int nc = 0, n = 0, lo = INT_MAX, hi = INT_MIN;
#define CT_CAND(v, w) (cand[nc] = (v), what[nc++] = (w))
    CT_CAND(0, "0");
    CT_CAND(1, "1");
    CT_CAND(-1, "-1");
    CT_CAND(2, "2");
    CT_CAND(INT_MIN, "INT_MIN");
    CT_CAND(INT_MAX, "INT_MAX");
    CT_CAND(0x5a5a, "0x5a5a");
    for (int i = 0; i < nvalid; i++) {
        lo = valid[i] < lo ? valid[i] : lo;
        hi = valid[i] > hi ? valid[i] : hi;
        if (valid[i] > INT_MIN)
            CT_CAND(valid[i] - 1, "a valid value minus one");
        if (valid[i] < INT_MAX)
            CT_CAND(valid[i] + 1, "a valid value plus one");
    }
    if (nvalid > 0 && lo > INT_MIN)
        CT_CAND(lo - 1, "one below the smallest valid value");
    if (nvalid > 0 && hi < INT_MAX)
        CT_CAND(hi + 1, "one above the largest valid value");
#define CT_CONST(c) CT_CAND(c, #c)
    CT_CONST(POSIX_TRACE_RUNNING);
    CT_CONST(POSIX_TRACE_SUSPENDED);
    CT_CONST(POSIX_TRACE_FULL);
    CT_CONST(POSIX_TRACE_NOT_FULL);
    CT_CONST(POSIX_TRACE_OVERRUN);
    CT_CONST(POSIX_TRACE_NO_OVERRUN);
    CT_CONST(POSIX_TRACE_NOT_TRUNCATED);
    CT_CONST(POSIX_TRACE_TRUNCATED_RECORD);
    CT_CONST(POSIX_TRACE_TRUNCATED_READ);
    CT_CONST(POSIX_TRACE_LOOP);
    CT_CONST(POSIX_TRACE_UNTIL_FULL);
#ifdef POSIX_TRACE_FLUSH
    CT_CONST(POSIX_TRACE_FLUSH);
#endif
#if CT_HAVE_TRL
    CT_CONST(POSIX_TRACE_APPEND);
    CT_CONST(POSIX_TRACE_FLUSHING);
    CT_CONST(POSIX_TRACE_NOT_FLUSHING);
#endif
#if CT_HAVE_TRI
    CT_CONST(POSIX_TRACE_CLOSE_FOR_CHILD);
    CT_CONST(POSIX_TRACE_INHERITED);
#endif
#if CT_HAVE_TEF
    CT_CONST(POSIX_TRACE_WOPID_EVENTS);
    CT_CONST(POSIX_TRACE_SYSTEM_EVENTS);
    CT_CONST(POSIX_TRACE_ALL_EVENTS);
    CT_CONST(POSIX_TRACE_SET_EVENTSET);
    CT_CONST(POSIX_TRACE_ADD_EVENTSET);
    CT_CONST(POSIX_TRACE_SUB_EVENTSET);
#endif
#undef CT_CONST
#undef CT_CAND
    for (int i = 0; i < nc && n < CT_INVALID_MAX; i++) {
        if (ct_int_listed(valid, nvalid, cand[i]) || ct_int_listed(out, n, cand[i]))
            continue;
        names[n] = what[i];
        out[n++] = cand[i];
    }
    return n;
}

void ct_destroyed_attr(trace_attr_t *a)
{
    CT_SETUP_OK(posix_trace_attr_init(a));
    CT_SETUP_OK(posix_trace_attr_destroy(a));
}
