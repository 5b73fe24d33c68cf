/* SPDX-License-Identifier: GPL-2.0 */
/*
 * control: the host listener's commands, one socket per container.
 */
#ifndef NSLOG_SL_CONTROL_H
#define NSLOG_SL_CONTROL_H

#include <stdint.h>

#include "source.h"

/* The control socket's name in the listener's directory. */
#define NSLOG_SL_CONTROL_NAME	"control"
/* A container's socket in the listener's directory: DIR/NAME/log. */
#define NSLOG_SL_SOCKET_NAME	"log"
/* The longest command and the longest reply. */
#define NSLOG_SL_CMD_MAX	256
#define NSLOG_SL_REPLY_MAX	65536

enum nslog_sl_op {
	NSLOG_SL_ADD,		/* add NAME [dgram|stream] [PID|ipc:ID] */
	NSLOG_SL_ATTACH,	/* attach NAME PID|ipc:ID */
	NSLOG_SL_REMOVE,	/* remove NAME */
	NSLOG_SL_LIST,		/* list */
};

enum nslog_sl_target {
	NSLOG_SL_NO_SET,	/* each sender's own, until attached */
	NSLOG_SL_BY_PID,	/* the IPC namespace of a process */
	NSLOG_SL_BY_ID,		/* an IPC namespace by id (its set exists) */
};

struct nslog_sl_cmd {
	enum nslog_sl_op op;
	char name[NSLOG_SL_NAME_MAX + 1];
	int type;		/* SOCK_DGRAM (default) or SOCK_STREAM */
	enum nslog_sl_target target;
	int pid;
	uint64_t ns_id;
};

/*
 * A file of the set a command names (NSLOG_IOC_OPEN_NS), or the tests'
 * stand-in: the fd, and the namespace's id in @ns_id; or -errno.
 */
typedef int nslog_sl_open_set_fn(int own_fd, const struct nslog_sl_cmd *c,
				 uint64_t *ns_id);

struct nslog_sl_control {
	enum nslog_sl_kind kind;	/* NSLOG_SL_EV_CONTROL */
	int sock;
	const char *dir;
	struct nslog_sl_listener *l;
	nslog_sl_open_set_fn *open_set;
};

int nslog_sl_cmd_parse(struct nslog_sl_cmd *c, const char *line,
		       const char **why);
int nslog_sl_open_set(int own_fd, const struct nslog_sl_cmd *c,
		      uint64_t *ns_id);
void nslog_sl_control_run(struct nslog_sl_control *ctl, const char *line,
			  char *reply, size_t size);
int nslog_sl_control_open(struct nslog_sl_control *ctl);
void nslog_sl_control_ready(struct nslog_sl_control *ctl);
int nslog_sl_control_client(const char *dir, const char *line, char *reply,
			    size_t size);

#endif /* NSLOG_SL_CONTROL_H */
