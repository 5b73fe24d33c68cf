// SPDX-License-Identifier: GPL-2.0
/*
 * nslogcat: read the nslogger buffers, in the manner of Android's logcat.
 *
 * The options are catopts.c's.  Records come from liblog's read API
 * (android_logger_list_read(), which merges the selected buffers in time
 * order) and are printed by logprint.c in one of logcat's layouts, to
 * stdout or to a rotated file (rotate.c).  -c, -g and -G work through the
 * API's per-buffer calls; -S prints the module's counts (catstats.c).
 *
 * With --ns, reads another IPC namespace's buffers instead, as a host
 * collector: NSLOG_IOC_OPEN_NS on each buffer's node gives a read-only file
 * on the same buffer of that namespace's log set.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <log/event_tag_map.h>
#include <log/log_read.h>
#include <log/nslog_read.h>

#include "catns.h"
#include "catopts.h"
#include "catstats.h"
#include "devpath.h"
#include "logprint.h"
#include "rotate.h"

#define PROG	NSLOG_CAT_PROG

struct nslogcat {
	struct nslog_catopts o;
	int ns_fd;			/* --ns: the nsfs file, or -1 */
	uint64_t ns_id;			/* --ns: the namespace's id */
	struct logger_list *list;
	struct logger *logs[NSLOG_BUF_COUNT];	/* as o.ids */
	EventTagMap *tags;
	struct nslog_rotate rot;
	FILE *out;
};

/* --ns: exits on failure, as a usage error for a bad argument. */
static void nslogcat_ns_resolve(struct nslogcat *lc)
{
	int ret = nslog_catns_resolve(lc->o.ns, &lc->ns_fd, &lc->ns_id);

	if (ret == -EINVAL) {
		fprintf(stderr, PROG ": --ns wants a pid, a path or a namespace "
			"id, not '%s'\nTry '" PROG " --help' for more "
			"information.\n", lc->o.ns);
		exit(EXIT_FAILURE);
	}
	if (ret) {
		fprintf(stderr, PROG ": --ns %s: %s\n", lc->o.ns,
			strerror(-ret));
		exit(EXIT_FAILURE);
	}
}

/* logcat's default: main, plus system if its node can be read. */
static void nslogcat_default_system(struct nslogcat *lc)
{
	char path[NSLOG_PATH_MAX];
	size_t i;

	if (!lc->o.system_if_present)
		return;
	for (i = 0; i < lc->o.count; i++)
		if (lc->o.ids[i] == NSLOG_BUF_SYSTEM)
			return;
	if (!nslog_dev_path(path, sizeof(path), NSLOG_BUF_SYSTEM,
			    lc->o.dev_dir) &&
	    !access(path, R_OK))
		lc->o.ids[lc->o.count++] = NSLOG_BUF_SYSTEM;
}

/* A buffer in messages: its node, and with --ns the namespace too. */
static void nslogcat_where(const struct nslogcat *lc, const char *path)
{
	if (lc->o.ns)
		fprintf(stderr, "%s of ipc:[%" PRIu64 "]", path, lc->ns_id);
	else
		fputs(path, stderr);
}

static void nslogcat_open_failed(const struct nslogcat *lc, int id, int err)
{
	const char *path = NULL, *what = NULL;

	if (nslog_logger_list_error(lc->list, &path, &what) != id) {
		fprintf(stderr, PROG ": Unable to open log device '%s': %s\n",
			nslog_buf_name(id), strerror(err));
		return;
	}
	if (!strcmp(what, "open")) {
		fprintf(stderr, PROG ": cannot open %s: %s\n", path,
			strerror(err));
		return;
	}
	fputs(PROG ": ", stderr);
	nslogcat_where(lc, path);
	if (!strcmp(what, "LOGGER_SET_VERSION"))
		fprintf(stderr, ": cannot set header version 2: %s\n",
			strerror(err));
	else
		fprintf(stderr, ": %s: %s\n", what, strerror(err));
	if (!strcmp(what, "NSLOG_IOC_OPEN_NS") && err == EINVAL &&
	    lc->ns_fd >= 0)
		fprintf(stderr, PROG ": %s is not an IPC namespace\n",
			lc->o.ns);
}

