// PCRE2 needs its code-unit width chosen before the header; spytail matches UTF-8 bytes.
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
