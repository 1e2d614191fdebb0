/* SPDX-License-Identifier: MIT */
/*
 * process.c -- the calling process as the tracing system sees it
 * (process.h; posix/SHARING.md).
 *
 * State forced by the API: posix_trace_event() has no stream argument, so
 * the process must know which streams it is traced into, and
 * posix_trace_eventid_open() maps names for the process (S0125, S0128).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "posix/process.h"
#include "stream/stream.h"

static _Atomic uint32_t no_block;       /* a process with no block: never posted to */
static _Atomic uint32_t not_set_up = 1; /* before the first sync */

#define PASS_WORDS (sizeof(trace_event_set_t) / sizeof(unsigned long long))
static const unsigned long long pass_none[PASS_WORDS];  /* no stream: nothing to record */
static unsigned long long pass_all[PASS_WORDS];         /* several: all set when first used */

/* "Posted" until the first sync: the first event of the process sets it up
 * (proc_sync), should it come before the library's constructor. */
struct __posixtrace_gate __posixtrace_gate = {
    .__epoch = (const unsigned int *)&not_set_up,
    .__seen = 0,
    .__pass = pass_none,
};

struct proc posixtrace_proc = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .self_fd = -1,
    .ns_fd = -1,
    .fork_fd = -1,
};

/* The names of a process that could get no block (no shared memory at all):
 * it cannot be traced by another process, its own streams work. */
static struct name_table private_names;       /* a private lock, free */

static uint64_t new_block_id(void)
{
    static _Atomic uint64_t counter;
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return ((uint64_t)getpid() << 40) ^ ((uint64_t)t.tv_nsec << 12) ^
           atomic_fetch_add(&counter, 1);
}

/* A new block (its descriptor close-on-exec), NULL if none can be made. */
static struct pb *block_create(int *fd)
{
    struct pb *b = shm_object_create(sizeof *b, NULL, fd);
    if (b == NULL)
        return NULL;
    b->magic = PB_MAGIC;
    b->id = new_block_id();
    b->ns_id = b->id;
    shm_mutex_init(&b->lock, 1);
    name_table_init(&b->names);
    return b;
}

static void block_drop(struct pb *b, int fd)
{
    if (b != NULL)
        munmap(b, sizeof *b);
    if (fd >= 0)
        close(fd);
}

/* The process's own block and name space, made when first needed (lock held). */
static void ensure_self(struct proc *p)
{
    if (p->names != NULL)
        return;
    p->self = block_create(&p->self_fd);
    if (p->self != NULL) {
        atomic_store(&p->self->pid, p->pid);
        p->ns = p->self;
        p->ns_fd = p->self_fd;
        p->names = &p->self->names;
        proc_set_posted_word(&p->self->posted);
    } else {
        p->names = &private_names;
    }
}

/* ---- the streams the process records into ------------------------------------------ */

/* After the mask changed (p->lock held): the recording path's first test. */
static void set_first_test(struct proc *p)
{
    uint64_t mask = atomic_load_explicit(&p->mask, memory_order_relaxed);
    struct stream *one = NULL;
    const unsigned long long *pass = pass_none;
    if (mask != 0 && (mask & (mask - 1)) == 0) {
        one = atomic_load_explicit(&p->att[__builtin_ctzll(mask)].s, memory_order_relaxed);
        pass = (const unsigned long long *)one->pass;      /* same size and bits */
    } else if (mask != 0) {
        for (size_t w = 0; w < PASS_WORDS; w++)
            __atomic_store_n(&pass_all[w], ~0ull, __ATOMIC_RELAXED);
        pass = pass_all;
    }
    atomic_store_explicit(&p->one, one, memory_order_release);
    __atomic_store_n(&__posixtrace_gate.__pass, pass, __ATOMIC_RELEASE);
}

static int attach_locked(struct proc *p, struct stream *s, size_t len, int fd, int owned)
{
    for (int i = 0; i < 64; i++) {
        struct attached *a = &p->att[i];
        if (atomic_load_explicit(&a->s, memory_order_relaxed) != NULL)
            continue;
        a->len = len;
        a->fd = fd;
        a->owned = owned;
        atomic_store_explicit(&a->s, s, memory_order_relaxed);
        atomic_fetch_or_explicit(&p->mask, (uint64_t)1 << i, memory_order_release);
        set_first_test(p);
        return 0;
    }
    return EAGAIN;
}

/* Entry i leaves the list.  A thread may still be recording into its stream
 * (it read the mask before): an owned mapping is retired, not unmapped,
 * unless the process is single-threaded (the child of fork). */
