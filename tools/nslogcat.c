// SPDX-License-Identifier: GPL-2.0
/*
 * nslogcat: read the nslogger buffers, in the manner of Android's logcat.
 *
 * Opens each selected buffer read-only and non-blocking, merges their
 * records by time stamp (logmerge.c) and prints them in one of logcat's
 * layouts (logformat.c).  Also clears buffers (-c) and reports their sizes
 * (-g) through the logger ioctls.
 *
 * With --ns, reads another IPC namespace's buffers instead, as a host
 * collector: NSLOG_IOC_OPEN_NS on each buffer's node gives a read-only file
 * on the same buffer of that namespace's log set.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/nslogger.h>

#include "devpath.h"
#include "logformat.h"
#include "logmerge.h"
#include "usage.h"

#define PROG	"nslogcat"

/* The largest pid there can be (PID_MAX_LIMIT); namespace ids are larger. */
#define NSLOG_PID_MAX	4194304UL

enum {
	EXIT_USAGE	= TOOL_EXIT_USAGE,
};

enum {
	OPT_V2		= 0x100,
	OPT_DEV_DIR,
	OPT_NS,
	OPT_HELP,
};

struct nslogcat {
	int ids[NSLOG_BUF_COUNT];	/* selected buffers, in order */
	size_t count;
	bool dump;
	bool clear;
	bool get_size;
	bool binary;
	bool v2;
	bool silent;
	size_t tail;
	struct nslog_fmt fmt;
	const char *dev_dir;
	const char *ns;			/* --ns as given, or NULL */
	struct nslog_open_ns ns_arg;	/* what --ns names */
	struct nslog_filter filter;
	char paths[NSLOG_BUF_COUNT][NSLOG_PATH_MAX];
	/* each buffer in headers, -g and errors: PATH, or "PATH of ipc:[ID]" */
	char names[NSLOG_BUF_COUNT][NSLOG_PATH_MAX + 32];
	struct nslog_src srcs[NSLOG_BUF_COUNT];
};

static const char nslogcat_help_text[] =
"Usage: " PROG " [options] [filterspecs]\n"
"Read the nslogger buffers (Android logger devices), like logcat.\n"
"\n"
"  -b BUFFER      main, system, radio, events or all; repeatable, records\n"
"                 of several buffers are merged by time. Default: main and\n"
"                 system (system only if it exists)\n"
"  -v FORMAT      brief (default, or $ANDROID_PRINTF_LOG), process, tag,\n"
"                 thread, raw, time, threadtime, long, or json (a JSON\n"
"                 object a line); with logcat's modifiers, after a comma\n"
"                 or in another -v: year, zone, UTC, epoch, usec, nsec\n"
"                 (the time), uid (the writer's uid before the pid)\n"
"  -d             dump what the buffers hold and exit (default: follow)\n"
"  -t COUNT       print only the last COUNT records (implies -d)\n"
"  -c             clear (flush) the buffers and exit\n"
"  -g             print the size of each buffer and exit\n"
"  -B             write raw records (header and payload) to stdout\n"
"  -s             set the default filter to silent, like filterspec '*:S'\n"
"      --v2       read version 2 headers; -v long then shows the writer's\n"
"                 euid: [ TIME  EUID:  PID:  TID P/TAG ]\n"
"      --dev-dir DIR\n"
"                 find the devices in DIR (also $NSLOG_DEV_DIR): DIR/main,\n"
"                 DIR/log_main or DIR/log/main. Default /dev/log/main if\n"
"                 /dev/log is a directory, else /dev/log_main\n"
"      --ns NS    read another IPC namespace's buffers (a container's), as\n"
"                 a host collector; needs CAP_SYSLOG. NS is a PID, an nsfs\n"
"                 file such as /proc/PID/ns/ipc, or a namespace id, ID or\n"
"                 ipc:[ID], as /proc/nslogger/namespaces lists them (a\n"
"                 number above 4194304 is an id). Not with -c\n"
"  -h, --help     show this help\n"
"\n"
"filterspecs are TAG[:P] separated by spaces, P one of V D I W E F S\n"
"(minimum priority, S silences the tag); '*' sets the default, '*' alone\n"
"means '*:D', a tag alone means TAG:V. Without filterspecs\n"
"$ANDROID_LOG_TAGS is used; without either every record is printed.\n"
"\n"
"Events records print with priority I, tag \"[NUMBER]\" and the value as\n"
"text: numbers in decimal, strings as they are, lists as [a,b,...];\n"
"\"<malformed>\" marks a value that does not parse.\n"
"\n"
"Exit status: 0 on success, 1 if a device cannot be opened, read or\n"
"controlled, 2 for a usage error.\n";

