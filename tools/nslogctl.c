// SPDX-License-Identifier: GPL-2.0
/*
 * nslogctl: the administrator's command line for nslogger's per-cgroup
 * rate limits (docs/ratelimit.md).
 *
 * It only reads and writes /proc/nslogger/limits, so it can do nothing that
 * cat and echo cannot; the module checks every limit.  What it adds is
 * naming the cgroup as administrators do, with libcgroup: a cgroup path
 * (/a/b, or /sys/fs/cgroup/a/b), the cgroup of a process (--pid) or of a
 * systemd unit (--unit); and errors that say what the kernel's errno means.
 *
 * libcgroup 2.0 on cgroup v2: cgroup_init() and the controller iterator
 * find the v2 mount and cgroup_walk_tree_*() walks it, but
 * cgroup_get_current_controller_path() parses only v1 lines of
 * /proc/PID/cgroup; nslogctl tries it, then reads the "0::PATH" line itself.
 * cgroup_init() is not called when a cgroup2 mount has no controllers
 * (systemd's hybrid layout), where libcgroup 2.0 crashes.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mntent.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libcgroup.h>

#include "ctlparse.h"
#include "usage.h"

#define PROG		"nslogctl"
#define EXIT_USAGE	TOOL_EXIT_USAGE

static const char help_text[] =
"Usage: " PROG " limit set TARGET LIMIT...\n"
"       " PROG " limit clear TARGET\n"
"       " PROG " limit show [TARGET]\n"
"       " PROG " stats [TARGET]\n"
"Set, remove and list nslogger's per-cgroup rate limits.\n"
"\n"
"LIMIT is one or more of records=N/PERIOD records_burst=B bytes=SIZE/PERIOD\n"
"bytes_burst=SIZE. PERIOD is an optional count and ms, s, min or h; N, B\n"
"and SIZE take K and M. A burst left out is the rate's N. Setting a\n"
"rule that exists replaces it.\n"
"\n"
"limit show lists every rule (and the default, if set); with TARGET, the\n"
"buckets a write from TARGET is charged to, its own first. stats prints\n"
"records and bytes accepted and dropped, and the tokens each bucket has.\n"
"\n"
"TARGET is a cgroup v2 path (/a/b, or /sys/fs/cgroup/a/b), --pid PID (the\n"
"process's cgroup now) or --unit NAME (a systemd unit's ControlGroup;\n"
"\".service\" is added to a NAME without a suffix; without systemd, the one\n"
"cgroup named so).\n"
"\n"
"Needs CAP_SYS_ADMIN or CAP_SYSLOG in the initial user namespace, also to\n"
"read. $NSLOG_PROC_DIR replaces /proc/nslogger.\n"
"Exit status: 0 done, 1 refused or not found, 2 usage error.\n";

static char limits_file[PATH_MAX] = "/proc/nslogger/limits";

static int __attribute__((format(printf, 1, 2))) fail(const char *fmt, ...)
{
	va_list ap;

	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_FAILURE;
}

static int open_failed(int err)
{
	if (err == ENOENT)
		return fail("%s: no such file: is the nslogger module loaded?",
			    limits_file);
	if (err == EPERM || err == EACCES)
		return fail("%s: %s: needs CAP_SYS_ADMIN or CAP_SYSLOG in the initial user namespace (root on the host)",
			    limits_file, strerror(err));
	return fail("%s: %s", limits_file, strerror(err));
}

/* ------------------------------------------------------------------------
 * Cgroups, with libcgroup
 */

static bool cg_done, cg_lib;
static char cg_root[PATH_MAX];		/* the cgroup v2 mount, or "" */
static char cg_ctrl[FILENAME_MAX];	/* a controller libcgroup lists there */

/* The first cgroup2 mount; false if one has no controllers. */
static bool scan_mounts(void)
{
	struct mntent *ent;
	bool safe = true;
	FILE *f;

	f = setmntent("/proc/self/mounts", "re");
	if (!f)
		return false;
	while ((ent = getmntent(f)) != NULL) {
		char path[PATH_MAX], line[256] = "";
		FILE *c;

		if (strcmp(ent->mnt_type, "cgroup2"))
			continue;
		if (!cg_root[0])
			snprintf(cg_root, sizeof(cg_root), "%s", ent->mnt_dir);
		snprintf(path, sizeof(path), "%s/cgroup.controllers",
			 ent->mnt_dir);
		c = fopen(path, "re");
		if (!c)
			continue;
		if (!fgets(line, sizeof(line), c) || line[0] == '\n')
			safe = false;
		fclose(c);
	}
	endmntent(f);
	return safe;
}

