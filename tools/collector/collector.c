// SPDX-License-Identifier: GPL-2.0
/*
 * nslog-collector: every log set of the host, to journald, syslog or
 * JSON lines, labelled with its container, with nothing lost silently.
 *
 * One process follows every set /proc/nslogger/namespaces lists (the
 * host's, each container's, live and dead-in-grace) and each new one as
 * it appears: poll() on the listing reports a set made, dead or reaped
 * (collscan.c).  Each set's logs are opened by namespace id
 * (NSLOG_IOC_OPEN_NS) with nslogger's header (sequence numbers, loss)
 * and read in write order until end of file, which comes once the set is
 * gone (logset.c).  Every record goes to one output (output.c) with its
 * container's identity (nsident.c, cgparse.c).  Records the kernel
 * overwrote or flushed before they were read are reported as records of
 * lost records.  Where each log stands is kept in the state file
 * (collstate.c), so that a restart continues there (NSLOG_IOC_SEEK).
 *
 * Delivery (see also nslog-collector(8)):
 *
 *  - Between the kernel and the output: nothing is lost silently.  A
 *    record either reaches the output, or is counted in a record of lost
 *    records (overwritten in the ring before it was read: the output or
 *    the collector was too slow, or stopped for too long; flushed;
 *    written to a set that went while the collector was stopped, which
 *    says "may have been lost").
 *  - Across a restart: the state file says, for each log, the last
 *    record the output took (flushed: fflush, or sd_journal_sendv() or
 *    send() returned; and fsync() before the file is written when the
 *    output is a regular file).  After a clean stop (SIGTERM, SIGINT)
 *    nothing repeats.  After a crash or SIGKILL, what was shipped since
 *    the last save (at most --state-interval's worth) is shipped again:
 *    at-least-once; except to the journal, which is asked on start what
 *    it has of each log (journalpos.c, after journald wrote what it was
 *    sent) so that each resumes after the larger word (resume.c):
 *    nothing repeats, unless the journal cannot be read or synced, or
 *    lost entries itself.  Each record carries (boot id, set_id, log,
 *    seq), unique per boot, for a consumer of the other outputs to drop
 *    repeats and make it exactly-once.
 *  - Beyond the output, what the receiver does: journald and a unix
 *    datagram socket take a record when the call returns, but journald
 *    may still drop it under its rate limit (the unit sets
 *    LogRateLimitIntervalSec=0), or lose it in its own crash; TCP may
 *    lose what was sent when the connection breaks; UDP may lose
 *    anything, unseen.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <unistd.h>
#include <systemd/sd-daemon.h>

#include "collector.h"
#include "nsident.h"
#include "rfc5424.h"
#include "usage.h"

#define PROG			COLL_PROG
#define COLL_STATE		"/var/lib/nslogger/collector.state"
#define COLL_STATE_MS		1000
#define COLL_PROC_DIR		"/proc/nslogger"
#define COLL_BOOT_ID		"/proc/sys/kernel/random/boot_id"
#define COLL_EVENTS		64

enum {
	OPT_NO_STATE	= 0x100,
	OPT_STATE_INTERVAL,
	OPT_FACILITY,
	OPT_HOSTNAME,
	OPT_UTC,
	OPT_DEV_DIR,
	OPT_HELP,
};

/* epoll's data for what is not a log. */
static char coll_ev_list, coll_ev_signal;

