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
 * Exit status: 0 if every test passed, 1 otherwise.
 */
#include "test_util.h"

#include <stdlib.h>

/* Every suite, each defined by its check_*.c: declared here, where they
 * run, so that no helper header depends on the tests that use it. */
Suite *suite_attr(void);
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

int main(void)
{
    SRunner *sr = srunner_create(suite_attr());
    int failed;

    srunner_add_suite(sr, suite_createshutdown());
    srunner_add_suite(sr, suite_startstop());
    srunner_add_suite(sr, suite_event());
    srunner_add_suite(sr, suite_eventid());
    srunner_add_suite(sr, suite_typelist());
    srunner_add_suite(sr, suite_filter());
    srunner_add_suite(sr, suite_read());
    srunner_add_suite(sr, suite_policy());
    srunner_add_suite(sr, suite_status());
    srunner_add_suite(sr, suite_clear());
    srunner_add_suite(sr, suite_sim());
    srunner_add_suite(sr, suite_process());
    srunner_add_suite(sr, suite_threads());
    srunner_add_suite(sr, suite_sysconf());
    srunner_add_suite(sr, suite_slot());
    srunner_add_suite(sr, suite_kernel_sim());
    srunner_add_suite(sr, suite_kernel_ring());
    srunner_add_suite(sr, suite_kernel_dump());
    srunner_add_suite(sr, suite_log_stream());
    srunner_add_suite(sr, suite_log_open());
    srunner_add_suite(sr, suite_log_format());
    srunner_add_suite(sr, suite_log_faults());
    srunner_add_suite(sr, suite_log_accounting());
    srunner_add_suite(sr, suite_log_dump());

    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
