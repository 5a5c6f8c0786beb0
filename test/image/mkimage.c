// SPDX-License-Identifier: GPL-2.0
/*
 * mkimage: turn an image-case recipe into a reproducible ext4 image.
 *
 * It generates a tree of files of known content, makes the filesystem with
 * mke2fs -d from it (fixed UUID, hash seed and time), then rewrites group
 * descriptors as the recipe asks through libext2fs, recomputing every
 * bitmap and descriptor checksum.  Next to IMAGE it writes IMAGE.manifest
 * ("sha256  path" per file, as sha256sum prints it) and IMAGE.meta: for a
 * file the recipe points at metadata (point, journal-file, quota-file-link), what reading it
 * returns when nothing stops the read, so a leak can be told from any other
 * wrong content.  Everything is written
 * under temporary names and renamed only on success.
 *
 * Recipe lines ('#' starts a comment):
 *   share-bitmaps [at WHERE]       every block and inode bitmap of every
 *                                  group on ONE block of all ones (group
 *                                  0's block bitmap, or WHERE)
 *   share-fill BYTE [COUNT]        the first COUNT bytes of the shared block
 *                                  (all of it by default) hold BYTE instead
 *                                  of all ones: a fake bitmap that calls
 *                                  blocks and inodes free (keep the end set,
 *                                  or the kernel sees unset padding bits)
 *   share-keep-uninit              with share-bitmaps: a group mke2fs left
 *                                  uninitialised (BLOCK_UNINIT, INODE_UNINIT)
 *                                  stays so, with the free counts mke2fs gave
 *                                  it and the bitmap checksums it left (none:
 *                                  libext2fs writes no bitmap of such a
 *                                  group), as a tool that shares the
 *                                  bitmaps of the groups it wrote leaves it
 *   feature shared_blocks on|off   set or clear RO_COMPAT_SHARED_BLOCKS
 *   mount-opts OPTIONS             the superblock's own mount options
 *                                  (s_mount_opts, as tune2fs -E mount_opts=)
 *   mke2fs-feature mmp|quota|orphan_file   the filesystem made with that
 *                                  feature too (mke2fs -O): a multi-mount
 *                                  protection block, user and group quota
 *                                  files (inodes 3 and 4), an orphan file
 *   block-size 4096                4k blocks instead of 1k (16384 of them,
 *                                  groups of 2048 as ever, a 4 MiB journal,
 *                                  the least mke2fs takes): s_first_data_block
 *                                  is 0 and group 0's zone starts there
 *   mmp-block N                    with mke2fs-feature mmp: s_mmp_block set
 *                                  to N (decimal, or 0x hex) after the rest
 *                                  is laid out, as a raw write of the
 *                                  superblock would leave it (a read-only
 *                                  mount never checks it; 0xffffffffffffffff
 *                                  is the last block number there is)
 *   resize-extra-slot              the resize inode (7) shaped unlike what
 *                                  mke2fs makes: its first direct slot
 *                                  names its double-indirect block too
 *   resize-extents-flag            the resize inode (7) flagged as mapping its
 *                                  blocks with extents (EXTENTS_FL), its slots
 *                                  left as they are: the double-indirect slot
 *                                  still names its block, as a raw write of
 *                                  i_flags would leave it
 *   errors continue|remount-ro|panic   what the superblock says a kernel
 *                                  does on an error (s_errors, as tune2fs
 *                                  -e): the default a mount starts from
 *   block-bitmap G at WHERE        move group G's block bitmap
 *   inode-bitmap G at WHERE        move group G's inode bitmap
 *   inode-table G at WHERE         move group G's inode table
 *   dedup NAME COPIES              COPIES files of identical content written
 *                                  through libext2fs with EXT2_FLAG_SHARE_DUP
 *   point FILE at WHERE            the first block of FILE (a path of the
 *                                  tree) moved onto WHERE: reading FILE then
 *                                  reads that metadata unless the kernel stops it
 *   split FILE                     FILE's one extent cut in five that follow
 *                                  each other on disk, more than the inode
 *                                  holds: its extent tree gets a leaf block
 *                                  (depth 1), as a fragmented file has; the
 *                                  data stays where it is
 *   xattr FILE SIZE                FILE given a user attribute of SIZE bytes
 *                                  (64 to 900), too large for the inode:
 *                                  libext2fs writes it into a block of its own
 *   acl FILE at WHERE              FILE's attribute block (i_file_acl)
 *                                  set to WHERE: another file's, say
 *   indirect FILE [dind-at WHERE]  FILE mapped by direct and indirect
 *                                  blocks instead of its extents, as ext3
 *                                  maps it (at most 4 such lines; the data
 *                                  stays, libext2fs allocates the indirect
 *                                  blocks); with dind-at, the first slot of
 *                                  its double-indirect block names WHERE
 *   size FILE BYTES                FILE of the tree made BYTES long (1 to
 *                                  16 MiB) of its usual content, not its
 *                                  usual size (hello.txt's text is fixed)
 *   inline-flag FILE               FILE flagged as keeping its data inline
 *                                  (INLINE_DATA_FL) while it keeps it in
 *                                  blocks; FILE must be indirect (a kernel
 *                                  refuses that flag beside extents)
 *   uninit-tail DIR                directory DIR (no subdirectories) moved
 *                                  to the last inode there is, its entry,
 *                                  its "." and its blocks' checksums made
 *                                  for that number, its group's
 *                                  uninitialised tail (bg_itable_unused)
 *                                  raised over it: an inode e2fsck calls
 *                                  unused and a kernel may still look up
 *   scale FILES MIB                a filesystem of MIB MiB (16 to 65536)
 *                                  with FILES more files of 4 KiB, a
 *                                  thousand a directory (many/NNN/NNNN):
 *                                  a large image to time a mount on; the
 *                                  manifest leaves them out, so the guest
 *                                  reads only the usual tree
 *   bigalloc                       clusters of 16 blocks (-C 16384, so one
 *                                  group, and s_first_data_block 0 while the
 *                                  superblock stays at block 1); no resize
 *                                  inode, which bigalloc cannot have
 *   meta_bg                        groups of 512 blocks (32 of them, two meta
 *                                  groups of 16) with meta_bg: each meta
 *                                  group's descriptor block in its first,
 *                                  second and last group; no resize inode
 *   journal-at WHERE               the journal's one extent, content and all,
 *                                  moved to start at WHERE (over whatever is
 *                                  there: "journal-at backup-superblock 1 -4"
 *                                  covers that backup superblock)
 *   journal-file NAME              the journal moved to a regular, immutable
 *                                  inode linked in the root as NAME, as
 *                                  tune2fs -j on a mounted filesystem leaves
 *                                  it (ext3's .journal); the manifest says
 *                                  NAME holds nothing, so a read of it that
 *                                  returns the journal shows as a leak
 *   quota-file-link usr|grp NAME   with mke2fs-feature quota: that quota
 *                                  file moved to a regular inode linked in
 *                                  the root as NAME (as quota tools leave
 *                                  aquota.user where quota is no feature),
 *                                  and s_usr_quota_inum (s_grp_quota_inum)
 *                                  naming it; the manifest says NAME holds
 *                                  nothing, as for journal-file
 *   journal-pending WHERE [fill BYTE | shared_blocks on|off]
 *                                  the block at WHERE, as the rest of the
 *                                  recipe made it (or filled with BYTE, or,
 *                                  for the superblock, with the flag set or
 *                                  cleared and its checksum made again),
 *                                  logged in one committed transaction the
 *                                  journal holds unreplayed (needs_recovery
 *                                  set): a mount replays it before anything
 *                                  else.  Every such line logs into the
 *                                  same transaction, written by debugfs
 *                                  (journal_write), as an attacker with
 *                                  e2fsprogs would
 *   journal-stale                  with journal-pending: needs_recovery
 *                                  cleared again, so the transaction stays
 *                                  in the log as a stale one that a mount
 *                                  wipes (with write access) instead of
 *                                  replaying
 *   journal-errno N                the journal superblock records errno -N
 *                                  (s_errno), as jbd2 leaves it after an
 *                                  abort: a mount clears it and marks the
 *                                  filesystem in error
 *   mutate SEED                    last, on the image as made so far: the
 *                                  fuzzer's mutation of that seed (hex, as
 *                                  test/fuzz/fuzz.c logs it; test/image/mutate.c), and
 *                                  IMAGE.zone (what no file may read): a
 *                                  fuzz finding kept as a case
 * With --twin it makes the case's unflagged twin: the same recipe with its
 * "feature shared_blocks on" lines left out (a shared_blocks flag a
 * journal-pending line logs stays: that is an attack on any image).  The
 * kit boots the twin on every variant and holds it to vanilla's record
 * (test/judge/judge): a flavour is never weaker than vanilla on an image
 * that does not ask for shared blocks.
 *
 * WHERE: superblock | gdt | past-end | top (the last block number there
 *        is, 2^64 - 1: "top -14" and a zone of 16 blocks from there ends
 *        past it) | backup-superblock G | backup-gdt G |
 *        inode-table G | journal | resize-dind (the resize inode's
 *        double-indirect block) | meta-gdt G (with meta_bg, the descriptor
 *        block group G holds) | mmp (the MMP block) | quota-file usr|grp
 *        (the first block of that quota file) | orphan-file (the first
 *        block of the orphan file) | dir-block DIR (the first block of
 *        the directory DIR, a path of the tree) | extent-leaf FILE (the
 *        leaf block of FILE's extent tree: split it first) | xattr-block
 *        FILE (FILE's attribute block: give it one first), then
 *        optionally +N or -N blocks
 *        ("inode-table 1 at backup-superblock 1 -4": a table that starts
 *        four blocks before that backup and covers it)
 */
#define _XOPEN_SOURCE 700	/* nftw */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <ext2fs/ext2fs.h>
#include "mutate.h"
#include "sha256.h"

#define EXIT_BAD 2
#define UUID "6b1e4b1c-8d2f-4b7e-9a51-0e2d3c4b5a69"
#define HASH_SEED "2f0c7a55-3e1d-4c8b-b1a4-5d6e7f809a1b"
#define MAX_OPS 32

static const char *prog = "mkimage";
static char tmpimg[4096], tmpman[4096], tmpmeta[4096], tmpzone[4200], tmptree[4096], tmpconf[4200];

/* What IMAGE.meta says: the pointed file reads block meta_blk (its first
 * meta_size bytes); each system file linked by a name (journal-file,
 * quota-file-link) reads what it held (its sha256 in hex). */
static blk64_t meta_blk;
static unsigned long long meta_size;
static unsigned int meta_bsize;
static struct linked {
	const char *name;
	char hex[65];
} linked[2];
static int nlinked;

/* mke2fs reads only this, so the host's mke2fs.conf cannot change images. */
static const char mke2fs_conf[] =
	"[defaults]\n\tbase_features = sparse_super,large_file,filetype,resize_inode,dir_index,ext_attr\n"
	"\tblocksize = 1024\n\tinode_size = 256\n\n"
	"[fs_types]\n\text4 = {\n\t\tinode_size = 256\n\t}\n\tsmall = {\n\t\tinode_ratio = 4096\n\t}\n\tfloppy = {\n\t\tinode_ratio = 8192\n\t}\n";

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	if (remove(path))
		fprintf(stderr, "%s: remove %s: %s\n", prog, path, strerror(errno));
	return 0;
}

static void cleanup(void)
{
	if (tmpimg[0])
		unlink(tmpimg);
	if (tmpman[0])
		unlink(tmpman);
	if (tmpmeta[0])
		unlink(tmpmeta);
	if (tmpzone[0])
		unlink(tmpzone);
	if (tmpconf[0])
		unlink(tmpconf);
	/* The tree, depth first, without following links or using a shell. */
	if (tmptree[0] && nftw(tmptree, remove_one, 16, FTW_DEPTH | FTW_PHYS))
		fprintf(stderr, "%s: could not remove %s: %s\n", prog, tmptree, strerror(errno));
}

