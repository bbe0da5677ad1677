// A JSON object line validated in two stages, after simdjson's design (Langdale & Lemire, "Parsing
// gigabytes of JSON per second", VLDB Journal 2019). Stage 1 classifies 64 bytes at a time into bit masks
// (quotes, backslashes, whitespace, operators, control and non-ASCII bytes), works out which bytes are
// escaped and which are inside strings, and marks where each token starts: an operator, both quotes of a
// string, the first byte of anything else (a number, a literal, or bytes the grammar will refuse). Stage 2
// walks those marks with JSON's grammar and keeps the top-level members. Stage 2 pulls one block at a time
// from stage 1 (the block's marks and offset held in registers), so a line of any length needs no more
// memory than a few carries and the in-string backslashes of the last 64 blocks.
//
// Stage 1 runs with AVX-512BW, AVX2 or SSE2, whichever the CPU has (chosen once), or a byte loop on other
// architectures. Measured on W3's lines by `spytail-bench json-parsers`, this pass alone: AVX-512 252 ns a
// line, AVX2 270, SSE2 332, the byte loop 1,321; the Swift scanner a byte at a time took ~430.
//
// It only accepts or refuses: JSONLineScanner runs its exact scanner on a refused line to name the problem
// and its offset, so both must accept exactly the same lines (JSONScannerAgreementTests holds them to it).

#include "CJSONScan.h"
#include "CopyClean.h"
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

typedef struct {
    uint64_t quote, backslash, space, op, control, high;
} block_masks;

/// A member's kind: FieldValue.Kind's raw values.
enum { KIND_STRING = 1, KIND_NUMBER = 2, KIND_TRUE = 3, KIND_FALSE = 4, KIND_NULL = 5, KIND_OBJECT = 6, KIND_ARRAY = 7 };

/// The kind of a validated value from its first byte.
static inline uint8_t kind_of(uint8_t first) {
    switch (first) {
    case '"': return KIND_STRING;
    case '{': return KIND_OBJECT;
    case '[': return KIND_ARRAY;
    case 't': return KIND_TRUE;
    case 'f': return KIND_FALSE;
    case 'n': return KIND_NULL;
    default: return KIND_NUMBER;
    }
}

// MARK: classification, one per instruction set

static inline void classify_portable(const uint8_t *b, block_masks *m) {
    block_masks r = {0, 0, 0, 0, 0, 0};
    for (int k = 0; k < 64; k++) {
        uint8_t x = b[k];
        uint64_t bit = (uint64_t)1 << k;
        if (x == '"') r.quote |= bit;
        if (x == '\\') r.backslash |= bit;
        if (x == ' ' || x == '\t' || x == '\n' || x == '\r') r.space |= bit;
        if (x == '{' || x == '}' || x == '[' || x == ']' || x == ':' || x == ',') r.op |= bit;
        if (x <= 0x1F) r.control |= bit;
        if (x >= 0x80) r.high |= bit;
    }
    *m = r;
}

#if defined(__x86_64__)
// `{`|0x20 == `{` == `[`|0x20 and `}`|0x20 == `}` == `]`|0x20: two compares find the four brackets.

static inline uint64_t movemask16(__m128i v) { return (uint64_t)(uint16_t)_mm_movemask_epi8(v); }

static inline void classify_sse2(const uint8_t *b, block_masks *m) {
    block_masks r = {0, 0, 0, 0, 0, 0};
    for (int k = 0; k < 4; k++) {
        __m128i x = _mm_loadu_si128((const __m128i *)(b + 16 * k));
        __m128i folded = _mm_or_si128(x, _mm_set1_epi8(0x20));
        __m128i op = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(folded, _mm_set1_epi8('{')), _mm_cmpeq_epi8(folded, _mm_set1_epi8('}'))),
                                  _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(':')), _mm_cmpeq_epi8(x, _mm_set1_epi8(','))));
        __m128i space = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(x, _mm_set1_epi8('\t'))),
                                     _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('\n')), _mm_cmpeq_epi8(x, _mm_set1_epi8('\r'))));
        __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(0x1F)), x); // x <= 0x1F
        int shift = 16 * k;
        r.quote |= movemask16(_mm_cmpeq_epi8(x, _mm_set1_epi8('"'))) << shift;
        r.backslash |= movemask16(_mm_cmpeq_epi8(x, _mm_set1_epi8('\\'))) << shift;
        r.space |= movemask16(space) << shift;
        r.op |= movemask16(op) << shift;
        r.control |= movemask16(control) << shift;
        r.high |= movemask16(x) << shift;
    }
    *m = r;
}

