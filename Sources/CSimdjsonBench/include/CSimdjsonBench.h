// simdjson (Debian's libsimdjson-dev) behind a C interface, for spytail-bench's JSON parser comparison only:
// nothing of spytail itself links it.
#ifndef CSIMDJSON_BENCH_H
#define CSIMDJSON_BENCH_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Bytes simdjson may read past the end of a line: a line handed in must have this many readable bytes after it.
size_t sjb_padding(void);

/// A parser (its buffers are reused from line to line). NULL if it cannot be made.
void *sjb_parser_new(void);
void sjb_parser_free(void *parser);

/// The DOM API: validates the whole line and builds simdjson's tape. Returns the number of top-level members of
/// the object, or -1 when the line is not valid JSON or not an object.
int64_t sjb_dom_members(void *parser, const uint8_t *line, size_t length);

/// The On-Demand API, used as spytail uses its own scanner: each top-level member's raw key and its value as
/// written (`raw_json`), their offsets written to `ranges` (4 per member: key start, key end, value start,
/// value end; at most `capacity` members). Returns the number of members or -1. On-Demand validates what it
/// reads; a nested value it skips is not checked for JSON's grammar.
int64_t sjb_ondemand_members(void *parser, const uint8_t *line, size_t length, size_t *ranges, size_t capacity);

#ifdef __cplusplus
}
#endif
#endif
