/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What build/matrix.c reads out of matrix.yaml and the stacks, for
 * build/plan.c, which plans a run from it.
 */
#ifndef KIT_MATRIX_H
#define KIT_MATRIX_H

#include <yaml.h>

#define EXIT_ABSENT 1
#define EXIT_BAD 2

#define MAX_SERIES 64
#define MAX_VARIANTS 8
#define MAX_PATCHES 64
#define MAX_ARCHES 8

/* What one series is built as: vanilla, patched (series), each flavour F
 * (series.F), with the patches each pushes and their identity. */
struct variant {
	char name[32];
	char list[1024];			/* the quilt series file, under root */
	char *patch[MAX_PATCHES];		/* as written in the series file */
	int npatch;
	char hash[13];
};

struct series {
	const char *name;
	yaml_node_t *node, *stack_node;
	const char *stack;
	struct variant v[MAX_VARIANTS];
	int nv;
};

/* The series of matrix.yaml, in the file's order (all checked). */
extern struct series all[MAX_SERIES];
extern int nall;
extern const char *prog, *file, *root, *cases_dir;

/* A field below one series by its dotted path (source.debian.version),
 * or NULL. */
yaml_node_t *lookup(struct series *s, const char *key);
/* The corpus: entry's field (source, version, suite, images), or NULL
 * when matrix.yaml has no corpus. */
const char *corpus_field(const char *key);
/* Whether L, a list of words (a YAML sequence of scalars) checked when
 * read, holds W; 0 for NULL or anything but a list. */
int list_has(yaml_node_t *l, const char *w);

/* The arches: entry: how many, the Ith's name (the first is the
 * default one), and a field of the one named (NULL: no such arch). */
int arch_count(void);
const char *arch_name(int i);
const char *arch_field(const char *name, const char *key);
extern const char *const arch_keys[];

/* Whether a case's recipe sets shared_blocks, so that it has a twin. */
int has_twin(const char *recipe);

/* build/matrix's command line: read and check FILE (matrix.yaml), then
 * answer the question asked; "plan" is answered by PLAN, called with its
 * arguments once the file is read.  (build/matrix-main.c passes
 * build/plan.c's plan_main: this file knows nothing of the planner, which
 * uses what is declared here.)  The exit code. */
int matrix_main(int argc, char **argv, int (*plan)(char **args));

#endif