__attribute__((target("avx2"))) static inline uint64_t movemask32(__m256i v) {
    return (uint64_t)(uint32_t)_mm256_movemask_epi8(v);
}

__attribute__((target("avx2"))) static inline void classify_avx2(const uint8_t *b, block_masks *m) {
    block_masks r = {0, 0, 0, 0, 0, 0};
    for (int k = 0; k < 2; k++) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(b + 32 * k));
        __m256i folded = _mm256_or_si256(x, _mm256_set1_epi8(0x20));
        __m256i op = _mm256_or_si256(
            _mm256_or_si256(_mm256_cmpeq_epi8(folded, _mm256_set1_epi8('{')), _mm256_cmpeq_epi8(folded, _mm256_set1_epi8('}'))),
            _mm256_or_si256(_mm256_cmpeq_epi8(x, _mm256_set1_epi8(':')), _mm256_cmpeq_epi8(x, _mm256_set1_epi8(','))));
        __m256i space = _mm256_or_si256(
            _mm256_or_si256(_mm256_cmpeq_epi8(x, _mm256_set1_epi8(' ')), _mm256_cmpeq_epi8(x, _mm256_set1_epi8('\t'))),
            _mm256_or_si256(_mm256_cmpeq_epi8(x, _mm256_set1_epi8('\n')), _mm256_cmpeq_epi8(x, _mm256_set1_epi8('\r'))));
        __m256i control = _mm256_cmpeq_epi8(_mm256_min_epu8(x, _mm256_set1_epi8(0x1F)), x);
        int shift = 32 * k;
        r.quote |= movemask32(_mm256_cmpeq_epi8(x, _mm256_set1_epi8('"'))) << shift;
        r.backslash |= movemask32(_mm256_cmpeq_epi8(x, _mm256_set1_epi8('\\'))) << shift;
        r.space |= movemask32(space) << shift;
        r.op |= movemask32(op) << shift;
        r.control |= movemask32(control) << shift;
        r.high |= movemask32(x) << shift;
    }
    *m = r;
}

__attribute__((target("avx512f,avx512bw"))) static inline void classify_avx512(const uint8_t *b, block_masks *m) {
    __m512i x = _mm512_loadu_si512((const void *)b);
    __m512i folded = _mm512_or_si512(x, _mm512_set1_epi8(0x20));
    m->op = _mm512_cmpeq_epi8_mask(folded, _mm512_set1_epi8('{')) | _mm512_cmpeq_epi8_mask(folded, _mm512_set1_epi8('}'))
          | _mm512_cmpeq_epi8_mask(x, _mm512_set1_epi8(':')) | _mm512_cmpeq_epi8_mask(x, _mm512_set1_epi8(','));
    m->space = _mm512_cmpeq_epi8_mask(x, _mm512_set1_epi8(' ')) | _mm512_cmpeq_epi8_mask(x, _mm512_set1_epi8('\t'))
             | _mm512_cmpeq_epi8_mask(x, _mm512_set1_epi8('\n')) | _mm512_cmpeq_epi8_mask(x, _mm512_set1_epi8('\r'));
    m->quote = _mm512_cmpeq_epi8_mask(x, _mm512_set1_epi8('"'));
    m->backslash = _mm512_cmpeq_epi8_mask(x, _mm512_set1_epi8('\\'));
    m->control = _mm512_cmple_epu8_mask(x, _mm512_set1_epi8(0x1F));
    m->high = _mm512_movepi8_mask(x);
}
#endif

// MARK: stage 1

/// Bit i set when an odd number of bits at or below i are set.
static inline uint64_t prefix_xor(uint64_t x) {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}

static inline int is_hex(uint8_t c) { return (uint8_t)(c - '0') < 10 || (uint8_t)((c | 0x20) - 'a') < 6; }

