// SPDX-License-Identifier: GPL-2.0
/*
 * priv: dropping what nslogd does not need, once its sockets are bound,
 * its logs open and its file limit raised.
 *
 * What it needs afterwards, and why:
 * - CAP_SYSLOG in the user namespace that owns the log set: NSLOG_IOC_RELAY
 *   (every record), NSLOG_IOC_SET_SIZE (setLogSize), LOGGER_FLUSH_LOG
 *   (clear) and reading every uid's records for privileged readers. The
 *   kernel checks it at each call, so it must stay effective.
 * - The log group (1007) when it becomes another user: a reader's
 *   connection opens the nodes read-only, and the nodes' modes (0662
 *   root:log, nslogfs' gid=1007) let only that group read; CAP_SYSLOG is
 *   checked by the driver after the file's permission bits.
 * - readproc (3009) likewise: Android mounts /proc with hidepid=2 and that
 *   group exempt, and nslogd reads writers' and readers' /proc/PID/status
 *   for their groups (logcred.c).
 * Nothing else: the sockets are open, the nodes world-writable, the event
 * tags file world-readable. So every other capability goes, from every
 * set, the bounding set is emptied (when CAP_SETPCAP allows: when started
 * as root), ambient capabilities are cleared, and no_new_privs is set:
 * nslogd never executes anything, and now nothing it could execute would
 * gain a privilege.
 *
 * Becoming another user keeps the permitted set across setresuid() with
 * PR_SET_KEEPCAPS (the effective set is cleared by the switch), and
 * capset() then makes CAP_SYSLOG effective again. No libcap: nslogd is
 * static with musl, so capget()/capset() are the raw system calls, with
 * <linux/capability.h>'s version 3 (two 32-bit words per set).
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "dgram.h"
#include "priv.h"

#ifndef PR_CAP_AMBIENT
#define PR_CAP_AMBIENT			47
#define PR_CAP_AMBIENT_CLEAR_ALL	4
#endif

static const char *parse_id(const char *p, unsigned int *id)
{
	unsigned long v;
	char *end;

	if (*p < '0' || *p > '9')
		return NULL;
	errno = 0;
	v = strtoul(p, &end, 10);
	/* (uid_t)-1 means "unchanged" to setresuid(): never an id */
	if (errno || v >= 0xffffffffUL)
		return NULL;
	*id = (unsigned int)v;
	return end;
}

/**
 * nslogd_priv_parse_user() - --user's argument
 * @arg: "UID", "UID:GID" or "UID:GID,GROUP,...", numbers only (Android
 *	 has no /etc/passwd)
 * @u: filled in, set; the supplementary groups are GID and the GROUPs
 *     (GID defaults to UID)
 *
 * Context: any.
 * Return: 0, or -EINVAL for anything else (more than NSLOGD_GROUPS_MAX
 * groups included).
 */
int nslogd_priv_parse_user(const char *arg, struct nslogd_user *u)
{
	const char *p = arg;
	unsigned int id;

	memset(u, 0, sizeof(*u));
	p = parse_id(p, &id);
	if (!p)
		return -EINVAL;
	u->uid = id;
	u->gid = id;
	if (*p == ':') {
		p = parse_id(p + 1, &id);
		if (!p)
			return -EINVAL;
		u->gid = id;
	}
	u->groups[u->ngroups++] = u->gid;
	while (*p == ',' && u->ngroups < NSLOGD_GROUPS_MAX) {
		p = parse_id(p + 1, &id);
		if (!p)
			return -EINVAL;
		u->groups[u->ngroups++] = id;
	}
	/* a GROUP list needs the GID before it: "1036,1007" is refused */
	if (*p || (u->ngroups > 1 && !strchr(arg, ':')))
		return -EINVAL;
	u->set = true;
	return 0;
}

/**
 * nslogd_priv_default_user() - whom nslogd becomes without --user
 * @euid: its effective uid
 * @all_from_init: whether init passed all three sockets, as Android's
 *		   init does from logd.rc
 * @u: filled in
 *
 * Android's init starts logd as user logd already; one that starts
 * nslogd as root (an rc file of its own, a stand-in init) gets logd's
 * identity anyway: 1036, group 1036, groups log and readproc. Anything
 * else (a host, a test, a start by hand) keeps its ids.
 *
 * Context: any.
 */
