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
 *
 * "nslogctl apply" puts the rules of /etc/nslogger/limits.d (ctlapply.h) on
 * the cgroups they match; with --watch it stays, and puts them on each
 * matching cgroup made later, as inotify reports its mkdir().
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mntent.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <poll.h>
#include <signal.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libcgroup.h>

#include "ctlapply.h"
#include "ctlparse.h"
#include "usage.h"

#define PROG		"nslogctl"
/* Where "apply" reads its rules by default (SYSCONFDIR in tools/Makefile). */
#ifndef NSLOGCTL_LIMITS_DIR
#define NSLOGCTL_LIMITS_DIR	"/etc/nslogger/limits.d"
#endif
#define EXIT_USAGE	TOOL_EXIT_USAGE

static const char help_text[] =
"Usage: " PROG " limit set TARGET LIMIT...\n"
"       " PROG " limit clear TARGET\n"
"       " PROG " limit show [TARGET]\n"
"       " PROG " stats [TARGET]\n"
"       " PROG " apply [--dry-run] [--watch] [FILE|DIR...]\n"
"Set, remove and list nslogger's per-cgroup rate limits.\n"
"\n"
"LIMIT is one or more of records=N/PERIOD records_burst=B bytes=SIZE/PERIOD\n"
"bytes_burst=SIZE. PERIOD is an optional count and ms, s, min or h; N, B\n"
"and SIZE take K and M. A burst left out is the rate's N. Setting a\n"
"rule that exists replaces it.\n"
"\n"
"limit show lists every rule (and the default, if set); with TARGET, the\n"
"buckets a write from TARGET is charged to, deepest first. stats prints\n"
"records and bytes accepted and dropped, and the tokens each bucket has.\n"
"\n"
"TARGET is a cgroup v2 path (/a/b, or /sys/fs/cgroup/a/b), --pid PID (the\n"
"process's cgroup now) or --unit NAME (a systemd unit's ControlGroup;\n"
"\".service\" is added to a NAME without a suffix; without systemd, the one\n"
"cgroup named so).\n"
"\n"
"apply sets the rules of FILEs and DIRs' *.conf files (default\n"
NSLOGCTL_LIMITS_DIR ") on every cgroup they match, lines \"set PATH\n"
"LIMIT...\" (PATH may hold the wildcards * ? [...]) or \"set --unit NAME\n"
"LIMIT...\"; the last matching line counts. --dry-run prints the commands\n"
"instead; --watch stays and sets them on cgroups made later (SIGHUP\n"
"reads the files again).\n"
"\n"
"Needs CAP_SYS_ADMIN or CAP_SYSLOG in the initial user namespace, also to\n"
"read. $NSLOG_PROC_DIR replaces /proc/nslogger, $NSLOG_CGROUP_DIR the\n"
"cgroup v2 mount.\n"
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