/// Whether the escape at `i` (a backslash inside a string, not itself escaped) is one JSON has.
static inline int valid_escape(const uint8_t *p, size_t n, size_t i) {
    if (i + 1 >= n) return 0;
    switch (p[i + 1]) {
    case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
        return 1;
    case 'u':
        return i + 5 < n && is_hex(p[i + 2]) && is_hex(p[i + 3]) && is_hex(p[i + 4]) && is_hex(p[i + 5]);
    default:
        return 0;
    }
}

/// The blocks of backslashes kept for telling whether a string holds one (older strings: memchr).
#define WINDOW_BLOCKS 64

/// Stage 1's carries from one block to the next.
typedef struct {
    const uint8_t *p;
    size_t n;
    size_t next_block;    // offset of the next block to classify
    uint64_t escape_next; // 1: the next block's first byte is escaped
    uint64_t in_string;   // all ones: the last block ended inside a string
    uint64_t scalar_prev; // 1: the last block ended inside a scalar token
    int64_t first_high;   // offset of the first byte >= 0x80, or -1
    int refused;          // a control byte or a bad escape inside a string
    uint64_t any_backslash;              // some string holds a backslash
    size_t window_start;                 // offset of the first block in `backslashes`
    uint64_t backslashes[WINDOW_BLOCKS]; // per block: the backslashes inside strings
} stage1;

/// From one block's masks to its token starts.
__attribute__((always_inline)) static inline uint64_t tokens(stage1 *c, size_t block, const block_masks *m) {
    // Which bytes a backslash escapes: the backslashes in order (they are few).
    uint64_t escaped = c->escape_next;
    uint64_t walk = m->backslash & ~escaped;
    c->escape_next = 0;
    while (walk) {
        int i = __builtin_ctzll(walk);
        if (i == 63) {
            c->escape_next = 1;
            break;
        }
        escaped |= (uint64_t)1 << (i + 1);
        walk &= ~((uint64_t)3 << i);
    }
    uint64_t quote = m->quote & ~escaped;
    // Inside a string: from an opening quote (included) to its closing quote (excluded).
    uint64_t in_string = prefix_xor(quote) ^ c->in_string;
    c->in_string = (uint64_t)((int64_t)in_string >> 63);
    uint64_t body = in_string & ~quote;
    if (m->control & body) c->refused = 1;
    uint64_t backslashes = m->backslash & body;
    if (backslashes) {
        c->any_backslash = 1;
        for (uint64_t escapes = backslashes & ~escaped; escapes; escapes &= escapes - 1) {
            if (!valid_escape(c->p, c->n, block + (size_t)__builtin_ctzll(escapes))) c->refused = 1;
        }
    }
    if (block - c->window_start >= WINDOW_BLOCKS * 64) c->window_start = block;
    c->backslashes[(block - c->window_start) / 64] = backslashes;
    if (m->high && c->first_high < 0) c->first_high = (int64_t)(block + (size_t)__builtin_ctzll(m->high));
    uint64_t scalar = ~(m->op | m->space | quote | in_string);
    uint64_t scalar_start = scalar & ~((scalar << 1) | c->scalar_prev);
    c->scalar_prev = scalar >> 63;
    return (m->op & ~in_string) | quote | scalar_start;
}

/// The next block's bytes: in place, or the line's last bytes padded with spaces.
static inline const uint8_t *next_bytes(const stage1 *c, uint8_t padded[64]) {
    const uint8_t *b = c->p + c->next_block;
    size_t left = c->n - c->next_block;
    if (left >= 64) return b;
    memset(padded, ' ', 64);
    memcpy(padded, b, left);
    return padded;
}

#define CLASSIFY_NEXT(name, classify, target)                        \
    target __attribute__((noinline)) static uint64_t name(stage1 *c) { \
        uint8_t padded[64];                                          \
        block_masks m;                                               \
        classify(next_bytes(c, padded), &m);                         \
        size_t block = c->next_block;                                \
        c->next_block += 64;                                         \
        return tokens(c, block, &m);                                 \
    }

CLASSIFY_NEXT(next_portable, classify_portable, )
#if defined(__x86_64__)
CLASSIFY_NEXT(next_sse2, classify_sse2, )
CLASSIFY_NEXT(next_avx2, classify_avx2, __attribute__((target("avx2"))))
CLASSIFY_NEXT(next_avx512, classify_avx512, __attribute__((target("avx512f,avx512bw"))))
#endif

