// SPDX-License-Identifier: GPL-2.0
/*
 * ctlparse.c: nslogctl's text handling, kept apart from its system calls so
 * that tests/tools/ctlparse_test.c can run it on the host.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctlparse.h"

/*
 * @path without "." and empty names, from the root ("/a/b", "/"), into
 * @out; relative names are taken from the root.  0, -EINVAL for "..",
 * -ENAMETOOLONG.
 */
static int norm_names(const char *path, char *out, size_t size)
{
	const char *p, *end;
	size_t len = 0, n;

	for (p = path; *p; p = end) {
		while (*p == '/')
			p++;
		end = strchr(p, '/');
		if (!end)
			end = p + strlen(p);
		n = end - p;
		if (!n || (n == 1 && p[0] == '.'))
			continue;
		if (n == 2 && p[0] == '.' && p[1] == '.')
			return -EINVAL;
		if (len + 1 + n >= size)
			return -ENAMETOOLONG;
		out[len++] = '/';
		memcpy(out + len, p, n);
		len += n;
	}
	if (!len) {
		if (size < 2)
			return -ENAMETOOLONG;
		out[len++] = '/';
	}
	out[len] = '\0';
	return 0;
}

/*
 * The rest of the normalised @path below the mount point @mnt, name by
 * name (so "//sys/./fs/cgroup/a" is below "/sys/fs/cgroup"); NULL if it
 * is not below it, or @mnt is the root or no path.
 */
static const char *below_mount(const char *path, const char *mnt)
{
	char m[PATH_MAX];
	size_t n;

	if (norm_names(mnt, m, sizeof(m)) || !strcmp(m, "/"))
		return NULL;
	n = strlen(m);
	if (strncmp(path, m, n) || (path[n] && path[n] != '/'))
		return NULL;
	return path[n] ? path + n : "/";
}

/**
 * nslogctl_norm_path() - a cgroup path as /proc/nslogger/limits takes it
 * @root: where cgroup v2 is mounted ("" if unknown); a path under it is
 *	taken as a file system path and the mount point cut off
 * @arg: what the user gave: "/a/b", "a/b", "/sys/fs/cgroup/a/b", ...
 * @out: "/a/b": from the root of the hierarchy, no empty or "."
 *	components, no trailing '/'; "/" for the root
 * @size: room in @out
 *
 * The mount point (@root, else /sys/fs/cgroup) is recognised name by
 * name in an absolute @arg, however it is spelled ("//sys/./fs/cgroup/a"
 * is "/a"), so that @out is its own normal form.
 *
 * Return: 0; -EINVAL for an empty path, white space (the admin file splits
 * on it) or ".."; -ENAMETOOLONG if @out is too small.
 */
int nslogctl_norm_path(const char *root, const char *arg, char *out,
		       size_t size)
{
	const char *rest = NULL;
	char path[PATH_MAX];
	size_t len;
	int ret;

	if (!*arg || strpbrk(arg, " \t\n\r\v\f"))
		return -EINVAL;
	ret = norm_names(arg, path, sizeof(path));
	if (ret)
		return ret;
	if (arg[0] == '/' && root && *root)
		rest = below_mount(path, root);
	if (arg[0] == '/' && !rest)
		rest = below_mount(path, "/sys/fs/cgroup");
	if (!rest)
		rest = path;
	len = strlen(rest);
	if (len >= size)
		return -ENAMETOOLONG;
	memcpy(out, rest, len + 1);
	return 0;
}

/**
 * nslogctl_v2_line() - the cgroup v2 path in a line of /proc/PID/cgroup
 * @line: one line, without its newline
 * @out: the path
 * @size: room in @out
 *
 * Return: 0; -ENOENT if it is not the "0::PATH" line; -ESTALE if the
 * cgroup was removed; -ENAMETOOLONG.
 */
int nslogctl_v2_line(const char *line, char *out, size_t size)
{
	size_t n;

	if (strncmp(line, "0::", 3))
		return -ENOENT;
	line += 3;
	n = strlen(line);
	if (n > 10 && !strcmp(line + n - 10, " (deleted)"))
		return -ESTALE;
	if (n >= size)
		return -ENAMETOOLONG;
	memcpy(out, line, n + 1);
	return 0;
}

/**
 * nslogctl_parse_bucket() - split one line of /proc/nslogger/limits
 * @line: the line, without its newline; cut up in place
 * @b: its path (NULL for the "default" line) and KEY=VALUE fields
 *
 * A cgroup name may hold spaces, so the path is what comes before the
 * last " kind=".
 *
 * Return: 0, or -EINVAL if the line has neither form.
 */
