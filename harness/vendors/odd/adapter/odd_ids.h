/* SPDX-License-Identifier: MIT */
/*
 * odd_ids.h -- the odd vendor's trace ids (a structure: slot and generation)
 * and the reference's streams behind them.
 */
#ifndef ODD_IDS_H
#define ODD_IDS_H

#include <trace.h>

/* A new id for the reference's stream ref (a trace id of the bridge); EAGAIN
 * if every slot is taken. */
int odd_ids_add(unsigned long ref, trace_id_t *id);
/* The reference's stream behind id, or ODDREF_NO_STREAM. */
unsigned long odd_ids_ref(trace_id_t id);
/* Forgets id (after a successful shutdown or close): the slot's next id has
 * another generation, so the old one names no stream any more. */
void odd_ids_drop(trace_id_t id);

/* The statuses get_status resets once read (the overrun statuses, S0176
 * S0178; the flush error): odd_ids_keep_resets() keeps those of a status the
 * adapter read for itself, odd_ids_give_resets() hands them to the caller's
 * next get_status (and forgets them). */
void odd_ids_keep_resets(trace_id_t id, const struct posix_trace_status_info *st);
void odd_ids_give_resets(trace_id_t id, struct posix_trace_status_info *st);

#endif /* ODD_IDS_H */
