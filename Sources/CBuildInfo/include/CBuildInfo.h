// What a build stamps into the binary: the commit and the date, given by the release build
// (`swift build -Xcc -DSPYTAIL_COMMIT='"…"' -Xcc -DSPYTAIL_BUILD_DATE='"…"'`, see scripts/build-release).
const char *spytail_build_commit(void);
const char *spytail_build_date(void);
