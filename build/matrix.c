// SPDX-License-Identifier: GPL-2.0
/*
 * matrix: the one reader of matrix.yaml.  It reads the file with libyaml,
 * checks it against the kit's schema (stack folders and the patches their
 * series files push included), and answers every question the kit asks of
 * it: make variables (mk), the series (list), one field (get), the
 * variants a series is built as (variants), a stack's identity (hash), the
 * expected verdict of a cell (expect), and a pin moved in place
 * (set-version, which rewrites only the bytes of that one scalar).  It is
 * also the one reader of a stack's series files (series), alternatives
 * included, for the scripts that push, check, review or regenerate them,
 * and, with build/plan.c, the one planner of a run (plan).
 *
 * Every error reads "FILE:LINE:COL: what is wrong" and exits 2, so a bad
 * matrix stops the build before anything is downloaded.  A field that is
 * not there (get) exits 1 and prints nothing.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#include "matrix.h"
#include "sha256.h"

const char *prog = "matrix";
const char *file;
const char *root = ".";
const char *cases_dir;

static void usage(void)
{
	fprintf(stderr,
		"usage: %s [-C DIR] [-c CASES] COMMAND FILE [ARGS]\n"
		"  mk FILE                        the matrix as make variables\n"
		"  list FILE                      the series names, one a line\n"
		"  check FILE                     validate only\n"
		"  get FILE SERIES KEY            one field (KEY: verified, stack, fixes.A,\n"
		"                                 source.debian.version, ...); exit 1 if absent\n"
		"  variants FILE SERIES           vanilla, patched, then each flavour\n"
		"  trees FILE SERIES              the real trees its stacks were tried on:\n"
		"                                 RELEASE<TAB>APPLIED<TAB>BOOTED<TAB>FROM a line,\n"
		"                                 variants comma-separated, - for none\n"
		"  hash FILE SERIES VARIANT       the stack's identity for that variant\n"
		"  expect FILE SERIES CASE VARIANT  the expected verdict file of a cell\n"
		"  expects FILE SERIES VARIANT CASE...  the same for many cases of one\n"
		"                                 variant: CASE<TAB>FILE a line (of a twin,\n"
		"                                 CASE~twin: CASE/twin.VARIANT, there or not)\n"
		"  twins FILE CASE...             those of the CASEs that have a twin (their\n"
		"                                 recipe sets shared_blocks), one a line\n"
		"  set-version FILE SERIES VERSION  move a debian pin, in place\n"
		"  plan FILE --mk|--tsv [NAME=VALUE...]  what one run is (build/plan.c):\n"
		"                                 as make rules, or as the plan the report reads\n"
		"  series LIST                    a stack's series file: one entry a line,\n"
		"                                 its alternatives separated by a space\n"
		"  release TREE                   the release TREE/Makefile names (X.Y.Z);\n"
		"                                 exit 1 when it names none\n"
		"  -C DIR   resolve stack folders against DIR (default .)\n"
		"  -c DIR   image cases (default DIR/test/cases)\n",
		prog);
	exit(EXIT_BAD);
}

static void die_at(yaml_node_t *n, const char *fmt, ...)
{
	va_list ap;

	if (n)
		fprintf(stderr, "%s:%lu:%lu: ", file,
			(unsigned long)n->start_mark.line + 1,
			(unsigned long)n->start_mark.column + 1);
	else
		fprintf(stderr, "%s: ", file);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_BAD);
}

static yaml_document_t doc;

static yaml_node_t *node(int id)
{
	return yaml_document_get_node(&doc, id);
}

static const char *scalar(yaml_node_t *n, const char *what)
{
	if (n->type != YAML_SCALAR_NODE)
		die_at(n, "%s must be a plain value", what);
	if (n->data.scalar.length == 0)
		die_at(n, "%s is empty", what);
	return (const char *)n->data.scalar.value;
}

static void want_mapping(yaml_node_t *n, const char *what)
{
	if (n->type != YAML_MAPPING_NODE)
		die_at(n, "%s must be a mapping", what);
}

/* Look a key up in a mapping; unknown keys are refused by check_keys(). */
static yaml_node_t *get(yaml_node_t *map, const char *key)
{
	yaml_node_pair_t *p;

	for (p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = node(p->key);

		if (k->type == YAML_SCALAR_NODE && !strcmp((char *)k->data.scalar.value, key))
			return node(p->value);
	}
	return NULL;
}

static yaml_node_t *need(yaml_node_t *map, const char *key, const char *what)
{
	yaml_node_t *v = get(map, key);

	if (!v)
		die_at(map, "%s: missing field '%s'", what, key);
	return v;
}

static void check_keys(yaml_node_t *map, const char *what, const char *const *allowed)
{
	yaml_node_pair_t *p, *q;

	for (p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = node(p->key);
		const char *const *a;
		const char *name = scalar(k, "a key");

		for (a = allowed; *a && strcmp(*a, name); a++)
			;
		if (!*a)
			die_at(k, "%s: unknown key '%s'", what, name);
		for (q = map->data.mapping.pairs.start; q < p; q++)
			if (!strcmp((char *)node(q->key)->data.scalar.value, name))
				die_at(k, "%s: key '%s' given twice", what, name);
	}
}

static int is_series_name(const char *s)
{
	const char *p = s;
	int dots = 0;

	if (!*p)
		return 0;
	for (; *p; p++) {
		if (*p == '.')
			dots++;
		else if (*p < '0' || *p > '9')
			return 0;
	}
	return dots == 1 && s[0] != '.' && p[-1] != '.';
}

/* Values go into make (targets, recipes) and shell: refuse what would
 * need quoting there (':', '=' and '%' break make's rules). */
static const char *word(yaml_node_t *n, const char *what)
{
	const char *s = scalar(n, what);
	const char *p;

	for (p = s; *p; p++)
		if (*p <= ' ' || *p == 0x7f || strchr("$#'\"\\`;&|<>()*?[]{}:=%,!", *p))
			die_at(n, "%s: '%s' has a character the kit does not allow (%c)",
			       what, s, *p);
	return s;
}

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

enum mode { MODE_MK, MODE_LIST, MODE_CHECK, MODE_QUERY };

static void out(enum mode m, const char *series, const char *key, const char *val)
{
	if (m == MODE_MK)
		printf("S_%s_%s := %s\n", series, key, val);
}

static void fix_status(enum mode m, const char *name, yaml_node_t *fixes, const char *fix)
{
	yaml_node_t *v = need(fixes, fix, "fixes");
	const char *s = scalar(v, "fix status");
	char key[16];

	/* "stack" (carried by versions/X.Y) or "upstream <tag>" (in the tree). */
	if (strcmp(s, "stack") && strncmp(s, "upstream ", 9))
		die_at(v, "fixes: %s: '%s' is neither 'stack' nor 'upstream <release>'", fix, s);
	if (!strncmp(s, "upstream ", 9)) {
		const char *tag = s + 9;
		const char *p;

		for (p = tag; *p; p++)
			if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			      (*p >= '0' && *p <= '9') || strchr("._-+~", *p)))
				die_at(v, "fixes: %s: release '%s' has a character the kit does not allow (%c)",
				       fix, tag, *p);
		if (!*tag)
			die_at(v, "fixes: %s: 'upstream' needs a release", fix);
	}
	snprintf(key, sizeof(key), "fix_%s", fix);
	if (m == MODE_MK)
		printf("S_%s_%s := %s\n", name, key, s);
}