typedef uint64_t (*classifier)(stage1 *);

int cjs_supported_isas(void) {
    int isas = CJS_ISA_PORTABLE;
#if defined(__x86_64__)
    __builtin_cpu_init();
    isas |= CJS_ISA_SSE2;
    if (__builtin_cpu_supports("avx2")) isas |= CJS_ISA_AVX2;
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")) isas |= CJS_ISA_AVX512;
#endif
    return isas;
}

static classifier classifier_for(int isa) {
#if defined(__x86_64__)
    if (isa == CJS_ISA_AVX512) return next_avx512;
    if (isa == CJS_ISA_AVX2) return next_avx2;
    if (isa == CJS_ISA_SSE2) return next_sse2;
#endif
    return next_portable;
}

// MARK: stage 2

/// JSON's number grammar from `i`: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`. Its end, or -1.
static inline int64_t number_end(const uint8_t *p, size_t n, size_t i) {
#define DIGIT(k) ((k) < n && (uint8_t)(p[k] - '0') < 10)
    if (p[i] == '-') i++;
    if (!DIGIT(i)) return -1;
    if (p[i] == '0') {
        i++;
    } else {
        while (DIGIT(i)) i++;
    }
    if (i < n && p[i] == '.') {
        i++;
        if (!DIGIT(i)) return -1;
        while (DIGIT(i)) i++;
    }
    if (i < n && (p[i] | 0x20) == 'e') {
        i++;
        if (i < n && (p[i] == '+' || p[i] == '-')) i++;
        if (!DIGIT(i)) return -1;
        while (DIGIT(i)) i++;
    }
    return (int64_t)i;
#undef DIGIT
}

static inline int64_t literal_end(const uint8_t *p, size_t n, size_t i, const char *word, size_t count) {
    if (i + count > n || memcmp(p + i, word, count) != 0) return -1;
    return (int64_t)(i + count);
}

/// A number or literal must end where whitespace, an operator or a quote begins, or the line ends.
static inline int ends_token(const uint8_t *p, size_t n, size_t i) {
    if (i >= n) return 1;
    switch (p[i]) {
    case ' ': case '\t': case '\n': case '\r': case ',': case ':': case '{': case '}': case '[': case ']': case '"':
        return 1;
    default:
        return 0;
    }
}

static inline uint64_t below(size_t bit) { return bit == 0 ? 0 : ~(uint64_t)0 >> (64 - bit); }

/// Whether the string content `p[start..<end]` holds a backslash.
static inline uint8_t holds_backslash(const stage1 *c, int64_t start, int64_t end) {
    if (!c->any_backslash || start == end) return 0;
    if ((size_t)start < c->window_start) return memchr(c->p + start, '\\', (size_t)(end - start)) != NULL;
    size_t from = (size_t)start - c->window_start, to = (size_t)end - c->window_start;
    size_t first = from / 64, last = to / 64;
    uint64_t from_first = ~below(from % 64);
    if (first == last) return (c->backslashes[first] & from_first & below(to % 64)) != 0;
    if (c->backslashes[first] & from_first) return 1;
    for (size_t b = first + 1; b < last; b++) {
        if (c->backslashes[b]) return 1;
    }
    return (c->backslashes[last] & below(to % 64)) != 0;
}

/// The next token start into `i`, or -1 at the end of the line (or once stage 1 refused it). The current
/// block's token starts (`bits`) and its offset (`block`) stay in registers.
#define NEXT_TOKEN(i) ((i) = next_token(&c, next, &bits, &block))

__attribute__((always_inline)) static inline int64_t next_token(stage1 *c, classifier next, uint64_t *bits, size_t *block) {
    while (*bits == 0) {
        if (c->next_block >= c->n) return -1;
        *block = c->next_block;
        *bits = next(c);
        if (c->refused) return -1;
    }
    int64_t i = (int64_t)(*block + (size_t)__builtin_ctzll(*bits));
    *bits &= *bits - 1;
    return i;
}

#define MEMBER(value_start, value_end, kind, value_escaped)                                                       \
    do {                                                                                                        \
        if (count == capacity) return CJS_FULL;                                                                 \
        members[count++] = (cjs_member){key_start, key_end, (value_start), (value_end), (kind), key_escaped, (value_escaped)}; \
    } while (0)

