/* SPDX-License-Identifier: MIT */
/*
 * attr_sizes.c -- the size attributes (XSH posix_trace_attr_getlogsize):
 * posix_trace_attr_get/setmaxdatasize(), posix_trace_attr_get/setstreamsize(),
 * posix_trace_attr_getmaxsystemeventsize(), posix_trace_attr_getmaxusereventsize(),
 * and the guarantee that ties them together (S0054: events whose maximum
 * sizes add up to at most stream-min-size are recorded without loss).
 *
 * Portable: no default size is assumed; the tests read the defaults and the
 * event sizes from the implementation and record them as notes.  A size a
 * setter refuses (EINVAL: "may fail") is not an error of the roundtrip rules,
 * which concern accepted values; a test that finds no accepted value ends
 * UNRESOLVED.
 *
 * Exact checks (reference only): the getters' EINVAL needs a NULL pointer or a
 * destroyed object, undefined behaviour portably; those tests run only when the
 * build says the implementation is the reference (CT_HAVE_POSIX_TRACE_SYSCONF,
 * defined by mk/harness.mk for it alone) and are UNTESTED otherwise.
 *
 * Not tested here, and why:
 *   attr_getlogsize / attr_setlogsize behaviour: TRL rules (only their return
 *   convention is checked here, when TRL is supported).
 */
#include <stdint.h>
#include <stdlib.h>
#include "ct.h"
#include "ct_stream.h"

/* ---- max-data-size ------------------------------------------------------------- */

CT_TEST(maxdatasize_roundtrip, "attr_setmaxdatasize.roundtrip", "TRC",
        "posix_trace_attr_setmaxdatasize,posix_trace_attr_getmaxdatasize")
{
    static const size_t sizes[] = { 64, 8, 200 };
    trace_attr_t a;
    size_t dflt = 0;
    int accepted = 0;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_CHECK_OK(posix_trace_attr_getmaxdatasize(&a, &dflt));
    ct_note("default max-data-size: %zu bytes", dflt);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t got = (size_t)-1;
        int rc = posix_trace_attr_setmaxdatasize(&a, sizes[i]);
        if (rc == EINVAL) {
            ct_note("setmaxdatasize(%zu) refused with EINVAL", sizes[i]);
            continue;
        }
        CT_CHECK(rc == 0, "setmaxdatasize(%zu) returned %d (%s): expected 0 or EINVAL",
                 sizes[i], rc, ct_errname(rc));
        accepted++;
        CT_CHECK_OK(posix_trace_attr_getmaxdatasize(&a, &got));
        CT_CHECK(got == sizes[i], "setmaxdatasize(%zu) returned 0, getmaxdatasize then gave"
                 " %zu", sizes[i], got);
    }
    if (accepted == 0)
        CT_UNRESOLVED("setmaxdatasize refused 64, 8 and 200 bytes: nothing to read back");
    CT_CHECK_OK(posix_trace_attr_destroy(&a));
}

/* ---- stream-min-size --------------------------------------------------------------- */

CT_TEST(streamsize_roundtrip, "attr_setstreamsize.roundtrip", "TRC",
        "posix_trace_attr_setstreamsize,posix_trace_attr_getstreamsize")
{
    trace_attr_t a;
    size_t dflt = 0, got = 0;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_CHECK_OK(posix_trace_attr_getstreamsize(&a, &dflt));
    ct_note("default stream-min-size: %zu bytes", dflt);
    if (dflt == 0 || dflt > SIZE_MAX / 2)
        CT_UNRESOLVED("default stream-min-size %zu: cannot double it", dflt);
    size_t want[] = { 2 * dflt, 2 * dflt + 8 };
    int accepted = 0;
    for (size_t i = 0; i < 2; i++) {
        int rc = posix_trace_attr_setstreamsize(&a, want[i]);
        if (rc == EINVAL) {
            ct_note("setstreamsize(%zu) refused with EINVAL", want[i]);
            continue;
        }
        CT_CHECK(rc == 0, "setstreamsize(%zu) returned %d (%s): expected 0 or EINVAL",
                 want[i], rc, ct_errname(rc));
        accepted++;
        CT_CHECK_OK(posix_trace_attr_getstreamsize(&a, &got));
        CT_CHECK(got == want[i], "setstreamsize(%zu) returned 0, getstreamsize on the same"
                 " object then gave %zu", want[i], got);
    }
    if (accepted == 0)
        CT_UNRESOLVED("setstreamsize refused twice the default (%zu bytes)", 2 * dflt);
    CT_CHECK_OK(posix_trace_attr_destroy(&a));
}

/* ---- event sizes --------------------------------------------------------------------- */