static void cg_setup(void)
{
	struct cgroup_mount_point mp;
	void *it = NULL;
	int ret;

	if (cg_done)
		return;
	cg_done = true;
	if (!scan_mounts() || cgroup_init())
		return;
	cg_lib = true;
	for (ret = cgroup_get_controller_begin(&it, &mp); !ret;
	     ret = cgroup_get_controller_next(&it, &mp)) {
		if (!strcmp(mp.path, cg_root)) {
			snprintf(cg_ctrl, sizeof(cg_ctrl), "%s", mp.name);
			break;
		}
	}
	if (it)
		cgroup_get_controller_end(&it);
}

static int cg_path(const char *arg, char *out, size_t size)
{
	int err;

	cg_setup();
	err = nslogctl_norm_path(cg_root, arg, out, size);
	if (err == -EINVAL)
		return fail("'%s': not a cgroup path the admin file can name (empty, white space or \"..\")",
			    arg);
	if (err)
		return fail("'%s': path too long", arg);
	return 0;
}

static int pid_cgroup(const char *arg, char *out, size_t size)
{
	char file[64], *line = NULL, *path = NULL, *end;
	size_t cap = 0;
	long pid;
	int ret = 1, err = -ENOENT;
	FILE *f;

	errno = 0;
	pid = strtol(arg, &end, 10);
	if (errno || end == arg || *end || pid <= 0 || pid > INT_MAX)
		tool_usage(PROG, "--pid wants a process id, not '%s'", arg);
	cg_setup();
	if (cg_lib && cg_ctrl[0] &&
	    !cgroup_get_current_controller_path(pid, cg_ctrl, &path)) {
		ret = cg_path(path, out, size);
		free(path);
		return ret;
	}
	free(path);

	snprintf(file, sizeof(file), "/proc/%ld/cgroup", pid);
	f = fopen(file, "re");
	if (!f)
		return fail("--pid %ld: %s", pid, errno == ENOENT ?
			    "no such process" : strerror(errno));
	while (err == -ENOENT && getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\n")] = '\0';
		err = nslogctl_v2_line(line, out, size);
	}
	fclose(f);
	free(line);
	if (err == -ESTALE)
		return fail("--pid %ld: its cgroup was removed", pid);
	if (err)
		return fail("--pid %ld: in no cgroup v2 cgroup", pid);
	return cg_path(out, out, size);
}

