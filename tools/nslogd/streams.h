/* SPDX-License-Identifier: GPL-2.0 */
/*
 * streams: Android's logs 4 to 7 (crash, stats, security, kernel) as
 * streams of the set, in an nslogfs view of it that nslogd holds.
 */
#ifndef NSLOGD_STREAMS_H
#define NSLOGD_STREAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "ringfit.h"

/* The ids kept in streams: crash (4) to kernel (7). */
#define NSLOGD_STREAM_FIRST	4
#define NSLOGD_STREAM_LAST	7
/* What a stream is sized to when made: logd's default for every log. */
#define NSLOGD_STREAM_SIZE	(256u << 10)
/* Its mode: nslogd's alone; the host reads it through the kernel. */
#define NSLOGD_STREAM_MODE	0600

/* Where the view came from. */
enum nslogd_view {
	NSLOGD_VIEW_NONE = 0,	/* none: logs 4 to 7 cannot be kept */
	NSLOGD_VIEW_DEV_DIR,	/* the nodes' directory is an nslogfs mount */
	NSLOGD_VIEW_MOUNT,	/* a detached mount of nslogd's own */
};

/* Who nslogd will be when it makes streams: to see if it may. */
struct nslogd_who {
	uid_t uid;
	gid_t gid;
	size_t ngroups;
	const gid_t *groups;
};

struct nslogd_streams {
	int dirfd;			/* the view's root; -1: none */
	enum nslogd_view view;
	int err;			/* why no mount of its own (an errno) */
	nslogd_ringctl_ioctl_fn *ioctl;	/* sizing a stream made */
	uint64_t made;			/* streams made by this nslogd */
};

const char *nslogd_stream_name(unsigned int log_id);
void nslogd_streams_init(struct nslogd_streams *st, int dirfd,
			 enum nslogd_view view, nslogd_ringctl_ioctl_fn *ioctl_fn);
bool nslogd_streams_may_make(const struct stat *dir,
			     const struct nslogd_who *who);
int nslogd_streams_view(struct nslogd_streams *st, const char *dev_dir,
			const struct nslogd_who *who,
			nslogd_ringctl_ioctl_fn *ioctl_fn);
int nslogd_streams_open(struct nslogd_streams *st, unsigned int log_id,
			int flags, bool make);
bool nslogd_streams_stale(const struct nslogd_streams *st,
			  unsigned int log_id, int fd);
const char *nslogd_view_name(enum nslogd_view v);
void nslogd_streams_close(struct nslogd_streams *st);

#endif /* NSLOGD_STREAMS_H */
