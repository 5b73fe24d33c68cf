// SPDX-License-Identifier: GPL-2.0
/*
 * resume: the seq a log resumes after, from two words.
 *
 * The state file says the last record the output had when it was last
 * written (collstate.c); it lags the output by what was shipped since,
 * which a SIGKILL or a crash would ship again.  An output that can be
 * asked (the journal: journalpos.c) says the last record it has now.
 * Records of one log reach the output in seq order, so whatever the
 * output has at or below the larger of the two words, it has: resume
 * after max(state, output).
 *
 * What the output says is believed only for seqs the log has written:
 * a seq at or past @head (the seq its next record will get) is not this
 * set's record.  Set ids start at a random 63-bit number each time the
 * module loads (docs/abi.md), so a set of an earlier load of this boot
 * having this set's id is a chance of about (sets made) / 2^63; and an
 * entry forged by a process of the collector's uid (journalpos.c matches
 * nothing else) could claim any seq.  Such a word is ignored, and said
 * to be: the state file's stands.
 */
#include "resume.h"

/**
 * nslog_resume_pick() - where a log resumes
 * @r: filled in
 * @state: the state file's word
 * @dest: the output's word (has = false if it was not asked, or has none)
 * @head: the seq the log's next record will get (NSLOG_IOC_INFO's
 *	  head_seq), or ~0 when the set is gone and it is not known
 *
 * Context: any.
 */
void nslog_resume_pick(struct nslog_resume *r, const struct nslog_pos *state,
		       const struct nslog_pos *dest, __u64 head)
{
	bool use_dest = dest->has && dest->last < head;

	r->ignored = dest->has && !use_dest;
	r->ahead = 0;
	if (use_dest && (!state->has || dest->last > state->last)) {
		r->from = NSLOG_RESUME_DEST;
		r->pos = *dest;
		r->ahead = state->has ? dest->last - state->last :
			   dest->last + 1;
	} else if (state->has) {
		r->from = NSLOG_RESUME_STATE;
		r->pos = *state;
	} else {
		r->from = NSLOG_RESUME_START;
		r->pos.has = false;
		r->pos.last = 0;
	}
}
