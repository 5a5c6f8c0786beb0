// SPDX-License-Identifier: GPL-2.0
/*
 * plan: what one run of the kit is, computed in one place.  From
 * matrix.yaml (read by matrix.c), the checkout's files and the run's
 * settings (NAME=VALUE words: VERSIONS, FLAVOURS, SHARD, ...), it works
 * out the series the run builds and those it skips, the variants of each,
 * every kernel with the key of what it is made from, the boots and
 * judges, the gates and fstests, and writes them one of two ways:
 *
 *   --tsv  the plan the report reads (RESULTS/plan.tsv): a line per case,
 *          series, cell, gate and fstests run, with their keys;
 *   --mk   the same run as make text, which the Makefile evaluates: lists
 *          of targets (KERNELS, BOOTS, ...), each target's prerequisites,
 *          and what its recipe needs as private target variables p_NAME.
 *          The recipes themselves are in the Makefile's mk/ files; no make
 *          expression computes a key or a path that carries one.
 *
 * A kernel is kept in KIT_CACHE/out/X.Y/VARIANT-SRCKEY-CONFIGKEY[-STACK]:
 * SRCKEY the source this run takes (the .deb, tarball or tree's path),
 * CONFIGKEY the kit's config fragments (common/kernel.config, the arch's,
 * a kind's) with the scripts that build it, STACK the stack's hash
 * (matrix.c).  A variant of an arch other than matrix.yaml's first is
 * VARIANT@ARCH (patched@arm64), in an object tree of its own.  The same
 * inputs give the same text.
 * A bad setting is one line naming it, exit 2.
 */
#include <ctype.h>
#include <errno.h>
#include <dirent.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "matrix.h"
#include "plan.h"
#include "sha256.h"

/* What a kernel is built with: the kit's fragment and these scripts. */
static const char *const kernel_config = "common/kernel.config";
static const char *const kernel_recipe[] = {
	"build/kernel/kernel", "build/lib.sh", "build/kernel/push-stack", "build/kernel/check-config", NULL
};
/* The kinds of kernel built in object trees of their own: KIND's
 * fragment goes on top of the kit's (VARIANT-KIND, e.g. patched-san).
 * They are of the default arch (the first of matrix.yaml's arches). */
static const struct kind {
	const char *name, *fragment;
} kinds[] = {
	{ "san", "common/sanitize.config" },
	{ "fstests", "test/fstests/kernel.config" },
};
#define NKINDS (int)(sizeof(kinds) / sizeof(kinds[0]))
static const char *const gate_fragment = "common/gates-ext4.config";
static const char *const fst_none =
	"no fstests tree given: set KIT_FSTESTS to a built fstests checkout (the kit never fetches or builds it)";

/* ---- small helpers ---- */

struct words {
	char **w;
	int n, cap;
};

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		fprintf(stderr, "%s: out of memory\n", prog);
		exit(EXIT_BAD);
	}
	return p;
}

/* F with AP, printf's way, in a string of its own. */
static char *vfmt(const char *f, va_list ap)
{
	va_list again;
	char *s;
	int n;

	va_copy(again, ap);
	n = vsnprintf(NULL, 0, f, again);
	va_end(again);
	s = xmalloc(n + 1);
	vsnprintf(s, n + 1, f, ap);
	return s;
}

static char *fmt(const char *f, ...)
{
	va_list ap;
	char *s;

	va_start(ap, f);
	s = vfmt(f, ap);
	va_end(ap);
	return s;
}

static void add(struct words *ws, const char *w)
{
	if (ws->n == ws->cap) {
		ws->cap = ws->cap ? 2 * ws->cap : 16;
		ws->w = realloc(ws->w, ws->cap * sizeof(*ws->w));
		if (!ws->w) {
			fprintf(stderr, "%s: out of memory\n", prog);
			exit(EXIT_BAD);
		}
	}
	ws->w[ws->n++] = strdup(w);
}

static int has(const struct words *ws, const char *w)
{
	int i;

	for (i = 0; i < ws->n; i++)
		if (!strcmp(ws->w[i], w))
			return 1;
	return 0;
}

/* The words of TEXT, whitespace apart; with uniq, each once, first kept. */
static struct words split(const char *text, int uniq)
{
	struct words ws = { 0 };
	const char *p = text ? text : "";

	while (*p) {
		size_t n;
		char *w;

		while (*p && isspace((unsigned char)*p))
			p++;
		n = strcspn(p, " \t\n\r\f\v");
		if (!n)
			break;
		w = fmt("%.*s", (int)n, p);
		if (!uniq || !has(&ws, w))
			add(&ws, w);
		free(w);
		p += n;
	}
	return ws;
}

/* The words joined by one space. */
static char *joined(const struct words *ws)
{
	size_t n = 1;
	char *s;
	int i;

	for (i = 0; i < ws->n; i++)
		n += strlen(ws->w[i]) + 1;
	s = xmalloc(n);
	s[0] = '\0';
	for (i = 0; i < ws->n; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, ws->w[i]);
	}
	return s;
}

/* Series names as sort -V orders them: 5.10 after 5.4. */
static int vercmp(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;

	while (*x && *y) {
		if (isdigit((unsigned char)*x) && isdigit((unsigned char)*y)) {
			/* Digit runs by value (zeros off, then length, then the
			 * digits); of equal ones, more leading zeros first. */
			size_t zx = strspn(x, "0"), zy = strspn(y, "0");
			size_t nx = strspn(x + zx, "0123456789"), ny = strspn(y + zy, "0123456789");
			int c = nx != ny ? (nx < ny ? -1 : 1) : strncmp(x + zx, y + zy, nx);

			if (c)
				return c;
			if (zx != zy)
				return zx > zy ? -1 : 1;
			x += zx + nx;
			y += zy + ny;
		} else {
			if (*x != *y)
				return (unsigned char)*x - (unsigned char)*y;
			x++;
			y++;
		}
	}
	return (unsigned char)*x - (unsigned char)*y;
}

static int bytecmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* DIGITS hex digits of the sha256 of TEXT. */
static char *hash_text(const char *text, int digits)
{
	struct sha256 c;
	unsigned char sum[32];
	char hex[65];

	sha256_init(&c);
	sha256_update(&c, text, strlen(text));
	sha256_final(&c, sum);
	sha256_hex(sum, hex);
	hex[digits] = '\0';
	return strdup(hex);
}

/* DIGITS hex digits of the sha256 of FILES one after another (cat). */
static char *hash_files(const char *const *files, int digits)
{
	struct sha256 c;
	unsigned char buf[65536], sum[32];
	char hex[65];
	size_t n;

	sha256_init(&c);
	for (; *files; files++) {
		FILE *f = fopen(*files, "rb");

		if (!f) {
			fprintf(stderr, "%s: plan: %s: %s; is this the kit's checkout?\n", prog, *files,
				strerror(errno));
			exit(EXIT_BAD);
		}
		while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
			sha256_update(&c, buf, n);
		fclose(f);
	}
	sha256_final(&c, sum);
	sha256_hex(sum, hex);
	hex[digits] = '\0';
	return strdup(hex);
}

/* What COMMAND prints; with raw, as it is and whatever its exit status
 * (a probe), else with its trailing newlines off, and it must succeed. */
static char *output_of(const char *command, int raw)
{
	char buf[4096];
	size_t n = 0, got;
	FILE *p = popen(command, "r");

	if (!p) {
		fprintf(stderr, "%s: plan: cannot run %s\n", prog, command);
		exit(EXIT_BAD);
	}
	while (n < sizeof(buf) - 1 && (got = fread(buf + n, 1, sizeof(buf) - 1 - n, p)) > 0)
		n += got;
	buf[n] = '\0';
	if (pclose(p) && !raw) {
		fprintf(stderr, "%s: plan: %s failed\n", prog, command);
		exit(EXIT_BAD);
	}
	while (!raw && n && buf[n - 1] == '\n')
		buf[--n] = '\0';
	return strdup(buf);
}

static int exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* PATH as make's $(abspath) gives it: absolute, without . and .. */
static char *abspath(const char *path)
{
	char cwd[PATH_MAX], *in, *out, *tok, *save = NULL;
	size_t n = 0;

	if (!*path)
		return strdup("");
	if (path[0] == '/')
		in = strdup(path);
	else
		in = fmt("%s/%s", getcwd(cwd, sizeof(cwd)) ? cwd : ".", path);
	out = xmalloc(strlen(in) + 2);
	out[0] = '\0';
	for (tok = strtok_r(in, "/", &save); tok; tok = strtok_r(NULL, "/", &save)) {
		if (!strcmp(tok, "."))
			continue;
		if (!strcmp(tok, "..")) {
			char *slash = strrchr(out, '/');

			n = slash ? (size_t)(slash - out) : 0;
			out[n] = '\0';
			continue;
		}
		n += sprintf(out + n, "/%s", tok);
	}
	if (!n)
		strcpy(out, "/");
	free(in);
	return out;
}

