/* SPDX-License-Identifier: MIT */
/*
 * vec_steps_read.c -- reading events: getnext, trygetnext, timedgetnext,
 * drain, and reads or events in a thread of their own (bg, join); the
 * expectations of a read ("event ID clauses...", none, an errno).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "vec_vm.h"

/* ---- reading ------------------------------------------------------------- */

long long vm_ts_ns(const struct timespec *t)
{
    return (long long)t->tv_sec * 1000000000LL + t->tv_nsec;
}

/* getnext T [num_bytes N] [data null]; timedgetnext T ABSTIME [...]
 * ABSTIME: past | in MS | null | nsec N */
static int read_args(struct vm *vm, struct cur *c, enum read_kind kind, struct read_req *r)
{
    memset(r, 0, sizeof *r);
    r->kind = kind;
    r->num_bytes = READ_BUF;
    vm_use_fn(vm, kind == RD_NEXT ? "posix_trace_getnext_event" : kind == RD_TRY
           ? "posix_trace_trygetnext_event" : "posix_trace_timedgetnext_event");
    r->t = vm_trace_arg(vm, c);
    if (r->t == NULL)
        return -1;
    r->id = r->t->id;
    if (kind == RD_TIMED) {
        struct tok *k = vm_need_word(vm, c, "a time (past, in MS, null, nsec N)");
        if (k == NULL)
            return -1;
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        if (strcmp(k->text, "past") == 0) {
            r->abs = now;
            r->abs.tv_sec -= 1;
        } else if (strcmp(k->text, "null") == 0) {
            r->abs_null = 1;
        } else if (strcmp(k->text, "in") == 0 || strcmp(k->text, "nsec") == 0) {
            long long v;
            int in = strcmp(k->text, "in") == 0;
            if (vm_need_expr(vm, c, in ? "milliseconds" : "nanoseconds", &v))
                return -1;
            if (in) {
                if (!vm->dry && (v < 0 || v > 600000))
                    return vm_bad(vm, "in %lld: between 0 and 600000 ms", v);
                long long ns = vm_ts_ns(&now) + v * 1000000LL;
                r->abs.tv_sec = (time_t)(ns / 1000000000LL);
                r->abs.tv_nsec = (long)(ns % 1000000000LL);
            } else {
                r->abs.tv_sec = now.tv_sec + 1;
                r->abs.tv_nsec = (long)v;
            }
        } else {
            return vm_bad(vm, "'%s' is not a time (past, in MS, null, nsec N)", k->text);
        }
    }
    for (struct tok *k; (k = vm_peek(c)) != NULL;) {
        c->i++;
        if (vm_is_w(k, "num_bytes")) {
            long long v;
            if (vm_need_expr(vm, c, "num_bytes", &v))
                return -1;
            if (!vm->dry && (v < 0 || (unsigned long long)v > VEC_BYTES_MAX))
                return vm_bad(vm, "num_bytes %lld is out of range", v);
            r->num_bytes = (size_t)v;
        } else if (vm_is_w(k, "data")) {
            struct tok *n = vm_need_word(vm, c, "null");
            if (n == NULL)
                return -1;
            if (strcmp(n->text, "null") != 0)
                return vm_bad(vm, "'data' here only takes null (a NULL buffer)");
            r->data_null = 1;
        } else {
            return vm_bad(vm, "unexpected '%s' (num_bytes N, data null)",
                       k->kind == TK_STRING ? "\"...\"" : k->text);
        }
    }
    if (r->data_null && r->num_bytes == READ_BUF)
        r->num_bytes = 0;
    return 0;
}

static void read_call(struct read_req *r)
{
    if (!r->data_null)
        r->buf = vm_guarded(r->num_bytes);
    r->unavailable = -12345;
    r->data_len = (size_t)-1;
    memset(&r->ev, 0, sizeof r->ev);
    const struct timespec *abs = r->abs_null ? NULL : &r->abs;
    switch (r->kind) {
    case RD_NEXT:
        r->rc = posix_trace_getnext_event(r->id, &r->ev, r->buf, r->num_bytes,
                                          &r->data_len, &r->unavailable);
        break;
    case RD_TRY:
        r->rc = posix_trace_trygetnext_event(r->id, &r->ev, r->buf, r->num_bytes,
                                             &r->data_len, &r->unavailable);
        break;
    case RD_TIMED:
        r->rc = posix_trace_timedgetnext_event(r->id, &r->ev, r->buf, r->num_bytes,
                                               &r->data_len, &r->unavailable, abs);
        break;
    }
    clock_gettime(CLOCK_REALTIME, &r->done);
}

