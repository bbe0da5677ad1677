import CBuildInfo
import CIsal
import SpytailCore

/// What this binary is: version, the commit and date a release build stamps in, the Swift it was built with,
/// and the C libraries it reads gzip, regexes and inotify with.
public enum BuildInfo {
    public static let version = "0.1.0"
    public static var commit: String { String(cString: spytail_build_commit()) }
    public static var buildDate: String { String(cString: spytail_build_date()) }

    public static var swiftVersion: String {
        #if compiler(>=6.4)
        return "6.4 or later"
        #elseif compiler(>=6.3)
        return "6.3"
        #else
        return "before 6.3"
        #endif
    }

    /// Library name and version, as the library says it (ISA-L: the headers built against; libinotifytools
    /// has no version call).
    public static var libraries: [(name: String, version: String)] {
        [("pcre2", Regex.libraryVersion),
         ("isa-l", "\(ISAL_MAJOR_VERSION).\(ISAL_MINOR_VERSION).\(ISAL_PATCH_VERSION)"),
         ("libinotifytools", "linked (no version call)")]
    }
}