int list_has(yaml_node_t *l, const char *w)
{
	yaml_node_item_t *it;

	if (!l || l->type != YAML_SEQUENCE_NODE)
		return 0;
	for (it = l->data.sequence.items.start; it < l->data.sequence.items.top; it++)
		if (node(*it)->type == YAML_SCALAR_NODE && !strcmp((const char *)node(*it)->data.scalar.value, w))
			return 1;
	return 0;
}

/* config_source: [DEBIAN-ARCH...], the Debian architectures whose config
 * a series' config gate makes from Debian's source package (its
 * debian/config, as its rules.gen does) instead of taking linux-config-X.Y
 * of that architecture: each the debian_arch of an arch of arches: that
 * has a debian_config, once. */
static void config_source(yaml_node_t *l)
{
	yaml_node_item_t *it, *jt;
	int a;

	if (l->type != YAML_SEQUENCE_NODE || l->data.sequence.items.top == l->data.sequence.items.start)
		die_at(l, "config_source must be a list of Debian architectures, e.g. [arm64]");
	for (it = l->data.sequence.items.start; it < l->data.sequence.items.top; it++) {
		const char *d = word(node(*it), "config_source");

		for (a = 0; a < arch_count(); a++)
			if (arch_field(arch_name(a), "debian_config") && arch_field(arch_name(a), "debian_arch") &&
			    !strcmp(arch_field(arch_name(a), "debian_arch"), d))
				break;
		if (a == arch_count())
			die_at(node(*it), "config_source: '%s' is not the debian_arch of an arch of arches: with a debian_config", d);
		for (jt = l->data.sequence.items.start; jt < it; jt++)
			if (!strcmp(scalar(node(*jt), "config_source"), d))
				die_at(node(*it), "config_source: '%s' given twice", d);
	}
}

