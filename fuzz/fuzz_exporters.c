/* SPDX-License-Identifier: MIT */
/*
 * fuzz_exporters.c -- libFuzzer target: tracedump's exports for viewers
 * (--ctf DIR, --chrome, --svg; reference/dump/EXPORT.md) and its text and
 * JSON views with the options people use (--ticks, --delta, --no-totals,
 * --summary, --slots and the filters), on any trace file or POSIX log.
 * Built by 'make fuzz' (mk/fuzz.mk); fuzz/README.md says how to run it.
 *
 * The first byte of an input chooses the output and the options; the rest
 * is the file.  The exports used to run inside the slot decoder's target on
 * every input (five passes an input); on their own, both targets run faster.
 *
 * Besides the sanitizers' checks: a dump that fails says why (a message),
 * and a CTF export leaves its folder with the files a CTF reader opens.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <posixtrace_dump.h>

static FILE *devnull;
static char ctf_dir[64];

static void check(int ok)
{
    if (!ok)
        abort();
}

/* Empties the CTF folder between inputs ("metadata", "cpu0".., "stream"), so
 * that what the check below finds was written by this input. */
static void clear_ctf(void)
{
    DIR *d = opendir(ctf_dir);
    struct dirent *e;
    char p[sizeof ctf_dir + 300];
    while (d && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(p, sizeof p, "%s/%s", ctf_dir, e->d_name);
        unlink(p);
    }
    if (d)
        closedir(d);
}

static void remove_ctf_dir(void)
{
    clear_ctf();
    rmdir(ctf_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    devnull = fopen("/dev/null", "w");
    snprintf(ctf_dir, sizeof ctf_dir, "/tmp/fuzz_ctf.XXXXXX");
    if (devnull == NULL || mkdtemp(ctf_dir) == NULL)
        return -1;
    atexit(remove_ctf_dir);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const classes[] = { "USER", "ker_call", "CONTROL", "SYSTEM" };
    static const char *const events[] = { "BUFFER", "enter:11", "alpha", "TIME" };
    char err[512];

    if (size < 1)
        return 0;
    /* Byte 0: bits 0-2 the format (5-7: CTF again, the costliest to get
     * right), bit 3 ticks, 4 delta, 5 no totals, 6 summary only, 7 a
     * filter (CPUs 0-1, two classes, two events, a time window). */
    uint8_t sel = data[0];
    unsigned fmt = sel & 7;
    struct dump_filter f = {
        .cpus = 3, .classes = classes + (sel & 2), .nclasses = 2,
        .events = events + (sel & 2), .nevents = 2,
        .has_from = 1, .from = 0.0, .has_to = 1, .to = 1e-3,
    };
    struct dump_trace_options o = {
        .format = fmt <= DUMP_SVG ? (enum dump_format)fmt : DUMP_CTF,
        .name = "fuzz",
        .ctf_dir = ctf_dir,
        .seconds = !(sel & 8),
        .delta = !!(sel & 16),
        .totals = !(sel & 32),
        .no_events = !!(sel & 64),
        .slots = (sel & 0x48) == 0x48,
        .filter = (sel & 128) ? &f : NULL,
    };
    struct dump_trace_result r;
    err[0] = '\0';
    if (o.format == DUMP_CTF)
        clear_ctf();
    int rc = dump_trace_mem(data + 1, size - 1, devnull, &o, &r, err, sizeof err);
    check(rc == 0 || err[0] != '\0');       /* a failure says why */
    if (rc == 0 && o.format == DUMP_CTF) {
        char p[128];
        snprintf(p, sizeof p, "%s/metadata", ctf_dir);
        check(access(p, R_OK) == 0);        /* a CTF reader starts there */
    }
    return 0;
}
