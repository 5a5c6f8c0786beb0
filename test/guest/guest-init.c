// SPDX-License-Identifier: GPL-2.0
/*
 * guest-init: the static /init of every test guest.
 *
 * For each line of /plan ("DEV CASE ro|rw [opts=O] [probe-rw] [fitrim]
 * [revalidate] [remount-rw] [getfsmap] [mb-groups]") it
 * mounts /dev/DEV as asked, checks every file against /manifests/CASE, tries
 * the write paths, and reports in KTAP.  With fitrim it also asks the
 * mounted filesystem to discard its free space (FITRIM, as fstrim does),
 * then mounts it again read-only and checks every file once more: a
 * filesystem that trusted bitmaps it should not have lost data.  With
 * revalidate a read-only mount is remounted with block_validity and every
 * file checked again (what the page cache kept must not outlive the
 * checks); with remount-rw it is remounted read-write, as "mount -o
 * remount,rw" does; with getfsmap it asks for the filesystem's space map
 * (GETFSMAP, which reads the bitmaps) and counts the free extents it
 * returns; with mb-groups it reads /proc/fs/ext4/DEV/mb_groups (mballoc's
 * view of every group, built from the block bitmaps, as a monitoring tool
 * reads it) and counts its groups and free clusters.
 * Facts go to "# out: " lines (the host
 * compares them with the case's expected verdict); how long the first
 * mount(2) took (CLOCK_MONOTONIC, in the guest: under TCG a measure to
 * compare kernels by, not a real disk's time) to "# mount-time CASE US";
 * the kernel's own
 * messages of that case to "# kmsg: " lines, all on the KTAP channel (/dev/ttyS1,
 * or the device KIT_KTAP names).  An Oops, BUG, WARNING, KASAN
 * or panic line in the case's kernel log makes it "not ok", whatever the
 * mount returned.  Messages the kernel prints after a case's verdict and
 * before the next case starts (a late KASAN report or WARNING from work
 * the case left behind) are that case's too: they follow a line
 * "# after N CASE", and trouble among them is reported as "# trouble after
 * N CASE: LINE", which the host makes the case's ERROR.  Every line of the
 * kernel log is scanned; what the kernel printed before the first case
 * comes first, as "# kmsg: " lines of no case.  Text from the kernel or
 * from an image (messages, file names) is printed with its control
 * characters escaped (\t, \r, \n, \xHH), so it cannot end or forge a line.
 * Then it powers off through reboot(2), which QEMU with
 * -no-reboot turns into an exit.
 *
 * With /corpus instead ("DEV" on its first line, then "IMAGE OFFSET SIZE"
 * lines) it takes each image from its place on the one disk DEV through a
 * read-only loop device, mounts it read-only, walks every directory in name
 * order and reads every file and link (at most WALK_ENTRIES entries and
 * WALK_BYTES bytes, so the walk is the same on every kernel), and reports
 * "mount: ERRNO" and, mounted, "walk: D dirs, F files, L links, B bytes,
 * E errors, sha256 H[, truncated][ (first: PATH: ERRNO)]": H digests every
 * name, type and byte read, so a kernel that reads anything else differs.
 * Where /zones/IMAGE lists the sha256 of the image's system-zone blocks
 * (test/fuzz/fuzz.c), every block a file reads is compared with them: "zone: N
 * blocks, L read through a file[ (first: PATH)]".
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>
#include <linux/fsmap.h>
#include <linux/loop.h>
#include "sha256.h"

#define MAX_CASES 64
#define KLOG_READ 2
#define KLOG_SIZE_UNREAD 9

static const char *errname(int e)
{
	static char other[16];

	switch (e) {
	case 0: return "ok";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case EIO: return "EIO";
	case ENXIO: return "ENXIO";
	case ENOMEM: return "ENOMEM";
	case EACCES: return "EACCES";
	case EBUSY: return "EBUSY";
	case EEXIST: return "EEXIST";
	case ENODEV: return "ENODEV";
	case ENOTDIR: return "ENOTDIR";
	case EISDIR: return "EISDIR";
	case EINVAL: return "EINVAL";
	case EFBIG: return "EFBIG";
	case ENOSPC: return "ENOSPC";
	case EROFS: return "EROFS";
	case ERANGE: return "ERANGE";
	case EBADMSG: return "EBADMSG";	/* EFSBADCRC */
	case EOVERFLOW: return "EOVERFLOW";
	case EUCLEAN: return "EUCLEAN";	/* EFSCORRUPTED */
	case ESTALE: return "ESTALE";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	}
	snprintf(other, sizeof(other), "E%d", e);
	return other;
}

static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fflush(stdout);
}

/* ---- text the guest did not write ---- */