static void source(enum mode m, const char *name, yaml_node_t *src)
{
	static const char *const kinds[] = { "debian", "tree", "tarball", NULL };
	static const char *const deb_keys[] = { "package", "version", "suite", "config_source", NULL };
	static const char *const path_keys[] = { "env", "path", NULL };
	yaml_node_pair_t *p;
	yaml_node_t *v;
	const char *kind;

	want_mapping(src, "source");
	check_keys(src, "source", kinds);
	p = src->data.mapping.pairs.start;
	if (src->data.mapping.pairs.top - p != 1)
		die_at(src, "source: give exactly one of debian, tree, tarball");
	kind = (char *)node(p->key)->data.scalar.value;
	v = node(p->value);
	want_mapping(v, kind);
	out(m, name, "kind", kind);
	if (!strcmp(kind, "debian")) {
		check_keys(v, "debian", deb_keys);
		/* (Its configs come as linux-config-X.Y, its kernels as linux-image.) */
		if (strncmp(word(need(v, "package", "debian"), "package"), "linux-source-", 13))
			die_at(need(v, "package", "debian"), "package: '%s' is not a linux-source-X.Y package",
			       word(need(v, "package", "debian"), "package"));
		out(m, name, "package", word(need(v, "package", "debian"), "package"));
		out(m, name, "version", word(need(v, "version", "debian"), "version"));
		out(m, name, "suite", word(need(v, "suite", "debian"), "suite"));
		if (get(v, "config_source"))
			config_source(get(v, "config_source"));
	} else {
		const char *env;
		const char *q;

		check_keys(v, kind, path_keys);
		env = word(need(v, "env", kind), "env");
		for (q = env; *q; q++)
			if (!(*q == '_' || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9')))
				die_at(need(v, "env", kind), "env: '%s' is not a variable name", env);
		out(m, name, "env", env);
		if (get(v, "path"))
			out(m, name, "path", word(get(v, "path"), "path"));
	}
}

static yaml_node_t *corpus_node;

/* corpus: {debian: {source, version, suite}, images: GLOB}, images nobody
 * here made, booted on every kernel; as make variables CORPUS_*. */
static void corpus(enum mode m, yaml_node_t *c)
{
	static const char *const keys[] = { "debian", "images", NULL };
	static const char *const deb_keys[] = { "source", "version", "suite", NULL };
	yaml_node_t *d = need(c, "debian", "corpus"), *g;
	const char *glob, *p;

	want_mapping(c, "corpus");
	check_keys(c, "corpus", keys);
	want_mapping(d, "debian");
	check_keys(d, "debian", deb_keys);
	g = need(c, "images", "corpus");
	glob = scalar(g, "images");
	/* A path pattern below the unpacked source: no way out of it. */
	for (p = glob; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr("*/._-+", *p)))
			die_at(g, "images: '%s' has a character the kit does not allow (%c)", glob, *p);
	if (!*glob || glob[0] == '/' || strstr(glob, ".."))
		die_at(g, "images: '%s' is not a pattern of files inside the source", glob);
	corpus_node = c;
	if (m == MODE_MK) {
		printf("CORPUS_source := %s\n", word(need(d, "source", "debian"), "source"));
		printf("CORPUS_version := %s\n", word(need(d, "version", "debian"), "version"));
		printf("CORPUS_suite := %s\n", word(need(d, "suite", "debian"), "suite"));
		printf("CORPUS_images := %s\n", glob);
	} else {
		word(need(d, "source", "debian"), "source");
		word(need(d, "version", "debian"), "version");
		word(need(d, "suite", "debian"), "suite");
	}
}

struct series all[MAX_SERIES];
int nall;

static int is_flavour_name(const char *s)
{
	const char *p;

	if (!*s || *s < 'a' || *s > 'z' || strlen(s) >= 32)
		return 0;
	for (p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-'))
			return 0;
	return strcmp(s, "vanilla") && strcmp(s, "patched");
}

static void hash_file(struct sha256 *c, yaml_node_t *at, const char *path)
{
	unsigned char buf[65536];
	size_t n;
	FILE *f = fopen(path, "rb");

	if (!f)
		die_at(at, "open %s: %s", path, strerror(errno));
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sha256_update(c, buf, n);
	if (ferror(f))
		die_at(at, "read %s: %s", path, strerror(errno));
	fclose(f);
}

/* A stack's series file is a plain quilt series, as quilt itself reads
 * it: '#' starts a comment, blank lines are skipped, every other line
 * names one patch file in the stack folder (in_stack), none twice and
 * with no quilt options (the kit applies every patch with -p1).
 *
 * Trees whose code differs from the release the series is verified on
 * take other forms of some entries.  They are kept where quilt never
 * looks: STACK/forms/FOR/PATCH is a form of the entry PATCH (the same
 * file name) for the trees FOR names (form_for: a range of releases,
 * 5.10.0-5.10.245 or 6.6.120-and-later, or a kind of tree such as
 * android12-5.10).  Every reader of the kit gets an entry as its
 * alternatives: the series' own patch first, then its forms, the range
 * that ends newest first, then the kinds of tree by name; a tree takes the
 * first that applies at zero fuzz.  Returns the number of entries; on a
 * bad line or form, -1 with the reason in series_err. */
#define MAX_ALTS 8
struct entry {
	char *alt[MAX_ALTS];
	int nalt;
};
static char series_err[4096];

/* Whether W names a file inside the stack folder: not an absolute path,
 * and no ".." among its parts (the kit copies a patch by its name, e.g.
 * build/tools/apply into .kit-apply/patches, and quilt keeps its backups under
 * that name). */
static int in_stack(const char *w)
{
	const char *p = w;

	if (*w == '/')
		return 0;
	while (*p) {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.')
			return 0;
		p += n;
		while (*p == '/')
			p++;
	}
	return 1;
}

/* A release X.Y.Z at S, its three numbers in R (no leading zeros); the
 * characters read, 0 when S does not start with one. */
static int release_at(const char *s, long r[3])
{
	const char *p = s;
	int i;

	for (i = 0; i < 3; i++) {
		char *end;

		if (*p < '0' || *p > '9' || (p[0] == '0' && p[1] >= '0' && p[1] <= '9'))
			return 0;
		r[i] = strtol(p, &end, 10);
		p = end;
		if (i < 2) {
			if (*p != '.')
				return 0;
			p++;
		}
	}
	return (int)(p - s);
}

/* What the folder name FOR of a form says: 1, a range of releases
 * "X.Y.A-X.Y.B" (A <= B) or "X.Y.A-and-later", with its first and last
 * release in LO and HI (HI's patch level LONG_MAX for "and-later"); 2, a
 * kind of tree, any other name of a-z, 0-9, '.', '-' that starts with a
 * letter (android12-5.10, with-ce9f24cccdc0); 0, neither. */
static int form_for(const char *f, long lo[3], long hi[3])
{
	const char *p;
	int n = release_at(f, lo), m;

	if (n && f[n] == '-') {
		if (!strcmp(f + n + 1, "and-later")) {
			hi[0] = lo[0], hi[1] = lo[1], hi[2] = LONG_MAX;
			return 1;
		}
		m = release_at(f + n + 1, hi);
		if (m && !f[n + 1 + m] && hi[0] == lo[0] && hi[1] == lo[1] && hi[2] >= lo[2])
			return 1;
		return 0;
	}
	if (*f < 'a' || *f > 'z' || strlen(f) > 64)
		return 0;
	for (p = f; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '.'))
			return 0;
	return 2;
}

/* The order of the forms of one entry (qsort on "forms/FOR/PATCH"): the
 * ranges, the one that ends newest first (then the one that starts
 * newest), then the kinds of tree by name. */
static int by_form(const void *a, const void *b)
{
	char fa[256], fb[256];
	long la[3], ha[3], lb[3], hb[3];
	int ka, kb, i;

	sscanf(*(char *const *)a, "forms/%255[^/]", fa);
	sscanf(*(char *const *)b, "forms/%255[^/]", fb);
	ka = form_for(fa, la, ha);
	kb = form_for(fb, lb, hb);
	if (ka != kb)
		return ka - kb;
	if (ka == 1)
		for (i = 0; i < 6; i++) {
			long x = i < 3 ? ha[i] : la[i - 3], y = i < 3 ? hb[i] : lb[i - 3];

			if (x != y)
				return x > y ? -1 : 1;
		}
	return strcmp(fa, fb);
}

/* The forms of the entry NAME in the stack folder DIR (STACK as the user
 * names it), added to E after its own patch; -1 with series_err on a
 * folder below forms/ whose name says no trees. */
static int add_forms(const char *dir, const char *stack, const char *name, struct entry *e)
{
	char path[8192];
	struct dirent *d;
	long lo[3], hi[3];
	int first = e->nalt;
	DIR *fd;

	snprintf(path, sizeof(path), "%s/forms", dir);
	fd = opendir(path);
	if (!fd)
		return 0;
	while ((d = readdir(fd))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/forms/%s", dir, d->d_name);
		if (!is_dir(path) || !form_for(d->d_name, lo, hi)) {
			snprintf(series_err, sizeof(series_err),
				 "%s/forms/%s: not a folder of forms: name it for the trees its forms are for, X.Y.A-X.Y.B, X.Y.A-and-later or a kind of tree (a-z, 0-9, '.', '-')",
				 stack, d->d_name);
			closedir(fd);
			return -1;
		}
		snprintf(path, sizeof(path), "%s/forms/%s/%s", dir, d->d_name, name);
		if (!is_file(path))
			continue;
		if (e->nalt == MAX_ALTS) {
			snprintf(series_err, sizeof(series_err), "%s: %s has more than %d forms", stack, name, MAX_ALTS - 1);
			closedir(fd);
			return -1;
		}
		snprintf(path, sizeof(path), "forms/%s/%s", d->d_name, name);
		e->alt[e->nalt++] = strdup(path);
	}
	closedir(fd);
	qsort(e->alt + first, e->nalt - first, sizeof(*e->alt), by_form);
	return 0;
}

static int parse_series(const char *path, const char *shown, const char *dir,
			const char *shown_dir, struct entry *ent, int max)
{
	char line[4096], file[4096];
	int n = 0, lineno = 0, i;
	FILE *f = fopen(path, "r");

	if (!f) {
		snprintf(series_err, sizeof(series_err), "open %s: %s", shown, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *p, *w, *more;

		lineno++;
		/* As quilt reads it: '#' starts a comment at the start of a
		 * line or after white space; anywhere else it is part of a
		 * name (quilt pushes a patch named "#" for an indented one). */
		if (strchr(line, '\r')) {
			snprintf(series_err, sizeof(series_err),
				 "%s:%d: a carriage return: quilt reads it as part of the name; save the file with plain newlines",
				 shown, lineno);
			goto bad;
		}
		if (line[0] == '#')
			continue;
		w = line + strspn(line, " \t");
		if (*w == '#') {
			snprintf(series_err, sizeof(series_err),
				 "%s:%d: an indented '#': quilt reads it as a patch named '#'; start a comment in the first column",
				 shown, lineno);
			goto bad;
		}
		for (p = strchr(w, '#'); p; p = strchr(p + 1, '#'))
			if (p[-1] == ' ' || p[-1] == '\t') {
				*p = '\0';
				break;
			}
		w = strtok(line, " \t\n");
		if (!w)
			continue;
		if (strchr(w, '#')) {
			snprintf(series_err, sizeof(series_err),
				 "%s:%d: '%s': quilt reads a '#' in a name as part of it; put white space before a comment",
				 shown, lineno, w);
			goto bad;
		}
		if (n == max) {
			snprintf(series_err, sizeof(series_err), "%s lists more than %d patches", shown, max);
			goto bad;
		}
		more = strtok(NULL, " \t\n");
		if (more && !strcmp(more, "|")) {
			snprintf(series_err, sizeof(series_err),
				 "%s:%d: one patch a line, as quilt reads it: put the other forms of an entry in %s/forms/FOR/ under the entry's name",
				 shown, lineno, shown_dir);
			goto bad;
		}
		if (more) {
			snprintf(series_err, sizeof(series_err),
				 "%s:%d: '%s' after a patch: the kit takes no quilt options (it applies with -p1)",
				 shown, lineno, more);
			goto bad;
		}
		if (strpbrk(w, "$'\"\\|`") || w[0] == '-') {
			snprintf(series_err, sizeof(series_err),
				 "%s: '%s' has a character the kit does not allow", shown, w);
			goto bad;
		}
		if (!strncmp(w, "./", 2)) {
			snprintf(series_err, sizeof(series_err),
				 "%s:%d: '%s': name the patch without './', as the kit and quilt name it", shown, lineno, w);
			goto bad;
		}
		if (!in_stack(w) || !strncmp(w, "forms/", 6)) {
			snprintf(series_err, sizeof(series_err),
				 "%s:%d: '%s' is outside %s (an absolute path, '..' or its forms/); name a patch file in that folder",
				 shown, lineno, w, shown_dir);
			goto bad;
		}
		snprintf(file, sizeof(file), "%s/%s", dir, w);
		if (!is_file(file)) {
			snprintf(series_err, sizeof(series_err),
				 "%s lists '%s', which is not in %s", shown, w, shown_dir);
			goto bad;
		}
		for (i = 0; i < n; i++)
			if (!strcmp(ent[i].alt[0], w)) {
				snprintf(series_err, sizeof(series_err),
					 "%s:%d: '%s' is listed twice; quilt pushes a patch once", shown, lineno, w);
				goto bad;
			}
		ent[n].nalt = 0;
		ent[n].alt[ent[n].nalt++] = strdup(w);
		if (!strchr(w, '/') && add_forms(dir, shown_dir, w, &ent[n]) < 0)
			goto bad;
		n++;
	}
	fclose(f);
	return n;
bad:
	fclose(f);
	return -1;
}

static void read_variant(struct series *s, struct variant *v, const char *list)
{
	char path[8192], dir[4096];
	struct entry ent[MAX_PATCHES];
	struct sha256 c;
	unsigned char sum[32];
	char hex[65];
	int n, i, j;

	snprintf(v->list, sizeof(v->list), "%s/%s", s->stack, list);
	snprintf(path, sizeof(path), "%s/%s", root, v->list);
	snprintf(dir, sizeof(dir), "%s/%s", root, s->stack);
	n = parse_series(path, v->list, dir, s->stack, ent, MAX_PATCHES);
	if (n < 0)
		die_at(s->stack_node, "stack: %s", series_err);
	if (!n)
		die_at(s->stack_node, "stack: %s lists no patch", v->list);
	sha256_init(&c);
	hash_file(&c, s->stack_node, path);
	for (i = 0; i < n; i++)
		for (j = 0; j < ent[i].nalt; j++) {
			const char *w = ent[i].alt[j];

			if (v->npatch == MAX_PATCHES)
				die_at(s->stack_node, "stack: %s lists more than %d patches", v->list, MAX_PATCHES);
			v->patch[v->npatch++] = ent[i].alt[j];
			/* The name and the bytes: a renamed patch is another
			 * stack; every alternative counts, whichever a tree takes. */
			snprintf(path, sizeof(path), "%s/%s", dir, w);
			sha256_update(&c, w, strlen(w) + 1);
			hash_file(&c, s->stack_node, path);
		}
	sha256_final(&c, sum);
	sha256_hex(sum, hex);
	memcpy(v->hash, hex, 12);
	v->hash[12] = '\0';
}

/* release TREE: the release TREE's top Makefile names, from its
 * VERSION, PATCHLEVEL and SUBLEVEL lines ("VERSION = 6"), as
 * VERSION.PATCHLEVEL.SUBLEVEL; EXTRAVERSION (-rc1) is left out.  The one
 * reader of a tree's release: unpack, apply, submission and the report
 * ask here.  Exit 1, naming the file, when it names none. */
static int print_release(const char *tree)
{
	static const char *const names[] = { "VERSION", "PATCHLEVEL", "SUBLEVEL" };
	char path[4096], line[512];
	long v[3] = { -1, -1, -1 };
	FILE *f;
	int i, n = 0;

	snprintf(path, sizeof(path), "%s/Makefile", tree);
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "%s: %s: %s; give a kernel tree\n", prog, path, strerror(errno));
		return 1;
	}
	/* (The three lines open the kernel's Makefile; a line count
	 * bounds the search in anything else.) */
	while (n++ < 40 && fgets(line, sizeof(line), f))
		for (i = 0; i < 3; i++) {
			size_t len = strlen(names[i]);
			char *end;
			long x;

			if (v[i] >= 0 || strncmp(line, names[i], len) || strncmp(line + len, " = ", 3))
				continue;
			x = strtol(line + len + 3, &end, 10);
			if (end != line + len + 3 && (*end == '\n' || *end == '\0') && x >= 0)
				v[i] = x;
		}
	fclose(f);
	if (v[0] < 0 || v[1] < 0 || v[2] < 0) {
		fprintf(stderr, "%s: %s: no VERSION, PATCHLEVEL and SUBLEVEL lines; give a kernel tree\n", prog, path);
		return 1;
	}
	printf("%ld.%ld.%ld\n", v[0], v[1], v[2]);
	return 0;
}

