#ifndef CJSONSCAN_H
#define CJSONSCAN_H

#include <stddef.h>
#include <stdint.h>

/// One top-level member of a JSON object line, as offsets into the line.
typedef struct {
    int64_t key_start, key_end;      // the key's content, without its quotes
    int64_t value_start, value_end;  // the value as written (a string's content, without its quotes)
    uint8_t kind;                    // FieldValue.Kind's raw value: 1 string 2 number 3 true 4 false 5 null 6 object 7 array
    uint8_t key_escaped;             // the key holds a backslash
    uint8_t value_escaped;           // a string value holds a backslash
} cjs_member;

/// The line is not accepted: the caller's exact scanner says why and where.
#define CJS_REFUSED (-1)
/// More members than `capacity`: call again with more room.
#define CJS_FULL (-2)

/// Instruction sets the structural pass can use (bits of `cjs_supported_isas`).
#define CJS_ISA_PORTABLE 1
#define CJS_ISA_SSE2 2
#define CJS_ISA_AVX2 4
#define CJS_ISA_AVX512 8

/// Validates `p[0..<n]` as one JSON object (RFC 8259), 64 bytes at a time with the best instruction set
/// this CPU has, and writes its top-level members in order. Returns how many, CJS_REFUSED or CJS_FULL.
/// UTF-8 is not checked: `*first_high` is the offset of the first byte >= 0x80 (-1: none), and the caller
/// validates from there. Nesting deeper than `max_depth` is refused.
int64_t cjs_scan_object(const uint8_t *p, size_t n, cjs_member *members, size_t capacity, int64_t *first_high, int max_depth);

/// The same with a given instruction set (one of `cjs_supported_isas()`): tests hold each to the same verdicts.
int64_t cjs_scan_object_isa(int isa, const uint8_t *p, size_t n, cjs_member *members, size_t capacity, int64_t *first_high,
                            int max_depth);

/// In the object `p[start..<end]` (braces included) that `cjs_scan_object` accepted as part of a line, the
/// last member whose key is `key` (bytes as written, no escape in them). Returns 1 and fills `out` (kind,
/// key and value ranges as `cjs_scan_object` writes them), 0 when it has none, or -1 when some key there
/// holds an escape (it may read as `key` once decoded: the caller looks itself).
int cjs_find_member(const uint8_t *p, size_t start, size_t end, const uint8_t *key, size_t key_length, cjs_member *out);

/// Copies the longest prefix of `src[0..<n]` that a JSON string takes as it is (no control byte, `"`, `\`
/// or byte >= 0x80) to `dst` and returns its length. May also write bytes after that prefix, never at or
/// past `dst + n`. 16 bytes at a time with SSE2 on x86-64, a byte at a time elsewhere.
size_t cjs_copy_clean(const uint8_t *src, size_t n, uint8_t *dst);

/// 1 when `p[0..<n]` is certainly a time a container runtime writes and `TimestampParser.iso8601` reads:
/// `YYYY-MM-DDThh:mm:ss`, an optional fraction, `Z` or an offset (or none), a year 1700…2199; 0 when not certainly
/// (the caller asks the full parser).
int cjs_is_runtime_time(const uint8_t *p, size_t n);

/// A Docker json-file line as the driver writes it: where its parts are, its `log` decoded elsewhere.
typedef struct {
    size_t content_length;           // bytes of the decoded `log` that are the text: without a final `\n` (and `\r` before it)
    size_t time_start, time_length;  // the time as written, in the line
    int stream;                      // 0 stdout, 1 stderr
    int partial;                     // the `log` does not end in `\n`: a part of a longer line, more follow
} cjs_docker_line;

/// The date and time to the second of the last runtime time that passed the check, kept by the caller from line
/// to line: a file's lines mostly share them, and then only the fraction and zone are checked.
typedef struct {
    uint8_t seconds[19];
    uint8_t valid;
} cjs_time_memo;

/// Reads `line[0..<n]` when it is exactly `{"log":"…","stream":"stdout|stderr","time":"…"}` (well-formed UTF-8,
/// simple escapes, no attrs, no spaces, a time `cjs_is_runtime_time` accepts), decoding `log` into `decoded`, which
/// holds at least `n` bytes. Returns 1 and fills `out`, or 0 for any other line (the caller's JSON scanner
/// reads it, or says why not). `memo` starts zeroed and is passed again with each line of the same reader.
int cjs_read_docker_as_written(const uint8_t *line, size_t n, uint8_t *decoded, cjs_time_memo *memo, cjs_docker_line *out);

/// The instruction sets this CPU can run, as CJS_ISA_* bits.
int cjs_supported_isas(void);

#endif
