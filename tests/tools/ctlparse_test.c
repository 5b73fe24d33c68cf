// SPDX-License-Identifier: GPL-2.0
/*
 * ctlparse_test.c: nslogctl's cgroup paths and its reading of
 * /proc/nslogger/limits lines, with exact expected strings.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nslogctl/ctlparse.h"
#include "tap.h"

static void test_paths(void)
{
	static const struct {
		const char *root, *arg, *want;
		int err;
	} cases[] = {
		{ "/sys/fs/cgroup", "/a/b", "/a/b", 0 },
		{ "/sys/fs/cgroup", "a/b", "/a/b", 0 },
		{ "/sys/fs/cgroup", "/sys/fs/cgroup/a/b", "/a/b", 0 },
		{ "/sys/fs/cgroup", "/sys/fs/cgroup", "/", 0 },
		{ "/sys/fs/cgroup", "/sys/fs/cgroupx/a", "/sys/fs/cgroupx/a", 0 },
		{ "/mnt/cg2", "/mnt/cg2/a", "/a", 0 },
		{ "/mnt/cg2/", "/mnt/cg2/a/", "/a", 0 },
		{ "/mnt/cg2", "/sys/fs/cgroup/x.service", "/x.service", 0 },
		{ "", "//a/./b//", "/a/b", 0 },
		{ "", "/", "/", 0 },
		{ "", "", NULL, -EINVAL },
		{ "", "/a b", NULL, -EINVAL },
		{ "", "/a\tb", NULL, -EINVAL },
		{ "", "/a/../b", NULL, -EINVAL },
		{ "", "/a/..", NULL, -EINVAL },
		{ "", "/a/..b", "/a/..b", 0 },
	};
	char out[64], what[160];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		int err = nslogctl_norm_path(cases[i].root, cases[i].arg, out,
					     sizeof(out));

		snprintf(what, sizeof(what), "path: '%s' under '%s'",
			 cases[i].arg, cases[i].root);
		if (cases[i].want) {
			if (tap_int(what, err, 0))
				tap_str(what, out, cases[i].want);
		} else {
			tap_int(what, err, cases[i].err);
		}
	}
	tap_int("path: too long for the buffer",
		nslogctl_norm_path("", "/aaaa/bbbb", out, 10), -ENAMETOOLONG);
	tap_int("path: exactly fits", nslogctl_norm_path("", "/aaaa/bbb", out, 10),
		0);
}

/*
 * Found by tests/fuzz (nslogctl_rules_fuzz): the mount point was cut off
 * only when spelled as given, so "//sys/fs/cgroup/a" or
 * "/sys/./fs/cgroup/a", the same file system path as "/sys/fs/cgroup/a",
 * became the cgroup "/sys/fs/cgroup/a", and normalising the result again
 * gave "/a": the mount point is matched name by name now.
 */
static void test_paths_mount_spelled_otherwise(void)
{
	static const struct {
		const char *root, *arg, *want;
	} cases[] = {
		{ "/sys/fs/cgroup", "//sys/fs/cgroup/a", "/a" },
		{ "", "/sys//fs/cgroup/a/", "/a" },
		{ "", "/sys/./fs/cgroup/a", "/a" },
		{ "/mnt/cg2", "/mnt//cg2//a", "/a" },
		{ "//mnt/./cg2/", "/mnt/cg2/a", "/a" },
		{ "", "//sys/fs/cgroup", "/" },
		{ "", "sys/fs/cgroup/a", "/sys/fs/cgroup/a" },
	};
	char out[64], again[64], what[160];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		int err = nslogctl_norm_path(cases[i].root, cases[i].arg, out,
					     sizeof(out));

		snprintf(what, sizeof(what), "path: '%s' under '%s'",
			 cases[i].arg, cases[i].root);
		if (tap_int(what, err, 0))
			tap_str(what, out, cases[i].want);
		snprintf(what, sizeof(what),
			 "path: '%s' under '%s', normalised again", cases[i].arg,
			 cases[i].root);
		err = nslogctl_norm_path(cases[i].root, out, again,
					 sizeof(again));
		if (tap_int(what, err, 0) && cases[i].arg[0] == '/')
			tap_str(what, again, out);
	}
	tap_int("path: the mount point cut off, then it fits",
		nslogctl_norm_path("", "/sys/fs/cgroup/ab", out, 4), 0);
}

static void test_v2_line(void)
{
	char out[64];

	tap_int("cgroup line: 0::/a/b", nslogctl_v2_line("0::/a/b", out,
							  sizeof(out)), 0);
	tap_str("cgroup line: its path", out, "/a/b");
	tap_int("cgroup line: a v1 line is not it",
		nslogctl_v2_line("3:pids:/a", out, sizeof(out)), -ENOENT);
	tap_int("cgroup line: a removed cgroup",
		nslogctl_v2_line("0::/a (deleted)", out, sizeof(out)), -ESTALE);
}

