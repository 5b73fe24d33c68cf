// SPDX-License-Identifier: GPL-2.0
/*
 * nslogd_priv_test: what nslogd keeps once it is set up (priv.c).
 *
 * First the arithmetic, as pure functions: --user's argument, the default
 * identity, the capability words capget()/capset() use, and the plan made
 * from a process's sets (root; root without CAP_SETUID; logd as Android's
 * init starts it, with CAP_SYSLOG and CAP_AUDIT_CONTROL; nothing at all).
 * Then, when the test runs as root (skipped otherwise), the drop itself in
 * forked children, each read back from its /proc/self/status (Uid, Gid,
 * Groups, CapInh/Prm/Eff/Bnd/Amb, NoNewPrivs): to logd's ids, keeping the
 * ids, from logd's start by init (no CAP_SETPCAP: the bounding set stays),
 * and refused without CAP_SETUID. Last, the static nslogd given all three
 * sockets by a stand-in init, as root: it runs as logd with CAP_SYSLOG
 * alone and still serves.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"
#include "tmpdir.h"

#include "nslogd/priv.h"

#define BIT(c)		(1ULL << (c))
#define SYSLOG		BIT(CAP_SYSLOG)
/* every capability a root process of today's kernels starts with */
#define ALL_CAPS	((BIT(CAP_LAST_CAP) << 1) - 1)

/* --- the arithmetic --- */

static void test_parse_user_forms(void)
{
	static const struct {
		const char *arg;
		unsigned int uid, gid;
		size_t ngroups;
		gid_t groups[4];
	} good[] = {
		{ "1036", 1036, 1036, 1, { 1036 } },
		{ "1036:1037", 1036, 1037, 1, { 1037 } },
		{ "1036:1036,1007,3009", 1036, 1036, 3, { 1036, 1007, 3009 } },
		{ "0", 0, 0, 1, { 0 } },
		{ "4294967294:0", 4294967294u, 0, 1, { 0 } },
	};
	static const char *const bad[] = {
		"", ":", "a", "1036:", "1036:x", "1036:1,", "1036,1007",
		"-1", "+5", " 1", "1 ", "4294967295", "1:4294967295",
		"99999999999", "1036:1:2",
		"0:0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16",	/* 17 groups */
	};
	struct nslogd_user u;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(good); i++) {
		if (nslogd_priv_parse_user(good[i].arg, &u) || !u.set ||
		    u.uid != good[i].uid || u.gid != good[i].gid ||
		    u.ngroups != good[i].ngroups ||
		    memcmp(u.groups, good[i].groups,
			   good[i].ngroups * sizeof(gid_t))) {
			printf("#   \"%s\" not taken as it should be\n",
			       good[i].arg);
			tap_failed_now = 1;
		}
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		if (nslogd_priv_parse_user(bad[i], &u) != -EINVAL) {
			printf("#   \"%s\" taken\n", bad[i]);
			tap_failed_now = 1;
		}
	}
	/* 16 groups: the most taken */
	CHECK(!nslogd_priv_parse_user("0:0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15",
				      &u) && u.ngroups == NSLOGD_GROUPS_MAX);
}

static void test_default_user_is_logd_under_init_as_root(void)
{
	struct nslogd_user u;

	nslogd_priv_default_user(0, true, &u);
	CHECK(u.set && u.uid == 1036 && u.gid == 1036 && u.ngroups == 3);
	CHECK(u.groups[0] == 1036 && u.groups[1] == 1007 &&
	      u.groups[2] == 3009);
	nslogd_priv_default_user(0, false, &u);		/* a host, a test */
	CHECK(!u.set);
	nslogd_priv_default_user(1036, true, &u);	/* init made it logd */
	CHECK(!u.set);
}

static void test_caps_words(void)
{
	struct __user_cap_data_struct data[2];
	struct nslogd_caps c = {
		.eff = SYSLOG | BIT(CAP_CHOWN),
		.prm = SYSLOG | BIT(CAP_SETUID) | BIT(CAP_AUDIT_READ),
		.inh = BIT(CAP_KILL),
	}, back;

	nslogd_caps_pack(&c, data);
	/* CAP_SYSLOG is 34: the second word's bit 2 */
	CHECK(data[0].effective == 1u << CAP_CHOWN);
	CHECK(data[1].effective == 1u << (CAP_SYSLOG - 32));
	CHECK(data[0].permitted == 1u << CAP_SETUID);
	CHECK(data[1].permitted ==
	      (1u << (CAP_SYSLOG - 32) | 1u << (CAP_AUDIT_READ - 32)));
	CHECK(data[0].inheritable == 1u << CAP_KILL && !data[1].inheritable);
	nslogd_caps_unpack(data, &back);
	CHECK(back.eff == c.eff && back.prm == c.prm && back.inh == c.inh);
}

