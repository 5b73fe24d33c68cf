// SPDX-License-Identifier: GPL-2.0
/*
 * journalpos: which record of a log the journal has last.
 *
 * A collector that ships to journald and is killed (SIGKILL, a crash)
 * restarts from its state file, which lags what it had shipped by up to
 * --state-interval.  Before following, it asks the journal, for each log
 * of each set, for the newest entry it wrote (journalrec.c's fields):
 *
 *   NSLOG_SET_ID=<set id> NSLOG_LOG=<log>          this set's log
 *   _BOOT_ID=<this boot> _UID=<our uid>            written by journald,
 *   _TRANSPORT=journal                             not by the sender
 *
 * Set ids are unique per boot only, hence the boot.  The trusted fields
 * (underscored: journald fills them in from the socket's credentials)
 * keep out entries that another user's process sends to the journal with
 * our field names: only a process of the collector's uid (root, for the
 * unit) can make the collector skip records.  The newest entry gives the
 * position: NSLOG_SEQ for a record, NSLOG_LOST_LAST_SEQ for a record of
 * lost records (the records it speaks for are not to be reported again);
 * a record that records may have been lost (NSLOG_LOST=unknown, a set
 * that went) gives none, and the walk goes on to an older entry.
 * resume.c takes the larger of that and the state file's word.
 *
 * Timing.  sd_journal_sendv() returns once the datagram is queued on
 * journald's socket, not once journald wrote it: a collector killed
 * right after a send may leave entries in that queue, which a reader
 * does not see yet.  nslog_journal_sync() closes that window: journald's
 * io.systemd.Journal.Synchronize (journalctl --sync) replies only after
 * journald processed everything queued on its sockets (the reply runs
 * at a lower priority than the sockets) and wrote its files.  A
 * collector restarting calls it before reading; the killed one's
 * datagrams were all queued before its death, hence before the call.
 * The socket is root's (0600): without it (not root, or a journald too
 * old to have it) what journald had queued and not written when the
 * journal is read is shipped again.
 *
 * Reading the journal needs root, or the groups systemd-journal or adm;
 * with no file readable, nslog_jpos_open() says so (-EACCES) and the
 * state file alone counts.  Entries journald dropped (rate limit, full
 * disk) or that were rotated away and vacuumed are not found: the state
 * file's position then counts, and what it lags is shipped again.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <systemd/sd-journal.h>

#include "journalpos.h"

/* Entries of one log looked at, newest first, for one with a position. */
#define NSLOG_JPOS_WALK		16

static long nslog_ms_left(const struct timespec *end)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (end->tv_sec - now.tv_sec) * 1000 +
	       (end->tv_nsec - now.tv_nsec) / 1000000;
}

/**
 * nslog_journal_sync() - wait until journald wrote what was sent to it
 * @path: its varlink socket (NSLOG_JOURNAL_VARLINK)
 * @timeout_ms: at most this long
 *
 * One varlink call, io.systemd.Journal.Synchronize (what journalctl
 * --sync does; libsystemd has no public varlink client before 257): a
 * request and a reply, each a JSON object ended by a NUL.
 *
 * Context: process context; blocks up to @timeout_ms.
 * Return: 0 once journald replied; -ETIMEDOUT; -EPROTO if it replied
 * with an error; the negative errno of connecting (-EACCES: not root,
 * -ENOENT: no journald, or one without varlink).
 */
int nslog_journal_sync(const char *path, int timeout_ms)
{
	static const char req[] =
		"{\"method\":\"io.systemd.Journal.Synchronize\",\"parameters\":{}}";
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct pollfd p = { .events = POLLIN };
	struct timespec end;
	char buf[512];
	size_t n = 0;
	ssize_t r;
	long left;
	int ret;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += timeout_ms / 1000;
	end.tv_nsec += (timeout_ms % 1000) * 1000000L;
	if (end.tv_nsec >= 1000000000L) {
		end.tv_sec++;
		end.tv_nsec -= 1000000000L;
	}
	p.fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (p.fd < 0)
		return -errno;
	if (connect(p.fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    send(p.fd, req, sizeof(req), MSG_NOSIGNAL) != sizeof(req)) {
		ret = -errno;
		goto out;
	}
	for (;;) {
		left = nslog_ms_left(&end);
		if (left <= 0) {
			ret = -ETIMEDOUT;
			break;
		}
		ret = poll(&p, 1, (int)left);
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret < 0) {
			ret = -errno;
			break;
		}
		if (!ret)
			continue;
		r = read(p.fd, buf + n, sizeof(buf) - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			ret = r ? -errno : -EPROTO;	/* closed: no reply */
			break;
		}
		n += (size_t)r;
		if (memchr(buf, '\0', n) || n == sizeof(buf) - 1) {
			buf[n] = '\0';
			ret = strstr(buf, "\"error\"") ? -EPROTO : 0;
			break;
		}
	}
out:
	close(p.fd);
	return ret;
}