/* series LIST: the entries of a series file, one a line, each its
 * alternatives separated by a space: the patch, then its forms
 * (forms/FOR/PATCH); the patches are looked for beside LIST. */
static int print_series(const char *list)
{
	struct entry ent[MAX_PATCHES];
	char dir[4096];
	const char *slash = strrchr(list, '/');
	int n, i, j;

	if (slash)
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - list), list);
	else
		snprintf(dir, sizeof(dir), ".");
	n = parse_series(list, list, dir[0] ? dir : "/", dir[0] ? dir : "/", ent, MAX_PATCHES);
	if (n < 0) {
		fprintf(stderr, "%s: %s\n", prog, series_err);
		return EXIT_BAD;
	}
	if (!n) {
		fprintf(stderr, "%s: %s lists no patch\n", prog, list);
		return EXIT_BAD;
	}
	for (i = 0; i < n; i++)
		for (j = 0; j < ent[i].nalt; j++)
			printf("%s%s", ent[i].alt[j], j + 1 < ent[i].nalt ? " " : "\n");
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every form in the stack's forms/ stands for an entry of one of its
 * series files: a form no series pushes would be a stack nobody tests. */
static void check_forms(struct series *s)
{
	char path[8192];
	struct dirent *d, *e;
	long lo[3], hi[3];
	DIR *fd, *ed;
	int i, j, used;

	snprintf(path, sizeof(path), "%s/%s/forms", root, s->stack);
	fd = opendir(path);
	if (!fd)
		return;
	while ((d = readdir(fd))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/forms/%s", root, s->stack, d->d_name);
		if (form_for(d->d_name, lo, hi) == 1) {
			char xy[64];

			snprintf(xy, sizeof(xy), "%ld.%ld", lo[0], lo[1]);
			if (strcmp(xy, s->name))
				die_at(s->stack_node, "stack: %s/forms/%s: releases of %s, not of %s; a stack's forms are for its own series",
				       s->stack, d->d_name, xy, s->name);
		}
		ed = opendir(path);
		if (!ed)
			die_at(s->stack_node, "stack: open %s/forms/%s: %s", s->stack, d->d_name, strerror(errno));
		while ((e = readdir(ed))) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "forms/%s/%s", d->d_name, e->d_name);
			used = 0;
			for (i = 1; i < s->nv && !used; i++)
				for (j = 0; j < s->v[i].npatch && !used; j++)
					used = !strcmp(s->v[i].patch[j], path);
			if (!used)
				die_at(s->stack_node, "stack: %s/%s is the form of no entry: no series file of %s lists a patch named %s",
				       s->stack, path, s->stack, e->d_name);
		}
		closedir(ed);
	}
	closedir(fd);
}

/* The variants come from the stack: series, then every series.FLAVOUR. */
static void read_stack(struct series *s)
{
	char path[4096];
	char *fl[MAX_VARIANTS];
	int nfl = 0, i;
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%s/series", root, s->stack);
	if (!is_file(path))
		die_at(s->stack_node, "stack: folder '%s' has no quilt series file", s->stack);
	snprintf(s->v[0].name, sizeof(s->v[0].name), "vanilla");
	snprintf(s->v[0].hash, sizeof(s->v[0].hash), "-");
	snprintf(s->v[1].name, sizeof(s->v[1].name), "patched");
	read_variant(s, &s->v[1], "series");
	s->nv = 2;
	snprintf(path, sizeof(path), "%s/%s", root, s->stack);
	d = opendir(path);
	if (!d)
		die_at(s->stack_node, "stack: open %s: %s", s->stack, strerror(errno));
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "series.", 7))
			continue;
		if (!is_flavour_name(e->d_name + 7))
			die_at(s->stack_node, "stack: %s/%s: '%s' is not a flavour name (a-z, 0-9, -; not vanilla or patched)",
			       s->stack, e->d_name, e->d_name + 7);
		if (nfl == MAX_VARIANTS - 2)
			die_at(s->stack_node, "stack: %s has more than %d flavours", s->stack, MAX_VARIANTS - 2);
		fl[nfl++] = strdup(e->d_name + 7);
	}
	closedir(d);
	qsort(fl, nfl, sizeof(*fl), by_name);
	for (i = 0; i < nfl; i++) {
		char list[64];

		snprintf(s->v[s->nv].name, sizeof(s->v[s->nv].name), "%s", fl[i]);
		snprintf(list, sizeof(list), "series.%s", fl[i]);
		read_variant(s, &s->v[s->nv], list);
		s->nv++;
		free(fl[i]);
	}
	check_forms(s);
}

