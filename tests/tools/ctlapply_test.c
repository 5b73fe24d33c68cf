// SPDX-License-Identifier: GPL-2.0
/*
 * ctlapply_test.c: the lines of /etc/nslogger/limits.d, which rule a
 * cgroup gets and which cgroups nslogctl apply walks and watches, with
 * exact expected strings.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nslogctl/ctlapply.h"
#include "tap.h"

static void test_parse_ok(void)
{
	static const struct {
		const char *line, *name, *limits, *comps;
		int unit;
	} cases[] = {
		{ "set /a/b records=10/s", "/a/b", "records=10/s", "a|b", 0 },
		{ "  set\t/sys/fs/cgroup/a//b/  records=10/s   bytes=1K/s \n",
		  "/sys/fs/cgroup/a//b/", "records=10/s bytes=1K/s", "a|b", 0 },
		{ "set / records=1/s", "/", "records=1/s", "", 0 },
		{ "set /lxc.payload.* bytes=64K/s bytes_burst=128K",
		  "/lxc.payload.*", "bytes=64K/s bytes_burst=128K",
		  "lxc.payload.*", 0 },
		{ "set --unit foo records=1/s", "foo.service", "records=1/s",
		  "", 1 },
		{ "set --unit foo.scope records=1/s records_burst=5",
		  "foo.scope", "records=1/s records_burst=5", "", 1 },
		{ "set --unit docker-*.scope records=1/s", "docker-*.scope",
		  "records=1/s", "", 1 },
	};
	struct nslogctl_rule r;
	char err[256], what[160], comps[256];
	size_t i;
	int j;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(what, sizeof(what), "parse: '%.*s'",
			 (int)strcspn(cases[i].line, "\n"), cases[i].line);
		if (!tap_int(what, nslogctl_rule_parse("/sys/fs/cgroup",
						       cases[i].line, &r, err,
						       sizeof(err)), 1)) {
			printf("#   %s\n", err);
			continue;
		}
		tap_int("parse: unit or path", r.unit, cases[i].unit);
		tap_str("parse: name", r.name, cases[i].name);
		tap_str("parse: limits", r.limits, cases[i].limits);
		comps[0] = '\0';
		for (j = 0; j < r.ncomp; j++) {
			if (j)
				strcat(comps, "|");
			strcat(comps, r.comp[j]);
		}
		tap_str("parse: the path's names", comps, cases[i].comps);
		nslogctl_rule_free(&r);
	}
}

static void test_parse_other(void)
{
	static const struct {
		const char *line, *err;
		int ret;
	} cases[] = {
		{ "", NULL, 0 },
		{ "   \t\n", NULL, 0 },
		{ "# set /a records=1/s", NULL, 0 },
		{ "  # indented comment", NULL, 0 },
		{ "clear /a", "expected \"set PATH LIMIT...\" or \"set --unit NAME LIMIT...\"", -EINVAL },
		{ "set", "expected \"set PATH LIMIT...\" or \"set --unit NAME LIMIT...\"", -EINVAL },
		{ "set /a", "no LIMIT (records=N/PERIOD, bytes=SIZE/PERIOD)", -EINVAL },
		{ "set a/b records=1/s", "'a/b' is not a cgroup path (from the root, \"/a/b\"; no \"..\")", -EINVAL },
		{ "set /a/../b records=1/s", "'/a/../b' is not a cgroup path (from the root, \"/a/b\"; no \"..\")", -EINVAL },
		{ "set --unit", "--unit wants a unit name, not ''", -EINVAL },
		{ "set --unit a/b records=1/s", "--unit wants a unit name, not 'a/b'", -EINVAL },
		{ "set --unit x", "no LIMIT (records=N/PERIOD, bytes=SIZE/PERIOD)", -EINVAL },
		{ "set /a records", "'records' is not records=, records_burst=, bytes= or bytes_burst= with a value", -EINVAL },
		{ "set /a rate=1/s", "'rate=1/s' is not records=, records_burst=, bytes= or bytes_burst= with a value", -EINVAL },
		{ "set /a records=", "'records=' is not records=, records_burst=, bytes= or bytes_burst= with a value", -EINVAL },
		{ "set /a records=1/s records=2/s", "records= given twice", -EINVAL },
		{ "set /a records_burst=2", "records_burst= without records=", -EINVAL },
		{ "set /a records=1/s bytes_burst=4096", "bytes_burst= without bytes=", -EINVAL },
	};
	struct nslogctl_rule r;
	char err[256], what[160], many[1024];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(what, sizeof(what), "parse: '%.*s'",
			 (int)strcspn(cases[i].line, "\n"), cases[i].line);
		err[0] = '\0';
		tap_int(what, nslogctl_rule_parse("", cases[i].line, &r, err,
						  sizeof(err)), cases[i].ret);
		if (cases[i].err)
			tap_str("parse: the reason", err, cases[i].err);
	}
	strcpy(many, "set /a");
	for (i = 0; i < 63; i++)
		strcat(many, " records=1/s");
	tap_int("parse: 65 words", nslogctl_rule_parse("", many, &r, err,
						       sizeof(err)), -EINVAL);
	tap_str("parse: 65 words, the reason", err, "too many words");
}

static struct nslogctl_rules rules_of(const char *const *lines, size_t n)
{
	struct nslogctl_rules rs = { 0 };
	char where[32];
	size_t i;

	for (i = 0; i < n; i++) {
		snprintf(where, sizeof(where), "test:%zu", i + 1);
		if (nslogctl_rules_add(&rs, "", lines[i], where, stderr))
			abort();
	}
	return rs;
}

static void test_match(void)
{
	static const char *const lines[] = {
		"set --unit foo records=1/s",
		"set /lxc.payload.* records=2/s",
		"set /lxc.payload.web/system.slice/*.service records=3/s",
		"set --unit getty@*.service records=4/s",
		"set /system.slice/foo.service records=5/s",
		"set /x* records=6/s",
	};
	static const struct {
		const char *path, *where;
	} cases[] = {
		{ "/system.slice/foo.service", "test:5" },
		{ "/system.slice/other.slice/foo.service", "test:1" },
		{ "/foo.service", "test:1" },
		{ "/user.slice/user-1000.slice/user@1000.service/app.slice/foo.service", NULL },
		{ "/system.slice/system-getty.slice/getty@tty1.service", "test:4" },
		{ "/system.slice/getty@.service", "test:4" },
		{ "/system.slice/getty.service", NULL },
		{ "/lxc.payload.web", "test:2" },
		{ "/lxc.payload.web/system.slice", NULL },
		{ "/lxc.payload.web/system.slice/foo.service", "test:3" },
		{ "/lxc.payload.web/system.slice/foo.scope", NULL },
		{ "/lxc.payload.web/x/foo.service", NULL },
		{ "/lxc.payload.db/system.slice/foo.service", NULL },
		{ "/xyz", "test:6" },
		{ "/x", "test:6" },
		{ "/.x", NULL },
		{ "/", NULL },
		{ "/system.slice", NULL },
	};
	struct nslogctl_rules rs = rules_of(lines, ARRAY_SIZE(lines));
	char what[160];
	size_t i;

	tap_int("match: 6 rules", rs.n, 6);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct nslogctl_rule *r;
		const char *want = cases[i].where;

		r = nslogctl_rules_match(&rs, cases[i].path);
		snprintf(what, sizeof(what), "match: %s gets %s", cases[i].path,
			 want ?: "no rule");
		if (!want)
			tap_ok(!r, what);
		else if (tap_ok(r, what))
			tap_str(what, r->where, want);
	}
	nslogctl_rules_free(&rs);
}

static void test_descend(void)
{
	static const char *const with_units[] = {
		"set --unit foo records=1/s",
		"set /lxc.payload.web/system.slice/*.service records=3/s",
	};
	static const char *const paths_only[] = {
		"set /machine.slice/*.scope/payload records=1/s",
		"set / records=1/s",
	};
	static const struct {
		int set;
		const char *path;
		int want;
	} cases[] = {
		{ 0, "/", 1 },
		{ 0, "/system.slice", 1 },
		{ 0, "/system.slice/system-getty.slice", 1 },
		{ 0, "/system.slice/foo.service", 0 },
		{ 0, "/user.slice/user-1000.slice/user@1000.service", 0 },
		{ 0, "/lxc.payload.web", 1 },
		{ 0, "/lxc.payload.web/system.slice", 1 },
		{ 0, "/lxc.payload.web/system.slice/a.service", 0 },
		{ 0, "/lxc.payload.db", 0 },
		{ 1, "/", 1 },
		{ 1, "/system.slice", 0 },
		{ 1, "/machine.slice", 1 },
		{ 1, "/machine.slice/m.scope", 1 },
		{ 1, "/machine.slice/m.service", 0 },
		{ 1, "/machine.slice/m.scope/payload", 0 },
	};
	struct nslogctl_rules rs[2] = {
		rules_of(with_units, ARRAY_SIZE(with_units)),
		rules_of(paths_only, ARRAY_SIZE(paths_only)),
	};
	char what[160];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		static const char *const into[] = { "not into", "into" };
		static const char *const set[] = {
			"units and paths", "paths only"
		};

		snprintf(what, sizeof(what), "descend: %s %s (%s)",
			 into[cases[i].want], cases[i].path, set[cases[i].set]);
		tap_int(what, nslogctl_rules_descend(&rs[cases[i].set],
						     cases[i].path),
			cases[i].want);
	}
	tap_ok(nslogctl_rules_match(&rs[1], "/"),
	       "match: a rule on / matches the root");
	nslogctl_rules_free(&rs[0]);
	nslogctl_rules_free(&rs[1]);
}

static void put_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f))
		abort();
}

static void test_read(void)
{
	char dir[] = "/tmp/nslog_ctlapply.XXXXXX", path[512], *msgs = NULL;
	struct nslogctl_rules rs = { 0 };
	size_t msgs_len = 0;
	FILE *errs;

	errs = open_memstream(&msgs, &msgs_len);
	if (!mkdtemp(dir) || !errs)
		abort();
	put_file(dir, "20-b.conf", "set /b records=2/s\n");
	put_file(dir, "10-a.conf",
		 "# a\n\nset /a records=1/s\nnonsense\nset --unit u bytes=4K/s");
	put_file(dir, "README", "set /readme records=1/s\n");
	put_file(dir, ".hidden.conf", "set /hidden records=1/s\n");
	put_file(dir, "30-c.conf~", "set /backup records=1/s\n");
	tap_int("read: a directory", nslogctl_rules_read(&rs, "", dir, true,
							 errs), 0);
	fflush(errs);
	tap_int("read: the *.conf files' rules only", rs.n, 3);
	if (rs.n == 3) {
		snprintf(path, sizeof(path), "%s/10-a.conf:3", dir);
		tap_str("read: by file name, then line", rs.r[0].where, path);
		tap_str("read: the first rule", rs.r[0].name, "/a");
		tap_str("read: a last line without a newline", rs.r[1].name,
			"u.service");
		tap_str("read: 20-b.conf after 10-a.conf", rs.r[2].name, "/b");
	}
	tap_int("read: one line refused", rs.errors, 1);
	snprintf(path, sizeof(path),
		 "nslogctl: %s/10-a.conf:4: expected \"set PATH LIMIT...\" or \"set --unit NAME LIMIT...\"\n",
		 dir);
	tap_str("read: the refusal names the file and line", msgs, path);
	nslogctl_rules_free(&rs);

	snprintf(path, sizeof(path), "%s/20-b.conf", dir);
	nslogctl_rules_read(&rs, "", path, true, errs);
	tap_int("read: one file", rs.n, 1);
	nslogctl_rules_free(&rs);

	snprintf(path, sizeof(path), "%s/none", dir);
	tap_int("read: a missing default directory",
		nslogctl_rules_read(&rs, "", path, false, errs), 0);
	tap_int("read: ... has no rules and is no error", rs.n + rs.errors, 0);
	nslogctl_rules_read(&rs, "", path, true, errs);
	tap_int("read: a missing file that was asked for is an error",
		rs.errors, 1);
	nslogctl_rules_free(&rs);
	fclose(errs);
	free(msgs);

	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	if (system(path))
		abort();
}

int main(void)
{
	test_parse_ok();
	test_parse_other();
	test_match();
	test_descend();
	test_read();
	return tap_done();
}
