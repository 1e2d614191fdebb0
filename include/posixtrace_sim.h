/* SPDX-License-Identifier: MIT */
/*
 * <posixtrace_sim.h> -- simulation control for the posixtrace reference.
 *
 * For reference-specific (exact) tests only: portable conformance tests never
 * include this header.  It makes a stream deterministic: with a simulated
 * clock, the same program gives the same events and the same timestamps, run
 * after run, on any machine.
 *
 * The simulated clock belongs to a stream.  It is chosen through the stream's
 * creation attributes (an implementation extension of trace_attr_t, which
 * XSH 2.11.1.2 allows): the clock starts at `start` when the stream is
 * created; every event recorded in the stream (system events included) takes
 * the clock's current value as its timestamp, and the clock then advances by
 * `step_ns`.  posixtrace_sim_advance() moves it on explicitly.  The stream's
 * creation time is `start`, and its clock resolution is 1 ns.
 *
 * Simulated CPUs belong to threads: a thread that calls
 * posixtrace_sim_setcpu(n) records its events as coming from CPU n (the
 * posix_cpu member of struct posix_trace_event_info).  Other threads record
 * the CPU they run on.
 *
 * Timeouts of posix_trace_timedgetnext_event() are always measured on the
 * real CLOCK_REALTIME, as XSH requires.
 *
 * Flushes of a stream with a trace log on the simulated clock happen inside
 * the controller's call that decides them, before it returns: the FLUSH
 * policy's in the posix_trace_event() whose event reaches the stream's flush
 * mark (half full) or finds no room, posix_trace_flush()'s in
 * posix_trace_flush() (the flush is complete when it returns), the last one
 * in posix_trace_shutdown() (or at exit); never when a thread happens to be
 * scheduled.  FLUSH_START follows the event that started the flush and
 * FLUSH_STOP follows FLUSH_START; each takes one step of the clock, like any
 * event.  Such a FLUSH stream loses an event only when it is larger than the
 * stream; what its log cannot take is discarded (and counted) by the log.
 * Other threads' calls on the stream wait while it flushes.  So:
 *   - one thread: the same program writes the same log, byte for byte (with
 *     posixtrace_attr_setsimorigin), whatever the stream and log policies,
 *     sizes, flush calls and the machine's load;
 *   - several threads of the controller: the log follows the order in which
 *     their calls take the stream's lock; the same order, the same log;
 *   - another process recording into the stream (INHERITED, or a traced
 *     child) cannot run the controller's log code: when its event reaches a
 *     FLUSH stream's mark it asks the controller's flusher thread for the
 *     flush and goes on, and its events that find the stream full before
 *     that thread has run are lost as under UNTIL_FULL.  That part of a log
 *     depends on timing (reference/log/LOGFORMAT.md section 9 says how to
 *     keep it deterministic).
 */
#ifndef POSIXTRACE_SIM_H
#define POSIXTRACE_SIM_H

#include <posixtrace_api.h>
#include <trace.h>

__POSIXTRACE_BEGIN_API

/* Streams created from attr use a simulated clock starting at *start and
 * advancing by step_ns (>= 0) after each event.  EINVAL: attr not
 * initialised, start NULL or not normalised, step_ns negative. */
int posixtrace_attr_setsimclock(trace_attr_t *attr,
                                const struct timespec *start, long step_ns);

/* *enabled is nonzero if attr selects the simulated clock; start and step_ns
 * (either may be NULL) receive its settings.  EINVAL: attr not initialised,
 * enabled NULL. */
int posixtrace_attr_getsimclock(const trace_attr_t *attr, int *enabled,
                                struct timespec *start, long *step_ns);

/* Streams created from attr give their events deterministic origins: the
 * process id pid (> 0) for every event recorded by a process, the thread ids
 * 1, 2, ... in the order threads first record into the stream (a thread
 * whose pthread_t is reused counts as the same thread), a null program
 * address, and the CPU the thread chose with posixtrace_sim_setcpu() or -1
 * (unknown).  With the simulated clock, the same program then writes the
 * same trace log, byte for byte (reference/log/LOGFORMAT.md section 9).
 * EINVAL: attr not initialised, pid not positive. */
int posixtrace_attr_setsimorigin(trace_attr_t *attr, pid_t pid);

/* *enabled is nonzero if attr selects deterministic origins; pid (may be
 * NULL) receives the process id given.  EINVAL: attr not initialised,
 * enabled NULL. */
int posixtrace_attr_getsimorigin(const trace_attr_t *attr, int *enabled, pid_t *pid);

/* Moves the simulated clock of stream trid forward by ns (>= 0).
 * EINVAL: trid is not an active stream of this process, or it has no
 * simulated clock, or ns is negative. */
int posixtrace_sim_advance(trace_id_t trid, long long ns);

/* The current value of the simulated clock of trid (the timestamp the next
 * event will get).  EINVAL as for posixtrace_sim_advance(), or now NULL. */
int posixtrace_sim_now(trace_id_t trid, struct timespec *now);

/* Events recorded by the calling thread from now on carry CPU cpu
 * (0..1023); -1 goes back to the real CPU.  EINVAL otherwise. */
int posixtrace_sim_setcpu(int cpu);

/* The calling thread's simulated CPU, or -1 if it has none. */
int posixtrace_sim_getcpu(void);

__POSIXTRACE_END_API

#endif /* POSIXTRACE_SIM_H */