static struct variant *variant_of(struct series *s, const char *name)
{
	int i;

	for (i = 0; i < s->nv; i++)
		if (!strcmp(s->v[i].name, name))
			return &s->v[i];
	return NULL;
}

static void variant_names(struct series *s, char *buf, size_t n)
{
	int i;

	buf[0] = '\0';
	for (i = 0; i < s->nv; i++) {
		strncat(buf, i ? " " : "", n - strlen(buf) - 1);
		strncat(buf, s->v[i].name, n - strlen(buf) - 1);
	}
}

static void print_stack(enum mode m, struct series *s)
{
	char names[512];
	int i, j;

	if (m != MODE_MK)
		return;
	variant_names(s, names, sizeof(names));
	printf("S_%s_variants := %s\n", s->name, names);
	for (i = 1; i < s->nv; i++) {
		printf("S_%s_hash_%s := %s\n", s->name, s->v[i].name, s->v[i].hash);
		printf("S_%s_list_%s := %s\n", s->name, s->v[i].name, s->v[i].list);
		printf("S_%s_patches_%s :=", s->name, s->v[i].name);
		for (j = 0; j < s->v[i].npatch; j++)
			printf(" %s/%s", s->stack, s->v[i].patch[j]);
		printf("\n");
	}
}

static void expect_overrides(enum mode m, struct series *s, yaml_node_t *ex)
{
	yaml_node_pair_t *p, *q;

	want_mapping(ex, "expect");
	for (p = ex->data.mapping.pairs.start; p < ex->data.mapping.pairs.top; p++) {
		const char *c = word(node(p->key), "case name");
		yaml_node_t *per = node(p->value);
		char path[4096];

		snprintf(path, sizeof(path), "%s/%s", cases_dir, c);
		if (!is_dir(path))
			die_at(node(p->key), "expect: no image case '%s' (test/cases/%s)", c, c);
		want_mapping(per, "expect case");
		for (q = per->data.mapping.pairs.start; q < per->data.mapping.pairs.top; q++) {
			const char *var = scalar(node(q->key), "a variant");
			const char *f = word(node(q->value), "expect file");
			char names[512];

			if (!variant_of(s, var)) {
				variant_names(s, names, sizeof(names));
				die_at(node(q->key), "expect case: '%s' is not a variant of %s (%s)", var, s->name, names);
			}
			snprintf(path, sizeof(path), "%s/%s/%s", cases_dir, c, f);
			if (!is_file(path))
				die_at(node(q->value), "expect: %s: no file test/cases/%s/%s", c, c, f);
			if (m == MODE_MK)
				printf("S_%s_expect_%s_%s := %s\n", s->name, c, var, f);
		}
	}
}

/* The sublevel of RELEASE as a release of SERIES ("5.10.160" of 5.10:
 * 160), or -1. */
static long sublevel_of(const char *series, const char *release)
{
	size_t n = strlen(series);
	const char *p = release + n + 1;
	char *end;
	long v;

	if (strncmp(release, series, n) || release[n] != '.' || *p < '0' || *p > '9')
		return -1;
	v = strtol(p, &end, 10);
	return *end ? -1 : v;
}

static int arch_known(const char *name);

/* A list of the series' variants other than vanilla (patched, a flavour),
 * each once, with_arch: or of another arch (patched@arm64, an arch of
 * arches:); their number. */
static int tree_variants(struct series *s, yaml_node_t *l, const char *what, const char **got, int max,
			 int with_arch)
{
	yaml_node_item_t *it;
	char names[512], plain[64];
	int n = 0, i;

	if (l->type != YAML_SEQUENCE_NODE || l->data.sequence.items.top == l->data.sequence.items.start)
		die_at(l, "%s must be a list of variants, e.g. [patched, hardened]", what);
	for (it = l->data.sequence.items.start; it < l->data.sequence.items.top; it++) {
		const char *v = word(node(*it), what), *at = strchr(v, '@');

		if (at && (!with_arch || !arch_known(at + 1) || !strcmp(at + 1, arch_name(0))))
			die_at(node(*it), "%s: '%s' is not a variant of another arch of arches: (VARIANT@ARCH)", what, v);
		snprintf(plain, sizeof(plain), "%.*s", (int)strcspn(v, "@"), v);
		if (!variant_of(s, plain) || !strcmp(plain, "vanilla")) {
			variant_names(s, names, sizeof(names));
			die_at(node(*it), "%s: '%s' is not a stack of %s (%s, vanilla aside)", what, v, s->name, names);
		}
		for (i = 0; i < n; i++)
			if (!strcmp(got[i], v))
				die_at(node(*it), "%s: '%s' given twice", what, v);
		if (n == max)
			die_at(node(*it), "%s: more than %d variants", what, max);
		got[n++] = v;
	}
	return n;
}

/* trees: the real trees a series' stacks were tried on, each
 * {release: X.Y.Z, from: where the tree came from, applied: [VARIANT...]
 * (build/tools/apply took the stack, then undid it byte for byte),
 * booted: [VARIANT...] (the matrix built and booted it from that tree;
 * VARIANT@ARCH for another arch), optional}.  What is booted was applied.  With OUT, the list is printed
 * (the trees query). */
static void trees(struct series *s, yaml_node_t *l, FILE *out)
{
	static const char *const keys[] = { "release", "from", "applied", "booted", NULL };
	yaml_node_item_t *it;

	if (l->type != YAML_SEQUENCE_NODE)
		die_at(l, "trees must be a list of {release, from, applied[, booted]}");
	for (it = l->data.sequence.items.start; it < l->data.sequence.items.top; it++) {
		yaml_node_t *t = node(*it), *b;
		const char *release, *from, *applied[MAX_VARIANTS], *booted[MAX_VARIANTS * MAX_ARCHES];
		int na, nb = 0, i, j;

		want_mapping(t, "a tree");
		check_keys(t, "tree", keys);
		release = word(need(t, "release", "tree"), "release");
		if (sublevel_of(s->name, release) < 0)
			die_at(need(t, "release", "tree"), "release: '%s' is not a release of %s (%s.N)",
			       release, s->name, s->name);
		from = scalar(need(t, "from", "tree"), "from");
		na = tree_variants(s, need(t, "applied", "tree"), "applied", applied, MAX_VARIANTS, 0);
		if ((b = get(t, "booted")))
			nb = tree_variants(s, b, "booted", booted, MAX_VARIANTS * MAX_ARCHES, 1);
		for (i = 0; i < nb; i++) {
			size_t len = strcspn(booted[i], "@");

			for (j = 0; j < na && (strlen(applied[j]) != len || strncmp(applied[j], booted[i], len)); j++)
				;
			if (j == na)
				die_at(b, "booted: '%s' is not among applied: a tree booted with a stack took it", booted[i]);
		}
		if (!out)
			continue;
		fprintf(out, "%s\t", release);
		for (i = 0; i < na; i++)
			fprintf(out, "%s%s", i ? "," : "", applied[i]);
		fprintf(out, "\t");
		for (i = 0; i < nb; i++)
			fprintf(out, "%s%s", i ? "," : "", booted[i]);
		fprintf(out, "%s\t%s\n", nb ? "" : "-", from);
	}
}