int nslogctl_parse_bucket(char *line, struct nslogctl_bucket *b)
{
	char *kind = NULL, *p, *tok, *save = NULL;

	memset(b, 0, sizeof(*b));
	for (p = strstr(line, " kind="); p; p = strstr(p + 1, " kind="))
		kind = p;
	if (kind) {
		*kind = '\0';
		b->path = line;
		p = kind + 1;
	} else if (!strncmp(line, "default ", 8)) {
		p = line + 8;
	} else {
		return -EINVAL;
	}
	for (tok = strtok_r(p, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq || b->nfields == NSLOGCTL_MAX_FIELDS)
			return -EINVAL;
		*eq = '\0';
		b->key[b->nfields] = tok;
		b->val[b->nfields++] = eq + 1;
	}
	return 0;
}

/**
 * nslogctl_field() - the value of a field
 * @b: a parsed line
 * @key: the field's name
 *
 * Return: the value, or NULL if the line has no such field.
 */
const char *nslogctl_field(const struct nslogctl_bucket *b, const char *key)
{
	int i;

	for (i = 0; i < b->nfields; i++)
		if (!strcmp(b->key[i], key))
			return b->val[i];
	return NULL;
}

static const struct {
	const char *unit;
	unsigned long long ns;
} period_units[] = {		/* largest first */
	{ "h", 3600000000000ULL }, { "min", 60000000000ULL },
	{ "s", 1000000000ULL }, { "ms", 1000000ULL },
};

/**
 * nslogctl_period() - a period in its shortest exact form
 * @s: "[COUNT]UNIT", UNIT one of ms, s, min, h (the module lists periods
 *	in ms or s: "60s", "1500ms")
 * @out: the same duration with the largest unit that divides it: "1min",
 *	"1500ms"
 * @size: room in @out
 *
 * Return: 0, or -EINVAL if @s is not a period or one longer than 2^64 - 1
 * ns.
 */
int nslogctl_period(const char *s, char *out, size_t size)
{
	size_t digits = strspn(s, "0123456789"), i;
	unsigned long long n = 1, ns = 0;

	if (digits) {
		if (digits > 12)
			return -EINVAL;
		n = strtoull(s, NULL, 10);
		if (!n)
			return -EINVAL;
	}
	for (i = 0; i < sizeof(period_units) / sizeof(period_units[0]); i++) {
		if (strcmp(s + digits, period_units[i].unit))
			continue;
		/* 12 digits of hours would be some 10^24 ns */
		if (n > ULLONG_MAX / period_units[i].ns)
			return -EINVAL;
		ns = n * period_units[i].ns;
	}
	if (!ns)
		return -EINVAL;
	/* ns is a multiple of its own unit: the search ends there */
	for (i = 0; ns % period_units[i].ns; i++)
		;
	if ((size_t)snprintf(out, size, "%llu%s", ns / period_units[i].ns,
			     period_units[i].unit) >= size)
		return -EINVAL;
	return 0;
}

/**
 * nslogctl_format_limits() - the limits of a bucket, as "set" would take them
 * @b: a parsed line
 * @out: e.g. "records=10/1min records_burst=10 bytes=65536/1s
 *	bytes_burst=65536"; unlimited dimensions left out
 * @size: room in @out
 *
 * Return: 0, or -EINVAL if a rate or period does not parse or @out is
 * too small.
 */
int nslogctl_format_limits(const struct nslogctl_bucket *b, char *out,
			   size_t size)
{
	static const char *const dims[] = { "records", "bytes" };
	size_t len = 0, i;

	out[0] = '\0';
	for (i = 0; i < 2; i++) {
		char burst_key[32], period[32], num[32];
		const char *rate = nslogctl_field(b, dims[i]), *burst, *slash;
		int n;

		if (!rate || !strcmp(rate, "-"))
			continue;
		snprintf(burst_key, sizeof(burst_key), "%s_burst", dims[i]);
		burst = nslogctl_field(b, burst_key);
		slash = strchr(rate, '/');
		if (!burst || !slash || (size_t)(slash - rate) >= sizeof(num) ||
		    nslogctl_period(slash + 1, period, sizeof(period)))
			return -EINVAL;
		snprintf(num, sizeof(num), "%.*s", (int)(slash - rate), rate);
		n = snprintf(out + len, size - len, "%s%s=%s/%s %s=%s",
			     len ? " " : "", dims[i], num, period, burst_key,
			     burst);
		if (n < 0 || (size_t)n >= size - len)
			return -EINVAL;
		len += n;
	}
	return 0;
}

/**
 * nslogctl_parent() - make a normalised cgroup path its parent's
 * @path: "/a/b" becomes "/a", "/a" becomes "/"
 *
 * Return: 1, or 0 (and @path unchanged) for the root.
 */
int nslogctl_parent(char *path)
{
	char *slash = strrchr(path, '/');

	if (!slash || !strcmp(path, "/"))
		return 0;
	if (slash == path)
		slash[1] = '\0';
	else
		*slash = '\0';
	return 1;
}