static void test_plan_keeps_syslog_alone(void)
{
	static const struct {
		const char *what;
		struct nslogd_caps now;
		bool user;
		int ret;
		bool set_ids, drop_bounding;
		uint64_t after;
	} cases[] = {
		{ "root, --user", { ALL_CAPS, ALL_CAPS, 0 }, true, 0,
		  true, true, SYSLOG },
		{ "root, its ids kept", { ALL_CAPS, ALL_CAPS, ALL_CAPS }, false,
		  0, false, true, SYSLOG },
		{ "root without CAP_SETUID, --user",
		  { ALL_CAPS & ~BIT(CAP_SETUID), ALL_CAPS, 0 }, true, -EPERM,
		  false, false, 0 },
		{ "root without CAP_SETGID, --user",
		  { ALL_CAPS & ~BIT(CAP_SETGID), ALL_CAPS, 0 }, true, -EPERM,
		  false, false, 0 },
		{ "logd from Android's init", { SYSLOG | BIT(CAP_AUDIT_CONTROL),
		  SYSLOG | BIT(CAP_AUDIT_CONTROL), 0 }, false, 0, false, false,
		  SYSLOG },
		{ "CAP_SYSLOG permitted, not effective",
		  { 0, SYSLOG, 0 }, false, 0, false, false, SYSLOG },
		{ "nothing", { 0, 0, 0 }, false, 0, false, false, 0 },
		{ "CAP_SETPCAP alone", { BIT(CAP_SETPCAP), BIT(CAP_SETPCAP), 0 },
		  false, 0, false, true, 0 },
	};
	struct nslogd_user u = { .set = true, .uid = 1036, .gid = 1036 };
	struct nslogd_privplan p;
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		ret = nslogd_priv_plan(&cases[i].now, cases[i].user ? &u : NULL,
				       &p);
		if (ret != cases[i].ret ||
		    (!ret && (p.set_ids != cases[i].set_ids ||
			      p.drop_bounding != cases[i].drop_bounding ||
			      p.after.eff != cases[i].after ||
			      p.after.prm != cases[i].after || p.after.inh))) {
			printf("#   %s: ret %d set_ids %d bounding %d after %llx/%llx/%llx\n",
			       cases[i].what, ret, p.set_ids, p.drop_bounding,
			       (unsigned long long)p.after.eff,
			       (unsigned long long)p.after.prm,
			       (unsigned long long)p.after.inh);
			tap_failed_now = 1;
		}
	}
}

static void test_format_line(void)
{
	struct nslogd_privdone d = {
		.uid = 1036, .gid = 1036, .ngroups = 3,
		.groups = { 1007, 1036, 3009 }, .caps = SYSLOG,
		.bounding_empty = true,
	};
	char line[256];

	nslogd_priv_format(&d, line, sizeof(line));
	CHECK(!strcmp(line, "privileges: uid 1036 gid 1036 groups 1007,1036,3009 capabilities syslog bounding-set empty no_new_privs"));
	d = (struct nslogd_privdone){ .uid = 1000, .gid = 1000,
				      .groups_kept = true };
	nslogd_priv_format(&d, line, sizeof(line));
	CHECK(!strcmp(line, "privileges: uid 1000 gid 1000 groups none (kept: setgroups denied) capabilities none bounding-set kept no_new_privs"));
}

/* --- the drop, in children, as root --- */

struct status {
	char uid[64], gid[64], groups[128];
	uint64_t inh, prm, eff, bnd, amb;
	int nnp;
};

static void field(const char *text, const char *key, char *out, size_t size)
{
	const char *p = strstr(text, key);
	size_t n;

	out[0] = '\0';
	if (!p)
		return;
	p += strlen(key);
	while (*p == '\t' || *p == ' ')
		p++;
	n = strcspn(p, "\n");
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	if (n >= size)
		n = size - 1;
	memcpy(out, p, n);
	out[n] = '\0';
}

static uint64_t hexfield(const char *text, const char *key)
{
	char v[32];

	field(text, key, v, sizeof(v));
	return strtoull(v, NULL, 16);
}

