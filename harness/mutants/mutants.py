# SPDX-License-Identifier: MIT
"""Mutants of the reference: each breaks one rule of the catalogue.

A mutant is a list of textual edits applied to a COPY of reference/*.c
(reference/ itself is never touched).  The vendor-mode tests
(harness/tests/test_vendor_mode.py) build each mutant as a "vendor"
implementation, run the whole conformance suite against it, and check that
the rule it breaks FAILs (its tests' messages name the rule) while every
other rule keeps its baseline result, apart from the mutant's declared
collateral rules (glob patterns).

Each edit names a file, an exact text that must occur exactly once in it,
and its replacement.  When the reference changes so that an anchor no longer
matches, the test says which mutant and which file: update the anchor here.

Fields:
  name        short id
  rule        the catalogue rule the mutant breaks (must FAIL)
  results     results accepted for that rule (default: FAIL only)
  collateral  glob patterns of other rules allowed to change result
  edits       [(file, old, new), ...]
  what        one line: how the mutant breaks the rule
"""

MUTANTS = [
    {
        "name": "start-no-start-event",
        "rule": "start.start-event",
        "what": "posix_trace_start sets RUNNING but records no START event",
        "edits": [("posix/stream.c",
                   "    stream_put(s, POSIX_TRACE_START, &s->filter, sizeof s->filter, 0, &o);\n"
                   "    s->run = POSIX_TRACE_RUNNING;                       /* S0226 */",
                   "    (void)o;\n"
                   "    s->run = POSIX_TRACE_RUNNING;                       /* S0226 */")],
        "collateral": ["xsh211.start-data*", "xsh211.sysevent-*", "xsh211.sysevents-*",
                       "getnext.*", "trygetnext.*", "timedgetnext.*", "event.*",
                       "stream.*", "xbd419.*", "trace_h.event_info.*"],
    },
    {
        "name": "start-records-twice",
        "rule": "start.already-running",
        "what": "posix_trace_start on a running stream records another START",
        "edits": [("posix/stream.c",
                   "    if (s->run == POSIX_TRACE_RUNNING || s->autostopped) {",
                   "    if (s->autostopped) {")],
        "collateral": [],
    },
    {
        "name": "stop-no-stop-event",
        "rule": "stop.stop-event",
        "what": "posix_trace_stop sets SUSPENDED but records no STOP event",
        "edits": [("posix/stream.c",
                   "    stream_put(s, POSIX_TRACE_STOP, &automatic, sizeof automatic, 0, &o);\n",
                   "    (void)automatic;\n")],
        "collateral": ["xsh211.stop-data*", "xsh211.sysevent-*", "xsh211.sysevents-*",
                       "getnext.*", "trygetnext.*", "stream.*"],
    },
    {
        "name": "stop-data-auto",
        "rule": "xsh211.stop-data-explicit",
        "what": "the STOP of posix_trace_stop carries a nonzero auto flag",
        "edits": [("posix/stream.c",
                   "    int automatic = 0;\n    stream_origin(s, &o, __builtin_return_address(0));",
                   "    int automatic = 1;\n    stream_origin(s, &o, __builtin_return_address(0));")],
        "collateral": [],
    },
    {
        "name": "stop-records-twice",
        "rule": "stop.already-suspended",
        "what": "posix_trace_stop on a suspended stream records another STOP",
        "edits": [("posix/stream.c",
                   "    if (s->run == POSIX_TRACE_SUSPENDED) {\n"
                   "        stream_release(s);                              /* S0230, S0231 */",
                   "    if (0) {\n"
                   "        stream_release(s);                              /* S0230, S0231 */")],
        "collateral": [],
    },
    {
        "name": "create-running",
        "rule": "create.suspended",
        "what": "posix_trace_create returns a running stream",
        "edits": [("posix/stream.c",
                   "    s->run = POSIX_TRACE_SUSPENDED;                     /* S0092 */",
                   "    s->run = POSIX_TRACE_RUNNING;"),
                  ("posix/stream.c",
                   "        s->state = SLOT_ACTIVE;\n",
                   "        s->state = SLOT_ACTIVE;\n        stream_update_recording(s);\n")],
        "collateral": ["start.*", "stop.*", "get_status.current", "xsh211.*", "getnext.*",
                       "trygetnext.*", "timedgetnext.*", "event.*", "stream.*", "clear.*",
                       "xbd419.*", "trace_h.*"],
    },
    {
        "name": "eagain-is-enomem",
        "rule": "create.EAGAIN",
        "what": "posix_trace_create past {TRACE_SYS_MAX} streams gives ENOMEM, not EAGAIN",
        "edits": [("posix/stream.c",
                   "        return EAGAIN;                                  /* TRACE_SYS_MAX */",
                   "        return ENOMEM;")],
        "collateral": [],
    },
    {
        "name": "esrch-is-eperm",
        "rule": "create.ESRCH",
        "what": "posix_trace_create for a process that does not exist gives EPERM",
        "edits": [("posix/process.c",
                   "    if (pid < 0 || (kill(pid, 0) != 0 && errno == ESRCH))\n"
                   "        return ESRCH;                                   /* S0118 */",
                   "    if (pid < 0 || (kill(pid, 0) != 0 && errno == ESRCH))\n"
                   "        return EPERM;")],
        "collateral": [],
    },
    {
        "name": "creation-time-zero",
        "rule": "create.creation-time-realtime",
        "what": "a stream's creation-time is 0, not CLOCK_REALTIME at creation",
        "edits": [("posix/stream.c",
                   "        clock_gettime(CLOCK_REALTIME, &s->attr.__createtime);   /* S0087 */",
                   "        s->attr.__createtime.tv_sec = 0;\n"
                   "        s->attr.__createtime.tv_nsec = 0;")],
        "collateral": ["attr_getcreatetime.*", "get_attr.*"],
    },
    {
        "name": "start-invalid-trid-ok",
        "rule": "start.EINVAL",
        "what": "posix_trace_start with an invalid trace id returns 0",
        "edits": [("posix/stream.c",
                   "    if (s == NULL)\n"
                   "        return EINVAL;                                  /* S0234 */\n"
                   "    if (s->run == POSIX_TRACE_RUNNING || s->autostopped) {",
                   "    if (s == NULL)\n"
                   "        return 0;\n"
                   "    if (s->run == POSIX_TRACE_RUNNING || s->autostopped) {")],
        "collateral": [],
    },
    {
        "name": "clear-keeps-events",
        "rule": "clear.events-lost",
        "what": "posix_trace_clear leaves the recorded events in the stream",
        "edits": [("posix/stream.c",
                   "    s->ring.head = s->ring.tail = 0;                    /* S0063, S0064 */",
                   "    (void)0;")],
        "collateral": ["clear.as-if-created"],
    },
    {
        "name": "clear-keeps-full",
        "rule": "clear.not-full",
        "what": "posix_trace_clear leaves the full status FULL",
        "edits": [("posix/stream.c",
                   "    s->full = POSIX_TRACE_NOT_FULL;                     /* S0065 */",
                   "    (void)0;")],
        "collateral": ["clear.as-if-created"],
    },
    {
        "name": "clear-invalid-trid-ok",
        "rule": "clear.EINVAL",
        "what": "posix_trace_clear with an invalid trace id returns 0",
        "edits": [("posix/stream.c",
                   "        return EINVAL;                                  /* S0071 */",
                   "        return 0;")],
        "collateral": [],
    },
    {
        "name": "shutdown-keeps-trid",
        "rule": "shutdown.trid-invalid",
        "what": "posix_trace_shutdown stops the stream but leaves its trace id valid",
        "edits": [("posix/stream.c",
                   "    s->state = SLOT_FREE;               /* traced processes let go of it */\n",
                   ""),
                  ("posix/stream.c",
                   "    slot_free(sl);                                      /* S0108-S0110 */\n",
                   "")],
        "collateral": ["shutdown.*", "create.EAGAIN", "create.several-streams"],
    },
    {
        "name": "get-status-keeps-overrun",
        "rule": "get_status.resets-overrun",
        "what": "posix_trace_get_status does not reset the overrun status",
        "edits": [("posix/stream.c",
                   "    s->overrun = POSIX_TRACE_NO_OVERRUN;                /* S0176 */",
                   "    (void)0;")],
        "collateral": ["xsh211.overrun-*"],
    },
    {
        "name": "get-status-wrong-error",
        "rule": "get_status.EINVAL",
        "what": "posix_trace_get_status with an invalid trace id gives ESRCH",
        "edits": [("posix/stream.c",
                   "        return EINVAL;                                  /* S0182 */\n"
                   "    st->posix_stream_status",
                   "        return ESRCH;\n"
                   "    st->posix_stream_status")],
        "collateral": [],
    },
    {
        "name": "getnext-newest-first",
        "rule": "getnext.oldest-first",
        "what": "the read functions report the newest event first (a stack, not a queue)",
        "edits": [("posix/read.c",
                   "    ring_copy_out(&s->ring, s->ring.tail, h, sizeof *h);\n"
                   "    if (s->ovf == OVF_RESUME) {",
                   "    uint64_t at = s->ring.tail;                 /* MUTANT: the newest */\n"
                   "    for (;;) {\n"
                   "        struct rec_hdr x;\n"
                   "        ring_copy_out(&s->ring, at, &x, sizeof x);\n"
                   "        uint64_t next = at + rec_size(x.len & REC_LEN_MASK);\n"
                   "        if (next >= s->ring.head)\n"
                   "            break;\n"
                   "        at = next;\n"
                   "    }\n"
                   "    ring_copy_out(&s->ring, at, h, sizeof *h);\n"
                   "    if (s->ovf == OVF_RESUME) {"),
                  ("posix/read.c",
                   "        ring_copy_out(&s->ring, s->ring.tail + REC_HDR_SIZE, data, n);\n"
                   "    s->ring.tail += rec_size(len);                      /* S0218 */",
                   "        ring_copy_out(&s->ring, at + REC_HDR_SIZE, data, n);\n"
                   "    s->ring.head = at;")],
        "collateral": ["getnext.generation-order", "xsh211.resume-*", "xsh211.overflow-*",
                       "stream.*", "start.*", "stop.*", "event.*", "trygetnext.*",
                       "timedgetnext.*", "xbd419.*"],
    },
    {
        "name": "trygetnext-blocks",
        "rule": "trygetnext.no-block",
        "results": ["FAIL", "UNRESOLVED"],    # a test without a watchdog times out
        "what": "posix_trace_trygetnext_event waits for an event like getnext",
        "edits": [("posix/read.c",
                   "unavailable, WAIT_NEVER, NULL);",
                   "unavailable, WAIT_FOREVER, NULL);")],
        # trygetnext is how most tests drain a stream: they all hang.
        "collateral": ["*"],
    },
    {
        "name": "truncated-read-data-len",
        "rule": "getnext.truncated-read",
        "what": "on a TRUNCATED_READ, *data_len is the event's length, not num_bytes",
        "edits": [("posix/read.c", "    *data_len = n;\n", "    *data_len = len;\n")],
        "collateral": ["getnext.buffer-bound", "getnext.truncated-read-overrides"],
    },
    {
        "name": "truncated-read-status",
        "rule": "getnext.truncated-read",
        "what": "an event cut by a short buffer is not marked POSIX_TRACE_TRUNCATED_READ",
        "edits": [("posix/read.c",
                   "        ev->posix_truncation_status = POSIX_TRACE_TRUNCATED_READ;\n",
                   "        (void)0;\n")],
        "collateral": ["getnext.truncated-read-overrides", "xsh211.truncation-values"],
    },
    {
        "name": "timedgetnext-abstime-etimedout",
        "rule": "timedgetnext.EINVAL-abstime",
        "what": "an invalid abstime with no event gives ETIMEDOUT, not EINVAL",
        "edits": [("posix/read.c",
                   "            rc = EINVAL;                                /* S0224 */",
                   "            rc = ETIMEDOUT;")],
        "collateral": [],
    },
    {
        "name": "timedgetnext-no-timeout-error",
        "rule": "timedgetnext.ETIMEDOUT",
        "what": "posix_trace_timedgetnext_event returns 0 when abstime passes",
        "edits": [("posix/read.c",
                   "            rc = ETIMEDOUT;                             /* S0203, S0204 */",
                   "            rc = 0;")],
        "collateral": ["timedgetnext.*"],
    },
    {
        "name": "record-not-marked-truncated",
        "rule": "event.truncated-record",
        "what": "an event cut to max-data-size is marked NOT_TRUNCATED",
        "edits": [("posix/record.c",
                   "    stream_put(s, id, data, n, truncated, &o);",
                   "    stream_put(s, id, data, n, 0, &o);"),
                  ("posix/stage.c",                   # events staged without the lock
                   ".id = id, .pid = (uint32_t)c->pid, .len = n | (truncated ? REC_TRUNCATED : 0),",
                   ".id = id, .pid = (uint32_t)c->pid, .len = n,")],
        "collateral": ["getnext.truncated-read-overrides", "xsh211.truncation-values"],
    },
    {
        "name": "eventid-open-einval",
        "rule": "eventid_open.ENAMETOOLONG",
        "what": "posix_trace_eventid_open of a too long name gives EINVAL",
        "edits": [("stream/event_names.c",
                   "        return ENAMETOOLONG;                            /* S0124, S0134 */",
                   "        return EINVAL;")],
        "collateral": ["eventid_open.name-max", "eventid_open.return-convention"],
    },
    {
        "name": "eventid-open-new-id",
        "rule": "eventid_open.same-name-same-id",
        "what": "posix_trace_eventid_open gives a new id for a name already mapped",
        "edits": [("stream/event_names.c",
                   "        if (strcmp(t->names[i], name) == 0)",
                   "        if (0 && strcmp(t->names[i], name) == 0)")],
        "collateral": ["eventid_open.limit-unnamed", "xbd419.one-to-one", "xsh211.*-mapping",
                       "eventid_open.maps"],
    },
    {
        "name": "eventid-open-limit-error",
        "rule": "eventid_open.limit-unnamed",
        "what": "past {TRACE_USER_EVENT_MAX}, posix_trace_eventid_open fails with EAGAIN",
        "edits": [("stream/event_names.c",
                   "            *id = POSIX_TRACE_UNNAMED_USEREVENT;        /* S0127 */\n"
                   "            return 0;",
                   "            return EAGAIN;")],
        "collateral": [],
    },
    {
        "name": "eventid-open-one-too-many",
        "rule": "eventid_open.limit-unnamed",
        "what": "the user event limit counts only the names: {TRACE_USER_EVENT_MAX} names get"
                " identifiers, one more than <limits.h> allows with the unnamed event",
        "edits": [("stream/event_names.c",
                   "        if (i == NAMED_USER_EVENT_MAX) {\n"
                   "            shm_unlock(&t->lock);\n"
                   "            *id = POSIX_TRACE_UNNAMED_USEREVENT;        /* S0127 */\n"
                   "            return 0;\n"
                   "        }",
                   # The table has NAMED_USER_EVENT_MAX slots: the extra name
                   # lives beside it (one per process is enough for the tests).
                   "        static char extra[TRACE_EVENT_NAME_MAX + 1];\n"
                   "        if (i == NAMED_USER_EVENT_MAX &&\n"
                   "            (extra[0] == '\\0' || strcmp(extra, name) == 0)) {\n"
                   "            memcpy(extra, name, len + 1);\n"
                   "            shm_unlock(&t->lock);\n"
                   "            *id = FIRST_NAMED_USER_EVENT + i;   /* MUTANT */\n"
                   "            return 0;\n"
                   "        }\n"
                   "        if (i == NAMED_USER_EVENT_MAX) {\n"
                   "            shm_unlock(&t->lock);\n"
                   "            *id = POSIX_TRACE_UNNAMED_USEREVENT;\n"
                   "            return 0;\n"
                   "        }")],
        "collateral": ["trid_eventid_open.limit-unnamed"],
    },
    {
        "name": "eventid-get-name-wrong",
        "rule": "eventid_get_name.returns-name",
        "what": "posix_trace_eventid_get_name gives a wrong name for user events",
        "edits": [("stream/event_names.c",
                   "        strcpy(buf, t->names[id - FIRST_NAMED_USER_EVENT]);",
                   "        strcpy(buf, \"wrong\");")],
        "collateral": ["eventid_get_name.*", "eventid_open.*", "xsh211.*-mapping"],
    },
    {
        "name": "typelist-rewind-noop",
        "rule": "eventtypelist_rewind.resets",
        "what": "posix_trace_eventtypelist_rewind does not go back to the first id",
        "edits": [("posix/eventtypes.c",
                   "    s->typelist_pos = 0;                                /* S0168 */",
                   "    (void)0;")],
        "collateral": ["xsh211.stream-mapping"],
    },
    {
        "name": "typelist-end-error",
        "rule": "eventtypelist_getnext_id.unavailable-end",
        "what": "past the end of the event type list getnext_id fails instead of "
                "setting *unavailable",
        "edits": [("posix/eventtypes.c",
                   "    } else {\n"
                   "        *unavailable = 1;                               /* S0167 */\n"
                   "    }",
                   "    } else {\n"
                   "        stream_release(s);\n"
                   "        return ENOENT;\n"
                   "    }")],
        "collateral": ["eventtypelist_*", "xsh211.sysevents-*", "xsh211.stream-mapping",
                       "eventid_get_name.*"],
    },
    {
        "name": "loop-no-overrun",
        "rule": "xsh211.overrun-loop",
        "what": "a LOOP stream that overwrites events does not set OVERRUN",
        "edits": [("posix/stream_put.h",
                   "    s->overrun = POSIX_TRACE_OVERRUN;                   /* S0248 */\n",
                   "")],
        "collateral": ["get_status.resets-overrun"],
    },
    {
        "name": "no-overflow-event",
        "rule": "xsh211.overflow-event",
        "what": "after events are overwritten the reader gets RESUME but no OVERFLOW",
        "edits": [("posix/stream_put.h",
                   "        s->ovf = OVF_PENDING;",
                   "        s->ovf = OVF_RESUME;")],
        "collateral": ["xsh211.overflow-timestamp", "stream.loop-*"],
    },
    {
        "name": "setstreamsize-ignored",
        "rule": "attr_setstreamsize.roundtrip",
        "what": "posix_trace_attr_setstreamsize returns 0 and stores nothing",
        "edits": [("stream/attr.c", "    attr->__stream_minsize = v;\n", "    (void)v;\n")],
        "collateral": ["stream.min-size-lossless"],
    },
    {
        "name": "setname-ignored",
        "rule": "attr_setname.sets",
        "what": "posix_trace_attr_setname returns 0 and stores nothing",
        "edits": [("stream/attr.c", "    copy_name(attr->__name, name);\n", "    (void)name;\n")],
        "collateral": ["attr_init.reinit", "attr_setname.*", "attr_getname.*",
                       "create.attr-*", "get_attr.*"],
    },
    {
        "name": "getname-one-byte-past",
        "rule": "attr_getname.fits-name-max",
        "what": "posix_trace_attr_getname pads the name with NULs to {TRACE_NAME_MAX}+1 bytes,"
                " one byte past the array of {TRACE_NAME_MAX} characters a caller may pass",
        "edits": [("stream/attr.c",
                   "    strcpy(name, attr->__name);\n",
                   "    strncpy(name, attr->__name, TRACE_NAME_MAX + 1);   /* MUTANT */\n")],
        "collateral": [],
    },
    {
        "name": "default-name-not-empty",
        "rule": "attr_setname.default-empty",
        "what": "posix_trace_attr_init gives the trace-name \"x\", not \"\"",
        "edits": [("stream/attr.c",
                   "    copy_name(attr->__genversion, ATTR_GENVERSION);     /* S0003 */",
                   "    copy_name(attr->__genversion, ATTR_GENVERSION);\n"
                   "    copy_name(attr->__name, \"x\");")],
        "collateral": ["create.attr-null-defaults"],
    },
    {
        "name": "clockres-zero",
        "rule": "attr_init.readonly-attributes",
        "what": "posix_trace_attr_init sets a clock-resolution of 0 s 0 ns",
        "edits": [("stream/attr.c",
                   "    copy_name(attr->__genversion, ATTR_GENVERSION);     /* S0003 */",
                   "    copy_name(attr->__genversion, ATTR_GENVERSION);\n"
                   "    attr->__clockres.tv_sec = 0;\n"
                   "    attr->__clockres.tv_nsec = 0;")],
        "collateral": ["attr_getclockres.*", "timedgetnext.resolution"],
    },
    # ---- TEF: event sets, the filter, trid_eventid_open ----
    {
        "name": "tef-add-is-set",
        "rule": "set_filter.add",
        "what": "set_filter with POSIX_TRACE_ADD_EVENTSET replaces the filter by the set",
        "edits": [("posix/filter.c", "how == POSIX_TRACE_ADD_EVENTSET ? cur | arg",
                   "how == POSIX_TRACE_ADD_EVENTSET ? arg")],
        "collateral": ["set_filter.filter-event", "xsh211.start-data-tef"],
    },
    {
        "name": "tef-sub-is-xor",
        "rule": "set_filter.sub",
        "what": "set_filter with POSIX_TRACE_SUB_EVENTSET adds the members not in the filter",
        "edits": [("posix/filter.c", "                               : cur & ~arg;",
                   "                               : cur ^ arg;")],
        "collateral": [],
    },
    {
        "name": "tef-set-is-union",
        "rule": "set_filter.set",
        "what": "set_filter with POSIX_TRACE_SET_EVENTSET adds the set to the filter",
        "edits": [("posix/filter.c", "how == POSIX_TRACE_SET_EVENTSET ? arg ",
                   "how == POSIX_TRACE_SET_EVENTSET ? cur | arg ")],
        "collateral": ["set_filter.*", "get_filter.retrieves"],
    },
    {
        "name": "tef-filter-event-suspended",
        "rule": "set_filter.no-filter-event-suspended",
        "what": "set_filter records a FILTER event on a suspended stream too",
        "edits": [("posix/filter.c", "    if (s->run == POSIX_TRACE_RUNNING) {\n        /* S0186",
                   "    if (1) {\n        /* S0186")],
        "collateral": ["set_filter.filter-event"],
    },
    {
        "name": "tef-no-filter-event",
        "rule": "set_filter.filter-event",
        "what": "set_filter on a running stream records no FILTER event",
        "edits": [("posix/filter.c",
                   "        stream_put(s, POSIX_TRACE_FILTER, change, (uint32_t)sizeof change, 0, &o);",
                   "        (void)o;")],
        "collateral": [],
    },
    {
        "name": "tef-filter-event-swapped",
        "rule": "set_filter.filter-event",
        "what": "the FILTER event carries the new filter first, then the old one",
        "edits": [("posix/filter.c",
                   "        stream_put(s, POSIX_TRACE_FILTER, change, (uint32_t)sizeof change, 0, &o);",
                   "        trace_event_set_t rev[2] = { change[1], change[0] };\n"
                   "        stream_put(s, POSIX_TRACE_FILTER, rev, (uint32_t)sizeof rev, 0, &o);")],
        "collateral": [],
    },
    {
        "name": "tef-start-empty-filter",
        "rule": "xsh211.start-data-tef",
        "what": "the START event carries an empty set, not the filter in force",
        "edits": [("posix/stream.c",
                   "    stream_put(s, POSIX_TRACE_START, &s->filter, sizeof s->filter, 0, &o);",
                   "    trace_event_set_t none;\n    memset(&none, 0, sizeof none);\n"
                   "    stream_put(s, POSIX_TRACE_START, &none, sizeof none, 0, &o);")],
        "collateral": [],
    },
    {
        "name": "tef-filter-ignored",
        "rule": "event.filtered-no-effect",
        "what": "posix_trace_event records event types that are in the stream's filter",
        # the test under the lock (stream_admits: the locked path's and the
        # staged events'), the test without it (the pass bits), and the one of
        # a run of staged events copied at once
        "edits": [("posix/stream_put.h", "s->state != SLOT_ACTIVE || eventset_has(&s->filter, id)",
                   "s->state != SLOT_ACTIVE"),
                  ("posix/stream_table.c",
                   "uint64_t pass = on ? ~(uint64_t)s->filter.__bits[w] & eventset_word_mask(w) : 0;",
                   "uint64_t pass = on ? eventset_word_mask(w) : 0;"),
                  ("posix/stage.c",
                   "if (ts < last || ts <= s->lane_cut || eventset_has(&s->filter, id))",
                   "if (ts < last || ts <= s->lane_cut)")],
        "collateral": ["set_filter.when", "eventset.objects-only"],
    },
    {
        "name": "tef-get-filter-empty",
        "rule": "get_filter.retrieves",
        "what": "get_filter always gives an empty set",
        "edits": [("posix/filter.c", "    *set = s->filter;                                   /* S0183 */",
                   "    memset(set, 0, sizeof *set);")],
        "collateral": ["set_filter.set", "set_filter.add", "set_filter.sub",
                       "set_filter.no-filter-event-suspended", "eventset.objects-only",
                       "trace_h.prototypes-tef"],
    },
    {
        "name": "tef-new-filter-unnamed",
        "rule": "create.filter-empty",
        "what": "a new stream filters out the predefined user event",
        "edits": [("posix/stream.c",
                   "    memset(&s->filter, 0, sizeof s->filter);            /* S0093: empty */",
                   "    memset(&s->filter, 0, sizeof s->filter);\n"
                   "    s->filter.__bits[0] |= 1ull << 16;")],
        "collateral": ["set_filter.default-none", "xsh211.start-data-tef"],
    },
    {
        "name": "tef-eventset-add-toggles",
        "rule": "eventset_add.already-member",
        "what": "eventset_add of a member removes it",
        "edits": [("stream/eventset.c", "    eventset_put(set, id);                              /* S0156, S0157 */",
                   "    if (eventset_has(set, id))\n        eventset_drop(set, id);\n"
                   "    else\n        eventset_put(set, id);")],
        "collateral": [],
    },
    {
        "name": "tef-eventset-empty-noop",
        "rule": "eventset_empty.excludes-all",
        "what": "eventset_empty leaves the object's bytes as they were",
        "edits": [("stream/eventset.c", "    memset(set, 0, sizeof *set);                        /* S0158 */",
                   "    (void)set;")],
        # xsh211.start-data-tef builds the sets it expects in START events with
        # posix_trace_eventset_empty: whether an uncleared set happens to hold
        # what was expected depends on the bytes left on the stack.
        "collateral": ["eventset*", "set_filter.*", "get_filter.retrieves",
                       "event.filtered-no-effect", "trace_h.prototypes-tef",
                       "xsh211.start-data-tef"],
    },
    {
        "name": "tef-fill-system-has-user",
        "rule": "eventset_fill.system-events",
        "what": "eventset_fill(POSIX_TRACE_SYSTEM_EVENTS) also holds the third user event type",
        "edits": [("stream/eventset.c",
                   "        event_names_system_set(set, what == POSIX_TRACE_WOPID_EVENTS);",
                   "        event_names_system_set(set, what == POSIX_TRACE_WOPID_EVENTS);\n"
                   "        if (what == POSIX_TRACE_SYSTEM_EVENTS)\n"
                   "            set->__bits[0] |= 1ull << 19;")],
        "collateral": [],
    },
    {
        "name": "tef-ismember-inverted",
        "rule": "eventset_ismember.tests",
        "what": "eventset_ismember reports members as absent and the others as present",
        "edits": [("stream/eventset.c", "    *ismember = eventset_has(set, id);                  /* S0162 */",
                   "    *ismember = !eventset_has(set, id);")],
        "collateral": ["eventset*", "set_filter.*", "get_filter.retrieves",
                       "create.filter-empty", "create_withlog.like-create",
                       "xsh211.start-data-tef", "xsh211.sysevent-pid-zero",
                       "xsh211.sysevent-thread-zero", "trace_h.prototypes-tef",
                       "trace_h.type.trace_event_set_t"],
    },
    {
        "name": "tef-trid-open-truncates",
        "rule": "trid_eventid_open.ENAMETOOLONG",
        "what": "trid_eventid_open maps the first {TRACE_EVENT_NAME_MAX} characters of a longer name",
        "edits": [("posix/filter.c", "    int rc = stream_eventid_open(s, name, id);",
                   "    char cut[TRACE_EVENT_NAME_MAX + 1];\n"
                   "    strncpy(cut, name, TRACE_EVENT_NAME_MAX);\n"
                   "    cut[TRACE_EVENT_NAME_MAX] = 0;\n"
                   "    int rc = stream_eventid_open(s, cut, id);"),
                  ("posix/filter.c", "#include <errno.h>\n", "#include <errno.h>\n#include <string.h>\n")],
        "collateral": [],
    },
    {
        "name": "tef-trid-open-dead-esrch",
        "rule": "trid_eventid_open.EINVAL",
        "what": "trid_eventid_open with a shut-down trid gives ESRCH",
        "edits": [("posix/filter.c", "        return EINVAL;                                  /* S0141, S0153 */",
                   "        return ESRCH;")],
        "collateral": ["eventid_equal.return-convention"],
    },
    {
        "name": "tef-filter-misnamed",
        "rule": "xsh211.sysevents-tef",
        "what": "eventid_get_name(POSIX_TRACE_FILTER) gives posix_trace_filt",
        "edits": [("stream/event_names.c", "\"posix_trace_filter\",", "\"posix_trace_filt\",  ")],
        "collateral": ["xsh211.sysevents-tef-trl"],
    },
    # ---- TRI (conformance/tests/inherit.c, process.c) ----
    {
        "name": "tri-child-not-inherited",
        "rule": "fork.inherited",
        "what": "a child is never traced into its parent's INHERITED streams",
        "edits": [("posix/process.c",
                   "        if (child_inherits(s))\n"
                   "            kept = 1;",
                   "        if (0)\n"
                   "            kept = 1;")],
        "collateral": ["fork.inherited-*", "fork.close-for-child", "xbd419.pid",
                       "eventid_open.*-tri", "trid_eventid_open.*-tri", "exec.still-traced"],
    },
    {
        "name": "tri-close-inherited",
        "rule": "fork.close-for-child",
        "what": "a child is traced into its parent's CLOSE_FOR_CHILD streams too",
        "edits": [("posix/process.c",
                   "        if (child_inherits(s))\n"
                   "            kept = 1;",
                   "        if (s->state == SLOT_ACTIVE)\n"
                   "            kept = 1;")],
        "collateral": ["fork.inherited"],
    },
    {
        "name": "tri-default-inherited",
        "rule": "attr_getinherited.default",
        "what": "posix_trace_attr_init sets the inheritance to POSIX_TRACE_INHERITED",
        "edits": [("stream/attr.c",
                   "    attr->__inheritance = POSIX_TRACE_CLOSE_FOR_CHILD;",
                   "    attr->__inheritance = POSIX_TRACE_INHERITED;")],
        "collateral": [],
    },
    {
        "name": "tri-names-per-process",
        "rule": "eventid_open.unique-per-stream-tri",
        "what": "a child traced by inheritance numbers the names it opens apart from its"
                " parent (a copy of the parent's mapping)",
        "edits": [("posix/process.c",
                   "        if (inherits_any(p) && p->ns != NULL) {",
                   "        if (0) {")],
        "collateral": ["eventid_open.same-name-same-id-tri", "trid_eventid_open.*-tri"],
    },
    {
        "name": "tri-mapping-not-inherited",
        "rule": "fork.inherited-mapping",
        "what": "a child traced by inheritance starts with no names mapped, numbered apart",
        "edits": [("posix/process.c",
                   "        if (inherits_any(p) && p->ns != NULL) {\n"
                   "            b->ns_shared = 1;                           /* S0317 */\n"
                   "            b->ns_id = p->ns->id;\n"
                   "        } else {\n"
                   "            name_table_copy(&b->names, p->names);       /* what fork copies anyway */\n"
                   "        }",
                   "        (void)inherits_any;")],
        "collateral": ["eventid_open.*-tri", "trid_eventid_open.*-tri"],
    },
    {
        "name": "tri-child-controls",
        "rule": "create.EINVAL-child-trid",
        "what": "a child keeps control of its parent's INHERITED streams",
        "edits": [("posix/stream_table.c",
                   "        if (sl->s != NULL) {\n"
                   "            if (sl->s->log != NULL)",
                   "        if (sl->s != NULL && sl->s->inherit != POSIX_TRACE_INHERITED) {\n"
                   "            if (sl->s->log != NULL)")],
        "collateral": ["fork.child-not-controller", "exec.still-traced",
                       "eventid_open.same-name-same-id-tri"],
    },
    {
        "name": "tri-exec-untraced",
        "rule": "exec.still-traced",
        "what": "a new image does not find the streams its old image was traced into",
        "edits": [("posix/process.c",
                   "    find_after_exec(p);\n",
                   "    (void)find_after_exec;\n")],
        "collateral": ["eventid_open.same-name-same-id-tri"],
    },
    {
        "name": "tri-trid-names-private",
        "rule": "trid_eventid_open.unique-tri",
        "what": "posix_trace_trid_eventid_open numbers names in a table of the controller's"
                " own, apart from the processes traced into the stream",
        "edits": [("posix/filter.c",
                   "    int rc = stream_eventid_open(s, name, id);\n",
                   "    static struct name_table mine = { .lock = PTHREAD_MUTEX_INITIALIZER };\n"
                   "    int rc = event_names_open(&mine, name, id);\n")],
        "collateral": ["trid_eventid_open.*",
                       "trace_h.prototypes-tef"],   # calls trid_eventid_open then get_name
    },
    {
        "name": "tri-record-after-shutdown-aborts",
        "rule": "exit.shuts-down",
        "what": "a traced process that records into a stream shut down by its controller's"
                " exit dies (abort)",
        "edits": [("posix/record.c",
                   "    return s != NULL &&\n",
                   "    if (s != NULL && s->state == SLOT_FREE)\n"
                   "        __builtin_trap();\n"
                   "    return s != NULL &&\n")],
        "collateral": [],
    },
]

