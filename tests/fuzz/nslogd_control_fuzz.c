// SPDX-License-Identifier: GPL-2.0
/*
 * nslogd_control_fuzz: logd's control socket as nslogd serves it
 * (control.c: connections, commands in any pieces, replies; command.c:
 * the verbs), a client sending the input's bytes.  The socket is a real
 * one (an abstract unix socket of this process); the logger ioctls are
 * played here (ringctl.h's function pointer) on empty regular files that
 * stand for the nodes, and the event tags file is one of the harness's.
 *
 * Input: [privileged][ioctl answers] then pieces, each a 16-bit length
 * and the bytes sent in one send(); control runs after each.
 *
 * Checked: every reply is NUL-terminated and is a word of the protocol,
 * a number, or a length-prefixed reply whose length is its own; no more
 * replies than commands; once the client has gone, its connection is
 * closed.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "fuzz.h"
#include "nslogd/control.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);

static const char tags_text[] =
	"42 answer (to life|1)\n"
	"2718 e\n"
	"1004 am_proc_start (User|1|5),(PID|1|5)\n";

static char dir[64];
static struct sockaddr_un addr;
static socklen_t addr_len;
static struct nslogd_control ctl;
static bool priv;
static uint8_t answers;

static bool fake_logcred(const struct ucred *c)
{
	(void)c;
	return priv;
}

static long fake_ioctl(int fd, unsigned long req, void *arg)
{
	(void)fd;
	if (req == LOGGER_GET_LOG_BUF_SIZE)
		return answers & 1 ? -EIO : 256 << 10;
	if (req == LOGGER_GET_LOG_LEN)
		return answers & 2 ? -EIO : 1234;
	if (req == LOGGER_FLUSH_LOG)
		return answers & 4 ? -EPERM : 0;
	if (req == NSLOG_IOC_SET_SIZE)
		return *(uint32_t *)arg > (64u << 10) >> (answers >> 4 & 3) ?
		       -EFBIG : 0;
	if (req == LOGGER_SET_VERSION)
		return answers & 8 ? -EINVAL : 0;
	if (req == NSLOG_IOC_INFO) {
		memset(arg, 0, sizeof(struct nslog_info));
		return 0;
	}
	return -ENOTTY;
}

static void cleanup(void)
{
	char path[128];
	int i;

	nslogd_control_exit(&ctl);
	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir,
			 (const char *[]){ "main", "radio", "events",
					   "system" }[i]);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/event-log-tags", dir);
	unlink(path);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char *const logs[] = { "main", "radio", "events",
					    "system" };
	char path[128];
	int fd, lfd, i;

	(void)argc;
	(void)argv;
	snprintf(dir, sizeof(dir), "/tmp/nslog-fuzz-ctl.XXXXXX");
	if (!mkdtemp(dir))
		abort();
	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, logs[i]);
		fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
		if (fd < 0)
			abort();
		close(fd);
	}
	snprintf(path, sizeof(path), "%s/event-log-tags", dir);
	fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, tags_text, sizeof(tags_text) - 1) < 0)
		abort();
	close(fd);
	setenv("NSLOG_EVENT_TAGS", path, 1);

	addr.sun_family = AF_UNIX;
	addr_len = offsetof(struct sockaddr_un, sun_path) + 1 +
		   (socklen_t)snprintf(addr.sun_path + 1,
				       sizeof(addr.sun_path) - 1,
				       "nslog-fuzz-ctl-%d", (int)getpid());
	lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&addr, addr_len) ||
	    listen(lfd, 128))
		abort();
	if (nslogd_control_init(&ctl, lfd, dir, fake_ioctl, fake_logcred,
				NULL))
		abort();
	atexit(cleanup);
	return 0;
}

static bool known_word(const char *s)
{
	static const char *const words[] = {
		NSLOGD_R_SUCCESS, NSLOGD_R_BUSY, NSLOGD_R_DENIED,
		NSLOGD_R_INVALID, NSLOGD_R_MISSING, NSLOGD_R_RANGE,
		NSLOGD_R_UNKNOWN, NSLOGD_R_TOO_LARGE, NSLOGD_R_TOO_LONG,
	};
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcmp(s, words[i]))
			return true;
	return false;
}

/* One reply, without its NUL. */
static void check_reply(const char *s, size_t n)
{
	unsigned long total;
	char *end;

	FZ_CHECK(strlen(s) == n);
	if (known_word(s) || (n && strspn(s, "0123456789") == n))
		return;
	/* "<total>\n<body>\n\f", the total counting all of it */
	total = strtoul(s, &end, 10);
	FZ_CHECK(end > s && *end == '\n');
	FZ_CHECK(total == n && n >= 2 && !strcmp(s + n - 2, "\n\f"));
}

/* The replies that came, each checked; their count. */
static size_t take_replies(int fd, char *buf, size_t *len, size_t size)
{
	size_t count = 0, k;
	ssize_t got;
	char *nul;

	for (;;) {
		got = recv(fd, buf + *len, size - *len, MSG_DONTWAIT);
		if (got <= 0)
			break;
		*len += (size_t)got;
		while ((nul = memchr(buf, '\0', *len))) {
			k = (size_t)(nul - buf);
			check_reply(buf, k);
			count++;
			memmove(buf, nul + 1, *len - k - 1);
			*len -= k + 1;
		}
		FZ_CHECK(*len < size);
	}
	return count;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char in[NSLOGD_REPLY_MAX + 64];
	struct fz f = { data, size };
	size_t len = 0, replies = 0, nuls = 0, n, off;
	const uint8_t *piece;
	ssize_t sent;
	int fd, i;

	priv = fz_u8(&f) & 1;
	answers = fz_u8(&f);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&addr, addr_len))
		abort();
	nslogd_control_run(&ctl, 1);
	while (f.n) {
		piece = fz_piece(&f, 4096, &n);
		nuls += fz_count(piece, n, '\0');
		for (off = 0; off < n; off += (size_t)sent) {
			sent = send(fd, piece + off, n - off, MSG_NOSIGNAL);
			if (sent < 0 && errno != EAGAIN)
				goto gone;	/* closed after a bad command */
			if (sent < 0)
				sent = 0;
			nslogd_control_run(&ctl, 2);
			replies += take_replies(fd, in, &len, sizeof(in));
		}
	}
gone:
	shutdown(fd, SHUT_WR);
	for (i = 0; i < 4 && nslogd_control_conns(&ctl); i++) {
		nslogd_control_run(&ctl, 3);
		replies += take_replies(fd, in, &len, sizeof(in));
	}
	FZ_CHECK(replies <= nuls + 1);
	close(fd);
	for (i = 0; i < 4 && nslogd_control_conns(&ctl); i++)
		nslogd_control_run(&ctl, 4);
	FZ_CHECK(!nslogd_control_conns(&ctl));
	return 0;
}