static const char *fn_of(enum read_kind k)
{
    return k == RD_NEXT ? "posix_trace_getnext_event" : k == RD_TRY
           ? "posix_trace_trygetnext_event" : "posix_trace_timedgetnext_event";
}

/* One line describing the event read, for messages. */
static void describe(struct vm *vm, const struct read_req *r, char *buf, size_t size)
{
    char idb[40], data[160];
    const char *trunc = vec_group_name(G_TRUNC, r->ev.posix_truncation_status);
    vec_fmt_bytes(r->buf, r->buf ? (r->data_len <= r->num_bytes ? r->data_len : r->num_bytes) : 0,
                  data, sizeof data);
    snprintf(buf, size, "event %s data %s len %zu trunc %s",
             vm_id_text(vm, r->ev.posix_event_id, idb, sizeof idb), data, r->data_len,
             trunc ? trunc : "?");
}

static int self_thread(const struct vm *vm, pthread_t t)
{
    return pthread_equal(t, vm->main_thread) != 0;
}

static int zero_thread(pthread_t t)
{
    pthread_t z;
    memset(&z, 0, sizeof z);
    return memcmp(&t, &z, sizeof t) == 0;
}

/* The clauses after "event ID", up to e[end]. */
static int event_clauses(struct vm *vm, struct read_req *r, size_t i, size_t end)
{
    struct step *s = vm->step;
    struct posix_trace_event_info *ev = &r->ev;
    char got[300];
    if (!vm->dry)
        describe(vm, r, got, sizeof got);
    while (i < end) {
        struct tok *k = &s->e[i++];
        struct tok *arg = i < end ? &s->e[i] : NULL;
        if (k->kind != TK_WORD)
            return vm_bad(vm, "expected a clause (data, len, trunc, ts, pid, thread, prog, auto), "
                       "not a string");
        if (strcmp(k->text, "ts") == 0) {
            struct valspec vs = { G_NONE, 1, r->t };
            size_t before = i;
            if (vm_expect_value(vm, &i, vm_ts_ns(&ev->posix_timestamp), &vs, "the timestamp"))
                return -1;
            if (i == before)
                return vm_bad(vm, "'ts' needs a comparison (ts >= last, ts == last, ts $var ...)");
            continue;
        }
        if (arg == NULL)
            return vm_bad(vm, "'%s' needs a value", k->text);
        i++;
        if (strcmp(k->text, "data") == 0) {
            /* data SPEC [cut N]: with cut, the event may also have been
             * truncated at N bytes when recorded (ruling 16): then it must
             * say TRUNCATED_RECORD, and NOT_TRUNCATED when whole. */
            struct vec_bytes b;
            long long cut = -1;
            if (i + 1 < end && vm_is_w(&s->e[i], "cut")) {
                if (vm_eval(vm, s->e[i + 1].text, &cut))
                    return -1;
                if (!vm->dry && cut < 0)
                    return vm_bad(vm, "cut %lld: a length cannot be negative", cut);
                i += 2;
            }
            if (vm_bytes_of(vm, arg, &b))
                return -1;
            size_t want = b.n;
            int st = ev->posix_truncation_status;
            if (cut >= 0 && st == POSIX_TRACE_TRUNCATED_RECORD && (size_t)cut < b.n)
                want = (size_t)cut;
            int ok = vm->dry || (r->data_len == want && (want == 0 ||
                     (r->buf && memcmp(r->buf, b.p, want) == 0)));
            if (ok && cut >= 0 && !vm->dry && st != POSIX_TRACE_NOT_TRUNCATED &&
                !(st == POSIX_TRACE_TRUNCATED_RECORD && (size_t)cut < b.n)) {
                free(b.p);
                return vm_fail(vm, "expected the whole data and NOT_TRUNCATED, or the first "
                            "%lld bytes and TRUNCATED_RECORD; got %s", cut, got);
            }
            char w[200];
            if (!ok)
                vec_fmt_bytes(b.p, want, w, sizeof w);
            free(b.p);
            if (!ok)
                return vm_fail(vm, "expected data %s (%zu bytes)%s, got %s", w, want,
                            cut >= 0 ? " (the truncation status taken into account)" : "",
                            got);
        } else if (strcmp(k->text, "len") == 0) {
            long long n;
            if (vm_eval(vm, arg->text, &n))
                return -1;
            if (!vm->dry && (long long)r->data_len != n)
                return vm_fail(vm, "expected data_len %lld, got %s", n, got);
        } else if (strcmp(k->text, "trunc") == 0) {
            long long want;
            if (!vec_group_has(G_TRUNC, arg->text))
                return vm_bad(vm, "trunc takes NOT_TRUNCATED, TRUNCATED_RECORD or TRUNCATED_READ");
            if (vm_eval(vm, arg->text, &want))
                return -1;
            if (!vm->dry && ev->posix_truncation_status != want)
                return vm_fail(vm, "expected trunc %s, got %s", arg->text, got);
        } else if (strcmp(k->text, "pid") == 0) {
            /* pid self | 0 | C (a process of "fork C") */
            pid_t want;
            if (vm_pid_word(vm, arg->text, &want))
                return -1;
            if (!vm->dry && ev->posix_pid != want)
                return vm_fail(vm, "expected posix_pid %ld (%s), got %ld", (long)want, arg->text,
                            (long)ev->posix_pid);
        } else if (strcmp(k->text, "thread") == 0) {
            /* thread self | 0 | NAME (the thread of "bg NAME event ...") */
            int self = strcmp(arg->text, "self") == 0;
            int zero = strcmp(arg->text, "0") == 0;
            struct bg_obj *b = NULL;
            for (size_t j = 0; !self && !zero && j < vm->nbgs; j++)
                if (strcmp(vm->bgs[j].name, arg->text) == 0 && vm->bgs[j].is_event)
                    b = &vm->bgs[j];
            if (!self && !zero && b == NULL)
                return vm_bad(vm, "thread takes self, 0, or the name of a 'bg NAME event' thread");
            if (vm->dry)
                continue;
            if (b && !b->started)
                return vm_bad(vm, "thread %s was not started", b->name);
            int ok = self ? self_thread(vm, ev->posix_thread_id)
                   : zero ? zero_thread(ev->posix_thread_id)
                   : pthread_equal(ev->posix_thread_id, b->th) != 0;
            if (!ok)
                return vm_fail(vm, "expected posix_thread_id %s%s", self ? "the interpreter's "
                            "thread" : zero ? "zero" : "the thread of bg ", b ? b->name : "");
        } else if (strcmp(k->text, "prog") == 0) {
            int nonnull = strcmp(arg->text, "nonnull") == 0;
            if (!nonnull && strcmp(arg->text, "null") != 0)
                return vm_bad(vm, "prog takes null or nonnull");
            if (!vm->dry && (ev->posix_prog_address != NULL) != nonnull)
                return vm_fail(vm, "expected posix_prog_address %s, got %p", arg->text,
                            ev->posix_prog_address);
        } else if (strcmp(k->text, "auto") == 0) {
            int nonzero = strcmp(arg->text, "nonzero") == 0;
            if (!nonzero && strcmp(arg->text, "0") != 0)
                return vm_bad(vm, "auto takes 0 or nonzero");
            if (vm->dry)
                continue;
            int v;
            if (r->data_len != sizeof v || r->buf == NULL)
                return vm_fail(vm, "expected the int of a STOP event (%zu bytes), got %s",
                            sizeof v, got);
            memcpy(&v, r->buf, sizeof v);
            if ((v != 0) != nonzero)
                return vm_fail(vm, "expected auto %s, got %d", arg->text, v);
        } else {
            return vm_bad(vm, "unknown clause '%s' (data, len, trunc, ts, pid, thread, prog, auto)",
                       k->text);
        }
    }
    /* Exact annotations. */
    static const char *const thread_words[] = { "0", "self", "other", NULL };
    static const char *const prog_words[] = { "null", "nonnull", NULL };
    const char *thr = zero_thread(ev->posix_thread_id) ? "0"
                    : self_thread(vm, ev->posix_thread_id) ? "self" : "other";
    long long cpu = 0;
#ifdef VECRUN_EXACT
    cpu = ev->posix_cpu;
#endif
    if (vm_annot_int(vm, "ts", vm_ts_ns(&ev->posix_timestamp), 1, G_NONE) ||
        vm_annot_int(vm, "cpu", cpu, 0, G_NONE) ||
        vm_annot_int(vm, "trunc", ev->posix_truncation_status, 0, G_TRUNC) ||
        vm_annot_int(vm, "len", (long long)r->data_len, 0, G_NONE) ||
        vm_annot_pid(vm, ev->posix_pid) ||
        vm_annot_word(vm, "thread", thr, thread_words, 0) ||
        vm_annot_word(vm, "prog", ev->posix_prog_address ? "nonnull" : "null", prog_words, 0))
        return -1;
    return 0;
}

