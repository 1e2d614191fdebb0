/* SPDX-License-Identifier: MIT */
/*
 * input_file.h -- for the fuzz targets of parsers that read a file by its
 * path (the .vec and .kvec loaders): one temporary file, rewritten with each
 * input, removed at exit.
 */
#ifndef FUZZ_INPUT_FILE_H
#define FUZZ_INPUT_FILE_H

#include <stddef.h>
#include <stdint.h>

/* Makes the file (its name ends with suffix); 0 or -1. */
int fuzz_input_file_init(const char *suffix);

/* Writes data into it; its path, or NULL on an I/O error. */
const char *fuzz_input_file_write(const uint8_t *data, size_t size);

#endif