/**
 * nslog_jpos_open() - open the journal to ask it for positions
 * @q: filled in
 * @dir: a directory of journal files (tests), or NULL: the local journal
 * @boot_id: this boot's, as /proc/sys/kernel/random/boot_id has it
 * @uid: the collector's uid (getuid()): entries of others do not count
 *
 * Context: process context.
 * Return: 0; -EACCES if no journal file could be read (permissions, or
 * journald keeps none); another negative errno from sd_journal_open().
 */
int nslog_jpos_open(struct nslog_jpos *q, const char *dir,
		    const char *boot_id, uid_t uid)
{
	sd_journal *j = NULL;
	char *p;
	int ret;

	memset(q, 0, sizeof(*q));
	p = q->boot_match + sprintf(q->boot_match, "_BOOT_ID=");
	for (; *boot_id && p < q->boot_match + sizeof(q->boot_match) - 1;
	     boot_id++)
		if (*boot_id != '-')
			*p++ = *boot_id;
	*p = '\0';
	snprintf(q->uid_match, sizeof(q->uid_match), "_UID=%u",
		 (unsigned int)uid);
	if (dir)
		ret = sd_journal_open_directory(&j, dir, 0);
	else
		ret = sd_journal_open(&j, SD_JOURNAL_LOCAL_ONLY);
	if (ret < 0)
		return ret;
	if (sd_journal_has_runtime_files(j) <= 0 &&
	    sd_journal_has_persistent_files(j) <= 0) {
		sd_journal_close(j);
		return -EACCES;
	}
	q->j = j;
	return 0;
}

/* The entry's FIELD as a number; -ENOENT if it has none, -EBADMSG. */
static int nslog_jpos_u64(sd_journal *j, const char *field, __u64 *v)
{
	size_t flen = strlen(field), len, i;
	const void *data;
	const char *s;
	uint64_t n = 0;
	int ret;

	ret = sd_journal_get_data(j, field, &data, &len);
	if (ret < 0)
		return ret;
	s = data;
	if (len <= flen + 1 || len - flen - 1 > 20)
		return -EBADMSG;
	for (i = flen + 1; i < len; i++) {
		if (s[i] < '0' || s[i] > '9' ||
		    n > (UINT64_MAX - (uint64_t)(s[i] - '0')) / 10)
			return -EBADMSG;
		n = n * 10 + (uint64_t)(s[i] - '0');
	}
	*v = n;
	return 0;
}

/**
 * nslog_jpos_last() - the last record of a log that the journal has
 * @q: opened
 * @set_id: the set
 * @log: its log's name (main, events, radio, system, or a stream's)
 * @pos: set to it: has = false if the journal has no entry of it
 *
 * Context: process context; reads the journal files.
 * Return: 0, or a negative errno from sd-journal.
 */
int nslog_jpos_last(struct nslog_jpos *q, __u64 set_id, const char *log,
		    struct nslog_pos *pos)
{
	sd_journal *j = q->j;
	/* "NSLOG_LOG=" and a stream's name of up to 31 characters */
	char set_match[48], log_match[48];
	unsigned int i;
	__u64 v;
	int ret;

	pos->has = false;
	pos->last = 0;
	snprintf(set_match, sizeof(set_match), "NSLOG_SET_ID=%" PRIu64,
		 (uint64_t)set_id);
	snprintf(log_match, sizeof(log_match), "NSLOG_LOG=%s", log);
	sd_journal_flush_matches(j);
	/* different fields: all must hold */
	ret = sd_journal_add_match(j, set_match, 0);
	if (!ret)
		ret = sd_journal_add_match(j, log_match, 0);
	if (!ret)
		ret = sd_journal_add_match(j, q->boot_match, 0);
	if (!ret)
		ret = sd_journal_add_match(j, q->uid_match, 0);
	if (!ret)
		ret = sd_journal_add_match(j, "_TRANSPORT=journal", 0);
	if (!ret)
		ret = sd_journal_seek_tail(j);
	if (ret < 0)
		return ret;
	for (i = 0; i < NSLOG_JPOS_WALK; i++) {
		ret = sd_journal_previous(j);
		if (ret <= 0)
			return ret;
		if (!nslog_jpos_u64(j, "NSLOG_SEQ", &v) ||
		    !nslog_jpos_u64(j, "NSLOG_LOST_LAST_SEQ", &v)) {
			pos->has = true;
			pos->last = v;
			return 0;
		}
	}
	return 0;
}

void nslog_jpos_close(struct nslog_jpos *q)
{
	if (q->j)
		sd_journal_close(q->j);
	q->j = NULL;
}