/* S with its control characters escaped into DST (LEN bytes), cut short
 * when DST is full: a kernel message or a file name on one line of the
 * report, whatever bytes it holds. */
static const char *escape(char *dst, size_t len, const char *s)
{
	size_t n = 0;

	for (; *s && n + 5 < len; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\t' || c == '\r' || c == '\n') {
			dst[n++] = '\\';
			dst[n++] = c == '\t' ? 't' : c == '\r' ? 'r' : 'n';
		} else if (c < 0x20 || c == 0x7f) {
			n += (size_t)snprintf(dst + n, len - n, "\\x%02x", c);
		} else {
			dst[n++] = (char)c;
		}
	}
	dst[n] = '\0';
	return dst;
}

/* ---- kernel log, per case ---- */

/*
 * The guest is the kernel log's only reader: each drain reads every
 * message the kernel has not handed out yet (the kernel's own log buffer,
 * 128 KiB by default, bounds what can wait unread), scans every line for
 * trouble and prints each as a "# kmsg: " line.  Past KLOG_SHOWN bytes in
 * one drain only the lines that are trouble are printed, and a last line
 * says how many were not; KLOG_MAX bounds a drain, so a kernel that never
 * stops printing cannot hold the guest (the rest waits for the next one).
 */
#define KLOG_CHUNK (1 << 16)
#define KLOG_SHOWN (1L << 20)
#define KLOG_MAX (16L << 20)

static char trouble[512];

static const char *const bad_words[] = {
	"Oops", "BUG:", "WARNING:", "KASAN", "Kernel panic", "general protection fault",
	"kernel BUG", "Call Trace", "UBSAN", NULL,
};

struct klog_count {
	long shown, hidden, hidden_bytes;
};

static void klog_line(char *p, struct klog_count *k)
{
	static char esc[8192];
	const char *const *w;
	size_t len;
	int bad = 0;

	if (p[0] == '<' && strchr(p, '>'))	/* "<3>" level prefix */
		p = strchr(p, '>') + 1;
	len = strlen(p) + 1;
	for (w = bad_words; *w && !bad; w++)
		bad = strstr(p, *w) != NULL;
	if (bad && !trouble[0])
		escape(trouble, sizeof(trouble), p);
	if (!bad && k->shown + (long)len > KLOG_SHOWN) {
		k->hidden++;
		k->hidden_bytes += (long)len;
		return;
	}
	k->shown += (long)len;
	say("# kmsg: %s\n", escape(esc, sizeof(esc), p));
}

/* Read, scan and print what the kernel has not handed out yet. */
static void klog_drain(void)
{
	static char buf[KLOG_CHUNK + 1];
	struct klog_count k = { 0, 0, 0 };
	size_t have = 0;
	long total = 0;
	char *start, *nl;
	int n;

	while (total < KLOG_MAX && (n = klogctl(KLOG_SIZE_UNREAD, NULL, 0)) > 0) {
		/* A message may be handed out in two reads: keep its start. */
		if (n > (int)(KLOG_CHUNK - have))
			n = (int)(KLOG_CHUNK - have);
		n = klogctl(KLOG_READ, buf + have, n);
		if (n <= 0)
			break;
		total += n;
		have += (size_t)n;
		buf[have] = '\0';
		for (start = buf; (nl = memchr(start, '\n', have - (size_t)(start - buf))); start = nl + 1) {
			*nl = '\0';
			if (*start)
				klog_line(start, &k);
		}
		have -= (size_t)(start - buf);
		memmove(buf, start, have);
		if (have == KLOG_CHUNK) {
			buf[have] = '\0';
			klog_line(buf, &k);
			have = 0;
		}
	}
	if (have) {
		buf[have] = '\0';
		klog_line(buf, &k);
	}
	if (k.hidden)
		say("# kmsg: [guest-init: %ld more lines (%ld bytes) of kernel messages not shown; every line was scanned]\n",
		    k.hidden, k.hidden_bytes);
}

/* What the kernel printed before the first case: shown, not judged. */
static void klog_boot(void)
{
	trouble[0] = '\0';
	klog_drain();
	if (trouble[0])
		say("# trouble at boot: %s\n", trouble);
	trouble[0] = '\0';
}

/* What the kernel printed after case N's verdict is that case's: see the
 * top of this file.  Returns whether it was trouble. */
static int klog_after(int n, const char *name)
{
	if (klogctl(KLOG_SIZE_UNREAD, NULL, 0) <= 0)
		return 0;
	trouble[0] = '\0';
	say("# after %d %s\n", n, name);
	klog_drain();
	if (!trouble[0])
		return 0;
	say("# trouble after %d %s: %s\n", n, name, trouble);
	trouble[0] = '\0';
	return 1;
}

/* ---- content ---- */