static int nslogcat_open(struct nslogcat *lc)
{
	int mode = ANDROID_LOG_RDONLY | ANDROID_LOG_NONBLOCK;
	int header = 0;
	size_t i;

	/* -c and -G need no read access, as logcat's: a writer may try them */
	if ((lc->o.clear || lc->o.set_size) && !lc->o.get_size)
		mode = ANDROID_LOG_WRONLY;

	if (lc->o.has_start) {
		log_time start = {
			.tv_sec = lc->o.start_sec,
			.tv_nsec = lc->o.start_nsec,
		};

		lc->list = android_logger_list_alloc_time(mode, start,
							  lc->o.pid);
	} else {
		lc->list = android_logger_list_alloc(mode, lc->o.tail,
						     lc->o.pid);
	}
	if (!lc->list) {
		perror(PROG);
		return -1;
	}
	/*
	 * nslogger's header, with a relayed record's relay where it has it;
	 * the other layouts keep version 4 (and logcat's merge by time)
	 * unless they show the relay.
	 */
	if (lc->o.fmt.layout == NSLOG_FMT_JSON || lc->o.fmt.relay)
		header = NSLOG_ENTRY2_VERSION;
	else if (lc->o.v2)
		header = 2;
	if (nslog_logger_list_set_header(lc->list, header) ||
	    nslog_logger_list_set_dev_dir(lc->list, lc->o.dev_dir) ||
	    (lc->o.ns && nslog_logger_list_set_ns(lc->list, lc->ns_fd,
						  lc->ns_id))) {
		perror(PROG);
		return -1;
	}
	for (i = 0; i < lc->o.count; i++) {
		lc->logs[i] = android_logger_open(lc->list,
						  (log_id_t)lc->o.ids[i]);
		if (!lc->logs[i]) {
			nslogcat_open_failed(lc, lc->o.ids[i], errno);
			return -1;
		}
	}
	return 0;
}

/* logcat's sizes: the value divided by 1024 while it is 1024 or more. */
static void nslogcat_size_str(char *buf, size_t size, unsigned long v)
{
	static const char *const units[] = { "", "Ki", "Mi", "Gi" };
	size_t i = 0;

	while (i < 3 && v >= 1024) {
		v /= 1024;
		i++;
	}
	snprintf(buf, size, "%lu %sB", v, units[i]);
}

static int nslogcat_get_size(struct nslogcat *lc, size_t i)
{
	const char *name = nslog_buf_name(lc->o.ids[i]);
	long size = android_logger_get_log_size(lc->logs[i]);
	long readable = android_logger_get_log_readable_size(lc->logs[i]);
	char s[32], r[32];

	if (size < 0 || readable < 0) {
		fprintf(stderr, PROG ": failed to get the readable '%s' log "
			"size: ", name);
		nslogcat_where(lc, nslog_logger_path(lc->logs[i]));
		fprintf(stderr, ": %s: %s\n", size < 0 ?
			"LOGGER_GET_LOG_BUF_SIZE" : "LOGGER_GET_LOG_LEN",
			strerror((int)-(size < 0 ? size : readable)));
		return -1;
	}
	nslogcat_size_str(s, sizeof(s), (unsigned long)size);
	nslogcat_size_str(r, sizeof(r), (unsigned long)readable);
	printf("%s: ring buffer is %s (%s consumed), max entry is %d B, "
	       "max payload is %d B\n", name, s, r, LOGGER_ENTRY_MAX_LEN,
	       LOGGER_ENTRY_MAX_PAYLOAD);
	return 0;
}

static int nslogcat_control_one(struct nslogcat *lc, size_t i)
{
	const char *name = nslog_buf_name(lc->o.ids[i]);
	const char *path = nslog_logger_path(lc->logs[i]);
	int ret, status = 0;

	if (lc->o.clear && !lc->o.file) {
		ret = android_logger_clear(lc->logs[i]);
		if (ret) {
			fprintf(stderr, PROG ": failed to clear the '%s' log: "
				"%s: %s\n", name, path, strerror(-ret));
			status = -1;
		}
	}
	if (lc->o.set_size) {
		ret = android_logger_set_log_size(lc->logs[i], lc->o.set_size);
		if (ret) {
			fprintf(stderr, PROG ": failed to set the '%s' log "
				"size: %s: %s%s\n", name, path, strerror(-ret),
				ret == -ENOTTY ? " (not a logger device, or a "
				"module without NSLOG_IOC_SET_SIZE)" :
				ret == -EFBIG ? " (above what the host allows)" :
				"");
			status = -1;
		}
	}
	if (lc->o.get_size && nslogcat_get_size(lc, i))
		status = -1;
	return status;
}

