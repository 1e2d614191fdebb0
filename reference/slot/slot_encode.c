/* SPDX-License-Identifier: MIT */
/*
 * slot_encode.c -- the encoder of the slot codec (slot_codec.h): events into
 * simple and combine slots (KSP-7, KSP-8), byte and string payloads
 * (KSP-10, KSP-11), the external-to-internal class map (KSP-6) and the
 * per-CPU timestamps (KSP-9).
 */
#include <errno.h>
#include <string.h>
#include "slot/slot_codec.h"

_Static_assert(SLOT_CLASS_USER << 10 == _TRACE_USER_C, "class codes are the shifted ones");
_Static_assert(_TRACE_BUFFER_SLOTS - _TRACE_BUFFER_RESERVE == _TRACE_BUFFER_HIGH_WATER,
               "KSP-20: high-water mark is 1014 - 300");

/* Checks the key and the room; on success *first is the header of the first
 * slot with its struct flag still S. */
static int check_key(const struct slot_key *key, size_t need, traceevent_t *out, size_t cap,
                     size_t *nslots, uint32_t *first)
{
    if (key == NULL || nslots == NULL)
        return EINVAL;
    if (key->cpu > SLOT_CPU_MAX)
        return ERANGE;
    if (key->cls >= SLOT_NCLASSES)
        return EINVAL;
    if (out == NULL && cap > 0)
        return EINVAL;
    *nslots = need;
    if (cap < need)
        return ENOSPC;
    *first = slot_header(_TRACE_STRUCT_S, key->cpu, key->cls, key->event);
    return 0;
}

/* The flag of slot i of an event of n slots. */
static uint32_t flag_of(size_t i, size_t n)
{
    if (n == 1)
        return _TRACE_STRUCT_S;
    if (i == 0)
        return _TRACE_STRUCT_CB;
    return i == n - 1 ? _TRACE_STRUCT_CE : _TRACE_STRUCT_CC;
}

int slot_encode_words(const struct slot_key *key, const uint32_t *words, size_t nwords,
                      traceevent_t *out, size_t cap, size_t *nslots)
{
    uint32_t h;
    size_t n = slot_count(nwords);
    int rc;

    if (words == NULL && nwords > 0)
        return EINVAL;
    if ((rc = check_key(key, n, out, cap, nslots, &h)) != 0)
        return rc;
    for (size_t i = 0; i < n; i++) {
        size_t w = 2 * i;
        out[i].header = h | flag_of(i, n);
        out[i].data[0] = key->ts_low;
        out[i].data[1] = w < nwords ? words[w] : 0;
        out[i].data[2] = w + 1 < nwords ? words[w + 1] : 0;
    }
    return 0;
}

/* Word i of a byte payload: little-endian, zero past the end (KSP-10). */
static uint32_t byte_word(const unsigned char *b, size_t nbytes, size_t i)
{
    size_t at = 4 * i;
    return at < nbytes ? slot_le_word(b + at, nbytes - at) : 0;
}

int slot_encode_bytes(const struct slot_key *key, const void *bytes, size_t nbytes,
                      traceevent_t *out, size_t cap, size_t *nslots)
{
    const unsigned char *b = bytes;
    size_t nwords = nbytes / 4 + (nbytes % 4 != 0);
    size_t n = slot_count(nwords);
    uint32_t h;
    int rc;

    if (bytes == NULL && nbytes > 0)
        return EINVAL;
    if ((rc = check_key(key, n, out, cap, nslots, &h)) != 0)
        return rc;
    for (size_t i = 0; i < n; i++) {
        out[i].header = h | flag_of(i, n);
        out[i].data[0] = key->ts_low;
        out[i].data[1] = byte_word(b, nbytes, 2 * i);
        out[i].data[2] = byte_word(b, nbytes, 2 * i + 1);
    }
    return 0;
}

/* With its NUL, a string of n characters is n + 1 bytes: the byte encoding
 * then gives exactly KSP-11's "eight bytes per slot" (an S slot up to 8
 * bytes, ceil(bytes / 8) slots above). */
