/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ctlparse.h: the text handling of nslogctl that needs no kernel: cgroup
 * path normalisation and the lines of /proc/nslogger/limits.
 */
#ifndef NSLOG_CTLPARSE_H
#define NSLOG_CTLPARSE_H

#include <stddef.h>

/* Fields of one line of /proc/nslogger/limits: KEY=VALUE, at most this many. */
#define NSLOGCTL_MAX_FIELDS	16

/*
 * One line: "default LIMITS" (@path NULL) or "PATH kind=KIND LIMITS STATS".
 * The strings point into the line, which is cut up in place.
 */
struct nslogctl_bucket {
	const char *path;
	int nfields;
	const char *key[NSLOGCTL_MAX_FIELDS];
	const char *val[NSLOGCTL_MAX_FIELDS];
};

int nslogctl_norm_path(const char *root, const char *arg, char *out,
		       size_t size);
int nslogctl_v2_line(const char *line, char *out, size_t size);
int nslogctl_parse_bucket(char *line, struct nslogctl_bucket *b);
const char *nslogctl_field(const struct nslogctl_bucket *b, const char *key);
int nslogctl_period(const char *s, char *out, size_t size);
int nslogctl_format_limits(const struct nslogctl_bucket *b, char *out,
			   size_t size);
int nslogctl_parent(char *path);

#endif /* NSLOG_CTLPARSE_H */