/* Run @argv; its stdout into @buf, trailing newlines cut. */
static int capture(char *const argv[], char *buf, size_t size)
{
	size_t len = 0;
	int fds[2], status;
	ssize_t n;
	pid_t pid;

	buf[0] = '\0';
	if (pipe2(fds, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		int null = open("/dev/null", O_RDWR);

		dup2(null, 0);
		dup2(null, 2);
		dup2(fds[1], 1);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	while (len + 1 < size &&
	       ((n = read(fds[0], buf + len, size - len - 1)) > 0 ||
		(n < 0 && errno == EINTR)))
		len += n > 0 ? n : 0;
	close(fds[0]);
	buf[len] = '\0';
	while (len && buf[len - 1] == '\n')
		buf[--len] = '\0';
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The one directory named @unit in the cgroup tree, by libcgroup's walk. */
static int unit_search(const char *unit, char *out, size_t size)
{
	struct cgroup_file_info info;
	char found[PATH_MAX] = "";
	void *walk = NULL;
	int level, ret, n = 0;

	if (!cg_lib || !cg_ctrl[0])
		return fail("--unit %s: systemd does not answer, and libcgroup finds no cgroup v2 hierarchy",
			    unit);
	ret = cgroup_walk_tree_begin(cg_ctrl, "/", 0, &walk, &info, &level);
	for (; !ret; ret = cgroup_walk_tree_next(0, &walk, &info, level)) {
		if (info.type != CGROUP_FILE_TYPE_DIR ||
		    strcmp(info.path, unit))
			continue;
		if (n++)
			fprintf(stderr, "  %s\n  %s\n", found, info.full_path);
		snprintf(found, sizeof(found), "%s", info.full_path);
	}
	if (walk)
		cgroup_walk_tree_end(&walk);
	if (ret != ECGEOF)
		return fail("--unit %s: cannot walk %s: %s", unit, cg_root,
			    cgroup_strerror(ret));
	if (!n)
		return fail("--unit %s: systemd does not answer, and no cgroup is named %s",
			    unit, unit);
	if (n > 1)
		return fail("--unit %s: %d cgroups have that name (listed above); give a path",
			    unit, n);
	return cg_path(found, out, size);
}

static int unit_cgroup(const char *arg, char *out, size_t size)
{
	char unit[256], answer[PATH_MAX];
	char *argv[] = { "systemctl", "show", "-p", "ControlGroup", "--value",
			 "--", unit, NULL };

	if (!*arg || strchr(arg, '/') || strlen(arg) > 200)
		tool_usage(PROG, "--unit wants a unit name, not '%s'", arg);
	snprintf(unit, sizeof(unit), "%s%s", arg,
		 strchr(arg, '.') ? "" : ".service");
	cg_setup();
	if (!capture(argv, answer, sizeof(answer))) {
		if (!answer[0])
			return fail("--unit %s: systemd has no cgroup for it (not loaded or not running)",
				    unit);
		return cg_path(answer, out, size);
	}
	return unit_search(unit, out, size);
}

/* The TARGET at argv[*i], moving *@i past it. */
static int target(int argc, char **argv, int *i, char *out, size_t size)
{
	const char *a = argv[*i];
	bool pid = !strcmp(a, "--pid"), unit = !strcmp(a, "--unit");

	if (!pid && !unit) {
		if (a[0] == '-')
			tool_usage(PROG, "unknown option '%s'", a);
		(*i)++;
		return cg_path(a, out, size);
	}
	if (*i + 1 >= argc)
		tool_usage(PROG, "%s needs an argument", a);
	*i += 2;
	return pid ? pid_cgroup(argv[*i - 1], out, size) :
		     unit_cgroup(argv[*i - 1], out, size);
}

/* ------------------------------------------------------------------------
 * The admin file
 */

struct listing {
	char *text;
	struct nslogctl_bucket *b;
	size_t count;
	struct nslogctl_bucket dflt;
	bool has_dflt;
};

static int cmp_bucket(const void *a, const void *b)
{
	return strcmp(((const struct nslogctl_bucket *)a)->path,
		      ((const struct nslogctl_bucket *)b)->path);
}

static void listing_free(struct listing *l)
{
	free(l->text);
	free(l->b);
}

static int listing_read(struct listing *l)
{
	size_t len = 0, size = 8192, lines = 1;
	char *line, *save = NULL;
	ssize_t n = 0;
	int fd;

	memset(l, 0, sizeof(*l));
	fd = open(limits_file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return open_failed(errno);
	l->text = malloc(size);
	while (l->text) {
		if (size - len < 2) {
			char *bigger = realloc(l->text, size *= 2);

			if (!bigger) {
				n = -1;
				errno = ENOMEM;
				break;
			}
			l->text = bigger;
		}
		n = read(fd, l->text + len, size - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += n;
	}
	close(fd);
	if (!l->text || n < 0) {
		int err = l->text ? errno : ENOMEM;

		listing_free(l);
		return fail("%s: %s", limits_file, strerror(err));
	}
	l->text[len] = '\0';
	for (line = l->text; *line; line++)
		lines += *line == '\n';
	l->b = calloc(lines, sizeof(*l->b));
	if (!l->b) {
		listing_free(l);
		return fail("out of memory");
	}
	for (line = strtok_r(l->text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct nslogctl_bucket b;

		if (nslogctl_parse_bucket(line, &b)) {
			listing_free(l);
			return fail("%s: a line I do not understand", limits_file);
		}
		if (b.path) {
			l->b[l->count++] = b;
		} else {
			l->dflt = b;
			l->has_dflt = true;
		}
	}
	qsort(l->b, l->count, sizeof(*l->b), cmp_bucket);
	return 0;
}

static struct nslogctl_bucket *listing_find(struct listing *l,
					    const char *path)
{
	size_t i;

	for (i = 0; i < l->count; i++)
		if (!strcmp(l->b[i].path, path))
			return &l->b[i];
	return NULL;
}

static void print_bucket(const char *path, const struct nslogctl_bucket *b)
{
	char limits[512];
	const char *kind = nslogctl_field(b, "kind");

	if (nslogctl_format_limits(b, limits, sizeof(limits)))
		snprintf(limits, sizeof(limits), "?");
	if (path)
		printf("%s kind=%s %s\n", path, kind ? kind : "?", limits);
	else
		printf("default %s\n", limits);
}

/* Write one command; 0 or the errno of the open (*@at_open) or write. */
static int put(const char *cmd, bool *at_open)
{
	size_t len = strlen(cmd);
	ssize_t n;
	int fd, err = 0;

	fd = open(limits_file, O_WRONLY | O_CLOEXEC);
	*at_open = fd < 0;
	if (fd < 0)
		return errno;
	n = write(fd, cmd, len);
	if (n < 0)
		err = errno;
	else if ((size_t)n != len)
		err = EIO;
	close(fd);
	return err;
}

static bool cgroup_exists(const char *cg)
{
	char dir[2 * PATH_MAX];
	struct stat st;

	snprintf(dir, sizeof(dir), "%s%s", cg_root[0] ? cg_root :
		 "/sys/fs/cgroup", cg);
	return !stat(dir, &st) && S_ISDIR(st.st_mode);
}

/* ------------------------------------------------------------------------
 * Commands
 */

static int limit_set(const char *cg, int argc, char **argv)
{
	char cmd[PATH_MAX + 2048];
	size_t len;
	bool at_open;
	int i, err;

	if (!argc)
		tool_usage(PROG, "limit set %s: no LIMIT (records=N/PERIOD, bytes=SIZE/PERIOD)",
		      cg);
	len = snprintf(cmd, sizeof(cmd), "set %s", cg);
	for (i = 0; i < argc; i++) {
		if (!strchr(argv[i], '=') || strpbrk(argv[i], " \t\n"))
			tool_usage(PROG, "limit set: '%s' is not KEY=VALUE", argv[i]);
		len += snprintf(cmd + len, sizeof(cmd) - len, " %s", argv[i]);
		if (len >= sizeof(cmd) - 1)
			tool_usage(PROG, "limit set: LIMIT too long");
	}
	strcat(cmd, "\n");
	err = put(cmd, &at_open);
	if (!err)
		return 0;
	if (at_open || err == EPERM || err == EACCES)
		return open_failed(err);
	switch (err) {
	case ENOENT:
		return fail("limit set %s: no such cgroup (ENOENT)", cg);
	case EINVAL:
		return fail("limit set %s: refused as malformed or out of bounds (EINVAL): rates above 0, N and bursts up to 10^9, periods 1ms to 1 day, bytes_burst at least 4076; see docs/ratelimit.md",
			    cg);
	case ENOSPC:
		return fail("limit set %s: too many rules (ENOSPC): max_rules in /sys/module/nslogger/parameters is reached, default buckets included",
			    cg);
	default:
		return fail("limit set %s: %s", cg, strerror(err));
	}
}

static int limit_clear(const char *cg)
{
	char cmd[PATH_MAX + 16];
	bool at_open;
	int err;

	snprintf(cmd, sizeof(cmd), "clear %s\n", cg);
	err = put(cmd, &at_open);
	if (!err)
		return 0;
	if (at_open || err == EPERM || err == EACCES)
		return open_failed(err);
	if (err != ENOENT)
		return fail("limit clear %s: %s", cg, strerror(err));
	if (cgroup_exists(cg))
		return fail("limit clear %s: it has no rule (ENOENT)", cg);
	return fail("limit clear %s: no such cgroup (ENOENT)", cg);
}

static int limit_show(const char *cg)
{
	struct listing l;
	char path[PATH_MAX];
	bool any = false;
	size_t i;
	int ret;

	ret = listing_read(&l);
	if (ret)
		return ret;
	if (!cg) {
		if (l.has_dflt)
			print_bucket(NULL, &l.dflt);
		for (i = 0; i < l.count; i++)
			print_bucket(l.b[i].path, &l.b[i]);
		listing_free(&l);
		return 0;
	}
	/* Its own bucket, then every ancestor's rule (default ones only
	 * apply to their own cgroup).
	 */
	snprintf(path, sizeof(path), "%s", cg);
	do {
		struct nslogctl_bucket *b = listing_find(&l, path);
		const char *kind = b ? nslogctl_field(b, "kind") : NULL;

		if (b && (!strcmp(path, cg) || (kind && !strcmp(kind, "rule")))) {
			print_bucket(path, b);
			any = true;
		} else if (!strcmp(path, cg) && l.has_dflt) {
			printf("%s (a default bucket on its first write) ", cg);
			print_bucket(NULL, &l.dflt);
			any = true;
		}
	} while (nslogctl_parent(path));
	if (!any)
		printf("%s: no limit\n", cg);
	listing_free(&l);
	return 0;
}

static int stats(const char *cg)
{
	static const char *const cols[] = {
		"accepted", "accepted_bytes", "dropped", "dropped_bytes",
		"tokens", "byte_tokens",
	};
	static const char *const heads[] = {
		"ACCEPTED", "ACC_BYTES", "DROPPED", "DROP_BYTES", "TOKENS",
		"BYTE_TOKENS",
	};
	int width[6], pw = 6, c;
	struct listing l;
	size_t i, shown = 0;
	int ret;

	ret = listing_read(&l);
	if (ret)
		return ret;
	for (c = 0; c < 6; c++)
		width[c] = (int)strlen(heads[c]);
	for (i = 0; i < l.count; i++) {
		if (cg && strcmp(l.b[i].path, cg))
			continue;
		if ((int)strlen(l.b[i].path) > pw)
			pw = (int)strlen(l.b[i].path);
		for (c = 0; c < 6; c++) {
			const char *v = nslogctl_field(&l.b[i], cols[c]);

			if (v && (int)strlen(v) > width[c])
				width[c] = (int)strlen(v);
		}
		shown++;
	}
	if (cg && !shown) {
		listing_free(&l);
		return fail("stats %s: no bucket (no rule, and no default bucket yet)",
			    cg);
	}
	printf("%-*s %-7s", pw, "CGROUP", "KIND");
	for (c = 0; c < 6; c++)
		printf(" %*s", width[c], heads[c]);
	putchar('\n');
	for (i = 0; i < l.count; i++) {
		const char *kind = nslogctl_field(&l.b[i], "kind");

		if (cg && strcmp(l.b[i].path, cg))
			continue;
		printf("%-*s %-7s", pw, l.b[i].path, kind ? kind : "?");
		for (c = 0; c < 6; c++) {
			const char *v = nslogctl_field(&l.b[i], cols[c]);

			printf(" %*s", width[c], v ? v : "?");
		}
		putchar('\n');
	}
	listing_free(&l);
	return 0;
}

/* An optional TARGET and nothing after it, at argv[i]. */
static int only_target(int argc, char **argv, int i, char *cg, size_t size,
		       bool *given)
{
	int ret;

	*given = i < argc;
	if (!*given)
		return 0;
	ret = target(argc, argv, &i, cg, size);
	if (!ret && i < argc)
		tool_usage(PROG, "unexpected '%s'", argv[i]);
	return ret;
}

int main(int argc, char **argv)
{
	const char *env = getenv("NSLOG_PROC_DIR");
	char cg[PATH_MAX];
	bool given;
	int i = 2, ret;

	if (env && *env)
		snprintf(limits_file, sizeof(limits_file), "%s/limits", env);
	if (argc < 2)
		tool_usage(PROG, "no command given");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(help_text, stdout);
		return 0;
	}
	if (!strcmp(argv[1], "stats")) {
		ret = only_target(argc, argv, i, cg, sizeof(cg), &given);
		return ret ? ret : stats(given ? cg : NULL);
	}
	if (strcmp(argv[1], "limit"))
		tool_usage(PROG, "unknown command '%s'", argv[1]);
	if (argc < 3)
		tool_usage(PROG, "limit: expected set, clear or show");
	i = 3;
	if (!strcmp(argv[2], "show")) {
		ret = only_target(argc, argv, i, cg, sizeof(cg), &given);
		return ret ? ret : limit_show(given ? cg : NULL);
	}
	if (strcmp(argv[2], "set") && strcmp(argv[2], "clear"))
		tool_usage(PROG, "limit: expected set, clear or show, not '%s'", argv[2]);
	if (i >= argc)
		tool_usage(PROG, "limit %s: no TARGET given", argv[2]);
	ret = target(argc, argv, &i, cg, sizeof(cg));
	if (ret)
		return ret;
	if (!strcmp(argv[2], "set"))
		return limit_set(cg, argc - i, argv + i);
	if (i < argc)
		tool_usage(PROG, "unexpected '%s'", argv[i]);
	return limit_clear(cg);
}