static const char coll_help_text[] =
"Usage: " PROG " [options]\n"
"Follow every nslogger log set of the host (the host's and each\n"
"container's, and new ones as they appear) and ship their records, with\n"
"their container's identity, to one output. Needs CAP_SYSLOG.\n"
"\n"
"  -o, --output OUTPUT  journal (journald), json (JSON lines on stdout,\n"
"                       the default), rfc5424 (syslog: stdout or --target),\n"
"                       or an nslogcat layout with logcat's modifiers:\n"
"                       brief, process, tag, thread, raw, time, threadtime,\n"
"                       long; year, zone, UTC, epoch, usec, nsec, uid,\n"
"                       relay (threadtime,year,zone)\n"
"  -b, --buffer LOG     main, system, radio, events or all (the default);\n"
"                       repeatable; a set's streams (logs made in nslogfs)\n"
"                       are followed whatever it says\n"
"  -t, --target DEST    rfc5424's destination: stdout (default),\n"
"                       unix:PATH (datagram, or stream: a line each),\n"
"                       udp:HOST:PORT, tcp:HOST:PORT (octet counting)\n"
"      --facility NAME  rfc5424's facility: user (default), daemon,\n"
"                       local0 ... local7, or 0 to 23\n"
"      --hostname NAME  the host's name in json and rfc5424 (default:\n"
"                       gethostname())\n"
"      --utc            json and rfc5424 time stamps in UTC (Z), not local\n"
"  -s, --state FILE     where each log stands, for a restart (default\n"
"                       " COLL_STATE ")\n"
"      --no-state       keep none: every set starts at its oldest record\n"
"      --state-interval MS\n"
"                       write the state file at most this often (default\n"
"                       1000): after a crash at most this much is repeated\n"
"                       (not to the journal, which is asked what it has)\n"
"  -d, --dump           ship what the sets hold, save the state and exit\n"
"      --dev-dir DIR    find the nodes in DIR, as nslogcat does\n"
"  -h, --help           show this help\n"
"\n"
"Records the kernel overwrote or flushed before they were read are\n"
"reported as such: a record saying how many of which log of which set.\n"
"\n"
"Exit status: 0 when stopped by SIGTERM or SIGINT (or after --dump), 1\n"
"on an error, 2 for a usage error.\n";

static void coll_opt_buffer(struct nslog_collector *c, const char *name)
{
	int k;

	if (!strcmp(name, "all")) {
		c->logmask = (1u << NSLOG_KLOG_COUNT) - 1;
		return;
	}
	k = nslog_klog_from_name(name);
	if (k < 0)
		tool_usage(PROG, "unknown buffer '%s' (main, system, radio, events or all)",
			   name);
	c->logmask |= 1u << k;
}

static unsigned int coll_opt_ms(const char *arg)
{
	unsigned long n;
	char *end;

	errno = 0;
	n = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || *arg == '-' || n > 3600000)
		tool_usage(PROG, "--state-interval needs milliseconds, 0 to 3600000, not '%s'",
			   arg);
	return (unsigned int)n;
}

static void coll_parse(struct nslog_collector *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output",	required_argument,	NULL, 'o' },
		{ "buffer",	required_argument,	NULL, 'b' },
		{ "target",	required_argument,	NULL, 't' },
		{ "state",	required_argument,	NULL, 's' },
		{ "dump",	no_argument,		NULL, 'd' },
		{ "no-state",	no_argument,		NULL, OPT_NO_STATE },
		{ "state-interval", required_argument,	NULL, OPT_STATE_INTERVAL },
		{ "facility",	required_argument,	NULL, OPT_FACILITY },
		{ "hostname",	required_argument,	NULL, OPT_HOSTNAME },
		{ "utc",	no_argument,		NULL, OPT_UTC },
		{ "dev-dir",	required_argument,	NULL, OPT_DEV_DIR },
		{ "help",	no_argument,		NULL, OPT_HELP },
		{ NULL, 0, NULL, 0 }
	};
	const char *output = "json", *target = NULL, *facility = NULL;
	const char *hostname = NULL;
	bool utc = false;
	int opt, f;

	while ((opt = getopt_long(argc, argv, "o:b:t:s:dh", longopts,
				  NULL)) != -1) {
		switch (opt) {
		case 'o':
			output = optarg;
			break;
		case 'b':
			coll_opt_buffer(c, optarg);
			break;
		case 't':
			target = optarg;
			break;
		case 's':
			if (!*optarg)
				tool_usage(PROG, "--state needs a file");
			c->state_path = optarg;
			break;
		case 'd':
			c->dump = true;
			break;
		case OPT_NO_STATE:
			c->state_path = NULL;
			break;
		case OPT_STATE_INTERVAL:
			c->state_ms = coll_opt_ms(optarg);
			break;
		case OPT_FACILITY:
			facility = optarg;
			break;
		case OPT_HOSTNAME:
			hostname = optarg;
			break;
		case OPT_UTC:
			utc = true;
			break;
		case OPT_DEV_DIR:
			c->dev_dir = optarg;
			break;
		case 'h':
		case OPT_HELP:
			fputs(coll_help_text, stdout);
			exit(EXIT_SUCCESS);
		default:
			fputs("Try '" PROG " --help' for more information.\n",
			      stderr);
			exit(TOOL_EXIT_USAGE);
		}
	}
	if (optind < argc)
		tool_usage(PROG, "unexpected argument '%s'", argv[optind]);
	if (nslog_out_parse(&c->out, output))
		tool_usage(PROG, "unknown output '%s' (journal, json, rfc5424, or an nslogcat layout with modifiers)",
			   output);
	if ((target || facility) && c->out.kind != NSLOG_OUT_RFC5424)
		tool_usage(PROG, "--target and --facility are rfc5424's");
	if (target && nslog_dest_parse(&c->out.dest, target))
		tool_usage(PROG, "bad target '%s' (stdout, unix:PATH, udp:HOST:PORT or tcp:HOST:PORT)",
			   target);
	if (facility) {
		f = nslog_facility_from_name(facility);
		if (f < 0)
			tool_usage(PROG, "unknown facility '%s'", facility);
		c->out.facility = f;
	}
	if (!c->logmask)
		c->logmask = (1u << NSLOG_KLOG_COUNT) - 1;
	c->sink.utc = utc || c->out.fmt.utc;
	if (hostname)
		snprintf(c->host, sizeof(c->host), "%s", hostname);
	else if (gethostname(c->host, sizeof(c->host) - 1))
		c->host[0] = '\0';
}