/* -c, -G and -g: every buffer is tried; any failure makes the status 1. */
static int nslogcat_control(struct nslogcat *lc)
{
	int status = EXIT_SUCCESS, ret;
	size_t i;

	if (lc->o.clear && lc->o.file) {
		ret = nslog_rotate_clear(lc->o.file, lc->o.rotate_count);
		if (ret) {
			fprintf(stderr, PROG ": while clearing log files: %s\n",
				strerror(-ret));
			status = EXIT_FAILURE;
		}
	}
	for (i = 0; i < lc->o.count; i++)
		if (nslogcat_control_one(lc, i))
			status = EXIT_FAILURE;
	if (fflush(stdout)) {
		perror(PROG ": write error");
		status = EXIT_FAILURE;
	}
	return status;
}

static int nslogcat_stats(struct nslogcat *lc)
{
	struct nslog_catstat st[NSLOG_BUF_COUNT];
	const char *dir = getenv("NSLOG_PROC_DIR");
	char path[NSLOG_PATH_MAX], *text;
	uint64_t ns_id = lc->ns_id;
	int ret;

	snprintf(path, sizeof(path), "%s/namespaces",
		 dir && *dir ? dir : "/proc/nslogger");
	if (!lc->o.ns) {
		ret = nslog_catstats_self_ns(&ns_id);
		if (ret) {
			fprintf(stderr, PROG ": -S: /proc/self/ns/ipc: %s\n",
				strerror(-ret));
			return EXIT_FAILURE;
		}
	}
	ret = nslog_catstats_read(path, &text);
	if (ret) {
		fprintf(stderr, PROG ": -S: cannot read %s: %s%s\n", path,
			strerror(-ret), ret == -EPERM || ret == -EACCES ?
			" (needs CAP_SYSLOG in the initial user namespace)" :
			"");
		return EXIT_FAILURE;
	}
	ret = nslog_catstats_parse(text, ns_id, st);
	free(text);
	if (ret) {
		fprintf(stderr, PROG ": -S: %s lists no log set of "
			"ipc:[%" PRIu64 "]\n", path, ns_id);
		return EXIT_FAILURE;
	}
	nslog_catstats_print(stdout, ns_id, st, lc->o.ids, lc->o.count);
	if (fflush(stdout)) {
		perror(PROG ": write error");
		return EXIT_FAILURE;
	}
	return EXIT_SUCCESS;
}

/* The event tag map, if an events buffer is read. */
static int nslogcat_tags(struct nslogcat *lc)
{
	const char *path = lc->o.event_tags;
	size_t i;

	for (i = 0; i < lc->o.count; i++)
		if (lc->o.ids[i] == NSLOG_BUF_EVENTS)
			break;
	if (i == lc->o.count || lc->o.binary)
		return 0;
	lc->tags = android_openEventTagMap(path);
	if (!lc->tags && lc->o.event_tags_given) {
		fprintf(stderr, PROG ": cannot read the event tags %s: %s\n",
			path, strerror(errno));
		return -1;
	}
	return 0;
}

static int nslogcat_wait(struct nslogcat *lc)
{
	struct pollfd pfd[NSLOG_BUF_COUNT];
	size_t i;
	int ret;

	for (i = 0; i < lc->o.count; i++) {
		pfd[i].fd = nslog_logger_fd(lc->logs[i]);
		pfd[i].events = POLLIN;
	}
	do
		ret = poll(pfd, lc->o.count, -1);
	while (ret < 0 && errno == EINTR);
	if (ret < 0)
		perror(PROG ": poll");
	return ret < 0 ? -1 : 0;
}

static int nslogcat_read_failed(struct nslogcat *lc, int ret)
{
	const char *path = NULL;

	if (nslog_logger_list_error(lc->list, &path, NULL) < 0 || !path) {
		fprintf(stderr, PROG ": read: %s\n", strerror(-ret));
		return EXIT_FAILURE;
	}
	fputs(PROG ": cannot read ", stderr);
	nslogcat_where(lc, path);
	if (ret == -EIO)
		fputs(": unexpected end of file (not a logger device?)\n",
		      stderr);
	else if (ret == -EINVAL)
		fputs(": record size does not match its header (not a logger "
		      "device?)\n", stderr);
	else
		fprintf(stderr, ": %s\n", strerror(-ret));
	return EXIT_FAILURE;
}