/* ---- the settings of a run ---- */

enum { RESULTS, KIT_CACHE, KIT_BUILD, VERSIONS, FLAVOURS, SANITIZE, CORPUS, SHARD, GATES,
       GATES_CONFIG, GATES_ALLMOD, GATES_SHIPPED, FSTESTS, KIT_FSTESTS, FST_TESTS, FUZZ_SERIES, ARCHES, NSETTINGS };
static const char *const setting_names[NSETTINGS] = {
	"RESULTS", "KIT_CACHE", "KIT_BUILD", "VERSIONS", "FLAVOURS", "SANITIZE", "CORPUS", "SHARD",
	"GATES", "GATES_CONFIG", "GATES_ALLMOD", "GATES_SHIPPED", "FSTESTS", "KIT_FSTESTS", "FST_TESTS", "FUZZ_SERIES",
	"ARCHES",
};
static char *mk(const char *text);
static const char *set[NSETTINGS];	/* NULL: not given (its default) */
static int as_make;			/* --mk: errors are make's $(error) */

/* A bad setting: one line naming it, exit 2.  Under --mk the line is also
 * make's $(error ...), so make stops with it where it reads the plan. */
static void refuse(const char *f, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, f);
	msg = vfmt(f, ap);
	va_end(ap);
	if (as_make)
		printf("PLAN_ERROR := %s\n$(error $(PLAN_ERROR))\n", mk(msg));
	else
		fprintf(stderr, "%s\n", msg);
	exit(EXIT_BAD);
}
static struct words src_given;		/* other NAME=VALUE words given */

static const char *setting(int i)
{
	return set[i] ? set[i] : "";
}

static void read_settings(char **args)
{
	int i;

	for (; *args; args++) {
		const char *eq = strchr(*args, '=');

		if (!eq) {
			fprintf(stderr, "%s: plan: '%s' is not NAME=VALUE\n", prog, *args);
			exit(EXIT_BAD);
		}
		for (i = 0; i < NSETTINGS; i++)
			if (strlen(setting_names[i]) == (size_t)(eq - *args) &&
			    !strncmp(*args, setting_names[i], eq - *args))
				break;
		/* Any other variable may be the one a series' source names
		 * (source.tree.env: KIT_SRC_X_Y, or another). */
		if (i == NSETTINGS)
			add(&src_given, *args);
		else
			set[i] = eq + 1;
	}
	if (!set[RESULTS] || !set[KIT_CACHE] || !set[KIT_BUILD]) {
		fprintf(stderr, "%s: plan: RESULTS, KIT_CACHE and KIT_BUILD must be given\n", prog);
		exit(EXIT_BAD);
	}
}

/* A variable's value as the run gives it: a NAME=VALUE word, else the
 * environment; "" when neither has it. */
static const char *given(const char *name)
{
	size_t n = strlen(name);
	const char *e;
	int i;

	for (i = 0; i < src_given.n; i++)
		if (!strncmp(src_given.w[i], name, n) && src_given.w[i][n] == '=')
			return src_given.w[i] + n + 1;
	e = getenv(name);
	return e ? e : "";
}

/* ---- series and variants ---- */

struct planned {
	struct series *s;
	const char *kind;	/* of the source this run takes: debian, tree, tarball */
	const char *input;	/* the .deb, the tarball or the tree ("" none given) */
	const char *env;	/* the variable that names a tree or tarball */
	const char *verified;	/* matrix.yaml's verified: ("" none) */
	const char *package, *version, *suite;	/* a Debian source's pin */
	int ready;		/* the source is there (or fetched: debian) */
	char *srckey, *srcdir;
	const char *state;	/* run, skip or shard */
	const char *shard;	/* the shard a series of another shard is in */
	struct words variants;	/* what it is built as in this run */
	struct words flavours;	/* the flavours of its stack this run builds */
};

static struct planned plan[MAX_SERIES];
static int nplan;
static struct words arches;	/* ARCHES, in matrix.yaml's names */

/* The arch of a variant: what follows its '@', else the default one. */
static char *arch_of(const char *v)
{
	const char *at = strchr(v, '@');

	return strdup(at ? at + 1 : arch_name(0));
}

/* The variant without its arch: patched@arm64 is patched. */
static char *plain_of(const char *v)
{
	return fmt("%.*s", (int)strcspn(v, "@"), v);
}

/* V of ARCH: V itself on the default arch, else V@ARCH. */
static char *of_arch(const char *v, const char *arch)
{
	return strcmp(arch, arch_name(0)) ? fmt("%s@%s", v, arch) : strdup(v);
}

/* "" for the default arch, else "@ARCH": what its names carry. */
static char *arch_suffix(const char *arch)
{
	return strcmp(arch, arch_name(0)) ? fmt("@%s", arch) : strdup("");
}

static const char *field(struct series *s, const char *key)
{
	yaml_node_t *n = lookup(s, key);

	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : "";
}

/* The kind of a variant (san, fstests) or -1 for a plain one. */
static int kind_of(const char *v)
{
	char *pv = plain_of(v);
	size_t n = strlen(pv);
	int k, r = -1;

	for (k = 0; k < NKINDS && r < 0; k++) {
		size_t m = strlen(kinds[k].name);

		if (n > m + 1 && pv[n - m - 1] == '-' && !strcmp(pv + n - m, kinds[k].name))
			r = k;
	}
	free(pv);
	return r;
}

/* The stack a variant pushes: patched-san and patched@arm64 push
 * patched's. */
static char *stack_variant(const char *v)
{
	int k = kind_of(v);
	char *pv = plain_of(v), *r;

	r = k < 0 ? strdup(pv) : fmt("%.*s", (int)(strlen(pv) - strlen(kinds[k].name) - 1), pv);
	free(pv);
	return r;
}

/* The variant a variant builds on, in the same object tree ("" none):
 * patched on vanilla, a flavour on patched, each of the same arch; a
 * sanitizer tree has no vanilla, so patched-san starts from nothing. */
static char *base_of(const char *v)
{
	int k = kind_of(v);
	char *sv = stack_variant(v), *pv = plain_of(v), *a = arch_of(v), *b, *t;

	if (!strcmp(pv, "vanilla") || !strcmp(pv, "vanilla-fstests") || !strcmp(pv, "patched-san")) {
		b = strdup("");
	} else {
		t = fmt("%s%s%s", strcmp(sv, "patched") ? "patched" : "vanilla", k < 0 ? "" : "-",
			k < 0 ? "" : kinds[k].name);
		b = of_arch(t, a);
		free(t);
	}
	free(sv);
	free(pv);
	free(a);
	return b;
}

static const char *stack_hash(struct planned *p, const char *v)
{
	char *sv = stack_variant(v);
	const char *h = "";
	int i;

	for (i = 1; i < p->s->nv; i++)
		if (!strcmp(p->s->v[i].name, sv))
			h = p->s->v[i].hash;
	free(sv);
	return h;
}

static struct variant *variant_named(struct planned *p, const char *v)
{
	char *sv = stack_variant(v);
	struct variant *r = NULL;
	int i;

	for (i = 1; i < p->s->nv; i++)
		if (!strcmp(p->s->v[i].name, sv))
			r = &p->s->v[i];
	free(sv);
	return r;
}

/* The fragments a variant is configured with, in order: the kit's, its
 * arch's, its kind's; NULL-ended, in FILES (room for 4). */
static void fragments_of(const char *v, const char **files)
{
	int k = kind_of(v), n = 0;
	char *a = arch_of(v);

	files[n++] = kernel_config;
	files[n++] = arch_field(a, "config");
	if (k >= 0)
		files[n++] = kinds[k].fragment;
	files[n] = NULL;
	free(a);
}

/* The config a variant is built with: its fragments one after another
 * (KIT_BUILD/config/ARCH[-KIND].config, made by make: KIND_CONFIGS). */
static char *config_of(const char *v)
{
	int k = kind_of(v);
	char *a = arch_of(v), *c;

	c = fmt("%s/config/%s%s%s.config", setting(KIT_BUILD), a, k < 0 ? "" : "-", k < 0 ? "" : kinds[k].name);
	free(a);
	return c;
}

/* CONFIGKEY of a variant: its fragments, the scripts that build it, and
 * its arch's whole entry in matrix.yaml (compiler, target, emulator,
 * channels): an entry changed is another kernel, built and booted again. */
static char *config_key_of(const char *v)
{
	const char *f[16];
	char *a = arch_of(v), *text, *t, *k;
	int n, i;

	fragments_of(v, f);
	for (n = 0; f[n]; n++)
		;
	for (i = 0; kernel_recipe[i]; i++)
		f[n++] = kernel_recipe[i];
	f[n] = NULL;
	text = hash_files(f, 64);
	for (i = 0; arch_keys[i]; i++) {
		const char *val = arch_field(a, arch_keys[i]);

		t = fmt("%s\n%s=%s", text, arch_keys[i], val ? val : "");
		free(text);
		text = t;
	}
	k = hash_text(text, 8);
	free(text);
	free(a);
	return k;
}