static void test_bucket(void)
{
	char line[] = "/my cg/x kind=rule records=10/60s records_burst=5 bytes=- bytes_burst=- accepted=3 accepted_bytes=30 dropped=1 dropped_bytes=10 tokens=4 byte_tokens=-";
	char dline[] = "default records=10000/30s records_burst=10000 bytes=- bytes_burst=-";
	char both[] = "/b kind=default records=100/1500ms records_burst=100 bytes=65536/3600s bytes_burst=131072 accepted=0";
	char bad[] = "nonsense";
	char bytes_only[] = "/c kind=rule records=- records_burst=- bytes=8192/1s bytes_burst=8192";
	struct nslogctl_bucket b;
	char out[256];

	tap_int("bucket: a rule line parses", nslogctl_parse_bucket(line, &b), 0);
	tap_str("bucket: a path with a space", b.path, "/my cg/x");
	tap_str("bucket: kind", nslogctl_field(&b, "kind"), "rule");
	tap_str("bucket: dropped", nslogctl_field(&b, "dropped"), "1");
	tap_ok(!nslogctl_field(&b, "nope"), "bucket: no such field is NULL");
	tap_int("bucket: limits format", nslogctl_format_limits(&b, out,
								sizeof(out)), 0);
	tap_str("bucket: records only, 60s is 1min", out,
		"records=10/1min records_burst=5");

	tap_int("bucket: the default line", nslogctl_parse_bucket(dline, &b), 0);
	tap_ok(!b.path, "bucket: the default has no path");
	nslogctl_format_limits(&b, out, sizeof(out));
	tap_str("bucket: the default's limits", out,
		"records=10000/30s records_burst=10000");

	nslogctl_parse_bucket(both, &b);
	nslogctl_format_limits(&b, out, sizeof(out));
	tap_str("bucket: both dimensions, ms and h", out,
		"records=100/1500ms records_burst=100 bytes=65536/1h bytes_burst=131072");

	nslogctl_parse_bucket(bytes_only, &b);
	nslogctl_format_limits(&b, out, sizeof(out));
	tap_str("bucket: bytes only", out, "bytes=8192/1s bytes_burst=8192");

	tap_int("bucket: a line of neither form",
		nslogctl_parse_bucket(bad, &b), -EINVAL);
	strcpy(both, "/b kind=rule records=100/1500ms records_burst=100");
	nslogctl_parse_bucket(both, &b);
	tap_int("bucket: no room for the limits",
		nslogctl_format_limits(&b, out, 20), -EINVAL);
}

static void test_period(void)
{
	static const struct { const char *in, *want; } cases[] = {
		{ "1s", "1s" }, { "s", "1s" }, { "60s", "1min" },
		{ "120s", "2min" }, { "90s", "90s" }, { "3600s", "1h" },
		{ "86400s", "24h" }, { "1000ms", "1s" }, { "1500ms", "1500ms" },
		{ "1ms", "1ms" }, { "min", "1min" }, { "60min", "1h" },
		{ "h", "1h" }, { "30s", "30s" },
	};
	static const char *const bad[] = { "", "0s", "1", "1sec", "ms1",
					   "10m", "1 s" };
	char out[32], what[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(what, sizeof(what), "period: %s", cases[i].in);
		if (tap_int(what, nslogctl_period(cases[i].in, out,
						  sizeof(out)), 0))
			tap_str(what, out, cases[i].want);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		snprintf(what, sizeof(what), "period: '%s' refused", bad[i]);
		tap_int(what, nslogctl_period(bad[i], out, sizeof(out)),
			-EINVAL);
	}
}

/*
 * Found by tests/fuzz (nslogctl_rules_fuzz): a count of up to 12 digits
 * times its unit's nanoseconds wrapped around 64 bits ("22222222060s",
 * 22222222060 * 10^9), and the wrapped sum, a multiple of no unit, sent
 * the search for the largest unit that divides it past the end of the
 * unit table.  A period beyond 2^64 - 1 ns is refused now.
 */
static void test_period_too_long(void)
{
	static const struct { const char *in, *want; } fits[] = {
		{ "18446744073s", "18446744073s" },	/* (2^64 - 1) / 10^9 */
		{ "5124095h", "5124095h" },		/* / (3600 * 10^9) */
		{ "307445734min", "307445734min" },	/* / (60 * 10^9) */
		{ "999999999999ms", "999999999999ms" },
	};
	static const char *const wraps[] = {
		"22222222060s", "18446744074s", "5124096h", "307445735min",
		"999999999999h", "999999999999min", "999999999999s",
	};
	char out[32], what[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fits); i++) {
		snprintf(what, sizeof(what), "period: %s fits", fits[i].in);
		if (tap_int(what, nslogctl_period(fits[i].in, out,
						  sizeof(out)), 0))
			tap_str(what, out, fits[i].want);
	}
	for (i = 0; i < ARRAY_SIZE(wraps); i++) {
		snprintf(what, sizeof(what), "period: %s is too long",
			 wraps[i]);
		tap_int(what, nslogctl_period(wraps[i], out, sizeof(out)),
			-EINVAL);
	}
}

static void test_parent(void)
{
	char p[] = "/a/b/c";

	tap_ok(nslogctl_parent(p) && !strcmp(p, "/a/b"), "parent: /a/b/c");
	tap_ok(nslogctl_parent(p) && !strcmp(p, "/a"), "parent: /a/b");
	tap_ok(nslogctl_parent(p) && !strcmp(p, "/"), "parent: /a");
	tap_ok(!nslogctl_parent(p) && !strcmp(p, "/"), "parent: the root has none");
}

int main(void)
{
	test_paths();
	test_paths_mount_spelled_otherwise();
	test_v2_line();
	test_bucket();
	test_period();
	test_period_too_long();
	test_parent();
	return tap_done();
}
