// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz: COUNT mutated images (test/image/mutate.c) of the kit's own images, laid
 * out on one disk as build/fetch/fetch-corpus lays out the corpus, so
 * test/guest/run-corpus boots a kernel on all of them at once.
 *
 * Image I is BASE[I mod N] mutated with a seed drawn from SEED and I, and
 * named sSEED-I-CASE (CASE: the base's name without .img).  OUTDIR gets
 *   disk          the images, each at a 1 MiB boundary, holes kept
 *   index         "NAME OFFSET SIZE -" a line (the corpus index)
 *   zones/NAME    what the kernel must never hand out through a file
 *   mutations     "NAME SEED64 what was done" a line, also for images
 *                 libext2fs could not write (SEED64 "-"), which are left out
 * The same SEED and bases give byte-identical output.
 * Usage: fuzz SEED FIRST COUNT OUTDIR BASE.img...   (images FIRST to
 * FIRST+COUNT-1, so a long run is made in batches)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "mutate.h"

static const char *prog = "fuzz";

static void die(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", prog, what, strerror(errno));
	exit(1);
}

/* Copy IN into OUT at OFF, leaving blocks of zeros as holes. */
static long long copy_sparse(const char *in, int out, long long off)
{
	static char buf[65536];
	long long size = 0;
	struct stat st;
	ssize_t n;
	int fd = open(in, O_RDONLY);

	if (fd < 0)
		die(in);
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		ssize_t i;

		for (i = 0; i < n && !buf[i]; i++)
			;
		if (i < n && pwrite(out, buf, (size_t)n, (off_t)(off + size)) != n)
			die("write the disk");
		size += n;
	}
	if (n < 0)
		die(in);
	close(fd);
	/* The zeros at the end are the image's too. */
	if (fstat(out, &st))
		die("stat the copy");
	if (st.st_size < off + size && ftruncate(out, (off_t)(off + size)))
		die("extend the copy");
	return size;
}

static unsigned long long mix(unsigned long long z)
{
	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int main(int argc, char **argv)
{
	char path[4096], one[4096], zone[4096], name[256], what[1024];
	unsigned long long seed, first, count, i;
	long long off = 0, size;
	FILE *index, *log;
	int disk, nbase;
	char *end;

	if (argc < 6) {
		fprintf(stderr, "usage: %s SEED FIRST COUNT OUTDIR BASE.img...\n", prog);
		return 2;
	}
	seed = strtoull(argv[1], &end, 10);
	if (*end || !*argv[1])
		return fprintf(stderr, "%s: SEED '%s' is not a number\n", prog, argv[1]), 2;
	first = strtoull(argv[2], &end, 10);
	if (*end || !*argv[2])
		return fprintf(stderr, "%s: FIRST '%s' is not a number\n", prog, argv[2]), 2;
	count = strtoull(argv[3], &end, 10);
	if (*end || !*argv[3] || count > 100000)
		return fprintf(stderr, "%s: COUNT '%s' is not a number up to 100000\n", prog, argv[3]), 2;
	nbase = argc - 5;
	snprintf(path, sizeof(path), "%s/zones", argv[4]);
	if (mkdir(argv[4], 0755) && errno != EEXIST)
		die(argv[4]);
	if (mkdir(path, 0755) && errno != EEXIST)
		die(path);
	snprintf(path, sizeof(path), "%s/disk", argv[4]);
	disk = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (disk < 0)
		die(path);
	snprintf(path, sizeof(path), "%s/index.tmp", argv[4]);
	index = fopen(path, "w");
	snprintf(path, sizeof(path), "%s/mutations", argv[4]);
	log = fopen(path, "w");
	if (!index || !log)
		die(path);
	snprintf(one, sizeof(one), "%s/one.img", argv[4]);
	for (i = first; i < first + count; i++) {
		const char *base = argv[5 + i % (unsigned long long)nbase];
		const char *slash = strrchr(base, '/');
		unsigned long long s = mix(seed * 0x100000001b3ULL + i);
		int fd;

		snprintf(name, sizeof(name), "s%llu-%llu-%s", seed, i, slash ? slash + 1 : base);
		if (strlen(name) > 4 && !strcmp(name + strlen(name) - 4, ".img"))
			name[strlen(name) - 4] = '\0';
		fd = open(one, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			die(one);
		copy_sparse(base, fd, 0);
		if (close(fd))
			die(one);
		snprintf(zone, sizeof(zone), "%s/zones/%s", argv[4], name);
		if (mutate_file(one, s, zone, what, sizeof(what))) {
			fprintf(log, "%s - %s\n", name, what);
			continue;
		}
		size = copy_sparse(one, disk, off);
		fprintf(index, "%s %lld %lld -\n", name, off, size);
		fprintf(log, "%s %016llx %s\n", name, s, what);
		off = (off + size + 1048575) / 1048576 * 1048576;
	}
	unlink(one);
	if (ftruncate(disk, off) || close(disk) || fclose(log) || fclose(index))
		die("write the output");
	snprintf(path, sizeof(path), "%s/index.tmp", argv[4]);
	snprintf(one, sizeof(one), "%s/index", argv[4]);
	if (rename(path, one))
		die(one);
	return 0;
}