CT_TEST(maxsystemeventsize, "attr_getmaxsystemeventsize.value", "TRC",
        "posix_trace_attr_getmaxsystemeventsize")
{
    trace_attr_t a;
    size_t s1 = 0, s2 = 0;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_CHECK_OK(posix_trace_attr_getmaxsystemeventsize(&a, &s1));
    CT_CHECK(s1 > 0, "maximum system event size is 0: no event can be stored in 0 bytes");
    CT_CHECK_OK(posix_trace_attr_getmaxsystemeventsize(&a, &s2));
    CT_CHECK(s1 == s2, "two calls on one object gave %zu then %zu", s1, s2);
    ct_note("maximum system event size: %zu bytes", s1);
    CT_CHECK_OK(posix_trace_attr_destroy(&a));
}

/* Checks getmaxusereventsize on a for data lengths around max-data-size. */
static void check_user_sizes(const trace_attr_t *a)
{
    size_t maxdata = 0, prev = 0;
    CT_CHECK_OK(posix_trace_attr_getmaxdatasize(a, &maxdata));
    /* Every length up to max-data-size + 64 when that is small; sampled
     * lengths otherwise (powers of two and their neighbours, then SIZE_MAX). */
    size_t lens[300], n = 0;
    if (maxdata <= 200) {
        for (size_t l = 0; l <= maxdata + 64; l++)
            lens[n++] = l;
    } else {
        for (size_t p = 1; p && p <= maxdata * 2 && n < 180; p <<= 1) {
            lens[n++] = p - 1;
            lens[n++] = p;
        }
        lens[n++] = maxdata - 1;
        lens[n++] = maxdata;
        lens[n++] = maxdata + 1;
    }
    lens[n++] = SIZE_MAX / 2;
    lens[n++] = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        size_t l = lens[i], s = 0;
        if (i > 0 && l < lens[i - 1])
            continue;           /* only increasing lengths: monotony */
        CT_CHECK_OK(posix_trace_attr_getmaxusereventsize(a, l, &s));
        size_t need = l < maxdata ? l : maxdata;
        CT_CHECK(s >= need, "maximum user event size for data_len %zu is %zu bytes, less"
                 " than the %zu data bytes recorded (max-data-size %zu)", l, s, need, maxdata);
        CT_CHECK(i == 0 || s >= prev, "maximum user event size decreases from %zu to %zu"
                 " bytes as data_len grows from %zu to %zu", prev, s, lens[i - 1], l);
        prev = s;
    }
}

CT_TEST(maxusereventsize_default, "attr_getmaxusereventsize.value", "TRC",
        "posix_trace_attr_getmaxusereventsize,posix_trace_attr_getmaxdatasize")
{
    trace_attr_t a;
    size_t s = 0;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    check_user_sizes(&a);
    CT_CHECK_OK(posix_trace_attr_getmaxusereventsize(&a, 0, &s));
    ct_note("maximum user event size with no data: %zu bytes", s);
    CT_CHECK_OK(posix_trace_attr_destroy(&a));
}

CT_TEST(maxusereventsize_small_maxdata, "attr_getmaxusereventsize.value", "TRC",
        "posix_trace_attr_getmaxusereventsize,posix_trace_attr_setmaxdatasize")
{
    /* With a small max-data-size, lengths beyond it are covered too. */
    trace_attr_t a;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    if (posix_trace_attr_setmaxdatasize(&a, 24) != 0)
        CT_UNRESOLVED("setmaxdatasize(24) refused");
    check_user_sizes(&a);
    CT_CHECK_OK(posix_trace_attr_destroy(&a));
}

/* ---- S0054: events that fit by the sizes are recorded without loss ------------------ */