static int hash_file(const char *path, char hex[65], int *err)
{
	unsigned char buf[8192], sum[32];
	struct sha256 c;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		*err = errno;
		return -1;
	}
	sha256_init(&c);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		sha256_update(&c, buf, (size_t)n);
	*err = n < 0 ? errno : 0;
	close(fd);
	if (n < 0)
		return -1;
	sha256_final(&c, sum);
	sha256_hex(sum, hex);
	return 0;
}

/* Whether FILE's content is what /manifests/NAME.meta says reading it
 * returns when nothing stops the read: the metadata it points at. */
static int is_metadata(const char *name, const char *rel, const char *hex)
{
	char path[512], line[512], want[65], file[400];
	int found = 0;
	FILE *m;

	snprintf(path, sizeof(path), "/manifests/%s.meta", name);
	m = fopen(path, "r");
	if (!m)
		return 0;
	while (!found && fgets(line, sizeof(line), m))
		found = sscanf(line, "%64s %399s", want, file) == 2 &&
			!strcmp(file, rel) && !strcmp(want, hex);
	fclose(m);
	return found;
}

/* "files: ok" when every manifest entry matches, else the first problem;
 * content that is the metadata the file points at says so. */
static void check_files(const char *name, const char *mnt)
{
	char path[512], line[512], hex[65], first[600] = "";
	int total = 0, bad = 0, err;
	FILE *m;

	snprintf(path, sizeof(path), "/manifests/%s", name);
	m = fopen(path, "r");
	if (!m) {
		say("# out: files: no manifest\n");
		return;
	}
	while (fgets(line, sizeof(line), m)) {
		char want[65], rel[400];

		if (sscanf(line, "%64s %399s", want, rel) != 2)
			continue;
		total++;
		snprintf(path, sizeof(path), "%s/%s", mnt, rel);
		if (hash_file(path, hex, &err)) {
			bad++;
			if (!first[0])
				snprintf(first, sizeof(first), "%s: %s", rel, errname(err));
		} else if (strcmp(hex, want)) {
			bad++;
			if (!first[0])
				snprintf(first, sizeof(first), "%s: content differs%s", rel,
					 is_metadata(name, rel, hex) ? ", reads metadata" : "");
		}
	}
	fclose(m);
	say("# files: %d of %d match\n", total - bad, total);
	if (bad)
		say("# out: files: %d bad (first: %s)\n", bad, escape(path, sizeof(path), first));
	else
		say("# out: files: ok\n");
}

static int write_probe(const char *mnt, int roundtrip)
{
	static const char data[] = "written by the guest\n";
	char path[512], back[sizeof(data)];
	int fd, e = 0;

	snprintf(path, sizeof(path), "%s/kit-written", mnt);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return errno;
	if (write(fd, data, sizeof(data)) != (ssize_t)sizeof(data) || fsync(fd))
		e = errno ? errno : EIO;
	if (close(fd) && !e)
		e = errno;
	if (e || !roundtrip)
		return e;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return errno;
	if (read(fd, back, sizeof(back)) != (ssize_t)sizeof(back) || memcmp(back, data, sizeof(data)))
		e = EIO;
	close(fd);
	return e;
}

/* ---- one case ---- */

struct plan {
	char dev[16], name[64], mode[4], opts[128];
	int probe_rw, fitrim, revalidate, remount_rw, getfsmap, mb_groups;
	int nodisk;	/* no disk has the line's name as its serial */
};

/* GETFSMAP over the whole device: "getfsmap: ok, F free" (extents). */
static void getfsmap(const char *mnt)
{
	enum { BATCH = 64 };
	static char buf[sizeof(struct fsmap_head) + BATCH * sizeof(struct fsmap)];
	struct fsmap_head *h = (struct fsmap_head *)buf;
	unsigned long long n = 0, free_ext = 0;
	int fd = open(mnt, O_RDONLY | O_DIRECTORY), e = 0, rounds = 0;

	memset(buf, 0, sizeof(buf));
	h->fmh_count = BATCH;
	h->fmh_keys[1].fmr_device = ~0U;
	h->fmh_keys[1].fmr_physical = ~0ULL;
	h->fmh_keys[1].fmr_owner = ~0ULL;
	h->fmh_keys[1].fmr_offset = ~0ULL;
	h->fmh_keys[1].fmr_flags = ~0U;
	while (fd >= 0 && rounds++ < 1000) {
		unsigned int i;

		if (ioctl(fd, FS_IOC_GETFSMAP, h)) {
			e = errno;
			break;
		}
		for (i = 0; i < h->fmh_entries; i++)
			free_ext += h->fmh_recs[i].fmr_owner == FMR_OWN_FREE;
		n += h->fmh_entries;
		if (!h->fmh_entries || (h->fmh_recs[h->fmh_entries - 1].fmr_flags & FMR_OF_LAST))
			break;
		fsmap_advance(h);
	}
	if (fd < 0)
		e = errno;
	else
		close(fd);
	if (e) {
		say("# out: getfsmap: %s\n", errname(e));
		return;
	}
	/* How many extents is the kernel's to choose; free space is not. */
	say("# getfsmap: %llu extents\n", n);
	say("# out: getfsmap: ok, %llu free\n", free_ext);
}

