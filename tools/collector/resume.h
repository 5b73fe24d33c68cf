/* SPDX-License-Identifier: GPL-2.0 */
/*
 * resume: where a log's reading resumes after a restart, from what the
 * state file says the output has and what the output itself says it has.
 */
#ifndef NSLOG_RESUME_H
#define NSLOG_RESUME_H

#include <stdbool.h>
#include <linux/types.h>

/* A source's word on a log: the seq of the last record the output has. */
struct nslog_pos {
	bool has;		/* it knows of a record of this log */
	__u64 last;
};

/* Which word the resume position is. */
enum nslog_resume_from {
	NSLOG_RESUME_START,	/* neither knows of a record: from seq 0 */
	NSLOG_RESUME_STATE,	/* the state file's (the output's is not past it) */
	NSLOG_RESUME_DEST,	/* the output's, past the state file's */
};

struct nslog_resume {
	enum nslog_resume_from from;
	struct nslog_pos pos;	/* resume after pos.last, if pos.has */
	__u64 ahead;		/* records the output has past the state file */
	bool ignored;		/* the output named a seq not written yet */
};

void nslog_resume_pick(struct nslog_resume *r, const struct nslog_pos *state,
		       const struct nslog_pos *dest, __u64 head);

#endif /* NSLOG_RESUME_H */
