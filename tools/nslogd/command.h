/* SPDX-License-Identifier: GPL-2.0 */
/*
 * command: one command of logd's control socket, run, its reply made.
 */
#ifndef NSLOGD_COMMAND_H
#define NSLOGD_COMMAND_H

#include <stdbool.h>
#include <sys/socket.h>

#include "dgram.h"
#include "eventtag.h"
#include "prune.h"
#include "reply.h"
#include "ringctl.h"
#include "stats.h"

/* Words of a command, the verb's included; more is NSLOGD_R_TOO_LONG. */
#define NSLOGD_CMD_ARGS		256
/* setLogSize's range, logd's (64 KiB to 256 MiB). */
#define NSLOGD_SIZE_MIN		(64u << 10)
#define NSLOGD_SIZE_MAX		(256u << 20)

/* The replies (shared/reference/logd-protocol.md, "Control"). */
#define NSLOGD_R_SUCCESS	"success"
#define NSLOGD_R_BUSY		"busy"
#define NSLOGD_R_DENIED		"Permission Denied"
#define NSLOGD_R_INVALID	"Invalid"
#define NSLOGD_R_MISSING	"Missing Argument"
#define NSLOGD_R_RANGE		"Range Error"
/*
 * What logd cannot run is answered by libsysutils' FrameworkListener,
 * which logd's CommandListener is, with a code and a text: a verb it does
 * not know (the empty command and garbage included), a command that does
 * not end within its buffer (nslogd then closes the connection:
 * control.c), more words than it takes. nslogd answers the same words.
 */
#define NSLOGD_R_UNKNOWN	"500 Command not recognized"
#define NSLOGD_R_TOO_LARGE	"500 Command too large for buffer"
#define NSLOGD_R_TOO_LONG	"500 Command too long"

struct nslogd_cmd {
	struct nslogd_ringctl ring;
	struct nslogd_prune prune;
	struct nslogd_eventtags tags;
	const char *tags_path;		/* NULL: $NSLOG_EVENT_TAGS or Android's */
	nslogd_logcred_fn *logcred;	/* nslogd_logcred(), or a stand-in */
	const struct nslogd_stats *stats;	/* the writer's, or NULL */
};

/* What the connection does after the reply. */
enum nslogd_cmd_after {
	NSLOGD_CMD_GO_ON = 0,
	NSLOGD_CMD_CLOSE,		/* "exit": reply, then close */
};

void nslogd_cmd_init(struct nslogd_cmd *c, const char *dev_dir,
		     nslogd_ringctl_ioctl_fn *ioctl_fn,
		     nslogd_logcred_fn *logcred,
		     const struct nslogd_stats *stats);
void nslogd_cmd_exit(struct nslogd_cmd *c);
enum nslogd_cmd_after nslogd_cmd_run(struct nslogd_cmd *c, char *line,
				     const struct ucred *cred,
				     struct nslogd_reply *r);

#endif /* NSLOGD_COMMAND_H */