/* "event ID clauses..." at e[at], up to e[end]: an event must have been read. */
static int read_event(struct vm *vm, struct read_req *r, size_t at, size_t end)
{
    struct step *s = vm->step;
    const char *fn = fn_of(r->kind);
    char b1[32], got[300];
    if (at + 1 >= end)
        return vm_bad(vm, "'event' needs an event (a constant, a name, or any)");
    trace_event_id_t want;
    int any;
    memset(&want, 0, sizeof want);
    if (vm_event_id(vm, &s->e[at + 1], &want, &any))
        return -1;
    if (!vm->dry) {
        if (r->rc != 0)
            return vm_fail(vm, "%s returned %s, expected an event", fn,
                        vm_errname(r->rc, b1, sizeof b1));
        if (r->unavailable != 0)
            return vm_fail(vm, "%s gave no event (unavailable %d), expected %s", fn,
                        r->unavailable, s->e[at + 1].text);
        if (r->data_len > r->num_bytes)
            return vm_fail(vm, "data_len %zu is more than num_bytes %zu", r->data_len,
                        r->num_bytes);
        if (r->buf && !vm_guard_intact(r->buf, r->num_bytes))
            return vm_fail(vm, "%s wrote past the %zu bytes of the buffer (getnext.buffer-bound)",
                        fn, r->num_bytes);
        if (vec_group_name(G_TRUNC, r->ev.posix_truncation_status) == NULL)
            return vm_fail(vm, "posix_truncation_status %d is none of NOT_TRUNCATED, "
                        "TRUNCATED_RECORD, TRUNCATED_READ (xsh211.truncation-values)",
                        r->ev.posix_truncation_status);
        if (!any && !posix_trace_eventid_equal(r->id, r->ev.posix_event_id, want)) {
            describe(vm, r, got, sizeof got);
            return vm_fail(vm, "expected event %s, got %s", s->e[at + 1].text, got);
        }
    }
    return event_clauses(vm, r, at + 2, end);
}