static char *kdir(struct planned *p, const char *v)
{
	const char *h = stack_hash(p, v);
	char *ck = config_key_of(v), *d;

	d = fmt("%s/out/%s/%s-%s-%s%s%s", setting(KIT_CACHE), p->s->name, v, p->srckey, ck, *h ? "-" : "", h);
	free(ck);
	return d;
}

/* A kernel: its image under its arch's name (bzImage, Image). */
static char *kernel(struct planned *p, const char *v)
{
	char *d = kdir(p, v), *a = arch_of(v), *k;
	const char *img = arch_field(a, "image"), *slash = strrchr(img, '/');

	k = fmt("%s/%s", d, slash ? slash + 1 : img);
	free(d);
	free(a);
	return k;
}

/* The object tree of a series' kernels of kind K (-1 plain) and ARCH. */
static char *objdir(struct planned *p, int k, const char *arch)
{
	char *sfx = arch_suffix(arch), *o;

	o = fmt("%s/obj/%s-%s%s%s%s", setting(KIT_CACHE), p->s->name, p->srckey, k < 0 ? "" : "-",
		k < 0 ? "" : kinds[k].name, sfx);
	free(sfx);
	return o;
}

static struct planned *planned_of(const char *name)
{
	int i;

	for (i = 0; i < nplan; i++)
		if (!strcmp(plan[i].s->name, name))
			return &plan[i];
	return NULL;
}

/* Where a series' source comes from, and whether it is there. */
static void source_of(struct planned *p)
{
	char over[64], *q;
	const char *o;

	snprintf(over, sizeof(over), "KIT_SRC_%s", p->s->name);
	for (q = over; *q; q++)
		if (*q == '.')
			*q = '_';
	o = given(over);
	p->package = field(p->s, "source.debian.package");
	p->version = field(p->s, "source.debian.version");
	p->suite = field(p->s, "source.debian.suite");
	p->verified = field(p->s, "verified");
	if (*o) {
		p->kind = "tree";
	} else if (lookup(p->s, "source.debian")) {
		p->kind = "debian";
	} else {
		p->kind = lookup(p->s, "source.tree") ? "tree" : "tarball";
	}
	if (!strcmp(p->kind, "debian")) {
		p->input = fmt("%s/debs/%s_%s.deb", setting(KIT_CACHE), p->package, p->version);
		p->ready = 1;
	} else {
		char key[64];

		snprintf(key, sizeof(key), "source.%s.env",
			 lookup(p->s, "source.tree") ? "tree" : "tarball");
		p->env = field(p->s, key);
		snprintf(key, sizeof(key), "source.%s.path",
			 lookup(p->s, "source.tree") ? "tree" : "tarball");
		p->input = *o ? o : *given(p->env) ? given(p->env) : field(p->s, key);
		if ((*o || *given(p->env)) && !exists(p->input))
			refuse("%s: '%s' does not exist; give the path of a %s kernel %s, or leave %s unset",
			       *o ? over : p->env, p->input, p->s->name, p->kind, *o ? over : p->env);
		if (p->input[strcspn(p->input, " \t\n:%'\"\\")])
			refuse("%s: '%s' has a space, a colon, a %% or a quote, which make cannot name; give the %s %s by a path without them",
			       *o ? over : p->env, p->input, p->s->name, p->kind);
		p->ready = *p->input && exists(p->input);
	}
	p->srckey = hash_text(p->input, 8);
	p->srcdir = fmt("%s/src/%s-%s", setting(KIT_CACHE), p->s->name, p->srckey);
}

/*
 * The settings that are switches (docs/matrix.md: "Settings of a run"): 1 or yes
 * turns one on; 0, no or empty turns it off.  Any other value stops the
 * plan, naming it, and each is "1" or "" from here on (make's recipes
 * take the plan's, see mk_plan()).
 */
static const int switches[] = { SANITIZE, GATES, FSTESTS, CORPUS };

static void check_switches(void)
{
	size_t k;

	for (k = 0; k < sizeof(switches) / sizeof(switches[0]); k++) {
		int i = switches[k];
		const char *v = set[i];

		if (!v)
			continue;
		if (!strcmp(v, "1") || !strcmp(v, "yes"))
			set[i] = "1";
		else if (!*v || !strcmp(v, "0") || !strcmp(v, "no"))
			set[i] = "";
		else
			refuse("%s: '%s' is neither 1 nor 0 (yes or no; empty is 0)", setting_names[i], v);
	}
}

/* Each word of setting I must be a series of matrix.yaml. */
static void check_series_words(int i)
{
	struct words w;
	int j, k;

	if (!set[i])
		return;
	w = split(set[i], 0);
	for (j = 0; j < w.n; j++) {
		for (k = 0; k < nall && strcmp(all[k].name, w.w[j]); k++)
			;
		if (k == nall) {
			struct words names = { 0 };

			for (k = 0; k < nall; k++)
				add(&names, all[k].name);
			refuse("%s: '%s' is not a series of matrix.yaml (known: %s)", setting_names[i], w.w[j],
			       joined(&names));
		}
	}
}

/* The series this run plans, VERSIONS' order, each with its state. */
static void plan_series(void)
{
	struct words versions, flavours = { 0 }, all_flavours = { 0 };
	int i, j, a, n = 0;
	const char *shard = setting(SHARD);
	int by_name = 0;

	check_switches();
	if (!arch_count())
		refuse("%s: no arches: entry; the kit builds for the arches it names", file);
	arches = set[ARCHES] ? split(set[ARCHES], 1) : (struct words){ 0 };
	if (!set[ARCHES] || !arches.n)
		add(&arches, arch_name(0));
	for (i = 0; i < arches.n; i++)
		if (!arch_field(arches.w[i], "arch")) {
			struct words names = { 0 };

			for (j = 0; j < arch_count(); j++)
				add(&names, arch_name(j));
			refuse("ARCHES: '%s' is not an arch of matrix.yaml (known: %s)", arches.w[i], joined(&names));
		}
	/* The sanitizer kernels and fstests are the default arch's, held to
	 * its vanilla kernel: a run of them builds that arch. */
	if (!has(&arches, arch_name(0)) && (*setting(SANITIZE) || *setting(FSTESTS)))
		refuse("ARCHES: '%s' lacks %s, the default arch, whose kernels %s=1 builds and holds to its vanilla; add it",
		       joined(&arches), arch_name(0), *setting(SANITIZE) ? "SANITIZE" : "FSTESTS");

	if (set[VERSIONS]) {
		versions = split(set[VERSIONS], 1);
	} else {
		versions = (struct words){ 0 };
		for (i = 0; i < nall; i++)
			add(&versions, all[i].name);
	}
	for (i = 0; i < nall; i++)
		for (j = 2; j < all[i].nv; j++)
			if (!has(&all_flavours, all[i].v[j].name))
				add(&all_flavours, all[i].v[j].name);
	flavours = set[FLAVOURS] ? split(set[FLAVOURS], 1) : all_flavours;
	for (i = 0; i < flavours.n; i++)
		if (!has(&all_flavours, flavours.w[i]))
			refuse("FLAVOURS: '%s' is no flavour of any stack (known: %s; empty: none)", flavours.w[i],
			       joined(&all_flavours));
	check_series_words(VERSIONS);
	check_series_words(GATES_CONFIG);
	check_series_words(GATES_ALLMOD);
	check_series_words(GATES_SHIPPED);
	check_series_words(FUZZ_SERIES);
	if (*shard) {
		by_name = has(&versions, shard);
		if (!by_name) {
			const char *slash = strchr(shard, '/');
			size_t la = slash ? (size_t)(slash - shard) : 0, lb = slash ? strlen(slash + 1) : 0;
			long a = 0, b = 0;

			/* I and N as the digits [1-9][0-9]* (at most 9 of them) */
			if (!slash || !la || !lb || la > 9 || lb > 9 || shard[0] == '0' || slash[1] == '0' ||
			    strspn(shard, "0123456789") != la || strspn(slash + 1, "0123456789") != lb ||
			    (a = atol(shard)) > (b = atol(slash + 1)))
				refuse("SHARD: '%s' is neither I/N with 1 <= I <= N (SHARD=2/3) nor a series of VERSIONS (SHARD=6.1)",
				       shard);
			n = (int)b;
		}
	}
	for (i = 0; i < versions.n; i++) {
		struct planned *p = &plan[nplan];
		struct series *s = NULL;

		for (j = 0; j < nall; j++)
			if (!strcmp(all[j].name, versions.w[i]))
				s = &all[j];
		p->s = s;
		nplan++;
		source_of(p);
		if (!*shard)
			p->shard = "";
		else if (by_name)
			p->shard = s->name;
		else
			p->shard = fmt("%d/%d", i % n + 1, n);
		for (j = 2; j < s->nv; j++)
			if (has(&flavours, s->v[j].name))
				add(&p->flavours, s->v[j].name);
		/* Each arch's vanilla, patched and flavours, arch by arch. */
		for (a = 0; a < arches.n; a++) {
			char *w = of_arch("vanilla", arches.w[a]);

			add(&p->variants, w);
			free(w);
			w = of_arch("patched", arches.w[a]);
			add(&p->variants, w);
			free(w);
			for (j = 0; j < p->flavours.n; j++) {
				w = of_arch(p->flavours.w[j], arches.w[a]);
				add(&p->variants, w);
				free(w);
			}
		}
		if (*setting(SANITIZE)) {
			char *w;

			add(&p->variants, "patched-san");
			for (j = 0; j < p->flavours.n; j++) {
				w = fmt("%s-san", p->flavours.w[j]);
				add(&p->variants, w);
				free(w);
			}
		}
		if (*shard && strcmp(p->shard, shard))
			p->state = "shard";
		else
			p->state = p->ready ? "run" : "skip";
	}
}

