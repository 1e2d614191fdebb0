/* SPDX-License-Identifier: MIT */
/*
 * kvec_extern.c -- another decoder under test (vectors/ksp/README.md,
 * "Checking another decoder"): the vector's trace file is written to a
 * temporary file, the command runs on it, and its JSON (the contract of
 * reference/kernel/KERNEL.md, "tracedump --json") becomes the decoded view.
 *
 * The command runs as `sh -c CMD` with {file} replaced by the file's path,
 * in a process group of its own, within the time limit; it prints one JSON
 * document on stdout; its exit status is not looked at.  A crash, or output
 * that is not the contract's JSON, is a FAIL of that decoder; a time-out is
 * UNRESOLVED.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "kvec.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* cmd with each {file} replaced by the quoted path (appended if none). */
static char *command(const char *cmd, const char *path)
{
    size_t n = strlen(cmd) + 8, plen = strlen(path);
    for (const char *p = cmd; (p = strstr(p, "{file}")) != NULL; p += 6)
        n += plen + 2;
    char *out = malloc(n + plen + 4), *o = out;
    if (out == NULL)
        return NULL;
    int any = 0;
    for (const char *p = cmd; *p;) {
        if (strncmp(p, "{file}", 6) == 0) {
            o += sprintf(o, "'%s'", path);   /* mkstemp's path: no quote in it */
            p += 6;
            any = 1;
        } else {
            *o++ = *p++;
        }
    }
    if (!any)
        o += sprintf(o, " '%s'", path);
    *o = '\0';
    return out;
}

#define OUT_MAX (512u << 20)

/* Runs cmd, collecting its stdout.  0, or a KV_ code with r->msg set. */
static int run_decoder(struct kv_run *r, const struct kv_line *l, const char *cmd, char **out,
                       size_t *outlen)
{
    int fds[2];
    if (pipe(fds) != 0)
        return kv_fail(r, l, KV_UNRESOLVED, "pipe: %s", strerror(errno));
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return kv_fail(r, l, KV_UNRESOLVED, "fork: %s", strerror(errno));
    }
    if (pid == 0) {
        setpgid(0, 0);
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        /* Its messages are not part of the contract (run the command by
         * hand to see them): they would only clutter the test's output. */
        int nul = open("/dev/null", O_RDWR);
        if (nul >= 0) {
            dup2(nul, 0);
            dup2(nul, 2);
        }
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid);
    close(fds[1]);
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    double deadline = now_s() + r->timeout;
    int timed_out = 0, too_big = 0;
    while (buf) {
        double left = deadline - now_s();
        if (left <= 0) {
            timed_out = 1;
            break;
        }
        struct pollfd p = { fds[0], POLLIN, 0 };
        int n = poll(&p, 1, (int)(left * 1000) + 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            continue;
        if (len + 4096 >= cap) {
            char *b = cap >= OUT_MAX ? NULL : realloc(buf, cap * 2);
            if (b == NULL) {
                too_big = 1;
                break;
            }
            buf = b;
            cap *= 2;
        }
        ssize_t k = read(fds[0], buf + len, cap - len - 1);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        len += (size_t)k;
    }
    close(fds[0]);
    if (timed_out || too_big || buf == NULL)
        kill(-pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (buf == NULL)
        return kv_fail(r, l, KV_UNRESOLVED, "out of memory");
    buf[len] = '\0';
    *out = buf;
    *outlen = len;
    if (timed_out)
        return kv_fail(r, l, KV_UNRESOLVED, "the decoder did not finish within %g s",
                       r->timeout);
    if (too_big)
        return kv_fail(r, l, KV_FAIL, "the decoder printed more than %u MiB", OUT_MAX >> 20);
    if (WIFSIGNALED(status))
        return kv_fail(r, l, KV_FAIL, "the decoder was killed by signal %d",
                       WTERMSIG(status));
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && len == 0)
        return kv_fail(r, l, KV_UNRESOLVED, "the decoder command could not be run: %s", cmd);
    return 0;
}

static int get_u64(const struct kj *o, const char *key, uint64_t *v)
{
    const struct kj *x = kj_get(o, key);
    if (x == NULL || x->type != KJ_NUM || !x->is_uint)
        return -1;
    *v = x->u;
    return 0;
}

/* Reads the contract's JSON into r->dec.  KV_PASS, or KV_FAIL naming what
 * breaks the contract. */
