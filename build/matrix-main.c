// SPDX-License-Identifier: GPL-2.0
/*
 * build/matrix: matrix.yaml's one reader (build/matrix.c) and the planner
 * (build/plan.c) as one program.  Only this file knows both: the planner
 * uses the reader, and the reader is handed the planner to answer "plan".
 */
#include "matrix.h"
#include "plan.h"

int main(int argc, char **argv)
{
	return matrix_main(argc, argv, plan_main);
}