void nslogd_priv_default_user(uid_t euid, bool all_from_init,
			      struct nslogd_user *u)
{
	memset(u, 0, sizeof(*u));
	if (euid != 0 || !all_from_init)
		return;
	u->set = true;
	u->uid = NSLOGD_AID_LOGD;
	u->gid = NSLOGD_AID_LOGD;
	u->groups[0] = NSLOGD_AID_LOGD;
	u->groups[1] = NSLOGD_AID_LOG;
	u->groups[2] = NSLOGD_AID_READPROC;
	u->ngroups = 3;
}

/**
 * nslogd_caps_pack() - capability sets as capset() takes them (version 3)
 * @c: the sets
 * @data: two words: capabilities 0 to 31, then 32 to 63
 *
 * Context: any.
 */
void nslogd_caps_pack(const struct nslogd_caps *c,
		      struct __user_cap_data_struct data[2])
{
	int i;

	for (i = 0; i < 2; i++) {
		data[i].effective = (uint32_t)(c->eff >> (32 * i));
		data[i].permitted = (uint32_t)(c->prm >> (32 * i));
		data[i].inheritable = (uint32_t)(c->inh >> (32 * i));
	}
}

/**
 * nslogd_caps_unpack() - capability sets from what capget() gave
 * @data: two words (version 3)
 * @c: the sets
 *
 * Context: any.
 */
void nslogd_caps_unpack(const struct __user_cap_data_struct data[2],
			struct nslogd_caps *c)
{
	c->eff = data[0].effective | (uint64_t)data[1].effective << 32;
	c->prm = data[0].permitted | (uint64_t)data[1].permitted << 32;
	c->inh = data[0].inheritable | (uint64_t)data[1].inheritable << 32;
}

/**
 * nslogd_priv_plan() - what to drop, from the sets a process has
 * @now: its capability sets
 * @u: whom to become, or NULL (or not set) to keep its ids
 * @p: the plan
 *
 * After: CAP_SYSLOG permitted and effective if it was permitted, nothing
 * else, nothing inheritable. The bounding set is emptied if CAP_SETPCAP
 * is effective (a process without it cannot, and has nothing there it
 * could use: no_new_privs and no execve()).
 *
 * Context: any.
 * Return: 0, or -EPERM if @u is to be set without CAP_SETUID and
 * CAP_SETGID effective (nslogd then refuses to run, rather than run
 * with ids it was told to leave).
 */
int nslogd_priv_plan(const struct nslogd_caps *now,
		     const struct nslogd_user *u, struct nslogd_privplan *p)
{
	const uint64_t ids = 1ULL << CAP_SETUID | 1ULL << CAP_SETGID;

	memset(p, 0, sizeof(*p));
	p->set_ids = u && u->set;
	if (p->set_ids && (now->eff & ids) != ids)
		return -EPERM;
	p->drop_bounding = now->eff & (1ULL << CAP_SETPCAP);
	p->after.prm = now->prm & NSLOGD_CAPS_KEEP;
	p->after.eff = p->after.prm;
	p->after.inh = 0;
	return 0;
}

static int caps_get(struct nslogd_caps *c)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	/* zeroed: valgrind marks only the first word as written */
	struct __user_cap_data_struct data[2] = { { 0 }, { 0 } };

	if (syscall(SYS_capget, &hdr, data))
		return -errno;
	nslogd_caps_unpack(data, c);
	return 0;
}

static int caps_set(const struct nslogd_caps *c)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	nslogd_caps_pack(c, data);
	return syscall(SYS_capset, &hdr, data) ? -errno : 0;
}

/* Whether this user namespace forbids setgroups() (/proc/self/setgroups). */
static bool setgroups_denied(void)
{
	char buf[16] = "";
	ssize_t n;
	int fd;

	fd = open("/proc/self/setgroups", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 && !strncmp(buf, "deny", 4);
}

static bool bounding_empty(void)
{
	int cap, r;

	for (cap = 0; (r = prctl(PR_CAPBSET_READ, cap, 0, 0, 0)) >= 0; cap++)
		if (r)
			return false;
	return true;
}

#define FAIL(step) do { *what = (step); return -errno; } while (0)

static int set_ids(const struct nslogd_user *u, struct nslogd_privdone *done,
		   const char **what)
{
	uid_t r, e, s;
	gid_t rg, eg, sg;

	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0))
		FAIL("PR_SET_KEEPCAPS");
	if (setgroups(u->ngroups, u->groups)) {
		/*
		 * A user namespace whose setgroups is "deny" keeps the groups
		 * of its maker, whoever asks: go on with them, and say so.
		 */
		if (errno != EPERM || !setgroups_denied())
			FAIL("setgroups");
		done->groups_kept = true;
	}
	if (setresgid(u->gid, u->gid, u->gid))
		FAIL("setresgid");
	if (setresuid(u->uid, u->uid, u->uid))
		FAIL("setresuid");
	if (prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0))
		FAIL("PR_SET_KEEPCAPS");
	if (getresuid(&r, &e, &s) || getresgid(&rg, &eg, &sg))
		FAIL("getresuid");
	if (r != u->uid || e != u->uid || s != u->uid || rg != u->gid ||
	    eg != u->gid || sg != u->gid) {
		*what = "the ids set";
		return -EPERM;
	}
	return 0;
}