static void detach_entry(struct proc *p, int i, int single_threaded)
{
    struct attached *a = &p->att[i];
    struct stream *s = atomic_load_explicit(&a->s, memory_order_relaxed);
    atomic_fetch_and_explicit(&p->mask, ~((uint64_t)1 << i), memory_order_release);
    atomic_store_explicit(&a->s, NULL, memory_order_relaxed);
    set_first_test(p);
    if (a->owned) {
        if (single_threaded)
            munmap(s, a->len);
        else
            shm_object_retire(s, a->len);
        if (a->fd >= 0)
            close(a->fd);
    }
    a->fd = -1;
    a->owned = 0;
}

int proc_attach(struct stream *s, size_t len, int fd, int owned)
{
    struct proc *p = &posixtrace_proc;
    pthread_mutex_lock(&p->lock);
    int rc = attach_locked(p, s, len, fd, owned);
    pthread_mutex_unlock(&p->lock);
    return rc;
}

static int find_entry(struct proc *p, const struct stream *s)
{
    for (int i = 0; i < 64; i++)
        if (atomic_load_explicit(&p->att[i].s, memory_order_relaxed) == s)
            return i;
    return -1;
}

int proc_detach(struct stream *s)
{
    struct proc *p = &posixtrace_proc;
    pthread_mutex_lock(&p->lock);
    int i = find_entry(p, s);
    if (i >= 0)
        detach_entry(p, i, 0);
    pthread_mutex_unlock(&p->lock);
    return i >= 0;
}

int proc_adopt(struct stream *s, size_t len, int fd)
{
    struct proc *p = &posixtrace_proc;       /* the child's: single-threaded */
    int i = find_entry(p, s);
    if (i < 0)
        return 0;
    p->att[i].owned = 1;
    p->att[i].len = len;
    p->att[i].fd = fd;
    shm_set_cloexec(fd, 0);             /* a traced process stays traced across exec */
    return 1;
}

/* Maps the stream object open on fd; NULL (fd closed) unless it is an
 * active stream. */
static struct stream *map_stream(int fd, size_t *len)
{
    struct stream *s = shm_object_map(fd, sizeof *s, len);
    if (s != NULL && s->magic == STREAM_MAGIC && s->map_len == *len &&
        s->state == SLOT_ACTIVE)
        return s;
    if (s != NULL)
        munmap(s, *len);
    close(fd);
    return NULL;
}

/* Drops the owned entries whose stream was shut down (lock held). */
static void drop_dead(struct proc *p)
{
    for (int i = 0; i < 64; i++) {
        struct stream *s = atomic_load_explicit(&p->att[i].s, memory_order_relaxed);
        if (s != NULL && p->att[i].owned && s->state != SLOT_ACTIVE)
            detach_entry(p, i, 0);
    }
}

static void sync_streams(struct proc *p)
{
    pthread_mutex_lock(&p->lock);
    drop_dead(p);
    if (__atomic_load_n(&__posixtrace_gate.__epoch, __ATOMIC_RELAXED) ==
        (const unsigned int *)&not_set_up)
        proc_set_posted_word(p->self != NULL ? &p->self->posted : &no_block);
    if (p->self != NULL) {
        /* Cleared before the list is read: a stream posted after the
         * reading sets it again (proc_post), so none is missed. */
        atomic_store(&p->self->posted, 0);
        shm_lock(&p->self->lock);
        for (int i = 0; i < PB_ATTACH_MAX; i++) {
            char *name = p->self->attach[i];
            if (name[0] == '\0')
                continue;
            int fd = shm_open(name, O_RDWR, 0);
            shm_unlink(name);           /* the object lives on while mapped */
            name[0] = '\0';
            size_t len;
            struct stream *s = fd >= 0 ? map_stream(fd, &len) : NULL;
            if (s == NULL)
                continue;
            if (attach_locked(p, s, len, fd, 1) != 0) {
                munmap(s, len);
                close(fd);
                continue;
            }
            shm_set_cloexec(fd, 0);     /* kept across exec: S0321 */
        }
        shm_unlock(&p->self->lock);
    }
    pthread_mutex_unlock(&p->lock);
}

void proc_sync(void)
{
    proc_setup();
    sync_streams(&posixtrace_proc);
}

/* ---- controllers: the processes a controller may trace ------------------------------ */

/* Does a stream of the controller's table read these names?  The table
 * says so (stream_table.c sets this up before it has a stream); none
 * does while it is not set. */
