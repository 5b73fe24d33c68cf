// SPDX-License-Identifier: GPL-2.0
/*
 * command: logd's control verbs (shared/reference/logd-protocol.md,
 * "Control"), on nslogger's rings.
 *
 * A command is split on spaces (runs of spaces are one); the first word is
 * the verb, matched exactly. Log ids are decimal, 0 to 7: 0 to 3 (main,
 * radio, events, system) are the set's logs, 4 to 7 (crash, stats,
 * security, kernel) its streams, which ringctl.c answers for as empty
 * logs until they are made.
 *
 * Who may do what. "Log credentials" are logcred.c's: uid or gid root,
 * system or log, or log among the groups in /proc/PID/status; the
 * caller is its SO_PEERCRED at connect time.
 *
 *	clear		log credentials (below)
 *	setLogSize	log credentials
 *	setPruneList	log credentials
 *	reinit		log credentials (it re-reads the event tags file and
 *			resets the prune list)
 *	getStatistics	anyone; counted over the caller's uid's records only
 *			unless it has log credentials
 *	others		anyone
 *
 * An unprivileged clear: logd removes only the caller's own records. A
 * ring cannot drop one uid's records and keep the rest, and flushing the
 * whole log would let any app erase every other app's history; so an
 * unprivileged clear removes nothing and is answered "Permission Denied".
 *
 * The kernel checks again: a flush needs nslogd's own log group or
 * CAP_SYSLOG over the set, a resize CAP_SYSLOG; its -EPERM is "Permission
 * Denied" too, and any other error "busy".
 */
#include <errno.h>
#include <string.h>

#include "command.h"
#include "logstats.h"

static bool privileged(const struct nslogd_cmd *c, const struct ucred *cred)
{
	return c->logcred(cred);
}

/* Decimal digits only, at most @max; false if not. */
static bool parse_uint(const char *s, unsigned long max, unsigned long *v)
{
	unsigned long x = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		x = x * 10 + (unsigned long)(*s - '0');
		if (x > max)
			return false;
	}
	*v = x;
	return true;
}

/* The log id of argument 1: -1 after replying an error. */
static int arg_log_id(char **argv, int argc, struct nslogd_reply *r)
{
	unsigned long id;

	if (argc < 2) {
		nslogd_reply_set(r, NSLOGD_R_MISSING);
		return -1;
	}
	if (!parse_uint(argv[1], NSLOGD_LOG_COUNT - 1, &id)) {
		nslogd_reply_set(r, NSLOGD_R_RANGE);
		return -1;
	}
	return (int)id;
}

static void reply_number(struct nslogd_reply *r, long v)
{
	if (v < 0) {
		nslogd_reply_set(r, NSLOGD_R_BUSY);
		return;
	}
	nslogd_reply_reset(r);
	nslogd_reply_printf(r, "%ld", v);
}

static void reply_errno(struct nslogd_reply *r, long err)
{
	if (err >= 0)
		nslogd_reply_set(r, NSLOGD_R_SUCCESS);
	else if (err == -EPERM)
		nslogd_reply_set(r, NSLOGD_R_DENIED);
	else
		nslogd_reply_set(r, NSLOGD_R_BUSY);
}

static void do_clear(struct nslogd_cmd *c, char **argv, int argc,
		     const struct ucred *cred, struct nslogd_reply *r)
{
	int id;

	if (!privileged(c, cred)) {
		nslogd_reply_set(r, NSLOGD_R_DENIED);
		return;
	}
	id = arg_log_id(argv, argc, r);
	if (id < 0)
		return;
	reply_errno(r, nslogd_ringctl_flush(&c->ring, (unsigned int)id));
}

/* getLogSize, getLogSizeUsed, getLogSizeReadable. */
static void do_get_size(struct nslogd_cmd *c, char **argv, int argc,
			bool used, struct nslogd_reply *r)
{
	int id = arg_log_id(argv, argc, r);

	if (id < 0)
		return;
	if (used)
		reply_number(r, nslogd_ringctl_used(&c->ring, (unsigned int)id));
	else
		reply_number(r, nslogd_ringctl_size(&c->ring, (unsigned int)id));
}