/* "event A clauses... or event B clauses...": either event, each with its own
 * clauses; the event read picks the alternative (A if it is A).  For a point
 * the implementation decides, such as whether the event that filled an
 * UNTIL_FULL stream was still recorded (vectors/README.md). */
static int read_either_event(struct vm *vm, struct read_req *r, size_t or_at)
{
    struct step *s = vm->step;
    if (vm->dry)
        return read_event(vm, r, 0, or_at) || read_event(vm, r, or_at + 1, s->ne) ? -1 : 0;
    trace_event_id_t first;
    int any;
    memset(&first, 0, sizeof first);
    if (vm_event_id(vm, &s->e[1], &first, &any))
        return -1;
    int is_first = r->rc == 0 && r->unavailable == 0 &&
                   (any || posix_trace_eventid_equal(r->id, r->ev.posix_event_id, first));
    return is_first ? read_event(vm, r, 0, or_at) : read_event(vm, r, or_at + 1, s->ne);
}

/* Checks a read's outcome against the step's expectation. */
static int read_check(struct vm *vm, struct read_req *r)
{
    struct step *s = vm->step;
    const char *fn = fn_of(r->kind);
    char b1[32], got[300];
    int rc = 0;
    if (!s->arrow) {
        if (!vm->dry && (r->rc != 0 || r->unavailable != 0))
            rc = vm_fail(vm, "%s returned %s, unavailable %d", fn, vm_errname(r->rc, b1, sizeof b1),
                      r->unavailable);
    } else {
        int codes[8];
        size_t n;
        struct tok *k = &s->e[0];
        if (vm_rc_set(k, codes, &n, 1) && s->ne > 2 && vm_is_w(&s->e[1], "or") &&
            vm_is_w(&s->e[2], "event")) {
            /* ERRNO or event ID ...: either outcome passes. */
            if (!vm->dry && vm_in_set(r->rc, codes, n)) {
                for (size_t j = 0; j < s->na; j++)
                    s->a[j].used = 1;
            } else {
                rc = read_event(vm, r, 2, s->ne);
            }
        } else if (vm_rc_set(k, codes, &n, 1)) {
            if (s->ne != 1)
                return vm_bad(vm, "nothing may follow a return code (but 'or event ...')");
            if (!vm->dry && !vm_in_set(r->rc, codes, n)) {
                if (r->rc == 0 && r->unavailable == 0)
                    describe(vm, r, got, sizeof got);
                else
                    snprintf(got, sizeof got, "unavailable %d", r->unavailable);
                rc = vm_fail(vm, "%s returned %s (%s), expected %s", fn,
                          vm_errname(r->rc, b1, sizeof b1), got, k->text);
            } else if (!vm->dry && r->rc == ETIMEDOUT && !r->abs_null &&
                       vm_ts_ns(&r->done) < vm_ts_ns(&r->abs)) {
                rc = vm_fail(vm, "%s returned ETIMEDOUT %lld ns before abstime", fn,
                          vm_ts_ns(&r->abs) - vm_ts_ns(&r->done));
            }
        } else if (vm_is_w(k, "none")) {
            if (s->ne != 1)
                return vm_bad(vm, "nothing may follow 'none'");
            if (r->kind == RD_NEXT)
                return vm_bad(vm, "posix_trace_getnext_event blocks: it cannot give 'none'");
            if (!vm->dry && (r->rc != 0 || r->unavailable == 0)) {
                if (r->rc == 0)
                    describe(vm, r, got, sizeof got);
                rc = vm_fail(vm, "expected no event (unavailable != 0), got %s",
                          r->rc ? vm_errname(r->rc, b1, sizeof b1) : got);
            }
        } else if (vm_is_w(k, "event")) {
            size_t or_at = 0;
            for (size_t j = 2; or_at == 0 && j + 1 < s->ne; j++)
                if (vm_is_w(&s->e[j], "or") && vm_is_w(&s->e[j + 1], "event"))
                    or_at = j;
            rc = or_at ? read_either_event(vm, r, or_at) : read_event(vm, r, 0, s->ne);
        } else {
            return vm_bad(vm, "a read expects 'event ID ...', 'none' or an errno name");
        }
    }
    if (!vm->dry && r->rc == 0 && r->unavailable == 0) {
        r->t->have_last = 1;
        r->t->last_ts = vm_ts_ns(&r->ev.posix_timestamp);
    }
    return rc;
}