static void die(const char *fmt, ...)
{
	va_list ap;
	int e = errno;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (fmt[strlen(fmt) - 1] == ':')
		fprintf(stderr, " %s", strerror(e));
	fputc('\n', stderr);
	cleanup();
	exit(EXIT_FAILURE);
}

static void die_fs(errcode_t err, const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", prog, what, error_message(err));
	cleanup();
	exit(EXIT_FAILURE);
}

static void usage(void)
{
	fprintf(stderr, "usage: %s [--twin] RECIPE IMAGE\n", prog);
	exit(EXIT_BAD);
}

/* ---- the recipe ---- */

static int twin;	/* --twin: "feature shared_blocks on" lines left out */

enum where { W_SB, W_GDT, W_PAST_END, W_TOP, W_BACKUP_SB, W_BACKUP_GDT, W_ITABLE, W_JOURNAL, W_RESIZE, W_META_GDT,
	     W_MMP, W_QUOTA, W_ORPHAN, W_DIR_BLOCK, W_EXTENT_LEAF, W_XATTR_BLOCK };
enum what { OP_BB, OP_IB, OP_IT };

struct move {
	enum what what;
	unsigned int group;
	enum where where;
	unsigned int arg;
	char path[64];		/* the file or directory of W_DIR_BLOCK and the rest */
	int offset;		/* blocks after (or, negative, before) the place */
};

struct recipe {
	int share_bitmaps;
	int share_at;		/* share_bitmaps on share_where, not bitmap 0 */
	int share_fill;		/* the shared block's bytes (0xff: all ones) */
	unsigned int share_fill_count;	/* how many of them (0: all) */
	int share_keep_uninit;	/* uninitialised groups stay so */
	struct move share_where;
	char point_file[64];
	char mount_opts[64];	/* s_mount_opts; empty: leave it */
	int block_size4k;	/* block-size 4096: 4k blocks, first data block 0 */
	int mmp_block_set;	/* mmp-block N: s_mmp_block = mmp_block */
	unsigned long long mmp_block;
	int errors;		/* s_errors; 0: leave it */
	struct move point_where;
	int point;
	int shared_blocks;	/* -1 leave, 0 clear, 1 set */
	struct move moves[MAX_OPS];
	int nmoves;
	char dedup_name[64];
	int dedup_copies;
	char journal_file[64];	/* empty: the journal stays in its inode */
	int quota_link;		/* 0 none, 1 user, 2 group */
	char quota_link_name[64];
	int bigalloc;
	int meta_bg;
	char mke2fs_features[64];	/* ",mmp,quota": added to mke2fs -O */
	int journal_at;
	struct move journal_where;
	int mutate;
	unsigned long long mutate_seed;
	struct pending {
		struct move where;
		int fill;		/* -1: the block as made */
		int shared_blocks;	/* -1 leave, 0 clear, 1 set (superblock) */
	} pending[MAX_OPS];
	int npending;
	int journal_stale;
	int resize_extra_slot;
	int resize_extents_flag;
	int journal_errno;	/* 0: leave s_errno */
	char split_file[64];	/* empty: none split */
	char xattr_file[64];	/* empty: no attribute block */
	unsigned int xattr_size;
	unsigned int scale_files, scale_mib;	/* 0: the usual 16 MiB */
	char acl_file[64];	/* empty: no acl line */
	struct move acl_where;
	struct indirect {
		char path[64];
		int dind_at;	/* the double-indirect block's first slot moved */
		struct move where;
	} indirect[4];
	int nindirect;
	char inline_file[64];	/* empty: no inline-flag line */
	char size_file[64];	/* empty: no size line */
	unsigned int size_bytes;
	char uninit_tail[64];	/* empty: no uninit-tail line */
};

static void bad_line(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s:%d: ", prog, file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	cleanup();
	exit(EXIT_BAD);
}

static unsigned int number(const char *file, int line, const char *s)
{
	char *end;
	unsigned long v;

	if (!s)
		bad_line(file, line, "a number is missing");
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || end == s || v > 1000000)
		bad_line(file, line, "'%s' is not a small number", s);
	return (unsigned int)v;
}

static void parse_where(const char *file, int line, struct move *m, char **tok, int n)
{
	if (n > 1 && (tok[n - 1][0] == '+' || tok[n - 1][0] == '-')) {
		unsigned int off = number(file, line, tok[n - 1] + 1);

		if (off > 65536)
			bad_line(file, line, "offset %s: at most 65536 blocks", tok[n - 1]);
		m->offset = tok[n - 1][0] == '-' ? -(int)off : (int)off;
		n--;
	}
	if (n < 1)
		bad_line(file, line, "'at' needs a place");
	if (!strcmp(tok[0], "superblock") && n == 1)
		m->where = W_SB;
	else if (!strcmp(tok[0], "gdt") && n == 1)
		m->where = W_GDT;
	else if (!strcmp(tok[0], "past-end") && n == 1)
		m->where = W_PAST_END;
	else if (!strcmp(tok[0], "top") && n == 1)
		m->where = W_TOP;
	else if (!strcmp(tok[0], "backup-superblock") && n == 2)
		m->where = W_BACKUP_SB, m->arg = number(file, line, tok[1]);
	else if (!strcmp(tok[0], "backup-gdt") && n == 2)
		m->where = W_BACKUP_GDT, m->arg = number(file, line, tok[1]);
	else if (!strcmp(tok[0], "inode-table") && n == 2)
		m->where = W_ITABLE, m->arg = number(file, line, tok[1]);
	else if (!strcmp(tok[0], "journal") && n == 1)
		m->where = W_JOURNAL;
	else if (!strcmp(tok[0], "resize-dind") && n == 1)
		m->where = W_RESIZE;
	else if (!strcmp(tok[0], "meta-gdt") && n == 2)
		m->where = W_META_GDT, m->arg = number(file, line, tok[1]);
	else if (!strcmp(tok[0], "mmp") && n == 1)
		m->where = W_MMP;
	else if (!strcmp(tok[0], "quota-file") && n == 2 && (!strcmp(tok[1], "usr") || !strcmp(tok[1], "grp")))
		m->where = W_QUOTA, m->arg = !strcmp(tok[1], "grp");
	else if (!strcmp(tok[0], "orphan-file") && n == 1)
		m->where = W_ORPHAN;
	else if ((!strcmp(tok[0], "dir-block") || !strcmp(tok[0], "extent-leaf") || !strcmp(tok[0], "xattr-block")) && n == 2) {
		if (strlen(tok[1]) >= sizeof(m->path))
			bad_line(file, line, "%s: the path '%s' is too long", tok[0], tok[1]);
		m->where = tok[0][0] == 'd' ? W_DIR_BLOCK : tok[0][0] == 'e' ? W_EXTENT_LEAF : W_XATTR_BLOCK;
		strcpy(m->path, tok[1]);
	} else
		bad_line(file, line, "unknown place '%s' (superblock, gdt, past-end, top, backup-superblock G, backup-gdt G, inode-table G, journal, resize-dind, meta-gdt G, mmp, quota-file usr|grp, orphan-file, dir-block DIR, extent-leaf FILE, xattr-block FILE)", tok[0]);
}

