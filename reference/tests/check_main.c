/* SPDX-License-Identifier: MIT */
/*
 * check_main.c -- runs every suite of the reference's unit tests.
 *
 * The CK_* environment variables are honoured by Check itself: CK_FORK
 * (run each test in its own process or not; the valgrind run uses
 * CK_FORK=no), CK_RUN_SUITE / CK_RUN_CASE (run one suite or test case),
 * CK_DEFAULT_TIMEOUT / CK_TIMEOUT_MULTIPLIER, CK_VERBOSITY (CK_ENV: output
 * is CK_NORMAL unless CK_VERBOSITY says otherwise), CK_XML_LOG_FILE_NAME,
 * CK_TAP_LOG_FILE_NAME, CK_LOG_FILE_NAME.
 *
 * 'check_reference --list-suites' prints the suites' names, a line each,
 * the slowest first: 'make check-valgrind' runs each suite in a valgrind
 * of its own (CK_RUN_SUITE), several at a time.
 *
 * Exit status: 0 if every test passed, 1 otherwise.
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every suite, each defined by its check_*.c: declared here, where they
 * run, so that no helper header depends on the tests that use it. */
Suite *suite_attr(void);
Suite *suite_counts(void);
Suite *suite_eintr(void);
Suite *suite_createshutdown(void); /* suite_create is Check's own */
Suite *suite_startstop(void);
Suite *suite_event(void);
Suite *suite_eventid(void);
Suite *suite_typelist(void);
Suite *suite_read(void);
Suite *suite_policy(void);
Suite *suite_status(void);
Suite *suite_clear(void);
Suite *suite_sim(void);
Suite *suite_threads(void);
Suite *suite_sysconf(void);
Suite *suite_filter(void);
Suite *suite_slot(void);    /* check_slot.c: the kernel slot codec */
Suite *suite_kernel_sim(void);     /* check_kernel_sim.c: the simulated kernel */
Suite *suite_kernel_ring(void);    /* check_kernel_ring.c: its buffer ring */
Suite *suite_kernel_dump(void);    /* check_kernel_dump.c: tracedump */
Suite *suite_log_stream(void);     /* check_log_stream.c: streams with a trace log */
Suite *suite_log_open(void);       /* check_log_open.c: pre-recorded streams */
Suite *suite_log_format(void);     /* check_log_format.c: the log file's layout */
Suite *suite_log_faults(void);     /* check_log_faults.c: cut, killed, hostile, full */
Suite *suite_process(void);        /* check_process.c: streams shared between processes */
Suite *suite_log_accounting(void); /* check_log_accounting.c: no loss unreported */
Suite *suite_log_dump(void);       /* check_log_dump.c: tracedump's POSIX view */
Suite *suite_record_stress(void);  /* check_record_stress.c: threads and a child at once */
Suite *suite_log_writefail(void);  /* check_log_writefail.c: writes that fail */
Suite *suite_sigkill(void);        /* check_sigkill.c: recorders killed at random points */

/* Every suite, by the name its suite_create() gives it (CK_RUN_SUITE takes
 * that name; a name that differs runs no test, which 'make check-valgrind'
 * reports).  The slowest come first, so that the suites run in parallel
 * under valgrind end together. */
static const struct {
    const char *name;
    Suite *(*make)(void);
} suites[] = {
    { "process", suite_process },
    { "sigkill", suite_sigkill },
    { "slot", suite_slot },
    { "kernel_dump", suite_kernel_dump },
    { "threads", suite_threads },
    { "record_stress", suite_record_stress },
    { "counts", suite_counts },
    { "eintr", suite_eintr },
    { "filter", suite_filter },
    { "log_faults", suite_log_faults },
    { "log_stream", suite_log_stream },
    { "log_open", suite_log_open },
    { "log_format", suite_log_format },
    { "kernel_ring", suite_kernel_ring },
    { "log_accounting", suite_log_accounting },
    { "startstop", suite_startstop },
    { "typelist", suite_typelist },
    { "sim", suite_sim },
    { "status", suite_status },
    { "sysconf", suite_sysconf },
    { "create", suite_createshutdown },
    { "event", suite_event },
    { "kernel_sim", suite_kernel_sim },
    { "read", suite_read },
    { "log_dump", suite_log_dump },
    { "log_writefail", suite_log_writefail },
    { "policy", suite_policy },
    { "attr", suite_attr },
    { "eventid", suite_eventid },
    { "clear", suite_clear },
};

int main(int argc, char **argv)
{
    const size_t n = sizeof suites / sizeof suites[0];

    if (argc == 2 && strcmp(argv[1], "--list-suites") == 0) {
        for (size_t i = 0; i < n; i++)
            printf("%s\n", suites[i].name);
        return EXIT_SUCCESS;
    }
    if (argc != 1) {
        fprintf(stderr, "usage: %s [--list-suites]\n(CK_RUN_SUITE=NAME runs one suite)\n",
                argv[0]);
        return 2;
    }
    SRunner *sr = srunner_create(NULL);
    for (size_t i = 0; i < n; i++)
        srunner_add_suite(sr, suites[i].make());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
