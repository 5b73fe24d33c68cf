/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prioname: the priority of a record as nslog -p takes it, in the forms of
 * Android's log (letters, numbers) and util-linux logger (syslog's level
 * names, facility.level).
 */
#ifndef NSLOG_PRIONAME_H
#define NSLOG_PRIONAME_H

/* Why nslog_prio_parse() refused its argument. */
enum nslog_prioname_err {
	NSLOG_PRIONAME_BAD		= -1,	/* not a priority */
	NSLOG_PRIONAME_BAD_FACILITY	= -2,	/* FACILITY.LEVEL, unknown FACILITY */
};

int nslog_prio_parse(const char *arg);

#endif /* NSLOG_PRIONAME_H */