/*
 * mballoc's view of the mounted DEV, /proc/fs/ext4/DEV/mb_groups: "mb_groups:
 * ok, G groups, F free" (clusters), or the error of its open or read.  Each
 * group's line is "#G    : FREE FRAGS FIRST [ ... ]"; the header is not
 * counted.
 */
static void mb_groups(const char *dev)
{
	char path[96], line[512];
	unsigned long long groups = 0, free_clusters = 0;
	FILE *f;
	int e = 0;

	snprintf(path, sizeof(path), "/proc/fs/ext4/%s/mb_groups", dev);
	f = fopen(path, "r");
	if (!f) {
		say("# out: mb_groups: %s\n", errname(errno));
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long g, fr;

		if (sscanf(line, "#%llu : %llu", &g, &fr) == 2) {
			groups++;
			free_clusters += fr;
		}
	}
	if (ferror(f))
		e = errno ? errno : EIO;
	fclose(f);
	if (e)
		say("# out: mb_groups: %s\n", errname(e));
	else
		say("# out: mb_groups: ok, %llu groups, %llu free\n", groups, free_clusters);
}

/* FITRIM over the whole filesystem: "fitrim: ok, N bytes" or the error. */
static void fitrim(const char *mnt)
{
	struct fstrim_range r = { .start = 0, .len = (__u64)-1, .minlen = 0 };
	int fd = open(mnt, O_RDONLY | O_DIRECTORY), e = 0;

	if (fd < 0 || ioctl(fd, FITRIM, &r))
		e = errno;
	if (fd >= 0)
		close(fd);
	if (e)
		say("# out: fitrim: %s\n", errname(e));
	else
		say("# out: fitrim: ok, %llu bytes\n", (unsigned long long)r.len);
}

static int run_case(int n, const struct plan *p)
{
	char dev[64], mnt[128];
	int rw = !strcmp(p->mode, "rw");
	const char *opts = p->opts[0] ? p->opts : NULL;
	struct timespec t0, t1;
	int e;

	trouble[0] = '\0';
	say("# case %d %s\n", n, p->name);
	snprintf(dev, sizeof(dev), "/dev/%s", p->dev);
	snprintf(mnt, sizeof(mnt), "/mnt/%s", p->name);
	mkdir("/mnt", 0755);
	mkdir(mnt, 0755);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	e = mount(dev, mnt, "ext4", rw ? 0 : MS_RDONLY, opts) ? errno : 0;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	say("# mount-time %s %lld\n", p->name,
	    (long long)(t1.tv_sec - t0.tv_sec) * 1000000 + (t1.tv_nsec - t0.tv_nsec) / 1000);
	if (e) {
		say("# out: mount: %s\n", errname(e));
	} else {
		say("# out: mount: ok\n");
		check_files(p->name, mnt);
		if (p->fitrim)
			fitrim(mnt);
		if (p->getfsmap)
			getfsmap(mnt);
		if (p->mb_groups)
			mb_groups(p->dev);
		say("# out: write: %s\n", errname(write_probe(mnt, rw)));
		if (rw)
			check_files(p->name, mnt);
		if (!rw && p->revalidate) {
			int e = mount(dev, mnt, "ext4", MS_REMOUNT | MS_RDONLY, "block_validity") ? errno : 0;

			say("# out: revalidate: %s\n", errname(e));
			if (!e)
				check_files(p->name, mnt);
		}
		if (!rw && p->remount_rw)
			say("# out: remount-rw: %s\n",
			    errname(mount(dev, mnt, "ext4", MS_REMOUNT, opts) ? errno : 0));
		say("# out: umount: %s\n", errname(umount(mnt) ? errno : 0));
		if (p->fitrim) {
			/* What is on the disk now, not what the cache kept. */
			int e = mount(dev, mnt, "ext4", MS_RDONLY, opts) ? errno : 0;

			say("# out: remount: %s\n", errname(e));
			if (!e) {
				check_files(p->name, mnt);
				say("# out: umount: %s\n", errname(umount(mnt) ? errno : 0));
			}
		}
		if (!rw && p->probe_rw) {
			int e = mount(dev, mnt, "ext4", 0, opts) ? errno : 0;

			say("# out: rw-mount: %s\n", errname(e));
			if (!e && umount(mnt))
				say("# out: umount: %s\n", errname(errno));
		}
	}
	sync();
	klog_drain();
	if (trouble[0]) {
		say("not ok %d %s # ERROR kernel trouble: %s\n", n, p->name, trouble);
		return 0;
	}
	say("ok %d %s\n", n, p->name);
	return 1;
}