/* The series whose source is there, sort -V's first and last. */
static struct words ends_of_ready(void)
{
	struct words r = { 0 }, e = { 0 };
	int i;

	for (i = 0; i < nplan; i++)
		if (plan[i].ready)
			add(&r, plan[i].s->name);
	if (!r.n)
		return e;
	qsort(r.w, r.n, sizeof(*r.w), vercmp);
	add(&e, r.w[0]);
	if (r.n > 1 && strcmp(r.w[0], r.w[r.n - 1]))
		add(&e, r.w[r.n - 1]);
	qsort(e.w, e.n, sizeof(*e.w), bytecmp);
	return e;
}

static struct words run_names(void)
{
	struct words r = { 0 };
	int i;

	for (i = 0; i < nplan; i++)
		if (!strcmp(plan[i].state, "run"))
			add(&r, plan[i].s->name);
	return r;
}

/* ---- gates and fstests ---- */

/* The Debian architecture of an arch other than the default one whose
 * linux-config a gate takes ("" for the default arch: the .deb as the
 * matrix fetches it, this machine's). */
static const char *deb_arch_of(const char *arch)
{
	const char *a = arch_field(arch, "debian_arch");

	return strcmp(arch, arch_name(0)) && a ? a : "";
}

/* The linux-config .deb of a series for ARCH's config gate: the default
 * arch's as before, another's with its Debian architecture in its name
 * (linux-config-6.1_6.1.192-3_arm64.deb). */
static char *cfgdeb(struct planned *p, const char *arch)
{
	const char *pkg = p->package, *da = deb_arch_of(arch);

	if (!strncmp(pkg, "linux-source-", 13))
		return fmt("%s/debs/linux-config-%s_%s%s%s.deb", setting(KIT_CACHE), pkg + 13, p->version,
			   *da ? "_" : "", da);
	return fmt("%s/debs/%s_%s.deb", setting(KIT_CACHE), pkg, p->version);
}

/* Whether a Debian series' config gate of ARCH makes Debian's config from
 * its source package (matrix.yaml's config_source names ARCH's
 * debian_arch) rather than taking it from linux-config-X.Y. */
static int config_from_source(struct planned *p, const char *arch)
{
	const char *da = arch_field(arch, "debian_arch");

	return da && list_has(lookup(p->s, "source.debian.config_source"), da);
}

/* The .dsc of the Debian source package a series' linux-source-X.Y is
 * built from (Debian's kernel source package is "linux"), where
 * build/fetch/fetch-source leaves it with its Debian tarball:
 * KIT_CACHE/apt/source/linux_VERSION/linux_VERSION.dsc (the name without
 * an epoch). */
#define DEB_KERNEL_SOURCE "linux"
static char *cfgdsc(struct planned *p)
{
	const char *v = strchr(p->version, ':') ? strchr(p->version, ':') + 1 : p->version;

	return fmt("%s/apt/source/%s_%s/%s_%s.dsc", setting(KIT_CACHE), DEB_KERNEL_SOURCE, p->version,
		   DEB_KERNEL_SOURCE, v);
}

static char *gate_config(struct planned *p, const char *arch)
{
	if (!strcmp(p->kind, "debian") && config_from_source(p, arch)) {
		char *d = cfgdsc(p), *c = fmt("debsrc:%s", d);

		free(d);
		return c;
	}
	if (!strcmp(p->kind, "debian")) {
		char *d = cfgdeb(p, arch), *c = fmt("distro:%s", d);

		free(d);
		return c;
	}
	return fmt("defconfig:%s", gate_fragment);
}

/* The variants the gates and fstests hold to vanilla: no sanitizer ones. */
static struct words gate_variants(struct planned *p)
{
	struct words g = { 0 };
	int i;

	add(&g, "vanilla");
	add(&g, "patched");
	for (i = 0; i < p->flavours.n; i++)
		add(&g, p->flavours.w[i]);
	return g;
}

static char *tools_id;

/* What a series' gate KIND is of: variants, stacks, source,
 * configuration and the compilers; for config@ARCH also that arch's
 * linux-config and cross compiler.  A gate result of another key is
 * stale. */
static char *gate_key(struct planned *p, const char *kind)
{
	struct words g = gate_variants(p);
	char *vs = joined(&g), *cfg = gate_config(p, arch_name(0)), *text, *k;
	const char *at = strchr(kind, '@');
	size_t n = 1;
	char *hs;
	int i;

	if (!tools_id) {
		char *v = output_of("{ gcc --version | head -1; sparse --version 2>/dev/null; }", 1);

		tools_id = hash_text(v, 8);
		free(v);
	}
	for (i = 0; i < g.n; i++)
		n += strlen(stack_hash(p, g.w[i])) + 1;
	hs = xmalloc(n);
	hs[0] = '\0';
	for (i = 0; i < g.n; i++)
		sprintf(hs + strlen(hs), "%s%s", i ? " " : "", stack_hash(p, g.w[i]));
	/* (and the member of the .deb that holds each arch's config) */
	text = fmt("%s\n%s\n%s\n%s\n%s\n%s\n", vs, hs, p->srckey, cfg, tools_id,
		   arch_field(arch_name(0), "debian_config") ? arch_field(arch_name(0), "debian_config") : "");
	if (at) {
		char *c = fmt("%sgcc --version 2>/dev/null | head -1", arch_field(at + 1, "cross"));
		char *cv = output_of(c, 1), *acfg = gate_config(p, at + 1), *t;
		const char *m = arch_field(at + 1, "debian_config");

		t = fmt("%s%s\n%s\n%s", text, acfg, m ? m : "", cv);
		free(text);
		text = t;
		free(c);
		free(cv);
		free(acfg);
	}
	k = hash_text(text, 12);
	free(vs);
	free(cfg);
	free(hs);
	free(text);
	return k;
}

static struct words gate_kinds(struct planned *p)
{
	struct words k = { 0 }, ends = ends_of_ready(), cfg, allmod, shipped;

	cfg = set[GATES_CONFIG] ? split(set[GATES_CONFIG], 0) : run_names();
	allmod = set[GATES_ALLMOD] ? split(set[GATES_ALLMOD], 0) : ends;
	shipped = set[GATES_SHIPPED] ? split(set[GATES_SHIPPED], 0) : run_names();
	/* The config gate of each arch the run builds: config for the
	 * default arch, config@ARCH (Debian's config of that arch, for a
	 * series Debian serves) for another. */
	if (has(&cfg, p->s->name)) {
		int a;

		for (a = 0; a < arches.n; a++)
			if (!strcmp(arches.w[a], arch_name(0))) {
				add(&k, "config");
			} else if (!strcmp(p->kind, "debian") && arch_field(arches.w[a], "debian_config")) {
				char *w = fmt("config@%s", arches.w[a]);

				add(&k, w);
				free(w);
			}
	}
	/* (allmodconfig: the default arch's, beside its kernels) */
	if (has(&allmod, p->s->name) && has(&arches, arch_name(0)))
		add(&k, "allmodconfig");
	add(&k, "checkpatch");
	/* (Debian's own kernel: a Debian-served series alone has one.) */
	if (!strcmp(p->kind, "debian") && has(&shipped, p->s->name))
		add(&k, "shipped");
	return k;
}

static char *gate_file(struct planned *p, const char *k)
{
	int own = !strcmp(k, "checkpatch") || !strcmp(k, "shipped");

	return fmt("%s/%s/gates/%s/%s.tsv", setting(RESULTS), p->s->name, k, own ? k : "gate");
}

/* The words of FILE before any '#' ("" lines and comments skipped);
 * with first, only each line's first word. */
