/* SPDX-License-Identifier: MIT */
/*
 * ct_trace_h.h -- the <trace.h> prototypes of XBD <trace.h>, as lists shared
 * by the compile probes of the header rules (conformance/probes/
 * header_trace_h.c, inherit.c, log_misc.c: each prototype has exactly the
 * listed type, rules trace_h.prototypes-*) and by their test programs (which
 * call each function through a pointer of the listed type once the probe
 * compiled).  One list per option, so that each rule has its own; and the
 * checks the probes make of structure members.
 *
 * CT_PROTOTYPES_xxx(X) calls X(name, return type, (parameter types)) for
 * each function.  Includes nothing: include <trace.h> first.
 */
#ifndef CT_TRACE_H_H
#define CT_TRACE_H_H

/* Does expr have exactly type ...? (An integer constant expression.) */
#define CT_IS(expr, ...) _Generic((expr), __VA_ARGS__: 1, default: 0)

/* The probe's check of one structure member: struct s has a member m of
 * exactly type t (its address is a t *). */
#define CT_MEMBER_ASSERT(s, m, t)                                                     \
    _Static_assert(CT_IS(&((struct s *)0)->m, t *),                                   \
                   "struct " #s " has no member " #m " of type " #t);

/* The probe's check of one prototype (after #undef of the name): a hard
 * error, whatever the warning flags, naming the function. */
#define CT_PROTO_ASSERT(fn, ret, params)                                              \
    _Static_assert(CT_IS(&fn, ret (*) params), #fn " is not declared as " #ret " " #params);

/* The test's pointer p_<name> to one function, of the listed type.  (fn) in
 * parentheses: the function, not a function-like macro of the same name. */
#define CT_PROTO_POINTER(fn, ret, params) static ret (*const p_##fn) params = (fn);

/* The 31 TRC functions. */
#define CT_PROTOTYPES_TRC(X)                                                          \
    X(posix_trace_attr_destroy, int, (trace_attr_t *))                                \
    X(posix_trace_attr_getclockres, int, (const trace_attr_t *, struct timespec *))   \
    X(posix_trace_attr_getcreatetime, int, (const trace_attr_t *, struct timespec *)) \
    X(posix_trace_attr_getgenversion, int, (const trace_attr_t *, char *))            \
    X(posix_trace_attr_getmaxdatasize, int, (const trace_attr_t *restrict,            \
                                             size_t *restrict))                       \
    X(posix_trace_attr_getmaxsystemeventsize, int, (const trace_attr_t *restrict,     \
                                                    size_t *restrict))                \
    X(posix_trace_attr_getmaxusereventsize, int, (const trace_attr_t *restrict, size_t, \
                                                  size_t *restrict))                  \
    X(posix_trace_attr_getname, int, (const trace_attr_t *, char *))                  \
    X(posix_trace_attr_getstreamfullpolicy, int, (const trace_attr_t *restrict,       \
                                                  int *restrict))                     \
    X(posix_trace_attr_getstreamsize, int, (const trace_attr_t *restrict,             \
                                            size_t *restrict))                        \
    X(posix_trace_attr_init, int, (trace_attr_t *))                                   \
    X(posix_trace_attr_setmaxdatasize, int, (trace_attr_t *, size_t))                 \
    X(posix_trace_attr_setname, int, (trace_attr_t *, const char *))                  \
    X(posix_trace_attr_setstreamfullpolicy, int, (trace_attr_t *, int))               \
    X(posix_trace_attr_setstreamsize, int, (trace_attr_t *, size_t))                  \
    X(posix_trace_clear, int, (trace_id_t))                                           \
    X(posix_trace_create, int, (pid_t, const trace_attr_t *restrict,                  \
                                trace_id_t *restrict))                                \
    X(posix_trace_event, void, (trace_event_id_t, const void *restrict, size_t))      \
    X(posix_trace_eventid_equal, int, (trace_id_t, trace_event_id_t, trace_event_id_t)) \
    X(posix_trace_eventid_get_name, int, (trace_id_t, trace_event_id_t, char *))      \
    X(posix_trace_eventid_open, int, (const char *restrict, trace_event_id_t *restrict)) \
    X(posix_trace_eventtypelist_getnext_id, int, (trace_id_t, trace_event_id_t *restrict, \
                                                  int *restrict))                     \
    X(posix_trace_eventtypelist_rewind, int, (trace_id_t))                            \
    X(posix_trace_get_attr, int, (trace_id_t, trace_attr_t *))                        \
    X(posix_trace_get_status, int, (trace_id_t, struct posix_trace_status_info *))    \
    X(posix_trace_getnext_event, int, (trace_id_t,                                    \
                                       struct posix_trace_event_info *restrict,       \
                                       void *restrict, size_t, size_t *restrict,      \
                                       int *restrict))                                \
    X(posix_trace_shutdown, int, (trace_id_t))                                        \
    X(posix_trace_start, int, (trace_id_t))                                           \
    X(posix_trace_stop, int, (trace_id_t))                                            \
    X(posix_trace_timedgetnext_event, int, (trace_id_t,                               \
                                            struct posix_trace_event_info *restrict,  \
                                            void *restrict, size_t, size_t *restrict, \
                                            int *restrict,                            \
                                            const struct timespec *restrict))         \
    X(posix_trace_trygetnext_event, int, (trace_id_t,                                 \
                                          struct posix_trace_event_info *restrict,    \
                                          void *restrict, size_t, size_t *restrict,   \
                                          int *restrict))

/* The 8 TEF functions. */
#define CT_PROTOTYPES_TEF(X)                                                          \
    X(posix_trace_eventset_add, int, (trace_event_id_t, trace_event_set_t *))         \
    X(posix_trace_eventset_del, int, (trace_event_id_t, trace_event_set_t *))         \
    X(posix_trace_eventset_empty, int, (trace_event_set_t *))                         \
    X(posix_trace_eventset_fill, int, (trace_event_set_t *, int))                     \
    X(posix_trace_eventset_ismember, int, (trace_event_id_t,                          \
                                           const trace_event_set_t *restrict,         \
                                           int *restrict))                            \
    X(posix_trace_get_filter, int, (trace_id_t, trace_event_set_t *))                 \
    X(posix_trace_set_filter, int, (trace_id_t, const trace_event_set_t *, int))      \
    X(posix_trace_trid_eventid_open, int, (trace_id_t, const char *restrict,          \
                                           trace_event_id_t *restrict))

/* The 2 TRI functions. */
#define CT_PROTOTYPES_TRI(X)                                                          \
    X(posix_trace_attr_getinherited, int, (const trace_attr_t *restrict, int *restrict)) \
    X(posix_trace_attr_setinherited, int, (trace_attr_t *, int))

/* The 9 TRL functions. */
#define CT_PROTOTYPES_TRL(X)                                                          \
    X(posix_trace_attr_getlogfullpolicy, int, (const trace_attr_t *restrict,          \
                                               int *restrict))                        \
    X(posix_trace_attr_getlogsize, int, (const trace_attr_t *restrict, size_t *restrict)) \
    X(posix_trace_attr_setlogfullpolicy, int, (trace_attr_t *, int))                  \
    X(posix_trace_attr_setlogsize, int, (trace_attr_t *, size_t))                     \
    X(posix_trace_close, int, (trace_id_t))                                           \
    X(posix_trace_create_withlog, int, (pid_t, const trace_attr_t *restrict, int,     \
                                        trace_id_t *restrict))                        \
    X(posix_trace_flush, int, (trace_id_t))                                           \
    X(posix_trace_open, int, (int, trace_id_t *))                                     \
    X(posix_trace_rewind, int, (trace_id_t))

#endif /* CT_TRACE_H_H */
