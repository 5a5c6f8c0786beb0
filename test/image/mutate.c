// SPDX-License-Identifier: GPL-2.0
/*
 * mutate: one seeded mutation of an ext4 image in the places the fix and
 * its hardened flavour touch, with every checksum made valid again, so a
 * kernel gets past the checksums to the checks that matter.
 *
 * A mutation is one to three of: a group's block bitmap, inode bitmap or
 * inode table moved to a chosen block (its content copied there, so its
 * checksum holds), the flex_bg size, first_meta_bg (and meta_bg), the
 * reserved GDT blocks, a feature flag turned over (shared_blocks,
 * resize_inode, flex_bg, sparse_super, has_journal, meta_bg), or a file's
 * first extent pointed at a chosen block.  Chosen blocks are the places
 * that matter: superblocks and their backups, descriptors, reserved GDT
 * blocks, bitmaps, inode tables, the journal, file data, the end of the
 * filesystem and past it.
 *
 * It also writes what the kernel must never hand out through a file: the
 * sha256 of every block of the mutated layout's system zone (superblocks,
 * descriptors, reserved GDT blocks, bitmaps, inode tables, the journal),
 * except blocks of zeros and any content some file block outside the zone
 * holds, before the mutation or after it (content cannot tell those apart).
 *
 * The same seed on the same image gives byte-identical output: the only
 * randomness is a splitmix64 of the seed, and libext2fs writes with a
 * fixed time (E2FSPROGS_FAKE_TIME, fs->now).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ext2fs/ext2fs.h>
#include "mutate.h"
#include "sha256.h"


struct blocks {
	blk64_t *b;
	size_t n, cap;
	int short_of_memory;	/* a block could not be added: the list lacks it */
};

/* Append B.  A list that cannot grow keeps its blocks, its count and its
 * capacity as they were, and says so: a zone that lacks a block is never
 * written (mutate_file fails instead). */
static void add(struct blocks *l, blk64_t b)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 256;
		blk64_t *m = cap <= SIZE_MAX / sizeof(*l->b) ? realloc(l->b, cap * sizeof(*l->b)) : NULL;

		if (!m) {
			l->short_of_memory = 1;
			return;
		}
		l->b = m;
		l->cap = cap;
	}
	l->b[l->n++] = b;
}

struct state {
	unsigned long long rng;
	ext2_filsys fs;
	struct blocks data;	/* every regular file's data blocks */
	struct blocks journal;	/* the journal's blocks */
	ext2_ino_t files[64];	/* regular files with extents */
	int nfiles;
	char *what;
	size_t what_len;
};

