// SPDX-License-Identifier: GPL-2.0
/*
 * prune: logd's prune list.
 *
 * logd keeps its logs in its heap, to a byte budget per log; when one is
 * full it deletes records to make room, and the prune list chooses whose
 * go first ("~UID" or "~!" for the chattiest: first) and whose are kept
 * ("UID", "UID/PID", "/PID": last). nslogger's logs are rings in the
 * kernel: a full ring overwrites its oldest records, whoever wrote them,
 * and no record can be removed from the middle. What logd's pruning is
 * for, keeping one app's flood from pushing out everybody's history, the
 * kernel does before a record is stored: per-cgroup rate limits
 * (docs/ratelimit.md). So nslogd keeps the list, checks its form, shows it
 * back (clients that set it and read it see what they set), and applies
 * none of it. It is not kept across a restart, and reinit makes it the
 * default again, as logd's does.
 *
 * An entry's form: an optional "~", then "!" (the chattiest), a uid, a
 * uid and "/" and a pid or "!", or "/" and a pid; uid and pid decimal.
 */
#include <errno.h>
#include <string.h>

#include "prune.h"

/**
 * nslogd_prune_init() - the list logd starts with
 * @p: the list
 *
 * Context: any.
 */
void nslogd_prune_init(struct nslogd_prune *p)
{
	strcpy(p->list, NSLOGD_PRUNE_DEFAULT);
}

/* Decimal digits, at most 10; past them. NULL if none. */
static const char *number(const char *s)
{
	const char *p = s;

	while (*p >= '0' && *p <= '9')
		p++;
	return p == s || p - s > 10 ? NULL : p;
}

/**
 * nslogd_prune_entry_valid() - whether one entry has a prune entry's form
 * @e: the entry, NUL-terminated
 *
 * Context: any.
 * Return: true if it does.
 */
bool nslogd_prune_entry_valid(const char *e)
{
	if (*e == '~')
		e++;
	if (*e == '!')
		return e[1] == '\0';
	if (*e != '/') {
		e = number(e);
		if (!e)
			return false;
		if (*e == '\0')
			return true;
		if (*e != '/')
			return false;
		if (e[1] == '!')
			return e[2] == '\0';
	}
	e = number(e + 1);
	return e && *e == '\0';
}

/**
 * nslogd_prune_set() - replace the list
 * @p: the list
 * @entries: the new entries
 * @n: how many; 0 empties the list
 *
 * All or nothing: one bad entry, or a list longer than NSLOGD_PRUNE_MAX,
 * leaves the list as it was.
 *
 * Context: any.
 * Return: 0, or -EINVAL.
 */
int nslogd_prune_set(struct nslogd_prune *p, char *const *entries,
		     unsigned int n)
{
	char list[NSLOGD_PRUNE_MAX];
	size_t len = 0, l;
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (!nslogd_prune_entry_valid(entries[i]))
			return -EINVAL;
		l = strlen(entries[i]);
		if (len + !!i + l >= sizeof(list))
			return -EINVAL;
		if (i)
			list[len++] = ' ';
		memcpy(list + len, entries[i], l);
		len += l;
	}
	list[len] = '\0';
	memcpy(p->list, list, len + 1);
	return 0;
}
