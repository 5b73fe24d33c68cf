// SPDX-License-Identifier: GPL-2.0
/*
 * prioname: nslog -p's argument to an Android priority.
 *
 * Android's log takes one letter; util-linux logger takes syslog's level
 * names, optionally after a facility and a dot.  nslog takes both, and
 * Android's numbers, all case-insensitive:
 *
 *   form				priority
 *   v d i w e f, a (assert), s	V D I W E F, F, S (8: SILENT)
 *   2 to 8				the same number
 *   verbose debug info warn error	V D I W E
 *   fatal assert silent		F F S
 *   emerg panic alert crit		F (a program's worst is FATAL)
 *   err error			E
 *   warning warn			W
 *   notice info			I (Android has no level between I and W)
 *   debug				D
 *   FACILITY.LEVEL			LEVEL as above, syslog's names only, or
 *					0 to 7 as syslog numbers them; the
 *					FACILITY must be one of syslog's and is
 *					then ignored: a buffer is chosen with -b
 *
 * A bare number is Android's (3 is DEBUG), not syslog's (3 is err): that
 * is what nslog -p always took.  Priorities 0 (UNKNOWN) and 1 (DEFAULT)
 * are never a record's and are refused.
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>
#include <linux/nslogger.h>

#include "prioname.h"
#include "severity.h"

#define PRIO_SILENT	8

struct prio_name {
	const char *name;
	int prio;
};

/* Android's letters, and the words of both worlds. */
static const struct prio_name prio_names[] = {
	{ "v", NSLOG_PRIO_VERBOSE },	{ "verbose", NSLOG_PRIO_VERBOSE },
	{ "d", NSLOG_PRIO_DEBUG },	{ "debug", NSLOG_PRIO_DEBUG },
	{ "i", NSLOG_PRIO_INFO },	{ "info", NSLOG_PRIO_INFO },
	{ "notice", NSLOG_PRIO_INFO },
	{ "w", NSLOG_PRIO_WARN },	{ "warn", NSLOG_PRIO_WARN },
	{ "warning", NSLOG_PRIO_WARN },
	{ "e", NSLOG_PRIO_ERROR },	{ "error", NSLOG_PRIO_ERROR },
	{ "err", NSLOG_PRIO_ERROR },
	{ "f", NSLOG_PRIO_FATAL },	{ "fatal", NSLOG_PRIO_FATAL },
	{ "a", NSLOG_PRIO_FATAL },	{ "assert", NSLOG_PRIO_FATAL },
	{ "crit", NSLOG_PRIO_FATAL },	{ "alert", NSLOG_PRIO_FATAL },
	{ "emerg", NSLOG_PRIO_FATAL },	{ "panic", NSLOG_PRIO_FATAL },
	{ "s", PRIO_SILENT },		{ "silent", PRIO_SILENT },
};

/* The level names that may follow a facility: syslog's own. */
static const char *const syslog_level_names[] = {
	"emerg", "panic", "alert", "crit", "err", "error", "warning", "warn",
	"notice", "info", "debug",
};

static const char *const facility_names[] = {
	"auth", "authpriv", "cron", "daemon", "ftp", "kern", "lpr", "mail",
	"news", "security", "syslog", "user", "uucp", "local0", "local1",
	"local2", "local3", "local4", "local5", "local6", "local7",
};

#define COUNT(a)	(sizeof(a) / sizeof((a)[0]))

static int prio_by_name(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < COUNT(prio_names); i++)
		if (strlen(prio_names[i].name) == len &&
		    !strncasecmp(s, prio_names[i].name, len))
			return prio_names[i].prio;
	return NSLOG_PRIONAME_BAD;
}

static bool in_list(const char *s, size_t len, const char *const *list,
		    size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strlen(list[i]) == len && !strncasecmp(s, list[i], len))
			return true;
	return false;
}

/* "0" to "9" and nothing else: one decimal digit. */
static int one_digit(const char *s)
{
	return s[0] >= '0' && s[0] <= '9' && !s[1] ? s[0] - '0' : -1;
}

static int syslog_level(const char *s)
{
	int n = one_digit(s);

	if (n >= 0)
		return n < 8 ? nslog_severity_prio(n) :
			NSLOG_PRIONAME_BAD;
	if (!in_list(s, strlen(s), syslog_level_names,
		     COUNT(syslog_level_names)))
		return NSLOG_PRIONAME_BAD;
	return prio_by_name(s, strlen(s));
}

/**
 * nslog_prio_parse() - the Android priority that nslog -p ARG names
 * @arg: a letter, a number, a level name or FACILITY.LEVEL (see above)
 *
 * Context: any.
 * Return: the priority, 2 (VERBOSE) to 8 (SILENT); NSLOG_PRIONAME_BAD_FACILITY
 * if @arg is FACILITY.LEVEL with an unknown facility; NSLOG_PRIONAME_BAD
 * for anything else that is not a priority.
 */
int nslog_prio_parse(const char *arg)
{
	const char *dot = strchr(arg, '.');
	int n;

	if (dot) {
		if (!in_list(arg, (size_t)(dot - arg), facility_names,
			     COUNT(facility_names)))
			return NSLOG_PRIONAME_BAD_FACILITY;
		return syslog_level(dot + 1);
	}
	n = one_digit(arg);
	if (n >= 0)
		return n >= NSLOG_PRIO_VERBOSE && n <= PRIO_SILENT ? n :
			NSLOG_PRIONAME_BAD;
	return prio_by_name(arg, strlen(arg));
}