static int coll_setup_events(struct nslog_collector *c)
{
	struct epoll_event ev = { .events = EPOLLPRI };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return -errno;
	signal(SIGPIPE, SIG_IGN);
	c->sigfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	c->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (c->sigfd < 0 || c->epfd < 0)
		return -errno;
	ev.data.ptr = &coll_ev_list;
	if (epoll_ctl(c->epfd, EPOLL_CTL_ADD, c->nsfd, &ev))
		return -errno;
	ev.events = EPOLLIN;
	ev.data.ptr = &coll_ev_signal;
	if (epoll_ctl(c->epfd, EPOLL_CTL_ADD, c->sigfd, &ev))
		return -errno;
	return 0;
}

static int coll_setup(struct nslog_collector *c)
{
	char path[4096];
	int ret, failed = 0;

	ret = nslog_boot_id(c->boot_id_path, c->boot_id);
	if (ret) {
		fprintf(stderr, PROG ": cannot read %s: %s\n", c->boot_id_path,
			strerror(-ret));
		return ret;
	}
	c->sink.out = &c->out;
	c->sink.boot_id = c->boot_id;
	c->sink.host = c->out.kind == NSLOG_OUT_JOURNAL || !c->host[0] ?
		       NULL : c->host;
	c->have_host_ns = !nslog_ns_host_id(c->proc_root, &c->host_ns);

	ret = nslog_out_open(&c->out, stdout);
	if (ret) {
		fprintf(stderr, PROG ": cannot connect to %s: %s\n",
			c->out.dest.addr, strerror(-ret));
		return ret;
	}
	ret = coll_state_open(c);
	if (ret)
		return ret;
	ret = nslog_logdev_init(&c->dev, c->dev_dir, c->logmask, &failed);
	if (ret) {
		fprintf(stderr, PROG ": cannot open %s: %s\n",
			c->dev.path[failed][0] ? c->dev.path[failed] :
			nslog_klog_name((unsigned int)failed), strerror(-ret));
		return ret;
	}
	nslog_logdev_ops(&c->dev, &c->k);
	snprintf(path, sizeof(path), "%s/namespaces", c->proc_dir);
	c->nsfd = open(path, O_RDONLY | O_CLOEXEC);
	if (c->nsfd < 0) {
		ret = -errno;
		fprintf(stderr, PROG ": cannot open %s: %s%s\n", path,
			strerror(errno), errno == EPERM ?
			" (CAP_SYSLOG is needed)" : errno == ENOENT ?
			" (is the nslogger module loaded?)" : "");
		return ret;
	}
	ret = coll_setup_events(c);
	if (ret)
		fprintf(stderr, PROG ": %s\n", strerror(-ret));
	return ret;
}