static void read_recipe(const char *file, struct recipe *r)
{
	char buf[512];
	int line = 0;
	FILE *f = fopen(file, "r");

	if (!f)
		die("open %s:", file);
	memset(r, 0, sizeof(*r));
	r->shared_blocks = -1;
	r->share_fill = 0xff;
	while (fgets(buf, sizeof(buf), f)) {
		char *tok[8], *p, *save = NULL;
		int n = 0;

		line++;
		if ((p = strchr(buf, '#')))
			*p = '\0';
		for (p = strtok_r(buf, " \t\r\n", &save); p && n < 8; p = strtok_r(NULL, " \t\r\n", &save))
			tok[n++] = p;
		if (n == 0)
			continue;
		if (!strcmp(tok[0], "share-bitmaps") && (n == 1 || (n >= 3 && !strcmp(tok[1], "at")))) {
			r->share_bitmaps = 1;
			if (n > 1) {
				r->share_at = 1;
				parse_where(file, line, &r->share_where, tok + 2, n - 2);
			}
		} else if (!strcmp(tok[0], "block-size")) {
			if (n != 2 || strcmp(tok[1], "4096"))
				bad_line(file, line, "usage: block-size 4096");
			r->block_size4k = 1;
		} else if (!strcmp(tok[0], "mmp-block")) {
			char *end;

			errno = 0;
			if (n != 2 || tok[1][0] == '-')
				bad_line(file, line, "usage: mmp-block N (a block number, decimal or 0x hex)");
			r->mmp_block = strtoull(tok[1], &end, 0);
			if (errno || *end || end == tok[1])
				bad_line(file, line, "mmp-block: '%s' is not a block number", tok[1]);
			r->mmp_block_set = 1;
		} else if (!strcmp(tok[0], "mount-opts")) {
			if (n != 2 || strlen(tok[1]) >= sizeof(r->mount_opts))
				bad_line(file, line, "usage: mount-opts OPTIONS (one word, at most %zu characters)",
					 sizeof(r->mount_opts) - 1);
			strcpy(r->mount_opts, tok[1]);
		} else if (!strcmp(tok[0], "errors")) {
			if (n == 2 && !strcmp(tok[1], "continue"))
				r->errors = EXT2_ERRORS_CONTINUE;
			else if (n == 2 && !strcmp(tok[1], "remount-ro"))
				r->errors = EXT2_ERRORS_RO;
			else if (n == 2 && !strcmp(tok[1], "panic"))
				r->errors = EXT2_ERRORS_PANIC;
			else
				bad_line(file, line, "usage: errors continue|remount-ro|panic");
		} else if (!strcmp(tok[0], "share-keep-uninit")) {
			if (n != 1)
				bad_line(file, line, "usage: share-keep-uninit");
			r->share_keep_uninit = 1;
		} else if (!strcmp(tok[0], "share-fill")) {
			if (n != 2 && n != 3)
				bad_line(file, line, "usage: share-fill BYTE [COUNT]");
			r->share_fill = number(file, line, tok[1]);
			if (n == 3)
				r->share_fill_count = number(file, line, tok[2]);
			if (r->share_fill > 255)
				bad_line(file, line, "share-fill: %u is not a byte", r->share_fill);
		} else if (!strcmp(tok[0], "point")) {
			if (n < 4 || strcmp(tok[2], "at") || strlen(tok[1]) >= sizeof(r->point_file))
				bad_line(file, line, "usage: point FILE at PLACE");
			strcpy(r->point_file, tok[1]);
			parse_where(file, line, &r->point_where, tok + 3, n - 3);
			r->point = 1;
		} else if (!strcmp(tok[0], "split")) {
			if (n != 2 || strlen(tok[1]) >= sizeof(r->split_file))
				bad_line(file, line, "usage: split FILE");
			strcpy(r->split_file, tok[1]);
		} else if (!strcmp(tok[0], "scale")) {
			if (n != 3)
				bad_line(file, line, "usage: scale FILES MIB");
			r->scale_files = number(file, line, tok[1]);
			r->scale_mib = number(file, line, tok[2]);
			if (r->scale_mib < 16 || r->scale_mib > 65536 ||
			    (unsigned long long)r->scale_files * 5 > (unsigned long long)r->scale_mib * 1024)
				bad_line(file, line, "scale: %u files of 4 KiB do not fit %u MiB (16 to 65536)",
					 r->scale_files, r->scale_mib);
		} else if (!strcmp(tok[0], "acl")) {
			if (n < 4 || strcmp(tok[2], "at") || strlen(tok[1]) >= sizeof(r->acl_file) || r->acl_file[0])
				bad_line(file, line, "usage: acl FILE at PLACE (one acl line)");
			strcpy(r->acl_file, tok[1]);
			parse_where(file, line, &r->acl_where, tok + 3, n - 3);
		} else if (!strcmp(tok[0], "indirect")) {
			struct indirect *x;

			if (r->nindirect == (int)(sizeof(r->indirect) / sizeof(r->indirect[0])))
				bad_line(file, line, "too many indirect lines (%zu at most)",
					 sizeof(r->indirect) / sizeof(r->indirect[0]));
			x = &r->indirect[r->nindirect++];
			if (n < 2 || (n > 2 && (n < 4 || strcmp(tok[2], "dind-at"))) || strlen(tok[1]) >= sizeof(x->path))
				bad_line(file, line, "usage: indirect FILE [dind-at PLACE]");
			strcpy(x->path, tok[1]);
			if (n > 2) {
				x->dind_at = 1;
				parse_where(file, line, &x->where, tok + 3, n - 3);
			}
		} else if (!strcmp(tok[0], "size")) {
			if (n != 3 || strlen(tok[1]) >= sizeof(r->size_file) || r->size_file[0])
				bad_line(file, line, "usage: size FILE BYTES (one size line)");
			strcpy(r->size_file, tok[1]);
			r->size_bytes = number(file, line, tok[2]);
			if (r->size_bytes < 1 || r->size_bytes > 16 << 20)
				bad_line(file, line, "size: BYTES is 1 to %u, not %u", 16 << 20, r->size_bytes);
		} else if (!strcmp(tok[0], "inline-flag")) {
			if (n != 2 || strlen(tok[1]) >= sizeof(r->inline_file) || r->inline_file[0])
				bad_line(file, line, "usage: inline-flag FILE (one inline-flag line)");
			strcpy(r->inline_file, tok[1]);
		} else if (!strcmp(tok[0], "uninit-tail")) {
			if (n != 2 || strlen(tok[1]) >= sizeof(r->uninit_tail) || r->uninit_tail[0])
				bad_line(file, line, "usage: uninit-tail DIR (one uninit-tail line)");
			strcpy(r->uninit_tail, tok[1]);
		} else if (!strcmp(tok[0], "xattr")) {
			if (n != 3 || strlen(tok[1]) >= sizeof(r->xattr_file))
				bad_line(file, line, "usage: xattr FILE SIZE");
			strcpy(r->xattr_file, tok[1]);
			r->xattr_size = number(file, line, tok[2]);
			if (r->xattr_size < 64 || r->xattr_size > 900)
				bad_line(file, line, "xattr: SIZE is 64 to 900 bytes, not %u", r->xattr_size);
		} else if (!strcmp(tok[0], "feature")) {
			if (n != 3 || strcmp(tok[1], "shared_blocks"))
				bad_line(file, line, "usage: feature shared_blocks on|off");
			if (!strcmp(tok[2], "on"))
				r->shared_blocks = twin ? -1 : 1;
			else if (!strcmp(tok[2], "off"))
				r->shared_blocks = 0;
			else
				bad_line(file, line, "feature: '%s' is neither on nor off", tok[2]);
		} else if (!strcmp(tok[0], "block-bitmap") || !strcmp(tok[0], "inode-bitmap") ||
			   !strcmp(tok[0], "inode-table")) {
			struct move *m;

			if (r->nmoves == MAX_OPS)
				bad_line(file, line, "too many moves (%d at most)", MAX_OPS);
			m = &r->moves[r->nmoves++];
			m->what = tok[0][0] == 'b' ? OP_BB : tok[0][6] == 'b' ? OP_IB : OP_IT;
			if (n < 3 || strcmp(tok[2], "at"))
				bad_line(file, line, "usage: %s GROUP at PLACE", tok[0]);
			m->group = number(file, line, tok[1]);
			parse_where(file, line, m, tok + 3, n - 3);
		} else if (!strcmp(tok[0], "mke2fs-feature")) {
			if (n != 2 || (strcmp(tok[1], "mmp") && strcmp(tok[1], "quota") && strcmp(tok[1], "orphan_file")))
				bad_line(file, line, "usage: mke2fs-feature mmp|quota|orphan_file");
			if (strstr(r->mke2fs_features, tok[1]))
				bad_line(file, line, "mke2fs-feature %s twice", tok[1]);
			strcat(r->mke2fs_features, ",");
			strcat(r->mke2fs_features, tok[1]);
		} else if (!strcmp(tok[0], "bigalloc")) {
			if (n != 1)
				bad_line(file, line, "usage: bigalloc");
			r->bigalloc = 1;
		} else if (!strcmp(tok[0], "meta_bg")) {
			if (n != 1)
				bad_line(file, line, "usage: meta_bg");
			r->meta_bg = 1;
		} else if (!strcmp(tok[0], "journal-at")) {
			if (n < 2)
				bad_line(file, line, "usage: journal-at PLACE");
			parse_where(file, line, &r->journal_where, tok + 1, n - 1);
			r->journal_at = 1;
		} else if (!strcmp(tok[0], "journal-file")) {
			if (n != 2 || strlen(tok[1]) >= sizeof(r->journal_file) || strchr(tok[1], '/'))
				bad_line(file, line, "usage: journal-file NAME (a name in the root, no '/')");
			strcpy(r->journal_file, tok[1]);
		} else if (!strcmp(tok[0], "quota-file-link")) {
			if (n != 3 || (strcmp(tok[1], "usr") && strcmp(tok[1], "grp")) ||
			    strlen(tok[2]) >= sizeof(r->quota_link_name) || strchr(tok[2], '/'))
				bad_line(file, line, "usage: quota-file-link usr|grp NAME (a name in the root, no '/')");
			r->quota_link = strcmp(tok[1], "usr") ? 2 : 1;
			strcpy(r->quota_link_name, tok[2]);
		} else if (!strcmp(tok[0], "dedup")) {
			if (n != 3 || strlen(tok[1]) >= sizeof(r->dedup_name) || strchr(tok[1], '/'))
				bad_line(file, line, "usage: dedup NAME COPIES");
			strcpy(r->dedup_name, tok[1]);
			r->dedup_copies = (int)number(file, line, tok[2]);
			if (r->dedup_copies < 2 || r->dedup_copies > 16)
				bad_line(file, line, "dedup: COPIES must be 2 to 16");
		} else if (!strcmp(tok[0], "journal-pending")) {
			struct pending *jp;
			int k = n;

			if (r->npending == MAX_OPS)
				bad_line(file, line, "too many journal-pending lines (%d at most)", MAX_OPS);
			jp = &r->pending[r->npending++];
			jp->fill = -1;
			jp->shared_blocks = -1;
			if (n >= 4 && !strcmp(tok[n - 2], "fill")) {
				jp->fill = (int)number(file, line, tok[n - 1]);
				if (jp->fill > 255)
					bad_line(file, line, "fill: %d is not a byte", jp->fill);
				k = n - 2;
			} else if (n >= 4 && !strcmp(tok[n - 2], "shared_blocks")) {
				if (!strcmp(tok[n - 1], "on"))
					jp->shared_blocks = 1;
				else if (!strcmp(tok[n - 1], "off"))
					jp->shared_blocks = 0;
				else
					bad_line(file, line, "shared_blocks: '%s' is neither on nor off", tok[n - 1]);
				k = n - 2;
			}
			if (k < 2)
				bad_line(file, line, "usage: journal-pending PLACE [fill BYTE | shared_blocks on|off]");
			parse_where(file, line, &jp->where, tok + 1, k - 1);
			if (jp->shared_blocks >= 0 && (jp->where.where != W_SB || jp->where.offset))
				bad_line(file, line, "shared_blocks: only the superblock carries the flag");
		} else if (!strcmp(tok[0], "resize-extra-slot")) {
			if (n != 1)
				bad_line(file, line, "usage: resize-extra-slot");
			r->resize_extra_slot = 1;
		} else if (!strcmp(tok[0], "resize-extents-flag")) {
			if (n != 1)
				bad_line(file, line, "usage: resize-extents-flag");
			r->resize_extents_flag = 1;
		} else if (!strcmp(tok[0], "journal-stale")) {
			if (n != 1)
				bad_line(file, line, "usage: journal-stale");
			r->journal_stale = 1;
		} else if (!strcmp(tok[0], "journal-errno")) {
			if (n != 2)
				bad_line(file, line, "usage: journal-errno N");
			r->journal_errno = (int)number(file, line, tok[1]);
			if (r->journal_errno < 1 || r->journal_errno > 4095)
				bad_line(file, line, "journal-errno: %d is not an errno", r->journal_errno);
		} else if (!strcmp(tok[0], "mutate")) {
			char *end;

			if (n != 2)
				bad_line(file, line, "usage: mutate SEED (hex)");
			errno = 0;
			r->mutate_seed = strtoull(tok[1], &end, 16);
			if (errno || *end || end == tok[1])
				bad_line(file, line, "mutate: '%s' is not a hex seed", tok[1]);
			r->mutate = 1;
		} else {
			bad_line(file, line, "unknown directive '%s'", tok[0]);
		}
	}
	if (ferror(f))
		die("read %s:", file);
	fclose(f);
}

/* ---- the file tree: known content, reproducible ---- */

static const struct {
	const char *path;
	size_t size;
} files[] = {
	{ "hello.txt", 0 },	/* text, below */
	{ "empty", 0 },
	{ "one-block", 1024 },
	{ "block-and-a-byte", 1025 },
	{ "dir/nested/seven-blocks", 7 * 1024 + 17 },
	{ "dir/big", 300000 },
	{ "dir/small", 100 },
};
#define HELLO "shared_blocks test image: every file's sha256 is in the manifest\n"

static void fill(const char *name, unsigned char *buf, size_t n)
{
	uint64_t x = 1469598103934665603ULL;
	size_t i;

	for (i = 0; name[i]; i++)
		x = (x ^ (unsigned char)name[i]) * 1099511628211ULL;
	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		buf[i] = (unsigned char)(x >> 24);
	}
}

static void hash_line(FILE *man, const char *path, const unsigned char *data, size_t n)
{
	struct sha256 c;
	unsigned char sum[32];
	char hex[65];

	sha256_init(&c);
	sha256_update(&c, data, n);
	sha256_final(&c, sum);
	sha256_hex(sum, hex);
	fprintf(man, "%s  %s\n", hex, path);
}

static void write_file(const char *path, const unsigned char *data, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		die("create %s:", path);
	if (n && write(fd, data, n) != (ssize_t)n)
		die("write %s:", path);
	if (close(fd))
		die("close %s:", path);
}

static void settime(const char *path)
{
	struct timespec ts[2] = { { FAKE_TIME, 0 }, { FAKE_TIME, 0 } };

	if (utimensat(AT_FDCWD, path, ts, AT_SYMLINK_NOFOLLOW))
		die("set times of %s:", path);
}

/* FILES files of 4 KiB under ROOT/many, a thousand a directory, none in
 * the manifest; their directories' times set last, as make_tree's. */
static void make_scale(const char *root, unsigned int files)
{
	unsigned char buf[4096];
	char path[8192];
	unsigned int i;

	snprintf(path, sizeof(path), "%s/many", root);
	if (files && mkdir(path, 0755))
		die("mkdir %s:", path);
	for (i = 0; i < files; i++) {
		if (i % 1000 == 0) {
			snprintf(path, sizeof(path), "%s/many/%03u", root, i / 1000);
			if (mkdir(path, 0755))
				die("mkdir %s:", path);
		}
		snprintf(path, sizeof(path), "%s/many/%03u/%04u", root, i / 1000, i % 1000);
		fill(path + strlen(root), buf, sizeof(buf));
		write_file(path, buf, sizeof(buf));
		settime(path);
	}
	for (i = 0; i < files; i += 1000) {
		snprintf(path, sizeof(path), "%s/many/%03u", root, i / 1000);
		settime(path);
	}
	if (files) {
		snprintf(path, sizeof(path), "%s/many", root);
		settime(path);
	}
}