/* walked: the releases of one public history of the series a stack was
 * judged on, one tree each time its fs/ext4 changed: {from: the history
 * and how each was judged, first: X.Y.A, last: X.Y.B (A <= B), states:
 * how many distinct fs/ext4 were judged, took: [VARIANT...] (every one
 * of them takes those stacks)}.  With OUT it is printed (the walked
 * query): "first<TAB>last<TAB>states<TAB>took,...<TAB>from". */
static void walked(struct series *s, yaml_node_t *w, FILE *out)
{
	static const char *const keys[] = { "from", "first", "last", "states", "took", NULL };
	const char *from, *first, *last, *took[MAX_VARIANTS];
	long a, b, n;
	char *end;
	int nt, i;

	want_mapping(w, "walked");
	check_keys(w, "walked", keys);
	from = scalar(need(w, "from", "walked"), "from");
	first = word(need(w, "first", "walked"), "first");
	last = word(need(w, "last", "walked"), "last");
	a = sublevel_of(s->name, first);
	b = sublevel_of(s->name, last);
	if (a < 0)
		die_at(need(w, "first", "walked"), "first: '%s' is not a release of %s (%s.N)", first, s->name, s->name);
	if (b < a)
		die_at(need(w, "last", "walked"), "last: '%s' is not a release of %s from %s on", last, s->name, first);
	n = strtol(word(need(w, "states", "walked"), "states"), &end, 10);
	if (*end || n < 1)
		die_at(need(w, "states", "walked"), "states: a count of at least 1");
	nt = tree_variants(s, need(w, "took", "walked"), "took", took, MAX_VARIANTS, 0);
	if (!out)
		return;
	fprintf(out, "%s\t%s\t%ld\t", first, last, n);
	for (i = 0; i < nt; i++)
		fprintf(out, "%s%s", i ? "," : "", took[i]);
	fprintf(out, "\t%s\n", from);
}

/* arches: the machines a kernel is built for and booted on, in the
 * file's order; the first is the default one, whose variants carry no
 * @NAME (make matrix ARCHES=...: build/plan.c).  Each NAME: {arch, cross,
 * target, image, config, packages, qemu, console, console_qemu, ktap,
 * ktap_qemu[, debian_arch, debian_config]}: matrix.yaml's comment says what each
 * means. */
static struct {
	const char *name;
	yaml_node_t *node;
} arch_list[MAX_ARCHES];
static int narch;

/* QEMU's arguments: words of letters, digits and ._-=,:/+ only. */
static const char *arguments(yaml_node_t *n, const char *what)
{
	const char *s = scalar(n, what), *p;

	for (p = s; *p; p++)
		if (!(isalnum((unsigned char)*p) || strchr(" ._-=,:/+", *p)))
			die_at(n, "%s: '%s' has a character the kit does not allow (%c)", what, s, *p);
	return s;
}

/* The keys of an arch's entry, in matrix.yaml's order (the last two
 * optional); the plan keys a kernel by all of them. */
const char *const arch_keys[] = {
	"arch", "cross", "target", "image", "config", "packages",
	"qemu", "console", "console_qemu", "ktap", "ktap_qemu", "debian_arch", "debian_config", NULL
};

static void arches(yaml_node_t *a)
{
	const char *const *keys = arch_keys;
	static const int optional = 2;	/* (the last keys: debian_arch, debian_config) */
	yaml_node_pair_t *p;
	char path[4096];

	want_mapping(a, "arches");
	if (a->data.mapping.pairs.top == a->data.mapping.pairs.start)
		die_at(a, "arches is empty");
	for (p = a->data.mapping.pairs.start; p < a->data.mapping.pairs.top; p++) {
		const char *name = word(node(p->key), "arch name"), *q;
		yaml_node_t *e = node(p->value), *v;
		int i;

		for (q = name; *q; q++)
			if (!(islower((unsigned char)*q) || isdigit((unsigned char)*q) || *q == '_' || *q == '-'))
				die_at(node(p->key), "arches: '%s' is not a name of lower-case letters, digits, _ and -", name);
		for (i = 0; i < narch; i++)
			if (!strcmp(arch_list[i].name, name))
				die_at(node(p->key), "arches: '%s' given twice", name);
		if (narch == MAX_ARCHES)
			die_at(node(p->key), "arches: more than %d", MAX_ARCHES);
		want_mapping(e, name);
		check_keys(e, name, keys);
		for (i = 0; keys[i + optional]; i++)
			need(e, keys[i], name);
		if (get(e, "debian_config"))
			word(get(e, "debian_config"), "debian_config");
		if (get(e, "debian_arch"))
			word(get(e, "debian_arch"), "debian_arch");
		if (get(e, "debian_config") && !get(e, "debian_arch"))
			die_at(get(e, "debian_config"), "debian_config: say the arch's debian_arch too (the linux-config package of that architecture has it)");
		word(get(e, "arch"), "arch");
		v = get(e, "cross");
		if (v->type != YAML_SCALAR_NODE)
			die_at(v, "cross must be a plain value");
		if (v->data.scalar.length) {
			const char *c = word(v, "cross");

			if (c[strlen(c) - 1] != '-')
				die_at(v, "cross: '%s' is not a compiler prefix like aarch64-linux-gnu-", c);
		}
		word(get(e, "target"), "target");
		q = word(get(e, "image"), "image");
		if (q[0] == '/' || strstr(q, ".."))
			die_at(get(e, "image"), "image: '%s' is not a path inside the object tree", q);
		q = word(get(e, "config"), "config");
		snprintf(path, sizeof(path), "%s/%s", root, q);
		if (!is_file(path))
			die_at(get(e, "config"), "config: no file %s", q);
		arguments(get(e, "packages"), "packages");
		arguments(get(e, "qemu"), "qemu");
		word(get(e, "console"), "console");
		arguments(get(e, "console_qemu"), "console_qemu");
		word(get(e, "ktap"), "ktap");
		arguments(get(e, "ktap_qemu"), "ktap_qemu");
		arch_list[narch].name = name;
		arch_list[narch++].node = e;
	}
}

static int arch_known(const char *name)
{
	int i;

	for (i = 0; i < narch; i++)
		if (!strcmp(arch_list[i].name, name))
			return 1;
	return 0;
}

int arch_count(void)
{
	return narch;
}

const char *arch_name(int i)
{
	return i >= 0 && i < narch ? arch_list[i].name : NULL;
}

const char *arch_field(const char *name, const char *key)
{
	yaml_node_t *n;
	int i;

	for (i = 0; i < narch; i++)
		if (!strcmp(arch_list[i].name, name)) {
			n = get(arch_list[i].node, key);
			return n ? (const char *)n->data.scalar.value : NULL;
		}
	return NULL;
}

const char *corpus_field(const char *key)
{
	yaml_node_t *n;

	if (!corpus_node)
		return NULL;
	n = strcmp(key, "images") ? get(get(corpus_node, "debian"), key) : get(corpus_node, "images");
	return n ? (const char *)n->data.scalar.value : NULL;
}

static struct series *find_series(const char *name)
{
	int i;

	for (i = 0; i < nall; i++)
		if (!strcmp(all[i].name, name))
			return &all[i];
	fprintf(stderr, "%s: %s: no series '%s'\n", prog, file, name);
	exit(EXIT_BAD);
}

/* get: a dotted path below one series, e.g. fixes.A or source.debian.version. */
yaml_node_t *lookup(struct series *s, const char *key)
{
	char buf[256], *part, *save = NULL;
	yaml_node_t *n = s->node;

	snprintf(buf, sizeof(buf), "%s", key);
	for (part = strtok_r(buf, ".", &save); part; part = strtok_r(NULL, ".", &save)) {
		if (n->type != YAML_MAPPING_NODE)
			return NULL;
		n = get(n, part);
		if (!n)
			return NULL;
	}
	return n;
}

