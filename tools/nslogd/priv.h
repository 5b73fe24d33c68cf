/* SPDX-License-Identifier: GPL-2.0 */
/*
 * priv: the privileges nslogd keeps once its sockets and logs are set up.
 *
 * It keeps CAP_SYSLOG (in the user namespace that owns the log set: the
 * relay ioctl, setLogSize, clear, and reading every uid's records), if it
 * has it, and nothing else: no other capability, an empty bounding set,
 * no ambient or inheritable capabilities, no_new_privs. It may also
 * become another user (Android's logd, 1036, when started as root by
 * Android's init), with the groups it needs to open the log nodes (log,
 * 1007) and to read writers' /proc status where /proc is mounted with
 * hidepid (readproc, 3009).
 */
#ifndef NSLOGD_PRIV_H
#define NSLOGD_PRIV_H

#include <linux/capability.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Android's readproc group: /proc's hidepid exception. */
#define NSLOGD_AID_READPROC	3009
#define NSLOGD_GROUPS_MAX	16
/* The only capability kept. */
#define NSLOGD_CAPS_KEEP	(1ULL << CAP_SYSLOG)

struct nslogd_user {
	bool set;		/* become these ids; false: keep the current */
	uid_t uid;
	gid_t gid;
	size_t ngroups;		/* the supplementary groups, gid first */
	gid_t groups[NSLOGD_GROUPS_MAX];
};

/* A process's capability sets, one bit per capability. */
struct nslogd_caps {
	uint64_t eff, prm, inh;
};

/* What nslogd_priv_drop() is to do, from where it stands. */
struct nslogd_privplan {
	bool set_ids;		/* setgroups, setresgid, setresuid */
	bool drop_bounding;	/* CAP_SETPCAP is effective: empty it */
	struct nslogd_caps after;
};

/* What it did, for the line said at start. */
struct nslogd_privdone {
	uid_t uid;
	gid_t gid;
	size_t ngroups;
	gid_t groups[NSLOGD_GROUPS_MAX];
	uint64_t caps;		/* permitted = effective */
	bool bounding_empty;
	bool groups_kept;	/* setgroups() denied in this user namespace */
};

int nslogd_priv_parse_user(const char *arg, struct nslogd_user *u);
void nslogd_priv_default_user(uid_t euid, bool all_from_init,
			      struct nslogd_user *u);
void nslogd_caps_pack(const struct nslogd_caps *c,
		      struct __user_cap_data_struct data[2]);
void nslogd_caps_unpack(const struct __user_cap_data_struct data[2],
			struct nslogd_caps *c);
int nslogd_priv_plan(const struct nslogd_caps *now,
		     const struct nslogd_user *u, struct nslogd_privplan *p);
int nslogd_priv_drop(const struct nslogd_user *u, struct nslogd_privdone *done,
		     const char **what);
size_t nslogd_priv_format(const struct nslogd_privdone *done, char *buf,
			  size_t size);

#endif /* NSLOGD_PRIV_H */
