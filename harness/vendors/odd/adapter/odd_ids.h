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

#endif /* ODD_IDS_H */