/* has_twin(RECIPE): whether the case asks for shared blocks ("feature
 * shared_blocks on", the one recipe line the image tool leaves out of a
 * twin: test/image/mkimage.c --twin).  Such a case has an unflagged twin,
 * CASE~twin, booted on every variant and held to vanilla's record. */
int has_twin(const char *recipe)
{
	FILE *f = fopen(recipe, "r");
	char line[512];
	int yes = 0;

	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", prog, recipe, strerror(errno));
		exit(EXIT_BAD);
	}
	while (!yes && fgets(line, sizeof(line), f)) {
		char w[3][64];

		line[strcspn(line, "#")] = '\0';
		yes = sscanf(line, "%63s %63s %63s", w[0], w[1], w[2]) == 3 && !strcmp(w[0], "feature") &&
		      !strcmp(w[1], "shared_blocks") && !strcmp(w[2], "on");
	}
	fclose(f);
	return yes;
}

/* expect: a matrix.yaml override, then expect.VARIANT, then (for a flavour
 * of the stack) expect.patched, then expect: a flavour keeps every verdict
 * it does not say otherwise. */
static int expect_of(struct series *s, const char *c, const char *var)
{
	char path[4096];
	yaml_node_t *ex = get(s->node, "expect"), *per, *f;
	size_t tl;

	if (!variant_of(s, var)) {
		fprintf(stderr, "%s: %s: '%s' is not a variant of %s\n", prog, file, var, s->name);
		return EXIT_BAD;
	}
	/* A twin (CASE~twin) is held to vanilla's record of it; twin.VARIANT,
	 * when there is one, says what the variant reports instead and why. */
	tl = strlen(c) > 5 ? strlen(c) - 5 : 0;
	if (tl && !strcmp(c + tl, "~twin")) {
		snprintf(path, sizeof(path), "%s/%.*s/recipe", cases_dir, (int)tl, c);
		if (!is_file(path) || !has_twin(path)) {
			fprintf(stderr, "%s: %s: no such case, or it sets no shared_blocks and has no twin\n", prog, c);
			return EXIT_BAD;
		}
		printf("%s/%.*s/twin.%s\n", cases_dir, (int)tl, c, var);
		return 0;
	}
	if (ex && (per = get(ex, c)) && (f = get(per, var))) {
		printf("%s/%s/%s\n", cases_dir, c, (char *)f->data.scalar.value);
		return 0;
	}
	snprintf(path, sizeof(path), "%s/%s/expect.%s", cases_dir, c, var);
	if (is_file(path))
		goto found;
	/* A flavour inherits what patched is told, the override first. */
	if (strcmp(var, "vanilla") && strcmp(var, "patched") && ex && (per = get(ex, c)) &&
	    (f = get(per, "patched"))) {
		printf("%s/%s/%s\n", cases_dir, c, (char *)f->data.scalar.value);
		return 0;
	}
	snprintf(path, sizeof(path), "%s/%s/expect.patched", cases_dir, c);
	if (strcmp(var, "vanilla") && is_file(path))
		goto found;
	snprintf(path, sizeof(path), "%s/%s/expect", cases_dir, c);
	if (is_file(path))
		goto found;
	fprintf(stderr, "%s: %s/%s: no expected verdict for %s %s; add an expect file there\n",
		prog, cases_dir, c, s->name, var);
	return EXIT_BAD;
found:
	printf("%s\n", path);
	return 0;
}

/* set-version: rewrite the bytes of one scalar, nothing else of the file;
 * the result must read back with the new version, or nothing is written. */
static int set_version(struct series *s, const char *ver)
{
	yaml_node_t *n = lookup(s, "source.debian.version");
	yaml_parser_t p;
	yaml_document_t d;
	char *text, *tmp, quote[2] = "";
	const char *bad;
	size_t len, a, b, got, nl;
	FILE *f;
	struct stat st;
	int ok;

	if (!n)
		die_at(s->node, "%s: no debian source with a version to set", s->name);
	for (bad = ver; *bad; bad++)
		if (*bad <= ' ' || *bad == 0x7f || strchr("$#'\"\\`;&|<>()*?[]{}:=%,!", *bad))
			break;
	if (!*ver || *bad) {
		fprintf(stderr, "%s: '%s' is not a Debian version the kit can write\n", prog, ver);
		return EXIT_BAD;
	}
	if (n->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE)
		quote[0] = '\'';
	else if (n->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE)
		quote[0] = '"';
	else if (n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		die_at(n, "version: not a plain or quoted value; edit it by hand");
	if (stat(file, &st) || !(f = fopen(file, "rb")))
		die_at(NULL, "open: %s", strerror(errno));
	text = malloc(st.st_size + 1);
	len = fread(text, 1, st.st_size, f);
	fclose(f);
	text[len] = '\0';
	a = n->start_mark.index;
	b = n->end_mark.index;
	/* Marks count characters: check they are the bytes of this scalar. */
	if (b > len || a > b || b - a != strlen(quote) * 2 + n->data.scalar.length ||
	    memcmp(text + a + strlen(quote), n->data.scalar.value, n->data.scalar.length))
		die_at(n, "version: cannot locate its bytes (non-ASCII text before it?); edit it by hand");
	nl = strlen(ver) + 2 * strlen(quote);
	tmp = malloc(len - (b - a) + nl + 1);
	memcpy(tmp, text, a);
	got = a + (size_t)sprintf(tmp + a, "%s%s%s", quote, ver, quote);
	memcpy(tmp + got, text + b, len - b);
	got += len - b;

	/* Read it back before writing it. */
	yaml_parser_initialize(&p);
	yaml_parser_set_input_string(&p, (unsigned char *)tmp, got);
	ok = yaml_parser_load(&p, &d);
	if (ok) {
		yaml_document_t keep = doc;
		struct series t = *s;
		yaml_node_t *m;
		yaml_node_item_t *it;

		doc = d;
		ok = 0;
		m = get(yaml_document_get_root_node(&doc), "series");
		for (it = m->data.sequence.items.start; it < m->data.sequence.items.top; it++) {
			yaml_node_t *nm = get(node(*it), "name");

			if (nm && !strcmp((char *)nm->data.scalar.value, s->name)) {
				t.node = node(*it);
				n = lookup(&t, "source.debian.version");
				ok = n && !strcmp((char *)n->data.scalar.value, ver);
			}
		}
		yaml_document_delete(&doc);
		doc = keep;
	}
	yaml_parser_delete(&p);
	if (!ok) {
		fprintf(stderr, "%s: %s: setting %s's version to '%s' would not read back; nothing written\n",
			prog, file, s->name, ver);
		return EXIT_BAD;
	}
	{
		char path[4096];
		int fd;

		snprintf(path, sizeof(path), "%s.tmp.%ld", file, (long)getpid());
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL, st.st_mode & 07777);
		if (fd < 0 || write(fd, tmp, got) != (ssize_t)got || fsync(fd) || close(fd) ||
		    rename(path, file)) {
			fprintf(stderr, "%s: write %s: %s\n", prog, path, strerror(errno));
			unlink(path);
			return EXIT_BAD;
		}
	}
	free(text);
	free(tmp);
	return 0;
}

