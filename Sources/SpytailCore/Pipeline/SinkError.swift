/// A failed write, with the destination's name and the cause.
public struct SinkError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Cause: Sendable, Equatable {
        /// The reader of a pipe went away (EPIPE).
        case closedByReader
        /// No space left on the device (ENOSPC, EDQUOT).
        case noSpace
        /// A network destination does not take more now (unreachable, failing, its buffer full): the
        /// bytes wait, reading pauses, as for a full disk. The text says why.
        case waiting(String)
        case other(errno: Int32, message: String)
        /// The output cannot be opened as configured (a password or CA file unreadable, a scan asked for
        /// a network output): nothing was written.
        case unusable(String)

        /// The output will take the bytes later: reading pauses and the write is retried (nothing is lost).
        public var pausesReading: Bool {
            switch self {
            case .noSpace, .waiting: true
            case .closedByReader, .other, .unusable: false
            }
        }
    }

    public let destination: String
    public let cause: Cause
    /// Bytes of the failed write that did reach the destination (the rest must be written again).
    public let written: Int

    public init(destination: String, cause: Cause, written: Int = 0) {
        self.destination = destination
        self.cause = cause
        self.written = written
    }

    public var description: String {
        switch cause {
        case .closedByReader: "\(destination): the reader closed the pipe"
        case .noSpace: "\(destination): no space left on device"
        case .waiting(let reason): "\(destination): \(reason)"
        case .other(let errno, let message): "\(destination): write failed: \(message) (errno \(errno))"
        case .unusable(let reason): "\(destination): cannot be opened: \(reason)"
        }
    }
}