/* The tree of files[] under ROOT, each file's line in the manifest MAN;
 * SIZE_FILE (if any) holds SIZE bytes of its content instead of its usual
 * size. */
static void make_tree(const char *root, FILE *man, unsigned int scale_files, const char *size_file,
		      unsigned int size)
{
	char path[8192];
	size_t i;
	int sized = !size_file[0];
	static const char *const dirs[] = { "", "/dir", "/dir/nested" };

	for (i = 1; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", root, dirs[i]);
		if (mkdir(path, 0755))
			die("mkdir %s:", path);
	}
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		size_t n = i == 0 ? strlen(HELLO) : files[i].size;
		unsigned char *buf;

		if (!strcmp(files[i].path, size_file)) {
			if (i == 0)
				die("size %s: its text is fixed", size_file);
			n = size;
			sized = 1;
		}
		buf = malloc(n + 1);

		if (!buf)
			die("out of memory");
		if (i == 0)
			memcpy(buf, HELLO, n);
		else
			fill(files[i].path, buf, n);
		snprintf(path, sizeof(path), "%s/%s", root, files[i].path);
		write_file(path, buf, n);
		hash_line(man, files[i].path, buf, n);
		settime(path);
		free(buf);
	}
	if (!sized)
		die("size %s: no such file in the tree", size_file);
	make_scale(root, scale_files);
	/* mke2fs -d copies times: set them last, children before parents. */
	for (i = sizeof(dirs) / sizeof(dirs[0]); i-- > 0;) {
		snprintf(path, sizeof(path), "%s%s", root, dirs[i]);
		settime(path);
	}
}

/* ---- mke2fs ---- */

#define FEATURES "64bit,flex_bg,metadata_csum,extent,huge_file,dir_nlink,extra_isize,has_journal,^metadata_csum_seed"