static struct words file_words(const char *path, int first)
{
	struct words w = { 0 };
	char line[4096];
	FILE *f = fopen(path, "r");

	if (!f)
		return w;
	while (fgets(line, sizeof(line), f)) {
		struct words l;
		int i;

		line[strcspn(line, "#")] = '\0';
		l = split(line, 0);
		for (i = 0; i < (first && l.n ? 1 : l.n); i++)
			add(&w, l.w[i]);
	}
	fclose(f);
	return w;
}

/* The tests each fstests kernel runs: FST_TESTS when given (make
 * fstests-submission's, a test a word, DIR/NAME), else test/fstests/list;
 * less the series' expunges. */
static char *fst_tests(struct planned *p)
{
	struct words all_t, t = { 0 }, ex;
	char *path = fmt("test/fstests/expunges/%s", p->s->name);
	int i;

	if (set[FST_TESTS]) {
		all_t = split(set[FST_TESTS], 1);
		for (i = 0; i < all_t.n; i++) {
			const char *slash = strchr(all_t.w[i], '/');

			if (!slash || slash == all_t.w[i] || !slash[1] || strchr(slash + 1, '/'))
				refuse("FST_TESTS: '%s' is not a test of fstests (DIR/NAME, e.g. ext4/002)", all_t.w[i]);
		}
		if (!all_t.n)
			refuse("FST_TESTS: names no test; leave it unset for test/fstests/list");
	} else {
		all_t = file_words("test/fstests/list", 0);
	}
	ex = file_words(path, 1);
	for (i = 0; i < all_t.n; i++)
		if (!has(&ex, all_t.w[i]))
			add(&t, all_t.w[i]);
	free(path);
	return joined(&t);
}

static char *fst_root(void)
{
	char *a = abspath(setting(KIT_FSTESTS)), *h = hash_text(a, 8);
	char *r = fmt("%s/fstests/root-%s.img", setting(KIT_CACHE), h);

	free(a);
	free(h);
	return r;
}

/* ---- the plan as the report reads it ---- */

/* The image cases (test/cases/CASE with a recipe), sorted, each followed
 * by its twin (CASE~twin) when it has one: the items every boot runs. */
static struct words cases(void)
{
	struct words c = { 0 }, items = { 0 };
	struct dirent *e;
	DIR *d = opendir(cases_dir);
	int i;

	if (!d) {
		fprintf(stderr, "%s: plan: %s: %s\n", prog, cases_dir, strerror(errno));
		exit(EXIT_BAD);
	}
	while ((e = readdir(d))) {
		char *r = fmt("%s/%s/recipe", cases_dir, e->d_name);

		if (e->d_name[0] != '.' && exists(r)) {
			if (strchr(e->d_name, '~'))
				refuse("%s/%s: a case's name has no '~' (CASE~twin names its twin); rename it",
				       cases_dir, e->d_name);
			add(&c, e->d_name);
		}
		free(r);
	}
	closedir(d);
	qsort(c.w, c.n, sizeof(*c.w), bytecmp);
	for (i = 0; i < c.n; i++) {
		char *r = fmt("%s/%s/recipe", cases_dir, c.w[i]);

		add(&items, c.w[i]);
		if (has_twin(r)) {
			char *t = fmt("%s~twin", c.w[i]);

			add(&items, t);
			free(t);
		}
		free(r);
	}
	return items;
}

static int corpus_on(void)
{
	if (set[CORPUS] && *set[CORPUS] && !corpus_field("source"))
		refuse("CORPUS: matrix.yaml has no corpus: entry; leave CORPUS unset or empty");
	return set[CORPUS] ? *set[CORPUS] != '\0' : corpus_field("source") != NULL;
}

static char *corpus_dir(void)
{
	return fmt("%s/corpus/%s_%s", setting(KIT_CACHE), corpus_field("source") ? corpus_field("source") : "",
		   corpus_field("version") ? corpus_field("version") : "");
}

static char *skip_reason(struct planned *p)
{
	char over[64], *q;

	snprintf(over, sizeof(over), "KIT_SRC_%s", p->s->name);
	for (q = over; *q; q++)
		if (*q == '.')
			*q = '_';
	return fmt("%s%s%s%s: set %s to a %s.y kernel %s (stack verified on %s)",
		   *p->input ? p->kind : "no ", *p->input ? " " : p->kind,
		   *p->input ? p->input : " given", *p->input ? " does not exist" : "",
		   p->env && *p->env ? p->env : over, p->s->name, p->kind,
		   *p->verified ? p->verified : "no release");
}

static void print_tsv(void)
{
	struct words c = cases();
	int i, j;

	printf("kit\t%s\t%s/images\t%s\n", output_of("build/kit-id", 0), setting(KIT_BUILD),
	       *setting(SHARD) ? setting(SHARD) : "-");
	for (i = 0; i < c.n; i++)
		printf("case\t%s\n", c.w[i]);
	if (corpus_on())
		printf("corpus\t%s %s\t%s\n", corpus_field("source"), corpus_field("version"), corpus_dir());
	for (i = 0; i < nplan; i++) {
		struct planned *p = &plan[i];

		printf("series\t%s\t%s\t%s\t", p->s->name, p->state, p->verified);
		if (!strcmp(p->state, "run")) {
			if (!strcmp(p->kind, "debian"))
				printf("%s\tdebian %s %s\n", p->srcdir, p->package, p->version);
			else
				printf("%s\t%s %s\n", p->srcdir, p->kind, p->input);
		} else if (!strcmp(p->state, "skip")) {
			printf("%s\n", skip_reason(p));
		} else {
			printf("%s\n", p->shard);
		}
		for (j = 0; j < p->variants.n; j++) {
			const char *h = stack_hash(p, p->variants.w[j]);

			printf("cell\t%s\t%s\t%s\t%s\n", p->s->name, p->variants.w[j],
			       kernel(p, p->variants.w[j]), *h ? h : "-");
		}
		if (strcmp(p->state, "run"))
			continue;
		if (*setting(GATES)) {
			struct words k = gate_kinds(p);

			for (j = 0; j < k.n; j++) {
				char *key = gate_key(p, k.w[j]);

				printf("gate\t%s\t%s\t%s/%s/gates/%s\t%s\n", p->s->name, k.w[j], setting(RESULTS),
				       p->s->name, k.w[j], key);
				free(key);
			}
		}
		if (*setting(FSTESTS)) {
			struct words g = gate_variants(p);
			int fst = *setting(KIT_FSTESTS) != '\0';

			printf("fstests\t%s\t", p->s->name);
			if (fst)
				printf("%s/%s/fstests\t", setting(RESULTS), p->s->name);
			else
				printf("-\t");
			for (j = 0; j < g.n; j++) {
				char *v = fmt("%s-fstests", g.w[j]);

				printf("%s%s=%s", j ? " " : "", g.w[j], kernel(p, v));
				free(v);
			}
			/* (The root image the runs boot: its key is what
			 * the fstests tree and its guest were.) */
			if (fst) {
				char *root_img = fst_root();

				printf("\t%s\t-\t%s\n", fst_tests(p), root_img);
				free(root_img);
			} else {
				printf("\t%s\t%s\t-\n", fst_tests(p), fst_none);
			}
		}
	}
}

/* ---- the plan as make text ---- */

/* TEXT as make reads it back in a rule or a := value. */
static char *mk(const char *text)
{
	char *out = xmalloc(2 * strlen(text) + 1), *o = out;

	for (; *text; text++) {
		if (*text == '$')
			*o++ = '$';
		else if (*text == '#')
			*o++ = '\\';
		*o++ = *text;
	}
	*o = '\0';
	return out;
}

/* A private target variable: what TARGET's recipe reads as $(p_NAME)
 * (override: a p_NAME on make's command line changes none). */
static void tvar(const char *target, const char *name, const char *f, ...)
{
	va_list ap;
	char *v;

	va_start(ap, f);
	v = vfmt(f, ap);
	va_end(ap);
	printf("%s: override private p_%s := %s\n", mk(target), name, mk(v));
	free(v);
}

static void member(const char *list, const char *target)
{
	printf("override %s += %s\n", list, mk(target));
}

/* TARGET's prerequisites, F with its arguments. */
static void prereq(const char *target, const char *f, ...)
{
	va_list ap;
	char *v;

	va_start(ap, f);
	v = vfmt(f, ap);
	va_end(ap);
	printf("%s: %s\n", mk(target), mk(v));
	free(v);
}

static char *marker(struct planned *p, const char *what)
{
	return fmt("%s/%s/%s.failed", setting(RESULTS), p->s->name, what);
}