static int do_read(struct vm *vm, struct cur *c, enum read_kind kind)
{
    struct read_req r;
    if (read_args(vm, c, kind, &r))
        return -1;
    if (!vm->dry)
        read_call(&r);
    int rc = read_check(vm, &r);
    free(r.buf);
    return rc;
}

int verb_getnext(struct vm *vm, struct cur *c) { return do_read(vm, c, RD_NEXT); }
int verb_trygetnext(struct vm *vm, struct cur *c) { return do_read(vm, c, RD_TRY); }
int verb_timedgetnext(struct vm *vm, struct cur *c) { return do_read(vm, c, RD_TIMED); }

/* drain T [max N] -> count VALUE... [last ID] [lastdata DATA]: reads with
 * trygetnext until no event is left (at most N, default 1000000), checking
 * that timestamps never go back (within the clock resolution). */
int verb_drain(struct vm *vm, struct cur *c)
{
    vm_use_fn(vm, "posix_trace_trygetnext_event");
    struct trace_obj *t = vm_trace_arg(vm, c);
    if (t == NULL)
        return -1;
    long long max = 1000000;
    if (vm_is_w(vm_peek(c), "max")) {
        c->i++;
        if (vm_need_expr(vm, c, "the most events to read", &max))
            return -1;
    }
    if (vm_no_more(vm, c))
        return -1;
    if (!vm->dry && (max < 1 || max > MAX_REPEAT))
        return vm_bad(vm, "max %lld is not between 1 and %lld", max, MAX_REPEAT);
    struct step *s = vm->step;
    if (!s->arrow || !vm_is_w(&s->e[0], "count"))
        return vm_bad(vm, "drain expects '-> count VALUE... [last ID] [lastdata DATA]'");
    struct read_req r;
    memset(&r, 0, sizeof r);
    r.kind = RD_TRY;
    r.t = t;
    r.id = t->id;
    r.num_bytes = READ_BUF;
    long long n = 0;
    int have = 0, rc = 0;
    struct read_req last;
    memset(&last, 0, sizeof last);
    while (!vm->dry && rc == 0) {
        read_call(&r);
        if (r.rc != 0 || r.unavailable != 0)
            break;
        long long ts = vm_ts_ns(&r.ev.posix_timestamp);
        if (t->have_last && ts < t->last_ts && ts + vm_resolution(t) < t->last_ts) {
            char a[40], b[40];
            vec_fmt_ts(ts, a, sizeof a);
            vec_fmt_ts(t->last_ts, b, sizeof b);
            rc = vm_fail(vm, "event %lld has timestamp %s, before the previous one's %s", n + 1,
                      a, b);
        }
        t->have_last = 1;
        t->last_ts = ts;
        n++;
        free(last.buf);
        last = r;
        have = 1;
        r.buf = NULL;
        if (n == max)
            break;
    }
    free(r.buf);
    char b1[32];
    if (rc == 0 && !vm->dry && r.rc != 0)
        rc = vm_fail(vm, "posix_trace_trygetnext_event returned %s after %lld events",
                  vm_errname(r.rc, b1, sizeof b1), n);
    size_t i = 1;
    struct valspec vs = { G_NONE, 0, NULL };
    if (rc == 0)
        rc = vm_expect_value(vm, &i, n, &vs, "the number of events read");
    while (rc == 0 && i < s->ne) {
        struct tok *k = &s->e[i++];
        if (i >= s->ne) {
            rc = vm_bad(vm, "'%s' needs a value", k->text);
            break;
        }
        struct tok *arg = &s->e[i++];
        if (vm_is_w(k, "last")) {
            trace_event_id_t want;
            memset(&want, 0, sizeof want);
            if (vm_event_id(vm, arg, &want, NULL))
                rc = -1;
            else if (!vm->dry && (!have ||
                     !posix_trace_eventid_equal(t->id, last.ev.posix_event_id, want))) {
                char got[300] = "no event";
                if (have)
                    describe(vm, &last, got, sizeof got);
                rc = vm_fail(vm, "expected the last event to be %s, got %s", arg->text, got);
            }
        } else if (vm_is_w(k, "lastdata")) {
            struct vec_bytes b;
            if (vm_bytes_of(vm, arg, &b)) {
                rc = -1;
            } else {
                if (!vm->dry && (!have || last.data_len != b.n ||
                    (b.n && memcmp(last.buf, b.p, b.n) != 0))) {
                    char got[300] = "no event", w[200];
                    if (have)
                        describe(vm, &last, got, sizeof got);
                    vec_fmt_bytes(b.p, b.n, w, sizeof w);
                    rc = vm_fail(vm, "expected the last event's data %s, got %s", w, got);
                }
                free(b.p);
            }
        } else {
            rc = vm_bad(vm, "unknown clause '%s' (count, last, lastdata)", k->text);
        }
    }
    free(last.buf);
    if (rc == 0)
        rc = vm_annot_int(vm, "count", n, 0, G_NONE);
    return rc;
}

