/*
 * sys_types_h.c -- XBD <sys/types.h>: the trace types are defined there too,
 * not only in <trace.h> (rules sys_types_h.trace-types,
 * sys_types_h.trace_event_set_t).
 *
 * Whether a header defines a type is decided by compiling: the probe
 * conformance/probes/sys_types_h.c includes <sys/types.h> alone and declares
 * objects of each type.  mk/harness.mk compiles its TRC and TEF parts
 * separately and builds this file with CT_PROBE_TRC and CT_PROBE_TEF set to 1
 * (the part compiled and is linked in) or 0 (it did not), and CT_PROBE_LOG
 * naming the compiler's output, which a failure message quotes.
 *
 * Not tested: that <sys/types.h> defines nothing else of <trace.h> (the spec
 * does not forbid it).
 */
#include "ct.h"

#include <stdio.h>

#if !CT_PROBE_TRC || !CT_PROBE_TEF
/* The first error line the compiler gave for one part of the probe: the
 * log holds a line "== part" before each part's output. */
static const char *probe_error(char *buf, size_t size, const char *part)
{
#ifdef CT_PROBE_LOG
    FILE *f = fopen(CT_PROBE_LOG, "r");
    int in_part = 0;
    if (f != NULL) {
        while (fgets(buf, (int)size, f) != NULL) {
            if (strncmp(buf, "== ", 3) == 0)
                in_part = strstr(buf, part) != NULL;
            else if (in_part && strstr(buf, "error") != NULL) {
                fclose(f);
                buf[strcspn(buf, "\n")] = '\0';
                return buf;
            }
        }
        fclose(f);
    }
#else
    (void)part;
#endif
    snprintf(buf, size, "(the compiler's output is not available)");
    return buf;
}
#endif

#if CT_PROBE_TRC
int ct_probe_sys_types_trc(void);
#endif
#if CT_PROBE_TEF
int ct_probe_sys_types_tef(void);
#endif

CT_TEST(trace_types, "sys_types_h.trace-types", "TRC", "")
{
#if CT_PROBE_TRC
    CT_CHECK(ct_probe_sys_types_trc() == 1, "probe returned %d", ct_probe_sys_types_trc());
#else
    char buf[512];
    CT_FAIL("<sys/types.h> alone does not define trace_attr_t, trace_event_id_t and "
            "trace_id_t (the probe does not compile): %s",
            probe_error(buf, sizeof buf, "CT_PROBE_PART_TRC"));
#endif
}

CT_TEST(trace_event_set_type, "sys_types_h.trace_event_set_t", "TRC,TEF", "")
{
#if CT_PROBE_TEF
    CT_CHECK(ct_probe_sys_types_tef() == 1, "probe returned %d", ct_probe_sys_types_tef());
#else
    char buf[512];
    CT_FAIL("<sys/types.h> alone does not define trace_event_set_t (the probe does not "
            "compile): %s", probe_error(buf, sizeof buf, "CT_PROBE_PART_TEF"));
#endif
}