static void mk_source(struct planned *p)
{
	char *from = fmt("%s.from", p->srcdir), *stamp = fmt("%s.stamp", p->srcdir);
	char *objs = strdup("");
	int k, a;

	printf("\n# %s: its source (%s %s)\n", p->s->name, p->kind, p->input);
	if (!strcmp(p->kind, "debian")) {
		member("DEBS", p->input);
		tvar(p->input, "failed", "%s", marker(p, "fetch"));
		tvar(p->input, "step", "fetch");
		tvar(p->input, "series", "%s", p->s->name);
		tvar(p->input, "package", "%s", p->package);
		tvar(p->input, "version", "%s", p->version);
		tvar(p->input, "suite", "%s", p->suite);
	}
	member("SRC_FROMS", from);
	prereq(from, "%s", p->input);
	tvar(from, "failed", "%s", marker(p, "source"));
	tvar(from, "kind", "%s", p->kind);
	tvar(from, "input", "%s", p->input);
	member("SRC_STAMPS", stamp);
	prereq(stamp, "%s", from);
	tvar(stamp, "failed", "%s", marker(p, "unpack"));
	tvar(stamp, "series", "%s", p->s->name);
	tvar(stamp, "kind", "%s", p->kind);
	tvar(stamp, "input", "%s", p->input);
	tvar(stamp, "srcdir", "%s", p->srcdir);
	/* (Every object tree of the series, whatever this run builds: a
	 * source unpacked again leaves none of the old one's objects.) */
	for (a = 0; a < arch_count(); a++)
		for (k = -1; k < (a ? 0 : NKINDS); k++) {
			char *o = objdir(p, k, arch_name(a)), *t = fmt("%s%s%s", objs, *objs ? " " : "", o);

			free(objs);
			free(o);
			objs = t;
		}
	tvar(stamp, "objdirs", "%s", objs);
	/* The tree of a series by its name, for the maintainer's goals that
	 * read it (make submission, make export CHECK=1). */
	printf("SRCDIR.%s := %s\n", p->s->name, p->srcdir);
	free(from);
	free(stamp);
	free(objs);
}

static void mk_kernel(struct planned *p, const char *v)
{
	char *k = kernel(p, v), *base = base_of(v), *sv = stack_variant(v), *a = arch_of(v);
	struct variant *st = variant_named(p, v);
	char *cfg = config_of(v), *what = fmt("%s/build", v);
	struct words pk = split(arch_field(a, "packages"), 1);
	int i;

	member("KERNELS", k);
	prereq(k, "%s.stamp %s", p->srcdir, cfg);
	for (i = 0; i < pk.n; i++)
		prereq(k, "| %s/deps-%s.stamp", setting(KIT_BUILD), pk.w[i]);
	for (i = 0; kernel_recipe[i]; i++)
		prereq(k, "%s", kernel_recipe[i]);
	if (st) {
		prereq(k, "%s", st->list);
		for (i = 0; i < st->npatch; i++)
			prereq(k, "%s/%s", p->s->stack, st->patch[i]);
	}
	if (*base)
		prereq(k, "%s", kernel(p, base));
	tvar(k, "failed", "%s", marker(p, what));
	tvar(k, "series", "%s", p->s->name);
	tvar(k, "variant", "%s", v);
	tvar(k, "stackv", "%s", sv);
	tvar(k, "config", "%s", cfg);
	tvar(k, "fix_a", "%s", field(p->s, "fixes.A"));
	tvar(k, "source", "%s %s", p->kind, p->input);
	tvar(k, "srcdir", "%s", p->srcdir);
	tvar(k, "objdir", "%s", objdir(p, kind_of(v), a));
	tvar(k, "stack", "%s", p->s->stack);
	tvar(k, "kbuild", "KIT_ARCH=%s KIT_CROSS=%s KIT_TARGET=%s KIT_IMAGE=%s", arch_field(a, "arch"),
	     arch_field(a, "cross"), arch_field(a, "target"), arch_field(a, "image"));
	free(k);
	free(base);
	free(sv);
	free(a);
	free(cfg);
	free(what);
}

/* The guest program of an arch: built by its cross compiler, static;
 * KIT_BUILD/bin/guest-init for a native one, else guest-init-TRIPLET. */
static char *guest_init_of(const char *arch)
{
	const char *c = arch_field(arch, "cross");

	return *c ? fmt("%s/bin/guest-init-%.*s", setting(KIT_BUILD), (int)strlen(c) - 1, c)
		  : fmt("%s/bin/guest-init", setting(KIT_BUILD));
}

/* What a boot of variant V is given (test/guest/run-guest's Env): its
 * arch's emulator, console and KTAP channel, its guest program; a
 * sanitizer kernel more memory and time. */
static char *guest_env(const char *v)
{
	char *a = arch_of(v), *gi = guest_init_of(a), *e;

	e = fmt("KIT_QEMU='%s' KIT_CONSOLE=%s KIT_CONSOLE_QEMU='%s' KIT_KTAP=%s KIT_KTAP_QEMU='%s' KIT_GUEST_INIT=%s%s",
		arch_field(a, "qemu"), arch_field(a, "console"), arch_field(a, "console_qemu"),
		arch_field(a, "ktap"), arch_field(a, "ktap_qemu"), gi,
		kind_of(v) == 0 ? " KIT_GUEST_MEM=1G KIT_GUEST_TIMEOUT=900 KIT_GUEST_STALL=180" : "");
	free(a);
	free(gi);
	return e;
}

static void mk_variant(struct planned *p, const char *v, int corpus)
{
	const char *r = setting(RESULTS), *s = p->s->name;
	char *k = kernel(p, v), *named = fmt("%s/%s/%s.kernel", r, s, v);
	char *boot = fmt("%s/%s/%s/boot.tsv", r, s, v), *cells = fmt("%s/%s/%s/cells.json", r, s, v);
	char *what, *a = arch_of(v), *gi = guest_init_of(a), *genv = guest_env(v);
	const char *h = stack_hash(p, v);

	printf("\n# %s %s: its kernel, its boot on the image cases, its verdicts\n", s, v);
	mk_kernel(p, v);
	member("KERNEL_NAMES", named);
	tvar(named, "kernel", "%s", k);

	member("BOOTS", boot);
	prereq(boot, "%s %s %s", k, named, gi);
	what = fmt("%s/boot", v);
	tvar(boot, "failed", "%s", marker(p, what));
	free(what);
	tvar(boot, "series", "%s", s);
	tvar(boot, "variant", "%s", v);
	tvar(boot, "kernel", "%s", k);
	tvar(boot, "guest_env", "%s", genv);
	tvar(boot, "stack_hash", "%s", *h ? h : "-");

	member("VERDICTS", cells);
	member("CELLS", cells);
	prereq(cells, "%s", boot);
	/* Every variant but vanilla is held to vanilla's boot of the same
	 * arch on the unflagged images (test/judge/judge: never weaker). */
	if (strncmp(v, "vanilla", 7) || (v[7] && v[7] != '@')) {
		char *van = of_arch("vanilla", a);

		prereq(cells, "%s/%s/%s/boot.tsv", r, s, van);
		tvar(cells, "vanilla", "%s/%s/%s", r, s, van);
		free(van);
	}
	what = fmt("%s/judge", v);
	tvar(cells, "failed", "%s", marker(p, what));
	free(what);
	tvar(cells, "series", "%s", s);
	tvar(cells, "variant", "%s", v);

	if (corpus) {
		char *cb = fmt("%s/%s/corpus/%s/boot.tsv", r, s, v);
		char *cj = fmt("%s/%s/corpus/%s/judged.json", r, s, v);
		char *van;

		member("CORPUS_BOOTS", cb);
		prereq(cb, "%s %s %s", k, named, gi);
		what = fmt("corpus/%s-boot", v);
		tvar(cb, "failed", "%s", marker(p, what));
		free(what);
		tvar(cb, "series", "%s", s);
		tvar(cb, "variant", "%s", v);
		tvar(cb, "kernel", "%s", k);
		tvar(cb, "guest_env", "%s", genv);
		member("CORPUS_VERDICTS", cj);
		member("CELLS", cj);
		/* (Judged against vanilla of the same arch.) */
		van = of_arch("vanilla", a);
		prereq(cj, "%s %s/%s/corpus/%s/boot.tsv", cb, r, s, van);
		tvar(cj, "vanilla", "%s/%s/corpus/%s", r, s, van);
		free(van);
		what = fmt("corpus/%s-judge", v);
		tvar(cj, "failed", "%s", marker(p, what));
		free(what);
		tvar(cj, "series", "%s", s);
		tvar(cj, "variant", "%s", v);
		free(cb);
		free(cj);
	}
	free(k);
	free(named);
	free(boot);
	free(cells);
	free(a);
	free(gi);
	free(genv);
}

