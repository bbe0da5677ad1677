import Glibc

/// A value guarded by a pthread mutex, for state shared between threads.
///
/// `Synchronization.Mutex` does the same job, but on Linux it locks with a bare futex that
/// ThreadSanitizer cannot see, so every access made under it is reported as a race and a sanitized
/// run stops. A pthread mutex is understood by the sanitizers, and uncontended it costs the same.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = ThreadLock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    public func withLock<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        try lock.withLock { () throws(E) -> T in try body(&value) }
    }
}
