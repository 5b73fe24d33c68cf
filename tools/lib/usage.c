// SPDX-License-Identifier: GPL-2.0
/*
 * usage.c - the tools' usage errors (usage.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "usage.h"

void tool_usage(const char *prog, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help' for more information.\n", prog);
	exit(TOOL_EXIT_USAGE);
}
