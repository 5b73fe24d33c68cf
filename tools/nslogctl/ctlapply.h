/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ctlapply.h: the rules of /etc/nslogger/limits.d that "nslogctl apply"
 * puts in force: reading them, and which cgroup each one is for.  No
 * system call but reading the files, so tests/tools/ctlapply_test.c runs it on
 * the host.
 *
 * A rule is one line:
 *
 *	set PATH LIMIT...	PATH a cgroup path from the root of the
 *				hierarchy; its names may hold the wildcards
 *				* ? [...] of fnmatch(3), within one name
 *	set --unit NAME LIMIT...
 *				the cgroup named NAME (".service" added if it
 *				has no '.'; wildcards too) whose ancestors are
 *				all slices: a unit of the host's systemd
 *
 * LIMIT is records=, records_burst=, bytes= or bytes_burst=, as
 * /proc/nslogger/limits takes them.  Blank lines and lines starting with
 * '#' are ignored.  Of the rules that match a cgroup, the last one read
 * counts.
 */
#ifndef NSLOG_CTLAPPLY_H
#define NSLOG_CTLAPPLY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct nslogctl_rule {
	char *where;		/* "FILE:LINE" */
	bool unit;		/* --unit NAME, else a path */
	char *name;		/* the unit's name, or the path as given */
	char **comp;		/* a path's names ("/" has none) */
	int ncomp;
	char *limits;		/* "records=10/s bytes=64K/s" */
};

struct nslogctl_rules {
	struct nslogctl_rule *r;
	size_t n, cap;
	int errors;		/* lines refused while reading */
};

int nslogctl_rule_parse(const char *root, const char *line,
			struct nslogctl_rule *r, char *err, size_t errsize);
void nslogctl_rule_free(struct nslogctl_rule *r);

int nslogctl_rules_add(struct nslogctl_rules *rs, const char *root,
		       const char *line, const char *where, FILE *errs);
int nslogctl_rules_read(struct nslogctl_rules *rs, const char *root,
			const char *path, bool must_exist, FILE *errs);
void nslogctl_rules_free(struct nslogctl_rules *rs);

const struct nslogctl_rule *
nslogctl_rules_match(const struct nslogctl_rules *rs, const char *path);
bool nslogctl_rules_descend(const struct nslogctl_rules *rs,
			    const char *path);

#endif /* NSLOG_CTLAPPLY_H */