int slot_encode_string(const struct slot_key *key, const char *str,
                       traceevent_t *out, size_t cap, size_t *nslots)
{
    if (str == NULL)
        return EINVAL;
    return slot_encode_bytes(key, str, strlen(str) + 1, out, cap, nslots);
}

int slot_external_to_internal(int ext_class, unsigned code, unsigned *cls, unsigned *event)
{
    unsigned c, e;

    if (cls == NULL || event == NULL)
        return EINVAL;
    switch (ext_class) {
    case _NTO_TRACE_EMPTY:   c = SLOT_CLASS_EMPTY;   e = code; break;
    case _NTO_TRACE_CONTROL: c = SLOT_CLASS_CONTROL; e = code; break;
    case _NTO_TRACE_USER:    c = SLOT_CLASS_USER;    e = code; break;
    case _NTO_TRACE_SYSTEM:  c = SLOT_CLASS_SYSTEM;  e = code; break;
    case _NTO_TRACE_COMM:    c = SLOT_CLASS_COMM;    e = code; break;
    case _NTO_TRACE_KERCALLENTER:
    case _NTO_TRACE_KERCALLEXIT:
    case _NTO_TRACE_KERCALLINT:
        if (code >= _TRACE_MAX_KER_CALL_NUM)
            return EINVAL;
        c = SLOT_CLASS_KER_CALL;
        e = code + (ext_class == _NTO_TRACE_KERCALLENTER ? _TRACE_KER_CALL_ENTER_OFF :
                    ext_class == _NTO_TRACE_KERCALLEXIT ? _TRACE_KER_CALL_EXIT_OFF :
                                                          _TRACE_KER_CALL_INT_OFF);
        break;
    case _NTO_TRACE_INTENTER:          c = SLOT_CLASS_INT; e = _TRACE_INT_ENTRY; break;
    case _NTO_TRACE_INTEXIT:           c = SLOT_CLASS_INT; e = _TRACE_INT_EXIT; break;
    case _NTO_TRACE_INT_HANDLER_ENTER: c = SLOT_CLASS_INT; e = _TRACE_INT_HANDLER_ENTRY; break;
    case _NTO_TRACE_INT_HANDLER_EXIT:  c = SLOT_CLASS_INT; e = _TRACE_INT_HANDLER_EXIT; break;
    case _NTO_TRACE_PROCESS:
        if (code != _TRACE_PR_TH_CREATE_P && code != _TRACE_PR_TH_DESTROY_P &&
            code != _TRACE_PR_TH_CREATE_P_NAME && code != _TRACE_PR_TH_DESTROY_P_NAME &&
            code != _TRACE_PR_TH_NAME_T)
            return EINVAL;
        c = SLOT_CLASS_PR_TH;
        e = code;
        break;
    case _NTO_TRACE_THREAD:
    case _NTO_TRACE_VTHREAD:
        if (code > _TRACE_PR_TH_DESTROY_T)
            return EINVAL;
        c = SLOT_CLASS_PR_TH;
        e = code + (ext_class == _NTO_TRACE_VTHREAD ? _TRACE_PR_TH_VTHREAD_OFF : 0);
        break;
    default:    /* KERCALL and INT name several events; others are unknown */
        return EINVAL;
    }
    if (e > _TRACE_EVENT_MASK)
        return EINVAL;
    *cls = c;
    *event = e;
    return 0;
}

void slot_clock_init(struct slot_clock *c)
{
    memset(c, 0, sizeof *c);
}

int slot_clock_stamp(struct slot_clock *c, unsigned cpu, uint64_t now, uint64_t *ts,
                     int *new_high)
{
    uint64_t bit, t;

    if (c == NULL || ts == NULL)
        return EINVAL;
    if (cpu > SLOT_CPU_MAX)
        return ERANGE;
    bit = (uint64_t)1 << cpu;
    t = now;
    /* KSP-9: a clock that has not moved (or went back) still gives a new,
     * later timestamp, so that no two events of a CPU share one. */
    if ((c->stamped & bit) && t <= c->last[cpu])
        t = c->last[cpu] + 1;
    if (new_high)
        *new_high = (c->stamped & bit) && (t >> 32) != (c->last[cpu] >> 32);
    c->stamped |= bit;
    c->last[cpu] = t;
    *ts = t;
    return 0;
}