static void run_mke2fs(const char *img, const char *tree, int bigalloc, int meta_bg, const char *bsize,
		       const char *more, unsigned int mib, unsigned int files)
{
	char t[32], opt[256], blocks[32], inodes[32];
	pid_t pid;
	int st;

	snprintf(t, sizeof(t), "%ld", FAKE_TIME);
	/* 16384 blocks and 512 inodes, or what scale asks for and room for it. */
	snprintf(blocks, sizeof(blocks), "%u", mib ? mib * (strcmp(bsize, "1024") ? 256 : 1024) : 16384);
	snprintf(inodes, sizeof(inodes), "%u", 512 + files + files / 1000 + 1);
	snprintf(tmpconf, sizeof(tmpconf), "%s.conf", tree);
	{
		FILE *f = fopen(tmpconf, "w");

		if (!f || fputs(mke2fs_conf, f) < 0 || fclose(f))
			die("write %s:", tmpconf);
	}
	/* An existing file keeps mke2fs from announcing that it creates one. */
	{
		int fd = open(img, O_WRONLY | O_CREAT | O_EXCL, 0644);

		if (fd < 0 || close(fd))
			die("create %s:", img);
	}
	pid = fork();
	if (pid < 0)
		die("fork:");
	if (pid == 0) {
		/* The host's mke2fs.conf must not change the image. */
		setenv("MKE2FS_CONFIG", tmpconf, 1);
		setenv("E2FSPROGS_FAKE_TIME", t, 1);
		/* One layout a recipe: the group or cluster size, and the
		 * features that go with it. */
		const char *size_opt = "-g", *size = "2048", *features = FEATURES;

		if (meta_bg)
			size = "512", features = FEATURES ",meta_bg,^resize_inode";
		else if (bigalloc)
			size_opt = "-C", size = "16384", features = FEATURES ",bigalloc,^resize_inode";
		snprintf(opt, sizeof(opt), "%s%s", features, more);
		execlp("mke2fs", "mke2fs", "-q", "-F", "-t", "ext4",
		       "-b", bsize, size_opt, size, "-N", inodes, "-I", "256", "-J", strcmp(bsize, "1024") ? "size=4" : "size=1",
		       "-O", opt,
		       "-U", UUID, "-L", "kit-image",
		       "-E", "hash_seed=" HASH_SEED ",root_owner=0:0,lazy_itable_init=0,lazy_journal_init=0,nodiscard",
		       "-d", tree, img, blocks, (char *)NULL);
		fprintf(stderr, "%s: exec mke2fs: %s\n", prog, strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0)
		die("wait for mke2fs:");
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		die("mke2fs failed (status %d) for %s", WIFEXITED(st) ? WEXITSTATUS(st) : -1, img);
}

/* mke2fs -d copies each source file's ctime, which user space cannot set
 * and E2FSPROGS_FAKE_TIME does not cover: pin every time of every inode in
 * use (linked) to FAKE_TIME, so the image does not depend on when it was
 * built.  Only inodes that change are written; that recomputes their
 * checksum. */
static void pin_times(ext2_filsys fs)
{
	unsigned int size = EXT2_INODE_SIZE(fs->super);
	unsigned int cmp = size < sizeof(struct ext2_inode_large) ? size : sizeof(struct ext2_inode_large);
	struct ext2_inode_large *inode = malloc(size);
	ext2_ino_t ino;
	errcode_t err;

	if (!inode)
		die("out of memory");
	for (ino = 1; ino <= fs->super->s_inodes_count; ino++) {
		struct ext2_inode_large old;
		unsigned int have = EXT2_GOOD_OLD_INODE_SIZE;

		err = ext2fs_read_inode_full(fs, ino, (struct ext2_inode *)inode, size);
		if (err)
			die_fs(err, "read an inode");
		if (!inode->i_links_count)
			continue;
		if (size > EXT2_GOOD_OLD_INODE_SIZE)
			have += inode->i_extra_isize;
		if (have > size)
			have = size;
		memcpy(&old, inode, cmp);
		inode->i_atime = inode->i_ctime = inode->i_mtime = FAKE_TIME;
		if (inode_includes(have, i_ctime_extra))
			inode->i_ctime_extra = 0;
		if (inode_includes(have, i_mtime_extra))
			inode->i_mtime_extra = 0;
		if (inode_includes(have, i_atime_extra))
			inode->i_atime_extra = 0;
		if (inode_includes(have, i_crtime))
			inode->i_crtime = FAKE_TIME;
		if (inode_includes(have, i_crtime_extra))
			inode->i_crtime_extra = 0;
		if (!memcmp(&old, inode, cmp))
			continue;
		err = ext2fs_write_inode_full(fs, ino, (struct ext2_inode *)inode, size);
		if (err)
			die_fs(err, "write an inode");
	}
	free(inode);
}

/* ---- descriptor surgery ---- */

static blk64_t base_place(ext2_filsys fs, const struct move *m);

/* The block a WHERE names, its offset included: still inside the image,
 * but for past-end and top, whose point is to be outside it. */
static blk64_t place(ext2_filsys fs, const struct move *m)
{
	blk64_t b = base_place(fs, m);

	if (m->offset < 0 && (blk64_t)-(long long)m->offset > b)
		die("offset %d goes below block 0", m->offset);
	b += m->offset;
	if (m->where != W_PAST_END && m->where != W_TOP &&
	    (b < fs->super->s_first_data_block || b >= ext2fs_blocks_count(fs->super)))
		die("offset %d puts block %llu outside the image", m->offset, (unsigned long long)b);
	return b;
}

/* The resize inode (7), read into INODE; its double-indirect block. */
static blk64_t resize_inode(ext2_filsys fs, struct ext2_inode *inode)
{
	errcode_t err;

	if (!ext2fs_has_feature_resize_inode(fs->super))
		die("the image has no resize inode");
	err = ext2fs_read_inode(fs, EXT2_RESIZE_INO, inode);
	if (err)
		die_fs(err, "read the resize inode");
	if (!inode->i_block[EXT2_DIND_BLOCK])
		die("the resize inode has no double-indirect block");
	return inode->i_block[EXT2_DIND_BLOCK];
}

/* A path of the tree, as its inode number. */
static ext2_ino_t path_ino(ext2_filsys fs, const char *path)
{
	ext2_ino_t ino;
	errcode_t err = ext2fs_namei(fs, EXT2_ROOT_INO, EXT2_ROOT_INO, path, &ino);

	if (err)
		die_fs(err, path);
	return ino;
}

/* The metadata of one inode of the tree a place names: a directory's first
 * block, the leaf block of a file's extent tree, a file's attribute block. */
static blk64_t inode_place(ext2_filsys fs, const struct move *m)
{
	ext2_ino_t ino = path_ino(fs, m->path);
	struct ext2_inode inode;
	blk64_t b = 0;
	errcode_t err = ext2fs_read_inode(fs, ino, &inode);

	if (err)
		die_fs(err, m->path);
	if (m->where == W_DIR_BLOCK) {
		if (!LINUX_S_ISDIR(inode.i_mode))
			die("dir-block %s: not a directory", m->path);
		err = ext2fs_bmap2(fs, ino, NULL, NULL, 0, 0, NULL, &b);
		if (err || !b)
			die_fs(err ? err : EXT2_ET_BAD_BLOCK_NUM, "find the directory's first block");
	} else if (m->where == W_XATTR_BLOCK) {
		b = ext2fs_file_acl_block(fs, &inode);
		if (!b)
			die("xattr-block %s: it has no attribute block (give it one: xattr %s SIZE)", m->path, m->path);
	} else {
		ext2_extent_handle_t h;
		struct ext2fs_extent ext;

		err = ext2fs_extent_open(fs, ino, &h);
		if (!err)
			err = ext2fs_extent_get(h, EXT2_EXTENT_ROOT, &ext);
		if (err)
			die_fs(err, "read the extent tree of the file");
		ext2fs_extent_free(h);
		if (ext.e_flags & EXT2_EXTENT_FLAGS_LEAF)
			die("extent-leaf %s: its extents fit in its inode (split it first: split %s)", m->path, m->path);
		b = ext.e_pblk;
	}
	return b;
}

static blk64_t base_place(ext2_filsys fs, const struct move *m)
{
	/* The primary superblock is at byte 1024 whatever s_first_data_block
	 * says (bigalloc with 1k blocks has it 0); the descriptors follow it. */
	blk64_t sb = SUPERBLOCK_OFFSET / fs->blocksize;

	switch (m->where) {
	case W_SB:
		return sb;
	case W_GDT:
		return sb + 1;
	case W_PAST_END:
		return ext2fs_blocks_count(fs->super) + 16;
	case W_TOP:
		return ~(blk64_t)0;
	case W_BACKUP_SB:
	case W_BACKUP_GDT:
		if (m->arg >= fs->group_desc_count || !ext2fs_bg_has_super(fs, m->arg) || m->arg == 0)
			die("group %u has no backup superblock", m->arg);
		return ext2fs_group_first_block2(fs, m->arg) + (m->where == W_BACKUP_GDT);
	case W_JOURNAL: {
		/* A block from the middle of the journal, not its first. */
		blk64_t b = 0;
		errcode_t err;

		if (!fs->super->s_journal_inum)
			die("the image has no journal");
		err = ext2fs_bmap2(fs, fs->super->s_journal_inum, NULL, NULL, 0, 16, NULL, &b);
		if (err || !b)
			die_fs(err ? err : EXT2_ET_BAD_BLOCK_NUM, "find a journal block");
		return b;
	}
	case W_RESIZE: {
		struct ext2_inode inode;

		return resize_inode(fs, &inode);
	}
	case W_META_GDT: {
		blk64_t super, old_desc, new_desc;
		blk_t used;

		if (!ext2fs_has_feature_meta_bg(fs->super))
			die("meta-gdt: the image has no meta_bg");
		if (m->arg >= fs->group_desc_count)
			die("no group %u (the image has %u)", m->arg, fs->group_desc_count);
		if (ext2fs_super_and_bgd_loc2(fs, m->arg, &super, &old_desc, &new_desc, &used) || !new_desc)
			die("group %u holds no descriptor block", m->arg);
		return new_desc;
	}
	case W_MMP:
		if (!ext2fs_has_feature_mmp(fs->super) || !fs->super->s_mmp_block)
			die("mmp: the image has no MMP block (mke2fs-feature mmp)");
		return fs->super->s_mmp_block;
	case W_QUOTA:
	case W_ORPHAN: {
		ext2_ino_t ino = m->where == W_ORPHAN ? fs->super->s_orphan_file_inum :
				 m->arg ? fs->super->s_grp_quota_inum : fs->super->s_usr_quota_inum;
		blk64_t b = 0;
		errcode_t err;

		if (!ino)
			die("%s: the image has none (mke2fs-feature %s)",
			    m->where == W_ORPHAN ? "orphan-file" : "quota-file", m->where == W_ORPHAN ? "orphan_file" : "quota");
		err = ext2fs_bmap2(fs, ino, NULL, NULL, 0, 0, NULL, &b);
		if (err || !b)
			die_fs(err ? err : EXT2_ET_BAD_BLOCK_NUM, m->where == W_ORPHAN ? "find the orphan file's first block" : "find the quota file's first block");
		return b;
	}
	case W_ITABLE:
		if (m->arg >= fs->group_desc_count)
			die("no group %u (the image has %u)", m->arg, fs->group_desc_count);
		return ext2fs_inode_table_loc(fs, m->arg);
	case W_DIR_BLOCK:
	case W_EXTENT_LEAF:
	case W_XATTR_BLOCK:
		return inode_place(fs, m);
	}
	return 0;
}

static void apply_moves(ext2_filsys fs, const struct recipe *r)
{
	int i;

	for (i = 0; i < r->nmoves; i++) {
		const struct move *m = &r->moves[i];
		blk64_t b;

		if (m->group >= fs->group_desc_count)
			die("no group %u (the image has %u)", m->group, fs->group_desc_count);
		b = place(fs, m);
		if (m->what == OP_BB)
			ext2fs_block_bitmap_loc_set(fs, m->group, b);
		else if (m->what == OP_IB)
			ext2fs_inode_bitmap_loc_set(fs, m->group, b);
		else
			ext2fs_inode_table_loc_set(fs, m->group, b);
	}
}

/* Zero bits among the first n of a bitmap: what it calls free. */
static unsigned int zero_bits(const unsigned char *map, unsigned int n)
{
	unsigned int i, z = 0;

	for (i = 0; i < n; i++)
		z += !(map[i / 8] & (1 << (i % 8)));
	return z;
}

/* One all-ones block (or share-fill's bytes) for every bitmap: valid
 * checksums for every group, since bitmap checksums do not mix in the group
 * number.  Free counts say what the shared block says, group by group, so
 * the kernel finds descriptors and bitmap consistent. */
static void share_bitmaps(ext2_filsys fs, const struct recipe *r)
{
	unsigned int bsize = fs->blocksize;
	unsigned char *ones = malloc(bsize);
	blk64_t shared = r->share_at ? place(fs, &r->share_where) : ext2fs_block_bitmap_loc(fs, 0);
	dgrp_t g;
	errcode_t err;
	blk64_t free_blocks = 0;
	unsigned long free_inodes = 0;

	if (!ones)
		die("out of memory");
	memset(ones, 0xff, bsize);
	if (r->share_fill_count > bsize)
		die("share-fill: %u bytes do not fit in a %u-byte block", r->share_fill_count, bsize);
	memset(ones, r->share_fill, r->share_fill_count ? r->share_fill_count : bsize);
	err = io_channel_write_blk64(fs->io, shared, 1, ones);
	if (err)
		die_fs(err, "write the shared bitmap block");
	for (g = 0; g < fs->group_desc_count; g++) {
		int keep_b = r->share_keep_uninit && ext2fs_bg_flags_test(fs, g, EXT2_BG_BLOCK_UNINIT);
		int keep_i = r->share_keep_uninit && ext2fs_bg_flags_test(fs, g, EXT2_BG_INODE_UNINIT);
		unsigned int fb = keep_b ? ext2fs_bg_free_blocks_count(fs, g) :
				  zero_bits(ones, ext2fs_group_blocks_count(fs, g) >> fs->cluster_ratio_bits);
		unsigned int fi = keep_i ? ext2fs_bg_free_inodes_count(fs, g) :
				  zero_bits(ones, EXT2_INODES_PER_GROUP(fs->super));

		ext2fs_block_bitmap_loc_set(fs, g, shared);
		ext2fs_inode_bitmap_loc_set(fs, g, shared);
		if (!keep_b)
			ext2fs_bg_flags_clear(fs, g, EXT2_BG_BLOCK_UNINIT);
		if (!keep_i) {
			ext2fs_bg_flags_clear(fs, g, EXT2_BG_INODE_UNINIT);
			ext2fs_bg_itable_unused_set(fs, g, 0);
		}
		ext2fs_bg_free_blocks_count_set(fs, g, fb);
		ext2fs_bg_free_inodes_count_set(fs, g, fi);
		free_blocks += (blk64_t)fb << fs->cluster_ratio_bits;
		free_inodes += fi;
		err = 0;
		if (!keep_b)
			err = ext2fs_block_bitmap_csum_set(fs, g, (char *)ones, EXT2_CLUSTERS_PER_GROUP(fs->super) / 8);
		if (!err && !keep_i)
			err = ext2fs_inode_bitmap_csum_set(fs, g, (char *)ones, EXT2_INODES_PER_GROUP(fs->super) / 8);
		if (err)
			die_fs(err, "bitmap checksum");
	}
	ext2fs_free_blocks_count_set(fs->super, free_blocks);
	fs->super->s_free_inodes_count = free_inodes;
	/* Bitmaps an earlier line loaded and changed (split, xattr, indirect,
	 * uninit-tail) are superseded by the shared block: closing the image
	 * must not write them over it, group after group. */
	fs->flags &= ~(EXT2_FLAG_BB_DIRTY | EXT2_FLAG_IB_DIRTY);
	free(ones);
}

static void add_dedup(ext2_filsys fs, const struct recipe *r, FILE *man)
{
	size_t n = 3 * fs->blocksize;
	unsigned char *buf = malloc(n);
	errcode_t err;
	int i;

	if (!buf)
		die("out of memory");
	fill(r->dedup_name, buf, n);
	err = ext2fs_read_bitmaps(fs);
	if (err)
		die_fs(err, "read bitmaps");
	for (i = 0; i < r->dedup_copies; i++) {
		struct ext2_inode inode;
		ext2_file_t file;
		ext2_ino_t ino;
		unsigned int got;
		char name[96];

		snprintf(name, sizeof(name), "%s.%d", r->dedup_name, i);
		err = ext2fs_new_inode(fs, EXT2_ROOT_INO, LINUX_S_IFREG | 0644, 0, &ino);
		if (!err)
			err = ext2fs_link(fs, EXT2_ROOT_INO, name, ino, EXT2_FT_REG_FILE);
		if (err == EXT2_ET_DIR_NO_SPACE) {
			err = ext2fs_expand_dir(fs, EXT2_ROOT_INO);
			if (!err)
				err = ext2fs_link(fs, EXT2_ROOT_INO, name, ino, EXT2_FT_REG_FILE);
		}
		if (err)
			die_fs(err, "create a dedup file");
		ext2fs_inode_alloc_stats2(fs, ino, +1, 0);
		memset(&inode, 0, sizeof(inode));
		inode.i_mode = LINUX_S_IFREG | 0644;
		inode.i_links_count = 1;
		inode.i_atime = inode.i_ctime = inode.i_mtime = FAKE_TIME;
		if (ext2fs_has_feature_extents(fs->super)) {
			ext2_extent_handle_t h;

			err = ext2fs_extent_open2(fs, ino, &inode, &h);
			if (err)
				die_fs(err, "extent header");
			ext2fs_extent_free(h);
		}
		err = ext2fs_write_new_inode(fs, ino, &inode);
		if (!err)
			err = ext2fs_file_open(fs, ino, EXT2_FILE_WRITE, &file);
		if (!err)
			err = ext2fs_file_write(file, buf, (unsigned int)n, &got);
		if (!err && got != n)
			err = EXT2_ET_SHORT_WRITE;
		if (!err)
			err = ext2fs_file_close(file);
		if (err)
			die_fs(err, "write a dedup file");
		hash_line(man, name, buf, n);
	}
	free(buf);
}

/*
 * A system file made a file by a name, as an attacker (or an old tool)
 * leaves it: inode OLD copied to a new regular inode (the same blocks and
 * flags, immutable or not as asked), linked in the root as NAME, the reserved inode
 * cleared.  Returns the new inode's number; the caller points the
 * superblock at it.  The manifest says NAME holds nothing, and IMAGE.meta
 * what NAME holds, so a read of it that returns the system file shows as
 * a leak.  The bitmaps are written here, before anything moves them.
 */
static ext2_ino_t link_system_file(ext2_filsys fs, ext2_ino_t old, const char *name,
				   int immutable, FILE *man)
{
	unsigned int size = EXT2_INODE_SIZE(fs->super);
	struct ext2_inode *inode = calloc(1, size), *zero = calloc(1, size);
	struct linked *l = &linked[nlinked++];
	ext2_ino_t ino = 0;
	errcode_t err;

	if (!inode || !zero)
		die("out of memory");
	err = ext2fs_read_bitmaps(fs);
	if (!err)
		err = ext2fs_read_inode_full(fs, old, inode, size);
	if (!err)
		err = ext2fs_new_inode(fs, EXT2_ROOT_INO, LINUX_S_IFREG | 0600, 0, &ino);
	if (!err)
		err = ext2fs_link(fs, EXT2_ROOT_INO, name, ino, EXT2_FT_REG_FILE);
	if (err == EXT2_ET_DIR_NO_SPACE) {
		err = ext2fs_expand_dir(fs, EXT2_ROOT_INO);
		if (!err)
			err = ext2fs_link(fs, EXT2_ROOT_INO, name, ino, EXT2_FT_REG_FILE);
	}
	if (err)
		die_fs(err, "link a new inode for a system file");
	ext2fs_inode_alloc_stats2(fs, ino, +1, 0);
	inode->i_links_count = 1;
	inode->i_mode = LINUX_S_IFREG | 0600;
	if (immutable)
		inode->i_flags |= EXT2_IMMUTABLE_FL;
	else
		inode->i_flags &= ~EXT2_IMMUTABLE_FL;
	err = ext2fs_write_inode_full(fs, ino, inode, size);
	if (!err)
		err = ext2fs_write_inode_full(fs, old, zero, size);
	if (!err)
		err = ext2fs_write_bitmaps(fs);
	if (err)
		die_fs(err, "write a linked system file's inodes");
	hash_line(man, name, (const unsigned char *)"", 0);
	l->name = name;
	{
		ext2_file_t f;
		unsigned char buf[4096], sum[32];
		unsigned int got;
		struct sha256 c;

		sha256_init(&c);
		err = ext2fs_file_open(fs, ino, 0, &f);
		while (!err && !(err = ext2fs_file_read(f, buf, sizeof(buf), &got)) && got)
			sha256_update(&c, buf, got);
		if (!err)
			err = ext2fs_file_close(f);
		if (err)
			die_fs(err, "read a linked system file back");
		sha256_final(&c, sum);
		sha256_hex(sum, l->hex);
	}
	free(inode);
	free(zero);
	return ino;
}

/* The journal as ext3 leaves it when tune2fs -j runs on a mounted
 * filesystem: an immutable regular inode, linked in the root. */
static void journal_file(ext2_filsys fs, const struct recipe *r, FILE *man)
{
	if (!fs->super->s_journal_inum)
		die("journal-file: the image has no journal");
	fs->super->s_journal_inum = link_system_file(fs, fs->super->s_journal_inum,
						     r->journal_file, 1, man);
}

/* A quota file as quota tools leave aquota.user where quota is no feature:
 * a regular inode linked in the root, here with the superblock's
 * s_usr_quota_inum (or s_grp_quota_inum) naming it too. */
static void quota_file_link(ext2_filsys fs, const struct recipe *r, FILE *man)
{
	__u32 *inum = r->quota_link == 1 ? &fs->super->s_usr_quota_inum
						     : &fs->super->s_grp_quota_inum;

	if (!ext2fs_has_feature_quota(fs->super) || !*inum)
		die("quota-file-link: the image has no %s quota file (mke2fs-feature quota)",
		    r->quota_link == 1 ? "user" : "group");
	*inum = link_system_file(fs, *inum, r->quota_link_name, 0, man);
}

/* The journal's one extent moved, content and all, to start at a place;
 * the superblock's backup of the journal inode's blocks follows. */
static void journal_at(ext2_filsys fs, const struct recipe *r)
{
	ext2_ino_t ino = fs->super->s_journal_inum;
	ext2_extent_handle_t h;
	struct ext2fs_extent ext, next;
	struct ext2_inode inode;
	unsigned char *buf;
	blk64_t to;
	errcode_t err;

	if (!ino)
		die("journal-at: the image has no journal");
	to = place(fs, &r->journal_where);
	err = ext2fs_extent_open(fs, ino, &h);
	if (!err)
		err = ext2fs_extent_get(h, EXT2_EXTENT_ROOT, &ext);
	if (err)
		die_fs(err, "journal-at: read the journal's extent");
	if (!(ext.e_flags & EXT2_EXTENT_FLAGS_LEAF) || ext.e_lblk != 0 ||
	    ext2fs_extent_get(h, EXT2_EXTENT_NEXT_LEAF, &next) != EXT2_ET_EXTENT_NO_NEXT)
		die("journal-at: the journal is not one extent");
	if (to + ext.e_len > ext2fs_blocks_count(fs->super))
		die("journal-at: %u blocks from %llu do not fit in the image", ext.e_len, (unsigned long long)to);
	buf = malloc((size_t)ext.e_len * fs->blocksize);
	if (!buf)
		die("out of memory");
	err = io_channel_read_blk64(fs->io, ext.e_pblk, (int)ext.e_len, buf);
	if (!err)
		err = io_channel_write_blk64(fs->io, to, (int)ext.e_len, buf);
	if (err)
		die_fs(err, "journal-at: copy the journal");
	free(buf);
	/* Back to the root: the NEXT_LEAF probe moved the handle. */
	err = ext2fs_extent_get(h, EXT2_EXTENT_ROOT, &ext);
	if (!err) {
		ext.e_pblk = to;
		err = ext2fs_extent_replace(h, 0, &ext);
	}
	if (!err)
		err = ext2fs_extent_fix_parents(h);
	ext2fs_extent_free(h);
	if (!err)
		err = ext2fs_read_inode(fs, ino, &inode);
	if (err)
		die_fs(err, "journal-at: move the journal's extent");
	memcpy(fs->super->s_jnl_blocks, inode.i_block, EXT2_N_BLOCKS * 4);
	fs->super->s_jnl_blocks[15] = inode.i_size_high;
	fs->super->s_jnl_blocks[16] = inode.i_size;
}

/* FILE's one extent cut in five that follow each other on disk: more
 * than the four the inode holds, so libext2fs moves them into a leaf block
 * it allocates (the extent tree gets depth 1).  The data stays where it is. */
static void split_file(ext2_filsys fs, const char *path)
{
	ext2_ino_t ino = path_ino(fs, path);
	ext2_extent_handle_t h;
	struct ext2fs_extent ext;
	struct ext2_extent_info info;
	blk64_t pblk, lblk, len, part;
	errcode_t err = ext2fs_read_bitmaps(fs);
	int i;

	if (!err)
		err = ext2fs_extent_open(fs, ino, &h);
	if (!err)
		err = ext2fs_extent_get(h, EXT2_EXTENT_ROOT, &ext);
	if (err)
		die_fs(err, "split: read the extent of the file");
	if (!(ext.e_flags & EXT2_EXTENT_FLAGS_LEAF) || ext.e_len < 5 ||
	    ext2fs_extent_get(h, EXT2_EXTENT_NEXT_LEAF, &ext) != EXT2_ET_EXTENT_NO_NEXT)
		die("split %s: not one extent of five blocks or more", path);
	err = ext2fs_extent_get(h, EXT2_EXTENT_ROOT, &ext);
	pblk = ext.e_pblk, lblk = ext.e_lblk, len = ext.e_len, part = len / 5;
	ext.e_len = part;
	if (!err)
		err = ext2fs_extent_replace(h, 0, &ext);
	for (i = 1; i < 5 && !err; i++) {
		ext.e_pblk = pblk + i * part;
		ext.e_lblk = lblk + i * part;
		ext.e_len = i == 4 ? len - 4 * part : part;
		ext.e_flags = 0;
		err = ext2fs_extent_insert(h, EXT2_EXTENT_INSERT_AFTER, &ext);
	}
	if (!err)
		err = ext2fs_extent_get_info(h, &info);
	if (!err && info.max_depth < 1)
		die("split %s: its extents still fit in its inode", path);
	ext2fs_extent_free(h);
	if (err)
		die_fs(err, "split the file's extent");
}

/* FILE given one user attribute, "user.kit", of SIZE bytes of known
 * content: more than its inode holds, so libext2fs writes it into an
 * attribute block of its own (i_file_acl). */
static void add_xattr(ext2_filsys fs, const char *path, unsigned int size)
{
	ext2_ino_t ino = path_ino(fs, path);
	struct ext2_xattr_handle *h;
	struct ext2_inode inode;
	unsigned char buf[900];
	errcode_t err = ext2fs_read_bitmaps(fs);

	fill("user.kit", buf, size);
	if (!err)
		err = ext2fs_xattrs_open(fs, ino, &h);
	if (err)
		die_fs(err, "xattr: open the attributes of the file");
	err = ext2fs_xattrs_read(h);
	if (!err)
		err = ext2fs_xattr_set(h, "user.kit", buf, size);
	if (!err)
		err = ext2fs_xattrs_close(&h);
	if (!err)
		err = ext2fs_read_inode(fs, ino, &inode);
	if (err)
		die_fs(err, "xattr: write the attribute");
	if (!ext2fs_file_acl_block(fs, &inode))
		die("xattr %s %u: it went into the inode, not a block of its own", path, size);
}

/* Move the first block of a file onto a metadata block, through the
 * extent API (the inode checksum is recomputed when it is written). */
static void point_file(ext2_filsys fs, const struct recipe *r)
{
	ext2_extent_handle_t h;
	struct ext2fs_extent ext;
	ext2_ino_t ino;
	errcode_t err;

	ino = path_ino(fs, r->point_file);
	err = ext2fs_extent_open(fs, ino, &h);
	if (!err)
		err = ext2fs_extent_get(h, EXT2_EXTENT_ROOT, &ext);
	if (!err && !(ext.e_flags & EXT2_EXTENT_FLAGS_LEAF))
		err = EXT2_ET_EXTENT_NOT_SUPPORTED;
	if (err)
		die_fs(err, "read the extent of the file to point");
	ext.e_pblk = place(fs, &r->point_where);
	ext.e_len = 1;
	{
		struct ext2_inode inode;

		if (ext2fs_read_inode(fs, ino, &inode))
			die("read the inode of %s", r->point_file);
		/* Only a file that is that one block reads it whole. */
		if (EXT2_I_SIZE(&inode) <= fs->blocksize) {
			meta_blk = ext.e_pblk;
			meta_size = EXT2_I_SIZE(&inode);
			meta_bsize = fs->blocksize;
		}
	}
	err = ext2fs_extent_replace(h, 0, &ext);
	if (!err)
		err = ext2fs_extent_fix_parents(h);
	ext2fs_extent_free(h);
	if (err)
		die_fs(err, "point the file");
}

/* FILE's i_file_acl set to the block a place names (the recipe's acl
 * line): another file's attribute block, say, which FILE then shares. */
static void set_acl(ext2_filsys fs, const struct recipe *r)
{
	ext2_ino_t ino = path_ino(fs, r->acl_file);
	struct ext2_inode inode;
	errcode_t err = ext2fs_read_inode(fs, ino, &inode);

	if (err)
		die_fs(err, r->acl_file);
	ext2fs_file_acl_block_set(fs, &inode, place(fs, &r->acl_where));
	err = ext2fs_write_inode(fs, ino, &inode);
	if (err)
		die_fs(err, "acl: set the attribute block of the file");
}

/* FILE's blocks mapped by direct and indirect blocks instead of its
 * extents, as ext3 maps them: the data stays where it is, libext2fs
 * allocates the indirect blocks.  With dind-at, the first slot of its
 * double-indirect block then names the block a place names instead of
 * the indirect block libext2fs put there (which stays allocated, named
 * by nothing). */
static void make_indirect(ext2_filsys fs, const struct indirect *x)
{
	ext2_ino_t ino = path_ino(fs, x->path);
	struct ext2_inode inode;
	struct ext2_extent_info info;
	ext2_extent_handle_t h;
	blk64_t n, l, *map;
	errcode_t err = ext2fs_read_bitmaps(fs);

	if (!err)
		err = ext2fs_read_inode(fs, ino, &inode);
	if (err)
		die_fs(err, x->path);
	if (!(inode.i_flags & EXT4_EXTENTS_FL))
		die("indirect %s: it has no extents to convert", x->path);
	err = ext2fs_extent_open2(fs, ino, &inode, &h);
	if (!err)
		err = ext2fs_extent_get_info(h, &info);
	if (err)
		die_fs(err, "indirect: read the extent tree of the file");
	ext2fs_extent_free(h);
	if (info.max_depth)
		die("indirect %s: its extent tree has blocks of its own (do not split it too)", x->path);
	n = (EXT2_I_SIZE(&inode) + fs->blocksize - 1) / fs->blocksize;
	if (!n)
		die("indirect %s: it has no blocks to map", x->path);
	map = calloc(n, sizeof(*map));
	if (!map)
		die("out of memory");
	for (l = 0; l < n; l++) {
		err = ext2fs_bmap2(fs, ino, &inode, NULL, 0, l, NULL, &map[l]);
		if (err)
			die_fs(err, "indirect: map the file");
		if (!map[l] || map[l] > 0xffffffffULL)
			die("indirect %s: block %llu is a hole or past 2^32", x->path, (unsigned long long)l);
	}
	inode.i_flags &= ~EXT4_EXTENTS_FL;
	/* i_blocks keeps the data (and any attribute block); libext2fs adds
	 * the indirect blocks it allocates. */
	memset(inode.i_block, 0, sizeof(inode.i_block));
	for (l = 0; l < n; l++) {
		err = ext2fs_bmap2(fs, ino, &inode, NULL, BMAP_ALLOC | BMAP_SET, l, NULL, &map[l]);
		if (err)
			die_fs(err, "indirect: map the file by indirect blocks");
	}
	free(map);
	if (x->dind_at) {
		unsigned char buf[4096];
		blk64_t b = place(fs, &x->where);

		err = ext2fs_read_inode(fs, ino, &inode);
		if (!err && !inode.i_block[EXT2_DIND_BLOCK])
			die("indirect %s dind-at: %llu blocks need no double-indirect block", x->path,
			    (unsigned long long)n);
		if (b > 0xffffffffULL)
			die("indirect %s dind-at: block %llu does not fit a 32-bit slot", x->path, (unsigned long long)b);
		if (!err)
			err = io_channel_read_blk64(fs->io, inode.i_block[EXT2_DIND_BLOCK], 1, buf);
		*(__u32 *)buf = ext2fs_cpu_to_le32((__u32)b);
		if (!err)
			err = io_channel_write_blk64(fs->io, inode.i_block[EXT2_DIND_BLOCK], 1, buf);
		if (err)
			die_fs(err, "indirect: rewrite the double-indirect block");
	}
}

/* FILE flagged as keeping its data inline (EXT4_INLINE_DATA_FL) while it
 * keeps it in blocks, as a raw write of i_flags leaves it. */
static void inline_flag(ext2_filsys fs, const char *path)
{
	ext2_ino_t ino = path_ino(fs, path);
	struct ext2_inode inode;
	errcode_t err = ext2fs_read_inode(fs, ino, &inode);

	if (err)
		die_fs(err, path);
	if (inode.i_flags & EXT4_EXTENTS_FL)
		die("inline-flag %s: it maps its blocks with extents, and a kernel refuses that beside the flag "
		    "whatever else it checks (make it indirect first: indirect %s)", path, path);
	inode.i_flags |= EXT4_INLINE_DATA_FL;
	err = ext2fs_write_inode(fs, ino, &inode);
	if (err)
		die_fs(err, "inline-flag: write the inode");
}

/* uninit-tail: the inode DIR was moved to (uninit_tail_move()). */
static ext2_ino_t tail_ino;

/* A directory's blocks written again: "." names DIR's new number, and
 * each block's checksum is made for it. */
static int renumber(ext2_ino_t dir, int entry, struct ext2_dir_entry *d, int offset, int blocksize, char *buf,
		    void *priv)
{
	(void)dir, (void)blocksize, (void)buf;
	if (entry == DIRENT_DOT_FILE)
		d->inode = *(ext2_ino_t *)priv;
	return offset == 0 ? DIRENT_CHANGED : 0;
}

/* Directory DIR (no subdirectories) moved to the last inode there is, the
 * last of the last group: its parent's entry and its "." name that number,
 * its blocks' checksums are made for it, its old inode is zeroed.
 * uninit_tail_mark() then puts that inode in its group's uninitialised
 * tail (bg_itable_unused). */
static void uninit_tail_move(ext2_filsys fs, const char *path)
{
	unsigned int size = EXT2_INODE_SIZE(fs->super);
	struct ext2_inode *inode = calloc(1, size), *zero = calloc(1, size);
	ext2_ino_t ino = path_ino(fs, path), parent = EXT2_ROOT_INO, last = fs->super->s_inodes_count;
	char dirpath[64];
	const char *name = path, *slash = strrchr(path, '/');
	errcode_t err = ext2fs_read_bitmaps(fs);

	if (!inode || !zero)
		die("out of memory");
	if (slash) {
		snprintf(dirpath, sizeof(dirpath), "%.*s", (int)(slash - path), path);
		parent = path_ino(fs, dirpath);
		name = slash + 1;
	}
	if (!err)
		err = ext2fs_read_inode_full(fs, ino, inode, size);
	if (err)
		die_fs(err, path);
	if (!LINUX_S_ISDIR(inode->i_mode) || inode->i_links_count > 2)
		die("uninit-tail %s: not a directory without subdirectories", path);
	if (ext2fs_test_inode_bitmap2(fs->inode_map, last))
		die("uninit-tail %s: inode %u, the last there is, is in use", path, last);
	err = ext2fs_write_inode_full(fs, last, inode, size);
	if (!err)
		err = ext2fs_write_inode_full(fs, ino, zero, size);
	if (!err)
		err = ext2fs_unlink(fs, parent, name, ino, 0);
	if (!err)
		err = ext2fs_link(fs, parent, name, last, EXT2_FT_DIR);
	if (err)
		die_fs(err, "uninit-tail: move the directory's inode");
	ext2fs_inode_alloc_stats2(fs, last, +1, 1);
	ext2fs_inode_alloc_stats2(fs, ino, -1, 1);
	/* Its blocks carry checksums made for the old number: read them
	 * without checking, write them for the new one. */
	fs->flags |= EXT2_FLAG_IGNORE_CSUM_ERRORS;
	err = ext2fs_dir_iterate2(fs, last, DIRENT_FLAG_INCLUDE_EMPTY, NULL, renumber, &last);
	fs->flags &= ~EXT2_FLAG_IGNORE_CSUM_ERRORS;
	if (err)
		die_fs(err, "uninit-tail: write the directory's blocks again");
	tail_ino = last;
	free(inode);
	free(zero);
}

/* The group of the inode uninit_tail_move() used: its uninitialised tail
 * (bg_itable_unused) raised to cover it, descriptor checksum made again.
 * Last, after share-bitmaps, which zeroes every group's tail. */
static void uninit_tail_mark(ext2_filsys fs)
{
	dgrp_t g = ext2fs_group_of_ino(fs, tail_ino);
	ext2_ino_t per = EXT2_INODES_PER_GROUP(fs->super);
	ext2_ino_t from_end = (g + 1) * per - tail_ino + 1;

	if (ext2fs_bg_itable_unused(fs, g) < from_end)
		ext2fs_bg_itable_unused_set(fs, g, from_end);
	ext2fs_group_desc_csum_set(fs, g);
}

/* IMAGE.meta, from the image as written: "sha256  path" of what each
 * file the recipe pointed at metadata reads when nothing stops it. */
/* ---- a pending transaction in the journal ---- */

#define JBD2_MAGIC 0xc03b3998U
#define JBD2_COMMIT_BLOCK 2

static unsigned int be32_at(const unsigned char *p)
{
	return (unsigned int)p[0] << 24 | (unsigned int)p[1] << 16 | (unsigned int)p[2] << 8 | p[3];
}

static void put_be(unsigned char *p, unsigned long long v, int bytes)
{
	while (bytes--) {
		p[bytes] = v & 0xff;
		v >>= 8;
	}
}

/* The journal's block LBLK, as a block of the image. */
static blk64_t journal_block(ext2_filsys fs, blk64_t lblk)
{
	blk64_t b = 0;
	errcode_t err = ext2fs_bmap2(fs, fs->super->s_journal_inum, NULL, NULL, 0, lblk, NULL, &b);

	if (err || !b)
		die_fs(err ? err : EXT2_ET_BAD_BLOCK_NUM, "map a journal block");
	return b;
}

/*
 * The recipe's journal-pending blocks, logged by debugfs (journal_open,
 * journal_write of them all, journal_close) into one committed transaction
 * of the finished image.  debugfs stamps the commit block with the time of
 * day, which E2FSPROGS_FAKE_TIME does not cover: that stamp is set to
 * FAKE_TIME after, so the image stays a function of its recipe.  Stops
 * unless the image then needs recovery and the journal holds the commit.
 */
static void journal_pending(const char *img, const struct recipe *r)
{
	char data[4200], cmds[4200], log[4200], list[MAX_OPS * 24] = "";
	unsigned char *buf;
	ext2_filsys fs;
	errcode_t err;
	FILE *f;
	pid_t pid;
	int i, st, fd, found = 0;
	blk64_t first, start, maxlen, lb;
	unsigned int seq;

	err = ext2fs_open2(img, NULL, EXT2_FLAG_64BITS, 0, 0, unix_io_manager, &fs);
	if (err)
		die_fs(err, "open the image to log blocks");
	if (!fs->super->s_journal_inum || !ext2fs_has_feature_journal(fs->super))
		die("journal-pending: the image has no journal in an inode");
	buf = malloc(fs->blocksize);
	if (!buf)
		die("out of memory");
	snprintf(data, sizeof(data), "%s/journal-data", tmptree);
	snprintf(cmds, sizeof(cmds), "%s/journal-cmds", tmptree);
	snprintf(log, sizeof(log), "%s/journal-log", tmptree);
	if (!(f = fopen(data, "w")))
		die("create %s:", data);
	for (i = 0; i < r->npending; i++) {
		const struct pending *jp = &r->pending[i];
		blk64_t b = place(fs, &jp->where);

		err = io_channel_read_blk64(fs->io, b, 1, buf);
		if (err)
			die_fs(err, "read a block to log");
		if (jp->fill >= 0)
			memset(buf, jp->fill, fs->blocksize);
		if (jp->shared_blocks >= 0) {
			struct ext2_super_block *sb = (void *)(buf + SUPERBLOCK_OFFSET % fs->blocksize);

			if (jp->shared_blocks)
				ext2fs_set_feature_shared_blocks(sb);
			else
				ext2fs_clear_feature_shared_blocks(sb);
			ext2fs_superblock_csum_set(fs, sb);
		}
		if (fwrite(buf, fs->blocksize, 1, f) != 1)
			die("write %s:", data);
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%llu", i ? "," : "",
			 (unsigned long long)b);
	}
	if (fclose(f))
		die("write %s:", data);
	ext2fs_close_free(&fs);
	if (!(f = fopen(cmds, "w")) || fprintf(f, "journal_open\njournal_write -b %s %s\njournal_close\n", list, data) < 0 ||
	    fclose(f))
		die("write %s:", cmds);
	pid = fork();
	if (pid < 0)
		die("fork:");
	if (pid == 0) {
		int out = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (out < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
			_exit(127);
		execlp("debugfs", "debugfs", "-w", "-f", cmds, img, (char *)NULL);
		fprintf(stderr, "exec debugfs: %s\n", strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0)
		die("wait for debugfs:");
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		die("debugfs failed (status %d) logging blocks %s (log: %s)", WIFEXITED(st) ? WEXITSTATUS(st) : -1, list, log);

	/* debugfs says little by its status: check what it left. */
	err = ext2fs_open2(img, NULL, EXT2_FLAG_64BITS, 0, 0, unix_io_manager, &fs);
	if (err)
		die_fs(err, "open the image after debugfs");
	if (!ext2fs_has_feature_journal_needs_recovery(fs->super))
		die("debugfs logged no transaction of blocks %s (see what it said: %s)", list, log);
	err = io_channel_read_blk64(fs->io, journal_block(fs, 0), 1, buf);
	if (err)
		die_fs(err, "read the journal superblock");
	maxlen = be32_at(buf + 16), first = be32_at(buf + 20), seq = be32_at(buf + 24), start = be32_at(buf + 28);
	if (!start || start < first || start >= maxlen)
		die("the journal superblock says the log starts at %llu: debugfs wrote no transaction",
		    (unsigned long long)start);
	fd = open(img, O_RDWR);
	if (fd < 0)
		die("open %s:", img);
	for (lb = start; lb < maxlen && !found; lb++) {
		blk64_t b = journal_block(fs, lb);

		if (pread(fd, buf, fs->blocksize, (off_t)(b * fs->blocksize)) != (ssize_t)fs->blocksize)
			die("read block %llu of %s:", (unsigned long long)b, img);
		if (be32_at(buf) != JBD2_MAGIC || be32_at(buf + 4) != JBD2_COMMIT_BLOCK || be32_at(buf + 8) != seq)
			continue;
		put_be(buf + 48, FAKE_TIME, 8);		/* h_commit_sec */
		put_be(buf + 56, 0, 4);			/* h_commit_nsec */
		if (pwrite(fd, buf, fs->blocksize, (off_t)(b * fs->blocksize)) != (ssize_t)fs->blocksize)
			die("write block %llu of %s:", (unsigned long long)b, img);
		found = 1;
	}
	if (close(fd))
		die("close %s:", img);
	if (!found)
		die("no commit block of transaction %u in the journal: debugfs left it uncommitted", seq);
	ext2fs_close_free(&fs);
	free(buf);
}

/* journal-stale and journal-errno, on the finished image: needs_recovery
 * cleared through libext2fs (its fixed time stamps the superblock), the
 * journal superblock's s_errno written in place (the kit's journals carry
 * no checksum: debugfs opens them without one). */
/* The resize inode shaped unlike what mke2fs makes: with extra_slot its
 * first direct slot names the double-indirect block as well; with
 * extents_flag it carries EXTENTS_FL over the same slots. */
static void resize_reshape(ext2_filsys fs, int extra_slot, int extents_flag)
{
	struct ext2_inode inode;
	errcode_t err;
	blk64_t dind = resize_inode(fs, &inode);

	if (extra_slot)
		inode.i_block[0] = dind;
	if (extents_flag)
		inode.i_flags |= EXT4_EXTENTS_FL;
	err = ext2fs_write_inode(fs, EXT2_RESIZE_INO, &inode);
	if (err)
		die_fs(err, "write the resize inode");
}

/* mke2fs writes into the MMP block the time, this machine's name and the
 * image's temporary name: pin them (FAKE_TIME, nothing, nothing) so the
 * same recipe makes the same bytes, the sequence left clean.  Then, for
 * mmp-block N, the superblock names block N instead (last: the block it
 * names need not exist). */
static void pin_mmp(const char *img, const struct recipe *r)
{
	struct mmp_struct *mmp;
	ext2_filsys fs;
	errcode_t err;
	blk64_t b;

	err = ext2fs_open2(img, NULL, EXT2_FLAG_RW | EXT2_FLAG_64BITS | EXT2_FLAG_SKIP_MMP, 0, 0, unix_io_manager, &fs);
	if (err)
		die_fs(err, "open the image for its MMP block");
	b = fs->super->s_mmp_block;
	if (!ext2fs_has_feature_mmp(fs->super) || !b) {
		ext2fs_free(fs);
		return;
	}
	mmp = calloc(1, fs->blocksize);
	if (!mmp)
		die("out of memory");
	err = io_channel_read_blk64(fs->io, b, -(int)sizeof(*mmp), mmp);
	if (err)
		die_fs(err, "read the MMP block");
	if (mmp->mmp_magic != EXT4_MMP_MAGIC)
		die("the MMP block (%llu) has no MMP magic", (unsigned long long)b);
	mmp->mmp_seq = EXT4_MMP_SEQ_CLEAN;
	mmp->mmp_time = FAKE_TIME;
	memset(mmp->mmp_nodename, 0, sizeof(mmp->mmp_nodename));
	memset(mmp->mmp_bdevname, 0, sizeof(mmp->mmp_bdevname));
	err = ext2fs_mmp_csum_set(fs, mmp);
	if (!err)
		err = io_channel_write_blk64(fs->io, b, -(int)sizeof(*mmp), mmp);
	if (err)
		die_fs(err, "write the MMP block");
	free(mmp);
	if (!r->mmp_block_set) {
		ext2fs_free(fs);
		return;
	}
	fs->super->s_mmp_block = r->mmp_block;
	ext2fs_mark_super_dirty(fs);
	err = ext2fs_close_free(&fs);
	if (err)
		die_fs(err, "write the superblock with its MMP block moved");
}

static void journal_state(const char *img, const struct recipe *r)
{
	ext2_filsys fs;
	errcode_t err;

	err = ext2fs_open2(img, NULL, EXT2_FLAG_RW | EXT2_FLAG_64BITS | EXT2_FLAG_SKIP_MMP, 0, 0, unix_io_manager, &fs);
	if (err)
		die_fs(err, "open the image for its journal state");
	if (!fs->super->s_journal_inum)
		die("journal-errno: the image has no journal in an inode");
	if (r->journal_errno) {
		unsigned char *buf = malloc(fs->blocksize);
		blk64_t b = journal_block(fs, 0);

		if (!buf)
			die("out of memory");
		err = io_channel_read_blk64(fs->io, b, 1, buf);
		if (err)
			die_fs(err, "read the journal superblock");
		if (be32_at(buf) != JBD2_MAGIC)
			die("the journal superblock has no jbd2 magic");
		if (be32_at(buf + 40) & 0x18)	/* s_feature_incompat: CSUM_V2, CSUM_V3 */
			die("journal-errno: the journal has checksums, which s_errno would break");
		put_be(buf + 32, (unsigned int)-r->journal_errno, 4);
		err = io_channel_write_blk64(fs->io, b, 1, buf);
		if (err)
			die_fs(err, "write the journal superblock");
		free(buf);
	}
	if (r->journal_stale) {
		ext2fs_clear_feature_journal_needs_recovery(fs->super);
		ext2fs_mark_super_dirty(fs);
	}
	err = ext2fs_close_free(&fs);
	if (err)
		die_fs(err, "write the image's journal state");
}

static void write_meta(const char *image, const char *meta, const struct recipe *r)
{
	FILE *f = fopen(meta, "w");
	int i;

	if (!f)
		die("create %s:", meta);
	if (meta_size) {
		unsigned char buf[4096];
		int fd = open(image, O_RDONLY);

		if (fd < 0 || meta_size > sizeof(buf) ||
		    pread(fd, buf, meta_size, (off_t)(meta_blk * meta_bsize)) != (ssize_t)meta_size)
			die("read block %llu of %s:", (unsigned long long)meta_blk, image);
		close(fd);
		hash_line(f, r->point_file, buf, meta_size);
	}
	for (i = 0; i < nlinked; i++)
		fprintf(f, "%s  %s\n", linked[i].hex, linked[i].name);
	if (fclose(f))
		die("write %s:", meta);
}

int main(int argc, char **argv)
{
	struct recipe r;
	ext2_filsys fs;
	errcode_t err;
	FILE *man;
	char t[32], *dir;
	int flags = EXT2_FLAG_RW | EXT2_FLAG_64BITS | EXT2_FLAG_SKIP_MMP;
	const char *img;

	if (argc == 4 && !strcmp(argv[1], "--twin")) {
		twin = 1;
		argc--;
		argv++;
	}
	if (argc != 3)
		usage();
	img = argv[2];
	read_recipe(argv[1], &r);

	snprintf(tmpimg, sizeof(tmpimg), "%s.tmp.%d", img, (int)getpid());
	snprintf(tmpman, sizeof(tmpman), "%s.manifest.tmp.%d", img, (int)getpid());
	snprintf(tmpmeta, sizeof(tmpmeta), "%s.meta.tmp.%d", img, (int)getpid());
	snprintf(tmptree, sizeof(tmptree), "%s/kit-tree.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!(dir = mkdtemp(tmptree))) {
		tmptree[0] = '\0';
		die("mkdtemp:");
	}
	man = fopen(tmpman, "w");
	if (!man)
		die("create %s:", tmpman);
	make_tree(tmptree, man, r.scale_files, r.size_file, r.size_bytes);
	if (r.bigalloc && r.meta_bg)
		die("%s: bigalloc and meta_bg: one layout at a time", argv[1]);
	run_mke2fs(tmpimg, tmptree, r.bigalloc, r.meta_bg, r.block_size4k ? "4096" : "1024", r.mke2fs_features,
		   r.scale_mib, r.scale_files);

	snprintf(t, sizeof(t), "%ld", FAKE_TIME);
	setenv("E2FSPROGS_FAKE_TIME", t, 1);
	if (r.dedup_copies)
		flags |= EXT2_FLAG_SHARE_DUP;
	err = ext2fs_open2(tmpimg, NULL, flags, 0, 0, unix_io_manager, &fs);
	if (err)
		die_fs(err, "open the new image");
	fs->now = FAKE_TIME;
	/* Write the backup descriptors too, so they match the primary, unless
	 * the shared bitmap block lives in a backup area the flush would
	 * overwrite. */
	if (!r.share_at || (r.share_where.where != W_BACKUP_GDT && r.share_where.where != W_BACKUP_SB))
		fs->flags &= ~EXT2_FLAG_MASTER_SB_ONLY;

	/* First, while every inode table is where mke2fs put it. */
	pin_times(fs);
	if (r.dedup_copies)
		add_dedup(fs, &r, man);
	if (r.journal_file[0])
		journal_file(fs, &r, man);
	if (r.quota_link)
		quota_file_link(fs, &r, man);
	if (r.split_file[0])
		split_file(fs, r.split_file);
	if (r.xattr_file[0])
		add_xattr(fs, r.xattr_file, r.xattr_size);
	if (r.acl_file[0])
		set_acl(fs, &r);
	{
		int i;

		for (i = 0; i < r.nindirect; i++)
			make_indirect(fs, &r.indirect[i]);
	}
	if (r.inline_file[0])
		inline_flag(fs, r.inline_file);
	if (r.uninit_tail[0])
		uninit_tail_move(fs, r.uninit_tail);
	if (r.share_fill != 0xff && !r.share_bitmaps)
		die("%s: share-fill without share-bitmaps", argv[1]);
	if (r.share_keep_uninit && !r.share_bitmaps)
		die("%s: share-keep-uninit without share-bitmaps", argv[1]);
	if (r.share_bitmaps)
		share_bitmaps(fs, &r);
	if (tail_ino)
		uninit_tail_mark(fs);
	if (r.journal_at)
		journal_at(fs, &r);
	if (r.point)
		point_file(fs, &r);
	apply_moves(fs, &r);
	if (r.mount_opts[0]) {
		memset(fs->super->s_mount_opts, 0, sizeof(fs->super->s_mount_opts));
		memcpy(fs->super->s_mount_opts, r.mount_opts, strlen(r.mount_opts));
	}
	if (r.errors)
		fs->super->s_errors = r.errors;
	if (r.mmp_block_set && !ext2fs_has_feature_mmp(fs->super))
		die("%s: mmp-block without mke2fs-feature mmp", argv[1]);
	if (r.resize_extra_slot || r.resize_extents_flag)
		resize_reshape(fs, r.resize_extra_slot, r.resize_extents_flag);
	if (r.shared_blocks == 1)
		ext2fs_set_feature_shared_blocks(fs->super);
	else if (r.shared_blocks == 0)
		ext2fs_clear_feature_shared_blocks(fs->super);
	if (r.share_bitmaps || r.nmoves) {
		dgrp_t g;

		for (g = 0; g < fs->group_desc_count; g++)
			ext2fs_group_desc_csum_set(fs, g);
	}
	ext2fs_mark_super_dirty(fs);
	err = ext2fs_close_free(&fs);
	if (err)
		die_fs(err, "write the image");

	if (fclose(man))
		die("write %s:", tmpman);
	if (r.journal_stale && !r.npending)
		die("%s: journal-stale without journal-pending", argv[1]);
	if (r.npending)
		journal_pending(tmpimg, &r);
	if (r.journal_stale || r.journal_errno)
		journal_state(tmpimg, &r);
	pin_mmp(tmpimg, &r);
	write_meta(tmpimg, tmpmeta, &r);
	if (r.mutate) {
		char what[1024];

		snprintf(tmpzone, sizeof(tmpzone), "%s.zone.tmp.%d", img, (int)getpid());
		if (mutate_file(tmpimg, r.mutate_seed, tmpzone, what, sizeof(what)))
			die("%s: mutate %016llx: %s", argv[1], r.mutate_seed, what);
	}
	{
		char final[4200];

		snprintf(final, sizeof(final), "%s.manifest", img);
		if (rename(tmpman, final))
			die("rename %s:", tmpman);
		tmpman[0] = '\0';
		snprintf(final, sizeof(final), "%s.meta", img);
		if (rename(tmpmeta, final))
			die("rename %s:", tmpmeta);
		tmpmeta[0] = '\0';
		if (tmpzone[0]) {
			snprintf(final, sizeof(final), "%s.zone", img);
			if (rename(tmpzone, final))
				die("rename %s:", tmpzone);
			tmpzone[0] = '\0';
		}
		if (rename(tmpimg, img))
			die("rename %s:", tmpimg);
		tmpimg[0] = '\0';
	}
	cleanup();
	return 0;
}
