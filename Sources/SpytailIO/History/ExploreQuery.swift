import SpytailCore

/// What one request of the explorer asks for: a time window, a search (text, smart case, or regex) and view
/// conditions (`include=`, `exclude=`, as for the live view). Two requests with the same query share one
/// search (`Explorer` keeps the last one's rows).
public struct ExploreQuery: Sendable, Hashable {
    /// Nanoseconds since the Unix epoch; nil: open.
    public var from: Int64?
    public var to: Int64?
    public var text: String?
    public var isRegex = false
    public var includes: [String] = []
    public var excludes: [String] = []

    public init(from: Int64? = nil, to: Int64? = nil, text: String? = nil, isRegex: Bool = false,
                includes: [String] = [], excludes: [String] = []) {
        self.from = from
        self.to = to
        self.text = text.flatMap { $0.isEmpty ? nil : $0 }
        self.isRegex = isRegex
        self.includes = includes
        self.excludes = excludes
    }

    /// Whether rows must be read to be chosen (else the window is every row in it).
    public var searches: Bool { text != nil || !includes.isEmpty || !excludes.isEmpty }

    /// The same conditions over the whole history (what the counts "over the whole history" use).
    public var unwindowed: ExploreQuery {
        var copy = self
        (copy.from, copy.to) = (nil, nil)
        return copy
    }
}

/// A query that cannot run: the parameter and what is wrong with it.
public struct ExploreError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