CT_TEST(min_size_lossless, "stream.min-size-lossless", "TRC",
        "posix_trace_attr_getmaxusereventsize,posix_trace_attr_getmaxsystemeventsize,"
        "posix_trace_attr_getstreamsize,posix_trace_create,posix_trace_event,"
        "posix_trace_trygetnext_event,posix_trace_get_status")
{
    enum { LEN = 16, CAP = 100000 };
    trace_attr_t a, sa;
    trace_id_t trid;
    trace_event_id_t ev;
    size_t ssize = 0, sysz = 0, usz = 0;
    unsigned char data[LEN];
    struct posix_trace_status_info st;

    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_SETUP_OK(posix_trace_attr_setstreamfullpolicy(&a, POSIX_TRACE_UNTIL_FULL));
    CT_SETUP_OK(posix_trace_attr_getmaxdatasize(&a, &ssize));
    if (ssize < LEN)
        CT_SETUP_OK(posix_trace_attr_setmaxdatasize(&a, LEN));
    CT_SETUP_OK(posix_trace_create(0, &a, &trid));
    CT_SETUP_OK(posix_trace_attr_init(&sa));
    CT_SETUP_OK(posix_trace_get_attr(trid, &sa));
    CT_SETUP_OK(posix_trace_attr_getstreamsize(&sa, &ssize));
    CT_SETUP_OK(posix_trace_attr_getmaxsystemeventsize(&sa, &sysz));
    CT_SETUP_OK(posix_trace_attr_getmaxusereventsize(&sa, LEN, &usz));
    if (usz == 0 || ssize < 2 * sysz + usz)
        CT_UNRESOLVED("stream-min-size %zu cannot hold START, STOP and one event of %zu"
                      " bytes (system events %zu bytes)", ssize, usz, sysz);
    /* START + n user events + STOP fit in stream-min-size. */
    size_t n = (ssize - 2 * sysz) / usz;
    if (n > CAP) {
        /* Keep the test short: ask for a smaller stream. */
        CT_SETUP_OK(posix_trace_shutdown(trid));
        CT_SETUP_OK(posix_trace_attr_setstreamsize(&a, CAP / 4 * usz));
        CT_SETUP_OK(posix_trace_create(0, &a, &trid));
        CT_SETUP_OK(posix_trace_get_attr(trid, &sa));
        CT_SETUP_OK(posix_trace_attr_getstreamsize(&sa, &ssize));
        CT_SETUP_OK(posix_trace_attr_getmaxsystemeventsize(&sa, &sysz));
        CT_SETUP_OK(posix_trace_attr_getmaxusereventsize(&sa, LEN, &usz));
        n = (ssize - 2 * sysz) / usz;
        if (n > CAP)
            CT_UNRESOLVED("stream-min-size %zu holds %zu events: too many to test", ssize, n);
    }
    ct_note("stream-min-size %zu, system event %zu, user event of %d bytes %zu: %zu events",
            ssize, sysz, LEN, usz, n);
    CT_SETUP_OK(posix_trace_eventid_open("ct-lossless", &ev));
    CT_SETUP_OK(posix_trace_start(trid));
    for (size_t i = 0; i < n; i++) {
        memset(data, (int)(i & 0xff), sizeof data);
        posix_trace_event(ev, data, sizeof data);
    }
    CT_SETUP_OK(posix_trace_stop(trid));
    CT_CHECK_OK(posix_trace_get_status(trid, &st));
    CT_CHECK(st.posix_stream_overrun_status == POSIX_TRACE_NO_OVERRUN,
             "after START, %zu events of %zu bytes and STOP (sizes adding up to at most"
             " stream-min-size %zu) the overrun status is %d, expected POSIX_TRACE_NO_OVERRUN"
             " (%d): events were lost", n, usz, ssize, st.posix_stream_overrun_status,
             POSIX_TRACE_NO_OVERRUN);
    /* Every user event is there, in order. */
    size_t seen = 0;
    for (;;) {
        struct posix_trace_event_info info;
        unsigned char buf[64];
        size_t len = 0;
        int unavailable = 1;
        CT_CHECK_OK(posix_trace_trygetnext_event(trid, &info, buf, sizeof buf, &len,
                                                 &unavailable));
        if (unavailable)
            break;
        if (!posix_trace_eventid_equal(trid, info.posix_event_id, ev))
            continue;
        CT_CHECK(len == LEN && buf[0] == (unsigned char)(seen & 0xff),
                 "user event %zu read with %zu bytes starting 0x%02x, expected %d bytes of"
                 " 0x%02x: an event was lost", seen, len, buf[0], LEN,
                 (unsigned)(seen & 0xff));
        seen++;
    }
    CT_CHECK(seen == n, "%zu of the %zu user events were read back: the sizes reported add up"
             " to at most stream-min-size %zu, so none may be lost", seen, n, ssize);
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

/* ---- return convention -------------------------------------------------------------- */

CT_TEST(return_convention, "attr_getlogsize.return-convention", "TRC",
        "posix_trace_attr_getlogsize,posix_trace_attr_setlogsize,"
        "posix_trace_attr_getmaxdatasize,posix_trace_attr_setmaxdatasize,"
        "posix_trace_attr_getmaxsystemeventsize,posix_trace_attr_getmaxusereventsize,"
        "posix_trace_attr_getstreamsize,posix_trace_attr_setstreamsize")
{
    trace_attr_t a;
    size_t v = 0, dflt = 0;
    int rc;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_SUCCEEDS(posix_trace_attr_getmaxdatasize(&a, &dflt));
    CT_SUCCEEDS(posix_trace_attr_setmaxdatasize(&a, dflt));
    CT_SUCCEEDS(posix_trace_attr_getmaxsystemeventsize(&a, &v));
    CT_SUCCEEDS(posix_trace_attr_getmaxusereventsize(&a, 1, &v));
    CT_SUCCEEDS(posix_trace_attr_getstreamsize(&a, &dflt));
    CT_SUCCEEDS(posix_trace_attr_setstreamsize(&a, dflt));
#if CT_HAVE_TRL
    if (ct_option("TRL")) {
        CT_SUCCEEDS(posix_trace_attr_getlogsize(&a, &dflt));
        CT_SUCCEEDS(posix_trace_attr_setlogsize(&a, dflt));
    }
#endif
    /* The failure half: SIZE_MAX bytes, if refused, is refused with the
     * error number as return value. */
    errno = 0;
    rc = posix_trace_attr_setstreamsize(&a, SIZE_MAX);
    CT_CHECK(rc == 0 || rc == EINVAL, "setstreamsize(SIZE_MAX) returned %d (%s), errno %s:"
             " expected 0 or the error number EINVAL", rc, ct_errname(rc), ct_errname(errno));
    errno = 0;
    rc = posix_trace_attr_setmaxdatasize(&a, SIZE_MAX);
    CT_CHECK(rc == 0 || rc == EINVAL, "setmaxdatasize(SIZE_MAX) returned %d (%s), errno %s:"
             " expected 0 or the error number EINVAL", rc, ct_errname(rc), ct_errname(errno));
}

/* ---- EINVAL ---------------------------------------------------------------------------- */

CT_TEST(setmaxdatasize_einval, "attr_setmaxdatasize.EINVAL", "TRC",
        "posix_trace_attr_setmaxdatasize")
{
    trace_attr_t a;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_CHECK_MAY_ERR(posix_trace_attr_setmaxdatasize(&a, SIZE_MAX), EINVAL);
}

CT_TEST(setstreamsize_einval_zero, "attr_setstreamsize.EINVAL", "TRC",
        "posix_trace_attr_setstreamsize")
{
    trace_attr_t a;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_CHECK_MAY_ERR(posix_trace_attr_setstreamsize(&a, 0), EINVAL);
}

CT_TEST(setstreamsize_einval_huge, "attr_setstreamsize.EINVAL", "TRC",
        "posix_trace_attr_setstreamsize")
{
    trace_attr_t a;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_CHECK_MAY_ERR(posix_trace_attr_setstreamsize(&a, SIZE_MAX), EINVAL);
}

CT_TEST(getmaxdatasize_einval, "attr_getmaxdatasize.EINVAL", "TRC",
        "posix_trace_attr_getmaxdatasize")
{
    CT_REFERENCE_ONLY();
#if CT_EXACT_REFERENCE
    trace_attr_t a, d;
    size_t v;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    ct_destroyed_attr(&d);
    CT_CHECK_ERR(posix_trace_attr_getmaxdatasize(NULL, &v), EINVAL);
    CT_CHECK_ERR(posix_trace_attr_getmaxdatasize(&a, NULL), EINVAL);
    CT_CHECK_ERR(posix_trace_attr_getmaxdatasize(&d, &v), EINVAL);
#endif
}

CT_TEST(getmaxsystemeventsize_einval, "attr_getmaxsystemeventsize.EINVAL", "TRC",
        "posix_trace_attr_getmaxsystemeventsize")
{
    CT_REFERENCE_ONLY();
#if CT_EXACT_REFERENCE
    trace_attr_t a, d;
    size_t v;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    ct_destroyed_attr(&d);
    CT_CHECK_ERR(posix_trace_attr_getmaxsystemeventsize(NULL, &v), EINVAL);
    CT_CHECK_ERR(posix_trace_attr_getmaxsystemeventsize(&a, NULL), EINVAL);
    CT_CHECK_ERR(posix_trace_attr_getmaxsystemeventsize(&d, &v), EINVAL);
#endif
}

CT_TEST(getmaxusereventsize_einval, "attr_getmaxusereventsize.EINVAL", "TRC",
        "posix_trace_attr_getmaxusereventsize")
{
    CT_REFERENCE_ONLY();
#if CT_EXACT_REFERENCE
    trace_attr_t a, d;
    size_t v;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    ct_destroyed_attr(&d);
    CT_CHECK_ERR(posix_trace_attr_getmaxusereventsize(NULL, 8, &v), EINVAL);
    CT_CHECK_ERR(posix_trace_attr_getmaxusereventsize(&a, 8, NULL), EINVAL);
    CT_CHECK_ERR(posix_trace_attr_getmaxusereventsize(&d, 8, &v), EINVAL);
#endif
}

CT_TEST(getstreamsize_einval, "attr_getstreamsize.EINVAL", "TRC",
        "posix_trace_attr_getstreamsize")
{
    CT_REFERENCE_ONLY();
#if CT_EXACT_REFERENCE
    trace_attr_t a, d;
    size_t v;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    ct_destroyed_attr(&d);
    CT_CHECK_ERR(posix_trace_attr_getstreamsize(NULL, &v), EINVAL);
    CT_CHECK_ERR(posix_trace_attr_getstreamsize(&a, NULL), EINVAL);
    CT_CHECK_ERR(posix_trace_attr_getstreamsize(&d, &v), EINVAL);
#endif
}