static void mk_gates(struct planned *p)
{
	struct words kinds_ = gate_kinds(p), g = gate_variants(p);
	char *key = gate_key(p, "config"), *keyfile = fmt("%s/gates/%s.key", setting(KIT_BUILD), p->s->name);
	char *stack, *vs = joined(&g);
	char *config_file = gate_file(p, "config");
	int config = has(&kinds_, "config");
	struct words files = { 0 };
	int i, j;

	for (i = 0; i < g.n; i++) {
		struct variant *st = variant_named(p, g.w[i]);

		if (!st)
			continue;
		if (!has(&files, st->list))
			add(&files, st->list);
		for (j = 0; j < st->npatch; j++) {
			char *f = fmt("%s/%s", p->s->stack, st->patch[j]);

			if (!has(&files, f))
				add(&files, f);
			free(f);
		}
	}
	qsort(files.w, files.n, sizeof(*files.w), bytecmp);
	stack = joined(&files);

	printf("\n# %s: its build gates (key %s)\n", p->s->name, key);
	member("GATE_KEYS", keyfile);
	tvar(keyfile, "key", "%s", key);
	/* The linux-config of the default arch (the shipped gate's too), and
	 * of each other arch of the run Debian builds (linux-config-X.Y:ARCH);
	 * for an arch whose config comes from the source package
	 * (config_source), that package's .dsc and Debian tarball instead,
	 * once.  Each fetch has a marker of its own (gates/fetch,
	 * gates/fetch@ARCH, gates/fetch-source), so that a fetch that
	 * succeeds never removes the failure of another; the report reads
	 * those of each gate. */
	for (i = 0, j = 0; !strcmp(p->kind, "debian") && i <= arches.n; i++) {
		const char *a = i ? arches.w[i - 1] : arch_name(0), *da = deb_arch_of(a);
		char *d, *pkg, *m;

		if (i && (!*da || !arch_field(a, "debian_config")))
			continue;
		if (config_from_source(p, a) && !j++) {
			d = cfgdsc(p);
			member("DEBSRCS", d);
			tvar(d, "failed", "%s", marker(p, "gates/fetch-source"));
			tvar(d, "series", "%s", p->s->name);
			tvar(d, "source", "%s", DEB_KERNEL_SOURCE);
			tvar(d, "version", "%s", p->version);
			tvar(d, "suite", "%s", p->suite);
			free(d);
		}
		if (i && config_from_source(p, a))
			continue;
		d = cfgdeb(p, a);
		pkg = fmt("linux-config-%s%s%s", p->package + 13, *da ? ":" : "", da);
		m = i ? fmt("gates/fetch@%s", a) : strdup("gates/fetch");
		member("DEBS", d);
		tvar(d, "failed", "%s", marker(p, m));
		tvar(d, "step", "config fetch");
		tvar(d, "series", "%s", p->s->name);
		tvar(d, "package", "%s", pkg);
		tvar(d, "version", "%s", p->version);
		tvar(d, "suite", "%s", p->suite);
		free(d);
		free(pkg);
		free(m);
	}
	for (i = 0; i < kinds_.n; i++) {
		const char *k = kinds_.w[i];
		char *f = gate_file(p, k), *what = fmt("gates/%s", k);

		/* (config@ARCH: a key of its own, and its own key file) */
		char *kkey = gate_key(p, k);
		char *kfile = strchr(k, '@') ? fmt("%s/gates/%s%s.key", setting(KIT_BUILD), p->s->name, strchr(k, '@'))
					     : strdup(keyfile);

		if (strchr(k, '@')) {
			member("GATE_KEYS", kfile);
			tvar(kfile, "key", "%s", kkey);
		}
		member("CELLS", f);
		prereq(f, "%s.stamp %s %s", p->srcdir, kfile, stack);
		/* After the kernels of its arch's variants: a gate waiting on
		 * the tree's lock would hold a JOBS slot. */
		for (j = 0; j < g.n; j++) {
			char *v = of_arch(g.w[j], strchr(k, '@') ? strchr(k, '@') + 1 : arch_name(0));
			char *kk = kernel(p, v);

			prereq(f, "| %s", kk);
			free(v);
			free(kk);
		}
		tvar(f, "failed", "%s", marker(p, what));
		tvar(f, "key", "%s", kkey);
		tvar(f, "series", "%s", p->s->name);
		tvar(f, "srcdir", "%s", p->srcdir);
		tvar(f, "stack", "%s", p->s->stack);
		tvar(f, "variants", "%s", vs);
		tvar(f, "gatedir", "%s/gates/%s-%s-%s", setting(KIT_CACHE), p->s->name, p->srckey, k);
		if (!strncmp(k, "config", 6) || !strcmp(k, "allmodconfig")) {
			int conf = !strcmp(k, "config") || !strncmp(k, "config@", 7);
			char *arch = strdup(strchr(k, '@') ? strchr(k, '@') + 1 : arch_name(0));
			char *cfg = gate_config(p, arch);
			const char *member_ = arch_field(arch, "debian_config");
			struct words pk = split(arch_field(arch, "packages"), 1);

			member("GATES_BUILD", f);
			tvar(f, "gate_config", "%s", conf ? cfg : "allmodconfig");
			/* The arch it is built for, and which of Debian's
			 * configs (build/gates/gate-build's Env). */
			tvar(f, "gate_env", "KIT_ARCH=%s KIT_CROSS=%s KIT_DEBIAN_CONFIG=%s", arch_field(arch, "arch"),
			     arch_field(arch, "cross"), member_ ? member_ : "");
			for (j = 0; j < pk.n; j++)
				prereq(f, "| %s/deps-%s.stamp", setting(KIT_BUILD), pk.w[j]);
			if (conf)
				prereq(f, "%s", strchr(cfg, ':') + 1);
			else if (config)
				prereq(f, "| %s", config_file);
			free(cfg);
			free(arch);
		} else if (!strcmp(k, "checkpatch")) {
			member("GATES_CHECKPATCH", f);
		} else {
			char *d = cfgdeb(p, arch_name(0));

			member("GATES_SHIPPED", f);
			prereq(f, "%s", d);
			if (config)
				prereq(f, "| %s", config_file);
			tvar(f, "version", "%s", p->version);
			tvar(f, "suite", "%s", p->suite);
			tvar(f, "cfgdeb", "%s", d);
			/* (Debian's kernel of the default arch, booted in its emulator.) */
			{
				char *genv = guest_env("vanilla");

				tvar(f, "guest_env", "%s", genv);
				free(genv);
			}
			free(d);
		}
		free(f);
		free(kkey);
		free(kfile);
		free(what);
	}
	free(key);
	free(keyfile);
	free(stack);
	free(vs);
	free(config_file);
}

static void mk_fstests(struct planned *p)
{
	struct words g = gate_variants(p);
	const char *r = setting(RESULTS), *s = p->s->name;
	char *verdict = fmt("%s/%s/fstests/verdict.json", r, s), *tests = fst_tests(p);
	char *root_img = fst_root(), *ex = fmt("test/fstests/expunges/%s", s);
	char *list = fmt("%s/fstests/%s.tests", setting(KIT_BUILD), s);
	int i;

	printf("\n# %s: fstests, each variant's kernel with test/fstests/kernel.config\n", s);
	/* The tests a run makes (FST_TESTS or the list, less expunges), in a
	 * file rewritten only when they change: a run of other tests is
	 * another run. */
	member("FST_LISTS", list);
	tvar(list, "tests", "%s", tests);
	for (i = 0; i < g.n; i++) {
		char *v = fmt("%s-fstests", g.w[i]), *k = kernel(p, v);
		char *t = fmt("%s/%s/fstests/%s/fstests.tsv", r, s, g.w[i]);
		char *what = fmt("fstests/%s", g.w[i]);

		mk_kernel(p, v);
		member("FST_RUNS", t);
		prereq(t, "%s %s %s", k, root_img, list);
		if (exists(ex))
			prereq(t, "%s", ex);
		prereq(verdict, "%s", t);
		tvar(t, "failed", "%s", marker(p, what));
		tvar(t, "series", "%s", s);
		tvar(t, "variant", "%s", g.w[i]);
		tvar(t, "kernel", "%s", k);
		tvar(t, "tests", "%s", tests);
		free(v);
		free(k);
		free(t);
		free(what);
	}
	member("FST_VERDICTS", verdict);
	member("CELLS", verdict);
	if (exists(ex))
		prereq(verdict, "%s", ex);
	tvar(verdict, "failed", "%s", marker(p, "fstests/judge"));
	tvar(verdict, "series", "%s", s);
	tvar(verdict, "variants", "%s", joined(&g));
	free(verdict);
	free(tests);
	free(root_img);
	free(ex);
	free(list);
}

