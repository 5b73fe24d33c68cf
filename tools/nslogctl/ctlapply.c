// SPDX-License-Identifier: GPL-2.0
/*
 * ctlapply.c: the rules of /etc/nslogger/limits.d (ctlapply.h): read them,
 * and tell which one a cgroup gets and which cgroups may have children
 * that get one.  nslogctl.c walks and watches the cgroup tree with these.
 */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ctlapply.h"
#include "ctlparse.h"

#define WHITE		" \t\r\n\v\f"
#define MAX_UNIT	200

static const char *const limit_keys[] = {
	"records", "records_burst", "bytes", "bytes_burst",
};

#define NKEYS	(sizeof(limit_keys) / sizeof(limit_keys[0]))

static int __attribute__((format(printf, 3, 4)))
refuse(char *err, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, size, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* The LIMIT tokens in @tok[0..@n): checked, and joined into r->limits. */
static int parse_limits(char **tok, int n, struct nslogctl_rule *r,
			char *err, size_t size)
{
	bool seen[NKEYS] = { false };
	size_t len = 0, k;
	int i;

	if (!n)
		return refuse(err, size, "no LIMIT (records=N/PERIOD, bytes=SIZE/PERIOD)");
	for (i = 0; i < n; i++) {
		const char *eq = strchr(tok[i], '=');

		for (k = 0; eq && k < NKEYS; k++)
			if (strlen(limit_keys[k]) == (size_t)(eq - tok[i]) &&
			    !strncmp(tok[i], limit_keys[k], eq - tok[i]))
				break;
		if (!eq || k == NKEYS || !eq[1])
			return refuse(err, size,
				      "'%s' is not records=, records_burst=, bytes= or bytes_burst= with a value",
				      tok[i]);
		if (seen[k])
			return refuse(err, size, "%s= given twice",
				      limit_keys[k]);
		seen[k] = true;
		len += strlen(tok[i]) + 1;
	}
	if (seen[1] && !seen[0])
		return refuse(err, size, "records_burst= without records=");
	if (seen[3] && !seen[2])
		return refuse(err, size, "bytes_burst= without bytes=");
	if (!seen[0] && !seen[2])
		return refuse(err, size, "neither records= nor bytes=");
	r->limits = malloc(len);
	if (!r->limits)
		return -ENOMEM;
	r->limits[0] = '\0';
	for (i = 0; i < n; i++) {
		if (i)
			strcat(r->limits, " ");
		strcat(r->limits, tok[i]);
	}
	return 0;
}

/* r->comp and r->ncomp from the normalised path @path. */
static int split_path(const char *path, struct nslogctl_rule *r)
{
	const char *p;
	int n = 0;

	for (p = path; *p; p++)
		n += *p == '/' && p[1];
	r->comp = calloc(n ? n : 1, sizeof(*r->comp));
	if (!r->comp)
		return -ENOMEM;
	for (p = path; *p && r->ncomp < n; ) {
		const char *end;

		p++;
		end = strchr(p, '/');
		if (!end)
			end = p + strlen(p);
		r->comp[r->ncomp] = strndup(p, end - p);
		if (!r->comp[r->ncomp])
			return -ENOMEM;
		r->ncomp++;
		p = end;
	}
	return 0;
}

/**
 * nslogctl_rule_parse() - one line of a limits.d file
 * @root: where cgroup v2 is mounted ("" if unknown), for paths given under it
 * @line: the line
 * @r: the rule, if it is one (r->where is left to the caller)
 * @err: why the line is refused
 * @errsize: room in @err
 *
 * Return: 1 for a rule, 0 for a blank or comment line, -EINVAL (@err says
 * why) or -ENOMEM.
 */
int nslogctl_rule_parse(const char *root, const char *line,
			struct nslogctl_rule *r, char *err, size_t errsize)
{
	char *copy, *tok[64], *save = NULL, *t;
	int n = 0, ret, first;

	memset(r, 0, sizeof(*r));
	line += strspn(line, WHITE);
	if (!*line || *line == '#')
		return 0;
	copy = strdup(line);
	if (!copy)
		return -ENOMEM;
	for (t = strtok_r(copy, WHITE, &save); t && n < 64;
	     t = strtok_r(NULL, WHITE, &save))
		tok[n++] = t;
	ret = -EINVAL;
	if (t) {
		refuse(err, errsize, "too many words");
		goto out;
	}
	if (strcmp(tok[0], "set") || n < 2) {
		refuse(err, errsize,
		       "expected \"set PATH LIMIT...\" or \"set --unit NAME LIMIT...\"");
		goto out;
	}
	if (!strcmp(tok[1], "--unit")) {
		const char *name = n > 2 ? tok[2] : "";

		if (!*name || strchr(name, '/') || strlen(name) > MAX_UNIT) {
			refuse(err, errsize, "--unit wants a unit name, not '%s'",
			       name);
			goto out;
		}
		r->unit = true;
		r->name = malloc(strlen(name) + sizeof(".service"));
		if (!r->name) {
			ret = -ENOMEM;
			goto out;
		}
		strcpy(r->name, name);
		if (!strchr(name, '.'))
			strcat(r->name, ".service");
		first = 3;
	} else {
		char path[PATH_MAX];

		if (tok[1][0] != '/' ||
		    nslogctl_norm_path(root, tok[1], path, sizeof(path))) {
			refuse(err, errsize,
			       "'%s' is not a cgroup path (from the root, \"/a/b\"; no \"..\")",
			       tok[1]);
			goto out;
		}
		r->name = strdup(tok[1]);
		if (!r->name || split_path(path, r)) {
			ret = -ENOMEM;
			goto out;
		}
		first = 2;
	}
	ret = parse_limits(tok + first, n - first, r, err, errsize);
	if (!ret)
		ret = 1;
out:
	free(copy);
	if (ret != 1)
		nslogctl_rule_free(r);
	return ret;
}

void nslogctl_rule_free(struct nslogctl_rule *r)
{
	int i;

	for (i = 0; i < r->ncomp; i++)
		free(r->comp[i]);
	free(r->comp);
	free(r->where);
	free(r->name);
	free(r->limits);
	memset(r, 0, sizeof(*r));
}

/**
 * nslogctl_rules_add() - parse a line and keep it if it is a rule
 * @rs: the rules
 * @root: as for nslogctl_rule_parse()
 * @line: the line
 * @where: "FILE:LINE", for messages and for the rule
 * @errs: where a refused line is reported ("nslogctl: WHERE: why")
 *
 * Return: 0 (a refused line counts in rs->errors), or -ENOMEM.
 */
int nslogctl_rules_add(struct nslogctl_rules *rs, const char *root,
		       const char *line, const char *where, FILE *errs)
{
	struct nslogctl_rule r;
	char err[512];
	int ret;

	ret = nslogctl_rule_parse(root, line, &r, err, sizeof(err));
	if (ret == -EINVAL) {
		fprintf(errs, "nslogctl: %s: %s\n", where, err);
		rs->errors++;
		return 0;
	}
	if (ret <= 0)
		return ret;
	r.where = strdup(where);
	if (!r.where)
		goto nomem;
	if (rs->n == rs->cap) {
		size_t cap = rs->cap ? 2 * rs->cap : 16;
		struct nslogctl_rule *bigger = realloc(rs->r, cap * sizeof(r));

		if (!bigger)
			goto nomem;
		rs->r = bigger;
		rs->cap = cap;
	}
	rs->r[rs->n++] = r;
	return 0;
nomem:
	nslogctl_rule_free(&r);
	return -ENOMEM;
}

static int read_file(struct nslogctl_rules *rs, const char *root,
		     const char *file, FILE *errs)
{
	char *line = NULL, where[PATH_MAX + 32];
	unsigned int lineno = 0;
	size_t cap = 0;
	int ret = 0;
	FILE *f;

	f = fopen(file, "re");
	if (!f) {
		fprintf(errs, "nslogctl: %s: %s\n", file, strerror(errno));
		rs->errors++;
		return 0;
	}
	while (!ret && getline(&line, &cap, f) >= 0) {
		snprintf(where, sizeof(where), "%s:%u", file, ++lineno);
		ret = nslogctl_rules_add(rs, root, line, where, errs);
	}
	if (!ret && ferror(f)) {
		fprintf(errs, "nslogctl: %s: %s\n", file, strerror(errno));
		rs->errors++;
	}
	free(line);
	fclose(f);
	return ret;
}

static int conf_file(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 5 &&
	       !strcmp(d->d_name + n - 5, ".conf");
}

/**
 * nslogctl_rules_read() - the rules of a file, or of a directory's *.conf
 * @rs: where they are added, after those already there
 * @root: as for nslogctl_rule_parse()
 * @path: a file, or a directory whose *.conf files are read in the order
 *	of their names (bytewise)
 * @must_exist: whether a missing @path is an error (else it has no rules)
 * @errs: where unreadable files and refused lines are reported
 *
 * Return: 0 (what could not be read counts in rs->errors), or -ENOMEM.
 */
int nslogctl_rules_read(struct nslogctl_rules *rs, const char *root,
			const char *path, bool must_exist, FILE *errs)
{
	struct dirent **names;
	struct stat st;
	int n, i, ret = 0;

	if (stat(path, &st)) {
		if (errno == ENOENT && !must_exist)
			return 0;
		fprintf(errs, "nslogctl: %s: %s\n", path, strerror(errno));
		rs->errors++;
		return 0;
	}
	if (!S_ISDIR(st.st_mode))
		return read_file(rs, root, path, errs);
	n = scandir(path, &names, conf_file, alphasort);
	if (n < 0) {
		fprintf(errs, "nslogctl: %s: %s\n", path, strerror(errno));
		rs->errors++;
		return 0;
	}
	for (i = 0; i < n; i++) {
		char file[PATH_MAX];

		if (!ret) {
			snprintf(file, sizeof(file), "%s/%s", path,
				 names[i]->d_name);
			ret = read_file(rs, root, file, errs);
		}
		free(names[i]);
	}
	free(names);
	return ret;
}

void nslogctl_rules_free(struct nslogctl_rules *rs)
{
	size_t i;

	for (i = 0; i < rs->n; i++)
		nslogctl_rule_free(&rs->r[i]);
	free(rs->r);
	memset(rs, 0, sizeof(*rs));
}

static bool is_slice(const char *name)
{
	size_t n = strlen(name);

	return n > 6 && !strcmp(name + n - 6, ".slice");
}

/*
 * The names of @path (a normalised cgroup path), split into @buf; -1 if
 * there are too many.
 */
static int split(const char *path, char *buf, size_t size, char **name,
		 int max)
{
	char *p;
	int n = 0;

	if (snprintf(buf, size, "%s", path) >= (int)size)
		return -1;
	for (p = buf; *p == '/' && p[1]; ) {
		if (n == max)
			return -1;
		*p++ = '\0';
		name[n++] = p;
		p += strcspn(p, "/");
	}
	return n;
}

/* Every name of @name[0..@n) is a slice. */
static bool all_slices(char **name, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!is_slice(name[i]))
			return false;
	return true;
}