/* @writing: the file was opened to change a rule, not to read them. */
static int open_failed(int err, bool writing)
{
	if (err == ENOENT)
		return fail("%s: no such file: is the nslogger module loaded?",
			    limits_file);
	if ((err == EPERM || err == EACCES) && writing)
		return fail("%s: %s: changing a limit needs CAP_SYS_ADMIN in the initial user namespace (root on the host)",
			    limits_file, strerror(err));
	if (err == EPERM || err == EACCES)
		return fail("%s: %s: needs CAP_SYSLOG or CAP_SYS_ADMIN in the initial user namespace (root on the host)",
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
	/* A stand-in tree, for tests: the mount, without libcgroup. */
	if (getenv("NSLOG_CGROUP_DIR") && *getenv("NSLOG_CGROUP_DIR")) {
		snprintf(cg_root, sizeof(cg_root), "%s",
			 getenv("NSLOG_CGROUP_DIR"));
		return;
	}
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
		return open_failed(errno, false);
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

/*
 * Write one command; 0 or the errno of the open (*@at_open) or write.
 * The module ignores the file position; O_APPEND lets a regular file
 * stand in for it in tests and keep every command.
 */
static int put(const char *cmd, bool *at_open)
{
	size_t len = strlen(cmd);
	ssize_t n;
	int fd, err = 0;

	fd = open(limits_file, O_WRONLY | O_APPEND | O_CLOEXEC);
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
		return open_failed(err, true);
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
		return open_failed(err, true);
	if (err != ENOENT)
		return fail("limit clear %s: %s", cg, strerror(err));
	if (cgroup_exists(cg))
		return fail("limit clear %s: it has no rule (ENOENT)", cg);
	return fail("limit clear %s: no such cgroup (ENOENT)", cg);
}

/* The level of a normalised cgroup path: "/" is 0, "/a/b" is 2. */
static int path_level(const char *path)
{
	int n = 0;

	for (; *path; path++)
		n += *path == '/' && path[1];
	return n;
}

/* The module's default_level, or its default if it cannot be read. */
static int default_level(void)
{
	FILE *f = fopen("/sys/module/nslogger/parameters/default_level", "re");
	int level = 2;

	if (f) {
		if (fscanf(f, "%d", &level) != 1 || level < 0)
			level = 2;
		fclose(f);
	}
	return level;
}

static int limit_show(const char *cg)
{
	struct listing l;
	char path[PATH_MAX];
	bool any = false;
	int ret, dlevel;
	size_t i;

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
	/*
	 * Every rule from the cgroup up, and, with a default limit, the
	 * default bucket of its subtree at default_level (or its own, if it
	 * is shallower), as the module charges a write.
	 */
	dlevel = path_level(cg);
	if (dlevel > default_level())
		dlevel = default_level();
	snprintf(path, sizeof(path), "%s", cg);
	do {
		struct nslogctl_bucket *b = listing_find(&l, path);
		const char *kind = b ? nslogctl_field(b, "kind") : NULL;
		bool rule = kind && !strcmp(kind, "rule");

		if (rule || (b && path_level(path) == dlevel && l.has_dflt)) {
			print_bucket(path, b);
			any = true;
		} else if (path_level(path) == dlevel && l.has_dflt) {
			printf("%s (a default bucket on the first write from it or below) ",
			       path);
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

/* ------------------------------------------------------------------------
 * apply: the rules of limits.d on the cgroups they match, now and, with
 * --watch, on each one made later
 */

struct watch {
	int wd;
	char *path;		/* the cgroup, "/a/b" */
};

struct applier {
	struct nslogctl_rules rules;
	char **src;		/* the files and directories read */
	int nsrc;
	bool defaults;		/* src is the default directory */
	bool dry_run;
	int ifd;		/* inotify, with --watch; else -1 */
	struct watch *w;
	size_t nw, capw;
	unsigned long set;	/* commands written (or printed) */
	int failed;		/* commands refused */
	bool fatal;		/* the admin file cannot be written */
};

static int read_rules(struct applier *a)
{
	int i;

	nslogctl_rules_free(&a->rules);
	for (i = 0; i < a->nsrc; i++)
		if (nslogctl_rules_read(&a->rules, cg_root, a->src[i],
					!a->defaults, stderr))
			return fail("out of memory");
	return 0;
}

static const char *errno_why(int err)
{
	switch (err) {
	case EINVAL:
		return "refused as malformed or out of bounds (EINVAL): rates above 0, N and bursts up to 10^9, periods 1ms to 1 day, bytes_burst at least 4076";
	case ENOSPC:
		return "too many rules (ENOSPC): max_rules is reached, default buckets included";
	default:
		return strerror(err);
	}
}

/* The rule @r on the cgroup @path. */
static void apply_rule(struct applier *a, const char *path,
		       const struct nslogctl_rule *r)
{
	char cmd[PATH_MAX + 1024];
	bool at_open;
	int err;

	if (strpbrk(path, " \t\n\r\v\f")) {
		fprintf(stderr, PROG ": %s: '%s' has white space in its name, which the admin file cannot name\n",
			r->where, path);
		a->failed++;
		return;
	}
	if ((size_t)snprintf(cmd, sizeof(cmd), "set %s %s\n", path,
			     r->limits) >= sizeof(cmd)) {
		fprintf(stderr, PROG ": %s: '%s': path too long\n", r->where,
			path);
		a->failed++;
		return;
	}
	err = a->dry_run ? 0 : put(cmd, &at_open);
	if (!err) {
		printf("%s: %s", r->where, cmd);
		fflush(stdout);
		a->set++;
		return;
	}
	if (at_open || err == EPERM || err == EACCES) {
		open_failed(err, true);
		a->fatal = true;
	} else if (err != ENOENT || cgroup_exists(path)) {
		/* ENOENT and no cgroup: it was removed meanwhile. */
		fprintf(stderr, PROG ": %s: set %s: %s\n", r->where, path,
			errno_why(err));
		a->failed++;
	}
}

static void watch_add(struct applier *a, const char *path)
{
	char dir[2 * PATH_MAX];
	size_t i;
	int wd;

	snprintf(dir, sizeof(dir), "%s%s", cg_root, strcmp(path, "/") ? path : "");
	wd = inotify_add_watch(a->ifd, dir, IN_CREATE | IN_ONLYDIR |
			       IN_DONT_FOLLOW);
	if (wd < 0) {
		if (errno == ENOSPC)
			fprintf(stderr, PROG ": %s: no inotify watch left: raise fs.inotify.max_user_watches\n",
				dir);
		else if (errno != ENOENT)
			fprintf(stderr, PROG ": %s: cannot watch: %s\n", dir,
				strerror(errno));
		return;
	}
	for (i = 0; i < a->nw; i++)
		if (a->w[i].wd == wd)
			return;
	if (a->nw == a->capw) {
		size_t cap = a->capw ? 2 * a->capw : 64;
		struct watch *bigger = realloc(a->w, cap * sizeof(*a->w));

		if (!bigger)
			goto nomem;
		a->w = bigger;
		a->capw = cap;
	}
	a->w[a->nw].path = strdup(path);
	if (!a->w[a->nw].path)
		goto nomem;
	a->w[a->nw++].wd = wd;
	return;
nomem:
	fprintf(stderr, PROG ": out of memory: %s is not watched\n", dir);
	inotify_rm_watch(a->ifd, wd);
}

static void watch_drop(struct applier *a, int wd)
{
	size_t i;

	for (i = 0; i < a->nw; i++) {
		if (a->w[i].wd == wd) {
			free(a->w[i].path);
			a->w[i] = a->w[--a->nw];
			return;
		}
	}
}

static void visit(struct applier *a, const char *path);

/* The children of the cgroup @path; watched first, so none is missed. */
static void walk(struct applier *a, const char *path)
{
	char dir[2 * PATH_MAX], child[PATH_MAX];
	struct dirent *d;
	DIR *dp;

	if (a->ifd >= 0)
		watch_add(a, path);
	snprintf(dir, sizeof(dir), "%s%s", cg_root, strcmp(path, "/") ? path : "");
	dp = opendir(dir);
	if (!dp)
		return;		/* removed meanwhile */
	while (!a->fatal && (d = readdir(dp)) != NULL) {
		struct stat st;

		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		if (d->d_type != DT_DIR &&
		    (d->d_type != DT_UNKNOWN ||
		     fstatat(dirfd(dp), d->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		     !S_ISDIR(st.st_mode)))
			continue;
		if ((size_t)snprintf(child, sizeof(child), "%s/%s",
				     strcmp(path, "/") ? path : "",
				     d->d_name) >= sizeof(child))
			continue;
		visit(a, child);
	}
	closedir(dp);
}

/* A cgroup seen for the first time: its rule, then its children. */
static void visit(struct applier *a, const char *path)
{
	const struct nslogctl_rule *r = nslogctl_rules_match(&a->rules, path);

	if (r)
		apply_rule(a, path, r);
	if (!a->fatal && nslogctl_rules_descend(&a->rules, path))
		walk(a, path);
}

/* systemd's Type=notify: READY=1 once the first walk is done. */
static void notify_ready(void)
{
	const char *env = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	socklen_t len;
	int fd;

	if (!env || (env[0] != '/' && env[0] != '@') ||
	    strlen(env) >= sizeof(sa.sun_path))
		return;
	strcpy(sa.sun_path, env);
	if (env[0] == '@')
		sa.sun_path[0] = '\0';	/* abstract */
	len = offsetof(struct sockaddr_un, sun_path) + strlen(env);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return;
	if (sendto(fd, "READY=1", 7, MSG_NOSIGNAL, (struct sockaddr *)&sa,
		   len) < 0)
		fprintf(stderr, PROG ": NOTIFY_SOCKET: %s\n", strerror(errno));
	close(fd);
}

/* Read the events; false when the tree must be walked again. */
static bool watch_events(struct applier *a)
{
	char buf[16384] __attribute__((aligned(__alignof__(struct inotify_event))));
	char child[PATH_MAX];
	bool rewalk = false;
	ssize_t n;

	for (;;) {
		char *p;

		n = read(a->ifd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		for (p = buf; p < buf + n && !a->fatal; ) {
			const struct inotify_event *ev = (const void *)p;
			size_t i;

			p += sizeof(*ev) + ev->len;
			if (ev->mask & IN_Q_OVERFLOW) {
				rewalk = true;
				continue;
			}
			if (ev->mask & IN_IGNORED) {
				watch_drop(a, ev->wd);
				continue;
			}
			if (!(ev->mask & IN_CREATE) || !(ev->mask & IN_ISDIR) ||
			    !ev->len)
				continue;
			for (i = 0; i < a->nw && a->w[i].wd != ev->wd; i++)
				;
			if (i == a->nw)
				continue;
			if ((size_t)snprintf(child, sizeof(child), "%s/%s",
					     strcmp(a->w[i].path, "/") ?
					     a->w[i].path : "",
					     ev->name) < sizeof(child))
				visit(a, child);
		}
	}
	return !rewalk;
}

static int watch_loop(struct applier *a)
{
	struct pollfd pfd[2];
	sigset_t sigs;
	int sfd;

	sigemptyset(&sigs);
	sigaddset(&sigs, SIGHUP);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);
	if (sigprocmask(SIG_BLOCK, &sigs, NULL))
		return fail("sigprocmask: %s", strerror(errno));
	sfd = signalfd(-1, &sigs, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0)
		return fail("signalfd: %s", strerror(errno));
	fprintf(stderr, PROG ": %zu rules; watching %zu cgroups for new ones\n",
		a->rules.n, a->nw);
	notify_ready();
	pfd[0] = (struct pollfd){ .fd = a->ifd, .events = POLLIN };
	pfd[1] = (struct pollfd){ .fd = sfd, .events = POLLIN };
	while (!a->fatal) {
		struct signalfd_siginfo si;
		bool rewalk = false;

		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return fail("poll: %s", strerror(errno));
		}
		if ((pfd[0].revents & POLLIN) && !watch_events(a)) {
			fprintf(stderr, PROG ": inotify queue overflow: walking the tree again\n");
			rewalk = true;
		}
		while (read(sfd, &si, sizeof(si)) == sizeof(si)) {
			if (si.ssi_signo != SIGHUP) {
				close(sfd);
				return a->fatal ? EXIT_FAILURE : EXIT_SUCCESS;
			}
			if (read_rules(a))
				return EXIT_FAILURE;
			fprintf(stderr, PROG ": SIGHUP: %zu rules read again\n",
				a->rules.n);
			rewalk = true;
		}
		if (rewalk) {
			visit(a, "/");
			fprintf(stderr, PROG ": %zu rules; watching %zu cgroups for new ones\n",
				a->rules.n, a->nw);
		}
	}
	close(sfd);
	return EXIT_FAILURE;
}

static int apply(int argc, char **argv, int i)
{
	static char *defaults[] = { NSLOGCTL_LIMITS_DIR };
	struct applier a = { .ifd = -1 };
	bool watch = false;
	int ret;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--dry-run") || !strcmp(argv[i], "-n"))
			a.dry_run = true;
		else if (!strcmp(argv[i], "--watch"))
			watch = true;
		else if (!strcmp(argv[i], "--"))
			break;
		else
			tool_usage(PROG, "apply: unknown option '%s'", argv[i]);
	}
	if (i < argc && !strcmp(argv[i], "--"))
		i++;
	a.src = i < argc ? argv + i : defaults;
	a.nsrc = i < argc ? argc - i : 1;
	a.defaults = i >= argc;
	cg_setup();
	if (!cg_root[0])
		return fail("apply: no cgroup v2 hierarchy is mounted");
	ret = read_rules(&a);
	if (ret)
		goto out;
	if (watch) {
		/* Fail now, not at the first cgroup made. */
		if (!a.dry_run && access(limits_file, W_OK)) {
			ret = open_failed(errno, true);
			goto out;
		}
		a.ifd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
		if (a.ifd < 0) {
			ret = fail("inotify: %s", strerror(errno));
			goto out;
		}
	}
	visit(&a, "/");
	if (watch && !a.fatal)
		ret = watch_loop(&a);
	else
		ret = a.fatal || a.failed || a.rules.errors ? EXIT_FAILURE :
							      EXIT_SUCCESS;
out:
	while (a.nw)
		watch_drop(&a, a.w[a.nw - 1].wd);
	free(a.w);
	if (a.ifd >= 0)
		close(a.ifd);
	nslogctl_rules_free(&a.rules);
	return ret;
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
	if (!strcmp(argv[1], "apply"))
		return apply(argc, argv, 2);
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