/**
 * nslogd_priv_drop() - drop every privilege nslogd does not need
 * @u: whom to become, or NULL (or not set) to keep the ids
 * @done: what it did, for nslogd_priv_format()
 * @what: on failure, the step that failed
 *
 * In order: the bounding set emptied (while CAP_SETPCAP is still
 * effective), ambient capabilities cleared, the ids set with the
 * permitted set kept, the capability sets made CAP_SYSLOG alone (if it
 * was permitted), no_new_privs; then checked with capget().
 *
 * Context: start-up, one thread (setgroups() and the set*id() calls of a
 * threaded process would have to reach every thread).
 * Return: 0, or a negative errno and @what: nslogd then stops.
 */
int nslogd_priv_drop(const struct nslogd_user *u, struct nslogd_privdone *done,
		     const char **what)
{
	struct nslogd_privplan p;
	struct nslogd_caps now;
	int cap, ret, n;

	memset(done, 0, sizeof(*done));
	*what = "";
	ret = caps_get(&now);
	if (ret) {
		*what = "capget";
		return ret;
	}
	ret = nslogd_priv_plan(&now, u, &p);
	if (ret) {
		*what = "--user needs CAP_SETUID and CAP_SETGID";
		return ret;
	}
	if (p.drop_bounding)
		for (cap = 0; prctl(PR_CAPBSET_READ, cap, 0, 0, 0) >= 0; cap++)
			if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0))
				FAIL("PR_CAPBSET_DROP");
	/* EINVAL: a kernel older than ambient capabilities (4.3) */
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) &&
	    errno != EINVAL)
		FAIL("PR_CAP_AMBIENT_CLEAR_ALL");
	if (p.set_ids) {
		ret = set_ids(u, done, what);
		if (ret)
			return ret;
	}
	ret = caps_set(&p.after);
	if (ret) {
		*what = "capset";
		return ret;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		FAIL("PR_SET_NO_NEW_PRIVS");

	ret = caps_get(&now);
	if (ret) {
		*what = "capget";
		return ret;
	}
	if (now.eff != p.after.eff || now.prm != p.after.prm || now.inh) {
		*what = "the capabilities set";
		return -EPERM;
	}
	done->uid = geteuid();
	done->gid = getegid();
	n = getgroups(NSLOGD_GROUPS_MAX, done->groups);
	done->ngroups = n > 0 ? (size_t)n : 0;
	done->caps = now.prm;
	done->bounding_empty = bounding_empty();
	return 0;
}

/**
 * nslogd_priv_format() - what nslogd runs with, on one line
 * @done: what nslogd_priv_drop() did
 * @buf: where to write, NUL-terminated
 * @size: its size
 *
 * "privileges: uid 1036 gid 1036 groups 1036,1007,3009 capabilities
 * syslog bounding-set empty no_new_privs"; "capabilities none" without
 * CAP_SYSLOG, "bounding-set kept" when it could not be emptied, "(kept:
 * setgroups denied)" after the groups when they could not be set.
 *
 * Context: any.
 * Return: the length the whole line has (as snprintf()).
 */
size_t nslogd_priv_format(const struct nslogd_privdone *done, char *buf,
			  size_t size)
{
	size_t n = 0, i;

#define OUT(...) (n += (size_t)snprintf(buf + (n < size ? n : size), \
					n < size ? size - n : 0, __VA_ARGS__))
	OUT("privileges: uid %u gid %u groups ", (unsigned int)done->uid,
	    (unsigned int)done->gid);
	for (i = 0; i < done->ngroups; i++)
		OUT("%s%u", i ? "," : "", (unsigned int)done->groups[i]);
	if (!done->ngroups)
		OUT("none");
	if (done->groups_kept)
		OUT(" (kept: setgroups denied)");
	OUT(" capabilities %s bounding-set %s no_new_privs",
	    done->caps & NSLOGD_CAPS_KEEP ? "syslog" : "none",
	    done->bounding_empty ? "empty" : "kept");
#undef OUT
	return n;
}