/* ---- the corpus: images nobody here made ---- */

#define WALK_ENTRIES 20000
#define WALK_BYTES (64LL << 20)
#define WALK_DEPTH 64

struct walk {
	long dirs, files, links, other, errors, entries, leaks;
	long long bytes;
	int truncated;
	char first[300], first_leak[300];
	struct sha256 sum;
	/* /zones/IMAGE: what no file may read (sorted sha256 hex), and the
	 * filesystem's block size to compare by */
	char (*zone)[65];
	size_t nzone;
	unsigned int bsize;
};

static int by_hex(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* Whether a block a file read is one of the system zone's. */
static void check_block(struct walk *w, const char *rel, const unsigned char *buf, size_t n)
{
	unsigned char sum[32];
	char hex[65];
	struct sha256 c;

	if (!w->nzone || n != w->bsize)
		return;
	sha256_init(&c);
	sha256_update(&c, buf, n);
	sha256_final(&c, sum);
	sha256_hex(sum, hex);
	if (bsearch(hex, w->zone, w->nzone, sizeof(*w->zone), by_hex)) {
		w->leaks++;
		if (!w->first_leak[0])
			snprintf(w->first_leak, sizeof(w->first_leak), "%s", rel);
	}
}

static void load_zone(struct walk *w, const char *name, const char *mnt)
{
	char path[512], line[128];
	size_t cap = 0;
	struct statvfs sv;
	FILE *f;

	snprintf(path, sizeof(path), "/zones/%s", name);
	f = fopen(path, "r");
	if (!f || statvfs(mnt, &sv)) {
		if (f)
			fclose(f);
		return;
	}
	w->bsize = (unsigned int)sv.f_bsize;
	while (fgets(line, sizeof(line), f)) {
		if (strlen(line) < 64)
			continue;
		if (w->nzone == cap) {
			size_t more = cap ? 2 * cap : 256;
			char (*m)[65] = realloc(w->zone, more * sizeof(*m));

			if (!m)
				break;
			w->zone = m;
			cap = more;
		}
		memcpy(w->zone[w->nzone], line, 64);
		w->zone[w->nzone++][64] = '\0';
	}
	fclose(f);
	qsort(w->zone, w->nzone, sizeof(*w->zone), by_hex);
}

static void walk_error(struct walk *w, const char *rel, int e)
{
	w->errors++;
	if (!w->first[0])
		snprintf(w->first, sizeof(w->first), "%s: %s", rel[0] ? rel : "/", errname(e));
	sha256_update(&w->sum, (const unsigned char *)errname(e), strlen(errname(e)));
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void walk_dir(struct walk *w, int dfd, const char *rel, int depth)
{
	char **names = NULL, path[4096];
	size_t n = 0, cap = 0, i;
	struct dirent *de;
	DIR *d = fdopendir(dfd);

	if (!d) {
		walk_error(w, rel, errno);
		close(dfd);
		return;
	}
	w->dirs++;
	errno = 0;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (n == cap) {
			size_t more = cap ? 2 * cap : 64;
			char **m = realloc(names, more * sizeof(*names));

			if (!m)
				break;
			names = m;
			cap = more;
		}
		if (!(names[n] = strdup(de->d_name)))
			break;
		n++;
		errno = 0;
	}
	if (errno)
		walk_error(w, rel, errno);
	qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n; i++) {
		struct stat st;
		const char *name = names[i];

		if (w->truncated || w->entries >= WALK_ENTRIES || w->bytes >= WALK_BYTES) {
			w->truncated = 1;
			break;
		}
		w->entries++;
		snprintf(path, sizeof(path), "%s/%s", rel, name);
		sha256_update(&w->sum, (const unsigned char *)path, strlen(path) + 1);
		if (fstatat(dirfd(d), name, &st, AT_SYMLINK_NOFOLLOW)) {
			walk_error(w, path, errno);
			continue;
		}
		sha256_update(&w->sum, (const unsigned char *)&st.st_mode, sizeof(st.st_mode));
		if (S_ISDIR(st.st_mode)) {
			int fd;

			if (depth >= WALK_DEPTH) {
				w->truncated = 1;
				continue;
			}
			fd = openat(dirfd(d), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
			if (fd < 0)
				walk_error(w, path, errno);
			else
				walk_dir(w, fd, path, depth + 1);
		} else if (S_ISREG(st.st_mode)) {
			unsigned char buf[16384];
			ssize_t r = 0;
			int fd = openat(dirfd(d), name, O_RDONLY | O_NOFOLLOW);

			w->files++;
			if (fd < 0) {
				walk_error(w, path, errno);
				continue;
			}
			/* By blocks when they are compared with the zone. */
			while (w->bytes < WALK_BYTES &&
			       (r = read(fd, buf, w->nzone && w->bsize <= sizeof(buf) ? w->bsize : sizeof(buf))) > 0) {
				sha256_update(&w->sum, buf, (size_t)r);
				check_block(w, path, buf, (size_t)r);
				w->bytes += r;
			}
			if (r < 0)
				walk_error(w, path, errno);
			close(fd);
		} else if (S_ISLNK(st.st_mode)) {
			char target[4096];
			ssize_t r = readlinkat(dirfd(d), name, target, sizeof(target));

			w->links++;
			if (r < 0)
				walk_error(w, path, errno);
			else
				sha256_update(&w->sum, (const unsigned char *)target, (size_t)r);
		} else {
			w->other++;
		}
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	closedir(d);
}

/* One image at OFFSET of DEV, SIZE bytes long, through a read-only loop. */
static int corpus_image(int n, int disk, const char *name, long long off, long long size)
{
	struct loop_info64 li;
	char loopdev[32], mnt[128];
	int ctl, nr, lfd = -1, e = 0;

	trouble[0] = '\0';
	say("# case %d %s\n", n, name);
	ctl = open("/dev/loop-control", O_RDWR);
	nr = ctl < 0 ? -1 : ioctl(ctl, LOOP_CTL_GET_FREE);
	if (nr < 0)
		e = errno;
	if (ctl >= 0)
		close(ctl);
	if (!e) {
		snprintf(loopdev, sizeof(loopdev), "/dev/loop%d", nr);
		lfd = open(loopdev, O_RDONLY);
		memset(&li, 0, sizeof(li));
		li.lo_offset = (unsigned long long)off;
		li.lo_sizelimit = (unsigned long long)size;
		li.lo_flags = LO_FLAGS_READ_ONLY | LO_FLAGS_AUTOCLEAR;
		if (lfd < 0 || ioctl(lfd, LOOP_SET_FD, disk) || ioctl(lfd, LOOP_SET_STATUS64, &li))
			e = errno;
	}
	if (e) {
		/* Not the image's doing: the guest could not offer it. */
		say("# out: loop: %s\n", errname(e));
		say("not ok %d %s # ERROR loop device: %s\n", n, name, errname(e));
		if (lfd >= 0)
			close(lfd);
		return 0;
	}
	snprintf(mnt, sizeof(mnt), "/mnt/%d", n);
	mkdir("/mnt", 0755);
	mkdir(mnt, 0755);
	if (mount(loopdev, mnt, "ext4", MS_RDONLY, NULL)) {
		say("# out: mount: %s\n", errname(errno));
	} else {
		struct walk w;
		unsigned char sum[32];
		char hex[65], esc[4 * sizeof(w.first)];
		int fd = open(mnt, O_RDONLY | O_DIRECTORY);

		say("# out: mount: ok\n");
		memset(&w, 0, sizeof(w));
		sha256_init(&w.sum);
		load_zone(&w, name, mnt);
		if (fd < 0)
			walk_error(&w, "", errno);
		else
			walk_dir(&w, fd, "", 0);
		sha256_final(&w.sum, sum);
		sha256_hex(sum, hex);
		hex[16] = '\0';
		say("# out: walk: %ld dirs, %ld files, %ld links, %lld bytes, %ld errors, sha256 %s%s%s%s%s\n",
		    w.dirs, w.files, w.links, w.bytes, w.errors, hex, w.truncated ? ", truncated" : "",
		    w.first[0] ? " (first: " : "", escape(esc, sizeof(esc), w.first), w.first[0] ? ")" : "");
		if (w.nzone)
			say("# out: zone: %zu blocks, %ld read through a file%s%s%s\n", w.nzone, w.leaks,
			    w.leaks ? " (first: " : "", escape(esc, sizeof(esc), w.first_leak), w.leaks ? ")" : "");
		free(w.zone);
		say("# out: umount: %s\n", errname(umount(mnt) ? errno : 0));
	}
	rmdir(mnt);
	close(lfd);
	klog_drain();
	if (trouble[0]) {
		say("not ok %d %s # ERROR kernel trouble: %s\n", n, name, trouble);
		return 0;
	}
	say("ok %d %s\n", n, name);
	return 1;
}

/* /corpus: "DEV", then "IMAGE OFFSET SIZE" a line. */
static int run_corpus(FILE *f)
{
	char line[512], dev[64], path[80], name[256], prev[256] = "";
	long long off, size;
	int n = 0, pass = 0, last = 0, disk;

	if (!fgets(line, sizeof(line), f) || sscanf(line, "%63s", dev) != 1) {
		say("1..0 # SKIP /corpus names no disk\n");
		return 0;
	}
	snprintf(path, sizeof(path), "/dev/%s", dev);
	disk = open(path, O_RDONLY);
	if (disk < 0) {
		say("1..0 # SKIP %s: %s\n", path, errname(errno));
		return 0;
	}
	while (fgets(line, sizeof(line), f))
		n += sscanf(line, "%255s %lld %lld", name, &off, &size) == 3;
	say("1..%d\n", n);
	rewind(f);
	n = 0;
	(void)!fgets(line, sizeof(line), f);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %lld %lld", name, &off, &size) != 3)
			continue;
		if (n)
			pass -= klog_after(n, prev) && last;
		last = corpus_image(++n, disk, name, off, size);
		pass += last;
		snprintf(prev, sizeof(prev), "%s", name);
	}
	if (n)
		pass -= klog_after(n, prev) && last;
	say("# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:0 error:0\n", pass, n - pass);
	close(disk);
	return 0;
}

static int read_plan(const char *path, struct plan *pl)
{
	char line[512];
	int n = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (n < MAX_CASES && fgets(line, sizeof(line), f)) {
		struct plan *p = &pl[n];
		char *tok, *save = NULL;
		int i = 0;

		memset(p, 0, sizeof(*p));
		for (tok = strtok_r(line, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save), i++) {
			if (i == 0)
				snprintf(p->dev, sizeof(p->dev), "%s", tok);
			else if (i == 1)
				snprintf(p->name, sizeof(p->name), "%s", tok);
			else if (i == 2)
				snprintf(p->mode, sizeof(p->mode), "%s", tok);
			else if (!strncmp(tok, "opts=", 5))
				snprintf(p->opts, sizeof(p->opts), "%s", tok + 5);
			else if (!strcmp(tok, "probe-rw"))
				p->probe_rw = 1;
			else if (!strcmp(tok, "fitrim"))
				p->fitrim = 1;
			else if (!strcmp(tok, "revalidate"))
				p->revalidate = 1;
			else if (!strcmp(tok, "remount-rw"))
				p->remount_rw = 1;
			else if (!strcmp(tok, "getfsmap"))
				p->getfsmap = 1;
			else if (!strcmp(tok, "mb-groups"))
				p->mb_groups = 1;
		}
		if (i >= 3)
			n++;
	}
	fclose(f);
	return n;
}

/*
 * The disk each plan line means: run-guest gives every disk the name the
 * plan calls it by (vdc) as its serial, for the order in which a kernel
 * names its disks is its own (7.3 on s390x named the first one vdb).  A
 * line's disk is the one whose /sys/block/NAME/serial is its name, waited
 * for up to 30 s.  A line no disk's serial names is marked, and its case
 * is an ERROR: never the disk the kernel happened to give that name,
 * which may hold another case's image.
 */
#ifndef SYS_BLOCK
#define SYS_BLOCK "/sys/block"	/* (the unit tests' stub reads a folder of its own) */
#define DISK_TRIES 300		/* tenths of a second */
#endif
static void find_disks(struct plan *pl, int n)
{
	char real[MAX_CASES][16], path[300], serial[32];
	int i, t, found = 0;

	for (i = 0; i < n; i++)
		real[i][0] = '\0';
	for (t = 0; t < DISK_TRIES && found < n; t++) {
		DIR *d = opendir(SYS_BLOCK);
		struct dirent *e;

		if (t)
			usleep(100000);
		while (d && (e = readdir(d))) {
			FILE *f;

			if (strncmp(e->d_name, "vd", 2) || strlen(e->d_name) >= sizeof(real[0]))
				continue;
			snprintf(path, sizeof(path), SYS_BLOCK "/%s/serial", e->d_name);
			f = fopen(path, "r");
			if (!f)
				continue;
			if (fgets(serial, sizeof(serial), f)) {
				serial[strcspn(serial, "\n")] = '\0';
				for (i = 0; i < n; i++)
					if (!real[i][0] && !strcmp(pl[i].dev, serial)) {
						snprintf(real[i], sizeof(real[i]), "%s", e->d_name);
						found++;
					}
			}
			fclose(f);
		}
		if (d)
			closedir(d);
	}
	for (i = 0; i < n; i++)
		if (!real[i][0]) {
			pl[i].nodisk = 1;
		} else if (strcmp(real[i], pl[i].dev)) {
			say("# disk %s is %s\n", pl[i].dev, real[i]);
			memcpy(pl[i].dev, real[i], sizeof(pl[i].dev));
		}
}

/* The image cases of the plan, each after the late messages of the one
 * before it. */
static void run_plan(struct plan *pl, int n)
{
	int i, pass = 0, last = 0;

	say("1..%d\n", n);
	for (i = 0; i < n; i++) {
		if (i)
			pass -= klog_after(i, pl[i - 1].name) && last;
		if (pl[i].nodisk) {
			say("not ok %d %s # ERROR no disk has serial %s\n", i + 1, pl[i].name, pl[i].dev);
			last = 0;
			continue;
		}
		last = run_case(i + 1, &pl[i]);
		pass += last;
	}
	if (n)
		pass -= klog_after(n, pl[n - 1].name) && last;
	say("# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:0 error:0\n", pass, n - pass);
}

/*
 * A distribution's kernel has the block driver and ext4 as modules: /modules
 * lists them in load order (run-guest's KIT_GUEST_MODULES, dependencies
 * first).  Then wait for every disk of /plan: the driver finds them as it
 * loads, their nodes come a moment later.
 */
static void load_modules(void)
{
	char line[512], dev[600];
	FILE *f = fopen("/modules", "r");
	int i;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		int fd;

		line[strcspn(line, "\n")] = 0;
		if (!*line)
			continue;
		fd = open(line, O_RDONLY);
		if (fd < 0 || syscall(SYS_finit_module, fd, "", 0))
			say("# module %s: %s\n", line, errname(errno));
		if (fd >= 0)
			close(fd);
	}
	fclose(f);
	f = fopen("/plan", "r");
	while (f && fgets(line, sizeof(line), f)) {
		snprintf(dev, sizeof(dev), "/dev/%.*s", (int)strcspn(line, " \t\n"), line);
		for (i = 0; i < 300 && access(dev, F_OK); i++)
			usleep(100000);
	}
	if (f)
		fclose(f);
}

