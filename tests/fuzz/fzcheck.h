/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fzcheck: checks of what the tools print, written apart from the tools'
 * own code so that a harness does not trust the code it tests: UTF-8
 * (RFC 3629) and one JSON value (RFC 8259).
 */
#ifndef NSLOG_TESTS_FZCHECK_H
#define NSLOG_TESTS_FZCHECK_H

#include <stdbool.h>
#include <stddef.h>

bool fz_utf8_valid(const char *s, size_t n);
bool fz_json_object(const char *s, size_t n);

#endif /* NSLOG_TESTS_FZCHECK_H */