static void nslogcat_help(void)
{
	fputs(nslogcat_help_text, stdout);
}

static void nslogcat_add_buf(struct nslogcat *lc, int id)
{
	size_t i;

	for (i = 0; i < lc->count; i++)
		if (lc->ids[i] == id)
			return;
	lc->ids[lc->count++] = id;
}

static void nslogcat_opt_buf(struct nslogcat *lc, const char *name)
{
	int id;

	if (!strcmp(name, "all")) {
		for (id = 0; id < NSLOG_BUF_COUNT; id++)
			nslogcat_add_buf(lc, id);
		return;
	}
	id = nslog_buf_from_name(name);
	if (id < 0)
		tool_usage(PROG, "unknown buffer '%s' (main, system, radio, events "
			       "or all)", name);
	nslogcat_add_buf(lc, id);
}

static void nslogcat_opt_format(struct nslogcat *lc, const char *spec)
{
	const char *bad;

	if (nslog_fmt_parse(&lc->fmt, spec, &bad))
		tool_usage(PROG, "unknown format '%.*s' (brief, process, tag, "
			       "thread, raw, time, threadtime, long or json; "
			       "year, zone, UTC, epoch, usec, nsec or uid)",
			   (int)strcspn(bad, ", "), bad);
}

static void nslogcat_opt_tail(struct nslogcat *lc, const char *arg)
{
	unsigned long n;
	char *end;

	errno = 0;
	n = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || *arg == '-')
		tool_usage(PROG, "-t needs a count of records, not '%s'", arg);
	lc->tail = n;
	lc->dump = true;
}

static void nslogcat_env_format(struct nslogcat *lc)
{
	const char *env = getenv("ANDROID_PRINTF_LOG");
	const char *bad;

	if (!env || !*env)
		return;
	if (nslog_fmt_parse(&lc->fmt, env, &bad))
		fprintf(stderr, PROG ": ignoring unknown format '%s' in ANDROID_PRINTF_LOG\n",
			env);
}

static void nslogcat_filter(struct nslogcat *lc, const char *specs,
			    const char *from)
{
	int ret = nslog_filter_parse(&lc->filter, specs);

	if (ret == -ENOMEM) {
		fprintf(stderr, PROG ": out of memory\n");
		exit(EXIT_FAILURE);
	}
	if (ret)
		tool_usage(PROG, "bad filterspec '%s'%s", specs, from);
}

static void nslogcat_parse(struct nslogcat *lc, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "v2",		no_argument,		NULL, OPT_V2 },
		{ "dev-dir",	required_argument,	NULL, OPT_DEV_DIR },
		{ "ns",		required_argument,	NULL, OPT_NS },
		{ "help",	no_argument,		NULL, OPT_HELP },
		{ NULL, 0, NULL, 0 }
	};
	const char *env;
	int c;

	nslogcat_env_format(lc);
	while ((c = getopt_long(argc, argv, "b:v:dt:cgBsh", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'b':
			nslogcat_opt_buf(lc, optarg);
			break;
		case 'v':
			nslogcat_opt_format(lc, optarg);
			break;
		case 'd':
			lc->dump = true;
			break;
		case 't':
			nslogcat_opt_tail(lc, optarg);
			break;
		case 'c':
			lc->clear = true;
			break;
		case 'g':
			lc->get_size = true;
			break;
		case 'B':
			lc->binary = true;
			break;
		case 's':
			lc->silent = true;
			break;
		case OPT_V2:
			lc->v2 = true;
			break;
		case OPT_DEV_DIR:
			lc->dev_dir = optarg;
			break;
		case OPT_NS:
			lc->ns = optarg;
			break;
		case 'h':
		case OPT_HELP:
			nslogcat_help();
			exit(EXIT_SUCCESS);
		default:
			fputs("Try '" PROG " --help' for more information.\n",
			      stderr);
			exit(EXIT_USAGE);
		}
	}

	if (lc->ns && lc->clear)
		tool_usage(PROG, "-c cannot clear another namespace's buffers "
			       "(--ns reads only)");
	if (lc->silent)
		nslogcat_filter(lc, "*:S", "");
	if (optind < argc) {
		for (; optind < argc; optind++)
			nslogcat_filter(lc, argv[optind], "");
	} else {
		env = getenv("ANDROID_LOG_TAGS");
		if (env)
			nslogcat_filter(lc, env, " in ANDROID_LOG_TAGS");
	}
}

