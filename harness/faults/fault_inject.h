/* SPDX-License-Identifier: MIT */
/*
 * fault_inject.h -- the fault loop's interposer (fault_inject.c): fails the
 * Nth call of one kind that the implementation makes.
 *
 * The program is linked with -Wl,--wrap=FUNCTION for each function below
 * (mk/faults.mk): every call the objects linked make -- the reference's
 * static library, the driver -- goes to __wrap_FUNCTION, which counts it
 * while the window is open and fails the armed one; calls inside the C
 * library (a thread's stack, stdio's buffers) are not the implementation's
 * and are neither counted nor failed.
 */
#ifndef FAULT_INJECT_H
#define FAULT_INJECT_H

enum fault_kind {
    FAULT_WRITE,        /* write, pwrite: ENOSPC */
    FAULT_FSYNC,        /* fsync, fdatasync: EIO */
    FAULT_FTRUNCATE,    /* ftruncate: EIO */
    FAULT_MMAP,         /* mmap: ENOMEM */
    FAULT_MALLOC,       /* malloc, calloc, realloc: NULL, ENOMEM */
    FAULT_SHM_OPEN,     /* shm_open: EMFILE */
    FAULT_OPEN,         /* open: EMFILE */
    FAULT_KINDS
};

extern const char *const fault_kind_names[FAULT_KINDS];

/* The kind named name, or -1. */
int fault_kind_of(const char *name);

/* Fails the nth call (1, 2, ...) of kind made while the window is open;
 * n = 0 fails none (the counting run). */
void fault_arm(enum fault_kind kind, unsigned long n);

/* Opens and closes the window in which calls are counted (and failed). */
void fault_window(int open);

/* The calls of kind counted so far; whether the armed fault was injected. */
unsigned long fault_calls(enum fault_kind kind);
int fault_injected(void);

#endif
