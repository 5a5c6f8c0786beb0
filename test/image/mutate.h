/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KIT_MUTATE_H
#define KIT_MUTATE_H
#include <stddef.h>

/* The one time every image of the kit carries (mkimage, mutate). */
#define FAKE_TIME 1600000000L

/*
 * mutate_file: one seeded mutation of the ext4 image at PATH, in place
 * (see mutate.c); ZONE gets the sha256 (hex, a line each, sorted) of every
 * block the kernel must never hand out through a file.  WHAT gets what was
 * done, in words.  0 when the image was written, -1 when not (WHAT says
 * why; PATH may be half-changed: mutate a copy).
 */
int mutate_file(const char *path, unsigned long long seed, const char *zone, char *what, size_t what_len);

#endif
