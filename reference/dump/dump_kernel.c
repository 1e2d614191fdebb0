/* SPDX-License-Identifier: MIT */
/*
 * dump_kernel.c -- the kernel layer of the trace dumper: names every class
 * and event of KSP-5/KSP-6 and decodes the arguments the protocol defines
 * (TIME, BUFFER, DROPPED) or the simulator writes (reference/kernel/KERNEL.md
 * lists them).  Kernel calls are shown by number.
 *
 * Whatever the event, only ev->nwords words are read, and names are built
 * with snprintf into fixed buffers: a hostile payload cannot make it read
 * or write out of bounds.
 */
#include <stdio.h>
#include <string.h>
#include "dump/dump.h"

static const char *const class_names[SLOT_NCLASSES] = {
    "EMPTY", "CONTROL", "KER_CALL", "INT", "PR_TH", "SYSTEM", "USER", "COMM",
};

/* QNX's thread states, in their order (KSP-6: a thread entering state s is
 * event s). */
static const char *const thread_states[] = {
    "DEAD", "RUNNING", "READY", "STOPPED", "SEND", "RECEIVE", "REPLY", "STACK",
    "WAITTHREAD", "WAITPAGE", "SIGSUSPEND", "SIGWAITINFO", "NANOSLEEP", "MUTEX", "CONDVAR",
    "JOIN", "INTR", "SEM", "WAITCTX", "NET_SEND", "NET_REPLY",
};

/* The communication events, by QNX 6's codes (_NTO_TRACE_COMM_SMSG 0 ...
 * _NTO_TRACE_COMM_ERROR 11; traceprinter's SND_MESSAGE ... MSG_ERROR):
 * reference/kernel/KERNEL.md, "Stock QNX tools". */
static const char *const comm_names[] = { "smsg", "spulse", "rmsg", "rpulse", "spulse_exe",
                                          "spulse_dis", "spulse_dea", "spulse_un", "spulse_qun",
                                          "signal", "reply", "error" };

const char *dump_class_name(unsigned cls)
{
    return cls < SLOT_NCLASSES ? class_names[cls] : "reserved";
}

void dump_add_num(struct dump_desc *d, const char *key, uint64_t v, int hex)
{
    if (d->nargs >= DUMP_MAX_ARGS)
        return;
    d->args[d->nargs++] = (struct dump_arg){ .key = key, .num = v, .hex = hex };
}

void dump_add_bytes(struct dump_desc *d, const char *key, const uint32_t *words,
                    uint32_t nwords)
{
    if (d->nargs >= DUMP_MAX_ARGS || d->nstrs >= sizeof d->strs / sizeof d->strs[0])
        return;
    char *s = d->strs[d->nstrs++];
    size_t at = 0, nbytes = (size_t)nwords * 4;
    for (size_t i = 0; i < nbytes; i++) {
        unsigned char c = (unsigned char)(words[i / 4] >> (8 * (i % 4)));
        if (c == '\0')
            break;
        if (at + 5 > DUMP_STR_MAX)     /* room for "\xHH" and the NUL */
            break;
        if (c >= 0x20 && c < 0x7f && c != '\\' && c != '"')
            s[at++] = (char)c;
        else
            at += (size_t)snprintf(s + at, DUMP_STR_MAX - at, "\\x%02x", c);
    }
    s[at] = '\0';
    d->args[d->nargs++] = (struct dump_arg){ .key = key, .is_str = 1, .str = s };
}

/* The words a payload has, 0 past its end. */
static uint32_t word(const struct slot_event *ev, uint32_t i)
{
    return i < ev->nwords ? ev->words[i] : 0;
}

static void control(const struct slot_event *ev, struct dump_desc *d)
{
    switch (ev->event) {
    case _TRACE_CONTROL_TIME:
        snprintf(d->name, sizeof d->name, "TIME");
        dump_add_num(d, "high", word(ev, 0), 1);
        dump_add_num(d, "low", word(ev, 1), 1);
        break;
    case _TRACE_CONTROL_BUFFER:
        snprintf(d->name, sizeof d->name, "BUFFER");
        dump_add_num(d, "seq", word(ev, 0), 0);
        dump_add_num(d, "slots", word(ev, 1), 0);
        break;
    case _TRACE_CONTROL_DROPPED:
        snprintf(d->name, sizeof d->name, "DROPPED");
        dump_add_num(d, "events", word(ev, 0), 0);
        dump_add_num(d, "slots", word(ev, 1), 0);
        break;
    default:
        snprintf(d->name, sizeof d->name, "control:%u", ev->event);
        break;
    }
}

static void ker_call(const struct slot_event *ev, struct dump_desc *d)
{
    static const char *const kind[] = { "enter", "exit", "int" };
    unsigned k = ev->event % _TRACE_MAX_KER_CALL_NUM, part = ev->event / _TRACE_MAX_KER_CALL_NUM;
    if (part < 3)
        snprintf(d->name, sizeof d->name, "%s:%u", kind[part], k);
    else
        snprintf(d->name, sizeof d->name, "ker_call:%u", ev->event);
}

