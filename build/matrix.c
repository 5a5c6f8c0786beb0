// SPDX-License-Identifier: GPL-2.0
/*
 * matrix: read matrix.yaml with libyaml, check it against the kit's schema,
 * and print it as make variables (mk) or list the series (list).
 *
 * Every error reads "FILE:LINE:COL: what is wrong" and exits 2, so a bad
 * matrix stops the build before anything is downloaded.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#define EXIT_BAD 2

static const char *prog = "matrix";
static const char *file;
static const char *root = ".";

static void usage(void)
{
	fprintf(stderr,
		"usage: %s [-C DIR] mk|list|check FILE\n"
		"  mk     print the matrix as make variables\n"
		"  list   print the series names, one a line\n"
		"  check  validate only\n"
		"  -C DIR resolve stack folders against DIR (default .)\n",
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

/* Values go into make and shell: refuse what would need quoting. */
static const char *word(yaml_node_t *n, const char *what)
{
	const char *s = scalar(n, what);
	const char *p;

	for (p = s; *p; p++)
		if (*p <= ' ' || strchr("$#'\"\\`;&|<>()*?[]{}", *p))
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

enum mode { MODE_MK, MODE_LIST, MODE_CHECK };

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
			if (*p <= ' ')
				die_at(v, "fixes: %s: release '%s' has a space", fix, tag);
		if (!*tag)
			die_at(v, "fixes: %s: 'upstream' needs a release", fix);
	}
	snprintf(key, sizeof(key), "fix_%s", fix);
	if (m == MODE_MK)
		printf("S_%s_%s := %s\n", name, key, s);
}

static void source(enum mode m, const char *name, yaml_node_t *src)
{
	static const char *const kinds[] = { "debian", "tree", "tarball", NULL };
	static const char *const deb_keys[] = { "package", "version", "suite", NULL };
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
		out(m, name, "package", word(need(v, "package", "debian"), "package"));
		out(m, name, "version", word(need(v, "version", "debian"), "version"));
		out(m, name, "suite", word(need(v, "suite", "debian"), "suite"));
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

static void expect_overrides(enum mode m, const char *name, yaml_node_t *ex)
{
	static const char *const variants[] = { "vanilla", "patched", NULL };
	yaml_node_pair_t *p, *q;

	want_mapping(ex, "expect");
	for (p = ex->data.mapping.pairs.start; p < ex->data.mapping.pairs.top; p++) {
		const char *c = word(node(p->key), "case name");
		yaml_node_t *per = node(p->value);
		char path[4096];

		snprintf(path, sizeof(path), "%s/test/cases/%s", root, c);
		if (!is_dir(path))
			die_at(node(p->key), "expect: no image case '%s' (test/cases/%s)", c, c);
		want_mapping(per, "expect case");
		check_keys(per, "expect case", variants);
		for (q = per->data.mapping.pairs.start; q < per->data.mapping.pairs.top; q++) {
			const char *var = (char *)node(q->key)->data.scalar.value;
			const char *f = word(node(q->value), "expect file");

			snprintf(path, sizeof(path), "%s/test/cases/%s/%s", root, c, f);
			if (!is_file(path))
				die_at(node(q->value), "expect: %s: no file test/cases/%s/%s", c, c, f);
			if (m == MODE_MK)
				printf("S_%s_expect_%s_%s := %s\n", name, c, var, f);
		}
	}
}

int main(int argc, char **argv)
{
	static const char *const top_keys[] = { "series", NULL };
	static const char *const s_keys[] = {
		"name", "source", "stack", "fixes", "verified", "expect", NULL
	};
	static const char *const fix_keys[] = { "A", "B", NULL };
	yaml_parser_t parser;
	yaml_node_t *top, *list;
	yaml_node_item_t *it;
	enum mode m;
	FILE *f;
	int opt;
	char names[4096] = " ";

	while ((opt = getopt(argc, argv, "C:")) != -1) {
		if (opt == 'C')
			root = optarg;
		else
			usage();
	}
	if (argc - optind != 2)
		usage();
	if (!strcmp(argv[optind], "mk"))
		m = MODE_MK;
	else if (!strcmp(argv[optind], "list"))
		m = MODE_LIST;
	else if (!strcmp(argv[optind], "check"))
		m = MODE_CHECK;
	else
		usage();
	file = argv[optind + 1];

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

	for (it = list->data.sequence.items.start; it < list->data.sequence.items.top; it++) {
		yaml_node_t *s = node(*it), *v;
		const char *name, *stack;
		char path[4096], needle[64];

		want_mapping(s, "a series");
		check_keys(s, "series", s_keys);
		v = need(s, "name", "series");
		name = scalar(v, "name");
		if (!is_series_name(name))
			die_at(v, "name: '%s' is not a series like 6.1", name);
		snprintf(needle, sizeof(needle), " %s ", name);
		if (strstr(names, needle))
			die_at(v, "name: series '%s' listed twice", name);
		if (strlen(names) + strlen(needle) < sizeof(names))
			strcat(names, needle + 1);

		source(m, name, need(s, "source", name));

		v = need(s, "stack", name);
		stack = word(v, "stack");
		snprintf(path, sizeof(path), "%s/%s/series", root, stack);
		if (!is_file(path))
			die_at(v, "stack: folder '%s' has no quilt series file", stack);
		out(m, name, "stack", stack);

		v = need(s, "fixes", name);
		want_mapping(v, "fixes");
		check_keys(v, "fixes", fix_keys);
		fix_status(m, name, v, "A");
		fix_status(m, name, v, "B");

		if ((v = get(s, "verified")))
			out(m, name, "verified", word(v, "verified"));
		if ((v = get(s, "expect")))
			expect_overrides(m, name, v);
		if (m == MODE_LIST)
			printf("%s\n", name);
	}
	if (m == MODE_MK) {
		names[strlen(names) - 1] = '\0';
		printf("SERIES_ALL := %s\n", names + 1);
	}
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	fclose(f);
	return 0;
}