static int (*names_in_use)(const struct name_table *names);

void proc_names_in_use_by(int (*in_use)(const struct name_table *names))
{
    names_in_use = in_use;
}

/* Gives up blocks of children that were reaped, unless a stream still reads
 * their names (lock held). */
static void forget_reaped_children(struct proc *p)
{
    unsigned j = 0;
    for (unsigned i = 0; i < p->nchildren; i++) {
        struct pb *b = p->children[i];
        pid_t pid = atomic_load(&b->pid);
        siginfo_t si;
        si.si_pid = 0;
        int reaped = pid > 0 && waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0
                     && errno == ECHILD;
        if (reaped && !(names_in_use != NULL && names_in_use(&b->names)))
            munmap(b, sizeof *b);
        else
            p->children[j++] = b;
    }
    p->nchildren = j;
}

static struct pb *child_block(struct proc *p, pid_t pid, int *pending)
{
    *pending = 0;
    for (unsigned i = 0; i < p->nchildren; i++) {
        pid_t c = atomic_load(&p->children[i]->pid);
        if (c == pid)
            return p->children[i];
        *pending |= c == 0;
    }
    return NULL;
}

int proc_target(pid_t pid, struct pb **target)
{
    struct proc *p = &posixtrace_proc;
    *target = NULL;
    if (pid == 0 || pid == p->pid)
        return 0;                                       /* S0089 */
    if (pid < 0 || (kill(pid, 0) != 0 && errno == ESRCH))
        return ESRCH;                                   /* S0118 */
    /* The permission model (posix/CHOICES.md): a controller may trace the children
     * it forked while it used the library, as long as they run. */
    siginfo_t si;
    si.si_pid = 0;
    if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0)
        return EPERM;                                   /* not a child: S0088 */
    if (si.si_pid == pid)
        return ESRCH;                                   /* it has ended */
    pthread_mutex_lock(&p->lock);
    int pending;
    struct pb *b = child_block(p, pid, &pending);
    /* A child just forked may not have written its pid yet: it does so
     * before fork() returns in it, so a short wait settles it. */
    for (int tries = 0; b == NULL && pending && tries < 2000; tries++) {
        pthread_mutex_unlock(&p->lock);
        nanosleep(&(struct timespec){ 0, 500000 }, NULL);
        pthread_mutex_lock(&p->lock);
        b = child_block(p, pid, &pending);
    }
    pthread_mutex_unlock(&p->lock);
    if (b == NULL)
        return EPERM;           /* not forked through the library (posix_spawn) */
    *target = b;
    return 0;
}

/* Is the posted entry's stream gone?  Shutdown unlinks the object of a
 * stream its traced process never opened (stream.c: slot_free); names are
 * never reused (shm_object_create), so the entry is dead for good. */
static int posted_gone(const char *name)
{
    int fd = shm_open(name, O_RDONLY, 0);
    if (fd >= 0)
        close(fd);
    return fd < 0 && errno == ENOENT;
}

/* A place in target's list for a new stream (its lock held): a free one,
 * else one whose stream was shut down before the child ever took it (a
 * child that has not recorded since keeps them: shutdown.frees); -1 if
 * none.  The second walk opens objects: only when the list is full. */
static int post_place(struct pb *target)
{
    for (int i = 0; i < PB_ATTACH_MAX; i++)
        if (target->attach[i][0] == '\0')
            return i;
    for (int i = 0; i < PB_ATTACH_MAX; i++)
        if (posted_gone(target->attach[i]))
            return i;
    return -1;
}

int proc_post(struct pb *target, const char *name)
{
    shm_lock(&target->lock);
    int i = post_place(target);
    if (i >= 0)
        memcpy(target->attach[i], name, SHM_NAME_MAX);
    shm_unlock(&target->lock);
    if (i < 0)
        return EAGAIN;
    atomic_store(&target->posted, 1);          /* after the name: sync_streams */
    return 0;
}

struct name_table *proc_names(void)
{
    proc_setup();
    struct proc *p = &posixtrace_proc;
    pthread_mutex_lock(&p->lock);
    ensure_self(p);
    struct name_table *t = p->names;
    pthread_mutex_unlock(&p->lock);
    return t;
}

struct name_table *proc_names_of(struct pb *target)
{
    if (target == NULL || target->ns_shared)
        return proc_names();    /* the child shares its parent's (the caller's) */
    return &target->names;
}

/* ---- fork ------------------------------------------------------------------------ */

