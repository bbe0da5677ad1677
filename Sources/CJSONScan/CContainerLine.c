// The common case of a container runtime's log line, read in one pass without bounds checks or exclusivity
// checks: a Docker json-file line exactly as the driver writes it, and the RFC 3339 time runtimes write. Each
// function answers only when sure; anything else goes to the Swift readers, which say what is wrong and where.
#include "CJSONScan.h"
#include "CopyClean.h"
#include <string.h>

static inline uint64_t load64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/// Whether the 8 bytes in `v` (first byte lowest) fit `shape`: 'd' a digit, any other character itself.
/// Inlined with a literal `shape`, the masks fold to constants: three loads and a few operations check a date
/// and time that took seven branchy digit pairs.
__attribute__((always_inline)) static inline int fits(uint64_t v, const char shape[8]) {
    uint64_t high = 0, expected = 0, low = 0, six = 0, nibble = 0;
    for (int k = 0; k < 8; k++) {
        uint64_t at = (uint64_t)8 * (uint64_t)k;
        if (shape[k] == 'd') {
            high |= (uint64_t)0xF0 << at;
            expected |= (uint64_t)0x30 << at;
            low |= (uint64_t)0x0F << at;
            six |= (uint64_t)0x06 << at;
            nibble |= (uint64_t)0xF0 << at;
        } else {
            high |= (uint64_t)0xFF << at;
            expected |= (uint64_t)(uint8_t)shape[k] << at;
        }
    }
    // A digit is 0x30 | n with n <= 9: its high nibble is 3 and n + 6 stays below 16 (no carry between bytes).
    return (v & high) == expected && (((v & low) + six) & nibble) == 0;
}