static unsigned long long rnd(struct state *s)
{
	unsigned long long z = (s->rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned int pick(struct state *s, unsigned int n)
{
	return n ? (unsigned int)(rnd(s) % n) : 0;
}

static void say(struct state *s, const char *fmt, ...)
{
	va_list ap;
	size_t used = strlen(s->what);

	va_start(ap, fmt);
	vsnprintf(s->what + used, s->what_len - used, fmt, ap);
	va_end(ap);
}

static int collect(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t bc, blk64_t ref, int off, void *priv)
{
	(void)fs;
	(void)ref;
	(void)off;
	if (bc >= 0)
		add(priv, *blocknr);
	return 0;
}

/* The files, their data blocks and the journal's, before any change. */
static errcode_t survey(struct state *s)
{
	ext2_inode_scan scan;
	struct ext2_inode inode;
	ext2_ino_t ino;
	errcode_t err = ext2fs_open_inode_scan(s->fs, 0, &scan);

	while (!err && !(err = ext2fs_get_next_inode(scan, &ino, &inode)) && ino) {
		if (!inode.i_links_count || !LINUX_S_ISREG(inode.i_mode) ||
		    !ext2fs_inode_has_valid_blocks2(s->fs, &inode))
			continue;
		if (ino < EXT2_FIRST_INO(s->fs->super))	/* the journal, the resize inode */
			continue;
		ext2fs_block_iterate3(s->fs, ino, BLOCK_FLAG_READ_ONLY | BLOCK_FLAG_DATA_ONLY, NULL, collect, &s->data);
		if ((inode.i_flags & EXT4_EXTENTS_FL) && s->nfiles < 64)
			s->files[s->nfiles++] = ino;
	}
	if (scan)
		ext2fs_close_inode_scan(scan);
	if (ext2fs_has_feature_journal(s->fs->super) && s->fs->super->s_journal_inum)
		ext2fs_block_iterate3(s->fs, s->fs->super->s_journal_inum, BLOCK_FLAG_READ_ONLY | BLOCK_FLAG_DATA_ONLY,
				      NULL, collect, &s->journal);
	return err;
}

static dgrp_t any_group(struct state *s)
{
	return pick(s, s->fs->group_desc_count);
}

/* A block where a mutation is interesting, and its name for the log. */
static blk64_t place(struct state *s, char *name, size_t n)
{
	ext2_filsys fs = s->fs;
	blk64_t end = ext2fs_blocks_count(fs->super), sb, old_desc, new_desc, b;
	blk_t used;
	dgrp_t g = any_group(s);

	switch (pick(s, 11)) {
	case 0:
		/* a group with a superblock: group 0 or a backup */
		while (g && !ext2fs_bg_has_super(fs, g))
			g--;
		ext2fs_super_and_bgd_loc2(fs, g, &sb, &old_desc, &new_desc, &used);
		b = sb + pick(s, 3);
		snprintf(name, n, "superblock %u+%llu", g, (unsigned long long)(b - sb));
		return b;
	case 1:
		while (g && !ext2fs_bg_has_super(fs, g))
			g--;
		ext2fs_super_and_bgd_loc2(fs, g, &sb, &old_desc, &new_desc, &used);
		b = (old_desc ? old_desc : new_desc ? new_desc : sb + 1) +
			pick(s, fs->desc_blocks + fs->super->s_reserved_gdt_blocks + 1);
		snprintf(name, n, "gdt %u (block %llu)", g, (unsigned long long)b);
		return b;
	case 2:
		b = ext2fs_block_bitmap_loc(fs, g);
		snprintf(name, n, "block bitmap %u", g);
		return b;
	case 3:
		b = ext2fs_inode_bitmap_loc(fs, g);
		snprintf(name, n, "inode bitmap %u", g);
		return b;
	case 4:
		b = ext2fs_inode_table_loc(fs, g) + pick(s, fs->inode_blocks_per_group);
		snprintf(name, n, "inode table %u (block %llu)", g, (unsigned long long)b);
		return b;
	case 5:
		if (s->journal.n) {
			b = s->journal.b[pick(s, (unsigned int)s->journal.n)];
			snprintf(name, n, "journal (block %llu)", (unsigned long long)b);
			return b;
		}
		/* fall through */
	case 6:
		if (s->data.n) {
			b = s->data.b[pick(s, (unsigned int)s->data.n)];
			snprintf(name, n, "file data (block %llu)", (unsigned long long)b);
			return b;
		}
		/* fall through */
	case 7:
		b = end - 1 - pick(s, 8);
		snprintf(name, n, "end-%llu", (unsigned long long)(end - b));
		return b;
	case 8:
		b = end + pick(s, 8);
		snprintf(name, n, "past-end+%llu", (unsigned long long)(b - end));
		return b;
	case 9:
		snprintf(name, n, "block 0");
		return 0;
	default:
		b = pick(s, (unsigned int)end);
		snprintf(name, n, "block %llu", (unsigned long long)b);
		return b;
	}
}

/* Copy COUNT blocks from FROM to TO where they fit, so checksums hold. */
static void copy_blocks(ext2_filsys fs, blk64_t from, blk64_t to, unsigned int count)
{
	char *buf = malloc(fs->blocksize);
	blk64_t end = ext2fs_blocks_count(fs->super);
	unsigned int i;

	if (!buf)
		return;
	for (i = 0; i < count; i++)
		if (from + i < end && to + i < end && to + i > 0 &&
		    !io_channel_read_blk64(fs->io, from + i, 1, buf))
			io_channel_write_blk64(fs->io, to + i, 1, buf);
	free(buf);
}

static void one(struct state *s)
{
	ext2_filsys fs = s->fs;
	struct ext2_super_block *sb = fs->super;
	char name[96];
	dgrp_t g = any_group(s);
	unsigned int m = pick(s, 9);
	blk64_t b;

	switch (m) {
	case 0:
	case 1:
	case 2: {
		/* block bitmap, inode bitmap, inode table: moved, content too */
		static const char *const what[] = { "block-bitmap", "inode-bitmap", "inode-table" };
		unsigned int k = m;
		blk64_t from = k == 0 ? ext2fs_block_bitmap_loc(fs, g) :
			       k == 1 ? ext2fs_inode_bitmap_loc(fs, g) : ext2fs_inode_table_loc(fs, g);

		b = place(s, name, sizeof(name));
		copy_blocks(fs, from, b, k == 2 ? fs->inode_blocks_per_group : 1);
		if (k == 0)
			ext2fs_block_bitmap_loc_set(fs, g, b);
		else if (k == 1)
			ext2fs_inode_bitmap_loc_set(fs, g, b);
		else
			ext2fs_inode_table_loc_set(fs, g, b);
		say(s, "; %s %u at %s", what[k], g, name);
		break;
	}
	case 3:
		sb->s_log_groups_per_flex = (unsigned char)pick(s, 12);
		say(s, "; flex_bg size 2^%u", sb->s_log_groups_per_flex);
		break;
	case 4:
		sb->s_first_meta_bg = pick(s, fs->desc_blocks + 3);
		if (pick(s, 2))
			ext2fs_set_feature_meta_bg(sb);
		say(s, "; first_meta_bg %u%s", sb->s_first_meta_bg,
		    ext2fs_has_feature_meta_bg(sb) ? " with meta_bg" : "");
		break;
	case 5:
		sb->s_reserved_gdt_blocks = (__u16)pick(s, 300);
		say(s, "; reserved GDT blocks %u", sb->s_reserved_gdt_blocks);
		break;
	case 6: {
		static const struct { const char *name; int word; __u32 bit; } flags[] = {
			{ "shared_blocks", 2, EXT4_FEATURE_RO_COMPAT_SHARED_BLOCKS },
			{ "resize_inode", 0, EXT2_FEATURE_COMPAT_RESIZE_INODE },
			{ "flex_bg", 1, EXT4_FEATURE_INCOMPAT_FLEX_BG },
			{ "sparse_super", 2, EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER },
			{ "has_journal", 0, EXT3_FEATURE_COMPAT_HAS_JOURNAL },
			{ "meta_bg", 1, EXT2_FEATURE_INCOMPAT_META_BG },
		};
		unsigned int f = pick(s, sizeof(flags) / sizeof(flags[0]));
		__u32 *w = flags[f].word == 0 ? &sb->s_feature_compat :
			   flags[f].word == 1 ? &sb->s_feature_incompat : &sb->s_feature_ro_compat;

		*w ^= flags[f].bit;
		say(s, "; feature %s %s", flags[f].name, *w & flags[f].bit ? "on" : "off");
		break;
	}
	default: {
		ext2_extent_handle_t h;
		struct ext2fs_extent ext;
		ext2_ino_t ino;

		if (!s->nfiles)
			break;
		ino = s->files[pick(s, (unsigned int)s->nfiles)];
		b = place(s, name, sizeof(name));
		if (ext2fs_extent_open(fs, ino, &h))
			break;
		if (!ext2fs_extent_get(h, EXT2_EXTENT_ROOT, &ext) && (ext.e_flags & EXT2_EXTENT_FLAGS_LEAF)) {
			ext.e_pblk = b;
			if (!ext2fs_extent_replace(h, 0, &ext) && !ext2fs_extent_fix_parents(h))
				say(s, "; inode %u's first extent at %s", ino, name);
		}
		ext2fs_extent_free(h);
		break;
	}
	}
}

/* The mutated layout's system zone, as the kernel should see it. */
static void zone(ext2_filsys fs, const struct blocks *journal, struct blocks *z)
{
	dgrp_t g;
	size_t i;

	for (g = 0; g < fs->group_desc_count; g++) {
		blk64_t sb, old_desc, new_desc;
		blk_t used, j;

		ext2fs_super_and_bgd_loc2(fs, g, &sb, &old_desc, &new_desc, &used);
		if (ext2fs_bg_has_super(fs, g))
			add(z, sb);
		if (old_desc)
			for (j = 0; j < fs->desc_blocks + fs->super->s_reserved_gdt_blocks; j++)
				add(z, old_desc + j);
		if (new_desc)
			add(z, new_desc);
		add(z, ext2fs_block_bitmap_loc(fs, g));
		add(z, ext2fs_inode_bitmap_loc(fs, g));
		for (j = 0; j < fs->inode_blocks_per_group; j++)
			add(z, ext2fs_inode_table_loc(fs, g) + j);
	}
	for (i = 0; i < journal->n; i++)
		add(z, journal->b[i]);
}

static int by_hex(const void *a, const void *b)
{
	return memcmp(a, b, 64);
}

static int by_block(const void *a, const void *b)
{
	blk64_t x = *(const blk64_t *)a, y = *(const blk64_t *)b;

	return x < y ? -1 : x > y;
}

/* sha256 of each block of LIST in the image file, as hex, sorted. */
static char (*hashes(int fd, unsigned int bsize, blk64_t end, const struct blocks *l, size_t *n))[65]
{
	char (*h)[65] = calloc(l->n + 1, sizeof(*h));
	unsigned char *buf = malloc(bsize), sum[32];
	size_t i;

	*n = 0;
	if (!h || !buf) {
		free(h);
		free(buf);
		return NULL;
	}
	for (i = 0; i < l->n; i++) {
		struct sha256 c;
		unsigned int k;

		if (l->b[i] >= end || pread(fd, buf, bsize, (off_t)(l->b[i] * bsize)) != (ssize_t)bsize)
			continue;
		for (k = 0; k < bsize && !buf[k]; k++)
			;
		if (k == bsize)
			continue;	/* zeros: any hole reads them */
		sha256_init(&c);
		sha256_update(&c, buf, bsize);
		sha256_final(&c, sum);
		sha256_hex(sum, h[*n]);
		(*n)++;
	}
	free(buf);
	qsort(h, *n, sizeof(*h), by_hex);
	return h;
}

int mutate_file(const char *path, unsigned long long seed, const char *zone_path, char *what, size_t what_len)
{
	struct state s;
	struct blocks z = { 0 }, outside = { 0 };
	char t[32], (*data)[65] = NULL, (*meta)[65] = NULL, (*after)[65] = NULL;
	size_t nd = 0, nm = 0, na = 0, i;
	unsigned int bsize, k, count;
	blk64_t end;
	errcode_t err;
	FILE *out;
	int fd, rc = -1;

	memset(&s, 0, sizeof(s));
	s.rng = seed;
	s.what = what;
	s.what_len = what_len;
	what[0] = '\0';
	snprintf(t, sizeof(t), "%ld", FAKE_TIME);
	setenv("E2FSPROGS_FAKE_TIME", t, 1);
	err = ext2fs_open2(path, NULL, EXT2_FLAG_RW | EXT2_FLAG_64BITS, 0, 0, unix_io_manager, &s.fs);
	if (err) {
		snprintf(what, what_len, "open: %s", error_message(err));
		return -1;
	}
	s.fs->now = FAKE_TIME;
	s.fs->flags &= ~EXT2_FLAG_MASTER_SB_ONLY;
	if (survey(&s))
		goto out;
	/* The files' own data, before anything is copied over it. */
	fd = open(path, O_RDONLY);
	if (fd < 0)
		goto out;
	data = hashes(fd, s.fs->blocksize, ext2fs_blocks_count(s.fs->super), &s.data, &nd);
	close(fd);
	count = 1 + pick(&s, 3);
	for (k = 0; k < count; k++)
		one(&s);
	if (what[0] == ';')
		memmove(what, what + 2, strlen(what + 2) + 1);
	for (k = 0; k < s.fs->group_desc_count; k++)
		ext2fs_group_desc_csum_set(s.fs, k);
	zone(s.fs, &s.journal, &z);
	bsize = s.fs->blocksize;
	end = ext2fs_blocks_count(s.fs->super);
	ext2fs_mark_super_dirty(s.fs);
	err = ext2fs_close_free(&s.fs);
	if (err) {
		snprintf(what + strlen(what), what_len - strlen(what), " (not written: %s)", error_message(err));
		goto out;
	}
	fd = open(path, O_RDONLY);
	if (fd < 0)
		goto out;
	meta = hashes(fd, bsize, end, &z, &nm);
	/* A file block outside the zone that now holds what a zone block
	 * holds (a bitmap copied over it, then moved on) is no leak when it
	 * reads it: content alone cannot tell them apart, so that content is
	 * left out too. */
	qsort(z.b, z.n, sizeof(*z.b), by_block);
	for (i = 0; i < s.data.n; i++)
		if (!bsearch(&s.data.b[i], z.b, z.n, sizeof(*z.b), by_block))
			add(&outside, s.data.b[i]);
	after = hashes(fd, bsize, end, &outside, &na);
	close(fd);
	if (!meta || !data || !after || s.data.short_of_memory || s.journal.short_of_memory ||
	    z.short_of_memory || outside.short_of_memory) {
		snprintf(what + strlen(what), what_len - strlen(what), " (no zone: out of memory)");
		goto out;
	}
	out = fopen(zone_path, "w");
	if (!out) {
		snprintf(what + strlen(what), what_len - strlen(what), " (no zone: %s: %s)", zone_path, strerror(errno));
		goto out;
	}
	for (i = 0; i < nm; i++)
		if ((!i || strcmp(meta[i], meta[i - 1])) && !bsearch(meta[i], data, nd, sizeof(*data), by_hex) &&
		    !bsearch(meta[i], after, na, sizeof(*after), by_hex))
			fprintf(out, "%s\n", meta[i]);
	rc = fclose(out) ? -1 : 0;
out:
	if (s.fs)
		ext2fs_free(s.fs);
	free(z.b);
	free(s.data.b);
	free(s.journal.b);
	free(outside.b);
	free(meta);
	free(data);
	free(after);
	return rc;
}