static void parse_status(const char *text, struct status *st)
{
	char v[16];

	field(text, "\nUid:", st->uid, sizeof(st->uid));
	field(text, "\nGid:", st->gid, sizeof(st->gid));
	field(text, "\nGroups:", st->groups, sizeof(st->groups));
	st->inh = hexfield(text, "\nCapInh:");
	st->prm = hexfield(text, "\nCapPrm:");
	st->eff = hexfield(text, "\nCapEff:");
	st->bnd = hexfield(text, "\nCapBnd:");
	st->amb = hexfield(text, "\nCapAmb:");
	field(text, "\nNoNewPrivs:", v, sizeof(v));
	st->nnp = atoi(v);
}

enum before {
	BEFORE_NOTHING,
	BEFORE_AS_INIT_STARTS_LOGD,	/* uid 1036, SYSLOG + AUDIT_CONTROL */
	BEFORE_NO_SETUID,		/* root without CAP_SETUID */
};

static int caps_get(struct nslogd_caps *c)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = { { 0 }, { 0 } };

	if (syscall(SYS_capget, &hdr, data))
		return -1;
	nslogd_caps_unpack(data, c);
	return 0;
}

static int caps_set(uint64_t eff, uint64_t prm)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];
	struct nslogd_caps c = { .eff = eff, .prm = prm };

	nslogd_caps_pack(&c, data);
	return (int)syscall(SYS_capset, &hdr, data);
}

/*
 * In a child: @before, then nslogd_priv_drop(@u); the child writes its
 * return value, its line and its /proc/self/status to a pipe. Then it
 * checks that it cannot become root again (a setuid(0) must fail once it
 * left uid 0) and exits.
 */
static bool drop_in_child(enum before before, const struct nslogd_user *u,
			  int *ret, char *line, size_t line_size,
			  struct status *st)
{
	char buf[8192];
	size_t n = 0;
	ssize_t r;
	int p[2], status;
	pid_t pid;

	if (pipe(p))
		return false;
	pid = fork();
	if (pid < 0)
		return false;
	if (pid == 0) {
		struct nslogd_privdone done;
		const char *what;
		char out[8192];
		int fd, len, rv;

		close(p[0]);
		if (before == BEFORE_AS_INIT_STARTS_LOGD &&
		    (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) ||
		     setgroups(0, NULL) || setresgid(1036, 1036, 1036) ||
		     setresuid(1036, 1036, 1036) ||
		     caps_set(SYSLOG | BIT(CAP_AUDIT_CONTROL),
			      SYSLOG | BIT(CAP_AUDIT_CONTROL))))
			_exit(10);
		if (before == BEFORE_NO_SETUID) {
			struct nslogd_caps c;

			if (caps_get(&c) ||
			    caps_set(c.eff & ~BIT(CAP_SETUID), c.prm))
				_exit(11);
		}
		rv = nslogd_priv_drop(u, &done, &what);
		len = snprintf(out, sizeof(out), "%d\n", rv);
		len += (int)nslogd_priv_format(&done, out + len,
					       sizeof(out) - (size_t)len);
		out[len++] = '\n';
		fd = open("/proc/self/status", O_RDONLY);
		r = fd < 0 ? -1 : read(fd, out + len, sizeof(out) - (size_t)len - 1);
		len += r > 0 ? (int)r : 0;
		if (write(p[1], out, (size_t)len) != len)
			_exit(12);
		/* a process that left uid 0 never gets back */
		if (!rv && geteuid() && !setuid(0))
			_exit(13);
		_exit(0);
	}
	close(p[1]);
	while (n < sizeof(buf) - 1 && (r = read(p[0], buf + n,
						sizeof(buf) - 1 - n)) > 0)
		n += (size_t)r;
	buf[n] = '\0';
	close(p[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		printf("#   child: status %#x\n", status);
		return false;
	}
	*ret = atoi(buf);
	/* the second line */
	{
		const char *l2 = strchr(buf, '\n');
		size_t k = l2 ? strcspn(l2 + 1, "\n") : 0;

		if (k >= line_size)
			k = line_size - 1;
		memcpy(line, l2 ? l2 + 1 : "", k);
		line[k] = '\0';
	}
	parse_status(buf, st);
	return true;
}

static bool root_or_skip(void)
{
	if (geteuid() != 0)
		return false;
	/* root without the capabilities (a container's) cannot test this */
	return prctl(PR_CAPBSET_READ, CAP_SETPCAP, 0, 0, 0) == 1;
}

