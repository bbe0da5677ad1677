// The common case of a container runtime's log line, read in one pass without bounds checks or exclusivity
// checks: a Docker json-file line exactly as the driver writes it, and the RFC 3339 time runtimes write. Each
// function answers only when sure; anything else goes to the Swift readers, which say what is wrong and where.
#include "CJSONScan.h"
#include <string.h>

static inline int two_digits(const uint8_t *p, int *value) {
    unsigned a = (unsigned)p[0] - '0', b = (unsigned)p[1] - '0';
    if (a > 9 || b > 9) return 0;
    *value = (int)(a * 10 + b);
    return 1;
}

int cjs_is_runtime_time(const uint8_t *p, size_t n) {
    if (n < 20 || p[4] != '-' || p[7] != '-' || p[10] != 'T' || p[13] != ':' || p[16] != ':') return 0;
    int century, yy, month, day, hour, minute, second;
    if (!two_digits(p, &century) || !two_digits(p + 2, &yy) || !two_digits(p + 5, &month) || !two_digits(p + 8, &day)
        || !two_digits(p + 11, &hour) || !two_digits(p + 14, &minute) || !two_digits(p + 17, &second)) return 0;
    int year = century * 100 + yy;
    // Years far from the edges of what nanoseconds since the epoch hold (1677 … 2262): no overflow to check.
    if (year < 1700 || year > 2199 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return 0;
    size_t i = 19;
    if (i < n && (p[i] == '.' || p[i] == ',')) {
        size_t start = ++i;
        while (i < n && (unsigned)p[i] - '0' <= 9) i++;
        if (i == start) return 0;
    }
    if (i == n) return 1;
    if (p[i] == 'Z' || p[i] == 'z') return i + 1 == n;
    if (p[i] != '+' && p[i] != '-') return 0;
    i++;
    int oh, om;
    if (i + 2 > n || !two_digits(p + i, &oh)) return 0;
    i += 2;
    if (i < n && p[i] == ':') i++;
    if (i + 2 > n || !two_digits(p + i, &om)) return 0;
    return i + 2 == n;
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
/// surrogates, nothing past U+10FFFF), or 0.
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

int cjs_read_docker_as_written(const uint8_t *line, size_t n, uint8_t *decoded, cjs_docker_line *out) {
    static const char opening[] = "{\"log\":\"", stream_member[] = "\",\"stream\":\"", time_member[] = "\",\"time\":\"";
    const size_t opening_length = sizeof opening - 1, stream_length = sizeof stream_member - 1, time_length = sizeof time_member - 1;
    if (n <= 40 || !has(line, n, 0, opening, opening_length)) return 0;
    size_t i = opening_length, j = 0;
    for (;;) {
        size_t clean = cjs_copy_clean(line + i, n - i, decoded + j);
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
    if (!cjs_is_runtime_time(line + time_start, time_end - time_start)) return 0;
    out->log_length = j;
    out->time_start = time_start;
    out->time_length = time_end - time_start;
    out->stream = stream;
    return 1;
}