# The implementation that crashes in one function and hangs in another
# (test_vendor_mode.py, part c): posix_trace_attr_setname dies of SIGSEGV,
# posix_trace_attr_getcreatetime never returns.
CRASH_AND_HANG = [
    ("stream/attr.c",
     "int posix_trace_attr_setname(trace_attr_t *attr, const char *name)\n{\n",
     "int posix_trace_attr_setname(trace_attr_t *attr, const char *name)\n{\n"
     "    *(volatile int *)(uintptr_t)8 = 1;          /* MUTANT: SIGSEGV */\n"),
    ("stream/attr.c",
     "int posix_trace_attr_getcreatetime(const trace_attr_t *attr, struct timespec *t)\n{\n",
     "int posix_trace_attr_getcreatetime(const trace_attr_t *attr, struct timespec *t)\n{\n"
     "    for (;;)                                    /* MUTANT: hangs */\n"
     "        pause();\n"),
    ("stream/attr.c", "#include <string.h>\n", "#include <string.h>\n#include <stdint.h>\n"
     "#include <unistd.h>\n"),
]


# A library that hangs in a function every stream test calls (issue 13, item 4):
# the run must still end in minutes, each affected test UNRESOLVED "hung: ...
# in posix_trace_start" (stuck in pause(): harness/runner/stuck.py), "timed out
# ... in posix_trace_start" or stopped before calling it
# (harness/tests/test_hang_everywhere.py).
HANG_IN_START = [
    ("posix/stream.c",
     "int posix_trace_start(trace_id_t trid)\n{\n",
     "int posix_trace_start(trace_id_t trid)\n{\n"
     "    for (;;)                                    /* MUTANT: hangs */\n"
     "        pause();\n"),       # stream.c includes <unistd.h>
]