static void *bg_main(void *arg)
{
    struct bg_obj *b = arg;
    if (b->is_event)
        posix_trace_event(b->ev_id, b->data.is_null ? NULL
                          : (b->data.p ? (void *)b->data.p : (void *)""), b->data.n);
    else
        read_call(&b->req);
    return NULL;
}

/* bg R getnext|timedgetnext|trygetnext ...: the read runs in a thread of
 * its own; "join R" waits for it and checks the expectation. */
int verb_bg(struct vm *vm, struct cur *c)
{
    struct tok *k = vm_need_word(vm, c, "a name for the background read");
    if (k == NULL || vm_check_name(vm, k->text, "background read"))
        return -1;
    for (size_t i = 0; i < vm->nbgs; i++)
        if (strcmp(vm->bgs[i].name, k->text) == 0 && !vm->bgs[i].joined)
            return vm_bad(vm, "background read %s is already running", k->text);
    if (vm->rep_depth)
        return vm_bad(vm, "bg cannot be repeated");
    if (vm->nbgs == MAX_BG)
        return vm_bad(vm, "more than %d background reads", MAX_BG);
    struct tok *verb = vm_need_word(vm, c, "getnext, timedgetnext, trygetnext or event");
    if (verb == NULL)
        return -1;
    enum read_kind kind;
    if (strcmp(verb->text, "event") == 0) {
        /* bg NAME event ID DATA: recorded by a thread of its own. */
        vm_use_fn(vm, "posix_trace_event");
        struct bg_obj *b = &vm->bgs[vm->nbgs];
        memset(b, 0, sizeof *b);
        snprintf(b->name, sizeof b->name, "%s", k->text);
        b->step = vm->step;
        b->is_event = 1;
        struct tok *id = vm_need_word(vm, c, "an event");
        if (id == NULL || vm_event_id(vm, id, &b->ev_id, NULL))
            return -1;
        struct tok *d = vm_need(vm, c, "the event's data");
        if (d == NULL || vm_no_more(vm, c))
            return -1;
        if (vm->step->arrow)
            return vm_bad(vm, "posix_trace_event returns nothing: no '->' here");
        if (vm_bytes_of(vm, d, &b->data))
            return -1;
        vm->nbgs++;
        if (vm->dry)
            return 0;
        int rc = pthread_create(&b->th, NULL, bg_main, b);
        if (rc)
            return vm_give(vm, VEC_UNRESOLVED, "pthread_create: %s", strerror(rc));
        b->started = 1;
        return 0;
    }
    if (strcmp(verb->text, "getnext") == 0)
        kind = RD_NEXT;
    else if (strcmp(verb->text, "timedgetnext") == 0)
        kind = RD_TIMED;
    else if (strcmp(verb->text, "trygetnext") == 0)
        kind = RD_TRY;
    else
        return vm_bad(vm, "bg runs getnext, timedgetnext, trygetnext or event");
    struct bg_obj *b = &vm->bgs[vm->nbgs];
    memset(b, 0, sizeof *b);
    snprintf(b->name, sizeof b->name, "%s", k->text);
    b->step = vm->step;
    if (read_args(vm, c, kind, &b->req))
        return -1;
    vm->nbgs++;
    if (vm->dry)
        return read_check(vm, &b->req);         /* the expectation's syntax */
    int rc = pthread_create(&b->th, NULL, bg_main, b);
    if (rc)
        return vm_give(vm, VEC_UNRESOLVED, "pthread_create: %s", strerror(rc));
    b->started = 1;
    return 0;
}

int verb_join(struct vm *vm, struct cur *c)
{
    struct tok *k = vm_need_word(vm, c, "a background read");
    if (k == NULL || vm_no_more(vm, c))
        return -1;
    if (vm->step->arrow || vm->step->na)
        return vm_bad(vm, "join checks the expectation of its bg step: none here");
    struct bg_obj *b = NULL;
    for (size_t i = 0; i < vm->nbgs; i++)
        if (strcmp(vm->bgs[i].name, k->text) == 0 && !vm->bgs[i].joined)
            b = &vm->bgs[i];
    if (b == NULL)
        return vm_bad(vm, "no background read %s is running", k->text);
    b->joined = 1;
    if (vm->dry)
        return 0;
    pthread_join(b->th, NULL);
    if (b->is_event)
        return 0;
    struct step *saved = vm->step;
    int saved_checking = vm->checking;
    vm->step = b->step;
    vm->checking = vm_step_checking(b->step);
    int rc = read_check(vm, &b->req);
    vm->step = saved;
    vm->checking = saved_checking;
    free(b->req.buf);
    b->req.buf = NULL;
    return rc;
}