/* Does a child forked now stay traced into s?  (S0317-S0319) */
static int child_inherits(const struct stream *s)
{
    return s->inherit == POSIX_TRACE_INHERITED && s->state == SLOT_ACTIVE;
}

static int inherits_any(struct proc *p)
{
    for (int i = 0; i < 64; i++) {
        struct stream *s = atomic_load_explicit(&p->att[i].s, memory_order_relaxed);
        if (s != NULL && child_inherits(s))
            return 1;
    }
    return 0;
}

static void proc_prepare_fork(void)
{
    struct proc *p = &posixtrace_proc;
    /* A stream posted to this process that it has not attached yet (it
     * recorded nothing since) is inherited all the same (S0298). */
    if (proc_posted())
        sync_streams(p);
    pthread_mutex_lock(&p->lock);
    ensure_self(p);
    forget_reaped_children(p);
    struct pb *b = block_create(&p->fork_fd);
    if (b != NULL) {
        if (inherits_any(p) && p->ns != NULL) {
            b->ns_shared = 1;                           /* S0317 */
            b->ns_id = p->ns->id;
        } else {
            name_table_copy(&b->names, p->names);       /* what fork copies anyway */
        }
    }
    p->fork_pb = b;
}

static void proc_after_fork_parent(void)
{
    struct proc *p = &posixtrace_proc;
    struct pb *b = p->fork_pb;
    if (b != NULL) {
        if (p->nchildren == p->children_cap) {
            unsigned cap = p->children_cap ? 2 * p->children_cap : 8;
            struct pb **c = realloc(p->children, cap * sizeof *c);
            if (c != NULL) {
                p->children = c;
                p->children_cap = cap;
            }
        }
        if (p->nchildren < p->children_cap)
            p->children[p->nchildren++] = b;
        else
            munmap(b, sizeof *b);       /* the child cannot be traced by pid */
        close(p->fork_fd);
    }
    p->fork_pb = NULL;
    p->fork_fd = -1;
    pthread_mutex_unlock(&p->lock);
}

static void proc_after_fork_child(void)
{
    struct proc *p = &posixtrace_proc;
    p->pid = getpid();
    int kept = 0;
    for (int i = 0; i < 64; i++) {
        struct stream *s = atomic_load_explicit(&p->att[i].s, memory_order_relaxed);
        if (s == NULL)
            continue;
        if (child_inherits(s))
            kept = 1;                                   /* S0317 */
        else
            detach_entry(p, i, 1);                      /* S0318, S0319 */
    }
    for (unsigned i = 0; i < p->nchildren; i++)
        munmap(p->children[i], sizeof *p->children[i]);     /* the parent's */
    free(p->children);
    p->children = NULL;
    p->nchildren = p->children_cap = 0;

    struct pb *parent = p->self, *ns = p->ns;
    int parent_fd = p->self_fd, ns_fd = p->ns_fd;
    struct pb *b = p->fork_pb;
    p->fork_pb = NULL;
    /* The block's posted word is 0 until the parent posts a stream, which
     * it can do as soon as the pid below is visible: the next event syncs. */
    if (b != NULL) {
        atomic_store(&b->pid, p->pid);
        p->self = b;
        p->self_fd = p->fork_fd;
        shm_set_cloexec(p->self_fd, 0);     /* found again after exec */
        proc_set_posted_word(&b->posted);
        if (!(kept && b->ns_shared && ns != NULL)) {
            b->ns_shared = 0;
            b->ns_id = b->id;
            p->ns = b;
            p->ns_fd = p->self_fd;
            p->names = &b->names;
        } else {
            shm_set_cloexec(ns_fd, 0);
        }
    } else {
        /* No block: the child keeps its parent's names, and cannot be
         * traced by pid. */
        p->self = NULL;
        p->self_fd = -1;
        proc_set_posted_word(&no_block);
    }
    p->fork_fd = -1;
    if (parent != NULL && parent != p->ns)
        block_drop(parent, parent_fd);
    if (ns != NULL && ns != p->ns && ns != parent)
        block_drop(ns, ns_fd);
    pthread_mutex_unlock(&p->lock);
}

/* ---- after exec: finding the process's block and streams again --------------------- */

struct found {
    int   fd;
    void *map;
    size_t len;
    uint64_t magic;
};

