// SPDX-License-Identifier: GPL-2.0
/*
 * nslogctl_rules_fuzz: nslogctl's rule text: the lines of
 * /etc/nslogger/limits.d (ctlapply.c: nslogctl_rules_add(), then which
 * rule a cgroup gets), and the text ctlparse.c reads: cgroup paths as
 * given on the command line, /proc/PID/cgroup's v2 line, the lines of
 * /proc/nslogger/limits and their periods.
 *
 * Input: [root] then lines.  Each line is read as a rule; then as a
 * cgroup path, normalised and matched against the rules read so far;
 * then as a limits line and a /proc/PID/cgroup line.
 *
 * Checked: a rule read keeps its limits in the form it was given and a
 * path of normalised names; a normalised path starts with '/', has no
 * empty, "." or ".." name and no '/' at its end (but "/"); an absolute
 * path spelled otherwise (more '/', "." names) is the same cgroup, the
 * mount point cut off alike; nslogctl_parent() climbs it to "/" one name at a time; a
 * period's shortest form is its own shortest form; formatted limits fit.
 */
#include <errno.h>
#include <limits.h>

#include "fuzz.h"
#include "nslogctl/ctlapply.h"
#include "nslogctl/ctlparse.h"

static void check_path(const char *p)
{
	char again[PATH_MAX], up[PATH_MAX];
	size_t len = strlen(p), total = len, steps = 0;

	FZ_CHECK(p[0] == '/');
	FZ_CHECK(!strstr(p, "//") && !strstr(p, "/./") &&
		 !strstr(p, "/../"));
	FZ_CHECK(len == 1 || p[len - 1] != '/');
	FZ_CHECK(strcmp(p + (len >= 2 ? len - 2 : 0), "/.") &&
		 strcmp(p + (len >= 3 ? len - 3 : 0), "/.."));
	FZ_CHECK(!nslogctl_norm_path("", p, again, sizeof(again)));
	memcpy(up, p, len + 1);
	while (nslogctl_parent(up)) {
		FZ_CHECK(strlen(up) < len && ++steps <= total);
		len = strlen(up);
	}
	FZ_CHECK(!strcmp(up, "/"));
}

/*
 * An absolute path spelled otherwise ("/a/b" as "/.//a/.//b"): the same
 * file system path, so the same cgroup.
 */
static void check_respelled(const char *root, const char *line,
			    const char *path)
{
	size_t n = strlen(line), i, k = 0;
	char *other = malloc(4 * n + 1), out[PATH_MAX];

	if (!other)
		abort();
	for (i = 0; i < n; i++) {
		if (line[i] == '/') {
			memcpy(other + k, "/.//", 4);
			k += 4;
		} else {
			other[k++] = line[i];
		}
	}
	other[k] = '\0';
	FZ_CHECK(!nslogctl_norm_path(root, other, out, sizeof(out)));
	FZ_CHECK(!strcmp(out, path));
	free(other);
}

static void check_limits_line(const char *line)
{
	struct nslogctl_bucket b;
	char *copy = fz_strndup(line, strlen(line));
	char out[256], per[32], again[32];
	int i;

	if (!nslogctl_parse_bucket(copy, &b)) {
		FZ_CHECK(b.nfields >= 0 && b.nfields <= NSLOGCTL_MAX_FIELDS);
		for (i = 0; i < b.nfields; i++)
			FZ_CHECK(!strchr(b.key[i], ' ') &&
				 !strchr(b.key[i], '='));
		if (!nslogctl_format_limits(&b, out, sizeof(out)))
			FZ_CHECK(strlen(out) < sizeof(out));
		for (i = 0; i < b.nfields; i++) {
			const char *slash = strchr(b.val[i], '/');

			if (!slash || nslogctl_period(slash + 1, per,
						      sizeof(per)))
				continue;
			FZ_CHECK(!nslogctl_period(per, again, sizeof(again)));
			FZ_CHECK(!strcmp(per, again));
		}
	}
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const roots[] = {
		"", "/sys/fs/cgroup", "/mnt/cg2/", "/",
	};
	struct fz f = { data, size };
	const char *root = roots[fz_u8(&f) & 3];
	struct nslogctl_rules rs = { 0 };
	char *text = fz_strndup(f.p, f.n), *line, *save = NULL;
	char path[PATH_MAX], v2[PATH_MAX];
	const struct nslogctl_rule *r;
	int ret, i;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		size_t before = rs.n;

		FZ_CHECK(!nslogctl_rules_add(&rs, root, line, "fuzz:1",
					     fz_null()));
		if (rs.n > before) {
			r = &rs.r[rs.n - 1];
			FZ_CHECK(r->name && r->limits && r->where);
			FZ_CHECK(strstr(r->limits, "records=") ||
				 strstr(r->limits, "bytes="));
			for (i = 0; i < r->ncomp; i++)
				FZ_CHECK(*r->comp[i] && !strchr(r->comp[i], '/') &&
					 strcmp(r->comp[i], ".") &&
					 strcmp(r->comp[i], ".."));
		}
		ret = nslogctl_norm_path(root, line, path, sizeof(path));
		if (!ret) {
			check_path(path);
			if (line[0] == '/')
				check_respelled(root, line, path);
			nslogctl_rules_match(&rs, path);
			nslogctl_rules_descend(&rs, path);
		} else {
			FZ_CHECK(ret == -EINVAL || ret == -ENAMETOOLONG);
		}
		check_limits_line(line);
		if (!nslogctl_v2_line(line, v2, sizeof(v2)))
			FZ_CHECK(!strcmp(v2, line + 3));
	}
	nslogctl_rules_free(&rs);
	free(text);
	return 0;
}