static void do_set_size(struct nslogd_cmd *c, char **argv, int argc,
			const struct ucred *cred, struct nslogd_reply *r)
{
	unsigned long bytes;
	int id;

	if (!privileged(c, cred)) {
		nslogd_reply_set(r, NSLOGD_R_DENIED);
		return;
	}
	id = arg_log_id(argv, argc, r);
	if (id < 0)
		return;
	if (argc < 3) {
		nslogd_reply_set(r, NSLOGD_R_MISSING);
		return;
	}
	if (!parse_uint(argv[2], NSLOGD_SIZE_MAX, &bytes) ||
	    bytes < NSLOGD_SIZE_MIN) {
		nslogd_reply_set(r, NSLOGD_R_RANGE);
		return;
	}
	reply_errno(r, nslogd_ringctl_resize(&c->ring, (unsigned int)id,
					     (uint32_t)bytes));
}

static void do_statistics(struct nslogd_cmd *c, char **argv, int argc,
			  const struct ucred *cred, struct nslogd_reply *r)
{
	struct nslogd_logstats_req req = { 0 };
	struct nslogd_logstats_extra extra = { 0 };
	bool ids = false;
	unsigned long v;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "pid=", 4)) {
			if (!parse_uint(argv[i] + 4, 0x7fffffff, &v) || !v)
				goto err_range;
			req.pid = (pid_t)v;
		} else if (parse_uint(argv[i], NSLOGD_LOG_COUNT - 1, &v)) {
			ids = true;
			req.logs |= 1u << v;
		} else {
			goto err_range;
		}
	}
	if (!ids)
		req.logs = (1u << NSLOGD_LOG_COUNT) - 1;
	req.all_uids = privileged(c, cred);
	req.uid = cred->uid;
	if (c->stats) {
		extra.dropped = c->stats->result[NSLOGD_STORE_DROPPED];
		extra.failed = c->stats->result[NSLOGD_STORE_FAILED] +
			       c->stats->result[NSLOGD_STORE_NO_LOG] +
			       c->stats->result[NSLOGD_STORE_NO_FILE_LOG];
		for (i = 0; i < NSLOGD_LOG_COUNT; i++)
			extra.not_stored[i] = c->stats->unstored[i];
	}
	nslogd_reply_reset(r);
	if (nslogd_logstats(&c->ring, &req, c->stats ? &extra : NULL, r) ||
	    r->overflow) {
		nslogd_reply_set(r, NSLOGD_R_BUSY);
		return;
	}
	nslogd_reply_frame(r);
	return;

err_range:
	nslogd_reply_set(r, NSLOGD_R_RANGE);
}

static void do_set_prune(struct nslogd_cmd *c, char **argv, int argc,
			 const struct ucred *cred, struct nslogd_reply *r)
{
	if (!privileged(c, cred)) {
		nslogd_reply_set(r, NSLOGD_R_DENIED);
		return;
	}
	if (nslogd_prune_set(&c->prune, argv + 1, (unsigned int)argc - 1))
		nslogd_reply_set(r, NSLOGD_R_INVALID);
	else
		nslogd_reply_set(r, NSLOGD_R_SUCCESS);
}

static void reply_framed(struct nslogd_reply *r, const char *body)
{
	nslogd_reply_set(r, body);
	nslogd_reply_frame(r);
}

/*
 * getEventTag id=N, or name=NAME [format=FORMAT]: the tag's line of the
 * event-log-tags file, "NUMBER NAME FORMAT", length-prefixed. A tag the
 * file does not have is "Invalid": nslogd makes no new tags (logd gives
 * a name it does not know a number of its own; not done here yet).
 */
static void do_event_tag(struct nslogd_cmd *c, char **argv, int argc,
			 struct nslogd_reply *r)
{
	const struct nslogd_eventtag *t = NULL;
	const char *name = NULL, *id = NULL;
	unsigned long num;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "name=", 5))
			name = argv[i] + 5;
		else if (!strncmp(argv[i], "id=", 3))
			id = argv[i] + 3;
		/* format= and anything else: not needed to look a tag up */
	}
	if (id) {
		if (!parse_uint(id, 0xffffffffUL, &num)) {
			nslogd_reply_set(r, NSLOGD_R_RANGE);
			return;
		}
		t = nslogd_eventtag_by_num(&c->tags, (unsigned int)num);
	} else if (name && *name) {
		t = nslogd_eventtag_by_name(&c->tags, name);
	} else {
		nslogd_reply_set(r, NSLOGD_R_MISSING);
		return;
	}
	if (!t) {
		nslogd_reply_set(r, NSLOGD_R_INVALID);
		return;
	}
	nslogd_reply_reset(r);
	nslogd_reply_printf(r, "%u %s%s%s", t->num, t->name,
			    *t->format ? " " : "", t->format);
	nslogd_reply_frame(r);
}