static void interrupt(const struct slot_event *ev, struct dump_desc *d)
{
    switch (ev->event) {
    case _TRACE_INT_ENTRY:
        snprintf(d->name, sizeof d->name, "entry");
        dump_add_num(d, "vector", word(ev, 0), 0);
        dump_add_num(d, "ip", word(ev, 1), 1);
        break;
    case _TRACE_INT_EXIT:
        snprintf(d->name, sizeof d->name, "exit");
        dump_add_num(d, "vector", word(ev, 0), 0);
        break;
    case _TRACE_INT_HANDLER_ENTRY:
        snprintf(d->name, sizeof d->name, "handler_entry");
        dump_add_num(d, "pid", word(ev, 0), 0);
        dump_add_num(d, "tid", word(ev, 1), 0);
        dump_add_num(d, "handler", word(ev, 2), 1);
        break;
    case _TRACE_INT_HANDLER_EXIT:
        snprintf(d->name, sizeof d->name, "handler_exit");
        dump_add_num(d, "pid", word(ev, 0), 0);
        break;
    default:
        snprintf(d->name, sizeof d->name, "int:%u", ev->event);
        break;
    }
}

static void pr_th(const struct slot_event *ev, struct dump_desc *d)
{
    unsigned e = ev->event;
    const char *first = "pid", *second = "tid";

    if (e < 2 * _TRACE_PR_TH_VTHREAD_OFF) {
        const char *who = e < _TRACE_PR_TH_VTHREAD_OFF ? "thread" : "vthread";
        unsigned s = e % _TRACE_PR_TH_VTHREAD_OFF;
        if (s == _TRACE_PR_TH_CREATE_T)
            snprintf(d->name, sizeof d->name, "%s_create", who);
        else if (s == _TRACE_PR_TH_DESTROY_T)
            snprintf(d->name, sizeof d->name, "%s_destroy", who);
        else if (s < sizeof thread_states / sizeof thread_states[0])
            snprintf(d->name, sizeof d->name, "%s:%s", who, thread_states[s]);
        else
            snprintf(d->name, sizeof d->name, "%s:state%u", who, s);
    } else if (e == _TRACE_PR_TH_CREATE_P || e == _TRACE_PR_TH_CREATE_P_NAME ||
               e == _TRACE_PR_TH_DESTROY_P || e == _TRACE_PR_TH_DESTROY_P_NAME) {
        snprintf(d->name, sizeof d->name, "process_%s%s",
                 e == _TRACE_PR_TH_CREATE_P || e == _TRACE_PR_TH_CREATE_P_NAME ? "create"
                                                                                : "destroy",
                 e == _TRACE_PR_TH_CREATE_P_NAME || e == _TRACE_PR_TH_DESTROY_P_NAME ? "_name"
                                                                                      : "");
        first = "ppid";
        second = "pid";
    } else if (e == _TRACE_PR_TH_NAME_T) {
        snprintf(d->name, sizeof d->name, "thread_name");
    } else {
        snprintf(d->name, sizeof d->name, "pr_th:%u", e);
        return;
    }
    dump_add_num(d, first, word(ev, 0), 0);
    dump_add_num(d, second, word(ev, 1), 0);
    if ((e == _TRACE_PR_TH_CREATE_P_NAME || e == _TRACE_PR_TH_DESTROY_P_NAME ||
         e == _TRACE_PR_TH_NAME_T) && ev->nwords > 2)
        dump_add_bytes(d, "name", ev->words + 2, ev->nwords - 2);
}

/* A user payload that reads as a string: printable bytes, a NUL, then only
 * zeros (a string event, KSP-11, or a string in words). */
static int looks_like_string(const struct slot_event *ev)
{
    size_t n = (size_t)ev->nwords * 4, i = 0;
    for (; i < n; i++) {
        unsigned char c = (unsigned char)(ev->words[i / 4] >> (8 * (i % 4)));
        if (c == '\0')
            break;
        if (c < 0x20 || c >= 0x7f)
            return 0;
    }
    if (i == 0 || i == n)
        return 0;
    for (; i < n; i++)
        if ((unsigned char)(ev->words[i / 4] >> (8 * (i % 4))) != 0)
            return 0;
    return 1;
}

void dump_kernel_describe(const struct slot_event *ev, struct dump_desc *d)
{
    d->class_name = dump_class_name(ev->cls);
    switch (ev->cls) {
    case SLOT_CLASS_CONTROL:
        control(ev, d);
        break;
    case SLOT_CLASS_KER_CALL:
        ker_call(ev, d);
        break;
    case SLOT_CLASS_INT:
        interrupt(ev, d);
        break;
    case SLOT_CLASS_PR_TH:
        pr_th(ev, d);
        break;
    case SLOT_CLASS_USER:
        snprintf(d->name, sizeof d->name, "user:%u", ev->event);
        if (looks_like_string(ev))
            dump_add_bytes(d, "string", ev->words, ev->nwords);
        break;
    case SLOT_CLASS_COMM:
        if (ev->event < sizeof comm_names / sizeof comm_names[0])
            snprintf(d->name, sizeof d->name, "%s", comm_names[ev->event]);
        else
            snprintf(d->name, sizeof d->name, "comm:%u", ev->event);
        break;
    case SLOT_CLASS_SYSTEM:
        snprintf(d->name, sizeof d->name, "system:%u", ev->event);
        break;
    default:
        snprintf(d->name, sizeof d->name, "%s:%u", d->class_name, ev->event);
        break;
    }
}