static int coll_signal(struct nslog_collector *c)
{
	struct signalfd_siginfo si;

	while (read(c->sigfd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo == SIGHUP)
			return coll_scan(c);
		c->stop = true;
	}
	return 0;
}

/* Pump every set that is ready; *@busy if one has more right now. */
static int coll_pump_ready(struct nslog_collector *c, bool *busy)
{
	struct nslog_set *s;
	bool more;
	int ret;

	*busy = false;
	for (s = c->sets; s; s = s->next) {
		if (!s->ready)
			continue;
		ret = coll_pump(c, s, &more);
		if (ret)
			return ret;
		s->ready = more;
		*busy |= more;
	}
	return 0;
}

static int coll_wait(struct nslog_collector *c, bool busy)
{
	struct epoll_event ev[COLL_EVENTS];
	struct nslog_flog *l;
	int n, i, timeout, ret;

	timeout = busy ? 0 : coll_state_due_ms(c);
	n = epoll_wait(c->epfd, ev, COLL_EVENTS, timeout);
	if (n < 0)
		return errno == EINTR ? 0 : -errno;
	for (i = 0; i < n; i++) {
		if (ev[i].data.ptr == &coll_ev_list) {
			ret = coll_scan(c);
		} else if (ev[i].data.ptr == &coll_ev_signal) {
			ret = coll_signal(c);
		} else {
			l = ev[i].data.ptr;
			l->set->ready = true;
			ret = 0;
		}
		if (ret)
			return ret;
	}
	return 0;
}

/* One round: ship what is ready, flush, drop finished sets, save. */
static int coll_round(struct nslog_collector *c, bool *busy)
{
	int ret = coll_pump_ready(c, busy);

	if (!ret)
		ret = coll_flush(c);
	if (ret) {
		fprintf(stderr, PROG ": output: %s\n", strerror(-ret));
		return ret;
	}
	coll_reap(c);
	return coll_save(c, false);
}

static int coll_run(struct nslog_collector *c)
{
	bool busy = false;
	int ret;

	ret = coll_scan(c);
	if (ret)
		return ret;
	if (c->dump) {
		do
			ret = coll_round(c, &busy);
		while (!ret && busy);
		return ret;
	}
	sd_notify(0, "READY=1");
	while (!c->stop) {
		ret = coll_round(c, &busy);
		if (!ret)
			ret = coll_wait(c, busy);
		if (ret)
			return ret;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct nslog_collector c = {
		.state_path = COLL_STATE,
		.state_ms = COLL_STATE_MS,
		.proc_dir = COLL_PROC_DIR,
		.proc_root = "/proc",
		.boot_id_path = COLL_BOOT_ID,
		.nsfd = -1,
		.epfd = -1,
		.sigfd = -1,
		.lockfd = -1,
	};
	const char *env;
	int ret;

	env = getenv("NSLOG_PROC_DIR");
	if (env && *env)
		c.proc_dir = env;
	coll_parse(&c, argc, argv);
	ret = coll_setup(&c);
	if (!ret)
		ret = coll_run(&c);
	if (c.scanned) {
		if (!ret)
			ret = coll_flush(&c);
		/* after an output error, only if it can still be synced */
		if (coll_save(&c, true) && !ret)
			ret = -EIO;
	}
	if (!c.dump)
		sd_notify(0, "STOPPING=1");
	coll_close_sets(&c);
	coll_state_close(&c);
	nslog_nslist_free(&c.list);
	nslog_logdev_close(&c.dev);
	nslog_out_close(&c.out);
	if (c.nsfd >= 0)
		close(c.nsfd);
	if (c.epfd >= 0)
		close(c.epfd);
	if (c.sigfd >= 0)
		close(c.sigfd);
	return ret ? EXIT_FAILURE : EXIT_SUCCESS;
}