/* A whole decimal number, else false. */
static bool nslogcat_number(const char *s, unsigned long long *out)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return !errno && !*end;
}

/*
 * --ns: a path or a PID opens the namespace's nsfs file, which the ioctl
 * then names by fd; an id goes to the ioctl as it is.  Either way the
 * namespace's id is what names the buffers.  Exits on failure.
 */
static void nslogcat_ns_resolve(struct nslogcat *lc)
{
	char path[64], *end;
	const char *file = lc->ns;
	unsigned long long n;
	struct stat st;
	int fd;

	lc->ns_arg.ns_fd = -1;
	if (!strncmp(lc->ns, "ipc:[", 5)) {
		errno = 0;
		n = strtoull(lc->ns + 5, &end, 10);
		if (errno || end == lc->ns + 5 || strcmp(end, "]"))
			tool_usage(PROG, "--ns: bad namespace id '%s'", lc->ns);
		lc->ns_arg.ns_id = n;
		return;
	}
	if (nslogcat_number(lc->ns, &n)) {
		if (!n)
			tool_usage(PROG, "--ns: 0 is neither a pid nor an id");
		if (n > NSLOG_PID_MAX) {
			lc->ns_arg.ns_id = n;
			return;
		}
		snprintf(path, sizeof(path), "/proc/%llu/ns/ipc", n);
		file = path;
	} else if (!strchr(lc->ns, '/')) {
		tool_usage(PROG, "--ns wants a pid, a path or a namespace id, "
			       "not '%s'", lc->ns);
	}

	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, PROG ": cannot open %s: %s\n", file,
			strerror(errno));
		exit(EXIT_FAILURE);
	}
	if (fstat(fd, &st)) {
		fprintf(stderr, PROG ": %s: %s\n", file, strerror(errno));
		exit(EXIT_FAILURE);
	}
	lc->ns_arg.ns_fd = fd;
	lc->ns_arg.ns_id = st.st_ino;
}

static int nslogcat_resolve(struct nslogcat *lc, size_t i)
{
	int ret = nslog_dev_path(lc->paths[i], sizeof(lc->paths[i]),
				 lc->ids[i], lc->dev_dir);

	if (ret) {
		fprintf(stderr, PROG ": cannot name the %s device: %s\n",
			nslog_buf_name(lc->ids[i]), strerror(-ret));
		return ret;
	}
	if (lc->ns)
		snprintf(lc->names[i], sizeof(lc->names[i]),
			 "%s of ipc:[%" PRIu64 "]", lc->paths[i],
			 (uint64_t)lc->ns_arg.ns_id);
	else
		snprintf(lc->names[i], sizeof(lc->names[i]), "%s",
			 lc->paths[i]);
	return 0;
}

/* logcat's default: main, plus system if its node can be read. */
static void nslogcat_default_bufs(struct nslogcat *lc)
{
	char path[NSLOG_PATH_MAX];

	nslogcat_add_buf(lc, NSLOG_BUF_MAIN);
	if (!nslog_dev_path(path, sizeof(path), NSLOG_BUF_SYSTEM,
			    lc->dev_dir) &&
	    !access(path, R_OK))
		nslogcat_add_buf(lc, NSLOG_BUF_SYSTEM);
}

static int nslogcat_open(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC);

	if (fd < 0)
		fprintf(stderr, PROG ": cannot open %s: %s\n", path,
			strerror(errno));
	return fd;
}

/*
 * A read-only, non-blocking file on buffer @i: the node itself, or with
 * --ns the file NSLOG_IOC_OPEN_NS gives for the other namespace.
 */
