// SPDX-License-Identifier: GPL-2.0
/*
 * relay_test: the C half of relay.sh (NSLOG_IOC_RELAY in containers).
 *
 *   relay_test hold
 *	print "PID EUID HOSTPID" (getpid and geteuid as this process sees
 *	them, and the first NSpid field of /proc/self/status: the id in the
 *	pid namespace of the /proc mounted), then wait until killed
 *   relay_test relay [-d NODE] [-r] [-I NSFS] [-U NSFS] [-u UID] -p PID
 *		[-i UID] [-t TID] [-T NS] [-l LOG] [-f FLAGS] [-n COUNT]
 *		[-L LEN] [-X] [-B] [-R] [-e ERRNO] MSG
 *	COUNT times (default 1), NSLOG_IOC_RELAY on NODE (default
 *	/dev/log_main) opened write-only (-r: read-only) for writer PID with
 *	uid UID (default 0), claimed tid TID (default 77) and time NS
 *	(default 1700000000123456789), log LOG (default 0), FLAGS (default
 *	0), payload [4]["relay"\0][MSG\0] (-L LEN: that many bytes of it).
 *	-I setns()s into an IPC namespace before opening; -U into a user
 *	namespace and -u setresuid()s after opening, before the calls.
 *	-X sets a reserved word, -B passes a bad payload address, -R a bad
 *	argument address.  Prints "relay PID: N stored" (the calls that
 *	returned the length); with -e every call must fail with ERRNO
 *   relay_test read [-d NODE] [-i NSID [-s STREAM]] [-v 1]
 *	every record, one line each, read with header version 0x4e54:
 *	"PID TID EUID RELAY_PID FLAGS TIME_NS MSG" (FLAGS: r relayed,
 *	u unverified, k kernel, - none; MSG the payload's message); -v 1
 *	reads version 1 headers: "PID TID SEC NSEC MSG".  -i: through
 *	NSLOG_IOC_OPEN_NS of that IPC namespace id, or with -s through
 *	NSLOG_IOC_OPEN_STREAM of its log (or stream) named STREAM
 *
 * Exit status: 0 as expected, 1 a check failed, 2 usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/nslogger.h>

static void die(int code, const char *msg)
{
	fprintf(stderr, "relay_test: %s\n", msg);
	exit(code);
}

static void usage(void)
{
	die(2, "usage: relay_test hold | relay ... | read ... (see the source)");
}

static const struct { const char *name; int err; } errnos[] = {
	{ "EPERM", EPERM }, { "EBADF", EBADF }, { "EINVAL", EINVAL },
	{ "EFAULT", EFAULT }, { "ESRCH", ESRCH }, { "EMSGSIZE", EMSGSIZE },
	{ "EOVERFLOW", EOVERFLOW }, { "ENOTTY", ENOTTY }, { "EAGAIN", EAGAIN },
};

static int errno_of(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(errnos) / sizeof(errnos[0]); i++)
		if (!strcmp(errnos[i].name, name))
			return errnos[i].err;
	die(2, "unknown errno name");
	return 0;
}

static long nspid0(void)
{
	char line[256];
	long pid = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "NSpid:", 6))
			pid = strtol(line + 6, NULL, 10);
	fclose(f);
	return pid;
}

static int cmd_hold(void)
{
	printf("%d %u %ld\n", getpid(), geteuid(), nspid0());
	fflush(stdout);
	for (;;)
		pause();
	return 0;
}

static void enter(const char *path, int type)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || setns(fd, type))
		die(1, "cannot enter a namespace");
	close(fd);
}

static int cmd_relay(int argc, char **argv)
{
	const char *node = "/dev/log_main", *ipc = NULL, *user = NULL;
	struct nslog_relay arg = {
		.tid = 77, .time_ns = 1700000000123456789LL,
	};
	int c, fd, want = 0, rdonly = 0, bad_payload = 0, bad_arg = 0;
	long count = 1, stored = 0, uid = -1, len = -1, i;
	char payload[LOGGER_ENTRY_MAX_PAYLOAD + 64];
	size_t plen;

	while ((c = getopt(argc, argv, "d:rI:U:u:p:i:t:T:l:f:n:L:XBRe:")) != -1) {
		switch (c) {
		case 'd': node = optarg; break;
		case 'r': rdonly = 1; break;
		case 'I': ipc = optarg; break;
		case 'U': user = optarg; break;
		case 'u': uid = strtol(optarg, NULL, 10); break;
		case 'p': arg.pid = strtol(optarg, NULL, 10); break;
		case 'i': arg.uid = strtoul(optarg, NULL, 10); break;
		case 't': arg.tid = strtol(optarg, NULL, 10); break;
		case 'T': arg.time_ns = strtoll(optarg, NULL, 10); break;
		case 'l': arg.log_id = strtoul(optarg, NULL, 10); break;
		case 'f': arg.flags = strtoul(optarg, NULL, 0); break;
		case 'n': count = strtol(optarg, NULL, 10); break;
		case 'L': len = strtol(optarg, NULL, 10); break;
		case 'X': arg.__reserved[1] = 1; break;
		case 'B': bad_payload = 1; break;
		case 'R': bad_arg = 1; break;
		case 'e': want = errno_of(optarg); break;
		default: usage();
		}
	}
	if (optind != argc - 1)
		usage();
	memset(payload, 'x', sizeof(payload));
	payload[0] = 4;
	memcpy(payload + 1, "relay", 6);
	plen = 7 + snprintf(payload + 7, sizeof(payload) - 7, "%s",
			    argv[optind]) + 1;
	arg.len = len >= 0 ? (size_t)len : plen;
	arg.payload = bad_payload ? 8 : (unsigned long)payload;

	if (ipc)
		enter(ipc, CLONE_NEWIPC);
	fd = open(node, (rdonly ? O_RDONLY : O_WRONLY) | O_CLOEXEC);
	if (fd < 0)
		die(1, "cannot open the node");
	if (user)
		enter(user, CLONE_NEWUSER);
	if (uid >= 0 && setresuid(uid, uid, uid))
		die(1, "setresuid failed");

	for (i = 0; i < count; i++) {
		long ret = ioctl(fd, NSLOG_IOC_RELAY,
				 bad_arg ? (void *)8 : (void *)&arg);

		if (want) {
			if (ret != -1 || errno != want) {
				fprintf(stderr, "relay_test: got %ld (%s), want %s\n",
					ret, ret < 0 ? strerror(errno) : "success",
					strerror(want));
				return 1;
			}
			continue;
		}
		if (ret != (long)arg.len) {
			fprintf(stderr, "relay_test: relay returned %ld (%s)\n",
				ret, ret < 0 ? strerror(errno) : "short");
			return 1;
		}
		stored++;
	}
	printf("relay %d: %ld stored\n", getpid(), stored);
	return 0;
}

/* The message of a text payload: after the priority byte and the tag. */
static const char *message(const char *p, size_t len)
{
	const char *tag_end = memchr(p + 1, 0, len > 1 ? len - 1 : 0);

	return tag_end ? tag_end + 1 : "?";
}