/**
 * nslogd_cmd_init() - the control verbs' state
 * @c: the state
 * @dev_dir: the nodes' directory, as nslog_dev_path() takes it
 * @ioctl_fn: nslogd_ringctl_ioctl(), or a stand-in
 * @logcred: nslogd_logcred(), or a stand-in
 * @stats: the writer's counters, for getStatistics; NULL for none
 *
 * The prune list starts as logd's default; the event tags file is read
 * (a file that cannot be read leaves no tags, and nslogd goes on).
 *
 * Context: process; reads a file.
 */
void nslogd_cmd_init(struct nslogd_cmd *c, const char *dev_dir,
		     nslogd_ringctl_ioctl_fn *ioctl_fn,
		     nslogd_logcred_fn *logcred,
		     const struct nslogd_stats *stats)
{
	memset(c, 0, sizeof(*c));
	nslogd_ringctl_init(&c->ring, dev_dir, ioctl_fn);
	nslogd_prune_init(&c->prune);
	c->logcred = logcred;
	c->stats = stats;
	nslogd_eventtags_load(&c->tags, c->tags_path);
}

/**
 * nslogd_cmd_exit() - free what the state holds
 * @c: the state
 *
 * Context: any.
 */
void nslogd_cmd_exit(struct nslogd_cmd *c)
{
	nslogd_eventtags_free(&c->tags);
}

/**
 * nslogd_cmd_run() - run one command
 * @c: the state
 * @line: the command, NUL-terminated, without its NUL; cut up in place
 * @cred: the caller (SO_PEERCRED)
 * @r: the reply, made here
 *
 * Context: process; may open the log nodes, call their ioctls and, for
 * getStatistics, read every stored record.
 * Return: whether the connection goes on after the reply.
 */
enum nslogd_cmd_after nslogd_cmd_run(struct nslogd_cmd *c, char *line,
				     const struct ucred *cred,
				     struct nslogd_reply *r)
{
	char *argv[NSLOGD_CMD_ARGS];
	int argc = 0;
	char *p = line;

	for (;;) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		if (argc == NSLOGD_CMD_ARGS) {
			nslogd_reply_set(r, NSLOGD_R_TOO_LONG);
			return NSLOGD_CMD_GO_ON;
		}
		argv[argc++] = p;
		p += strcspn(p, " ");
		if (*p)
			*p++ = '\0';
	}

	if (!argc) {
		nslogd_reply_set(r, NSLOGD_R_UNKNOWN);
	} else if (!strcmp(argv[0], "clear")) {
		do_clear(c, argv, argc, cred, r);
	} else if (!strcmp(argv[0], "getLogSize")) {
		do_get_size(c, argv, argc, false, r);
	} else if (!strcmp(argv[0], "setLogSize")) {
		do_set_size(c, argv, argc, cred, r);
	} else if (!strcmp(argv[0], "getLogSizeUsed") ||
		   !strcmp(argv[0], "getLogSizeReadable")) {
		/* nothing is compressed here: both are the bytes stored */
		do_get_size(c, argv, argc, true, r);
	} else if (!strcmp(argv[0], "getStatistics")) {
		do_statistics(c, argv, argc, cred, r);
	} else if (!strcmp(argv[0], "getPruneList")) {
		reply_framed(r, c->prune.list);
	} else if (!strcmp(argv[0], "setPruneList")) {
		do_set_prune(c, argv, argc, cred, r);
	} else if (!strcmp(argv[0], "getEventTag")) {
		do_event_tag(c, argv, argc, r);
	} else if (!strcmp(argv[0], "reinit")) {
		/* logd's reinit reads its settings again: the prune list
		 * is its default again (nslogd reads no properties) */
		if (privileged(c, cred)) {
			nslogd_prune_init(&c->prune);
			nslogd_eventtags_load(&c->tags, c->tags_path);
			nslogd_reply_set(r, NSLOGD_R_SUCCESS);
		} else {
			nslogd_reply_set(r, NSLOGD_R_DENIED);
		}
	} else if (!strcmp(argv[0], "exit")) {
		nslogd_reply_set(r, NSLOGD_R_SUCCESS);
		return NSLOGD_CMD_CLOSE;
	} else {
		nslogd_reply_set(r, NSLOGD_R_UNKNOWN);
	}
	return NSLOGD_CMD_GO_ON;
}
