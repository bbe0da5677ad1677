import CPCRE2

/// A PCRE2 regular expression compiled once (with JIT where the machine allows) and matched against
/// bytes.
///
/// A pattern of ASCII characters only is matched byte by byte: ~2x faster, and for log patterns
/// (`\S+`, `.*`, literals, classes of ASCII) the same spans as in UTF mode, because they are delimited by
/// ASCII. A pattern with non-ASCII characters, or one that starts with `(*UTF)`, is matched in UTF-8
/// mode with `PCRE2_MATCH_INVALID_UTF`, so that `.` and classes see characters and invalid bytes in a
/// line never fail a match.
///
/// Holds its own match data: use one instance from one thread at a time (each pipeline compiles its own).
public final class Regex {
    public let pattern: String
    private let code: OpaquePointer
    private let matchData: OpaquePointer
    private let matchContext: OpaquePointer?
    private let jitStack: OpaquePointer?
    private let usesJIT: Bool
    private let ovector: UnsafeMutablePointer<Int>

    public init(_ pattern: String) throws(RegexError) {
        self.pattern = pattern
        var errorCode: Int32 = 0
        var errorOffset = 0
        isUTF = Regex.needsUTF(pattern)
        let options = isUTF ? UInt32(PCRE2_UTF) | UInt32(PCRE2_MATCH_INVALID_UTF) : 0
        let compiled = Array(pattern.utf8).withUnsafeBufferPointer { p in
            pcre2_compile_8(p.baseAddress ?? Regex.emptySubject, p.count, options, &errorCode, &errorOffset, nil)
        }
        guard let compiled else {
            throw RegexError(message: Regex.message(for: errorCode), offset: errorOffset)
        }
        code = compiled
        usesJIT = pcre2_jit_compile_8(compiled, UInt32(PCRE2_JIT_COMPLETE)) == 0
        // The default 32 KiB JIT stack is too small for some backtracking patterns; give it room to grow.
        jitStack = usesJIT ? pcre2_jit_stack_create_8(32 * 1024, 1024 * 1024, nil) : nil
        matchContext = usesJIT ? pcre2_match_context_create_8(nil) : nil
        if let jitStack, let matchContext { pcre2_jit_stack_assign_8(matchContext, nil, UnsafeMutableRawPointer(jitStack)) }
        matchData = pcre2_match_data_create_from_pattern_8(compiled, nil)
        ovector = pcre2_get_ovector_pointer_8(matchData)
    }

    /// Whether `pattern` is compiled in UTF-8 mode (see the type's comment).
    public let isUTF: Bool

    static func needsUTF(_ pattern: String) -> Bool {
        pattern.utf8.contains { $0 >= 0x80 } || pattern.hasPrefix("(*UTF)")
    }

    deinit {
        pcre2_match_data_free_8(matchData)
        if let matchContext { pcre2_match_context_free_8(matchContext) }
        if let jitStack { pcre2_jit_stack_free_8(jitStack) }
        pcre2_code_free_8(code)
    }

    /// Whether the expression matches somewhere in `subject`; on success `group(_:)` reads the captures.
    public func matches(_ subject: UnsafeBufferPointer<UInt8>) -> Bool { match(subject) > 0 }

    /// The byte range of capture group `number` in the last successful match, or nil if it did not take part.
    public func group(_ number: Int) -> Range<Int>? {
        let start = ovector[2 * number], end = ovector[2 * number + 1]
        return start == Regex.unset ? nil : start..<end
    }

    /// Named groups with their numbers, in the order of their numbers.
    public var namedGroups: [(name: String, number: Int)] {
        var count: UInt32 = 0, entrySize: UInt32 = 0
        var table: UnsafePointer<UInt8>?
        pcre2_pattern_info_8(code, UInt32(PCRE2_INFO_NAMECOUNT), &count)
        pcre2_pattern_info_8(code, UInt32(PCRE2_INFO_NAMEENTRYSIZE), &entrySize)
        pcre2_pattern_info_8(code, UInt32(PCRE2_INFO_NAMETABLE), &table)
        guard let table, count > 0 else { return [] }
        var groups: [(name: String, number: Int)] = []
        for i in 0..<Int(count) {
            let entry = table + i * Int(entrySize)
            let number = Int(entry[0]) << 8 | Int(entry[1])
            groups.append((String(cString: entry + 2), number))
        }
        return groups.sorted { $0.number < $1.number }
    }

    func match(_ subject: UnsafeBufferPointer<UInt8>) -> Int32 {
        let base = subject.baseAddress ?? Regex.emptySubject
        if usesJIT {
            return pcre2_jit_match_8(code, base, subject.count, 0, 0, matchData, matchContext)
        }
        return pcre2_match_8(code, base, subject.count, 0, 0, matchData, nil)
    }

    private static let unset = Int(bitPattern: UInt(bitPattern: -1))
    nonisolated(unsafe) static let emptySubject: UnsafePointer<UInt8> = {
        let p = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        p.initialize(to: 0)
        return UnsafePointer(p)
    }()

    static func message(for errorCode: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = pcre2_get_error_message_8(errorCode, &buffer, buffer.count)
        return n > 0 ? String(decoding: buffer[..<Int(n)], as: UTF8.self) : "error \(errorCode)"
    }
}

extension Regex {
    /// PCRE2's own version string (`10.42 2022-12-11`).
    public static var libraryVersion: String {
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = buffer.withUnsafeMutableBytes { pcre2_config_8(UInt32(PCRE2_CONFIG_VERSION), $0.baseAddress) }
        guard n > 1 else { return "unknown" }
        return String(decoding: buffer.prefix(Int(n) - 1), as: UTF8.self)
    }
}