/// The digits at the start of `p[0..<n]`, eight at a time.
static inline size_t digit_run(const uint8_t *p, size_t n) {
    size_t i = 0;
    while (i + 8 <= n) {
        uint64_t v = load64(p + i);
        uint64_t bad = ((v & 0xF0F0F0F0F0F0F0F0ull) ^ 0x3030303030303030ull) | (((v & 0x0F0F0F0F0F0F0F0Full) + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull);
        if (bad != 0) return i + (size_t)(__builtin_ctzll(bad) / 8);
        i += 8;
    }
    while (i < n && (unsigned)p[i] - '0' <= 9) i++;
    return i;
}

static inline int digit(const uint8_t *p) { return (int)p[0] - '0'; }

/// `YYYY-MM-DDThh:mm:ss` at `p` (20 bytes readable): the part of a runtime's time that changes once a second.
static inline int fits_seconds(const uint8_t *p) {
    // In three overlapping words: bytes 0-7, 8-15 and 11-18.
    if (!fits(load64(p), "dddd-dd-") || !fits(load64(p + 8), "ddTdd:dd") || !fits(load64(p + 11), "dd:dd:dd")) return 0;
    int year = digit(p) * 1000 + digit(p + 1) * 100 + digit(p + 2) * 10 + digit(p + 3);
    int month = digit(p + 5) * 10 + digit(p + 6), day = digit(p + 8) * 10 + digit(p + 9);
    int hour = digit(p + 11) * 10 + digit(p + 12), minute = digit(p + 14) * 10 + digit(p + 15), second = digit(p + 17) * 10 + digit(p + 18);
    // Years far from the edges of what nanoseconds since the epoch hold (1677 … 2262): no overflow to check.
    return !(year < 1700 || year > 2199 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60);
}

/// What follows the seconds (`p[19..<n]`): an optional fraction, then `Z`, an offset or nothing.
__attribute__((always_inline)) static inline int fits_fraction_and_zone(const uint8_t *p, size_t n) {
    size_t i = 19;
    if (p[i] == '.' || p[i] == ',') {
        size_t digits = digit_run(p + i + 1, n - i - 1);
        if (digits == 0) return 0;
        i += 1 + digits;
    }
    if (i == n) return 1;
    if (p[i] == 'Z' || p[i] == 'z') return i + 1 == n;
    if (p[i] != '+' && p[i] != '-') return 0;
    i++;
    // ±HH:MM or ±HHMM
    if (i + 2 > n || (unsigned)p[i] - '0' > 9 || (unsigned)p[i + 1] - '0' > 9) return 0;
    i += 2;
    if (i < n && p[i] == ':') i++;
    if (i + 2 > n || (unsigned)p[i] - '0' > 9 || (unsigned)p[i + 1] - '0' > 9) return 0;
    return i + 2 == n;
}

int cjs_is_runtime_time(const uint8_t *p, size_t n) {
    return n >= 20 && fits_seconds(p) && fits_fraction_and_zone(p, n);
}

/// Whether the 19 bytes at `p` and at `q` are the same: three overlapping words, no call.
static inline int same_seconds(const uint8_t *p, const uint8_t *q) {
    return ((load64(p) ^ load64(q)) | (load64(p + 8) ^ load64(q + 8)) | (load64(p + 11) ^ load64(q + 11))) == 0;
}

/// `cjs_is_runtime_time`, with the seconds checked only when they differ from the last ones that fit: the
/// lines of one file mostly share them. Inlined into the one-pass reader, its one caller (a call and a `memcmp`
/// were half of its 90 instructions a line).
__attribute__((always_inline)) static inline int is_runtime_time_remembering(const uint8_t *p, size_t n, cjs_time_memo *memo) {
    if (n < 20) return 0;
    if (!(memo->valid && same_seconds(p, memo->seconds))) {
        if (!fits_seconds(p)) return 0;
        memcpy(memo->seconds, p, sizeof memo->seconds);
        memo->valid = 1;
    }
    return fits_fraction_and_zone(p, n);
}

static inline int simple_escape(uint8_t b, uint8_t *plain) {
    switch (b) {
    case '"': case '\\': case '/': *plain = b; return 1;
    case 'b': *plain = 0x08; return 1;
    case 'f': *plain = 0x0C; return 1;
    case 'n': *plain = 0x0A; return 1;
    case 'r': *plain = 0x0D; return 1;
    case 't': *plain = 0x09; return 1;
    default: return 0;
    }
}

/// The length of the well-formed UTF-8 sequence at `p` (2 to 4 bytes, RFC 3629: no overlong forms, no
/// surrogates, nothing past U+10FFFF), or 0: the C twin of `UTF8Validation.sequenceLength`, which the JSON
/// scanner's path uses (DockerFastPathTests and the `container` fuzz target hold the two paths alike).
static inline size_t utf8_sequence(const uint8_t *p, size_t n) {
    uint8_t b = p[0];
    size_t length;
    uint8_t low = 0x80, high = 0xBF;  // the second byte's range
    if (b >= 0xC2 && b <= 0xDF) length = 2;
    else if (b >= 0xE0 && b <= 0xEF) {
        length = 3;
        if (b == 0xE0) low = 0xA0;
        if (b == 0xED) high = 0x9F;
    } else if (b >= 0xF0 && b <= 0xF4) {
        length = 4;
        if (b == 0xF0) low = 0x90;
        if (b == 0xF4) high = 0x8F;
    } else return 0;
    if (length > n || p[1] < low || p[1] > high) return 0;
    for (size_t k = 2; k < length; k++) {
        if (p[k] < 0x80 || p[k] > 0xBF) return 0;
    }
    return length;
}

static inline int has(const uint8_t *line, size_t n, size_t at, const char *word, size_t length) {
    return at + length <= n && memcmp(line + at, word, length) == 0;
}

int cjs_read_docker_as_written(const uint8_t *line, size_t n, uint8_t *decoded, cjs_time_memo *memo, cjs_docker_line *out) {
    static const char opening[] = "{\"log\":\"", stream_member[] = "\",\"stream\":\"", time_member[] = "\",\"time\":\"";
    const size_t opening_length = sizeof opening - 1, stream_length = sizeof stream_member - 1, time_length = sizeof time_member - 1;
    if (n <= 40 || !has(line, n, 0, opening, opening_length)) return 0;
    size_t i = opening_length, j = 0;
    for (;;) {
        size_t clean = cjs_copy_clean_inline(line + i, n - i, decoded + j);
        i += clean;
        j += clean;
        if (i >= n) return 0;
        if (line[i] == '"') break;
        if (line[i] >= 0x80) {  // a character beyond ASCII, as Go writes it when it is valid UTF-8
            size_t length = utf8_sequence(line + i, n - i);
            if (length == 0) return 0;
            memcpy(decoded + j, line + i, length);
            i += length;
            j += length;
            continue;
        }
        uint8_t plain;
        if (line[i] != '\\' || i + 1 >= n || !simple_escape(line[i + 1], &plain)) return 0;
        decoded[j++] = plain;
        i += 2;
    }
    size_t stream_start = i + stream_length;  // `i`: the quote that closes `log`
    if (!has(line, n, i, stream_member, stream_length) || stream_start + 6 >= n) return 0;
    int stream;
    if (memcmp(line + stream_start, "stdout", 6) == 0) stream = 0;
    else if (memcmp(line + stream_start, "stderr", 6) == 0) stream = 1;
    else return 0;
    size_t time_start = stream_start + 6 + time_length;
    if (!has(line, n, stream_start + 6, time_member, time_length) || n < time_start + 2 || line[n - 1] != '}' || line[n - 2] != '"') return 0;
    size_t time_end = n - 2;
    // The time's own bytes hold no quote or backslash: `cjs_is_runtime_time` accepts only digits and separators.
    if (!is_runtime_time_remembering(line + time_start, time_end - time_start, memo)) return 0;
    // A `log` without its final `\n` is a part of a longer line; that `\n` (and a `\r` before it) is not the text.
    int partial = j == 0 || decoded[j - 1] != '\n';
    if (!partial) {
        j--;
        if (j > 0 && decoded[j - 1] == '\r') j--;
    }
    out->content_length = j;
    out->partial = partial;
    out->time_start = time_start;
    out->time_length = time_end - time_start;
    out->stream = stream;
    return 1;
}