# A library whose posix_trace_create, once it has returned, leaves the process
# to block outside the trace functions (issue 31, item 4): a thread it starts
# takes stdout's lock and keeps it, and then it answers EAGAIN, so the test
# blocks as soon as it prints, which is where a test ends on a failed setup.
# The run must still end in seconds, each test that calls it UNRESOLVED,
# "hung: ... outside the trace functions (the last call, posix_trace_create
# ..., had returned)" or stopped before calling it once several tests in a
# row had hung after it (harness/tests/test_hang_everywhere.py).
HANG_AFTER_CREATE = [
    ("posix/stream.c",
     "int posix_trace_create(pid_t pid, const trace_attr_t *restrict attr,\n"
     "                       trace_id_t *restrict trid)\n{\n",
     "static void *mutant_hold_stdout(void *taken)   /* MUTANT */\n{\n"
     "    flockfile(stdout);\n"
     "    sem_post(taken);\n"
     "    for (;;)\n"
     "        pause();\n"
     "    return NULL;\n"
     "}\n\n"
     "int posix_trace_create(pid_t pid, const trace_attr_t *restrict attr,\n"
     "                       trace_id_t *restrict trid)\n{\n"
     "    sem_t taken;                                /* MUTANT: blocks the caller after */\n"
     "    pthread_t t;\n"
     "    sem_init(&taken, 0, 0);\n"
     "    if (pthread_create(&t, NULL, mutant_hold_stdout, &taken) == 0)\n"
     "        while (sem_wait(&taken) != 0)\n"
     "            ;\n"
     "    (void)pid, (void)attr, (void)trid;\n"
     "    return EAGAIN;\n"),
    ("posix/stream.c", "#include <errno.h>\n",
     "#include <errno.h>\n#include <pthread.h>\n#include <semaphore.h>\n#include <stdio.h>\n"),
]