int matrix_main(int argc, char **argv, int (*plan)(char **args))
{
	static const char *const top_keys[] = { "series", "corpus", "arches", NULL };
	static const char *const s_keys[] = {
		"name", "source", "stack", "fixes", "verified", "trees", "walked", "expect", NULL
	};
	static const char *const fix_keys[] = { "A", "B", NULL };
	static const struct { const char *name; int nargs; enum mode m; } cmds[] = {
		{ "mk", 0, MODE_MK }, { "list", 0, MODE_LIST }, { "check", 0, MODE_CHECK },
		{ "get", 2, MODE_QUERY }, { "variants", 1, MODE_QUERY }, { "hash", 2, MODE_QUERY },
		{ "expect", 3, MODE_QUERY }, { "set-version", 2, MODE_QUERY }, { "trees", 1, MODE_QUERY },
		{ "walked", 1, MODE_QUERY },
		{ "series", 0, MODE_QUERY }, { "release", 0, MODE_QUERY },
		/* (a negative count: at least that many) */
		{ "expects", -3, MODE_QUERY }, { "plan", -1, MODE_QUERY }, { "twins", -1, MODE_QUERY },
	};
	yaml_parser_t parser;
	yaml_node_t *top, *list;
	yaml_node_item_t *it;
	enum mode m = MODE_CHECK;
	const char *cmd = NULL;
	char **args;
	FILE *f;
	int opt, i, rc = 0;
	char names[4096] = " ", cbuf[4096];

	while ((opt = getopt(argc, argv, "+C:c:")) != -1) {
		if (opt == 'C')
			root = optarg;
		else if (opt == 'c')
			cases_dir = optarg;
		else
			usage();
	}
	if (argc - optind < 2)
		usage();
	for (i = 0; i < (int)(sizeof(cmds) / sizeof(cmds[0])); i++)
		if (!strcmp(argv[optind], cmds[i].name)) {
			if (cmds[i].nargs >= 0 ? argc - optind - 2 != cmds[i].nargs
					       : argc - optind - 2 < -cmds[i].nargs)
				usage();
			cmd = cmds[i].name;
			m = cmds[i].m;
		}
	if (!cmd)
		usage();
	file = argv[optind + 1];
	args = argv + optind + 2;
	if (!cases_dir) {
		snprintf(cbuf, sizeof(cbuf), "%s/test/cases", root);
		cases_dir = cbuf;
	}

	if (!strcmp(cmd, "series"))
		return print_series(file);
	if (!strcmp(cmd, "release"))
		return print_release(file);

	f = fopen(file, "r");
	if (!f) {
		fprintf(stderr, "%s: open %s: %s\n", prog, file, strerror(errno));
		return EXIT_BAD;
	}
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_file(&parser, f);
	if (!yaml_parser_load(&parser, &doc)) {
		fprintf(stderr, "%s:%lu:%lu: %s\n", file,
			(unsigned long)parser.problem_mark.line + 1,
			(unsigned long)parser.problem_mark.column + 1,
			parser.problem ? parser.problem : "malformed YAML");
		return EXIT_BAD;
	}
	fclose(f);
	top = yaml_document_get_root_node(&doc);
	if (!top)
		die_at(NULL, "empty file: it needs a 'series' list");
	want_mapping(top, "the top level");
	check_keys(top, "top level", top_keys);
	list = need(top, "series", "top level");
	if (list->type != YAML_SEQUENCE_NODE)
		die_at(list, "series must be a list");
	if (list->data.sequence.items.top == list->data.sequence.items.start)
		die_at(list, "series is empty");

	/* (The arches first: a tree's booted: may name one.) */
	if (get(top, "arches"))
		arches(get(top, "arches"));
	/* The whole file is checked whatever the question. */
	for (it = list->data.sequence.items.start; it < list->data.sequence.items.top; it++) {
		yaml_node_t *sn = node(*it), *v;
		struct series *s;
		const char *name;
		char needle[64];

		want_mapping(sn, "a series");
		check_keys(sn, "series", s_keys);
		v = need(sn, "name", "series");
		name = scalar(v, "name");
		if (!is_series_name(name))
			die_at(v, "name: '%s' is not a series like 6.1", name);
		snprintf(needle, sizeof(needle), " %s ", name);
		if (strstr(names, needle))
			die_at(v, "name: series '%s' listed twice", name);
		if (nall == MAX_SERIES)
			die_at(v, "more than %d series", MAX_SERIES);
		if (strlen(names) + strlen(needle) < sizeof(names))
			strcat(names, needle + 1);
		s = &all[nall++];
		s->name = name;
		s->node = sn;

		source(m, name, need(sn, "source", name));

		s->stack_node = need(sn, "stack", name);
		s->stack = word(s->stack_node, "stack");
		read_stack(s);
		out(m, name, "stack", s->stack);
		print_stack(m, s);

		v = need(sn, "fixes", name);
		want_mapping(v, "fixes");
		check_keys(v, "fixes", fix_keys);
		fix_status(m, name, v, "A");
		fix_status(m, name, v, "B");

		if ((v = get(sn, "verified")))
			out(m, name, "verified", word(v, "verified"));
		if ((v = get(sn, "trees")))
			trees(s, v, NULL);
		if ((v = get(sn, "walked")))
			walked(s, v, NULL);
		if ((v = get(sn, "expect")))
			expect_overrides(m, s, v);
		if (m == MODE_LIST)
			printf("%s\n", name);
	}
	if (m == MODE_MK) {
		names[strlen(names) - 1] = '\0';
		printf("SERIES_ALL := %s\n", names + 1);
	}
	if (get(top, "corpus"))
		corpus(m, get(top, "corpus"));

	if (!strcmp(cmd, "get")) {
		yaml_node_t *n = lookup(find_series(args[0]), args[1]);

		if (!n)
			rc = EXIT_ABSENT;
		else
			printf("%s\n", scalar(n, args[1]));
	} else if (!strcmp(cmd, "variants")) {
		variant_names(find_series(args[0]), cbuf, sizeof(cbuf));
		printf("%s\n", cbuf);
	} else if (!strcmp(cmd, "hash")) {
		struct series *s = find_series(args[0]);
		struct variant *v = variant_of(s, args[1]);

		if (!v) {
			fprintf(stderr, "%s: %s: '%s' is not a variant of %s\n", prog, file, args[1], s->name);
			rc = EXIT_BAD;
		} else {
			printf("%s\n", v->hash);
		}
	} else if (!strcmp(cmd, "expect")) {
		rc = expect_of(find_series(args[0]), args[1], args[2]);
	} else if (!strcmp(cmd, "twins")) {
		for (i = 0; args[i]; i++) {
			char r[4096];

			snprintf(r, sizeof(r), "%s/%s/recipe", cases_dir, args[i]);
			if (!is_file(r)) {
				fprintf(stderr, "%s: %s: no such case (%s)\n", prog, args[i], r);
				rc = EXIT_BAD;
				break;
			}
			if (has_twin(r))
				printf("%s\n", args[i]);
		}
	} else if (!strcmp(cmd, "expects")) {
		struct series *s = find_series(args[0]);

		for (i = 2; args[i] && !rc; i++) {
			printf("%s\t", args[i]);
			rc = expect_of(s, args[i], args[1]);
		}
	} else if (!strcmp(cmd, "trees")) {
		struct series *s = find_series(args[0]);
		yaml_node_t *t = get(s->node, "trees");

		if (t)
			trees(s, t, stdout);
	} else if (!strcmp(cmd, "walked")) {
		struct series *s = find_series(args[0]);
		yaml_node_t *w = get(s->node, "walked");

		if (w)
			walked(s, w, stdout);
	} else if (!strcmp(cmd, "plan")) {
		rc = plan(args);
	} else if (!strcmp(cmd, "set-version")) {
		rc = set_version(find_series(args[0]), args[1]);
	}
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	return rc;
}