/*
 * Results go to a channel of their own, away from the kernel's own
 * console output, which would otherwise break lines apart: the device
 * KIT_KTAP names (the kernel hands init a word KIT_KTAP=hvc0 of its
 * command line as an environment variable; the arch's entry in
 * matrix.yaml says which), else the second serial port.  Never the
 * console: there the kernel's lines would break the results apart, and a
 * results line the host cannot read is a line lost.  Without the device
 * the guest says so on the console and stops (returns nonzero, having
 * asked for the reboot), and the host finds no case started.  Waited for
 * like a disk: a virtio console appears when its driver has probed.  Not
 * freopen(): a failed one closes stdout, and a second one on the closed
 * stream is undefined.
 */
#ifndef DEV_DIR
#define DEV_DIR "/dev"		/* (the unit tests' stub has a folder of its own) */
#define KTAP_TRIES 50		/* tenths of a second */
#endif
static int ktap_to_stdout(void)
{
	const char *ktap = getenv("KIT_KTAP");
	char dev[64];
	int fd, i;

	snprintf(dev, sizeof(dev), DEV_DIR "/%s", ktap && *ktap && !strchr(ktap, '/') ? ktap : "ttyS1");
	for (i = 0; i < KTAP_TRIES && access(dev, F_OK); i++)
		usleep(100000);
	fd = open(dev, O_WRONLY);
	if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0) {
		int e = errno, con = open(DEV_DIR "/console", O_WRONLY);

		if (con >= 0) {
			dprintf(con, "guest-init: no KTAP device %s: %s\n", dev, errname(e));
			close(con);
		}
		reboot(RB_AUTOBOOT);
		return 1;
	}
	if (fd != STDOUT_FILENO)
		close(fd);
	clearerr(stdout);
	return 0;
}

