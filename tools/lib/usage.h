/* SPDX-License-Identifier: GPL-2.0 */
/*
 * usage.h - the tools' one way to refuse a command line.
 */
#ifndef NSLOG_TOOLS_USAGE_H
#define NSLOG_TOOLS_USAGE_H

/* The exit status of a usage error, the same for every tool. */
#define TOOL_EXIT_USAGE	2

/*
 * Print "PROG: <message>" and a pointer to --help on stderr, and exit with
 * TOOL_EXIT_USAGE.
 */
void __attribute__((noreturn, format(printf, 2, 3)))
tool_usage(const char *prog, const char *fmt, ...);

#endif
