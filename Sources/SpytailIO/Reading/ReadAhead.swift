import Glibc

/// Reads a source on a thread of its own, up to `depth` chunks ahead of the consumer: the next chunk of a
/// gzip member is inflated while this one is split and cut into blocks. Without it inflating and
/// splitting take turns on the reader's thread, which then bounds a compressed chain on two cores.
///
/// The wrapped source belongs to the read-ahead thread from `init` until `close()`; the consumer reads
/// through `read(into:)` only. The thread stops at the source's end or error (delivered in order, after
/// the data before it) or at `close()`, which also waits for it: call it before the source is used
/// again or goes away.
final class ReadAhead: ByteSource {
    private let shared: Shared
    private let thread: WorkerThreads
    /// The chunk being handed out, and how much of it is.
    private var current: (chunk: UnsafeMutableRawBufferPointer, count: Int, taken: Int)?
    private var closed = false
    let isCompressed: Bool

    init(_ source: any ByteSource, chunkSize: Int = 256 * 1024, depth: Int = 4) {
        isCompressed = source.isCompressed
        let shared = Shared(source: source, chunkSize: chunkSize, depth: depth)
        self.shared = shared
        thread = WorkerThreads(count: 1) { _ in shared.fill() }
    }

    deinit { close() }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ReadError) -> Int {
        if current == nil {
            switch shared.next() {
            case .chunk(let chunk, let count): current = (chunk, count, 0)
            case .end: return 0
            case .failure(let error): throw error
            }
        }
        let (chunk, count, taken) = current!
        let n = min(buffer.count, count - taken)
        buffer.baseAddress!.copyMemory(from: chunk.baseAddress! + taken, byteCount: n)
        if taken + n == count {
            current = nil
            shared.giveBack(chunk)
        } else {
            current = (chunk, count, taken + n)
        }
        return n
    }

    /// Stops the thread (if it still reads) and waits for it; the source is the caller's again.
    func close() {
        guard !closed else { return }
        closed = true
        shared.cancel()
        thread.join()
        shared.deallocate()
    }

    /// What one `next()` hands over.
    private enum Delivery {
        case chunk(UnsafeMutableRawBufferPointer, Int)
        case end
        case failure(ReadError)
    }

    /// The chunks and the source, shared by the two threads under one lock.
    private final class Shared: @unchecked Sendable {
        private let lock = ThreadLock()
        private let source: any ByteSource
        private let chunks: [UnsafeMutableRawBufferPointer]
        private var free: [UnsafeMutableRawBufferPointer]
        private var filled: [(UnsafeMutableRawBufferPointer, Int)] = []
        private var finished = false
        private var failure: ReadError?
        private var cancelled = false

        init(source: any ByteSource, chunkSize: Int, depth: Int) {
            self.source = source
            chunks = (0..<max(1, depth)).map { _ in .allocate(byteCount: chunkSize, alignment: 64) }
            free = chunks
        }

        /// The read-ahead thread: fills free chunks until the end, an error or a cancel.
        func fill() {
            while let chunk = takeFree() {
                let n: Int
                do {
                    n = try source.read(into: chunk)
                } catch {
                    lock.withLock { (failure, finished) = (error, true) }
                    lock.broadcast()
                    return
                }
                lock.withLock {
                    if n == 0 { finished = true } else { filled.append((chunk, n)) }
                }
                lock.broadcast()
                if n == 0 { return }
            }
        }

        private func takeFree() -> UnsafeMutableRawBufferPointer? {
            lock.withLock {
                while free.isEmpty && !cancelled { lock.wait() }
                return cancelled ? nil : free.removeLast()
            }
        }

        /// The consumer: the next filled chunk, waiting for one, or the end or error once all are handed out.
        func next() -> Delivery {
            lock.withLock {
                while filled.isEmpty && !finished { lock.wait() }
                if !filled.isEmpty {
                    let (chunk, count) = filled.removeFirst()
                    return .chunk(chunk, count)
                }
                if let error = failure {
                    failure = nil
                    return .failure(error)
                }
                return .end
            }
        }

        func giveBack(_ chunk: UnsafeMutableRawBufferPointer) {
            lock.withLock { free.append(chunk) }
            lock.broadcast()
        }

        func cancel() {
            lock.withLock { cancelled = true }
            lock.broadcast()
        }

        /// After the thread is joined.
        func deallocate() {
            for chunk in chunks { chunk.deallocate() }
        }
    }
}