int main(void)
{
	static struct plan pl[MAX_CASES];
	int n;
	FILE *corpus;

	setvbuf(stdout, NULL, _IOLBF, 0);
	mkdir("/dev", 0755);
	if (mount("devtmpfs", "/dev", "devtmpfs", 0, NULL) && errno != EBUSY)
		say("# mount devtmpfs: %s\n", errname(errno));
	/* (proc: where mb-groups reads mballoc's view of a filesystem) */
	mkdir("/proc", 0755);
	if (mount("proc", "/proc", "proc", 0, NULL) && errno != EBUSY)
		say("# mount proc: %s\n", errname(errno));
	/* (sysfs: where find_disks reads each disk's serial) */
	mkdir("/sys", 0755);
	if (mount("sysfs", "/sys", "sysfs", 0, NULL) && errno != EBUSY)
		say("# mount sysfs: %s\n", errname(errno));
	if (ktap_to_stdout())
		return 1;

	load_modules();
	say("KTAP version 1\n");
	klog_boot();
	corpus = fopen("/corpus", "r");
	n = corpus ? 0 : read_plan("/plan", pl);
	if (corpus) {
		run_corpus(corpus);
		fclose(corpus);
	} else if (n < 0) {
		say("1..0 # SKIP no /plan\n");
	} else {
		find_disks(pl, n);
		run_plan(pl, n);
	}
	say("# guest done\n");
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}
