// SPDX-License-Identifier: GPL-2.0
/*
 * guest-init-stub: test/guest/guest-init.c with the kernel played by files, for the
 * unit tests (test/unit/runner.t): it runs the plan named by its argument
 * (as the guest runs /plan) and reports on stdout as the guest does.
 *
 * mount(2) refuses every image with EUCLEAN and gives the kernel log what
 * klog/CASE holds (in the current folder): its lines up to a line
 * "--- after" are printed during the mount, the rest a moment later, once
 * the guest has read the log to its end (as a late KASAN report or WARNING
 * is).  Nothing is mounted, made or written on the host: mount, umount,
 * mkdir, rmdir, sync and reboot are the stub's.  Each mount is logged to
 * the file "mounted" (case, device).  When the folder sysblock/ exists, it
 * stands for /sys/block (sysblock/NAME/serial) and the disks are found by
 * serial first, as the guest finds them.  When the folder dev/ exists, it
 * stands for /dev: the results go to dev/$KIT_KTAP as the guest's go, and
 * without that device a line on dev/console says so, and nothing more.
 */
#define SYS_BLOCK "sysblock"
#define DISK_TRIES 3
#define DEV_DIR "dev"
#define KTAP_TRIES 1
#define klogctl stub_klogctl
#define mount stub_mount
#define umount stub_umount
#define mkdir stub_mkdir
#define rmdir stub_rmdir
#define sync stub_sync
#define reboot stub_reboot
#define main guest_main
#include "../guest/guest-init.c"
#undef main

/* The kernel log: what is there to read, and what comes later. */
static char *log_now, *log_later;
static size_t now_len, now_pos, later_len;
static int read_to_end;

static void append(char **buf, size_t *len, const char *s, size_t n)
{
	*buf = realloc(*buf, *len + n + 1);
	if (!*buf) {
		perror("guest-init-stub");
		exit(1);
	}
	memcpy(*buf + *len, s, n);
	*len += n;
}

int stub_klogctl(int type, char *buf, int len)
{
	size_t n;

	if (now_pos == now_len && later_len && read_to_end) {
		append(&log_now, &now_len, log_later, later_len);
		later_len = 0;
	}
	read_to_end = now_pos == now_len;
	if (type == KLOG_SIZE_UNREAD)
		return (int)(now_len - now_pos);
	if (type != KLOG_READ || len <= 0)
		return -1;
	n = now_len - now_pos < (size_t)len ? now_len - now_pos : (size_t)len;
	memcpy(buf, log_now + now_pos, n);
	now_pos += n;
	return (int)n;
}

int stub_mount(const char *dev, const char *dir, const char *type, unsigned long flags, const void *data)
{
	static char text[4 << 20];
	char path[256];
	const char *mark;
	size_t n;
	FILE *f;

	(void)type, (void)flags, (void)data;
	f = fopen("mounted", "a");
	if (f) {
		fprintf(f, "%s %s\n", strrchr(dir, '/') + 1, dev);
		fclose(f);
	}
	snprintf(path, sizeof(path), "klog/%s", strrchr(dir, '/') + 1);
	f = fopen(path, "r");
	n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
	if (f)
		fclose(f);
	text[n] = '\0';
	mark = strstr(text, "--- after\n");
	append(&log_now, &now_len, text, mark ? (size_t)(mark - text) : n);
	if (mark)
		append(&log_later, &later_len, mark + 10, n - (size_t)(mark + 10 - text));
	errno = EUCLEAN;
	return -1;
}

int stub_umount(const char *dir)
{
	(void)dir;
	return 0;
}

int stub_mkdir(const char *path, mode_t mode)
{
	(void)path, (void)mode;
	return 0;
}

int stub_rmdir(const char *path)
{
	(void)path;
	return 0;
}

void stub_sync(void)
{
}

int stub_reboot(int how)
{
	(void)how;
	return 0;
}

int main(int argc, char **argv)
{
	static struct plan pl[MAX_CASES];
	int n;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc != 2 || (n = read_plan(argv[1], pl)) < 0) {
		fprintf(stderr, "usage: guest-init-stub PLAN\n");
		return 2;
	}
	if (!access(DEV_DIR, F_OK) && ktap_to_stdout())
		return 1;
	say("KTAP version 1\n");
	klog_boot();
	if (!access(SYS_BLOCK, F_OK))
		find_disks(pl, n);
	run_plan(pl, n);
	say("# guest done\n");
	return 0;
}
