/* SPDX-License-Identifier: MIT */
/*
 * input_file.c -- see input_file.h.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include "input_file.h"

static char dir[64], path[96];
static int fd = -1;

static void remove_file(void)
{
    close(fd);
    unlink(path);
    rmdir(dir);
}

/* In a folder of its own (mkdtemp: mkstemps is not POSIX), by the name
 * the parser may look at ("input.vec"). */
int fuzz_input_file_init(const char *suffix)
{
    snprintf(dir, sizeof dir, "/tmp/fuzz_input.XXXXXX");
    if (mkdtemp(dir) == NULL)
        return -1;
    int n = snprintf(path, sizeof path, "%s/input%s", dir, suffix);
    if (n < 0 || (size_t)n >= sizeof path)
        return -1;
    fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        return -1;
    atexit(remove_file);
    return 0;
}

const char *fuzz_input_file_write(const uint8_t *data, size_t size)
{
    if (ftruncate(fd, 0) != 0)
        return NULL;
    for (size_t done = 0; done < size;) {
        ssize_t w = pwrite(fd, data + done, size - done, (off_t)done);
        if (w <= 0)
            return NULL;
        done += (size_t)w;
    }
    return path;
}