/* The first @n names of @r's path match @name[0..@n). */
static bool prefix_matches(const struct nslogctl_rule *r, char **name, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (fnmatch(r->comp[i], name[i], FNM_PERIOD))
			return false;
	return true;
}

#define MAX_NAMES	(PATH_MAX / 2)

/**
 * nslogctl_rules_match() - the rule a cgroup gets
 * @rs: the rules
 * @path: the cgroup, a normalised path ("/a/b")
 *
 * Return: the last rule that matches @path, or NULL.
 */
const struct nslogctl_rule *
nslogctl_rules_match(const struct nslogctl_rules *rs, const char *path)
{
	static char *name[MAX_NAMES];
	char buf[PATH_MAX];
	int n = split(path, buf, sizeof(buf), name, MAX_NAMES);
	size_t i;

	if (n < 0)
		return NULL;
	for (i = rs->n; i-- > 0; ) {
		const struct nslogctl_rule *r = &rs->r[i];
		bool hit;

		if (r->unit)
			hit = n && all_slices(name, n - 1) &&
			      !fnmatch(r->name, name[n - 1], FNM_PERIOD);
		else
			hit = r->ncomp == n && prefix_matches(r, name, n);
		if (hit)
			return r;
	}
	return NULL;
}

/**
 * nslogctl_rules_descend() - may a cgroup below this one get a rule?
 * @rs: the rules
 * @path: a normalised cgroup path
 *
 * True if @path is the root or a slice whose ancestors are slices and a
 * rule names a unit, or if the names of @path match the first ones of a
 * rule's path and that path is longer.  Only such cgroups are walked and
 * watched.
 *
 * Return: whether a rule may match a cgroup below @path.
 */
bool nslogctl_rules_descend(const struct nslogctl_rules *rs,
			    const char *path)
{
	static char *name[MAX_NAMES];
	char buf[PATH_MAX];
	int n = split(path, buf, sizeof(buf), name, MAX_NAMES);
	size_t i;

	if (n < 0)
		return false;
	for (i = 0; i < rs->n; i++) {
		const struct nslogctl_rule *r = &rs->r[i];

		if (r->unit && all_slices(name, n))
			return true;
		if (!r->unit && r->ncomp > n && prefix_matches(r, name, n))
			return true;
	}
	return false;
}
