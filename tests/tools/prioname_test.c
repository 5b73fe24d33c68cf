// SPDX-License-Identifier: GPL-2.0
/*
 * prioname_test: every form nslog -p takes, and what it refuses, with the
 * priority each one gives.
 */
#include <stdio.h>
#include <linux/nslogger.h>

#include "nslog/prioname.h"
#include "tap.h"

#define S	8	/* SILENT */
#define BAD	NSLOG_PRIONAME_BAD
#define BADFAC	NSLOG_PRIONAME_BAD_FACILITY

static const struct {
	const char *arg;
	int want;
} cases[] = {
	/* Android's letters, either case (toybox lowers them). */
	{ "v", NSLOG_PRIO_VERBOSE }, { "d", NSLOG_PRIO_DEBUG },
	{ "i", NSLOG_PRIO_INFO }, { "w", NSLOG_PRIO_WARN },
	{ "e", NSLOG_PRIO_ERROR }, { "f", NSLOG_PRIO_FATAL },
	{ "a", NSLOG_PRIO_FATAL }, { "s", S },
	{ "V", NSLOG_PRIO_VERBOSE }, { "E", NSLOG_PRIO_ERROR }, { "S", S },
	/* Android's numbers; 0, 1 and 9 are no record's priority. */
	{ "2", NSLOG_PRIO_VERBOSE }, { "3", NSLOG_PRIO_DEBUG },
	{ "7", NSLOG_PRIO_FATAL }, { "8", S },
	{ "0", BAD }, { "1", BAD }, { "9", BAD }, { "10", BAD },
	{ "-4", BAD }, { "04", BAD }, { "4x", BAD },
	/* Android's words. */
	{ "verbose", NSLOG_PRIO_VERBOSE }, { "fatal", NSLOG_PRIO_FATAL },
	{ "assert", NSLOG_PRIO_FATAL }, { "silent", S },
	/* syslog's level names, as util-linux logger takes them. */
	{ "emerg", NSLOG_PRIO_FATAL }, { "panic", NSLOG_PRIO_FATAL },
	{ "alert", NSLOG_PRIO_FATAL }, { "crit", NSLOG_PRIO_FATAL },
	{ "err", NSLOG_PRIO_ERROR }, { "error", NSLOG_PRIO_ERROR },
	{ "warning", NSLOG_PRIO_WARN }, { "warn", NSLOG_PRIO_WARN },
	{ "notice", NSLOG_PRIO_INFO }, { "info", NSLOG_PRIO_INFO },
	{ "debug", NSLOG_PRIO_DEBUG }, { "ERR", NSLOG_PRIO_ERROR },
	{ "Warning", NSLOG_PRIO_WARN },
	/* FACILITY.LEVEL: the facility is checked, then ignored. */
	{ "user.err", NSLOG_PRIO_ERROR }, { "local0.notice", NSLOG_PRIO_INFO },
	{ "local7.debug", NSLOG_PRIO_DEBUG }, { "daemon.crit", NSLOG_PRIO_FATAL },
	{ "auth.warning", NSLOG_PRIO_WARN }, { "USER.ERR", NSLOG_PRIO_ERROR },
	{ "kern.emerg", NSLOG_PRIO_FATAL }, { "authpriv.info", NSLOG_PRIO_INFO },
	/* ... with syslog's numbers after the dot: 3 is err there. */
	{ "user.0", NSLOG_PRIO_FATAL }, { "user.3", NSLOG_PRIO_ERROR },
	{ "user.4", NSLOG_PRIO_WARN }, { "user.5", NSLOG_PRIO_INFO },
	{ "user.7", NSLOG_PRIO_DEBUG }, { "user.8", BAD },
	/* ... and only syslog's level names after it. */
	{ "user.e", BAD }, { "user.verbose", BAD }, { "user.silent", BAD },
	{ "user.", BAD }, { "user.nope", BAD }, { "user.err.x", BAD },
	{ "foo.err", BADFAC }, { ".err", BADFAC }, { "local8.err", BADFAC },
	/* Not priorities at all. */
	{ "", BAD }, { "x", BAD }, { "ee", BAD }, { "infos", BAD },
	{ "inf", BAD }, { "none", BAD }, { " i", BAD }, { "i ", BAD },
};

int main(void)
{
	char what[128];
	size_t i;
	int got;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		got = nslog_prio_parse(cases[i].arg);
		snprintf(what, sizeof(what), "nslog_prio_parse(\"%s\") is %d",
			 cases[i].arg, cases[i].want);
		if (!tap_ok(got == cases[i].want, what))
			printf("#   got %d\n", got);
	}
	return tap_done();
}