static int cmd_read(int argc, char **argv)
{
	const char *node = "/dev/log_main", *stream = NULL;
	unsigned long long nsid = 0;
	int c, fd, version = NSLOG_ENTRY2_VERSION;
	char buf[NSLOG_ENTRY2_MAX_LEN];

	while ((c = getopt(argc, argv, "d:i:s:v:")) != -1) {
		switch (c) {
		case 'd': node = optarg; break;
		case 'i': nsid = strtoull(optarg, NULL, 10); break;
		case 's': stream = optarg; break;
		case 'v': version = strtol(optarg, NULL, 0); break;
		default: usage();
		}
	}
	fd = open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		die(1, "cannot open the node");
	if (nsid && stream) {
		struct nslog_open_stream os = { .ns_fd = -1, .ns_id = nsid };
		int nfd;

		snprintf(os.name, sizeof(os.name), "%s", stream);
		nfd = ioctl(fd, NSLOG_IOC_OPEN_STREAM, &os);
		if (nfd < 0)
			die(1, "NSLOG_IOC_OPEN_STREAM failed");
		close(fd);
		fd = nfd;
		fcntl(fd, F_SETFL, O_NONBLOCK);
	} else if (nsid) {
		struct nslog_open_ns on = { .ns_fd = -1, .ns_id = nsid };
		int nfd = ioctl(fd, NSLOG_IOC_OPEN_NS, &on);

		if (nfd < 0)
			die(1, "NSLOG_IOC_OPEN_NS failed");
		close(fd);
		fd = nfd;
		fcntl(fd, F_SETFL, O_NONBLOCK);
	}
	if (ioctl(fd, LOGGER_SET_VERSION, &version))
		die(1, "LOGGER_SET_VERSION failed");
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		/* End of file: the set, or the stream, is gone and read. */
		if ((n < 0 && errno == EAGAIN) || n == 0)
			break;
		if (n < 0)
			die(1, "read failed");
		if (version == 1) {
			struct logger_entry *e = (void *)buf;

			printf("%d %d %d %d %s\n", e->pid, e->tid, e->sec,
			       e->nsec, message(e->msg, e->len));
		} else {
			struct nslog_entry2 *e = (void *)buf;
			char fl[4] = "-";

			if (e->hdr_size != sizeof(*e) || n != e->hdr_size + e->len)
				die(1, "malformed header");
			if (e->flags) {
				int k = 0;

				if (e->flags & NSLOG_ENTRY_RELAYED)
					fl[k++] = 'r';
				if (e->flags & NSLOG_ENTRY_UNVERIFIED)
					fl[k++] = 'u';
				if (e->flags & NSLOG_ENTRY_KERNEL)
					fl[k++] = 'k';
				fl[k] = 0;
			}
			printf("%d %d %u %d %s %lld %s\n", e->pid, e->tid,
			       e->euid, e->relay_pid, fl,
			       (long long)e->time_ns, message(e->msg, e->len));
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		usage();
	if (!strcmp(argv[1], "hold"))
		return cmd_hold();
	if (!strcmp(argv[1], "relay"))
		return cmd_relay(argc - 1, argv + 1);
	if (!strcmp(argv[1], "read"))
		return cmd_read(argc - 1, argv + 1);
	usage();
	return 2;
}
