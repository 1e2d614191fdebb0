/* SPDX-License-Identifier: MIT */
/*
 * kvec.h -- the kernel slot protocol vector interpreter (build/harness/kvecrun):
 * its parts and what they share.  vectors/ksp/README.md is the language.
 *
 *   kvecrun.c       command line, the test protocol (--list, --run), running a vector
 *   kvec_fail.c     a run's failure: the message, the code, the rules it blames
 *   kvec_parse.c    reading a .kvec file into lines of tokens; which expectations
 *                   are the decoder's
 *   kvec_rules.c    the rule each check serves, the tag lint, RULE-RESULT lines
 *   kvec_ref.c      the reference-only steps: encode, map, fields, compose, stamp,
 *                   sim, and the expectations on the reference's own output
 *   kvec_build.c    building a trace file: file, slot, raw, bytes (and kv_append)
 *   kvec_decode.c   the decoded view of a file from the reference codec; the
 *                   decoder expectations
 *   kvec_extern.c   another decoder under test: run it, read its JSON
 *   kvec_json.c     a small JSON reader (another decoder's output)
 *   kvec_sha256.c   SHA-256 (pinned simulated traces)
 */
#ifndef KVEC_H
#define KVEC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <posixtrace_codec.h>
#include <posixtrace_kernel.h>

/* Result codes of the test protocol (harness/README.md). */
enum { KV_PASS = 0, KV_FAIL = 1, KV_UNRESOLVED = 2, KV_UNSUPPORTED = 3, KV_UNTESTED = 4 };

/* ---- a vector ------------------------------------------------------------------ */

#define KV_MAX_TOKENS 64
#define KV_MAX_TAGS 16          /* [KSP-n] tags on one step */
#define KV_MAX_RULES 32         /* rules in a vector's header */

struct kv_line {
    unsigned lineno;
    unsigned ntok;
    char *tok[KV_MAX_TOKENS];   /* quoted strings keep their quotes; unescaped on use */
    char *tags[KV_MAX_TAGS];    /* the trailing [KSP-n] tags: the rules the step checks */
    unsigned ntags;
};

struct kv_vector {
    char *path;                 /* as opened */
    char *id;                   /* ksp.<dir>.<name> */
    char *title;
    char *rules;                /* "KSP-8,KSP-12" */
    char *rule_text;            /* the same, split: rule[0..nrules-1] point into it */
    const char *rule[KV_MAX_RULES];
    size_t nrules;
    char *functions;            /* "" or "slot_encode_words,..." */
    struct kv_line *lines;
    size_t nlines;
    char *text;                 /* the file's text, which the tokens point into */
};

/* Reads a vector; 0, or -1 with a message "PATH:LINE: what is wrong". */
int kv_load(const char *path, const char *id, struct kv_vector *v, char *err, size_t errlen);
void kv_free_vector(struct kv_vector *v);

/* Token helpers (kvec_parse.c).  Each returns 0, or -1 with a message. */
int kv_u64(const char *tok, uint64_t *v);                   /* decimal or 0x hex */
int kv_data(const char *tok, unsigned char **out, size_t *len);  /* "text" or hex:... */
int kv_class(const char *tok, unsigned *cls);               /* USER, 6 */
int kv_ext_class(const char *tok, int *ext);                /* KERCALLENTER, 3 */
int kv_flag(const char *tok, uint32_t *flag);               /* S CB CC CE */
int kv_errno(const char *tok, int *e);                      /* EINVAL ... 0 */
const char *kv_errno_name(int e);

/* ---- running one vector ---------------------------------------------------- */

/* The decoded view of a trace file, whoever decoded it. */
struct kv_event {
    uint64_t offset, time;
    unsigned cpu, cls, event;
    int complete;
    uint32_t *words;
    size_t nwords;
};

struct kv_error {
    uint64_t offset;
    char rule[16];
    char kind[24];
};

/* The summary keys vectors may check; the first KV_NSUM_REQUIRED are those
 * every decoder must give (the contract of reference/kernel/KERNEL.md). */
#define KV_NSUM 10
#define KV_NSUM_REQUIRED 5
extern const char *const kv_summary_keys[KV_NSUM];

struct kv_decoded {
    int fatal;                  /* the file was rejected */
    uint64_t fatal_offset;
    char fatal_rule[16];
    char fatal_errno[16];
    char fatal_msg[512];
    struct kv_event *ev;
    size_t nev, capev;
    struct kv_error *err;
    size_t nerr, caperr;
    uint64_t sum[KV_NSUM];      /* by kv_summary_keys */
    unsigned have_sum;          /* bit i: sum[i] given */
};

void kv_decoded_free(struct kv_decoded *d);