int64_t cjs_scan_object_isa(int isa, const uint8_t *p, size_t n, cjs_member *members, size_t capacity, int64_t *first_high,
                            int max_depth) {
    enum { ARRAY = 0, OBJECT = 1 };
    if (max_depth < 1 || (int64_t)n < 0) return CJS_REFUSED;
    uint8_t stack[max_depth];
    classifier next = classifier_for(isa);
    stage1 c;
    c.p = p;
    c.n = n;
    c.next_block = 0;
    c.escape_next = 0;
    c.in_string = 0;
    c.scalar_prev = 0;
    c.first_high = -1;
    c.refused = 0;
    c.any_backslash = 0;
    c.window_start = 0;
    uint64_t bits = 0;
    size_t block = 0, count = 0;
    int depth = 0;
    int64_t key_start = 0, key_end = 0, value_start = 0;
    uint8_t key_escaped = 0;
    int64_t i;
    if (NEXT_TOKEN(i) < 0 || p[i] != '{') return CJS_REFUSED;
    stack[depth++] = OBJECT;

object_begin: // after `{`: a key or `}`
    if (NEXT_TOKEN(i) < 0) return CJS_REFUSED;
    if (p[i] == '}') goto close;
object_key:
    if (p[i] != '"') return CJS_REFUSED;
    {
        int64_t start = i + 1;
        if (NEXT_TOKEN(i) < 0) return CJS_REFUSED;
        if (depth == 1) {
            key_start = start;
            key_end = i;
            key_escaped = holds_backslash(&c, start, i);
        }
    }
    if (NEXT_TOKEN(i) < 0 || p[i] != ':') return CJS_REFUSED;
    if (NEXT_TOKEN(i) < 0) return CJS_REFUSED;
value:
    if (depth == 1) value_start = i;
    {
        uint8_t kind;
        int64_t end;
        switch (p[i]) {
        case '{':
            if (depth >= max_depth) return CJS_REFUSED;
            stack[depth++] = OBJECT;
            goto object_begin;
        case '[':
            if (depth >= max_depth) return CJS_REFUSED;
            stack[depth++] = ARRAY;
            if (NEXT_TOKEN(i) < 0) return CJS_REFUSED;
            if (p[i] == ']') goto close;
            goto value;
        case '"': {
            int64_t start = i + 1;
            if (NEXT_TOKEN(i) < 0) return CJS_REFUSED;
            if (depth == 1) MEMBER(start, i, KIND_STRING, holds_backslash(&c, start, i));
            goto after_value;
        }
        case 't': kind = KIND_TRUE; end = literal_end(p, n, (size_t)i, "true", 4); break;
        case 'f': kind = KIND_FALSE; end = literal_end(p, n, (size_t)i, "false", 5); break;
        case 'n': kind = KIND_NULL; end = literal_end(p, n, (size_t)i, "null", 4); break;
        case '-': case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9':
            kind = KIND_NUMBER;
            end = number_end(p, n, (size_t)i);
            break;
        default:
            return CJS_REFUSED;
        }
        if (end < 0 || !ends_token(p, n, (size_t)end)) return CJS_REFUSED;
        if (depth == 1) MEMBER(value_start, end, kind, 0);
    }
after_value: // `,` or the end of the container
    if (NEXT_TOKEN(i) < 0) return CJS_REFUSED;
    if (p[i] == ',') {
        if (NEXT_TOKEN(i) < 0) return CJS_REFUSED;
        if (stack[depth - 1] == OBJECT) goto object_key;
        goto value;
    }
close: // p[i] must close the innermost container
    if (p[i] != (stack[depth - 1] == OBJECT ? '}' : ']')) return CJS_REFUSED;
    depth--;
    if (depth == 0) {
        // Nothing but whitespace after: no token, no string left open, nothing refused on the way.
        if (NEXT_TOKEN(i) >= 0 || c.refused || c.in_string) return CJS_REFUSED;
        *first_high = c.first_high;
        return (int64_t)count;
    }
    if (depth == 1) MEMBER(value_start, i + 1, kind_of(p[value_start]), 0);
    goto after_value;
}