# Collateral observed with the portable tests as they were when the mutants were
# last calibrated (harness/mutants/proof.py --verbose), beyond the patterns above; each
# entry was reviewed: a test of that rule uses the broken behaviour in its setup
# or to observe its own rule, or the broken code is shared (create_withlog
# shares create's checks; the log's flusher takes events out of a stream with
# the reader's code, so a reader that breaks order breaks every log;
# trid_eventid_open maps names with eventid_open's code; the filter tests take
# a new stream as suspended and read events oldest first).  Added to the
# mutant's "collateral".
OBSERVED_COLLATERAL = {
    "start-no-start-event": [
        "clear.log-first-event",
        "xsh211.overflow-timestamp",
        "create.trid-usable", "start.already-running", "start.full-no-effect",
        "start.full-loop", "xsh211.truncation-values", "trace_h.prototypes-trc"],
    "stop-no-stop-event": [
        "clear.events-lost", "create.trid-usable", "stop.already-suspended",
        "xsh211.truncation-values"],
    "stop-records-twice": [
        "stop.full-no-effect"],
    "create-running": [
        "set_filter.filter-event", "set_filter.no-filter-event-suspended",
        "create_withlog.like-create", "create_withlog.trid-unique",
        "fork.child-not-controller",
        "attr_init.multiple-create", "create.trid-usable", "create.several-streams"],
    "eagain-is-enomem": [
        "create_withlog.EAGAIN",
        "shutdown.returns-after-free"],
    "start-invalid-trid-ok": [
        "open.trid-no-control",
        "create.EINVAL-child-trid", "fork.child-not-controller",
        "shutdown.stops", "shutdown.trid-invalid", "start.return-convention"],
    "clear-keeps-full": [
        "xsh211.status-suspended-notfull",
        "clear.keeps-run-state"],
    "clear-invalid-trid-ok": [
        "open.trid-no-control",
        "create.EINVAL-child-trid", "fork.child-not-controller",
        "clear.return-convention", "shutdown.trid-invalid"],
    "shutdown-keeps-trid": [
        "trid_eventid_open.EINVAL", "get_filter.return-convention", "get_filter.EINVAL-trid",
        "set_filter.EINVAL-trid",
        "clear.return-convention", "clear.EINVAL", "create.return-convention",
        "eventid_equal.return-convention", "eventid_get_name.EINVAL-trid",
        "eventtypelist_getnext_id.return-convention", "eventtypelist_getnext_id.EINVAL",
        "eventtypelist_rewind.EINVAL", "get_attr.return-convention", "get_attr.EINVAL",
        "get_status.EINVAL", "getnext.return-convention", "getnext.EINVAL",
        "timedgetnext.EINVAL-trid", "trygetnext.EINVAL-trid", "start.return-convention",
        "start.EINVAL", "stop.EINVAL"],
    "get-status-keeps-overrun": [
        "flush.frees-space",
        "stream.until-full-reuses-read",
        "getnext.frees-space"],
    "get-status-wrong-error": [
        "create.EINVAL-child-trid", "exec.shuts-down",
        "shutdown.trid-invalid", "get_attr.return-convention",
        "fork.child-not-controller"],
    "getnext-newest-first": [
        "set_filter.filter-event", "xsh211.start-data-tef",
        "log.max-size", "clear.log-reinit", "clear.log-first-event", "clear.log-not-full", "close.deallocates", "open.connects", "open.oldest-first", "open.trid-usable", "open.trid-no-control", "rewind.resets", "close.return-convention", "create_withlog.like-create", "create_withlog.log-to-fd", "create_withlog.trid-unique", "create_withlog.trid-usable", "flush.copies-to-log", "flush.completion-pollable", "flush.traces-during-flush", "flush.frees-space", "log.until-full-discards", "log.until-full-last-stop", "log.loop", "log.append", "flush.EFBIG", "flush.ENOSPC", "shutdown.log-ends-with-stop", "shutdown.log-flushed", "shutdown.log-has-attributes", "shutdown.log-has-mapping", "shutdown.log-has-status", "shutdown.log-recognisable", "shutdown.waits-flush", "shutdown.EFBIG", "shutdown.ENOSPC", "eventid_get_name.returns-name", "get_status.resets-log-overrun", "get_status.resets-flush-error", "get_status.prerecorded-final", "get_status.prerecorded-no-reset", "getnext.prerecorded", "getnext.end-of-log", "xsh211.log-mtime-ctime", "xsh211.log-atime", "xsh211.flush-status-values", "xsh211.not-flushing-idle", "xsh211.flush-error-zero", "xsh211.flush-error-first", "xsh211.log-overrun-values", "xsh211.log-overrun-set", "xsh211.log-full-values", "xsh211.flush-start-event", "xsh211.flush-stop-event", "trace_h.prototypes-trl",
        "xsh211.sysevent-prog-address", "xsh211.user-prog-address", "xsh211.stop-data-auto",
        "clear.events-lost", "getnext.reports", "getnext.full-data-status",
        "getnext.reported-once", "getnext.frees-space", "xsh211.timestamp",
        "trace_h.prototypes-trc",
        "getnext.buffer-bound"],       # its log test reads a log the flusher wrote with the reader's code
    "trygetnext-blocks": [
        "stream.min-size-lossless", "clear.as-if-created", "clear.keeps-run-state",
        "clear.events-lost", "create.pid-zero-self", "create.pid-target",
        "create.trid-usable", "create.suspended", "event.records", "event.all-streams",
        "event.no-stream-no-effect", "event.suspended-no-effect", "getnext.blocks",
        "timedgetnext.waits-until-abstime", "timedgetnext.past-abstime",
        "timedgetnext.realtime-clock", "getnext.reported-once", "getnext.frees-space",
        "timedgetnext.EINVAL-abstime", "timedgetnext.ETIMEDOUT", "start.start-event",
        "start.already-running", "start.full-no-effect", "start.full-loop", "stop.stop-event",
        "stop.status-suspended", "stop.already-suspended", "stop.full-no-effect",
        "stop.full-loop", "xsh211.truncation-values"],
    "record-not-marked-truncated": [
        "getnext.full-data-status"],
    "eventid-open-new-id": [
        "trid_eventid_open.same-name-same-id", "trid_eventid_open.limit-unnamed",
        "trace_h.prototypes-tef",
        "clear.keeps-mapping",
        "eventid_open.same-name-same-id-tri", "trid_eventid_open.same-name-same-id-tri",
        "fork.inherited-mapping"],
    "eventid-get-name-wrong": [
        "trid_eventid_open.maps", "trid_eventid_open.active-stream",
        "trid_eventid_open.name-max", "trace_h.prototypes-tef",
        "clear.log-reinit", "clear.log-first-event", "open.oldest-first", "create_withlog.like-create", "create_withlog.log-to-fd", "create_withlog.trid-unique", "flush.copies-to-log", "flush.traces-during-flush", "flush.frees-space", "log.loop", "log.append", "shutdown.log-ends-with-stop", "shutdown.log-flushed", "shutdown.log-has-mapping", "shutdown.waits-flush", "getnext.prerecorded", "stream.flush-policy", "xsh211.flush-start-event", "trace_h.prototypes-trl",
        "xbd419.one-to-one",
        "clear.keeps-mapping", "trace_h.prototypes-trc",
        "fork.inherited-mapping",
        "getnext.buffer-bound"],       # its opened-log test finds its event by name
    "eventid-open-einval": [
        "trid_eventid_open.ENAMETOOLONG"],
    "eventid-open-limit-error": [
        "trid_eventid_open.limit-unnamed"],
    "typelist-end-error": [
        "xbd419.event-has-type",
        "clear.keeps-mapping"],
    "no-overflow-event": [
        "xsh211.resume-*", "xsh211.overflow-resume-no-data"],
    "esrch-is-eperm": [
        "create_withlog.ESRCH"],
    "clear-keeps-events": [
        "clear.log-reinit", "clear.log-first-event"],
    "setname-ignored": [
        "shutdown.log-has-attributes",
        "attr_init.multiple-create", "trace_h.prototypes-trc"],
}

for _m in MUTANTS:
    _m["collateral"] = list(_m["collateral"]) + OBSERVED_COLLATERAL.get(_m["name"], [])

class MutantError(Exception):
    pass


def apply_edits(src_dir, edits, label):
    """Applies edits [(file, old, new)] to the files of src_dir (a copy of
    reference/); raises MutantError naming the mutant if an anchor does not
    occur exactly once."""
    import os
    for name, old, new in edits:
        path = os.path.join(src_dir, name)
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            raise MutantError("%s: cannot read reference/%s: %s" % (label, name, e.strerror))
        n = text.count(old)
        if n != 1:
            raise MutantError(
                "%s: the anchor occurs %d times in reference/%s (expected once); the "
                "reference has changed: update harness/mutants/mutants.py. Anchor:\n%s"
                % (label, n, name, old))
        with open(path, "w", encoding="utf-8") as f:
            f.write(text.replace(old, new))
