/// Why a transport's step did not go through, as the destination or the system said it. Two failures are the
/// same problem when they are equal: a problem is said once, and again only when it changes.
enum DeliveryFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// The destination answered with an error status (HTTP) and its own text.
    case status(code: Int, text: String)
    /// The destination read the records and said no (a RELP response other than 200), with its text.
    case refused(String)
    /// The destination could not be reached, or the connection broke or timed out: the client's words.
    case connection(String)

    /// The destination said no to what it was sent (a 4xx: a wrong table, column or password; a RELP refusal):
    /// sending it again at once would get the same answer, so it is tried slowly until a reload fixes it.
    var isRefusal: Bool {
        switch self {
        case .status(let code, _): (400..<500).contains(code)
        case .refused: true
        case .connection: false
        }
    }

    var description: String {
        switch self {
        case .status(let code, let text): "HTTP \(code)" + (text.isEmpty ? "" : ": \(text.prefix(500))")
        case .refused(let text), .connection(let text): text
        }
    }
}

/// A transport's answer to one step.
enum DeliveryOutcome: Equatable {
    case accepted
    case failed(DeliveryFailure)
}
