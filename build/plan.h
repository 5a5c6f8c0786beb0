/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The planner, build/plan.c: what a run is, from matrix.yaml as
 * build/matrix.c reads it (matrix.h), the checkout and the settings.
 */
#ifndef KIT_PLAN_H
#define KIT_PLAN_H

/* plan FILE --mk|--tsv [NAME=VALUE...], once matrix_main() has read
 * FILE: the plan as make text or as plan.tsv; the exit code. */
int plan_main(char **args);

#endif