static int nslogcat_output_failed(struct nslogcat *lc, int ret)
{
	if (ret == -EIO)
		fprintf(stderr, PROG ": write error%s%s\n",
			lc->o.file ? ": " : "", lc->o.file ? lc->o.file : "");
	else
		fprintf(stderr, PROG ": %s: %s\n",
			lc->o.file ? lc->o.file : "output", strerror(-ret));
	return EXIT_FAILURE;
}

static int nslogcat_loop(struct nslogcat *lc, const struct nslog_printer *tpl)
{
	struct nslog_printer p = *tpl;
	struct nslog_print_state st;
	struct log_msg *msg;
	size_t printed = 0;
	int ret, status = EXIT_SUCCESS;

	msg = malloc(sizeof(*msg));
	if (!msg) {
		perror(PROG);
		return EXIT_FAILURE;
	}
	nslog_print_state_init(&st);
	for (;;) {
		if (lc->o.max_count && printed >= lc->o.max_count)
			break;
		ret = android_logger_list_read(lc->list, msg);
		if (ret == -EAGAIN) {
			if (fflush(lc->out)) {
				status = nslogcat_output_failed(lc, -EIO);
				break;
			}
			if (lc->o.dump)
				break;
			if (nslogcat_wait(lc)) {
				status = EXIT_FAILURE;
				break;
			}
			continue;
		}
		if (ret < 0) {
			fflush(lc->out);
			status = nslogcat_read_failed(lc, ret);
			break;
		}
		p.out = lc->out;
		ret = nslog_print(&p, &st, msg->buf, (size_t)ret);
		if (ret > 0)
			printed++;
		if (ret >= 0 && lc->o.file)
			ret = nslog_rotate_check(&lc->rot);
		if (ret < 0) {
			status = nslogcat_output_failed(lc, ret);
			break;
		}
		lc->out = lc->o.file ? lc->rot.f : stdout;
	}
	free(msg);
	if (fflush(lc->out) && status == EXIT_SUCCESS)
		status = nslogcat_output_failed(lc, -EIO);
	return status;
}

static int nslogcat_read_all(struct nslogcat *lc)
{
	const struct nslog_meta meta = {
		.has_ns = lc->o.ns != NULL,
		.ns_id = lc->ns_id,
	};
	struct nslog_printer p = {
		.err = stderr,
		.prog = PROG,
		.fmt = lc->o.fmt,
		.binary = lc->o.binary,
		.headers = lc->o.count > 1 && !lc->o.binary,
		.dividers = lc->o.dividers,
		.filter = &lc->o.filter,
		.regex = lc->o.has_regex ? &lc->o.regex : NULL,
		.uids = lc->o.uids,
		.uid_count = lc->o.uid_count,
		.meta = &meta,
	};
	int ret, status;

	/* --v2: -v long shows the euid, as it did with version 2 headers */
	if (lc->o.v2 && p.fmt.layout == NSLOG_FMT_LONG)
		p.fmt.uid = true;
	if (nslogcat_tags(lc))
		return EXIT_FAILURE;
	p.tags = lc->tags;
	lc->out = stdout;
	if (lc->o.file) {
		ret = nslog_rotate_open(&lc->rot, lc->o.file, lc->o.rotate_kb,
					lc->o.rotate_count);
		if (ret) {
			fprintf(stderr, PROG ": couldn't open output file %s: "
				"%s\n", lc->o.file, strerror(-ret));
			return EXIT_FAILURE;
		}
		lc->out = lc->rot.f;
	}
	p.out = lc->out;
	status = nslogcat_loop(lc, &p);
	if (lc->o.file && nslog_rotate_close(&lc->rot) &&
	    status == EXIT_SUCCESS)
		status = nslogcat_output_failed(lc, -EIO);
	return status;
}

int main(int argc, char **argv)
{
	static struct nslogcat lc = { .ns_fd = -1 };
	int status;

	nslog_catopts_parse(&lc.o, argc, argv);
	nslogcat_default_system(&lc);
	if (lc.o.ns)
		nslogcat_ns_resolve(&lc);

	if (lc.o.stats)
		status = nslogcat_stats(&lc);
	else if (nslogcat_open(&lc))
		status = EXIT_FAILURE;
	else if (lc.o.clear || lc.o.get_size || lc.o.set_size)
		status = nslogcat_control(&lc);
	else
		status = nslogcat_read_all(&lc);

	android_logger_list_free(lc.list);
	android_closeEventTagMap(lc.tags);
	nslog_catopts_free(&lc.o);
	if (lc.ns_fd >= 0)
		close(lc.ns_fd);
	return status;
}