static void test_drop_to_logd(void)
{
	struct nslogd_user u;
	struct status st;
	char line[256];
	int ret;

	if (!root_or_skip())
		SKIP("not root with every capability");
	nslogd_priv_default_user(0, true, &u);
	REQUIRE(drop_in_child(BEFORE_NOTHING, &u, &ret, line, sizeof(line),
			      &st));
	CHECK(ret == 0);
	CHECK(!strcmp(st.uid, "1036\t1036\t1036\t1036"));
	CHECK(!strcmp(st.gid, "1036\t1036\t1036\t1036"));
	CHECK(!strcmp(st.groups, "1007 1036 3009"));
	CHECK(st.inh == 0 && st.prm == SYSLOG && st.eff == SYSLOG);
	CHECK(st.bnd == 0 && st.amb == 0 && st.nnp == 1);
	CHECK(!strcmp(line, "privileges: uid 1036 gid 1036 groups 1007,1036,3009 capabilities syslog bounding-set empty no_new_privs"));
	if (tap_failed_now)
		printf("#   line: %s\n#   Uid %s Groups %s CapEff %llx CapBnd %llx\n",
		       line, st.uid, st.groups, (unsigned long long)st.eff,
		       (unsigned long long)st.bnd);
}

static void test_drop_keeps_ids_without_user(void)
{
	struct status st;
	char line[256];
	int ret;

	if (!root_or_skip())
		SKIP("not root with every capability");
	REQUIRE(drop_in_child(BEFORE_NOTHING, NULL, &ret, line, sizeof(line),
			      &st));
	CHECK(ret == 0);
	CHECK(!strncmp(st.uid, "0\t0\t0\t0", 7));
	CHECK(st.inh == 0 && st.prm == SYSLOG && st.eff == SYSLOG);
	CHECK(st.bnd == 0 && st.amb == 0 && st.nnp == 1);
	CHECK(strstr(line, " capabilities syslog bounding-set empty "));
}

static void test_drop_from_logd_as_init_starts_it(void)
{
	struct status st;
	char line[256];
	int ret;

	if (!root_or_skip())
		SKIP("not root with every capability");
	REQUIRE(drop_in_child(BEFORE_AS_INIT_STARTS_LOGD, NULL, &ret, line,
			      sizeof(line), &st));
	CHECK(ret == 0);
	CHECK(!strcmp(st.uid, "1036\t1036\t1036\t1036"));
	/* CAP_AUDIT_CONTROL gone; the bounding set needs CAP_SETPCAP */
	CHECK(st.inh == 0 && st.prm == SYSLOG && st.eff == SYSLOG);
	CHECK(st.bnd != 0 && st.amb == 0 && st.nnp == 1);
	CHECK(!strcmp(line, "privileges: uid 1036 gid 1036 groups none capabilities syslog bounding-set kept no_new_privs"));
	if (tap_failed_now)
		printf("#   line: %s\n", line);
}

static void test_drop_refused_without_setuid(void)
{
	struct nslogd_user u;
	struct status st;
	char line[256];
	int ret;

	if (!root_or_skip())
		SKIP("not root with every capability");
	nslogd_priv_default_user(0, true, &u);
	REQUIRE(drop_in_child(BEFORE_NO_SETUID, &u, &ret, line, sizeof(line),
			      &st));
	CHECK(ret == -EPERM);
	/* nothing done: still root, still its capabilities */
	CHECK(!strncmp(st.uid, "0\t0\t0\t0", 7));
	CHECK((st.prm & BIT(CAP_SETUID)) && (st.eff & BIT(CAP_SETGID)));
	CHECK(st.bnd != 0 && st.nnp == 0);
}

/* --- the static nslogd, started as Android's init starts logd --- */

static int bound(const char *dir, const char *name, int type)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, type, 0);

	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/%s", dir, name);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sun, sizeof(sun)))
		return -1;
	if (type == SOCK_DGRAM) {
		int on = 1;

		setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &on, sizeof(on));
	}
	return fd;
}

static bool wait_text(const char *path, const char *text, char *out,
		      size_t size)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	int i;

	for (i = 0; i < 500; i++) {	/* 5 s at most */
		FILE *f = fopen(path, "r");
		size_t n = 0;

		if (f) {
			n = fread(out, 1, size - 1, f);
			fclose(f);
		}
		out[n] = '\0';
		if (strstr(out, text))
			return true;
		nanosleep(&ts, NULL);
	}
	return false;
}