/* Is fd one of the library's objects?  Fills f (mapping kept) if so. */
static int probe_fd(int fd, struct found *f)
{
    struct stat sb;
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || (fl & O_ACCMODE) != O_RDWR || fstat(fd, &sb) != 0 ||
        !S_ISREG(sb.st_mode) || (size_t)sb.st_size < sizeof(uint64_t) * 4)
        return 0;
    uint64_t magic;
    if (pread(fd, &magic, sizeof magic, 0) != (ssize_t)sizeof magic ||
        (magic != PB_MAGIC && magic != STREAM_MAGIC))
        return 0;
    size_t min = magic == PB_MAGIC ? sizeof(struct pb) : sizeof(struct stream);
    f->map = shm_object_map(fd, min, &f->len);
    if (f->map == NULL)
        return 0;
    f->fd = fd;
    f->magic = magic;
    return 1;
}

#define FOUND_MAX 160

static int scan_fds(struct found *f)
{
    int n = 0;
    DIR *d = opendir("/proc/self/fd");
    if (d != NULL) {
        int fds[FOUND_MAX], nfds = 0;
        struct dirent *e;
        while ((e = readdir(d)) != NULL && nfds < FOUND_MAX) {
            char *end;
            long fd = strtol(e->d_name, &end, 10);
            if (*end == '\0' && end != e->d_name && fd != dirfd(d))
                fds[nfds++] = (int)fd;
        }
        closedir(d);
        for (int i = 0; i < nfds && n < FOUND_MAX; i++)
            n += probe_fd(fds[i], &f[n]);
    } else {
        for (int fd = 0; fd < 1024 && n < FOUND_MAX; fd++)
            n += probe_fd(fd, &f[n]);
    }
    return n;
}

/* A new image (exec) of a traced process stays traced into the same
 * streams (S0321): the descriptors of its block and streams survived exec. */
static void find_after_exec(struct proc *p)
{
    struct found *f = calloc(FOUND_MAX, sizeof *f);
    if (f == NULL)
        return;
    int n = scan_fds(f), own = -1;
    for (int i = 0; i < n && own < 0; i++)
        if (f[i].magic == PB_MAGIC && atomic_load(&((struct pb *)f[i].map)->pid) == p->pid)
            own = i;
    int traced = 0;
    for (int i = 0; i < n; i++) {
        if (f[i].magic != STREAM_MAGIC)
            continue;
        struct stream *s = f[i].map;
        if (own >= 0 && s->map_len == f[i].len && s->state == SLOT_ACTIVE &&
            attach_locked(p, s, f[i].len, f[i].fd, 1) == 0) {
            traced = 1;
            f[i].map = NULL;
        } else if (own >= 0) {
            munmap(s, f[i].len);        /* a stream that ended: the fd is ours */
            close(f[i].fd);
            f[i].map = NULL;
        }
    }
    if (own >= 0) {
        struct pb *b = f[own].map;
        p->self = b;
        p->self_fd = f[own].fd;
        proc_set_posted_word(&b->posted);
        p->ns = b;
        p->ns_fd = p->self_fd;
        for (int i = 0; i < n && traced && b->ns_shared; i++)
            if (f[i].magic == PB_MAGIC && i != own && ((struct pb *)f[i].map)->id == b->ns_id) {
                p->ns = f[i].map;       /* names shared with the family (S0128) */
                p->ns_fd = f[i].fd;
            }
        if (p->ns == b && b->ns_shared) {
            b->ns_shared = 0;
            b->ns_id = b->id;
        }
        if (!traced)
            name_table_clear(&b->names);    /* S0321: no mapping inherited */
        p->names = &p->ns->names;
        f[own].map = NULL;
        for (int i = 0; i < n; i++)
            if (f[i].map == p->ns)
                f[i].map = NULL;
    }
    /* Blocks of other processes (inherited descriptors) are not ours to
     * keep mapped; their descriptors are left as they are. */
    for (int i = 0; i < n; i++)
        if (f[i].map != NULL)
            munmap(f[i].map, f[i].len);
    free(f);
}

static void proc_init(void)
{
    struct proc *p = &posixtrace_proc;
    pthread_mutex_lock(&p->lock);
    p->pid = getpid();
    find_after_exec(p);
    pthread_mutex_unlock(&p->lock);
    sync_streams(p);                    /* streams posted before exec */
}

static pthread_once_t proc_once = PTHREAD_ONCE_INIT;

/* The fork handlers go first: the table's, registered after them
 * (stream_table.c), lock before them and let go after them. */
static void proc_setup_once(void)
{
    proc_init();
    pthread_atfork(proc_prepare_fork, proc_after_fork_parent, proc_after_fork_child);
}

void proc_setup(void)
{
    pthread_once(&proc_once, proc_setup_once);
}
