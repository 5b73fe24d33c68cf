/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz.h: what the harnesses share: taking typed values off the front of
 * libFuzzer's input, a check that makes a broken invariant a finding, and
 * a file whose contents are the input, for parsers that read a path.
 *
 * Every harness defines LLVMFuzzerTestOneInput() and links the tools'
 * archives built with the same sanitizers (tests/fuzz/build.mk); none
 * touches a real log device.
 */
#ifndef NSLOG_TESTS_FUZZ_H
#define NSLOG_TESTS_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input, consumed from the front. */
struct fz {
	const uint8_t *p;
	size_t n;
};

static inline uint8_t fz_u8(struct fz *f)
{
	uint8_t v = 0;

	if (f->n) {
		v = *f->p++;
		f->n--;
	}
	return v;
}

/* Little-endian; the operands of | are unsequenced, so one at a time. */
static inline uint16_t fz_u16(struct fz *f)
{
	uint16_t lo = fz_u8(f);

	return (uint16_t)(lo | fz_u8(f) << 8);
}

static inline uint32_t fz_u32(struct fz *f)
{
	uint32_t lo = fz_u16(f);

	return lo | (uint32_t)fz_u16(f) << 16;
}

/* Up to @want bytes (fewer at the end of the input); *@got says how many. */
static inline const uint8_t *fz_bytes(struct fz *f, size_t want, size_t *got)
{
	const uint8_t *p = f->p;

	if (want > f->n)
		want = f->n;
	f->p += want;
	f->n -= want;
	*got = want;
	return p;
}

/*
 * The next piece: a 16-bit length, then up to that many bytes.  Lets the
 * fuzzer cut its input into records, datagrams or lines.
 */
static inline const uint8_t *fz_piece(struct fz *f, size_t max, size_t *got)
{
	size_t want = fz_u16(f);

	return fz_bytes(f, want > max ? max : want, got);
}

/* A NUL-terminated copy of @n bytes at @p (free() it); aborts if no memory. */
static inline char *fz_strndup(const void *p, size_t n)
{
	char *s = malloc(n + 1);

	if (!s)
		abort();
	memcpy(s, p, n);
	s[n] = '\0';
	return s;
}

/* A broken invariant: a finding, with the place and what was expected. */
#define FZ_CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: invariant broken: %s\n",	\
			__FILE__, __LINE__, #cond);			\
		abort();						\
	}								\
} while (0)

/*
 * A path whose file holds @n bytes at @p: a memfd, made once and
 * rewritten for each input, named through /proc/self/fd (opening that
 * path opens the same file again, from its start).
 */
static inline const char *fz_file(const void *p, size_t n)
{
	static char path[64];
	static int fd = -1;

	if (fd < 0) {
		fd = memfd_create("nslog-fuzz", MFD_CLOEXEC);
		if (fd < 0)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || (n && pwrite(fd, p, n, 0) != (ssize_t)n))
		abort();
	return path;
}

/* Where output goes that only must not crash: /dev/null, opened once. */
static inline FILE *fz_null(void)
{
	static FILE *f;

	if (!f)
		f = fopen("/dev/null", "we");
	if (!f)
		abort();
	return f;
}

/* Output kept in memory, to be checked: fz_mem_open(), print, fz_mem_end(). */
struct fz_mem {
	FILE *f;
	char *text;
	size_t len;
};

static inline FILE *fz_mem_open(struct fz_mem *m)
{
	m->text = NULL;
	m->len = 0;
	m->f = open_memstream(&m->text, &m->len);
	if (!m->f)
		abort();
	return m->f;
}

/* What was printed since fz_mem_open(), NUL-terminated in m->text. */
static inline void fz_mem_flush(struct fz_mem *m)
{
	if (fflush(m->f))
		abort();
}

static inline void fz_mem_close(struct fz_mem *m)
{
	fclose(m->f);
	free(m->text);
	m->f = NULL;
	m->text = NULL;
}

/* How many times @c occurs in @n bytes at @p. */
static inline size_t fz_count(const void *p, size_t n, char c)
{
	const char *s = p, *end;
	size_t k = 0;

	if (!n)
		return 0;
	end = s + n;
	while (s < end && (s = memchr(s, c, (size_t)(end - s)))) {
		k++;
		s++;
	}
	return k;
}

#endif /* NSLOG_TESTS_FUZZ_H */