static void print_mk(void)
{
	struct words run = run_names(), ends = ends_of_ready(), c = cases();
	struct words suites = { 0 }, fuzz, names = { 0 };
	int corpus = corpus_on();
	char *guest_inits = strdup("");
	int i, j, k, n;

	printf("# The plan of this run (build/matrix plan --mk): read by the Makefile.\n");
	/* The lists start empty, whatever make's command line says. */
	printf("override DEBS :=\noverride DEBSRCS :=\noverride SRC_FROMS :=\noverride SRC_STAMPS :=\noverride KERNELS :=\n"
	       "override KERNEL_NAMES :=\noverride BOOTS :=\noverride VERDICTS :=\noverride CORPUS_BOOTS :=\n"
	       "override CORPUS_VERDICTS :=\noverride GATE_KEYS :=\noverride GATES_BUILD :=\n"
	       "override GATES_CHECKPATCH :=\noverride GATES_SHIPPED :=\noverride FST_RUNS :=\n"
	       "override FST_VERDICTS :=\noverride FST_LISTS :=\noverride CELLS :=\noverride KIND_CONFIGS :=\noverride FUZZ_KERNELS :=\n"
	       "override GUEST_INITS :=\n");
	for (i = 0; i < nall; i++)
		add(&names, all[i].name);
	printf("SERIES_ALL := %s\n", joined(&names));
	names = (struct words){ 0 };
	for (i = 0; i < nplan; i++)
		add(&names, plan[i].s->name);
	printf("VERSIONS := %s\n", joined(&names));
	/* A switch given as 0, no, yes...: make's recipes read it as the plan did. */
	for (i = 0; i < (int)(sizeof(switches) / sizeof(switches[0])); i++)
		if (set[switches[i]])
			printf("override %s := %s\n", setting_names[switches[i]], setting(switches[i]));
	printf("RUN := %s\n", joined(&run));
	/* The newest series of the run by version (sort -V), never by the
	 * order of matrix.yaml: make submission's series. */
	{
		struct words newest = { 0 };

		for (i = 0; i < run.n; i++)
			add(&newest, run.w[i]);
		if (newest.n)
			qsort(newest.w, newest.n, sizeof(*newest.w), vercmp);
		printf("RUN_NEWEST := %s\n", newest.n ? newest.w[newest.n - 1] : "");
	}
	names = (struct words){ 0 };
	for (i = 0; i < nplan; i++)
		if (!strcmp(plan[i].state, "skip"))
			add(&names, plan[i].s->name);
	printf("SKIP := %s\n", joined(&names));
	printf("GATES_ENDS := %s\n", joined(&ends));
	printf("CASES := %s\n", joined(&c));
	for (i = 0; i < nall; i++) {
		const char *su = field(&all[i], "source.debian.suite");

		if (*su && !has(&suites, su))
			add(&suites, su);
		/* (and its deb-src line, where a config gate takes Debian's
		 * source package: config_source) */
		if (*su && lookup(&all[i], "source.debian.config_source")) {
			char *w = fmt("src:%s", su);

			if (!has(&suites, w))
				add(&suites, w);
			free(w);
		}
	}
	if (corpus_field("suite")) {
		char *w = fmt("src:%s", corpus_field("suite"));

		if (!has(&suites, w))
			add(&suites, w);
		free(w);
	}
	qsort(suites.w, suites.n, sizeof(*suites.w), bytecmp);
	printf("SUITES := %s\n", mk(joined(&suites)));
	/* The private apt state's architectures: the default arch's and those
	 * of the run's arches (matrix.yaml's debian_arch). */
	{
		struct words da = { 0 };

		for (i = -1; i < arches.n; i++) {
			const char *a = arch_field(i < 0 ? arch_name(0) : arches.w[i], "debian_arch");

			if (a && !has(&da, a))
				add(&da, a);
		}
		printf("APT_ARCHES := %s\n", joined(&da));
	}
	printf("CORPUS_DIR := %s\n", corpus ? mk(corpus_dir()) : "");
	printf("KERNEL_RECIPE :=");
	for (i = 0; kernel_recipe[i]; i++)
		printf(" %s", kernel_recipe[i]);
	printf("\n");
	/* The config of each arch, and of each kind (the default arch's):
	 * its fragments one after another. */
	for (i = 0; i < arch_count(); i++)
		for (k = -1; k < (i ? 0 : NKINDS); k++) {
			char *x = fmt("x%s%s", k < 0 ? "" : "-", k < 0 ? "" : kinds[k].name);
			char *v = of_arch(x, arch_name(i)), *cfg = config_of(v);
			const char *f[4];
			int n;

			fragments_of(v, f);
			printf("%s:", mk(cfg));
			for (n = 0; f[n]; n++)
				printf(" %s", mk(f[n]));
			printf("\noverride KIND_CONFIGS += %s\n", mk(cfg));
			free(x);
			free(v);
			free(cfg);
		}
	/* The guest program of each arch this run boots, but the native
	 * one ($(BIN)/guest-init, tools.mk): its cross compiler. */
	for (i = 0; i < arches.n; i++) {
		char *gi = guest_init_of(arches.w[i]);
		const char *c = arch_field(arches.w[i], "cross");

		if (*c && !strstr(guest_inits, gi)) {
			char *t = fmt("%s %s", guest_inits, gi);
			struct words pk = split(arch_field(arches.w[i], "packages"), 1);

			free(guest_inits);
			guest_inits = t;
			member("GUEST_INITS", gi);
			tvar(gi, "cc", "%sgcc", c);
			for (n = 0; n < pk.n; n++)
				prereq(gi, "| %s/deps-%s.stamp", setting(KIT_BUILD), pk.w[n]);
		}
		free(gi);
	}
	if (corpus) {
		char *idx = fmt("%s/index", corpus_dir());

		printf("CORPUS_INDEX := %s\n", mk(idx));
		tvar(idx, "source", "%s", corpus_field("source"));
		tvar(idx, "version", "%s", corpus_field("version"));
		tvar(idx, "suite", "%s", corpus_field("suite"));
		tvar(idx, "images", "%s", corpus_field("images"));
		free(idx);
	}
	if (*setting(FSTESTS))
		printf("FST_ROOT := %s\n", mk(fst_root()));
	printf("FST_NONE := %s\n", fst_none);

	fuzz = set[FUZZ_SERIES] ? split(set[FUZZ_SERIES], 1) : (struct words){ 0 };
	if (!set[FUZZ_SERIES]) {
		struct words sorted = run_names();

		qsort(sorted.w, sorted.n, sizeof(*sorted.w), vercmp);
		for (i = sorted.n > 2 ? sorted.n - 2 : 0; i < sorted.n; i++)
			add(&fuzz, sorted.w[i]);
	}
	printf("FUZZ_SERIES := %s\n", joined(&fuzz));
	/* The fuzzer boots the default arch's kernels, in its emulator. */
	{
		char *genv = guest_env("vanilla");

		printf("FUZZ_GUEST_ENV := %s\n", genv);
		free(genv);
	}
	for (i = 0; i < fuzz.n; i++) {
		struct planned *p = planned_of(fuzz.w[i]);

		if (!p || strcmp(p->state, "run")) {
			printf("FUZZ_ERROR := FUZZ_SERIES: '%s' is not a series this run builds (%s)\n",
			       mk(fuzz.w[i]), joined(&run));
			break;
		}
		/* (The fuzzer boots the default arch's kernels.) */
		for (j = 0; j < p->variants.n; j++)
			if (!strchr(p->variants.w[j], '@'))
				printf("override FUZZ_KERNELS += %s:%s:%s\n", p->s->name, p->variants.w[j],
			       mk(kernel(p, p->variants.w[j])));
	}

	for (i = 0; i < nplan; i++) {
		struct planned *p = &plan[i];

		if (strcmp(p->state, "run"))
			continue;
		mk_source(p);
		for (j = 0; j < p->variants.n; j++) {
			char *b = base_of(p->variants.w[j]);

			mk_variant(p, p->variants.w[j], corpus);
			/* A kernel that starts an object tree (vanilla@ARCH,
			 * patched-san) comes after the variant before it: the
			 * kernels of a series share its tree's lock, and one
			 * waiting on it would hold a JOBS slot that a kernel of
			 * another series could use. */
			if (j && !*b) {
				char *k = kernel(p, p->variants.w[j]), *prev = kernel(p, p->variants.w[j - 1]);

				prereq(k, "| %s", prev);
				free(k);
				free(prev);
			}
			free(b);
		}
		if (*setting(GATES))
			mk_gates(p);
		if (*setting(FSTESTS) && *setting(KIT_FSTESTS))
			mk_fstests(p);
	}
	/* Read to its end: the Makefile checks this came. */
	printf("PLAN_OK := 1\n");
}

int plan_main(char **args)
{
	int tsv;

	if (!args[0] || (strcmp(args[0], "--mk") && strcmp(args[0], "--tsv"))) {
		fprintf(stderr, "%s: plan: say --mk (make text) or --tsv (the plan)\n", prog);
		return EXIT_BAD;
	}
	tsv = !strcmp(args[0], "--tsv");
	as_make = !tsv;
	read_settings(args + 1);
	plan_series();
	if (tsv)
		print_tsv();
	else
		print_mk();
	return fflush(stdout) ? EXIT_BAD : 0;
}