static int nslogcat_open_reader(struct nslogcat *lc, size_t i)
{
	struct nslog_open_ns arg = lc->ns_arg;
	int dev, fd;

	if (!lc->ns)
		return nslogcat_open(lc->paths[i], O_RDONLY | O_NONBLOCK);

	/* Any file of the node will do; a writer needs no read access. */
	dev = nslogcat_open(lc->paths[i], O_WRONLY);
	if (dev < 0)
		return -1;
	fd = ioctl(dev, NSLOG_IOC_OPEN_NS, &arg);
	if (fd < 0) {
		fprintf(stderr, PROG ": %s: NSLOG_IOC_OPEN_NS: %s\n",
			lc->names[i], strerror(errno));
		if (errno == EINVAL && arg.ns_fd >= 0)
			fprintf(stderr, PROG ": %s is not an IPC namespace\n",
				lc->ns);
		close(dev);
		return -1;
	}
	close(dev);
	/* The new file is blocking and close-on-exec. */
	if (fcntl(fd, F_SETFL, O_NONBLOCK)) {
		fprintf(stderr, PROG ": %s: %s\n", lc->names[i],
			strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

static int nslogcat_clear_one(const char *path)
{
	int fd, ret;

	fd = nslogcat_open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ret = ioctl(fd, LOGGER_FLUSH_LOG);
	if (ret < 0)
		fprintf(stderr, PROG ": cannot clear %s: %s\n", path,
			strerror(errno));
	close(fd);
	return ret < 0 ? -1 : 0;
}

static int nslogcat_size_one(struct nslogcat *lc, size_t i)
{
	const char *path = lc->names[i];
	int fd, size, readable;

	fd = nslogcat_open_reader(lc, i);
	if (fd < 0)
		return -1;
	size = ioctl(fd, LOGGER_GET_LOG_BUF_SIZE);
	if (size < 0) {
		fprintf(stderr, PROG ": %s: LOGGER_GET_LOG_BUF_SIZE: %s\n",
			path, strerror(errno));
		goto err_close;
	}
	readable = ioctl(fd, LOGGER_GET_LOG_LEN);
	if (readable < 0) {
		fprintf(stderr, PROG ": %s: LOGGER_GET_LOG_LEN: %s\n", path,
			strerror(errno));
		goto err_close;
	}
	close(fd);
	printf("%s: ring buffer is %dKb (%dKb consumed), max entry is %db, max payload is %db\n",
	       path, size / 1024, readable / 1024, NSLOG_READ_BUF_SIZE,
	       LOGGER_ENTRY_MAX_PAYLOAD);
	return 0;

err_close:
	close(fd);
	return -1;
}

/* -c and -g: every buffer is tried; any failure makes the exit status 1. */
static int nslogcat_control(struct nslogcat *lc)
{
	int status = EXIT_SUCCESS;
	size_t i;

	for (i = 0; i < lc->count; i++) {
		if (lc->clear && nslogcat_clear_one(lc->paths[i]))
			status = EXIT_FAILURE;
		if (lc->get_size && nslogcat_size_one(lc, i))
			status = EXIT_FAILURE;
	}
	if (fflush(stdout)) {
		perror(PROG ": write error");
		status = EXIT_FAILURE;
	}
	return status;
}

static ssize_t nslogcat_read(struct nslog_src *src, void *buf, size_t size)
{
	ssize_t n = read(src->fd, buf, size);

	return n < 0 ? -errno : n;
}

/*
 * -v json shows what nslogger's own header has (sequence numbers, 64-bit
 * time, the euid), -v uid the euid: the best header the device gives,
 * else version 1 (a FIFO in the tests; the uid is then blank).
 */
static void nslogcat_best_header(const struct nslogcat *lc, int fd)
{
	int version;

	if (lc->fmt.layout == NSLOG_FMT_JSON) {
		version = NSLOG_ENTRY_VERSION;
		if (!ioctl(fd, LOGGER_SET_VERSION, &version))
			return;
	}
	if (lc->fmt.layout == NSLOG_FMT_JSON || lc->fmt.uid) {
		version = 2;
		ioctl(fd, LOGGER_SET_VERSION, &version);
	}
}

static int nslogcat_open_src(struct nslogcat *lc, size_t i)
{
	const char *path = lc->names[i];
	int version = 2;
	int fd;

	fd = nslogcat_open_reader(lc, i);
	if (fd < 0)
		return -1;
	if (!lc->v2)
		nslogcat_best_header(lc, fd);
	else if (ioctl(fd, LOGGER_SET_VERSION, &version) < 0) {
		fprintf(stderr, PROG ": %s: cannot set header version 2: %s\n",
			path, strerror(errno));
		close(fd);
		return -1;
	}
	nslog_src_init(&lc->srcs[i], path, lc->ids[i] == NSLOG_BUF_EVENTS,
		       fd, nslogcat_read, NULL);
	lc->srcs[i].log = nslog_buf_name(lc->ids[i]);
	return 0;
}

static void nslogcat_close_srcs(struct nslogcat *lc, size_t count)
{
	while (count--)
		close(lc->srcs[count].fd);
}

static int nslogcat_wait(struct nslogcat *lc)
{
	struct pollfd pfd[NSLOG_BUF_COUNT];
	size_t i;
	int ret;

	for (i = 0; i < lc->count; i++) {
		pfd[i].fd = lc->srcs[i].fd;
		pfd[i].events = POLLIN;
	}
	do
		ret = poll(pfd, lc->count, -1);
	while (ret < 0 && errno == EINTR);
	if (ret < 0)
		perror(PROG ": poll");
	return ret < 0 ? -1 : 0;
}

static int nslogcat_report(int ret, const struct nslog_src *failed)
{
	if (failed)
		fprintf(stderr, PROG ": cannot read %s: %s\n", failed->name,
			nslog_strerror(ret));
	else if (ret == -EIO)
		perror(PROG ": write error");
	else
		fprintf(stderr, PROG ": %s\n", strerror(-ret));
	return EXIT_FAILURE;
}

static int nslogcat_read_loop(struct nslogcat *lc)
{
	const struct nslog_meta meta = {
		.has_ns = lc->ns != NULL,
		.ns_id = lc->ns_arg.ns_id,
	};
	const struct nslog_printer p = {
		.out = stdout,
		.err = stderr,
		.prog = PROG,
		.fmt = lc->fmt,
		.binary = lc->binary,
		.headers = lc->count > 1 && !lc->binary &&
			   lc->fmt.layout != NSLOG_FMT_JSON,
		.filter = &lc->filter,
		.meta = &meta,
	};
	struct nslog_src *failed;
	int ret;

	for (;;) {
		ret = nslog_dump(lc->srcs, lc->count, &p, lc->tail, &failed);
		if (!ret && fflush(stdout))
			ret = -EIO;
		if (ret)
			return nslogcat_report(ret, failed);
		if (lc->dump)
			return EXIT_SUCCESS;
		if (nslogcat_wait(lc))
			return EXIT_FAILURE;
	}
}

static int nslogcat_read_all(struct nslogcat *lc)
{
	size_t i;
	int status;

	for (i = 0; i < lc->count; i++) {
		if (nslogcat_open_src(lc, i)) {
			nslogcat_close_srcs(lc, i);
			return EXIT_FAILURE;
		}
	}
	status = nslogcat_read_loop(lc);
	nslogcat_close_srcs(lc, lc->count);
	return status;
}

int main(int argc, char **argv)
{
	static struct nslogcat lc = { .fmt.layout = NSLOG_FMT_BRIEF };
	int status;
	size_t i;

	nslog_filter_init(&lc.filter);
	nslogcat_parse(&lc, argc, argv);
	if (!lc.count)
		nslogcat_default_bufs(&lc);
	if (lc.ns)
		nslogcat_ns_resolve(&lc);
	for (i = 0; i < lc.count; i++)
		if (nslogcat_resolve(&lc, i))
			return EXIT_FAILURE;

	if (lc.clear || lc.get_size)
		status = nslogcat_control(&lc);
	else
		status = nslogcat_read_all(&lc);
	nslog_filter_free(&lc.filter);
	if (lc.ns && lc.ns_arg.ns_fd >= 0)
		close(lc.ns_arg.ns_fd);
	return status;
}