static int best_isa(void) {
    static int best = 0; // 0: not chosen yet (a race only chooses the same twice)
    int chosen = __atomic_load_n(&best, __ATOMIC_RELAXED);
    if (chosen == 0) {
        int isas = cjs_supported_isas();
        chosen = (isas & CJS_ISA_AVX512) ? CJS_ISA_AVX512 : (isas & CJS_ISA_AVX2) ? CJS_ISA_AVX2
               : (isas & CJS_ISA_SSE2) ? CJS_ISA_SSE2 : CJS_ISA_PORTABLE;
        __atomic_store_n(&best, chosen, __ATOMIC_RELAXED);
    }
    return chosen;
}

int64_t cjs_scan_object(const uint8_t *p, size_t n, cjs_member *members, size_t capacity, int64_t *first_high, int max_depth) {
    return cjs_scan_object_isa(best_isa(), p, n, members, capacity, first_high, max_depth);
}

// MARK: looking inside a validated object

/// From `i` (after an opening quote) to its closing quote, in a string already validated; *escaped is set
/// when the string holds a backslash.
static inline size_t string_end(const uint8_t *p, size_t i, size_t end, int *escaped) {
    for (;;) {
#if defined(__x86_64__)
        while (i + 16 <= end) {
            __m128i x = _mm_loadu_si128((const __m128i *)(p + i));
            unsigned mask = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')), _mm_cmpeq_epi8(x, _mm_set1_epi8('\\'))));
            if (mask) {
                i += (size_t)__builtin_ctz(mask);
                break;
            }
            i += 16;
        }
#endif
        while (i < end && p[i] != '"' && p[i] != '\\') i++;
        if (i >= end || p[i] == '"') return i;
        *escaped = 1;
        i += 2;
    }
}

/// From a value's first byte to just after it, in a value already validated.
static inline size_t value_end(const uint8_t *p, size_t i, size_t end) {
    int escaped = 0;
    switch (p[i]) {
    case '"':
        return string_end(p, i + 1, end, &escaped) + 1;
    case '{': case '[': {
        int depth = 0;
        while (i < end) {
            uint8_t b = p[i];
            if (b == '"') {
                i = string_end(p, i + 1, end, &escaped) + 1;
                continue;
            }
            if (b == '{' || b == '[') depth++;
            else if (b == '}' || b == ']') {
                if (--depth == 0) return i + 1;
            }
            i++;
        }
        return i;
    }
    default:
        while (i < end && !ends_token(p, end, i)) i++;
        return i;
    }
}

static inline size_t skip_space(const uint8_t *p, size_t i, size_t end) {
    while (i < end && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r')) i++;
    return i;
}

int cjs_find_member(const uint8_t *p, size_t start, size_t end, const uint8_t *key, size_t key_length, cjs_member *out) {
    if (end - start < 2 || p[start] != '{') return 0;
    size_t i = start + 1, last = end - 1; // `last`: the closing brace
    int found = 0, unsure = 0;
    for (;;) {
        i = skip_space(p, i, last);
        if (i >= last || p[i] != '"') break;
        size_t key_start = i + 1;
        int key_escaped = 0;
        size_t key_end = string_end(p, key_start, last, &key_escaped);
        i = skip_space(p, key_end + 1, last) + 1; // past ':'
        i = skip_space(p, i, last);
        if (i >= last) break; // not an object cjs_scan_object accepted: read nothing past it
        size_t value_start = i;
        i = value_end(p, i, last);
        if (key_escaped) {
            unsure = 1;
        } else if (key_end - key_start == key_length && memcmp(p + key_start, key, key_length) == 0) {
            uint8_t kind = kind_of(p[value_start]);
            int value_escaped = 0;
            if (kind == KIND_STRING) string_end(p, value_start + 1, i, &value_escaped);
            *out = (cjs_member){(int64_t)key_start, (int64_t)key_end, (int64_t)(kind == KIND_STRING ? value_start + 1 : value_start),
                                (int64_t)(kind == KIND_STRING ? i - 1 : i), kind, 0, (uint8_t)value_escaped};
            found = 1;
        }
        i = skip_space(p, i, last);
        if (i < last && p[i] == ',') i++;
    }
    return unsure ? -1 : found;
}

// MARK: escaping for output

size_t cjs_copy_clean(const uint8_t *src, size_t n, uint8_t *dst) { return cjs_copy_clean_inline(src, n, dst); }