static int from_json(struct kv_run *r, const struct kv_line *l, const struct kj *root)
{
    struct kv_decoded *d = &r->dec;
    const struct kj *evs = kj_get(root, "events"), *errs = kj_get(root, "errors");
    const struct kj *fatal = kj_get(root, "fatal"), *sum = kj_get(root, "summary");
    uint64_t x;

    if (root->type != KJ_OBJ || evs == NULL || evs->type != KJ_ARR || errs == NULL ||
        errs->type != KJ_ARR || sum == NULL || sum->type != KJ_OBJ)
        return kv_fail(r, l, KV_FAIL, "decoder output breaks the contract: expected an object "
                       "with arrays \"events\", \"errors\" and an object \"summary\"");
    if (fatal != NULL && fatal->type == KJ_OBJ) {
        const struct kj *rule = kj_get(fatal, "rule"), *en = kj_get(fatal, "errno");
        const struct kj *msg = kj_get(fatal, "message");
        if (get_u64(fatal, "offset", &d->fatal_offset) != 0 || rule == NULL ||
            rule->type != KJ_STR)
            return kv_fail(r, l, KV_FAIL, "decoder output breaks the contract: \"fatal\" "
                           "needs \"offset\" (a number) and \"rule\" (a string)");
        d->fatal = 1;
        snprintf(d->fatal_rule, sizeof d->fatal_rule, "%s", rule->str);
        if (en && en->type == KJ_STR)
            snprintf(d->fatal_errno, sizeof d->fatal_errno, "%s", en->str);
        if (msg && msg->type == KJ_STR)
            snprintf(d->fatal_msg, sizeof d->fatal_msg, "%s", msg->str);
    } else if (fatal != NULL && fatal->type != KJ_NULL) {
        return kv_fail(r, l, KV_FAIL, "decoder output breaks the contract: \"fatal\" is "
                       "null or an object");
    }
    d->ev = calloc(evs->n ? evs->n : 1, sizeof *d->ev);
    d->err = calloc(errs->n ? errs->n : 1, sizeof *d->err);
    if (d->ev == NULL || d->err == NULL)
        return kv_fail(r, l, KV_UNRESOLVED, "out of memory");
    d->capev = evs->n;
    d->caperr = errs->n;
    for (size_t i = 0; i < evs->n; i++) {
        const struct kj *e = &evs->items[i], *w = kj_get(e, "words");
        const struct kj *comp = kj_get(e, "complete");
        struct kv_event *k = &d->ev[i];
        uint64_t cpu, cls, ev;
        if (e->type != KJ_OBJ || get_u64(e, "offset", &k->offset) || get_u64(e, "cpu", &cpu) ||
            get_u64(e, "class", &cls) || get_u64(e, "event", &ev) ||
            get_u64(e, "time", &k->time) || w == NULL || w->type != KJ_ARR || comp == NULL ||
            (comp->type != KJ_TRUE && comp->type != KJ_FALSE) || cpu > 63 || cls > 31 ||
            ev > 1023)
            return kv_fail(r, l, KV_FAIL, "decoder output breaks the contract: event %zu "
                           "needs offset, cpu (0-63), class (0-31), event (0-1023), time, "
                           "words (an array) and complete (a boolean)", i);
        k->cpu = (unsigned)cpu;
        k->cls = (unsigned)cls;
        k->event = (unsigned)ev;
        k->complete = comp->type == KJ_TRUE;
        k->words = malloc((w->n ? w->n : 1) * sizeof *k->words);
        if (k->words == NULL)
            return kv_fail(r, l, KV_UNRESOLVED, "out of memory");
        d->nev = i + 1;
        for (size_t j = 0; j < w->n; j++) {
            if (w->items[j].type != KJ_NUM || !w->items[j].is_uint || w->items[j].u > UINT32_MAX)
                return kv_fail(r, l, KV_FAIL, "decoder output breaks the contract: event %zu: "
                               "words are 32-bit unsigned numbers", i);
            k->words[j] = (uint32_t)w->items[j].u;
        }
        k->nwords = w->n;
    }
    for (size_t i = 0; i < errs->n; i++) {
        const struct kj *e = &errs->items[i], *rule = kj_get(e, "rule");
        const struct kj *kind = kj_get(e, "kind");
        if (e->type != KJ_OBJ || get_u64(e, "offset", &d->err[i].offset) || rule == NULL ||
            rule->type != KJ_STR)
            return kv_fail(r, l, KV_FAIL, "decoder output breaks the contract: error %zu "
                           "needs offset (a number) and rule (a string)", i);
        snprintf(d->err[i].rule, sizeof d->err[i].rule, "%s", rule->str);
        if (kind && kind->type == KJ_STR)
            snprintf(d->err[i].kind, sizeof d->err[i].kind, "%s", kind->str);
        d->nerr = i + 1;
    }
    for (unsigned i = 0; i < KV_NSUM; i++) {
        if (get_u64(sum, kv_summary_keys[i], &x) == 0) {
            d->sum[i] = x;
            d->have_sum |= 1u << i;
        } else if (i < KV_NSUM_REQUIRED && !d->fatal) {
            return kv_fail(r, l, KV_FAIL, "decoder output breaks the contract: summary.%s "
                           "(a number) is missing", kv_summary_keys[i]);
        }
    }
    return KV_PASS;
}

int kv_decode_external(struct kv_run *r, const struct kv_line *l)
{
    const char *tmp = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/kvec-XXXXXX", tmp && *tmp && strlen(tmp) < 4000 &&
             !strchr(tmp, '\'') ? tmp : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0)
        return kv_fail(r, l, KV_UNRESOLVED, "cannot create a temporary file: %s",
                       strerror(errno));
    size_t off = 0;
    while (off < r->len) {
        ssize_t n = write(fd, r->file + off, r->len - off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            close(fd);
            unlink(path);
            return kv_fail(r, l, KV_UNRESOLVED, "cannot write %s: %s", path, strerror(errno));
        }
        off += (size_t)n;
    }
    close(fd);
    char *cmd = command(r->decoder, path), *out = NULL, err[256];
    size_t outlen = 0;
    int rc = cmd ? run_decoder(r, l, cmd, &out, &outlen)
                 : kv_fail(r, l, KV_UNRESOLVED, "out of memory");
    unlink(path);
    free(cmd);
    if (rc == 0) {
        struct kj *root = kj_parse(out, outlen, err, sizeof err);
        if (root == NULL)
            rc = kv_fail(r, l, KV_FAIL, "decoder output is not JSON: %s", err);
        else
            rc = from_json(r, l, root);
        kj_free(root);
    }
    free(out);
    return rc;
}