static void test_nslogd_under_init_runs_as_logd(void)
{
	static const struct {
		const char *name;
		int type;
	} socks[] = {
		{ "logd", SOCK_STREAM },
		{ "logdr", SOCK_SEQPACKET },
		{ "logdw", SOCK_DGRAM },
	};
	const char *bin = getenv("NSLOG_BIN");
	char exe[256], dir[64], errf[128], path[128], out[4096], *text;
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd[3], i, status, c;
	struct status st;
	unsigned char buf[16];
	pid_t pid;
	FILE *f;
	size_t n;

	if (!bin)
		SKIP("$NSLOG_BIN not set");
	if (!root_or_skip())
		SKIP("not root with every capability");
	snprintf(exe, sizeof(exe), "%s/nslogd", bin);
	REQUIRE(!access(exe, X_OK));
	REQUIRE(tmpdir_make(dir, sizeof(dir), "nslogd_priv_test"));
	snprintf(errf, sizeof(errf), "%s/stderr", dir);
	for (i = 0; i < 3; i++) {
		fd[i] = bound(dir, socks[i].name, socks[i].type);
		REQUIRE(fd[i] >= 0);
	}
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		char v[16];
		int e = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		dup2(e, 2);
		for (i = 0; i < 3; i++) {
			char name[32];

			snprintf(name, sizeof(name), "ANDROID_SOCKET_%s",
				 socks[i].name);
			snprintf(v, sizeof(v), "%d", fd[i]);
			setenv(name, v, 1);
		}
		execl(exe, "nslogd", "--dev-dir", dir, "--property-socket", "",
		      (char *)NULL);
		_exit(127);
	}
	CHECK(wait_text(errf, "nslogd: privileges: ", out, sizeof(out)));
	CHECK(strstr(out, "nslogd: privileges: uid 1036 gid 1036 groups 1007,1036,3009 capabilities syslog bounding-set empty no_new_privs\n"));

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	REQUIRE(f);
	text = calloc(1, 8192);
	REQUIRE(text);
	text[0] = '\n';
	n = fread(text + 1, 1, 8190, f);
	fclose(f);
	text[n + 1] = '\0';
	parse_status(text, &st);
	free(text);
	CHECK(!strcmp(st.uid, "1036\t1036\t1036\t1036"));
	CHECK(!strcmp(st.groups, "1007 1036 3009"));
	CHECK(st.eff == SYSLOG && st.prm == SYSLOG && st.inh == 0);
	CHECK(st.bnd == 0 && st.amb == 0 && st.nnp == 1);

	/* it serves: a control command answered */
	c = socket(AF_UNIX, SOCK_STREAM, 0);
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/logd", dir);
	CHECK(!connect(c, (struct sockaddr *)&sun, sizeof(sun)));
	CHECK(send(c, "getPruneList", 13, 0) == 13);
	{
		struct timeval tv = { 5, 0 };

		setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	}
	CHECK(recv(c, buf, sizeof(buf), 0) > 0);
	close(c);

	kill(pid, SIGTERM);
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	if (tap_failed_now)
		printf("# nslogd's stderr:\n%s", out);
	for (i = 0; i < 3; i++)
		close(fd[i]);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	if (system(path))
		printf("# %s failed\n", path);
}

static const struct tap_case cases[] = {
	{ "parse: --user's forms, and those refused", test_parse_user_forms },
	{ "default: logd's ids as root under init, else the same",
	  test_default_user_is_logd_under_init_as_root },
	{ "caps: the two words of capget()/capset()", test_caps_words },
	{ "plan: CAP_SYSLOG alone, from every start",
	  test_plan_keeps_syslog_alone },
	{ "format: the line said at start", test_format_line },
	{ "drop: root to logd, CAP_SYSLOG alone, bounding set empty",
	  test_drop_to_logd },
	{ "drop: root keeping its ids", test_drop_keeps_ids_without_user },
	{ "drop: logd as Android's init starts it",
	  test_drop_from_logd_as_init_starts_it },
	{ "drop: --user refused without CAP_SETUID, nothing changed",
	  test_drop_refused_without_setuid },
	{ "nslogd: given the three sockets as root, runs as logd",
	  test_nslogd_under_init_runs_as_logd },
};

int main(int argc, char **argv)
{
	return tap_run(cases, ARRAY_SIZE(cases), argc, argv);
}