/* The state of one run. */
struct kv_run {
    const struct kv_vector *v;
    const char *decoder;        /* NULL: the reference */
    double timeout;             /* seconds for another decoder */
    int external_only;          /* with a decoder: skip the reference-only steps */
    int bless;                  /* --bless: print/write what the reference gives */
    /* The file under construction, or the simulation's. */
    unsigned char *file;
    size_t len, cap;
    int have_file;
    size_t slots_offset;        /* where the slots begin (file step) */
    int big_endian;             /* the file step's byte order */
    size_t header_len;
    int have_sim;
    struct ksim_config sim;
    struct ksim_stats stats;
    struct slot_clock clock;    /* the stamp steps' */
    struct kv_decoded dec;
    int decoded;
    unsigned checks;            /* expectations checked */
    unsigned skipped;           /* reference-only expectations skipped */
    char msg[1024];             /* the failure */
    int code;
    const struct kv_line *fail_line;    /* the step that failed (kvec_rules.c) */
    char fail_rule[16];         /* "KSP-n" when the failure names the rule it breaks
                                   (expect verify): of the step's rules, it alone fails */
    unsigned char *line_ran;    /* per line: its checks ran and passed (kvec_rules.c) */
};

/* Fails the run (the first failure wins); returns KV_FAIL or the code. */
int kv_fail(struct kv_run *r, const struct kv_line *l, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Appends bytes to the file under construction; 0 or -1 (no memory). */
int kv_append(struct kv_run *r, const void *p, size_t n);

/* The steps (kvec_ref.c, kvec_decode.c): each returns KV_PASS to go on. */
int kv_step_encode(struct kv_run *r, size_t *i);    /* consumes its => lines */
int kv_step_map(struct kv_run *r, const struct kv_line *l);
int kv_step_fields(struct kv_run *r, const struct kv_line *l);
int kv_step_compose(struct kv_run *r, const struct kv_line *l);
int kv_step_stamp(struct kv_run *r, const struct kv_line *l);
int kv_step_sim(struct kv_run *r, const struct kv_line *l);
int kv_step_file(struct kv_run *r, const struct kv_line *l);
int kv_step_slot(struct kv_run *r, const struct kv_line *l);
int kv_step_bytes(struct kv_run *r, const struct kv_line *l);
/* expect ...: reference-only ones in kvec_ref.c, decoder ones in
 * kvec_decode.c.  kv_is_decoder_expect says which. */
int kv_is_decoder_expect(const struct kv_line *l);
int kv_expect_ref(struct kv_run *r, const struct kv_line *l);
int kv_expect_decoded(struct kv_run *r, const struct kv_line *l);

/* Decodes the file (once): with the reference, or with r->decoder. */
int kv_decode(struct kv_run *r, const struct kv_line *l);
/* Decodes it with r->decoder into r->dec (kvec_extern.c). */
int kv_decode_external(struct kv_run *r, const struct kv_line *l);

/* An error of the vector itself: UNRESOLVED, "vector error: what". */
int kv_bad_vector(struct kv_run *r, const struct kv_line *l, const char *what);

/* ---- which rule each check serves (kvec_rules.c) ---------------------------- */

/* Is the line a check: expect, =>, or a step with "->"? */
int kv_is_check(const struct kv_line *l);
/* A vector of several rules whose check has no tag, or a tag that is not a
 * rule of the header: -1 with "PATH:LINE: what", else 0. */
int kv_rules_lint(const struct kv_vector *v, char *msg, size_t size);
/* The rules a failure of line l blames (those it serves, or the one the
 * failure names; l NULL: all), joined with ", " into out. */
void kv_rules_blamed(const struct kv_run *r, const struct kv_line *l, char *out, size_t size);
/* The run is about to start / the checks of lines [from, to] ran and passed. */
int kv_rules_start(struct kv_run *r, const struct kv_vector *v);
void kv_rules_ran(struct kv_run *r, const struct kv_line *from, const struct kv_line *to);
/* The RULE-RESULT lines of a PASS or FAIL run (to free), or NULL. */
char *kv_rules_text(const struct kv_run *r);

/* ---- JSON (kvec_json.c) -------------------------------------------------------- */

enum kj_type { KJ_NULL, KJ_FALSE, KJ_TRUE, KJ_NUM, KJ_STR, KJ_ARR, KJ_OBJ };

struct kj {
    enum kj_type type;
    int is_uint;                /* KJ_NUM: a non-negative integer that fits 64 bits */
    uint64_t u;
    char *str;                  /* KJ_STR (NUL-terminated; a NUL inside is refused) */
    struct kj *items;           /* KJ_ARR, KJ_OBJ */
    char **keys;                /* KJ_OBJ */
    size_t n;
};

/* Parses text[0..len-1]; NULL with a message "JSON offset N: ..." on error. */
struct kj *kj_parse(const char *text, size_t len, char *err, size_t errlen);
void kj_free(struct kj *j);
/* The member key of an object, or NULL. */
const struct kj *kj_get(const struct kj *obj, const char *key);

/* ---- SHA-256 (kvec_sha256.c) --------------------------------------------------- */

void kv_sha256(const void *data, size_t len, unsigned char out[32]);
/* The same digest as 64 lowercase hex digits and a NUL (the pins' form). */
void kv_sha256_hex(const void *data, size_t len, char hex[65]);

#endif /* KVEC_H */
